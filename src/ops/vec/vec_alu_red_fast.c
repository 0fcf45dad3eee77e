/* vec_alu_red_fast.c — fast handlers for what real kernels spend their vector time on besides element-wise
 * arithmetic: f32 reductions (vcadd, vcgadd, vcpadd, vcmax, vcmin, vcgmax, vcgmin), vdup, and f32 vexpdif.
 * Each computes exactly what its generic handler computes (valu_x_red, valu_x_vdup, valu_x_vexpdif; the
 * unit tests compare them on random and special inputs, and the differential fuzzer compares whole runs with
 * --no-fast-paths):
 *  - sums: the same pairwise tree over lane order in host f32 arithmetic. An f32 + f32 sum rounded once to
 *    f32 is what the generic path's exact double sum rounded by fenc gives (round-to-nearest is enforced at
 *    launch, subnormals kept); a NaN anywhere in the tree reaches the root, which is then made canonical, as
 *    the generic path's per-step canonical NaN does;
 *  - extrema: lane_better's order on host floats (f32 compares exactly as its double), NaN first-wins, +0
 *    above -0, the first occurrence's index;
 *  - the active lanes are read from the mask image once per register into a 64-bit word (lane i: bit 4i).
 * f16 reductions (vcadd, vcgadd, vcmax, vcmin, vcgmax, vcgmin) decode the lanes once (exactly, as floats) and form
 * each partial sum in double rounded once to f16 by fenc's rounding, as valu_eval does, without its per-lane
 * dispatch. Other element kinds keep the generic handlers. */
#include "vec_alu_int.h"

#define QNAN32 0x7FC00000u

/* Lane i of an f32 register is active: bit i of the result (image bit 4i; NULL: all). */
static inline uint64_t active32(const uint8_t *img)
{
    if (!img) return ~0ull;
    uint64_t iw[4];
    memcpy(iw, img, 32);
    if (((iw[0] & iw[1] & iw[2] & iw[3]) & 0x1111111111111111ull) == 0x1111111111111111ull) return ~0ull;   /* bits 0, 4 of every byte */
    uint64_t w = 0;
    for (unsigned q = 0; q < 32; q++) {
        unsigned b = img[q];
        w |= (uint64_t)((b & 1u) | ((b >> 3) & 2u)) << (2 * q);
    }
    return w;
}

static inline float f_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t u_of(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline uint32_t canon32(float f) { return f != f ? QNAN32 : u_of(f); }

/* The register's lanes as floats, inactive lanes +0. */
static inline void load_active(float *v, const uint8_t *a, uint64_t act)
{
    uint32_t u[64];
    memcpy(u, a, 256);
    if (act == ~0ull) {
        memcpy(v, u, 256);
        return;
    }
    for (unsigned i = 0; i < 64; i++) {
        uint32_t x = (act >> i) & 1 ? u[i] : 0;
        memcpy(&v[i], &x, 4);
    }
}

/* One level of the pairwise tree: v[i] = v[2i] + v[2i+1], i < n/2 (in place: output i overwrites only
   inputs already read). Where the compiler has __builtin_shufflevector, levels with n >= 8 take 8 inputs at a
   time as two 4-lane vectors and add their even and odd lanes (the same sums, in the same order). */
#if defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector)
#define RED_SHUFFLE 1
#endif
#endif
#ifdef RED_SHUFFLE
typedef float rf4 __attribute__((vector_size(16)));
#endif
static inline void tree_level(float *v, unsigned n)
{
#ifdef RED_SHUFFLE
    if (n >= 8) {
        for (unsigned i = 0; i < n / 8; i++) {
            rf4 a, b, r;
            memcpy(&a, v + 8 * i, 16);
            memcpy(&b, v + 8 * i + 4, 16);
            r = __builtin_shufflevector(a, b, 0, 2, 4, 6) + __builtin_shufflevector(a, b, 1, 3, 5, 7);
            memcpy(v + 4 * i, &r, 16);
        }
        return;
    }
#endif
    for (unsigned i = 0; i < n / 2; i++) v[i] = v[2 * i] + v[2 * i + 1];
}

static inline const uint8_t *red_mask(Exec *x, const Instr *in)
{
    return in->imm[RS_MASK] >= 0 ? FR(x, in->arg[in->imm[RS_MASK]]) : NULL;
}

#ifdef RED_SHUFFLE
/* The first `levels` levels of the tree over the 64 lanes held in 16 registers of 4, kept in registers:
   after them a[0 .. 16 >> levels) hold the partial sums in lane order. */
static inline void tree_regs(rf4 *a, unsigned levels)
{
    unsigned n = 16;
    for (unsigned l = 0; l < levels; l++, n /= 2)
        _Pragma("GCC unroll 8") for (unsigned i = 0; i < n / 2; i++)
            a[i] = __builtin_shufflevector(a[2 * i], a[2 * i + 1], 0, 2, 4, 6) +
                   __builtin_shufflevector(a[2 * i], a[2 * i + 1], 1, 3, 5, 7);
}
#endif

static const Instr *f32_cadd(Exec *x, const Instr *in)
{
    float v[64];
    load_active(v, FR(x, in->arg[0]), active32(red_mask(x, in)));
#ifdef RED_SHUFFLE
    rf4 a[16];
    memcpy(a, v, 256);
    tree_regs(a, 4);   /* a[0]: the sums of lanes 0-15, 16-31, 32-47, 48-63 */
    v[0] = (a[0][0] + a[0][1]) + (a[0][2] + a[0][3]);
#else
    for (unsigned n = 64; n > 1; n /= 2) tree_level(v, n);
#endif
    uint32_t out[64] = {0};
    out[0] = canon32(v[0]);
    memcpy(FR(x, in->res[0]), out, 256);
    return valu_done(x, in);
}

static const Instr *f32_cgadd(Exec *x, const Instr *in)
{
    float v[64];
    load_active(v, FR(x, in->arg[0]), active32(red_mask(x, in)));
    uint32_t out[64] = {0};
    for (unsigned g = 0; g < 8; g++) {
        float *w = v + 8 * g;
        tree_level(w, 8);
        tree_level(w, 4);
        tree_level(w, 2);
        out[g] = canon32(w[0]);
    }
    memcpy(FR(x, in->res[0]), out, 256);
    return valu_done(x, in);
}

static const Instr *f32_cpadd(Exec *x, const Instr *in)
{
    float v[64];
    load_active(v, FR(x, in->arg[0]), active32(red_mask(x, in)));
    uint32_t out[64] = {0};
    for (unsigned i = 0; i < 32; i++) out[i] = canon32(v[2 * i] + v[2 * i + 1]);
    memcpy(FR(x, in->res[0]), out, 256);
    return valu_done(x, in);
}

/* The extremum of the active lanes among [lo, hi): lane_better's order. *idx: its lane; returns its bits
   (canonical NaN), or the empty value (-inf for max, +inf for min) with index 0. */
static inline uint32_t extremum(const uint32_t *u, uint64_t act, unsigned lo, unsigned hi, int want_max, unsigned *idx)
{
    int found = 0;
    uint32_t bu = want_max ? 0xFF800000u : 0x7F800000u;
    float b = 0;
    *idx = 0;
    for (unsigned i = lo; i < hi; i++) {
        if (!((act >> i) & 1)) continue;
        float a = f_of(u[i]);
        int better;
        if (!found) better = 1;
        else if (a != a) better = 1;   /* b is not a NaN: a NaN would have stopped the scan */
        else if (a == b && a == 0) better = want_max ? (bu >> 31) && !(u[i] >> 31) : !(bu >> 31) && (u[i] >> 31);
        else better = want_max ? a > b : a < b;
        if (better) {
            b = a;
            bu = u[i];
            *idx = i;
            found = 1;
            if (a != a) return QNAN32;   /* nothing beats the first NaN */
        }
    }
    return bu;
}

static inline const Instr *f32_cext(Exec *x, const Instr *in, int want_max)
{
    uint32_t u[64], out[64] = {0};
    memcpy(u, FR(x, in->arg[0]), 256);
    unsigned idx;
    out[0] = extremum(u, active32(red_mask(x, in)), 0, 64, want_max, &idx);
    out[1] = idx;
    memcpy(FR(x, in->res[0]), out, 256);
    return valu_done(x, in);
}
static const Instr *f32_cmax(Exec *x, const Instr *in) { return f32_cext(x, in, 1); }
static const Instr *f32_cmin(Exec *x, const Instr *in) { return f32_cext(x, in, 0); }

static inline const Instr *f32_cgext(Exec *x, const Instr *in, int want_max)
{
    uint32_t u[64], out[64] = {0};
    memcpy(u, FR(x, in->arg[0]), 256);
    uint64_t act = active32(red_mask(x, in));
    unsigned idx;
    for (unsigned g = 0; g < 8; g++) out[g] = extremum(u, act, 8 * g, 8 * g + 8, want_max, &idx);
    memcpy(FR(x, in->res[0]), out, 256);
    return valu_done(x, in);
}
static const Instr *f32_cgmax(Exec *x, const Instr *in) { return f32_cgext(x, in, 1); }
static const Instr *f32_cgmin(Exec *x, const Instr *in) { return f32_cgext(x, in, 0); }

/* ------------------------------------------------------------------ f16 */

/* An f16 code's value as a float (exact: 11 significant bits, exponents in range; NaNs stay NaNs). */
static inline float h2f(uint32_t h)
{
    uint32_t sg = (h & 0x8000u) << 16, e = (h >> 10) & 31u, m = h & 1023u;
    if (e == 0) {
        float v = (float)m * 0x1p-24f;
        return sg ? -v : v;
    }
    return f_of(sg | (e == 31 ? 0x7F800000u | (m << 13) : ((e + 112u) << 23) | (m << 13)));
}

/* Lane i of an f16 register is active: image bit 2i. */
static inline int on16(const uint8_t *img, unsigned i) { return !img || ((img[i >> 2] >> ((2 * i) & 7)) & 1); }

/* The pairwise tree over n f16 lanes (inactive +0): each partial sum formed exactly in double and rounded once
   to f16 (fenc), as the generic path's valu_eval does. */
static inline uint32_t f16_tree(const uint16_t *u, const uint8_t *img, unsigned lo, unsigned n)
{
    double v[128];
    for (unsigned i = 0; i < n; i++) v[i] = on16(img, lo + i) ? (double)h2f(u[lo + i]) : 0.0;
    uint32_t bits = 0;
    for (; n > 1; n /= 2)
        for (unsigned i = 0; i < n / 2; i++) {
            bits = (uint32_t)f64_round_to(v[2 * i] + v[2 * i + 1], 10, -14, 0x7E00, 16);
            v[i] = (double)h2f(bits);
        }
    return bits;   /* the root (n >= 2 always) */
}

static const Instr *f16_cadd(Exec *x, const Instr *in)
{
    uint16_t u[128], out[128] = {0};
    memcpy(u, FR(x, in->arg[0]), 256);
    out[0] = (uint16_t)f16_tree(u, red_mask(x, in), 0, 128);
    memcpy(FR(x, in->res[0]), out, 256);
    return valu_done(x, in);
}

static const Instr *f16_cgadd(Exec *x, const Instr *in)
{
    uint16_t u[128], out[128] = {0};
    memcpy(u, FR(x, in->arg[0]), 256);
    const uint8_t *m = red_mask(x, in);
    for (unsigned g = 0; g < 8; g++) out[g] = (uint16_t)f16_tree(u, m, 16 * g, 16);
    memcpy(FR(x, in->res[0]), out, 256);
    return valu_done(x, in);
}

/* lane_better's order over the active f16 lanes [lo, hi) (values exact as floats); NaN first-wins. */
static inline uint32_t extremum16(const uint16_t *u, const uint8_t *img, unsigned lo, unsigned hi, int want_max, unsigned *idx)
{
    int found = 0;
    uint32_t bu = want_max ? 0xFC00u : 0x7C00u;
    float b = 0;
    *idx = 0;
    for (unsigned i = lo; i < hi; i++) {
        if (!on16(img, i)) continue;
        float a = h2f(u[i]);
        int better;
        if (!found || a != a) better = 1;
        else if (a == b && a == 0) better = want_max ? (bu >> 15) && !(u[i] >> 15) : !(bu >> 15) && (u[i] >> 15);
        else better = want_max ? a > b : a < b;
        if (better) {
            b = a;
            bu = u[i];
            *idx = i;
            found = 1;
            if (a != a) return 0x7E00u;
        }
    }
    return bu;
}

static inline const Instr *f16_cext(Exec *x, const Instr *in, int want_max, int grouped)
{
    uint16_t u[128], out[128] = {0};
    memcpy(u, FR(x, in->arg[0]), 256);
    const uint8_t *m = red_mask(x, in);
    unsigned idx;
    if (grouped) {
        for (unsigned g = 0; g < 8; g++) out[g] = (uint16_t)extremum16(u, m, 16 * g, 16 * g + 16, want_max, &idx);
    } else {
        out[0] = (uint16_t)extremum16(u, m, 0, 128, want_max, &idx);
        out[1] = (uint16_t)idx;
    }
    memcpy(FR(x, in->res[0]), out, 256);
    return valu_done(x, in);
}
static const Instr *f16_cmax(Exec *x, const Instr *in) { return f16_cext(x, in, 1, 0); }
static const Instr *f16_cmin(Exec *x, const Instr *in) { return f16_cext(x, in, 0, 0); }
static const Instr *f16_cgmax(Exec *x, const Instr *in) { return f16_cext(x, in, 1, 1); }
static const Instr *f16_cgmin(Exec *x, const Instr *in) { return f16_cext(x, in, 0, 1); }

ExecFn valu_red_fast(int kind, ElemKind k, ElemKind kd)
{
    if (k == EK_F16 && kd == EK_F16) {
        switch (kind) {
        case RD_ADD: return f16_cadd;
        case RD_GADD: return f16_cgadd;
        case RD_MAX: return f16_cmax;
        case RD_MIN: return f16_cmin;
        case RD_GMAX: return f16_cgmax;
        case RD_GMIN: return f16_cgmin;
        default: return NULL;
        }
    }
    if (k != EK_F32 || kd != EK_F32) return NULL;
    switch (kind) {
    case RD_ADD: return f32_cadd;
    case RD_GADD: return f32_cgadd;
    case RD_PADD: return f32_cpadd;
    case RD_MAX: return f32_cmax;
    case RD_MIN: return f32_cmin;
    case RD_GMAX: return f32_cgmax;
    case RD_GMIN: return f32_cgmin;
    default: return NULL;
    }
}

/* ------------------------------------------------------------------ vdup */

/* The value in every active lane of width E, 0 elsewhere (mask lane i: image bit E*i). */
#define VDUP_FAST(E, T)                                                                                        \
    static const Instr *vdup_##E(Exec *x, const Instr *in)                                                     \
    {                                                                                                         \
        const uint8_t *m = in->imm[MT_MASK] >= 0 ? FR(x, in->arg[in->imm[MT_MASK]]) : NULL;                   \
        T s, out[VREG_BYTES / E];                                                                             \
        if (in->imm[MT_LANE] >= 0) memcpy(&s, FR(x, in->arg[0]) + E * (unsigned)in->imm[MT_LANE], E);          \
        else { uint64_t v = ARG(x, in, 0); memcpy(&s, &v, E); }                                               \
        for (unsigned i = 0; i < VREG_BYTES / E; i++) out[i] = s;                                             \
        if (m)                                                                                                \
            for (unsigned i = 0; i < VREG_BYTES / E; i++)                                                     \
                if (!((m[(E * i) >> 3] >> ((E * i) & 7)) & 1)) out[i] = 0;                                   \
        memcpy(FR(x, in->res[0]), out, VREG_BYTES);                                                           \
        return valu_done(x, in);                                                                              \
    }
VDUP_FAST(1, uint8_t)
VDUP_FAST(2, uint16_t)
VDUP_FAST(4, uint32_t)
VDUP_FAST(8, uint64_t)
#undef VDUP_FAST

ExecFn valu_vdup_fast(unsigned e)
{
    switch (e) {
    case 1: return vdup_1;
    case 2: return vdup_2;
    case 4: return vdup_4;
    case 8: return vdup_8;
    default: return NULL;
    }
}

/* ------------------------------------------------------------------ vexpdif, f32 source */

/* exp(a - mx) with the difference exact in double, rounded once to f32 (lane_expdif, fenc's canonical NaN). */
static const Instr *f32_expdif(Exec *x, const Instr *in)
{
    enum { ED_MASK = 1 };   /* vec_alu_cvt.c's operand slots: source kind, mask, part */
    const uint8_t *m = in->imm[ED_MASK] >= 0 ? FR(x, in->arg[in->imm[ED_MASK]]) : NULL;
    uint32_t a[64], mx[64], out[64];
    memcpy(a, FR(x, in->arg[0]), 256);
    memcpy(mx, FR(x, in->arg[1]), 256);
    uint64_t act = active32(m);
    for (unsigned i = 0; i < 64; i++) {
        if (!((act >> i) & 1)) { out[i] = 0; continue; }
        float r = (float)exp((double)f_of(a[i]) - (double)f_of(mx[i]));
        out[i] = canon32(r);
    }
    memcpy(FR(x, in->res[0]), out, 256);
    return valu_done(x, in);
}

ExecFn valu_vexpdif_fast(ElemKind s) { return s == EK_F32 ? f32_expdif : NULL; }
