#!/usr/bin/env python3
"""gen_dma_atomic.py OUTDIR CASE — inputs and independently computed expected outputs for the DMA tests of
the atomic stores (set_atomic_*), the legacy padding value (set_mov_pad_val) and pto.mte_ub_l1.

The reference model is plain Python written from docs/semantics.md §3, resolutions §2.6, Q11, Q14, Q15
and seed 004; it shares no code with ptosim and never uses its output.

Atomic stores (an MTE3 store into GM while both an element type and an operation are set), element-wise
with a = the GM value already there, b = the stored UB value:
  * s32/s16/s8: add wraps modulo 2^w; max/min compare signed.
  * f32/f16/bf16: add is the exact sum of the two values rounded once to the format, nearest-even,
    subnormals kept, overflow to inf; an exact zero sum is +0 unless both addends are -0; inf + -inf and
    any NaN operand give the canonical NaN (f32 0x7FC00000, f16 0x7E00, bf16 0x7FC0, semantics §4).
    max/min: any NaN operand gives the canonical NaN; otherwise by value, with +0 > -0 (max(+0, -0) = +0,
    min(+0, -0) = -0 whatever the order, as the scalar maximumf and vmax/vmin readings, semantics §4/§7).
Exact values are fractions.Fraction; rounding is done on integers (RNE). For f16 the result is also
computed through struct 'e' (the sum of two f16 values is exact in a Python float, and packing rounds
once to nearest even) and the two must agree.
"""
import os, random, struct, sys
from fractions import Fraction

out, case = sys.argv[1], sys.argv[2]


def save(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(bytes(data))


def pattern(n, seed=1):
    """deterministic pseudo-random bytes (same generator as gen_dma.py)"""
    x = seed * 2654435761 & 0xffffffff
    b = bytearray(n)
    for i in range(n):
        x = (x * 1103515245 + 12345) & 0x7fffffff
        b[i] = (x >> 16) & 0xff
    return b


# ---------------------------------------------------------------- float formats

class Fmt:
    def __init__(self, name, ebits, mbits, nan):
        self.name, self.ebits, self.mbits, self.nan = name, ebits, mbits, nan
        self.width = 1 + ebits + mbits
        self.bytes = self.width // 8
        self.bias = (1 << (ebits - 1)) - 1
        self.emin = 1 - self.bias
        self.emax = self.bias
        self.inf = ((1 << ebits) - 1) << mbits
        self.sign = 1 << (self.width - 1)
        self.maxfin = self.inf - 1


F32 = Fmt("f32", 8, 23, 0x7FC00000)
F16 = Fmt("f16", 5, 10, 0x7E00)
BF16 = Fmt("bf16", 8, 7, 0x7FC0)


def decode(f, b):
    """('nan',) | ('inf', neg) | ('fin', neg, Fraction magnitude)"""
    neg = bool(b & f.sign)
    e = (b >> f.mbits) & ((1 << f.ebits) - 1)
    m = b & ((1 << f.mbits) - 1)
    if e == (1 << f.ebits) - 1:
        return ("nan",) if m else ("inf", neg)
    if e == 0:
        v = Fraction(m) * Fraction(2) ** (f.emin - f.mbits)
    else:
        v = Fraction((1 << f.mbits) | m) * Fraction(2) ** (e - f.bias - f.mbits)
    return ("fin", neg, v)


def value(f, b):
    """signed Fraction of a finite pattern"""
    d = decode(f, b)
    assert d[0] == "fin"
    return -d[2] if d[1] else d[2]


def floor_log2(v):
    """largest E with 2^E <= v, v a positive Fraction"""
    e = v.numerator.bit_length() - v.denominator.bit_length()
    while Fraction(2) ** e > v:
        e -= 1
    while Fraction(2) ** (e + 1) <= v:
        e += 1
    return e


def encode(f, v):
    """signed Fraction (non-zero) -> bits, one rounding to nearest even, overflow to inf"""
    neg = v < 0
    v = -v if neg else v
    s = f.sign if neg else 0
    e = max(floor_log2(v), f.emin)
    q = v / Fraction(2) ** (e - f.mbits)          # significand in units of the last place
    n = q.numerator // q.denominator
    r = q - n
    if r > Fraction(1, 2) or (r == Fraction(1, 2) and n % 2 == 1):
        n += 1
    if n == 1 << (f.mbits + 1):
        n >>= 1
        e += 1
    if e > f.emax:
        return s | f.inf
    if n < (1 << f.mbits):                         # subnormal (e == emin) or zero after rounding
        return s | n
    return s | ((e + f.bias) << f.mbits) | (n - (1 << f.mbits))


def f16_struct_add(a, b):
    """f16 add through struct 'e': the Python float sum of two f16 values is exact"""
    s = struct.unpack("<e", struct.pack("<H", a))[0] + struct.unpack("<e", struct.pack("<H", b))[0]
    try:
        return struct.unpack("<H", struct.pack("<e", s))[0]
    except OverflowError:
        return 0xFC00 if s < 0 else 0x7C00


def fadd(f, a, b):
    x, y = decode(f, a), decode(f, b)
    if x[0] == "nan" or y[0] == "nan":
        return f.nan
    if x[0] == "inf" and y[0] == "inf":
        return f.nan if x[1] != y[1] else a
    if x[0] == "inf":
        return a
    if y[0] == "inf":
        return b
    s = value(f, a) + value(f, b)
    if s == 0:
        r = f.sign if (x[2] == 0 and y[2] == 0 and x[1] and y[1]) else 0
    else:
        r = encode(f, s)
    if f is F16:
        sr = f16_struct_add(a, b)
        assert sr == r, "f16 struct/Fraction mismatch %04x %04x: %04x vs %04x" % (a, b, sr, r)
    return r


def fmaxmin(f, a, b, is_max):
    x, y = decode(f, a), decode(f, b)
    if x[0] == "nan" or y[0] == "nan":
        return f.nan

    def key(d, bits):
        if d[0] == "inf":
            return Fraction(-1 if d[1] else 1) * Fraction(10) ** 60
        return value(f, bits)
    ka, kb = key(x, a), key(y, b)
    if ka == kb:
        if ka == 0:                                # +0 > -0
            if is_max:
                return 0 if (a == 0 or b == 0) else f.sign
            return f.sign if (a == f.sign or b == f.sign) else 0
        return a
    return a if (ka > kb) == is_max else b


def fop(f, op, a, b):
    return fadd(f, a, b) if op == "add" else fmaxmin(f, a, b, op == "max")


# ---------------------------------------------------------------- integer formats

class IFmt:
    def __init__(self, name, bits):
        self.name, self.width, self.bytes = name, bits, bits // 8
        self.mask = (1 << bits) - 1
        self.min, self.max = -(1 << (bits - 1)), (1 << (bits - 1)) - 1


S32, S16, S8 = IFmt("s32", 32), IFmt("s16", 16), IFmt("s8", 8)


def sval(f, b):
    b &= f.mask
    return b - (1 << f.width) if b >> (f.width - 1) else b


def iop(f, op, a, b):
    if op == "add":
        return (a + b) & f.mask
    va, vb = sval(f, a), sval(f, b)
    return (max(va, vb) if op == "max" else min(va, vb)) & f.mask


def op_of(f, op, a, b):
    return iop(f, op, a, b) if isinstance(f, IFmt) else fop(f, op, a, b)


def pack(f, vals):
    code = {1: "B", 2: "H", 4: "I"}[f.bytes]
    return b"".join(struct.pack("<" + code, v) for v in vals)


# ---------------------------------------------------------------- edge pairs (a = GM, b = UB)

def fbits(f, v):
    """bits of a Python number exactly representable in f (or +-inf)"""
    if v == float("inf"):
        return f.inf
    if v == float("-inf"):
        return f.sign | f.inf
    if v == 0:
        return f.sign if str(v).startswith("-") else 0
    b = encode(f, Fraction(v))
    assert value(f, b) == Fraction(v), (f.name, v)
    return b


def float_edges(f):
    P, N, INF, NINF = 0, f.sign, f.inf, f.sign | f.inf
    ulp = Fraction(1, 1 << f.mbits)
    half = ulp / 2
    one = fbits(f, 1)
    one_ulp = fbits(f, 1 + ulp)
    hb = fbits(f, half)
    sub, norm = 1, 1 << f.mbits
    top = Fraction(2) ** (f.emax - f.mbits)         # ulp at the largest binade
    qnan_neg = f.sign | f.nan                        # negative quiet NaN
    snan = f.inf | 1                                 # signalling-style payload
    e = [
        (P, N), (N, P), (N, N), (P, P),              # signed zeros
        (INF, NINF), (NINF, INF), (INF, one), (one, NINF), (INF, INF), (NINF, NINF),
        (f.nan, one), (one, f.nan), (qnan_neg, fbits(f, -3)), (fbits(f, 2), snan), (f.nan, f.nan), (snan, INF),
        (f.maxfin, f.maxfin), (f.sign | f.maxfin, f.sign | f.maxfin),
        (f.maxfin, fbits(f, top / 2)),               # tie at the top: rounds to even = overflow to inf
        (f.maxfin, fbits(f, top / 4)),               # below the tie: stays max
        (one, hb), (one_ulp, hb), (f.sign | one, f.sign | hb),   # ties to even
        (one, fbits(f, half * (1 + ulp))),           # just above the tie: the exact sum rounds up
        (one, f.sign | hb),                          # 1 - 2^-(m+1): exact
        (one, f.sign | fbits(f, half / 2)),          # tie between 1-2^-(m+1) and 1: even = 1
        (fbits(f, 3), fbits(f, -3)), (fbits(f, -3), fbits(f, 3)),   # exact cancellation: +0
        (sub, sub), (norm, f.sign | sub), (sub, f.sign | sub), (f.sign | sub, f.sign | sub),
        (one, sub), (sub, P), (f.sign | sub, N), (N, f.sign | sub),
        (fbits(f, -1), fbits(f, -2)), (fbits(f, -2), fbits(f, -1)), (fbits(f, 1.5), fbits(f, 2.5)),
        (fbits(f, -7.25), fbits(f, 3)), (fbits(f, 5), fbits(f, 5)), (fbits(f, -0.75), fbits(f, 0.75)),
    ]
    return e


def int_edges(f):
    m = f.mask
    MIN, MAX = f.min & m, f.max
    return [(MAX, 1), (MIN, m), (MIN, MIN), (MAX, MAX), (m, 1), (1, m), (m, 0), (0, m), (MIN, MAX), (MAX, MIN),
            (m, m), (0, 0), (MAX, m), (MIN, 1), (5 & m, (-7) & m), ((-5) & m, (-7) & m)]


def rand_float(f, rng):
    """mostly finite values with nearby exponents (so additions round), some raw bit patterns"""
    k = rng.randrange(8)
    if k == 0:
        return rng.randrange(1 << f.width)
    if k == 1:
        return rng.randrange(1 << f.mbits) | (f.sign if rng.randrange(2) else 0)     # subnormal
    e = f.bias + rng.randrange(-3, 4)
    return (f.sign if rng.randrange(2) else 0) | (e << f.mbits) | rng.randrange(1 << f.mbits)


def pairs_for(f, count, rng):
    p = list(float_edges(f) if isinstance(f, Fmt) else int_edges(f))
    assert len(p) <= count
    while len(p) < count:
        if isinstance(f, Fmt):
            p.append((rand_float(f, rng), rand_float(f, rng)))
        else:
            p.append((rng.randrange(1 << f.width), rng.randrange(1 << f.width)))
    return p


def twice_pairs(f, count, rng):
    """region added twice: (a + b) + b, two roundings"""
    if isinstance(f, Fmt):
        ulp = Fraction(1, 1 << f.mbits)
        hb = fbits(f, ulp / 2)
        p = [(fbits(f, 1), hb),                     # 1 + h = 1 (tie, even), again 1: the GM value never moves
             (fbits(f, 1 + ulp), hb),               # 1+u + h = 1+2u (tie, even), + h = 1+2u (tie, even)
             (f.maxfin, fbits(f, Fraction(2) ** (f.emax - f.mbits) / 4)),   # max, max (below the tie twice)
             (fbits(f, -1), fbits(f, 0.5)),         # -1 + .5 + .5 = +0
             (f.sign, f.sign), (0, f.sign), (f.inf, f.sign | f.inf), (f.nan, 0)]
    else:
        p = [(f.max, 1), (f.min & f.mask, f.mask), (0, f.max), (f.mask, f.min & f.mask)]
    while len(p) < count:
        if isinstance(f, Fmt):
            p.append((rand_float(f, rng), rand_float(f, rng)))
        else:
            p.append((rng.randrange(1 << f.width), rng.randrange(1 << f.width)))
    return p


# ---------------------------------------------------------------- cases

REGION = 256
TYPES = {"s32": S32, "s16": S16, "s8": S8, "f32": F32, "f16": F16, "bf16": BF16}


def case_atomic_type(name):
    """five 256-byte regions stored from UB into GM: 0 add, 1 max, 2 min (the same (a, b) pairs),
    3 add twice, 4 a plain store after set_atomic_none"""
    f = TYPES[name]
    n = REGION // f.bytes
    rng = random.Random("atomic-" + name)
    base = pairs_for(f, n, rng)
    two = twice_pairs(f, n, rng)
    plain = [(rand_float(f, rng), rand_float(f, rng)) if isinstance(f, Fmt) else
             (rng.randrange(1 << f.width), rng.randrange(1 << f.width)) for _ in range(n)]
    gm = [a for a, _ in base] * 3 + [a for a, _ in two] + [a for a, _ in plain]
    ub = [b for _, b in base] * 3 + [b for _, b in two] + [b for _, b in plain]
    exp = [op_of(f, "add", a, b) for a, b in base] + [op_of(f, "max", a, b) for a, b in base] + \
          [op_of(f, "min", a, b) for a, b in base] + \
          [op_of(f, "add", op_of(f, "add", a, b), b) for a, b in two] + [b for _, b in plain]
    save("src.bin", pack(f, ub))
    save("dst.bin", pack(f, gm))
    save("expected.bin", pack(f, exp))


def i32s(vals):
    return b"".join(struct.pack("<i", v) for v in vals)


def add32(gm, off, data):
    """s32 atomic add of a byte string into a bytearray at byte offset off"""
    for i in range(0, len(data), 4):
        a = struct.unpack_from("<I", gm, off + i)[0]
        b = struct.unpack_from("<I", data, i)[0]
        struct.pack_into("<I", gm, off + i, (a + b) & 0xFFFFFFFF)


def case_atomic_scope():
    """set_atomic_s32 + set_atomic_add are in force from the start; only MTE3 stores into GM combine.
    src = 1024 bytes: chunks c0..c3 of 256 bytes. UB/L1 walk (see the kernel):
      ub[0,256) = c0 (MTE2), then after the atomic mode is set ub[0,128) = c1[0,128) (MTE2 grouped, plain) and
      ub[128,256) = c2[0,128) (MTE2 legacy, plain); ub[4096,4352) = c3 (MTE2), then mte_ub_ub ub[0,256) ->
      ub[4096,4352) (plain); mte_ub_l1 ub[4096,4352) -> l1[0,256) over an earlier mte_ub_l1 of c3 (plain);
      mte_l1_ub l1[0,256) -> ub[8192,8448).
    GM out (1024 bytes, initial contents init.bin):
      [0,256)   += ub[8192,8448) (grouped mte_ub_gm, atomic)
      [256,512) += rows: 4 rows of 32 bytes from ub rows 64 bytes apart to GM rows 64 bytes apart (gaps untouched)
      [512,768) += ub[0,256) via the legacy copy_ubuf_to_gm with loop1 (2 x 2 rows of 64 bytes)
      [768,1024) = ub[0,256) after set_atomic_none (plain)"""
    rng = random.Random("atomic-scope")
    src = bytes(rng.randrange(256) for _ in range(1024))
    init = bytearray(rng.randrange(256) for _ in range(1024))
    c = [src[i * 256:(i + 1) * 256] for i in range(4)]
    ub = bytearray(16384)
    ub[0:256] = c[0]
    ub[0:128] = c[1][0:128]
    ub[128:256] = c[2][0:128]
    ub[4096:4352] = c[3]
    ub[4096:4352] = ub[0:256]
    l1 = bytearray(512)
    l1[0:256] = c[3]
    l1[0:256] = ub[4096:4352]
    ub[8192:8448] = l1[0:256]
    gm = bytearray(init)
    add32(gm, 0, ub[8192:8448])
    for r in range(4):
        add32(gm, 256 + r * 64, ub[r * 64:r * 64 + 32])
    # legacy: n_burst 2 rows of 64 bytes, UB stride 64, GM stride 64; loop1 count 2, UB +128, GM +128
    for k in range(2):
        for r in range(2):
            add32(gm, 512 + k * 128 + r * 64, ub[k * 128 + r * 64:k * 128 + r * 64 + 64])
    gm[768:1024] = ub[0:256]
    save("src.bin", src)
    save("init.bin", init)
    save("expected.bin", gm)


def case_atomic_modes():
    """mode register behaviour, f32 and s16 data, one 64-byte region per store (16 f32 / 32 s16):
      r0: set_atomic_f32 alone (no operation yet)      -> plain store
      r1: + set_atomic_add                               -> f32 add
      r2: set_atomic_s32 (operation kept)               -> s32 add of the same kind of bytes
      r3: set_atomic_s16, set_atomic_max                -> s16 max
      r4: set_atomic_none                               -> plain
      r5: set_atomic_bf16, set_atomic_min               -> bf16 min
      r6: set_atomic_none, set_atomic_s8 (a type alone again)   -> plain"""
    rng = random.Random("atomic-modes")
    R = 64
    gm = bytearray(rng.randrange(256) for _ in range(7 * R))
    ub = bytearray(rng.randrange(256) for _ in range(7 * R))
    # give r1 and r5 real float values so the arithmetic matters
    for i in range(16):
        struct.pack_into("<I", gm, R + 4 * i, rand_float(F32, rng))
        struct.pack_into("<I", ub, R + 4 * i, rand_float(F32, rng))
    for i in range(32):
        struct.pack_into("<H", gm, 5 * R + 2 * i, rand_float(BF16, rng))
        struct.pack_into("<H", ub, 5 * R + 2 * i, rand_float(BF16, rng))
    exp = bytearray(gm)
    exp[0:R] = ub[0:R]
    for i in range(16):
        a, b = struct.unpack_from("<I", gm, R + 4 * i)[0], struct.unpack_from("<I", ub, R + 4 * i)[0]
        struct.pack_into("<I", exp, R + 4 * i, fadd(F32, a, b))
        a, b = struct.unpack_from("<I", gm, 2 * R + 4 * i)[0], struct.unpack_from("<I", ub, 2 * R + 4 * i)[0]
        struct.pack_into("<I", exp, 2 * R + 4 * i, iop(S32, "add", a, b))
    for i in range(32):
        a, b = struct.unpack_from("<H", gm, 3 * R + 2 * i)[0], struct.unpack_from("<H", ub, 3 * R + 2 * i)[0]
        struct.pack_into("<H", exp, 3 * R + 2 * i, iop(S16, "max", a, b))
        a, b = struct.unpack_from("<H", gm, 5 * R + 2 * i)[0], struct.unpack_from("<H", ub, 5 * R + 2 * i)[0]
        struct.pack_into("<H", exp, 5 * R + 2 * i, fmaxmin(BF16, a, b, False))
    exp[4 * R:5 * R] = ub[4 * R:5 * R]
    exp[6 * R:7 * R] = ub[6 * R:7 * R]
    save("src.bin", ub)
    save("init.bin", gm)
    save("expected.bin", exp)


def case_atomic_blocks():
    """4 blocks each load their own 128 s32 and f32 values (src + block*1024) and atomically add them into
    the same 512-byte GM accumulators: s32 wraps, f32 rounds after every block (blocks run in order 0..3);
    each block first stores its s32 values plainly into acc[1024, 1536) (atomics are off at block start)"""
    rng = random.Random("atomic-blocks")
    src = bytearray()
    for blk in range(4):
        src += i32s([rng.randrange(-2 ** 31, 2 ** 31) for _ in range(128)])
        src += b"".join(struct.pack("<I", rand_float(F32, rng)) for _ in range(128))
    acc_i = [rng.randrange(-2 ** 31, 2 ** 31) & 0xFFFFFFFF for _ in range(128)]
    acc_f = [rand_float(F32, rng) for _ in range(128)]
    init = b"".join(struct.pack("<I", v) for v in acc_i + acc_f) + bytes(rng.randrange(256) for _ in range(512))
    for blk in range(4):
        o = blk * 1024
        for i in range(128):
            acc_i[i] = iop(S32, "add", acc_i[i], struct.unpack_from("<I", src, o + 4 * i)[0])
            acc_f[i] = fadd(F32, acc_f[i], struct.unpack_from("<I", src, o + 512 + 4 * i)[0])
    save("src.bin", src)
    save("init.bin", init)
    save("expected.bin", b"".join(struct.pack("<I", v) for v in acc_i + acc_f) + src[3 * 1024:3 * 1024 + 512])


def legacy_load(ub, gm, dst, n, length, lpad, rpad, dsel, ss, ds, pat):
    """copy_gm_to_ubuf (seed 004 reference) with padding: data_select pads [len, ds) with the pad value
    when no counts are given, else [left bytes][data][right bytes] from the row start (semantics §3)"""
    for r in range(n):
        s, d = r * ss, dst + r * ds
        if dsel and (lpad or rpad):
            for i in range(lpad):
                ub[d + i] = pat[i % len(pat)]
            ub[d + lpad:d + lpad + length] = gm[s:s + length]
            for i in range(rpad):
                ub[d + lpad + length + i] = pat[i % len(pat)]
        else:
            ub[d:d + length] = gm[s:s + length]
            if dsel:
                for i in range(ds - length):
                    ub[d + length + i] = pat[i % len(pat)]


def case_padval():
    """legacy padding value (set_mov_pad_val, seed 004 ex. 3 shape). UB starts as a copy of 0xEE bytes
    (loaded first) so that every pad byte is visible. f16 source rows of 40 bytes, UB rows of 64 bytes.
      A ub[0,512):     dsel, no set_mov_pad_val yet            -> pad value 0 (reset state)
      B ub[512,1024):  set_mov_pad_val -1.5 (f16 0xBE00), dsel  -> pattern 00 BE
      C ub[1024,1536): no dsel                                  -> gaps keep 0xEE
      D ub[1536,2048): no new value, dsel (register persists)    -> 00 BE
      E ub[2048,2560): set_mov_pad_val 0x7C01 (f16 sNaN bits), dsel, left 4 / right 6 bytes -> [4][40][6], rest 0xEE
      F ub[2560,3072): f32 pointers, set_mov_pad_val f32 1.0, dsel -> 00 00 80 3F
      G ub[3072,3584): i8 pointers, set_mov_pad_val i8 -91 (0xA5), dsel, left 3 / right 5 bytes
    All of it is stored back with one 3584-byte store."""
    src = pattern(8 * 40, 90)
    ub = bytearray(b"\xee" * 3584)
    z = b"\x00\x00"
    legacy_load(ub, src, 0, 8, 40, 0, 0, True, 40, 64, z)
    legacy_load(ub, src, 512, 8, 40, 0, 0, True, 40, 64, struct.pack("<H", 0xBE00))
    legacy_load(ub, src, 1024, 8, 40, 0, 0, False, 40, 64, z)
    legacy_load(ub, src, 1536, 8, 40, 0, 0, True, 40, 64, struct.pack("<H", 0xBE00))
    legacy_load(ub, src, 2048, 8, 40, 4, 6, True, 40, 64, struct.pack("<H", 0x7C01))
    legacy_load(ub, src, 2560, 8, 40, 0, 0, True, 40, 64, struct.pack("<f", 1.0))
    legacy_load(ub, src, 3072, 8, 40, 3, 5, True, 40, 64, b"\xa5")
    assert struct.pack("<e", -1.5) == struct.pack("<H", 0xBE00)
    save("in.bin", src)
    save("expected.bin", ub)


def case_ub_l1():
    """mixed kernel: each AIV s loads 512 bytes (src + s*512) into its UB and copies them to the AIC's L1
    with mte_ub_l1 (32-byte units, advance = (len + gap)*32, semantics §3 / Q14):
      AIV0: len 2, nburst(3, src_gap 1, dst_gap 2) -> L1 0 + r*128 <- UB r*96, 64 bytes each
      AIV1: len 1, nburst(4, src_gap 0, dst_gap 1) -> L1 1024 + r*64 <- UB r*32, 32 bytes each
    then the AIC copies L1 [0, 1280) into AIV0's UB at 4096 (mte_l1_ub len 40, one burst) and both AIVs
    store UB [4096, 5376) to out + s*1280 (AIV1's UB is zero there)."""
    src = pattern(1024, 91)
    l1 = bytearray(1280)
    for r in range(3):
        l1[r * 128:r * 128 + 64] = src[r * 96:r * 96 + 64]
    for r in range(4):
        l1[1024 + r * 64:1024 + r * 64 + 32] = src[512 + r * 32:512 + r * 32 + 32]
    save("in.bin", src)
    save("expected.bin", l1 + bytes(1280))


CASES = {"atomic_" + k: (lambda k=k: case_atomic_type(k)) for k in TYPES}
CASES.update({"atomic_scope": case_atomic_scope, "atomic_modes": case_atomic_modes,
              "atomic_blocks": case_atomic_blocks, "padval": case_padval, "ub_l1": case_ub_l1})
if case not in CASES:
    sys.exit("unknown case %s (have %s)" % (case, ", ".join(sorted(CASES))))
CASES[case]()
