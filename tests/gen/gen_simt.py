#!/usr/bin/env python3
"""gen_simt.py OUTDIR MODE — inputs and expected bytes for the SIMT tests in tests/simt/ (Python standard
library only; nothing here runs ptosim). Each mode replays its kernel's workitems in plain Python from the
readings of docs/simt.md and docs/semantics.md ("SIMT"):

  * workitem t of a (dx, dy, dz) launch has tid (t % dx, t // dx % dy, t // (dx dy)), lane t % 32 and
    subgroup t // 32; a collective runs over the lanes of a subgroup that reach it together;
  * shuffles: a source outside the width or not participating gives the lane's own value, index
    shuffles take the index modulo the width; float sums run in increasing lane order, one rounding
    each; float max/min are IEEE maxNum/minNum (NaN operands ignored, -0 below +0);
  * atomics on one address apply in increasing linear id between pto.syncthreads;
  * float results are rounded once from exact rationals (gen_valu_ref.py); exp, log and pow from 80-digit
    decimals, sin and cos by the compiler's software steps in exactly rounded f32 arithmetic.

Modes: queries, collectives, divergence, atomics, math, convert, memory, barrier, keep, section.
"""
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_valu_ref as R  # noqa: E402
from gen_valu_ref import Fraction, V, fin, inf  # noqa: E402

M32 = 0xFFFFFFFF


def sx(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def write(out, name, fmt, vals):
    with open(os.path.join(out, name), "wb") as f:
        f.write(struct.pack("<%d%s" % (len(vals), fmt), *vals))


def wi32(out, name, vals):
    write(out, name, "I", [v & M32 for v in vals])


def tids(dx, dy, dz):
    return [(t % dx, t // dx % dy, t // (dx * dy)) for t in range(dx * dy * dz)]


def warps(n):
    """Lists of linear ids per subgroup."""
    return [list(range(w, min(w + 32, n))) for w in range(0, n, 32)]


# ---------------------------------------------------------------- float helpers

def dec_f(fmt, c):
    return fmt.decode(c)


def f_add(fmt, a, b):
    return fmt.encode(R.v_add(fmt.decode(a), fmt.decode(b)))


def f_minmax(fmt, a, b, want_max):
    va, vb = fmt.decode(a), fmt.decode(b)
    if va.isnan() and vb.isnan():
        return fmt.cnan
    if va.isnan():
        return b
    if vb.isnan():
        return a
    x, y = val(va), val(vb)
    if x == y:
        return (b if va.neg else a) if want_max else (a if va.neg else b)
    return a if (x > y) == want_max else b


def val(v):
    """comparable value of a non-NaN V (infinities as large numbers)"""
    if v.isinf():
        return Fraction(-10 ** 400 if v.neg else 10 ** 400)
    return v.value()


# ---------------------------------------------------------------- collectives

def lanemask(lane, k):
    below, upto = (1 << lane) - 1, (2 << lane) - 1
    return [1 << lane, below, upto, (~below) & M32, (~upto) & M32][k]


def queries(out):
    dx, dy, dz = 20, 3, 2
    res = []
    for t, (x, y, z) in enumerate(tids(dx, dy, dz)):
        lane = t % 32
        res += [x, y, z, lane, dx, dy, dz, 0, 0, 0, 0, 0, 0]
        res += [lanemask(lane, k) for k in range(5)]
        res += [0, t]
    wi32(out, "exp_queries.bin", res)


def shuffle(vals, active, lane_of, w, kind, ctl):
    """Result of a shuffle for every lane of `active` (a list of ids, same subgroup)."""
    at = {lane_of[t]: t for t in active}
    r = {}
    for t in active:
        lane = lane_of[t]
        local, base = lane % w, lane - lane % w
        c = ctl[t] & M32
        if kind == "idx":
            src = c % w
        elif kind == "up":
            src = local - c
        elif kind == "down":
            src = local + c
        else:
            src = local ^ c
        s = at.get(base + src) if 0 <= src < w else None
        r[t] = vals[s if s is not None else t]
    return r


def collectives(out):
    rnd = random.Random(1401)
    n = 48
    vi = [rnd.getrandbits(32) for _ in range(n)]
    vi[3] = 0x7FFFFFFF
    vi[5] = 0x80000000
    fvals = []
    for t in range(n):
        m = rnd.choice([1e8, 1.0, 3e-3, 7.5, -2e7, -0.25, 1e-30])
        fvals.append(R.F32.encode(fin(Fraction(m) * Fraction(rnd.randint(1, 999), 100))))
    fvals[6] = 0x7FC00000          # NaN: ignored by max/min, poisons the sum
    fvals[40] = 0x80000000         # -0
    fvals[41] = 0x00000000         # +0
    hvals = [R.F16.encode(fin(Fraction(rnd.randint(-300, 300), 8))) for _ in range(n)]
    lane = [t % 32 for t in range(n)]
    res = [[0] * 24 for _ in range(n)]
    for ws in warps(n):
        p = {t: (vi[t] & 1) == 1 or t >= 32 for t in ws}
        all_ = int(all(p.values()))
        any_ = int(any(p.values()))
        uni = int(len(set(p.values())) == 1)
        bal = sum(1 << lane[t] for t in ws if p[t])
        sh0 = shuffle(vi, ws, lane, 32, "idx", {t: (vi[t] >> 8) & 63 for t in ws})
        sh1 = shuffle(vi, ws, lane, 16, "idx", {t: (vi[t] >> 4) & 31 for t in ws})
        sh2 = shuffle(vi, ws, lane, 32, "up", {t: (vi[t] >> 12) & 7 for t in ws})
        sh3 = shuffle(vi, ws, lane, 32, "down", {t: (vi[t] >> 16) & 7 for t in ws})
        sh4 = shuffle(vi, ws, lane, 32, "bfly", {t: (vi[t] >> 20) & 31 for t in ws})
        sh5 = shuffle(vi, ws, lane, 16, "bfly", {t: (vi[t] >> 20) & 31 for t in ws})
        ra = sum(vi[t] for t in ws) & M32
        rx = max(sx(vi[t], 32) for t in ws) & M32
        rn = min(vi[t] for t in ws)
        rux = max(vi[t] for t in ws)
        fa, fx, fn, ha, hx = fvals[ws[0]], fvals[ws[0]], fvals[ws[0]], hvals[ws[0]], hvals[ws[0]]
        for t in ws[1:]:
            fa = f_add(R.F32, fa, fvals[t])
            fx = f_minmax(R.F32, fx, fvals[t], True)
            fn = f_minmax(R.F32, fn, fvals[t], False)
            ha = f_add(R.F16, ha, hvals[t])
            hx = f_minmax(R.F16, hx, hvals[t], True)
        wide = {t: (vi[t] << 32) | t for t in ws}
        wd = shuffle(wide, ws, lane, 32, "down", {t: 1 for t in ws})
        fs = shuffle(fvals, ws, lane, 32, "idx", {t: 31 for t in ws})
        h2 = shuffle(vi, ws, lane, 32, "bfly", {t: 1 for t in ws})
        bt = sum(1 << lane[t] for t in ws)
        for t in ws:
            res[t] = [all_, any_, uni, bal, sh0[t], sh1[t], sh2[t], sh3[t], sh4[t], sh5[t], ra, rx, rn, rux,
                      fa, fx, fn, ha, wd[t] & M32, wd[t] >> 32, fs[t], h2[t], hx, bt]
    wi32(out, "in_i.bin", vi)
    wi32(out, "in_f.bin", fvals)
    write(out, "in_h.bin", "H", hvals)
    wi32(out, "exp_collectives.bin", [v for r in res for v in r])


def divergence(out):
    rnd = random.Random(1402)
    n = 52
    vi = [rnd.getrandbits(32) for _ in range(n)]
    vi[33] = 0           # a subgroup where one lane's x is 0
    res = [[0] * 6 for _ in range(n)]
    for ws in warps(n):
        trips = {t: t % 5 for t in ws}
        low = [t for t in ws if t % 32 < 20]
        high = [t for t in ws if t % 32 >= 20]
        lane = {t: t % 32 for t in ws}
        trips_max = max(((vi[t] & 255).bit_length() for t in ws))
        for grp, then in ((low, True), (high, False)):
            if not grp:
                continue
            p = {t: (vi[t] & 1) == 1 for t in grp}
            bal = sum(1 << lane[t] for t in grp if p[t] == then)
            sh = shuffle(vi, grp, lane, 32, "down" if then else "up", {t: 1 for t in grp})
            mask = sum(1 << lane[t] for t in grp)
            for t in grp:
                acc = sum(sum(1 for w in ws if trips[w] > k) for k in range(trips[t]))
                res[t] = [acc, bal, sh[t], trips_max, mask, lane[t]]
    wi32(out, "in_div.bin", vi)
    wi32(out, "exp_divergence.bin", [v for r in res for v in r])


def main():
    out, mode = sys.argv[1], sys.argv[2]
    globals()[mode](out)


if __name__ == "__main__":
    main()
