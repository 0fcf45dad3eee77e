/* observe.h — what a run records about time: per core and pipe busy and stall cycles by cause (always),
 * and on request a trace of every executed op with the synchronisation edges between them, and a
 * per-instruction profile. Nothing here changes what a kernel computes or when it runs. */
#ifndef PTOSIM_OBSERVE_H
#define PTOSIM_OBSERVE_H
#include "machine.h"
#include <stdio.h>

/* Why an agent waited. */
typedef enum { WC_FLAG, WC_BARRIER, WC_BUFFER, WC_SEM, WC_CROSS, WC_OTHER, WC_QUEUE, WC_AUTO, WC__COUNT } WaitCause;

/* Time of one agent (a core's scalar unit or one of its pipes) in one block. */
typedef struct AgentTime {
    uint64_t busy;             /* cycles executing ops */
    uint64_t stall[WC__COUNT]; /* cycles an op at the head waited, by cause */
    uint64_t bytes, ops;
    uint64_t end;              /* when it finished its last op */
} AgentTime;

typedef struct CoreTime {
    unsigned block;
    uint8_t type, subblock, ncores;
    AgentTime agent[PQ__COUNT];
} CoreTime;

/* One waiting op's total stall (for the stall report). */
typedef struct StallRec {
    unsigned block;
    uint8_t core, pipe, cause;
    const Instr *wait;         /* the op that waited */
    const Instr *setter;       /* the op whose release ended the last wait, or NULL */
    uint64_t cycles, times;
} StallRec;

/* A trace event: a slice of an agent's time running an op (or waiting for one), or inside a vector scope's
   slice a loop (TE_LOOP) or one or more of its iterations (TE_ITER). */
typedef struct TraceEv {
    uint64_t t0, t1;
    const Instr *in;           /* NULL: the scalar unit's own run (kind TE_SU); TE_LOOP, TE_ITER: the scf.for */
    const Instr *setter;       /* waits: the op that released the wait */
    uint64_t bytes;
    uint32_t core;             /* block * 3 + core index */
    uint32_t nops;             /* TE_SU: instructions in the run; TE_LOOP: iterations seen; TE_ITER: first index */
    uint32_t last;             /* TE_ITER: last index (OBS_UNKNOWN: up to the loop's end); TE_LOOP: nonzero when
                                  nops is every iteration (no handler ran several trips at once) */
    uint8_t pipe, kind;
} TraceEv;
enum { TE_OP, TE_WAIT, TE_SU, TE_LOOP, TE_ITER };
#define OBS_UNKNOWN UINT32_MAX

/* A flow arrow of the trace: from the op that released a flag, semaphore or token (its agent and the cycle
   at which it ran) to the op whose acquire it satisfied. */
typedef struct TraceFlow {
    uint64_t t0, t1;
    uint32_t core0, core1;     /* block * 3 + core index */
    uint8_t pipe0, pipe1;
} TraceFlow;

typedef struct Observe Observe;
typedef struct ObsChannel ObsChannel;

struct Observe {
    int trace, profile;
    CoreTime *cores;           /* one per core per block, in run order */
    size_t ncores, capcores;
    StallRec *stalls;
    size_t nstalls, capstalls;
    TraceEv *ev;
    size_t nev, capev;
    TraceFlow *flows;
    size_t nflows, capflows;
    uint64_t *prof_cycles, *prof_count, *prof_stall;   /* per Instr.id */
    uint32_t nprof;
    const Instr *pending_setter;   /* the op of the release the last acquire took (stall report, waits) */
    ObsChannel *chan;          /* open flows: releases not yet acquired */
    size_t nchan, capchan;
    int oom;                   /* a recording allocation failed: the record is incomplete */
    /* The launch's record with the trace on keeps the events and flows of committed blocks in two unnamed
       temporary files (tmpfile) instead of ev and flows, so a run holds only its blocks in flight in memory
       (obs_merge appends, the trace writers read them back); NULL when no file could be made (in memory). */
    int spill;                 /* this record may spool (set by the launch; a block's record stays in memory) */
    FILE *spool_ev, *spool_fl;
    Observe *direct;           /* a block's record whose commit is certain (blocks run one after another): its
                                  events and flows go to this launch record's spools every OBS_DIRECT events */
};
#define OBS_DIRECT 4096

Observe *obs_new(void);
void obs_free(Observe *o);
/* Start of a run: clears everything recorded; sizes the profile for `ninstr` instructions. */
int obs_reset(Observe *o, uint32_t ninstr);
/* A block finished: copies its cores' times into the record. */
void obs_block_done(Observe *o, const Cluster *cl);
/* Appends the record of one block (`blk`, recorded on its own from obs_reset) to the launch's; blocks
   are merged in block order, so the record is the same whichever thread ran them. 0, or -1 when out of
   memory (the record is marked incomplete). */
int obs_merge(Observe *o, Observe *blk);

/* Called by the scheduler. */
void obs_job(Exec *x, const Instr *in, uint64_t t0, uint64_t t1, uint64_t bytes);
/* Op `wait` of core c's agent pq waited `cycles` before it could run (stall report, profile). */
void obs_stall(Observe *o, const Core *c, int pq, const Instr *wait, WaitCause cause, uint64_t cycles);
void obs_wait(Core *c, int pq, const Instr *wait, uint64_t t0, uint64_t t1);
void obs_su_run(Core *c, uint64_t t0, uint64_t t1, uint32_t nops);
/* Credits cycles to an instruction; `exec` counts one execution (issuing an op to its pipe does not). */
void obs_profile(Observe *o, const Instr *in, uint64_t cycles, int exec);
/* `count` executions of `in` taking `cycles` in all (a handler that does many trips of a loop). */
void obs_profile_n(Observe *o, const Instr *in, uint64_t cycles, uint64_t count);
/* Synchronisation edges (flags, semaphores, buffer tokens, cross-core): a release by the op running on x,
   an acquire by the op running on x. */
void obs_release(Exec *x, int kind, unsigned key);
void obs_acquire(Exec *x, int kind, unsigned key);
WaitCause obs_cause(OpKind k);
const char *obs_cause_name(WaitCause c);

/* A slice inside the vector scope x is running (kind TE_LOOP or TE_ITER; see TraceEv), times in cycles. */
void obs_scope_slice(Exec *x, int kind, const Instr *in, uint64_t t0, uint64_t t1, uint32_t a, uint32_t b);

/* The name a trace event is shown with ("pto.vlds", "waiting: pto.wait_flag", "iteration 3", ...). */
void obs_ev_name(char *w, size_t n, const TraceEv *e);

/* The recorded events [i, i + n) (n <= cap), wherever they are kept: returns how many, *out pointing at them
   (into the record or into buf); 0 at the end or when the spool cannot be read. Likewise the flows. */
size_t obs_ev_chunk(const Observe *o, size_t i, TraceEv *buf, size_t cap, const TraceEv **out);
size_t obs_flow_chunk(const Observe *o, size_t i, TraceFlow *buf, size_t cap, const TraceFlow **out);

/* Receives the trace's text in pieces (at most about 64 KiB each), in order; returns 0, or nonzero to stop. */
typedef int (*ObsSink)(void *user, const char *data, size_t n);
/* Writes the Chrome trace event JSON of the recorded trace through `sink`: 0, or -1 (out of memory, the
   spool unreadable, or the sink refused). Memory: one piece, whatever the trace's size. */
int obs_trace_write(const Observe *o, const Sim *s, ObsSink sink, void *user);
/* The same JSON in one malloc'd string; NULL when out of memory. */
char *obs_trace_json(const Observe *o, const Sim *s);
#endif
