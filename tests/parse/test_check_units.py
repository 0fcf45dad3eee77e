#!/usr/bin/env python3
"""test_check_units.py --build BUILD — `ptosim check` verifies each module nested in the top module as soon as
it is parsed and then frees it. This checks what that must not change: the same diagnostics, in the same
order, as the whole-module path (`fmt`, which keeps the module), namely unit by unit (each nested module
whole, in textual order, then the rest of the top module); quoted source lines and carets intact after the
units are freed; nothing verified when the parse reports an error anywhere; -Werror / -Wno- applied inside
units; standard input; several files in one call. The expected IDs and positions are computed here from the
text this script writes (line numbers counted, columns found with str.index), never from ptosim."""
import os, re, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import BUILD, check, finish

PTOSIM = os.path.join(BUILD, "ptosim")


def ptosim(*args, stdin=None):
    p = subprocess.run([PTOSIM] + list(args), input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stderr.decode("utf-8", "replace")


# Unit A: a kernel that returns a value (E-ENTRY at the func's name).
UNIT_A = """  module {
    func.func @a() -> i32 attributes {pto.kernel} {
      %c = arith.constant 0 : i32
      return %c : i32
    }
  }
"""
# The top module's own function: the same error, reported after every unit.
TOP_FUNC = """  func.func @top() -> i32 attributes {pto.kernel} {
    %c = arith.constant 1 : i32
    return %c : i32
  }
"""
# Unit B: two pre-v0.6 ops, the loop-size setter and the copy (W-DEPRECATED at each).
UNIT_B = """  module {
    func.func @b(%g: !pto.ptr<f16, gm>) attributes {pto.kernel} {
      %c0 = arith.constant 0 : i64
      %c1 = arith.constant 1 : i64
      %c64 = arith.constant 64 : i64
      %ub = pto.castptr %c0 : i64 -> !pto.ptr<f16, ub>
      pto.set_loop_size_outtoub %c1, %c1 : i64, i64
      pto.copy_ubuf_to_gm %ub, %g, %c0, %c1, %c64, %c0, %c64, %c64
        : !pto.ptr<f16, ub>, !pto.ptr<f16, gm>, i64, i64, i64, i64, i64, i64
      return
    }
  }
"""
# Unit C: an alignment state passed into a function (E-ALIGN-CHAIN at the argument), found by the
# alignment pass, which runs after the walk: it still comes before the top module's diagnostics.
UNIT_C = """  module {
    func.func @c(%al: !pto.align) {
      return
    }
  }
"""
# Unit D: clean.
UNIT_D = """  module {
    func.func @d() attributes {pto.kernel} {
      return
    }
  }
"""
# Unit E calls a function of the top module written after it (valid: callees are looked up through the
# enclosing modules), with a wrong argument count (E-CALL, which needs the callee), so checking must keep
# it until the top module is complete; unit F after it has an error of its own.
UNIT_E = """  module {
    func.func @e() attributes {pto.kernel} {
      %v = arith.constant 1 : i64
      %r = func.call @helper(%v, %v) : (i64, i64) -> i64
      return
    }
  }
"""
UNIT_F = """  module {
    func.func @f() -> i32 attributes {pto.kernel} {
      %c = arith.constant 2 : i32
      return %c : i32
    }
  }
"""
HELPER = """  func.func @helper(%x: i64) -> i64 {
    return %x : i64
  }
"""
BAD_PARSE = """  module {
    func.func @e() {
      %x = arith.addi %nope, %nope : i32
      return
    }
  }
"""


def module(*parts):
    return "module {\n" + "".join(parts) + "}\n"


def where(text, needle, nth=0):
    """(line, col) of the nth occurrence of needle in text, 1-based."""
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    line = text.count("\n", 0, i) + 1
    col = i - (text.rfind("\n", 0, i) + 1) + 1
    return line, col


def diags(err):
    """[(file, line, col, severity, id)] in the order printed."""
    out = []
    for m in re.finditer(r"^(\S+):(\d+):(\d+): (error|warning|note): .*?(?: \[([A-Z0-9-]+)\])?$", err, re.M):
        out.append((m.group(1), int(m.group(2)), int(m.group(3)), m.group(4), m.group(5)))
    return out


tmp = tempfile.mkdtemp(prefix="ptosim-units-")
text = module(UNIT_A, TOP_FUNC, UNIT_B, UNIT_C, UNIT_D)
path = os.path.join(tmp, "units.pto")
with open(path, "w") as f:
    f.write(text)

a = where(text, "func.func @a")
top = where(text, "func.func @top")
b0 = where(text, "pto.set_loop_size_outtoub")
b = where(text, "pto.copy_ubuf_to_gm")
c = where(text, "%al")
expect = [(path, a[0], a[1], "error", "E-ENTRY"), (path, b0[0], b0[1], "warning", "W-DEPRECATED"),
          (path, b[0], b[1], "warning", "W-DEPRECATED"),
          (path, c[0], c[1], "error", "E-ALIGN-CHAIN"), (path, top[0], top[1], "error", "E-ENTRY")]

rc, err = ptosim("check", path)
check(rc == 1, "check exits 1 on verify errors", "exit %d\n%s" % (rc, err))
check(diags(err) == expect, "check: units in order, then the top module", "%s\nexpected %s" % (err, expect))
rc2, err2 = ptosim("fmt", path, "-o", os.devnull)
check(diags(err2) == expect, "fmt (whole module kept): the same diagnostics in the same order", err2)
check(err == err2, "check and fmt print the same text", "check:\n%s\nfmt:\n%s" % (err, err2))

# Quoted lines survive the units being freed: each diagnostic quotes its line, caret under its column.
lines = text.split("\n")
blocks = re.findall(r"^\S+:(\d+):(\d+): [^\n]*\n\s*\d+ \| ([^\n]*)\n\s*\| ( *)\^$", err, re.M)
check(len(blocks) == len(expect), "every diagnostic quotes its source line", err)
for ln, col, quoted, pad in blocks:
    ln, col = int(ln), int(col)
    check(quoted == lines[ln - 1] and len(pad) == col - 1, "quote and caret of %d:%d" % (ln, col),
          "%r / %d spaces vs %r" % (quoted, len(pad), lines[ln - 1]))

# A parse error anywhere (here in the last unit): nothing is verified, only the parse error is reported.
bad = module(UNIT_A, TOP_FUNC, UNIT_B, UNIT_C, BAD_PARSE)
bpath = os.path.join(tmp, "bad.pto")
with open(bpath, "w") as f:
    f.write(bad)
rc, err = ptosim("check", bpath)
nope = where(bad, "%nope")
got = diags(err)
check(rc == 1 and got and all(d[4].startswith("E-SSA") or d[4].startswith("E-PARSE") for d in got)
      and got[0][1:3] == nope, "a parse error in a later unit: only the parse error", err)
rc2, err2 = ptosim("fmt", bpath, "-o", os.devnull)
check(err == err2, "... as the whole-module path reports", "check:\n%s\nfmt:\n%s" % (err, err2))

# A unit that calls out of itself: the same diagnostics and order as the whole-module path (units A, E, F,
# then the top module's function), and no error for a call that resolves.
calls = module(UNIT_A, UNIT_E, UNIT_F, TOP_FUNC, HELPER)
cpath = os.path.join(tmp, "calls.pto")
with open(cpath, "w") as f:
    f.write(calls)
ce, cf, ct = where(calls, "func.call @helper"), where(calls, "func.func @f"), where(calls, "func.func @top")
ca = where(calls, "func.func @a")
cexpect = [(cpath, ca[0], ca[1], "error", "E-ENTRY"), (cpath, ce[0], ce[1], "error", "E-CALL"),
           (cpath, cf[0], cf[1], "error", "E-ENTRY"), (cpath, ct[0], ct[1], "error", "E-ENTRY")]
rc, err = ptosim("check", cpath)
got = [d for d in diags(err) if d[3] != "note"]
check(got == cexpect, "a unit calling into the top module", err)
rc2, err2 = ptosim("fmt", cpath, "-o", os.devnull)
check(err == err2, "... as the whole-module path reports", "check:\n%s\nfmt:\n%s" % (err, err2))
ok = module(UNIT_A.replace("-> i32 ", "").replace("      %c = arith.constant 0 : i32\n", "").replace("return %c : i32", "return"),
            UNIT_E.replace("(%v, %v) : (i64, i64)", "(%v) : (i64)"), HELPER)
opath = os.path.join(tmp, "calls_ok.pto")
with open(opath, "w") as f:
    f.write(ok)
rc, err = ptosim("check", opath)
check(rc == 0 and err == "", "a call from a unit to a later function of the top module resolves", err)

# A file without one enclosing module (bare top-level ops: an implicit top module) holding a module with
# nested modules: those are not units of the top module, so nothing is freed early and the order is the
# whole-module path's (a fuzzer finding: check reported the inner module's error first).
bare = "pto.barrier #pto.pipe<PIPE_ALL>\n" + 'module attributes {pto.target_arch = "a9"} {\n' + UNIT_A + "}\n"
bpath2 = os.path.join(tmp, "bare.pto")
with open(bpath2, "w") as f:
    f.write(bare)
rc, err = ptosim("check", bpath2)
rc2, err2 = ptosim("fmt", bpath2, "-o", os.devnull)
check(rc == 1 and len(diags(err)) == 3 and err == err2, "bare top-level ops around a module of modules: as fmt",
      "check:\n%s\nfmt:\n%s" % (err, err2))

# Warning settings reach the units.
rc, err = ptosim("check", "-Werror=W-DEPRECATED", path)
got = diags(err)
check(len(got) == 5 and [d[3] for d in got] == ["error"] * 5 and got[2][4] == "W-DEPRECATED", "-Werror=ID inside a unit",
      err)
rc, err = ptosim("check", "-Wno-deprecated", path)
check([d[4] for d in diags(err)] == ["E-ENTRY", "E-ALIGN-CHAIN", "E-ENTRY"], "-Wno-ID inside a unit", err)

# Standard input: the same, under the name <stdin>.
rc, err = ptosim("check", "-", stdin=text.encode())
check([d[1:] for d in diags(err)] == [e[1:] for e in expect] and all(d[0] == "<stdin>" for d in diags(err)),
      "check - (standard input)", err)

# Two files in one call: each file's diagnostics with their quotes, in the order of the files.
clean = os.path.join(tmp, "clean.pto")
with open(clean, "w") as f:
    f.write(module(UNIT_D, UNIT_D))
rc, err = ptosim("check", clean, path, clean)
check(rc == 1 and diags(err) == expect and err.count(" | ") == 2 * len(expect), "several files", err)
rc, err = ptosim("check", clean)
check(rc == 0 and err == "", "a clean file of units", err)

finish()
