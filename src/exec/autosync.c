/* autosync.c — auto-sync for kernels without explicit synchronisation (autosync.h, docs/tile.md).
 *
 * Each pipe of a core keeps a ring of the footprints of its last AS_RING issued ops (a queue holds at most
 * PIPE_QUEUE_DEPTH < AS_RING ops, so every op still in flight is in its pipe's ring). An op's inferred
 * dependencies are, per other pipe, the newest earlier record that conflicts with it: pipes run their queues
 * in order, so waiting for that one covers the older ones. Records are found again by their issue sequence
 * number; one that has left the ring had completed long before. */
#include "autosync.h"
#include "base/alloc.h"
#include "observe.h"
#include "race.h"
#include <string.h>

enum { AS_RING = 64, AS_NONE = 0xFFFFFFFFu };

typedef struct AsRec {
    uint32_t seq;              /* the issuing core's issue sequence number */
    uint8_t done;              /* its handler ran (its effects are in memory) ... */
    uint64_t end;              /* ... and its pipe is busy with it until this cycle */
    AsFoot f;
    uint32_t dep[PQ__COUNT];   /* seq of the op of pipe q this one waits for, AS_NONE = none */
} AsRec;

struct AutoSync {
    AsRec ring[PQ__COUNT][AS_RING];
    uint32_t next[PQ__COUNT];  /* records ever pushed per pipe: slot = next % AS_RING */
    uint64_t edges;
};

void autosync_foot_all(const Instr *in, const uint64_t *args, AsFoot *f)
{
    (void)in;
    (void)args;
    f->all = 1;
}

void autosync_reset(Core *c)
{
    if (c->as) memset(c->as, 0, sizeof *c->as);
}

void autosync_free(Core *c)
{
    mem_free(c->as);
    c->as = NULL;
}

uint64_t autosync_edges(const Core *c) { return c->as ? c->as->edges : 0; }

static int conflict(const AsFoot *a, const AsFoot *b)
{
    if (a->all || b->all) return 1;
    for (unsigned i = 0; i < a->n; i++)
        for (unsigned j = 0; j < b->n; j++) {
            const AsRange *x = &a->r[i], *y = &b->r[j];
            if (x->space == y->space && (x->write || y->write) && x->lo < y->hi && y->lo < x->hi) return 1;
        }
    return 0;
}

/* The record of pipe p issued as sequence number seq, or NULL when it has left the ring. */
static AsRec *find(struct AutoSync *s, int p, uint32_t seq)
{
    uint32_t n = s->next[p] < AS_RING ? s->next[p] : AS_RING;
    for (uint32_t k = 1; k <= n; k++) {
        AsRec *r = &s->ring[p][(s->next[p] - k) % AS_RING];
        if (r->seq == seq) return r;
    }
    return NULL;
}

/* The channel an op's completion releases on: its core, pipe and ring slot. */
static unsigned chan_key(const Core *c, int p, const AsRec *r, const struct AutoSync *s)
{
    return (unsigned)((c->index * PQ__COUNT + p) * AS_RING + (int)(r - s->ring[p]));
}

int autosync_issue(Exec *x, const Instr *in, const QEntry *e, const uint64_t *args)
{
    Core *c = x->core;
    if (!c->as && !(c->as = mem_calloc(1, sizeof *c->as))) return -1;
    struct AutoSync *s = c->as;
    int p = in->pipe;
    AsRec *r = &s->ring[p][s->next[p] % AS_RING];
    memset(r, 0, sizeof *r);
    r->seq = e->seq;
    in->foot(in, args, &r->f);
    for (int q = 0; q < PQ__COUNT; q++) {
        r->dep[q] = AS_NONE;
        if (q == p) continue;
        uint32_t n = s->next[q] < AS_RING ? s->next[q] : AS_RING;
        for (uint32_t k = 1; k <= n; k++) {
            const AsRec *o = &s->ring[q][(s->next[q] - k) % AS_RING];
            if (!conflict(&r->f, &o->f)) continue;
            r->dep[q] = o->seq;
            s->edges++;
            break;
        }
    }
    s->next[p]++;
    return 0;
}

int autosync_wait(Exec *x, int pq, const QEntry *e)
{
    Core *c = x->core;
    struct AutoSync *s = c->as;
    AsRec *r = s ? find(s, pq, e->seq) : NULL;
    if (!r) return 0;
    uint64_t until = 0;
    for (int q = 0; q < PQ__COUNT; q++) {
        if (r->dep[q] == AS_NONE) continue;
        const AsRec *o = find(s, q, r->dep[q]);
        if (o && !o->done) return 1;            /* woken when a pipe makes progress */
        if (o && o->end > until) until = o->end;
    }
    if (until > x->now) {                       /* it ran, but finishes later: retry then */
        x->retry_at = until;
        return 1;
    }
    /* acquire every edge; the one finishing last goes last, so the trace's flow and --stats name it */
    int last = -1;
    for (int q = 0; q < PQ__COUNT; q++) {
        const AsRec *o = r->dep[q] == AS_NONE ? NULL : find(s, q, r->dep[q]);
        if (o && (last < 0 || o->end >= find(s, last, r->dep[last])->end)) last = q;
    }
    for (int k = 0; k <= PQ__COUNT; k++) {
        int q = k < PQ__COUNT ? k : last;
        if ((k < PQ__COUNT && q == last) || q < 0 || r->dep[q] == AS_NONE) continue;
        const AsRec *o = find(s, q, r->dep[q]);
        if (!o) continue;
        unsigned key = chan_key(c, q, o, s);
        race_acquire(x, RC_AUTO, key);
        obs_acquire(x, RC_AUTO, key);
    }
    return 0;
}

void autosync_done(Exec *x, int pq, const QEntry *e)
{
    Core *c = x->core;
    struct AutoSync *s = c->as;
    AsRec *r = s ? find(s, pq, e->seq) : NULL;
    if (!r) return;
    r->done = 1;
    r->end = x->now + e->in->cost + x->extra_cost;   /* the pipe's time when the op completes (sched.c run_pipe) */
    unsigned key = chan_key(c, pq, r, s);
    race_release(x, RC_AUTO, key);
    obs_release(x, RC_AUTO, key);
}
