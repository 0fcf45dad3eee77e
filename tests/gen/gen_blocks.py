#!/usr/bin/env python3
"""gen_blocks.py OUTDIR CASE — inputs and independently computed expected outputs for tests/blocks, the
launches whose blocks depend on each other through GM. Blocks behave as if they ran one after another in
block order (docs/semantics.md, "Blocks on threads"), whatever the number of threads, so the expectation is
the serial one, computed here in plain Python without ptosim.

  chain: a buffer of 9 rows of 64 i32 (row k = pseudo-random values); block b (of 8) loads row b, adds 3 to
         every lane (wrapping modulo 2^32) and stores it as row b + 1. In block order row k ends as
         row 0 + 3k; a block that read its row before the block before it wrote it would give row k + 3.
  trap:  4 blocks copy their 256-byte slice of src to dst; block 1 aims its store past the end of dst and
         traps (T-OOB, strict GM), so the launch stops there: dst holds block 0's slice and zeros after it.
  gm_gap: 4 blocks copy their 256-byte slice of src to dst and into dst's gap (dst + 1024 + 256b); block b
         then copies the gap bytes dst + [1024, 2048) to out[1024b, +1024): slices 0..b, then the gap byte
         0xA5. Each block's slice also goes to dst + 2 MiB - 128, whose second half lands in out[0, 128)
         (the next allocation, 2 MiB after dst): after block 0's own out store there, blocks 1..3 overwrite
         it in turn, so out[0, 128) ends as bytes [128, 256) of slice 3.
  onchip_zeroed: 4 blocks first copy UB [0, 256) and [204800, +256) out to out[512b, +512), then fill those
         UB bytes from src: every block starts with zeroed on-chip memory, so out is all zeros.
"""
import struct, sys

import genlib as gl

gl.cli(__doc__, 2)
case = sys.argv[2]


save = gl.save
pattern = gl.lcg_bytes       # deterministic pseudo-random bytes (the generator of gen_dma.py)


if case == "chain":
    rows, lanes = 9, 64
    buf = pattern(rows * lanes * 4, seed=7)
    save("buf.bin", buf)
    row0 = struct.unpack("<64I", bytes(buf[:256]))
    exp = bytearray()
    for k in range(rows):
        exp += struct.pack("<64I", *[(v + 3 * k) & 0xffffffff for v in row0])
    save("expected.bin", exp)
elif case == "trap":
    src = pattern(1024, seed=3)
    save("src.bin", src)
    save("expected.bin", src[:256] + bytes(768))
elif case == "gm_gap":
    src = pattern(1024, seed=5)
    save("src.bin", src)
    save("expected_dst.bin", src)
    sl = [src[256 * b:256 * b + 256] for b in range(4)]
    res = bytearray()
    for b in range(4):
        res += b"".join(sl[:b + 1]) + bytes([0xA5]) * (256 * (3 - b))
    res[0:128] = sl[3][128:256]
    save("expected_out.bin", res)
elif case == "onchip_zeroed":
    save("src.bin", pattern(512, seed=11))
    save("expected.bin", bytes(2048))
else:
    sys.exit("unknown case " + case)
