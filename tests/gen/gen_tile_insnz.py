#!/usr/bin/env python3
"""gen_tile_insnz.py — inputs and expectations of tests/tile/tinsert_nz.pto and tassign.pto. tinsert_nz: a 16x16 f16 matrix A (row-major in
GM, moved into an NZ vec tile by tmov) inserted by tinsert into a zeroed 32x32 NZ vec tile at (8, 8) and again at
(16, 0). The expectation is the destination's NZ bytes: element (r, c) of a tile of R static rows at
((c / 16) * R + r) * 16 + c % 16 (f16: 16 elements per 32-byte row), dst[8 + i][8 + j] = A[i][j], then
dst[16 + i][j] = A[i][j] (the later insert wins where they overlap). Standard library only."""
import genlib as gl


def nz_image(M, rows, cols):
    out = [0] * (rows * cols)
    for r in range(rows):
        for c in range(cols):
            out[((c // 16) * rows + r) * 16 + c % 16] = M[r][c]
    return out


def case_tinsert_nz():
    r = gl.Lcg(21)
    A = [[float((r.next() % 199) - 99) / 8.0 for _ in range(16)] for _ in range(16)]   # exact in f16
    D = [[0.0] * 32 for _ in range(32)]
    for (r0, c0) in ((8, 8), (16, 0)):
        for i in range(16):
            for j in range(16):
                D[r0 + i][c0 + j] = A[i][j]
    gl.save_vals("a.bin", "e", [v for row in A for v in row])
    gl.save_vals("ub.exp", "e", nz_image(D, 32, 32))


def case_tassign():
    """tests/tile/tassign.pto: x and y (4x64 f32, small integers: exact) loaded through one tile handle before and
    after pto.tassign rebinds it 4 KiB further; out = x + y."""
    r = gl.Lcg(22)
    x = [float((r.next() % 201) - 100) for _ in range(256)]
    y = [float((r.next() % 201) - 100) for _ in range(256)]
    gl.save_vals("x.bin", "f", x)
    gl.save_vals("y.bin", "f", y)
    gl.save_vals("out.exp", "f", [a + b for a, b in zip(x, y)])


CASES = gl.cases(globals())
if __name__ == "__main__":
    gl.main(CASES, __doc__)
