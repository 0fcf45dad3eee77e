"""out[i] = x[i] + y[i + rows] for rows i = 0..3 of 64 floats; rows is the kernel's integer scalar."""
import numpy as np
from validation_runtime import load_case_meta, load_integer_assignments, write_buffers, write_golden

meta = load_case_meta()
x_name, y_name = meta.inputs
[out_name] = meta.outputs
[rows] = load_integer_assignments()
g = np.random.default_rng(7)
bufs = {n: g.uniform(-2, 2, meta.elem_counts[n]).astype(np.float32) for n in meta.read_order}
bufs[out_name][:] = 0
write_buffers(meta, bufs)
x = bufs[x_name].reshape(-1, 64)
y = bufs[y_name].reshape(-1, 64)
write_golden(meta, {out_name: (x[:4] + y[rows:rows + 4]).reshape(-1)})
