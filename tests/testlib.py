"""testlib.py — what the Python test scripts (tests/**/test_*.py) share: the repository root, the build
directory from `--build BUILD`, and a check() that counts results and prints the runner's summary line."""
import os, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.abspath(sys.argv[sys.argv.index("--build") + 1] if "--build" in sys.argv else os.path.join(ROOT, "build"))
_count = {"passed": 0, "failed": 0}


def check(cond, what, detail=""):
    """Counts one result; a failure prints FAIL and the first lines of the detail."""
    if cond:
        _count["passed"] += 1
    else:
        _count["failed"] += 1
        print("FAIL %s" % what)
        for line in str(detail).rstrip().splitlines()[:40]:
            print("    " + line)


def finish():
    """Prints "N passed, M failed" (the line tests/run.py reads) and exits 1 on any failure."""
    print("%d passed, %d failed" % (_count["passed"], _count["failed"]))
    sys.exit(1 if _count["failed"] else 0)
