/* check.c — initcheck, unwritten outputs and races between blocks (check.h).
 *
 * initcheck keeps one bit per byte of every on-chip buffer of the block's cores: set by any write (DMA
 * padding included), tested by every read; a read of a clear bit is W-UNINIT at the reading op, once per
 * op, naming the first unwritten range. GM is not checked: the host wrote every bound buffer.
 * Unwritten outputs keep one bit per byte of every GM buffer given an output; the clear runs at the end are
 * W-UNWRITTEN at the parameter.
 * Races between blocks: blocks run concurrently on hardware and share GM with no ordering but atomics. Each
 * block's GM accesses are logged (coalesced intervals); at the end of the launch the logs are replayed in
 * block order over per-byte records of the last plain writer and the range of other accessors, so the
 * result does not depend on how ptosim ran the blocks. Two accesses of different blocks to a byte, at
 * least one a plain write, are W-RACE at the later block's op with a note at the earlier one; atomic
 * accumulations from several blocks are not. A pto.syncall barrier orders what the blocks did before it before
 * what they do after it: each access carries its core's count of passed barriers (its epoch), and only accesses
 * of one epoch can race. */
#include "check.h"
#include "base/alloc.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct GmAcc {
    uint32_t block;
    uint32_t buf;
    uint32_t epoch;            /* pto.syncall barriers its core had passed: accesses of different epochs are ordered */
    uint8_t mode;              /* ACC_READ, ACC_WRITE, ACC_ATOMIC */
    uint64_t lo, hi;           /* offsets in the buffer */
    const Instr *in;
} GmAcc;

struct Check {
    uint8_t *init[3][AS__COUNT];       /* per core of the cluster, per on-chip space: written bits */
    uint64_t initsz[3][AS__COUNT];
    uint8_t dirty[3][AS__COUNT];
    uint8_t **out;                     /* per GM buffer: written bits, or NULL when not an output (launch) */
    uint64_t *outsz;
    uint32_t ngm;
    const Check *launch;               /* a block's checks: the launch's, whose outputs it logs writes to */
    GmAcc *log;
    size_t nlog, caplog;
    int oom;
    uint32_t hint[64];                 /* per hash of (op, buffer, mode): the record it last added (index + 1) */
};

Check *check_new(void) { return mem_calloc(1, sizeof(Check)); }
int check_oom(const Check *k) { return k && k->oom; }

static void free_outputs(Check *k)
{
    for (uint32_t i = 0; k->out && i < k->ngm; i++) mem_free(k->out[i]);
    mem_free(k->out);
    mem_free(k->outsz);
    k->out = NULL;
    k->outsz = NULL;
    k->ngm = 0;
}

void check_free(Check *k)
{
    if (!k) return;
    for (int c = 0; c < 3; c++)
        for (int a = 0; a < AS__COUNT; a++) mem_free(k->init[c][a]);
    free_outputs(k);
    mem_free(k->log);
    mem_free(k);
}

int check_launch_begin(Check *k, const Sim *s)
{
    free_outputs(k);
    k->nlog = 0;
    k->oom = 0;
    if (!(s->checks & CHK_UNWRITTEN) || !s->ngm) return 0;
    k->out = mem_calloc(s->ngm, sizeof *k->out);
    k->outsz = mem_calloc(s->ngm, sizeof *k->outsz);
    if (!k->out || !k->outsz) return -1;
    k->ngm = s->ngm;
    for (uint32_t i = 0; i < s->ngm; i++) {
        if (!s->gm[i].output || !s->gm[i].size) continue;
        k->out[i] = mem_calloc((size_t)(s->gm[i].size + 7) / 8, 1);
        if (!k->out[i]) return -1;
        k->outsz[i] = s->gm[i].size;
    }
    return 0;
}

int check_block_begin(Check *k, const Check *launch, const Cluster *cl)
{
    k->launch = launch;
    k->nlog = 0;
    if (!(cl->sim->checks & CHK_INIT)) return 0;
    for (int c = 0; c < cl->ncores; c++)
        for (int a = 1; a < AS__COUNT; a++) {
            uint64_t sz = cl->cores[c].memsz[a];
            if (k->initsz[c][a] != sz) {
                mem_free(k->init[c][a]);
                k->init[c][a] = mem_calloc((size_t)(sz + 7) / 8, 1);
                k->initsz[c][a] = k->init[c][a] ? sz : 0;
                if (!k->init[c][a]) return -1;
            } else if (k->dirty[c][a]) {
                memset(k->init[c][a], 0, (size_t)(sz + 7) / 8);
            }
            k->dirty[c][a] = 0;
        }
    return 0;
}

uint8_t *check_init_bits(Exec *x, const Core *owner, AddrSpace as, uint64_t *size)
{
    Sim *s = x->core->sim;
    Check *k = s->check;
    if (!k || !(s->checks & CHK_INIT) || (unsigned)owner->index > 2 || as == AS_GM || x->race_quiet) return NULL;
    *size = k->initsz[owner->index][as];
    k->dirty[owner->index][as] = 1;
    return k->init[owner->index][as];
}

/* ------------------------------------------------------------------ bit ranges */

static void bits_set(uint8_t *b, uint64_t lo, uint64_t hi)
{
    while (lo < hi && (lo & 7)) { b[lo >> 3] |= (uint8_t)(1u << (lo & 7)); lo++; }
    if (hi - lo >= 8) {
        memset(b + (lo >> 3), 0xFF, (size_t)((hi - lo) >> 3));
        lo += (hi - lo) & ~(uint64_t)7;
    }
    while (lo < hi) { b[lo >> 3] |= (uint8_t)(1u << (lo & 7)); lo++; }
}

/* First clear bit in [lo, hi), or hi. */
static uint64_t first_clear(const uint8_t *b, uint64_t lo, uint64_t hi)
{
    while (lo < hi) {
        if (!(lo & 63) && hi - lo >= 64) {   /* 64 bytes of memory per 8 bytes of bits */
            uint64_t w;
            memcpy(&w, b + (lo >> 3), 8);
            if (w == ~0ull) { lo += 64; continue; }
        }
        if (!(lo & 7) && hi - lo >= 8 && b[lo >> 3] == 0xFF) { lo += 8; continue; }
        if (!(b[lo >> 3] >> (lo & 7) & 1)) return lo;
        lo++;
    }
    return hi;
}

/* First set bit in [lo, hi), or hi. */
static uint64_t first_set(const uint8_t *b, uint64_t lo, uint64_t hi)
{
    while (lo < hi) {
        if (!(lo & 63) && hi - lo >= 64) {
            uint64_t w;
            memcpy(&w, b + (lo >> 3), 8);
            if (!w) { lo += 64; continue; }
        }
        if (!(lo & 7) && hi - lo >= 8 && b[lo >> 3] == 0) { lo += 8; continue; }
        if (b[lo >> 3] >> (lo & 7) & 1) return lo;
        lo++;
    }
    return hi;
}

/* ------------------------------------------------------------------ accesses */

static const char *const space_short[AS__COUNT] = {"GM", "UB", "L1", "L0A", "L0B", "L0C", "BT", "FB"};

static void log_gm(Check *k, const Core *c, const Instr *in, uint32_t buf, uint64_t lo, uint64_t hi, int mode)
{
    uint32_t block = (uint32_t)c->block_idx;
    /* coalesce with a recent record of the same op, block and kind */
    for (size_t i = k->nlog, n = 0; i > 0 && n < 8; i--, n++) {
        GmAcc *g = &k->log[i - 1];
        if (g->block != block) break;
        if (g->in == in && g->buf == buf && g->mode == mode && g->epoch == c->grid_epoch && lo <= g->hi && hi >= g->lo) {
            if (lo < g->lo) g->lo = lo;
            if (hi > g->hi) g->hi = hi;
            return;
        }
    }
    /* more interleaved streams (a SIMT launch's workitems): the record this op last added */
    uint32_t h = (uint32_t)(((uintptr_t)in >> 4) * 0x9E3779B1u + buf * 4u + (uint32_t)mode) % 64u, hx = k->hint[h];
    if (hx && hx <= k->nlog) {
        GmAcc *g = &k->log[hx - 1];
        if (g->block == block && g->in == in && g->buf == buf && g->mode == mode && g->epoch == c->grid_epoch &&
            lo <= g->hi && hi >= g->lo) {
            if (lo < g->lo) g->lo = lo;
            if (hi > g->hi) g->hi = hi;
            return;
        }
    }
    if (k->nlog == k->caplog) {
        size_t cap = k->caplog ? k->caplog * 2 : 256;
        GmAcc *g = mem_realloc(k->log, cap * sizeof *g);
        if (!g) { k->oom = 1; return; }
        k->log = g;
        k->caplog = cap;
    }
    k->log[k->nlog++] = (GmAcc){block, buf, c->grid_epoch, (uint8_t)mode, lo, hi, in};
    if (k->nlog <= UINT32_MAX) k->hint[h] = (uint32_t)k->nlog;
}

void check_access(Exec *x, const Instr *in, const Core *owner, AddrSpace as, uint64_t addr, uint64_t len, int mode)
{
    Sim *s = x->core->sim;
    Check *k = s->check;
    if (!len || x->race_quiet) return;
    if (as == AS_GM) {   /* per allocation the access meets (one, unless it leaves its buffer) */
        int j = sim_gm_find(s, addr);
        const Check *l = k->launch;
        int all = s->checks & CHK_BLOCKS && s->blocks > 1;
        for (uint32_t bi = j < 0 ? s->ngm : (uint32_t)j; bi < s->ngm && s->gm[bi].base < addr + len; bi++) {
            const GmBuf *g = &s->gm[bi];
            uint64_t lo = addr > g->base ? addr - g->base : 0;
            uint64_t hi = addr + len - g->base < g->size ? addr + len - g->base : g->size;
            if (lo >= hi) continue;
            /* outputs and the blocks' accesses are merged into the launch's checks (check_merge) */
            if (all || (mode != ACC_READ && l && l->out && l->out[bi])) log_gm(k, x->core, in, bi, lo, hi, mode);
        }
        return;
    }
    if (!(s->checks & CHK_INIT) || (unsigned)owner->index > 2) return;
    uint8_t *b = k->init[owner->index][as];
    uint64_t sz = k->initsz[owner->index][as], hi = addr + len > sz ? sz : addr + len;
    if (!b || addr >= hi) return;
    if (mode != ACC_READ) {
        bits_set(b, addr, hi);
        k->dirty[owner->index][as] = 1;
        return;
    }
    uint64_t u = first_clear(b, addr, hi);
    if (u == hi || sim_warned(x, in, DIAG_T_UNINIT)) return;
    uint64_t e = first_set(b, u, hi);
    sim_warn_once(x, in, DIAG_T_UNINIT, "reads %s bytes [%" PRIu64 ", %" PRIu64 ") (0x%" PRIx64 "..0x%" PRIx64
                  ") that nothing wrote in this launch (of the %" PRIu64 " bytes it reads from %" PRIu64 ")",
                  space_short[as], u, e, u, e, len, addr);
}

int check_init_clean(const Exec *x, const Core *owner, AddrSpace as, uint64_t addr, uint64_t len)
{
    const Sim *s = x->core->sim;
    const Check *k = s->check;
    if (!k || !len || x->race_quiet || as == AS_GM || !(s->checks & CHK_INIT) || (unsigned)owner->index > 2) return 1;
    const uint8_t *b = k->init[owner->index][as];
    uint64_t sz = k->initsz[owner->index][as], hi = addr + len > sz ? sz : addr + len;
    return !b || addr >= hi || first_clear(b, addr, hi) == hi;
}

void check_merge(Check *k, Check *blk, const Sim *s)
{
    int all = s->checks & CHK_BLOCKS && s->blocks > 1;
    for (size_t i = 0; i < blk->nlog; i++) {
        const GmAcc *g = &blk->log[i];
        if (g->mode != ACC_READ && k->out && g->buf < k->ngm && k->out[g->buf]) bits_set(k->out[g->buf], g->lo, g->hi);
        if (!all) continue;
        if (k->nlog == k->caplog) {
            size_t cap = k->caplog ? k->caplog * 2 : 256;
            GmAcc *n = mem_realloc(k->log, cap * sizeof *n);
            if (!n) { k->oom = 1; break; }
            k->log = n;
            k->caplog = cap;
        }
        k->log[k->nlog++] = *g;
    }
    k->oom |= blk->oom;
    blk->nlog = 0;
}

/* ------------------------------------------------------------------ end of the launch */

static SrcLoc param_loc(const Sim *s, uint32_t i)
{
    const Op *f = s->entry ? s->entry->op : NULL;
    if (f && f->nregions && i < f->regions[0]->block->nargs) return f->regions[0]->block->args[i]->loc;
    return f ? f->loc : (SrcLoc){0, 0, 0};
}

static void report_unwritten(Check *k, Sim *s)
{
    for (uint32_t i = 0; k->out && i < k->ngm; i++) {
        const uint8_t *b = k->out[i];
        uint64_t sz = k->outsz[i];
        if (!b) continue;
        char ranges[256];
        size_t n = 0;
        uint64_t missing = 0;
        unsigned runs = 0;
        for (uint64_t lo = first_clear(b, 0, sz); lo < sz;) {
            uint64_t hi = first_set(b, lo, sz);
            missing += hi - lo;
            if (runs < 4 && n < sizeof ranges)
                n += (size_t)snprintf(ranges + n, sizeof ranges - n, "%s[%" PRIu64 ", %" PRIu64 ")", runs ? ", " : "", lo, hi);
            runs++;
            lo = hi < sz ? first_clear(b, hi, sz) : sz;
        }
        if (!missing) continue;
        if (runs > 4 && n < sizeof ranges) snprintf(ranges + n, sizeof ranges - n, " and %u more range%s", runs - 4, runs - 4 > 1 ? "s" : "");
        diag_add(s->diags, SEV_WARNING, DIAG_T_UNWRITTEN, param_loc(s, s->gm[i].param),
                 "the kernel never wrote %" PRIu64 " of the %" PRIu64 " bytes of output '%s': bytes %s", missing, sz,
                 s->gm[i].name ? s->gm[i].name : "?", ranges);
    }
}

/* Per-byte record of one GM buffer during the replay: the block (+1) that last wrote it plainly, and the
   lowest and highest block (+1) that read it or combined into it atomically. */
typedef struct ByteRec { uint16_t w, rlo, rhi; } ByteRec;

static const GmAcc *find_acc(const Check *k, uint32_t block, uint32_t buf, uint32_t epoch, uint64_t byte, int want_write)
{
    /* the log is in block order (blocks are merged in that order): the block's records are found by a binary
       search, so a replay where every block races with the one before is not quadratic in the blocks (65,535
       blocks writing one output: 13 s -> under a second). The full scan below stays as the fallback. */
    size_t lo = 0, hi = k->nlog;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (k->log[mid].block < block) lo = mid + 1;
        else hi = mid;
    }
    for (size_t i = lo; i < k->nlog && k->log[i].block == block; i++) {
        const GmAcc *g = &k->log[i];
        if (g->buf == buf && g->epoch == epoch && byte >= g->lo && byte < g->hi &&
            (want_write ? g->mode == ACC_WRITE : g->mode != ACC_WRITE))
            return g;
    }
    for (size_t i = 0; i < k->nlog; i++) {
        const GmAcc *g = &k->log[i];
        if (g->block == block && g->buf == buf && g->epoch == epoch && byte >= g->lo && byte < g->hi &&
            (want_write ? g->mode == ACC_WRITE : g->mode != ACC_WRITE))
            return g;
    }
    return NULL;
}

static int reported(const Instr **seen, size_t *nseen, const Instr *a, const Instr *b)
{
    for (size_t i = 0; i + 1 < *nseen; i += 2)
        if (seen[i] == a && seen[i + 1] == b) return 1;
    if (*nseen + 2 <= 128) {
        seen[(*nseen)++] = a;
        seen[(*nseen)++] = b;
    }
    return 0;
}

/* The other block's access last named for the record being replayed: the bytes it covers need no search (the
   pair is reported or dropped already), so a record racing on many bytes costs one search per other access,
   not one per byte (the search is linear in the log). */
typedef struct LastOther { const GmAcc *o; unsigned other; int other_writes; } LastOther;

static void race_report(Check *k, Sim *s, const GmAcc *g, uint64_t byte, unsigned other, int other_writes,
                        const Instr **seen, size_t *nseen, LastOther *last)
{
    if (last->o && last->other == other && last->other_writes == other_writes && byte >= last->o->lo && byte < last->o->hi)
        return;
    const GmAcc *o = find_acc(k, other, g->buf, g->epoch, byte, other_writes);
    if (o) *last = (LastOther){o, other, other_writes};
    if (!o || reported(seen, nseen, g->in, o->in)) return;
    static const char *const verb[] = {"reads", "writes", "atomically updates"};
    const char *buf = s->gm[g->buf].name ? s->gm[g->buf].name : "?";
    long d = diag_add(s->diags, SEV_WARNING, DIAG_T_RACE, g->in->op ? g->in->op->loc : (SrcLoc){0, 0, 0},
                      "block %u %s GM bytes [%" PRIu64 ", %" PRIu64 ") of '%s' that block %u %s; blocks run concurrently "
                      "and nothing orders them", g->block, verb[g->mode], g->lo, g->hi, buf, other,
                      other_writes ? "writes" : o->mode == ACC_ATOMIC ? "updates atomically" : "reads");
    if (o->in->op) diag_note(s->diags, d, o->in->op->loc, "block %u's access is here", other);
}

static int acc_lo_cmp(const void *pa, const void *pb)
{
    const GmAcc *a = *(const GmAcc *const *)pa, *b = *(const GmAcc *const *)pb;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* The fast pre-check: can two blocks' accesses to buffer `buf` conflict at all? A sweep over its records
   sorted by start: each run of mutually reachable records (a new run starts at a record past the highest end
   so far) is summarised by its one block (or "several") and whether it has a plain write; a record that
   overlaps its run, from another block, with a plain write on either side, may conflict. Conservative: 0
   means no byte is touched by two blocks with a plain write among them (blocks writing disjoint tiles, shared
   read-only inputs), so the byte replay has nothing to report. Linear after the sort. -1: out of memory. */
static int may_conflict(const Check *k, uint32_t buf, uint32_t epoch)
{
    size_t n = 0;
    for (size_t i = 0; i < k->nlog; i++) n += k->log[i].buf == buf && k->log[i].epoch == epoch;
    if (n < 2) return 0;
    const GmAcc **v = mem_alloc(n * sizeof *v);
    if (!v) return -1;
    n = 0;
    for (size_t i = 0; i < k->nlog; i++)
        if (k->log[i].buf == buf && k->log[i].epoch == epoch && k->log[i].hi > k->log[i].lo) v[n++] = &k->log[i];
    qsort(v, n, sizeof *v, acc_lo_cmp);
    int conflict = 0;
    uint64_t maxhi = 0;
    uint32_t run_block = 0;
    int run_multi = 0, run_write = 0, started = 0;
    for (size_t i = 0; i < n && !conflict; i++) {
        const GmAcc *g = v[i];
        int w = g->mode == ACC_WRITE;
        if (!started || g->lo >= maxhi) {   /* a new run */
            started = 1;
            maxhi = g->hi;
            run_block = g->block;
            run_multi = 0;
            run_write = w;
            continue;
        }
        if ((run_multi || g->block != run_block) && (w || run_write)) conflict = 1;
        if (g->block != run_block) run_multi = 1;
        run_write |= w;
        if (g->hi > maxhi) maxhi = g->hi;
    }
    mem_free(v);
    return conflict;
}

/* The accesses of one epoch (between two pto.syncall barriers; 0 without any) of buffer `buf`, replayed. */
static void replay_epoch(Check *k, Sim *s, uint32_t buf, uint32_t epoch, const Instr **seen, size_t *nseen)
{
    uint64_t sz = s->gm[buf].size;
    int mc = may_conflict(k, buf, epoch);
    if (mc < 0) { k->oom = 1; return; }
    if (!mc) return;
    ByteRec *r = mem_calloc((size_t)sz, sizeof *r);
    if (!r) { k->oom = 1; return; }
    for (size_t i = 0; i < k->nlog; i++) {   /* the log is in block order: blocks are merged in that order */
        const GmAcc *g = &k->log[i];
        if (g->buf != buf || g->epoch != epoch) continue;
        uint16_t me = (uint16_t)(g->block + 1);
        LastOther last = {NULL, 0, 0};
        for (uint64_t b = g->lo; b < g->hi; b++) {
            ByteRec *x = &r[b];
            if (x->w && x->w != me) {
                race_report(k, s, g, b, x->w - 1u, 1, seen, nseen, &last);
            } else if (g->mode == ACC_WRITE && x->rlo && (x->rlo != me || x->rhi != me)) {
                race_report(k, s, g, b, (x->rlo != me ? x->rlo : x->rhi) - 1u, 0, seen, nseen, &last);
            }
            if (g->mode == ACC_WRITE) {
                x->w = me;
            } else {
                if (!x->rlo || me < x->rlo) x->rlo = me;
                if (me > x->rhi) x->rhi = me;
            }
        }
    }
    mem_free(r);
}

/* Blocks' accesses separated by a pto.syncall barrier (their cores had passed different numbers of barriers) are
   ordered by it: each epoch is replayed on its own (docs/semantics.md "pto.syncall"). */
static void replay_blocks(Check *k, Sim *s)
{
    const Instr *seen[128];
    size_t nseen = 0;
    for (uint32_t buf = 0; buf < s->ngm; buf++) {
        int any = 0;
        uint32_t maxe = 0;
        for (size_t i = 0; i < k->nlog; i++)
            if (k->log[i].buf == buf) {
                any = 1;
                if (k->log[i].epoch > maxe) maxe = k->log[i].epoch;
            }
        if (!any || !s->gm[buf].size) continue;
        for (uint32_t e = 0; e <= maxe; e++) replay_epoch(k, s, buf, e, seen, &nseen);
    }
}

void check_launch_end(Check *k, Sim *s)
{
    report_unwritten(k, s);
    if (s->checks & CHK_BLOCKS && s->blocks > 1) replay_blocks(k, s);
}
