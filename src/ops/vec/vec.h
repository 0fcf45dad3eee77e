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
