/* vec.h — the vector family: loads and stores (vec_ls.c), compute (vec_alu*.c) and its special registers. */
#ifndef PTOSIM_VEC_H
#define PTOSIM_VEC_H
#include "exec/machine.h"

struct VecState {
    uint16_t vms4_sr[4];       /* VMS4 status: per-list consumed counts of the last vmrgsort4 */
    uint64_t spr_ar;           /* SPR AR (vstur base offset) */
    uint32_t spr_sqzn;         /* SPR SQZN (byte count set by vsqz/vusqz, used by vstur) */
};
typedef struct VecState VecState;

int vec_lower(LowerView *L, const Op *op, Instr *in);

/* The lane work of an unmasked fast element-wise handler on plain pointers: r = a OP b (vector-vector) or
   a OP s (vector-scalar: `raw` holds the scalar's bits, b is unused). r may be a or b. */
typedef void (*ValuCore)(uint8_t *r, const uint8_t *a, const uint8_t *b, uint64_t raw);
/* The core of the element-wise op `in` when its handler is an unmasked fast one (vec_alu_fast.c), else NULL. */
ValuCore valu_fast_core(const Instr *in);
/* Frame offsets of the vector operands a and b (-1: none) and of the scalar (-1: none) of element-wise op in. */
void valu_fast_operands(const Instr *in, int32_t *a, int32_t *b, int32_t *s);
/* After a function is lowered: fuses `vlds; [vlds;] compute; vsts` groups into one handler (vec_ls.c). */
void vec_fuse(LowerView *L, Instr *code, uint32_t n);
int vec_reset(Core *c);

/* Lane i of width e bytes (1, 2, 4 or 8) of a register or memory image, zero-extended. */
static inline uint64_t lane_get(const uint8_t *v, unsigned e, unsigned i)
{
    switch (e) {
    case 1: return v[i];
    case 2: { uint16_t x; memcpy(&x, v + 2 * i, 2); return x; }
    case 4: { uint32_t x; memcpy(&x, v + 4 * i, 4); return x; }
    default: { uint64_t x; memcpy(&x, v + 8 * i, 8); return x; }
    }
}
static inline void lane_set(uint8_t *v, unsigned e, unsigned i, uint64_t x)
{
    switch (e) {
    case 1: v[i] = (uint8_t)x; break;
    case 2: { uint16_t y = (uint16_t)x; memcpy(v + 2 * i, &y, 2); break; }
    case 4: { uint32_t y = (uint32_t)x; memcpy(v + 4 * i, &y, 4); break; }
    default: memcpy(v + 8 * i, &x, 8); break;
    }
}
#endif
