/* verify_struct.c — the rules of stack-local structs (!pto.struct, docs/verifier.md "Structs").
 *
 * A struct is storage owned by the function that declares it; its SSA value stands for the address of
 * that storage. So the value comes only from pto.declare_struct (E-STRUCT-ORIGIN: not a function
 * argument, not the result of any other op, not a block argument), and it is used only as the struct
 * operand of pto.struct_get / pto.struct_set (E-STRUCT-ESCAPE: not returned, yielded, passed to a call
 * or to any other op; a function type may not return one). The constant field path of get/set leads,
 * field by field, to a scalar (E-STRUCT-PATH, E-STRUCT-LEAF) whose type is the value's (E-STRUCT-TYPE).
 * Field types themselves are checked where the type is parsed (E-STRUCT-FIELD). */
#include "verify_int.h"
#include <stdio.h>
#include <string.h>

/* Function arguments and results of struct type. */
static void check_func_sig(VCtx *V, Op *f)
{
    const Type *ft = v_func_type(f);
    char b[160];
    if (!ft) return;
    for (unsigned i = 0; i < ft->nin; i++) {
        if (!ty_is_struct(ft->params[i])) continue;
        SrcLoc loc = f->nregions && f->regions[0]->block->nargs > i ? v_value_loc(f->regions[0]->block->args[i]) : f->loc;
        v_err(V, DIAG_V_STRUCT_ORIGIN, loc, "function argument %u has type %s; a stack-local struct must not be a "
              "function argument: a struct comes from pto.declare_struct in the function that uses it", i,
              v_tyname(ft->params[i], b, sizeof b));
    }
    for (unsigned i = 0; i < ft->nout; i++)
        if (ty_is_struct(ft->params[ft->nin + i]))
            v_err(V, DIAG_V_STRUCT_ESCAPE, f->loc, "function result %u has type %s; a stack-local struct must not be "
                  "returned: its storage ends with the function that declares it", i,
                  v_tyname(ft->params[ft->nin + i], b, sizeof b));
}

/* The path of get/set: leads to a scalar field whose type is the value's. */
static void check_access(VCtx *V, Op *op)
{
    Value *s = op->noperands ? op->operands[0] : NULL;
    if (!s || !ty_is_struct(s->type)) return;   /* the structural pass reports a wrong operand */
    const Attr *pa = op_attr(op, "path");
    SrcLoc ploc = pa ? pa->loc : op->loc;
    char b[160], c[96];
    if (pa && pa->kind != AT_INTS) {
        v_err(V, DIAG_V_STRUCT_PATH, ploc, "'%s' needs its field path as a list of integers (path = array<i64: ...>)",
              v_opname(op));
        return;
    }
    const Type *leaf;
    unsigned depth;
    int r = ty_struct_path(s->type, pa ? pa->ints : NULL, pa ? pa->nints : 0, &leaf, &depth);
    switch (r) {
    case SP_EMPTY:
        v_err(V, DIAG_V_STRUCT_PATH, ploc, "'%s' needs a field path of at least one index", v_opname(op));
        return;
    case SP_RANGE:
        v_err(V, DIAG_V_STRUCT_PATH, ploc, "field path index %u (%lld) is out of range for %s, which has %u field(s)",
              depth, (long long)pa->ints[depth], v_tyname(leaf, b, sizeof b), (unsigned)leaf->nin);
        return;
    case SP_NOT_STRUCT:
        v_err(V, DIAG_V_STRUCT_PATH, ploc, "field path index %u goes into a field of type %s, which is not a struct",
              depth, v_tyname(leaf, b, sizeof b));
        return;
    case SP_AGGREGATE:
        v_err(V, DIAG_V_STRUCT_LEAF, ploc, "the field path ends at a field of type %s; it must end at a scalar field "
              "(extend the path to reach a scalar inside the nested struct)", v_tyname(leaf, b, sizeof b));
        return;
    default:
        break;
    }
    if (op->kind == OP_STRUCT_GET && op->nresults == 1 && op->results[0]->type != leaf)
        v_err(V, DIAG_V_STRUCT_TYPE, v_value_loc(op->results[0]), "the result has type %s but the field at this path has "
              "type %s", v_tyname(op->results[0]->type, c, sizeof c), v_tyname(leaf, b, sizeof b));
    if (op->kind == OP_STRUCT_SET && op->noperands == 2 && op->operands[1] && op->operands[1]->type != leaf)
        v_err(V, DIAG_V_STRUCT_TYPE, op_operand_loc(op, 1), "%%%s has type %s but the field at this path has type %s",
              v_valname(op->operands[1]), v_tyname(op->operands[1]->type, c, sizeof c), v_tyname(leaf, b, sizeof b));
}

void verify_struct(VCtx *V, Op *op)
{
    char b[160];
    if (op->kind == OP_FUNC) check_func_sig(V, op);
    if (op->kind == OP_STRUCT_GET || op->kind == OP_STRUCT_SET) check_access(V, op);
    /* uses: only as the struct operand (operand 0) of get/set */
    for (uint32_t i = 0; i < op->noperands; i++) {
        Value *v = op->operands[i];
        if (!v || !ty_is_struct(v->type)) continue;
        if (i == 0 && (op->kind == OP_STRUCT_GET || op->kind == OP_STRUCT_SET)) continue;
        const char *why = op_info[op->kind].flags & F_TERM ? "that would carry the address of its storage out of the "
                                                             "scope that declares it"
                          : op->kind == OP_CALL ? "that would hand the address of its storage to another function"
                                                : "only pto.struct_get and pto.struct_set may use a struct";
        v_err(V, DIAG_V_STRUCT_ESCAPE, op_operand_loc(op, i), "stack-local struct %%%s must not be passed to '%s': %s",
              v_valname(v), v_opname(op), why);
    }
    /* definitions: only pto.declare_struct makes one */
    if (op->kind != OP_DECLARE_STRUCT && op->kind != OP_STRUCT_GET)   /* get: E-STRUCT-LEAF / E-STRUCT-TYPE */
        for (uint32_t i = 0; i < op->nresults; i++)
            if (ty_is_struct(op->results[i]->type))
                v_err(V, DIAG_V_STRUCT_ORIGIN, v_value_loc(op->results[i]), "result %%%s of '%s' has type %s; only "
                      "pto.declare_struct may produce a !pto.struct (any other producer could carry the storage out of "
                      "its scope)", v_valname(op->results[i]), v_opname(op), v_tyname(op->results[i]->type, b, sizeof b));
    if (op->kind == OP_FUNC) return;   /* the entry block's arguments are the function's (check_func_sig) */
    for (uint32_t r = 0; r < op->nregions; r++) {
        Block *blk = op->regions[r]->block;
        for (uint32_t i = 0; i < blk->nargs; i++)
            if (ty_is_struct(blk->args[i]->type))
                v_err(V, DIAG_V_STRUCT_ORIGIN, v_value_loc(blk->args[i]), "block argument %%%s of '%s' has type %s; only "
                      "pto.declare_struct may produce a !pto.struct", v_valname(blk->args[i]), v_opname(op),
                      v_tyname(blk->args[i]->type, b, sizeof b));
    }
}
