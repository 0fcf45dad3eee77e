#!/usr/bin/env python3
"""test_install.py [--build BUILD] — the shared library, `make install` / `make uninstall`, pkg-config, and the
installed Python package.

1. BUILD/libptosim.so.0 has the soname libptosim.so.0 and exports exactly the functions include/ptosim.h
   declares (every other symbol is hidden).
2. `make install PREFIX=TMP` puts the tool, both libraries, the header, ptosim.pc, the man page and the
   Python package under TMP; a C program built with `cc prog.c $(pkg-config --cflags --libs ptosim)`
   (PKG_CONFIG_PATH at TMP) runs a kernel through the installed libptosim.so and prints the size and every
   field's offset of the API's structures, which must equal the Python package's ctypes mirrors; the
   installed package imports from TMP (PYTHONPATH), loads TMP's library without LD_LIBRARY_PATH, runs a
   kernel checked against numpy, and `python3 -m ptosim` runs TMP's tool.
3. The Python package goes where python3 looks for PREFIX's packages (checked for PREFIX=/usr/local and /usr).
4. DESTDIR stages the same tree without changing what the files say (pc file, package paths).
5. `make uninstall` removes every installed file.
6. `pip install --no-build-isolation --no-index ./python` into a venv that sees the system's numpy: the package
   carries its own library and tool, runs a kernel and `python3 -m ptosim` (skipped, saying why, without
   python3-venv or pip).
Skipped, saying why, without python3-numpy, a C compiler or pkg-config."""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import testlib
from testlib import BUILD, ROOT, check, finish

testlib.require_numpy_and_library()
import re, shutil, subprocess, tempfile

import ptosim
from ptosim import _lib

CC = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
if not CC or not shutil.which("pkg-config"):
    testlib.skip("needs a C compiler and pkg-config (Debian: apt-get install pkg-config; .ci/run installs it)")

# the environment of the commands run here: no make state of an outer make, no pointer to the build tree
ENV = {k: v for k, v in os.environ.items()
       if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES", "PTOSIM_LIB", "PTOSIM_BIN", "PYTHONPATH")}


def run(argv, env=None, cwd=None):
    p = subprocess.run(argv, env=env or ENV, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def make(*args):
    return run(["make", "-C", ROOT, "B=" + BUILD, "PYTHON=" + sys.executable] + list(args))


def files_under(d):
    return sorted(os.path.relpath(os.path.join(a, f), d) for a, _, fs in os.walk(d) for f in fs)


# ------------------------------------------------------------------ 1. the shared library's exports

def header_functions():
    text = open(os.path.join(ROOT, "include", "ptosim.h"), encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return set(re.findall(r"\b(pto_\w+)\s*\(", text))


def test_exports():
    so = os.path.join(BUILD, "libptosim.so.0")
    code, out, err = run(["nm", "-D", "--defined-only", so])
    syms = {line.split()[-1] for line in out.splitlines() if line.split() and line.split()[-2] in "TtWwDdBbRrVvi"}
    syms = {s for s in syms if not s.startswith(("_init", "_fini", "__bss", "_edata", "_end", "__asan", "__ubsan", "__sanitizer"))}
    want = header_functions()
    check(code == 0 and len(want) > 40, "exports: nm reads the library; ptosim.h declares the API", err)
    check(syms == want, "exports: libptosim.so exports exactly ptosim.h's functions",
          "not declared: %s\nnot exported: %s" % (sorted(syms - want)[:20], sorted(want - syms)))
    code, out, _ = run(["readelf", "-d", so])
    check("Library soname: [libptosim.so.0]" in out, "exports: the soname is libptosim.so.0", out[:500])
    real = os.path.realpath(so)
    check(re.fullmatch(r"libptosim\.so\.0\.\d+\.\d+", os.path.basename(real)) is not None
          and os.path.realpath(os.path.join(BUILD, "libptosim.so")) == real, "exports: libptosim.so -> .so.0 -> .so.0.X.Y", real)


# ------------------------------------------------------------------ 2. make install into a prefix

PROG = r'''
#include <ptosim.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
static const char *kernel =
    "module attributes {pto.target_arch = \"a5\"} {\n"
    "  func.func @copy(%src: !pto.ptr<ui8, gm>, %dst: !pto.ptr<ui8, gm>) attributes {pto.kernel} {\n"
    "    %c0 = arith.constant 0 : i64\n"
    "    %c1 = arith.constant 1 : i64\n"
    "    %c64 = arith.constant 64 : i64\n"
    "    %ub = pto.castptr %c0 : i64 -> !pto.ptr<ui8, ub>\n"
    "    pto.mte_gm_ub %src, %ub, %c0, %c64 nburst(%c1, %c64, %c64) : !pto.ptr<ui8, gm>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64\n"
    "    pto.set_flag[\"PIPE_MTE2\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
    "    pto.wait_flag[\"PIPE_MTE2\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
    "    pto.mte_ub_gm %ub, %dst, %c64 nburst(%c1, %c64, %c64) : !pto.ptr<ui8, ub>, !pto.ptr<ui8, gm>, i64, i64, i64, i64\n"
    "    pto.barrier #pto.pipe<PIPE_ALL>\n"
    "    return\n"
    "  }\n"
    "}\n";
int main(void)
{
    unsigned char src[64], dst[64] = {0};
    for (int i = 0; i < 64; i++) src[i] = (unsigned char)(i * 5 + 1);
    PtoContext *ctx = pto_context_new();
    PtoModule *m = pto_parse(ctx, "copy.pto", kernel, strlen(kernel));
    if (pto_error_count(ctx) || pto_verify(m, PTO_TARGET_DEFAULT)) return 10;
    PtoFuncInfo fi;
    if (pto_module_func_count(m) != 1 || pto_module_func(m, 0, &fi) || strcmp(fi.name, "copy") || fi.nparams != 2) return 11;
    PtoLaunch *l = pto_launch_new(m, NULL, PTO_TARGET_DEFAULT);
    if (!l || pto_launch_bind_buffer(l, 0, src, 64) || pto_launch_bind_buffer(l, 1, dst, 64)) return 12;
    int rc = pto_launch_run(l, 1);
    printf("run %d copied %d bytes %llu\n", rc, !memcmp(src, dst, 64), (unsigned long long)pto_launch_stats(l)->bytes_moved[4]);
    LAYOUTS
    pto_launch_free(l);
    pto_module_free(m);
    pto_context_free(ctx);
    return 0;
}
'''


def test_install(tmp):
    prefix = os.path.join(tmp, "prefix")
    code, out, err = make("install", "PREFIX=" + prefix)
    check(code == 0, "install: make install PREFIX=%s" % prefix, out[-2000:] + err[-2000:])
    if code:
        return
    got = files_under(prefix)
    pydir = [f for f in got if f.endswith("ptosim/__init__.py")]
    want = {"bin/ptosim", "lib/libptosim.a", "lib/libptosim.so", "lib/libptosim.so.0", "include/ptosim.h",
            "lib/pkgconfig/ptosim.pc", "share/man/man1/ptosim.1"}
    check(want <= set(got) and any(re.fullmatch(r"lib/libptosim\.so\.0\.\d+\.\d+", f) for f in got) and len(pydir) == 1,
          "install: the tool, both libraries and their links, the header, ptosim.pc, the man page, the package", got)
    check(os.path.islink(os.path.join(prefix, "lib/libptosim.so")) and os.path.islink(os.path.join(prefix, "lib/libptosim.so.0")),
          "install: libptosim.so and libptosim.so.0 are symbolic links")

    # a C program through pkg-config
    penv = dict(ENV, PKG_CONFIG_PATH=os.path.join(prefix, "lib", "pkgconfig"))
    code, flags, err = run(["pkg-config", "--cflags", "--libs", "ptosim"], penv)
    _, version, _ = run(["pkg-config", "--modversion", "ptosim"], penv)
    check(code == 0 and "-I" + os.path.join(prefix, "include") in flags and "-L" + os.path.join(prefix, "lib") in flags
          and "-lptosim" in flags, "pkg-config: --cflags --libs name the prefix", flags + err)
    check(version.strip() == ptosim.__version__ + ".0", "pkg-config: --modversion is the library's version", version)
    layouts = "\n".join('    printf("layout %s %%zu\\n", sizeof(%s));' % (name, name)
                         + "".join(' printf("layout %s.%s %%zu\\n", offsetof(%s, %s));' % (name, f[0], name, f[0]) for f in cls._fields_)
                         for name, cls in _lib.STRUCTS.items())
    with open(os.path.join(tmp, "prog.c"), "w") as f:
        f.write(PROG.replace("    LAYOUTS", layouts))
    exe = os.path.join(tmp, "prog")
    code, out, err = run(["sh", "-c", '%s prog.c $(pkg-config --cflags --libs ptosim) -o prog' % CC], penv, cwd=tmp)
    check(code == 0, "pkg-config: cc prog.c $(pkg-config --cflags --libs ptosim) builds", out + err)
    if code == 0:
        code, out, err = run([exe], dict(ENV, LD_LIBRARY_PATH=os.path.join(prefix, "lib")))
        check(code == 0 and "run 0 copied 1 bytes 64" in out, "pkg-config: the program runs a kernel through the installed library", out + err)
        _, ldd, _ = run(["ldd", exe], dict(ENV, LD_LIBRARY_PATH=os.path.join(prefix, "lib")))
        check(os.path.join(prefix, "lib", "libptosim.so.0") in ldd, "pkg-config: the program uses the prefix's libptosim.so.0", ldd)
        got = dict(re.findall(r"layout (\S+) (\d+)", out))
        for name, cls in _lib.STRUCTS.items():
            mine = {name: _lib.ctypes.sizeof(cls)}
            mine.update({"%s.%s" % (name, f[0]): getattr(cls, f[0]).offset for f in cls._fields_})
            theirs = {k: int(got.get(k, -1)) for k in mine}
            check(theirs == mine, "layout: ctypes %s matches C (size and every field's offset)" % name, (theirs, mine))

    # the installed Python package, found through PYTHONPATH only; it loads the prefix's library and tool
    site = os.path.join(prefix, os.path.dirname(os.path.dirname(pydir[0])))
    script = ("import numpy as np, ptosim, sys\n"
              "m = ptosim.load(sys.argv[1])\n"
              "x = np.arange(1024, dtype=np.float32) / 7; y = np.ones(1024, np.float32); z = np.zeros(1024, np.float32)\n"
              "m.run(x, y, z, 3.0, 1000)\n"
              "want = np.zeros(1024, np.float32); want[:1000] = (np.float32(3.0) * x[:1000]).astype(np.float32) + y[:1000]\n"
              "print(ptosim.library_path, ptosim.program_path(), ptosim.__file__)\n"
              "print('same', z.tobytes() == want.tobytes())\n")
    penv = dict(ENV, PYTHONPATH=site)
    code, out, err = run([sys.executable, "-c", script, os.path.join(ROOT, "tests", "python", "axpy.pto")], penv, cwd=tmp)
    words = out.split()
    check(code == 0 and "same True" in out, "python: the installed package runs a kernel, checked against numpy", out + err)
    check(len(words) >= 3 and words[0] == os.path.join(prefix, "lib", "libptosim.so.0") and words[1] == os.path.join(prefix, "bin", "ptosim")
          and words[2].startswith(site), "python: it uses the prefix's library, tool and package", out)
    code, out, err = run([sys.executable, "-m", "ptosim", "--version"], penv, cwd=tmp)
    check(code == 0 and out.startswith("ptosim "), "python: python3 -m ptosim runs the installed tool", out + err)

    code, out, err = make("uninstall", "PREFIX=" + prefix)
    check(code == 0 and files_under(prefix) == [], "uninstall: removes every installed file", files_under(prefix) + [err])


def test_python_dir():
    """PYTHONDIR for the usual prefixes is on the path of the python3 that installs (without installing there)."""
    code, out, _ = run([sys.executable, "-c", "import sys; print('\\n'.join(sys.path))"])
    path = out.split("\n")
    for prefix in ("/usr/local", "/usr"):
        _, d, _ = make("-s", "print-PYTHONDIR", "PREFIX=" + prefix)
        check(d.strip() in path, "python dir: for PREFIX=%s the package goes to %s, on %s's path" % (prefix, d.strip(), sys.executable), path)


def test_destdir(tmp):
    stage = os.path.join(tmp, "stage")
    code, out, err = make("install", "DESTDIR=" + stage, "PREFIX=/opt/ptosim")
    check(code == 0, "destdir: make install DESTDIR=... PREFIX=/opt/ptosim", out[-2000:] + err[-2000:])
    got = files_under(stage)
    check(got and all(f.startswith("opt/ptosim/") for f in got), "destdir: everything is staged under DESTDIR/PREFIX", got)
    pc = open(os.path.join(stage, "opt/ptosim/lib/pkgconfig/ptosim.pc")).read() if "opt/ptosim/lib/pkgconfig/ptosim.pc" in got else ""
    inst = [f for f in got if f.endswith("ptosim/_installed.py")]
    paths = open(os.path.join(stage, inst[0])).read() if inst else ""
    check("prefix=/opt/ptosim\n" in pc and stage not in pc, "destdir: ptosim.pc names PREFIX, not DESTDIR", pc)
    check('"/opt/ptosim/lib/libptosim.so.0"' in paths and '"/opt/ptosim/bin/ptosim"' in paths and stage not in paths,
          "destdir: the package names PREFIX's library and tool", paths)
    code, out, err = make("uninstall", "DESTDIR=" + stage, "PREFIX=/opt/ptosim")
    check(code == 0 and files_under(stage) == [], "destdir: make uninstall with the same DESTDIR removes it all", files_under(stage))


def test_pip(tmp):
    venv = os.path.join(tmp, "venv")
    code, out, err = run([sys.executable, "-m", "venv", "--system-site-packages", venv])
    py = os.path.join(venv, "bin", "python")
    if code or run([py, "-m", "pip", "--version"])[0]:
        print("SKIP: pip route: no venv with pip (Debian: apt-get install python3-venv python3-pip)")
        return
    code, out, err = run([py, "-m", "pip", "install", "--no-build-isolation", "--no-index", "--no-deps", os.path.join(ROOT, "python")],
                         dict(ENV, PTOSIM_BUILD=BUILD), cwd=tmp)
    check(code == 0, "pip: pip install --no-build-isolation ./python into a venv", out[-2000:] + err[-2000:])
    script = ("import numpy as np, ptosim, os\n"
              "m = ptosim.load(%r)\n"
              "x = np.arange(1024, dtype=np.float32) - 500; y = np.full(1024, 0.25, np.float32); z = np.zeros(1024, np.float32)\n"
              "m.run(x, y, z, -1.0, 1024)\n"
              "print(z.tobytes() == (y - x).tobytes(), os.path.dirname(ptosim.library_path) == os.path.dirname(ptosim.__file__),"
              " os.path.dirname(ptosim.program_path()) == os.path.dirname(ptosim.__file__))\n") % os.path.join(ROOT, "tests", "python", "axpy.pto")
    code, out, err = run([py, "-c", script], cwd=tmp)
    check(code == 0 and out.split() == ["True"] * 3, "pip: the package runs a kernel (z = y - x) with its own library and tool", out + err)
    code, out, err = run([py, "-m", "ptosim", "--version"], cwd=tmp)
    check(code == 0 and out.startswith("ptosim "), "pip: python3 -m ptosim runs the package's tool", out + err)
    for d in ("build", "ptosim.egg-info"):       # what setuptools leaves in ./python
        shutil.rmtree(os.path.join(ROOT, "python", d), ignore_errors=True)


test_exports()
test_python_dir()
tmp = tempfile.mkdtemp(prefix="ptosim-install-")
try:
    test_install(tmp)
    test_destdir(tmp)
    test_pip(tmp)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
finish()
