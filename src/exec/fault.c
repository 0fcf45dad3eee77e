/* fault.c — how the machine reports: traps (the run stops with a diagnostic naming the core, pipe and op)
 * and run-time warnings (once per op, optionally with a note at a related op), and the device output of
 * pto.print / pto.tprint (sim_out). */
#include "base/alloc.h"
#include "base/strbuf.h"
#include "machine.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void core_desc(const Core *c, char *b, size_t n)
{
    if (c->cl->ncores == 1) snprintf(b, n, "block %llu", (unsigned long long)c->block_idx);
    else snprintf(b, n, "block %llu %s", (unsigned long long)c->block_idx, core_label(c->type, (unsigned)c->subblock, 3));
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
    diag_add(s->diags, SEV_TRAP, id, loc, "%s: %s (%s)", opn, msg, who);
}

int sim_warned(const Exec *x, const Instr *in, DiagId id)
{
    const Sim *s = x->core->sim;
    for (unsigned i = 0; i < s->nwarned; i++)
        if (s->warned[i] == in && s->warned_id[i] == id) return 1;
    return s->nwarned == SIM_MAX_WARNED;
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
    long d = diag_add(s->diags, SEV_WARNING, id, loc, "%s (%s)", msg, who);
    sim_diag_key(s, d, DK_ONCE, in, NULL, id);
    return d;
}

void sim_warn_once(Exec *x, const Instr *in, DiagId id, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    warn_once(x, in, id, fmt, ap);
    va_end(ap);
}

long sim_warn_once_at(Exec *x, const Instr *in, DiagId id, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    long d = warn_once(x, in, id, fmt, ap);
    va_end(ap);
    return d;
}

void sim_warn_note(Exec *x, const Instr *in, DiagId id, const Instr *related, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    long d = warn_once(x, in, id, fmt, ap);
    va_end(ap);
    if (d >= 0 && related && related->op)
        diag_note(x->core->sim->diags, d, related->op->loc, "the earlier '%s' that set it is here",
                  op_info[related->kind].name);
}

/* ------------------------------------------------------------------ merging the blocks' diagnostics */

void sim_diag_key(Sim *s, long idx, int kind, const void *a, const void *b, DiagId id)
{
    if (idx < 0) return;
    if (s->ndkeys == s->capdkeys) {
        size_t cap = s->capdkeys ? s->capdkeys * 2 : 16;
        DiagKey *k = mem_realloc(s->dkeys, cap * sizeof *k);
        if (!k) {   /* the block's merge would keep a repeat: the run fails instead (T-OOM) */
            s->dkeys_oom = 1;
            return;
        }
        s->dkeys = k;
        s->capdkeys = cap;
    }
    s->dkeys[s->ndkeys++] = (DiagKey){idx, kind, a, b, id};
}

/* Is the diagnostic with key k a repeat of what the launch reported? Records it when not. The tests mirror
   warn_once (fault.c) and the race detector's pair list (race.c): a block on its own reports a subset of
   what it would report after the blocks before it, so filtering here gives the block-order result. */
static int repeat(SimReported *rep, const DiagKey *k)
{
    if (k->kind == DK_ONCE) {
        for (unsigned i = 0; i < rep->nwarned; i++)
            if (rep->warned[i] == k->a && rep->warned_id[i] == k->id) return 1;
        if (rep->nwarned == SIM_MAX_WARNED) return 1;
        rep->warned_id[rep->nwarned] = k->id;
        rep->warned[rep->nwarned++] = k->a;
        return 0;
    }
    for (unsigned i = 0; i < rep->npairs; i++)
        if ((rep->pairs[i][0] == k->a && rep->pairs[i][1] == k->b) || (rep->pairs[i][0] == k->b && rep->pairs[i][1] == k->a))
            return 1;
    if (rep->npairs == SIM_MAX_PAIRS) return 1;
    rep->pairs[rep->npairs][0] = k->a;
    rep->pairs[rep->npairs][1] = k->b;
    rep->npairs++;
    return 0;
}

void sim_diags_merge(DiagList *dst, SimReported *rep, const DiagList *src, const DiagKey *keys, size_t nkeys)
{
    size_t k = 0;
    for (size_t i = 0; i < src->n; i++) {
        const Diag *g = &src->items[i];
        while (k < nkeys && keys[k].idx < (long)i) k++;
        if (k < nkeys && keys[k].idx == (long)i && repeat(rep, &keys[k])) continue;
        long d = diag_add(dst, g->sev, g->id, g->loc, "%s", diag_msg(g));
        for (size_t j = 0; j < g->nnotes; j++) diag_note(dst, d, g->notes[j].loc, "%s", g->notes[j].msg);
    }
}

/* ------------------------------------------------------------------ device output */

void sim_out(Exec *x, const char *s, size_t n)
{
    StrBuf *b = x->core->sim->out;
    static const char cut[] = "\n[ptosim: the device output of this block stops here: it reached 4 MiB]\n";
    if (!b || b->n >= SIM_OUT_CAP) return;
    if (n > SIM_OUT_CAP - b->n) {
        sb_putn(b, s, SIM_OUT_CAP - b->n);
        sb_puts(b, cut);
        return;
    }
    sb_putn(b, s, n);
}

int sim_out_buf(Exec *x, const Instr *in, StrBuf *b)
{
    int failed = b->failed;
    if (!failed) sim_out(x, b->s ? b->s : "", b->n);
    sb_free(b);
    if (failed) sim_trap(x, in, DIAG_T_OOM, "out of host memory for the device output");
    return failed ? -1 : 0;
}
