/* module.c — the functions of a module, for callers that list them before choosing an entry
 * (pto_module_func*), and the parameter view a launch shares with them. */
#include "module.h"
#include "isa/ctx.h"
#include <string.h>

int api_param_info(struct PtoCtx *ctx, const Value *arg, PtoParamInfo *out)
{
    const Type *t = arg->type;
    char tn[128];
    ty_format(t, tn, sizeof tn);
    out->type = ctx_intern(ctx, tn, strlen(tn));
    out->name = arg->name;
    const Type *e = t->kind == TY_PTR ? t->elem : t;
    out->elem_bits = ty_bits(e);
    out->elem_code = e->kind == TY_FLOAT ? 'f' : (e->kind == TY_INT && e->bits == 1) ? 'b'
                   : (e->kind == TY_INT && e->sign == SIGN_U) ? 'u' : 'i';
    out->kind = t->kind == TY_PTR ? PTO_PARAM_PTR : t->kind == TY_FLOAT ? PTO_PARAM_FLOAT
              : (t->kind == TY_INT || t->kind == TY_INDEX) ? PTO_PARAM_INT : PTO_PARAM_OTHER;
    out->space = t->kind == TY_PTR ? as_name((AddrSpace)t->space) : NULL;
    if (out->type) return 0;
    diag_oom(&ctx->diags, 0);
    return -1;
}

/* The function with a body at position `want` in source order (counting in `seen`). */
typedef struct FuncAt { size_t want, seen; const Op *found; } FuncAt;

static int func_at(Op *o, void *ud)
{
    FuncAt *fa = ud;
    if (o->kind != OP_FUNC || !o->nregions) return 0;
    if (fa->seen++ == fa->want) {
        fa->found = o;
        return 1;
    }
    return 0;
}

static const Op *nth_func(const PtoModule *m, size_t i, size_t *count)
{
    FuncAt fa = {i, 0, NULL};
    if (m->top) ir_walk(m->top, func_at, &fa);
    if (count) *count = fa.seen;
    return fa.found;
}

size_t pto_module_func_count(const PtoModule *m)
{
    size_t n;
    nth_func(m, SIZE_MAX, &n);
    return n;
}

int pto_module_func(const PtoModule *m, size_t i, PtoFuncInfo *out)
{
    const Op *f = nth_func(m, i, NULL);
    if (!f) return -1;
    const Attr *s = op_attr(f, "sym_name");
    out->name = s ? s->s : NULL;
    out->is_kernel = op_is_kernel(f);
    out->nparams = f->regions[0]->block ? f->regions[0]->block->nargs : 0;
    out->file = f->loc.file;
    out->line = f->loc.line;
    out->col = f->loc.col;
    return 0;
}

int pto_module_func_param(const PtoModule *m, size_t i, unsigned j, PtoParamInfo *out)
{
    const Op *f = nth_func(m, i, NULL);
    const Block *b = f ? f->regions[0]->block : NULL;
    if (!b || j >= b->nargs) return -1;
    return api_param_info(m->ctx, b->args[j], out);
}
