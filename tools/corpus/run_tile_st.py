#!/usr/bin/python3
"""tools/corpus/run_tile_st.py — run the compiler's tile-level system tests (PTOAS test/tilelang_st) with ptosim.

  /usr/bin/python3 tools/corpus/run_tile_st.py PTOAS_DIR [FILTER...] [--ptosim BIN] [-j N] [--keep DIR]
                                               [--flags "RUN OPTIONS"] [--all] [-v]

Each testcase directory under PTOAS_DIR/test/tilelang_st/npu/a5/src/st/testcase (or PTOAS_DIR itself when it
holds them) has NAME.pto (one kernel per case), cases.py (the case list), gen_data.py, compare.py, main.cpp (a
host program with its case table) and launch.cpp. By default the vector testcases run (CMakeLists.txt says
pto_tilelang_vec_st); --all adds the cube ones. For every testcase whose name contains one of the FILTERs, in a
fresh temporary directory:

1. gen_data.py writes every case's inputs and golden (cases.py and the shared st_common.py on its path);
2. main.cpp is compiled against the stand-in device runtime of run_cases.py, whose kernel launches run
   `ptosim run -e KERNEL NAME.pto` on the host's own device buffers (see run_cases.py);
3. compare.py judges every case; its "compare passed" / "compare failed" lines are counted per case.

One line per testcase: PASS (every case passed) or FAIL with the cases passed out of all and a reason class
(parse, verify, trap ID, mismatch, harness, ml_dtypes), then the summary. A testcase whose data generator needs
the ml_dtypes package (not in Debian) is reported as `ml_dtypes` and counted apart. Needs numpy and a C++17
compiler (CXX, default g++). A measurement tool: `make test` does not run it.
"""
import argparse, os, re, shutil, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run_cases as rc  # noqa: E402  (the stand-in runtime, launch rewriting and result reading)

ROOT = rc.ROOT
REL = os.path.join("test", "tilelang_st", "npu", "a5", "src", "st", "testcase")


def testcases(base, filters, want_all):
    found = []
    for name in sorted(os.listdir(base)):
        d = os.path.join(base, name)
        if not os.path.isdir(d) or not os.path.exists(os.path.join(d, name + ".pto")):
            continue
        need = ("cases.py", "gen_data.py", "compare.py", "main.cpp", "launch.cpp")
        if not all(os.path.exists(os.path.join(d, f)) for f in need):
            continue
        try:
            with open(os.path.join(d, "CMakeLists.txt")) as f:
                vec = "pto_tilelang_vec_st" in f.read()
        except OSError:
            vec = False
        if not want_all and not vec:
            continue
        if filters and not any(f == name or f in name for f in filters):
            continue
        found.append((name, d))
    return found


def case_names(out, names):
    """The cases compare.py passed: a case passes when a line "[INFO] NAME: [compare ]passed" names it and no
    "[ERROR] NAME: ..." line does (the testcases' compare scripts differ in their wording)."""
    passed, failed = set(), set()
    for line in out.splitlines():
        m = re.search(r"\[INFO\] (\S+): (?:compare )?passed", line)
        if m:
            passed.add(m.group(1))
        m = re.search(r"\[ERROR\] (\S+):", line)
        if m:
            failed.add(m.group(1))
    return {n for n in passed - failed if n in names}, failed


# The host programs pass half-precision scalars as their raw 16 bits (an unsigned short argument, as the device
# ABI does); ptosim reads an integer literal for a float parameter as its value. This wrapper around ptosim
# rewrites such literals into the value the bits encode (exact in decimal), from the kernel's own signature.
WRAPPER = r"""#!%s
import os, re, struct, sys
real = %r
argv = sys.argv[1:]
def main():
    if "--" not in argv or "-e" not in argv:
        return argv
    k = argv.index("--")
    entry, pto = argv[argv.index("-e") + 1], argv[k - 1]
    try:
        text = open(pto).read()
    except OSError:
        return argv
    m = re.search(r"func\.func\s+@" + re.escape(entry) + r"\s*\((.*?)\)\s*(?:->|attributes|\{)", text, re.S)
    if not m:
        return argv
    types = [t.strip() for t in re.findall(r"%%[\w$.-]+\s*:\s*([^,]+(?:<[^>]*>)?)", m.group(1))]
    args = argv[k + 1:]
    for i, t in enumerate(types[:len(args)]):
        a = args[i]
        if not re.fullmatch(r"-?(0x[0-9a-fA-F]+|[0-9]+)", a):
            continue
        v = int(a, 0) & 0xFFFFFFFF
        if t == "f16":
            args[i] = repr(struct.unpack("<e", struct.pack("<H", v & 0xFFFF))[0])
        elif t == "bf16":
            args[i] = repr(struct.unpack("<f", struct.pack("<I", (v & 0xFFFF) << 16))[0])
    return argv[:k + 1] + args
os.execv(real, [real] + main())
"""


def make_wrapper(d, ptosim):
    path = os.path.join(d, "ptosim-wrapper")
    rc.write(path, WRAPPER % (sys.executable, ptosim))
    os.chmod(path, 0o755)
    return path


def case_list(case_dir, env):
    code, out = rc.run([sys.executable, "-c", "from cases import CASES\nfor c in CASES: print(c['name'])"], case_dir, env)
    return set(out.split()) if code == 0 else set()


def count_cases(case_dir, env):
    return len(case_list(case_dir, env))


def run_testcase(name, case_dir, args):
    tmp = tempfile.mkdtemp(prefix="ptosim-tile-st-")
    try:
        return name, run_in(name, case_dir, tmp, args)
    finally:
        if args.keep:
            dest = os.path.join(args.keep, name)
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(tmp, dest)
        shutil.rmtree(tmp, ignore_errors=True)


def run_in(name, case_dir, tmp, args):
    """(status, cases passed, cases, class, why, warnings)."""
    py = sys.executable
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([case_dir, os.path.dirname(case_dir)]))
    total = count_cases(case_dir, env)
    code, out = rc.run([py, os.path.join(case_dir, "gen_data.py")], tmp, env)
    if code != 0:
        cls = "ml_dtypes" if "ml_dtypes" in out else "harness"
        return ("FAIL", 0, total, cls, "gen_data.py: " + rc.first_line(out.splitlines()[-1] if out else ""), [])
    inc = os.path.join(tmp, "_inc")
    os.makedirs(os.path.join(inc, "acl"))
    rc.write(os.path.join(inc, "ptosim_prelude.h"), rc.PRELUDE_H)
    rc.write(os.path.join(inc, "acl", "acl.h"), rc.ACL_H)
    rc.write(os.path.join(inc, "test_common.h"), rc.TEST_COMMON_H)
    with open(os.path.join(case_dir, "launch.cpp")) as f:
        # the testcases spell the kernel qualifier `__global__ AICORE` (a macro of [aicore])
        src = re.sub(r"__global__\s+AICORE\b", "__global__", f.read())
        rc.write(os.path.join(inc, "launch_shim.cpp"), rc.rewrite_launch(src))
    exe = os.path.join(inc, "host")
    code, out = rc.run([args.cxx, "-std=c++17", "-O0", "-w", "-I", inc, "-include", os.path.join(inc, "ptosim_prelude.h"),
                        os.path.join(case_dir, "main.cpp"), os.path.join(inc, "launch_shim.cpp"), args.runtime_obj,
                        "-o", exe], tmp)
    if code != 0:
        err = [l for l in out.splitlines() if "error" in l]
        return ("FAIL", 0, total, "harness", "host build: " + (err[0] if err else rc.first_line(out))[:200], [])
    henv = dict(os.environ, PTOSIM_BIN=args.wrapper, PTOSIM_KERNEL=os.path.join(case_dir, name + ".pto"),
                PTOSIM_FLAGS=args.flags)
    hcode, hout = rc.run([exe], tmp, henv)
    launches = []
    try:
        with open(os.path.join(tmp, "ptosim_launches.txt")) as f:
            for line in f:
                w = line.split(None, 3)
                if w and w[0] == "LAUNCH":
                    launches.append((int(w[1]), int(w[2]), w[3].strip()))
    except OSError:
        pass
    warns, first_bad = set(), None
    for idx, code, kernel in launches:
        diags, bad, w, err = rc.launch_result(tmp, idx)
        warns.update(w)
        if code == 0 or first_bad:
            continue
        if code == 1 and bad:
            cls = "parse" if bad[0].get("id", "").startswith(rc.PARSE_IDS) else "verify"
        elif code == 3 and bad:
            cls = bad[0].get("id", "trap")
        else:
            cls = "harness"
        first_bad = (cls, kernel + ": " + (rc.describe(bad[0]) if bad else rc.first_line(err)))
    code, out = rc.run([py, os.path.join(case_dir, "compare.py")], tmp, dict(env, COMPARE_STRICT="1"))
    names = case_list(case_dir, env)
    passed, failed = case_names(out, names)
    npass = len(passed)
    if not launches:
        return ("FAIL", 0, total, "harness", "the host program launched no kernel (exit %d): %s" % (hcode, rc.first_line(hout)), [])
    if npass == total and code == 0 and not first_bad:
        return ("PASS", npass, total, "", "", sorted(warns))
    if first_bad:
        return ("FAIL", npass, total, first_bad[0], first_bad[1], sorted(warns))
    lines = [l for l in out.splitlines() if "Mismatch" in l or "failed" in l or "Error" in l]
    return ("FAIL", npass, total, "mismatch", (lines[0] if lines else rc.first_line(out)).strip()[:200], sorted(warns))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ptoas")
    ap.add_argument("filters", nargs="*")
    ap.add_argument("--ptosim", default=os.path.join(ROOT, "build", "ptosim"))
    ap.add_argument("-j", type=int, default=1, help="testcases run in parallel (default 1)")
    ap.add_argument("--keep", help="copy each testcase's work directory under this directory")
    ap.add_argument("--flags", default="", help="extra `ptosim run` options, space-separated")
    ap.add_argument("--all", action="store_true", help="the cube testcases too")
    ap.add_argument("-v", action="store_true", help="print the warnings of passing testcases too")
    args = ap.parse_args()
    args.ptosim = os.path.abspath(args.ptosim)
    if not os.access(args.ptosim, os.X_OK):
        sys.exit("run_tile_st.py: no ptosim at %s (build it, or pass --ptosim)" % args.ptosim)
    try:
        import numpy  # noqa: F401
    except ImportError:
        sys.exit("run_tile_st.py: numpy is missing (run with /usr/bin/python3)")
    base = os.path.join(os.path.abspath(args.ptoas), REL)
    if not os.path.isdir(base):
        base = os.path.abspath(args.ptoas)
    cases = testcases(base, args.filters, args.all)
    if not cases:
        sys.exit("run_tile_st.py: no testcase under %s matches" % base)
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    args.cxx = os.environ.get("CXX", "g++")
    shared = tempfile.mkdtemp(prefix="ptosim-tile-st-rt-")
    tc_pass = tc_fail = c_pass = c_total = blocked = 0
    classes = {}
    try:
        args.runtime_obj = rc.build_runtime(shared, args.cxx)
        args.wrapper = make_wrapper(shared, args.ptosim)
        with ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
            for name, (status, np_, nt, cls, why, warns) in pool.map(lambda c: run_testcase(c[0], c[1], args), cases):
                w = (" [%s]" % " ".join(warns)) if warns and (status != "PASS" or args.v) else ""
                if cls == "ml_dtypes":
                    blocked += 1
                    print("BLOCKED %s (%d cases): the data generator needs ml_dtypes" % (name, nt), flush=True)
                    continue
                c_pass += np_
                c_total += nt
                if status == "PASS":
                    tc_pass += 1
                    print("PASS %s %d/%d%s" % (name, np_, nt, w), flush=True)
                else:
                    tc_fail += 1
                    classes[cls] = classes.get(cls, 0) + 1
                    print("FAIL %s %d/%d: %s: %s%s" % (name, np_, nt, cls, why, w), flush=True)
    finally:
        shutil.rmtree(shared, ignore_errors=True)
    detail = ", ".join("%s %d" % kv for kv in sorted(classes.items()))
    print("cases: %d of %d passed; ml_dtypes-blocked testcases: %d" % (c_pass, c_total, blocked))
    print("%d passed, %d failed%s" % (tc_pass, tc_fail, (" (" + detail + ")") if detail else ""))
    sys.exit(1 if tc_fail else 0)


if __name__ == "__main__":
    main()
