#!/usr/bin/env python3
"""gen_cli.py OUTDIR — inputs and expected bytes for the `ptosim run` output and --dump tests in tests/cli
(computed here from what each kernel does by construction; never from ptosim).

  src.bin        1024 bytes, byte i = (37 i + 11) mod 256
  src256.bin     its first 256 bytes (what a 256-byte copy through UB leaves in UB and in the output)
  slices_b4.bin  slices.pto with 4 blocks copies all 1024 bytes
  slice3.bin     the UB of block 3 of slices.pto: bytes [768, 1024) of src.bin
  mixed_l1.bin   dump_mixed.pto: L1 [0, 320) = src.bin [0, 320)
  mixed_ub0.bin  AIV0's UB [0, 192) = L1 [0, 64) + [96, 160) + [192, 256) (2 blocks of 32 bytes, 3 bursts,
                 source gap 1 block)
  mixed_out.bin  the kernel's output: AIV0's UB [0, 256) then AIV1's (never written: zeros)
  zeros256.bin   256 zero bytes (AIV1's UB in dump_mixed.pto)
"""
import genlib as gl

gl.cli(__doc__)
src = bytes((37 * i + 11) % 256 for i in range(1024))
put = gl.save


put("src.bin", src)
put("src256.bin", src[:256])
put("slices_b4.bin", src)
put("slice3.bin", src[768:1024])
put("mixed_l1.bin", src[:320])
ub0 = src[0:64] + src[96:160] + src[192:256]
put("mixed_ub0.bin", ub0)
put("mixed_out.bin", ub0 + bytes(64) + bytes(256))
put("zeros256.bin", bytes(256))
