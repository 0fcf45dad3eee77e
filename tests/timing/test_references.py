#!/usr/bin/env python3
"""The whole-kernel reference kernels of tools/timing/references.py (docs/timing.md "Accuracy"), scaled down,
against busy cycles computed by hand from the documented formulas; and the multi-block GM sharing is the
same whatever the number of host threads.

GEMM, one 128 x 256 tile of C with K = 4 x 64 on the a2a3 table (clock 1.85 GHz; a transfer of B bytes at
W GiB/s takes fixed + ceil(B * 1.85e9 / (W * 2^30)) cycles):
  TLOAD (PIPE_MTE2, GM -> L1: 67 fixed + 135 GiB/s) per K step: A 128 x 64 f16 = 16384 bytes:
    67 + ceil(16384 * 1.85e9 / (135 * 2^30) = 209.10) = 277; B 64 x 256 f16 = 32768 bytes: 67 + ceil(418.20)
    = 486; 4 steps: 4 * (277 + 486) = 3052.
  tmov to L0 (PIPE_MTE1): L1 -> L0A 223.47 GiB/s: ceil(16384 * 1.85e9 / (223.47 * 2^30) = 126.32) = 127;
    L1 -> L0B 147.14 GiB/s: ceil(32768 * 1.85e9 / (147.14 * 2^30) = 383.70) = 384; 4 * (127 + 384) = 2044.
  tmatmul (PIPE_M): head 21 + ceil(128/16) * ceil(256/16) * ceil(64/16) = 8 * 16 * 4 = 512 fractals at 1 cycle
    = 533 per step; 4 * 533 = 2132.
  tstore acc -> GM (PIPE_FIX): 164 + 128 rows * max(4.45, 4 * 256 / 118 = 8.678) = 164 + 1110.78 = 1274.78
    -> 1275 (N1 = 256 / 8 = 32 N-fractals, odd part 1: no penalty).
The 1 block's GM slice (3360 GiB/s read) is far above every path here, so nothing is shared."""
import json, os, subprocess, sys, tempfile
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "timing"))
from testlib import BUILD, check, finish
import references

PTOSIM = os.path.join(BUILD, "ptosim")


def stats(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr
    return json.loads(r.stdout), ""


with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "gemm.pto")
    with open(path, "w") as f:
        f.write(references.gemm_kernel(4))
    K = 256
    st, err = stats([PTOSIM, "run", "-q", "--stats-format=json", path, "zeros:%d" % (128 * K * 2),
                     "zeros:%d" % (K * 256 * 2), "zeros:%d" % (128 * 256 * 4)])
    check(st is not None, "the scaled GEMM runs", err)
    if st:
        pipes = st["cores"][0]["pipes"]
        for pipe, want in (("PIPE_MTE2", 3052), ("PIPE_MTE1", 2044), ("PIPE_M", 2132), ("PIPE_FIX", 1275)):
            got = pipes.get(pipe, {}).get("busy")
            check(got == want, "GEMM %s busy %s, expected %d" % (pipe, got, want))

    # RMSNorm d = 1024 on 16 blocks (4 tokens each): the cycles do not depend on the threads running the blocks
    path = os.path.join(tmp, "rms.pto")
    with open(path, "w") as f:
        f.write(references.rmsnorm_kernel(1024))
    cyc = []
    for jobs in (1, 2):
        st, err = stats([PTOSIM, "run", "-q", "--no-sanitize", "--blocks=16", "-j", str(jobs), "--stats-format=json", path,
                         "zeros:%d" % (64 * 1024 * 4), "zeros:4096", "zeros:%d" % (64 * 1024 * 4), "2"])
        check(st is not None, "RMSNorm runs with %d thread(s)" % jobs, err)
        cyc.append(st["cycles"] if st else None)
    check(cyc[0] is not None and cyc[0] == cyc[1], "RMSNorm cycles with 1 and 2 threads: %s" % cyc)

finish()
