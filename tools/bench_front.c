/* bench_front.c — `make bench`, front-end section: `ptosim check` on a generated module of >= 10 MB
 * (tools/gen_front_module.py, built from the repository's test kernels) against `wc -w` on the same
 * file, measured in one run:
 *   1. CPU time (user + system, from wait4) of `ptosim check FULL` vs `wc -w FULL`;
 *   2. peak resident memory (ru_maxrss) of that check vs the file size;
 *   3. linearity: FULL holds ten copies of TENTH's kernels; CPU(FULL) / CPU(TENTH), where 10 is linear;
 *   4. start-up: `ptosim check` of an empty module vs `/bin/true`;
 *   5. linearity of vector-scope inference (the normalisation pass): one function body of 5,000 and of 50,000
 *      arith.constant before implicit vector ops; CPU(50,000) / CPU(5,000), where 10 is linear.
 * Every figure is the best of several runs (the machine is shared; CPU time, not wall-clock, is
 * compared). Usage: bench_front PTOSIM DIR  (DIR holds full.pto and tenth.pto; empty.pto is written). */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

typedef struct Usage {
    double cpu;                /* seconds, user + system */
    long maxrss_kb;
    int status;
} Usage;

/* Runs argv with stdout and stderr sent to /dev/null; returns its resource usage. */
static Usage run(char *const argv[])
{
    Usage u = {-1, 0, -1};
    pid_t pid = fork();
    if (pid < 0) return u;
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    int st;
    struct rusage ru;
    if (wait4(pid, &st, 0, &ru) != pid) return u;
    u.cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
            (double)ru.ru_stime.tv_usec * 1e-6;
    u.maxrss_kb = ru.ru_maxrss;
    u.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return u;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static const char *verdict(int ok) { return ok ? "ok" : "MISSED"; }

/* One kernel whose body holds n arith.constant, a barrier, then vector ops written outside any scope: the
   constants are one run inference must look at and cannot wrap. */
static int write_consts(const char *path, int n)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs("module attributes {pto.target_arch = \"a5\"} {\n  func.func @k() attributes {pto.kernel} {\n"
          "    %c0 = arith.constant 0 : index\n    %z = arith.constant 0 : i64\n"
          "    %ub = pto.castptr %z : i64 -> !pto.ptr<f32, ub>\n", f);
    for (int i = 0; i < n; i++) fprintf(f, "    %%x%d = arith.constant %d : i32\n", i, i);
    fputs("    pto.barrier #pto.pipe<PIPE_ALL>\n    %m = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n"
          "    %v = pto.vlds %ub[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
          "    pto.vsts %v, %ub[%c0], %m : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
          "    return\n  }\n}\n", f);
    int bad = ferror(f);
    return fclose(f) == 0 && !bad ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fputs("usage: bench_front PTOSIM DIR\n", stderr);
        return 2;
    }
    char *ptosim = argv[1], full[4096], tenth[4096], empty[4096], k1[4096], k10[4096];
    snprintf(full, sizeof full, "%s/full.pto", argv[2]);
    snprintf(tenth, sizeof tenth, "%s/tenth.pto", argv[2]);
    snprintf(empty, sizeof empty, "%s/empty.pto", argv[2]);
    FILE *f = fopen(empty, "w");
    if (!f || fputs("module {\n}\n", f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "bench_front: cannot write %s\n", empty);
        return 2;
    }
    snprintf(k1, sizeof k1, "%s/consts1.pto", argv[2]);
    snprintf(k10, sizeof k10, "%s/consts10.pto", argv[2]);
    if (write_consts(k1, 5000) || write_consts(k10, 50000)) {
        fprintf(stderr, "bench_front: cannot write %s\n", k1);
        return 2;
    }
    long size = file_size(full), size10 = file_size(tenth);
    if (size <= 0 || size10 <= 0) {
        fprintf(stderr, "bench_front: %s or %s is missing\n", full, tenth);
        return 2;
    }
    char *check_full[] = {ptosim, "check", full, NULL};
    char *check_tenth[] = {ptosim, "check", tenth, NULL};
    char *check_empty[] = {ptosim, "check", empty, NULL};
    char *wc[] = {"wc", "-w", full, NULL};
    char *truebin[] = {"/bin/true", NULL};

    /* alternate the two sides so both see the same machine load */
    Usage c = {1e30, 0, 0}, w = {1e30, 0, 0}, t = {1e30, 0, 0};
    for (int r = 0; r < 5; r++) {
        Usage u = run(check_full);
        if (u.status != 0) {
            fprintf(stderr, "bench_front: ptosim check %s exited %d (the generated module must check cleanly)\n", full,
                    u.status);
            return 1;
        }
        if (u.cpu < c.cpu) c.cpu = u.cpu;
        if (u.maxrss_kb > c.maxrss_kb) c.maxrss_kb = u.maxrss_kb;
        u = run(wc);
        if (u.status != 0) {
            fprintf(stderr, "bench_front: wc -w failed\n");
            return 1;
        }
        if (u.cpu < w.cpu) w.cpu = u.cpu;
        u = run(check_tenth);
        if (u.status == 0 && u.cpu < t.cpu) t.cpu = u.cpu;
    }
    Usage e = {1e30, 0, 0}, n = {1e30, 0, 0};
    for (int r = 0; r < 40; r++) {
        Usage u = run(check_empty), v = run(truebin);
        if (u.status != 0 || v.status != 0) {
            fprintf(stderr, "bench_front: start-up runs failed\n");
            return 1;
        }
        if (u.cpu < e.cpu) e.cpu = u.cpu;
        if (v.cpu < n.cpu) n.cpu = v.cpu;
    }

    char *check_k1[] = {ptosim, "check", k1, NULL};
    char *check_k10[] = {ptosim, "check", k10, NULL};
    Usage q1 = {1e30, 0, 0}, q10 = {1e30, 0, 0};
    for (int r = 0; r < 5; r++) {
        Usage u = run(check_k10), v = run(check_k1);
        if (u.status != 0 || v.status != 0) {
            fprintf(stderr, "bench_front: ptosim check of the constant blocks failed (%d, %d)\n", u.status, v.status);
            return 1;
        }
        if (u.cpu < q10.cpu) q10.cpu = u.cpu;
        if (v.cpu < q1.cpu) q1.cpu = v.cpu;
    }

    double mb = (double)size / 1e6;
    double r_cpu = c.cpu / (w.cpu > 0 ? w.cpu : 1e-9);
    double r_mem = (double)c.maxrss_kb * 1024.0 / (double)size;
    double r_lin = c.cpu / (t.cpu > 0 ? t.cpu : 1e-9);
    double d_start = (e.cpu - n.cpu) * 1e3;
    printf("front   ptosim check on a generated %.1f MB module (tests' kernels; %.1f MB tenth):\n", mb, (double)size10 / 1e6);
    printf("        CPU %.3f s vs wc -w %.3f s          -> %.2fx  (target <= 3x)     %s\n", c.cpu, w.cpu, r_cpu,
           verdict(r_cpu <= 3.0));
    printf("        peak memory %.1f MB vs file %.1f MB   -> %.2fx  (target <= 3x)     %s\n",
           (double)c.maxrss_kb * 1024.0 / 1e6, mb, r_mem, verdict(r_mem <= 3.0));
    printf("        10x input: %.3f s vs %.4f s          -> %.2fx time (target <= 11x) %s\n", c.cpu, t.cpu, r_lin,
           verdict(r_lin <= 11.0));
    printf("        start-up (empty module) %.2f ms vs /bin/true %.2f ms -> %+.2f ms (target <= +1 ms) %s\n",
           e.cpu * 1e3, n.cpu * 1e3, d_start, verdict(d_start <= 1.0));
    /* Below ~10 ms a process's CPU time is mostly start-up: the ratio is then taken over the start-up's. */
    double q1s = q1.cpu - e.cpu, q10s = q10.cpu - e.cpu;
    double r_inf = q10s / (q1s > 1e-3 ? q1s : 1e-3);
    printf("        one block of 50,000 vs 5,000 constants: %.3f s vs %.3f s -> %.2fx time (target <= 11x) %s\n",
           q10.cpu, q1.cpu, r_inf, verdict(r_inf <= 11.0));
    return 0;
}
