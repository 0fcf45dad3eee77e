#!/usr/bin/env python3
"""gen_vls_rearr.py OUTDIR CASE — inputs and independently computed expected outputs for the in-register
rearrangement tests (tests/vls/rearr_*.pto): vintlv, vdintlv, vintlvv2, vdintlvv2, vslide, vshift, vsqz, vusqz, vperm, vpack,
vsunpack, vzunpack.

Same harness as gen_vls.py (in.bin at UB 0, out_init.bin at UB 0x10000, the OUT region compared); the lane
rules are written from resolutions Q8, Q34, §2.6 and the M pseudo-code of vslide/vshift/vperm.
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import genlib as gl  # noqa: E402
from gen_vls import Case, OUT, lane, set_lane, bit, pset  # noqa: E402


def lanes_of(reg, w):
    return [lane(reg, w, i) for i in range(256 // w)]


def reg_of(vals, w):
    r = bytearray(256)
    for i, v in enumerate(vals):
        set_lane(r, w, i, v)
    return r


def vintlv(a, b, w):
    A, B, n = lanes_of(a, w), lanes_of(b, w), 256 // w
    lo, hi = [0] * n, [0] * n
    for i in range(n // 2):                 # Q8: lo = a0 b0 a1 b1 ..., hi = the same from lane N/2
        lo[2 * i], lo[2 * i + 1] = A[i], B[i]
        hi[2 * i], hi[2 * i + 1] = A[n // 2 + i], B[n // 2 + i]
    return reg_of(lo, w), reg_of(hi, w)


def vdintlv(a, b, w):
    C = lanes_of(a, w) + lanes_of(b, w)     # Q8: C = a ‖ b, lo = even, hi = odd
    return reg_of(C[0::2], w), reg_of(C[1::2], w)


def vslide(s0, s1, amt, w):
    S0, S1, n = lanes_of(s0, w), lanes_of(s1, w), 256 // w
    out = []
    for i in range(n):
        if 0 <= amt <= n:                   # the M loop
            out.append(S0[i - amt] if i >= amt else S1[n - amt + i])
        else:                               # outside 0..N: the same window over src1 ‖ src0, zero beyond it
            t = n - amt + i                 # index into src1 ‖ src0
            out.append(S1[t] if 0 <= t < n else S0[t - n] if n <= t < 2 * n else 0)
    return reg_of(out, w)


def vshift(s, amt, w):
    S, n = lanes_of(s, w), 256 // w
    return reg_of([S[i - amt] if 0 <= i - amt < n else 0 for i in range(n)], w)


def vsqz(s, img, w):
    S = lanes_of(s, w)
    kept = [S[i] for i in range(256 // w) if bit(img, w * i)]
    return reg_of(kept + [0] * (256 // w - len(kept)), w)


def vusqz(img, w):
    out, cnt = [], 0
    for i in range(256 // w):
        out.append(cnt)
        cnt += bit(img, w * i)
    return reg_of(out, w)


def vperm(s, idx, w, iw):
    S, n = lanes_of(s, w), 256 // w
    I = lanes_of(idx, iw)
    return reg_of([S[I[i] % n] for i in range(n)], w)


def vpack(s, w, higher):
    S = lanes_of(s, w)
    h = w // 2
    out = [0] * (256 // h)
    for i, v in enumerate(S):               # Q34: truncation into lanes 0..N-1 or N..2N-1
        out[(len(S) if higher else 0) + i] = v & ((1 << (8 * h)) - 1)
    return reg_of(out, h)


def vunpack(s, w, part, signed):
    S = lanes_of(s, w)
    n = len(S)
    out = []
    for v in S[part * n // 2: part * n // 2 + n // 2]:   # §2.6: part 0 = lanes 0..N/2-1
        if signed and v >= 1 << (8 * w - 1):
            v -= 1 << (8 * w)
        out.append(v & ((1 << (16 * w)) - 1))
    return reg_of(out, 2 * w)


def case_intlv():
    c = Case(2048, 4096, 101)
    ub = c.ub
    for base, w, out in ((0, 1, 0), (512, 2, 1024), (1024, 4, 2048), (1536, 8, 3072)):
        a, b = c.vec(base), c.vec(base + 256)
        lo, hi = vintlv(a, b, w)
        dlo, dhi = vdintlv(a, b, w)
        for k, r in enumerate((lo, hi, dlo, dhi)):
            c.store(OUT + out + 256 * k, r)
    return c


def case_intlv_v2():
    """vintlvv2 / vdintlvv2: one half of vintlv / vdintlv, LOWER = lo, HIGHER = hi (PTOAS part tokens)"""
    c = Case(2048, 4096, 108)
    for k, (base, w) in enumerate(((0, 1), (512, 2), (1024, 4))):
        a, b = c.vec(base), c.vec(base + 256)
        lo, hi = vintlv(a, b, w)
        dlo, dhi = vdintlv(a, b, w)
        for j, r in enumerate((lo, hi, dlo, dhi)):
            c.store(OUT + 1024 * k + 256 * j, r)
    return c


def case_slide_shift():
    c = Case(2048, 4096, 102)
    a, b = c.vec(0), c.vec(256)
    for k, amt in enumerate((0, 5, 64, -3, 70)):
        c.store(OUT + 256 * k, vslide(a, b, amt, 4))
    for k, amt in enumerate((0, 7, -2, 64)):
        c.store(OUT + 1280 + 256 * k, vshift(a, amt, 4))
    c.store(OUT + 2304, vslide(c.vec(512), c.vec(768), 200, 1))
    c.store(OUT + 2560, vshift(c.vec(1024), 100, 2))
    c.store(OUT + 2816, vslide(c.vec(1024), c.vec(1280), -100, 2))
    c.store(OUT + 3072, vshift(c.vec(512), -255, 1))
    return c


def case_sqz():
    c = Case(2304, 2048, 103)
    ub = c.ub
    m32, m16, m8 = ub[2048:2080], ub[2080:2112], ub[2112:2144]
    c.store(OUT + 0, vsqz(c.vec(0), m32, 4))
    c.store(OUT + 256, vsqz(c.vec(256), m16, 2))
    c.store(OUT + 512, vsqz(c.vec(512), m8, 1))
    c.store(OUT + 768, vusqz(m32, 4))
    c.store(OUT + 1024, vusqz(m16, 2))
    c.store(OUT + 1280, vusqz(m8, 1))
    c.store(OUT + 1536, vsqz(c.vec(0), pset(4, "ALLF"), 4))
    c.store(OUT + 1792, vusqz(pset(1, "ALL"), 1))
    return c


def case_perm():
    c = Case(2048, 2048, 104)
    c.store(OUT + 0, vperm(c.vec(0), c.vec(256), 4, 4))
    c.store(OUT + 256, vperm(c.vec(512), c.vec(768), 1, 1))
    c.store(OUT + 512, vperm(c.vec(1024), c.vec(1280), 2, 2))
    return c


def case_pack():
    c = Case(2048, 2048, 105)
    c.store(OUT + 0, vpack(c.vec(0), 4, False))
    c.store(OUT + 256, vpack(c.vec(0), 4, True))
    c.store(OUT + 512, vpack(c.vec(256), 4, False))
    c.store(OUT + 768, vpack(c.vec(512), 2, False))
    c.store(OUT + 1024, vpack(c.vec(512), 2, True))
    c.store(OUT + 1280, vpack(c.vec(768), 2, True))
    return c


def case_unpack():
    c = Case(2048, 4096, 106)
    for k, (base, w, signed) in enumerate(((0, 2, True), (256, 1, True), (512, 4, True),
                                           (768, 2, False), (1024, 1, False), (1280, 4, False))):
        for part in (0, 1):
            c.store(OUT + 512 * k + 256 * part, vunpack(c.vec(base), w, part, signed))
    return c


CASES = {"intlv": case_intlv, "intlv_v2": case_intlv_v2, "slide_shift": case_slide_shift, "sqz": case_sqz, "perm": case_perm,
         "pack": case_pack, "unpack": case_unpack, "trap": lambda: Case(2048, 2048, 107)}

if __name__ == "__main__":
    gl.main(CASES, __doc__).save(gl.OUT)
