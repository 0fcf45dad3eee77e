#!/usr/bin/env python3
"""tests/gen/gen_tmov_dn.py OUTDIR — data of tests/tile/tmov_dn.pto: an 8x5 f32 matrix stored column-major in GM
(element (r, c) at c * 8 + r, value 100 * c + r + 0.5). The kernel loads it into a column-major tile, copies it with
pto.tmov into another one and stores it back column-major, so the expected output is the input itself (d.exp); the
32 floats after it in the output buffer stay zero (the copy touches nothing outside the valid region)."""
import os, struct, sys

out = sys.argv[1]
vals = [100.0 * c + r + 0.5 for c in range(5) for r in range(8)]
data = struct.pack("<40f", *vals)
with open(os.path.join(out, "a.bin"), "wb") as f:
    f.write(data)
with open(os.path.join(out, "d.exp"), "wb") as f:
    f.write(data + bytes(128))
