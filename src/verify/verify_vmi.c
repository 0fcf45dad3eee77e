/* verify_vmi.c — the rules of the VMI layer (pto.vmi.*, docs/verifier.md "VMI"): what a logical vector or
 * mask may hold, and, per op, which element types it computes, which lane counts must agree, how a mask
 * fits its data (lanes, granularity), the group attributes, the conversion contract of vcvt (direction,
 * type pair, rounding, saturate), the access modes of vload/vstore and the attribute values the compiler's
 * op verifiers accept. The signature pass has already checked type classes (a VMI slot holds a
 * !pto.vmi.vreg or !pto.vmi.mask); an op whose operands fail there, or whose VMI values have an element
 * type this file already reported at their definition, is not checked again (no cascades).
 *
 * Evidence, in this order: the public compiler's op verifiers (PTOAS VMI.cpp), the PTO-Gym VMI spec, the
 * lit tests of test/lit/vmi_new. Every rule reports at the operand, result or attribute it is about. */
#include "verify_int.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Most registers a VMI vector may span: the VMI handlers build a result in a 64-register scratch
   (ops/vmi VMI_MAX_BYTES), and 64 registers of 8-bit lanes is the parser's lane limit. */
enum { VMI_MAX_REGS = 64 };

/* fp8 (f8E4M3FN, f8E5M2, f8E4M3), hif8, the packed f4 kinds and e8m0: the narrow formats of the a5 profile */
static bool narrow_float(const Type *e)
{
    ElemKind k = e && e->kind == TY_FLOAT ? elem_kind(e) : EK_BAD;
    return k == EK_E4M3 || k == EK_E5M2 || k == EK_HIF8 || k == EK_F4E2M1 || k == EK_F4E1M2 || k == EK_E8M0;
}

static const char *tyn(const Type *t, char *b) { return v_tyname(t, b, 96); }

/* ------------------------------------------------------------------ element predicates (the compiler's) */

static const Type *vv(const Value *v) { return v && v->type && v->type->kind == TY_VMI_VREG ? v->type : NULL; }
static const Type *vm(const Value *v) { return v && v->type && v->type->kind == TY_VMI_MASK ? v->type : NULL; }
static bool is_int(const Type *e) { return e && e->kind == TY_INT; }
/* !pto.hif8x2: two hif8 values in 16 bits (a vector<2xhif8> of the SIMT surface) */
static bool is_hif8x2(const Type *e) { return e && e->kind == TY_VEC && e->gran; }
/* float-like (the compiler's isVMIFloatLikeType): fp8, hif8, f4x2, bf16x2 and hif8x2 too */
static bool is_fl(const Type *e) { return e && (e->kind == TY_FLOAT || is_hif8x2(e)); }
static bool is_fk(const Type *e, FloatKind fk) { return e && e->kind == TY_FLOAT && e->fk == fk; }
static bool is_bf16x2(const Type *e) { return is_fk(e, FK_BF16X2); }
static bool is_fh(const Type *e) { return is_fk(e, FK_F16) || is_fk(e, FK_F32); }
static bool is_fbh(const Type *e) { return is_fh(e) || is_fk(e, FK_BF16); }
static bool is_i8_32(const Type *e) { return is_int(e) && (e->bits == 8 || e->bits == 16 || e->bits == 32); }
static bool is_signed(const Type *e) { return is_int(e) && e->sign == SIGN_S; }
/* "unsigned semantics": ui or signless (the compiler's matchesVMIIntSemantics) */
static bool is_unsig(const Type *e) { return is_int(e) && e->sign != SIGN_S; }
/* the packed float carriers of VMI: two f4 values in a byte, two bf16 in 32 bits */
static bool is_packed_carrier(const Type *e)
{
    return is_fk(e, FK_F4E2M1X2) || is_fk(e, FK_F4E1M2X2) || is_bf16x2(e) || is_hif8x2(e);
}
static unsigned ebits(const Type *e) { return e ? ty_bits(e) : 0; }

/* ------------------------------------------------------------------ operands and locations */

static Value *arg(VCtx *V, Op *op, const char *g) { return v_grp(V, op, g, 0); }
static SrcLoc at(VCtx *V, Op *op, const char *g)
{
    int i = v_group_index(V, op, g);
    return i >= 0 && op_group_len(op, (unsigned)i) ? op_group_loc(op, (unsigned)i, 0) : op->loc;
}
static Value *res(Op *op, unsigned i) { return i < op->nresults ? op->results[i] : NULL; }
static SrcLoc rloc(Op *op, unsigned i) { return i < op->nresults ? v_value_loc(op->results[i]) : op->loc; }
static SrcLoc aloc(Op *op, const char *name) { return v_attr_loc(op, name); }

/* The name of a value for messages: "%x" or "the result". */
static const char *nm(const Value *v, char *b)
{
    snprintf(b, 64, "%%%s", v ? v_valname(v) : "?");
    return b;
}

/* ------------------------------------------------------------------ values */

/* A VMI type every value must satisfy wherever it is defined. Returns true when it reported. */
static bool check_type(VCtx *V, const Type *t, SrcLoc loc, const Value *v)
{
    char a[96], n[64];
    if (!ty_is_vmi(t)) return false;
    if (t->kind == TY_VMI_VREG) {
        unsigned b = ebits(t->elem);
        bool kind_ok = t->elem && (t->elem->kind == TY_INT || t->elem->kind == TY_FLOAT || is_hif8x2(t->elem));
        if (!kind_ok || (b != 8 && b != 16 && b != 32)) {
            v_err(V, DIAG_V_ELEM_TYPE, loc, "%s has type %s; a VMI vector's elements are 8, 16 or 32 bits wide "
                  "(an integer, a float, an fp8/hif8/f4x2 kind or !pto.bf16x2)", nm(v, n), tyn(t, a));
            return true;
        }
        if (ty_vmi_regs(t) > VMI_MAX_REGS) {
            v_err(V, DIAG_V_VMI_LANES, loc, "%s has type %s: %u lanes of %u bits span %u registers; a VMI vector spans "
                  "at most %u (%u lanes of %u bits)", nm(v, n), tyn(t, a), t->lanes, b, ty_vmi_regs(t), VMI_MAX_REGS,
                  VMI_MAX_REGS * 2048 / b, b);
            return true;
        }
        if (!V->tp->fp8 && narrow_float(t->elem)) {
            v_err(V, DIAG_V_TARGET_TYPE, loc, "%s has type %s; fp8, hif8, f4 and e8m0 element types are only available "
                  "on the a5 target profile (selected: %s)", nm(v, n), tyn(t, a), V->tp->name);
            return true;
        }
        if (t->lay.kind == VL_NUM_GROUPS && t->lay.factor != t->lanes) {
            v_err(V, DIAG_V_VMI_LAYOUT, loc, "%s has type %s; a num_groups layout describes one logical lane per group, "
                  "so the vector has %u lanes", nm(v, n), tyn(t, a), t->lay.factor);
            return true;
        }
    } else if (t->lay.kind != VL_NONE && t->gran == 0) {
        v_err(V, DIAG_V_VMI_LAYOUT, loc, "%s has type %s; a pred mask carries no layout (only b8/b16/b32 masks do)",
              nm(v, n), tyn(t, a));
        return true;
    }
    return false;
}

/* The VMI values an op defines: its results and the arguments of its regions' blocks. */
static void check_defs(VCtx *V, Op *op)
{
    for (uint32_t i = 0; i < op->nresults; i++) check_type(V, op->results[i]->type, rloc(op, i), op->results[i]);
    for (uint32_t r = 0; r < op->nregions; r++) {
        Block *b = op->regions[r]->block;
        for (uint32_t i = 0; i < b->nargs; i++) {
            SrcLoc l = b->args[i]->loc;
            if (!l.file) l = op->loc;
            check_type(V, b->args[i]->type, l, b->args[i]);
        }
    }
}

/* A type check_type would reject (reported at its definition): op rules skip ops that use one. */
static bool bad_type(const VCtx *V, const Type *t)
{
    if (!ty_is_vmi(t)) return false;
    if (t->kind == TY_VMI_VREG) {
        unsigned b = ebits(t->elem);
        bool kind_ok = t->elem && (t->elem->kind == TY_INT || t->elem->kind == TY_FLOAT || is_hif8x2(t->elem));
        return !kind_ok || (b != 8 && b != 16 && b != 32) || ty_vmi_regs(t) > VMI_MAX_REGS ||
               (!V->tp->fp8 && narrow_float(t->elem)) ||
               (t->lay.kind == VL_NUM_GROUPS && t->lay.factor != t->lanes);
    }
    return t->lay.kind != VL_NONE && t->gran == 0;
}

/* ------------------------------------------------------------------ shared relations */

/* Element type `e` of the op's data is one of `set` (a description such as "i8, i16, i32, f16, bf16 or f32").
   bf16x2 gets the compiler's own message: it is a conversion-only carrier. */
static bool elem_in(VCtx *V, Op *op, SrcLoc loc, const Type *e, bool ok, const char *set)
{
    char a[96];
    if (ok) return true;
    if (is_bf16x2(e))
        v_err(V, DIAG_V_ELEM_TYPE, loc, "'%s' does not compute !pto.bf16x2 lanes; bf16x2 is a conversion-only element "
              "type (vcvt, vinterpret_cast, loads and stores)", v_opname(op));
    else
        v_err(V, DIAG_V_ELEM_TYPE, loc, "'%s' does not accept %s elements; it takes %s", v_opname(op), tyn(e, a), set);
    return false;
}

/* Two VMI values agree in lane count (E-VMI-LANES at `loc`, about `v`). */
static bool same_lanes(VCtx *V, Op *op, const Value *ref, const Value *v, SrcLoc loc)
{
    char a[64], b[64];
    if (!ref || !v || !ty_is_vmi(ref->type) || !ty_is_vmi(v->type) || ref->type->lanes == v->type->lanes) return true;
    v_err(V, DIAG_V_VMI_LANES, loc, "'%s': %s has %u logical lanes but %s has %u; they must agree", v_opname(op),
          nm(v, a), v->type->lanes, nm(ref, b), ref->type->lanes);
    return false;
}

/* Layouts agree: both absent or both equal. */
static bool same_layout(const Type *a, const Type *b)
{
    return a->lay.kind == b->lay.kind && a->lay.factor == b->lay.factor && a->lay.slots == b->lay.slots &&
           a->lay.stride == b->lay.stride;
}

static bool layout_match(VCtx *V, Op *op, const Value *ref, const Value *v, SrcLoc loc)
{
    char a[96], b[96], n1[64], n2[64];
    if (!ref || !v || !ty_is_vmi(ref->type) || !ty_is_vmi(v->type) || same_layout(ref->type, v->type)) return true;
    v_err(V, DIAG_V_VMI_LAYOUT, loc, "'%s': %s has type %s but %s has %s; the layouts of an op's values agree (all "
          "absent, or all the same)", v_opname(op), nm(v, n1), tyn(v->type, a), nm(ref, n2), tyn(ref->type, b));
    return false;
}

/* v is a vector of exactly ref's shape: lanes, element type (E-OPERAND-TYPE, or E-RESULT-TYPE when
   `is_result`), layout. */
static bool same_vec(VCtx *V, Op *op, const Value *ref, const Value *v, SrcLoc loc, bool is_result)
{
    char a[96], b[96], n1[64], n2[64];
    if (!vv(ref) || !vv(v)) return true;
    if (!same_lanes(V, op, ref, v, loc)) return false;
    if (ref->type->elem != v->type->elem) {
        v_err(V, is_result ? DIAG_V_RESULT_TYPE : DIAG_V_OPERAND_TYPE, loc, "'%s': %s has type %s but %s has %s; "
              "their element types must be the same", v_opname(op), nm(v, n1), tyn(v->type, a), nm(ref, n2),
              tyn(ref->type, b));
        return false;
    }
    return layout_match(V, op, ref, v, loc);
}

/* A governing mask fits the data it governs: the same logical lanes and, when the mask names a granularity,
   one that matches the data's element width (b8/b16/b32 for 8/16/32-bit lanes). */
static bool mask_fits(VCtx *V, Op *op, const Value *m, SrcLoc loc, const Value *data)
{
    char a[96], b[96], n1[64], n2[64];
    if (!vm(m) || !ty_is_vmi(data ? data->type : NULL)) return true;
    if (m->type->lanes != data->type->lanes) {
        v_err(V, DIAG_V_VMI_LANES, loc, "'%s': mask %s has %u logical lanes but the data it governs (%s) has %u",
              v_opname(op), nm(m, n1), m->type->lanes, nm(data, n2), data->type->lanes);
        return false;
    }
    if (m->type->gran && vv(data) && m->type->gran * 8u != ebits(data->type->elem)) {
        v_err(V, DIAG_V_MASK_GRAN, loc, "'%s': mask %s has type %s but the data it governs (%s) has %u-bit elements (%s); "
              "write !pto.vmi.mask<%uxb%u> or <%uxpred>", v_opname(op), nm(m, n1), tyn(m->type, a), nm(data, n2),
              ebits(data->type->elem), tyn(data->type, b), m->type->lanes, ebits(data->type->elem), m->type->lanes);
        return false;
    }
    if ((m->type->lay.kind != VL_NONE || data->type->lay.kind != VL_NONE) && !same_layout(m->type, data->type)) {
        v_err(V, DIAG_V_VMI_LAYOUT, loc, "'%s': mask %s has type %s but the data it governs has %s; a mask and its data "
              "carry the same layout, or neither carries one", v_opname(op), nm(m, n1), tyn(m->type, a),
              tyn(data->type, b));
        return false;
    }
    return true;
}

/* The optional governing mask `m` of an op fits `data`. */
static bool opt_mask(VCtx *V, Op *op, const char *g, const Value *data)
{
    Value *m = arg(V, op, g);
    return !m || mask_fits(V, op, m, at(V, op, g), data);
}

/* A group count attribute: a positive integer (dividing `lanes` when lanes != 0). Returns the count, 0 after
   reporting, -1 when absent. */
static int64_t group_attr(VCtx *V, Op *op, const char *name, unsigned lanes, const char *of)
{
    const Attr *a = op_attr(op, name);
    if (!a) return -1;
    if (a->kind != AT_INT) {
        v_err(V, DIAG_V_ATTR, aloc(op, name), "'%s' needs an integer '%s'", v_opname(op), name);
        return 0;
    }
    if (a->i <= 0) {
        v_err(V, DIAG_V_VMI_GROUP, aloc(op, name), "'%s': %s = %" PRId64 " must be positive", v_opname(op), name, a->i);
        return 0;
    }
    if (lanes && a->i > (int64_t)lanes) {
        v_err(V, DIAG_V_VMI_GROUP, aloc(op, name), "'%s': %s = %" PRId64 " exceeds the %u logical lanes of %s",
              v_opname(op), name, a->i, lanes, of);
        return 0;
    }
    if (lanes && lanes % (unsigned)a->i) {
        v_err(V, DIAG_V_VMI_GROUP, aloc(op, name), "'%s': %s = %" PRId64 " must divide the %u logical lanes of %s into "
              "equal groups", v_opname(op), name, a->i, lanes, of);
        return 0;
    }
    return a->i;
}

/* An attribute the op does not take in this form. */
static void no_attr(VCtx *V, Op *op, const char *name, const char *why)
{
    if (op_attr(op, name)) v_err(V, DIAG_V_ATTR, aloc(op, name), "'%s' takes no '%s' %s", v_opname(op), name, why);
}

/* A scalar operand has the vector's element type exactly (signedness included). */
static bool scalar_is(VCtx *V, Op *op, const char *g, const Type *e, const char *what)
{
    char a[96], b[96], n[64];
    Value *s = arg(V, op, g);
    if (!s || !s->type || s->type == e) return true;
    v_err(V, DIAG_V_OPERAND_TYPE, at(V, op, g), "'%s': the %s %s has type %s; it must have the vector's element type %s",
          v_opname(op), what, nm(s, n), tyn(s->type, a), tyn(e, b));
    return false;
}

/* ------------------------------------------------------------------ element-wise */

static const char S_ADD[] = "i8, i16, i32 (any signedness), f16, bf16 or f32";

/* The spec's op an MLIR-named element-wise op (ops_vmi.def VCLASS rows) stands for: the one with its micro op. */
static OpKind spec_kind(OpKind k)
{
    if (op_vmi_class(k) == VC_NONE) return k;
    static const OpKind spec[] = {OP_VMI_VADD, OP_VMI_VSUB, OP_VMI_VMUL, OP_VMI_VDIV, OP_VMI_VMAX, OP_VMI_VMIN,
                                  OP_VMI_VSHL, OP_VMI_VSHR, OP_VMI_VAND, OP_VMI_VOR, OP_VMI_VXOR, OP_VMI_VNOT,
                                  OP_VMI_VABS, OP_VMI_VNEG, OP_VMI_VRELU, OP_VMI_VEXP, OP_VMI_VLN, OP_VMI_VSQRT};
    for (size_t i = 0; i < sizeof spec / sizeof spec[0]; i++)
        if (op_vmi_micro(spec[i]) == op_vmi_micro(k)) return spec[i];
    return k;
}

/* The element class of an MLIR-named op (VCLASS): f16/bf16/f32 for the f ops, integers for the i ops, and for the
   right shifts a signedness that does not contradict the name. */
static bool class_ok(VCtx *V, Op *op, const Type *e)
{
    switch (op_vmi_class(op->kind)) {
    case VC_FLT: return elem_in(V, op, at(V, op, "a"), e, is_fbh(e), "f16, bf16 or f32 (a floating-point op)");
    case VC_INT: return elem_in(V, op, at(V, op, "a"), e, is_int(e), "integers (an integer op)");
    case VC_INT_U: return elem_in(V, op, at(V, op, "a"), e, is_unsig(e), "signless or unsigned integers (a logical shift)");
    case VC_INT_S:
        return elem_in(V, op, at(V, op, "a"), e, is_int(e) && e->sign != SIGN_U,
                       "signless or signed integers (an arithmetic shift)");
    default: return true;
    }
}

/* Which element types an element-wise (or vector-scalar) op computes. */
static bool ew_elem_ok(OpKind k, const Type *e, const char **set)
{
    switch (spec_kind(k)) {
    case OP_VMI_VADD: case OP_VMI_VSUB: case OP_VMI_VMAX: case OP_VMI_VMIN:
    case OP_VMI_VADDS: case OP_VMI_VMAXS: case OP_VMI_VMINS: case OP_VMI_VCMP: case OP_VMI_VCMPS:
        *set = S_ADD;
        return is_i8_32(e) || is_fbh(e);
    case OP_VMI_VMUL:
        *set = "i16, i32, f16, bf16 or f32";
        return (is_int(e) && (e->bits == 16 || e->bits == 32)) || is_fbh(e);
    case OP_VMI_VMULS:   /* bf16: the spec's list and the micro vmuls (the compiler refuses it: W-VMI-COMPILER) */
        *set = "i16, i32, f16, bf16 or f32";
        return (is_int(e) && (e->bits == 16 || e->bits == 32)) || is_fbh(e);
    case OP_VMI_VDIV: case OP_VMI_VEXP: case OP_VMI_VLN: case OP_VMI_VSQRT:
        *set = "f16 or f32";
        return is_fh(e);
    case OP_VMI_VAND: case OP_VMI_VOR: case OP_VMI_VXOR: case OP_VMI_VNOT: case OP_VMI_VSHL: case OP_VMI_VSHR:
    case OP_VMI_VSHLS: case OP_VMI_VSHRS:
        *set = "integers (i8, i16, i32 of any signedness)";
        return is_int(e);
    case OP_VMI_VABS:
        *set = "si8, si16, si32 (explicitly signed), f16, bf16 or f32";
        return (is_signed(e) && is_i8_32(e)) || is_fbh(e);
    case OP_VMI_VNEG:
        *set = "i8, i16, i32, f16 or f32";
        return is_i8_32(e) || is_fh(e);
    case OP_VMI_VRELU:
        *set = "si32 (explicitly signed), f16 or f32";
        return (is_signed(e) && e->bits == 32) || is_fh(e);
    default:
        *set = "?";
        return true;
    }
}

/* vand / vor / vxor / vnot on masks: a per-lane boolean op, without governing mask or pmode. */
static void mask_logic(VCtx *V, Op *op)
{
    char n[64];
    Value *a = arg(V, op, "a"), *b = arg(V, op, "b"), *m = arg(V, op, "m"), *r = res(op, 0);
    if (m)
        v_err(V, DIAG_V_OPERAND_COUNT, at(V, op, "m"), "'%s' on masks takes no governing mask (%s would be ambiguous "
              "with the mask operands)", v_opname(op), nm(m, n));
    no_attr(V, op, "pmode", "on masks (a mask logic op has no inactive lanes)");
    Value *vals[3] = {b, r, NULL};
    SrcLoc locs[3] = {at(V, op, "b"), rloc(op, 0), op->loc};
    for (int i = 0; i < 2; i++) {
        Value *x = vals[i];
        if (!x) continue;
        if (!vm(x)) {
            char t[96];
            v_err(V, i == 1 ? DIAG_V_RESULT_TYPE : DIAG_V_OPERAND_TYPE, locs[i], "'%s' on masks: %s has type %s; every "
                  "operand and the result are !pto.vmi.mask", v_opname(op), nm(x, n), tyn(x->type, t));
            return;
        }
        if (!same_lanes(V, op, a, x, locs[i])) return;
        if (x->type->gran != a->type->gran) {
            char t1[96], t2[96];
            v_err(V, DIAG_V_MASK_GRAN, locs[i], "'%s': %s has type %s but %%%s has %s; the masks of a mask logic op have "
                  "one granularity", v_opname(op), nm(x, n), tyn(x->type, t1), v_valname(a), tyn(a->type, t2));
            return;
        }
        if (!layout_match(V, op, a, x, locs[i])) return;
    }
}

static void elementwise(VCtx *V, Op *op)
{
    Value *a = arg(V, op, "a"), *r = res(op, 0);
    if (vm(a)) {
        mask_logic(V, op);
        return;
    }
    if (!vv(a)) return;
    const char *set = "";
    const Type *e = a->type->elem;
    if (!class_ok(V, op, e)) return;
    bool ok = ew_elem_ok(op->kind, e, &set);
    if (!elem_in(V, op, at(V, op, "a"), e, ok, set)) return;
    Value *b = arg(V, op, "b");
    if (b && !vv(b)) {
        char n[64], t[96];
        v_err(V, DIAG_V_OPERAND_TYPE, at(V, op, "b"), "'%s': %s has type %s; with vector operands both are "
              "!pto.vmi.vreg", v_opname(op), nm(b, n), tyn(b->type, t));
        return;
    }
    if (b && !same_vec(V, op, a, b, at(V, op, "b"), false)) return;
    if (r && !vv(r)) {
        char n[64], t[96];
        v_err(V, DIAG_V_RESULT_TYPE, rloc(op, 0), "'%s': the result %s has type %s; with vector operands it is a "
              "!pto.vmi.vreg", v_opname(op), nm(r, n), tyn(r->type, t));
        return;
    }
    if (!same_vec(V, op, a, r, rloc(op, 0), true)) return;
    opt_mask(V, op, "m", r);
}

/* vadds / vmuls / vmaxs / vmins / vshls / vshrs: the scalar has the element type (shifts: a signless i16). */
static void vec_scalar(VCtx *V, Op *op)
{
    Value *a = arg(V, op, "a"), *r = res(op, 0);
    if (!vv(a)) return;
    const char *set = "";
    const Type *e = a->type->elem;
    bool ok = ew_elem_ok(op->kind, e, &set);
    if (!elem_in(V, op, at(V, op, "a"), e, ok, set)) return;
    if (op->kind == OP_VMI_VSHLS || op->kind == OP_VMI_VSHRS) {
        Value *s = arg(V, op, "s");
        if (s && s->type && !(s->type->kind == TY_INT && s->type->bits == 16 && s->type->sign == SIGN_LESS)) {
            char n[64], t[96];
            v_err(V, DIAG_V_OPERAND_TYPE, at(V, op, "s"), "'%s': the shift amount %s has type %s; it is a signless i16 "
                  "whatever the element type", v_opname(op), nm(s, n), tyn(s->type, t));
            return;
        }
    } else if (!scalar_is(V, op, "s", e, "scalar")) {
        return;
    }
    if (!same_vec(V, op, a, r, rloc(op, 0), true)) return;
    if (!mask_fits(V, op, arg(V, op, "m"), at(V, op, "m"), r)) return;
    if (op->kind == OP_VMI_VMULS && is_fk(e, FK_BF16))
        v_warn(V, DIAG_V_VMI_COMPILER, at(V, op, "a"), "'%s' on bf16 lanes follows the spec (and the micro vmuls); the "
               "public compiler's verifier takes i16, i32, f16 or f32 only", v_opname(op));
}

/* vcmp / vcmps: ordered predicates (o*) compare floats only; the seed mask governs the data; the result
   mask has the seed's lanes. */
static void compare(VCtx *V, Op *op)
{
    Value *a = arg(V, op, "a"), *seed = arg(V, op, "seed"), *r = res(op, 0);
    if (!vv(a)) return;
    const char *set = "";
    const Type *e = a->type->elem;
    bool ok = ew_elem_ok(op->kind, e, &set);
    if (!elem_in(V, op, at(V, op, "a"), e, ok, set)) return;
    int c = op_token_id(op, "cmp");
    if (is_int(e) && c >= T_VCMP_OEQ && c <= T_VCMP_OGE) {
        char t[96];
        v_err(V, DIAG_V_TOKEN, aloc(op, "cmp"), "'%s': the ordered predicate \"%s\" compares floats; %s elements take "
              "eq, ne, lt, le, gt or ge (signedness comes from the element type)", v_opname(op),
              op_token(op, "cmp") && op_token(op, "cmp")->s ? op_token(op, "cmp")->s : "o..", tyn(e, t));
        return;
    }
    if (op->kind == OP_VMI_VCMP) {
        if (!same_vec(V, op, a, arg(V, op, "b"), at(V, op, "b"), false)) return;
    } else if (!scalar_is(V, op, "s", e, "scalar")) {
        return;
    }
    if (!mask_fits(V, op, seed, at(V, op, "seed"), a)) return;
    if (vm(r) && vm(seed) && r->type->lanes != seed->type->lanes)
        same_lanes(V, op, seed, r, rloc(op, 0));
}

/* vsel: both values and the result have one type; the selector fits them. */
static void select_op(VCtx *V, Op *op)
{
    Value *a = arg(V, op, "a"), *r = res(op, 0);
    if (!vv(a)) return;
    if (!same_vec(V, op, a, arg(V, op, "b"), at(V, op, "b"), false)) return;
    if (!same_vec(V, op, a, r, rloc(op, 0), true)) return;
    mask_fits(V, op, arg(V, op, "m"), at(V, op, "m"), r);
}

/* vselr: result[i] = source[index[i]]; one lane count (the spec), an integer index of the source's width. */
static void selr(VCtx *V, Op *op)
{
    char t[96], u[96], n[64];
    Value *a = arg(V, op, "a"), *idx = arg(V, op, "idx"), *r = res(op, 0);
    if (!vv(a) || !vv(idx) || !vv(r)) return;
    if (a->type->elem != r->type->elem) {
        v_err(V, DIAG_V_RESULT_TYPE, rloc(op, 0), "'%s': the result has type %s but the source has %s; the element "
              "types must be the same", v_opname(op), tyn(r->type, t), tyn(a->type, u));
        return;
    }
    if (!same_lanes(V, op, a, r, rloc(op, 0)) || !same_lanes(V, op, r, idx, at(V, op, "idx"))) return;
    if (!is_int(idx->type->elem)) {
        v_err(V, DIAG_V_ELEM_TYPE, at(V, op, "idx"), "'%s': the index %s has type %s; indices are integers",
              v_opname(op), nm(idx, n), tyn(idx->type, t));
        return;
    }
    if (ebits(idx->type->elem) != ebits(a->type->elem)) {
        v_err(V, DIAG_V_ELEM_TYPE, at(V, op, "idx"), "'%s': the index %s has %u-bit elements but the source has %u-bit "
              "ones; the widths must be the same", v_opname(op), nm(idx, n), ebits(idx->type->elem),
              ebits(a->type->elem));
        return;
    }
    /* the spec's shapes: N = 64, 128 or 256 for 8-bit, 64 or 128 for 16-bit, 64 for 32-bit elements */
    unsigned L = a->type->lanes, b = ebits(a->type->elem);
    if (!(L == 64 || (L == 128 && b <= 16) || (L == 256 && b == 8)))
        v_err(V, DIAG_V_VMI_LANES, at(V, op, "a"), "'%s' permutes %s of %u lanes; it supports %s", v_opname(op),
              tyn(a->type, t), L, b == 8 ? "64, 128 or 256 lanes of 8-bit elements"
                                  : b == 16 ? "64 or 128 lanes of 16-bit elements" : "64 lanes of 32-bit elements");
}

/* ------------------------------------------------------------------ index generation and broadcast */

/* vci's base: the element type, or an integer of its width whose signedness does not contradict it. */
static bool base_ok(const Type *e, const Type *s)
{
    if (e == s) return true;
    if (!is_int(e) || !is_int(s) || e->bits != s->bits) return false;
    if (e->sign == SIGN_S) return s->sign == SIGN_S || s->sign == SIGN_LESS;
    if (e->sign == SIGN_U) return s->sign == SIGN_U || s->sign == SIGN_LESS;
    return s->sign == SIGN_LESS;
}

static void vci(VCtx *V, Op *op)
{
    char t[96], u[96], n[64];
    Value *r = res(op, 0), *base = arg(V, op, "base");
    if (!vv(r)) return;
    const Type *e = r->type->elem;
    if (!(is_i8_32(e) || is_fh(e))) {
        v_err(V, DIAG_V_ELEM_TYPE, rloc(op, 0), "'%s' produces i8, i16, i32, f16 or f32 lanes, not %s", v_opname(op),
              tyn(e, t));
        return;
    }
    if (base && base->type && !base_ok(e, base->type)) {
        v_err(V, DIAG_V_OPERAND_TYPE, at(V, op, "base"), "'%s': the base %s has type %s; it must have the result's "
              "element type %s", v_opname(op), nm(base, n), tyn(base->type, t), tyn(e, u));
        return;
    }
    int64_t C = group_attr(V, op, "group", r->type->lanes, "the result");
    if (C > 1) {
        uint32_t S = r->type->lanes / (uint32_t)C, per = 2048 / ebits(e);
        if (S % per && per % S)
            v_err(V, DIAG_V_VMI_GROUP, aloc(op, "group"), "'%s': group = %" PRId64 " makes groups of %u lanes; a group "
                  "is a divisor or a multiple of the %u lanes of a register", v_opname(op), C, S, per);
    }
}

/* vbrc: a scalar of the element type or a 1-lane vector over every lane; with group = C, a C-lane vector
   whose lane g fills group g. group_broadcast: the compiler's earlier grouped spelling (num_groups). */
static void vbrc(VCtx *V, Op *op)
{
    char t[96], u[96], n[64];
    const char *vname = op->kind == OP_VMI_GROUP_BROADCAST ? "a" : "v";
    Value *v = arg(V, op, vname), *r = res(op, 0);
    if (!vv(r) || !v || !v->type) return;
    const Type *e = r->type->elem;
    const char *gname = op->kind == OP_VMI_GROUP_BROADCAST ? "num_groups" : "group";
    int64_t C = group_attr(V, op, gname, r->type->lanes, "the result");
    if (C == 0) return;
    if (C > 0) {
        if (!vv(v)) {
            v_err(V, DIAG_V_OPERAND_TYPE, at(V, op, vname), "'%s' with %s = %" PRId64 " broadcasts a vector of %" PRId64 " "
                  "lanes (one per group), not %s", v_opname(op), gname, C, C, tyn(v->type, t));
            return;
        }
        if ((int64_t)v->type->lanes != C) {
            v_err(V, DIAG_V_VMI_LANES, at(V, op, vname), "'%s': the source %s has %u lanes but %s = %" PRId64 "; a grouped "
                  "broadcast takes one lane per group", v_opname(op), nm(v, n), v->type->lanes, gname, C);
            return;
        }
    } else if (vv(v) && v->type->lanes != 1) {
        v_err(V, DIAG_V_VMI_LANES, at(V, op, vname), "'%s': the source %s has %u lanes; without 'group' the source is a "
              "scalar or a 1-lane vector (write {group = %u} to broadcast one lane per group)", v_opname(op), nm(v, n),
              v->type->lanes, v->type->lanes);
        return;
    } else if (!vv(v) && !(v->type->kind == TY_INT || v->type->kind == TY_FLOAT || v->type->kind == TY_INDEX)) {
        v_err(V, DIAG_V_OPERAND_TYPE, at(V, op, vname), "'%s' broadcasts a scalar or a VMI vector, not %s", v_opname(op),
              tyn(v->type, t));
        return;
    }
    const Type *se = vv(v) ? v->type->elem : v->type;
    if (se != e)
        v_err(V, DIAG_V_OPERAND_TYPE, at(V, op, vname), "'%s': the source %s has %s %s but the result has %s elements; "
              "they must be the same", v_opname(op), nm(v, n), vv(v) ? "element type" : "type", tyn(se, t), tyn(e, u));
}

/* ------------------------------------------------------------------ reductions */

/* vcadd / vcmax / vcmin and the earlier group_reduce_* spellings: C groups of L/C lanes each give one result
   lane (C = 1 without a group); floating add-reduction needs reassoc. */
static void reduce(VCtx *V, Op *op)
{
    char t[96], n[64];
    Value *a = arg(V, op, "a"), *r = res(op, 0);
    if (!vv(a) || !vv(r)) return;
    const Type *e = a->type->elem;
    bool legacy = op->kind >= OP_VMI_GROUP_REDUCE_ADDI && op->kind <= OP_VMI_GROUP_REDUCE_MINF;
    bool legacy_f = op->kind == OP_VMI_GROUP_REDUCE_ADDF || op->kind == OP_VMI_GROUP_REDUCE_MAXF ||
                    op->kind == OP_VMI_GROUP_REDUCE_MINF;
    bool ok = legacy ? (legacy_f ? is_fh(e) : is_i8_32(e)) : (is_i8_32(e) || is_fbh(e));
    if (!elem_in(V, op, at(V, op, "a"), e, ok,
                 legacy ? (legacy_f ? "f16 or f32" : "i8, i16 or i32") : "i8, i16, i32, f16, bf16 or f32"))
        return;
    if (op->kind == OP_VMI_GROUP_REDUCE_ADDF && !op_attr(op, "reassoc"))
        v_warn(V, DIAG_V_VMI_COMPILER, op->loc, "'%s' without 'reassoc': ptosim sums in the hardware's pairwise order "
               "anyway; the public compiler's verifier requires the attribute", v_opname(op));
    if (op->kind == OP_VMI_VCADD && is_fl(e)) {
        if (!op_attr(op, "reassoc")) {
            v_err(V, DIAG_V_ATTR, op->loc, "'%s' of %s elements needs the 'reassoc' attribute: the sum is formed in the "
                  "hardware's pairwise order, not left to right", v_opname(op), tyn(e, t));
            return;
        }
    }
    if (!mask_fits(V, op, arg(V, op, "m"), at(V, op, "m"), a)) return;
    const char *gname = legacy ? "num_groups" : "group";
    int64_t C = group_attr(V, op, gname, a->type->lanes, "the source");
    if (C == 0) return;
    if (C < 0) C = 1;
    if ((int64_t)r->type->lanes != C) {
        if (op_attr(op, gname))
            v_err(V, DIAG_V_VMI_LANES, rloc(op, 0), "'%s': the result %s has %u lanes; a reduction in %" PRId64 " groups "
                  "gives one lane per group", v_opname(op), nm(r, n), r->type->lanes, C);
        else
            v_err(V, DIAG_V_VMI_LANES, rloc(op, 0), "'%s': the result %s has %u lanes; a reduction without '%s' gives "
                  "one lane (write {%s = %u} to reduce in groups)", v_opname(op), nm(r, n), r->type->lanes, gname, gname,
                  r->type->lanes);
        return;
    }
    if (r->type->elem != e) {
        char u[96];
        v_err(V, DIAG_V_RESULT_TYPE, rloc(op, 0), "'%s': the result has %s elements but the source has %s; they must be "
              "the same", v_opname(op), tyn(r->type->elem, t), tyn(e, u));
        return;
    }
    if (r->type->lay.kind != VL_NONE && (r->type->lay.kind != VL_NUM_GROUPS || r->type->lay.factor != C))
        v_err(V, DIAG_V_VMI_LAYOUT, rloc(op, 0), "'%s': a layout-assigned result uses #pto.vmi.layout<num_groups = %"
              PRId64 ">", v_opname(op), C);
}

/* ------------------------------------------------------------------ conversions */

typedef enum { CV_FP_WIDEN, CV_FP_NARROW, CV_FP_TO_SI, CV_FP_TO_UI, CV_SI_TO_FP, CV_INT_WIDEN, CV_INT_NARROW } CvtDir;

/* The compiler's fp->int contract rows: returns 0 when the pair is unsupported, else 1 + (saturate required). */
static int fp_to_si_bits(const Type *s, unsigned b)
{
    if (is_fk(s, FK_F32) && (b == 32 || b == 16)) return 2;
    if (is_fk(s, FK_F16) && b == 32) return 1;               /* widening: no overflow, saturate forbidden */
    if (is_fk(s, FK_F16) && (b == 16 || b == 8)) return 2;
    if (is_fk(s, FK_BF16) && b == 32) return 2;
    return 0;
}
static int fp_to_si(const Type *s, const Type *d) { return is_fl(s) && is_signed(d) ? fp_to_si_bits(s, d->bits) : 0; }
static int fp_to_ui(const Type *s, const Type *d)
{
    if (!is_fl(s) || !is_unsig(d)) return 0;
    return is_fk(s, FK_F16) && d->bits == 8 ? 2 : 0;
}
/* fp->fp pairs outside the generic widen/narrow rule: 0 none; else flags 1 = contract exists, 2 = saturate
   required, 4 = rounding taken from "RAFZC" (the packed bf16x2 -> f4x2 narrow), 8 = no rounding (widen). */
static int fp_to_fp(const Type *s, const Type *d)
{
    if (!is_fl(s) || !is_fl(d)) return 0;
    if (is_bf16x2(s) && (is_fk(d, FK_F4E2M1X2) || is_fk(d, FK_F4E1M2X2))) return 1 | 4;
    if ((is_fk(s, FK_F4E2M1X2) || is_fk(s, FK_F4E1M2X2)) && is_bf16x2(d)) return 1 | 8;
    if (is_fk(s, FK_BF16) && is_fk(d, FK_F16)) return 1 | 2;
    return 0;
}

static const char *tokname(const Op *op, const char *name)
{
    const Attr *a = op_token(op, name);
    return a && a->s ? a->s : "?";
}

/* rounding / saturate / pmode of a conversion against its direction and pair. */
static void cvt_attrs(VCtx *V, Op *op, CvtDir dir, const Type *s, const Type *d)
{
    char t[96], u[96];
    int rnd = op_token_id(op, "rounding"), sat = op_token_id(op, "saturate");
    int ff = fp_to_fp(s, d);
    if (rnd >= 0) {
        if (dir != CV_FP_NARROW && dir != CV_FP_TO_SI && dir != CV_FP_TO_UI) {
            v_err(V, DIAG_V_ATTR, aloc(op, "rounding"), "'%s' %s -> %s takes no 'rounding': only floating-point "
                  "narrowing and float-to-integer conversions round", v_opname(op), tyn(s, t), tyn(d, u));
            return;
        }
        if (dir == CV_FP_NARROW) {
            const char *allowed = ff & 4 ? "RAFZC" : "RAHZ";
            const char *r = tokname(op, "rounding");
            if (!strchr(allowed, r[0]) || r[1]) {
                v_err(V, DIAG_V_ATTR, aloc(op, "rounding"), "'%s' %s -> %s: rounding \"%s\" is not one of %s", v_opname(op),
                      tyn(s, t), tyn(d, u), r, ff & 4 ? "R, A, F, Z, C (this packed pair)"
                                                     : "R (nearest even), A (away from zero), H (half up), Z (toward zero)");
                return;
            }
        } else if (rnd == T_VRND_H || rnd == T_VRND_O) {
            v_err(V, DIAG_V_ATTR, aloc(op, "rounding"), "'%s' %s -> %s: rounding \"%s\" is not one of R, A, F, C, Z "
                  "(float-to-integer)", v_opname(op), tyn(s, t), tyn(d, u), tokname(op, "rounding"));
            return;
        }
    }
    bool need, forbid;
    const char *why;
    switch (dir) {
    case CV_FP_TO_SI:   /* (pto.vmi.fptosi may name a signless destination: read as signed) */
        need = is_int(d) && fp_to_si_bits(s, d->bits) == 2;
        forbid = !need;
        why = "no overflow is possible";
        break;
    case CV_FP_TO_UI: need = fp_to_ui(s, d) == 2; forbid = !need; why = "no overflow is possible"; break;
    case CV_INT_NARROW: need = true; forbid = false; why = ""; break;
    case CV_FP_NARROW:
        need = !(ff & 1) || (ff & 2);
        forbid = !need;
        why = "this packed narrowing does not saturate";
        break;
    default: need = false; forbid = true; why = "only narrowing conversions saturate"; break;
    }
    if (need && sat < 0) {
        v_err(V, DIAG_V_ATTR, op->loc, "'%s' %s -> %s needs a 'saturate' attribute: write saturate = \"SAT\" (clamp) or "
              "\"NOSAT\" (wrap)", v_opname(op), tyn(s, t), tyn(d, u));
        return;
    }
    if (forbid && sat >= 0) {
        v_err(V, DIAG_V_ATTR, aloc(op, "saturate"), "'%s' %s -> %s takes no 'saturate': %s", v_opname(op), tyn(s, t),
              tyn(d, u), why);
        return;
    }
    if (dir == CV_INT_NARROW && sat == T_SAT_SAT && is_signed(s) && is_signed(d) && s->bits == 32 && d->bits == 8)
        v_warn(V, DIAG_V_VMI_COMPILER, aloc(op, "saturate"), "'%s' si32 -> si8 with saturate = \"SAT\" clamps to "
               "[-128, 127] here; the public compiler's verifier refuses it (no native form: only \"NOSAT\")",
               v_opname(op));
}

/* The unified vcvt: the direction follows from the element types; the pair must be in the contract. */
static void vcvt(VCtx *V, Op *op)
{
    char t[96], u[96];
    Value *a = arg(V, op, "a"), *r = res(op, 0);
    if (!vv(a) || !vv(r)) return;
    if (!same_lanes(V, op, a, r, rloc(op, 0))) return;
    const Type *s = a->type->elem, *d = r->type->elem;
    unsigned sb = ebits(s), db = ebits(d);
    int ff = is_fl(s) && is_fl(d) ? fp_to_fp(s, d) : 0;
    CvtDir dir;
    const char *bad = NULL;
    if ((is_bf16x2(s) || is_bf16x2(d)) && !ff)
        bad = "bf16x2 converts only to and from the packed f4 kinds";
    else if (is_fl(s) && is_fl(d) && (is_packed_carrier(s) || is_packed_carrier(d)) && !ff)
        bad = "the packed f4 kinds convert only to and from !pto.bf16x2";
    if (!bad) {
        if (is_fl(s) && is_fl(d)) {
            if (db > sb) dir = CV_FP_WIDEN;
            else if (db < sb) dir = CV_FP_NARROW;
            else if (ff) dir = CV_FP_NARROW;
            else bad = "a same-width float conversion exists only for bf16 -> f16";
        } else if (is_packed_carrier(s) || is_packed_carrier(d)) {
            bad = "the packed f4 kinds convert only to and from !pto.bf16x2 (the spec lists no integer pair)";
        } else if (is_fl(s) && is_int(d)) {
            dir = is_unsig(d) ? CV_FP_TO_UI : CV_FP_TO_SI;
            if (dir == CV_FP_TO_SI && !fp_to_si(s, d))
                bad = "float -> signed integer converts f32 -> si32/si16, f16 -> si32/si16/si8 and bf16 -> si32";
            if (dir == CV_FP_TO_UI && !fp_to_ui(s, d))
                bad = "float -> unsigned integer converts f16 -> ui8 only (signless integers count as unsigned)";
        } else if (is_int(s) && is_fl(d)) {
            dir = CV_SI_TO_FP;
            if (!is_signed(s))
                v_warn(V, DIAG_V_VMI_COMPILER, rloc(op, 0), "'%s' %s -> %s converts the %s source as unsigned (a signless "
                       "VMI integer is unsigned); the public compiler's verifier converts only explicitly signed (si) "
                       "integers to floats", v_opname(op), tyn(a->type, t), tyn(r->type, u),
                       s->sign == SIGN_U ? "unsigned" : "signless");
        } else if (is_int(s) && is_int(d)) {
            if (db > sb) dir = CV_INT_WIDEN;
            else if (db < sb) dir = CV_INT_NARROW;
            else bad = "an integer -> integer conversion changes the width";
        } else {
            bad = "not a conversion between integer and float element types";
        }
    }
    if (bad) {
        v_err(V, DIAG_V_ELEM_TYPE, rloc(op, 0), "'%s' %s -> %s is not a supported conversion: %s", v_opname(op),
              tyn(a->type, t), tyn(r->type, u), bad);
        return;
    }
    Value *m = arg(V, op, "m");
    if (vm(m) && !same_lanes(V, op, a, m, at(V, op, "m"))) return;
    cvt_attrs(V, op, dir, s, d);
}

/* The compiler's earlier one-direction spellings, each with its own verifier. */
static void cvt_legacy(VCtx *V, Op *op)
{
    char t[96], u[96];
    Value *a = arg(V, op, "a"), *r = res(op, 0);
    if (!vv(a) || !vv(r)) return;
    if (!same_lanes(V, op, a, r, rloc(op, 0))) return;
    const Type *s = a->type->elem, *d = r->type->elem;
    unsigned sb = ebits(s), db = ebits(d);
    const char *bad = NULL;
    CvtDir dir = CV_FP_WIDEN;
    switch (op->kind) {
    case OP_VMI_EXTF:
        dir = CV_FP_WIDEN;
        if (!is_fl(s) || !is_fl(d)) bad = "extf converts floats to floats";
        else if ((is_bf16x2(s) || is_bf16x2(d)) && !fp_to_fp(s, d)) bad = "bf16x2 converts only from the packed f4 kinds";
        else if (sb >= db) bad = "extf widens: the result's elements are wider";
        break;
    case OP_VMI_TRUNCF:
        dir = CV_FP_NARROW;
        if (!is_fl(s) || !is_fl(d)) bad = "truncf converts floats to floats";
        else if ((is_packed_carrier(s) || is_packed_carrier(d)) && !fp_to_fp(s, d))
            bad = "the packed f4 kinds convert only to and from !pto.bf16x2";
        else if (sb < db) bad = "truncf narrows: the result's elements are not wider";
        else if (sb == db && !fp_to_fp(s, d)) bad = "a same-width float conversion exists only for bf16 -> f16";
        break;
    case OP_VMI_FPTOSI: {
        dir = CV_FP_TO_SI;
        /* the op name says signed: a signless destination converts as signed (the compiler wants si) */
        const Type *ds = is_int(d) && d->sign == SIGN_LESS ? NULL : d;
        if (!is_fl(s) || !is_int(d) || d->sign == SIGN_U ||
            !(is_fk(s, FK_F32) ? (d->bits == 32 || d->bits == 16)
              : is_fk(s, FK_F16) ? (d->bits <= 32) : is_fk(s, FK_BF16) && d->bits == 32))
            bad = "fptosi converts f32 -> si32/si16, f16 -> si32/si16/si8 and bf16 -> si32";
        else if (!ds)
            v_warn(V, DIAG_V_VMI_COMPILER, rloc(op, 0), "'%s' to a signless destination converts as signed (the op "
                   "name says so); the public compiler's verifier wants an explicitly signed (si) result", v_opname(op));
        break;
    }
    case OP_VMI_FPTOUI:
        dir = CV_FP_TO_UI;
        if (!is_fl(s) || !is_unsig(d) || !fp_to_ui(s, d)) bad = "fptoui converts f16 -> ui8 (or i8) only";
        break;
    case OP_VMI_SITOFP:
        dir = CV_SI_TO_FP;
        if (!is_int(s) || s->sign == SIGN_U || !is_fl(d) || is_packed_carrier(d))
            bad = "sitofp converts signed integers to floats";
        else if (!is_signed(s) || sb != 32 || !is_fk(d, FK_F32))
            v_warn(V, DIAG_V_VMI_COMPILER, rloc(op, 0), "'%s' %s -> %s converts as signed (the op name says so); the "
                   "public compiler's verifier takes si32 -> f32 only", v_opname(op), tyn(a->type, t), tyn(r->type, u));
        break;
    case OP_VMI_EXTSI:
        dir = CV_INT_WIDEN;
        if (!is_int(s) || !is_int(d) || s->sign == SIGN_U || d->sign == SIGN_U)
            bad = "extsi sign-extends signed or signless integers";
        else if (sb >= db) bad = "extsi widens: the result's elements are wider";
        else if (!is_signed(s) || !is_signed(d))
            v_warn(V, DIAG_V_VMI_COMPILER, rloc(op, 0), "'%s' %s -> %s sign-extends (the op name says so); the public "
                   "compiler's verifier wants explicitly signed (si) types", v_opname(op), tyn(a->type, t),
                   tyn(r->type, u));
        break;
    case OP_VMI_EXTUI:
        dir = CV_INT_WIDEN;
        if (!is_unsig(s) || !is_unsig(d)) bad = "extui converts unsigned or signless integers";
        else if (sb >= db) bad = "extui widens: the result's elements are wider";
        break;
    case OP_VMI_TRUNCI:
        dir = CV_INT_NARROW;
        if (!is_int(s) || !is_int(d)) bad = "trunci converts integers";
        else if (sb <= db) bad = "trunci narrows: the result's elements are narrower";
        break;
    default:
        return;
    }
    if (bad) {
        v_err(V, DIAG_V_ELEM_TYPE, rloc(op, 0), "'%s' %s -> %s: %s", v_opname(op), tyn(a->type, t), tyn(r->type, u), bad);
        return;
    }
    if (op->kind == OP_VMI_SITOFP || op->kind == OP_VMI_EXTSI || op->kind == OP_VMI_EXTUI || op->kind == OP_VMI_EXTF) {
        /* the compiler's earlier widening spellings check no attributes */
        return;
    }
    if (op->kind == OP_VMI_TRUNCI) {   /* saturate required, no si32 -> si8 special case in this spelling */
        if (op_token_id(op, "saturate") < 0)
            v_err(V, DIAG_V_ATTR, op->loc, "'%s' needs a 'saturate' attribute: write saturate = \"SAT\" or \"NOSAT\"",
                  v_opname(op));
        return;
    }
    cvt_attrs(V, op, dir, s, d);
}

/* vinterpret_cast / bitcast: the same bits, so L * bits is conserved; layouts both absent or equal. */
static void reinterpret(VCtx *V, Op *op)
{
    char t[96], u[96];
    Value *a = arg(V, op, "a"), *r = res(op, 0);
    if (!vv(a) || !vv(r)) return;
    uint64_t sb = (uint64_t)a->type->lanes * ebits(a->type->elem), db = (uint64_t)r->type->lanes * ebits(r->type->elem);
    if (sb != db) {
        v_err(V, DIAG_V_RESULT_TYPE, rloc(op, 0), "'%s' %s -> %s changes the number of bits (%" PRIu64 " -> %" PRIu64
              "); a reinterpretation keeps L x bits (the lane count may change)", v_opname(op), tyn(a->type, t),
              tyn(r->type, u), sb, db);
        return;
    }
    layout_match(V, op, a, r, rloc(op, 0));
}

/* ------------------------------------------------------------------ SFU */

static void expdif(VCtx *V, Op *op)
{
    char t[96], n[64];
    Value *a = arg(V, op, "a"), *mx = arg(V, op, "b"), *r = res(op, 0);
    if (!vv(a) || !vv(mx) || !vv(r)) return;
    const Type *e = a->type->elem;
    if (!elem_in(V, op, at(V, op, "a"), e, is_fh(e), "f16 or f32")) return;
    if (mx->type->elem != e) {
        v_err(V, DIAG_V_OPERAND_TYPE, at(V, op, "b"), "'%s': the max %s has type %s; it has x's element type",
              v_opname(op), nm(mx, n), tyn(mx->type, t));
        return;
    }
    if (!is_fk(r->type->elem, FK_F32)) {
        v_err(V, DIAG_V_RESULT_TYPE, rloc(op, 0), "'%s' produces f32 lanes, not %s", v_opname(op), tyn(r->type, t));
        return;
    }
    if (!same_lanes(V, op, a, mx, at(V, op, "b")) || !same_lanes(V, op, a, r, rloc(op, 0))) return;
    mask_fits(V, op, arg(V, op, "m"), at(V, op, "m"), a);
}

/* vaxpy / vlrelu / vprelu / vmula: one vector type throughout; a scalar of the element type. */
static void fused(VCtx *V, Op *op)
{
    const char *first = op->kind == OP_VMI_VMULA ? "acc" : "a";
    Value *a = arg(V, op, first), *r = res(op, 0);
    if (!vv(a)) return;
    const Type *e = a->type->elem;
    if (op->kind == OP_VMI_VMULA) {
        if (!elem_in(V, op, at(V, op, first), e, is_i8_32(e) || is_fbh(e), S_ADD)) return;
    } else if (!elem_in(V, op, at(V, op, first), e, is_fbh(e), "f16, bf16 or f32")) {
        return;
    }
    static const char *const vecs[] = {"a", "b", "alpha", "acc"};
    for (unsigned i = 0; i < 4; i++) {
        Value *x = arg(V, op, vecs[i]);
        if (x == a || !vv(x)) continue;
        if (!same_vec(V, op, a, x, at(V, op, vecs[i]), false)) return;
    }
    if (!same_vec(V, op, a, r, rloc(op, 0), true)) return;
    if (op->kind == OP_VMI_VAXPY && !scalar_is(V, op, "alpha", e, "scale")) return;
    if (op->kind == OP_VMI_VLRELU && !scalar_is(V, op, "s", e, "slope")) return;
    mask_fits(V, op, arg(V, op, "m"), at(V, op, "m"), a);
}

/* vmull: i32 or ui32 (signless or unsigned) everywhere, 64, 128 or 256 lanes, pmode zero. */
static void mull(VCtx *V, Op *op)
{
    char t[96];
    Value *a = arg(V, op, "a"), *b = arg(V, op, "b");
    if (!vv(a)) return;
    const Type *e = a->type->elem;
    if (!elem_in(V, op, at(V, op, "a"), e, is_unsig(e) && e->bits == 32, "i32 or ui32 (signless or unsigned)")) return;
    if (!same_vec(V, op, a, b, at(V, op, "b"), false)) return;
    for (unsigned i = 0; i < op->nresults && i < 2; i++)
        if (!same_vec(V, op, a, op->results[i], rloc(op, i), true)) return;
    unsigned L = a->type->lanes;
    if (L != 64 && L != 128 && L != 256) {
        v_err(V, DIAG_V_VMI_LANES, at(V, op, "a"), "'%s' multiplies 64, 128 or 256 lanes, not %u (%s)", v_opname(op), L,
              tyn(a->type, t));
        return;
    }
    if (!mask_fits(V, op, arg(V, op, "m"), at(V, op, "m"), a)) return;
    if (op_token_id(op, "pmode") == T_PMODE_MERGE)
        v_err(V, DIAG_V_ATTR, aloc(op, "pmode"), "'%s' has no merge form: pmode is \"zero\" when written", v_opname(op));
}

/* vchist / vdhist: bins of ui16/i16 (128 or 256), source of ui8/i8, the mask over the source. */
static void hist(VCtx *V, Op *op)
{
    char t[96], n[64];
    Value *acc = arg(V, op, "acc"), *src = arg(V, op, "a"), *r = res(op, 0);
    if (!vv(acc) || !vv(src) || !vv(r)) return;
    const Type *ae = acc->type->elem;
    unsigned bins = acc->type->lanes;
    if (!(is_unsig(ae) && ae->bits == 16) || (bins != 128 && bins != 256)) {
        v_err(V, DIAG_V_OPERAND_TYPE, at(V, op, "acc"), "'%s': the accumulator %s has type %s; it is "
              "!pto.vmi.vreg<128x{ui16|i16}> (the first 128 bins) or <256x{ui16|i16}>", v_opname(op), nm(acc, n),
              tyn(acc->type, t));
        return;
    }
    if (r->type->lanes != bins) {
        same_lanes(V, op, acc, r, rloc(op, 0));
        return;
    }
    if (!(is_unsig(r->type->elem) && r->type->elem->bits == 16)) {
        v_err(V, DIAG_V_RESULT_TYPE, rloc(op, 0), "'%s': the result has type %s; bin counts are ui16 or i16 (read as "
              "unsigned)", v_opname(op), tyn(r->type, t));
        return;
    }
    if (!(is_unsig(src->type->elem) && src->type->elem->bits == 8)) {
        v_err(V, DIAG_V_ELEM_TYPE, at(V, op, "a"), "'%s': the source %s has type %s; bin indices are ui8 or i8 (read as "
              "unsigned; si8 is rejected)", v_opname(op), nm(src, n), tyn(src->type, t));
        return;
    }
    Value *m = arg(V, op, "m");
    if (vm(m) && !same_lanes(V, op, src, m, at(V, op, "m"))) return;
    if (!same_layout(acc->type, r->type)) layout_match(V, op, acc, r, rloc(op, 0));
}

/* ------------------------------------------------------------------ memory */

/* The element type of a pointer operand is the data's (the compiler's verifyMemoryElementMatches). */
static bool mem_elem(VCtx *V, Op *op, const char *pg, const Value *data, const char *role)
{
    char t[96], u[96], n[64];
    Value *p = arg(V, op, pg);
    if (!p || !ty_is_ptr(p->type) || !vv(data) || p->type->elem == data->type->elem) return true;
    /* elements narrower in memory: loads widen (zero-extend) and stores keep each lane's low bytes, like the
       micro unpacking loads and packing stores (ptosim runs them; the compiler's verifier refuses them) */
    if ((op->kind == OP_VMI_VLOAD || op->kind == OP_VMI_LOAD || op->kind == OP_VMI_VSTORE || op->kind == OP_VMI_STORE) &&
        ebits(p->type->elem) < ebits(data->type->elem) && !is_bf16x2(data->type->elem)) {
        v_warn(V, DIAG_V_VMI_COMPILER, at(V, op, pg), "'%s': the %s %s has type %s and the data is %s: ptosim %s; the "
               "public compiler's verifier requires the vector's element type in memory", v_opname(op), role, nm(p, n),
               tyn(p->type, t), tyn(data->type, u),
               op->kind == OP_VMI_VLOAD || op->kind == OP_VMI_LOAD ? "zero-extends each narrower element into its lane"
                                                                    : "stores the low bytes of each lane");
        return true;
    }
    v_err(V, DIAG_V_ELEM_TYPE, at(V, op, pg), "'%s': the %s %s has type %s but the data is %s; the memory element type "
          "is the vector's element type", v_opname(op), role, nm(p, n), tyn(p->type, t), tyn(data->type, u));
    return false;
}

/* pmode of a store: only "zero" (inactive lanes are not written; there is no merge form). */
static void store_pmode(VCtx *V, Op *op)
{
    if (op_token_id(op, "pmode") == T_PMODE_MERGE)
        v_err(V, DIAG_V_ATTR, aloc(op, "pmode"), "'%s': pmode \"merge\" is not supported for stores (a store is governed by "
              "its mask: inactive lanes are not written); omit pmode", v_opname(op));
}

static void vload(VCtx *V, Op *op)
{
    char t[96], u[96];
    Value *r = res(op, 0), *src = arg(V, op, "src");
    if (!vv(r)) return;
    int dist = op_token_id(op, "dist_mode");
    switch (op->kind) {
    case OP_VMI_VLOAD_GROUP: {
        if (dist >= 0 && dist != T_VDIST_BRC) {
            v_err(V, DIAG_V_CLAUSE, aloc(op, "dist_mode"), "'%s': 'group' and dist_mode = \"%s\" are mutually exclusive "
                  "(a group load takes only \"brc\", one element per group)", v_opname(op), tokname(op, "dist_mode"));
            return;
        }
        if (group_attr(V, op, "group", r->type->lanes, "the result") <= 0) return;
        break;
    }
    case OP_VMI_VLOAD_BLK:
        if (dist >= 0) {
            v_err(V, DIAG_V_CLAUSE, aloc(op, "dist_mode"), "'%s': block-stride mode (the two i16 stride operands) and "
                  "dist_mode are mutually exclusive", v_opname(op));
            return;
        }
        break;
    case OP_VMI_VLOAD: {
        Value *hi = res(op, 1);
        if (dist == T_VDIST_DINTLV && !hi) {
            v_err(V, DIAG_V_RESULT_TYPE, op->loc, "'%s' with dist_mode = \"dintlv\" has two results (the even and the "
                  "odd elements)", v_opname(op));
            return;
        }
        if (dist != T_VDIST_DINTLV && hi) {
            v_err(V, DIAG_V_RESULT_TYPE, rloc(op, 1), "'%s' has one result unless dist_mode = \"dintlv\"", v_opname(op));
            return;
        }
        if (hi && !same_vec(V, op, r, hi, rloc(op, 1), true)) return;
        if (dist == T_VDIST_UNPACK) {
            if (src && ty_is_ptr(src->type) && ebits(src->type->elem) >= ebits(r->type->elem))
                v_err(V, DIAG_V_ELEM_TYPE, at(V, op, "src"), "'%s' with dist_mode = \"unpack\" widens: %s has elements no "
                      "narrower than the result's (%s)", v_opname(op), tyn(src->type, t), tyn(r->type, u));
            return;
        }
        break;
    }
    default:
        break;
    }
    mem_elem(V, op, "src", r, "source");
}

static void vstore(VCtx *V, Op *op)
{
    Value *v = arg(V, op, "v");
    if (!vv(v)) return;
    int dist = op_token_id(op, "dist_mode");
    store_pmode(V, op);
    if (dist == T_VDIST_UNPACK || dist == T_VDIST_BRC) {
        v_err(V, DIAG_V_TOKEN, aloc(op, "dist_mode"), "'%s': dist_mode = \"%s\" is a load mode; a store takes "
              "\"continuous\" or \"dintlv\"", v_opname(op), tokname(op, "dist_mode"));
        return;
    }
    switch (op->kind) {
    case OP_VMI_VSTORE_GROUP: {
        if (dist >= 0) {
            v_err(V, DIAG_V_CLAUSE, aloc(op, "dist_mode"), "'%s': 'group' and dist_mode are mutually exclusive",
                  v_opname(op));
            return;
        }
        Value *m = arg(V, op, "m");
        if (m) {
            v_err(V, DIAG_V_CLAUSE, at(V, op, "m"), "'%s': a group store (row-strided) takes no mask; group stores are "
                  "unpredicated", v_opname(op));
            return;
        }
        if (group_attr(V, op, "group", v->type->lanes, "the value") <= 0) return;
        /* the packed byte store: 32-bit integer lanes written as bytes */
        Value *p = arg(V, op, "dst");
        if (p && ty_is_ptr(p->type) && is_int(p->type->elem) && p->type->elem->bits == 8 && is_int(v->type->elem) &&
            v->type->elem->bits == 32)
            return;
        break;
    }
    case OP_VMI_VSTORE_BLK: case OP_VMI_VSSTB:
        if (dist >= 0) {
            v_err(V, DIAG_V_CLAUSE, aloc(op, "dist_mode"), "'%s': block-stride mode and dist_mode are mutually exclusive",
                  v_opname(op));
            return;
        }
        break;
    case OP_VMI_VSTORE: {
        Value *hi = arg(V, op, "hi");
        if (dist == T_VDIST_DINTLV && !hi) {
            v_err(V, DIAG_V_OPERAND_COUNT, op->loc, "'%s' with dist_mode = \"dintlv\" stores two values (interleaved)",
                  v_opname(op));
            return;
        }
        if (dist != T_VDIST_DINTLV && hi) {
            v_err(V, DIAG_V_OPERAND_COUNT, at(V, op, "hi"), "'%s' stores one value unless dist_mode = \"dintlv\"",
                  v_opname(op));
            return;
        }
        if (hi && !same_vec(V, op, v, hi, at(V, op, "hi"), false)) return;
        break;
    }
    default:
        break;
    }
    if (!mem_elem(V, op, "dst", v, "destination")) return;
    opt_mask(V, op, "m", v);
}

/* vgather / vgatherb / vscatter: integer offsets of 16 or 32 bits (unsigned or signless). */
static bool offsets_ok(VCtx *V, Op *op, const Value *idx)
{
    char t[96], n[64];
    if (!vv(idx)) return false;
    const Type *e = idx->type->elem;
    if (is_unsig(e) && (e->bits == 16 || e->bits == 32)) return true;
    v_err(V, DIAG_V_ELEM_TYPE, at(V, op, "idx"), "'%s': the offsets %s have type %s; offsets are 16- or 32-bit integers, "
          "unsigned or signless", v_opname(op), nm(idx, n), tyn(idx->type, t));
    return false;
}

static void gather(VCtx *V, Op *op)
{
    char t[96];
    Value *idx = arg(V, op, "idx"), *r = res(op, 0);
    if (!vv(r) || !offsets_ok(V, op, idx)) return;
    if (!mem_elem(V, op, "src", r, "source")) return;
    if (op->kind == OP_VMI_GATHER && !same_vec(V, op, r, arg(V, op, "pass"), at(V, op, "pass"), false)) return;
    if (op->kind == OP_VMI_VGATHER || op->kind == OP_VMI_GATHER) {
        if (!same_lanes(V, op, r, idx, at(V, op, "idx"))) return;
        if (!layout_match(V, op, r, idx, at(V, op, "idx"))) return;
        const Type *e = r->type->elem;
        if (idx->type->elem->bits == 16 && !(is_int(e) && e->sign == SIGN_U && e->bits == 16)) {
            v_err(V, DIAG_V_RESULT_TYPE, rloc(op, 0), "'%s' with 16-bit offsets gathers ui16 elements, not %s",
                  v_opname(op), tyn(e, t));
            return;
        }
    }
    mask_fits(V, op, arg(V, op, "m"), at(V, op, "m"), r);
}

static void scatter(VCtx *V, Op *op)
{
    Value *v = arg(V, op, "v"), *idx = arg(V, op, "idx");
    if (!vv(v) || !offsets_ok(V, op, idx)) return;
    if (!mem_elem(V, op, "dst", v, "destination")) return;
    if (!same_lanes(V, op, v, idx, at(V, op, "idx")) || !layout_match(V, op, v, idx, at(V, op, "idx"))) return;
    mask_fits(V, op, arg(V, op, "m"), at(V, op, "m"), v);
}

/* ------------------------------------------------------------------ masks and rearrangement */

/* A concrete granularity on a generated mask needs a layout (the compiler's rule for pset, pge, plt). */
static bool pred_result(VCtx *V, Op *op, const Value *r)
{
    char t[96];
    if (!vm(r) || !r->type->gran || r->type->lay.kind != VL_NONE) return true;
    v_err(V, DIAG_V_RESULT_TYPE, rloc(op, 0), "'%s' produces %s; without a layout its result is a pred mask "
          "(!pto.vmi.mask<%uxpred>): the granularity is assigned with the layout", v_opname(op), tyn(r->type, t),
          r->type->lanes);
    return false;
}

static void masks(VCtx *V, Op *op)
{
    Value *r = res(op, 0);
    if (!vm(r)) return;
    unsigned L = r->type->lanes;
    switch (op->kind) {
    case OP_VMI_CREATE_GROUP_MASK: {
        int64_t ng = group_attr(V, op, "num_groups", 0, NULL);
        int64_t gs = group_attr(V, op, "group_size", 0, NULL);
        if (ng == 0 || gs == 0) return;
        if (ng < 0 || gs < 0) {
            v_err(V, DIAG_V_ATTR, op->loc, "'%s' needs both num_groups and group_size", v_opname(op));
            return;
        }
        if (ng * gs != (int64_t)L)
            v_err(V, DIAG_V_VMI_GROUP, aloc(op, "group_size"), "'%s': num_groups x group_size = %" PRId64 " x %" PRId64
                  " must be the %u lanes of the result", v_opname(op), ng, gs, L);
        return;
    }
    case OP_VMI_PSET: {
        if (op_token_id(op, "pattern") != T_PAT_ALL)
            v_warn(V, DIAG_V_VMI_COMPILER, aloc(op, "pattern"), "'%s' \"%s\" is simulated with the micro pset's pattern; "
                   "the public compiler's verifier takes \"PAT_ALL\" only (use pge for a prefix)", v_opname(op),
                   tokname(op, "pattern"));
        if (group_attr(V, op, "group", L, "the result") == 0) return;
        pred_result(V, op, r);
        return;
    }
    case OP_VMI_PGE: {
        const char *p = tokname(op, "pattern");
        long n = strncmp(p, "PAT_VL", 6) == 0 ? strtol(p + 6, NULL, 10) : 0;
        if (strncmp(p, "PAT_VL", 6) != 0)
            v_warn(V, DIAG_V_VMI_COMPILER, aloc(op, "pattern"), "'%s' \"%s\" is simulated with the micro pge's pattern; "
                   "the public compiler's verifier takes \"PAT_VL<n>\" only", v_opname(op), p);
        if (n > (long)L) {
            v_err(V, DIAG_V_TOKEN, aloc(op, "pattern"), "'%s': \"%s\" activates %ld lanes, more than the %u of the "
                  "result", v_opname(op), p, n, L);
            return;
        }
        int64_t C = group_attr(V, op, "group", L, "the result");
        if (C == 0) return;
        if (C > 0 && n > (long)(L / (unsigned)C)) {
            v_err(V, DIAG_V_TOKEN, aloc(op, "pattern"), "'%s': \"%s\" activates %ld lanes per group, more than the %u "
                  "lanes of a group", v_opname(op), p, n, L / (unsigned)C);
            return;
        }
        pred_result(V, op, r);
        return;
    }
    case OP_VMI_PLT:
        pred_result(V, op, r);
        return;
    case OP_VMI_CONSTANT_MASK: {
        const Attr *a = op_attr(op, "value");
        const char *s = a ? a->s : NULL;
        if (!s || strncmp(s, "dense<", 6) != 0) {
            v_err(V, DIAG_V_ATTR, a ? aloc(op, "value") : op->loc, "'%s' needs value = dense<...> : tensor<%uxi1>",
                  v_opname(op), L);
            return;
        }
        /* count the elements of dense<[...]> (a splat dense<v> fills every lane) and read the element type */
        unsigned n = 0;
        int splat = s[6] != '[', bad = 0;
        const char *p = s + 6;
        for (; *p && *p != '>'; p++) {
            if (!strncmp(p, "true", 4) || !strncmp(p, "false", 5)) {
                n++;
                p += p[0] == 't' ? 3 : 4;
            } else if ((*p >= '0' && *p <= '9') || *p == '-') {
                const char *q = p;
                while ((*q >= '0' && *q <= '9') || *q == '-' || *q == '.') q++;
                if (!(q - p == 1 && (*p == '0' || *p == '1'))) bad = 1;
                n++;
                p = q - 1;
            }
        }
        const char *ty = strstr(p, "tensor<");
        if (ty && !strstr(ty, "xi1>")) bad = 1;
        if (bad) {
            v_err(V, DIAG_V_ATTR, aloc(op, "value"), "'%s': the constant's elements are booleans (i1: true/false)",
                  v_opname(op));
            return;
        }
        if (ty) {   /* the tensor type fixes the count, a splat's too */
            n = (unsigned)strtoul(ty + 7, NULL, 10);
            splat = 0;
        }
        if (!(splat && n == 1) && n != L)
            v_err(V, DIAG_V_ATTR, aloc(op, "value"), "'%s': the constant has %u element(s) but the result has %u lanes",
                  v_opname(op), n, L);
        return;
    }
    default:
        return;
    }
}

/* vintlv / vdintlv: two sources and two results of one type; the mask fits the sources. */
static void interleave(VCtx *V, Op *op)
{
    Value *a = arg(V, op, "a");
    if (!vv(a)) return;
    if (!same_vec(V, op, a, arg(V, op, "b"), at(V, op, "b"), false)) return;
    for (unsigned i = 0; i < op->nresults && i < 2; i++)
        if (!same_vec(V, op, a, op->results[i], rloc(op, i), true)) return;
    mask_fits(V, op, arg(V, op, "m"), at(V, op, "m"), a);
}

/* ------------------------------------------------------------------ driver */

/* Operands or results whose types the signature pass or check_type already rejected. */
static bool unfit(const VCtx *V, const Op *op)
{
    for (uint32_t i = 0; i < op->noperands; i++)
        if (op->operands[i] && bad_type(V, op->operands[i]->type)) return true;
    for (uint32_t i = 0; i < op->nresults; i++)
        if (bad_type(V, op->results[i]->type)) return true;
    return false;
}

/* True when every slot of a VMI class holds a value of that class (else the signature pass reported). */
static bool classes_ok(VCtx *V, const Op *op)
{
    const OpSig *s = ctx_sig(V->ctx, op->kind);
    if (!s || !op->segs) return false;
    for (unsigned j = 0; j < s->npos; j++) {
        const SigSlot *sl = &s->pos[j];
        if (sl->kind != SL_VALUE || (sl->tc != TC_VVREG && sl->tc != TC_VMASK && sl->tc != TC_VVAL)) continue;
        unsigned n = op_group_len(op, (unsigned)sl->group), f = op_group_start(op, (unsigned)sl->group);
        for (unsigned i = 0; i < n; i++) {
            const Type *t = op->operands[f + i] ? op->operands[f + i]->type : NULL;
            if (!t) return false;
            if (sl->tc == TC_VVREG && t->kind != TY_VMI_VREG) return false;
            if (sl->tc == TC_VMASK && t->kind != TY_VMI_MASK) return false;
            if (sl->tc == TC_VVAL && !ty_is_vmi(t)) return false;
        }
    }
    for (uint32_t i = 0; i < op->nresults && s->nres; i++) {
        const SigSlot *sl = &s->res[i < s->nres ? i : (uint32_t)s->nres - 1u];
        const Type *t = op->results[i]->type;
        if (sl->tc == TC_VVREG && (!t || t->kind != TY_VMI_VREG)) return false;
        if (sl->tc == TC_VMASK && (!t || t->kind != TY_VMI_MASK)) return false;
        if (sl->tc == TC_VVAL && !ty_is_vmi(t)) return false;
    }
    return true;
}

/* cmpf / cmpi: f16, bf16 or f32 / i8, i16 or i32 (PTOAS VMICmpFOp / VMICmpIOp::verify), one type for both
   sides, a mask of their lanes (every lane compared) */
static void compare_named(VCtx *V, Op *op)
{
    Value *a = arg(V, op, "a"), *r = res(op, 0);
    if (!vv(a)) return;
    const Type *e = a->type->elem;
    if (!class_ok(V, op, e)) return;
    if (op->kind == OP_VMI_CMPF ? !elem_in(V, op, at(V, op, "a"), e, is_fbh(e), "f16, bf16 or f32")
                                : !elem_in(V, op, at(V, op, "a"), e, is_i8_32(e), "i8, i16 or i32"))
        return;
    if (!same_vec(V, op, a, arg(V, op, "b"), at(V, op, "b"), false)) return;
    if (r && vm(r)) mask_fits(V, op, r, rloc(op, 0), a);
}

/* channel_split / channel_merge: N >= 2 channels of one element type and lane count; the interleaved vector has
   N times their lanes (PTOAS VMIChannelSplitOp / VMIChannelMergeOp::verify). */
static void channels(VCtx *V, Op *op)
{
    int split = op->kind == OP_VMI_CHANNEL_SPLIT;
    uint32_t n = split ? op->nresults : op->noperands;
    const Value *whole = split ? op->operands[0] : res(op, 0);
    const Value *first = split ? res(op, 0) : op->operands[0];
    if (n < 2) {
        v_err(V, split ? DIAG_V_RESULT_TYPE : DIAG_V_OPERAND_COUNT, op->loc, "'%s' takes at least two channels, not %u",
              v_opname(op), n);
        return;
    }
    if (!whole || !first || !vv(whole) || !vv(first)) return;
    for (uint32_t i = 0; i < n; i++) {
        const Value *c = split ? res(op, i) : op->operands[i];
        SrcLoc l = split ? rloc(op, i) : v_gloc(V, op, "a", i);
        if (!vv(c) || c->type->lanes != first->type->lanes || c->type->elem != whole->type->elem) {
            char t[96], u[96];
            v_err(V, split ? DIAG_V_RESULT_TYPE : DIAG_V_OPERAND_TYPE, l, "'%s': channel %u has type %s; every channel "
                  "has the lanes of the first and the element type of %s", v_opname(op), i, tyn(c->type, t),
                  tyn(whole->type, u));
            return;
        }
    }
    if (whole->type->lanes != n * first->type->lanes) {
        char t[96];
        v_err(V, split ? DIAG_V_OPERAND_TYPE : DIAG_V_RESULT_TYPE, split ? op->loc : rloc(op, 0), "'%s': the interleaved "
              "vector %s has %u lanes, not %u channels of %u", v_opname(op), tyn(whole->type, t), whole->type->lanes, n,
              first->type->lanes);
    }
}

void verify_vmi(VCtx *V, Op *op)
{
    check_defs(V, op);
    if (op_info[op->kind].fam != FAM_VMI || op_info[op->kind].syn != SYN_SIG) return;
    if (unfit(V, op) || !classes_ok(V, op)) return;
    switch (op->kind) {
    case OP_VMI_VADD: case OP_VMI_VSUB: case OP_VMI_VMUL: case OP_VMI_VDIV: case OP_VMI_VMAX: case OP_VMI_VMIN:
    case OP_VMI_VSHL: case OP_VMI_VSHR: case OP_VMI_VAND: case OP_VMI_VOR: case OP_VMI_VXOR: case OP_VMI_VNOT:
    case OP_VMI_VABS: case OP_VMI_VNEG: case OP_VMI_VRELU: case OP_VMI_VEXP: case OP_VMI_VLN: case OP_VMI_VSQRT:
        elementwise(V, op);
        break;
    case OP_VMI_VADDS: case OP_VMI_VMULS: case OP_VMI_VMAXS: case OP_VMI_VMINS: case OP_VMI_VSHLS: case OP_VMI_VSHRS:
        vec_scalar(V, op);
        break;
    case OP_VMI_VCMP: case OP_VMI_VCMPS: compare(V, op); break;
    case OP_VMI_VSEL: select_op(V, op); break;
    case OP_VMI_VSELR: selr(V, op); break;
    case OP_VMI_VCI: vci(V, op); break;
    case OP_VMI_VBRC: case OP_VMI_GROUP_BROADCAST: vbrc(V, op); break;
    case OP_VMI_VCADD: case OP_VMI_VCMAX: case OP_VMI_VCMIN:
    case OP_VMI_GROUP_REDUCE_ADDI: case OP_VMI_GROUP_REDUCE_ADDF: case OP_VMI_GROUP_REDUCE_MAXI:
    case OP_VMI_GROUP_REDUCE_MAXF: case OP_VMI_GROUP_REDUCE_MINI: case OP_VMI_GROUP_REDUCE_MINF:
        reduce(V, op);
        break;
    case OP_VMI_VCVT: vcvt(V, op); break;
    case OP_VMI_EXTSI: case OP_VMI_EXTUI: case OP_VMI_TRUNCI: case OP_VMI_EXTF: case OP_VMI_TRUNCF: case OP_VMI_FPTOSI:
    case OP_VMI_FPTOUI: case OP_VMI_SITOFP:
        cvt_legacy(V, op);
        break;
    case OP_VMI_VINTERPRET_CAST: case OP_VMI_BITCAST: reinterpret(V, op); break;
    case OP_VMI_VEXPDIF: expdif(V, op); break;
    case OP_VMI_VAXPY: case OP_VMI_VLRELU: case OP_VMI_VPRELU: case OP_VMI_VMULA: fused(V, op); break;
    case OP_VMI_VMULL: mull(V, op); break;
    case OP_VMI_VCHIST: case OP_VMI_VDHIST: hist(V, op); break;
    case OP_VMI_VLOAD: case OP_VMI_VLOAD_GROUP: case OP_VMI_VLOAD_BLK: case OP_VMI_LOAD: vload(V, op); break;
    case OP_VMI_VSTORE: case OP_VMI_VSTORE_GROUP: case OP_VMI_VSTORE_BLK: case OP_VMI_VSSTB: case OP_VMI_STORE:
        vstore(V, op);
        break;
    case OP_VMI_VGATHER: case OP_VMI_VGATHERB: gather(V, op); break;
    case OP_VMI_VSCATTER: case OP_VMI_SCATTER: scatter(V, op); break;
    case OP_VMI_GATHER: gather(V, op); break;
    case OP_VMI_CREATE_MASK: case OP_VMI_CREATE_GROUP_MASK: case OP_VMI_PSET: case OP_VMI_PGE: case OP_VMI_PLT:
    case OP_VMI_CONSTANT_MASK:
        masks(V, op);
        break;
    case OP_VMI_VINTLV: case OP_VMI_VDINTLV: interleave(V, op); break;
    case OP_VMI_FMA: fused(V, op); break;
    case OP_VMI_CMPF: case OP_VMI_CMPI: compare_named(V, op); break;
    case OP_VMI_SELECT: select_op(V, op); break;
    case OP_VMI_BROADCAST: vbrc(V, op); break;
    case OP_VMI_IOTA: vci(V, op); break;
    case OP_VMI_MASK_AND: case OP_VMI_MASK_OR: case OP_VMI_MASK_XOR: case OP_VMI_MASK_NOT: mask_logic(V, op); break;
    case OP_VMI_REDUCE_ADDF: case OP_VMI_REDUCE_ADDI: case OP_VMI_REDUCE_MAXF: case OP_VMI_REDUCE_MINF:
    case OP_VMI_REDUCE_MAXI: case OP_VMI_REDUCE_MINI:
        if (vv(arg(V, op, "a")) && class_ok(V, op, arg(V, op, "a")->type->elem)) reduce(V, op);
        break;
    case OP_VMI_MASKED_STORE: case OP_VMI_INTERLEAVE_STORE: case OP_VMI_STRIDE_STORE: vstore(V, op); break;
    case OP_VMI_STRIDE_LOAD:
        if (vv(res(op, 0)) && mask_fits(V, op, arg(V, op, "m"), at(V, op, "m"), res(op, 0))) vload(V, op);
        break;
    case OP_VMI_GROUP_STORE:
        if (vv(arg(V, op, "v")) && group_attr(V, op, "num_groups", arg(V, op, "v")->type->lanes, "the value") > 0)
            vstore(V, op);
        break;
    case OP_VMI_DEINTERLEAVE_LOAD:
        if (vv(res(op, 0)) && same_vec(V, op, res(op, 0), res(op, 1), rloc(op, 1), true)) vload(V, op);
        break;
    case OP_VMI_MASKED_LOAD:   /* the passthru has the result's type, the mask its lanes */
        if (vv(res(op, 0)) && same_vec(V, op, res(op, 0), arg(V, op, "pass"), at(V, op, "pass"), false) &&
            mask_fits(V, op, arg(V, op, "m"), at(V, op, "m"), res(op, 0)))
            vload(V, op);
        break;
    case OP_VMI_GROUP_LOAD: case OP_VMI_GROUP_BROADCAST_LOAD:
        if (vv(res(op, 0)) && group_attr(V, op, "num_groups", res(op, 0)->type->lanes, "the result") > 0) vload(V, op);
        break;
    case OP_VMI_CHANNEL_SPLIT: case OP_VMI_CHANNEL_MERGE: channels(V, op); break;
    default:
        if (op_vmi_class(op->kind) != VC_NONE) elementwise(V, op);
        break;
    }
}
