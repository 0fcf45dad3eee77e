#!/usr/bin/env python3
"""gen_gm.py OUTDIR CASE — inputs and expected bytes for tests/gm (the flat device GM; standard library only).

The layout is the one docs/semantics.md §1 documents: each buffer starts at a 2 MiB boundary, reserving
ALIGN_UP(size, 32) + 32 bytes rounded up to whole 2 MiB pages; bytes outside every buffer read as 0xA5."""
import sys

import genlib as gl

gl.cli(__doc__, 2)
case = sys.argv[2]
GAP = 0xA5
save = gl.save


def pattern(n, mul=7, add=3):
    return bytearray((i * mul + i // 256 + add) & 0xFF for i in range(n))


if case == "read_gap":
    # 64 input bytes, a 256-byte load: the load brings 192 gap bytes along; the store writes all 256.
    src = pattern(64)
    save("src.bin", src)
    save("expected.bin", src + bytearray([GAP] * 192))
elif case == "write_gap":
    # a 256-byte store into a 192-byte buffer, then a 256-byte load back from it into `probe`: the store's
    # last 64 bytes landed in the gap and read back as written; the output file holds the buffer's 192 bytes.
    src = pattern(256, 5, 1)
    save("src.bin", src)
    save("expected_dst.bin", src[:192])
    save("expected_probe.bin", src)
elif case == "clobber":
    # a (64 bytes) at slot 0, b (64 bytes) at the next 2 MiB boundary; 64 bytes written at a + 2 MiB - 32:
    # 32 land in a's gap, 32 overwrite b[0, 32).
    src = pattern(64, 11, 9)
    save("src.bin", src)
    b = bytearray([1] * 64)
    save("expected_b.bin", src[32:] + b[32:])
elif case == "big_slot":
    # a holds 2 MiB - 16 bytes: ALIGN_UP(size, 32) + 32 > 2 MiB, so its slot is 4 MiB and b starts there.
    # 64 bytes written at a + 2 MiB land in a's gap: b is untouched; read back they are as written.
    src = pattern(64, 3, 2)
    save("src.bin", src)
    save("expected_b.bin", bytearray([1] * 64))
    save("expected_probe.bin", src)
elif case == "alias":
    # one 512-byte allocation; parameter 1 points 128 bytes into it (@0+128); the kernel copies
    # p1[0, 128) -> p0[0, 128) and then p0[256, 384) -> p1[256, 384) (= p0[384, 512)).
    a = pattern(512, 13, 1)
    save("a.bin", a)
    e = bytearray(a)
    e[0:128] = a[128:256]
    e[384:512] = a[256:384]
    save("expected.bin", e)
else:
    sys.exit("unknown case " + case)
