/* ir.c — small IR utilities: attribute lookup, operand groups, walking. */
#include "ir.h"
#include <string.h>

const Attr *op_attr(const Op *op, const char *name)
{
    for (uint32_t i = 0; i < op->nattrs; i++) {
        const char *n = op->attrs[i].name;
        if (n == name || (n[0] == name[0] && strcmp(n, name) == 0)) return &op->attrs[i];
    }
    return NULL;
}

int op_is_kernel(const Op *f)
{
    return f && f->kind == OP_FUNC && (op_attr(f, "pto.kernel") || op_attr(f, "pto.aicore") || op_attr(f, "pto.entry"));
}

const Attr *op_token(const Op *op, const char *name)
{
    const Attr *a = op_attr(op, name);
    return a && a->kind == AT_TOKEN ? a : NULL;
}

int op_token_id(const Op *op, const char *name)
{
    const Attr *a = op_token(op, name);
    return a ? (int)a->i : -1;
}

bool op_has_unit(const Op *op, const char *name)
{
    const Attr *a = op_attr(op, name);
    return a && (a->kind == AT_UNIT || (a->kind == AT_BOOL && a->i));
}

/* oploc packs (line - op line) in the top 8 bits and the column in the low 24: operands follow the op's
   name, within a few lines. */
uint32_t op_pack_loc(SrcLoc op, SrcLoc use)
{
    if (!use.line || use.line < op.line || use.line - op.line > 255 || use.col == 0 || use.col > 0xFFFFFF) return 0;
    return (use.line - op.line) << 24 | use.col;
}

SrcLoc op_operand_loc(const Op *op, unsigned i)
{
    const uint32_t *pl = op_oploc(op);
    if (!pl || i >= op->noperands || !pl[i]) return op->loc;
    return (SrcLoc){op->loc.file, op->loc.line + (pl[i] >> 24), pl[i] & 0xFFFFFFu};
}

SrcLoc op_use_loc(const Op *op, const Value *v)
{
    for (uint32_t i = 0; i < op->noperands; i++)
        if (op->operands[i] == v) return op_operand_loc(op, i);
    return op->loc;
}

SrcLoc op_group_loc(const Op *op, unsigned group, unsigned i)
{
    return op->segs ? op_operand_loc(op, op_group_start(op, group) + i) : op->loc;
}

uint32_t op_group_start(const Op *op, unsigned group)
{
    uint32_t k = 0;
    for (unsigned g = 0; g < group; g++) k += op->segs[g];
    return k;
}

Value *op_group_operand(const Op *op, unsigned group, unsigned i)
{
    if (!op->segs || i >= op->segs[group]) return NULL;
    return op->operands[op_group_start(op, group) + i];
}

int ir_walk(Op *root, OpVisit fn, void *ud)
{
    if (fn(root, ud)) return 1;
    for (uint32_t r = 0; r < root->nregions; r++)
        for (Op *o = root->regions[r]->block->first; o; o = o->next)
            if (ir_walk(o, fn, ud)) return 1;
    return 0;
}

Op *ir_parent_op(const Op *op)
{
    return op->parent && op->parent->parent ? op->parent->parent->parent : NULL;
}
