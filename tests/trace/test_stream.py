#!/usr/bin/env python3
"""test_stream.py [--build BUILD] — the streamed trace (docs/internals.md "Trace"): while a launch runs, the
events of its committed blocks go to temporary files and the JSON is written a piece at a time, so memory
holds only the blocks in flight. Checked here:

* structure of a multi-block trace of tests/trace/stream.pto (3 blocks of N chunks; a serial run flushes a
  block every 4096 events, a threaded one appends whole blocks at their commit), against what the kernel
  text implies, computed here: every metadata event before the first slice, the processes "block b AIV" at
  pid 3b in block order; the slices grouped by block in block order; per block exactly N slices of each of
  pto.mte_gm_ub (PIPE_MTE2, 256 bytes), pto.vecscope (PIPE_V) and pto.mte_ub_gm (PIPE_MTE3); the flows after
  every slice, ids 1..3*N*blocks in order, each an 's' then its 'f', the ids of block b in
  [3Nb + 1, 3N(b + 1)] with both ends on pid 3b; the output is src + 3 (tests/gen/gen_trace.py);
* the trace is the same bytes with -j 1 and -j 2, and the HTML report (--report) holds one timeline entry
  per slice of the trace;
* bounded memory: the peak resident size of the process (os.wait4's ru_maxrss) with --trace to /dev/null
  exceeds that of the same run without a trace by less than ALLOW, while the trace's events alone, at 56
  bytes each, take more than twice ALLOW (before, the trace held those and its whole JSON text, about 215
  bytes a slice) (the slices are counted in a run with the trace to a file):
  64 blocks (threads: whole blocks held until their commit), and 1 block of many chunks (serial). Left out
  when ptosim is built with AddressSanitizer (make asan).
"""
import json, os, resource, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import BUILD, ROOT, check, finish, sanitizer_preload  # noqa: E402

PTOSIM = os.path.join(BUILD, "ptosim")
KERNEL = os.path.join(ROOT, "tests", "trace", "stream.pto")
GEN = os.path.join(ROOT, "tests", "gen", "gen_trace.py")
# With threads up to 2 x jobs + 1 whole blocks wait for their commit (64 x 400: 5 blocks of ~7,100 events and
# their flows, about 3.5 MiB) and the allocator rounds on top: 4 MiB was exceeded once (4.8 MiB) in CI.
ALLOW = 8 << 20
EV_BYTES = 56   # sizeof(TraceEv): what the trace cost per event in memory before it was streamed


def gen(work, blocks, n):
    subprocess.run([sys.executable, GEN, work, "stream", str(blocks), str(n)], check=True)


def run(argv):
    """(exit status, peak RSS in bytes, stderr) of one ptosim run, measured by os.wait4."""
    err = tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:
        os.dup2(err.fileno(), 2)
        os.execv(PTOSIM, [PTOSIM] + argv)
    _, st, ru = os.wait4(pid, 0)
    err.seek(0)
    return os.waitstatus_to_exitcode(st), ru.ru_maxrss * 1024, err.read().decode(errors="replace")


def kernel_args(work, blocks, n, out, src=None):
    return ["run", "-q", "-b", str(blocks), KERNEL, src or os.path.join(work, "src.bin"),
            "zeros:%d:%s" % (blocks * n * 256, out), str(n)]


def check_structure(path, blocks, n):
    with open(path) as f:
        ev = json.load(f)["traceEvents"]
    kinds = [e["ph"] for e in ev]
    nm = kinds.count("M")
    check(kinds[:nm] == ["M"] * nm and "M" not in kinds[nm:], "trace: every metadata event comes first")
    procs = [(e["pid"], e["args"]["name"]) for e in ev if e["ph"] == "M" and e["name"] == "process_name"]
    check(procs == [(3 * b, "block %d AIV" % b) for b in range(blocks)], "trace: one process per block, in block order",
          procs[:8])
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
    xs = [e for e in ev if e["ph"] == "X"]
    first_flow = next((i for i, e in enumerate(ev) if e["ph"] in "sf"), len(ev))
    check(all(e["ph"] == "X" for e in ev[nm:first_flow]) and all(e["ph"] in "sf" for e in ev[first_flow:]),
          "trace: the slices, then the flows")
    pids = [e["pid"] for e in xs]
    check(pids == sorted(pids) and set(pids) == {3 * b for b in range(blocks)}, "trace: slices grouped by block, in block order")
    want = {("pto.mte_gm_ub", "PIPE_MTE2"): 256, ("pto.vecscope", "PIPE_V"): None, ("pto.mte_ub_gm", "PIPE_MTE3"): 256}
    for b in range(blocks):
        for (name, pipe), nbytes in want.items():
            got = [e for e in xs if e["pid"] == 3 * b and e["name"] == name]
            check(len(got) == n and all(threads[(e["pid"], e["tid"])] == pipe for e in got)
                  and (nbytes is None or all(e["args"].get("bytes", 0) == nbytes for e in got)),
                  "trace: block %d has %d slices %s on %s" % (b, n, name, pipe), "%d found" % len(got))
    flows = ev[first_flow:]
    nf = 3 * n * blocks
    check(len(flows) == 2 * nf, "trace: %d flows" % nf, "%d flow events" % len(flows))
    ok = True
    for k in range(min(nf, len(flows) // 2)):
        s, f = flows[2 * k], flows[2 * k + 1]
        pid = 3 * (k // (3 * n))
        ok = ok and s["ph"] == "s" and f["ph"] == "f" and s["id"] == f["id"] == k + 1 and s["pid"] == f["pid"] == pid
    check(ok, "trace: flow ids 1..%d in order, each start then finish, on its block's process" % nf)
    return len(xs)


def report_slices(path):
    with open(path) as f:
        page = f.read()
    at = page.find('{"stats":')
    data, _ = json.JSONDecoder().raw_decode(page, at)
    return len(data["ev"])


def main():
    with tempfile.TemporaryDirectory() as work:
        # bounded memory first, while this script is small (a child's peak RSS counts the
        # parent's pages at the fork)
        # (not under AddressSanitizer, whose allocator keeps freed blocks and redzones: peaks say little there)
        asan = sanitizer_preload(PTOSIM) is not None
        if asan:
            print("note: %s uses AddressSanitizer: the peak RSS checks are left out" % PTOSIM)
        for blocks, n, jobs in () if asan else ((64, 400, 2), (1, 25600, 1)):
            out = os.path.join(work, "dst.bin")
            base = kernel_args(work, blocks, n, out, "zeros:%d" % (blocks * n * 256)) + ["-j", str(jobs)]
            t = os.path.join(work, "big.json")
            rc, _, err = run(base + ["--trace", t])
            with open(t) as f:
                nslices = sum(1 for line in f if '"ph":"X"' in line)
            os.unlink(t)
            check(rc == 0 and nslices * EV_BYTES > 2 * ALLOW, "rss %dx%d: the trace has %d slices" % (blocks, n, nslices), err)
            rc0, rss0, err0 = run(base)
            rc1, rss1, err1 = run(base + ["--trace", "/dev/null"])
            check(rc0 == 0 and rc1 == 0, "rss %dx%d: runs exit 0" % (blocks, n), err0 + err1)
            own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
            check(rss0 > own + (8 << 20), "rss: ptosim's peak is its own (above this script's %.1f MiB)" % (own / 2**20),
                  "%.1f MiB" % (rss0 / 2**20))
            check(rss1 - rss0 < ALLOW, "rss %d blocks x %d chunks, -j %d: the trace adds less than %d MiB" % (blocks, n, jobs, ALLOW >> 20),
                  "%d slices; without trace %.1f MiB, with --trace /dev/null %.1f MiB" % (nslices, rss0 / 2**20, rss1 / 2**20))
        # structure: 3 blocks of 1500 chunks (more than 4096 events per block)
        blocks, n = 3, 1500
        gen(work, blocks, n)
        traces = []
        for j in (1, 2):
            t = os.path.join(work, "t%d.json" % j)
            out = os.path.join(work, "dst%d.bin" % j)
            argv = kernel_args(work, blocks, n, out) + ["-j", str(j), "--trace", t]
            if j == 2:
                argv += ["--report", os.path.join(work, "r.html")]
            rc, _, err = run(argv)
            check(rc == 0, "run -j %d exits 0" % j, err)
            with open(out, "rb") as f, open(os.path.join(work, "expected.bin"), "rb") as g:
                check(f.read() == g.read(), "run -j %d: dst = src + 3" % j)
            with open(t, "rb") as f:
                traces.append(f.read())
        check(traces[0] == traces[1], "trace: the same bytes with -j 1 and -j 2")
        nx = check_structure(os.path.join(work, "t1.json"), blocks, n)
        check(report_slices(os.path.join(work, "r.html")) == nx, "report: one timeline entry per slice of the trace")

    finish()


main()
