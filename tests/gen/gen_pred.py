#!/usr/bin/env python3
"""gen_pred.py OUTDIR CASE [ARGS...] — inputs and independently computed expected bytes for the predicate
tests in tests/pred/.

The reference model below is written from resolutions.md (Q1-Q9, Q45, section 2.2 and 2.3) with plain
Python lists of 256 image bits; it shares no code with ptosim. A mask is its 256-bit image; image bit k
is bit k%8 of byte k/8 in memory; logical lane i of a mask<bG> view is image bit g*i (g = 1, 2, 4 bytes).
Every case mirrors, op by op, the kernel of the .pto file that names it in its GEN line.
"""
import struct

import genlib as gl

ARGS = gl.cli(__doc__, 2)
CASE, ARGS = ARGS[0], ARGS[1:]


# ------------------------------------------------------------------ helpers

pattern_bytes = gl.lcg_bytes      # deterministic pseudo-random bytes
save = gl.save


def bits_of(mem, nbits):
    """memory bytes -> list of bits, LSB first"""
    return [(mem[k // 8] >> (k % 8)) & 1 for k in range(nbits)]


def bytes_of(bits):
    """list of bits (multiple of 8) -> bytes, LSB first"""
    out = bytearray(len(bits) // 8)
    for k, v in enumerate(bits):
        if v:
            out[k // 8] |= 1 << (k % 8)
    return out


def lanes(g):
    return 256 // g


def canonical(lane_bits, g):
    """image holding the given logical lanes, every non-lane bit 0 (Q3 producers)"""
    img = [0] * 256
    for i, v in enumerate(lane_bits):
        img[g * i] = v
    return img


def lane_view(img, g):
    """logical lanes read by a consumer: only bit g*i (Q3)"""
    return [img[g * i] for i in range(lanes(g))]


# ------------------------------------------------------------------ the ops (reference model)

def pat(token, g):
    """pset_bN / pge_bN (Q4, Q5)"""
    n = lanes(g)
    if token == "PAT_ALL":
        on = [1] * n
    elif token == "PAT_ALLF":
        on = [0] * n
    elif token == "PAT_H":
        on = [1 if i < n // 2 else 0 for i in range(n)]
    elif token == "PAT_Q":
        on = [1 if i < n // 4 else 0 for i in range(n)]
    elif token == "PAT_M3":
        on = [1 if i % 3 == 0 else 0 for i in range(n)]
    elif token == "PAT_M4":
        on = [1 if i % 4 == 0 else 0 for i in range(n)]
    elif token.startswith("PAT_VL"):
        k = int(token[6:])
        assert k <= n
        on = [1 if i < k else 0 for i in range(n)]
    else:
        raise ValueError(token)
    return canonical(on, g)


def plt(s0, g):
    """plt_bN (Q9): s0 read as unsigned 32-bit; lanes i < min(s0, N); s1 = s0 - min(s0, N)"""
    s = s0 & 0xffffffff
    n = lanes(g)
    act = min(s, n)
    return canonical([1 if i < act else 0 for i in range(n)], g), s - act


def pand(a, b, g):
    return [gg & (x & y) for x, y, gg in zip(a, b, g)]


def por(a, b, g):
    return [gg & (x | y) for x, y, gg in zip(a, b, g)]


def pxor(a, b, g):
    return [gg & (x ^ y) for x, y, gg in zip(a, b, g)]


def pnot(a, g):
    return [gg & (1 - x) for x, gg in zip(a, g)]


def psel(a, b, s):
    return [x if c else y for x, y, c in zip(a, b, s)]


def ppack(s, half):
    d = [0] * 256
    base = 128 if half == "HIGHER" else 0
    for j in range(128):
        d[base + j] = s[2 * j]
    return d


def punpack(s, half):
    d = [0] * 256
    base = 128 if half == "HIGHER" else 0
    for j in range(128):
        d[2 * j] = s[base + j]
    return d


def pintlv(a, b, g):
    n = lanes(g)
    A, B = lane_view(a, g), lane_view(b, g)
    lo = [0] * n
    hi = [0] * n
    for i in range(n // 2):
        lo[2 * i], lo[2 * i + 1] = A[i], B[i]
        hi[2 * i], hi[2 * i + 1] = A[n // 2 + i], B[n // 2 + i]
    return canonical(lo, g), canonical(hi, g)


def pdintlv(a, b, g):
    n = lanes(g)
    C = lane_view(a, g) + lane_view(b, g)
    return canonical([C[2 * i] for i in range(n)], g), canonical([C[2 * i + 1] for i in range(n)], g)


# loads and stores on a bytearray `ub` (section 2.2)
def load(ub, addr, dist):
    assert addr % 8 == 0
    if dist == "NORM":
        return bits_of(ub[addr:addr + 32], 256)
    if dist == "US":
        m = bits_of(ub[addr:addr + 16], 128)
        img = [0] * 256
        for j in range(128):
            img[2 * j] = img[2 * j + 1] = m[j]
        return img
    if dist == "DS":
        m = bits_of(ub[addr:addr + 64], 512)
        return [m[2 * j] for j in range(256)]
    raise ValueError(dist)


def store(ub, addr, img, dist):
    assert addr % 8 == 0
    if dist == "NORM":
        ub[addr:addr + 32] = bytes_of(img)
    elif dist == "PK":
        ub[addr:addr + 16] = bytes_of([img[2 * j] for j in range(128)])
    else:
        raise ValueError(dist)


# pldi/psti offsets count dist units (Q1)
UNIT = {"NORM": 32, "DS": 32, "US": 16, "PK": 16}


def pstu_payload(img, g):
    """Q45: the mask packed 1 bit per logical lane, LSB first: 8 B for b32, 16 B for b16"""
    return bytes_of(lane_view(img, g))


TOKENS = ["PAT_ALL", "PAT_ALLF", "PAT_H", "PAT_Q", "PAT_M3", "PAT_M4", "PAT_VL1", "PAT_VL2", "PAT_VL3",
          "PAT_VL4", "PAT_VL8", "PAT_VL16", "PAT_VL32", "PAT_VL64", "PAT_VL128"]


def tokens_for(g):
    return [t for t in TOKENS if not (t.startswith("PAT_VL") and int(t[6:]) > lanes(g))]


# ------------------------------------------------------------------ cases

def case_pattern():
    """every token through pset_bG then pge_bG, each psts NORM at 32-byte steps"""
    g = int(ARGS[0]) // 8
    out = bytearray()
    for op in ("pset", "pge"):
        for t in tokens_for(g):
            out += bytes_of(pat(t, g))
    save("expect.bin", out)


def case_plt_loop():
    """scf.for iv < ITERS with iter_args(rem = START): m, rem' = plt_bG rem; psts m at iv*32;
    store_scalar rem' (i32) at 1024 + 4*iv. Output 1152 bytes."""
    g, start, iters = int(ARGS[0]) // 8, int(ARGS[1]), int(ARGS[2])
    out = bytearray(1152)
    rem = start
    for iv in range(iters):
        m, rem = plt(rem, g)
        out[iv * 32:iv * 32 + 32] = bytes_of(m)
        out[1024 + 4 * iv:1024 + 4 * iv + 4] = struct.pack("<I", rem & 0xffffffff)
    save("expect.bin", out)


def edge_values(g):
    n = lanes(g)
    return [0, 1, n - 1, n, n + 1, 0x7fffffff, 0x80000000, 0xffffffff]


def case_plt_edge():
    """for g in b8, b16, b32 and each edge value v (8 per view): psts plt_bG(v) at 32*k, store_scalar the
    counter at 1024 + 4*k (k = 8*view + index). Output 1152 bytes."""
    out = bytearray(1152)
    k = 0
    for g in (1, 2, 4):
        for v in edge_values(g):
            m, s1 = plt(v, g)
            out[32 * k:32 * k + 32] = bytes_of(m)
            out[1024 + 4 * k:1024 + 4 * k + 4] = struct.pack("<I", s1)
            k += 1
    save("expect.bin", out)


def case_bitcast():
    """input R (32 random bytes) loaded NORM as b8; the chain b8->b16->b32->b8->b32->b16->b8 stores every
    view; then canonical producers viewed through another granularity"""
    r = pattern_bytes(32, 7)
    save("in.bin", r)
    img = bits_of(r, 256)
    out = bytearray()
    for _ in range(7):               # m8, m16, m32, m8b, m32b, m16b, m8c: the image never changes
        out += bytes_of(img)
    out += bytes_of(pat("PAT_ALL", 4))       # pset_b32 PAT_ALL viewed as b8: 0x11 per byte
    out += bytes_of(pat("PAT_ALL", 1))       # pset_b8 PAT_ALL viewed as b32: all 0xff (non-canonical)
    out += bytes_of(pat("PAT_VL8", 2))       # pset_b16 PAT_VL8 viewed as b8
    # the b8 PAT_ALL image viewed as b32 feeds pintlv_b32 with a zero b32 mask: consumers read lane bits only
    lo, hi = pintlv(pat("PAT_ALL", 1), pat("PAT_ALLF", 4), 4)
    out += bytes_of(lo) + bytes_of(hi)
    save("expect.bin", out)


def case_logic():
    """a, b, c, g2: four random images (128 input bytes) loaded NORM as b16. Governing masks: g1 = plt_b16(77)
    (partial, canonical), g2 (random, non-canonical), g3 = pset_b16 PAT_ALL. Results in the order of the
    kernel's stores."""
    data = pattern_bytes(128, 3)
    save("in.bin", data)
    a, b, c, g2 = (bits_of(data[32 * i:32 * i + 32], 256) for i in range(4))
    g1, _ = plt(77, 2)
    g3 = pat("PAT_ALL", 2)
    res = []
    for g in (g1, g2, g3):
        res += [pand(a, b, g), por(a, b, g), pxor(a, b, g), pnot(a, g)]
    res.append(psel(a, b, c))        # random selector
    res.append(psel(a, b, g1))       # partial canonical selector
    res.append(psel(b, a, g1))       # the 4-operand form: the 4th operand is ignored (Q7)
    # chained: pnot of a partial mask under a partial mask, then pand with PAT_ALL
    t = pnot(g1, plt(100, 2)[0])
    res.append(pand(t, g3, g3))
    out = bytearray()
    for r in res:
        out += bytes_of(r)
    save("expect.bin", out)


def case_pack():
    """s: random image (b8 view). ppack/punpack LOWER/HIGHER on raw bits; then a canonical plt_b32(45)
    packed to b16 and a canonical plt_b16(100) unpacked to b32 (Q6)"""
    data = pattern_bytes(32, 5)
    save("in.bin", data)
    s = bits_of(data, 256)
    res = [ppack(s, "LOWER"), ppack(s, "HIGHER"), punpack(s, "LOWER"), punpack(s, "HIGHER")]
    m32, _ = plt(45, 4)
    res.append(ppack(m32, "LOWER"))
    res.append(ppack(m32, "HIGHER"))
    m16, _ = plt(100, 2)
    res.append(punpack(m16, "LOWER"))
    res.append(punpack(m16, "HIGHER"))
    # round trip: punpack(ppack(s)) keeps the even bits of s and clears the odd ones
    res.append(punpack(ppack(s, "HIGHER"), "HIGHER"))
    out = bytearray()
    for r in res:
        out += bytes_of(r)
    save("expect.bin", out)


def case_intlv():
    """a, b random (non-canonical) images; for b8, b16, b32: pintlv lo, hi then pdintlv lo, hi (Q8)"""
    data = pattern_bytes(64, 9)
    save("in.bin", data)
    a, b = bits_of(data[:32], 256), bits_of(data[32:], 256)
    out = bytearray()
    for g in (1, 2, 4):
        lo, hi = pintlv(a, b, g)
        out += bytes_of(lo) + bytes_of(hi)
        lo, hi = pdintlv(a, b, g)
        out += bytes_of(lo) + bytes_of(hi)
    # canonical masks: interleaving plt_b32(40) with PAT_M3 and de-interleaving it back
    p, _ = plt(40, 4)
    q = pat("PAT_M3", 4)
    lo, hi = pintlv(p, q, 4)
    out += bytes_of(lo) + bytes_of(hi)
    r0, r1 = pdintlv(lo, hi, 4)
    out += bytes_of(r0) + bytes_of(r1)
    save("expect.bin", out)


IN, OUTB = 0, 4096


def case_ldst():
    """every load/store distribution and offset form; see tests/pred/ldst_forms.pto for the op list"""
    ub = bytearray(8192)
    data = pattern_bytes(1024, 13)
    save("in.bin", data)
    ub[IN:IN + 1024] = data
    O = OUTB
    # loads (plds: byte offsets; post-update forms access the base and return base + off)
    m1 = load(ub, IN + 8, "NORM"); store(ub, O + 0, m1, "NORM")
    m2 = load(ub, IN + 40, "US"); store(ub, O + 32, m2, "NORM")
    m3 = load(ub, IN + 72, "DS"); store(ub, O + 64, m3, "NORM")
    m4 = load(ub, IN + 0, "NORM"); p4 = IN + 104; store(ub, O + 96, m4, "NORM")
    m4b = load(ub, p4, "NORM"); store(ub, O + 128, m4b, "NORM")
    # pldi: offsets in dist units
    m5 = load(ub, IN + 3 * UNIT["NORM"], "NORM"); store(ub, O + 160, m5, "NORM")
    m6 = load(ub, IN + 5 * UNIT["US"], "US"); store(ub, O + 192, m6, "NORM")
    m7 = load(ub, IN + 2 * UNIT["DS"], "DS"); store(ub, O + 224, m7, "NORM")
    m8 = load(ub, IN, "US"); p8 = IN + 7 * UNIT["US"]; store(ub, O + 256, m8, "NORM")
    m8b = load(ub, p8, "NORM"); store(ub, O + 288, m8b, "NORM")
    m8c = load(ub, IN, "DS"); p8c = IN + 3 * UNIT["DS"]; store(ub, O + 320, m8c, "NORM")
    m8d = load(ub, p8c + 8, "NORM"); store(ub, O + 352, m8d, "NORM")
    # pld: %areg in 8-byte units
    m9 = load(ub, IN + 5 * 8, "NORM"); store(ub, O + 384, m9, "NORM")
    m10 = load(ub, IN + 7 * 8, "US"); store(ub, O + 416, m10, "NORM")
    m11 = load(ub, IN + 9 * 8, "DS"); store(ub, O + 448, m11, "NORM")
    # stores
    store(ub, O + 488, m1, "PK")                                   # psts PK, runtime byte offset
    store(ub, O + 512, m2, "NORM"); p12 = O + 512 + 40             # psts NORM post-update
    store(ub, p12, m3, "PK")                                       # psts PK through the returned pointer
    store(ub, O + 18 * UNIT["NORM"], m4, "NORM")                   # psti NORM [18] -> 576
    store(ub, O + 38 * UNIT["PK"], m5, "PK")                       # psti PK [38] -> 608
    store(ub, O + 640, m6, "PK"); p13 = O + 640 + 2 * UNIT["PK"]   # psti PK post-update
    store(ub, p13 + 1 * UNIT["NORM"], m7, "NORM")                  # psti NORM [1] through p13 -> 704
    store(ub, O + 736, m8, "NORM"); p14 = O + 736 + 3 * UNIT["NORM"]   # psti NORM post-update
    store(ub, p14, m9, "NORM")                                     # psts [0] through p14 -> 832
    store(ub, O + 96 * 8, m10, "NORM")                             # pst %areg = 96 -> 768
    store(ub, O + 100 * 8, m11, "PK")                              # pst PK %areg = 100 -> 800
    store(ub, O + 102 * 8, m1, "PK")                               # pst PK %areg = 102 -> 816
    # round trips of section 2.2: PK then US; NORM then DS
    store(ub, O + 880, m1, "PK"); rt1 = load(ub, O + 880, "US"); store(ub, O + 896, rt1, "NORM")
    store(ub, O + 928, m2, "NORM"); store(ub, O + 960, m3, "NORM")
    rt2 = load(ub, O + 928, "DS"); store(ub, O + 992, rt2, "NORM")
    save("expect.bin", ub[O:O + 1024])


def case_pstu_seed003():
    """seed 003's chain on b32 masks (resolutions Q45): mask0 = plt_b32(n = 45), mask1 = pset_b32 PAT_VL8;
    pstu mask0, mask1 (SSA), mask0 (DPS form), mask1 from UB 512: four 8-byte payloads fill the block
    [512, 544). The final cursor (castptr to i64) is stored at UB 552. Output: UB [512, 576)."""
    m0, _ = plt(45, 4)
    m1 = pat("PAT_VL8", 4)
    out = bytearray(64)
    p = 0
    for m in (m0, m1, m0, m1):
        out[p:p + 8] = pstu_payload(m, 4)
        p += 8
    out[40:48] = struct.pack("<Q", 512 + p)
    save("expect.bin", out)


def case_pstu_loop():
    """UB [0,128) preloaded with random bytes; an init_align carrier and a ui32 pointer at UB 32 travel through
    scf.for iter_args for 8 iterations; each appends pxor(plt_b32(rem), PAT_M3, PAT_ALL) as 8 bytes (Q45).
    The stream covers exactly the two blocks [32, 96); bytes outside it are untouched."""
    data = pattern_bytes(128, 21)
    save("in.bin", data)
    ub = bytearray(data)
    rem, p = 150, 32
    for _ in range(8):
        m, rem = plt(rem, 4)
        m = pxor(m, pat("PAT_M3", 4), pat("PAT_ALL", 4))
        ub[p:p + 8] = pstu_payload(m, 4)
        p += 8
    # the final cursor is stored as an i64 at UB 120 (= 32 + 8 * 8 = 96)
    ub[120:128] = struct.pack("<Q", p)
    save("expect.bin", ub)


def case_pstu_b16_chain():
    """an explicit SSA chain of four b16 pstu from UB 64 covers exactly the blocks [64, 128) (16 B each, Q45);
    UB [0,160) is preloaded with random bytes that must survive outside the stream."""
    data = pattern_bytes(160, 33)
    save("in.bin", data)
    ub = bytearray(data)
    masks = [plt(5, 2)[0], pat("PAT_H", 2), pat("PAT_M4", 2), pat("PAT_ALL", 2)]
    p = 64
    for m in masks:
        ub[p:p + 16] = pstu_payload(m, 2)
        p += 16
    save("expect.bin", ub)


def case_ub_end():
    """accesses that end exactly at the end of the 256 KiB a5 UB are in bounds: UB [262080, 262144) holds 64
    random bytes; DS load of all 64, NORM load of the last 32, PK store into the last 16 then US load back."""
    end = 262144
    ub = bytearray(end)
    data = pattern_bytes(64, 41)
    save("in.bin", data)
    ub[end - 64:end] = data
    m = load(ub, end - 64, "DS"); store(ub, 0, m, "NORM")
    m2 = load(ub, end - 32, "NORM"); store(ub, 32, m2, "NORM")
    store(ub, end - 16, m, "PK")
    m3 = load(ub, end - 16, "US"); store(ub, 64, m3, "NORM")
    save("expect.bin", ub[0:96])


def case_pstu_flush():
    """streams with partial 32-byte blocks closed by vstas (Q21, Q45). UB [0,128) preloaded with random
    bytes. Stream A (b32) from UB 8: plt_b32(13), plt_b32(7), PAT_VL8 -> [8, 32), then vstas at its cursor.
    Stream B (b16) from UB 72: plt_b16(100), PAT_M4 -> [72, 104) across the block boundary at 96, then vstas.
    Every other byte keeps its value."""
    data = pattern_bytes(128, 55)
    save("in.bin", data)
    ub = bytearray(data)
    p = 8
    for m in (plt(13, 4)[0], plt(7, 4)[0], pat("PAT_VL8", 4)):
        ub[p:p + 8] = pstu_payload(m, 4)
        p += 8
    p = 72
    for m in (plt(100, 2)[0], pat("PAT_M4", 2)):
        ub[p:p + 16] = pstu_payload(m, 2)
        p += 16
    save("expect.bin", ub)


CASES = {
    "pattern": case_pattern, "plt_loop": case_plt_loop, "plt_edge": case_plt_edge, "bitcast": case_bitcast,
    "logic": case_logic, "pack": case_pack, "intlv": case_intlv, "ldst": case_ldst,
    "ub_end": case_ub_end, "pstu_flush": case_pstu_flush, "pstu_seed003": case_pstu_seed003, "pstu_loop": case_pstu_loop, "pstu_b16_chain": case_pstu_b16_chain,
}

if __name__ == "__main__":
    gl.run_case(CASES, CASE)
