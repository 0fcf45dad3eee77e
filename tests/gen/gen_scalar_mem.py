#!/usr/bin/env python3
"""gen_scalar_mem.py OUTDIR MODE ... — inputs and expected bytes for the scalar memory and block-query run
tests in tests/scalar/ (Python standard library only; nothing here runs ptosim).

  queries B1 [B2 ...]  block_queries.pto: exp_bB.bin for a vector-only launch with B blocks. 16 i64
                       slots; block b writes b at [b], B at [4 + b], subblock_idx 0 at [8 + b] and
                       subblock_num 1 at [12 + b] (resolutions §2.1); other slots stay 0.
  mixed B              block_queries_mixed.pto: exp_mixed.bin, 20 i64 slots. AIV s of block b writes
                       [b, B, s, 2] at 4 * (2b + s); the AIC of block b writes [b, B] at 16 + 2b.
  mem                  scalar_mem.pto: in.bin (64 bytes), exp_out.bin (14 i64 slots) and exp_dev.bin
                       (32 bytes), by replaying the kernel's loads and stores on byte arrays
                       (little-endian; loads return exactly the bytes read, stores write sizeof(T)
                       bytes; no alignment rule for load_scalar/store_scalar).
  divzero              div_zero.pto: exp_dz.bin, 8 i64 slots: quotients by zero are all ones, i32
                       results zero-extended into the slot (divsi, divui, ceildivsi, floordivsi, ceildivui
                       of -7 at i32; divsi of index 9: -1 at 64 bits); remainders by zero are the dividend
                       (remsi, remui of -7 at i32) (docs/semantics.md "Integer division")."""
import os, sys

import genlib as gl

sx = gl.sext


def le(b):
    return int.from_bytes(bytes(b), "little")


def write_i64(path, vals):
    gl.save_ints(path, 64, vals)


def queries(out, blocks):
    for b in blocks:
        r = [0] * 16
        for k in range(b):
            r[k], r[4 + k], r[8 + k], r[12 + k] = k, b, 0, 1
        write_i64(os.path.join(out, "exp_b%d.bin" % b), r)


def mixed(out, b):
    r = [0] * 20
    for k in range(b):
        for s in (0, 1):
            r[4 * (2 * k + s):4 * (2 * k + s) + 4] = [k, b, s, 2]
        r[16 + 2 * k:18 + 2 * k] = [k, b]
    write_i64(os.path.join(out, "exp_mixed.bin"), r)


def mem(out):
    src = bytearray((0x81 + 37 * i) & 0xFF for i in range(64))
    src[8:12] = (0x7F800001).to_bytes(4, "little")         # f32 signalling NaN with a payload
    o = [0] * 14
    o[0] = sx(src[5], 8)                                   # ld_dev i8 [5], extsi
    o[1] = sx(le(src[6:8]), 16)                            # ld_dev i16 [3], extsi
    o[2] = sx(le(src[8:12]), 32)                           # ld_dev i32 [2], extsi
    o[3] = le(src[8:16])                                   # ld_dev i64 [1]
    o[4] = le(src[12:16])                                  # ld_dev i32 (base + 4)[-1], extui
    dev = bytearray(32)
    dev[7] = src[5]                                        # st_dev i8 [7]
    dev[10:12] = src[6:8]                                  # st_dev i16 [5]
    dev[12:16] = src[8:12]                                 # st_dev i32 [3]
    dev[16:24] = src[8:16]                                 # st_dev i64 [2]
    dev[31] = 0xFF                                         # st_dev i8 -1 [31]
    o[5] = le(src[3:7])                                    # load_scalar i32 at GM byte 3
    o[6] = le(src[17:25])                                  # load_scalar i64 at GM byte 9, element 1
    ub = bytearray(src[0:16]) + bytearray(16)              # UB bytes 64.. after four i32 stores
    o[7] = sx(ub[6], 8)                                    # i8 view, element 6, extsi
    o[8] = le(ub[1:5])                                     # i32 at UB byte 65
    ub[13:15] = (0x7F80).to_bytes(2, "little")             # i16 store at UB byte 77
    o[9] = le(ub[0:8])
    o[10] = le(ub[8:16])
    o[11] = le(ub[8:12])                                   # f32 element 2, bits
    ub[20:24] = ub[8:12]                                   # stored back as f32 at element 5
    o[12] = le(ub[20:24])
    o[13] = le(src[10:12])                                 # f16 element 5 of GM, bits
    gl.save("in.bin", src, out)
    write_i64(os.path.join(out, "exp_out.bin"), o)
    gl.save("exp_dev.bin", dev, out)


def divzero(out):
    """slots: divsi, divui, ceildivsi, floordivsi, ceildivui (i32, stored as their 32 bits), divsi (index),
    remsi, remui (i32)"""
    ones32 = 0xFFFFFFFF
    write_i64(os.path.join(out, "exp_dz.bin"), [ones32] * 5 + [(1 << 64) - 1] + [(-7) & ones32] * 2)


def main():
    words = gl.cli(__doc__, 2)
    out, mode = gl.OUT, words[0]
    if mode == "queries":
        queries(out, [int(x) for x in words[1:]])
    elif mode == "mixed":
        mixed(out, int(words[1]))
    elif mode == "mem":
        mem(out)
    elif mode == "divzero":
        divzero(out)
    else:
        sys.exit("gen_scalar_mem.py: unknown mode " + mode)


if __name__ == "__main__":
    main()
