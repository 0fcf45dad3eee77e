#!/usr/bin/env python3
"""gen_entry.py OUTDIR — inputs and expected outputs for tests/entry (standard library only).

in.bin: 64 f32 values k/4 - 8 (exact in f32); twice.bin: each doubled (exact); the copy kernel's output
is in.bin itself."""
import os, struct, sys

out = sys.argv[1]
vals = [k / 4.0 - 8.0 for k in range(64)]
with open(os.path.join(out, "in.bin"), "wb") as f:
    f.write(struct.pack("<64f", *vals))
with open(os.path.join(out, "twice.bin"), "wb") as f:
    f.write(struct.pack("<64f", *[2 * v for v in vals]))
