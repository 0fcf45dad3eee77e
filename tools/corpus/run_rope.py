#!/usr/bin/env python3
"""tools/corpus/run_rope.py PTOAS_DIR [--ptosim FILE] — runs the compiler's kernel-test rope kernels
(test/kernel-test/kernels/rope/vmi/rope_{f32,f16}.vmi.pto, written in the MLIR-named VMI ops) on ptosim for both
modes (0: half rotation, 1: interleaved) and compares with the kernel suite's reference formula evaluated here in
NumPy (float64): half  y = cos*x + sin*cat(-x2, x1);  interleave  y = x*cos + stack(-x_odd, x_even)*sin, with cos and
sin [S, 64] broadcast over N. Tolerances are the suite's (tile_config.py: f32 1e-5, f16 1e-2, relative to the
largest |y|). Prints one line per kernel and mode, then 'N passed, M failed'. Needs numpy."""
import os, subprocess, sys, tempfile

import numpy as np


def main():
    args = sys.argv[1:]
    ptosim = "build/ptosim"
    if "--ptosim" in args:
        i = args.index("--ptosim")
        ptosim = args[i + 1]
        del args[i:i + 2]
    root = args[0]
    S, N, D = 3, 5, 64
    ok = bad = 0
    rng = np.random.default_rng(7)
    with tempfile.TemporaryDirectory() as tmp:
        for dt, npdt, tol in (("f32", np.float32, 1e-5), ("f16", np.float16, 1e-2)):
            kern = os.path.join(root, "test/kernel-test/kernels/rope/vmi/rope_%s.vmi.pto" % dt)
            x = rng.standard_normal((S, N, D)).astype(npdt)
            cos = np.clip(np.abs(rng.standard_normal((S, D))), 0.1, 0.9).astype(npdt)
            sin = np.clip(np.abs(rng.standard_normal((S, D))), 0.1, 0.9).astype(npdt)
            for name, arr in (("x", x), ("cos", cos), ("sin", sin)):
                arr.tofile(os.path.join(tmp, name + ".bin"))
            for mode in (0, 1):
                xf = x.astype(np.float64)
                c, s = cos.astype(np.float64)[:, None, :], sin.astype(np.float64)[:, None, :]
                if mode == 0:
                    xn = np.concatenate((-xf[..., D // 2:], xf[..., :D // 2]), -1)
                    y = c * xf + s * xn
                else:
                    xn = np.stack((-xf[..., 1::2], xf[..., 0::2]), -1).reshape(xf.shape)
                    y = xf * c + xn * s
                out_path = os.path.join(tmp, "y.bin")
                nbytes = S * N * D * np.dtype(npdt).itemsize
                p = subprocess.run([ptosim, "run", "-q", kern] + [os.path.join(tmp, n + ".bin") for n in ("x", "cos", "sin")]
                                   + ["zeros:%d:%s" % (nbytes, out_path), str(S), str(N), str(mode)],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                err = float("inf")
                if p.returncode == 0:
                    err = float(np.abs(np.fromfile(out_path, npdt).astype(np.float64).reshape(S, N, D) - y).max())
                good = err <= tol * max(1.0, float(np.abs(y).max()))
                ok += good
                bad += not good
                print("%s rope_%s mode %d: max error %.3g (tolerance %g)%s" % ("PASS" if good else "FAIL", dt, mode, err,
                      tol, "" if p.returncode == 0 else " exit %d: %s" % (p.returncode, p.stderr.strip()[-300:])))
    print("%d passed, %d failed" % (ok, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
