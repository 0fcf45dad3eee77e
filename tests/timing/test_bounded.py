#!/usr/bin/env python3
"""Bounded memory (docs/timing.md "Pipe queues", docs/testing.md): a pipe queue holds at most 32 ops, so a
loop issuing DMAs with no wait stalls its scalar unit (stall cause "queue full") instead of growing the
queue; peak memory does not depend on the loop count; --max-memory turns an absurd buffer into E-MEM-LIMIT.

Expectations are derived by hand from the documented model: with the timing table below a 256-byte GM->UB
DMA costs 20 + ceil(256 * 1 / (2^20 * 2^30 / 2^30)) = 21 cycles while the scalar unit issues one every
2 cycles (issue 1 + the loop's step 1), so the queue gains about 19/21 of an op per iteration and is full
after 32 / (1 - 2/21) ~ 35.4 issues; from then on every issue waits for a completion."""
import os, re, resource, subprocess, sys, tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import BUILD, check, finish

PTOSIM = os.path.join(BUILD, "ptosim")
DEPTH = 32

KERNEL = """module attributes {pto.target_arch = "a5"} {
  func.func @k(%src: !pto.ptr<f32, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %c64 = arith.constant 64 : i64
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    %n = arith.constant N : index
    %ub = pto.castptr %c0 : i64 -> !pto.ptr<f32, ub>
    scf.for %i = %i0 to %n step %i1 {
      pto.mte_gm_ub %src, %ub, %c0, %c64 nburst(%c1, %c64, %c64) : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    }
    pto.barrier #pto.pipe<PIPE_ALL>
    return
  }
}
"""
TABLE = "clock_ghz 1\npath gm_ub peak=1048576 startup=20\nscalar op=1 issue=1\n"


def kernel(tmp, n):
    path = os.path.join(tmp, "loop%d.pto" % n)
    with open(path, "w") as f:
        f.write(KERNEL.replace(" N : index", " %d : index" % n))
    return path


def run(*args):
    p = subprocess.run([PTOSIM, "run"] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def peak_rss_kib(*args):
    """Peak RSS of one ptosim run: a fresh Python process whose only child is that run."""
    code = ("import resource, subprocess, sys\n"
            "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    out = subprocess.run([sys.executable, "-c", code, PTOSIM, "run"] + list(args), stdout=subprocess.PIPE)
    return int(out.stdout.decode().strip() or 0)


with tempfile.TemporaryDirectory() as tmp:
    tim = os.path.join(tmp, "t.tim")
    with open(tim, "w") as f:
        f.write(TABLE)

    # 1. below the depth: no queue stall at all
    rc, out, err = run(kernel(tmp, DEPTH // 2), "zeros:256", "--timing", tim, "--stats")
    check(rc == 0 and "PIPE_S" in out and "queue full" not in out, "16 DMAs (half the depth): no queue-full stall", out + err)

    # 2. far above: the scalar unit waits once per issue after the first ~35 (between N-40 and N-32 times)
    n = 1000
    rc, out, err = run(kernel(tmp, n), "zeros:256", "--timing", tim, "--stats")
    row = re.search(r"^\s*PIPE_S\s.*queue full (\d+)", out, re.M)
    waits = re.search(r"PIPE_S waited for pto\.mte_gm_ub at \S+:11:7 \((\d+) times\)", out)
    times = int(waits.group(1)) if waits else -1
    check(rc == 0 and row is not None, "1000 DMAs: the scalar unit's stalls include 'queue full'", out + err)
    check(n - 40 <= times <= n - DEPTH, "1000 DMAs: the DMA's issue waited N-40..N-32 times (got %d)" % times, out)
    # each wait lasts about one DMA minus the SU's 2 cycles: between (n-40)*(21-2-1) and (n-32)*21 cycles
    cyc = int(row.group(1)) if row else -1
    check((n - 40) * 18 <= cyc <= (n - DEPTH) * 21, "1000 DMAs: queue-full cycles about (21-2) per wait (got %d)" % cyc, out)

    # 3. peak memory does not grow with the loop count (no race detection: its own history is capped apart)
    small = peak_rss_kib(kernel(tmp, 2000), "zeros:256", "--no-race")
    large = peak_rss_kib(kernel(tmp, 200000), "zeros:256", "--no-race")
    check(small > 0 and large - small < 2048, "peak RSS of 2000 vs 200000 DMA iterations: %d KiB vs %d KiB" % (small, large))

    # 4. --max-memory: the CLI refuses a buffer over half the limit before allocating it (host copy + GM image)
    rc, out, err = run(kernel(tmp, 1), "zeros:17179869184")
    check(rc == 2 and "[E-MEM-LIMIT]" in err, "zeros:16G over the default 8G limit: E-MEM-LIMIT, exit 2", err)
    rc, out, err = run("--max-memory=1M", kernel(tmp, 1), "zeros:600000")
    check(rc == 2 and "[E-MEM-LIMIT]" in err, "600000 bytes under --max-memory=1M: E-MEM-LIMIT (CLI)", err)
    # the library's check: one 2 MiB GM slot + 400000 host bytes = 2497152 > 1 MiB, though 2 x 400000 < 1 MiB
    rc, out, err = run("--max-memory=1M", kernel(tmp, 1), "zeros:400000")
    check(rc == 2 and "[E-MEM-LIMIT]" in err and "2497152" in err, "400000 bytes, 1M limit: E-MEM-LIMIT from the library", err)
    rc, out, err = run("--max-memory=3M", kernel(tmp, 1), "zeros:400000")
    check(rc == 0, "400000 bytes under --max-memory=3M runs", err)
    rc, out, err = run("--max-memory=0", kernel(tmp, 1), "zeros:4")
    check(rc == 2 and "[E-USAGE]" in err, "--max-memory=0 is a usage error", err)
finish()
