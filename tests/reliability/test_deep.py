#!/usr/bin/env python3
"""test_deep.py [--build BUILD] — issue 33 class 1 at depth 10^6: nested pointer, function, struct and short pointer
types, attribute brackets and regions, each through `check`, `fmt` and `run`. The contract (docs/semantics.md
"Nesting limits"): exit 1 with E-NEST-DEPTH, never a signal, and parsing stops at the limit, so the rest of the
input is never tokenised: peak RSS stays under twice the input plus 48 MB (these inputs are 2-20 MB; once
110-170 MB: the recovery after the error lexed the millions of tokens left to find the function's end). The
inputs are written by a child process (`--gen NAME PATH`), so this process stays small: a forked child's
ru_maxrss starts at its parent's size. The timeout only catches a hang."""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import BUILD, check, finish
import shutil, subprocess, tempfile

PTOSIM = os.path.join(BUILD, "ptosim")
N = 10 ** 6
HDR = 'module attributes {pto.target_arch = "a5"} {\n'


def param(t):
    return HDR + "  func.func @k(%a: " + t + ") {\n    return\n  }\n}\n"


SHAPES = {
    "ptr": lambda: param("!pto.ptr<" * N + "f32" + ", gm>" * N),
    "shortptr": lambda: param("<" * N + "f32" + ", gm>" * N),
    "fn": lambda: param("(" * N + "i32" + ") -> i32" * N),
    "struct": lambda: param("!pto.struct<" * N + "i32" + ">" * N),
    "attr": lambda: HDR + "  func.func @k() attributes {x = " + "[" * N + "1" + "]" * N + "} {\n    return\n  }\n}\n",
    "regions": lambda: HDR + "  func.func @k(%c: i1) {\n" + "    scf.if %c {\n" * N + "    }\n" * N + "    return\n  }\n}\n",
}

if "--gen" in sys.argv:
    i = sys.argv.index("--gen")
    with open(sys.argv[i + 2], "w") as f:
        f.write(SHAPES[sys.argv[i + 1]]())
    sys.exit(0)

tmp = tempfile.mkdtemp(prefix="ptosim-deep-")
try:
    for name, make in SHAPES.items():
        path = os.path.join(tmp, name + ".pto")
        subprocess.run([sys.executable, os.path.abspath(__file__), "--gen", name, path], check=True)
        for cmd in ("check", "fmt", "run"):
            p = subprocess.Popen([PTOSIM, cmd, path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            try:
                _, err = p.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                p.kill()
                _, err = p.communicate()
            code = p.returncode
            err = err.decode(errors="replace")
            check(code == 1 and "[E-NEST-DEPTH]" in err, "%s %s at depth 10^6: exit 1, E-NEST-DEPTH" % (cmd, name),
                  "exit %s\n%s" % (code, err[-2000:]))
        # peak memory of one check, measured by the kernel for the child (ru_maxrss, KiB on Linux)
        p = subprocess.Popen([PTOSIM, "check", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        bound = (2 * os.path.getsize(path) >> 10) + 48 * 1024   # KiB: the source read whole, twice, and 48 MB
        check(ru.ru_maxrss < bound, "check %s at depth 10^6: peak RSS under twice the input + 48 MB" % name,
              "%d KiB, bound %d KiB" % (ru.ru_maxrss, bound))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
finish()
