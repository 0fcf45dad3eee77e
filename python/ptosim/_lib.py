"""_lib.py — the ctypes view of libptosim (include/ptosim.h): where the library and the tool are found, the
structures and the prototypes. Nothing here is public; the package's __init__ wraps it.

The library is the first of:
  1. $PTOSIM_LIB (a path to libptosim.so.0);
  2. the copy inside the package (pip install ./python puts one there);
  3. the one `make install` put in PREFIX/lib (recorded in _installed.py);
  4. build/libptosim.so.0 of the source tree the package sits in (python/ptosim -> build/);
  5. libptosim.so.0 on the dynamic loader's path (LD_LIBRARY_PATH, ldconfig).
The tool (for `python3 -m ptosim`) is found the same way: $PTOSIM_BIN, the package's copy, make install's
BINDIR, the source tree's build/ptosim, then PATH.

ctypes.CDLL releases the GIL around every call, so a kernel running on one thread never stops Python
threads (nor kernels on other threads) from running."""
import ctypes, os, shutil
from ctypes import POINTER, Structure, c_char, c_char_p, c_double, c_int, c_int64, c_long, c_size_t, c_uint, c_uint32, c_uint64, c_void_p

SONAME = "libptosim.so.0"
_HERE = os.path.dirname(os.path.abspath(__file__))
_TREE_BUILD = os.path.join(os.path.dirname(os.path.dirname(_HERE)), "build")

try:
    from . import _installed          # written by `make install`
except ImportError:                   # the source tree, or a pip install
    _installed = None


def _candidates(env, bundled, installed, tree):
    if os.environ.get(env):
        return [os.environ[env]]
    found = [p for p in (os.path.join(_HERE, bundled), installed, os.path.join(_TREE_BUILD, tree)) if p and os.path.exists(p)]
    return found


def library_path():
    """The library this package loads (a path, or the bare soname left to the dynamic loader)."""
    found = _candidates("PTOSIM_LIB", SONAME, _installed and _installed.LIBRARY, SONAME)
    return found[0] if found else SONAME


def program_path():
    """The ptosim tool `python3 -m ptosim` runs, or None."""
    found = _candidates("PTOSIM_BIN", "ptosim-cli", _installed and _installed.PROGRAM, "ptosim")
    return found[0] if found else shutil.which("ptosim")


PTO_TARGET_DEFAULT = -1
PTO_PIPES = 7
PTO_WAIT_COUNT = 8
SEVERITIES = ("note", "warning", "error", "trap")
PARAM_KINDS = ("pointer", "int", "float", "other")


class DiagInfo(Structure):
    _fields_ = [("severity", c_int), ("id", c_char_p), ("file", c_char_p), ("line", c_uint), ("col", c_uint),
                ("message", c_char_p), ("nnotes", c_size_t)]


class ParamInfo(Structure):
    _fields_ = [("kind", c_int), ("name", c_char_p), ("elem_bits", c_uint), ("elem_code", c_char), ("type", c_char_p),
                ("space", c_char_p)]


class FuncInfo(Structure):
    _fields_ = [("name", c_char_p), ("is_kernel", c_int), ("nparams", c_uint), ("file", c_char_p), ("line", c_uint),
                ("col", c_uint)]


class Stats(Structure):
    _fields_ = [("ops_executed", c_uint64), ("vector_ops", c_uint64), ("bytes_moved", c_uint64 * 8), ("cycles", c_uint64),
                ("cores", c_uint)]


class PipeTime(Structure):
    _fields_ = [("busy", c_uint64), ("stall", c_uint64 * PTO_WAIT_COUNT), ("bytes", c_uint64), ("ops", c_uint64),
                ("end", c_uint64)]


class CoreTime(Structure):
    _fields_ = [("block", c_uint), ("core", c_char_p), ("pipe", PipeTime * PTO_PIPES)]


class Stall(Structure):
    _fields_ = [("block", c_uint), ("core", c_char_p), ("pipe", c_uint), ("cause", c_int), ("cycles", c_uint64),
                ("times", c_uint64), ("what", c_char_p), ("op", c_char_p), ("file", c_char_p), ("line", c_uint),
                ("col", c_uint), ("setter_op", c_char_p), ("setter_file", c_char_p), ("setter_line", c_uint),
                ("setter_col", c_uint)]


class ProfileLine(Structure):
    _fields_ = [("file", c_char_p), ("line", c_uint), ("op", c_char_p), ("cycles", c_uint64), ("stall", c_uint64),
                ("count", c_uint64)]


class LoopTime(Structure):
    _fields_ = [("file", c_char_p), ("line", c_uint), ("ii", c_uint32), ("latency", c_uint32), ("bound", c_char_p),
                ("iterations", c_uint64)]


# The structures above, by their C names (the install test compares their sizes with a C compiler's).
STRUCTS = {"PtoDiagInfo": DiagInfo, "PtoParamInfo": ParamInfo, "PtoFuncInfo": FuncInfo, "PtoStats": Stats,
           "PtoPipeTime": PipeTime, "PtoCoreTime": CoreTime, "PtoStall": Stall, "PtoProfileLine": ProfileLine,
           "PtoLoopTime": LoopTime}

_P = c_void_p      # every handle is opaque
PROTOTYPES = {
    "pto_context_new": (_P, []),
    "pto_context_free": (None, [_P]),
    "pto_free": (None, [c_void_p]),
    "pto_diag_count": (c_size_t, [_P]),
    "pto_error_count": (c_size_t, [_P]),
    "pto_diag_get": (c_int, [_P, c_size_t, POINTER(DiagInfo)]),
    "pto_diag_note_get": (c_int, [_P, c_size_t, c_size_t, POINTER(DiagInfo)]),
    "pto_diag_render": (c_void_p, [_P, c_size_t, c_int]),          # malloc'd: read, then pto_free
    "pto_diag_clear": (None, [_P]),
    "pto_parse": (_P, [_P, c_char_p, c_char_p, c_size_t]),
    "pto_parse_file": (_P, [_P, c_char_p]),
    "pto_module_free": (None, [_P]),
    "pto_module_target": (c_int, [_P]),
    "pto_target_from_name": (c_int, [c_char_p, POINTER(c_int)]),
    "pto_target_name": (c_char_p, [c_int]),
    "pto_verify": (c_size_t, [_P, c_int]),
    "pto_check": (c_long, [_P, c_char_p, c_char_p, c_size_t, c_int]),
    "pto_module_func_count": (c_size_t, [_P]),
    "pto_module_func": (c_int, [_P, c_size_t, POINTER(FuncInfo)]),
    "pto_module_func_param": (c_int, [_P, c_size_t, c_uint, POINTER(ParamInfo)]),
    "pto_launch_new": (_P, [_P, c_char_p, c_int]),
    "pto_launch_free": (None, [_P]),
    "pto_launch_num_params": (c_uint, [_P]),
    "pto_launch_param": (c_int, [_P, c_uint, POINTER(ParamInfo)]),
    "pto_launch_bind_buffer": (c_int, [_P, c_uint, c_void_p, c_size_t]),
    "pto_launch_bind_int": (c_int, [_P, c_uint, c_int64]),
    "pto_launch_bind_float": (c_int, [_P, c_uint, c_double]),
    "pto_launch_bind_bits": (c_int, [_P, c_uint, c_uint64]),
    "pto_launch_set_step_limit": (None, [_P, c_uint64]),
    "pto_launch_set_race_check": (None, [_P, c_int]),
    "pto_launch_set_gm_strict": (None, [_P, c_int]),
    "pto_launch_set_vag_loops": (None, [_P, c_int]),
    "pto_launch_set_tile_op_expand": (None, [_P, c_int]),
    "pto_launch_set_timing": (c_int, [_P, c_char_p, c_char_p, c_size_t]),
    "pto_launch_run": (c_int, [_P, c_uint]),
    "pto_launch_stats": (POINTER(Stats), [_P]),
    "pto_launch_output": (c_void_p, [_P, POINTER(c_size_t)]),
    "pto_pipe_name": (c_char_p, [c_uint]),
    "pto_wait_cause_name": (c_char_p, [c_int]),
    "pto_launch_clock_hz": (c_double, [_P]),
    "pto_launch_core_count": (c_size_t, [_P]),
    "pto_launch_core_time": (c_int, [_P, c_size_t, POINTER(CoreTime)]),
    "pto_launch_stall_count": (c_size_t, [_P]),
    "pto_launch_stall": (c_int, [_P, c_size_t, POINTER(Stall)]),
    "pto_launch_set_trace": (None, [_P, c_int]),
    "pto_launch_trace_json": (c_void_p, [_P]),                     # malloc'd
    "pto_launch_set_profile": (None, [_P, c_int]),
    "pto_launch_profile_count": (c_size_t, [_P]),
    "pto_launch_profile_line": (c_int, [_P, c_size_t, POINTER(ProfileLine)]),
    "pto_launch_loop_count": (c_size_t, [_P]),
    "pto_launch_loop": (c_int, [_P, c_size_t, POINTER(LoopTime)]),
    "pto_launch_set_checks": (None, [_P, c_uint, c_int]),
    "pto_launch_set_output": (c_int, [_P, c_uint, c_int]),
    "pto_launch_stats_json": (c_void_p, [_P]),                     # malloc'd
    "pto_launch_report_html": (c_void_p, [_P]),                    # malloc'd
}
PTO_CHECK_RACE, PTO_CHECK_INIT, PTO_CHECK_UNWRITTEN = 1, 2, 4


def load_library():
    path = library_path()
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise ImportError("ptosim: cannot load %s (%s); build it with `make`, install it with `make install`, "
                          "or name it in PTOSIM_LIB" % (path, e)) from None
    for name, (restype, argtypes) in PROTOTYPES.items():
        f = getattr(lib, name)
        f.restype = restype
        f.argtypes = argtypes
    lib.path = path
    return lib


def take_string(lib, ptr):
    """A malloc'd C string returned by the library, as str; the memory is released."""
    if not ptr:
        return None
    try:
        return ctypes.string_at(ptr).decode("utf-8", "replace")
    finally:
        lib.pto_free(ptr)


def text(b):
    return None if b is None else b.decode("utf-8", "replace")

