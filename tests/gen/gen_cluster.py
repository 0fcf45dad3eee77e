#!/usr/bin/env python3
"""gen_cluster.py OUTDIR CASE — inputs and independently computed expected outputs for tests/cluster: a cube function
and its vector peer joined by a frontend tile pipe (docs/tile.md "Cube<->vector pipes"). The reference MAD is
docs/semantics.md §8.4 read in plain Python (fmodel.py): each product rounded once to f32, summed over k ascending with
f32 rounding; the vector side's tadds is one f32 addition. Nothing is shared with ptosim."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fmodel as fm  # noqa: E402
import genlib as gl  # noqa: E402

f32 = fm.host_f32


def rand_bf16(r):
    """a random bf16 value (8 significant bits, exponent -3..0)"""
    e = -3 + r.below(4)
    v = ((1 << 7) + r.below(1 << 7)) / 128.0 * 2.0 ** e
    return -v if r.below(2) else v


def enc_bf16(mat):
    return gl.pack("H", [fm.BF16.from_float(v) for row in mat for v in row])


def matmul(A, B, M, N, K):
    out = []
    for m in range(M):
        row = []
        for n in range(N):
            acc = 0.0
            for k in range(K):
                acc = f32(acc + f32(A[m][k] * B[k][n]))
            row.append(acc)
        out.append(row)
    return out


def case_c2v(steps=1, seed=21):
    """A [steps*16 x 32] bf16, B [32 x 16] bf16; step i: C_i = A_i·B pushed from the cube (split up-down: rows 0..7 to
    AIV0, 8..15 to AIV1), each AIV adds 1 and stores its rows: out [steps*16 x 16] f32 = A·B + 1"""
    r = gl.Lcg(seed)
    A = [[rand_bf16(r) for _ in range(32)] for _ in range(16 * steps)]
    B = [[rand_bf16(r) for _ in range(16)] for _ in range(32)]
    gl.save("a.bin", enc_bf16(A))
    gl.save("b.bin", enc_bf16(B))
    C = matmul(A, B, 16 * steps, 16, 32)
    gl.save("expected.bin", gl.pack("f", [f32(v + 1.0) for row in C for v in row]))


def case_c2v_ring():
    """six steps through a ring of two slots: the pushes wait for the frees"""
    case_c2v(steps=6, seed=22)


def case_v2c(seed=23):
    """A [16 x 32] bf16 loaded by the AIVs (rows 8s..8s+7 by AIV s) and pushed to the cube (split up-down), B [32 x 16]:
    out = A·B"""
    r = gl.Lcg(seed)
    A = [[rand_bf16(r) for _ in range(32)] for _ in range(16)]
    B = [[rand_bf16(r) for _ in range(16)] for _ in range(32)]
    # A in the NZ order the vector side's tload reads: column blocks of 16 bf16, each 16 rows of 32 bytes
    gl.save("a.bin", enc_bf16([[A[r][cb * 16 + c] for c in range(16)] for cb in range(2) for r in range(16)]))
    gl.save("b.bin", enc_bf16(B))
    gl.save("expected.bin", gl.pack("f", [v for row in matmul(A, B, 16, 16, 32) for v in row]))


def case_nd2nz():
    """tmov of a row-major 4x16 f32 tile into an NZ 16x16 tile: element (r, c) at (c // 8)·16·8 + r·8 + c % 8 of the
    destination (column blocks of 8 f32, the 4 valid rows rounded up to 16); the rest of the 1 KiB stays 0"""
    vals = [float(r * 16 + c + 1) for r in range(4) for c in range(16)]
    gl.save("a.bin", gl.pack("f", vals))
    img = [0.0] * 256
    for r in range(4):
        for c in range(16):
            img[(c // 8) * 16 * 8 + r * 8 + c % 8] = vals[r * 16 + c]
    gl.save("nz.exp", gl.pack("f", img))


def deq_f16(acc, s, relu=False):
    """deqf16 (docs/semantics.md §8.5 and "FIXPIPE epilogue of a cross-core pipe"): the i32 accumulator as f32 (exact
    here), times the f32 scale rounded once to f32, optionally relu, then to f16 rounding to nearest even and
    saturating (the control register's reset mode)"""
    v = f32(float(acc) * s)
    if relu and v < 0:
        v = 0.0
    return fm.F16.from_float(v, sat=True)


def case_fixpipe_quant(seed=31):
    """A [16 x 32] i8, B [32 x 32] i8, acc = A·B (i32, exact). Three pushes through FIXPIPE epilogues into f16 tiles
    of the vector core: id 0 (deqf16_vec) with the scales fp0, id 1 (deqf16_scalar, normal_relu) with the f32 scale
    0.7, id 0 again after set_quant_vector re-binds it to fp1. Also the rows 8..15 / columns 16..31 window of the acc
    tile stored as i32."""
    r = gl.Lcg(seed)
    A = [[r.below(255) - 127 for _ in range(32)] for _ in range(16)]
    B = [[r.below(255) - 127 for _ in range(32)] for _ in range(32)]
    acc = [[sum(A[m][k] * B[k][n] for k in range(32)) for n in range(32)] for m in range(16)]
    # scales as f16: 0.0625 .. 2.0 with 10-bit mantissas (several products round, the large ones saturate)
    fp0 = [fm.F16.to_float(fm.F16.from_float(0.0625 + n * 0.0611)) for n in range(32)]
    fp1 = [fm.F16.to_float(fm.F16.from_float(-1.0 + n * 0.0957)) for n in range(32)]
    s = f32(0.7)
    gl.save("a.bin", gl.pack("b", [v for row in A for v in row]))
    gl.save("b.bin", gl.pack("b", [v for row in B for v in row]))
    gl.save("fp0.bin", gl.pack("H", [fm.F16.from_float(v) for v in fp0]))
    gl.save("fp1.bin", gl.pack("H", [fm.F16.from_float(v) for v in fp1]))
    gl.save("out0.exp", gl.pack("H", [deq_f16(acc[m][n], fp0[n]) for m in range(16) for n in range(32)]))
    gl.save("out1.exp", gl.pack("H", [deq_f16(acc[m][n], s, relu=True) for m in range(16) for n in range(32)]))
    gl.save("out2.exp", gl.pack("H", [deq_f16(acc[m][n], fp1[n]) for m in range(16) for n in range(32)]))
    gl.save("win.exp", gl.pack("i", [acc[m][n] for m in range(8, 16) for n in range(16, 32)]))


def case_fixpipe_quant_a2a3(seed=33):
    """a2a3: the same i8 matmul, pushed once through deqf16_vec whose scaling tile holds packed ui64 rows: the f32
    scale of column n in the low 32 bits of row n (mantissa bits 12..0 cleared before use: these scales have
    more bits, so the clearing shows), garbage in the high 32 bits (ignored)"""
    r = gl.Lcg(seed)
    A = [[r.below(255) - 127 for _ in range(32)] for _ in range(16)]
    B = [[r.below(255) - 127 for _ in range(32)] for _ in range(32)]
    acc = [[sum(A[m][k] * B[k][n] for k in range(32)) for n in range(32)] for m in range(16)]
    bits = [fm.F32.from_float(f32(0.05 + n * 0.0731)) for n in range(32)]
    rows = [b | (r.below(1 << 31) << 32) for b in bits]
    used = [fm.F32.to_float(b & ~0x1FFF) for b in bits]
    gl.save("a.bin", gl.pack("b", [v for row in A for v in row]))
    gl.save("b.bin", gl.pack("b", [v for row in B for v in row]))
    gl.save("fp.bin", gl.pack("Q", rows))
    gl.save("out.exp", gl.pack("H", [deq_f16(acc[m][n], used[n]) for m in range(16) for n in range(32)]))


def case_mat_row(seed=32):
    """a2a3: a 4 x 32 f16 block through a row-major mat tile (tload GM -> L1, tstore L1 -> GM): unchanged; the
    rest of the 8 x 32 output keeps its zeros"""
    r = gl.Lcg(seed)
    vals = [r.below(1 << 15) for _ in range(4 * 32)]   # f16 bit patterns of positive finite values and zeros
    gl.save("in.bin", gl.pack("H", vals))
    gl.save("out.exp", gl.pack("H", vals + [0] * (4 * 32)))


out, name = sys.argv[1], sys.argv[2]
gl.OUT = out
gl.run_case(gl.cases(globals()), name)
