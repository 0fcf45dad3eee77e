#!/usr/bin/env python3
"""Differential test of the simulator: random valid kernels from tests/gen/gen_diff.py (which never calls
ptosim) must give identical output bytes, exit status 0, under every run variant:

  the default run (race detector, W-UNINIT and W-UNWRITTEN on) | --no-race | --no-sanitize
  | the kernel as `ptosim fmt` prints it | as `ptosim fmt --generic` prints it
  | two blocks on one thread and on two (-b 2 -j 1 / -j 2, when the tool has --jobs)
  | the reference handlers instead of the fast paths (--no-fast-paths, when the tool has it)

    python3 tests/diff/test_diff.py [--build BUILD] [--seeds N] [--first S] [--seconds T]

Default: seeds 1..60 (deterministic, part of `make test`). --seconds T keeps drawing seeds from --first
(default: random) until T seconds have passed (`make fuzz-sim SECONDS=T`); a failing seed is printed so
`gen_diff.py SEED` reproduces it."""
import os, random, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gen"))
from testlib import BUILD, check, finish
import gen_diff

PTOSIM = os.environ.get("PTOSIM_BIN", os.path.join(BUILD, "ptosim"))


def arg(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def run(args, **kw):
    return subprocess.run([PTOSIM] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


OPTIONS = run(["run", "--list-options"]).stdout.decode().split()


def one(seed, tmp):
    text, data = gen_diff.kernel(seed)
    k = os.path.join(tmp, "k%d.pto" % seed)
    inp = k + ".in"
    with open(k, "w") as f:
        f.write(text)
    with open(inp, "wb") as f:
        f.write(data)
    # the default run and the reference-path run also print the timing view: both must agree on it too
    view = ["--stats", "--profile"] if "--no-fast-paths" in OPTIONS else []
    variants = [("default", view, k), ("--no-race", ["--no-race"], k), ("--no-sanitize", ["--no-sanitize"], k)]
    for form, extra in (("fmt", []), ("fmt --generic", ["--generic"])):
        out = k + (".generic" if extra else ".fmt") + ".pto"
        p = run(["fmt", "-o", out] + extra + [k])
        check(p.returncode == 0, "seed %d: %s prints the kernel" % (seed, form), p.stderr.decode())
        if p.returncode:
            continue
        variants.append((form, [], out))
    if "--jobs" in OPTIONS:
        variants += [("-b 2 -j 1", ["-b", "2", "-j", "1", "-Wno-race"], k), ("-b 2 -j 2", ["-b", "2", "-j", "2", "-Wno-race"], k)]
    if "--no-fast-paths" in OPTIONS:
        variants.append(("--no-fast-paths", ["--no-fast-paths"] + view, k))
    ref = ref_err = ref_view = None
    for name, extra, src in variants:
        out = os.path.join(tmp, "k%d.%s.out" % (seed, name.replace(" ", "_").replace("-", "")))
        p = run(["run", "-q"] + extra + [src, inp, "zeros:%d:%s" % (gen_diff.OUT_BYTES, out)])
        check(p.returncode == 0, "seed %d (%s): exit %d" % (seed, name, p.returncode), p.stderr.decode())
        if p.returncode:
            return
        with open(out, "rb") as f:
            got = f.read()
        if ref is None:
            ref, ref_err, ref_view = got, p.stderr, p.stdout
            continue
        if name == "--no-fast-paths":   # same kernel text: the sanitizer's reports and the view must match too
            check(p.stderr == ref_err, "seed %d: %s reports what the default run reports" % (seed, name),
                  "default:\n%s\n%s:\n%s" % (ref_err.decode(), name, p.stderr.decode()))
            check(p.stdout == ref_view, "seed %d: %s prints the default run's --stats --profile" % (seed, name),
                  "default:\n%s\n%s:\n%s" % (ref_view.decode(), name, p.stdout.decode()))
        first = next((i for i in range(len(got)) if got[i] != ref[i]), -1)
        check(got == ref, "seed %d: %s gives the bytes of the default run" % (seed, name),
              "first difference at byte %d; reproduce with tests/gen/gen_diff.py %d" % (first, seed))


def main():
    first = int(arg("--first", "1" if "--seconds" not in sys.argv else str(random.randrange(1, 1 << 30))))
    seconds = float(arg("--seconds", "0"))
    n = int(arg("--seeds", "60"))
    t0 = time.monotonic()
    seed = first
    with tempfile.TemporaryDirectory(prefix="ptosim-diff-") as tmp:
        while True:
            one(seed, tmp)
            seed += 1
            if seconds and time.monotonic() - t0 >= seconds:
                break
            if not seconds and seed >= first + n:
                break
    if seconds:
        print("fuzz-sim: seeds %d..%d (%d kernels) in %.0f s" % (first, seed - 1, seed - first, time.monotonic() - t0))
    finish()


if __name__ == "__main__":
    main()
