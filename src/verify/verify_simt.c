/* verify_simt.c — the rules of the SIMT surface (docs/simt.md, docs/verifier.md "SIMT"): where each op may
 * appear (inside a pto.simt_entry function or a pto.section.simt region, or outside them), entry
 * attributes, launch dimensions, the value types each op accepts, signedness and conversion controls,
 * and the keep/resume slot rules. The signature pass has already checked type classes. */
#include "verify_int.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* workitems of a launch; keep/resume slot words; the envelope of an entry without pto.simt_max_threads */
enum { SIMT_MAX_ITEMS = 2048, SIMT_SLOTS = 123, SIMT_DEFAULT_ENVELOPE = 1024 };

static const char *tyn(const Type *t, char *b) { return v_tyname(t, b, 96); }

static bool is_fk(const Type *t, FloatKind fk) { return t && t->kind == TY_FLOAT && t->fk == fk; }
static bool is_intw(const Type *t, unsigned bits) { return t && t->kind == TY_INT && t->bits == bits; }
static bool is_fp8e(const Type *t) { return t && t->kind == TY_FLOAT && (elem_kind(t) == EK_E4M3 || elem_kind(t) == EK_E5M2); }
/* vector<2xT> with an element accepted by `elem` */
static bool is_v2(const Type *t, bool (*elem)(const Type *)) { return t && t->kind == TY_VEC && t->lanes == 2 && !t->gran && elem(t->elem); }
static bool e_f16(const Type *t) { return is_fk(t, FK_F16); }
static bool e_bf16(const Type *t) { return is_fk(t, FK_BF16); }
static bool e_f32(const Type *t) { return is_fk(t, FK_F32); }
static bool e_h(const Type *t) { return is_fk(t, FK_F16) || is_fk(t, FK_BF16); }
static bool is_hif8x2(const Type *t) { return t && t->kind == TY_VEC && t->lanes == 2 && is_fk(t->elem, FK_HIF8); }

/* Scalar float kinds f16 / bf16 / f32 picked by a mask: 1 f16, 2 bf16, 4 f32. */
static bool is_fmask(const Type *t, unsigned m)
{
    return (m & 1 && is_fk(t, FK_F16)) || (m & 2 && is_fk(t, FK_BF16)) || (m & 4 && is_fk(t, FK_F32));
}

/* ------------------------------------------------------------------ scope */

/* The SIMT entry function or pto.section.simt the op is in, or NULL. */
static const Op *simt_scope(const Op *op)
{
    for (const Op *p = ir_parent_op(op); p; p = ir_parent_op(p)) {
        if (p->kind == OP_SECTION_SIMT) return p;
        if (p->kind == OP_FUNC) return v_has(p, "pto.simt_entry") ? p : NULL;
    }
    return NULL;
}

/* Ops a workitem cannot execute: pipe work, pipeline synchronisation, vector scopes, sections, launches. */
static bool forbidden_in_simt(const Op *op)
{
    const OpInfo *oi = &op_info[op->kind];
    if (op->kind == OP_SIMT_LAUNCH || op->kind == OP_SECTION_SIMT || op->kind == OP_STORE_VFSIMT_INFO) return true;
    if (op->kind == OP_SECTION_CUBE || op->kind == OP_SECTION_VECTOR || oi->fam == FAM_SYNC) return true;
    return oi->pipe != PIPE_S_ && oi->pipe != PIPE_NONE;
}

static void check_scope(VCtx *V, Op *op)
{
    const Op *sc = simt_scope(op);
    const char *n = v_opname(op);
    if (sc && forbidden_in_simt(op)) {
        long d = v_err(V, DIAG_V_SIMT_SCOPE, op->loc, "'%s' is not allowed inside a SIMT entry; %s", n,
                       op->kind == OP_SECTION_SIMT && sc->kind == OP_SECTION_SIMT ? "nested pto.section.simt is not allowed"
                       : op_info[op->kind].fam == FAM_SIMT ? "launch SIMT work from the outer kernel"
                                                            : "workitems run scalar, SIMT and memory operations only");
        v_note(V, d, sc->loc, "SIMT %s here", sc->kind == OP_FUNC ? "entry function declared" : "section opened");
    } else if (!sc && (op_info[op->kind].flags & F_SIMT)) {
        v_err(V, DIAG_V_SIMT_SCOPE, op->loc, "'%s' must be inside a pto.simt_entry function or pto.section.simt", n);
    }
}

/* ------------------------------------------------------------------ entries and launches */


static const Type *func_type(const Op *f)
{
    const Attr *a = op_attr(f, "function_type");
    return a && a->kind == AT_TYPE && a->ty && a->ty->kind == TY_FUNC ? a->ty : NULL;
}

static void check_entry_func(VCtx *V, Op *f)
{
    const Attr *mt = op_attr(f, "pto.simt_max_threads");
    bool entry = v_has(f, "pto.simt_entry");
    if (mt && !entry)
        v_err(V, DIAG_V_SIMT_ENTRY, v_attr_loc(f, "pto.simt_max_threads"),
              "pto.simt_max_threads may only appear on a function that carries pto.simt_entry");
    else if (mt && (mt->kind != AT_INT || (mt->ty && !is_intw(mt->ty, 32)) || mt->i < 1 || mt->i > SIMT_MAX_ITEMS))
        v_err(V, DIAG_V_SIMT_ENTRY, v_attr_loc(f, "pto.simt_max_threads"),
              "pto.simt_max_threads must be a positive i32 no greater than %d", SIMT_MAX_ITEMS);
    if (!entry) return;
    const Type *ft = func_type(f);
    if (ft && ft->nout)
        v_err(V, DIAG_V_SIMT_ENTRY, f->loc, "a pto.simt_entry function returns no values (its type lists %u result(s))",
              ft->nout);
    if (v_is_kernel(f))
        v_err(V, DIAG_V_SIMT_ENTRY, f->loc, "a pto.simt_entry function is launched by a kernel; it cannot be the kernel "
              "(pto.kernel, pto.aicore or pto.entry) itself");
}

/* Checks constant launch dimensions (NULL values are unknown) against 2048 and the entry's envelope. */
static void check_dims(VCtx *V, const Op *op, const int64_t *d, const bool *known, const Op *callee)
{
    static const char xyz[3] = {'x', 'y', 'z'};
    for (int i = 0; i < 3; i++)
        if (known[i] && (d[i] < 0 || d[i] > INT32_MAX)) {
            v_err(V, DIAG_V_SIMT_LAUNCH, op->loc, "launch dimension %c is %" PRId64 "; dimensions are non-negative i32 "
                  "workitem counts", xyz[i], d[i]);
            return;
        }
    if (!known[0] || !known[1] || !known[2]) return;
    int64_t n = d[0] * d[1] * d[2];
    if (n < 1 || n > SIMT_MAX_ITEMS) {
        v_err(V, DIAG_V_SIMT_LAUNCH, op->loc, "SIMT launch dimensions must have a positive product no greater than %d, "
              "got (%" PRId64 ", %" PRId64 ", %" PRId64 ")", SIMT_MAX_ITEMS, d[0], d[1], d[2]);
        return;
    }
    if (!callee) return;
    const Attr *mt = op_attr(callee, "pto.simt_max_threads");
    int64_t env = mt && mt->kind == AT_INT ? mt->i : SIMT_DEFAULT_ENVELOPE;
    if (n > env) {
        long k = v_err(V, DIAG_V_SIMT_LAUNCH, op->loc, "the launch runs %" PRId64 " workitems but the entry's "
                       "pto.simt_max_threads is %" PRId64 "%s", n, env, mt ? "" : " (the default)");
        v_note(V, k, mt ? v_attr_loc(callee, "pto.simt_max_threads") : callee->loc, "envelope %s here",
               mt ? "declared" : "of this entry");
    }
}

/* The store_vfsimt_info that configures a call launched from `op`: the nearest one before it in its block or
   an enclosing one (the dominating configuration). */
static const Op *dominating_config(const Op *op)
{
    for (const Op *o = op; o; o = ir_parent_op(o)) {
        if (o->kind == OP_FUNC) return NULL;
        for (const Op *p = o->prev; p; p = p->prev)
            if (p->kind == OP_STORE_VFSIMT_INFO) return p;
    }
    return NULL;
}

static void check_callee(VCtx *V, const Op *op, const char *name, Op **out)
{
    Op *f = functab_resolve(V->funcs, op, name);
    *out = f;
    if (!f) {
        v_err(V, DIAG_V_CALL, op->loc, "'@%s' does not name a function of the module", name);
        return;
    }
    if (!v_has(f, "pto.simt_entry")) {
        long d = v_err(V, DIAG_V_SIMT_ENTRY, op->loc, "the launched function '@%s' must carry pto.simt_entry", name);
        v_note(V, d, f->loc, "'@%s' declared here", name);
    }
}

static void check_launch(VCtx *V, Op *op)
{
    int64_t d[3] = {0, 0, 0};
    bool known[3] = {false, false, false};
    Op *callee = NULL;
    char a[96], b[96];
    if (op->kind == OP_SECTION_SIMT) {
        static const char *const nm[3] = {"dim_x", "dim_y", "dim_z"};
        for (int i = 0; i < 3; i++) {
            const Attr *x = op_attr(op, nm[i]);
            if (x && x->kind == AT_INT) { d[i] = x->i; known[i] = true; }
        }
        check_dims(V, op, d, known, NULL);
        return;
    }
    if (op->kind == OP_STORE_VFSIMT_INFO) {
        for (int i = 0; i < 3 && i < (int)op->noperands; i++) known[i] = v_const_int(op->operands[2 - i], &d[i]);
        check_dims(V, op, d, known, NULL);
        return;
    }
    const Attr *c = op_attr(op, "callee");
    if (!c || !c->s) return;
    check_callee(V, op, c->s, &callee);
    if (op->kind == OP_SIMT_LAUNCH) {
        for (int i = 0; i < 3 && i < (int)op->noperands; i++) known[i] = v_const_int(op->operands[i], &d[i]);
        check_dims(V, op, d, known, callee);
        const Type *ft = callee ? func_type(callee) : NULL;
        if (!ft) return;
        if (ft->nout) v_err(V, DIAG_V_SIMT_ENTRY, op->loc, "the launched function returns values; a SIMT body returns none");
        uint32_t nargs = op->noperands >= 3 ? op->noperands - 3 : 0;
        if (nargs != ft->nin) {
            v_err(V, DIAG_V_CALL, op->loc, "pto.simt_launch passes %u argument(s) where '@%s' takes %u", nargs, c->s, ft->nin);
            return;
        }
        for (uint32_t i = 0; i < nargs; i++) {
            const Type *t = op->operands[3 + i]->type;
            if (t != ft->params[i])
                v_err(V, DIAG_V_CALL, op->loc, "launch argument %u has type %s where '@%s' takes %s", i, tyn(t, a), c->s,
                      tyn(ft->params[i], b));
            else if (ty_bits(t) > 64)
                v_err(V, DIAG_V_SIMT_TYPE, op->loc, "launch argument %u (%s) is wider than 64 bits", i, tyn(t, a));
        }
        return;
    }
    /* func.call of an entry from outside SIMT code: a launch configured by the dominating store_vfsimt_info */
    if (!callee || !v_has(callee, "pto.simt_entry") || simt_scope(op)) return;
    for (const Op *p = ir_parent_op(op); p; p = ir_parent_op(p))
        if (v_is_vec_interval(p)) {
            long k = v_err(V, DIAG_V_SIMT_SCOPE, op->loc, "the call launches SIMT entry '@%s', which cannot happen inside "
                           "a vector scope", c->s);
            v_note(V, k, p->loc, "vector scope opened here");
            return;
        }
    const Op *cfg = dominating_config(op);
    if (!cfg) {   /* a caller may have configured it (the last store_vfsimt_info that ran counts): the run decides */
        v_warn(V, DIAG_V_SIMT_CONFIG, op->loc, "the call launches SIMT entry '@%s' with no pto.store_vfsimt_info before "
               "it in this function; unless one ran earlier (in a caller), the launch traps T-SIMT-LAUNCH", c->s);
        return;
    }
    for (int i = 0; i < 3 && i < (int)cfg->noperands; i++) known[i] = v_const_int(cfg->operands[2 - i], &d[i]);
    for (uint32_t i = 0; i < op->noperands; i++)
        if (ty_bits(op->operands[i]->type) > 64)
            v_err(V, DIAG_V_SIMT_TYPE, op->loc, "launch argument %u (%s) is wider than 64 bits", i,
                  tyn(op->operands[i]->type, a));
    check_dims(V, op, d, known, callee);
}

/* ------------------------------------------------------------------ value types */

static void check_vec_type(VCtx *V, const Type *t, SrcLoc loc, const Value *v)
{
    char a[96];
    if (!t || t->kind != TY_VEC) return;
    const Type *e = t->elem;
    bool ok_e = e && ((e->kind == TY_INT && (e->bits == 8 || e->bits == 16 || e->bits == 32 || e->bits == 64)) ||
                      (e->kind == TY_FLOAT && (e->fk == FK_F16 || e->fk == FK_BF16 || e->fk == FK_F32 || is_fp8e(e) ||
                                               e->fk == FK_HIF8)));
    if (!ok_e || t->lanes < 2 || t->lanes > 8 || ty_bits(t) > 128)
        v_err(V, DIAG_V_SIMT_TYPE, loc, "%%%s has type %s; packed SIMT values are vector<NxT> of 2 to 8 integer or "
              "f16/bf16/f32/fp8/hif8 elements, at most 128 bits", v_valname(v), tyn(t, a));
}

/* dense<v> splats; dense<[v0, ...]> lists one value per lane. */
static void check_dense(VCtx *V, const Op *op)
{
    const Attr *a = op_attr(op, "value");
    const Type *t = op->results[0]->type;
    if (!a || a->kind != AT_RAW || !a->s || t->kind != TY_VEC || !strchr(a->s, '[')) return;
    unsigned n = 1;
    for (const char *p = a->s; *p; p++) n += *p == ',';
    if (n != t->lanes)
        v_err(V, DIAG_V_SIMT_TYPE, op->loc, "the dense constant lists %u value(s) for a vector of %u lanes", n, t->lanes);
}

static void check_value_types(VCtx *V, Op *op)
{
    if (op->kind == OP_ARITH_CONSTANT && op->nresults) check_dense(V, op);
    for (uint32_t i = 0; i < op->nresults; i++) check_vec_type(V, op->results[i]->type, op->loc, op->results[i]);
    for (uint32_t r = 0; r < op->nregions; r++) {
        Block *b = op->regions[r]->block;
        for (uint32_t i = 0; i < b->nargs; i++) check_vec_type(V, b->args[i]->type, op->loc, b->args[i]);
    }
}

static const Type *val_t(const Op *op, unsigned i) { return i < op->noperands && op->operands[i] ? op->operands[i]->type : NULL; }
static const Type *res_t(const Op *op) { return op->nresults ? op->results[0]->type : NULL; }

static void bad_type(VCtx *V, const Op *op, const Type *t, const char *accepts)
{
    char a[96];
    v_err(V, DIAG_V_SIMT_TYPE, op->loc, "'%s' does not accept %s; it takes %s", v_opname(op), tyn(t, a), accepts);
}

/* The operands and the result of an element-wise op have one type. */
static bool same_types(VCtx *V, const Op *op)
{
    char a[96], b[96];
    const Type *t = val_t(op, 0);
    for (uint32_t i = 1; i < op->noperands; i++)
        if (val_t(op, i) != t) {
            v_err(V, DIAG_V_SIMT_TYPE, op->loc, "'%s' operands must have one type (%s and %s)", v_opname(op), tyn(t, a),
                  tyn(val_t(op, i), b));
            return false;
        }
    if (res_t(op) && res_t(op) != t) {
        v_err(V, DIAG_V_SIMT_TYPE, op->loc, "'%s' returns its operands' type %s, not %s", v_opname(op), tyn(t, a),
              tyn(res_t(op), b));
        return false;
    }
    return true;
}

/* signed / unsigned clauses: at most one; `need` = one required; `ints_only` = only on integer operands. */
static void check_sign(VCtx *V, const Op *op, bool need, bool is_int)
{
    bool s = v_has(op, "signed"), u = v_has(op, "unsigned");
    if (s && u) v_err(V, DIAG_V_SIMT_FORM, op->loc, "'%s' takes 'signed' or 'unsigned', not both", v_opname(op));
    else if ((s || u) && !is_int)
        v_err(V, DIAG_V_SIMT_FORM, v_attr_loc(op, s ? "signed" : "unsigned"), "'%s' on floating-point or packed values "
              "does not accept signedness", v_opname(op));
    else if (need && is_int && !s && !u)
        v_err(V, DIAG_V_SIMT_FORM, op->loc, "'%s' on integers needs an explicit 'signed' or 'unsigned'", v_opname(op));
}

static void check_math(VCtx *V, Op *op)
{
    const Type *t = val_t(op, 0);
    bool ok = true;
    const char *acc = "";
    switch (op->kind) {
    case OP_ABSF:
        ok = is_fmask(t, 5) || is_v2(t, e_h);
        acc = "f16, f32, vector<2xf16> or vector<2xbf16>";
        break;
    case OP_SQRT: case OP_EXP: case OP_LOG: case OP_POW:
        ok = is_fmask(t, 5) || is_v2(t, e_f16);
        acc = "f16, f32 or vector<2xf16>";
        break;
    case OP_SIN: case OP_COS:
        ok = is_fmask(t, 4);
        acc = "f32";
        break;
    case OP_CEIL: case OP_FLOOR: case OP_RINT: case OP_ROUND:
        ok = is_fmask(t, 7);
        acc = "f16, bf16 or f32";
        break;
    default:   /* fmin, fmax, fma */
        ok = is_fmask(t, 7) || is_v2(t, e_h);
        acc = "f16, bf16, f32, vector<2xf16> or vector<2xbf16>";
        break;
    }
    if (!ok) bad_type(V, op, t, acc);
    else same_types(V, op);
}

static void check_int_math(VCtx *V, Op *op)
{
    char a[96];
    const Type *t = val_t(op, 0);
    if (op->kind == OP_MULHI) {
        if (!(is_intw(t, 32) || is_intw(t, 64))) v_err(V, DIAG_V_SIMT_TYPE, op->loc, "pto.mulhi takes i32 or i64 operands, not %s", tyn(t, a));
        else same_types(V, op);
    }
    check_sign(V, op, true, true);
}

static void check_collective(VCtx *V, Op *op)
{
    const Type *t = val_t(op, 0);
    if (op->kind >= OP_SHUFFLE_IDX && op->kind <= OP_SHUFFLE_BFLY) {
        if (!(is_intw(t, 32) || is_intw(t, 64) || is_fmask(t, 5) || is_v2(t, e_f16)))
            bad_type(V, op, t, "i32, i64, f16, f32 or vector<2xf16>");
        else if (res_t(op) != t)
            bad_type(V, op, res_t(op), "a result of the value's type");
        const Attr *w = op_attr(op, "width");
        if (w && w->i != 16 && w->i != 32)
            v_err(V, DIAG_V_SIMT_FORM, v_attr_loc(op, "width"), "the width of '%s' is 16 or 32, not %" PRId64, v_opname(op), w->i);
        return;
    }
    /* redux */
    if (!(is_intw(t, 32) || is_fmask(t, 5))) {
        bad_type(V, op, t, "i32, f16 or f32");
        return;
    }
    same_types(V, op);
    check_sign(V, op, op->kind != OP_REDUX_ADD, is_intw(t, 32));
}

static bool atomic_value_ok(const Type *t)
{
    return is_intw(t, 32) || is_intw(t, 64) || is_fmask(t, 7) || is_v2(t, e_h);
}

static bool result_used(const Op *op)
{
    return op->nresults && op->results[0]->nuses > 0;
}

static void check_atomic(VCtx *V, Op *op)
{
    char a[96], b[96];
    bool cas = op->kind == OP_ATOMIC_CAS, bitwise = op->kind == OP_ATOMIC_AND || op->kind == OP_ATOMIC_OR ||
                                                    op->kind == OP_ATOMIC_XOR;
    const Type *p = val_t(op, 0), *t = val_t(op, cas ? 2 : 1);
    if (!p || p->kind != TY_PTR || !t) return;
    if (!atomic_value_ok(t)) {
        bad_type(V, op, t, "i32, i64, f16, bf16, f32, vector<2xf16> or vector<2xbf16>");
        return;
    }
    if (bitwise && t->kind != TY_INT) {
        bad_type(V, op, t, "i32 or i64 (bitwise atomics are integer)");
        return;
    }
    if (cas && val_t(op, 1) != t)
        v_err(V, DIAG_V_SIMT_TYPE, op->loc, "pto.atomic_cas compares %s with %s values; they must match",
              tyn(val_t(op, 1), a), tyn(t, b));
    if (res_t(op) != t)
        v_err(V, DIAG_V_SIMT_TYPE, op->loc, "'%s' returns the old value, of the value's type %s", v_opname(op), tyn(t, a));
    if (p->elem != t)
        v_err(V, DIAG_V_SIMT_TYPE, op->loc, "'%s' updates %s values through a pointer to %s; they must match", v_opname(op),
              tyn(t, a), tyn(p->elem, b));
    if (p->space == AS_UB && is_intw(t, 64))
        v_err(V, DIAG_V_SIMT_TYPE, op->loc, "UB-space atomics do not support i64");
    check_sign(V, op, false, t->kind == TY_INT);
    if (t->kind == TY_VEC) {
        if (!simt_scope(op))
            v_err(V, DIAG_V_SIMT_SCOPE, op->loc, "packed atomics must be inside a pto.simt_entry function or pto.section.simt");
        if (result_used(op))
            v_err(V, DIAG_V_SIMT_FORM, op->loc, "the old value of a packed atomic must be left unused");
    }
}

static bool ldg_value_ok(const Type *t)
{
    if (!t) return false;
    if (t->kind == TY_INT) return t->bits == 8 || t->bits == 16 || t->bits == 32 || t->bits == 64;
    if (t->kind == TY_FLOAT) return t->fk != FK_F4E2M1X2 && t->fk != FK_F4E1M2X2 && t->fk != FK_E8M0;
    if (is_hif8x2(t)) return true;
    if (t->kind != TY_VEC) return false;
    const Type *e = t->elem;
    if (t->lanes == 2 && (is_fmask(e, 7) || is_intw(e, 8) || is_intw(e, 16) || is_intw(e, 32))) return true;
    return (t->lanes == 2 || t->lanes == 4 || t->lanes == 8) && is_fp8e(e);
}

static void check_ldst(VCtx *V, Op *op)
{
    char a[96], b[96];
    bool st = op->kind == OP_STG;
    const Type *p = val_t(op, st ? 1 : 0), *t = st ? val_t(op, 0) : res_t(op);
    if (!p || p->kind != TY_PTR || !t) return;
    if (p->elem != t)
        v_err(V, DIAG_V_SIMT_TYPE, op->loc, "'%s' %s %s through a pointer to %s; the value must have the element type",
              v_opname(op), st ? "stores" : "loads", tyn(t, a), tyn(p->elem, b));
    else if (!ldg_value_ok(t))
        bad_type(V, op, t, "8/16/32/64-bit integers, f16/bf16/f32/f64/fp8/hif8, vector<2xT> (T = f16, bf16, f32, i8, i16, "
                 "i32), vector<2/4/8xfp8> or !pto.hif8x2");
}

/* ------------------------------------------------------------------ convert */

static bool cvt_scalar(const Type *t) { return is_intw(t, 32) || is_intw(t, 64) || is_fmask(t, 7); }
static bool e_f8(const Type *t) { return is_fp8e(t); }
static bool cvt_packed(const Type *t)
{
    return is_hif8x2(t) || is_v2(t, e_h) || is_v2(t, e_f32) || is_v2(t, e_f8);
}

static void check_convert(VCtx *V, Op *op)
{
    char a[96], b[96];
    const Type *s = val_t(op, 0), *d = res_t(op);
    const Attr *ra = op_token(op, "rnd");
    int r = ra ? (int)ra->i : T_SRND_R;
    bool sat = v_has(op, "sat"), nosat = v_has(op, "nosat");
    bool sgn = v_has(op, "signed") || v_has(op, "unsigned");
    if (!s || !d) return;
    if (sat == nosat) v_err(V, DIAG_V_SIMT_FORM, op->loc, "pto.convert needs exactly one of 'sat' and 'nosat'");
    if (v_has(op, "signed") && v_has(op, "unsigned")) v_err(V, DIAG_V_SIMT_FORM, op->loc, "pto.convert takes 'signed' or 'unsigned', not both");
    bool sp = cvt_packed(s), dp = cvt_packed(d), si = s->kind == TY_INT, di = d->kind == TY_INT;
    const char *bad = NULL;
    bool rafzc = r == T_SRND_R || r == T_SRND_A || r == T_SRND_F || r == T_SRND_C || r == T_SRND_Z;
    if (!(cvt_scalar(s) || sp) || !(cvt_scalar(d) || dp)) {
        v_err(V, DIAG_V_SIMT_TYPE, op->loc, "pto.convert converts i32, i64, f16, bf16, f32 or a supported vector<2xT>, "
              "not %s to %s", tyn(s, a), tyn(d, b));
        return;
    }
    if (sp || dp) {
        if (si || di) bad = "does not mix integer and packed conversion";
        else if (sgn) bad = "does not accept signedness for packed conversion";
        else if (!(sp && dp)) bad = "does not mix scalar and packed conversion";
        else if (is_v2(s, e_f32) && is_v2(d, e_f16)) bad = r == T_SRND_H ? "converts f32x2 to f16x2 with rounding r/a/f/c/z/o" : NULL;
        else if (is_v2(s, e_f32) && is_v2(d, e_bf16)) bad = rafzc ? NULL : "converts f32x2 to bf16x2 with rounding r/a/f/c/z";
        else if (is_v2(s, e_h) && is_v2(d, e_f32)) bad = rafzc ? NULL : "converts f16x2/bf16x2 to f32x2 with rounding r/a/f/c/z";
        else if (is_v2(s, e_f32) && is_v2(d, e_f8)) bad = r == T_SRND_R ? NULL : "converts f32x2 to f8x2 with rounding r";
        else if ((is_v2(s, e_f32) || is_v2(s, e_f16)) && is_hif8x2(d))
            bad = r == T_SRND_A || r == T_SRND_H ? NULL : "converts f32x2/f16x2 to hif8x2 with rounding a/h";
        else if ((is_v2(s, e_f8) || is_hif8x2(s)) && (is_v2(d, e_f32) || is_v2(d, e_f16)))
            bad = rafzc ? NULL : "converts f8x2/hif8x2 to f32x2/f16x2 with rounding r/a/f/c/z";
        else bad = "does not support this packed type pair";
    } else if (si && di) {
        bad = "does not convert integer to integer";
    } else if ((si || di) && !sgn) {
        bad = "needs 'signed' or 'unsigned' when converting to or from an integer";
    } else if (!si && !di && sgn) {
        bad = "does not accept signedness for floating-to-floating conversion";
    } else if (si) {
        if (is_intw(s, 64) && !is_fk(d, FK_F32)) bad = "converts i64 only to f32";
        else if (!rafzc) bad = "converts integers with rounding r/a/f/c/z";
    } else if (di) {
        if (is_intw(d, 64) && !is_fk(s, FK_F32)) bad = "converts to i64 only from f32";
        else if (!sat) bad = "needs 'sat' converting floating-point to integer";
        else if (!rafzc) bad = "converts floating-point to integer with rounding r/a/f/c/z";
    } else {
        bool f16_dst = is_fk(s, FK_F32) && is_fk(d, FK_F16);
        if (!(rafzc || (f16_dst && r == T_SRND_O))) bad = f16_dst ? "converts f32 to f16 with rounding r/a/f/c/z/o"
                                                                  : "converts between floats with rounding r/a/f/c/z";
    }
    if (bad) v_err(V, DIAG_V_SIMT_FORM, op->loc, "pto.convert %s (%s to %s)", bad, tyn(s, a), tyn(d, b));
}

/* ------------------------------------------------------------------ keep / resume */

static bool keep_type_ok(const Type *t) { return (t && t->kind == TY_INT && t->bits <= 64) || is_fmask(t, 7); }

/* Slot words [slot, slot + words) of a keep/resume op (-1 when its slot is missing). */
static int64_t slot_of(const Op *op, int *words)
{
    const Attr *s = op_attr(op, "slot");
    const Type *t = op->kind == OP_KEEP ? val_t(op, 0) : res_t(op);
    *words = t && ty_bits(t) > 32 ? 2 : 1;
    return s && s->kind == AT_INT ? s->i : -1;
}

static bool skippable_before_resume(const Op *o) { return o->kind == OP_ARITH_CONSTANT || o->kind == OP_RESUME; }
static bool allowed_after_keep(const Op *o) { return o->kind == OP_KEEP || o->kind == OP_SYNCTHREADS || o->kind == OP_RETURN; }

static void check_keep_resume(VCtx *V, Op *op)
{
    char a[96];
    bool keep = op->kind == OP_KEEP;
    const Type *t = keep ? val_t(op, 0) : res_t(op);
    int words;
    int64_t slot = slot_of(op, &words);
    if (!keep_type_ok(t)) bad_type(V, op, t, "integers up to 64 bits, f16, bf16 or f32");
    if (slot < 0) {
        v_err(V, DIAG_V_SIMT_FORM, op->loc, "'%s' needs a {slot = N : i64} attribute", v_opname(op));
        return;
    }
    if (slot + words > SIMT_SLOTS)
        v_err(V, DIAG_V_SIMT_FORM, v_attr_loc(op, "slot"), "slot %" PRId64 " (%s) is outside [0, %d]", slot, tyn(t, a),
              SIMT_SLOTS - 1);
    else if (words == 2 && slot % 2)
        v_err(V, DIAG_V_SIMT_FORM, v_attr_loc(op, "slot"), "a 64-bit value takes slots N and N+1 with N even; %" PRId64
              " is odd", slot);
    /* placement: resumes open the entry (after constants), keeps close it (before syncthreads and return) */
    const Op *o = keep ? op->next : op->prev;
    for (; o; o = keep ? o->next : o->prev)
        if (keep ? !allowed_after_keep(o) : !skippable_before_resume(o)) break;
    if (o) {
        long d = v_err(V, DIAG_V_SIMT_FORM, op->loc, keep ? "pto.keep must be in the group of keeps that ends the SIMT entry "
                       "(only pto.syncthreads may follow before the return)" : "pto.resume must be in the group of resumes "
                       "that opens the SIMT entry (only constants may come before)");
        v_note(V, d, o->loc, "'%s' is in the way", v_opname(o));
        return;
    }
    /* slot words must not overlap within the group */
    for (const Op *p = keep ? op->prev : op->next; p && p->kind == op->kind; p = keep ? p->prev : p->next) {
        int w2;
        int64_t s2 = slot_of(p, &w2);
        if (s2 >= 0 && s2 < slot + words && slot < s2 + w2) {
            long d = v_err(V, DIAG_V_SIMT_FORM, v_attr_loc(op, "slot"), "slot %" PRId64 " overlaps a slot of another '%s' "
                           "of the group", slot, v_opname(op));
            v_note(V, d, p->loc, "that one is here");
            return;
        }
    }
}

/* ------------------------------------------------------------------ llvm */

static bool llptr(const Type *t) { return t && t->kind == TY_LLPTR; }

static void check_llvm(VCtx *V, Op *op)
{
    char a[96], b[96];
    const Attr *et = op_attr(op, "elem_type");
    switch (op->kind) {
    case OP_LLVM_ALLOCA:
        if (!et || !et->ty || !(ty_is_intlike(et->ty) || et->ty->kind == TY_FLOAT || et->ty->kind == TY_VEC))
            v_err(V, DIAG_V_SIMT_TYPE, op->loc, "llvm.alloca allocates scalars or packed vectors");
        if (!llptr(res_t(op)) || res_t(op)->space)
            v_err(V, DIAG_V_SIMT_TYPE, op->loc, "llvm.alloca returns a !llvm.ptr (private memory)");
        if (!simt_scope(op) && !v_has(op, "pto.persistent"))
            v_err(V, DIAG_V_SIMT_SCOPE, op->loc, "llvm.alloca outside SIMT code must be {pto.persistent} (per-workitem "
                  "memory kept across SIMT sections)");
        break;
    case OP_LLVM_GEP:
        if (!llptr(val_t(op, 0)) || res_t(op) != val_t(op, 0))
            v_err(V, DIAG_V_SIMT_TYPE, op->loc, "llvm.getelementptr steps a !llvm.ptr and returns the same pointer type");
        break;
    case OP_LLVM_LOAD: case OP_LLVM_STORE: {
        const Type *p = val_t(op, op->kind == OP_LLVM_STORE);
        if (!llptr(p)) v_err(V, DIAG_V_SIMT_TYPE, op->loc, "'%s' accesses memory through a !llvm.ptr, not %s", v_opname(op), tyn(p, a));
        break;
    }
    case OP_LLVM_EXTRACTELEMENT:
        if (!ty_is_vec(val_t(op, 0)) || !ty_is_intlike(val_t(op, 1)))
            v_err(V, DIAG_V_SIMT_TYPE, op->loc, "llvm.extractelement takes a vector<NxT> and an integer index");
        break;
    case OP_LLVM_INTTOPTR:
        if (!ty_is_intlike(val_t(op, 0)) || !llptr(res_t(op)))
            v_err(V, DIAG_V_SIMT_TYPE, op->loc, "llvm.inttoptr converts an integer to a !llvm.ptr<N>, not %s to %s",
                  tyn(val_t(op, 0), a), tyn(res_t(op), b));
        break;
    case OP_LLVM_BITCAST: {
        const Type *s = val_t(op, 0), *d = res_t(op);
        bool ok = s && d && (ty_is_intlike(s) || s->kind == TY_FLOAT || s->kind == TY_VEC) &&
                  (ty_is_intlike(d) || d->kind == TY_FLOAT || d->kind == TY_VEC) && ty_bits(s) == ty_bits(d);
        if (!ok) v_err(V, DIAG_V_SIMT_TYPE, op->loc, "llvm.bitcast reinterprets a value as another of the same width, not "
                       "%s as %s", tyn(s, a), tyn(d, b));
        break;
    }
    default:
        break;
    }
}

/* ------------------------------------------------------------------ driver */

void verify_simt(VCtx *V, Op *op)
{
    check_value_types(V, op);
    if (op->kind == OP_FUNC) {
        check_entry_func(V, op);
        return;
    }
    if (op->kind == OP_MODULE || op->kind == OP_RETURN) return;
    check_scope(V, op);
    if (op->kind == OP_CALL) {
        const Attr *c = op_attr(op, "callee");
        Op *f = c && c->s ? functab_resolve(V->funcs, op, c->s) : NULL;
        if (f && v_has(f, "pto.simt_entry")) check_launch(V, op);
        return;
    }
    if (op_info[op->kind].fam != FAM_SIMT) return;
    switch (op->kind) {
    case OP_STORE_VFSIMT_INFO: case OP_SIMT_LAUNCH: case OP_SECTION_SIMT: check_launch(V, op); break;
    case OP_SHUFFLE_IDX: case OP_SHUFFLE_UP: case OP_SHUFFLE_DOWN: case OP_SHUFFLE_BFLY:
    case OP_REDUX_ADD: case OP_REDUX_MAX: case OP_REDUX_MIN:
        check_collective(V, op);
        break;
    case OP_ATOMIC_EXCH: case OP_ATOMIC_ADD: case OP_ATOMIC_SUB: case OP_ATOMIC_MIN: case OP_ATOMIC_MAX:
    case OP_ATOMIC_AND: case OP_ATOMIC_OR: case OP_ATOMIC_XOR: case OP_ATOMIC_CAS:
        check_atomic(V, op);
        break;
    case OP_LDG: case OP_STG: check_ldst(V, op); break;
    case OP_MULHI: case OP_MUL_I32TOI64: check_int_math(V, op); break;
    case OP_ABSF: case OP_SQRT: case OP_EXP: case OP_LOG: case OP_SIN: case OP_COS: case OP_POW: case OP_CEIL:
    case OP_FLOOR: case OP_RINT: case OP_ROUND: case OP_FMIN: case OP_FMAX: case OP_FMA:
        check_math(V, op);
        break;
    case OP_CONVERT: check_convert(V, op); break;
    case OP_KEEP: case OP_RESUME: check_keep_resume(V, op); break;
    default:
        if (op_info[op->kind].syn == SYN_LLVM || op->kind == OP_LLVM_LOAD || op->kind == OP_LLVM_STORE ||
            op->kind == OP_LLVM_INTTOPTR || op->kind == OP_LLVM_BITCAST)
            check_llvm(V, op);
        break;
    }
}
