#!/usr/bin/env python3
"""gen_ptr_cast.py OUTDIR — input and expected bytes for tests/scalar/ptr_int_cast.pto (Python standard library
only; nothing here runs ptosim). in.bin holds two ui32 words; the kernel reads word 1 and word 0 through pointers
rebuilt by pto.ptrtoint / pto.inttoptr and writes them to out[0] and out[1] (the words swapped), little-endian."""
import os, struct, sys

out = sys.argv[1]
words = [0x11223344, 0xA5A5F00D]
with open(os.path.join(out, "in.bin"), "wb") as f:
    f.write(struct.pack("<2I", *words))
with open(os.path.join(out, "exp.bin"), "wb") as f:
    f.write(struct.pack("<2I", words[1], words[0]))
