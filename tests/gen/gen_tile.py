#!/usr/bin/env python3
"""gen_tile.py — kernels, inputs and independently computed expected outputs for the tile-layer tests in
tests/tile/ (docs/tile.md).

  python3 gen_tile.py OUTDIR FILE     write the inputs and expected outputs of tests/tile/FILE.pto
  python3 gen_tile.py --emit DIR      (re)write every generated tests/tile/*.pto from the case tables below

Every kernel is a tile kernel as the compiler's system tests write them: views over GM buffers, alloc_tile
without addresses (the allocator places them), tload, the op under test, tstore, no synchronisation (auto-sync
orders them). The destination buffer starts as zeros, so bytes outside the valid region the kernel stores must
stay zero. Expected lanes come from fmodel.py / gen_valu.py's lane reference (exact rationals), which
share no code with ptosim; the tile-level readings (valid regions, packed predicates, pads) are those of
docs/tile.md and docs/semantics.md §14, written again here in plain Python.
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_valu as G  # noqa: E402
import fmodel as fm  # noqa: E402
import genlib as gl  # noqa: E402

TY = G.TY

# ---------------------------------------------------------------- cases


class Case:
    """One kernel. ins: the input tiles (names); scal: a scalar parameter type name or None; rows/cols: the tile
    shape; vr/vc: its valid region (dyn: dynamic, passed as i32 parameters); layout 'row' or 'col'."""

    def __init__(self, name, op, t, rows, cols, vr, vc, nin=2, scal=None, layout="row", dyn=False, attrs="",
                 ref=None, scalars=(None,), extra_ins="", tdst=None):
        self.name, self.op, self.t, self.rows, self.cols, self.vr, self.vc = name, op, t, rows, cols, vr, vc
        self.nin, self.scal, self.layout, self.dyn, self.attrs, self.ref = nin, scal, layout, dyn, attrs, ref
        self.scalars, self.extra_ins = scalars, extra_ins
        self.tdst = tdst or t


BIN = [("tadd", "add"), ("tsub", "sub"), ("tmul", "mul"), ("tmax", "max"), ("tmin", "min"), ("tdiv", "div")]
BITS = [("tand", "and"), ("tor", "or"), ("txor", "xor"), ("tshl", "shl"), ("tshr", "shr")]
UN_F = [("tabs", "abs"), ("tneg", "neg"), ("texp", "exp"), ("tlog", "ln"), ("tsqrt", "sqrt"), ("trsqrt", "rsqrt"),
        ("trecip", "rec"), ("trelu", "relu")]
UN_I = [("tabs", "abs"), ("tneg", "neg"), ("trelu", "relu"), ("tnot", "not")]
SCAL = [("tadds", "add"), ("tsubs", "sub"), ("tmuls", "mul"), ("tmaxs", "max"), ("tmins", "min"), ("tdivs", "div")]
SCAL_I = [("tands", "and"), ("tors", "or"), ("txors", "xor"), ("tshls", "shl"), ("tshrs", "shr")]


def ew_cases():
    cs = []
    for op, r in BIN:
        for tn in ("f32", "f16", "i32", "i16"):
            if op == "tdiv" and tn == "i16":
                continue
            cs.append(Case("%s_%s" % (op, tn), op, TY[tn], 8, 64, 7, 50, ref=r))
    for op, r in BITS:
        for tn in ("i32", "i16", "ui8"):
            cs.append(Case("%s_%s" % (op, tn), op, TY[tn], 4, 64, 4, 61, ref=r))
    for op, r in UN_F:
        for tn in ("f32", "f16"):
            cs.append(Case("%s_%s" % (op, tn), op, TY[tn], 8, 32, 5, 32, nin=1, ref=r))
    for op, r in UN_I:
        for tn in ("i32", "i16"):
            cs.append(Case("%s_%s" % (op, tn), op, TY[tn], 8, 32, 8, 20, nin=1, ref=r))
    for op, r in SCAL:
        for tn in ("f32", "f16", "i32"):
            cs.append(Case("%s_%s" % (op, tn), op, TY[tn], 6, 64, 6, 33, nin=1, scal=tn, ref=r, scalars=("a", "b")))
    for op, r in SCAL_I:
        st = "i16" if op in ("tshls", "tshrs") else "i32"
        cs.append(Case("%s_i32" % op, op, TY["i32"], 4, 64, 3, 64, nin=1, scal=st, ref=r, scalars=("a", "b")))
    cs.append(Case("tdivs_lhs_f32", "tdivs", TY["f32"], 4, 32, 4, 17, nin=1, scal="f32", ref="rdiv", scalars=("a",)))
    cs.append(Case("tprelu_f32", "tprelu", TY["f32"], 4, 64, 4, 64, ref="prelu", extra_ins="tmp"))
    cs.append(Case("tlrelu_f32", "tlrelu", TY["f32"], 4, 64, 4, 40, nin=1, scal="f32", ref="lrelu", scalars=("a",)))
    cs.append(Case("tlrelu_f16", "tlrelu", TY["f16"], 4, 64, 4, 40, nin=1, scal="f32", ref="lrelu", scalars=("a",)))
    cs.append(Case("trem_f32", "trem", TY["f32"], 4, 32, 4, 32, ref="rem", extra_ins="tmp"))
    cs.append(Case("tfmod_f32", "tfmod", TY["f32"], 4, 32, 4, 32, ref="fmod"))
    cs.append(Case("trems_f16", "trems", TY["f16"], 4, 32, 4, 32, nin=1, scal="f16", ref="rems", scalars=("a",),
                   extra_ins="tmp"))
    cs.append(Case("tfmods_f32", "tfmods", TY["f32"], 4, 32, 4, 32, nin=1, scal="f32", ref="fmods", scalars=("a",)))
    cs.append(Case("tdiv_i32_zero", "tdiv", TY["i32"], 2, 16, 2, 16, ref="div"))
    return cs


def layout_cases():
    return [
        Case("tadd_col_f32", "tadd", TY["f32"], 16, 8, 13, 8, layout="col", ref="add"),
        Case("tmul_dyn_f32", "tmul", TY["f32"], 8, 64, None, None, dyn=True, ref="mul"),
        Case("tsub_dyn_i16", "tsub", TY["i16"], 4, 128, None, None, dyn=True, ref="sub"),
    ]


# ---------------------------------------------------------------- reference


def soft_div_i(t, a, b):
    """signed integer division rounded toward zero; MIN / -1 wraps; a zero divisor gives -1 (docs/semantics.md
    §12, the compiler's soft division)"""
    sa, sb = gl.sext(a, t.bits), gl.sext(b, t.bits)
    if sb == 0:
        return t.mask
    q = abs(sa) // abs(sb)
    if (sa < 0) != (sb < 0):
        q = -q
    return q & t.mask


def lane(c, a, b):
    t = c.t
    r = c.ref
    if r == "div" and not t.isf:
        return soft_div_i(t, a, b)
    if r == "rdiv":
        return G.ref_ew("div", t, b, a)
    if r in ("rem", "fmod", "rems", "fmods"):
        # _remainder.py: q = trunc/floor(a / b) (vdiv, then vtrc F or Z), r = a - q * b; f32 tile-tile (trem and
        # tfmod alike) adds b when
        # the result's sign differs from b's
        f = t.fmt
        q = f.encode(fm.v_div(f.decode(a), f.decode(b)))
        Q = f.decode(q)
        if Q.kind == "f":
            v = Q.value()
            n = int(v) if v >= 0 else -int(-v)          # toward zero
            if r in ("rem", "rems") and Fraction(n) != v and v < 0:
                n -= 1                                  # floor
            q = f.encode(fm.fin(Fraction(n), n == 0 and Q.neg))
        p = f.encode(fm.v_mul(f.decode(q), f.decode(b)))
        res = f.encode(fm.v_sub(f.decode(a), f.decode(p)))
        if r in ("rem", "fmod") and t is TY["f32"]:
            m = f.decode(f.encode(fm.v_mul(f.decode(b), f.decode(res))))
            if m.kind != "n" and m.neg and not m.iszero():
                res = f.encode(fm.v_add(f.decode(res), f.decode(b)))
        return res
    return G.ref_ew(r, t, a, b)


Fraction = fm.Fraction


def inputs(c, rng, n):
    t = c.t
    kind = "pos" if c.ref in ("ln", "sqrt", "rsqrt") else "any"
    a = [G.rand_code(rng, t, kind) for _ in range(n)]
    if c.ref in ("shl", "shr"):
        b = [rng.randrange(0, t.bits + 3) for _ in range(n)]
    elif c.ref in ("rem", "fmod", "rems", "fmods"):
        b = [G.rand_code(rng, t, "any") for _ in range(n)]
    else:
        b = [G.rand_code(rng, t, "any") for _ in range(n)]
    if c.name == "tdiv_i32_zero":
        b = [0 if i % 3 == 0 else (t.mask if i % 3 == 1 else b[i]) for i in range(n)]
        a[0] = 1 << (t.bits - 1)
    return a, b


def scalar_code(c, rng, which):
    st = TY[c.scal]
    if c.op in ("tshls", "tshrs"):
        return {"a": 3, "b": 40}[which]
    if c.op == "tlrelu":
        return fm.F32.encode(fm.fin(Fraction(1, 8 if which == "a" else 3)))
    code = G.rand_code(random.Random(sum(map(ord, c.name + which)) * 104729), st, "any")
    if st.isf:
        code = G.canon_scalar(st, code)
        if st.fmt.decode(code).kind != "f":
            code = st.fmt.encode(fm.fin(Fraction(3, 2)))
    return code


def lrelu_slope(c, s):
    """tlrelu's f32 slope converted to the tile's element type (nearest-even), as the template coerces it"""
    if c.t is TY["f32"]:
        return s
    return c.t.fmt.encode(fm.F32.decode(s))


# ---------------------------------------------------------------- kernel text


def ttype(c, vr=None, vc=None, t=None):
    t = t or c.t
    vr = c.vr if vr is None else vr
    vc = c.vc if vc is None else vc
    s = "!pto.tile_buf<vec, %dx%dx%s" % (c.rows, c.cols, t.mlir)
    if c.dyn:
        s += ", valid=?x?"
    elif (vr, vc) != (c.rows, c.cols):
        s += ", valid=%dx%d" % (vr, vc)
    if c.layout == "col":
        s += ", blayout=col_major"
    return s + ">"


def view_lines(c, name, ptr, t, vr, vc):
    """a rank-2 view of the valid region of a GM buffer laid out like the tile"""
    T = t.mlir
    if c.layout == "row":
        strides = "%%c%d, %%c1" % c.cols
    else:
        strides = "%%c1, %%c%d" % c.rows
    shape = "%s, %s" % (vr, vc)
    dims = "%sx%s" % ("?" if c.dyn else vr[2:], "?" if c.dyn else vc[2:])
    return ["    %%%s_v = pto.make_tensor_view %%%s, shape = [%s], strides = [%s] : !pto.tensor_view<%sx%s>"
            % (name, ptr, shape, strides, dims, T),
            "    %%%s_p = pto.partition_view %%%s_v, offsets = [%%c0, %%c0], sizes = [%s] : !pto.tensor_view<%sx%s> "
            "-> !pto.partition_tensor_view<%sx%s>" % (name, name, shape, dims, T, dims, T)]


def kernel_text(c):
    T = c.t.mlir
    params = ["%%%s: !pto.ptr<%s>" % (n, T) for n in ("a", "b")[:c.nin]]
    if c.scal:
        params.append("%%s: %s" % TY[c.scal].mlir)
    params.append("%%d: !pto.ptr<%s>" % c.tdst.mlir)
    if c.dyn:
        params += ["%vr32: i32", "%vc32: i32"]
    L = ["  func.func @%s(%s) attributes {pto.kernel} {" % (c.name, ", ".join(params))]
    consts = sorted({0, 1, c.rows, c.cols} | (set() if c.dyn else {c.vr, c.vc}))
    for k in consts:
        L.append("    %%c%d = arith.constant %d : index" % (k, k))
    if c.dyn:
        L.append("    %vr = arith.index_cast %vr32 : i32 to index")
        L.append("    %vc = arith.index_cast %vc32 : i32 to index")
        vr, vc = "%vr", "%vc"
    else:
        vr, vc = "%%c%d" % c.vr, "%%c%d" % c.vc
    dyn_alloc = " valid_row = %s valid_col = %s" % (vr, vc) if c.dyn else ""
    tins = []
    for n in ("a", "b")[:c.nin]:
        L += view_lines(c, n, n, c.t, vr, vc)
        L.append("    %%t%s = pto.alloc_tile%s : %s" % (n, dyn_alloc, ttype(c)))
        L.append("    pto.tload ins(%%%s_p : %s) outs(%%t%s : %s)" % (n, pview(c, c.t), n, ttype(c)))
        tins.append("t" + n)
    L += view_lines(c, "d", "d", c.tdst, vr, vc)
    L.append("    %%td = pto.alloc_tile%s : %s" % (dyn_alloc, ttype(c, t=c.tdst)))
    ins, types = ["%" + n for n in tins], [ttype(c)] * len(tins)
    if c.scal:
        if c.op == "tdivs" and c.ref == "rdiv":
            ins.insert(0, "%s")
            types.insert(0, TY[c.scal].mlir)
        else:
            ins.append("%s")
            types.append(TY[c.scal].mlir)
    if c.extra_ins == "tmp":
        L.append("    %%tt = pto.alloc_tile : %s" % ttype(c))
        ins.append("%tt")
        types.append(ttype(c))
    L.append("    pto.%s ins(%s%s : %s) outs(%%td : %s)" % (c.op, ", ".join(ins), c.attrs, ", ".join(types),
                                                           ttype(c, t=c.tdst)))
    L.append("    pto.tstore ins(%%td : %s) outs(%%d_p : %s)" % (ttype(c, t=c.tdst), pview(c, c.tdst)))
    L.append("    return")
    L.append("  }")
    return L


def pview(c, t):
    dims = "?x?" if c.dyn else "%dx%d" % (c.vr, c.vc)
    return "!pto.partition_tensor_view<%sx%s>" % (dims, t.mlir)


DYN_RUNS = {"tmul_dyn_f32": [(8, 64), (3, 17), (0, 5)], "tsub_dyn_i16": [(4, 128), (2, 1)]}


def runs(c):
    """(run tag, scalar which, (vr, vc)) of a case"""
    if c.dyn:
        return [("%s_%dx%d" % (c.name, r, k), None, (r, k)) for r, k in DYN_RUNS[c.name]]
    return [("%s_%s" % (c.name, w) if w else c.name, w, (c.vr, c.vc)) for w in c.scalars]


def run_lines(c):
    out = []
    nbytes = c.rows * c.cols * c.tdst.bytes
    for tag, w, (vr, vc) in runs(c):
        args = ["%%t/%s.%s.bin" % (c.name, n) for n in ("a", "b")[:c.nin]]
        if c.scal:
            st = TY[c.scal]
            args.append(G.scalar_arg(st, scalar_code(c, None, w)))
        args.append("zeros:%d:%%t/%s.out" % (nbytes, tag))
        if c.dyn:
            args += [str(vr), str(vc)]
        out.append("// RUN: ptosim run %%s -q --no-unwritten -e %s -- %s" % (c.name, " ".join(args)))
        out.append("// CMP: %%t/%s.out %%t/%s.exp" % (tag, tag))
    return out


def expected(c, a, b, s, vr, vc):
    """the destination buffer: element (r, k) of the valid region at the tile's position, zeros elsewhere"""
    res = [0] * (c.rows * c.cols)
    for r in range(vr):
        for k in range(vc):
            i = r * c.cols + k if c.layout == "row" else k * c.rows + r
            bb = b[i] if c.nin == 2 else s
            res[i] = lane(c, a[i], bb)
    return res


def addrelu_cases():
    return [Case("taddrelu_%s" % tn, "taddrelu", TY[tn], 4, 64, 3, 48, ref="addrelu") for tn in ("f32", "f16", "i16")]


FILES = {"tile_ew": ew_cases, "tile_layout": layout_cases, "tile_addrelu_a2a3": addrelu_cases}
TARGET = {"tile_addrelu_a2a3": "a2a3"}
HEADERS = {
    "tile_ew": "element-wise vector tile ops: every op x element type on a partial valid region (the rest of the\n"
               "// destination stays zero), tile-scalar forms with two scalars each",
    "tile_addrelu_a2a3": "the a2a3 fused add + ReLU (pto.taddrelu, C220 VADDRELU): dst = max(0, a + b), the sum\n"
                          "// rounded (floats) or wrapped (i16) first, on a partial valid region",
    "tile_layout": "valid regions: a column-major (DN) tile, dynamic valid shapes (alloc_tile valid_row/valid_col from\n"
                   "// kernel arguments) at several sizes, an empty one included",
}


# ---------------------------------------------------------------- hand-written kernels (tests/tile/tile_pred.pto,
# tile_dma.pto): their data and expectations


f32b = fm.host_f32_bits


def save(out, name, t, vals):
    gl.save(name, G.pack(t, vals), out)


def pred_bits(nbytes, bits):
    """bytes holding bits[i] at bit i % 8 of byte i // 8 (LSB first)"""
    b = bytearray(nbytes)
    for i, on in enumerate(bits):
        if on:
            b[i >> 3] |= 1 << (i & 7)
    return list(b)


def write_pred(out):
    rng = random.Random(4242)
    f32, f16, i8, i16, i32 = TY["f32"], TY["f16"], TY["ui8"], TY["i16"], TY["i32"]
    # tcmp f32 lt: 4 x 64 buffers, valid 4 x 50; each destination row is 16 bytes
    a = [G.rand_code(rng, f32) for _ in range(256)]
    b = [a[i] if i % 7 == 0 else G.rand_code(rng, f32) for i in range(256)]
    save(out, "cmp.a.bin", f32, a)
    save(out, "cmp.b.bin", f32, b)
    exp = []
    for r in range(4):
        exp += pred_bits(16, [G.cmp_ref(f32, "lt", a[r * 64 + c], b[r * 64 + c]) for c in range(50)])
    save(out, "tcmp.exp", i8, exp)
    # tcmps f16 ge 0.5: 3 x 40 of 3 x 64; rows packed 16 bytes apart (the destination's row pitch is 16)
    a = [G.rand_code(rng, f16) for _ in range(192)]
    half = 0x3800
    exp = []
    for r in range(3):
        exp += pred_bits(16, [G.cmp_ref(f16, "ge", a[r * 64 + c], half) for c in range(40)])
    save(out, "cmps.a.bin", f16, a)
    save(out, "tcmps.exp", i8, exp)
    # tcmps 1-D: 2 x 64 f32 gt -1.25 into a 2 x 64 byte tile: one 128-bit stream, the rest of the tile zero
    a = [G.rand_code(rng, f32) for _ in range(128)]
    save(out, "cmpsf.a.bin", f32, a)
    exp = pred_bits(16, [G.cmp_ref(f32, "gt", x, f32b(-1.25)) for x in a]) + [0] * 112
    save(out, "tcmpsf.exp", i8, exp)
    # tcmps 1-D with 16-byte destination rows (PTO-Gym's tcmps f32_256x16, scaled): 4 x 16 f32 lt 0.0 into a
    # 4 x 16 byte tile: one 64-bit stream in one 16-byte store (8 zero bytes), rows 1-3 of the tile zero
    a = [G.rand_code(rng, f32) for _ in range(64)]
    save(out, "cmps16.a.bin", f32, a)
    exp = pred_bits(16, [G.cmp_ref(f32, "lt", x, 0) for x in a]) + [0] * 48
    save(out, "tcmps16.exp", i8, exp)
    # tsel: mask 4 x 32 bytes (8 valid per row), f32 4 x 60 of 4 x 64
    m = [rng.getrandbits(8) for _ in range(128)]
    a = [G.rand_code(rng, f32) for _ in range(256)]
    b = [G.rand_code(rng, f32) for _ in range(256)]
    save(out, "sel.m.bin", i8, m)
    save(out, "sel.a.bin", f32, a)
    save(out, "sel.b.bin", f32, b)
    exp = [0] * 256
    for r in range(4):
        for c in range(60):
            on = (m[r * 32 + c // 8] >> (c % 8)) & 1
            exp[r * 64 + c] = a[r * 64 + c] if on else b[r * 64 + c]
    save(out, "tsel.exp", f32, exp)
    # tsels: mask 2 x 32 bytes (8 valid), i16 2 x 64, scalar -7
    m = [rng.getrandbits(8) for _ in range(64)]
    a = [rng.getrandbits(16) for _ in range(128)]
    save(out, "sels.m.bin", i8, m)
    save(out, "sels.a.bin", i16, a)
    exp = [a[r * 64 + c] if (m[r * 32 + c // 8] >> (c % 8)) & 1 else (-7 & 0xffff) for r in range(2) for c in range(64)]
    save(out, "tsels.exp", i16, exp)
    # texpands 123456 into 5 x 10 of 5 x 16
    save(out, "texpands.exp", i32, [123456 if c < 10 else 0 for r in range(5) for c in range(16)])
    # tfillpad: source valid 4 x 20, destination 6 x 32 with pad max: the largest finite f32 elsewhere
    a = [G.rand_code(rng, f32) for _ in range(128)]
    save(out, "fill.a.bin", f32, a)
    exp = [a[r * 32 + c] if r < 4 and c < 20 else 0x7F7FFFFF for r in range(6) for c in range(32)]
    save(out, "tfillpad.exp", f32, exp)
    # the same with pad=1 (zero): an f32 destination larger than the source's valid region fills -1.0
    # (docs/semantics.md "tfillpad custom pad"); an f16 one fills 0
    save(out, "tfillpad_z32.exp", f32, [a[r * 32 + c] if r < 4 and c < 20 else 0xBF800000 for r in range(6) for c in range(32)])
    h = [G.rand_code(rng, f16) for _ in range(128)]
    save(out, "fill16.a.bin", f16, h)
    save(out, "tfillpad_z16.exp", f16, [h[r * 32 + c] if r < 4 and c < 20 else 0 for r in range(6) for c in range(32)])


def write_dma(out):
    rng = random.Random(777)
    f32, f16 = TY["f32"], TY["f16"]
    # pad: 4 x 50 loaded into a 4 x 64 tile with pad=3, stored whole: columns 50..63 hold the lowest f32
    a = [G.rand_code(rng, f32) for _ in range(256)]
    save(out, "pad.a.bin", f32, a)
    save(out, "pad.exp", f32, [a[r * 64 + c] if c < 50 else 0xFF7FFFFF for r in range(4) for c in range(64)])
    # nd5: element (i0, i1, i2, i3, i4) at 800 i0 + 250 i1 + 100 i2 + 20 i3 + i4 in the source, packed in the result
    a = [rng.getrandbits(16) for _ in range(1600)]
    save(out, "nd5.a.bin", f16, a)
    exp = [a[800 * i0 + 250 * i1 + 100 * i2 + 20 * i3 + i4] for i0 in range(2) for i1 in range(3) for i2 in range(2)
           for i3 in range(4) for i4 in range(16)]
    save(out, "nd5.exp", f16, exp)
    # dn: column-major 8 x 16 with a column pitch of 10 in, 8 out; tadds 1.0 on the way
    a = [f32b(float(rng.randrange(-1000, 1000)) / 4) for _ in range(160)]
    save(out, "dn.a.bin", f32, a)
    one = fm.F32.decode(f32b(1.0))
    save(out, "dn.exp", f32, [fm.F32.encode(fm.v_add(fm.F32.decode(a[c * 10 + r]), one)) for c in range(16) for r in range(8)])
    # nz: 4 column blocks of 24 rows x 8 f32 (32 bytes) each, packed in GM; in UB each block is 32 rows apart (the
    # tile's rows), rows 24..31 of each block untouched
    a = [G.rand_code(rng, f32) for _ in range(768)]
    save(out, "nz.a.bin", f32, a)
    ub = [0] * 1024
    for blk in range(4):
        for r in range(24):
            for k in range(8):
                ub[blk * 256 + r * 8 + k] = a[blk * 192 + r * 8 + k]
    save(out, "nz.ub.exp", f32, ub)


def write_plan(out):
    rng = random.Random(99)
    f32 = TY["f32"]
    a = [f32b(float(rng.randrange(-4096, 4096)) / 8) for _ in range(256 * 128)]
    save(out, "plan.a.bin", f32, a)
    save(out, "plan.b.exp", f32, [f32b(fm.F32.to_float(x) * 2) for x in a])
    save(out, "plan.c.exp", f32, [f32b(2.0)] * (256 * 128))


def write_sync(out):
    f32 = TY["f32"]
    a = [f32b(float(i) / 4 - 20) for i in range(256)]
    save(out, "sync.in.bin", f32, a)
    save(out, "sync.exp", f32, [f32b(float(i) / 4 - 19) for i in range(256)])


def emit(d):
    for f, cases in FILES.items():
        L = ["// %s: %s." % (f, HEADERS[f]),
             "// Generated by tests/gen/gen_tile.py --emit; expected values from fmodel.py and gen_tile.py.",
             "// GEN: gen_tile.py %s" % f]
        cs = cases()
        for c in cs:
            L += run_lines(c)
        L.append("module attributes {pto.target_arch = \"%s\"} {" % TARGET.get(f, "a5"))
        for c in cs:
            L += kernel_text(c)
        L.append("}")
        gl.save_text(f + ".pto", "\n".join(L) + "\n", d)


def write(out, f):
    for c in FILES[f]():
        rng = random.Random(sum(map(ord, c.name)) * 7919)
        n = c.rows * c.cols
        a, b = inputs(c, rng, n)
        gl.save(c.name + ".a.bin", G.pack(c.t, a), out)
        if c.nin == 2:
            gl.save(c.name + ".b.bin", G.pack(c.t, b), out)
        for tag, w, (vr, vc) in runs(c):
            s = scalar_code(c, None, w) if c.scal else 0
            if c.op == "tlrelu":
                s = lrelu_slope(c, s)
            elif c.scal and TY[c.scal].isf:
                s = G.canon_scalar(TY[c.scal], s)
            if c.scal and not TY[c.scal].isf and c.op not in ("tshls", "tshrs"):
                s &= c.t.mask
            gl.save(tag + ".exp", G.pack(c.tdst, expected(c, a, b, s, vr, vc)), out)


if __name__ == "__main__":
    if sys.argv[1] == "--emit":
        emit(sys.argv[2])
    elif sys.argv[2] == "tile_pred":
        write_pred(sys.argv[1])
    elif sys.argv[2] == "sync":
        write_sync(sys.argv[1])
    elif sys.argv[2] == "tile_plan":
        write_plan(sys.argv[1])
    elif sys.argv[2] == "tile_dma":
        write_dma(sys.argv[1])
    else:
        write(sys.argv[1], sys.argv[2])
