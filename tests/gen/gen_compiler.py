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


def case_loop_aliases():
    # mte_gm_ub len 32, nburst(2, 64, 32), loop1(2, 256, 64), loop2(2, 1024, 128): loop groups nest with the
    # first written innermost; row (i2, i1, r) copies GM bytes [1024·i2 + 256·i1 + 64·r, +32) to UB
    # 128·i2 + 64·i1 + 32·r. The 2048-byte input is bytes i % 251; the UB image (256 bytes) is copied out.
    src = [i % 251 for i in range(2048)]
    ub = [0] * 256
    for i2 in range(2):
        for i1 in range(2):
            for r in range(2):
                s0, d0 = 1024 * i2 + 256 * i1 + 64 * r, 128 * i2 + 64 * i1 + 32 * r
                ub[d0:d0 + 32] = src[s0:s0 + 32]
    save("in.bin", src)
    save("expected.bin", ub)


def case_copy256():
    # a plain 256-byte copy: the output is the input
    data = [(13 * i + 5) & 0xFF for i in range(256)]
    save("in.bin", data)
    save("expected.bin", data)


def case_vldsx2_post():
    # 256 f32 values v[i] = i + 0.5 in UB 0..1023; vldsx2 %p[128] "DINTLV_B32" with the post-update result reads
    # the 512 bytes at p itself (lo = v[0], v[2], ..., v[126]; hi = v[1], ..., v[127]) and returns p + 128
    # elements; a vlds through that pointer reads v[128..191]. Output: lo, hi, the third vector.
    v = [struct.pack("<f", i + 0.5) for i in range(256)]
    save("in.bin", b"".join(v))
    lo = [v[2 * i] for i in range(64)]
    hi = [v[2 * i + 1] for i in range(64)]
    third = v[128:192]
    save("expected.bin", b"".join(lo + hi + third))


def case_uvld():
    # 512 bytes (i*7+1) & 0xFF in UB 0..511; uvld %p[%c37] on an i8 pointer loads the 256 bytes at byte 37
    data = [(7 * i + 1) & 0xFF for i in range(512)]
    save("in.bin", data)
    save("expected.bin", data[37:37 + 256])


def case_l1_l0_named():
    # a 16 x 16 f16 tile (512 bytes, already in the NZ fractal order) copied GM -> L1 -> L0A unchanged: without
    # transpose an L1 -> L0A load of one 16 x 16 fractal keeps its bytes
    data = [(5 * i + 9) & 0xFF for i in range(512)]
    save("in.bin", data)
    save("expected.bin", data)


CASES = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}
CASES[case]()
