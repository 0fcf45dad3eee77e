/* verify_fam.c — relational rules, one function per op family: pointers, DMA, cube (MAD and
 * FIXPIPE), sync, predicates and vector ops. The structural pass has already checked each operand
 * on its own; these rules relate operands to each other, to clauses and tokens, and to the target
 * profile. The element types of vector ops come from the TYPES rows of the op table (op_types). */
#include "verify_int.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *tyn(const Type *t, char *b) { return v_tyname(t, b, 96); }

static bool is_int(const Type *t) { return t && t->kind == TY_INT; }
static bool is_float(const Type *t) { return t && t->kind == TY_FLOAT; }
static bool is_uint(const Type *t, unsigned bits) { return is_int(t) && t->sign == SIGN_U && t->bits == bits; }
static unsigned ebytes(const Type *t) { unsigned b = v_elem_bits(t); return b / 8; }

/* Location of a token or clause attribute, else the op's. */
static SrcLoc aloc(const Op *op, const char *name) { return v_attr_loc(op, name); }

/* Where operand i of a named signature group is written, else the op's location. */
static SrcLoc gloc(const VCtx *V, const Op *op, const char *group, unsigned i)
{
    int g = v_group_index(V, op, group);
    return g < 0 ? op->loc : op_group_loc(op, (unsigned)g, i);
}

/* Result named `name` in the signature, or NULL. */
static Value *res_named(const VCtx *V, const Op *op, const char *name)
{
    const OpSig *sig = ctx_sig(V->ctx, op->kind);
    for (unsigned i = 0; i < sig->nres && i < op->nresults; i++)
        if (strcmp(sig->res[i].name, name) == 0) return op->results[i];
    return NULL;
}

/* Operand group or result called `name`. */
static Value *named(const VCtx *V, const Op *op, const char *name)
{
    Value *v = v_grp(V, op, name, 0);
    return v ? v : res_named(V, op, name);
}

/* ------------------------------------------------------------------ post-update pointers */

/* A post-update form returns the advanced base pointer: same type as the base (resolutions §2.3). */
static void check_post_update(VCtx *V, Op *op)
{
    Value *pn = res_named(V, op, "pn");
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

/* ------------------------------------------------------------------ pointers */

/* `what` names the bytes ("the address", "the access"); `via`, when given, the pointer operand the op
   touches them through. Sizes and offsets are decimal with hex in parentheses (the library's number style). */
static void check_capacity(VCtx *V, const Op *op, const Value *p, int64_t addr, int64_t bytes, const char *what,
                           const char *via)
{
    if (!p || !ty_is_ptr(p->type) || p->type->space == AS_GM) return;
    uint64_t cap = V->tp->cap[p->type->space];
    if (!cap) return;
    int64_t end = v_sat_add(addr, bytes);
    if (addr < 0 || (uint64_t)end > cap) {
        const char *sp = as_name((AddrSpace)p->type->space);
        long d = via
            ? v_err(V, DIAG_V_CAPACITY, op_use_loc(op, p), "'%s' touches bytes [%" PRId64 ", %" PRId64 ") ([0x%" PRIx64
                    ", 0x%" PRIx64 ")) of %s through '%s', beyond the %" PRIu64 " (0x%" PRIx64 ") bytes of %s on the %s profile",
                    v_opname(op), addr, end, (uint64_t)addr, (uint64_t)end, sp, via, cap, cap, sp, V->tp->name)
            : bytes == 1
            ? v_err(V, DIAG_V_CAPACITY, op_use_loc(op, p), "%s %" PRId64 " (0x%" PRIx64 ") lies outside the %" PRIu64
                    " (0x%" PRIx64 ") bytes of %s on the %s profile", what, addr, (uint64_t)addr, cap, cap, sp, V->tp->name)
            : v_err(V, DIAG_V_CAPACITY, op_use_loc(op, p), "%s [%" PRId64 ", %" PRId64 ") ([0x%" PRIx64 ", 0x%" PRIx64
                    ")) lies outside the %" PRIu64 " (0x%" PRIx64 ") bytes of %s on the %s profile", what, addr, end,
                    (uint64_t)addr, (uint64_t)end, cap, cap, sp, V->tp->name);
        if (p->def && p->def != op) v_note(V, d, v_value_loc(p), "address computed here");
    }
}

static void fam_ptr(VCtx *V, Op *op)
{
    char a[96], b[96];
    if (op->kind == OP_CASTPTR && op->noperands == 1 && op->nresults == 1) {
        const Type *s = op->operands[0]->type, *d = op->results[0]->type;
        if (ty_is_intlike(s) && ty_is_ptr(d)) {
            int64_t addr;
            if (v_const_addr(op->results[0], &addr)) check_capacity(V, op, op->results[0], addr, 1, "the address", NULL);
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
        if (ok) check_capacity(V, op, p, addr, ext, NULL, sides[k].ptr);
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
        v_err(V, DIAG_V_RANGE, gloc(V, op, grp[b][i], 0), "%s of '%s' must be %s (it is %" PRId64 ")", name,
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
            v_err(V, DIAG_V_RANGE, gloc(V, op, grp[i], 0), "%s of '%s' must be greater than zero", nm[i], v_opname(op));
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

static void fam_dma(VCtx *V, Op *op)
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
static void fam_raw_fill(VCtx *V, Op *op)
{
    const Attr *w = op_attr(op, "fill_word_bits");
    if (!w || w->kind != AT_INT || (w->i != 16 && w->i != 32))
        v_err(V, DIAG_V_ATTR, w ? v_attr_loc(op, "fill_word_bits") : op->loc,
              "pto.raw_fill_l1 needs {fill_word_bits = 16 : i64} or {fill_word_bits = 32 : i64}");
    int64_t off;
    if (v_const_int(v_grp(V, op, "off", 0), &off) && (off < 0 || off % 32))
        v_err(V, DIAG_V_ALIGN, gloc(V, op, "off", 0), "the byte offset of pto.raw_fill_l1 is a non-negative multiple of 32, "
              "not %" PRId64, off);
}

static void fam_mad(VCtx *V, Op *op)
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
            v_err(V, DIAG_V_RANGE, gloc(V, op, dims[i], 0), "'%s' needs %s > 0 (it is %" PRId64 ")", v_opname(op), dims[i], x);
    }
    int64_t k;
    if ((op->kind == OP_MAD_MX || op->kind == OP_MAD_MX_ACC || op->kind == OP_MAD_MX_BIAS) &&
        v_const_int(v_grp(V, op, "k", 0), &k) && k > 0 && k % 64)
        v_warn(V, DIAG_V_UNCONFIRMED, gloc(V, op, "k", 0), "MX matmul consumes k in multiples of 64 on this profile; k = "
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
    case D_FP8: return is_float(e) && (e->fk == FK_E4M3FN || e->fk == FK_E5M2);
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

static void fam_fixpipe(VCtx *V, Op *op)
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
        v_err(V, DIAG_V_RANGE, gloc(V, op, grp, 0), "the %s of '%s' must be in [%" PRId64 ", %" PRId64 "], not %" PRId64, what,
              v_opname(op), lo, hi, x);
}

static void fam_sync(VCtx *V, Op *op)
{
    const int64_t ev = V->tp->events - 1;
    switch (op->kind) {
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
    case OP_SET_INTRA_BLOCK: case OP_WAIT_INTRA_BLOCK: case OP_SYNC_SET: case OP_SYNC_WAIT: {
        /* the id is a literal or (as the compiler allows) an index value; sync.* may carry ffts_mode 0..2 */
        int64_t hi = op->kind == OP_SYNC_SET || op->kind == OP_SYNC_WAIT ? 31 : V->tp->sems - 1;
        if (!op_attr(op, "id") == !v_grp(V, op, "eid", 0))
            v_err(V, DIAG_V_OPERAND_COUNT, op->loc, "'%s' takes one semaphore id: a literal or a value", v_opname(op));
        if (hi >= 0 && !(op_info[op->kind].flags & V->tp->op_mask)) {
            check_int_attr(V, op, "id", 0, hi, "semaphore id");
            check_const_operand(V, op, "eid", 0, hi, "semaphore id");
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

/* ------------------------------------------------------------------ predicates */

/* All masks of the op at one granularity; `want` (bytes, 0 = any) fixes it. */
static void mask_all_same(VCtx *V, Op *op, unsigned want)
{
    unsigned g = want;
    const Value *first = NULL;
    char a[96];
    for (uint32_t i = 0; i < op->noperands + op->nresults; i++) {
        const Value *v = i < op->noperands ? op->operands[i] : op->results[i - op->noperands];
        if (!v || !ty_is_mask(v->type) || !v->type->gran) continue;
        if (!g) { g = v->type->gran; first = v; continue; }
        if (v->type->gran == g) continue;
        if (want)
            v_err(V, DIAG_V_MASK_GRAN, op_use_loc(op, v), "'%s' works on !pto.mask<b%u>, but %%%s is %s", v_opname(op), want * 8,
                  v_valname(v), tyn(v->type, a));
        else
            v_err(V, DIAG_V_MASK_GRAN, op_use_loc(op, v), "'%s' needs all masks at one granularity: %%%s is %s but %%%s is "
                  "!pto.mask<b%u>", v_opname(op), v_valname(v), tyn(v->type, a), v_valname(first), g * 8);
        return;
    }
}

static void fam_pred(VCtx *V, Op *op)
{
    char a[96], b[96];
    unsigned sg = op_gran[op->kind];
    switch (op->kind) {
    case OP_PSET_B8: case OP_PSET_B16: case OP_PSET_B32: case OP_PGE_B8: case OP_PGE_B16: case OP_PGE_B32: {
        mask_all_same(V, op, sg);
        int t = op_token_id(op, "pat");
        unsigned lanes = 256 / sg;
        const char *sp = t >= 0 ? tok_spelling(t) : NULL;
        if (sp && strncmp(sp, "PAT_VL", 6) == 0) {
            unsigned n = 0;
            for (const char *c = sp + 6; *c >= '0' && *c <= '9'; c++) n = n * 10 + (unsigned)(*c - '0');
            if (n > lanes)
                v_err(V, DIAG_V_TOKEN, aloc(op, "pat"), "%s asks for %u active lanes but a b%u mask has only %u",
                      sp, n, sg * 8, lanes);
        }
        break;
    }
    case OP_PLT_B8: case OP_PLT_B16: case OP_PLT_B32: case OP_PLTM_B8: case OP_PLTM_B16: case OP_PLTM_B32:
    case OP_PINTLV_B8: case OP_PINTLV_B16: case OP_PINTLV_B32:
    case OP_PDINTLV_B8: case OP_PDINTLV_B16: case OP_PDINTLV_B32:
        mask_all_same(V, op, sg);
        break;
    case OP_PAND: case OP_POR: case OP_PXOR: case OP_PNOT: case OP_PSEL:
        mask_all_same(V, op, 0);
        break;
    case OP_PSTS: case OP_PSTI: case OP_PST:
        if (op_token_id(op, "dist") == T_PST_PK && V->target == PTO_TARGET_CPU)
            v_err(V, DIAG_V_TARGET_FORM, aloc(op, "dist"), "the PK predicate-store distribution is not available on the "
                  "cpu target profile; use \"NORM\"");
        break;
    case OP_PSTU: {
        Value *m = v_grp(V, op, "m", 0), *p = v_grp(V, op, "p", 0);
        if (m && p && ty_is_mask(m->type) && ty_is_ptr(p->type)) {
            unsigned g = m->type->gran;
            int ok = g ? g != 1 && is_uint(p->type->elem, g * 8)
                       : is_uint(p->type->elem, 16) || is_uint(p->type->elem, 32);
            if (!ok)
                v_err(V, DIAG_V_OPERAND_TYPE, op->loc, "pto.pstu pairs !pto.mask<b16> with !pto.ptr<ui16, ub> and "
                      "!pto.mask<b32> with !pto.ptr<ui32, ub>; here %s is stored through %s", tyn(m->type, a),
                      tyn(p->type, b));
        }
        break;
    }
    default:
        break;
    }
    /* immediate-offset forms: the offset is a constant (spec 04-predicate-load-store: "a constant index immediate");
       the current spec folds it into the address (base + unit·offset), so any constant is legal */
    if (op->kind == OP_PLDI || op->kind == OP_PSTI) {
        Value *off = v_grp(V, op, "off", 0);
        int64_t x;
        if (off && !v_const_int(off, &x))
            v_err(V, DIAG_V_RANGE, gloc(V, op, "off", 0), "'%s' takes an immediate offset: %%%s must be an arith.constant",
                  v_opname(op), v_valname(off));
    }
}

/* ------------------------------------------------------------------ vector ops */


static void rel_same(VCtx *V, Op *op, int results_too)
{
    const OpSig *sig = ctx_sig(V->ctx, op->kind);
    int idx = sig_group(sig, "idx");
    const Value *ref = NULL;
    char a[96], b[96];
    for (unsigned g = 0; g < sig->ngroups; g++) {
        if ((int)g == idx) continue;
        for (unsigned i = 0; i < op_group_len(op, g); i++) {
            const Value *v = op_group_operand(op, g, i);
            if (!v || !ty_is_vreg(v->type)) continue;
            if (!ref) { ref = v; continue; }
            if (v->type != ref->type) {
                v_err(V, DIAG_V_OPERAND_TYPE, op_use_loc(op, v), "'%s' needs its vector operands to share one type: %%%s is %s "
                      "but %%%s is %s", v_opname(op), v_valname(ref), tyn(ref->type, a), v_valname(v), tyn(v->type, b));
                return;
            }
        }
    }
    if (!results_too || !ref) return;
    for (uint32_t i = 0; i < op->nresults; i++) {
        const Value *r = op->results[i];
        if (ty_is_vreg(r->type) && r->type != ref->type) {
            v_err(V, DIAG_V_RESULT_TYPE, op->loc, "'%s' produces the type of its operands (%s), but result %%%s is %s",
                  v_opname(op), tyn(ref->type, a), v_valname(r), tyn(r->type, b));
            return;
        }
    }
}

static int is_f4(const Type *e) { return ek_packed4(elem_kind(e)); }

static void rel_cvt(VCtx *V, Op *op)
{
    Value *a = v_grp(V, op, "a", 0);
    if (!a || !op->nresults || !ty_is_vreg(a->type) || !ty_is_vreg(op->results[0]->type)) return;
    const Type *s = a->type->elem, *d = op->results[0]->type->elem;
    char x[96], y[96];
    if (!op_cvt(OP_VCVT, elem_kind(s), elem_kind(d))) {   /* the op table's CVT rows (signless counts as signed, Q49) */
        v_err(V, DIAG_V_ELEM_TYPE, op->loc, "pto.vcvt has no conversion from %s to %s", tyn(s, x), tyn(d, y));
        return;
    }
    int part = op_token_id(op, "part");
    if (part < 0) return;
    unsigned bs = ty_bits(s), bd = ty_bits(d), ratio = bs > bd ? bs / bd : bd / bs;
    int pk = part == T_PART_P0 || part == T_PART_P1 || part == T_PART_P2 || part == T_PART_P3;
    const char *want = is_f4(s) || is_f4(d) || ratio == 4 ? "P0..P3" : ratio == 2 ? "EVEN or ODD" : NULL;
    if (!want)
        v_err(V, DIAG_V_TOKEN, aloc(op, "part"), "a same-width conversion (%s to %s) takes no part", tyn(s, x), tyn(d, y));
    else if (pk != (want[0] == 'P'))
        v_err(V, DIAG_V_TOKEN, aloc(op, "part"), "part %s does not fit a %s to %s conversion; use %s", tok_spelling(part),
              tyn(s, x), tyn(d, y), want);
}

/* Type relations of the special families. elem_ok = 0 when the element-type check has already
   rejected the source kind: the relations that follow from the kind are then not reported again. */
static void rel_special(VCtx *V, Op *op, TypeRel rel, int elem_ok)
{
    char x[96], y[96];
    Value *a = v_grp(V, op, "a", 0);
    const Value *r = op->nresults ? op->results[0] : NULL;
    if (!a || !r || !ty_is_vreg(a->type) || !ty_is_vreg(r->type)) return;
    const Type *ae = a->type->elem, *re = r->type->elem;
    switch (rel) {
    case TR_RED:
        rel_same(V, op, 0);
        if (elem_ok && r->type != a->type &&
            !(is_int(ae) && is_int(re) && (ae->bits == 8 || ae->bits == 16) && re->bits == 2 * ae->bits &&
              (ae->sign == SIGN_U) == (re->sign == SIGN_U)))
            v_err(V, DIAG_V_RESULT_TYPE, op->loc, "pto.vcadd returns the input type or, for 8/16-bit integers, the "
                  "double-width integer of the same signedness; not %s from %s", tyn(r->type, x), tyn(a->type, y));
        break;
    case TR_TRC:
        rel_same(V, op, 1);
        if (op_token_id(op, "rnd") == T_RND_O)
            v_err(V, DIAG_V_TOKEN, aloc(op, "rnd"), "pto.vtrc rounds with R, A, F, C or Z; O is not a vtrc mode");
        break;
    case TR_PACK:
        if (elem_ok && !(is_int(ae) && is_int(re) && (ae->bits == 16 || ae->bits == 32) && re->bits * 2 == ae->bits))
            v_err(V, DIAG_V_RESULT_TYPE, op->loc, "pto.vpack narrows 32-bit to 16-bit or 16-bit to 8-bit integers; "
                  "not %s to %s", tyn(a->type, x), tyn(r->type, y));
        break;
    case TR_UNPACK:
        if (elem_ok && !(is_int(ae) && is_int(re) && re->bits == 2 * ae->bits))
            v_err(V, DIAG_V_RESULT_TYPE, op->loc, "'%s' widens integers to double width; not %s to %s", v_opname(op),
                  tyn(a->type, x), tyn(r->type, y));
        break;
    case TR_EXPDIF: {
        rel_same(V, op, 0);
        if (elem_ok && !(is_float(re) && re->fk == FK_F32))
            v_err(V, DIAG_V_RESULT_TYPE, op->loc, "pto.vexpdif returns !pto.vreg<64xf32>, not %s", tyn(r->type, x));
        int p = op_token_id(op, "part");
        if (p >= 0 && p != T_PART_EVEN && p != T_PART_ODD)
            v_err(V, DIAG_V_TOKEN, aloc(op, "part"), "pto.vexpdif takes EVEN or ODD, not %s", tok_spelling(p));
        break;
    }
    case TR_HALF_PART: {
        int p = op_token_id(op, "part");
        if (p >= 0 && p != T_PART_EVEN && p != T_PART_ODD)
            v_err(V, DIAG_V_TOKEN, aloc(op, "part"), "'%s' places its half-width results with EVEN or ODD, not %s",
                  v_opname(op), tok_spelling(p));
        break;
    }
    case TR_IDX: {
        rel_same(V, op, 1);
        Value *idx = v_grp(V, op, "idx", 0);
        if (idx && ty_is_vreg(idx->type) && !(is_int(idx->type->elem) && idx->type->elem->bits == ty_bits(ae)))
            v_err(V, DIAG_V_OPERAND_TYPE, op_use_loc(op, idx), "the index vector of '%s' must hold integers as wide as the data "
                  "(%u bits), not %s", v_opname(op), ty_bits(ae), tyn(idx->type, x));
        break;
    }
    case TR_SHIFT: {
        /* the current spec (07-binary-vector-ops) takes signed counts of the data's lane count and width; the
           older form used a count vector of the data type itself (docs/semantics.md §7.4) */
        Value *b = v_grp(V, op, "b", 0);
        if (r->type != a->type)
            v_err(V, DIAG_V_RESULT_TYPE, op->loc, "'%s' produces the type of its data operand (%s), but result %%%s is %s",
                  v_opname(op), tyn(a->type, x), v_valname(r), tyn(r->type, y));
        if (!b || !ty_is_vreg(b->type)) break;
        const Type *be = b->type->elem;
        bool sig = is_int(be) && be->sign == SIGN_S && be->bits == ty_bits(ae) && b->type->lanes == a->type->lanes;
        if (!sig && b->type == a->type)
            v_warn(V, DIAG_V_DEPRECATED, op_use_loc(op, b), "'%s' with a count vector of the data type %s is the older form; "
                   "the current spec takes signed counts !pto.vreg<%uxsi%u> (pto.vbitcast them)", v_opname(op),
                   tyn(b->type, x), a->type->lanes, ty_bits(ae));
        else if (!sig)
            v_err(V, DIAG_V_OPERAND_TYPE, op_use_loc(op, b), "the shift counts %%%s of '%s' are %s; they must be "
                  "!pto.vreg<%uxsi%u> (signed, the data's lane count and width)", v_valname(b), v_opname(op),
                  tyn(b->type, x), a->type->lanes, ty_bits(ae));
        break;
    }
    default:
        break;
    }
}

static void scalar_rule(VCtx *V, Op *op, TypeScalarRule sr)
{
    Value *s = v_grp(V, op, "s", 0);
    if (!s) s = v_grp(V, op, "alpha", 0);
    Value *a = v_grp(V, op, "a", 0);
    if (!s || !a || !ty_is_vreg(a->type) || !s->type) return;
    const Type *e = a->type->elem, *t = s->type;
    char x[96], y[96];
    int ok;
    if (sr == TS_SCALAR_SHIFT) ok = is_int(t) && (t->bits == 16 || t->bits == ty_bits(e));
    else if (is_float(e)) ok = is_float(t) && t->fk == e->fk;
    else ok = is_int(t) && t->bits == ty_bits(e);
    if (!ok)
        v_err(V, DIAG_V_OPERAND_TYPE, op_use_loc(op, s), "the scalar %%%s of '%s' is %s; %s", v_valname(s), v_opname(op),
              tyn(t, x), sr == TS_SCALAR_SHIFT ? "shift counts are i16 or an integer of the element width"
              : (snprintf(y, sizeof y, "it must match the element type %s", tyn(e, x)), y));
}

/* vlds/vsts/vldsx2/vstsx2 distributions that name an element width (resolutions Q24, Q25). */
static int dist_bits(int tok)
{
    switch (tok) {
    case T_VLD_BRC_B8: case T_VLD_US_B8: case T_VLD_DS_B8: return 8;
    case T_VLD_BRC_B16: case T_VLD_US_B16: case T_VLD_DS_B16: case T_VLD_UNPK_B8: return 16;
    case T_VLD_BRC_B32: case T_VLD_UNPK_B16: case T_VLD_DINTLV_B32: return 32;
    case T_VLD_UNPK_B32: return 64;
    case T_VST_NORM_B8: case T_VST_ONEPT_B8: case T_VST_MRG4CHN_B8: case T_VST_MRG2CHN_B8: return 8;
    case T_VST_NORM_B16: case T_VST_PK_B16: case T_VST_ONEPT_B16: case T_VST_MRG2CHN_B16: return 16;
    case T_VST_NORM_B32: case T_VST_PK_B32: case T_VST_PK4_B32: case T_VST_ONEPT_B32: return 32;
    case T_VST_PK_B64: return -1;   /* 64-bit pairs of a 32- or 64-bit vector */
    case T_VLDX2_DINTLV_B8: case T_VSTX2_INTLV_B8: return 8;
    case T_VLDX2_DINTLV_B16: case T_VSTX2_INTLV_B16: return 16;
    case T_VLDX2_DINTLV_B32: case T_VSTX2_INTLV_B32: return 32;
    default: return 0;
    }
}

static int is_full_width_dist(int tok)
{
    return tok < 0 || tok == T_VLD_NORM || tok == T_VST_NORM || tok == T_VST_NORM_B8 || tok == T_VST_NORM_B16 ||
           tok == T_VST_NORM_B32;
}

static void vec_memory(VCtx *V, Op *op)
{
    int dist = op_token_id(op, "dist");
    Value *base = NULL, *off = NULL;
    int64_t bytes = 256;
    int x2 = op->kind == OP_VLDSX2 || op->kind == OP_VSTSX2 || op->kind == OP_VALDX2 || op->kind == OP_VASTX2;
    switch (op->kind) {
    case OP_VLDS: case OP_VLDSX2: case OP_VALD: case OP_VALDX2:
        base = v_grp(V, op, "src", 0); off = v_grp(V, op, "off", 0); break;
    case OP_VSTS: case OP_VSTSX2: case OP_VAST: case OP_VASTX2:
        base = v_grp(V, op, "dst", 0); off = v_grp(V, op, "off", 0); break;
    case OP_VGATHERB: base = v_grp(V, op, "src", 0); break;
    default: return;
    }
    if (x2) bytes = 512;
    /* The distribution, not the vreg type, fixes the element width of the transfer (resolutions
       Q24: BRC_B8/B16 on f32 vectors, UNPK_B16 on f16 vectors, PK_B32 on f16 vectors all occur in
       validated kernels), so no element-width rule applies here. MRG* is reported unsupported on
       current a5 hardware (isa-notes Q25). */
    if ((dist == T_VST_MRG4CHN_B8 || dist == T_VST_MRG2CHN_B8 || dist == T_VST_MRG2CHN_B16) &&
        V->target == PTO_TARGET_A5)
        v_warn(V, DIAG_V_UNCONFIRMED, aloc(op, "dist"), "%s is reported unsupported on current a5 hardware",
               tok_spelling(dist));
    /* Alignment and capacity of a constant full-width access. vgatherb bases need 32 bytes (isa-notes
       §3.2.1); vlds/vsts/x2 accesses need element alignment only: validated kernels load and store f32
       vectors at element offsets 129, 195 and 801 (docs/semantics.md, vector memory). */
    int64_t addr, o = 0;
    if (!base || !ty_is_ptr(base->type) || !v_const_addr(base, &addr)) return;
    /* (a !pto.vaddr offset is never a constant: it changes per loop iteration) */
    if (off && !v_const_int(off, &o)) return;
    int64_t esz = (int64_t)ty_bytes(base->type->elem);
    addr = v_sat_add(addr, v_sat_mul(o, esz));
    int full = x2 || (op->kind != OP_VGATHERB && is_full_width_dist(dist));
    int64_t need = op->kind == OP_VGATHERB ? 32 : esz;
    if ((full || op->kind == OP_VGATHERB) && need > 1 && addr % need != 0) {
        long d = v_err(V, DIAG_V_ALIGN, op->loc, "'%s' needs a %" PRId64 "-byte aligned UB address, but it accesses byte %" PRId64,
                       v_opname(op), need, addr);
        v_note(V, d, v_value_loc(base), "base address computed here");
    }
    if (full) check_capacity(V, op, base, addr, bytes, "the access", NULL);
}

/* Masks of vector ops govern lanes of one vreg: the granularity must be its element width. */
static void vec_masks(VCtx *V, Op *op, const char *mref)
{
    unsigned want;
    const char *refname = NULL;
    if (!mref) return;
    if (strcmp(mref, "b32") == 0) {
        want = 4;
    } else {
        Value *ref = named(V, op, mref);
        if (!ref || !ty_is_vreg(ref->type)) return;
        want = ebytes(ref->type);
        refname = v_valname(ref);
        if (want != 1 && want != 2 && want != 4) return;   /* no b64 masks */
    }
    if (op->kind == OP_VSTS || op->kind == OP_VAST) {
        /* a store distribution that names a width governs the predicate at that width (PK_B32 on
           an f16 vector takes a b32 mask; PK_B64 a b32 mask) */
        int dist = op_token_id(op, "dist"), w = dist >= 0 ? dist_bits(dist) : 0;
        if (dist == T_VST_MRG4CHN_B8 || dist == T_VST_MRG2CHN_B8 || dist == T_VST_MRG2CHN_B16) return;
        if (w) { want = w < 0 || w > 32 ? 4 : (unsigned)w / 8; refname = NULL; }
    }
    if (op->kind == OP_VSCATTER && want == 1) return;
    char x[96];
    for (uint32_t i = 0; i < op->noperands + op->nresults; i++) {
        const Value *m = i < op->noperands ? op->operands[i] : op->results[i - op->noperands];
        if (!m || !ty_is_mask(m->type) || !m->type->gran || m->type->gran == want) continue;
        if (refname)
            v_err(V, DIAG_V_MASK_GRAN, op_use_loc(op, m), "mask %%%s of '%s' is %s, but %%%s has %u-bit elements: use "
                  "!pto.mask<b%u>", v_valname(m), v_opname(op), tyn(m->type, x), refname, want * 8, want * 8);
        else
            v_err(V, DIAG_V_MASK_GRAN, op_use_loc(op, m), "mask %%%s of '%s' is %s; it must be !pto.mask<b%u>%s", v_valname(m),
                  v_opname(op), tyn(m->type, x), want * 8, op->kind == OP_VSTS || op->kind == OP_VAST
                  ? " for this distribution" : "");
        return;
    }
}

/* Element-kind bit (in an ES_* set) of a vreg or pointer element type; -1 for kinds no vector op takes. */
static int elem_bit(const Type *e)
{
    ElemKind k = elem_kind(e);
    return k == EK_BAD ? -1 : (int)k;
}

/* "i8-i32, ui8-ui32, f16, f32", "integers", "any element type" for messages. Signed and signless
   integers share a bit and print as iN; runs of widths print as ranges, as the spec writes them. */
static const char *elem_set_str(uint32_t m, char *buf, size_t n)
{
    static const unsigned w[] = {8, 16, 32, 64};
    size_t k = 0;
    buf[0] = 0;
    if ((m & ES_ANY) == ES_ANY) return snprintf(buf, n, "any element type"), buf;
    if ((m & ES_INT) == ES_INT) {
        k += (size_t)snprintf(buf, n, "integers");
        m &= ~(uint32_t)ES_INT;
    }
    for (unsigned u = 0; u < 2; u++)   /* signed (and signless), then unsigned: ranges of widths */
        for (unsigned i = 0; i < 4 && k < n; i++) {
            if (!(m & (1u << (2 * i + u)))) continue;
            unsigned j = i;
            while (j + 1 < 4 && (m & (1u << (2 * (j + 1) + u)))) j++;
            const char *p = u ? "ui" : "i";
            if (j > i) k += (size_t)snprintf(buf + k, n - k, "%s%s%u-%s%u", k ? ", " : "", p, w[i], p, w[j]);
            else k += (size_t)snprintf(buf + k, n - k, "%s%s%u", k ? ", " : "", p, w[i]);
            i = j;
        }
    int all8 = (m & ES_FP8) == ES_FP8;   /* printed as one item after the 16/32-bit floats */
    if (all8) m &= ~(uint32_t)ES_FP8;
    for (int b = EK_F16; b < EK__COUNT && k < n; b++)
        if (m & (1u << b)) k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? ", " : "", ek_name((ElemKind)b));
    if (all8 && k < n) snprintf(buf + k, n - k, "%sfp8/f4 kinds", k ? ", " : "");
    return buf;
}

/* The element-type rule of the vector table: a kind in r->isa passes, one in r->sim passes with
   W-ELEM-TYPE (the simulator implements it; the ISA does not document it), anything else is E-ELEM-TYPE.
   Returns 0 when an error was reported. */
static int vec_elem(VCtx *V, Op *op, const OpTypes *r)
{
    if (!r->isa && !r->sim) return 1;
    const Value *v = NULL;
    if (r->of) v = named(V, op, r->of);
    for (uint32_t i = 0; !v && i < op->noperands; i++)
        if (op->operands[i] && ty_is_vreg(op->operands[i]->type)) v = op->operands[i];
    for (uint32_t i = 0; !v && i < op->nresults; i++)
        if (ty_is_vreg(op->results[i]->type)) v = op->results[i];
    const Type *e = v ? v_elem(v->type) : NULL;
    int b = elem_bit(e);
    if (b < 0) return 1;
    char x[96], is[200], sm[200];
    uint32_t k = 1u << b;
    const char *what = ty_is_ptr(v->type) ? "pointers to" : "vectors of";
    if (!(r->isa & k)) {
        elem_set_str(r->isa, is, sizeof is);
        if (r->sim & k) {
            v_warn(V, DIAG_V_ELEM_EXT, op->loc, "'%s' on %s %s is not defined by the ISA (it takes %s); ptosim "
                   "simulates it as an extension", v_opname(op), what, tyn(e, x), is);
            return 1;
        }
        if (r->sim)
            v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'%s' does not accept %s %s: the ISA defines it for %s (ptosim also "
                  "simulates %s)", v_opname(op), what, tyn(e, x), is, elem_set_str(r->sim, sm, sizeof sm));
        else
            v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'%s' does not accept %s %s: the ISA defines it for %s", v_opname(op),
                  what, tyn(e, x), is);
        return 0;
    }
    /* fused compute+convert ops: the (source, destination) pair */
    const Value *res = op->nresults ? op->results[0] : NULL;
    int bd = res && ty_is_vreg(res->type) ? elem_bit(res->type->elem) : -1;
    /* the op table's CVT rows of the fused compute+convert ops */
    int found = bd < 0 ? CVT_NONE : (int)op_cvt(op->kind, b, bd);
    if (!op_has_cvt(op->kind) || bd < 0 || found == CVT_ISA) return 1;
    char y[96];
    if (found == CVT_SIM) {
        v_warn(V, DIAG_V_ELEM_EXT, op->loc, "'%s' from %s to %s is not defined by the ISA; ptosim simulates it as an "
               "extension", v_opname(op), tyn(e, x), tyn(res->type->elem, y));
        return 1;
    }
    v_err(V, DIAG_V_ELEM_TYPE, op->loc, "'%s' has no %s -> %s form (the ISA defines %s)", v_opname(op), tyn(e, x),
          tyn(res->type->elem, y), op->kind == OP_VMULCONV ? "f16 -> i8" : op->kind == OP_VMULSCVT ? "f32 -> f16"
          : "f32 -> f16 and f16 -> i8");
    return 0;
}

/* Indexed access (the compiler's verifier, PTOAS VPTO.cpp): vgather2 pairs its source and result element types
   (an 8-bit integer source widens to the 16-bit integer of the same signedness class, unsigned or not; 16- and
   32-bit sources keep their type) and reads unsigned or signless offsets as wide as the result lanes; vscatter
   needs 16-bit offsets for 8- and 16-bit values and 32-bit offsets for 32-bit values. */
static void vec_indexed(VCtx *V, Op *op)
{
    char x[96], y[96];
    Value *idx = v_grp(V, op, "idx", 0);
    if (!idx || !ty_is_vreg(idx->type) || !is_int(idx->type->elem)) return;
    const Type *ie = idx->type->elem;
    if (op->kind == OP_VGATHER2) {
        Value *src = v_grp(V, op, "src", 0);
        const Value *r = op->nresults ? op->results[0] : NULL;
        if (!src || !ty_is_ptr(src->type) || !r || !ty_is_vreg(r->type)) return;
        const Type *se = src->type->elem, *re = r->type->elem;
        unsigned sb = ty_bits(se);
        int ok = is_int(se) ? is_int(re) && re->bits == (sb == 8 ? 16 : sb) && (se->sign == SIGN_U) == (re->sign == SIGN_U)
                            : is_float(se) && se == re && (se->fk == FK_F16 || se->fk == FK_BF16 || se->fk == FK_F32);
        if (!ok || (sb != 8 && sb != 16 && sb != 32)) {
            v_err(V, DIAG_V_RESULT_TYPE, op->loc, "pto.vgather2 of %s elements %s, not %s", tyn(se, x),
                  sb == 8 && is_int(se) ? (se->sign == SIGN_U ? "returns ui16 lanes" : "returns i16/si16 lanes")
                  : is_int(se) || (is_float(se) && (se->fk == FK_F16 || se->fk == FK_BF16 || se->fk == FK_F32))
                  ? "returns vectors of that type" : "is not defined (sources are 8/16/32-bit integers, f16, bf16 or f32)",
                  tyn(r->type, y));
            return;
        }
        unsigned want = ty_bits(re);
        if (ie->bits != want || ie->sign == SIGN_S)
            v_err(V, DIAG_V_OPERAND_TYPE, op_use_loc(op, idx), "the offsets of pto.vgather2 are ui%u or i%u lanes, not %s",
                  want, want, tyn(idx->type, x));
    } else if (op->kind == OP_VSCATTER) {
        Value *v = v_grp(V, op, "v", 0);
        if (!v || !ty_is_vreg(v->type)) return;
        unsigned vb = ty_bits(v->type->elem), want = vb == 32 ? 32 : 16;
        if ((vb == 8 || vb == 16 || vb == 32) && ie->bits != want)
            v_err(V, DIAG_V_OPERAND_TYPE, op_use_loc(op, idx), "pto.vscatter of %u-bit values needs %u-bit offsets, not %s",
                  vb, want, tyn(idx->type, x));
    }
}

static void fam_vec(VCtx *V, Op *op)
{
    const OpTypes *r = &op_types[op->kind];
    int elem_ok = vec_elem(V, op, r);
    switch ((TypeRel)r->rel) {
    case TR_SAME: rel_same(V, op, 1); break;
    case TR_SAME_OPS: rel_same(V, op, 0); break;
    case TR_CVT: rel_cvt(V, op); break;
    case TR_NONE: break;
    default: rel_special(V, op, (TypeRel)r->rel, elem_ok); break;
    }
    if (r->scalar != TS_SCALAR_NONE) scalar_rule(V, op, (TypeScalarRule)r->scalar);
    vec_masks(V, op, r->mref);
    vec_memory(V, op);
    vec_indexed(V, op);
    /* the compiler lowers vmulscvt only with rounding A ("currently only supports rnd A") */
    if (op->kind == OP_VMULSCVT && op_token_id(op, "rnd") >= 0 && op_token_id(op, "rnd") != T_RND_A)
        v_err(V, DIAG_V_TOKEN, aloc(op, "rnd"), "pto.vmulscvt rounds with A only, not %s", tok_spelling(op_token_id(op, "rnd")));
    char x[96], y[96];
    if (op->kind == OP_VCI) {
        Value *b = v_grp(V, op, "base", 0);
        const Value *res = op->nresults ? op->results[0] : NULL;
        if (b && res && ty_is_vreg(res->type) && b->type &&
            !(ty_bits(b->type) == ty_bits(res->type->elem) && is_float(b->type) == is_float(res->type->elem)))
            v_err(V, DIAG_V_OPERAND_TYPE, op_use_loc(op, b), "the base of pto.vci is %s; it must be a scalar of the element type "
                  "of %s", tyn(b->type, x), tyn(res->type, y));
    }
    /* the two-operand vtranspose (PTOAS vpto-spec §13): one 16 x 16 matrix of si16/i16/ui16 elements; the
       config-word form's element types are not published */
    if (op->kind == OP_VTRANSPOSE && op->noperands == 2) {
        const Type *d = op->operands[0]->type, *sr = op->operands[1]->type;
        if (!ty_is_ptr(d) || !ty_is_ptr(sr)) return;
        const Type *de = v_elem(d), *se = v_elem(sr);
        if (!(is_int(se) && se->bits == 16))
            v_err(V, DIAG_V_ELEM_TYPE, op->loc, "pto.vtranspose transposes 16-bit integer elements (si16, i16, ui16), "
                  "not %s", tyn(se, x));
        else if (de != se)
            v_err(V, DIAG_V_OPERAND_TYPE, op->loc, "the destination of pto.vtranspose holds %s but the source holds %s; "
                  "they must match", tyn(de, x), tyn(se, y));
    }
}

/* ------------------------------------------------------------------ vector-address forms */

/* The PTOAS "VPTO vector-address op support design" (docs/semantics.md §6.11): pto.vag makes a !pto.vaddr<G>
   byte offset from up to four enclosing i16 scf.for counters; the va forms address `%base[%vaddr]`. */
static bool is_va_mem(OpKind k)
{
    switch (k) {
    case OP_VALD: case OP_VALDX2: case OP_VAST: case OP_VASTX2: case OP_VALDA: case OP_VALDU: case OP_VASTA:
    case OP_PALD: case OP_PAST:
        return true;
    default:
        return false;
    }
}

/* Memory-operand offsets: a !pto.vaddr for the va forms (required), an index or integer for every other op. */
static void va_offsets(VCtx *V, Op *op)
{
    const OpSig *sig = ctx_sig(V->ctx, op->kind);
    bool va = is_va_mem(op->kind);
    char a[96];
    for (unsigned j = 0; j < sig->npos; j++) {
        const SigSlot *s = &sig->pos[j];
        if (s->kind != SL_MEM || s->off_path) continue;
        Value *o = op_group_operand(op, (unsigned)s->group + 1, 0);
        if (va && !o)
            v_err(V, DIAG_V_OPERAND_COUNT, op->loc, "'%s' addresses %%%s[%%vaddr]: the vector address from pto.vag is "
                  "missing", v_opname(op), s->name);
        else if (o && o->type && ty_is_vaddr(o->type) != va)
            v_err(V, DIAG_V_OPERAND_TYPE, op_use_loc(op, o), "the offset %%%s of '%s' is %s; %s", v_valname(o), v_opname(op),
                  tyn(o->type, a), va ? "the vector-address forms take a !pto.vaddr<G> byte offset from pto.vag"
                                      : "only the vector-address forms (pto.vald, pto.vast, ...) take a !pto.vaddr");
    }
}

/* A value typed `any` in ops.def that must be a !pto.vaddr; `like` (if given) is the vaddr it must match. */
static void va_value(VCtx *V, Op *op, const Value *v, const Value *like, bool result)
{
    char a[96], b[96];
    if (!v || !v->type) return;
    DiagId id = result ? DIAG_V_RESULT_TYPE : DIAG_V_OPERAND_TYPE;
    if (!ty_is_vaddr(v->type))
        v_err(V, id, op_use_loc(op, v), "%%%s of '%s' must be a !pto.vaddr<b8|b16|b32>, not %s", v_valname(v), v_opname(op),
              tyn(v->type, a));
    else if (like && ty_is_vaddr(like->type) && like->type != v->type)
        v_err(V, id, op->loc, "the updated vector address %%%s of '%s' is %s; it must have the type of %%%s, %s",
              v_valname(v), v_opname(op), tyn(v->type, a), v_valname(like), tyn(like->type, b));
}

/* The scf.for loops of op's vector scope that enclose it, innermost first (at most 4); returns how many. */
static unsigned va_loops(const Op *op, const Op *loops[4])
{
    unsigned k = 0;
    for (const Op *p = ir_parent_op(op); p && k < 4; p = ir_parent_op(p)) {
        if (p->kind == OP_SCF_FOR) loops[k++] = p;
        if (v_is_vec_interval(p)) break;
    }
    return k;
}

/* pto.vag %s1[, %s2, %s3, %s4]: stride k is bound to the k-th enclosing scf.for of the vector scope, which
   must exist and be an i16 loop (the hardware loop counter). */
static void va_vag(VCtx *V, Op *op)
{
    unsigned n = op->noperands;
    if (n < 1 || n > 4) {
        v_err(V, DIAG_V_OPERAND_COUNT, op->loc, "pto.vag takes 1 to 4 byte strides, not %u", n);
        return;
    }
    va_value(V, op, op->nresults ? op->results[0] : NULL, NULL, true);
    const Op *loops[4];
    unsigned k = va_loops(op, loops);
    if (k < n) {
        v_err(V, DIAG_V_OPERAND_COUNT, op->loc, "pto.vag with %u stride%s must be nested in %u scf.for loop%s "
              "inside its vector scope (stride k scales the iteration count of the k-th enclosing loop); it is "
              "nested in %u", n, n > 1 ? "s" : "", n, n > 1 ? "s" : "", k);
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        const Type *t = loops[i]->regions[0]->block->args[0]->type;
        if (t && t->kind == TY_INT && t->bits == 16) continue;
        char a[96];
        long d = v_err(V, DIAG_V_OPERAND_TYPE, op->loc, "stride %u of pto.vag is bound to an scf.for whose induction "
                       "variable is %s; vector-address loops must be i16", i + 1, tyn(t, a));
        v_note(V, d, loops[i]->loc, "loop here");
        return;
    }
}

/* Bytes per element the width-suffixed vald distributions name (UNPK4 and SPLT4CHN work on b8 data); 0 = the
   element width of the access. */
static unsigned vald_dist_bytes(int tok)
{
    switch (tok) {
    case T_VLD_BRC_B8: case T_VLD_US_B8: case T_VLD_DS_B8: case T_VLD_UNPK_B8: case T_VLD_UNPK4:
    case T_VLD_SPLT4CHN_B8: case T_VLD_SPLT2CHN_B8:
        return 1;
    case T_VLD_BRC_B16: case T_VLD_US_B16: case T_VLD_DS_B16: case T_VLD_UNPK_B16: case T_VLD_E2B_B16:
    case T_VLD_SPLT2CHN_B16:
        return 2;
    case T_VLD_BRC_B32: case T_VLD_UNPK_B32: case T_VLD_E2B_B32:
        return 4;
    default:
        return 0;
    }
}

/* pto.vald: the design's token table (no BLK, DINTLV_B32 or UNPK4_B8), UNPK4/SPLT4CHN on b8 vectors, and G
   naming the access granularity: the base's element width or the width the distribution names. */
static void va_vald(VCtx *V, Op *op)
{
    int t = op_token_id(op, "dist");
    char a[96], b[96];
    if (t == T_VLD_BLK || t == T_VLD_DINTLV_B32 || t == T_VLD_UNPK4_B8) {
        v_err(V, DIAG_V_TOKEN, aloc(op, "dist"), "pto.vald does not take %s (its distributions are NORM, "
              "BRC_B8/B16/B32, US_B8/B16, DS_B8/B16, UNPK_B8/B16/B32, BRC_BLK, E2B_B16/B32, UNPK4, SPLT4CHN, "
              "SPLT2CHN_B8/B16)", tok_spelling(t));
        return;
    }
    const Value *r = op->nresults ? op->results[0] : NULL;
    if ((t == T_VLD_UNPK4 || t == T_VLD_SPLT4CHN_B8) && r && ty_is_vreg(r->type) && ebytes(r->type) != 1)
        v_err(V, DIAG_V_ELEM_TYPE, op->loc, "pto.vald %s loads b8 element vectors only, not %s", tok_spelling(t),
              tyn(r->type, a));
    Value *base = v_grp(V, op, "src", 0), *off = v_grp(V, op, "off", 0);
    if (!base || !off || !ty_is_ptr(base->type) || !ty_is_vaddr(off->type)) return;
    unsigned g = off->type->gran, e = ebytes(base->type), d = vald_dist_bytes(t);
    if (g == e || g == d || e > 4) return;
    char w[64] = "";
    if (d && d != e) snprintf(w, sizeof w, " or the width %s names (b%u)", tok_spelling(t), d * 8);
    v_err(V, DIAG_V_OPERAND_TYPE, op_use_loc(op, off), "the vector address %%%s of pto.vald is %s; G must be the element width "
          "(b%u, %s)%s", v_valname(off), tyn(off->type, a), e * 8, tyn(base->type->elem, b), w);
}

static void fam_vaddr(VCtx *V, Op *op)
{
    va_offsets(V, op);
    switch (op->kind) {
    case OP_VAG: va_vag(V, op); break;
    case OP_VALD: va_vald(V, op); break;
    case OP_VAST:
        if (op_token_id(op, "dist") == T_VST_NORM)
            v_err(V, DIAG_V_TOKEN, aloc(op, "dist"), "pto.vast does not take NORM: omit dist for the element-width "
                  "default, or write NORM_B8, NORM_B16 or NORM_B32");
        break;
    case OP_VALDU:
        va_value(V, op, res_named(V, op, "off1"), v_grp(V, op, "off", 0), true);
        break;
    case OP_VASTU:
        va_value(V, op, v_grp(V, op, "off", 0), NULL, false);
        va_value(V, op, res_named(V, op, "off1"), v_grp(V, op, "off", 0), true);
        if (op_token_id(op, "mode") == T_POST_NO_POST_UPDATE)
            v_err(V, DIAG_V_TOKEN, aloc(op, "mode"), "pto.vastu takes \"POST_UPDATE\" only (a no-post store uses "
                  "pto.vstus)");
        break;
    default:
        break;
    }
}

/* ------------------------------------------------------------------ dispatch */

/* builtin.unrealized_conversion_cast: ptosim runs the casts the compiler leaves between scalar types of one
   width (i32 -> ui32, index -> i64), as the same bits */
static void fam_unrealized_cast(VCtx *V, Op *op)
{
    char a[96], b[96];
    const Type *s = op->noperands && op->operands[0] ? op->operands[0]->type : NULL;
    const Type *d = op->nresults ? op->results[0]->type : NULL;
    int ok = s && d && (s->kind == TY_INT || s->kind == TY_FLOAT || s->kind == TY_INDEX) &&
             (d->kind == TY_INT || d->kind == TY_FLOAT || d->kind == TY_INDEX) && ty_bits(s) == ty_bits(d);
    if (!ok)
        v_err(V, DIAG_V_OPERAND_TYPE, op->loc, "builtin.unrealized_conversion_cast runs only between scalar types of "
              "one width (the same bits), not %s to %s", tyn(s, a), tyn(d, b));
}

void verify_family(VCtx *V, Op *op)
{
    if (op->kind == OP_UNREALIZED_CAST) fam_unrealized_cast(V, op);
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
