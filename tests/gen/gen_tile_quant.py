#!/usr/bin/env python3
"""gen_tile_quant.py — kernels, inputs and independently computed expected outputs for tests/tile/tile_quant.pto:
tquant (INT8_SYM, INT8_ASYM) and tdequant (i8 and i16 sources); tquant.mx, the MX exponent reorder (tmov with a
tmp tile, DN -> ZZ and ND -> ZZ) and treshape (tests/tile/tile_quant_mx.pto, `--emit-mx`).

  python3 gen_tile_quant.py OUTDIR tile_quant    write the inputs and expected outputs
  python3 gen_tile_quant.py --emit DIR           (re)write DIR/tile_quant.pto
  python3 gen_tile_quant.py --emit-mx DIR        (re)write DIR/tile_quant_mx.pto

Readings (docs/semantics.md "tquant / tdequant"; pto-isa docs/isa/TQUANT.md, TDEQUANT.md, the A5 TileLib
tdequant.py): per row r, tquant gives clamp(round_half_even(x * fp[r, 0] (+ offset[r, 0])), 8-bit range), each
f32 product / sum rounded to nearest-even; tdequant gives (f32(src) - offset[r, 0]) * scale[r, 0], each step f32.
tquant.mx (docs/semantics.md "tquant.mx"; pto-isa a5 TQuant.hpp, the compiler's tquant_mx_dn golden): per group
of 32 (along a row for axis1, down a column for axis0) the largest magnitude m; the shared exponent is, written
here as exact powers of two, OCP: max(floor(log2 m) - 8, -127) + 127 for f32 (-2 for MXFP4 / -8 for MXFP8 on bf16,
in bf16's exponent), NV: clamp(ceil(log2(m * f32(1/448))) + 127, 0, 254); scaling = 2^(127 - shared) (bf16 for a
bf16 source); NaN / inf groups as the reading states. dst = e4m3(x * scaling) saturating, or e2m1(bf16(x *
scaling)), two per byte, the even column in the low nibble. The ZZ orders: DN [cb][p][q][d] = E[2p+d][16cb+q],
ND [rb][p][i][d] = E[16rb+i][2p+d] (rows past the valid ones zero).
Lanes through fmodel.py (exact rationals) via gen_valu.ref_ew / cvt_ref, never through ptosim.
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


# ---------------------------------------------------------------- tquant.mx, the ZZ reorder, treshape

BF16, F16, U8, S8, E4M3, F4 = TY["bf16"], TY["f16"], TY["ui8"], TY["si8"], TY["e4m3"], TY["f4e2m1"]


def e2m1_nearest(code):
    """an f32 code as an e2m1 code by value: the magnitude to the nearest of 0, 0.5, 1, 1.5, 2, 3, 4, 6, 8 (codes 0..8,
    a tie to the even code), at most code 7 (6.0); the sign bit (8) for a negative value, -0 included; NaN: 7"""
    v = G.fdec(F32, code)
    if v.isnan():
        return 7
    grid = [Fraction(x) for x in ("0", "1/2", "1", "3/2", "2", "3", "4", "6", "8")]
    if v.isinf():
        k = 7
    else:
        m = abs(v.value())
        best = min(range(9), key=lambda i: (abs(grid[i] - m), i % 2))
        k = min(best, 7)
    return k | 8 if v.neg else k


def f16_as_bf16(code):
    """an f16 code as the bf16 bits the OCP max reduces: truncated toward zero; inf -> 0x7F80, NaN -> 0x7FC0"""
    a = code & 0x7FFF
    if a & 0x7C00 == 0x7C00:
        return 0x7FC0 if a & 0x3FF else 0x7F80
    return G.cvt_ref(F16, BF16, code, "Z", False)
ZZ = ", slayout=row_major"

# (name, source, MXFP4?, rule, grpAxis 0/1, rows, cols, per-group tiles (rows, cols))
MX = [("mx_f32_ocp_ax1", "f32", False, "ocp", 1, 8, 128, (1, 32)),
      ("mx_f32_nv_ax0", "f32", False, "nv", 0, 64, 32, (2, 32)),
      ("mx_f32_nv_ax1", "f32", False, "nv", 1, 4, 256, (1, 32)),
      ("mx_bf16_fp8_ax0", "bf16", False, "ocp", 0, 32, 64, (1, 64)),
      ("mx_bf16_fp4_ax1", "bf16", True, "ocp", 1, 8, 128, (1, 32)),
      ("mx_f16_fp8_ax1", "f16", False, "ocp", 1, 8, 128, (1, 32)),
      ("mx_f16_fp8_ax0", "f16", False, "ocp", 0, 32, 64, (1, 64)),
      ("mx_bf16_nv_ax0", "bf16", False, "nv", 0, 64, 32, (2, 32)),
      ("mx_f16_nv_ax0", "f16", False, "nv", 0, 32, 64, (1, 64)),
      ("mx_f16_fp4_ax1", "f16", True, "ocp", 1, 8, 128, (1, 32)),
      ("mx_f16_fp4_nv_ax0", "f16", True, "nv", 0, 32, 64, (1, 64)),
      ("mx_bf16_fp4_nv_ax0", "bf16", True, "nv", 0, 64, 32, (2, 32))]


def mx_kernels():
    ks = []
    for name, sn, fp4, rule, ax, R_, C_, (gr, gc) in MX:
        k = K(name)
        S = TY[sn]
        dt = "!pto.tile_buf<vec, %dx%dx!pto.f4E2M1x2>" % (R_, C_ // 2) if fp4 else tile_t(R_, C_, S8)
        k.buf("a", R_, C_, S)
        if fp4:
            k.buf("d", R_, C_ // 2, U8, out=True, tile=tile_t(R_, C_ // 2, U8))
        else:
            k.buf("d", R_, C_, S8, out=True)
        k.buf("e", gr, gc, U8, out=True)
        k.buf("m", gr, gc, S, out=True)
        # the flat axis1 form: the compiler wants scaling's storage to hold a whole vector register (256 bytes)
        flat = ax == 1 and gr == 1 and R_ > 1
        sw = max(gc, 256 // S.bytes) if flat else gc
        st = tile_t(1, sw, S, 1, gc) if flat else tile_t(gr, gc, S)
        k.buf("s", gr, gc, S, out=True, tile=st)
        attrs = "quant_type = #pto<quant_type %s>" % ("MXFP4_E2M1" if fp4 else "MXFP8")
        if rule == "nv":
            attrs += ", quantScaleAlg = #pto<quant_scale_alg nv>"
        if ax == 0:
            attrs += ", grpAxis = #pto<mx_group_axis axis0>"
        gt, mt = tile_t(gr, gc, U8), tile_t(gr, gc, S)
        if fp4:   # the packed destination, stored through a ui8 alias of the same bytes
            k.body.append("    %%tq = pto.alloc_tile : %s" % dt)
        k.body.append("    pto.tquant.mx ins(%%ta : %s) outs(%%%s, %%te, %%tm, %%ts : %s, %s, %s, %s) {%s}"
                      % (tile_t(R_, C_, S), "tq" if fp4 else "td", dt, gt, mt, st, attrs))
        if fp4:
            k.body.append("    %%tq8 = pto.treshape %%tq : %s -> %s" % (dt, tile_t(R_, C_ // 2, U8)))
            k.body.append("    pto.tmov ins(%%tq8 : %s) outs(%%td : %s)" % (tile_t(R_, C_ // 2, U8), tile_t(R_, C_ // 2, U8)))
        k.kind, k.data = "mx", (S, fp4, rule, ax, R_, C_, gr * gc)
        ks.append(k)
    # the exponent reorders: DN -> ZZ (2 x 32 exponents), ND -> ZZ (20 rows x 4, padded to 32 rows; the source's
    # zeroed padding read back through a treshape of its full extent)
    k = K("mx_zz_dn")
    k.buf("e", 2, 32, U8)
    k.buf("z", 1, 64, U8, out=True, tile=tile_t(1, 64, U8, extra=ZZ))
    tmp = tile_t(1, 32, U8, 1, 1)
    k.body += ["    %%tmp = pto.alloc_tile : %s" % tmp,
               "    pto.tmov ins(%%te, %%tmp : %s, %s) outs(%%tz : %s) {grpAxis = #pto<mx_group_axis axis0>}"
               % (tile_t(2, 32, U8), tmp, tile_t(1, 64, U8, extra=ZZ))]
    k.kind, k.data = "zz", (0, 2, 32)
    ks.append(k)
    k = K("mx_zz_nd")
    et, zt, zr = tile_t(1, 128, U8, 1, 80), tile_t(1, 128, U8, extra=ZZ), tile_t(32, 4, U8, 20, 4, ZZ)
    tmp = tile_t(1, 96, U8, 1, 4)
    k.buf("e", 1, 80, U8, tile=et)
    k.buf("z", 1, 128, U8, out=True, tile=zt)
    k.buf("p", 1, 128, U8, out=True)
    k.body += ["    %%tmp = pto.alloc_tile : %s" % tmp,
               "    %%zr = pto.treshape %%tz : %s -> %s" % (zt, zr),
               "    pto.tmov ins(%%te, %%tmp : %s, %s) outs(%%zr : %s)" % (et, tmp, zr),
               "    %%ef = pto.treshape %%te : %s -> %s" % (et, tile_t(1, 128, U8)),
               "    pto.tmov ins(%%ef : %s) outs(%%tp : %s)" % (tile_t(1, 128, U8), tile_t(1, 128, U8))]
    k.kind, k.data = "zz", (1, 20, 4)
    ks.append(k)
    # treshape: a 16x16 f32 tile read as 8x32 (row i of the result = rows 2i, 2i+1), added to an 8x32 tile; and
    # the same bytes as 16x32 si16 lanes moved out unchanged
    k = K("treshape_add")
    k.buf("a", 16, 16, F32)
    k.buf("b", 8, 32, F32)
    k.buf("d", 8, 32, F32, out=True)
    k.buf("h", 16, 32, TY["si16"], out=True)
    t8, th = tile_t(8, 32, F32), tile_t(16, 32, TY["si16"])
    k.body += ["    %%ar = pto.treshape %%ta : %s -> %s" % (tile_t(16, 16, F32), t8),
               "    pto.tadd ins(%%ar, %%tb : %s, %s) outs(%%td : %s)" % (t8, t8, t8),
               "    %%ah = pto.treshape %%ta : %s -> %s" % (tile_t(16, 16, F32), th),
               "    pto.tmov ins(%%ah : %s) outs(%%th : %s)" % (th, th)]
    k.kind = "reshape"
    ks.append(k)
    return ks


def ilog2_floor(v):
    """floor(log2 v) of a positive Fraction, exactly"""
    e = v.numerator.bit_length() - v.denominator.bit_length()
    while Fraction(2) ** e > v:
        e -= 1
    while Fraction(2) ** (e + 1) <= v:
        e += 1
    return e


def mx_shared(S, fp4, rule, m):
    """(exponent byte, scaling code) of a group whose largest magnitude has code m"""
    v = G.fdec(S, m)
    if v.isnan():
        return 0xFF, (0x7FC00000 if S is F32 else (0x7FC0 if fp4 else 0x7F81))
    if S is not F32 and rule == "nv":
        # q = f32(max) * f32(1/448) (1/6 for MXFP4); shared = ceil(log2 q) + 127 for a normal, non-power-of-two q below 2^127 (its
        # exponent field + 1), else the exponent field; scaling 2^(127 - shared) as bf16 bits; inf q: 0xFE and
        # 0x0040, NaN: 0xFF and 0x7F81 (0x7FC0 for MXFP4)
        b = G.ref_ew("mul", F32, G.cvt_ref(S, F32, m, "R", False), f32(Fraction(1, 6 if fp4 else 448)))
        if b == 0x7F800000:
            return 0xFE, 0x0040
        if b > 0x7F800000:
            return 0xFF, 0x7FC0 if fp4 else 0x7F81
        e, man = b >> 23, b & 0x7FFFFF
        sh = e + (1 if man and 0x00400000 < b < 0x7F000000 else 0)
        return sh, ((254 - sh) << 7) & 0xFFFF
    if S is BF16:   # in bf16's exponent field: the largest magnitude's exponent less 2 (fp4) or 8 (fp8), at least 0
        e = 255 if v.isinf() else (m >> 7) & 0xFF
        sh = max(e - (2 if fp4 else 8), 0)
        return sh, (254 - sh) << 7
    if rule == "ocp":
        e = 255 if v.isinf() else (0 if v.value() == 0 else max(ilog2_floor(v.value()) + 127, 0))
        sh = max(e - 8, 0)
        return sh, (254 - sh) << 23
    q = G.fdec(F32, G.ref_ew("mul", F32, m, f32(Fraction(1, 448))))
    if q.isinf():
        return 0xFE, 0x00400000
    if q.value() == 0:
        sh = 0
    else:
        lg = ilog2_floor(q.value())
        up = lg + (Fraction(2) ** lg != q.value())   # ceil(log2 q)
        sh = min(max(up + 127, 0), 254)
    return sh, (254 - sh) << 23


def mx_inputs(S, rng, n, rule):
    v = [S.fmt.encode(R.fin(rng.uniform(-10, 10))) for _ in range(n)]
    return v


def mx_write(out, k):
    S, fp4, rule, ax, R_, C_, ng = k.data
    rng = random.Random(sum(map(ord, k.name)))
    a = mx_inputs(S, rng, R_ * C_, rule)
    gpr = C_ // 32 if ax else C_

    def members(g):
        gr, gc = divmod(g, gpr)
        return [(gr, gc * 32 + i) if ax else (gr * 32 + i, gc) for i in range(32)]

    def put(g, i, x):
        r, c = members(g)[i]
        a[r * C_ + c] = S.fmt.encode(R.fin(x)) if not isinstance(x, int) else x

    # special groups: all zero, tiny (subnormal) magnitudes, an exact power of two, a huge magnitude, a NaN, an
    # infinity, a value whose scaled form saturates
    for i in range(32):
        put(0, i, 0.0 if i % 2 else -0.0)
        put(1, i, rng.uniform(-1, 1) * (2.0 ** -140 if S is F32 else 2.0 ** -20 if S is F16 else 2.0 ** -128))
    put(2, 5, 448.0 if S is F32 else 6.0)
    for i in range(32):
        if i != 5:
            put(2, i, rng.uniform(-4, 4))
    put(3, 7, 60000.0 if S is F16 else 3.0e38)
    nan = 0x7FC00000 if S is F32 else 0x7E00 if S is F16 else 0x7FC0
    inf = 0xFF800000 if S is F32 else 0xFC00 if S is F16 else 0xFF80
    put(4, 9, nan)
    put(5, 11, inf)
    put(6, 0, 7.9)   # bf16 fp4: 7.9 * 1 -> beyond e2m1's 6 (saturates to 6)
    put(7, 3, -1.0e-38 if S is F32 else -1.0e-7 if S is F16 else -3.0e-38)
    wr(out, k.name + ".a.bin", G.pack(S, a))
    mags = []
    exps, scs = [], []
    # f16 groups are reduced as bf16 by OCP (Fp16ToBf16PreserveSpecial), as f16 by NV
    M = BF16 if S is F16 and rule == "ocp" else S
    for g in range(ng):
        codes = [a[r * C_ + c] for r, c in members(g)]
        if S is F16 and rule == "ocp":
            codes = [f16_as_bf16(c) for c in codes]
        absf = [c & ((1 << (M.bits - 1)) - 1) for c in codes]
        nans = [x for x in absf if G.fdec(M, x).isnan()]
        m = nans[0] if nans else max(absf)
        e, sc = mx_shared(M, fp4, rule, m)
        mags.append(m)
        exps.append(e)
        scs.append(sc)
    d = [0] * (R_ * (C_ // 2 if fp4 else C_))
    for r in range(R_):
        for c in range(C_):
            g = r * gpr + c // 32 if ax else (r // 32) * gpr + c
            if S is F16:   # x and the bf16 scaling widened to f32, multiplied in f32
                x = G.ref_ew("mul", F32, G.cvt_ref(F16, F32, a[r * C_ + c], "R", False),
                             G.cvt_ref(BF16, F32, scs[g], "R", False))
            else:
                x = G.ref_ew("mul", S, a[r * C_ + c], scs[g])
            if fp4 and S is F16:
                nib = e2m1_nearest(x)
                d[r * (C_ // 2) + c // 2] |= nib << (4 * (c & 1))
            elif fp4:
                if x & 0x7FFF > 0x7F80:   # a NaN product becomes +inf before the conversion
                    x = 0x7F80
                nib = G.cvt_ref(BF16, F4, x, "R", False) & 0xF
                d[r * (C_ // 2) + c // 2] |= nib << (4 * (c & 1))
            else:
                if S is BF16:
                    x = G.cvt_ref(BF16, F32, x, "R", False)
                d[r * C_ + c] = G.cvt_ref(F32, E4M3, x, "R", True)
    wr(out, k.name + ".d.exp", bytes(d))
    wr(out, k.name + ".e.exp", bytes(exps))
    wr(out, k.name + ".m.exp", G.pack(S, mags))
    wr(out, k.name + ".s.exp", G.pack(S, scs))


def zz_write(out, k):
    ax, R_, C_ = k.data
    rng = random.Random(sum(map(ord, k.name)))
    e = [rng.randrange(256) for _ in range(R_ * C_)]
    wr(out, k.name + ".e.bin", bytes(e))
    if ax == 0:   # DN: [cb][p][q][d] = E[2p + d][16 cb + q]
        z = [e[(2 * p + dd) * C_ + 16 * cb + q] for cb in range(C_ // 16) for p in range(R_ // 2)
             for q in range(16) for dd in range(2)]
        wr(out, k.name + ".z.exp", bytes(z))
        return
    rows = (R_ + 15) // 16 * 16
    padded = e + [0] * ((rows - R_) * C_)
    z = [padded[(16 * rb + i) * C_ + 2 * p + dd] for rb in range(rows // 16) for p in range(C_ // 2)
         for i in range(16) for dd in range(2)]
    wr(out, k.name + ".z.exp", bytes(z + [0] * (128 - len(z))))
    wr(out, k.name + ".p.exp", bytes(padded + [0] * (128 - len(padded))))


def reshape_write(out, k):
    rng = random.Random(7)
    a = [f32(rng.uniform(-100, 100)) for _ in range(256)]
    b = [f32(rng.uniform(-100, 100)) for _ in range(256)]
    wr(out, k.name + ".a.bin", G.pack(F32, a))
    wr(out, k.name + ".b.bin", G.pack(F32, b))
    wr(out, k.name + ".d.exp", G.pack(F32, [G.ref_ew("add", F32, a[i], b[i]) for i in range(256)]))
    wr(out, k.name + ".h.exp", G.pack(F32, a))


WRITE = {"quant": quant_write, "deq": deq_write, "mx": mx_write, "zz": zz_write, "reshape": reshape_write}


def emit(d):
    ks = kernels()
    header = ["// tile_quant: tquant INT8_SYM (ties, overflow to the 8-bit range, inf) and INT8_ASYM (an offset, a",
              "// valid sub-region), tdequant from i8 (a valid tail) and i16 (coefficients read at (r, 0) of a wider",
              "// row-major tile).",
              "// Generated by tests/gen/gen_tile_quant.py --emit; expected values from gen_tile_quant.py and fmodel.py.",
              "// GEN: gen_tile_quant.py tile_quant"]
    M.emit_file(d, "tile_quant.pto", header, ks, K.run)


def emit_mx(d):
    header = ["// tile_quant_mx: tquant.mx (f32 -> MXFP8 by the OCP and NV rules on both group axes, bf16 -> MXFP8 and",
              "// MXFP4, f16 -> MXFP8 by OCP (reduced as bf16, scaled in f32) on both group axes, bf16 and f16 -> MXFP8 by",
              "// NV; zero, subnormal,",
              "// power-of-two, huge, NaN and infinite groups, fp4 saturation), the exponent",
              "// reorders DN -> ZZ and ND -> ZZ (the source's zeroed padding read back), treshape (a shape and a dtype).",
              "// Generated by tests/gen/gen_tile_quant.py --emit-mx; expected values from gen_tile_quant.py and fmodel.py.",
              "// GEN: gen_tile_quant.py tile_quant_mx"]
    M.emit_file(d, "tile_quant_mx.pto", header, mx_kernels(), K.run)


if __name__ == "__main__":
    if sys.argv[1] == "--emit-mx":
        emit_mx(sys.argv[2])
    elif len(sys.argv) > 2 and sys.argv[2] == "tile_quant_mx":
        for k in mx_kernels():
            WRITE[k.kind](sys.argv[1], k)
    else:
        M.main(kernels, WRITE, emit)
