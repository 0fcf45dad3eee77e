# The cases of this test: each a kernel of vadd2.pto and its element count (main.cpp has the same table).
CASES = [
    {"name": "n1024", "n": 1024},
    {"name": "n512", "n": 512},
]
