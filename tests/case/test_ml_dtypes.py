#!/usr/bin/env python3
"""test_ml_dtypes.py --build BUILD — the ml_dtypes stand-in of `ptosim case` (python/ptosim/ml_dtypes_standin):
built as `ptosim case` builds it (ptosim.case.build_ml_dtypes, which declines when a real ml_dtypes is importable:
then the real one is checked against the same values), then imported by the scripts' Python. Expected codes
computed by hand from the formats: bfloat16 = the upper half of an f32 after rounding to nearest even;
float8_e4m3fn (bias 7, max 448 = 0x7E, NaN 0x7F, no inf); float8_e5m2 (bias 15, max 57344 = 0x7B, inf 0x7C);
float4_e2m1fn (values 0, 0.5, 1, 1.5, 2, 3, 4, 6; no inf/NaN: past 6 saturates); float8_e8m0fnu (2^(e-127));
and the en_dtypes stand-in built next to it: float4_e2m1 (the same format) and float4_e1m2 (bias 1, 2 mantissa bits:
k/4 below 1, 1 + k/4 up to 1.75, saturating).
Needs a C compiler and numpy's headers (skipped without them)."""
import os, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import ROOT, check, finish, numpy_python, skip

import importlib.util  # noqa: E402
# case.py on its own (the ptosim package itself needs numpy in the running Python)
_spec = importlib.util.spec_from_file_location("ptosim_case", os.path.join(ROOT, "python", "ptosim", "case.py"))
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)

PY = numpy_python()
if not PY:
    skip("no python3 with numpy")
if not shutil.which(os.environ.get("CC", "cc")):
    skip("no C compiler")

SCRIPT = r'''
import numpy as np, ml_dtypes
from ml_dtypes import bfloat16, float8_e4m3fn, float8_e5m2, float4_e2m1fn, float8_e8m0fnu
def codes(vals, t, view):
    return np.array(vals, dtype=np.float32).astype(t).view(view).tolist()
out = {}
# 1 + 2^-8 is a tie between 1 and 1 + 2^-7: even (1.0); 1 + 3*2^-8 ties up to 1 + 2^-6
out["bf16"] = codes([1.0, 1 + 2 ** -8, 1 + 3 * 2 ** -8, -2.5, 3.4e38, float("inf"), 0.0, -0.0], bfloat16, np.uint16)
out["bf16_nan"] = codes([float("nan")], bfloat16, np.uint16)[0] & 0x7FC0
out["e4m3"] = codes([448.0, 1.0625, 1.1875, 2 ** -9, -1.0, 0.0, 3.0 * 2 ** -10], float8_e4m3fn, np.uint8)
out["e4m3_nan"] = codes([float("nan"), 1000.0], float8_e4m3fn, np.uint8)
out["e5m2"] = codes([57344.0, 1.125, 1.375, float("inf"), -2 ** -16], float8_e5m2, np.uint8)
out["e2m1"] = codes([0.75, 1.25, 1.75, 5.0, 7.0, -0.5, 0.25], float4_e2m1fn, np.uint8)
out["e8m0"] = codes([1.0, 2.0, 0.25, 2.0 ** 127], float8_e8m0fnu, np.uint8)
# decoding, bf16 -> f32 and the other way round, through a file
a = np.arange(-8, 8, dtype=np.float32) * np.float32(0.75)
b = a.astype(bfloat16)
b.tofile("x.bin")
c = np.fromfile("x.bin", dtype=bfloat16)
out["roundtrip"] = bool((c.astype(np.float32) == a).all()) and c.dtype == np.dtype(bfloat16)
out["decode"] = np.array([0x3F80, 0xC020, 0x0001], dtype=np.uint16).view(bfloat16).astype(np.float64).tolist()
out["e4m3_decode"] = np.array([0x7E, 0x01, 0xB8], dtype=np.uint8).view(float8_e4m3fn).astype(np.float32).tolist()
# ufuncs compute in float32; the product of two bf16 values rounds back exactly as in ml_dtypes
x = np.array([1.5, 3.0], dtype=np.float32).astype(bfloat16)
out["mul"] = (x * x).astype(bfloat16).astype(np.float32).tolist()
out["rint"] = np.rint(np.array([2.5, -1.5], dtype=np.float32).astype(bfloat16)).astype(np.float32).tolist()
out["custom2custom"] = np.array([0.75, 5.5], dtype=np.float32).astype(bfloat16).astype(float4_e2m1fn).view(np.uint8).tolist()
out["finfo"] = [ml_dtypes.finfo(bfloat16).max, ml_dtypes.finfo(float8_e4m3fn).max, float(ml_dtypes.finfo(np.float16).max)]
out["iinfo"] = [ml_dtypes.iinfo(np.int16).min, ml_dtypes.iinfo(np.uint8).max]
out["issub"] = [bool(np.issubdtype(bfloat16, np.floating)), np.dtype(bfloat16) == bfloat16]
z = np.zeros((2, 2), dtype=bfloat16)
z[0, :] = x
out["zeros"] = z.view(np.uint16).tolist()
try:
    import en_dtypes
    out["e1m2"] = codes([-1.0, 0.0, 1.0, 0.3, 0.375, 0.625, 1.875, 5.0, -0.25], en_dtypes.float4_e1m2, np.uint8)
    out["e1m2_decode"] = np.arange(16, dtype=np.uint8).view(en_dtypes.float4_e1m2).astype(np.float64).tolist()
    out["en_e2m1"] = codes([-6.0, 5.0, 2.5], en_dtypes.float4_e2m1, np.uint8)
    # the MX data scripts' use: integers cast in, scaled by a float64 vector
    r = np.array([[-1, 1], [0, 1]]).astype(en_dtypes.float4_e1m2)
    out["e1m2_mul"] = (r[:, 1] * np.array([2.0, 0.5])).tolist()
except ImportError:
    out["e1m2"] = "no en_dtypes"
print(repr(out))
'''

work = tempfile.mkdtemp(prefix="ptosim-mldt-")
try:
    path = C.build_ml_dtypes(work, PY)
    real = subprocess.run([PY, "-c", "import ml_dtypes"], stderr=subprocess.DEVNULL).returncode == 0
    check(path is not None or real, "the stand-in builds (or a real ml_dtypes is there)")
    env = dict(os.environ)
    if path:
        env["PYTHONPATH"] = path
    p = subprocess.run([PY, "-c", SCRIPT], cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=120)
    check(p.returncode == 0, "the scripts' uses of ml_dtypes run", p.stderr)
    out = eval(p.stdout) if p.returncode == 0 else {}
    expect = {
        "bf16": [0x3F80, 0x3F80, 0x3F82, 0xC020, 0x7F80, 0x7F80, 0x0000, 0x8000],
        "bf16_nan": 0x7FC0,
        "e4m3": [0x7E, 0x38, 0x3A, 0x01, 0xB8, 0x00, 0x02],
        "e4m3_nan": [0x7F, 0x7F],
        "e5m2": [0x7B, 0x3C, 0x3E, 0x7C, 0x81],
        "e2m1": [0x2, 0x2, 0x4, 0x6, 0x7, 0x9, 0x0],
        "e8m0": [127, 128, 125, 254],
        "roundtrip": True,
        "decode": [1.0, -2.5, 2.0 ** -133],
        "e4m3_decode": [448.0, 2.0 ** -9, -1.0],
        "mul": [2.25, 9.0],
        "rint": [2.0, -2.0],
        "custom2custom": [0x2, 0x7],
        "finfo": [(2 - 2.0 ** -7) * 2.0 ** 127, 448.0, 65504.0],
        "iinfo": [-32768, 255],
        "issub": [False, True],
        "zeros": [[0x3FC0, 0x4040], [0, 0]],
        # 0.3 = 1.2 quarters -> 1 (0.25); 0.375 and 0.625 tie -> even quarters 2 and 2 (0.5), 1.875 ties
        # between 1.75 (code 7) and 2 (past the largest): saturates to 7
        "e1m2": [0xC, 0x0, 0x4, 0x1, 0x2, 0x2, 0x7, 0x7, 0x9],
        "e1m2_decode": [0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, -0.0, -0.25, -0.5, -0.75, -1.0, -1.25, -1.5, -1.75],
        "en_e2m1": [0xF, 0x6, 0x4],
        "e1m2_mul": [2.0, 0.5],
    }
    for k, v in expect.items():
        check(out.get(k) == v, "ml_dtypes %s: %r" % (k, v), "got %r" % (out.get(k),))
finally:
    shutil.rmtree(work, ignore_errors=True)
finish()
