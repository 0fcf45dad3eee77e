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
