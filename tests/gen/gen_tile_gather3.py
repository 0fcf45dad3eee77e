#!/usr/bin/env python3
"""gen_tile_gather3.py OUTDIR CASE — inputs and expected outputs of tests/tile/tgather_mask_run.pto (case gmask),
tscatter_mask.pto (smask), tscatter_idx.pto (scatter), tgatherb.pto (gatherb), thistogram.pto (hist),
tgather_mask_noaxis.pto (gmask_noaxis) and the trap tests bad_tscatter_idx.pto (badscatter), bad_tgatherb.pto (badgatherb), bad_tgather_mask.pto (badgmask).

The semantics are those of the A5 TileLib templates (PTOAS lib/TileOps/a5/tgather.py, tscatter.py, tgatherb.py,
thistogram.py) as docs/semantics.md §14.6 states them, written here independently of ptosim:
  tgather mask "row":  dst[r, c] = src[r, c*T + S];  "col": dst[r, c] = src[r*T + S, c]  (dst's valid region)
  tscatter mask "row": dst[r, p] = src[r, p // T] if p % T == S else 0, p < valid cols * T (src's valid rows);
                 "col": dst zeroed whole unless P1111, then dst[r*T + S, c] = src[r, c]
  tscatter indices:    dst zeroed whole; per dst valid row, per register of 256 / sizeof(index) lanes: dst element
                       idx[r, c] = src[r, c], the lowest lane winning inside one register, later registers after
  tgatherb:            per dst valid row, rem = valid cols; per 8 offsets k (8k < offsets' valid cols): blocks
                       b < min(rem, 8) = 32 bytes at src + offset[r, 8k + b], others 0; the first min(rem, 256/E)
                       elements stored at dst[r, k * 256/E]; rem -= 64
  thistogram:          per valid src row r: dst storage [r*256, r*256 + 256) = cumulative counts of byte k over the
                       valid columns, filtered by the upper bytes (u16 byte 0: the high byte == idx element r of its
                       storage; u32 byte k < 3: bytes 3, 2, 1 (down to k+1) == idx storage elements 0, C, 2C)
Every tile is stored whole or its valid window into an output that starts as 0x7f bytes. Nothing is shared with
ptosim."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import genlib as gl  # noqa: E402

SIZE = {"f32": 4, "i32": 4, "ui32": 4, "f16": 2, "bf16": 2, "i16": 2, "ui16": 2, "i8": 1, "ui8": 1}
PAT = {"P1111": (0, 1), "P0101": (0, 2), "P1010": (1, 2), "P0001": (0, 4), "P0010": (1, 4), "P0100": (2, 4),
       "P1000": (3, 4)}

# A tile: (name, dtype, rows, cols, extra type text, loaded from an input, valid (rows, cols) or None).
# Op rows: ("gmask", src, dst, pattern, axis), ("smask", src, dst, pattern, axis), ("scatter", src, idx, dst),
#          ("gatherb", src, offsets, dst), ("hist", src, idx, dst, byte or None, legacy isMSB or None).
CASES = {
    "gmask": (
        [("a", "f32", 8, 16, "", 1, None), ("ad", "f32", 8, 16, "", 1, None),
         ("b", "f16", 4, 64, "", 1, None), ("bd", "f16", 4, 32, "", 1, None),
         ("c", "i8", 4, 64, "", 1, None), ("cd", "i8", 4, 32, "", 1, None),
         ("d", "ui32", 4, 32, "", 1, None), ("dd", "ui32", 4, 8, "", 1, None),
         ("e", "bf16", 2, 64, "", 1, None), ("ed", "bf16", 2, 16, "", 1, None),
         ("f", "i16", 8, 16, "", 1, None), ("fd", "i16", 2, 16, "", 1, None),
         ("g", "f32", 8, 8, "", 1, None), ("gd", "f32", 2, 8, "", 1, None),
         ("h", "ui8", 4, 32, "", 1, None), ("hd", "ui8", 2, 32, "", 1, None),
         ("k", "i32", 4, 8, "", 1, None), ("kd", "i32", 4, 8, "", 1, None),
         ("m", "ui16", 8, 32, "", 1, (3, 32)), ("md", "ui16", 8, 16, "", 1, (3, 16))],
        [("gmask", "a", "ad", "P1111", "row"), ("gmask", "b", "bd", "P0101", "row"),
         ("gmask", "c", "cd", "P1010", "row"), ("gmask", "d", "dd", "P0010", "row"),
         ("gmask", "e", "ed", "P1000", "row"), ("gmask", "f", "fd", "P0001", "col"),
         ("gmask", "g", "gd", "P0100", "col"), ("gmask", "h", "hd", "P1010", "col"),
         ("gmask", "k", "kd", "P1111", "col"), ("gmask", "m", "md", "P0101", "row")]),
    "gmask_noaxis": (
        [("a", "f32", 4, 16, "", 1, None), ("ad", "f32", 4, 8, "", 1, None),
         ("b", "f16", 1, 32, "", 1, None), ("bd", "f16", 1, 32, "", 1, None)],
        [("gmask", "a", "ad", "P0101", None), ("gmask", "b", "bd", "P1111", None)]),
    "smask": (
        [("a", "f16", 2, 32, "", 1, None), ("ad", "f16", 2, 64, "", 1, None),
         ("b", "f32", 2, 16, "", 1, None), ("bd", "f32", 2, 64, "", 1, None),
         ("c", "i8", 2, 32, "", 1, None), ("cd", "i8", 2, 32, "", 1, None),
         ("d", "i32", 2, 8, "", 1, None), ("dd", "i32", 8, 8, "", 1, None),
         ("e", "ui16", 2, 16, "", 1, None), ("ed", "ui16", 2, 16, "", 1, None),
         ("f", "ui8", 2, 32, "", 1, None), ("fd", "ui8", 4, 32, "", 1, None),
         ("g", "bf16", 2, 16, "", 1, None), ("gd", "bf16", 2, 64, "", 1, None),
         ("h", "ui32", 3, 8, "", 1, None), ("hd", "ui32", 12, 8, "", 1, None)],
        [("smask", "a", "ad", "P0101", "row"), ("smask", "b", "bd", "P0100", "row"),
         ("smask", "c", "cd", "P1111", "row"), ("smask", "d", "dd", "P0010", "col"),
         ("smask", "e", "ed", "P1111", "col"), ("smask", "f", "fd", "P1010", "col"),
         ("smask", "g", "gd", "P1000", "row"), ("smask", "h", "hd", "P0001", "col")]),
    "scatter": (
        [("a", "f32", 8, 16, "", 1, None), ("ai", "i32", 8, 16, "", 1, None), ("ad", "f32", 8, 16, "", 1, None),
         ("b", "f16", 4, 32, "", 1, None), ("bi", "ui16", 4, 32, "", 1, None), ("bd", "f16", 4, 32, "", 1, None),
         ("c", "i8", 2, 160, "", 1, None), ("ci", "i16", 2, 160, "", 1, None), ("cd", "i8", 2, 160, "", 1, None),
         ("d", "ui32", 8, 16, "", 1, None), ("di", "ui32", 8, 16, "", 1, None),
         ("dd", "ui32", 8, 16, "", 1, (3, 16)),
         ("e", "bf16", 2, 16, "", 1, None), ("ei", "i16", 2, 16, "", 1, None), ("ed", "bf16", 2, 16, "", 1, None),
         ("f", "ui8", 1, 32, "", 1, None), ("fi", "ui16", 1, 32, "", 1, None), ("fd", "ui8", 1, 32, "", 1, None),
         ("g", "i32", 1, 80, "", 1, None), ("gi", "i32", 1, 80, "", 1, None), ("gd", "i32", 1, 80, "", 1, None),
         ("h", "ui16", 2, 16, "", 1, None), ("hi", "i16", 2, 16, "", 1, None), ("hd", "ui16", 2, 16, "", 1, None),
         ("k", "i16", 2, 16, "", 1, None), ("ki", "ui16", 2, 16, "", 1, None), ("kd", "i16", 2, 16, "", 1, None)],
        [("scatter", "a", "ai", "ad"), ("scatter", "b", "bi", "bd"), ("scatter", "c", "ci", "cd"),
         ("scatter", "d", "di", "dd"), ("scatter", "e", "ei", "ed"), ("scatter", "f", "fi", "fd"),
         ("scatter", "g", "gi", "gd"), ("scatter", "h", "hi", "hd"), ("scatter", "k", "ki", "kd")]),
    "gatherb": (
        [("a", "f32", 8, 64, "", 1, None), ("ao", "ui32", 4, 8, "", 1, None), ("ad", "f32", 4, 64, "", 1, None),
         ("b", "f16", 4, 128, "", 1, None), ("bo", "ui32", 2, 16, "", 1, None), ("bd", "f16", 2, 256, "", 1, None),
         ("c", "i8", 4, 64, "", 1, None), ("co", "ui32", 2, 8, "", 1, None), ("cd", "i8", 2, 256, "", 1, None),
         ("d", "i32", 4, 64, "", 1, None), ("do", "ui32", 2, 8, "", 1, None),
         ("dd", "i32", 2, 64, "", 1, (2, 5)),
         ("e", "bf16", 2, 128, "", 1, None), ("eo", "ui32", 1, 8, "", 1, None), ("ed", "bf16", 1, 128, "", 1, None),
         ("f", "ui16", 2, 128, "", 1, None), ("fo", "ui32", 1, 8, "", 1, None), ("fd", "ui16", 1, 128, "", 1, None),
         ("g", "ui8", 2, 128, "", 1, None), ("go", "ui32", 1, 8, "", 1, None), ("gd", "ui8", 1, 256, "", 1, None),
         ("h", "i16", 2, 128, "", 1, None), ("ho", "ui32", 1, 8, "", 1, None), ("hd", "i16", 1, 128, "", 1, None),
         ("k", "ui32", 4, 64, "", 1, None), ("ko", "ui32", 2, 8, "", 1, None), ("kd", "ui32", 2, 64, "", 1, None),
         ("m", "f32", 8, 64, "", 1, None), ("mo", "ui32", 2, 16, "", 1, None),
         ("md", "f32", 2, 128, "", 1, (2, 100))],
        [("gatherb", "a", "ao", "ad"), ("gatherb", "b", "bo", "bd"), ("gatherb", "c", "co", "cd"),
         ("gatherb", "d", "do", "dd"), ("gatherb", "e", "eo", "ed"), ("gatherb", "f", "fo", "fd"),
         ("gatherb", "g", "go", "gd"), ("gatherb", "h", "ho", "hd"), ("gatherb", "k", "ko", "kd"),
         ("gatherb", "m", "mo", "md")]),
    "hist": (
        [("a", "ui16", 4, 128, "", 1, None), ("ai", "ui8", 32, 1, ", blayout=col_major", 1, None),
         ("a1", "ui32", 4, 256, "", 1, None), ("a0", "ui32", 4, 256, "", 1, None),
         ("am", "ui32", 4, 256, "", 1, None),
         ("b", "ui32", 4, 64, "", 1, (3, 50)), ("bi", "ui8", 3, 32, "", 1, None),
         ("b3", "ui32", 3, 256, "", 1, None), ("b2", "ui32", 3, 256, "", 1, None),
         ("b1", "ui32", 3, 256, "", 1, None), ("b0", "ui32", 3, 256, "", 1, None),
         ("c", "ui32", 2, 512, "", 1, None), ("cb", "ui32", 2, 256, "", 1, None)],
        [("hist", "a", "ai", "a1", 1, None), ("hist", "a", "ai", "a0", 0, None), ("hist", "a", "ai", "am", None, 0),
         ("hist", "b", "bi", "b3", 3, None), ("hist", "b", "bi", "b2", 2, None), ("hist", "b", "bi", "b1", 1, None),
         ("hist", "b", "bi", "b0", 0, None), ("hist", "c", "bi", "cb", None, None)]),
}
STORED = {
    "gmask": ["ad", "bd", "cd", "dd", "ed", "fd", "gd", "hd", "kd", "md"],
    "gmask_noaxis": ["ad", "bd"],
    "smask": ["ad", "bd", "cd", "dd", "ed", "fd", "gd", "hd"],
    "scatter": ["ad", "bd", "cd", "dd", "ed", "fd", "gd", "hd", "kd"],
    "gatherb": ["ad", "bd", "cd", "dd", "ed", "fd", "gd", "hd", "kd", "md"],
    "hist": ["a1", "a0", "am", "b3", "b2", "b1", "b0", "cb"],
}


def valid(t):
    return t[6] if t[6] else (t[2], t[3])


def inputs(case, tiles, rng):
    """The initial storage of every tile (a list of integers, row-major): random bits, except indices."""
    data = {}
    for t in tiles:
        n, e = t[2] * t[3], SIZE[t[1]]
        data[t[0]] = [rng.next() & ((1 << (8 * e)) - 1) if e < 4 else (rng.next() << 9 ^ rng.next()) & 0xFFFFFFFF
                      for _ in range(n)]
    return data


def idx_fill(case, tiles, data, ops, rng):
    """Index, offset and histogram data chosen for what each op needs."""
    T = {t[0]: t for t in tiles}
    for op in ops:
        if op[0] == "scatter":
            d, it = T[op[3]], T[op[2]]
            tot = d[2] * d[3]
            idx = [rng.below(tot) for _ in range(it[2] * it[3])]
            vr, vc = valid(d)
            lanes = 256 // SIZE[it[1]]
            if op[3] == "bd":   # duplicates: inside one register (lanes 3 and 9 of row 0) and across rows
                idx[3] = idx[9] = 17
            if op[3] == "cd":   # 160 columns of i8: two registers per row; a duplicate across them in row 0
                idx[5] = idx[140] = 33
            data[op[2]] = idx
            assert vc <= it[3]
            del lanes
        elif op[0] == "gatherb":
            s, ot = T[op[1]], T[op[2]]
            blocks = s[2] * s[3] * SIZE[s[1]] // 32
            offs = [32 * rng.below(blocks) for _ in range(ot[2] * ot[3])]
            if op[3] == "dd":   # valid cols 5: blocks 5..7 are off; their offsets point far outside the tile
                for r in range(ot[2]):
                    for b in range(5, 8):
                        offs[r * ot[3] + b] = 0x7FFFFF00
            data[op[2]] = offs
        elif op[0] == "hist":
            s, it = T[op[1]], T[op[2]]
            e = SIZE[s[1]]
            if op[1] not in getattr(idx_fill, "done", set()):
                idx_fill.done = getattr(idx_fill, "done", set()) | {op[1]}
                vals = []
                for _ in range(s[2] * s[3]):   # upper bytes from a small set so the filters often pass
                    if e == 2:
                        vals.append((rng.below(3) + 0x41) << 8 | rng.below(256))
                    else:
                        vals.append((rng.below(2) + 0x80) << 24 | (rng.below(2) + 7) << 16 | (rng.below(3) + 0x10) << 8
                                    | rng.below(256))
                data[op[1]] = vals
            if e == 2:
                data[op[2]] = [0x41 + (r % 3) for r in range(it[2] * it[3])]
            else:
                ic = it[3]
                v = [rng.below(256) for _ in range(it[2] * ic)]
                v[0], v[ic], v[2 * ic] = 0x81, 0x07, 0x11
                data[op[2]] = v


def run_ops(tiles, ops, data):
    T = {t[0]: t for t in tiles}
    st = {k: list(v) for k, v in data.items()}
    for op in ops:
        kind = op[0]
        if kind == "gmask":
            s, d = T[op[1]], T[op[2]]
            S, Tt = PAT[op[3]]
            vr, vc = valid(d)
            for r in range(vr):
                for c in range(vc):
                    if op[4] in ("row", None):   # no axis: "row", pto-isa's default
                        st[op[2]][r * d[3] + c] = st[op[1]][r * s[3] + c * Tt + S]
                    else:
                        st[op[2]][r * d[3] + c] = st[op[1]][(r * Tt + S) * s[3] + c]
        elif kind == "smask":
            s, d = T[op[1]], T[op[2]]
            S, Tt = PAT[op[3]]
            vr, vc = valid(s)
            if op[4] == "col":
                if op[3] != "P1111":
                    st[op[2]] = [0] * (d[2] * d[3])
                for r in range(vr):
                    for c in range(vc):
                        st[op[2]][(r * Tt + S) * d[3] + c] = st[op[1]][r * s[3] + c]
            else:
                for r in range(vr):
                    for p in range(vc * Tt):
                        st[op[2]][r * d[3] + p] = st[op[1]][r * s[3] + p // Tt] if p % Tt == S else 0
        elif kind == "scatter":
            s, it, d = T[op[1]], T[op[2]], T[op[3]]
            vr, vc = valid(d)
            lanes = 256 // SIZE[it[1]]
            out = [0] * (d[2] * d[3])
            for r in range(vr):
                for c0 in range(0, vc, lanes):
                    for c in reversed(range(c0, min(vc, c0 + lanes))):   # the lowest lane's store stays
                        out[st[op[2]][r * it[3] + c]] = st[op[1]][r * s[3] + c]
            st[op[3]] = out
        elif kind == "gatherb":
            s, ot, d = T[op[1]], T[op[2]], T[op[3]]
            e = SIZE[d[1]]
            lanes = 256 // e
            sbytes = b"".join(v.to_bytes(SIZE[s[1]], "little") for v in st[op[1]])
            vr, vc = valid(d)
            _, ovc = valid(ot)
            dst = bytearray(b"".join(v.to_bytes(e, "little") for v in st[op[3]]))
            for r in range(vr):
                rem = vc
                k = 0
                while 8 * k < ovc:
                    reg = bytearray(256)
                    for b in range(max(0, min(rem, 8))):
                        off = st[op[2]][r * ot[3] + 8 * k + b]
                        reg[32 * b:32 * b + 32] = sbytes[off:off + 32]
                    nd = max(0, min(rem, lanes))
                    at = (r * d[3] + k * lanes) * e
                    dst[at:at + nd * e] = reg[:nd * e]
                    rem -= 64
                    k += 1
            st[op[3]] = [int.from_bytes(dst[i:i + e], "little") for i in range(0, len(dst), e)]
        elif kind == "hist":
            s, it, d = T[op[1]], T[op[2]], T[op[3]]
            e = SIZE[s[1]]
            byte = op[4] if op[4] is not None else (op[5] if op[5] is not None else 1)
            vr, vc = valid(s)
            for r in range(vr):
                cnt = [0] * 256
                if e == 2:
                    filt = [(1, st[op[2]][r])] if byte == 0 else []
                else:
                    ic = it[3]
                    filt = [(3 - k, st[op[2]][k * ic]) for k in range(3 - byte)]
                for c in range(vc):
                    v = st[op[1]][r * s[3] + c]
                    if all((v >> (8 * bb)) & 0xFF == want for bb, want in filt):
                        cnt[(v >> (8 * byte)) & 0xFF] += 1
                run = 0
                for b in range(256):
                    run += cnt[b]
                    st[op[3]][r * 256 + b] = run
    return st


def save_case(case, seed):
    tiles, ops = CASES[case]
    rng = gl.Lcg(seed)
    data = inputs(case, tiles, rng)
    idx_fill(case, tiles, data, ops, rng)
    T = {t[0]: t for t in tiles}
    for t in tiles:
        if t[5]:
            vr, vc = valid(t)   # a tile with a valid window is loaded from a buffer of its whole shape
            gl.save_ints("i_%s.bin" % t[0], 8 * SIZE[t[1]], data[t[0]])
    st = run_ops(tiles, ops, data)
    for name in STORED[case]:
        t = T[name]
        e = SIZE[t[1]]
        vr, vc = valid(t)
        out = bytearray([0x7F] * (t[2] * t[3] * e))
        for r in range(vr):
            for c in range(vc):
                out[(r * t[3] + c) * e:(r * t[3] + c + 1) * e] = st[name][r * t[3] + c].to_bytes(e, "little")
        gl.save("e_%s.bin" % name, out)


def case_gmask():
    save_case("gmask", 11)


def case_gmask_noaxis():
    save_case("gmask_noaxis", 16)


def case_smask():
    save_case("smask", 12)


def case_scatter():
    save_case("scatter", 13)


def case_gatherb():
    save_case("gatherb", 14)


def case_hist():
    save_case("hist", 15)


def case_badscatter():
    """bad_tscatter_idx.pto: a 4x16 f32 destination (64 elements); index 64 at idx[2, 7]."""
    idx = [(5 * i) % 64 for i in range(64)]
    idx[2 * 16 + 7] = 64
    gl.save_ints("idx.bin", 32, idx)


def case_badgatherb():
    """bad_tgatherb.pto: a 2x64 f32 source (512 bytes); offset 512 (one block past the end) at offsets[1, 3]."""
    offs = [32 * ((3 * i) % 16) for i in range(16)]
    offs[8 + 3] = 512
    gl.save_ints("off.bin", 32, offs)


def f16bits(x):
    return gl.unpack("H", gl.pack("e", [x]))[0]


def case_mgs():
    """tests/tile/mgather_mscatter.pto (pto-isa MGATHER / MSCATTER, docs/semantics.md §14.6): gathers from an f32
    64x32 table t1 and an f16 16x64 table t2, scatters into four tables given as inputs and written back."""
    rng = gl.Lcg(16)
    t1 = [rng.next() << 9 ^ rng.next() for _ in range(64 * 32)]
    t1 = [v & 0xFFFFFFFF for v in t1]
    t2 = [rng.next() & 0xFFFF for _ in range(16 * 64)]
    ia = [rng.below(64) for _ in range(8)]                       # row, undefined OOB: all in range
    ib = [rng.below(2048) for _ in range(64)]                    # elem, zero: some past 2048
    ib[3], ib[17], ib[63] = 2048, 0xFFFFFFFF, 5000
    ic = [rng.below(3000) for _ in range(64)]                    # elem, wrap over 1024
    ic[0] = 0xFFFFFFFF                                           # a negative i32 is a large u32: wraps too
    idd = [rng.below(64) for _ in range(8)]                      # row, clamp
    idd[2], idd[6] = 64, 1000
    oa = [t1[ia[r] * 32 + c] for r in range(8) for c in range(32)]
    ob = [t1[x] if x < 2048 else 0 for x in ib]
    oc = [t2[x % 1024] for x in ic]
    od = [t1[min(idd[r], 63) * 32 + c] for r in range(8) for c in range(32)]
    # scatters
    s1 = [rng.next() << 9 ^ rng.next() for _ in range(64 * 32)]
    s1 = [v & 0xFFFFFFFF for v in s1]
    sa = [(rng.next() << 9 ^ rng.next()) & 0xFFFFFFFF for _ in range(8 * 32)]
    ie = [rng.below(64) for _ in range(8)]
    ie[5] = ie[1]                                                # a duplicate row: the later one (5) stays
    ie[3] = 64                                                   # skipped
    e1 = list(s1)
    for r in range(8):
        if ie[r] < 64:
            e1[ie[r] * 32:ie[r] * 32 + 32] = sa[r * 32:r * 32 + 32]
    s2 = [rng.below(800) / 4.0 - 100.0 for _ in range(256)]     # quarter steps: every sum is exact in f32
    sb = [rng.below(400) / 4.0 - 50.0 for _ in range(64)]
    if_ = [rng.below(300) for _ in range(64)]                    # wrap over 256; duplicates accumulate
    if_[10] = if_[11] = if_[40] = 7
    e2 = list(s2)
    for k in range(64):
        e2[if_[k] % 256] += sb[k]
    s3 = [rng.below(2000) - 1000 for _ in range(256)]
    sc = [rng.below(2000) - 1000 for _ in range(32)]
    ig = [rng.below(256) for _ in range(32)]
    ig[4], ig[20] = 256, 9999                                    # clamp to 255
    ig[7] = ig[8] = 100
    e3 = list(s3)
    for k in range(32):
        x = min(ig[k], 255)
        e3[x] = max(e3[x], sc[k])
    s4 = [rng.next() & 0xFFFF for _ in range(1024)]
    sd = [rng.next() & 0xFFFF for _ in range(64)]
    ih = [rng.below(1024) for _ in range(64)]
    ih[1] = ih[33] = ih[50] = 77                                 # row-major: position 50's value stays
    e4 = list(s4)
    for k in range(64):
        e4[ih[k]] = sd[k]
    gl.save_ints("t1.bin", 32, t1)
    gl.save_ints("t2.bin", 16, t2)
    for n, v in (("ia", ia), ("ib", ib), ("ic", ic), ("id", idd), ("ie", ie), ("if", if_), ("ig", ig), ("ih", ih)):
        gl.save_ints(n + ".bin", 32, v)
    gl.save_ints("e_oa.bin", 32, oa)
    gl.save_ints("e_ob.bin", 32, ob)
    gl.save_ints("e_oc.bin", 16, oc)
    gl.save_ints("e_od.bin", 32, od)
    gl.save_ints("s1.bin", 32, s1)
    gl.save_ints("sa.bin", 32, sa)
    gl.save_ints("e_s1.bin", 32, e1)
    gl.save_vals("s2.bin", "f", s2)
    gl.save_vals("sb.bin", "f", sb)
    gl.save_vals("e_s2.bin", "f", e2)
    gl.save_ints("s3.bin", 32, s3)
    gl.save_ints("sc.bin", 32, sc)
    gl.save_ints("e_s3.bin", 32, e3)
    gl.save_ints("s4.bin", 16, s4)
    gl.save_ints("sd.bin", 16, sd)
    gl.save_ints("e_s4.bin", 16, e4)


def case_badmgs():
    """bad_mgather_oob.pto: row indices 0..7 except 64 (past the 64-row table) at idx[0, 5]."""
    gl.save_ints("ia.bin", 32, [0, 1, 2, 3, 4, 64, 6, 7])


if __name__ == "__main__":
    gl.OUT = sys.argv[1]
    gl.run_case(gl.cases(globals()), sys.argv[2])
