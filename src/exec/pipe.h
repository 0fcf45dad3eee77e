/* pipe.h — the pipes of a core as the scheduler, the race detector and the diagnostics name them.
 * PQ_S is the scalar unit itself; the others are in-order queues (vector, the three MTEs, cube, FIXPIPE). */
#ifndef PTOSIM_PIPE_H
#define PTOSIM_PIPE_H
#include "isa/op.h"

typedef enum {
#define PIPE(id, spell, queue) PQ_##id = queue,
#include "isa/pipes.def"
#undef PIPE
    PQ__COUNT = PIPE__COUNT, PQ_ALL = 15
} PipeQ;

/* "PIPE_V", ... (isa/pipes.def); "PIPE_ALL" for PQ_ALL, "?" otherwise. */
const char *pq_name(unsigned pq);
/* The queue of an op-table pipe (PIPE_NONE and PIPE_DYN give PQ_S: the family decides). */
PipeQ pq_of_op_pipe(OpPipe p);
#endif
