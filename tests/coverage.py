#!/usr/bin/env python3
"""coverage.py BUILD [--files] [--min-lines P] — line and branch coverage of src/ from a build made with
gcc --coverage (`make coverage` builds BUILD = build-cov, runs the suite in it, then calls this).

Reads every .gcno under BUILD/obj (the static library, used by the tool and the unit programs) and BUILD/pic
(the shared library, used by the Python binding's tests) through `gcov --json-format` (gcc 9 or later; no
other tool), and takes the union of the two builds: a line is covered when either build executed it, a branch
is taken when either took it. An object with no .gcda (linked into nothing that ran) counts as not executed.
Only files under src/ count (headers with inline code included).

Prints one line per file with --files (sorted by uncovered lines), then the totals:
    lines: COVERED/TOTAL (P%)   branches: TAKEN/TOTAL (Q%)   functions: CALLED/TOTAL (R%)
--min-lines P exits 1 if the line coverage is below P percent."""
import json
import os
import subprocess
import sys


def gcov_json(paths, cwd):
    """one JSON document per object, via gcov --json-format --stdout"""
    p = subprocess.run(["gcov", "--json-format", "--stdout", "--branch-probabilities"] + paths,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
    docs = []
    for line in p.stdout.decode(errors="replace").splitlines():
        line = line.strip()
        if line.startswith("{"):
            docs.append(json.loads(line))
    return docs


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        sys.exit(__doc__)
    build = os.path.abspath(args[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    show_files = "--files" in args
    min_lines = float(args[args.index("--min-lines") + 1]) if "--min-lines" in args else None
    objs = []
    for sub in ("obj", "pic"):
        for d, _, fs in os.walk(os.path.join(build, sub)):
            for f in sorted(fs):
                if f.endswith(".gcno"):
                    base = os.path.join(d, f[:-5])
                    objs.append(base + (".gcda" if os.path.exists(base + ".gcda") else ".gcno"))
    if not objs:
        sys.exit("coverage.py: no .gcno files under %s (build with --coverage: make coverage)" % build)
    lines, branches, funcs = {}, {}, {}       # key -> executed?
    for i in range(0, len(objs), 64):
        for doc in gcov_json(objs[i:i + 64], root):
            for f in doc.get("files", []):
                name = os.path.relpath(os.path.join(doc.get("current_working_directory", root), f["file"]), root)
                if not name.startswith("src" + os.sep):
                    continue
                for ln in f["lines"]:
                    k = (name, ln["line_number"])
                    lines[k] = lines.get(k, False) or ln["count"] > 0
                    for j, b in enumerate(ln.get("branches", [])):
                        if b.get("throw"):
                            continue
                        bk = (name, ln["line_number"], ln.get("function_name", ""), j)
                        branches[bk] = branches.get(bk, False) or b["count"] > 0
                for fn in f.get("functions", []):
                    fk = (name, fn["name"])
                    funcs[fk] = funcs.get(fk, False) or fn["execution_count"] > 0
    if not lines:
        sys.exit("coverage.py: gcov gave no data for src/ (is gcov the compiler's own?)")

    def pct(d):
        n = len(d)
        c = sum(1 for v in d.values() if v)
        return c, n, 100.0 * c / n if n else 100.0

    if show_files:
        per = {}
        for (name, _), v in lines.items():
            c, n = per.get(name, (0, 0))
            per[name] = (c + v, n + 1)
        for name, (c, n) in sorted(per.items(), key=lambda kv: (kv[1][0] - kv[1][1], kv[0])):
            print("%-40s %5d/%5d lines  %5.1f%%" % (name, c, n, 100.0 * c / n))
    lc, ln, lp = pct(lines)
    bc, bn, bp = pct(branches)
    fc, fn_, fp = pct(funcs)
    print("coverage of src/: lines: %d/%d (%.1f%%)   branches: %d/%d (%.1f%%)   functions: %d/%d (%.1f%%)"
          % (lc, ln, lp, bc, bn, bp, fc, fn_, fp))
    if min_lines is not None and lp < min_lines:
        print("line coverage %.1f%% is below %.1f%%" % (lp, min_lines))
        sys.exit(1)


if __name__ == "__main__":
    main()
