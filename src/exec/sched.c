/* sched.c — the deterministic discrete-event scheduler.
 *
 * Agents: each core's scalar unit (SU) and its pipes (V, MTE1, MTE2, MTE3, M, FIX). The SU interprets
 * the program and issues pipe ops into in-order queues with their operand values captured; each pipe
 * executes its queue head when it is free and the op is not waiting on a flag, semaphore or buffer
 * token. The agent with the earliest ready time always goes next (ties: core order, then SU before
 * pipes in PQ order), so runs are reproducible and independent of the host. Memory effects happen when
 * the pipe executes the op. If no agent can move while work remains, that is a deadlock: every blocked
 * op is reported with its location. Times come from the ops' cost fields. */
#include "machine.h"
#include "base/alloc.h"
#include "race.h"
#include "autosync.h"
#include "observe.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ queues */

static int q_push(Pipe *p, const QEntry *e, const uint64_t *caps, uint32_t ncap)
{
    if (p->tail - p->head == p->cap) {
        uint32_t cap = p->cap ? p->cap * 2 : 64;
        QEntry *q = mem_alloc(cap * sizeof *q);
        if (!q) return -1;
        for (uint32_t i = p->head; i < p->tail; i++) q[i - p->head] = p->q[i % p->cap];
        mem_free(p->q);
        p->q = q;
        p->tail -= p->head;
        p->head = 0;
        p->cap = cap;
    }
    if (p->ctail + ncap > p->ccap) {
        if (p->chead) {   /* slide the live entries' captures to the front: the array stays bounded */
            memmove(p->caps, p->caps + p->chead, (p->ctail - p->chead) * sizeof *p->caps);
            for (uint32_t i = p->head; i < p->tail; i++) p->q[i % p->cap].cap -= p->chead;
            p->ctail -= p->chead;
            p->chead = 0;
        }
        if (p->ctail + ncap > p->ccap) {
            uint32_t cap = p->ccap ? p->ccap : 256;
            while (cap < p->ctail + ncap) cap *= 2;
            uint64_t *c = mem_realloc(p->caps, cap * sizeof *c);
            if (!c) return -1;
            p->caps = c;
            p->ccap = cap;
        }
    }
    QEntry *slot = &p->q[p->tail % p->cap];
    *slot = *e;
    slot->cap = p->ctail;
    slot->ncap = ncap;
    if (ncap) memcpy(p->caps + p->ctail, caps, ncap * sizeof *caps);
    p->ctail += ncap;
    p->tail++;
    return 0;
}

static QEntry *q_head(Pipe *p) { return p->head == p->tail ? NULL : &p->q[p->head % p->cap]; }

static void q_pop(Pipe *p)
{
    p->head++;
    if (p->head == p->tail) {
        p->head = p->tail = 0;
        p->chead = p->ctail = 0;
    } else {
        p->chead = p->q[p->head % p->cap].cap;   /* captures before the new head are dead */
    }
}

/* ------------------------------------------------------------------ issue */

const Instr *sim_issue(Exec *x, const Instr *in)
{
    Core *c = x->core;
    Pipe *p = &c->pipes[in->pipe];
    if (p->tail - p->head >= PIPE_QUEUE_DEPTH) {   /* full: retry when the pipe completes an op */
        c->su_queue_full = 1;
        return SIM_BLOCKED;
    }
    uint64_t buf[INSTR_MAX_ARGS + 1];
    uint64_t *caps = buf;
    uint32_t ncap;
    const CaptureList *cl = in->caps;
    uint64_t *heap = NULL;
    if (cl) {
        ncap = cl->bytes / 8;
        if (ncap > INSTR_MAX_ARGS) {
            heap = mem_alloc(cl->bytes);
            if (!heap) {
                sim_trap(x, in, DIAG_T_OOM, "out of host memory issuing to %s", pq_name(in->pipe));
                return NULL;
            }
            caps = heap;
        }
        uint8_t *d = (uint8_t *)caps;
        for (uint32_t i = 0; i < cl->n; i++) {
            memcpy(d, x->frame + cl->c[i].off, cl->c[i].size);
            d += (cl->c[i].size + 7) & ~7u;
        }
    } else {
        ncap = in->nargs;
        for (uint32_t i = 0; i < in->nargs; i++) buf[i] = in->arg[i] >= 0 ? fr_u64(x, in->arg[i]) : 0;
    }
    QEntry e = {.in = in, .t_issue = c->su_t, .seq = c->issue_seq++, .race_snap = UINT32_MAX};
    if (in->ifn) e.aux = in->ifn(x, in, caps);
    race_issue(c, &e);
    if (in->foot && autosync_issue(x, in, &e, caps)) {
        mem_free(heap);
        sim_trap(x, in, DIAG_T_OOM, "out of host memory issuing to %s", pq_name(in->pipe));
        return NULL;
    }
    int r = q_push(p, &e, caps, ncap);
    mem_free(heap);
    if (r) {
        sim_trap(x, in, DIAG_T_OOM, "out of host memory issuing to %s", pq_name(in->pipe));
        return NULL;
    }
    c->su_t += c->sim->timing->issue;
    return in->jump ? in->jump : in + 1;
}

const Instr *sim_exec_now(Exec *x, const Instr *in)
{
    uint64_t args[INSTR_MAX_ARGS];
    for (uint32_t i = 0; i < in->nargs; i++) args[i] = in->arg[i] >= 0 ? fr_u64(x, in->arg[i]) : 0;
    x->aux = in->ifn ? in->ifn(x, in, args) : 0;
    int r = in->pfn(x, in, args);
    if (r == 0) return in + 1;
    if (r > 0) return SIM_BLOCKED;
    return NULL;
}

/* Something changed (a flag, semaphore, token, or a pipe made progress): blocked agents retry, no
   earlier than time t. */
void sim_signal(Core *c, uint64_t t)
{
    Cluster *cl = c->cl;
    for (int i = 0; i < cl->ncores; i++) {
        Core *k = &cl->cores[i];
        for (int p = 0; p < PQ__COUNT; p++)
            if (k->pipes[p].waiting) {
                k->pipes[p].waiting = 0;
                if (k->pipes[p].wake_t < t) k->pipes[p].wake_t = t;
            }
        if (k->su_state == 1) {
            k->su_state = 0;
            if (k->su_t < t) k->su_t = t;
        }
    }
}

void sim_release(Exec *x, int kind, unsigned key)
{
    race_release(x, kind, key);
    obs_release(x, kind, key);
}

void sim_acquire(Exec *x, int kind, unsigned key)
{
    race_acquire(x, kind, key);
    obs_acquire(x, kind, key);
}

void sim_transfer(Exec *x, unsigned src_space, unsigned dst_space, uint64_t bytes)
{
    const Sim *s = x->core->sim;
    sim_count(x, x->pipe, bytes);
    Cluster *cl = x->core->cl;
    /* the transfer starts after what the op has spent so far (docs/timing.md "GM bandwidth") */
    x->extra_cost += timing_transfer_gm(s->timing, timing_path(src_space, dst_space), bytes, s->blocks,
                                        x->now + x->extra_cost, cl ? &cl->gmf : NULL);
}

void sim_fixpipe(Exec *x, unsigned dst_space, uint64_t rows, uint64_t cols, uint64_t bytes)
{
    const Sim *s = x->core->sim;
    Cluster *cl = x->core->cl;
    sim_count(x, x->pipe, bytes);
    x->extra_cost += timing_fixpipe_gm(s->timing, rows, cols, 4, dst_space == AS_GM ? bytes : 0, s->blocks,
                                       x->now + x->extra_cost, cl ? &cl->gmf : NULL);
}

/* ------------------------------------------------------------------ agents */

/* The scalar unit's op `in` waited from `since` to now (a blocked wait, or a barrier that moved the SU's
   time forward to the pipes'): stall accounting and the trace's run and wait slices. */
static void su_stalled(Core *c, const Instr *in, uint64_t since, uint64_t *run_t0, uint32_t *nops)
{
    Pipe *p = &c->pipes[PQ_S];
    uint64_t waited = c->su_t - since;
    WaitCause why = c->su_queue_full ? WC_QUEUE : obs_cause((OpKind)in->kind);
    c->su_queue_full = 0;
    p->stall[why] += waited;
    obs_stall(c->sim->obs, c, PQ_S, in, why, waited);
    obs_su_run(c, *run_t0, since, *nops);
    obs_wait(c, PQ_S, in, since, c->su_t);
    *run_t0 = c->su_t;
    *nops = 0;
}

int sim_drain_all(Exec *x)
{
    Core *c = x->core;
    for (int p = 1; p < PQ__COUNT; p++)
        if (c->pipes[p].head != c->pipes[p].tail) return -1;
    uint64_t t = c->su_t;
    for (int p = 1; p < PQ__COUNT; p++)
        if (c->pipes[p].t > t) t = c->pipes[p].t;
    c->su_t = t;
    race_join_all(x);
    return 0;
}

/* Runs the SU of core c until it blocks, finishes or traps. */
static void run_su(Core *c)
{
    Exec *x = &c->su;
    Sim *s = c->sim;
    Pipe *sp = &c->pipes[PQ_S];
    Observe *o = s->obs;
    const Instr *pc = c->pc;
    uint64_t limit = s->step_limit, run_t0 = c->su_t;
    uint32_t nops = 0;
    while (pc) {
        if (++x->steps > limit) {
            sim_trap(x, pc, DIAG_T_STEP_LIMIT, "step limit of %llu reached (runaway loop?); raise it with --steps",
                     (unsigned long long)limit);
            c->su_state = 2;
            return;
        }
        uint64_t before = c->su_t;
        x->cur = pc;
        x->now = before;
        const Instr *next = pc->fn(x, pc);
        if (next == SIM_BLOCKED) {
            if (!sp->stalled) {
                sp->stalled = 1;
                sp->wait_since = before;
            }
            c->pc = pc;
            c->su_state = 1;
            if (x->retry_at > c->su_t) {   /* due later: retry then, no signal needed */
                c->su_t = x->retry_at;
                c->su_state = 0;
            }
            x->retry_at = 0;
            c->su_blocked_on = pc;
            x->steps--;
            obs_su_run(c, run_t0, before, nops);
            return;
        }
        if (sp->stalled) {
            sp->stalled = 0;
            su_stalled(c, pc, sp->wait_since, &run_t0, &nops);
        } else if (c->su_t > before && !pc->queued) {
            su_stalled(c, pc, before, &run_t0, &nops);
        }
        if (!pc->queued) c->su_t += pc->cost;
        uint64_t spent = c->su_t - before;
        sp->busy += spent;
        nops++;
        if (o->profile) obs_profile(o, pc, spent, !pc->queued);
        if (s->trapped) { c->su_state = 2; return; }
        pc = next;
    }
    obs_su_run(c, run_t0, c->su_t, nops);
    c->pc = NULL;
    c->su_state = 2;
}

static uint64_t ready_time(const Pipe *p, const QEntry *e)
{
    return p->t > e->t_issue ? p->t : e->t_issue;
}

/* Executes the head of pipe `pq` of core c. Returns 1 if it ran, 0 if it waits. */
static int run_pipe(Core *c, int pq, uint64_t now)
{
    Pipe *p = &c->pipes[pq];
    QEntry *e = q_head(p);
    Exec *x = pq == PQ_V ? &c->v : &c->px;
    x->aux = e->aux;
    x->extra_cost = 0;
    x->pipe = (PipeQ)pq;
    x->attributed = 0;
    x->cur = e->in;
    x->now = now;
    uint64_t bytes0 = p->bytes;
    race_job_begin(c, pq, e);
    int r;
    if (e->in->foot && autosync_wait(x, pq, e)) {
        r = 1;   /* an op auto-sync orders it after is still in flight */
    } else {
        r = e->in->pfn(x, e->in, p->caps ? p->caps + e->cap : NULL);
        if (r == 0 && e->in->foot) autosync_done(x, pq, e);
    }
    race_job_end(c, pq);
    if (r > 0) {
        if (!p->stalled) {
            p->stalled = 1;
            p->wait_since = now;
        }
        if (x->retry_at > now) p->wake_t = x->retry_at;   /* due later: retry then, no signal needed */
        else p->waiting = 1;
        x->retry_at = 0;
        return 0;
    }
    uint64_t cost = e->in->cost + x->extra_cost;
    Observe *o = c->sim->obs;
    if (p->stalled) {
        uint64_t waited = now - p->wait_since;
        WaitCause why = obs_cause((OpKind)e->in->kind);
        p->stall[why] += waited;
        obs_stall(o, c, pq, e->in, why, waited);
        obs_wait(c, pq, e->in, p->wait_since, now);
        p->stalled = 0;
    }
    p->busy += cost;
    obs_job(x, e->in, now, now + cost, p->bytes - bytes0);
    p->t = now + cost;
    c->sim->stats.ops_executed++;
    q_pop(p);
    sim_signal(c, p->t);    /* a pipe's progress can unblock waits, barriers and full queues */
    return 1;
}

const QEntry *sim_queue_head(const Core *c, int p) { return sim_queue_entry(c, p, 0); }

const QEntry *sim_queue_entry(const Core *c, int p, uint32_t k)
{
    const Pipe *pp = &c->pipes[p];
    return pp->head + k < pp->tail ? &pp->q[(pp->head + k) % pp->cap] : NULL;
}

const uint64_t *sim_entry_args(const Core *c, int p, const QEntry *e)
{
    return c->pipes[p].caps ? c->pipes[p].caps + e->cap : NULL;
}

static void report_deadlock(Cluster *cl)
{
    Sim *s = cl->sim;
    Core *c0 = &cl->cores[0];
    const Instr *first = NULL;
    for (int i = 0; i < cl->ncores && !first; i++) {
        Core *c = &cl->cores[i];
        if (c->su_state == 1) first = c->su_blocked_on;
        for (int p = 1; p < PQ__COUNT && !first; p++) {
            QEntry *e = q_head(&c->pipes[p]);
            if (e) first = e->in;
        }
    }
    s->trapped = 1;
    long d = s->deadlock_explain ? s->deadlock_explain(cl) : -1;
    if (d < 0)
        d = diag_add(s->diags, SEV_TRAP, DIAG_T_DEADLOCK, first && first->op ? first->op->loc : (SrcLoc){0, 0, 0},
                     "deadlock: no core can make progress (block %llu)", (unsigned long long)c0->block_idx);
    for (int i = 0; i < cl->ncores; i++) {
        Core *c = &cl->cores[i];
        char who[32];
        if (cl->ncores == 1) snprintf(who, sizeof who, "core");
        else snprintf(who, sizeof who, "%s", core_label(c->type, (unsigned)c->subblock, 3));
        if (c->su_state == 1 && c->su_blocked_on && c->su_blocked_on->op)
            diag_note(s->diags, d, c->su_blocked_on->op->loc, "%s scalar unit is blocked at '%s'%s", who,
                      op_info[c->su_blocked_on->op->kind].name, c->su_queue_full ? " (its pipe's queue is full)" : "");
        for (int p = 1; p < PQ__COUNT; p++) {
            QEntry *e = q_head(&c->pipes[p]);
            if (e && e->in->op)
                diag_note(s->diags, d, e->in->op->loc, "%s %s is blocked at '%s'", who, pq_name((unsigned)p),
                          op_info[e->in->op->kind].name);
        }
    }
}

/* Runs one cluster (one block) to completion. Returns 0, or 3 on a trap; SIM_PARKED when what is left waits at a
   pto.syncall (the launch wakes the waiting cores and calls again). */
int sim_run_cluster(Cluster *cl)
{
    Sim *s = cl->sim;
    for (;;) {
        if (s->trapped) return 3;
        /* pick the ready agent with the smallest time */
        int best_core = -1, best_pq = -1;
        uint64_t best_t = UINT64_MAX;
        for (int i = 0; i < cl->ncores; i++) {
            Core *c = &cl->cores[i];
            if (c->su_state == 0 && c->su_t < best_t) {
                best_t = c->su_t;
                best_core = i;
                best_pq = PQ_S;
            }
            for (int p = 1; p < PQ__COUNT; p++) {
                Pipe *pp = &c->pipes[p];
                QEntry *e = q_head(pp);
                if (!e || pp->waiting) continue;
                uint64_t t = ready_time(pp, e);
                if (pp->wake_t > t) t = pp->wake_t;
                if (t < best_t) {
                    best_t = t;
                    best_core = i;
                    best_pq = p;
                }
            }
        }
        if (best_core < 0) {
            int busy = 0;
            for (int i = 0; i < cl->ncores; i++) {
                Core *c = &cl->cores[i];
                if (c->su_state != 2) busy = 1;
                for (int p = 1; p < PQ__COUNT; p++) busy |= q_head(&c->pipes[p]) != NULL;
            }
            if (!busy) {
                race_finish(cl->race, cl);
                return 0;
            }
            for (int i = 0; i < cl->ncores; i++)
                if ((cl->cores[i].su_state == 1 && cl->cores[i].grid_wait) || cl->cores[i].grid_pipe_wait) return SIM_PARKED;
            report_deadlock(cl);
            return 3;
        }
        Core *c = &cl->cores[best_core];
        if (best_pq == PQ_S) run_su(c);
        else run_pipe(c, best_pq, best_t);
    }
}
