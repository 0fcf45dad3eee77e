#!/usr/bin/env python3
"""gen_cf.py OUTDIR [shared] X Y [X Y ...] — the expected output of tests/syntax/cf_blocks.pto (or, with `shared`,
cf_shared_merge.pto) for each pair of arguments x, y (i32), computed in plain Python (two's-complement i32
wrap-around, little-endian). Shares no code with ptosim.

  cf_blocks:        r = (x > 0) ? ((y > 0) ? x + y : (x + y) * y) : y - x
                    out[0] = r;  out[1] = -1 when r == 0, else r * r      (expected_X_Y.bin, two i32)
  cf_shared_merge:  out[0] = (x > 0) ? ((y > 0) ? x + y : x - y) : 10       (expected_X_Y.bin, one i32)"""
import genlib as gl

words = gl.cli(__doc__, 3)
shared = words[0] == "shared"
if shared:
    words = words[1:]


def w(v):
    return gl.sext(v, 32)


for k in range(0, len(words) - 1, 2):
    x, y = int(words[k]), int(words[k + 1])
    if shared:
        gl.save_vals("expected_%d_%d.bin" % (x, y), "i", [w(x + y if y > 0 else x - y) if x > 0 else 10], gl.OUT)
        continue
    if x > 0:
        a = w(x + y)
        r = a if y > 0 else w(a * y)
    else:
        r = w(y - x)
    gl.save_vals("expected_%d_%d.bin" % (x, y), "i", [r, -1 if r == 0 else w(r * r)], gl.OUT)
