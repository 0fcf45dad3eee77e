/* verify_align.c — the !pto.align carrier rules (seed 003, resolutions Q21/Q45, isa-notes §1.3).
 *
 * An alignment state is a linear resource: a stream starts at pto.init_align (store side) or
 * pto.vldas / pto.valda (load side), each chain step (pstu, vstus, vstur, vstu, vastu; vldus, valdu) consumes
 * one state and produces the next, and a flush (vstas, vstar, vsta, vasta) consumes the last one. Hence:
 *   - every align value is consumed at most once                       (E-ALIGN-REUSE)
 *   - a consumed state comes from a stream start or a chain step of the same side (E-ALIGN-UNINIT)
 *   - states do not fork: they may be threaded linearly through scf.for/scf.while iter_args, but
 *     not consumed inside a loop body or an scf.if branch that does not define them, nor yielded
 *     out of an scf.if, nor passed across function boundaries           (E-ALIGN-CHAIN)
 * Origins are followed through iter_args and strict_vecscope block arguments. Which op starts, steps, flushes or
 * passes a stream on is the op table's ALIGN_ROLE column (ops.def). */
#include "verify_int.h"
#include "base/alloc.h"
#include <stdlib.h>

typedef enum { O_UNSEEN, O_STORE, O_LOAD, O_BAD, O_SKIP, O_BUSY } Origin;

typedef struct AState {
    VCtx *V;
    Op *root;
    uint32_t *ids;             /* ids of the alignment states under the root, sorted; built at the first use */
    uint8_t *origin;           /* per entry of ids */
    Op **first_use;            /* the same */
    uint32_t n, cap;
    int built, failed;         /* failed: the tables could not be allocated (E-OOM reported) */
} AState;

static int is_align(const Value *v) { return v && v->type && v->type->kind == TY_ALIGN; }

static void collect(AState *A, const Value *v)
{
    if (!is_align(v) || A->failed) return;
    if (A->n == A->cap) {
        uint32_t cap = A->cap ? A->cap * 2 : 16;
        uint32_t *ids = mem_realloc(A->ids, cap * sizeof *ids);
        if (!ids) { A->failed = 1; return; }
        A->ids = ids;
        A->cap = cap;
    }
    A->ids[A->n++] = v->id;
}

static int collect_op(Op *op, void *ud)
{
    for (uint32_t i = 0; i < op->nresults; i++) collect(ud, op->results[i]);
    for (uint32_t k = 0; k < op->nregions; k++) {
        const Block *b = op->regions[k]->block;
        for (uint32_t i = 0; i < b->nargs; i++) collect(ud, b->args[i]);
    }
    return 0;
}

static int cmp_id(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The table entry of the state v, or -1 (not a state defined under the root, or no tables). The tables
   hold only the states under the root, built when the first one is used: most units have none. */
static long slot(AState *A, const Value *v)
{
    if (!A->built) {
        A->built = 1;
        v_walk(A->V, A->root, collect_op, A);
        A->origin = mem_calloc(A->n ? A->n : 1, 1);
        A->first_use = mem_calloc(A->n ? A->n : 1, sizeof *A->first_use);
        if (A->failed || !A->origin || !A->first_use) {
            A->failed = 1;
            diag_oom(A->V->d, 0);
        }
        if (A->n > 1) qsort(A->ids, A->n, sizeof *A->ids, cmp_id);
    }
    if (A->failed || !v) return -1;
    const uint32_t *hit = A->n ? bsearch(&v->id, A->ids, A->n, sizeof *A->ids, cmp_id) : NULL;
    return hit ? (long)(hit - A->ids) : -1;
}

static Origin origin_of(AState *A, const Value *v);

static Origin from_operand(AState *A, const Op *op, uint32_t i)
{
    return i < op->noperands && op->operands[i] ? origin_of(A, op->operands[i]) : O_BAD;
}

static Origin compute_origin(AState *A, const Value *v)
{
    if (v->def) {
        const Op *d = v->def;
        switch ((AlignRole)op_align_role[d->kind]) {
        case AL_STORE_START: case AL_STORE_STEP: return O_STORE;
        case AL_LOAD_START: case AL_LOAD_STEP: return O_LOAD;
        default: break;
        }
        switch (d->kind) {
        case OP_SCF_FOR: return from_operand(A, d, 3u + v->index);
        case OP_SCF_WHILE: return v->index < d->noperands ? from_operand(A, d, v->index) : O_SKIP;
        case OP_SCF_IF: return O_SKIP;   /* reported at the scf.if */
        default: return O_BAD;
        }
    }
    const Block *b = v->owner;
    const Op *p = v_parent_op_of_block(b);
    if (!p) return O_BAD;
    switch (p->kind) {
    case OP_SCF_FOR: return v->index == 0 ? O_BAD : from_operand(A, p, 3u + v->index - 1u);
    case OP_SCF_WHILE: return p->nregions && p->regions[0]->block == b ? from_operand(A, p, v->index) : O_SKIP;
    case OP_STRICT_VECSCOPE: return from_operand(A, p, v->index);
    default: return O_BAD;
    }
}

static Origin origin_of(AState *A, const Value *v)
{
    long i = slot(A, v);
    if (i < 0) return O_SKIP;
    uint8_t o = A->origin[i];
    if (o == O_BUSY) return O_SKIP;
    if (o != O_UNSEEN) return (Origin)o;
    A->origin[i] = O_BUSY;
    Origin r = compute_origin(A, v);
    A->origin[i] = (uint8_t)r;
    return r;
}

/* Reports a use of an align value inside a loop body or branch that does not define it. */
static int check_crossing(AState *A, Op *use, const Value *v)
{
    const Block *db = v_value_block(v);
    const Block *b = use->parent;
    while (b && b != db) {
        Op *p = v_parent_op_of_block(b);
        if (!p) break;
        if (p->kind == OP_SCF_FOR || p->kind == OP_SCF_WHILE || p->kind == OP_SCF_IF) {
            int loop = p->kind != OP_SCF_IF;
            long d = v_err(A->V, DIAG_V_ALIGN_CHAIN, use->loc, "alignment state %%%s is defined outside this %s and "
                           "consumed inside it, which %s; %s", v_valname(v), loop ? "loop" : "scf.if branch",
                           loop ? "reuses it in every iteration" : "forks the stream",
                           loop ? "thread it through iter_args and scf.yield" : "keep the whole stream on one path");
            v_note(A->V, d, p->loc, "%s here", loop ? "loop" : "branch");
            return 1;
        }
        b = p->parent;
    }
    return 0;
}

static void consume(AState *A, Op *use, const Value *v)
{
    VCtx *V = A->V;
    int crossed = check_crossing(A, use, v);
    long i = slot(A, v);
    if (i >= 0) {
        Op *first = A->first_use[i];
        if (first && !crossed) {
            long d = v_err(V, DIAG_V_ALIGN_REUSE, use->loc, "alignment state %%%s is consumed a second time; each state "
                           "feeds exactly one chain step: use the state the previous step returned", v_valname(v));
            v_note(V, d, first->loc, "first consumed here");
        }
        if (!first) A->first_use[i] = use;
    }
    AlignRole role = (AlignRole)op_align_role[use->kind];
    if (role == AL_STORE_STEP || role == AL_FLUSH || role == AL_LOAD_STEP) {
        Origin o = origin_of(A, v);
        int store = role != AL_LOAD_STEP;
        if (o == O_BAD || (store && o == O_LOAD) || (!store && o == O_STORE)) {
            const char *why = o == O_BAD ? "does not come from a stream start"
                            : store ? "belongs to a load stream (pto.vldas or pto.valda)"
                                    : "belongs to a store stream (pto.init_align)";
            long d = v_err(V, DIAG_V_ALIGN_UNINIT, use->loc, "'%s' consumes alignment state %%%s, which %s; a %s stream "
                           "starts at %s", v_opname(use), v_valname(v), why, store ? "store" : "load",
                           store ? "pto.init_align" : "pto.vldas or pto.valda");
            v_note(V, d, v_value_loc(v), "%%%s is defined here", v_valname(v));
        }
    } else if (role != AL_PASS) {
        v_err(V, DIAG_V_ALIGN_CHAIN, use->loc, "'%s' cannot take alignment state %%%s; states only flow between chain "
              "steps, flushes and loop iter_args", v_opname(use), v_valname(v));
    }
}

static int visit(Op *op, void *ud)
{
    AState *A = ud;
    for (uint32_t i = 0; i < op->noperands; i++) {
        const Value *v = op->operands[i];
        if (is_align(v)) consume(A, op, v);
    }
    if (op->kind == OP_SCF_IF)
        for (uint32_t i = 0; i < op->nresults; i++)
            if (op->results[i]->type && op->results[i]->type->kind == TY_ALIGN) {
                v_err(A->V, DIAG_V_ALIGN_CHAIN, op->loc, "scf.if may not produce an alignment state (result %%%s): a "
                      "stream must follow one path", v_valname(op->results[i]));
                break;
            }
    if (op->kind == OP_FUNC && op->nregions) {
        Block *b = op->regions[0]->block;
        for (uint32_t i = 0; i < b->nargs; i++)
            if (b->args[i]->type && b->args[i]->type->kind == TY_ALIGN) {
                v_err(A->V, DIAG_V_ALIGN_CHAIN, v_value_loc(b->args[i]), "alignment state %%%s cannot be passed into a "
                      "function", v_valname(b->args[i]));
                break;
            }
    }
    return 0;
}

void verify_align_carriers(VCtx *V, Op *root)
{
    AState A = {V, root, NULL, NULL, NULL, 0, 0, 0, 0};
    v_walk(V, root, visit, &A);
    mem_free(A.ids);
    mem_free(A.origin);
    mem_free(A.first_use);
}
