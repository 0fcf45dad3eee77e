/* tile_plan.c — the deterministic allocator of the tiles without an address (tile_plan.h, docs/tile.md).
 *
 * Positions: the function's ops numbered in pre-order; a region op spans its own position to its last nested
 * op. A tile is live from its alloc_tile to its last use, where a use is any op taking it, or a value derived
 * from it (a tile or pointer result of an op that takes it: views, tile_buf_addr, loop results), as an operand;
 * a use inside a loop that does not contain the alloc extends the range to the end of that loop (the value is
 * used again in the next iteration). Tiles are then placed in position order, per address space, each at the
 * lowest address aligned to tile_plan_align that overlaps no live tile of that space; tiles whose address is a
 * constant operand occupy their bytes for the whole function. A tile whose end would pass the space's
 * capacity does not fit. */
#include "tile_plan.h"
#include "base/alloc.h"
#include <string.h>

typedef struct Walk {
    const Op **ops;            /* every op by position */
    uint32_t *end;             /* last nested position of each op */
    uint32_t n, cap;
    const Op **hk;             /* op -> position: open addressing over hk/hv (capacity hcap, a power of 2) */
    uint32_t *hv, hcap;
    int oom;
} Walk;

static uint32_t hslot(const Walk *w, const Op *op)
{
    uint32_t h = (uint32_t)(((uintptr_t)op >> 4) * 2654435761u) & (w->hcap - 1);
    while (w->hk[h] && w->hk[h] != op) h = (h + 1) & (w->hcap - 1);
    return h;
}

static int index_ops(Walk *w)
{
    w->hcap = 16;
    while (w->hcap < 2 * w->n + 2) w->hcap *= 2;
    w->hk = mem_calloc(w->hcap, sizeof *w->hk);
    w->hv = mem_calloc(w->hcap, sizeof *w->hv);
    if (!w->hk || !w->hv) return -1;
    for (uint32_t i = 0; i < w->n; i++) {
        uint32_t h = hslot(w, w->ops[i]);
        w->hk[h] = w->ops[i];
        w->hv[h] = i;
    }
    return 0;
}

static void number(Walk *w, const Op *op)
{
    if (w->oom) return;
    if (w->n == w->cap) {
        uint32_t cap = w->cap ? w->cap * 2 : 256;
        const Op **o = mem_realloc(w->ops, cap * sizeof *o);
        if (o) w->ops = o;
        uint32_t *e = o ? mem_realloc(w->end, cap * sizeof *e) : NULL;
        if (!e) { w->oom = 1; return; }
        w->end = e;
        w->cap = cap;
    }
    uint32_t me = w->n++;
    w->ops[me] = op;
    for (uint32_t r = 0; r < op->nregions; r++)
        for (const Op *o = op->regions[r]->block->first; o; o = o->next) number(w, o);
    w->end[me] = w->n - 1;
}

static uint32_t pos_of(const Walk *w, const Op *op) { return w->hv[hslot(w, op)]; }
static int in_walk(const Walk *w, const Op *op) { return w->hk[hslot(w, op)] == op; }

static int is_loop(const Op *op) { return op->kind == OP_SCF_FOR || op->kind == OP_SCF_WHILE; }

/* The position a use at `u` keeps the value of `def` alive to. */
static uint32_t use_end(const Walk *w, const Op *def, const Op *u)
{
    uint32_t end = w->end[pos_of(w, u)];
    uint32_t dp = pos_of(w, def);
    for (const Op *p = ir_parent_op(u); p && p->kind != OP_FUNC && in_walk(w, p); p = ir_parent_op(p)) {
        uint32_t pp = pos_of(w, p);
        if (is_loop(p) && !(dp >= pp && dp <= w->end[pp]) && w->end[pp] > end) end = w->end[pp];
    }
    return end;
}

/* The last position value v (and what is derived from it) is used at. */
static uint32_t last_use(const Walk *w, const Op *def, const Value *v, int depth)
{
    uint32_t last = pos_of(w, def);
    if (depth > 16) return w->n ? w->n - 1 : 0;   /* a long derivation chain: live to the end */
    for (uint32_t i = 0; i < w->n; i++) {
        const Op *u = w->ops[i];
        int uses = 0;
        for (uint32_t k = 0; k < u->noperands && !uses; k++) uses = u->operands[k] == v;
        if (!uses) continue;
        uint32_t e = use_end(w, def, u);
        if (e > last) last = e;
        for (uint32_t r = 0; r < u->nresults; r++) {
            const Type *t = u->results[r]->type;
            if (t && (t->kind == TY_TILE_BUF || t->kind == TY_PTR)) {
                uint32_t d = last_use(w, def, u->results[r], depth + 1);
                if (d > last) last = d;
            }
        }
    }
    return last;
}

uint64_t tile_plan_align(AddrSpace as) { return as == AS_UB ? 32 : 512; }

static int const_i64(const Value *v, int64_t *out)
{
    const Op *d = v ? v->def : NULL;
    if (!d || d->kind != OP_ARITH_CONSTANT) return 0;
    const Attr *a = op_attr(d, "value");
    if (!a || a->kind != AT_INT) return 0;
    *out = a->i;
    return 1;
}

/* The compiler's A5 memory plan gives no storage to a tile used only as the tmp operand of an op whose template
   ignores it (PTOAS PTOPlanMemory isIgnoredA5TmpOperandUse: the row reductions' operand 1, the expand-binary
   ops', tprelu's, txor's, txors' and tsels' operand 2, tsel's operand 3); ptosim's handlers of these ops never
   touch that tile either. `g` is the tmp group of the op's signature. */
static int tmp_group(int kind)
{
    switch (kind) {
    case OP_TROWSUM: case OP_TROWMAX: case OP_TROWMIN: case OP_TROWPROD: case OP_TROWARGMAX: case OP_TROWARGMIN:
        return 1;
    case OP_TSEL: return 3;
    case OP_TPRELU: case OP_TXOR: case OP_TXORS: case OP_TSELS:
    case OP_TROWEXPANDADD: case OP_TROWEXPANDSUB: case OP_TROWEXPANDMUL: case OP_TROWEXPANDDIV:
    case OP_TROWEXPANDMAX: case OP_TROWEXPANDMIN: case OP_TROWEXPANDEXPDIF: case OP_TCOLEXPANDADD:
    case OP_TCOLEXPANDSUB: case OP_TCOLEXPANDMUL: case OP_TCOLEXPANDDIV: case OP_TCOLEXPANDMAX:
    case OP_TCOLEXPANDMIN: case OP_TCOLEXPANDEXPDIF:
        return 2;
    default: return -1;
    }
}

static int tmp_only(const Walk *w, const Value *v)
{
    int used = 0;
    for (uint32_t i = 0; i < w->n; i++) {
        const Op *u = w->ops[i];
        for (uint32_t k = 0; k < u->noperands; k++) {
            if (u->operands[k] != v) continue;
            int g = tmp_group(u->kind);
            if (g < 0 || !u->segs || op_group_len(u, (unsigned)g) != 1 ||
                op_group_operand(u, (unsigned)g, 0) != v)
                return 0;
            used = 1;
        }
    }
    return used;
}

uint64_t tile_plan_multi_stride(const Type *t)
{
    return multi_slot_stride(tile_bytes(t), tile_plan_align((AddrSpace)t->space));
}

static int overlaps(uint64_t a, uint64_t asz, uint64_t b, uint64_t bsz) { return a < b + bsz && b < a + asz; }

int tile_plan_build(const Op *func, const TargetProfile *tp, TilePlan *p)
{
    memset(p, 0, sizeof *p);
    Walk w;
    memset(&w, 0, sizeof w);
    for (uint32_t r = 0; r < func->nregions; r++)
        for (const Op *o = func->regions[r]->block->first; o; o = o->next) number(&w, o);
    if (!w.oom && index_ops(&w)) w.oom = 1;
    uint32_t n = 0;
    for (uint32_t i = 0; i < w.n && !w.oom; i++) n += w.ops[i]->kind == OP_ALLOC_TILE || w.ops[i]->kind == OP_ALLOC_MULTI_TILE;
    if (!w.oom && n) p->t = mem_calloc(n, sizeof *p->t);
    if (w.oom || (n && !p->t)) {
        mem_free(w.ops);
        mem_free(w.end);
        mem_free(w.hk);
        mem_free(w.hv);
        return -1;
    }
    for (uint32_t i = 0; i < w.n; i++) {
        const Op *o = w.ops[i];
        if ((o->kind != OP_ALLOC_TILE && o->kind != OP_ALLOC_MULTI_TILE) || !o->nresults) continue;
        const Type *t = o->results[0]->type;
        TileSlot *s = &p->t[p->n++];
        s->op = o;
        int tile = t && (t->kind == TY_TILE_BUF || t->kind == TY_MULTI_TILE);
        s->as = tile ? (AddrSpace)t->space : AS_UB;
        uint64_t al = tile_plan_align(s->as);
        /* a multi_tile_buf: its count slots, each at the location's alignment (tile_plan_multi_stride) */
        s->size = !tile ? 0 : t->kind == TY_MULTI_TILE ? (uint64_t)t->dims[4] * tile_plan_multi_stride(t)
                                                       : (tile_bytes(t) + al - 1) / al * al;
        s->start = i;
        s->end = last_use(&w, o, o->results[0], 0);
        int64_t a;
        const Value *addr = o->noperands ? op_group_operand(o, 0, 0) : NULL;   /* group 0: addr */
        if (addr) {
            s->fixed = 1;
            s->fits = const_i64(addr, &a) && a >= 0;
            s->addr = s->fits ? (uint64_t)a : 0;
            s->start = 0;                          /* a fixed range is kept free for the whole function */
            s->end = w.n ? w.n - 1 : 0;
        } else if (tmp_only(&w, o->results[0])) {
            s->size = 0;                           /* no storage: placed at 0, in nobody's way */
        }
    }
    /* place the planned tiles in position order */
    for (uint32_t i = 0; i < p->n; i++) {
        TileSlot *s = &p->t[i];
        if (s->fixed) continue;
        if (!s->size) {
            s->addr = 0;
            s->fits = 1;
            continue;
        }
        uint64_t al = tile_plan_align(s->as), cap = tp ? tp->cap[s->as] : UINT64_MAX, at = 0;
        for (;;) {
            uint64_t next = at;
            for (uint32_t k = 0; k < p->n; k++) {
                const TileSlot *o = &p->t[k];
                if (o == s || o->as != s->as || !o->fits || !o->size || (!o->fixed && k > i)) continue;
                if (o->end < s->start || o->start > s->end) continue;
                if (overlaps(at, s->size, o->addr, o->size) && o->addr + o->size > next) next = o->addr + o->size;
            }
            if (next == at) break;
            at = (next + al - 1) / al * al;
        }
        s->addr = at;
        s->fits = at + s->size <= cap;
    }
    mem_free(w.ops);
    mem_free(w.end);
    mem_free(w.hk);
    mem_free(w.hv);
    return 0;
}

void tile_plan_free(TilePlan *p)
{
    mem_free(p->t);
    p->t = NULL;
    p->n = 0;
}

const TileSlot *tile_plan_find(const TilePlan *p, const Op *alloc)
{
    for (uint32_t i = 0; i < p->n; i++)
        if (p->t[i].op == alloc) return &p->t[i];
    return NULL;
}
