#!/usr/bin/env python3
"""gen_tile_xops.py OUTDIR CASE — inputs and expected bytes of tests/tile/tile_xops.pto and tile_xops_a2a3.pto
(pto.subview, pto.tgetval / pto.tsetval, pto.tmov of column-major tiles, a2a3 pto.tcvt i32 -> f16), computed from
the ops' definitions (PTOAS docs/PTO_IR_manual.md; pto-isa include/pto/npu/a2a3/TCvt.hpp), never by ptosim."""
import struct
import genlib as g


def i32_input(name, n, seed):
    r = g.Lcg(seed)
    vals = [g.sext(r.next() * 977 + i, 32) for i in range(n)]
    g.save_ints(name, 32, vals)
    return vals


def case_subview():
    a = i32_input("sv.a.bin", 64, 3)                 # an 8x8 i32 tile, row-major
    # window at (2, 0), sizes [4, 8], valid [3, 5], stored into a 4x8 view (only the valid region is written)
    d = [0] * 32
    for r in range(3):
        for c in range(5):
            d[r * 8 + c] = a[(2 + r) * 8 + c]
    g.save_ints("sv.d.exp", 32, d)
    # a one-row window at (5, 0), sizes [1, 4] (valid: the whole window), stored into a 1x8 view's first 4
    e = [0] * 8
    for c in range(4):
        e[c] = a[5 * 8 + c]
    g.save_ints("sv.e.exp", 32, e)


def case_getset():
    a = i32_input("gs.a.bin", 64, 5)
    d = [0] * 64                                      # texpands 0, then dst[27] = a[13] + 1, dst[63] = a[0]
    d[27] = g.sext(a[13] + 1, 32)
    d[63] = a[0]
    g.save_ints("gs.d.exp", 32, d)
    f = [float(i) * 0.25 - 3.0 for i in range(32)]    # f32: dst[5] = src[30]
    g.save_vals("gs.f.bin", "f", f)
    e = [0.0] * 32
    e[5] = f[30]
    g.save_vals("gs.e.exp", "f", e)


def case_colmajor():
    # an 8x1 column-major f32 tile (valid 5x1) and a 16x4 one (valid 13x3): the valid region is copied column
    # by column; the store writes the destination's valid region into a DN view
    a = [float(i) + 0.5 for i in range(8)]
    g.save_vals("cm.a.bin", "f", a)
    g.save_vals("cm.d.exp", "f", a[:5] + [0.0] * 3)
    b = [float(i * 3 - 7) for i in range(64)]        # column c holds b[c*16 : c*16+16]
    g.save_vals("cm.b.bin", "f", b)
    e = [0.0] * 64
    for c in range(3):
        for r in range(13):
            e[c * 16 + r] = b[c * 16 + r]
    g.save_vals("cm.e.exp", "f", e)


def f16_bits(x):
    """IEEE binary16 nearest-even (struct 'e'), overflow to infinity"""
    try:
        return struct.unpack("<H", struct.pack("<e", float(x)))[0]
    except OverflowError:
        return 0x7C00 if x > 0 else 0xFC00


def case_cvt_a2a3():
    vals = [0, 1, -1, 2049, 2051, -2051, 4097, 65504, 65519, 65520, 70000, -70000, 2**31 - 1, -2**31, 12345, -99]
    vals += [g.sext(g.Lcg(7 + i).next() * 131, 32) for i in range(16)]
    g.save_ints("cvt.a.bin", 32, vals)
    g.save_ints("cvt.d.exp", 16, [f16_bits(v) for v in vals])


if __name__ == "__main__":
    g.main(g.cases(globals()), __doc__)
