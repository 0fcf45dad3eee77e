#!/usr/bin/env python3
"""gen_print.py OUTDIR CASE — inputs of the pto.tprint tests; the expected text is written out by hand in them.
  tprint (tests/tile/tprint.pto): a.bin, 16 f32 values k/2 - 3 (k = 0..15, all exact); b.bin, 16 i16 values
         77k - 300.
  acc    (tests/tile_cube/tprint_acc.pto): a.bin, A [16, 32] f16 with A[m][k] = 32m + k (exact); b.bin, B [32, 16]
         f16 with ones on the diagonal k = n, so A.B holds A's first 16 columns.
  valid_exceeds (tests/tile/valid_exceeds.pto): expected.bin, the relu of 32 negative f32 (+0.0) then 8 bytes of 7."""
import struct, sys

out, case = sys.argv[1], sys.argv[2]
if case == "tprint":
    with open(out + "/a.bin", "wb") as f:
        f.write(struct.pack("<16f", *[k / 2 - 3 for k in range(16)]))
    with open(out + "/b.bin", "wb") as f:
        f.write(struct.pack("<16h", *[77 * k - 300 for k in range(16)]))
elif case == "acc":
    with open(out + "/a.bin", "wb") as f:
        f.write(struct.pack("<512e", *[32 * m + k for m in range(16) for k in range(32)]))
    with open(out + "/b.bin", "wb") as f:
        f.write(struct.pack("<512e", *[1.0 if k == n else 0.0 for k in range(32) for n in range(16)]))
elif case == "valid_exceeds":   # tests/tile/valid_exceeds.pto: relu of 32 f32 0xC0C0C0C0 (negative) is +0.0,
    with open(out + "/expected.bin", "wb") as f:   # then the 8 bytes of 7 the output buffer started with
        f.write(bytes(128) + bytes([7] * 8))
else:
    sys.exit("gen_print.py: unknown case " + case)
