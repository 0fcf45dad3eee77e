#!/usr/bin/env python3
"""tools/gen_front_module.py FULL TENTH BYTES — the input of `make bench`'s front-end section.

Builds, from the repository's own test kernels (tests/**/*.pto), a module TENTH of at least BYTES/10
bytes and a module FULL holding exactly ten copies of TENTH's kernels, so that FULL is ten times the
same input (the linearity measurement compares the two). Each kernel file is included verbatim,
comments and all, as a nested module inside one outer `module { ... }`: nested modules are separate
symbol scopes, so the same kernel may appear many times. The kernels are taken in an order that
strides through the sorted file list, so every test directory is represented in TENTH; files over
MAX_KERNEL bytes (a few exhaustive generated tables) are left out for the same reason.
Only kernels that check cleanly on the default (a5) profile are taken: files that expect an error,
a non-zero exit, another target, or that are only formatted (`fmt --no-verify`) are left out.
Python 3 standard library only.
"""
import os
import re
import sys
from math import gcd

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SKIP = [
    re.compile(r"//\s*(DIAG: [ET]-|EXIT: *[1-9]|NO-ROUNDTRIP)"),      # expects an error
    re.compile(r"//\s*RUN:.*(-t\s+(a2a3|cpu)|--no-verify|\bfmt\b)"),  # another target, or not verified
    re.compile(r'pto\.target_arch\s*=\s*"(a2a3|cpu)"'),
]


# The few generated test files above this size (exhaustive type tables) would make up most of a tenth
# on their own; leaving them out keeps the tenth a sample of every test directory.
MAX_KERNEL = 100000


def kernels():
    out = []
    for dirpath, dirs, files in os.walk(os.path.join(ROOT, "tests")):
        dirs.sort()
        for f in sorted(files):
            if not f.endswith(".pto"):
                continue
            with open(os.path.join(dirpath, f), encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            if any(p.search(text) for p in SKIP):
                continue
            # exactly one top-level module, and nothing but comments around it
            code = [l for l in text.splitlines() if l.strip() and not l.strip().startswith("//")]
            if not code or not code[0].startswith("module") or code[-1].rstrip() != "}":
                continue
            if sum(1 for l in code if l.startswith("module")) != 1:
                continue
            if len(text) > MAX_KERNEL:
                continue
            out.append(text if text.endswith("\n") else text + "\n")
    return out


def sample(parts, size):
    """Kernels in a strided order (step coprime to the count) until `size` bytes."""
    n, step = len(parts), max(1, int(len(parts) * 0.618))
    while gcd(step, n) != 1:
        step += 1
    out, total, i = [], 0, 0
    while total < size:
        t = parts[(i * step) % n]
        out.append(t)
        total += len(t.encode("utf-8"))
        i += 1
    return out


def write(path, parts, copies):
    with open(path, "w", encoding="utf-8") as f:
        f.write("module {\n")
        for _ in range(copies):
            f.writelines(parts)
        f.write("}\n")


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: gen_front_module.py FULL TENTH BYTES")
    full, tenth, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
    parts = kernels()
    if not parts:
        sys.exit("gen_front_module.py: no test kernel qualifies")
    chosen = sample(parts, (size + 9) // 10)
    write(tenth, chosen, 1)
    write(full, chosen, 10)
    print("front-end input: %d kernels (%d distinct test files), ten times over" % (len(chosen), len(set(chosen))))


if __name__ == "__main__":
    main()
