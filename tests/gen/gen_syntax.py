#!/usr/bin/env python3
"""gen_syntax.py OUTDIR — inputs for parser-limit tests: regions nested 300 deep (over the 200 limit),
and a file with 80 independent errors (over the 50-error cap)."""
import genlib as gl

gl.cli(__doc__)
deep = ["module {", "  func.func @k(%c: i1) {"]
for i in range(300):
    deep.append("    scf.if %c {")
for i in range(300):
    deep.append("    }")
deep += ["    return", "  }", "}"]
gl.save_text("deep.pto", "\n".join(deep) + "\n")
many = ["module {", "  func.func @k() {"]
for i in range(80):
    many.append("    pto.no_such_op_%d" % i)
many += ["    return", "  }", "}"]
gl.save_text("many.pto", "\n".join(many) + "\n")
