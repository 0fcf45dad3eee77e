#!/usr/bin/env python3
"""gen_tile_view.py OUTDIR CASE — inputs and expected outputs for tests/tile/view_beyond*.pto: a partition that
leaves its view's run-time shape is performed at the address the strides give (docs/semantics.md §14, "Partition
beyond a view"); tests/tile/subset.pto (the tile spec's pto.subset window) and tests/tile/subview_ew.pto (element-wise ops through
a narrow window) tests/tile/multi_tile.pto (multi_tile_buf slots) ,
tests/tile/mat_fill.pto (texpands and tfillpad on mat tiles) , tests/tile/rowdiv_int.pto (integer trowexpanddiv) and
tests/tile/local_array.pto (pto.declare_local_array). Nothing is shared with ptosim."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import genlib as gl  # noqa: E402


def case_beyond():
    """a = 0, 1, ..., 63 as f32 (a 4x16 matrix); the kernel's view is [n = 1, 16] with row stride 16 and the partition
    rows 2..3: out = a[32:64]"""
    a = [float(i) for i in range(64)]
    gl.save("a.bin", gl.pack("f", a))
    gl.save("expected.bin", gl.pack("f", a[32:64]))


def case_subset():
    """a = 8 x 32 f32 values (i * 0.25 - 20); the tile spec's pto.subset takes rows 2..5 of the loaded tile, tadds 1.5 on
    that window, and stores the window: out[r][c] = a[2 + r][c] + 1.5 (exact in f32)"""
    a = [i * 0.25 - 20 for i in range(256)]
    gl.save("a.bin", gl.pack("f", a))
    gl.save("expected.bin", gl.pack("f", [a[(2 + r) * 32 + c] + 1.5 for r in range(4) for c in range(32)]))


def case_window():
    """a as in case_subset; w = the 4 x 16 window at (2, 8) of the 8 x 32 tile (its lines 32 elements apart): tadds 1.5
    in place through w, then tmul w * w into a dense 4 x 16 tile d; the whole tile t and d are stored:
    t = a with a[2..5][8..23] + 1.5, d[r][c] = (a[2 + r][8 + c] + 1.5)^2 (exact in f32); m = the window's row maxima;
    h = the window converted to f16 at rows 4..7, columns 16..31 of a zero 8 x 32 f16 tile"""
    a = [i * 0.25 - 20 for i in range(256)]
    t = [a[i] + 1.5 if 2 <= i // 32 < 6 and 8 <= i % 32 < 24 else a[i] for i in range(256)]
    gl.save("a.bin", gl.pack("f", a))
    gl.save("t.exp", gl.pack("f", t))
    gl.save("d.exp", gl.pack("f", [t[(2 + r) * 32 + 8 + c] ** 2 for r in range(4) for c in range(16)]))
    # trowmax of the window's rows; tcvt of the window into the 4 x 16 window at (4, 16) of a zeroed 8 x 32 f16 tile
    # (every value is exact in f16)
    gl.save("m.exp", gl.pack("f", [max(t[(2 + r) * 32 + 8 + c] for c in range(16)) for r in range(4)]))
    h = [0.0] * 256
    for r in range(4):
        for c in range(16):
            h[(4 + r) * 32 + 16 + c] = t[(2 + r) * 32 + 8 + c]
    gl.save("h.exp", gl.pack("e", h))


def case_multi():
    """multi_tile.pto: x = 4 blocks of 8 x 16 f32 (i * 0.5 - 100), each loaded into slot i mod 2 of a 2-slot
    multi_tile_buf, +1.0, stored: out = x + 1; a, b (8 x 16 f32) loaded into slots 0 and 1 of another buffer and
    added: d = a + b (slots that aliased would give b + b). All exact in f32."""
    x = [i * 0.5 - 100 for i in range(512)]
    a = [i * 0.25 for i in range(128)]
    b = [1000 - i * 2.0 for i in range(128)]
    gl.save("x.bin", gl.pack("f", x))
    gl.save("a.bin", gl.pack("f", a))
    gl.save("b.bin", gl.pack("f", b))
    gl.save("out.exp", gl.pack("f", [v + 1.0 for v in x]))
    gl.save("d.exp", gl.pack("f", [p + q for p, q in zip(a, b)]))


def case_matfill():
    """mat_fill.pto (NZ f16 tiles, 16 rows x 32 columns: two 32-byte column blocks of 16 rows x 16 elements):
    texpands fills the whole tile; tfillpad zeroes, in place, the rows past the valid rows of each column block up to
    the valid columns rounded up to 16, and whole blocks past them. f32 texpands 2.5 into 16 x 16: all 2.5."""
    import struct

    def h(x):
        return struct.unpack("<H", struct.pack("<e", x))[0]

    def image(vr, vc):
        acol = (vc + 15) // 16 * 16
        img = []
        for b in range(2):           # column block b: elements (r, 16 b .. 16 b + 15) at (b * 16 + r) * 16
            for r in range(16):
                zero = b * 16 >= acol or r >= vr
                img += [0 if zero else h(7.0)] * 16
        return img
    gl.save("fill_a.exp", gl.pack("H", image(10, 20)))
    gl.save("fill_b.exp", gl.pack("H", image(10, 8)))
    gl.save("exp32.exp", gl.pack("f", [2.5] * 256))


def case_rowdiv():
    """rowdiv_int.pto: trowexpanddiv on i32 (4 x 8) and i16 (4 x 16) tiles, each row divided by element (r, 0) of
    an N x 1 column tile: the integer vdiv lane, truncating, MIN / -1 = MIN, a zero divisor -1"""
    import random
    rng = random.Random(522)

    def div(a, b, bits):
        lo = -(1 << (bits - 1))
        if b == 0:
            return -1
        if a == lo and b == -1:
            return lo
        q = abs(a) // abs(b)
        return q if (a < 0) == (b < 0) else -q
    for name, bits, code, cols in (("i32", 32, "i", 8), ("i16", 16, "h", 16)):
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        a = [rng.choice([rng.randint(lo, hi), rng.randint(-100, 100), lo]) for _ in range(4 * cols)]
        b = [7, -1, 0, -3]
        gl.save(name + ".a.bin", gl.pack(code, a))
        gl.save(name + ".b.bin", gl.pack(code, b))
        gl.save(name + ".exp", gl.pack(code, [div(a[r * cols + c], b[r], bits) for r in range(4) for c in range(cols)]))


def case_localarr():
    """local_array.pto: a[i] = i * i - 20 for i < 12, then a running sum a[i] += a[i - 1], stored as i32; a 3 x 4 f32
    array b[r][c] = r * 4 + c + 0.5, stored transposed (c, r): out2[c * 3 + r] = b[r][c]"""
    a = [i * i - 20 for i in range(12)]
    for i in range(1, 12):
        a[i] += a[i - 1]
    gl.save("sum.exp", gl.pack("i", a))
    gl.save("tr.exp", gl.pack("f", [r * 4 + c + 0.5 for c in range(4) for r in range(3)]))


out, name = sys.argv[1], sys.argv[2]
gl.OUT = out
gl.run_case(gl.cases(globals()), name)
