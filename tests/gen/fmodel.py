"""fmodel.py — the one float model of the test generators (tests/gen/*): every float format the ISA names,
decoded to exact values and encoded with one rounding by any mode, plus exact arithmetic, correctly rounded
functions and the IEEE operations on codes. Python standard library only; it shares no code with ptosim and
is written from the format definitions (resolutions §2.4-2.6, Q26-Q34) and the readings of docs/semantics.md
(§4 scalar, §7.2 numerics, §7.5 conversions), which name src/base/num.h for the points they settle.

Values
  A value is a V: kind 'f' (finite, mag = a Fraction >= 0), 'i' (infinite) or 'n' (NaN); neg is the sign
  bit. fin(x) makes a finite V from a signed number (zero takes the sign given, default +0), inf(neg) an
  infinity, NAN the NaN. v.value() is the signed Fraction of a finite V.

Formats (module constants; FMTS maps the names)
  name    object   bits  layout                    largest finite     inf           NaN (canonical)   zero
  f64     F64       64   IEEE binary64             (2-2^-52)*2^1023   0x7FF0...     0x7FF8000000000000 +-0
  f32     F32       32   IEEE binary32             (2-2^-23)*2^127    0x7F800000    0x7FC00000        +-0
  tf32    TF32      19   s e8 m10 (bias 127)       (2-2^-10)*2^127    0x3FC00       0x3FE00           +-0
  f16     F16       16   IEEE binary16             65504              0x7C00        0x7E00            +-0
  bf16    BF16      16   s e8 m7 (bias 127)        (2-2^-7)*2^127     0x7F80        0x7FC0            +-0
  e5m2    E5M2       8   s e5 m2 (bias 15), IEEE   57344              0x7C          0x7E              +-0
  e4m3    E4M3       8   s e4 m3 (bias 7), "fn"    448 (0x7E)         none          0x7F (and 0xFF)   +-0
  hif8    HIF8       8   tapered (below)           2^15 (0x6E)        0x6F / 0xEF   0x80              0x00 only
  f4e2m1  F4E2M1     4   s e2 m1 (bias 1)          6                  none          none              +-0
  f4e1m2  F4E1M2     4   s e1 m2 (bias 1)          1.75               none          none              +-0
  e8m0    E8M0       8   unsigned 2^(c-127)        2^127 (0xFE)       none          0xFF              none
  tf32 is the cube's f32 with 10 fraction bits: its code is the top 19 bits of the f32 pattern (shift left by
  13 to get the f32 bits). hif8 (R2.4): a 'dot' field (code bits 6..3) selects the exponent width 0-4 and the
  mantissa width 3-1; codes 0x01-0x07 are 2^-22 .. 2^-16; one zero (0x00), NaN 0x80, +-inf 0x6F/0xEF.

Rounding (encode(v, rm, sat)) — one rounding of the exact value, rm one of the vcvt letters
  R nearest, ties to the even code   A nearest, ties away from zero   F toward -inf   C toward +inf
  Z toward zero                      O to odd: an inexact value takes the neighbour whose code is odd
  Ties and O look at the codes: in IEEE-style formats the even significand; in hif8 and e8m0 the code byte.
  Overflow without sat follows IEEE per mode (R, A -> inf; Z, O -> max; F -> max or -inf; C -> inf or
  -max); a format without inf gives its NaN instead (e4m3, e8m0), one with neither (fp4) +-max.
  sat=True: NaN -> +0 (code 0), +-inf and overflow -> +-max finite, in every format.
  NaN into fp4 gives +0 with or without sat. hif8: -0 and negative values that round to zero give 0x00.
  e8m0: positive values below 2^-127 give 0x00 in every mode; NaN, zeros, negative values and +inf give 0xFF
  without sat; with sat NaN, zeros and negatives give 0x00 and +inf and overflow 0xFE.
  encode's `tail` (-1, 0, +1) says the exact value is v plus that many infinitesimals: a finite stand-in for
  an irrational result (square roots) that still rounds correctly in every mode.

Operations
  exact values: v_add v_sub v_neg v_mul v_div v_fma (one rounding happens in encode), sqrt_tail;
  correctly rounded: f_sqrt f_rsqrt f_exp_of f_ln f_pow (80-digit decimal for exp/ln/pow), round_integral,
  to_int (saturating float -> int); on codes, as methods of every format object: add sub mul div fma
  (canonical NaN results, IEEE special cases, rounding mode rm), maximum/minimum (NaN propagates),
  maxnum/minnum (a NaN operand is ignored), +0 above -0 in all four, cmpf (the 16 MLIR predicates),
  from_int, to_int_code, convert (to another format), from_float/to_float (Python floats).

Host fast paths (for generators whose loops are too slow in Fractions; each is checked against the exact
model by tests/meta/test_fmodel.py)
  host_f32(x): a Python float rounded to the nearest f32 (struct 'f': one correct rounding, ties to even;
  overflow -> inf). A sum, difference, product or quotient of two f32 values computed in binary64 and then
  host_f32-rounded is the correctly rounded f32 result: binary64 has 53 >= 2*24 + 2 bits, so the double
  rounding is innocuous (and a product of two f32 values is exact in binary64).
  F32/F16/F64.from_float use struct for round-to-nearest-even without saturation; F32/BF16/F16/F64.to_float
  use struct (NaN payloads survive a to_float/from_float round trip as the host keeps them).
"""
import decimal
import math
import struct
from fractions import Fraction

decimal.getcontext().prec = 80
decimal.getcontext().Emin = -9999999
decimal.getcontext().Emax = 9999999

RNDS = ("R", "A", "F", "C", "Z", "O")


# ---------------------------------------------------------------- values

class V:
    __slots__ = ("kind", "neg", "mag")

    def __init__(self, kind, neg=False, mag=Fraction(0)):
        self.kind, self.neg, self.mag = kind, bool(neg), Fraction(mag)

    def isnan(self):
        return self.kind == "n"

    def isinf(self):
        return self.kind == "i"

    def iszero(self):
        return self.kind == "f" and self.mag == 0

    def value(self):
        """signed Fraction (finite only)"""
        return -self.mag if self.neg else self.mag

    def __repr__(self):
        return "V(%s,%s,%s)" % (self.kind, "-" if self.neg else "+", self.mag)


NAN = V("n")


def fin(x, neg=None):
    """V from a signed Fraction; zero takes the sign `neg` (default +0)."""
    x = Fraction(x)
    if x == 0:
        return V("f", bool(neg), 0)
    return V("f", x < 0, abs(x))


def inf(neg):
    return V("i", neg)


def of_float(x):
    """V of a Python float (exact; -0.0 keeps its sign)."""
    if x != x:
        return NAN
    if math.isinf(x):
        return inf(x < 0)
    return fin(Fraction(x), math.copysign(1.0, x) < 0)


def key(v):
    """total-order key of a non-NaN V (infinities beyond every finite value of any format)"""
    if v.kind == "i":
        return Fraction(-(2 ** 4000)) if v.neg else Fraction(2 ** 4000)
    return v.value()


# ---------------------------------------------------------------- rounding

def round_up(rm, cls, odd, neg):
    """Does an inexact magnitude round away from zero? cls: where it lies between its two neighbours ("lo",
    "half", "hi"); odd: the lower neighbour's code is odd; neg: the value is negative."""
    if rm == "R":
        return cls == "hi" or (cls == "half" and odd)
    if rm == "A":
        return cls in ("hi", "half")
    if rm == "F":
        return neg
    if rm == "C":
        return not neg
    if rm == "Z":
        return False
    return not odd      # O: to the odd neighbour


def overflows_to_inf(rm, neg, sat):
    """Does a value beyond the largest finite one go to infinity (or the NaN of a format without inf)?"""
    return not sat and (rm in ("R", "A") or (rm == "C" and not neg) or (rm == "F" and neg))


def floor_log2(a):
    """largest e with 2^e <= a, a a positive Fraction"""
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    return e


# ---------------------------------------------------------------- formats

class Format:
    """What every format object offers on top of decode/encode: the IEEE operations on codes."""
    name = bits = cnan = sign = max_code = None
    host = None          # (struct code, shift) when the host packs this format

    def mask(self):
        return (1 << self.bits) - 1

    def is_nan(self, c):
        return self.decode(c).isnan()

    def value(self, c):
        """signed Fraction of a finite code"""
        return self.decode(c).value()

    def max_value(self):
        return self.decode(self.max_code).mag

    # ---- Python floats
    def to_float(self, c):
        """the code's value as a Python float (exact for every format up to f64's range; NaN -> math.nan)"""
        if self.host:
            code, shift = self.host
            w = {"d": "Q", "f": "I", "e": "H"}[code]
            return struct.unpack("<" + code, struct.pack("<" + w, (c << shift) & ((1 << (8 * struct.calcsize(w))) - 1)))[0]
        if self.bits <= 8:                      # small formats: a table of every code's value
            if getattr(self, "_floats", None) is None:
                self._floats = [self._to_float(k) for k in range(1 << self.bits)]
            return self._floats[c]
        return self._to_float(c)

    def _to_float(self, c):
        v = self.decode(c)
        if v.isnan():
            return math.nan
        if v.isinf():
            return -math.inf if v.neg else math.inf
        x = float(v.mag)
        return -x if v.neg else x

    def from_float(self, x, rm="R", sat=False):
        """code of a Python float rounded once"""
        if self.host and self.host[1] == 0 and rm == "R" and not sat and x == x:
            code = self.host[0]
            w = {"d": "Q", "f": "I", "e": "H"}[code]
            try:
                return struct.unpack("<" + w, struct.pack("<" + code, x))[0]
            except OverflowError:
                return self.encode(inf(x < 0))
        return self.encode(of_float(x), rm, sat)

    # ---- integers
    def from_int(self, x, rm="R"):
        return self.encode(fin(x), rm)

    def to_int_code(self, c, bits, signed, rm="Z"):
        """float -> integer of `bits` bits rounded by rm, saturating, NaN -> 0 (the two's-complement pattern)"""
        return to_int(self.decode(c), rm, bits, signed)

    def convert(self, c, dst, rm="R", sat=False):
        """this format's code c rounded once to format dst"""
        return dst.encode(self.decode(c), rm, sat)

    # ---- arithmetic on codes: exact result rounded once, canonical NaN
    def add(self, a, b, rm="R"):
        return self.encode(v_add(self.decode(a), self.decode(b), rm), rm)

    def sub(self, a, b, rm="R"):
        return self.encode(v_sub(self.decode(a), self.decode(b), rm), rm)

    def mul(self, a, b, rm="R"):
        return self.encode(v_mul(self.decode(a), self.decode(b)), rm)

    def div(self, a, b, rm="R"):
        return self.encode(v_div(self.decode(a), self.decode(b)), rm)

    def fma(self, a, b, c, rm="R"):
        """a * b + c, one rounding"""
        return self.encode(v_fma(self.decode(a), self.decode(b), self.decode(c), rm), rm)

    def neg(self, a):
        """IEEE negate: flips the sign bit (NaN payloads kept)"""
        return a ^ self.sign

    def abs(self, a):
        """IEEE abs: clears the sign bit (NaN payloads kept)"""
        return a & ~self.sign & self.mask()

    def _pick(self, a, b, want_max):
        A, B = self.decode(a), self.decode(b)
        ka, kb = key(A), key(B)
        if ka != kb:
            return a if (ka > kb) == want_max else b
        return (b if A.neg else a) if want_max else (a if A.neg else b)     # +0 above -0

    def maximum(self, a, b):
        """IEEE maximum: a NaN operand gives the canonical NaN; +0 > -0; else the larger operand's code"""
        if self.is_nan(a) or self.is_nan(b):
            return self.cnan
        return self._pick(a, b, True)

    def minimum(self, a, b):
        if self.is_nan(a) or self.is_nan(b):
            return self.cnan
        return self._pick(a, b, False)

    def maxnum(self, a, b):
        """IEEE maxNum: one NaN operand is ignored (the other operand's code), two give the canonical NaN"""
        an, bn = self.is_nan(a), self.is_nan(b)
        if an and bn:
            return self.cnan
        if an or bn:
            return b if an else a
        return self._pick(a, b, True)

    def minnum(self, a, b):
        an, bn = self.is_nan(a), self.is_nan(b)
        if an and bn:
            return self.cnan
        if an or bn:
            return b if an else a
        return self._pick(a, b, False)

    def cmpf(self, a, b, pred):
        """MLIR arith.cmpf predicate (CMPF_PREDICATES) on two codes; -0 == +0"""
        A, B = self.decode(a), self.decode(b)
        un = A.isnan() or B.isnan()
        if un:
            eq = lt = gt = False
        else:
            ka, kb = key(A), key(B)
            eq, lt, gt = ka == kb, ka < kb, ka > kb
        o = not un
        return {"false": False, "oeq": o and eq, "ogt": o and gt, "oge": o and (gt or eq), "olt": o and lt,
                "ole": o and (lt or eq), "one": o and not eq, "ord": o, "ueq": un or eq, "ugt": un or gt,
                "uge": un or gt or eq, "ult": un or lt, "ule": un or lt or eq, "une": un or not eq, "uno": un,
                "true": True}[pred]


CMPF_PREDICATES = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
                   "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true")


class Binary(Format):
    """Binary float format with a sign bit, `eb` exponent bits and `mb` fraction bits.
    has_inf: the all-ones exponent with a zero fraction is inf (IEEE); nan_kind: 'ieee' (all-ones exponent,
    non-zero fraction), 'allones' (only the all-ones magnitude, e4m3fn) or None (no NaN: fp4); cnan: the
    canonical NaN code; max_code: the largest finite magnitude code (derived unless given); bias: the
    exponent bias (default 2^(eb-1) - 1)."""

    def __init__(self, name, bits, eb, mb, has_inf, nan_kind, cnan, max_code=None, bias=None, host=None):
        self.name, self.bits, self.eb, self.mb = name, bits, eb, mb
        self.has_inf = has_inf
        self.nan_kind = nan_kind          # 'ieee', 'allones' (e4m3fn: 0x7F) or None
        self.cnan = cnan                  # canonical NaN code (None: no NaN)
        self.bias = (1 << (eb - 1)) - 1 if bias is None else bias
        self.emin = 1 - self.bias
        self.sign = 1 << (bits - 1)
        if max_code is None:
            max_code = (((1 << eb) - 2) << mb) | ((1 << mb) - 1) if has_inf else (1 << (bits - 1)) - 1
        self.max_code = max_code
        self.emax = (max_code >> mb) - self.bias
        self.inf_code = ((1 << eb) - 1) << mb if has_inf else None
        self.min_normal = 1 << mb         # code of the smallest normal value (1 is the smallest subnormal)
        self.host = host

    def decode(self, c):
        neg = bool(c & self.sign)
        mag = c & (self.sign - 1)
        if mag > self.max_code:
            if self.has_inf and mag == self.inf_code:
                return V("i", neg)
            if self.cnan is not None:
                return V("n", neg)
        e = mag >> self.mb
        m = mag & ((1 << self.mb) - 1)
        if e == 0:
            return V("f", neg, Fraction(m, 1 << self.mb) * Fraction(2) ** self.emin)
        return V("f", neg, Fraction((1 << self.mb) + m, 1 << self.mb) * Fraction(2) ** (e - self.bias))

    def encode(self, v, rm="R", sat=False, tail=0):
        """Code of v rounded once by mode rm. tail (-1, 0, 1): the exact value is v plus (tail x) an
        infinitesimal; lets a finite stand-in represent an irrational result."""
        if v.kind == "n":
            return 0 if (sat or self.cnan is None) else self.cnan
        if v.kind == "i":
            if sat or not self.has_inf:
                if not sat and self.cnan is not None:
                    return self.cnan
                return (self.sign if v.neg else 0) | self.max_code
            return (self.sign if v.neg else 0) | self.inf_code
        sgn = self.sign if v.neg else 0
        a = v.mag
        if a == 0 and tail == 0:
            return sgn
        if a == 0:
            # infinitesimal magnitude: between 0 and the smallest subnormal
            n, cls = 0, "lo"
            q = Fraction(2) ** (self.emin - self.mb)
            e = self.emin
        else:
            e = max(floor_log2(a), self.emin)
            q = Fraction(2) ** (e - self.mb)
            n = a // q
            r = a - n * q
            t = tail                      # tail is in magnitude direction for the caller
            half = q / 2
            if r == 0 and t == 0:
                cls = "exact"
            elif r == 0 and t > 0:
                cls = "lo"
            elif r == 0 and t < 0:
                n -= 1
                cls = "hi"
            elif r < half or (r == half and t < 0):
                cls = "lo"
            elif r > half or (r == half and t > 0):
                cls = "hi"
            else:
                cls = "half"
        up = cls != "exact" and round_up(rm, cls, n % 2 == 1, v.neg)
        m = n + (1 if up else 0)
        code = ((e - self.emin) << self.mb) + m if m else 0
        if code > self.max_code:
            to_inf = overflows_to_inf(rm, v.neg, sat)
            if to_inf and self.has_inf:
                return sgn | self.inf_code
            if to_inf and self.cnan is not None:
                return self.cnan
            return sgn | self.max_code
        return sgn | code


F64 = Binary("f64", 64, 11, 52, True, "ieee", 0x7FF8000000000000, host=("d", 0))
F32 = Binary("f32", 32, 8, 23, True, "ieee", 0x7FC00000, host=("f", 0))
TF32 = Binary("tf32", 19, 8, 10, True, "ieee", 0x3FE00)
F16 = Binary("f16", 16, 5, 10, True, "ieee", 0x7E00, host=("e", 0))
BF16 = Binary("bf16", 16, 8, 7, True, "ieee", 0x7FC0, host=("f", 16))
E5M2 = Binary("e5m2", 8, 5, 2, True, "ieee", 0x7E)
E4M3 = Binary("e4m3", 8, 4, 3, False, "allones", 0x7F, max_code=0x7E)
F4E2M1 = Binary("f4e2m1", 4, 2, 1, False, None, None, max_code=0x7)
# E1M2 magnitudes {0, .25, ..., 1.75} (resolutions 2.4): exponent bias 1
F4E1M2 = Binary("f4e1m2", 4, 1, 2, False, None, None, max_code=0x7, bias=1)


class Hif8(Format):
    """hif8 (resolutions 2.4): decoded by its definition, encoded by searching the sorted table of
    every code's value. Single zero 0x00, NaN 0x80, +-inf 0x6F/0xEF."""
    name, bits, cnan, sign, max_code = "hif8", 8, 0x80, 0x80, 0x6E

    def __init__(self):
        vals = []
        for c in range(0x80):
            v = self.decode(c)
            if v.kind == "f":
                vals.append((v.mag, c))
        vals.sort()
        self.table = vals
        # the value the code after the largest finite one would have: 1.5 * 2^15
        self.beyond = Fraction(3 * 2 ** 14)

    def decode(self, c):
        neg = bool(c & 0x80)
        mag = c & 0x7F
        if mag == 0:
            return NAN if neg else V("f", False, 0)
        if mag == 0x6F:
            return V("i", neg)
        dot = mag >> 3
        if dot == 0:
            return V("f", neg, Fraction(2) ** ((mag & 7) - 23))
        if dot >= 12:
            ew, mw = 4, 1
        elif dot >= 8:
            ew, mw = 3, 2
        elif dot >= 4:
            ew, mw = 2, 3
        elif dot >= 2:
            ew, mw = 1, 3
        else:
            ew, mw = 0, 3
        m = mag & ((1 << mw) - 1)
        e = 0
        if ew:
            field = (mag >> mw) & ((1 << ew) - 1)
            top = 1 << (ew - 1)
            e = -(field | top) if field & top else (field | top)
        return V("f", neg, Fraction((1 << mw) + m, 1 << mw) * Fraction(2) ** e)

    def encode(self, v, rm="R", sat=False, tail=0):
        if v.kind == "n":
            return 0 if sat else 0x80
        if v.kind == "i":
            return (0x80 if v.neg else 0) | (0x6E if sat else 0x6F)
        a = v.mag
        sg = 0x80 if v.neg else 0
        t = self.table
        lo = max(i for i in range(len(t)) if t[i][0] <= a) if a >= t[0][0] else 0
        if t[lo][0] == a and tail == 0:
            code = t[lo][1]
            return sg | code if code else 0
        if t[lo][0] == a and tail < 0:
            lo -= 1
            cls = "hi"
        elif t[lo][0] == a:
            cls = "lo"
        else:
            hiv = t[lo + 1][0] if lo + 1 < len(t) else self.beyond
            mid = (t[lo][0] + hiv) / 2
            cls = "lo" if a < mid or (a == mid and tail < 0) else "hi" if a > mid or (a == mid and tail > 0) else "half"
        lcode = t[lo][1]
        up = round_up(rm, cls, lcode % 2 == 1, v.neg)
        if up and lo + 1 >= len(t):
            to_inf = overflows_to_inf(rm, v.neg, sat)
            return sg | (0x6F if to_inf else 0x6E)
        code = t[lo + 1][1] if up else lcode
        return (sg | code) if code else 0


class E8M0(Format):
    """e8m0 (the MX scale byte, resolutions Q40): unsigned, code c in 0..0xFE is 2^(c-127), 0xFF is NaN;
    no zero, no sign, no inf. Rounding between 2^e and 2^(e+1) is on the values (the midpoint is 1.5 * 2^e);
    ties and O look at the code byte. Out-of-range rules in the module docstring."""
    name, bits, cnan, sign, max_code = "e8m0", 8, 0xFF, 0, 0xFE

    def decode(self, c):
        if c == 0xFF:
            return NAN
        return V("f", False, Fraction(2) ** (c - 127))

    def neg(self, a):
        raise ValueError("e8m0 has no sign")

    def abs(self, a):
        return a

    def encode(self, v, rm="R", sat=False, tail=0):
        if v.kind == "n" or v.neg or (v.kind == "f" and v.mag == 0 and tail <= 0):
            return 0x00 if sat else 0xFF
        if v.kind == "i":
            return 0xFE if sat else 0xFF
        a = v.mag
        if a < Fraction(2) ** -127 or (a == Fraction(2) ** -127 and tail < 0):
            return 0x00
        e = floor_log2(a)
        lo = Fraction(2) ** e
        if a == lo and tail == 0:
            cls = "exact"
        elif a == lo and tail < 0:
            e -= 1
            cls = "hi"
        elif a == lo:
            cls = "lo"
        else:
            mid = lo * Fraction(3, 2)
            cls = "lo" if a < mid or (a == mid and tail < 0) else "hi" if a > mid or (a == mid and tail > 0) else "half"
        code = e + 127
        if cls != "exact" and round_up(rm, cls, code % 2 == 1, False):
            code += 1
        if code > 0xFE:
            return 0xFF if overflows_to_inf(rm, False, sat) else 0xFE
        return code


HIF8 = Hif8()
E8M0 = E8M0()

FMTS = {"f64": F64, "f32": F32, "tf32": TF32, "f16": F16, "bf16": BF16, "e5m2": E5M2, "e4m3": E4M3,
        "hif8": HIF8, "f4e2m1": F4E2M1, "f4e1m2": F4E1M2, "e8m0": E8M0}


# ---------------------------------------------------------------- exact arithmetic on V

def v_add(a, b, rm="R"):
    """a + b exactly; an exact zero sum is +0 (-0 when both addends are -0, or under rm F)"""
    if a.isnan() or b.isnan():
        return NAN
    if a.isinf() and b.isinf():
        return NAN if a.neg != b.neg else a
    if a.isinf():
        return a
    if b.isinf():
        return b
    s = a.value() + b.value()
    if s == 0:
        if a.iszero() and b.iszero() and a.neg == b.neg:
            return fin(0, a.neg)
        return fin(0, rm == "F")
    return fin(s)


def v_neg(a):
    return V(a.kind, not a.neg, a.mag)


def v_sub(a, b, rm="R"):
    return v_add(a, v_neg(b), rm)


def v_mul(a, b):
    if a.isnan() or b.isnan():
        return NAN
    neg = a.neg != b.neg
    if a.isinf() or b.isinf():
        if a.iszero() or b.iszero():
            return NAN
        return inf(neg)
    return V("f", neg, a.mag * b.mag)


def v_div(a, b):
    if a.isnan() or b.isnan():
        return NAN
    neg = a.neg != b.neg
    if a.isinf():
        return NAN if b.isinf() else inf(neg)
    if b.isinf():
        return V("f", neg, 0)
    if b.iszero():
        return NAN if a.iszero() else inf(neg)
    return V("f", neg, a.mag / b.mag)


def v_fma(a, b, c, rm="R"):
    """a*b + c exactly (one rounding happens in encode)."""
    return v_add(v_mul(a, b), c, rm)


def sqrt_tail(x):
    """(Fraction r, tail) with sqrt(x) = r + tail*tiny, x > 0 a Fraction."""
    k = 200
    n, d = x.numerator, x.denominator
    num = n * (1 << (2 * k))
    s = math.isqrt(num // d)
    # s = floor(sqrt(n*4^k/d)) ; exact iff s*s*d == n*4^k
    exact = s * s * d == num
    return Fraction(s, 1 << k), 0 if exact else 1


def rnd(fmt, v, tail=0):
    """round v (exact) to fmt, nearest-even"""
    return fmt.encode(v, "R", False, tail)


# ---------------------------------------------------------------- correctly rounded functions (R)

def f_sqrt(fmt, a):
    if a.isnan():
        return fmt.cnan
    if a.iszero():
        return fmt.encode(a)
    if a.neg:
        return fmt.cnan
    if a.isinf():
        return fmt.encode(a)
    r, t = sqrt_tail(a.mag)
    return fmt.encode(V("f", False, r), "R", False, t)


def f_rsqrt(fmt, a):
    if a.isnan():
        return fmt.cnan
    if a.iszero():
        return fmt.encode(inf(a.neg))
    if a.neg:
        return fmt.cnan
    if a.isinf():
        return fmt.encode(V("f", False, 0))
    r, t = sqrt_tail(1 / a.mag)
    return fmt.encode(V("f", False, r), "R", False, t)


def dec(x):
    """a Fraction as an 80-digit Decimal"""
    return decimal.Decimal(x.numerator) / decimal.Decimal(x.denominator)


def f_exp_of(fmt, x):
    """exp of the exact value x (V), rounded once to fmt"""
    if x.isnan():
        return fmt.cnan
    if x.isinf():
        return fmt.encode(V("f", False, 0) if x.neg else inf(False))
    v = x.value()
    if v == 0:
        return fmt.encode(fin(1))
    if v > 1000:
        return fmt.encode(inf(False))
    if v < -2000:
        return fmt.encode(V("f", False, 0), "R", False, 1)
    return fmt.encode(V("f", False, Fraction(dec(v).exp())))


def f_ln(fmt, a):
    if a.isnan() or (a.neg and not a.iszero()):
        return fmt.cnan
    if a.iszero():
        return fmt.encode(inf(True))
    if a.isinf():
        return fmt.encode(a)
    if a.mag == 1:
        return fmt.encode(fin(0))
    return fmt.encode(fin(Fraction(dec(a.mag).ln())))


def is_odd_int(x):
    return x.denominator == 1 and x.numerator % 2 == 1


def f_pow(fmt, a, b):
    """pow of two codes: the IEEE 754 pow special cases, else exp(b ln|a|) at 80 digits, rounded once."""
    x, y = fmt.decode(a), fmt.decode(b)
    one = fmt.encode(fin(1))
    if y.iszero() or (x.kind == "f" and x.value() == 1):
        return one
    if x.isnan() or y.isnan():
        return fmt.cnan
    if x.iszero():
        odd = y.kind == "f" and is_odd_int(y.value())
        if y.neg:
            return fmt.encode(inf(x.neg and odd))
        return fmt.encode(V("f", x.neg and odd, 0))
    if y.isinf():
        ax = x.mag if x.kind == "f" else None
        if ax == 1:
            return one
        big = x.isinf() or ax > 1
        return fmt.encode(inf(False)) if big != y.neg else fmt.encode(fin(0))
    if x.isinf():
        odd = is_odd_int(y.value())
        neg = x.neg and odd
        return fmt.encode(V("f", neg, 0)) if y.neg else fmt.encode(inf(neg))
    yv = y.value()
    if x.neg and yv.denominator != 1:
        return fmt.cnan
    e = dec(yv) * dec(x.mag).ln()
    if e > 2000:
        r = fmt.encode(inf(False))
    elif e < -2000:
        r = fmt.encode(fin(0))
    else:
        r = fmt.encode(fin(Fraction(e.exp())))
    return r | fmt.sign if x.neg and is_odd_int(yv) else r


def round_integral(a, rm):
    """vtrc on a value: integral value by mode; zero keeps the sign; inf/NaN unchanged (None)."""
    if a.kind != "f":
        return None
    x = a.value()
    fl = math.floor(x)
    frac = x - fl
    if frac == 0:
        return a
    if rm == "R":
        r = fl if frac < Fraction(1, 2) else fl + 1 if frac > Fraction(1, 2) else (fl if fl % 2 == 0 else fl + 1)
    elif rm == "A":
        r = fl if frac < Fraction(1, 2) else fl + 1 if frac > Fraction(1, 2) else (fl if x < 0 else fl + 1)
    elif rm == "F":
        r = fl
    elif rm == "C":
        r = fl + 1
    elif rm == "Z":
        r = fl + 1 if x < 0 else fl
    else:  # O: the odd neighbour
        r = fl if fl % 2 else fl + 1
    return fin(r, a.neg)


def to_int(a, rm, bits, signed):
    """float -> integer, saturating; NaN -> 0"""
    lo = -(1 << (bits - 1)) if signed else 0
    hi = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
    if a.isnan():
        return 0
    if a.isinf():
        v = lo if a.neg else hi
    else:
        r = round_integral(a, rm).value()
        v = min(max(int(r), lo), hi)
    return v & ((1 << bits) - 1)


def to_int_wrap(a, rm, bits, signed):
    """float -> integer without saturation: the rounded integer's low bits; NaN and +-inf -> 0
    (docs/semantics.md §7.5)"""
    if a.isnan() or a.isinf():
        return 0
    return int(round_integral(a, rm).value()) & ((1 << bits) - 1)


# ---------------------------------------------------------------- host fast paths

def host_f32(x):
    """a Python float rounded to the nearest f32 value (ties to even), as a Python float; NaN and inf pass"""
    if x != x or math.isinf(x):
        return x
    try:
        return struct.unpack('<f', struct.pack('<f', x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def host_f32_bits(x):
    """f32 code of a Python float that is an f32 value (NaN -> 0x7FC00000)"""
    if x != x:
        return 0x7FC00000
    return struct.unpack('<I', struct.pack('<f', x))[0]
