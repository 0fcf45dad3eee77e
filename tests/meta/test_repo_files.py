#!/usr/bin/env python3
"""test_repo_files.py [--build BUILD] — what the repository must not hold: compiled Python (*.pyc, *.pyo,
__pycache__/) is never tracked, and .gitignore keeps new ones out (git check-ignore on such paths in every
directory holding Python). Skipped outside a git checkout (a release tarball has no index to check)."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import ROOT, check, finish, skip  # noqa: E402


def git(*args):
    p = subprocess.run(["git", "-C", ROOT] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(errors="replace")


try:
    code, top = git("rev-parse", "--show-toplevel")
except OSError:
    code, top = 1, ""
if code != 0 or os.path.realpath(top.strip()) != os.path.realpath(ROOT):
    skip("not a git checkout of the repository")

code, files = git("ls-files", "-z")
tracked = [f for f in files.split("\0") if f]
check(code == 0 and len(tracked) > 100, "git ls-files lists the repository (%d files)" % len(tracked))
compiled = [f for f in tracked if f.endswith((".pyc", ".pyo")) or "__pycache__/" in f]
check(not compiled, "no compiled Python is tracked", "\n".join(compiled[:20]) + "\nremove with: git rm --cached FILE")

py_dirs = sorted({os.path.dirname(f) for f in tracked if f.endswith(".py")})
probes = []
for d in py_dirs:
    probes += [os.path.join(d, "__pycache__", "x.cpython-311.pyc"), os.path.join(d, "x.pyc")]
p = subprocess.run(["git", "-C", ROOT, "check-ignore", "--no-index", "--stdin"], input="\n".join(probes).encode(),
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
ignored = set(p.stdout.decode().split())
not_ignored = [x for x in probes if x not in ignored]
check(not not_ignored, ".gitignore ignores compiled Python in every Python directory (%d probed)" % len(probes),
      "\n".join(not_ignored[:20]))
finish()
