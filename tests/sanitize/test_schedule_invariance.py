#!/usr/bin/env python3
"""test_schedule_invariance.py [--build BUILD] — the synchronisation reports do not depend on the schedule.

Each synchronisation bug kernel of tests/sanitize and its clean twin is run under the target's built-in
timing and under 24 distorted timing tables written here (seeded, so every run of the suite uses the same
tables): DMA paths from very slow to very fast, slow and fast vector, cube and fixpipe heads, a slow and a
fast scalar unit (issue and execution), slow synchronisation ops. The report — exit status and every
diagnostic with its notes, the ones after the cycle count dropped — must be the same under every table.
The expectations (which diagnostics, where) are the tests' own, checked by tests/run.py; this test checks
that they hold on every schedule, which is what the happens-before rules (src/ops/sync/flagcheck.c) are for.
A bug kernel must report something under every table, so a check that went silent fails here too.
"""
import os, random, re, shlex, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import BUILD, ROOT, check, finish  # noqa: E402

PTOSIM = os.path.join(BUILD, "ptosim")
HERE = os.path.join(ROOT, "tests", "sanitize")
# (kernel, is it a bug kernel)
KERNELS = [
    ("flag_alias.pto", True), ("flag_alias_fixed.pto", False),
    ("flag_shared.pto", True), ("flag_shared_fixed.pto", False),
    ("flag_cross.pto", True), ("flag_cross_fixed.pto", False),
    ("flag_shared_a5_on.pto", True), ("flag_shared_a5.pto", False),
    ("flag_key_override.pto", True),
    ("flag_event_range.pto", True), ("flag_event_range_fixed.pto", False),
    ("sem_depth.pto", True), ("sem_depth_fixed.pto", False),
    ("sem_leftover.pto", True), ("sem_leftover_fixed.pto", False),
    ("cross_leftover.pto", True), ("cross_leftover_fixed.pto", False),
    ("buf_later_release.pto", True), ("buf_later_release_fixed.pto", False),
]


def tables(tmp):
    """24 timing tables (docs/timing.md syntax), seeded."""
    rng = random.Random(29)
    out = []
    for i in range(24):
        peak = lambda: rng.choice([1, 2, 4, 16, 64, 256, 1024])
        start = lambda: rng.choice([1, 7, 50, 300, 1000, 3000])
        lines = ["clock_ghz %s" % rng.choice(["0.7", "1.0", "1.8"])]
        for p in ("gm_ub", "gm_l1", "ub_gm", "ub_ub", "l1_l0a", "l1_l0b", "l0c_gm"):
            lines.append("path %s peak=%d startup=%d" % (p, peak(), start()))
        lines.append("vf startup=%d drain=%d" % (rng.choice([1, 20, 500]), rng.choice([1, 3, 40])))
        lines.append("vec default exu lat=%d ii=%d" % (rng.choice([1, 5, 50]), rng.choice([1, 13, 40])))
        lines.append("mad head=%d" % rng.choice([1, 50, 999]))
        lines.append("fixpipe head=%d" % rng.choice([1, 30, 700]))
        if i == 0:      # a very slow scalar unit: issue and execution
            lines.append("scalar op=400 issue=250")
        elif i == 1:    # a fast scalar unit and slow pipes
            lines.append("scalar op=1 issue=1")
        else:
            lines.append("scalar op=%d issue=%d" % (rng.choice([1, 3, 17, 90]), rng.choice([1, 5, 40, 120])))
        lines.append("sync op=%d" % rng.choice([1, 2, 41, 300]))
        path = os.path.join(tmp, "t%02d.tim" % i)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        out.append(path)
    return out


DIAG = re.compile(r"^\S+:\d+:\d+: (warning|note|trap|error): ")


def report(args, timing):
    cmd = [PTOSIM, "run"] + (["--timing", timing] if timing else []) + args
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    groups, cur = [], None
    for line in p.stderr.splitlines():
        if not DIAG.match(line):
            continue
        if ": note: " in line and cur is not None:
            cur.append(line)
        else:
            cur = [line]
            groups.append(cur)
    # diagnostics are emitted when the schedule reaches them: compare them as a set of (diagnostic, notes)
    return p.returncode, sorted(tuple(g) for g in groups)


def run_args(path):
    with open(path) as f:
        for line in f:
            m = re.match(r"//\s*RUN:\s*ptosim run (.*)", line)
            if m:
                return [a.replace("%s", path) for a in shlex.split(m.group(1))]
    raise SystemExit("no RUN line in " + path)


with tempfile.TemporaryDirectory() as tmp:
    tims = tables(tmp)
    check(len(tims) >= 20, "at least 20 timing tables")
    for name, bug in KERNELS:
        path = os.path.join(HERE, name)
        args = run_args(path)
        base = report(args, None)
        check(not bug or base[1], "%s: the bug kernel reports something" % name, repr(base))
        check(bug or not any(": warning: " in g[0] or ": trap: " in g[0] for g in base[1]),
              "%s: the clean twin reports nothing" % name, repr(base))
        for t in tims:
            got = report(args, t)
            check(got == base, "%s under %s: the same report as under the built-in timing" % (name, os.path.basename(t)),
                  "built-in: %r\n%s: %r\n%s" % (base, os.path.basename(t), got, open(t).read()))
    # the tables do change the schedule: under the lossy model (a set while the flag is set is lost) whether
    # flag_shared.pto's kernel deadlocks depends on which of its two sets runs before the first wait
    lossy = {report(["--flag-model=lossy", os.path.join(HERE, "flag_shared.pto")], t)[0] for t in tims}
    check(lossy == {0, 3}, "the tables change the schedule: flag_shared.pto under --flag-model=lossy both completes "
          "and deadlocks across them", repr(lossy))
finish()
