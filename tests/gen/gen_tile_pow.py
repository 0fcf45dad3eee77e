#!/usr/bin/env python3
"""gen_tile_pow.py — kernels, inputs and independently computed expected outputs for tests/tile/tile_pow.pto:
tpow / tpows on integer tiles, and on f32 / f16 tiles (the default algorithm) and f32 / f16 / bf16 tiles (the
high-precision algorithm: pow_f32_hp, one template step per line).

  python3 gen_tile_pow.py OUTDIR tile_pow    write the inputs and expected outputs
  python3 gen_tile_pow.py --emit DIR         (re)write DIR/tile_pow.pto

Reading (docs/semantics.md §14.7; pto-isa include/pto/npu/a5/TPow.hpp, integer path): base ** exp modulo
2^bits for exp >= 0, with base^0 = 1 and 1^exp = 1; a negative exponent (signed types) gives 0, except base -1
gives +1 / -1 by the exponent's parity. Computed here with Python's pow(), never through ptosim.
Float tiles (pto-isa a5 TPow.hpp TPowFloat): exp(e * ln|b|) with each step one f32 lane (fmodel's ln and exp,
rounded once), then: e == 0 or b == 1 -> 1; a NaN operand -> NaN; b = +-0 / +-inf -> b with 0 and inf swapped
when e < 0, its magnitude unless e is an odd integer; b < 0 -> NaN for a non-integer e, negated for an odd one;
(-1)^(+-inf) = 1. f16 lanes are widened exactly and the f32 result rounded to nearest-even (overflow to inf).
"""
import os
import random
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_valu as G  # noqa: E402
import gen_tile_misc as M  # noqa: E402
import fmodel as R  # noqa: E402

TY = G.TY
K, tile_t, wr = M.K, M.tile_t, M.wr

# (name, type, rows, cols, valid rows, valid cols, scalar exponent or None)
POW = [("tpow_si32", "si32", 4, 64, 4, 40, None), ("tpow_si8", "si8", 4, 64, 3, 64, None),
       ("tpow_ui16", "ui16", 4, 32, 4, 32, None), ("tpows_si16", "si16", 4, 32, 4, 20, 5),
       ("tpows_ui8", "ui8", 2, 64, 2, 64, 3)]


# float tiles: (name, type, rows, cols, valid rows, valid cols, scalar exponent or None)
FPOW = [("tpow_f32", "f32", 4, 64, 4, 50, None), ("tpow_f16", "f16", 4, 64, 3, 64, None),
        ("tpows_f32", "f32", 2, 64, 2, 64, "0.5"), ("tpows_f16", "f16", 2, 64, 2, 48, "-3.0")]
# the high-precision algorithm (names with "_hp"): f32, f16, and bf16, which only it takes
FPOW_HP = [("tpow_hp_f32", "f32", 4, 64, 4, 60, None), ("tpow_hp_bf16", "bf16", 4, 64, 3, 64, None),
           ("tpows_hp_f32", "f32", 2, 64, 2, 64, "2.5"), ("tpows_hp_f16", "f16", 2, 64, 2, 40, "-0.5")]
F32, F16, BF16, S32 = TY["f32"], TY["f16"], TY["bf16"], TY["si32"]


def special(d, b, e):
    """the special cases after the core (the default algorithm's, shared): pow_f32 with the core result d"""
    B, E = G.fdec(F32, b), G.fdec(F32, e)
    if (not E.isnan() and not E.isinf() and E.value() == 0) or (not B.isnan() and not B.isinf() and B.value() == 1):
        return 0x3F800000
    if B.isnan() or E.isnan():
        return 0x7FC00000
    odd = not E.isinf() and E.value().denominator == 1 and E.value().numerator % 2 == 1
    if B.isinf() or B.value() == 0:
        neg_e = E.neg if E.isinf() else E.value() < 0
        t = b ^ 0x7F800000 if neg_e else b
        return t if odd else t & 0x7FFFFFFF
    if B.value() < 0:
        if E.isinf() or E.value().denominator == 1:
            d = d ^ 0x80000000 if odd else d
        else:
            d = 0x7FC00000
        if E.isinf() and B.value() == -1:
            d = 0x3F800000
    return d


def pow_f32(b, e):
    """one f32 lane of the default algorithm (codes)"""
    d = G.ref_ew("exp", F32, G.ref_ew("mul", F32, e, G.ref_ew("ln", F32, G.ref_ew("abs", F32, b))))
    return special(d, b, e)


def fc(x):
    """an f32 constant of the template, rounded to nearest as its C++ literal is"""
    return F32.fmt.encode(R.fin(Fraction(x)))


def pow_f32_hp(b, e):
    """one f32 lane of the high-precision algorithm (pto-isa a5 TPow.hpp TPowFloatHighPrecisionImpl), one template
    step per line; fused ops round once (mula: acc + x*y, madd: acc*x + y, axpy: alpha*x + y)"""
    def op(name, x, y=0, z=0):
        return G.ref_ew(name, F32, x, y, z)

    def lt(x, y):
        return G.cmp_ref(F32, "lt", x, y)
    one, mone = fc(1), fc(-1)
    # GetLogFExtStepOne: exponent and mantissa around sqrt(1/2) by integer arithmetic on the bits
    a = op("abs", b)
    hi = fc(-23) if lt(a, fc("1.175494351e-38")) else 0
    ex = ((a - fc("0.70710678")) & 0xFF800000) & 0xFFFFFFFF
    lo = (a - ex) & 0xFFFFFFFF
    hi = op("axpy", G.cvt_ref(S32, F32, ex, "A", False), hi, fc("1.19209290e-7"))
    p = op("add", lo, one)
    lo = op("add", lo, mone)
    r = op("div", one, p)
    # GetLogFExtStepTwo
    qhi = op("mul", lo, r)
    t = op("add", op("mul", qhi, fc(-2)), lo)
    t2 = op("madd", op("neg", lo), qhi, t)
    qlo = op("mul", r, t2)
    sq = op("mul", qhi, qhi)
    pr = op("axpy", sq, fc("0.141957462"), fc("0.129394531"))
    pr = op("madd", pr, sq, fc("0.200015724"))
    pr = op("madd", pr, sq, fc("0.333333254"))
    pr = op("mul", pr, sq)
    qhi = op("add", qhi, qhi)
    qlo = op("add", qlo, qlo)
    fhi = op("add", op("mul", hi, fc("6.93147182e-1")), qhi)
    flo = op("sub", qhi, op("axpy", hi, fhi, fc("-6.93147182e-1")))
    qhi = op("madd", qhi, pr, flo)
    qlo = op("mula", qlo, op("mul", qlo, fc(3)), pr)
    qlo = op("axpy", hi, qlo, fc("-1.90465421e-9"))
    qlo = op("add", qlo, qhi)
    lhi = op("add", fhi, qlo)
    llo = op("add", op("sub", fhi, lhi), qlo)
    # GetExpCore
    phi = op("mul", lhi, e)
    plo = op("mula", op("neg", phi), lhi, e)
    plo = op("mula", plo, llo, e)
    d = op("exp", phi)
    d = op("mula", d, plo, d)
    if G.cmp_ref(F32, "ge", phi, fc("88.7228390")) or lt(phi, fc(-104)):
        d = 0x7F800000 if G.cmp_ref(F32, "ge", phi, 0) else 0
    return special(d, b, e)


def fpow_lane(t, b, e, hp=False):
    f = pow_f32_hp if hp else pow_f32
    if t is F32:
        return f(b, e)
    w = G.cvt_ref(t, F32, b, "R", False), G.cvt_ref(t, F32, e, "R", False)
    return G.cvt_ref(F32, t, f(*w), "R", False)


def fcode(t, x):
    if isinstance(x, str):
        if t is BF16:
            return {"nan": 0x7FC0, "inf": 0x7F80, "-inf": 0xFF80, "-0": 0x8000}[x]
        return {"nan": 0x7FC00000 if t is F32 else 0x7E00,
                "inf": 0x7F800000 if t is F32 else 0x7C00, "-inf": 0xFF800000 if t is F32 else 0xFC00,
                "-0": 0x80000000 if t is F32 else 0x8000}[x]
    return t.fmt.encode(R.fin(Fraction(x)))


def pow_kernels(table, kind):
    """one tpow (or, with a scalar, tpows) kernel per row of `table`: (name, type, rows, cols, valid, scalar)"""
    ks = []
    for name, tn, R_, C_, vr, vc, sc in table:
        t = TY[tn]
        tt = tile_t(R_, C_, t, vr, vc)
        k = K(name)
        k.buf("a", R_, C_, t, tile=tt)
        if sc is None:
            k.buf("b", R_, C_, t, tile=tt)
            k.body.append("    pto.tpow ins(%%ta, %%tb : %s, %s) outs(%%td : %s)" % (tt, tt, tt))
        else:
            k.body.append("    %%s = arith.constant %s : %s" % (sc, t.mlir))
            k.body.append("    pto.tpows ins(%%ta, %%s : %s, %s) outs(%%td : %s)" % (tt, t.mlir, tt))
        if "_hp" in name:
            k.body[-1] += " {precisionType = #pto<pow_precision high_precision>}"
        k.buf("d", R_, C_, t, out=True, tile=tt)
        k.kind, k.data = kind, (t, R_, C_, vr, vc, sc)
        ks.append(k)
    return ks


SPECIAL_B = [0.0, "-0", "inf", "-inf", "nan", 1.0, -1.0, -2.0, 2.0, 0.5, -0.5, 3.0, -8.0, 1e-3]
SPECIAL_E = [0.0, "-0", "inf", "-inf", "nan", 1.0, 2.0, 3.0, -1.0, -2.0, -3.0, 0.5, -0.5, 2.5, 1e9]


def fpow_write(out, k):
    t, R_, C_, vr, vc, sc = k.data
    rng = random.Random(sum(map(ord, k.name)))
    n = R_ * C_
    a = [fcode(t, rng.uniform(-8, 8)) for _ in range(n)]
    b = [fcode(t, rng.choice([rng.uniform(-6, 6), float(rng.randint(-5, 5))])) for _ in range(n)]
    i = 0
    for x in SPECIAL_B:   # every special base against every special exponent (the first rows)
        for y in SPECIAL_E:
            if i < n:
                a[i] = fcode(t, x)
                b[i] = fcode(t, y)
                i += 1
    if sc is None:
        wr(out, k.name + ".b.bin", G.pack(t, b))
    wr(out, k.name + ".a.bin", G.pack(t, a))
    e_s = fcode(t, float(sc)) if sc is not None else None
    d = [0] * n
    for r in range(vr):
        for c in range(vc):
            j = r * C_ + c
            d[j] = fpow_lane(t, a[j], b[j] if sc is None else e_s, "_hp" in k.name)
    wr(out, k.name + ".d.exp", G.pack(t, d))


def val(t, code):
    return code - (1 << t.bits) if t.signed and code >> (t.bits - 1) else code


def ref(t, b, e):
    B, E = val(t, b), val(t, e)
    if E == 0 or B == 1:
        r = 1
    elif E < 0:
        r = (1 if E % 2 == 0 else -1) if B == -1 else 0
    else:
        r = pow(B, E, 1 << t.bits)
    return r & t.mask


def kernels():
    return pow_kernels(FPOW, "fpow") + pow_kernels(FPOW_HP, "fpow") + pow_kernels(POW, "pow")


def pow_write(out, k):
    t, R_, C_, vr, vc, sc = k.data
    rng = random.Random(sum(map(ord, k.name)))
    n = R_ * C_
    a = [rng.choice([0, 1, 2, 3, t.mask, rng.randrange(1 << t.bits)]) for _ in range(n)]
    wr(out, k.name + ".a.bin", G.pack(t, a))
    if sc is None:
        hi = min(t.bits + 4, 40)
        b = [rng.choice([0, 1, rng.randrange(hi), (-rng.randrange(1, 4)) & t.mask, rng.randrange(1 << t.bits)])
             for _ in range(n)]
        wr(out, k.name + ".b.bin", G.pack(t, b))
    d = [0] * n
    for r in range(vr):
        for c in range(vc):
            i = r * C_ + c
            d[i] = ref(t, a[i], b[i] if sc is None else sc & t.mask)
    wr(out, k.name + ".d.exp", G.pack(t, d))


WRITE = {"pow": pow_write, "fpow": fpow_write}


def emit(d):
    header = ["// tile_pow: tpow / tpows on integer tiles (si8, si16, si32, ui8, ui16): wrapping powers, zero and",
              "// negative exponents, bases 0, 1 and -1, valid sub-regions; on f32 / f16 tiles the default algorithm",
              "// (every special base against every special exponent, random lanes, a scalar exponent); the",
              "// high-precision algorithm on f32, f16 and bf16 tiles.",
              "// Generated by tests/gen/gen_tile_pow.py --emit; expected values from gen_tile_pow.py (Python pow()).",
              "// GEN: gen_tile_pow.py tile_pow"]
    M.emit_file(d, "tile_pow.pto", header, kernels(), K.run)


if __name__ == "__main__":
    M.main(kernels, WRITE, emit)
