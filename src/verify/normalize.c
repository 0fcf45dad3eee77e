/* normalize.c — the normalisation pass (normalize.h), run by the API between parse and verify; the only
 * place outside the parser that rewrites the IR. It makes vector scopes left implicit explicit: every
 * function body's maximal runs of vector operations that stand outside a vector scope are wrapped in an
 * inferred pto.vecscope, the way the public compiler's PTOInferVPTOVecScope pass does it (docs/semantics.md §12,
 * "Vector scopes left implicit"). Lowering then sees ordinary scopes, so an implicit kernel runs exactly
 * as its explicit twin. The inferred scope and the producers it rematerialises carry the attribute
 * IR_INFERRED, which the printer uses to print the input as written.
 *
 * The rule, per block (then recursively inside the regions of the ops left outside scopes):
 *   - classes: Vector = an op that must be in a scope (F_VEC) or has a vreg/mask/align/VMI operand or
 *     result, or an scf.for/if/while whose regions hold no Boundary op and a Vector op (or that carries
 *     vector values itself);
 *     SafeScalar = a pure op without regions (F_PURE), except the block queries; Boundary = the rest
 *     (explicit scopes, terminators, calls, synchronisation, DMA, ...).
 *   - clusters: the runs of Vector/SafeScalar ops between Boundary ops. In a cluster, from its first
 *     op, the longest candidate run that can be wrapped is wrapped: the Vector ops move into the scope
 *     with the SafeScalar ops whose users all move; the SafeScalar ops the moved ones use stay outside
 *     and move before the scope (they are pure); a candidate whose moved ops have a user outside
 *     fails (a scope has no results). A cluster with no wrappable candidate at an op is left alone and
 *     the verifier reports E-VEC-SCOPE there.
 *   - before wrapping, a pset/pge/vdup/vbr (VMI: create_mask, create_group_mask, pset, pge, constant_mask,
 *     vbrc, vci) whose vector result is used across a Boundary is cloned into each later stretch that uses
 *     it (the compiler's rematerialisation of CSE'd producers), and into the top of each explicit pto.vecscope
 *     that uses it. VMI values are vector state like vregs. */
#include "normalize.h"
#include "verify_int.h"
#include "base/alloc.h"
#include <stdlib.h>
#include <string.h>

enum { C_VEC, C_SAFE, C_BOUND };

static int vstate(const Type *t) { return ty_is_vector_state(t); }   /* VMI vectors and masks too */

static int has_vstate(const Op *op)
{
    for (uint32_t i = 0; i < op->noperands; i++)
        if (op->operands[i] && vstate(op->operands[i]->type)) return 1;
    for (uint32_t i = 0; i < op->nresults; i++)
        if (vstate(op->results[i]->type)) return 1;
    return 0;
}

static int classify(const Op *op);

/* An scf op is one unit: Vector when its regions hold a Vector op and no Boundary op. */
static int atomic_cf(const Op *op)
{
    if (op->kind != OP_SCF_FOR && op->kind != OP_SCF_IF && op->kind != OP_SCF_WHILE) return 0;
    int vec = has_vstate(op);   /* it carries vector values (an scf.if choosing between two vregs) */
    for (uint32_t r = 0; r < op->nregions; r++)
        for (const Op *o = op->regions[r]->block->first; o; o = o->next) {
            if (op_info[o->kind].flags & F_TERM) continue;
            int c = classify(o);
            if (c == C_BOUND) return 0;
            vec |= c == C_VEC;
        }
    return vec;
}

static int classify(const Op *op)
{
    uint32_t f = op_info[op->kind].flags;
    if (v_is_vec_interval(op) || (f & F_TERM) || op->kind == OP_CALL || op->kind == OP_BARRIER ||
        op->kind == OP_PIPE_BARRIER || op->kind == OP_VBITSORT || op->kind == OP_VMRGSORT4 ||
        op->kind == OP_GET_BLOCK_IDX || op->kind == OP_GET_BLOCK_NUM)
        return C_BOUND;
    if (op->kind >= OP__COUNT) return C_BOUND;
    if (!op->nregions && ((f & F_VEC) || has_vstate(op))) return C_VEC;
    if (atomic_cf(op)) return C_VEC;
    if (!op->nregions && (f & F_PURE)) return C_SAFE;
    return C_BOUND;
}

/* ------------------------------------------------------------------ one block */

typedef struct Blk {
    Module *m;
    Block *b;
    Op **ops;                  /* the block's ops, in order */
    uint32_t n;
    uint8_t *cls;
    uint32_t *ustart, *users;  /* CSR: top-level users (indices) of op i's results, duplicates allowed */
    uint8_t *moved, *hoist;    /* zero outside the candidate being planned (plan clears what it leaves) */
    uint32_t *lastv;           /* lastv[i]: 1 + the index of the last Vector op before i, 0 when none */
    uint64_t budget;           /* work left; inference stops (leaving ops unwrapped) when it runs out */
    int oom;                   /* an allocation failed: inference stopped, verification reports E-OOM */
    uint32_t *seg;             /* remat's work arrays, here so that an out-of-memory jump frees them */
    Op **memo;
} Blk;

static uint32_t idx_of(const Op *o) { return (uint32_t)(uintptr_t)o->aux - 1; }

typedef struct EdgeWalk { Blk *K; uint32_t user; uint32_t *cnt; uint32_t *fill; } EdgeWalk;

static int edge_visit(Op *o, void *ud)
{
    EdgeWalk *E = ud;
    for (uint32_t i = 0; i < o->noperands; i++) {
        const Value *v = o->operands[i];
        if (!v || !v->def || v->def->parent != E->K->b) continue;
        uint32_t d = idx_of(v->def);
        if (E->fill) E->K->users[E->fill[d]++] = E->user;
        else E->cnt[d]++;
    }
    return 0;
}

static int build_users(Blk *K)
{
    uint32_t *cnt = mem_calloc((size_t)K->n + 1, sizeof *cnt);
    if (!cnt) return !(K->oom = 1);
    EdgeWalk E = {K, 0, cnt, NULL};
    for (uint32_t j = 0; j < K->n; j++) { E.user = j; ir_walk(K->ops[j], edge_visit, &E); }
    mem_free(K->ustart);
    mem_free(K->users);
    K->ustart = mem_alloc(((size_t)K->n + 1) * sizeof *K->ustart);
    uint32_t tot = 0;
    for (uint32_t i = 0; i < K->n; i++) tot += cnt[i];
    K->users = mem_alloc(((size_t)tot + 1) * sizeof *K->users);
    if (!K->ustart || !K->users) { mem_free(cnt); return !(K->oom = 1); }
    for (uint32_t i = 0, s = 0; i <= K->n; i++) { K->ustart[i] = s; if (i < K->n) s += cnt[i]; }
    memcpy(cnt, K->ustart, (size_t)K->n * sizeof *cnt);
    E.fill = cnt;
    for (uint32_t j = 0; j < K->n; j++) { E.user = j; ir_walk(K->ops[j], edge_visit, &E); }
    mem_free(cnt);
    return 1;
}

static int load_block(Blk *K)
{
    K->n = 0;
    for (Op *o = K->b->first; o; o = o->next) K->n++;
    mem_free(K->ops); mem_free(K->cls); mem_free(K->moved); mem_free(K->hoist); mem_free(K->lastv);
    K->ops = mem_alloc(((size_t)K->n + 1) * sizeof *K->ops);
    K->cls = mem_alloc((size_t)K->n + 1);
    K->moved = mem_calloc((size_t)K->n + 1, 1);
    K->hoist = mem_calloc((size_t)K->n + 1, 1);
    K->lastv = mem_alloc(((size_t)K->n + 1) * sizeof *K->lastv);
    if (!K->ops || !K->cls || !K->moved || !K->hoist || !K->lastv) {
        K->n = 0;   /* out of memory: nothing loaded (the driver's clean-up walks K->ops[0, n)) */
        return !(K->oom = 1);
    }
    uint32_t i = 0;
    for (Op *o = K->b->first; o; o = o->next, i++) {
        K->ops[i] = o;
        o->aux = (void *)(uintptr_t)(i + 1);
        K->cls[i] = (uint8_t)classify(o);
    }
    for (uint32_t j = 0, last = 0; j <= K->n; j++) {
        K->lastv[j] = last;
        if (j < K->n && K->cls[j] == C_VEC) last = j + 1;
    }
    return build_users(K);
}

/* Plans the scope for candidate [b, e): 1 when it can be wrapped (moved/hoist set), else 0 (nothing set).
   Users come after what they use, so one backward pass finds the moved SafeScalar ops (the second confirms),
   and no op after the candidate's last Vector op moves or hoists: [b, e) plans like [b, last Vector op]. The
   flags are zero outside [b, e) on entry; only [b, e) is touched, so a plan costs the candidate, not the
   block. */
static int plan(Blk *K, uint32_t b, uint32_t e)
{
    int any = 0;
    for (uint32_t i = b; i < e; i++) if (K->cls[i] == C_VEC) K->moved[i] = 1, any = 1;
    if (!any) return 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = e; i-- > b;) {
            if (K->moved[i] || K->cls[i] != C_SAFE) continue;
            int has = 0, all = 1;
            for (uint32_t u = K->ustart[i]; u < K->ustart[i + 1]; u++) {
                if (K->moved[K->users[u]]) has = 1;
                else all = 0;
            }
            K->budget -= K->ustart[i + 1] - K->ustart[i] + 1;
            if (has && all) K->moved[i] = 1, changed = 1;
        }
    }
    for (uint32_t i = b; i < e; i++) {
        if (!K->moved[i]) continue;
        K->budget -= K->ustart[i + 1] - K->ustart[i] + 1;
        for (uint32_t u = K->ustart[i]; u < K->ustart[i + 1]; u++)
            if (!K->moved[K->users[u]]) {   /* a moved result escapes */
                memset(K->moved + b, 0, e - b);
                return 0;
            }
    }
    /* the pure ops the moved ones use, and what those use, go before the scope */
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = e; i-- > b;) {
            if (K->moved[i] || K->hoist[i] || K->cls[i] != C_SAFE) continue;
            for (uint32_t u = K->ustart[i]; u < K->ustart[i + 1]; u++)
                if (K->moved[K->users[u]] || K->hoist[K->users[u]]) { K->hoist[i] = 1, changed = 1; break; }
        }
    }
    return 1;
}

static void unlink_op(Op *o)
{
    Block *b = o->parent;
    if (o->prev) o->prev->next = o->next; else b->first = o->next;
    if (o->next) o->next->prev = o->prev; else b->last = o->prev;
    o->prev = o->next = NULL;
}

static void insert_before(Op *pos, Op *o)
{
    Block *b = pos->parent;
    o->parent = b;
    o->prev = pos->prev;
    o->next = pos;
    if (pos->prev) pos->prev->next = o; else b->first = o;
    pos->prev = o;
}

static void append(Block *b, Op *o)
{
    o->parent = b;
    o->prev = b->last;
    o->next = NULL;
    if (b->last) b->last->next = o; else b->first = o;
    b->last = o;
}

static Attr *marked_attrs(Module *m, const Op *op)
{
    Attr *a = ARENA_ARRAY(&m->arena, Attr, op->nattrs + 1);
    if (op->nattrs) memcpy(a, op->attrs, sizeof *a * op->nattrs);
    a[op->nattrs].name = IR_INFERRED;
    a[op->nattrs].kind = AT_UNIT;
    a[op->nattrs].loc = op->loc;
    return a;
}

static void wrap(Blk *K, uint32_t b, uint32_t e)
{
    uint32_t first = b;
    while (!K->moved[first]) first++;
    Module *m = K->m;
    Op *scope = ARENA_NEW(&m->arena, Op);
    scope->kind = OP_VECSCOPE;
    scope->loc = K->ops[first]->loc;
    scope->id = m->nops++;
    scope->attrs = marked_attrs(m, scope);
    scope->nattrs = 1;
    scope->results = ARENA_ARRAY(&m->arena, Value *, 1);
    Region *r = ARENA_NEW(&m->arena, Region);
    r->parent = scope;
    r->block = ARENA_NEW(&m->arena, Block);
    r->block->parent = r;
    r->block->loc = scope->loc;
    scope->regions = ARENA_ARRAY(&m->arena, Region *, 1);
    scope->regions[0] = r;
    scope->nregions = 1;
    insert_before(K->ops[first], scope);
    for (uint32_t i = first; i < e; i++)
        if (K->hoist[i]) { unlink_op(K->ops[i]); insert_before(scope, K->ops[i]); }
    for (uint32_t i = first; i < e; i++)
        if (K->moved[i]) { unlink_op(K->ops[i]); append(r->block, K->ops[i]); }
}

/* Wraps the cluster [cb, ce) greedily: from b, the longest candidate [b, e) that plans; returns 0 when the
   work budget ran out. Candidates with the same last Vector op plan alike (plan), so after a failure the
   next one tried ends at that op (the longest shorter candidate that plans differently), and a b with no
   Vector op after it ends the cluster: a block of n scalar ops costs O(n), not O(n^3). The flags of a
   wrapped candidate stay set: later candidates start past it, and users come after what they use. */
static int wrap_cluster(Blk *K, uint32_t cb, uint32_t ce)
{
    for (uint32_t b = cb; b < ce;) {
        if (K->lastv[ce] <= b) break;   /* no Vector op in [b, ce) */
        uint32_t e = ce;
        for (;;) {
            if (K->budget > (uint64_t)1 << 62) return 0;
            if (plan(K, b, e)) break;
            e = K->lastv[e] - 1;        /* the last Vector op of [b, e) */
            if (K->lastv[e] <= b) { e = b; break; }
        }
        if (e == b) { b++; continue; }
        wrap(K, b, e);
        b = e;
    }
    return 1;
}

/* ------------------------------------------------------------------ rematerialisation */

static int remat_kind(const Op *op)
{
    if (op->nregions || !op->nresults) return 0;
    switch (op->kind) {
    case OP_VDUP: case OP_VBR:
    case OP_VMI_CREATE_MASK: case OP_VMI_CREATE_GROUP_MASK: case OP_VMI_PSET: case OP_VMI_PGE:
    case OP_VMI_CONSTANT_MASK: case OP_VMI_VBRC: case OP_VMI_VCI:
        break;
    default:
        if (op_info[op->kind].fam != FAM_PRED_GEN) return 0;
    }
    for (uint32_t i = 0; i < op->nresults; i++)
        if (!vstate(op->results[i]->type)) return 0;
    return 1;
}

typedef struct Subst { Value *from; Value *to; } Subst;

static int subst_visit(Op *o, void *ud)
{
    const Subst *s = ud;
    for (uint32_t i = 0; i < o->noperands; i++)
        if (o->operands[i] == s->from) { o->operands[i] = s->to; s->from->nuses--; s->to->nuses++; }
    return 0;
}

/* A copy of op (marked), placed before pos; its vreg/mask operands produced by rematerialisable ops of
   the block are copied too (memo: copies made for this stretch, indexed by the block index). */
static Op *clone_before(Blk *K, Op *op, Op *pos, Op **memo)
{
    uint32_t k = idx_of(op);
    if (memo[k]) return memo[k];
    Module *m = K->m;
    Op *c = ARENA_NEW(&m->arena, Op);
    *c = *op;
    c->id = m->nops++;
    c->aux = NULL;
    /* the operand pointers, then (as in the original) where each is written */
    const uint32_t *oploc = op_oploc(op);
    size_t vb = (size_t)op->noperands * sizeof(Value *);
    c->operands = arena_alloc(&m->arena, vb + (oploc ? op->noperands * sizeof(uint32_t) : 0));
    if (oploc) memcpy(op_oploc(c), oploc, op->noperands * sizeof(uint32_t));
    for (uint32_t i = 0; i < op->noperands; i++) {
        Value *v = op->operands[i];
        if (v && vstate(v->type) && v->def && v->def->parent == K->b && remat_kind(v->def)) {
            Op *pc = clone_before(K, v->def, pos, memo);
            v = pc->results[v->index];
        }
        c->operands[i] = v;
        if (v) v->nuses++;
    }
    c->results = ARENA_ARRAY(&m->arena, Value *, op->nresults + 1);
    for (uint32_t i = 0; i < op->nresults; i++) {
        Value *v = ARENA_NEW(&m->arena, Value);
        *v = *op->results[i];
        v->def = c;
        v->id = m->nvalues++;
        v->nuses = 0;
        v->slot = -1;
        c->results[i] = v;
    }
    c->attrs = marked_attrs(m, op);
    c->nattrs = op->nattrs + 1;
    insert_before(pos, c);
    memo[k] = c;
    return c;
}

/* Returns 1 when it changed the block. */
static int remat(Blk *K)
{
    uint32_t *seg = K->seg = mem_alloc(((size_t)K->n + 1) * sizeof *seg);
    Op **memo = K->memo = mem_calloc((size_t)K->n + 1, sizeof *memo);
    int changed = 0;
    if (!seg || !memo) {
        K->oom = 1;
        goto out;
    }
    for (uint32_t i = 0, s = 0; i < K->n; i++) { if (K->cls[i] == C_BOUND) s++; seg[i] = s; }
    for (uint32_t i = 0; i < K->n && !changed; i++) {
        if (K->cls[i] != C_VEC || !remat_kind(K->ops[i])) continue;
        for (uint32_t u = K->ustart[i]; u < K->ustart[i + 1]; u++) {
            uint32_t j = K->users[u];
            if (seg[j] == seg[i]) continue;
            Op *scope = K->ops[j];
            if (K->cls[j] == C_BOUND) {
                /* a user inside an explicit pto.vecscope: the copy goes at the top of the scope's body */
                if (scope->kind != OP_VECSCOPE || !scope->nregions || !scope->regions[0]->block ||
                    !scope->regions[0]->block->first)
                    continue;
                memset(memo, 0, ((size_t)K->n + 1) * sizeof *memo);
                Op *c = clone_before(K, K->ops[i], scope->regions[0]->block->first, memo);
                for (uint32_t r = 0; r < c->nresults; r++) {
                    Subst s = {K->ops[i]->results[r], c->results[r]};
                    for (Op *o = c->next; o; o = o->next) ir_walk(o, subst_visit, &s);
                }
                changed = 1;
                break;
            }
            /* first user in that stretch */
            uint32_t f = j;
            for (uint32_t w = K->ustart[i]; w < K->ustart[i + 1]; w++)
                if (seg[K->users[w]] == seg[j] && K->users[w] < f) f = K->users[w];
            memset(memo, 0, ((size_t)K->n + 1) * sizeof *memo);
            Op *c = clone_before(K, K->ops[i], K->ops[f], memo);
            for (uint32_t w = K->ustart[i]; w < K->ustart[i + 1]; w++) {
                if (seg[K->users[w]] != seg[j]) continue;
                for (uint32_t r = 0; r < c->nresults; r++) {
                    Subst s = {K->ops[i]->results[r], c->results[r]};
                    ir_walk(K->ops[K->users[w]], subst_visit, &s);
                }
            }
            changed = 1;
            break;
        }
    }
out:
    mem_free(seg);
    mem_free(memo);
    K->seg = NULL;
    K->memo = NULL;
    return changed;
}

/* ------------------------------------------------------------------ driver */

static void infer_region_ops(Module *m, Block *b, uint64_t *budget);

static void infer_ops(Blk *K)
{
    int ok = load_block(K);
    for (unsigned guard = 0; ok && guard < 256 && remat(K); guard++) ok = load_block(K);
    if (ok) {
        for (uint32_t i = 0; i < K->n;) {
            if (K->cls[i] == C_BOUND) { i++; continue; }
            uint32_t e = i;
            while (e < K->n && K->cls[e] != C_BOUND) e++;
            if (!wrap_cluster(K, i, e)) break;
            i = e;
        }
    }
}

static void infer_block(Module *m, Block *b, uint64_t *budget)
{
    Blk K = {.m = m, .b = b, .budget = *budget};
    /* The new scopes and clones come from the module's arena: out of memory there lands here (every
       allocation of a scope or clone happens before it is linked in, so the IR stays whole), E-OOM below. */
    jmp_buf oom, *outer = m->arena.oom;
    if (setjmp(oom)) {
        K.oom = 1;
    } else {
        m->arena.oom = &oom;
        infer_ops(&K);
    }
    m->arena.oom = outer;
    for (uint32_t i = 0; i < K.n; i++) K.ops[i]->aux = NULL;
    if (K.oom) diag_oom(&m->ctx->diags, 0);
    *budget = K.budget;
    mem_free(K.ops); mem_free(K.cls); mem_free(K.moved); mem_free(K.hoist); mem_free(K.lastv);
    mem_free(K.ustart); mem_free(K.users);
    mem_free(K.seg); mem_free(K.memo);
    infer_region_ops(m, b, budget);
}

static void infer_region_ops(Module *m, Block *b, uint64_t *budget)
{
    for (Op *o = b->first; o; o = o->next) {
        if (v_is_vec_interval(o) || o->kind == OP_STRICT_VECSCOPE || op_attr(o, IR_INFERRED)) continue;
        for (uint32_t r = 0; r < o->nregions; r++) infer_block(m, o->regions[r]->block, budget);
    }
}

/* A unit's functions (and those of modules nested in it); with skip_units, the top module's own functions
   only (its units are normalised each on its own). */
static void infer_funcs(Module *m, Op *op, uint64_t *budget, int skip_units)
{
    if (op->kind == OP_FUNC) {
        if (op->nregions) infer_block(m, op->regions[0]->block, budget);
        return;
    }
    if (op->kind != OP_MODULE) return;
    for (uint32_t r = 0; r < op->nregions; r++)
        for (Op *o = op->regions[r]->block->first; o; o = o->next)
            if (!(skip_units && o->kind == OP_MODULE)) infer_funcs(m, o, budget, 0);
}

/* Work budget per unit: plenty for any real kernel; bounds pathological inputs. */
static void norm_root(Module *m, Op *root, int skip_units)
{
    uint64_t budget = (uint64_t)1 << 26;
    infer_funcs(m, root, &budget, skip_units);
}

void norm_unit(Module *m, Op *unit)
{
    if (m && unit) norm_root(m, unit, 0);
}

void norm_module(Module *m)
{
    if (!m || !m->top) return;
    Op *top = m->top;
    int nested = 0;
    for (Op *o = top->nregions ? top->regions[0]->block->first : NULL; o; o = o->next)
        if (o->kind == OP_MODULE) {
            norm_root(m, o, 0);
            nested = 1;
        }
    norm_root(m, top, nested);
}
