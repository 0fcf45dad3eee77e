/* fault.c — how the machine reports: traps (the run stops with a diagnostic naming the core, pipe and op)
 * and run-time warnings (once per op, optionally with a note at a related op). */
#include "machine.h"
#include <stdarg.h>
#include <stdio.h>

static void core_desc(const Core *c, char *b, size_t n)
{
    if (c->cl->ncores == 1) snprintf(b, n, "block %llu", (unsigned long long)c->block_idx);
    else if (c->type == CORE_AIC) snprintf(b, n, "block %llu AIC", (unsigned long long)c->block_idx);
    else snprintf(b, n, "block %llu AIV%d", (unsigned long long)c->block_idx, c->subblock);
}

void sim_trap(Exec *x, const Instr *in, DiagId id, const char *fmt, ...)
{
    Sim *s = x->core->sim;
    if (s->trapped) return;
    s->trapped = 1;
    char msg[512], who[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    core_desc(x->core, who, sizeof who);
    SrcLoc loc = in && in->op ? in->op->loc : (SrcLoc){0, 0, 0};
    const char *opn = in && in->op ? op_info[in->op->kind].name : "kernel";
    diag_add(&s->ctx->diags, SEV_TRAP, id, loc, "%s: %s (%s)", opn, msg, who);
}

int sim_warned(const Exec *x, const Instr *in, DiagId id)
{
    const Sim *s = x->core->sim;
    for (unsigned i = 0; i < s->nwarned; i++)
        if (s->warned[i] == in && s->warned_id[i] == id) return 1;
    return s->nwarned == sizeof s->warned / sizeof s->warned[0];
}

/* A run-time warning at `in`, once per op, ID and run; returns its index for notes, or -1. */
static long warn_once(Exec *x, const Instr *in, DiagId id, const char *fmt, va_list ap)
{
    Sim *s = x->core->sim;
    if (sim_warned(x, in, id)) return -1;
    s->warned_id[s->nwarned] = id;
    s->warned[s->nwarned++] = in;
    char msg[512], who[64];
    vsnprintf(msg, sizeof msg, fmt, ap);
    core_desc(x->core, who, sizeof who);
    SrcLoc loc = in && in->op ? in->op->loc : (SrcLoc){0, 0, 0};
    return diag_add(&s->ctx->diags, SEV_WARNING, id, loc, "%s (%s)", msg, who);
}

void sim_warn_once(Exec *x, const Instr *in, DiagId id, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    warn_once(x, in, id, fmt, ap);
    va_end(ap);
}

void sim_warn_note(Exec *x, const Instr *in, DiagId id, const Instr *related, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    long d = warn_once(x, in, id, fmt, ap);
    va_end(ap);
    if (d >= 0 && related && related->op)
        diag_note(&x->core->sim->ctx->diags, d, related->op->loc, "the earlier '%s' that set it is here",
                  op_info[related->kind].name);
}
