#!/usr/bin/env python3
"""test_samples.py --build BUILD — the PTOAS test/samples runner (python/ptosim/samples.py, behind `ptosim case`
and tools/corpus/run_samples.py) on a sample directory written for this test (samples/Mini, with its own
validation_runtime.py one level up; nothing of the compiler's). Expected by hand from the kernels' text:

* the host-program facts: x spans rows 0..3 of a 4x64 view (3*64 + 64 = 256 elements), out the same, y rows
  up to i + rows = 3 + 1 (4*64 + 64 = 320; the partition at a divided offset adds nothing), the index scalar
  is `int64_t v4 = 1`, the only output is the middle parameter v2 (the one pto.tstore writes);
* scale_add passes (its golden script's oracle), bad_add (the kernel subtracts, the golden adds) is a
  mismatch, det_add (no golden written) passes as determinism-only;
* run_samples.py prints the directory's count "2 / 3 (1 determinism-only)" and "2 passed, 1 failed".
"""
import os, re, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import BUILD, ROOT, check, finish, numpy_python, skip

PY = numpy_python()
if not PY:
    skip("no python3 with numpy (the golden scripts need it)")
PTOSIM = os.path.join(BUILD, "ptosim")
HERE = os.path.dirname(os.path.abspath(__file__))
MINI = os.path.join(HERE, "samples", "Mini")

sys.path.insert(0, os.path.join(ROOT, "python"))
import importlib.util  # noqa: E402
spec = importlib.util.spec_from_file_location("ptosim_samples_mod", os.path.join(ROOT, "python", "ptosim", "samples.py"))
sm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sm)

meta = sm.derive(open(os.path.join(MINI, "kernels", "aiv", "scale_add.pto")).read(), "scale_add", "Mini")
check([(v, ct, n) for v, _, ct, n in meta.ptrs] == [("v1", "float", 256), ("v2", "float", 320 - 64), ("v3", "float", 320)],
      "element counts from the partitions' footprints (loop counter at its last value, scalar at 1)",
      [(v, ct, n) for v, _, ct, n in meta.ptrs])
check(meta.scalars == [("v4", "int64_t", "1")] and meta.outputs == ["v2"], "scalar default and the stored output",
      (meta.scalars, meta.outputs))
# the samples tree dates the index width: int64_t with load_integer_assignments in validation_runtime.py (PTOAS
# 2fcf61b5 and later; this test's runtime has it), int32_t without (earlier trees), int64_t with no runtime
old_rt = tempfile.mkdtemp(prefix="ptosim-samples-oldrt-")
with open(os.path.join(old_rt, "validation_runtime.py"), "w") as f:
    f.write("def load_int32_assignments(main_cpp='main.cpp'):\n    return []\n")
m32 = sm.derive(open(os.path.join(MINI, "kernels", "aiv", "scale_add.pto")).read(), "scale_add", "Mini",
                sm.index_host_type(old_rt))
check(sm.index_host_type(os.path.dirname(MINI)) == "int64_t" and sm.index_host_type(old_rt) == "int32_t"
      and sm.index_host_type(None) == "int64_t" and m32.scalars == [("v4", "int32_t", "1")],
      "the index scalar's host type follows the samples tree's runtime", (m32.scalars, sm.index_host_type(old_rt)))
os.remove(os.path.join(old_rt, "validation_runtime.py"))
os.rmdir(old_rt)
cpp = sm.main_cpp(meta)
check("size_t fileSize_v3 = elemCount_v3 * sizeof(float);" in cpp and cpp.index('"./v1.bin"') < cpp.index('"./v3.bin"'),
      "main.cpp stand-in: file sizes and the read order", cpp)
check(sm.target_of("/x/Qwen3DecodeA3", "") == "a2a3" and sm.target_of("/x/DeepseekV4DecodeA5", "") == "a5"
      and sm.target_of("/x/Other", 'module attributes {pto.target_arch = "a5"}') == "a5",
      "target from the directory name, else the module")
pair = sm.describe("func.func @k_aic(%a: !pto.ptr<f32>) {\n return\n}\n"
                   "func.func @k_aiv(%a: !pto.ptr<f32>, %s: i32) {\n return\n}\n")
check(pair is not None and pair.entry == "k" and pair.mixed and pair.params == [("%a", "!pto.ptr<f32>")],
      "an aic/aiv pair: the AIC's parameters, the AIV's trailing subblock id left to the runtime")

# a pointer that feeds make_prefetch_async_context is the flow's SDMA workspace (generate_testcase.py
# _detect_prefetch_workspace_pointer_params): not a buffer of the case, so no count and no file; the other
# pointers keep their numbering (v1, v2) and the stored one (v2) is the output
pf = sm.derive("func.func @pf(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<i8>) {\n"
               "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
               "  %c128 = arith.constant 128 : index\n"
               "  %0 = pto.make_tensor_view %arg1, shape = [%c128], strides = [%c1] : !pto.tensor_view<128xf32>\n"
               "  %1 = pto.partition_view %0, offsets = [%c0], sizes = [%c128] : !pto.tensor_view<128xf32> -> "
               "!pto.partition_tensor_view<128xf32>\n"
               "  %4 = pto.make_prefetch_async_context(%arg2 : !pto.ptr<i8>) -> !pto.prefetch_async_context\n"
               "  %8 = pto.alloc_tile : !pto.tile_buf<vec, 1x128xf32>\n"
               "  pto.tstore ins(%8 : !pto.tile_buf<vec, 1x128xf32>) outs(%1 : !pto.partition_tensor_view<128xf32>)\n"
               "  return\n}\n", "pf", "Mini")
check(pf is not None and [v for v, _, _, _ in pf.ptrs] == ["v1", "v2"] and pf.outputs == ["v2"]
      and "v3" not in sm.main_cpp(pf), "a prefetch workspace pointer is not a buffer of the case",
      pf and (pf.ptrs, pf.outputs))

p = subprocess.run([PTOSIM, "case", MINI], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600,
                   env=dict(os.environ, PTOSIM_PYTHON=PY))
out = p.stdout.decode() + p.stderr.decode()
check(p.returncode == 1 and "PASS Mini/scale_add" in out and "PASS Mini/det_add" in out
      and re.search(r"^FAIL Mini/bad_add: mismatch: ", out, re.M) and "2 passed, 1 failed (mismatch 1)" in out,
      "ptosim case on a sample directory: pass, planted mismatch, determinism-only pass", out)

keep = tempfile.mkdtemp(prefix="ptosim-samples-test-")
p = subprocess.run([PY, os.path.join(ROOT, "tools", "corpus", "run_samples.py"), os.path.join(HERE, "samples"),
                    "--ptosim", PTOSIM, "--keep", keep], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
out = p.stdout.decode() + p.stderr.decode()
check(p.returncode == 1 and "PASS Mini/det_add (determinism only)" in out
      and re.search(r"Mini\s+2 /\s+3 \(1 determinism-only\)", out) and out.rstrip().endswith("2 passed, 1 failed (mismatch 1)"),
      "run_samples.py: per-directory count and summary", out)
try:
    import numpy as np   # noqa: F401  (only to read the kept outputs; skipped without numpy)
    w = os.path.join(keep, "Mini__scale_add")
    got = np.fromfile(os.path.join(w, "v2.bin"), np.float32)
    x, y = np.fromfile(os.path.join(w, "v1.bin"), np.float32), np.fromfile(os.path.join(w, "v3.bin"), np.float32)
    check(got.size == 256 and np.array_equal(got, x + y[64:64 + 256]), "the kernel's output is x + y shifted by one row")
except ImportError:
    pass
import shutil  # noqa: E402
shutil.rmtree(keep, ignore_errors=True)
finish()
