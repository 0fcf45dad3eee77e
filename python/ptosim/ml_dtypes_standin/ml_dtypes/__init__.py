"""A stand-in for the `ml_dtypes` package (python/ptosim/ml_dtypes_standin/README.md): the element types the
compiler's test data scripts import — bfloat16, float8_e4m3fn, float8_e5m2, float8_e8m0fnu, float4_e2m1fn — as
numpy dtypes (the compiled `_standin` module next to this file), and `finfo` / `iinfo` for them and numpy's own
types. `ptosim case` compiles `_standin` and puts this package on PYTHONPATH only when the scripts' Python has
no real ml_dtypes."""
import numpy as _np

from ._standin import bfloat16, float4_e2m1fn, float8_e4m3fn, float8_e5m2, float8_e8m0fnu

__all__ = ["bfloat16", "float4_e2m1fn", "float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu", "finfo", "iinfo"]
__version__ = "0.0+ptosim-standin"

# (largest finite, smallest normal, machine epsilon, bits) of each format, as exact powers of two
_LIMITS = {
    bfloat16: ((2 - 2.0 ** -7) * 2.0 ** 127, 2.0 ** -126, 2.0 ** -7, 16),
    float8_e4m3fn: (448.0, 2.0 ** -6, 2.0 ** -3, 8),
    float8_e5m2: (57344.0, 2.0 ** -14, 2.0 ** -2, 8),
    float8_e8m0fnu: (2.0 ** 127, 2.0 ** -127, 1.0, 8),
    float4_e2m1fn: (6.0, 1.0, 0.5, 4),
}


class _FInfo:
    def __init__(self, t):
        mx, tiny, eps, bits = _LIMITS[t]
        self.dtype = _np.dtype(t)
        self.max = mx
        self.min = 0.0 if t is float8_e8m0fnu else -mx
        self.tiny = self.smallest_normal = tiny
        self.eps = eps
        self.bits = bits

    def __repr__(self):
        return "finfo(min=%r, max=%r, dtype=%s)" % (self.min, self.max, self.dtype)


def finfo(t):
    """numpy.finfo, extended to the stand-in float types (min, max, tiny, eps, bits)."""
    key = getattr(t, "type", t)
    if key in _LIMITS:
        return _FInfo(key)
    return _np.finfo(t)


def iinfo(t):
    """numpy.iinfo (ml_dtypes adds 4-bit integer types, which no test script uses)."""
    return _np.iinfo(t)
