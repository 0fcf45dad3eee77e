#!/usr/bin/env python3
"""gen_front.py OUTDIR — inputs (and expected outputs) for front-end tests that cannot be plain .pto files:

long.pto      a 1.3 MB line holding 40,000 constants and, at its end, a misspelled op: the diagnostic must
              quote a window of the line around the caret, not the whole line.
ctrl.pto      comments holding a NUL and a lone carriage return, and CRLF line ends;
ctrl.expected what fmt prints for it, written out here: control bytes in a comment print as '?', the
              line-end '\\r' is not part of the comment, a lone '\\r' ends the line (and so the comment:
              MLIR's lexer ends a comment at either byte; docs/semantics.md §12, line breaks).
ssa_names.expected  the two f32 values tests/parse/ssa_names.pto stores: -128.0 and 3.0, little-endian.
aliases.expected    2.5 as f32 (tests/parse/aliases.pto).
locations.expected  what tests/parse/locations.pto stores: i32 values 7, then 1 + 2 + 3 = 6 (a loop over 1..3).
"""
import genlib as gl

gl.cli(__doc__)
line = "".join("%%v%d = arith.constant 0 : i64 " % i for i in range(40000)) + "%w = pto.vaddd %v0"
gl.save_text("long.pto", "module {\n  func.func @k() {\n    " + line + "\n    return\n  }\n}\n")

src = (b"module {\r\n"
       b"  func.func @k() { // nul \x00 here\r\n"
       b"    // cr \r    // inside\r\n"
       b"    return\r\n"
       b"  }\r\n"
       b"}\r\n")
exp = ("module {\n"
       "  func.func @k() { // nul ? here\n"
       "    // cr\n"
       "    // inside\n"
       "    return\n"
       "  }\n"
       "}\n")
gl.save("ctrl.pto", src)
gl.save_text("ctrl.expected", exp)
gl.save_vals("ssa_names.expected", "f", [-128.0, 3.0])
gl.save_vals("locations.expected", "i", [7, 6])
gl.save_vals("aliases.expected", "f", [2.5])
