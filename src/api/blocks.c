/* blocks.c — running the blocks of a launch, on a pool of threads (pto_launch_set_jobs).
 *
 * The contract: every result — output bytes, diagnostics and their order, the stats, the time records and
 * the timing model's cycles — is that of running the blocks one after another in block order, whatever the
 * number of threads. How:
 *
 *  - Each block runs on its own BlockRun: a private Sim (the launch's settings; its own trap flag,
 *    diagnostics list, warned-op list, stats, time records and checks) and a private cluster (cores,
 *    on-chip memory, queues, race detector). Nothing a block writes during its run is shared.
 *  - Blocks are committed strictly in block order, under the launch's mutex: the block's diagnostics are
 *    appended to the module's list (repeats of once-per-launch warnings dropped as a serial run would,
 *    sim_diags_merge), its time records, check logs and stats are merged. The cross-block race check
 *    replays the merged GM logs in block order at the end, as before.
 *  - GM: a block sees the writes of every block before it, as when blocks run one after another. With
 *    several threads, a block runs on a private view of GM (exec/gmview.h) that copies pages on first touch
 *    and logs the bytes the block touches and writes. At its commit it is checked against the writes of the
 *    blocks committed after it started: if it touched none of those bytes it saw exactly what a serial run
 *    would have shown it, and its writes are copied to GM. Otherwise (blocks that communicate through GM,
 *    racy kernels, atomic accumulation into one buffer) the block runs again, now after all its
 *    predecessors, and the rest of the launch starts each block only after the one before it is committed.
 *  - A trap (or an out-of-memory stop) is accepted at its block's commit, like everything else: blocks
 *    after it that already ran are discarded, so the output holds what a serial run leaves at the trap.
 *  - The last committed block's cluster is kept for pto_launch_mem (`--dump`) and the reports.
 * The timing model never looks at other blocks (each block's cycles are its own; GM bandwidth is shared by
 * the launch's block count, a constant), so cycles do not depend on the schedule either. */
#include "base/alloc.h"
#include "launch_int.h"
#include "exec/autosync.h"
#include "exec/check.h"
#include "exec/gmview.h"
#include "exec/observe.h"
#include "exec/race.h"
#include "ops/ops.h"
#include "ops/sync/sync.h"
#include <fenv.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct BlockRun {
    Sim sim;                   /* the block's simulation (settings copied from the launch's) */
    Cluster cl;
    DiagList diags;
    StrBuf out;                /* the block's device output */
    Observe *obs;
    Check *check;
    GmView *view;              /* private GM (several threads), or NULL */
    uint8_t *onchip;           /* every core's on-chip buffers, one page mapping (setup_onchip) */
    size_t onchip_len;
    PageRuns onchip_runs;      /* what its last clear found resident */
    unsigned block;
    unsigned seen;             /* blocks committed when the run started */
    int rc;                    /* 0, 2 (out of memory preparing it), 3 (trap) */
    int inplace;               /* runs again on GM in place (its view ran out of memory) */
    BlockRun *next;            /* free list */
};

typedef struct Par {
    PtoLaunch *l;
    int kind;                  /* 0 vector, 1 cube, 2 mixed (cluster) */
    unsigned blocks;
    int spec;                  /* several threads: blocks run on private GM views */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_rwlock_t gm_lock;  /* shared: a view copying pages; exclusive: a commit, a run in place */
    unsigned next;             /* the next block to start */
    unsigned committed;        /* blocks [0, committed) are committed */
    unsigned nfree_max;        /* BlockRuns allowed (in flight or waiting for their turn) */
    int stop;                  /* a committed block trapped or ran out of memory: start nothing more */
    int serial;                /* a block had to run again: start each block after its predecessor's commit */
    int cohort;                /* the blocks run side by side on this thread (run_cohort) */
    int rc;
    BlockRun **done;           /* per block: finished, waiting for its turn */
    GmSet *wlog;               /* per committed block: the GM bytes it wrote (spec) */
    BlockRun *free;
    Sim base;                  /* the launch's Sim as the run starts: what every block's Sim copies (the live one
                                  changes under the mutex as blocks are committed) */
} Par;

/* ------------------------------------------------------------------ one block */

/* Zeroed, 64-byte aligned (a cache line), for the register frames. */
static void *zalloc64(size_t n)
{
    size_t r = (n + 63) & ~(size_t)63;
    void *p = mem_aligned(64, r ? r : 64);
    if (p) memset(p, 0, r ? r : 64);
    return p;
}

static int setup_exec(Exec *x, Core *c, uint32_t frame, PipeQ pq)
{
    x->core = c;
    x->pipe = pq;
    if (!x->frame_base) {
        x->frame_cap = frame * 64 + 4096;
        x->frame_base = zalloc64(x->frame_cap);
        if (!x->frame_base) return -1;
    }
    x->frame = x->frame_base;
    x->frame_top = frame;
    memset(x->frame_base, 0, frame);
    x->ncalls = 0;
    x->steps = 0;
    return 0;
}

/* The on-chip buffers of the three cores (L1, L0A/B/C, BT, FB, UB each; the whole set is kept uniform) in
   one zeroed mapping of small pages: a kernel pays a fault per 4 KiB it touches in the first block a
   BlockRun runs, nothing for the rest. They start zeroed for every block (docs/semantics.md): clearing them
   for the next block zeroes the pages the last one touched (its dirty extent, mem_pages_clear) and keeps
   them mapped, instead of returning them and faulting (and zeroing) them again. */
static size_t onchip_slice(const TargetProfile *tp, int a) { return ((size_t)tp->cap[a] + 4095) & ~(size_t)4095; }

static int setup_onchip(BlockRun *r, const TargetProfile *tp)
{
    if (r->onchip) {
        mem_pages_clear(r->onchip, r->onchip_len, &r->onchip_runs);
        return 0;
    }
    size_t len = 0;
    for (int a = 1; a < AS__COUNT; a++) len += onchip_slice(tp, a);
    r->onchip = mem_pages_small(3 * len);
    if (!r->onchip) return -1;
    r->onchip_len = 3 * len;
    uint8_t *p = r->onchip;
    for (int i = 0; i < 3; i++)
        for (int a = 1; a < AS__COUNT; a++) {
            r->cl.cores[i].mem[a] = p;
            r->cl.cores[i].memsz[a] = tp->cap[a];
            p += onchip_slice(tp, a);
        }
    return 0;
}

static int setup_core(const PtoLaunch *l, Sim *s, Core *c, Cluster *cl, CoreType type, int index, int sub, unsigned block)
{
    c->sim = s;
    c->cl = cl;
    c->type = type;
    c->index = index;
    c->subblock = sub;
    c->block_idx = block;
    c->ub_fast_lim = cl->watch || c->memsz[AS_UB] < 256 ? 0 : c->memsz[AS_UB] - 255;
    uint32_t frame = l->prog->max_frame ? l->prog->max_frame : 32;
    if (setup_exec(&c->su, c, frame, PQ_S) || setup_exec(&c->v, c, frame, PQ_V)) return -1;
    c->px.core = c;
    for (int p = 0; p < PQ__COUNT; p++) {
        Pipe *pp = &c->pipes[p];
        pp->head = pp->tail = 0;
        pp->chead = pp->ctail = 0;
        pp->t = pp->wake_t = 0;
        pp->waiting = pp->stalled = 0;
        pp->busy = pp->wait_since = 0;
        pp->bytes = pp->ops = 0;
        memset(pp->stall, 0, sizeof pp->stall);
    }
    c->issue_seq = 0;
    autosync_reset(c);
    if (ops_core_reset(c)) return -1;
    c->su_t = 0;
    c->su_state = 0;
    c->su_queue_full = 0;
    c->su_blocked_on = NULL;
    c->grid_wait = c->grid_pipe_wait = 0;
    c->grid_at = NULL;
    memset(c->xblock_waits, 0, sizeof c->xblock_waits);
    c->grid_bar = 0;
    c->grid_target = c->grid_round = 0;
    c->grid_epoch = 0;
    c->pc = l->entry->entry;
    for (uint32_t i = 0; i < l->entry->nparams; i++)
        fr_set_u64(&c->su, l->entry->param_off[i], l->param_vals[i]);
    return 0;
}

static BlockRun *run_new(void)
{
    BlockRun *r = mem_calloc(1, sizeof *r);
    if (!r) return NULL;
    diag_init(&r->diags);
    sb_init(&r->out);
    r->diags.max_errors = 0;   /* the launch's list applies the cap when the block is merged */
    r->obs = obs_new();
    r->check = check_new();
    if (diag_reserve(&r->diags) || !r->obs || !r->check) {
        launch_run_free(r);
        return NULL;
    }
    return r;
}

void launch_run_free(BlockRun *r)
{
    if (!r) return;
    Cluster *cl = &r->cl;
    for (int i = 0; i < 3; i++) {
        Core *c = &cl->cores[i];
        ops_core_free(c);
        autosync_free(c);
        mem_free(c->su.frame_base);
        mem_free(c->v.frame_base);
        mem_free(c->su.calls);
        mem_free(c->v.calls);
        for (int p = 0; p < PQ__COUNT; p++) { mem_free(c->pipes[p].q); mem_free(c->pipes[p].caps); }
    }
    mem_pages_free(r->onchip, r->onchip_len);
    ops_cluster_free(cl);
    race_free(cl->race);
    diag_free(&r->diags);
    sb_free(&r->out);
    mem_free(r->sim.dkeys);
    obs_free(r->obs);
    check_free(r->check);
    gmv_free(r->view);
    mem_free(r);
}

/* The block's Sim: the launch's settings, its own state. */
static void run_sim(BlockRun *r, const Sim *ls)
{
    DiagKey *keys = r->sim.dkeys;
    size_t cap = r->sim.capdkeys;
    r->sim = *ls;
    r->sim.dkeys = keys;
    r->sim.capdkeys = cap;
    r->sim.ndkeys = 0;
    r->sim.dkeys_oom = 0;
    r->sim.diags = &r->diags;
    r->sim.out = &r->out;
    r->sim.obs = r->obs;
    r->sim.check = r->check;
    r->sim.cl = &r->cl;
    r->sim.trapped = 0;
    r->sim.nwarned = 0;
    memset(&r->sim.stats, 0, sizeof r->sim.stats);
    r->sim.autosync_edges = 0;
}

/* Out of memory preparing block r: E-OOM, the block fails (rc 2). */
static void oom(BlockRun *r, const PtoLaunch *l, const char *what)
{
    diag_add(&r->diags, SEV_ERROR, DIAG_OOM, l->entry_op->loc, "out of memory preparing %s", what);
    r->rc = 2;
}

/* Prepares block b on r: private GM view when `view`, else GM in place. Returns 0, or -1 when it could not (r->rc
   is then 2, the block failed). */
static int block_begin(Par *P, BlockRun *r, unsigned b, int view)
{
    PtoLaunch *l = P->l;
    Sim *s = &r->sim;
    r->block = b;
    r->rc = 0;
    diag_clear(&r->diags);
    sb_truncate(&r->out, 0);
    r->out.failed = 0;
    run_sim(r, &P->base);
    r->obs->trace = l->sim.obs->trace;
    r->obs->profile = l->sim.obs->profile;
    /* blocks one after another on GM in place: this one will be committed next, its trace may go out as it runs */
    r->obs->direct = !P->spec && !P->cohort && l->sim.obs->spool_ev ? l->sim.obs : NULL;
    if (obs_reset(r->obs, l->prog->ninstr)) {
        oom(r, l, "the profile");
        return -1;
    }
    if (view) {
        if (!r->view) r->view = gmv_new(&P->gm_lock);
        if (!r->view || gmv_open(r->view, s->gm_mem, s->gm_span)) {
            oom(r, l, "a block's view of GM");
            return -1;
        }
        s->view = r->view;
    }
    Cluster *cl = &r->cl;
    cl->sim = s;
    if (s->race_check && !cl->race) cl->race = race_new();
    if (!s->race_check && cl->race) { race_free(cl->race); cl->race = NULL; }
    if (s->race_check && !cl->race) {
        oom(r, l, "the race detector");
        return -1;
    }
    cl->watch = cl->race != NULL || s->checks != 0;
    cl->gm_watch = s->view != NULL;
    cl->gmf.n = 0;   /* no GM transfer of this block in flight yet */
    int bad = ops_cluster_reset(cl) | setup_onchip(r, s->tp);
    if (P->kind == 2) {
        cl->ncores = 3;
        bad |= setup_core(l, s, &cl->cores[0], cl, CORE_AIC, 0, 0, b) | setup_core(l, s, &cl->cores[1], cl, CORE_AIV, 1, 0, b) |
               setup_core(l, s, &cl->cores[2], cl, CORE_AIV, 2, 1, b);
    } else {
        cl->ncores = 1;
        bad |= setup_core(l, s, &cl->cores[0], cl, P->kind == 1 ? CORE_AIC : CORE_AIV, 0, 0, b);
    }
    if (bad) {
        oom(r, l, "the simulated machine");
        return -1;
    }
    if (cl->race) race_reset(cl->race, cl);
    if (check_block_begin(r->check, l->sim.check, cl)) {
        oom(r, l, "the checks");
        return -1;
    }
    return 0;
}

/* Runs r's cluster until it finishes, traps or (side-by-side blocks) parks at a pto.syncall: r->rc. */
static void block_run(BlockRun *r)
{
    /* the simulator's float arithmetic relies on IEEE round-to-nearest (a thread has its own mode) */
    int saved_round = fegetround();
    if (saved_round != FE_TONEAREST) fesetround(FE_TONEAREST);
    r->rc = sim_run_cluster(&r->cl);
    if (saved_round != FE_TONEAREST) fesetround(saved_round);
}

/* The end of block r's run: its records, the end-of-block checks (only when it completed) and its stats. */
static void block_end(BlockRun *r)
{
    Sim *s = &r->sim;
    Cluster *cl = &r->cl;
    obs_block_done(r->obs, cl);
    /* A checker or recorder that lost an allocation stopped recording: the block fails with T-OOM (a run
       never passes with a check silently off). */
    if (race_oom(cl->race) || r->obs->oom || check_oom(r->check) || (s->view && gmv_failed(s->view)) || s->dkeys_oom) {
        diag_oom(&r->diags, 1);
        r->rc = 2;
    }
    if (r->rc == 0) {
        ops_block_done(cl);   /* end-of-block warnings, whose keys may fail too */
        if (s->dkeys_oom) {
            diag_oom(&r->diags, 1);
            r->rc = 2;
        }
    }
    /* a diagnostic that lost its allocation (E-OOM/T-OOM in the block's list) stops the launch like any
       out-of-memory: the block is not run again (commit_ready), so the report cannot be lost */
    if (r->diags.oom && r->rc == 0) r->rc = 2;
    PtoStats *st = &s->stats;
    for (int i = 0; i < cl->ncores; i++) {
        Core *c = &cl->cores[i];
        for (int p = 0; p < PQ__COUNT; p++) {
            st->bytes_moved[p] += c->pipes[p].bytes;
            st->vector_ops += p == PQ_V ? c->pipes[p].ops : 0;
            if (c->pipes[p].t > st->cycles) st->cycles = c->pipes[p].t;
        }
        if (c->su_t > st->cycles) st->cycles = c->su_t;
        st->ops_executed += c->su.steps + c->v.steps;
        s->autosync_edges += autosync_edges(c);
        st->cores++;
    }
}

static void run_block(Par *P, BlockRun *r, unsigned b, int view)
{
    if (block_begin(P, r, b, view)) return;
    block_run(r);
    block_end(r);
}

/* ------------------------------------------------------------------ commits, in block order */

/* Appends block r's records to the launch's. */
static void merge(PtoLaunch *l, BlockRun *r)
{
    Sim *s = &l->sim;
    sim_diags_merge(s->diags, &l->reported, &r->diags, r->sim.dkeys, r->sim.ndkeys);
    if (r->out.failed) s->out->failed = 1;
    else if (r->out.n) sb_putn(s->out, r->out.s, r->out.n);
    obs_merge(s->obs, r->obs);
    check_merge(s->check, r->check, s);
    const PtoStats *b = &r->sim.stats;
    for (int p = 0; p < 8; p++) s->stats.bytes_moved[p] += b->bytes_moved[p];
    s->stats.vector_ops += b->vector_ops;
    s->stats.ops_executed += b->ops_executed;
    s->gm_gaps_dirty |= r->sim.gm_gaps_dirty;   /* a write left its buffer: refill the gaps next run */
    s->stats.cores += b->cores;
    s->autosync_edges += r->sim.autosync_edges;
    if (b->cycles > s->stats.cycles) s->stats.cycles = b->cycles;
}

/* Commits the finished blocks whose turn has come (the caller holds the mutex). Returns a block that
   must run again (its view saw bytes an earlier block wrote after the view opened), or NULL. */
static BlockRun *commit_ready(Par *P)
{
    PtoLaunch *l = P->l;
    while (!P->stop && P->committed < P->blocks && P->done[P->committed]) {
        unsigned b = P->committed;
        BlockRun *r = P->done[b];
        P->done[b] = NULL;
        if (r->sim.view && r->rc != 2 && !r->diags.oom) {   /* an out-of-memory stop is kept, never run again */
            int stale = gmv_failed(r->view);
            for (unsigned p = r->seen; p < b && !stale; p++) stale = gmv_conflicts(r->view, &P->wlog[p]);
            int fail = stale;
            if (!fail) {
                pthread_rwlock_wrlock(&P->gm_lock);
                fail = gmv_commit(r->view, &P->wlog[b]);
                pthread_rwlock_unlock(&P->gm_lock);
            }
            if (fail) {
                P->serial = 1;
                r->inplace = gmv_failed(r->view);
                return r;
            }
        }
        merge(l, r);
        P->committed++;
        if (r->rc || b + 1 == P->blocks) {
            if (r->rc) {
                P->stop = 1;
                P->rc = r->rc;
            }
            l->last = r;   /* kept for pto_launch_mem and the reports */
        } else {
            r->next = P->free;
            P->free = r;
        }
    }
    return NULL;
}

/* Takes a BlockRun for a new block, or NULL when the launch must wait for commits (or is out of memory:
   *oom set). The caller holds the mutex. */
static BlockRun *take_run(Par *P, int *oomp)
{
    PtoLaunch *l = P->l;
    BlockRun *r = P->free;
    if (r) {
        P->free = r->next;
        return r;
    }
    if (l->nruns >= P->nfree_max) return NULL;
    BlockRun **rs = mem_realloc(l->runs, (l->nruns + 1) * sizeof *rs);
    if (rs) l->runs = rs;
    r = rs ? run_new() : NULL;
    if (!r) {   /* out of memory: the launch fails with E-OOM (never quietly with fewer blocks in flight) */
        *oomp = 1;
        return NULL;
    }
    l->runs[l->nruns++] = r;
    return r;
}

static void *worker(void *arg)
{
    Par *P = arg;
    pthread_mutex_lock(&P->mu);
    for (;;) {
        if (P->stop || P->next >= P->blocks) break;
        int out = 0;
        BlockRun *r = NULL;
        if (!(P->serial && P->committed < P->next)) r = take_run(P, &out);
        if (out) {
            diag_add(P->l->sim.diags, SEV_ERROR, DIAG_OOM, P->l->entry_op->loc, "out of memory preparing a block");
            P->stop = 1;
            P->rc = 2;
            pthread_cond_broadcast(&P->cv);
            break;
        }
        if (!r) {
            pthread_cond_wait(&P->cv, &P->mu);
            continue;
        }
        unsigned b = P->next++;
        r->seen = P->committed;
        r->inplace = 0;
        for (;;) {
            int inplace = P->spec && r->inplace;   /* alone on GM: no view copies pages meanwhile */
            int view = P->spec && !r->inplace;
            pthread_mutex_unlock(&P->mu);
            if (inplace) pthread_rwlock_wrlock(&P->gm_lock);
            run_block(P, r, b, view);
            if (inplace) pthread_rwlock_unlock(&P->gm_lock);
            pthread_mutex_lock(&P->mu);
            P->done[b] = r;
            r = commit_ready(P);
            if (!r) break;
            b = r->block;   /* its turn has come: run it again, now after all its predecessors */
            r->seen = P->committed;
        }
        pthread_cond_broadcast(&P->cv);
    }
    pthread_mutex_unlock(&P->mu);
    return NULL;
}

/* ------------------------------------------------------------------ blocks side by side (pto.syncall) */

/* No core arrives at or leaves a barrier any more: T-DEADLOCK at the first waiting core's pto.syncall, with how many
   cores wait there and how many blocks finished without arriving. */
static void grid_deadlock(BlockRun **rs, unsigned started)
{
    Core *first = NULL;
    BlockRun *fr = NULL;
    unsigned waiting = 0, finished = 0;
    for (unsigned b = 0; b < started; b++) {
        if (rs[b]->rc == 0) finished++;
        for (int i = 0; rs[b]->rc == SIM_PARKED && i < rs[b]->cl.ncores; i++) {
            Core *c = &rs[b]->cl.cores[i];
            if (!c->grid_wait && !c->grid_pipe_wait) continue;
            if (!first) { first = c; fr = rs[b]; }
            waiting += c->grid_bar == first->grid_bar;
        }
    }
    if (!first) return;
    char what[128];
    syncall_describe(first, what, sizeof what);
    const Instr *in = first->grid_at;
    Sim *s = &fr->sim;
    diag_add(s->diags, SEV_TRAP, DIAG_T_DEADLOCK, in && in->op ? in->op->loc : (SrcLoc){0, 0, 0},
             "deadlock: '%s' waits for %s; %u core%s wait%s there and %u block%s finished without arriving "
             "(block %llu %s is the first waiting)", in ? op_info[in->kind].name : "pto.syncall", what, waiting,
             waiting == 1 ? "" : "s", waiting == 1 ? "s" : "",
             finished, finished == 1 ? "" : "s", (unsigned long long)first->block_idx,
             core_label(first->type, (unsigned)first->subblock, (unsigned)first->cl->ncores));
    s->trapped = 1;
    fr->rc = 3;
}

/* A program with pto.syncall: no block can finish before every participant has reached its barrier, so the blocks
   run side by side on this thread, in place on GM. Each block runs until it finishes or every core it has left
   waits at a barrier; then the next block runs. Sweeps over the waiting blocks follow until every block finished;
   a sweep in which no core arrives at or leaves a barrier is a deadlock (T-DEADLOCK). A trap stops every block
   where it is; the blocks that ran are then committed in block order. */
enum { COHORT_MAX = 1024 };

static int run_cohort(Par *P)
{
    PtoLaunch *l = P->l;
    unsigned n = P->blocks;
    if (n > COHORT_MAX) {
        diag_add(l->sim.diags, SEV_ERROR, DIAG_BLOCK_LIMIT, l->entry_op->loc, "this kernel uses pto.syncall (or a "
                 "cross-block flag), so its %u blocks must all be resident at once (as on the device, where they cannot "
                 "exceed its cores); ptosim runs at most %d such blocks", n, COHORT_MAX);
        return 2;
    }
    GridSync *g = mem_calloc(1, sizeof *g);
    BlockRun **rs = mem_calloc(n, sizeof *rs);
    int out = 0;
    P->nfree_max = l->nruns + n;
    for (unsigned b = 0; g && rs && b < n && !out; b++) rs[b] = take_run(P, &out);
    if (!g || !rs || out) {
        mem_free(g);
        mem_free(rs);
        diag_add(l->sim.diags, SEV_ERROR, DIAG_OOM, l->entry_op->loc, "out of memory preparing the blocks");
        return 2;
    }
    P->base.grid = g;
    unsigned started = 0;
    int stop = 0;
    for (; started < n && !stop; started++) {
        BlockRun *r = rs[started];
        if (block_begin(P, r, started, 0)) stop = 1;
        else block_run(r);
        stop |= r->rc != 0 && r->rc != SIM_PARKED;
    }
    while (!stop) {
        int parked = 0;
        uint64_t before = g->progress;
        for (unsigned b = 0; b < started && !stop; b++) {
            BlockRun *r = rs[b];
            if (r->rc != SIM_PARKED) continue;
            for (int i = 0; i < r->cl.ncores; i++) {
                Core *c = &r->cl.cores[i];
                if (c->grid_wait && c->su_state == 1) c->su_state = 0;
                for (int p = 1; c->grid_pipe_wait && p < PQ__COUNT; p++) c->pipes[p].waiting = 0;
                c->grid_pipe_wait = 0;   /* set again by a flag wait that still cannot pass */
            }
            block_run(r);
            parked |= r->rc == SIM_PARKED;
            stop |= r->rc != 0 && r->rc != SIM_PARKED;
        }
        if (!parked || stop) break;
        if (g->progress == before) {
            grid_deadlock(rs, started);
            break;
        }
    }
    /* every block that ran is committed, in block order: they ran side by side, so GM holds what each of them
       wrote before the launch stopped, and their records say so; the first failure is the launch's */
    for (unsigned b = 0; b < started; b++) {
        BlockRun *r = rs[b];
        block_end(r);   /* a block left waiting when the launch stopped (rc SIM_PARKED) skips the end-of-block checks */
        merge(l, r);
        if (r->rc && r->rc != SIM_PARKED && !P->rc) P->rc = r->rc;
        l->last = r;
    }
    P->base.grid = NULL;
    mem_free(g);
    mem_free(rs);
    return P->rc;
}

unsigned launch_default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (unsigned)n;
}

int launch_run_blocks(PtoLaunch *l, unsigned blocks, int kind)
{
    unsigned jobs = l->jobs ? l->jobs : launch_default_jobs();
    if (jobs > blocks) jobs = blocks;
    if (l->prog->uses_syncall) jobs = 1;   /* side by side on this thread (run_cohort) */
    Par P;
    memset(&P, 0, sizeof P);
    P.l = l;
    P.kind = kind;
    P.blocks = blocks;
    P.spec = jobs > 1;
    P.nfree_max = 2 * jobs + 1;
    l->last = NULL;   /* the previous run's last cluster is free again */
    for (unsigned i = 0; i < l->nruns; i++) {
        l->runs[i]->next = P.free;
        P.free = l->runs[i];
    }
    l->sim.cl = NULL;
    if (P.spec) {   /* views copy GM pages from other threads: no lazy filling, no buffer outside the image */
        sim_gm_unalias(&l->sim);
        sim_gm_fill_gaps(&l->sim, 0, 0);
    }
    P.base = l->sim;
    if (l->prog->uses_syncall) {
        P.cohort = 1;
        return run_cohort(&P);
    }
    P.done = mem_calloc(blocks, sizeof *P.done);
    P.wlog = P.spec ? mem_calloc(blocks, sizeof *P.wlog) : NULL;
    if (!P.done || (P.spec && !P.wlog)) {
        mem_free(P.done);
        mem_free(P.wlog);
        diag_add(l->sim.diags, SEV_ERROR, DIAG_OOM, l->entry_op->loc, "out of memory preparing the blocks");
        return 2;
    }
    pthread_mutex_init(&P.mu, NULL);
    pthread_cond_init(&P.cv, NULL);
    pthread_rwlock_init(&P.gm_lock, NULL);
    pthread_t th[256];
    unsigned nth = 0;
    for (unsigned i = 1; i < jobs; i++)
        if (pthread_create(&th[nth], NULL, worker, &P) == 0) nth++;
    worker(&P);
    for (unsigned i = 0; i < nth; i++) pthread_join(th[i], NULL);
    pthread_rwlock_destroy(&P.gm_lock);
    pthread_cond_destroy(&P.cv);
    pthread_mutex_destroy(&P.mu);
    for (unsigned i = 0; P.wlog && i < blocks; i++) gmset_free(&P.wlog[i]);
    /* A block that ran beside a failing one and is never committed still ran out of memory: the launch
       fails with T-OOM too (no allocation failure passes unreported). */
    for (unsigned i = 0; i < blocks; i++)
        if (P.done[i] && P.done[i]->diags.oom) {
            diag_oom(l->sim.diags, 1);
            P.rc = 2;
        }
    mem_free(P.wlog);
    mem_free(P.done);
    if (l->last) l->sim.cl = &l->last->cl;
    return P.rc;
}
