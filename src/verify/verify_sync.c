/* verify_sync.c — static flag balance: what `check` can tell about set_flag/wait_flag pairs without
 * running the kernel. A flag is one bit per (set pipe, event) of a core; every wait consumes one set.
 *   W-SYNC-BRANCH      the two branches of an scf.if leave a flag in different states (a set or wait in
 *                      one branch whose partner is in the other branch or outside): on some path a wait
 *                      has no set (a hang) or a set no wait. Warning at the scf.if, notes at the ops.
 *   W-SYNC-UNBALANCED  a function waits more often than it sets a flag (counting each op once, loop
 *                      bodies once): some wait can never be released. Warning at the first wait.
 * Only flags with constant pipes and events (set_flag/wait_flag) take part; dynamic events are left to
 * the run. These are warnings: a kernel whose control flow the analysis cannot see through may be fine. */
#include "verify_int.h"

enum { NPIPES = 8, NEVENTS = 16, NFLAGS = NPIPES * NEVENTS };

typedef struct Balance {
    int32_t net[NFLAGS];       /* sets minus waits */
    const Op *first[NFLAGS];   /* the first op that changed it */
    const Op *wait[NFLAGS];    /* its first wait */
    uint8_t dyn[NPIPES];       /* a set_flag_dyn / wait_flag_dyn of this set pipe: its events are unknown */
} Balance;

/* The flag of a constant set_flag/wait_flag (index pipe * 16 + event), or -1; *sign = +1 set, -1 wait. */
static int flag_of(const Op *op, int *sign)
{
    if (op->kind != OP_SET_FLAG && op->kind != OP_WAIT_FLAG) return -1;
    int src = op_token_id(op, "src"), evt = op_token_id(op, "evt");
    if (src < 0 || evt < 0) return -1;
    int p = tok_ordinal(src), e = tok_ordinal(evt);
    if (p < 0 || p >= NPIPES || e < 0 || e >= NEVENTS) return -1;
    *sign = op->kind == OP_SET_FLAG ? 1 : -1;
    return p * NEVENTS + e;
}

static void effect(const Region *r, Balance *b);

static void add_op(const Op *op, Balance *b)
{
    int sign, f = flag_of(op, &sign);
    if (op->kind == OP_SET_FLAG_DYN || op->kind == OP_WAIT_FLAG_DYN) {
        int src = op_token_id(op, "src"), p = src >= 0 ? tok_ordinal(src) : -1;
        if (p >= 0 && p < NPIPES) b->dyn[p] = 1;
        return;
    }
    if (f >= 0) {
        b->net[f] += sign;
        if (!b->first[f]) b->first[f] = op;
        if (sign < 0 && !b->wait[f]) b->wait[f] = op;
        return;
    }
    /* nested regions count once (a loop body once, both branches of an if: see check_if) */
    if (op->kind == OP_SCF_IF) {
        Balance t = {{0}, {0}, {0}, {0}};
        for (uint32_t r = 0; r < op->nregions; r++) effect(op->regions[r], &t);   /* dyn ops of either branch */
        Balance th = {{0}, {0}, {0}, {0}};
        if (op->nregions) effect(op->regions[0], &th);
        for (int k = 0; k < NFLAGS; k++) {
            b->net[k] += th.net[k];
            if (!b->first[k]) b->first[k] = th.first[k];
            if (!b->wait[k]) b->wait[k] = th.wait[k];
        }
        for (int p = 0; p < NPIPES; p++) b->dyn[p] |= t.dyn[p];
        return;
    }
    for (uint32_t k = 0; k < op->nregions; k++) effect(op->regions[k], b);
}

static void effect(const Region *r, Balance *b)
{
    for (const Op *o = r->block->first; o; o = o->next) add_op(o, b);
}

/* The spelling of the pipe with token ordinal p. */
static const char *flag_pipe(int p) { return tok_spelling(tokset_first(TS_PIPE) + p); }

static void check_if(VCtx *V, const Op *op)
{
    Balance t = {{0}, {0}, {0}, {0}}, e = {{0}, {0}, {0}, {0}};
    if (op->nregions > 0) effect(op->regions[0], &t);
    if (op->nregions > 1) effect(op->regions[1], &e);
    for (int k = 0; k < NFLAGS; k++) {
        if (t.net[k] == e.net[k] || t.dyn[k / NEVENTS] || e.dyn[k / NEVENTS]) continue;
        long d = v_warn(V, DIAG_V_SYNC_BRANCH, op->loc, "the branches of this scf.if leave flag %s, event %d in different "
                        "states (then: %+d, else: %+d sets minus waits); on one path a wait has no set or a set no wait",
                        flag_pipe(k / NEVENTS), k % NEVENTS, t.net[k], e.net[k]);
        const Op *w = t.net[k] != 0 ? t.first[k] : e.first[k];
        if (w) v_note(V, d, w->loc, "'%s' of that flag is here", v_opname(w));
    }
}

static void check_function(VCtx *V, const Op *f)
{
    if (!f->nregions) return;
    Balance b = {{0}, {0}, {0}, {0}};
    effect(f->regions[0], &b);
    for (int k = 0; k < NFLAGS; k++) {
        if (b.net[k] >= 0 || b.dyn[k / NEVENTS]) continue;
        const Op *w = b.wait[k];
        v_warn(V, DIAG_V_SYNC_UNBALANCED, w ? w->loc : f->loc, "flag %s, event %d is waited for %d more time%s than "
               "it is set in this function: a wait can never be released", flag_pipe(k / NEVENTS), k % NEVENTS, -b.net[k],
               b.net[k] == -1 ? "" : "s");
    }
}

static int visit(Op *op, void *ud)
{
    VCtx *V = ud;
    if (op->kind == OP_SCF_IF) check_if(V, op);
    else if (op->kind == OP_FUNC) check_function(V, op);
    return 0;
}

void verify_sync(VCtx *V, Op *root) { v_walk(V, root, visit, V); }
