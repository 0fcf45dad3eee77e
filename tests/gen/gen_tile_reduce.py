#!/usr/bin/env python3
"""gen_tile_reduce.py — kernels, inputs and independently computed expected outputs for tests/tile/tile_reduce.pto:
the row and column reductions (sum, max, min, prod, argmax, argmin), the expand families (trowexpand,
tcolexpand, their add/sub/mul/div/max/min/expdif forms) and the partial ops (tpartadd, tpartmax).

  python3 gen_tile_reduce.py OUTDIR tile_reduce   write the inputs and expected outputs
  python3 gen_tile_reduce.py --emit DIR           (re)write DIR/tile_reduce.pto

Every kernel loads its sources from GM, runs one op and stores its destination tile whole into a zeroed buffer
(what the op must not write stays zero). The expected values follow the order the A5 TileLib templates compute
in, as docs/semantics.md §14.2 states it, written here from that text with fmodel.py's exact arithmetic (no
code shared with ptosim):
  row sum: each 256-byte chunk of a row summed as a pairwise tree over the register's lanes (absent lanes +0,
    every partial sum rounded), the chunk sums added in order to an accumulator starting at +0;
  row max/min: the chunk extrema combined with max/min starting from the lowest (highest) finite value;
  row prod: lane-wise products over the chunks, then log2(lanes) steps of (lhs, rhs) = interleave(acc, 1),
    acc = lhs * rhs;
  row argmax/argmin: a chunk's first best lane replaces the running best only when strictly better;
  column reductions: row 0, then each row combined in order; argmax/argmin: the first strictly better row;
  expands: dst[r][c] = op(src0[r][c], src1[r][0]) (row) or op(src0[r][c], src1[0][c]) (column); expdif on
    f32 is exp(a - b) of the exact difference rounded once, on f16 exp of the rounded f16 difference;
    tcolexpanddiv on i16 divides in f32 and truncates;
  tpartadd: op(full, part) inside the partial source's region, the full source elsewhere; tpartmax: the lowest
    finite value, src0's region over it, then max with src1 over src1's region.
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fmodel as R  # noqa: E402
import gen_tile_misc as M  # noqa: E402
import gen_valu as G  # noqa: E402

TY = G.TY
K, tile_t, wr = M.K, M.tile_t, M.wr


# ---------------------------------------------------------------- lane helpers (fmodel / plain integers)

def sx(t, v):
    v &= t.mask
    return v - (1 << t.bits) if t.signed and v >> (t.bits - 1) else v


def add(t, a, b):
    return t.fmt.add(a, b) if t.isf else (a + b) & t.mask


def mul(t, a, b):
    return t.fmt.mul(a, b) if t.isf else (sx(t, a) * sx(t, b)) & t.mask


def sub(t, a, b):
    return t.fmt.sub(a, b) if t.isf else (a - b) & t.mask


def div(t, a, b):
    if t.isf:
        return t.fmt.div(a, b)
    x, y = sx(t, a), sx(t, b)
    q = -1 if y == 0 else abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)
    return q & t.mask


def less(t, a, b):
    if t.isf:
        return t.fmt.cmpf(a, b, "olt")
    return sx(t, a) < sx(t, b)


def vmax(t, a, b):
    return t.fmt.maximum(a, b) if t.isf else (a if sx(t, a) >= sx(t, b) else b)


def vmin(t, a, b):
    return t.fmt.minimum(a, b) if t.isf else (a if sx(t, a) <= sx(t, b) else b)


def lowest(t):
    """the templates' pad_min: the lowest finite value (0 for unsigned)"""
    if t.isf:
        return {"f32": 0xFF7FFFFF, "f16": 0xFBFF, "bf16": 0xFF7F}[t.name]
    return (1 << (t.bits - 1)) if t.signed else 0


def highest(t):
    if t.isf:
        return {"f32": 0x7F7FFFFF, "f16": 0x7BFF, "bf16": 0x7F7F}[t.name]
    return (1 << (t.bits - 1)) - 1 if t.signed else t.mask


def one(t):
    return t.fmt.encode(R.fin(1)) if t.isf else 1


def tree(t, v):
    while len(v) > 1:
        v = [add(t, v[2 * i], v[2 * i + 1]) for i in range(len(v) // 2)]
    return v[0]


def better(t, x, y, want_max):
    """chunk extremum search: x replaces the current best y when strictly better"""
    return less(t, y, x) if want_max else less(t, x, y)


def chunk_best(t, vals, want_max):
    bi = 0
    for i in range(1, len(vals)):
        if better(t, vals[i], vals[bi], want_max):
            bi = i
    return vals[bi], bi


# ---------------------------------------------------------------- reductions

def row_reduce(op, t, rows):
    out = []
    L = t.lanes
    for row in rows:
        chunks = [row[c:c + L] for c in range(0, len(row), L)]
        if op == "sum":
            acc = 0
            for ch in chunks:
                acc = add(t, acc, tree(t, ch + [0] * (L - len(ch))) if t.isf else sum(ch) & t.mask)
            out.append(acc)
        elif op in ("max", "min"):
            acc = lowest(t) if op == "max" else highest(t)
            for ch in chunks:
                b, _ = chunk_best(t, ch, op == "max")
                acc = vmax(t, acc, b) if op == "max" else vmin(t, acc, b)
            out.append(acc)
        elif op == "prod":
            acc = [one(t)] * L
            for ch in chunks:
                for i, v in enumerate(ch):
                    acc[i] = mul(t, acc[i], v)
            n = L
            while n > 1:
                lo = [x for i in range(L // 2) for x in (acc[i], one(t))]
                hi = [x for i in range(L // 2) for x in (acc[L // 2 + i], one(t))]
                acc = [mul(t, a, b) for a, b in zip(lo, hi)]
                n //= 2
            out.append(acc[0])
        else:   # argmax / argmin
            want = op == "argmax"
            best, idx = lowest(t) if want else highest(t), 0
            for ci, ch in enumerate(chunks):
                b, bi = chunk_best(t, ch, want)
                if better(t, b, best, want):
                    best, idx = b, ci * L + bi
            out.append(idx)
    return out


def col_reduce(op, t, rows):
    cols = len(rows[0])
    out = []
    for c in range(cols):
        acc, idx = rows[0][c], 0
        for r in range(1, len(rows)):
            v = rows[r][c]
            if op == "sum":
                acc = add(t, acc, v)
            elif op == "prod":
                acc = mul(t, acc, v)
            elif op in ("max", "argmax"):
                if op == "argmax" and better(t, v, acc, True):
                    idx = r
                acc = vmax(t, acc, v)
            else:
                if op == "argmin" and better(t, v, acc, False):
                    idx = r
                acc = vmin(t, acc, v)
        out.append(idx if op.startswith("arg") else acc)
    return out


# ---------------------------------------------------------------- inputs

def rand_vals(t, rng, n, kind="mixed"):
    if t.isf:
        f = t.fmt
        vals = []
        for _ in range(n):
            if kind == "near1":
                x = rng.uniform(0.9, 1.1)
            elif kind == "small":
                x = rng.uniform(-4, 4)
            else:   # mixed magnitudes: the summation order shows in the last bits
                x = rng.uniform(-1, 1) * 2.0 ** rng.randint(-6, 6 if t.bits == 16 else 12)
            vals.append(f.encode(R.fin(R.Fraction(x))))
        return vals
    if kind == "small":
        return [rng.randint(-9, 9) & t.mask if t.signed else rng.randint(1, 9) for _ in range(n)]
    return [rng.randrange(1 << t.bits) for _ in range(n)]


def grid(a, rows, cols, vr, vc):
    return [[a[r * cols + c] for c in range(vc)] for r in range(vr)]


# ---------------------------------------------------------------- kernels

RED = [
    # (op, dtype, dst dtype, rows, cols, valid rows, valid cols, input kind)
    ("trowsum", "f32", "f32", 4, 200, 3, 150, "mixed"),
    ("trowsum", "f16", "f16", 2, 320, 2, 300, "mixed"),
    ("trowsum", "i16", "i16", 3, 160, 3, 150, "raw"),
    ("trowmax", "f32", "f32", 4, 136, 4, 130, "mixed"),
    ("trowmin", "i32", "i32", 3, 80, 3, 70, "raw"),
    ("trowprod", "f32", "f32", 2, 160, 2, 150, "near1"),
    ("trowprod", "i32", "i32", 2, 80, 2, 75, "small"),
    ("trowargmax", "f32", "ui32", 4, 160, 4, 150, "ties"),
    ("trowargmin", "f16", "i32", 3, 288, 3, 270, "ties"),
    ("tcolsum", "f16", "f16", 6, 160, 5, 150, "mixed"),
    ("tcolmax", "i8", "i8", 5, 64, 5, 60, "raw"),
    ("tcolmin", "ui16", "ui16", 4, 48, 4, 40, "raw"),
    ("tcolprod", "f32", "f32", 5, 72, 5, 70, "near1"),
    ("tcolargmax", "f32", "i32", 6, 72, 6, 70, "ties"),
    ("tcolargmin", "ui8", "i32", 5, 64, 5, 50, "raw"),
]


def red_kernels():
    ks = []
    for op, s, d, rows, cols, vr, vc, kind in RED:
        S, D = TY[s], TY[d]
        k = K("%s_%s" % (op, s))
        row = op.startswith("trow")
        dr, dc, dvr, dvc = (rows, 8, vr, 1) if row else (1, cols, 1, vc)
        if D.bytes == 1 and row:
            dc = 32
        if D.bytes == 2 and row:
            dc = 16
        st = tile_t(rows, cols, S, vr, vc)
        dt = tile_t(dr, dc, D, dvr, dvc)
        k.buf("a", rows, cols, S, tile=st)
        k.buf("d", dr, dc, D, out=True, tile=dt)
        if row:
            k.bufs.append(("t", rows, cols, S, False, st, False))
            k.body.append("    pto.%s ins(%%ta, %%tt : %s, %s) outs(%%td : %s)" % (op, st, st, dt))
        else:
            k.body.append("    pto.%s ins(%%ta : %s) outs(%%td : %s)" % (op, st, dt))
        k.kind, k.data = "red", (op, S, D, rows, cols, vr, vc, kind, dr, dc)
        ks.append(k)
    return ks


class DynK(K):
    """a kernel whose source tile has a run-time valid shape (alloc_tile valid_row = .. valid_col = ..)"""

    def text(self):
        vr, vc = self.dyn
        self.consts |= {vr, vc}
        L = K.text(self)
        return [ln.replace("%ta = pto.alloc_tile :", "%%ta = pto.alloc_tile valid_row = %%c%d valid_col = %%c%d :" % (vr, vc))
                for ln in L]


def dyn_kernels():
    """trowsum and trowargmin on a source with a dynamic valid shape, into a col_major N x 1 destination"""
    ks = []
    for op, s, d in (("trowsum", "f32", "f32"), ("trowargmin", "f32", "i32")):
        S, D = TY[s], TY[d]
        rows, cols, vr, vc = 6, 200, 5, 170
        k = DynK("%s_dyn_%s" % (op, s))
        k.dyn = (vr, vc)
        st = "!pto.tile_buf<vec, %dx%dx%s, valid=?x?>" % (rows, cols, S.mlir)
        # the column of a col_major none_box tile is a multiple of 32 bytes (the compiler's alloc_tile rule)
        trows = -(-rows * D.bytes // 32) * 32 // D.bytes
        dt = "!pto.tile_buf<vec, %dx1x%s, valid=%dx1, blayout=col_major>" % (trows, D.mlir, vr)
        k.buf("a", rows, cols, S, tile=st)
        k.buf("d", rows, 1, D, out=True, tile=dt)
        k.body.append("    pto.%s ins(%%ta : %s) outs(%%td : %s)" % (op, st, dt))
        k.kind, k.data = "red", (op, S, D, rows, cols, vr, vc, "mixed" if op == "trowsum" else "ties", rows, 1)
        ks.append(k)
    return ks


def red_write(out, k):
    op, S, D, rows, cols, vr, vc, kind, dr, dc = k.data
    rng = random.Random(sum(map(ord, k.name)))
    a = rand_vals(S, rng, rows * cols, "small" if kind == "ties" else kind)
    if kind == "ties":   # equal extrema in different chunks / rows: the first wins
        g = S.fmt.encode(R.fin(100)) if S.isf else 100
        lo = S.fmt.encode(R.fin(-100)) if S.isf else (-100 & S.mask if S.signed else 0)
        for r in range(vr):
            for c in (3, vc - 2) if op.startswith("trow") else ():
                a[r * cols + c] = g if op == "trowargmax" else lo
        if op.startswith("tcol"):
            for c in range(0, vc, 3):
                a[1 * cols + c] = a[4 * cols + c] = g if op == "tcolargmax" else lo
    if k.name == "trowmax_f32":   # an all -inf row: the accumulator's start (the lowest finite value) wins
        ninf = S.fmt.encode(R.inf(True))
        for c in range(cols):
            a[2 * cols + c] = ninf
    g = grid(a, rows, cols, vr, vc)
    name = op[4:]
    d = [0] * (dr * dc)
    if op.startswith("trow"):
        for r, v in enumerate(row_reduce(name, S, g)):
            d[r * dc] = v & D.mask
    else:
        for c, v in enumerate(col_reduce(name, S, g)):
            d[c] = v & D.mask
    wr(out, k.name + ".a.bin", G.pack(S, a))
    wr(out, k.name + ".d.exp", G.pack(D, d))


EXP = [
    # (op, dtype, rows, cols, valid rows, valid cols)
    ("trowexpand", "f32", 8, 104, 8, 70),
    ("tcolexpand", "i16", 5, 144, 5, 130),
    ("trowexpandsub", "f32", 6, 80, 6, 70),
    ("trowexpanddiv", "f16", 4, 160, 4, 150),
    ("trowexpandexpdif", "f32", 4, 72, 4, 70),
    ("trowexpandexpdif", "f16", 4, 144, 4, 130),
    ("tcolexpandmul", "i32", 4, 72, 4, 70),
    ("tcolexpanddiv", "i16", 4, 144, 4, 130),
    ("tcolexpandmax", "f32", 5, 72, 5, 70),
    ("tcolexpandadd", "bf16", 3, 144, 3, 140),
    ("trowexpandmul", "i16", 3, 144, 3, 130),
    ("trowexpandmax", "f16", 3, 144, 3, 140),
    ("trowexpandmin", "i8", 3, 288, 3, 270),
    ("trowexpandadd", "i32", 3, 72, 3, 70),
    ("tcolexpandmin", "f32", 3, 72, 3, 66),
    ("tcolexpandsub", "i16", 3, 144, 3, 130),
    ("tcolexpandexpdif", "f32", 3, 72, 3, 70),
    ("tcolexpandexpdif", "f16", 3, 144, 3, 130),
]


def exp_kernels():
    ks = []
    for op, s, rows, cols, vr, vc in EXP:
        t = TY[s]
        k = K("%s_%s" % (op, s))
        row = op.startswith("trow")
        dt = tile_t(rows, cols, t, vr, vc)
        bc = 32 // t.bytes
        bt = tile_t(rows, bc, t, vr, 1) if row else tile_t(1, cols, t, 1, vc)
        if op in ("trowexpand", "tcolexpand"):
            k.buf("b", rows if row else 1, bc if row else cols, t, tile=bt)
            k.buf("d", rows, cols, t, out=True, tile=dt)
            k.body.append("    pto.%s ins(%%tb : %s) outs(%%td : %s)" % (op, bt, dt))
        else:
            k.buf("a", rows, cols, t, tile=dt)
            k.buf("b", rows if row else 1, bc if row else cols, t, tile=bt)
            k.buf("d", rows, cols, t, out=True, tile=dt)
            k.body.append("    pto.%s ins(%%ta, %%tb : %s, %s) outs(%%td : %s)" % (op, dt, bt, dt))
        k.kind, k.data = "exp", (op, t, rows, cols, vr, vc, bc)
        ks.append(k)
    return ks


def exp_lane(op, t, a, b):
    name = op[len("trowexpand"):] if op.startswith("trow") else op[len("tcolexpand"):]
    if name == "add":
        return add(t, a, b)
    if name == "sub":
        return sub(t, a, b)
    if name == "mul":
        return mul(t, a, b)
    if name == "max":
        return vmax(t, a, b)
    if name == "min":
        return vmin(t, a, b)
    if name == "div":
        if t.name == "i16":   # in f32, truncated, low 16 bits
            q = R.F32.div(R.F32.encode(R.fin(sx(t, a))), R.F32.encode(R.fin(sx(t, b))))
            return R.to_int_wrap(R.F32.decode(q), "Z", 16, True) & t.mask
        return div(t, a, b)
    if name == "expdif":
        if t.name == "f32":
            return R.f_exp_of(R.F32, R.v_sub(t.fmt.decode(a), t.fmt.decode(b)))
        return R.f_exp_of(t.fmt, t.fmt.decode(t.fmt.sub(a, b)))
    raise ValueError(op)


def exp_write(out, k):
    op, t, rows, cols, vr, vc, bc = k.data
    rng = random.Random(sum(map(ord, k.name)))
    row = op.startswith("trow")
    kind = "small" if "expdif" in op or "mul" in op or t.name == "i16" else "mixed"
    a = rand_vals(t, rng, rows * cols, kind)
    b = rand_vals(t, rng, rows * bc if row else cols, kind)
    if "div" in op and not t.isf:
        b = [v if sx(t, v) else 3 for v in b]
    d = [0] * (rows * cols)
    for r in range(vr):
        for c in range(vc):
            bv = b[r * bc] if row else b[c]
            d[r * cols + c] = bv if op in ("trowexpand", "tcolexpand") else exp_lane(op, t, a[r * cols + c], bv)
    if op not in ("trowexpand", "tcolexpand"):
        wr(out, k.name + ".a.bin", G.pack(t, a))
    wr(out, k.name + ".b.bin", G.pack(t, b))
    wr(out, k.name + ".d.exp", G.pack(t, d))


PART = [
    # (op, dtype, rows, cols, src0 valid, src1 valid, dst valid)
    ("tpartadd", "f32", 8, 64, (8, 64), (5, 40), (8, 64)),
    ("tpartadd", "f32", 8, 64, (4, 64), (8, 64), (8, 64)),
    ("tpartadd", "i16", 8, 64, (3, 64), (8, 64), (8, 64)),
    ("tpartmax", "f32", 8, 64, (6, 30), (4, 50), (8, 64)),
    ("tpartmin", "i32", 8, 64, (7, 20), (2, 60), (7, 60)),
    ("tpartmul", "f32", 8, 64, (8, 64), (8, 20), (8, 64)),
]


def part_kernels():
    ks = []
    for op, s, rows, cols, v0, v1, vd in PART:
        t = TY[s]
        k = K("%s_%s_%dx%d" % (op, s, v1[0], v1[1]))
        t0, t1, td = tile_t(rows, cols, t, *v0), tile_t(rows, cols, t, *v1), tile_t(rows, cols, t, *vd)
        k.buf("a", rows, cols, t, tile=t0)
        k.buf("b", rows, cols, t, tile=t1)
        k.buf("d", rows, cols, t, out=True, tile=td)
        k.body.append("    pto.%s ins(%%ta, %%tb : %s, %s) outs(%%td : %s)" % (op, t0, t1, td))
        k.kind, k.data = "part", (op, t, rows, cols, v0, v1, vd)
        ks.append(k)
    return ks


def part_write(out, k):
    op, t, rows, cols, v0, v1, vd = k.data
    rng = random.Random(sum(map(ord, k.name)))
    a, b = rand_vals(t, rng, rows * cols), rand_vals(t, rng, rows * cols)
    d = [0] * (rows * cols)
    f = {"tpartadd": add, "tpartmul": mul, "tpartmax": vmax, "tpartmin": vmin}[op]
    inside = lambda v, r, c: r < v[0] and c < v[1]   # noqa: E731
    for r in range(vd[0]):
        for c in range(vd[1]):
            i = r * cols + c
            if op in ("tpartadd", "tpartmul"):
                full0 = v0 == vd
                fv, pv, pvalid = (a[i], b[i], v1) if full0 else (b[i], a[i], v0)
                d[i] = (f(t, fv, pv) if full0 else f(t, fv, pv)) if inside(pvalid, r, c) else fv
            else:
                v = a[i] if inside(v0, r, c) else (lowest(t) if op == "tpartmax" else highest(t))
                d[i] = f(t, v, b[i]) if inside(v1, r, c) else v
    wr(out, k.name + ".a.bin", G.pack(t, a))
    wr(out, k.name + ".b.bin", G.pack(t, b))
    wr(out, k.name + ".d.exp", G.pack(t, d))


# ---------------------------------------------------------------- driver

def kernels():
    return red_kernels() + dyn_kernels() + exp_kernels() + part_kernels()


WRITE = {"red": red_write, "exp": exp_write, "part": part_write}


def emit(d):
    ks = kernels()
    header = ["// tile_reduce: row/column reductions (sum, max, min, prod, argmax, argmin) with valid tails over several",
         "// 256-byte chunks, ties, an all -inf row, a dynamic valid shape and a col_major N x 1 destination; the",
         "// expand families (row/column, add/sub/mul/div/max/min/expdif; f32/f16/bf16/i8/i16/i32; i16 division",
         "// through f32); tpartadd/tpartmul/tpartmax/tpartmin with partial sources.",
         "// Generated by tests/gen/gen_tile_reduce.py --emit; expected values from gen_tile_reduce.py and fmodel.py.",
         "// GEN: gen_tile_reduce.py tile_reduce"]
    M.emit_file(d, "tile_reduce.pto", header, ks, K.run)


if __name__ == "__main__":
    M.main(kernels, WRITE, emit)
