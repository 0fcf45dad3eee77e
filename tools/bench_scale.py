#!/usr/bin/env python3
"""bench_scale.py BUILD [--quick] — scaling lines for `make bench` (issue 33). Wall-clock times are measured here,
never asserted in a test (the machine's load varies); the ratios are what to read.

  front scaling   `ptosim check` on the hostile shapes of tests/gen/gen_reliability.py (their valid variants, so
                  the verifier and vector-scope inference run) (type aliases, a chain of
                  functions calling each other, arith.constant beside vector ops in one block: vector-scope
                  inference) at 1x = 10^4 and 10x = 10^5 (linear: about 10, the issue asks <= 11), best of 3 CPU times.
  doubling        the same shapes at n, 2n, 4n (constants 5,000 / 10,000 / 20,000; aliases and functions
                  25,000 / 50,000 / 100,000): the time ratio per doubling (linear: about 2; the bar is <= 2.2).
  blocks          the bundled example (examples/abs_kernel_2d.pto) on 10,000 and 65,535 blocks with the race
                  detector (the default), -j 2: wall time and peak RSS (ru_maxrss of the child).
--quick skips the 10x front line and the 65,535-block run."""
import os, resource, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
args = [a for a in sys.argv[1:] if not a.startswith("--")]
quick = "--quick" in sys.argv
build = args[0] if args else os.path.join(ROOT, "build")
ptosim = os.path.join(build, "ptosim")
gen = os.path.join(ROOT, "tests", "gen", "gen_reliability.py")


def best(cmd, reps=3):
    """The least CPU time (user + system) of the child over reps runs: less sensitive than wall time to the other
    jobs of a shared machine."""
    t = []
    for _ in range(reps):
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, _, ru = os.wait4(p.pid, 0)
        t.append(ru.ru_utime + ru.ru_stime)
    return min(t)


def shape(tmp, case, n):
    d = os.path.join(tmp, "%s-%d" % (case, n))
    os.makedirs(d, exist_ok=True)
    subprocess.run([sys.executable, gen, d, case, str(n), "valid"], check=True)
    return os.path.join(d, case + ".pto")


with tempfile.TemporaryDirectory() as tmp:
    for case in ("many_aliases", "many_funcs", "many_consts"):
        if quick:
            break
        times = [best([ptosim, "check", shape(tmp, case, n)]) for n in (10000, 100000)]
        print("front scaling %-13s 1x %7.3f s  10x %7.3f s  ratio %5.1f" % (case, times[0], times[1], times[1] / max(times[0], 1e-6)))
    for case, ns in (("many_consts", (5000, 10000, 20000)), ("many_aliases", (25000, 50000, 100000)),
                     ("many_funcs", (25000, 50000, 100000))):
        times = [best([ptosim, "check", shape(tmp, case, n)]) for n in ns]
        print("doubling %-13s %6d %7.3f s  %6d %7.3f s  %6d %7.3f s  ratios %4.2f %4.2f" % (
            case, ns[0], times[0], ns[1], times[1], ns[2], times[2], times[1] / max(times[0], 1e-6),
            times[2] / max(times[1], 1e-6)))
    d = os.path.join(tmp, "ex")
    os.makedirs(d)
    inp = os.path.join(d, "in.bin")
    with open(inp, "wb") as f:   # 32 x 32 f32, any values: the example's output is not read here
        f.write(bytes(4096))
    for n in (10000,) if quick else (10000, 65535):
        t0 = time.perf_counter()
        p = subprocess.Popen([ptosim, "run", "-q", os.path.join(ROOT, "examples", "abs_kernel_2d.pto"), inp, "zeros:4096",
                              "-b", str(n), "-j", "2"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        print("blocks %5d with the race detector (-j 2): %6.2f s, peak RSS %4d MB, exit %d" % (
            n, time.perf_counter() - t0, ru.ru_maxrss // 1024, os.waitstatus_to_exitcode(status)))
