/* tsan_driver.c — independent contexts on several threads at once (`make tsan`, docs/testing.md).
 *
 * Built with -fsanitize=thread against a ThreadSanitizer build of the library. Each kernel file given is
 * first run alone on the main thread (the reference: diagnostic IDs, return codes and output bytes); then
 * one thread per kernel, all started together, each with its own context, parses, verifies, prints and
 * runs its kernel ROUNDS times (3 blocks on a pool of 2 threads) and compares every outcome with the reference. ThreadSanitizer reports any
 * data race between them (the library promises no global mutable state); a differing outcome fails too. */
#include "ptosim.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROUNDS = 3, BUF_BYTES = 1 << 16, MAXP = 16, SIG = 4096, MAXK = 32 };

typedef struct Job {
    const char *path;
    char ref[SIG];
    unsigned long ref_sum;
    int failed;
} Job;

static unsigned long session(const char *path, char *sig)
{
    unsigned long sum = 0;
    int rc = -1;
    PtoContext *ctx = pto_context_new();
    if (!ctx) { snprintf(sig, SIG, "no context"); return 0; }
    PtoModule *m = pto_parse_file(ctx, path);
    size_t verrs = (size_t)-1;
    if (m && !pto_error_count(ctx)) {
        verrs = pto_verify(m, PTO_TARGET_DEFAULT);
        char *p = pto_print(m, 0);
        for (const char *c = p; c && *c; c++) sum = sum * 131 + (unsigned char)*c;
        pto_free(p);
    }
    if (m && verrs == 0) {
        PtoLaunch *l = pto_launch_new(m, NULL, PTO_TARGET_DEFAULT);
        unsigned char *bufs[MAXP] = {0};
        unsigned np = l ? pto_launch_num_params(l) : 0;
        for (unsigned i = 0; i < np && i < MAXP; i++) {
            PtoParamInfo pi;
            if (pto_launch_param(l, i, &pi)) continue;
            if (pi.kind == PTO_PARAM_PTR) {
                bufs[i] = malloc(BUF_BYTES);
                for (unsigned j = 0; bufs[i] && j < BUF_BYTES; j++) bufs[i][j] = (unsigned char)(j * 7 + i);
                if (bufs[i]) pto_launch_bind_buffer(l, i, bufs[i], BUF_BYTES);
            } else if (pi.kind == PTO_PARAM_FLOAT) {
                pto_launch_bind_float(l, i, 1.5);
            } else {
                pto_launch_bind_int(l, i, 4);
            }
        }
        if (l) {
            pto_launch_set_checks(l, PTO_CHECK_ALL, 1);
            pto_launch_set_step_limit(l, 2000000);
            pto_launch_set_jobs(l, 2);      /* the blocks also run on the launch's own pool of threads */
            rc = pto_launch_run(l, 3);
            pto_launch_free(l);
        }
        for (unsigned i = 0; i < MAXP; i++) {
            for (unsigned j = 0; bufs[i] && j < BUF_BYTES; j++) sum = sum * 31 + bufs[i][j];
            free(bufs[i]);
        }
    }
    int n = snprintf(sig, SIG, "run=%d:", rc);
    for (size_t i = 0; i < pto_diag_count(ctx) && n > 0 && n < SIG - 32; i++) {
        PtoDiagInfo di;
        if (!pto_diag_get(ctx, i, &di)) n += snprintf(sig + n, (size_t)(SIG - n), " %s", di.id);
    }
    pto_module_free(m);
    pto_context_free(ctx);
    return sum;
}

static pthread_barrier_t start;

static void *worker(void *arg)
{
    Job *j = arg;
    char sig[SIG];
    pthread_barrier_wait(&start);
    for (int r = 0; r < ROUNDS; r++) {
        unsigned long sum = session(j->path, sig);
        if (sum != j->ref_sum || strcmp(sig, j->ref)) j->failed = 1;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    static Job jobs[MAXK];
    pthread_t th[MAXK];
    int n = argc - 1 < MAXK ? argc - 1 : MAXK, bad = 0;
    for (int i = 0; i < n; i++) {
        jobs[i].path = argv[i + 1];
        jobs[i].ref_sum = session(jobs[i].path, jobs[i].ref);
    }
    pthread_barrier_init(&start, NULL, (unsigned)n);
    for (int i = 0; i < n; i++) pthread_create(&th[i], NULL, worker, &jobs[i]);
    for (int i = 0; i < n; i++) pthread_join(th[i], NULL);
    pthread_barrier_destroy(&start);
    for (int i = 0; i < n; i++)
        if (jobs[i].failed) {
            printf("FAIL %s: a run on a thread differs from the same run alone (%s)\n", jobs[i].path, jobs[i].ref);
            bad++;
        }
    printf("tsan: %d kernels on %d threads, %d rounds each, %d differing\n", n, n, ROUNDS, bad);
    return bad ? 1 : 0;
}
