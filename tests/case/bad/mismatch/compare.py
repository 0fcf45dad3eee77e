# Compares the host program's output with the golden, byte for byte; exit 1 on a difference.
import sys

out, gold = open("z.bin", "rb").read(), open("golden.bin", "rb").read()
if out != gold:
    first = next((i for i in range(min(len(out), len(gold))) if out[i] != gold[i]), min(len(out), len(gold)))
    print("mismatch: %d/%d bytes, first difference at byte %d" % (len(out), len(gold), first))
    sys.exit(1)
print("compare passed")
