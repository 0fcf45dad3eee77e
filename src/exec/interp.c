/* interp.c — the interpreter's own handlers (interp.h): control flow, calls, and the V-pipe loop that
 * runs a vector scope. These run on the hot path: no lookups, no allocation except the call stack's growth. */
#include "interp.h"
#include "base/alloc.h"
#include "base/bits.h"
#include "observe.h"
#include <stdlib.h>

const Instr exec_blocked_marker;

/* Parallel copy: sources are read before any destination is written (yield %b, %a swaps). */
static void do_copies_n(Exec *x, const CopyList *cl)
{
    uint8_t tmp[4096];
    uint32_t off = 0;
    for (uint32_t i = 0; i < cl->n; i++) off += cl->c[i].size;
    if (off <= sizeof tmp) {
        off = 0;
        for (uint32_t i = 0; i < cl->n; i++) { memcpy(tmp + off, x->frame + cl->c[i].src, cl->c[i].size); off += cl->c[i].size; }
        off = 0;
        for (uint32_t i = 0; i < cl->n; i++) { memcpy(x->frame + cl->c[i].dst, tmp + off, cl->c[i].size); off += cl->c[i].size; }
    } else {
        for (uint32_t i = 0; i < cl->n; i++) memmove(x->frame + cl->c[i].dst, x->frame + cl->c[i].src, cl->c[i].size);
    }
}

static inline void do_copies(Exec *x, const CopyList *cl)
{
    if (cl && cl->n) do_copies_n(x, cl);
}

/* The induction variable is compared in its type: index/i64 signed 64-bit, narrower types sign-extended. */
const Instr *interp_for_init(Exec *x, const Instr *in)
{
    uint64_t lb = ARG(x, in, 0);
    int64_t w = in->imm[INTERP_IV_BITS];
    fr_set_u64(x, in->res[0], lb);
    do_copies(x, in->ext);
    if (bits_sext(lb, w) < bits_sext(ARG(x, in, 1), w)) return in + 1;
    do_copies(x, in->ext2);   /* zero trips: the results take the initial values */
    return in->jump;
}

const Instr *interp_for_next(Exec *x, const Instr *in)
{
    int64_t w = in->imm[INTERP_IV_BITS];
    do_copies(x, in->ext);
    uint64_t iv = (fr_u64(x, in->arg[3]) + ARG(x, in, 2)) & bits_mask(w);
    fr_set_u64(x, in->arg[3], iv);
    if (bits_sext(iv, w) < bits_sext(ARG(x, in, 1), w)) return in->jump;
    do_copies(x, in->ext2);
    return in + 1;
}

const Instr *interp_for_next64(Exec *x, const Instr *in)
{
    uint64_t iv = fr_u64(x, in->arg[3]) + ARG(x, in, 2);
    fr_set_u64(x, in->arg[3], iv);
    return (int64_t)iv < (int64_t)ARG(x, in, 1) ? in->jump : in + 1;
}

const Instr *interp_if(Exec *x, const Instr *in) { return (ARG(x, in, 0) & 1) ? in + 1 : in->jump; }

const Instr *interp_copy_jump(Exec *x, const Instr *in)
{
    do_copies(x, in->ext);
    return in->jump ? in->jump : in + 1;
}

const Instr *interp_end(Exec *x, const Instr *in)
{
    (void)x;
    (void)in;
    return NULL;
}

const Instr *interp_condition(Exec *x, const Instr *in)
{
    if (ARG(x, in, 0) & 1) {
        do_copies(x, in->ext);
        return in + 1;
    }
    do_copies(x, in->ext2);
    return in->jump;
}

const Instr *interp_section(Exec *x, const Instr *in)
{
    return (int64_t)x->core->type == in->imm[INTERP_CORE_TYPE] ? in + 1 : in->jump;
}

const Instr *interp_unsupported(Exec *x, const Instr *in)
{
    sim_trap(x, in, DIAG_T_UNSUPPORTED, "'%s' is not simulated yet", op_info[in->kind].name);
    return NULL;
}

int interp_unsupported_job(Exec *x, const Instr *in, const uint64_t *args)
{
    (void)args;
    interp_unsupported(x, in);
    return -1;
}

/* ------------------------------------------------------------------ calls */

const Instr *interp_call(Exec *x, const Instr *in)
{
    const CallInfo *ci = in->ext;
    const Func *F = ci->callee;
    if (x->ncalls >= 256) {
        sim_trap(x, in, DIAG_T_CALL_DEPTH, "call depth limit (256) reached calling '@%s'", F->name);
        return NULL;
    }
    uint32_t need = x->frame_top + F->frame_size;
    if (need > x->frame_cap) {
        sim_trap(x, in, DIAG_T_CALL_DEPTH, "frame stack exhausted calling '@%s'", F->name);
        return NULL;
    }
    if (x->ncalls == x->capcalls) {
        uint32_t cap = x->capcalls ? x->capcalls * 2 : 16;
        struct CallRec *c = mem_realloc(x->calls, cap * sizeof *c);
        if (!c) {
            sim_trap(x, in, DIAG_T_OOM, "out of host memory growing the call stack calling '@%s'", F->name);
            return NULL;
        }
        x->calls = c;
        x->capcalls = cap;
    }
    uint8_t *nf = x->frame_base + x->frame_top;
    memset(nf, 0, F->frame_size);
    for (uint32_t i = 0; i < ci->args->n; i++)
        memcpy(nf + F->param_off[i], x->frame + ci->args->c[i].src, ci->args->c[i].size);
    x->calls[x->ncalls++] = (struct CallRec){in + 1, x->frame, in};
    x->frame_top = need;
    x->frame = nf;
    return F->entry;
}

const Instr *interp_return(Exec *x, const Instr *in)
{
    if (!x->ncalls) return NULL;   /* the kernel itself returns */
    struct CallRec r = x->calls[--x->ncalls];
    const CopyList *vals = in->ext;
    const CallInfo *ci = r.call->ext;
    for (uint32_t i = 0; i < vals->n && i < ci->nres; i++)
        memcpy(r.frame + ci->res[i], x->frame + vals->c[i].src, vals->c[i].size);
    x->frame_top = (uint32_t)(x->frame - x->frame_base);
    x->frame = r.frame;
    return r.ret;
}

/* ------------------------------------------------------------------ vector scopes */

/* With the trace on, a vector scope's slice shows its loops: each scf.for run as a slice (TE_LOOP) and inside
   it its iterations (TE_ITER), the first SCOPE_ITERS one by one and the rest as one slice; loops nested in an
   iteration shown only that way are not shown. Times are the cycles of the scope's instructions as they
   accumulate (the same sum the untraced loop makes), from the job's start x->now, so they nest inside the
   scope's slice. A handler that runs several trips itself (a fused loop) makes the rest one slice. */
enum { SCOPE_ITERS = 8, SCOPE_DEPTH = 16 };
typedef struct ScopeLoop {
    const Instr *init;         /* the scf.for; its body is (init, init->jump) */
    uint64_t t_loop, t_iter;   /* when the loop and the current (or the grouped) iterations began */
    uint32_t iter;             /* iterations ended by the back edge */
    int exact;                 /* every trip went through the back edge */
    int shown;                 /* the enclosing iterations are shown one by one */
} ScopeLoop;

static void scope_iters(Exec *x, const ScopeLoop *L, uint64_t now, uint32_t first, uint32_t last)
{
    obs_scope_slice(x, TE_ITER, L->init, x->now + L->t_iter, x->now + now, first, last);
}

/* Loop L ended at `now` (cycles into the scope): the iterations not shown yet, then the loop's slice. */
static void scope_loop_end(Exec *x, const ScopeLoop *L, uint64_t now)
{
    if (!L->shown) return;
    if (!L->exact && now > L->t_iter) scope_iters(x, L, now, L->iter < SCOPE_ITERS ? L->iter : SCOPE_ITERS, OBS_UNKNOWN);
    else if (L->exact && L->iter > SCOPE_ITERS) scope_iters(x, L, now, SCOPE_ITERS, L->iter - 1);
    obs_scope_slice(x, TE_LOOP, L->init, x->now + L->t_loop, x->now + now, L->iter, (uint32_t)L->exact);
}

/* Trip `L->iter` of loop L ended at `now` through its back edge. */
static void scope_trip(Exec *x, ScopeLoop *L, uint64_t now)
{
    if (L->iter < SCOPE_ITERS && L->shown) {
        scope_iters(x, L, now, L->iter, L->iter);
        L->t_iter = now;
    }
    L->iter++;
}

/* The vector scope's loop (interp_vecscope) with the trace on; returns the cycles of the instructions run. */
static uint64_t traced_scope(Exec *x, const Instr *pc, uint64_t limit)
{
    ScopeLoop st[SCOPE_DEPTH];   /* loops nested deeper are run, not shown */
    int sp = 0;
    uint64_t cycles = 0, extra0 = x->extra_cost;
    while (pc) {
        if (__builtin_expect(--x->left == 0, 0)) {
            x->steps = limit;
            x->prof = NULL;
            sim_trap(x, pc, DIAG_T_STEP_LIMIT, "step limit of %llu reached inside a vector scope", (unsigned long long)limit);
            return cycles;
        }
        const Instr *cur = pc;
        cycles += cur->cost;
        if (x->prof) obs_profile(x->prof, cur, cur->cost, 1);
        pc = cur->fn(x, cur);
        uint64_t now = cycles + x->extra_cost - extra0;
        if (cur->fn == interp_for_init && pc == cur + 1) {   /* a loop starts (zero trips: nothing to show) */
            if (sp < SCOPE_DEPTH) {
                int shown = sp == 0 || (st[sp - 1].shown && st[sp - 1].iter < SCOPE_ITERS);
                st[sp++] = (ScopeLoop){cur, now - cur->cost, now, 0, 1, shown};
            }
            continue;
        }
        int back_edge = sp && cur + 1 == st[sp - 1].init->jump;
        if (back_edge && pc == cur->jump) {   /* the next trip */
            scope_trip(x, &st[sp - 1], now);
            continue;
        }
        /* control left loops: the last trip fell through the back edge, or a handler ran the trips itself */
        while (sp && (!pc || pc <= st[sp - 1].init || pc >= st[sp - 1].init->jump)) {
            ScopeLoop *L = &st[--sp];
            if (cur + 1 == L->init->jump && pc == cur + 1) scope_trip(x, L, now);
            else L->exact = 0;
            scope_loop_end(x, L, now);
        }
    }
    return cycles;
}

int interp_vecscope(Exec *x, const Instr *in, const uint64_t *args)
{
    const ScopeInfo *si = in->ext;
    const CaptureList *caps = in->caps;
    const uint8_t *src = (const uint8_t *)args;
    for (uint32_t i = 0; i < caps->n; i++) {
        memcpy(x->frame + si->dst[i], src, caps->c[i].size);
        src += (caps->c[i].size + 7) & ~7u;
    }
    const Instr *pc = si->body;
    uint64_t limit = x->core->sim->step_limit, steps = x->steps;
    if (steps >= limit) {
        sim_trap(x, pc, DIAG_T_STEP_LIMIT, "step limit of %llu reached inside a vector scope", (unsigned long long)limit);
        return -1;
    }
    /* the hot loop: handlers return NULL at the end of the body or after raising a trap; `left` counts
       down the steps still allowed (x->left; a handler that does the work of the next instructions too
       takes their steps). With the profile on, every instruction's cycles are credited to it: here for
       the instructions dispatched, by such a handler for those it does (x->prof). */
    uint64_t left = limit - steps + 1, cycles = 0;
    Observe *o = x->core->sim->obs;
    x->prof = o->profile ? o : NULL;
    x->left = left;
    if (__builtin_expect(o->trace, 0)) {
        cycles = traced_scope(x, pc, limit);
        pc = NULL;
        if (x->left == 0) return -1;   /* the step limit trapped */
    }
    while (pc) {
        if (__builtin_expect(--x->left == 0, 0)) {
            x->steps = limit;
            x->left = 0;
            x->prof = NULL;
            sim_trap(x, pc, DIAG_T_STEP_LIMIT, "step limit of %llu reached inside a vector scope",
                     (unsigned long long)limit);
            return -1;
        }
        cycles += pc->cost;
        if (__builtin_expect(x->prof != NULL, 0)) obs_profile(o, pc, pc->cost, 1);
        pc = pc->fn(x, pc);
    }
    if (x->prof) x->attributed += cycles;
    x->prof = NULL;
    left = x->left;
    x->left = 0;
    x->steps = limit + 1 - left;
    x->extra_cost += cycles;
    return x->core->sim->trapped ? -1 : 0;
}
