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
    return 0


if __name__ == "__main__":
    sys.exit(main())
