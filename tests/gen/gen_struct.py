#!/usr/bin/env python3
"""gen_struct.py OUTDIR MODE — expected bytes of the stack-local struct run tests in tests/struct/ (Python
standard library only; nothing here runs ptosim).

  run     struct_run.pto: exp_run.bin, 10 i64 slots: each leaf as written (the last write wins), integers
          sign-extended, f32 3.5 and bf16 1.5 as their bit patterns, 7 + 300, and 0 + 1 + 2 + 3 + 4.
  uninit  struct_uninit.pto: exp_uninit.bin, [0, 5]: the unwritten field reads as 0, the written one as 5.
  scope   struct_scope_read.pto: exp_scope.bin, 64 f32 lanes of 2.5 (the value the field held at issue)."""
import os, sys

import fmodel as fm
import genlib as gl


def write_i64(path, vals):
    gl.save_ints(path, 64, vals)


f32_bits = fm.host_f32_bits


def main():
    words = gl.cli(__doc__, 2)
    out, mode = gl.OUT, words[0]
    if mode == "run":
        bf16_15 = f32_bits(1.5) >> 16          # 1.5 is exact in bf16: the top half of its f32 pattern
        vals = [7, f32_bits(3.5), 21, -3, 100, bf16_15, 300, 0x1122334455667788, 7 + 300, sum(range(5))]
        write_i64(os.path.join(out, "exp_run.bin"), vals)
    elif mode == "uninit":
        write_i64(os.path.join(out, "exp_uninit.bin"), [0, 5])
    elif mode == "scope":
        gl.save_vals(os.path.join(out, "exp_scope.bin"), "f", [2.5] * 64)
    else:
        sys.exit("unknown mode " + mode)


if __name__ == "__main__":
    main()
