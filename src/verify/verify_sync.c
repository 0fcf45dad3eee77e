/* verify_sync.c — static flag balance: what `check` can tell about set_flag/wait_flag pairs without
 * running the kernel. A flag is one bit per (set pipe, event) of a core; every wait consumes one set.
 *   W-SYNC-BRANCH      the two branches of an scf.if leave a flag in different states (a set or wait in
 *                      one branch whose partner is in the other branch or outside): on some path a wait
 *                      has no set (a hang) or a set no wait. Warning at the scf.if, notes at the ops.
 *   W-SYNC-UNBALANCED  a function waits more often than it sets a flag (counting each op once, loop
 *                      bodies once): some wait can never be released. Warning at the first wait.
 * Flags with constant pipes take part. A run-time event (set_flag_dyn/wait_flag_dyn) is followed by its SSA
 * value: a constant joins the constant events, any other value is a flag of its own (the same %i set
 * before an scf.if and waited in one branch is found); such a value may equal a constant event, so the
 * constant events of its set pipe are then left to the run. These are warnings: a kernel whose control
 * flow the analysis cannot see through may be fine. */
#include "verify_int.h"
#include <stdio.h>
#include <string.h>

enum { NPIPES = 8, NEVENTS = 16, NDYN = 16, NFLAGS = NPIPES * NEVENTS + NDYN };

/* Flags 0 .. NPIPES*NEVENTS-1 are (set pipe, constant event); the NDYN after them (set pipe, SSA value)
   of run-time events, named in dkey (pipe << 24 | value id + 1) by the first op seen in the function. */
typedef struct Balance {
    int32_t net[NFLAGS];       /* sets minus waits */
    const Op *first[NFLAGS];   /* the first op that changed it */
    const Op *wait[NFLAGS];    /* its first wait */
    uint8_t dyn[NPIPES];       /* a run-time event of this set pipe that is not a constant */
    struct DynKeys *keys;      /* the slots of the run-time event flags, shared by one check's balances */
} Balance;

/* The run-time event flags of one check: (set pipe, value id) per slot. */
typedef struct DynKeys { uint64_t key[NDYN]; unsigned n; } DynKeys;

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

/* The flag of a run-time event op: a constant event's, or its (set pipe, SSA value) slot; -1 when unknown. */
static int dyn_flag_of(const Op *op, int *sign, int *nonconst, DynKeys *cur_keys)
{
    int src = op_token_id(op, "src"), p = src >= 0 ? tok_ordinal(src) : -1;
    *nonconst = 0;
    if (p < 0 || p >= NPIPES || !op->noperands || !op->operands[0]) return -1;
    *sign = op->kind == OP_SET_FLAG_DYN ? 1 : -1;
    int64_t e;
    if (v_const_int(op->operands[0], &e)) return e >= 0 && e < NEVENTS ? p * NEVENTS + (int)e : -1;
    *nonconst = 1;
    if (!cur_keys) return -1;
    uint64_t key = (uint64_t)p << 32 | op->operands[0]->id;
    for (unsigned i = 0; i < cur_keys->n; i++)
        if (cur_keys->key[i] == key) return NPIPES * NEVENTS + (int)i;
    if (cur_keys->n == NDYN) return -1;
    cur_keys->key[cur_keys->n] = key;
    return NPIPES * NEVENTS + (int)cur_keys->n++;
}

static void add_op(const Op *op, Balance *b)
{
    int sign, f = flag_of(op, &sign);
    if (op->kind == OP_SET_FLAG_DYN || op->kind == OP_WAIT_FLAG_DYN) {
        int nonconst;
        f = dyn_flag_of(op, &sign, &nonconst, b->keys);
        if (nonconst) {
            int src = op_token_id(op, "src"), p = src >= 0 ? tok_ordinal(src) : -1;
            if (p >= 0 && p < NPIPES) b->dyn[p] = 1;
        }
        if (f < 0) return;
    }
    if (f >= 0) {
        b->net[f] += sign;
        if (!b->first[f]) b->first[f] = op;
        if (sign < 0 && !b->wait[f]) b->wait[f] = op;
        return;
    }
    /* nested regions count once (a loop body once, both branches of an if: see check_if) */
    if (op->kind == OP_SCF_IF) {
        Balance t, th;
        memset(&t, 0, sizeof t);
        memset(&th, 0, sizeof th);
        t.keys = th.keys = b->keys;
        for (uint32_t r = 0; r < op->nregions; r++) effect(op->regions[r], &t);   /* dyn ops of either branch */
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

/* Flag k for messages: "flag PIPE_MTE2, event 0" or "flag PIPE_MTE2, event %i" (a run-time event). */
static void flag_name(const DynKeys *cur_keys, const Op *op, int k, char *b, size_t n)
{
    if (k < NPIPES * NEVENTS) snprintf(b, n, "flag %s, event %d", flag_pipe(k / NEVENTS), k % NEVENTS);
    else snprintf(b, n, "flag %s, event %%%s", flag_pipe((int)(cur_keys->key[k - NPIPES * NEVENTS] >> 32)),
                  op && op->noperands ? v_valname(op->operands[0]) : "?");
}

/* Whether flag k's constant events are left to the run (a non-constant event of its set pipe may equal one). */
static int skipped(const Balance *a, const Balance *b, int k)
{
    return k < NPIPES * NEVENTS && ((a && a->dyn[k / NEVENTS]) || (b && b->dyn[k / NEVENTS]));
}

static void check_if(VCtx *V, const Op *op)
{
    Balance t, e;
    memset(&t, 0, sizeof t);
    memset(&e, 0, sizeof e);
    DynKeys keys = {{0}, 0};
    t.keys = e.keys = &keys;
    if (op->nregions > 0) effect(op->regions[0], &t);
    if (op->nregions > 1) effect(op->regions[1], &e);
    for (int k = 0; k < NFLAGS; k++) {
        if (t.net[k] == e.net[k] || skipped(&t, &e, k)) continue;
        const Op *w = t.net[k] != 0 ? t.first[k] : e.first[k];
        char fn[96];
        flag_name(&keys, w, k, fn, sizeof fn);
        long d = v_warn(V, DIAG_V_SYNC_BRANCH, op->loc, "the branches of this scf.if leave %s in different "
                        "states (then: %+d, else: %+d sets minus waits); on one path a wait has no set or a set no wait",
                        fn, t.net[k], e.net[k]);
        if (w) v_note(V, d, w->loc, "'%s' of that flag is here", v_opname(w));
    }
}

static void check_function(VCtx *V, const Op *f)
{
    if (!f->nregions) return;
    Balance b;
    memset(&b, 0, sizeof b);
    DynKeys keys = {{0}, 0};
    b.keys = &keys;
    effect(f->regions[0], &b);
    for (int k = 0; k < NFLAGS; k++) {
        if (b.net[k] >= 0 || skipped(&b, NULL, k)) continue;
        if (k >= NPIPES * NEVENTS) {   /* another value of the same set pipe set more often may be the same event */
            int other = 0;
            for (unsigned i = 0; i < keys.n; i++)
                if (NPIPES * NEVENTS + (int)i != k && keys.key[i] >> 32 == keys.key[k - NPIPES * NEVENTS] >> 32 &&
                    b.net[NPIPES * NEVENTS + i] > 0)
                    other = 1;
            if (other) continue;
        }
        const Op *w = b.wait[k];
        char fn[96];
        flag_name(&keys, w, k, fn, sizeof fn);
        v_warn(V, DIAG_V_SYNC_UNBALANCED, w ? w->loc : f->loc, "%s is waited for %d more time%s than "
               "it is set in this function: a wait can never be released", fn, -b.net[k], b.net[k] == -1 ? "" : "s");
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
