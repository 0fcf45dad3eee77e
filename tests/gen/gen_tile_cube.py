#!/usr/bin/env python3
"""gen_tile_cube.py OUTDIR CASE — inputs and independently computed expected outputs for tests/tile_cube: the cube
tile ops (tmov mat->left/right, tmatmul, tmatmul.acc, tstore acc->GM). The reference MAD is docs/semantics.md §8.4
read in plain Python (fmodel.py): each product rounded once to f32, summed over k ascending with f32 rounding,
starting from 0 (tmatmul) or the accumulator (tmatmul.acc). Nothing is shared with ptosim."""
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


out, name = sys.argv[1], sys.argv[2]
gl.OUT = out
gl.run_case(gl.cases(globals()), name)
