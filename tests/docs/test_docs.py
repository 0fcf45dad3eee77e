#!/usr/bin/env python3
"""test_docs.py [--build BUILD] — the documentation stands alone and its examples work.

1. README.md and docs/*.md cite no file that is not in the repository: every path-like word
   (a name ending in .md .c .h .def .py .pto .sh .txt .json, or a folder path such as tests/dma/) must
   exist, as a path from the repository root or, for a bare file name, somewhere in it; words that name
   outside documents (isa-notes, resolutions.md, design.md, shared/..., /work/...) are refused outright.
   "seed n" must name a kernel of tests/seeds/. The evidence labels Qn and R2.n used anywhere must be
   defined in docs/semantics.md.
2. The ```sh and ```python blocks of README.md and docs/tutorial.md run verbatim (doc_examples), and an
   ```output block after one is checked against what it printed; a block introduced by 'File `PATH`:' must
   be that file of the repository.
Prints "N passed, M failed"; exit 1 on failure."""
import os, re, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import BUILD as build, ROOT, check, finish, numpy_python, library_env

SKIP_DIRS = {".git", "__pycache__"}


def repo_files():
    names, paths = set(), set()
    for d, dirs, files in os.walk(ROOT):
        dirs[:] = [x for x in dirs if x not in SKIP_DIRS and not x.startswith("build")]
        rel = os.path.relpath(d, ROOT)
        if rel != ".":
            paths.add(rel + "/")
        for f in files:
            names.add(f)
            paths.add(os.path.normpath(os.path.join(rel, f)))
    return names, paths


DOCS = ["README.md"] + sorted(os.path.join("docs", f) for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
EXT = r"(?:md|c|h|def|py|pto|sh|txt|json)"
PATH_WORD = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*[\w.-]+\." + EXT + r"|(?:[\w.-]+/)+)(?![\w/])")
OUTSIDE = re.compile(r"isa-notes|resolutions(?:\.md)?\b|design\.md|design §|shared/|/work/|\bN §")
SEED = re.compile(r"\bseeds? ?(\d{3})((?:(?:, | and |/)\d{3})*)")
TOP = {e for e in os.listdir(ROOT) if os.path.isdir(os.path.join(ROOT, e))}


def doc_references():
    names, paths = repo_files()
    for doc in DOCS:
        bad = []
        text = open(os.path.join(ROOT, doc), encoding="utf-8").read()
        in_block = False
        for n, line in enumerate(text.splitlines(), 1):
            if line.startswith("```"):
                in_block = not in_block
            for m in OUTSIDE.finditer(line):
                bad.append("%s:%d: refers to an outside document: %r" % (doc, n, m.group(0)))
            for m in SEED.finditer(line):
                for num in [m.group(1)] + re.findall(r"\d{3}", m.group(2)):
                    if not any(f.startswith(num + "_") for f in os.listdir(os.path.join(ROOT, "tests", "seeds"))):
                        bad.append("%s:%d: seed %s is not in tests/seeds/" % (doc, n, num))
            for m in PATH_WORD.finditer(line):
                w = m.group(1)
                if "/" in w and w.split("/")[0] not in TOP:
                    continue       # not a path of this repository's layout (e.g. f16/ui8/)
                stem = os.path.basename(w.rstrip("/"))
                if w.startswith(("http", "www.")) or re.match(r"^[A-Z0-9_]+\.", stem) or w.startswith("build/"):
                    continue       # placeholders such as KERNEL.pto, and build products
                if w.endswith("/"):
                    ok = os.path.normpath(w) + "/" in paths or w.count("/") == 1 and any(p.endswith("/" + w) for p in paths)
                elif "/" in w:
                    ok = os.path.normpath(w) in paths
                else:
                    ok = w in names
                if not ok:
                    bad.append("%s:%d: %r is not in the repository" % (doc, n, w))
        check(not bad, "%s cites only files that exist" % doc, "\n".join(bad))


def labels():
    sem = open(os.path.join(ROOT, "docs", "semantics.md"), encoding="utf-8").read()
    m = re.search(r"^## Evidence labels$(.*?)^## ", sem, re.M | re.S)
    defined = set(re.findall(r"^\| (Q\d+|R2\.\d) \|", m.group(1), re.M)) if m else set()
    check(m is not None and defined, "docs/semantics.md has an 'Evidence labels' section defining Qn labels")
    used = {}
    for doc in DOCS:
        for n, line in enumerate(open(os.path.join(ROOT, doc), encoding="utf-8"), 1):
            for q in re.findall(r"\b(?:Q\d+|R2\.\d)\b", line):
                used.setdefault(q, "%s:%d" % (doc, n))
    undefined = sorted(set(used) - defined)
    check(not undefined, "every Qn / R2.n label used in the docs is defined", "\n".join("%s (%s)" % (q, used[q]) for q in undefined))


def claim_matches(claim, output):
    """Each line of the claim must match a line of the output, in order; '...' in a claim line matches any
    text (a line of just '...' any number of lines). Returns None, or the first claim line not found."""
    out = output.splitlines()
    k = 0
    for c in claim.splitlines():
        if c.strip() == "...":
            continue
        pat = re.compile("^" + ".*".join(re.escape(part) for part in c.split("...")) + "$")
        while k < len(out) and not pat.match(out[k]):
            k += 1
        if k == len(out):
            return c
        k += 1
    return None


def doc_examples(doc):
    """Every ```sh block of the document runs verbatim (`make` lines excepted: the suite runs after `make`),
    in one fresh directory per document that sees the repository's files, with BUILD as build/; a ```python
    block runs the same way under a python3 with numpy (skipped without one). An ```output block right after
    a block is a claim about its stdout and stderr (claim_matches)."""
    text = open(os.path.join(ROOT, doc), encoding="utf-8").read()
    blocks = re.findall(r"^```(sh|python|output)\n(.*?)^```", text, re.M | re.S)
    check(any(k == "sh" for k, _ in blocks), "%s has shell examples" % doc)
    tmp = tempfile.mkdtemp(prefix="ptosim-doc-")
    try:
        for e in os.listdir(ROOT):
            if e not in SKIP_DIRS and not e.startswith("build"):
                os.symlink(os.path.join(ROOT, e), os.path.join(tmp, e))
        os.symlink(build, os.path.join(tmp, "build"))
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"), PTOSIM_LIB=os.path.join(build, "libptosim.so.0"),
                   PTOSIM_BIN=os.path.join(build, "ptosim"), NO_COLOR="1")
        last = None
        for i, (kind, body) in enumerate(blocks):
            if kind == "output":
                if last is None:
                    check(False, "%s: an output block follows a command block" % doc, body[:300])
                    continue
                miss = claim_matches(body, last[1])
                check(miss is None, "%s: what example %d prints is what the text claims" % (doc, last[0]),
                      "claimed and not found: %r\n--- output:\n%s" % (miss, last[1][-2500:]))
                last = None
                continue
            if kind == "python":
                py = numpy_python()
                if not py:
                    print("SKIP: %s example %d (python): no python3 with numpy" % (doc, i + 1))
                    last = None
                    continue
                argv = [py, "-c", body]
                penv = library_env(dict(env), env["PTOSIM_LIB"])
                script = body
            else:
                lines = [l for l in body.splitlines() if not re.match(r"\s*make\b", l)]
                script = "\n".join(lines).strip()
                if not script:
                    last = None
                    continue
                argv = ["sh", "-e", "-c", script]
                penv = env
            p = subprocess.run(argv, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=penv)
            out = p.stdout.decode(errors="replace")     # both streams, in the order they were written
            check(p.returncode == 0, "%s example %d runs verbatim" % (doc, i + 1),
                  "$ %s\nexit %d\n%s" % (script.replace("\n", "\n$ "), p.returncode, out[-3000:]))
            last = (i + 1, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def shown_files(doc):
    """A block introduced by a line ending in 'File `PATH`:' shows that file of the repository exactly."""
    text = open(os.path.join(ROOT, doc), encoding="utf-8").read()
    for m in re.finditer(r"File `([^`]+)`:\s*\n+```\w*\n(.*?)^```", text, re.M | re.S):
        path = os.path.join(ROOT, m.group(1))
        have = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        check(have == m.group(2), "%s shows %s as it is" % (doc, m.group(1)))


doc_references()
labels()
for doc in ("README.md", "docs/tutorial.md"):
    shown_files(doc)
    doc_examples(doc)
finish()
