#!/usr/bin/env python3
"""bench_batch.py BUILD — `make bench`: many small kernels in one Python process vs one `ptosim run` each.

The kernels are the test kernels whose RUN lines take only simple arguments (zeros:BYTES, fill:BYTES:VALUE,
scalar literals; an :OUT is dropped) and that complete. Each is timed three ways, best of ROUNDS rounds:
  cli     `ptosim run -q` as a new process per kernel (parse, verify, run; what a script calling the tool pays)
  python  ptosim.load + Module.run per kernel in this process (parse, verify, run: the same work)
  warm    Module.run only, the modules loaded once (a test suite running one kernel on many inputs)
and the ratios cli / python and cli / warm are printed (how many times faster in-process is). Wall-clock
numbers; they never gate a test."""
import os, re, shlex, subprocess, sys, time

ROUNDS = 3
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build"))
os.environ["PTOSIM_LIB"] = os.path.join(BUILD, "libptosim.so.0")
sys.path.insert(0, os.path.join(ROOT, "python"))
try:
    import numpy as np
    import ptosim
except ImportError as e:
    print("batch   skipped: %s (the Python binding needs python3-numpy)" % e)
    sys.exit(0)

SIMPLE_BUF = re.compile(r"(zeros:[0-9x]+|fill:[0-9x]+:[0-9x]+)(:%t/\S+)?$")


def cases():
    """(path, cli argv after `run`, run() keyword options, [buffer specs and scalar literals]) per simple RUN line."""
    for d, dirs, files in os.walk(os.path.join(ROOT, "tests")):
        dirs.sort()
        for f in sorted(files):
            if not f.endswith(".pto"):
                continue
            path = os.path.join(d, f)
            text = open(path, encoding="utf-8", errors="replace").read()
            for line in re.findall(r"^\s*//\s*RUN:\s*ptosim run (.*)$", text, re.M):
                c = parse_run(shlex.split(line), path)
                if c:
                    yield c


def parse_run(words, path):
    opts, args, cli = {}, [], []
    it = iter(words)
    for w in it:
        if w == "%s":
            continue
        m = re.fullmatch(r"(-b|--blocks=?)(\d*)", w)
        if m:
            opts["blocks"] = int(m.group(2) or next(it))
            cli += ["-b", str(opts["blocks"])]
        elif w in ("-t", "--target"):
            opts["target"] = next(it)
        elif w.startswith("--target="):
            opts["target"] = w.split("=", 1)[1]
        elif w in ("-e", "--entry"):
            opts["entry"] = next(it)
            cli += ["-e", opts["entry"]]
        elif w == "--no-race":
            opts["race"] = False
            cli.append(w)
        elif w == "--vag-loops":
            opts["vag_loops"] = True
            cli.append(w)
        elif w in ("-q", "--race"):
            continue
        elif SIMPLE_BUF.match(w):
            args.append(SIMPLE_BUF.match(w).group(1))
        elif re.fullmatch(r"-?(0x[0-9a-fA-F]+|\d+(\.\d*)?([eE][-+]?\d+)?)|true|false|-?inf|nan", w):
            args.append(w)
        else:
            return None            # a file argument or an option this benchmark does not model
    if "target" in opts:
        cli += ["-t", opts["target"]]
    return path, cli + [path] + args, opts, args


def to_python(params, args):
    """Fresh numpy arrays and Python scalars for the arguments (the run writes the arrays)."""
    out = []
    for p, a in zip(params, args):
        if p.kind == "pointer":
            parts = a.split(":")
            n, v = int(parts[1], 0), int(parts[2], 0) if parts[0] == "fill" else 0
            n -= n % p.itemsize
            out.append(np.full(n, v, np.uint8).view(p.dtype))
        elif a in ("true", "false"):
            out.append(a == "true")
        elif p.kind == "int":
            out.append(int(a, 0))
        else:
            out.append(float.fromhex(a) if "0x" in a else float(a))
    return out


def main():
    tool = os.path.join(BUILD, "ptosim")
    runnable = []
    for path, cli, opts, args in cases():
        target = opts.pop("target", None)
        try:
            m = ptosim.load(path, target)
            k = m.entry_for(opts.get("entry"))
            if k is None or len(k.params) != len(args):
                continue
            m.run(*to_python(k.params, args), **opts)
        except (ptosim.DiagnosticError, ValueError):
            continue               # traps and refusals are not the batch being measured
        runnable.append((path, cli, opts, args, target, k.params, m))
    if not runnable:
        print("batch   no runnable test kernel found")
        return
    inputs = [to_python(params, args) for _, _, _, args, _, params, _ in runnable]

    def cli_round():
        t = time.perf_counter()
        for c in runnable:
            subprocess.run([tool, "run", "-q"] + c[1], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.perf_counter() - t

    def python_round():
        t = time.perf_counter()
        for (path, _, opts, _, target, _, _), a in zip(runnable, inputs):
            ptosim.load(path, target).run(*a, **opts)
        return time.perf_counter() - t

    def warm_round():
        t = time.perf_counter()
        for (_, _, opts, _, _, _, m), a in zip(runnable, inputs):
            m.run(*a, **opts)
        return time.perf_counter() - t

    tc = min(cli_round() for _ in range(ROUNDS))
    tp = min(python_round() for _ in range(ROUNDS))
    tw = min(warm_round() for _ in range(ROUNDS))
    n = len(runnable)
    print("batch   %d test kernels: `ptosim run` per kernel %.2f ms, Python load+run %.2f ms, run of a loaded module %.2f ms"
          % (n, tc / n * 1e3, tp / n * 1e3, tw / n * 1e3))
    print("        -> in one Python process %.1fx faster than a process per kernel (%.1fx with modules loaded once)"
          % (tc / tp, tc / tw))


if __name__ == "__main__":
    main()
