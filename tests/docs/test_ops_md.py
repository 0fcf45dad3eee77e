#!/usr/bin/env python3
"""test_ops_md.py --build BUILD — the op reference covers the op table and says what `ptosim help OP` says:

* docs/ops.md is what tools/gen_ops_md.py writes now (the table and the library agree with it);
* its reference has one entry per spelling of an OP row of src/isa/ops.def and the files it includes (read
  here from the table's text, not from the library), and no other;
* `ptosim help OP` prints exactly the entry of docs/ops.md, for every op; an alias prints its op's entry; an
  unknown name is a usage error (exit 2);
* by hand: pto.mte_gm_ub copies GM to UB on MTE2 (its operands %src in gm, %dst in ub), pto.vadd runs on V
  inside a vector scope, pto.tadd and pto.tcmps are written ins(...) outs(...) and pto.tadd has its own meaning."""
import os, re, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import BUILD, ROOT, check, finish, library_env

PTOSIM = os.path.join(BUILD, "ptosim")
p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "gen_ops_md.py"), "--check", "--build", BUILD],
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                   env=library_env(dict(os.environ), os.path.join(BUILD, "libptosim.so.0")))
check(p.returncode == 0, "docs/ops.md is up to date (tools/gen_ops_md.py --check)", p.stdout.decode())


def table_text(name):
    text = open(os.path.join(ROOT, "src", "isa", name)).read()
    return re.sub(r'^#include "(\w+\.def)"\s*$', lambda m: table_text(m.group(1)), text, flags=re.M)


spellings = set(re.findall(r'^OP\(\w+,\s*"([^"]+)"', table_text("ops.def"), re.M))
doc = open(os.path.join(ROOT, "docs", "ops.md"), encoding="utf-8").read()
entries = dict(re.findall(r"^### `([^`]+)`\n\n```\n(.*?)\n```", doc, re.M | re.S))
check(len(spellings) > 400 and set(entries) == spellings, "the reference has one entry per op of the table (%d)" % len(spellings),
      "missing: %s\nextra: %s" % (sorted(spellings - set(entries))[:10], sorted(set(entries) - spellings)[:10]))

bad = []
for name in sorted(spellings):
    r = subprocess.run([PTOSIM, "help", name], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0 or r.stdout.decode().rstrip("\n") != entries.get(name):
        bad.append(name)
check(not bad, "ptosim help OP prints the op's entry of docs/ops.md, for every op", " ".join(bad[:20]))

r = subprocess.run([PTOSIM, "help", "pto.dma_load"], stdout=subprocess.PIPE)
check(r.returncode == 0 and r.stdout.decode().startswith("pto.mte_gm_ub\n"), "an alias prints its op's entry")
r = subprocess.run([PTOSIM, "help", "pto.no_such_op"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
check(r.returncode == 2 and b"neither a command" in r.stderr, "an unknown name is a usage error", r.stderr)
e = entries.get("pto.mte_gm_ub", "")
check("pipe:      PIPE_MTE2" in e and re.search(r"%src +!pto\.ptr in gm", e) and re.search(r"%dst +!pto\.ptr in ub", e),
      "pto.mte_gm_ub: GM to UB on MTE2", e)
e = entries.get("pto.vadd", "")
check("pipe:      PIPE_V" in e and "inside a vector scope" in e, "pto.vadd: on V, inside a vector scope", e)
e = entries.get("pto.tadd", "")
check("what:      dst = a + b over the valid region" in e and "pto.tadd ins(%src0, %src1 : TYPES) outs(%dst : TYPES)" in e,
      "pto.tadd: its own meaning line (a DOC row) and the ins(...) outs(...) form", e)
e = entries.get("pto.tcmps", "")
check("ins(%src, %scalar {[cmpMode = #pto<cmp ...>]} : TYPES) outs(%dst : TYPES)" in e,
      "pto.tcmps: the attribute dictionary inside ins(...), an MLIR enum attribute spelled #pto<set ...>", e)
finish()
