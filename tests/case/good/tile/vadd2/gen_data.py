# Per case: a subdirectory with input1.bin, input2.bin and golden.bin = input1 + input2 (i32, wrapping).
import random
from cases import CASES
from st_common import save

for case in CASES:
    rng = random.Random(case["name"])
    a = [rng.randint(-2**31, 2**31 - 1) for _ in range(case["n"])]
    b = [rng.randint(-2**31, 2**31 - 1) for _ in range(case["n"])]
    save(case["name"], "input1.bin", a)
    save(case["name"], "input2.bin", b)
    save(case["name"], "golden.bin", [((x + y + 2**31) % 2**32) - 2**31 for x, y in zip(a, b)])
