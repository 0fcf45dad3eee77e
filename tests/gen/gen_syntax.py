#!/usr/bin/env python3
"""gen_syntax.py OUTDIR — inputs for parser-limit tests: regions nested 300 deep (over the 200 limit),
and a file with 80 independent errors (over the 50-error cap)."""
import os, sys
out = sys.argv[1]
deep = ["module {", "  func.func @k(%c: i1) {"]
for i in range(300):
    deep.append("    scf.if %c {")
for i in range(300):
    deep.append("    }")
deep += ["    return", "  }", "}"]
open(os.path.join(out, "deep.pto"), "w").write("\n".join(deep) + "\n")
many = ["module {", "  func.func @k() {"]
for i in range(80):
    many.append("    pto.no_such_op_%d" % i)
many += ["    return", "  }", "}"]
open(os.path.join(out, "many.pto"), "w").write("\n".join(many) + "\n")
