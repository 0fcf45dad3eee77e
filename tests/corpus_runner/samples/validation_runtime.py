"""A small stand-in, written for tests/corpus_runner, of the helper module the compiler's sample golden scripts
import: it reads the host program's buffer facts (element counts, element types, read order) and integer
scalars from main.cpp and the output list from outputs.txt, writes NAME.bin / golden_NAME.bin, and compares.
numpy only."""
import os, re, sys

import numpy as np

HOST_NP = {"float": np.float32, "aclFloat16": np.float16, "uint16_t": np.uint16, "int32_t": np.int32,
           "int64_t": np.int64, "uint8_t": np.uint8, "int8_t": np.int8}


class Meta:
    def __init__(self, counts, types, order, outputs):
        self.elem_counts, self.np_types, self.read_order, self.outputs = counts, types, order, outputs

    @property
    def inputs(self):
        return [n for n in self.read_order if n not in self.outputs]


def load_case_meta(main_cpp="main.cpp", outputs_txt="outputs.txt"):
    src = open(main_cpp).read()
    counts = {m[0]: int(m[1]) for m in re.findall(r"size_t\s+elemCount_(\w+)\s*=\s*(\d+);", src)}
    types = {m[0]: np.dtype(HOST_NP[m[1]]) for m in
             re.findall(r"size_t\s+fileSize_(\w+)\s*=\s*elemCount_\w+\s*\*\s*sizeof\((\w+)\);", src)}
    order = re.findall(r'ReadFile\("\./(\w+)\.bin"', src)
    outs = [l.strip() for l in open(outputs_txt)] if os.path.exists(outputs_txt) else []
    return Meta(counts, types, order, [o for o in outs if o])


def load_integer_assignments(main_cpp="main.cpp"):
    return [int(v, 0) for v in re.findall(r"\b(?:u?int(?:8|16|32|64)_t)\s+\w+\s*=\s*(-?\w+);", open(main_cpp).read())]


def write_buffers(meta, buffers):
    for n in meta.read_order:
        a = np.asarray(buffers[n], dtype=meta.np_types[n]).reshape(-1)
        assert a.size == meta.elem_counts[n], (n, a.size)
        a.tofile(n + ".bin")


def write_golden(meta, golden):
    for n in meta.outputs:
        np.asarray(golden[n], dtype=meta.np_types[n]).reshape(-1).tofile("golden_" + n + ".bin")


def compare_outputs(atol):
    meta = load_case_meta()
    ok = True
    for n in meta.outputs:
        g = np.fromfile("golden_" + n + ".bin", dtype=meta.np_types[n])
        o = np.fromfile(n + ".bin", dtype=meta.np_types[n])
        if g.shape != o.shape or not np.allclose(g, o, atol=atol, rtol=atol):
            print("[ERROR] Mismatch: %s" % n)
            ok = False
    print("[INFO] compare passed" if ok else "[ERROR] compare failed")
    sys.exit(0 if ok else 2)
