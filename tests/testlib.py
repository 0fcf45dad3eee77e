"""testlib.py — what the Python test scripts (tests/**/test_*.py) share: the repository root, the build
directory from `--build BUILD`, and a check() that counts results and prints the runner's summary line."""
import os, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.abspath(sys.argv[sys.argv.index("--build") + 1] if "--build" in sys.argv else os.path.join(ROOT, "build"))
_count = {"passed": 0, "failed": 0}


def check(cond, what, detail=""):
    """Counts one result; a failure prints FAIL and the first lines of the detail."""
    if cond:
        _count["passed"] += 1
    else:
        _count["failed"] += 1
        print("FAIL %s" % what)
        for line in str(detail).rstrip().splitlines()[:40]:
            print("    " + line)


def finish():
    """Prints "N passed, M failed" (the line tests/run.py reads) and exits 1 on any failure."""
    print("%d passed, %d failed" % (_count["passed"], _count["failed"]))
    sys.exit(1 if _count["failed"] else 0)


def skip(reason):
    """Skips the whole script: prints "SKIP: reason" (tests/run.py shows it) and an empty summary."""
    print("SKIP: %s" % reason)
    finish()


def _imports_numpy(python):
    import subprocess
    try:
        return subprocess.run([python, "-c", "import numpy"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
    except OSError:
        return False


def numpy_python():
    """A python3 that imports numpy: the one running, else Debian's /usr/bin/python3 (python3-numpy installs
    numpy for it, and a pyenv or venv python3 first on PATH may not see it), else python3 on PATH; or None."""
    import shutil
    for p in (sys.executable, "/usr/bin/python3", shutil.which("python3")):
        if p and os.path.exists(p) and _imports_numpy(p):
            return p
    return None


def sanitizer_preload(lib):
    """The sanitizer runtime a library built by `make asan` needs loaded first (for a process, such as python3,
    that was not linked with it), or None."""
    import subprocess
    try:
        out = subprocess.run(["ldd", lib], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode()
    except OSError:
        return None
    m = [line.split("=>")[1].split()[0] for line in out.splitlines() if "libasan" in line and "=>" in line]
    return m[0] if m else None


def library_env(env, lib):
    """ENV (a dict) extended so that a python3 loading LIB (a libptosim.so built by `make asan`) starts: the
    sanitizer runtime preloaded, leak detection off (python3 itself keeps memory to the end). Returns ENV."""
    rt = sanitizer_preload(lib)
    if rt and rt not in env.get("LD_PRELOAD", ""):
        env["LD_PRELOAD"] = (rt + " " + env.get("LD_PRELOAD", "")).strip()
        env["ASAN_OPTIONS"] = "detect_leaks=0:" + env.get("ASAN_OPTIONS", "")
    return env


def require_numpy_and_library():
    """Makes this script run under a python3 that imports numpy and can load BUILD's libptosim.so: re-executes
    it under another interpreter (numpy_python()) or with the sanitizer runtime preloaded (make asan) when
    needed, and points the package at BUILD (PTOSIM_LIB, PTOSIM_BIN) and at python/ (sys.path). Skips the
    script, with the reason, when no python3 has numpy."""
    lib = os.path.join(BUILD, "libptosim.so.0")
    env = dict(os.environ)
    env["PTOSIM_LIB"] = lib
    env["PTOSIM_BIN"] = os.path.join(BUILD, "ptosim")
    library_env(env, lib)
    try:
        import numpy  # noqa: F401
        python = sys.executable
    except ImportError:
        python = numpy_python()
        if not python:
            skip("python3-numpy is not installed (Debian: apt-get install python3-numpy; .ci/run installs it)")
    if python != sys.executable or env.get("LD_PRELOAD") != os.environ.get("LD_PRELOAD"):
        sys.stdout.flush()
        os.execve(python, [python] + sys.argv, env)
    os.environ.update(env)
    sys.path.insert(0, os.path.join(ROOT, "python"))
