#!/usr/bin/env python3
"""gen_scalar.py OUTDIR WIDTH A1 B1 [A2 B2 ...] — expected results of tests/scalar/arith_iW.pto for each
(a, b) pair, computed with Python integers from the MLIR arith definitions plus the readings of
docs/semantics.md §4 (division by zero is not exercised here; MIN / -1 wraps; shifts >= width give 0 or
the sign fill). Writes exp_K.bin (K = 1, 2, ...), each a little-endian array of WIDTH-bit results in the
order the kernel stores them."""
import genlib as gl

words = gl.cli(__doc__, 2)
w = int(words[0])
vals = [int(v, 0) for v in words[1:]]


def u(x): return gl.zext(x, w)
def s(x): return gl.sext(x, w)


def tdiv(a, b):  # C-style truncating division on Python ints
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def results(a, b):
    sa, sb, ua, ub = s(a), s(b), u(a), u(b)
    r = []
    r.append(sa + sb)                      # addi
    r.append(sa - sb)                      # subi
    r.append(sa * sb)                      # muli
    mn = -(1 << (w - 1))
    r.append(mn if (sa == mn and sb == -1) else tdiv(sa, sb))          # divsi
    r.append(ua // ub)                     # divui
    r.append(0 if (sa == mn and sb == -1) else sa - tdiv(sa, sb) * sb)  # remsi
    r.append(ua % ub)                      # remui
    q = tdiv(sa, sb); rr = sa - q * sb
    r.append(mn if (sa == mn and sb == -1) else (q + 1 if rr != 0 and (rr > 0) == (sb > 0) else q))  # ceildivsi
    r.append(-(-ua // ub))                 # ceildivui
    r.append(mn if (sa == mn and sb == -1) else sa // sb)              # floordivsi (Python floors)
    r.append(ua & ub); r.append(ua | ub); r.append(ua ^ ub)
    sh = ub
    r.append(0 if sh >= w else ua << sh)   # shli
    r.append((-1 if sa < 0 else 0) if sh >= w else sa >> sh)           # shrsi
    r.append(0 if sh >= w else ua >> sh)   # shrui
    r.append(max(sa, sb)); r.append(min(sa, sb)); r.append(max(ua, ub)); r.append(min(ua, ub))
    r += [sa == sb, sa != sb, sa < sb, sa <= sb, sa > sb, sa >= sb, ua < ub, ua <= ub, ua > ub, ua >= ub]
    r.append(sa if sa < sb else sb)        # select(cmpi slt)
    return [u(int(x)) for x in r]


for k in range(len(vals) // 2):
    gl.save_ints("exp_%d.bin" % (k + 1), w, results(vals[2 * k], vals[2 * k + 1]))
