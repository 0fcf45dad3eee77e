/* test_valu.c — unit tests of the vector compute family (src/vec_alu*.c), below the kernel level:
 * a tiny kernel is parsed, verified and lowered, the lowered instruction of the op under test is found
 * and its handler is run on operands written straight into a frame.
 *
 *  1. vcvt exhaustively over all 65,536 f16 and bf16 codes: to f32 (EVEN and ODD) and back with every
 *     rounding mode, with and without saturation, also for the f32 values between neighbouring codes
 *     (exact ties and one ulp either side). Expected values come from tests/unit/ref_num.c, an oracle
 *     written without src/num.c (table search over decoded values).
 *     The direct double -> f16/bf16 rounding of the generic path is checked against num_convert.
 *  2. Every fast SIMD handler (vec_alu_fast.c) against the generic lane-by-lane handler on random and
 *     special inputs, masked and unmasked, vector-vector and vector-scalar.
 *     The reduction, vdup and vexpdif fast handlers (vec_alu_red_fast.c) against their generic handlers.
 *  3. Hand-computed spot checks of a few readings (zeroing, NaN, signed zeros, carries).
 *  4. The time per 64-lane f32 vadd of the fast handler (informational).
 *  5. lane_cvt_run's tight conversion loops against the oracle.
 * The last line is "N passed, M failed". */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "ref_num.h"
#include "exec/machine.h"
#include "lower/lower.h"
#include "ops/vec/vec_alu_int.h"


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
    FindOp fn = {OP_FUNC, 0, NULL};
    ir_walk(h->m->top, find_op, &fn);
    if (!fn.found) goto fail;
    h->p = lower_program(h->ctx, h->m, fn.found);
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
    (void)check_fail_shown();
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
             /* PAT_ALLF, not PAT_ALL: the tests overwrite the mask slot, and a constant all-lanes mask would
                let lowering pick the unmasked handler */
             "      %%m = pto.pset_%s \"PAT_ALLF\" : !pto.mask<%s>\n"
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
                    CHECK(0, "vcvt %s->f32 %s code 0x%04x: got 0x%08llx want 0x%08llx", tn, part ? "ODD" : "EVEN", code,
                          (unsigned long long)got, (unsigned long long)want);
            }
        }
        CHECK(bad == 0, "vcvt %s->f32 part %d: %ld mismatches", tn, part, bad);
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
                                    CHECK(0, "vcvt f32->%s rnd=%s sat=%d part=%d in=0x%08x: got 0x%04llx (other 0x%llx) want 0x%04llx",
                                          tn, RND[ri], sat, part, i < nin ? in[i] : 0, (unsigned long long)got,
                                          (unsigned long long)other, (unsigned long long)want);
                            }
                            nin = 0;
                        }
                    }
                }
                CHECK(bad == 0, "vcvt f32->%s rnd=%s sat=%d part=%d: %ld mismatches", tn, RND[ri], sat, part, bad);
                h_close(&h);
            }
}

/* ------------------------------------------------------------------ 1b. direct double -> f16/bf16 rounding */

/* fenc's bit-level rounding (vec_alu_int.h) against num_convert, which test_num.c checks against the
   oracle: every code's value, the midpoints to its neighbours and the doubles next to both, plus
   random doubles over the whole range. */
static void fenc_vs_num(void)
{
    static const struct { ElemKind k; NumFormat f; } fm[] = {{EK_F16, NUM_F16}, {EK_BF16, NUM_BF16}};
    for (unsigned fi = 0; fi < 2; fi++) {
        long bad = 0, n = 0;
        for (uint32_t c = 0; c < 65536; c++) {
            double v = num_bits_to_f64(num_convert(fm[fi].f, c, NUM_F64, NUM_RND_R, false));
            double w = num_bits_to_f64(num_convert(fm[fi].f, (c + 1) & 0xFFFF, NUM_F64, NUM_RND_R, false));
            double cand[8] = {v, nextafter(v, INFINITY), nextafter(v, -INFINITY), (v + w) / 2, 0, 0, 0, 0};
            cand[4] = nextafter(cand[3], INFINITY);
            cand[5] = nextafter(cand[3], -INFINITY);
            cand[6] = ldexp((double)(rnd64() >> 11), (int)(rnd64() % 400) - 250 - 53);
            cand[7] = -cand[6];
            for (unsigned q = 0; q < 8; q++) {
                uint64_t want = num_convert(NUM_F64, num_f64_to_bits(cand[q]), fm[fi].f, NUM_RND_R, false);
                uint64_t got = fenc(fm[fi].k, cand[q]);
                n++;
                if (got != want && bad++ < 5)
                    CHECK(0, "fenc %s(%a): got 0x%04llx want 0x%04llx", fi ? "bf16" : "f16", cand[q],
                          (unsigned long long)got, (unsigned long long)want);
            }
        }
        CHECK(bad == 0, "fenc %s: %ld of %ld mismatch", fi ? "bf16" : "f16", bad, n);
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
                    CHECK(h.in->fn != valu_x_ew, "%s %s: no fast handler", opn, vt);
                    ElemKind k = (ElemKind)h.in->imm[EW_EK];
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
                                CHECK(0, "%s %s masked=%d lane %u: a=0x%llx b=0x%llx fast 0x%llx generic 0x%llx", opn, vt,
                                      masked, i, (unsigned long long)lane_get(a, e, i),
                                      (unsigned long long)(b ? lane_get(b, e, i) : fr_u64(&h.x, h.in->arg[1])),
                                      (unsigned long long)lane_get(fast, e, i), (unsigned long long)lane_get(gen, e, i));
                        }
                    }
                    CHECK(bad == 0, "%s %s masked=%d scalar=%d: %ld mismatching rounds", opn, vt, masked, scal, bad);
                    h_close(&h);
                }
}

/* ------------------------------------------------------------------ 2b. reduction, vdup, vexpdif fast vs generic */

/* f32 lane values for reductions: specials, raw random bits, moderate values with cancellations, subnormals. */
/* How a round draws its lanes: 0 finite moderate values only (sums stay finite and exercise the rounding
   of every partial sum), 1 also subnormals and wide-range finite codes, 2 everything (NaNs, infinities). */
static int red_profile;

static uint32_t red_val(unsigned i)
{
    if (red_profile == 0) {
        float f = (float)((double)(int64_t)(rnd64() % 2000001) - 1000000.0) * (rnd64() % 2 ? 0.001f : 1.7e-5f);
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    if (red_profile == 1) {
        uint32_t u = (uint32_t)rnd64();
        return (u & 0x7F800000u) == 0x7F800000u ? u & 0x807FFFFFu : u;   /* finite: subnormals to the largest */
    }
    switch (rnd64() % 6) {
    case 0: return (uint32_t)special(EK_F32, i % 14);
    case 1: return (uint32_t)rnd64();
    case 2: return (uint32_t)(rnd64() & 0x807FFFFFu);                           /* subnormal or zero */
    case 3: { float f = (float)((double)(int64_t)(rnd64() % 2000001) - 1000000.0) * 0.001f; uint32_t u; memcpy(&u, &f, 4); return u; }
    default: { float f = (float)((double)(rnd64() % 1000) * 0.125 - 62.0); uint32_t u; memcpy(&u, &f, 4); return u; }
    }
}

static void red_fast_vs_generic(void)
{
    static const struct { const char *op, *body; ExecFn gen; int nvec, has_mask; } cases[] = {
        {"vcadd", "%r = pto.vcadd %a, %m : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>", valu_x_red, 1, 1},
        {"vcadd", "%r = pto.vcadd %a : !pto.vreg<64xf32> -> !pto.vreg<64xf32>", valu_x_red, 1, 0},
        {"vcgadd", "%r = pto.vcgadd %a, %m : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>", valu_x_red, 1, 1},
        {"vcpadd", "%r = pto.vcpadd %a, %m : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>", valu_x_red, 1, 1},
        {"vcmax", "%r = pto.vcmax %a, %m : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>", valu_x_red, 1, 1},
        {"vcmin", "%r = pto.vcmin %a, %m : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>", valu_x_red, 1, 1},
        {"vcgmax", "%r = pto.vcgmax %a, %m : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>", valu_x_red, 1, 1},
        {"vcgmin", "%r = pto.vcgmin %a, %m : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>", valu_x_red, 1, 1},
        {"vdup", "%r = pto.vdup %a, %m : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>", valu_x_vdup, 1, 1},
        {"vdup", "%r = pto.vdup %a, %m {position = \"HIGHEST\"} : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>", valu_x_vdup, 1, 1},
        {"vdup", "%r = pto.vdup %s, %m : f32, !pto.mask<b32> -> !pto.vreg<64xf32>", valu_x_vdup, 0, 1},
        {"vexpdif", "%r = pto.vexpdif %a, %b, %m : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>", valu_x_vexpdif, 2, 1},
    };
    for (unsigned ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        char full[32];
        snprintf(full, sizeof full, "pto.%s", cases[ci].op);
        H h;
        if (h_open(&h, kernel("64xf32", "b32", "f32", cases[ci].body), (OpKind)op_lookup(full, (unsigned)strlen(full)), 0))
            continue;
        CHECK(h.in->fn != cases[ci].gen, "%s: no fast handler", cases[ci].body);
        long bad = 0;
        for (int round = 0; round < 3000; round++) {
            red_profile = round % 3;
            for (int v = 0; v < cases[ci].nvec; v++)
                for (unsigned i = 0; i < 64; i++) lane_set(opnd(&h, (unsigned)v), 4, i, red_val(i + (unsigned)round));
            if (round % 5 == 1 && cases[ci].nvec) {   /* repeated extremes: ties, the first occurrence's index */
                uint32_t t = red_val(0);
                for (unsigned i = 0; i < 64; i += 1 + (unsigned)(rnd64() % 5)) lane_set(opnd(&h, 0), 4, i, t);
            }
            if (!cases[ci].nvec) fr_set_u64(&h.x, h.in->arg[0], rnd64() % 3 ? red_val((unsigned)round) : rnd64());
            if (cases[ci].has_mask) {
                uint8_t *m = opnd(&h, (unsigned)(cases[ci].nvec ? cases[ci].nvec : 1));
                for (unsigned q = 0; q < 32; q++) m[q] = (uint8_t)rnd64();
                if (round % 4 == 0) memset(m, 0xFF, 32);
                if (round % 17 == 3) memset(m, 0, 32);
            }
            uint8_t fast[256], gen[256];
            memset(res(&h, 0), 0xAB, 256);
            run(&h);
            memcpy(fast, res(&h, 0), 256);
            memset(res(&h, 0), 0xCD, 256);
            cases[ci].gen(&h.x, h.in);
            memcpy(gen, res(&h, 0), 256);
            if (memcmp(fast, gen, 256) != 0 && bad++ < 3) {
                unsigned i = 0;
                while (i < 64 && lane_get(fast, 4, i) == lane_get(gen, 4, i)) i++;
                CHECK(0, "%s round %d lane %u: fast 0x%llx generic 0x%llx", cases[ci].body, round, i,
                      (unsigned long long)lane_get(fast, 4, i), (unsigned long long)lane_get(gen, 4, i));
            }
        }
        CHECK(bad == 0, "%s: %ld mismatching rounds of 3000", cases[ci].body, bad);
        h_close(&h);
    }
}

/* f16 lane values: specials (±0, ±inf, NaNs, subnormals, max), raw bits, moderate values. */
static uint16_t h_val(void)
{
    static const uint16_t sp[] = {0, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFE01, 0x7C01, 0x0001, 0x8001, 0x7BFF, 0xFBFF, 0x3C00, 0x0400, 0x03FF};
    if (red_profile == 0) return (uint16_t)((rnd64() & 0x8000u) | (rnd64() % 0x7C00u));   /* any finite code */
    if (red_profile == 1) return (uint16_t)((rnd64() & 0x8000u) | (0x2000u + rnd64() % 0x3000u));
    switch (rnd64() % 4) {
    case 0: return sp[rnd64() % 14];
    case 1: return (uint16_t)rnd64();
    default: return (uint16_t)((rnd64() & 0x8000u) | (0x2000u + rnd64() % 0x3000u));   /* about 2^-7 .. 2^5 */
    }
}

static void red16_fast_vs_generic(void)
{
    static const char *const ops[] = {"vcadd", "vcgadd", "vcmax", "vcmin", "vcgmax", "vcgmin"};
    for (unsigned oi = 0; oi < 6; oi++)
        for (int masked = 0; masked < 2; masked++) {
            char body[200], full[32];
            if (masked) snprintf(body, sizeof body, "%%r = pto.%s %%a, %%m : !pto.vreg<128xf16>, !pto.mask<b16> -> !pto.vreg<128xf16>", ops[oi]);
            else snprintf(body, sizeof body, "%%r = pto.%s %%a : !pto.vreg<128xf16> -> !pto.vreg<128xf16>", ops[oi]);
            snprintf(full, sizeof full, "pto.%s", ops[oi]);
            H h;
            if (h_open(&h, kernel("128xf16", "b16", "f16", body), (OpKind)op_lookup(full, (unsigned)strlen(full)), 0)) continue;
            CHECK(h.in->fn != valu_x_red, "%s: no fast handler", body);
            long bad = 0;
            for (int round = 0; round < 3000; round++) {
                red_profile = round % 3;
                for (unsigned i = 0; i < 128; i++) lane_set(opnd(&h, 0), 2, i, h_val());
                if (round % 5 == 1) {   /* repeated extremes and exact cancellations */
                    uint16_t t = h_val();
                    for (unsigned i = 0; i < 128; i += 1 + (unsigned)(rnd64() % 5)) lane_set(opnd(&h, 0), 2, i, (i & 1) ? t ^ 0x8000u : t);
                }
                if (masked) {
                    uint8_t *m = opnd(&h, 1);
                    for (unsigned q = 0; q < 32; q++) m[q] = (uint8_t)rnd64();
                    if (round % 4 == 0) memset(m, 0xFF, 32);
                }
                uint8_t fast[256], gen[256];
                memset(res(&h, 0), 0xAB, 256);
                run(&h);
                memcpy(fast, res(&h, 0), 256);
                memset(res(&h, 0), 0xCD, 256);
                valu_x_red(&h.x, h.in);
                memcpy(gen, res(&h, 0), 256);
                if (memcmp(fast, gen, 256) != 0 && bad++ < 3) {
                    unsigned i = 0;
                    while (i < 128 && lane_get(fast, 2, i) == lane_get(gen, 2, i)) i++;
                    CHECK(0, "%s round %d lane %u: fast 0x%llx generic 0x%llx", body, round, i,
                          (unsigned long long)lane_get(fast, 2, i), (unsigned long long)lane_get(gen, 2, i));
                }
            }
            CHECK(bad == 0, "%s: %ld mismatching rounds of 3000", body, bad);
            h_close(&h);
        }
}

/* ------------------------------------------------------------------ 3. hand-computed spot checks */

static int prep(H *h, const char *vt, const char *gran, const char *st, const char *opname, const char *body)
{
    char full[40];
    snprintf(full, sizeof full, "pto.%s", opname);
    return h_open(h, kernel(vt, gran, st, body), (OpKind)op_lookup(full, (unsigned)strlen(full)), 0);
}

static uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static void all_lanes(uint8_t *m, unsigned g) { memset(m, 0, 32); for (unsigned i = 0; i < 256 / g; i++) mask_set(m, g, i); }

static void spot_checks(void)
{
    H h;
    /* vabs i16 wraps: |-32768| = -32768 (resolutions 2.5) */
    if (!prep(&h, "128xi16", "b16", "i16", "vabs", "%r = pto.vabs %a, %m : !pto.vreg<128xi16>, !pto.mask<b16> -> !pto.vreg<128xi16>")) {
        uint8_t *a = opnd(&h, 0);
        all_lanes(opnd(&h, 1), 2);
        lane_set(a, 2, 0, 0x8000); lane_set(a, 2, 1, (uint16_t)-5); lane_set(a, 2, 2, 7);
        run(&h);
        CHECK(lane_get(res(&h, 0), 2, 0) == 0x8000 && lane_get(res(&h, 0), 2, 1) == 5 && lane_get(res(&h, 0), 2, 2) == 7,
              "vabs i16 wrap");
        h_close(&h);
    }
    /* vadd f32: zeroing, canonical NaN, signed zeros */
    if (!prep(&h, "64xf32", "b32", "f32", "vadd", "%r = pto.vadd %a, %b, %m : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>")) {
        uint8_t *a = opnd(&h, 0), *b = opnd(&h, 1), *m = opnd(&h, 2);
        memset(m, 0, 32);
        for (unsigned i = 0; i < 5; i++) mask_set(m, 4, i);
        lane_set(a, 4, 0, fb(INFINITY)); lane_set(b, 4, 0, fb(-INFINITY));
        lane_set(a, 4, 1, 0x80000000u); lane_set(b, 4, 1, 0x80000000u);
        lane_set(a, 4, 2, 0xFFC12345u); lane_set(b, 4, 2, fb(1.0f));
        lane_set(a, 4, 3, fb(1.5f)); lane_set(b, 4, 3, fb(2.25f));
        lane_set(a, 4, 4, 0x80000000u); lane_set(b, 4, 4, 0);
        lane_set(a, 4, 5, fb(1.0f)); lane_set(b, 4, 5, fb(1.0f));
        run(&h);
        const uint8_t *r = res(&h, 0);
        CHECK(lane_get(r, 4, 0) == 0x7FC00000u && lane_get(r, 4, 1) == 0x80000000u && lane_get(r, 4, 2) == 0x7FC00000u &&
              lane_get(r, 4, 3) == fb(3.75f) && lane_get(r, 4, 4) == 0 && lane_get(r, 4, 5) == 0,
              "vadd f32 specials/zeroing");
        h_close(&h);
    }
    /* vmax/vmin f32: NaN wins, +0 > -0 */
    for (int mx = 0; mx < 2; mx++) {
        const char *opn = mx ? "vmax" : "vmin";
        char body[200];
        snprintf(body, sizeof body, "%%r = pto.%s %%a, %%b : !pto.vreg<64xf32>, !pto.vreg<64xf32> -> !pto.vreg<64xf32>", opn);
        if (prep(&h, "64xf32", "b32", "f32", opn, body)) continue;
        uint8_t *a = opnd(&h, 0), *b = opnd(&h, 1);
        lane_set(a, 4, 0, 0x80000000u); lane_set(b, 4, 0, 0);
        lane_set(a, 4, 1, 0); lane_set(b, 4, 1, 0x80000000u);
        lane_set(a, 4, 2, fb(1.0f)); lane_set(b, 4, 2, 0x7F800001u);
        lane_set(a, 4, 3, fb(-2.0f)); lane_set(b, 4, 3, fb(3.0f));
        run(&h);
        const uint8_t *r = res(&h, 0);
        uint64_t z = mx ? 0 : 0x80000000u;
        CHECK(lane_get(r, 4, 0) == z && lane_get(r, 4, 1) == z && lane_get(r, 4, 2) == 0x7FC00000u &&
              lane_get(r, 4, 3) == (mx ? fb(3.0f) : fb(-2.0f)), "%s f32 signed zeros / NaN", opn);
        h_close(&h);
    }
    /* vcmp lt f32: subnormals unflushed, ordered, -0 < +0 false, seed gating (2.5) */
    if (!prep(&h, "64xf32", "b32", "f32", "vcmp", "%r = pto.vcmp %a, %b, %m, \"lt\" : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.mask<b32>")) {
        uint8_t *a = opnd(&h, 0), *b = opnd(&h, 1), *m = opnd(&h, 2);
        memset(m, 0xFF, 32);
        m[2] = 0;   /* lanes 4 and 5 off */
        lane_set(a, 4, 0, 0); lane_set(b, 4, 0, 1);
        lane_set(a, 4, 1, 0x7FC00000u); lane_set(b, 4, 1, fb(1.0f));
        lane_set(a, 4, 2, 0x80000000u); lane_set(b, 4, 2, 0);
        lane_set(a, 4, 3, fb(-1.0f)); lane_set(b, 4, 3, fb(1.0f));
        lane_set(a, 4, 4, fb(-1.0f)); lane_set(b, 4, 4, fb(1.0f));
        run(&h);
        const uint8_t *r = res(&h, 0);
        CHECK(r[0] == 0x01 && r[1] == 0x10 && r[2] == 0 && r[31] == 0, "vcmp lt f32: image %02x %02x %02x", r[0], r[1], r[2]);
        h_close(&h);
    }
    /* vsubc / vsubcs carry = no borrow (Q29) */
    if (!prep(&h, "64xui32", "b32", "i32", "vsubcs", "%r, %c2 = pto.vsubcs %a, %b, %m, %m : !pto.vreg<64xui32>, !pto.vreg<64xui32>, !pto.mask<b32>, !pto.mask<b32> -> !pto.vreg<64xui32>, !pto.mask<b32>")) {
        uint8_t *a = opnd(&h, 0), *b = opnd(&h, 1), *m = opnd(&h, 2);
        memset(m, 0, 32);
        mask_set(m, 4, 0); mask_set(m, 4, 1);   /* cin = mask: lanes 0, 1 carry in; lanes 2, 3 inactive */
        lane_set(a, 4, 0, 5); lane_set(b, 4, 0, 5);
        lane_set(a, 4, 1, 4); lane_set(b, 4, 1, 5);
        run(&h);
        const uint8_t *r = res(&h, 0), *c = res(&h, 1);
        CHECK(lane_get(r, 4, 0) == 0 && lane_get(r, 4, 1) == 0xFFFFFFFFu && c[0] == 0x01 && lane_get(r, 4, 2) == 0,
              "vsubcs: r0 %llx r1 %llx carry %02x", (unsigned long long)lane_get(r, 4, 0),
              (unsigned long long)lane_get(r, 4, 1), c[0]);
        h_close(&h);
    }
    /* vcvt si64 -> f32 R: 2^24+1 -> 2^24, 2^24+3 -> 2^24+4 (Q26), EVEN puts result j in lane 2j */
    if (!prep(&h, "32xi64", "b32", "i32", "vcvt", "%r = pto.vcvt %a, %m {rnd = \"R\", part = \"EVEN\"} : !pto.vreg<32xi64>, !pto.mask<b32> -> !pto.vreg<64xf32>")) {
        uint8_t *a = opnd(&h, 0);
        all_lanes(opnd(&h, 1), 4);
        lane_set(a, 8, 0, (1u << 24) + 1); lane_set(a, 8, 1, (1u << 24) + 3); lane_set(a, 8, 2, (uint64_t)-((1ll << 24) + 1));
        run(&h);
        const uint8_t *r = res(&h, 0);
        CHECK(lane_get(r, 4, 0) == fb(16777216.0f) && lane_get(r, 4, 2) == fb(16777220.0f) &&
              lane_get(r, 4, 4) == fb(-16777216.0f) && lane_get(r, 4, 1) == 0 && lane_get(r, 4, 3) == 0, "vcvt si64->f32");
        h_close(&h);
    }
    /* vtrc (Q27): R -2.5 -> -2, 2.5 -> 2, 3.5 -> 4; F -2.5 -> -3 */
    for (int mode = 0; mode < 2; mode++) {
        char body[200];
        snprintf(body, sizeof body, "%%r = pto.vtrc %%a, %%m, \"%s\" : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>",
                 mode ? "F" : "R");
        if (prep(&h, "64xf32", "b32", "f32", "vtrc", body)) continue;
        uint8_t *a = opnd(&h, 0);
        all_lanes(opnd(&h, 1), 4);
        lane_set(a, 4, 0, fb(-2.5f)); lane_set(a, 4, 1, fb(2.5f)); lane_set(a, 4, 2, fb(3.5f)); lane_set(a, 4, 3, 0x7FC01234u);
        run(&h);
        const uint8_t *r = res(&h, 0);
        int ok = mode ? lane_get(r, 4, 0) == fb(-3.0f) && lane_get(r, 4, 1) == fb(2.0f) && lane_get(r, 4, 2) == fb(3.0f)
                      : lane_get(r, 4, 0) == fb(-2.0f) && lane_get(r, 4, 1) == fb(2.0f) && lane_get(r, 4, 2) == fb(4.0f);
        CHECK(ok && lane_get(r, 4, 3) == 0x7FC01234u, "vtrc %s", mode ? "F" : "R");
        h_close(&h);
    }
    /* vcpadd pairwise, vcgadd groups in lanes 0..7, vcmax index in lane 1 (Q28, 2.6) */
    if (!prep(&h, "64xf32", "b32", "f32", "vcpadd", "%r = pto.vcpadd %a, %m : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>")) {
        uint8_t *a = opnd(&h, 0), *m = opnd(&h, 1);
        all_lanes(m, 4);
        for (unsigned i = 0; i < 64; i++) lane_set(a, 4, i, fb((float)i));
        memset(m + 8, 0, 24);   /* lanes 16.. inactive */
        run(&h);
        const uint8_t *r = res(&h, 0);
        CHECK(lane_get(r, 4, 0) == fb(1.0f) && lane_get(r, 4, 7) == fb(29.0f) && lane_get(r, 4, 8) == 0 &&
              lane_get(r, 4, 32) == 0, "vcpadd");
        h_close(&h);
    }
    if (!prep(&h, "64xf32", "b32", "f32", "vcgadd", "%r = pto.vcgadd %a : !pto.vreg<64xf32> -> !pto.vreg<64xf32>")) {
        uint8_t *a = opnd(&h, 0);
        for (unsigned i = 0; i < 64; i++) lane_set(a, 4, i, fb((float)(i / 8 + 1)));
        run(&h);
        const uint8_t *r = res(&h, 0);
        CHECK(lane_get(r, 4, 0) == fb(8.0f) && lane_get(r, 4, 7) == fb(64.0f) && lane_get(r, 4, 8) == 0, "vcgadd");
        h_close(&h);
    }
    if (!prep(&h, "64xf32", "b32", "f32", "vcmax", "%r = pto.vcmax %a, %m : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>")) {
        uint8_t *a = opnd(&h, 0), *m = opnd(&h, 1);
        all_lanes(m, 4);
        for (unsigned i = 0; i < 64; i++) lane_set(a, 4, i, fb((float)(i % 10)));
        lane_set(a, 4, 40, fb(50.0f));
        m[20] = 0;   /* lane 40 inactive: the max is 9 at lane 9 */
        run(&h);
        const uint8_t *r = res(&h, 0);
        CHECK(lane_get(r, 4, 0) == fb(9.0f) && lane_get(r, 4, 1) == 9 && lane_get(r, 4, 2) == 0, "vcmax");
        h_close(&h);
    }
    /* vmull signless i32 = signed (Q31) */
    if (!prep(&h, "64xi32", "b32", "i32", "vmull", "%lo, %hi = pto.vmull %a, %b, %m : !pto.vreg<64xi32>, !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<64xi32>, !pto.vreg<64xi32>")) {
        uint8_t *a = opnd(&h, 0), *b = opnd(&h, 1);
        all_lanes(opnd(&h, 2), 4);
        lane_set(a, 4, 0, 0xFFFFFFFFu); lane_set(b, 4, 0, 1);
        lane_set(a, 4, 1, 0x10000u); lane_set(b, 4, 1, 0x10000u);
        run(&h);
        CHECK(lane_get(res(&h, 0), 4, 0) == 0xFFFFFFFFu && lane_get(res(&h, 1), 4, 0) == 0xFFFFFFFFu &&
              lane_get(res(&h, 0), 4, 1) == 0 && lane_get(res(&h, 1), 4, 1) == 1, "vmull");
        h_close(&h);
    }
    /* vci si8 wraps (2.6) */
    if (!prep(&h, "256xsi8", "b8", "i8", "vci", "%r = pto.vci %s {order = \"ASC\"} : i8 -> !pto.vreg<256xsi8>")) {
        fr_set_u64(&h.x, h.in->arg[0], 120);
        run(&h);
        const uint8_t *r = res(&h, 0);
        CHECK(r[0] == 120 && r[7] == 127 && r[8] == 0x80 && r[255] == (uint8_t)(120 + 255), "vci si8 wrap");
        h_close(&h);
    }
    /* vselr idx mod N (Q33) */
    if (!prep(&h, "64xf32", "b32", "f32", "vselr", "%i = pto.vbitcast %b : !pto.vreg<64xf32> -> !pto.vreg<64xi32>\n"
                                                      "      %r = pto.vselr %a, %i : !pto.vreg<64xf32>, !pto.vreg<64xi32> -> !pto.vreg<64xf32>")) {
        uint8_t *a = opnd(&h, 0), *idx = opnd(&h, 1);
        for (unsigned i = 0; i < 64; i++) { lane_set(a, 4, i, 1000 + i); lane_set(idx, 4, i, 63 - i); }
        lane_set(idx, 4, 5, 64 + 3);
        run(&h);
        const uint8_t *r = res(&h, 0);
        CHECK(lane_get(r, 4, 0) == 1063 && lane_get(r, 4, 5) == 1003, "vselr");
        h_close(&h);
    }
    /* vshr: arithmetic for si16, logical for ui16, counts >= width (2.5) */
    for (int u = 0; u < 2; u++) {
        char body[200];
        const char *vt = u ? "128xui16" : "128xsi16";
        snprintf(body, sizeof body, "%%r = pto.vshr %%a, %%b : !pto.vreg<%s>, !pto.vreg<%s> -> !pto.vreg<%s>", vt, vt, vt);
        if (prep(&h, vt, "b16", "i16", "vshr", body)) continue;
        uint8_t *a = opnd(&h, 0), *b = opnd(&h, 1);
        lane_set(a, 2, 0, 0x8000); lane_set(b, 2, 0, 15);
        lane_set(a, 2, 1, 0x8000); lane_set(b, 2, 1, 16);
        lane_set(a, 2, 2, 0x4000); lane_set(b, 2, 2, 100);
        run(&h);
        const uint8_t *r = res(&h, 0);
        CHECK(lane_get(r, 2, 0) == (u ? 1u : 0xFFFFu) && lane_get(r, 2, 1) == (u ? 0u : 0xFFFFu) && lane_get(r, 2, 2) == 0,
              "vshr %s", vt);
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

/* 5. lane_cvt_run's tight loops (the VMI and tile conversions) against the oracle: f32 -> f16 nearest-even
   with and without saturation over every 97th f32 code and the codes around each f16 boundary, and
   bf16 -> f32 over every bf16 code. */
static void cvt_run_vs_oracle(void)
{
    enum { N = 4096 };
    static uint32_t src[N];
    static uint16_t out[N];
    long bad = 0, n = 0;
    for (uint64_t base = 0; base < (1ull << 32); base += 97ull * N) {
        for (unsigned i = 0; i < N; i++) src[i] = (uint32_t)(base + 97ull * i);
        for (int sat = 0; sat < 2; sat++) {
            lane_cvt_run(EK_F32, EK_F16, (uint8_t *)out, (const uint8_t *)src, N, NUM_RND_R, sat);
            for (unsigned i = 0; i < N; i++) {
                float f;
                memcpy(&f, &src[i], 4);
                uint64_t want = ref_encode(NUM_F16, (double)f, NUM_RND_R, sat);
                n++;
                if (out[i] != want && bad++ < 5) CHECK(0, "lane_cvt_run f32 0x%08x -> f16 sat=%d: 0x%04x, oracle 0x%04x", src[i], sat, out[i], (unsigned)want);
            }
        }
    }
    for (uint32_t c = 0; c < 0x10000; c++) {   /* every f16 code's f32 value and its two f32 neighbours */
        for (int d = -1; d <= 1; d++) {
            double v = ref_decode(NUM_F16, c);
            float f = (float)v;
            uint32_t x;
            memcpy(&x, &f, 4);
            x = (uint32_t)((int64_t)x + d);
            memcpy(&f, &x, 4);
            uint16_t r;
            lane_cvt_run(EK_F32, EK_F16, (uint8_t *)&r, (const uint8_t *)&x, 1, NUM_RND_R, 1);
            n++;
            if (r != ref_encode(NUM_F16, (double)f, NUM_RND_R, 1) && bad++ < 5) CHECK(0, "lane_cvt_run f32 0x%08x near f16 0x%04x", x, c);
        }
    }
    static uint16_t bsrc[0x10000];
    static uint32_t bout[0x10000];
    for (uint32_t c = 0; c < 0x10000; c++) bsrc[c] = (uint16_t)c;
    lane_cvt_run(EK_BF16, EK_F32, (uint8_t *)bout, (const uint8_t *)bsrc, 0x10000, NUM_RND_R, 0);
    for (uint32_t c = 0; c < 0x10000; c++) {
        uint64_t want = ref_encode(NUM_F32, ref_decode(NUM_BF16, c), NUM_RND_R, 0);
        n++;
        if (bout[c] != want && bad++ < 5) CHECK(0, "lane_cvt_run bf16 0x%04x -> f32: 0x%08x, oracle 0x%08x", c, bout[c], (unsigned)want);
    }
    CHECK(bad == 0, "lane_cvt_run against the oracle: %ld of %ld conversions differ", bad, n);
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
    fenc_vs_num();
    fast_vs_generic();
    red_fast_vs_generic();
    red16_fast_vs_generic();
    spot_checks();
    cvt_run_vs_oracle();
    time_vadd();
    return check_finish();
}
