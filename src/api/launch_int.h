/* launch_int.h — a launch's state, shared by the files of the API layer (launch.c, time.c). */
#ifndef PTOSIM_LAUNCH_INT_H
#define PTOSIM_LAUNCH_INT_H
#include "ptosim.h"
#include "base/strbuf.h"
#include "exec/machine.h"
#include "exec/vsched.h"
#include "isa/ir.h"

/* One block's simulation (blocks.c). */
typedef struct BlockRun BlockRun;

/* One source line of the profile. */
typedef struct LineAgg { const char *file; unsigned line; const char *op; uint64_t cycles, stall, count; } LineAgg;

struct PtoLaunch {
    Module *m;
    Program *prog;
    const Func *entry;
    const Op *entry_op;
    PtoTarget target;
    Sim sim;
    uint64_t *param_vals;
    uint8_t *bound;
    PtoParamInfo *info;
    Timing timing;             /* the target's table with the user's overrides */
    VecSched vsched;           /* the vector scopes' schedule under that table */
    int timed;                 /* vsched matches timing */
    GmBind *binds;             /* per parameter: its buffer (pointers) and whether it is an output */
    unsigned jobs;             /* threads running blocks; 0 = one per CPU */
    BlockRun **runs;           /* every block simulation allocated (reused run after run) */
    unsigned nruns;
    BlockRun *last;            /* the last block committed by the last run (its cluster: sim.cl) */
    SimReported reported;      /* once-per-launch warnings and race pairs reported so far */
    StrBuf out;                /* the last run's device output, the blocks' in block order (pto_launch_output) */
    /* caches of the last run's reports (time.c), dropped by the next run */
    const struct StallRec **stall_view;    /* stall records ranked by cycles */
    size_t stall_view_n;
    char what_buf[160];
    LineAgg *prof;
    size_t nprof;
    int prof_built;
};

/* The cluster of the last block that ran (its cores and their memory), or NULL before any run. */
const Cluster *launch_last_cluster(const PtoLaunch *l);

/* blocks.c: runs blocks [0, blocks) of kind 0 (vector: one AIV), 1 (cube: one AIC) or 2 (a cluster) on
   l->jobs threads, merging each block's results into the launch in block order; returns 0, 2 (out of
   memory) or 3 (a trap). */
int launch_run_blocks(PtoLaunch *l, unsigned blocks, int kind);
void launch_run_free(BlockRun *r);
unsigned launch_default_jobs(void);
#endif
