/* simt.c — SIMT launches (docs/simt.md). A launch (pto.simt_launch, a func.call of a pto.simt_entry
 * function after pto.store_vfsimt_info, or pto.section.simt) is one job on the V pipe, ordered with the
 * other pipes like a vector scope. The job runs the body once per workitem: each workitem has its own
 * frame, program counter and call stack and runs as a cooperative thread until it reaches a sync point
 * (a collective, pto.syncthreads) or ends. When every workitem has stopped, the scheduler resolves: in each
 * subgroup of 32 lanes, the waiting collective earliest in the program runs over the lanes waiting at that
 * same op (the active lanes); when only pto.syncthreads remain, all workitems pass it together. Workitems run
 * in increasing linear id, so every run — the order of atomics included — is deterministic. */
#include "simt_int.h"
#include "base/alloc.h"
#include "exec/interp.h"
#include "exec/observe.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ workitems */

SimtItem *simt_item(Exec *x, const Instr *in)
{
    SimtState *st = x->core->simt;
    if (st && st->cur && x == &st->cur->x) return st->cur;
    sim_trap(x, in, DIAG_T_SIMT_LAUNCH, "runs only on SIMT workitems, inside a launch");
    return NULL;
}

const Instr *simt_sync_point(Exec *x, const Instr *in)
{
    return simt_item(x, in) ? SIM_BLOCKED : NULL;
}

bool simt_inside(const Op *op)
{
    for (const Op *p = ir_parent_op(op); p; p = ir_parent_op(p)) {
        if (p->kind == OP_SECTION_SIMT) return true;
        if (p->kind == OP_FUNC) return op_attr(p, "pto.simt_entry") != NULL;
    }
    return false;
}

/* ------------------------------------------------------------------ collectives */

/* Reads the 8-byte slot `off` of a workitem's frame. */
static uint64_t item_u64(const SimtItem *it, int32_t off) { return fr_u64(&it->x, off); }

/* The reduction of the active lanes' values, in increasing lane order. */
static uint64_t redux(const Instr *in, SimtItem *const *act, unsigned n)
{
    int kind = (int)in->kind;
    int fmt = (int)in->imm[SO_FMT];
    unsigned bits = (unsigned)in->imm[SO_EBITS];
    uint64_t r = item_u64(act[0], in->arg[0]) & bits_mask(bits);
    for (unsigned i = 1; i < n; i++) {
        uint64_t v = item_u64(act[i], in->arg[0]) & bits_mask(bits);
        if (fmt >= 0) {
            if (kind == OP_REDUX_ADD) r = num_arith((NumFormat)fmt, NUM_OP_ADD, r, v, NUM_RND_R);
            else r = simt_math(kind == OP_REDUX_MAX ? SM_MAX : SM_MIN, (NumFormat)fmt, r, v, 0);
        } else if (kind == OP_REDUX_ADD) {
            r = (r + v) & bits_mask(bits);
        } else {
            bool gt = in->imm[SO_SIGNED] ? bits_sext(v, bits) > bits_sext(r, bits) : v > r;
            bool lt = in->imm[SO_SIGNED] ? bits_sext(v, bits) < bits_sext(r, bits) : v < r;
            if (kind == OP_REDUX_MAX ? gt : lt) r = v;
        }
    }
    return r;
}

/* Runs the collective `in` over the active lanes act[0..n) (increasing lanes of one subgroup). */
static void collective(SimtItem *const *act, unsigned n, const Instr *in)
{
    unsigned lane[SIMT_WARP];
    int at[SIMT_WARP];          /* lane -> index into act, -1 = not participating */
    for (unsigned l = 0; l < SIMT_WARP; l++) at[l] = -1;
    for (unsigned i = 0; i < n; i++) {
        lane[i] = act[i]->tid % SIMT_WARP;
        at[lane[i]] = (int)i;
    }
    uint64_t all = 1, any = 0, ballot = 0, first = item_u64(act[0], in->arg[0]) & 1, uni = 1;
    switch (in->kind) {
    case OP_VOTE_ALL: case OP_VOTE_ANY: case OP_VOTE_UNI: case OP_VOTE_BALLOT:
        for (unsigned i = 0; i < n; i++) {
            uint64_t p = item_u64(act[i], in->arg[0]) & 1;
            all &= p;
            any |= p;
            uni &= p == first;
            ballot |= p << lane[i];
        }
        for (unsigned i = 0; i < n; i++)
            fr_set_u64(&act[i]->x, in->res[0], in->kind == OP_VOTE_ALL ? all : in->kind == OP_VOTE_ANY ? any
                                                : in->kind == OP_VOTE_UNI ? uni : ballot);
        return;
    case OP_REDUX_ADD: case OP_REDUX_MAX: case OP_REDUX_MIN: {
        uint64_t r = redux(in, act, n);
        for (unsigned i = 0; i < n; i++) fr_set_u64(&act[i]->x, in->res[0], r);
        return;
    }
    default:
        break;
    }
    /* shuffles: every lane reads its source before any result is written */
    uint64_t out[SIMT_WARP];
    uint32_t w = (uint32_t)in->imm[SO_AUX];
    for (unsigned i = 0; i < n; i++) {
        uint32_t local = lane[i] % w, base = lane[i] - local;
        uint32_t ctl = (uint32_t)item_u64(act[i], in->arg[1]);
        int64_t src;
        switch (in->kind) {
        case OP_SHUFFLE_IDX: src = ctl % w; break;
        case OP_SHUFFLE_UP: src = (int64_t)local - (int64_t)ctl; break;
        case OP_SHUFFLE_DOWN: src = (int64_t)local + (int64_t)ctl; break;
        default: src = (int64_t)(local ^ ctl); break;
        }
        int j = src >= 0 && src < (int64_t)w ? at[base + (uint32_t)src] : -1;
        out[i] = item_u64(j >= 0 ? act[j] : act[i], in->arg[0]);
    }
    for (unsigned i = 0; i < n; i++) fr_set_u64(&act[i]->x, in->res[0], out[i]);
}

/* ------------------------------------------------------------------ the scheduler */

typedef struct Run {
    Exec *job;                 /* the V pipe's context */
    SimtState *st;
    uint64_t steps, limit, cycles;
    Observe *obs;
} Run;

/* Runs one workitem until it waits at a sync point, ends, or traps. */
static int run_item(Run *R, SimtItem *it)
{
    Exec *x = &it->x;
    Sim *s = x->core->sim;
    const Instr *pc = it->pc;
    R->st->cur = it;
    while (pc) {
        if (++R->steps > R->limit) {
            sim_trap(x, pc, DIAG_T_STEP_LIMIT, "step limit of %llu reached inside a SIMT launch (workitem %u)",
                     (unsigned long long)R->limit, it->tid);
            return -1;
        }
        if (pc->queued) {
            sim_trap(x, pc, DIAG_T_UNSUPPORTED, "a SIMT workitem cannot issue pipe work");
            return -1;
        }
        x->cur = pc;
        const Instr *next = pc->fn(x, pc);
        if (next == SIM_BLOCKED) {
            if (pc->fn != simt_sync_point) {
                sim_trap(x, pc, DIAG_T_UNSUPPORTED, "a SIMT workitem cannot wait here");
                return -1;
            }
            it->pc = pc;
            it->state = SI_WAIT;
            R->st->cur = NULL;
            return 0;
        }
        R->cycles += pc->cost;
        it->cycles += pc->cost;
        if (R->obs->profile) obs_profile(R->obs, pc, 0, 1);
        if (s->trapped) return -1;
        pc = next;
    }
    R->st->cur = NULL;
    if (s->trapped) return -1;
    it->pc = NULL;
    it->state = SI_DONE;
    return 0;
}

/* Resolves one round of sync points: collectives first, then pto.syncthreads. Returns 1 when something
   was released, 0 when every workitem is done, -1 after a trap. */
static int resolve(Run *R)
{
    SimtState *st = R->st;
    uint32_t n = st->nitems;
    int released = 0, waiting = 0;
    for (uint32_t w0 = 0; w0 < n; w0 += SIMT_WARP) {
        uint32_t w1 = w0 + SIMT_WARP < n ? w0 + SIMT_WARP : n;
        /* the collective earliest in the program: lanes that diverged reach later code only after leaving
           the branch or loop they are in, so this lets them reconverge before a collective that follows it */
        const Instr *pick = NULL;
        for (uint32_t i = w0; i < w1; i++) {
            const Instr *pc = st->items[i].pc;
            if (st->items[i].state == SI_WAIT && pc->kind != OP_SYNCTHREADS && (!pick || pc->id < pick->id)) pick = pc;
        }
        for (uint32_t i = w0; i < w1; i++) waiting |= st->items[i].state == SI_WAIT;
        if (!pick) continue;
        SimtItem *act[SIMT_WARP];
        unsigned na = 0;
        for (uint32_t i = w0; i < w1; i++)
            if (st->items[i].state == SI_WAIT && st->items[i].pc == pick) act[na++] = &st->items[i];
        collective(act, na, pick);
        for (unsigned i = 0; i < na; i++) {
            act[i]->pc = pick + 1;
            act[i]->state = SI_RUN;
        }
        released = 1;
    }
    if (released) return 1;
    if (!waiting) return 0;
    /* only pto.syncthreads waits remain: every workitem must be there */
    SimtItem *done = NULL, *wait = NULL;
    for (uint32_t i = 0; i < n; i++) {
        if (st->items[i].state == SI_DONE && !done) done = &st->items[i];
        if (st->items[i].state == SI_WAIT && !wait) wait = &st->items[i];
    }
    if (done) {
        sim_trap(&wait->x, wait->pc, DIAG_T_SIMT_BARRIER, "workitem %u waits at pto.syncthreads, but workitem %u of the launch "
                 "finished without reaching it; every workitem must reach the barrier", wait->tid, done->tid);
        return -1;
    }
    st->epoch++;
    for (uint32_t i = 0; i < n; i++) {
        st->items[i].pc++;
        st->items[i].state = SI_RUN;
    }
    return 1;
}

static int run_launch(Run *R)
{
    SimtState *st = R->st;
    for (;;) {
        for (uint32_t i = 0; i < st->nitems; i++)
            if (st->items[i].state == SI_RUN && run_item(R, &st->items[i])) return -1;
        int r = resolve(R);
        if (r <= 0) return r;
    }
}

/* ------------------------------------------------------------------ the launch job */

/* Frame stack bytes per workitem: the body's frame, plus room for calls when the code calls. */
static uint32_t stack_bytes(const Sim *s, const Func *F)
{
    for (uint32_t i = 0; i < F->ncode; i++)
        if (F->entry[i].fn == interp_call) return F->frame_size + 4 * s->prog->max_frame;
    return F->frame_size;
}

/* zero: the frames start zeroed (the per-workitem run); the lockstep run uses them only as scratch */
static int prepare(Exec *x, SimtState *st, const Func *F, uint32_t n, int zero)
{
    uint32_t S = (stack_bytes(x->core->sim, F) + 31) & ~31u;
    if (!S) S = 32;   /* an empty body still gets a (never read) frame */
    if (n > st->capitems) {
        SimtItem *v = mem_realloc(st->items, n * sizeof *v);
        if (!v) return -1;
        memset(v + st->capitems, 0, (n - st->capitems) * sizeof *v);
        st->items = v;
        st->capitems = n;
    }
    if ((size_t)S * n > st->frames_cap) {
        mem_free(st->frames);
        st->frames = mem_alloc((size_t)S * n);
        st->frames_cap = st->frames ? (size_t)S * n : 0;
        if (!st->frames) return -1;
    }
    st->nitems = n;
    for (uint32_t i = 0; i < n; i++) {
        SimtItem *it = &st->items[i];
        Exec *ix = &it->x;
        struct CallRec *calls = ix->calls;
        uint32_t capcalls = ix->capcalls;
        memset(ix, 0, sizeof *ix);
        ix->core = x->core;
        ix->pipe = x->pipe;
        ix->now = x->now;
        ix->calls = calls;
        ix->capcalls = capcalls;
        ix->frame_base = st->frames + (size_t)S * i;
        ix->frame = ix->frame_base;
        ix->frame_cap = S;
        ix->frame_top = F->frame_size;
        if (zero) memset(ix->frame, 0, F->frame_size);
        it->tid = i;
        it->t[0] = i % st->dim[0];
        it->t[1] = (i / st->dim[0]) % st->dim[1];
        it->t[2] = i / (st->dim[0] * st->dim[1]);
        it->state = SI_RUN;
        it->cycles = 0;
        it->priv_top = 0;
    }
    return 0;
}

/* Issue hook of a func.call launch: the launch configuration at issue (-1: none yet). */
static int64_t issue_cfg(Exec *x, const Instr *in, const uint64_t *args)
{
    (void)in;
    (void)args;
    SimtState *st = x->core->simt;
    if (!st->has_cfg) return -1;
    /* 21 bits per dimension: a larger one is kept as 2^21 - 1 (still over the 2048-workitem limit, so the launch
       traps with its real size in mind), never wrapped into a small valid launch */
    int64_t p = 0;
    for (int i = 0; i < 3; i++) p |= (int64_t)((uint64_t)st->cfg[i] > 0x1FFFFF ? 0x1FFFFF : st->cfg[i]) << (21 * i);
    return p;
}

static int launch_job(Exec *x, const Instr *in, const uint64_t *args)
{
    Core *c = x->core;
    Sim *s = c->sim;
    SimtState *st = c->simt;
    const Func *F = in->ext2;
    int kind = (int)in->imm[SL_KIND];
    uint64_t d[3];
    const uint64_t *params = args;
    uint32_t nparams = 0;
    switch (kind) {
    case SLK_LAUNCH:
        for (int i = 0; i < 3; i++) d[i] = args[i] & 0xFFFFFFFFu;
        params = args + 3;
        nparams = in->nargs - 3u;
        break;
    case SLK_CALL:
        if (x->aux < 0) {
            sim_trap(x, in, DIAG_T_SIMT_LAUNCH, "the call launches a SIMT entry but no pto.store_vfsimt_info ran before it");
            return -1;
        }
        for (int i = 0; i < 3; i++) d[i] = ((uint64_t)x->aux >> (21 * i)) & 0x1FFFFF;
        nparams = in->nargs;
        break;
    default:
        for (int i = 0; i < 3; i++) d[i] = (uint64_t)in->imm[SL_DX + i];
        break;
    }
    uint64_t n = 1;
    for (int i = 0; i < 3; i++) {
        if (d[i] > SIMT_MAX_ITEMS) n = SIMT_MAX_ITEMS + 1;   /* also negative i32 */
        else n *= d[i];
    }
    if (n < 1 || n > SIMT_MAX_ITEMS) {
        sim_trap(x, in, DIAG_T_SIMT_LAUNCH, "launch dimensions (%lld, %lld, %lld) give %s workitems; a launch runs 1 to %d",
                 (long long)(int32_t)d[0], (long long)(int32_t)d[1], (long long)(int32_t)d[2], n < 1 ? "no" : "too many",
                 SIMT_MAX_ITEMS);
        return -1;
    }
    const Attr *mt = op_attr(F->op, "pto.simt_max_threads");
    int64_t env = mt && mt->kind == AT_INT ? mt->i : SIMT_DEFAULT_ENVELOPE;
    if (kind != SLK_SECTION && (int64_t)n > env) {
        sim_trap(x, in, DIAG_T_SIMT_LAUNCH, "the launch runs %llu workitems, more than '@%s' declares in "
                 "pto.simt_max_threads (%lld%s)", (unsigned long long)n, F->name, (long long)env, mt ? "" : ", the default");
        return -1;
    }
    for (int i = 0; i < 3; i++) st->dim[i] = (uint32_t)d[i];
    int lock = in->imm[SL_FAST] && kind != SLK_SECTION ? simt_lock_ok(st, F) : 0;
    if (lock < 0) {
        sim_trap(x, in, DIAG_T_OOM, "out of host memory planning the lockstep run of '@%s'", F->name);
        return -1;
    }
    if (prepare(x, st, F, (uint32_t)n, !lock)) {
        sim_trap(x, in, DIAG_T_OOM, "out of host memory preparing %llu workitems", (unsigned long long)n);
        return -1;
    }
    const Instr *body = kind == SLK_SECTION ? in->jump2 : F->entry;
    for (uint32_t i = 0; i < st->nitems && !lock; i++) {
        SimtItem *it = &st->items[i];
        it->pc = body;
        if (kind == SLK_SECTION) {
            const uint8_t *src = (const uint8_t *)args;
            for (uint32_t k = 0; k < in->caps->n; k++) {
                memcpy(it->x.frame + in->caps->c[k].off, src, in->caps->c[k].size);
                src += (in->caps->c[k].size + 7) & ~7u;
            }
        } else {
            for (uint32_t k = 0; k < nparams && k < F->nparams; k++) fr_set_u64(&it->x, F->param_off[k], params[k]);
        }
    }
    st->epoch = 0;
    st->t0 = x->now;
    simt_race_begin(st);
    Run R = {x, st, x->steps, s->step_limit, 0, s->obs};
    /* lockstep (simt_lock.c) when the body allows it; an epoch it cannot run exactly continues per workitem (2) */
    int rc = lock ? simt_lock_run(x, st, F, params, nparams, &R.steps, R.limit, &R.cycles) : run_launch(&R);
    if (rc == 2) rc = run_launch(&R);
    st->cur = NULL;
    for (uint32_t i = 0; i < st->nitems; i++) {
        mem_free(st->items[i].priv);
        st->items[i].priv = NULL;
    }
    x->steps = R.steps;
    const Timing *T = s->timing;
    uint64_t lanes = T->simt_lanes ? T->simt_lanes : 1;
    x->extra_cost += T->simt_launch + (R.cycles + lanes - 1) / lanes;   /* docs/timing.md "SIMT launches" */
    return rc < 0 || s->trapped ? -1 : 0;
}

/* ------------------------------------------------------------------ lowering */

static const Instr *x_store_cfg(Exec *x, const Instr *in)
{
    SimtState *st = x->core->simt;
    for (int i = 0; i < 3; i++) st->cfg[i] = (uint32_t)ARG(x, in, 2 - i);   /* operands: z, y, x */
    st->has_cfg = 1;
    return in + 1;
}

int simt_lower_launch(LowerView *L, const Op *op, Instr *in)
{
    switch (op->kind) {
    case OP_SIMT_LAUNCH: case OP_CALL: case OP_SECTION_SIMT:
        if (!in->ext2) {
            lw_error(L, op, DIAG_T_UNSUPPORTED, "SIMT launch without a body");
            return -1;
        }
        in->pfn = launch_job;
        in->imm[SL_KIND] = op->kind == OP_SIMT_LAUNCH ? SLK_LAUNCH : op->kind == OP_CALL ? SLK_CALL : SLK_SECTION;
        in->imm[SL_FAST] = !L->ctx->reference;
        if (op->kind == OP_CALL) in->ifn = issue_cfg;
        if (op->kind == OP_SECTION_SIMT) {
            static const char *const nm[3] = {"dim_x", "dim_y", "dim_z"};
            for (int i = 0; i < 3; i++) {
                const Attr *a = op_attr(op, nm[i]);
                in->imm[SL_DX + i] = a ? (int64_t)(uint32_t)a->i : 0;
            }
        }
        return 0;
    case OP_STORE_VFSIMT_INFO:
        in->fn = x_store_cfg;
        return 0;
    case OP_SYNCTHREADS: case OP_VOTE_ALL: case OP_VOTE_ANY: case OP_VOTE_UNI: case OP_VOTE_BALLOT:
    case OP_SHUFFLE_IDX: case OP_SHUFFLE_UP: case OP_SHUFFLE_DOWN: case OP_SHUFFLE_BFLY:
    case OP_REDUX_ADD: case OP_REDUX_MAX: case OP_REDUX_MIN: {
        in->fn = simt_sync_point;
        const Type *t = op->noperands ? op->operands[0]->type : NULL;
        const Attr *w = op_attr(op, "width");
        in->imm[SO_AUX] = w ? w->i : SIMT_WARP;
        in->imm[SO_FMT] = -1;
        if (t) in->imm[SO_EBITS] = ty_bits(t);
        if (t && t->kind == TY_FLOAT) in->imm[SO_FMT] = t->fk == FK_F16 ? NUM_F16 : t->fk == FK_BF16 ? NUM_BF16 : NUM_F32;
        in->imm[SO_SIGNED] = op_attr(op, "signed") != NULL;
        return 0;
    }
    default:
        return 1;
    }
}

/* ------------------------------------------------------------------ state */

int simt_reset(Core *c)
{
    SimtState *st = c->simt;
    st->has_cfg = 0;
    st->cur = NULL;
    st->nitems = 0;
    st->persist_top = 0;
    if (st->slots) memset(st->slots, 0, sizeof *st->slots * SIMT_MAX_ITEMS * SIMT_SLOTS);
    if (st->persist) memset(st->persist, 0, (size_t)SIMT_PERSIST_BYTES * SIMT_MAX_ITEMS);
    return 0;
}

void simt_free(Core *c)
{
    SimtState *st = c->simt;
    if (!st) return;
    for (uint32_t i = 0; i < st->capitems; i++) {
        mem_free(st->items[i].x.calls);
        mem_free(st->items[i].priv);
    }
    mem_free(st->items);
    mem_free(st->frames);
    mem_free(st->slots);
    mem_free(st->persist);
    simt_race_free(st);
    simt_lock_free(st);
}
