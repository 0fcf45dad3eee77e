/* simt_race.c — the race checker between the workitems of one launch (docs/simt.md, "Races between
 * workitems"). pto.syncthreads divides a launch into epochs; within an epoch nothing orders two workitems.
 * Every UB/GM byte a workitem touches keeps its last writer and up to two readers of the current epoch (one
 * entry per aligned word while the word's bytes are accessed together);
 * an access that meets another workitem's write, or a write that meets another workitem's read, in the
 * same epoch is W-RACE — unless both accesses are atomic. The verdict does not depend on the order the
 * scheduler happens to run the workitems in. */
#include "simt_int.h"
#include "base/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct SimtShadow {
    uint64_t key;              /* byte entries (the hash): (space << 56 | BYTE_KEY | address) + 1; 0 = empty */
    uint32_t gen;              /* the launch that wrote the entry (older = empty) */
    uint32_t w_epoch, r_epoch;
    int32_t w_tid, r_tid, r2_tid;   /* -1 = none */
    uint8_t w_atomic, r_atomic;     /* r_atomic: every recorded read of the epoch was atomic */
    uint8_t split;             /* a word entry whose bytes have their own entries (BYTE_KEY) from now on */
    const Instr *w_in, *r_in, *r2_in;
};

/* Keys of byte entries (the bytes of split words); word keys hold the word index (address / 4). */
#define BYTE_KEY (1ull << 62)

static void free_pool(SimtRace *r)
{
    while (r->pool) {
        SimtShadow *next = (SimtShadow *)(uintptr_t)r->pool[0].key;
        mem_free(r->pool);
        r->pool = next;
    }
}

void simt_race_begin(SimtState *st)
{
    SimtRace *r = &st->race;
    r->off = 0;
    r->n = 0;
    /* a new generation empties the tables without touching them */
    /* the pages go back to the pool: the next launch takes them for whatever addresses it touches (a block's
       buffers are elsewhere than the last one's), without faulting in fresh memory */
    for (uint32_t i = 0; i < r->dcap; i++) {
        if (!r->dir[i].key) continue;
        r->dir[i].e[0].key = (uint64_t)(uintptr_t)r->pool;
        r->pool = r->dir[i].e;
        r->dir[i] = (SimtPage){0, NULL};
    }
    r->dn = 0;
    r->last = (SimtPage){0, NULL};
    if (++r->gen == 0) {   /* wrapped: really clear (the pooled pages are freed) */
        if (r->tab) memset(r->tab, 0, sizeof *r->tab * r->cap);
        if (r->ub) memset(r->ub, 0, sizeof *r->ub * r->ub_words);
        free_pool(r);
        r->gen = 1;
    }
}

void simt_race_free(SimtState *st)
{
    mem_free(st->race.tab);
    st->race.tab = NULL;
    st->race.cap = 0;
    mem_free(st->race.ub);
    st->race.ub = NULL;
    st->race.ub_words = 0;
    for (uint32_t i = 0; i < st->race.dcap; i++)
        if (st->race.dir[i].key) mem_free(st->race.dir[i].e);
    mem_free(st->race.dir);
    st->race.dir = NULL;
    st->race.dcap = st->race.dn = 0;
    st->race.last = (SimtPage){0, NULL};
    free_pool(&st->race);
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

static void fresh(SimtShadow *e, uint64_t key, uint32_t gen)
{
    /* one structure store (no memset call: this runs once per word and launch) */
    *e = (SimtShadow){.key = key, .gen = gen, .w_epoch = UINT32_MAX, .r_epoch = UINT32_MAX, .w_tid = -1, .r_tid = -1,
                      .r2_tid = -1};
}

/* The hash entry of `key`, created empty when absent; NULL when out of memory. Growing moves the entries:
   a pointer from an earlier lookup is stale after this one. */
static SimtShadow *lookup(SimtRace *r, uint64_t key, uint32_t gen)
{
    if (r->n * 2 >= r->cap && grow(r, gen)) return NULL;
    uint32_t j = hash(key) & (r->cap - 1);
    for (;;) {
        SimtShadow *e = &r->tab[j];
        if (!e->key || e->gen != gen) {
            fresh(e, key, gen);
            r->n++;
            return e;
        }
        if (e->key == key) return e;
        j = (j + 1) & (r->cap - 1);
    }
}

/* The page directory: finds (or adds, with its entries allocated) the page `key`. NULL when out of memory. */
static SimtShadow *page(SimtRace *r, uint64_t key)
{
    if (r->last.key == key) return r->last.e;
    if (r->dn * 2 >= r->dcap) {
        uint32_t cap = r->dcap ? r->dcap * 2 : 64;
        SimtPage *d = mem_calloc(cap, sizeof *d);
        if (!d) return NULL;
        for (uint32_t i = 0; i < r->dcap; i++) {
            if (!r->dir[i].key) continue;
            uint32_t j = hash(r->dir[i].key) & (cap - 1);
            while (d[j].key) j = (j + 1) & (cap - 1);
            d[j] = r->dir[i];
        }
        mem_free(r->dir);
        r->dir = d;
        r->dcap = cap;
    }
    uint32_t j = hash(key) & (r->dcap - 1);
    while (r->dir[j].key && r->dir[j].key != key) j = (j + 1) & (r->dcap - 1);
    if (!r->dir[j].key) {
        SimtShadow *e = r->pool;   /* a pooled page's entries are of older launches: empty */
        if (e) r->pool = (SimtShadow *)(uintptr_t)e[0].key;
        else if (!(e = mem_calloc(SIMT_SHADOW_PAGE, sizeof *e))) return NULL;
        r->dir[j] = (SimtPage){key, e};
        r->dn++;
    }
    r->last = r->dir[j];
    return r->last.e;
}

/* The entry of word w (address / 4) of space `as`: UB's in the direct-mapped array, the others' in their page. */
static SimtShadow *word_entry(Exec *x, SimtRace *r, AddrSpace as, uint64_t w, uint32_t gen)
{
    SimtShadow *e = NULL;
    if (as == AS_UB) {
        uint64_t words = (x->core->memsz[AS_UB] + 3) / 4;
        if (!r->ub || r->ub_words < words) {
            mem_free(r->ub);
            r->ub_words = 0;
            if (!(r->ub = mem_calloc(words, sizeof *r->ub))) return NULL;
            r->ub_words = words;
        }
        if (w < r->ub_words) e = &r->ub[w];   /* always: the access was bounds-checked */
    }
    if (!e) {
        SimtShadow *p = page(r, ((uint64_t)as << 56 | w / SIMT_SHADOW_PAGE) + 1);
        if (!p) return NULL;
        e = &p[w % SIMT_SHADOW_PAGE];
    }
    if (e->gen != gen) fresh(e, 0, gen);
    return e;
}

static SimtShadow *byte_entry(SimtRace *r, AddrSpace as, uint64_t addr, uint32_t gen)
{
    return lookup(r, ((uint64_t)as << 56 | BYTE_KEY | addr) + 1, gen);
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

/* One access by workitem tid in epoch E to the bytes e stands for (all in the same state), the first of them at
   `addr`: reports the first conflict of the access (*reported), then records it. */
static void apply(Exec *x, const Instr *in, SimtShadow *e, uint32_t tid, uint32_t E, int write, int atomic, AddrSpace as,
                  uint64_t addr, int *reported)
{
    if (!*reported) {
        if (e->w_tid >= 0 && e->w_epoch == E && (uint32_t)e->w_tid != tid && !(atomic && e->w_atomic)) {
            report(x, in, tid, write, e->w_tid, e->w_in, 1, as, addr);
            *reported = 1;
        } else if (write && e->r_epoch == E && !(atomic && e->r_atomic)) {
            bool first = e->r_tid >= 0 && (uint32_t)e->r_tid != tid;
            int32_t o = first ? e->r_tid : e->r2_tid >= 0 && (uint32_t)e->r2_tid != tid ? e->r2_tid : -1;
            if (o >= 0) {
                report(x, in, tid, write, o, first ? e->r_in : e->r2_in, 0, as, addr);
                *reported = 1;
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

/* Gives word w's 4 bytes entries of their own, each in the word's state. 0, or -1 out of memory. */
static int split_word(Exec *x, SimtRace *r, AddrSpace as, uint64_t w, uint32_t gen)
{
    SimtShadow *e = word_entry(x, r, as, w, gen);
    if (!e) return -1;
    SimtShadow st = *e;
    for (unsigned k = 0; k < 4; k++) {
        SimtShadow *b = byte_entry(r, as, w * 4 + k, gen);
        if (!b) return -1;
        uint64_t key = b->key;
        *b = st;
        b->key = key;
        b->split = 0;
    }
    if (!(e = word_entry(x, r, as, w, gen))) return -1;   /* the hash may have moved */
    e->split = 1;
    return 0;
}

/* Per byte, the verdict and the recorded state are those of a shadow entry per byte: the bytes of an unsplit word
   always share one state, so a whole-word access treats them at once (and its first conflicting byte is the
   word's first). */
void simt_race_access(Exec *x, const Instr *in, AddrSpace as, uint64_t addr, uint64_t len, int write, int atomic)
{
    SimtState *st = x->core->simt;
    if (!st || !st->cur || x != &st->cur->x || !x->core->sim->race_check || st->race.off) return;
    SimtRace *r = &st->race;
    uint32_t tid = st->cur->tid, E = st->epoch, gen = r->gen;
    int reported = 0;
    for (uint64_t a = addr, end = addr + len; a < end;) {
        uint64_t w = a >> 2, hi = (w + 1) * 4 < end ? (w + 1) * 4 : end;
        SimtShadow *e = word_entry(x, r, as, w, gen);
        if (e && !e->split && a == w * 4 && hi == a + 4) {
            apply(x, in, e, tid, E, write, atomic, as, a, &reported);
            a = hi;
            continue;
        }
        if (e && !e->split && split_word(x, r, as, w, gen)) e = NULL;
        for (; e && a < hi; a++) {
            SimtShadow *b = byte_entry(r, as, a, gen);
            if (!b) e = NULL;
            else apply(x, in, b, tid, E, write, atomic, as, a, &reported);
        }
        if (!e) {   /* out of memory: the run fails (T-OOM) rather than go on unchecked */
            r->off = 1;
            sim_trap(x, in, DIAG_T_OOM, "out of host memory for the SIMT race detector");
            return;
        }
    }
}

/* simt_race_access for the lanes[0..cnt) of one lockstep access, lane j at a0 + n·j (consecutive words when n is
   4 and a0 aligned: one entry each, looked up without the per-call checks), in lane order as the per-workitem
   calls would be. */
void simt_race_span(SimtState *st, const Instr *in, AddrSpace as, uint64_t a0, unsigned n, const uint16_t *lanes,
                    uint32_t cnt, int write)
{
    SimtRace *r = &st->race;
    if (!cnt || r->off) return;
    Sim *s = st->items[lanes[0]].x.core->sim;
    if (!s->race_check) return;
    if (n != 4 || a0 % 4) {
        for (uint32_t j = 0; j < cnt && !s->trapped; j++) {
            SimtItem *it = &st->items[lanes[j]];
            st->cur = it;
            simt_race_access(&it->x, in, as, a0 + (uint64_t)n * j, n, write, 0);
        }
        st->cur = NULL;
        return;
    }
    uint32_t E = st->epoch, gen = r->gen;
    SimtShadow *pg = NULL;
    uint64_t pgno = UINT64_MAX;
    for (uint32_t j = 0; j < cnt; j++) {
        SimtItem *it = &st->items[lanes[j]];
        uint64_t a = a0 + 4ull * j, w = a >> 2;
        SimtShadow *e;
        if (as == AS_UB && r->ub && w < r->ub_words) {   /* the direct-mapped UB words (word_entry made them) */
            e = &r->ub[w];
            if (e->gen != gen) fresh(e, 0, gen);
        } else if (as != AS_UB && pg && w / SIMT_SHADOW_PAGE == pgno) {   /* the page of the previous lane */
            e = &pg[w % SIMT_SHADOW_PAGE];
            if (e->gen != gen) fresh(e, 0, gen);
        } else {
            e = word_entry(&it->x, r, as, w, gen);
            if (e && as != AS_UB) {
                pg = e - w % SIMT_SHADOW_PAGE;
                pgno = w / SIMT_SHADOW_PAGE;
            }
        }
        if (!e) {   /* out of memory: the run fails (T-OOM) rather than go on unchecked */
            st->cur = it;
            r->off = 1;
            sim_trap(&it->x, in, DIAG_T_OOM, "out of host memory for the SIMT race detector");
            st->cur = NULL;
            return;
        }
        if (e->split) {   /* bytes of their own: the general path */
            st->cur = it;
            simt_race_access(&it->x, in, as, a, 4, write, 0);
            st->cur = NULL;
            if (s->trapped) return;
            continue;
        }
        int reported = 0;
        apply(&it->x, in, e, it->tid, E, write, 0, as, a, &reported);
    }
}
