#!/usr/bin/env python3
"""gen_vshift.py OUTDIR CASE — inputs and expected outputs for tests/valu/vshift_signed_counts.pto.

vshl/vshr with signed shift-count vectors (docs/semantics.md §7.4): the count lane's bits are read as an
unsigned number; counts >= the width (negative counts among them) shift every bit out: 0 for vshl and
logical vshr, the sign fill for arithmetic vshr. Written from that rule; shares no code with ptosim."""
import genlib as gl

N = 128


def save(name, vals, fmt):
    gl.save_vals(name, fmt, vals)


def case_counts():
    seed = 12345
    a = []
    for _ in range(N):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        a.append((seed >> 8) & 0xFFFF)
    special = [0, 1, 3, 7, 15, 16, 17, -1, -2, -15, -16, -32768, 100, 32767]
    b = [special[i] if i < len(special) else (i * 7) % 16 for i in range(N)]
    save("a.bin", a, "H")
    save("b.bin", b, "h")
    cu = [c & 0xFFFF for c in b]
    shl = [(x << c) & 0xFFFF if c < 16 else 0 for x, c in zip(a, cu)]
    lshr = [x >> c if c < 16 else 0 for x, c in zip(a, cu)]
    ashr = [((x - 0x10000 if x & 0x8000 else x) >> min(c, 15)) & 0xFFFF for x, c in zip(a, cu)]
    save("expected.bin", shl + lshr + ashr + shl, "H")


gl.main(gl.cases(globals()), __doc__)
