#!/usr/bin/env python3
"""gen_reliability.py OUTDIR CASE [N] — hostile inputs of issue 33, written as OUTDIR/CASE.pto (the name of the
tests/reliability test that uses it, so its DIAG lines locate into it). Every expected location is stated in
that test and follows from the shapes below (1-based columns). The many_* cases take their count N (default
10^5; tools/bench_scale.py times them at 10^4 and 10^5, and with a third argument `valid` without their error, so
that verification, vector-scope inference and lowering run too):

  deep_ptr      10^5 nested !pto.ptr<...> in a parameter type. The limit is 64 levels, counting the outermost
                type as level 1: the 65th '!pto.ptr' (level 65) is reported. Line 2 starts
                '  func.func @k(%a: ' (19 characters), so the first '!' is column 20, the 65th column 20 + 64*9.
  deep_fn       10^5 nested function types '((((i32) -> i32) -> i32)...': the 65th '(' (column 20 + 64).
  deep_struct   10^4 nested !pto.struct<...> (12 characters each): the 65th at column 20 + 64*12.
  deep_shortptr 10^4 nested short pointer types '<<<f32, gm>, gm>...': the 65th '<' at column 20 + 64.
  deep_memref   10^4 alternating memref<1x!pto.ptr<memref<1x!pto.ptr<... (each pair 18 characters, two
                levels): level 65 is the 33rd memref, column 20 + 32*18.
  many_array    an array<i64: ...> attribute of 300 values '7, ' (lists hold at most 256): the 257th is
                E-PARSE-LIMIT, at column 45 + 256*3 of line 2 ('  func.func @k() attributes {x = array<i64: ' is
                44 characters).
  many_fn_types a parameter of function type with 100 input types 'i32, ' (at most 64): the 65th is
                E-PARSE-LIMIT at column 21 + 64*5 ('  func.func @k(%a: (' is 20 characters).
  deep_attr     10^5 nested '[' in an attribute value: brackets nest at most 64 deep, the 65th '[' is reported.
  deep_regions  10^5 nested scf.if regions (limit 200, the module's body being level 1 and the function's
                level 2): the region at level 201 is the 199th scf.if's, on line 2 + 199, its '{' at column 15
                ('    scf.if %c {').
  many_aliases  10^5 type aliases !t0..!t99999 = i32 (lines 1..10^5), then !t7 defined again (line 10^5 + 1,
                column 1: 'alias defined twice'), then a module using the last one.
  many_funcs    a chain of 10^5 functions, @f<i> calling @f<i+1>, 4 lines each after the module line; then @f5
                defined again (its 'func.func' at column 3 of line 2 + 4 * 10^5): E-DUP-SYMBOL, note at @f5's
                first definition (line 2 + 4 * 5).
  many_consts   10^5 arith.constant in one block next to vector loads/stores (implicit vector scope), then an
                undefined value used on the last op line.
  many_operands a call passing 100 values (lists hold at most 64): the 65th value is E-PARSE-LIMIT, at column
                18 + 64 * 4 of line 7 ('    func.call @g(' is 17 characters, each '%x, ' 4).
  cr_only       a module with classic-Mac line breaks (a lone CR each): a '//' comment on line 2 ends at its CR, so
                the unknown op on line 4 (column 5) is reported there (once the whole file was one line,
                swallowed by the comment, and check passed)."""
import genlib as gl

N = 100000
HDR = 'module attributes {pto.target_arch = "a5"} {'


def case_deep_ptr():
    body = "  func.func @k(%a: " + "!pto.ptr<" * N + "f32" + ", gm>" * N + ") {\n    return\n  }\n"
    gl.save_text("deep_ptr.pto", HDR + "\n" + body + "}\n")


def case_deep_fn():
    body = "  func.func @k(%a: " + "(" * N + "i32" + ") -> i32" * N + ") {\n    return\n  }\n"
    gl.save_text("deep_fn.pto", HDR + "\n" + body + "}\n")


def case_deep_struct(n=10000):
    n = int(n)
    body = "  func.func @k(%a: " + "!pto.struct<" * n + "i32" + ">" * n + ") {\n    return\n  }\n"
    gl.save_text("deep_struct.pto", HDR + "\n" + body + "}\n")


def case_deep_shortptr(n=10000):
    n = int(n)
    body = "  func.func @k(%a: " + "<" * n + "f32" + ", gm>" * n + ") {\n    return\n  }\n"
    gl.save_text("deep_shortptr.pto", HDR + "\n" + body + "}\n")


def case_deep_memref(n=5000):
    n = int(n)
    body = "  func.func @k(%a: " + "memref<1x!pto.ptr<" * n + "f32" + ">>" * n + ") {\n    return\n  }\n"
    gl.save_text("deep_memref.pto", HDR + "\n" + body + "}\n")


def case_many_array():
    body = "  func.func @k() attributes {x = array<i64: " + ", ".join(["7"] * 300) + ">} {\n    return\n  }\n"
    gl.save_text("many_array.pto", HDR + "\n" + body + "}\n")


def case_many_fn_types():
    body = "  func.func @k(%a: (" + ", ".join(["i32"] * 100) + ") -> i32) {\n    return\n  }\n"
    gl.save_text("many_fn_types.pto", HDR + "\n" + body + "}\n")


def case_deep_attr():
    body = "  func.func @k() attributes {x = " + "[" * N + "1" + "]" * N + "} {\n    return\n  }\n"
    gl.save_text("deep_attr.pto", HDR + "\n" + body + "}\n")


def case_deep_regions():
    lines = [HDR, "  func.func @k(%c: i1) {"] + ["    scf.if %c {"] * N + ["    }"] * N + ["    return", "  }", "}"]
    gl.save_text("deep_regions.pto", "\n".join(lines) + "\n")


def case_many_aliases(n=N, valid=""):
    n = int(n)
    lines = ["!t%d = i32" % i for i in range(n)] + ([] if valid else ["!t7 = i64"]) + [HDR,
             "  func.func @k(%%a: !t%d) {" % (n - 1), "    return", "  }", "}"]
    gl.save_text("many_aliases.pto", "\n".join(lines) + "\n")


def case_many_funcs(n=N, valid=""):
    n = int(n)
    lines = [HDR]
    for i in range(n):
        if i + 1 < n:
            lines += ["  func.func @f%d(%%a: i64) -> i64 {" % i, "    %%r = func.call @f%d(%%a) : (i64) -> i64" % (i + 1),
                      "    return %r : i64", "  }"]
        else:
            lines += ["  func.func @f%d(%%a: i64) -> i64 {" % i, "    %a1 = arith.addi %a, %a : i64",
                      "    return %a1 : i64", "  }"]
    if not valid:
        lines += ["  func.func @f5(%a: i64) -> i64 {", "    return %a : i64", "  }"]
    lines += ["}"]
    gl.save_text("many_funcs.pto", "\n".join(lines) + "\n")


def case_many_consts(n=N, valid=""):
    n = int(n)
    lines = [HDR, "  func.func @k() attributes {pto.kernel} {", "    %z = arith.constant 0 : i64",
             "    %p = pto.castptr %z : i64 -> !pto.ptr<f32, ub>"]
    for i in range(n):
        lines.append("    %%c%d = arith.constant %d : index" % (i, (i * 64) % 4096))
    for i in range(0, n, 10):
        lines.append("    %%v%d = pto.vlds %%p[%%c%d] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>" % (i, i))
        lines.append("    pto.vsts %%v%d, %%p[%%c%d] : !pto.vreg<64xf32>, !pto.ptr<f32, ub>" % (i, i))
    if not valid:
        lines += ["    %u = arith.addi %nowhere, %nowhere : index"]
    lines += ["    return", "  }", "}"]
    gl.save_text("many_consts.pto", "\n".join(lines) + "\n")


def case_many_operands():
    lines = [HDR, "  func.func @g(%a: i64) {", "    return", "  }", "  func.func @k(%x: i64) {",
             "    // 100 operands", "    func.call @g(" + ", ".join(["%x"] * 100) + ") : (i64) -> ()", "    return", "  }", "}"]
    gl.save_text("many_operands.pto", "\n".join(lines) + "\n")


def case_cr_only():
    lines = [HDR, "  // a comment that must end at the next CR", "  func.func @k() {", "    pto.no_such_op", "    return",
             "  }", "}"]
    with open(gl.path("cr_only.pto"), "wb") as f:
        f.write("\r".join(lines).encode() + b"\r")


gl.main({k[5:]: v for k, v in globals().items() if k.startswith("case_")}, __doc__)
