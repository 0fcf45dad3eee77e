/* sync.h — pipeline synchronisation: set_flag/wait_flag, barriers, buffer-id tokens, intra-block
 * semaphores and the a2a3 cross-core pair (docs/semantics.md §2). */
#ifndef PTOSIM_SYNC_H
#define PTOSIM_SYNC_H
#include "exec/machine.h"

/* Per core. */
struct SyncState {
    /* Flags indexed [set pipe][destination slot][event]: the slot is the wait pipe, or 0 for every wait pipe
       under the lossy model on a target keying flags by (set pipe, event) (docs/semantics.md §2 "Flag key").
       Under the default model a flag counts the sets not yet consumed (every set reaches its wait; a set
       the device may lose is reported by flagcheck.c); under the lossy model it is one bit, and a set while
       it is still set is lost. */
    uint32_t flag[PQ__COUNT][PQ__COUNT][16];
    const Instr *flag_set_at[PQ__COUNT][PQ__COUNT][16];   /* the set that set it (pending or last) */
    const Instr *flag_lost_at[PQ__COUNT][PQ__COUNT][16];  /* the last set lost because the flag was still set */
    const Instr *flag_taken_at[PQ__COUNT][PQ__COUNT][16]; /* the wait that consumed it last */
    uint32_t flag_sets[PQ__COUNT][PQ__COUNT][16];         /* sets executed (explanations) */
    uint64_t flag_ready[PQ__COUNT][PQ__COUNT][16];        /* cycle the last set completes: no wait passes earlier */
    uint32_t buf_issued_rls[64], buf_retired_rls[64];
    uint32_t buf_held[PQ__COUNT];                      /* per pipe: ids acquired by get_buf, not released */
};
/* The schedule-independent checks' records (flagcheck.c): an executed set or wait, its agent's clock. */
typedef struct FcStamp { const Instr *in; uint32_t clock; uint16_t agent; uint8_t core, ok; } FcStamp;
enum { FC_RING = 16, FC_RECS = 96 };
/* One flag, semaphore or counter: how many sets and waits ran, the last FC_RING of each by ordinal (a
   group record keeps the last wait per pipe instead). */
typedef struct FcRec { uint32_t key, nset, nwait; FcStamp set[FC_RING], wait[FC_RING]; } FcRec;

/* Per cluster. */
struct SyncClusterState {
    const Instr *sem_set_at[32];                       /* the last set of each semaphore (W-SEM-LEFTOVER) */
    const Instr *cross_set_at[3][16];                  /* the last set of each counter: c2v of AIV0/1, v2c */
    uint8_t sem_set_core[32], cross_set_core[3][16];   /* the core of that set */
    uint8_t sem_waited[32], cross_waited[3][16];       /* some wait consumed one of its sets */
    uint32_t nfc;
    FcRec fc[FC_RECS];
    uint32_t sems[32];                                 /* intra-block semaphores */
    uint64_t sem_ready[32];                            /* cycle the last set completes */
    uint32_t cross_c2v[2][16], cross_v2c[16];          /* a2a3 set_cross_core / wait_flag_dev */
    uint64_t cross_ready_c2v[2][16], cross_ready_v2c[16];   /* cycle the last set completes */
};
typedef struct SyncState SyncState;
typedef struct SyncClusterState SyncClusterState;

int sync_lower(LowerView *L, const Op *op, Instr *in);
/* syncall.c: pto.syncall, the launch-wide barrier */
int syncall_lower(LowerView *L, const Op *op, Instr *in);
/* sync.set/sync.wait with ffts_mode 0 and set_cross_block/wait_cross_block: the launch-wide flags (syncall.c). */
int xblock_lower(LowerView *L, const Op *op, Instr *in, int set);
/* What a core waiting at a pto.syncall or a cross-block flag waits for, for messages. */
void syncall_describe(const Core *c, char *buf, size_t n);
int sync_reset(Core *c);
int sync_cluster_reset(Cluster *cl);
/* What a synchronisation op waits for or releases, for messages: "flag PIPE_MTE2 -> PIPE_V, event 0". */
void sync_describe(const Instr *in, char *buf, size_t n);
/* A deadlock located at the blocked wait, with notes on why its release can never come (DeadlockHook). */
long sync_explain_deadlock(Cluster *cl);
/* W-FLAG-LEFTOVER for every flag still set when a block completed. */
void sync_report_leftovers(Cluster *cl);
/* The schedule-independent checks (flagcheck.c), called by each set/wait after its release/acquire;
   pipe_key: the flag key is (set pipe, event). */
void fc_flag_set(Exec *x, const Instr *in, int src, int dst, int e, int pipe_key);
void fc_flag_wait(Exec *x, const Instr *in, int src, int dst, int e, int pipe_key);
void fc_sem_set(Exec *x, const Instr *in, int cross, unsigned k);
void fc_sem_wait(Exec *x, const Instr *in, int cross, unsigned k);
#endif
