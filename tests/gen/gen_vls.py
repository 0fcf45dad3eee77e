#!/usr/bin/env python3
"""gen_vls.py OUTDIR CASE — inputs and independently computed expected outputs for tests/vls/*.pto
(vector loads/stores, gathers/scatters, alignment-state streams, SPR AR).

Every kernel in tests/vls loads `in.bin` into UB at 0 and `out_init.bin` into UB at 0x10000 (OUT), runs its
vector scope, and stores the OUT region back to `out.bin`, which run.py compares with `expected.bin`.
The reference models below are written from the rule texts (resolutions Q21-Q25, §2.2, §2.3, §2.6 and the
S pseudo-code), with plain Python loops over byte arrays; they share no code with ptosim.
"""

import genlib as gl

OUT = 0x10000          # UB address of the output region
UB_SIZE = 256 * 1024


def pattern(n, seed):
    """deterministic pseudo-random bytes"""
    return gl.lcg_bytes(n, seed, add=12345)


def rd(buf, addr, w):
    return int.from_bytes(bytes(buf[addr:addr + w]), "little")


def wr(buf, addr, w, v):
    buf[addr:addr + w] = (v & ((1 << (8 * w)) - 1)).to_bytes(w, "little")


def lane(reg, w, i):
    return rd(reg, w * i, w)


def set_lane(reg, w, i, v):
    wr(reg, w * i, w, v)


def bit(img, k):
    return (img[k // 8] >> (k % 8)) & 1


# ---- masks (resolutions Q3, Q5, Q9, §2.2): lane i of a bG view is image bit g*i
def mask_lanes(active, g):
    img = bytearray(32)
    for i in range(256 // g):
        if active(i):
            img[(g * i) // 8] |= 1 << ((g * i) % 8)
    return img


def pset(g, tok):
    n = 256 // g
    if tok == "ALL":
        return mask_lanes(lambda i: True, g)
    if tok == "ALLF":
        return mask_lanes(lambda i: False, g)
    if tok == "H":
        return mask_lanes(lambda i: i < n // 2, g)
    if tok == "Q":
        return mask_lanes(lambda i: i < n // 4, g)
    if tok == "M3":
        return mask_lanes(lambda i: i % 3 == 0, g)
    if tok == "M4":
        return mask_lanes(lambda i: i % 4 == 0, g)
    if tok.startswith("VL"):
        k = int(tok[2:])
        return mask_lanes(lambda i: i < k, g)
    raise ValueError(tok)


def plt(g, s):
    return mask_lanes(lambda i: i < s, g)


class Case:
    def __init__(self, in_size, out_size, seed):
        self.inb = pattern(in_size, seed)
        self.out0 = pattern(out_size, seed + 1000)
        self.ub = bytearray(UB_SIZE)
        self.ub[0:in_size] = self.inb
        self.ub[OUT:OUT + out_size] = self.out0
        self.out_size = out_size
        self.ar = 0        # SPR AR
        self.sqzn = 0      # SPR SQZN (bytes)

    def vec(self, addr):
        return bytearray(self.ub[addr:addr + 256])

    def store(self, addr, data):
        self.ub[addr:addr + len(data)] = data

    def masked_store(self, addr, reg, img, w):
        """NORM store: lane i (w bytes) written iff image bit w*i"""
        for i in range(256 // w):
            if bit(img, w * i):
                self.ub[addr + w * i: addr + w * i + w] = reg[w * i: w * i + w]

    def save(self, out):
        gl.save("in.bin", self.inb, out)
        gl.save("out_init.bin", self.out0, out)
        gl.save("expected.bin", self.ub[OUT:OUT + self.out_size], out)


# ---- vlds distributions (resolutions Q24; unexercised tokens per the S descriptions)
def vlds(ub, addr, dist):
    r = bytearray(256)
    if dist == "NORM":
        r[:] = ub[addr:addr + 256]
    elif dist in ("BRC_BLK", "BLK"):
        for b in range(8):
            r[32 * b:32 * b + 32] = ub[addr:addr + 32]
    elif dist.startswith("BRC_B"):
        w = int(dist[5:]) // 8
        for i in range(256 // w):
            r[w * i:w * i + w] = ub[addr:addr + w]
    elif dist.startswith("US_B"):
        w = int(dist[4:]) // 8
        for j in range(128 // w):
            e = ub[addr + w * j: addr + w * j + w]
            r[w * 2 * j: w * 2 * j + w] = e
            r[w * (2 * j + 1): w * (2 * j + 1) + w] = e
    elif dist.startswith("DS_B") or dist == "DINTLV_B32":
        w = 4 if dist == "DINTLV_B32" else int(dist[4:]) // 8
        for j in range(256 // w):
            r[w * j:w * j + w] = ub[addr + 2 * w * j: addr + 2 * w * j + w]
    elif dist.startswith("UNPK_B"):
        w = int(dist[6:]) // 8
        for j in range(128 // w):
            set_lane(r, 2 * w, j, rd(ub, addr + w * j, w))
    elif dist in ("UNPK4", "UNPK4_B8"):
        for j in range(64):
            set_lane(r, 4, j, ub[addr + j])
    elif dist.startswith("E2B_B"):
        w = int(dist[5:]) // 8
        for b in range(8):
            for k in range(32 // w):
                r[32 * b + w * k: 32 * b + w * k + w] = ub[addr + w * b: addr + w * b + w]
    elif dist == "SPLT4CHN_B8":
        for b in range(8):
            for p in range(8):
                for c in range(4):
                    r[32 * b + 8 * c + p] = ub[addr + 32 * b + 4 * p + c]
    elif dist.startswith("SPLT2CHN_B"):
        w = int(dist[10:]) // 8
        px = 16 // w
        for b in range(8):
            for p in range(px):
                for c in range(2):
                    src = addr + 32 * b + w * (2 * p + c)
                    dst = 32 * b + w * (c * px + p)
                    r[dst:dst + w] = ub[src:src + w]
    else:
        raise ValueError(dist)
    return r


# ---- vsts distributions (resolutions Q25; MRG* per S): returns list of (byte offset, bytes) writes
def vsts_writes(reg, dist, img):
    wr_ = []
    if dist.startswith("NORM_B"):
        w = int(dist[6:]) // 8
        for i in range(256 // w):
            if bit(img, w * i):
                wr_.append((w * i, reg[w * i:w * i + w]))
    elif dist.startswith("1PT_B"):
        w = int(dist[5:]) // 8
        wr_.append((0, reg[0:w]))                       # predicate ignored (S)
    elif dist.startswith("PK_B"):
        w = int(dist[4:]) // 8                          # source lane bytes; keeps the low half
        h = w // 2
        for j in range(256 // w):
            if bit(img, w * j):                         # predicate at the dist width (b64: image bit 8j)
                wr_.append((h * j, reg[w * j:w * j + h]))
    elif dist == "PK4_B32":
        for j in range(64):
            if bit(img, 4 * j):
                wr_.append((j, reg[4 * j:4 * j + 1]))
    elif dist == "MRG4CHN_B8":
        for b in range(8):
            for p in range(8):
                if bit(img, 4 * (8 * b + p)):          # b32 lane = one merged 4-byte pixel
                    wr_.append((32 * b + 4 * p, bytes(reg[32 * b + 8 * c + p] for c in range(4))))
    elif dist.startswith("MRG2CHN_B"):
        w = int(dist[9:]) // 8
        px = 16 // w
        for b in range(8):
            for p in range(px):
                if bit(img, 2 * w * (px * b + p)):     # lane of the merged 2w-byte pixel
                    data = reg[32 * b + w * p: 32 * b + w * p + w] + reg[32 * b + w * (px + p): 32 * b + w * (px + p) + w]
                    wr_.append((32 * b + 2 * w * p, data))
    else:
        raise ValueError(dist)
    return wr_


def compress(reg, img, w):
    r = bytearray(256)
    j = 0
    for i in range(256 // w):
        if bit(img, w * i):
            r[w * j:w * j + w] = reg[w * i:w * i + w]
            j += 1
    return r, j


# ====================================================================== cases
def case_norm_widths():
    c = Case(2048, 2048, 1)
    ub = c.ub
    for k in range(2):                                  # ui8, loop of two vectors
        c.store(OUT + 256 * k, vlds(ub, 256 * k, "NORM"))
    c.masked_store(OUT + 512, vlds(ub, 512, "NORM"), pset(2, "ALL"), 2)       # f16, PAT_ALL
    c.masked_store(OUT + 768, vlds(ub, 768, "NORM"), plt(4, 5), 4)       # f32, plt_b32 5
    c.store(OUT + 1024, vlds(ub, 1024, "NORM"))                                # i64, no mask
    c.masked_store(OUT + 1280, vlds(ub, 1280, "NORM"), pset(4, "ALL"), 4)     # si32 NORM_B32 token
    return c


def case_brc():
    c = Case(2048, 2048, 2)
    ub = c.ub
    c.store(OUT + 0, vlds(ub, 37, "BRC_B8"))
    c.store(OUT + 256, vlds(ub, 10, "BRC_B16"))
    c.store(OUT + 512, vlds(ub, 12, "BRC_B32"))
    c.store(OUT + 768, vlds(ub, 28, "BRC_B16"))        # BRC_B16 through an f32 pointer, element 7
    c.store(OUT + 1024, vlds(ub, 36, "BRC_B8"))        # BRC_B8 through an f32 pointer, element 9
    c.store(OUT + 1280, vlds(ub, 64, "BRC_BLK"))
    c.store(OUT + 1536, vlds(ub, 160, "BLK"))
    return c


def case_us_ds():
    c = Case(2048, 2048, 3)
    ub = c.ub
    c.store(OUT + 0, vlds(ub, 0, "US_B8"))
    c.store(OUT + 256, vlds(ub, 128, "US_B16"))
    c.store(OUT + 512, vlds(ub, 512, "DS_B8"))
    c.store(OUT + 768, vlds(ub, 1024, "DS_B16"))
    return c


def case_unpk():
    c = Case(2048, 2048, 4)
    ub = c.ub
    c.store(OUT + 0, vlds(ub, 0, "UNPK_B8"))
    c.store(OUT + 256, vlds(ub, 128, "UNPK_B16"))
    c.store(OUT + 512, vlds(ub, 256, "UNPK_B32"))
    c.store(OUT + 768, vlds(ub, 384, "UNPK4"))
    c.store(OUT + 1024, vlds(ub, 448, "UNPK4_B8"))
    return c


def case_e2b_splt():
    c = Case(2048, 2048, 5)
    ub = c.ub
    c.store(OUT + 0, vlds(ub, 32, "E2B_B16"))
    c.store(OUT + 256, vlds(ub, 64, "E2B_B32"))
    c.store(OUT + 512, vlds(ub, 256, "SPLT4CHN_B8"))
    c.store(OUT + 768, vlds(ub, 512, "SPLT2CHN_B8"))
    c.store(OUT + 1024, vlds(ub, 768, "SPLT2CHN_B16"))
    c.store(OUT + 1280, vlds(ub, 1024, "DINTLV_B32"))
    return c


def case_post():
    # resolutions §2.3: a post-update form accesses base and returns base + off*unit (elements)
    c = Case(2048, 4096, 6)
    ub = c.ub
    pi, po = 0, OUT
    for _ in range(4):
        v = vlds(ub, pi, "NORM")
        pi += 64 * 4
        c.masked_store(po, v, pset(4, "ALL"), 4)
        po += 128 * 4
    c.store(po, vlds(ub, pi, "BRC_B32"))               # the final pointers of the loop
    # a post-update vlds with a distribution, then a post-update vsts of 16-bit lanes with a tail mask
    v = vlds(ub, 1536, "US_B16")                       # pointer result 1536 + 2*32
    c.masked_store(OUT + 3072, v, plt(2, 70), 2)       # pointer result OUT+3072 + 2*128 = OUT+3328
    c.store(OUT + 3328, vlds(ub, 1536 + 64, "NORM"))
    return c


def case_trap_in(in_size=2048, out_size=2048, seed=7):
    return Case(in_size, out_size, seed)


def case_vsts_masks():
    c = Case(2304, 2048, 8)
    ub = c.ub
    m_b32 = ub[2048:2080]
    m_b16 = ub[2080:2112]
    c.masked_store(OUT + 0, vlds(ub, 0, "NORM"), plt(4, 5), 4)
    c.masked_store(OUT + 256, vlds(ub, 256, "NORM"), plt(2, 13), 2)
    c.masked_store(OUT + 512, vlds(ub, 512, "NORM"), pset(1, "M3"), 1)
    for off, data in vsts_writes(vlds(ub, 768, "NORM"), "NORM_B8", plt(1, 7)):
        c.store(OUT + 768 + off, data)
    for off, data in vsts_writes(vlds(ub, 1024, "NORM"), "NORM_B16", pset(2, "H")):
        c.store(OUT + 1024 + off, data)
    for off, data in vsts_writes(vlds(ub, 1280, "NORM"), "NORM_B32", m_b32):
        c.store(OUT + 1280 + off, data)
    c.masked_store(OUT + 1536, vlds(ub, 1536, "NORM"), m_b16, 2)
    c.masked_store(OUT + 1792, vlds(ub, 0, "NORM"), pset(4, "ALLF"), 4)
    return c


def case_vsts_dists():
    c = Case(2304, 2048, 9)
    ub = c.ub
    m1 = ub[2048:2080]
    m2 = ub[2080:2112]

    def st(addr, reg, dist, img):
        for off, data in vsts_writes(reg, dist, img):
            c.store(addr + off, data)
    st(OUT + 3, vlds(ub, 0, "NORM"), "1PT_B8", pset(1, "ALL"))
    st(OUT + 10, vlds(ub, 256, "NORM"), "1PT_B16", pset(2, "ALL"))
    st(OUT + 28, vlds(ub, 512, "NORM"), "1PT_B32", pset(4, "ALLF"))
    st(OUT + 256, vlds(ub, 0, "NORM"), "PK_B16", plt(2, 100))
    st(OUT + 512, vlds(ub, 256, "NORM"), "PK_B32", pset(4, "M4"))
    st(OUT + 768, vlds(ub, 512, "NORM"), "PK_B64", plt(4, 50))
    st(OUT + 1024, vlds(ub, 1024, "NORM"), "PK4_B32", m1)
    st(OUT + 1280, vlds(ub, 1280, "NORM"), "MRG4CHN_B8", plt(4, 37))
    st(OUT + 1536, vlds(ub, 1536, "NORM"), "MRG2CHN_B8", plt(2, 77))
    st(OUT + 1792, vlds(ub, 1792, "NORM"), "MRG2CHN_B16", m2)
    return c


def case_x2():
    c = Case(2048, 4096, 10)
    ub = c.ub
    for base, w, out in ((0, 1, 0), (512, 2, 512), (1024, 4, 1024)):
        lo, hi = bytearray(256), bytearray(256)
        for i in range(256 // w):                       # lo = even elements, hi = odd elements
            set_lane(lo, w, i, rd(ub, base + 2 * w * i, w))
            set_lane(hi, w, i, rd(ub, base + 2 * w * i + w, w))
        c.store(OUT + out, lo)
        c.store(OUT + out + 256, hi)
    lo, hi = bytearray(256), bytearray(256)             # BDINTLV: even / odd 32-byte blocks
    for b in range(8):
        lo[32 * b:32 * b + 32] = ub[1536 + 64 * b: 1536 + 64 * b + 32]
        hi[32 * b:32 * b + 32] = ub[1536 + 64 * b + 32: 1536 + 64 * b + 64]
    c.store(OUT + 1536, lo)
    c.store(OUT + 1792, hi)
    for a, b, w, out in ((0, 256, 1, 2048), (512, 768, 2, 2560), (1024, 1280, 4, 3072)):
        x, y = vlds(ub, a, "NORM"), vlds(ub, b, "NORM")
        o = bytearray(512)
        for i in range(256 // w):                       # x0, y0, x1, y1, ... (predicate ignored)
            set_lane(o, w, 2 * i, lane(x, w, i))
            set_lane(o, w, 2 * i + 1, lane(y, w, i))
        c.store(OUT + out, o)
    return c


def case_blocks():
    # resolutions Q23: 32-byte blocks; non-post block b at p + (rs + b*bs)*32; post at p + b*bs*32 returning
    # p + rs*32; block b enabled by b32 lane b (image bit 4b, as for vgatherb §2.6); masked-off load blocks 0
    c = Case(2304, 4096, 11)
    ub = c.ub
    m1 = ub[2048:2080]
    m2 = ub[2080:2112]
    # 1: huge block stride, blocks 4..7 masked off (and out of UB): no fault
    r = bytearray(256)
    for b in range(8):
        if bit(pset(4, "VL4"), 4 * b):
            a = 0 + b * 2048 * 32
            r[32 * b:32 * b + 32] = ub[a:a + 32]
    c.store(OUT + 2560, r)
    # 2: vsldb bs=2 rs=4 with mask m1
    r = bytearray(256)
    for b in range(8):
        if bit(m1, 4 * b):
            a = 0 + (4 + 2 * b) * 32
            r[32 * b:32 * b + 32] = ub[a:a + 32]
    c.store(OUT + 0, r)
    # 3: post form at 512, bs=1 rs=8: blocks at 512 + 32b; pointer result 512 + 256
    r = bytearray(ub[512:768])
    pn = 512 + 8 * 32
    c.store(OUT + 256, vlds(ub, pn, "BRC_B32"))
    c.store(OUT + 512, r)
    # 4: vsstb of vlds(1024) at OUT+1024, bs=3 rs=1, mask m2
    v = vlds(ub, 1024, "NORM")
    for b in range(8):
        if bit(m2, 4 * b):
            a = OUT + 1024 + (1 + 3 * b) * 32
            c.store(a, v[32 * b:32 * b + 32])
    # 5: post vsstb of r at OUT+2048 bs=1 rs=9: blocks at OUT+2048+32b; pointer result OUT+2048+288
    for b in range(8):
        c.store(OUT + 2048 + 32 * b, r[32 * b:32 * b + 32])
    c.masked_store(OUT + 2048 + 288, vlds(ub, 0, "NORM"), pset(4, "VL4"), 4)
    return c


def gather(c, base, idx_reg, iw, e, img):
    """resolutions Q22: lane i (N = index lanes, lane width W = 256/N) = E-byte element at base + idx[i]*E,
    zero-extended; masked-off lanes 0 and never accessed"""
    n = 256 // iw
    w = 256 // n
    r = bytearray(256)
    for i in range(n):
        if bit(img, w * i):
            set_lane(r, w, i, rd(c.ub, base + lane(idx_reg, iw, i) * e, e))
    return r


def case_gather():
    c = Case(3200, 2048, 12)
    ub = c.ub
    m1 = bytearray(ub[3072:3104])
    # index vectors: in-range random values, with huge values in masked-off lanes
    def idx_vec(off, iw, limit, img, w, seed):
        p = pattern(256, seed)
        for i in range(256 // iw):
            v = rd(p, iw * i, iw) % limit
            if i % 7 == 3:
                v = rd(ub, off + iw * (i - 3), iw) % limit                  # duplicate indices
            if not bit(img, w * i):
                v = (1 << (8 * iw)) - 16                                    # far outside UB
            wr(ub, off + iw * i, iw, v)
    m_f16 = plt(2, 100)
    m_u8 = pset(2, "M3")
    m_bc = plt(4, 40)
    idx_vec(2048, 4, 512, m1, 4, 31)
    idx_vec(2304, 2, 1024, m_f16, 2, 32)
    idx_vec(2560, 2, 2048, m_u8, 2, 33)
    idx_vec(2816, 4, 512, m_bc, 4, 34)
    c.inb[:] = ub[0:3200]
    c.store(OUT + 0, gather(c, 0, vlds(ub, 2048, "NORM"), 4, 4, m1))
    c.store(OUT + 256, gather(c, 0, vlds(ub, 2304, "NORM"), 2, 2, m_f16))
    c.store(OUT + 512, gather(c, 0, vlds(ub, 2560, "NORM"), 2, 1, m_u8))
    c.store(OUT + 768, gather(c, 0, vlds(ub, 2816, "NORM"), 4, 4, m_bc))
    return c


def case_gatherb():
    # §2.6: block k (k < 8) = 32 bytes at base + off[k] (bytes), enabled by b32 lane k; inactive blocks 0
    c = Case(2304, 2048, 13)
    ub = c.ub
    m1 = bytearray(ub[2048:2080])
    p = pattern(32, 77)
    for k in range(64):
        v = (p[k % 32] % 64) * 32
        if 3 <= k < 8 and not bit(m1, 4 * k):
            v = 0x7fffffe0                               # masked off: far outside UB, never accessed
        wr(ub, 2112 + 4 * k, 4, v)
    c.inb[:] = ub[0:2304]
    offs = vlds(ub, 2112, "NORM")
    for img, out in ((m1, 0), (pset(4, "VL3"), 256)):
        r = bytearray(256)
        for k in range(8):
            if bit(img, 4 * k):
                a = lane(offs, 4, k)
                r[32 * k:32 * k + 32] = ub[a:a + 32]
        c.store(OUT + out, r)
    return c


def scatter(c, base, val, idx_reg, iw, e, img):
    """resolutions Q22: active lane i writes the low E bytes of its W-byte lane at base + idx[i]*E;
    duplicate addresses: the lowest active lane wins"""
    n = 256 // iw
    w = 256 // n
    done = set()
    for i in range(n):
        if bit(img, w * i):
            a = base + lane(idx_reg, iw, i) * e
            if a in done:
                continue
            done.add(a)
            c.ub[a:a + e] = val[w * i:w * i + e]


def case_scatter():
    c = Case(3200, 4096, 14)
    ub = c.ub
    m1 = bytearray(ub[3072:3104])

    def idx_vec(off, iw, limit, seed):
        p = pattern(256, seed)
        for i in range(256 // iw):
            v = rd(p, iw * i, iw) % limit
            if i % 5 == 2:
                v = rd(ub, off + iw * (i - 2), iw)      # duplicate of lane i-2 (lower lane wins)
            wr(ub, off + iw * i, iw, v)
    idx_vec(2048, 4, 512, 41)
    idx_vec(2304, 2, 512, 42)
    idx_vec(2560, 2, 1024, 43)
    c.inb[:] = ub[0:3200]
    scatter(c, OUT + 0, vlds(ub, 0, "NORM"), vlds(ub, 2048, "NORM"), 4, 4, m1)
    scatter(c, OUT + 2048, vlds(ub, 256, "NORM"), vlds(ub, 2304, "NORM"), 2, 2, plt(2, 90))
    scatter(c, OUT + 3072, vlds(ub, 512, "NORM"), vlds(ub, 2560, "NORM"), 2, 1, pset(2, "M4"))
    return c


def case_vldus():
    # resolutions Q21: vldus loads the 256 bytes at any byte address; post form returns p + off elements
    c = Case(2048, 2048, 15)
    ub = c.ub
    c.store(OUT + 0, ub[4:260])
    c.store(OUT + 256, ub[260:516])
    c.store(OUT + 512, ub[516:772])                    # post form, pointer result 516 + 64*4 = 772
    c.store(OUT + 768, ub[772:1028])                   # post form without offset: result 772 + 256
    c.store(OUT + 1024, vlds(ub, 1028, "BRC_B32"))
    c.store(OUT + 1280, ub[37:293])                    # ui8 pointer, byte 37
    return c


def case_vstus():
    # resolutions Q21: vstus appends the first n elements at cursor p; every appended byte is written once at
    # its own address once the stream is flushed; vstas returns p + off elements; a fresh state writes nothing
    c = Case(2048, 2048, 16)
    ub = c.ub
    v0, v1, v3 = vlds(ub, 0, "NORM"), vlds(ub, 256, "NORM"), vlds(ub, 512, "NORM")
    c.store(OUT + 4, v0[0:12])                          # n = 3 f32 at byte 4
    c.store(OUT + 16, v1[0:40])                         # n = 10 at byte 16; pointer result byte 56
    c.store(OUT + 56, v3[0:256])                        # n = 0, then n = 64 at byte 56
    c.store(OUT + 312, v0[0:4])                         # vstas result 56 + 64*4 = 312, 1PT_B32 store there
    v8 = vlds(ub, 768, "NORM")
    c.store(OUT + 1500, v8[0:5])                        # ui8 stream, vstar flush
    c.store(OUT + 1600, v8[0:7])                        # vsta flush
    return c


def case_vstu():
    # PTOAS vpto-spec: vstu stores the whole vector at base + offset (the offset is the CCE vector_address, in
    # bytes); POST_UPDATE returns offset + 256, NO_POST_UPDATE the offset itself; a flush writes the tail
    c = Case(2048, 2048, 18)
    ub = c.ub
    v = [vlds(ub, 256 * k, "NORM") for k in range(4)]
    c.store(OUT + 20, v[0])                             # stream A from byte 20: v0, v1, flushed by vsta at 532
    c.store(OUT + 276, v[1])
    c.store(OUT + 1000, v[2])                           # stream B at byte 1000, NO_POST_UPDATE, flushed at 1256
    c.store(OUT + 1512, v[3])                           # stream C at B's returned offset (1000) + 512
    return c


def case_vstur():
    # S vstur: stores the SQZN bytes set by the last vsqz/vusqz at base + AR; POST_UPDATE adds SQZN to AR
    c = Case(2304, 2048, 17)
    ub = c.ub
    m1 = ub[2048:2080]
    s1, k1 = compress(vlds(ub, 0, "NORM"), m1, 4)
    s2, k2 = compress(vlds(ub, 256, "NORM"), pset(4, "VL3"), 4)
    base = OUT + 4
    c.ar = 0
    c.store(base + c.ar, s1[0:4 * k1]); c.ar += 4 * k1           # POST_UPDATE
    c.store(base + c.ar, s2[0:4 * k2]); c.ar += 4 * k2           # POST_UPDATE
    c.store(base + c.ar, s2[0:4 * k2])                           # NO_POST_UPDATE: AR unchanged
    ar_after = c.ar
    wr(c.ub, OUT + 1024, 4, ar_after)                             # sprsts "AR" at byte offset 0
    # vusqz with 5 active lanes sets SQZN = 5 lanes * 4 bytes; second stream at OUT + 1536 + AR (AR cleared: 0)
    c.store(OUT + 1536, vlds(ub, 512, "NORM")[0:20])
    wr(c.ub, OUT + 1028, 4, 20)                                   # AR after that POST_UPDATE
    return c


def case_spr():
    # resolutions §2.3/§2.6: sprclr AR = 0; sprsti unit = one 32-bit word, sprsts unit = bytes; post forms
    # store at p and return p + off*unit; AR set through vsqz + vstur POST_UPDATE
    c = Case(2304, 2048, 18)
    ub = c.ub
    m1 = ub[2048:2080]
    s1, k1 = compress(vlds(ub, 0, "NORM"), m1, 4)
    ar = 4 * k1
    c.store(OUT + 512, s1[0:ar])                                  # the vstur payload at OUT+512 + 0
    c.store(OUT + 512 + ar, s1[0:ar])                             # NO_POST_UPDATE step at OUT+512 + AR
    P = OUT + 256
    wr(c.ub, P + 4 - 4, 4, ar)          # sprsti at (P+4)[-1 word]
    wr(c.ub, P + 8, 4, ar)              # sprsts at P[8 bytes]
    wr(c.ub, P + 16, 4, ar)             # post sprsti at P+16, result P+16+2*4 = P+24
    wr(c.ub, P + 24, 4, ar)             # post sprsts at P+24, result P+24+4
    wr(c.ub, P + 28, 4, ar)             # sprsts at that pointer + 0
    wr(c.ub, P + 40, 4, 0)              # after sprclr
    return c


def case_gather_traps():
    c = Case(1024, 2048, 19)
    for i in range(64):
        wr(c.ub, 4 * i, 4, 3 * i)            # gather indices (element 0 out of UB)
        wr(c.ub, 256 + 4 * i, 4, 32 * i)     # block-gather offsets (offset 0 misaligned)
        wr(c.ub, 512 + 4 * i, 4, i)          # scatter indices (element 0 out of UB)
    wr(c.ub, 0, 4, 100000000)
    wr(c.ub, 256, 4, 36)
    wr(c.ub, 512, 4, 70000)
    c.inb[:] = c.ub[0:1024]
    return c


def case_offsets():
    # resolutions §2.3: offsets count pointer elements, signed
    c = Case(2048, 2048, 20)
    ub = c.ub
    c.store(OUT + 512 - 128 * 4, vlds(ub, 512 - 64 * 4, "NORM"))
    c.store(OUT + 384 * 2, vlds(ub, 640 * 2, "NORM"))
    c.store(OUT + 512 * 2, ub[2:258])                  # vldus at byte 2 through an f16 pointer
    return c


CASES = {
    "norm_widths": case_norm_widths, "brc": case_brc, "us_ds": case_us_ds, "unpk": case_unpk,
    "e2b_splt": case_e2b_splt, "post": case_post, "vsts_masks": case_vsts_masks, "vsts_dists": case_vsts_dists,
    "x2": case_x2, "blocks": case_blocks, "gather": case_gather, "gatherb": case_gatherb, "scatter": case_scatter,
    "vldus": case_vldus, "vstus": case_vstus, "vstu": case_vstu, "vstur": case_vstur, "spr": case_spr,
    "offsets": case_offsets, "trap": case_trap_in, "gather_traps": case_gather_traps,
}

if __name__ == "__main__":
    gl.main(CASES, __doc__).save(gl.OUT)
