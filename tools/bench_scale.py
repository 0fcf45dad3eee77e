#!/usr/bin/env python3
"""bench_scale.py BUILD — front-end scaling lines for `make bench` (issue 33): `ptosim check` on the hostile
shapes of tests/gen/gen_reliability.py (type aliases, a chain of functions, constants beside vector ops) at
1x = 10^4 and 10x = 10^5, best of 3 wall-clock times each, and the time ratio (linear: about 10, the issue
asks for <= 11)."""
import os, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
ptosim = os.path.join(build, "ptosim")
gen = os.path.join(ROOT, "tests", "gen", "gen_reliability.py")


def best(path):
    t = []
    for _ in range(3):
        t0 = time.perf_counter()
        subprocess.run([ptosim, "check", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t.append(time.perf_counter() - t0)
    return min(t)


with tempfile.TemporaryDirectory() as tmp:
    for case in ("many_aliases", "many_funcs", "many_consts"):
        times = []
        for n in (10000, 100000):
            d = os.path.join(tmp, str(n))
            os.makedirs(d, exist_ok=True)
            subprocess.run([sys.executable, gen, d, case, str(n)], check=True)
            times.append(best(os.path.join(d, case + ".pto")))
        print("front scaling %-13s 1x %7.3f s  10x %7.3f s  ratio %5.1f" % (case, times[0], times[1], times[1] / max(times[0], 1e-6)))
