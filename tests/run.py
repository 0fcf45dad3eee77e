#!/usr/bin/env python3
"""tests/run.py — the ptosim test runner (Python 3 standard library only).

Runs every unit-test program in BUILD/tests/, every .pto test under tests/, every Python test
script tests/**/test_*.py (run as `python3 SCRIPT --build BUILD`) and every shell test script
tests/**/test_*.sh (run as `sh SCRIPT --build BUILD`); a script prints its own "N passed, M failed" line
and exits non-zero on failure; a "SKIP: reason" line it prints is shown. Prints one progress line per test
directory (passed, failed, seconds), then "N passed, M failed" as its last line; exits non-zero on any failure.

  python3 tests/run.py [--build BUILD] [FILTER...]    FILTER: run only tests whose path contains it

A .pto test states what it expects in `//` directive comments:

  // RUN: ptosim ARGS...            command to run (default: "ptosim check %s"); several RUN lines run in order
  // EXIT: N                        expected exit status of the last RUN (default 0)
  // DIAG: ID @ LINE:COL            a diagnostic with this ID must be reported at LINE:COL of this file
  // DIAG: ID                       ... anywhere
  // NODIAG: ID                     must not be reported
  // GEN: SCRIPT ARGS...            run tests/gen/SCRIPT (python3) with the temp dir as first argument, before RUN
  // CMP: FILE1 FILE2               byte-compare two files after the RUN lines
  // STDOUT: TEXT                   the last RUN's stdout must contain TEXT
  // STDERR: TEXT                   the RUN lines' stderr must contain TEXT
  // NOTE: LINE:COL                 a note must point at LINE:COL of this file
  // NO-ROUNDTRIP                   skip the fmt fixed-point check
Substitutions: %s = this file, %t = a fresh temp dir, %S = this file's directory, %gen = tests/gen.
Every test whose first RUN exits 0 with 'check' semantics is also checked for the fmt fixed point:
fmt(x) == fmt(fmt(x)), and fmt(fmt --generic x) == fmt(x). A run test with CMP lines runs again on the output
of `fmt` and of `fmt --generic` and must give the same bytes.
"""
import os, re, shlex, shutil, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKEWED = os.path.join(ROOT, "tests", "timing", "skewed.tim")
TIMEOUT = 120


def run(cmd, cwd=None, timeout=TIMEOUT):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return -999, "", "TIMEOUT after %ds" % timeout


class Result:
    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.fail_names = []

    def ok(self, name):
        self.passed += 1

    def bad(self, name, why):
        self.failed += 1
        self.fail_names.append(name)
        sys.stdout.write("FAIL %s\n" % name)
        for line in why.rstrip().splitlines()[:25]:
            sys.stdout.write("    %s\n" % line)


def counted_program(argv, name, res, timeout=600):
    """A test program that prints its own "N passed, M failed" line (unit programs, test_*.py scripts)."""
    code, out, err = run(argv, timeout=timeout)
    m = re.findall(r"(\d+) passed, (\d+) failed", out + err)
    if code != 0 or not m:
        res.bad(name, "exit %d\n%s%s" % (code, out[-3000:], err[-3000:]))
    else:
        res.ok(name)
    for line in out.splitlines():
        if line.startswith("SKIP: "):       # a script that could not run says why (testlib.skip)
            sys.stdout.write("%s: %s\n" % (name, line))


def unit_tests(build):
    """(name, runner) for every unit-test program built into BUILD/tests."""
    d = os.path.join(build, "tests")
    if not os.path.isdir(d):
        return []
    found = []
    for name in sorted(os.listdir(d)):
        path = os.path.join(d, name)
        if name.startswith("test_") and os.access(path, os.X_OK) and not os.path.isdir(path):
            found.append(("tests/unit/" + name, lambda res, p=path, n=name: counted_program([p], "unit/" + n, res)))
    return found


def directives(path):
    d = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"\s*//\s*([A-Z][A-Z-]*):?\s?(.*)$", line)
            if m and m.group(1) in ("RUN", "EXIT", "DIAG", "NODIAG", "GEN", "CMP", "STDOUT", "STDERR", "NOTE", "NO-ROUNDTRIP"):
                d.append((m.group(1), m.group(2).strip()))
    return d


def kernel_test(build, path, res):
    tmp = tempfile.mkdtemp(prefix="ptosim-test-")
    try:
        kernel_test_in(build, path, res, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def kernel_test_in(build, path, res, tmp):
    name = os.path.relpath(path, ROOT)
    ptosim = os.path.join(build, "ptosim")
    ds = directives(path)

    def subst(s):
        return (s.replace("%gen", os.path.join(ROOT, "tests", "gen")).replace("%s", path)
                .replace("%t", tmp).replace("%S", os.path.dirname(path)))

    runs = [v for k, v in ds if k == "RUN"] or ["ptosim check %s"]
    exit_want = [int(v) for k, v in ds if k == "EXIT"]
    exit_want = exit_want[-1] if exit_want else 0
    for k, v in ds:
        if k == "GEN":
            argv = shlex.split(subst(v))
            code, out, err = run([sys.executable, os.path.join(ROOT, "tests", "gen", argv[0]), tmp] + argv[1:])
            if code != 0:
                return res.bad(name, "generator failed: %s\n%s%s" % (v, out, err))
    code = out = err = None
    allerr = ""
    for i, r in enumerate(runs):
        argv = shlex.split(subst(r))
        if argv and argv[0] == "ptosim":
            argv[0] = ptosim
        code, out, err = run(argv)
        allerr += err
        if i < len(runs) - 1 and code != 0:
            return res.bad(name, "RUN %s exited %d\n%s%s" % (r, code, out, err))
    if code == -999:
        return res.bad(name, "timeout")
    if code != exit_want:
        return res.bad(name, "exit %d, expected %d\n%s%s" % (code, exit_want, out, err))
    base = os.path.basename(path)
    for k, v in ds:
        if k in ("DIAG", "NODIAG"):
            m = re.match(r"([A-Z]-[A-Z0-9-]+)(?:\s*@\s*(\d+):(\d+))?", v)
            if not m:
                return res.bad(name, "bad directive %s: %s" % (k, v))
            did, line, col = m.group(1), m.group(2), m.group(3)
            if line:
                pat = re.compile(r"%s:%s:%s: [a-z]+: .*\[%s\]" % (re.escape(base), line, col, re.escape(did)))
                found = any(pat.search(l) for l in allerr.splitlines())
            else:
                found = ("[%s]" % did) in allerr
            if k == "DIAG" and not found:
                return res.bad(name, "missing diagnostic %s\n%s" % (v, allerr))
            if k == "NODIAG" and found:
                return res.bad(name, "unexpected diagnostic %s\n%s" % (v, allerr))
        elif k == "CMP":
            a, b = shlex.split(subst(v))
            try:
                da, db = open(a, "rb").read(), open(b, "rb").read()
            except OSError as e:
                return res.bad(name, "CMP: %s\n%s" % (e, allerr))
            if da != db:
                first = next((i for i in range(min(len(da), len(db))) if da[i] != db[i]), min(len(da), len(db)))
                return res.bad(name, "CMP %s %s differ (sizes %d/%d, first difference at byte %d)\n%s"
                               % (a, b, len(da), len(db), first, allerr[-2000:]))
        elif k == "STDOUT":
            if v not in out:
                return res.bad(name, "stdout lacks %r\n%s" % (v, out[-2000:]))
        elif k == "STDERR":
            if v not in allerr:
                return res.bad(name, "stderr lacks %r\n%s" % (v, allerr[-2000:]))
        elif k == "NOTE":
            m = re.match(r"@?\s*(\d+):(\d+)", v)
            if not m or not re.search(r"%s:%s:%s: note:" % (re.escape(base), m.group(1), m.group(2)), allerr):
                return res.bad(name, "missing note at %s\n%s" % (v, allerr))
    # the performance view changes nothing: a run that completes gives the same bytes (where checked) with
    # --trace, --stats and --profile on and under a distorted timing table (tests/timing/skewed.tim), and
    # its trace is well formed (tests/gen/check_trace.py: nesting, flows forward in time, matched ids)
    run_idx = [i for i, r in enumerate(runs) if shlex.split(subst(r))[:2] == ["ptosim", "run"]]
    cmps = [v for k, v in ds if k == "CMP"]
    if run_idx and (exit_want == 0 or (exit_want in (3, 4) and not cmps)):   # completed, trapped, -Werror
        trace = os.path.join(tmp, "view_trace.json")
        # files with many runs of one op (one per element type) re-run 8 of them, spread evenly
        if len(run_idx) > 8:
            run_idx = sorted({run_idx[round(k * (len(run_idx) - 1) / 7)] for k in range(8)})
        for i, r in enumerate(runs):
            argv = shlex.split(subst(r))
            is_run = argv[:2] == ["ptosim", "run"]
            if (is_run and i not in run_idx) or (not is_run and not cmps):
                continue    # without byte comparisons only the runs themselves are repeated
            if argv and argv[0] == "ptosim":
                argv[0] = ptosim
            if i in run_idx:
                for k in range(len(argv) - 2, 1, -1):     # the test's own --trace FILE gives way to ours
                    if argv[k] == "--trace":
                        del argv[k:k + 2]
                # with byte comparisons also under a distorted timing table (without them, outputs that
                # depend on timing — a clock read, a race the schedule exposes — may legitimately change)
                argv[2:2] = ["--trace", trace, "--stats", "--profile"] + (["--timing", SKEWED] if cmps else [])
            c, o2, e2 = run(argv)
            if c != (exit_want if i == len(runs) - 1 else 0):
                return res.bad(name, "with --trace --stats --profile --timing: RUN %s exited %d\n%s" % (r, c, e2[-2000:]))
        for v in cmps:
            a, b = shlex.split(subst(v))
            if open(a, "rb").read() != open(b, "rb").read():
                return res.bad(name, "--trace --stats --profile --timing skewed.tim changed %s" % a)
        c, o2, e2 = run([sys.executable, os.path.join(ROOT, "tests", "gen", "check_trace.py"), trace])
        if c != 0:
            return res.bad(name, "trace: %s%s" % (o2, e2))
    # the printed forms compute the same bytes: a run test whose bytes are compared runs again on what
    # `fmt` and `fmt --generic` print for its kernel (a printed constant that re-parses as something else,
    # a dropped attribute, shows here and not in the fixed-point check below)
    if run_idx and cmps and exit_want == 0 and not any(k == "NO-ROUNDTRIP" for k, _ in ds):
        for form in ([], ["--generic"]):
            c, text, e = run([ptosim, "fmt"] + form + [path])
            if c != 0:
                return res.bad(name, "fmt %s exited %d\n%s" % (" ".join(form), c, e[-2000:]))
            printed = os.path.join(tmp, "printed_" + base)
            with open(printed, "w") as f:
                f.write(text)
            for i, r in enumerate(runs):
                argv = shlex.split(subst(r))
                if argv[:2] == ["ptosim", "run"] and i not in run_idx:
                    continue
                argv = [printed if a == path else a for a in argv]
                if argv and argv[0] == "ptosim":
                    argv[0] = ptosim
                c, o2, e2 = run(argv)
                if c != 0:
                    return res.bad(name, "on the output of fmt %s: RUN %s exited %d\n%s"
                                   % (" ".join(form), r, c, e2[-2000:]))
            for v in cmps:
                a, b = shlex.split(subst(v))
                if open(a, "rb").read() != open(b, "rb").read():
                    return res.bad(name, "the output of fmt %s computes other bytes in %s" % (" ".join(form), a))
    # fmt fixed point for every file that verifies cleanly
    if not any(k == "NO-ROUNDTRIP" for k, _ in ds) and exit_want == 0:
        tgt = []
        for r in runs:
            m = re.search(r"-t\s+(\S+)", r)
            if m:
                tgt = ["-t", m.group(1)]
        c1, a, e1 = run([ptosim, "fmt"] + tgt + [path])
        if c1 == 0:
            fa = os.path.join(tmp, "rt_a.pto")
            open(fa, "w").write(a)
            c2, b, e2 = run([ptosim, "fmt"] + tgt + [fa])
            if c2 != 0 or a != b:
                return res.bad(name, "fmt is not a fixed point (exit %d)\n%s" % (c2, e2[-2000:]))
            c3, g, e3 = run([ptosim, "fmt", "--generic"] + tgt + [path])
            fg = os.path.join(tmp, "rt_g.pto")
            open(fg, "w").write(g)
            c4, b2, e4 = run([ptosim, "fmt"] + tgt + [fg])
            if c3 != 0 or c4 != 0 or b2 != a:
                return res.bad(name, "generic form does not round-trip (exit %d/%d)\n%s%s" % (c3, c4, e3[-1000:], e4[-1000:]))
    res.ok(name)


def collect(build, only):
    """Every test as (path relative to the repository, runner), in directory order."""
    tests = unit_tests(build)
    for dirpath, dirs, files in os.walk(os.path.join(ROOT, "tests")):
        dirs[:] = sorted(d for d in dirs if d not in ("gen", "__pycache__"))
        for f in sorted(files):
            p = os.path.join(dirpath, f)
            rel = os.path.relpath(p, ROOT)
            if f.endswith(".pto"):
                tests.append((rel, lambda res, p=p: kernel_test(build, p, res)))
            elif f.startswith("test_") and f.endswith((".py", ".sh")):
                argv = [sys.executable if f.endswith(".py") else "sh", p, "--build", build]
                tests.append((rel, lambda res, a=argv, n=rel: counted_program(a, n, res)))
    if only:
        tests = [t for t in tests if any(o in t[0] or o in os.path.join(ROOT, t[0]) for o in only)]
    return tests


def main():
    args = sys.argv[1:]
    build = "build"
    only = []
    while args:
        a = args.pop(0)
        if a == "--build":
            build = args.pop(0)
        else:
            only.append(a.rstrip("/"))
    build = os.path.abspath(build)
    res = Result()
    tests = collect(build, only)
    # one progress line per test directory: count passed/failed and the time it took
    groups = []
    for rel, fn in tests:
        d = os.path.dirname(rel)
        if not groups or groups[-1][0] != d:
            groups.append((d, []))
        groups[-1][1].append(fn)
    for d, fns in groups:
        p0, f0, t0 = res.passed, res.failed, time.monotonic()
        for fn in fns:
            fn(res)
        sys.stdout.write("%-16s %4d passed, %d failed  (%.1f s)\n"
                         % (d, res.passed - p0, res.failed - f0, time.monotonic() - t0))
        sys.stdout.flush()
    print("%d passed, %d failed" % (res.passed, res.failed))
    sys.exit(1 if res.failed else 0)


if __name__ == "__main__":
    main()
