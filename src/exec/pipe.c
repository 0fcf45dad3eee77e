/* pipe.c — pipe names and the op table's pipe column as queues (both from isa/pipes.def). */
#include "pipe.h"

const char *pq_name(unsigned pq) { return pq == PQ_ALL ? tok_spelling(T_PIPE_ALL) : pipe_name(pq); }

PipeQ pq_of_op_pipe(OpPipe p) { return p > PIPE_NONE && p < PIPE_DYN ? (PipeQ)(p - 1) : PQ_S; }
