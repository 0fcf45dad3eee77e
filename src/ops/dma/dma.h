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

/* A burst plan of the DMA engine: nested loops (loop[0] innermost) around n rows of len bytes with start-to-start
   strides; other families fill one and run it with dma_run_plan (the tile layer's tload/tstore). */
typedef struct DmaLoop { uint64_t count, ss, ds; } DmaLoop;

typedef struct DmaPlan {
    AddrSpace sas, das;
    Core *score, *dcore;       /* cores owning the source / destination buffers (NULL = this core) */
    uint64_t src, dst, len, n, ss, ds;
    DmaLoop loop[4];           /* loop[0] wraps the bursts directly */
    int nloops;
    int pad;                   /* 0 none, 1 fill [len, ds) of each row, 2 [left][data][right] */
    uint64_t lpad, rpad;       /* bytes, mode 2 */
    uint8_t pat[32];           /* pad pattern, repeated */
    unsigned patlen;
    int atomic;                /* atomic store mode (MTE3 into GM), see set_atomic_* */
    int wrap;                  /* a size or stride wrapped while the plan was made (sim_mul_checked): T-WRAP */
} DmaPlan;

/* Runs a plan as the op `in` on x's pipe: the whole footprint of both sides is bounds- and alignment-checked
   (32 bytes on chip) before any byte moves, the checkers see the exact rows, the path's cycles are added.
   0, or -1 after a trap. */
int dma_run_plan(Exec *x, const Instr *in, DmaPlan *p);

int dma_lower(LowerView *L, const Op *op, Instr *in);
int dma_reset(Core *c);
/* Lowers an op whose signature has the grouped copy shape (len, nburst, loops) onto the DMA engine;
   the cube family's GM -> L1 and L1 -> UB copies use it. */
int dma_lower_grouped(LowerView *L, const Op *op, Instr *in);
#endif
