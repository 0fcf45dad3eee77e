#!/usr/bin/env python3
"""The SIMT lockstep path against the per-workitem path (docs/internals.md, "SIMT launches"): every `ptosim run`
line of every SIMT test (tests/simt/**.pto, their GEN inputs made first), the lockstep coverage kernel
tests/simt/lockstep/mix.pto and the bench's RMSNorm-as-SIMT kernel run twice — default (lockstep where the body
allows it) and --no-fast-paths (the per-workitem scheduler, always) — each with --stats --profile; the exit
status, stdout (hex dumps, statistics, profile), stderr (diagnostics) and every output file must be identical.
Inputs are random bytes drawn here (never computed by ptosim). Also run with the race detector off and with
the sanitizer off (the lockstep path then has no checker to feed).

    python3 tests/simt/test_lockstep.py [--build BUILD]"""
import os, random, re, shlex, shutil, struct, subprocess, sys, tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import BUILD, ROOT, check, finish

PTOSIM = os.path.join(BUILD, "ptosim")
HERE = os.path.dirname(os.path.abspath(__file__))


def directives(path):
    gens, runs = [], []
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*//\s*(GEN|RUN):\s*(.*)$", line)
            if not m:
                continue
            (gens if m.group(1) == "GEN" else runs).append(m.group(2).strip())
    return gens, [r for r in runs if r.startswith("ptosim run")]


def subst(s, path, tmp):
    return (s.replace("%gen", os.path.join(ROOT, "tests", "gen")).replace("%s", path)
            .replace("%S", os.path.dirname(path)).replace("%t", tmp))


def run_variant(path, gens, run, extra, tmp):
    for g in gens:
        args = shlex.split(subst(g, path, tmp))
        subprocess.run([sys.executable, os.path.join(ROOT, "tests", "gen", args[0]), tmp] + args[1:],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    args = shlex.split(subst(run, path, tmp))[1:]   # drop "ptosim"
    args = args[:1] + extra + args[1:]
    p = subprocess.run([PTOSIM] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, timeout=300)
    files = {}
    for name in sorted(os.listdir(tmp)):
        fp = os.path.join(tmp, name)
        if os.path.isfile(fp):
            with open(fp, "rb") as f:
                files[name] = f.read()
    norm = lambda b: b.decode(errors="replace").replace(tmp, "%t")
    return p.returncode, norm(p.stdout), norm(p.stderr), files


def compare(label, path, gens, run):
    for checks in ([], ["--no-race"], ["--no-sanitize"]):
        res = []
        for fast in ([], ["--no-fast-paths"]):
            tmp = tempfile.mkdtemp(prefix="lockstep")
            try:
                res.append(run_variant(path, gens, run, ["--stats", "--profile"] + checks + fast, tmp))
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        (ra, oa, ea, fa), (rb, ob, eb, fb) = res
        what = "%s %s: lockstep and per-workitem runs agree" % (label, " ".join(checks) or "(default checks)")
        detail = ""
        if ra != rb:
            detail += "exit %d vs %d\n" % (ra, rb)
        if oa != ob:
            detail += "stdout differs:\n--- lockstep\n%s\n--- per workitem\n%s\n" % (oa[:3000], ob[:3000])
        if ea != eb:
            detail += "stderr differs:\n--- lockstep\n%s\n--- per workitem\n%s\n" % (ea[:3000], eb[:3000])
        for k in sorted(set(fa) | set(fb)):
            if fa.get(k) != fb.get(k):
                detail += "output file %s differs\n" % k
        check(not detail, what, detail)


def main():
    tests = []
    for root, _, names in os.walk(HERE):
        for n in sorted(names):
            if n.endswith(".pto"):
                tests.append(os.path.join(root, n))
    for path in sorted(tests):
        gens, runs = directives(path)
        for i, run in enumerate(runs):
            compare("%s[%d]" % (os.path.relpath(path, ROOT), i), path, gens, run)
    # the lockstep coverage kernel: 96 random i32 inputs plus the edge values it compares against
    rnd = random.Random(32)
    vals = [rnd.randint(-100, 100) for _ in range(88)] + [48, -5, 0, -1, -2147483648, 2147483647, 0x7FC00000,
                                                           -0x80000000 + 1]
    gdir = tempfile.mkdtemp(prefix="lockgen")
    try:
        inp = os.path.join(gdir, "mix.in")
        with open(inp, "wb") as f:
            f.write(struct.pack("<96i", *vals))
        compare("lockstep/mix.pto", os.path.join(HERE, "lockstep", "mix.pto"), [],
                "ptosim run %%s %s zeros:1920:%%t/out.bin" % inp)
        # RMSNorm as SIMT (bench/rmsnorm_simt.pto): 2 blocks of 2 tokens of 1024 f32 in [-3, 3), gains in [0.5, 1.5)
        x = os.path.join(gdir, "x.bin")
        g = os.path.join(gdir, "g.bin")
        with open(x, "wb") as f:
            f.write(struct.pack("<4096f", *[rnd.uniform(-3, 3) for _ in range(4096)]))
        with open(g, "wb") as f:
            f.write(struct.pack("<1024f", *[rnd.uniform(0.5, 1.5) for _ in range(1024)]))
        compare("bench/rmsnorm_simt.pto", os.path.join(ROOT, "bench", "rmsnorm_simt.pto"), [],
                "ptosim run -b 2 %%s %s %s zeros:16384:%%t/y.bin 2" % (x, g))
    finally:
        shutil.rmtree(gdir, ignore_errors=True)
    finish()


main()
