/* program.h — the executable form of a kernel, as the lowering (lower/) builds it and the interpreter,
 * the scheduler and the families' run-time handlers (exec/, ops/) read it.
 *
 * A verified function becomes flat Instr arrays, one per region, with every operand resolved to a frame
 * offset and every handler chosen in advance. A core's scalar unit (SU) interprets the function body:
 * scalar ops run at once (Instr.fn), pipe ops are *issued*: their operand values are captured into the
 * pipe's in-order queue and executed later by that pipe (Instr.pfn). A vector scope is one queued job on
 * V whose body is interpreted on the V pipe with its own frame.
 *
 * The families' lowering hooks see the program being built only through LowerView (below): the driver
 * in lower/ implements the walk and control flow, the hooks fill in one Instr each. */
#ifndef PTOSIM_PROGRAM_H
#define PTOSIM_PROGRAM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/arena.h"
#include "base/diag.h"
#include "isa/ctx.h"
#include "isa/ir.h"
#include "pipe.h"

typedef struct Exec Exec;      /* interpreter context of one agent (machine.h) */
typedef struct Instr Instr;

/* Frame handler: executes `in` in interpreter context x; returns the next instruction, NULL at the end
   of the region or after a trap, or SIM_BLOCKED to suspend (the SU retries the same instruction). */
typedef const Instr *(*ExecFn)(Exec *x, const Instr *in);
/* Queued handler: executes a captured pipe op. Returns 0 when done, 1 when it must wait (retried later),
   -1 after raising a trap. `args` are the operand values captured at issue. */
typedef int (*PipeFn)(Exec *x, const Instr *in, const uint64_t *args);
/* Issue hook: runs in the SU when a queued op is issued; its result is the queue entry's aux value. */
typedef int64_t (*IssueFn)(Exec *x, const Instr *in, const uint64_t *args);
/* Footprint of a queued op in an auto-sync function (exec/autosync.h): what it will touch, from its captured
   values. */
struct AsFoot;
typedef void (*FootFn)(const Instr *in, const uint64_t *args, struct AsFoot *f);

extern const Instr exec_blocked_marker;
#define SIM_BLOCKED (&exec_blocked_marker)

/* Frame slots: a vreg is 256 bytes (lane i of an E-byte element type at bytes [iE, (i+1)E), little
   endian); a mask is the 32-byte predicate image (image bit k = bit k % 8 of byte k / 8; logical lane i of a
   mask<bG> view is image bit G·i); an align state 128 bytes; every other value 8 bytes, zero-extended. */
enum { VREG_BYTES = 256, MASK_BYTES = 32, ALIGN_BYTES = 128, INSTR_MAX_ARGS = 24 };

/* Frame values captured when a vector scope is issued: (frame offset, bytes), 8-byte padded in the queue. */
typedef struct Capture { int32_t off; uint32_t size; } Capture;
typedef struct CaptureList { uint32_t n; uint32_t bytes; Capture c[]; } CaptureList;

/* Parallel frame copies of control flow (iter_args, yields, call arguments): all sources are read before
   any destination is written. */
typedef struct CopyList { uint32_t n; struct { int32_t dst, src; uint32_t size; } c[]; } CopyList;

struct Instr {
    ExecFn fn;                 /* immediate execution (SU or V interpreter) */
    PipeFn pfn;                /* queued execution, when queued */
    IssueFn ifn;               /* optional, at issue time */
    FootFn foot;               /* auto-sync functions: the queued op's footprint (exec/autosync.h), else NULL */
    const Op *op;              /* source, for locations and diagnostics (NULL for synthetic ends) */
    const CaptureList *caps;   /* queued jobs that capture frame slots (vector scopes); NULL: the operands */
    uint16_t kind;             /* OpKind */
    uint8_t pipe;              /* PipeQ the op runs on (the op table's pipe; families set dynamic ones) */
    uint8_t queued;            /* issued to the pipe's queue by the SU (the driver decides) */
    uint8_t nargs, nres;
    int32_t arg[INSTR_MAX_ARGS];   /* frame offsets of operands in operand order; -1 = absent */
    int32_t res[4];            /* frame offsets of results */
    int64_t imm[8];            /* per-op decoded constants; each family names its slots (enums in its files) */
    const Instr *jump;         /* control-flow target / where the issuing stream continues */
    const Instr *jump2;
    const void *ext;           /* per-op lowered data (copy lists, sub-programs, tables) */
    const void *ext2;
    uint32_t cost;             /* base cycles of the op (timing model) */
    uint32_t id;               /* unique in the program (profile counters) */
};

typedef struct Func {
    const Op *op;
    const char *name;
    const Instr *entry;        /* NULL until lowered (only functions reachable from the entry are) */
    uint32_t ncode;            /* instructions in the function's array (scope bodies included) */
    uint32_t frame_size;
    uint8_t autosync;          /* tile ops and no explicit synchronisation: auto-sync orders its queued ops */
    uint32_t nparams;
    int32_t *param_off;
    const Type *const *param_types;
} Func;

typedef struct Program {
    Arena arena;
    Func *funcs;
    uint32_t nfuncs;
    uint32_t max_frame;
    uint32_t ninstr;               /* Instr ids are 0 .. ninstr - 1 */
    bool has_cube, has_vector;     /* sections present */
    bool uses_cube, uses_vector;   /* ops that need an AIC / an AIV */
    bool uses_syncall;             /* pto.syncall: the launch runs its blocks side by side (api/blocks.c) */
    int kernel_kind;               /* 0 vector-only, 1 cube-only, 2 mixed */
} Program;

void program_free(Program *p);

/* ---- the lowering view: what a family's lowering hook may use ----
 * A hook receives the op and its Instr with operands (arg/res), the op table's pipe, the default
 * "not simulated" handlers and cost 1 already filled in; it picks handlers and decodes constants. It
 * returns 0, or -1 after lw_error (an op the simulator cannot execute in this form). */
/* Frame storage of a !pto.struct: one 8-byte slot per scalar leaf (depth-first order, values zero-extended like
   every scalar), then one 64-bit word of "written" bits per 64 leaves (the sanitizer's W-UNINIT). */
static inline uint32_t struct_frame_bytes(const Type *t) { return 8u * t->lanes + 8u * ((t->lanes + 63u) / 64u); }
/* Frame storage of the tile layer's values (docs/tile.md): a !pto.tile_buf is its byte address in its space
   (8 bytes), then its valid rows and columns (4 bytes each); a tensor or partition view its GM byte address,
   then shape[5] and strides[5] in elements (8 bytes each; only the type's rank is used). */
enum { TILE_SLOT_BYTES = 16, VIEW_SLOT_BYTES = 88 };

/* Bytes of the frame slot that holds a value of type t (the layouts above; VMI values: ops/vmi). */
static inline uint32_t value_frame_bytes(const Type *t)
{
    switch (t->kind) {
    case TY_VREG: return VREG_BYTES;
    case TY_MASK: return MASK_BYTES;
    case TY_ALIGN: return ALIGN_BYTES;
    case TY_VEC: return ty_bytes(t) <= 8 ? 8 : (ty_bytes(t) + 7) & ~7u;   /* packed SIMT values */
    case TY_STRUCT: return struct_frame_bytes(t);   /* its leaves, then their written bits (ops/scalar) */
    case TY_VMI_VREG: return ty_vmi_regs(t) * VREG_BYTES;   /* K registers, logical lanes contiguous */
    case TY_VMI_MASK: return (t->lanes + 255u) / 256u * MASK_BYTES;   /* one bit per logical lane */
    case TY_LOCAL_ARRAY: return (uint32_t)(8 * local_array_count(t) + 8 * ((local_array_count(t) + 63) / 64));
    case TY_TILE_BUF: case TY_MULTI_TILE: return TILE_SLOT_BYTES;   /* address, valid rows and columns (ops/tile) */
    case TY_TENSOR_VIEW: case TY_PART_VIEW: return VIEW_SLOT_BYTES;   /* address, shape, strides */
    default: return 8;
    }
}

typedef struct LowerView {
    PtoCtx *ctx;
    Program *prog;
    int failed;
} LowerView;

typedef int (*LowerHook)(LowerView *L, const Op *op, Instr *in);

const OpSig *lw_sig(LowerView *L, const Op *op);
/* Operand index of element j of signature group `group`, or -1. */
int lw_group_index(LowerView *L, const Op *op, const char *group, unsigned j);
/* Program-lifetime memory (zeroed); NULL after an E-OOM error at `op`. */
void *lw_alloc(LowerView *L, const Op *op, size_t n);
void lw_error(LowerView *L, const Op *op, DiagId id, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
#endif
