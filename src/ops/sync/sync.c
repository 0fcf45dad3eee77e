/* sync.c — pipeline synchronisation: set_flag/wait_flag as counting semaphores per (src, dst, event)
 * (resolutions Q47), pipe barriers, buffer-id tokens in the S mode-0 model (Q18), the a5 intra-block
 * semaphores with the subblock id mapping of Q19, the a2a3 cross-core pair, and the no-op fences
 * (mem_bar orders nothing the simulator reorders; dsb/dcci have no cache to maintain). */
#include "sync.h"
#include "base/bits.h"
#include "exec/observe.h"
#include "exec/race.h"
#include "isa/type.h"
#include <stddef.h>
#include <stdio.h>

/* Decoded operands (Instr.imm): the pipes of a flag, the constant event / buffer / semaphore id (-1: a
   run-time operand), the get_buf/rls_buf mode, and the widths of signed run-time id operands 0 and 1
   (64 for unsigned ones), so an i32 -1 is reported as -1 (signless integers are signed), not 4294967295. */
enum { SY_SRC, SY_DST, SY_ID, SY_MODE, SY_W0, SY_W1 };

/* The queue a PIPE token names (isa/pipes.def), PQ_ALL, or PQ_NONAME for the names no ptosim pipe runs (PIPE_MTE4,
   PIPE_MTE5, PIPE_V2 and the two virtual MTE2 pipes); -1 without a token. */
enum { PQ_NONAME = 0xFF };

static int pq_token(const Op *op, const char *name)
{
    int t = op_token_id(op, name);
    if (t < 0 || tok_set(t) != TS_PIPE) return -1;
    int q = pipe_of_token(t);
    return t == T_PIPE_ALL ? PQ_ALL : q >= 0 ? q : PQ_NONAME;
}

/* An op naming a pipe that exists only as a name (PIPE_MTE4, ...) verifies; running it traps. */
static int p_noname_pipe(Exec *x, const Instr *in, const uint64_t *args)
{
    (void)args;
    sim_trap(x, in, DIAG_T_UNSUPPORTED, "'%s' names a pipe that ptosim's machine does not have (PIPE_MTE4, PIPE_MTE5, "
             "PIPE_V2 and the virtual MTE2 pipes exist only as names)", op_info[in->kind].name);
    return -1;
}

static const Instr *x_noname_pipe(Exec *x, const Instr *in)
{
    p_noname_pipe(x, in, NULL);
    return NULL;
}

/* Lowers an op that names a pipe without a queue: it traps where it would run (on the scalar unit). */
static int lower_noname(Instr *in)
{
    in->pipe = PQ_S;
    in->pfn = p_noname_pipe;
    in->fn = x_noname_pipe;
    return 0;
}

static uint64_t now_of(Exec *x) { return x->pipe == PQ_S ? x->core->su_t : x->core->pipes[x->pipe].t; }

/* Run-time id operand i as a value. */
static int64_t id_operand(const Instr *in, const uint64_t *args, unsigned i)
{
    return bits_sext(args[i], in->imm[SY_W0 + i]);
}

/* Checks a run-time id against [0, n); traps (id) naming `what` otherwise. */
static int id_in_range(Exec *x, const Instr *in, int64_t v, int64_t n, DiagId id, const char *what)
{
    if (v >= 0 && v < n) return 1;
    sim_trap(x, in, id, "%s %lld is outside 0..%lld", what, (long long)v, (long long)(n - 1));
    return 0;
}

/* An L1 -> UB copy (copy_cbuf_to_ubuf, mte_l1_ub) is issued to MTE1 but its data passes through the
   FIXPIPE: a set executed on FIX waits until every such copy issued before it has completed, and is then
   ordered after it (docs/semantics.md §8.1). Returns 1 while the set must wait. */
static int fix_set_waits(Exec *x)
{
    if (x->pipe != PQ_FIX) return 0;
    const QEntry *me = sim_queue_head(x->core, PQ_FIX);
    for (uint32_t k = 0;; k++) {
        const QEntry *e = sim_queue_entry(x->core, PQ_MTE1, k);
        if (!e) break;
        if ((e->in->kind == OP_COPY_CBUF_TO_UBUF || e->in->kind == OP_MTE_L1_UB) && me && e->seq < me->seq) return 1;
    }
    sim_acquire(x, RC_BUF, sim_l1ub_key(x->core));
    return 0;
}

/* ------------------------------------------------------------------ flags */

static int event_of(Exec *x, const Instr *in, const uint64_t *args)
{
    if (in->imm[SY_ID] >= 0) return (int)in->imm[SY_ID];
    int64_t e = id_operand(in, args, 0);
    return id_in_range(x, in, e, 16, DIAG_T_FIELD, "event id") ? (int)e : -1;
}

/* The flag key in force: the launch's, else the target's (docs/semantics.md §2 "Flag key"). */
static int pipe_keyed(const Sim *s)
{
    int k = s->flag_key ? s->flag_key : s->tp->flag_key;
    return k == FLAG_KEY_PIPE_EVENT;
}

/* The destination slot of a flag: the wait pipe, except under the lossy model on a (set pipe, event) key,
   where every wait pipe shares one bit. */
static int dslot(const Exec *x, const Instr *in)
{
    const Sim *s = x->core->sim;
    return s->flag_lossy && pipe_keyed(s) ? 0 : (int)in->imm[SY_DST];
}

static unsigned flag_key(const Core *c, const Instr *in, int d, int e)
{
    (void)in;
    return (unsigned)(((c->index * PQ__COUNT + in->imm[SY_SRC]) * PQ__COUNT + d) * 16 + e);
}

/* W-FLAG-EVENT: an event id the target's device does not have (a2a3: 0..7), once per op. */
static void check_event(Exec *x, const Instr *in, int e)
{
    const TargetProfile *tp = x->core->sim->tp;
    if (e >= tp->flag_events && e < 16)
        sim_warn_once(x, in, DIAG_T_FLAG_EVENT, "event id %d is outside 0..%d, the event ids of %s", e, tp->flag_events - 1,
                      tp->name);
}

static int p_set_flag(Exec *x, const Instr *in, const uint64_t *args)
{
    int e = event_of(x, in, args);
    if (e < 0) return -1;
    if (fix_set_waits(x)) return 1;
    check_event(x, in, e);
    SyncState *s = x->core->sync;
    int src = (int)in->imm[SY_SRC], d = dslot(x, in);
    s->flag_sets[src][d][e]++;
    if (s->flag[src][d][e] && x->core->sim->flag_lossy) {
        /* lossy model: still set, so this set is lost, as on hardware; the run goes on */
        const Instr *prev = s->flag_set_at[src][d][e];
        if (!x->core->cl->race)   /* with the race detector, flagcheck.c reports it whatever the schedule */
            sim_warn_note(x, in, DIAG_T_FLAG_ALIAS, prev,
                          "flag %s, event %d is still set: this set_flag is lost", pq_name((unsigned)src), e);
        s->flag_lost_at[src][d][e] = in;
        fc_flag_set(x, in, src, (int)in->imm[SY_DST], e, pipe_keyed(x->core->sim));
        return 0;
    }
    s->flag[src][d][e]++;
    s->flag_set_at[src][d][e] = in;
    s->flag_ready[src][d][e] = x->now + in->cost;
    sim_release(x, RC_FLAG, flag_key(x->core, in, d, e));
    fc_flag_set(x, in, src, (int)in->imm[SY_DST], e, pipe_keyed(x->core->sim));
    if (x->pipe == PQ_S) sim_signal(x->core, x->now + in->cost);
    return 0;
}

static int p_wait_flag(Exec *x, const Instr *in, const uint64_t *args)
{
    int e = event_of(x, in, args);
    if (e < 0) return -1;
    SyncState *s = x->core->sync;
    int src = (int)in->imm[SY_SRC], d = dslot(x, in);
    if (!s->flag[src][d][e]) return 1;
    /* a flag is seen once the set_flag has completed, not by a wait retried within its cycles */
    if (x->now < s->flag_ready[src][d][e]) {
        x->retry_at = s->flag_ready[src][d][e];
        return 1;
    }
    check_event(x, in, e);
    s->flag[src][d][e]--;
    s->flag_taken_at[src][d][e] = in;
    /* lossy model on a (set pipe, event) key: the set named another destination, so which wait takes a set
       depends on timing (with the race detector, flagcheck.c reports the unordered waits instead) */
    const Instr *set = s->flag_set_at[src][d][e];
    if (set && set->imm[SY_DST] != in->imm[SY_DST] && !x->core->cl->race)
        sim_warn_note(x, in, DIAG_T_FLAG_CROSS, set,
                      "this wait for flag %s -> %s, event %d took a set made for %s: a flag is one bit per set pipe "
                      "and event, so which wait takes a set depends on timing; give each destination its own event",
                      pq_name((unsigned)src), pq_name((unsigned)in->imm[SY_DST]), e, pq_name((unsigned)set->imm[SY_DST]));
    sim_acquire(x, RC_FLAG, flag_key(x->core, in, d, e));
    fc_flag_wait(x, in, src, (int)in->imm[SY_DST], e, pipe_keyed(x->core->sim));
    return 0;
}

int sync_reset(Core *c)
{
    memset(c->sync, 0, sizeof *c->sync);
    return 0;
}

int sync_cluster_reset(Cluster *cl)
{
    memset(cl->sync, 0, offsetof(SyncClusterState, fc));   /* the check records are cleared as they are made */
    return 0;
}

/* W-FLAG-LEFTOVER: a flag still set when the block completed, at the set that set it, once per flag;
   W-SEM-LEFTOVER the same for intra-block semaphores and cross-core counters that some wait consumed
   (a protocol that leaves a signal pending); one never waited at all is a signal its receiver ignores
   (validated kernels signal both AIVs and only one waits), not reported. */
void sync_report_leftovers(Cluster *cl)
{
    for (int i = 0; i < cl->ncores; i++) {
        Core *c = &cl->cores[i];
        for (int a = 0; a < PQ__COUNT; a++)
            for (int d = 0; d < PQ__COUNT; d++)
                for (int e = 0; e < 16; e++) {
                    const Instr *in = c->sync->flag_set_at[a][d][e];
                    if (!c->sync->flag[a][d][e] || !in) continue;
                    Exec x = {0};
                    x.core = c;
                    char f[64];
                    if (cl->sim->flag_lossy && pipe_keyed(cl->sim)) snprintf(f, sizeof f, "flag %s", pq_name((unsigned)a));
                    else snprintf(f, sizeof f, "flag %s -> %s", pq_name((unsigned)a), pq_name((unsigned)d));
                    sim_warn_once(&x, in, DIAG_T_FLAG_LEFT, "%s, event %d was set and never consumed by a wait_flag "
                                  "before the kernel ended", f, e);
                }
    }
    SyncClusterState *s = cl->sync;
    Exec x = {0};
    for (int k = 0; k < 32; k++)
        if (s->sems[k] && s->sem_waited[k] && s->sem_set_at[k] && (x.core = &cl->cores[s->sem_set_core[k] % 3]))
            sim_warn_once(&x, s->sem_set_at[k], DIAG_T_SEM_LEFT, "intra-block semaphore %d was set and never waited "
                          "before the block ended (%u set%s left)", k, s->sems[k], s->sems[k] == 1 ? "" : "s");
    for (int e = 0; e < 16; e++) {
        for (int sb = 0; sb < 2; sb++)
            if (s->cross_c2v[sb][e] && s->cross_waited[sb][e] && s->cross_set_at[sb][e] && (x.core = &cl->cores[s->cross_set_core[sb][e] % 3]))
                sim_warn_once(&x, s->cross_set_at[sb][e], DIAG_T_SEM_LEFT, "cross-core event %d to AIV%d was set and "
                              "never waited before the block ended", e, sb);
        if (s->cross_v2c[e] && s->cross_waited[2][e] && s->cross_set_at[2][e] && (x.core = &cl->cores[s->cross_set_core[2][e] % 3]))
            sim_warn_once(&x, s->cross_set_at[2][e], DIAG_T_SEM_LEFT, "cross-core event %d to the AIC was set and "
                          "never waited before the block ended", e);
    }
}

/* ------------------------------------------------------------------ barriers */

static int p_nop(Exec *x, const Instr *in, const uint64_t *args) { (void)x; (void)in; (void)args; return 0; }
static const Instr *x_nop(Exec *x, const Instr *in) { (void)x; return in + 1; }

/* PIPE_ALL: the issuing SU waits until every queue of its core has drained. */
static const Instr *x_barrier_all(Exec *x, const Instr *in) { return sim_drain_all(x) ? SIM_BLOCKED : in + 1; }

/* ------------------------------------------------------------------ buffer tokens (mode 0) */

/* Issue hooks: a get_buf records how many rls_buf on its id were issued before it in program order; an
   rls_buf records its own ordinal among the releases of its id (the entry's aux). */

static int buf_id(Exec *x, const Instr *in, const uint64_t *args)
{
    int64_t id = in->imm[SY_ID] >= 0 ? in->imm[SY_ID] : id_operand(in, args, 0);
    return id_in_range(x, in, id, 32, DIAG_T_BUF, "buffer id") ? (int)id : -1;
}

static int64_t i_get_buf(Exec *x, const Instr *in, const uint64_t *args)
{
    int id = buf_id(x, in, args);
    return id < 0 ? 0 : x->core->sync->buf_issued_rls[id];
}

static int64_t i_rls_buf(Exec *x, const Instr *in, const uint64_t *args)
{
    int id = buf_id(x, in, args);
    return id < 0 ? 0 : x->core->sync->buf_issued_rls[id]++;
}

static int p_rls_buf(Exec *x, const Instr *in, const uint64_t *args);

/* Is a release of `id` with ordinal < n still waiting in one of c's pipe queues? Releases executed by
   the scalar unit retire at issue, so a queued entry is exactly an unretired release. */
static int rls_pending_before(const Core *c, int id, int64_t n)
{
    for (int p = 1; p < PQ__COUNT; p++) {
        const Pipe *pp = &c->pipes[p];
        for (uint32_t i = pp->head; i < pp->tail; i++) {
            const QEntry *e = &pp->q[i % pp->cap];
            if (e->in->pfn != p_rls_buf || e->aux >= n) continue;
            int64_t eid = e->in->imm[SY_ID] >= 0 ? e->in->imm[SY_ID] : id_operand(e->in, pp->caps + e->cap, 0);
            if (eid == id) return 1;
        }
    }
    return 0;
}

/* Mode 0 (Q18): wait until every release of the id issued earlier in program order has retired. A
   count of retired releases is not enough: a later release on an idle pipe may retire before an
   earlier one on a busy pipe, so the count is only the fast path and the queues decide. */
static int p_get_buf(Exec *x, const Instr *in, const uint64_t *args)
{
    int id = buf_id(x, in, args);
    if (id < 0) return -1;
    uint32_t *held = &x->core->sync->buf_held[x->pipe];
    if (*held >> id & 1u) {   /* isa-notes §3.1.2: acquiring an id twice on one pipe is illegal */
        sim_trap(x, in, DIAG_T_BUF, "buffer id %d is already held by %s (get_buf twice without rls_buf)", id,
                 pq_name((unsigned)x->pipe));
        return -1;
    }
    if (in->imm[SY_MODE] != 1) {   /* mode 1: acquisition does not block */
        if (x->core->sync->buf_retired_rls[id] < (uint64_t)x->aux) return 1;
        if (rls_pending_before(x->core, id, x->aux)) return 1;
        /* only the releases issued before it in program order order it (not a later one that already ran) */
        race_acquire_upto(x, (unsigned)(x->core->index * 64 + id), (uint64_t)x->aux);
        obs_acquire(x, RC_BUF, (unsigned)(x->core->index * 64 + id));
    }
    *held |= 1u << id;
    return 0;
}

static int p_rls_buf(Exec *x, const Instr *in, const uint64_t *args)
{
    int id = buf_id(x, in, args);
    if (id < 0) return -1;
    uint32_t *held = &x->core->sync->buf_held[x->pipe];
    if (!(*held >> id & 1u)) {   /* release without acquire, or a second release, is illegal */
        sim_trap(x, in, DIAG_T_BUF, "buffer id %d is not held by %s (rls_buf without a matching get_buf)", id,
                 pq_name((unsigned)x->pipe));
        return -1;
    }
    *held &= ~(1u << id);
    x->core->sync->buf_retired_rls[id]++;
    race_release_seq(x, (unsigned)(x->core->index * 64 + id), (uint64_t)x->aux);
    obs_release(x, RC_BUF, (unsigned)(x->core->index * 64 + id));
    if (x->pipe == PQ_S) sim_signal(x->core, x->now + in->cost);
    return 0;
}

/* ------------------------------------------------------------------ intra-block semaphores (a5) */

/* Vector side: id -> (id mod 16) + 16 * subblock; cube side: raw 0..31 (resolutions Q19). */
static int sem_index(Exec *x, const Instr *in, const uint64_t *args)
{
    int64_t id = in->imm[SY_ID] >= 0 ? in->imm[SY_ID] : id_operand(in, args, 0);
    if (id < 0 || id > 31) {
        sim_trap(x, in, DIAG_T_FIELD, "semaphore id %lld is outside 0..31", (long long)id);
        return -1;
    }
    if (x->core->type == CORE_AIV) return (int)(id % 16) + 16 * x->core->subblock;
    return (int)id;
}

/* On a2a3 the block's semaphore ops are the FFTS cross-core pair (the compiler lowers set_intra_block and sync.set
   mode 2 there to ffts_cross_core_sync, their waits to wait_flag_dev): the id is the event, 0..15. */
static int cross_set(Exec *x, const Instr *in, int64_t e);
static int cross_wait(Exec *x, const Instr *in, int64_t e);

static int a2a3_event(Exec *x, const Instr *in, const uint64_t *args, int64_t *e)
{
    *e = in->imm[SY_ID] >= 0 ? in->imm[SY_ID] : id_operand(in, args, 0);
    return id_in_range(x, in, *e, 16, DIAG_T_FIELD, "event id") ? 0 : -1;
}

static int p_sem_set(Exec *x, const Instr *in, const uint64_t *args)
{
    int64_t e;
    if (x->core->sim->tp->id == PTO_TARGET_A2A3) return a2a3_event(x, in, args, &e) ? -1 : cross_set(x, in, e);
    int k = sem_index(x, in, args);
    if (k < 0) return -1;
    if (fix_set_waits(x)) return 1;
    uint32_t *s = &x->core->cl->sync->sems[k];
    if (*s >= 15) {
        sim_trap(x, in, DIAG_T_SEM_OVERFLOW, "semaphore %d would exceed its 4-bit counter", k);
        return -1;
    }
    (*s)++;
    x->core->cl->sync->sem_ready[k] = x->now + in->cost;
    x->core->cl->sync->sem_set_at[k] = in;
    x->core->cl->sync->sem_set_core[k] = (uint8_t)x->core->index;
    sim_release(x, RC_SEM, (unsigned)k);
    fc_sem_set(x, in, 0, (unsigned)k);
    if (x->pipe == PQ_S) sim_signal(x->core, x->now + in->cost);
    return 0;
}

static int p_sem_wait(Exec *x, const Instr *in, const uint64_t *args)
{
    int64_t e;
    if (x->core->sim->tp->id == PTO_TARGET_A2A3) return a2a3_event(x, in, args, &e) ? -1 : cross_wait(x, in, e);
    int k = sem_index(x, in, args);
    if (k < 0) return -1;
    uint32_t *s = &x->core->cl->sync->sems[k];
    if (!*s) return 1;
    if (x->now < x->core->cl->sync->sem_ready[k]) {
        x->retry_at = x->core->cl->sync->sem_ready[k];
        return 1;
    }
    (*s)--;
    x->core->cl->sync->sem_waited[k] = 1;
    sim_acquire(x, RC_SEM, (unsigned)k);
    fc_sem_wait(x, in, 0, (unsigned)k);
    return 0;
}

/* sync.set/sync.wait with ffts_mode 1 (subblock): which cores such a signal reaches is not published; mode 2 (block,
   the default) is the intra-block semaphore above, mode 0 the cross-block flag (syncall.c). */
static int p_ffts_unsupported(Exec *x, const Instr *in, const uint64_t *args)
{
    (void)args;
    const Attr *fm = in->op ? op_attr(in->op, "ffts_mode") : NULL;
    sim_trap(x, in, DIAG_T_UNSUPPORTED, "ffts_mode %lld (subblock) is not simulated: which cores the signal reaches is "
             "not published; ffts_mode 0 (cross-block) and 2 (block) are", fm ? (long long)fm->i : -1LL);
    return -1;
}

/* ------------------------------------------------------------------ a2a3 cross-core pair */

/* set_cross_core %core_id, %event_id: core id 0/1 (the AIV subblock), event 0..15, 4-bit counters that
   must not overflow (isa-notes §3.1.2; M set-cross-core page). The AIC's set is the mode-2 broadcast:
   it increments the counter of both AIVs whatever the core id. */
static int cross_set(Exec *x, const Instr *in, int64_t e)
{
    Cluster *cl = x->core->cl;
    if (x->core->type == CORE_AIC) {
        for (int s = 0; s < 2; s++)
            if (cl->sync->cross_c2v[s][e] >= 15) {
                sim_trap(x, in, DIAG_T_SEM_OVERFLOW, "cross-core semaphore %lld of AIV%d would exceed its 4-bit counter",
                         (long long)e, s);
                return -1;
            }
        for (int s = 0; s < 2; s++) {
            cl->sync->cross_c2v[s][e]++;   /* broadcast to both AIVs */
            cl->sync->cross_ready_c2v[s][e] = x->now + in->cost;
            cl->sync->cross_set_at[s][e] = in;
            cl->sync->cross_set_core[s][e] = (uint8_t)x->core->index;
            sim_release(x, RC_CROSS, (unsigned)(s * 16 + e));
            fc_sem_set(x, in, 1, (unsigned)(s * 16 + e));
        }
    } else {
        if (cl->sync->cross_v2c[e] >= 15) {
            sim_trap(x, in, DIAG_T_SEM_OVERFLOW, "cross-core semaphore %lld would exceed its 4-bit counter", (long long)e);
            return -1;
        }
        cl->sync->cross_v2c[e]++;
        cl->sync->cross_set_at[2][e] = in;
        cl->sync->cross_set_core[2][e] = (uint8_t)x->core->index;
        uint64_t *r = &cl->sync->cross_ready_v2c[e];
        if (*r < x->now + in->cost) *r = x->now + in->cost;   /* the reduce form waits for the later AIV */
        sim_release(x, RC_CROSS, (unsigned)(32 + e));
    }
    sim_signal(x->core, now_of(x));
    return 0;
}

static int p_cross_set(Exec *x, const Instr *in, const uint64_t *args)
{
    int64_t core = id_operand(in, args, 0), e = id_operand(in, args, 1);
    if (!id_in_range(x, in, core, 2, DIAG_T_FIELD, "core id")) return -1;
    if (!id_in_range(x, in, e, 16, DIAG_T_FIELD, "event id")) return -1;
    return cross_set(x, in, e);
}

/* wait_flag_dev %event_id, or the two-operand form wait_flag_dev %core_id, %event_id of the M overview
   and the set_cross_core page's examples (the event is the last operand). */
static int p_cross_wait(Exec *x, const Instr *in, const uint64_t *args)
{
    int two = in->nargs > 1 && in->arg[1] >= 0;
    if (two && !id_in_range(x, in, id_operand(in, args, 0), 2, DIAG_T_FIELD, "core id")) return -1;
    int64_t e = id_operand(in, args, two ? 1 : 0);
    if (!id_in_range(x, in, e, 16, DIAG_T_FIELD, "event id")) return -1;
    return cross_wait(x, in, e);
}

static int cross_wait(Exec *x, const Instr *in, int64_t e)
{
    Cluster *cl = x->core->cl;
    if (x->core->type == CORE_AIC) {
        uint32_t need = cl->ncores == 3 ? 2 : 1;   /* the reduce form waits for both AIVs */
        if (cl->sync->cross_v2c[e] < need) return 1;
        if (x->now < cl->sync->cross_ready_v2c[e]) {   /* set later in simulated time than this wait runs */
            x->retry_at = cl->sync->cross_ready_v2c[e];
            return 1;
        }
        cl->sync->cross_v2c[e] -= need;
        cl->sync->cross_waited[2][e] = 1;
        for (uint32_t i = 0; i < need; i++) sim_acquire(x, RC_CROSS, (unsigned)(32 + e));
    } else {
        uint32_t *c = &cl->sync->cross_c2v[x->core->subblock & 1][e];
        if (!*c) return 1;
        uint64_t ready = cl->sync->cross_ready_c2v[x->core->subblock & 1][e];
        if (x->now < ready) {
            x->retry_at = ready;
            return 1;
        }
        (*c)--;
        cl->sync->cross_waited[x->core->subblock & 1][e] = 1;
        sim_acquire(x, RC_CROSS, (unsigned)((x->core->subblock & 1) * 16 + e));
        fc_sem_wait(x, in, 1, (unsigned)((x->core->subblock & 1) * 16 + e));
    }
    return 0;
}

/* ------------------------------------------------------------------ lowering */

static void queue_or_now(Instr *in, int pq)
{
    in->pipe = (uint8_t)(pq == PQ_ALL ? PQ_S : pq);
    if (in->pipe == PQ_S) in->fn = sim_exec_now;
}

int sync_lower(LowerView *L, const Op *op, Instr *in)
{
    in->imm[SY_ID] = -1;
    for (unsigned i = 0; i < 2; i++) {   /* widths of signed run-time id operands, for id_operand */
        const Type *t = i < op->noperands && op->operands[i] ? op->operands[i]->type : NULL;
        in->imm[SY_W0 + i] = ty_is_intlike(t) && ty_signed(t) ? ty_bits(t) : 64;
    }
    switch (op->kind) {
    case OP_SET_FLAG: case OP_WAIT_FLAG: case OP_SET_FLAG_DYN: case OP_WAIT_FLAG_DYN: {
        int src = pq_token(op, "src"), dst = pq_token(op, "dst");
        if (src == PQ_NONAME || dst == PQ_NONAME) return lower_noname(in);
        if (src < 0 || dst < 0 || src == PQ_ALL || dst == PQ_ALL) {
            lw_error(L, op, DIAG_V_TOKEN, "set_flag/wait_flag need concrete source and destination pipes");
            return -1;
        }
        in->imm[SY_SRC] = src;
        in->imm[SY_DST] = dst;
        if (op->kind == OP_SET_FLAG || op->kind == OP_WAIT_FLAG) in->imm[SY_ID] = tok_ordinal(op_token_id(op, "evt"));
        int set = op->kind == OP_SET_FLAG || op->kind == OP_SET_FLAG_DYN;
        in->pfn = set ? p_set_flag : p_wait_flag;
        queue_or_now(in, set ? src : dst);
        return 0;
    }
    case OP_PIPE_BARRIER: case OP_BARRIER: {
        int p = pq_token(op, "pipe");
        if (p == PQ_NONAME) return lower_noname(in);
        if (p == PQ_ALL) { in->fn = x_barrier_all; in->pipe = PQ_S; return 0; }
        /* each pipe already runs its ops one at a time, so a single-pipe barrier orders nothing more */
        in->pfn = p_nop;
        queue_or_now(in, p < 0 ? PQ_S : p);
        if (in->pipe == PQ_S) in->fn = x_nop;
        return 0;
    }
    case OP_GET_BUF: case OP_RLS_BUF: case OP_GET_BUF_DYN: case OP_RLS_BUF_DYN: {
        int p = pq_token(op, "pipe");
        if (p == PQ_NONAME) return lower_noname(in);
        int get = op->kind == OP_GET_BUF || op->kind == OP_GET_BUF_DYN;
        const Attr *id = op_attr(op, "id");
        if (op->kind == OP_GET_BUF || op->kind == OP_RLS_BUF) in->imm[SY_ID] = id ? id->i : 0;
        const Attr *mode = op_attr(op, "mode");
        in->imm[SY_MODE] = mode ? mode->i : 0;
        in->ifn = get ? i_get_buf : i_rls_buf;
        in->pfn = get ? p_get_buf : p_rls_buf;
        queue_or_now(in, p == PQ_ALL || p < 0 ? PQ_S : p);
        return 0;
    }
    case OP_SET_INTRA_BLOCK: case OP_WAIT_INTRA_BLOCK: case OP_SYNC_SET: case OP_SYNC_WAIT:
    case OP_SET_CROSS_BLOCK: case OP_WAIT_CROSS_BLOCK: {
        int p = pq_token(op, "pipe");
        if (p == PQ_NONAME) return lower_noname(in);
        const Attr *id = op_attr(op, "id");
        in->imm[SY_ID] = id ? id->i : -1;   /* -1: the id is operand 0 */
        int set = op->kind == OP_SET_INTRA_BLOCK || op->kind == OP_SYNC_SET || op->kind == OP_SET_CROSS_BLOCK;
        in->pfn = set ? p_sem_set : p_sem_wait;
        const Attr *fm = op_attr(op, "ffts_mode");
        /* the named cross-block ops are ffts_mode 0 (the compiler canonicalises them to sync.set/wait mode 0) */
        int mode = op->kind == OP_SET_CROSS_BLOCK || op->kind == OP_WAIT_CROSS_BLOCK ? 0 : fm ? (int)fm->i : 2;
        if (mode == 0 && xblock_lower(L, op, in, set)) return -1;
        if (mode == 1) in->pfn = p_ffts_unsupported;
        queue_or_now(in, p == PQ_ALL || p < 0 ? PQ_S : p);
        return 0;
    }
    case OP_SET_CROSS_CORE:
        in->pfn = p_cross_set;
        queue_or_now(in, PQ_S);
        return 0;
    case OP_WAIT_FLAG_DEV:
        in->pfn = p_cross_wait;
        queue_or_now(in, PQ_S);
        return 0;
    case OP_SYNCALL:
        return syncall_lower(L, op, in);
    case OP_MEM_BAR: case OP_DSB: case OP_DCCI:
        in->fn = x_nop;   /* the op table's pipe: mem_bar inside a scope, dsb/dcci on the scalar unit */
        return 0;
    default:
        return 0;
    }
}

/* ------------------------------------------------------------------ descriptions */

void sync_describe(const Instr *in, char *buf, size_t n)
{
    int64_t id = in->imm[SY_ID];
    char ids[24];
    if (id >= 0) snprintf(ids, sizeof ids, "%lld", (long long)id);
    else snprintf(ids, sizeof ids, "(run-time id)");
    switch (in->kind) {
    case OP_WAIT_FLAG: case OP_WAIT_FLAG_DYN: case OP_SET_FLAG: case OP_SET_FLAG_DYN:
        snprintf(buf, n, "flag %s -> %s, event %s", pq_name((unsigned)in->imm[SY_SRC]), pq_name((unsigned)in->imm[SY_DST]), ids);
        break;
    case OP_GET_BUF: case OP_GET_BUF_DYN: case OP_RLS_BUF: case OP_RLS_BUF_DYN:
        snprintf(buf, n, "buffer token %s on %s", ids, pq_name(in->pipe));
        break;
    case OP_WAIT_INTRA_BLOCK: case OP_SYNC_WAIT: case OP_SET_INTRA_BLOCK: case OP_SYNC_SET:
        snprintf(buf, n, "intra-block semaphore %s", ids);
        break;
    case OP_WAIT_FLAG_DEV: case OP_SET_CROSS_CORE:
        snprintf(buf, n, "cross-core flag");
        break;
    case OP_BARRIER: case OP_PIPE_BARRIER:
        snprintf(buf, n, "every pipe of the core to drain");
        break;
    default:
        snprintf(buf, n, "%s", op_info[in->kind].name);
        break;
    }
}

/* ------------------------------------------------------------------ deadlock explanations */

static int is_flag_wait(OpKind k) { return k == OP_WAIT_FLAG || k == OP_WAIT_FLAG_DYN; }
static int is_flag_set(OpKind k) { return k == OP_SET_FLAG || k == OP_SET_FLAG_DYN; }
static int is_wait(OpKind k)
{
    return is_flag_wait(k) || k == OP_GET_BUF || k == OP_GET_BUF_DYN || k == OP_WAIT_INTRA_BLOCK || k == OP_SYNC_WAIT ||
           k == OP_WAIT_FLAG_DEV;
}

static const char *who(const Core *c, char *b, size_t n)
{
    if (c->cl->ncores == 1) snprintf(b, n, "block %llu", (unsigned long long)c->block_idx);
    else snprintf(b, n, "block %llu %s", (unsigned long long)c->block_idx,
                  core_label(c->type, (unsigned)c->subblock, 3));
    return b;
}

/* The blocked wait of pipe p of core c (its queue head), with its event; NULL when the head is not a
   flag wait. */
static const Instr *blocked_flag_wait(const Core *c, int p, int *event)
{
    const QEntry *e = p == PQ_S ? NULL : sim_queue_head(c, p);
    const Instr *in = e ? e->in : (p == PQ_S && c->su_state == 1 ? c->su_blocked_on : NULL);
    if (!in || !is_flag_wait((OpKind)in->kind)) return NULL;
    if (in->imm[SY_ID] >= 0) *event = (int)in->imm[SY_ID];
    else if (e) *event = (int)id_operand(in, sim_entry_args(c, p, e), 0);
    else *event = -1;
    return in;
}

static SrcLoc loc_of(const Instr *in) { return in && in->op ? in->op->loc : (SrcLoc){0, 0, 0}; }

/* Why flag (src, e) of core c can never be set; follows the setter pipe when it is blocked on another flag,
   up to a cycle. */
static void explain_flag(DiagList *d, long di, const Core *c, int src, int ds, int e, int depth, unsigned visited)
{
    const SyncState *s = c->sync;
    char w[48];
    if (e < 0 || e > 15) return;
    if (s->flag_lost_at[src][ds][e])
        diag_note(d, di, loc_of(s->flag_lost_at[src][ds][e]), "this set_flag of flag %s, event %d was lost: the flag was "
                  "still set when it ran (W-FLAG-ALIAS)", pq_name((unsigned)src), e);
    /* a set of this flag still queued behind something on its pipe */
    const QEntry *h = src == PQ_S ? NULL : sim_queue_head(c, src);
    for (uint32_t k = 1; h; k++) {
        const QEntry *q = sim_queue_entry(c, src, k);
        if (!q) break;
        if (is_flag_set((OpKind)q->in->kind) && q->in->imm[SY_SRC] == src) {
            diag_note(d, di, loc_of(q->in), "a set_flag of this flag is queued on %s behind '%s', which is blocked",
                      pq_name((unsigned)src), op_info[h->in->kind].name);
            break;
        }
    }
    if (h && is_wait((OpKind)h->in->kind) && !is_flag_wait((OpKind)h->in->kind)) {
        char what[96];
        sync_describe(h->in, what, sizeof what);
        diag_note(d, di, loc_of(h->in), "%s, which would set it, is itself blocked here, waiting for %s",
                  pq_name((unsigned)src), what);
    }
    if (s->flag_sets[src][ds][e] && s->flag_taken_at[src][ds][e])
        diag_note(d, di, loc_of(s->flag_taken_at[src][ds][e]), "the last set of flag %s, event %d (%u executed) was "
                  "consumed by this wait", pq_name((unsigned)src), e, s->flag_sets[src][ds][e]);
    else if (!s->flag_sets[src][ds][e])
        diag_note(d, di, loc_of(NULL), "no set_flag of flag %s, event %d ran on %s", pq_name((unsigned)src), e,
                  who(c, w, sizeof w));
    if (src != PQ_S && (visited >> src & 1u)) {
        diag_note(d, di, loc_of(NULL), "the waits form a cycle: each pipe waits for a flag only another waiting pipe "
                  "can set");
        return;
    }
    /* the setter pipe itself waiting */
    int e2;
    const Instr *w2 = blocked_flag_wait(c, src, &e2);
    if (w2 && depth < 8) {
        diag_note(d, di, loc_of(w2), "%s, which would set it, is itself blocked here, waiting for flag %s, event %d",
                  src == PQ_S ? "the scalar unit" : pq_name((unsigned)src), pq_name((unsigned)w2->imm[SY_SRC]), e2);
        explain_flag(d, di, c, (int)w2->imm[SY_SRC], c->sim->flag_lossy && pipe_keyed(c->sim) ? 0 : (int)w2->imm[SY_DST], e2,
                     depth + 1, visited | 1u << src);
    } else if (c->su_state == 1 && c->su_blocked_on && is_wait((OpKind)c->su_blocked_on->kind)) {
        diag_note(d, di, loc_of(c->su_blocked_on), "the scalar unit is blocked here and issues nothing more");
    }
}

long sync_explain_deadlock(Cluster *cl)
{
    DiagList *d = cl->sim->diags;
    char w[48];
    for (int i = 0; i < cl->ncores; i++) {
        const Core *c = &cl->cores[i];
        for (int p = 1; p <= PQ__COUNT; p++) {
            int pq = p == PQ__COUNT ? PQ_S : p;   /* pipes first, the scalar unit last */
            const QEntry *q = pq == PQ_S ? NULL : sim_queue_head(c, pq);
            const Instr *in = q ? q->in : (pq == PQ_S && c->su_state == 1 ? c->su_blocked_on : NULL);
            if (!in || !is_wait((OpKind)in->kind)) continue;
            int e;
            if (blocked_flag_wait(c, pq, &e)) {
                int src = (int)in->imm[SY_SRC];
                long di = diag_add(d, SEV_TRAP, DIAG_T_DEADLOCK, loc_of(in), "deadlock: %s %s waits for flag %s, event %d, "
                                   "which can never be set", who(c, w, sizeof w), pq == PQ_S ? "scalar unit" : pq_name((unsigned)pq),
                                   pq_name((unsigned)src), e);
                explain_flag(d, di, c, src, c->sim->flag_lossy && pipe_keyed(c->sim) ? 0 : (int)in->imm[SY_DST], e, 0, 1u << pq);
                return di;
            }
            char what[96];
            sync_describe(in, what, sizeof what);
            return diag_add(d, SEV_TRAP, DIAG_T_DEADLOCK, loc_of(in), "deadlock: %s %s waits for %s, which is never "
                            "released", who(c, w, sizeof w), pq == PQ_S ? "scalar unit" : pq_name((unsigned)pq), what);
        }
    }
    return -1;
}
