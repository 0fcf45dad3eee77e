#!/usr/bin/python3
"""tools/corpus/run_samples.py — run the kernels of PTOAS test/samples (model kernels and direct-PTO samples)
with ptosim, judged by their golden scripts.

  /usr/bin/python3 tools/corpus/run_samples.py SAMPLES_DIR [DIR...] [--ptosim BIN] [-j N] [--keep DIR]
                                               [--flags "RUN OPTIONS"] [--max-mib N] [-v]

SAMPLES_DIR is PTOAS test/samples (validation_runtime.py in it); DIRs name some of its directories (default:
every directory with a golden script). A thin user of ptosim.samples (python/ptosim/samples.py, also behind
`ptosim case`): for every kernel NAME.pto with a NAME_golden.py it writes the host-program stand-ins the golden
script reads, runs the golden script, `ptosim run`, and the compare script. One line per kernel: PASS (marked
"determinism only" when the golden script has no oracle) or FAIL with a reason class (parse, verify, a trap
ID, mismatch, harness); then per directory "passed / with golden" and the golden scripts that have no kernel
file; the last line "N passed, M failed". A measurement tool: `make test` runs tests/corpus_runner instead.
"""
import argparse, os, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
from ptosim import case as pcase, samples  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("samples")
    ap.add_argument("dirs", nargs="*")
    ap.add_argument("--ptosim", default=os.path.join(ROOT, "build", "ptosim"))
    ap.add_argument("-j", type=int, default=1, help="kernels run in parallel (default 1)")
    ap.add_argument("--keep", help="copy each kernel's work directory under this directory")
    ap.add_argument("--flags", default="", help="extra `ptosim run` options, space-separated")
    ap.add_argument("--max-mib", type=int, default=4096,
                    help="skip (harness) a kernel whose buffers need more MiB than this (default 4096; 0: no limit)")
    ap.add_argument("-v", action="store_true", help="print the warnings of passing kernels too")
    args = ap.parse_args()
    base = os.path.abspath(args.samples)
    if not os.access(args.ptosim, os.X_OK):
        sys.exit("run_samples.py: no ptosim at %s (build it, or pass --ptosim)" % args.ptosim)
    names = args.dirs or sorted(n for n in os.listdir(base) if samples.is_sample_dir(os.path.join(base, n)))
    dirs = [(n, os.path.join(base, n)) for n in names]
    for n, d in dirs:
        if not samples.is_sample_dir(d):
            sys.exit("run_samples.py: %s has no golden script beside a validation_runtime.py" % d)
    cases, nokernel = [], {}
    for n, d in dirs:
        cases += samples.sample_cases(d, n)
        nokernel[n] = samples.kernels(d)[1]
    opts = pcase.Options(os.path.abspath(args.ptosim), args.flags.split(), keep=args.keep)
    opts.max_bytes = args.max_mib << 20
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    per = {n: [0, 0, 0] for n, _ in dirs}   # passed, determinism-only passes, kernels with golden
    counts = {}
    t0 = time.time()

    def show(r):
        w = (" [%s]" % " ".join(r.warnings)) if r.warnings and (not r.passed or args.v) else ""
        if r.passed:
            print("PASS %s%s%s" % (r.case, " (determinism only)" if getattr(r, "det", False) else "", w), flush=True)
        else:
            print("FAIL %s: %s: %s%s" % (r.case, r.cls, r.why, w), flush=True)

    from concurrent.futures import ThreadPoolExecutor
    import shutil, tempfile
    shared = tempfile.mkdtemp(prefix="ptosim-samples-")
    try:
        opts.pythonpath = pcase.build_ml_dtypes(shared, opts.python)
        with ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
            for r in pool.map(lambda c: pcase.run_case(c, opts), cases):
                show(r)
                p = per[r.case.split("/")[0]]
                p[2] += 1
                if r.passed:
                    p[0] += 1
                    p[1] += 1 if getattr(r, "det", False) else 0
                counts[r.cls or "PASS"] = counts.get(r.cls or "PASS", 0) + 1
    finally:
        shutil.rmtree(shared, ignore_errors=True)
    print("per directory (passed / kernels with a golden script; determinism-only passes; golden scripts "
          "without a kernel file):")
    for n, _ in dirs:
        p = per[n]
        extra = ("; %d without a .pto" % len(nokernel[n])) if nokernel[n] else ""
        print("  %-28s %3d / %3d%s%s" % (n, p[0], p[2], (" (%d determinism-only)" % p[1]) if p[1] else "", extra))
    failed = len(cases) - counts.get("PASS", 0)
    det = sum(p[1] for p in per.values())
    detail = ", ".join("%s %d" % (k, v) for k, v in sorted(counts.items()) if k != "PASS")
    print("wall time %.0f s; determinism-only passes: %d" % (time.time() - t0, det))
    print("%d passed, %d failed%s" % (counts.get("PASS", 0), failed, (" (" + detail + ")") if detail else ""))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
