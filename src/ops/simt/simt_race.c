/* simt_race.c — the race checker between the workitems of one launch (docs/simt.md, "Races between
 * workitems"). pto.syncthreads divides a launch into epochs; within an epoch nothing orders two workitems.
 * Every UB/GM byte a workitem touches keeps its last writer and up to two readers of the current epoch;
 * an access that meets another workitem's write, or a write that meets another workitem's read, in the
 * same epoch is W-RACE — unless both accesses are atomic. The verdict does not depend on the order the
 * scheduler happens to run the workitems in. */
#include "simt_int.h"
#include "base/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct SimtShadow {
    uint64_t key;              /* (space << 56 | address) + 1; 0 = empty */
    uint32_t gen;              /* the launch that wrote the entry (older = empty) */
    uint32_t w_epoch, r_epoch;
    int32_t w_tid, r_tid, r2_tid;   /* -1 = none */
    uint8_t w_atomic, r_atomic;     /* r_atomic: every recorded read of the epoch was atomic */
    const Instr *w_in, *r_in, *r2_in;
};

void simt_race_begin(SimtState *st)
{
    SimtRace *r = &st->race;
    r->off = 0;
    r->n = 0;
    /* a new generation empties the table without touching it */
    if (++r->gen == 0) {   /* wrapped: really clear */
        if (r->tab) memset(r->tab, 0, sizeof *r->tab * r->cap);
        r->gen = 1;
    }
}

void simt_race_free(SimtState *st)
{
    mem_free(st->race.tab);
    st->race.tab = NULL;
    st->race.cap = 0;
}

static uint32_t hash(uint64_t k) { return (uint32_t)((k * 0x9E3779B97F4A7C15ull) >> 32); }

static int grow(SimtRace *r, uint32_t gen)
{
    uint32_t cap = r->cap ? r->cap * 2 : 4096;
    SimtShadow *t = mem_calloc(cap, sizeof *t);
    if (!t) return -1;
    for (uint32_t i = 0; i < r->cap; i++) {
        SimtShadow *e = &r->tab[i];
        if (!e->key || e->gen != gen) continue;
        uint32_t j = hash(e->key) & (cap - 1);
        while (t[j].key) j = (j + 1) & (cap - 1);
        t[j] = *e;
    }
    mem_free(r->tab);
    r->tab = t;
    r->cap = cap;
    return 0;
}

static SimtShadow *lookup(SimtRace *r, uint64_t key, uint32_t gen)
{
    if (r->n * 2 >= r->cap && grow(r, gen)) return NULL;
    uint32_t j = hash(key) & (r->cap - 1);
    for (;;) {
        SimtShadow *e = &r->tab[j];
        if (!e->key || e->gen != gen) {
            memset(e, 0, sizeof *e);
            e->key = key;
            e->gen = gen;
            e->w_tid = e->r_tid = e->r2_tid = -1;
            e->w_epoch = e->r_epoch = UINT32_MAX;
            r->n++;
            return e;
        }
        if (e->key == key) return e;
        j = (j + 1) & (r->cap - 1);
    }
}

static void report(Exec *x, const Instr *in, uint32_t tid, int write, int32_t other, const Instr *oin, int owrite,
                   AddrSpace as, uint64_t addr)
{
    DiagList *d = x->core->sim->diags;
    size_t n0 = d->n;
    sim_warn_once(x, in, DIAG_T_RACE, "SIMT workitem %u %s %s byte 0x%llx that workitem %d %s, with no pto.syncthreads "
                  "between them", tid, write ? "writes" : "reads", as == AS_GM ? "GM" : "UB", (unsigned long long)addr,
                  other, owrite ? "wrote" : "read");
    if (d->n > n0 && oin && oin->op)
        diag_note(d, (long)n0, oin->op->loc, "workitem %d %s it here", other, owrite ? "wrote" : "read");
}

void simt_race_access(Exec *x, const Instr *in, AddrSpace as, uint64_t addr, uint64_t len, int write, int atomic)
{
    SimtState *st = x->core->simt;
    if (!st || !st->cur || x != &st->cur->x || !x->core->sim->race_check || st->race.off) return;
    SimtRace *r = &st->race;
    uint32_t tid = st->cur->tid, E = st->epoch, gen = r->gen;
    int reported = 0;
    for (uint64_t b = 0; b < len; b++) {
        SimtShadow *e = lookup(r, ((uint64_t)as << 56 | (addr + b)) + 1, gen);
        if (!e) {   /* out of memory: the run fails (T-OOM) rather than go on unchecked */
            r->off = 1;
            sim_trap(x, in, DIAG_T_OOM, "out of host memory for the SIMT race detector");
            return;
        }
        if (!reported) {
            if (e->w_tid >= 0 && e->w_epoch == E && (uint32_t)e->w_tid != tid && !(atomic && e->w_atomic)) {
                report(x, in, tid, write, e->w_tid, e->w_in, 1, as, addr + b);
                reported = 1;
            } else if (write && e->r_epoch == E && !(atomic && e->r_atomic)) {
                bool first = e->r_tid >= 0 && (uint32_t)e->r_tid != tid;
                int32_t o = first ? e->r_tid : e->r2_tid >= 0 && (uint32_t)e->r2_tid != tid ? e->r2_tid : -1;
                if (o >= 0) {
                    report(x, in, tid, write, o, first ? e->r_in : e->r2_in, 0, as, addr + b);
                    reported = 1;
                }
            }
        }
        if (write) {
            e->w_tid = (int32_t)tid;
            e->w_epoch = E;
            e->w_atomic = (uint8_t)atomic;
            e->w_in = in;
            e->r_tid = e->r2_tid = -1;
            e->r_epoch = UINT32_MAX;
        } else if (e->r_epoch != E) {
            e->r_epoch = E;
            e->r_tid = (int32_t)tid;
            e->r2_tid = -1;
            e->r_atomic = (uint8_t)atomic;
            e->r_in = in;
        } else if ((uint32_t)e->r_tid != tid) {
            if (e->r2_tid < 0) {
                e->r2_tid = (int32_t)tid;
                e->r2_in = in;
            }
            e->r_atomic &= (uint8_t)atomic;
        }
    }
}
