#!/usr/bin/env python3
"""test_fast_paths.py [--build BUILD] — the vector fast paths give the checked paths' results.

The suite runs kernels with the default checks (race detector, initcheck), under which the vector
load/store fast paths and the fused `vlds; [vlds;] compute; vsts` handler step aside. This script runs
every kernel test of tests/vls that loads and stores vector registers again with --no-sanitize (fast
paths and fusion on) and checks the test's own expectations: exit status and every CMP file pair (the
expected files come from the test's generators, computed without ptosim), and that the summary line
(ops, cycles, bytes moved) is the one of the checked run. Each kernel also runs with a step limit that
stops it partway: the trap and its location must be the same with and without the checks. (tests/diff
compares random kernels with the checks off against the reference handlers.)
"""
import importlib.util, os, re, shlex, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import BUILD, ROOT, check, finish  # noqa: E402

spec = importlib.util.spec_from_file_location("runner", os.path.join(ROOT, "tests", "run.py"))
runner = importlib.util.module_from_spec(spec)
spec.loader.exec_module(runner)


def cases():
    for sub in ("vls",):
        d = os.path.join(ROOT, "tests", sub)
        for f in sorted(os.listdir(d)):
            p = os.path.join(d, f)
            if not f.endswith(".pto"):
                continue
            text = open(p).read()
            if "pto.vlds" not in text or "pto.vsts" not in text:
                continue
            dirs = runner.directives(p)
            runs = [v for k, v in dirs if k == "RUN" and shlex.split(v)[:2] == ["ptosim", "run"]]
            exit_ = [v for k, v in dirs if k == "EXIT"]
            if runs and (not exit_ or exit_[-1].strip() == "0"):
                yield p, dirs


def run_case(path, dirs, extra):
    tmp = tempfile.mkdtemp(prefix="ptosim-fast-")
    try:
        for k, v in dirs:
            if k == "GEN":
                argv = shlex.split(v.replace("%gen", os.path.join(ROOT, "tests", "gen")).replace("%S", os.path.dirname(path)))
                subprocess.run([sys.executable, os.path.join(ROOT, "tests", "gen", argv[0]), tmp] + argv[1:],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)

        def subst(s):
            return s.replace("%gen", os.path.join(ROOT, "tests", "gen")).replace("%s", path).replace("%t", tmp).replace(
                "%S", os.path.dirname(path))

        out = []
        for k, v in dirs:
            if k != "RUN":
                continue
            argv = shlex.split(subst(v))
            if argv[:2] == ["ptosim", "run"]:
                argv[2:2] = extra
            argv[0] = os.path.join(BUILD, "ptosim") if argv[0] == "ptosim" else argv[0]
            p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
            out.append((p.returncode, p.stderr.decode(errors="replace")))
        cmps = []
        for k, v in dirs:
            if k == "CMP":
                a, b = shlex.split(subst(v))
                with open(a, "rb") as fa, open(b, "rb") as fb:
                    cmps.append((v, fa.read() == fb.read()))
        return out, cmps
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def trap_at(err):
    m = re.search(r":(\d+:\d+): \w+: .*\[T-STEP-LIMIT\]", err)
    return m.group(1) if m else None


def summary(err):
    """the run's summary line (blocks, cores, ops, cycles, bytes moved per pipe)"""
    return [ln for ln in err.splitlines() if " completed on " in ln or " stopped " in ln]


def main():
    n = 0
    for path, dirs in cases():
        name = os.path.relpath(path, ROOT)
        out, cmps = run_case(path, dirs, ["--no-sanitize"])
        check(all(rc == 0 for rc, _ in out), "%s: runs with --no-sanitize" % name, "\n".join(e for _, e in out)[:1500])
        for v, same in cmps:
            check(same, "%s: CMP %s with --no-sanitize" % (name, v))
        ref, _ = run_case(path, dirs, [])
        check(summary(out[-1][1]) == summary(ref[-1][1]), "%s: the same ops, cycles and bytes with and without checks" % name,
              "fast: %s\nslow: %s" % (summary(out[-1][1]), summary(ref[-1][1])))
        # a step limit that stops the run partway: the same trap, at the same op, with and without the checks
        for limit in ("1001",):
            fast, _ = run_case(path, dirs, ["--no-sanitize", "--steps", limit])
            slow, _ = run_case(path, dirs, ["--steps", limit])
            fr, sr = fast[-1], slow[-1]
            check(fr[0] == sr[0] and trap_at(fr[1]) == trap_at(sr[1]),
                  "%s: --steps %s stops at the same op with and without checks" % (name, limit),
                  "fast: %s %s\nslow: %s %s" % (fr[0], trap_at(fr[1]), sr[0], trap_at(sr[1])))
        n += 1
    check(n > 0, "kernels found")
    finish()


if __name__ == "__main__":
    main()
