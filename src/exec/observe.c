/* observe.c — time records of a run (observe.h): agent times and stalls, the trace and its JSON, the
 * per-instruction profile. Recording never fails a run: when memory runs out the record is marked
 * incomplete (obs->oom) and the run goes on. */
#include "observe.h"
#include "base/alloc.h"
#include "pipe.h"
#include "race.h"
#include "base/strbuf.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A release not yet acquired: the op, and where and when it ran (the start of the flow arrow). */
typedef struct ObsRelease { const Instr *in; uint64_t t; uint32_t core; uint8_t pipe; } ObsRelease;

struct ObsChannel {
    int kind;
    unsigned key;
    ObsRelease *q;             /* releases not yet acquired (FIFO): their event and op */
    uint32_t head, tail, cap;
};

Observe *obs_new(void) { return mem_calloc(1, sizeof(Observe)); }

static void chan_clear(Observe *o)
{
    for (size_t i = 0; i < o->nchan; i++) mem_free(o->chan[i].q);
    o->nchan = 0;
}

void obs_free(Observe *o)
{
    if (!o) return;
    chan_clear(o);
    mem_free(o->chan);
    mem_free(o->cores);
    mem_free(o->stalls);
    mem_free(o->ev);
    mem_free(o->flows);
    mem_free(o->prof_cycles);
    mem_free(o->prof_count);
    mem_free(o->prof_stall);
    if (o->spool_ev) fclose(o->spool_ev);
    if (o->spool_fl) fclose(o->spool_fl);
    mem_free(o);
}

/* The spools of a launch's record, rewound for a new run (what a file holds past the counts is stale and never
   read). Without both, the record stays in memory. */
static void spool_open(Observe *o)
{
    if (!o->spill || !o->trace) return;
    if (!o->spool_ev) o->spool_ev = tmpfile();
    if (!o->spool_fl) o->spool_fl = tmpfile();
    if (o->spool_ev && o->spool_fl && fseek(o->spool_ev, 0, SEEK_SET) == 0 && fseek(o->spool_fl, 0, SEEK_SET) == 0) return;
    if (o->spool_ev) fclose(o->spool_ev);
    if (o->spool_fl) fclose(o->spool_fl);
    o->spool_ev = o->spool_fl = NULL;
}

int obs_reset(Observe *o, uint32_t ninstr)
{
    o->ncores = o->nstalls = o->nev = o->nflows = 0;
    o->oom = 0;
    o->pending_setter = NULL;
    chan_clear(o);
    spool_open(o);
    if (o->profile) {
        if (o->nprof < ninstr) {
            uint64_t *c = mem_realloc(o->prof_cycles, ninstr * sizeof *c);
            if (c) o->prof_cycles = c;
            uint64_t *n = c ? mem_realloc(o->prof_count, ninstr * sizeof *n) : NULL;
            if (n) o->prof_count = n;
            uint64_t *w = n ? mem_realloc(o->prof_stall, ninstr * sizeof *w) : NULL;
            if (w) o->prof_stall = w;
            if (!w) return -1;
            o->nprof = ninstr;
        }
        memset(o->prof_cycles, 0, o->nprof * sizeof *o->prof_cycles);
        memset(o->prof_count, 0, o->nprof * sizeof *o->prof_count);
        memset(o->prof_stall, 0, o->nprof * sizeof *o->prof_stall);
    }
    return 0;
}

/* Grows an array of `size`-byte elements to hold n + 1; 0 or -1 (and the record marked incomplete). */
static int grow(Observe *o, void **p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap) return 0;
    size_t c = *cap ? *cap * 2 : 64;
    void *q = mem_realloc(*p, c * size);
    if (!q) {
        o->oom = 1;
        return -1;
    }
    *p = q;
    *cap = c;
    return 0;
}

void obs_block_done(Observe *o, const Cluster *cl)
{
    for (int i = 0; i < cl->ncores; i++) {
        const Core *c = &cl->cores[i];
        if (grow(o, (void **)&o->cores, &o->capcores, o->ncores, sizeof *o->cores)) return;
        CoreTime *ct = &o->cores[o->ncores++];
        memset(ct, 0, sizeof *ct);
        ct->block = (unsigned)c->block_idx;
        ct->type = (uint8_t)c->type;
        ct->subblock = (uint8_t)c->subblock;
        ct->ncores = (uint8_t)cl->ncores;
        for (int p = 0; p < PQ__COUNT; p++) {
            const Pipe *pp = &c->pipes[p];
            AgentTime *a = &ct->agent[p];
            a->busy = pp->busy;
            memcpy(a->stall, pp->stall, sizeof a->stall);
            a->bytes = pp->bytes;
            a->ops = pp->ops;
            a->end = p == PQ_S ? c->su_t : pp->t;
        }
    }
    chan_clear(o);
}

_Static_assert(sizeof ((Pipe *)0)->stall / sizeof(uint64_t) == WC__COUNT, "Pipe.stall has one slot per WaitCause");
int obs_merge(Observe *o, Observe *blk)
{
    int fail = blk->oom;
    for (size_t i = 0; i < blk->ncores && !fail; i++) {
        fail = grow(o, (void **)&o->cores, &o->capcores, o->ncores, sizeof *o->cores);
        if (!fail) o->cores[o->ncores++] = blk->cores[i];
    }
    for (size_t i = 0; i < blk->nstalls && !fail; i++) {
        fail = grow(o, (void **)&o->stalls, &o->capstalls, o->nstalls, sizeof *o->stalls);
        if (!fail) o->stalls[o->nstalls++] = blk->stalls[i];
    }
    if (o->trace && o->spool_ev && !fail) {   /* appended to the spools: the block's record is freed for the next */
        fail = (blk->nev && fwrite(blk->ev, sizeof *blk->ev, blk->nev, o->spool_ev) != blk->nev) ||
               (blk->nflows && fwrite(blk->flows, sizeof *blk->flows, blk->nflows, o->spool_fl) != blk->nflows);
        if (!fail) {
            o->nev += blk->nev;
            o->nflows += blk->nflows;
        }
    } else if (o->trace) {
        for (size_t i = 0; i < blk->nev && !fail; i++) {
            fail = grow(o, (void **)&o->ev, &o->capev, o->nev, sizeof *o->ev);
            if (fail) break;
            o->ev[o->nev++] = blk->ev[i];
        }
        for (size_t i = 0; i < blk->nflows && !fail; i++) {
            fail = grow(o, (void **)&o->flows, &o->capflows, o->nflows, sizeof *o->flows);
            if (!fail) o->flows[o->nflows++] = blk->flows[i];
        }
    }
    for (uint32_t i = 0; o->profile && i < o->nprof && i < blk->nprof; i++) {
        o->prof_cycles[i] += blk->prof_cycles[i];
        o->prof_count[i] += blk->prof_count[i];
        o->prof_stall[i] += blk->prof_stall[i];
    }
    if (fail) o->oom = 1;
    return fail ? -1 : 0;
}

WaitCause obs_cause(OpKind k)
{
    switch (k) {
    case OP_WAIT_FLAG: case OP_WAIT_FLAG_DYN: return WC_FLAG;
    case OP_BARRIER: case OP_PIPE_BARRIER: case OP_SYNCALL: return WC_BARRIER;
    case OP_GET_BUF: case OP_GET_BUF_DYN: return WC_BUFFER;
    case OP_WAIT_INTRA_BLOCK: case OP_SYNC_WAIT: return WC_SEM;
    case OP_WAIT_FLAG_DEV: return WC_CROSS;
    default: return op_info[k].fam == FAM_TILE ? WC_AUTO : WC_OTHER;   /* tile ops wait only for auto-sync */
    }
}

const char *obs_cause_name(WaitCause c)
{
    static const char *const n[WC__COUNT] = {"flag", "barrier", "buffer token", "semaphore", "cross-core flag", "other",
                                                 "queue full", "auto-sync"};
    return c < WC__COUNT ? n[c] : "?";
}

/* ------------------------------------------------------------------ flows between releases and acquires */

static Observe *obs_of(const Exec *x) { return x->core->sim->obs; }

static ObsChannel *chan(Observe *o, int kind, unsigned key, int create)
{
    for (size_t i = 0; i < o->nchan; i++)
        if (o->chan[i].kind == kind && o->chan[i].key == key) return &o->chan[i];
    if (!create || grow(o, (void **)&o->chan, &o->capchan, o->nchan, sizeof *o->chan)) return NULL;
    ObsChannel *c = &o->chan[o->nchan++];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->key = key;
    return c;
}

static uint32_t core_id(const Core *c) { return (uint32_t)c->block_idx * 3u + (uint32_t)c->index; }
/* The agent an execution context runs for: the core's scalar unit or one of its pipes. */
static uint8_t agent_of(const Exec *x) { return x == &x->core->su ? (uint8_t)PQ_S : (uint8_t)x->pipe; }

void obs_release(Exec *x, int kind, unsigned key)
{
    Observe *o = obs_of(x);
    ObsChannel *c = chan(o, kind, key, 1);
    if (!c) return;
    if (kind == RC_BUF || kind == RC_AUTO) c->head = c->tail = 0;   /* tokens accumulate: the newest release is the edge */
    if (c->tail == c->cap) {
        uint32_t cap = c->cap ? c->cap * 2 : 8;
        if (c->head) {   /* compact first */
            memmove(c->q, c->q + c->head, (c->tail - c->head) * sizeof *c->q);
            c->tail -= c->head;
            c->head = 0;
        }
        if (c->tail == c->cap) {
            ObsRelease *q = mem_realloc(c->q, cap * sizeof *q);
            if (!q) { o->oom = 1; return; }
            c->q = q;
            c->cap = cap;
        }
    }
    c->q[c->tail++] = (ObsRelease){x->cur, x->now, core_id(x->core), agent_of(x)};
}

void obs_acquire(Exec *x, int kind, unsigned key)
{
    Observe *o = obs_of(x);
    ObsChannel *c = chan(o, kind, key, 0);
    if (!c || c->head == c->tail) return;
    ObsRelease from = kind == RC_BUF || kind == RC_AUTO ? c->q[c->tail - 1] : c->q[c->head++];
    o->pending_setter = from.in;
    if (!o->trace || grow(o, (void **)&o->flows, &o->capflows, o->nflows, sizeof *o->flows)) return;
    o->flows[o->nflows++] = (TraceFlow){from.t, x->now, from.core, core_id(x->core), from.pipe, agent_of(x)};
}

/* A block's record that is sure to be committed hands what it holds to the launch's spools (in order: the
   blocks before it are committed, the rest of its record follows at its commit). */
static void direct_flush(Observe *o)
{
    Observe *d = o->direct;
    if (o->nev && fwrite(o->ev, sizeof *o->ev, o->nev, d->spool_ev) != o->nev) o->oom = 1;
    if (o->nflows && fwrite(o->flows, sizeof *o->flows, o->nflows, d->spool_fl) != o->nflows) o->oom = 1;
    d->nev += o->nev;
    d->nflows += o->nflows;
    o->nev = o->nflows = 0;
}

static TraceEv *add_ev(Observe *o, uint32_t core, int pipe, int kind, const Instr *in, uint64_t t0, uint64_t t1)
{
    if (o->direct && o->nev >= OBS_DIRECT) direct_flush(o);
    if (grow(o, (void **)&o->ev, &o->capev, o->nev, sizeof *o->ev)) return NULL;
    TraceEv *e = &o->ev[o->nev++];
    memset(e, 0, sizeof *e);
    e->core = core;
    e->pipe = (uint8_t)pipe;
    e->kind = (uint8_t)kind;
    e->in = in;
    e->t0 = t0;
    e->t1 = t1;
    return e;
}

static TraceEv *next_ev(Observe *o, uint32_t core, int pipe, int kind, const Instr *in, uint64_t t0, uint64_t t1)
{
    return o->trace ? add_ev(o, core, pipe, kind, in, t0, t1) : NULL;
}

void obs_job(Exec *x, const Instr *in, uint64_t t0, uint64_t t1, uint64_t bytes)
{
    Observe *o = obs_of(x);
    if (o->profile) obs_profile(o, in, t1 - t0 - x->attributed, 1);
    TraceEv *e = next_ev(o, core_id(x->core), x->pipe, TE_OP, in, t0, t1);
    if (e) e->bytes = bytes;
    o->pending_setter = NULL;
}

void obs_stall(Observe *o, const Core *c, int pq, const Instr *wait, WaitCause cause, uint64_t cycles)
{
    if (o->profile && wait->id < o->nprof) o->prof_stall[wait->id] += cycles;
    StallRec *r = NULL;
    for (size_t i = o->nstalls; i-- > 0 && !r;)
        if (o->stalls[i].wait == wait && o->stalls[i].block == c->block_idx && o->stalls[i].core == c->index &&
            o->stalls[i].pipe == pq && o->stalls[i].cause == cause)
            r = &o->stalls[i];
    if (!r) {
        if (grow(o, (void **)&o->stalls, &o->capstalls, o->nstalls, sizeof *o->stalls)) return;
        r = &o->stalls[o->nstalls++];
        memset(r, 0, sizeof *r);
        r->block = (unsigned)c->block_idx;
        r->core = (uint8_t)c->index;
        r->pipe = (uint8_t)pq;
        r->cause = (uint8_t)cause;
        r->wait = wait;
    }
    r->cycles += cycles;
    r->times++;
    if (o->pending_setter) r->setter = o->pending_setter;
}

void obs_wait(Core *c, int pq, const Instr *wait, uint64_t t0, uint64_t t1)
{
    Observe *o = c->sim->obs;
    if (!o->trace || t1 <= t0) return;
    TraceEv *e = add_ev(o, core_id(c), pq, TE_WAIT, wait, t0, t1);
    if (!e) return;
    e->setter = o->pending_setter;   /* the releasing op of the wait's own op */
}

void obs_su_run(Core *c, uint64_t t0, uint64_t t1, uint32_t nops)
{
    Observe *o = c->sim->obs;
    if (!nops) return;
    TraceEv *e = next_ev(o, core_id(c), PQ_S, TE_SU, NULL, t0, t1);
    if (e) e->nops = nops;
    o->pending_setter = NULL;
}

void obs_scope_slice(Exec *x, int kind, const Instr *in, uint64_t t0, uint64_t t1, uint32_t a, uint32_t b)
{
    Observe *o = obs_of(x);
    TraceEv *e = next_ev(o, core_id(x->core), x->pipe, kind, in, t0, t1);
    if (!e) return;
    e->nops = a;
    e->last = b;
}

void obs_profile(Observe *o, const Instr *in, uint64_t cycles, int exec)
{
    if (in->id >= o->nprof) return;
    o->prof_cycles[in->id] += cycles;
    o->prof_count[in->id] += exec != 0;
}

void obs_profile_n(Observe *o, const Instr *in, uint64_t cycles, uint64_t count)
{
    if (in->id >= o->nprof) return;
    o->prof_cycles[in->id] += cycles;
    o->prof_count[in->id] += count;
}

/* ------------------------------------------------------------------ Chrome trace JSON */

static void json_str(StrBuf *b, const char *s)
{
    sb_putc(b, '"');
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') sb_printf(b, "\\%c", ch);
        else if (ch < 0x20) sb_printf(b, "\\u%04x", ch);
        else sb_putc(b, (char)ch);
    }
    sb_putc(b, '"');
}


/* Times are printed in microseconds with 4 decimals (0.1 ns, finer than a cycle at any clock the tables
   use), converted from integer cycles by one monotonic function: a slice's end is printed from its end cycle,
   so slices that nest in cycles nest in the printed times too (dur = end - start of the printed units, never
   rounded on its own). */
static uint64_t tunits(uint64_t cycles, double units_per_cycle) { return (uint64_t)((double)cycles * units_per_cycle + 0.5); }
static void put_units(StrBuf *b, uint64_t u) { sb_printf(b, "%" PRIu64 ".%04u", u / 10000, (unsigned)(u % 10000)); }

void obs_ev_name(char *w, size_t n, const TraceEv *e)
{
    const char *name = e->kind == TE_SU ? "scalar" : e->in && e->in->op ? op_info[e->in->kind].name : "end";
    switch (e->kind) {
    case TE_WAIT: snprintf(w, n, "waiting: %s", name); break;
    case TE_LOOP:
        if (e->last) snprintf(w, n, "scf.for: %u iteration%s", e->nops, e->nops == 1 ? "" : "s");
        else snprintf(w, n, "scf.for");
        break;
    case TE_ITER:
        if (e->last == e->nops) snprintf(w, n, "iteration %u", e->nops);
        else if (e->last == OBS_UNKNOWN) snprintf(w, n, "iterations %u..", e->nops);
        else snprintf(w, n, "iterations %u..%u", e->nops, e->last);
        break;
    default: snprintf(w, n, "%s", name); break;
    }
}

static const char *ev_cat(int kind)
{
    return kind == TE_WAIT ? "stall" : kind == TE_SU ? "scalar" : kind == TE_LOOP || kind == TE_ITER ? "loop" : "op";
}

/* Records [i, i + n) of a spool, after flushing what obs_merge wrote; 0 when it cannot be read. */
static size_t spool_read(FILE *f, size_t size, size_t i, size_t n, void *buf)
{
    if (fflush(f) != 0 || fseek(f, (long)(i * size), SEEK_SET) != 0) return 0;
    return fread(buf, size, n, f);
}

size_t obs_ev_chunk(const Observe *o, size_t i, TraceEv *buf, size_t cap, const TraceEv **out)
{
    size_t n = i < o->nev ? o->nev - i : 0;
    if (n > cap) n = cap;
    if (!n) return 0;
    if (!o->spool_ev) {
        *out = o->ev + i;
        return n;
    }
    *out = buf;
    return spool_read(o->spool_ev, sizeof *buf, i, n, buf) == n ? n : 0;
}

size_t obs_flow_chunk(const Observe *o, size_t i, TraceFlow *buf, size_t cap, const TraceFlow **out)
{
    size_t n = i < o->nflows ? o->nflows - i : 0;
    if (n > cap) n = cap;
    if (!n) return 0;
    if (!o->spool_fl) {
        *out = o->flows + i;
        return n;
    }
    *out = buf;
    return spool_read(o->spool_fl, sizeof *buf, i, n, buf) == n ? n : 0;
}

/* The text so far goes to the sink once it passes a piece's size (or at the end: force). */
#define OBS_PIECE 65536
static int flush_piece(StrBuf *b, ObsSink sink, void *user, int force)
{
    if (b->failed) return -1;
    if (!b->n || (!force && b->n < OBS_PIECE)) return 0;
    int bad = sink(user, b->s, b->n) != 0;
    sb_truncate(b, 0);
    return bad ? -1 : 0;
}

static void put_ev(StrBuf *b, const TraceEv *e, double k, int first)
{
    uint64_t u0 = tunits(e->t0, k), u1 = tunits(e->t1, k);
    sb_printf(b, "%s{\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"ts\":", first ? "" : ",\n", e->core, e->pipe);
    put_units(b, u0);
    sb_puts(b, ",\"dur\":");
    put_units(b, u1 - u0);
    char w[160];
    obs_ev_name(w, sizeof w, e);
    sb_puts(b, ",\"name\":");
    json_str(b, w);
    sb_printf(b, ",\"cat\":\"%s\",\"args\":{\"cycles\":%" PRIu64 ",\"start\":%" PRIu64, ev_cat(e->kind), e->t1 - e->t0, e->t0);
    const Op *op = e->in ? e->in->op : NULL;
    if (op && op->loc.file) {
        char loc[512];
        snprintf(loc, sizeof loc, "%s:%u:%u", op->loc.file, op->loc.line, op->loc.col);
        sb_puts(b, ",\"at\":");
        json_str(b, loc);
    }
    if (e->bytes) sb_printf(b, ",\"bytes\":%" PRIu64, e->bytes);
    if (e->kind == TE_SU) sb_printf(b, ",\"ops\":%u", e->nops);
    if (e->setter && e->setter->op && e->setter->op->loc.file) {
        char loc[512];
        snprintf(loc, sizeof loc, "%s at %s:%u:%u", op_info[e->setter->kind].name, e->setter->op->loc.file,
                 e->setter->op->loc.line, e->setter->op->loc.col);
        sb_puts(b, ",\"released_by\":");
        json_str(b, loc);
    }
    sb_puts(b, "}}");
}

int obs_trace_write(const Observe *o, const Sim *s, ObsSink sink, void *user)
{
    StrBuf b;
    sb_init(&b);
    int bad = 0;
    double clock = s->timing->clock_hz, k = 1e10 / clock;
    sb_puts(&b, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"tool\":\"ptosim\",\"clock_hz\":");
    sb_printf(&b, "%.0f", clock);
    sb_puts(&b, "},\"traceEvents\":[\n");
    int first = 1;
    /* names of processes (cores) and threads (pipes) that appear */
    for (size_t i = 0; i < o->ncores && !bad; i++) {
        const CoreTime *ct = &o->cores[i];
        unsigned idx = ct->ncores == 3 ? (ct->type == CORE_AIC ? 0u : 1u + ct->subblock) : 0u;
        unsigned pid = ct->block * 3 + idx;
        sb_printf(&b, "%s{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"tid\":0,\"args\":{\"name\":\"block %u %s\"}}",
                  first ? "" : ",\n", pid, ct->block, core_label(ct->type, ct->subblock, ct->ncores));
        first = 0;
        sb_printf(&b, ",\n{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%u,\"tid\":0,\"args\":{\"sort_index\":%u}}", pid, pid);
        for (unsigned p = 0; p < PQ__COUNT; p++)
            sb_printf(&b, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":\"%s\"}}", pid, p,
                      pq_name(p));
        bad = flush_piece(&b, sink, user, 0);
    }
    /* events, a chunk at a time from wherever they are kept */
    enum { CHUNK = 256 };
    TraceEv ebuf[CHUNK];
    for (size_t i = 0; i < o->nev && !bad;) {
        const TraceEv *ev;
        size_t n = obs_ev_chunk(o, i, ebuf, CHUNK, &ev);
        if (!n) {
            bad = -1;
            break;
        }
        for (size_t j = 0; j < n; j++, first = 0) put_ev(&b, &ev[j], k, first);
        i += n;
        bad = flush_piece(&b, sink, user, 0);
    }
    /* flows: from the releasing op to the op whose wait it ended; both ends bind to the enclosing slice */
    TraceFlow fbuf[CHUNK];
    for (size_t i = 0; i < o->nflows && !bad;) {
        const TraceFlow *fl;
        size_t n = obs_flow_chunk(o, i, fbuf, CHUNK, &fl);
        if (!n) {
            bad = -1;
            break;
        }
        for (size_t j = 0; j < n; j++) {
            const TraceFlow *f = &fl[j];
            size_t id = i + j + 1;
            sb_printf(&b, ",\n{\"ph\":\"s\",\"id\":%zu,\"name\":\"sync\",\"cat\":\"sync\",\"pid\":%u,\"tid\":%u,\"ts\":", id, f->core0,
                      f->pipe0);
            put_units(&b, tunits(f->t0, k));
            sb_printf(&b, "},\n{\"ph\":\"f\",\"bp\":\"e\",\"id\":%zu,\"name\":\"sync\",\"cat\":\"sync\",\"pid\":%u,\"tid\":%u,\"ts\":", id,
                      f->core1, f->pipe1);
            put_units(&b, tunits(f->t1, k));
            sb_puts(&b, "}");
        }
        i += n;
        bad = flush_piece(&b, sink, user, 0);
    }
    if (!bad) {
        sb_puts(&b, "\n]}\n");
        bad = flush_piece(&b, sink, user, 1);
    }
    mem_free(b.s);
    return bad ? -1 : 0;
}

static int to_strbuf(void *user, const char *data, size_t n)
{
    StrBuf *b = user;
    sb_putn(b, data, n);
    return b->failed;
}

char *obs_trace_json(const Observe *o, const Sim *s)
{
    StrBuf b;
    sb_init(&b);
    if (obs_trace_write(o, s, to_strbuf, &b)) {
        mem_free(b.s);
        return NULL;
    }
    return sb_take(&b);
}
