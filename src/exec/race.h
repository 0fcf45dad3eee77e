/* race.h — happens-before race detection between the agents of a cluster (each core's scalar unit and
 * pipes). Every executed pipe op is a "job" with a footprint of exact byte ranges; vector clocks carried
 * by issue, set/wait flags, barriers, buffer tokens and semaphores order jobs. Two jobs of different
 * agents that touch the same bytes, at least one writing, and are not ordered are reported (W-RACE) with
 * both locations. The property is the program's, not the schedule's: it does not depend on timing. */
#ifndef PTOSIM_RACE_H
#define PTOSIM_RACE_H
#include "machine.h"

typedef struct Race Race;

Race *race_new(void);
/* Whether r stopped checking because an allocation failed (the run must then fail with T-OOM). */
int race_oom(const Race *r);
void race_free(Race *r);
void race_reset(Race *r, Cluster *cl);           /* start of a block */
void race_finish(Race *r, Cluster *cl);          /* end of a block: close and check open jobs */

/* issue: the SU hands an op to a pipe (the op happens after everything the SU did before) */
void race_issue(Core *c, QEntry *e);
/* a pipe starts / finishes executing a queue entry */
void race_job_begin(Core *c, int pq, const QEntry *e);
void race_job_end(Core *c, int pq);
/* race_access (declared in machine.h for sim_access) records the accesses of the job running on x's agent
   (the SU's accesses form jobs between sync points) */
/* synchronisation: release pushes the agent's clock into a channel, acquire takes the oldest (FIFO
   channels: flags, semaphores) or everything released so far (accumulating channels: buffer tokens). */
/* RC_AUTO: auto-sync edges, RC_GRID: pto.syncall arrivals (both accumulating, like RC_BUF) */
enum { RC_FLAG, RC_SEM, RC_BUF, RC_CROSS, RC_AUTO, RC_GRID };
void race_release(Exec *x, int kind, unsigned key);
void race_acquire(Exec *x, int kind, unsigned key);
/* Buffer tokens (rls_buf/get_buf, mode 0): a release with its ordinal among the releases of its id in
   program order, and a get_buf that joins exactly the releases with ordinal < n (those issued before it),
   whatever else has already run. Channel `key` is separate from the RC_* channels. */
void race_release_seq(Exec *x, unsigned key, uint64_t ordinal);
void race_acquire_upto(Exec *x, unsigned key, uint64_t n);
/* For the synchronisation checks (ops/sync/flagcheck.c): the agent running x and its own clock now (0 when
   the detector is off), and how much of agent b's clock x's agent knows (b's events up to that clock
   happen before whatever x's agent does next). */
int race_stamp(Exec *x, uint32_t *agent, uint32_t *clock);
uint32_t race_knows(Exec *x, uint32_t b);
/* the SU waits for every pipe of its core to drain (barrier PIPE_ALL) */
void race_join_all(Exec *x);
#endif
