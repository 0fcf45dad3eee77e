"""A stand-in for the `en_dtypes` package (python/ptosim/ml_dtypes_standin/README.md): the two 4-bit float types
the compiler's MX matmul data scripts import — float4_e2m1 (sign, 2 exponent bits, bias 1, 1 mantissa bit: the
values 0, 0.5, 1, 1.5, 2, 3, 4, 6) and float4_e1m2 (sign, 1 exponent bit, bias 1, 2 mantissa bits: 0, 0.25, 0.5,
0.75, 1, 1.25, 1.5, 1.75) — one value per byte, as numpy dtypes (the compiled `_standin` module next to this file,
the same source as the ml_dtypes stand-in's). Neither format has inf or NaN: a value past the largest finite one
saturates, NaN becomes 0. `ptosim case` compiles `_standin` and puts this package on PYTHONPATH only when the
scripts' Python has no real en_dtypes."""
from ._standin import float4_e1m2, float4_e2m1fn as float4_e2m1

__all__ = ["float4_e1m2", "float4_e2m1"]
__version__ = "0.0+ptosim-standin"
