#!/usr/bin/env python3
"""gen_diff.py — random *valid* kernels for the differential tests of the simulator (tests/diff).

    python3 tests/gen/gen_diff.py SEED [OUT.pto]        one kernel (stdout without OUT) + its input file

Plain Python (standard library); it never calls ptosim. A kernel is built from the seed alone:

  MTE2  one `mte_gm_ub` (random burst count, length, GM and UB strides, optional right padding, optional
        outer loop group) fills UB region A from the input;
  V     a vector scope loops over A in whole registers, with a tail mask from `plt_b*` on a random element
        count; each step loads one or two registers (the second at a random lane offset), evaluates a random
        expression of 1-5 element-wise ops (binary, vector-scalar, unary; masked or not) and stores the result
        to region C under the tail mask; or (4 seeds in 10) a streaming loop: one or two loads (the second of
        the same row or of a fixed one), one binary or vector-scalar op and a store, all under an all-lanes
        mask, stepping one or two registers a trip;
  MTE3  one `mte_ub_gm` (random bursts) copies C to the output;
  flags order MTE2 -> V -> MTE3 (set_flag/wait_flag), a final barrier ends the kernel.

Seeds divisible by 5 give a SIMT launch instead (simt_kernel: random scalar arithmetic, a divergent scf.if, a
uniform loop, f32 math, a UB exchange across pto.syncthreads), which exercises the lockstep path against the
per-workitem one under --no-fast-paths.

Every address stays inside its buffer, every op takes the element kind it is given (no verifier error).
The kernels are judged only against themselves: the same kernel must give identical output bytes under
every run variant of tests/diff/test_diff.py (race detector on/off, sanitizer off, the canonical and the
generic printed form, blocks on one or several threads).
"""
import random, sys

IN_BYTES = 16384     # the input buffer (random bytes)
OUT_BYTES = 8192     # the output buffer
UB_A, UB_C = 0, 65536
A_MAX = 32768        # bytes of region A the DMA may fill (and the vector loop may read)

# element kind: (type, bytes, mask granularity, float?, scalar constants)
KINDS = {
    "f32": ("f32", 4, "b32", True, ["1.5", "-0.25", "3.0e+02", "0.0"]),
    "f16": ("f16", 2, "b16", True, ["1.5", "-2.0", "0.125", "6.0e+01"]),
    "i32": ("i32", 4, "b32", False, ["3", "-7", "65537", "0"]),
    "i16": ("i16", 2, "b16", False, ["5", "-300", "1", "255"]),
    "i8": ("i8", 1, "b8", False, ["3", "-5", "100", "1"]),
}
BIN = ["vadd", "vsub", "vmul", "vmax", "vmin"]
BIN_INT = ["vand", "vor", "vxor"]
SCALAR = ["vadds", "vmuls", "vmaxs", "vmins"]
UNARY = ["vabs", "vneg", "vrelu"]
UNARY_FLOAT = ["vexp"]


SIMT_OPS = ["addi", "subi", "muli", "andi", "ori", "xori"]


def simt_kernel(seed):
    """A SIMT launch (seeds divisible by 5): N workitems (32..256, not always a power of two) each read in[t] and
    fold it through random i32 arithmetic with its id and constants, a divergent scf.if (on an id threshold or on
    the value's low bit) that yields a value, a uniform loop with an iteration argument, some f32 math through
    bitcasts; then each stores to UB[t], a pto.syncthreads, each reads its neighbour's UB[(t + s) mod N] and a
    broadcast UB[0], and writes out[t]. No two workitems touch the same bytes between two barriers (race-free), so
    the lockstep path (uniform values kept once, threshold splits, scattered loads mapped once) and the
    per-workitem path (--no-fast-paths) must give the same bytes."""
    r = random.Random(seed * 31337 + 5)
    n = r.choice([32, 64, 96, 128, 160, 256])
    L = ['module attributes {pto.target_arch = "a5"} {',
         '  func.func @kernel(%in: !pto.ptr<i32, gm>, %out: !pto.ptr<i32, gm>) attributes {pto.kernel} {',
         '    %%dx = arith.constant %d : i32' % n,
         '    %one = arith.constant 1 : i32',
         '    %z64 = arith.constant 0 : i64',
         '    %ub = pto.castptr %z64 : i64 -> !pto.ptr<i32, ub>',
         '    pto.simt_launch @body<<<%dx, %one, %one>>>(%in, %out, %ub)',
         '      : (!pto.ptr<i32, gm>, !pto.ptr<i32, gm>, !pto.ptr<i32, ub>) -> ()',
         '    pto.barrier #pto.pipe<PIPE_ALL>',
         '    return',
         '  }',
         '  func.func @body(%in: !pto.ptr<i32, gm>, %out: !pto.ptr<i32, gm>, %ub: !pto.ptr<i32, ub>) attributes {pto.simt_entry} {',
         '    %tid = pto.get_tid_x : i32',
         '    %t = arith.index_castui %tid : i32 to index',
         '    %c0 = arith.constant 0 : index',
         '    %c1 = arith.constant 1 : index',
         '    %%cn = arith.constant %d : index' % n,
         '    %x = pto.ldg %in[%t] : !pto.ptr<i32, gm> -> i32']
    vals = ["%x", "%tid"]
    k = [0]

    def new():
        k[0] += 1
        return "%%v%d" % k[0]

    def const():
        v = new()
        L.append("    %s = arith.constant %d : i32" % (v, r.choice([0, 1, 3, -7, 255, 65537, -2147483648, 12345])))
        return v

    def arith(body):
        a = r.choice(vals)
        b = r.choice(vals) if r.random() < 0.6 else const()
        v = new()
        if r.random() < 0.2:
            sh = new()
            L.append("    %s = arith.constant %d : i32" % (sh, r.randrange(0, 31)))
            L.append("    %s = arith.%s %s, %s : i32" % (v, r.choice(["shli", "shrui", "shrsi"]), a, sh))
        else:
            L.append("    %s = arith.%s %s, %s : i32" % (v, r.choice(SIMT_OPS), a, b))
        body.append(v)
        return v

    for _ in range(r.randrange(2, 6)):
        vals.append(arith(vals))
    # a divergent scf.if yielding a value
    if r.random() < 0.8:
        c = new()
        if r.random() < 0.5:
            L.append("    %%th%d = arith.constant %d : index" % (k[0], r.randrange(0, n + 8)))
            L.append("    %s = arith.cmpi %s, %%t, %%th%d : index" % (c, r.choice(["ult", "ule", "ugt", "uge", "slt", "sgt", "eq", "ne"]), k[0]))
        else:
            one = new()
            lo = new()
            L.append("    %s = arith.constant 1 : i32" % one)
            L.append("    %s = arith.andi %s, %s : i32" % (lo, r.choice(vals), one))
            L.append("    %s = arith.cmpi eq, %s, %s : i32" % (c, lo, one))
        res = new()
        L.append("    %s = scf.if %s -> (i32) {" % (res, c))
        inner = []
        saved = len(vals)
        for _ in range(r.randrange(1, 3)):
            vals.append(arith(inner))
        L.append("      scf.yield %s : i32" % vals[-1])
        del vals[saved:]
        L.append("    } else {")
        inner = []
        for _ in range(r.randrange(1, 3)):
            vals.append(arith(inner))
        L.append("      scf.yield %s : i32" % vals[-1])
        del vals[saved:]
        L.append("    }")
        vals.append(res)
    # a uniform loop with an iteration argument
    if r.random() < 0.7:
        trips = r.randrange(0, 5)
        ub = new()
        acc = new()
        L.append("    %s = arith.constant %d : index" % (ub, trips))
        L.append("    %s = scf.for %%i%d = %%c0 to %s step %%c1 iter_args(%%a%d = %s) -> (i32) {" % (acc, k[0], ub, k[0], r.choice(vals)))
        ii = new()
        s2 = new()
        L.append("      %s = arith.index_cast %%i%d : index to i32" % (ii, int(acc[2:])))
        L.append("      %s = arith.%s %%a%d, %s : i32" % (s2, r.choice(["addi", "xori", "muli"]), int(acc[2:]), ii))
        L.append("      scf.yield %s : i32" % s2)
        L.append("    }")
        vals.append(acc)
    # f32 math through bitcasts
    if r.random() < 0.6:
        fa, fb, fr, fi = new(), new(), new(), new()
        L.append("    %s = arith.bitcast %s : i32 to f32" % (fa, r.choice(vals)))
        L.append("    %s = arith.bitcast %s : i32 to f32" % (fb, r.choice(vals)))
        L.append("    %s = arith.%s %s, %s : f32" % (fr, r.choice(["addf", "subf", "mulf", "divf"]), fa, fb))
        L.append("    %s = arith.bitcast %s : f32 to i32" % (fi, fr))
        vals.append(fi)
    # UB exchange across a barrier, a broadcast read, the output
    mine = vals[-1]
    s = r.randrange(1, n)
    L += ["    pto.store %s, %%ub[%%t] : !pto.ptr<i32, ub>, i32" % mine,
          "    pto.syncthreads",
          "    %%cs = arith.constant %d : index" % s,
          "    %ts = arith.addi %t, %cs : index",
          "    %tn = arith.remui %ts, %cn : index",
          "    %nb = pto.load %ub[%tn] : !pto.ptr<i32, ub> -> i32",
          "    %b0 = pto.load %ub[%c0] : !pto.ptr<i32, ub> -> i32",
          "    %m1 = arith.xori %nb, %b0 : i32",
          "    %%m2 = arith.addi %%m1, %s : i32" % r.choice(vals),
          "    %%cw = arith.constant %d : index" % (OUT_BYTES // 4),
          "    %%reps = arith.constant %d : index" % ((OUT_BYTES // 4 + n - 1) // n),
          "    scf.for %j = %c0 to %reps step %c1 {",
          "      %jn = arith.muli %j, %cn : index",
          "      %o = arith.addi %t, %jn : index",
          "      %inb = arith.cmpi ult, %o, %cw : index",
          "      scf.if %inb {",
          "        %jj = arith.index_cast %j : index to i32",
          "        %w = arith.addi %m2, %jj : i32",
          "        pto.stg %w, %out[%o] : !pto.ptr<i32, gm>, i32",
          "      }",
          "    }",
          "    return",
          "  }",
          "}"]
    data = bytes(r.getrandbits(8) for _ in range(IN_BYTES))
    return "\n".join(L) + "\n", data


def kernel(seed):
    """Returns (text, input bytes) of kernel SEED."""
    if seed % 5 == 0:
        return simt_kernel(seed)
    r = random.Random(seed)
    name = r.choice(sorted(KINDS))
    ty, esz, gran, is_float, consts = KINDS[name]
    lanes = 256 // esz
    vt, mt = "!pto.vreg<%dx%s>" % (lanes, ty), "!pto.mask<%s>" % gran
    consts_i64 = set()

    def c64(v):
        consts_i64.add(v)
        return "%%c%d_i64" % v

    # ---- MTE2: bursts into region A
    n = r.randint(1, 8)
    length = r.choice([r.randint(1, 256), 32 * r.randint(1, 8), esz * r.randint(1, 64)])
    ub_stride = 32 * ((length + 31) // 32 + r.randint(0, 2))
    gm_stride = length + r.choice([0, 0, r.randint(1, 300)])
    loops = r.random() < 0.4
    lc = r.randint(2, 3) if loops else 1
    l_gm = n * gm_stride + r.randint(0, 200)
    l_ub = 32 * ((n * ub_stride + 31) // 32 + r.randint(0, 1))
    while lc > 1 and ((lc - 1) * l_gm + (n - 1) * gm_stride + length > IN_BYTES or (lc - 1) * l_ub + n * ub_stride > A_MAX):
        lc -= 1
    if lc == 1:
        loops = False
    pad = r.random() < 0.4
    pad_value = r.choice(consts)
    span = (lc - 1) * l_ub + n * ub_stride if loops else n * ub_stride
    # the vector loop reads whole registers of A: round the region up
    regs = max(1, (span + 255) // 256)
    elems = r.randint(1, regs * lanes)
    off2 = r.choice([0, r.randint(0, lanes - 1)])      # second load: lane offset into A
    a_regs = regs + (1 if off2 else 0)

    # ---- the expression
    names = ["%x"]
    body = []
    want_y = r.random() < 0.6
    if want_y:
        names.append("%y")
    k = r.randint(1, 5)
    scal = []
    for i in range(k):
        masked = r.random() < 0.5
        mtail = (", %m", ", " + mt) if masked else ("", "")
        res = "%%t%d" % i
        choice = r.random()
        if choice < 0.45:
            op = r.choice([o for o in BIN if not (o == "vmul" and esz == 1)] + ([] if is_float else BIN_INT))
            a, b = r.choice(names), r.choice(names)
            body.append("%s = pto.%s %s, %s%s : %s, %s%s -> %s" % (res, op, a, b, mtail[0], vt, vt, mtail[1], vt))
        elif choice < 0.7:
            op = r.choice([o for o in SCALAR if not (o == "vmuls" and esz == 1)])   # no 8-bit multiply in the ISA
            s = "%%s%d" % len(scal)
            scal.append((s, r.choice(consts)))
            body.append("%s = pto.%s %s, %s%s : %s, %s%s -> %s" % (res, op, r.choice(names), s, mtail[0], vt, ty, mtail[1], vt))
        else:
            op = r.choice(UNARY + (UNARY_FLOAT if is_float else []))
            if op == "vexp":        # the ISA form takes a mask
                mtail = (", %m", ", " + mt)
            body.append("%s = pto.%s %s%s : %s%s -> %s" % (res, op, r.choice(names), mtail[0], vt, mtail[1], vt))
        names.append(res)
    result = names[-1]

    # ---- a reduction, a broadcast or vexpdif after the expression (a third generator: the draws above are
    # unchanged); their fast handlers (vec_alu_red_fast.c) are compared with --no-fast-paths
    rr = random.Random(seed * 104729 + 3)
    if rr.random() < (0.9 if name in ("f32", "f16") else 0.4):
        red_ops = (["vdup"] + (["vcadd", "vcgadd", "vcpadd", "vcmax", "vcmin", "vcgmax", "vcgmin"] if name in ("f32", "f16") else []) +
                   (["vexpdif"] if name == "f32" else []))
        op = rr.choice(red_ops)
        src = rr.choice(names[1:] or names)
        if op == "vexpdif":
            body.append("%%red = pto.vexpdif %s, %s, %%m : %s, %s, %s -> %s" % (src, rr.choice(names), vt, vt, mt, vt))
        elif op == "vdup":
            pos = ' {position = "HIGHEST"}' if rr.random() < 0.5 else ""
            body.append("%%red = pto.vdup %s, %%m%s : %s, %s -> %s" % (src, pos, vt, mt, vt))
        elif rr.random() < 0.7:
            body.append("%%red = pto.%s %s, %%m : %s, %s -> %s" % (op, src, vt, mt, vt))
        else:
            body.append("%%red = pto.%s %s : %s -> %s" % (op, src, vt, vt))
        names.append("%red")
        result = "%red"

    # ---- float division, square root, log, reciprocal and the scalar unit's f32 arithmetic (a fourth
    # generator: the draws above are unchanged). The scalar chain starts from the loop's remaining-element
    # count, so it differs every trip, and feeds a vector-scalar op: it reaches the scalar f32 fast path
    # (num_f32_arith_rn) that --no-fast-paths replaces by the reference handler.
    rq = random.Random(seed * 15485863 + 11)
    pre = []
    if is_float and rq.random() < 0.6:
        src = rq.choice(names)
        op = rq.choice(["vdiv", "vsqrt", "vln", "vrec"])
        if op == "vdiv":
            body.append("%%fq = pto.vdiv %s, %s, %%m : %s, %s, %s -> %s" % (src, rq.choice(names), vt, vt, mt, vt))
        else:
            body.append("%%fq = pto.%s %s, %%m : %s, %s -> %s" % (op, src, vt, mt, vt))
        names.append("%fq")
        result = "%fq"
    if name == "f32" and rq.random() < 0.6:
        pre.append("%q0 = arith.sitofp %left : i32 to f32")
        for j in range(rq.randint(1, 4)):
            c = "%%qs%d" % j
            scal.append((c, rq.choice(consts[:3])))
            a, b = ("%%q%d" % j, c) if rq.random() < 0.5 else (c, "%%q%d" % j)
            pre.append("%%q%d = arith.%s %s, %s : f32" % (j + 1, rq.choice(["addf", "subf", "mulf", "divf"]), a, b))
        q = "%%q%d" % (len(pre) - 1)
        body.append("%%sq = pto.%s %s, %s : %s, %s -> %s" % (rq.choice(["vadds", "vmuls", "vmaxs"]), result, q, vt, ty, vt))
        names.append("%sq")
        result = "%sq"

    # ---- a streaming loop instead of the expression (a separate generator: the draws above are unchanged)
    rs = random.Random(seed * 7919 + 17)
    stream = None
    if rs.random() < 0.4:
        sop = rs.choice([o for o in BIN if not (o == "vmul" and esz == 1)] + ([] if is_float else BIN_INT) +
                        [o for o in SCALAR if not (o == "vmuls" and esz == 1)])
        s2 = None if rs.random() < 0.7 else rs.randrange(regs) * lanes   # second load: the same row, or a fixed one
        stream = (sop, s2, lanes * rs.choice([1, 1, 2]))
        if sop in SCALAR and not scal:
            scal.append(("%s0", rs.choice(consts)))
        elif sop in SCALAR:
            scal[0] = ("%s0", scal[0][1])

    # ---- MTE3: C to the output in bursts
    c_bytes = regs * 256
    on = r.randint(1, 8)
    olen = max(1, min(c_bytes // on, r.choice([32 * r.randint(1, 8), r.randint(1, 512)])))
    o_ub_stride = 32 * ((olen + 31) // 32)
    while on > 1 and (on - 1) * o_ub_stride + olen > c_bytes:
        on -= 1
    o_gm_stride = olen + r.choice([0, r.randint(0, 64)])
    while on > 1 and (on - 1) * o_gm_stride + olen > OUT_BYTES:
        on -= 1
    olen = min(olen, OUT_BYTES)

    # ---- text
    L = []
    L.append("// gen_diff.py seed %d: %s, MTE2 %d x %d B (GM stride %d, UB stride %d%s%s), %d vector steps over %d "
             "elements, MTE3 %d x %d B" % (seed, ty, n, length, gm_stride, ub_stride, ", pad" if pad else "",
                                            ", loop %d" % lc if loops else "", regs, elems, on, olen))
    L.append('module attributes {pto.target_arch = "a5"} {')
    L.append("  func.func @diff(%%in: !pto.ptr<%s, gm>, %%out: !pto.ptr<%s, gm>) attributes {pto.kernel} {" % (ty, ty))
    for v in (0, length, n, gm_stride, ub_stride, UB_C, olen, on, o_gm_stride, o_ub_stride, lc, l_gm, l_ub):
        c64(v)
    for v in sorted(consts_i64):
        L.append("    %%c%d_i64 = arith.constant %d : i64" % (v, v))
    L.append("    %c0 = arith.constant 0 : index")
    L.append("    %%cl = arith.constant %d : index" % lanes)
    L.append("    %%cend = arith.constant %d : index" % (regs * lanes))
    L.append("    %%coff = arith.constant %d : index" % off2)
    if stream:
        L.append("    %%cs%d = arith.constant %d : index" % (stream[2], stream[2]))
        if stream[1] is not None:
            L.append("    %%ck%d = arith.constant %d : index" % (stream[1], stream[1]))
    L.append("    %%celems = arith.constant %d : i32" % elems)
    for s, v in scal:
        L.append("    %s = arith.constant %s : %s" % (s, v, ty))
    L.append("    %%ua = pto.castptr %s : i64 -> !pto.ptr<%s, ub>" % (c64(UB_A), ty))
    L.append("    %%uc = pto.castptr %s : i64 -> !pto.ptr<%s, ub>" % (c64(UB_C), ty))
    if pad:
        L.append("    %%pv = arith.constant %s : %s" % (pad_value, ty))
    dma = "    pto.mte_gm_ub %%in, %%ua, %s, %s nburst(%s, %s, %s)" % (c64(0), c64(length), c64(n), c64(gm_stride), c64(ub_stride))
    types = "!pto.ptr<%s, gm>, !pto.ptr<%s, ub>, i64, i64, i64, i64, i64" % (ty, ty)
    if loops:
        dma += " loop(%s, %s, %s)" % (c64(lc), c64(l_gm), c64(l_ub))
        types += ", loop i64, i64, i64"
    if pad:
        dma += " pad(%pv)"
        types += ", pad " + ty
    L.append(dma)
    L.append("      : " + types)
    L.append('    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]')
    L.append('    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]')
    L.append("    pto.vecscope {")
    if stream:
        # a streaming loop: the body is one load, [a second load,] one op, one store under an all-lanes
        # mask, with no loop-carried value (the shape the simulator runs as one fused handler)
        sop, s2, sstep = stream
        L.append("      %%mall = pto.pset_%s \"PAT_ALL\" : %s" % (gran, mt))
        L.append("      scf.for %%i = %%c0 to %%cend step %%cs%d {" % sstep)
        L.append("        %%x = pto.vlds %%ua[%%i] : !pto.ptr<%s, ub> -> %s" % (ty, vt))
        if sop in SCALAR:
            L.append("        %%z = pto.%s %%x, %%s0, %%mall : %s, %s, %s -> %s" % (sop, vt, ty, mt, vt))
        else:
            L.append("        %%y = pto.vlds %%ua[%s] : !pto.ptr<%s, ub> -> %s" % ("%i" if s2 is None else "%%ck%d" % s2, ty, vt))
            L.append("        %%z = pto.%s %%x, %%y, %%mall : %s, %s, %s -> %s" % (sop, vt, vt, mt, vt))
        L.append("        pto.vsts %%z, %%uc[%%i], %%mall : %s, !pto.ptr<%s, ub>, %s" % (vt, ty, mt))
        L.append("      }")
        L.append("    }")
    else:
        L.append("      %rest = scf.for %i = %c0 to %cend step %cl iter_args(%left = %celems) -> (i32) {")
        L.append("        %%m, %%next = pto.plt_%s %%left : i32 -> %s, i32" % (gran, mt))
        L.append("        %%x = pto.vlds %%ua[%%i] : !pto.ptr<%s, ub> -> %s" % (ty, vt))
        if want_y:
            L.append("        %j = arith.addi %i, %coff : index")
            L.append("        %%y = pto.vlds %%ua[%%j] : !pto.ptr<%s, ub> -> %s" % (ty, vt))
        for b in pre + body:
            L.append("        " + b)
        L.append("        pto.vsts %s, %%uc[%%i], %%m : %s, !pto.ptr<%s, ub>, %s" % (result, vt, ty, mt))
        L.append("        scf.yield %next : i32")
        L.append("      }")
        L.append("    }")
    L.append('    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]')
    L.append('    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]')
    L.append("    pto.mte_ub_gm %%uc, %%out, %s nburst(%s, %s, %s)" % (c64(olen), c64(on), c64(o_ub_stride), c64(o_gm_stride)))
    L.append("      : !pto.ptr<%s, ub>, !pto.ptr<%s, gm>, i64, i64, i64, i64" % (ty, ty))
    L.append("    pto.barrier #pto.pipe<PIPE_ALL>")
    L.append("    return")
    L.append("  }")
    L.append("}")
    data = bytes(r.getrandbits(8) for _ in range(IN_BYTES))
    if is_float:   # keep the input finite and moderate so vexp and products stay interesting
        data = bytearray(data)
        for i in range(0, IN_BYTES, esz):
            if esz == 4:
                data[i + 3] = (data[i + 3] & 0x80) | (0x3C + (data[i + 3] & 0x07))
            else:
                data[i + 1] = (data[i + 1] & 0x80) | (0x30 + (data[i + 1] & 0x0F))
        data = bytes(data)
    return "\n".join(L) + "\n", data


def main():
    seed = int(sys.argv[1])
    text, data = kernel(seed)
    if len(sys.argv) > 2:
        with open(sys.argv[2], "w") as f:
            f.write(text)
        with open(sys.argv[2] + ".in", "wb") as f:
            f.write(data)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
