/* ptosim_runtime.cpp — the stand-in device runtime of `ptosim case`: init/device/stream calls succeed,
 * device memory is zeroed host memory (every allocation remembered, so a kernel's pointer arguments become
 * buffers), copies are memmove, and each kernel launch runs `ptosim run` on the case's kernel with the
 * launch's blocks and arguments (PTOSIM_BIN, PTOSIM_KERNEL, PTOSIM_FLAGS), then copies what the kernel left
 * in GM back into the device allocations. Each launch is logged in ptosim_launches.txt. */
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
  /* the C calling convention passes an integer's bits: a float parameter given an unsigned short reads
     them as its value (launch.cpp files pass f16 scalars as (unsigned short)0x4200) */
  else if (is_signed) snprintf(b, sizeof b, "bits:%lld", v);
  else snprintf(b, sizeof b, "bits:%llu", (unsigned long long)v);
  g_args.push_back(b);
}

void ptosim_arg_absent(int is_ptr) { g_args.push_back(is_ptr ? "zeros:64" : "0"); }

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
  /* per-launch outputs the case driver asked for: stats text and an HTML report */
  char extra[4096];
  if (getenv("PTOSIM_STATS")) {
    snprintf(extra, sizeof extra, "ptosim%d.stats.txt", g_launch);
    argv.push_back("--stats-file");
    argv.push_back(extra);
    if (!strcmp(getenv("PTOSIM_STATS"), "profile")) argv.push_back("--profile");
  }
  const char *rep = getenv("PTOSIM_REPORT_PREFIX");
  if (rep && *rep) {
    snprintf(extra, sizeof extra, "%s%d_%s.html", rep, g_launch, kernel);
    argv.push_back("--report");
    argv.push_back(extra);
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
