#!/usr/bin/env python3
"""gen_mgather_l1.py OUTDIR mgl1 — inputs and expected outputs of tests/tile/mgather_l1.pto: pto.mgather from GM into
an NZ mat (L1) tile, the reading of docs/semantics.md §14.6 (pto-isa a5 MGather.hpp MGatherGm2L1RowImpl /
MGatherGm2L1ElemImpl), written here independently of ptosim:
  NZ position of element (r, c) of an R x C tile of E-byte elements: (c // C0) * R * C0 + r * C0 + c % C0, C0 = 32 / E
  row:  table row idx[r] (idx read from the GM view's base, element r, as u32) for each valid row r, its valid
        columns; zero mode zeroes the whole tile first and skips rows whose index is >= the table's rows; clamp
        uses rows - 1; elements the op does not write keep what L1 held (zeros here: L1 starts zeroed)
  elem: the scratch view holds the whole tile's NZ image: zeros, then table element remap(idx[r * stride + c]) at each
        valid (r, c); the tile is a copy of the scratch
Outputs: the L1 tile through --dump, the scratch view through its GM buffer."""
import os
import random
import struct
import sys


def nz(r, c, R, e):
    c0 = 32 // e
    return (c // c0) * R * c0 + r * c0 + c % c0


def put(out, name, fmt, vals):
    with open(os.path.join(out, name), "wb") as f:
        f.write(struct.pack("<%d%s" % (len(vals), fmt), *vals))


def main(out):
    rng = random.Random(4242)
    # row, zero mode: f16 table 64 x 32, tile 32 x 32 valid 20 x 24, idx 32 entries (some >= 64)
    tab = [rng.getrandbits(16) for _ in range(64 * 32)]
    idx = [rng.choice([rng.randrange(64), 64 + rng.randrange(100), 0xFFFFFFFF]) for _ in range(32)]
    put(out, "row_tab.bin", "H", tab)
    put(out, "row_idx.bin", "I", idx)
    img = [0] * (32 * 32)
    for r in range(20):
        if idx[r] < 64:
            for c in range(24):
                img[nz(r, c, 32, 2)] = tab[idx[r] * 32 + c]
    put(out, "row_l1.exp", "H", img)
    # row, clamp: f16 table 40 x 32 whose rows sit 48 elements apart, tile 16 x 32 whole
    tab2 = [rng.getrandbits(16) for _ in range(40 * 48)]
    idx2 = [rng.choice([rng.randrange(40), 40 + rng.randrange(9)]) for _ in range(16)]
    put(out, "clamp_tab.bin", "H", tab2)
    put(out, "clamp_idx.bin", "I", idx2)
    img = [0] * (16 * 32)
    for r in range(16):
        i = min(idx2[r], 39)
        for c in range(32):
            img[nz(r, c, 16, 2)] = tab2[i * 48 + c]
    put(out, "clamp_l1.exp", "H", img)
    # elem, wrap: f32 table 64 x 16 (1024 elements), idx 16 x 16 i32 in a view with row stride 16, tile 16 x 16
    # valid 16 x 13, scratch 16 x 16 f32
    tab3 = [rng.getrandbits(32) for _ in range(1024)]
    idx3 = [rng.choice([rng.randrange(1024), rng.randrange(1024, 5000), 0x80000000 + rng.randrange(1000)])
            for _ in range(256)]
    put(out, "elem_tab.bin", "I", tab3)
    put(out, "elem_idx.bin", "I", idx3)
    img = [0] * 256
    for r in range(16):
        for c in range(13):
            img[nz(r, c, 16, 4)] = tab3[idx3[r * 16 + c] % 1024]
    put(out, "elem_l1.exp", "I", img)
    put(out, "elem_scratch.exp", "I", img)


if __name__ == "__main__":
    main(sys.argv[1])
