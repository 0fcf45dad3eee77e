#!/usr/bin/env python3
"""gen_tile_axpy.py OUTDIR CASE — inputs and expected outputs for tests/tile/taxpy.pto: dst = a * x + dst over a
4x32 tile, one rounding (pto-isa TAXPY: the vaxpy lane); f32 tiles with a = 1.5, and an f16 source with an f16
a = -0.75 into an f32 destination (x and a widened to f32 exactly, then the f32 fma). Nothing is shared with ptosim."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fmodel as fm  # noqa: E402
import genlib as gl  # noqa: E402


def vals(r, n, fmt):
    out = []
    for _ in range(n):
        e = r.below(6) - 3
        v = ((1 << 10) + r.below(1 << 10)) / 1024.0 * 2.0 ** e
        out.append(fmt.from_float(-v if r.below(2) else v))
    return out


def f32_case():
    r = gl.Lcg(51)
    x = [c | r.below(1 << 13) for c in vals(r, 128, fm.F32)]   # full 24-bit significands
    y = vals(r, 128, fm.F32)
    a = fm.F32.from_float(1.5)
    gl.save_ints("f32.x.bin", 32, x)
    gl.save_ints("f32.y.bin", 32, y)
    gl.save_ints("f32.exp", 32, [fm.F32.fma(a, xi, yi) for xi, yi in zip(x, y)])


def mixed_case():
    r = gl.Lcg(52)
    x = vals(r, 128, fm.F16)
    y = vals(r, 128, fm.F32)
    a = fm.F32.from_float(-0.75)
    wide = [fm.F16.convert(xi, fm.F32) for xi in x]
    gl.save_ints("mixed.x.bin", 16, x)
    gl.save_ints("mixed.y.bin", 32, y)
    gl.save_ints("mixed.exp", 32, [fm.F32.fma(a, xi, yi) for xi, yi in zip(wide, y)])


def case_taxpy():
    f32_case()
    mixed_case()


out, name = sys.argv[1], sys.argv[2]
gl.OUT = out
gl.run_case(gl.cases(globals()), name)
