#!/usr/bin/env python3
"""gen_verify_types.py — the element-type matrix of the vector compute ops, as verifier tests.

  python3 gen_verify_types.py --emit DIR     (re)write DIR/elem_types_*.pto (DIR = tests/verify)
  python3 gen_verify_types.py --matrix       print the op x element-type matrix

For every vector compute op and every vreg element type (21 kinds) the matrix below says whether the
ISA defines the op on it ("ok": check is silent), whether ptosim only simulates it as an extension
("ext": W-ELEM-TYPE) or whether the verifier rejects it ("no": E-ELEM-TYPE at the op). The matrix is
written here independently of the C table (vec_rules in src/verify_fam.c), so the emitted tests
cross-check that table. Evidence per row: S = the v0.6 spec's "A5 types" (isa-notes §3.2), M = the
manual's per-op pages, K = validated kernels of the smoke corpus, Q = shared/spec/resolutions.md.

Emitted files (no ptosim calls here; run by tests/run.py like any .pto test):
  elem_types_accept.pto     every "ok" combination: exit 0, no element-type diagnostic
  elem_types_ext.pto        every "ext" combination: exit 0, W-ELEM-TYPE at each op
  elem_types_reject_NN.pto  every "no" combination: E-ELEM-TYPE at each op, at most 45 per file
                            (the driver stops after 50 errors)
"""
import os
import sys

import genlib as gl

# ---------------------------------------------------------------- element types

# name in the matrix, MLIR spelling, bits, kind ("s" signed/signless, "u" unsigned, "f" float)
TYPES = [
    ("i8", "i8", 8, "s"), ("si8", "si8", 8, "s"), ("ui8", "ui8", 8, "u"),
    ("i16", "i16", 16, "s"), ("si16", "si16", 16, "s"), ("ui16", "ui16", 16, "u"),
    ("i32", "i32", 32, "s"), ("si32", "si32", 32, "s"), ("ui32", "ui32", 32, "u"),
    ("i64", "i64", 64, "s"), ("si64", "si64", 64, "s"), ("ui64", "ui64", 64, "u"),
    ("f16", "f16", 16, "f"), ("bf16", "bf16", 16, "f"), ("f32", "f32", 32, "f"),
    ("e4m3", "f8E4M3FN", 8, "f"), ("e5m2", "f8E5M2", 8, "f"), ("hif8", "!pto.hif8", 8, "f"),
    ("f4e2m1", "!pto.f4E2M1x2", 8, "f"), ("f4e1m2", "!pto.f4E1M2x2", 8, "f"), ("e8m0", "!pto.e8m0", 8, "f"),
]
T = {n: (m, b, k) for n, m, b, k in TYPES}
ALL = [n for n, _, _, _ in TYPES]


def ints(*widths, signed=True, unsigned=True):
    out = set()
    for w in widths:
        if signed:
            out |= {"i%d" % w, "si%d" % w}
        if unsigned:
            out.add("ui%d" % w)
    return out


I8_32 = ints(8, 16, 32)
INT = ints(8, 16, 32, 64)
FH = {"f16", "f32"}
FB = {"f16", "bf16", "f32"}
FP8 = {"e4m3", "e5m2", "hif8", "f4e2m1", "f4e1m2", "e8m0"}
ANY = set(ALL)
BF = {"bf16"}

# op: (shape, ISA set, simulated extensions, evidence)
MATRIX = {
    # unary (isa-notes §3.2.3)
    "vabs": ("un", I8_32 | FH, ints(64) | BF, "S/M i8-i32 f16 f32"),
    "vneg": ("un", I8_32 | FH, ints(64) | BF, "S/M i8-i32 f16 f32"),
    "vexp": ("un", FH, BF, "S/M f16 f32"),
    "vln": ("un", FH, BF, "S/M f16 f32"),
    "vsqrt": ("un", FH, BF, "S/M f16 f32"),
    "vrsqrt": ("un", FH, BF, "M f16 f32"),
    "vrec": ("un", FH, BF, "M f16 f32"),
    "vrelu": ("un", I8_32 | FH, ints(64) | BF, "S si32/i32 f16 f32, M summary i8-i32 f16 f32"),
    "vnot": ("un", INT, set(), "S all integer types"),
    "vbcnt": ("un", INT, set(), "M all integer types"),
    "vcls": ("un", INT, set(), "M all integer types"),
    "vmov": ("un", ANY, set(), "M all"),
    # binary (§3.2.4)
    "vadd": ("bin", INT | FB, set(), "S i8-i64 f16 bf16 f32"),
    "vsub": ("bin", INT | FB, set(), "S i8-i64 f16 bf16 f32"),
    "vmul": ("bin", ints(16, 32) | FB, ints(8, 64), "S/M i16-i32 f16 bf16 f32, NOT i8"),
    "vdiv": ("bin", FH | ints(16, 32, unsigned=False), BF, "S f16 f32; signed/signless i16 i32 (07-binary-vector-ops: the compiler soft library)"),
    "vmax": ("bin", I8_32 | FB, ints(64), "S i8-i32 f16 bf16 f32"),
    "vmin": ("bin", I8_32 | FB, ints(64), "S i8-i32 f16 bf16 f32"),
    "vand": ("bin", INT, FB | FP8, "S all integer types"),
    "vor": ("bin", ANY, set(), "S integers; S §9 and Q26 merge vcvt parts with vor; K f16"),
    "vxor": ("bin", INT, FB | FP8, "S all integer types"),
    "vshl": ("bin", INT, set(), "S all integer types"),
    "vshr": ("bin", INT, set(), "S all integer types"),
    "vaddc": ("carry", ints(32), set(), "S i32 si32 ui32"),
    "vsubc": ("carry", ints(32), set(), "S i32 si32 ui32"),
    "vmadd": ("tern", FB, set(), "S f16 bf16 f32"),
    # vector-scalar (§3.2.5)
    "vadds": ("scal", I8_32 | FB, ints(64), "S si8-si32 ui8-ui32 f16 bf16 f32"),
    "vsubs": ("scal", I8_32 | FB, ints(64), "as vadds"),
    "vmuls": ("scal", ints(16, 32) | FB, ints(8, 64), "as vmul"),
    "vmaxs": ("scal", I8_32 | FB, ints(64), "as vmax"),
    "vmins": ("scal", I8_32 | FB, ints(64), "as vmin"),
    "vands": ("scal", INT, set(), "integers"),
    "vors": ("scal", INT, set(), "integers"),
    "vxors": ("scal", INT, set(), "integers"),
    "vshls": ("shift", INT, set(), "S integer element types only"),
    "vshrs": ("shift", INT, set(), "S integer element types only"),
    "vlrelu": ("scal", FH, BF, "S f16 f32"),
    "vaddcs": ("carrys", ints(32), set(), "S i32 si32 ui32"),
    "vsubcs": ("carrys", ints(32), set(), "S i32 si32 ui32"),
    # conversion (§3.2.6; vcvt pairs: tests/verify/elem_type.pto, tests/valu/vcvt.pto)
    "vci": ("vci", ints(8, 16, 32, unsigned=False) | FH, ints(8, 16, 32, signed=False) | ints(64) | BF,
            "S results si8 si16 si32 f16 f32"),
    "vtrc": ("trc", FB, set(), "S f16 f32 bf16"),
    "vbitcast": ("bitcast", ANY, set(), "S integer and floating-point element types"),
    # reduction (§3.2.7)
    "vcadd": ("un", INT | FH, BF, "S i8-i32 f16 f32, M i16-i64"),
    "vcmax": ("un", ints(16, 32) | FH, ints(8, 64) | BF, "S/M i16-i32 f16 f32"),
    "vcmin": ("un", ints(16, 32) | FH, ints(8, 64) | BF, "S/M i16-i32 f16 f32"),
    "vcgadd": ("un", ints(16, 32) | FH, ints(8, 64) | BF, "S/M i16-i32 f16 f32"),
    "vcgmax": ("un", ints(16, 32) | FH, ints(8, 64) | BF, "S/M i16-i32 f16 f32"),
    "vcgmin": ("un", ints(16, 32) | FH, ints(8, 64) | BF, "S/M i16-i32 f16 f32"),
    "vcpadd": ("un", FH, INT | BF, "S f16 f32"),
    # compare and select (§3.2.8)
    "vcmp": ("cmp", I8_32 | FB, ints(64), "S integer and float compares; K f32 i16 ui16"),
    "vcmps": ("cmps", I8_32 | FB, ints(64), "S integer and float compares; K f32 i16 i32 si8 ui8 ui16"),
    "vsel": ("sel", INT | FB, set(), "S matching element types; not the low-precision kinds (PTOAS verifier)"),
    "vselr": ("idx", ANY, set(), "S index vector of the data width (Q33)"),
    # rearrangement (§3.2.9)
    "vintlv": ("intlv", ANY, set(), "lane moves"),
    "vdintlv": ("intlv", ANY, set(), "lane moves"),
    "vslide": ("slide", ANY, set(), "lane moves"),
    "vshift": ("shiftv", ANY, set(), "lane moves"),
    "vsqz": ("sqz", ANY, set(), "lane moves"),
    "vusqz": ("sqz", ints(8, 16, 32, unsigned=False), ints(8, 16, 32, signed=False) | ints(64),
              "S si8 si16 si32"),
    "vperm": ("idx", ANY, set(), "lane moves"),
    "vpack": ("pack", ints(16, 32), set(), "S i32/ui32 -> ui16, i16/ui16 -> ui8"),
    "vsunpack": ("unpack", I8_32, set(), "sign-extending integer unpack"),
    "vzunpack": ("unpack", I8_32, set(), "zero-extending integer unpack"),
    # SFU (§3.2.10)
    "vaddrelu": ("bin", FH, INT | BF, "M f16 f32"),
    "vsubrelu": ("bin", FH, INT | BF, "M f16 f32"),
    "vaddreluconv": ("conv", FH, set(), "M f32 -> f16, f16 -> i8"),
    "vmulconv": ("conv", {"f16"}, set(), "M f16 -> i8"),
    "vaxpy": ("axpy", FH, BF, "S f16 f32"),
    "vexpdif": ("expdif", FH, set(), "S f16|f32 -> f32"),
    "vprelu": ("bin", FH, BF, "S f16 f32"),
    "vmull": ("mull", ints(32), set(), "S i32/ui32"),
    "vmula": ("tern", ints(16, 32) | FB, ints(8, 64), "no type list: the set of vmul"),
    "vbitsort": ("sort", FH, set(), "S f32 or f16 scores"),
    "vmulscvt": ("mulscvt", {"f32"}, set(), "PTOAS vpto-spec 13: f32 source, f16 result"),
    "vtranspose": ("transpose", ints(16), set(), "PTOAS vpto-spec 13 (two-operand form): si16 i16 ui16"),
    # materialization (§3.2.2)
    "vbr": ("vbr", I8_32 | FB | FP8, set(), "S b8/b16/b32 forms"),
    "vdup": ("vdup", ANY, set(), "S scalar or lane of any vector"),
}

# (op, source, destination): extra destination cases of the fused compute+convert ops
CONV_PAIRS = [
    ("vaddreluconv", "f32", "f16", "ok"), ("vaddreluconv", "f16", "i8", "ok"), ("vaddreluconv", "f16", "si8", "ok"),
    ("vaddreluconv", "f16", "ui8", "ext"), ("vaddreluconv", "f16", "e4m3", "no"), ("vaddreluconv", "f32", "bf16", "no"),
    ("vaddreluconv", "f32", "i16", "no"),
    ("vmulconv", "f16", "i8", "ok"), ("vmulconv", "f16", "ui8", "ext"), ("vmulconv", "f16", "i16", "no"),
    ("vmulscvt", "f32", "f16", "ok"), ("vmulscvt", "f32", "bf16", "ext"), ("vmulscvt", "f32", "i16", "no"),
]


def verdict(op, t):
    _, isa, sim, _ = MATRIX[op]
    return "ok" if t in isa else "ext" if t in sim else "no"


# ---------------------------------------------------------------- op text


def vreg(t):
    m, b, _ = T[t]
    return "!pto.vreg<%dx%s>" % (2048 // b, m)


def gran(t):
    """mask granularity in bits for element type t (64-bit elements take b32 masks)"""
    return min(T[t][1], 32)


def mask(t):
    return "!pto.mask<b%d>" % gran(t)


def scalar_type(t):
    """the scalar of element type t: floats themselves, integers the signless integer of the width"""
    m, b, k = T[t]
    return m if k == "f" else "i%d" % b


def op_line(op, t, n, dst=None):
    """One op of the matrix on element type t; n numbers the result names."""
    shape = MATRIX[op][0]
    V, M = vreg(t), mask(t)
    a, m, s = "%%v_%s" % t, "%%mb%d" % gran(t), "%%s_%s" % t
    r = "%%r%d" % n
    b = T[t][1]
    if shape == "un":
        return "%s = pto.%s %s, %s : %s, %s -> %s" % (r, op, a, m, V, M, V)
    if shape == "bin":
        return "%s = pto.%s %s, %s, %s : %s, %s, %s -> %s" % (r, op, a, a, m, V, V, M, V)
    if shape == "tern":
        return "%s = pto.%s %s, %s, %s, %s : %s, %s, %s, %s -> %s" % (r, op, a, a, a, m, V, V, V, M, V)
    if shape == "carry":
        return "%s, %s_c = pto.%s %s, %s, %s : %s, %s, %s -> %s, %s" % (r, r, op, a, a, m, V, V, M, V, M)
    if shape == "carrys":
        return "%s, %s_c = pto.%s %s, %s, %s, %s : %s, %s, %s, %s -> %s, %s" % (r, r, op, a, a, m, m, V, V, M, M, V, M)
    if shape == "mull":
        return "%s, %s_h = pto.%s %s, %s, %s : %s, %s, %s -> %s, %s" % (r, r, op, a, a, m, V, V, M, V, V)
    if shape == "scal":
        return "%s = pto.%s %s, %s, %s : %s, %s, %s -> %s" % (r, op, a, s, m, V, scalar_type(t), M, V)
    if shape == "shift":
        return "%s = pto.%s %s, %%c1_i16, %s : %s, i16, %s -> %s" % (r, op, a, m, V, M, V)
    if shape == "axpy":
        return "%s = pto.%s %s, %s, %s, %s : %s, %s, %s, %s -> %s" % (r, op, a, a, s, m, V, V, scalar_type(t), M, V)
    if shape == "vci":
        return "%s = pto.vci %s : %s -> %s" % (r, s, scalar_type(t), V)
    if shape == "vbr":
        return "%s = pto.vbr %s : %s -> %s" % (r, s, scalar_type(t), V)
    if shape == "vdup":
        return "%s = pto.vdup %s, %s : %s, %s -> %s" % (r, s, m, scalar_type(t), M, V)
    if shape == "trc":
        return '%s = pto.vtrc %s, %s, "R" : %s, %s -> %s' % (r, a, m, V, M, V)
    if shape == "bitcast":
        return "%s = pto.vbitcast %s : %s -> %s" % (r, a, V, V)
    if shape == "cmp":
        return '%s = pto.vcmp %s, %s, %s, "lt" : %s, %s, %s -> %s' % (r, a, a, m, V, V, M, M)
    if shape == "cmps":
        return '%s = pto.vcmps %s, %s, %s, "lt" : %s, %s, %s -> %s' % (r, a, s, m, V, scalar_type(t), M, M)
    if shape == "sel":
        return "%s = pto.vsel %s, %s, %s : %s, %s, %s -> %s" % (r, a, a, m, V, V, M, V)
    if shape == "idx":
        iv = "%%v_i%d" % b
        return "%s = pto.%s %s, %s : %s, %s -> %s" % (r, op, a, iv, V, vreg("i%d" % b), V)
    if shape == "intlv":
        return "%s, %s_h = pto.%s %s, %s : %s, %s -> %s, %s" % (r, r, op, a, a, V, V, V, V)
    if shape == "slide":
        return "%s = pto.vslide %s, %s, %%c1_i16 : %s, %s, i16 -> %s" % (r, a, a, V, V, V)
    if shape == "shiftv":
        return "%s = pto.vshift %s, %%c1_i16 : %s, i16 -> %s" % (r, a, V, V)
    if shape == "sqz":
        return "%s = pto.%s %s, %s : %s, %s -> %s" % (r, op, a, m, V, M, V)
    if shape == "pack":
        half = max(b // 2, 8)
        return '%s = pto.vpack %s, "LOWER" : %s -> !pto.vreg<%dxui%d>' % (r, a, V, 2048 // half, half)
    if shape == "unpack":
        m_, _, k = T[t]
        if k == "f" or b == 64:
            wide = "!pto.vreg<64xf32>"
        else:
            sign = "ui" if k == "u" else "si" if m_.startswith("si") else "i"
            wide = "!pto.vreg<%dx%s%d>" % (2048 // (2 * b), sign, 2 * b)
        return "%s = pto.%s %s, %%c0 : %s -> %s" % (r, op, a, V, wide)
    if shape == "conv":
        d = dst or ("f16" if t == "f32" else "i8")
        return "%s = pto.%s %s, %s, %s : %s, %s, %s -> %s" % (r, op, a, a, m, V, V, M, vreg(d))
    if shape == "expdif":
        return "%s = pto.vexpdif %s, %s, %s : %s, %s, %s -> !pto.vreg<64xf32>" % (r, a, a, m, V, V, M)
    if shape == "mulscvt":
        d = dst or "f16"
        return '%s = pto.vmulscvt %s, %s, %s, "A", "EVEN" : %s, %s, %s -> %s' % (r, a, s, m, V, scalar_type(t), M, vreg(d))
    if shape == "transpose":
        return "pto.vtranspose %%p_%s, %%p_%s : !pto.ptr<%s, ub>, !pto.ptr<%s, ub>" % (t, t, T[t][0], T[t][0])
    if shape == "sort":
        return ("pto.vbitsort %%p_ui32, %%p_%s, %%p_ui32, %%c1 : !pto.ptr<ui32, ub>, !pto.ptr<%s, ub>, "
                "!pto.ptr<ui32, ub>, index" % (t, T[t][0]))
    raise ValueError(shape)


def needs(op, t):
    """element types whose values the op line uses"""
    shape = MATRIX[op][0]
    n = {t}
    if shape == "idx":
        n.add("i%d" % T[t][1])
    if shape == "sort":
        n.add("ui32")
    return n


# ---------------------------------------------------------------- files


def kernel(name, header, cases):
    """cases: list of (op, t, dst, expectation); returns the file text with DIAG lines resolved."""
    used = set()
    for op, t, dst, _ in cases:
        used |= needs(op, t)
    used = [x for x in ALL if x in used]
    args = ", ".join("%%s_%s: %s" % (x, scalar_type(x)) for x in used)
    pre = ["module attributes {pto.target_arch = \"a5\"} {",
           "  func.func @%s(%s) {" % (name, args),
           "    %c0 = arith.constant 0 : index",
           "    %c1 = arith.constant 1 : index",
           "    %c0_i64 = arith.constant 0 : i64",
           "    %c1_i16 = arith.constant 1 : i16"]
    for x in used:
        pre.append("    %%p_%s = pto.castptr %%c0_i64 : i64 -> !pto.ptr<%s, ub>" % (x, T[x][0]))
    body_out, body_in = [], []
    for i, (op, t, dst, exp) in enumerate(cases):
        text = op_line(op, t, i, dst)
        (body_out if MATRIX[op][0] in ("sort", "transpose") else body_in).append((text, op, exp))
    vec = ["    pto.vecscope {"]
    for g in (8, 16, 32):
        vec.append('      %%mb%d = pto.pset_b%d "PAT_ALL" : !pto.mask<b%d>' % (g, g, g))
    for x in used:
        vec.append("      %%v_%s = pto.vlds %%p_%s[%%c0] : !pto.ptr<%s, ub> -> %s" % (x, x, T[x][0], vreg(x)))
    lines = list(pre)
    expect = []
    for text, op, exp in body_out:
        lines.append("    " + text)
        expect.append((len(lines), text, op, exp, 4))
    lines += vec
    for text, op, exp in body_in:
        lines.append("      " + text)
        expect.append((len(lines), text, op, exp, 6))
    lines += ["    }", "    return", "  }", "}"]
    directives = []
    for ln, text, op, exp, ind in expect:
        col = ind + text.index("pto." + op) + 1
        if exp == "no":
            directives.append("// DIAG: E-ELEM-TYPE @ %d:%d" % (ln, col))
        elif exp == "ext":
            directives.append("// DIAG: W-ELEM-TYPE @ %d:%d" % (ln, col))
    hdr = ["// " + h for h in header]
    hdr.append("// Generated by tests/gen/gen_verify_types.py --emit; do not edit.")
    any_no = any(e == "no" for *_, e in cases)
    hdr.append("// EXIT: %d" % (1 if any_no else 0))
    if not any(e == "ext" for *_, e in cases):
        hdr.append("// NODIAG: W-ELEM-TYPE")
    if not any_no:
        hdr.append("// NODIAG: E-ELEM-TYPE")
    # directives refer to lines of the final file: shift by the header length
    shift = len(hdr) + len(directives)
    directives = [shift_line(d, shift) for d in directives]
    return "\n".join(hdr + directives + lines) + "\n"


def shift_line(d, k):
    head, loc = d.rsplit("@ ", 1)
    ln, col = loc.split(":")
    return "%s@ %d:%s" % (head, int(ln) + k, col)


def all_cases():
    cases = {"ok": [], "ext": [], "no": []}
    for op in MATRIX:
        for t in ALL:
            cases[verdict(op, t)].append((op, t, None, verdict(op, t)))
    for op, s, d, v in CONV_PAIRS:
        cases[v].append((op, s, d, v))
    return cases


def files():
    c = all_cases()
    out = {}
    out["elem_types_accept.pto"] = kernel(
        "elem_types_accept",
        ["Element types the ISA defines for each vector compute op (isa-notes §3.2, manual per-op pages,",
         "validated kernels): every combination verifies without an element-type diagnostic."],
        c["ok"])
    out["elem_types_ext.pto"] = kernel(
        "elem_types_ext",
        ["Element types ptosim simulates beyond the ISA's lists (docs/semantics.md §7.3 extensions):",
         "accepted with the warning W-ELEM-TYPE at the op."],
        c["ext"])
    rej = c["no"]
    per = 45
    for i in range(0, len(rej), per):
        chunk = rej[i:i + per]
        ops = sorted({op for op, *_ in chunk}, key=list(MATRIX).index)
        out["elem_types_reject_%02d.pto" % (i // per + 1)] = kernel(
            "elem_types_reject_%02d" % (i // per + 1),
            ["Element types neither the ISA defines nor ptosim simulates: E-ELEM-TYPE at the op",
             "(%s)." % ", ".join(ops)],
            chunk)
    return out


def matrix_text():
    short = {"ok": "+", "ext": "x", "no": "."}
    w = max(len(op) for op in MATRIX)
    head = " " * w + "  " + " ".join("%-6s" % t for t in ALL)
    rows = [head]
    for op in MATRIX:
        rows.append("%-*s  " % (w, op) + " ".join("%-6s" % short[verdict(op, t)] for t in ALL))
    return "\n".join(rows)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--emit":
        d = sys.argv[2]
        for name in sorted(os.listdir(d)):
            if name.startswith("elem_types_") and name.endswith(".pto"):
                os.remove(os.path.join(d, name))
        for name, text in files().items():
            gl.save_text(name, text, d)
        return 0
    if len(sys.argv) == 2 and sys.argv[1] == "--matrix":
        print("+ ISA (silent)   x simulated extension (W-ELEM-TYPE)   . rejected (E-ELEM-TYPE)")
        print(matrix_text())
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
