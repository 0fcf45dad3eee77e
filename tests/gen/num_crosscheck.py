#!/usr/bin/env python3
"""Second, independent oracle for f32 -> f16 and f32 -> bf16 conversion (round to nearest even,
no saturation), standard library only.

f16 comes from struct.pack('<e'), CPython's IEEE half packer, and is checked against the exact
rational rounding of fmodel.py (the generators' float model); bf16 comes from that rounding. Prints one
line per input: "<f32 hex> <f16 hex> <bf16 hex>", for about 5000 deterministic inputs: random
patterns, every kind of boundary (values, midpoints and their f32 neighbours) and specials.
NaN results are the canonical NaNs ptosim produces (0x7e00, 0x7fc0).
"""
import math
import struct
import sys

import fmodel as fm


def f32_value(bits):
    return struct.unpack('<f', struct.pack('<I', bits))[0]


def f32_bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def f16_struct(x):
    if math.isnan(x):
        return 0x7E00
    try:
        return struct.unpack('<H', struct.pack('<e', x))[0]
    except OverflowError:  # rounds past 65504
        return 0xFC00 if x < 0 else 0x7C00


def f16_fraction(x):
    return fm.F16.encode(fm.of_float(x))


def bf16_fraction(x):
    return fm.BF16.encode(fm.of_float(x))


def inputs():
    state = 0x2545F491

    def rnd():
        nonlocal state
        state ^= (state << 13) & 0xFFFFFFFF
        state ^= state >> 17
        state ^= (state << 5) & 0xFFFFFFFF
        return state

    out = [0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF,
           0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFFFFFFF,
           0x477FE000, 0x477FEFFF, 0x477FF000, 0x477FF001, 0xC77FF000, 0x33000000, 0x33000001,
           0x33400000, 0x33800000, 0x387FC000, 0x38800000, 0x3F808000, 0x3F818000, 0x7F7F8000,
           0x7F7F7FFF]
    for _ in range(1500):  # random patterns, half with exponents near the f16 range
        b = rnd()
        if b & 1:
            b = (b & 0x807FFFFF) | ((127 - 27 + (rnd() % 46)) << 23)
        out.append(b)
    for _ in range(1000):  # f16 midpoints and their f32 neighbours
        c = rnd() % 0x7C00
        lo = struct.unpack('<e', struct.pack('<H', c))[0]
        hi = 65536.0 if c == 0x7BFF else struct.unpack('<e', struct.pack('<H', c + 1))[0]
        mid = f32_bits((lo + hi) / 2)
        sign = (rnd() & 1) << 31
        out += [sign | mid, sign | (mid - 1), sign | (mid + 1)]
    for _ in range(500):  # bf16 midpoints and neighbours
        h = rnd() & 0xFFFF
        for low in (0x7FFF, 0x8000, 0x8001):
            out.append(h << 16 | low)
    return out


def main():
    bad = 0
    for b in inputs():
        x = f32_value(b)
        h = f16_struct(x)
        if h != f16_fraction(x):
            print('oracle disagreement on %08x: struct %04x, fraction %04x' % (b, h, f16_fraction(x)),
                  file=sys.stderr)
            bad += 1
        print('%08x %04x %04x' % (b, h, bf16_fraction(x)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
