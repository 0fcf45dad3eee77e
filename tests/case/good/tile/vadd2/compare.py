# Every case's output.bin must equal its golden.bin; exit 2 otherwise.
import sys
from cases import CASES
from st_common import load

ok = True
for case in CASES:
    if load(case["name"], "output.bin") != load(case["name"], "golden.bin"):
        print("[ERROR] %s: compare failed" % case["name"])
        ok = False
    else:
        print("[INFO] %s: compare passed" % case["name"])
sys.exit(0 if ok else 2)
