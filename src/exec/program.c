/* program.c — the lowering view's helpers (program.h) and the program's lifetime. */
#include "program.h"
#include "base/alloc.h"
#include <stdarg.h>
#include <stdlib.h>

const OpSig *lw_sig(LowerView *L, const Op *op) { return ctx_sig(L->ctx, op->kind); }

int lw_group_index(LowerView *L, const Op *op, const char *group, unsigned j)
{
    const OpSig *s = lw_sig(L, op);
    int g = sig_group(s, group);
    if (g < 0 || !op->segs || j >= op->segs[g]) return -1;
    return (int)(op_group_start(op, (unsigned)g) + j);
}

void lw_error(LowerView *L, const Op *op, DiagId id, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_addv(&L->ctx->diags, SEV_ERROR, id, op ? op->loc : (SrcLoc){0, 0, 0}, fmt, ap);
    va_end(ap);
    L->failed = 1;
}

void *lw_alloc(LowerView *L, const Op *op, size_t n)
{
    void *p = arena_try_alloc(&L->prog->arena, n);
    if (!p) lw_error(L, op, DIAG_OOM, "out of memory lowering '%s'", op ? op_info[op->kind].name : "the kernel");
    return p;
}

void program_free(Program *p)
{
    if (!p) return;
    arena_free(&p->arena);
    mem_free(p);
}
