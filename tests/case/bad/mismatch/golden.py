# Writes the inputs of the vadd case and the expected output, computed here: z[i] = x[i] + y[i] (i32, wrapping).
import random, struct

N = 1024
rng = random.Random(31)
x = [rng.randint(-2**31, 2**31 - 1) for _ in range(N)]
y = [rng.randint(-2**31, 2**31 - 1) for _ in range(N)]
z = [((a + b + 2**31) % 2**32) - 2**31 for a, b in zip(x, y)]
for name, v in (("x.bin", x), ("y.bin", y), ("golden.bin", z)):
    with open(name, "wb") as f:
        f.write(struct.pack("<%di" % N, *v))
