#!/usr/bin/env python3
"""gen_scalar_float.py OUTDIR MODE ... — inputs and expected outputs for the scalar float and cast run
tests in tests/scalar/. Python standard library only; every expected value is computed from the
IEEE 754 definitions by the generators' float model (fmodel.py: exact rational arithmetic and one
final round-to-nearest-even), never by running ptosim.

Modes:
  arith FMT N        FMT in f16 bf16 f32 f64. Writes in.bin (N operand pairs a, b as FMT bit
                     patterns), expf.bin (per pair, as FMT: addf subf mulf divf maximumf minimumf
                     maxnumf minnumf negf(a)) and expc.bin (per pair, one byte per cmpf predicate in
                     the order false oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno true).
                     N must equal the number of pairs the generator builds (the RUN lines size the
                     buffers from it).
  casts_int N8 N16 N32 N64      in_i8.bin .. in_i64.bin (integer inputs, padded with 0 to the
                     counts) and exp_i8.bin .. exp_i64.bin (per input, the results of the
                     CASTS table below, each as a zero-extended 64-bit pattern).
  casts_float N16 NB16 N32 N64  likewise in_f16/in_bf16/in_f32/in_f64 and exp_*.
  args FMT LIT...    exp_args_FMT.bin: each command-line literal as the FMT kernel argument it binds
                     to: the literal read as a binary64 (decimal correctly rounded, or a C99 hex float;
                     inf, nan), then rounded once to FMT (ties to even); NaN -> canonical NaN.

Readings (docs/semantics.md §4): every NaN an arithmetic op or a float->float conversion produces is
the canonical NaN of its type (f16 0x7E00, bf16 0x7FC0, f32 0x7FC00000, f64 0x7FF8000000000000);
maximumf/minimumf propagate NaN, maxnumf/minnumf return the other operand (its own bits) when exactly
one operand is NaN; +0 > -0 for max/min; negf is IEEE negate (flips the sign bit, NaN payloads
kept); fptosi/fptoui round toward zero, saturate to the destination range and give 0 for NaN;
bitcast keeps bits (NaN payloads too)."""
import random, sys
from fractions import Fraction

import fmodel as fm
import genlib as gl

FM = {"f16": fm.F16, "bf16": fm.BF16, "f32": fm.F32, "f64": fm.F64}
PACK = {8: "B", 16: "H", 32: "I", 64: "Q"}


def code_of(f, v):
    """Code of a Fraction/int value rounded once to nearest-even (a float argument: +-inf)."""
    if isinstance(v, float):
        return (f.sign if v < 0 else 0) | f.inf_code
    return f.encode(fm.fin(v))


def write(name, width, values):
    gl.save_vals(name, PACK[width], values)


# ------------------------------------------------------------------------------------ arith

def arith_inputs(f):
    """Operand pairs: the cross product of special and edge values, hand-picked rounding cases, and
    deterministic pseudo-random finite pairs."""
    S, inf, top = f.sign, f.inf_code, f.mb
    mind, maxd, minn, maxf, qnan = 1, (1 << f.mb) - 1, f.min_normal, f.max_code, f.cnan
    one = code_of(f, 1)
    edges = [0, S,                                  # +0, -0
             mind, S | mind, maxd,            # smallest subnormal (both signs), largest subnormal
             minn, S | minn,                    # smallest normal
             one, S | one, code_of(f, Fraction(3, 2)), one + 1,   # 1, -1, 1.5, 1 + ulp
             code_of(f, 3), S | code_of(f, Fraction(1, 10)),     # 3, -0.1 (rounded)
             maxf, S | maxf,                    # +-max finite
             inf, S | inf,                          # +-inf
             qnan, S | qnan,                    # quiet NaN, negative quiet NaN
             qnan | 0x15,                         # quiet NaN with a payload
             inf | 1, S | inf | (1 << (top - 2))]   # signalling NaNs with payloads
    pairs = [(a, b) for a in edges for b in edges]
    V = lambda x: code_of(f, x)     # noqa: E731
    ulp = Fraction(1, 1 << top)                      # ulp of 1
    half = ulp / 2
    pairs += [
        # addf/subf ties to even at 1: 1 + ulp/2 -> 1, (1 + ulp) + ulp/2 -> 1 + 2 ulp
        (one, V(half)), (one + 1, V(half)), (one, V(3 * half)), (S | one, S | V(half)),
        (V(2), S | V(half)),                        # 2 - ulp/2: tie between 2 - ulp (odd) and 2 -> 2
        (V(2), S | V(3 * half)),                    # 2 - 3 ulp/2: tie between 2 - 2 ulp (even) and 2 - ulp
        (V(1 + ulp), S | one),                      # cancellation to exactly ulp
        (V(1 + ulp), V(1 + ulp)),                   # x - x = +0 for subf
        (maxf, V(Fraction(2) ** (f.bias - top - 1))),   # max + half ulp: tie -> inf
        (maxf, maxf),                           # overflow to inf in addf and mulf
        (minn, S | mind),                       # normal - subnormal = largest subnormal
        (mind, V(Fraction(1, 2))),                # tiny * 0.5: tie -> 0; tiny / 0.5 = 2 tiny
        (3 * mind, V(Fraction(1, 2))),            # 1.5 tiny -> 2 tiny (tie to even)
        (mind, V(Fraction(3, 4))),                # 0.75 tiny -> tiny
        (mind, V(Fraction(1, 4))),                # below half: 0 (div: 4 tiny)
        (S | mind, V(Fraction(1, 2))),            # -0 from underflow
        (minn, V(2)),                             # min normal / 2 is exact subnormal
        (one, V(3)), (V(2), V(3)), (V(10), V(3)),   # inexact quotients
        (V(1 + ulp), S | V(1 + ulp)),               # x + (-x) = +0; (1+u)^2 = 1 + 2u + u^2 -> 1 + 2u
        (one + 1, V(Fraction(3, 2))),               # (1 + u) * 1.5 = 1.5 + 1.5u: tie -> 1.5 + 2u
        (V(Fraction(2) ** (f.bias)), V(2)),         # 2^bias * 2 = 2^(bias+1) overflows
        # crossing the binade boundary below 1 (spacing ulp/2 there): 1 - ulp/4 is a tie -> 1,
        # 1 - ulp/4 * (1 + ulp) is just past it -> 1 - ulp/2, 1 - 3 ulp/4 -> tie -> 1 - ulp
        (one, V(half / 2)), (one, V(half / 2 * (1 + ulp))), (one, V(3 * half / 2)),
        (S | one, V(half / 2 * (1 + ulp))),
        (maxd, one + 1),                          # subnormal * (1 + ulp) rounds up to the smallest normal
        (minn, one + 1),                          # smallest normal / (1 + ulp) rounds down to a subnormal
    ]
    emask = (1 << f.eb) - 1
    rnd = random.Random(0x5CA1A2 + f.bits + f.mb + 1)
    for _ in range(120):
        ea = rnd.randrange(emask)                 # finite (maybe subnormal) operands
        eb = ea + rnd.randrange(-f.mb - 4, f.mb + 5) if rnd.random() < 0.7 else rnd.randrange(emask)
        eb = min(max(eb, 0), emask - 1)
        a = (rnd.getrandbits(1) * S) | (ea << top) | rnd.getrandbits(top)
        b = (rnd.getrandbits(1) * S) | (eb << top) | rnd.getrandbits(top)
        pairs.append((a, b))
    return pairs


def arith(out, name, n):
    f = FM[name]
    pairs = arith_inputs(f)
    if len(pairs) != n:
        sys.exit("gen_scalar_float.py: arith %s builds %d pairs, the test says %d" % (name, len(pairs), n))
    ins, fr, cr = [], [], []
    for a, b in pairs:
        ins += [a, b]
        fr += [f.add(a, b), f.sub(a, b), f.mul(a, b), f.div(a, b),
               f.maximum(a, b), f.minimum(a, b), f.maxnum(a, b), f.minnum(a, b), f.neg(a)]
        cr += [int(f.cmpf(a, b, p)) for p in fm.CMPF_PREDICATES]
    write("in.bin", f.bits, ins)
    write("expf.bin", f.bits, fr)
    write("expc.bin", 8, cr)


# ------------------------------------------------------------------------------------ casts

sx, zx = gl.sext, gl.zext


# Per source type: the list of casts the kernel applies, in store order. Each entry maps the input
# bit pattern to the result bit pattern (stored zero-extended to 64 bits).
f16, bf16, f32, f64 = FM["f16"], FM["bf16"], FM["f32"], FM["f64"]
CASTS = {
    "i8": [
        lambda v: zx(v, 1),                                   # trunci i8 -> i1
        lambda v: f32.from_int(-(v & 1)),                     # sitofp i1 -> f32 (true = -1)
        lambda v: f32.from_int(v & 1),                        # uitofp i1 -> f32
        lambda v: zx(v, 8),                                   # index_castui i8 -> index
        lambda v: f16.from_int(sx(v, 8)),                     # sitofp i8 -> f16
        lambda v: bf16.from_int(sx(v, 8)),                    # sitofp i8 -> bf16
        lambda v: f16.from_int(zx(v, 8)),                     # uitofp i8 -> f16
        lambda v: bf16.from_int(zx(v, 8)),                    # uitofp i8 -> bf16
    ],
    "i16": [
        lambda v: zx(v, 8),                                   # trunci i16 -> i8
        lambda v: zx(v, 16),                                  # index_castui i16 -> index
        lambda v: f16.from_int(sx(v, 16)),                    # sitofp i16 -> f16
        lambda v: f16.from_int(zx(v, 16)),                    # uitofp i16 -> f16
        lambda v: bf16.from_int(sx(v, 16)),                   # sitofp i16 -> bf16
        lambda v: bf16.from_int(zx(v, 16)),                   # uitofp i16 -> bf16
        lambda v: f32.from_int(sx(v, 16)),                    # sitofp i16 -> f32
        lambda v: zx(v, 16),                                  # bitcast i16 -> f16 (stored as bits)
        lambda v: bf16.convert(zx(v, 16), f32),            # bitcast i16 -> bf16, extf -> f32
    ],
    "i32": [
        lambda v: zx(v, 16),                                  # trunci i32 -> i16
        lambda v: zx(v, 8),                                   # trunci i32 -> i8
        lambda v: zx(v, 32),                                  # index_castui i32 -> index
        lambda v: f32.from_int(sx(v, 32)),                    # sitofp i32 -> f32
        lambda v: f32.from_int(zx(v, 32)),                    # uitofp i32 -> f32
        lambda v: f16.from_int(sx(v, 32)),                    # sitofp i32 -> f16
        lambda v: f16.from_int(zx(v, 32)),                    # uitofp i32 -> f16
        lambda v: bf16.from_int(sx(v, 32)),                   # sitofp i32 -> bf16
        lambda v: f64.from_int(sx(v, 32)),                    # sitofp i32 -> f64
        lambda v: f64.from_int(zx(v, 32)),                    # uitofp i32 -> f64
        lambda v: zx(v, 32),                                  # bitcast i32 -> f32 (stored as bits)
    ],
    "i64": [
        lambda v: zx(v, 32),                                  # trunci i64 -> i32
        lambda v: zx(v, 1),                                   # trunci i64 -> i1
        lambda v: zx(v, 64),                                  # index_castui i64 -> index
        lambda v: zx(v, 32),                                  # index_castui (index_castui i64 -> index) -> i32
        lambda v: f32.from_int(sx(v, 64)),                    # sitofp i64 -> f32
        lambda v: f32.from_int(zx(v, 64)),                    # uitofp i64 -> f32
        lambda v: f64.from_int(sx(v, 64)),                    # sitofp i64 -> f64
        lambda v: f64.from_int(zx(v, 64)),                    # uitofp i64 -> f64
        lambda v: f16.from_int(sx(v, 64)),                    # sitofp i64 -> f16
        lambda v: bf16.from_int(zx(v, 64)),                   # uitofp i64 -> bf16
        lambda v: zx(v, 64),                                  # bitcast i64 -> f64 (stored as bits)
    ],
}


def float_casts(f, bitcast_to=None):
    r = []
    for w in (8, 16, 32, 64):
        r.append(lambda v, w=w: f.to_int_code(v, w, True))         # fptosi -> iW
    for w in (8, 16, 32, 64):
        r.append(lambda v, w=w: f.to_int_code(v, w, False))        # fptoui -> iW
    for d in ("f16", "bf16", "f32", "f64"):
        if d != f.name and not ({d, f.name} == {"f16", "bf16"}):
            r.append(lambda v, d=d: f.convert(v, FM[d]))  # extf / truncf -> d (order f16 bf16 f32 f64)
    r.append(lambda v: v)                                     # bitcast -> iW
    if bitcast_to:
        r.append(lambda v: FM[bitcast_to].convert(v, f32))   # bitcast -> other 16-bit float, extf -> f32
    return r


CASTS["f16"] = float_casts(f16, "bf16")     # last: bitcast f16 -> bf16, extf -> f32
CASTS["bf16"] = float_casts(bf16, "f16")    # last: bitcast bf16 -> f16, extf -> f32
CASTS["f32"] = float_casts(f32)
CASTS["f64"] = float_casts(f64)


def int_inputs(w):
    mn, mx = -(1 << (w - 1)), (1 << (w - 1)) - 1
    v = [0, 1, -1, 2, 3, -2, mn, mx, mn + 1, mx - 1, 5, -100, 0x55, -0x56]
    if w >= 16:
        # f16 / bf16 rounding: 2049 (tie -> 2048), 2051 (tie -> 2052), 2050, 257 (bf16 tie -> 256),
        # 259 (bf16 tie -> 260), 65504 (f16 max), 65519 (-> 65504), 65520 (tie -> inf), 0x7C01 (NaN
        # pattern for bitcast), 0xFF81 (bf16 sNaN pattern)
        v += [2049, 2051, 2050, -2049, 257, 259, -259, 0x7BFF, 0x7C00, 0x7C01, 0xFC00 - (1 << 16),
              0x7F81, 0xFF81 - (1 << 16), 0x0001, 0x8001 - (1 << 16)]
        if w == 16:
            v += [-32767, 32767 - 16, 0x7FC0]
        else:
            v += [65504, 65519, 65520, 65535, 65536, -65520, -65519, 70000]
    if w >= 32:
        # f32: 2^24 + 1 (tie -> 2^24), 2^24 + 3 (tie -> 2^24 + 4), 2^24 + 2, 2^31 - 64 (tie -> 2^31),
        # 2^31 - 65 (-> 2^31 - 128); f32 NaN/inf/1.0 bit patterns for bitcast
        v += [(1 << 24) + 1, (1 << 24) + 3, (1 << 24) + 2, -(1 << 24) - 1, 0x7FC00001, 0x7F800000,
              0x3F800000, -0x40800000, (1 << 31) - 64, (1 << 31) - 65]
    if w == 64:
        # f64: 2^53 + 1 (tie -> 2^53), 2^53 + 3 (tie -> 2^53 + 4), 2^63 - 512 (tie -> 2^63), 2^63 - 513;
        # f32 ties at 2^40 (2^40 + 2^16 -> 2^40, 2^40 + 3*2^16 -> 2^40 + 2^18); f64 NaN/1.0 patterns;
        # -1 etc. read as 2^64 - 1 by uitofp
        v += [(1 << 53) + 1, (1 << 53) + 3, -(1 << 53) - 1, (1 << 40) + (1 << 16), (1 << 40) + 3 * (1 << 16),
              (1 << 63) - 512, (1 << 63) - 513, 0x7FF0000000000001, 0x7FF8000000000000,
              0x3FF0000000000000, (1 << 32) + 7, 0xFFFFFFFF, 0x80000000]
    return [zx(x, w) for x in v]


def float_inputs(f):
    S, V = f.sign, (lambda x: code_of(f, x))
    top = f.mb
    mind, maxd, minn, maxf, qnan, inf = 1, (1 << f.mb) - 1, f.min_normal, f.max_code, f.cnan, f.inf_code
    ulp = Fraction(1, 1 << top)
    v = [0, S, mind, S | mind, maxd, minn, S | minn, maxf, S | maxf, inf, S | inf,
         qnan, S | qnan, qnan | 0x15, inf | 1, S | inf | 3,
         V(1), V(-1), V(Fraction(1, 2)), V(Fraction(-1, 2)), V(Fraction(3, 2)), V(Fraction(-3, 2)),
         V(Fraction(99, 100)), V(Fraction(-99, 100)), V(Fraction(5, 2)), V(Fraction(-7, 2)), V(1 + ulp),
         V(127), V(-128), V(128), V(-129), V(Fraction(2559, 10)), V(256), V(-Fraction(1281, 10)),
         V(32767), V(-32768), V(32768), V(-32769), V(65535), V(65536), V(100000), V(-100000)]
    if f.name in ("f32", "f64"):
        v += [V(Fraction(2) ** 31), V(-Fraction(2) ** 31), V((1 << 31) - 128), V(-(1 << 31) - 256),
              V(Fraction(2) ** 32), V((1 << 32) - 256), V(Fraction(2) ** 63), V(-Fraction(2) ** 63),
              V(Fraction(2) ** 64), V(Fraction(2) ** 64 - 2 ** 40), V(-Fraction(2) ** 64),
              # f16 / bf16 rounding targets: 65504, 65519, 65520 (tie -> inf), 1 + 2^-11 (f16 tie -> 1),
              # 1 + 3*2^-11 (tie -> 1 + 2^-9), 1 + 2^-8 (bf16 tie -> 1), 1 + 3*2^-8 (-> 1 + 2^-6),
              # f16 subnormal ties: 2^-25 (-> 0), 3*2^-26 (-> 2^-24), 2^-25 + 2^-30 (-> 2^-24)
              V(65504), V(65519), V(65520), V(-65520), V(1 + Fraction(1, 2 ** 11)),
              V(1 + Fraction(3, 2 ** 11)), V(1 + Fraction(1, 2 ** 8)), V(1 + Fraction(3, 2 ** 8)),
              V(Fraction(1, 2 ** 25)), V(Fraction(3, 2 ** 26)), V(Fraction(1, 2 ** 25) + Fraction(1, 2 ** 30)),
              # -2^-25 (-> -0 in f16); 2^-126, 2^-133, 2^-149: f32 smallest normal, bf16 and f32 smallest
              # subnormals
              V(Fraction(-1, 2 ** 25)), V(Fraction(2) ** -126), V(Fraction(2) ** -133), V(Fraction(2) ** -149),
              V(Fraction(2) ** 127 * (2 - Fraction(1, 2 ** 8))),   # bf16: rounds up to inf; f32 fine
              ]
    if f.name == "f64":
        # f32 subnormal ties: 2^-150 (-> 0), 1.5 * 2^-149 (-> 2^-148); f64 smallest subnormal (-> 0)
        v += [V(Fraction(2) ** -150), V(Fraction(3, 2) * Fraction(2) ** -149), V(Fraction(2) ** -1074),
              V(Fraction(2) ** 128), V(Fraction(2) ** 127 * (2 - Fraction(1, 2 ** 24))),   # f32 tie -> inf
              V(Fraction(2) ** 127 * (2 - Fraction(1, 2 ** 23))),                          # f32 max
              V(1 + Fraction(1, 2 ** 24)), V(1 + Fraction(3, 2 ** 24)),                   # f32 ties
              V(1 + Fraction(1, 2 ** 24) + Fraction(1, 2 ** 52)),                         # just above tie
              V(Fraction(2) ** 63 - 1024), V(-Fraction(2) ** 63 - 2048)]
    return v


def casts(out, kinds, counts):
    for k, n in zip(kinds, counts):
        if k.startswith("i"):
            w = int(k[1:])
            vals = int_inputs(w)
        else:
            w = FM[k].bits
            vals = float_inputs(FM[k])
        if len(vals) > n:
            sys.exit("gen_scalar_float.py: %s has %d inputs, the test allows %d" % (k, len(vals), n))
        vals = vals + [0] * (n - len(vals))
        exp = [c(v) for v in vals for c in CASTS[k]]
        write("in_%s.bin" % k, w, vals)
        write("exp_%s.bin" % k, 64, exp)


# ------------------------------------------------------------------------------------ CLI literals

def literal_bits(f, lit):
    """Bits of a CLI float literal: f32 rounds the exact decimal once; other types round the binary64 value."""
    body = lit.lstrip("+-")
    d = float.fromhex(lit) if body[:2].lower() == "0x" else float(lit)
    if d != d:
        return f.cnan
    if d in (float("inf"), float("-inf")):
        return (f.sign if d < 0 else 0) | f.inf_code
    neg = d < 0 or (d == 0 and str(d).startswith("-"))
    if f is FM["f32"] and body[:2].lower() != "0x":
        return f.encode(fm.V("f", neg, Fraction(body)))   # f32: the decimal text itself is rounded once
    return f.encode(fm.V("f", neg, abs(Fraction(d))))      # other types: via binary64 (docs/semantics.md section 4)


def args(out, name, lits):
    f = FM[name]
    write("exp_args_%s.bin" % name, f.bits, [literal_bits(f, x) for x in lits])


def main():
    words = gl.cli(__doc__, 2)
    out, mode, rest = gl.OUT, words[0], words[1:]
    if mode == "arith":
        arith(out, rest[0], int(rest[1]))
    elif mode == "args":
        args(out, rest[0], rest[1:])
    elif mode == "casts_int":
        casts(out, ["i8", "i16", "i32", "i64"], [int(x) for x in rest[:4]])
    elif mode == "casts_float":
        casts(out, ["f16", "bf16", "f32", "f64"], [int(x) for x in rest[:4]])
    else:
        sys.exit("gen_scalar_float.py: unknown mode " + mode)


if __name__ == "__main__":
    main()
