/* verify_vec.c — the relational rules of the vector-scope families: predicates (granularities, patterns,
 * pstu pairs), vector ops (the element types and type relations of the op table's TYPES and CVT rows, scalar
 * operands, masks, memory distributions, indexed access) and the vector-address forms (pto.vag, %base[%vaddr]). */
#include "verify_fam.h"

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

void fam_pred(VCtx *V, Op *op)
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
            v_err(V, DIAG_V_RANGE, v_gloc(V, op, "off", 0), "'%s' takes an immediate offset: %%%s must be an arith.constant",
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
    if (full) v_check_capacity(V, op, base, addr, bytes, "the access", NULL);
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
        Value *ref = v_named(V, op, mref);
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
    if (r->of) v = v_named(V, op, r->of);
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

void fam_vec(VCtx *V, Op *op)
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

void fam_vaddr(VCtx *V, Op *op)
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
        va_value(V, op, v_res_named(V, op, "off1"), v_grp(V, op, "off", 0), true);
        break;
    case OP_VASTU:
        va_value(V, op, v_grp(V, op, "off", 0), NULL, false);
        va_value(V, op, v_res_named(V, op, "off1"), v_grp(V, op, "off", 0), true);
        if (op_token_id(op, "mode") == T_POST_NO_POST_UPDATE)
            v_err(V, DIAG_V_TOKEN, aloc(op, "mode"), "pto.vastu takes \"POST_UPDATE\" only (a no-post store uses "
                  "pto.vstus)");
        break;
    default:
        break;
    }
}
