/* lane.h — the lane computations of the vector family, for every layer that computes lanes: a micro op on
 * one register, a VMI op on L logical lanes (ops/vmi) and a vector tile op over a tile's valid region
 * (ops/tile) call these same functions, so the layers can never disagree about what a lane computes
 * (docs/internals.md, "The layers above the micro surface"). Values are raw element bits, zero-extended. */
#ifndef PTOSIM_LANE_H
#define PTOSIM_LANE_H
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "base/num.h"
#include "isa/elem.h"
#include "vec.h"

/* Element-wise operations (the generic evaluator and the fast handlers). */
typedef enum {
    VOP_ADD, VOP_SUB, VOP_MUL, VOP_DIV, VOP_MAX, VOP_MIN, VOP_AND, VOP_OR, VOP_XOR, VOP_SHL, VOP_SHR,
    VOP_ABS, VOP_NEG, VOP_EXP, VOP_LN, VOP_SQRT, VOP_RSQRT, VOP_REC, VOP_RELU, VOP_NOT, VOP_BCNT, VOP_CLS,
    VOP_MOV, VOP_LRELU, VOP_PRELU, VOP_ADDRELU, VOP_SUBRELU, VOP_AXPY, VOP_MULA, VOP_MADD,
    VOP__COUNT
} ValuOp;

/* One active lane of an element-wise operation (c: the third operand of fused ops; for shifts b is the
   count, an unsigned number). */
uint64_t valu_eval(ValuOp op, ElemKind k, uint64_t a, uint64_t b, uint64_t c);
/* The element-wise operation of micro op `kind` (vadd -> VOP_ADD, vadds -> VOP_ADD, ...), or -1. */
int valu_op_of(int kind);
/* The unmasked SIMD core of (op, kind) on one 256-byte register, vector-vector or vector-scalar (vec.h
   ValuCore), or NULL when there is none: callers then use valu_eval lane by lane (same results). */
ValuCore valu_core(ValuOp op, ElemKind k, bool scalar);

/* A value of kind s (raw bits) converted to kind d: rounding rm, saturation sat (the vcvt lane,
   docs/semantics.md §7.5). Float->int and int->int clamp with sat, else keep the low bits of the integer
   (NaN -> 0; a signed source widened to an unsigned kind clamps at 0). */
uint64_t lane_cvt(ElemKind s, ElemKind d, uint64_t v, NumRound rm, bool sat);
/* n lanes of kind s at src converted to kind d at dst (lane_cvt on each; common pairs in tight loops). */
void lane_cvt_run(ElemKind s, ElemKind d, uint8_t *dst, const uint8_t *src, unsigned n, NumRound rm, bool sat);
/* The rounding mode of a RND token (T_RND_*), nearest-even otherwise. */
NumRound lane_rnd(int tok);

/* vexpdif's lane: exp(a - mx) of two lanes of kind s (f16 or f32; the difference is exact in a double),
   rounded once to f32. */
uint64_t lane_expdif(ElemKind s, uint64_t a, uint64_t mx);
/* lane_expdif(EK_F32, a, mx) inline, for loops over many lanes: m is mx as a double (exact). */
static inline uint32_t lane_expdif_f32(uint32_t a, double m)
{
    float r = (float)exp((double)num_bits_to_f32(a) - m);
    return r != r ? 0x7FC00000u : num_f32_to_bits(r);
}
/* vci's lane i: base + i (desc: base - i), integers wrapping, floats rounded once. */
uint64_t lane_ci(ElemKind k, uint64_t base, uint64_t i, int desc);

/* The comparison of a CMP token (T_CMP_EQ ... T_CMP_GE) of two lanes: 1 or 0 (NaN compares unordered). */
int lane_cmp(int tok, ElemKind k, uint64_t a, uint64_t b);

/* Reductions, in the order the micro reductions use (vec_alu_red.c): the pairwise tree over v[0..n) (n a
   power of two, in place, every partial sum rounded to k); whether x is a better extremum than the current
   y (NaN wins over everything but an earlier NaN, +0 above -0); the value of an empty max/min; a NaN
   result made canonical. */
uint64_t lane_tree_sum(ElemKind k, uint64_t *v, unsigned n);
int lane_better(ElemKind k, uint64_t x, uint64_t y, int want_max);
uint64_t lane_empty_extremum(ElemKind k, int want_max);
uint64_t lane_canon(ElemKind k, uint64_t v);
/* The UB sorters' lanes (vec_alu_sort.c; docs/semantics.md §7.8): records are 8 bytes, the score (f32, or f16 in
   the low half) in the low word and the u32 index in the high word; descending, NaN above +inf, -0 == +0.
   lane_bitsort32: one vbitsort repeat, 32 scores and 32 indices into 32 records (256 bytes), ties in source order.
   lane_mrgsort4: one vmrgsort4 merge of the lists k whose bit is set in `valid` (len[k] records at src[k]) into
   out, ties to the lower list; exhausted: stop once a valid list has run out. Returns the records written and
   the records taken from each list in pos[]. */
void lane_bitsort32(int f16, const uint8_t *scores, const uint8_t *idx, uint8_t *rec);
uint64_t lane_mrgsort4(int f16, const uint8_t *const src[4], const unsigned len[4], unsigned valid, int exhausted,
                       uint8_t *out, unsigned pos[4]);
/* One scatter register (vscatter, tscatter's index form): lane i (i < n) stores the low e bytes of its w-byte lane
   of v at dst[i] (NULL: inactive lane). Lanes are written from the highest down, so on a duplicate address the
   lowest active lane's value stays (docs/semantics.md Q22). lane_scatter_alias finds the first two active lanes
   with one address (*a < *b) and returns 1, else 0; n <= 256. */
static inline unsigned lane_scatter(uint8_t *const *dst, const uint8_t *v, unsigned n, unsigned w, unsigned e)
{
    unsigned active = 0;
    for (unsigned i = n; i-- > 0;)
        if (dst[i]) {
            memmove(dst[i], v + (size_t)w * i, e);
            active++;
        }
    return active;
}
static inline int lane_scatter_alias(uint8_t *const *dst, unsigned n, unsigned *a, unsigned *b)
{
    enum { H = 512 };
    uintptr_t key[H];
    uint16_t lane[H];
    memset(key, 0, sizeof key);
    for (unsigned i = 0; i < n && i < 256; i++) {
        uintptr_t k = (uintptr_t)dst[i];
        if (!k) continue;
        unsigned h = (unsigned)(((uint64_t)k * 0x9E3779B97F4A7C15ull) >> 55);   /* 9 bits */
        while (key[h] && key[h] != k) h = (h + 1) & (H - 1);
        if (key[h] == k) {
            *a = lane[h];
            *b = i;
            return 1;
        }
        key[h] = k;
        lane[h] = (uint16_t)i;
    }
    return 0;
}
#endif
