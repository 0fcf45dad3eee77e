/* verify_tile.c — the tile layer's rules (docs/verifier.md "Tile ops", docs/tile.md). The operand classes come
 * from the signatures (verify_sig.c); here: where each op's tiles may live (E-TILE-LOC), the layouts it
 * supports (E-TILE-LAYOUT), shapes, valid regions, view ranks and element types that must agree
 * (E-TILE-SHAPE, E-ELEM-TYPE), constant tile addresses (E-ALIGN, E-CAPACITY), and per function the address
 * plan of the tiles without an address (E-TILE-ALLOC, naming the tiles live at that point). */
#include "verify_int.h"
#include "isa/tile_plan.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Accepted element kinds of an element-wise tile op. */
enum { TA_ANY, TA_NUM, TA_FLOAT, TA_INT };

typedef struct TileRule { uint16_t op; uint8_t acc; uint8_t same; } TileRule;   /* same: dst elem = src elem */
static const TileRule rules[] = {
    {OP_TADD, TA_NUM, 1}, {OP_TSUB, TA_NUM, 1}, {OP_TMUL, TA_NUM, 1}, {OP_TDIV, TA_NUM, 1}, {OP_TMAX, TA_NUM, 1},
    {OP_TMIN, TA_NUM, 1}, {OP_TAND, TA_INT, 1}, {OP_TOR, TA_INT, 1}, {OP_TXOR, TA_INT, 1}, {OP_TSHL, TA_INT, 1},
    {OP_TSHR, TA_INT, 1}, {OP_TREM, TA_NUM, 1}, {OP_TFMOD, TA_NUM, 1}, {OP_TPRELU, TA_FLOAT, 1}, {OP_TADDRELU, TA_NUM, 1},
    {OP_TADDS, TA_NUM, 1}, {OP_TSUBS, TA_NUM, 1}, {OP_TMULS, TA_NUM, 1}, {OP_TDIVS, TA_NUM, 1}, {OP_TMAXS, TA_NUM, 1},
    {OP_TMINS, TA_NUM, 1}, {OP_TANDS, TA_INT, 1}, {OP_TORS, TA_INT, 1}, {OP_TXORS, TA_INT, 1}, {OP_TSHLS, TA_INT, 1},
    {OP_TSHRS, TA_INT, 1}, {OP_TREMS, TA_NUM, 1}, {OP_TFMODS, TA_NUM, 1}, {OP_TLRELU, TA_FLOAT, 1},
    {OP_TABS, TA_NUM, 1}, {OP_TNEG, TA_NUM, 1}, {OP_TEXP, TA_FLOAT, 1}, {OP_TLOG, TA_FLOAT, 1}, {OP_TSQRT, TA_FLOAT, 1},
    {OP_TRSQRT, TA_FLOAT, 1}, {OP_TRECIP, TA_FLOAT, 1}, {OP_TRELU, TA_NUM, 1}, {OP_TNOT, TA_INT, 1},
    {OP_TCMP, TA_NUM, 0}, {OP_TCMPS, TA_NUM, 0}, {OP_TSEL, TA_ANY, 1}, {OP_TSELS, TA_ANY, 1},
    {OP_TEXPANDS, TA_NUM, 1}, {OP_TFILLPAD, TA_ANY, 1},
};

static const TileRule *rule_of(int kind)
{
    for (unsigned i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (rules[i].op == kind) return &rules[i];
    return NULL;
}

static int accepts(int acc, ElemKind k)
{
    switch (acc) {
    case TA_NUM: return ek_int(k) || ek_arith_float(k);
    case TA_FLOAT: return ek_arith_float(k);
    case TA_INT: return ek_int(k);
    default: return k != EK_BAD;
    }
}

static const char *tname(const Type *t, char *b, unsigned n) { return v_tyname(t, b, n); }

static const Type *grp_type(const VCtx *V, const Op *op, const char *g)
{
    const Value *v = v_grp(V, op, g, 0);
    return v ? v->type : NULL;
}

static SrcLoc grp_loc(const VCtx *V, const Op *op, const char *g)
{
    int i = v_group_index(V, op, g);
    return i >= 0 && op_group_len(op, (unsigned)i) ? op_group_loc(op, (unsigned)i, 0) : op->loc;
}

/* A tile operand must live in UB (loc=vec). */
static int need_vec(VCtx *V, const Op *op, const char *g)
{
    const Type *t = grp_type(V, op, g);
    if (!t || t->kind != TY_TILE_BUF || t->space == AS_UB) return 0;
    const char *loc = tile_loc_name((AddrSpace)t->space);
    v_err(V, DIAG_TILE_LOC, grp_loc(V, op, g), "'%s' computes on the vector unit: its '%s' tile must be loc=vec, not "
          "loc=%s", v_opname(op), g, loc ? loc : "?");
    return 1;
}

static int static_valid(const Type *t, int64_t *vr, int64_t *vc)
{
    *vr = t->dims[2];
    *vc = t->dims[3];
    return *vr >= 0 && *vc >= 0;
}

/* texpands and tfillpad on mat tiles (PTOAS TExpandsOp / TFillPadOp verifiers; pto-isa a5 TExpandsTile,
   TFILLPAD_IMPL): texpands fills 1..32767 32-byte blocks; tfillpad runs on one NZ tile type (src the same as dst)
   padded zero or null, of 1-, 2- or 4-byte elements. */
static void check_mat_fill(VCtx *V, Op *op, const Type *dt)
{
    char b1[128], b2[128];
    uint64_t bytes = tile_bytes(dt);
    if (op->kind == OP_TEXPANDS) {
        if (bytes % 32 || bytes / 32 < 1 || bytes / 32 > 32767)
            v_err(V, DIAG_TILE_SHAPE, grp_loc(V, op, "dst"), "'%s' on a mat tile fills 1 to 32767 whole 32-byte blocks; "
                  "%s holds %" PRIu64 " bytes", v_opname(op), tname(dt, b1, sizeof b1), bytes);
        return;
    }
    const Type *st = grp_type(V, op, "src");
    if (st && st != dt)
        v_err(V, DIAG_TILE_SHAPE, grp_loc(V, op, "src"), "'%s' on mat tiles takes src of dst's type %s, not %s",
              v_opname(op), tname(dt, b1, sizeof b1), tname(st, b2, sizeof b2));
    else if (dt->blayout != TBL_COL_MAJOR || dt->slayout != TSL_ROW_MAJOR)
        v_err(V, DIAG_TILE_LAYOUT, grp_loc(V, op, "dst"), "'%s' on a mat tile needs the NZ layout (blayout=col_major, "
              "slayout=row_major), not %s", v_opname(op), tname(dt, b1, sizeof b1));
    else if (dt->pad != TPAD_NULL && dt->pad != TPAD_ZERO)
        v_err(V, DIAG_V_ATTR, grp_loc(V, op, "dst"), "'%s' on a mat tile pads with zeros: its pad must be null or zero",
              v_opname(op));
}

/* Element-wise rules: locations, layouts, valid shapes and element types. */
static int verify_tile_reduce(VCtx *V, Op *op);   /* below: the reductions, expands and partial ops */

static void check_ew(VCtx *V, Op *op, const TileRule *r)
{
    static const char *const groups[] = {"src0", "src1", "src", "tmp", "mask", "a", "b", "dst"};
    char b1[128], b2[128], b3[128];
    const Type *dt = grp_type(V, op, "dst");
    if (!dt || dt->kind != TY_TILE_BUF) return;
    const Attr *mode = op->kind == OP_TFILLPAD ? op_attr(op, "mode") : NULL;
    if (mode) {   /* PTOAS TFillPadOp::verify: the lowering is inferred, never chosen */
        v_err(V, DIAG_V_ATTR, mode->loc, "'%s' takes no 'mode': the expand / in-place lowering follows from its tiles",
              v_opname(op));
        return;
    }
    if ((op->kind == OP_TEXPANDS || op->kind == OP_TFILLPAD) && dt->space == AS_L1) {   /* the mat forms */
        check_mat_fill(V, op, dt);
        return;
    }
    for (unsigned i = 0; i < sizeof groups / sizeof groups[0]; i++) need_vec(V, op, groups[i]);
    int packed = op->kind == OP_TCMP || op->kind == OP_TCMPS || op->kind == OP_TSEL || op->kind == OP_TSELS ||
                 op->kind == OP_TFILLPAD;
    /* layouts: unboxed, one base layout for all data tiles; the packed-predicate ops and tfillpad row-major */
    for (unsigned i = 0; i < sizeof groups / sizeof groups[0]; i++) {
        const Type *t = grp_type(V, op, groups[i]);
        if (!t || t->kind != TY_TILE_BUF || !strcmp(groups[i], "tmp")) continue;
        if (t->slayout != TSL_NONE_BOX || (packed && t->blayout != TBL_ROW_MAJOR) || t->blayout != dt->blayout) {
            v_err(V, DIAG_TILE_LAYOUT, grp_loc(V, op, groups[i]), "'%s' needs %s tiles (unboxed, slayout=none_box%s); "
                  "'%s' is %s", v_opname(op), packed ? "row-major" : "same-layout", packed ? "" : ", one blayout", groups[i],
                  tname(t, b1, sizeof b1));
            return;
        }
    }
    /* element types */
    const Type *st = grp_type(V, op, "src0");
    if (!st) st = grp_type(V, op, "src");
    if (op->kind == OP_TDIVS) {
        const Type *a = grp_type(V, op, "a"), *bb = grp_type(V, op, "b");
        st = a && a->kind == TY_TILE_BUF ? a : bb;
        if (!a || !bb || (a->kind == TY_TILE_BUF) == (bb->kind == TY_TILE_BUF)) {
            v_err(V, DIAG_V_OPERAND_TYPE, op->loc, "'pto.tdivs' takes one tile and one scalar");
            return;
        }
    }
    if (op->kind == OP_TEXPANDS) st = dt;
    ElemKind k = st && st->kind == TY_TILE_BUF ? elem_kind(st->elem) : EK_BAD;
    if (!accepts(r->acc, k)) {
        v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'%s' does not accept %s tiles", v_opname(op),
              st ? tname(st->elem, b1, sizeof b1) : "these");
        return;
    }
    if (r->same && st && st->elem != dt->elem) {
        v_err(V, DIAG_TILE_SHAPE, grp_loc(V, op, "dst"), "'%s' writes %s elements from %s ones; the tiles' element types "
              "must agree", v_opname(op), tname(dt->elem, b1, sizeof b1), tname(st->elem, b2, sizeof b2));
        return;
    }
    if ((op->kind == OP_TCMP || op->kind == OP_TCMPS) && (dt->elem->kind != TY_INT || dt->elem->bits != 8)) {
        v_err(V, DIAG_V_ELEM_TYPE, grp_loc(V, op, "dst"), "'%s' writes a packed predicate: its destination holds 8-bit "
              "integers, not %s", v_opname(op), tname(dt->elem, b1, sizeof b1));
        return;
    }
    const Type *src1 = grp_type(V, op, "src1");
    if (src1 && src1->kind == TY_TILE_BUF && st && src1->elem != st->elem && op->kind != OP_TSEL) {
        v_err(V, DIAG_TILE_SHAPE, grp_loc(V, op, "src1"), "'%s' combines %s and %s tiles", v_opname(op),
              tname(st->elem, b1, sizeof b1), tname(src1->elem, b2, sizeof b2));
        return;
    }
    /* the scalar's type: the element type, except shift counts (i16 in the templates, any integer) and tlrelu's
       f32 slope */
    const Value *sv = v_grp(V, op, op->kind == OP_TLRELU ? "slope" : "scalar", 0);
    if (op->kind == OP_TLRELU) sv = NULL;   /* an f32 slope for f16 and f32 tiles (tlrelu.py) */
    if (op->kind == OP_TDIVS) {
        const Value *a = v_grp(V, op, "a", 0);
        sv = a && a->type->kind == TY_TILE_BUF ? v_grp(V, op, "b", 0) : a;
    }
    if (sv && st && st->kind == TY_TILE_BUF) {
        int shift = op->kind == OP_TSHLS || op->kind == OP_TSHRS;
        int ok = shift ? sv->type->kind == TY_INT : elem_kind(sv->type) == elem_kind(st->elem) ||
                 (op->kind == OP_TEXPANDS && ty_bits(sv->type) == ty_bits(st->elem) && sv->type->kind == st->elem->kind);
        if (!ok) v_err(V, DIAG_V_ELEM_TYPE, op_use_loc(op, sv), "'%s' on %s tiles takes a %s scalar, not %s",
                       v_opname(op), tname(st->elem, b1, sizeof b1), shift ? "integer" : tname(st->elem, b2, sizeof b2),
                       tname(sv->type, b3, sizeof b3));
    }
    /* valid shapes known statically must agree (the templates' require_same_valid_shape) */
    int64_t dr, dc, sr, sc;
    if (!static_valid(dt, &dr, &dc) || op->kind == OP_TFILLPAD || op->kind == OP_TCMP || op->kind == OP_TCMPS) return;
    static const char *const vsrc[] = {"src0", "src1", "src"};
    for (unsigned i = 0; i < 3; i++) {
        const Type *t = grp_type(V, op, vsrc[i]);
        if (!t || t->kind != TY_TILE_BUF || !static_valid(t, &sr, &sc)) continue;
        if (sr != dr || sc != dc)
            v_err(V, DIAG_TILE_SHAPE, grp_loc(V, op, vsrc[i]), "'%s' needs equal valid regions: '%s' is %" PRId64 "x%" PRId64
                  ", the destination %" PRId64 "x%" PRId64, v_opname(op), vsrc[i], sr, sc, dr, dc);
    }
}

static void check_dma(VCtx *V, Op *op)
{
    char b1[128], b2[128];
    int load = op->kind == OP_TLOAD;
    const char *tg = load ? "dst" : "src", *vg = load ? "src" : "dst";
    const Type *t = grp_type(V, op, tg), *vt = grp_type(V, op, vg);
    if (!t || !vt || t->kind != TY_TILE_BUF || !ty_is_view(vt)) return;
    /* PTOAS TLoadOp / TStoreOp verifiers: a tload fills vec or mat (a5: any location, here also scaling, the FIXPIPE
       quant vector a set_quant_vector binds); a tstore reads vec or acc (a2a3 also mat) */
    int a5 = V->target == PTO_TARGET_A5;
    int ok_loc = load ? (t->space == AS_UB || t->space == AS_L1 || (t->space == AS_FB && a5))
                      : (t->space == AS_UB || t->space == AS_L0C || (t->space == AS_L1 && !a5));
    if (!ok_loc) {
        const char *loc = tile_loc_name((AddrSpace)t->space);
        v_err(V, DIAG_TILE_LOC, grp_loc(V, op, tg), "'%s' %s a tile in loc=%s; it moves data between GM and loc=vec%s tiles",
              v_opname(op), load ? "fills" : "reads", loc ? loc : "?", load ? " or loc=mat" : " or loc=acc");
        return;
    }
    int fp = v_grp(V, op, "fp", 0) != NULL;
    if (!load && t->space == AS_L0C) {
        /* tstore from acc: FIXPIPE reads i32 or f32 and, without quantisation (an fp tile or a pre scalar), writes
           i32, f32, f16 or bf16 */
        ElemKind ks = elem_kind(t->elem), kd = elem_kind(vt->elem);
        if (ks != EK_S32 && ks != EK_F32) {
            v_err(V, DIAG_V_ELEM_TYPE, grp_loc(V, op, tg), "'%s' from an acc tile reads i32 or f32 elements, not %s",
                  v_opname(op), tname(t->elem, b1, sizeof b1));
            return;
        }
        if (!fp && !v_grp(V, op, "pre", 0) && kd != EK_S32 && kd != EK_F32 && kd != EK_F16 && kd != EK_BF16) {
            v_err(V, DIAG_V_ELEM_TYPE, grp_loc(V, op, vg), "'%s' from an acc tile writes i32, f32, f16 or bf16, not %s",
                  v_opname(op), tname(vt->elem, b1, sizeof b1));
            return;
        }
        /* the pre-quantisation scalar form (PTOAS TStoreOp::verify): a5 from i32 into 8-bit integers, f16 or bf16,
           from f32 also f32, hif8 or e4m3; a2a3 from i32 into 8-bit integers or f16, from f32 into 8-bit integers */
        if (!fp && v_grp(V, op, "pre", 0)) {
            bool i8 = kd == EK_S8 || kd == EK_U8, s32 = ks == EK_S32;
            bool ok = a5 ? (i8 || kd == EK_F16 || kd == EK_BF16 || (!s32 && (kd == EK_F32 || kd == EK_HIF8 || kd == EK_E4M3)))
                         : (i8 || (s32 && kd == EK_F16));
            if (!ok) {
                v_err(V, DIAG_V_ELEM_TYPE, grp_loc(V, op, vg), "'%s' from an %s acc tile with a pre-quantisation scalar "
                      "writes %s, not %s", v_opname(op), s32 ? "i32" : "f32",
                      a5 ? (s32 ? "i8, ui8, f16 or bf16" : "i8, ui8, f16, bf16, f32, hif8 or f8E4M3FN")
                         : (s32 ? "i8, ui8 or f16" : "i8 or ui8"), tname(vt->elem, b1, sizeof b1));
                return;
            }
        }
    } else if (ty_bits(t->elem) != ty_bits(vt->elem)) {
        v_err(V, DIAG_TILE_SHAPE, op->loc, "'%s' between %s and %s: the element widths differ", v_opname(op),
              tname(vt, b1, sizeof b1), tname(t, b2, sizeof b2));
        return;
    }
    if (!load && !fp) {   /* static view and valid region: one element count */
        int64_t nv = 1, nt = t->dims[2] >= 0 && t->dims[3] >= 0 ? t->dims[2] * t->dims[3] : -1;
        for (unsigned d = 0; d < vt->rank && nv >= 0; d++) nv = vt->dims[d] > 0 ? nv * vt->dims[d] : -1;
        if (nv > 0 && nt > 0 && nv != nt) {
            v_err(V, DIAG_TILE_SHAPE, grp_loc(V, op, vg), "'%s' writes %lld view elements from a valid region of %lld",
                  v_opname(op), (long long)nv, (long long)nt);
            return;
        }
    }
    if (t->space != AS_UB) return;   /* cube data paths: their own rules (docs/tile.md) */
    int nz = t->slayout == TSL_ROW_MAJOR && t->blayout == TBL_COL_MAJOR;
    /* one row or one column: the same bytes in every layout, for tstore (pto-isa a5 TStore.hpp CheckStaticVec's special
       case); a tload's vec destination is ND, DN or NZ whatever its shape (PTOAS: "expects A5 tload vec dst layout to
       be ND, DN, or NZ", lit tload_vec_layout_mismatch) */
    int line = !load && (t->dims[0] == 1 || t->dims[1] == 1);
    /* an NZ tile with a view of another rank than 5 passes here, as in the compiler (its TLoadOp::verify checks the
       tile's layout only; lit tinsert_a5_vec_mat_mode_lowering loads one from a rank-2 view); running one is
       T-UNSUPPORTED (tile_lower_dma: the GM layout of a rank-2 NZ view is not published) */
    if (t->slayout != TSL_NONE_BOX && !nz && !line) {
        v_err(V, DIAG_TILE_LAYOUT, grp_loc(V, op, tg), "'%s' moves ND (row-major), DN (column-major) or NZ (col_major "
              "blayout, row_major slayout) tiles; %s is none of them", v_opname(op), tname(t, b1, sizeof b1));
        return;
    }
}

/* pto.subview (PTO_IR_manual "pto.subview"): the result is a tile of the source's element type, space and layout
   whose shape is `sizes`; constant offsets keep the window inside the source; a dynamic valid shape needs the
   valid operands; constant valid values lie in [0, sizes]. */
static void check_subview(VCtx *V, Op *op)
{
    char b1[128], b2[128];
    const Type *st = grp_type(V, op, "src"), *r = op->nresults ? op->results[0]->type : NULL;
    const Attr *sz = op_attr(op, "sizes");
    if (!st || !r || st->kind != TY_TILE_BUF || r->kind != TY_TILE_BUF) return;
    if (!sz || sz->kind != AT_INTS || sz->nints != 2 || sz->ints[0] <= 0 || sz->ints[1] <= 0) {
        v_err(V, DIAG_TILE_SHAPE, op->loc, "'pto.subview' needs two positive sizes");
        return;
    }
    if (r->elem != st->elem || r->space != st->space || r->blayout != st->blayout || r->slayout != st->slayout) {
        v_err(V, DIAG_TILE_SHAPE, op->loc, "'pto.subview' of %s must keep its element type, loc and layout; the result is %s",
              tname(st, b1, sizeof b1), tname(r, b2, sizeof b2));
        return;
    }
    if (r->dims[0] != sz->ints[0] || r->dims[1] != sz->ints[1]) {
        v_err(V, DIAG_TILE_SHAPE, op->loc, "'pto.subview' sizes [%lld, %lld] differ from the result's %lldx%lld shape",
              (long long)sz->ints[0], (long long)sz->ints[1], (long long)r->dims[0], (long long)r->dims[1]);
        return;
    }
    for (int i = 0; i < 2; i++) {
        int64_t c;
        Value *v = v_grp(V, op, i ? "col" : "row", 0);
        if (v && v_const_int(v, &c) && (c < 0 || c + r->dims[i] > st->dims[i]))
            v_err(V, DIAG_TILE_SHAPE, op_use_loc(op, v), "'pto.subview': the window's %s %" PRId64 "..%" PRId64 " leaves "
                  "the source's %lld", i ? "columns" : "rows", c, c + r->dims[i], (long long)st->dims[i]);
        Value *w = v_grp(V, op, i ? "valid_col" : "valid_row", 0);
        if (w && v_const_int(w, &c) && (c < 0 || c > r->dims[i]))
            v_err(V, DIAG_TILE_SHAPE, op_use_loc(op, w), "'pto.subview': valid %s %" PRId64 " exceeds the window's %lld",
                  i ? "columns" : "rows", c, (long long)r->dims[i]);
        if (!w && r->dims[2 + i] < 0)
            v_err(V, DIAG_TILE_SHAPE, op->loc, "'pto.subview' to a dynamic valid shape needs 'valid [%%vr, %%vc]'");
        if (!w && r->dims[2 + i] < 0) return;
    }
}

static void check_view(VCtx *V, Op *op)
{
    char b1[128], b2[128];
    const Type *r = op->nresults ? op->results[0]->type : NULL;
    if (op->kind == OP_MAKE_TENSOR_VIEW || op->kind == OP_PARTITION_VIEW) {
        if (!r || !ty_is_view(r)) return;
        unsigned ns = v_grp_len(V, op, op->kind == OP_MAKE_TENSOR_VIEW ? "shape" : "offsets");
        unsigned nt = v_grp_len(V, op, op->kind == OP_MAKE_TENSOR_VIEW ? "strides" : "sizes");
        if (ns != r->rank || nt != r->rank) {
            v_err(V, DIAG_TILE_SHAPE, op->loc, "'%s' gives %u and %u values for a rank-%u view", v_opname(op), ns, nt, r->rank);
            return;
        }
        const Type *src = grp_type(V, op, op->kind == OP_MAKE_TENSOR_VIEW ? "ptr" : "src");
        const Type *se = src && src->kind == TY_PTR ? src->elem : src && ty_is_view(src) ? src->elem : NULL;
        if (se && ty_bits(se) != ty_bits(r->elem)) {
            v_err(V, DIAG_TILE_SHAPE, op->loc, "'%s' makes a view of %s from %s", v_opname(op), tname(r->elem, b1, sizeof b1),
                  tname(se, b2, sizeof b2));
            return;
        }
        if (op->kind == OP_PARTITION_VIEW && src && ty_is_view(src) && src->rank != r->rank) {
            v_err(V, DIAG_TILE_SHAPE, op->loc, "'pto.partition_view' of a rank-%u view has rank %u", src->rank, r->rank);
            return;
        }
        /* constant sizes must match the static dims of the result type */
        const char *g = op->kind == OP_MAKE_TENSOR_VIEW ? "shape" : "sizes";
        for (unsigned i = 0; i < r->rank; i++) {
            int64_t c;
            Value *v = v_grp(V, op, g, i);
            if (v && r->dims[i] >= 0 && v_const_int(v, &c) && c != r->dims[i])
                v_err(V, DIAG_TILE_SHAPE, op_use_loc(op, v), "dimension %u is %" PRId64 ", the type says %" PRId64, i, c,
                      r->dims[i]);
        }
        return;
    }
    if (op->kind == OP_ALLOC_MULTI_TILE && r && r->kind == TY_MULTI_TILE) {   /* PTOAS AllocMultiTileOp::verify */
        if (r->dims[4] < 2)
            v_err(V, DIAG_TILE_TYPE, op->loc, "'%s': a multi_tile_buf holds at least 2 slots, not %lld", v_opname(op),
                  (long long)r->dims[4]);
        if (r->compact == 2)
            v_err(V, DIAG_TILE_LAYOUT, op->loc, "'%s': a row_plus_one (compact=2) slot is larger than its shape, so "
                  "adjacent slots would overlap", v_opname(op));
        const Attr *ia = op_attr(op, "pto.multi_buffer_addrs");
        if (ia)
            v_err(V, DIAG_V_ATTR, ia->loc, "'%s': the attribute 'pto.multi_buffer_addrs' is the compiler's planner's, "
                  "not the kernel's", v_opname(op));
    }
    if ((op->kind == OP_ALLOC_TILE && r && r->kind == TY_TILE_BUF) ||
        (op->kind == OP_ALLOC_MULTI_TILE && r && r->kind == TY_MULTI_TILE)) {
        int64_t c;
        Value *vr = v_grp(V, op, "valid_row", 0), *vc = v_grp(V, op, "valid_col", 0), *ad = v_grp(V, op, "addr", 0);
        if ((vr && r->dims[2] >= 0) || (vc && r->dims[3] >= 0))
            v_err(V, DIAG_TILE_SHAPE, op_use_loc(op, vr && r->dims[2] >= 0 ? vr : vc), "'pto.alloc_tile' gives a valid "
                  "dimension the type %s fixes", tname(r, b1, sizeof b1));
        if (vr && v_const_int(vr, &c) && (c < 0 || c > r->dims[0]))
            v_err(V, DIAG_TILE_SHAPE, op_use_loc(op, vr), "valid_row %" PRId64 " exceeds the tile's %lld rows", c, (long long)r->dims[0]);
        if (vc && v_const_int(vc, &c) && (c < 0 || c > r->dims[1]))
            v_err(V, DIAG_TILE_SHAPE, op_use_loc(op, vc), "valid_col %" PRId64 " exceeds the tile's %lld columns", c, (long long)r->dims[1]);
        if (ad && v_const_int(ad, &c)) {
            uint64_t cap = V->tp->cap[r->space];
            uint64_t n = r->kind == TY_MULTI_TILE ? (uint64_t)r->dims[4] * tile_plan_multi_stride(r) : tile_bytes(r);
            if (c % 32)
                v_err(V, DIAG_V_ALIGN, op_use_loc(op, ad), "tile address %" PRId64 " is not 32-byte aligned", c);
            else if (c < 0 || (uint64_t)c + n > cap)
                v_err(V, DIAG_V_CAPACITY, op_use_loc(op, ad), "the tile's bytes [%" PRId64 ", %" PRIu64 ") lie outside the "
                      "%" PRIu64 " bytes of %s", c, (uint64_t)c + n, cap, as_name((AddrSpace)r->space));
        }
        return;
    }
    if (op->kind == OP_SUBVIEW) {
        check_subview(V, op);
        return;
    }
    if (op->kind == OP_MULTI_TILE_GET && op->noperands == 2 && r) {   /* PTOAS MultiTileGetOp::verify */
        const Type *m = op->operands[0]->type;
        int64_t k;
        if (m->kind != TY_MULTI_TILE) return;
        if (r->kind != TY_TILE_BUF || r->elem != m->elem || r->space != m->space || r->blayout != m->blayout ||
            r->slayout != m->slayout || r->fractal != m->fractal || r->pad != m->pad || r->compact != m->compact ||
            memcmp(r->dims, m->dims, 4 * sizeof r->dims[0]) != 0)
            v_err(V, DIAG_TILE_SHAPE, op->loc, "'%s' yields the slot tile of %s, not %s", v_opname(op),
                  tname(m, b1, sizeof b1), tname(r, b2, sizeof b2));
        else if (v_const_int(op->operands[1], &k) && (k < 0 || k >= m->dims[4]))
            v_err(V, DIAG_TILE_SHAPE, op_use_loc(op, op->operands[1]), "'%s': slot %" PRId64 " of a multi_tile_buf of "
                  "%lld slots", v_opname(op), k, (long long)m->dims[4]);
        return;
    }
    if (op->kind == OP_TGETVAL || op->kind == OP_TSETVAL) {   /* PTO_IR_manual pto.tgetval / pto.tsetval */
        const char *g = op->kind == OP_TGETVAL ? "src" : "dst";
        const Type *t = grp_type(V, op, g), *e = op->kind == OP_TGETVAL ? (op->nresults ? op->results[0]->type : NULL)
                                                                      : grp_type(V, op, "val");
        if (!t || t->kind != TY_TILE_BUF || need_vec(V, op, g)) return;
        if (e && e != t->elem)
            v_err(V, DIAG_V_ELEM_TYPE, op->kind == OP_TGETVAL ? op->loc : grp_loc(V, op, "val"), "'%s' %s %s, the "
                  "tile's element type, not %s", v_opname(op), op->kind == OP_TGETVAL ? "reads" : "writes",
                  tname(t->elem, b1, sizeof b1), tname(e, b2, sizeof b2));
        return;
    }
    if (op->kind == OP_SET_VALIDSHAPE) {
        const Type *t = grp_type(V, op, "src");
        if (!t || t->kind != TY_TILE_BUF) return;
        if (t->dims[2] >= 0 || t->dims[3] >= 0) {
            v_err(V, DIAG_TILE_SHAPE, grp_loc(V, op, "src"), "'pto.set_validshape' needs a tile with a dynamic valid shape "
                  "(valid=?x?), not %s", tname(t, b1, sizeof b1));
            return;
        }
        int64_t c;
        Value *vr = v_grp(V, op, "valid_row", 0), *vc = v_grp(V, op, "valid_col", 0);
        if (vr && v_const_int(vr, &c) && (c < 0 || c > t->dims[0]))
            v_err(V, DIAG_TILE_SHAPE, op_use_loc(op, vr), "valid_row %" PRId64 " exceeds the tile's %lld rows", c, (long long)t->dims[0]);
        if (vc && v_const_int(vc, &c) && (c < 0 || c > t->dims[1]))
            v_err(V, DIAG_TILE_SHAPE, op_use_loc(op, vc), "valid_col %" PRId64 " exceeds the tile's %lld columns", c, (long long)t->dims[1]);
    }
}

/* The address plan of a function's tiles without an address: every tile that does not fit is an error that
   names the tiles live there. */
static void check_plan(VCtx *V, Op *f)
{
    TilePlan p;
    if (tile_plan_build(f, V->tp, &p)) {
        diag_oom(V->d, 0);
        return;
    }
    for (uint32_t i = 0; i < p.n; i++) {
        const TileSlot *s = &p.t[i];
        if (s->fits || s->fixed) continue;
        const Value *v = s->op->results[0];
        uint64_t live = 0;
        for (uint32_t k = 0; k < p.n; k++) {
            const TileSlot *o = &p.t[k];
            if (k != i && o->as == s->as && o->fits && o->start <= s->end && o->end >= s->start) live += o->size;
        }
        long d = v_err(V, DIAG_TILE_ALLOC, s->op->loc, "tile %%%s needs %" PRIu64 " bytes of %s; the %" PRIu64 " bytes "
                       "there hold %" PRIu64 " bytes of tiles live at this point", v_valname(v), s->size,
                       as_name(s->as), V->tp->cap[s->as], live);
        unsigned shown = 0;
        for (uint32_t k = 0; k < p.n && shown < 8; k++) {
            const TileSlot *o = &p.t[k];
            if (k == i || o->as != s->as || !o->fits || o->start > s->end || o->end < s->start) continue;
            v_note(V, d, o->op->loc, "tile %%%s is live here: %" PRIu64 " bytes at %" PRIu64, v_valname(o->op->results[0]),
                   o->size, o->addr);
            shown++;
        }
    }
    tile_plan_free(&p);
}

/* ---- conversion, sort, random and the vector-side moves (ops/tile/tile_cvt.c, tile_sort.c, tile_rand.c,
   tile_mov.c) ---- */

/* A row-major unboxed tile (the templates' _rowwise / row_major constraints); reports E-TILE-LAYOUT. */
static int need_row_major(VCtx *V, const Op *op, const char *g)
{
    char b[128];
    const Type *t = grp_type(V, op, g);
    if (!t || t->kind != TY_TILE_BUF || (t->blayout == TBL_ROW_MAJOR && t->slayout == TSL_NONE_BOX)) return 0;
    v_err(V, DIAG_TILE_LAYOUT, grp_loc(V, op, g), "'%s' needs row-major tiles (blayout=row_major, slayout=none_box); "
          "'%s' is %s", v_opname(op), g, tname(t, b, sizeof b));
    return 1;
}

static void check_cvt(VCtx *V, Op *op)
{
    char b1[128], b2[128];
    const Type *st = grp_type(V, op, "src"), *dt = grp_type(V, op, "dst");
    if (!st || !dt || st->kind != TY_TILE_BUF || dt->kind != TY_TILE_BUF) return;
    if (need_vec(V, op, "src") || need_vec(V, op, "dst") || need_row_major(V, op, "src") || need_row_major(V, op, "dst"))
        return;
    ElemKind s = elem_kind(st->elem), d = elem_kind(dt->elem);
    if (s == EK_BAD || d == EK_BAD || !op_cvt_on(OP_TCVT, (int)V->target, s, d)) {
        int a3 = V->target == PTO_TARGET_A2A3;
        v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'pto.tcvt' has no %s -> %s form on %s (the pairs of the %s: "
              "`ptosim help pto.tcvt`)", tname(st->elem, b1, sizeof b1), tname(dt->elem, b2, sizeof b2),
              a3 ? "a2a3" : "a5", a3 ? "a2a3 TCvt implementation" : "A5 templates");
        return;
    }
    /* shapes and static valid shapes agree; bf16 -> f4 x2 packs two source columns into each destination byte */
    int64_t per = ek_packed4(d) ? 2 : 1;
    int bad = st->dims[0] != dt->dims[0] || st->dims[1] != dt->dims[1] * per ||
              (st->dims[2] >= 0 && dt->dims[2] >= 0 && st->dims[2] != dt->dims[2]) ||
              (st->dims[3] >= 0 && dt->dims[3] >= 0 && st->dims[3] != dt->dims[3] * per);
    if (bad)
        v_err(V, DIAG_TILE_SHAPE, grp_loc(V, op, "dst"), "'pto.tcvt' converts %s into %s: the shapes and valid shapes "
              "must agree%s", tname(st, b1, sizeof b1), tname(dt, b2, sizeof b2),
              per == 2 ? " (the destination has half the source's columns)" : "");
}

static void check_sort(VCtx *V, Op *op)
{
    char b1[128], b2[128];
    if (op->kind == OP_TSORT32) {
        const Type *st = grp_type(V, op, "src"), *it = grp_type(V, op, "idx"), *dt = grp_type(V, op, "dst");
        if (!st || !it || !dt || st->kind != TY_TILE_BUF || it->kind != TY_TILE_BUF || dt->kind != TY_TILE_BUF) return;
        if (need_vec(V, op, "src") || need_vec(V, op, "idx") || need_vec(V, op, "tmp") || need_vec(V, op, "dst")) return;
        ElemKind k = elem_kind(st->elem);
        if (st->elem != dt->elem || (k != EK_F32 && k != EK_F16 && k != EK_BF16))
            v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'pto.tsort32' sorts f32, f16 or bf16 scores into a tile of the same "
                  "type; here %s into %s", tname(st->elem, b1, sizeof b1), tname(dt->elem, b2, sizeof b2));
        else if (it->elem->kind != TY_INT || ty_bits(it->elem) != 32)
            v_err(V, DIAG_V_ELEM_TYPE, grp_loc(V, op, "idx"), "'pto.tsort32' takes 32-bit indices, not %s",
                  tname(it->elem, b1, sizeof b1));
        return;
    }
    /* tmrgsort: every tile in vec, all of one element type, f32 or f16 */
    const Type *e = NULL;
    for (unsigned g = 0; g < 2; g++)
        for (unsigned j = 0;; j++) {
            const Value *v = v_grp(V, op, g ? "dsts" : "srcs", j);
            if (!v) break;
            if (v->type->kind != TY_TILE_BUF) continue;
            if (v->type->space != AS_UB) {
                const char *loc = tile_loc_name((AddrSpace)v->type->space);
                v_err(V, DIAG_TILE_LOC, op_use_loc(op, v), "'pto.tmrgsort' works on loc=vec tiles, not loc=%s",
                      loc ? loc : "?");
                return;
            }
            if (!e) e = v->type->elem;
            ElemKind k = elem_kind(v->type->elem);
            if (v->type->elem != e || (k != EK_F32 && k != EK_F16)) {
                v_err(V, DIAG_V_ELEM_TYPE, op_use_loc(op, v), "'pto.tmrgsort' merges f32 or f16 records, all tiles of one "
                      "type; this one holds %s", tname(v->type->elem, b1, sizeof b1));
                return;
            }
        }
}

static void check_rand(VCtx *V, Op *op)
{
    char b[128];
    const Type *dt = grp_type(V, op, "dst");
    if (!dt || dt->kind != TY_TILE_BUF || need_vec(V, op, "dst") || need_row_major(V, op, "dst")) return;
    if (dt->elem->kind != TY_INT || ty_bits(dt->elem) != 32)
        v_err(V, DIAG_V_ELEM_TYPE, grp_loc(V, op, "dst"), "'pto.trandom' fills 32-bit integer tiles, not %s",
              tname(dt->elem, b, sizeof b));
}

/* tmov / textract / tinsert between vec tiles (moves that involve cube buffers are the cube part's) */
static void check_mov(VCtx *V, Op *op)
{
    char b1[128], b2[128];
    const Type *st = grp_type(V, op, "src"), *dt = grp_type(V, op, "dst");
    if (!st || !dt || st->kind != TY_TILE_BUF || dt->kind != TY_TILE_BUF || st->space != AS_UB || dt->space != AS_UB ||
        v_grp(V, op, "tmp", 0))   /* the MX exponent reorder (tquant's tmov with a tmp): not the plain copy */
        return;
    /* tmov also copies between two column-major unboxed tiles (the same copy, column by column) */
    int dn = op->kind == OP_TMOV && st->blayout == TBL_COL_MAJOR && dt->blayout == TBL_COL_MAJOR &&
             st->slayout == TSL_NONE_BOX && dt->slayout == TSL_NONE_BOX;
    /* and from a row-major tile into an NZ tile (TMovToVecNd2Nz: the layout changes, the values do not) */
    int nz = op->kind == OP_TMOV && st->blayout == TBL_ROW_MAJOR && st->slayout == TSL_NONE_BOX &&
             dt->blayout == TBL_COL_MAJOR && dt->slayout == TSL_ROW_MAJOR && ty_bits(dt->elem) >= 8;
    /* and tinsert between two NZ tiles (the window in each tile's own NZ layout) */
    int insnz = op->kind == OP_TINSERT && st->blayout == TBL_COL_MAJOR && st->slayout == TSL_ROW_MAJOR &&
                dt->blayout == TBL_COL_MAJOR && dt->slayout == TSL_ROW_MAJOR && ty_bits(dt->elem) >= 8;
    if (!dn && !nz && !insnz && (need_row_major(V, op, "src") || need_row_major(V, op, "dst"))) return;
    if (ty_bits(st->elem) != ty_bits(dt->elem) || (op->kind != OP_TMOV && st->elem != dt->elem)) {
        v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'%s' copies %s elements into a tile of %s", v_opname(op),
              tname(st->elem, b1, sizeof b1), tname(dt->elem, b2, sizeof b2));
        return;
    }
    int64_t sr, sc, dr, dc;
    if (op->kind == OP_TMOV && static_valid(st, &sr, &sc) && static_valid(dt, &dr, &dc) && (sr != dr || sc != dc))
        v_err(V, DIAG_TILE_SHAPE, grp_loc(V, op, "dst"), "'pto.tmov' needs equal valid regions: the source's is %" PRId64
              "x%" PRId64 ", the destination's %" PRId64 "x%" PRId64, sr, sc, dr, dc);
    /* a constant window must fit: textract reads the destination's valid region from the source at (row, col),
       tinsert writes the source's valid region into the destination there */
    int64_t r, c;
    const Value *rv = v_grp(V, op, "row", 0), *cv = v_grp(V, op, "col", 0);
    if (op->kind == OP_TMOV || !rv || !cv || !v_const_int(rv, &r) || !v_const_int(cv, &c)) return;
    const Type *win = op->kind == OP_TEXTRACT ? dt : st, *host = op->kind == OP_TEXTRACT ? st : dt;
    if (!static_valid(win, &sr, &sc)) return;
    if (r < 0 || c < 0 || r + sr > host->dims[0] || c + sc > host->dims[1])
        v_err(V, DIAG_TILE_SHAPE, op_use_loc(op, rv), "'%s': the %" PRId64 "x%" PRId64 " window at (%" PRId64 ", %" PRId64
              ") leaves the %lldx%lld %s tile", v_opname(op), sr, sc, r, c, (long long)host->dims[0],
              (long long)host->dims[1], op->kind == OP_TEXTRACT ? "source" : "destination");
}

/* The rules of the ops above; 0 for any other op. */
static int check_misc(VCtx *V, Op *op)
{
    switch (op->kind) {
    case OP_TCVT: check_cvt(V, op); return 1;
    case OP_TSORT32: case OP_TMRGSORT: check_sort(V, op); return 1;
    case OP_TRANDOM: check_rand(V, op); return 1;
    case OP_TMOV: case OP_TEXTRACT: case OP_TINSERT: check_mov(V, op); return 1;
    default: return verify_tile_extra(V, op);
    }
}

static int check_cube(VCtx *V, Op *op);

void verify_tile(VCtx *V, Op *op)
{
    if (op->kind == OP_FUNC) {
        check_plan(V, op);
        return;
    }
    if (op_info[op->kind].fam != FAM_TILE) return;
    verify_tile_more(V, op);   /* verify_tile_extra.c */
    const TileRule *r = rule_of(op->kind);
    if (check_misc(V, op) || verify_tile_reduce(V, op) || check_cube(V, op)) return;
    if (r) check_ew(V, op, r);
    else if (op->kind == OP_TLOAD || op->kind == OP_TSTORE) check_dma(V, op);
    else check_view(V, op);
}

/* ---- reductions, expands and partial ops (ops/tile/tile_reduce.c; the A5 templates' constraints) ---- */

enum { RS_NUM = 0, RS_SUMPROD, RS_COLSUM, RS_COLPROD, RS_COLARG, RS_EXP, RS_DIVF, RS_DIVC, RS_FLT };

/* The element types each template instantiates (lib/TileOps/a5: _row_reductions.py, tcolsum.py, tcolprod.py,
   _col_arg.py, _expand_binary.py, tcolexpanddiv.py). */
static int red_accepts(int set, ElemKind k)
{
    switch (set) {
    case RS_SUMPROD: return k == EK_F16 || k == EK_F32 || k == EK_S16 || k == EK_S32;
    case RS_COLSUM: return k == EK_S8 || k == EK_S16 || k == EK_S32 || k == EK_F16 || k == EK_BF16 || k == EK_F32;
    case RS_COLPROD: return k == EK_S16 || k == EK_S32 || k == EK_U16 || k == EK_U32 || k == EK_F16 || k == EK_BF16 ||
                            k == EK_F32;
    case RS_COLARG: return k == EK_F32 || k == EK_U32 || k == EK_F16 || k == EK_U16 || k == EK_S8 || k == EK_U8;
    case RS_EXP: return k == EK_S8 || k == EK_S16 || k == EK_S32 || k == EK_F16 || k == EK_BF16 || k == EK_F32;
    case RS_DIVF: case RS_FLT: return k == EK_F16 || k == EK_F32;
    case RS_DIVC: return k == EK_F16 || k == EK_F32 || k == EK_S16 || k == EK_S32;
    default: return ek_int(k) || ek_arith_float(k);
    }
}

static int red_set(int kind)
{
    switch (kind) {
    case OP_TROWSUM: case OP_TROWPROD: return RS_SUMPROD;
    case OP_TCOLSUM: return RS_COLSUM;
    case OP_TCOLPROD: return RS_COLPROD;
    case OP_TCOLARGMAX: case OP_TCOLARGMIN: return RS_COLARG;
    case OP_TROWEXPAND: case OP_TCOLEXPAND: case OP_TROWEXPANDADD: case OP_TROWEXPANDSUB: case OP_TROWEXPANDMUL:
    case OP_TROWEXPANDMAX: case OP_TROWEXPANDMIN: case OP_TCOLEXPANDADD: case OP_TCOLEXPANDSUB: case OP_TCOLEXPANDMUL:
    case OP_TCOLEXPANDMAX: case OP_TCOLEXPANDMIN: return RS_EXP;
    case OP_TROWEXPANDDIV: return RS_DIVF;
    case OP_TCOLEXPANDDIV: return RS_DIVC;
    case OP_TROWEXPANDEXPDIF: case OP_TCOLEXPANDEXPDIF: return RS_FLT;
    default: return RS_NUM;
    }
}

/* A row-major unboxed tile, or (when `col1` allows it) a column-major single-column one. */
static int need_rm_or_col1(VCtx *V, const Op *op, const char *g, int col1)
{
    const Type *t = grp_type(V, op, g);
    if (col1 && t && t->kind == TY_TILE_BUF && t->blayout == TBL_COL_MAJOR && t->dims[1] == 1 &&
        t->slayout != TSL_COL_MAJOR)
        return 0;
    return need_row_major(V, op, g);
}

static void shape_err(VCtx *V, const Op *op, const char *g, const char *rule, int64_t r, int64_t c)
{
    v_err(V, DIAG_TILE_SHAPE, grp_loc(V, op, g), "'%s' needs %s; '%s' has a %" PRId64 "x%" PRId64 " valid region",
          v_opname(op), rule, g, r, c);
}

static void check_reduce(VCtx *V, Op *op)
{
    char b1[128], b2[128];
    static const char *const groups[] = {"src", "src0", "src1", "tmp", "dst"};
    const Type *dt = grp_type(V, op, "dst"), *st = grp_type(V, op, "src");
    if (!st) st = grp_type(V, op, "src0");
    if (!dt || !st || dt->kind != TY_TILE_BUF || st->kind != TY_TILE_BUF) return;
    for (unsigned i = 0; i < sizeof groups / sizeof groups[0]; i++)
        if (need_vec(V, op, groups[i])) return;
    int k = op->kind;
    int rowred = k == OP_TROWSUM || k == OP_TROWMAX || k == OP_TROWMIN || k == OP_TROWPROD || k == OP_TROWARGMAX ||
                 k == OP_TROWARGMIN;
    int colred = k == OP_TCOLSUM || k == OP_TCOLMAX || k == OP_TCOLMIN || k == OP_TCOLPROD || k == OP_TCOLARGMAX ||
                 k == OP_TCOLARGMIN;
    int rowexp = k == OP_TROWEXPAND || k == OP_TROWEXPANDADD || k == OP_TROWEXPANDSUB || k == OP_TROWEXPANDMUL ||
                 k == OP_TROWEXPANDDIV || k == OP_TROWEXPANDMAX || k == OP_TROWEXPANDMIN || k == OP_TROWEXPANDEXPDIF;
    int part = k == OP_TPARTADD || k == OP_TPARTMUL || k == OP_TPARTMAX || k == OP_TPARTMIN;
    int arg = k == OP_TROWARGMAX || k == OP_TROWARGMIN || k == OP_TCOLARGMAX || k == OP_TCOLARGMIN;
    /* layouts: row-major unboxed; a row reduction's destination and a row-expand's scalar column may be a
       column-major N x 1 tile (_row_reduction_layout, _row_expand_layout) */
    if (need_rm_or_col1(V, op, "src", k == OP_TROWEXPAND) || need_rm_or_col1(V, op, "src0", 0) ||
        need_rm_or_col1(V, op, "src1", rowexp && k != OP_TROWEXPAND) || need_rm_or_col1(V, op, "dst", rowred))
        return;
    /* element types */
    ElemKind ks = elem_kind(st->elem), kd = elem_kind(dt->elem);
    /* a5: the integer expand-divisions the compiler accepts without a TileLib template (lit
       issue522_expanddiv_a5_int_types: i8, i16, i32 for both) run pto-isa's vdiv on the element type */
    int intdiv = V->target != PTO_TARGET_A2A3 && (k == OP_TROWEXPANDDIV || k == OP_TCOLEXPANDDIV) &&
                 (ks == EK_S8 || ks == EK_S16 || ks == EK_S32);
    if (!intdiv && !red_accepts(red_set(k), ks)) {
        v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'%s' does not accept %s tiles", v_opname(op), tname(st->elem, b1, sizeof b1));
        return;
    }
    if (arg) {
        if (!(kd == EK_S32 || kd == EK_U32)) {
            v_err(V, DIAG_V_ELEM_TYPE, grp_loc(V, op, "dst"), "'%s' writes i32 or ui32 indices, not %s", v_opname(op),
                  tname(dt->elem, b1, sizeof b1));
            return;
        }
    } else if (st->elem != dt->elem) {
        v_err(V, DIAG_V_ELEM_TYPE, grp_loc(V, op, "dst"), "'%s' writes %s elements from %s ones; the tiles' element "
              "types must agree", v_opname(op), tname(dt->elem, b1, sizeof b1), tname(st->elem, b2, sizeof b2));
        return;
    }
    const Type *s1 = grp_type(V, op, "src1");
    if (s1 && s1->kind == TY_TILE_BUF && s1->elem != st->elem) {
        v_err(V, DIAG_V_ELEM_TYPE, grp_loc(V, op, "src1"), "'%s' combines %s and %s tiles", v_opname(op),
              tname(st->elem, b1, sizeof b1), tname(s1->elem, b2, sizeof b2));
        return;
    }
    /* valid regions known statically */
    int64_t sr, sc, dr, dc, r1 = 0, c1 = 0;
    if (!static_valid(dt, &dr, &dc) || !static_valid(st, &sr, &sc)) return;
    int have1 = s1 && s1->kind == TY_TILE_BUF && static_valid(s1, &r1, &c1);
    if (rowred) {
        if (dc != 1) shape_err(V, op, "dst", "a one-column destination", dr, dc);
        else if (dr != sr) shape_err(V, op, "dst", "a destination row per source row", dr, dc);
    } else if (colred) {
        if (dr != 1) shape_err(V, op, "dst", "a one-row destination", dr, dc);
        else if (dc != sc) shape_err(V, op, "dst", "a destination column per source column", dr, dc);
    } else if (k == OP_TROWEXPAND) {
        if (sr != dr || sc < 1) shape_err(V, op, "src", "a source column holding one value per destination row", sr, sc);
    } else if (k == OP_TCOLEXPAND) {
        if (sc != dc || sr < 1) shape_err(V, op, "src", "a source row holding one value per destination column", sr, sc);
    } else if (part) {
        const char *bad = NULL;
        int64_t br = 0, bc = 0;
        if (sr > dr || sc > dc) bad = "src0", br = sr, bc = sc;
        else if (have1 && (r1 > dr || c1 > dc)) bad = "src1", br = r1, bc = c1;
        if (bad) shape_err(V, op, bad, "source valid regions within the destination's", br, bc);
        else if ((k == OP_TPARTADD || k == OP_TPARTMUL) && have1 && !(sr == dr && sc == dc) && !(r1 == dr && c1 == dc))
            shape_err(V, op, "src0", "one source whose valid region is the destination's", sr, sc);
    } else {   /* expand binary */
        if (sr != dr || sc != dc) shape_err(V, op, "src0", "the destination's valid region", sr, sc);
        else if (have1 && rowexp && (r1 != dr || c1 < 1)) shape_err(V, op, "src1", "one value per destination row", r1, c1);
        else if (have1 && !rowexp && (c1 != dc || r1 < 1))
            shape_err(V, op, "src1", "one value per destination column", r1, c1);
    }
}

static int verify_tile_reduce(VCtx *V, Op *op)
{
    switch (op->kind) {
    case OP_TROWSUM: case OP_TROWMAX: case OP_TROWMIN: case OP_TROWPROD: case OP_TROWARGMAX: case OP_TROWARGMIN:
    case OP_TCOLSUM: case OP_TCOLMAX: case OP_TCOLMIN: case OP_TCOLPROD: case OP_TCOLARGMAX: case OP_TCOLARGMIN:
    case OP_TROWEXPAND: case OP_TCOLEXPAND: case OP_TROWEXPANDADD: case OP_TROWEXPANDSUB: case OP_TROWEXPANDMUL:
    case OP_TROWEXPANDDIV: case OP_TROWEXPANDMAX: case OP_TROWEXPANDMIN: case OP_TROWEXPANDEXPDIF:
    case OP_TCOLEXPANDADD: case OP_TCOLEXPANDSUB: case OP_TCOLEXPANDMUL: case OP_TCOLEXPANDDIV: case OP_TCOLEXPANDMAX:
    case OP_TCOLEXPANDMIN: case OP_TCOLEXPANDEXPDIF: case OP_TPARTADD: case OP_TPARTMUL: case OP_TPARTMAX:
    case OP_TPARTMIN:
        check_reduce(V, op);
        return 1;
    default: return 0;
    }
}

/* ==== cube tile ops (tile part 2; docs/tile.md "Cube tile ops") ==== */

/* A tile operand of a cube op must live in `space`. */
static int need_loc(VCtx *V, const Op *op, const char *g, int space)
{
    const Type *t = grp_type(V, op, g);
    if (!t || t->kind != TY_TILE_BUF || t->space == space) return 0;
    const char *have = tile_loc_name((AddrSpace)t->space), *want = tile_loc_name((AddrSpace)space);
    v_err(V, DIAG_TILE_LOC, grp_loc(V, op, g), "'%s' takes its '%s' tile in loc=%s, not loc=%s", v_opname(op), g,
          want ? want : "?", have ? have : "?");
    return 1;
}

/* The element types the A5 templates accept (lib/TileOps/a5/_cube.py): equal-width float or 8-bit integer
   operands with an f32 (i32 for i8) accumulator; the .mx forms fp8 or packed fp4 operands. */
static int cube_pair_ok(ElemKind a, ElemKind b, ElemKind c, int mx)
{
    int f8a = a == EK_E4M3 || a == EK_E5M2, f8b = b == EK_E4M3 || b == EK_E5M2;
    if (mx) return c == EK_F32 && ((f8a && f8b) || (ek_packed4(a) && ek_packed4(b)));
    if (a == EK_S8 || a == EK_U8) return (b == EK_S8 || b == EK_U8) && (c == EK_S32 || c == EK_U32);
    if (c != EK_F32) return 0;
    if (a == EK_F16 || a == EK_BF16 || a == EK_F32 || a == EK_HIF8) return a == b;
    return f8a && f8b;
}

/* tmatmul / tgemv and their forms: operand locations, K of the left tile = K of the right one, M and N fitting
   the accumulator, the element-type triple. */
/* Two extents agree unless both are static and differ. */
static int ext_differs(int64_t a, int64_t b) { return a >= 0 && b >= 0 && a != b; }

/* The .mx forms' shapes (PTOAS verifyA5MxMatTileOperands, verifyA5MxMatScaleTile): the physical K of lhs (its
   columns) and rhs (its rows) a positive multiple of 64; each scale tile [M, ceil(K/32)] (lscale) or
   [ceil(K/32), N] (rscale), in shape and in valid shape, with M and K of lhs and N of rhs. tgemv.mx
   (verifyA5MxGemvScaleTile) has no physical-K rule and takes M, K and N from the valid shapes for both, except that
   rscale's shape has rhs's physical columns. 1 when reported. */
static int check_mx_shapes(VCtx *V, const Op *op, const Type *a, const Type *b, int gemv)
{
    static const char *const kn[] = {"lhs", "rhs"};
    int64_t pk[2] = {a->dims[1], b->dims[0]};
    for (int i = 0; i < 2 && !gemv; i++)
        if (pk[i] >= 0 && (pk[i] < 1 || pk[i] % 64)) {
            v_err(V, DIAG_TILE_SHAPE, grp_loc(V, op, kn[i]), "'%s': %s's physical K (%lld) must be a positive multiple "
                  "of 64", v_opname(op), kn[i], (long long)pk[i]);
            return 1;
        }
    static const char *const sn[] = {"lscale", "rscale"};
    for (int i = 0; i < 2; i++) {
        const Type *t = grp_type(V, op, sn[i]);
        if (!t || t->kind != TY_TILE_BUF) continue;
        for (int v = 0; v < 2; v++) {   /* shape, then valid shape */
            int64_t m = a->dims[gemv ? 2 : 2 * v], k = a->dims[gemv ? 3 : 2 * v + 1];
            int64_t n = b->dims[gemv && v ? 3 : 2 * v + 1];
            int64_t sk = k >= 0 ? (k + 31) / 32 : -1, er = i ? sk : m, ec = i ? n : sk;
            if (ext_differs(t->dims[2 * v], er) || ext_differs(t->dims[2 * v + 1], ec)) {
                v_err(V, DIAG_TILE_SHAPE, grp_loc(V, op, sn[i]), "'%s': %s's %s must be %s = [%lld, %lld], not [%lld, "
                      "%lld]", v_opname(op), sn[i], v ? "valid shape" : "shape", i ? "[ceil(K/32), N]" : "[M, ceil(K/32)]",
                      (long long)er, (long long)ec, (long long)t->dims[2 * v], (long long)t->dims[2 * v + 1]);
                return 1;
            }
        }
    }
    return 0;
}

/* A boxed NZ mat tile as tmatmul's lhs or rhs: accepted with W-UNCONFIRMED (docs/semantics.md §14.5 "tmatmul on mat
   tiles"); 1 when it is one. */
static int mat_operand_ok(VCtx *V, const Op *op, const char *g, int mx, int gemv)
{
    const Type *t = grp_type(V, op, g);
    if (mx || gemv || !t || t->kind != TY_TILE_BUF || t->space != AS_L1 || t->blayout != TBL_COL_MAJOR ||
        t->slayout != TSL_ROW_MAJOR)
        return 0;
    v_warn(V, DIAG_V_UNCONFIRMED, grp_loc(V, op, g), "'%s' takes its '%s' tile in loc=%s; the compiler and pto-isa reject "
           "a loc=mat tile here, and ptosim multiplies it as if pto.tmov had moved it to a loc=%s tile first",
           v_opname(op), g, g[0] == 'l' ? "left" : "right", g[0] == 'l' ? "left" : "right");
    return 1;
}

static void check_matmul(VCtx *V, Op *op, int mx, int gemv)
{
    char b1[64], b2[64], b3[64];
    int bad = (mat_operand_ok(V, op, "lhs", mx, gemv) ? 0 : need_loc(V, op, "lhs", AS_L0A)) |
              (mat_operand_ok(V, op, "rhs", mx, gemv) ? 0 : need_loc(V, op, "rhs", AS_L0B)) | need_loc(V, op, "dst", AS_L0C) |
              need_loc(V, op, "acc", AS_L0C) | need_loc(V, op, "bias", AS_BT) | need_loc(V, op, "lscale", AS_FB) |
              need_loc(V, op, "rscale", AS_FB);
    if (bad) return;
    const Type *a = grp_type(V, op, "lhs"), *b = grp_type(V, op, "rhs"), *c = grp_type(V, op, "dst");
    if (!a || !b || !c || a->kind != TY_TILE_BUF || b->kind != TY_TILE_BUF || c->kind != TY_TILE_BUF) return;
    ElemKind ea = elem_kind(a->elem), eb = elem_kind(b->elem), ec = elem_kind(c->elem);
    if (!cube_pair_ok(ea, eb, ec, mx)) {
        v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'%s' does not multiply %s by %s into %s (the A5 templates' pairs: "
              "f16/bf16/f32/hif8/fp8/i8 operands, f32 or i32 accumulators%s)", v_opname(op), tname(a->elem, b1, sizeof b1),
              tname(b->elem, b2, sizeof b2), tname(c->elem, b3, sizeof b3), mx ? "; .mx: fp8 or fp4 operands" : "");
        return;
    }
    /* MLIR's f8E4M3 is e4m3 everywhere but in the MX pairs (PTOAS isA5MxFp8InputType: f8E4M3FN and f8E5M2) */
    const Type *tw = mx && a->elem->kind == TY_FLOAT && a->elem->fk == FK_E4M3 ? a
                   : mx && b->elem->kind == TY_FLOAT && b->elem->fk == FK_E4M3 ? b : NULL;
    if (tw) {
        v_err(V, DIAG_V_ELEM_TYPE, grp_loc(V, op, tw == a ? "lhs" : "rhs"), "'%s' takes f8E4M3FN or f8E5M2 fp8 operands; "
              "f8E4M3 (MLIR's IEEE-style e4m3) is not one of the compiler's MX input types", v_opname(op));
        return;
    }
    if (mx && check_mx_shapes(V, op, a, b, gemv)) return;
    int64_t ar, ac, br, bc, cr, cc;
    if (!static_valid(a, &ar, &ac) || !static_valid(b, &br, &bc) || !static_valid(c, &cr, &cc)) return;
    if (ac != br)
        v_err(V, DIAG_TILE_SHAPE, grp_loc(V, op, "rhs"), "'%s': the left tile's K (%" PRId64 " valid columns) differs "
              "from the right tile's K (%" PRId64 " valid rows)", v_opname(op), ac, br);
    else if ((gemv ? 1 : ar) > c->dims[0] || bc > c->dims[1])
        v_err(V, DIAG_TILE_SHAPE, grp_loc(V, op, "dst"), "'%s': the %" PRId64 "x%" PRId64 " product does not fit the "
              "%lldx%lld accumulator tile", v_opname(op), gemv ? (int64_t)1 : ar, bc, (long long)c->dims[0],
              (long long)c->dims[1]);
}

/* The cube tile ops' rules; 0 for any other op. */
static int check_cube(VCtx *V, Op *op)
{
    switch (op->kind) {
    case OP_TMATMUL: case OP_TMATMUL_ACC: case OP_TMATMUL_BIAS: check_matmul(V, op, 0, 0); return 1;
    case OP_TMATMUL_MX: case OP_TMATMUL_MX_ACC: case OP_TMATMUL_MX_BIAS: check_matmul(V, op, 1, 0); return 1;
    case OP_TGEMV: case OP_TGEMV_ACC: case OP_TGEMV_BIAS: check_matmul(V, op, 0, 1); return 1;
    case OP_TGEMV_MX: case OP_TGEMV_MX_ACC: case OP_TGEMV_MX_BIAS: check_matmul(V, op, 1, 1); return 1;
    default: return 0;
    }
}
