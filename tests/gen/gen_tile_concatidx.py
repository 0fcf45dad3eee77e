#!/usr/bin/env python3
"""gen_tile_concatidx.py OUTDIR CASE — inputs and expected output for tests/tile/tconcatidx.pto: per row i of an
8x32 f32 destination (initially all 0x7f bytes), n0 = idx0[i] / 4 and n1 = idx1[i] / 4 (i32 index tiles, byte
counts); s0 = min(n0, 32) columns of src0 row i, then s1 = min(n1, 32 - s0) columns of src1 row i; the rest of the
row keeps its bytes (pto-isa a5 TConcatIdx). Nothing is shared with ptosim."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import genlib as gl  # noqa: E402


def case_concatidx():
    R, C = 8, 32
    a = [[1000 + 100 * r + c for c in range(C)] for r in range(R)]
    b = [[-1000 - 100 * r - c for c in range(C)] for r in range(R)]
    n0 = [0, 3, 8, 16, 32, 40, 5, 31]
    n1 = [4, 2, 30, 16, 1, 7, 0, 9]
    idx0 = [4 * n for n in n0]
    idx1 = [4 * n for n in n1]
    fill = gl.unpack("f", bytes([0x7f] * 4))[0]
    out = []
    for r in range(R):
        row = [fill] * C
        s0 = min(n0[r], C)
        s1 = min(n1[r], C - s0)
        row[:s0] = [float(v) for v in a[r][:s0]]
        row[s0:s0 + s1] = [float(v) for v in b[r][:s1]]
        out += row
    gl.save("a.bin", gl.pack("f", [float(v) for row in a for v in row]))
    gl.save("b.bin", gl.pack("f", [float(v) for row in b for v in row]))
    gl.save("i0.bin", gl.pack("i", idx0))
    gl.save("i1.bin", gl.pack("i", idx1))
    gl.save("expected.bin", gl.pack("f", out))


out, name = sys.argv[1], sys.argv[2]
gl.OUT = out
gl.run_case(gl.cases(globals()), name)
