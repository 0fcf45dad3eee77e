/* verify_mem.c — the relational rules of the memory families: scalar pointers and their loads and stores, DMA
 * copies (element widths, capacities, L1 -> L0 operand forms), and the cube: MAD and FIXPIPE write-back. */
#include "verify_fam.h"

/* ------------------------------------------------------------------ pointers */

void fam_ptr(VCtx *V, Op *op)
{
    char a[96], b[96];
    if (op->kind == OP_CASTPTR && op->noperands == 1 && op->nresults == 1) {
        const Type *s = op->operands[0]->type, *d = op->results[0]->type;
        if (ty_is_intlike(s) && ty_is_ptr(d)) {
            int64_t addr;
            if (v_const_addr(op->results[0], &addr)) v_check_capacity(V, op, op->results[0], addr, 1, "the address", NULL);
        } else if (ty_is_ptr(s) && ty_is_ptr(d)) {
            if (s->space != d->space)
                v_err(V, DIAG_V_ADDR_SPACE, op_operand_loc(op, 0), "pto.castptr may change the element type of a pointer but not its "
                      "address space (%s to %s)", as_name((AddrSpace)s->space), as_name((AddrSpace)d->space));
        } else if (!(ty_is_ptr(s) && ty_is_intlike(d))) {
            v_err(V, DIAG_V_OPERAND_TYPE, op_operand_loc(op, 0), "pto.castptr converts an integer to a pointer, a pointer to a pointer "
                  "in the same space, or a pointer to an integer; not %s to %s", tyn(s, a), tyn(d, b));
        }
    } else if (op->kind == OP_ADDPTR && op->noperands >= 1 && op->nresults == 1) {
        if (op->results[0]->type != op->operands[0]->type)
            v_err(V, DIAG_V_RESULT_TYPE, op->loc, "pto.addptr returns the pointer's own type %s, not %s",
                  tyn(op->operands[0]->type, a), tyn(op->results[0]->type, b));
    } else if (op->kind == OP_LOAD_SCALAR || op->kind == OP_LD_DEV || op->kind == OP_STORE_SCALAR ||
               op->kind == OP_ST_DEV) {
        int store = op->kind == OP_STORE_SCALAR || op->kind == OP_ST_DEV;
        Value *p = v_grp(V, op, "p", 0);
        const Value *x = store ? v_grp(V, op, "v", 0) : (op->nresults ? op->results[0] : NULL);
        if (!p || !x || !ty_is_ptr(p->type)) return;
        const Type *e = p->type->elem, *t = x->type;
        if (!(t && e && t->kind == e->kind && ty_bits(t) == ty_bits(e) && (t->kind != TY_FLOAT || t->fk == e->fk) &&
              (t->kind != TY_VEC || t == e)))
            v_err(V, store ? DIAG_V_OPERAND_TYPE : DIAG_V_RESULT_TYPE, op_use_loc(op, x), "'%s' %s %s through a pointer to %s; the "
                  "scalar must have the element type", v_opname(op), store ? "stores" : "loads", tyn(t, a), tyn(e, b));
        else if ((op->kind == OP_LD_DEV || op->kind == OP_ST_DEV) && !(is_int(t) && t->bits >= 8))
            v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'%s' accesses 8- to 64-bit integers only, not %s", v_opname(op), tyn(t, a));
        if (op->kind == OP_LD_DEV || op->kind == OP_ST_DEV) {
            /* the compiler's rules (lit aicore_ld_st_dev_invalid): no cache-policy attributes, and only in a
               kernel entry function */
            if (v_has(op, "l1cache") || v_has(op, "l2cache"))
                v_err(V, DIAG_V_ATTR, v_attr_loc(op, v_has(op, "l1cache") ? "l1cache" : "l2cache"), "'%s' takes no "
                      "l1cache or l2cache policy: it always bypasses the scalar data cache", v_opname(op));
            if (!v_is_kernel(v_enclosing_func(op)))
                v_err(V, DIAG_V_ENTRY, op->loc, "'%s' must be in a kernel entry function (pto.kernel), not in a helper",
                      v_opname(op));
        }
    }
}

/* ------------------------------------------------------------------ DMA */

/* A copy of the DMA or cube data-movement families moves bytes: its two sides have the same element byte
   width (isa-notes §4 general rules, §4.1 checklist item 1), unless its table row says it converts. */
static bool is_byte_copy(const Op *op)
{
    OpFamily f = op_info[op->kind].fam;
    return (f == FAM_DMA || f == FAM_CUBE_DMA) && !(op_info[op->kind].flags & F_CONVERTS);
}

/* Constant-extent capacity check of the local-buffer sides of a burst copy (one with `len` and `n`).
   The signature's group names say how a side advances: "ss"/"ds" start-to-start byte strides (with
   loop strides "ls"/"ld"), "sg"/"dg" gaps in 32-byte blocks (resolutions Q14). Legacy copies take their
   loops from registers and are not checked. */
static void dma_capacity(VCtx *V, Op *op)
{
    static const struct { const char *ptr, *stride, *gap, *lstride; } sides[] = {
        {"src", "ss", "sg", "ls"}, {"dst", "ds", "dg", "ld"},
    };
    const OpSig *sig = ctx_sig(V->ctx, op->kind);
    if ((op_info[op->kind].flags & F_LEGACY) || sig_group(sig, "len") < 0 || sig_group(sig, "n") < 0) return;
    for (unsigned k = 0; k < 2; k++) {
        bool unit32 = sig_group(sig, sides[k].stride) < 0;
        const char *stride = unit32 ? sides[k].gap : sides[k].stride;
        const char *lstride = sig_group(sig, sides[k].lstride) >= 0 ? sides[k].lstride : NULL;
        Value *p = v_grp(V, op, sides[k].ptr, 0);
        int64_t addr, len, n, st;
        if (sig_group(sig, stride) < 0 || !p || !ty_is_ptr(p->type) || p->type->space == AS_GM ||
            !v_const_addr(p, &addr) || !v_const_int(v_grp(V, op, "len", 0), &len) ||
            !v_const_int(v_grp(V, op, "n", 0), &n) || !v_const_int(v_grp(V, op, stride, 0), &st))
            continue;
        if (len <= 0 || n <= 0 || st < 0) continue;
        int64_t ext;
        if (unit32) ext = v_sat_add(v_sat_mul(v_sat_mul(n - 1, len + st), 32), v_sat_mul(len, 32));
        else ext = v_sat_add(v_sat_mul(n - 1, st), len);
        int ok = 1;
        if (lstride) {
            unsigned nl = v_grp_len(V, op, "lc");
            for (unsigned i = 0; i < nl && ok; i++) {
                int64_t c, s;
                if (!v_const_int(v_grp(V, op, "lc", i), &c) || !v_const_int(v_grp(V, op, lstride, i), &s)) ok = 0;
                else if (c > 0 && s > 0) ext = v_sat_add(ext, v_sat_mul(c - 1, s));
            }
        }
        if (ok) v_check_capacity(V, op, p, addr, ext, NULL, sides[k].ptr);
    }
}

/* L1 -> L0 loads (the compiler's verifier): operands written KEY(%v) name one form, the shape group's keys
   (Op.keyforms bit 0) or the full-control group's (bit 1); constant starts are non-negative, and so are the
   steps and strides of the full group (MX), which the plain loads need positive. */
static void l1l0_operands(VCtx *V, Op *op, int full)
{
    int mx = op->kind == OP_MTE_L1_L0A_MX || op->kind == OP_MTE_L1_L0B_MX;
    int b = op->kind == OP_MTE_L1_L0B || op->kind == OP_MTE_L1_L0B_MX;
    static const char *const grp[2][6] = {{"m", "k", "sr", "sc", "fs", "fd"}, {"k", "n", "sr", "sc", "fs", "fd"}};
    static const char *const nm[3][6] = {
        {"m", "k", "start_row", "start_col", "", ""},
        {"m_start", "k_start", "m_step", "k_step", "src_stride", "dst_stride"},
        {"x_start", "y_start", "x_step", "y_step", "src_stride", "dst_stride"}};
    if ((op->keyforms & 3) == 3) {
        v_err(V, DIAG_V_CLAUSE, op->loc, "'%s' cannot mix the shape operands (%s, %s, start_row, start_col) with the "
              "full-control operands (%s, %s, %s, %s, src_stride, dst_stride)", v_opname(op), b ? "k" : "m",
              b ? "n" : "k", nm[1 + mx][0], nm[1 + mx][1], nm[1 + mx][2], nm[1 + mx][3]);
        return;
    }
    for (unsigned i = full ? 0 : 2; i < (full ? 6u : 4u); i++) {
        int64_t x, lo = !full || i < 2 || mx ? 0 : 1;
        if (!v_const_int(v_grp(V, op, grp[b][i], 0), &x) || x >= lo) continue;
        const char *name = full ? nm[1 + mx][i] : nm[0][i];
        v_err(V, DIAG_V_RANGE, v_gloc(V, op, grp[b][i], 0), "%s of '%s' must be %s (it is %" PRId64 ")", name,
              v_opname(op), lo ? "greater than zero" : "non-negative", x);
    }
}

static bool is_fp4(const Type *e) { return e && e->kind == TY_FLOAT && (e->fk == FK_F4E2M1X2 || e->fk == FK_F4E1M2X2); }

/* load_cbuf_to_ca/cb and their _s4 forms (the compiler's verifier): steps and strides are positive (the 8- and
   16-bit widths are FIELD rows); the _s4 forms move packed fp4 of one kind, the plain forms anything else. */
static void lcb_operands(VCtx *V, Op *op)
{
    static const char *const grp[4] = {"mst", "kst", "fs", "fd"};
    static const char *const nm[4] = {"m_step", "k_step", "src_stride", "dst_stride"};
    for (unsigned i = 0; i < 4; i++) {
        int64_t x;
        if (v_const_int(v_grp(V, op, grp[i], 0), &x) && x == 0)
            v_err(V, DIAG_V_RANGE, v_gloc(V, op, grp[i], 0), "%s of '%s' must be greater than zero", nm[i], v_opname(op));
    }
    Value *s = v_grp(V, op, "src", 0), *d = v_grp(V, op, "dst", 0);
    if (!s || !d || !ty_is_ptr(s->type) || !ty_is_ptr(d->type)) return;
    const Type *se = s->type->elem, *de = d->type->elem;
    char a[96], b[96];
    if (op->kind == OP_LOAD_CBUF_TO_CA_S4 || op->kind == OP_LOAD_CBUF_TO_CB_S4) {
        if (!is_fp4(se) || !is_fp4(de) || se != de)
            v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'%s' moves packed fp4 (f4E2M1x2 or f4E1M2x2) of one kind on both sides, "
                  "not %s -> %s", v_opname(op), tyn(se, a), tyn(de, b));
    } else if (is_fp4(se) || is_fp4(de)) {
        v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'%s' of packed fp4 (%s -> %s) is written with the _s4 load", v_opname(op),
              tyn(se, a), tyn(de, b));
    }
}

void fam_dma(VCtx *V, Op *op)
{
    char a[96], b[96];
    if (is_byte_copy(op)) {
        Value *s = v_grp(V, op, "src", 0), *d = v_grp(V, op, "dst", 0);
        if (s && d && ty_is_ptr(s->type) && ty_is_ptr(d->type) && ty_bytes(s->type->elem) != ty_bytes(d->type->elem))
            v_err(V, DIAG_V_ELEM_WIDTH, op->loc, "'%s' copies between %s and %s; both sides must have the same element "
                  "byte width", v_opname(op), tyn(s->type, a), tyn(d->type, b));
    }
    /* zero counts make the copy a no-op (isa-notes §4 general rules) */
    static const char *const counts[] = {"n", "len", "lc"};
    for (unsigned c = 0; c < 3; c++) {
        unsigned n = v_grp_len(V, op, counts[c]);
        for (unsigned i = 0; i < n; i++) {
            int64_t x;
            if (op_info[op->kind].fam != FAM_DMA_CFG && v_const_int(v_grp(V, op, counts[c], i), &x) && x == 0) {
                v_warn(V, DIAG_V_ZERO_COUNT, op->loc, "'%s' has a zero %s; the copy does nothing", v_opname(op),
                       c == 0 ? "burst count" : c == 1 ? "burst length" : "loop count");
                c = 3;
                break;
            }
        }
    }
    unsigned nloops = v_grp_len(V, op, "lc");
    if (nloops > 3)
        v_err(V, DIAG_V_CLAUSE, aloc(op, "loop"), "'%s' takes at most 3 loop(...) clauses, %u are given", v_opname(op),
              nloops);
    if (op->kind == OP_MTE_GM_UB && v_has(op, "pad")) {
        unsigned nl = v_grp_len(V, op, "pl"), nr = v_grp_len(V, op, "pr");
        if (nl != nr)
            v_err(V, DIAG_V_CLAUSE, aloc(op, "pad"), "pad(...) takes 1 operand (the value) or 3 (value, left count, "
                  "right count), not 2");
        Value *pv = v_grp(V, op, "pv", 0), *dst = v_grp(V, op, "dst", 0);
        if (pv && dst && ty_is_ptr(dst->type) && ty_bits(pv->type) != ty_bits(dst->type->elem))
            v_err(V, DIAG_V_ELEM_WIDTH, aloc(op, "pad"), "the pad value %%%s is %s but the destination elements are %s; "
                  "the pad pattern must have the element width", v_valname(pv), tyn(pv->type, a), tyn(dst->type->elem, b));
        int64_t l, r, len, ds;
        if (nl == 1 && nr == 1 && dst && ty_is_ptr(dst->type) && v_const_int(v_grp(V, op, "pl", 0), &l) &&
            v_const_int(v_grp(V, op, "pr", 0), &r) && v_const_int(v_grp(V, op, "len", 0), &len) &&
            v_const_int(v_grp(V, op, "ds", 0), &ds)) {
            int64_t e = (int64_t)ty_bytes(dst->type->elem);
            int64_t row = v_sat_mul(v_sat_add(v_sat_add(l, r), len / e), e);
            if (row > ds)
                v_warn(V, DIAG_V_PAD_OVERFLOW, aloc(op, "pad"), "padded row (%" PRId64 " bytes) is wider than the "
                       "destination stride (%" PRId64 " bytes)", row, ds);
        }
    }
    if (op->kind == OP_MTE_GM_L1_FRAC) {
        int nd = v_has(op, "nd2nz"), dn = v_has(op, "dn2nz");
        if (nd + dn != 1)
            v_err(V, DIAG_V_CLAUSE, op->loc, "pto.mte_gm_l1_frac needs exactly one of nd2nz and dn2nz");
        int64_t sc, d;
        if (v_const_int(v_grp(V, op, "smallc0", 0), &sc) && sc && v_const_int(v_grp(V, op, "sd", 0), &d) && d > 4)
            v_err(V, DIAG_V_CLAUSE, aloc(op, "ctrl"), "small-C0 packing needs d <= 4 (shape has d = %" PRId64 ")", d);
    }
    if (op->kind == OP_MTE_L1_L0A || op->kind == OP_MTE_L1_L0B || op->kind == OP_MTE_L1_L0A_MX ||
        op->kind == OP_MTE_L1_L0B_MX) {
        /* one complete group (spec 16-cube-matmul): the shape (2 scalars, or 4 with start_row/start_col) or the
           six full-control operands; a partial group is invalid */
        unsigned n = v_grp_len(V, op, "sr") + v_grp_len(V, op, "sc") + v_grp_len(V, op, "fs") + v_grp_len(V, op, "fd");
        if (n != 0 && n != 2 && n != 4)
            v_err(V, DIAG_V_OPERAND_COUNT, op->loc, "'%s' takes the shape group (2 or 4 scalars) or the six full-control "
                  "operands, not %u scalars", v_opname(op), 2 + n);
        else l1l0_operands(V, op, n == 4);
    }
    if (op->kind == OP_LOAD_CBUF_TO_CA || op->kind == OP_LOAD_CBUF_TO_CB || op->kind == OP_LOAD_CBUF_TO_CA_S4 ||
        op->kind == OP_LOAD_CBUF_TO_CB_S4)
        lcb_operands(V, op);
    if (op->kind == OP_MTE_L1_BT) {
        Value *s = v_grp(V, op, "src", 0), *d = v_grp(V, op, "dst", 0);
        if (s && d && ty_is_ptr(s->type) && ty_is_ptr(d->type)) {
            const Type *se = s->type->elem, *de = d->type->elem;
            int ok = (is_int(se) && se->bits == 32 && is_int(de) && de->bits == 32) ||
                     (is_float(de) && de->fk == FK_F32 && is_float(se) &&
                      (se->fk == FK_F32 || se->fk == FK_F16 || se->fk == FK_BF16));
            if (!ok)
                v_err(V, DIAG_V_ELEM_TYPE, op->loc, "pto.mte_l1_bt loads f32, i32, f16 or bf16 into a f32/i32 bias table "
                      "(pairs f32->f32, i32->i32, f16->f32, bf16->f32), not %s -> %s", tyn(se, a), tyn(de, b));
        }
    }
    /* atomic store variants are not available on the cpu profile (isa-notes §1.7, §3.5) */
    if (V->target == PTO_TARGET_CPU && op->kind != OP_SET_ATOMIC_NONE &&
        strncmp(v_opname(op), "pto.set_atomic_", 15) == 0)
        v_err(V, DIAG_V_TARGET_FORM, op->loc, "atomic store variants ('%s') are not available on the cpu target "
              "profile", v_opname(op));
    dma_capacity(V, op);
}

/* ------------------------------------------------------------------ cube: MAD */

static bool is_acc_elem(const Type *e)
{
    return e && ((e->kind == TY_FLOAT && e->fk == FK_F32) || (e->kind == TY_INT && e->bits == 32));
}

/* pto.raw_fill_l1 (spec 16-cube-matmul): fill_word_bits is 16 or 32; a constant byte offset is a non-negative
   multiple of 32 (the 15-bit geometry fields are FIELD rows). */
void fam_raw_fill(VCtx *V, Op *op)
{
    const Attr *w = op_attr(op, "fill_word_bits");
    if (!w || w->kind != AT_INT || (w->i != 16 && w->i != 32))
        v_err(V, DIAG_V_ATTR, w ? v_attr_loc(op, "fill_word_bits") : op->loc,
              "pto.raw_fill_l1 needs {fill_word_bits = 16 : i64} or {fill_word_bits = 32 : i64}");
    int64_t off;
    if (v_const_int(v_grp(V, op, "off", 0), &off) && (off < 0 || off % 32))
        v_err(V, DIAG_V_ALIGN, v_gloc(V, op, "off", 0), "the byte offset of pto.raw_fill_l1 is a non-negative multiple of 32, "
              "not %" PRId64, off);
}

void fam_mad(VCtx *V, Op *op)
{
    char a[96], b2[96];
    Value *A = v_grp(V, op, "a", 0), *B = v_grp(V, op, "b", 0), *C = v_grp(V, op, "c", 0);
    if (v_has(op, "sat") && v_has(op, "nosat"))
        v_err(V, DIAG_V_CLAUSE, aloc(op, "nosat"), "'sat' and 'nosat' are mutually exclusive");
    if (C && ty_is_ptr(C->type) && !is_acc_elem(C->type->elem))
        v_err(V, DIAG_V_ELEM_TYPE, op->loc, "the L0C accumulator of '%s' holds f32 or 32-bit integers, not %s",
              v_opname(op), tyn(C->type->elem, a));
    int all_f32 = A && B && C && ty_is_ptr(A->type) && ty_is_ptr(B->type) && ty_is_ptr(C->type) &&
                  is_float(A->type->elem) && A->type->elem->fk == FK_F32 && is_float(B->type->elem) &&
                  B->type->elem->fk == FK_F32 && is_float(C->type->elem) && C->type->elem->fk == FK_F32;
    if (v_has(op, "tf32_mode") && !all_f32)
        v_err(V, DIAG_V_CLAUSE, aloc(op, "tf32_mode"), "tf32_mode applies only to f32 x f32 -> f32 matmuls");
    if ((v_has(op, "sat") || v_has(op, "nosat")) && A && ty_is_ptr(A->type) && !is_float(A->type->elem))
        v_err(V, DIAG_V_CLAUSE, aloc(op, v_has(op, "sat") ? "sat" : "nosat"), "sat/nosat apply only to floating-point "
              "inputs (the inputs here are %s)", tyn(A->type->elem, a));
    if (A && B && ty_is_ptr(A->type) && ty_is_ptr(B->type) &&
        (is_float(A->type->elem) && A->type->elem->fk == FK_HIF8) != (is_float(B->type->elem) && B->type->elem->fk == FK_HIF8))
        v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'%s' multiplies hif8 only by hif8: the left operand is %s, the right %s",
              v_opname(op), tyn(A->type->elem, a), tyn(B->type->elem, b2));
    static const char *const dims[] = {"m", "n", "k"};
    for (int i = 0; i < 3; i++) {
        int64_t x;
        if (v_const_int(v_grp(V, op, dims[i], 0), &x) && x <= 0)
            v_err(V, DIAG_V_RANGE, v_gloc(V, op, dims[i], 0), "'%s' needs %s > 0 (it is %" PRId64 ")", v_opname(op), dims[i], x);
    }
    int64_t k;
    if ((op->kind == OP_MAD_MX || op->kind == OP_MAD_MX_ACC || op->kind == OP_MAD_MX_BIAS) &&
        v_const_int(v_grp(V, op, "k", 0), &k) && k > 0 && k % 64)
        v_warn(V, DIAG_V_UNCONFIRMED, v_gloc(V, op, "k", 0), "MX matmul consumes k in multiples of 64 on this profile; k = "
               "%" PRId64 " verifies (as in the compiler), but running it traps T-FIELD", k);
    Value *bias = v_grp(V, op, "bias", 0);
    if (bias && C && ty_is_ptr(bias->type) && ty_is_ptr(C->type) && bias->type->elem != C->type->elem)
        v_err(V, DIAG_V_ELEM_TYPE, op->loc, "the bias table elements (%s) must have the accumulator's type",
              tyn(bias->type->elem, a));
}

/* ------------------------------------------------------------------ cube: FIXPIPE */

typedef enum { D_ANY, D_F16, D_BF16, D_F32, D_HIF8, D_FP8, D_I8, D_I4, D_I16 } DstKind;

/* Quantisation modes by spelling prefix: accumulator type ('f' f32, 'i' 32-bit int) and the
   destination family the mode names (isa-notes §4.10). */
static const struct { const char *prefix; char acc; DstKind dst; } qmodes[] = {
    {"f32_f16", 'f', D_F16},   {"f32_bf16", 'f', D_BF16},  {"qf322hif8", 'f', D_HIF8}, {"qf322fp8", 'f', D_FP8},
    {"qf322f32", 'f', D_F32},  {"qf322f16", 'f', D_F16},   {"qf322bf16", 'f', D_BF16}, {"qf322b8", 'f', D_I8},
    {"qf322s4", 'f', D_I4},    {"qf162b8", 'f', D_I8},     {"qf162s4", 'f', D_I4},     {"qf162s16", 'i', D_I16},
    {"deqs32_int", 'i', D_ANY}, {"deqs16", 'i', D_ANY},    {"req8", 'i', D_I8},        {"req4", 'i', D_I4},
    {"deqf16", 'i', D_F16},    {"qs322bf16", 'i', D_BF16},
};

static bool dst_matches(DstKind k, const Type *e)
{
    if (!e) return true;
    switch (k) {
    case D_ANY: return true;
    case D_F16: return is_float(e) && e->fk == FK_F16;
    case D_BF16: return is_float(e) && e->fk == FK_BF16;
    case D_F32: return is_float(e) && e->fk == FK_F32;
    case D_HIF8: return is_float(e) && e->fk == FK_HIF8;
    case D_FP8: return is_float(e) && (elem_kind(e) == EK_E4M3 || elem_kind(e) == EK_E5M2);
    case D_I8: return is_int(e) && e->bits == 8;
    case D_I4: return is_int(e) && e->bits == 4;
    case D_I16: return is_int(e) && e->bits == 16;
    }
    return true;
}

static bool is_param_ptr(const Type *t)
{
    return t && t->kind == TY_PTR && t->space == AS_FB && is_float(t->elem) &&
           (t->elem->fk == FK_F16 || t->elem->fk == FK_BF16 || t->elem->fk == FK_F32);
}

static bool is_param_scalar(const Type *t)
{
    return is_float(t) && (t->fk == FK_F16 || t->fk == FK_BF16 || t->fk == FK_F32);
}

void fam_fixpipe(VCtx *V, Op *op)
{
    char a[96], b2[96];
    Value *src = v_grp(V, op, "src", 0), *dst = v_grp(V, op, "dst", 0);
    const Type *acc = src && ty_is_ptr(src->type) ? src->type->elem : NULL;
    const Type *de = dst && ty_is_ptr(dst->type) ? dst->type->elem : NULL;
    if (acc && !is_acc_elem(acc))
        v_err(V, DIAG_V_ELEM_TYPE, op->loc, "FIXPIPE reads f32 or 32-bit integer accumulators from L0C, not %s", tyn(acc, a));
    int layouts = v_has(op, "nz2nd") + v_has(op, "nz2dn") + v_has(op, "nz2nz");
    if (layouts > 1)
        v_err(V, DIAG_V_CLAUSE, op->loc, "at most one of nz2nd, nz2dn(...) and nz2nz(...) may be given");
    if (v_has(op, "sat") && v_has(op, "nosat"))
        v_err(V, DIAG_V_CLAUSE, aloc(op, "nosat"), "'sat' and 'nosat' are mutually exclusive");
    int64_t x;
    if (v_has(op, "unit_flag") && v_has(op, "nz2dn") && v_const_int(v_grp(V, op, "dnss", 0), &x) && x != 1)
        v_err(V, DIAG_V_CLAUSE, aloc(op, "unit_flag"), "unit_flag must be omitted when the nz2dn stride is not 1 "
              "(it is %" PRId64 ")", x);
    if (v_has(op, "atomic")) {
        if (op->kind != OP_MTE_L0C_GM)
            v_err(V, DIAG_V_CLAUSE, aloc(op, "atomic"), "atomic(...) is only available on pto.mte_l0c_gm");
        int at = op_token_id(op, "atype");
        if (at < 0 || op_token_id(op, "aop") < 0)
            v_err(V, DIAG_V_CLAUSE, aloc(op, "atomic"), "atomic(...) needs both 'type = ...' and 'op = add|max|min'");
        if (V->target == PTO_TARGET_CPU)
            v_err(V, DIAG_V_TARGET_FORM, aloc(op, "atomic"), "atomic stores are not available on the cpu target profile");
    }
    if (v_has(op, "pre_quant")) {
        int qm = op_token_id(op, "qmode");
        Value *qp = v_grp(V, op, "qp", 0);
        if (qm < 0) {
            v_err(V, DIAG_V_CLAUSE, aloc(op, "pre_quant"), "pre_quant(...) needs 'mode = ...'");
        } else {
            const char *sp = tok_spelling(qm);
            size_t n = strlen(sp);
            int vec = n > 4 && strcmp(sp + n - 4, "_vec") == 0;
            if (qp && vec && !is_param_ptr(qp->type))
                v_err(V, DIAG_V_CLAUSE, aloc(op, "pre_quant"), "quant mode %s reads per-channel parameters: its payload "
                      "must be a !pto.ptr<f16|bf16|f32, fb>, not %s", sp, tyn(qp->type, a));
            if (qp && !vec && !is_param_scalar(qp->type))
                v_err(V, DIAG_V_CLAUSE, aloc(op, "pre_quant"), "quant mode %s takes a scalar f16, bf16 or f32 payload, "
                      "not %s", sp, tyn(qp->type, a));
            for (unsigned i = 0; i < sizeof qmodes / sizeof qmodes[0]; i++) {
                if (strncmp(sp, qmodes[i].prefix, strlen(qmodes[i].prefix)) != 0) continue;
                if (acc && is_acc_elem(acc) && (qmodes[i].acc == 'f') != is_float(acc))
                    v_err(V, DIAG_V_CLAUSE, aloc(op, "qmode"), "quant mode %s reads %s accumulators, but the L0C source "
                          "holds %s", sp, qmodes[i].acc == 'f' ? "f32" : "32-bit integer", tyn(acc, a));
                if (de && !dst_matches(qmodes[i].dst, de))
                    v_err(V, DIAG_V_CLAUSE, aloc(op, "qmode"), "quant mode %s does not produce %s destination elements",
                          sp, tyn(de, a));
                break;
            }
        }
    }
    if (v_has(op, "pre_relu")) {
        int rm = op_token_id(op, "rmode");
        Value *rp = v_grp(V, op, "rp", 0);
        if (rm < 0) v_err(V, DIAG_V_CLAUSE, aloc(op, "pre_relu"), "pre_relu(...) needs 'mode = ...'");
        else if ((rm == T_RELU_NO_RELU || rm == T_RELU_NORMAL_RELU) && rp)
            v_err(V, DIAG_V_CLAUSE, aloc(op, "pre_relu"), "relu mode %s takes no payload", tok_spelling(rm));
        else if (rm == T_RELU_SCALAR_RELU && !(rp && is_param_scalar(rp->type)))
            v_err(V, DIAG_V_CLAUSE, aloc(op, "pre_relu"), "scalar_relu needs a scalar f16, bf16 or f32 slope payload");
        else if (rm == T_RELU_VECTOR_RELU && !(rp && is_param_ptr(rp->type)))
            v_err(V, DIAG_V_CLAUSE, aloc(op, "pre_relu"), "vector_relu needs a !pto.ptr<f16|bf16|f32, fb> slope payload");
        Value *clip = v_grp(V, op, "clip", 0);
        if (clip && de) {
            /* the compiler's payload rule: f16 for f16, ui16/i16 for ui8, signed or signless i4/i8/i16 for the
               signed 4/8/16-bit destinations */
            const Type *ct = clip->type;
            int dint = is_int(de) && (de->sign == SIGN_U ? de->bits == 8 : de->bits == 4 || de->bits == 8 || de->bits == 16);
            if (!dst_matches(D_F16, de) && !dint)
                v_err(V, DIAG_V_CLAUSE, aloc(op, "pre_relu"), "clip applies to f16, ui8 and signed 4/8/16-bit integer "
                      "destinations, not %s", tyn(de, a));
            else if (dst_matches(D_F16, de) ? !(is_float(ct) && ct->fk == FK_F16)
                     : de->sign == SIGN_U ? !(is_int(ct) && ct->bits == 16 && ct->sign != SIGN_S)
                     : !(is_int(ct) && (ct->bits == 4 || ct->bits == 8 || ct->bits == 16) && ct->sign != SIGN_U))
                v_err(V, DIAG_V_CLAUSE, op_use_loc(op, clip), "the clip value for %s destinations is %s, not %s", tyn(de, a),
                      dst_matches(D_F16, de) ? "an f16" : de->sign == SIGN_U ? "a ui16 or i16"
                      : "a signed or signless i4, i8 or i16", tyn(ct, b2));
        }
    }
    if (v_has(op, "nz2nz")) {
        if (de && !dst_matches(D_F32, de))
            v_err(V, DIAG_V_CLAUSE, aloc(op, "nz2nz"), "nz2nz(...) needs an f32 destination, not %s", tyn(de, a));
        if (v_has(op, "loop3"))
            v_err(V, DIAG_V_CLAUSE, aloc(op, "loop3"), "loop3(...) cannot be combined with nz2nz(...)");
    }
    if (op->kind == OP_MTE_L0C_UB) {
        Value *sub = v_grp(V, op, "sub", 0);
        int split = op_token_id(op, "split");
        if (!!sub == (split >= 0))
            v_err(V, DIAG_V_CLAUSE, aloc(op, "dst_mode"), "dst_mode(...) takes either a subblock id or split_m/split_n");
        if (sub && v_const_int(sub, &x) && (x < 0 || x > 1))
            v_err(V, DIAG_V_RANGE, aloc(op, "dst_mode"), "the subblock id of dst_mode(...) is 0 or 1, not %" PRId64, x);
        if (split >= 0) {
            if (split == T_SPLIT_M && v_const_int(v_grp(V, op, "m", 0), &x) && x % 2)
                v_err(V, DIAG_V_CLAUSE, aloc(op, "split"), "split_m needs an even m (it is %" PRId64 ")", x);
            if (split == T_SPLIT_N && v_const_int(v_grp(V, op, "n", 0), &x) && x % 32)
                v_err(V, DIAG_V_CLAUSE, aloc(op, "split"), "split_n needs n to be a multiple of 32 (it is %" PRId64 ")", x);
            if (v_has(op, "nz2dn") || v_has(op, "nz2nz") || v_has(op, "pre_quant") || v_has(op, "pre_relu"))
                v_err(V, DIAG_V_CLAUSE, aloc(op, "split"), "split modes work only with the normal or nz2nd layout and "
                      "without pre_quant, pre_relu or clip");
        }
    }
}
