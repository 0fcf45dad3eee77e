#!/usr/bin/env python3
"""test_man.py [--build BUILD] — the man page BUILD/ptosim.1 renders and documents the whole tool.

`man -l` (else groff/nroff) renders it without warnings; then, in the rendered text:
1. every command `ptosim help` lists has a section, and that section lists every option
   `ptosim CMD --list-options` prints (long and short spellings); the options without a command too;
2. EXIT STATUS lists 0, 1, 2 and 3;
3. DIAGNOSTICS has one subsection per class letter (E, W, T, N) and lists every ID of src/base/diag.def
   in its class's subsection.
The page is generated (tools/gen_man.py); this test reads the tool and the table itself, not the generator."""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import re, shutil, subprocess
import testlib
from testlib import BUILD, ROOT, check, finish

PTOSIM = os.path.join(BUILD, "ptosim")
PAGE = os.path.join(BUILD, "ptosim.1")


def out_of(argv, **kw):
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def render():
    env = dict(os.environ, LC_ALL="C", MANWIDTH="200")
    if shutil.which("man"):
        p = out_of(["man", "--warnings", "-l", PAGE], env=env)
    elif shutil.which("groff"):
        p = out_of(["groff", "-man", "-Tascii", "-ww", "-P-cbou", PAGE], env=env)
    else:
        testlib.skip("neither man nor groff is installed (Debian: apt-get install man-db; .ci/run installs it)")
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def sections(text, level):
    """{heading: body} of the rendered page: level 0 = 'NAME', level 3 = '   check ...' subsections."""
    out, cur = {}, None
    for line in text.split("\n"):
        indent = len(line) - len(line.lstrip(" "))
        if line.strip() and indent == level and not line.startswith(" " * (level + 1)):
            cur = line.strip()
            out[cur] = []
        elif cur is not None and line.strip() and indent < level:
            cur = None
        elif cur is not None:
            out[cur].append(line)
    return {k: "\n".join(v) for k, v in out.items()}


check(os.path.exists(PAGE), "man: %s is built (make man)" % PAGE)
if not os.path.exists(PAGE):
    finish()
code, text, err = render()
check(code == 0 and not err.strip() and "PTOSIM(1)" in text, "man: the page renders without warnings", err[-2000:])
top = sections(text, 0)
sub = sections(text, 3)

# 1. commands and their options
helptext = out_of([PTOSIM, "help"]).stdout.decode()
commands = re.findall(r"^  (\w+)  +", helptext.split("commands:")[1], re.M) if "commands:" in helptext else []
check(set(commands) >= {"check", "fmt", "run", "help"}, "man: ptosim help lists the commands", helptext)
for cmd in commands + [None]:
    if cmd == "help":
        check(any(h.startswith("ptosim help") for h in sub), "man: the help command has a section", list(sub))
        continue
    if cmd:
        body = next((b for h, b in sub.items() if h.startswith("ptosim %s " % cmd)), None)
        what = "ptosim %s" % cmd
    else:
        body = top.get("OPTIONS")
        what = "ptosim (no command)"
    listed = out_of([PTOSIM] + ([cmd] if cmd else []) + ["--list-options"]).stdout.decode().split("\n")
    listed = [l for l in listed if l.strip()]
    check(body is not None and len(listed) >= 3, "man: %s has a section; --list-options lists its options" % what, list(sub))
    if body is None:
        continue
    entries = set(re.findall(r"^ {7}(-\S.*)$", body, re.M))     # option entries start at column 8
    for opt in listed:
        names = [w for w in opt.split() if w.startswith("-")]
        ok = any(all(re.search(r"(^|[ ,])%s([=, ]|$)" % re.escape(n), e) for n in names) for e in entries)
        check(ok, "man: %s lists %s" % (what, opt), "\n".join(sorted(entries)))

# 2. exit statuses
codes = re.findall(r"^ {7}(\d)\s", top.get("EXIT STATUS", ""), re.M)
check(codes == ["0", "1", "2", "3"], "man: EXIT STATUS lists 0, 1, 2, 3", top.get("EXIT STATUS"))

# 3. diagnostic classes and IDs
ids = re.findall(r'^\s*DIAG\(\s*\w+\s*,\s*"(([A-Z])-[A-Z0-9-]+)"', open(os.path.join(ROOT, "src", "base", "diag.def")).read(), re.M)
check(len(ids) > 50, "man: diag.def read", len(ids))
diag_subs = {h[0]: b for h, b in sub.items() if re.match(r"^[A-Z]: ", h)}
check(sorted(diag_subs) == sorted({c for _, c in ids}), "man: one DIAGNOSTICS subsection per class letter", list(diag_subs))
missing = [i for i, c in ids if not re.search(r"^ {7}%s(\s|$)" % re.escape(i), diag_subs.get(c, ""), re.M)]
check(not missing, "man: every diagnostic ID is listed under its class", missing)
finish()
