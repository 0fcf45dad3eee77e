#!/usr/bin/env python3
"""The calibration harness (tools/timing/calibrate.py, `make calibrate`; docs/timing.md "Accuracy").

Without a pto-isa checkout it says so and exits 0. With a stand-in checkout written here (three case lists
in the two layouts the harness reads, with made-up profiled figures; no pto-isa text) it generates and runs
ptosim's own kernels and prints ptosim's cycles next to the figures. The expected cycles are computed by
hand from docs/timing.md "Tile ops" with the built-in a5 table, plus the op's base cycle:
  texp f32, 1 x 64 (one repeat of vlds, vexp, vsts): 35 + (vlds forwards 6 + vexp forwards to the store 14
    + vsts retires 9 = 29) + 1 = 65;
  texp f32, 3 x 160 valid 3 x 128 (3 lines of 2 repeats; II = vexp ii 4 / 2 ports = 2; each further line
    max(2 x 2, 2 x 1 + 5, 7) = 7): 35 + 29 + (2 - 1) x 2 + 2 x 7 + 1 = 81 (against a made-up 92: -12.0%);
  tadd f32, 1 x 64 (vlds, vlds, vadd, vsts): 35 + (6 + vadd forwards to the store 5 + 9 = 20) + 1 = 56;
and the "high_precision" trecip case is left out (not modelled)."""
import os, subprocess, sys, tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import BUILD, ROOT, check, finish

PTOSIM = os.path.join(BUILD, "ptosim")
HARNESS = os.path.join(ROOT, "tools", "timing", "calibrate.py")


def run(*args, env=None):
    e = dict(os.environ)
    e.pop("PTOISA", None)
    e.update(env or {})
    p = subprocess.run([sys.executable, HARNESS, "--ptosim", PTOSIM] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=e)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


rc, out, err = run()
check(rc == 0 and "no pto-isa checkout" in out, "without PTOISA: says so and exits 0", out + err)
rc, out, err = run("--ptoisa", "/nonexistent/pto-isa")
check(rc == 0 and "no pto-isa checkout" in out, "with a path that is no checkout: says so and exits 0", out + err)

with tempfile.TemporaryDirectory() as tmp:
    base = os.path.join(tmp, "tests", "costmodel", "st_a5_fit", "testcase")
    files = {
        "texp_fit": "constexpr Case a[] = {\n"
                    "    {DType::Float, 1, 64, 1, 64, 65.0, 0.99, VFImplKind::VFIMPL_1D_POST_UPDATE, \"\"},\n"
                    "    {DType::Float, 3, 160, 3, 128, 92.0, 0.99, VFImplKind::VFIMPL_1D_NO_POST_UPDATE, \"\"},\n"
                    "};\n",
        "tadd_fit": "TEST(X, Y)\n{\n    runTAdd<float, 1, 64, 56.0, 0.98>();\n}\n",
        "trecip_fit": "constexpr Case b[] = {\n"
                      "    {DType::Float, 1, 64, 1, 64, 401.0, 0.99, VFImplKind::VFIMPL_1D_POST_UPDATE, \"high_precision\"},\n"
                      "};\n",
    }
    for d, text in files.items():
        os.makedirs(os.path.join(base, d))
        with open(os.path.join(base, d, "main.cpp"), "w") as f:
            f.write(text)
    rc, out, err = run("--all", env={"PTOISA": tmp})
    rows = [l.split() for l in out.splitlines()]

    def row(op, tile, valid):
        return next((r for r in rows if len(r) >= 7 and r[0] == op and r[2] == tile and r[3] == valid), None)

    check(rc == 0, "the harness runs on a stand-in checkout", out + err)
    r = row("texp", "1x64", "1x64")
    check(r and r[5] == "65" and r[6] == "+0.0%", "texp f32 1x64: ptosim 65 cycles, as computed", out + err)
    r = row("texp", "3x160", "3x128")
    check(r and r[4] == "92" and r[5] == "81" and r[6] == "-12.0%", "texp f32 3x160 valid 3x128: 81 vs 92 (-12.0%)", out + err)
    r = row("tadd", "1x64", "1x64")
    check(r and r[5] == "56", "tadd f32 1x64 (template-argument layout): 56 cycles", out + err)
    check(not any(r and r[0] == "trecip" for r in rows), "high-precision cases are left out", out)
    check("all: 3 cases, 2 within 10%" in out, "the summary counts 3 cases, 2 within 10%", out)
finish()
