#!/usr/bin/env python3
"""gen_entry.py OUTDIR — inputs and expected outputs for tests/entry (standard library only).

in.bin: 64 f32 values k/4 - 8 (exact in f32); twice.bin: each doubled (exact); the copy kernel's output
is in.bin itself."""
import genlib as gl

gl.cli(__doc__)
vals = [k / 4.0 - 8.0 for k in range(64)]
gl.save_vals("in.bin", "f", vals)
gl.save_vals("twice.bin", "f", [2 * v for v in vals])
