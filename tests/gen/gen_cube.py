#!/usr/bin/env python3
"""gen_cube.py OUTDIR CASE — inputs and independently computed expected outputs for the cube tests
(tests/cube/*.pto).

The reference model is plain Python written from resolutions Q35-Q40, Q50, Q51, §2.7 and
docs/semantics.md §8; it shares no code with ptosim. Floating point: fmodel.py's formats, with its host
fast path for the MAD arithmetic (a Python float product or sum of two f32 values rounded once to f32 is
the correctly rounded f32 result). MAD reference order: acc = init (0 / old C / bias[n]); for k ascending:
acc = f32(acc + f32(a*b)).
"""
import math, struct, sys

import fmodel as fm
import genlib as gl

out, case = sys.argv[1], sys.argv[2]
gl.OUT = out


# ---------------------------------------------------------------- numbers (fmodel.py)

f32 = fm.host_f32                       # a Python float rounded to the nearest f32 (ties to even)
f32_bits = fm.host_f32_bits             # f32 code of an f32 value; NaN -> 0x7FC00000
bits_f32 = fm.F32.to_float
bits_f16 = fm.F16.to_float
bits_bf16 = fm.BF16.to_float
e4m3_val = fm.E4M3.to_float             # f8E4M3FN (resolutions §2.4): bias 7, 0x7F/0xFF NaN
Rng = gl.Lcg


def f16_bits(x, sat=False):
    """f32 value -> f16 bits, round to nearest even; sat: NaN->0, overflow/inf -> +-65504"""
    return fm.F16.from_float(x, "R", sat)


def bf16_bits(x):
    """f32 value -> bf16 bits, round to nearest even"""
    return fm.BF16.from_float(x)


def rand_f16(r, lo=-3, hi=1):
    """a random f16 value with a full 11-bit significand and exponent in [lo, hi]"""
    e = lo + r.below(hi - lo + 1)
    m = 1024 + r.below(1024)
    v = m / 1024.0 * 2.0 ** e
    return -v if r.below(2) else v


def rand_f32(r, lo=-3, hi=1):
    e = lo + r.below(hi - lo + 1)
    m = (1 << 23) + (r.below(1 << 23))
    v = m / float(1 << 23) * 2.0 ** e
    return -v if r.below(2) else v


# ---------------------------------------------------------------- files

save = gl.save
pack = gl.pack


def save_f16(name, mat):
    save(name, pack("H", [f16_bits(v) for row in mat for v in row]))


def save_f32(name, mat):
    save(name, pack("f", [v for row in mat for v in row]))


# ---------------------------------------------------------------- reference MAD

def matmul(A, B, M, N, K, init=None):
    """C[m][n] = init[m][n] (or 0) + sum over k ascending, f32 accumulation of f32-rounded products"""
    C = []
    for m in range(M):
        row = []
        for n in range(N):
            acc = init[m][n] if init is not None else 0.0
            for k in range(K):
                acc = f32(acc + f32(A[m][k] * B[k][n]))
            row.append(acc)
        C.append(row)
    return C


def rand_mat(r, R, C, gen=rand_f16):
    return [[gen(r) for _ in range(C)] for _ in range(R)]


def transpose(X):
    return [list(col) for col in zip(*X)]


# ---------------------------------------------------------------- cases

def b8_frac(B, K, N):
    """The L1 bytes of a 1-byte B [K, N] that a transposing L1 -> L0B load of shape (K, N) brings to the MAD as B
    (docs/semantics.md §8.3). The load runs as the compiler expands it: generic NZ source of 32-byte column blocks
    with row pitch P = pad32(K); 32 x 32 blocks (K chunk c, column block j) transposed into L0B fractals
    c*DS + 2j and c*DS + 2j + 1, DS = pad32(N)/16. The MAD reads L0B fractal (k/32)*N1 + n/16, N1 = pad16(N)/16.
    So MAD element (k, n) comes from L0B fractal f = (k//32)*N1 + n//16, written from K chunk f // DS, columns
    (f % DS)*16 .. +15 of the source. When N is a multiple of 32 (DS = N1) this is plain nd2nz of B."""
    P = (K + 31) // 32 * 32
    N1, DS = (N + 15) // 16, (N + 31) // 32 * 2
    buf = bytearray(((N + 31) // 32) * P * 32)
    for k in range(K):
        for n in range(N):
            f = (k // 32) * N1 + n // 16
            ks, ns = (f // DS) * 32 + k % 32, (f % DS) * 16 + n % 16
            buf[((ns // 32) * P + ks) * 32 + ns % 32] = B[k][n] & 0xFF
    return bytes(buf)


def case_mad16():
    r = Rng(16)
    A, B = rand_mat(r, 16, 16), rand_mat(r, 16, 16)
    save_f16("a.bin", A)
    save_f16("b.bin", B)
    save_f32("expected.bin", matmul(A, B, 16, 16, 16))



def i32(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v & 0x80000000 else v


def save_i8(name, mat):
    save(name, pack("b", [v for row in mat for v in row]))


def save_i32(name, mat):
    save(name, pack("i", [v for row in mat for v in row]))


def save_bf16(name, mat):
    save(name, pack("H", [bf16_bits(v) for row in mat for v in row]))


def fill_f32(R, C, v):
    return [[v] * C for _ in range(R)]


def case_mad_acc():
    r = Rng(17)
    A1, B1, A2, B2 = rand_mat(r, 16, 16), rand_mat(r, 16, 16), rand_mat(r, 16, 16), rand_mat(r, 16, 16)
    for n, m in (("a1", A1), ("b1", B1), ("a2", A2), ("b2", B2)):
        save_f16(n + ".bin", m)
    save_f32("expected.bin", matmul(A2, B2, 16, 16, 16, init=matmul(A1, B1, 16, 16, 16)))


def case_mad_bias():
    """bias of 32 f16 values stored as two chunks of 16 with 16 junk values after each; mte_l1_bt
    len 16 nburst(2, src_gap 16, dst_gap 0) in bias-element units gathers them (f16 -> f32 in BT)"""
    r = Rng(18)
    A, B = rand_mat(r, 16, 16), rand_mat(r, 16, 32)
    bias = [rand_f16(r, 0, 3) for _ in range(32)]
    junk = [rand_f16(r, 8, 10) for _ in range(32)]
    gm = bias[:16] + junk[:16] + bias[16:] + junk[16:]
    save_f16("a.bin", A)
    save_f16("b.bin", B)
    save_f16("bias.bin", [gm])
    init = [list(bias) for _ in range(16)]
    save_f32("expected.bin", matmul(A, B, 16, 32, 16, init=init))


def case_mad_i8():
    r = Rng(19)
    A = [[r.below(256) - 128 for _ in range(32)] for _ in range(16)]
    B = [[r.below(256) - 128 for _ in range(16)] for _ in range(32)]
    save_i8("a.bin", A)
    save_i8("b.bin", B)   # row-major: the kernel stages it with nd2nz (32-byte rows, 16 of padding)
    C = [[i32(sum(A[m][k] * B[k][n] for k in range(32))) for n in range(16)] for m in range(16)]
    save_i32("expected.bin", C)


def case_mad_trans():
    """GM holds A^T [K=16][M=32] and B^T [N=16][K=16]; the loads transpose A and keep B^T as L0B wants"""
    r = Rng(20)
    AT, BT = rand_mat(r, 16, 32), rand_mat(r, 16, 16)
    save_f16("at.bin", AT)
    save_f16("bt.bin", BT)
    save_f32("expected.bin", matmul(transpose(AT), transpose(BT), 32, 16, 16))


ODD_INIT = bits_f32(0xA5A5A5A5)


def case_mad_odd():
    """m = 40 (L0C block pitch 48, resolutions Q36), k = 24, n = 20, written with dst_stride 24 into a
    pre-filled [40][24] buffer: columns 20..23 keep their bytes"""
    r = Rng(21)
    A, B = rand_mat(r, 40, 24), rand_mat(r, 24, 20)
    save_f16("a.bin", A)
    save_f16("b.bin", B)
    save_f32("init.bin", fill_f32(40, 24, ODD_INIT))
    C = matmul(A, B, 40, 20, 24)
    save("expected.bin", b"".join(pack("f", C[m]) + pack("I", [0xA5A5A5A5] * 4) for m in range(40)))


def tf32(v, away):
    """an f32 value rounded to tf32 (10 fraction bits), ties away or to even"""
    return bits_f32(fm.F32.convert(f32_bits(v), fm.TF32, "A" if away else "R") << 13)


def case_mad_f32():
    """f32 x f32 -> f32 three times: plain (products rounded to f32), tf32_mode(round_even), tf32_mode(round_away)"""
    r = Rng(22)
    A, B = rand_mat(r, 16, 16, rand_f32), rand_mat(r, 16, 16, rand_f32)
    for X in (A, B):   # every third input sits exactly halfway between two tf32 values
        for i in range(16):
            for j in range(16):
                if (i + j) % 3 == 0:
                    X[i][j] = bits_f32((f32_bits(X[i][j]) & ~0x1FFF) | 0x1000)
    save_f32("a.bin", A)
    save_f32("b.bin", B)
    res = matmul(A, B, 16, 16, 16)
    for away in (False, True):
        res += matmul([[tf32(v, away) for v in row] for row in A], [[tf32(v, away) for v in row] for row in B], 16, 16, 16)
    save_f32("expected.bin", res)


def case_mad_bf16():
    r = Rng(23)
    A = [[bits_bf16(bf16_bits(rand_f32(r))) for _ in range(16)] for _ in range(16)]
    B = [[bits_bf16(bf16_bits(rand_f32(r))) for _ in range(32)] for _ in range(16)]
    save_bf16("a.bin", A)
    save_bf16("b.bin", B)
    save_f32("expected.bin", matmul(A, B, 16, 32, 16))


def rand_e4m3(r):
    while True:
        b = r.below(256)
        if (b & 0x7F) != 0x7F and (b & 0x78) < 0x58:   # finite, magnitude below 2^4
            return b


def case_mad_mx():
    """MX f8E4M3FN 16 x 128 x 16: E8M0 scales (2^(b-127), resolutions Q40), one per 32-element K group;
    in GM/L1 the scales sit in 32-byte fragments of 16 rows x 2 groups: (r, g) at
    ((r/16)*ceil(G/2) + g/2)*32 + (r%16)*2 + g%2, r = m for A and n for B"""
    r = Rng(24)
    M, K, N, G = 16, 128, 16, 4
    A = [[rand_e4m3(r) for _ in range(K)] for _ in range(M)]
    B = [[rand_e4m3(r) for _ in range(N)] for _ in range(K)]
    sa = [[125 + r.below(5) for _ in range(G)] for _ in range(M)]
    sb = [[125 + r.below(5) for _ in range(N)] for _ in range(G)]
    save("a.bin", bytes(v for row in A for v in row))
    save("b.bin", b8_frac(B, K, N))
    G2 = (G + 1) // 2

    def frag(rows, get):
        buf = bytearray(((rows + 15) // 16) * G2 * 32)
        for x in range(rows):
            for g in range(G):
                buf[((x // 16) * G2 + g // 2) * 32 + (x % 16) * 2 + g % 2] = get(x, g)
        return buf
    save("sa.bin", frag(M, lambda m, g: sa[m][g]))
    save("sb.bin", frag(N, lambda n, g: sb[g][n]))
    C = []
    for m in range(M):
        row = []
        for n in range(N):
            acc = 0.0
            for k in range(K):
                a = e4m3_val(A[m][k]) * 2.0 ** (sa[m][k // 32] - 127)
                b = e4m3_val(B[k][n]) * 2.0 ** (sb[k // 32][n] - 127)
                acc = f32(acc + f32(a * b))
            row.append(acc)
        C.append(row)
    save_f32("expected.bin", C)


def case_fix_quant():
    """seed 002: 64 channels x 8-byte quant rows (512 B) loaded into FB by mte_l1_fb 2 units x 4 bursts
    (64-byte units, resolutions Q51); qf322f16_pre_vec: y = f32(x * s[n]) with s[n] the low word of row n,
    mantissa bits 12..0 ignored (Q37); sat: overflow -> 65504, NaN -> 0"""
    r = Rng(25)
    A, B = rand_mat(r, 16, 16), rand_mat(r, 16, 64)
    save_f16("a.bin", A)
    save_f16("b.bin", B)
    rows, scales = b"", []
    for n in range(64):
        s = rand_f32(r, -3, 1)
        lo = (f32_bits(s) & ~0x1FFF) | r.below(0x2000)   # junk in the ignored mantissa bits
        if n in (7, 40):
            lo = f32_bits(2.0 ** 20) | r.below(0x2000)   # overflows f16 -> saturates
        if n == 13:
            lo = 0x7FC00000 | r.below(0x2000)            # NaN scale -> NaN -> 0 under sat
        hi = r.next() & 0xFFFFFFFF                        # offset / sign fields: unused for f16 output
        rows += struct.pack("<II", lo, hi)
        scales.append(bits_f32(lo & ~0x1FFF))
    save("params.bin", rows)
    C = matmul(A, B, 16, 64, 16)
    save("expected.bin", pack("H", [f16_bits(f32(C[m][n] * scales[n]), sat=True) for m in range(16) for n in range(64)]))


def case_fix_relu():
    """vector_relu: alpha[n] = f32 at fb + 4n (Q37), 32 channels = 2 FB units of 64 B, gathered by
    mte_l1_fb len 1 nburst(2, src_gap 1, dst_gap 0) from L1 rows with a 64-byte hole; then clip = 1.5 (f16)"""
    r = Rng(26)
    A, B = rand_mat(r, 16, 16), rand_mat(r, 16, 32)
    save_f16("a.bin", A)
    save_f16("b.bin", B)
    alpha = [f32(rand_f32(r, -4, -1)) for _ in range(32)]
    junk = [rand_f32(r, 5, 9) for _ in range(16)]
    save("alpha.bin", pack("f", alpha[:16] + junk + alpha[16:]))
    C = matmul(A, B, 16, 32, 16)
    clip = 1.5
    outv = []
    for m in range(16):
        for n in range(32):
            v = C[m][n]
            if not v >= 0:
                v = f32(alpha[n] * v)
            b = f16_bits(v, sat=True)
            if bits_f16(b) > clip:
                b = f16_bits(clip)
            outv.append(b)
    save("expected.bin", pack("H", outv))


def case_fix_scalar():
    """qf322f16_pre_scalar (scale 0.75) + scalar_relu (alpha 0.125) written nz2dn(1): (m, n) at n*20 + m
    into a pre-filled [16][20] f16 buffer"""
    r = Rng(27)
    A, B = rand_mat(r, 16, 16), rand_mat(r, 16, 16)
    save_f16("a.bin", A)
    save_f16("b.bin", B)
    save("init.bin", b"\x5a" * (16 * 20 * 2))
    C = matmul(A, B, 16, 16, 16)
    outb = bytearray(b"\x5a" * (16 * 20 * 2))
    for m in range(16):
        for n in range(16):
            v = f32(C[m][n] * 0.75)
            if not v >= 0:
                v = f32(0.125 * v)
            struct.pack_into("<H", outb, (n * 20 + m) * 2, f16_bits(v, sat=True))
    save("expected.bin", outb)


def case_fix_chain():
    """C1 = A[32x16] B[16x32] written by mte_l0c_l1 in the default (NZ) layout as f16 with pitch 32, read
    back as the left operand of D = C1h E[32x16]"""
    r = Rng(28)
    A, B, E = rand_mat(r, 32, 16), rand_mat(r, 16, 32), rand_mat(r, 32, 16)
    for n, m in (("a", A), ("b", B), ("e", E)):
        save_f16(n + ".bin", m)
    C1 = matmul(A, B, 32, 32, 16)
    C1h = [[bits_f16(f16_bits(v, sat=True)) for v in row] for row in C1]
    save_f32("expected.bin", matmul(C1h, E, 32, 16, 32))


def case_fix_atomic():
    """atomic(type = f32, op = add) and atomic(type = f32, op = max) into pre-filled GM"""
    r = Rng(29)
    A, B = rand_mat(r, 16, 16), rand_mat(r, 16, 16)
    A[0] = [0.0] * 16                      # row 0 of C is exactly +0 (0.0 + products of +-0)
    save_f16("a.bin", A)
    save_f16("b.bin", B)
    init = [[rand_f32(r, -1, 3) for _ in range(16)] for _ in range(16)]
    init[0] = [-0.0 if n % 2 == 0 else 0.0 for n in range(16)]   # max(-0, +0) = +0 whichever is in GM
    save_f32("init.bin", init)
    C = matmul(A, B, 16, 16, 16)

    def fmax(a, b):   # IEEE maximum with +0 > -0 (no NaNs here)
        if a == b:
            return a if math.copysign(1.0, a) > 0 else b
        return a if a > b else b
    save_f32("expected_add.bin", [[f32(init[m][n] + C[m][n]) for n in range(16)] for m in range(16)])
    save_f32("expected_max.bin", [[fmax(init[m][n], C[m][n]) for n in range(16)] for m in range(16)])


def case_fix_loop3():
    """a 16x32 L0C tile written as two 16x16 passes: loop3(2, 16 rows, 16 elements), nz2nd, ds 32"""
    r = Rng(30)
    A, B = rand_mat(r, 16, 16), rand_mat(r, 16, 32)
    save_f16("a.bin", A)
    save_f16("b.bin", B)
    save_f32("expected.bin", matmul(A, B, 16, 32, 16))


def case_mixed():
    """C = A[32x16] B[16x32]; split_m gives AIV s rows 16s..16s+15 in its UB; each AIV stores its half"""
    r = Rng(31)
    A, B = rand_mat(r, 32, 16), rand_mat(r, 16, 32)
    save_f16("a.bin", A)
    save_f16("b.bin", B)
    save_f32("expected.bin", matmul(A, B, 32, 32, 16))


def case_mixed_vec():
    """as case_mixed; each AIV then computes y = c*c + c with vector ops before storing its half"""
    r = Rng(32)
    A, B = rand_mat(r, 32, 16), rand_mat(r, 16, 32)
    save_f16("a.bin", A)
    save_f16("b.bin", B)
    C = matmul(A, B, 32, 32, 16)
    save_f32("expected.bin", [[f32(f32(v * v) + v) for v in row] for row in C])


def case_l1_ub():
    """mte_l1_ub in 32-byte blocks with gaps (resolutions Q15) into AIV0's UB: 3 bursts of 2 blocks, source
    gap 1 block, destination gap 0; both AIVs then store 256 bytes of their UB"""
    r = Rng(33)
    src = bytes(r.below(256) for _ in range(320))
    save("src.bin", src)
    aiv0 = src[0:64] + src[96:160] + src[192:256] + bytes(64)
    save("expected.bin", aiv0 + bytes(256))



def case_l1_ub_fix():
    """copy_cbuf_to_ubuf of 1 KiB into the UB of AIV0 and AIV1, ordered by set_intra_block on FIX; each AIV
    stores its UB: the output is the source twice"""
    r = Rng(61)
    src = bytes(r.below(256) for _ in range(1024))
    save("src.bin", src)
    save("expected.bin", src + src)


def case_raw_fill():
    """raw_fill_l1: 16-bit 0xABCD into blocks 1-2, 4-5, 7-8; 32-bit 0x11223344 into blocks 10 and 13 of
    L1 [0, 512) (little-endian words); the rest zero"""
    buf = bytearray(512)
    for r in range(3):
        for b in range(2):
            blk = 1 + r * 3 + b
            buf[blk * 32:(blk + 1) * 32] = bytes([0xCD, 0xAB]) * 16
    for blk in (10, 13):
        buf[blk * 32:(blk + 1) * 32] = bytes([0x44, 0x33, 0x22, 0x11]) * 8
    save("expected.bin", buf)


def case_mixed_n():
    """split_n: AIV s gets columns 32s..32s+31 at columns 0..31 of its rows (dst_stride 32); dst_mode(1):
    AIV1 alone gets normal_relu(C) at UB 8192 (dst_stride 64)"""
    r = Rng(34)
    A, B = rand_mat(r, 16, 16), rand_mat(r, 16, 64)
    save_f16("a.bin", A)
    save_f16("b.bin", B)
    C = matmul(A, B, 16, 64, 16)
    half0 = [row[:32] for row in C]
    half1 = [row[32:] for row in C]
    relu = [[0.0 if v < 0 else v for v in row] for row in C]
    data = pack("f", [v for row in half0 for v in row]) + pack("f", [v for row in half1 for v in row])
    data += bytes(4096) + pack("f", [v for row in relu for v in row])
    save("expected.bin", data)


def case_nz_layouts():
    """f32 destinations in NZ layouts (best readings, docs/semantics.md §8): nz2nz(0) = 16-column blocks,
    nz2nz(1) and the default layout = 8-column (32-byte) blocks; dst_stride = rows between blocks (16)"""
    r = Rng(35)
    A, B = rand_mat(r, 16, 16), rand_mat(r, 16, 32)
    save_f16("a.bin", A)
    save_f16("b.bin", B)
    C = matmul(A, B, 16, 32, 16)

    def nz(c0):
        buf = [0.0] * (16 * 32)
        for m in range(16):
            for n in range(32):
                buf[((n // c0) * 16 + m) * c0 + n % c0] = C[m][n]
        return pack("f", buf)
    save("expected.bin", nz(16) + nz(8) + nz(8))


def case_gemv():
    """m = 1: a 1 x 16 row times 16 x 16, with and without disable_gemv (same C, resolutions §2.7)"""
    r = Rng(36)
    A, B = rand_mat(r, 1, 16), rand_mat(r, 16, 16)
    save_f16("a.bin", A)
    save_f16("b.bin", B)
    C = matmul(A, B, 1, 16, 16)
    save_f32("expected.bin", C + C)


F16_MAX = 65504.0


def case_mad_sat():
    """A holds +inf, -inf and NaN. mad ... sat: NaN -> 0, +-inf -> +-65504 (the f16 extremes) before the
    multiply; result clamped to +-FLT_MAX, NaN -> 0 (resolutions Q38). mad ... nosat: IEEE (canonical NaN).
    Both written as f32."""
    r = Rng(37)
    A, B = rand_mat(r, 16, 16), rand_mat(r, 16, 16)
    A[0][3] = math.inf
    A[1][5] = -math.inf
    A[2][7] = math.nan
    A[3][0] = math.inf
    A[3][1] = -math.inf
    save_f16("a.bin", A)
    save_f16("b.bin", B)

    def sane(v):
        if v != v:
            return 0.0
        if math.isinf(v):
            return math.copysign(F16_MAX, v)
        return v

    def satf(v):
        if v != v:
            return 0.0
        return max(-3.4028234663852886e38, min(3.4028234663852886e38, v))
    As = [[sane(v) for v in row] for row in A]
    sat = []
    for m in range(16):
        for n in range(16):
            acc = 0.0
            for k in range(16):
                acc = satf(f32(acc + satf(f32(As[m][k] * B[k][n]))))
            sat.append(acc)
    ieee = [v for row in matmul(A, B, 16, 16, 16) for v in row]
    save("expected.bin", pack("I", [f32_bits(v) for v in sat + ieee]))


def case_fix_int():
    """i8 MAD -> i32 accumulators -> req8_scalar (y = sat_i8(rne(f32(x) * 2^-6))) and deqf16_scalar
    (y = f16(f32(x) * 2^-6)): best readings of the unresolved integer quant modes (docs/semantics.md §8)"""
    r = Rng(38)
    A = [[r.below(256) - 128 for _ in range(32)] for _ in range(16)]
    B = [[r.below(256) - 128 for _ in range(16)] for _ in range(32)]
    save_i8("a.bin", A)
    save("b.bin", b8_frac(B, 32, 16))
    C = [[i32(sum(A[m][k] * B[k][n] for k in range(32))) for n in range(16)] for m in range(16)]

    def rne(v):
        f = math.floor(v)
        d = v - f
        if d > 0.5 or (d == 0.5 and f % 2 == 1):
            f += 1
        return int(f)
    q8 = [max(-128, min(127, rne(f32(f32(float(v)) * 2.0 ** -6)))) for row in C for v in row]
    qh = [f16_bits(f32(f32(float(v)) * 2.0 ** -6), sat=True) for row in C for v in row]
    save("expected_i8.bin", pack("b", q8))
    save("expected_f16.bin", pack("H", qh))



def case_dn2nz():
    """mte_gm_l1_frac dn2nz with two groups: GM holds A1 and A2 column-major (element (r, c) at
    c*inner + r*2 bytes, inner = 32) 512 bytes apart (outer); dst_group(2, 1, 16, 16) puts group g at
    L1 + g*16*32 (isa-notes §4.6 reference, best reading for dn2nz)"""
    r = Rng(39)
    A1, A2, B = rand_mat(r, 16, 16), rand_mat(r, 16, 16), rand_mat(r, 16, 16)
    save_f16("a.bin", transpose(A1) + transpose(A2))
    save_f16("b.bin", B)
    save_f32("expected.bin", matmul(A1, B, 16, 16, 16) + matmul(A2, B, 16, 16, 16))


e5m2_val = fm.E5M2.to_float             # f8E5M2: IEEE-style, bias 15, exponent 31 = inf/NaN


def rand_e5m2(r):
    while True:
        b = r.below(256)
        if ((b >> 2) & 31) < 19:                   # finite, magnitude below 2^4
            return b


def mx_frag(rows, G, get):
    """E8M0 scales in 32-byte fragments of 16 rows x 2 groups: (x, g) at ((x/16)*ceil(G/2) + g/2)*32 + (x%16)*2 + g%2"""
    G2 = (G + 1) // 2
    buf = bytearray(((rows + 15) // 16) * G2 * 32)
    for x in range(rows):
        for g in range(G):
            buf[((x // 16) * G2 + g // 2) * 32 + (x % 16) * 2 + g % 2] = get(x, g)
    return buf


def mx_acc(C, A, B, sa, sb, dec, M, N, K):
    """C += MX product, k ascending: acc = f32(acc + f32(a*2^(sa-127) * b*2^(sb-127))); scale 0xFF is NaN"""
    out = []
    for m in range(M):
        row = []
        for n in range(N):
            acc = C[m][n]
            for k in range(K):
                ea, eb = sa[m][k // 32], sb[k // 32][n]
                a = math.nan if ea == 0xFF else dec(A[m][k]) * 2.0 ** (ea - 127)
                b = math.nan if eb == 0xFF else dec(B[k][n]) * 2.0 ** (eb - 127)
                acc = f32(acc + f32(a * b))
            row.append(acc)
        out.append(row)
    return out


def case_mad_mx_acc():
    """mad_mx_acc (C += MX product, docs/semantics.md §8.4) on a 32 x 32 f32 tile:
    C = A0·B0 (f16 mad, K 16); C += A1·B1 (f8E4M3FN, K 64, 2 scale groups); C += A2·B2 (f8E5M2, K 128,
    4 groups; scale of A2 row 3 group 1 and of B2 group 2 column 5 are 0xFF = NaN); C += A1·B1 again
    (the MX state of the L0A/L0B tiles persists). NaN results are stored as 0x7FC00000."""
    r = Rng(41)
    M, N = 32, 32
    A0, B0 = rand_mat(r, M, 16), rand_mat(r, 16, N)
    A1 = [[rand_e4m3(r) for _ in range(64)] for _ in range(M)]
    B1 = [[rand_e4m3(r) for _ in range(N)] for _ in range(64)]
    A2 = [[rand_e5m2(r) for _ in range(128)] for _ in range(M)]
    B2 = [[rand_e5m2(r) for _ in range(N)] for _ in range(128)]
    sa1 = [[124 + r.below(7) for _ in range(2)] for _ in range(M)]
    sb1 = [[124 + r.below(7) for _ in range(N)] for _ in range(2)]
    sa2 = [[122 + r.below(9) for _ in range(4)] for _ in range(M)]
    sb2 = [[122 + r.below(9) for _ in range(N)] for _ in range(4)]
    sa2[3][1] = 0xFF
    sb2[2][5] = 0xFF
    save_f16("a0.bin", A0)
    save_f16("b0.bin", B0)
    save("a1.bin", bytes(v for row in A1 for v in row))
    save("b1.bin", b8_frac(B1, len(B1), N))
    save("a2.bin", bytes(v for row in A2 for v in row))
    save("b2.bin", b8_frac(B2, len(B2), N))
    save("scales.bin", mx_frag(M, 2, lambda m, g: sa1[m][g]) + mx_frag(N, 2, lambda n, g: sb1[g][n]) +
         mx_frag(M, 4, lambda m, g: sa2[m][g]) + mx_frag(N, 4, lambda n, g: sb2[g][n]))
    C = matmul(A0, B0, M, N, 16)
    C = mx_acc(C, A1, B1, sa1, sb1, e4m3_val, M, N, 64)
    C = mx_acc(C, A2, B2, sa2, sb2, e5m2_val, M, N, 128)
    C = mx_acc(C, A1, B1, sa1, sb1, e4m3_val, M, N, 64)
    save("expected.bin", pack("I", [f32_bits(v) for row in C for v in row]))


def case_mad_mx_bias():
    """mad_mx_bias (C = bias[n] + MX product; the accumulator starts at bias[n], then k ascending,
    docs/semantics.md §8.4) on 32 x 48 tiles (three L0C N blocks):
    C1: a mad_mx of the E5M2 tiles first writes junk into C1, then mad_mx_bias of A1·B1 (f8E4M3FN, K 128,
        4 scale groups) overwrites it with bias1 + A1·B1. bias1 = 48 f32 values stored in GM as three
        chunks of 16 with 4 junk values after each (mte_l1_bt len 16 nburst(3, src_gap 4, dst_gap 0), f32
        copied); bias1[7] = +inf, bias1[20] = -inf; the scale of A1 row 3, group 2 is 0xFF (NaN), so row 3
        is NaN (stored 0x7FC00000) and columns 7 / 20 are +-inf elsewhere.
    C2: mad_mx_bias of A2·B2 (f8E5M2, K 64, 2 groups) with bias2 = 48 f16 values widened to f32 in BT
        at byte 256."""
    r = Rng(43)
    M, N = 32, 48
    A1 = [[rand_e4m3(r) for _ in range(128)] for _ in range(M)]
    B1 = [[rand_e4m3(r) for _ in range(N)] for _ in range(128)]
    A2 = [[rand_e5m2(r) for _ in range(64)] for _ in range(M)]
    B2 = [[rand_e5m2(r) for _ in range(N)] for _ in range(64)]
    sa1 = [[124 + r.below(7) for _ in range(4)] for _ in range(M)]
    sb1 = [[124 + r.below(7) for _ in range(N)] for _ in range(4)]
    sa2 = [[124 + r.below(7) for _ in range(2)] for _ in range(M)]
    sb2 = [[124 + r.below(7) for _ in range(N)] for _ in range(2)]
    sa1[3][2] = 0xFF
    bias1 = [rand_f32(r, 9, 11) for _ in range(N)]
    bias1[7], bias1[20] = math.inf, -math.inf
    junk = [rand_f32(r, 20, 24) for _ in range(12)]
    bias2 = [rand_f16(r, 6, 9) for _ in range(N)]
    save("a1.bin", bytes(v for row in A1 for v in row))
    save("b1.bin", b8_frac(B1, len(B1), N))
    save("a2.bin", bytes(v for row in A2 for v in row))
    save("b2.bin", b8_frac(B2, len(B2), N))
    save("scales.bin", mx_frag(M, 4, lambda m, g: sa1[m][g]) + mx_frag(N, 4, lambda n, g: sb1[g][n]) +
         mx_frag(M, 2, lambda m, g: sa2[m][g]) + mx_frag(N, 2, lambda n, g: sb2[g][n]))
    gm_bias1 = []
    for c in range(3):
        gm_bias1 += bias1[c * 16:(c + 1) * 16] + junk[c * 4:(c + 1) * 4]
    save("bias1.bin", pack("f", gm_bias1))
    save_f16("bias2.bin", [bias2])
    C1 = mx_acc([list(bias1) for _ in range(M)], A1, B1, sa1, sb1, e4m3_val, M, N, 128)
    C2 = mx_acc([list(bias2) for _ in range(M)], A2, B2, sa2, sb2, e5m2_val, M, N, 64)
    save("expected.bin", pack("I", [f32_bits(v) for row in C1 + C2 for v in row]))


def frac_vals(r, nfrac):
    """nfrac raw 16 x 16 f16 fractals (row-major inside each), small integers so every sum is exact"""
    return [[[float(r.next() % 9 - 4) for _ in range(16)] for _ in range(16)] for _ in range(nfrac)]


def case_full_ctrl():
    """load_cbuf_to_ca / load_cbuf_to_cb (full control, semantics §8.3) fed by the six-operand copy_gm_to_cbuf.
    L1 A region: 6 fractals; GM a.bin holds fractals 0-2 at byte 0 and 3-5 at byte 2048 (two bursts of 1536 bytes,
    GM stride 2048, L1 stride 1536). load_cbuf_to_ca m_start 1, k_start 1, m_step 1, k_step 2, src_stride 2,
    dst_stride 1: L0A k-block j = L1 fractal (1 + j)*2 + 1. L1 B region: 3 fractals of B' [48, 16] (row k, column
    n); load_cbuf_to_cb with transpose, m_start 1, k_start 0, m_step 2, k_step 1, src_stride 3, dst_stride 1:
    L0B k-block i = L1 fractal 1 + i transposed, so B[k][n] = fracB[1 + k/16][k%16][n]. C = A . B, 16 x 16 x 32."""
    r = Rng(91)
    fa, fb = frac_vals(r, 6), frac_vals(r, 3)
    gm = [0.0] * (1792)
    for f in range(6):
        base = (f * 256) if f < 3 else (1024 + (f - 3) * 256)
        for i in range(16):
            for j in range(16):
                gm[base + i * 16 + j] = fa[f][i][j]
    save("a.bin", pack("H", [f16_bits(v) for v in gm]))
    save("b.bin", pack("H", [f16_bits(fb[f][i][j]) for f in range(3) for i in range(16) for j in range(16)]))
    A = [[fa[(1 + k // 16) * 2 + 1][m][k % 16] for k in range(32)] for m in range(16)]
    B = [[fb[1 + k // 16][k % 16][n] for n in range(16)] for k in range(32)]
    save_f32("expected.bin", matmul(A, B, 16, 16, 32))


def case_b8_trans():
    """tests/cube/b8_transpose_loads.pto: i8 A [16, 64] and B [64, 16], both row-major in GM (the kernel stages
    them with nd2nz). C1 = A . B (the per-chunk full-control loads); C2 = A[:, :32] . B[:32] (the shape form:
    the MAD's rows 32..63 of B are the zero half of the first chunk). i32 sums wrap."""
    r = Rng(93)
    A = [[r.below(256) - 128 for _ in range(64)] for _ in range(16)]
    B = [[r.below(256) - 128 for _ in range(16)] for _ in range(64)]
    save_i8("a.bin", A)
    save_i8("b.bin", B)
    save_i32("expected1.bin", [[i32(sum(A[m][k] * B[k][n] for k in range(64))) for n in range(16)] for m in range(16)])
    save_i32("expected2.bin", [[i32(sum(A[m][k] * B[k][n] for k in range(32))) for n in range(16)] for m in range(16)])


def case_gemv_contig():
    """GEMV (semantics §8.4): m = 1 without disable_gemv reads A as a contiguous row of K = 48 f16 (loaded raw by
    one full-control fractal copy); with disable_gemv the MAD reads the NZ tile mte_l1_l0a wrote. Same A . B."""
    r = Rng(92)
    A, B = rand_mat(r, 1, 48), rand_mat(r, 48, 16)
    save_f16("a.bin", A)
    save_f16("b.bin", B)
    C = matmul(A, B, 1, 16, 48)
    save_f32("expected.bin", C + C)


gl.run_case(gl.cases(globals()), case)
