#!/usr/bin/env python3
"""gen_sanitize.py OUTDIR CASE ARGS... — expected bytes for tests/sanitize (standard library only).
  f32_fill BYTES VALUE NAME   a file of BYTES bytes holding VALUE as little-endian f32 in every element"""
import struct, sys, os

out, case = sys.argv[1], sys.argv[2]
if case == "f32_fill":
    n, v, name = int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
    with open(os.path.join(out, name), "wb") as f:
        f.write(struct.pack("<%df" % (n // 4), *([v] * (n // 4))))
else:
    sys.exit("unknown case " + case)
