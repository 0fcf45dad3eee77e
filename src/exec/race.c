/* race.c — happens-before race detection (design §4 "Hazards").
 *
 * Agents are the scalar unit (SU) and the six pipes of every core in the cluster. Each agent keeps a
 * vector clock. A pipe op is a job: it starts with the clock the SU had when it issued the op (issuing
 * orders the SU's earlier work before the op) joined into the pipe's clock, and it records the exact byte
 * ranges it reads and writes. The SU's own accesses form a job between two of its sync points.
 * set_flag/semaphore sets release the agent's clock into a FIFO channel that the matching wait acquires;
 * rls_buf accumulates into the buffer id's channel that get_buf acquires; a PIPE_ALL barrier makes the SU
 * acquire every pipe of its core. When a job closes it is compared with the earlier jobs of other agents
 * it is not ordered after: overlapping bytes with at least one write are a race, reported once per pair
 * of operations as W-RACE with both locations. Accesses by the same agent are ordered by its queue. */
#include "race.h"
#include "base/alloc.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RA = 3 * PQ__COUNT, MAX_REPORTS = SIM_MAX_PAIRS, MAX_JOBS = 400000 };

typedef struct Iv { uint64_t lo, hi; const Instr *in; uint32_t key; uint8_t w; } Iv;

typedef struct Job {
    const Instr *in;
    uint32_t agent, clock;
    uint32_t first, n;         /* intervals in Race.pool, sorted by (key, lo), reads and writes merged separately */
} Job;

/* hint: per hash of (op, space key, kind), the interval that op last added (index + 1; checked before use) */
enum { HINTS = 64 };
typedef struct Scratch {
    Iv *v;
    uint32_t n, cap, compact_at;
    const Instr *in;
    uint32_t clock;
    int open;
    uint32_t hint[HINTS];
} Scratch;

typedef struct Chan {
    int kind;
    unsigned key;
    uint32_t *vcs;             /* FIFO of RA-sized snapshots (or one accumulated snapshot for RC_BUF) */
    uint32_t head, n, cap;
} Chan;

struct Race {
    Cluster *cl;
    int na;
    uint32_t vc[RA][RA];
    Scratch sc[RA];
    Job *jobs;
    uint32_t njobs, capjobs, prune_at;
    Iv *pool;
    uint32_t npool, cappool;
    Chan *chans;
    uint32_t nchans, capchans;
    uint32_t *snaps;           /* issue snapshots, RA words each */
    uint32_t nsnaps, capsnaps;
    uint32_t *aj[RA];          /* per agent: indices into jobs of its kept jobs, in clock order (close order) */
    uint32_t naj[RA], capaj[RA];
    uint32_t *cand;            /* close_job's scratch: the unordered jobs' indices */
    uint32_t capcand;
    const Instr *reported[MAX_REPORTS][2];
    int nreported, disabled;
    int oom;                   /* disabled because an allocation failed (the run then fails with T-OOM) */
};

static int agent_of(const Core *c, int pq) { return c->index * PQ__COUNT + pq; }

Race *race_new(void) { return mem_calloc(1, sizeof(Race)); }
int race_oom(const Race *r) { return r && r->oom; }

void race_free(Race *r)
{
    if (!r) return;
    for (int a = 0; a < RA; a++) { mem_free(r->sc[a].v); mem_free(r->aj[a]); }
    mem_free(r->cand);
    for (uint32_t i = 0; i < r->nchans; i++) mem_free(r->chans[i].vcs);
    mem_free(r->chans);
    mem_free(r->jobs);
    mem_free(r->pool);
    mem_free(r->snaps);
    mem_free(r);
}

void race_reset(Race *r, Cluster *cl)
{
    r->cl = cl;
    r->na = cl->ncores * PQ__COUNT;
    memset(r->vc, 0, sizeof r->vc);
    for (int a = 0; a < RA; a++) { r->sc[a].n = 0; r->sc[a].open = 0; r->naj[a] = 0; }
    for (uint32_t i = 0; i < r->nchans; i++) mem_free(r->chans[i].vcs);
    r->nchans = 0;
    r->njobs = r->npool = r->nsnaps = 0;
    r->prune_at = 256;
    r->disabled = r->oom = 0;
    r->nreported = 0;   /* repeats across blocks are dropped when the blocks' diagnostics are merged */
    for (int a = 0; a < r->na; a++) r->vc[a][a] = 1;
}

static void *grow(void *p, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap) return p;
    uint32_t c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *q = mem_realloc(p, c * elem);
    if (!q) return NULL;
    *cap = c;
    return q;
}

/* ------------------------------------------------------------------ footprints */

static uint32_t normalise(Iv *v, uint32_t n);
static int u32_cmp(const void *pa, const void *pb);


void race_access(Exec *x, const Instr *in, Core *owner, AddrSpace as, uint64_t addr, uint64_t len, int write)
{
    Race *r = x->core->cl->race;
    if (!r || r->disabled || !len || x->race_quiet) return;
    int a = agent_of(x->core, x->pipe);
    Scratch *s = &r->sc[a];
    if (!s->open) {          /* the SU's accesses open a job lazily */
        s->open = 1;
        s->n = 0;
        s->compact_at = 0;
        s->in = in;
        s->clock = r->vc[a][a];
    }
    uint32_t key = as == AS_GM ? 0xFFFFu : (uint32_t)as * 4u + (uint32_t)owner->index;
    /* Streaming loops interleave a few access streams (load a, load b, store c): extend the newest
       interval of the same op and kind when this access continues or overlaps it. */
    for (uint32_t i = s->n, k = 0; i > 0 && k < 8; i--, k++) {
        Iv *l = &s->v[i - 1];
        if (l->in == in && l->key == key && l->w == write && addr <= l->hi && addr + len >= l->lo) {
            if (addr < l->lo) l->lo = addr;
            if (addr + len > l->hi) l->hi = addr + len;
            return;
        }
    }
    /* Interleaved streams of more ops (a SIMT launch's workitems, each running the whole body): the interval
       this op last added, when this access continues or overlaps it. */
    uint32_t h = (uint32_t)(((uintptr_t)in >> 4) * 0x9E3779B1u + key * 2u + (uint32_t)write) % HINTS, hi = s->hint[h];
    if (hi && hi <= s->n) {
        Iv *l = &s->v[hi - 1];
        if (l->in == in && l->key == key && l->w == write && addr <= l->hi && addr + len >= l->lo) {
            if (addr < l->lo) l->lo = addr;
            if (addr + len > l->hi) l->hi = addr + len;
            return;
        }
    }
    if (s->n >= s->compact_at && s->n >= 4096) {   /* a long job: merge what it has so far */
        s->n = normalise(s->v, s->n);
        s->compact_at = 2 * s->n;
        memset(s->hint, 0, sizeof s->hint);
    }
    Iv *v = grow(s->v, &s->cap, s->n + 1, sizeof *v);
    if (!v) { r->disabled = r->oom = 1; return; }
    s->v = v;
    s->v[s->n++] = (Iv){addr, addr + len, in, key, (uint8_t)write};
    s->hint[h] = s->n;
}

static int iv_cmp(const void *pa, const void *pb)
{
    const Iv *a = pa, *b = pb;
    if (a->w != b->w) return a->w < b->w ? -1 : 1;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Sorts and merges a job's intervals: reads first, then writes, each by (key, lo). */
static uint32_t normalise(Iv *v, uint32_t n)
{
    if (n < 2) return n;
    qsort(v, n, sizeof *v, iv_cmp);
    uint32_t k = 0;
    for (uint32_t i = 1; i < n; i++) {
        if (v[i].w == v[k].w && v[i].key == v[k].key && v[i].lo <= v[k].hi) {
            if (v[i].hi > v[k].hi) v[k].hi = v[i].hi;
        } else {
            v[++k] = v[i];
        }
    }
    return k + 1;
}

/* First overlap between the w1-part of a and the w2-part of b; returns 1, the range and the ops involved. */
static int overlap(const Iv *a, uint32_t na, int w1, const Iv *b, uint32_t nb, int w2, Iv *out, const Instr **ia,
                   const Instr **ib)
{
    uint32_t i = 0, j = 0;
    while (i < na && a[i].w != w1) i++;
    while (j < nb && b[j].w != w2) j++;
    while (i < na && j < nb && a[i].w == w1 && b[j].w == w2) {
        if (a[i].key < b[j].key) { i++; continue; }
        if (a[i].key > b[j].key) { j++; continue; }
        uint64_t lo = a[i].lo > b[j].lo ? a[i].lo : b[j].lo, hi = a[i].hi < b[j].hi ? a[i].hi : b[j].hi;
        if (lo < hi) {
            *out = (Iv){lo, hi, NULL, a[i].key, 0};
            *ia = a[i].in;
            *ib = b[j].in;
            return 1;
        }
        if (a[i].hi < b[j].hi) i++;
        else j++;
    }
    return 0;
}

static const char *const space_names[AS__COUNT] = {"GM", "UB", "L1", "L0A", "L0B", "L0C", "BT", "FB"};

static void agent_name(const Race *r, int a, char *b, size_t n)
{
    int core = a / PQ__COUNT, pq = a % PQ__COUNT;
    const Core *c = &r->cl->cores[core];
    if (r->cl->ncores == 1) snprintf(b, n, "%s", pq == PQ_S ? "the scalar unit" : pq_name((unsigned)pq));
    else snprintf(b, n, "%s %s", core_label(c->type, (unsigned)c->subblock, 3),
                  pq == PQ_S ? "scalar unit" : pq_name((unsigned)pq));
}

static int later_in_source(const Instr *x, const Instr *y)
{
    if (!x || !x->op) return 0;
    if (!y || !y->op) return 1;
    if (x->op->loc.line != y->op->loc.line) return x->op->loc.line > y->op->loc.line;
    return x->op->loc.col > y->op->loc.col;
}

static void report(Race *r, int a, const Instr *ina, int b, const Instr *inb, const Iv *ov, int wa, int wb)
{
    /* The warning points at the access that comes later in the source, whichever ran first: the fix
       (a wait before it) belongs there, and the report does not depend on the schedule. */
    if (!later_in_source(ina, inb)) {
        const Instr *ti = ina; ina = inb; inb = ti;
        int t = a; a = b; b = t;
        t = wa; wa = wb; wb = t;
    }
    for (int i = 0; i < r->nreported; i++)
        if (r->reported[i][0] == inb && r->reported[i][1] == ina) return;
    for (int i = 0; i < r->nreported; i++)
        if (r->reported[i][0] == ina && r->reported[i][1] == inb) return;
    if (r->nreported >= MAX_REPORTS) return;
    r->reported[r->nreported][0] = ina;
    r->reported[r->nreported][1] = inb;
    r->nreported++;
    char an[48], bn[48], where[64];
    agent_name(r, a, an, sizeof an);
    agent_name(r, b, bn, sizeof bn);
    unsigned sp = ov->key == 0xFFFFu ? AS_GM : ov->key / 4;
    uint64_t lo = ov->lo, hi = ov->hi;
    int gi = sp == AS_GM ? sim_gm_find(r->cl->sim, lo) : -1;
    if (gi >= 0) {   /* GM: offsets in the buffer the bytes belong to */
        const GmBuf *g = &r->cl->sim->gm[gi];
        snprintf(where, sizeof where, "GM buffer '%s'", g->name);
        lo -= g->base;
        hi -= g->base;
    } else if (sp == AS_GM) snprintf(where, sizeof where, "GM");
    else if (r->cl->ncores == 1) snprintf(where, sizeof where, "%s", space_names[sp]);
    else snprintf(where, sizeof where, "%s of %s", space_names[sp], core_label((ov->key & 3) == 0 ? CORE_AIC : CORE_AIV, (unsigned)(ov->key & 3) == 2, 3));
    DiagList *d = r->cl->sim->diags;
    SrcLoc la = ina && ina->op ? ina->op->loc : (SrcLoc){0, 0, 0};
    long k = diag_add(d, SEV_WARNING, DIAG_T_RACE, la,
                      "%s %s %s bytes [0x%" PRIx64 ", 0x%" PRIx64 ") that %s %s with no synchronisation ordering them",
                      an, wa ? "writes" : "reads", where, lo, hi, bn, wb ? "writes" : "reads");
    sim_diag_key(r->cl->sim, k, DK_PAIR, ina, inb, DIAG_T_RACE);
    if (inb && inb->op)
        diag_note(d, k, inb->op->loc, "%s accessed them here ('%s'); add set_flag/wait_flag between the two pipes", bn,
                  op_info[inb->op->kind].name);
    else if (k >= 0)
        diag_note(d, k, (SrcLoc){0, 0, 0}, "%s accessed them earlier", bn);
}

/* Is job k (of another agent) ordered before everything agent a does from now on? */
static int ordered(const Race *r, int a, const Job *k) { return k->clock <= r->vc[a][k->agent]; }

static void prune(Race *r)
{
    uint32_t w = 0, pw = 0;
    for (int a = 0; a < RA; a++) r->naj[a] = 0;
    for (uint32_t i = 0; i < r->njobs; i++) {
        Job *k = &r->jobs[i];
        int keep = 0;
        for (int a = 0; a < r->na && !keep; a++) {
            if (a == (int)k->agent) continue;
            const Core *c = &r->cl->cores[a / PQ__COUNT];
            int pq = a % PQ__COUNT;
            uint32_t known = r->vc[a][k->agent];
            if (pq == PQ_S && c->su_state == 2) continue;               /* a finished SU never accesses again */
            if (pq != PQ_S && c->pipes[pq].head == c->pipes[pq].tail) {
                /* an idle pipe's future ops are issued later: they will know what the SU knows then */
                if (c->su_state == 2) continue;
                uint32_t su = r->vc[agent_of(c, PQ_S)][k->agent];
                if (su > known) known = su;
            }
            if (k->clock > known) keep = 1;
        }
        if (!keep) continue;
        memmove(&r->pool[pw], &r->pool[k->first], k->n * sizeof(Iv));
        k->first = pw;
        pw += k->n;
        r->aj[k->agent][r->naj[k->agent]++] = w;   /* fits: the list held at least this many before */
        r->jobs[w++] = *k;
    }
    r->njobs = w;
    r->npool = pw;
    r->prune_at = 2 * w + 256;
}

static void close_job(Race *r, int a)
{
    Scratch *s = &r->sc[a];
    if (!s->open) return;
    s->open = 0;
    uint32_t n = normalise(s->v, s->n);
    s->n = 0;
    if (!n) return;
    Job me = {s->in, (uint32_t)a, s->clock, 0, n};
    /* The jobs this one is not ordered after: per other agent, the tail of its clock-ordered list past what
       a knows of it (binary search), so jobs a is ordered after cost nothing. They are compared in the order
       they closed, as a scan of every job would, so the reports do not depend on the index. */
    uint32_t ncand = 0;
    for (int b = 0; b < r->na; b++) {
        if (b == a || !r->naj[b]) continue;
        const uint32_t *l = r->aj[b], known = r->vc[a][b];
        uint32_t lo = 0, hi = r->naj[b];
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (r->jobs[l[mid]].clock <= known) lo = mid + 1;
            else hi = mid;
        }
        if (lo == r->naj[b]) continue;
        uint32_t *c = grow(r->cand, &r->capcand, ncand + (r->naj[b] - lo), sizeof *c);
        if (!c) { r->disabled = r->oom = 1; return; }
        r->cand = c;
        memcpy(c + ncand, l + lo, (r->naj[b] - lo) * sizeof *c);
        ncand += r->naj[b] - lo;
    }
    if (ncand > 1) qsort(r->cand, ncand, sizeof *r->cand, u32_cmp);
    for (uint32_t ci = 0; ci < ncand; ci++) {
        const Job *k = &r->jobs[r->cand[ci]];
        if ((int)k->agent == a || ordered(r, a, k)) continue;
        const Iv *kv = &r->pool[k->first];
        Iv ov;
        const Instr *ia, *ib;
        if (overlap(s->v, n, 1, kv, k->n, 1, &ov, &ia, &ib)) report(r, a, ia, (int)k->agent, ib, &ov, 1, 1);
        else if (overlap(s->v, n, 1, kv, k->n, 0, &ov, &ia, &ib)) report(r, a, ia, (int)k->agent, ib, &ov, 1, 0);
        else if (overlap(s->v, n, 0, kv, k->n, 1, &ov, &ia, &ib)) report(r, a, ia, (int)k->agent, ib, &ov, 0, 1);
    }
    /* each grown array is kept at once: a later growth may fail, and a realloc that moved an array freed the old
       one (found by make oomtest) */
    Job *j = grow(r->jobs, &r->capjobs, r->njobs + 1, sizeof *j);
    if (j) r->jobs = j;
    Iv *p = j ? grow(r->pool, &r->cappool, r->npool + n, sizeof *p) : NULL;
    if (p) r->pool = p;
    uint32_t *ai = j && p ? grow(r->aj[a], &r->capaj[a], r->naj[a] + 1, sizeof *ai) : NULL;
    if (ai) r->aj[a] = ai;
    if (!j || !p || !ai) { r->disabled = r->oom = 1; return; }
    me.first = r->npool;
    memcpy(&r->pool[r->npool], s->v, n * sizeof(Iv));
    r->npool += n;
    r->aj[a][r->naj[a]++] = r->njobs;
    r->jobs[r->njobs++] = me;
    if (r->njobs >= r->prune_at) prune(r);
    if (r->njobs > MAX_JOBS) {
        /* bounded memory: the detector stops for the rest of the block, and says so where it stopped */
        r->disabled = 1;
        Sim *sim = r->cl->sim;
        long k = diag_add(sim->diags, SEV_WARNING, DIAG_T_RACE_LIMIT, s->in && s->in->op ? s->in->op->loc : (SrcLoc){0, 0, 0},
                          "race detection stops here: %u accesses are not yet ordered with every pipe (the limit is %u); "
                          "later accesses of this block are not checked for races",
                          (unsigned)r->njobs, (unsigned)MAX_JOBS);
        sim_diag_key(sim, k, DK_ONCE, s->in, NULL, DIAG_T_RACE_LIMIT);   /* once per op in a launch */
        if (k >= 0)
            diag_note(sim->diags, k, (SrcLoc){0, 0, 0},
                      "a pipe that never synchronises with the others keeps every job of theirs open; a wait_flag or a "
                      "barrier between them lets the detector forget the jobs both have seen");
    }
}

static int u32_cmp(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return a < b ? -1 : a > b;
}

/* ------------------------------------------------------------------ jobs and clocks */

static void join(uint32_t *dst, const uint32_t *src, int na)
{
    for (int i = 0; i < na; i++)
        if (src[i] > dst[i]) dst[i] = src[i];
}

void race_issue(Core *c, QEntry *e)
{
    Race *r = c->cl->race;
    if (!r || r->disabled) return;
    int su = agent_of(c, PQ_S);
    close_job(r, su);
    uint32_t *s = grow(r->snaps, &r->capsnaps, (r->nsnaps + 1) * RA, sizeof *s);
    if (!s) { r->disabled = r->oom = 1; return; }
    r->snaps = s;
    memcpy(&r->snaps[r->nsnaps * RA], r->vc[su], RA * sizeof(uint32_t));
    e->race_snap = r->nsnaps++;
    r->vc[su][su]++;
}

void race_job_begin(Core *c, int pq, const QEntry *e)
{
    Race *r = c->cl->race;
    if (!r || r->disabled) return;
    int a = agent_of(c, pq);
    if (e->race_snap < r->nsnaps) join(r->vc[a], &r->snaps[e->race_snap * RA], r->na);
    r->vc[a][a]++;
    Scratch *s = &r->sc[a];
    s->open = 1;
    s->n = 0;
    s->compact_at = 0;
    s->in = e->in;
    s->clock = r->vc[a][a];
}

void race_job_end(Core *c, int pq)
{
    Race *r = c->cl->race;
    if (!r || r->disabled) return;
    close_job(r, agent_of(c, pq));
}

static Chan *chan(Race *r, int kind, unsigned key)
{
    for (uint32_t i = 0; i < r->nchans; i++)
        if (r->chans[i].kind == kind && r->chans[i].key == key) return &r->chans[i];
    Chan *c = grow(r->chans, &r->capchans, r->nchans + 1, sizeof *c);
    if (!c) return NULL;
    r->chans = c;
    c = &r->chans[r->nchans++];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->key = key;
    return c;
}

/* What a release and an acquire by the agent running x begin with: the scalar unit's job so far closes (the
   sync op ends it), and the channel (kind, key) is found or made. NULL when the detector is off (or turns
   off here, out of memory); else *ra is the agent. */
static Chan *sync_begin(Exec *x, int kind, unsigned key, int *ra)
{
    Race *r = x->core->cl->race;
    if (!r || r->disabled) return NULL;
    int a = agent_of(x->core, x->pipe);
    if (x->pipe == PQ_S) close_job(r, a);
    Chan *ch = chan(r, kind, key);
    if (!ch) { r->disabled = r->oom = 1; return NULL; }
    *ra = a;
    return ch;
}

void race_release(Exec *x, int kind, unsigned key)
{
    int a;
    Chan *ch = sync_begin(x, kind, key, &a);
    if (!ch) return;
    Race *r = x->core->cl->race;
    if (kind == RC_BUF || kind == RC_AUTO || kind == RC_GRID) {       /* accumulate: a later get_buf sees every release so far */
        if (!ch->cap) {
            ch->vcs = mem_calloc(RA, sizeof(uint32_t));
            if (!ch->vcs) { r->disabled = r->oom = 1; return; }
            ch->cap = 1;
        }
        join(ch->vcs, r->vc[a], r->na);
    } else {
        if (ch->head + ch->n == ch->cap) {
            if (ch->head) {
                memmove(ch->vcs, ch->vcs + (size_t)ch->head * RA, (size_t)ch->n * RA * sizeof(uint32_t));
                ch->head = 0;
            } else {
                uint32_t cap = ch->cap ? ch->cap * 2 : 4;
                uint32_t *v = mem_realloc(ch->vcs, (size_t)cap * RA * sizeof(uint32_t));
                if (!v) { r->disabled = r->oom = 1; return; }
                ch->vcs = v;
                ch->cap = cap;
            }
        }
        memcpy(ch->vcs + (size_t)(ch->head + ch->n) * RA, r->vc[a], RA * sizeof(uint32_t));
        ch->n++;
    }
    if (x->pipe == PQ_S) r->vc[a][a]++;
}

void race_acquire(Exec *x, int kind, unsigned key)
{
    int a;
    Chan *ch = sync_begin(x, kind, key, &a);
    if (!ch) return;
    Race *r = x->core->cl->race;
    if (kind == RC_BUF || kind == RC_AUTO || kind == RC_GRID) {
        if (ch->cap) join(r->vc[a], ch->vcs, r->na);
    } else if (ch->n) {
        join(r->vc[a], ch->vcs + (size_t)ch->head * RA, r->na);
        ch->head++;
        ch->n--;
    }
    if (x->pipe == PQ_S) r->vc[a][a]++;
}

/* RC_SEQ channels (buffer tokens): vcs[0..RA) is the join of the releases already taken by a get_buf (every
   later get_buf of the id joins them too), then n pending entries of 1 + RA words: ordinal, snapshot. */
enum { RC_SEQ = 100 };

void race_release_seq(Exec *x, unsigned key, uint64_t ordinal)
{
    int a;
    Chan *ch = sync_begin(x, RC_SEQ, key, &a);
    if (!ch) return;
    Race *r = x->core->cl->race;
    uint32_t need = RA + (ch->n + 1) * (RA + 1);
    if (need > ch->cap) {
        uint32_t cap = ch->cap ? ch->cap : RA + 4 * (RA + 1);
        while (cap < need) cap *= 2;
        uint32_t *v = mem_realloc(ch->vcs, (size_t)cap * sizeof(uint32_t));
        if (!v) { r->disabled = r->oom = 1; return; }
        memset(v + ch->cap, 0, (size_t)(cap - ch->cap) * sizeof(uint32_t));
        ch->vcs = v;
        ch->cap = cap;
    }
    uint32_t *e = ch->vcs + RA + (size_t)ch->n * (RA + 1);
    e[0] = (uint32_t)ordinal;
    memcpy(e + 1, r->vc[a], RA * sizeof(uint32_t));
    ch->n++;
    if (x->pipe == PQ_S) r->vc[a][a]++;
}

void race_acquire_upto(Exec *x, unsigned key, uint64_t n)
{
    int a;
    Chan *ch = sync_begin(x, RC_SEQ, key, &a);
    if (!ch) return;
    Race *r = x->core->cl->race;
    if (ch->cap) {
        uint32_t w = 0;
        for (uint32_t i = 0; i < ch->n; i++) {
            uint32_t *e = ch->vcs + RA + (size_t)i * (RA + 1);
            if (e[0] < n) join(ch->vcs, e + 1, r->na);   /* issued before this get_buf: taken from now on */
            else memmove(ch->vcs + RA + (size_t)w++ * (RA + 1), e, (RA + 1) * sizeof(uint32_t));
        }
        ch->n = w;
        join(r->vc[a], ch->vcs, r->na);
    }
    if (x->pipe == PQ_S) r->vc[a][a]++;
}

int race_stamp(Exec *x, uint32_t *agent, uint32_t *clock)
{
    Race *r = x->core->cl->race;
    if (!r || r->disabled) return 0;
    int a = agent_of(x->core, x->pipe);
    *agent = (uint32_t)a;
    *clock = r->vc[a][a];
    return 1;
}

uint32_t race_knows(Exec *x, uint32_t b)
{
    Race *r = x->core->cl->race;
    if (!r || b >= RA) return 0;
    return r->vc[agent_of(x->core, x->pipe)][b];
}

void race_join_all(Exec *x)
{
    Race *r = x->core->cl->race;
    if (!r || r->disabled) return;
    int a = agent_of(x->core, PQ_S);
    close_job(r, a);
    for (int p = 1; p < PQ__COUNT; p++) join(r->vc[a], r->vc[agent_of(x->core, p)], r->na);
    r->vc[a][a]++;
}

void race_finish(Race *r, Cluster *cl)
{
    (void)cl;
    if (!r) return;
    for (int a = 0; a < r->na; a++) close_job(r, a);
}
