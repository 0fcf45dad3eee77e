"""ptosim.case — run PTOAS / PTO-Gym style case directories on ptosim, the way the vendor flow validates them
on its simulator (DEVICE=SIM), with ptosim in the simulator's place. Python standard library only (the
cases' own scripts need numpy).

    ptosim case [OPTION]... DIR... [RUN OPTION]...        (the tool: runs `python3 -m ptosim.case`)
    python3 -m ptosim.case [OPTION]... DIR...
    ptosim.case.run_cases(["DIR"], jobs=2)                -> [CaseResult]

A DIR is a case directory, or a directory searched for case directories. Two layouts are recognised:

* a case (PTOAS test/vpto/cases, PTO-Gym examples): kernel.pto (or the directory's only .pto), golden.py or
  gen_data.py, compare.py, main.cpp, launch.cpp. The data script runs in a fresh work directory (it writes
  the inputs and goldens there), then the host program is built and run there, then compare.py runs there
  (COMPARE_STRICT=1) and judges;
* a tile system test (PTOAS test/tilelang_st/.../testcase/OP): OP.pto with several kernels, cases.py,
  gen_data.py, compare.py, main.cpp with a table of cases, launch.cpp, and st_common.py one level up. As that
  flow does, cases.py, gen_data.py, compare.py and st_common.py are copied into the work directory and run
  there.

The host program is the case's own main.cpp, compiled with the host C++ compiler (CXX, default g++) against
ptosim's stand-in device runtime (ptosim/case_runtime/: acl/acl.h, test_common.h, the launch prelude and
ptosim_runtime.cpp) and a rewrite of launch.cpp in which each kernel launch `K<<<BLOCKS, ...>>>(ARGS)` runs
`ptosim run -b BLOCKS -e K KERNEL.pto ARGS`: the buffers ptosim gets are the host's device allocations, the
scalars the values the host passes, and what the kernel writes goes back into the allocations for the host's
own copy-out. Each case prints one line, PASS or FAIL with a reason class — parse, verify, a trap ID (T-...),
mismatch (compare.py failed), harness (the data script, the build or the host program failed, or ptosim
refused the arguments) — and the run-time warnings in brackets; then "N passed, M failed". Exit status 0
when every case passed, 1 otherwise, 2 on a usage error.
"""
import argparse, json, os, re, shutil, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

RUNTIME_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "case_runtime")
TIMEOUT = 600
PARSE_IDS = ("E-LEX-", "E-PARSE-", "E-SSA-REDEF", "E-SSA-UNDEF", "E-TYPE-MISMATCH", "E-SEGMENT-SIZES",
             "E-TOO-MANY-ERRORS")


class CaseResult:
    """One case: `status` "PASS" or "FAIL", `cls` the reason class ("" for a pass), `why` one line, `warnings`
    the run-time warning IDs ptosim reported, `launches` how many kernel launches ran, `work` the work
    directory when kept, `stats` the --stats text of each launch (when asked for)."""

    def __init__(self, case, status, cls="", why="", warnings=(), launches=0, stats=None, work=None):
        self.case, self.status, self.cls, self.why = case, status, cls, why
        self.warnings, self.launches, self.stats, self.work = sorted(warnings), launches, stats or [], work

    @property
    def passed(self):
        return self.status == "PASS"

    def __repr__(self):
        return "CaseResult(%r, %s%s)" % (self.case, self.status, (": %s: %s" % (self.cls, self.why)) if self.cls else "")


# ---------------------------------------------------------------------------------------------------- layout

class Case:
    def __init__(self, path, rel, kernel, data, tile):
        self.path, self.rel, self.kernel, self.data, self.tile = path, rel, kernel, data, tile


def case_of(d, rel):
    """A Case when directory d holds one, else None."""
    try:
        files = set(os.listdir(d))
    except OSError:
        return None
    if not {"compare.py", "main.cpp", "launch.cpp"} <= files:
        return None
    data = "golden.py" if "golden.py" in files else "gen_data.py" if "gen_data.py" in files else None
    if not data:
        return None
    ptos = sorted(f for f in files if f.endswith(".pto"))
    base = os.path.basename(os.path.normpath(d))
    kernel = "kernel.pto" if "kernel.pto" in files else base + ".pto" if base + ".pto" in files else \
        ptos[0] if len(ptos) == 1 else None
    if not kernel:
        return None
    tile = "cases.py" in files and data == "gen_data.py"
    return Case(d, rel, os.path.join(d, kernel), data, tile)


def find_cases(roots, filters=()):
    """Every case under the given directories (a case directory itself, or one searched recursively), whose
    relative path contains one of the filters (all when none)."""
    from ptosim import samples   # the third layout: PTOAS test/samples (golden scripts, validation_runtime.py)
    found = []
    for root in roots:
        root = os.path.abspath(root)
        c = case_of(root, os.path.basename(root))
        if c:
            found.append(c)
            continue
        if samples.is_sample_dir(root):
            found += [s for s in samples.sample_cases(root, os.path.basename(root))
                      if not filters or any(f in s.rel for f in filters)]
            continue
        for d, dirs, _ in os.walk(root):
            dirs.sort()
            rel = os.path.relpath(d, root)
            c = case_of(d, rel)
            if c and (not filters or any(f in c.rel for f in filters)):
                found.append(c)
            elif not c and samples.is_sample_dir(d):
                found += [s for s in samples.sample_cases(d, rel) if not filters or any(f in s.rel for f in filters)]
                dirs[:] = []
    return sorted(found, key=lambda c: c.rel)


# ---------------------------------------------------------------------------------------------------- launch.cpp

DECL_RE = re.compile(r'extern\s+"C"\s+__global__\s*(?:\[aicore\]\s*|AICORE\s+)?void\s+(\w+)\s*\(([^;{]*?)\)\s*;', re.S)
TYPE_WORD = re.compile(r"^(const|volatile|unsigned|signed|int|long|short|char|float|double|bool|half|__fp16|\w+_t)$")
CALL_RE = re.compile(r'(\w+)\s*<<<(.*?)>>>\s*\(', re.S)


def split_top(text):
    """Split at commas outside parentheses, brackets and angle brackets."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([<{":
            depth += 1
        elif ch in ")]>}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return parts


FUNC_RE = re.compile(r"func\.func\s+@(\w+)\s*\(([^)]*)\)")


def kernel_params(pto_text):
    """The parameter types of each function of a kernel file: {name: ["!pto.ptr<f32>", "i32", ...]}."""
    out = {}
    for m in FUNC_RE.finditer(pto_text):
        out[m.group(1)] = [p.split(":", 1)[1].strip() for p in split_top(m.group(2)) if ":" in p]
    return out


MACRO_RE = re.compile(r'^[ \t]*#[ \t]*define[ \t]+(\w+)\(([^)]*)\)((?:[^\n]*\\\n)*[^\n]*)', re.M)


def expand_kernel_macros(src):
    """launch.cpp with its function-like macros that declare kernels (tquant_mx_dn's DEFINE_LAUNCH(name)) expanded
    at each use, so that rewrite_launch sees each declaration: parameters substituted, `a ## b` pasted, `#p`
    stringified; the #define and its #undef removed. Other macros are left to the compiler."""
    for m in list(MACRO_RE.finditer(src)):
        name, params, body = m.group(1), [q.strip() for q in m.group(2).split(",") if q.strip()], m.group(3)
        if "__global__" not in body:
            continue
        body = body.replace("\\\n", "\n")
        src = src.replace(m.group(0), "", 1)
        src = re.sub(r'^[ \t]*#[ \t]*undef[ \t]+%s\b[^\n]*' % name, "", src, flags=re.M)

        def use(u, params=params, body=body):
            args = [a.strip() for a in split_top(u.group(1))] if u.group(1).strip() else []
            out = body
            for q, a in zip(params, args):
                out = re.sub(r'(?<!#)#\s*%s\b' % q, '"%s"' % a, out)
                out = re.sub(r'\b%s\b' % q, a, out)
            return re.sub(r'\s*##\s*', "", out)
        src = re.sub(r'\b%s\s*\(([^()]*)\)' % name, use, src)
    return src


INT_PARAM = re.compile(r"^(?:[su]?i\d+|index)$")


def rewrite_launch(src, signatures=None):
    """launch.cpp with every kernel declaration turned into a definition that runs ptosim, and every
    `K<<<BLOCKS, ...>>>(` into a call that first records BLOCKS. A kernel whose .pto signature (`signatures`) has
    trailing parameters the declaration leaves out (tmrgsort's unused %ex_ptr) gets them as absent arguments:
    a zeroed 64-byte buffer for a pointer, 0 otherwise (on hardware they hold whatever the register holds)."""
    def define(m):
        name, params = m.group(1), m.group(2)
        decls, names = [], []
        for i, p in enumerate(split_top(params)):
            p = p.strip()
            if not p or p == "void":
                continue
            mm = re.search(r"(\w+)\s*$", p)
            head = p[:mm.start()].strip() if mm else ""
            # a word after '*' or '&' is a name even when it looks like a type (`float *value_t`)
            if mm and head and (head[-1] in "*&" or not TYPE_WORD.match(mm.group(1))):
                names.append(mm.group(1))
                decls.append(p)
            else:   # an unnamed parameter
                names.append("ptosim_p%d" % i)
                decls.append(p + " ptosim_p%d" % i)
        # a host float given to an integer kernel parameter passes its bits, as the calling convention does
        # (tsels of 2026-06 declares its f32 scalar i32 and bitcasts it; launch.cpp passes a float)
        sig = (signatures or {}).get(name, [])
        body = "".join("  ptosim_arg%s(%s);\n" % ("_ibits" if k < len(sig) and INT_PARAM.match(sig[k]) else "", n)
                       for k, n in enumerate(names))
        for t in (signatures or {}).get(name, [])[len(names):]:
            body += "  ptosim_arg_absent(%d);\n" % (1 if t.startswith("!pto.ptr") else 0)
        return 'static void %s(%s) {\n%s  ptosim_exec("%s");\n}' % (name, ", ".join(decls), body, name)

    out = DECL_RE.sub(define, expand_kernel_macros(src))

    def call(m):
        cfg = split_top(m.group(2))
        return "(ptosim_blocks(%s), %s)(" % (cfg[0].strip() if cfg else "1", m.group(1))
    out = CALL_RE.sub(call, out)
    return out.replace("[aicore]", "")


# ---------------------------------------------------------------------------------------------------- running

def _run(cmd, cwd, env=None, timeout=TIMEOUT):
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return -1, "timeout after %ds" % timeout
    except OSError as e:
        return -1, str(e)


def _first_line(text, n=160):
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:n]
    return ""


def _launch_result(tmp, idx):
    diags = []
    try:
        with open(os.path.join(tmp, "ptosim%d.out" % idx)) as f:
            for line in f:
                line = line.strip()
                if line.startswith("{"):
                    try:
                        diags.append(json.loads(line))
                    except ValueError:
                        pass
    except OSError:
        pass
    try:
        with open(os.path.join(tmp, "ptosim%d.err" % idx)) as f:
            err = f.read()
    except OSError:
        err = ""
    warns = {d.get("id") for d in diags if d.get("severity") == "warning" and d.get("id")}
    bad = [d for d in diags if d.get("severity") in ("error", "trap")]
    return bad, warns, err


def _describe(d):
    loc = "%s:%s" % (d.get("line"), d.get("col")) if d.get("line") else ""
    return "%s %s %s" % (d.get("id"), loc, (d.get("message") or "")[:140])


def build_runtime(d, cxx):
    """Compiles the stand-in runtime once into d; returns the object file (raises RuntimeError)."""
    obj = os.path.join(d, "ptosim_runtime.o")
    code, out = _run([cxx, "-std=c++17", "-O1", "-w", "-I", RUNTIME_DIR, "-c",
                      os.path.join(RUNTIME_DIR, "ptosim_runtime.cpp"), "-o", obj], d)
    if code != 0:
        raise RuntimeError("cannot build the stand-in runtime with %s:\n%s" % (cxx, out))
    return obj


STANDIN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ml_dtypes_standin")


def _importable(python, mod):
    return subprocess.run([python, "-c", "import " + mod], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          timeout=60).returncode == 0


def build_ml_dtypes(d, python, cc=None, used=None):
    """For each of ml_dtypes and en_dtypes that the scripts' Python cannot import (Debian packages neither),
    compiles the stand-in (ml_dtypes_standin/: its README; one C source for both) into d/PACKAGE and returns d for
    PYTHONPATH; None when both real packages are there or no stand-in could be built (the scripts then fail with
    their ImportError, reported as is). `used`, a list, receives the names of the stand-ins built."""
    built = []
    try:
        missing = [m for m in ("ml_dtypes", "en_dtypes") if not _importable(python, m)]
        if not missing:
            return None
        q = subprocess.run([python, "-c", "import sysconfig, numpy; print(sysconfig.get_paths()['include']); "
                            "print(numpy.get_include()); print(sysconfig.get_config_var('EXT_SUFFIX'))"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=60, universal_newlines=True)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = q.stdout.split()
    if q.returncode != 0 or len(lines) != 3:
        return None
    for name in missing:
        pkg = os.path.join(d, name)
        os.makedirs(pkg, exist_ok=True)
        shutil.copy(os.path.join(STANDIN_DIR, name, "__init__.py"), pkg)
        code, _ = _run([cc or os.environ.get("CC", "cc"), "-shared", "-fPIC", "-O1", "-w", "-I", lines[0], "-I",
                        lines[1], os.path.join(STANDIN_DIR, "_standin.c"), "-o",
                        os.path.join(pkg, "_standin" + lines[2]), "-lm"], d)
        if code == 0:
            built.append(name)
        else:
            shutil.rmtree(pkg, ignore_errors=True)
    if used is not None:
        used.extend(built)
    return d if built else None


def _has_numpy(python):
    try:
        return subprocess.run([python, "-c", "import numpy"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def scripts_python():
    """The Python that runs the cases' scripts (they import numpy): $PTOSIM_PYTHON, else the first of this one,
    /usr/bin/python3 (Debian's python3-numpy) and python3 on PATH that imports numpy, else this one."""
    env = os.environ.get("PTOSIM_PYTHON")
    if env:
        return env
    for p in (sys.executable, "/usr/bin/python3", shutil.which("python3")):
        if p and os.path.exists(p) and _has_numpy(p):
            return p
    return sys.executable


class Options:
    def __init__(self, ptosim, run_options=(), cxx=None, python=None, keep=None, stats=False, profile=False,
                 report=None, timeout=TIMEOUT):
        self.ptosim = ptosim
        self.run_options = list(run_options)
        self.cxx = cxx or os.environ.get("CXX", "g++")
        self.python = python or scripts_python()
        self.keep, self.stats, self.profile, self.report, self.timeout = keep, stats, profile, report, timeout
        self.runtime_obj = None
        self.pythonpath = None   # the ml_dtypes / en_dtypes stand-ins' directory, when they are used
        self.standins = []       # the names of the stand-ins built


def run_case(case, opts):
    tmp = tempfile.mkdtemp(prefix="ptosim-case-")
    work = None
    try:
        res = _run_in(case, tmp, opts)
    except Exception as e:   # a broken case must not stop the others
        res = CaseResult(case.rel, "FAIL", "harness", "%s: %s" % (type(e).__name__, e))
    finally:
        if opts.keep:
            work = os.path.join(opts.keep, case.rel.replace("/", "__"))
            shutil.rmtree(work, ignore_errors=True)
            shutil.copytree(tmp, work)
        shutil.rmtree(tmp, ignore_errors=True)
    res.work = work
    return res


def expands_tile_ops(path):
    """True when the case's build runs the compiler with --enable-tile-op-expand (the TileLib templates): the
    run_ptoas_to_file.cmake of PTOAS test/tilelang_st and PTO-Gym examples/tileop, in the case directory or one of
    its two parents. Such a case runs with `ptosim run --tile-op-expand` (docs/semantics.md §14.5 "textract")."""
    d = os.path.abspath(path)
    for _ in range(3):
        try:
            with open(os.path.join(d, "run_ptoas_to_file.cmake")) as f:
                return "--enable-tile-op-expand" in f.read()
        except OSError:
            pass
        d = os.path.dirname(d)
    return False


def _run_in(case, tmp, opts):
    if getattr(case, "sample", False):
        from ptosim import samples
        return samples.run_sample(case, tmp, opts)
    py, rel = opts.python, case.rel
    env = dict(os.environ)
    if opts.pythonpath:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (opts.pythonpath, env.get("PYTHONPATH")) if p)
    if case.tile:
        # the tile system tests' flow: the scripts are copied into the work directory and run there
        for name in ("cases.py", "gen_data.py", "compare.py"):
            shutil.copy(os.path.join(case.path, name), tmp)
        common = os.path.join(os.path.dirname(os.path.normpath(case.path)), "st_common.py")
        if os.path.exists(common) and not os.path.exists(os.path.join(case.path, "st_common.py")):
            shutil.copy(common, tmp)
        data_script, compare_script = os.path.join(tmp, "gen_data.py"), os.path.join(tmp, "compare.py")
    else:
        data_script, compare_script = os.path.join(case.path, case.data), os.path.join(case.path, "compare.py")
    code, out = _run([py, data_script], tmp, env, opts.timeout)
    if code != 0:
        return CaseResult(rel, "FAIL", "harness", "%s: %s" % (case.data, _first_line(out.splitlines()[-1] if out else "")))
    inc = os.path.join(tmp, "_inc")
    os.makedirs(inc)
    with open(os.path.join(case.path, "launch.cpp")) as f:
        launch_src = f.read()
    try:
        with open(os.path.join(case.path, case.kernel)) as f:
            params = kernel_params(f.read())
    except OSError:
        params = None
    shim = rewrite_launch(launch_src, params)
    with open(os.path.join(inc, "launch_shim.cpp"), "w") as f:
        f.write(shim)
    exe = os.path.join(inc, "host")
    code, out = _run([opts.cxx, "-std=c++17", "-O0", "-w", "-I", RUNTIME_DIR, "-I", case.path, "-include",
                      os.path.join(RUNTIME_DIR, "ptosim_prelude.h"), os.path.join(case.path, "main.cpp"),
                      os.path.join(inc, "launch_shim.cpp"), opts.runtime_obj, "-o", exe], tmp, None, opts.timeout)
    if code != 0:
        err = [l for l in out.splitlines() if "error" in l]
        return CaseResult(rel, "FAIL", "harness", "host build: " + (err[0] if err else _first_line(out))[:200])
    flags = list(opts.run_options)
    if expands_tile_ops(case.path) and "--tile-op-expand" not in flags:
        flags.append("--tile-op-expand")
    env = dict(env, PTOSIM_BIN=opts.ptosim, PTOSIM_KERNEL=case.kernel, PTOSIM_FLAGS=" ".join(flags))
    if opts.stats:
        env["PTOSIM_STATS"] = "profile" if opts.profile else "1"
    if opts.report:
        env["PTOSIM_REPORT_PREFIX"] = os.path.join(os.path.abspath(opts.report), rel.replace("/", "__") + "__")
    code, out = _run([exe], tmp, env, opts.timeout)
    launches, harness = [], []
    try:
        with open(os.path.join(tmp, "ptosim_launches.txt")) as f:
            for line in f:
                w = line.split(None, 3)
                if w and w[0] == "LAUNCH":
                    launches.append((int(w[1]), int(w[2]), w[3].strip()))
                elif w and w[0] == "HARNESS":
                    harness.append(line.strip()[8:])
    except OSError:
        pass
    if not launches:
        return CaseResult(rel, "FAIL", "harness", "the host program launched no kernel (exit %d): %s" % (code, _first_line(out)))
    warns, stats = set(), []
    for idx, rc, kernel in launches:
        bad, w, err = _launch_result(tmp, idx)
        warns |= w
        if opts.stats:
            try:
                stats.append((kernel, open(os.path.join(tmp, "ptosim%d.stats.txt" % idx)).read()))
            except OSError:
                pass
        if rc == 0:
            continue
        if rc == 1 and bad:
            cls = "parse" if bad[0].get("id", "").startswith(PARSE_IDS) else "verify"
            return CaseResult(rel, "FAIL", cls, _describe(bad[0]), warns, len(launches), stats)
        if rc == 3 and bad:
            return CaseResult(rel, "FAIL", bad[0].get("id", "trap"), _describe(bad[0]), warns, len(launches), stats)
        if rc == 4:
            return CaseResult(rel, "FAIL", "werror", "a warning made an error: " + (_describe(bad[0]) if bad else ""),
                              warns, len(launches), stats)
        if rc == 2 and bad and not bad[0].get("id", "").startswith(("E-ARG", "E-IO", "E-USAGE")):
            return CaseResult(rel, "FAIL", "verify", _describe(bad[0]), warns, len(launches), stats)
        why = _describe(bad[0]) if bad else _first_line(err)
        return CaseResult(rel, "FAIL", "harness", "ptosim exit %d for %s: %s" % (rc, kernel, why), warns, len(launches), stats)
    if harness:
        return CaseResult(rel, "FAIL", "harness", harness[0], warns, len(launches), stats)
    if code != 0:
        return CaseResult(rel, "FAIL", "harness", "host program exit %d: %s" % (code, _first_line(out)), warns, len(launches), stats)
    code, out = _run([py, compare_script], tmp, dict(env, COMPARE_STRICT="1"), opts.timeout)
    if code != 0:
        lines = [l for l in out.splitlines() if l.strip()]
        why = next((l for l in lines if "mismatch" in l.lower() or "max" in l.lower() or "fail" in l.lower()),
                   lines[0] if lines else "exit %d" % code)
        return CaseResult(rel, "FAIL", "mismatch", why.strip()[:200], warns, len(launches), stats)
    return CaseResult(rel, "PASS", "", "", warns, len(launches), stats)


def default_ptosim():
    """The ptosim tool: $PTOSIM_BIN, the source tree's build/ptosim next to this package, or ptosim on PATH."""
    env = os.environ.get("PTOSIM_BIN")
    if env:
        return env
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    tree = os.path.join(here, "build", "ptosim")
    if os.access(tree, os.X_OK):
        return tree
    return shutil.which("ptosim") or "ptosim"


def run_cases(dirs, filters=(), jobs=1, ptosim=None, run_options=(), keep=None, stats=False, profile=False,
              report=None, cxx=None, python=None, on_result=None, on_standin=None):
    """Runs every case found under `dirs`; returns the CaseResult list in case order. `run_options` are
    `ptosim run` options (sanitizer flags, --timing FILE, -W...); `stats` keeps each launch's --stats text
    (with `profile`, the profile too), `report` a directory for an HTML report per launch, `keep` a
    directory receiving each case's work directory. on_result(result) is called as each case ends;
    on_standin(names) once, before the first case, when the data scripts run with ptosim's stand-in of those
    packages (ml_dtypes, en_dtypes) because their Python lacks the real ones."""
    cases = find_cases(dirs, filters)
    opts = Options(os.path.abspath(ptosim or default_ptosim()), run_options, cxx, python, keep, stats, profile, report)
    if keep:
        os.makedirs(keep, exist_ok=True)
    if report:
        os.makedirs(report, exist_ok=True)
    shared = tempfile.mkdtemp(prefix="ptosim-case-rt-")
    try:
        opts.runtime_obj = build_runtime(shared, opts.cxx)
        opts.pythonpath = build_ml_dtypes(shared, opts.python, used=opts.standins)
        if opts.standins and on_standin:
            on_standin(opts.standins)
        results = []
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            for r in pool.map(lambda c: run_case(c, opts), cases):
                results.append(r)
                if on_result:
                    on_result(r)
        return results
    finally:
        shutil.rmtree(shared, ignore_errors=True)


def format_result(r, verbose=False):
    w = (" [%s]" % " ".join(r.warnings)) if r.warnings and (not r.passed or verbose) else ""
    line = "PASS %s%s" % (r.case, w) if r.passed else "FAIL %s: %s: %s%s" % (r.case, r.cls, r.why, w)
    for kernel, text in r.stats:
        line += "\n  stats of %s:\n" % kernel + "".join("    " + l + "\n" for l in text.splitlines()).rstrip("\n")
    return line


RUN_VALUE_OPTS = {"-t", "--target", "--steps", "--max-memory", "--timing", "-W"}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="ptosim case", description=__doc__.split("\n")[0].split(" — ")[1],
                                 epilog="Any other option (--no-race, --strict-gm, -Werror, --timing FILE, ...) is passed to "
                                        "every `ptosim run` of the cases.")
    ap.add_argument("dirs", nargs="+", metavar="DIR", help="a case directory, or a directory holding case directories")
    ap.add_argument("--filter", action="append", default=[], help="only cases whose path contains this (repeatable)")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="cases run in parallel (default 1)")
    ap.add_argument("--keep", metavar="DIR", help="copy each case's work directory under DIR")
    ap.add_argument("--stats", action="store_true", help="print each launch's --stats after its case")
    ap.add_argument("--profile", action="store_true", help="with --stats: the per-line profile too")
    ap.add_argument("--report", metavar="DIR", help="write an HTML report of each launch into DIR")
    ap.add_argument("--ptosim", help="the ptosim tool to run (default: $PTOSIM_BIN, the source tree's, PATH's)")
    ap.add_argument("--cxx", help="the host C++ compiler (default: $CXX, else g++)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print the warnings of passing cases too")
    args, rest = ap.parse_known_args(argv)
    run_opts = []
    i = 0
    while i < len(rest):   # unknown words: `ptosim run` options (with their values)
        a = rest[i]
        if not a.startswith("-"):
            ap.error("unexpected argument %r (DIRs go before the run options)" % a)
        run_opts.append(a)
        if a in RUN_VALUE_OPTS and i + 1 < len(rest):
            run_opts.append(rest[i + 1])
            i += 1
        i += 1
    for d in args.dirs:
        if not os.path.isdir(d):
            ap.error("%s is not a directory" % d)
    if not _has_numpy(scripts_python()):
        print("ptosim case: warning: no python3 with numpy was found for the cases' scripts (Debian: apt-get install "
              "python3-numpy; or point PTOSIM_PYTHON at one)", file=sys.stderr)
    if not find_cases(args.dirs, args.filter):
        print("ptosim case: no case directory under %s (a case has compare.py, main.cpp, launch.cpp, golden.py or "
              "gen_data.py, and a .pto kernel)" % ", ".join(args.dirs), file=sys.stderr)
        return 2
    try:
        results = run_cases(args.dirs, args.filter, args.jobs, args.ptosim, run_opts, args.keep, args.stats,
                            args.profile, args.report, args.cxx,
                            on_result=lambda r: print(format_result(r, args.verbose), flush=True),
                            on_standin=lambda names: print("ptosim case: the data scripts run with ptosim's stand-in of %s "
                                                           "(not installed for %s)" % (" and ".join(names), scripts_python()),
                                                           flush=True))
    except RuntimeError as e:
        print("ptosim case: error: %s" % e, file=sys.stderr)
        return 2
    counts = {}
    for r in results:
        counts[r.cls or "PASS"] = counts.get(r.cls or "PASS", 0) + 1
    failed = len(results) - counts.get("PASS", 0)
    detail = ", ".join("%s %d" % (k, v) for k, v in sorted(counts.items()) if k != "PASS")
    print("%d passed, %d failed%s" % (counts.get("PASS", 0), failed, (" (" + detail + ")") if detail else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
