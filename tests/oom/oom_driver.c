/* oom_driver.c — allocation-failure injection over the library (`make oomtest`, docs/testing.md).
 *
 * Built only against the injection build of the library (-DPTOSIM_ALLOC_INJECT, ASan + LSan). For each
 * kernel file given, the session below (parse, verify, print, then launch and run the default entry with
 * every pointer bound to a zeroed buffer, every checker on; then the same text through pto_check) runs once
 * without injection (the baseline), then with allocation N failing for N = 1, 2, 3, ... until a session
 * completes with no injected failure.
 * Each time it asserts: no crash (ASan aborts the process otherwise); when a failure was injected, the
 * session reports a clean out-of-memory diagnostic (E-OOM or T-OOM, with its ID) or returns NULL from a
 * function documented to do so only when out of memory; and the same context, injection off, then runs
 * the session again to exactly the baseline's outcome (the context is still usable). LeakSanitizer checks
 * at exit that nothing leaked. A failure absorbed without E-OOM/T-OOM, a plain stop of the process, a crash
 * or a leak fails the test. The last line counts sessions and distinct allocation sites failed. */
#include "ptosim.h"
#include "base/alloc.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ASan's symboliser: "function file:line" of a return address. */
void __sanitizer_symbolize_pc(void *pc, const char *fmt, char *out, size_t n);

static const char *where(const void *site, char *buf, size_t n)
{
    buf[0] = 0;
    if (site) __sanitizer_symbolize_pc((void *)((const char *)site - 1), "%f %s:%l", buf, n);
    if (!buf[0]) snprintf(buf, n, "%p", site);
    return buf;
}

enum { BUF_BYTES = 1 << 20, MAX_SITES = 4096, SIG = 4096 };

/* One session in ctx; writes its outcome (return codes and diagnostic IDs, in order) to sig.
   Returns 1 when a documented out-of-memory NULL ended it early. */
static int session(PtoContext *ctx, const char *name, const char *text, size_t len, char *sig)
{
    size_t d0 = pto_diag_count(ctx);
    int null_oom = 0, rc = -1;
    size_t verrs = (size_t)-1;
    PtoModule *m = pto_parse(ctx, name, text, len);
    if (!m) null_oom = 1;
    if (m && !pto_error_count(ctx)) {
        verrs = pto_verify(m, PTO_TARGET_DEFAULT);
        char *p = pto_print(m, 0);
        pto_free(p);
    }
    if (m && verrs == 0) {
        PtoLaunch *l = pto_launch_new(m, NULL, PTO_TARGET_DEFAULT);
        void *bufs[64] = {0};
        unsigned np = l ? pto_launch_num_params(l) : 0;
        for (unsigned i = 0; l && i < np && i < 64; i++) {
            PtoParamInfo pi;
            if (pto_launch_param(l, i, &pi)) continue;
            if (pi.kind == PTO_PARAM_PTR) {
                bufs[i] = calloc(1, BUF_BYTES);
                if (bufs[i]) pto_launch_bind_buffer(l, i, bufs[i], BUF_BYTES);
                pto_launch_set_output(l, i, 1);
            } else if (pi.kind == PTO_PARAM_FLOAT) {
                pto_launch_bind_float(l, i, 1.0);
            } else {
                pto_launch_bind_int(l, i, 4);
            }
        }
        if (l) {
            pto_launch_set_checks(l, PTO_CHECK_ALL, 1);
            pto_launch_set_step_limit(l, 2000000);
            rc = pto_launch_run(l, 2);
            pto_launch_free(l);
        }
        for (unsigned i = 0; i < 64; i++) free(bufs[i]);
    }
    pto_module_free(m);
    /* The checking path (`ptosim check`): nested modules verified as parsed, each in an arena of its own. */
    long cerrs = pto_check(ctx, name, text, len, PTO_TARGET_DEFAULT);
    if (cerrs < 0) null_oom = 1;   /* the text could not be held: documented for out of memory only */
    int n = snprintf(sig, SIG, "verify=%lld run=%d check=%ld:", verrs == (size_t)-1 ? -1LL : (long long)verrs, rc,
                     cerrs);
    for (size_t i = d0; i < pto_diag_count(ctx) && n > 0 && n < SIG - 32; i++) {
        PtoDiagInfo di;
        if (!pto_diag_get(ctx, i, &di)) n += snprintf(sig + n, (size_t)(SIG - n), " %s", di.id);
    }
    return null_oom;
}

static int has_oom(const char *sig) { return strstr(sig, " E-OOM") || strstr(sig, " T-OOM"); }

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *s = NULL;
    size_t n = 0, cap = 0, k;
    char chunk[65536];
    while ((k = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (n + k + 1 > cap) {
            cap = (n + k + 1) * 2;
            char *t = realloc(s, cap);
            if (!t) { free(s); fclose(f); return NULL; }
            s = t;
        }
        memcpy(s + n, chunk, k);
        n += k;
    }
    fclose(f);
    if (!s) s = calloc(1, 1);
    else s[n] = 0;
    *len = n;
    return s;
}

/* What one injected session reports to the parent (the child may stop abruptly: see main). */
typedef struct Report {
    int fired, null_oom, has_ctx;
    const void *site;
    char got[SIG], again[SIG];
} Report;

static Report rep;
static int rep_fd = -1;

/* An abort (a plain "out of memory" stop of the process, which the library must never do): tell the parent
   which allocation site it was, then end. */
static void on_abort(int sig)
{
    (void)sig;
    const void *site = alloc_inject_site();
    if (write(rep_fd, &site, sizeof site) < 0) _exit(98);
    _exit(97);
}

static void child(int fd, uint64_t n, const char *path, const char *text, size_t len)
{
    rep_fd = fd;
    signal(SIGABRT, on_abort);
    alloc_inject_arm(n, 0);
    PtoContext *ctx = pto_context_new();
    rep.null_oom = ctx ? session(ctx, path, text, len, rep.got) : 1;
    rep.fired = alloc_inject_fired();
    rep.site = alloc_inject_site();
    rep.has_ctx = ctx != NULL;
    alloc_inject_arm(0, 0);
    if (ctx) {   /* the same context, injection off: it must still run the kernel as before */
        pto_diag_clear(ctx);
        session(ctx, path, text, len, rep.again);
        pto_context_free(ctx);
    }
    signal(SIGABRT, SIG_DFL);
    if (write(fd, &rep.site, sizeof rep.site) < 0 || write(fd, &rep, sizeof rep) < 0) _exit(98);
    exit(0);   /* LeakSanitizer checks this child's heap now: a leak exits non-zero */
}

static int read_all(int fd, void *p, size_t n)
{
    char *c = p;
    while (n) {
        ssize_t k = read(fd, c, n);
        if (k <= 0) return -1;
        c += k;
        n -= (size_t)k;
    }
    return 0;
}

static int add_site(const void **sites, size_t *n, const void *site)
{
    for (size_t k = 0; k < *n; k++)
        if (sites[k] == site) return 0;
    if (*n < MAX_SITES) sites[(*n)++] = site;
    return 1;
}

int main(int argc, char **argv)
{
    static const void *sites[MAX_SITES], *stops[MAX_SITES];
    static char base[SIG];
    static Report r;
    size_t nsites = 0, nstops = 0, sessions = 0, failures = 0, stopped = 0;
    char wb[512];
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (int a = 1; a < argc; a++) {
        size_t len;
        char *text = slurp(argv[a], &len);
        if (!text) { fprintf(stderr, "oom: cannot read %s\n", argv[a]); return 2; }
        PtoContext *ctx = pto_context_new();
        session(ctx, argv[a], text, len, base);
        pto_context_free(ctx);
        /* OOM_FIRST=N starts at allocation N (to look at one failure again). */
        const char *first = getenv("OOM_FIRST");
        uint64_t n = first ? strtoull(first, NULL, 10) : 1;
        if (!n) n = 1;
        for (;; n++) {
            int fds[2];
            if (pipe(fds)) { perror("pipe"); return 2; }
            pid_t pid = fork();
            if (pid < 0) { perror("fork"); return 2; }
            if (pid == 0) {
                close(fds[0]);
                child(fds[1], n, argv[a], text, len);
            }
            close(fds[1]);
            const void *site = NULL;
            memset(&r, 0, sizeof r);
            int got_site = read_all(fds[0], &site, sizeof site) == 0;
            int got_rep = got_site && read_all(fds[0], &r, sizeof r) == 0;
            close(fds[0]);
            int st = 0;
            waitpid(pid, &st, 0);
            sessions++;
            if (WIFEXITED(st) && WEXITSTATUS(st) == 97 && got_site) {
                stopped++;
                if (add_site(stops, &nstops, site))
                    printf("FAIL %s: allocation %llu: plain stop (abort) at %s\n", argv[a], (unsigned long long)n,
                           where(site, wb, sizeof wb));
                continue;
            }
            if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || !got_rep) {
                printf("FAIL %s: allocation %llu failed: the session crashed or leaked (status 0x%x, site %p)\n", argv[a],
                       (unsigned long long)n, st, site);
                failures++;
                continue;
            }
            if (!r.fired) {
                if (strcmp(r.got, base)) {
                    printf("FAIL %s: N=%llu, nothing injected, yet the outcome differs\n  base: %s\n  got:  %s\n", argv[a],
                           (unsigned long long)n, base, r.got);
                    failures++;
                }
                break;
            }
            add_site(sites, &nsites, r.site);
            if (!r.null_oom && !has_oom(r.got)) {
                printf("FAIL %s: allocation %llu (%s) failed without an E-OOM/T-OOM diagnostic\n  base: %s\n  got:  %s\n",
                       argv[a], (unsigned long long)n, where(r.site, wb, sizeof wb), base, r.got);
                failures++;
            }
            if (r.has_ctx && strcmp(r.again, base)) {
                printf("FAIL %s: after allocation %llu failed, the context no longer runs the kernel as before\n"
                       "  base:  %s\n  again: %s\n", argv[a], (unsigned long long)n, base, r.again);
                failures++;
            }
        }
        printf("oom: %s: %llu allocations, each failed in turn\n", argv[a], (unsigned long long)(n - 1));
        free(text);
    }
    printf("oom: %zu sessions; %zu distinct allocation sites failed; %zu sessions (%zu sites) ended in a plain stop; "
           "%zu failures in all\n", sessions, nsites, stopped, nstops, failures + stopped);
    return failures || stopped ? 1 : 0;
}
