#!/usr/bin/env python3
"""gen_fp8.py OUTDIR CASE — inputs and hand-computed expected bytes of tests/tile/f8e4m3_twin.pto (case twin): f32
values that e4m3fn holds exactly and their e4m3fn encodings (bias 7, 3 mantissa bits, no infinities), written out
by hand below, not computed by any converter."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import genlib as gl  # noqa: E402

# (value, e4m3fn byte): 1.0 = 0 0111 000; -2.0 = 1 1000 000; 0.5 = 0 0110 000; 448 = 0 1111 110 (1.75 * 2^8, the
# largest finite); 3.0 = 0 1000 100 (1.5 * 2^1); -2^-6 = 1 0001 000 (the smallest normal); 0.0; 240 = 0 1110 111
# (1.875 * 2^7)
TWIN = [(1.0, 0x38), (-2.0, 0xC0), (0.5, 0x30), (448.0, 0x7E), (3.0, 0x44), (-0.015625, 0x88), (0.0, 0x00),
        (240.0, 0x77)]


def case_twin():
    vals = [v for v, _ in TWIN] * 4
    gl.save_vals("in.bin", "f", vals)
    gl.save("expected.bin", bytes([b for _, b in TWIN] * 4))


if __name__ == "__main__":
    gl.main(gl.cases(globals()), __doc__)
