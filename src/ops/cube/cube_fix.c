/* cube_fix.c — FIXPIPE writeback: pto.mte_l0c_l1, pto.mte_l0c_gm, pto.mte_l0c_ub.
 *
 * Per element (isa-notes §4.10, resolutions Q37, §2.7): read the accumulator at L0C element
 * ((n/16)·src_stride + m)·16 + n%16 (Q36) -> pre_quant -> pre_relu -> convert to the destination type
 * under sat/nosat -> clip (min, in the destination type) -> write at the layout address (nz2nd, nz2dn,
 * NZ) of the destination, possibly split between the two AIVs' UBs, or combine atomically into GM. The
 * whole pattern repeats loop3.count times. Everything is checked before the first byte is written. */
#include "cube_int.h"
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

enum { L_NZ, L_ND, L_DN, L_NZNZ };                 /* layouts */
enum { S_DEFAULT, S_SAT, S_SAT_NAN, S_NOSAT };      /* saturation clause */
enum { Q_NONE, Q_CONV, Q_SCALE };                   /* quantisation kinds */
enum { R_NONE, R_NORMAL, R_SCALAR, R_VECTOR };      /* relu kinds */
enum { SP_NONE, SP_M, SP_N };                       /* mte_l0c_ub split modes */
enum { AO_NONE, AO_ADD, AO_MAX, AO_MIN };

typedef struct FixExt {
    int8_t src, dst, m, n, ss, ds, sid, l2c, sub, qp, rp, clip, dnss, nzsplit, l3c, l3s, l3d;
    uint8_t space;      /* AS_GM / AS_L1 / AS_UB */
    uint8_t acc_int;    /* 32-bit integer accumulators */
    uint8_t qkind, qvec;
    int8_t qfmt;        /* scalar quant payload format */
    uint8_t qdirect;    /* vector quant payload: 0 the 8-byte rows, 1 one element of format qdfmt per column */
    int8_t qdfmt;
    uint8_t rkind;
    int8_t rfmt;        /* scalar relu slope format */
    uint8_t layout, sat, split, atomic;
    CElem ed, eclip;
} FixExt;

/* ---------------------------------------------------------------- element pipeline */

typedef struct FixRun {
    const FixExt *fe;
    const uint8_t *qfb, *rfb;  /* FB parameter rows (vector quant / vector relu) */
    float qs, ra;              /* scalar scale / slope */
    int ieee;                  /* float conversions keep inf/NaN (no saturation) */
    uint64_t clip_bits;        /* clip value in the destination encoding */
    int64_t clip_int;
} FixRun;

/* f32 vector quant parameter of channel n: low 32 bits of the 8-byte row, mantissa bits 12..0 ignored (Q37). */
static inline float q_param(const uint8_t *fb, uint64_t n)
{
    uint32_t w;
    memcpy(&w, fb + n * 8, 4);
    return num_bits_to_f32(w & ~0x1FFFu);
}

/* The same parameter from a direct payload (a5 pipe epilogues: one f16 / bf16 / f32 element per column, widened to
   f32, mantissa bits 12..0 cleared as the row form's; docs/semantics.md "FIXPIPE epilogue of a cross-core pipe"). */
static inline float q_param_direct(const FixExt *fe, const uint8_t *fb, uint64_t n)
{
    NumFormat f = (NumFormat)fe->qdfmt;
    unsigned e = f == NUM_F32 ? 4 : 2;
    uint64_t b = 0;
    memcpy(&b, fb + n * e, e);
    uint32_t w = f == NUM_F32 ? (uint32_t)b : (uint32_t)num_convert(f, b, NUM_F32, NUM_RND_R, false);
    return num_bits_to_f32(w & ~0x1FFFu);
}

/* The conversions of the common destinations, inline (they give what num_convert gives: round to nearest
   even; sat: NaN -> +0, +-inf and overflow -> +-largest finite; otherwise NaN -> the canonical NaN and
   overflow -> +-inf). */
static inline uint64_t to_f16(uint32_t x, int sat)
{
    uint32_t sign = (x >> 16) & 0x8000u, ax = x & 0x7FFFFFFFu;
    if (ax > 0x7F800000u) return sat ? 0 : 0x7E00u;
    if (ax >= 0x477FF000u) return sign | (sat ? 0x7BFFu : 0x7C00u);   /* 65520 and up round past 65504 */
    if (ax >= 0x38800000u) {                                             /* normal: 2^-14 and up */
        uint32_t m = ax - 0x38000000u;
        return sign | ((m + 0xFFFu + ((m >> 13) & 1u)) >> 13);
    }
    uint32_t e = ax >> 23;
    if (e < 102) return sign;                                            /* below 2^-25: zero */
    uint32_t mant = (ax & 0x7FFFFFu) | 0x800000u, sh = 126 - e;        /* subnormal: units of 2^-24 */
    uint32_t r = mant >> sh, rem = mant & ((1u << sh) - 1), half = 1u << (sh - 1);
    return sign | (r + (rem > half || (rem == half && (r & 1u))));
}

static inline uint64_t to_bf16(uint32_t x, int sat)
{
    uint32_t ax = x & 0x7FFFFFFFu;
    if (ax > 0x7F800000u) return sat ? 0 : 0x7FC0u;
    uint32_t r = (x + 0x7FFFu + ((x >> 16) & 1u)) >> 16;
    if (sat && (r & 0x7FFFu) == 0x7F80u) r = (r & 0x8000u) | 0x7F7Fu;   /* inf, or rounded past the largest */
    return r;
}

/* f32 -> integer of `bits` (<= 32) bits: round to nearest even, clamp to the range, NaN -> 0 (num_to_int with
   sat). Doubles hold every f32 and both bounds exactly; below 2^51 adding and subtracting 1.5 * 2^52 rounds
   to an integer, ties to even (round-to-nearest is the launch's mode). */
static inline uint64_t to_int(float v, unsigned bits, int is_signed)
{
    if (v != v) return 0;
    double d = v, lo = is_signed ? -(double)(1ull << (bits - 1)) : 0.0;
    double hi = is_signed ? (double)((1ull << (bits - 1)) - 1) : (double)((1ull << bits) - 1);
    if (fabs(d) < 0x1p51) d = (d + 0x1.8p52) - 0x1.8p52;
    d = d < lo ? lo : d > hi ? hi : d;
    return (uint64_t)(int64_t)d & ((1ull << bits) - 1);
}

/* Produces the destination bit pattern of accumulator value `acc` for output column n. */
static inline uint64_t fix_value(const FixRun *fr, uint32_t acc, uint64_t n)
{
    const FixExt *fe = fr->fe;
    CElem ed = fe->ed;
    if (fe->acc_int && fe->qkind == Q_NONE) {
        /* integer accumulators written as 32-bit integers */
        int64_t v = (int32_t)acc;
        if (fe->rkind == R_NORMAL && v < 0) v = 0;
        if (fe->eclip.bytes && v > fr->clip_int) v = fr->clip_int;
        return (uint64_t)v & 0xFFFFFFFFu;
    }
    float v = fe->acc_int ? (float)(int32_t)acc : num_bits_to_f32(acc);
    if (fe->qkind == Q_SCALE) {
        float s = fe->qvec ? (fe->qdirect ? q_param_direct(fe, fr->qfb, n) : q_param(fr->qfb, n)) : fr->qs;
        v = (float)((double)v * (double)s);
    }
    if (fe->rkind == R_NORMAL) {
        if (v < 0) v = 0.0f;
    } else if (fe->rkind == R_SCALAR || fe->rkind == R_VECTOR) {
        float al = fr->ra;
        if (fe->rkind == R_VECTOR) {
            uint32_t w;
            memcpy(&w, fr->rfb + n * 4, 4);
            al = num_bits_to_f32(w);
        }
        if (!(v >= 0)) v = (float)((double)al * (double)v);
    }
    uint32_t fb = v != v ? 0x7FC00000u : num_f32_to_bits(v);
    uint64_t out;
    if (ed.fmt < 0) {
        out = ed.bits <= 32 ? to_int(v, ed.bits, ed.is_signed) : num_to_int(NUM_F32, fb, NUM_RND_R, ed.bits, ed.is_signed, true);
        if (fe->eclip.bytes) {
            int64_t y = ed.is_signed ? (int64_t)(out ^ (1ull << (ed.bits - 1))) - (int64_t)(1ull << (ed.bits - 1)) : (int64_t)out;
            if (y > fr->clip_int) out = (uint64_t)fr->clip_int & ((ed.bits >= 64 ? 0 : (1ull << ed.bits)) - 1);
        }
        return out;
    }
    NumFormat f = (NumFormat)ed.fmt;
    if (f == NUM_F32) {
        out = fb;   /* f32 destinations keep inf/NaN even under sat (isa-notes §4.10) */
    } else if (v != v && fe->sat == S_SAT_NAN) {
        out = num_canonical_nan(f);
    } else if (f == NUM_F16) {
        out = to_f16(fb, !fr->ieee);
    } else if (f == NUM_BF16) {
        out = to_bf16(fb, !fr->ieee);
    } else {
        out = num_convert(NUM_F32, fb, f, f == NUM_HIF8 ? NUM_RND_A : NUM_RND_R, !fr->ieee);
    }
    if (fe->eclip.bytes && !num_is_nan(f, out)) {
        double y = cube_fval(f, out), c = cube_fval(f, fr->clip_bits);
        if (y > c) out = fr->clip_bits;
    }
    return out;
}

static void atomic_elem(uint8_t *d, uint64_t y, CElem e, int op)
{
    uint64_t o = 0, r;
    memcpy(&o, d, e.bytes);
    if (e.fmt >= 0) {
        NumFormat f = (NumFormat)e.fmt;
        if (op == AO_ADD) r = num_arith(f, NUM_OP_ADD, o, y, NUM_RND_R);
        else if (num_is_nan(f, o) || num_is_nan(f, y)) r = num_canonical_nan(f);
        else {
            double a = cube_fval(f, o), b = cube_fval(f, y);
            /* equal values differ in bits only as +0/-0, and +0 > -0 (as for DMA atomics, maximumf, vmax) */
            if (a == b) r = op == AO_MAX ? (o & y) : (o | y);
            else r = (op == AO_MAX ? a > b : a < b) ? o : y;
        }
    } else {
        unsigned w = e.bits;
        uint64_t m = w >= 64 ? ~0ull : (1ull << w) - 1, sb = 1ull << (w - 1);
        int64_t sa = (int64_t)((o ^ sb) - sb), sy = (int64_t)((y ^ sb) - sb);
        if (!e.is_signed) { sa = (int64_t)o; sy = (int64_t)y; }
        if (op == AO_ADD) r = (o + y) & m;
        else if (op == AO_MAX) r = (uint64_t)(sa >= sy ? sa : sy) & m;
        else r = (uint64_t)(sa <= sy ? sa : sy) & m;
    }
    memcpy(d, &r, e.bytes);
}

/* ---------------------------------------------------------------- addressing */

typedef struct Geo {
    uint64_t M, N, ss, ds, l3c, l3s, l3d;
    int layout;
    unsigned c0;      /* column-block width of NZ destinations */
    int split;        /* SP_* */
} Geo;

/* destination element index and target (0/1) of source element (m, n) in loop3 iteration r */
static uint64_t dst_elem(const Geo *g, uint64_t r, uint64_t m, uint64_t n, int *t)
{
    *t = 0;
    if (g->split == SP_M && m >= g->M / 2) { *t = 1; m -= g->M / 2; }
    if (g->split == SP_N && n >= g->N / 2) { *t = 1; n -= g->N / 2; }
    uint64_t o;
    switch (g->layout) {
    case L_ND: o = m * g->ds + n; break;
    case L_DN: o = n * g->ds + m; break;
    default: o = ((n / g->c0) * g->ds + m) * g->c0 + n % g->c0; break;
    }
    return o + r * g->l3d;
}

static uint64_t src_elem(const Geo *g, uint64_t r, uint64_t m, uint64_t n)
{
    return l0c_elem(m, n, g->ss) + r * g->l3s * 16;   /* loop3 source stride in 16-accumulator rows (as Q36) */
}

/* The run-time operand values of one writeback: from the operands (p_fix) or from the packed config words of
   copy_matrix_cc_to_ub (p_fix_cfg). Absent values are 0 (loop3 count 1). */
typedef struct FixArgs { uint64_t src, dst, M, N, ss, ds, l3c, l3s, l3d, sid, l2c, sub, dnss, nzsplit, qp, rp, clip; } FixArgs;

static int fix_run(Exec *x, const Instr *in, const FixExt *fe, const FixArgs *v)
{
    Core *c = x->core;
    Cluster *cl = c->cl;
    Geo g;
    memset(&g, 0, sizeof g);
    g.M = v->M;
    g.N = v->N;
    g.ss = v->ss;
    g.ds = v->ds;
    g.layout = fe->layout;
    g.split = fe->split;
    g.l3c = v->l3c;
    g.l3s = v->l3s;
    g.l3d = v->l3d;
    unsigned ed = fe->ed.bytes;
    g.c0 = 32u / ed;
    if (cube_field(x, in, "m", g.M, 16) || cube_field(x, in, "n", g.N, 16) ||
        cube_field(x, in, "src_stride (16-accumulator rows)", g.ss, 16) ||
        cube_field(x, in, "dst_stride (elements)", g.ds, 32) || cube_field(x, in, "loop3 count", g.l3c, 16) ||
        cube_field(x, in, "loop3 source stride", g.l3s, 16) || cube_field(x, in, "loop3 destination stride", g.l3d, 32))
        return -1;
    if (fe->sid >= 0 && (cube_field(x, in, "sid", v->sid, 2) || cube_field(x, in, "l2_cache_ctrl", v->l2c, 4)))
        return -1;
    if (fe->layout == L_DN && v->dnss != 1) {
        sim_trap(x, in, DIAG_T_UNSUPPORTED, "nz2dn(%" PRIu64 ") is not simulated: only nz2dn(1) has a known meaning "
                 "(resolutions §2.7)", v->dnss);
        return -1;
    }
    if (fe->layout == L_NZNZ) {
        uint64_t sp = v->nzsplit;
        if (sp > 1) {
            sim_trap(x, in, DIAG_T_FIELD, "nz2nz split = %" PRIu64 " is outside 0..1", sp);
            return -1;
        }
        g.c0 = sp ? 32u / ed : 16;
    }
    /* destination cores */
    Core *tc[2] = {c, c};
    if (fe->space == AS_UB) {
        if (fe->split != SP_NONE) {
            if (cl->ncores != 3) {
                sim_trap(x, in, DIAG_T_FIELD, "dst_mode(%s) needs the two AIVs of a mixed cube+vector kernel",
                         fe->split == SP_M ? "split_m" : "split_n");
                return -1;
            }
            tc[0] = &cl->cores[1];
            tc[1] = &cl->cores[2];
            if (fe->split == SP_M && g.M % 2) {
                sim_trap(x, in, DIAG_T_FIELD, "split_m needs an even m (m = %" PRIu64 ")", g.M);
                return -1;
            }
            if (fe->split == SP_N && g.N % 32) {
                sim_trap(x, in, DIAG_T_FIELD, "split_n needs n to be a multiple of 32 (n = %" PRIu64 ")", g.N);
                return -1;
            }
        } else {
            uint64_t sub = v->sub;
            if (sub > 1 || (sub == 1 && cl->ncores != 3)) {
                sim_trap(x, in, DIAG_T_FIELD, "dst_mode(%" PRIu64 "): subblock %" PRIu64 " does not exist%s", sub, sub,
                         cl->ncores != 3 ? " (not a mixed cube+vector kernel)" : "");
                return -1;
            }
            if (cl->ncores == 3) tc[0] = tc[1] = &cl->cores[1 + sub];
        }
    }
    if (!g.M || !g.N || !g.l3c) return 0;
    /* footprints: every offset grows with m and r; in n it peaks at n = N-1, or, when blocks are not
       advanced (stride 0), at the end of the first block */
    uint64_t work = g.l3c * g.M * g.N;
    if (work / g.l3c / g.M != g.N || work > (1ull << 24)) {
        sim_trap(x, in, DIAG_T_UNSUPPORTED, "m·n·loop3 count = %" PRIu64 "·%" PRIu64 "·%" PRIu64 " elements exceeds the "
                 "simulator's limit of 2^24 per writeback", g.M, g.N, g.l3c);
        return -1;
    }
    uint64_t shi = 0, dhi[2] = {0, 0};
    int used[2] = {1, fe->split != SP_NONE};
    {
        uint64_t r = g.l3c - 1, n1 = g.N - 1, n2 = (g.N < 16 ? g.N : 16) - 1;
        uint64_t a1 = src_elem(&g, r, g.M - 1, n1), a2 = src_elem(&g, r, g.M - 1, n2);
        shi = (a1 > a2 ? a1 : a2) + 1;
        for (int t = 0; t < 2; t++) {
            if (!used[t]) continue;
            /* the last source row / column this target receives */
            uint64_t m = g.split == SP_M ? (t ? g.M - 1 : g.M / 2 - 1) : g.M - 1;
            uint64_t nl = g.split == SP_N ? (t ? g.N - 1 : g.N / 2 - 1) : g.N - 1;
            uint64_t nf = g.split == SP_N && t ? g.N / 2 : 0;   /* first source column of the target */
            uint64_t c0 = g.layout == L_ND || g.layout == L_DN ? 1 : g.c0;
            uint64_t n2t = nf + ((nl - nf + 1) < c0 ? nl - nf + 1 : c0) - 1;
            int tt;
            uint64_t d1 = dst_elem(&g, r, m, nl, &tt), d2 = dst_elem(&g, r, m, n2t, &tt);
            dhi[t] = (d1 > d2 ? d1 : d2) + 1;
        }
    }
    const uint8_t *s = sim_mem(x, in, AS_L0C, v->src, shi * 4, 32, ACC_READ, "source");
    if (!s) return -1;
    uint8_t *d[2] = {NULL, NULL};
    unsigned dal = fe->space == AS_GM ? 1 : 32;
    for (int t = 0; t < 2; t++)
        if (used[t]) {
            d[t] = sim_mem_span(x, tc[t], in, (AddrSpace)fe->space, v->dst, dhi[t] * ed, dal,
                                fe->atomic ? ACC_ATOMIC : ACC_WRITE, fe->atomic ? "atomic destination" : "destination");
            if (!d[t]) return -1;
        }
    FixRun fr;
    memset(&fr, 0, sizeof fr);
    fr.fe = fe;
    int bit48 = (int)(((uint64_t)x->aux >> 48) & 1);   /* the control register as it was at issue */
    /* sat: saturate; nosat: IEEE (Q37); no clause: the control register's mode, bit 48 = 1 IEEE (§2.7),
       0 saturating (the reset state) */
    fr.ieee = fe->sat == S_NOSAT ? 1 : fe->sat == S_DEFAULT ? bit48 : 0;
    if (fe->qkind == Q_SCALE) {
        if (fe->qvec) {
            uint64_t qe = fe->qdirect ? (fe->qdfmt == NUM_F32 ? 4 : 2) : 8;
            fr.qfb = sim_mem(x, in, AS_FB, v->qp, g.N * qe, 32, ACC_READ, "quant parameters");
            if (!fr.qfb) return -1;
        } else {
            fr.qs = (float)cube_fval((NumFormat)fe->qfmt, v->qp);
        }
    }
    if (fe->rkind == R_SCALAR) fr.ra = (float)cube_fval((NumFormat)fe->rfmt, v->rp);
    if (fe->rkind == R_VECTOR) {
        fr.rfb = sim_mem(x, in, AS_FB, v->rp, g.N * 4, 32, ACC_READ, "relu parameters");
        if (!fr.rfb) return -1;
    }
    if (fe->eclip.bytes) {
        uint64_t cv = v->clip;
        if (fe->ed.fmt >= 0) {
            fr.clip_bits = fe->eclip.fmt >= 0 ? num_convert((NumFormat)fe->eclip.fmt, cv, (NumFormat)fe->ed.fmt, NUM_RND_R, false)
                                              : num_from_int(cv, fe->eclip.bits, fe->eclip.is_signed, (NumFormat)fe->ed.fmt, NUM_RND_R);
        } else {
            unsigned w = fe->eclip.bits;
            int64_t ci = fe->eclip.fmt >= 0 ? (int64_t)num_to_int((NumFormat)fe->eclip.fmt, cv, NUM_RND_R, 64, true, true)
                      : fe->eclip.is_signed && w < 64 ? (int64_t)((cv & ((1ull << w) - 1)) ^ (1ull << (w - 1))) - (int64_t)(1ull << (w - 1))
                      : (int64_t)(w < 64 ? cv & ((1ull << w) - 1) : cv);
            fr.clip_int = ci;
        }
    }
    /* The destination is recorded for the checkers by the runs of elements written, not by its span: a strided
       writeback (a column block of a wider matrix) leaves the bytes between its rows to other writers. */
    int mode = fe->atomic ? ACC_ATOMIC : ACC_WRITE;
    int rec = sim_watching(tc[0], (AddrSpace)fe->space) || (used[1] && sim_watching(tc[1], (AddrSpace)fe->space));
    SimRun run[2] = {{0, 0}, {0, 0}};
    for (uint64_t r = 0; r < g.l3c; r++)
        for (uint64_t m = 0; m < g.M; m++)
            for (uint64_t n = 0; n < g.N; n++) {
                uint32_t acc;
                memcpy(&acc, s + src_elem(&g, r, m, n) * 4, 4);
                uint64_t y = fix_value(&fr, acc, n);
                int t;
                uint64_t o = dst_elem(&g, r, m, n, &t);
                uint8_t *dp = d[t] + o * ed;
                if (fe->atomic) atomic_elem(dp, y, fe->ed, fe->atomic);
                else memcpy(dp, &y, ed);
                if (rec) sim_run_add(x, in, tc[t], (AddrSpace)fe->space, &run[t], v->dst + o * ed, ed, mode);
            }
    for (int t = 0; t < 2 && rec; t++) sim_run_end(x, in, tc[t], (AddrSpace)fe->space, &run[t], mode);
    uint64_t bytes = g.l3c * g.M * g.N * ed;
    sim_fixpipe(x, fe->space, g.l3c * g.M, g.N, bytes);   /* docs/timing.md "FIXPIPE" */
    return 0;
}

static inline uint64_t opnd(const uint64_t *a, int i) { return i >= 0 ? a[i] : 0; }

static int p_fix(Exec *x, const Instr *in, const uint64_t *a)
{
    const FixExt *fe = in->ext;
    FixArgs v = {a[fe->src], a[fe->dst], a[fe->m], a[fe->n], a[fe->ss], a[fe->ds], fe->l3c >= 0 ? a[fe->l3c] : 1,
                 opnd(a, fe->l3s), opnd(a, fe->l3d), opnd(a, fe->sid), opnd(a, fe->l2c), opnd(a, fe->sub),
                 opnd(a, fe->dnss), opnd(a, fe->nzsplit), opnd(a, fe->qp), opnd(a, fe->rp), opnd(a, fe->clip)};
    return fix_run(x, in, fe, &v);
}

/* copy_matrix_cc_to_ub %src, %dst, %config0, %config1: the fields the compiler packs when it expands mte_l0c_ub
   (docs/semantics.md §8.5). config0: n bits 4..15, m bits 16..31, dst_stride bits 32..63. config1: src_stride
   bits 0..15, dual destination mode bits 16..17 (0 one subblock, 1 split_m, 2 split_n), subblock bit 18, clip
   bits 30..31, quant mode bits 34..38 with bit 5 at bit 29, relu mode bits 39..41, channel split bit 42, nz2nd
   bit 43, nz2dn bit 62; both layout bits clear is nz2nz(channel split). The parameters the expansion keeps in
   registers (quant scale, relu slope, clip value, loop3, the nz2dn channel stride) are not modelled: a word
   that needs them traps T-UNSUPPORTED, and loop3 runs once. */
static int p_fix_cfg(Exec *x, const Instr *in, const uint64_t *a)
{
    uint64_t c0 = a[2], c1 = a[3];
    FixExt f = *(const FixExt *)in->ext;
    FixArgs v;
    memset(&v, 0, sizeof v);
    v.src = a[0];
    v.dst = a[1];
    v.N = (c0 >> 4) & 0xFFF;
    v.M = (c0 >> 16) & 0xFFFF;
    v.ds = c0 >> 32;
    v.ss = c1 & 0xFFFF;
    v.l3c = 1;
    v.sub = (c1 >> 18) & 1;
    v.nzsplit = (c1 >> 42) & 1;
    unsigned dual = (unsigned)(c1 >> 16) & 3, clip = (unsigned)(c1 >> 30) & 3, relu = (unsigned)(c1 >> 39) & 7;
    unsigned quant = (unsigned)((c1 >> 34) & 0x1F) | (unsigned)((c1 >> 29) & 1) << 5;
    int nd = (int)(c1 >> 43) & 1, dn = (int)(c1 >> 62) & 1;
    const char *why = dual == 3 ? "dual destination mode 3 has no meaning"
                    : clip ? "clip takes its value from a register ptosim does not model"
                    : relu > 1 ? "scalar/vector relu take their slopes from registers ptosim does not model"
                    : dn ? "nz2dn takes its channel stride from a register ptosim does not model"
                    : nd && v.nzsplit ? "nz2nd with channel split is not a layout"
                    : !(quant == 0 || quant == 1 || quant == 16) ? "quant modes with parameters read them from registers ptosim does not model"
                    : NULL;
    if (why) {
        sim_trap(x, in, DIAG_T_UNSUPPORTED, "config1 0x%" PRIx64 ": %s", c1, why);
        return -1;
    }
    f.layout = nd ? L_ND : L_NZNZ;
    f.split = dual == 1 ? SP_M : dual == 2 ? SP_N : SP_NONE;
    f.rkind = relu ? R_NORMAL : R_NONE;
    f.qkind = quant ? Q_CONV : Q_NONE;
    CElem ed = f.ed;
    int ok = f.acc_int ? !quant && ed.fmt < 0 && ed.bits == 32
           : quant == 1 ? ed.fmt == NUM_F16 : quant == 16 ? ed.fmt == NUM_BF16
           : ed.fmt == NUM_F32 || ed.fmt == NUM_F16 || ed.fmt == NUM_BF16;
    if (!ok) {
        sim_trap(x, in, DIAG_T_UNSUPPORTED, "quant mode %u does not turn %s accumulators into %s elements", quant,
                 f.acc_int ? "32-bit integer" : "f32", cube_elem_name(ed));
        return -1;
    }
    return fix_run(x, in, &f, &v);
}

/* ---------------------------------------------------------------- lowering */

static int scalar_fmt(const Op *op, int i)
{
    if (i < 0 || !op->operands[i]) return -1;
    CElem e = cube_elem(op->operands[i]->type);
    return e.fmt;
}

/* FIXPIPE reads the control register (bit 48, resolutions §2.7) as the scalar unit had programmed it when
   the writeback was issued: kernels restore the register right after issuing. */
static int64_t fix_capture_ctrl(Exec *x, const Instr *in, const uint64_t *args)
{
    (void)in;
    (void)args;
    return (int64_t)x->core->scalar->ctrl;
}

int cube_lower_fix(LowerView *L, const Op *op, Instr *in)
{
    FixExt *fe = lw_alloc(L, op, sizeof(FixExt));
    if (!fe) return -1;
    memset(fe, 0, sizeof *fe);
    fe->src = (int8_t)lw_group_index(L, op, "src", 0);
    fe->dst = (int8_t)lw_group_index(L, op, "dst", 0);
    fe->m = (int8_t)lw_group_index(L, op, "m", 0);
    fe->n = (int8_t)lw_group_index(L, op, "n", 0);
    fe->ss = (int8_t)lw_group_index(L, op, "ss", 0);
    fe->ds = (int8_t)lw_group_index(L, op, "ds", 0);
    fe->sid = (int8_t)lw_group_index(L, op, "sid", 0);
    fe->l2c = (int8_t)lw_group_index(L, op, "l2c", 0);
    fe->sub = (int8_t)lw_group_index(L, op, "sub", 0);
    fe->qp = (int8_t)lw_group_index(L, op, "qp", 0);
    fe->rp = (int8_t)lw_group_index(L, op, "rp", 0);
    fe->clip = (int8_t)lw_group_index(L, op, "clip", 0);
    fe->dnss = (int8_t)lw_group_index(L, op, "dnss", 0);
    fe->nzsplit = (int8_t)lw_group_index(L, op, "split", 0);
    fe->l3c = (int8_t)lw_group_index(L, op, "l3c", 0);
    fe->l3s = (int8_t)lw_group_index(L, op, "l3s", 0);
    fe->l3d = (int8_t)lw_group_index(L, op, "l3d", 0);
    fe->space = op->kind == OP_MTE_L0C_GM ? AS_GM : op->kind == OP_MTE_L0C_L1 ? AS_L1 : AS_UB;
    int cfg = op->kind == OP_COPY_MATRIX_CC_TO_UB;   /* the packed-config form: decoded when it runs */
    in->ext = fe;
    in->pfn = cfg ? p_fix_cfg : p_fix;
    in->ifn = fix_capture_ctrl;
    CElem ea = cube_ptr_elem(op, fe->src);
    fe->ed = cube_ptr_elem(op, fe->dst);
    if (fe->src < 0 || fe->dst < 0 || (!cfg && (fe->m < 0 || fe->n < 0 || fe->ss < 0 || fe->ds < 0)))
        return cube_unsupported(in, "this form of FIXPIPE writeback is not simulated");
    if (!(ea.fmt == NUM_F32 || (ea.fmt < 0 && ea.bits == 32)))
        return cube_unsupported(in, "FIXPIPE reads f32 or 32-bit integer accumulators only");
    fe->acc_int = ea.fmt < 0;
    if (!fe->ed.bytes || fe->ed.bytes > 4 || fe->ed.packed4 || fe->ed.fmt == NUM_E8M0 || (fe->ed.fmt < 0 && fe->ed.bits < 8))
        return cube_unsupported(in, "FIXPIPE writeback to this destination element type is not simulated");
    if (cfg) return 0;
    /* layout */
    fe->layout = op_has_unit(op, "nz2nd") ? L_ND : op_has_unit(op, "nz2dn") ? L_DN : op_has_unit(op, "nz2nz") ? L_NZNZ : L_NZ;
    if (fe->layout == L_DN && fe->dnss < 0) return cube_unsupported(in, "nz2dn without its operand");
    if (fe->layout == L_NZNZ && fe->nzsplit < 0) return cube_unsupported(in, "nz2nz without its operand");
    /* saturation */
    fe->sat = op_has_unit(op, "nosat") ? S_NOSAT : op_has_unit(op, "sat") ? (op_token_id(op, "nanm") >= 0 ? S_SAT_NAN : S_SAT) : S_DEFAULT;
    /* split / subblock */
    if (fe->space == AS_UB) {
        int sp = op_token_id(op, "split");
        fe->split = sp == T_SPLIT_M ? SP_M : sp == T_SPLIT_N ? SP_N : SP_NONE;
        if (fe->split == SP_NONE && fe->sub < 0) return cube_unsupported(in, "dst_mode(...) needs a subblock id or a split mode");
    }
    /* atomic */
    if (op_has_unit(op, "atomic")) {
        int ao = op_token_id(op, "aop");
        fe->atomic = ao == T_AOP_ADD ? AO_ADD : ao == T_AOP_MAX ? AO_MAX : ao == T_AOP_MIN ? AO_MIN : AO_NONE;
        if (fe->space != AS_GM || fe->atomic == AO_NONE) return cube_unsupported(in, "this atomic(...) form is not simulated");
        /* the spec combines "using T" with the GM value; what that means when T is not the destination's element
           type is not published (the compiler accepts it), so only matching types run */
        int at = op_token_id(op, "atype");
        CElem d = fe->ed;
        int same = at == T_ATYPE_F32 ? d.kind == EK_F32 : at == T_ATYPE_F16 ? d.kind == EK_F16
                 : at == T_ATYPE_BF16 ? d.kind == EK_BF16 : at == T_ATYPE_S32 ? d.fmt < 0 && d.bits == 32
                 : at == T_ATYPE_S16 ? d.fmt < 0 && d.bits == 16 : at == T_ATYPE_S8 ? d.fmt < 0 && d.bits == 8 : 0;
        if (!same)
            return cube_unsupported(in, "atomic(...) with a type other than the destination's element type is not "
                                        "simulated: how the combination works then is not published");
    }
    /* quantisation */
    CElem ed = fe->ed;
    int dfmt = ed.fmt;
    if (op_has_unit(op, "pre_quant")) {
        int qm = op_token_id(op, "qmode");
        const char *qn = qm >= 0 ? tok_spelling(qm) : "?";
        size_t ql = strlen(qn);
        fe->qvec = ql > 4 && strcmp(qn + ql - 4, "_vec") == 0;
        int need_acc_int = 0, ok_dst = 1;
        switch (qm) {
        case T_QMODE_F32_F16: fe->qkind = Q_CONV; ok_dst = dfmt == NUM_F16; break;
        case T_QMODE_F32_BF16: fe->qkind = Q_CONV; ok_dst = dfmt == NUM_BF16; break;
        case T_QMODE_QF322F16_PRE_VEC: case T_QMODE_QF322F16_PRE_SCALAR: fe->qkind = Q_SCALE; ok_dst = dfmt == NUM_F16; break;
        case T_QMODE_QF322BF16_PRE_VEC: case T_QMODE_QF322BF16_PRE_SCALAR: fe->qkind = Q_SCALE; ok_dst = dfmt == NUM_BF16; break;
        case T_QMODE_QF322F32_PRE_VEC: case T_QMODE_QF322F32_PRE_SCALAR: fe->qkind = Q_SCALE; ok_dst = dfmt == NUM_F32; break;
        case T_QMODE_QF322FP8_PRE_VEC: case T_QMODE_QF322FP8_PRE_SCALAR:
            fe->qkind = Q_SCALE; ok_dst = dfmt == NUM_E4M3FN || dfmt == NUM_E5M2; break;
        case T_QMODE_QF322HIF8_PRE_VEC: case T_QMODE_QF322HIF8_PRE_SCALAR: fe->qkind = Q_SCALE; ok_dst = dfmt == NUM_HIF8; break;
        case T_QMODE_QF322B8_PRE_VEC: case T_QMODE_QF322B8_PRE_SCALAR: fe->qkind = Q_SCALE; ok_dst = dfmt < 0 && ed.bits == 8; break;
        case T_QMODE_DEQF16_VEC: case T_QMODE_DEQF16_SCALAR: fe->qkind = Q_SCALE; need_acc_int = 1; ok_dst = dfmt == NUM_F16; break;
        case T_QMODE_QS322BF16_PRE_VEC: case T_QMODE_QS322BF16_PRE_SCALAR:
            fe->qkind = Q_SCALE; need_acc_int = 1; ok_dst = dfmt == NUM_BF16; break;
        case T_QMODE_REQ8_VEC: case T_QMODE_REQ8_SCALAR: fe->qkind = Q_SCALE; need_acc_int = 1; ok_dst = dfmt < 0 && ed.bits == 8; break;
        case T_QMODE_DEQS16_VEC: case T_QMODE_DEQS16_SCALAR:
            fe->qkind = Q_SCALE; need_acc_int = 1; ok_dst = dfmt < 0 && ed.bits == 16; break;
        default: {
            size_t n = strlen(qn) + 120;
            char *msg = lw_alloc(L, op, n);
            if (!msg) return -1;
            snprintf(msg, n, "quant mode %s is not simulated: its arithmetic is unresolved (resolutions Q37)", qn);
            return cube_unsupported(in, msg);
        }
        }
        if (need_acc_int != fe->acc_int || !ok_dst) {
            size_t n = strlen(qn) + 160;
            char *msg = lw_alloc(L, op, n);
            if (!msg) return -1;
            snprintf(msg, n, "quant mode %s does not turn %s accumulators into %s elements", qn,
                     fe->acc_int ? "32-bit integer" : "f32", cube_elem_name(ed));
            return cube_unsupported(in, msg);
        }
        if (fe->qkind == Q_SCALE && !fe->qvec) {
            fe->qfmt = (int8_t)scalar_fmt(op, fe->qp);
            if (fe->qfmt < 0) return cube_unsupported(in, "a scalar quant mode needs a floating-point scale payload");
        }
        if (fe->qkind == Q_SCALE && fe->qvec && fe->qp < 0) return cube_unsupported(in, "a vector quant mode needs an FB pointer");
    } else {
        /* no quantisation: f32 accumulators convert to f32/f16/bf16 (round to nearest even), integer
           accumulators are written as 32-bit integers */
        int ok = fe->acc_int ? (dfmt < 0 && ed.bits == 32) : (dfmt == NUM_F32 || dfmt == NUM_F16 || dfmt == NUM_BF16);
        if (!ok) {
            size_t n = 200;
            char *msg = lw_alloc(L, op, n);
            if (!msg) return -1;
            snprintf(msg, n, "FIXPIPE from %s accumulators to %s elements needs a pre_quant mode", fe->acc_int ? "i32" : "f32",
                     cube_elem_name(ed));
            return cube_unsupported(in, msg);
        }
    }
    /* relu and clip */
    if (op_has_unit(op, "pre_relu")) {
        int rm = op_token_id(op, "rmode");
        fe->rkind = rm == T_RELU_NORMAL_RELU ? R_NORMAL : rm == T_RELU_SCALAR_RELU ? R_SCALAR
                  : rm == T_RELU_VECTOR_RELU ? R_VECTOR : R_NONE;
        if (fe->rkind == R_SCALAR) {
            fe->rfmt = (int8_t)scalar_fmt(op, fe->rp);
            if (fe->rfmt < 0) return cube_unsupported(in, "scalar_relu needs a floating-point slope payload");
        }
        if (fe->rkind == R_VECTOR && fe->rp < 0) return cube_unsupported(in, "vector_relu needs an FB pointer");
        if (fe->acc_int && fe->qkind == Q_NONE && (fe->rkind == R_SCALAR || fe->rkind == R_VECTOR))
            return cube_unsupported(in, "scalar/vector relu on integer accumulators without quantisation is not simulated");
        if (fe->clip >= 0) {
            fe->eclip = cube_elem(op->operands[fe->clip]->type);
            if (!fe->eclip.bytes) return cube_unsupported(in, "clip needs a scalar payload");
        }
    }
    return 0;
}

/* The writeback the tile family's moves out of an acc tile use (cube.h): no quantisation, relu, clip or atomic;
   the accumulator converted to the destination type as pto.mte_l0c_* without pre_quant does. */
FixExt *cube_fix_plan(LowerView *L, const Op *op, int space, int layout, const Type *acc, const Type *dst, int qvec,
                      const char **why)
{
    FixExt *fe = lw_alloc(L, op, sizeof(FixExt));
    if (!fe) return NULL;
    memset(fe, 0, sizeof *fe);
    fe->src = fe->dst = fe->m = fe->n = fe->ss = fe->ds = fe->sid = fe->l2c = fe->sub = -1;
    fe->qp = fe->rp = fe->clip = fe->dnss = fe->nzsplit = fe->l3c = fe->l3s = fe->l3d = -1;
    fe->space = (uint8_t)space;
    fe->layout = (uint8_t)(layout == CUBE_FIX_ND ? L_ND : layout == CUBE_FIX_DN ? L_DN : layout == CUBE_FIX_NZNZ ? L_NZNZ : L_NZ);
    CElem ea = cube_elem(acc);
    fe->ed = cube_elem(dst);
    fe->acc_int = ea.fmt < 0;
    *why = NULL;
    if (!(ea.fmt == NUM_F32 || (ea.fmt < 0 && ea.bits == 32))) *why = "FIXPIPE reads f32 or 32-bit integer accumulators only";
    else if (qvec) {
        /* the vector quant modes the templates pick by the destination type (tmov_fp.py, textract_fp.py,
           tstore.py, tinsert.py _tinsert_fp_quant_mode): qf322{f16,bf16,f32,fp8,hif8,b8}_pre_vec, req8_vec */
        CElem d = fe->ed;
        int ok = fe->acc_int ? d.fmt < 0 && d.bits == 8
                             : d.fmt == NUM_F16 || d.fmt == NUM_BF16 || d.fmt == NUM_F32 || d.fmt == NUM_E4M3FN ||
                               d.fmt == NUM_E5M2 || d.fmt == NUM_HIF8 || (d.fmt < 0 && d.bits == 8);
        fe->qkind = Q_SCALE;
        fe->qvec = 1;
        if (!ok) *why = "no vector quantisation mode writes this destination element type";
    } else if (fe->acc_int ? !(fe->ed.fmt < 0 && fe->ed.bits == 32)
                         : !(fe->ed.fmt == NUM_F32 || fe->ed.fmt == NUM_F16 || fe->ed.fmt == NUM_BF16))
        *why = "this accumulator to destination element type pair needs a quantisation mode, which is not simulated "
               "for tile moves";
    return fe;
}

int cube_fix_exec(Exec *x, const Instr *in, const FixExt *fe, uint64_t src, uint64_t dst, uint64_t M, uint64_t N,
                  uint64_t ss, uint64_t ds, uint64_t sub, uint64_t qp)
{
    FixArgs v;
    memset(&v, 0, sizeof v);
    v.src = src;
    v.dst = dst;
    v.M = M;
    v.N = N;
    v.ss = ss;
    v.ds = ds;
    v.l3c = 1;
    v.sub = sub;
    v.dnss = 1;
    v.qp = qp;
    v.nzsplit = 0;   /* nz2nz(0): 16-column blocks (the tinsert template into an NZ vec tile) */
    return fix_run(x, in, fe, &v);
}

void cube_fix_set_split(FixExt *fe, int split)
{
    fe->split = (uint8_t)(split == CUBE_SPLIT_M ? SP_M : split == CUBE_SPLIT_N ? SP_N : SP_NONE);
}

/* A cross-core pipe's acc_push_epilogue (ops/tile/tile_pipe.c): quant 0 none (a plain conversion), 1 a scalar scale
   (an f32 payload, passed as cube_fix_exec's qp bits), 2 a vector of FB scales at qp (qdfmt < 0: the 8-byte rows,
   else one element of that NumFormat per column); relu: normal_relu. Clears *why the plan gave for a type pair
   the quantisation now covers. */
void cube_fix_set_epilogue(FixExt *fe, int quant, int qdfmt, int relu, const char **why)
{
    if (quant == 1) {
        fe->qkind = Q_SCALE;
        fe->qvec = 0;
        fe->qfmt = NUM_F32;
        if (*why && strstr(*why, "needs a quantisation mode")) *why = NULL;
    } else if (quant == 2) {
        fe->qdirect = qdfmt >= 0;
        fe->qdfmt = (int8_t)(qdfmt >= 0 ? qdfmt : 0);
        if (fe->acc_int && fe->ed.fmt == NUM_F16 && *why) *why = NULL;   /* deqf16_vec */
        if (fe->acc_int && fe->ed.fmt == NUM_BF16 && *why) *why = NULL;  /* qs322bf16_pre_vec */
    }
    fe->rkind = relu ? R_NORMAL : R_NONE;
}
