"""gen_valu_ref.py — reference numerics for the vector compute tests, written from the spec
(resolutions.md Q26-Q34, Q48, Q49, section 2.4-2.6; isa-notes 3.2.2-3.2.10) with Python's exact
rationals. It shares no code with ptosim: values are decoded into (class, sign, Fraction) triples and
every result is rounded once from its exact value; transcendental functions are evaluated with the
decimal module at 80 digits; square roots with integer square roots.

Float values are V objects: kind 'f' (finite, mag = Fraction >= 0), 'i' (inf) or 'n' (NaN); neg is the
sign bit. Rounding modes are the vcvt letters R A F C Z O.
"""
import decimal
import math
from fractions import Fraction

decimal.getcontext().prec = 80
decimal.getcontext().Emin = -9999999
decimal.getcontext().Emax = 9999999


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


# ---------------------------------------------------------------- formats

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


class Fmt:
    """Binary float format with a sign bit, `eb` exponent bits and `mb` fraction bits."""

    def __init__(self, name, bits, eb, mb, has_inf, nan_kind, cnan, max_code=None, bias=None):
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
        self.inf_code = ((1 << eb) - 1) << mb if has_inf else None

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

    def max_value(self):
        return self.decode(self.max_code).mag

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
            e = a.numerator.bit_length() - a.denominator.bit_length()
            if Fraction(2) ** e > a:
                e -= 1
            e = max(e, self.emin)
            q = Fraction(2) ** (e - self.mb)
            n = a // q
            r = a - n * q
            t = tail if not v.neg else tail   # tail is in magnitude direction for the caller
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
            to_inf = not sat and (rm in ("R", "A") or (rm == "C" and not v.neg) or (rm == "F" and v.neg))
            if to_inf and self.has_inf:
                return sgn | self.inf_code
            if to_inf and self.cnan is not None:
                return self.cnan
            return sgn | self.max_code
        return sgn | code


F32 = Fmt("f32", 32, 8, 23, True, "ieee", 0x7FC00000)
F16 = Fmt("f16", 16, 5, 10, True, "ieee", 0x7E00)
BF16 = Fmt("bf16", 16, 8, 7, True, "ieee", 0x7FC0)
E5M2 = Fmt("e5m2", 8, 5, 2, True, "ieee", 0x7E)
E4M3 = Fmt("e4m3", 8, 4, 3, False, "allones", 0x7F, max_code=0x7E)
F4E2M1 = Fmt("f4e2m1", 4, 2, 1, False, None, None, max_code=0x7)
# E1M2 magnitudes {0, .25, ..., 1.75} (resolutions 2.4): exponent bias 1
F4E1M2 = Fmt("f4e1m2", 4, 1, 2, False, None, None, max_code=0x7, bias=1)


class Hif8:
    """hif8 (resolutions 2.4): decoded by its definition, encoded by searching the sorted table of
    every code's value. Single zero 0x00, NaN 0x80, +-inf 0x6F/0xEF."""
    name, bits, cnan = "hif8", 8, 0x80

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
            to_inf = not sat and (rm in ("R", "A") or (rm == "C" and not v.neg) or (rm == "F" and v.neg))
            return sg | (0x6F if to_inf else 0x6E)
        code = t[lo + 1][1] if up else lcode
        return (sg | code) if code else 0


HIF8 = Hif8()

FMTS = {"f32": F32, "f16": F16, "bf16": BF16, "e5m2": E5M2, "e4m3": E4M3, "hif8": HIF8,
        "f4e2m1": F4E2M1, "f4e1m2": F4E1M2}


# ---------------------------------------------------------------- exact arithmetic on V

def v_add(a, b):
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
        return fin(0, a.neg and b.neg if (a.iszero() and b.iszero()) else False)
    return fin(s)


def v_neg(a):
    return V(a.kind, not a.neg, a.mag)


def v_sub(a, b):
    return v_add(a, v_neg(b))


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


def v_fma(a, b, c):
    """a*b + c exactly (one rounding happens in encode)."""
    return v_add(v_mul(a, b), c)


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


# ---------------------------------------------------------------- integers

def sext(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v
