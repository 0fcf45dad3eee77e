#!/usr/bin/env python3
"""gen_abs.py OUTDIR — 32x32 f32 inputs with signs, zeros, -0, inf, NaN, subnormals; expected |x| computed by
clearing the sign bit: IEEE 754 abs is a sign-bit operation that keeps NaN payloads (resolutions §2.5)."""
import genlib as gl

gl.cli(__doc__)
vals = []
x = 12345
for i in range(1024):
    x = (x * 1103515245 + 12345) & 0x7fffffff
    bits = (x << 1 | (i & 1)) & 0xffffffff
    vals.append(bits)
vals[:8] = [0x80000000, 0x00000000, 0xff800000, 0x7f800000, 0x80000001, 0x00000001, 0xc2f60000, 0x42f60000]
def absbits(b):
    return b & 0x7fffffff
gl.save_vals("in.bin", "I", vals)
gl.save_vals("expected.bin", "I", [absbits(v) for v in vals])
