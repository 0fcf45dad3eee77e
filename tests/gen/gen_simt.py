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
  * float results are rounded once from exact rationals (fmodel.py); exp, log and pow from 80-digit
    decimals, sin and cos by the compiler's software steps in exactly rounded f32 arithmetic.

Modes: queries, collectives, divergence, atomics, math, convert, memory, barrier, keep, section, incaller.
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fmodel as fm  # noqa: E402
import genlib as gl  # noqa: E402
from fmodel import Fraction, fin, inf  # noqa: E402

M32 = 0xFFFFFFFF


sx = gl.sext


def write(out, name, fmt, vals):
    gl.save_vals(name, fmt, vals, out)


def wi32(out, name, vals):
    write(out, name, "I", [v & M32 for v in vals])


def files(out, table):
    """(name without .bin, struct code, values) rows; 32-bit values are masked."""
    for name, code, vals in table:
        write(out, name + ".bin", code, [v & M32 for v in vals] if code == "I" else vals)


def tids(dx, dy, dz):
    return [(t % dx, t // dx % dy, t // (dx * dy)) for t in range(dx * dy * dz)]


def warps(n):
    """Lists of linear ids per subgroup."""
    return [list(range(w, min(w + 32, n))) for w in range(0, n, 32)]


# ---------------------------------------------------------------- float helpers

def f_add(fmt, a, b):
    return fmt.add(a, b)


def f_minmax(fmt, a, b, want_max):
    """IEEE maxNum / minNum: a NaN operand is ignored, +0 above -0"""
    return fmt.maxnum(a, b) if want_max else fmt.minnum(a, b)


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
        fvals.append(fm.F32.encode(fin(Fraction(m) * Fraction(rnd.randint(1, 999), 100))))
    fvals[6] = 0x7FC00000          # NaN: ignored by max/min, poisons the sum
    fvals[40] = 0x80000000         # -0
    fvals[41] = 0x00000000         # +0
    hvals = [fm.F16.encode(fin(Fraction(rnd.randint(-300, 300), 8))) for _ in range(n)]
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
            fa = f_add(fm.F32, fa, fvals[t])
            fx = f_minmax(fm.F32, fx, fvals[t], True)
            fn = f_minmax(fm.F32, fn, fvals[t], False)
            ha = f_add(fm.F16, ha, hvals[t])
            hx = f_minmax(fm.F16, hx, hvals[t], True)
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


def atomics(out):
    rnd = random.Random(1403)
    n = 96
    vi = [rnd.getrandbits(32) for _ in range(n)]
    fv = [fm.F32.encode(fin(Fraction(rnd.choice([1, -1, 1000, 1e-3, 3e5])) * Fraction(rnd.randint(1, 10 ** 6), 7)))
          for _ in range(n)]
    fv[10] = 0x80000000
    fv[11] = 0x00000000
    fv[70] = 0x7FC00000
    hv = [fm.F16.encode(fin(Fraction(rnd.randint(-400, 400), 64))) for _ in range(n)]
    bv = [fm.BF16.encode(fin(Fraction(rnd.randint(-4000, 4000), 16))) for _ in range(n)]
    acc = [5, 1000, 0x80000005, 0xFFFFFFF0, 0xFFFFFFFF, 0, 0x12345678, 0xDEAD, 0, 0, 40, 0, 0, 0, 0, 0]
    facc = [fm.F32.encode(fin(Fraction(3, 2))), fm.F32.encode(inf(True)), fm.F32.encode(inf(False)), 0]
    hacc = [fm.F16.encode(fin(Fraction(1, 2))), 0, fm.F16.encode(fin(1)), fm.F16.encode(fin(-2)),
            fm.BF16.encode(fin(Fraction(5, 4))), fm.BF16.encode(fin(-100)), 0, 0]
    lacc = [1 << 40, 0]
    a, fa, ha, la = list(acc), list(facc), list(hacc), list(lacc)
    ub = 0
    res = []
    for t in range(n):
        v = vi[t]
        o = list(a[:10])
        a[0] = (a[0] + 3 * t + 1) & M32
        a[1] = (a[1] - v) & M32
        a[2] = max(sx(a[2], 32), sx(v, 32)) & M32
        a[3] = min(a[3], v)
        a[4] &= v
        a[5] |= 1 << (t % 32)
        a[6] ^= v
        a[7] = t
        if a[8] == t:
            a[8] = t + 1
        if a[9] == 0:
            a[9] = t + 100
        f0, f1, f2 = fa[0], fa[1], fa[2]
        fa[0] = f_add(fm.F32, fa[0], fv[t])
        fa[1] = f_minmax(fm.F32, fa[1], fv[t], True)
        fa[2] = f_minmax(fm.F32, fa[2], fv[t], False)
        h0 = ha[0]
        ha[0] = f_add(fm.F16, ha[0], hv[t])
        ha[2] = f_add(fm.F16, ha[2], hv[t])
        ha[3] = f_add(fm.F16, ha[3], hv[t])
        b0, b1 = ha[4], ha[5]
        ha[4] = f_add(fm.BF16, ha[4], bv[t])
        ha[5] = f_minmax(fm.BF16, ha[5], bv[t], True)
        l0 = la[0]
        la[0] = (la[0] + sx(v, 32)) & ((1 << 64) - 1)
        u0 = ub
        ub += 1
        res += o + [f0, f1, f2, h0 | (b0 << 16), l0 & M32, b1 | (u0 << 16)]
    a[10], a[11] = a[10] + 7, a[10]          # the scalar unit's atomic after the launch
    files(out, [("in_i", "I", vi), ("in_f", "I", fv), ("in_h", "H", hv), ("in_b", "H", bv), ("acc", "I", acc),
                ("facc", "I", facc), ("hacc", "H", hacc), ("lacc", "Q", lacc), ("exp_out", "I", res),
                ("exp_acc", "I", a), ("exp_facc", "I", fa), ("exp_hacc", "H", ha), ("exp_lacc", "Q", la),
                ("exp_ub", "I", [ub] + [0] * 7)])


# ---------------------------------------------------------------- math

def dec_of(v):
    return fm.dec(v.value())


def near_tie(fmt, d):
    """Is the exact value d within 2^-40 (relative) of a rounding boundary of fmt? (the reference keeps
    its inputs away from them: ptosim evaluates exp/log/pow in binary64, docs/semantics.md)"""
    x = Fraction(d)
    if x == 0:
        return False
    c = fmt.encode(fin(x))
    lo = fmt.decode(c & (fmt.sign - 1))
    for n in (c - 1, c + 1):
        w = fmt.decode(n & (fmt.sign - 1))
        if w.kind != "f" or lo.kind != "f":
            continue
        mid = (lo.mag + w.mag) / 2
        if abs(abs(x) - mid) <= abs(x) / 2 ** 40:
            return True
    return False


def m_exp(fmt, a):
    return fm.f_exp_of(fmt, fmt.decode(a))


def m_log(fmt, a):
    return fm.f_ln(fmt, fmt.decode(a))


m_pow = fm.f_pow


def m_unary(fmt, op, a):
    v = fmt.decode(a)
    if op == "abs":
        return fmt.abs(a)
    if op == "sqrt":
        return fm.f_sqrt(fmt, v)
    if op == "exp":
        return m_exp(fmt, a)
    if op == "log":
        return m_log(fmt, a)
    mode = {"ceil": "C", "floor": "F", "rint": "R", "round": "A"}[op]
    if v.isnan():
        return fmt.cnan
    if v.isinf():
        return a
    return fmt.encode(fm.round_integral(v, mode))


def m_fma(fmt, a, b, c):
    return fmt.fma(a, b, c)


class F32Ops:
    """f32 arithmetic of the compiler's software sin/cos, each step rounded once."""
    F = fm.F32

    def add(self, a, b):
        return self.F.add(a, b)

    def sub(self, a, b):
        return self.F.sub(a, b)

    def mul(self, a, b):
        return self.F.mul(a, b)

    def fma(self, a, b, c):
        return self.F.fma(a, b, c)

    def k(self, d):
        return self.F.encode(fin(Fraction(d)))

    def round(self, a):
        v = self.F.decode(a)
        return a if v.kind != "f" else self.F.encode(fm.round_integral(v, "A"))

    def eq(self, a, b):
        return self.F.cmpf(a, b, "oeq")

    def lt(self, a, b):
        return self.F.cmpf(a, b, "olt")


def m_sincos(a, want_cos):
    o = F32Ops()
    q = o.round(o.mul(a, o.k(0.6366197723675814)))
    x = o.sub(a, o.mul(q, o.k(1.5707963267948966)))
    quad = o.sub(q, o.mul(o.k(4.0), o.round(o.mul(q, o.k(0.25)))))
    if o.lt(quad, 0):
        quad = o.add(quad, o.k(4.0))
    x2 = o.mul(x, x)
    p = o.k(-1.0 / 6227020800.0)
    for c in (1.0 / 39916800.0, -1.0 / 362880.0, 1.0 / 5040.0, -1.0 / 120.0, 1.0 / 6.0):
        p = o.fma(p, x2, o.k(c))
    s = o.sub(x, o.mul(o.mul(x, x2), p))
    cp = o.k(-1.0 / 87178291200.0)
    for c in (1.0 / 479001600.0, -1.0 / 3628800.0, 1.0 / 40320.0, -1.0 / 720.0, 1.0 / 24.0, -1.0 / 2.0, 1.0):
        cp = o.fma(cp, x2, o.k(c))
    ns, nc = o.sub(0, s), o.sub(0, cp)
    q1, q2, q3 = o.eq(quad, o.k(1)), o.eq(quad, o.k(2)), o.eq(quad, o.k(3))
    if want_cos:
        r = ns if q1 else nc if q2 else s if q3 else cp
    else:
        r = cp if q1 else ns if q2 else nc if q3 else s
    return fm.F32.cnan if fm.F32.decode(r).isnan() else r


SPECIAL = [0x7FC00000, 0xFFC00001, 0x7F800000, 0xFF800000, 0x00000000, 0x80000000, 0x3F800000, 0xBF800000,
           0x3F000000, 0x40200000, 0xC0200000, 0x3FC00000, 0xBF000000, 0x7F7FFFFF, 0x00000005, 0x80800000,
           0x40490FDB, 0xC0400000, 0x41200000, 0x3E800000]


def rand_f(rnd, fmt, lo, hi):
    while True:
        e = rnd.randint(lo, hi)
        m = Fraction(rnd.randint(1 << 20, 1 << 21), 1 << 20)
        c = fmt.encode(fin(m * Fraction(2) ** e * rnd.choice([1, -1])))
        if fmt.decode(c).kind == "f" and not fmt.decode(c).iszero():
            return c


def safe_f(rnd, fmt, lo, hi, check):
    """a random value whose exp/log/pow results are not near a rounding boundary"""
    while True:
        c = rand_f(rnd, fmt, lo, hi)
        if check(c):
            return c


def exp_ok(fmt, c):
    v = fmt.decode(c)
    if v.kind != "f":
        return True
    d = dec_of(v)
    if d > 80 or d < -80:
        return True
    return not near_tie(fmt, d.exp())


def log_ok(fmt, c):
    v = fmt.decode(c)
    return v.kind != "f" or v.iszero() or v.neg or v.mag == 1 or not near_tie(fmt, fm.dec(v.mag).ln())


def pow_ok(fmt, a, b):
    x, y = fmt.decode(a), fmt.decode(b)
    if x.kind != "f" or y.kind != "f" or x.iszero() or x.neg:
        return True
    e = fm.dec(y.value()) * fm.dec(x.mag).ln()
    return abs(e) > 80 or not near_tie(fmt, e.exp())


def conv(fmt_to, c32):
    return fm.F32.convert(c32, fmt_to)


def math(out):
    rnd = random.Random(1404)
    n = 64
    F32, F16, BF16 = fm.F32, fm.F16, fm.BF16
    fin_, hin, bin_ = [], [], []
    for t in range(n):
        if t < len(SPECIAL):
            a = SPECIAL[t]
            b = SPECIAL[(t * 7 + 3) % len(SPECIAL)]
            c = SPECIAL[(t * 5 + 1) % len(SPECIAL)]
        else:
            ok = lambda x, f=F32: exp_ok(f, x) and log_ok(f, x)   # noqa: E731
            a = safe_f(rnd, F32, -6, 6, ok)
            b = rand_f(rnd, F32, -3, 3) if t % 3 else F32.encode(fin(rnd.randint(-5, 5)))
            while not pow_ok(F32, a, b) or not pow_ok(F32, a & 0x7FFFFFFF, b):
                b = rand_f(rnd, F32, -3, 3)
            c = rand_f(rnd, F32, -8, 8)
        fin_ += [a, b, c]
        # f16 / bf16 inputs: the f32 inputs rounded, resampled where exp/log/pow would be near a tie
        ha, hb, hc = conv(F16, a), conv(F16, b), conv(F16, c)
        while not (exp_ok(F16, ha) and log_ok(F16, ha) and pow_ok(F16, ha, hb)):
            ha = rand_f(rnd, F16, -4, 4)
        hin += [ha, hb, hc]
        bin_ += [conv(BF16, a), conv(BF16, b), conv(BF16, c)]
    h2 = [(hin[(3 * t + k) % (3 * n)] | hin[(3 * t + k + 5) % (3 * n)] << 16) for t in range(n) for k in range(3)]
    b2 = [(bin_[(3 * t + k) % (3 * n)] | bin_[(3 * t + k + 7) % (3 * n)] << 16) for t in range(n) for k in range(3)]
    iin = []
    for t in range(n):
        iin += [rnd.getrandbits(32), rnd.getrandbits(32), rnd.getrandbits(16)]
    iin[0:3] = [0x80000000, 0x80000000, 0x3210]
    iin[3:6] = [0xFFFFFFFF, 2, 0xFFFF]
    lin = [rnd.getrandbits(64) for _ in range(2 * n)]
    lin[0:2] = [(1 << 64) - 1, 2]
    lin[2:4] = [1 << 63, 1 << 63]
    ef, eh, eb, ep, ei = [], [], [], [], []
    for t in range(n):
        a, b, c = fin_[3 * t:3 * t + 3]
        ef += [m_unary(F32, "abs", a), m_unary(F32, "sqrt", a), m_unary(F32, "exp", a), m_unary(F32, "log", a),
               m_sincos(a, False), m_sincos(a, True), m_pow(F32, a, b), m_unary(F32, "ceil", a),
               m_unary(F32, "floor", a), m_unary(F32, "rint", a), m_unary(F32, "round", a),
               f_minmax(F32, a, b, False), f_minmax(F32, a, b, True), m_fma(F32, a, b, c)]
        a, b, c = hin[3 * t:3 * t + 3]
        eh += [m_unary(F16, op, a) for op in ("abs", "sqrt", "exp", "log")] + [m_pow(F16, a, b)]
        eh += [m_unary(F16, op, a) for op in ("ceil", "floor", "rint", "round")]
        eh += [f_minmax(F16, a, b, False), f_minmax(F16, a, b, True), m_fma(F16, a, b, c)]
        a, b, c = bin_[3 * t:3 * t + 3]
        eb += [m_unary(BF16, op, a) for op in ("ceil", "floor", "rint", "round")]
        eb += [f_minmax(BF16, a, b, False), f_minmax(BF16, a, b, True), m_fma(BF16, a, b, c)]

        def lanes(fmt, f, *xs):
            return f(fmt, *[x & 0xFFFF for x in xs]) | f(fmt, *[x >> 16 for x in xs]) << 16
        pa, pb, pc = h2[3 * t:3 * t + 3]
        ep += [lanes(F16, lambda f, x, op=op: m_unary(f, op, x), pa) for op in ("abs", "sqrt", "exp", "log")]
        ep += [lanes(F16, m_pow, pa, pb), lanes(F16, lambda f, x, y: f_minmax(f, x, y, False), pa, pb),
               lanes(F16, lambda f, x, y: f_minmax(f, x, y, True), pa, pb), lanes(F16, m_fma, pa, pb, pc)]
        qa, qb, qc = b2[3 * t:3 * t + 3]
        ep += [lanes(BF16, lambda f, x: m_unary(f, "abs", x), qa),
               lanes(BF16, lambda f, x, y: f_minmax(f, x, y, False), qa, qb),
               lanes(BF16, lambda f, x, y: f_minmax(f, x, y, True), qa, qb), lanes(BF16, m_fma, qa, qb, qc)]
        ia, ib, sel = iin[3 * t:3 * t + 3]
        src = ib | ia << 32
        prmt = sum(((src >> (8 * ((sel >> (4 * k)) & 7))) & 0xFF) << (8 * k) for k in range(4))
        sa, sb = sx(ia, 32), sx(ib, 32)
        ws, wu = (sa * sb) & ((1 << 64) - 1), ia * ib
        la, lb = lin[2 * t:2 * t + 2]
        hs = ((sx(la, 64) * sx(lb, 64)) >> 64) & ((1 << 64) - 1)
        hu = (la * lb) >> 64
        ei += [prmt, ((sa * sb) >> 32) & M32, (ia * ib) >> 32]
        for w in (ws, wu, hs, hu):
            ei += [w & M32, w >> 32]
        ei.append(0)
    files(out, [("fin", "I", fin_), ("hin", "H", hin), ("bin", "H", bin_), ("h2in", "I", h2), ("b2in", "I", b2),
                ("iin", "I", iin), ("lin", "Q", lin), ("exp_f", "I", ef), ("exp_h", "H", eh), ("exp_b", "H", eb),
                ("exp_p", "I", ep), ("exp_i", "I", ei)])


# ---------------------------------------------------------------- convert

def c_i2f(fmt, x, rm, sat):
    c = fmt.encode(fin(x), rm)
    if sat and fmt.decode(c).isinf():
        c = (c & fmt.sign) | fmt.max_code
    return c


def c_f2f(sf, df, c, rm, sat):
    v = sf.decode(c)
    if v.kind != "f":
        return df.encode(v)
    return df.encode(v, rm, sat)


def convert(out):
    rnd = random.Random(1405)
    n = 64
    F32, F16, BF16 = fm.F32, fm.F16, fm.BF16
    spec = [0x7FC00000, 0x7F800000, 0xFF800000, 0x80000000, 0x3F000000, 0x40200000, 0xC0200000, 0x477FF000,
            0x47800000, 0x4F000000, 0xCF000001, 0x5F000000, 0xDF000000, 0x3F800001, 0x33800000, 0x3E2AAAAB]
    iv = [0x7FFFFFFF, 0x80000000, 0x01000001, 0xFEFFFFFF, 0x0001FFF0, 0xFFFFFFFF, 65519, 65520] + \
        [rnd.getrandbits(32) >> rnd.randint(0, 31) for _ in range(n - 8)]
    lv = [(1 << 63) - 1, 1 << 63, (1 << 53) + 1, 3] + [rnd.getrandbits(64) >> rnd.randint(0, 63) for _ in range(n - 4)]
    fv = []
    for t in range(2 * n):
        if t < len(spec):
            fv.append(spec[t])
        else:
            fv.append(rand_f(rnd, F32, -20, 40) if t % 5 else F32.encode(fin(Fraction(rnd.randint(-9, 9), 2))))
    hv = [F16.encode(F32.decode(c)) for c in fv]
    bv = [BF16.encode(F32.decode(c)) for c in fv]
    hv[3] = 0x7BFF                     # f16 max: f16 -> bf16 rounding
    res = []
    for t in range(n):
        i, l, f, h, b = iv[t], lv[t], fv[2 * t], hv[2 * t], bv[2 * t]
        si = sx(i, 32)
        r = [c_i2f(F32, si, m, False) for m in "RAFCZ"]
        r += [c_i2f(F32, i, "Z", False), c_i2f(F16, si, "R", False), c_i2f(F16, i, "C", True), c_i2f(BF16, si, "F", False),
              c_i2f(F32, sx(l, 64), "R", False)]
        r += [fm.to_int(F32.decode(f), m, 32, True) for m in "RAFCZ"]
        r += [fm.to_int(F32.decode(f), "Z", 32, False), fm.to_int(F16.decode(h), "R", 32, True),
              fm.to_int(BF16.decode(b), "A", 32, True)]
        w = fm.to_int(F32.decode(f), "Z", 64, True)
        r += [w & M32, w >> 32]
        r += [c_f2f(F32, F16, f, "R", False), c_f2f(F32, F16, f, "O", False), c_f2f(F32, F16, f, "Z", True),
              c_f2f(F32, BF16, f, "C", False), c_f2f(F16, F32, h, "R", False), c_f2f(BF16, F32, b, "R", False),
              c_f2f(F16, BF16, h, "R", False)]
        lanes = fv[2 * t:2 * t + 2]

        def pk(df, rm, bits):
            return c_f2f(F32, df, lanes[0], rm, False) | c_f2f(F32, df, lanes[1], rm, False) << bits
        e4, e5, hf = pk(fm.E4M3, "R", 8), pk(fm.E5M2, "R", 8), pk(fm.HIF8, "A", 8)
        r += [pk(F16, "O", 16), pk(BF16, "A", 16), e4, e5, hf]
        for sf, code, bits in ((F16, hv[2 * t] | hv[2 * t + 1] << 16, 16), (BF16, bv[2 * t] | bv[2 * t + 1] << 16, 16),
                               (fm.E4M3, e4, 8), (fm.HIF8, hf, 8)):
            rm = "Z" if sf is fm.HIF8 else "R"
            r += [c_f2f(sf, F32, code & ((1 << bits) - 1), rm, False), c_f2f(sf, F32, code >> bits, rm, False)]
        assert len(r) == 40
        res += r
    wi32(out, "civ.bin", iv)
    write(out, "clv.bin", "Q", lv)
    wi32(out, "cfv.bin", fv)
    write(out, "chv.bin", "H", hv)
    write(out, "cbv.bin", "H", bv)
    wi32(out, "exp_convert.bin", res)


def memory(out):
    rnd = random.Random(1406)
    src = bytes(rnd.getrandbits(8) for _ in range(64))
    ub = bytearray(512)
    res = bytearray(256)
    for t in range(8):
        b = 64 * t
        ub[b + 1] = src[3 * t]
        ub[b + 2:b + 4] = src[2 * t:2 * t + 2]
        ub[b + 4:b + 8] = src[4 * t:4 * t + 4]
        ub[b + 8:b + 16] = src[8 * t:8 * t + 8]
        ub[b + 16:b + 24] = src[8 * t:8 * t + 8]
        ub[b + 24:b + 28] = src[4 * t:4 * t + 4]
        ub[b + 28:b + 32] = src[4 * t:4 * t + 4]
        o = 32 * t
        res[o:o + 4] = ub[b:b + 4]
        res[o + 8:o + 16] = ub[b + 16:b + 24]
        res[o + 16:o + 18] = ub[b + 28:b + 30]
        res[o + 20:o + 24] = ub[b + 24:b + 28]
    for name, data in (("min.bin", src), ("exp_mem_out.bin", res), ("exp_mem_ub.bin", ub)):
        gl.save(name, data, out)


def barrier(out):
    rnd = random.Random(1407)
    vi = [rnd.getrandbits(32) for _ in range(64)]
    ub = list(vi)
    for k in range(6):
        s = 32 >> k
        ub = [(ub[t] + ub[t + s]) & M32 if t < s else ub[t] for t in range(64)]
    wi32(out, "bin.bin", vi)
    wi32(out, "exp_barrier.bin", ub)
    wi32(out, "exp_neighbour.bin", [(t + 1) % 40 for t in range(40)])


def keep(out):
    res = []
    for t in range(48):
        a, w = 3 * t, (t << 40) | t
        h = fm.F16.encode(fin(t))
        b = t & 0xFF
        bf = fm.BF16.encode(fin(a))
        a = (a + (w & M32)) & M32
        w = (w * 7) & ((1 << 64) - 1)
        h = f_add(fm.F16, h, h)
        res += [a, w & M32, w >> 32, h, sx(b, 8) & M32, bf]
    wi32(out, "exp_keep.bin", res)


def section(out):
    o = F32Ops()
    scale = o.k(0.375)
    res, res2 = [], []
    for t in range(64):
        a = o.mul(o.k(t), scale)
        res.append(o.add(a, o.add(a, a)))
        res2.append(t + t % 32)
    wi32(out, "exp_section.bin", res)
    wi32(out, "exp_section2.bin", res2)


def incaller(out):
    """config_in_caller.pto: 8 workitems (configured by the caller) store their tid x at out[tid]; 16 slots"""
    wi32(out, "exp_incaller.bin", list(range(8)) + [0] * 8)


MODES = {f.__name__: f for f in (queries, collectives, divergence, atomics, math, convert, memory, barrier, keep,
                                  section, incaller)}


if __name__ == "__main__":
    gl.main({k: (lambda f=f: f(gl.OUT)) for k, f in MODES.items()}, __doc__)
