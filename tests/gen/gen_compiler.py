#!/usr/bin/env python3
"""gen_compiler.py OUTDIR CASE — inputs and independently computed expected outputs for tests/compiler/: the
forms and spellings the public compiler accepts (docs/semantics.md §11). Plain Python from the readings
recorded there; it shares no code with ptosim and never uses its output."""
import os, struct, sys

out, case = sys.argv[1], sys.argv[2]


def save(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(bytes(data))


def case_pad_in_scope():
    # 8 rows of 40 input bytes (0x11) into 64-byte UB rows; the rest of each row is the pad value
    # f16 -1.5 = 0xBE00 (little-endian 00 BE), written by set_mov_pad_val inside a vector scope
    row = [0x11] * 40 + [0x00, 0xBE] * 12
    save("expected.bin", row * 8)


def case_pldi_folded():
    # 32 bytes of a known pattern; pldi at UB 4096 with NORM offset -2 (32-byte units) reads them back from
    # 4032, psti at UB 0 with offset 1100 writes them at 35200: the output is the input
    data = [(7 * i + 3) & 0xFF for i in range(32)]
    save("in.bin", data)
    save("expected.bin", data)


CASES = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}
CASES[case]()
