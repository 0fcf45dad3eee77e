#!/usr/bin/env python3
"""gen_compiler.py OUTDIR CASE — inputs and independently computed expected outputs for tests/compiler/: the
forms and spellings the public compiler accepts (docs/semantics.md §12). Plain Python from the readings
recorded there; it shares no code with ptosim and never uses its output."""
import math, random, struct, sys
from fractions import Fraction

import fmodel as fm
import genlib as gl

gl.cli(__doc__, 2)
case = sys.argv[2]
save = gl.save


def case_pad_in_scope():
    # 8 rows of 40 input bytes (0x11) into 64-byte UB rows; the rest of each row is the pad value
    # f16 -1.5 = 0xBE00 (little-endian 00 BE), written by set_mov_pad_val inside a vector scope
    row = [0x11] * 40 + [0x00, 0xBE] * 12
    save("expected.bin", row * 8)


def case_pldi_folded():
    # 32 bytes of a known pattern; pldi at UB 4096 with NORM offset -2 (32-byte units) reads them back from
    # 4032, psti at UB 0 with offset 1100 writes them at 35200: the output is the input
    data = [(7 * i + 3) & 0xFF for i in range(32)]
    save("in.bin", data)
    save("expected.bin", data)


def case_loop_aliases():
    # mte_gm_ub len 32, nburst(2, 64, 32), loop1(2, 256, 64), loop2(2, 1024, 128): loop groups nest with the
    # first written innermost; row (i2, i1, r) copies GM bytes [1024·i2 + 256·i1 + 64·r, +32) to UB
    # 128·i2 + 64·i1 + 32·r. The 2048-byte input is bytes i % 251; the UB image (256 bytes) is copied out.
    src = [i % 251 for i in range(2048)]
    ub = [0] * 256
    for i2 in range(2):
        for i1 in range(2):
            for r in range(2):
                s0, d0 = 1024 * i2 + 256 * i1 + 64 * r, 128 * i2 + 64 * i1 + 32 * r
                ub[d0:d0 + 32] = src[s0:s0 + 32]
    save("in.bin", src)
    save("expected.bin", ub)


def case_copy256():
    # a plain 256-byte copy: the output is the input
    data = [(13 * i + 5) & 0xFF for i in range(256)]
    save("in.bin", data)
    save("expected.bin", data)


def case_vldsx2_post():
    # 256 f32 values v[i] = i + 0.5 in UB 0..1023; vldsx2 %p[128] "DINTLV_B32" with the post-update result reads
    # the 512 bytes at p itself (lo = v[0], v[2], ..., v[126]; hi = v[1], ..., v[127]) and returns p + 128
    # elements; a vlds through that pointer reads v[128..191]. Output: lo, hi, the third vector.
    v = [struct.pack("<f", i + 0.5) for i in range(256)]
    save("in.bin", b"".join(v))
    lo = [v[2 * i] for i in range(64)]
    hi = [v[2 * i + 1] for i in range(64)]
    third = v[128:192]
    save("expected.bin", b"".join(lo + hi + third))


def case_uvld():
    # 512 bytes (i*7+1) & 0xFF in UB 0..511; uvld %p[%c37] on an i8 pointer loads the 256 bytes at byte 37
    data = [(7 * i + 1) & 0xFF for i in range(512)]
    save("in.bin", data)
    save("expected.bin", data[37:37 + 256])


def case_l1_l0_named():
    # a 16 x 16 f16 tile (512 bytes, already in the NZ fractal order) copied GM -> L1 -> L0A unchanged: without
    # transpose an L1 -> L0A load of one 16 x 16 fractal keeps its bytes
    data = [(5 * i + 9) & 0xFF for i in range(512)]
    save("in.bin", data)
    save("expected.bin", data)


# ---- integer vdiv: the compiler's soft library (lib/SoftOps/div_int.py of the compiler), emulated step by step on
# one active lane. It is the definition: the expectations below come from running these steps, not from a
# formula. Inactive lanes are 0 (every masked step zeroes them).

def f32_round(fr):
    """A Fraction rounded to the nearest f32 value (ties to even), as a Python float."""
    return fm.F32.to_float(fm.F32.encode(fm.fin(fr)))


f32_bits = fm.host_f32_bits
f32_of = fm.F32.to_float
wrap = gl.sext


def soft_div_i32(x, y):
    if y == 0:
        return -1                                               # vsel(vbr(-1), ..., zero_mask)
    ax, ay = abs(x) & 0xFFFFFFFF, abs(y) & 0xFFFFFFFF           # vabs wraps, bitcast to ui32
    positive = wrap(x ^ y, 32) >= 0
    yf = f32_round(Fraction(wrap(ay, 32)))                      # vcvt i32 -> f32, rounding R
    recip = f32_round(1 / Fraction(yf))                         # vdiv f32 1 / y
    rb = (f32_bits(recip) + 0x0FFFFFFE) & 0xFFFFFFFF            # vadds on the bits
    rv = f32_of(rb)
    rec = 0 if rv < 0 else math.floor(rv) & 0xFFFFFFFF          # vcvt f32 -> i64 rounding F, low word; vsel
    corr = (-wrap(rec * ay, 32)) & 0xFFFFFFFF                   # vmul, vneg
    rec = (rec + ((rec * corr) >> 32)) & 0xFFFFFFFF             # vmull high, vadd
    q = (ax * rec) >> 32                                        # vmull high
    for _ in range(4):
        p = q * ay
        if p >> 32 or (p & 0xFFFFFFFF) > ax:
            q = (q - 1) & 0xFFFFFFFF
    rem = (ax - q * ay) & 0xFFFFFFFF
    for _ in range(2):
        if rem >= ay:
            rem, q = (rem - ay) & 0xFFFFFFFF, (q + 1) & 0xFFFFFFFF
    return wrap(q, 32) if positive else wrap(-wrap(q, 32), 32)


def soft_div_i16(x, y):
    if y == 0:
        return -1
    ax, ay = abs(x) & 0xFFFF, abs(y) & 0xFFFF
    positive = wrap(x ^ y, 16) >= 0
    yf = float(ay)                                              # vcvt u32 -> f32 (exact below 2^24)
    recip = f32_round(1 / Fraction(yf))
    v = math.floor(f32_round(Fraction(recip) * 65536)) & 0xFFFFFFFF   # vmul by 65536, vcvt rounding F
    q = (((v * ax) & 0xFFFFFFFF) >> 16) & 0xFFFF                # vmul, vdintlv keeps the high half
    rem = (ax - q * ay) & 0xFFFF
    for _ in range(2):
        if rem >= ay:
            rem, q = (rem - ay) & 0xFFFF, (q + 1) & 0xFFFF
    return wrap(q, 16) if positive else wrap(-wrap(q, 16), 16)


def case_vdiv_int():
    # i32: 4 vectors of 64 lanes, i16: 2 vectors of 128 lanes; the mask keeps lanes 0..49 of each vector
    rng = random.Random(1181)
    for w, soft, lanes, nv in ((32, soft_div_i32, 64, 4), (16, soft_div_i16, 128, 2)):
        lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
        edges = [(lo, -1), (lo, 1), (lo, lo), (hi, lo), (hi, -1), (7, 0), (lo, 0), (0, 5), (-7, 2), (7, -2), (-7, -2),
                 (hi, 3), (lo, 3), (1, hi), (-1, lo), (100, 7)]
        xs, ys = [], []
        for i in range(lanes * nv):
            if i < len(edges):
                x, y = edges[i]
            else:
                x = rng.randrange(lo, hi + 1)
                y = rng.choice([rng.randrange(lo, hi + 1), rng.randrange(-300, 301), rng.randrange(-70000, 70001)])
                y = max(lo, min(hi, y))
            xs.append(x)
            ys.append(y)
        fmt = "<%d%s" % (lanes * nv, "i" if w == 32 else "h")
        save("x%d.bin" % w, struct.pack(fmt, *xs))
        save("y%d.bin" % w, struct.pack(fmt, *ys))
        out = [soft(x, y) if i % lanes < 50 else 0 for i, (x, y) in enumerate(zip(xs, ys))]
        save("q%d.exp" % w, struct.pack(fmt, *out))


def case_implicit_vecscope():
    # 128 f32 inputs i/4 - 8 (exact); out = (x + 1.5) * 2 for the first 64, x + 1.5 for the rest (all exact)
    xs = [i / 4 - 8 for i in range(128)]
    ys = [(x + 1.5) * 2 if i < 64 else x + 1.5 for i, x in enumerate(xs)]
    save("x.bin", struct.pack("<128f", *xs))
    save("expected.bin", struct.pack("<128f", *ys))


def case_trap_and_cast():
    # ui32 bits of i32 -7, then the f32 whose bits are 0x3FC00000 (1.5)
    save("expected.bin", struct.pack("<I", (-7) & 0xFFFFFFFF) + struct.pack("<f", 1.5))


gl.run_case(gl.cases(globals()), case)
