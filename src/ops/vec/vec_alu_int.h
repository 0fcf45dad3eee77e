/* vec_alu_int.h — private to the vector compute family (vec_alu*.c): element kinds, lane and mask
 * access, exact float decode/encode, and the lowering entry points of the sub-modules.
 *
 * Conventions (exec/program.h): a vreg is 256 bytes, lane i of an E-byte element type is bytes [iE, (i+1)E)
 * little-endian; a mask is the 32-byte predicate image and lane i of an E-byte element type is image
 * bit E*i (resolutions Q3; 64-bit lanes use bit 8i, the bit of their first byte). Register results are
 * zeroed in inactive lanes (Q48). Semantic choices are documented in docs/semantics.md §7. */
#ifndef PTOSIM_VEC_ALU_INT_H
#define PTOSIM_VEC_ALU_INT_H
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "base/num.h"
#include "isa/elem.h"
#include "vec.h"
#include "base/host.h"
#include "ops/pred/pred.h"
#include "lane.h"

static inline unsigned ek_lanes(ElemKind k) { return VREG_BYTES / ek_bytes(k); }


/* ---- masks ---- */
/* Lane i of an element of g bytes is image bit g*i; a NULL image means "all lanes active". */
static inline int mask_on(const uint8_t *img, unsigned g, unsigned i)
{
    if (!img) return 1;
    unsigned k = g * i;
    return (img[k >> 3] >> (k & 7)) & 1;
}
static inline void mask_set(uint8_t *img, unsigned g, unsigned i)
{
    unsigned k = g * i;
    img[k >> 3] = (uint8_t)(img[k >> 3] | (1u << (k & 7)));
}

/* Every compute instruction counts as one vector-pipe op (PtoStats.vector_ops); returns the next one. */
static inline const Instr *valu_done(Exec *x, const Instr *in)
{
    x->core->pipes[PQ_V].ops++;
    return in + 1;
}

/* ---- exact float decode/encode for element-wise arithmetic ----
 * Every f16/bf16/f32 value is exact in a double. Results computed in double from exact operands and
 * rounded once to the element format equal the correctly rounded results for + - * / sqrt, because
 * double rounding through a format with q >= 2p+2 significand bits is innocuous (53 >= 2*24+2). */
static inline double f32_val(uint32_t b) { return (double)num_bits_to_f32(b); }
static inline double fdec(ElemKind k, uint64_t b)
{
    switch (k) {
    case EK_F32: return f32_val((uint32_t)b);
    case EK_BF16: return f32_val((uint32_t)(b & 0xFFFF) << 16);
    case EK_F16: {
        unsigned s = (unsigned)(b >> 15) & 1, e = (unsigned)(b >> 10) & 31, m = (unsigned)b & 1023;
        double v;
        if (e == 31) v = m ? NAN : INFINITY;
        else if (e == 0) v = ldexp((double)m, -24);
        else v = ldexp((double)(m | 1024), (int)e - 25);
        return s ? -v : v;
    }
    default: return num_bits_to_f64(num_convert(ek_fmt(k), b, NUM_F64, NUM_RND_R, false));
    }
}
/* d rounded once to nearest-even in a binary format with fb fraction bits, minimum normal exponent emin
   and all-ones exponent field = inf/NaN (f16: 10, -14; bf16: 7, -126). Overflow gives inf, NaN the
   canonical NaN `cnan`, and subnormal results are kept. Exact integer work on the double's bits. */
static inline uint64_t f64_round_to(double d, unsigned fb, int emin, uint64_t cnan, unsigned width)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    const uint64_t sign = (b >> 63) << (width - 1), mag = b & 0x7FFFFFFFFFFFFFFFull;
    const uint64_t inf = ((1ull << (width - 1)) - 1) & ~((1ull << fb) - 1);
    if (mag > 0x7FF0000000000000ull) return cnan;
    if (mag >= 0x7FF0000000000000ull) return sign | inf;
    const int e = (int)(mag >> 52) - 1023;
    if (e > -emin + 1) return sign | inf;                /* >= 2^(emax+1) */
    const int eq = e > emin ? e : emin;                  /* binade of the result's quantum */
    const int sh = eq - (int)fb - (e - 52);              /* significand bits below the quantum */
    if (sh >= 54 || mag < (1ull << 52)) return sign;     /* below half the smallest subnormal (or a double subnormal) */
    const uint64_t sig = (mag & ((1ull << 52) - 1)) | (1ull << 52);
    uint64_t m = sig >> sh;
    const uint64_t rem = sig & ((1ull << sh) - 1), half = 1ull << (sh - 1);
    if (rem > half || (rem == half && (m & 1))) m++;
    const uint64_t code = ((uint64_t)(eq - emin) << fb) + m;   /* a carry moves into the exponent field */
    return sign | (code >= inf ? inf : code);
}

/* Rounds d once to the element format, nearest-even, canonical NaN. */
static inline uint64_t fenc(ElemKind k, double d)
{
    if (k == EK_F32) {
        float f = (float)d;
        return f != f ? 0x7FC00000u : num_f32_to_bits(f);
    }
    if (k == EK_F16) return f64_round_to(d, 10, -14, 0x7E00, 16);
    if (k == EK_BF16) return f64_round_to(d, 7, -126, 0x7FC0, 16);
    return num_convert(NUM_F64, num_f64_to_bits(d), ek_fmt(k), NUM_RND_R, false);
}
static inline int fisnan(ElemKind k, uint64_t b) { return num_is_nan(ek_fmt(k), b); }
static inline uint64_t fsignbit(ElemKind k) { return 1ull << (ek_bits(k) - 1); }
/* a*b + c with one rounding to the element format (a*b is exact in double for f16/bf16/f32). */
uint64_t fused_madd(ElemKind k, double a, double b, double c);

/* ---- lowering helpers shared by the sub-modules ---- */
int valu_operand(LowerView *L, const Op *op, const char *group);          /* operand index or -1 */
ElemKind valu_vreg_ek(const Value *v);                                    /* EK_BAD if not a vreg */
int valu_bad_type(LowerView *L, const Op *op, const char *what, const Type *t);

int lower_valu_cvt(LowerView *L, const Op *op, Instr *in);    /* vcvt vtrc vci vbitcast vaddreluconv vmulconv vexpdif */
int lower_valu_red(LowerView *L, const Op *op, Instr *in);    /* vcadd vcmax vcmin vcgadd vcgmax vcgmin vcpadd */
int lower_valu_sort(LowerView *L, const Op *op, Instr *in);   /* vbitsort vmrgsort4 */
/* Fast handler for a common (op, kind, masked, scalar) combination, or NULL. vop is a ValuOp. */
ExecFn valu_fast(int vop, ElemKind k, bool masked, bool scalar);

/* Decoded operands of the element-wise ops (Instr.imm), read by the generic and the fast handlers. */
enum {
    EW_OP,      /* ValuOp */
    EW_EK,      /* ElemKind of the lanes */
    EW_MASK,    /* mask operand index (-1: all lanes active) */
    EW_A,       /* vector operand index of a */
    EW_B,       /* vector operand index of b (-1: absent) */
    EW_C,       /* vector operand index of c, the third operand of fused ops (-1: absent) */
    EW_S,       /* scalar operand index (-1: none) */
    EW_S_USE,   /* with a scalar: the operand it stands for (1 b, 2 c) | its width in bits << 8 */
};

/* The generic element-wise handler (also used by the unit tests to cross-check the fast ones). */
const Instr *valu_x_ew(Exec *x, const Instr *in);

/* Reductions (vec_alu_red.c): the kinds and the decoded operands (Instr.imm). */
enum { RD_ADD, RD_MAX, RD_MIN, RD_GADD, RD_GMAX, RD_GMIN, RD_PADD };
enum {
    RS_KIND,   /* RD_* */
    RS_SRC,    /* source ElemKind */
    RS_DST,    /* result ElemKind */
    RS_MASK,   /* mask operand index (-1) */
};
/* vbr and vdup (vec_alu.c): the decoded operands (Instr.imm). */
enum {
    MT_E,      /* element bytes */
    MT_MASK,   /* vdup: mask operand index (-1) */
    MT_LANE,   /* vdup: source lane of a vreg operand (-1: a scalar operand) */
};
/* The generic reduction, vdup and vexpdif handlers (the unit tests check the fast ones against them). */
const Instr *valu_x_red(Exec *x, const Instr *in);
const Instr *valu_x_vdup(Exec *x, const Instr *in);
const Instr *valu_x_vexpdif(Exec *x, const Instr *in);
/* Fast handlers (vec_alu_red_fast.c) bit-identical to those, or NULL where there is none: a reduction of
   kind RD_* on source kind k (result kind kd); vdup of e-byte elements; vexpdif of source kind s (ED_*
   operands of vec_alu_cvt.c: source, mask index, part). */
ExecFn valu_red_fast(int kind, ElemKind k, ElemKind kd);
ExecFn valu_vdup_fast(unsigned e);
ExecFn valu_vexpdif_fast(ElemKind s);
#endif
