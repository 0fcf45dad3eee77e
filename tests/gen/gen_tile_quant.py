#!/usr/bin/env python3
"""gen_tile_quant.py — kernels, inputs and independently computed expected outputs for tests/tile/tile_quant.pto:
tquant (INT8_SYM, INT8_ASYM) and tdequant (i8 and i16 sources).

  python3 gen_tile_quant.py OUTDIR tile_quant    write the inputs and expected outputs
  python3 gen_tile_quant.py --emit DIR           (re)write DIR/tile_quant.pto

Readings (docs/semantics.md "tquant / tdequant"; pto-isa docs/isa/TQUANT.md, TDEQUANT.md, the A5 TileLib
tdequant.py): per row r, tquant gives clamp(round_half_even(x * fp[r, 0] (+ offset[r, 0])), 8-bit range), each
f32 product / sum rounded to nearest-even; tdequant gives (f32(src) - offset[r, 0]) * scale[r, 0], each step f32.
Lanes through fmodel.py (exact rationals) via gen_valu.ref_ew, never through ptosim.
"""
import os
import random
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_valu as G  # noqa: E402
import gen_tile_misc as M  # noqa: E402
import fmodel as R  # noqa: E402

TY = G.TY
K, tile_t, wr = M.K, M.tile_t, M.wr
F32 = TY["f32"]


def f32(x):
    return F32.fmt.encode(R.fin(x))


def rint_clamp(code, lo, hi):
    """f32 code -> nearest integer (ties to even), clamped to [lo, hi]; NaN -> 0"""
    v = G.fdec(F32, code)
    if v.isnan():
        return 0
    if v.isinf():
        return lo if v.neg else hi
    q = round(v.value())   # Fraction rounding: ties to even
    return max(lo, min(hi, q))


def rand_vals(rng, n, lo, hi):
    out = []
    for _ in range(n):
        x = rng.uniform(lo, hi)
        if rng.random() < 0.15:   # exact halves: the ties
            x = int(x) + 0.5
        out.append(f32(x))
    return out


# (name, asym, rows, cols, valid rows, valid cols)
QUANT = [("tquant_sym", False, 16, 64, 16, 64), ("tquant_asym", True, 8, 32, 6, 20)]
# (name, source type, rows, cols, valid rows, valid cols, scale tile columns)
DEQ = [("tdequant_i8", "si8", 8, 64, 8, 50, 1), ("tdequant_i16", "si16", 8, 32, 8, 32, 8)]


def kernels():
    ks = []
    for name, asym, R_, C_, vr, vc in QUANT:
        k = K(name)
        dt = TY["ui8" if asym else "si8"]
        st, ot, pt = tile_t(R_, C_, F32, vr, vc), tile_t(R_, C_, dt, vr, vc), tile_t(R_, 1, F32, vr, 1)
        k.buf("a", R_, C_, F32, tile=st)
        k.buf("s", R_, 1, F32, tile=pt)
        if asym:
            k.buf("o", R_, 1, F32, tile=pt)
            k.body.append("    pto.tquant ins(%%ta, %%ts, %%to : %s, %s, %s) outs(%%td : %s) {quant_type = "
                          "#pto<quant_type INT8_ASYM>}" % (st, pt, pt, ot))
        else:
            k.body.append("    pto.tquant ins(%%ta, %%ts : %s, %s) outs(%%td : %s) {quant_type = "
                          "#pto<quant_type INT8_SYM>}" % (st, pt, ot))
        k.buf("d", R_, C_, dt, out=True, tile=ot)
        k.kind, k.data = "quant", (asym, dt, R_, C_, vr, vc)
        ks.append(k)
    for name, sn, R_, C_, vr, vc, pc in DEQ:
        k = K(name)
        s = TY[sn]
        st, dt, pt = tile_t(R_, C_, s, vr, vc), tile_t(R_, C_, F32, vr, vc), tile_t(R_, pc, F32, vr, 1)
        k.buf("a", R_, C_, s, tile=st)
        k.buf("s", R_, pc, F32, tile=pt)
        k.buf("o", R_, pc, F32, tile=pt)
        k.body.append("    pto.tdequant ins(%%ta, %%ts, %%to : %s, %s, %s) outs(%%td : %s)" % (st, pt, pt, dt))
        k.buf("d", R_, C_, F32, out=True, tile=dt)
        k.kind, k.data = "deq", (s, R_, C_, vr, vc, pc)
        ks.append(k)
    return ks


def quant_write(out, k):
    asym, dt, R_, C_, vr, vc = k.data
    rng = random.Random(sum(map(ord, k.name)))
    a = rand_vals(rng, R_ * C_, -300.0, 300.0)
    a[0], a[1], a[2] = f32(1e30), f32(-1e30), F32.fmt.encode(R.inf(False))
    sc = [f32(rng.choice([0.5, 0.25, 1.0, 2.0, 0.375, 0.1])) for _ in range(R_)]
    off = [f32(rng.choice([128.0, 127.5, 100.25, 0.0])) for _ in range(R_)]
    sc[0], off[0] = f32(1.0), f32(0.0)   # row 0: ties to even both ways
    a[3:9] = [f32(2.5), f32(-2.5), f32(3.5), f32(-0.5), f32(126.5), f32(-128.5)]
    wr(out, k.name + ".a.bin", G.pack(F32, a))
    wr(out, k.name + ".s.bin", G.pack(F32, sc))
    if asym:
        wr(out, k.name + ".o.bin", G.pack(F32, off))
    lo, hi = (0, 255) if asym else (-128, 127)
    d = [0] * (R_ * C_)
    for r in range(vr):
        for c in range(vc):
            v = G.ref_ew("mul", F32, a[r * C_ + c], sc[r])
            if asym:
                v = G.ref_ew("add", F32, v, off[r])
            d[r * C_ + c] = rint_clamp(v, lo, hi) & 0xFF
    wr(out, k.name + ".d.exp", G.pack(dt, d))


def deq_write(out, k):
    s, R_, C_, vr, vc, pc = k.data
    rng = random.Random(sum(map(ord, k.name)))
    a = [rng.randrange(1 << s.bits) for _ in range(R_ * C_)]
    sc = [f32(rng.uniform(-2, 2)) for _ in range(R_ * pc)]
    off = [f32(rng.uniform(-50, 50)) for _ in range(R_ * pc)]
    wr(out, k.name + ".a.bin", G.pack(s, a))
    wr(out, k.name + ".s.bin", G.pack(F32, sc))
    wr(out, k.name + ".o.bin", G.pack(F32, off))
    d = [0] * (R_ * C_)
    for r in range(vr):
        for c in range(vc):
            x = a[r * C_ + c]
            if x >> (s.bits - 1):
                x -= 1 << s.bits
            v = G.ref_ew("sub", F32, f32(Fraction(x)), off[r * pc])
            d[r * C_ + c] = G.ref_ew("mul", F32, v, sc[r * pc])
    wr(out, k.name + ".d.exp", G.pack(F32, d))


WRITE = {"quant": quant_write, "deq": deq_write}


def emit(d):
    ks = kernels()
    header = ["// tile_quant: tquant INT8_SYM (ties, overflow to the 8-bit range, inf) and INT8_ASYM (an offset, a",
              "// valid sub-region), tdequant from i8 (a valid tail) and i16 (coefficients read at (r, 0) of a wider",
              "// row-major tile).",
              "// Generated by tests/gen/gen_tile_quant.py --emit; expected values from gen_tile_quant.py and fmodel.py.",
              "// GEN: gen_tile_quant.py tile_quant"]
    M.emit_file(d, "tile_quant.pto", header, ks, K.run)


if __name__ == "__main__":
    M.main(kernels, WRITE, emit)
