/* launch_int.h — a launch's state, shared by the files of the API layer (launch.c, time.c). */
#ifndef PTOSIM_LAUNCH_INT_H
#define PTOSIM_LAUNCH_INT_H
#include "ptosim.h"
#include "exec/machine.h"
#include "exec/vsched.h"
#include "isa/ir.h"

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
#endif
