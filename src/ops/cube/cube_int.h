/* cube_int.h — shared internals of the cube family (cube.c: lowering router, L1/L0/BT/FB data movement;
 * cube_mad.c: the six MAD ops; cube_fix.c: FIXPIPE writeback; cube_common.c: what they share).
 * Semantics and evidence:
 * docs/semantics.md §8. */
#ifndef PTOSIM_CUBE_INT_H
#define PTOSIM_CUBE_INT_H
#include "cube.h"
#include "isa/elem.h"
#include "ops/dma/dma.h"
#include "ops/scalar/scalar.h"
#include "base/num.h"
#include <string.h>

/* An element kind with the facts the cube code reads per element: a float format (fmt >= 0) or an
   integer (fmt = -1). */
typedef struct CElem {
    ElemKind kind;             /* EK_BAD: not a cube element type */
    int8_t fmt;                /* NumFormat, or -1 for integers */
    uint8_t bytes;             /* storage bytes (f4x2 containers count 1) */
    uint8_t bits;              /* integer width */
    uint8_t is_signed;         /* integers: signless counts as signed (resolutions Q49) */
    uint8_t packed4;           /* f4e2m1x2 / f4e1m2x2: two values per byte */
} CElem;

CElem cube_elem(const Type *t);
/* Element type of pointer operand i of op (CElem with bytes = 0 if it is not a pointer). */
CElem cube_ptr_elem(const Op *op, int i);
/* Spelling for messages ("f16", "si8", ...). */
const char *cube_elem_name(CElem e);

/* Traps T-FIELD if v does not fit `bits` bits; returns 1 after the trap. */
int cube_field(Exec *x, const Instr *in, const char *what, uint64_t v, unsigned bits);

/* Makes `in` trap T-UNSUPPORTED with `msg` (a string with static or program lifetime) when executed. */
int cube_unsupported(Instr *in, const char *msg);

/* NZ addressing (resolutions Q35, Q50): element (r, c) of an R x C matrix stored as column blocks of
   c0 = 32/E elements, `pitch` 32-byte rows per block, at byte ((c / c0)·pitch + r)·32 + (c % c0)·E.
   L1 tiles (nd2nz), L0A ([M,K], pitch ⌈M/16⌉·16) and L0B ([N,K], pitch ⌈N/16⌉·16) all use it. */
static inline uint64_t nz_off(uint64_t r, uint64_t c, uint64_t pitch, unsigned e)
{
    uint64_t c0 = 32u / e;
    return ((c / c0) * pitch + r) * 32u + (c % c0) * e;
}
/* Copies one element of e (1, 2, 4 or 8) bytes with a fixed-size copy the compiler inlines. */
static inline void elem_copy(uint8_t *d, const uint8_t *s, unsigned e)
{
    switch (e) {
    case 1: d[0] = s[0]; break;
    case 2: memcpy(d, s, 2); break;
    case 4: memcpy(d, s, 4); break;
    default: memcpy(d, s, 8); break;
    }
}
static inline uint64_t pad16(uint64_t v) { return (v + 15) / 16 * 16; }
static inline uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* L0C accumulator (m, n), in elements (resolutions Q36): ((n/16)·stride + m)·16 + n%16. */
static inline uint64_t l0c_elem(uint64_t m, uint64_t n, uint64_t stride)
{
    return ((n / 16) * stride + m) * 16 + n % 16;
}

/* MX scale state associated with L0A (side 0) / L0B (side 1) addresses: the scales for the data tile
   at L0 byte address p live at p/32 of the side's state (cube.c). Returns NULL after a trap. */
uint8_t *cube_mx_state(Exec *x, const Instr *in, int side, uint64_t l0addr, uint64_t len);

/* f32 scalar value of raw bits in format f (exact). */
static inline double cube_fval(NumFormat f, uint64_t bits)
{
    if (f == NUM_F32) return (double)num_bits_to_f32((uint32_t)bits);
    return num_bits_to_f64(num_convert(f, bits, NUM_F64, NUM_RND_R, false));
}

int cube_lower_mad(LowerView *L, const Op *op, Instr *in);
int cube_lower_fix(LowerView *L, const Op *op, Instr *in);
#endif
