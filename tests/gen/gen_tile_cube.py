#!/usr/bin/env python3
"""gen_tile_cube.py OUTDIR CASE — inputs and independently computed expected outputs for tests/tile_cube: the cube
tile ops (tmov mat->left/right, tmatmul, tmatmul.acc, tstore acc->GM) and the MX forms. The reference MAD is
docs/semantics.md §8.4 read in plain Python (fmodel.py): each product rounded once to f32, summed over k ascending
with f32 rounding, starting from 0 (tmatmul), the accumulator (tmatmul.acc) or bias[n]; MX: each value times
2^(scale-127) of its 32-element K group before the product. Nothing is shared with ptosim."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fmodel as fm  # noqa: E402
import genlib as gl  # noqa: E402

f32 = fm.host_f32


def rand_val(r, fmt, lo=-3, hi=1):
    """a random value exactly representable in fmt (f16: 11 significant bits, bf16: 8, f32: 24)"""
    bits = {"f16": 10, "bf16": 7, "f32": 23}[fmt]
    e = lo + r.below(hi - lo + 1)
    v = ((1 << bits) + r.below(1 << bits)) / float(1 << bits) * 2.0 ** e
    return -v if r.below(2) else v


def enc(fmt, mat):
    if fmt == "f16":
        return gl.pack("H", [fm.F16.from_float(v) for row in mat for v in row])
    if fmt == "bf16":
        return gl.pack("H", [fm.BF16.from_float(v) for row in mat for v in row])
    return gl.pack("f", [v for row in mat for v in row])


def matmul(A, B, M, N, K, init=None):
    return [[_dot(A, B, m, n, K, init[m][n] if init else 0.0) for n in range(N)] for m in range(M)]


def _dot(A, B, m, n, K, acc):
    for k in range(K):
        acc = f32(acc + f32(A[m][k] * B[k][n]))
    return acc


def case_mm(fmt, M=16, K=32, N=16, seed=7):
    """C1 = A1·B1 (tmatmul), then C1 += A2·B2 (tmatmul.acc); out = [C after tmatmul ; C after tmatmul.acc]"""
    r = gl.Lcg(seed)
    A1 = [[rand_val(r, fmt) for _ in range(K)] for _ in range(M)]
    B1 = [[rand_val(r, fmt) for _ in range(N)] for _ in range(K)]
    A2 = [[rand_val(r, fmt) for _ in range(K)] for _ in range(M)]
    B2 = [[rand_val(r, fmt) for _ in range(N)] for _ in range(K)]
    gl.save("a1.bin", enc(fmt, A1))
    gl.save("b1.bin", enc(fmt, B1))
    gl.save("a2.bin", enc(fmt, A2))
    gl.save("b2.bin", enc(fmt, B2))
    C1 = matmul(A1, B1, M, N, K)
    C2 = matmul(A2, B2, M, N, K, C1)
    gl.save("expected.bin", gl.pack("f", [v for row in C1 + C2 for v in row]))


def case_mm_f16():
    case_mm("f16", seed=7)


def case_mm_bf16():
    case_mm("bf16", seed=8)


def case_mm_f32():
    case_mm("f32", seed=9)


def case_tl_bf16():
    """tload A [16x32] and B [32x16] into NZ mat tiles (nd2nz), tmov, tmatmul, tstore: out = A·B"""
    r = gl.Lcg(11)
    A = [[rand_val(r, "bf16") for _ in range(32)] for _ in range(16)]
    B = [[rand_val(r, "bf16") for _ in range(16)] for _ in range(32)]
    gl.save("a.bin", enc("bf16", A))
    gl.save("b.bin", enc("bf16", B))
    gl.save("expected.bin", gl.pack("f", [v for row in matmul(A, B, 16, 16, 32) for v in row]))


def case_mat_dn():
    """tload A [16x32] (nd2nz) and B [32x16] from its transpose in GM (a [16, 32] view: dn2nz) into mat tiles, then
    tmatmul on the mat tiles themselves: out = A·B"""
    r = gl.Lcg(12)
    A = [[rand_val(r, "f16") for _ in range(32)] for _ in range(16)]
    B = [[rand_val(r, "f16") for _ in range(16)] for _ in range(32)]
    BT = [[B[k][n] for k in range(32)] for n in range(16)]
    gl.save("a.bin", enc("f16", A))
    gl.save("bt.bin", enc("f16", BT))
    gl.save("expected.bin", gl.pack("f", [v for row in matmul(A, B, 16, 16, 32) for v in row]))


def case_zn_dn():
    """A [16x32] f16 (nd2nz) and B [32x48] f16 from a DN view (GM holds Bfull^T [64][32] row-major, the view's
    columns 16..63) into a ZN mat tile (DN2ZN), tmov to left / right, tmatmul: out = A·B [16x48]"""
    r = gl.Lcg(13)
    A = [[rand_val(r, "f16") for _ in range(32)] for _ in range(16)]
    BT = [[rand_val(r, "f16") for _ in range(32)] for _ in range(64)]   # BT[n][k]
    B = [[BT[16 + n][k] for n in range(48)] for k in range(32)]
    gl.save("a.bin", enc("f16", A))
    gl.save("bt.bin", enc("f16", BT))
    gl.save("expected.bin", gl.pack("f", [v for row in matmul(A, B, 16, 48, 32) for v in row]))


def case_colsplit():
    """two blocks: block b stores A [16x32] · B[:, 16b:16b+16] into columns 16b.. of a 16x32 f32 C (f16 inputs)"""
    r = gl.Lcg(12)
    A = [[rand_val(r, "f16") for _ in range(32)] for _ in range(16)]
    B = [[rand_val(r, "f16") for _ in range(32)] for _ in range(32)]
    gl.save("a.bin", enc("f16", A))
    gl.save("b.bin", enc("f16", B))
    gl.save("expected.bin", gl.pack("f", [v for row in matmul(A, B, 16, 32, 32) for v in row]))


def case_bias_gemv():
    """f16: C = bias + A·B (tmatmul.bias, the sum starts at bias[n]) and y = v·B (tgemv: m = 1, A one contiguous
    row); out = [C (16 rows) ; y (1 row)]. v.bin is v followed by zeros to 1024 bytes (the two fractals the L1 -> L0A
    load of a 1 x 32 tile moves)."""
    r = gl.Lcg(21)
    A = [[rand_val(r, "f16") for _ in range(32)] for _ in range(16)]
    B = [[rand_val(r, "f16") for _ in range(16)] for _ in range(32)]
    bias = [rand_val(r, "f32", 2, 4) for _ in range(16)]
    v = [[rand_val(r, "f16") for _ in range(32)]]
    gl.save("a.bin", enc("f16", A))
    gl.save("b.bin", enc("f16", B))
    gl.save("bias.bin", enc("f32", [bias]))
    gl.save("v.bin", enc("f16", v) + bytes(1024 - 64))
    C = matmul(A, B, 16, 16, 32, [bias] * 16)
    y = matmul(v, B, 1, 16, 32)
    gl.save("expected.bin", gl.pack("f", [x for row in C + y for x in row]))


def case_insert():
    """C = A·B (f16, 16x16x16, f32 accumulation), tinsert into an f16 mat tile (f32 -> f16, round to nearest even),
    read back as D = f16(C)·I through tmov mat -> left, tmatmul with the identity and tstore: out = D (exact: each
    product is x·1 or x·0, each sum adds zeros)."""
    r = gl.Lcg(31)
    A = [[rand_val(r, "f16") for _ in range(16)] for _ in range(16)]
    B = [[rand_val(r, "f16") for _ in range(16)] for _ in range(16)]
    eye = [[1.0 if i == j else 0.0 for j in range(16)] for i in range(16)]
    gl.save("a.bin", enc("f16", A))
    gl.save("b.bin", enc("f16", B))
    gl.save("eye.bin", enc("f16", eye))
    C = matmul(A, B, 16, 16, 16)
    H = [[fm.F16.to_float(fm.F16.from_float(x)) for x in row] for row in C]
    gl.save("expected.bin", gl.pack("f", [x for row in matmul(H, eye, 16, 16, 16) for x in row]))


def case_textract_win():
    """textract windows: C = A[16:32, 0:32]·B[0:32, 16:32], then C += A[16:32, 32:64]·B[32:64, 16:32] (k ascending
    across the two products, f32 accumulation); A [32x64], B [64x48] bf16; out = C"""
    r = gl.Lcg(41)
    A = [[rand_val(r, "bf16") for _ in range(64)] for _ in range(32)]
    B = [[rand_val(r, "bf16") for _ in range(48)] for _ in range(64)]
    gl.save("a.bin", enc("bf16", A))
    gl.save("b.bin", enc("bf16", B))
    A1 = [row[0:32] for row in A[16:32]]
    A2 = [row[32:64] for row in A[16:32]]
    B1 = [row[16:32] for row in B[0:32]]
    B2 = [row[16:32] for row in B[32:64]]
    C = matmul(A2, B2, 16, 16, 32, matmul(A1, B1, 16, 16, 32))
    gl.save("expected.bin", gl.pack("f", [x for row in C for x in row]))


def case_textract_expand():
    """textract into right tiles as the TileLib templates load them (ptosim run --tile-op-expand): B[k][n] =
    src[row + n][col + k], from an NZ mat tile of S2 [32x64] at (0, 16) and from a ZN mat tile of S [32x32] (DN view
    of St in GM) at (0, 0); A [16x32]; out1 = A·B1, out2 = A·B2 (bf16 inputs, f32 accumulation). (The compiler
    bounds the window by the destination's static shape as if untransposed: row + 32 <= the source's rows, col + 16
    <= its columns.)"""
    r = gl.Lcg(43)
    A = [[rand_val(r, "bf16") for _ in range(32)] for _ in range(16)]
    S = [[rand_val(r, "bf16") for _ in range(32)] for _ in range(32)]
    S2 = [[rand_val(r, "bf16") for _ in range(64)] for _ in range(32)]
    St = [[S[j][i] for j in range(32)] for i in range(32)]
    gl.save("a.bin", enc("bf16", A))
    gl.save("s.bin", enc("bf16", S))
    gl.save("s2.bin", enc("bf16", S2))
    gl.save("st.bin", enc("bf16", St))
    B1 = [[S2[n][16 + k] for n in range(16)] for k in range(32)]
    B2 = [[S[n][k] for n in range(16)] for k in range(32)]
    gl.save("expected1.bin", gl.pack("f", [x for row in matmul(A, B1, 16, 16, 32) for x in row]))
    gl.save("expected2.bin", gl.pack("f", [x for row in matmul(A, B2, 16, 16, 32) for x in row]))


def case_pre_scalar():
    """tstore from an acc tile with a pre-quantisation scalar (docs/semantics.md §14.5): C1 = A1·B1 (f16 [16x32] ·
    [32x16], f32 accumulator) stored as f16 with the scale 0.3 (the f32 in the scalar's low 32 bits): y = f32(C1 · s)
    rounded to f16 (nearest even); C2 = A2·B2 (i8 [16x32] · [32x32], i32 accumulator) stored as si8 with the scale
    2^-7 and bit 46 set: y = f32(C2) · s rounded to nearest even, saturated to [-128, 127]"""
    r = gl.Lcg(47)
    A1 = [[rand_val(r, "f16") for _ in range(32)] for _ in range(16)]
    B1 = [[rand_val(r, "f16") for _ in range(16)] for _ in range(32)]
    A2 = [[r.below(16) - 8 for _ in range(32)] for _ in range(16)]
    B2 = [[r.below(16) - 8 for _ in range(32)] for _ in range(32)]
    A2[0] = [100] * 32   # C2[0][0] = 32·100·100 = 320000 -> 2500 saturates to 127; C2[1][0] to -128
    A2[1] = [-100] * 32
    for k in range(32):
        B2[k][0] = 100
    gl.save("a1.bin", enc("f16", A1))
    gl.save("b1.bin", enc("f16", B1))
    gl.save("a2.bin", gl.pack("b", [v for row in A2 for v in row]))
    gl.save("b2.bin", gl.pack("b", [v for row in B2 for v in row]))
    s1 = f32(0.3)
    C1 = matmul(A1, B1, 16, 16, 32)
    out1 = [fm.F16.from_float(f32(c * s1)) for row in C1 for c in row]
    gl.save("expected1.bin", gl.pack("H", out1))

    def rne(v):   # round half to even (v is exact: an integer times 2^-7)
        lo = int(v // 1)
        frac = v - lo
        return lo + 1 if frac > 0.5 or (frac == 0.5 and lo % 2) else lo
    C2 = [[sum(A2[m][k] * B2[k][n] for k in range(32)) for n in range(32)] for m in range(16)]
    out2 = [max(-128, min(127, rne(c * 2.0 ** -7))) for row in C2 for c in row]
    gl.save("expected2.bin", gl.pack("b", out2))


def case_relu_store():
    """tstore from an acc tile with reluPreMode = normal_relu (docs/semantics.md §14.5): C = A·B (f16 [16x32] ·
    [32x16], f32 accumulator, signs mixed); out1 = max(C, +0) as f32 (a -0 or negative becomes +0); out2 = f16 of
    max(f32(C · 0.3), +0): the quant step first, then the relu (§8.5's order), then the conversion"""
    r = gl.Lcg(53)
    A = [[rand_val(r, "f16") for _ in range(32)] for _ in range(16)]
    B = [[rand_val(r, "f16") for _ in range(16)] for _ in range(32)]
    gl.save("a.bin", enc("f16", A))
    gl.save("b.bin", enc("f16", B))
    C = matmul(A, B, 16, 16, 32)
    relu = lambda v: v if v > 0 else 0.0   # noqa: E731  (NaN cannot occur here)
    gl.save("expected1.bin", gl.pack("f", [relu(c) for row in C for c in row]))
    s = f32(0.3)
    gl.save("expected2.bin", gl.pack("H", [fm.F16.from_float(relu(f32(c * s))) for row in C for c in row]))


def mx_dot(A, B, SA, SB, m, n, K, acc):
    """MX: (a·2^(sa-127))·(b·2^(sb-127)) exact (a double holds it), rounded once to f32, then the f32 sum"""
    for k in range(K):
        a = A[m][k] * 2.0 ** (SA[m][k // 32] - 127)
        b = B[k][n] * 2.0 ** (SB[n][k // 32] - 127)
        acc = f32(acc + f32(a * b))
    return acc


def draw_fp8(r, fmt, lo, hi):
    """an fp8 code of fmt whose value is finite with lo <= |value| <= hi (drawn from r until one is)"""
    while True:
        c = r.below(256)
        v = fmt.to_float(c)
        if v == v and abs(v) != float("inf") and lo <= abs(v) <= hi:
            return c


def scale_frags(S, R, G):
    """E8M0 scales S[r][g] in the L1 fragment order of the MX scale loads (semantics §8.3): fragments of 16 rows x
    2 groups, byte ((r/16)·⌈G/2⌉ + g/2)·32 + (r%16)·2 + g%2; rows up to ⌈R/16⌉·16, absent ones 0"""
    G2 = (G + 1) // 2
    out = bytearray(((R + 15) // 16) * G2 * 32)
    for r in range(R):
        for g in range(G):
            out[((r // 16) * G2 + g // 2) * 32 + (r % 16) * 2 + g % 2] = S[r][g]
    return bytes(out)


def pack_fp4(codes):
    """two 4-bit codes per byte, the first (even index) in the low nibble"""
    return bytes((codes[i] & 0xF) | ((codes[i + 1] & 0xF) << 4) for i in range(0, len(codes), 2))


def case_mx_fp4():
    """tmatmul.mx.bias on packed fp4: A [13 x 128] f4E2M1 (tile 16 x 128), B [128 x 12] f4E1M2 (stored 16 wide),
    E8M0 scales 126..128 per 32-element K group (G = 4: two fragments per 16 rows), bias[12]; out = C [13 x 12]
    (the sum starts at bias[n], k ascending)."""
    r = gl.Lcg(41)
    M, K, N, NS = 13, 128, 12, 16
    ca = [[r.below(16) for _ in range(K)] for _ in range(16)]
    cb = [[r.below(16) if n < N else 0 for n in range(NS)] for _ in range(K)]
    for m in range(M, 16):
        ca[m] = [0] * K
    A = [[fm.F4E2M1.to_float(c) for c in row] for row in ca]
    B = [[fm.F4E1M2.to_float(c) for c in row] for row in cb]
    SA = [[126 + r.below(3) for _ in range(4)] for _ in range(M)]
    SB = [[126 + r.below(3) for _ in range(4)] for _ in range(N)]
    bias = [float(r.below(9)) - 4.0 for _ in range(N)]
    gl.save("a.bin", pack_fp4([c for row in ca for c in row]))
    gl.save("b.bin", pack_fp4([c for row in cb for c in row]))
    gl.save("sa.bin", scale_frags(SA, M, 4))
    gl.save("sb.bin", scale_frags(SB, N, 4))
    gl.save("bias.bin", gl.pack("f", bias + [0.0] * (16 - N)))
    C = [[mx_dot(A, B, SA, SB, m, n, K, bias[n]) for n in range(N)] for m in range(M)]
    gl.save("expected.bin", gl.pack("f", [v for row in C for v in row]))


def case_mx_scale_tiles():
    """tgemv.mx whose scales come through e8m0 scale tiles (tests/tile_cube/mx_scale_tiles.pto, after PTOAS sample
    Gemvmx): v [1 x 128] f8E4M3FN, B [128 x 16] f8E5M2 (row-major in GM), v's 4 E8M0 scales as 4 bytes, B's 4 x 16
    scales packed in fragments of 16 columns x 2 groups (byte ((n/16)·2 + g/2)·32 + (n%16)·2 + g%2); y [1 x 16] =
    sum over k ascending of f32((v·2^(sv-127))·(b·2^(sb-127)))."""
    r = gl.Lcg(47)
    K, N = 128, 16

    def fp8(fmt):
        return draw_fp8(r, fmt, 0.125, 8.0)

    cv = [fp8(fm.E4M3) for _ in range(K)]
    cb = [[fp8(fm.E5M2) for _ in range(N)] for _ in range(K)]
    V = [[fm.E4M3.to_float(c) for c in cv]]
    B = [[fm.E5M2.to_float(c) for c in row] for row in cb]
    SV = [[126 + r.below(4) for _ in range(4)]]
    SB = [[126 + r.below(4) for _ in range(4)] for _ in range(N)]
    gl.save("v.bin", bytes(cv))
    gl.save("b.bin", bytes(c for row in cb for c in row))
    gl.save("sv.bin", bytes(SV[0]))
    gl.save("sb.bin", scale_frags(SB, N, 4))
    gl.save("expected.bin", gl.pack("f", [mx_dot(V, B, SV, SB, 0, n, K, 0.0) for n in range(N)]))


def case_mx_k110():
    """tmatmul.mx with k = 110 (tests/tile_cube/mx_k110.pto, after PTOAS sample MatmulMxLowPrecision): A [16 x 110]
    f8E4M3FN, B [110 x 16] f8E5M2 (row-major in GM), scales A [16 x 4] packed [M/16][G/2][16][2], B [4 x 16] packed
    [N/16][G/2][16][2]; C [16 x 16] = the sum over k < 110 (the MAD consumes 128, the padding is zero)."""
    r = gl.Lcg(53)
    M, K, N = 16, 110, 16

    def fp8(fmt):
        return draw_fp8(r, fmt, 0.125, 8.0)

    ca = [[fp8(fm.E4M3) for _ in range(K)] for _ in range(M)]
    cb = [[fp8(fm.E5M2) for _ in range(N)] for _ in range(K)]
    A = [[fm.E4M3.to_float(c) for c in row] for row in ca]
    B = [[fm.E5M2.to_float(c) for c in row] for row in cb]
    SA = [[126 + r.below(4) for _ in range(4)] for _ in range(M)]
    SB = [[126 + r.below(4) for _ in range(4)] for _ in range(N)]
    gl.save("a.bin", bytes(c for row in ca for c in row))
    gl.save("b.bin", bytes(c for row in cb for c in row))
    gl.save("sa.bin", scale_frags(SA, M, 4))
    gl.save("sb.bin", scale_frags(SB, N, 4))
    C = [[mx_dot(A, B, SA, SB, m, n, K, 0.0) for n in range(N)] for m in range(M)]
    gl.save("expected.bin", gl.pack("f", [v for row in C for v in row]))


def case_mx_gemv():
    """tgemv.mx in GEMV mode: v [1 x 128] f8E4M3FN staged raw (one contiguous row, then zeros to the 2048 bytes its
    L1 -> L0A load moves; its 4 scales the first 4 bytes of the scale block), B [128 x 32] f8E5M2 by nd2nz, B's scales in fragments (N = 32: two 16-row fragments); also
    tmatmul.mx (no GEMV: A [16 x 128] e4m3 by nd2nz, fragment scales) against the same right tile. out = [y (1 x 32);
    C (16 x 32)]."""
    r = gl.Lcg(43)
    K, N = 128, 32

    def fp8(fmt, lo, hi):
        return draw_fp8(r, fmt, lo, hi)

    cv = [fp8(fm.E4M3, 0.125, 8.0) for _ in range(K)]
    cb = [[fp8(fm.E5M2, 0.125, 8.0) for _ in range(N)] for _ in range(K)]
    ca = [[fp8(fm.E4M3, 0.125, 8.0) for _ in range(K)] for _ in range(16)]
    V = [[fm.E4M3.to_float(c) for c in cv]]
    B = [[fm.E5M2.to_float(c) for c in row] for row in cb]
    A = [[fm.E4M3.to_float(c) for c in row] for row in ca]
    SV = [[126 + r.below(3) for _ in range(4)]]
    SB = [[126 + r.below(3) for _ in range(4)] for _ in range(N)]
    SA = [[126 + r.below(3) for _ in range(4)] for _ in range(16)]
    gl.save("v.bin", bytes(cv) + bytes(2048 - K))
    gl.save("sv.bin", bytes(SV[0]) + bytes(64 - 4))
    gl.save("b.bin", bytes(c for row in cb for c in row))
    gl.save("sb.bin", scale_frags(SB, N, 4))
    gl.save("a.bin", bytes(c for row in ca for c in row))
    gl.save("sa.bin", scale_frags(SA, 16, 4))
    y = [mx_dot(V, B, SV, SB, 0, n, K, 0.0) for n in range(N)]
    C = [[mx_dot(A, B, SA, SB, m, n, K, 0.0) for n in range(N)] for m in range(16)]
    gl.save("expected.bin", gl.pack("f", y + [v for row in C for v in row]))


out, name = sys.argv[1], sys.argv[2]
gl.OUT = out
gl.run_case(gl.cases(globals()), name)
