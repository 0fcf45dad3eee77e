#!/usr/bin/env python3
"""test_jobs.py [--build BUILD] — the results of a launch do not depend on how many threads run its blocks.

Every multi-block kernel test of the suite (a `ptosim run` RUN line with -b/--blocks N > 1), and a set of
single-block tests launched here with several blocks (their blocks then race on the same GM bytes, trap,
deadlock, warn at the same ops), is run with -j 1, 2 and 3, each time with --stats, --profile and
--trace on. Everything must be identical to the -j 1 run: exit status, stdout (the stats and profile
reports), stderr (diagnostics in order, the summary line), every file the run wrote (outputs, dumps, the
trace). The inputs come from the test's own GEN lines; the expectations of those tests stay in their files.
"""
import importlib.util, os, re, shlex, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import BUILD, ROOT, check, finish  # noqa: E402

spec = importlib.util.spec_from_file_location("runner", os.path.join(ROOT, "tests", "run.py"))
runner = importlib.util.module_from_spec(spec)
spec.loader.exec_module(runner)

# single-block tests launched with several blocks here: races between blocks on the same bytes (and the
# re-runs they cause), a race inside each block, a deadlock, repeated once-per-op warnings, cube and mixed
# kernels, a dump of the last block
EXTRA = {
    "tests/sync/flag_dyn_missing_war.pto": 3,
    "tests/sync/intra_block_deadlock.pto": 3,
    "tests/sanitize/uninit_read.pto": 4,
    "tests/sanitize/deadlock_cycle.pto": 2,
    "tests/sanitize/unwritten_half.pto": 3,
    "tests/race/store_overwrite.pto": 3,
    "tests/cube/mad_f16_16x16x16.pto": 3,
    "tests/cube/mixed_split_m.pto": 3,
    "tests/cube/fix_atomic.pto": 3,
    "tests/dma/atomic_blocks.pto": 0,
}
JOBS = (1, 2, 3)
# once-per-op warnings are once per launch, not per block: launched with several blocks, these tests give
# exactly one warning of the ID, whatever the thread count
ONCE = {"tests/sanitize/uninit_read.pto": "W-UNINIT", "tests/blocks/gm_gap.pto": "W-GM-CLOBBER"}


def blocks_of(argv):
    for i, a in enumerate(argv):
        m = re.match(r"^(?:-b|--blocks=?)(\d*)$", a)
        if m:
            v = m.group(1) or (argv[i + 1] if i + 1 < len(argv) else "")
            return int(v) if v.isdigit() else 0
    return 0


def cases():
    """(path, extra blocks) of every test to compare."""
    found = []
    for d, dirs, files in os.walk(os.path.join(ROOT, "tests")):
        dirs[:] = sorted(x for x in dirs if x not in ("gen", "__pycache__"))
        for f in sorted(files):
            if not f.endswith(".pto"):
                continue
            p = os.path.join(d, f)
            rel = os.path.relpath(p, ROOT)
            runs = [shlex.split(v) for k, v in runner.directives(p) if k == "RUN"]
            multi = any(r[:2] == ["ptosim", "run"] and blocks_of(r) > 1 for r in runs)
            if multi or rel in EXTRA:
                found.append((p, EXTRA.get(rel, 0)))
    return found


def run_all(path, gen_dir, jobs, blocks):
    """Runs the test's RUN lines with -j `jobs` in a copy of gen_dir; returns everything it produced."""
    tmp = tempfile.mkdtemp(prefix="ptosim-jobs-")
    try:
        work = os.path.join(tmp, "t")
        shutil.copytree(gen_dir, work)

        def subst(s):
            return (s.replace("%gen", os.path.join(ROOT, "tests", "gen")).replace("%s", path)
                    .replace("%t", work).replace("%S", os.path.dirname(path)))

        got = []
        runs = [v for k, v in runner.directives(path) if k == "RUN"]
        for i, r in enumerate(runs):
            argv = shlex.split(subst(r))
            if argv[:2] == ["ptosim", "run"]:
                extra = ["-j", str(jobs), "--stats", "--profile", "--trace", os.path.join(work, "jobs_trace%d.json" % i)]
                if blocks and not blocks_of(argv):
                    extra += ["-b", str(blocks)]
                argv[2:2] = extra
            if argv and argv[0] == "ptosim":
                argv[0] = os.path.join(BUILD, "ptosim")
            p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
            norm = lambda b: b.decode(errors="replace").replace(work, "%t")
            got.append(("RUN %d exit" % i, str(p.returncode)))
            got.append(("RUN %d stdout" % i, norm(p.stdout)))
            got.append(("RUN %d stderr" % i, norm(p.stderr)))
        for d, _, files in sorted(os.walk(work)):
            for f in sorted(files):
                fp = os.path.join(d, f)
                with open(fp, "rb") as fh:
                    got.append(("file " + os.path.relpath(fp, work), fh.read().replace(work.encode(), b"%t")))
        return got
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    for path, blocks in cases():
        name = os.path.relpath(path, ROOT)
        gen_dir = tempfile.mkdtemp(prefix="ptosim-jobs-gen-")
        try:
            ok = True
            for k, v in runner.directives(path):
                if k == "GEN":
                    argv = shlex.split(v.replace("%gen", os.path.join(ROOT, "tests", "gen")).replace("%S", os.path.dirname(path)))
                    p = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "gen", argv[0]), gen_dir] + argv[1:],
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                    ok = ok and p.returncode == 0
            check(ok, "%s: generator" % name)
            if not ok:
                continue
            ref = run_all(path, gen_dir, JOBS[0], blocks)
            for j in JOBS[1:]:
                got = run_all(path, gen_dir, j, blocks)
                diff = [(a, b) for a, b in zip(ref, got) if a != b]
                what = "" if not diff else "%s differs:\n-j %d: %r\n-j %d: %r" % (
                    diff[0][0][0], JOBS[0], diff[0][0][1][:1500], j, diff[0][1][1][:1500])
                if len(ref) != len(got):
                    what = "different files: %s vs %s" % ([a for a, _ in ref], [a for a, _ in got])
                check(len(ref) == len(got) and not diff, "%s: -j %d gives what -j %d gives" % (name, j, JOBS[0]), what)
                if name in ONCE:
                    err = "".join(v for k, v in got if k.endswith("stderr"))
                    n = err.count("[%s]" % ONCE[name])
                    check(n == 1, "%s: one %s for %d blocks with -j %d (got %d)" % (name, ONCE[name], blocks, j, n), err)
        finally:
            shutil.rmtree(gen_dir, ignore_errors=True)
    finish()


if __name__ == "__main__":
    main()
