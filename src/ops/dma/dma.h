/* dma.h — the DMA family: grouped v0.6 copies, the legacy copies with their loop registers, padding
 * and atomic stores (docs/semantics.md §3). */
#ifndef PTOSIM_DMA_H
#define PTOSIM_DMA_H
#include "exec/machine.h"

/* Configuration registers of a core's MTEs, set by the legacy set_* ops and read by the copies. */
struct DmaState {
    uint64_t loop_outtoub[2], loop1_outtoub[2], loop2_outtoub[2];   /* GM -> UB: counts, loop 1/2 strides */
    uint64_t loop_ubtoout[2], loop1_ubtoout[2], loop2_ubtoout[2];   /* UB -> GM */
    uint64_t pad_val;          /* set_mov_pad_val */
    int atomic_mode;           /* set_atomic_*: type in the low byte, operation above */
};
typedef struct DmaState DmaState;

int dma_lower(LowerView *L, const Op *op, Instr *in);
int dma_reset(Core *c);
/* Lowers an op whose signature has the grouped copy shape (len, nburst, loops) onto the DMA engine;
   the cube family's GM -> L1 and L1 -> UB copies use it. */
int dma_lower_grouped(LowerView *L, const Op *op, Instr *in);
#endif
