#!/usr/bin/env python3
"""tests/gen/gen_tile_dn.py OUTDIR — data of the column-major (DN) tile tests (expected values by construction):

tests/tile/tmov_dn.pto: an 8x5 f32 matrix stored column-major in GM (element (r, c) at c * 8 + r, value
100 * c + r + 0.5) is loaded into a column-major tile, copied by pto.tmov into another one and stored back
column-major: the output is the input itself (d.exp), and the 32 floats after it in the output buffer stay zero.

tests/tile/trowexpand_dn.pto: an 8x1 column (value 3 * r - 7.25 in row r) loaded into a column-major 8x1 tile and
broadcast by pto.trowexpand into an 8x16 row-major tile: row r of the output is 16 copies of element r (e.exp)."""
import os, struct, sys

out = sys.argv[1]


def wr(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


vals = [100.0 * c + r + 0.5 for c in range(5) for r in range(8)]
wr("a.bin", struct.pack("<40f", *vals))
wr("d.exp", struct.pack("<40f", *vals) + bytes(128))

col = [3.0 * r - 7.25 for r in range(8)]
wr("col.bin", struct.pack("<8f", *col))
wr("e.exp", struct.pack("<128f", *[col[r] for r in range(8) for _ in range(16)]))
