/* sync.h — pipeline synchronisation: set_flag/wait_flag, barriers, buffer-id tokens, intra-block
 * semaphores and the a2a3 cross-core pair (docs/semantics.md §2). */
#ifndef PTOSIM_SYNC_H
#define PTOSIM_SYNC_H
#include "exec/machine.h"

/* Per core. */
struct SyncState {
    /* One flag per (set pipe, event): set by set_flag, cleared by the wait_flag (of any destination pipe)
       that consumes it. A set while it is still set is lost (W-FLAG-ALIAS). */
    uint8_t flag[PQ__COUNT][16];
    const Instr *flag_set_at[PQ__COUNT][16];           /* the set that set it (pending or last) */
    const Instr *flag_lost_at[PQ__COUNT][16];          /* the last set lost because the flag was still set */
    const Instr *flag_taken_at[PQ__COUNT][16];         /* the wait that consumed it last */
    uint32_t flag_sets[PQ__COUNT][16];                 /* sets executed (explanations) */
    uint64_t flag_ready[PQ__COUNT][16];                /* cycle the last set completes: no wait passes earlier */
    uint32_t buf_issued_rls[64], buf_retired_rls[64];
    uint32_t buf_held[PQ__COUNT];                      /* per pipe: ids acquired by get_buf, not released */
};
/* Per cluster. */
struct SyncClusterState {
    uint32_t sems[32];                                 /* intra-block semaphores */
    uint64_t sem_ready[32];                            /* cycle the last set completes */
    uint32_t cross_c2v[2][16], cross_v2c[16];          /* a2a3 set_cross_core / wait_flag_dev */
    uint64_t cross_ready_c2v[2][16], cross_ready_v2c[16];   /* cycle the last set completes */
};
typedef struct SyncState SyncState;
typedef struct SyncClusterState SyncClusterState;

int sync_lower(LowerView *L, const Op *op, Instr *in);
int sync_reset(Core *c);
int sync_cluster_reset(Cluster *cl);
/* What a synchronisation op waits for or releases, for messages: "flag PIPE_MTE2 -> PIPE_V, event 0". */
void sync_describe(const Instr *in, char *buf, size_t n);
/* A deadlock located at the blocked wait, with notes on why its release can never come (DeadlockHook). */
long sync_explain_deadlock(Cluster *cl);
/* W-FLAG-LEFTOVER for every flag still set when a block completed. */
void sync_report_leftovers(Cluster *cl);
#endif
