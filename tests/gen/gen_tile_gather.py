#!/usr/bin/env python3
"""gen_tile_gather.py OUTDIR CASE — inputs and expected outputs for tests/tile/tgather.pto (pto.tgather, index form):
dst[r, c] = the source element whose linear number in the source tile's storage (row-major, 16 columns) is
indices[r, c], over dst's valid region (docs/semantics.md §14.6). The source is an 8x16 f32 tile (128 elements).
Gather 1: a full 8x16 destination and a permutation of 0..127 as indices. Gather 2: a destination with valid region
3x10 of 8x16, indices with repeats (and the first and last element); only the 3x10 window is stored into an output
buffer that starts as 0x7f bytes. Gather 3: an f16 source of 4x32 with i16 indices, full 4x32 destination.
Case badidx: the indices of tests/tile/bad_tgather_idx.pto. Nothing is shared with ptosim."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import genlib as gl  # noqa: E402


def perm(n, a, b):
    """x -> (a * x + b) mod n, a permutation when gcd(a, n) = 1."""
    return [(a * x + b) % n for x in range(n)]


def case_gather():
    R, C = 8, 16
    src = [float(1000 + 100 * r + c) + 0.25 for r in range(R) for c in range(C)]
    # gather 1: a permutation
    i1 = perm(R * C, 37, 11)
    assert sorted(i1) == list(range(R * C))
    out1 = [src[i] for i in i1]
    # gather 2: repeats, partial valid region 3x10
    i2 = [((r * 5 + (c // 3) * 9) % (R * C)) for r in range(R) for c in range(C)]
    i2[0] = 0
    i2[2 * C + 9] = R * C - 1          # the last element, at dst[2, 9]
    i2[1 * C + 4] = i2[1 * C + 5] = 77  # a repeat inside one row
    fill = gl.unpack("f", bytes([0x7f] * 4))[0]
    out2 = [fill] * (R * C)
    for r in range(3):
        for c in range(10):
            out2[r * C + c] = src[i2[r * C + c]]
    # gather 3: f16 source, i16 indices (values exactly representable in f16)
    R3, C3 = 4, 32
    src3 = [float(x) - 64.0 for x in range(R3 * C3)]
    i3 = perm(R3 * C3, 45, 3)
    i3[5] = i3[6] = i3[7] = 100         # repeats
    out3 = [src3[i] for i in i3]
    gl.save("src.bin", gl.pack("f", src))
    gl.save("i1.bin", gl.pack("i", i1))
    gl.save("i2.bin", gl.pack("i", i2))
    gl.save("src3.bin", gl.pack("e", src3))
    gl.save("i3.bin", gl.pack("h", i3))
    gl.save("e1.bin", gl.pack("f", out1))
    gl.save("e2.bin", gl.pack("f", out2))
    gl.save("e3.bin", gl.pack("e", out3))


def case_badidx():
    """tests/tile/bad_tgather_idx.pto: indices 0..127 except 128 at dst[3, 5]."""
    idx = list(range(128))
    idx[3 * 16 + 5] = 128
    gl.save("idx.bin", gl.pack("i", idx))


out, name = sys.argv[1], sys.argv[2]
gl.OUT = out
gl.run_case(gl.cases(globals()), name)
