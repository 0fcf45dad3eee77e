#!/usr/bin/env python3
"""gen_tile_extra.py — kernels, inputs and independently computed expected outputs for tests/tile/tile_extra.pto:
the extra tile ops that run (tci, ttri, tconcat, ttrans, taddc, tsubc, taddsc, tsubsc).

  python3 gen_tile_extra.py OUTDIR tile_extra    write the inputs and expected outputs
  python3 gen_tile_extra.py --emit DIR           (re)write DIR/tile_extra.pto

Each kernel loads its sources from GM, runs the op, stores the destination (its buffer starts as zeros, so what
the op must not touch stays zero), without synchronisation (auto-sync). Expected values are computed here in
plain Python from the readings of docs/semantics.md §14.6 (pto-isa docs/isa TCI, TTRI, TCONCAT, TTRANS, TADDC,
TSUBC; the A5 TileLib tci.py / ttri.py / tconcat.py): lanes through gen_valu.ref_ew (fmodel.py, exact rationals),
never through ptosim.
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_valu as G  # noqa: E402
import gen_tile_misc as M  # noqa: E402

TY = G.TY
K, tile_t, wr = M.K, M.tile_t, M.wr


def rand_codes(rng, t, n):
    if t.isf:
        f = t.fmt
        import fmodel as R
        return [f.encode(R.fin(rng.uniform(-100, 100))) & t.mask for _ in range(n)]
    return [rng.randrange(1 << t.bits) for _ in range(n)]


def const_line(name, t, code):
    """an arith.constant of element type t holding code"""
    if t.isf:
        v = t.fmt.decode(code)
        return "    %%%s = arith.constant %r : %s" % (name, float(v.mag) * (-1 if v.neg else 1), t.mlir)
    val = code - (1 << t.bits) if t.signed and code >> (t.bits - 1) else code
    return "    %%%s = arith.constant %d : %s" % (name, val, t.mlir)


# ---------------------------------------------------------------- ternary element-wise ops

TERN = [("taddc", "f32", 8, 64, 6, 45, None), ("tsubc", "i16", 8, 32, 8, 32, None),
        ("taddsc", "f16", 4, 64, 3, 50, 0x3E00), ("tsubsc", "i32", 4, 16, 4, 13, 0xFFFFFF85)]


def tern_kernels():
    ks = []
    for op, tn, R_, C_, vr, vc, sc in TERN:
        t = TY[tn]
        tt = tile_t(R_, C_, t, vr, vc)
        k = K("%s_%s" % (op, tn))
        k.buf("a", R_, C_, t, tile=tt)
        k.buf("b", R_, C_, t, tile=tt)
        if sc is None:
            k.buf("c", R_, C_, t, tile=tt)
        k.buf("d", R_, C_, t, out=True, tile=tt)
        if sc is None:
            k.body.append("    pto.%s ins(%%ta, %%tb, %%tc : %s, %s, %s) outs(%%td : %s)" % (op, tt, tt, tt, tt))
        else:
            k.body.append(const_line("s", t, sc))
            k.body.append("    pto.%s ins(%%ta, %%s, %%tb : %s, %s, %s) outs(%%td : %s)" % (op, tt, t.mlir, tt, tt))
        k.kind, k.data = "tern", (op, t, R_, C_, vr, vc, sc)
        ks.append(k)
    return ks


def tern_write(out, k):
    op, t, R_, C_, vr, vc, sc = k.data
    rng = random.Random(sum(map(ord, k.name)))
    a, b = rand_codes(rng, t, R_ * C_), rand_codes(rng, t, R_ * C_)
    c = rand_codes(rng, t, R_ * C_) if sc is None else None
    wr(out, k.name + ".a.bin", G.pack(t, a))
    wr(out, k.name + ".b.bin", G.pack(t, b))
    if c is not None:
        wr(out, k.name + ".c.bin", G.pack(t, c))
    first = "add" if op in ("taddc", "taddsc") else "sub"
    d = [0] * (R_ * C_)
    for r in range(vr):
        for cc in range(vc):
            i = r * C_ + cc
            if sc is None:   # (src0 op src1) + src2
                x = G.ref_ew(first, t, a[i], b[i])
                d[i] = G.ref_ew("add", t, x, c[i]) & t.mask
            else:            # (src0 op scalar) + src1
                x = G.ref_ew(first, t, a[i], sc)
                d[i] = G.ref_ew("add", t, x, b[i]) & t.mask
    wr(out, k.name + ".d.exp", G.pack(t, d))


# ---------------------------------------------------------------- generators: tci, ttri

def gen_kernels():
    ks = []
    for tn, start, desc, C_, vc in (("i32", -5, False, 64, 40), ("i16", 3, True, 32, 32), ("ui32", 7, False, 16, 9)):
        t = TY[tn]
        tt = tile_t(1, C_, t, 1, vc)
        k = K("tci_%s%s" % (tn, "_desc" if desc else ""))
        k.buf("d", 1, C_, t, out=True, tile=tt)
        k.body.append(const_line("s", t, start & t.mask))
        attr = " {descending = true}" if desc else ""
        k.body.append("    pto.tci ins(%%s : %s) outs(%%td : %s)%s" % (t.mlir, tt, attr))
        k.kind, k.data = "tci", (t, start, desc, C_, vc)
        ks.append(k)
    for tn, diag, upper, R_, C_, vr, vc in (("i32", 2, 0, 16, 32, 12, 30), ("f32", -3, 1, 8, 16, 8, 16),
                                            ("f16", 0, 0, 8, 32, 7, 20), ("i16", 5, 1, 8, 16, 6, 16)):
        t = TY[tn]
        tt = tile_t(R_, C_, t, vr, vc)
        k = K("ttri_%s_%s" % (tn, "upper" if upper else "lower"))
        k.buf("d", R_, C_, t, out=True, tile=tt)
        k.body.append("    %%dg = arith.constant %d : i32" % diag)
        attr = " {upperOrLower = 1 : i32}" if upper else ""
        k.body.append("    pto.ttri ins(%%dg%s : i32) outs(%%td : %s)" % (attr, tt))
        k.kind, k.data = "ttri", (t, diag, upper, R_, C_, vr, vc)
        ks.append(k)
    return ks


def tci_write(out, k):
    t, start, desc, C_, vc = k.data
    d = [0] * C_
    for c in range(vc):
        d[c] = (start - c if desc else start + c) & t.mask
    wr(out, k.name + ".d.exp", G.pack(t, d))


def one(t):
    import fmodel as R
    return t.fmt.encode(R.fin(1.0)) if t.isf else 1


def ttri_write(out, k):
    t, diag, upper, R_, C_, vr, vc = k.data
    d = [0] * (R_ * C_)
    for i in range(vr):
        for j in range(vc):
            on = j >= i + diag if upper else j <= i + diag
            d[i * C_ + j] = one(t) if on else 0
    wr(out, k.name + ".d.exp", G.pack(t, d))


# ---------------------------------------------------------------- moves: tconcat, ttrans

def mov_kernels():
    ks = []
    t = TY["f32"]
    a_t, b_t, d_t = tile_t(8, 16, t, 8, 10), tile_t(8, 16, t, 8, 12), tile_t(8, 32, t, 8, 22)
    k = K("tconcat_f32")
    k.buf("a", 8, 16, t, tile=a_t)
    k.buf("b", 8, 16, t, tile=b_t)
    k.buf("d", 8, 32, t, out=True, tile=d_t)
    k.body.append("    pto.tconcat ins(%%ta, %%tb : %s, %s) outs(%%td : %s)" % (a_t, b_t, d_t))
    k.kind, k.data = "concat", (t,)
    ks.append(k)
    h = TY["f16"]
    s_t, d_t = tile_t(16, 32, h, 12, 20), tile_t(32, 16, h, 20, 12)
    k = K("ttrans_f16")
    k.buf("a", 16, 32, h, tile=s_t)
    k.buf("d", 32, 16, h, out=True, tile=d_t)
    k.body.append("    pto.ttrans ins(%%ta : %s) outs(%%td : %s)" % (s_t, d_t))
    k.kind, k.data = "trans", (h,)
    ks.append(k)
    return ks


def concat_write(out, k):
    t = k.data[0]
    rng = random.Random(sum(map(ord, k.name)))
    a, b = rand_codes(rng, t, 8 * 16), rand_codes(rng, t, 8 * 16)
    wr(out, k.name + ".a.bin", G.pack(t, a))
    wr(out, k.name + ".b.bin", G.pack(t, b))
    d = [0] * (8 * 32)
    for r in range(8):
        for c in range(10):
            d[r * 32 + c] = a[r * 16 + c]
        for c in range(12):
            d[r * 32 + 10 + c] = b[r * 16 + c]
    wr(out, k.name + ".d.exp", G.pack(t, d))


def trans_write(out, k):
    t = k.data[0]
    rng = random.Random(sum(map(ord, k.name)))
    a = rand_codes(rng, t, 16 * 32)
    wr(out, k.name + ".a.bin", G.pack(t, a))
    d = [0] * (32 * 16)
    for i in range(12):
        for j in range(20):
            d[j * 16 + i] = a[i * 32 + j]
    wr(out, k.name + ".d.exp", G.pack(t, d))


# ---------------------------------------------------------------- driver

def kernels():
    return tern_kernels() + gen_kernels() + mov_kernels()


WRITE = {"tern": tern_write, "tci": tci_write, "ttri": ttri_write, "concat": concat_write, "trans": trans_write}


def emit(d):
    ks = kernels()
    header = ["// tile_extra: the extra tile ops that run — taddc/tsubc/taddsc/tsubsc (left to right, valid regions),",
         "// tci (ascending, descending, a valid tail), ttri (lower/upper, positive/negative/zero diagonal, int and",
         "// float ones), tconcat (valid column counts that add up), ttrans (a partial valid region).",
         "// Generated by tests/gen/gen_tile_extra.py --emit; expected values from gen_tile_extra.py and fmodel.py.",
         "// GEN: gen_tile_extra.py tile_extra"]
    M.emit_file(d, "tile_extra.pto", header, ks, K.run)


if __name__ == "__main__":
    M.main(kernels, WRITE, emit)
