#!/usr/bin/env python3
"""gen_npy.py OUTDIR — .npy files (good and broken) for the `ptosim run` argument tests, written by hand
from the NumPy format description (magic, version, little-endian header length, dict header, data)."""
import struct

import genlib as gl

gl.cli(__doc__)


def npy(name, descr, shape, data, version=1, header=None):
    h = header if header is not None else "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    pre = 10 if version == 1 else 12
    pad = (64 - (pre + len(h) + 1) % 64) % 64
    h = h + " " * pad + "\n"
    b = b"\x93NUMPY" + bytes([version, 0])
    b += struct.pack("<H", len(h)) if version == 1 else struct.pack("<I", len(h))
    gl.save(name, b + h.encode() + data)


vals = struct.pack("<64f", *[i * 0.5 - 3.0 for i in range(64)])
npy("f32.npy", "<f4", "(8, 8)", vals)
npy("f32_v2.npy", "<f4", "(64,)", vals, version=2)
npy("i16.npy", "<i2", "(64,)", struct.pack("<64h", *range(64)))
npy("short.npy", "<f4", "(8, 8)", vals[:100])
npy("big_endian.npy", ">f4", "(64,)", struct.pack(">64f", *[0.0] * 64))
npy("fortran.npy", "<f4", "(8, 8)", vals, header="{'descr': '<f4', 'fortran_order': True, 'shape': (8, 8), }")
npy("no_shape.npy", "<f4", "", vals, header="{'descr': '<f4', 'fortran_order': False, }")
gl.save("bad_magic.npy", b"NUMPY\x01\x00" + vals)
gl.save("expected_f32.bin", vals)
