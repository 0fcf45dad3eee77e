/* machine.h — the simulated machine: clusters of cores, each with a scalar unit (SU), in-order pipe
 * queues, local memories and an interpreter context per agent; the discrete-event scheduler that runs
 * them (sched.c); checked memory access and run-time traps (mem.c).
 *
 * State that belongs to one op family (DMA loop registers, flags and semaphores, special registers, MX
 * scales) is not defined here: each family defines its own state struct in its header (ops/<family>/)
 * and the launch allocates and resets it; the machine only holds the pointers. */
#ifndef PTOSIM_MACHINE_H
#define PTOSIM_MACHINE_H
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "ptosim.h"
#include "isa/target.h"
#include "program.h"
#include "timing.h"

typedef struct Core Core;
typedef struct Cluster Cluster;
typedef struct Sim Sim;

/* Family state, defined by the families (ops/<family>/<family>.h). */
struct ScalarState;
struct SyncState;
struct SyncClusterState;
struct DmaState;
struct VecState;
struct CubeState;
struct SimtState;
struct TilePipeState;

/* ---- memory ---- */
/* A device allocation in GM: [base, base+size), the caller's bytes at `data`, named after its first
   parameter `param`; `output` when a parameter in it is an output (W-UNWRITTEN). */
/* written: some access with a write mode reached the buffer in this run (set atomically: blocks on threads);
   only such buffers are copied back to the caller's memory */
/* alias: the run accesses the caller's bytes `data` in place, not the image's slot (gm.c, sim_gm_unalias) */
typedef struct GmBuf { uint64_t base, size; uint8_t *data; const char *name; uint32_t param; uint8_t output, gap_ready, written, alias; } GmBuf;
/* What the launch binds to parameter i: a pointer parameter's host bytes, or nothing (`is_ptr` 0). */
typedef struct GmBind { uint8_t *data; uint64_t size; const char *name; uint8_t is_ptr, output; } GmBind;
#define SIM_GM_BASE (1ull << 40)       /* the first allocation's device address */
#define SIM_GM_GAP_BYTE 0xA5           /* what GM bytes outside every buffer read as */

/* ---- per-pipe queue ---- */
typedef struct QEntry {
    const Instr *in;
    uint64_t t_issue;
    uint32_t cap, ncap;        /* captured values in the pipe's capture FIFO */
    uint32_t seq;              /* program-order number (for get_buf) */
    uint32_t race_snap;        /* the issuing SU's clock snapshot (race detection), or UINT32_MAX */
    int64_t aux;
} QEntry;

/* Ops a pipe's queue holds (issued, not yet completed, the executing one included); the scalar unit stalls
   issuing to a full queue (stall cause "queue full", docs/timing.md). */
#define PIPE_QUEUE_DEPTH 32

typedef struct Pipe {
    QEntry *q;
    uint32_t head, tail, cap;
    uint64_t *caps;
    uint32_t chead, ctail, ccap;
    uint64_t t;                /* time the pipe becomes free */
    uint64_t wake_t;           /* lower bound after being woken from a wait */
    uint64_t bytes, ops;
    uint64_t busy;             /* cycles spent executing ops */
    uint64_t stall[8];         /* cycles the head op waited, by WaitCause (observe.h) */
    uint64_t wait_since;       /* when the head op (or the SU's current op) first had to wait */
    int waiting;               /* head entry is blocked (wait) */
    int stalled;               /* wait_since is set */
} Pipe;

typedef enum { CORE_AIV, CORE_AIC } CoreType;

/* A core's name in every report: "AIC" or "AIV" when its cluster has one core, else "AIC", "AIV0", "AIV1". */
static inline const char *core_label(int type, unsigned subblock, unsigned ncores)
{
    if (type == CORE_AIC) return "AIC";
    return ncores <= 1 ? "AIV" : subblock ? "AIV1" : "AIV0";
}

/* Interpreter context (one per core for the SU, one for the V pipe, one for the other pipes). */
struct Exec {
    Core *core;
    int64_t aux;               /* the issue hook's value for the entry being executed */
    uint64_t extra_cost;       /* cycles a handler adds to its op's base cost */
    uint64_t attributed;       /* of those, cycles the profile already gave to other instructions */
    int race_quiet;            /* accesses are being recorded precisely by the caller */
    uint8_t *frame;            /* current frame */
    uint8_t *frame_base;       /* frame stack storage */
    uint32_t frame_top, frame_cap;
    uint64_t steps;
    uint64_t left;             /* V interpreter: steps still allowed + 1 (interp_vecscope); a handler that does the
                                  work of several instructions takes their steps from it. 0 outside that loop. */
    struct Observe *prof;      /* V interpreter with the profile on: such a handler credits every instruction it
                                  does (obs_profile) and adds their cycles to `attributed` too; else NULL */
    PipeQ pipe;                /* which agent this context belongs to */
    const Instr *cur;          /* the op being executed by the agent (SU or pipe job) */
    uint64_t now;              /* the cycle at which it started */
    uint64_t retry_at;         /* set by a handler that waits for something due at a known later cycle */
    struct CallRec { const Instr *ret; uint8_t *frame; const Instr *call; } *calls;
    uint32_t ncalls, capcalls;
};

struct Core {
    Sim *sim;
    Cluster *cl;
    CoreType type;
    int index;                 /* within the cluster: 0 = AIC (mixed) or the only core; AIVs 1, 2 */
    int subblock;
    uint64_t block_idx;
    uint8_t *mem[AS__COUNT];   /* local buffers (gm unused) */
    uint64_t memsz[AS__COUNT];
    uint64_t ub_fast_lim;      /* vector NORM fast paths: a 256-byte UB access at a < this is in bounds and
                                  needs no race recording (0 while the race detector is on) */
    Exec su, v, px;            /* SU interpreter, V-pipe interpreter, other pipes (no frame) */
    Pipe pipes[PQ__COUNT];
    const Instr *pc;           /* SU program counter */
    int su_state;              /* 0 running, 1 blocked, 2 done */
    int su_queue_full;         /* the SU is blocked because the target pipe's queue holds PIPE_QUEUE_DEPTH ops */
    const Instr *su_blocked_on;
    uint64_t su_t;
    uint32_t issue_seq;
    struct ScalarState *scalar;
    struct SyncState *sync;
    struct DmaState *dma;
    struct VecState *vec;
    struct CubeState *cube;
    struct SimtState *simt;    /* SIMT launches (ops/simt/) */
    struct AutoSync *as;       /* auto-sync records (exec/autosync.c), NULL until first used */
    /* pto.syncall (ops/sync/syncall.c): the barrier the SU waits at (grid_wait), the arrival count that releases
       it and which of the launch's barriers it is; how many barriers the core has passed (the GM race check
       orders accesses of different blocks across one) */
    uint8_t grid_wait;
    uint8_t grid_pipe_wait;    /* a pipe's head waits for a cross-block (ffts_mode 0) flag the launch must raise */
    uint8_t grid_bar;
    int64_t grid_target, grid_round;
    uint32_t grid_epoch;
    const Instr *grid_at;      /* the op that waits (pto.syncall, or the mode-0 wait at a pipe's head) */
    uint32_t xblock_waits[16]; /* cross-block (ffts_mode 0) flags this core's waits consumed, per flag id */
};

struct Cluster {
    Sim *sim;
    Core cores[3];
    int ncores;
    struct SyncClusterState *sync;   /* intra-block semaphores, cross-core flags */
    struct TilePipeState *tpipe;     /* the cube<->vector tile pipes of the block (ops/tile/tile_pipe.c) */
    struct Race *race;         /* race detection state, NULL when off */
    int watch;                 /* some access check is on: fast paths report their exact accesses */
    int gm_watch;              /* GM accesses are reported exactly (the block runs on a private GM view) */
    TmGmFlows gmf;             /* the block's GM transfers in flight (timing.h; reset by sim_run_cluster) */
};

/* The launch's pto.syncall barriers (ops/sync/syncall.c). A kernel with one runs its blocks side by side on one
   thread (api/blocks.c run_cohort): each block runs until every core has finished or waits at a barrier
   (sim_run_cluster returns SIM_PARKED), then the next; a sweep in which no core arrives or leaves is a deadlock. */
enum { GRID_MAX_BARS = 64, GRID_ROUNDS = 8 };
typedef struct GridBar {
    uint64_t key;              /* a GM workspace's address (soft), or 1 + the core set (hard) */
    int64_t count;             /* arrivals so far (hard; a soft barrier counts in GM) */
    uint64_t round_t[GRID_ROUNDS];   /* per round (mod GRID_ROUNDS): the latest arrival's cycle, its release time */
} GridBar;
typedef struct GridSync {
    uint64_t progress;         /* arrivals and releases so far */
    GridBar bar[GRID_MAX_BARS];
    unsigned nbar;
} GridSync;
enum { SIM_PARKED = 4 };       /* sim_run_cluster: every core left waits at a pto.syncall (or has finished) */

/* Reports a deadlock of cluster cl located at the op that can never proceed, with notes explaining why;
   returns the diagnostic's index, or -1 when it cannot explain it (the scheduler then reports it plainly).
   Installed by the launch (the synchronisation family knows what waits wait for). */
typedef long (*DeadlockHook)(Cluster *cl);

/* What makes a run-time diagnostic a repeat, dropped when the blocks' diagnostics are merged in block order
   (fault.c): the op and ID of a once-per-op warning (DK_ONCE), or the two ops of a race (DK_PAIR). */
typedef struct DiagKey { long idx; int kind; const void *a, *b; DiagId id; } DiagKey;
enum { DK_ONCE = 1, DK_PAIR };
/* The launch's record of those: ops that warned, race pairs reported. */
enum { SIM_MAX_WARNED = 64, SIM_MAX_PAIRS = 20 };
typedef struct SimReported {
    const void *warned[SIM_MAX_WARNED];
    DiagId warned_id[SIM_MAX_WARNED];
    unsigned nwarned;
    const void *pairs[SIM_MAX_PAIRS][2];
    unsigned npairs;
} SimReported;

/* A block's simulation. Blocks run on threads each on its own Sim (a copy of the launch's settings with its
   own cluster, diagnostics, records and GM view); api/ merges them in block order. */
struct Sim {
    PtoCtx *ctx;
    DiagList *diags;           /* where the block's run-time diagnostics go */
    struct StrBuf *out;        /* the block's device output (pto.print, pto.tprint; sim_out), or NULL */
    DiagKey *dkeys;            /* their repeat keys, in diagnostic order */
    size_t ndkeys, capdkeys;
    uint8_t dkeys_oom;         /* a key could not be recorded: the block fails with T-OOM */
    struct GmView *view;       /* the block's private view of GM (gmview.h), or NULL: GM is accessed in place */
    const Program *prog;
    const Func *entry;
    const TargetProfile *tp;
    GmBuf *gm;                 /* the device allocations, in address order (gm.c) */
    uint32_t ngm;
    uint8_t *gm_mem;           /* host image of the device's GM [SIM_GM_BASE, SIM_GM_BASE + gm_span) */
    uint64_t gm_span, gm_cap;
    int gm_strict;             /* an access that leaves its buffer traps T-OOB */
    int gm_gaps_dirty;         /* a write landed outside every buffer: refill the gaps before the next run */
    uint64_t *params;          /* entry parameter values (raw bits) */
    unsigned blocks, block_num;
    uint64_t step_limit;
    uint64_t max_memory;       /* GM image + bound host bytes a run may need (pto_launch_set_memory_limit) */
    uint64_t gm_need;          /* what the last sim_gm_place needed, when it returned -2 */
    int trapped;
    Cluster *cl;
    PtoStats stats;
    const Timing *timing;      /* the launch's timing table */
    struct Observe *obs;       /* time records (stats always; trace and profile on request) */
    DeadlockHook deadlock_explain;
    struct Check *check;       /* initcheck, unwritten outputs, races between blocks (check.h) */
    unsigned checks;           /* CHK_* of check.h */
    int race_check;
    int flag_key;              /* FLAG_KEY_* forced by the launch, or 0: the target's (sim_flag_key) */
    int flag_lossy;            /* flag model: a set while the flag is set is lost (docs/semantics.md §2) */
    int vag_loops;             /* pto.vag binds the enclosing loops' iteration counts (else they read 0) */
    int tile_op_expand;        /* tile ops read as the TileLib templates expand them where pto-isa differs */
    uint64_t autosync_edges;   /* dependencies auto-sync inferred (exec/autosync.c), summed over the blocks */
    GridSync *grid;            /* the launch's pto.syncall barriers (shared by its blocks), or NULL */
    const Instr *warned[SIM_MAX_WARNED];   /* (op, ID) pairs that already produced their run-time warning (sim_warn_once) */
    DiagId warned_id[SIM_MAX_WARNED];
    unsigned nwarned;
};

/* ---- frame access ---- */
#define FR(x, off) ((x)->frame + (off))
static inline uint64_t fr_u64(const Exec *x, int32_t off) { uint64_t v; memcpy(&v, x->frame + off, 8); return v; }
static inline void fr_set_u64(Exec *x, int32_t off, uint64_t v) { memcpy(x->frame + off, &v, 8); }
/* Operand i of an instruction, as raw 64-bit value (scalars, pointers, indices). */
static inline uint64_t ARG(const Exec *x, const Instr *in, unsigned i) { return fr_u64(x, in->arg[i]); }

/* ---- device output (fault.c): appends n bytes to the block's output; past SIM_OUT_CAP bytes the output ends with
   one line saying it was cut (the hardware's print buffer is bounded too, docs/semantics.md §12) ---- */
enum { SIM_OUT_CAP = 1 << 22 };
void sim_out(Exec *x, const char *s, size_t n);
/* Appends the text an op built in b (and releases b); when b lost an allocation, traps T-OOM instead and returns -1. */
int sim_out_buf(Exec *x, const Instr *in, struct StrBuf *b);

/* ---- traps and memory (mem.c) ---- */
void sim_trap(Exec *x, const Instr *in, DiagId id, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A run-time warning at op `in`, reported once per op, ID and launch (at most 64); the run continues. */
void sim_warn_once(Exec *x, const Instr *in, DiagId id, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* True when op `in` already gave its run-time warning `id` in this run (or no more can be given). */
int sim_warned(const Exec *x, const Instr *in, DiagId id);
/* sim_warn_once returning the diagnostic's index for notes, or -1 (already given, or dropped). */
long sim_warn_once_at(Exec *x, const Instr *in, DiagId id, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The same, with a note at op `related` ("the earlier ... is here"). */
void sim_warn_note(Exec *x, const Instr *in, DiagId id, const Instr *related, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Records the repeat key of diagnostic `idx` of s->diags (DK_ONCE: a = the op, its ID; DK_PAIR: the two ops). */
void sim_diag_key(Sim *s, long idx, int kind, const void *a, const void *b, DiagId id);
/* Appends a block's run-time diagnostics `src` (with their keys) to `dst`, dropping the repeats of what
   `rep` holds and recording the rest there: the launch reports what running its blocks one after another
   would, whichever thread ran them. */
void sim_diags_merge(DiagList *dst, SimReported *rep, const DiagList *src, const DiagKey *keys, size_t nkeys);
/* How an op uses the bytes it accesses, for the checkers (races, initcheck, outputs, GM overlap): ACC_READ,
   ACC_WRITE, or ACC_ATOMIC, an atomic read-modify-write (atomics of one kind do not race with each other).
   A read-modify-write that is not atomic (mad_acc's accumulator) is a read and a write, recorded apart. */
enum { ACC_READ, ACC_WRITE, ACC_ATOMIC };
/* Host pointer for [addr, addr+len) in space `as` of core c, or NULL after raising a trap; while a checker
   watches, the access is recorded with `mode` (ACC_*). `what` names the access for messages only ("source",
   "destination"). `align` = required alignment (1 = none). */
uint8_t *sim_mem(Exec *x, const Instr *in, AddrSpace as, uint64_t addr, uint64_t len, unsigned align, int mode,
                 const char *what);
/* The one checked address computation, base + idx x size, done exactly (docs/semantics.md "Checked sizes"): when
   the exact result is not a 64-bit address (the product or the sum wraps) it is SIM_ADDR_WRAP, on which every
   access traps T-WRAP (sim_mem: a range ending past 2^64), never the wrapped value that would alias element 0.
   A poisoned base stays poisoned. Every op forming `pointer[index]` or advancing a pointer by elements uses it. */
#define SIM_ADDR_WRAP UINT64_MAX
/* a x b for a stride or size in bytes with a signed count a (a negative stride keeps its two's-complement
   spelling): sets *wrap when the exact product is not a 64-bit signed value. */
static inline uint64_t sim_mul_checked(int64_t a, uint64_t b, int *wrap)
{
    int64_t r;
    if (b > INT64_MAX || __builtin_mul_overflow(a, (int64_t)b, &r)) {
        *wrap = 1;
        return 0;
    }
    return (uint64_t)r;
}
static inline uint64_t sim_index_addr(uint64_t base, int64_t idx, uint64_t size)
{
    uint64_t mag = idx < 0 ? 0 - (uint64_t)idx : (uint64_t)idx, m, a;
    if (base == SIM_ADDR_WRAP || __builtin_mul_overflow(mag, size, &m)) return SIM_ADDR_WRAP;
    if (idx >= 0) return __builtin_add_overflow(base, m, &a) ? SIM_ADDR_WRAP : a;
    return base < m ? SIM_ADDR_WRAP : base - m;
}
uint8_t *sim_mem_core(Exec *x, Core *c, const Instr *in, AddrSpace as, uint64_t addr, uint64_t len, unsigned align,
                      int mode, const char *what);
/* sim_mem_core for an op that touches only part of [addr, addr+len) (a strided writeback): the span is checked
   but not recorded; while sim_watching(c, as), the op records each run it touches with sim_access. */
uint8_t *sim_mem_span(Exec *x, Core *c, const Instr *in, AddrSpace as, uint64_t addr, uint64_t len, unsigned align,
                      int mode, const char *what);
#define sim_watching(c, as) ((c)->cl->watch || ((as) == AS_GM && (c)->cl->gm_watch))
/* The run of adjacent bytes such an op is touching: sim_run_add extends it by [a, a+len) when that follows it,
   else records it (sim_access) and starts a new one; sim_run_end records the last. */
typedef struct SimRun { uint64_t lo, hi; } SimRun;
static inline void sim_access(Exec *x, const Instr *in, Core *owner, AddrSpace as, uint64_t addr, uint64_t len, int mode);
static inline void sim_run_end(Exec *x, const Instr *in, Core *c, AddrSpace as, SimRun *r, int mode)
{
    if (r->hi > r->lo) sim_access(x, in, c, as, r->lo, r->hi - r->lo, mode);
    r->lo = r->hi = 0;
}
static inline void sim_run_add(Exec *x, const Instr *in, Core *c, AddrSpace as, SimRun *r, uint64_t a, uint64_t len, int mode)
{
    if (r->hi > r->lo && a == r->hi) { r->hi += len; return; }
    sim_run_end(x, in, c, as, r, mode);
    r->lo = a;
    r->hi = a + len;
}
/* ---- GM, one flat device address space (gm.c) ---- */
/* Places the n parameters' buffers (b[i].is_ptr) and copies them in; addr[i] receives each one's device
   address. s->gm must hold n entries. 0, or -1 when out of memory. */
int sim_gm_place(Sim *s, const GmBind *b, unsigned n, uint64_t *addr);   /* -1 out of memory, -2 over max_memory */
void sim_gm_copy_out(Sim *s);              /* the allocations' bytes back to the caller's memory */
void sim_gm_unalias(Sim *s);               /* every buffer into the image (before an access leaves a buffer, or views) */
void sim_gm_free(Sim *s);
void sim_gm_fill_gaps(Sim *s, uint64_t addr, uint64_t len);   /* the gaps of the slots [addr, addr+len) meets (len 0: all) */
int sim_gm_find(const Sim *s, uint64_t addr);   /* the allocation whose slot holds addr, or -1 */
/* sim_mem for GM: host pointer for [addr, addr+len), reporting an access that leaves its buffer. */
uint8_t *sim_gm_access(Exec *x, const Instr *in, uint64_t addr, uint64_t len, int mode, const char *what);
/* An access the op `in` running on x makes, for the checkers (races, initcheck, outputs): [addr, addr+len)
   of space `as` owned by core `owner`. Only called while the cluster's `watch` is set. */
void race_access(Exec *x, const Instr *in, Core *owner, AddrSpace as, uint64_t addr, uint64_t len, int write);
void check_access(Exec *x, const Instr *in, const Core *owner, AddrSpace as, uint64_t addr, uint64_t len, int mode);
void sim_view_access(Exec *x, uint64_t addr, uint64_t len, int mode);
static inline void sim_access(Exec *x, const Instr *in, Core *owner, AddrSpace as, uint64_t addr, uint64_t len, int mode)
{
    if (as == AS_GM && x->core->sim->view && !x->race_quiet) sim_view_access(x, addr, len, mode);
    if (x->core->cl->race) {
        race_access(x, in, owner, as, addr, len, mode != ACC_READ);
        if (mode == ACC_ATOMIC) race_access(x, in, owner, as, addr, len, 0);   /* read-modify-write */
    }
    if (x->core->sim->checks) check_access(x, in, owner, as, addr, len, mode);
}

/* ---- scheduler (sched.c) ---- */
const Instr *sim_issue(Exec *x, const Instr *in);          /* SU: capture operands and enqueue */
const Instr *sim_exec_now(Exec *x, const Instr *in);       /* run a PipeFn immediately (pipe resolved to S) */
/* The scalar unit's PIPE_ALL barrier: 0 once every queue of x's core has drained (its time then advances to the
   last pipe's and it joins their clocks), -1 while one still holds work (the op waits: SIM_BLOCKED). */
int sim_drain_all(Exec *x);
void sim_signal(Core *c, uint64_t t);                       /* state changed at time t: blocked agents retry */
int sim_run_cluster(Cluster *cl);          /* runs one block; 0 ok, 3 trap, SIM_PARKED (resume by calling again) */
/* The head entry of pipe p's queue, or NULL, and the values captured for it. */
const QEntry *sim_queue_head(const Core *c, int p);
const uint64_t *sim_entry_args(const Core *c, int p, const QEntry *e);
/* Entry k (0 = head) of pipe p's queue, or NULL. */
const QEntry *sim_queue_entry(const Core *c, int p, uint32_t k);
/* Synchronisation edges: a release by the op running on x (set_flag, rls_buf, a semaphore or cross-core
   set) on channel (kind, key), and the acquire that consumes it (kinds: RC_* of race.h). The race detector
   orders by them and the time records draw them as flows. */
void sim_release(Exec *x, int kind, unsigned key);
void sim_acquire(Exec *x, int kind, unsigned key);
/* The accumulating channel (RC_BUF) an L1 -> UB copy releases when it completes; buffer ids use keys
   index*64 + 0..31. A set on the FIX pipe issued after the copy acquires it (docs/semantics.md §8.1). */
static inline unsigned sim_l1ub_key(const Core *c) { return (unsigned)(c->index * 64 + 32); }

/* A transfer of `bytes` from one address space to another by the op running on x: counts the bytes and
   adds the path's cycles (timing model) to the op. */
void sim_transfer(Exec *x, unsigned src_space, unsigned dst_space, uint64_t bytes);
/* A FIXPIPE drain of rows x cols accumulator elements writing `bytes` to dst_space: its cycles
   (timing_fixpipe_gm) on the op's cost, its bytes on the pipe's count. */
void sim_fixpipe(Exec *x, unsigned dst_space, uint64_t rows, uint64_t cols, uint64_t bytes);
/* Counts an executed op and bytes moved on a pipe. */
static inline void sim_count(Exec *x, unsigned pipe, uint64_t bytes)
{
    x->core->pipes[pipe].ops++;
    x->core->pipes[pipe].bytes += bytes;
}
#endif
