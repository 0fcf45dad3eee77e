/* vec_alu_fast.c — SIMD handlers for the common element-wise (op, type) pairs: f32 add/sub/mul/div/
 * max/min and 8/16/32-bit integer add/sub/mul/and/or/xor/max/min, each with and without a mask,
 * vector-vector and vector-scalar. They compute exactly what the generic handler (vec_alu.c) computes:
 * f32 results are host IEEE single operations (round-to-nearest is enforced at launch, subnormals are
 * kept) with NaN results replaced by the canonical NaN 0x7FC00000; integers wrap; inactive lanes are 0.
 *
 * The loops use the GCC/Clang vector extensions on 16-byte vectors (SSE2 / NEON baseline) and, on x86-64
 * hosts with AVX2, 32-byte vectors (chosen at lowering), so they are
 * SIMD at -O2 whatever the compiler's auto-vectoriser decides. They read the generic handler's operands
 * (EW_MASK, EW_A, EW_B, EW_S of Instr.imm) directly, without an indirection. */
#include "vec_alu_int.h"

#define QNAN32 0x7FC00000u

/* ---- masks ----
 * Image byte q governs vreg bytes [8q, 8q+8) at every element width (8, 4 or 2 lanes per image byte), so
 * a chunk of VB bytes takes the table words of image bytes [c*VB/8, (c+1)*VB/8). Each table turns an
 * image byte into the all-ones/all-zeros lane words of its lanes: bits 0,4 (32-bit lanes), bits 0,2,4,6 (16-bit lanes) or bits 0..7 (8-bit lanes). */
#define B(v, k) ((v) >> (k) & 1ull)
#define T32(v) ((B(v, 0) * 0xFFFFFFFFull) | (B(v, 4) * 0xFFFFFFFF00000000ull))
#define T16(v) ((B(v, 0) * 0xFFFFull) | (B(v, 2) * 0xFFFF0000ull) | (B(v, 4) * 0xFFFF00000000ull) | (B(v, 6) * 0xFFFF000000000000ull))
#define T8(v)  ((B(v, 0) * 0xFFull) | (B(v, 1) * 0xFF00ull) | (B(v, 2) * 0xFF0000ull) | (B(v, 3) * 0xFF000000ull) | \
                (B(v, 4) * 0xFF00000000ull) | (B(v, 5) * 0xFF0000000000ull) | (B(v, 6) * 0xFF000000000000ull) |  \
                (B(v, 7) * 0xFF00000000000000ull))
#define R4(F, n) F((n)), F((n) + 1), F((n) + 2), F((n) + 3)
#define R16(F, n) R4(F, n), R4(F, (n) + 4), R4(F, (n) + 8), R4(F, (n) + 12)
#define R64(F, n) R16(F, n), R16(F, (n) + 16), R16(F, (n) + 32), R16(F, (n) + 48)
#define R256(F) R64(F, 0u), R64(F, 64u), R64(F, 128u), R64(F, 192u)
static const uint64_t tab32[256] = {R256(T32)};
static const uint64_t tab16[256] = {R256(T16)};
static const uint64_t tab8[256] = {R256(T8)};
#undef B
#undef T32
#undef T16
#undef T8
#undef R4
#undef R16
#undef R64
#undef R256

static inline int all_on(const uint8_t *img, uint64_t pat)
{
    uint64_t w0, w1, w2, w3;
    memcpy(&w0, img, 8);
    memcpy(&w1, img + 8, 8);
    memcpy(&w2, img + 16, 8);
    memcpy(&w3, img + 24, 8);
    return ((w0 & w1 & w2 & w3) & pat) == pat;
}

/* Replaces every NaN lane of an f32 vreg by the canonical NaN (the rare second pass of VALU_HANDLERS_F). */
static void canon_f32(uint8_t *r)
{
    for (unsigned i = 0; i < VREG_BYTES / 4; i++) {
        uint32_t v;
        memcpy(&v, r + 4 * i, 4);
        if ((v & 0x7F800000u) == 0x7F800000u && (v & 0x007FFFFFu)) {
            v = QNAN32;
            memcpy(r + 4 * i, &v, 4);
        }
    }
}

#define P32 0x1111111111111111ull
#define P16 0x5555555555555555ull
#define P8 0xFFFFFFFFFFFFFFFFull

/* ---- one instantiation per vector width: S = prefix, VB = vector bytes, A = function attributes ---- */
#define VALU_FAST_SET(S, VB, A)                                                                               \
    typedef float S##_vf __attribute__((vector_size(VB)));                                                      \
    typedef uint32_t S##_vu32 __attribute__((vector_size(VB)));                                                 \
    typedef int32_t S##_vs32 __attribute__((vector_size(VB)));                                                  \
    typedef uint16_t S##_vu16 __attribute__((vector_size(VB)));                                                 \
    typedef int16_t S##_vs16 __attribute__((vector_size(VB)));                                                  \
    typedef uint8_t S##_vu8 __attribute__((vector_size(VB)));                                                   \
    typedef int8_t S##_vs8 __attribute__((vector_size(VB)));                                                    \
    /* f32: NaN results become 0x7FC00000 */                                                                   \
    A static inline int S##_any(S##_vu32 v) { return VALU_ANY_##S(v); }                                      \
    /* add/sub/mul/div produce raw results; their handlers canonicalise NaNs afterwards (VALU_HANDLERS_F) */   \
    A static inline S##_vu32 S##_f_add(S##_vu32 x, S##_vu32 y) { return (S##_vu32)((S##_vf)x + (S##_vf)y); }   \
    A static inline S##_vu32 S##_f_sub(S##_vu32 x, S##_vu32 y) { return (S##_vu32)((S##_vf)x - (S##_vf)y); }   \
    A static inline S##_vu32 S##_f_mul(S##_vu32 x, S##_vu32 y) { return (S##_vu32)((S##_vf)x * (S##_vf)y); }   \
    A static inline S##_vu32 S##_f_div(S##_vu32 x, S##_vu32 y) { return (S##_vu32)((S##_vf)x / (S##_vf)y); }   \
    /* NaN -> NaN; equal operands (only +0/-0 differ in encoding): AND of the codes for max (+0 wins), OR    \
       for min (-0 wins) */                                                                                   \
    A static inline S##_vu32 S##_f_max(S##_vu32 a, S##_vu32 b)                                                \
    {                                                                                                         \
        S##_vf x = (S##_vf)a, y = (S##_vf)b;                                                                  \
        S##_vu32 gt = (S##_vu32)(x > y), lt = (S##_vu32)(x < y), nn = (S##_vu32)((x != x) | (y != y));        \
        S##_vu32 r = (a & gt) | (b & lt) | (a & b & ~(gt | lt));                                              \
        return (r & ~nn) | (nn & QNAN32);                                                                     \
    }                                                                                                         \
    A static inline S##_vu32 S##_f_min(S##_vu32 a, S##_vu32 b)                                                \
    {                                                                                                         \
        S##_vf x = (S##_vf)a, y = (S##_vf)b;                                                                  \
        S##_vu32 gt = (S##_vu32)(x > y), lt = (S##_vu32)(x < y), nn = (S##_vu32)((x != x) | (y != y));        \
        S##_vu32 r = (a & lt) | (b & gt) | ((a | b) & ~(gt | lt));                                            \
        return (r & ~nn) | (nn & QNAN32);                                                                     \
    }                                                                                                         \
    VALU_INT_FNS(S, A, s32, S##_vu32, S##_vs32)                                                               \
    VALU_INT_FNS(S, A, u32, S##_vu32, S##_vu32)                                                               \
    VALU_INT_FNS(S, A, s16, S##_vu16, S##_vs16)                                                               \
    VALU_INT_FNS(S, A, u16, S##_vu16, S##_vu16)                                                               \
    VALU_INT_FNS(S, A, s8, S##_vu8, S##_vs8)                                                                  \
    VALU_INT_FNS(S, A, u8, S##_vu8, S##_vu8)                                                                  \
    VALU_HANDLERS_F(S, VB, A, f32_add, S##_f_add, S##_vu32, uint32_t, tab32, P32)                               \
    VALU_HANDLERS_F(S, VB, A, f32_sub, S##_f_sub, S##_vu32, uint32_t, tab32, P32)                               \
    VALU_HANDLERS_F(S, VB, A, f32_mul, S##_f_mul, S##_vu32, uint32_t, tab32, P32)                               \
    VALU_HANDLERS_F(S, VB, A, f32_div, S##_f_div, S##_vu32, uint32_t, tab32, P32)                               \
    VALU_HANDLERS(S, VB, A, f32_max, S##_f_max, S##_vu32, uint32_t, tab32, P32)                               \
    VALU_HANDLERS(S, VB, A, f32_min, S##_f_min, S##_vu32, uint32_t, tab32, P32)                               \
    VALU_INT_SET(S, VB, A, s32, S##_vu32, uint32_t, tab32, P32)                                               \
    VALU_INT_SET(S, VB, A, u32, S##_vu32, uint32_t, tab32, P32)                                               \
    VALU_INT_SET(S, VB, A, s16, S##_vu16, uint16_t, tab16, P16)                                               \
    VALU_INT_SET(S, VB, A, u16, S##_vu16, uint16_t, tab16, P16)                                               \
    VALU_INT_SET(S, VB, A, s8, S##_vu8, uint8_t, tab8, P8)                                                    \
    VALU_INT_SET(S, VB, A, u8, S##_vu8, uint8_t, tab8, P8)                                                    \
    static const FastSet S##_f32_sets[VOP__COUNT] = {                                                           \
        [VOP_ADD] = FS(S, f32_add), [VOP_SUB] = FS(S, f32_sub), [VOP_MUL] = FS(S, f32_mul),                     \
        [VOP_DIV] = FS(S, f32_div), [VOP_MAX] = FS(S, f32_max), [VOP_MIN] = FS(S, f32_min),                     \
    };                                                                                                        \
    VALU_INT_TABLE(S, s32)                                                                                    \
    VALU_INT_TABLE(S, u32)                                                                                    \
    VALU_INT_TABLE(S, s16)                                                                                    \
    VALU_INT_TABLE(S, u16)                                                                                    \
    VALU_INT_TABLE(S, s8)                                                                                     \
    VALU_INT_TABLE(S, u8)

/* integers: arithmetic on the unsigned vector type (wraps), comparisons in the signed one when the
   element kind is signed */
#define VALU_INT_FNS(S, A, P, UT, ST)                                                                          \
    A static inline UT S##_##P##_add(UT x, UT y) { return x + y; }                                              \
    A static inline UT S##_##P##_sub(UT x, UT y) { return x - y; }                                              \
    A static inline UT S##_##P##_mul(UT x, UT y) { return x * y; }                                              \
    A static inline UT S##_##P##_and(UT x, UT y) { return x & y; }                                              \
    A static inline UT S##_##P##_or(UT x, UT y) { return x | y; }                                               \
    A static inline UT S##_##P##_xor(UT x, UT y) { return x ^ y; }                                              \
    A static inline UT S##_##P##_max(UT x, UT y) { UT m = (UT)((ST)x > (ST)y); return (x & m) | (y & ~m); }      \
    A static inline UT S##_##P##_min(UT x, UT y) { UT m = (UT)((ST)x < (ST)y); return (x & m) | (y & ~m); }

#define VALU_INT_SET(S, VB, A, P, VT, ET, TAB, PAT)                                                             \
    VALU_HANDLERS(S, VB, A, P##_add, S##_##P##_add, VT, ET, TAB, PAT)                                           \
    VALU_HANDLERS(S, VB, A, P##_sub, S##_##P##_sub, VT, ET, TAB, PAT)                                           \
    VALU_HANDLERS(S, VB, A, P##_mul, S##_##P##_mul, VT, ET, TAB, PAT)                                           \
    VALU_HANDLERS(S, VB, A, P##_and, S##_##P##_and, VT, ET, TAB, PAT)                                           \
    VALU_HANDLERS(S, VB, A, P##_or, S##_##P##_or, VT, ET, TAB, PAT)                                             \
    VALU_HANDLERS(S, VB, A, P##_xor, S##_##P##_xor, VT, ET, TAB, PAT)                                           \
    VALU_HANDLERS(S, VB, A, P##_max, S##_##P##_max, VT, ET, TAB, PAT)                                           \
    VALU_HANDLERS(S, VB, A, P##_min, S##_##P##_min, VT, ET, TAB, PAT)

#define FS(S, NAME) {S##_##NAME##_vv, S##_##NAME##_vvm, S##_##NAME##_vs, S##_##NAME##_vsm, S##_##NAME##_cvv, S##_##NAME##_cvs}
#define VALU_INT_TABLE(S, P)                                                                                  \
    static const FastSet S##_##P##_sets[VOP__COUNT] = {                                                         \
        [VOP_ADD] = FS(S, P##_add), [VOP_SUB] = FS(S, P##_sub), [VOP_MUL] = FS(S, P##_mul),                     \
        [VOP_AND] = FS(S, P##_and), [VOP_OR] = FS(S, P##_or),   [VOP_XOR] = FS(S, P##_xor),                     \
        [VOP_MAX] = FS(S, P##_max), [VOP_MIN] = FS(S, P##_min),                                                 \
    };

/* The chunk loop every fast handler shares: r = EXPR per VB-byte chunk c of the 256-byte register, with va the
   chunk of a (EXPR may use va, c and what PRE declares); NANCHK as below. A chunk is read before it is
   written, so r may be a or b itself. */
#define VALU_CHUNKS(S, VB, VT, NANCHK, PRE, EXPR)                                                             \
    S##_vu32 nan_ = {0};                                                                                      \
    _Pragma("GCC unroll 16") for (unsigned c = 0; c < VREG_BYTES / VB; c++) {                                \
        VT va, vr;                                                                                            \
        PRE                                                                                                   \
        memcpy(&va, a + VB * c, VB);                                                                          \
        vr = EXPR;                                                                                            \
        if (NANCHK) nan_ |= (S##_vu32)((S##_vf)vr != (S##_vf)vr);                                             \
        memcpy(r + VB * c, &vr, VB);                                                                          \
    }                                                                                                         \
    if (NANCHK && S##_any(nan_)) canon_f32(r);
#define VALU_LOOP(S, VB, VT, NANCHK, PRE, EXPR)                                                               \
    VALU_CHUNKS(S, VB, VT, NANCHK, PRE, EXPR)                                                                 \
    return valu_done(x, in);

/* The four handlers of one (op, type): vector-vector and vector-scalar, without and with a mask. FN works
   on vectors of VT (unsigned lanes of the element width, raw lane bits); ET is the element type; the
   scalar operand is the low bytes of its frame slot. NANCHK (f32 add/sub/mul/div, whose FN returns raw IEEE
   results): the loops OR together the lanes' NaN tests and, only when a NaN appeared, a second pass
   replaces NaNs by the canonical NaN. */
#define VALU_HANDLERS_X(S, VB, A, NAME, FN, VT, ET, TAB, PAT, NANCHK)                                         \
    /* the unmasked forms' lane work on plain pointers (also run by the fused load-compute-store of vec_ls.c) */ \
    A static inline void S##_##NAME##_cvv(uint8_t *r, const uint8_t *a, const uint8_t *b, uint64_t raw)         \
    {                                                                                                         \
        (void)raw;                                                                                            \
        VALU_CHUNKS(S, VB, VT, NANCHK, VT vb; memcpy(&vb, b + VB * c, VB);, FN(va, vb))                       \
    }                                                                                                         \
    A static inline void S##_##NAME##_cvs(uint8_t *r, const uint8_t *a, const uint8_t *b, uint64_t raw)         \
    {                                                                                                         \
        (void)b;                                                                                              \
        ET s;                                                                                                 \
        memcpy(&s, &raw, sizeof s);                                                                           \
        VT vs = (VT){0} + s;                                                                                  \
        VALU_CHUNKS(S, VB, VT, NANCHK, , FN(va, vs))                                                          \
    }                                                                                                         \
    A static const Instr *S##_##NAME##_vv(Exec *x, const Instr *in)                                           \
    {                                                                                                         \
        S##_##NAME##_cvv(FR(x, in->res[0]), FR(x, in->arg[in->imm[EW_A]]), FR(x, in->arg[in->imm[EW_B]]), 0); \
        return valu_done(x, in);                                                                              \
    }                                                                                                         \
    A static const Instr *S##_##NAME##_vvm(Exec *x, const Instr *in)                                          \
    {                                                                                                         \
        const uint8_t *img = FR(x, in->arg[in->imm[EW_MASK]]);                                                \
        if (all_on(img, PAT)) return S##_##NAME##_vv(x, in);                                                  \
        const uint8_t *a = FR(x, in->arg[in->imm[EW_A]]), *b = FR(x, in->arg[in->imm[EW_B]]);                 \
        uint8_t *r = FR(x, in->res[0]);                                                                       \
        VALU_LOOP(S, VB, VT, NANCHK, VT vb; memcpy(&vb, b + VB * c, VB);,                                     \
                  FN(va, vb) & (VT)S##_mk(TAB, img + (VB / 8) * c))                                           \
    }                                                                                                         \
    A static const Instr *S##_##NAME##_vs(Exec *x, const Instr *in)                                           \
    {                                                                                                         \
        S##_##NAME##_cvs(FR(x, in->res[0]), FR(x, in->arg[in->imm[EW_A]]), NULL, ARG(x, in, (unsigned)in->imm[EW_S])); \
        return valu_done(x, in);                                                                              \
    }                                                                                                         \
    A static const Instr *S##_##NAME##_vsm(Exec *x, const Instr *in)                                          \
    {                                                                                                         \
        const uint8_t *img = FR(x, in->arg[in->imm[EW_MASK]]);                                                \
        if (all_on(img, PAT)) return S##_##NAME##_vs(x, in);                                                  \
        const uint8_t *a = FR(x, in->arg[in->imm[EW_A]]);                                                     \
        uint8_t *r = FR(x, in->res[0]);                                                                       \
        uint64_t raw = ARG(x, in, (unsigned)in->imm[EW_S]);                                                   \
        ET s;                                                                                                 \
        memcpy(&s, &raw, sizeof s);                                                                           \
        VT vs = (VT){0} + s;                                                                                  \
        VALU_LOOP(S, VB, VT, NANCHK, , FN(va, vs) & (VT)S##_mk(TAB, img + (VB / 8) * c))                      \
    }

#define VALU_HANDLERS(S, VB, A, NAME, FN, VT, ET, TAB, PAT) VALU_HANDLERS_X(S, VB, A, NAME, FN, VT, ET, TAB, PAT, 0)
#define VALU_HANDLERS_F(S, VB, A, NAME, FN, VT, ET, TAB, PAT) VALU_HANDLERS_X(S, VB, A, NAME, FN, VT, ET, TAB, PAT, 1)

typedef struct FastSet { ExecFn vv, vvm, vs, vsm; ValuCore cvv, cvs; } FastSet;

/* The lane mask of one chunk: the table words of its image bytes, built in a register. */
typedef uint64_t b_vu64 __attribute__((vector_size(16)));
static inline b_vu64 b_mk(const uint64_t *t, const uint8_t *p) { return (b_vu64){t[p[0]], t[p[1]]}; }

/* Is any bit of a vector set: portable for the baseline, one vptest for AVX2. */
static inline int any16(const void *v)
{
    uint64_t w[2];
    memcpy(w, v, 16);
    return (w[0] | w[1]) != 0;
}
#define VALU_ANY_b(v) any16(&(v))

/* Baseline: 16-byte vectors (SSE2 on x86-64, NEON on AArch64). */
VALU_FAST_SET(b, 16, )

/* 32-byte AVX2 versions, chosen at lowering when the host CPU has AVX2 (base/host.h). */
#if HOST_HAVE_AVX2
typedef uint64_t w_vu64 __attribute__((vector_size(32)));
__attribute__((target("avx2"))) static inline w_vu64 w_mk(const uint64_t *t, const uint8_t *p)
{
    return (w_vu64){t[p[0]], t[p[1]], t[p[2]], t[p[3]]};
}
#include <immintrin.h>
#define VALU_ANY_w(v) (!_mm256_testz_si256((__m256i)(v), (__m256i)(v)))
VALU_FAST_SET(w, 32, __attribute__((target("avx2"))))
#endif

/* ---- selection ---- */
static const FastSet *fast_set(int vop, ElemKind k)
{
    if (vop < 0 || vop >= VOP__COUNT) return NULL;
    int wide = host_avx2();
    const FastSet *t = NULL;
#define PICK(P) (wide ? WIDE(P) : b_##P##_sets)
#if HOST_HAVE_AVX2
#define WIDE(P) w_##P##_sets
#else
#define WIDE(P) b_##P##_sets
#endif
    switch (k) {
    case EK_F32: t = PICK(f32); break;
    case EK_S32: t = PICK(s32); break;
    case EK_U32: t = PICK(u32); break;
    case EK_S16: t = PICK(s16); break;
    case EK_U16: t = PICK(u16); break;
    case EK_S8: t = PICK(s8); break;
    case EK_U8: t = PICK(u8); break;
    default: return NULL;
    }
#undef PICK
#undef WIDE
    return &t[vop];
}

ExecFn valu_fast(int vop, ElemKind k, bool masked, bool scalar)
{
    const FastSet *f = fast_set(vop, k);
    if (!f || !f->vv) return NULL;
    return scalar ? (masked ? f->vsm : f->vs) : (masked ? f->vvm : f->vv);
}

ValuCore valu_core(ValuOp op, ElemKind k, bool scalar)
{
    const FastSet *f = fast_set((int)op, k);
    if (!f || !f->vv) return NULL;
    return scalar ? f->cvs : f->cvv;
}

ValuCore valu_fast_core(const Instr *in)
{
    const FastSet *f = in->fn ? fast_set((int)in->imm[EW_OP], (ElemKind)in->imm[EW_EK]) : NULL;
    if (!f || !f->vv) return NULL;
    return in->fn == f->vv ? f->cvv : in->fn == f->vs ? f->cvs : NULL;
}

void valu_fast_operands(const Instr *in, int32_t *a, int32_t *b, int32_t *s)
{
    *a = in->arg[in->imm[EW_A]];
    *b = in->imm[EW_B] >= 0 ? in->arg[in->imm[EW_B]] : -1;
    *s = in->imm[EW_S] >= 0 ? in->arg[in->imm[EW_S]] : -1;
}
