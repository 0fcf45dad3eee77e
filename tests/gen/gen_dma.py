#!/usr/bin/env python3
"""gen_dma.py OUTDIR CASE — inputs and independently computed expected outputs for the DMA tests.

The reference model is written from the seed documents (seed 004 C reference, seed 000 gap formula)
and resolutions Q10/Q11/Q14, with plain Python loops over byte arrays; it shares no code with ptosim.
"""
import struct, sys

import genlib as gl

gl.cli(__doc__, 2)
case = sys.argv[2]


pattern = gl.lcg_bytes       # deterministic pseudo-random bytes
save = gl.save


def burst_copy(dst, dbase, src, sbase, n, length, ss, ds, loops=(), pad=None):
    """seed 004 nested loop; loops[0] is innermost (resolutions Q10); pad = (pattern_bytes, left, right) or
    (pattern_bytes,) meaning fill [len, ds)"""
    def rec(level, soff, doff):
        if level < 0:
            for r in range(n):
                s = sbase + soff + r * ss
                d = dbase + doff + r * ds
                if pad is not None and len(pad) == 3:
                    pat, left, right = pad
                    for i in range(left):
                        dst[d + i] = pat[i % len(pat)]
                    d += left
                dst[d:d + length] = src[s:s + length]
                if pad is not None and len(pad) == 3:
                    for i in range(right):
                        dst[d + length + i] = pat[i % len(pat)]
                elif pad is not None and ds > length:
                    pat = pad[0]
                    for i in range(ds - length):
                        dst[d + length + i] = pat[i % len(pat)]
            return
        cnt, lss, lds = loops[level]
        for i in range(cnt):
            rec(level - 1, soff + i * lss, doff + i * lds)
    rec(len(loops) - 1, 0, 0)


UB = 256 * 1024

if case == "seed004_ex1_ex4":
    # 32x32 f32 in, legacy copies in and out, identical bytes out
    src = pattern(4096, 11)
    save("in.bin", src)
    save("expected.bin", src)

elif case == "seed004_ex2_ex5":
    # a 64x128 f16 tile at row 100 of a 1024x512 f16 matrix, loaded and stored back into a zero matrix
    rows, cols, R = 1024, 512, 100
    src = pattern(rows * cols * 2, 12)
    exp = bytearray(rows * cols * 2)
    for r in range(64):
        o = (R + r) * cols * 2
        exp[o:o + 256] = src[o:o + 256]
    save("in.bin", src)
    save("expected.bin", exp)

elif case == "seed004_ex3":
    # 64 rows of 100 f16 into 128-wide UB rows padded with zeros, stored back with the full 256-byte rows
    src = pattern(64 * 200, 13)
    ub = bytearray(UB)
    burst_copy(ub, 0, src, 0, 64, 200, 200, 256, pad=(b"\0\0",))
    save("in.bin", src)
    save("expected.bin", ub[:64 * 256])

elif case == "seed004_ex6":
    # [4, 8, 128] f16 batches, loop1 count 4, loop1 strides 2048/2048; stored back with one legacy store
    src = pattern(4 * 8 * 256, 14)
    ub = bytearray(UB)
    burst_copy(ub, 0, src, 0, 8, 256, 256, 256, loops=((4, 2048, 2048),))
    save("in.bin", src)
    save("expected.bin", ub[:4 * 8 * 256])

elif case.startswith("loops"):
    # grouped mte_gm_ub with 0..3 loop groups gathering a strided sub-block out of a 3-D array,
    # then one contiguous store of the UB image
    k = int(case[-1])
    src = pattern(65536, 20 + k)
    ub = bytearray(UB)
    loops = [(3, 4096, 512), (2, 16384, 2048), (2, 32768 + 64, 8192)][:k]
    burst_copy(ub, 0, src, 0, 4, 96, 1024, 128, loops=tuple(loops))
    save("in.bin", src)
    save("expected.bin", ub[:16384])

elif case.startswith("pad"):
    # pad value widths: pad1 (i8 0x5A), pad2 (f16 -1.5), pad4 (f32 1.0), padlr (f16 pad(v, 2, 6))
    src = pattern(4096, 30)
    ub = bytearray(UB)
    if case == "pad1":
        burst_copy(ub, 0, src, 0, 8, 40, 40, 64, pad=(b"\x5a",))
    elif case == "pad2":
        burst_copy(ub, 0, src, 0, 8, 40, 40, 64, pad=(struct.pack("<e", -1.5),))
    elif case == "pad4":
        burst_copy(ub, 0, src, 0, 8, 40, 40, 64, pad=(struct.pack("<f", 1.0),))
    elif case == "padlr":
        burst_copy(ub, 0, src, 0, 8, 40, 40, 64, pad=(struct.pack("<e", 2.0), 2 * 2, 6 * 2))
    save("in.bin", src)
    save("expected.bin", ub[:512])

elif case == "store_strided":
    # UB rows of 256 bytes stored as 192-byte rows at a 320-byte GM pitch (de-padding), loop of 2
    src = pattern(2 * 4 * 256, 40)
    gm = bytearray(b"\xee" * 4096)
    burst_copy(gm, 64, src, 0, 4, 192, 256, 320, loops=((2, 1024, 1600),))
    save("in.bin", src)
    save("expected.bin", gm)

elif case == "seed000_ub_ub":
    # mte_ub_ub: len 2 blocks, 3 bursts, src gap 1, dst gap 2 (32-byte units)
    src = pattern(1024, 50)
    ub = bytearray(UB)
    ub[0:1024] = src
    for r in range(3):
        s = r * (2 + 1) * 32
        d = 4096 + r * (2 + 2) * 32
        ub[d:d + 64] = ub[s:s + 64]
    save("in.bin", src)
    save("expected.bin", ub[4096:4096 + 512])

elif case == "seed001_registers":
    # legacy loop registers persist across copies and are reset to (1,1)/(0,0) only by a new write:
    # copy A uses loop1 (2 iterations, GM stride 512, UB stride 256); copy B (no reprogramming) reuses it;
    # then set_loop_size back to (1,1) and copy C moves a single burst.
    src = pattern(4096, 60)
    ub = bytearray(UB)
    burst_copy(ub, 0, src, 0, 2, 64, 128, 64, loops=((2, 512, 256),))          # A -> ub[0..)
    burst_copy(ub, 1024, src, 2048, 2, 64, 128, 64, loops=((2, 512, 256),))   # B -> ub[1024..)
    burst_copy(ub, 2048, src, 1024, 2, 64, 128, 64)                            # C -> ub[2048..)
    save("in.bin", src)
    save("expected.bin", ub[:3072])

elif case == "copy_bytes":
    src = pattern(int(sys.argv[3]), 70)
    save("in.bin", src)
    save("expected.bin", src)

elif case == "legacy_ub_ub":
    # copy_ubuf_to_ubuf (legacy, PIPE_V): (src, dst, sid, n, len, src_gap, dst_gap), len and gaps in
    # 32-byte blocks, burst r: dst + r*(len+dg)*32 <- src + r*(len+sg)*32, len*32 bytes (resolutions Q14)
    src = pattern(2048, 80)
    ub = bytearray(UB)
    ub[0:2048] = src

    def ub_ub(s, d, n, ln, sg, dg):
        for r in range(n):
            so, do = s + r * (ln + sg) * 32, d + r * (ln + dg) * 32
            ub[do:do + ln * 32] = ub[so:so + ln * 32]
    ub_ub(0, 4096, 3, 2, 1, 3)
    ub_ub(1024, 4608, 4, 1, 2, 0)
    ub_ub(1536, 4864, 2, 3, 0, 2)
    ub_ub(0, UB - 32, 0, 4, 0, 0)          # zero bursts: nothing moves
    assert len(ub) == UB
    save("in.bin", src)
    save("expected.bin", ub[4096:5120])

elif case == "legacy_l1":
    # legacy L1 copies in a mixed kernel (tests/dma/legacy_l1_copies.pto). copy_gm_to_cbuf: bytes,
    # start-to-start strides, no loop registers; data_select pads [len, dst_stride) with the pad value.
    # copy_cbuf_to_ubuf / copy_ubuf_to_cbuf: len and gaps in 32-byte blocks (resolutions Q14); L1 is the
    # AIC's, the L1 -> UB subblock operand picks AIV0 / AIV1 (Q15).
    src = pattern(2048, 81)
    l1 = bytearray(8192)
    ubs = [bytearray(4096), bytearray(4096)]
    gm = bytearray(b"\xee" * 4096)

    def blocks(sbuf, s, dbuf, d, n, ln, sg, dg):
        for r in range(n):
            so, do = s + r * (ln + sg) * 32, d + r * (ln + dg) * 32
            dbuf[do:do + ln * 32] = sbuf[so:so + ln * 32]
    for r in range(8):                                   # A: 8 x 64 B, GM pitch 96, L1 pitch 64
        l1[r * 64:r * 64 + 64] = src[r * 96:r * 96 + 64]
    for r in range(2):                                   # B: 2 x 40 B + 24 pad bytes 0x5A
        d = 512 + r * 64
        l1[d:d + 40] = src[1024 + r * 40:1024 + r * 40 + 40]
        l1[d + 40:d + 64] = b"\x5a" * 24
    blocks(l1, 0, ubs[0], 0, 4, 3, 1, 0)
    blocks(l1, 512, ubs[0], 512, 1, 4, 0, 0)
    blocks(l1, 0, ubs[1], 0, 2, 4, 2, 1)
    for sub in range(2):
        gm[sub * 2048:sub * 2048 + 640] = ubs[sub][0:640]
    blocks(ubs[0], 0, l1, 4096, 4, 1, 2, 1)
    blocks(ubs[1], 0, l1, 4096 + 32, 4, 1, 0, 1)
    blocks(l1, 4096, ubs[0], 2048, 1, 16, 0, 0)
    blocks(l1, 4096, ubs[1], 2048, 2, 8, 0, 0)
    for sub in range(2):
        gm[sub * 2048 + 1024:sub * 2048 + 1536] = ubs[sub][2048:2560]
    save("in.bin", src)
    save("expected.bin", gm)

elif case == "legacy_l1_aiv":
    # one L1 per cluster (the AIC's), reached by the legacy L1 copies of every core: both AIVs read GM
    # [0, 64) back through it, and the AIC returns the two 32-byte blocks the AIVs loaded into it
    src = pattern(128, 82)
    gm = bytearray(256)
    for sub in range(2):
        gm[sub * 128:sub * 128 + 64] = src[0:64]
        gm[sub * 128 + 64:sub * 128 + 128] = src[64:128]
    save("in.bin", src)
    save("expected.bin", gm)

else:
    sys.exit("unknown case " + case)
