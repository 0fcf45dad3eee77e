/* test_valu.c — unit tests of the vector compute family (src/vec_alu*.c), below the kernel level:
 * a tiny kernel is parsed, verified and lowered, the lowered instruction of the op under test is found
 * and its handler is run on operands written straight into a frame.
 *
 *  1. vcvt exhaustively over all 65,536 f16 and bf16 codes: to f32 (EVEN and ODD) and back with every
 *     rounding mode, with and without saturation, also for the f32 values between neighbouring codes
 *     (exact ties and one ulp either side). Expected values come from tests/unit/ref_num.c, an oracle
 *     written without src/num.c (table search over decoded values).
 *  2. Every fast SIMD handler (vec_alu_fast.c) against the generic lane-by-lane handler on random and
 *     special inputs, masked and unmasked, vector-vector and vector-scalar.
 *  3. Hand-computed spot checks of a few readings (zeroing, NaN, signed zeros, carries).
 *  4. The time per 64-lane f32 vadd of the fast handler (informational).
 * The last line is "N passed, M failed". */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ref_num.h"
#include "sim.h"
#include "vec_alu_int.h"

static long n_pass, n_fail;

static void check(int ok, const char *fmt, ...)
{
    if (ok) {
        n_pass++;
        return;
    }
    if (++n_fail > 30) return;
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

/* ------------------------------------------------------------------ harness */

typedef struct H {
    PtoContext *ctx;
    PtoModule *m;
    Program *p;
    Sim sim;
    Cluster cl;
    Core *core;
    Exec x;
    uint8_t *frame;
    const Instr *in;
} H;

typedef struct FindOp { OpKind k; int nth; Op *found; } FindOp;

static int find_op(Op *o, void *ud)
{
    FindOp *f = ud;
    if (o->kind == f->k && f->nth-- == 0) {
        f->found = o;
        return 1;
    }
    return 0;
}

/* Parses, verifies and lowers `text`, and points h->in at the nth op of kind k. */
static int h_open(H *h, const char *text, OpKind k, int nth)
{
    memset(h, 0, sizeof *h);
    h->ctx = pto_context_new();
    h->m = pto_parse(h->ctx, "unit.pto", text, strlen(text));
    if (!h->m || pto_error_count(h->ctx) || pto_verify(h->m, PTO_TARGET_A5)) goto fail;
    char err[128];
    h->p = lower_module(h->ctx, h->m, NULL, err, sizeof err);
    if (!h->p) goto fail;
    FindOp f = {k, nth, NULL};
    ir_walk(h->m->top, find_op, &f);
    if (!f.found) goto fail;
    const Instr *in = h->p->funcs[0].entry;
    for (int i = 0; i < 100000 && in->op != f.found; i++) in++;
    if (in->op != f.found) goto fail;
    h->in = in;
    h->frame = calloc(1, h->p->max_frame + 64);
    h->core = calloc(1, sizeof *h->core);
    h->cl.ncores = 1;
    h->core->sim = &h->sim;
    h->core->cl = &h->cl;
    h->core->mem[AS_UB] = calloc(1, 256 * 1024);
    h->core->memsz[AS_UB] = 256 * 1024;
    h->sim.ctx = h->ctx;
    h->x.core = h->core;
    h->x.frame = h->frame;
    h->x.pipe = PQ_V;
    return 0;
fail:
    for (size_t i = 0; i < pto_diag_count(h->ctx); i++) {
        char *s = pto_diag_render(h->ctx, i, 0);
        printf("%s\n", s);
        pto_free(s);
    }
    printf("could not prepare:\n%s\n", text);
    n_fail++;
    return -1;
}

static void h_close(H *h)
{
    if (h->core) free(h->core->mem[AS_UB]);
    free(h->core);
    free(h->frame);
    if (h->p) program_free(h->p);
    if (h->m) pto_module_free(h->m);
    pto_context_free(h->ctx);
}

static uint8_t *opnd(H *h, unsigned i) { return h->frame + h->in->arg[i]; }
static uint8_t *res(H *h, unsigned i) { return h->frame + h->in->res[i]; }
static void run(H *h) { h->in->fn(&h->x, h->in); }

/* A kernel around one op: %a/%b/%c are vregs of type VA loaded from UB, %m a mask, %s a scalar. */
static char *kernel(const char *va, const char *gran, const char *stype, const char *body)
{
    static char buf[4096];
    snprintf(buf, sizeof buf,
             "module attributes {pto.target_arch = \"a5\"} {\n"
             "  func.func @k(%%p: !pto.ptr<%s, ub>, %%s: %s) attributes {pto.kernel} {\n"
             "    %%c0 = arith.constant 0 : index\n"
             "    pto.vecscope {\n"
             "      %%a = pto.vlds %%p[%%c0] : !pto.ptr<%s, ub> -> !pto.vreg<%s>\n"
             "      %%b = pto.vlds %%p[%%c0] : !pto.ptr<%s, ub> -> !pto.vreg<%s>\n"
             "      %%c = pto.vlds %%p[%%c0] : !pto.ptr<%s, ub> -> !pto.vreg<%s>\n"
             "      %%m = pto.pset_%s \"PAT_ALL\" : !pto.mask<%s>\n"
             "      %s\n"
             "    }\n"
             "    return\n"
             "  }\n"
             "}\n",
             strchr(va, 'x') + 1, stype, strchr(va, 'x') + 1, va, strchr(va, 'x') + 1, va, strchr(va, 'x') + 1, va,
             gran, gran, body);
    return buf;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd64(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* ------------------------------------------------------------------ 1. exhaustive f16/bf16 conversions */

static const char *const RND[] = {"R", "A", "F", "C", "Z", "O"};

static uint32_t f32_bits(double d)
{
    float f = (float)d;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* narrow -> f32 for every code, EVEN and ODD parts, every other source lane masked off */
static void cvt_up(NumFormat nf, const char *tn)
{
    for (int part = 0; part < 2; part++) {
        char body[256];
        snprintf(body, sizeof body,
                 "%%r = pto.vcvt %%a, %%m {part = \"%s\"} : !pto.vreg<128x%s>, !pto.mask<b16> -> !pto.vreg<64xf32>",
                 part ? "ODD" : "EVEN", tn);
        char vt[32];
        snprintf(vt, sizeof vt, "128x%s", tn);
        H h;
        if (h_open(&h, kernel(vt, "b16", "i32", body), OP_VCVT, 0)) return;
        long bad = 0;
        for (uint32_t base = 0; base < 65536; base += 128) {
            uint8_t *a = opnd(&h, 0), *m = opnd(&h, 1);
            for (unsigned i = 0; i < 128; i++) lane_set(a, 2, i, base + i);
            /* b16 mask: lane i is image bit 2i; switch off source lanes with i % 8 == 6 or 7 */
            memset(m, 0, 32);
            for (unsigned i = 0; i < 128; i++)
                if (i % 8 < 6 || base == 0) mask_set(m, 2, i);
            run(&h);
            const uint8_t *r = res(&h, 0);
            for (unsigned j = 0; j < 64; j++) {
                unsigned i = 2 * j + (unsigned)part;
                uint32_t code = base + i;
                double v = ref_decode(nf, code);
                uint64_t want = (i % 8 < 6 || base == 0) ? (isnan(v) ? 0x7FC00000u : ref_encode(NUM_F32, v, NUM_RND_R, false)) : 0;
                uint64_t got = lane_get(r, 4, j);
                if (got != want && bad++ < 5)
                    check(0, "vcvt %s->f32 %s code 0x%04x: got 0x%08llx want 0x%08llx", tn, part ? "ODD" : "EVEN", code,
                          (unsigned long long)got, (unsigned long long)want);
            }
        }
        check(bad == 0, "vcvt %s->f32 part %d: %ld mismatches", tn, part, bad);
        h_close(&h);
    }
}

/* f32 -> narrow for f32 values at, between and just around every narrow code, every mode and sat */
static void cvt_down(NumFormat nf, const char *tn, int shift)
{
    /* offsets in f32 code units: the code itself, one above, a tie, either side of the tie, the top */
    const uint32_t half = 1u << (shift - 1);
    const uint32_t offs[] = {0, 1, half - 1, half, half + 1, 2 * half - 1};
    for (int ri = 0; ri < 6; ri++)
        for (int sat = 0; sat < 2; sat++)
            for (int part = 0; part < 2; part++) {
                char body[320];
                snprintf(body, sizeof body,
                         "%%r = pto.vcvt %%a, %%m {rnd = \"%s\", sat = \"%s\", part = \"%s\"} : !pto.vreg<64xf32>, "
                         "!pto.mask<b32> -> !pto.vreg<128x%s>",
                         RND[ri], sat ? "SAT" : "NOSAT", part ? "ODD" : "EVEN", tn);
                H h;
                if (h_open(&h, kernel("64xf32", "b32", "i32", body), OP_VCVT, 0)) return;
                long bad = 0;
                for (uint32_t code = 0; code < 65536; code++) {
                    /* the f32 code of the narrow value; for f16 via its exact value */
                    double v = ref_decode(nf, code);
                    uint32_t f = isnan(v) ? (uint32_t)(code & 0x8000) << 16 | 0x7FC00000u | (code & 0x3FF)
                                          : f32_bits(v);
                    if (nf == NUM_BF16) f = code << 16;
                    static uint32_t in[64];
                    static unsigned nin = 0;
                    for (unsigned o = 0; o < 6; o++) {
                        in[nin++] = f + offs[o];
                        if (nin == 64 || (code == 65535 && o == 5)) {
                            uint8_t *a = opnd(&h, 0), *m = opnd(&h, 1);
                            memset(a, 0, 256);
                            for (unsigned i = 0; i < nin; i++) lane_set(a, 4, i, in[i]);
                            memset(m, 0, 32);
                            for (unsigned i = 0; i < 64; i++)
                                if (i % 5 != 3) mask_set(m, 4, i);
                            run(&h);
                            const uint8_t *r = res(&h, 0);
                            for (unsigned i = 0; i < 64; i++) {
                                uint64_t want = 0;
                                if (i % 5 != 3 && i < nin) {
                                    double x = f32_val(in[i]);
                                    want = ref_encode(nf, x, (NumRound)ri, sat != 0);
                                } else if (i % 5 != 3) {
                                    want = ref_encode(nf, 0.0, (NumRound)ri, sat != 0);
                                }
                                uint64_t got = lane_get(r, 2, 2 * i + (unsigned)part);
                                uint64_t other = lane_get(r, 2, 2 * i + 1 - (unsigned)part);
                                if ((got != want || other != 0) && bad++ < 5)
                                    check(0, "vcvt f32->%s rnd=%s sat=%d part=%d in=0x%08x: got 0x%04llx (other 0x%llx) want 0x%04llx",
                                          tn, RND[ri], sat, part, i < nin ? in[i] : 0, (unsigned long long)got,
                                          (unsigned long long)other, (unsigned long long)want);
                            }
                            nin = 0;
                        }
                    }
                }
                check(bad == 0, "vcvt f32->%s rnd=%s sat=%d part=%d: %ld mismatches", tn, RND[ri], sat, part, bad);
                h_close(&h);
            }
}

/* ------------------------------------------------------------------ 2. fast handlers vs generic */

typedef struct FastCase { const char *op, *vt, *gran, *st; } FastCase;

static uint64_t special(ElemKind k, unsigned i)
{
    static const uint32_t f32s[] = {0, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00001u, 0x00000001u,
                                    0x80000001u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x3F800000u, 0xBF800000u, 0x00800000u,
                                    0x7F800001u};
    if (k == EK_F32) return i < 14 ? f32s[i] : rnd64() & 0xFFFFFFFFu;
    uint64_t m = ek_mask(k);
    static const uint64_t ints[] = {0, 1, 2, ~0ull};
    if (i < 4) return ints[i] & m;
    if (i < 6) return (m >> 1) + (i - 4);   /* signed max, signed min */
    return rnd64() & m;
}

static void fast_vs_generic(void)
{
    static const char *const ops[] = {"vadd", "vsub", "vmul", "vdiv", "vmax", "vmin", "vand", "vor", "vxor"};
    static const char *const sops[] = {"vadds", "vsubs", "vmuls", NULL, "vmaxs", "vmins", "vands", "vors", "vxors"};
    static const FastCase types[] = {
        {NULL, "64xf32", "b32", "f32"}, {NULL, "64xi32", "b32", "i32"}, {NULL, "64xui32", "b32", "i32"},
        {NULL, "128xi16", "b16", "i16"}, {NULL, "128xui16", "b16", "i16"}, {NULL, "256xi8", "b8", "i8"},
        {NULL, "256xui8", "b8", "i8"},
    };
    for (unsigned ti = 0; ti < sizeof types / sizeof types[0]; ti++)
        for (unsigned oi = 0; oi < 9; oi++)
            for (int scal = 0; scal < 2; scal++)
                for (int masked = 0; masked < 2; masked++) {
                    const char *opn = scal ? sops[oi] : ops[oi];
                    const char *vt = types[ti].vt;
                    int isf = strcmp(vt, "64xf32") == 0;
                    if (!opn || (oi == 3 && !isf) || (oi >= 6 && isf)) continue;
                    char body[300], mt[40] = "", tl[100];
                    if (masked) snprintf(mt, sizeof mt, ", !pto.mask<%s>", types[ti].gran);
                    if (scal) snprintf(tl, sizeof tl, "!pto.vreg<%s>, %s", vt, types[ti].st);
                    else snprintf(tl, sizeof tl, "!pto.vreg<%s>, !pto.vreg<%s>", vt, vt);
                    snprintf(body, sizeof body, "%%r = pto.%s %%a, %s%s : %s%s -> !pto.vreg<%s>", opn, scal ? "%s" : "%b",
                             masked ? ", %m" : "", tl, mt, vt);
                    char full[32];
                    snprintf(full, sizeof full, "pto.%s", opn);
                    H h;
                    if (h_open(&h, kernel(vt, types[ti].gran, types[ti].st, body), (OpKind)op_lookup(full, (unsigned)strlen(full)), 0))
                        continue;
                    check(h.in->fn != valu_x_ew, "%s %s: no fast handler", opn, vt);
                    ElemKind k = (ElemKind)h.in->imm[1];
                    unsigned e = ek_bytes(k), n = 256 / e;
                    long bad = 0;
                    for (int round = 0; round < 200; round++) {
                        uint8_t *a = opnd(&h, 0);
                        uint8_t *b = scal ? NULL : opnd(&h, 1);
                        for (unsigned i = 0; i < n; i++) {
                            lane_set(a, e, i, special(k, (i + (unsigned)round) % 24));
                            if (b) lane_set(b, e, i, special(k, (i * 7 + (unsigned)round * 3) % 24));
                        }
                        if (scal) fr_set_u64(&h.x, h.in->arg[1], special(k, (unsigned)round % 24));
                        if (masked) {
                            uint8_t *m = opnd(&h, 2);
                            for (unsigned q = 0; q < 32; q++) m[q] = (uint8_t)rnd64();
                            if (round % 3 == 0) memset(m, 0xFF, 32);
                        }
                        uint8_t fast[256], gen[256];
                        memset(res(&h, 0), 0xAB, 256);
                        run(&h);
                        memcpy(fast, res(&h, 0), 256);
                        memset(res(&h, 0), 0xCD, 256);
                        valu_x_ew(&h.x, h.in);
                        memcpy(gen, res(&h, 0), 256);
                        if (memcmp(fast, gen, 256) != 0) {
                            unsigned i = 0;
                            while (i < n && lane_get(fast, e, i) == lane_get(gen, e, i)) i++;
                            if (bad++ < 3)
                                check(0, "%s %s masked=%d lane %u: a=0x%llx b=0x%llx fast 0x%llx generic 0x%llx", opn, vt,
                                      masked, i, (unsigned long long)lane_get(a, e, i),
                                      (unsigned long long)(b ? lane_get(b, e, i) : fr_u64(&h.x, h.in->arg[1])),
                                      (unsigned long long)lane_get(fast, e, i), (unsigned long long)lane_get(gen, e, i));
                        }
                    }
                    check(bad == 0, "%s %s masked=%d scalar=%d: %ld mismatching rounds", opn, vt, masked, scal, bad);
                    h_close(&h);
                }
}

/* ------------------------------------------------------------------ 4. handler timing (informational) */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void time_vadd(void)
{
    H h;
    if (h_open(&h, kernel("64xf32", "b32", "f32",
                          "%r = pto.vadd %a, %b, %m : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>"),
               OP_VADD, 0))
        return;
    uint8_t *a = opnd(&h, 0), *b = opnd(&h, 1), *m = opnd(&h, 2);
    for (unsigned i = 0; i < 64; i++) {
        float x = (float)i * 0.5f, y = 1.0f - (float)i;
        memcpy(a + 4 * i, &x, 4);
        memcpy(b + 4 * i, &y, 4);
    }
    const long reps = 2000000;
    for (int variant = 0; variant < 3; variant++) {
        memset(m, 0, 32);
        for (unsigned i = 0; i < 64; i++)
            if (variant == 0 || (variant == 1 && i < 40)) mask_set(m, 4, i);
        ExecFn fn = variant == 2 ? valu_x_ew : h.in->fn;
        if (variant == 2) memset(m, 0x11, 32);
        double best = 1e9;
        for (int k = 0; k < 3; k++) {
            double t0 = now_s();
            for (long r = 0; r < reps; r++) {
                fn(&h.x, h.in);
                __asm__ __volatile__("" : : "r"(h.frame) : "memory");
            }
            double t = now_s() - t0;
            if (t < best) best = t;
        }
        printf("timing: vadd f32 %s: %.1f ns per 64-lane op\n",
               variant == 0 ? "fast handler, all lanes active" : variant == 1 ? "fast handler, 40 of 64 lanes active"
                                                                            : "generic lane-by-lane handler",
               best / (double)reps * 1e9);
    }
    h_close(&h);
}

int main(void)
{
    if (!ref_init()) {
        printf("ref_init failed\n0 passed, 1 failed\n");
        return 1;
    }
    cvt_up(NUM_F16, "f16");
    cvt_up(NUM_BF16, "bf16");
    cvt_down(NUM_F16, "f16", 13);
    cvt_down(NUM_BF16, "bf16", 16);
    fast_vs_generic();
    time_vadd();
    if (n_fail > 30) printf("... %ld more failures not shown\n", n_fail - 30);
    printf("%ld passed, %ld failed\n", n_pass, n_fail);
    return n_fail != 0;
}
