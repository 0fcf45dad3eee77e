/* verify_int.h — what the verifier's files share: the pass context, the diagnostic helpers and
 * the small queries over the IR (constants, constant addresses, enclosing regions) that the
 * structural pass (verify_sig.c), the family rules (verify_fam.c, verify_mem.c, verify_vec.c) and the alignment-carrier
 * analysis (verify_align.c) all need; they live in verify_util.c. Not part of the library interface. */
#ifndef PTOSIM_VERIFY_INT_H
#define PTOSIM_VERIFY_INT_H
#include "isa/ctx.h"
#include "isa/elem.h"
#include "isa/functab.h"
#include "isa/ir.h"
#include "isa/target.h"
#include "verify.h"

typedef struct VCtx {
    const Module *m;
    PtoCtx *ctx;
    DiagList *d;
    const TargetProfile *tp;
    PtoTarget target;
    const Op *units_of;        /* non-NULL: the modules nested directly in this op are not walked (verified apart) */
    const FuncTab *funcs;      /* the functions by name (calls, launches, duplicate names) */
} VCtx;

/* Is o a unit the current walk leaves out (a module nested directly in V->units_of)? */
static inline bool v_skipped_unit(const VCtx *V, const Op *o)
{
    return V->units_of && o->kind == OP_MODULE && ir_parent_op(o) == V->units_of;
}
/* ir_walk over root, leaving out the units of V->units_of. */
int v_walk(const VCtx *V, Op *root, OpVisit fn, void *ud);

/* Diagnostics: errors and warnings return the index for diag_note (-1 when capped). */
long v_err(VCtx *V, DiagId id, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
long v_warn(VCtx *V, DiagId id, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void v_note(VCtx *V, long idx, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* "!pto.ptr<f32, ub>" into a caller buffer (returns buf). */
const char *v_tyname(const Type *t, char *buf, unsigned n);
static inline const char *v_opname(const Op *op) { return op_info[op->kind].name; }
/* Where a value was defined: its name token (results, block arguments). */
SrcLoc v_value_loc(const Value *v);
/* "%name" or "operand" for messages. */
const char *v_valname(const Value *v);

/* A value is a constant only when arith.constant defines it (nothing else is followed). */
bool v_const_int(const Value *v, int64_t *out);
/* Constant byte address of a pointer: castptr of a constant, optionally through addptr of
   constants (offsets count elements of the pointer's element type). */
bool v_const_addr(const Value *v, int64_t *out);
/* Saturating arithmetic for extent computations. */
int64_t v_sat_add(int64_t a, int64_t b);
int64_t v_sat_mul(int64_t a, int64_t b);

/* Index of a named signature group of op, or -1 (sig_group, with a first-letter test before each strcmp:
   the rules look groups up by name many times per op). */
int v_group_index(const VCtx *V, const Op *op, const char *group);
/* Operand of a named signature group (NULL when the op has no such group or operand). */
Value *v_grp(const VCtx *V, const Op *op, const char *group, unsigned i);
unsigned v_grp_len(const VCtx *V, const Op *op, const char *group);
/* The attribute of a clause/flag, or NULL. */
static inline bool v_has(const Op *op, const char *name) { return op_attr(op, name) != NULL; }
/* Location of a named attribute, else the op's. */
SrcLoc v_attr_loc(const Op *op, const char *name);

/* Enclosing structure. */
Op *v_parent_op_of_block(const Block *b);
const Block *v_value_block(const Value *v);            /* block holding the definition */
bool v_block_within(const Block *b, const Op *ancestor); /* b is inside one of ancestor's regions */
bool v_is_vec_interval(const Op *op);
bool v_is_kernel(const Op *f);                         /* pto.kernel, legacy pto.aicore, pto.entry */
Op *v_enclosing_func(const Op *op);
const Type *v_func_type(const Op *f);                  /* a func.func's function_type, or NULL */

/* Shared by the family rules (verify_util.c). Where operand i of a named signature group is written, else the
   op's location; the result named `name` in the signature; an operand group or result called `name`. */
SrcLoc v_gloc(const VCtx *V, const Op *op, const char *group, unsigned i);
Value *v_res_named(const VCtx *V, const Op *op, const char *name);
Value *v_named(const VCtx *V, const Op *op, const char *name);
/* E-CAPACITY when [addr, addr + bytes) of pointer p's on-chip space lies outside the profile's capacity. */
void v_check_capacity(VCtx *V, const Op *op, const Value *p, int64_t addr, int64_t bytes, const char *what,
                      const char *via);

/* Element helpers. */
static inline const Type *v_elem(const Type *t) { return t && (t->kind == TY_PTR || t->kind == TY_VREG) ? t->elem : NULL; }
unsigned v_elem_bits(const Type *t);                   /* element bits of ptr/vreg, 0 if none */
bool v_is_fp8ish(const Type *t);                       /* fp8 / hif8 / f4 / e8m0 (a5 only) */

/* The passes. */
void verify_structural(VCtx *V, Op *op);               /* signature-driven, one generic loop */
void verify_family(VCtx *V, Op *op);                   /* relational rules per op family */
void verify_align_carriers(VCtx *V, Op *root);         /* !pto.align chain rules */
void verify_sync(VCtx *V, Op *root);                   /* static flag balance (verify_sync.c) */
void verify_simt(VCtx *V, Op *op);
void verify_struct(VCtx *V, Op *op);                   /* !pto.struct origin, escape and path rules */
void verify_tile(VCtx *V, Op *op);                     /* the tile layer's rules, and the tile plan of a function */
void verify_vmi(VCtx *V, Op *op);                      /* VMI value types and per-op rules (verify_vmi.c) */
int verify_tile_extra(VCtx *V, Op *op);                /* the extra tile ops' rules; 0: not one of them */
void verify_tile_more(VCtx *V, Op *op);                /* further compiler rules of other tile ops (same file) */
void verify_pipe(VCtx *V, Op *op);
void verify_pipe_pairs(VCtx *V, Op *root);
void verify_more_ops(VCtx *V, Op *op);                 /* further tile-level ops (verify_more.c) */              /* the pairing of the two sides' pipe inits (verify_pipe.c) */                     /* cross-core pipe and FIXPIPE front-end rules (verify_pipe.c) */
#endif
