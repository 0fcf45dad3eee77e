#!/usr/bin/env python3
"""gen_trace.py OUTDIR CASE ARGS — inputs and expected outputs of tests/trace.

  stream BLOCKS N: src.bin = BLOCKS * N rows of 64 i32 (the suite's pseudo-random bytes); expected.bin = every
         lane + 3, wrapping modulo 2^32 (tests/trace/stream.pto: each block adds 3 to its N rows).
"""
import genlib as gl


def case_stream(blocks, n):
    count = int(blocks) * int(n) * 64
    src = gl.unpack("I", gl.lcg_bytes(count * 4, seed=7))
    gl.save_ints("src.bin", 32, src)
    gl.save_ints("expected.bin", 32, [v + 3 for v in src])


CASES = gl.cases(globals())
if __name__ == "__main__":
    gl.main(CASES, __doc__)
