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
The float operations are fmodel.py's (exact Fractions, one rounding to nearest even). For f16 the result is also
computed through struct 'e' (the sum of two f16 values is exact in a Python float, and packing rounds
once to nearest even) and the two must agree.
"""
import random, struct, sys
from fractions import Fraction

import fmodel as fm
import genlib as gl

out, case = sys.argv[1], sys.argv[2]
gl.OUT = out
save = gl.save
pattern = gl.lcg_bytes          # deterministic pseudo-random bytes (the pattern of gen_dma.py)


# ---------------------------------------------------------------- float formats (fmodel.py)

F32, F16, BF16 = fm.F32, fm.F16, fm.BF16


def f16_struct_add(a, b):
    """f16 add through struct 'e': the Python float sum of two f16 values is exact"""
    s = struct.unpack("<e", struct.pack("<H", a))[0] + struct.unpack("<e", struct.pack("<H", b))[0]
    try:
        return struct.unpack("<H", struct.pack("<e", s))[0]
    except OverflowError:
        return 0xFC00 if s < 0 else 0x7C00


def fadd(f, a, b):
    r = f.add(a, b)
    if f is F16 and f.decode(a).kind == "f" and f.decode(b).kind == "f":
        sr = f16_struct_add(a, b)
        assert sr == r, "f16 struct/Fraction mismatch %04x %04x: %04x vs %04x" % (a, b, sr, r)
    return r


def fmaxmin(f, a, b, is_max):
    """NaN operand -> canonical NaN; by value, +0 > -0"""
    return f.maximum(a, b) if is_max else f.minimum(a, b)


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
    return gl.pack({8: "B", 16: "H", 32: "I"}[f.bits if isinstance(f, fm.Format) else f.width], vals)


# ---------------------------------------------------------------- edge pairs (a = GM, b = UB)

def fbits(f, v):
    """bits of a Python number exactly representable in f (or +-inf)"""
    if v == float("inf"):
        return f.inf_code
    if v == float("-inf"):
        return f.sign | f.inf_code
    if v == 0:
        return f.sign if str(v).startswith("-") else 0
    b = f.encode(fm.fin(Fraction(v)))
    assert f.value(b) == Fraction(v), (f.name, v)
    return b


def float_edges(f):
    P, N, INF, NINF = 0, f.sign, f.inf_code, f.sign | f.inf_code
    ulp = Fraction(1, 1 << f.mb)
    half = ulp / 2
    one = fbits(f, 1)
    one_ulp = fbits(f, 1 + ulp)
    hb = fbits(f, half)
    sub, norm = 1, 1 << f.mb
    top = Fraction(2) ** (f.emax - f.mb)             # ulp at the largest binade
    qnan_neg = f.sign | f.cnan                       # negative quiet NaN
    snan = f.inf_code | 1                            # signalling-style payload
    e = [
        (P, N), (N, P), (N, N), (P, P),              # signed zeros
        (INF, NINF), (NINF, INF), (INF, one), (one, NINF), (INF, INF), (NINF, NINF),
        (f.cnan, one), (one, f.cnan), (qnan_neg, fbits(f, -3)), (fbits(f, 2), snan), (f.cnan, f.cnan), (snan, INF),
        (f.max_code, f.max_code), (f.sign | f.max_code, f.sign | f.max_code),
        (f.max_code, fbits(f, top / 2)),             # tie at the top: rounds to even = overflow to inf
        (f.max_code, fbits(f, top / 4)),             # below the tie: stays max
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
        return rng.randrange(1 << f.bits)
    if k == 1:
        return rng.randrange(1 << f.mb) | (f.sign if rng.randrange(2) else 0)     # subnormal
    e = f.bias + rng.randrange(-3, 4)
    return (f.sign if rng.randrange(2) else 0) | (e << f.mb) | rng.randrange(1 << f.mb)


def pairs_for(f, count, rng):
    p = list(float_edges(f) if isinstance(f, fm.Format) else int_edges(f))
    assert len(p) <= count
    while len(p) < count:
        if isinstance(f, fm.Format):
            p.append((rand_float(f, rng), rand_float(f, rng)))
        else:
            p.append((rng.randrange(1 << f.width), rng.randrange(1 << f.width)))
    return p


def twice_pairs(f, count, rng):
    """region added twice: (a + b) + b, two roundings"""
    if isinstance(f, fm.Format):
        ulp = Fraction(1, 1 << f.mb)
        hb = fbits(f, ulp / 2)
        p = [(fbits(f, 1), hb),                     # 1 + h = 1 (tie, even), again 1: the GM value never moves
             (fbits(f, 1 + ulp), hb),               # 1+u + h = 1+2u (tie, even), + h = 1+2u (tie, even)
             (f.max_code, fbits(f, Fraction(2) ** (f.emax - f.mb) / 4)),   # max, max (below the tie twice)
             (fbits(f, -1), fbits(f, 0.5)),         # -1 + .5 + .5 = +0
             (f.sign, f.sign), (0, f.sign), (f.inf_code, f.sign | f.inf_code), (f.cnan, 0)]
    else:
        p = [(f.max, 1), (f.min & f.mask, f.mask), (0, f.max), (f.mask, f.min & f.mask)]
    while len(p) < count:
        if isinstance(f, fm.Format):
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
    n = REGION // (f.bits // 8 if isinstance(f, fm.Format) else f.bytes)
    rng = random.Random("atomic-" + name)
    base = pairs_for(f, n, rng)
    two = twice_pairs(f, n, rng)
    plain = [(rand_float(f, rng), rand_float(f, rng)) if isinstance(f, fm.Format) else
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
gl.run_case(CASES, case)
