#!/usr/bin/env python3
"""test_python.py [--build BUILD] — the Python package (python/ptosim) over BUILD's libptosim.so.

Every expectation is computed here, with numpy or by hand from the kernels' text (tests/python/*.pto say
what each kernel does): load errors and their locations, the functions a module lists, argument checks
(count, dtype, element width, layout, scalar ranges: nothing runs), results written in place, a trap (the
arrays keep what was written before it), warnings, the step limit, trace, profile, timing tables, vag loops,
blocks, entries, runs on two threads (results, and that a run does not hold the GIL), `python3 -m ptosim`,
the README's Python example.
Runs under a python3 that has numpy (testlib.require_numpy_and_library); skipped, saying why, when none has."""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import testlib
from testlib import BUILD, ROOT, check, finish

testlib.require_numpy_and_library()
import ctypes, json, pathlib, subprocess, threading

import numpy as np
import ptosim

HERE = os.path.dirname(os.path.abspath(__file__))
K = {name: os.path.join(HERE, name + ".pto") for name in ("axpy", "types", "trap", "race", "spin", "two")}


def lines_of(path):
    return open(path, encoding="utf-8").read().split("\n")


def line_col(path, text, nth=1):
    """(line, col) of the nth occurrence of `text` in the file's code (1-based; comments skipped): where a
    diagnostic must point."""
    for n, line in enumerate(lines_of(path), 1):
        if text in line and not line.lstrip().startswith("//"):
            nth -= 1
            if nth == 0:
                return n, line.index(text) + 1
    raise AssertionError("%r not in %s" % (text, path))


def raises(fn, exc):
    try:
        fn()
    except exc as e:
        return e
    except Exception as e:      # the wrong kind of exception is a failure too
        return AssertionError("expected %s, got %r" % (exc.__name__, e))
    return AssertionError("expected %s, nothing raised" % exc.__name__)


def axpy_expected(x, y, a, n):
    """z[i] = a * x[i] + y[i] for i < n (two f32 roundings, as vmuls then vadd), 0 elsewhere (UB starts zeroed)."""
    z = np.zeros(1024, np.float32)
    k = max(0, min(n, 1024))
    z[:k] = (np.float32(a) * x[:k]).astype(np.float32) + y[:k]
    return z


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


# ------------------------------------------------------------------ load


def test_load_errors():
    text = ("module {\n"
            "  func.func @f(%p: i32) {\n"
            "    %x = arith.addi %a, %p : i32\n"
            "    %y = pto.not_an_op %p : i32\n"
            "    return\n"
            "  }\n"
            "}\n")
    e = raises(lambda: ptosim.load(text, name="bad.pto"), ptosim.DiagnosticError)
    check(isinstance(e, ptosim.DiagnosticError), "load: errors raise DiagnosticError", e)
    if not isinstance(e, ptosim.DiagnosticError):
        return
    got = {(d.id, d.file, d.line, d.col) for d in e.diagnostics}
    check(("E-SSA-UNDEF", "bad.pto", 3, 21) in got, "load: E-SSA-UNDEF at bad.pto:3:21 ('%a')", got)
    check(("E-PARSE-UNKNOWN-OP", "bad.pto", 4, 10) in got, "load: E-PARSE-UNKNOWN-OP at bad.pto:4:10", got)
    check(all(d.severity == "error" for d in e.errors) and len(e.errors) >= 2, "load: every error is kept", e.diagnostics)
    s = str(e)
    check("bad.pto:3:21: error: " in s and "[E-SSA-UNDEF]" in s and "    3 |     %x = arith.addi %a, %p : i32" in s
          and "\n      |                     ^" in s, "load: the error renders like the tool (location, ID, source, caret)", s)
    # the same text from the CLI: the rendered text is the tool's stderr, diagnostic for diagnostic
    p = subprocess.run([os.environ["PTOSIM_BIN"], "check", "-"], input=text.encode(), stderr=subprocess.PIPE)
    check(p.returncode == 1 and p.stderr.decode().replace("<stdin>", "bad.pto") == s + "\n",
          "load: DiagnosticError's text is what `ptosim check` prints", p.stderr.decode() + "\n----\n" + s)

    # a verifier error with a note: a vector scope inside another
    two = ("module {\n"
           "  func.func @a() attributes {pto.kernel} {\n"
           "    pto.vecscope {\n      pto.vecscope {\n      }\n    }\n"
           "    return\n  }\n"
           "}\n")
    e = raises(lambda: ptosim.load(two), ptosim.DiagnosticError)
    d = e.diagnostics[0] if isinstance(e, ptosim.DiagnosticError) and e.diagnostics else None
    check(d is not None and (d.id, d.file, d.line, d.col) == ("E-VEC-NESTED", "<string>", 4, 7)
          and [(n.file, n.line, n.col) for n in d.notes] == [("<string>", 3, 5)]
          and "note: enclosing vector scope opened here" in d.rendered,
          "load: a verifier error carries its note and its location", e)

    e = raises(lambda: ptosim.load(os.path.join(HERE, "no_such_file.pto")), ptosim.DiagnosticError)
    check(isinstance(e, ptosim.DiagnosticError) and e.diagnostics[0].id == "E-IO-READ" and e.diagnostics[0].line is None
          and "no_such_file.pto" in str(e), "load: an unreadable file is E-IO-READ without a location", e)
    check(isinstance(raises(lambda: ptosim.load(K["axpy"], target="a6"), ValueError), ValueError),
          "load: an unknown target is a ValueError")
    m = ptosim.load(pathlib.Path(K["axpy"]), target="cpu")
    check(m.target == "cpu" and ptosim.load(K["axpy"]).target == "a5" and m.name == K["axpy"],
          "load: a pathlib.Path or a str path; target from the argument, else pto.target_arch", (m.target, m.name))
    m = ptosim.load(open(K["axpy"], "rb").read())
    check(m.name == "<string>" and "axpy" in m.kernels, "load: bytes are kernel text")


def test_check():
    # tests/parse/units.pto: two nested modules, the second's kernel returns a value (E-ENTRY at its
    # func.func); check() reports what load() raises, without keeping the module.
    path = os.path.join(ROOT, "tests", "parse", "units.pto")
    line, col = line_col(path, "func.func @unit2")
    got = ptosim.check(path)
    check([(d.id, d.file, d.line, d.col) for d in got] == [("E-ENTRY", path, line, col)], "check: the error of the second unit", got)
    e = raises(lambda: ptosim.load(path), ptosim.DiagnosticError)
    check(e is not None and [str(d) for d in e.diagnostics] == [str(d) for d in got], "check: what load raises", e)
    text = open(path).read().replace("-> i32 attributes", "attributes").replace("      %c = arith.constant 0 : i32\n", "")
    check(ptosim.check(text.replace("return %c : i32", "return"), target="a5") == [], "check: a clean text, no diagnostics")


def test_load_warnings():
    text = ('module attributes {pto.target_arch = "a5"} {\n'
            '  func.func @k(%s: !pto.ptr<ui8, gm>) attributes {pto.kernel} {\n'
            '    %c0 = arith.constant 0 : i64\n'
            '    %c32 = arith.constant 32 : i64\n'
            '    %ub = pto.castptr %c0 : i64 -> !pto.ptr<ui8, ub>\n'
            '    pto.mte_gm_ub %s, %ub, %c0, %c32 nburst(%c0, %c32, %c32) : !pto.ptr<ui8, gm>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64\n'
            '    return\n'
            '  }\n'
            '}\n')
    m = ptosim.load(text, name="zero.pto")
    check([(d.id, d.severity, d.file, d.line, d.col) for d in m.warnings] == [("W-ZERO-COUNT", "warning", "zero.pto", 6, 5)],
          "load: a warning (zero burst count at 6:5) does not stop the load; Module.warnings keeps it", m.warnings)
    r = m.run(np.zeros(32, np.uint8))
    check(r.warnings == [], "load: the load's warnings are not repeated by a run", r.warnings)


def test_functions():
    m = ptosim.load(K["two"])
    check(list(m.kernels) == ["slices", "nothing"] and list(m.functions) == ["slices", "nothing", "helper"],
          "kernels: the pto.kernel functions; functions: every function, in source order", (m.kernels, m.functions))
    s = m.functions["slices"]
    check([(p.name, p.kind, p.type, p.space, p.dtype) for p in s.params]
          == [("src", "pointer", "!pto.ptr<ui8, gm>", "gm", np.dtype(np.uint8)), ("dst", "pointer", "!pto.ptr<ui8, gm>", "gm", np.dtype(np.uint8))]
          and s.is_kernel and s.line == line_col(K["two"], "func.func @slices")[0],
          "kernels: parameter names, kinds, types, spaces and dtypes", s)
    n = m.functions["nothing"]
    check([(p.kind, p.bits, p.dtype) for p in n.params] == [("pointer", 16, np.dtype(np.float16)), ("float", 32, np.dtype(np.float32))]
          and str(n) == "@nothing(%h: !pto.ptr<f16, gm>, %q: f32)", "kernels: f16 pointer and f32 scalar", n)
    h = m.functions["helper"]
    check(not h.is_kernel and [(p.kind, p.bits, p.dtype) for p in h.params] == [("int", 32, np.dtype(np.int32))],
          "functions: a helper without pto.kernel", h)
    t = ptosim.load(K["types"]).kernels["types"]
    check([str(p.dtype) for p in t.params] == ["uint16", "uint16", "int32", "float16", "int8", "int64"],
          "kernels: bf16 travels as raw uint16; index is 64-bit", [p.dtype for p in t.params])


# ------------------------------------------------------------------ binding and results


def test_axpy_in_place():
    m = ptosim.load(K["axpy"])
    rng = np.random.default_rng(15)
    x = rng.standard_normal(1024).astype(np.float32)
    y = rng.standard_normal(1024).astype(np.float32)
    for a, n in ((1.5, 1000), (-0.3, 64), (3.0e-3, 1024), (2.0, 0), (0.5, 2000)):
        z = np.full(1024, 7.0, np.float32)
        zid = id(z)
        r = m.run(x, y, z, a, n)
        check(id(z) == zid and same_bits(z, axpy_expected(x, y, a, n)),
              "run: axpy a=%r n=%d writes z in place, bit-exact against numpy" % (a, n),
              np.flatnonzero(z != axpy_expected(x, y, a, n))[:10])
    check(isinstance(r, ptosim.RunResult) and r.entry == "axpy" and r.target == "a5" and r.blocks == 1,
          "run: the result names the entry, target and blocks", r)
    s = r.stats
    check(s.cores == 1 and s.bytes_moved.get("PIPE_MTE2") == 8192 and s.bytes_moved.get("PIPE_MTE3") == 4096
          and s.cycles > 0 and s.ops_executed > 0 and s.vector_ops > 0,
          "run: stats: one core, 2 x 4096 bytes in on MTE2, 4096 out on MTE3", s)
    check(len(r.cores) == 1 and r.cores[0].pipes["PIPE_MTE2"].bytes == 8192 and r.clock_hz > 0
          and abs(r.seconds - s.cycles / r.clock_hz) < 1e-15, "run: per-core pipe times and simulated seconds", r.cores)
    check(r.warnings == [] and r.trace is None and r.profile == [], "run: no warnings, no trace or profile unless asked")
    # a view of a bigger buffer is bound at its own offset (zero-copy of the view's memory)
    big = np.zeros(3072, np.float32)
    m.run(x, y, big[1024:2048], 1.0, 1024)
    check(same_bits(big[1024:2048], axpy_expected(x, y, 1.0, 1024)) and not big[:1024].any() and not big[2048:].any(),
          "run: a contiguous slice is bound in place, the rest of its base untouched")
    # numpy scalars and an int for a float parameter
    z = np.zeros(1024, np.float32)
    m.run(x, y, z, np.float32(2.0), np.int64(10))
    z2 = np.zeros(1024, np.float32)
    m.run(x, y, z2, 2, 10)
    check(same_bits(z, axpy_expected(x, y, 2.0, 10)) and same_bits(z2, z), "run: numpy scalars; an int for an f32 parameter")


def test_binding_checks():
    m = ptosim.load(K["axpy"])
    x = np.ones(1024, np.float32)
    z = np.full(1024, 5.0, np.float32)

    def bad(what, args, ident, words):
        e = raises(lambda: m.run(*args), ptosim.ArgumentError)
        ok = isinstance(e, ptosim.ArgumentError) and isinstance(e, ValueError) and e.diagnostics[0].id == ident
        check(ok and all(w in str(e) for w in words), "binding: %s -> %s" % (what, ident), e)
        check(same_bits(z, np.full(1024, 5.0, np.float32)), "binding: nothing ran after %s" % what)

    bad("too few arguments", (x, x, z, 1.0), "E-ARG-COUNT",
        ["takes 5 argument(s), 4 given", "%x: !pto.ptr<f32, gm>", "%n: i32"])
    bad("too many arguments", (x, x, z, 1.0, 3, 4), "E-ARG-COUNT", ["6 given"])
    bad("float64 for f32", (x.astype(np.float64), x, z, 1.0, 3), "E-ARG-FORM",
        ["parameter 0 (%x: !pto.ptr<f32, gm>)", "needs a float32 array", "float64"])
    bad("int32 for f32", (x, x.view(np.int32), z, 1.0, 3), "E-ARG-FORM", ["parameter 1 (%y", "int32"])
    bad("a list for a pointer", (list(x), x, z, 1.0, 3), "E-ARG-FORM", ["needs a numpy float32 array", "list"])
    bad("a non-contiguous view", (np.ones(2048, np.float32)[::2], x, z, 1.0, 3), "E-ARG-FORM", ["not C-contiguous"])
    ro = np.ones(1024, np.float32)
    ro.flags.writeable = False
    bad("a read-only array", (x, ro, z, 1.0, 3), "E-ARG-FORM", ["read-only"])
    bad("big-endian data", (x.astype(">f4"), x, z, 1.0, 3), "E-ARG-FORM", ["needs a float32 array"])
    bad("a float for i32", (x, x, z, 1.0, 3.0), "E-ARG-FORM", ["parameter 4 (%n: i32)", "needs an integer"])
    bad("2**32 for i32", (x, x, z, 1.0, 2 ** 32), "E-ARG-FORM", ["4294967296 does not fit i32"])
    bad("-2**31-1 for i32", (x, x, z, 1.0, -2 ** 31 - 1), "E-ARG-FORM", ["does not fit i32"])
    bad("a str for f32", (x, x, z, "1.0", 3), "E-ARG-FORM", ["parameter 3 (%a: f32)", "needs a float"])
    bad("an array for a scalar", (x, x, z, x, 3), "E-ARG-FORM", ["needs a float"])

    t = ptosim.load(K["types"])
    src = np.arange(128, dtype=np.uint16) * 515
    w, h = np.zeros(4, np.int32), np.zeros(4, np.float16)

    def tbad(what, args, words):
        e = raises(lambda: t.run(*args), ptosim.ArgumentError)
        check(isinstance(e, ptosim.ArgumentError) and all(x in str(e) for x in words), "binding: %s" % what, e)

    tbad("float16 for bf16 (raw bits)", (src.view(np.float16), np.zeros(128, np.uint16), w, h, 1, 0),
         ["parameter 0 (%src: !pto.ptr<bf16, gm>)", "uint16 array (the raw bits of bf16"])
    tbad("int16 for i32: element width", (src, np.zeros(128, np.uint16), w.view(np.int16), h, 1, 0), ["parameter 2", "int32 array"])
    tbad("float32 for f16", (src, np.zeros(128, np.uint16), w, h.astype(np.float32), 1, 0), ["parameter 3", "float16 array"])
    tbad("256 for i8", (src, np.zeros(128, np.uint16), w, h, 256, 0), ["256 does not fit i8"])
    tbad("-129 for i8", (src, np.zeros(128, np.uint16), w, h, -129, 0), ["-129 does not fit i8"])
    tbad("2**64 for index", (src, np.zeros(128, np.uint16), w, h, 0, 2 ** 64), ["does not fit index"])
    for k, e in ((255, None), (-128, None), (True, None), (2 ** 64 - 1, None)):
        dst = np.zeros(128, np.uint16)
        try:
            t.run(src, dst, w, h, k if k != 2 ** 64 - 1 else 0, 2 ** 64 - 1 if k == 2 ** 64 - 1 else 0)
            ok = same_bits(dst, src)
        except ptosim.DiagnosticError as x:
            ok = x
        check(ok is True, "binding: %r is accepted (fits signed or unsigned), the bf16 bits are copied" % (k,), ok)
    dst = np.zeros(128, np.int16)
    t.run(src.view(np.int16), dst, w.view(np.uint32), h, -1, 7)
    check(same_bits(dst.view(np.uint16), src), "binding: integer widths take either signedness (int16 for bf16, uint32 for i32)")


def test_trap():
    m = ptosim.load(K["trap"])
    src = (np.arange(256) * 7 + 3).astype(np.uint8)
    dst = np.zeros(256, np.uint8)
    e = raises(lambda: m.run(src, dst, 262016), ptosim.TrapError)
    ok = isinstance(e, ptosim.TrapError)
    line, col = line_col(K["trap"], "pto.mte_gm_ub %src, %far")
    check(ok and e.trap is not None and (e.trap.id, e.trap.severity, e.trap.file, e.trap.line, e.trap.col)
          == ("T-OOB", "trap", K["trap"], line, col), "trap: TrapError carries T-OOB at the second load (%d:%d)" % (line, col), e)
    check(ok and "[0x3ff80, 0x40080)" in e.trap.message and "trap: " in str(e) and "[T-OOB]" in str(e),
          "trap: the message names the range (262016 + 256 past 262144) and renders like the tool", e)
    check(same_bits(dst, src), "trap: the array keeps what the kernel wrote before the trap")
    check(ok and isinstance(e.result, ptosim.RunResult) and e.result.stats.bytes_moved.get("PIPE_MTE3") == 256,
          "trap: the result up to the trap (256 bytes out on MTE3)", ok and e.result)
    dst2 = np.zeros(256, np.uint8)
    m.run(src, dst2, 1024)
    check(same_bits(dst2, src), "trap: the module runs again after a trap")

    # too small an array: GM is one flat device space, so the reads past it land in the gap after it (W-GM-OOB
    # naming the array); with strict_gm the run traps at the access that leaves it, naming the buffer and its size
    a = ptosim.load(K["axpy"])
    x, z = np.ones(512, np.float32), np.zeros(1024, np.float32)
    line, col = line_col(K["axpy"], "pto.mte_gm_ub %x")
    r = a.run(x, np.ones(1024, np.float32), z, 1.0, 4)
    oob = [d for d in r.warnings if d.id == "W-GM-OOB"]
    check(len(oob) == 1 and (oob[0].line, oob[0].col) == (line, col) and "buffer 'x'" in oob[0].message,
          "flat GM: a too small array is W-GM-OOB naming it", r.diagnostics)
    e = raises(lambda: a.run(x, np.ones(1024, np.float32), z, 1.0, 4, strict_gm=True), ptosim.TrapError)
    check(isinstance(e, ptosim.TrapError) and e.trap.id == "T-OOB" and (e.trap.line, e.trap.col) == (line, col)
          and "GM buffer 'x' lie outside its 2048" in e.trap.message, "trap: a too small array is T-OOB naming it (strict_gm)", e)

    s = ptosim.load(K["spin"])
    out = np.zeros(4, np.int64)
    e = raises(lambda: s.run(out, 1000, steps=500), ptosim.TrapError)
    check(isinstance(e, ptosim.TrapError) and e.trap.id == "T-STEP-LIMIT"
          and e.trap.line == line_col(K["spin"], "scf.yield")[0], "steps: a step limit stops the loop (T-STEP-LIMIT)", e)
    s.run(out, 1000)
    check(list(out) == [3000, 0, 0, 0], "steps: without it the loop completes (3 x 1000)", out)


def test_warnings():
    m = ptosim.load(K["race"])
    src, dst = np.ones(64, np.float32), np.zeros(64, np.float32)
    r = m.run(src, dst)
    ids = sorted(d.id for d in r.warnings)
    check(ids == ["W-FLAG-LEFTOVER", "W-RACE"], "warnings: W-RACE and W-FLAG-LEFTOVER are in the result", r.diagnostics)
    race = [d for d in r.warnings if d.id == "W-RACE"]
    if race:
        d = race[0]
        check((d.line, d.col) == line_col(K["race"], "pto.vlds") and d.severity == "warning"
              and [(n.line, n.col) for n in d.notes] == [line_col(K["race"], "pto.mte_gm_ub")]
              and "warning: " in d.rendered and "[W-RACE]" in d.rendered,
              "warnings: W-RACE at the vector load with a note at the DMA", d)
    left = [d for d in r.warnings if d.id == "W-FLAG-LEFTOVER"]
    check(left and left[0].line == line_col(K["race"], '"EVENT_ID1"')[0], "warnings: W-FLAG-LEFTOVER at the unwaited set_flag", left)
    r = m.run(src, dst, race=False)
    check([d.id for d in r.warnings] == ["W-FLAG-LEFTOVER"], "warnings: race=False turns race detection off", r.warnings)


def test_views():
    m = ptosim.load(K["axpy"])
    x = np.arange(1024, dtype=np.float32)
    z = np.zeros(1024, np.float32)
    r = m.run(x, x, z, 2.0, 1024, trace=True, profile=True)
    t = json.loads(r.trace) if r.trace else {}
    ev = t.get("traceEvents", t if isinstance(t, list) else [])
    check(len(ev) > 0, "trace: trace=True returns the Chrome trace JSON", (r.trace or "")[:200])
    vm = line_col(K["axpy"], "pto.vmuls")[0]
    rows = [p for p in r.profile if p.line == vm]
    check(len(rows) == 1 and rows[0].count == 16 and rows[0].op == "pto.vmuls" and rows[0].file == K["axpy"],
          "profile: the vmuls line ran 16 times (1024 lanes / 64 per step)", r.profile)
    check(len(r.loops) == 1 and r.loops[0].line == line_col(K["axpy"], "scf.for")[0] and r.loops[0].iterations == 16,
          "profile: the vector loop, 16 iterations", r.loops)
    base = m.run(x, x, z, 2.0, 1024)
    slow = m.run(x, x, z, 2.0, 1024, timing="clock_ghz 1.0\npath gm_ub peak=1\n")
    check(slow.clock_hz == 1.0e9 and slow.stats.cycles > base.stats.cycles and same_bits(z, axpy_expected(x, x, 2.0, 1024)),
          "timing: a table (as text) sets the clock and slows GM->UB, the bytes stay", (base.stats.cycles, slow.stats.cycles))
    again = m.run(x, x, z, 2.0, 1024)
    check(again.stats.cycles == base.stats.cycles and again.clock_hz == base.clock_hz, "timing: the next run without a table uses the built-in one")
    tf = os.path.join(os.environ.get("TMPDIR", "/tmp"), "ptosim_test_timing_%d.txt" % os.getpid())
    with open(tf, "w") as f:
        f.write("# two lines\nclock_ghz banana\n")
    try:
        e = raises(lambda: m.run(x, x, z, 2.0, 1024, timing=pathlib.Path(tf)), ptosim.DiagnosticError)
    finally:
        os.unlink(tf)
    check(isinstance(e, ptosim.DiagnosticError) and e.diagnostics and e.diagnostics[0].id == "E-TIMING"
          and (e.diagnostics[0].file, e.diagnostics[0].line) == (tf, 2), "timing: a bad table file is E-TIMING at its line", e)
    check("clock_ghz" in ptosim.default_timing_table("a5"), "timing: default_timing_table gives the built-in text")

    # vag loops (tests/vaddr/vag_default_zero.pto states its expectations by hand)
    v = ptosim.load(os.path.join(ROOT, "tests", "vaddr", "vag_default_zero.pto"))
    src = np.frombuffer(bytes([7]) * 288, np.float32).copy()
    out0, out1 = (np.frombuffer(bytes([238]) * 288, np.float32).copy() for _ in range(2))
    v.run(src, out0)
    v.run(src, out1, vag_loops=True)
    check(out0.tobytes() == bytes([7]) * 256 + bytes([238]) * 32 and out1.tobytes() == bytes([7]) * 288,
          "vag_loops: off, the loop counter reads 0; on, the second iteration moves by the stride")

    # tile_op_expand (tests/tile_cube/textract_expand.pto; inputs and expectations from its generator): on, the
    # TileLib reading matches; off, pto-isa's reading of the same windows gives other products
    import tempfile
    gd = tempfile.mkdtemp(prefix="ptosim-py-expand-")
    try:
        subprocess.run([sys.executable, os.path.join(ROOT, "tests", "gen", "gen_tile_cube.py"), gd, "textract_expand"],
                       check=True)
        rd = lambda n, t: np.fromfile(os.path.join(gd, n), t)   # noqa: E731
        u16 = np.uint16
        tx = ptosim.load(os.path.join(ROOT, "tests", "tile_cube", "textract_expand.pto"))
        o1, o2 = np.zeros(256, np.float32), np.zeros(256, np.float32)
        args = [rd("a.bin", u16).view(tx.entry_for(None).params[0].dtype), rd("s2.bin", u16).view(tx.entry_for(None).params[1].dtype),
                rd("st.bin", u16).view(tx.entry_for(None).params[2].dtype), o1, o2]
        tx.run(*args, tile_op_expand=True)
        ok = o1.tobytes() == rd("expected1.bin", np.uint8).tobytes() and o2.tobytes() == rd("expected2.bin", np.uint8).tobytes()
        o1[:] = 0
        o2[:] = 0
        tx.run(*args)
        off = o1.tobytes() != rd("expected1.bin", np.uint8).tobytes() and o2.tobytes() != rd("expected2.bin", np.uint8).tobytes()
        check(ok and off, "tile_op_expand: on, the templates' textract; off, pto-isa's (other products)")
    finally:
        import shutil
        shutil.rmtree(gd, ignore_errors=True)


def test_entries_and_blocks():
    m = ptosim.load(K["two"])
    src = (np.arange(1024) % 251).astype(np.uint8)
    dst = np.zeros(1024, np.uint8)
    e = raises(lambda: m.run(src, dst), ptosim.DiagnosticError)
    check(isinstance(e, ptosim.DiagnosticError) and e.diagnostics[0].id == "E-ENTRY", "entry: two kernels need entry=", e)
    r = m.run(src, dst, entry="slices", blocks=4)
    check(same_bits(dst, src) and r.blocks == 4 and r.stats.cores == 4 and r.entry == "slices",
          "blocks: 4 blocks copy 4 slices of 256 bytes", (r, np.flatnonzero(dst != src)[:5]))
    dst[:] = 0
    m.run(src, dst, entry="@slices", blocks=2)
    check(same_bits(dst[:512], src[:512]) and not dst[512:].any(), "blocks: 2 blocks copy the first 512 bytes")
    r = m.run(5, entry="helper")
    check(r.entry == "helper", "entry: a function without pto.kernel runs by name")
    e = raises(lambda: m.run(5, entry="nope"), ptosim.DiagnosticError)
    check(isinstance(e, ptosim.DiagnosticError) and e.diagnostics[0].id == "E-ENTRY" and "nope" in str(e), "entry: an unknown name is E-ENTRY", e)
    for bad in (0, 65536, -1, 1.5, True):
        check(isinstance(raises(lambda: m.run(src, dst, entry="slices", blocks=bad), ValueError), ValueError),
              "blocks=%r is refused" % (bad,))
    check(isinstance(raises(lambda: m.run(src, dst, entry="slices", steps=0), ValueError), ValueError), "steps=0 is refused")
    check(isinstance(raises(lambda: m.run(src, dst, entry="slices", colour=1), TypeError), TypeError), "an unknown option is a TypeError")
    m.close()
    check(isinstance(raises(lambda: m.run(src, dst, entry="slices"), ValueError), ValueError), "a closed module refuses to run")
    with ptosim.load(K["axpy"]) as a:
        check("axpy" in a.kernels, "a module is a context manager")
        z = np.zeros(1024, np.float32)
        check(a.run(z, z.copy(), z.copy(), 2.0, 8).output == "",
              "output: a kernel that prints nothing has an empty device output")
    with ptosim.load(os.path.join(ROOT, "tests", "scalar", "print.pto")) as p:
        r = p.run(1.5, -7, 0.1, blocks=2)
        check(r.output.startswith("x = +001.500|\n") and r.output.endswith("i=0 i=1 i=2 [b0][b1]"),
              "output: RunResult.output holds pto.print's text, the blocks in order", r.output)


# ------------------------------------------------------------------ threads


def test_threads():
    m = ptosim.load(K["axpy"])
    other = ptosim.load(K["trap"])
    rng = np.random.default_rng(7)
    errors = []

    def worker(seed):
        r = np.random.default_rng(seed)
        for i in range(12):
            x, y = r.standard_normal(1024).astype(np.float32), r.standard_normal(1024).astype(np.float32)
            a, n = float(r.uniform(-2, 2)), int(r.integers(0, 1100))
            z = np.zeros(1024, np.float32)
            m.run(x, y, z, a, n)
            if not same_bits(z, axpy_expected(x, y, a, n)):
                errors.append((seed, i))
            src, dst = r.integers(0, 256, 256).astype(np.uint8), np.zeros(256, np.uint8)
            other.run(src, dst, 0)
            if not same_bits(dst, src):
                errors.append((seed, i, "copy"))

    ts = [threading.Thread(target=worker, args=(int(rng.integers(1 << 30)),)) for _ in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    check(not errors, "threads: two threads run one module (and another) at once; every result matches numpy", errors)
    check(len(m._pool) >= 1, "threads: the module keeps its contexts for the next runs")

    # A run releases the GIL: while a long run goes on in one thread, this thread runs kernels itself. (A run
    # holding the GIL would block this thread until the long run ended, so the long run would be over.)
    check(not isinstance(ptosim._api._L, ctypes.PyDLL), "threads: the library is a CDLL (calls release the GIL)")
    spin = ptosim.load(K["spin"])
    overlapped = False
    for n in (5_000_000, 20_000_000, 80_000_000):
        out = np.zeros(4, np.int64)
        started = threading.Event()

        def long_run():
            started.set()
            spin.run(out, n, steps=10 ** 12, race=False)

        t = threading.Thread(target=long_run)
        t.start()
        started.wait()
        x = np.ones(1024, np.float32)
        for _ in range(3):
            z = np.zeros(1024, np.float32)
            m.run(x, x, z, 1.0, 1024, race=False)
        overlapped = t.is_alive() and out[0] == 0
        t.join()
        check(out[0] == 3 * n, "threads: the long run's result (3 x %d)" % n, out)
        if overlapped:
            break
    check(overlapped, "threads: kernels ran on this thread while another thread's run was under way")


# ------------------------------------------------------------------ python -m ptosim


def test_main():
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    tool = os.environ["PTOSIM_BIN"]
    bad = os.path.join(os.environ.get("TMPDIR", "/tmp"), "ptosim_test_main_%d.pto" % os.getpid())
    with open(bad, "w") as f:
        f.write("module {\n  func.func @f() {\n    %x = arith.addi %a, %a : i32\n    return\n  }\n}\n")
    for args in (["--version"], ["help", "run"], ["run", "-q", K["axpy"], "fill:4096:63", "fill:4096:64", "zeros:4096", "2.0", "100"],
                 ["run", K["trap"], "zeros:256", "zeros:256", "262016"], ["check", bad], ["run", "--bogus"], ["run", "--list-options"]):
        a = subprocess.run([sys.executable, "-m", "ptosim"] + args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        b = subprocess.run([tool] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        check((a.returncode, a.stdout, a.stderr) == (b.returncode, b.stdout, b.stderr),
              "python -m ptosim %s: same exit status (%d) and output as the tool" % (" ".join(args[:2]), b.returncode),
              "%r\n%r" % ((a.returncode, a.stdout[-300:], a.stderr[-300:]), (b.returncode, b.stdout[-300:], b.stderr[-300:])))
    codes = [subprocess.run([sys.executable, "-m", "ptosim"] + args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
             for args in (["check", K["axpy"]], ["check", bad], ["run"], ["run", K["trap"], "zeros:256", "zeros:256", "262016"])]
    check(codes == [0, 1, 2, 3], "python -m ptosim: exit statuses 0, 1, 2, 3", codes)
    # an interpreter without numpy (a pyenv or venv python3 first on PATH, if there is one) still runs the tool
    import shutil
    plain = [p for p in (shutil.which("python3"), "/usr/local/bin/python3") if p and not testlib._imports_numpy(p)]
    if plain:
        a = subprocess.run([plain[0], "-m", "ptosim", "--version"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        b = subprocess.run([plain[0], "-c", "import ptosim"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        check(a.returncode == 0 and a.stdout.startswith(b"ptosim ") and b.returncode != 0 and b"numpy" in b.stderr,
              "python -m ptosim works without numpy (%s); import ptosim says numpy is missing" % plain[0], a.stderr + b.stderr)
    os.unlink(bad)


def test_readme():
    """The README's Python example runs verbatim from the repository root (its assert compares with numpy)."""
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    import re
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.M | re.S)
    check(blocks, "README: has a Python example")
    for b in blocks:
        p = subprocess.run([sys.executable, "-c", b], cwd=ROOT, env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python")),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        check(p.returncode == 0 and b"axpy on a5" in p.stdout, "README: the Python example runs", (p.stdout + p.stderr).decode()[-2000:])


for t in (test_readme, test_load_errors, test_check, test_load_warnings, test_functions, test_axpy_in_place, test_binding_checks, test_trap, test_warnings, test_views,
          test_entries_and_blocks, test_threads, test_main):
    try:
        t()
    except Exception as e:      # a crash in one group is a failure, the others still run
        import traceback
        check(False, "%s raised %r" % (t.__name__, e), traceback.format_exc())
finish()
