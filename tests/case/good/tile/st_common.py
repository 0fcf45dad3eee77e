# Helpers shared by the test cases of this folder (the tile system tests' layout keeps such a file one level
# above the cases; `ptosim case` copies it into each case's work directory, as that flow does).
import os, struct


def save(case, name, values):
    os.makedirs(case, exist_ok=True)
    with open(os.path.join(case, name), "wb") as f:
        f.write(struct.pack("<%di" % len(values), *values))


def load(case, name):
    with open(os.path.join(case, name), "rb") as f:
        data = f.read()
    return list(struct.unpack("<%di" % (len(data) // 4), data))
