/* mem.c — checked memory access for every address space, and run-time traps. */
#include "machine.h"
#include "race.h"
#include "check.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* GM buffers live 1 TiB apart in one 64-bit address space so pointer arithmetic stays plain. */
uint64_t sim_gm_base(unsigned index) { return (uint64_t)(index + 1) << 40; }

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

int sim_warned(const Exec *x, const Instr *in)
{
    const Sim *s = x->core->sim;
    for (unsigned i = 0; i < s->nwarned; i++)
        if (s->warned[i] == in) return 1;
    return s->nwarned == sizeof s->warned / sizeof s->warned[0];
}

/* A run-time warning at `in`, once per op and run; returns its index for notes, or -1. */
static long warn_once(Exec *x, const Instr *in, DiagId id, const char *fmt, va_list ap)
{
    Sim *s = x->core->sim;
    for (unsigned i = 0; i < s->nwarned; i++)
        if (s->warned[i] == in) return -1;
    if (s->nwarned == sizeof s->warned / sizeof s->warned[0]) return -1;
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

static const char *const space_long[AS__COUNT] = {
    "GM", "UB (unified buffer)", "L1", "L0A", "L0B", "L0C", "BT (bias table)", "FB (fixpipe buffer)",
};

/* Accesses whose description names a destination are writes (atomic ones when it says so); the rest
   (sources, parameters, priming blocks) are reads. The descriptions are string constants: a few recent
   ones and their modes are remembered per agent. */
int sim_access_mode(Exec *x, const char *what)
{
    unsigned k = (unsigned)((uintptr_t)what >> 3) & 3u;
    if (what == x->what_last[k]) return x->what_mode[k];
    int m = !strstr(what, "destination") ? ACC_READ : strstr(what, "atomic") ? ACC_ATOMIC : ACC_WRITE;
    x->what_last[k] = what;
    x->what_mode[k] = m;
    return m;
}



static uint8_t *checked(Exec *x, Core *c, const Instr *in, AddrSpace as, uint64_t addr, uint64_t len, unsigned align,
                        const char *what);

uint8_t *sim_mem_core(Exec *x, Core *c, const Instr *in, AddrSpace as, uint64_t addr, uint64_t len, unsigned align,
                      const char *what)
{
    uint8_t *p = checked(x, c, in, as, addr, len, align, what);
    if (p && c->cl->watch) sim_access(x, in, c, as, addr, len, sim_access_mode(x, what));
    return p;
}

static uint8_t *checked(Exec *x, Core *c, const Instr *in, AddrSpace as, uint64_t addr, uint64_t len, unsigned align,
                        const char *what)
{
    Sim *s = c->sim;
    /* sizes and offsets: decimal, then hex in parentheses (the library's number style) */
    if (align > 1 && (addr % align) != 0) {
        sim_trap(x, in, DIAG_T_MISALIGNED, "%s address %" PRIu64 " (0x%" PRIx64 ") in %s is not %u-byte aligned", what,
                 addr, addr, space_long[as], align);
        return NULL;
    }
    if (as == AS_GM) {
        for (uint32_t i = 0; i < s->ngm; i++) {
            const GmBuf *g = &s->gm[i];
            if (addr >= g->base && addr - g->base <= g->size && len <= g->size - (addr - g->base))
                return g->data + (addr - g->base);
        }
        for (uint32_t i = 0; i < s->ngm; i++) {
            const GmBuf *g = &s->gm[i];
            if (addr >= g->base && addr < g->base + (1ull << 40)) {
                uint64_t o = addr - g->base;
                sim_trap(x, in, DIAG_T_OOB, "%s bytes [%" PRIu64 ", %" PRIu64 ") ([0x%" PRIx64 ", 0x%" PRIx64 ")) of GM "
                         "buffer '%s' lie outside its %" PRIu64 " (0x%" PRIx64 ") bytes", what, o, o + len, o, o + len,
                         g->name, g->size, g->size);
                return NULL;
            }
        }
        sim_trap(x, in, DIAG_T_OOB, "%s GM address %" PRIu64 " (0x%" PRIx64 "), %" PRIu64 " (0x%" PRIx64 ") bytes, is "
                 "not inside any kernel buffer", what, addr, addr, len, len);
        return NULL;
    }
    uint64_t sz = c->memsz[as];
    if (addr > sz || len > sz - addr) {
        sim_trap(x, in, DIAG_T_OOB, "%s bytes [%" PRIu64 ", %" PRIu64 ") ([0x%" PRIx64 ", 0x%" PRIx64 ")) lie outside the "
                 "%" PRIu64 " (0x%" PRIx64 ") bytes of %s", what, addr, addr + len, addr, addr + len, sz, sz, space_long[as]);
        return NULL;
    }
    return c->mem[as] + addr;
}

uint8_t *sim_mem(Exec *x, const Instr *in, AddrSpace as, uint64_t addr, uint64_t len, unsigned align, const char *what)
{
    return sim_mem_core(x, x->core, in, as, addr, len, align, what);
}
