/* cube_mad.c — the six MAD ops: mad (C = A·B), mad_acc (C += A·B), mad_bias (C = A·B + bias[n]) and their
 * MX forms (fp8 operands with E8M0 scales per 32-element K group, resolutions Q40).
 *
 * Operands are read from the L0 layouts the loads write (cube.c: L0A = NZ [M,K], L0B = NZ [N,K], pitch
 * ⌈rows/16⌉·16) and C is written at the Q36 address ((n/16)·⌈M/16⌉·16 + m)·16 + n%16. Only the logical
 * M x N cells are written.
 *
 * Summation order (the hardware order is unstated, resolutions Q38; this is our documented reference):
 * for each (m, n) the accumulator starts at 0 (mad), the old C (mad_acc) or bias[n] (mad_bias) and adds
 * the products for k = 0, 1, ..., K-1 in ascending order, each product rounded once to f32 and each
 * addition rounded to f32 (round to nearest even, subnormals kept). Products of f16, bf16, tf32, fp8 and
 * hif8 inputs are exact in f32, so only the additions round for them. Integer inputs (i8/ui8) multiply
 * exactly and accumulate in 32-bit two's complement (wrapping). */
#include "cube_int.h"
#include "base/alloc.h"
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* How an operand's elements become values (MadExt.dec), chosen at lowering so that the decode loops make no
   per-element calls: f32 (tf32 rounding inline), f16 and bf16 by bit manipulation, the 8-bit float formats
   through a 256-entry table, 8-bit integers by extension. */
enum { DEC_F32, DEC_F16, DEC_BF16, DEC_LUT, DEC_I8, DEC_U8 };

typedef struct MadExt {
    int8_t ia, ib, ic, ibias, im, in, ik;
    uint8_t mode;       /* 0 overwrite, 1 accumulate, 2 bias */
    uint8_t mx;
    uint8_t sat;        /* 1 = sat clause */
    uint8_t tf32;       /* 0 none, 1 round_even, 2 round_away */
    uint8_t integer;    /* 8-bit integer inputs, i32 accumulator */
    uint8_t gemv;       /* GEMV mode allowed (no disable_gemv): with m = 1, A (and its MX scales) a contiguous K-vector */
    uint8_t dec[2];     /* DEC_* of A and B */
    CElem ea, eb;
    float satmax[2];    /* sat: the largest finite value of A's and B's format (what +-inf becomes) */
    float lut[2][256];  /* DEC_LUT: the value of every byte (8-bit float formats are exact in f32) */
} MadExt;

/* tf32_mode (resolutions Q38): the f32 input rounded to 10 mantissa bits; inf/NaN unchanged. */
static uint32_t tf32_round(uint32_t b, int away)
{
    if ((b & 0x7F800000u) == 0x7F800000u) return b;
    if (away) return (b + 0x1000u) & ~0x1FFFu;
    uint32_t lsb = (b >> 13) & 1u;
    return (b + 0xFFFu + lsb) & ~0x1FFFu;
}

/* f16 -> f32, exact: exponent and mantissa shifted into place and scaled by 2^112 (subnormals become
   normal f32 values exactly); inf and NaN keep an all-ones exponent. */
static inline float f16_val(uint16_t h)
{
    uint32_t em = (uint32_t)(h & 0x7FFFu) << 13, sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t r = num_f32_to_bits(num_bits_to_f32(em) * 0x1p112f);
    if (em >= 0x7C00u << 13) r = 0x7F800000u | em;
    return num_bits_to_f32(r | sign);
}

/* sat: NaN -> 0, +-inf (and overflow, which produced it) -> +-max */
static inline float sat_to(float v, float max)
{
    v = v > max ? max : v;
    v = v < -max ? -max : v;
    return v == v ? v : 0.0f;
}

/* Decodes operand `side` (0: A in L0A, [M,K]; 1: B in L0B, [N,K]; R rows, NZ pitch `pitch`) into dst: A as
   dst[r*K + k], B transposed as dst[k*ld + r]. An NZ row holds c0 = 32/e consecutive elements of K; each
   element kind has its own loop (no per-element dispatch). */
#define DECODE_ROWS(E, VAL)                                                                                    \
    for (uint64_t r = 0; r < R; r++)                                                                           \
        for (uint64_t k0 = 0; k0 < K; k0 += 32u / (E)) {                                                         \
            const uint8_t *row = src + ((k0 / (32u / (E))) * pitch + r) * 32;                                  \
            uint64_t n = K - k0 < 32u / (E) ? K - k0 : 32u / (E);                                              \
            float *d = side ? dst + k0 * ld + r : dst + r * K + k0;                                            \
            uint64_t step = side ? ld : 1;                                                                     \
            for (uint64_t j = 0; j < n; j++) {                                                                 \
                const uint8_t *p = row + j * (E);                                                              \
                float v = VAL;                                                                                 \
                d[j * step] = sat ? sat_to(v, smax) : v;                                                       \
            }                                                                                                  \
        }

static inline uint16_t ld16(const uint8_t *p) { uint16_t h; memcpy(&h, p, 2); return h; }
static inline uint32_t ld32(const uint8_t *p) { uint32_t w; memcpy(&w, p, 4); return w; }

static void decode_float(const MadExt *me, int side, float *dst, const uint8_t *src, uint64_t R, uint64_t K,
                         uint64_t pitch, uint64_t ld)
{
    int sat = me->sat, away = me->tf32 == 2;
    float smax = me->satmax[side];
    const float *lut = me->lut[side];
    switch (me->dec[side]) {
    case DEC_F16: DECODE_ROWS(2, f16_val(ld16(p))) break;
    case DEC_BF16: DECODE_ROWS(2, num_bits_to_f32((uint32_t)ld16(p) << 16)) break;
    case DEC_LUT: DECODE_ROWS(1, lut[p[0]]) break;
    default:
        if (me->tf32) {
            DECODE_ROWS(4, num_bits_to_f32(tf32_round(ld32(p), away)))
        } else {
            DECODE_ROWS(4, num_bits_to_f32(ld32(p)))
        }
    }
}
#undef DECODE_ROWS

static void decode_int(const MadExt *me, int side, int32_t *dst, const uint8_t *src, uint64_t R, uint64_t K,
                       uint64_t pitch, uint64_t ld)
{
    int sgn = me->dec[side] == DEC_I8;
    for (uint64_t r = 0; r < R; r++)
        for (uint64_t k0 = 0; k0 < K; k0 += 32) {
            const uint8_t *row = src + ((k0 / 32) * pitch + r) * 32;
            uint64_t n = K - k0 < 32 ? K - k0 : 32;
            for (uint64_t j = 0; j < n; j++) {
                int32_t v = sgn ? (int32_t)(int8_t)row[j] : (int32_t)row[j];
                if (side) dst[(k0 + j) * ld + r] = v;
                else dst[r * K + k0 + j] = v;
            }
        }
}

/* The inner loops (GCC/Clang vector extensions: SSE2 / NEON at the baseline, whatever the auto-vectoriser
   decides). A tile of 2 rows of C by 16 columns stays in registers while k runs 0, 1, ..., K-1; each product
   is rounded to f32, then each sum (never a fused multiply-add: the product is a separate value). */
typedef float mad_vf __attribute__((vector_size(16)));
typedef int32_t mad_vi __attribute__((vector_size(16)));
typedef uint32_t mad_vu __attribute__((vector_size(16)));

/* sat_to on 4 lanes: lanes above FLT_MAX (inf) and below -FLT_MAX clamp, NaN lanes become 0 */
static inline mad_vf sat_v(mad_vf v)
{
    const mad_vf hi = {FLT_MAX, FLT_MAX, FLT_MAX, FLT_MAX}, lo = -hi;
    mad_vi up = v > hi, down = v < lo, num = v == v;
    mad_vi r = ((mad_vi)v & ~(up | down)) | ((mad_vi)hi & up) | ((mad_vi)lo & down);
    return (mad_vf)(r & num);
}

#define MAD_TILE(NAME, VT, ET, STEP)                                                                           \
    static void NAME(ET *restrict c0, ET *restrict c1, const ET *restrict b, const ET *restrict a0,             \
                     const ET *restrict a1, uint64_t K, uint64_t ld, int two)                                   \
    {                                                                                                          \
        VT x0, x1, x2, x3, y0, y1, y2, y3;                                                                     \
        memcpy(&x0, c0, 16); memcpy(&x1, c0 + 4, 16); memcpy(&x2, c0 + 8, 16); memcpy(&x3, c0 + 12, 16);       \
        if (!two) c1 = c0;                                                                                     \
        memcpy(&y0, c1, 16); memcpy(&y1, c1 + 4, 16); memcpy(&y2, c1 + 8, 16); memcpy(&y3, c1 + 12, 16);       \
        for (uint64_t k = 0; k < K; k++, b += ld) {                                                            \
            VT b0, b1, b2, b3;                                                                                 \
            memcpy(&b0, b, 16); memcpy(&b1, b + 4, 16); memcpy(&b2, b + 8, 16); memcpy(&b3, b + 12, 16);      \
            ET s = a0[k], t = a1[k];                                                                           \
            VT u = {s, s, s, s}, w = {t, t, t, t};                                                             \
            VT p0 = u * b0, p1 = u * b1, p2 = u * b2, p3 = u * b3;                                             \
            VT q0 = w * b0, q1 = w * b1, q2 = w * b2, q3 = w * b3;                                             \
            STEP(x0, p0); STEP(x1, p1); STEP(x2, p2); STEP(x3, p3);                                            \
            STEP(y0, q0); STEP(y1, q1); STEP(y2, q2); STEP(y3, q3);                                            \
        }                                                                                                      \
        memcpy(c0, &x0, 16); memcpy(c0 + 4, &x1, 16); memcpy(c0 + 8, &x2, 16); memcpy(c0 + 12, &x3, 16);       \
        if (two) { memcpy(c1, &y0, 16); memcpy(c1 + 4, &y1, 16); memcpy(c1 + 8, &y2, 16); memcpy(c1 + 12, &y3, 16); } \
    }
#define STEP_ADD(acc, p) acc = acc + (p)
#define STEP_SAT(acc, p) acc = sat_v(acc + sat_v(p))
#define STEP_INT(acc, p) acc = (mad_vi)((mad_vu)(acc) + (mad_vu)(p))
MAD_TILE(tile_f32, mad_vf, float, STEP_ADD)
MAD_TILE(tile_f32_sat, mad_vf, float, STEP_SAT)
MAD_TILE(tile_i32, mad_vi, int32_t, STEP_INT)
#undef MAD_TILE
#undef STEP_ADD
#undef STEP_SAT
#undef STEP_INT

/* The core's MAD scratch of at least `bytes` (grown on demand), or NULL after a trap. */
static void *scratch(Exec *x, const Instr *in, size_t bytes)
{
    CubeState *cs = x->core->cube;
    if (cs->scratch_bytes < bytes) {
        mem_free(cs->scratch);
        cs->scratch = mem_alloc(bytes);
        cs->scratch_bytes = cs->scratch ? bytes : 0;
        if (!cs->scratch) {
            sim_trap(x, in, DIAG_T_OOM, "out of host memory for a %zu-byte MAD", bytes);
            return NULL;
        }
    }
    return cs->scratch;
}

/* Scale (r, g) of an MX operand in its state: the L1 fragment order (cube.c p_l1_mx), G2 = ⌈G/2⌉ fragments per 16
   rows; a GEMV left operand (row = 1) reads its G scales as consecutive bytes, as it reads its data (semantics §8.4). */
static inline uint8_t mx_scale_at(const uint8_t *st, uint64_t r, uint64_t g, uint64_t G2, int row)
{
    return row ? st[g] : st[((r / 16) * G2 + g / 2) * 32 + (r % 16) * 2 + g % 2];
}

/* MX: fp8 / fp4 values (exact in double) times their groups' E8M0 scales 2^(s-127); s = 0xFF is NaN. A packed fp4
   operand holds 64 values per 32-byte NZ row, two per byte, the even k in the low nibble (semantics §8.2); `pitch`
   is the NZ pitch in rows (1: a GEMV row, whose scales are consecutive too). */
static void decode_mx(const MadExt *me, int side, double *dst, const uint8_t *src, const uint8_t *scale, uint64_t R,
                      uint64_t K, uint64_t pitch)
{
    int f4 = side ? me->eb.packed4 : me->ea.packed4;
    uint64_t G2 = ceil_div(ceil_div(K, 32), 2);
    for (uint64_t r = 0; r < R; r++)
        for (uint64_t k = 0; k < K; k++) {
            uint8_t s = mx_scale_at(scale, r, k / 32, G2, pitch == 1);
            unsigned byte = f4 ? src[((k / 64) * pitch + r) * 32 + (k % 64) / 2] : src[((k / 32) * pitch + r) * 32 + k % 32];
            uint8_t code = (uint8_t)(f4 ? (byte >> (4 * (k % 2))) & 0xFu : byte);
            float v = me->lut[side][code];
            if (me->sat) v = sat_to(v, me->satmax[side]);
            uint64_t pw = (uint64_t)(s - 127 + 1023) << 52;
            double f;
            memcpy(&f, &pw, 8);
            dst[r * K + k] = s == 0xFF ? (double)NAN : (double)v * f;
        }
}

/* Writes accumulator (m, n) to L0C: f32 results with NaN canonical. */
static inline void put_f32(uint8_t *pc, uint64_t m, uint64_t n, uint64_t Mp, float v)
{
    uint32_t r = v != v ? (uint32_t)num_canonical_nan(NUM_F32) : num_f32_to_bits(v);
    memcpy(pc + l0c_elem(m, n, Mp) * 4, &r, 4);
}

/* The MAD engine (cube.h): C at L0C address C from A (L0A), B (L0B) and, in bias mode, the bias table at
   BIAS; m, n, k as the micro operands. pto.mad* and the tile family's tmatmul / tgemv both run here. */
int cube_mad_exec(Exec *x, const Instr *in, const MadExt *me, uint64_t A, uint64_t B, uint64_t C, uint64_t BIAS,
                  uint64_t M, uint64_t N, uint64_t K)
{
    return cube_mad_exec_with(x, in, me, NULL, NULL, A, B, C, BIAS, M, N, K);
}

int cube_mad_exec_with(Exec *x, const Instr *in, const MadExt *me, const uint8_t *pa, const uint8_t *pb, uint64_t A,
                       uint64_t B, uint64_t C, uint64_t BIAS, uint64_t M, uint64_t N, uint64_t K)
{
    if (cube_field(x, in, "m", M, 16) || cube_field(x, in, "n", N, 16) || cube_field(x, in, "k", K, 16)) return -1;
    if (!M || !N || !K) return 0;
    if (me->mx && !x->core->sim->tp->fp8) {
        sim_trap(x, in, DIAG_T_UNSUPPORTED, "MX matmul needs the a5 target profile");
        return -1;
    }
    if (me->mx && K % 64) {   /* the MX MAD consumes K in 64-element multiples: the L0 bytes past k up to the next one
                                 too (docs/semantics.md §8.4 "MX k") */
        sim_warn_once(x, in, DIAG_V_UNCONFIRMED, "k = %" PRIu64 " is not a multiple of 64: the MX matmul consumes %" PRIu64
                      ", reading the operands' padding up to it (the spec's 64-element multiples)", K, K + 64 - K % 64);
        K += 64 - K % 64;
    }
    unsigned e = me->ea.bytes;
    uint64_t Mp = pad16(M), Np = pad16(N), K1 = ceil_div(K, me->ea.packed4 ? 64u : 32u / e);   /* 32-byte K rows */
    /* GEMV (m = 1 without disable_gemv, semantics §8.4): A is read as one contiguous row of K elements, i.e. the NZ
       layout with pitch 1 */
    uint64_t Ap = me->gemv && M == 1 ? 1 : Mp;
    if (!pa && !(pa = sim_mem(x, in, AS_L0A, A, K1 * Ap * 32, 32, ACC_READ, "left operand"))) return -1;
    if (!pb && !(pb = sim_mem(x, in, AS_L0B, B, K1 * Np * 32, 32, ACC_READ, "right operand"))) return -1;
    /* C: written; mad_acc also reads it first (a read-modify-write, not atomic: the read here, the write below) */
    uint64_t clen = ceil_div(N, 16) * Mp * 16 * 4;
    uint8_t *pc = sim_mem(x, in, AS_L0C, C, clen, 32, me->mode == 1 ? ACC_READ : ACC_WRITE,
                          me->mode == 1 ? "accumulator" : "accumulator destination");
    if (!pc) return -1;
    if (me->mode == 1 && x->core->cl->watch) sim_access(x, in, x->core, AS_L0C, C, clen, ACC_WRITE);
    const uint8_t *pbias = NULL;
    if (me->mode == 2) {
        pbias = sim_mem(x, in, AS_BT, BIAS, N * 4, 32, ACC_READ, "bias");
        if (!pbias) return -1;
    }
    uint64_t G = ceil_div(K, 32);
    const uint8_t *sa = NULL, *sb = NULL;
    if (me->mx) {
        uint64_t G2 = ceil_div(G, 2);
        sa = cube_mx_state(x, in, 0, A, Ap == 1 ? G : Mp * G2 * 2);
        if (!sa) return -1;
        sb = cube_mx_state(x, in, 1, B, Np * G2 * 2);
        if (!sb) return -1;
    }
    /* The operands are decoded once: A as [M][K], B as [K][N rounded up to 16] (zero padding lanes). Then each
       row m of C is a row of accumulators over n, stepped through k = 0, 1, ..., K-1 in that order. */
    uint64_t ld = pad16(N);
    if (me->mx) {
        double *av = scratch(x, in, sizeof(double) * (M * K + N * K));
        if (!av) return -1;
        double *bv = av + M * K;
        decode_mx(me, 0, av, pa, sa, M, K, Ap);
        decode_mx(me, 1, bv, pb, sb, N, K, Np);
        for (uint64_t m = 0; m < M; m++)
            for (uint64_t n = 0; n < N; n++) {
                uint32_t ib = 0;
                if (me->mode == 1) memcpy(&ib, pc + l0c_elem(m, n, Mp) * 4, 4);
                else if (me->mode == 2) memcpy(&ib, pbias + n * 4, 4);
                float acc = num_bits_to_f32(ib);
                if (me->sat) acc = sat_to(acc, FLT_MAX);
                const double *ar = av + m * K, *br = bv + n * K;
                for (uint64_t k = 0; k < K; k++) {
                    float p = (float)(ar[k] * br[k]);   /* exact product, one rounding to f32 */
                    if (me->sat) p = sat_to(p, FLT_MAX);
                    float s2 = acc + p;
                    acc = me->sat ? sat_to(s2, FLT_MAX) : s2;
                }
                put_f32(pc, m, n, Mp, acc);
            }
    } else if (me->integer) {
        int32_t *ai = scratch(x, in, 4 * (M * K + K * ld + 2 * ld));
        if (!ai) return -1;
        int32_t *bi = ai + M * K, *acc = bi + K * ld;
        memset(bi, 0, 4 * K * ld);
        decode_int(me, 0, ai, pa, M, K, Ap, 0);
        decode_int(me, 1, bi, pb, N, K, Np, ld);
        for (uint64_t m = 0; m < M; m += 2) {
            int two = m + 1 < M;
            for (uint64_t r = 0; r <= (uint64_t)two; r++) {
                int32_t *row = acc + r * ld;
                memset(row, 0, 4 * ld);
                for (uint64_t n = 0; n < N && me->mode; n++)
                    memcpy(&row[n], me->mode == 1 ? pc + l0c_elem(m + r, n, Mp) * 4 : pbias + n * 4, 4);
            }
            for (uint64_t nb = 0; nb < ld; nb += 16)
                tile_i32(acc + nb, acc + ld + nb, bi + nb, ai + m * K, ai + (m + two) * K, K, ld, two);
            for (uint64_t r = 0; r <= (uint64_t)two; r++)
                for (uint64_t n = 0; n < N; n++) memcpy(pc + l0c_elem(m + r, n, Mp) * 4, &acc[r * ld + n], 4);
        }
    } else {
        float *af = scratch(x, in, 4 * (M * K + K * ld + 2 * ld));
        if (!af) return -1;
        float *bf = af + M * K, *acc = bf + K * ld;
        memset(bf, 0, 4 * K * ld);
        decode_float(me, 0, af, pa, M, K, Ap, 0);
        decode_float(me, 1, bf, pb, N, K, Np, ld);
        for (uint64_t m = 0; m < M; m += 2) {
            int two = m + 1 < M;
            for (uint64_t r = 0; r <= (uint64_t)two; r++) {
                float *row = acc + r * ld;
                memset(row, 0, 4 * ld);
                for (uint64_t n = 0; n < N && me->mode; n++) {
                    uint32_t ib;
                    memcpy(&ib, me->mode == 1 ? pc + l0c_elem(m + r, n, Mp) * 4 : pbias + n * 4, 4);
                    row[n] = me->sat ? sat_to(num_bits_to_f32(ib), FLT_MAX) : num_bits_to_f32(ib);
                }
            }
            for (uint64_t nb = 0; nb < ld; nb += 16)
                (me->sat ? tile_f32_sat : tile_f32)(acc + nb, acc + ld + nb, bf + nb, af + m * K, af + (m + two) * K, K, ld, two);
            for (uint64_t r = 0; r <= (uint64_t)two; r++)
                for (uint64_t n = 0; n < N; n++) put_f32(pc, m + r, n, Mp, acc[r * ld + n]);
        }
    }
    sim_count(x, x->pipe, M * N * 4);
    x->extra_cost += timing_mad(x->core->sim->timing, me->ea.kind, M, N, K);
    return 0;
}

static int p_mad(Exec *x, const Instr *in, const uint64_t *a)
{
    const MadExt *me = in->ext;
    return cube_mad_exec(x, in, me, a[me->ia], a[me->ib], a[me->ic], me->ibias >= 0 ? a[me->ibias] : 0, a[me->im],
                         a[me->in], a[me->ik]);
}

/* The decoder of an operand's element type, with its byte table and sat bound. */
static void choose_decoder(MadExt *me, int side, CElem e)
{
    if (e.fmt < 0) {
        me->dec[side] = e.is_signed ? DEC_I8 : DEC_U8;
        return;
    }
    NumFormat f = (NumFormat)e.fmt;
    me->dec[side] = f == NUM_F32 ? DEC_F32 : f == NUM_F16 ? DEC_F16 : f == NUM_BF16 ? DEC_BF16 : DEC_LUT;
    if (e.bytes == 1)
        for (unsigned v = 0; v < 256; v++) me->lut[side][v] = (float)cube_fval(f, v);
    me->satmax[side] = (float)cube_fval(f, num_convert(NUM_F64, num_f64_to_bits(INFINITY), f, NUM_RND_R, true));
}

static const char *mad_config(MadExt *me, CElem ec, CElem ebias);

int cube_lower_mad(LowerView *L, const Op *op, Instr *in)
{
    MadExt *me = lw_alloc(L, op, sizeof(MadExt));
    if (!me) return -1;
    me->ia = (int8_t)lw_group_index(L, op, "a", 0);
    me->ib = (int8_t)lw_group_index(L, op, "b", 0);
    me->ic = (int8_t)lw_group_index(L, op, "c", 0);
    me->ibias = (int8_t)lw_group_index(L, op, "bias", 0);
    me->im = (int8_t)lw_group_index(L, op, "m", 0);
    me->in = (int8_t)lw_group_index(L, op, "n", 0);
    me->ik = (int8_t)lw_group_index(L, op, "k", 0);
    me->mode = op->kind == OP_MAD_ACC || op->kind == OP_MAD_MX_ACC ? 1 : op->kind == OP_MAD_BIAS || op->kind == OP_MAD_MX_BIAS ? 2 : 0;
    me->mx = op->kind == OP_MAD_MX || op->kind == OP_MAD_MX_ACC || op->kind == OP_MAD_MX_BIAS;
    me->gemv = !op_has_unit(op, "disable_gemv");
    me->sat = op_has_unit(op, "sat");
    int tf = op_token_id(op, "tf32");
    me->tf32 = !op_has_unit(op, "tf32_mode") ? 0 : tf == T_TF32_ROUND_AWAY ? 2 : 1;
    me->ea = cube_ptr_elem(op, me->ia);
    me->eb = cube_ptr_elem(op, me->ib);
    in->ext = me;
    in->pfn = p_mad;
    if (me->ia < 0 || me->ib < 0 || me->ic < 0 || me->im < 0 || me->in < 0 || me->ik < 0 || (me->mode == 2 && me->ibias < 0))
        return cube_unsupported(in, "this form of MAD is not simulated");
    const char *why = mad_config(me, cube_ptr_elem(op, me->ic), me->mode == 2 ? cube_ptr_elem(op, me->ibias) : me->ea);
    return why ? cube_unsupported(in, why) : 0;
}

/* The element types' checks and the decoders (me->mode, mx, ea, eb set): NULL, or why the form is not
   simulated. */
static const char *mad_config(MadExt *me, CElem ec, CElem ebias)
{
    if ((me->ea.packed4 || me->eb.packed4) && !(me->mx && me->ea.packed4 && me->eb.packed4))
        return "MAD on packed fp4 operands is simulated in the MX forms only, both operands fp4";
    if (!me->ea.bytes || me->ea.bytes != me->eb.bytes) return "MAD operands of different element widths are not simulated";
    int fa = me->ea.fmt >= 0, fb = me->eb.fmt >= 0;
    if (fa != fb) return "MAD mixing integer and floating-point operands is not simulated";
    if (me->mx && !(me->ea.fmt == NUM_E4M3FN || me->ea.fmt == NUM_E5M2 || me->ea.packed4))
        return "MX matmul is simulated for f8E4M3FN / f8E5M2 / f4E2M1x2 / f4E1M2x2 operands only";
    if (me->mx && !(me->eb.fmt == NUM_E4M3FN || me->eb.fmt == NUM_E5M2 || me->eb.packed4))
        return "MX matmul is simulated for f8E4M3FN / f8E5M2 / f4E2M1x2 / f4E1M2x2 operands only";
    if (fa) {
        if (me->ea.fmt == NUM_F64 || me->ea.fmt == NUM_E8M0) return "MAD on this floating-point type is not simulated";
        if (ec.fmt != NUM_F32) return "floating-point MAD needs an f32 accumulator";
    } else {
        if (me->ea.bits != 8) return "integer MAD is simulated for 8-bit operands only";
        if (ec.fmt >= 0 || ec.bits != 32) return "integer MAD needs a 32-bit integer accumulator";
        me->integer = 1;
    }
    choose_decoder(me, 0, me->ea);
    choose_decoder(me, 1, me->eb);
    if (me->mode == 2 && (ebias.bytes != 4 || (ebias.fmt >= 0) != fa)) return "the bias table must hold the accumulator type";
    return NULL;
}

MadExt *cube_mad_plan(LowerView *L, const Op *op, int mode, int mx, int gemv, int sat, const Type *a, const Type *b,
                      const Type *c, const Type *bias, const char **why)
{
    MadExt *me = lw_alloc(L, op, sizeof(MadExt));
    if (!me) return NULL;
    me->ia = me->ib = me->ic = me->ibias = me->im = me->in = me->ik = -1;
    me->mode = (uint8_t)mode;
    me->mx = (uint8_t)(mx != 0);
    me->gemv = (uint8_t)(gemv != 0);
    me->sat = (uint8_t)(sat != 0);
    me->ea = cube_elem(a);
    me->eb = cube_elem(b);
    *why = mad_config(me, cube_elem(c), bias ? cube_elem(bias) : me->ea);
    return me;
}
