#!/usr/bin/python3
"""tools/corpus/run_cases.py — run the public validated kernels of a PTOAS checkout with ptosim.

  /usr/bin/python3 tools/corpus/run_cases.py PTOAS_DIR [FILTER...] [--ptosim BIN] [-j N] [--keep DIR]
                                             [--flags "RUN OPTIONS"] [-v]

A thin user of `ptosim case` (the driver python/ptosim/case.py): every case directory under
PTOAS_DIR/test/vpto/cases (or PTOAS_DIR itself when it holds the cases) whose relative path contains one of
the FILTERs runs as `ptosim case` runs it (data script, host program against the stand-in device runtime,
ptosim as the device, compare.py), one PASS/FAIL line each, then the summary line. The same as

  build/ptosim case -j N PTOAS_DIR/test/vpto/cases [--filter F]... [RUN OPTIONS]

A measurement tool: the corpus is not part of this repository, and `make test` does not run it.
"""
import argparse, os, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
from ptosim import case as pcase  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ptoas")
    ap.add_argument("filters", nargs="*")
    ap.add_argument("--ptosim", default=os.path.join(ROOT, "build", "ptosim"))
    ap.add_argument("-j", type=int, default=1, help="cases run in parallel (default 1)")
    ap.add_argument("--keep", help="copy each case's work directory under this directory")
    ap.add_argument("--flags", default="", help="extra `ptosim run` options, space-separated")
    ap.add_argument("-v", action="store_true", help="print the warnings of passing cases too")
    args = ap.parse_args()
    root = os.path.join(args.ptoas, "test", "vpto", "cases")
    if not os.path.isdir(root):
        root = args.ptoas
    if not os.access(args.ptosim, os.X_OK):
        sys.exit("run_cases.py: no ptosim at %s (build it, or pass --ptosim)" % args.ptosim)
    if not pcase.find_cases([root], args.filters):
        sys.exit("run_cases.py: no case under %s matches" % args.ptoas)
    results = pcase.run_cases([root], args.filters, args.j, args.ptosim, args.flags.split(), args.keep,
                              on_result=lambda r: print(pcase.format_result(r, args.v), flush=True))
    counts = {}
    for r in results:
        counts[r.cls or "PASS"] = counts.get(r.cls or "PASS", 0) + 1
    failed = len(results) - counts.get("PASS", 0)
    detail = ", ".join("%s %d" % (k, v) for k, v in sorted(counts.items()) if k != "PASS")
    print("%d passed, %d failed%s" % (counts.get("PASS", 0), failed, (" (" + detail + ")") if detail else ""))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
