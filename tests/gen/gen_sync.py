#!/usr/bin/env python3
"""gen_sync.py OUTDIR CASE — inputs and independently computed expected outputs for tests/sync/.

The synchronisation tests move i32 tiles of 64 elements (256 bytes) through UB and add per-tile
constants with pto.vadds; a correctly synchronised kernel computes exactly the plain-Python results
below whatever the pipe schedule. Two's-complement i32 wrap-around, little-endian. Shares no code
with ptosim.

Cases:
  tile_add N K [W] in.bin: N tiles of W elements (default 64); expected.bin: tile t gets + K*(t+1)
  const_add N K    in.bin: N tiles; expected.bin: every element + K; expected0.bin: its first element
  two_stores       a.bin, b.bin (1 tile each); expected.bin = b (the second store wins)
  buf_order        in1.bin, in2.bin (1 tile each); expected1.bin = in1 + 5, expected2.bin = in2
  cluster          in.bin: 2 x 2 tiles (AIV s owns tiles 2s, 2s+1);
                   expected_out.bin: [AIV0 part: all four tiles, tile t + 10*(t//2+1)][AIV1 part: zeros]
                   expected_scratch.bin: in + 100 (the AIVs' second write of their half)
  syncall_ring B R P  B blocks each write b + 1 to slot b, pass a pto.syncall, read slot (b + 1) % B
                   into out[b]; expected.bin: out; expected_ws.bin: the soft barrier's 16-word workspace
                   after R barriers of P participants each (word 0 counts every arrival: R * P)
  xblock_ring B     B blocks each write b + 1 to word 0 of their 32-byte slot b, then copy slot (b + 1) % B to
                   out[b] after the cross-block flag; expected.bin: out (8 words per block)
  syncall_mix B    a cluster per block: the AIC writes b + 10 to slot b, then both AIVs of block b read
                   slot (b + 1) % B (mixed pto.syncall in between) into out[2b + s]; expected.bin: out
"""
import sys

import genlib as gl

TILE = 64          # i32 elements per tile (one 256-byte vector register)


def ints(n, seed):
    """deterministic pseudo-random i32 values, including large magnitudes so that adds wrap"""
    x = (seed * 2654435761) & 0xffffffff
    out = []
    for _ in range(n):
        x = (x * 1103515245 + 12345) & 0xffffffff
        v = (x ^ (x >> 13)) & 0xffffffff
        out.append(v - (1 << 32) if v & 0x80000000 else v)
    return out


def wrap(v):
    return gl.sext(v, 32)


def save(out, name, vals):
    gl.save_vals(name, "i", vals, out)


def main():
    words = gl.cli(__doc__, 2)
    out, case, args = gl.OUT, words[0], [int(a) for a in words[1:]]
    if case == "tile_add":
        n, k = args[:2]
        w = args[2] if len(args) > 2 else TILE
        a = ints(n * w, 1)
        save(out, "in.bin", a)
        save(out, "expected.bin", [wrap(v + k * (i // w + 1)) for i, v in enumerate(a)])
    elif case == "const_add":
        n, k = args
        a = ints(n * TILE, 2)
        save(out, "in.bin", a)
        e = [wrap(v + k) for v in a]
        save(out, "expected.bin", e)
        save(out, "expected0.bin", e[:1])
    elif case == "two_stores":
        a, b = ints(TILE, 3), ints(TILE, 4)
        save(out, "a.bin", a)
        save(out, "b.bin", b)
        save(out, "expected.bin", b)
    elif case == "buf_order":
        a, b = ints(TILE, 5), ints(TILE, 6)
        save(out, "in1.bin", a)
        save(out, "in2.bin", b)
        save(out, "expected1.bin", [wrap(v + 5) for v in a])
        save(out, "expected2.bin", b)
    elif case == "cluster":
        a = ints(4 * TILE, 7)
        save(out, "in.bin", a)
        # AIV s adds 10*(s+1) to its two tiles and writes them to scratch[s]; the cube gathers the whole
        # scratch and hands it to AIV0's UB; AIV0 stores it to out[0:4 tiles], AIV1 stores its (never
        # written, zero) UB region to out[4:8 tiles]. Then each AIV rewrites its scratch half as in + 100.
        first = [wrap(v + 10 * (i // (2 * TILE) + 1)) for i, v in enumerate(a)]
        save(out, "expected_out.bin", first + [0] * (4 * TILE))
        save(out, "expected_scratch.bin", [wrap(v + 100) for v in a])
    elif case == "syncall_ring":
        b, rounds, parts = args
        save(out, "expected.bin", [(i + 1) % b + 1 for i in range(b)])
        save(out, "expected_ws.bin", [rounds * parts] + [0] * 15)
    elif case == "xblock_ring":
        b = args[0]
        save(out, "expected.bin", sum(([(i + 1) % b + 1] + [0] * 7 for i in range(b)), []))
    elif case == "syncall_mix":
        b = args[0]
        save(out, "expected.bin", [(i // 2 + 1) % b + 10 for i in range(2 * b)])
    else:
        sys.exit("unknown case " + case)


if __name__ == "__main__":
    main()
