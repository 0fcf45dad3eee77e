#!/usr/bin/env python3
"""gen_tile_misc.py — kernels, inputs and independently computed expected outputs for tests/tile/tile_misc.pto:
tcvt, tsort32, tmrgsort, trandom and the vector-side moves (tmov, textract, tinsert).

  python3 gen_tile_misc.py OUTDIR tile_misc    write the inputs and expected outputs
  python3 gen_tile_misc.py --emit DIR          (re)write DIR/tile_misc.pto

Each kernel loads its tiles from GM through views, runs the op, stores the destination tile whole (the output
buffer starts as zeros, so what the op must not touch stays zero) and has no synchronisation (auto-sync).
Expected values are written here in plain Python from the readings of docs/semantics.md §14 and §7.5 (the
conversion lane: gen_valu.py's cvt_ref and fmodel.py, exact rationals; the sorters: a stable sort and a
merge; Philox: the textbook round): no code is shared with ptosim.
"""
import os
import re
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_valu as G  # noqa: E402
import fmodel as R  # noqa: E402

TY = G.TY
RMODE = {"RINT": "R", "ROUND": "A", "FLOOR": "F", "CEIL": "C", "TRUNC": "Z", "ODD": "O"}


def tile_t(rows, cols, t, vr=None, vc=None, extra=""):
    s = "!pto.tile_buf<vec, %dx%dx%s" % (rows, cols, t.mlir)
    if vr is not None and (vr, vc) != (rows, cols):
        s += ", valid=%dx%d" % (vr, vc)
    return s + extra + ">"


def view(name, rows, cols, t):
    """a rank-2 view of a whole rows x cols buffer and its partition"""
    T = t.mlir
    return ["    %%%s_v = pto.make_tensor_view %%%s, shape = [%%c%d, %%c%d], strides = [%%c%d, %%c1] : "
            "!pto.tensor_view<%dx%dx%s>" % (name, name, rows, cols, cols, rows, cols, T),
            "    %%%s_p = pto.partition_view %%%s_v, offsets = [%%c0, %%c0], sizes = [%%c%d, %%c%d] : "
            "!pto.tensor_view<%dx%dx%s> -> !pto.partition_tensor_view<%dx%dx%s>"
            % (name, name, rows, cols, rows, cols, T, rows, cols, T)]


class K:
    """One kernel: GM buffers (name, rows, cols, type, is_output), body lines between the loads and the store."""

    def __init__(self, name):
        self.name, self.bufs, self.body, self.consts, self.scalars = name, [], [], {0, 1}, []

    def buf(self, n, rows, cols, t, out=False, tile=None, load=True):
        self.bufs.append((n, rows, cols, t, out, tile or tile_t(rows, cols, t), load))
        self.consts |= {rows, cols}

    def text(self):
        params = ["%%%s: !pto.ptr<%s>" % (b[0], b[3].mlir) for b in self.bufs if b[4] or b[6]] + self.scalars
        # an output tile with a static valid region smaller than its shape is stored through a partition of that
        # size (the compiler's tstore rule: view elements = valid elements); the bytes written are the same
        part = {}
        for n, rows, cols, t, out, tt, load in self.bufs:
            m = re.search(r"valid=(\d+)x(\d+)", tt)
            if out and m and (int(m.group(1)), int(m.group(2))) != (rows, cols):
                part[n] = (int(m.group(1)), int(m.group(2)))
                self.consts |= set(part[n])
        L = ["  func.func @%s(%s) attributes {pto.kernel} {" % (self.name, ", ".join(params))]
        L += ["    %%c%d = arith.constant %d : index" % (k, k) for k in sorted(self.consts)]
        for n, rows, cols, t, out, tt, load in self.bufs:
            if out or load:
                L += view(n, rows, cols, t)
            L.append("    %%t%s = pto.alloc_tile : %s" % (n, tt))
            if load and not out:
                L.append("    pto.tload ins(%%%s_p : !pto.partition_tensor_view<%dx%dx%s>) outs(%%t%s : %s)"
                         % (n, rows, cols, t.mlir, n, tt))
        L += self.body
        for n, rows, cols, t, out, tt, load in self.bufs:
            if out and n in part:
                vr, vc = part[n]
                L.append("    %%%s_q = pto.partition_view %%%s_v, offsets = [%%c0, %%c0], sizes = [%%c%d, %%c%d] : "
                         "!pto.tensor_view<%dx%dx%s> -> !pto.partition_tensor_view<%dx%dx%s>"
                         % (n, n, vr, vc, rows, cols, t.mlir, vr, vc, t.mlir))
                L.append("    pto.tstore ins(%%t%s : %s) outs(%%%s_q : !pto.partition_tensor_view<%dx%dx%s>)"
                         % (n, tt, n, vr, vc, t.mlir))
            elif out:
                L.append("    pto.tstore ins(%%t%s : %s) outs(%%%s_p : !pto.partition_tensor_view<%dx%dx%s>)"
                         % (n, tt, n, rows, cols, t.mlir))
        L += ["    return", "  }"]
        return L

    def run(self):
        args = []
        for n, rows, cols, t, out, tt, load in self.bufs:
            if out:
                args.append("zeros:%d:%%t/%s.%s.out" % (rows * cols * t.bytes, self.name, n))
            elif load:
                args.append("%%t/%s.%s.bin" % (self.name, n))
        L = ["// RUN: ptosim run %%s -q --no-unwritten -e %s -- %s" % (self.name, " ".join(args))]
        for n, rows, cols, t, out, tt, load in self.bufs:
            if out:
                L.append("// CMP: %%t/%s.%s.out %%t/%s.%s.exp" % (self.name, n, self.name, n))
        return L


# ---------------------------------------------------------------- tcvt

# (source, destination, round modes): pairs of every template shape (one step, via i32, the f16 -> si8 chain,
# vtrc, widening with sign, bf16 -> f4 x2 packing)
CVT = [("f32", "si32", ["RINT", "ROUND", "FLOOR", "CEIL", "TRUNC"]), ("f32", "f16", ["RINT", "TRUNC"]),
       ("f32", "bf16", ["RINT"]), ("f16", "ui8", ["RINT"]), ("f16", "si8", ["RINT", "FLOOR"]),
       ("f16", "si16", ["CEIL"]), ("f32", "si16", ["RINT"]), ("si16", "ui32", ["RINT"]), ("si32", "si16", ["RINT"]),
       ("si32", "ui8", ["RINT"]), ("f32", "f32", ["FLOOR", "RINT"]), ("f32", "e4m3", ["RINT"]),
       ("bf16", "f4e2m1", ["RINT"]), ("si64", "si32", ["RINT"]), ("si32", "f32", ["CEIL"])]
CR, CC, CVR, CVC = 4, 64, 3, 50


def cvt_name(s, d, m):
    return "tcvt_%s_%s_%s" % (s, d, m.lower())


def cvt_sat(s, d):
    """the template's saturation of a one-step pair (docs/semantics.md §14 "tcvt")"""
    if s.isf and d.isf:
        return d.name not in ("hif8", "f4e2m1", "f4e1m2")
    if s.isf:
        return (d.bits == 32 and s.name in ("f32", "bf16")) or (s.name == "f32" and d.bits == 64)
    if d.isf or d.bits >= s.bits:
        return False
    return not ((s.bits, d.bits) in ((32, 16), (64, 32)) and d.signed)


def cvt_lane(s, d, code, rm):
    """one element: one rounding of the source value, saturated or wrapped as the pair's template does"""
    if s.name == "f32" and d.name == "f32":   # vtrc
        r = R.round_integral(R.F32.decode(code), rm)
        return code if r is None else R.F32.encode(r)
    if s.isf and not d.isf and d.bits <= 16 and s.name in ("f16", "f32"):
        return R.to_int_wrap(s.fmt.decode(code), rm, d.bits, d.signed)   # NOSAT chains: the low bits
    return G.cvt_ref(s, d, code, rm, cvt_sat(s, d))


def cvt_inputs(s, rng, n):
    if s.isf:
        f = s.fmt
        special = [f.encode(R.fin(v)) for v in (0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 255.5, -128.5, 300.25, -700.75,
                                                 0.4999, 65519.0, 70000.0, -1e6, 3.4e9)]
        vals = special + [f.encode(R.fin(rng.uniform(-600, 600))) for _ in range(n - len(special))]
        return [v & s.mask for v in vals]
    lo, hi = (-(1 << (s.bits - 1)), (1 << (s.bits - 1)) - 1) if s.signed else (0, (1 << s.bits) - 1)
    special = [lo, hi, -1 & s.mask, 0, 1, 255, 256, 70000 & s.mask, -70000 & s.mask]
    return [v & s.mask for v in special] + [rng.randint(lo, hi) & s.mask for _ in range(n - len(special))]


def cvt_kernels():
    ks = []
    for s, d, modes in CVT:
        S, D = TY[s], TY[d]
        pack = d.startswith("f4")
        for m in modes:
            k = K(cvt_name(s, d, m))
            dc, dvc = (CC // 2, CVC // 2) if pack else (CC, CVC)
            k.buf("a", CR, CC, S, tile=tile_t(CR, CC, S, CVR, CVC))
            k.buf("d", CR, dc, D, out=True, tile=tile_t(CR, dc, D, CVR, dvc))
            attr = "" if m == "RINT" else " {rmode = #pto<round_mode %s>}" % m
            k.body.append("    pto.tcvt ins(%%ta%s : %s) outs(%%td : %s)" % (attr, tile_t(CR, CC, S, CVR, CVC),
                                                                            tile_t(CR, dc, D, CVR, dvc)))
            k.data = (S, D, m, pack)
            k.kind = "cvt"
            ks.append(k)
    return ks


def cvt_write(out, k):
    S, D, m, pack = k.data
    rng = random.Random(sum(map(ord, k.name)))
    a = cvt_inputs(S, rng, CR * CC)
    rm = RMODE[m]
    dc = CC // 2 if pack else CC
    exp = [0] * (CR * dc)
    for r in range(CVR):
        for c in range(CVC // 2 if pack else CVC):
            if pack:
                lo = cvt_lane(S, D, a[r * CC + 2 * c], rm) & 0xF
                hi = cvt_lane(S, D, a[r * CC + 2 * c + 1], rm) & 0xF
                exp[r * dc + c] = lo | hi << 4
            else:
                exp[r * dc + c] = cvt_lane(S, D, a[r * CC + c], rm)
    wr(out, k.name + ".a.bin", G.pack(S, a))
    wr(out, k.name + ".d.exp", G.pack(D, exp))


# ---------------------------------------------------------------- sorts

def wr(out, name, data):
    with open(os.path.join(out, name), "wb") as fh:
        fh.write(data)


def fkey(t, code):
    """sort key of a score: NaN above everything, -0 == +0"""
    v = t.fmt.decode(code)
    if v.isnan():
        return (1, 0)
    if v.isinf():
        return (0, float("inf") if not v.neg else float("-inf"))
    return (0, float(v.value()))


def bitsort(t, scores, idx):
    """32 scores and indices -> 32 records (score code, index), descending, ties in source order"""
    order = sorted(range(32), key=lambda i: (tuple(-x for x in fkey(t, scores[i])), i))
    return [(scores[i], idx[i]) for i in order]


def rec_bytes(t, recs):
    b = bytearray()
    for s, i in recs:
        b += struct.pack("<II", s if t.bytes == 4 else s & 0xFFFF, i)
    return bytes(b)


F32_PAD, F16_PAD = 0x4F7F8000, 0x7BE0   # the templates' pad constants 0xFF800000 and 0xFC00 taken as values


def sort_kernels():
    ks = []
    # (name, type, rows, cols, valid cols, idx rows, tmp cols)
    for name, tn, rows, cols, vc, ir, tmp in (("tsort32_f32", "f32", 2, 64, 64, 2, 0), ("tsort32_f16", "f16", 1, 64, 64, 1, 0),
                                              ("tsort32_f32_tail", "f32", 2, 48, 40, 1, 64)):
        t = TY[tn]
        k = K(name)
        coef = 2 if tn == "f32" else 4
        k.buf("a", rows, cols, t, tile=tile_t(rows, cols, t, rows, vc))
        ic = (vc + 31) // 32 * 32   # the sorter reads whole blocks of indices
        k.buf("i", ir, ic, TY["ui32"])
        dcols = (vc + 31) // 32 * 32 * coef   # room for every block's 32 records
        k.buf("d", rows, dcols, t, out=True)
        ins, types = "%ta, %ti", "%s, %s" % (tile_t(rows, cols, t, rows, vc), tile_t(ir, ic, TY["ui32"]))
        if tmp:
            k.bufs.append(("x", 1, tmp, t, False, tile_t(1, tmp, t), False))
            k.consts |= {tmp}
            k.scalars.append("%fill: f32")
            k.body.append("    pto.texpands ins(%%fill : f32) outs(%%tx : %s)" % tile_t(1, tmp, t))
            ins += ", %tx"
            types += ", " + tile_t(1, tmp, t)
        k.body.append("    pto.tsort32 ins(%s : %s) outs(%%td : %s)" % (ins, types, tile_t(rows, dcols, t)))
        k.kind, k.data = "sort32", (t, rows, cols, vc, ir, tmp)
        ks.append(k)
    return ks


def sort_run(k):
    L = K.run(k)
    if k.data[5]:   # the tmp filler
        L[0] += " -5.0"
    return L


def sort_write(out, k):
    t, rows, cols, vc, ir, tmp = k.data
    rng = random.Random(sum(map(ord, k.name)))
    a = []
    for _ in range(rows * cols):   # few distinct values: ties
        a.append(t.fmt.encode(R.fin(rng.choice([1.5, -2.0, 7.25, 0.0, 3.0, 100.0, -0.0, 9.5]))) & t.mask)
    if t.name == "f32":
        a[3] = 0x7FC00000   # a NaN ranks first
    ic = (vc + 31) // 32 * 32
    idx = [rng.randrange(1 << 32) for _ in range(ir * ic)]
    coef = 2 if t.name == "f32" else 4
    rowb = ic * coef * t.bytes
    d = bytearray(rows * rowb)
    fill = t.fmt.encode(R.fin(-5.0))
    pad = F32_PAD if t.name == "f32" else F16_PAD
    for r in range(rows):
        irow = idx[(r if ir > 1 else 0) * ic:][:ic]
        nblk = (vc + 31) // 32
        row = a[r * cols:(r + 1) * cols]
        for b in range(nblk):
            sc = row[32 * b:32 * b + 32]
            if vc % 32 and b == nblk - 1:
                # the template's staging: ceil(vc*e/32) 32-byte blocks copied into tmp (filled before), the first
                # 32 - tail lanes of the last block set to the pad constant
                tail = vc % 32
                tmpv = [fill] * tmp
                ncopy = (vc * t.bytes + 31) // 32 * 32 // t.bytes
                tmpv[:ncopy] = row[:ncopy]
                last = nblk * 32 - 32
                for i in range(32 - tail):
                    tmpv[last + i] = pad
                sc = tmpv[last:last + 32]
            recs = bitsort(t, sc, irow[32 * b:32 * b + 32])
            off = 32 * b * 8
            d[r * rowb + off:r * rowb + off + 256] = rec_bytes(t, recs)
    wr(out, k.name + ".a.bin", G.pack(t, a))
    wr(out, k.name + ".i.bin", G.pack(TY["ui32"], idx))
    wr(out, k.name + ".d.exp", bytes(d))


def merge(t, lists, exhausted):
    pos, outr = [0] * len(lists), []
    while True:
        if exhausted and any(pos[k] == len(lists[k]) for k in range(len(lists))):
            break
        best = None
        for k in range(len(lists)):
            if pos[k] < len(lists[k]):
                if best is None or fkey(t, lists[k][pos[k]][0]) > fkey(t, lists[best][pos[best]][0]):
                    best = k
        if best is None:
            break
        outr.append(lists[best][pos[best]])
        pos[best] += 1
    return outr


def sorted_list(t, rng, n):
    vals = sorted([rng.choice([1.0, 2.5, -3.0, 8.0, 0.25, 6.0]) for _ in range(n)], reverse=True)
    return [(t.fmt.encode(R.fin(v)) & t.mask, rng.randrange(1 << 32)) for v in vals]


def mrg_kernels():
    ks = []
    for tn in ("f32", "f16"):
        t = TY[tn]
        e = t.bytes
        # format 1: one list of four blocks of 32 records (blockLen in elements)
        cols = 4 * 32 * 8 // e
        k = K("tmrgsort1_%s" % tn)
        k.buf("a", 1, cols, t)
        k.buf("d", 1, cols, t, out=True)
        k.scalars.append("%blk: i32")
        k.body.append("    pto.tmrgsort ins(%%ta, %%blk : %s, i32) outs(%%td : %s)" % (tile_t(1, cols, t), tile_t(1, cols, t)))
        k.kind, k.data = "mrg1", (t, cols)
        ks.append(k)
    for ex in (False, True):
        t = TY["f32"]
        # format 2: three lists (of 16, 8 and 12 records), tmp filled first, dst = the first 48 elements of tmp
        k = K("tmrgsort3_%s" % ("ex" if ex else "all"))
        lens = (16, 8, 12)
        for n, ln in zip("abc", lens):
            k.buf(n, 1, 32, t, tile=tile_t(1, 32, t, 1, 2 * ln))
        k.bufs.append(("x", 1, 128, t, False, tile_t(1, 128, t), False))
        k.consts |= {128}
        k.buf("d", 1, 64, t, out=True, tile=tile_t(1, 64, t, 1, 48))
        k.scalars.append("%fill: f32")
        k.body.append("    pto.texpands ins(%%fill : f32) outs(%%tx : %s)" % tile_t(1, 128, t))
        k.body.append("    %ex = arith.constant dense<0> : vector<4xi16>")
        k.body.append("    pto.tmrgsort ins(%%ta, %%tb, %%tc, %%tx {exhausted = %s} : %s, %s, %s, %s) outs(%%td, %%ex : %s, "
                      "vector<4xi16>)" % ("true" if ex else "false", tile_t(1, 32, t, 1, 32), tile_t(1, 32, t, 1, 16),
                                          tile_t(1, 32, t, 1, 24), tile_t(1, 128, t), tile_t(1, 64, t, 1, 48)))
        k.kind, k.data = "mrg3", (t, lens, ex)
        ks.append(k)
    return ks


def mrg_run(k):
    L = K.run(k)
    if k.kind == "mrg1":
        L[0] += " %d" % (32 * 8 // k.data[0].bytes)
    else:
        L[0] += " -5.0"
    return L


def mrg_write(out, k):
    rng = random.Random(sum(map(ord, k.name)))
    if k.kind == "mrg1":
        t, cols = k.data
        blocks = [sorted_list(t, rng, 32) for _ in range(4)]
        src = b"".join(rec_bytes(t, b) for b in blocks)
        wr(out, k.name + ".a.bin", src)
        wr(out, k.name + ".d.exp", rec_bytes(t, merge(t, blocks, False)))
        return
    t, lens, ex = k.data
    lists = [sorted_list(t, rng, n) for n in lens]
    for n, l in zip("abc", lists):
        b = rec_bytes(t, l)
        wr(out, k.name + "." + n + ".bin", b + bytes(128 - len(b)))
    m = merge(t, lists, ex)
    tmpb = bytearray(struct.pack("<f", -5.0) * 128)
    mb = rec_bytes(t, m)
    tmpb[:len(mb)] = mb
    wr(out, k.name + ".d.exp", bytes(tmpb[:48 * 4]) + bytes(16 * 4))


# ---------------------------------------------------------------- trandom

M32 = 0xFFFFFFFF


def philox(c, k0, k1, rounds):
    c0, c1, c2, c3 = c
    for _ in range(rounds):
        p0, p1 = c0 * 0xD2511F53, c2 * 0xCD9E8D57
        c0, c1, c2, c3 = ((p1 >> 32) ^ c1 ^ k0) & M32, p1 & M32, ((p0 >> 32) ^ c3 ^ k1) & M32, p0 & M32
        k0, k1 = (k0 + 0x9E3779B9) & M32, (k1 + 0xBB67AE85) & M32
    return [c0, c1, c2, c3]


RAND = [("trandom_2x300", 2, 320, 300, None, (0x12345678, 0x9ABCDEF0, 0xFFFFFFC0, 0xFFFFFFFF, 0xFFFFFFFF, 5)),
        ("trandom_r7", 3, 64, 64, 7, (1, 2, 3, 4, 5, 6))]


def rand_kernels():
    ks = []
    for name, rows, cols, vc, rounds, words in RAND:
        t = TY["ui32"]
        k = K(name)
        k.buf("d", rows, cols, t, out=True, tile=tile_t(rows, cols, t, rows, vc))
        k.scalars += ["%%w%d: i32" % i for i in range(6)]
        attr = "" if rounds is None else " {rounds = %d : i32}" % rounds
        k.body.append("    pto.trandom ins(%%w0, %%w1, %%w2, %%w3, %%w4, %%w5%s : i32, i32, i32, i32, i32, i32) outs(%%td : %s)"
                      % (attr, tile_t(rows, cols, t, rows, vc)))
        k.kind, k.data = "rand", (rows, cols, vc, rounds or 10, words)
        ks.append(k)
    return ks


def rand_run(k):
    L = K.run(k)
    L[0] += " " + " ".join(str(w - (1 << 32) if w >= 1 << 31 else w) for w in k.data[4])
    return L


def rand_write(out, k):
    rows, cols, vc, rounds, (k0, k1, c0, c1, c2, c3) = k.data
    base = c0 | c1 << 32 | c2 << 64 | c3 << 96
    ctr = [(base + i) % (1 << 128) for i in range(64)]   # lane i: counter + i, carries across the words
    d = [0] * (rows * cols)
    groups = (vc + 255) // 256
    for r in range(rows):
        for g in range(groups):
            words = []
            for i in range(64):
                words += philox([(ctr[i] >> (32 * j)) & M32 for j in range(4)], k0, k1, rounds)
            for j in range(min(256, vc - 256 * g)):
                d[r * cols + 256 * g + j] = words[j]
            add = (vc - 1) % 64 + 1 if g == groups - 1 else 64
            ctr = [(x + add) % (1 << 128) for x in ctr]
    wr(out, k.name + ".d.exp", G.pack(TY["ui32"], d))


# ---------------------------------------------------------------- moves

def mov_kernels():
    ks = []
    h, b = TY["f16"], TY["ui8"]
    k = K("tmov_ui8")
    k.buf("a", 8, 64, b, tile=tile_t(8, 64, b, 6, 45))
    k.buf("d", 8, 64, b, out=True, tile=tile_t(8, 64, b, 6, 45))
    k.body.append("    pto.tmov ins(%%ta : %s) outs(%%td : %s)" % (tile_t(8, 64, b, 6, 45), tile_t(8, 64, b, 6, 45)))
    k.kind, k.data = "mov", ("tmov", b, (8, 64), (8, 64), (6, 45), 0, 0)
    ks.append(k)
    k = K("textract_f16")
    k.buf("a", 8, 64, h)
    k.buf("d", 4, 32, h, out=True, tile=tile_t(4, 32, h, 4, 20))
    k.consts |= {2, 16}
    k.body.append("    pto.textract ins(%%ta, %%c2, %%c16 : %s, index, index) outs(%%td : %s)"
                  % (tile_t(8, 64, h), tile_t(4, 32, h, 4, 20)))
    k.kind, k.data = "mov", ("textract", h, (8, 64), (4, 32), (4, 20), 2, 16)
    ks.append(k)
    k = K("tinsert_f16")
    k.buf("a", 4, 16, h, tile=tile_t(4, 16, h, 3, 10))
    k.buf("d", 8, 32, h, out=True)
    k.consts |= {5, 20}
    k.body.insert(0, "    pto.tload ins(%%d_p : !pto.partition_tensor_view<8x32xf16>) outs(%%td : %s)" % tile_t(8, 32, h))
    k.body.append("    pto.tinsert ins(%%ta, %%c5, %%c20 : %s, index, index) outs(%%td : %s)"
                  % (tile_t(4, 16, h, 3, 10), tile_t(8, 32, h)))
    k.kind, k.data = "mov", ("tinsert", h, (4, 16), (8, 32), (3, 10), 5, 20)
    ks.append(k)
    return ks


def mov_run(k):
    L = K.run(k)
    if k.data[0] == "tinsert":   # the destination is loaded first: its buffer holds the prior contents
        L[0] = L[0].replace("zeros:%d:%%t/%s.d.out" % (8 * 32 * 2, k.name),
                            "%%t/%s.d.bin:%%t/%s.d.out" % (k.name, k.name))
    return L


def mov_write(out, k):
    op, t, (sr, sc), (dr, dc), (vr, vc), r0, c0 = k.data
    rng = random.Random(sum(map(ord, k.name)))
    a = [rng.randrange(1 << t.bits) for _ in range(sr * sc)]
    wr(out, k.name + ".a.bin", G.pack(t, a))
    d = [0] * (dr * dc)
    if op == "tinsert":
        d = [rng.randrange(1 << t.bits) for _ in range(dr * dc)]
        wr(out, k.name + ".d.bin", G.pack(t, d))
        for r in range(vr):
            for c in range(vc):
                d[(r0 + r) * dc + c0 + c] = a[r * sc + c]
    else:
        for r in range(vr):
            for c in range(vc):
                d[r * dc + c] = a[(r0 + r) * sc + c0 + c]
    wr(out, k.name + ".d.exp", G.pack(t, d))


# ---------------------------------------------------------------- driver

def kernels():
    return cvt_kernels() + sort_kernels() + mrg_kernels() + rand_kernels() + mov_kernels()


RUN = {"cvt": K.run, "sort32": sort_run, "mrg1": mrg_run, "mrg3": mrg_run, "rand": rand_run, "mov": mov_run}
WRITE = {"cvt": cvt_write, "sort32": sort_write, "mrg1": mrg_write, "mrg3": mrg_write, "rand": rand_write,
         "mov": mov_write}


def emit_file(d, name, header, ks, run):
    """Writes d/name: the header lines, each kernel's RUN/CMP lines (run(k)), then the module of every kernel's
    text (the --emit form shared by gen_tile_misc, gen_tile_reduce and gen_tile_extra)."""
    L = list(header)
    for k in ks:
        L += run(k)
    L.append("module attributes {pto.target_arch = \"a5\"} {")
    for k in ks:
        L += k.text()
    L.append("}")
    with open(os.path.join(d, name), "w") as fh:
        fh.write("\n".join(L) + "\n")


def main(kernels, write, emit):
    """`--emit DIR` writes the kernel file; `OUTDIR` writes every kernel's inputs and expected bytes."""
    if sys.argv[1] == "--emit":
        emit(sys.argv[2])
    else:
        for k in kernels():
            write[k.kind](sys.argv[1], k)


def emit(d):
    ks = kernels()
    header = ["// tile_misc: tcvt (every template shape, round modes, saturation and wrapping), tsort32 (aligned, shared",
         "// indices, an unaligned tail staged through tmp), tmrgsort (one list of four blocks; three lists, exhausted",
         "// or not), trandom (Philox, a row tail, a rounds attribute), tmov / textract / tinsert between vec tiles.",
         "// Generated by tests/gen/gen_tile_misc.py --emit; expected values from gen_tile_misc.py and fmodel.py.",
         "// GEN: gen_tile_misc.py tile_misc"]
    emit_file(d, "tile_misc.pto", header, ks, lambda k: RUN[k.kind](k))


if __name__ == "__main__":
    main(kernels, WRITE, emit)
