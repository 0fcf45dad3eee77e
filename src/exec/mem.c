/* mem.c — checked memory access for every address space: bounds, alignment, and the hooks of the
 * race detector and the initialisation checker. Traps and warnings are reported by fault.c. */
#include "machine.h"
#include "race.h"
#include "check.h"
#include "gmview.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* GM buffers live 1 TiB apart in one 64-bit address space so pointer arithmetic stays plain. */
uint64_t sim_gm_base(unsigned index) { return (uint64_t)(index + 1) << 40; }

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
    if (p && (c->cl->watch || (as == AS_GM && c->cl->gm_watch))) sim_access(x, in, c, as, addr, len, sim_access_mode(x, what));
    return p;
}

/* An access to GM by a block running on a private view (gmview.h): logged for its commit. */
void sim_view_access(Exec *x, uint64_t addr, uint64_t len, int mode)
{
    const Sim *s = x->core->sim;
    uint64_t bi = (addr >> 40) - 1, off = addr & ((1ull << 40) - 1);
    if ((addr >> 40) == 0 || bi >= s->ngm || off >= s->gm[bi].size) return;
    uint64_t size = s->gm[bi].size;
    gmv_log(s->view, (uint32_t)bi, off, len > size - off ? size - off : len, mode);
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
            if (addr >= g->base && addr - g->base <= g->size && len <= g->size - (addr - g->base)) {
                if (!s->view) return g->data + (addr - g->base);
                uint8_t *p = gmv_map(s->view, i, addr - g->base, len);
                if (!p) sim_trap(x, in, DIAG_T_OOM, "out of host memory copying GM buffer '%s' for block %llu", g->name,
                                 (unsigned long long)c->block_idx);
                return p;
            }
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
