/* sim.h — the executable program and the machine it runs on.
 *
 * Lowering (lower.c) turns a verified function into flat Instr arrays, one per region, with every
 * operand resolved to a frame offset and every handler chosen in advance. A core's scalar unit (SU)
 * interprets the function body: scalar ops run at once, pipe ops are *issued*: their operand values are
 * captured into the pipe's in-order queue and executed later by that pipe, in the order the
 * discrete-event scheduler (sched.c) picks. A pto.vecscope is one queued job on V whose body is
 * interpreted on the V pipe with its own frame. Memory effects happen when the owning pipe executes. */
#ifndef PTOSIM_SIM_H
#define PTOSIM_SIM_H
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "isa/ctx.h"
#include "isa/ir.h"
#include "ptosim.h"
#include "isa/target.h"

typedef struct Exec Exec;
typedef struct Instr Instr;
typedef struct Core Core;
typedef struct Cluster Cluster;
typedef struct Sim Sim;

/* Pipes (queues) of a core. PQ_S is the scalar unit itself. */
typedef enum { PQ_S, PQ_V, PQ_MTE1, PQ_MTE2, PQ_MTE3, PQ_M, PQ_FIX, PQ__COUNT, PQ_ALL = 15 } PipeQ;

/* Frame handler: executes `in` in interpreter context x; returns the next instruction, NULL at the end
   of the region, or SIM_BLOCKED to suspend (the SU resumes at x->resume). */
typedef const Instr *(*ExecFn)(Exec *x, const Instr *in);
/* Queued handler: executes a captured pipe op. Returns 0 when done, 1 when it must wait (retried later),
   -1 after raising a trap. `args` are the operand values captured at issue. */
typedef int (*PipeFn)(Exec *x, const Instr *in, const uint64_t *args);
/* Issue hook: runs in the SU when a queued op is issued; its result is stored in the entry's aux. */
typedef int64_t (*IssueFn)(Exec *x, const Instr *in, const uint64_t *args);

extern const Instr sim_blocked_marker;
#define SIM_BLOCKED (&sim_blocked_marker)

enum { INSTR_MAX_ARGS = 24 };

struct Instr {
    ExecFn fn;                 /* immediate execution (SU or V interpreter) */
    PipeFn pfn;                /* queued execution, when pipe != PQ_S */
    IssueFn ifn;               /* optional, at issue time */
    const Op *op;              /* source, for locations and diagnostics */
    uint16_t kind;
    uint8_t pipe;              /* PipeQ the op is issued to (resolved for PIPE_DYN ops) */
    uint8_t nargs, nres;
    int32_t arg[INSTR_MAX_ARGS];   /* frame offsets of operands in operand order; -1 = absent */
    int32_t res[4];            /* frame offsets of results */
    int64_t imm[8];            /* per-op decoded constants (element kinds, token ids, flags) */
    const Instr *jump;         /* control flow target / region body */
    const Instr *jump2;
    void *ext;                 /* per-op lowered data (capture lists, sub-programs, tables) */
    const void *ext2;
    uint32_t cost;             /* simulated cycles (timing table) */
    uint8_t queued;            /* issued to a pipe queue by the SU (set by lowering) */
};

/* Values captured when a vecscope (or call) is issued: (frame offset, bytes). */
typedef struct Capture { int32_t off; uint32_t size; } Capture;
typedef struct CaptureList { uint32_t n; uint32_t bytes; Capture c[]; } CaptureList;

typedef struct Func {
    const Op *op;
    const char *name;
    const Instr *entry;
    uint32_t frame_size;
    uint32_t nparams;
    int32_t *param_off;
    const Type *const *param_types;
    const Instr **ret_instr;
} Func;

typedef struct Program {
    Arena arena;
    Func *funcs;
    uint32_t nfuncs;
    uint32_t max_frame;
    bool has_cube, has_vector;     /* sections present */
    bool uses_cube, uses_vector;   /* ops that need an AIC / an AIV */
    int kernel_kind;               /* 0 vector-only, 1 cube-only, 2 mixed */
} Program;

/* ---- memory ---- */
typedef struct GmBuf { uint64_t base, size; uint8_t *data; const char *name; } GmBuf;

/* ---- per-pipe queue ---- */
typedef struct QEntry {
    const Instr *in;
    uint64_t t_issue;
    uint32_t cap, ncap;        /* captured values in the pipe's capture FIFO */
    uint32_t seq;              /* program-order number (for get_buf) */
    uint32_t race_snap;        /* the issuing SU's clock snapshot (race detection), or UINT32_MAX */
    int64_t aux;
} QEntry;

typedef struct Pipe {
    QEntry *q;
    uint32_t head, tail, cap;
    uint64_t *caps;
    uint32_t chead, ctail, ccap;
    uint64_t t;                /* time the pipe becomes free */
    uint64_t wake_t;           /* lower bound after being woken from a wait */
    uint64_t bytes, ops;
    int waiting;               /* head entry is blocked (wait) */
} Pipe;

typedef enum { CORE_AIV, CORE_AIC } CoreType;

/* Interpreter context (one per core for the SU, one for the V pipe). */
struct Exec {
    Core *core;
    int64_t aux;               /* the issue hook's value for the entry being executed */
    uint64_t extra_cost;       /* cycles a handler adds to its op's base cost */
    int race_quiet;            /* accesses are being recorded precisely by the caller */
    uint8_t *frame;            /* current frame */
    uint8_t *frame_base;       /* frame stack storage */
    uint32_t frame_top, frame_cap;
    const Instr *resume;       /* where a blocked SU resumes */
    uint64_t steps;
    PipeQ pipe;                /* which agent this context belongs to */
    struct CallRec { const Instr *ret; uint8_t *frame; const Instr *call; } *calls;
    uint32_t ncalls, capcalls;
};

struct Core {
    Sim *sim;
    Cluster *cl;
    CoreType type;
    int index;                 /* within the cluster: 0 = AIC (mixed) or the only core; AIVs 1, 2 */
    int subblock;
    uint8_t *mem[AS__COUNT];   /* local buffers (gm unused) */
    uint64_t memsz[AS__COUNT];
    uint64_t ub_fast_lim;      /* vector NORM fast paths: a 256-byte UB access at a < this is in bounds and
                                  needs no race recording (0 while the race detector is on) */
    Exec su, v, px;            /* SU interpreter, V-pipe interpreter, other pipes (no frame) */
    Pipe pipes[PQ__COUNT];
    const Instr *pc;           /* SU program counter */
    int su_state;              /* 0 running, 1 blocked, 2 done */
    const Instr *su_blocked_on;
    uint64_t su_t;
    uint32_t flags[PQ__COUNT][PQ__COUNT][16];  /* set/wait counters per (src, dst, event) */
    const Instr *flag_set_at[PQ__COUNT][PQ__COUNT][16];
    uint32_t buf_issued_rls[64], buf_retired_rls[64];
    uint32_t buf_held[PQ__COUNT];          /* per pipe: ids acquired by get_buf and not yet released */
    uint32_t issue_seq;
    /* legacy DMA configuration registers (resolutions Q10) */
    uint64_t loop_outtoub[2], loop1_outtoub[2], loop2_outtoub[2];
    uint64_t loop_ubtoout[2], loop1_ubtoout[2], loop2_ubtoout[2];
    uint64_t pad_val;
    int atomic_mode;           /* set_atomic_* state for MTE3 stores */
    uint64_t ctrl;             /* control register (get_ctrl/set_ctrl) */
    uint16_t vms4_sr[4];
    uint64_t spr_ar;           /* SPR AR (vstur base offset) */
    uint32_t spr_sqzn;         /* SPR SQZN (byte count set by vsqz/vusqz, used by vstur) */
    uint8_t *mx_scale;         /* MX scale state: one byte per 32 bytes of L0A, then of L0B */
    uint64_t block_idx;
};

struct Cluster {
    Sim *sim;
    Core cores[3];
    int ncores;
    uint32_t sems[32];         /* intra-block semaphores */
    uint32_t cross_c2v[2][16], cross_v2c[16];   /* a2a3 set_cross_core / wait_flag_dev */
    struct Race *race;         /* race detection state, NULL when off */
};

struct Sim {
    PtoCtx *ctx;
    const Program *prog;
    const Func *entry;
    const TargetProfile *tp;
    GmBuf *gm;
    uint32_t ngm;
    uint64_t *params;          /* entry parameter values (raw bits) */
    unsigned blocks, block_num;
    uint64_t step_limit;
    int trapped;
    Cluster *cl;
    PtoStats stats;
    int race_check;
    int vag_loops;             /* pto.vag binds the enclosing loops' iteration counts (else they read 0) */
    const Instr *warned[64];   /* ops that already produced their run-time warning (sim_warn_once) */
    unsigned nwarned;
};

/* ---- vector state layouts in frames ----
 * vreg  : 256 bytes; lane i of an E-byte element type occupies bytes [i*E, (i+1)*E), little-endian.
 * mask  : 32 bytes = the 256-bit predicate image; image bit k is bit (k % 8) of byte k / 8
 *         (resolutions notation). Logical lane i of a mask<bG> view is image bit g*i (Q3).
 * align : 128 bytes holding an AlignState (below). */
enum { VREG_BYTES = 256, MASK_BYTES = 32, ALIGN_BYTES = 128 };

/* An unaligned store stream (init_align -> vstus/vstur/pstu ... -> vstas/vstar flush) or a primed load
   stream (vldas -> vldus). Bytes appended to a store stream are written to UB exactly once, at their own
   address; the bytes of an incomplete 32-byte block are held until the block completes, the stream moves
   to another block, or the stream is flushed (resolutions Q21). */
typedef struct AlignState {
    uint8_t pending[32];       /* bytes of the block being assembled */
    uint64_t block;            /* UB address of that 32-byte block */
    uint32_t valid;            /* bit b set = pending[b] holds a stream byte */
    uint8_t init;              /* 1 = created by init_align / vldas / a stream op */
    uint8_t load;              /* 1 = a load-stream state (vldas) */
    uint8_t pad_[2];
    uint64_t cursor;           /* next address the stream expects (informational) */
} AlignState;
_Static_assert(sizeof(AlignState) <= ALIGN_BYTES, "AlignState must fit its frame slot");

/* Appends n bytes at UB address addr to the store stream; returns 0, or -1 after a trap (bounds). */
int align_append(Exec *x, const Instr *in, AlignState *st, uint64_t addr, const uint8_t *bytes, uint64_t n);
/* Writes the held bytes of the stream and empties it; returns 0 or -1 after a trap. */
int align_flush(Exec *x, const Instr *in, AlignState *st);

/* ---- frame access ---- */
#define FR(x, off) ((x)->frame + (off))

/* ---- host SIMD ----
 * x86-64 with GCC or Clang: hot vector handlers are also built for AVX2 and chosen at lowering when the
 * host CPU has it (the semantics are identical; only the host vector width differs). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SIM_HAVE_AVX2 1
#else
#define SIM_HAVE_AVX2 0
#endif
static inline bool sim_host_avx2(void)
{
#if SIM_HAVE_AVX2
    return __builtin_cpu_supports("avx2") != 0;
#else
    return false;
#endif
}

/* Lane i of width e bytes (1, 2, 4 or 8) of a register or memory image, zero-extended. */
static inline uint64_t lane_get(const uint8_t *v, unsigned e, unsigned i)
{
    switch (e) {
    case 1: return v[i];
    case 2: { uint16_t x; memcpy(&x, v + 2 * i, 2); return x; }
    case 4: { uint32_t x; memcpy(&x, v + 4 * i, 4); return x; }
    default: { uint64_t x; memcpy(&x, v + 8 * i, 8); return x; }
    }
}
static inline void lane_set(uint8_t *v, unsigned e, unsigned i, uint64_t x)
{
    switch (e) {
    case 1: v[i] = (uint8_t)x; break;
    case 2: { uint16_t y = (uint16_t)x; memcpy(v + 2 * i, &y, 2); break; }
    case 4: { uint32_t y = (uint32_t)x; memcpy(v + 4 * i, &y, 4); break; }
    default: memcpy(v + 8 * i, &x, 8); break;
    }
}
static inline uint64_t fr_u64(const Exec *x, int32_t off) { uint64_t v; memcpy(&v, x->frame + off, 8); return v; }
static inline void fr_set_u64(Exec *x, int32_t off, uint64_t v) { memcpy(x->frame + off, &v, 8); }
/* Operand i of an instruction, as raw 64-bit value (scalars, pointers, indices). */
static inline uint64_t ARG(const Exec *x, const Instr *in, unsigned i) { return fr_u64(x, in->arg[i]); }

/* ---- traps and memory (mem.c) ---- */
void sim_trap(Exec *x, const Instr *in, DiagId id, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A run-time warning at op `in`, reported once per op and run (at most 64 ops); the run continues. */
void sim_warn_once(Exec *x, const Instr *in, DiagId id, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Host pointer for [addr, addr+len) in space `as` of core c, or NULL after raising a trap. `what` names
   the access for the message ("source", "destination"). `align` = required alignment (1 = none). */
uint8_t *sim_mem(Exec *x, const Instr *in, AddrSpace as, uint64_t addr, uint64_t len, unsigned align, const char *what);
uint8_t *sim_mem_core(Exec *x, Core *c, const Instr *in, AddrSpace as, uint64_t addr, uint64_t len, unsigned align,
                      const char *what);
uint64_t sim_gm_base(unsigned index);

/* ---- lowering (lower.c) ---- */
Program *lower_module(PtoCtx *ctx, const Module *m, const Op *entry, char *err, size_t errn);
void program_free(Program *p);

/* Family lowering hooks: fill in->fn / in->pfn / in->imm / in->cost from the op. Return 0 on success,
   or -1 with a diagnostic (e.g. an op the simulator cannot execute). Defined in the family modules. */
typedef struct LowerCtx LowerCtx;
int lower_family_dma(LowerCtx *L, const Op *op, Instr *in);
int lower_family_sync(LowerCtx *L, const Op *op, Instr *in);
int lower_family_scalar(LowerCtx *L, const Op *op, Instr *in);
int lower_family_pred(LowerCtx *L, const Op *op, Instr *in);
void sync_report_leftovers(Cluster *cl);   /* W-FLAG-LEFTOVER after a completed block (Q47) */
bool pred_all_active(const Value *m, unsigned elem_bytes);
int lower_family_vector(LowerCtx *L, const Op *op, Instr *in);
int lower_family_cube(LowerCtx *L, const Op *op, Instr *in);

/* helpers for family lowering */
const OpSig *lw_sig(LowerCtx *L, const Op *op);
int lw_group_index(LowerCtx *L, const Op *op, const char *group, unsigned j);   /* operand index or -1 */
bool lw_const(LowerCtx *L, const Value *v, int64_t *out);                        /* arith.constant value */
Arena *lw_arena(LowerCtx *L);
void lw_error(LowerCtx *L, const Op *op, DiagId id, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
PtoTarget lw_target(LowerCtx *L);

/* ---- scheduler (sched.c) ---- */
const Instr *sim_issue(Exec *x, const Instr *in);          /* SU: capture operands and enqueue */
const Instr *sim_exec_now(Exec *x, const Instr *in);       /* run a PipeFn immediately (pipe resolved to S) */
void sim_signal(Core *c, uint64_t t);                       /* state changed at time t: blocked agents retry */
const CaptureList *sim_scope_captures(const Instr *in);     /* non-NULL for vector scopes */
int sim_run_cluster(Cluster *cl);          /* runs one block; 0 ok, 3 trap */
void sim_issue_error(Exec *x, const Instr *in);
/* Counts an executed op and bytes moved on a pipe. */
static inline void sim_count(Exec *x, unsigned pipe, uint64_t bytes)
{
    x->core->pipes[pipe].ops++;
    x->core->pipes[pipe].bytes += bytes;
}
const char *pq_name(unsigned pq);
#endif
