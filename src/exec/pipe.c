/* pipe.c — pipe names and the op table's pipe column as queues. */
#include "pipe.h"

static const char *const pq_names[PQ__COUNT] = {"PIPE_S", "PIPE_V", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3", "PIPE_M",
                                                "PIPE_FIX"};

const char *pq_name(unsigned pq) { return pq < PQ__COUNT ? pq_names[pq] : pq == PQ_ALL ? "PIPE_ALL" : "?"; }

PipeQ pq_of_op_pipe(OpPipe p)
{
    switch (p) {
    case PIPE_V_: return PQ_V;
    case PIPE_MTE1_: return PQ_MTE1;
    case PIPE_MTE2_: return PQ_MTE2;
    case PIPE_MTE3_: return PQ_MTE3;
    case PIPE_M_: return PQ_M;
    case PIPE_FIX_: return PQ_FIX;
    default: return PQ_S;
    }
}
