/* vmi_int.h — private to the VMI family (vmi*.c): the decoded form of a VMI op and the access helpers for
 * logical vectors and masks in the frame.
 *
 * Frame layout (docs/vmi.md "Values"): a !pto.vmi.vreg<LxT> occupies K = ceil(L*bits/2048) registers of 256
 * bytes, logical lane i at bytes [i*E, (i+1)*E) (E = the element's bytes; an f4x2 lane is one byte, a
 * bf16x2 lane four), the bytes after lane L-1 zero or don't-care; a !pto.vmi.mask<L> holds one bit per
 * logical lane (bit i of byte i/8), ceil(L/256) 32-byte words. Lanes are computed with the vector family's
 * lane functions (ops/vec/lane.h). */
#ifndef PTOSIM_VMI_INT_H
#define PTOSIM_VMI_INT_H
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "ops/vec/lane.h"
#include "ops/vec/vec.h"
#include "vmi.h"

/* How a governing mask applies to an element-wise result (docs/vmi.md "Masks and pmode"). */
enum { VM_ALL, VM_ZERO, VM_MERGE };

/* One decoded VMI op (Instr.ext). Operand fields are operand indices (-1: absent). */
typedef struct VmiX {
    uint8_t mode;          /* VM_*: how the mask m applies */
    uint8_t vop;           /* ValuOp of element-wise ops */
    uint8_t k, k2;         /* ElemKind of the (first) vector operand and of the result (EK_BAD: raw lanes) */
    uint8_t e, e2;         /* lane bytes of the operand and of the result */
    uint8_t sat, desc;     /* saturation; a descending vci */
    uint8_t rnd;           /* NumRound */
    uint8_t sub;           /* per-op variant (VMI_* sub-kinds of vmi.c) */
    int16_t tok;           /* a token (compare predicate, pattern) */
    int8_t a, b, c, s, m;  /* operand indices */
    uint8_t s_bits;        /* width of the scalar operand's value */
    uint32_t L, L2;        /* logical lanes of the operand and of the result */
    uint32_t K, K2;        /* registers of the operand and of the result */
    uint32_t groups;       /* group count C (reductions, broadcasts, group loads/stores) */
    uint32_t gsize;        /* lanes per group (create_group_mask) */
    ValuCore core;         /* unmasked SIMD core of (vop, k), or NULL */
    uint8_t *cmask;        /* constant_mask: the mask's bits */
} VmiX;

#define VX(in) ((const VmiX *)(in)->ext)

static inline int vm_bit(const uint8_t *m, uint32_t i) { return (m[i >> 3] >> (i & 7)) & 1; }
static inline void vm_put(uint8_t *m, uint32_t i, int on)
{
    if (on) m[i >> 3] = (uint8_t)(m[i >> 3] | (1u << (i & 7)));
    else m[i >> 3] = (uint8_t)(m[i >> 3] & ~(1u << (i & 7)));
}
/* Bytes of a mask slot of L lanes. */
static inline uint32_t vm_bytes(uint32_t L) { return ((L + 255u) / 256u) * 32u; }

/* The frame bytes of operand i (a register image, a mask, a scalar slot). */
static inline uint8_t *vx_op(Exec *x, const Instr *in, int i) { return FR(x, in->arg[i]); }
static inline uint64_t vx_scalar(Exec *x, const Instr *in, int i) { return fr_u64(x, in->arg[i]); }

/* Counts n micro instructions on V (the K physical ops a VMI op stands for) and returns the next one. */
static inline const Instr *vx_done(Exec *x, const Instr *in, uint32_t n)
{
    x->core->pipes[PQ_V].ops += n;
    return in + 1;
}

/* Scratch image of the largest VMI value: the handlers build a result here before writing it, so a
   result may share its slot with an operand. */
enum { VMI_MAX_BYTES = 64 * 256 };

/* The element kind VMI gives element type t: signless integers are unsigned (the compiler's rule for every
   sign-sensitive VMI op, docs/vmi.md "Signedness"), EK_BAD for bf16x2. */
ElemKind vmi_kind(const Type *t);
/* Lane bytes of a VMI element type (f4x2 1, bf16x2 4). */
unsigned vmi_lane_bytes(const Type *t);

/* The handler families (vmi_alu.c, vmi_cvt.c, vmi_mem.c, vmi_mask.c): each lowers its ops, filling x. */
int vmi_lower_alu(LowerView *L, const Op *op, Instr *in, VmiX *x);
int vmi_lower_cvt(LowerView *L, const Op *op, Instr *in, VmiX *x);
int vmi_lower_mem(LowerView *L, const Op *op, Instr *in, VmiX *x);
int vmi_lower_mask(LowerView *L, const Op *op, Instr *in, VmiX *x);
/* An integer attribute of op (`{group = 8}`), or def when absent. */
static inline int64_t vmi_attr_int(const Op *op, const char *name, int64_t def)
{
    const Attr *a = op_attr(op, name);
    return a && (a->kind == AT_INT || a->kind == AT_BOOL) ? a->i : def;
}
/* Operand index of signature group `g` (-1). */
int vmi_operand(LowerView *L, const Op *op, const char *g);
/* Lowering refusal: the element type is not one the op computes (E-ELEM-TYPE). */
int vmi_bad_type(LowerView *L, const Op *op, const char *what, const Type *t);
#endif
