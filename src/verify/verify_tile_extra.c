/* verify_tile_extra.c — the rules of the tile layer's "extra" ops (the block at the end of isa/ops_tile.def:
 * tci, taxpy, taddc/tsubc/taddsc/tsubsc, ttri, tconcat(idx), ttrans, tpow(s), tgather(b), tscatter, mgather,
 * mscatter, thistogram, tquant, tdequant, tprint, tprefetch, tsync, treshape); docs/verifier.md "Tile ops".
 * Each rule is the compiler's own (PTOAS include/PTO/IR/PTOOps.td and its verifiers, as the lit negatives of
 * test/lit/pto state them), per target where the compiler makes it per target. */
#include "verify_int.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const Type *gty(const VCtx *V, const Op *op, const char *g, unsigned i)
{
    const Value *v = v_grp(V, op, g, i);
    return v ? v->type : NULL;
}

static int is_tile(const Type *t) { return t && t->kind == TY_TILE_BUF; }
static ElemKind tek(const Type *t) { return t && t->elem ? elem_kind(t->elem) : EK_BAD; }
static int a2a3(const VCtx *V) { return V->target == PTO_TARGET_A2A3; }

/* Every tile operand of a vector op lives in UB. */
static int need_vec_all(VCtx *V, const Op *op)
{
    for (uint32_t i = 0; i < op->noperands; i++) {
        const Type *t = op->operands[i]->type;
        if (!is_tile(t) || t->space == AS_UB) continue;
        const char *loc = tile_loc_name((AddrSpace)t->space);
        v_err(V, DIAG_TILE_LOC, op_operand_loc(op, i), "'%s' computes on the vector unit: its tiles must be loc=vec, "
              "not loc=%s", v_opname(op), loc ? loc : "?");
        return 1;
    }
    return 0;
}

static int ext_known_differ(int64_t a, int64_t b) { return a >= 0 && b >= 0 && a != b; }

/* Two tiles' static valid shapes differ (a dynamic dimension never differs). */
static int valid_differs(const Type *a, const Type *b)
{
    for (int d = 2; d < 4; d++)
        if (a->dims[d] >= 0 && b->dims[d] >= 0 && a->dims[d] != b->dims[d]) return 1;
    return 0;
}

static void shape_err(VCtx *V, const Op *op, const char *g, const char *a, const char *b)
{
    v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, g, 0), "'%s' expects %s and %s to have the same valid shape", v_opname(op), a, b);
}

static int same_elem(VCtx *V, const Op *op, const char *ga, const char *gb)
{
    const Type *a = gty(V, op, ga, 0), *b = gty(V, op, gb, 0);
    if (!is_tile(a) || !is_tile(b) || a->elem == b->elem) return 0;
    v_err(V, DIAG_V_ELEM_TYPE, v_gloc(V, op, gb, 0), "'%s' expects '%s' and '%s' to have the same element type",
          v_opname(op), ga, gb);
    return 1;
}

/* tpow / tpows: base and exponent of one element type; tmp only for floats, with dst's valid shape; the
   high-precision algorithm only on a5 and only for f16/f32/bf16. */
static void check_pow(VCtx *V, Op *op)
{
    const char *src = op->kind == OP_TPOW ? "base" : "src";
    const Type *s = gty(V, op, src, 0), *d = gty(V, op, "dst", 0), *tmp = gty(V, op, "tmp", 0);
    if (op->kind == OP_TPOW && same_elem(V, op, "base", "exp")) return;
    if (same_elem(V, op, src, "dst")) return;
    ElemKind k = tek(s);
    if (tmp && ek_int(k)) {
        v_err(V, DIAG_V_OPERAND_COUNT, v_gloc(V, op, "tmp", 0), "'%s' does not accept tmp when the element type is "
              "an integer", v_opname(op));
        return;
    }
    if (tmp && is_tile(d) && is_tile(tmp) && valid_differs(tmp, d)) { shape_err(V, op, "tmp", "tmp", "dst"); return; }
    const Attr *p = op_token(op, "precisionType");
    if (p && p->s && strcmp(p->s, "high_precision") == 0) {
        if (a2a3(V))
            v_err(V, DIAG_V_TARGET_OP, p->loc, "'%s': a2a3 does not support precisionType=high_precision", v_opname(op));
        else if (k != EK_F16 && k != EK_F32 && k != EK_BF16)
            v_err(V, DIAG_V_ELEM_TYPE, p->loc, "'%s' expects f16, f32 or bf16 tiles when precisionType=high_precision",
                  v_opname(op));
    }
}

/* tgather: the index form ins(src, indices, tmp?) outs(dst) and the compare form ins(src, kValue, tmp) outs(dst,
   cdst). */
/* The mask-pattern form of tgather, ins(src, {maskPattern = #pto.mask_pattern<Pxxxx>} : T, "row"|"col") outs(dst)
   (PTOAS TGatherOp::verify, its mask form): row-major tiles of one element width, dst's valid columns its whole
   width, an axis; along the axis the valid extents agree, across it src holds 1 (P1111), 2 (P0101, P1010) or 4
   (the other patterns) times dst's. */
static void check_gather_mask(VCtx *V, Op *op, const Attr *mp)
{
    const Type *s = gty(V, op, "src", 0), *d = gty(V, op, "dsts", 0);
    const Attr *ax = op_attr(op, "axis");
    if (v_grp_len(V, op, "rest") || v_grp_len(V, op, "dsts") != 1) {
        v_err(V, DIAG_V_OPERAND_COUNT, op->loc, "'%s' mask-pattern form takes ins(src, {maskPattern = ...} : T, axis) "
              "outs(dst)", v_opname(op));
        return;
    }
    if (!is_tile(s) || !is_tile(d)) return;
    if (s->blayout != TBL_ROW_MAJOR || d->blayout != TBL_ROW_MAJOR) {
        v_err(V, DIAG_TILE_LAYOUT, op->loc, "'%s' mask-pattern form takes row-major tiles", v_opname(op));
        return;
    }
    if (ty_bytes(s->elem) != ty_bytes(d->elem)) {
        v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'%s' mask-pattern form: src and dst elements of one size", v_opname(op));
        return;
    }
    if (d->dims[3] >= 0 && d->dims[1] >= 0 && d->dims[3] != d->dims[1]) {
        v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, "dsts", 0), "'%s' mask-pattern form: dst's valid columns must be its "
              "%lld columns", v_opname(op), (long long)d->dims[1]);
        return;
    }
    if (!ax || !ax->s)   /* docs/semantics.md §14.6 "tgather mask form without an axis" */
        v_warn(V, DIAG_V_DEPRECATED, op->loc, "'%s' mask-pattern form without its axis is the form before PTOAS "
               "2026-08 (bb284c03); read as \"row\", pto-isa's default (GATHER_ROW); the current compiler requires "
               "\"row\" or \"col\" after the type", v_opname(op));
    const char *axis = ax && ax->s ? ax->s : "row";
    const char *p = mp->s ? mp->s : "";
    int64_t times = strstr(p, "P1111") ? 1 : (strstr(p, "P0101") || strstr(p, "P1010")) ? 2 : 4;
    int col = !strcmp(axis, "col");
    int along = col ? 3 : 2, across = col ? 2 : 3;   /* dims[2] valid rows, dims[3] valid columns */
    if (ext_known_differ(s->dims[along], d->dims[along]) ||
        (s->dims[across] >= 0 && d->dims[across] >= 0 && s->dims[across] != d->dims[across] * times))
        v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, "dsts", 0), "'%s' mask-pattern form along %s: src's valid %s must equal "
              "dst's and its valid %s be %lld times dst's", v_opname(op), axis, col ? "columns" : "rows",
              col ? "rows" : "columns", (long long)times);
}

static void check_gather(VCtx *V, Op *op)
{
    const Attr *mp = op_attr(op, "maskPattern");
    if (mp) {
        check_gather_mask(V, op, mp);
        return;
    }
    unsigned nrest = v_grp_len(V, op, "rest"), ndst = v_grp_len(V, op, "dsts");
    const Type *s = gty(V, op, "src", 0), *d = gty(V, op, "dsts", 0);
    const Value *r0 = v_grp(V, op, "rest", 0), *r1 = v_grp(V, op, "rest", 1);
    if (!nrest || nrest > 2 || !ndst || ndst > 2) {
        v_err(V, DIAG_V_OPERAND_COUNT, op->loc, "'%s' takes ins(src, indices[, tmp]) outs(dst) or ins(src, kValue, tmp) "
              "outs(dst, cdst)", v_opname(op));
        return;
    }
    int cmp = !is_tile(r0->type);
    ElemKind ks = tek(s);
    if (cmp) {
        if (nrest != 2 || ndst != 2) {
            v_err(V, DIAG_V_OPERAND_COUNT, op->loc, "'%s' compare form takes ins(src, kValue, tmp) outs(dst, cdst)",
                  v_opname(op));
            return;
        }
        if (a2a3(V)) {
            int eq = op_token_id(op, "cmpMode") == T_CMP_EQ;
            if (!(ks == EK_F16 || ks == EK_F32 || (eq && (ks == EK_S32 || ks == EK_U32))))
                v_err(V, DIAG_V_ELEM_TYPE, v_gloc(V, op, "src", 0), "'%s' on a2a3: the compare form's src must be f16 or "
                      "f32, or i32 when cmpMode = eq", v_opname(op));
        }
        return;
    }
    if (ndst != 1) {
        v_err(V, DIAG_V_OPERAND_COUNT, op->loc, "'%s' index form has one destination", v_opname(op));
        return;
    }
    if (a2a3(V) && nrest != 2) {
        v_err(V, DIAG_V_OPERAND_COUNT, op->loc, "'%s' on a2a3: the index form needs both indices and tmp", v_opname(op));
        return;
    }
    unsigned sb = is_tile(s) ? ty_bytes(s->elem) : 0;
    int fl = ks == EK_F16 || ks == EK_F32, in = ek_int(ks) && (sb == 2 || sb == 4);
    int ok = a2a3(V) ? fl || in : (sb == 1 || fl || in) && ks != EK_BAD;
    if (!ok) {
        v_err(V, DIAG_V_ELEM_TYPE, v_gloc(V, op, "src", 0), "'%s' expects src and dst elements of %s", v_opname(op),
              a2a3(V) ? "i16, i32, f16 or f32 on a2a3" : "i8, i16, i32, f16 or f32 (or an 8-bit float) on a5");
        return;
    }
    if (is_tile(d) && d->elem != s->elem) { same_elem(V, op, "src", "dsts"); return; }
    ElemKind ki = tek(r0->type);
    if (!(ki == EK_S32 || ki == EK_U32 || (!a2a3(V) && (ki == EK_S16 || ki == EK_U16)))) {
        v_err(V, DIAG_V_ELEM_TYPE, op_use_loc(op, r0), "'%s' expects indices of %s", v_opname(op),
              a2a3(V) ? "i32 on a2a3" : "i32 or i16");
        return;
    }
    if (r1 && is_tile(r1->type) && valid_differs(r0->type, r1->type))
        v_err(V, DIAG_TILE_SHAPE, op_use_loc(op, r1), "'%s' expects indices and tmp to have the same valid shape",
              v_opname(op));
}

/* mgather / mscatter: coalesce is required by mgather and by an mscatter that sets another scatter mode; a row
   coalesce index tile is one row or one column of dst's valid rows; GM->L1 gathers index from GM. */
static void check_mgs(VCtx *V, Op *op)
{
    int g = op->kind == OP_MGATHER;
    const Attr *co = op_token(op, "coalesce");
    if (g && !co) {
        v_err(V, DIAG_V_ATTR, op->loc, "'%s' requires the attribute 'coalesce' (#pto<coalesce row|elem>)", v_opname(op));
        return;
    }
    if (!g && !co && (op_attr(op, "scatterAtomicOp") || op_attr(op, "scatterOob") || op_attr(op, "scatterConflict"))) {
        v_err(V, DIAG_V_ATTR, op->loc, "'%s' needs 'coalesce' when scatterAtomicOp, scatterOob or scatterConflict is set",
              v_opname(op));
        return;
    }
    const Type *idx = gty(V, op, "idx", 0), *t = gty(V, op, g ? "dst" : "src", 0), *sc = gty(V, op, "scratch", 0);
    if (g && is_tile(t) && t->space == AS_L1) {   /* PTOAS verifyMGatherGm2L1; pto-isa a5 MGatherCheckGm2L1 */
        int elem = co && co->s && strcmp(co->s, "elem") == 0;
        /* (rows a multiple of 16, columns of C0: already the alloc_tile rule of a boxed 512-byte fractal) */
        if (is_tile(idx))
            v_err(V, DIAG_TILE_LOC, v_gloc(V, op, "idx", 0), "'%s': a GM->L1 gather takes its indices from a GM view, "
                  "not a tile", v_opname(op));
        else if (t->blayout != TBL_COL_MAJOR || t->slayout != TSL_ROW_MAJOR || t->fractal != 512)
            v_err(V, DIAG_TILE_LAYOUT, v_gloc(V, op, "dst", 0), "'%s': a GM->L1 gather writes an NZ mat tile "
                  "(blayout=col_major, slayout=row_major, fractal=512)", v_opname(op));
        else if (idx && ty_bytes(idx->elem) != 4)
            v_err(V, DIAG_V_ELEM_TYPE, v_gloc(V, op, "idx", 0), "'%s': GM->L1 gather indices are i32", v_opname(op));
        else if (elem && !sc)
            v_err(V, DIAG_V_OPERAND_COUNT, op->loc, "'%s' with coalesce = elem into an L1 tile needs a GM scratch view "
                  "(ins(mem, idx, scratch))", v_opname(op));
        else if (!elem && sc)
            v_err(V, DIAG_V_OPERAND_COUNT, v_gloc(V, op, "scratch", 0), "'%s' with coalesce = row into an L1 tile takes no "
                  "scratch view", v_opname(op));
        else if (sc && sc->elem != t->elem)
            v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, "scratch", 0), "'%s': the scratch view's element type must be the "
                  "destination's", v_opname(op));
        return;
    }
    if (g && sc) {
        v_err(V, DIAG_V_OPERAND_COUNT, v_gloc(V, op, "scratch", 0), "'%s' takes a scratch view only when it gathers into "
              "an L1 (mat) tile", v_opname(op));
        return;
    }
    if (co && co->s && strcmp(co->s, "row") == 0 && is_tile(idx) && is_tile(t)) {
        int64_t ir = idx->dims[2], ic = idx->dims[3], vr = t->dims[2];
        if (ir >= 0 && ic >= 0 && vr >= 0 && !((ir <= 1 && ic == vr) || (ir == vr && ic <= 1)))
            v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, "idx", 0), "'%s' with coalesce = row expects the index tile's valid "
                  "shape to be [0|1, %" PRId64 "] or [%" PRId64 ", 0|1] (the data tile's valid rows), not [%" PRId64
                  ", %" PRId64 "]", v_opname(op), vr, vr, ir, ic);
    }
}

/* thistogram (a5 only): byte selects the byte of each element that picks the bin: 0..3, 0..1 for ui16 sources;
   the legacy isMSB attribute may not be given together with byte. */
static void check_hist(VCtx *V, Op *op)
{
    if (a2a3(V)) {
        v_err(V, DIAG_V_TARGET_OP, op->loc, "'%s' is only available on a5", v_opname(op));
        return;
    }
    const Attr *b = op_attr(op, "byte");
    if (b && op_attr(op, "isMSB")) {
        v_err(V, DIAG_V_ATTR, b->loc, "'%s': 'byte' and the legacy 'isMSB' may not both be given", v_opname(op));
        return;
    }
    if (!b) return;
    const Type *s = gty(V, op, "src", 0);
    if (b->i < 0 || b->i > 3)
        v_err(V, DIAG_V_ATTR, b->loc, "'%s' expects byte in [0, 3], not %" PRId64, v_opname(op), b->i);
    else if (is_tile(s) && ty_bytes(s->elem) == 2 && b->i > 1)
        v_err(V, DIAG_V_ATTR, b->loc, "'%s' expects byte 0 or 1 for a 16-bit source, not %" PRId64, v_opname(op), b->i);
}

/* tquant (INT8_SYM / INT8_ASYM; the MX types are tquant.mx's): the offset operand exactly for INT8_ASYM; src and
   dst of one valid shape; on a2a3 the scale (fp) and offset tiles are column tiles (not row-major) and tmp has
   src's shape. */
static void check_quant(VCtx *V, Op *op)
{
    const Attr *q = op_token(op, "quant_type");
    const Type *s = gty(V, op, "src", 0), *d = gty(V, op, "dst", 0), *fp = gty(V, op, "fp", 0);
    const Type *off = gty(V, op, "offset", 0), *tmp = gty(V, op, "tmp", 0);
    int asym = q && q->s && strcmp(q->s, "INT8_ASYM") == 0, sym = q && q->s && strcmp(q->s, "INT8_SYM") == 0;
    if (asym && !off) {
        v_err(V, DIAG_V_OPERAND_COUNT, op->loc, "'%s': INT8_ASYM quantization needs an offset operand", v_opname(op));
        return;
    }
    if (sym && off) {
        v_err(V, DIAG_V_OPERAND_COUNT, v_gloc(V, op, "offset", 0), "'%s': INT8_SYM quantization takes no offset operand",
              v_opname(op));
        return;
    }
    if (is_tile(s) && is_tile(d) && valid_differs(s, d)) { shape_err(V, op, "dst", "src", "dst"); return; }
    if (!a2a3(V)) return;
    if (is_tile(fp) && fp->blayout == TBL_ROW_MAJOR) {
        v_err(V, DIAG_TILE_LAYOUT, v_gloc(V, op, "fp", 0), "'%s' on a2a3 expects the fp tile in a non-row-major layout",
              v_opname(op));
        return;
    }
    if (is_tile(off) && off->blayout == TBL_ROW_MAJOR) {
        v_err(V, DIAG_TILE_LAYOUT, v_gloc(V, op, "offset", 0), "'%s' on a2a3 expects the offset tile in a non-row-major "
              "layout", v_opname(op));
        return;
    }
    if (is_tile(tmp) && is_tile(s) && (tmp->dims[0] != s->dims[0] || tmp->dims[1] != s->dims[1]))
        v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, "tmp", 0), "'%s' on a2a3 expects tmp to have src's shape %lldx%lld",
              v_opname(op), (long long)s->dims[0], (long long)s->dims[1]);
}

/* The storage rules of tquant.mx past the element types (the PTOAS verifier's messages in test/lit/pto
   tquant_mx_grp_axis_invalid.pto; the pto-isa A5 TQuant kernels address the tiles by their physical columns):
   t[] = src, dst, exp, max, scaling with static shapes. Reports one E-TILE-SHAPE (or E-ATTR for a form the pinned
   pto-isa does not implement) and returns 1, else 0. */
static int mx_layout_rules(VCtx *V, Op *op, const Type *const *t, int fp4, int dn, int il)
{
    int64_t R = t[0]->dims[0], C = t[0]->dims[1], M = t[0]->dims[2], N = t[0]->dims[3];
    ElemKind sk = tek(t[0]);
    int b16 = sk != EK_F32;
    const Attr *al = op_token(op, "quantScaleAlg");
    int nv = al && al->s && strcmp(al->s, "nv") == 0;
    const char *why = NULL, *g = "src";
    char mxwhy[160];
    int unsup = 0;
    if (fp4 && C % 2) why = "src's physical columns to be even (the packed fp4 destination is addressed by them)";
    else if ((fp4 || !dn) && t[1]->dims[1] != (fp4 ? C / 2 : C))   /* MXFP4 on both axes, MXFP8 on axis1 */
        g = "dst", why = fp4 ? "dst's physical columns to be src's physical columns / 2 (MXFP4)"
                             : "dst's physical columns to equal src's physical columns (MXFP8)";
    else if (il && sk == EK_F32) unsup = 1, why = "interleave with an f32 source";
    else if (il && M % 64) why = "src's valid rows to be a multiple of 64 with interleave";
    else if (il && R % 64) why = "src's physical rows to be a multiple of 64 with interleave";
    else if (il && (t[2]->dims[2] != M / 64 || t[2]->dims[3] != 2 * N))
        g = "exp", why = "exp's valid shape to be [M/64, 2N] with interleave";
    else if (il && t[2]->dims[0] != R / 64) g = "exp", why = "exp's physical rows to be src's physical rows / 64 with interleave";
    else if (il && t[2]->dims[1] != (2 * C + 31) / 32 * 32)
        g = "exp", why = "exp's physical columns to be 2 x src's physical columns rounded up to 32 with interleave";
    else if (dn && fp4 && sk == EK_F16 && (C / 2) % 32) unsup = 1, why = "f16 MXFP4 along axis0 with a packed row of no multiple of 32 bytes";
    else if (!dn && t[2]->dims[2] == 1 && M > 1) {   /* axis1, the flat [1, M*N/32] form */
        int64_t sbytes = t[4]->dims[0] * t[4]->dims[1] * (int64_t)ty_bytes(t[4]->elem);
        if (b16 && nv) unsup = 1, why = "the flat axis1 form with a 16-bit source and the nv scale algorithm";
        else if (t[2]->dims[0] != 1) g = "exp", why = "the flat exp to have one physical row";
        else if (C != N) why = "a tight source (physical columns = valid columns) with the flat exp";
        else if (t[2]->dims[3] != M * N / 32) { /* exp's own shape rule reports it first, as the compiler does */ }
        else {
            /* the flat kernels store the scaling vector by whole registers: f32 scales aligned to 64 (256 bytes),
               twice as many when the f32 source is unrolled (more than 1024 elements, whole 256-element
               registers); 16-bit OCP scales aligned to 128 (256 bytes) */
            int64_t groups = M * N / 32, need;
            int unroll = R * C > 1024 && (R * C) % 256 == 0 && (M * C) % 256 == 0;
            if (b16) need = (groups + 127) / 128 * 128 * 2;
            else need = ((unroll ? 2 * groups : groups) + 63) / 64 * 64 * 4;
            if (sbytes < need) {
                snprintf(mxwhy, sizeof mxwhy, "scaling's storage to hold at least %lld bytes in the flat form (%s)",
                         (long long)need, b16 ? "16-bit scales of M*N/32 groups rounded up to 128" : unroll ?
                         "f32 scales of an unrolled source: 2 x M*N/32 rounded up to 64" : "f32 scales of M*N/32 groups "
                         "rounded up to 64");
                g = "scaling", why = mxwhy;
            }
        }
    } else if (!dn && b16 && t[2]->dims[2] == M && M > 1)
        unsup = 1, why = "the canonical [M, N/32] axis1 form with a 16-bit source";
    if (!why && b16 && N < C && 128 % C == 0 && (M * C) % 128)
        unsup = 1, why = "a padded 16-bit source whose padding, stored by whole vector registers, ends in a partial one";
    if (!why) return 0;
    if (unsup)
        v_err(V, DIAG_V_ATTR, op->loc, "'%s' does not support %s (the pto-isa revision the compiler pins has no kernel "
              "for it)", v_opname(op), why);
    else
        v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, g, 0), "'%s' expects %s", v_opname(op), why);
    return 1;
}

/* tquant.mx (PTOAS TQuantMxOp::verify): a5 only; quant_type MXFP8 or MXFP4_E2M1; src f32 / f16 / bf16, max and
   scaling of src's element type, exp 8-bit integers, dst i8 / ui8 (MXFP8) or f4E2M1x2 from an f16 / bf16 source
   (MXFP4); static shapes; src's valid extent along grpAxis a multiple of 32; dst's valid shape src's (fp4: half the
   columns); max, scaling and exp [M/32, N] (axis0) or [M, N/32] or the flat [1, M*N/32] (axis1); interleave only
   with axis0; exp_zz and storeMode together; every tile ND-style (row-major, none_box). */
static void check_quant_mx(VCtx *V, Op *op)
{
    char b[128];
    if (a2a3(V)) { v_err(V, DIAG_V_TARGET_OP, op->loc, "'%s' is only available on a5", v_opname(op)); return; }
    const Attr *q = op_token(op, "quant_type"), *ax = op_token(op, "grpAxis"), *il = op_attr(op, "interleave");
    int fp4 = q && q->s && strcmp(q->s, "MXFP4_E2M1") == 0, dn = ax && ax->s && strcmp(ax->s, "axis0") == 0;
    if (q && q->s && !fp4 && strcmp(q->s, "MXFP8") != 0) {
        v_err(V, DIAG_V_ATTR, q->loc, "'%s' expects quant_type MXFP8 or MXFP4_E2M1, not %s", v_opname(op), q->s);
        return;
    }
    if (il && il->i && !dn) {
        v_err(V, DIAG_V_ATTR, il->loc, "'%s' expects interleave only with grpAxis = axis0", v_opname(op));
        return;
    }
    if (!v_grp(V, op, "exp_zz", 0) != !op_attr(op, "storeMode")) {
        v_err(V, DIAG_V_OPERAND_COUNT, op->loc, "'%s' takes exp_zz and storeMode together or neither", v_opname(op));
        return;
    }
    static const char *const g[] = {"src", "dst", "exp", "max", "scaling"};
    const Type *t[5];
    for (int i = 0; i < 5; i++) {
        t[i] = gty(V, op, g[i], 0);
        if (!is_tile(t[i])) return;
        if (t[i]->blayout != TBL_ROW_MAJOR || t[i]->slayout != TSL_NONE_BOX) {
            v_err(V, DIAG_TILE_LAYOUT, v_gloc(V, op, g[i], 0), "'%s' expects ND-style tiles (row-major, none_box); %s "
                  "is %s", v_opname(op), g[i], v_tyname(t[i], b, sizeof b));
            return;
        }
        for (int d = 0; d < 4; d++)
            if (t[i]->dims[d] < 0) {
                v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, g[i], 0), "'%s' expects static shapes and valid shapes; %s is "
                      "%s", v_opname(op), g[i], v_tyname(t[i], b, sizeof b));
                return;
            }
    }
    ElemKind sk = tek(t[0]), dk = tek(t[1]);
    const char *bad = NULL, *why = NULL;
    if (sk != EK_F32 && sk != EK_F16 && sk != EK_BF16) bad = "src", why = "f32, f16 or bf16";
    else if (!ek_int(tek(t[2])) || ty_bytes(t[2]->elem) != 1) bad = "exp", why = "8-bit integers";
    else if (t[3]->elem != t[0]->elem) bad = "max", why = "src's element type";
    else if (t[4]->elem != t[0]->elem) bad = "scaling", why = "src's element type";
    else if (!fp4 && (!ek_int(dk) || ty_bytes(t[1]->elem) != 1)) bad = "dst", why = "i8 or ui8 (MXFP8)";
    else if (fp4 && dk != EK_F4E2M1) bad = "dst", why = "!pto.f4E2M1x2 (MXFP4_E2M1)";
    else if (fp4 && sk == EK_F32) bad = "src", why = "f16 or bf16 for MXFP4_E2M1";
    if (bad) {
        v_err(V, DIAG_V_ELEM_TYPE, v_gloc(V, op, bad, 0), "'%s' expects %s elements of %s, not %s", v_opname(op), bad,
              why, v_tyname(gty(V, op, bad, 0)->elem, b, sizeof b));
        return;
    }
    int64_t M = t[0]->dims[2], N = t[0]->dims[3];
    if ((dn ? M : N) % 32 || M <= 0 || N <= 0) {
        v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, "src", 0), "'%s' groups 32 elements along axis %d: src's valid "
              "shape %" PRId64 "x%" PRId64 " is no multiple of 32 there", v_opname(op), dn ? 0 : 1, M, N);
        return;
    }
    if (t[1]->dims[2] != M || t[1]->dims[3] != (fp4 ? N / 2 : N)) {
        v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, "dst", 0), "'%s' expects dst's valid shape to be %" PRId64 "x%" PRId64,
              v_opname(op), M, fp4 ? N / 2 : N);
        return;
    }
    if (mx_layout_rules(V, op, t, fp4, dn, il && il->i)) return;
    int64_t gr = dn ? M / 32 : M, gc = dn ? N : N / 32;
    for (int i = 2; i < 5; i++) {
        int64_t r = t[i]->dims[2], c = t[i]->dims[3];
        /* max and scaling compact in their storage; exp may have wider rows (the canonical axis1 exp of the
           compiler's tquant_mx_grp_axis_emitc kernel: valid 16x2 in 16x32) */
        /* axis0: rows of src's physical width (the compiler's lit positive tquant_mx_grp_axis_emitc keeps a 64x16
           valid source in 64x32 and its [2, 16] exponents in 2x32) */
        if (dn && r == gr && c == gc && t[i]->dims[1] == t[0]->dims[1]) continue;
        if (!dn && ((r == gr && c == gc && (r == 1 || i == 2 || t[i]->dims[1] == c)) || (r == 1 && c == gr * gc))) continue;
        if (i == 2 && il && il->i) continue;   /* the interleaved exponent layout: not simulated (lowering says so) */
        if (dn)
            v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, g[i], 0), "'%s' expects %s's valid shape to be %" PRId64 "x%" PRId64
                  " ([M/32, N] for grpAxis = axis0) in rows of src's physical width (%" PRId64 ")", v_opname(op), g[i], gr, gc,
                  t[0]->dims[1]);
        else
            v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, g[i], 0), "'%s' expects %s's valid shape to be %" PRId64 "x%" PRId64
                  " ([M, N/32]) or the flat 1x%" PRId64 " (grpAxis = axis1)%s", v_opname(op), g[i],
                  gr, gc, gr * gc, i == 2 ? "" : ", compact in its storage");
        return;
    }
}

/* treshape (PTOAS TReshapeOp::verify, pto-isa TRESHAPE): tiles of one location, static shapes, the same total
   bytes, and no change between boxed and unboxed layouts. */
static void check_reshape(VCtx *V, Op *op)
{
    char b1[128], b2[128];
    const Type *s = gty(V, op, "src", 0), *r = op->nresults ? op->results[0]->type : NULL;
    if (!is_tile(s) || !is_tile(r)) return;
    if (s->space != r->space) {
        v_err(V, DIAG_TILE_LOC, op->loc, "'%s' keeps the tile's location: %s into %s", v_opname(op),
              v_tyname(s, b1, sizeof b1), v_tyname(r, b2, sizeof b2));
        return;
    }
    if (s->dims[0] < 0 || s->dims[1] < 0 || r->dims[0] < 0 || r->dims[1] < 0) {
        v_err(V, DIAG_TILE_SHAPE, op->loc, "'%s' expects static shapes", v_opname(op));
        return;
    }
    uint64_t sb = (uint64_t)s->dims[0] * (uint64_t)s->dims[1] * ty_bytes(s->elem);
    uint64_t rb = (uint64_t)r->dims[0] * (uint64_t)r->dims[1] * ty_bytes(r->elem);
    if (sb != rb) {
        v_err(V, DIAG_TILE_SHAPE, op->loc, "'%s' keeps the tile's bytes: %s holds %" PRIu64 ", %s %" PRIu64,
              v_opname(op), v_tyname(s, b1, sizeof b1), sb, v_tyname(r, b2, sizeof b2), rb);
        return;
    }
    if ((s->slayout == TSL_NONE_BOX) != (r->slayout == TSL_NONE_BOX))
        v_err(V, DIAG_TILE_LAYOUT, op->loc, "'%s' cannot reshape between boxed and unboxed tile layouts (%s into %s)",
              v_opname(op), v_tyname(s, b1, sizeof b1), v_tyname(r, b2, sizeof b2));
}

/* Same element type and valid shape for every tile of an element-wise extra op. */
static void check_same(VCtx *V, Op *op, const char *const *g, unsigned n)
{
    const Type *d = gty(V, op, "dst", 0);
    for (unsigned i = 0; i < n; i++) {
        const Type *t = gty(V, op, g[i], 0);
        if (!is_tile(t) || !is_tile(d)) continue;
        if (same_elem(V, op, g[i], "dst")) return;
        if (valid_differs(t, d)) { shape_err(V, op, g[i], g[i], "dst"); return; }
    }
}

int verify_tile_extra(VCtx *V, Op *op)
{
    static const char *const tt[] = {"src0", "src1", "src2"}, *const tst[] = {"src0", "src1"};
    switch (op->kind) {
    case OP_TCI: case OP_TAXPY: case OP_TADDC: case OP_TSUBC: case OP_TADDSC: case OP_TSUBSC: case OP_TTRI:
    case OP_TCONCAT: case OP_TCONCATIDX: case OP_TTRANS: case OP_TPOW: case OP_TPOWS: case OP_TGATHER: case OP_TGATHERB:
    case OP_TSCATTER: case OP_THISTOGRAM: case OP_TQUANT: case OP_TQUANT_MX: case OP_TDEQUANT:
        if (need_vec_all(V, op)) return 1;
        break;
    case OP_MGATHER: case OP_MSCATTER: case OP_TPRINT: case OP_TPREFETCH: case OP_TSYNC: case OP_TRESHAPE:
    case OP_CMO_CACHEINVALID: case OP_TASSIGN: break;
    case OP_DECLARE_LOCAL_ARRAY: return 1;
    case OP_LOCAL_ARRAY_GET: case OP_LOCAL_ARRAY_SET: {   /* PTOAS LocalArrayGetOp / LocalArraySetOp */
        const Type *a = op->noperands ? op->operands[0]->type : NULL;
        int set = op->kind == OP_LOCAL_ARRAY_SET;
        if (!a || a->kind != TY_LOCAL_ARRAY) return 1;
        uint32_t ni = op->noperands - 1 - (uint32_t)set;
        const Type *e = set ? op->operands[op->noperands - 1]->type : op->nresults ? op->results[0]->type : NULL;
        int64_t c;
        if (ni != a->rank) {
            v_err(V, DIAG_V_OPERAND_COUNT, op->loc, "'%s' takes %u indices for its rank-%u array, not %u", v_opname(op),
                  a->rank, a->rank, ni);
            return 1;
        }
        if (e && e != a->elem) {
            char b1[64], b2[64];
            ty_format(a->elem, b1, sizeof b1);
            ty_format(e, b2, sizeof b2);
            v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'%s' %s the array's element type %s, not %s", v_opname(op),
                  set ? "writes" : "yields", b1, b2);
            return 1;
        }
        for (uint32_t i = 0; i < ni; i++)
            if (v_const_int(op->operands[1 + i], &c) && (c < 0 || c >= a->dims[i])) {
                v_err(V, DIAG_TILE_SHAPE, op->loc, "'%s': index %" PRId64 " of dimension %u is outside %lld", v_opname(op),
                      c, i, (long long)a->dims[i]);
                return 1;
            }
        return 1;
    }
    case OP_TGET_SCALE_ADDR: {   /* pto-isa docs/isa/TGET_SCALE_ADDR.md: A5 only; a left/right source, a scaling dst */
        const Type *s = gty(V, op, "src", 0), *d = gty(V, op, "dst", 0);
        if (a2a3(V))
            v_err(V, DIAG_V_TARGET_OP, op->loc, "'%s' is only available on a5", v_opname(op));
        else if (is_tile(s) && s->space != AS_L0A && s->space != AS_L0B)
            v_err(V, DIAG_TILE_LOC, v_gloc(V, op, "src", 0), "'%s' takes a left or right tile", v_opname(op));
        else if (is_tile(d) && d->space != AS_FB)
            v_err(V, DIAG_TILE_LOC, v_gloc(V, op, "dst", 0), "'%s' binds a scaling tile", v_opname(op));
        return 1;
    }
    case OP_COMM_BUILD_ASYNC_SESSION: {   /* PTOAS BuildAsyncSessionOp::verify */
        const Type *t = gty(V, op, "scratch", 0), *w = gty(V, op, "workspace", 0);
        if (is_tile(t) && t->space != AS_UB)
            v_err(V, DIAG_TILE_LOC, v_gloc(V, op, "scratch", 0), "'%s' takes its scratch in a vec tile", v_opname(op));
        else if (is_tile(t) && (t->dims[0] < 0 || t->dims[1] < 0 || t->dims[0] * t->dims[1] * (int64_t)ty_bytes(t->elem) < 8))
            v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, "scratch", 0), "'%s' needs a scratch tile of a static shape holding at "
                  "least 8 bytes", v_opname(op));
        if (w && w->kind == TY_PTR && !(w->elem && w->elem->kind == TY_INT && w->elem->bits == 8))
            v_err(V, DIAG_V_ELEM_TYPE, v_gloc(V, op, "workspace", 0), "'%s' takes a workspace of 8-bit integers",
                  v_opname(op));
        static const struct { const char *name; int64_t lo, hi; } rng[] = {
            {"sync_id", 0, 7}, {"block_bytes", 1, INT64_MAX}, {"comm_block_offset", 0, INT64_MAX},
            {"queue_num", 1, INT64_MAX}, {"channel_group_idx", 0, UINT32_MAX}};
        for (unsigned i = 0; i < sizeof rng / sizeof rng[0]; i++) {
            const Attr *a = op_attr(op, rng[i].name);
            if (a && a->kind == AT_INT && (a->i < rng[i].lo || a->i > rng[i].hi))
                v_err(V, DIAG_V_RANGE, a->loc.file ? a->loc : op->loc, "'%s': %s is %" PRId64 ", outside [%" PRId64 ", %"
                      PRId64 "]", v_opname(op), rng[i].name, a->i, rng[i].lo, rng[i].hi);
        }
        return 1;
    }
    case OP_COMM_TPUT_ASYNC: case OP_COMM_TGET_ASYNC: {   /* PTOAS verifyAsyncTransferOp: two static logical 1-D views */
        const Type *d = gty(V, op, "dst", 0), *s = gty(V, op, "src", 0);
        if (!d || !s || !ty_is_view(d) || !ty_is_view(s)) return 1;
        if (d->elem != s->elem) {
            v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'%s': src and dst have different element types", v_opname(op));
            return 1;
        }
        for (int k = 0; k < 2; k++) {
            const Type *t = k ? s : d;
            const char *nm = k ? "src" : "dst";
            for (int i = 0; i < t->rank; i++)
                if (t->dims[i] < 0 || (i + 1 < t->rank && t->dims[i] != 1)) {
                    v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, nm, 0), "'%s' expects %s to be a static, flat, logically 1-D "
                          "GM view (every dimension but the last 1)", v_opname(op), nm);
                    return 1;
                }
        }
        int same = d->rank == s->rank;
        for (int i = 0; same && i < d->rank; i++) same = d->dims[i] == s->dims[i];
        if (!same) v_err(V, DIAG_TILE_SHAPE, op->loc, "'%s': src and dst have different shapes", v_opname(op));
        return 1;
    }
    case OP_TPREFETCH_ASYNC: {   /* PTOAS TPrefetchAsyncOp: a static flat logical 1-D GM view (one dim above 1) */
        const Type *t = gty(V, op, "src", 0);
        int big = 0, dyn = 0;
        for (int d = 0; t && ty_is_view(t) && d < t->rank; d++) {
            dyn |= t->dims[d] < 0;
            big += t->dims[d] > 1;
        }
        if (t && ty_is_view(t) && (dyn || big > 1))
            v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, "src", 0), "'%s' expects src to be a static, logically 1-D GM view "
                  "(at most one dimension above 1)", v_opname(op));
        return 1;
    }
    default: return 0;
    }
    switch (op->kind) {
    case OP_TADDC: case OP_TSUBC: check_same(V, op, tt, 3); break;
    case OP_TADDSC: case OP_TSUBSC: check_same(V, op, tst, 2); break;
    case OP_TPOW: case OP_TPOWS: check_pow(V, op); break;
    case OP_TGATHER: check_gather(V, op); break;
    case OP_MGATHER: case OP_MSCATTER: check_mgs(V, op); break;
    case OP_CMO_CACHEINVALID: {   /* the target: a GM view or a GM pointer (lit issue995_cmo_partition_view_emitc) */
        const Type *t = gty(V, op, "target", 0);
        if (t && !ty_is_view(t) && !(t->kind == TY_PTR && t->space == AS_GM))
            v_err(V, DIAG_V_OPERAND_TYPE, v_gloc(V, op, "target", 0), "'%s': a single_cache_line target is a GM pointer "
                  "or a GM tensor view", v_opname(op));
        break;
    }
    case OP_THISTOGRAM: check_hist(V, op); break;
    case OP_TQUANT: check_quant(V, op); break;
    case OP_TQUANT_MX: check_quant_mx(V, op); break;
    case OP_TRESHAPE: check_reshape(V, op); break;
    case OP_TASSIGN:   /* PTOAS TAssignOp: AllTypesMatch<["tile", "result"]> */
        if (op->nresults && op->noperands && op->results[0]->type != op->operands[0]->type) {
            char b1[160], b2[160];
            ty_format(op->operands[0]->type, b1, sizeof b1);
            ty_format(op->results[0]->type, b2, sizeof b2);
            v_err(V, DIAG_PARSE_TYPE_MISMATCH, op->loc, "'%s' keeps the tile's type: %s, not %s", v_opname(op), b1, b2);
        }
        break;
    case OP_TSCATTER:
        if (!v_grp(V, op, "idx", 0) == !op_attr(op, "maskPattern"))
            v_err(V, DIAG_V_OPERAND_COUNT, op->loc, "'%s' takes exactly one of an index operand and a maskPattern "
                  "attribute", v_opname(op));
        break;
    case OP_TPRINT:
        if (v_grp(V, op, "tmp", 0) && !is_tile(gty(V, op, "src", 0)))
            v_err(V, DIAG_V_OPERAND_COUNT, v_gloc(V, op, "tmp", 0), "'%s' takes tmp only when src is a tile",
                  v_opname(op));
        break;
    case OP_TPREFETCH: {
        const Type *s = gty(V, op, "src", 0);
        if (a2a3(V) && s && s->elem && ty_bytes(s->elem) == 1 && !ek_int(tek(s)))
            v_err(V, DIAG_V_ELEM_TYPE, v_gloc(V, op, "src", 0), "'%s' on a2a3 does not take low-precision (8-bit or "
                  "4-bit float) elements", v_opname(op));
        break;
    }
    default: break;
    }
    return 1;
}

/* ------------------------------------------------------------------ rules of other tile ops the compiler checks */

/* An allocated tile's layout (PTOAS verifyTileBufLayoutConstraints): a boxed tile's rows are a multiple of the fractal's inner rows (except in UB, for fractal 32 and for one row) and its columns
   of the inner columns. */
static void check_alloc_layout(VCtx *V, Op *op)
{
    const Type *t = op->nresults ? op->results[0]->type : NULL;
    if (!is_tile(t)) return;
    int64_t e = (int64_t)ty_bytes(t->elem), rows = t->dims[0], cols = t->dims[1];
    if (e <= 0) return;
    /* none_box: a row (row_major) or column (col_major) of 32-byte multiples, on every target. A line that
       divides 32 bytes (16, 8, ...) is W-DEPRECATED, not an error: the compiler rejects it since 2026-05-12, but
       PTO-Gym's hardware-validated tcmps kernel (256x16 ui8, 16-byte rows) predates the rule
       (docs/verifier.md, tests/tile/tile_pred.pto, tests/verify/bad_nonebox.pto). */
    if (t->slayout == TSL_NONE_BOX) {
        int rm = t->blayout == TBL_ROW_MAJOR;
        int64_t n = rm ? cols : rows, b = n * e;
        if (n < 0 || b % 32 == 0) return;
        if (32 % b == 0)
            v_warn(V, DIAG_V_DEPRECATED, op->loc, "'%s': a none_box tile's %s of %lld bytes is not a multiple of 32; "
                   "the compiler rejects it since 2026-05-12 (it packs %lld per 32-byte block)", v_opname(op),
                   rm ? "row" : "column", (long long)b, (long long)(32 / b));
        else
            v_err(V, DIAG_TILE_LAYOUT, op->loc, "'%s': a %s none_box tile's %s (%lld %s x %lld bytes = %lld bytes) "
                  "must be a multiple of 32 bytes", v_opname(op), rm ? "row-major" : "col-major", rm ? "row" : "column",
                  (long long)n, rm ? "columns" : "rows", (long long)e, (long long)b);
        return;
    }
    int64_t ir = 0, ic = 0;
    switch (t->fractal) {
    case 1024: ir = 16; ic = 16; break;
    case 32: ir = 16; ic = 2; break;
    case 512:
        if (32 % e) break;
        if (t->slayout == TSL_ROW_MAJOR) { ir = 16; ic = 32 / e; }
        else { ir = 32 / e; ic = 16; }
        break;
    default: break;
    }
    if (!ir) return;
    int loose = t->space == AS_UB || t->fractal == 32 || rows == 1;
    if (!loose && rows >= 0 && rows % ir)
        v_err(V, DIAG_TILE_LAYOUT, op->loc, "'%s': a boxed tile's rows must be a multiple of its fractal's %lld inner "
              "rows, not %lld", v_opname(op), (long long)ir, (long long)rows);
    else if (cols >= 0 && cols % ic)
        v_err(V, DIAG_TILE_LAYOUT, op->loc, "'%s': a boxed tile's columns must be a multiple of its fractal's %lld "
              "inner columns, not %lld", v_opname(op), (long long)ic, (long long)cols);
}

/* tinsert's location pairs per target (PTOAS TInsertOp): a5 acc->mat, acc->vec, vec->mat, vec->vec; a2a3 acc->mat
   and vec->vec, where acc->mat converts f32 to f16 or bf16 only, or quantises (an fp tile or a pre scalar) f32 to
   i8 and i32 to i8, f16 or i16. */
static const struct { uint8_t a5, a2a3, src, dst; } insert_pairs[] = {
    {1, 1, AS_L0C, AS_L1}, {1, 0, AS_L0C, AS_UB}, {1, 0, AS_UB, AS_L1}, {1, 1, AS_UB, AS_UB},
};

static void check_insert_pair(VCtx *V, Op *op)
{
    const Type *s = gty(V, op, "src", 0), *d = gty(V, op, "dst", 0);
    if (!is_tile(s) || !is_tile(d)) return;
    int ok = 0;
    for (unsigned i = 0; i < sizeof insert_pairs / sizeof insert_pairs[0]; i++)
        if (insert_pairs[i].src == s->space && insert_pairs[i].dst == d->space &&
            (a2a3(V) ? insert_pairs[i].a2a3 : insert_pairs[i].a5))
            ok = 1;
    if (!ok) {
        const char *sl = tile_loc_name((AddrSpace)s->space), *dl = tile_loc_name((AddrSpace)d->space);
        v_err(V, DIAG_TILE_LOC, v_gloc(V, op, "dst", 0), "'%s' on %s does not insert loc=%s into loc=%s (%s)", v_opname(op),
              a2a3(V) ? "a2a3" : "a5", sl ? sl : "?", dl ? dl : "?",
              a2a3(V) ? "acc->mat or vec->vec" : "acc->mat, acc->vec, vec->mat or vec->vec");
        return;
    }
    ElemKind ks = tek(s), kd = tek(d);
    if (!a2a3(V) || s->space != AS_L0C) return;
    if (v_grp(V, op, "fp", 0) || v_grp(V, op, "pre", 0)) {   /* quantising: f32 -> i8, i32 -> i8/f16/i16 */
        int i8 = kd == EK_S8 || kd == EK_U8;
        if (!((ks == EK_F32 && i8) || (ks == EK_S32 && (i8 || kd == EK_F16 || kd == EK_S16))))
            v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'%s' on a2a3 quantises an f32 acc tile into i8, an i32 one into i8, f16 "
                  "or i16", v_opname(op));
    } else if (!(ks == EK_F32 && (kd == EK_F16 || kd == EK_BF16))) {
        v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'%s' on a2a3 converts an f32 acc tile into f16 or bf16 (without an fp tile "
              "or a pre-quantisation scalar)", v_opname(op));
    }
}

/* textract's rules past the vec -> vec copy (PTOAS TExtractOp::verify, in its order; the first that fails is
   reported): the window inside the source by static shapes; an fp tile in loc=scaling; one element type unless the
   source is an acc tile; the element types of the target; the fp / pre / relu forms read an acc tile and
   accToVecMode is a5's acc -> vec; the location pairs (a5: mat -> left/right/scaling, vec -> mat/vec, acc ->
   mat/vec; a2a3: mat -> left/right, acc -> mat, vec -> vec); the layouts of each pair (vec -> vec: check_mov); an acc tile's conversions
   (a5: f32 -> f16/bf16/f32, i32 -> i32; quantising, f32 -> i8/fp8/f16/bf16/f32, i32 -> i8/f16/bf16; a2a3: f32 ->
   f16/bf16; quantising, f32 -> i8, i32 -> i8/f16/i16). A left tile's blayout is not checked: the compiler's
   parser replaces it by the target's (row_major on a2a3, col_major on a5; PTOAS resolveTileBufBLayout, lit
   left_blayout_parser_a3/a5). */
static int nz_tile(const Type *t) { return t->blayout != TBL_ROW_MAJOR && t->slayout == TSL_ROW_MAJOR; }
static int nd_tile(const Type *t) { return t->blayout == TBL_ROW_MAJOR && t->slayout == TSL_NONE_BOX; }
static int ek_is(ElemKind k, int intg, unsigned bytes) { return (intg ? ek_int(k) : ek_float(k)) && ek_bytes(k) == bytes; }

static void check_extract(VCtx *V, Op *op)
{
    const Type *s = gty(V, op, "src", 0), *d = gty(V, op, "dst", 0), *fp = gty(V, op, "fp", 0);
    if (!is_tile(s) || !is_tile(d)) return;
    const char *name = v_opname(op), *tg = a2a3(V) ? "a2a3" : "a5";
    const Value *rv = v_grp(V, op, "row", 0), *cv = v_grp(V, op, "col", 0);
    int64_t r, c;
    if (s->space != AS_UB || d->space != AS_UB) {   /* vec -> vec: check_mov (valid shapes) */
        if (rv && v_const_int(rv, &r) && s->dims[0] >= 0 && d->dims[0] >= 0 && r + d->dims[0] > s->dims[0]) {
            v_err(V, DIAG_TILE_SHAPE, op_use_loc(op, rv), "'%s': row %" PRId64 " + the destination's %lld rows exceed "
                  "the source's %lld", name, r, (long long)d->dims[0], (long long)s->dims[0]);
            return;
        }
        if (cv && v_const_int(cv, &c) && s->dims[1] >= 0 && d->dims[1] >= 0 && c + d->dims[1] > s->dims[1]) {
            v_err(V, DIAG_TILE_SHAPE, op_use_loc(op, cv), "'%s': column %" PRId64 " + the destination's %lld columns "
                  "exceed the source's %lld", name, c, (long long)d->dims[1], (long long)s->dims[1]);
            return;
        }
    }
    if (is_tile(fp) && fp->space != AS_FB) {
        v_err(V, DIAG_TILE_LOC, v_gloc(V, op, "fp", 0), "'%s': the fp tile is a loc=scaling tile", name);
        return;
    }
    ElemKind ks = tek(s), kd = tek(d);
    if (s->space != AS_L0C && s->elem != d->elem && !(s->space == AS_UB && d->space == AS_UB)) {
        v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'%s' keeps the element type out of a loc=%s tile", name,
              tile_loc_name((AddrSpace)s->space));
        return;
    }
    int hasfp = is_tile(fp), haspre = v_grp(V, op, "pre", 0) != NULL;
    const Attr *ra = op_attr(op, "reluPreMode"), *av = op_attr(op, "accToVecMode");
    int relu = ra && !(ra->s && strstr(ra->s, "no_relu"));
    int eok = a2a3(V) ? ek_is(kd, 1, 1) || kd == EK_F16 || kd == EK_BF16 || kd == EK_F32 || (hasfp && ek_is(kd, 1, 2))
                      : ek_is(kd, 1, 1) || ek_is(kd, 0, 1) || ek_packed4(kd) || kd == EK_F16 || kd == EK_BF16 ||
                        kd == EK_F32;
    if (!eok) {
        v_err(V, DIAG_V_ELEM_TYPE, v_gloc(V, op, "dst", 0), "'%s' on %s moves %s elements", name, tg,
              a2a3(V) ? "i8, f16, bf16 or f32" : "8-bit (integer, fp8, hif8), packed fp4, f16, bf16 or f32");
        return;
    }
    if ((hasfp || relu) && s->space != AS_L0C) {
        v_err(V, DIAG_TILE_LOC, hasfp ? v_gloc(V, op, "fp", 0) : ra->loc, "'%s': the %s form reads a loc=acc tile", name,
              hasfp ? "fp" : "reluPreMode");
        return;
    }
    if (av && (a2a3(V) || s->space != AS_L0C || d->space != AS_UB)) {
        v_err(V, DIAG_V_ATTR, av->loc, "'%s': accToVecMode belongs to the a5 acc -> vec form", name);
        return;
    }
    AddrSpace S = (AddrSpace)s->space, D = (AddrSpace)d->space;
    int pair = a2a3(V) ? (S == AS_L1 && (D == AS_L0A || D == AS_L0B)) || (S == AS_L0C && D == AS_L1) ||
                         (S == AS_UB && D == AS_UB)
                       : (S == AS_L1 && (D == AS_L0A || D == AS_L0B || D == AS_FB)) ||
                         (S == AS_UB && (D == AS_L1 || D == AS_UB)) || (S == AS_L0C && (D == AS_L1 || D == AS_UB));
    if (!pair) {
        const char *sl = tile_loc_name(S), *dl = tile_loc_name(D);
        v_err(V, DIAG_TILE_LOC, v_gloc(V, op, "dst", 0), "'%s' on %s does not extract loc=%s into loc=%s (%s)", name, tg,
              sl ? sl : "?", dl ? dl : "?", a2a3(V) ? "mat->left/right, acc->mat or vec->vec"
                                                  : "mat->left/right/scaling, vec->mat/vec or acc->mat/vec");
        return;
    }
    if ((haspre || relu) && S != AS_L0C) return;   /* reported by verify_tile_more (the pre form) */
    const char *lay = NULL, *lg = "src";   /* vec -> vec: ND tiles, check_mov's rule */
    int row = s->blayout == TBL_ROW_MAJOR;
    if (S == AS_L1) {
        if (!(a2a3(V) ? row || nz_tile(s) : (row && s->slayout == TSL_COL_MAJOR) || nz_tile(s) || (D == AS_L0A && row)))
            lay = a2a3(V) ? "the mat source is row_major, or col_major/row_major (NZ)"
                          : "the mat source is row_major/col_major (ZN), col_major/row_major (NZ) or, into a left tile, "
                            "row_major";
        else if (D == AS_L0A && d->slayout != TSL_ROW_MAJOR)   /* its blayout is the target's whatever is written */
            lay = "a left tile is row_major/row_major on a2a3, col_major/row_major on a5", lg = "dst";
        else if (D == AS_L0B && !(d->blayout == TBL_ROW_MAJOR && d->slayout == TSL_COL_MAJOR))
            lay = "a right tile is row_major/col_major", lg = "dst";
    } else if (S == AS_L0C) {
        if (!(s->blayout == TBL_COL_MAJOR && s->slayout == TSL_ROW_MAJOR))
            lay = "the acc source is col_major/row_major";
        else if (D == AS_L1 && !(d->blayout == TBL_COL_MAJOR && d->slayout == TSL_ROW_MAJOR))
            lay = "a mat destination of an acc source is col_major/row_major", lg = "dst";
        else if (D == AS_L1 && a2a3(V) && d->fractal != 512)
            lay = "a mat destination of an acc source has fractal 512 on a2a3", lg = "dst";
        else if (D == AS_UB && !nd_tile(d))
            lay = "a vec destination of an acc source is ND (row_major, none_box)", lg = "dst";
    }
    if (lay) {
        v_err(V, DIAG_TILE_LAYOUT, v_gloc(V, op, lg, 0), "'%s' on %s: %s", name, tg, lay);
        return;
    }
    if (S != AS_L0C) return;
    int i8 = ek_is(kd, 1, 1), q = hasfp || haspre, ok;
    if (a2a3(V))
        ok = q ? (ks == EK_F32 && i8) || (ek_is(ks, 1, 4) && (i8 || kd == EK_F16 || ek_is(kd, 1, 2)))
               : ks == EK_F32 && (kd == EK_F16 || kd == EK_BF16);
    else
        ok = q ? (ks == EK_F32 && (i8 || kd == EK_F16 || kd == EK_BF16 || kd == EK_F32 || ek_is(kd, 0, 1))) ||
                     (ek_is(ks, 1, 4) && (i8 || kd == EK_F16 || kd == EK_BF16))
               : (ks == EK_F32 && (kd == EK_F16 || kd == EK_BF16 || kd == EK_F32)) || (ek_is(ks, 1, 4) && ek_is(kd, 1, 4));
    if (!ok)
        v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'%s' on %s %s", name, tg,
              a2a3(V) ? (q ? "quantises an f32 acc tile into i8, an i32 one into i8, f16 or i16"
                           : "converts an f32 acc tile into f16 or bf16 (without an fp tile or a pre-quantisation scalar)")
                      : (q ? "quantises an f32 acc tile into i8, fp8, f16, bf16 or f32, an i32 one into i8, f16 or bf16"
                           : "converts an f32 acc tile into f16, bf16 or f32, an i32 one into i32"));
}

/* a2a3: tload / tstore move contiguous runs along the tile's row (ND) or column (DN), so a view whose stride along
   that run is a constant other than 1 is an error (PTOAS: "A2/A3 DMA lowering requires a unit innermost stride",
   lit vpto ub/tile_to_ub/transfer/tload_nonunit_stride); a run-time stride is checked when the op runs. The stride
   is the one make_tensor_view wrote, through any partition_view. */
static void check_dma_stride(VCtx *V, Op *op)
{
    int load = op->kind == OP_TLOAD;
    const Value *vv = v_grp(V, op, load ? "src" : "dst", 0);
    const Type *t = gty(V, op, load ? "dst" : "src", 0);
    if (!a2a3(V) || !vv || !is_tile(t) || t->slayout != TSL_NONE_BOX) return;
    const Op *d = vv->def;
    while (d && d->kind == OP_PARTITION_VIEW) d = d->noperands ? d->operands[0]->def : NULL;
    if (!d || d->kind != OP_MAKE_TENSOR_VIEW) return;
    unsigned n = v_grp_len(V, d, "strides");
    int dn = t->blayout == TBL_COL_MAJOR;
    if (n < 2u - !dn) return;
    /* a run of one element has no stride: the view's or the tile's static extent along it is 1 */
    const Type *vt = vv->type;
    int64_t vext = ty_is_view(vt) && vt->rank > (unsigned)dn ? vt->dims[vt->rank - 1 - dn] : -1;
    if (vext == 1 || t->dims[dn ? 2 : 3] == 1) return;
    const Value *sv = v_grp(V, d, "strides", n - 1 - (unsigned)dn);
    int64_t c;
    if (sv && v_const_int(sv, &c) && c != 1)
        v_err(V, DIAG_TILE_SHAPE, op->loc, "'%s' on a2a3 moves contiguous %s, so the view's %s stride must be 1, not "
              "%" PRId64 " (set at %u:%u)", v_opname(op), dn ? "columns" : "rows", dn ? "row" : "innermost", c,
              op_use_loc(d, sv).line, op_use_loc(d, sv).col);
}

/* The X-to-ZZ form of tmov (PTOAS TMovOp: a third tile that is not in loc=scaling): the MX exponent reorder from
   an ND (grpAxis axis1, the default) or DN (axis0) tile of 8-bit exponents into the ZZ-boxed layout, with a vec
   scratch tile. Only on a5; every shape static; the capacities the reorder touches (the ND form zero-pads the
   source in place up to 16-row groups). A grpAxis on any other form is an error. */
static void check_tmov_x2zz(VCtx *V, Op *op)
{
    const Value *sv = v_grp(V, op, "src", 0), *dv = v_grp(V, op, "dst", 0), *tv = v_grp(V, op, "tmp", 0);
    const Attr *ax = op_attr(op, "grpAxis");
    if (!tv || !is_tile(tv->type) || tv->type->space == AS_FB) {
        if (ax)
            v_err(V, DIAG_V_ATTR, ax->loc, "'%s': grpAxis belongs to the X-to-ZZ form only (a third tile that is not "
                  "loc=scaling)", v_opname(op));
        return;
    }
    if (!sv || !dv || !is_tile(sv->type) || !is_tile(dv->type)) return;
    const Type *s = sv->type, *d = dv->type, *t = tv->type;
    if (a2a3(V)) {
        v_err(V, DIAG_V_TARGET_OP, v_gloc(V, op, "tmp", 0), "'%s' X-to-ZZ form (src, vec tmp -> ZZ dst) exists on a5 "
              "only", v_opname(op));
        return;
    }
    static const char *const fpattr[] = {"reluPreMode", "accToVecMode", "preQuantScalar"};
    for (unsigned i = 0; i < 3; i++) {
        const Attr *a = op_attr(op, fpattr[i]);
        if (a && !(a->s && strstr(a->s, "no_relu"))) {
            v_err(V, DIAG_V_ATTR, a->loc, "'%s' X-to-ZZ form takes no %s", v_opname(op), fpattr[i]);
            return;
        }
    }
    static const char *const g3[] = {"src", "tmp", "dst"};
    for (unsigned i = 0; i < 3; i++) {
        const Type *x = gty(V, op, g3[i], 0);
        if (x->space != AS_UB) {
            const char *loc = tile_loc_name((AddrSpace)x->space);
            v_err(V, DIAG_TILE_LOC, v_gloc(V, op, g3[i], 0), "'%s' X-to-ZZ form: src, tmp and dst must be loc=vec tiles, "
                  "'%s' is loc=%s", v_opname(op), g3[i], loc ? loc : "?");
            return;
        }
    }
    if (sv == dv || sv == tv || dv == tv) {
        v_err(V, DIAG_TILE_SHAPE, op->loc, "'%s' X-to-ZZ form: src, tmp and dst must be three distinct tiles",
              v_opname(op));
        return;
    }
    for (int k = 0; k < 4; k++)
        if (s->dims[k] < 0 || d->dims[k] < 0 || (k < 2 && t->dims[k] < 0)) {
            v_err(V, DIAG_TILE_SHAPE, op->loc, "'%s' X-to-ZZ form needs static shapes and valid shapes for src and dst "
                  "and a static tmp shape", v_opname(op));
            return;
        }
    if (s->elem != d->elem || s->elem != t->elem) {
        v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'%s' X-to-ZZ form: src, tmp and dst must share one element type",
              v_opname(op));
        return;
    }
    ElemKind k = tek(s);
    if (k != EK_U8 && k != EK_HIF8 && k != EK_E8M0) {
        v_err(V, DIAG_V_ELEM_TYPE, v_gloc(V, op, "src", 0), "'%s' X-to-ZZ form moves ui8, hif8 or f8E8M0 exponents",
              v_opname(op));
        return;
    }
    if (s->blayout != TBL_ROW_MAJOR || s->slayout != TSL_NONE_BOX) {
        v_err(V, DIAG_TILE_LAYOUT, v_gloc(V, op, "src", 0), "'%s' X-to-ZZ form reads a row-major none_box src",
              v_opname(op));
        return;
    }
    if (d->blayout != TBL_ROW_MAJOR || d->slayout != TSL_ROW_MAJOR) {
        v_err(V, DIAG_TILE_LAYOUT, v_gloc(V, op, "dst", 0), "'%s' X-to-ZZ form writes a ZZ-boxed dst (blayout=row_major, "
              "slayout=row_major)", v_opname(op));
        return;
    }
    int64_t e = (int64_t)ty_bytes(s->elem);
    int64_t svr = s->dims[2], svc = s->dims[3], dvr = d->dims[2], dvc = d->dims[3];
    int64_t sbytes = s->dims[0] * s->dims[1] * e, dbytes = d->dims[0] * d->dims[1] * e, tbytes = t->dims[0] * t->dims[1] * e;
    if (svr * svc != dvr * dvc) {
        v_err(V, DIAG_TILE_SHAPE, op->loc, "'%s' X-to-ZZ form: src (%lldx%lld) and dst (%lldx%lld) valid regions hold "
              "different exponent counts", v_opname(op), (long long)svr, (long long)svc, (long long)dvr, (long long)dvc);
        return;
    }
    int axis0 = ax && ax->s && strstr(ax->s, "axis0");
    if (!axis0) {   /* ND to ZZ */
        int64_t need = (dvr + 15) / 16 * 16 * dvc * e, tneed = 64 + (dvr + 15) / 16 * dvc * e;
        if (dvc % 2)
            v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, "dst", 0), "'%s' ND-to-ZZ: dst's valid columns (%lld) must be even",
                  v_opname(op), (long long)dvc);
        else if (svr != 1 && s->dims[1] != svc)
            v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, "src", 0), "'%s' ND-to-ZZ: src's valid elements must be a compact "
                  "prefix (one row, or row stride %lld equal to the valid columns %lld)", v_opname(op),
                  (long long)s->dims[1], (long long)svc);
        else if (sbytes < need || dbytes < need)
            v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, sbytes < need ? "src" : "dst", 0), "'%s' ND-to-ZZ: %s holds %lld "
                  "bytes, less than the %lld of dst's rows rounded up to 16 times its columns", v_opname(op),
                  sbytes < need ? "src" : "dst", (long long)(sbytes < need ? sbytes : dbytes), (long long)need);
        else if (tbytes < tneed)
            v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, "tmp", 0), "'%s' ND-to-ZZ: tmp holds %lld bytes, it needs %lld "
                  "(64 + ceil(dst rows / 16) * dst columns)", v_opname(op), (long long)tbytes, (long long)tneed);
        return;
    }
    if (svr < 2 || svr % 2)   /* DN to ZZ */
        v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, "src", 0), "'%s' DN-to-ZZ: src's valid rows (%lld) must be an even count "
              ">= 2", v_opname(op), (long long)svr);
    else if (svc % 16)
        v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, "src", 0), "'%s' DN-to-ZZ: src's valid columns (%lld) must be a multiple "
              "of 16", v_opname(op), (long long)svc);
    else if (s->dims[1] != svc)
        v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, "src", 0), "'%s' DN-to-ZZ: src's row stride (%lld) must equal its valid "
              "columns (%lld)", v_opname(op), (long long)s->dims[1], (long long)svc);
    else if (sbytes < svr * svc * e || dbytes < svr * svc * e)
        v_err(V, DIAG_TILE_SHAPE, op->loc, "'%s' DN-to-ZZ: src and dst must hold src's valid rows times columns",
              v_opname(op));
}

void verify_tile_more(VCtx *V, Op *op)
{
    if (op->kind == OP_TMOV) check_tmov_x2zz(V, op);
    switch (op->kind) {
    case OP_ALLOC_TILE: check_alloc_layout(V, op); break;
    case OP_TCOLSUM: {   /* the binary-tree form keeps a src row of partial sums in tmp */
        const Attr *b = op_attr(op, "isBinary");
        const Type *s = gty(V, op, "src", 0), *tmp = gty(V, op, "tmp", 0);
        if (b && b->i && is_tile(s) && is_tile(tmp) && s->dims[3] >= 0 && tmp->dims[1] >= 0 && tmp->dims[1] < s->dims[3])
            v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, "tmp", 0), "'%s' with isBinary = true: tmp's %lld columns must be at "
                  "least src's %lld valid columns", v_opname(op), (long long)tmp->dims[1], (long long)s->dims[3]);
        break;
    }
    case OP_TLOAD: check_dma_stride(V, op); break;
    case OP_TINSERT: case OP_TEXTRACT: case OP_TSTORE: case OP_TMOV: {   /* PTOAS: the pre-quantisation scalar reads an
                                                                            acc tile, never together with an fp tile */
        if (op->kind == OP_TINSERT) check_insert_pair(V, op);
        if (op->kind == OP_TEXTRACT) check_extract(V, op);
        if (op->kind == OP_TSTORE) check_dma_stride(V, op);
        const Value *pre = v_grp(V, op, "pre", 0);
        const Type *s = gty(V, op, "src", 0);
        if (!pre) break;
        if (v_grp(V, op, op->kind == OP_TMOV ? "tmp" : "fp", 0))
            v_err(V, DIAG_V_OPERAND_COUNT, op_use_loc(op, pre), "'%s' takes an fp tile or a pre-quantisation scalar, "
                  "not both", v_opname(op));
        else if (is_tile(s) && s->space != AS_L0C)
            v_err(V, DIAG_TILE_LOC, op_use_loc(op, pre), "'%s': the pre-quantisation scalar form reads a loc=acc tile",
                  v_opname(op));
        break;
    }
    case OP_TRSQRT: case OP_TROWEXPANDDIV: {
        const Attr *p = op_token(op, "precisionType");
        if (p && p->s && strcmp(p->s, "high_precision") == 0 && !v_grp(V, op, "tmp", 0))
            v_err(V, DIAG_V_OPERAND_COUNT, p->loc, "'%s' needs a tmp tile when precisionType = high_precision",
                  v_opname(op));
        break;
    }
    case OP_TADDRELU: {   /* PTOAS TAddReluOp (A2/A3): i16, f16 or f32 */
        ElemKind k = tek(gty(V, op, "dst", 0));
        if (k != EK_BAD && !(k == EK_S16 || k == EK_U16 || k == EK_F16 || k == EK_F32))
            v_err(V, DIAG_V_ELEM_TYPE, v_gloc(V, op, "dst", 0), "'%s' takes i16, f16 or f32 tiles", v_opname(op));
        break;
    }
    case OP_TMAXS: {
        ElemKind k = tek(gty(V, op, "src", 0));
        if (a2a3(V) && k != EK_BAD && !(k == EK_S32 || k == EK_U32 || k == EK_S16 || k == EK_U16 || k == EK_F16 ||
                                        k == EK_F32))
            v_err(V, DIAG_V_ELEM_TYPE, v_gloc(V, op, "src", 0), "'%s' on a2a3 takes i32, i16, f16 or f32 tiles",
                  v_opname(op));
        break;
    }
    case OP_TSEL: {
        const Type *t = gty(V, op, "dst", 0);
        ElemKind k = tek(t);
        if (a2a3(V) && is_tile(t) && !(k == EK_F16 || k == EK_BF16 || k == EK_F32 ||
                                       (ek_int(k) && (ty_bytes(t->elem) == 2 || ty_bytes(t->elem) == 4))))
            v_err(V, DIAG_V_ELEM_TYPE, v_gloc(V, op, "dst", 0), "'%s' on a2a3 takes i16, i32, f16, bf16 or f32 tiles",
                  v_opname(op));
        break;
    }
    case OP_TXORS: {
        const Type *s = gty(V, op, "src", 0), *tmp = gty(V, op, "tmp", 0);
        if (!a2a3(V) || !is_tile(tmp) || !is_tile(s)) break;
        if (tmp->blayout != TBL_ROW_MAJOR)
            v_err(V, DIAG_TILE_LAYOUT, v_gloc(V, op, "tmp", 0), "'%s' on a2a3 expects a row-major tmp tile", v_opname(op));
        else if (tmp->elem != s->elem)
            v_err(V, DIAG_V_ELEM_TYPE, v_gloc(V, op, "tmp", 0), "'%s' on a2a3 expects tmp of src's element type",
                  v_opname(op));
        break;
    }
    case OP_TMRGSORT: {   /* formats 2-4 on a2a3: the tmp tile (the last input) is at least as wide as dst */
        unsigned n = v_grp_len(V, op, "srcs");
        const Type *tmp = n >= 3 ? gty(V, op, "srcs", n - 1) : NULL, *d = gty(V, op, "dsts", 0);
        if (a2a3(V) && is_tile(tmp) && is_tile(d) && tmp->dims[1] >= 0 && d->dims[1] >= 0 && tmp->dims[1] < d->dims[1])
            v_err(V, DIAG_TILE_SHAPE, v_gloc(V, op, "srcs", n - 1), "'%s' on a2a3 expects the tmp tile's %lld columns "
                  "to be at least the destination's %lld", v_opname(op), (long long)tmp->dims[1], (long long)d->dims[1]);
        break;
    }
    default: break;
    }
}
