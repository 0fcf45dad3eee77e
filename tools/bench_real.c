/* bench_real.c — `make bench`, realistic lines: kernels under bench/ (flash attention's core, an online
 * softmax update, RMSNorm, a cube tile matmul) against the same math written here in C, outputs compared bit for bit. Each
 * line prints the CPU-time ratio simulated / native (lower is better; 1.0 = as fast as the C loop) and the
 * simulated ops per CPU-second; then the full sanitizer against the unchecked run, and scaling lines
 * (1x and 8x the work: the time ratio, 8.0 = linear). CPU time is the process's (every thread), each figure
 * the best of a few interleaved runs. Wall-clock numbers never gate a test.
 * usage: bench_real BENCH_DIR [quick|full [fa|osm|rms|simt|mm [plain|san [ROUNDS]]]] (the third: only that kernel's lines,
 * the fourth: only the unchecked or the sanitized launches, the others not timed; the fifth: rounds: for profiling) */
#include "ptosim.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *slurp(const char *dir, const char *name, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "bench_real: cannot open %s\n", path); exit(2); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = malloc((size_t)n + 1);
    if (!p || fread(p, 1, (size_t)n, f) != (size_t)n) { fprintf(stderr, "bench_real: cannot read %s\n", path); exit(2); }
    p[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return p;
}

/* ------------------------------------------------------------------ running a kernel */

typedef struct Arg { void *buf; size_t bytes; long ival; } Arg;   /* buf NULL: an index argument */
typedef struct Kern { const char *name; char *text; size_t len; PtoContext *ctx; PtoModule *m; } Kern;

static void kern_open(Kern *k, const char *dir, const char *name)
{
    k->name = name;
    k->text = slurp(dir, name, &k->len);
    k->ctx = pto_context_new();
    k->m = pto_parse(k->ctx, name, k->text, k->len);
    if (!k->m || pto_error_count(k->ctx) || pto_verify(k->m, PTO_TARGET_DEFAULT)) {
        for (size_t i = 0; i < pto_diag_count(k->ctx); i++) {
            char *s = pto_diag_render(k->ctx, i, 0);
            fputs(s ? s : "?\n", stderr);
            pto_free(s);
        }
        fprintf(stderr, "bench_real: %s does not verify\n", name);
        exit(1);
    }
}

static void kern_close(Kern *k)
{
    pto_module_free(k->m);
    pto_context_free(k->ctx);
    free(k->text);
}

enum { PLAIN = 0, SANITIZE = 1 };
static int skip_plain, skip_san;   /* profiling one kind of launch: the other is not run */
static uint64_t last_ops;

/* CPU seconds of one launch (parse and verify excluded), or -1 with the errors printed. */
static double run(Kern *k, const Arg *args, unsigned nargs, unsigned blocks, int mode)
{
    if (mode == PLAIN ? skip_plain : skip_san) return 1e9;
    PtoLaunch *l = pto_launch_new(k->m, NULL, PTO_TARGET_DEFAULT);
    if (!l) return -1;
    for (unsigned i = 0; i < nargs; i++) {
        if (args[i].buf) pto_launch_bind_buffer(l, i, args[i].buf, args[i].bytes);
        else pto_launch_bind_int(l, i, args[i].ival);
    }
    pto_launch_set_checks(l, PTO_CHECK_ALL, mode == SANITIZE);
    pto_launch_set_jobs(l, 1);
    size_t nd = pto_diag_count(k->ctx);
    double c0 = cpu_now();
    int rc = pto_launch_run(l, blocks);
    double t = cpu_now() - c0;
    last_ops = pto_launch_stats(l)->ops_executed;
    pto_launch_free(l);
    for (size_t i = nd; i < pto_diag_count(k->ctx); i++) {   /* every diagnostic: these kernels are clean */
        char *s = pto_diag_render(k->ctx, i, 0);
        fputs(s ? s : "?\n", stderr);
        pto_free(s);
    }
    return rc == 0 ? t : -1;
}

static void best(double *b, double t)
{
    if (t < 0 || *b < 0) *b = -1;
    else if (t < *b) *b = t;
}

/* ------------------------------------------------------------------ the math in C */

static float f32_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t bits_of(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float canon(float f) { return f != f ? f32_of(0x7FC00000u) : f; }

/* vcadd: the pairwise tree over the 64 lanes, each partial sum rounded to f32 */
static float tree64(const float *v)
{
    float t[64];
    memcpy(t, v, sizeof t);
    for (unsigned n = 64; n > 1; n /= 2)
        for (unsigned i = 0; i < n / 2; i++) t[i] = t[2 * i] + t[2 * i + 1];
    return canon(t[0]);
}
/* vmax on one lane: NaN gives the canonical NaN, +0 above -0 */
static float vmax1(float a, float b)
{
    if (a != a || b != b) return f32_of(0x7FC00000u);
    if (a > b) return a;
    if (b > a) return b;
    return (bits_of(a) >> 31) ? b : a;
}
/* vcmax's lane 0: the first largest lane (inputs here are finite) */
static float max64(const float *v)
{
    float m = v[0];
    for (int i = 1; i < 64; i++)
        if (v[i] > m || (v[i] == 0 && m == 0 && (bits_of(m) >> 31) && !(bits_of(v[i]) >> 31))) m = v[i];
    return m;
}
/* vexpdif: exp of the difference formed in double, rounded once to f32 */
static float expdif(float a, float m) { return canon((float)exp((double)a - (double)m)); }

/* flash attention core, bench/flash_attn.pto: rows query rows per block, blocks blocks, nt key tiles */
__attribute__((noinline)) static void native_fa(float *o, const float *q, const float *k, const float *v, long rows,
                                                long blocks, long nt)
{
    long R = rows * blocks;
    float *m = malloc(sizeof(float) * (size_t)R), *l = malloc(sizeof(float) * (size_t)R);
    for (long i = 0; i < R; i++) { m[i] = -INFINITY; l[i] = 0; }
    memset(o, 0, sizeof(float) * (size_t)R * 64);
    for (long t = 0; t < nt; t++) {
        const float *kt = k + t * 4096, *vt = v + t * 4096;
        for (long i = 0; i < R; i++) {
            float s[64], p[64], pr[64];
            const float *qi = q + i * 64;
            for (int j = 0; j < 64; j++) {
                for (int d = 0; d < 64; d++) pr[d] = qi[d] * kt[j * 64 + d];
                s[j] = tree64(pr);
            }
            float mnew = vmax1(m[i], max64(s)), alpha = expdif(m[i], mnew);
            for (int j = 0; j < 64; j++) p[j] = expdif(s[j], mnew);
            l[i] = l[i] * alpha + tree64(p);
            m[i] = mnew;
            float *oi = o + i * 64;
            for (int d = 0; d < 64; d++) oi[d] = oi[d] * alpha;
            for (int j = 0; j < 64; j++)
                for (int d = 0; d < 64; d++) oi[d] = oi[d] + p[j] * vt[j * 64 + d];
        }
    }
    for (long i = 0; i < R; i++)
        for (int d = 0; d < 64; d++) o[i * 64 + d] = o[i * 64 + d] / l[i];
    free(m);
    free(l);
    __asm__ __volatile__("" : : "r"(o) : "memory");
}

/* online softmax update, bench/online_softmax.pto: R rows of 256 scores */
__attribute__((noinline)) static void native_osm(float *p, float *mo, float *lo, const float *s, const float *m,
                                                 const float *l, long R)
{
    for (long i = 0; i < R; i++) {
        const float *si = s + i * 256;
        float mx = max64(si);
        for (int c = 1; c < 4; c++) mx = vmax1(mx, max64(si + 64 * c));
        float mnew = vmax1(m[i], mx), alpha = expdif(m[i], mnew), sum = 0;
        for (int c = 0; c < 4; c++) {
            float *pc = p + i * 256 + 64 * c;
            for (int j = 0; j < 64; j++) pc[j] = expdif(si[64 * c + j], mnew);
            sum = sum + tree64(pc);
        }
        lo[i] = l[i] * alpha + sum;
        mo[i] = mnew;
    }
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

/* RMSNorm, bench/rmsnorm.pto: T tokens of 1024 */
__attribute__((noinline)) static void native_rms(float *y, const float *x, const float *g, long T)
{
    const float inv = 9.765625e-04f, eps = 9.99999997e-07f;
    for (long i = 0; i < T; i++) {
        const float *xi = x + i * 1024;
        float acc[64];
        for (int j = 0; j < 64; j++) acc[j] = xi[j] * xi[j];
        for (int c = 1; c < 16; c++)
            for (int j = 0; j < 64; j++) acc[j] = acc[j] + xi[64 * c + j] * xi[64 * c + j];
        float r = canon((float)sqrt((double)(tree64(acc) * inv + eps)));
        for (int j = 0; j < 1024; j++) y[i * 1024 + j] = (xi[j] / r) * g[j];
    }
    __asm__ __volatile__("" : : "r"(y) : "memory");
}

/* RMSNorm for the SIMT mode, bench/rmsnorm_simt.pto: per token, 256 partial sums of 4 squares (elements t,
   t+256, t+512, t+768 in that order), the tree p[t] += p[t+h] for h = 128 .. 1, then x / r * g */
__attribute__((noinline)) static void native_rms_simt(float *y, const float *x, const float *g, long T)
{
    const float inv = 9.765625e-04f, eps = 9.99999997e-07f;
    for (long i = 0; i < T; i++) {
        const float *xi = x + i * 1024;
        float p[256];
        for (int t = 0; t < 256; t++) {
            float q0 = xi[t] * xi[t], q1 = xi[t + 256] * xi[t + 256], q2 = xi[t + 512] * xi[t + 512];
            float q3 = xi[t + 768] * xi[t + 768];
            p[t] = ((q0 + q1) + q2) + q3;
        }
        for (int h = 128; h >= 1; h /= 2)
            for (int t = 0; t < h; t++) p[t] = p[t] + p[t + h];
        float ms = p[0] * inv, r = sqrtf(ms + eps);
        for (int j = 0; j < 1024; j++) y[i * 1024 + j] = (xi[j] / r) * g[j];
    }
    __asm__ __volatile__("" : : "r"(y) : "memory");
}

/* cube tile matmul, bench/tmatmul.pto: per block C [128 x 64] = A [128 x 256] · B [256 x 64], f16 inputs (exact in
   f32), each product rounded to f32 and added to the f32 accumulator in ascending k (docs/semantics.md §8.4) */
static float f16_val(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    float v = e ? ldexpf((float)(1024 + m), e - 25) : ldexpf((float)m, -24);   /* inputs here are finite */
    return (h >> 15) ? -v : v;
}
__attribute__((noinline)) static void native_mm(float *c, const uint16_t *a, const uint16_t *b, long blocks)
{
    static float af[128 * 256], bf[256 * 64];
    for (long blk = 0; blk < blocks; blk++) {
        const uint16_t *ab = a + blk * 128 * 256, *bb = b + blk * 256 * 64;
        float *cb = c + blk * 128 * 64;
        for (int i = 0; i < 128 * 256; i++) af[i] = f16_val(ab[i]);
        for (int i = 0; i < 256 * 64; i++) bf[i] = f16_val(bb[i]);
        for (int m = 0; m < 128; m++) {
            float acc[64] = {0};
            for (int k = 0; k < 256; k++) {
                float s = af[m * 256 + k];
                for (int n = 0; n < 64; n++) {
                    float p = s * bf[k * 64 + n];
                    acc[n] = acc[n] + p;
                }
            }
            memcpy(cb + m * 64, acc, sizeof acc);
        }
    }
    __asm__ __volatile__("" : : "r"(c) : "memory");
}

/* ------------------------------------------------------------------ inputs */

static uint64_t seed = 0x9E3779B97F4A7C15ull;
static float urand(float lo, float hi)
{
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (float)((seed >> 40) & 0xFFFFFF) / 16777216.0f;
}
static float *frand(size_t n, float lo, float hi)
{
    float *p = malloc(n * 4);
    for (size_t i = 0; i < n; i++) p[i] = urand(lo, hi);
    return p;
}

/* f16 bits of magnitude in [2^-3, 2^1) with a random sign and mantissa */
static uint16_t *hrand(size_t n)
{
    uint16_t *p = malloc(n * 2);
    for (size_t i = 0; i < n; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t r = seed >> 33;
        p[i] = (uint16_t)(((r & 1) << 15) | ((12 + ((r >> 1) & 3)) << 10) | ((r >> 3) & 1023));
    }
    return p;
}

static int same(const char *what, const void *a, const void *b, size_t bytes)
{
    if (!memcmp(a, b, bytes)) return 1;
    const uint32_t *x = a, *y = b;
    size_t i = 0;
    while (x[i] == y[i]) i++;
    fprintf(stderr, "bench_real: %s: simulated output differs from the C reference at word %zu (%08x vs %08x)\n", what, i,
            x[i], y[i]);
    return 0;
}

static int ROUNDS = 3;

static void line(const char *what, double tn, double ts, uint64_t ops, int equal)
{
    if (ts < 0) { printf("%-38s did not run\n", what); return; }
    printf("%-38s sim %7.1f ms, C %6.1f ms -> ratio %6.2fx  %5.1f Mops/CPU-s  outputs %s\n", what, ts * 1e3, tn * 1e3,
           ts / tn, (double)ops / ts / 1e6, equal ? "equal" : "DIFFER");
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: bench_real BENCH_DIR [quick]\n"); return 2; }
    int quick = argc > 2 && !strcmp(argv[2], "quick");
    const char *only = argc > 3 ? argv[3] : NULL;
    if (argc > 4) {
        skip_san = !strcmp(argv[4], "plain");
        skip_plain = !strcmp(argv[4], "san");
    }
#define WANT(k) (!only || !strcmp(only, k))
    if (quick) ROUNDS = 1;
    if (argc > 5) ROUNDS = atoi(argv[5]) > 0 ? atoi(argv[5]) : ROUNDS;   /* for a profiler: many rounds in one process */
    const char *dir = argv[1];
    Kern fa, osm, rms;
    kern_open(&fa, dir, "flash_attn.pto");
    kern_open(&osm, dir, "online_softmax.pto");
    kern_open(&rms, dir, "rmsnorm.pto");
    int fails = 0;

    /* flash attention: 8 blocks x 32 rows, 16 key tiles */
    if (WANT("fa")) {
        long rows = 32, blocks = 8, nt = quick ? 4 : 16, R = rows * blocks;
        float *q = frand((size_t)R * 64, -0.5f, 0.5f), *k = frand((size_t)nt * 4096, -0.5f, 0.5f);
        float *v = frand((size_t)nt * 4096, -1.0f, 1.0f);
        float *os = calloc((size_t)R * 64, 4), *on = calloc((size_t)R * 64, 4);
        Arg a[] = {{q, (size_t)R * 256, 0}, {k, (size_t)nt * 16384, 0}, {v, (size_t)nt * 16384, 0},
                   {os, (size_t)R * 256, 0}, {NULL, 0, rows}, {NULL, 0, nt}};
        double tn = 1e9, ts = 1e9, tc = 1e9;
        uint64_t ops = 0;
        for (int r = 0; r < ROUNDS; r++) {
            double c0 = cpu_now();
            native_fa(on, q, k, v, rows, blocks, nt);
            best(&tn, cpu_now() - c0);
            best(&ts, run(&fa, a, 6, (unsigned)blocks, PLAIN));
            ops = last_ops;
            best(&tc, run(&fa, a, 6, (unsigned)blocks, SANITIZE));
        }
        int eq = same("flash attention", os, on, (size_t)R * 256);
        fails += !eq;
        char w[80];
        snprintf(w, sizeof w, "flash attention %ldx%ld rows, %ld tiles", blocks, rows, nt);
        line(w, tn, ts, ops, eq);
        if (tc > 0 && ts > 0 && !skip_plain && !skip_san) printf("%-38s full sanitizer %.1f ms -> %.2fx the unchecked run\n", "", tc * 1e3, tc / ts);
        free(q); free(k); free(v); free(os); free(on);
    }

    /* online softmax: B blocks x 64 rows of 256 */
    long osm_blocks[2] = {8, 64};
    double osm_san[2] = {0, 0};
    for (int bi = 0; bi < 2 && WANT("osm"); bi++) {
        long rows = 64, blocks = osm_blocks[bi], R = rows * blocks;
        float *s = frand((size_t)R * 256, -8.0f, 8.0f), *m = frand((size_t)R, -2.0f, 2.0f), *l = frand((size_t)R, 1.0f, 50.0f);
        float *ps = calloc((size_t)R * 256, 4), *pn = calloc((size_t)R * 256, 4);
        float *mos = calloc((size_t)R, 4), *mon = calloc((size_t)R, 4), *los = calloc((size_t)R, 4), *lon = calloc((size_t)R, 4);
        Arg a[] = {{s, (size_t)R * 1024, 0}, {m, (size_t)R * 4, 0}, {l, (size_t)R * 4, 0}, {ps, (size_t)R * 1024, 0},
                   {mos, (size_t)R * 4, 0}, {los, (size_t)R * 4, 0}, {NULL, 0, rows}};
        double tn = 1e9, ts = 1e9, tc = 1e9;
        uint64_t ops = 0;
        int reps = 10;   /* the native loop is short: time `reps` of it */
        for (int r = 0; r < ROUNDS; r++) {
            double c0 = cpu_now();
            for (int k = 0; k < reps; k++) native_osm(pn, mon, lon, s, m, l, R);
            best(&tn, (cpu_now() - c0) / reps);
            best(&ts, run(&osm, a, 7, (unsigned)blocks, PLAIN));
            ops = last_ops;
            best(&tc, run(&osm, a, 7, (unsigned)blocks, SANITIZE));
        }
        int eq = same("online softmax P", ps, pn, (size_t)R * 1024) && same("online softmax m", mos, mon, (size_t)R * 4) &&
                 same("online softmax l", los, lon, (size_t)R * 4);
        fails += !eq;
        char w[80];
        snprintf(w, sizeof w, "online softmax %ldx%ld rows of 256", blocks, rows);
        line(w, tn, ts, ops, eq);
        if (tc > 0 && ts > 0 && !skip_plain && !skip_san)
            printf("%-38s full sanitizer (%ld-block launch) %.1f ms -> %.2fx the unchecked run\n", "", blocks, tc * 1e3, tc / ts);
        osm_san[bi] = tc;
        free(s); free(m); free(l); free(ps); free(pn); free(mos); free(mon); free(los); free(lon);
    }

    /* RMSNorm: one block, C chunks of 16 tokens of 1024 */
    long rms_chunks[2] = {quick ? 4 : 16, quick ? 32 : 128};
    double rms_plain[2] = {0, 0}, rms_san[2] = {0, 0};
    for (int ci = 0; ci < 2 && WANT("rms"); ci++) {
        long chunks = rms_chunks[ci], T = chunks * 16;
        float *x = frand((size_t)T * 1024, -3.0f, 3.0f), *g = frand(1024, 0.5f, 1.5f);
        float *ys = calloc((size_t)T * 1024, 4), *yn = calloc((size_t)T * 1024, 4);
        Arg a[] = {{x, (size_t)T * 4096, 0}, {g, 4096, 0}, {ys, (size_t)T * 4096, 0}, {NULL, 0, chunks}};
        double tn = 1e9, ts = 1e9, tc = 1e9;
        uint64_t ops = 0;
        for (int r = 0; r < ROUNDS; r++) {
            double c0 = cpu_now();
            native_rms(yn, x, g, T);
            best(&tn, cpu_now() - c0);
            best(&ts, run(&rms, a, 4, 1, PLAIN));
            ops = last_ops;
            best(&tc, run(&rms, a, 4, 1, SANITIZE));
        }
        int eq = same("RMSNorm", ys, yn, (size_t)T * 4096);
        fails += !eq;
        char w[80];
        snprintf(w, sizeof w, "RMSNorm %ld tokens of 1024", T);
        line(w, tn, ts, ops, eq);
        if (tc > 0 && ts > 0 && !skip_plain && !skip_san) printf("%-38s full sanitizer %.1f ms -> %.2fx the unchecked run\n", "", tc * 1e3, tc / ts);
        rms_plain[ci] = ts;
        rms_san[ci] = tc;
        free(x); free(g); free(ys); free(yn);
    }

    /* RMSNorm in SIMT: 8 blocks of T tokens, one launch of 256 workitems each */
    if (WANT("simt")) {
        long per = quick ? 2 : 8, blocks = 8, T = per * blocks;
        Kern sk;
        kern_open(&sk, dir, "rmsnorm_simt.pto");
        float *x = frand((size_t)T * 1024, -3.0f, 3.0f), *g = frand(1024, 0.5f, 1.5f);
        float *ys = calloc((size_t)T * 1024, 4), *yn = calloc((size_t)T * 1024, 4);
        Arg a[] = {{x, (size_t)T * 4096, 0}, {g, 4096, 0}, {ys, (size_t)T * 4096, 0}, {NULL, 0, per}};
        double tn = 1e9, ts = 1e9, tc = 1e9;
        uint64_t ops = 0;
        for (int r = 0; r < ROUNDS; r++) {
            double c0 = cpu_now();
            for (int k = 0; k < 10; k++) native_rms_simt(yn, x, g, T);
            best(&tn, (cpu_now() - c0) / 10);
            best(&ts, run(&sk, a, 4, (unsigned)blocks, PLAIN));
            ops = last_ops;
            best(&tc, run(&sk, a, 4, (unsigned)blocks, SANITIZE));
        }
        int eq = same("RMSNorm SIMT", ys, yn, (size_t)T * 4096);
        fails += !eq;
        char w[80];
        snprintf(w, sizeof w, "RMSNorm SIMT %ldx%ld tokens of 1024", blocks, per);
        line(w, tn, ts, ops, eq);
        if (tc > 0 && ts > 0 && !skip_plain && !skip_san) printf("%-38s full sanitizer %.1f ms -> %.2fx the unchecked run\n", "", tc * 1e3, tc / ts);
        free(x); free(g); free(ys); free(yn);
        kern_close(&sk);
    }

    /* cube tile matmul: B blocks of 128 x 256 x 64 */
    if (WANT("mm")) {
        long blocks = quick ? 2 : 16;
        Kern mk;
        kern_open(&mk, dir, "tmatmul.pto");
        uint16_t *a = hrand((size_t)blocks * 128 * 256), *b = hrand((size_t)blocks * 256 * 64);
        float *cs = calloc((size_t)blocks * 128 * 64, 4), *cn = calloc((size_t)blocks * 128 * 64, 4);
        Arg args[] = {{a, (size_t)blocks * 128 * 256 * 2, 0}, {b, (size_t)blocks * 256 * 64 * 2, 0},
                      {cs, (size_t)blocks * 128 * 64 * 4, 0}, {NULL, 0, blocks}};
        double tn = 1e9, ts = 1e9, tc = 1e9;
        uint64_t ops = 0;
        for (int r = 0; r < ROUNDS; r++) {
            double c0 = cpu_now();
            native_mm(cn, a, b, blocks);
            best(&tn, cpu_now() - c0);
            best(&ts, run(&mk, args, 4, (unsigned)blocks, PLAIN));
            ops = last_ops;
            best(&tc, run(&mk, args, 4, (unsigned)blocks, SANITIZE));
        }
        int eq = same("tile matmul", cs, cn, (size_t)blocks * 128 * 64 * 4);
        fails += !eq;
        char w[80];
        snprintf(w, sizeof w, "tile matmul %ldx 128x256x64 f16->f32", blocks);
        line(w, tn, ts, ops, eq);
        if (tc > 0 && ts > 0 && !skip_plain && !skip_san) printf("%-38s full sanitizer %.1f ms -> %.2fx the unchecked run\n", "", tc * 1e3, tc / ts);
        free(a); free(b); free(cs); free(cn);
        kern_close(&mk);
    }

    double wr = (double)rms_chunks[1] / (double)rms_chunks[0];
    if (osm_san[0] > 0 && osm_san[1] > 0)
        printf("scaling blocks  online softmax, sanitizer, 8 -> 64 blocks: time x%.2f (work x8)\n", osm_san[1] / osm_san[0]);
    if (rms_plain[0] > 0 && rms_plain[1] > 0)
        printf("scaling tokens  RMSNorm, %ld -> %ld tokens: time x%.2f (work x%.0f)\n", rms_chunks[0] * 16,
               rms_chunks[1] * 16, rms_plain[1] / rms_plain[0], wr);
    if (rms_san[0] > 0 && rms_san[1] > 0)
        printf("scaling jobs    RMSNorm under the race detector, %ld -> %ld pipe jobs per kind: time x%.2f (work x%.0f)\n",
               rms_chunks[0], rms_chunks[1], rms_san[1] / rms_san[0], wr);
    kern_close(&fa);
    kern_close(&osm);
    kern_close(&rms);
    return fails ? 1 : 0;
}
