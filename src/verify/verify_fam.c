/* verify_fam.c — relational rules, one function per op family, and their dispatch: this file holds post-update
 * pointers, sync and the compiler's conversion cast; the memory families (pointers, DMA, cube) are in
 * verify_mem.c, the vector-scope families (predicates, vector ops, vector-address forms) in verify_vec.c. The
 * structural pass has already checked each operand on its own; these rules relate operands to each other, to
 * clauses and tokens, and to the target profile. */
#include "verify_fam.h"
#include "base/fmtspec.h"

/* ------------------------------------------------------------------ post-update pointers */

/* A post-update form returns the advanced base pointer: same type as the base (resolutions §2.3). */
static void check_post_update(VCtx *V, Op *op)
{
    Value *pn = v_res_named(V, op, "pn");
    if (!pn) return;
    const OpSig *sig = ctx_sig(V->ctx, op->kind);
    for (unsigned j = 0; j < sig->npos; j++) {
        const SigSlot *s = &sig->pos[j];
        if ((s->kind != SL_VALUE && s->kind != SL_MEM) || s->tc != TC_PTR) continue;
        Value *base = op_group_operand(op, (unsigned)s->group, 0);
        char a[96], b[96];
        if (base && base->type != pn->type)
            v_err(V, DIAG_V_RESULT_TYPE, op->loc, "the updated pointer %%%s of '%s' has type %s; it must have the base "
                  "pointer's type %s", v_valname(pn), v_opname(op), tyn(pn->type, a), tyn(base->type, b));
        return;
    }
}

/* ------------------------------------------------------------------ sync */

static void check_int_attr(VCtx *V, Op *op, const char *name, int64_t lo, int64_t hi, const char *what)
{
    const Attr *a = op_attr(op, name);
    if (a && a->kind == AT_INT && (a->i < lo || a->i > hi))
        v_err(V, DIAG_V_RANGE, a->loc.file ? a->loc : op->loc, "the %s of '%s' must be in [%" PRId64 ", %" PRId64 "], "
              "not %" PRId64, what, v_opname(op), lo, hi, a->i);
}

static void check_const_operand(VCtx *V, Op *op, const char *grp, int64_t lo, int64_t hi, const char *what)
{
    int64_t x;
    if (v_const_int(v_grp(V, op, grp, 0), &x) && (x < lo || x > hi))
        v_err(V, DIAG_V_RANGE, v_gloc(V, op, grp, 0), "the %s of '%s' must be in [%" PRId64 ", %" PRId64 "], not %" PRId64, what,
              v_opname(op), lo, hi, x);
}

/* pto.syncall (PTOAS SyncAllOp::verify, pto-isa SYNCALL): hard takes no operand; soft takes a GM workspace of i32
   (a pointer, not a memref, or a tensor/partition view of at least 16 elements when its shape is static) and an optional i32
   participant count. */
static void check_syncall(VCtx *V, Op *op)
{
    char a[96];
    int m = op_token_id(op, "mode");
    if (m < 0 || op_token_id(op, "core_type") < 0) {
        v_err(V, DIAG_V_ATTR, op->loc, "'pto.syncall' needs mode = #pto.sync_all_mode<hard|soft> and core_type = "
              "#pto.sync_core_type<aiv_only|aic_only|mix>");
        return;
    }
    Value *gm = v_grp(V, op, "gm", 0), *used = v_grp(V, op, "used", 0);
    if (m == T_SYNCMODE_HARD) {
        if (gm || used)
            v_err(V, DIAG_V_OPERAND_COUNT, gm ? v_gloc(V, op, "gm", 0) : v_gloc(V, op, "used", 0),
                  "a hard 'pto.syncall' takes no gm_workspace and no used_cores (the FFTS flags need no memory)");
        return;
    }
    if (!gm) {
        v_err(V, DIAG_V_OPERAND_COUNT, op->loc, "a soft 'pto.syncall' needs its gm_workspace (the GM counter of the "
              "barrier) and takes an optional used_cores");
        return;
    }
    const Type *t = gm->type, *e = NULL;
    SrcLoc gl = v_gloc(V, op, "gm", 0);
    if (t->kind == TY_PTR && t->rank) {
        v_err(V, DIAG_V_OPERAND_TYPE, gl, "the gm_workspace of 'pto.syncall' is a pointer, a tensor view or a "
              "partition view, not %s", tyn(t, a));
        return;
    }
    if (t->kind == TY_PTR) {
        if (t->space != AS_GM)
            v_err(V, DIAG_V_ADDR_SPACE, gl, "the gm_workspace of 'pto.syncall' must be in GM, not %s", tyn(t, a));
        e = t->elem;
    } else if (t->kind == TY_TENSOR_VIEW || t->kind == TY_PART_VIEW) {
        e = t->elem;
        int64_t cap = 1;
        int dyn = t->rank == 0;
        for (unsigned i = 0; i < t->rank; i++) {
            if (t->dims[i] == TILE_DYN) { dyn = 1; continue; }
            if (t->dims[i] <= 0) {
                v_err(V, DIAG_V_OPERAND_TYPE, gl, "the gm_workspace of 'pto.syncall' has a dimension of %lld",
                      (long long)t->dims[i]);
                return;
            }
            if (__builtin_mul_overflow(cap, t->dims[i], &cap)) cap = INT64_MAX;
        }
        if (t->rank == 0)
            v_err(V, DIAG_V_OPERAND_TYPE, gl, "the gm_workspace of 'pto.syncall' must have rank 1 or more");
        else if (!dyn && cap < 16)
            v_err(V, DIAG_V_CAPACITY, gl, "the gm_workspace of 'pto.syncall' holds %lld i32 elements; the barrier "
                  "needs 16 (64 bytes, one cache line of its own)", (long long)cap);
    } else {
        v_err(V, DIAG_V_OPERAND_TYPE, gl, "the gm_workspace of 'pto.syncall' must be a GM pointer, a tensor_view or "
              "a partition_tensor_view, not %s", tyn(t, a));
        return;
    }
    if (!e || e->kind != TY_INT || e->bits != 32)
        v_err(V, DIAG_V_ELEM_TYPE, gl, "the gm_workspace of 'pto.syncall' holds i32 counters, not %s", tyn(e, a));
    if (used && (used->type->kind != TY_INT || used->type->bits != 32))
        v_err(V, DIAG_V_OPERAND_TYPE, v_gloc(V, op, "used", 0), "the used_cores of 'pto.syncall' is an i32, not %s",
              tyn(used->type, a));
}

static void fam_sync(VCtx *V, Op *op)
{
    const int64_t ev = V->tp->events - 1;
    switch (op->kind) {
    case OP_SYNCALL: check_syncall(V, op); break;
    case OP_SET_FLAG: case OP_WAIT_FLAG: {
        int t = op_token_id(op, "evt");
        if (t >= 0 && tok_ordinal(t) > ev)
            v_err(V, DIAG_V_RANGE, aloc(op, "evt"), "event id %s is beyond the %d events of the %s profile",
                  tok_spelling(t), V->tp->events, V->tp->name);
        break;
    }
    case OP_SET_FLAG_DYN: case OP_WAIT_FLAG_DYN: check_const_operand(V, op, "evt", 0, ev, "event id"); break;
    case OP_GET_BUF: case OP_RLS_BUF:
        check_int_attr(V, op, "id", 0, 31, "buffer id");
        check_int_attr(V, op, "mode", 0, 1, "mode");
        break;
    case OP_GET_BUF_DYN: case OP_RLS_BUF_DYN:
        check_const_operand(V, op, "id", 0, 31, "buffer id");
        check_int_attr(V, op, "mode", 0, 1, "mode");
        break;
    case OP_SET_INTRA_BLOCK: case OP_WAIT_INTRA_BLOCK: case OP_SYNC_SET: case OP_SYNC_WAIT:
    case OP_SET_CROSS_BLOCK: case OP_WAIT_CROSS_BLOCK: {
        /* the id is a literal or (as the compiler allows) an index value; sync.* may carry ffts_mode 0..2, the
           named cross-block set only 0 (PTOAS SetCrossBlockOp::verify), whose flags are 0..15 */
        int cross = op->kind == OP_SET_CROSS_BLOCK || op->kind == OP_WAIT_CROSS_BLOCK;
        int64_t hi = cross ? 15 : op->kind == OP_SYNC_SET || op->kind == OP_SYNC_WAIT ? 31 : V->tp->sems - 1;
        const Attr *fm = op_attr(op, "ffts_mode");
        if (cross && fm && fm->kind == AT_INT && fm->i != 0)
            v_err(V, DIAG_V_ATTR, fm->loc.file ? fm->loc : op->loc, "'%s' is ffts_mode 0 (cross-block), not %" PRId64,
                  v_opname(op), fm->i);
        if (!op_attr(op, "id") == !v_grp(V, op, "eid", 0))
            v_err(V, DIAG_V_OPERAND_COUNT, op->loc, "'%s' takes one semaphore id: a literal or a value", v_opname(op));
        if (hi >= 0 && !(op_info[op->kind].flags & V->tp->op_mask)) {
            check_int_attr(V, op, "id", 0, hi, cross ? "flag id" : "semaphore id");
            check_const_operand(V, op, "eid", 0, hi, cross ? "flag id" : "semaphore id");
        }
        check_int_attr(V, op, "ffts_mode", 0, 2, "ffts_mode");
        break;
    }
    case OP_SET_CROSS_CORE:
        check_const_operand(V, op, "core", 0, 1, "core id");
        check_const_operand(V, op, "evt", 0, 15, "semaphore id");
        break;
    case OP_WAIT_FLAG_DEV:
        /* wait_flag_dev %evt, or wait_flag_dev %core_id, %evt (the event is the last operand) */
        if (v_grp(V, op, "evt2", 0)) {
            check_const_operand(V, op, "evt", 0, 1, "core id");
            check_const_operand(V, op, "evt2", 0, 15, "semaphore id");
        } else {
            check_const_operand(V, op, "evt", 0, 15, "semaphore id");
        }
        break;
    default: break;
    }
}

/* ------------------------------------------------------------------ dispatch */

/* builtin.unrealized_conversion_cast: ptosim runs the casts the compiler leaves between scalar types of one
   width (i32 -> ui32, index -> i64), as the same bits, a memref to or from its pointer, and any value to its
   own type */
static void fam_unrealized_cast(VCtx *V, Op *op)
{
    char a[96], b[96];
    const Type *s = op->noperands && op->operands[0] ? op->operands[0]->type : NULL;
    const Type *d = op->nresults ? op->results[0]->type : NULL;
    int ok = s && d && (s->kind == TY_INT || s->kind == TY_FLOAT || s->kind == TY_INDEX) &&
             (d->kind == TY_INT || d->kind == TY_FLOAT || d->kind == TY_INDEX) && ty_bits(s) == ty_bits(d);
    if (s && s == d) ok = 1;   /* any value to its own type (a tile the compiler's passes bridge): a copy */
    /* a memref and the pointer to its first element, either way */
    if (s && d && s->kind == TY_PTR && d->kind == TY_PTR && s->elem == d->elem && s->space == d->space &&
        !s->rank != !d->rank)
        ok = 1;
    if (!ok)
        v_err(V, DIAG_V_OPERAND_TYPE, op->loc, "builtin.unrealized_conversion_cast runs only between scalar types of "
              "one width (the same bits), not %s to %s", tyn(s, a), tyn(d, b));
}

/* pto.print: a format string fmtspec.h accepts, whose conversion suits the scalar (docs/semantics.md §12) */
static void fam_print(VCtx *V, Op *op)
{
    const Attr *f = op_attr(op, "format");
    const Value *v = v_grp(V, op, "v", 0);
    if (!f || f->kind != AT_STR || !f->s || !v) return;
    char why[160], a[96];
    size_t at;
    int cls = fmt_class(f->s, &at, why, sizeof why);
    SrcLoc l = f->loc;
    if (l.file && cls < 0) l.col += (uint32_t)(1 + at);   /* the fault inside the literal */
    if (cls < 0) {
        v_err(V, DIAG_V_ATTR, l.file ? l : op->loc, "the format of 'pto.print': %s", why);
        return;
    }
    const Type *t = v->type;
    int isf = t && t->kind == TY_FLOAT;
    if (cls != FMT_NONE && isf != (cls == FMT_FLOAT))
        v_err(V, DIAG_V_OPERAND_TYPE, v_gloc(V, op, "v", 0), "the conversion of 'pto.print''s format takes %s, not %s",
              cls == FMT_FLOAT ? "a float" : "an integer or index", tyn(t, a));
}

/* An FP8 (e4m3 or e5m2 kind) arith.constant, scalar or vector: the compiler's VPTO backend makes FP8 values only by
   conversion (PTOAS PTOValidateVPTOIR validateAuthoringOperationSurface; lit simt_fp8_direct_constant_unsupported) */
static void fam_fp8_constant(VCtx *V, Op *op)
{
    const Type *t = op->nresults ? op->results[0]->type : NULL;
    if (t && t->kind == TY_VEC) t = t->elem;
    if (!V->tp->fp8 || !t || t->kind != TY_FLOAT || (t->fk != FK_E4M3FN && t->fk != FK_E4M3 && t->fk != FK_E5M2)) return;
    char a[96];
    v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'arith.constant' does not make %s values on %s: the compiler builds FP8 values "
          "only by conversion (pto.convert, pto.vcvt)", tyn(t, a), V->tp->name);
}

void verify_family(VCtx *V, Op *op)
{
    if (op->kind == OP_UNREALIZED_CAST) fam_unrealized_cast(V, op);
    if (op->kind == OP_ARITH_CONSTANT) fam_fp8_constant(V, op);
    if (op->kind == OP_PRINT) fam_print(V, op);
    if (!op->segs) return;
    check_post_update(V, op);
    fam_vaddr(V, op);
    switch (op_info[op->kind].fam) {
    case FAM_PTR: fam_ptr(V, op); break;
    case FAM_DMA: case FAM_DMA_CFG: fam_dma(V, op); break;
    case FAM_CUBE_DMA:
        fam_dma(V, op);
        if (op->kind == OP_MTE_L0C_L1 || op->kind == OP_MTE_L0C_GM || op->kind == OP_MTE_L0C_UB) fam_fixpipe(V, op);
        if (op->kind == OP_RAW_FILL_L1) fam_raw_fill(V, op);
        break;
    case FAM_MAD: fam_mad(V, op); break;
    case FAM_SYNC: fam_sync(V, op); break;
    case FAM_PRED_LS: case FAM_PRED_GEN: fam_pred(V, op); break;
    case FAM_VLS: case FAM_VMAT: case FAM_VUN: case FAM_VBIN: case FAM_VSCAL: case FAM_VCVT: case FAM_VRED:
    case FAM_VCMP: case FAM_VREARR: case FAM_VSFU:
        fam_vec(V, op);
        break;
    default: break;
    }
}
