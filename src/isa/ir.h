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

typedef struct Attr {
    const char *name;          /* interned */
    AttrKind kind;
    int64_t i;                 /* AT_INT, AT_BOOL, AT_TOKEN (token id) */
    double f;                  /* AT_FLOAT */
    const char *s;             /* AT_STR, AT_SYM, AT_RAW (verbatim text), AT_TOKEN (spelling) */
    const Type *ty;            /* AT_TYPE, or the type suffix of an AT_INT/AT_FLOAT */
    const char *raw;           /* verbatim source text for attributes printed as written */
    const int64_t *ints;       /* AT_INTS (e.g. operandSegmentSizes) */
    uint32_t nints;
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

struct Op {
    OpKind kind;
    SrcLoc loc;
    Value **operands;
    uint32_t noperands;
    uint8_t *segs;             /* operand count per signature group (sig->ngroups entries) */
    Value **results;
    uint32_t nresults;
    Region **regions;
    uint32_t nregions;
    Attr *attrs;
    uint32_t nattrs;
    Op *next, *prev;
    Block *parent;
    uint32_t id;
    void *aux;                 /* per-pass scratch (verifier, lowering) */
};

typedef struct PtoModule {
    Arena arena;
    struct PtoCtx *ctx;
    Op *top;                   /* the outermost builtin.module op */
    const char *file;
    const char *text;          /* owned copy of the source */
    size_t len;
    uint32_t nvalues, nops;
} Module;

/* Attribute helpers. */
const Attr *op_attr(const Op *op, const char *name);          /* by name (pointer or string compare) */
const Attr *op_token(const Op *op, const char *name);         /* AT_TOKEN attribute or NULL */
int op_token_id(const Op *op, const char *name);             /* token id or -1 */
bool op_has_unit(const Op *op, const char *name);

/* Operand access by signature group. */
uint32_t op_group_start(const Op *op, unsigned group);
static inline uint32_t op_group_len(const Op *op, unsigned group) { return op->segs ? op->segs[group] : 0; }
Value *op_group_operand(const Op *op, unsigned group, unsigned i);    /* NULL if absent */

/* Walk helpers. */
typedef int (*OpVisit)(Op *op, void *ud);    /* return nonzero to stop */
int ir_walk(Op *root, OpVisit fn, void *ud);  /* pre-order over all nested ops */
Op *ir_parent_op(const Op *op);
#endif
