#!/usr/bin/env python3
"""test_case.py --build BUILD — `ptosim case` on case directories this project writes (tests/case/good: the
PTOAS layout `vadd` and the tile system tests' layout `tile/vadd2` with two kernels and st_common.py one level
up; tests/case/bad/mismatch: vadd with vsub planted). Expected by hand: the good cases pass, the planted bug
is a mismatch, the run options reach `ptosim run` (--steps 5 stops the kernel: T-STEP-LIMIT), --keep keeps
the host program's outputs (z.bin equal to golden.bin, both written by the case's own scripts), --stats and
--report give each launch's stats and report; the same from Python (ptosim.case.run_cases). Needs a C++17
compiler (skipped without one)."""
import os, re, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import BUILD, ROOT, check, finish, numpy_python, skip

PTOSIM = os.path.join(BUILD, "ptosim")
GOOD, BAD = os.path.join(ROOT, "tests", "case", "good"), os.path.join(ROOT, "tests", "case", "bad")
if not shutil.which(os.environ.get("CXX", "g++")):
    skip("no C++ compiler (%s); ptosim case builds the cases' host programs with it" % os.environ.get("CXX", "g++"))


def case(*args):
    p = subprocess.run([PTOSIM, "case"] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


code, out, err = case("-j", "2", GOOD)
check(code == 0 and "PASS vadd" in out and "PASS tile/vadd2" in out and out.rstrip().endswith("2 passed, 0 failed"),
      "ptosim case: both layouts pass", out + err)
code, out, err = case(BAD, GOOD)
check(code == 1 and re.search(r"^FAIL mismatch: mismatch: ", out, re.M) and "3 cases" not in out
      and "2 passed, 1 failed (mismatch 1)" in out, "a planted bug is FAIL mismatch, exit 1", out + err)
code, out, err = case(os.path.join(GOOD, "vadd"), "--steps", "5")
check(code == 1 and re.search(r"^FAIL vadd: T-STEP-LIMIT", out, re.M), "run options reach ptosim run (--steps 5)", out + err)
code, out, err = case(os.path.join(ROOT, "tests", "cli"))
check(code == 2 and "no case directory" in err, "a directory without cases is a usage error", out + err)

# a launch.cpp that declares its kernels through a macro (PTOAS tquant_mx_dn's DEFINE_LAUNCH(name)): each use is
# expanded, so every kernel becomes a definition that runs ptosim under its own name (by hand: the two names)
import importlib.util  # noqa: E402
spec = importlib.util.spec_from_file_location("ptosim_case_mod", os.path.join(ROOT, "python", "ptosim", "case.py"))
cm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cm)
src = ('#define DEFINE_LAUNCH(name) \\\n    extern "C" __global__ AICORE void name(__gm__ uint8_t *, __gm__ uint8_t *); \\\n'
       '    void Launch##name(void *a, void *b, void *s) { name<<<1, nullptr, s>>>((__gm__ uint8_t *)a, (__gm__ uint8_t *)b); }\n'
       'DEFINE_LAUNCH(K_one)\nDEFINE_LAUNCH(K_two)\n#undef DEFINE_LAUNCH\n')
out = cm.rewrite_launch(src)
check('ptosim_exec("K_one")' in out and 'ptosim_exec("K_two")' in out and "void LaunchK_two(" in out
      and "##" not in out and "#define" not in out and "#undef" not in out,
      "a kernel-declaring macro of launch.cpp is expanded at each use", out)

# a host float given to an integer kernel parameter passes its bits (the C calling convention; PTOAS tsels of
# 2026-06 declares its f32 scalar i32): the declaration's argument goes through ptosim_arg_ibits only when the .pto
# parameter is an integer, and that overload sends the float's IEEE bits (by hand: 1.5f = 0x3fc00000 = 1069547520,
# -2.0f = 0xc0000000 = 3221225472; an integer argument is itself)
src = ('extern "C" __global__ AICORE void K(__gm__ float *p, float s, float t, int32_t u);\n'
       'void LaunchK(float *p, float s, float t, int32_t u, void *st) { K<<<1, nullptr, st>>>(p, s, t, u); }\n')
out = cm.rewrite_launch(src, {"K": ["!pto.ptr<f32>", "i32", "f32", "i32"]})
check("ptosim_arg(p);" in out and "ptosim_arg_ibits(s);" in out and "ptosim_arg(t);" in out
      and "ptosim_arg_ibits(u);" in out, "an integer .pto parameter takes its argument's bits", out)
cxx = os.environ.get("CXX", "g++")
tmpc = tempfile.mkdtemp(prefix="ptosim-case-ibits-")
try:
    with open(os.path.join(tmpc, "t.cpp"), "w") as f:
        f.write('#include <cstdio>\n#include "ptosim_prelude.h"\n'
                'void ptosim_arg_int(long long v, int s, int b) { std::printf("int %lld %d %d\\n", v, s, b); }\n'
                'void ptosim_arg_float(double v) { std::printf("float %g\\n", v); }\n'
                'int main() { ptosim_arg_ibits(1.5f); ptosim_arg_ibits(-2.0f); ptosim_arg_ibits((int32_t)-7); '
                'ptosim_arg(1.5f); return 0; }\n')
    rt = os.path.join(ROOT, "python", "ptosim", "case_runtime")
    p = subprocess.run([cxx, "-std=c++17", "-I", rt, "-o", os.path.join(tmpc, "t"), os.path.join(tmpc, "t.cpp")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    got = subprocess.run([os.path.join(tmpc, "t")], stdout=subprocess.PIPE).stdout.decode() if p.returncode == 0 else ""
    check(got == "int 1069547520 0 0\nint 3221225472 0 0\nint -7 1 0\nfloat 1.5\n",
          "ptosim_arg_ibits sends a float's bits, an integer's value", got + p.stdout.decode())
finally:
    shutil.rmtree(tmpc, ignore_errors=True)

tmp = tempfile.mkdtemp(prefix="ptosim-case-test-")
try:
    keep, rep = os.path.join(tmp, "keep"), os.path.join(tmp, "rep")
    code, out, err = case(GOOD, "--keep", keep, "--stats", "--report", rep)
    z, g = os.path.join(keep, "vadd", "z.bin"), os.path.join(keep, "vadd", "golden.bin")
    check(code == 0 and os.path.exists(z) and open(z, "rb").read() == open(g, "rb").read()
          and os.path.exists(os.path.join(keep, "tile__vadd2", "n512", "output.bin")),
          "--keep keeps each case's work directory", out + err)
    check(len(re.findall(r"stats of vadd\w*:\n +time: \d+ cycles", out)) == 3, "--stats: one table per launch (3)", out)
    reports = sorted(os.listdir(rep)) if os.path.isdir(rep) else []
    check(len(reports) == 3 and all(r.endswith(".html") for r in reports), "--report DIR: one HTML report per launch",
          repr(reports))

    # the same from Python (the driver is the module ptosim.case; `import ptosim` needs numpy)
    prog = ("import sys; sys.path.insert(0, %r); import ptosim.case as c; "
            "r = c.run_cases([%r, %r], ptosim=%r); print([(x.case, x.status, x.cls) for x in r])"
            % (os.path.join(ROOT, "python"), GOOD, BAD, PTOSIM))
    py = numpy_python()
    if not py:
        print("SKIP: no python3 with numpy: ptosim.case from Python not tried")
    p = subprocess.run([py or sys.executable, "-c", prog], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    got = p.stdout.decode().strip()
    check(not py or got == "[('tile/vadd2', 'PASS', ''), ('vadd', 'PASS', ''), ('mismatch', 'FAIL', 'mismatch')]"
          or got == "[('mismatch', 'FAIL', 'mismatch'), ('tile/vadd2', 'PASS', ''), ('vadd', 'PASS', '')]",
          "ptosim.case.run_cases from Python", got + p.stderr.decode())
finally:
    shutil.rmtree(tmp, ignore_errors=True)
finish()
