#!/usr/bin/env python3
"""Calibration harness of the timing model (docs/timing.md "Accuracy"; issue 30).

Compares ptosim's cycles for a5 element-wise tile ops with the "Profiling" cycles of pto-isa's
tests/costmodel/st_a5_fit, read at run time from a pto-isa checkout the user provides (PTOISA=/path, or
--ptoisa). Nothing of pto-isa is copied into this repository: the figures are parsed from the checkout
each time, and the kernels run here are ptosim's own (generated below).

For each profiled case (op, element type, tile rows x cols, valid rows x cols) the harness writes a kernel
that loads the tile(s), runs the op once and stores the result, runs it with `ptosim run --stats-format=json
--profile`, and takes the executing cycles of the op's source line (the V-pipe job of the tile op,
its base cycle included). It prints one table: per op and element type, the number of cases, the mean and
the worst relative error, and the worst case; with --all, every case.

Then it builds pto-isa's VfSim from the same checkout (its VfSim sources and parameter files are copied into
build/vfsim/ — the build tree, never this repository — and compiled with tools/timing/vfsim_driver.cpp, which
is ours) and runs a set of vector loops (LOOPS below: independent ALU, chains, reductions, a conversion, SFU,
predicate-heavy, interleaved loads, two loads and a store, unrolled chains, a nest) through both: ptosim runs
each as a vector scope of its own kernel (the V pipe's busy cycles, one cycle of mask setup included), VfSim
the same instructions. It prints that table too. --no-vfsim skips this part (it needs a C++20 compiler).

Without a checkout it says so and exits 0 (make calibrate runs it that way when PTOISA is unset).
"""
import argparse
import shutil
import json
import os
import re
import subprocess
import sys
import tempfile

UNARY = {"texp", "tsqrt", "trecip", "trsqrt", "tneg"}
BINARY = {"tadd", "tsub", "tmul"}
SCALAR = {"tmins", "tdivs"}
DTYPES = {"Half": ("f16", 2), "Float": ("f32", 4)}
TEMPLATE_TYPES = {"half": "Half", "float": "Float"}

CASE_RE = re.compile(r"\{\s*DType::(\w+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*([0-9.]+)\s*,"
                     r"[^,]*,[^,]*,\s*\"([^\"]*)\"\s*\}")
RUN_RE = re.compile(r"run\w+<\s*(\w+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*(?:(\d+)\s*,\s*(\d+)\s*,\s*)?([0-9.]+)\s*,\s*[0-9.]+")


def read_cases(ptoisa):
    """(op, dtype, rows, cols, vrows, vcols, cycles) of every st_a5_fit case the harness can express."""
    base = os.path.join(ptoisa, "tests", "costmodel", "st_a5_fit", "testcase")
    out = []
    for d in sorted(os.listdir(base)):
        op = d[:-4] if d.endswith("_fit") else None
        if op not in UNARY | BINARY | SCALAR:
            continue
        with open(os.path.join(base, d, "main.cpp"), encoding="utf-8") as f:
            text = f.read()
        for m in CASE_RE.finditer(text):
            dt, r, c, vr, vc, cyc, params = m.groups()
            if dt not in DTYPES or params not in ("", "default"):   # e.g. trecip "high_precision": not modelled
                continue
            out.append((op, dt, int(r), int(c), int(vr), int(vc), float(cyc)))
        # the binary ops' files list their cases as template arguments: run<T, R, C[, VR, VC], cycles, precision>
        for m in RUN_RE.finditer(text):
            ty, r, c, vr, vc, cyc = m.groups()
            if ty not in TEMPLATE_TYPES:
                continue
            out.append((op, TEMPLATE_TYPES[ty], int(r), int(c), int(vr or r), int(vc or c), float(cyc)))
    return out


def kernel(op, dt, r, c, vr, vc):
    """A kernel running `op` once on an r x c tile with a vr x vc valid region; returns (text, op line)."""
    t, _ = DTYPES[dt]
    tile = "!pto.tile_buf<vec, %dx%dx%s, valid=%dx%d>" % (r, c, t, vr, vc)
    pv = "!pto.partition_tensor_view<%dx%dx%s>" % (vr, vc, t)
    tv = "!pto.tensor_view<%dx%dx%s>" % (vr, vc, t)
    L = ['module attributes {pto.target_arch = "a5"} {',
         "  func.func @k(%%a: !pto.ptr<%s>, %%b: !pto.ptr<%s>, %%d: !pto.ptr<%s>) attributes {pto.kernel} {" % (t, t, t),
         "    %c0 = arith.constant 0 : index",
         "    %c1 = arith.constant 1 : index",
         "    %%cr = arith.constant %d : index" % vr,
         "    %%cc = arith.constant %d : index" % vc,
         "    %%cs = arith.constant %d : index" % c,
         "    %%s = arith.constant 1.5 : %s" % t]
    # the op writes its result over its first source (one or two tiles: the largest cases fill most of UB)
    for name in ("a", "b", "d") if op in BINARY else ("a", "d"):
        L.append("    %%%s_v = pto.make_tensor_view %%%s, shape = [%%cr, %%cc], strides = [%%cs, %%c1] : %s" % (name, name, tv))
        L.append("    %%%s_p = pto.partition_view %%%s_v, offsets = [%%c0, %%c0], sizes = [%%cr, %%cc] : %s -> %s"
                 % (name, name, tv, pv))
        if name != "d":
            L.append("    %%t%s = pto.alloc_tile : %s" % (name, tile))
    L.append("    pto.tload ins(%%a_p : %s) outs(%%ta : %s)" % (pv, tile))
    if op in BINARY:
        L.append("    pto.tload ins(%%b_p : %s) outs(%%tb : %s)" % (pv, tile))
    if op in UNARY:
        ins = "%%ta : %s" % tile
    elif op in BINARY:
        ins = "%%ta, %%tb : %s, %s" % (tile, tile)
    else:
        ins = "%%ta, %%s : %s, %s" % (tile, t)
    L.append("    pto.%s ins(%s) outs(%%ta : %s)" % (op, ins, tile))
    line = len(L)
    L.append("    pto.tstore ins(%%ta : %s) outs(%%d_p : %s)" % (tile, pv))
    L += ["    return", "  }", "}", ""]
    return "\n".join(L), line


def run_case(ptosim, tmp, case):
    op, dt, r, c, vr, vc, _ = case
    text, line = kernel(op, dt, r, c, vr, vc)
    path = os.path.join(tmp, "k.pto")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    nbytes = vr * c * DTYPES[dt][1]
    fill = "fill:%d:%d" % (nbytes, 60)
    p = subprocess.run([ptosim, "run", path, "-q", "--stats-format=json", "--profile", "--", fill, fill,
                        "zeros:%d" % nbytes], capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip().splitlines()[-1:] if p.stderr else ["exit %d" % p.returncode]
    doc = json.loads(p.stdout)
    for ln in doc["profile"]["lines"]:
        if ln["line"] == line:
            return ln["cycles"], None
    return None, ["the op's line is not in the profile"]


# ---------------------------------------------------------------------------------------------- VfSim loops

# A loop kernel: (name, outer trips or 0, inner trips, body, after). Body items: (kind, op, dst, srcs).
# kinds: ld (dst <- UB buffer src), st (UB buffer dst <- src), un (unary), bin, red (reduction), cvt
# (f32 -> f16), cmp (-> a mask), sel (a, b, mask), mov (vbr of the scalar); values are f32 registers unless
# named h* (f16) or p* (masks). `acc*` values are carried across iterations (initialised by vbr before).
LOOPS = [
    ("abs (1 load, 1 store)", 0, 16, [("ld", "vlds", "x", ["A"]), ("un", "vabs", "y", ["x"]), ("st", "vsts", "O", ["y"])]),
    ("add (2 loads, 1 store)", 0, 16, [("ld", "vlds", "x", ["A"]), ("ld", "vlds", "y", ["B"]),
                                       ("bin", "vadd", "z", ["x", "y"]), ("st", "vsts", "O", ["z"])]),
    ("3 loads, 1 store", 0, 16, [("ld", "vlds", "x", ["A"]), ("ld", "vlds", "y", ["B"]), ("ld", "vlds", "w", ["C"]),
                                 ("bin", "vadd", "z", ["x", "y"]), ("bin", "vadd", "u", ["z", "w"]),
                                 ("st", "vsts", "O", ["u"])]),
    ("independent ALU tree", 0, 16, [("ld", "vlds", "x", ["A"]), ("ld", "vlds", "y", ["B"]),
                                     ("bin", "vadd", "a", ["x", "y"]), ("bin", "vmul", "b", ["x", "y"]),
                                     ("bin", "vmax", "c", ["x", "y"]), ("bin", "vmin", "d", ["x", "y"]),
                                     ("bin", "vadd", "e", ["a", "b"]), ("bin", "vadd", "f", ["c", "d"]),
                                     ("bin", "vadd", "g", ["e", "f"]), ("st", "vsts", "O", ["g"])]),
    ("dependent chain", 0, 16, [("ld", "vlds", "x", ["A"]), ("bin", "vmul", "a", ["x", "x"]),
                                ("bin", "vadd", "b", ["a", "x"]), ("bin", "vmax", "c", ["b", "x"]),
                                ("bin", "vsub", "d", ["c", "x"]), ("st", "vsts", "O", ["d"])]),
    ("loop-carried add", 0, 16, [("ld", "vlds", "x", ["A"]), ("bin", "vadd", "acc", ["acc", "x"])]),
    ("4 unrolled carried adds", 0, 16, [("ld", "vlds", "x", ["A"]), ("bin", "vadd", "acc0", ["acc0", "x"]),
                                        ("bin", "vadd", "acc1", ["acc1", "x"]), ("bin", "vadd", "acc2", ["acc2", "x"]),
                                        ("bin", "vadd", "acc3", ["acc3", "x"])]),
    ("reduction (vcadd)", 0, 16, [("ld", "vlds", "x", ["A"]), ("red", "vcadd", "r", ["x"]), ("st", "vsts", "O", ["r"])]),
    ("max reduction (vcmax)", 0, 16, [("ld", "vlds", "x", ["A"]), ("red", "vcmax", "r", ["x"]), ("st", "vsts", "O", ["r"])]),
    ("exp (SFU)", 0, 16, [("ld", "vlds", "x", ["A"]), ("un", "vexp", "y", ["x"]), ("st", "vsts", "O", ["y"])]),
    ("div (SFU)", 0, 16, [("ld", "vlds", "x", ["A"]), ("ld", "vlds", "y", ["B"]), ("bin", "vdiv", "z", ["x", "y"]),
                          ("st", "vsts", "O", ["z"])]),
    ("convert f32 -> f16", 0, 16, [("ld", "vlds", "x", ["A"]), ("cvt", "vcvt", "hy", ["x"]), ("st", "vsts", "H", ["hy"])]),
    ("compare + select", 0, 16, [("ld", "vlds", "x", ["A"]), ("ld", "vlds", "y", ["B"]), ("cmp", "vcmp", "pq", ["x", "y"]),
                                 ("sel", "vsel", "z", ["x", "y", "pq"]), ("st", "vsts", "O", ["z"])]),
    ("nest 4 x 8 of add", 4, 8, [("ld", "vlds", "x", ["A"]), ("ld", "vlds", "y", ["B"]),
                                 ("bin", "vadd", "z", ["x", "y"]), ("st", "vsts", "O", ["z"])]),
    ("nest 8 x 2 of exp", 8, 2, [("ld", "vlds", "x", ["A"]), ("un", "vexp", "y", ["x"]), ("st", "vsts", "O", ["y"])]),
]

VF_OP = {"vlds": "VLDS", "vsts": "VSTS", "vabs": "VABS", "vadd": "VADD", "vmul": "VMUL", "vmax": "VMAX", "vmin": "VMIN",
         "vsub": "VSUB", "vcadd": "VCADD", "vcmax": "VCMAX", "vexp": "VEXP", "vdiv": "VDIV", "vcvt": "VCVT_F32_TO_F16",
         "vcmp": "VCMP_EQ", "vsel": "VSEL", "vbr": "VBR"}
F32, F16, M32 = "!pto.vreg<64xf32>", "!pto.vreg<128xf16>", "!pto.mask<b32>"


def carried(body):
    return sorted({d for _, _, d, _ in body if d.startswith("acc")})


def loop_pto(outer, inner, body):
    """ptosim's kernel for a loop: a vector scope with the mask set up, the carried values initialised, the
    loop (nested when outer > 0), and the carried values stored after it."""
    acc = carried(body)
    L = ['module attributes {pto.target_arch = "a5"} {',
         "  func.func @k() attributes {pto.kernel} {",
         "    %i0 = arith.constant 0 : index", "    %i1 = arith.constant 1 : index",
         "    %%in = arith.constant %d : index" % inner, "    %%io = arith.constant %d : index" % max(outer, 1),
         "    %f1 = arith.constant 1.0 : f32"]
    for k, (name, off) in enumerate((("A", 0), ("B", 8192), ("C", 16384), ("O", 24576))):
        L.append("    %%c%s = arith.constant %d : i64" % (name, off))
        L.append("    %%%s = pto.castptr %%c%s : i64 -> !pto.ptr<f32, ub>" % (name, name))
    L.append("    %cH = arith.constant 32768 : i64")
    L.append("    %H = pto.castptr %cH : i64 -> !pto.ptr<f16, ub>")
    L.append("    pto.vecscope {")
    L.append('      %m = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>')
    for a in acc:
        L.append("      %%%s_0 = pto.vbr %%f1 : f32 -> %s" % (a, F32))
    ind = "      "
    if outer:
        L.append(ind + "scf.for %o = %i0 to %io step %i1 {")
        ind += "  "
    if acc:
        L.append(ind + "%%r:%d = scf.for %%i = %%i0 to %%in step %%i1 iter_args(%s) -> (%s) {"
                 % (len(acc), ", ".join("%%%s = %%%s_0" % (a, a) for a in acc), ", ".join([F32] * len(acc))))
    else:
        L.append(ind + "scf.for %i = %i0 to %in step %i1 {")
    ind2 = ind + "  "
    out = {}
    for kind, op, d, srcs in body:
        dn = ("%%%s_n" % d) if d in acc else "%" + d
        sv = ["%" + x for x in srcs]
        if kind == "ld":
            L.append(ind2 + "%s = pto.vlds %s[%%i0] : !pto.ptr<f32, ub> -> %s" % (dn, sv[0], F32))
        elif kind == "st":
            if d == "H":
                L.append(ind2 + 'pto.vsts %s, %%H[%%i0], %%m16 : %s, !pto.ptr<f16, ub>, !pto.mask<b16>' % (sv[0], F16))
            else:
                L.append(ind2 + "pto.vsts %s, %%%s[%%i0], %%m : %s, !pto.ptr<f32, ub>, %s" % (sv[0], d, F32, M32))
        elif kind in ("un", "red"):
            L.append(ind2 + "%s = pto.%s %s, %%m : %s, %s -> %s" % (dn, op, sv[0], F32, M32, F32))
        elif kind == "bin":
            L.append(ind2 + "%s = pto.%s %s, %s, %%m : %s, %s, %s -> %s" % (dn, op, sv[0], sv[1], F32, F32, M32, F32))
        elif kind == "cvt":
            L.append(ind2 + '%s = pto.vcvt %s, %%m {rnd = "R", sat = "NOSAT", part = "EVEN"} : %s, %s -> %s'
                     % (dn, sv[0], F32, M32, F16))
        elif kind == "cmp":
            L.append(ind2 + '%s = pto.vcmp %s, %s, %%m, "eq" : %s, %s, %s -> %s' % (dn, sv[0], sv[1], F32, F32, M32, M32))
        elif kind == "sel":
            L.append(ind2 + "%s = pto.vsel %s, %s, %s : %s, %s, %s -> %s" % (dn, sv[0], sv[1], sv[2], F32, F32, M32, F32))
        out[d] = dn
    if acc:
        L.append(ind2 + "scf.yield %s : %s" % (", ".join(out[a] for a in acc), ", ".join([F32] * len(acc))))
    L.append(ind + "}")
    if outer:
        L.append("      }")
    for k, a in enumerate(acc):
        L.append("      pto.vsts %%r#%d, %%O[%%i0], %%m : %s, !pto.ptr<f32, ub>, %s" % (k, F32, M32))
    L.append("    }")
    L += ["    return", "  }", "}", ""]
    text = "\n".join(L)
    if "%m16" in text:
        text = text.replace('      %m = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>',
                            '      %m = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>\n'
                            '      %m16 = pto.pset_b16 "PAT_ALL" : !pto.mask<b16>')
    return text


def loop_vfsim(outer, inner, body):
    """The same loop for tools/timing/vfsim_driver.cpp."""
    acc = carried(body)
    vals = {"A": "ub fp32", "B": "ub fp32", "C": "ub fp32", "O": "ub fp32", "H": "ub fp16", "s": "scalar fp32"}
    for _, _, d, srcs in body:
        for v in [d] + srcs:
            if v not in vals:
                vals[v] = "reg fp16" if v.startswith("h") else "reg fp32"
    L = ["value %s %s" % (k, v) for k, v in vals.items()]
    L += ["inst VBR %s s" % a for a in acc]
    if outer:
        L.append("loop %d" % outer)
    L.append("loop %d" % inner)
    for kind, op, d, srcs in body:
        L.append("inst %s %s %s" % (VF_OP[op], d, ",".join(srcs)))
    L.append("end")
    if outer:
        L.append("end")
    L += ["inst VSTS O %s" % a for a in acc]
    return "\n".join(L) + "\n"


def build_vfsim(ptoisa, build):
    """Builds the driver against the checkout's VfSim in build/vfsim; returns (driver, params dir) or None."""
    src = os.path.join(ptoisa, "include", "pto", "costmodel", "a5", "VfSim")
    if not os.path.isdir(src):
        print("vfsim: no include/pto/costmodel/a5/VfSim in the checkout; loops not compared")
        return None
    root = os.path.join(build, "vfsim")
    inc = os.path.join(root, "include")
    dst = os.path.join(inc, "pto", "costmodel", "a5", "VfSim")
    drv = os.path.join(root, "vfsim_driver")
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vfsim_driver.cpp")
    if os.path.exists(drv) and os.path.getmtime(drv) > max(os.path.getmtime(here), os.path.getmtime(src)):
        return drv, dst
    cxx = os.environ.get("CXX") or shutil.which("g++") or shutil.which("clang++")
    if not cxx:
        print("vfsim: no C++ compiler; loops not compared")
        return None
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(src, dst)
    vfinfo = os.path.join(ptoisa, "include", "pto", "costmodel", "a5", "cce_costmodel")
    if os.path.isdir(vfinfo):
        shutil.copytree(vfinfo, os.path.join(inc, "pto", "costmodel", "a5", "cce_costmodel"))
    p = subprocess.run([sys.executable, os.path.join(dst, "gen_vfsim_params_header.py")], capture_output=True, text=True)
    if p.returncode:
        print("vfsim: generating its parameter header failed; loops not compared\n" + p.stderr[-500:])
        return None
    objs = []
    for f in sorted(os.listdir(dst)):
        if f.endswith(".cpp") and f not in ("VfSimCostModel.cpp", "PtoLoopTracePass.cpp"):
            o = os.path.join(root, f[:-4] + ".o")
            p = subprocess.run([cxx, "-std=c++20", "-O1", "-c", "-I", inc, os.path.join(dst, f), "-o", o],
                               capture_output=True, text=True)
            if p.returncode:
                print("vfsim: compiling %s failed; loops not compared\n%s" % (f, p.stderr[-800:]))
                return None
            objs.append(o)
    p = subprocess.run([cxx, "-std=c++20", "-O1", "-I", inc, here] + objs + ["-o", drv], capture_output=True, text=True)
    if p.returncode:
        print("vfsim: linking the driver failed; loops not compared\n" + p.stderr[-800:])
        return None
    return drv, dst


def compare_loops(ptosim, vfsim, tmp):
    drv, params = vfsim
    print()
    print("ptosim vs VfSim on vector loops (a vector function each: startup + drain + the loop)")
    print("%-26s %8s %8s %8s  %s" % ("loop", "VfSim", "ptosim", "error", "ptosim's bound"))
    errs = []
    for name, outer, inner, body in LOOPS:
        path = os.path.join(tmp, "loop.pto")
        with open(path, "w", encoding="utf-8") as f:
            f.write(loop_pto(outer, inner, body))
        p = subprocess.run([ptosim, "run", path, "-q", "--stats-format=json", "--profile"], capture_output=True,
                           text=True)
        if p.returncode:
            print("%-26s ptosim failed: %s" % (name, (p.stderr.strip().splitlines() or ["?"])[0]))
            continue
        doc = json.loads(p.stdout)
        v = doc["cores"][0]["pipes"]["PIPE_V"]["busy"]
        bound = doc["loops"][0]["bound"] if doc.get("loops") else "-"
        q = subprocess.run([drv, params], input=loop_vfsim(outer, inner, body), capture_output=True, text=True)
        out = q.stdout.strip()
        if not out.startswith("cycles "):
            print("%-26s %8s %8d %8s  %s" % (name, out or "failed", v, "", bound))
            continue
        ref = int(out.split()[1])
        e = (v - ref) / ref if ref else 0.0
        errs.append(e)
        print("%-26s %8d %8d %+7.1f%%  %s" % (name, ref, v, 100 * e, bound))
    if errs:
        print("loops: %d compared, %d within 10%%, mean |err| %.1f%%" %
              (len(errs), sum(1 for e in errs if abs(e) <= 0.10), 100 * sum(abs(e) for e in errs) / len(errs)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ptoisa", default=os.environ.get("PTOISA", ""), help="a pto-isa checkout (default: $PTOISA)")
    ap.add_argument("--ptosim", default=os.path.join(os.path.dirname(__file__), "..", "..", "build", "ptosim"))
    ap.add_argument("--all", action="store_true", help="print every case, not only the summary")
    ap.add_argument("--no-vfsim", action="store_true", help="do not build VfSim nor compare the loops")
    ap.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "..", "build"))
    a = ap.parse_args()
    fit = os.path.join(a.ptoisa, "tests", "costmodel", "st_a5_fit") if a.ptoisa else ""
    if not a.ptoisa or not os.path.isdir(fit):
        print("calibrate: no pto-isa checkout (set PTOISA=/path/to/pto-isa, which must hold "
              "tests/costmodel/st_a5_fit); nothing compared")
        return 0
    cases = read_cases(a.ptoisa)
    rows, failed = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for cs in cases:
            got, err = run_case(a.ptosim, tmp, cs)
            if got is None:
                failed.append((cs, err))
                continue
            rows.append((cs, got, (got - cs[6]) / cs[6]))
    if a.all:
        print("%-7s %-5s %-10s %-10s %9s %9s %8s" % ("op", "type", "tile", "valid", "profiled", "ptosim", "error"))
        for cs, got, e in rows:
            print("%-7s %-5s %-10s %-10s %9.0f %9d %+7.1f%%" % (cs[0], DTYPES[cs[1]][0], "%dx%d" % cs[2:4],
                                                                "%dx%d" % cs[4:6], cs[6], got, 100 * e))
        print()
    print("ptosim vs pto-isa st_a5_fit profiled cycles (a5 tile ops, one op per kernel)")
    print("%-7s %-5s %6s %10s %10s %10s  %s" % ("op", "type", "cases", "mean |err|", "worst", "within 10%", "worst case"))
    groups = {}
    for cs, got, e in rows:
        groups.setdefault((cs[0], cs[1]), []).append((cs, got, e))
    for (op, dt), g in sorted(groups.items()):
        mean = sum(abs(e) for _, _, e in g) / len(g)
        cs, got, e = max(g, key=lambda x: abs(x[2]))
        ok = sum(1 for _, _, x in g if abs(x) <= 0.10)
        print("%-7s %-5s %6d %9.1f%% %+9.1f%% %6d/%-3d  %dx%d valid %dx%d: %d vs %.0f" %
              (op, DTYPES[dt][0], len(g), 100 * mean, 100 * e, ok, len(g), cs[2], cs[3], cs[4], cs[5], got, cs[6]))
    if rows:
        ok = sum(1 for _, _, e in rows if abs(e) <= 0.10)
        print("all: %d cases, %d within 10%%, mean |err| %.1f%%" % (len(rows), ok, 100 * sum(abs(e) for _, _, e in rows) / len(rows)))
    for cs, err in failed[:5]:
        print("not run: %s %s %dx%d valid %dx%d: %s" % (cs[0], cs[1], cs[2], cs[3], cs[4], cs[5], " ".join(err)))
    if failed:
        print("%d case(s) not run" % len(failed))
    if not a.no_vfsim:
        vf = build_vfsim(os.path.abspath(a.ptoisa), os.path.abspath(a.build))
        if vf:
            with tempfile.TemporaryDirectory() as tmp:
                compare_loops(a.ptosim, vf, tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
