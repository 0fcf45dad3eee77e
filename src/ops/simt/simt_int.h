/* simt_int.h — what the files of the SIMT family share: the per-core state, the workitems of the running
 * launch, the decoded operands (Instr.imm slots) and the entry points between simt.c (lowering, launches,
 * the workitem scheduler and collectives), simt_ops.c (per-workitem handlers), simt_math.c (numerics) and
 * simt_race.c (the race checker between workitems). */
#ifndef PTOSIM_SIMT_INT_H
#define PTOSIM_SIMT_INT_H
#include "simt.h"
#include "base/bits.h"
#include "base/num.h"

/* ---- Instr.imm slots ---- */
/* launches */
enum { SL_KIND, SL_DX, SL_DY, SL_DZ, SL_FAST };   /* SL_FAST: the lockstep path may run it (not --no-fast-paths) */
enum { SLK_LAUNCH, SLK_CALL, SLK_SECTION };
/* per-workitem ops: the value's shape (element format, lanes, element bits), the operation and its flags */
enum {
    SO_OP,                     /* the operation (SimtOp), or the query's OpKind */
    SO_FMT,                    /* NumFormat of float elements, -1 for integers */
    SO_LANES,                  /* lanes (1 for scalars) */
    SO_EBITS,                  /* element bits */
    SO_SIGNED,                 /* integer interpretation: 1 signed */
    SO_BYTES,                  /* memory ops: access bytes */
    SO_SPACE,                  /* memory ops: AddrSpace (or llvm address space for llvm.*) */
    SO_AUX,                    /* per op: shuffle width, offset bits, convert destination, slot, ... */
};

/* Element-wise float operations of the scalar math ops (simt_math.c). */
typedef enum {
    SM_ABS, SM_SQRT, SM_EXP, SM_LOG, SM_SIN, SM_COS, SM_CEIL, SM_FLOOR, SM_RINT, SM_ROUND,
    SM_POW, SM_MIN, SM_MAX, SM_FMA, SM_ADD, SM_SUB,
} SimtMath;

/* One element of format f: unary and binary ops (b unused for unary), fma takes c. */
uint64_t simt_math(SimtMath op, NumFormat f, uint64_t a, uint64_t b, uint64_t c);

/* ---- simt.c ---- */
/* The workitem running on x, or NULL (x is not a workitem: a trap names the op). */
SimtItem *simt_item(Exec *x, const Instr *in);
/* Sync points (collectives, pto.syncthreads): the workitem stops here until the scheduler resolves. */
const Instr *simt_sync_point(Exec *x, const Instr *in);

/* Lowering of launches, pto.store_vfsimt_info and the sync points; 1 when `op` is none of them. */
int simt_lower_launch(LowerView *L, const Op *op, Instr *in);

/* ---- simt_ops.c ---- */
/* The lane of packed value v (lanes of `bits` each) and the value with lane l replaced. */
static inline uint64_t simt_lane(uint64_t v, unsigned l, unsigned bits) { return (v >> (l * bits)) & bits_mask(bits); }

/* SO_ALIGN of memory ops (SO_SIGNED reused): the required alignment */
enum { SO_ALIGN = SO_SIGNED };

/* ---- simt_lock.c ---- */
/* Runs the prepared launch of F (items, frames and dims set by simt.c) with every workitem in lockstep: each
   instruction over all the workitems at the same point at once. 1 when F's body is not one it runs (nothing
   ran), 0 when done, -1 after a trap, 2 when an epoch could not run in lockstep: it was rolled back and every
   workitem waits at its start (pc, frame) for the per-workitem scheduler to continue. *steps and *cycles accumulate. */
/* Whether F's body runs in lockstep (decided once per function and kept). */
int simt_lock_ok(SimtState *st, const Func *F);   /* 1 lockstep, 0 per workitem, -1 out of memory */
int simt_lock_run(Exec *job, SimtState *st, const Func *F, const uint64_t *params, uint32_t nparams, uint64_t *steps,
                  uint64_t limit, uint64_t *cycles);
void simt_lock_free(SimtState *st);

/* ---- simt_race.c ---- */
/* Records a workitem's access to [addr, addr + len) of `as`; reports W-RACE on a conflict with another
   workitem in the same pto.syncthreads epoch. No-op outside a launch or with race checking off. */
void simt_race_access(Exec *x, const Instr *in, AddrSpace as, uint64_t addr, uint64_t len, int write, int atomic);
/* The same for the lanes[0..cnt) of one lockstep access, lane j at a0 + n·j (simt_lock.c). */
void simt_race_span(SimtState *st, const Instr *in, AddrSpace as, uint64_t a0, unsigned n, const uint16_t *lanes,
                    uint32_t cnt, int write);
void simt_race_begin(SimtState *st);
void simt_race_free(SimtState *st);
#endif
