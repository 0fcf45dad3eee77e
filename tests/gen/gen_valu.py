#!/usr/bin/env python3
"""gen_valu.py — kernels, inputs and independently computed expected outputs for the vector compute
tests in tests/valu/ (one .pto per op or op group).

  python3 gen_valu.py OUTDIR FILE     write the inputs and expected outputs of tests/valu/FILE.pto
  python3 gen_valu.py --emit DIR      (re)write every tests/valu/*.pto from the case table below

Each test file holds one kernel per case (element type, mask variant, attribute set). A kernel looks
like a real one: GM -> UB with pto.mte_gm_ub, MTE2 -> V flag, a pto.vecscope looping over NV vector
registers with a tail mask from pto.plt_bN combined (via pto.vcmps on a selector vector) with holes,
pto.vlds, the op under test, pto.vsts of the whole register (so zeroed inactive lanes are visible) and
pto.psts for mask results, V -> MTE3 flag, pto.mte_ub_gm. Scalars are kernel parameters, so one kernel
runs several times (one RUN/CMP pair per scalar set).

Expected values come from fmodel.py (exact rationals, decimal transcendental functions), which
shares no code with ptosim. The semantic readings are those of docs/semantics.md §7.
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fmodel as fm  # noqa: E402
import genlib as gl  # noqa: E402
from fmodel import V, fin, inf, Fraction  # noqa: E402

# ---------------------------------------------------------------- element types


class Ty:
    def __init__(self, name, mlir, bits, kind, signed=False, fmt=None):
        self.name, self.mlir, self.bits, self.kind, self.signed, self.fmt = name, mlir, bits, kind, signed, fmt
        self.bytes = max(bits // 8, 1)
        self.lanes = 256 // self.bytes
        self.gran = min(self.bytes, 4)           # mask granularity used for this element width
        self.mask = (1 << bits) - 1

    @property
    def isf(self):
        return self.kind == "f"

    def vreg(self):
        return "!pto.vreg<%dx%s>" % (self.lanes, self.mlir)

    def ptr(self, space):
        return "!pto.ptr<%s, %s>" % (self.mlir, space)


TY = {}
for _n, _b in (("8", 8), ("16", 16), ("32", 32), ("64", 64)):
    TY["i" + _n] = Ty("i" + _n, "i" + _n, _b, "i", True)
    TY["si" + _n] = Ty("si" + _n, "si" + _n, _b, "i", True)
    TY["ui" + _n] = Ty("ui" + _n, "ui" + _n, _b, "i", False)
TY["f16"] = Ty("f16", "f16", 16, "f", fmt=fm.F16)
TY["bf16"] = Ty("bf16", "bf16", 16, "f", fmt=fm.BF16)
TY["f32"] = Ty("f32", "f32", 32, "f", fmt=fm.F32)
TY["e4m3"] = Ty("e4m3", "f8E4M3FN", 8, "f", fmt=fm.E4M3)
TY["e5m2"] = Ty("e5m2", "f8E5M2", 8, "f", fmt=fm.E5M2)
TY["hif8"] = Ty("hif8", "!pto.hif8", 8, "f", fmt=fm.HIF8)
TY["f4e2m1"] = Ty("f4e2m1", "!pto.f4E2M1x2", 8, "f", fmt=fm.F4E2M1)
TY["f4e1m2"] = Ty("f4e1m2", "!pto.f4E1M2x2", 8, "f", fmt=fm.F4E1M2)

INTS = ["i8", "ui8", "si8", "i16", "ui16", "si16", "i32", "ui32", "si32", "i64", "ui64"]
FLOATS = ["f16", "bf16", "f32"]
NUMS = INTS + FLOATS
SEL_TY = {1: "i8", 2: "i16", 4: "i32"}
RNDS = list(fm.RNDS)


# ---------------------------------------------------------------- values


def f_codes(t):
    """special codes of a float type"""
    f = t.fmt
    if f is fm.F32:
        return [0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FC12345, 1,
                0x80000001, 0x007FFFFF, 0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000,
                0x3F000000, 0x40200000, 0xC0200000, 0x3FC00000, 0x40400000, 0x4B800001]
    if f is fm.F16:
        return [0, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01, 1, 0x8001, 0x03FF, 0x0400, 0x8400, 0x7BFF, 0xFBFF,
                0x3C00, 0xBC00, 0x3800, 0x4100, 0xC100, 0x3E00, 0x4200, 0x6800, 0x6801]
    if f is fm.BF16:
        return [0, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0xFFC0, 0x7F81, 1, 0x8001, 0x007F, 0x0080, 0x8080, 0x7F7F, 0xFF7F,
                0x3F80, 0xBF80, 0x3F00, 0x4020, 0xC020, 0x3FC0, 0x4040, 0x4B00, 0x4B01]
    return list(range(1 << t.bits))


def i_codes(t):
    m, w = t.mask, t.bits
    return [0, 1, m, 2, m - 1, 1 << (w - 1), (1 << (w - 1)) - 1, (1 << (w - 1)) + 1, (1 << (w - 1)) - 2, 0x55 & m,
            (0xAA << (w - 8)) & m if w > 8 else 0xAA]


def rand_code(rng, t, kind="any"):
    if not t.isf:
        r = rng.random()
        if r < 0.15:
            return rng.choice(i_codes(t))
        if r < 0.5:
            return rng.randrange(-100, 100) & t.mask
        return rng.getrandbits(t.bits)
    f = t.fmt
    if kind == "any" and rng.random() < 0.15:
        return rng.choice(f_codes(t))
    # finite values of moderate magnitude, either sign
    while True:
        if f is fm.F32:
            e = rng.randrange(127 - 20, 127 + 20) if kind != "wide" else rng.randrange(1, 254)
            c = (e << 23) | rng.getrandbits(23)
        elif f is fm.F16:
            e = rng.randrange(15 - 8, 15 + 8) if kind != "wide" else rng.randrange(1, 31)
            c = (e << 10) | rng.getrandbits(10)
        else:
            e = rng.randrange(127 - 20, 127 + 20) if kind != "wide" else rng.randrange(1, 254)
            c = (e << 7) | rng.getrandbits(7)
        if kind == "pos":
            return c
        return c | ((1 << (f.bits - 1)) if rng.random() < 0.5 else 0)


def pack(t, vals):
    b = bytearray()
    for v in vals:
        b += (v & ((1 << (8 * t.bytes)) - 1)).to_bytes(t.bytes, "little")
    return bytes(b)


def unpack(t, data):
    return [int.from_bytes(data[i:i + t.bytes], "little") for i in range(0, len(data), t.bytes)]


def canon_scalar(t, code):
    """a scalar kernel argument as the simulator binds it: any NaN becomes the canonical NaN"""
    if t.isf and t.fmt.decode(code).isnan():
        return t.fmt.cnan
    return code


def scalar_arg(t, code):
    """command-line spelling of a scalar kernel argument"""
    if not t.isf:
        return str(gl.sext(code, t.bits) if t.signed else code)
    v = t.fmt.decode(code)
    if v.kind == "n":
        return "nan"
    if v.kind == "i":
        return "-inf" if v.neg else "inf"
    x = float(v.mag)
    assert Fraction(x) == v.mag
    return repr(-x if v.neg else x)


# ---------------------------------------------------------------- reference lane semantics


def fdec(t, c):
    return t.fmt.decode(c & t.mask)


fkey = fm.key          # total-order key of a non-NaN value


def f_minmax(t, a, b, want_max):
    """vmax / vmin: IEEE maximum / minimum (a NaN operand gives the canonical NaN, +0 above -0)"""
    return t.fmt.maximum(a & t.mask, b & t.mask) if want_max else t.fmt.minimum(a & t.mask, b & t.mask)


def f_relu_code(t, c):
    v = fdec(t, c)
    if v.isnan():
        return t.fmt.cnan
    return c if (v.kind == "i" and not v.neg) or (v.kind == "f" and v.value() > 0) else 0


def ref_ew(op, t, a, b=0, c=0):
    """one active lane of an element-wise op; a, b, c are codes (for shifts b is the count)"""
    if t.isf:
        f = t.fmt
        A, B, C = fdec(t, a), fdec(t, b), fdec(t, c)
        sign = 1 << (t.bits - 1)
        if op == "add":
            return f.encode(fm.v_add(A, B))
        if op == "sub":
            return f.encode(fm.v_sub(A, B))
        if op == "mul":
            return f.encode(fm.v_mul(A, B))
        if op == "div":
            return f.encode(fm.v_div(A, B))
        if op == "max":
            return f_minmax(t, a, b, True)
        if op == "min":
            return f_minmax(t, a, b, False)
        if op == "and":
            return a & b
        if op == "or":
            return a | b
        if op == "xor":
            return a ^ b
        if op == "abs":
            return a & ~sign & t.mask
        if op == "neg":
            return a ^ sign
        if op == "mov":
            return a
        if op == "exp":
            return fm.f_exp_of(f, A)
        if op == "ln":
            return fm.f_ln(f, A)
        if op == "sqrt":
            return fm.f_sqrt(f, A)
        if op == "rsqrt":
            return fm.f_rsqrt(f, A)
        if op == "rec":
            return f.encode(fm.v_div(fin(1), A))
        if op == "relu":
            return f_relu_code(t, a)
        if op in ("lrelu", "prelu"):
            if A.isnan():
                return f.cnan
            if A.kind == "f" and (A.iszero() or not A.neg) or (A.kind == "i" and not A.neg):
                return a
            return f.encode(fm.v_mul(B, A))
        if op == "addrelu":
            return f_relu_code(t, f.encode(fm.v_add(A, B)))
        if op == "subrelu":
            return f_relu_code(t, f.encode(fm.v_sub(A, B)))
        if op == "mula":   # a = acc, b, c = factors
            return f.encode(fm.v_fma(B, C, A))
        if op == "madd":   # acc*a + b with a = acc
            return f.encode(fm.v_fma(A, B, C))
        if op == "axpy":   # alpha (c) * a + b
            return f.encode(fm.v_fma(C, A, B))
        raise ValueError(op)
    w, m = t.bits, t.mask
    sa, sb = gl.sext(a, w), gl.sext(b, w)
    xa = sa if t.signed else a
    xb = sb if t.signed else b
    if op == "add":
        return (a + b) & m
    if op == "sub":
        return (a - b) & m
    if op == "mul":
        return (a * b) & m
    if op == "max":
        return a if xa > xb else b
    if op == "min":
        return a if xa < xb else b
    if op == "and":
        return a & b
    if op == "or":
        return a | b
    if op == "xor":
        return a ^ b
    if op == "shl":
        return 0 if b >= w else (a << b) & m
    if op == "shr":
        if b >= w:
            return m if (t.signed and sa < 0) else 0
        return ((sa >> b) & m) if t.signed else (a >> b)
    if op == "abs":
        return (-sa & m) if (t.signed and sa < 0) else a
    if op == "neg":
        return -a & m
    if op == "relu":
        return 0 if (t.signed and sa < 0) else a
    if op == "not":
        return ~a & m
    if op == "bcnt":
        return bin(a).count("1")
    if op == "cls":
        v = sa if sa >= 0 else -sa - 1
        return w - v.bit_length() - 1
    if op == "mov":
        return a
    if op == "addrelu":
        r = (a + b) & m
        return 0 if (t.signed and gl.sext(r, w) < 0) else r
    if op == "subrelu":
        r = (a - b) & m
        return 0 if (t.signed and gl.sext(r, w) < 0) else r
    if op == "mula":
        return (a + b * c) & m
    raise ValueError(op)


# ---------------------------------------------------------------- kernels


class Kernel:
    """One kernel function plus its runs. ins/outs are (tag, Ty); mouts (tag, gran); scalars (tag, Ty).
    body: op lines using %<in tag>, %m, %<scalar tag>; defining %r_<out tag> and %q_<mask tag>."""

    def __init__(self, name, doc=""):
        self.name, self.doc = name, doc
        self.ins, self.outs, self.mouts, self.scalars = [], [], [], []
        self.sel = None          # mask granularity of the op mask (None: no mask)
        self.count = 0           # plt count in lanes of the selector view
        self.nv = 3
        self.body = []
        self.data = {}           # tag -> bytes (inputs)
        self.runs = []           # [(scalar codes dict, {tag: expected bytes})]
        self.seed_all = False    # masked op whose mask is PAT_ALL (no tail/holes)


def kernel_text(k):
    L = []
    params = ["%%g_%s: %s" % (tag, t.ptr("gm")) for tag, t in k.ins]
    if k.sel:
        params.append("%%g_sel: %s" % TY[SEL_TY[k.sel]].ptr("gm"))
    params += ["%%g_%s: %s" % (tag, t.ptr("gm")) for tag, t in k.outs]
    params += ["%%g_%s: !pto.ptr<ui8, gm>" % tag for tag, g in k.mouts]
    params += ["%%%s: %s" % (tag, t.mlir) for tag, t in k.scalars]
    L.append("  func.func @%s(%s) attributes {pto.kernel} {" % (k.name, ", ".join(params)))
    nb = 256 * k.nv
    L.append("    %c0 = arith.constant 0 : index")
    L.append("    %c1 = arith.constant 1 : index")
    L.append("    %%cNV = arith.constant %d : index" % k.nv)
    lane_counts = sorted({t.lanes for _, t in k.ins + k.outs} | ({256 // k.sel} if k.sel else set()))
    for n in lane_counts:
        L.append("    %%c%d = arith.constant %d : index" % (n, n))
    if k.mouts and 32 not in lane_counts:
        L.append("    %c32 = arith.constant 32 : index")
    L.append("    %c0_i64 = arith.constant 0 : i64")
    L.append("    %c1_i64 = arith.constant 1 : i64")
    L.append("    %%cB = arith.constant %d : i64" % nb)
    if k.mouts:
        L.append("    %%cMB = arith.constant %d : i64" % (32 * k.nv))
    if k.sel:
        L.append("    %%cCNT = arith.constant %d : i32" % k.count)
        L.append("    %%czero = arith.constant 0 : %s" % SEL_TY[k.sel])
    bufs = [(tag, t) for tag, t in k.ins] + ([("sel", TY[SEL_TY[k.sel]])] if k.sel else []) + \
        [(tag, t) for tag, t in k.outs] + [(tag, TY["ui8"]) for tag, g in k.mouts]
    for i, (tag, t) in enumerate(bufs):
        L.append("    %%a_%s = arith.constant %d : i64" % (tag, 4096 * i))
        L.append("    %%u_%s = pto.castptr %%a_%s : i64 -> %s" % (tag, tag, t.ptr("ub")))
    for tag, t in k.ins + ([("sel", TY[SEL_TY[k.sel]])] if k.sel else []):
        L.append("    pto.mte_gm_ub %%g_%s, %%u_%s, %%c0_i64, %%cB nburst(%%c1_i64, %%cB, %%cB)" % (tag, tag))
        L.append("      : %s, %s, i64, i64, i64, i64, i64" % (t.ptr("gm"), t.ptr("ub")))
    L.append('    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]')
    L.append('    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]')
    L.append("    pto.vecscope {")
    if k.sel:
        L.append("      %done = scf.for %k = %c0 to %cNV step %c1 iter_args(%rem = %cCNT) -> (i32) {")
    else:
        L.append("      scf.for %k = %c0 to %cNV step %c1 {")
    for n in lane_counts:
        L.append("        %%o%d = arith.muli %%k, %%c%d : index" % (n, n))
    if k.mouts:
        L.append("        %ob = arith.muli %k, %c32 : index")
    if k.sel:
        g = k.sel
        st = TY[SEL_TY[g]]
        L.append("        %%tail, %%rest = pto.plt_b%d %%rem : i32 -> !pto.mask<b%d>, i32" % (8 * g, 8 * g))
        L.append("        %%sv = pto.vlds %%u_sel[%%o%d] : %s -> %s" % (st.lanes, st.ptr("ub"), st.vreg()))
        L.append('        %%m = pto.vcmps %%sv, %%czero, %%tail, "gt" : %s, %s, !pto.mask<b%d> -> !pto.mask<b%d>'
                 % (st.vreg(), st.mlir, 8 * g, 8 * g))
    for tag, t in k.ins:
        L.append("        %%%s = pto.vlds %%u_%s[%%o%d] : %s -> %s" % (tag, tag, t.lanes, t.ptr("ub"), t.vreg()))
    for line in k.body:
        L.append("        " + line)
    for tag, t in k.outs:
        L.append("        pto.vsts %%r_%s, %%u_%s[%%o%d] : %s, %s" % (tag, tag, t.lanes, t.vreg(), t.ptr("ub")))
    for tag, g in k.mouts:
        L.append('        pto.psts %%q_%s, %%u_%s[%%ob], "NORM" : !pto.mask<b%d>, !pto.ptr<ui8, ub>, index'
                 % (tag, tag, 8 * g))
    if k.sel:
        L.append("        scf.yield %rest : i32")
    L.append("      }")
    L.append("    }")
    L.append('    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]')
    L.append('    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]')
    for tag, t in k.outs:
        L.append("    pto.mte_ub_gm %%u_%s, %%g_%s, %%cB nburst(%%c1_i64, %%cB, %%cB)" % (tag, tag))
        L.append("      : %s, %s, i64, i64, i64, i64" % (t.ptr("ub"), t.ptr("gm")))
    for tag, g in k.mouts:
        L.append("    pto.mte_ub_gm %%u_%s, %%g_%s, %%cMB nburst(%%c1_i64, %%cMB, %%cMB)" % (tag, tag))
        L.append("      : !pto.ptr<ui8, ub>, !pto.ptr<ui8, gm>, i64, i64, i64, i64")
    L.append("    pto.barrier #pto.pipe<PIPE_ALL>")
    L.append("    return")
    L.append("  }")
    return "\n".join(L)


def run_lines(k):
    lines = []
    for ri, (sc, exp) in enumerate(k.runs):
        args = ["%%t/%s.%s.bin" % (k.name, tag) for tag, _ in k.ins]
        if k.sel:
            args.append("%%t/%s.sel.bin" % k.name)
        args += ["zeros:%d:%%t/%s.r%d.%s.out" % (256 * k.nv, k.name, ri, tag) for tag, _ in k.outs]
        args += ["zeros:%d:%%t/%s.r%d.%s.out" % (32 * k.nv, k.name, ri, tag) for tag, _ in k.mouts]
        args += [scalar_arg(t, sc[tag]) for tag, t in k.scalars]
        lines.append("// RUN: ptosim run %%s -q -e %s -- %s" % (k.name, " ".join(args)))
        for tag in [t for t, _ in k.outs] + [t for t, _ in k.mouts]:
            lines.append("// CMP: %%t/%s.r%d.%s.out %%t/%s.r%d.%s.exp" % (k.name, ri, tag, k.name, ri, tag))
    return lines


# ---------------------------------------------------------------- masks of the element-wise template


def lane_masks(k, t_lane_bytes):
    """active flag of every element lane (element of t_lane_bytes bytes) over the NV iterations"""
    nl = 256 // t_lane_bytes
    if not k.sel:
        return [[True] * nl for _ in range(k.nv)]
    g = k.sel
    sel = unpack(TY[SEL_TY[g]], k.data["sel"])
    ng = 256 // g
    out = []
    rem = k.count
    for it in range(k.nv):
        act = []
        for i in range(nl):
            l = t_lane_bytes * i // g
            on = l < rem and gl.sext(sel[it * ng + l], 8 * g) > 0
            act.append(on)
        out.append(act)
        rem = max(rem - ng, 0)
    return out


def setup_mask(k, rng, g, variant, nv=None):
    """variant 'm': tail + holes over nv (3) registers; 'u': no mask operand, nv (8) registers"""
    if variant == "u":
        k.sel = None
        k.nv = nv or 8
        return
    k.sel = g
    ng = 256 // g
    k.nv = nv or 3
    k.count = 2 * ng + ng // 2 + 3
    st = TY[SEL_TY[g]]
    vals = []
    for i in range(ng * k.nv):
        r = rng.random()
        vals.append(rng.randrange(1, 100) if r < 0.7 else (0 if r < 0.85 else -rng.randrange(1, 100)))
    k.data["sel"] = pack(st, vals)


# ---------------------------------------------------------------- element-wise cases

UNARY = {  # op: (mnemonic, accepted types, input value kind)
    "vabs": ("abs", NUMS, "any"), "vneg": ("neg", NUMS, "any"), "vexp": ("exp", FLOATS, "exp"),
    "vln": ("ln", FLOATS, "pos"), "vsqrt": ("sqrt", FLOATS, "pos"), "vrsqrt": ("rsqrt", FLOATS, "pos"),
    "vrec": ("rec", FLOATS, "any"), "vrelu": ("relu", NUMS, "any"), "vnot": ("not", INTS, "any"),
    "vbcnt": ("bcnt", INTS, "any"), "vcls": ("cls", INTS, "any"), "vmov": ("mov", NUMS + ["e4m3"], "any"),
}
BINARY = {
    "vadd": ("add", NUMS), "vsub": ("sub", NUMS), "vmul": ("mul", NUMS), "vdiv": ("div", FLOATS),
    "vmax": ("max", NUMS), "vmin": ("min", NUMS), "vand": ("and", NUMS), "vor": ("or", NUMS), "vxor": ("xor", NUMS),
    "vshl": ("shl", INTS), "vshr": ("shr", INTS), "vaddrelu": ("addrelu", NUMS), "vsubrelu": ("subrelu", NUMS),
    "vprelu": ("prelu", FLOATS),
}
SCALAR = {
    "vadds": ("add", NUMS), "vsubs": ("sub", NUMS), "vmuls": ("mul", NUMS), "vmaxs": ("max", NUMS),
    "vmins": ("min", NUMS), "vands": ("and", INTS), "vors": ("or", INTS), "vxors": ("xor", INTS),
    "vshls": ("shl", INTS), "vshrs": ("shr", INTS), "vlrelu": ("lrelu", FLOATS),
}
TERNARY = {"vmula": ("mula", NUMS), "vmadd": ("madd", FLOATS)}


def input_vals(rng, t, n, kind):
    """n lane codes: specials first, then random of the kind"""
    if t.isf and t.fmt in (fm.F32, fm.F16, fm.BF16):
        sp = f_codes(t)
    elif t.isf:
        sp = list(range(1 << t.bits))
    else:
        sp = i_codes(t)
    vals = []
    for i in range(n):
        if i < len(sp) and kind != "exp":
            vals.append(sp[i])
        elif kind == "exp":
            if i < len(sp) and rng.random() < 0.3:
                vals.append(sp[i])
            else:
                x = Fraction(rng.uniform(-90 if t.fmt is not fm.F16 else -12, 90 if t.fmt is not fm.F16 else 12))
                vals.append(t.fmt.encode(fin(x)))
        elif kind == "pos":
            vals.append(rand_code(rng, t, "wide" if rng.random() < 0.3 else "pos") & ~(1 << (t.bits - 1))
                        if rng.random() < 0.9 else rand_code(rng, t))
        else:
            vals.append(rand_code(rng, t, "wide" if rng.random() < 0.2 else "any"))
    return vals


def pair_vals(rng, t, n):
    """two lane lists covering every pair of specials, then random pairs"""
    sp = f_codes(t) if t.isf else i_codes(t)
    a, b = [], []
    for x in sp:
        for y in sp:
            a.append(x)
            b.append(y)
    while len(a) < n:
        a.append(rand_code(rng, t))
        b.append(rand_code(rng, t))
    a, b = a[:n], b[:n]
    return a, b


def expected_ew(k, t, fn):
    """fn(iteration, lane) -> code of an active lane"""
    act = lane_masks(k, t.bytes)
    out = []
    for it in range(k.nv):
        for i in range(t.lanes):
            out.append(fn(it * t.lanes + i) if act[it][i] else 0)
    return pack(t, out)


def vtype_list(t, n):
    return ", ".join([t.vreg()] * n)


def mask_ty(g):
    return "!pto.mask<b%d>" % (8 * g)


def build_ew(op):
    kernels = []
    if op in UNARY:
        mn, types, kind = UNARY[op]
        nin, scal = 1, None
    elif op in BINARY:
        mn, types = BINARY[op]
        nin, scal, kind = 2, None, "any"
    elif op in SCALAR:
        mn, types = SCALAR[op]
        nin, scal, kind = 1, True, "any"
    elif op in TERNARY:
        mn, types = TERNARY[op]
        nin, scal, kind = 3, None, "any"
    else:  # vaxpy
        mn, types, nin, scal, kind = "axpy", FLOATS, 2, True, "any"
    for tn in types:
        t = TY[tn]
        for variant in ("m", "u"):
            name = "%s_%s_%s" % (op, tn, variant)
            k = Kernel(name)
            rng = random.Random(name)
            g = t.gran
            setup_mask(k, rng, g, variant)
            n = k.nv * t.lanes
            tags = ["a", "b", "c"][:nin]
            for tag in tags:
                k.ins.append((tag, t))
            if nin == 2 and variant == "u" and kind == "any" and not scal:
                va, vb = pair_vals(rng, t, n)
                vals = {"a": va, "b": vb}
            else:
                vals = {tag: input_vals(rng, t, n, kind) for tag in tags}
                if nin >= 2:
                    rng.shuffle(vals["b"])
                if nin == 3:
                    rng.shuffle(vals["c"])
            if mn in ("shl", "shr"):
                vals["b"] = [rng.choice([0, 1, 2, t.bits - 1, t.bits, t.bits + 1, rng.randrange(t.bits), t.mask,
                                         rng.getrandbits(t.bits)]) for _ in range(n)]
            for tag in tags:
                k.data[tag] = pack(t, vals[tag])
            k.outs.append(("r", t))
            mtxt = (", %m", ", " + mask_ty(g)) if variant == "m" else ("", "")
            if scal:
                st = TY["i16"] if mn in ("shl", "shr") else (TY["i%d" % t.bits] if not t.isf else t)
                k.scalars.append(("s", st))
            if op in UNARY or op in BINARY:
                ops_ = ", ".join("%" + x for x in tags)
                k.body.append("%%r_r = pto.%s %s%s : %s%s -> %s" % (op, ops_, mtxt[0], vtype_list(t, nin), mtxt[1],
                                                                    t.vreg()))
            elif op in TERNARY:
                k.body.append("%%r_r = pto.%s %%a, %%b, %%c%s : %s%s -> %s" % (op, mtxt[0], vtype_list(t, 3), mtxt[1],
                                                                           t.vreg()))
            elif op == "vaxpy":
                k.body.append("%%r_r = pto.vaxpy %%a, %%b, %%s%s : %s, %s, %s%s -> %s" % (
                    mtxt[0], t.vreg(), t.vreg(), t.mlir, mtxt[1], t.vreg()))
            else:
                k.body.append("%%r_r = pto.%s %%a, %%s%s : %s, %s%s -> %s" % (op, mtxt[0], t.vreg(), k.scalars[0][1].mlir,
                                                                          mtxt[1], t.vreg()))
            # scalar sets
            if scal:
                st = k.scalars[0][1]
                if mn in ("shl", "shr"):
                    svals = [0, 1, t.bits - 1, t.bits, 15, 0xFFFF] if variant == "m" else [3]
                elif t.isf:
                    cs = f_codes(t)
                    svals = [cs[15], cs[1], cs[2], rand_code(rng, t, "wide")] if variant == "m" else [rand_code(rng, t)]
                    if mn == "lrelu":
                        svals = [t.fmt.encode(fin(Fraction(1, 8))), cs[2], cs[1], cs[4]] if variant == "m" else [cs[16]]
                    if mn == "axpy":
                        svals = [t.fmt.encode(fin(Fraction(-3, 2))), cs[0], cs[2]] if variant == "m" else [cs[22]]
                else:
                    svals = [1, t.mask, 1 << (t.bits - 1), rng.getrandbits(t.bits)] if variant == "m" else [7]
                    svals = [v & st.mask for v in svals]
            else:
                svals = [None]
            if scal:
                svals = [canon_scalar(k.scalars[0][1], v) for v in svals]
            for sv in svals:
                def fn(j, sv=sv):
                    a = vals["a"][j]
                    if mn in ("shl", "shr"):
                        cnt = vals["b"][j] if not scal else sv
                        return ref_ew(mn, t, a, cnt)
                    if mn == "axpy":
                        return ref_ew("axpy", t, a, vals["b"][j], sv)
                    b = vals["b"][j] if nin >= 2 else (sv if scal else 0)
                    c = vals["c"][j] if nin == 3 else 0
                    return ref_ew(mn, t, a, b, c)
                k.runs.append(({"s": sv} if scal else {}, {"r": expected_ew(k, t, fn)}))
            kernels.append(k)
    return kernels


# ---------------------------------------------------------------- vtrc


def build_vtrc():
    ks = []
    for tn in FLOATS:
        t = TY[tn]
        for variant in ("m", "u"):
            name = "vtrc_%s_%s" % (tn, variant)
            k = Kernel(name)
            rng = random.Random(name)
            setup_mask(k, rng, t.gran, variant)
            n = k.nv * t.lanes
            vals = f_codes(t)[:]
            ties = [Fraction(x, 2) for x in range(-9, 10)] + [Fraction(x, 4) for x in (-7, -5, -3, 3, 5, 7)]
            vals += [t.fmt.encode(fin(x)) for x in ties]
            while len(vals) < n:
                x = Fraction(rng.randrange(-4000, 4000), rng.choice([1, 2, 4, 8, 16, 3, 7]))
                vals.append(t.fmt.encode(fin(x)) if rng.random() < 0.8 else rand_code(rng, t, "wide"))
            vals = vals[:n]
            k.ins.append(("a", t))
            k.data["a"] = pack(t, vals)
            exps = {}
            for rm in ("R", "A", "F", "C", "Z"):
                tag = "r" + rm
                k.outs.append((tag, t))
                if variant == "m":
                    k.body.append('%%r_%s = pto.vtrc %%a, %%m, "%s" : %s, %s -> %s' % (tag, rm, t.vreg(), mask_ty(t.gran),
                                                                                   t.vreg()))
                else:
                    k.body.append('%%r_%s = pto.vtrc %%a, "%s" : %s -> %s' % (tag, rm, t.vreg(), t.vreg()))

                def fn(j, rm=rm):
                    v = fdec(t, vals[j])
                    r = fm.round_integral(v, rm)
                    return vals[j] if r is None else t.fmt.encode(r)
                exps[tag] = expected_ew(k, t, fn)
            k.runs.append(({}, exps))
            ks.append(k)
    return ks


# ---------------------------------------------------------------- compare


CMPS = ["eq", "ne", "lt", "le", "gt", "ge"]


def cmp_ref(t, tok, a, b):
    if t.isf:
        A, B = fdec(t, a), fdec(t, b)
        if A.isnan() or B.isnan():
            return tok == "ne"
        x, y = fkey(A), fkey(B)
    else:
        x, y = (gl.sext(a, t.bits), gl.sext(b, t.bits)) if t.signed else (a, b)
    return {"eq": x == y, "ne": x != y, "lt": x < y, "le": x <= y, "gt": x > y, "ge": x >= y}[tok]


def mask_image(t, act_vals):
    """32-byte canonical image: element lane i at bit E*i"""
    img = bytearray(32)
    for i, on in enumerate(act_vals):
        if on:
            bit = t.bytes * i
            img[bit >> 3] |= 1 << (bit & 7)
    return bytes(img)


def build_cmp(op):
    ks = []
    for tn in NUMS:
        t = TY[tn]
        for variant in ("m", "u"):
            name = "%s_%s_%s" % (op, tn, variant)
            k = Kernel(name)
            rng = random.Random(name)
            g = t.gran
            setup_mask(k, rng, g, variant)
            n = k.nv * t.lanes
            k.ins.append(("a", t))
            if op == "vcmp":
                k.ins.append(("b", t))
                va, vb = pair_vals(rng, t, n)
                # plenty of equal pairs
                for i in range(0, n, 5):
                    vb[i] = va[i]
                k.data["a"], k.data["b"] = pack(t, va), pack(t, vb)
            else:
                va = input_vals(rng, t, n, "any")
                k.data["a"] = pack(t, va)
                k.scalars.append(("s", t if t.isf else TY["i%d" % t.bits]))
            seed = "%m" if variant == "m" else "%all"
            if variant == "u":
                k.body.append('%%all = pto.pset_b%d "PAT_ALL" : %s' % (8 * g, mask_ty(g)))
            for tok in CMPS:
                k.mouts.append((tok, g))
                if op == "vcmp":
                    k.body.append('%%q_%s = pto.vcmp %%a, %%b, %s, "%s" : %s, %s, %s -> %s' % (
                        tok, seed, tok, t.vreg(), t.vreg(), mask_ty(g), mask_ty(g)))
                else:
                    k.body.append('%%q_%s = pto.vcmps %%a, %%s, %s, "%s" : %s, %s, %s -> %s' % (
                        tok, seed, tok, t.vreg(), k.scalars[0][1].mlir, mask_ty(g), mask_ty(g)))
            svals = [None]
            if op == "vcmps":
                if t.isf:
                    cs = f_codes(t)
                    svals = [cs[15], cs[0], cs[4], va[30]] if variant == "m" else [cs[1]]
                else:
                    svals = [0, 1 << (t.bits - 1), va[20]] if variant == "m" else [1]
            if op == "vcmps":
                svals = [canon_scalar(t, v) for v in svals]
            for sv in svals:
                exps = {}
                act = lane_masks(k, t.bytes)
                for tok in CMPS:
                    img = b""
                    for it in range(k.nv):
                        res = []
                        for i in range(t.lanes):
                            j = it * t.lanes + i
                            b = sv if op == "vcmps" else vb[j]
                            res.append(act[it][i] and cmp_ref(t, tok, va[j], b))
                        img += mask_image(t, res)
                    exps[tok] = img
                k.runs.append(({"s": sv} if op == "vcmps" else {}, exps))
            ks.append(k)
    return ks


# ---------------------------------------------------------------- select


def build_vsel():
    ks = []
    for tn in NUMS:
        t = TY[tn]
        name = "vsel_%s" % tn
        k = Kernel(name)
        rng = random.Random(name)
        setup_mask(k, rng, t.gran, "m")
        n = k.nv * t.lanes
        va, vb = [rand_code(rng, t) for _ in range(n)], [rand_code(rng, t) for _ in range(n)]
        k.ins += [("a", t), ("b", t)]
        k.data["a"], k.data["b"] = pack(t, va), pack(t, vb)
        k.outs.append(("r", t))
        k.body.append("%%r_r = pto.vsel %%a, %%b, %%m : %s, %s, %s -> %s" % (t.vreg(), t.vreg(), mask_ty(t.gran), t.vreg()))
        act = lane_masks(k, t.bytes)
        out = [va[it * t.lanes + i] if act[it][i] else vb[it * t.lanes + i] for it in range(k.nv) for i in range(t.lanes)]
        k.runs.append(({}, {"r": pack(t, out)}))
        ks.append(k)
    return ks


def build_vselr():
    ks = []
    for tn, itn in (("ui8", "ui8"), ("i8", "ui8"), ("f16", "ui16"), ("i16", "ui16"), ("bf16", "i16"), ("f32", "i32"),
                    ("ui32", "ui32")):
        t, it_ = TY[tn], TY[itn]
        name = "vselr_%s" % tn
        k = Kernel(name)
        rng = random.Random(name)
        k.nv = 3
        n = k.nv * t.lanes
        va = [rand_code(rng, t) for _ in range(n)]
        idx = []
        for i in range(n):
            r = rng.random()
            idx.append(rng.randrange(t.lanes) if r < 0.6 else (t.lanes - 1 - i % t.lanes) if r < 0.7
                       else rng.getrandbits(it_.bits))
        k.ins += [("a", t), ("i", it_)]
        k.data["a"], k.data["i"] = pack(t, va), pack(it_, idx)
        k.outs.append(("r", t))
        k.body.append("%%r_r = pto.vselr %%a, %%i : %s, %s -> %s" % (t.vreg(), it_.vreg(), t.vreg()))
        out = []
        for itn_ in range(k.nv):
            for i in range(t.lanes):
                out.append(va[itn_ * t.lanes + (idx[itn_ * t.lanes + i] % t.lanes)])
        k.runs.append(({}, {"r": pack(t, out)}))
        ks.append(k)
    return ks


# ---------------------------------------------------------------- materialization


def build_vbr():
    ks = []
    for tn, stn in (("i8", "i8"), ("ui8", "i8"), ("si8", "i8"), ("i16", "i16"), ("ui16", "i16"), ("i32", "i32"),
                    ("ui32", "i32"), ("f16", "f16"), ("bf16", "bf16"), ("f32", "f32")):
        t, st = TY[tn], TY[stn]
        name = "vbr_%s" % tn
        k = Kernel(name)
        rng = random.Random(name)
        k.nv = 1
        k.scalars.append(("s", st))
        k.outs.append(("r", t))
        k.body.append("%%r_r = pto.vbr %%s : %s -> %s" % (st.mlir, t.vreg()))
        svals = [f_codes(t)[i] for i in (0, 1, 2, 4, 7, 15)] if t.isf else [0, 1, t.mask, 1 << (t.bits - 1),
                                                                            rng.getrandbits(t.bits)]
        for sv in svals:
            sv = canon_scalar(st, sv)
            k.runs.append(({"s": sv}, {"r": pack(t, [sv] * t.lanes)}))
        ks.append(k)
    return ks


def build_vdup():
    ks = []
    for tn in ["i8", "ui8", "i16", "i32", "ui32", "f16", "bf16", "f32"]:
        t = TY[tn]
        st = t if t.isf else TY["i%d" % t.bits]
        for variant in ("m", "u"):
            # scalar form
            name = "vdup_s_%s_%s" % (tn, variant)
            k = Kernel(name)
            rng = random.Random(name)
            setup_mask(k, rng, t.gran, variant, 3)
            k.scalars.append(("s", st))
            k.outs.append(("r", t))
            mt = (", %m", ", " + mask_ty(t.gran)) if variant == "m" else ("", "")
            k.body.append("%%r_r = pto.vdup %%s%s : %s%s -> %s" % (mt[0], st.mlir, mt[1], t.vreg()))
            svals = [rand_code(rng, t), f_codes(t)[1] if t.isf else t.mask]
            for sv in svals:
                sv = canon_scalar(st, sv)
                k.runs.append(({"s": sv}, {"r": expected_ew(k, t, lambda j, sv=sv: sv)}))
            ks.append(k)
            # vector form, LOWEST (default and explicit) and HIGHEST
            for pos in ("", "LOWEST", "HIGHEST"):
                name = "vdup_v%s_%s_%s" % (pos.lower() or "def", tn, variant)
                k = Kernel(name)
                rng = random.Random(name)
                setup_mask(k, rng, t.gran, variant, 3)
                va = [rand_code(rng, t) for _ in range(k.nv * t.lanes)]
                k.ins.append(("a", t))
                k.data["a"] = pack(t, va)
                k.outs.append(("r", t))
                attr = ' {position = "%s"}' % pos if pos else ""
                k.body.append("%%r_r = pto.vdup %%a%s%s : %s%s -> %s" % (mt[0], attr, t.vreg(), mt[1], t.vreg()))
                src = (t.lanes - 1) if pos == "HIGHEST" else 0
                k.runs.append(({}, {"r": expected_ew(k, t, lambda j: va[(j // t.lanes) * t.lanes + src])}))
                ks.append(k)
    return ks


def build_vci():
    ks = []
    for tn in ["i8", "si8", "ui8", "i16", "ui16", "i32", "si32", "ui32", "f16", "bf16", "f32"]:
        t = TY[tn]
        st = t if t.isf else TY["i%d" % t.bits]
        for order in ("", "ASC", "DESC"):
            name = "vci_%s_%s" % (tn, order.lower() or "def")
            k = Kernel(name)
            k.nv = 1
            k.scalars.append(("s", st))
            k.outs.append(("r", t))
            attr = ' {order = "%s"}' % order if order else ""
            k.body.append("%%r_r = pto.vci %%s%s : %s -> %s" % (attr, st.mlir, t.vreg()))
            if t.isf:
                bases = [t.fmt.encode(fin(x)) for x in (0, Fraction(5, 2), -100, 2040, Fraction(1, 3) * 3 / 7)]
            else:
                bases = [0, 5, (t.mask - 3), 1 << (t.bits - 1)]
            for bv in bases:
                out = []
                for i in range(t.lanes):
                    d = -i if order == "DESC" else i
                    if t.isf:
                        out.append(t.fmt.encode(fm.v_add(fdec(t, bv), fin(d))))
                    else:
                        out.append((bv + d) & t.mask)
                k.runs.append(({"s": bv}, {"r": pack(t, out)}))
            ks.append(k)
    return ks


# ---------------------------------------------------------------- carry chains


def build_carry(op):
    ks = []
    for tn in ("i32", "si32", "ui32"):
        t = TY[tn]
        for variant in ("m", "u"):
            name = "%s_%s_%s" % (op, tn, variant)
            k = Kernel(name)
            rng = random.Random(name)
            setup_mask(k, rng, 4, variant, 3)
            n = k.nv * 64
            sp = [0, 1, 0xFFFFFFFF, 0xFFFFFFFE, 0x80000000, 0x7FFFFFFF]
            va = [sp[i % 6] if i < 36 else rng.getrandbits(32) for i in range(n)]
            vb = [sp[i // 6] if i < 36 else rng.choice([rng.getrandbits(32), va[i], (va[i] + 1) & 0xFFFFFFFF])
                  for i in range(n)]
            k.ins += [("a", t), ("b", t)]
            k.data["a"], k.data["b"] = pack(t, va), pack(t, vb)
            with_cin = op in ("vaddcs", "vsubcs")
            if with_cin:
                cin = [rng.randrange(2) for _ in range(n)]
                k.ins.append(("ci", TY["i32"]))
                k.data["ci"] = pack(TY["i32"], cin)
                k.body.append('%%cin = pto.vcmps %%ci, %%czero32, %s, "gt" : %s, i32, !pto.mask<b32> -> !pto.mask<b32>'
                              % ("%all", TY["i32"].vreg()))
            k.outs.append(("r", t))
            k.mouts.append(("c", 4))
            if with_cin:
                k.body.insert(0, '%all = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>')
                k.body.insert(1, "%czero32 = arith.constant 0 : i32")
            mt = (", %m", ", !pto.mask<b32>") if variant == "m" else ("", "")
            cin_o = (", %cin", ", !pto.mask<b32>") if with_cin else ("", "")
            k.body.append("%%r_r, %%q_c = pto.%s %%a, %%b%s%s : %s, %s%s%s -> %s, !pto.mask<b32>" % (
                op, cin_o[0], mt[0], t.vreg(), t.vreg(), cin_o[1], mt[1], t.vreg()))
            act = lane_masks(k, 4)
            res, img = [], b""
            for it in range(k.nv):
                cy = []
                for i in range(64):
                    j = it * 64 + i
                    a, b = va[j], vb[j]
                    ci = cin[j] if with_cin else 0
                    if not act[it][i]:
                        res.append(0)
                        cy.append(False)
                        continue
                    if op in ("vaddc", "vaddcs"):
                        s = a + b + (ci if op == "vaddcs" else 0)
                        res.append(s & 0xFFFFFFFF)
                        cy.append(s >= 1 << 32)
                    else:
                        bi = (1 - ci) if op == "vsubcs" else 0
                        d = a - b - bi
                        res.append(d & 0xFFFFFFFF)
                        cy.append(d >= 0)
                img += mask_image(t, cy)
            k.runs.append(({}, {"r": pack(t, res), "c": img}))
            ks.append(k)
    return ks


# ---------------------------------------------------------------- vmull


def build_vmull():
    ks = []
    for tn in ("i32", "si32", "ui32"):
        t = TY[tn]
        for variant in ("m", "u"):
            name = "vmull_%s_%s" % (tn, variant)
            k = Kernel(name)
            rng = random.Random(name)
            setup_mask(k, rng, 4, variant, 3)
            n = k.nv * 64
            va, vb = pair_vals(rng, t, n)
            k.ins += [("a", t), ("b", t)]
            k.data["a"], k.data["b"] = pack(t, va), pack(t, vb)
            k.outs += [("lo", t), ("hi", t)]
            mt = (", %m", ", !pto.mask<b32>") if variant == "m" else ("", "")
            k.body.append("%%r_lo, %%r_hi = pto.vmull %%a, %%b%s : %s, %s%s -> %s, %s" % (
                mt[0], t.vreg(), t.vreg(), mt[1], t.vreg(), t.vreg()))

            def prod(j):
                a, b = va[j], vb[j]
                if t.signed:
                    a, b = gl.sext(a, 32), gl.sext(b, 32)
                return (a * b) & ((1 << 64) - 1)
            k.runs.append(({}, {"lo": expected_ew(k, t, lambda j: prod(j) & 0xFFFFFFFF),
                                "hi": expected_ew(k, t, lambda j: prod(j) >> 32)}))
            ks.append(k)
    return ks


# ---------------------------------------------------------------- conversions

CVT_PAIRS = [
    ("f32", "si64"), ("f32", "si32"), ("f32", "si16"), ("f16", "si32"), ("f16", "si16"), ("f16", "si8"), ("f16", "ui8"),
    ("bf16", "si32"), ("f32", "f16"), ("f32", "bf16"), ("bf16", "f16"), ("f16", "f32"), ("bf16", "f32"),
    ("ui8", "f16"), ("si8", "f16"), ("si16", "f16"), ("si16", "f32"), ("si32", "f32"), ("ui32", "f32"),
    ("ui8", "ui16"), ("ui8", "ui32"), ("si8", "si16"), ("si8", "si32"), ("ui16", "ui32"), ("si16", "ui32"),
    ("si16", "si32"), ("si32", "si64"),
    ("ui16", "ui8"), ("si16", "ui8"), ("ui32", "ui8"), ("ui32", "ui16"), ("ui32", "si16"), ("si32", "ui8"),
    ("si32", "ui16"), ("si32", "si16"), ("i32", "i16"),
    ("si64", "f32"), ("e4m3", "f32"), ("e5m2", "f32"), ("hif8", "f32"), ("f32", "e4m3"), ("f32", "e5m2"), ("f32", "hif8"),
    ("f4e1m2", "bf16"), ("f4e2m1", "bf16"), ("bf16", "f4e1m2"), ("bf16", "f4e2m1"),
]
F4 = ("f4e2m1", "f4e1m2")


def cvt_ref(s, d, code, rm, sat):
    """one lane of vcvt (resolutions Q26, 2.4)"""
    if s.isf and d.isf:
        narrowing = d.bits < s.bits or d.name in F4 or (s.name, d.name) == ("bf16", "f16")
        return d.fmt.encode(s.fmt.decode(code), rm, sat and narrowing)
    if s.isf:
        if not sat:   # NOSAT keeps the rounded integer's low bits (the A5 tcvt f16 -> ui8 / si8 evidence)
            return fm.to_int_wrap(s.fmt.decode(code), rm, d.bits, d.signed)
        return fm.to_int(s.fmt.decode(code), rm, d.bits, d.signed)
    x = gl.sext(code, s.bits) if s.signed else code
    if d.isf:
        return d.fmt.encode(fin(x), rm, False)
    if sat or (s.signed and not d.signed and d.bits > s.bits):   # widening signed -> unsigned clamps at 0
        lo = -(1 << (d.bits - 1)) if d.signed else 0
        hi = (1 << (d.bits - 1)) - 1 if d.signed else (1 << d.bits) - 1
        x = min(max(x, lo), hi)
    return x & d.mask


def cvt_inputs(rng, s, d, n):
    """source lane codes: specials, values around the destination's rounding points, random"""
    vals = []
    if s.name in F4:
        return [rng.getrandbits(8) for _ in range(n)] if n > 256 else list(range(256))[:n]
    if s.isf and s.fmt in (fm.E4M3, fm.E5M2, fm.HIF8):
        vals = list(range(256))
    elif s.isf:
        vals = f_codes(s)[:]
        if d.isf:
            # every destination code's value and the midpoints and neighbours around it
            db = d.fmt.bits
            dc = list(range(1 << db)) if db <= 8 else [rng.getrandbits(db) for _ in range(40)] + f_codes(d)
            for c in dc:
                v = d.fmt.decode(c)
                if v.kind != "f":
                    continue
                sv = s.fmt.encode(v)
                vals += [sv, sv + 1, sv - 1 if sv & ((1 << (s.bits - 1)) - 1) else sv]
                nxt = d.fmt.decode(c + 1) if (c + 1) < (1 << db) else None
                if nxt is not None and nxt.kind == "f" and nxt.neg == v.neg:
                    mid = (v.mag + nxt.mag) / 2
                    m = s.fmt.encode(V("f", v.neg, mid))
                    vals += [m, m + 1, m - 1]
        else:
            # integers around the destination range and halves
            hi = 1 << (d.bits - (1 if d.signed else 0))
            for x in (0, 1, -1, hi - 1, hi, -hi, -hi - 1, Fraction(1, 2), Fraction(3, 2), Fraction(5, 2), Fraction(-5, 2),
                      Fraction(-1, 2), Fraction(7, 4), hi - Fraction(1, 2), -hi - Fraction(1, 2), 2 ** 40, -(2 ** 40)):
                vals.append(s.fmt.encode(fin(x)))
    else:
        vals = i_codes(s) + [(1 << (d.bits - 1)) - 1, 1 << (d.bits - 1), (1 << d.bits) - 1, 1 << d.bits,
                             (1 << (d.bits - 1)) + 1] if not d.isf else i_codes(s) + [(1 << 24) + 1, (1 << 24) + 3,
                                                                                      (1 << 11) + 1, 2049, 4097]
        vals = [v & s.mask for v in vals]
    while len(vals) < n:
        vals.append(rand_code(rng, s, "wide" if rng.random() < 0.5 else "any") if s.isf else rng.getrandbits(s.bits))
    rng.shuffle(vals)
    return [v & s.mask for v in vals[:n]]


def cvt_geometry(s, d):
    """(shape, ratio): same, widen (destination lane j <- source lane r*j+p), narrow (source lane j ->
    destination lane r*j+p), f4 widen, f4 narrow"""
    if s.name in F4:
        return "f4w", 4
    if d.name in F4:
        return "f4n", 4
    if s.bits == d.bits:
        return "same", 1
    if d.bits > s.bits:
        return "widen", d.bits // s.bits
    return "narrow", s.bits // d.bits


def cvt_expected(s, d, shape, r, p, vals, act, nv, rm, sat):
    """act[it][i]: source lane i of iteration it is active (source mask granularity)"""
    out = []
    for it in range(nv):
        base = it * s.lanes
        o = [0] * d.lanes
        if shape == "same":
            for i in range(s.lanes):
                if act[it][i]:
                    o[i] = cvt_ref(s, d, vals[base + i], rm, sat)
        elif shape == "widen":
            for j in range(d.lanes):
                i = r * j + p
                if act[it][i]:
                    o[j] = cvt_ref(s, d, vals[base + i], rm, sat)
        elif shape == "narrow":
            for j in range(s.lanes):
                if act[it][j]:
                    o[r * j + p] = cvt_ref(s, d, vals[base + j], rm, sat)
        elif shape == "f4w":
            for j in range(64):
                i = 4 * j + p
                if act[it][i]:
                    byte = vals[base + i]
                    o[2 * j] = cvt_ref(s, d, byte & 15, rm, sat)
                    o[2 * j + 1] = cvt_ref(s, d, byte >> 4, rm, sat)
        else:  # f4n: destination is 256 bytes
            o = [0] * 256
            for j in range(64):
                lo = cvt_ref(s, d, vals[base + 2 * j], rm, sat) & 15 if act[it][2 * j] else 0
                hi = cvt_ref(s, d, vals[base + 2 * j + 1], rm, sat) & 15 if act[it][2 * j + 1] else 0
                o[4 * j + p] = lo | hi << 4
        out += o
    return pack(d, out)


def build_vcvt():
    ks = []
    for sn, dn in CVT_PAIRS:
        s, d = TY[sn], TY[dn]
        shape, r = cvt_geometry(s, d)
        parts = ["EVEN", "ODD"] if r == 2 and shape != "f4w" and shape != "f4n" else ["P0", "P1", "P2", "P3"] if r == 4 else [None]
        fl2fl_narrow = s.isf and d.isf and (d.bits < s.bits or dn in F4 or (sn, dn) == ("bf16", "f16"))
        fl2int = s.isf and not d.isf
        int2fl_inexact = (not s.isf) and d.isf and s.bits >= d.fmt.mb + 2 if d.isf and hasattr(d.fmt, "mb") else False
        int_narrow = (not s.isf) and (not d.isf) and d.bits < s.bits
        # attribute sets: (rnd, sat, part); None = attribute absent (defaults R / NOSAT / EVEN|P0)
        combos = []
        if fl2fl_narrow or fl2int:
            for rm in RNDS:
                for st in ("NOSAT", "SAT"):
                    combos.append((rm, st, parts[0]))
        elif int2fl_inexact:
            combos = [(rm, None, parts[0]) for rm in RNDS]
        elif int_narrow:
            combos = [(None, "SAT", parts[0]), (None, "NOSAT", parts[0])]
        combos.append((None, None, None))
        for p in parts[1:]:
            combos.append(("R" if (fl2fl_narrow or fl2int or int2fl_inexact) else None,
                           "SAT" if (fl2fl_narrow or fl2int or int_narrow) else None, p))
        for variant in ("m", "u"):
            name = "vcvt_%s_%s_%s" % (sn, dn, variant)
            k = Kernel(name)
            rng = random.Random(name)
            g = min(s.bytes, 4)
            setup_mask(k, rng, g, variant, 3)
            vals = cvt_inputs(rng, s, d, k.nv * s.lanes)
            k.ins.append(("a", s))
            k.data["a"] = pack(s, vals)
            act = lane_masks(k, s.bytes)
            exps = {}
            for ci, (rm, st, p) in enumerate(combos):
                tag = "r%d" % ci
                k.outs.append((tag, d))
                attrs = []
                if rm:
                    attrs.append('rnd = "%s"' % rm)
                if st:
                    attrs.append('sat = "%s"' % st)
                if p:
                    attrs.append('part = "%s"' % p)
                at = " {%s}" % ", ".join(attrs) if attrs else ""
                mt = (", %m", ", " + mask_ty(g)) if variant == "m" else ("", "")
                k.body.append("%%r_%s = pto.vcvt %%a%s%s : %s%s -> %s" % (tag, mt[0], at, s.vreg(), mt[1], d.vreg()))
                pi = {"ODD": 1, "P1": 1, "P2": 2, "P3": 3}.get(p, 0)
                exps[tag] = cvt_expected(s, d, shape, r, pi, vals, act, k.nv, rm or "R", st == "SAT")
            k.runs.append(({}, exps))
            ks.append(k)
    return ks


def build_vbitcast():
    ks = []
    for sn, dn in (("f32", "i32"), ("f16", "ui8"), ("i64", "bf16"), ("ui8", "f32")):
        s, d = TY[sn], TY[dn]
        name = "vbitcast_%s_%s" % (sn, dn)
        k = Kernel(name)
        rng = random.Random(name)
        k.nv = 2
        data = bytes(rng.getrandbits(8) for _ in range(512))
        k.ins.append(("a", s))
        k.data["a"] = data
        k.outs.append(("r", d))
        k.body.append("%%r_r = pto.vbitcast %%a : %s -> %s" % (s.vreg(), d.vreg()))
        k.runs.append(({}, {"r": data}))
        ks.append(k)
    return ks


# ---------------------------------------------------------------- reductions


def tree_sum(t, codes):
    v = list(codes)
    while len(v) > 1:
        v = [ref_ew("add", t, v[2 * i], v[2 * i + 1]) for i in range(len(v) // 2)]
    return v[0]


def better(t, x, y, want_max):
    if t.isf:
        X, Y = fdec(t, x), fdec(t, y)
        if Y.isnan():
            return False
        if X.isnan():
            return True
        kx, ky = fkey(X), fkey(Y)
        if kx == ky == 0:
            return (Y.neg and not X.neg) if want_max else (X.neg and not Y.neg)
        return kx > ky if want_max else kx < ky
    a, b = (gl.sext(x, t.bits), gl.sext(y, t.bits)) if t.signed else (x, y)
    return a > b if want_max else a < b


def empty_ext(t, want_max):
    if t.isf:
        return t.fmt.encode(inf(want_max))
    if t.signed:
        return (1 << (t.bits - 1)) if want_max else (1 << (t.bits - 1)) - 1
    return 0 if want_max else t.mask


def canon(t, c):
    return t.fmt.cnan if t.isf and fdec(t, c).isnan() else c


def red_ref(op, t, td, vals, act):
    """one vreg"""
    n = t.lanes
    o = [0] * td.lanes
    z = [vals[i] if act[i] else 0 for i in range(n)]
    if op == "vcadd":
        if t.isf:
            o[0] = tree_sum(t, z)
        else:
            s = sum((gl.sext(vals[i], t.bits) if t.signed else vals[i]) for i in range(n) if act[i])
            o[0] = s & td.mask
    elif op == "vcgadd":
        g = 32 // t.bytes
        for grp in range(8):
            o[grp] = tree_sum(t, z[grp * g:(grp + 1) * g])
    elif op == "vcpadd":
        for i in range(n // 2):
            o[i] = ref_ew("add", t, z[2 * i], z[2 * i + 1])
    elif op in ("vcmax", "vcmin"):
        wm = op == "vcmax"
        best, idx = None, 0
        for i in range(n):
            if act[i] and (best is None or better(t, vals[i], best, wm)):
                best, idx = vals[i], i
        o[0] = canon(t, best) if best is not None else empty_ext(t, wm)
        o[1] = idx
    else:
        wm = op == "vcgmax"
        g = 32 // t.bytes
        for grp in range(8):
            best = None
            for i in range(grp * g, (grp + 1) * g):
                if act[i] and (best is None or better(t, vals[i], best, wm)):
                    best = vals[i]
            o[grp] = canon(t, best) if best is not None else empty_ext(t, wm)
    return o


def build_red(op):
    ks = []
    types = NUMS
    pairs = [(tn, tn) for tn in types]
    if op == "vcadd":
        pairs += [("i8", "i16"), ("ui8", "ui16"), ("i16", "i32"), ("ui16", "ui32")]
    for tn, tdn in pairs:
        t, td = TY[tn], TY[tdn]
        for variant in ("m", "u"):
            name = "%s_%s%s_%s" % (op, tn, "" if tn == tdn else "_" + tdn, variant)
            k = Kernel(name)
            rng = random.Random(name)
            setup_mask(k, rng, t.gran, variant, 4 if variant == "m" else 3)
            if variant == "m":
                k.count = 2 * (256 // t.gran) + 7
            n = k.nv * t.lanes
            vals = []
            for i in range(n):
                it = i // t.lanes
                if t.isf and it == 0 and variant == "u":
                    vals.append(rand_code(rng, t, "any"))          # may hold NaN/inf
                elif t.isf:
                    x = Fraction(rng.randrange(-1000, 1000), rng.choice([1, 3, 7, 64, 1024]))
                    vals.append(t.fmt.encode(fin(x)) if rng.random() < 0.9 else rand_code(rng, t, "any"))
                else:
                    vals.append(rand_code(rng, t))
            if op in ("vcmax", "vcmin", "vcgmax", "vcgmin"):
                # ties and signed zeros
                for i in range(0, n, 9):
                    vals[i] = vals[(i * 7) % n]
                if t.isf:
                    vals[3], vals[4] = 0x0, 1 << (t.bits - 1)
            k.ins.append(("a", t))
            k.data["a"] = pack(t, vals)
            k.outs.append(("r", td))
            mt = (", %m", ", " + mask_ty(t.gran)) if variant == "m" else ("", "")
            k.body.append("%%r_r = pto.%s %%a%s : %s%s -> %s" % (op, mt[0], t.vreg(), mt[1], td.vreg()))
            act = lane_masks(k, t.bytes)
            out = []
            for it in range(k.nv):
                out += red_ref(op, t, td, vals[it * t.lanes:(it + 1) * t.lanes], act[it])
            k.runs.append(({}, {"r": pack(td, out)}))
            ks.append(k)
    return ks


# ---------------------------------------------------------------- SFU converting ops


def build_opconv(op):
    ks = []
    pairs = [("f32", "f16"), ("f16", "i8"), ("f16", "ui8")] if op == "vaddreluconv" else [("f16", "i8"), ("f16", "si8"),
                                                                                        ("f16", "ui8")]
    for sn, dn in pairs:
        s, d = TY[sn], TY[dn]
        for variant in ("m", "u"):
            name = "%s_%s_%s_%s" % (op, sn, dn, variant)
            k = Kernel(name)
            rng = random.Random(name)
            setup_mask(k, rng, s.gran, variant, 3)
            n = k.nv * s.lanes
            if d.isf:
                va, vb = input_vals(rng, s, n, "any"), input_vals(rng, s, n, "any")
                rng.shuffle(vb)
            else:
                def small():
                    r = rng.random()
                    x = Fraction(rng.randrange(-600, 600), rng.choice([1, 2, 4, 10]))
                    return s.fmt.encode(fin(x)) if r < 0.9 else rng.choice(f_codes(s))
                va, vb = [small() for _ in range(n)], [small() for _ in range(n)]
            k.ins += [("a", s), ("b", s)]
            k.data["a"], k.data["b"] = pack(s, va), pack(s, vb)
            k.outs.append(("r", d))
            mt = (", %m", ", " + mask_ty(s.gran)) if variant == "m" else ("", "")
            k.body.append("%%r_r = pto.%s %%a, %%b%s : %s, %s%s -> %s" % (op, mt[0], s.vreg(), s.vreg(), mt[1], d.vreg()))
            act = lane_masks(k, s.bytes)
            out = []
            for it in range(k.nv):
                o = [0] * d.lanes
                for i in range(s.lanes):
                    if not act[it][i]:
                        continue
                    j = it * s.lanes + i
                    tcode = ref_ew("addrelu" if op == "vaddreluconv" else "mul", s, va[j], vb[j])
                    o[i] = cvt_ref(s, d, tcode, "R", True) if not d.isf else d.fmt.encode(s.fmt.decode(tcode), "R", False)
                out += o
            k.runs.append(({}, {"r": pack(d, out)}))
            ks.append(k)
    return ks


def build_vexpdif():
    ks = []
    for sn, part in (("f32", None), ("f32", "ODD"), ("f32", "EVEN"), ("f16", None), ("f16", "EVEN"), ("f16", "ODD")):
        s, d = TY[sn], TY["f32"]
        for variant in ("m", "u"):
            name = "vexpdif_%s_%s_%s" % (sn, (part or "def").lower(), variant)
            k = Kernel(name)
            rng = random.Random(name)
            setup_mask(k, rng, s.gran, variant, 3)
            n = k.nv * s.lanes
            big = 12 if sn == "f16" else 100
            va, vm = [], []
            for i in range(n):
                x = Fraction(rng.uniform(-big, big))
                mx = x + Fraction(rng.uniform(0, big))
                va.append(s.fmt.encode(fin(x)))
                vm.append(s.fmt.encode(fin(mx)))
            sp = f_codes(s)
            for i in range(0, min(n, 2 * len(sp)), 2):
                va[i] = sp[i // 2]
                vm[i + 1] = sp[i // 2]
            va[60], vm[60] = sp[2], sp[2]      # inf - inf
            k.ins += [("a", s), ("x", s)]
            k.data["a"], k.data["x"] = pack(s, va), pack(s, vm)
            k.outs.append(("r", d))
            mt = (", %m", ", " + mask_ty(s.gran)) if variant == "m" else ("", "")
            pt = ', "%s"' % part if part else ""
            k.body.append("%%r_r = pto.vexpdif %%a, %%x%s%s : %s, %s%s -> %s" % (mt[0], pt, s.vreg(), s.vreg(), mt[1],
                                                                             d.vreg()))
            act = lane_masks(k, s.bytes)
            out = []
            for it in range(k.nv):
                for j in range(64):
                    l = j if sn == "f32" else 2 * j + (1 if part == "ODD" else 0)
                    if not act[it][l]:
                        out.append(0)
                        continue
                    q = it * s.lanes + l
                    out.append(fm.f_exp_of(fm.F32, fm.v_sub(fdec(s, va[q]), fdec(s, vm[q]))))
            k.runs.append(({}, {"r": pack(d, out)}))
            ks.append(k)
    return ks


def build_vmulscvt():
    """vmulscvt (PTOAS vpto-spec 13): f32 lane j times the scalar, the exact product rounded once by rnd to the
    half-width destination lane 2j + part (no saturation); inactive lanes and the other part are 0. Rounding A only:
    the compiler rejects the other modes (PTOAS VPTO.cpp "currently only supports rnd A"), and so does the verifier."""
    ks = []
    cases = [("f16", "A", part, "m") for part in ("EVEN", "ODD")]
    cases.append(("bf16", "A", "ODD", "m"))
    for dn, rm, part, variant in cases:
        s, d = TY["f32"], TY[dn]
        name = "vmulscvt_%s_%s_%s_%s" % (dn, rm.lower(), part.lower(), variant)
        k = Kernel(name)
        rng = random.Random(name)
        setup_mask(k, rng, s.gran, variant, 3)
        n = k.nv * s.lanes
        va = input_vals(rng, s, n, "any")
        # products near the f16 limits: overflow, subnormal results and exact ties at the rounding boundary
        for i in range(0, n, 7):
            va[i] = s.fmt.encode(fin(Fraction(rng.randrange(-70000, 70000))))
        for i in range(3, n, 11):
            va[i] = s.fmt.encode(fin(Fraction(rng.randrange(-4096, 4096), 2 ** 26)))
        for i in range(5, n, 13):
            va[i] = s.fmt.encode(fin(Fraction(2049 + 2 * rng.randrange(4), 2048)))    # f16 halfway cases
        k.ins.append(("a", s))
        k.data["a"] = pack(s, va)
        k.outs.append(("r", d))
        k.scalars.append(("s", s))
        k.body.append('%%r_r = pto.vmulscvt %%a, %%s, %%m, "%s", "%s" : %s, f32, %s -> %s' % (
            rm, part, s.vreg(), mask_ty(s.gran), d.vreg()))
        cs = f_codes(s)
        svals = [s.fmt.encode(fin(Fraction(3, 2))), s.fmt.encode(fin(Fraction(-1, 3)))]
        if part == "ODD":
            svals += [cs[2], s.fmt.encode(fin(1))]
        act = lane_masks(k, s.bytes)
        for sv in svals:
            sv = canon_scalar(s, sv)
            out = []
            for it in range(k.nv):
                o = [0] * d.lanes
                for j in range(64):
                    if act[it][j]:
                        prod = fm.v_mul(fdec(s, va[it * 64 + j]), fdec(s, sv))
                        o[2 * j + (1 if part == "ODD" else 0)] = d.fmt.encode(prod, rm, False)
                out += o
            k.runs.append(({"s": sv}, {"r": pack(d, out)}))
        ks.append(k)
    return ks


def build_vtranspose():
    """vtranspose (PTOAS vpto-spec 13, two-operand form): dst[i][j] = src[j][i] over one 16 x 16 matrix of 16-bit
    elements; the bytes around the destination stay untouched."""
    ks = []
    for tn, a_src, a_dst in (("ui16", 0, 1024), ("si16", 2048, 512), ("i16", 4096, 0)):
        name = "vtranspose_%s_%d_%d" % (tn, a_src, a_dst)
        rng = random.Random(name)
        src = [rng.getrandbits(16) for _ in range(256)]
        inb = b"".join(v.to_bytes(2, "little") for v in src)
        lo = min(a_src, a_dst)
        # the output window covers the destination plus 64 bytes either side (initially filled by the input DMA
        # of a 0x5A-byte pattern buffer)
        win = 512 + 128
        w0 = a_dst - 64 if a_dst >= 64 else a_dst
        pad = bytes([0x5A]) * win
        out = bytearray(pad)
        for i in range(16):
            for j in range(16):
                o = a_dst - w0 + 32 * i + 2 * j
                out[o:o + 2] = src[16 * j + i].to_bytes(2, "little")
        ub = ["%z64 = arith.constant 0 : i64", "%one64 = arith.constant 1 : i64",
              "%%a_w = arith.constant %d : i64" % w0, "%%a_s = arith.constant %d : i64" % a_src,
              "%%a_d = arith.constant %d : i64" % a_dst,
              "%%uw = pto.castptr %%a_w : i64 -> !pto.ptr<%s, ub>" % tn,
              "%%us = pto.castptr %%a_s : i64 -> !pto.ptr<%s, ub>" % tn,
              "%%ud = pto.castptr %%a_d : i64 -> !pto.ptr<%s, ub>" % tn]
        ub += dma_in("gp", "uw", win, tn) + dma_in("gs", "us", 512, tn)
        opl = ["pto.vtranspose %%ud, %%us : !pto.ptr<%s, ub>, !pto.ptr<%s, ub>" % (tn, tn)]
        text = sorter_kernel(name, [("gp", "!pto.ptr<%s, gm>" % tn), ("gs", "!pto.ptr<%s, gm>" % tn),
                                    ("go", "!pto.ptr<%s, gm>" % tn)], ub, opl, dma_out("uw", "go", win, tn), "")
        ks.append(RawKernel(name, text, ["%%t/%s.p.bin" % name, "%%t/%s.s.bin" % name,
                                         "zeros:%d:%%t/%s.r0.o.out" % (win, name)],
                            {"o": bytes(out)}, {"p": pad, "s": inb}))
        assert lo >= 0
    return ks


# ---------------------------------------------------------------- sorters (UB to UB, issued from the SU)


def sort_key_desc(t, code):
    v = fdec(t, code)
    if v.isnan():
        return (2, 0)
    return (1, fkey(v))


def sorter_kernel(name, params, ub_lines, op_line, outs, doc):
    """free-form kernel text for the sorters: params [(name, type)], DMA in, op, DMA out"""
    L = ["  func.func @%s(%s) attributes {pto.kernel} {" % (name, ", ".join("%%%s: %s" % p for p in params))]
    L += ["    " + l for l in ub_lines]
    L.append('    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]')
    L.append('    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]')
    L += ["    " + l for l in op_line]
    L.append('    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]')
    L.append('    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]')
    L += ["    " + l for l in outs]
    L.append("    pto.barrier #pto.pipe<PIPE_ALL>")
    L.append("    return")
    L.append("  }")
    return "\n".join(L)


class RawKernel:
    def __init__(self, name, text, args, exps, data):
        self.name, self.text, self.args, self.exps, self.data = name, text, args, exps, data


def dma_in(g, u, nbytes, ty):
    return ["%%n_%s = arith.constant %d : i64" % (u, nbytes),
            "pto.mte_gm_ub %%%s, %%%s, %%z64, %%n_%s nburst(%%one64, %%n_%s, %%n_%s)" % (g, u, u, u, u),
            "  : !pto.ptr<%s, gm>, !pto.ptr<%s, ub>, i64, i64, i64, i64, i64" % (ty, ty)]


def dma_out(u, g, nbytes, ty):
    return ["%%m_%s = arith.constant %d : i64" % (u, nbytes),
            "pto.mte_ub_gm %%%s, %%%s, %%m_%s nburst(%%one64, %%m_%s, %%m_%s)" % (u, g, u, u, u),
            "  : !pto.ptr<%s, ub>, !pto.ptr<%s, gm>, i64, i64, i64, i64" % (ty, ty)]


def build_vbitsort():
    ks = []
    for tn, rep in (("f32", 1), ("f32", 3), ("f16", 2), ("f32", 0)):
        t = TY[tn]
        name = "vbitsort_%s_r%d" % (tn, rep)
        rng = random.Random(name)
        nrec = max(rep, 1) * 32
        scores = []
        for i in range(nrec):
            r = rng.random()
            if r < 0.3 and scores:
                scores.append(rng.choice(scores))          # ties
            elif r < 0.4:
                scores.append(rng.choice(f_codes(t)))
            else:
                scores.append(t.fmt.encode(fin(Fraction(rng.randrange(-500, 500), 8))))
        idx = [rng.getrandbits(32) if i % 5 == 0 else i for i in range(nrec)]
        sb = pack(t, scores)
        ib = pack(TY["ui32"], idx)
        out = bytearray(nrec * 8 + 64)   # untouched tail stays 0
        for r in range(rep):
            recs = list(range(r * 32, r * 32 + 32))
            recs.sort(key=lambda i: sort_key_desc(t, scores[i]), reverse=True)   # stable: earlier first
            # Python's sort is stable for reverse=True too (equal keys keep input order)
            for j, i in enumerate(recs):
                out[(r * 32 + j) * 8:(r * 32 + j) * 8 + 8] = (scores[i] | idx[i] << 32).to_bytes(8, "little")
        ub = ["%z64 = arith.constant 0 : i64", "%one64 = arith.constant 1 : i64",
              "%a_s = arith.constant 0 : i64", "%a_i = arith.constant 1024 : i64", "%a_o = arith.constant 2048 : i64",
              "%%rep = arith.constant %d : index" % rep,
              "%%us = pto.castptr %%a_s : i64 -> !pto.ptr<%s, ub>" % t.mlir,
              "%ui = pto.castptr %a_i : i64 -> !pto.ptr<ui32, ub>",
              "%uo = pto.castptr %a_o : i64 -> !pto.ptr<ui32, ub>"]
        ub += dma_in("gs", "us", len(sb), t.mlir) + dma_in("gi", "ui", len(ib), "ui32")
        opl = ["pto.vbitsort %%uo, %%us, %%ui, %%rep : !pto.ptr<ui32, ub>, !pto.ptr<%s, ub>, !pto.ptr<ui32, ub>, index"
               % t.mlir]
        text = sorter_kernel(name, [("gs", t.ptr("gm")), ("gi", "!pto.ptr<ui32, gm>"), ("go", "!pto.ptr<ui32, gm>")],
                             ub, opl, dma_out("uo", "go", len(out), "ui32"), "")
        ks.append(RawKernel(name, text, ["%%t/%s.s.bin" % name, "%%t/%s.i.bin" % name,
                                         "zeros:%d:%%t/%s.r0.o.out" % (len(out), name)],
                            {"o": bytes(out)}, {"s": sb, "i": ib}))
    return ks


def build_vmrgsort4():
    ks = []
    cases = [  # (name, type, lengths, valid mask, exhausted, repeat)
        ("corpus", "f32", (1, 1, 1, 1), 0xF, 1, 1),
        ("full", "f32", (5, 3, 7, 2), 0xF, 0, 1),
        ("exh", "f32", (5, 3, 7, 2), 0xF, 1, 1),
        ("valid", "f32", (4, 6, 3, 5), 0x5, 0, 1),
        ("validexh", "f32", (4, 6, 3, 5), 0xA, 1, 1),
        ("empty", "f32", (0, 3, 2, 1), 0xF, 0, 1),
        ("rep2", "f32", (3, 3, 3, 3), 0xF, 0, 2),
        ("f16", "f16", (6, 2, 4, 3), 0xF, 0, 1),
    ]
    for cname, tn, lens, valid, exh, rep in cases:
        t = TY[tn]
        name = "vmrgsort4_%s" % cname
        rng = random.Random(name)
        total = sum(lens)
        # lists: sorted descending records (score low word, index high word); one contiguous input buffer
        lists = []
        for r in range(rep):
            for kk in range(4):
                sc = []
                for i in range(lens[kk]):
                    x = rng.choice([Fraction(rng.randrange(-40, 40), 4), Fraction(rng.randrange(-3, 3))])
                    sc.append(t.fmt.encode(fin(x)))
                if cname == "full" and kk == 1 and lens[kk]:
                    sc[0] = t.fmt.cnan
                sc.sort(key=lambda c: sort_key_desc(t, c), reverse=True)
                lists.append([(c, 1000 * r + 100 * kk + i) for i, c in enumerate(sc)])
        # layout: repeat r, list k at base_k + r*span; base_k = offset of list k within repeat 0
        span = 8 * total
        offs = []
        o = 0
        for kk in range(4):
            offs.append(o)
            o += 8 * lens[kk]
        inbuf = bytearray(span * rep + 64)
        for r in range(rep):
            for kk in range(4):
                for i, (c, ix) in enumerate(lists[r * 4 + kk]):
                    p = r * span + offs[kk] + 8 * i
                    inbuf[p:p + 8] = (c | ix << 32).to_bytes(8, "little")
        out = bytearray(span * rep + 64)
        sr = [0, 0, 0, 0]
        for r in range(rep):
            pos = [0, 0, 0, 0]
            ln = [lens[kk] if (valid >> kk) & 1 else 0 for kk in range(4)]
            n = 0
            while True:
                if exh and any((valid >> kk) & 1 and pos[kk] == ln[kk] for kk in range(4)):
                    break
                best = None
                for kk in range(4):
                    if pos[kk] < ln[kk]:
                        c = lists[r * 4 + kk][pos[kk]]
                        if best is None or sort_key_desc(t, c[0]) > sort_key_desc(t, best[1][0]):
                            best = (kk, c)
                if best is None:
                    break
                kk, (c, ix) = best
                p = r * span + 8 * n
                out[p:p + 8] = (c | ix << 32).to_bytes(8, "little")
                n += 1
                pos[kk] += 1
            sr = pos
        cnt = sum(lens[kk] << (16 * kk) for kk in range(4))
        cfg = rep | valid << 8 | exh << 12
        ub = ["%z64 = arith.constant 0 : i64", "%one64 = arith.constant 1 : i64",
              "%a_in = arith.constant 0 : i64", "%a_o = arith.constant 4096 : i64",
              "%%cnt = arith.constant %d : i64" % cnt, "%%cfg = arith.constant %d : i64" % cfg,
              "%%uin = pto.castptr %%a_in : i64 -> !pto.ptr<%s, ub>" % t.mlir,
              "%%uo = pto.castptr %%a_o : i64 -> !pto.ptr<%s, ub>" % t.mlir]
        eb = t.bytes
        for kk in range(4):
            ub.append("%%c_l%d = arith.constant %d : index" % (kk, offs[kk] // eb))
            ub.append("%%l%d = pto.addptr %%uin, %%c_l%d : !pto.ptr<%s, ub> -> !pto.ptr<%s, ub>" % (kk, kk, t.mlir, t.mlir))
        ub += dma_in("gin", "uin", len(inbuf), t.mlir)
        P = "!pto.ptr<%s, ub>" % t.mlir
        opl = ["pto.vmrgsort4 %%uo, %%l0, %%l1, %%l2, %%l3, %%cnt, %%cfg : %s, %s, %s, %s, %s, i64, i64" % ((P,) * 5),
               'pto.set_flag["PIPE_V", "PIPE_S", "EVENT_ID0"]',
               'pto.wait_flag["PIPE_V", "PIPE_S", "EVENT_ID0"]',
               "%s0, %s1, %s2, %s3 = pto.get_vms4_sr : i16, i16, i16, i16" % (("%sr",) * 4)]
        for kk in range(4):
            opl.append("%%ix%d = arith.constant %d : index" % (kk, kk))
            opl.append("pto.store_scalar %%sr%d, %%gsr[%%ix%d] : !pto.ptr<i16, gm>, i16" % (kk, kk))
        text = sorter_kernel(name, [("gin", t.ptr("gm")), ("go", t.ptr("gm")), ("gsr", "!pto.ptr<i16, gm>")], ub, opl,
                             dma_out("uo", "go", len(out), t.mlir), "")
        ks.append(RawKernel(name, text, ["%%t/%s.in.bin" % name, "zeros:%d:%%t/%s.r0.o.out" % (len(out), name),
                                         "zeros:8:%%t/%s.r0.sr.out" % name],
                            {"o": bytes(out), "sr": gl.pack("H", sr)}, {"in": bytes(inbuf)}))
    return ks


# ---------------------------------------------------------------- the files

def files():
    F = {}
    for op in UNARY:
        F[op] = (lambda op=op: build_ew(op), "%s: every accepted element type, masked (plt tail + vcmps holes) and "
                 "unmasked; inactive lanes are 0 (Q48). Specials: NaN, +-inf, +-0, subnormals, integer min/max." % op)
    for op in BINARY:
        F[op] = (lambda op=op: build_ew(op), "%s: every accepted element type, masked and unmasked; the unmasked form "
                 "covers every pair of special values (NaN, +-inf, +-0, subnormals, max, integer min/max)." % op)
    for op in SCALAR:
        F[op] = (lambda op=op: build_ew(op), "%s: vector op scalar for every accepted element type, several scalar "
                 "values per kernel (one RUN each), masked and unmasked." % op)
    for op in TERNARY:
        F[op] = (lambda op=op: build_ew(op), "%s: fused, one rounding of the exact result (Q32), masked and "
                 "unmasked." % op)
    F["vaxpy"] = (lambda: build_ew("vaxpy"), "vaxpy: alpha*a + b fused, one rounding (Q32).")
    F["vtrc"] = (build_vtrc, "vtrc: round to integral in R, A, F, C, Z; NaN and inf pass through (Q27).")
    F["vcmp"] = (lambda: build_cmp("vcmp"), "vcmp: all six predicates per element type; ordered float compares, "
                 "unflushed subnormals, seed-mask gating, canonical result images (Q3, 2.5).")
    F["vcmps"] = (lambda: build_cmp("vcmps"), "vcmps: all six predicates against several scalars (2.5).")
    F["vsel"] = (build_vsel, "vsel: m ? a : b for every element type (2.6).")
    F["vselr"] = (build_vselr, "vselr: r[i] = a[idx[i] mod N] (Q33), indices beyond N included.")
    F["vbr"] = (build_vbr, "vbr: the scalar's low bits in every lane.")
    F["vdup"] = (build_vdup, "vdup: scalar and vector forms, LOWEST/HIGHEST, masked (zeroing) and unmasked (Q34).")
    F["vci"] = (build_vci, "vci: base + i / base - i, integers wrap, floats round to nearest-even (2.6).")
    F["vcarry"] = (lambda: build_carry("vaddc") + build_carry("vsubc") + build_carry("vaddcs") + build_carry("vsubcs"),
                   "vaddc/vsubc/vaddcs/vsubcs: 32-bit carry chains (Q29): carry = unsigned overflow, vsubc carry = no "
                   "borrow, vsubcs = a - b - (1 - cin); carry masks stored with psts.")
    F["vmull"] = (build_vmull, "vmull: full 64-bit product in lo/hi, signless = signed (Q31).")
    F["vcvt"] = (build_vcvt, "vcvt: every legal pair (Q26, 2.4) with every rounding mode and saturation where the pair "
                 "rounds, every part placement, masked at the source granularity and unmasked; unwritten lanes 0.")
    F["vbitcast"] = (build_vbitcast, "vbitcast: the 2048 bits unchanged.")
    for op in ("vcadd", "vcmax", "vcmin", "vcgadd", "vcgmax", "vcgmin", "vcpadd"):
        F[op] = (lambda op=op: build_red(op), "%s: reductions (Q28, 2.6); float sums are a pairwise tree in lane "
                 "order, rounded at every step; inactive lanes add as +0 and are skipped by max/min." % op)
    F["vaddreluconv"] = (lambda: build_opconv("vaddreluconv"), "vaddreluconv: max(a+b, 0) converted (R; saturating "
                         "to integers) into lanes 0..N-1, upper lanes 0.")
    F["vmulconv"] = (lambda: build_opconv("vmulconv"), "vmulconv: f16 a*b converted to i8/ui8 (R, saturating).")
    F["vexpdif"] = (build_vexpdif, "vexpdif: exp(x - max) to f32 (Q32); f16 parts EVEN/ODD, f32 part ignored.")
    F["vmulscvt"] = (build_vmulscvt, "vmulscvt: f32 a*s, the exact product rounded once by rnd A to f16 "
                     "lane 2j+part, no saturation; inactive lanes and the other part 0. bf16 is an extension.")
    F["vtranspose"] = (build_vtranspose, "vtranspose: dst[i][j] = src[j][i] over a 16 x 16 matrix of 16-bit elements; "
                       "nothing outside the 512-byte destination is written.")
    F["vbitsort"] = (build_vbitsort, "vbitsort: 32 proposals per repeat sorted by score descending, stable; 8-byte "
                     "records (score low, index high); repeat 0 does nothing (2.6).")
    F["vmrgsort4"] = (build_vmrgsort4, "vmrgsort4: 4-way merge of sorted record lists, count/config packing, valid "
                      "lists, exhausted mode, repeats, get_vms4_sr (2.6).")
    return F


def write_data(outdir, key):
    build, _ = files()[key]
    for k in build():
        for tag, data in k.data.items():
            gl.save("%s.%s.bin" % (k.name, tag), data, outdir)
        runs = k.runs if isinstance(k, Kernel) else [({}, k.exps)]
        for ri, (_, exps) in enumerate(runs):
            for tag, data in exps.items():
                gl.save("%s.r%d.%s.exp" % (k.name, ri, tag), data, outdir)


def emit(testdir):
    os.makedirs(testdir, exist_ok=True)
    for key, (build, doc) in sorted(files().items()):
        ks = build()
        lines = ["// %s" % doc, "// Generated by tests/gen/gen_valu.py --emit; expected values from fmodel.py.",
                 "// GEN: gen_valu.py %s" % key]
        for k in ks:
            if isinstance(k, Kernel):
                lines += run_lines(k)
            else:
                lines.append("// RUN: ptosim run %%s -q -e %s -- %s" % (k.name, " ".join(k.args)))
                for tag in k.exps:
                    lines.append("// CMP: %%t/%s.r0.%s.out %%t/%s.r0.%s.exp" % (k.name, tag, k.name, tag))
        lines.append('module attributes {pto.target_arch = "a5"} {')
        for k in ks:
            # one kernel per submodule (a module holds at most one pto.kernel function)
            text = kernel_text(k) if isinstance(k, Kernel) else k.text
            lines.append("  module attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {")
            lines += ["  " + l if l else l for l in text.split("\n")]
            lines.append("  }")
        lines.append("}")
        gl.save_text(key + ".pto", "\n".join(lines) + "\n", testdir)


if __name__ == "__main__":
    words = gl.cli(__doc__, 2)
    if gl.OUT == "--emit":
        emit(words[0])
    else:
        write_data(gl.OUT, words[0])
