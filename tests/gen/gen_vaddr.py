#!/usr/bin/env python3
"""gen_vaddr.py OUTDIR CASE — inputs and independently computed expected outputs for tests/vaddr/*.pto (the
vector-address forms: pto.vag, vald/vast, valdx2/vastx2, pald/past, valda/valdu/vastu/vasta).

Every kernel in tests/vaddr loads `in.bin` into UB at 0 and `out_init.bin` into UB at 0x10000 (OUT), runs its
vector scope and stores the OUT region back to `out.bin`, which run.py compares with `expected.bin`.

The model (docs/semantics.md §6.11, written from the PTOAS vector-address design): the effective address of
`%base[%va]` is base + va bytes; pto.vag %s1[, %s2, %s3, %s4] is sum(s_k * n_k) mod 2^32, where n_k is the 0-based
iteration count of the k-th enclosing scf.for (innermost first) — enumerate(range(lb, ub, step)) below, never
the induction variable itself. The distributions are the plain vlds/vsts ones, so their byte models come from
gen_vls.py (written from resolutions Q24/Q25); the predicate load/store model (§2.2) is restated here. No ptosim
code is involved.
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import genlib as gl  # noqa: E402
from gen_vls import OUT, Case, vlds, vsts_writes, pset, plt, rd, lane, set_lane, bit   # noqa: E402


def counts(lb, ub, step):
    """0-based iteration counts of scf.for lb to ub step step (the hardware loop counter)"""
    return [k for k, _ in enumerate(range(lb, ub, step))]


def vag(strides, ks):
    """pto.vag: byte strides (innermost first) times the iteration counts of the enclosing loops"""
    return sum(s * k for s, k in zip(strides, ks)) & 0xffffffff


def pld(ub, addr, dist):
    """predicate load (resolutions §2.2): NORM 32 bytes as they are; US 16 bytes, each bit doubled; DS 64 bytes,
    every other bit. Returns the 32-byte image."""
    img = bytearray(32)
    n, src = {"NORM": (256, lambda k: k), "US": (256, lambda k: k // 2), "DS": (256, lambda k: 2 * k)}[dist]
    for k in range(n):
        if bit(ub[addr:addr + 64], src(k)):
            img[k // 8] |= 1 << (k % 8)
    return img


def pst(ub, addr, img, dist):
    """predicate store (§2.2): NORM the 32-byte image; PK 16 bytes holding the even image bits"""
    if dist == "NORM":
        ub[addr:addr + 32] = img
        return
    out = bytearray(16)
    for j in range(128):
        if bit(img, 2 * j):
            out[j // 8] |= 1 << (j % 8)
    ub[addr:addr + 16] = out


def store_dist(c, addr, reg, dist, img):
    for off, data in vsts_writes(reg, dist, img):
        c.store(addr + off, data)


# ====================================================================== cases

VALD_DISTS = ["NORM", "BRC_B8", "BRC_B16", "BRC_B32", "US_B8", "US_B16", "DS_B8", "DS_B16", "UNPK_B8", "UNPK_B16",
              "UNPK_B32", "BRC_BLK", "E2B_B16", "E2B_B32", "UNPK4", "SPLT4CHN_B8", "SPLT2CHN_B8", "SPLT2CHN_B16"]


def case_dists():
    # loop 3 to 9 step 2: counts 0, 1, 2 (the induction variable would be 3, 5, 7)
    c = Case(4096, 13824, 31)
    for k in counts(3, 9, 2):
        ai, ao = vag([1024], [k]), vag([4608], [k])
        for d, dist in enumerate(VALD_DISTS):
            c.store(OUT + 256 * d + ao, vlds(c.ub, 32 * d + ai, dist))
    return c


# (vreg element bytes, dist or None = element-width default, mask granularity, mask) per vast row of stores.pto
STORES = [(4, None, 4, ("pset", "M3")), (1, "NORM_B8", 1, ("plt", 100)), (2, "NORM_B16", 2, ("plt", 37)),
          (4, "NORM_B32", 4, ("pset", "H")), (4, "NORM_B8", 1, ("plt", 77)), (1, "1PT_B8", 1, ("pset", "ALL")),
          (2, "1PT_B16", 2, ("pset", "ALLF")), (4, "1PT_B32", 4, ("pset", "ALLF")), (2, "PK_B16", 2, ("plt", 100)),
          (4, "PK_B32", 4, ("pset", "M4")), (4, "PK_B64", 4, ("plt", 50)), (4, "PK4_B32", 4, ("pset", "M3")),
          (1, "MRG4CHN_B8", 4, ("plt", 37)), (1, "MRG2CHN_B8", 2, ("plt", 77)), (2, "MRG2CHN_B16", 4, ("pset", "Q")),
          (2, None, 2, ("pset", "M4"))]
ONEPT_SHIFT = {"1PT_B8": 3, "1PT_B16": 6, "1PT_B32": 12}   # 1PT stores land a few elements into their row


def case_stores():
    c = Case(4096, 8192, 32)
    for k in counts(0, 2, 1):
        ai, ao = vag([64], [k]), vag([4096], [k])
        for d, (e, dist, g, (kind, arg)) in enumerate(STORES):
            img = pset(g, arg) if kind == "pset" else plt(g, arg)
            reg = vlds(c.ub, 128 * d + ai, "NORM")
            addr = OUT + 256 * d + ao + ONEPT_SHIFT.get(dist, 0)
            store_dist(c, addr, reg, dist or "NORM_B%d" % (8 * e), img)
    return c


def dintlv(ub, addr, w):
    lo, hi = bytearray(256), bytearray(256)
    for i in range(256 // w):
        set_lane(lo, w, i, rd(ub, addr + 2 * w * i, w))
        set_lane(hi, w, i, rd(ub, addr + 2 * w * i + w, w))
    return lo, hi


def bdintlv(ub, addr):
    lo, hi = bytearray(256), bytearray(256)
    for b in range(8):
        lo[32 * b:32 * b + 32] = ub[addr + 64 * b: addr + 64 * b + 32]
        hi[32 * b:32 * b + 32] = ub[addr + 64 * b + 32: addr + 64 * b + 64]
    return lo, hi


def intlv(x, y, w):
    o = bytearray(512)
    for i in range(256 // w):
        set_lane(o, w, 2 * i, lane(x, w, i))
        set_lane(o, w, 2 * i + 1, lane(y, w, i))
    return o


def case_x2():
    c = Case(5120, 8192, 33)
    for k in counts(2, 6, 2):
        ai, ao = vag([512], [k]), vag([4096], [k])
        for j, (src, w) in enumerate(((0, 1), (512, 2), (1024, 4))):
            lo, hi = dintlv(c.ub, src + ai, w)
            c.store(OUT + 512 * j + ao, lo)
            c.store(OUT + 512 * j + 256 + ao, hi)
        lo, hi = bdintlv(c.ub, 1536 + ai)
        c.store(OUT + 1536 + ao, lo)
        c.store(OUT + 1792 + ao, hi)
        for j, w in enumerate((1, 2, 4)):            # vastx2 INTLV: the (all-false) predicate is ignored
            x = vlds(c.ub, 2560 + 512 * j + ai, "NORM")
            y = vlds(c.ub, 2816 + 512 * j + ai, "NORM")
            c.store(OUT + 2048 + 512 * j + ao, intlv(x, y, w))
    return c


def case_pred():
    c = Case(4096, 4096, 34)
    ub = c.ub
    for k in counts(0, 3, 1):
        a, b = vag([40], [k]), vag([256], [k])
        mn, mu, md = pld(ub, a, "NORM"), pld(ub, 256 + a, "US"), pld(ub, 512 + a, "DS")
        pst(ub, OUT + a, mn, "NORM")
        pst(ub, OUT + 256 + a, mu, "PK")
        pst(ub, OUT + 512 + a, md, "NORM")
        for src, dst, w, img in ((1024, 1024, 4, mn), (2048, 2048, 2, mu), (3072, 3072, 1, md)):
            c.masked_store(OUT + dst + b, vlds(ub, src + b, "NORM"), img, w)
    return c


def case_unaligned():
    c = Case(1024, 4096, 35)
    ub = c.ub
    src, dst = 3, OUT + 5
    for k in counts(1, 4, 1):
        a, b = vag([20], [k]), vag([36], [k])
        v1 = ub[src + a: src + a + 256]                 # valdu at a; updated address a + 256
        v2 = ub[src + a + 256: src + a + 512]           # valdu at a + 256; updated address a + 356
        v3 = ub[src + a + 356: src + a + 612]           # vald NORM at a + 356
        c.store(dst + b, v1)                            # vastu at b, POST_UPDATE: b + 256
        c.store(dst + b + 256, v2)                      # vastu at b + 256, then vasta flushes the tail
        c.store(OUT + 2048 + b, v3)
    return c


def case_levels():
    c = Case(2048, 4096, 36)
    ub = c.ub
    blk = pset(1, "VL32")
    m3 = pset(1, "M3")
    for k4 in counts(0, 2, 1):
        for k3 in counts(1, 4, 1):
            for k2 in counts(0, 6, 3):
                b = vag([32, 256], [k2, k3])            # a vag in the third loop binds loops 2 and 3
                for k1 in counts(2, 10, 4):
                    ks = [k1, k2, k3, k4]
                    ai, ao = vag([32, 64, 128, 384], ks), vag([768, 32, 64, 192], ks)
                    c.masked_store(OUT + ao, vlds(ub, ai, "BRC_BLK"), blk, 1)
                    c.masked_store(OUT + 2048 + b, vlds(ub, 1024 + b, "NORM"), m3, 1)
    return c


def case_scopes():
    c = Case(4096, 4096, 37)
    ub = c.ub
    for i in counts(0, 3, 1):                           # the aivector_scope loop counts as a loop level
        for j in counts(0, 2, 1):
            a = vag([256, 512], [j, i])
            c.store(OUT + a, vlds(ub, a, "NORM"))
    for i in counts(4, 8, 2):                           # inside a strict_vecscope
        for j in counts(0, 3, 1):
            a = vag([64, 1024], [j, i])
            c.masked_store(OUT + 2048 + a, vlds(ub, 2048 + a, "NORM"), pset(2, "H"), 2)
    return c


def case_trap():
    return Case(2048, 2048, 38)


CASES = {"dists": case_dists, "stores": case_stores, "x2": case_x2, "pred": case_pred, "unaligned": case_unaligned,
         "levels": case_levels, "scopes": case_scopes, "trap": case_trap}

if __name__ == "__main__":
    gl.main(CASES, __doc__).save(gl.OUT)
