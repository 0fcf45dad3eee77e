#!/usr/bin/env python3
"""Whole-kernel references of the timing model (docs/timing.md "Accuracy"; issue 30).

Runs ptosim's own kernels shaped like published whole-kernel measurements and prints predicted against
published time. The published figures are typed in below with their source; no code or data of those
sources is used.

RMSNorm on A5 (PTOAS docs/designs/ptoas_persistent_simt_fragment_plan.md, "性能结果"): f32, batch 4096,
hidden size d = 4096 / 5120 / 7168, a grid of 64 blocks, measured with msprof in two L2 cache modes of the
UB->GM write-back. The kernel written here (rmsnorm_kernel) reads its 64 tokens per block one at a time
into alternating UB buffers, so the next token's load overlaps this token's vector work and the store of
the previous one: per token, GM->UB of d f32, the sum of squares (vmul, vadd over d / 64 registers, vcadd),
the root, then x / rms * g and UB->GM. The weights g are loaded once per block. The published kernel also
writes one f32 per token (rstd), 16 KiB in all, left out.

Usage: references.py [--ptosim build/ptosim] [--keep DIR]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

CLOCK = 1.85e9

# (d, resident slots, baseline us in the current cache mode "naci", baseline us in the former mode "nmfv")
RMSNORM = [(4096, 120.059, 80.6), (5120, 137.213, 84.5), (7168, 187.979, 127.3)]


def rmsnorm_kernel(d):
    """One block: tokens [b*T, (b+1)*T) of x (d f32 each), ping-pong UB buffers, flags between the pipes."""
    regs = d // 64
    tb = d * 4                      # bytes per token
    lines = []
    w = lines.append
    w('module attributes {pto.target_arch = "a5"} {')
    w('  func.func @rmsnorm(%x: !pto.ptr<f32, gm>, %g: !pto.ptr<f32, gm>, %y: !pto.ptr<f32, gm>, %pairs: index)')
    w('      attributes {pto.kernel} {')
    w('    %c0 = arith.constant 0 : index')
    w('    %c1 = arith.constant 1 : index')
    w('    %c64 = arith.constant 64 : index')
    w(f'    %cr = arith.constant {regs} : index')
    w('    %c0_i64 = arith.constant 0 : i64')
    w('    %c1_i64 = arith.constant 1 : i64')
    w('    %c2_i64 = arith.constant 2 : i64')
    w('    %c4_i64 = arith.constant 4 : i64')
    w(f'    %cq = arith.constant {tb // 4} : i64')
    w(f'    %cd = arith.constant {d} : i64')
    w(f'    %b0 = arith.constant 0 : i64')
    w(f'    %b1 = arith.constant {tb} : i64')
    w(f'    %b2 = arith.constant {2 * tb} : i64')
    w(f'    %b3 = arith.constant {3 * tb} : i64')
    w(f'    %b4 = arith.constant {4 * tb} : i64')
    w(f'    %inv = arith.constant {1.0 / d!r} : f32')
    w('    %eps = arith.constant 9.99999997e-07 : f32')
    w('    %ux0 = pto.castptr %b0 : i64 -> !pto.ptr<f32, ub>')
    w('    %ux1 = pto.castptr %b1 : i64 -> !pto.ptr<f32, ub>')
    w('    %uy0 = pto.castptr %b2 : i64 -> !pto.ptr<f32, ub>')
    w('    %uy1 = pto.castptr %b3 : i64 -> !pto.ptr<f32, ub>')
    w('    %ug = pto.castptr %b4 : i64 -> !pto.ptr<f32, ub>')
    w('    %b = pto.get_block_idx')
    w('    %pairs_i64 = arith.index_cast %pairs : index to i64')
    w('    %tb0 = arith.muli %b, %pairs_i64 : i64')
    w('    %tbase = arith.muli %tb0, %c2_i64 : i64')
    w('    pto.mte_gm_ub %g, %ug, %c0_i64, %cq nburst(%c4_i64, %cq, %cq)')
    w('      : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64')
    # the buffers start free: prime the "free" flags (V -> MTE2: x buffer consumed; MTE3 -> V: y buffer stored)
    for e in (0, 1):
        w(f'    pto.set_flag["PIPE_V", "PIPE_MTE2", "EVENT_ID{e}"]')
        w(f'    pto.set_flag["PIPE_MTE3", "PIPE_V", "EVENT_ID{e}"]')
    w('    scf.for %k = %c0 to %pairs step %c1 {')
    w('      %k_i64 = arith.index_cast %k : index to i64')
    w('      %k2 = arith.muli %k_i64, %c2_i64 : i64')
    w('      %t0 = arith.addi %tbase, %k2 : i64')
    for e in (0, 1):
        ux, uy = f'%ux{e}', f'%uy{e}'
        w(f'      %t{e}x = arith.addi %t0, %c{e}_i64 : i64' if e else f'      %t{e}x = arith.addi %t0, %c0_i64 : i64')
        w(f'      %off{e} = arith.muli %t{e}x, %cd : i64')
        w(f'      %gx{e} = pto.addptr %x, %off{e} : !pto.ptr<f32, gm> -> !pto.ptr<f32, gm>')
        w(f'      %gy{e} = pto.addptr %y, %off{e} : !pto.ptr<f32, gm> -> !pto.ptr<f32, gm>')
        w(f'      pto.wait_flag["PIPE_V", "PIPE_MTE2", "EVENT_ID{e}"]')
        w(f'      pto.mte_gm_ub %gx{e}, {ux}, %c0_i64, %cq nburst(%c4_i64, %cq, %cq)')
        w('        : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64')
        w(f'      pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID{e}"]')
        w(f'      pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID{e}"]')
        w(f'      pto.wait_flag["PIPE_MTE3", "PIPE_V", "EVENT_ID{e}"]')
        w('      pto.vecscope {')
        w('        %all = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>')
        w(f'        %x0 = pto.vlds {ux}[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>')
        w('        %q0 = pto.vmul %x0, %x0, %all : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>')
        w('        %acc = scf.for %c = %c1 to %cr step %c1 iter_args(%a = %q0) -> (!pto.vreg<64xf32>) {')
        w('          %o = arith.muli %c, %c64 : index')
        w(f'          %xc = pto.vlds {ux}[%o] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>')
        w('          %qc = pto.vmul %xc, %xc, %all : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>')
        w('          %an = pto.vadd %a, %qc, %all : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>')
        w('          scf.yield %an : !pto.vreg<64xf32>')
        w('        }')
        w('        %ss = pto.vcadd %acc, %all : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>')
        w('        %ms = pto.vmuls %ss, %inv, %all : !pto.vreg<64xf32>, f32, !pto.mask<b32> -> !pto.vreg<64xf32>')
        w('        %me = pto.vadds %ms, %eps, %all : !pto.vreg<64xf32>, f32, !pto.mask<b32> -> !pto.vreg<64xf32>')
        w('        %rt = pto.vsqrt %me, %all : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>')
        w('        %rb = pto.vdup %rt, %all : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>')
        w('        scf.for %c = %c0 to %cr step %c1 {')
        w('          %o = arith.muli %c, %c64 : index')
        w(f'          %xc = pto.vlds {ux}[%o] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>')
        w('          %gc = pto.vlds %ug[%o] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>')
        w('          %dv = pto.vdiv %xc, %rb, %all : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>')
        w('          %yc = pto.vmul %dv, %gc, %all : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>')
        w(f'          pto.vsts %yc, {uy}[%o], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>')
        w('        }')
        w('      }')
        w(f'      pto.set_flag["PIPE_V", "PIPE_MTE2", "EVENT_ID{e}"]')
        w(f'      pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID{e}"]')
        w(f'      pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID{e}"]')
        w(f'      pto.mte_ub_gm {uy}, %gy{e}, %cq nburst(%c4_i64, %cq, %cq)')
        w('        : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64')
        w(f'      pto.set_flag["PIPE_MTE3", "PIPE_V", "EVENT_ID{e}"]')
    w('    }')
    for e in (0, 1):
        w(f'    pto.wait_flag["PIPE_V", "PIPE_MTE2", "EVENT_ID{e}"]')
        w(f'    pto.wait_flag["PIPE_MTE3", "PIPE_V", "EVENT_ID{e}"]')
    w('    pto.barrier #pto.pipe<PIPE_ALL>')
    w('    return')
    w('  }')
    w('}')
    return "\n".join(lines) + "\n"


def run_rmsnorm(ptosim, tmp, d, batch=4096, blocks=64, extra=()):
    path = os.path.join(tmp, f"rmsnorm_{d}.pto")
    with open(path, "w", encoding="utf-8") as f:
        f.write(rmsnorm_kernel(d))
    per_block = batch // blocks
    xb = batch * d * 4
    cmd = [ptosim, "run", "-q", "--no-sanitize", f"--blocks={blocks}", "--stats-format=json", *extra, path,
           f"zeros:{xb}", f"zeros:{d * 4}", f"zeros:{xb}", str(per_block // 2)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"ptosim failed on {path}:\n{r.stderr}")
    return int(json.loads(r.stdout)["cycles"])


# The A3 GEMM (pto-isa kernels/manual/a2a3/gemm_performance README, "Measured Performance"): m = k = n = 6144,
# f16 -> f32, 24 cores, each a 1536 x 1024 block of C as 12 x 4 tiles of 128 x 256, K in steps of 64;
# 1.5060 ms; the share of that time each stage was busy.
GEMM_MS = 1.5060
GEMM_RATIO = {"TMATMUL": 0.867, "TEXTRACT": 0.681, "TLOAD": 0.952, "TSTORE": 0.031}
GEMM_TILES = 12 * 4                  # output tiles per core


def gemm_kernel(steps):
    """One 128 x 256 tile of C = A B (A 128 x 64*steps, B 64*steps x 256, f16, row-major) on an a2a3 cube
    core: per K step of 64 a tload of A's 128 x 64 and B's 64 x 256 into L1 (mat tiles), tmov into
    left/right, tmatmul (the first) or tmatmul.acc into one 128 x 256 f32 acc tile, then one tstore. Two sets
    of mat/left/right tiles alternate (double buffering); auto-sync orders them. pto-isa's kernel loads
    4 K steps per tload (stepKa = stepKb = 4) and extracts from them; ptosim's textract into L0 takes no
    offset yet, so each K step is its own tload here (the same bytes, 4x the transfers)."""
    assert steps >= 2 and steps % 2 == 0
    K = 64 * steps
    MA = "!pto.tile_buf<mat, 128x64xf16, blayout=col_major, slayout=row_major>"
    MB = "!pto.tile_buf<mat, 64x256xf16, blayout=col_major, slayout=row_major>"
    LT = "!pto.tile_buf<left, 128x64xf16, blayout=col_major, slayout=row_major>"
    RT = "!pto.tile_buf<right, 64x256xf16, blayout=row_major, slayout=col_major>"
    AC = "!pto.tile_buf<acc, 128x256xf32, blayout=col_major, slayout=row_major, fractal=1024>"
    PA = "!pto.partition_tensor_view<128x64xf16>"
    PB = "!pto.partition_tensor_view<64x256xf16>"
    L = []
    w = L.append
    w('module attributes {pto.target_arch = "a2a3"} {')
    w('  func.func @gemm(%a: !pto.ptr<f16, gm>, %b: !pto.ptr<f16, gm>, %c: !pto.ptr<f32, gm>)')
    w('      attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {')
    for name, v in (("i0", 0), ("i1", 1), ("i2", 2), ("i64", 64), ("i128", 128), ("i256", 256), ("iK", K),
                    ("ipairs", (steps - 2) // 2)):
        w(f'    %{name} = arith.constant {v} : index')
    for name, v in (("a0", 0), ("a1", 16384), ("b0", 32768), ("b1", 65536), ("l0", 0), ("l1", 16384),
                    ("r0", 0), ("r1", 32768)):
        w(f'    %o{name} = arith.constant {v} : i64')
    w('    %tva = pto.make_tensor_view %a, shape = [%i128, %iK], strides = [%iK, %i1] : !pto.tensor_view<?x?xf16>')
    w('    %tvb = pto.make_tensor_view %b, shape = [%iK, %i256], strides = [%i256, %i1] : !pto.tensor_view<?x?xf16>')
    w('    %tvc = pto.make_tensor_view %c, shape = [%i128, %i256], strides = [%i256, %i1] : !pto.tensor_view<?x?xf32>')
    w('    %pc = pto.partition_view %tvc, offsets = [%i0, %i0], sizes = [%i128, %i256] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<128x256xf32>')
    for e in (0, 1):
        w(f'    %ma{e} = pto.alloc_tile addr = %oa{e} : {MA}')
        w(f'    %mb{e} = pto.alloc_tile addr = %ob{e} : {MB}')
        w(f'    %l{e} = pto.alloc_tile addr = %ol{e} : {LT}')
        w(f'    %r{e} = pto.alloc_tile addr = %or{e} : {RT}')
    w(f'    %acc = pto.alloc_tile addr = %oa0 : {AC}')

    def step(e, ks, first, ind):
        w(f'{ind}%pa{ks} = pto.partition_view %tva, offsets = [%i0, %k{ks}], sizes = [%i128, %i64] : !pto.tensor_view<?x?xf16> -> {PA}')
        w(f'{ind}%pb{ks} = pto.partition_view %tvb, offsets = [%k{ks}, %i0], sizes = [%i64, %i256] : !pto.tensor_view<?x?xf16> -> {PB}')
        w(f'{ind}pto.tload ins(%pa{ks} : {PA}) outs(%ma{e} : {MA})')
        w(f'{ind}pto.tload ins(%pb{ks} : {PB}) outs(%mb{e} : {MB})')
        w(f'{ind}pto.tmov ins(%ma{e} : {MA}) outs(%l{e} : {LT})')
        w(f'{ind}pto.tmov ins(%mb{e} : {MB}) outs(%r{e} : {RT})')
        if first:
            w(f'{ind}pto.tmatmul ins(%l{e}, %r{e} : {LT}, {RT}) outs(%acc : {AC})')
        else:
            w(f'{ind}pto.tmatmul.acc ins(%acc, %l{e}, %r{e} : {AC}, {LT}, {RT}) outs(%acc : {AC})')

    w('    %kf = arith.constant 0 : index')
    step(0, "f", True, "    ")
    w('    scf.for %j = %i0 to %ipairs step %i1 {')
    w('      %j2 = arith.muli %j, %i2 : index')
    w('      %s1 = arith.addi %j2, %i1 : index')
    w('      %s2 = arith.addi %j2, %i2 : index')
    w('      %k1 = arith.muli %s1, %i64 : index')
    w('      %k2 = arith.muli %s2, %i64 : index')
    step(1, "1", False, "      ")
    step(0, "2", False, "      ")
    w('    }')
    w(f'    %kl = arith.constant {K - 64} : index')
    step(1, "l", False, "    ")
    w(f'    pto.tstore ins(%acc : {AC}) outs(%pc : !pto.partition_tensor_view<128x256xf32>)')
    w('    return')
    w('  }')
    w('}')
    return "\n".join(L) + "\n"


# pto-isa tests/costmodel/st (built for a2a3, __NPU_ARCH__ 2201; the figures its cost model prints): TMATMUL
# (A type, valid m, k, n, profiled cycles) and TMOV vec -> vec (f32 rows x cols, valid rows x cols, cycles).
TMATMUL_ST = [("f16", 40, 50, 60, 54), ("i8", 6, 7, 8, 7), ("f16", 128, 128, 64, 262), ("f32", 120, 110, 50, 902)]
TMOV_ST = [(64, 128, 64, 128, 1029), (16, 24, 15, 23, 120), (64, 128, 63, 125, 1323)]


def align(x, a):
    return (x + a - 1) // a * a


def tmatmul_kernel(ak, m, k, n):
    blk = 32 if ak == "i8" else 16
    M, K, N = align(m, 16), align(k, blk), align(n, 16)
    ck = "i32" if ak == "i8" else "f32"
    LT = f"!pto.tile_buf<left, {M}x{K}x{ak}, valid={m}x{k}, blayout=col_major, slayout=row_major>"
    RT = f"!pto.tile_buf<right, {K}x{N}x{ak}, valid={k}x{n}, blayout=row_major, slayout=col_major>"
    AC = f"!pto.tile_buf<acc, {M}x{N}x{ck}, valid={m}x{n}, blayout=col_major, slayout=row_major, fractal=1024>"
    return "\n".join([
        'module attributes {pto.target_arch = "a2a3"} {',
        '  func.func @mm() attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {',
        f'    %l = pto.alloc_tile : {LT}', f'    %r = pto.alloc_tile : {RT}', f'    %c = pto.alloc_tile : {AC}',
        f'    pto.tmatmul ins(%l, %r : {LT}, {RT}) outs(%c : {AC})', '    return', '  }', '}', ''])


def tmov_kernel(r, c, vr, vc):
    A = f"!pto.tile_buf<vec, {r}x{c}xf32, valid={vr}x{vc}>"
    return "\n".join([
        'module attributes {pto.target_arch = "a2a3"} {', '  func.func @mv() attributes {pto.kernel} {',
        f'    %a = pto.alloc_tile : {A}', f'    %b = pto.alloc_tile : {A}', f'    pto.tmov ins(%a : {A}) outs(%b : {A})',
        '    return', '  }', '}', ''])


def pipe_busy(ptosim, tmp, name, text, pipe, extra=()):
    path = os.path.join(tmp, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    st = subprocess.run([ptosim, "run", "-q", "--no-sanitize", "--stats-format=json", *extra, path],
                        capture_output=True, text=True)
    if st.returncode != 0:
        sys.exit(f"ptosim failed on {path}:\n{st.stderr}")
    return json.loads(st.stdout)["cores"][0]["pipes"].get(pipe, {}).get("busy", 0)


PIPES = {"TLOAD": "PIPE_MTE2", "TEXTRACT": "PIPE_MTE1", "TMATMUL": "PIPE_M", "TSTORE": "PIPE_FIX"}


def run_gemm(ptosim, tmp, steps, extra=()):
    """Busy cycles per pipe and the cycles of one tile's kernel."""
    path = os.path.join(tmp, f"gemm_{steps}.pto")
    with open(path, "w", encoding="utf-8") as f:
        f.write(gemm_kernel(steps))
    K = 64 * steps
    cmd = [ptosim, "run", "-q", "--no-sanitize", "--stats-format=json", *extra, path,
           f"zeros:{128 * K * 2}", f"zeros:{K * 256 * 2}", f"zeros:{128 * 256 * 4}"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"ptosim failed on {path}:\n{r.stderr}")
    st = json.loads(r.stdout)
    busy = {}
    for core in st["cores"]:
        for name, p in core["pipes"].items():
            busy[name] = busy.get(name, 0) + p["busy"]
    return busy, int(st["cycles"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ptosim", default="build/ptosim")
    ap.add_argument("--keep", help="write the kernels into this directory and keep them")
    ap.add_argument("--timing", help="a --timing table to apply")
    a = ap.parse_args()
    extra = (f"--timing={a.timing}",) if a.timing else ()
    tmp = a.keep or tempfile.mkdtemp(prefix="ptosim-ref-")
    os.makedirs(tmp, exist_ok=True)
    print("RMSNorm on A5, f32, batch 4096, 64 blocks (PTOAS ptoas_persistent_simt_fragment_plan.md)")
    print(f"{'d':>6} {'ptosim us':>10} {'naci us':>9} {'error':>8} {'nmfv us':>9} {'error':>8}")
    for d, naci, nmfv in RMSNORM:
        us = run_rmsnorm(a.ptosim, tmp, d, extra=extra) / CLOCK * 1e6
        print(f"{d:>6} {us:>10.1f} {naci:>9.1f} {100 * (us / naci - 1):>+7.1f}% {nmfv:>9.1f} {100 * (us / nmfv - 1):>+7.1f}%")
    print()
    print("A3 GEMM 6144^3 f16 -> f32, 24 cores (pto-isa kernels/manual/a2a3/gemm_performance): one 128 x 256 tile")
    print("of K = 6144 run on one core, its busy cycles per pipe x 48 tiles per core, against the published share")
    print("of 1.5060 ms each stage was busy")
    busy, cyc = run_gemm(a.ptosim, tmp, 96, extra=extra)
    print(f"{'stage':>9} {'pipe':>10} {'ptosim ms':>10} {'published ms':>13} {'error':>8}")
    for stage, pipe in PIPES.items():
        ms = busy.get(pipe, 0) * GEMM_TILES / CLOCK * 1e3
        pub = GEMM_RATIO[stage] * GEMM_MS
        print(f"{stage:>9} {pipe:>10} {ms:>10.3f} {pub:>13.3f} {100 * (ms / pub - 1):>+7.1f}%")
    ms = cyc * GEMM_TILES / CLOCK * 1e3
    print(f"{'whole':>9} {'':>10} {ms:>10.3f} {GEMM_MS:>13.3f} {100 * (ms / GEMM_MS - 1):>+7.1f}%  (48 x one tile's cycles)")
    print()
    print("Cube and move tile ops on a2a3 against pto-isa tests/costmodel/st (its cost model's figures)")
    print(f"{'op':>8} {'case':>22} {'ptosim':>7} {'pto-isa':>8} {'error':>8}")
    for ak, m, k, n, ref in TMATMUL_ST:
        got = pipe_busy(a.ptosim, tmp, f"mm_{ak}_{m}_{k}_{n}.pto", tmatmul_kernel(ak, m, k, n), "PIPE_M", extra)
        print(f"{'tmatmul':>8} {f'{ak} {m}x{k}x{n}':>22} {got:>7} {ref:>8} {100 * (got / ref - 1):>+7.1f}%")
    for r, c, vr, vc, ref in TMOV_ST:
        got = pipe_busy(a.ptosim, tmp, f"mov_{r}_{c}_{vr}_{vc}.pto", tmov_kernel(r, c, vr, vc), "PIPE_V", extra)
        print(f"{'tmov':>8} {f'vec f32 {r}x{c} v {vr}x{vc}':>22} {got:>7} {ref:>8} {100 * (got / ref - 1):>+7.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
