#!/usr/bin/python3
"""tools/corpus/run_cases.py — run the public validated kernels of a PTOAS checkout with ptosim.

  /usr/bin/python3 tools/corpus/run_cases.py PTOAS_DIR [FILTER...] [--ptosim BIN] [-j N] [--keep DIR]
                                             [--flags "RUN OPTIONS"] [-v]

For every directory under PTOAS_DIR/test/vpto/cases (or PTOAS_DIR itself when it holds the cases)
that has kernel.pto, golden.py, compare.py, main.cpp and launch.cpp, and whose relative path contains
one of the FILTERs, in a fresh temporary directory:

1. golden.py runs there (as the upstream host validation does) and writes the inputs and goldens;
2. the case's own host program main.cpp is compiled with the host C++ compiler against a stand-in for
   the device runtime that this script writes (acl/acl.h, test_common.h) and a rewrite of launch.cpp in
   which each kernel launch `K<<<BLOCKS, ...>>>(ARGS)` runs `ptosim run -b BLOCKS -e K kernel.pto ...`.
   So the buffers ptosim gets are exactly those the host allocates (each pointer argument becomes its
   device allocation from the pointer to the allocation's end), the scalar arguments are the values the
   host passes, and what the kernel writes is copied back into the device allocation for the host's
   own copy-out and WriteFile;
3. compare.py runs (COMPARE_STRICT=1) and judges the outputs.

One line per case: PASS, or FAIL with a reason class — parse (E-LEX/E-PARSE/E-SSA ids), verify (other
errors), trap ID (T-...), mismatch (compare.py failed), harness (golden.py, the host build or the host
program failed, or ptosim refused the arguments) — then a summary line. Run-time warnings ptosim
reported are listed after the status in brackets. A measurement tool: the corpus is not part of this
repository, and `make test` does not run it. Needs numpy (the goldens use it) and a C++17 compiler
(CXX, default g++).
"""
import argparse, json, os, re, shutil, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REQUIRED = ("kernel.pto", "golden.py", "compare.py", "main.cpp", "launch.cpp")
TIMEOUT = 600

# ---------------------------------------------------------------------------------------------------
# The stand-in device runtime. Only what the host programs of the corpus call: init/device/stream
# calls succeed, device memory is host memory (zeroed; every allocation is remembered so a kernel's
# pointer arguments can be turned into buffers), copies are memcpy.

PRELUDE_H = r"""
#pragma once
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#define __global__
#define __gm__
#define __aicore__
typedef _Float16 half;
#define __fp16 _Float16
struct bfloat16_t {
  uint16_t bits;
  bfloat16_t() : bits(0) {}
  bfloat16_t(float f) { uint32_t u; memcpy(&u, &f, 4);
    bits = (u & 0x7fffffffu) > 0x7f800000u ? (uint16_t)((u >> 16) | 0x40u)
                                           : (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16); }
  operator float() const { uint32_t u = (uint32_t)bits << 16; float f; memcpy(&f, &u, 4); return f; }
};
#ifndef __CCE_AICORE__
typedef struct { unsigned char v; } hifloat8_t;
typedef struct { unsigned char v; } float8_e4m3_t;
typedef struct { unsigned char v; } float8_e5m2_t;
typedef struct { unsigned char v; } float8_e8m0_t;
typedef struct { unsigned char v; } float4_e1m2x2_t;
typedef struct { unsigned char v; } float4_e2m1x2_t;
#define __CCE_AICORE_TYPES_DEFINED 1
#endif
#ifdef __cplusplus
#include <type_traits>
void ptosim_blocks(long long n);
void ptosim_arg_ptr(const void *p);
void ptosim_arg_int(long long v, int is_signed, int is_bool);
void ptosim_arg_float(double v);
void ptosim_exec(const char *kernel);
template <class T> inline void ptosim_arg(T *p) { ptosim_arg_ptr((const void *)p); }
template <class T> inline typename std::enable_if<std::is_integral<T>::value || std::is_enum<T>::value>::type
ptosim_arg(T v) { ptosim_arg_int((long long)v, std::is_signed<T>::value, std::is_same<T, bool>::value); }
inline void ptosim_arg(float v) { ptosim_arg_float(v); }
inline void ptosim_arg(double v) { ptosim_arg_float(v); }
inline void ptosim_arg(_Float16 v) { ptosim_arg_float((float)v); }
inline void ptosim_arg(bfloat16_t v) { ptosim_arg_float((float)v); }
#endif
"""

ACL_H = r"""
#pragma once
#include <stddef.h>
#include <stdint.h>
typedef uint16_t aclFloat16;   /* the runtime's half type: 16 raw bits */
typedef int aclError;
typedef void *aclrtStream;
enum { ACL_SUCCESS = 0, ACL_ERROR_FAILURE = 1 };
typedef enum { ACL_MEMCPY_HOST_TO_HOST, ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST,
               ACL_MEMCPY_DEVICE_TO_DEVICE } aclrtMemcpyKind;
typedef enum { ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_HUGE_ONLY, ACL_MEM_MALLOC_NORMAL_ONLY }
  aclrtMemMallocPolicy;
aclError aclInit(const char *);
aclError aclFinalize(void);
const char *aclGetRecentErrMsg(void);
aclError aclrtSetDevice(int);
aclError aclrtResetDevice(int);
aclError aclrtCreateStream(aclrtStream *);
aclError aclrtDestroyStream(aclrtStream);
aclError aclrtSynchronizeStream(aclrtStream);
aclError aclrtMalloc(void **, size_t, aclrtMemMallocPolicy);
aclError aclrtMallocHost(void **, size_t);
aclError aclrtFree(void *);
aclError aclrtFreeHost(void *);
aclError aclrtMemcpy(void *, size_t, const void *, size_t, aclrtMemcpyKind);
aclError aclrtMemset(void *, size_t, int, size_t);
"""

TEST_COMMON_H = r"""
#pragma once
#include <stddef.h>
#include <stdio.h>
#include <string>
namespace PtoTestCommon {
inline bool ReadFile(const std::string &path, size_t &size, void *buf, size_t cap) {
  FILE *f = fopen(path.c_str(), "rb");
  if (!f) return false;
  size_t n = fread(buf, 1, cap, f);
  int more = fgetc(f) != EOF;
  fclose(f);
  if (n == 0 || more) return false;
  size = n;
  return true;
}
inline bool WriteFile(const std::string &path, const void *buf, size_t size) {
  if (!buf) return false;
  FILE *f = fopen(path.c_str(), "wb");
  if (!f) return false;
  size_t n = fwrite(buf, 1, size, f);
  return fclose(f) == 0 && n == size;
}
}
"""

RUNTIME_CPP = r"""
#include "acl/acl.h"
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <sys/wait.h>
#include <vector>
extern char **environ;

struct Alloc { char *base; size_t size; };
static std::vector<Alloc> g_dev;
/* the pointer arguments of the launch being built: device allocation and the pointer */
struct PtrArg { size_t alloc; const char *p; size_t slot; };
static std::vector<std::string> g_args;      /* ptosim operands (pointer slots filled in at exec) */
static std::vector<PtrArg> g_ptrs;
static long long g_blocks = 1;
static int g_launch = 0;
static FILE *g_log;

static FILE *log_file(void) {
  if (!g_log) g_log = fopen("ptosim_launches.txt", "w");
  return g_log;
}
static void harness_error(const char *what) {
  fprintf(log_file(), "HARNESS %s\n", what);
  fflush(g_log);
}

aclError aclInit(const char *) { return ACL_SUCCESS; }
aclError aclFinalize(void) { if (g_log) fclose(g_log); g_log = NULL; return ACL_SUCCESS; }
const char *aclGetRecentErrMsg(void) { return ""; }
aclError aclrtSetDevice(int) { return ACL_SUCCESS; }
aclError aclrtResetDevice(int) { return ACL_SUCCESS; }
aclError aclrtCreateStream(aclrtStream *s) { static int token; *s = &token; return ACL_SUCCESS; }
aclError aclrtDestroyStream(aclrtStream) { return ACL_SUCCESS; }
aclError aclrtSynchronizeStream(aclrtStream) { return ACL_SUCCESS; }
aclError aclrtMalloc(void **p, size_t n, aclrtMemMallocPolicy) {
  *p = calloc(n ? n : 1, 1);
  if (!*p) return ACL_ERROR_FAILURE;
  g_dev.push_back(Alloc{(char *)*p, n});
  return ACL_SUCCESS;
}
aclError aclrtMallocHost(void **p, size_t n) { *p = calloc(n ? n : 1, 1); return *p ? ACL_SUCCESS : ACL_ERROR_FAILURE; }
aclError aclrtFree(void *p) {
  for (size_t i = 0; i < g_dev.size(); i++)
    if (g_dev[i].base == p) { g_dev[i].base = NULL; g_dev[i].size = 0; }
  free(p);
  return ACL_SUCCESS;
}
aclError aclrtFreeHost(void *p) { free(p); return ACL_SUCCESS; }
aclError aclrtMemcpy(void *d, size_t cap, const void *s, size_t n, aclrtMemcpyKind) {
  if (n > cap) return ACL_ERROR_FAILURE;
  memmove(d, s, n);
  return ACL_SUCCESS;
}
aclError aclrtMemset(void *d, size_t cap, int v, size_t n) {
  if (n > cap) return ACL_ERROR_FAILURE;
  memset(d, v, n);
  return ACL_SUCCESS;
}

void ptosim_blocks(long long n) { g_blocks = n; g_args.clear(); g_ptrs.clear(); }

void ptosim_arg_ptr(const void *p) {
  const char *c = (const char *)p;
  for (size_t i = 0; i < g_dev.size(); i++) {
    const Alloc &a = g_dev[i];
    if (a.base && c >= a.base && c <= a.base + a.size) {
      g_ptrs.push_back(PtrArg{i, c, g_args.size()});
      g_args.push_back("");
      return;
    }
  }
  harness_error("a pointer argument is not inside any device allocation");
  g_args.push_back("zeros:0");
}

/* Each device allocation the arguments point into becomes one buffer: the argument with the lowest
   pointer gets the bytes from there to the allocation's end, the others point into it (@K+OFF). */
static std::vector<std::pair<size_t, std::string>> place_pointers(void) {
  std::vector<std::pair<size_t, std::string>> back;   /* (argument, output file) */
  for (size_t k = 0; k < g_ptrs.size(); k++) {
    const PtrArg &pa = g_ptrs[k];
    size_t low = k;
    for (size_t j = 0; j < g_ptrs.size(); j++)
      if (g_ptrs[j].alloc == pa.alloc && (g_ptrs[j].p < g_ptrs[low].p || (g_ptrs[j].p == g_ptrs[low].p && j < low)))
        low = j;
    if (low != k) {
      char b[64];
      snprintf(b, sizeof b, "@%zu+%zu", g_ptrs[low].slot, (size_t)(pa.p - g_ptrs[low].p));
      g_args[pa.slot] = b;
      continue;
    }
    const Alloc &a = g_dev[pa.alloc];
    char in[64], out[64];
    snprintf(in, sizeof in, "gm%d_%zu.bin", g_launch, pa.slot);
    snprintf(out, sizeof out, "gm%d_%zu.out.bin", g_launch, pa.slot);
    FILE *f = fopen(in, "wb");
    size_t n = (size_t)(a.base + a.size - pa.p);
    if (!f || fwrite(pa.p, 1, n, f) != n) harness_error("cannot write a buffer file");
    if (f) fclose(f);
    g_args[pa.slot] = std::string(in) + ":" + out;
    back.push_back(std::make_pair(k, std::string(out)));
  }
  return back;
}

void ptosim_arg_int(long long v, int is_signed, int is_bool) {
  char b[32];
  if (is_bool) snprintf(b, sizeof b, "%s", v ? "true" : "false");
  else if (is_signed) snprintf(b, sizeof b, "%lld", v);
  else snprintf(b, sizeof b, "%llu", (unsigned long long)v);
  g_args.push_back(b);
}

void ptosim_arg_float(double v) {
  char b[64];
  if (v != v) snprintf(b, sizeof b, "nan");
  else if (v > 1e308 * 10) snprintf(b, sizeof b, "inf");
  else if (v < -1e308 * 10) snprintf(b, sizeof b, "-inf");
  else snprintf(b, sizeof b, "%a", v);
  g_args.push_back(b);
}

void ptosim_exec(const char *kernel) {
  const char *bin = getenv("PTOSIM_BIN"), *pto = getenv("PTOSIM_KERNEL"), *flags = getenv("PTOSIM_FLAGS");
  /* every buffer is given an output file, inputs too: W-UNWRITTEN would only be noise */
  std::vector<std::string> argv = {bin, "run", "-q", "--diagnostics-format=json", "--no-unwritten", "-e", kernel,
                                   "-b", std::to_string(g_blocks)};
  if (flags && *flags) {
    std::string f(flags), w;
    for (size_t i = 0; i <= f.size(); i++) {
      if (i == f.size() || f[i] == ' ') { if (!w.empty()) argv.push_back(w); w.clear(); }
      else w += f[i];
    }
  }
  std::vector<std::pair<size_t, std::string>> back = place_pointers();
  argv.push_back(pto);
  argv.push_back("--");
  for (auto &a : g_args) argv.push_back(a);
  std::vector<char *> cargv;
  for (auto &a : argv) cargv.push_back((char *)a.c_str());
  cargv.push_back(NULL);
  char out[64], err[64];
  snprintf(out, sizeof out, "ptosim%d.out", g_launch);
  snprintf(err, sizeof err, "ptosim%d.err", g_launch);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid;
  int status = -1, rc = -1;
  if (posix_spawn(&pid, bin, &fa, NULL, cargv.data(), environ) == 0 && waitpid(pid, &status, 0) == pid)
    rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  posix_spawn_file_actions_destroy(&fa);
  fprintf(log_file(), "LAUNCH %d %d %s\n", g_launch, rc, kernel);
  fflush(g_log);
  for (auto &b : back) {   /* what the kernel left in GM goes back into the device allocation */
    FILE *f = fopen(b.second.c_str(), "rb");
    if (!f) continue;
    const PtrArg &pa = g_ptrs[b.first];
    const Alloc &a = g_dev[pa.alloc];
    size_t n = fread((char *)pa.p, 1, (size_t)(a.base + a.size - pa.p), f);
    (void)n;
    fclose(f);
  }
  g_launch++;
  g_blocks = 1;
  g_args.clear();
  g_ptrs.clear();
}
"""

DECL_RE = re.compile(r'extern\s+"C"\s+__global__\s*(?:\[aicore\]\s*)?void\s+(\w+)\s*\(([^;{]*?)\)\s*;', re.S)
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


def rewrite_launch(src):
    """launch.cpp with every kernel declaration turned into a definition that runs ptosim, and every
    `K<<<BLOCKS, ...>>>(` into a call that first records BLOCKS."""
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
        body = "".join("  ptosim_arg(%s);\n" % n for n in names)
        return 'static void %s(%s) {\n%s  ptosim_exec("%s");\n}' % (name, ", ".join(decls), body, name)

    out = DECL_RE.sub(define, src)

    def call(m):
        cfg = split_top(m.group(2))
        return "(ptosim_blocks(%s), %s)(" % (cfg[0].strip() if cfg else "1", m.group(1))
    out = CALL_RE.sub(call, out)
    return out.replace("[aicore]", "")


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def run(cmd, cwd, env=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
        return p.returncode, p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return -1, "timeout after %ds" % TIMEOUT


def first_line(text, n=160):
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:n]
    return ""


PARSE_IDS = ("E-LEX-", "E-PARSE-", "E-SSA-REDEF", "E-SSA-UNDEF", "E-TYPE-MISMATCH", "E-SEGMENT-SIZES",
             "E-TOO-MANY-ERRORS")


def launch_result(tmp, idx):
    """(class, detail, warning ids) of launch idx from its JSON Lines diagnostics."""
    diags = []
    for name in ("ptosim%d.out" % idx,):
        try:
            with open(os.path.join(tmp, name)) as f:
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
    warns = sorted({d.get("id") for d in diags if d.get("severity") == "warning" and d.get("id")})
    bad = [d for d in diags if d.get("severity") in ("error", "trap")]
    return diags, bad, warns, err


def describe(d):
    loc = "%s:%s" % (d.get("line"), d.get("col")) if d.get("line") else ""
    return "%s %s %s" % (d.get("id"), loc, (d.get("message") or "")[:140])


def run_case(case_dir, rel, args):
    tmp = tempfile.mkdtemp(prefix="ptosim-corpus-")
    try:
        return rel, run_in(case_dir, tmp, args)
    finally:
        if args.keep:
            dest = os.path.join(args.keep, rel.replace("/", "__"))
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(tmp, dest)
        shutil.rmtree(tmp, ignore_errors=True)


def run_in(case_dir, tmp, args):
    py = sys.executable
    code, out = run([py, os.path.join(case_dir, "golden.py")], tmp)
    if code != 0:
        return ("FAIL", "harness", "golden.py: " + first_line(out.splitlines()[-1] if out else ""), [])
    inc = os.path.join(tmp, "_inc")
    os.makedirs(os.path.join(inc, "acl"))
    write(os.path.join(inc, "ptosim_prelude.h"), PRELUDE_H)
    write(os.path.join(inc, "acl", "acl.h"), ACL_H)
    write(os.path.join(inc, "test_common.h"), TEST_COMMON_H)
    with open(os.path.join(case_dir, "launch.cpp")) as f:
        write(os.path.join(inc, "launch_shim.cpp"), rewrite_launch(f.read()))
    exe = os.path.join(inc, "host")
    code, out = run([args.cxx, "-std=c++17", "-O0", "-w", "-I", inc, "-I", case_dir, "-include",
                     os.path.join(inc, "ptosim_prelude.h"), os.path.join(case_dir, "main.cpp"),
                     os.path.join(inc, "launch_shim.cpp"), args.runtime_obj,
                     "-o", exe], tmp)
    if code != 0:
        err = [l for l in out.splitlines() if "error" in l]
        return ("FAIL", "harness", "host build: " + (err[0] if err else first_line(out))[:200], [])
    env = dict(os.environ, PTOSIM_BIN=args.ptosim, PTOSIM_KERNEL=os.path.join(case_dir, "kernel.pto"),
               PTOSIM_FLAGS=args.flags)
    code, out = run([exe], tmp, env)
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
        return ("FAIL", "harness", "the host program launched no kernel (exit %d): %s" % (code, first_line(out)), [])
    warns = set()
    for idx, rc, kernel in launches:
        diags, bad, w, err = launch_result(tmp, idx)
        warns.update(w)
        if rc == 0:
            continue
        if rc == 1 and bad:
            cls = "parse" if bad[0].get("id", "").startswith(PARSE_IDS) else "verify"
            return ("FAIL", cls, describe(bad[0]), sorted(warns))
        if rc == 3 and bad:
            return ("FAIL", bad[0].get("id", "trap"), describe(bad[0]), sorted(warns))
        if rc == 2 and bad and not bad[0].get("id", "").startswith(("E-ARG", "E-IO", "E-USAGE")):
            return ("FAIL", "verify", describe(bad[0]), sorted(warns))   # refused when the launch is prepared
        why = describe(bad[0]) if bad else first_line(err)
        return ("FAIL", "harness", "ptosim exit %d for %s: %s" % (rc, kernel, why), sorted(warns))
    if harness:
        return ("FAIL", "harness", harness[0], sorted(warns))
    if code != 0:
        return ("FAIL", "harness", "host program exit %d: %s" % (code, first_line(out)), sorted(warns))
    code, out = run([py, os.path.join(case_dir, "compare.py")], tmp, dict(os.environ, COMPARE_STRICT="1"))
    if code != 0:
        lines = [l for l in out.splitlines() if l.strip()]
        why = next((l for l in lines if "mismatch" in l.lower() or "max" in l.lower()), lines[0] if lines else "")
        return ("FAIL", "mismatch", why.strip()[:200], sorted(warns))
    return ("PASS", "", "", sorted(warns))


def find_cases(root, filters):
    base = os.path.join(root, "test", "vpto", "cases")
    if not os.path.isdir(base):
        base = root
    found = []
    for d, _, files in os.walk(base):
        if all(r in files for r in REQUIRED):
            rel = os.path.relpath(d, base)
            if not filters or any(f in rel for f in filters):
                found.append((d, rel))
    return sorted(found, key=lambda c: c[1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ptoas")
    ap.add_argument("filters", nargs="*")
    ap.add_argument("--ptosim", default=os.path.join(ROOT, "build", "ptosim"))
    ap.add_argument("-j", type=int, default=1, help="cases run in parallel (default 1)")
    ap.add_argument("--keep", help="copy each case's work directory under this directory")
    ap.add_argument("--flags", default="", help="extra `ptosim run` options, space-separated")
    ap.add_argument("-v", action="store_true", help="print the warnings of passing cases too")
    args = ap.parse_args()
    args.ptosim = os.path.abspath(args.ptosim)
    if not os.access(args.ptosim, os.X_OK):
        sys.exit("run_cases.py: no ptosim at %s (build it, or pass --ptosim)" % args.ptosim)
    try:
        import numpy  # noqa: F401  (golden.py and compare.py need it)
    except ImportError:
        sys.exit("run_cases.py: numpy is missing (run with /usr/bin/python3)")
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    cases = find_cases(os.path.abspath(args.ptoas), args.filters)
    if not cases:
        sys.exit("run_cases.py: no case under %s matches" % args.ptoas)
    args.cxx = os.environ.get("CXX", "g++")
    shared = tempfile.mkdtemp(prefix="ptosim-corpus-rt-")
    try:
        args.runtime_obj = build_runtime(shared, args.cxx)
        counts = run_all(cases, args)
    finally:
        shutil.rmtree(shared, ignore_errors=True)
    failed = len(cases) - counts.get("PASS", 0)
    detail = ", ".join("%s %d" % (k, v) for k, v in sorted(counts.items()) if k != "PASS")
    print("%d passed, %d failed%s" % (counts.get("PASS", 0), failed, (" (" + detail + ")") if detail else ""))
    sys.exit(1 if failed else 0)


def build_runtime(d, cxx):
    """The stand-in runtime is the same for every case: compile it once."""
    os.makedirs(os.path.join(d, "acl"))
    write(os.path.join(d, "acl", "acl.h"), ACL_H)
    write(os.path.join(d, "ptosim_runtime.cpp"), RUNTIME_CPP)
    obj = os.path.join(d, "ptosim_runtime.o")
    code, out = run([cxx, "-std=c++17", "-O1", "-w", "-I", d, "-c", os.path.join(d, "ptosim_runtime.cpp"), "-o", obj], d)
    if code != 0:
        sys.exit("run_cases.py: cannot build the stand-in runtime with %s:\n%s" % (cxx, out))
    return obj


def run_all(cases, args):
    counts = {}
    with ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
        for rel, (status, cls, why, warns) in pool.map(lambda c: run_case(c[0], c[1], args), cases):
            w = (" [%s]" % " ".join(warns)) if warns and (status != "PASS" or args.v) else ""
            if status == "PASS":
                print("PASS %s%s" % (rel, w), flush=True)
            else:
                print("FAIL %s: %s: %s%s" % (rel, cls, why, w), flush=True)
            key = "PASS" if status == "PASS" else cls
            counts[key] = counts.get(key, 0) + 1
    return counts


if __name__ == "__main__":
    main()
