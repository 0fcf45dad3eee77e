"""_api.py — the package's public API (re-exported by __init__.py): load, Module, results, diagnostics."""
import os, threading, weakref
from ctypes import byref, c_size_t, string_at
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import numpy as np
import warnings

from . import _lib

__all__ = ["load", "check", "Module", "SanitizerWarning", "Kernel", "Param", "RunResult", "Stats", "CoreTime", "PipeTime", "Stall",
           "ProfileLine", "LoopTime", "Diagnostic", "Note", "DiagnosticError", "ArgumentError", "TrapError",
           "library_path", "program_path", "default_timing_table"]

_L = _lib.load_library()
library_path = _L.path
program_path = _lib.program_path


# ------------------------------------------------------------------ diagnostics

@dataclass(frozen=True)
class Note:
    file: Optional[str]
    line: Optional[int]
    col: Optional[int]
    message: str


@dataclass(frozen=True)
class Diagnostic:
    """One diagnostic of the library: `id` is stable ("E-SSA-UNDEF", "T-OOB", "W-RACE"); `severity` is
    "error", "warning", "note" or "trap"; file/line/col are None when it has no location. `rendered` is the
    text the ptosim tool prints for it (location, message [ID], source line, caret, notes)."""
    id: str
    severity: str
    file: Optional[str]
    line: Optional[int]
    col: Optional[int]
    message: str
    notes: Tuple[Note, ...] = ()
    rendered: str = ""

    def __str__(self):
        return self.rendered.rstrip("\n") or "%s: %s [%s]" % (self.severity, self.message, self.id)


class DiagnosticError(Exception):
    """Parse or verification errors (load), an entry or timing-table error, or a failed run. `diagnostics`
    holds every diagnostic reported (warnings too); str() renders them as the ptosim tool does."""

    def __init__(self, diagnostics):
        self.diagnostics = list(diagnostics)
        super().__init__("".join(d.rendered or str(d) + "\n" for d in self.diagnostics).rstrip("\n"))

    @property
    def errors(self):
        return [d for d in self.diagnostics if d.severity in ("error", "trap")]


class SanitizerWarning(UserWarning):
    """A run-time warning of the sanitizer (W-RACE, W-UNINIT, W-UNWRITTEN, W-GM-OOB, W-FLAG-LEFTOVER, ...), issued
    through Python's warnings module once per diagnostic of a run: filter it as any warning
    (warnings.simplefilter("error", ptosim.SanitizerWarning) turns them into exceptions, like -Werror).
    `diagnostic` is the Diagnostic; the same diagnostics are in RunResult.warnings."""

    def __init__(self, diagnostic):
        self.diagnostic = diagnostic
        loc = "%s:%s:%s: " % (diagnostic.file, diagnostic.line, diagnostic.col) if diagnostic.file else ""
        super().__init__("%s%s [%s]" % (loc, diagnostic.message, diagnostic.id))


class ArgumentError(DiagnosticError, ValueError):
    """A kernel argument that cannot be bound (E-ARG-COUNT, E-ARG-FORM, E-ARG-SIZE); nothing ran."""

    def __init__(self, ident, message):
        super().__init__([Diagnostic(ident, "error", None, None, None, message, (), "ptosim: error: %s [%s]\n" % (message, ident))])


class TrapError(DiagnosticError):
    """The kernel trapped. `trap` is the trap's diagnostic, `result` the run's RunResult up to the trap; the
    arrays hold the memory as it was at the trap."""

    def __init__(self, diagnostics, result):
        super().__init__(diagnostics)
        self.result = result
        self.trap = next((d for d in self.diagnostics if d.severity == "trap"), None)


def _opt(v):
    return v if v else None


def _diagnostics(ctx, first=0):
    out = []
    info, note = _lib.DiagInfo(), _lib.DiagInfo()
    for i in range(first, _L.pto_diag_count(ctx)):
        if _L.pto_diag_get(ctx, i, info):
            continue
        notes = []
        for j in range(info.nnotes):
            if _L.pto_diag_note_get(ctx, i, j, note) == 0:
                notes.append(Note(_lib.text(note.file), _opt(note.line), _opt(note.col), _lib.text(note.message)))
        out.append(Diagnostic(_lib.text(info.id), _lib.SEVERITIES[info.severity], _lib.text(info.file), _opt(info.line),
                              _opt(info.col), _lib.text(info.message), tuple(notes),
                              _lib.take_string(_L, _L.pto_diag_render(ctx, i, 0)) or ""))
    return out


# ------------------------------------------------------------------ targets and functions

def _target_code(target):
    if target is None:
        return _lib.PTO_TARGET_DEFAULT
    code = _lib.c_int()
    if not isinstance(target, str) or _L.pto_target_from_name(target.encode(), _lib.ctypes.byref(code)):
        raise ValueError("unknown target %r (expected 'a5', 'a2a3' or 'cpu')" % (target,))
    return code.value


def default_timing_table(target="a5"):
    """The built-in timing table of a target, as text (the format Module.run's timing= takes)."""
    f = _L.pto_timing_default
    f.restype, f.argtypes = _lib.c_char_p, [_lib.c_int]
    return _lib.text(f(_target_code(target)))


@dataclass(frozen=True)
class Param:
    """A kernel parameter: `kind` is "pointer", "int", "float" or "other"; `bits` the width of the element
    (pointers) or of the scalar; `space` the address space of a pointer ("gm"); `dtype` the numpy dtype an
    array (pointers) or a value has: bf16 and the 8-bit and 4-bit float formats travel as raw unsigned bits."""
    name: str
    type: str
    kind: str
    bits: int
    code: str               # 'i' signed, 'u' unsigned, 'f' float, 'b' bool
    space: Optional[str]

    @property
    def raw(self):
        return self.code == "f" and (self.bits < 16 or "bf16" in self.type)

    @property
    def itemsize(self):
        return max(1, self.bits // 8)

    @property
    def dtype(self):
        if self.code == "f" and not self.raw:
            return np.dtype("float%d" % self.bits)
        if self.code == "b":
            return np.dtype(bool)
        return np.dtype("%s%d" % ("int" if self.code == "i" else "uint", self.itemsize * 8))

    def accepts(self, dt):
        """Does an array of numpy dtype `dt` carry this pointer's elements? The element width must match;
        floats need the float dtype; integers (and raw float formats) take either signedness (as `ptosim
        run` does with .npy files), 8-bit ones also bool."""
        if dt.itemsize != self.itemsize or dt.byteorder == ">" or dt.fields is not None:
            return False
        if self.code == "f" and not self.raw:
            return dt.kind == "f"
        return dt.kind in "iu" or (dt.kind == "b" and self.itemsize == 1)

    def __str__(self):
        return "%%%s: %s" % (self.name, self.type)


@dataclass(frozen=True)
class Kernel:
    """A function of a module that can be run: its name, parameters, whether it carries pto.kernel, and where
    it is defined."""
    name: str
    params: Tuple[Param, ...]
    is_kernel: bool
    file: Optional[str]
    line: Optional[int]

    def __str__(self):
        return "@%s(%s)" % (self.name, ", ".join(map(str, self.params)))

    def __repr__(self):
        return "Kernel(%s)" % self


def _param(pi):
    return Param(_lib.text(pi.name) or "?", _lib.text(pi.type), _lib.PARAM_KINDS[pi.kind], pi.elem_bits,
                 pi.elem_code.decode(), _lib.text(pi.space))


def _functions(mod):
    fi, pi = _lib.FuncInfo(), _lib.ParamInfo()
    out = []
    for i in range(_L.pto_module_func_count(mod)):
        if _L.pto_module_func(mod, i, fi):
            continue
        params = tuple(_param(pi) for j in range(fi.nparams) if _L.pto_module_func_param(mod, i, j, pi) == 0)
        out.append(Kernel(_lib.text(fi.name), params, bool(fi.is_kernel), _lib.text(fi.file), _opt(fi.line)))
    return out


# ------------------------------------------------------------------ results

@dataclass(frozen=True)
class Stats:
    """What pto_launch_stats reports: operations, vector-pipe instructions, simulated cycles of the longest
    core, cores run, and bytes moved per pipe (by pipe name: "PIPE_MTE2", ...; pipes that moved nothing are
    left out)."""
    ops_executed: int
    vector_ops: int
    cycles: int
    cores: int
    bytes_moved: Dict[str, int]


@dataclass(frozen=True)
class PipeTime:
    busy: int
    stall: Dict[str, int]       # cycles waited, by cause ("flag", "barrier", ...); causes with 0 left out
    bytes: int
    ops: int
    end: int


@dataclass(frozen=True)
class CoreTime:
    block: int
    core: str
    pipes: Dict[str, PipeTime]  # by pipe name; pipes that did nothing left out


@dataclass(frozen=True)
class Stall:
    block: int
    core: str
    pipe: str
    cause: str
    cycles: int
    times: int
    what: str
    op: str
    file: Optional[str]
    line: Optional[int]
    col: Optional[int]
    setter_op: Optional[str]
    setter_file: Optional[str]
    setter_line: Optional[int]
    setter_col: Optional[int]


@dataclass(frozen=True)
class ProfileLine:
    file: Optional[str]
    line: int
    op: str
    cycles: int
    stall: int
    count: int


@dataclass(frozen=True)
class LoopTime:
    file: Optional[str]
    line: int
    ii: int
    latency: int
    bound: str
    iterations: int


@dataclass(frozen=True)
class RunResult:
    """A completed (or, in TrapError.result, trapped) run: the statistics and the timing model's view
    (docs/timing.md): per core and pipe time, the longest waits, with profile=True the source lines by
    cycles, the vector loops, the warnings (W-RACE, W-FLAG-LEFTOVER, ...), and with trace=True the Chrome
    trace JSON."""
    entry: Optional[str]
    target: str
    blocks: int
    stats: Stats
    clock_hz: float
    cores: List[CoreTime]
    stalls: List[Stall]
    profile: List[ProfileLine]
    loops: List[LoopTime]
    diagnostics: List[Diagnostic] = field(default_factory=list)
    trace: Optional[str] = None
    stats_json: Optional[str] = None    # with stats_json=True: the stats document (docs/stats.schema.json)
    report: Optional[str] = None        # with report=True: the HTML report (as `ptosim run --report` writes)
    output: str = ""                    # the kernel's pto.print / pto.tprint output, the blocks' in block order

    @property
    def warnings(self):
        return [d for d in self.diagnostics if d.severity == "warning"]

    @property
    def seconds(self):
        """Simulated time of the longest core, in seconds at the timing table's clock."""
        return self.stats.cycles / self.clock_hz if self.clock_hz else 0.0

    def __str__(self):
        s = self.stats
        moved = " ".join("%s %d" % (k, v) for k, v in s.bytes_moved.items())
        return ("%s on %s: %d block(s), %d core(s), %d ops, %d cycles; bytes moved: %s"
                % (self.entry or "kernel", self.target, self.blocks, s.cores, s.ops_executed, s.cycles, moved or "none"))


def _pipe_names():
    return [_lib.text(_L.pto_pipe_name(p)) for p in range(_lib.PTO_PIPES)]


def _cause_names():
    return [_lib.text(_L.pto_wait_cause_name(c)) for c in range(_lib.PTO_WAIT_COUNT)]


def _result(launch, entry, target, blocks, diags, trace, profile, stats_json=False, report=False):
    pipes, causes = _pipe_names(), _cause_names()
    st = _L.pto_launch_stats(launch).contents
    stats = Stats(st.ops_executed, st.vector_ops, st.cycles, st.cores,
                  {pipes[p]: st.bytes_moved[p] for p in range(_lib.PTO_PIPES) if st.bytes_moved[p]})
    cores = []
    ct = _lib.CoreTime()
    for i in range(_L.pto_launch_core_count(launch)):
        if _L.pto_launch_core_time(launch, i, ct):
            continue
        cp = {}
        for p in range(_lib.PTO_PIPES):
            t = ct.pipe[p]
            stall = {causes[w]: t.stall[w] for w in range(_lib.PTO_WAIT_COUNT) if t.stall[w]}
            if t.busy or t.ops or t.bytes or stall:
                cp[pipes[p]] = PipeTime(t.busy, stall, t.bytes, t.ops, t.end)
        cores.append(CoreTime(ct.block, _lib.text(ct.core), cp))
    stalls = []
    sv = _lib.Stall()
    for i in range(_L.pto_launch_stall_count(launch)):
        if _L.pto_launch_stall(launch, i, sv) == 0:
            stalls.append(Stall(sv.block, _lib.text(sv.core), pipes[sv.pipe] if sv.pipe < len(pipes) else "?",
                                causes[sv.cause] if 0 <= sv.cause < len(causes) else "?", sv.cycles, sv.times,
                                _lib.text(sv.what), _lib.text(sv.op), _lib.text(sv.file), _opt(sv.line), _opt(sv.col),
                                _lib.text(sv.setter_op), _lib.text(sv.setter_file), _opt(sv.setter_line),
                                _opt(sv.setter_col)))
    lines = []
    if profile:
        pl = _lib.ProfileLine()
        for i in range(_L.pto_launch_profile_count(launch)):
            if _L.pto_launch_profile_line(launch, i, pl) == 0:
                lines.append(ProfileLine(_lib.text(pl.file), pl.line, _lib.text(pl.op), pl.cycles, pl.stall, pl.count))
    loops = []
    lt = _lib.LoopTime()
    for i in range(_L.pto_launch_loop_count(launch)):
        if _L.pto_launch_loop(launch, i, lt) == 0:
            loops.append(LoopTime(_lib.text(lt.file), lt.line, lt.ii, lt.latency, _lib.text(lt.bound), lt.iterations))
    json = _lib.take_string(_L, _L.pto_launch_trace_json(launch)) if trace else None
    sj = _lib.take_string(_L, _L.pto_launch_stats_json(launch)) if stats_json else None
    html = _lib.take_string(_L, _L.pto_launch_report_html(launch)) if report else None
    n = c_size_t(0)
    raw = _L.pto_launch_output(launch, byref(n))
    out = string_at(raw, n.value).decode("utf-8", "replace") if raw and n.value else ""
    return RunResult(entry, target, blocks, stats, _L.pto_launch_clock_hz(launch), cores, stalls, lines, loops,
                     diags, json, sj, html, out)


# ------------------------------------------------------------------ modules

class _Instance:
    """One library context with the module parsed and verified in it, and its launches (by entry and timing
    table). A context is used by one thread at a time; Module keeps a pool of these."""

    def __init__(self, text, name, target):
        self.launches = {}
        self.mod = None
        self.target = target
        self.ctx = _L.pto_context_new()
        if not self.ctx:
            raise MemoryError("ptosim: out of memory creating a context")
        self.mod = _L.pto_parse(self.ctx, name.encode(), text, len(text))
        if not self.mod:
            self.close()
            raise MemoryError("ptosim: out of memory parsing %s" % name)
        if _L.pto_error_count(self.ctx) == 0:
            _L.pto_verify(self.mod, target)

    def launch(self, entry, timing):
        key = (entry, timing)
        l = self.launches.get(key)
        if l:
            return l
        l = _L.pto_launch_new(self.mod, entry.encode() if entry else None, self.target)
        if not l:
            raise DiagnosticError(_diagnostics(self.ctx))
        if timing is not None:
            tname, ttext = timing
            if _L.pto_launch_set_timing(l, tname.encode(), ttext, len(ttext)):
                d = _diagnostics(self.ctx)
                _L.pto_launch_free(l)
                raise DiagnosticError(d)
        self.launches[key] = l
        return l

    def close(self):
        for l in self.launches.values():
            _L.pto_launch_free(l)
        self.launches = {}
        if self.mod:
            _L.pto_module_free(self.mod)
            self.mod = None
        if self.ctx:
            _L.pto_context_free(self.ctx)
            self.ctx = None


def _close_all(pool):
    for inst in pool:
        inst.close()
    pool.clear()


def _read_source(source, name):
    """(text bytes, name) from a path (str without newline or '{', or os.PathLike) or kernel text (str, bytes)."""
    if isinstance(source, (bytes, bytearray)):
        return bytes(source), name or "<string>"
    if isinstance(source, str) and ("\n" in source or "{" in source):
        return source.encode(), name or "<string>"
    path = os.fspath(source)
    try:
        with open(path, "rb") as f:
            return f.read(), name or path
    except OSError:
        # the library's own E-IO-READ diagnostic, worded as the tool words it
        ctx = _L.pto_context_new()
        try:
            _L.pto_parse_file(ctx, os.fsencode(path))
            raise DiagnosticError(_diagnostics(ctx)) from None
        finally:
            _L.pto_context_free(ctx)


def load(source, target=None, *, name=None):
    """Parses and verifies a module. `source` is a path (pathlib.Path, or a str with neither a newline nor a
    '{') or the kernel text (str or bytes; `name` is the file name its diagnostics show, "<string>" by
    default). `target` is "a5", "a2a3", "cpu" or None (the module's pto.target_arch, else a5). Raises
    DiagnosticError with every diagnostic when the module has errors; warnings stay in Module.warnings."""
    text, name = _read_source(source, name)
    code = _target_code(target)
    inst = _Instance(text, name, code)
    diags = _diagnostics(inst.ctx)
    if _L.pto_error_count(inst.ctx):
        inst.close()
        raise DiagnosticError(diags)
    return Module(text, name, code, inst, diags)


def check(source, target=None, *, name=None):
    """Parses and verifies like load(), without keeping the module: each module nested in the top module is
    verified as soon as it is parsed and then freed (the `ptosim check` path), so a large file of kernels
    takes little memory. Returns every diagnostic (warnings, and errors in file order); nothing is raised for
    errors in the kernel text (see DiagnosticError.errors for the filter). An unreadable path raises
    DiagnosticError (E-IO-READ)."""
    text, name = _read_source(source, name)
    code = _target_code(target)
    ctx = _L.pto_context_new()
    if not ctx:
        raise MemoryError("ptosim: out of memory creating a context")
    try:
        _L.pto_check(ctx, name.encode(), text, len(text), code)
        return _diagnostics(ctx)
    finally:
        _L.pto_context_free(ctx)


class Module:
    """A parsed and verified module (use load()). `kernels`: its pto.kernel functions by name; `functions`:
    every function with a body (any of them can be run with entry=); `warnings`: the load's warnings."""

    def __init__(self, text, name, target_code, inst, warnings):
        self.text, self.name, self.warnings = text, name, warnings
        self._target_code = target_code
        eff = target_code if target_code != _lib.PTO_TARGET_DEFAULT else _L.pto_module_target(inst.mod)
        self.target = _lib.text(_L.pto_target_name(eff))
        self.functions = {k.name: k for k in _functions(inst.mod)}
        self.kernels = {k: f for k, f in self.functions.items() if f.is_kernel}
        self._pool = [inst]
        self._lock = threading.Lock()
        self._finalizer = weakref.finalize(self, _close_all, self._pool)

    def __repr__(self):
        return "<ptosim.Module %s (%s): %s>" % (self.name, self.target, ", ".join(map(str, self.functions.values())))

    def close(self):
        """Frees the library state now (otherwise when the module is garbage-collected)."""
        self._finalizer()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _acquire(self):
        with self._lock:
            if not self._finalizer.alive:
                raise ValueError("the module is closed")
            if self._pool:
                return self._pool.pop()
        return _Instance(self.text, self.name, self._target_code)   # other threads hold the others

    def _release(self, inst):
        with self._lock:
            if self._finalizer.alive:
                self._pool.append(inst)
                return
        inst.close()

    def entry_for(self, entry):
        """The Kernel `entry` names, or the one pto_launch_new picks by default (the only pto.kernel function,
        else the only function); None when that choice is ambiguous (the run then reports E-ENTRY)."""
        if entry is not None:
            return self.functions.get(entry[1:] if entry.startswith("@") else entry)
        if len(self.kernels) == 1:
            return next(iter(self.kernels.values()))
        if not self.kernels and len(self.functions) == 1:
            return next(iter(self.functions.values()))
        return None

    def run(self, *args, entry=None, blocks=1, race=True, initcheck=True, unwritten=True, outputs=None,
            sanitize=True, steps=None, vag_loops=False, timing=None, trace=False, profile=False, strict_gm=False,
            stats_json=False, report=False, tile_op_expand=False):
        """Runs a kernel with one argument per parameter, in declaration order: a numpy array for a pointer
        (bound in place, zero-copy: C-contiguous, writeable, of the pointer's element type; see Param.dtype),
        a Python (or numpy) int for an integer or index parameter, an int or float for a float one.

        entry: the function to run (default: the only pto.kernel function, else the only function);
        blocks: 1..65535. The sanitizer's checks are on by default, as in `ptosim run`: race (W-RACE), initcheck
        (W-UNINIT: reads of on-chip bytes nothing wrote), unwritten (W-UNWRITTEN: bytes of an output the kernel
        never wrote; the outputs are the pointer parameters named in `outputs`, by name or index, as `ptosim
        run` checks those given an OUT file); sanitize=False turns all three off. Each warning of the run is
        issued as a SanitizerWarning (Python's warnings module) and returned in RunResult.warnings. steps: the
        per-core step limit (None: the default); vag_loops: pto.vag binds loop iteration counts; tile_op_expand:
        where the compiler's two tile lowerings disagree, follow its TileLib templates (`ptoas
        --enable-tile-op-expand`), not pto-isa (`ptosim run --tile-op-expand`); timing: a
        timing table (its text as str, or a path as os.PathLike) applied over the target's; trace: record the
        Chrome trace (RunResult.trace); profile: per-line profile (RunResult.profile); strict_gm: an access
        leaving its array traps T-OOB (by default GM is one flat device space, as in `ptosim run`: the access
        is performed in the gap after the array and reported as W-GM-OOB); stats_json: RunResult.stats_json is
        the stats document (docs/stats.schema.json); report: RunResult.report is the HTML report (trace and
        profile on), as `ptosim run --report` writes it.

        Returns a RunResult. Raises ArgumentError (nothing ran) for a bad argument, TrapError for a run-time
        trap (the arrays keep what the kernel wrote), DiagnosticError for an entry or timing-table error."""
        if entry is not None and entry.startswith("@"):
            entry = entry[1:]
        if not isinstance(blocks, (int, np.integer)) or isinstance(blocks, bool) or not 1 <= blocks <= 65535:
            raise ValueError("blocks must be a count in 1..65535, got %r" % (blocks,))
        if steps is not None and (isinstance(steps, bool) or not isinstance(steps, (int, np.integer))
                                  or not 0 < steps < 2 ** 64):
            raise ValueError("steps must be a positive count below 2**64, got %r" % (steps,))
        tm = None
        if timing is not None:
            if isinstance(timing, os.PathLike):
                with open(timing, "rb") as f:
                    tm = (os.fspath(timing), f.read())
            else:
                tm = ("<timing>", timing.encode() if isinstance(timing, str) else bytes(timing))
        inst = self._acquire()
        try:
            _L.pto_diag_clear(inst.ctx)
            l = inst.launch(entry, tm)
            _bind(l, args)
            _L.pto_launch_set_step_limit(l, int(steps or 0))
            _L.pto_launch_set_race_check(l, 1 if race and sanitize else 0)
            _L.pto_launch_set_checks(l, _lib.PTO_CHECK_RACE, 1 if race and sanitize else 0)
            _L.pto_launch_set_checks(l, _lib.PTO_CHECK_INIT, 1 if initcheck and sanitize else 0)
            _L.pto_launch_set_checks(l, _lib.PTO_CHECK_UNWRITTEN, 1 if unwritten and sanitize else 0)
            outs = _output_indices(l, outputs)
            for i in range(_L.pto_launch_num_params(l)):
                _L.pto_launch_set_output(l, i, 1 if i in outs else 0)
            _L.pto_launch_set_gm_strict(l, 1 if strict_gm else 0)
            _L.pto_launch_set_vag_loops(l, 1 if vag_loops else 0)
            _L.pto_launch_set_tile_op_expand(l, 1 if tile_op_expand else 0)
            _L.pto_launch_set_trace(l, 1 if trace or report else 0)
            _L.pto_launch_set_profile(l, 1 if profile or report else 0)
            rc = _L.pto_launch_run(l, int(blocks))       # releases the GIL
            diags = _diagnostics(inst.ctx)
            if rc not in (0, 3):
                raise DiagnosticError(diags)
            k = self.entry_for(entry)
            res = _result(l, k.name if k else entry, self.target, int(blocks), diags, trace, profile or report,
                          stats_json, report)
        finally:
            self._release(inst)
        for d in res.warnings:
            warnings.warn(SanitizerWarning(d), stacklevel=2)
        if rc == 3:
            raise TrapError(diags, res)
        return res


# ------------------------------------------------------------------ binding

def _output_indices(l, outputs):
    """Parameter indices of `outputs` (names, with or without '%', or indices); ValueError for an unknown one."""
    if not outputs:
        return set()
    if isinstance(outputs, (str, int)):
        outputs = [outputs]
    pi = _lib.ParamInfo()
    names = {}
    for i in range(_L.pto_launch_num_params(l)):
        _L.pto_launch_param(l, i, pi)
        names[_lib.text(pi.name)] = i
    out = set()
    for o in outputs:
        if isinstance(o, str) and o.lstrip("%") in names:
            out.add(names[o.lstrip("%")])
        elif isinstance(o, int) and not isinstance(o, bool) and 0 <= o < len(names):
            out.add(o)
        else:
            raise ValueError("outputs: %r is not a parameter of the kernel (%s)" % (o, ", ".join(names)))
    return out


def _bind(l, args):
    n = _L.pto_launch_num_params(l)
    pi = _lib.ParamInfo()
    params = []
    for i in range(n):
        _L.pto_launch_param(l, i, pi)
        params.append(_param(pi))
    if len(args) != n:
        raise ArgumentError("E-ARG-COUNT", "the kernel takes %d argument(s), %d given: %s"
                            % (n, len(args), ", ".join(map(str, params)) or "none"))
    binds = [_check_arg(i, p, a) for i, (p, a) in enumerate(zip(params, args))]   # every argument before any binding
    for i, (fn, v) in enumerate(binds):
        if fn(l, i, *v):
            raise ArgumentError("E-ARG-FORM", "parameter %d (%s): the library refused the value" % (i, params[i]))


def _arg_error(ident, i, p, msg):
    return ArgumentError(ident, "parameter %d (%s): %s" % (i, p, msg))


def _describe(a):
    if isinstance(a, np.ndarray):
        return "a %s array of shape %s" % (a.dtype, a.shape)
    return "%s %r" % (type(a).__name__, a) if isinstance(a, (int, float, np.generic)) else "a %s" % type(a).__name__


def _check_arg(i, p, a):
    """(binding function, its extra arguments) for argument `a` of parameter `p`, or raises ArgumentError."""
    if p.kind == "pointer":
        if p.space != "gm":
            raise _arg_error("E-ARG-FORM", i, p, "a %s pointer cannot be passed; kernel pointers must be in gm" % p.space)
        want = "%s array" % p.dtype + (" (the raw bits of %s; any %d-byte integer dtype)" % (p.type.split("<")[-1].split(",")[0], p.itemsize)
                                      if p.raw else "")
        if not isinstance(a, np.ndarray):
            raise _arg_error("E-ARG-FORM", i, p, "needs a numpy %s, got %s" % (want, _describe(a)))
        if not p.accepts(a.dtype):
            raise _arg_error("E-ARG-FORM", i, p, "needs a %s, got %s" % (want, _describe(a)))
        if not a.flags.c_contiguous:
            raise _arg_error("E-ARG-FORM", i, p, "the array is not C-contiguous; the kernel works on the array's "
                             "memory in place, so pass a contiguous one (np.ascontiguousarray makes a copy)")
        if not a.flags.writeable:
            raise _arg_error("E-ARG-FORM", i, p, "the array is read-only; the kernel may write its buffers")
        return _L.pto_launch_bind_buffer, (a.ctypes.data, a.nbytes)
    if p.kind == "int":
        if isinstance(a, (bool, np.bool_)):
            a = int(a)
        if not isinstance(a, (int, np.integer)):
            raise _arg_error("E-ARG-FORM", i, p, "needs an integer, got %s" % _describe(a))
        v = int(a)
        lim = 1 << p.bits
        if v >= lim or v < -(lim >> 1):      # fits the width, signed or unsigned (as `ptosim run` checks)
            raise _arg_error("E-ARG-FORM", i, p, "%d does not fit %s" % (v, p.type))
        return _L.pto_launch_bind_int, (v - (1 << 64) if v >= 1 << 63 else v,)
    if p.kind == "float":
        if isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, float, np.integer, np.floating)):
            raise _arg_error("E-ARG-FORM", i, p, "needs a float (or int), got %s" % _describe(a))
        return _L.pto_launch_bind_float, (float(a),)
    raise _arg_error("E-ARG-FORM", i, p, "this type cannot be passed to a kernel")
