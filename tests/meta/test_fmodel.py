#!/usr/bin/env python3
"""test_fmodel.py [--build BUILD] — checks the generators' float model (tests/gen/fmodel.py) against what
the format definitions say, written out here by hand, and against CPython's own IEEE packers; then checks
that its host fast paths agree with its exact path. A wrong model would make every expectation derived
from it wrong in the same way as a matching bug in ptosim; these checks do not go through ptosim at all.

  * format limits and sample codes (largest finite, smallest subnormal, specials, the fp4 and hif8 tables,
    e8m0) as the definitions give them;
  * every rounding mode and saturation on hand-worked ties, overflows and underflows;
  * for every code of every format of at most 16 bits: decode then encode gives the code back (NaNs the
    canonical NaN), and the codes in order have increasing values;
  * on random exact values of every format and mode: the result is one of the two representable
    neighbours bracketing the value, on the side the mode asks for;
  * f16 and f32 nearest-even rounding of random doubles equal struct 'e' / 'f' (CPython's packers);
  * host_f32 of a binary64 sum/difference/product/quotient of two f32 values equals the exact model;
  * the IEEE operations' special cases (signed zeros, NaN, inf)."""
import os
import random
import struct
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import ROOT, check, finish  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "tests", "gen"))
import fmodel as fm  # noqa: E402
from fmodel import fin, inf, NAN  # noqa: E402

F = Fraction
P2 = lambda e: F(2) ** e  # noqa: E731


def eq(got, want, what):
    check(got == want, what, "got %r, want %r" % (got, want))


def enc(f, x, rm="R", sat=False):
    return f.encode(x if isinstance(x, fm.V) else fin(x), rm, sat)


# ---------------------------------------------------------------- limits and sample codes
eq(fm.F16.max_value(), 65504, "f16 max")
eq(fm.F16.decode(1).mag, P2(-24), "f16 smallest subnormal")
eq(fm.F16.decode(0x0400).mag, P2(-14), "f16 smallest normal")
eq(fm.F32.max_value(), (2 - P2(-23)) * P2(127), "f32 max")
eq(fm.F32.decode(1).mag, P2(-149), "f32 smallest subnormal")
eq(fm.F64.decode(1).mag, P2(-1074), "f64 smallest subnormal")
eq(fm.F64.max_value(), (2 - P2(-52)) * P2(1023), "f64 max")
eq(fm.BF16.max_value(), (2 - P2(-7)) * P2(127), "bf16 max")
eq(fm.BF16.decode(1).mag, P2(-133), "bf16 smallest subnormal")
eq(fm.TF32.max_value(), (2 - P2(-10)) * P2(127), "tf32 max")
eq(fm.E5M2.max_value(), 57344, "e5m2 max")
eq(fm.E5M2.decode(1).mag, P2(-16), "e5m2 smallest subnormal")
eq(fm.E5M2.decode(0x7C).kind, "i", "e5m2 0x7C is inf")
eq(fm.E5M2.decode(0x7D).kind, "n", "e5m2 0x7D is NaN")
eq(fm.E4M3.max_value(), 448, "e4m3 max")
eq(fm.E4M3.decode(1).mag, P2(-9), "e4m3 smallest subnormal")
eq(fm.E4M3.decode(0x7F).kind, "n", "e4m3 0x7F is NaN")
eq(fm.E4M3.decode(0xFF).kind, "n", "e4m3 0xFF is NaN")
eq(fm.E4M3.decode(0x78).mag, 256, "e4m3 0x78 = 256 (exponent 15 is finite)")
eq([fm.F4E2M1.decode(c).mag for c in range(8)], [0, F(1, 2), 1, F(3, 2), 2, 3, 4, 6], "f4e2m1 table")
eq([fm.F4E1M2.decode(c).mag for c in range(8)], [F(k, 4) for k in range(8)], "f4e1m2 table")
eq(fm.F4E2M1.decode(0xF).value(), -6, "f4e2m1 0xF = -6")
eq(fm.HIF8.decode(0x08).mag, 1, "hif8 0x08 = 1")
eq(fm.HIF8.decode(0x00).mag, 0, "hif8 0x00 = 0")
eq(fm.HIF8.decode(0x80).kind, "n", "hif8 0x80 = NaN")
eq(fm.HIF8.decode(0x6F).kind, "i", "hif8 0x6F = inf")
eq(fm.HIF8.decode(0x6E).mag, P2(15), "hif8 max 2^15")
eq([fm.HIF8.decode(c).mag for c in range(1, 8)], [P2(e) for e in range(-22, -15)], "hif8 0x01-0x07 = 2^-22..2^-16")
eq(fm.HIF8.decode(0x09).mag, F(9, 8), "hif8 0x09 = 1.125")
eq(fm.E8M0.decode(0x7F).mag, 1, "e8m0 0x7F = 1")
eq(fm.E8M0.decode(0x00).mag, P2(-127), "e8m0 0x00 = 2^-127")
eq(fm.E8M0.decode(0xFE).mag, P2(127), "e8m0 0xFE = 2^127")
eq(fm.E8M0.decode(0xFF).kind, "n", "e8m0 0xFF = NaN")

# ---------------------------------------------------------------- rounding modes, hand-worked
one_h = 1 + P2(-11)                                  # f16: tie between 1 (0x3C00, even) and 1 + 2^-10 (0x3C01)
want = {"R": 0x3C00, "A": 0x3C01, "F": 0x3C00, "C": 0x3C01, "Z": 0x3C00, "O": 0x3C01}
for rm, w in want.items():
    eq(enc(fm.F16, one_h, rm), w, "f16 1 + 2^-11 by %s" % rm)
want = {"R": 0xBC00, "A": 0xBC01, "F": 0xBC01, "C": 0xBC00, "Z": 0xBC00, "O": 0xBC01}
for rm, w in want.items():
    eq(enc(fm.F16, -one_h, rm), w, "f16 -(1 + 2^-11) by %s" % rm)
eq(enc(fm.F16, 1 + 3 * P2(-11), "R"), 0x3C02, "f16 1 + 3*2^-11: tie to the even 0x3C02")
eq(enc(fm.F16, 1 + 3 * P2(-12), "R"), 0x3C01, "f16 above half an ulp rounds up")
eq(enc(fm.F16, 1 + 3 * P2(-12), "Z"), 0x3C00, "f16 Z truncates")
eq(enc(fm.F16, 1, "O"), 0x3C00, "round to odd keeps an exact value")
for rm, w in {"R": 0x7C00, "A": 0x7C00, "F": 0x7BFF, "C": 0x7C00, "Z": 0x7BFF, "O": 0x7BFF}.items():
    eq(enc(fm.F16, 65520, rm), w, "f16 65520 (overflow) by %s" % rm)
for rm, w in {"R": 0xFC00, "F": 0xFC00, "C": 0xFBFF, "Z": 0xFBFF}.items():
    eq(enc(fm.F16, -65520, rm), w, "f16 -65520 by %s" % rm)
eq(enc(fm.F16, 65519, "R"), 0x7BFF, "f16 65519 stays finite")
eq(enc(fm.F16, 65520, "R", True), 0x7BFF, "f16 sat overflow -> max")
eq(enc(fm.F16, inf(True), "R", True), 0xFBFF, "f16 sat -inf -> -max")
eq(enc(fm.F16, NAN, "R", True), 0, "sat NaN -> +0")
eq(enc(fm.F16, NAN), 0x7E00, "f16 canonical NaN")
eq(enc(fm.F16, P2(-25), "R"), 0x0000, "f16 2^-25 ties to +0")
eq(enc(fm.F16, -P2(-25), "R"), 0x8000, "f16 -2^-25 ties to -0")
eq(enc(fm.F16, 3 * P2(-26), "R"), 0x0001, "f16 3*2^-26 rounds to the smallest subnormal")
eq(enc(fm.F16, P2(-30), "C"), 0x0001, "f16 tiny by C -> smallest subnormal")
eq(enc(fm.F16, P2(-30), "O"), 0x0001, "f16 tiny by O -> the odd code")
eq(enc(fm.BF16, 1 + P2(-8), "R"), 0x3F80, "bf16 tie to even")
eq(enc(fm.BF16, 1 + 3 * P2(-8), "R"), 0x3F82, "bf16 tie to even (up)")
eq(enc(fm.E4M3, 464, "R"), 0x7E, "e4m3 464 ties to 448 (even code)")
eq(enc(fm.E4M3, 480, "R"), 0x7F, "e4m3 overflow by R -> NaN (no inf)")
eq(enc(fm.E4M3, 480, "Z"), 0x7E, "e4m3 overflow by Z -> max")
eq(enc(fm.E4M3, 480, "R", True), 0x7E, "e4m3 sat overflow -> max")
eq(enc(fm.E4M3, inf(False)), 0x7F, "e4m3 inf -> NaN")
eq(enc(fm.E5M2, 61440, "R"), 0x7C, "e5m2 tie above max -> inf")
eq(enc(fm.E5M2, inf(True), "R", True), 0xFB, "e5m2 sat -inf -> -max")
eq(enc(fm.F4E2M1, 5, "R"), 0x6, "f4e2m1 5 ties to 4 (even code)")
eq(enc(fm.F4E2M1, 5, "A"), 0x7, "f4e2m1 5 by A -> 6")
eq(enc(fm.F4E2M1, 7, "R"), 0x7, "f4e2m1 overflow -> max (no inf, no NaN)")
eq(enc(fm.F4E2M1, NAN), 0x0, "f4e2m1 NaN -> +0")
eq(enc(fm.F4E2M1, inf(True)), 0xF, "f4e2m1 -inf -> -max")
eq(enc(fm.F4E1M2, F(3, 8), "R"), 0x2, "f4e1m2 0.375 ties to 0.5 (even code)")
eq(enc(fm.HIF8, 0), 0x00, "hif8 +0")
eq(enc(fm.HIF8, fin(0, True)), 0x00, "hif8 -0 -> 0x00 (one zero)")
eq(enc(fm.HIF8, -P2(-30), "R"), 0x00, "hif8 negative underflow -> 0x00")
eq(enc(fm.HIF8, NAN), 0x80, "hif8 NaN")
eq(enc(fm.HIF8, inf(True)), 0xEF, "hif8 -inf")
eq(enc(fm.HIF8, 40000, "R"), 0x6E, "hif8 40000 -> max (below the midpoint 40960)")
eq(enc(fm.HIF8, 45000, "R"), 0x6F, "hif8 45000 -> inf")
eq(enc(fm.HIF8, 45000, "Z"), 0x6E, "hif8 45000 by Z -> max")
eq(enc(fm.HIF8, 45000, "R", True), 0x6E, "hif8 sat overflow -> max")
eq(enc(fm.HIF8, F(17, 16), "R"), 0x08, "hif8 1.0625 ties to 1 (even code 0x08)")
eq(enc(fm.HIF8, F(17, 16), "A"), 0x09, "hif8 1.0625 by A -> 1.125")
eq(enc(fm.E8M0, F(3, 2), "R"), 0x80, "e8m0 1.5 ties to 2 (even code 0x80)")
eq(enc(fm.E8M0, 3, "R"), 0x80, "e8m0 3 ties to 2 (0x80 even, 4 is 0x81)")
eq(enc(fm.E8M0, 3, "A"), 0x81, "e8m0 3 by A -> 4")
eq(enc(fm.E8M0, F(5, 4), "R"), 0x7F, "e8m0 1.25 -> 1")
eq(enc(fm.E8M0, F(5, 4), "C"), 0x80, "e8m0 1.25 by C -> 2")
eq(enc(fm.E8M0, F(5, 4), "O"), 0x7F, "e8m0 1.25 by O -> the odd code 0x7F")
eq(enc(fm.E8M0, 0), 0xFF, "e8m0 zero -> NaN")
eq(enc(fm.E8M0, 0, "R", True), 0x00, "e8m0 sat zero -> 0x00")
eq(enc(fm.E8M0, -1), 0xFF, "e8m0 negative -> NaN")
eq(enc(fm.E8M0, P2(-130), "C"), 0x00, "e8m0 below 2^-127 -> 0x00 in every mode")
eq(enc(fm.E8M0, P2(128), "R"), 0xFF, "e8m0 overflow by R -> NaN")
eq(enc(fm.E8M0, P2(128), "Z"), 0xFE, "e8m0 overflow by Z -> max")
eq(enc(fm.E8M0, inf(False), "R", True), 0xFE, "e8m0 sat inf -> max")
r, t = fm.sqrt_tail(F(2))
eq(fm.F32.encode(fin(r), "R", False, t), 0x3FB504F3, "f32 sqrt(2) (tail rounding)")
eq(fm.f_sqrt(fm.F32, fin(2)), 0x3FB504F3, "f_sqrt f32 2")
eq(fm.f_rsqrt(fm.F16, fin(4)), 0x3800, "f_rsqrt f16 4 = 0.5")
eq(fm.f_exp_of(fm.F32, fin(0)), 0x3F800000, "exp(0) = 1")
eq(fm.f_ln(fm.F32, fin(1)), 0, "ln(1) = +0")
eq(fm.f_pow(fm.F32, 0x40000000, 0x41200000), fm.F32.from_int(1024), "pow(2, 10) = 1024")
eq(fm.to_int(fin(F(-5, 2)), "R", 8, True), 0xFE, "to_int -2.5 by R -> -2")
eq(fm.to_int(fin(300), "Z", 8, True), 0x7F, "to_int saturates")
eq(fm.to_int(NAN, "Z", 32, False), 0, "to_int NaN -> 0")
eq(fm.round_integral(fin(F(5, 2)), "O").value(), 3, "round_integral 2.5 by O -> 3")

# ---------------------------------------------------------------- every code of the small formats
for f in (fm.F16, fm.BF16, fm.E5M2, fm.E4M3, fm.HIF8, fm.F4E2M1, fm.F4E1M2, fm.E8M0):
    bad = []
    modes = fm.RNDS if f.bits <= 8 else ("R",)      # 16-bit formats: every code, one mode (time)
    for c in range(1 << f.bits):
        v = f.decode(c)
        want = f.cnan if v.isnan() else c
        for rm in modes:
            if f.encode(v, rm) != want:
                bad.append((hex(c), rm, hex(f.encode(v, rm))))
    check(not bad, "%s: encode(decode(c)) == c for every code (modes %s)" % (f.name, "".join(modes)), bad[:10])
    fins = sorted(((f.decode(c).value(), c) for c in range(1 << f.bits) if f.decode(c).kind == "f"))
    vals = [x for x, _ in fins]
    dup = [x for i, x in enumerate(vals[1:]) if x == vals[i] and x != 0]
    check(not dup, "%s: no two codes share a non-zero value" % f.name, dup[:5])

# ---------------------------------------------------------------- bracketing property on random values
rng = random.Random(2501)
for f in fm.FMTS.values():
    fins = sorted({f.decode(c).value() for c in range(1 << min(f.bits, 12)) if f.decode(c).kind == "f"}
                  if f.bits <= 12 else set())
    bad = []
    for _ in range(400):
        if f.bits <= 12:
            lo_i = rng.randrange(len(fins) - 1)
            x = fins[lo_i] + (fins[lo_i + 1] - fins[lo_i]) * F(rng.randrange(1, 8), 8)
        else:
            a = f.decode(rng.getrandbits(f.bits - 1))
            if a.kind != "f":
                continue
            x = a.mag * (1 + F(rng.randrange(1, 1 << 20), 1 << 40)) * (-1 if rng.random() < 0.5 else 1)
        if f is fm.E8M0 and x <= f.decode(0).mag:
            continue
        if f is fm.HIF8 and abs(x) < f.decode(1).mag:
            continue
        got = {rm: f.decode(f.encode(fin(x), rm)) for rm in fm.RNDS}
        if any(g.kind != "f" for g in got.values()):
            continue                                 # overflow checked by hand above
        gv = {rm: g.value() for rm, g in got.items()}
        dn, up = min(gv.values()), max(gv.values())
        odd = {rm: f.encode(fin(x), rm) & 1 for rm in ("O",)}
        ok = dn < x < up and gv["F"] == dn and gv["C"] == up and abs(gv["Z"]) < abs(x) and \
            abs(gv["R"] - x) <= min(abs(dn - x), abs(up - x)) and abs(gv["A"] - x) == abs(gv["R"] - x) and \
            gv["O"] in (dn, up) and (odd["O"] == 1 or f is fm.HIF8 and gv["O"] == 0)
        if not ok:
            bad.append((f.name, x, gv))
    check(not bad, "%s: every mode picks the right bracketing neighbour" % f.name, bad[:5])

# ---------------------------------------------------------------- CPython's packers as a second oracle
for code, f in (("e", fm.F16), ("f", fm.F32)):
    bad = []
    for _ in range(3000):
        x = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
        if x != x:
            continue
        if rng.random() < 0.7:
            x = rng.uniform(-1, 1) * 2.0 ** rng.randrange(-30 if code == "e" else -155, 18 if code == "e" else 130)
        try:
            want = struct.unpack("<H" if code == "e" else "<I", struct.pack("<" + code, x))[0]
        except OverflowError:
            want = f.sign * (x < 0) | f.inf_code
        got = f.encode(fm.of_float(x))
        if got != want:
            bad.append((x, hex(got), hex(want)))
    check(not bad, "%s: nearest-even rounding of doubles equals struct '%s'" % (f.name, code), bad[:5])

# ---------------------------------------------------------------- host fast paths against the exact model
bad = []
for _ in range(3000):
    a, b = (struct.unpack("<f", struct.pack("<I", rng.getrandbits(32)))[0] for _ in range(2))
    if rng.random() < 0.6:
        a, b = fm.host_f32(rng.uniform(-4, 4)), fm.host_f32(rng.uniform(-4, 4) * 2.0 ** rng.randrange(-30, 30))
    ca, cb = fm.host_f32_bits(a), fm.host_f32_bits(b)
    if a != a or b != b:
        continue
    for op, host in (("add", lambda: a + b), ("sub", lambda: a - b), ("mul", lambda: a * b),
                     ("div", lambda: a / b if b else None)):
        h = host()
        if h is None:
            continue
        got = fm.host_f32_bits(fm.host_f32(h))
        want = getattr(fm.F32, op)(ca, cb)
        if got != want:
            bad.append((op, a, b, hex(got), hex(want)))
check(not bad, "host_f32 of binary64 + - * / of f32 values equals the exact model", bad[:5])
bad = []
for f in (fm.F16, fm.F32, fm.F64, fm.BF16):
    for _ in range(1000):
        c = rng.getrandbits(f.bits)
        x = f.to_float(c)
        v = f.decode(c)
        if v.isnan():
            if x == x:
                bad.append((f.name, hex(c), x))
            continue
        if fm.of_float(x).kind != v.kind or (v.kind != "n" and fm.of_float(x).value() != v.value()) or \
                (v.iszero() and (struct.pack("<d", x)[7] >> 7) != v.neg):
            bad.append((f.name, hex(c), x))
        elif f.from_float(x) != f.encode(fm.of_float(x)):
            bad.append((f.name, hex(c), "from_float"))
check(not bad, "to_float / from_float (struct fast paths) agree with decode / encode", bad[:5])
eq(fm.F32.from_float(3.5e38), 0x7F800000, "f32 from_float overflow -> inf")
eq(fm.F16.from_float(70000.0, "R", True), 0x7BFF, "f16 from_float sat")
eq(fm.F16.from_float(-0.0), 0x8000, "f16 from_float -0.0")

# ---------------------------------------------------------------- IEEE operations on codes
f = fm.F32
P0, N0, ONE, QN, PINF, NINF = 0, 0x80000000, 0x3F800000, 0x7FC00000, 0x7F800000, 0xFF800000
eq(f.maximum(P0, N0), P0, "maximum(+0, -0) = +0")
eq(f.maximum(N0, P0), P0, "maximum(-0, +0) = +0")
eq(f.minimum(P0, N0), N0, "minimum(+0, -0) = -0")
eq(f.maximum(ONE, 0x7FC12345), QN, "maximum propagates NaN as the canonical NaN")
eq(f.maxnum(0x7FC12345, ONE), ONE, "maxnum ignores a NaN operand")
eq(f.minnum(QN, QN), QN, "minnum of two NaNs")
eq(f.add(PINF, NINF), QN, "inf + -inf = NaN")
eq(f.add(ONE, ONE | 0x80000000), P0, "x + -x = +0")
eq(f.add(ONE, ONE | 0x80000000, "F"), N0, "x + -x = -0 under F")
eq(f.add(N0, N0), N0, "-0 + -0 = -0")
eq(f.mul(PINF, P0), QN, "inf * 0 = NaN")
eq(f.div(ONE, N0), NINF, "1 / -0 = -inf")
eq(f.div(P0, P0), QN, "0 / 0 = NaN")
eq(f.fma(ONE, ONE, ONE | 0x80000000), P0, "fma exact zero = +0")
eq(f.neg(QN), 0xFFC00000, "neg flips the sign of a NaN")
eq(f.abs(0xFFC00001), 0x7FC00001, "abs keeps the payload")
eq([int(f.cmpf(QN, ONE, p)) for p in fm.CMPF_PREDICATES], [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1],
   "cmpf with a NaN: only unordered predicates hold")
eq([int(f.cmpf(N0, P0, p)) for p in ("oeq", "olt", "une")], [1, 0, 0], "cmpf -0 == +0")
eq(fm.F16.convert(0x7BFF, fm.BF16), 0x4780, "f16 max 65504 -> bf16 65536 (nearest even)")
eq(fm.F32.to_int_code(0xC0200000, 32, True), 0xFFFFFFFE, "f32 -2.5 -> i32 by Z = -2")

finish()
