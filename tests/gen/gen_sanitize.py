#!/usr/bin/env python3
"""gen_sanitize.py OUTDIR CASE ARGS... — expected bytes for tests/sanitize (standard library only).
  f32_fill BYTES VALUE NAME   a file of BYTES bytes holding VALUE as little-endian f32 in every element"""
import genlib as gl


def case_f32_fill(n, v, name):
    gl.save_vals(name, "f", [float(v)] * (int(n) // 4))


gl.main(gl.cases(globals()), __doc__)
