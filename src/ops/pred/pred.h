/* pred.h — the predicate family (masks: generation, algebra, loads and stores) and the byte model of
 * unaligned store streams that pstu and the vector stores share (docs/semantics.md §5). */
#ifndef PTOSIM_PRED_H
#define PTOSIM_PRED_H
#include "exec/machine.h"

int pred_lower(LowerView *L, const Op *op, Instr *in);
/* True when mask value m is known at lowering to have every lane of elem_bytes-wide elements active. */
bool pred_all_active(const Value *m, unsigned elem_bytes);

/* An unaligned store stream (init_align -> vstus/vstur/pstu ... -> vstas/vstar flush) or a primed load
   stream (vldas -> vldus), held in an align frame slot. Bytes appended to a store stream are written to UB
   exactly once, at their own address; the bytes of an incomplete 32-byte block are held until the block
   completes, the stream moves to another block, or the stream is flushed. */
typedef struct AlignState {
    uint8_t pending[32];       /* bytes of the block being assembled */
    uint64_t block;            /* UB address of that 32-byte block */
    uint32_t valid;            /* bit b set = pending[b] holds a stream byte */
    uint8_t init;              /* 1 = created by init_align / vldas / a stream op */
    uint8_t load;              /* 1 = a load-stream state (vldas) */
    uint8_t pad_[2];
    uint64_t cursor;           /* next address the stream expects (informational) */
} AlignState;
_Static_assert(sizeof(AlignState) <= ALIGN_BYTES, "AlignState must fit its frame slot");

/* Appends n bytes at UB address addr to the store stream; returns 0, or -1 after a trap (bounds). */
int align_append(Exec *x, const Instr *in, AlignState *st, uint64_t addr, const uint8_t *bytes, uint64_t n);
/* Writes the held bytes of the stream and empties it; returns 0 or -1 after a trap. */
int align_flush(Exec *x, const Instr *in, AlignState *st);
/* A predicate pattern token (PAT_*) over n lanes: returns its kind (0: the first *vl lanes, 1: every third
   lane, 2: every fourth lane), or -1 for an unknown token; pred_pattern_on says whether lane i is set. */
int pred_pattern(int tok, unsigned n, unsigned *vl);
int pred_pattern_on(int kind, unsigned vl, unsigned i);
#endif
