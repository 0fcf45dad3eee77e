/* verify_more.c — the compiler's rules of further tile-level ops ptosim parses (PTOAS lib/PTO/IR/PTO.cpp
 * SetFFTsOp, IntToPtrOp, PtrToIntOp, TPartArgMax/MinOp, BitcastOp verifiers; PTOValidateIntToPtrUses). One
 * diagnostic per op, its first broken rule. Rules and IDs: docs/verifier.md "Further tile-level ops". */
#include "verify_int.h"
#include <stdio.h>
#include <string.h>

static bool is_int_bits(const Type *t, unsigned bits) { return t && t->kind == TY_INT && t->bits == bits; }

typedef struct UseFind {
    VCtx *V;
    const Value *v;
    Op *bad;
} UseFind;

/* a use of v other than the pointer of a scalar load or store */
static int use_visit(Op *o, void *ud)
{
    UseFind *u = ud;
    for (uint32_t i = 0; i < o->noperands; i++) {
        if (o->operands[i] != u->v) continue;
        bool ok = (o->kind == OP_LOAD_SCALAR || o->kind == OP_STORE_SCALAR) && v_grp(u->V, o, "p", 0) == u->v;
        if (!ok) {
            u->bad = o;
            return 1;
        }
    }
    return 0;
}

static void check_inttoptr(VCtx *V, Op *op)
{
    char b[96];
    const Value *a = op->noperands ? op->operands[0] : NULL;
    const Type *r = op->nresults ? op->results[0]->type : NULL;
    if (a && !is_int_bits(a->type, 64)) {
        v_err(V, DIAG_V_OPERAND_TYPE, op_use_loc(op, a), "'pto.inttoptr' takes an i64 address, not %s",
              v_tyname(a->type, b, sizeof b));
        return;
    }
    if (r && r->kind == TY_PTR && (!r->elem || r->elem->kind == TY_INDEX)) {
        v_err(V, DIAG_V_RESULT_TYPE, op->loc, "'pto.inttoptr' makes a pointer to a scalar of fixed width, not %s",
              v_tyname(r, b, sizeof b));
        return;
    }
    Op *f = v_enclosing_func(op);
    if (!f || !op->nresults) return;
    UseFind u = {V, op->results[0], NULL};
    v_walk(V, f, use_visit, &u);
    if (u.bad) {
        long d = v_err(V, DIAG_PTR_USE, op_use_loc(u.bad, u.v), "%%%s comes from pto.inttoptr: it may only be the "
                       "address of pto.load_scalar or pto.store_scalar, not an operand of '%s'", v_valname(u.v),
                       v_opname(u.bad));
        v_note(V, d, op->loc, "made here");
    }
}

static bool part_arg_elem_ok(const VCtx *V, const Type *e)
{
    if (!e) return false;
    if (e->kind == TY_INT) return e->bits == 32 || e->bits == 16 || (e->bits == 8 && V->target == PTO_TARGET_A5);
    if (e->kind == TY_FLOAT)
        return e->fk == FK_F16 || e->fk == FK_F32 || (e->fk == FK_BF16 && V->target == PTO_TARGET_A5);
    return false;
}

static void check_part_arg(VCtx *V, Op *op)
{
    static const char *const g[6] = {"src0", "src1", "src0idx", "src1idx", "dst", "dstidx"};
    const Type *t[6];
    for (int i = 0; i < 6; i++) {
        Value *v = v_grp(V, op, g[i], 0);
        t[i] = v ? v->type : NULL;
        if (!t[i] || t[i]->kind != TY_TILE_BUF) return;   /* E-OPERAND-TYPE from the signature */
    }
    char b[96];
    if (t[0]->elem != t[1]->elem || t[0]->elem != t[4]->elem) {
        v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'%s' takes src0, src1 and dst of one element type", v_opname(op));
        return;
    }
    if (t[2]->elem != t[3]->elem || t[2]->elem != t[5]->elem || !is_int_bits(t[2]->elem, 32)) {
        v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'%s' takes src0idx, src1idx and dstidx of one 32-bit integer type",
              v_opname(op));
        return;
    }
    for (int i = 1; i < 6; i++)
        if (t[i]->dims[0] != t[0]->dims[0] || t[i]->dims[1] != t[0]->dims[1]) {
            v_err(V, DIAG_TILE_SHAPE, op->loc, "'%s' takes data and index tiles of one shape", v_opname(op));
            return;
        }
    static const int pair[3][2] = {{0, 2}, {1, 3}, {4, 5}};
    for (int k = 0; k < 3; k++) {
        const Type *d = t[pair[k][0]], *x = t[pair[k][1]];
        if (d->dims[2] != x->dims[2] || d->dims[3] != x->dims[3]) {
            v_err(V, DIAG_TILE_SHAPE, op->loc, "'%s': %s and %s differ in valid shape", v_opname(op), g[pair[k][0]],
                  g[pair[k][1]]);
            return;
        }
    }
    if (!part_arg_elem_ok(V, t[0]->elem))
        v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'%s' does not take %s data on the %s target profile (a5: i32/i16/i8/f16/"
              "bf16/f32; a2a3: i32/i16/f16/f32)", v_opname(op), v_tyname(t[0]->elem, b, sizeof b), V->tp->name);
}

static void check_bitcast(VCtx *V, Op *op)
{
    const Type *s = op->noperands && op->operands[0] ? op->operands[0]->type : NULL;
    const Type *r = op->nresults ? op->results[0]->type : NULL;
    if (!s || !r || s->kind != TY_TILE_BUF || r->kind != TY_TILE_BUF) return;
    const char *why = NULL;
    if (s->space != r->space) why = "keeps the tile's location";
    else if (s->elem == r->elem) why = "changes the element type (pto.treshape changes shape or layout)";
    else if (s->dims[0] != r->dims[0] || s->dims[1] != r->dims[1]) why = "keeps the shape";
    else if (s->dims[2] != r->dims[2] || s->dims[3] != r->dims[3]) why = "keeps the valid shape";
    else if (s->blayout != r->blayout || s->slayout != r->slayout || s->fractal != r->fractal || s->pad != r->pad)
        why = "keeps the layout, fractal and pad";
    else if (s->dims[0] < 0 || s->dims[1] < 0) why = "needs a static shape";
    else if (ty_bits(r->elem) > ty_bits(s->elem)) why = "needs no more bytes than the source holds";
    if (why) {
        char a[128], c[128];
        v_err(V, DIAG_TILE_SHAPE, op->loc, "'pto.bitcast' %s: %s -> %s", why, v_tyname(s, a, sizeof a),
              v_tyname(r, c, sizeof c));
    }
}

void verify_more_ops(VCtx *V, Op *op)
{
    char b[96];
    switch (op->kind) {
    case OP_SET_FFTS: {
        const Value *p = op->noperands ? op->operands[0] : NULL;
        const Type *e = p && p->type->kind == TY_PTR ? p->type->elem : NULL;
        if (p && p->type->kind == TY_PTR && !(is_int_bits(e, 64) || is_int_bits(e, 8)))
            v_err(V, DIAG_V_OPERAND_TYPE, op_use_loc(op, p), "'pto.set_ffts' takes a pointer to i64 (or i8), not %s",
                  v_tyname(p->type, b, sizeof b));
        break;
    }
    case OP_INTTOPTR: check_inttoptr(V, op); break;
    case OP_PTRTOINT:
        if (op->nresults && !is_int_bits(op->results[0]->type, 64))
            v_err(V, DIAG_V_RESULT_TYPE, op->loc, "'pto.ptrtoint' gives an i64, not %s",
                  v_tyname(op->results[0]->type, b, sizeof b));
        break;
    case OP_TPARTARGMAX: case OP_TPARTARGMIN: check_part_arg(V, op); break;
    case OP_BITCAST: check_bitcast(V, op); break;
    default: break;
    }
}
