"""ptosim.samples — run the kernels of PTOAS test/samples (model kernels such as Qwen3 / DeepSeek decode layers
and the small direct-PTO samples) on ptosim, judged by their own golden scripts.

    python3 tools/corpus/run_samples.py PTOAS/test/samples [DIR...]      (per-directory summary)
    ptosim case PTOAS/test/samples/Qwen3DecodeA3                        (the same kernels, `ptosim case` lines)

A sample directory holds kernels (`*.pto`, also under kernels/aic, kernels/aiv) and, for a kernel NAME.pto,
a golden script NAME_golden.py that imports validation_runtime.py (in the directory or its parent). The
golden script reads a host program main.cpp and a list outputs.txt that the compiler's validation flow
generates from the compiled kernel; this module derives the same facts from the kernel's own signature and
body (docs/corpus.md, "PTOAS test/samples") and writes stand-ins of both into a fresh work directory, then:

1. runs the golden script there (it writes the inputs NAME.bin and, when it has an oracle, golden_NAME.bin);
2. runs `ptosim run -t TARGET -e ENTRY KERNEL ARGS` with every buffer read from its .bin and every output
   written back to it (a mixed kernel given as an `X_aic` / `X_aiv` pair runs through a small wrapper kernel
   with a cube and a vector section that call the two, as the validation flow's wrapper does);
3. when the golden script wrote no golden, the outputs become the golden (the flow's run-to-run determinism
   check; ptosim's results do not depend on scheduling, so one run is enough) and the result is a pass
   marked determinism-only;
4. judges with the directory's compare script (NAME_compare.py, npu_validation/NAME/compare.py), else with
   the compare script the flow would generate (the compiler's compare template filled per output).

Standard library only; the golden scripts need numpy.
"""
import json, os, re, shutil, sys, tempfile

try:
    from ptosim import case as pcase
except ImportError:   # loaded by path from a Python without numpy (the package's __init__ needs it): the sibling
    import importlib.util
    _spec = importlib.util.spec_from_file_location("ptosim_case", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                                               "case.py"))
    pcase = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(pcase)

# ---------------------------------------------------------------------------------------------------- facts
# The validation flow's per-case settings (facts of the compiler's test generator, restated as data): integer
# scalar values that replace the default 1, buffer element-count lower bounds, output lists. Keys: testcase
# (kernel file stem) and, for the sample-scoped ones, the lower-cased directory name. Only the directories
# of test/samples that have golden scripts are listed.

_DS_DIRECT = ("attention_csa_test_refresh_incore_81", "attention_hca_test_incore_54", "attention_swa_test_incore_40",
              "decode_csa_test_incore_81", "decode_hca_test_incore_54", "decode_swa_test_incore_40",
              "sparse_attn_test_incore_7")

SCALARS = dict({t: {4: 0, 5: 32} for t in _DS_DIRECT}, **{
    "hc_head_reduce": {9: 0, 10: 1}, "hc_post": {6: 8, 7: 8, 8: 0, 9: 1}, "qr_hadamard_quant": {4: 0, 5: 1},
    "rms_norm": {4: 0, 5: 1}, "swa_gather_kv": {4: 1, 5: 0, 6: 1},
    "down_proj_residual": {6: 0, 7: 0}, "gate_proj": {4: 0, 5: 0, 6: 0}, "kv_proj": {6: 0, 7: 0},
    "online_softmax": {6: 0}, "out_proj_residual": {6: 0, 7: 0}, "q_proj": {4: 0, 5: 0}, "qk_matmul": {4: 0, 6: 0},
    "rope_kv_cache": {11: 0, 12: 1}, "silu": {4: 0, 5: 0, 6: 0}, "softmax": {7: 0, 8: 0}, "sv_matmul": {5: 0, 6: 0},
    "up_proj": {4: 0, 5: 0, 6: 0}})

DIR_SCALARS = {
    "deepseekv4decodea3": {"qk_pv": {8: 0, 9: 1}, "score": {11: 1, 12: 0, 13: 1}, "gate": {7: 0, 8: 1}},
    "deepseekv4decodea5": {"idx_qr_proj_matmul": {4: 0, 5: 1}, "kv_proj_matmul": {6: 16, 7: 16, 8: 0, 9: 1}},
}

OUTPUTS = {"tpipe": {"a3_pipe_roundtrip": [2]}, "deepseekv4decodea5": {"kv_proj_matmul": [1]}}

MINIMUMS = dict({t: {1: 1024 * 4096, 2: 8192 * 64, 3: 8192 * 64} for t in _DS_DIRECT}, **{
    "hc_post": {1: 8 * 16384, 2: 8 * 4, 3: 8 * 4096, 4: 8 * 16, 5: 8 * 16384},
    "kv_hadamard": {1: 2048, 2: 2048, 3: 16384}, "merge_norm": {2: 4198400},
    "down_proj_residual": {1: 123648, 2: 123648}, "out_proj_residual": {1: 123648, 2: 123648},
    "exp_gate_mm": {1: 32768, 2: 2097152, 3: 268435456}, "exp_up_mm": {1: 32768, 2: 2097152, 3: 268435456},
    "exp_w2_mm": {1: 65536, 2: 32768, 3: 268435456},
    "gate": {1: 64, 2: 65536, 3: 262144, 4: 16, 5: 4096, 6: 16},
    "hc_head_reduce": {1: 1, 2: 8, 3: 128, 4: 128, 5: 32768, 6: 131072},
    "idx_qr_proj_matmul": {1: 131072, 2: 8192, 3: 8388608},
    "lm_head_matmul": {1: 1034240, 2: 65536, 3: 264765440},
    "proj_a_mm": {1: 262144, 2: 33554432, 3: 131072}, "proj_b_mm": {1: 524288, 2: 131072, 3: 33554432},
    "qr_hadamard_quant": {1: 512 * 128, 2: 512, 3: 512 * 128}, "rms_norm": {1: 32768, 2: 32768, 3: 4096},
    "sh_gate_mm": {1: 32768, 2: 8388608, 3: 32768}, "sh_up_mm": {1: 32768, 2: 8388608, 3: 32768},
    "swa_gather_kv": {1: 1024 * 512, 2: 8 * 128, 3: 128 * 512}, "tquant_mx": {3: 32, 4: 32, 5: 32},
    # the golden script writes its B scales padded to 4 x 64 (convert_scale_b_format) into v4, so the flow's buffer
    # (sized from the compiled C++, not visible in the .pto: 4 x 63 there) holds at least 256
    "matmul_mx_low_precision": {4: 256}})

QWEN_DECODE_MINIMUMS = {   # directories whose lower-cased name starts with "qwen" and contains "decode"
    "down_proj_residual": {1: 131072, 2: 131072, 3: 409600, 4: 209715200, 5: 8192},
    "gate_proj": {1: 131072, 2: 209715200, 3: 409600},
    "kv_proj": {1: 131072, 2: 8388608, 3: 8388608, 4: 16384, 5: 16384},
    "online_softmax": {1: 131072, 2: 1024, 3: 1024, 4: 8192},
    "out_proj_residual": {1: 131072, 2: 131072, 3: 131072, 4: 67108864, 5: 8192},
    "post_rmsnorm": {1: 131072, 2: 131072, 3: 8192}, "q_proj": {1: 131072, 2: 67108864, 3: 131072},
    "qk_matmul": {1: 16384, 2: 524288, 3: 4194304}, "rmsnorm": {1: 131072, 2: 131072, 3: 8192},
    "rope_kv_cache": {1: 16384, 2: 4194304, 3: 4194304, 4: 16384, 5: 64, 6: 64, 7: 64, 8: 64, 9: 16384, 10: 131072},
    "silu": {1: 409600, 2: 409600, 3: 409600}, "softmax": {1: 1024, 2: 1024, 3: 524288, 4: 524288},
    "sv_matmul": {1: 65536, 2: 524288, 3: 4194304}, "up_proj": {1: 131072, 2: 209715200, 3: 409600}}

DIR_MINIMUMS = {
    "tpipe": {"a3_pipe_roundtrip": {3: 2048}},
    "deepseekv4decodea3": {
        "rope_cs": {2: 512, 3: 512, 4: 512, 5: 512},
        "qk_pv": {1: 1024, 2: 1024 * 512, 3: 512, 4: 512, 5: 512 * 512, 6: 512 * 512, 7: 32768},
        "score": {1: 4, 2: 8, 3: 512 * 128, 4: 512, 5: 1024, 6: 8 * 4096, 7: 256, 8: 128 * 128, 9: 128, 10: 16384},
        "gate": {1: 64, 2: 16 * 4096, 3: 64 * 4096, 4: 16, 5: 16 * 256, 6: 2048}},
    "qwen3decodea5": {"sv_matmul": {1: 2048 * 128, 2: 2048 * 256, 3: 524288 * 128}},
    "deepseekv4decodea5": {
        "hca_rope": {1: 128, 2: 128, 3: 512, 4: 512, 5: 8, 6: 16384 * 64, 7: 16384 * 64},
        "kv_proj_matmul": {1: 16 * 512, 2: 16 * 4096, 3: 4096 * 512}},
}

COMPARE_PREFIX = {"hc_pre_linear": {3: 32}}

# the argument for a prefetch workspace pointer (the flow's SDMA workspace, nullptr on A5): a small zeroed buffer
WORKSPACE_ARG = "zeros:256"

# runop.sh's directory rule, and the SoC the golden scripts see through SOC_VERSION (validation_runtime)
A3_DIRS = ("TPipe", "TAxpy", "TColArgMax", "TColArgMin", "TConcatIdx", "TRowArgMax", "TRowArgMin")
A5_DIRS = ("TquantMx", "TquantMxDn")
SOC = {"a2a3": "Ascend910B1", "a5": "Ascend950"}

# element type -> (C++ type of the compiled kernel, host type in main.cpp)
ELEM = {"f32": "float", "f16": "half", "bf16": "bfloat16_t", "f64": "double", "i8": "int8_t", "si8": "int8_t",
        "ui8": "uint8_t", "u8": "uint8_t", "i16": "int16_t", "si16": "int16_t", "ui16": "uint16_t", "u16": "uint16_t",
        "i32": "int32_t", "si32": "int32_t", "ui32": "uint32_t", "u32": "uint32_t", "i64": "int64_t", "si64": "int64_t",
        "ui64": "uint64_t", "u64": "uint64_t", "i1": "bool", "f8E4M3FN": "float8_e4m3_t", "f8E5M2": "float8_e5m2_t",
        "f8E8M0FNU": "float8_e8m0_t", "hif8": "hifloat8_t", "index": "int64_t"}


def host_type(cpp):
    return {"half": "aclFloat16", "bfloat16_t": "uint16_t"}.get(cpp, cpp)


def cpp_type(t):
    """The C++ type the compiler gives an MLIR element / scalar type (unknown types: float, as the generator)."""
    t = t.strip()
    if t in ELEM:
        return ELEM[t]
    m = re.match(r"!pto\.(\w+)$", t)
    if m and m.group(1) in ("f4E2M1x2", "f4e2m1x2"):
        return "float4_e2m1x2_t"
    if m and m.group(1) in ("f4E1M2x2", "f4e1m2x2"):
        return "float4_e1m2x2_t"
    if "e4m3" in t.lower():
        return "float8_e4m3_t"
    if "e5m2" in t.lower():
        return "float8_e5m2_t"
    if "e8m0" in t.lower():
        return "float8_e8m0_t"
    return "float"


# ---------------------------------------------------------------------------------------------------- kernel text

def _match(text, i, op, cl):
    depth = 0
    for j in range(i, len(text)):
        if text[j] == op:
            depth += 1
        elif text[j] == cl:
            depth -= 1
            if depth == 0:
                return j
    return -1


class Func:
    def __init__(self, name, private, params, attrs, body):
        self.name, self.private, self.params, self.attrs, self.body = name, private, params, attrs, body

    @property
    def entry_attr(self):
        return bool(re.search(r"(?<![\w.])(pto\.entry|pto\.kernel|hacc\.entry|pto\.aicore)\b(?!_)", self.attrs))


def functions(text):
    """The func.func definitions of a kernel file: [Func] with params [(ssa name, type)]."""
    text = re.sub(r"//[^\n]*", "", text)
    out = []
    for m in re.finditer(r"func\.func\s+(private\s+)?@([\w$.]+)\s*\(", text):
        close = _match(text, m.end() - 1, "(", ")")
        if close < 0:
            continue
        params = []
        for p in pcase.split_top(text[m.end():close]):
            p = p.strip()
            pm = re.match(r"(%[\w$.-]+)\s*:\s*(.*)$", p, re.S)
            if pm:
                params.append((pm.group(1), re.sub(r"\s*\{.*$", "", pm.group(2).strip(), flags=re.S)))
        i = close + 1
        attrs = ""
        am = re.match(r"\s*(?:->\s*[^{]*?)?\s*attributes\s*\{", text[i:])
        if am:
            a0 = i + am.end() - 1
            a1 = _match(text, a0, "{", "}")
            attrs, i = text[a0:a1 + 1], a1 + 1
        bm = re.match(r"[^{]*?\{", text[i:])
        if not bm or text[i:i + bm.end()].count("func.func"):
            continue   # a declaration
        b0 = i + bm.end() - 1
        b1 = _match(text, b0, "{", "}")
        out.append(Func(m.group(2), bool(m.group(1)), params, attrs, text[b0 + 1:b1]))
    return out


class Kernel:
    """What the validation flow sees of a kernel file: the launched entry (or the mixed aic/aiv pair), the
    host-visible parameters [(name, type)] and the bodies it analyses (all of them) and scans for writers."""

    def __init__(self, entry, params, analysis, writers, mixed=None):
        self.entry, self.params, self.analysis, self.writers, self.mixed = entry, params, analysis, writers, mixed


def describe(text):
    """The generator's rule: the first entry function; else the only function; else an X_aic / X_aiv pair (the
    AIV side may add a trailing i32 subblock id, which the runtime supplies). None when none applies."""
    funcs = functions(text)
    for f in funcs:
        if f.entry_attr:
            return Kernel(f.name, f.params, [f], [f])
    if len(funcs) == 1:
        return Kernel(funcs[0].name, funcs[0].params, funcs, funcs)
    by = {f.name: f for f in funcs}
    for f in funcs:
        if f.name.endswith("_aic") and f.name[:-4] + "_aiv" in by:
            aic, aiv = f, by[f.name[:-4] + "_aiv"]
            ta, tv = [t for _, t in aic.params], [t for _, t in aiv.params]
            if len(tv) == len(ta) + 1 and tv[:len(ta)] == ta and tv[-1] in ("i32", "index"):
                params, extra = aic.params, True
            else:
                params, extra = aiv.params or aic.params, False
            return Kernel(f.name[:-4], params, [aic, aiv], [aiv], mixed=(aic, aiv, extra))
    # not the generator's: several public functions without an entry attribute; the one nothing calls
    called = set(re.findall(r"func\.call\s+@([\w$.]+)", text))
    for f in funcs:
        if not f.private and f.name not in called:
            return Kernel(f.name, f.params, funcs, funcs)
    return None


# ---------------------------------------------------------------------------------------------------- evaluation

_BIN = {"addi": lambda a, b: a + b, "subi": lambda a, b: a - b, "muli": lambda a, b: a * b,
        "remsi": lambda a, b: a % b if b else None, "remui": lambda a, b: a % b if b else None,
        "shli": lambda a, b: a << b if 0 <= b < 64 else None, "shrsi": lambda a, b: a >> b if 0 <= b < 64 else None,
        "shrui": lambda a, b: a >> b if 0 <= b < 64 else None, "andi": lambda a, b: a & b,
        "ori": lambda a, b: a | b, "xori": lambda a, b: a ^ b,
        # min/max: the generator's EmitC analysis leaves them unknown (dropping the offset they feed, which left a
        # DeepSeek kv_rms_norm_rope buffer shorter than the block-1 window the flow's default block index selects);
        # evaluating them only ever grows a footprint, so the inputs keep their prefix
        "maxsi": max, "maxui": max, "minsi": min, "minui": min}
_CAST = ("index_cast", "index_castui", "extsi", "extui", "trunci")


_STMT = re.compile(r"(%[\w$.:#-]+(\s*,\s*%[\w$.:#-]+)*\s*=|[a-z_]+\.[\w.]+|\}|return\b)")


def statements(body):
    """The body's operations one per string (an operation may span lines)."""
    out = []
    for line in body.split("\n"):
        line = line.strip()
        if not line:
            continue
        if out and not _STMT.match(line):
            out[-1] += " " + line
        else:
            out.append(line)
    return out


class Body:
    """A function body read as far as the generator's footprint analysis reads the compiled code: integer
    values computed by additions, subtractions, products, remainders, shifts and bitwise ops of constants,
    scalar parameters (at their validation values) and loop counters (at their last iteration), and min/max
    (which the generator leaves unknown: evaluating them only grows a footprint); a division or select leaves a
    value unknown."""

    def __init__(self, func, scalars):
        self.vals = {}
        self.defs = {}
        self.views = {}      # tensor view -> (root pointer, offset, shape, strides)
        self.parts = []      # (partition name, root pointer, footprint)
        self.ptr_off = {}    # pointer value -> (root param, offset)
        for i, (name, t) in enumerate(func.params):
            if not t.startswith("!pto.ptr"):
                self.vals[name] = scalars.get(i + 1)
            else:
                self.ptr_off[name] = (name, 0)
        for st in statements(func.body):
            self.stmt(st)

    def val(self, v):
        v = v.strip()
        if re.fullmatch(r"-?\d+", v):
            return int(v)
        return self.vals.get(v)

    def stmt(self, s):
        m = re.match(r"(%[\w$.-]+)\s*=\s*arith\.constant\s+(-?\d+|true|false)\s*:", s)
        if m:
            self.vals[m.group(1)] = {"true": 1, "false": 0}.get(m.group(2), None) if m.group(2) in ("true", "false") \
                else int(m.group(2))
            return
        m = re.match(r"(%[\w$.-]+)\s*=\s*arith\.(\w+)\s+(%[\w$.-]+)\s*,\s*(%[\w$.-]+)", s)
        if m and m.group(2) in _BIN:
            a, b = self.val(m.group(3)), self.val(m.group(4))
            self.vals[m.group(1)] = None if a is None or b is None else _BIN[m.group(2)](a, b)
            return
        m = re.match(r"(%[\w$.-]+)\s*=\s*arith\.(\w+)\s+(%[\w$.-]+)\s*:", s)
        if m and m.group(2) in _CAST:
            self.vals[m.group(1)] = self.val(m.group(3))
            return
        m = re.match(r"(?:%[\w$.:-]+\s*=\s*)?scf\.for\s+(%[\w$.-]+)\s*=\s*(\S+)\s+to\s+(\S+)\s+step\s+(\S+)", s)
        if m:
            lb, ub, st = (self.val(x) for x in m.group(2, 3, 4))
            if None in (lb, ub, st) or st == 0:
                self.vals[m.group(1)] = None
            elif st > 0 and ub > lb:
                self.vals[m.group(1)] = lb + ((ub - lb - 1) // st) * st
            else:
                self.vals[m.group(1)] = lb
            return
        m = re.match(r"(%[\w$.-]+)\s*=\s*pto\.addptr\s+(%[\w$.-]+)\s*,\s*(%[\w$.-]+)", s)
        if m and m.group(2) in self.ptr_off:
            root, off = self.ptr_off[m.group(2)]
            o = self.val(m.group(3))
            self.ptr_off[m.group(1)] = (root, off + max(o or 0, 0))
            return
        m = re.match(r"(%[\w$.-]+)\s*=\s*pto\.make_tensor_view\s+(%[\w$.-]+)\s*,\s*shape\s*=\s*\[([^\]]*)\]\s*,"
                     r"\s*strides\s*=\s*\[([^\]]*)\]", s)
        if m and m.group(2) in self.ptr_off:
            root, off = self.ptr_off[m.group(2)]
            self.views[m.group(1)] = (root, off, [self.val(x) for x in m.group(3).split(",") if x.strip()],
                                      [self.val(x) for x in m.group(4).split(",") if x.strip()])
            return
        m = re.match(r"(%[\w$.-]+)\s*=\s*pto\.partition_view\s+(%[\w$.-]+)\s*,\s*offsets\s*=\s*\[([^\]]*)\]\s*,"
                     r"\s*sizes\s*=\s*\[([^\]]*)\]", s)
        if m and m.group(2) in self.views:
            root, off, _, strides = self.views[m.group(2)]
            offs = [self.val(x) for x in m.group(3).split(",") if x.strip()]
            sizes = [self.val(x) for x in m.group(4).split(",") if x.strip()]
            tm = re.search(r"partition_tensor_view<([\dx?]+)x\w+>", s)
            if tm:   # the static sizes of the result type, where the operands are not constants
                st = tm.group(1).split("x")
                sizes = [z if z is not None else (int(t) if t.isdigit() else None) for z, t in zip(sizes, st)]
            self.views[m.group(1)] = (root, off, sizes, strides)   # a partition of a partition keeps the strides
            req = required(sizes, strides)
            if req is None:
                return
            terms = [o * s for o, s in zip(offs, strides) if o is not None and s is not None]
            extra = sum(terms) if len(terms) == len(offs) else 0   # one unknown term drops the whole offset
            self.parts.append((m.group(1), root, off + max(extra, 0) + req))


def required(shape, strides):
    """Elements a view of this shape and strides spans: 1 + sum((dim - 1) * stride) (None when unknown)."""
    if not shape or not strides or len(shape) != len(strides):
        return None
    req = 1
    for d, s in zip(shape, strides):
        if d is None or s is None or d < 0:
            return None
        if d > 1:
            if s < 0:
                return None
            req += (d - 1) * s
    return req


def _stored_roots(func, body):
    """The pointer parameters a function writes with pto.tstore, in order."""
    out = []
    for m in re.finditer(r"pto\.tstore\s+ins\([^)]*\)\s*outs\(\s*(%[\w$.-]+)", func.body):
        v = body.views.get(m.group(1))
        if v and v[0] not in out:
            out.append(v[0])
    return out


class Meta:
    """The host program's facts: data pointers [(vname, ssa name, cpp type, count)], scalars [(vname, host type,
    value)], outputs (vnames), compare prefixes {vname: count}."""

    def __init__(self, kernel, ptrs, scalars, outputs, prefix):
        self.kernel, self.ptrs, self.scalars, self.outputs, self.prefix = kernel, ptrs, scalars, outputs, prefix


def index_host_type(rt):
    """The C++ type the compiler's EmitC gives an `index` kernel argument, for the golden scripts of the samples
    tree rooted at rt: int64_t since PTOAS 2fcf61b5 (2026-06-08, "Fix EmitC index width"), int32_t before. The
    same commit gave validation_runtime.py load_integer_assignments (earlier golden scripts read the index
    arguments with load_int32_assignments), so its presence dates the tree."""
    try:
        with open(os.path.join(rt, "validation_runtime.py")) as f:
            return "int64_t" if "def load_integer_assignments" in f.read() else "int32_t"
    except (OSError, TypeError):
        return "int64_t"


def derive(text, testcase, dirname, index_type="int64_t"):
    kern = describe(text)
    if kern is None:
        return None
    d = dirname.lower()
    ints = dict(SCALARS.get(testcase, {}))
    ints.update(DIR_SCALARS.get(d, {}).get(testcase, {}))
    scal_vals, scalars = {}, []
    for i, (name, t) in enumerate(kern.params):
        if t.startswith("!pto.ptr"):
            continue
        ct = index_type if t.strip() == "index" else cpp_type(t)
        ht = host_type(ct)
        if ht == "bool":
            v = "true"
        elif re.match(r"u?int(8|16|32|64)_t$", ht):
            v = str(ints.get(i + 1, 1))
            scal_vals[i + 1] = int(v)
        elif ht == "float":
            v = "1.0f"
        elif ht == "double":
            v = "1.0"
        else:
            v = "0"
        scalars.append(("v%d" % (i + 1), ht, v))
    # footprints over every analysed body (a mixed pair: both sides, with the pair's parameter numbering)
    inferred, written = {}, []
    for f in kern.analysis:
        b = Body(f, scal_vals)
        idx = {name: i + 1 for i, (name, _) in enumerate(f.params)}
        for _, root, n in b.parts:
            if root in idx:
                inferred[idx[root]] = max(inferred.get(idx[root], 0), n)
        if f in kern.writers:
            written += [idx[r] for r in _stored_roots(f, b) if r in idx and idx[r] not in written]
    mins = dict(MINIMUMS.get(testcase, {}))
    if d.startswith("qwen") and "decode" in d:
        mins.update(QWEN_DECODE_MINIMUMS.get(testcase, {}))
    mins.update(DIR_MINIMUMS.get(d, {}).get(testcase, {}))
    counts = dict(inferred)
    for k, n in mins.items():
        counts[k] = max(counts.get(k, 0), n)
    logical = 32 * 32
    for f in kern.analysis:   # the first global tensor's 2-D shape: rows x cols of the first partition
        m = re.search(r"partition_tensor_view<(\d+)x(\d+)x\w+>", f.body)
        if m:
            logical = int(m.group(1)) * int(m.group(2))
            break
    # a pointer that only feeds make_prefetch_async_context is the SDMA workspace the flow's host program gets
    # from its workspace manager (or nullptr), not a buffer of the case: no element count, no file
    work = set(re.findall(r"pto\.make_prefetch_async_context\s*\(?\s*(%[\w.$-]+)", text))
    ptr_idx = [i + 1 for i, (n, t) in enumerate(kern.params) if t.startswith("!pto.ptr") and
               ("%" + n.lstrip("%")) not in work]
    outputs = OUTPUTS.get(d, {}).get(testcase)
    if outputs is None:
        outputs = [i for i in written if i in ptr_idx]
    if not outputs and ptr_idx:
        outputs = [ptr_idx[-1]]
    ptrs = []
    for i in ptr_idx:
        name, t = kern.params[i - 1]
        m = re.match(r"!pto\.ptr<\s*([^,>]+)", t)
        ptrs.append(("v%d" % i, name, cpp_type(m.group(1) if m else "f32"), counts.get(i) or logical))
    prefix = {}
    cnt = {v: n for v, _, _, n in ptrs}
    for i in outputs:
        v = "v%d" % i
        if inferred.get(i) and inferred[i] < cnt.get(v, 0):
            prefix[v] = inferred[i]
    for i, n in COMPARE_PREFIX.get(testcase, {}).items():
        prefix["v%d" % i] = min(cnt.get("v%d" % i, logical), n)
    return Meta(kern, ptrs, scalars, ["v%d" % i for i in outputs], prefix)


def main_cpp(meta):
    """The lines of the generated host program the golden scripts read (validation_runtime.load_case_meta and
    load_*_assignments): element counts, file sizes, scalar declarations, input reads in order."""
    lines = ["// stand-in for the validation flow's main.cpp (written by ptosim.samples)", "int main() {"]
    for v, _, ct, n in meta.ptrs:
        lines.append("    size_t elemCount_%s = %d;" % (v, n))
        lines.append("    size_t fileSize_%s = elemCount_%s * sizeof(%s);" % (v, v, host_type(ct)))
    for v, ht, val in meta.scalars:
        lines.append("    %s %s = %s;" % (ht, v, val))
    for v, _, _, _ in meta.ptrs:
        lines.append('    ReadFile("./%s.bin", fileSize_%s, %sHost, fileSize_%s);' % (v, v, v, v))
    for v in meta.outputs:
        lines.append('    WriteFile("./%s.bin", %sHost, fileSize_%s);' % (v, v, v))
    return "\n".join(lines + ["}", ""])


def compare_lines(meta):
    """The checks the flow's generated compare script makes, one per output: bf16 within 1 ulp, f32 1e-4,
    f16 1e-2, others exact; over the analysed prefix when the buffer is larger than what the kernel spans."""
    np_of = {"float": "np.float32", "half": "np.float16", "bfloat16_t": "np.uint16", "int8_t": "np.int8",
             "uint8_t": "np.uint8", "int16_t": "np.int16", "uint16_t": "np.uint16", "int32_t": "np.int32",
             "uint32_t": "np.uint32", "int64_t": "np.int64", "uint64_t": "np.uint64"}
    out = ["    ok = True"]
    types = {v: ct for v, _, ct, _ in meta.ptrs}
    for v in meta.outputs:
        ct = types[v]
        eps = {"half": 1e-2, "float": 1e-4}.get(ct, 0.0)
        g, o = '"golden_%s.bin"' % v, '"%s.bin"' % v
        n = meta.prefix.get(v)
        if ct == "bfloat16_t":
            out.append("    ok = compare_bf16_bin_prefix(%s, %s, 1, %d) and ok" % (g, o, n) if n else
                       "    ok = compare_bf16_bin(%s, %s, 1) and ok" % (g, o))
        else:
            dt = np_of.get(ct, "np.float32")
            out.append("    ok = compare_bin_prefix(%s, %s, %s, %r, %d) and ok" % (g, o, dt, eps, n) if n else
                       "    ok = compare_bin(%s, %s, %s, %r) and ok" % (g, o, dt, eps))
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------------- layout

def testcase_of(pto):
    name = os.path.basename(pto)[:-4]
    for suf in ("-pto", "_pto"):
        if name.endswith(suf):
            name = name[:-4]
    return name


def runtime_root(d):
    for r in (d, os.path.dirname(os.path.normpath(d))):
        if os.path.isfile(os.path.join(r, "validation_runtime.py")):
            return r
    return None


def is_sample_dir(d):
    """Cheap test: golden scripts beside a validation_runtime.py in the directory or its parent."""
    try:
        names = os.listdir(d)
    except OSError:
        return False
    return any(n.endswith("_golden.py") for n in names) and runtime_root(d) is not None


def kernels(d):
    """The sample's kernels with a golden script: [(testcase, pto path)]; and its golden scripts that have no
    kernel file (their .pto is built by the compiler's Python bindings)."""
    found = {}
    for root, dirs, files in os.walk(d):
        dirs[:] = sorted(x for x in dirs if x != "npu_validation")
        for f in sorted(files):
            if f.endswith(".pto") and not f.endswith("-pto-ir.pto"):
                found.setdefault(testcase_of(f), os.path.join(root, f))
    goldens = sorted(f[:-len("_golden.py")] for f in os.listdir(d) if f.endswith("_golden.py"))
    have = [(t, found[t]) for t in goldens if t in found]
    return have, [t for t in goldens if t not in found]


# kernels runop.sh runs only under one --pto-arch (it skips them under the other): the a3 FIXPIPE quant-vector
# variant (a packed ui64 scaling tile) and its a5 twin (an f16 one); partition5d runs under runop.sh's default
# arch a3 (its a5 form is partition5d_a5, the one the CI's A5_ONLY_CASES lists; a tstore from mat is a2a3 only)
CASE_ARCH = {"movfp_fixpipe_reuse_a3": "a2a3", "movfp_fixpipe_reuse": "a5", "partition5d": "a2a3"}


def target_of(d, text, testcase=None):
    base = os.path.basename(os.path.normpath(d))
    if testcase in CASE_ARCH:
        return CASE_ARCH[testcase]
    if base in A3_DIRS or re.match(r"(Qwen|Deepseek).*A3$", base):
        return "a2a3"
    if base in A5_DIRS or re.match(r"(Qwen|Deepseek).*A5$", base):
        return "a5"
    m = re.search(r'pto\.target_arch\s*=\s*"(\w+)"', text)
    if m:
        return "a5" if m.group(1) == "a5" else "a2a3"
    m = re.search(r'"pto\.device-spec"\s*=\s*"([^"]+)"', text)
    if m:
        return "a5" if "950" in m.group(1) else "a2a3"
    return None


def custom_compare(d, testcase):
    for p in (os.path.join(d, testcase + "_compare.py"), os.path.join(d, "npu_validation", testcase, "compare.py"),
              os.path.join(d, "npu_validation", "compare.py")):
        if os.path.isfile(p):
            return p
    return None


def compare_template(d):
    """The compiler's compare template, where the samples sit in a compiler checkout (test/npu_validation)."""
    root = runtime_root(d) or d
    p = os.path.join(os.path.dirname(os.path.normpath(root)), "npu_validation", "templates", "compare_template.py")
    return p if os.path.isfile(p) else None


# ---------------------------------------------------------------------------------------------------- running

def one_aiv(aiv, target):
    """Whether the pair runs in the 1C:1V mode: on a5 a frontend pipe with split = 0 (no split) has one vector core,
    AIV0 (PTOAS PTO_IR_manual 4.18 "nosplit"; pto-isa TPush.hpp pushes such an entry to AIV0's UB only), so the
    vector section calls X_aiv on subblock 0 only (docs/tile.md "Cube<->vector pipes")."""
    splits = re.findall(r"pto\.(?:tpop_from_aic|tpush_to_aic|tfree_from_aic)\b[^{]*\{[^}]*\bsplit\s*=\s*(\d+)", aiv.body)
    return target != "a2a3" and bool(splits) and all(v == "0" for v in splits)


def wrapper_kernel(meta, target=None):
    """A kernel that runs a mixed X_aic / X_aiv pair as one cluster: the cube section calls X_aic, the vector
    section X_aiv (with its subblock id when it takes one; on subblock 0 only in the 1C:1V mode, one_aiv), both
    with the launch's arguments."""
    aic, aiv, extra = meta.kernel.mixed
    params = meta.kernel.params
    sig = ", ".join("%%p%d: %s" % (i, t) for i, (_, t) in enumerate(params))
    args = ", ".join("%%p%d" % i for i in range(len(params)))
    types = ", ".join(t for _, t in params)
    vt = [t for _, t in aiv.params]
    lines = ["  func.func @ptosim_cluster(%s) attributes {pto.kernel} {" % sig,
             "    pto.section.cube {",
             "      func.call @%s(%s) : (%s) -> ()" % (aic.name, args, types), "    }",
             "    pto.section.vector {"]
    if one_aiv(aiv, target):
        lines += ["      %sb0 = pto.get_subblock_idx", "      %c0_sb = arith.constant 0 : i64",
                  "      %first = arith.cmpi eq, %sb0, %c0_sb : i64", "      scf.if %first {"]
    if extra:
        lines.append("      %sb = pto.get_subblock_idx")
        lines.append("      %%sbv = arith.index_cast %%sb : i64 to %s" % vt[-1] if vt[-1] == "index" else
                     "      %%sbv = arith.trunci %%sb : i64 to %s" % vt[-1])
        lines.append("      func.call @%s(%s%s%%sbv) : (%s%s%s) -> ()" % (aiv.name, args, ", " if args else "",
                                                                        types, ", " if types else "", vt[-1]))
    else:
        lines.append("      func.call @%s(%s) : (%s) -> ()" % (aiv.name, args, types))
    if one_aiv(aiv, target):
        lines.append("      }")
    lines += ["    }", "    return", "  }"]
    return "\n".join(lines)


class Sample:
    """One kernel of a sample directory, as ptosim.case runs it (`rel` its name in results)."""

    def __init__(self, d, rel, testcase, pto):
        self.path, self.rel, self.testcase, self.kernel = d, rel, testcase, pto
        self.data, self.tile, self.sample = None, False, True


def sample_cases(d, rel):
    have, _ = kernels(d)
    return [Sample(d, (rel + "/" if rel not in ("", ".") else "") + t, t, p) for t, p in have]


def _ptosim(opts, tmp, target, entry, kernel, args, tag):
    cmd = [opts.ptosim, "run", "-q", "--diagnostics-format=json"] + (["-t", target] if target else []) + \
          ["-e", entry] + list(opts.run_options) + ([] if "--max-memory" in " ".join(opts.run_options) else
                                                    ["--max-memory", "16G"]) + [kernel, "--"] + args
    code, out = pcase._run(cmd, tmp, None, opts.timeout)
    bad = []
    warns = set()
    for line in out.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                dg = json.loads(line)
            except ValueError:
                continue
            if dg.get("severity") == "warning" and dg.get("id"):
                warns.add(dg["id"])
            elif dg.get("severity") in ("error", "trap"):
                bad.append(dg)
    with open(os.path.join(tmp, "ptosim_%s.log" % tag), "w") as f:
        f.write(" ".join(cmd) + "\n" + out)
    return code, bad, warns, out


def classify(code, bad, err):
    """(class, why) of a failed `ptosim run`: parse, verify, the trap's ID, werror or harness."""
    if code == 1 and bad:
        return ("parse" if bad[0].get("id", "").startswith(pcase.PARSE_IDS) else "verify"), pcase._describe(bad[0])
    if code == 3 and bad:
        return bad[0].get("id", "trap"), pcase._describe(bad[0])
    if code == 4:
        return "werror", "a warning made an error: " + (pcase._describe(bad[0]) if bad else "")
    if code == 2 and bad and not bad[0].get("id", "").startswith(("E-ARG", "E-IO", "E-USAGE")):
        return "verify", pcase._describe(bad[0])
    return "harness", "ptosim exit %d: %s" % (code, pcase._describe(bad[0]) if bad else pcase._first_line(err))


def run_sample(s, tmp, opts):
    """Runs one kernel in the work directory tmp; returns a CaseResult (cls "" for a pass; `det` set on a
    determinism-only pass)."""
    rel, d = s.rel, s.path
    with open(s.kernel) as f:
        text = f.read()
    rt = runtime_root(d)
    meta = derive(text, s.testcase, os.path.basename(os.path.normpath(d)), index_host_type(rt))
    if meta is None:
        return pcase.CaseResult(rel, "FAIL", "harness", "no launchable function in %s" % os.path.basename(s.kernel))
    with open(os.path.join(tmp, "main.cpp"), "w") as f:
        f.write(main_cpp(meta))
    with open(os.path.join(tmp, "outputs.txt"), "w") as f:
        f.write("".join(v + "\n" for v in meta.outputs))
    target = target_of(d, text, s.testcase)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (d, rt, opts.pythonpath, env.get("PYTHONPATH")) if p)
    if target:
        env["SOC_VERSION"] = SOC[target]
    env.setdefault("PTOAS_BOARD_IS_A3", "1" if target == "a2a3" else "0")
    total = sum(n * _size(ct) for _, _, ct, n in meta.ptrs)
    if getattr(opts, "max_bytes", None) and total > opts.max_bytes:
        return pcase.CaseResult(rel, "FAIL", "harness", "the buffers need %d MiB, over --max-bytes" % (total >> 20))
    code, out = pcase._run([opts.python, os.path.join(d, s.testcase + "_golden.py")], tmp, env, opts.timeout)
    if code != 0:
        lines = [l for l in out.splitlines() if l.strip()]
        return pcase.CaseResult(rel, "FAIL", "harness", "%s_golden.py: %s" % (s.testcase, lines[-1][:200] if lines else
                                                                             "exit %d" % code))
    golden = any(os.path.exists(os.path.join(tmp, "golden_%s.bin" % v)) for v in meta.outputs)
    kernel, entry = s.kernel, meta.kernel.entry
    if meta.kernel.mixed:
        kernel = os.path.join(tmp, "ptosim_cluster.pto")
        body = text.rstrip()
        assert body.endswith("}")
        with open(kernel, "w") as f:
            f.write(body[:-1] + wrapper_kernel(meta, target) + "\n}\n")
        entry = "ptosim_cluster"
    outs, vals = set(meta.outputs), {v: val for v, _, val in meta.scalars}
    ptrv = {v for v, _, _, _ in meta.ptrs}
    ordered = []
    for i, (_, t) in enumerate(meta.kernel.params):   # one argument per parameter, in order
        v = "v%d" % (i + 1)
        if t.startswith("!pto.ptr") and v not in ptrv:
            ordered.append(WORKSPACE_ARG)   # the prefetch workspace (derive): never read or written by ptosim
        elif t.startswith("!pto.ptr"):
            ordered.append("%s.bin:ptosim_out_%s.bin" % (v, v) if v in outs else "%s.bin" % v)
        else:
            ordered.append({"1.0f": "1.0"}.get(vals[v], vals[v]))
    code, bad, warns, err = _ptosim(opts, tmp, target, entry, kernel, ordered, "run")
    if code != 0:
        cls, why = classify(code, bad, err)
        return pcase.CaseResult(rel, "FAIL", cls, why, warns, 1)
    for v in meta.outputs:
        os.replace(os.path.join(tmp, "ptosim_out_%s.bin" % v), os.path.join(tmp, "%s.bin" % v))
        if not golden:
            shutil.copy(os.path.join(tmp, "%s.bin" % v), os.path.join(tmp, "golden_%s.bin" % v))
    cmp = custom_compare(d, s.testcase)
    if cmp is None:
        tpl = compare_template(d)
        if tpl is None:
            return pcase.CaseResult(rel, "FAIL", "harness", "no compare script and no compare template", warns, 1)
        with open(tpl) as f:
            src = f.read().replace("@COMPARES@", compare_lines(meta))
        cmp = os.path.join(tmp, "compare.py")
        with open(cmp, "w") as f:
            f.write(src)
    code, out = pcase._run([opts.python, cmp], tmp, dict(env, COMPARE_STRICT="1"), opts.timeout)
    if code != 0:
        lines = [l for l in out.splitlines() if l.strip()]
        why = next((l for l in lines if "mismatch" in l.lower() or "max" in l.lower() or "fail" in l.lower()),
                   lines[0] if lines else "exit %d" % code)
        return pcase.CaseResult(rel, "FAIL", "mismatch", why.strip()[:200], warns, 1)
    r = pcase.CaseResult(rel, "PASS", "", "" if golden else "determinism only (the golden script has no oracle)",
                         warns, 1)
    r.det = not golden
    return r


def _size(ct):
    return {"double": 8, "int64_t": 8, "uint64_t": 8, "float": 4, "int32_t": 4, "uint32_t": 4, "half": 2,
            "bfloat16_t": 2, "int16_t": 2, "uint16_t": 2}.get(ct, 1)
