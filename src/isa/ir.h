/* ir.h — the in-memory IR: ops with operands, results, named attributes and single-block regions,
 * allocated in the module's arena. Mirrors MLIR's shape so the three text syntaxes map onto one form. */
#ifndef PTOSIM_IR_H
#define PTOSIM_IR_H
#include <stdbool.h>
#include <stdint.h>
#include "base/arena.h"
#include "base/diag.h"
#include "op.h"
#include "type.h"

typedef struct Op Op;
typedef struct Block Block;
typedef struct Region Region;

typedef struct Value {
    const Type *type;
    Op *def;                   /* defining op, or NULL for a block argument */
    Block *owner;              /* block that owns the argument */
    const char *name;          /* source spelling without '%', interned */
    SrcLoc loc;
    uint32_t id;               /* unique within the module */
    uint16_t index;            /* result or argument index */
    int32_t slot;              /* frame offset, assigned by lowering (-1 = none) */
    uint32_t nuses;
} Value;

typedef enum {
    AT_UNIT, AT_BOOL, AT_INT, AT_FLOAT, AT_STR, AT_TOKEN, AT_TYPE, AT_SYM, AT_RAW, AT_INTS
} AttrKind;

/* Fields that never serve the same kind share storage (i/f, raw/ints): read the one the kind names. */
typedef struct Attr {
    const char *name;          /* stable for the context's lifetime (interned or a signature slot name) */
    AttrKind kind;
    uint32_t nints;
    union {
        int64_t i;             /* AT_INT, AT_BOOL, AT_TOKEN (token id) */
        double f;              /* AT_FLOAT */
    };
    const char *s;             /* AT_STR, AT_SYM, AT_RAW (verbatim text), AT_TOKEN (spelling), AT_FLOAT (literal) */
    const Type *ty;            /* AT_TYPE, or the type suffix of an AT_INT/AT_FLOAT */
    union {
        const char *raw;       /* AT_TOKEN: verbatim source text, for attributes printed as written */
        const int64_t *ints;   /* AT_INTS (e.g. operandSegmentSizes) */
    };
    SrcLoc loc;
} Attr;

struct Block {
    Value **args;
    uint32_t nargs;
    Op *first, *last;
    Region *parent;
    SrcLoc loc;
};

struct Region {
    Block *block;              /* single-block regions */
    Op *parent;
};

/* 112 bytes on x86-64: the op kind and the flag bytes share a word, and the operand positions have no
   pointer of their own (they follow the operand pointers in the same allocation, see op_oploc). */
struct Op {
    uint16_t kind;             /* OpKind */
    uint8_t keyforms;          /* bit a: an operand was written KEY(%v) under the a-th key of its slot (sig.c) */
    uint8_t flags;             /* OPF_ */
    uint32_t id;               /* unique within the module, in textual (pre-)order */
    SrcLoc loc;                /* the op's name */
    Value **operands;          /* when OPF_OPLOC, followed by noperands packed positions (op_oploc) */
    uint8_t *segs;             /* operand count per signature group (sig->ngroups entries) */
    Value **results;
    Region **regions;
    Attr *attrs;
    Op *next, *prev;
    Block *parent;
    void *aux;                 /* per-pass scratch (verifier, lowering) */
    uint32_t noperands, nresults, nregions, nattrs;
};
enum { OPF_OPLOC = 1 };        /* the operand array is followed by where each operand is written */

/* Where each operand is written, packed (op_pack_loc), or NULL: read with op_operand_loc. */
static inline uint32_t *op_oploc(const Op *op)
{
    return (op->flags & OPF_OPLOC) ? (uint32_t *)(void *)(op->operands + op->noperands) : NULL;
}

/* A `//` comment kept for the printer, attached to the op it stays with. */
typedef enum {
    CM_BEFORE,                 /* on its own line before the op */
    CM_TRAIL,                  /* at the end of the op's (last) line */
    CM_OPEN,                   /* after the '{' opening region `region` */
    CM_END,                    /* on its own line before the '}' closing region `region` */
    CM_AFTER,                  /* on its own line after the op (the end of the file) */
} CommentPlace;

typedef struct OpComment {
    const Op *op;
    const char *text;          /* into the module's source, from its "//" */
    uint32_t len;
    uint8_t place;             /* CommentPlace */
    uint8_t region;
} OpComment;

typedef struct PtoModule {
    Arena arena;
    struct PtoCtx *ctx;
    Op *top;                   /* the outermost builtin.module op */
    const char *file;
    const char *text;          /* the source (owned, NUL-terminated) */
    size_t len;
    uint32_t nvalues, nops;
    OpComment *comments;       /* sorted by op id, then by place; in the arena */
    uint32_t ncomments;
    /* Set before parsing to check without keeping the IR: each module nested directly in the top module is
       passed here once parsed (`top` is the top module, not yet complete); when it returns 0 the unit is
       freed and never linked into the top module, else it is kept as usual. No comments are kept. NULL: the
       whole module is kept. */
    int (*on_unit)(struct PtoModule *m, Op *top, Op *unit, void *data);
    void *on_unit_data;
    uint32_t parse_errors;     /* errors reported while parsing it: the IR may be incomplete (pto_print refuses) */
} Module;

/* The unit attribute marking what the verifier's vector-scope inference added (an inferred pto.vecscope,
   a rematerialised producer): the printer prints the input as written. No parsed name can spell it. */
#define IR_INFERRED "<inferred>"

/* Attribute helpers. */
const Attr *op_attr(const Op *op, const char *name);          /* by name (pointer or string compare) */
int op_is_kernel(const Op *f);   /* a function marked pto.kernel (or the older pto.aicore, pto.entry) */
const Attr *op_token(const Op *op, const char *name);         /* AT_TOKEN attribute or NULL */
int op_token_id(const Op *op, const char *name);             /* token id or -1 */
bool op_has_unit(const Op *op, const char *name);

/* Where operand i is written (its first token), else the op's location. */
SrcLoc op_operand_loc(const Op *op, unsigned i);
/* Where `op` uses `v` (its first operand slot holding v), else the op's location. */
SrcLoc op_use_loc(const Op *op, const Value *v);
/* Where operand i of signature group `group` is written (op_operand_loc of its index). */
SrcLoc op_group_loc(const Op *op, unsigned group, unsigned i);
/* Packs a use position relative to the op's location (op_oploc); 0 (= unknown) when it does not fit. */
uint32_t op_pack_loc(SrcLoc op, SrcLoc use);

/* Operand access by signature group. */
uint32_t op_group_start(const Op *op, unsigned group);
static inline uint32_t op_group_len(const Op *op, unsigned group) { return op->segs ? op->segs[group] : 0; }
Value *op_group_operand(const Op *op, unsigned group, unsigned i);    /* NULL if absent */

/* Walk helpers. */
typedef int (*OpVisit)(Op *op, void *ud);    /* return nonzero to stop */
int ir_walk(Op *root, OpVisit fn, void *ud);  /* pre-order over all nested ops */
Op *ir_parent_op(const Op *op);
#endif
