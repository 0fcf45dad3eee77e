#!/usr/bin/env python3
"""gen_scalar_float.py OUTDIR MODE ... — inputs and expected outputs for the scalar float and cast run
tests in tests/scalar/. Python standard library only; every expected value is computed here from
the IEEE 754 definitions with exact rational arithmetic (fractions.Fraction) and one final
round-to-nearest-even, never by running ptosim.

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
import os, random, struct, sys
from fractions import Fraction

# name: (total bits, exponent bits, precision incl. the implicit bit)
FMTS = {"f16": (16, 5, 11), "bf16": (16, 8, 8), "f32": (32, 8, 24), "f64": (64, 11, 53)}
QNAN = {"f16": 0x7E00, "bf16": 0x7FC0, "f32": 0x7FC00000, "f64": 0x7FF8000000000000}


class F:
    """Shape of one binary interchange format."""

    def __init__(self, name):
        self.name = name
        self.w, self.eb, self.p = FMTS[name]
        self.bias = (1 << (self.eb - 1)) - 1
        self.emin = 1 - self.bias
        self.sign = 1 << (self.w - 1)
        self.emask = (1 << self.eb) - 1
        self.fmask = (1 << (self.p - 1)) - 1
        self.inf = self.emask << (self.p - 1)
        self.qnan = QNAN[name]
        self.maxf = self.inf - 1
        self.minn = 1 << (self.p - 1)   # smallest normal
        self.mind = 1                   # smallest subnormal
        self.maxd = self.fmask          # largest subnormal

    # ---- decoding: ('nan', neg, None) | ('inf', neg, None) | ('fin', neg, Fraction |x|)
    def decode(self, b):
        neg = bool(b & self.sign)
        e = (b >> (self.p - 1)) & self.emask
        m = b & self.fmask
        if e == self.emask:
            return ("nan" if m else "inf", neg, None)
        if e == 0:
            return ("fin", neg, Fraction(m) * Fraction(2) ** (self.emin - (self.p - 1)))
        return ("fin", neg, Fraction(m | self.minn) * Fraction(2) ** (e - self.bias - (self.p - 1)))

    def is_nan(self, b):
        return self.decode(b)[0] == "nan"

    def value(self, b):
        """Comparable value: Fraction for finite numbers (-0 == +0), +-inf as floats; NaN -> None."""
        c, neg, x = self.decode(b)
        if c == "nan":
            return None
        if c == "inf":
            return float("-inf") if neg else float("inf")
        return -x if neg else x

    # ---- encoding with one round to nearest, ties to even
    def round(self, neg, x):
        """Bits of (-1)^neg * x (x a non-negative Fraction), overflow to inf, underflow to +-0."""
        s = self.sign if neg else 0
        if x == 0:
            return s
        e = x.numerator.bit_length() - x.denominator.bit_length()
        if Fraction(2) ** e > x:
            e -= 1
        # now 2^e <= x < 2^(e+1)
        q = max(e, self.emin) - (self.p - 1)          # weight of the last significand bit
        m = x / Fraction(2) ** q
        n = m.numerator // m.denominator
        rem = m - n
        if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n & 1):
            n += 1
        if n == 0:
            return s
        if n < self.minn:                               # subnormal
            return s | n
        if n == 1 << self.p:                            # carried into the next binade
            n >>= 1
            q += 1
        biased = q + (self.p - 1) + self.bias
        if biased >= self.emask:
            return s | self.inf
        return s | (biased << (self.p - 1)) | (n - self.minn)

    def from_value(self, v):
        """Bits of a Fraction/int/float value (floats only for +-inf)."""
        if isinstance(v, float):
            return (self.sign if v < 0 else 0) | self.inf
        v = Fraction(v)
        return self.round(v < 0, abs(v))

    # ---- IEEE operations with canonical NaN results
    def add(self, a, b):
        ca, na, xa = self.decode(a)
        cb, nb, xb = self.decode(b)
        if ca == "nan" or cb == "nan":
            return self.qnan
        if ca == "inf" and cb == "inf":
            return self.qnan if na != nb else a
        if ca == "inf":
            return a
        if cb == "inf":
            return b
        if xa == 0 and xb == 0:
            return self.sign if (na and nb) else 0       # -0 only when both are -0
        s = (-xa if na else xa) + (-xb if nb else xb)
        if s == 0:
            return 0                                    # exact cancellation gives +0 (RNE)
        return self.round(s < 0, abs(s))

    def sub(self, a, b):
        return self.add(a, b ^ self.sign) if not self.is_nan(b) else self.qnan

    def mul(self, a, b):
        ca, na, xa = self.decode(a)
        cb, nb, xb = self.decode(b)
        neg = na != nb
        if ca == "nan" or cb == "nan":
            return self.qnan
        if (ca == "inf" and cb == "fin" and xb == 0) or (cb == "inf" and ca == "fin" and xa == 0):
            return self.qnan
        if ca == "inf" or cb == "inf":
            return (self.sign if neg else 0) | self.inf
        return self.round(neg, xa * xb)

    def div(self, a, b):
        ca, na, xa = self.decode(a)
        cb, nb, xb = self.decode(b)
        neg = na != nb
        s = self.sign if neg else 0
        if ca == "nan" or cb == "nan":
            return self.qnan
        if ca == "inf" and cb == "inf":
            return self.qnan
        if ca == "inf":
            return s | self.inf
        if cb == "inf":
            return s
        if xb == 0:
            return self.qnan if xa == 0 else s | self.inf
        return self.round(neg, xa / xb)

    def minmax(self, a, b, want_max, nan_propagates):
        an, bn = self.is_nan(a), self.is_nan(b)
        if an or bn:
            if nan_propagates or (an and bn):
                return self.qnan
            return b if an else a
        va, vb = self.value(a), self.value(b)
        if va == vb:
            if va == 0 and a != b:                      # +0 vs -0
                neg_one = a if a & self.sign else b
                pos_one = b if a & self.sign else a
                return pos_one if want_max else neg_one
            return a
        return a if ((va > vb) if want_max else (va < vb)) else b

    def neg(self, a):
        return a ^ self.sign

    def cmp(self, a, b):
        """The 16 cmpf predicates in token order."""
        va, vb = self.value(a), self.value(b)
        un = va is None or vb is None
        if un:
            eq = lt = gt = False
        else:
            eq, lt, gt = va == vb, va < vb, va > vb
        o = not un
        return [False,
                o and eq, o and gt, o and (gt or eq), o and lt, o and (lt or eq), o and not eq, o,
                un or eq, un or gt, un or gt or eq, un or lt, un or lt or eq, un or not eq, un,
                True]

    # ---- integer conversions
    def to_int(self, b, width, signed):
        """fptosi/fptoui: toward zero, saturating, NaN -> 0; the width-bit pattern."""
        c, neg, x = self.decode(b)
        lo = -(1 << (width - 1)) if signed else 0
        hi = (1 << (width - 1)) - 1 if signed else (1 << width) - 1
        if c == "nan":
            v = 0
        elif c == "inf":
            v = lo if neg else hi
        else:
            t = x.numerator // x.denominator             # |x| truncated
            v = -t if neg else t
            v = min(max(v, lo), hi)
        return v & ((1 << width) - 1)

    def from_int(self, v):
        return self.round(v < 0, Fraction(abs(v)))

    def convert_to(self, b, dst):
        """extf/truncf: exact value rounded once to dst; NaN -> dst's canonical NaN."""
        c, neg, x = self.decode(b)
        if c == "nan":
            return dst.qnan
        if c == "inf":
            return (dst.sign if neg else 0) | dst.inf
        return dst.round(neg, x)


FM = {n: F(n) for n in FMTS}
PACK = {8: "B", 16: "H", 32: "I", 64: "Q"}


def write(path, width, values):
    with open(path, "wb") as f:
        f.write(struct.pack("<%d%s" % (len(values), PACK[width]), *values))


# ------------------------------------------------------------------------------------ arith

def arith_inputs(f):
    """Operand pairs: the cross product of special and edge values, hand-picked rounding cases, and
    deterministic pseudo-random finite pairs."""
    S, inf, top = f.sign, f.inf, f.p - 1
    one = f.from_value(1)
    edges = [0, S,                                  # +0, -0
             f.mind, S | f.mind, f.maxd,            # smallest subnormal (both signs), largest subnormal
             f.minn, S | f.minn,                    # smallest normal
             one, S | one, f.from_value(Fraction(3, 2)), one + 1,   # 1, -1, 1.5, 1 + ulp
             f.from_value(3), S | f.from_value(Fraction(1, 10)),     # 3, -0.1 (rounded)
             f.maxf, S | f.maxf,                    # +-max finite
             inf, S | inf,                          # +-inf
             f.qnan, S | f.qnan,                    # quiet NaN, negative quiet NaN
             f.qnan | 0x15,                         # quiet NaN with a payload
             inf | 1, S | inf | (1 << (top - 2))]   # signalling NaNs with payloads
    pairs = [(a, b) for a in edges for b in edges]
    V = f.from_value
    ulp = Fraction(1, 1 << top)                      # ulp of 1
    half = ulp / 2
    pairs += [
        # addf/subf ties to even at 1: 1 + ulp/2 -> 1, (1 + ulp) + ulp/2 -> 1 + 2 ulp
        (one, V(half)), (one + 1, V(half)), (one, V(3 * half)), (S | one, S | V(half)),
        (V(2), S | V(half)),                        # 2 - ulp/2: tie between 2 - ulp (odd) and 2 -> 2
        (V(2), S | V(3 * half)),                    # 2 - 3 ulp/2: tie between 2 - 2 ulp (even) and 2 - ulp
        (V(1 + ulp), S | one),                      # cancellation to exactly ulp
        (V(1 + ulp), V(1 + ulp)),                   # x - x = +0 for subf
        (f.maxf, V(Fraction(2) ** (f.bias - top - 1))),   # max + half ulp: tie -> inf
        (f.maxf, f.maxf),                           # overflow to inf in addf and mulf
        (f.minn, S | f.mind),                       # normal - subnormal = largest subnormal
        (f.mind, V(Fraction(1, 2))),                # tiny * 0.5: tie -> 0; tiny / 0.5 = 2 tiny
        (3 * f.mind, V(Fraction(1, 2))),            # 1.5 tiny -> 2 tiny (tie to even)
        (f.mind, V(Fraction(3, 4))),                # 0.75 tiny -> tiny
        (f.mind, V(Fraction(1, 4))),                # below half: 0 (div: 4 tiny)
        (S | f.mind, V(Fraction(1, 2))),            # -0 from underflow
        (f.minn, V(2)),                             # min normal / 2 is exact subnormal
        (one, V(3)), (V(2), V(3)), (V(10), V(3)),   # inexact quotients
        (V(1 + ulp), S | V(1 + ulp)),               # x + (-x) = +0; (1+u)^2 = 1 + 2u + u^2 -> 1 + 2u
        (one + 1, V(Fraction(3, 2))),               # (1 + u) * 1.5 = 1.5 + 1.5u: tie -> 1.5 + 2u
        (V(Fraction(2) ** (f.bias)), V(2)),         # 2^bias * 2 = 2^(bias+1) overflows
        # crossing the binade boundary below 1 (spacing ulp/2 there): 1 - ulp/4 is a tie -> 1,
        # 1 - ulp/4 * (1 + ulp) is just past it -> 1 - ulp/2, 1 - 3 ulp/4 -> tie -> 1 - ulp
        (one, V(half / 2)), (one, V(half / 2 * (1 + ulp))), (one, V(3 * half / 2)),
        (S | one, V(half / 2 * (1 + ulp))),
        (f.maxd, one + 1),                          # subnormal * (1 + ulp) rounds up to the smallest normal
        (f.minn, one + 1),                          # smallest normal / (1 + ulp) rounds down to a subnormal
    ]
    rnd = random.Random(0x5CA1A2 + f.w + f.p)
    for _ in range(120):
        ea = rnd.randrange(f.emask)                 # finite (maybe subnormal) operands
        eb = ea + rnd.randrange(-f.p - 3, f.p + 4) if rnd.random() < 0.7 else rnd.randrange(f.emask)
        eb = min(max(eb, 0), f.emask - 1)
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
               f.minmax(a, b, True, True), f.minmax(a, b, False, True),
               f.minmax(a, b, True, False), f.minmax(a, b, False, False), f.neg(a)]
        cr += [int(x) for x in f.cmp(a, b)]
    write(os.path.join(out, "in.bin"), f.w, ins)
    write(os.path.join(out, "expf.bin"), f.w, fr)
    write(os.path.join(out, "expc.bin"), 8, cr)


# ------------------------------------------------------------------------------------ casts

def sx(v, w):
    v &= (1 << w) - 1
    return v - (1 << w) if v >> (w - 1) else v


def zx(v, w):
    return v & ((1 << w) - 1)


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
        lambda v: bf16.convert_to(zx(v, 16), f32),            # bitcast i16 -> bf16, extf -> f32
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
        r.append(lambda v, w=w: f.to_int(v, w, True))         # fptosi -> iW
    for w in (8, 16, 32, 64):
        r.append(lambda v, w=w: f.to_int(v, w, False))        # fptoui -> iW
    for d in ("f16", "bf16", "f32", "f64"):
        if d != f.name and not ({d, f.name} == {"f16", "bf16"}):
            r.append(lambda v, d=d: f.convert_to(v, FM[d]))  # extf / truncf -> d (order f16 bf16 f32 f64)
    r.append(lambda v: v)                                     # bitcast -> iW
    if bitcast_to:
        r.append(lambda v: FM[bitcast_to].convert_to(v, f32))   # bitcast -> other 16-bit float, extf -> f32
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
    S, V = f.sign, f.from_value
    top = f.p - 1
    ulp = Fraction(1, 1 << top)
    v = [0, S, f.mind, S | f.mind, f.maxd, f.minn, S | f.minn, f.maxf, S | f.maxf, f.inf, S | f.inf,
         f.qnan, S | f.qnan, f.qnan | 0x15, f.inf | 1, S | f.inf | 3,
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
            w = FM[k].w
            vals = float_inputs(FM[k])
        if len(vals) > n:
            sys.exit("gen_scalar_float.py: %s has %d inputs, the test allows %d" % (k, len(vals), n))
        vals = vals + [0] * (n - len(vals))
        exp = [c(v) for v in vals for c in CASTS[k]]
        write(os.path.join(out, "in_%s.bin" % k), w, vals)
        write(os.path.join(out, "exp_%s.bin" % k), 64, exp)


# ------------------------------------------------------------------------------------ CLI literals

def literal_bits(f, lit):
    """Bits of a CLI float literal: f32 rounds the exact decimal once; other types round the binary64 value."""
    body = lit.lstrip("+-")
    d = float.fromhex(lit) if body[:2].lower() == "0x" else float(lit)
    if d != d:
        return f.qnan
    if d in (float("inf"), float("-inf")):
        return (f.sign if d < 0 else 0) | f.inf
    neg = d < 0 or (d == 0 and str(d).startswith("-"))
    if f is FM["f32"] and body[:2].lower() != "0x":
        return f.round(neg, Fraction(body))   # f32: the decimal text itself is rounded once
    return f.round(neg, abs(Fraction(d)))      # other types: via binary64 (docs/semantics.md section 4)


def args(out, name, lits):
    f = FM[name]
    write(os.path.join(out, "exp_args_%s.bin" % name), f.w, [literal_bits(f, x) for x in lits])


def main():
    out, mode = sys.argv[1], sys.argv[2]
    if mode == "arith":
        arith(out, sys.argv[3], int(sys.argv[4]))
    elif mode == "args":
        args(out, sys.argv[3], sys.argv[4:])
    elif mode == "casts_int":
        casts(out, ["i8", "i16", "i32", "i64"], [int(x) for x in sys.argv[3:7]])
    elif mode == "casts_float":
        casts(out, ["f16", "bf16", "f32", "f64"], [int(x) for x in sys.argv[3:7]])
    else:
        sys.exit("gen_scalar_float.py: unknown mode " + mode)


if __name__ == "__main__":
    main()
