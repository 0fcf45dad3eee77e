/* mem.c — checked memory access for every address space: bounds, alignment, and the hooks of the
 * race detector and the initialisation checker (GM: gm.c). Traps and warnings are reported by fault.c. */
#include "machine.h"
#include "race.h"
#include "check.h"
#include "gmview.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>


static const char *const space_long[AS__COUNT] = {
    "GM", "UB (unified buffer)", "L1", "L0A", "L0B", "L0C", "BT (bias table)", "FB (fixpipe buffer)",
};

static uint8_t *checked(Exec *x, Core *c, const Instr *in, AddrSpace as, uint64_t addr, uint64_t len, unsigned align,
                        int mode, const char *what);

uint8_t *sim_mem_core(Exec *x, Core *c, const Instr *in, AddrSpace as, uint64_t addr, uint64_t len, unsigned align,
                      int mode, const char *what)
{
    uint8_t *p = checked(x, c, in, as, addr, len, align, mode, what);
    if (p && (c->cl->watch || (as == AS_GM && c->cl->gm_watch))) sim_access(x, in, c, as, addr, len, mode);
    return p;
}

uint8_t *sim_mem_span(Exec *x, Core *c, const Instr *in, AddrSpace as, uint64_t addr, uint64_t len, unsigned align,
                      int mode, const char *what)
{
    return checked(x, c, in, as, addr, len, align, mode, what);
}

/* An access to GM by a block running on a private view (gmview.h): logged for its commit. */
void sim_view_access(Exec *x, uint64_t addr, uint64_t len, int mode)
{
    if (addr >= SIM_GM_BASE) gmv_log(x->core->sim->view, addr - SIM_GM_BASE, len, mode);
}

static uint8_t *checked(Exec *x, Core *c, const Instr *in, AddrSpace as, uint64_t addr, uint64_t len, unsigned align,
                        int mode, const char *what)
{
    /* an address computed past 2^64 (sim_index_addr), or a range whose end passes 2^64: never wrapped */
    if (addr == SIM_ADDR_WRAP || len > UINT64_MAX - addr) {
        if (addr == SIM_ADDR_WRAP)
            sim_trap(x, in, DIAG_T_WRAP, "%s address wraps around 2^64: pointer + index x element size is not a "
                     "64-bit address (it would alias another element)", what);
        else
            sim_trap(x, in, DIAG_T_WRAP, "%s bytes at %" PRIu64 " (0x%" PRIx64 "), %" PRIu64 " (0x%" PRIx64 ") of "
                     "them, end past 2^64", what, addr, addr, len, len);
        return NULL;
    }
    /* sizes and offsets: decimal, then hex in parentheses (the library's number style) */
    if (align > 1 && (addr % align) != 0) {
        sim_trap(x, in, DIAG_T_MISALIGNED, "%s address %" PRIu64 " (0x%" PRIx64 ") in %s is not %u-byte aligned", what,
                 addr, addr, space_long[as], align);
        return NULL;
    }
    if (as == AS_GM) return sim_gm_access(x, in, addr, len, mode, what);
    uint64_t sz = c->memsz[as];
    if (addr > sz || len > sz - addr) {
        sim_trap(x, in, DIAG_T_OOB, "%s bytes [%" PRIu64 ", %" PRIu64 ") ([0x%" PRIx64 ", 0x%" PRIx64 ")) lie outside the "
                 "%" PRIu64 " (0x%" PRIx64 ") bytes of %s", what, addr, addr + len, addr, addr + len, sz, sz, space_long[as]);
        return NULL;
    }
    return c->mem[as] + addr;
}

uint8_t *sim_mem(Exec *x, const Instr *in, AddrSpace as, uint64_t addr, uint64_t len, unsigned align, int mode,
                 const char *what)
{
    return sim_mem_core(x, x->core, in, as, addr, len, align, mode, what);
}
