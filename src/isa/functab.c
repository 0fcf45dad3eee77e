/* functab.c — functions by name (functab.h): an open hash of bucket heads over the functions in textual order,
 * chained per bucket, so a name's functions come out in the order they are written. */
#include "functab.h"
#include <string.h>
#include "base/alloc.h"

static uint32_t name_hash(const char *s)
{
    uint64_t h = 0xCBF29CE484222325u;   /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001B3u;
    return (uint32_t)(h ^ h >> 32);
}

static const char *func_name(const Op *o)
{
    if (o->kind != OP_FUNC) return NULL;
    const Attr *a = op_attr(o, "sym_name");
    return a && a->s ? a->s : NULL;
}

static Op *body_first(const Op *module)
{
    return module->kind == OP_MODULE && module->nregions && module->regions[0]->block ? module->regions[0]->block->first
                                                                                       : NULL;
}

/* The op after o in a pre-order walk of the module bodies under root (nested modules entered, functions not),
   without recursion: the nesting of modules is the input's. */
static Op *tree_next(const Op *root, Op *o)
{
    if (o->kind == OP_MODULE && body_first(o)) return body_first(o);
    for (;;) {
        if (o->next) return o->next;
        Op *p = ir_parent_op(o);
        if (!p || p == root) return NULL;
        o = p;
    }
}

static Op *tree_first(const Op *root) { return body_first(root); }

int functab_build(FuncTab *t, const Op *root)
{
    memset(t, 0, sizeof *t);
    t->root = root;
    if (!root) return 0;
    uint32_t n = 0;
    for (Op *o = tree_first(root); o; o = tree_next(root, o)) n += func_name(o) != NULL;
    uint32_t nb = 16;
    while (nb < 2 * n) nb *= 2;
    t->ents = mem_alloc((n ? n : 1) * sizeof *t->ents);
    t->heads = mem_alloc(nb * sizeof *t->heads);
    if (!t->ents || !t->heads) {
        functab_free(t);
        t->root = root;
        t->oom = true;
        return -1;
    }
    t->mask = nb - 1;
    for (uint32_t i = 0; i < nb; i++) t->heads[i] = -1;
    for (Op *o = tree_first(root); o; o = tree_next(root, o)) {
        const char *name = func_name(o);
        if (name) t->ents[t->n++] = (FuncEnt){o, ir_parent_op(o), name, name_hash(name), -1};
    }
    /* chained from the last to the first, so each chain runs in textual order */
    for (uint32_t i = t->n; i-- > 0;) {
        uint32_t b = t->ents[i].hash & t->mask;
        t->ents[i].next = t->heads[b];
        t->heads[b] = (int32_t)i;
    }
    return 0;
}

void functab_free(FuncTab *t)
{
    mem_free(t->ents);
    mem_free(t->heads);
    memset(t, 0, sizeof *t);
}

static int32_t chain_from(const FuncTab *t, int32_t i, const char *name, uint32_t h)
{
    for (; i >= 0; i = t->ents[i].next)
        if (t->ents[i].hash == h && (t->ents[i].name == name || strcmp(t->ents[i].name, name) == 0)) return i;
    return -1;
}

static Op *scan_from(const FuncTab *t, Op *o, const char *name)
{
    for (; o; o = tree_next(t->root, o)) {
        const char *n = func_name(o);
        if (n && (n == name || strcmp(n, name) == 0)) return o;
    }
    return NULL;
}

Op *functab_first(const FuncTab *t, const char *name, FuncIter *it)
{
    it->i = -1;
    it->op = NULL;
    if (!t->root || !name) return NULL;
    if (!t->ents) return it->op = scan_from(t, tree_first(t->root), name);
    uint32_t h = name_hash(name);
    it->i = chain_from(t, t->heads[h & t->mask], name, h);
    return it->i < 0 ? NULL : t->ents[it->i].func;
}

Op *functab_next(const FuncTab *t, const char *name, FuncIter *it)
{
    if (!t->ents) return it->op ? (it->op = scan_from(t, tree_next(t->root, it->op), name)) : NULL;
    if (it->i < 0) return NULL;
    it->i = chain_from(t, t->ents[it->i].next, name, t->ents[it->i].hash);
    return it->i < 0 ? NULL : t->ents[it->i].func;
}

Op *functab_in_module(const FuncTab *t, const Op *module, const char *name)
{
    FuncIter it;
    for (Op *f = functab_first(t, name, &it); f; f = functab_next(t, name, &it))
        if (ir_parent_op(f) == module) return f;
    return NULL;
}

Op *functab_resolve(const FuncTab *t, const Op *from, const char *name)
{
    for (const Op *p = ir_parent_op(from); p; p = ir_parent_op(p))
        if (p->kind == OP_MODULE) {
            Op *f = functab_in_module(t, p, name);
            if (f) return f;
        }
    return NULL;
}
