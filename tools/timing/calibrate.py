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

Without a checkout it says so and exits 0 (make calibrate runs it that way when PTOISA is unset).
"""
import argparse
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ptoisa", default=os.environ.get("PTOISA", ""), help="a pto-isa checkout (default: $PTOISA)")
    ap.add_argument("--ptosim", default=os.path.join(os.path.dirname(__file__), "..", "..", "build", "ptosim"))
    ap.add_argument("--all", action="store_true", help="print every case, not only the summary")
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
