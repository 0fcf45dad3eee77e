/* verify.c — the verifier's driver and its region rules.
 *
 * verify_module() walks the module once, top-down, carrying the enclosing function, vector
 * interval, strict_vecscope and section. At every op it applies, in order:
 *   1. value rules on everything the op defines (vreg shape, element types, mask placeholders,
 *      element types the target profile lacks);
 *   2. target-profile availability of the op (E-TARGET-OP) and deprecation warnings;
 *   3. region rules: vector intervals, strict capture, sections, terminators, scf/func typing;
 *   4. the signature-driven structural pass (verify_sig.c) and the family rules (verify_fam.c,
 *      verify_mem.c, verify_vec.c).
 * The !pto.align chain analysis (verify_align.c) runs afterwards over the whole module.
 * Every rule, its ID and its evidence are listed in docs/verifier.md. The parser guarantees
 * def-before-use and lexical scoping, so SSA dominance needs no separate check here. */
#include "verify_int.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ value rules */

/* What check_value_type names in its messages ("result %r of 'op'", "block argument %a"), formatted only
   when it reports: most values pass, and formatting is most of the cost of checking them. */
typedef struct ValueWhat {
    const Value *v;
    const Op *op;              /* the defining op of a result, NULL for a block argument */
} ValueWhat;

static const char *what_str(ValueWhat w, char *buf, size_t n)
{
    if (w.op) snprintf(buf, n, "result %%%s of '%s'", v_valname(w.v), v_opname(w.op));
    else snprintf(buf, n, "block argument %%%s", v_valname(w.v));
    return buf;
}

/* Rules on a type every value must satisfy wherever it is defined. Returns 1 if it reported. */
static int check_value_type(VCtx *V, const Type *t, SrcLoc loc, ValueWhat vw)
{
    char b[96], w[160];
    if (!t) return 0;
    if (t->kind == TY_VREG) {
        const Type *e = t->elem;
        int ok_elem = e && ((e->kind == TY_INT && (e->bits == 8 || e->bits == 16 || e->bits == 32 || e->bits == 64)) ||
                            (e->kind == TY_FLOAT && e->fk != FK_F64));
        if (!ok_elem) {
            v_err(V, DIAG_V_ELEM_TYPE, loc, "%s has type %s; vector registers hold 8/16/32/64-bit integers or "
                  "f16/bf16/f32/fp8 elements", what_str(vw, w, sizeof w), v_tyname(t, b, sizeof b));
            return 1;
        }
        if ((unsigned)t->lanes * ty_bits(e) != 2048) {
            char eb[48];
            v_err(V, DIAG_V_VREG_SHAPE, loc, "%s has type %s (%u bits); a vector register holds exactly 2048 bits, "
                  "i.e. !pto.vreg<%ux%s>", what_str(vw, w, sizeof w), v_tyname(t, b, sizeof b),
                  (unsigned)t->lanes * ty_bits(e), 2048 / ty_bits(e), v_tyname(e, eb, sizeof eb));
            return 1;
        }
    }
    if (t->kind == TY_MASK && t->gran == 0) {
        v_err(V, DIAG_V_MASK_GRAN, loc, "%s has the placeholder type !pto.mask<G>; write !pto.mask<b8>, <b16> or <b32>",
              what_str(vw, w, sizeof w));
        return 1;
    }
    if (!V->tp->fp8 && v_is_fp8ish(t)) {
        v_err(V, DIAG_V_TARGET_TYPE, loc, "%s has type %s; fp8, hif8, f4 and e8m0 element types are only available on "
              "the a5 target profile (selected: %s)", what_str(vw, w, sizeof w), v_tyname(t, b, sizeof b), V->tp->name);
        return 1;
    }
    return 0;
}

static void check_defs(VCtx *V, Op *op)
{
    for (uint32_t i = 0; i < op->nresults; i++) {
        ValueWhat vw = {op->results[i], op};
        if (check_value_type(V, op->results[i]->type, op->loc, vw)) break;
    }
    for (uint32_t r = 0; r < op->nregions; r++) {
        Block *b = op->regions[r]->block;
        for (uint32_t i = 0; i < b->nargs; i++) {
            ValueWhat what = {b->args[i], NULL};
            /* arguments without a ^bb label carry the region's location: report them at the op */
            SrcLoc l = b->args[i]->loc;
            if (!l.file || (l.line == b->loc.line && l.col == b->loc.col)) l = op->loc;
            check_value_type(V, b->args[i]->type, l, what);
        }
    }
}

/* ------------------------------------------------------------------ target profile */

static void check_target_op(VCtx *V, Op *op)
{
    const OpInfo *oi = &op_info[op->kind];
    if (oi->flags & V->tp->op_mask) {
        OpHintWhen when = V->target == PTO_TARGET_A5 ? HINT_A5 : V->target == PTO_TARGET_A2A3 ? HINT_A2A3
                        : V->target == PTO_TARGET_CPU ? HINT_CPU : HINT_ANY;
        const char *hint = op_hint(op->kind, when);
        if (oi->fam == FAM_VMI) hint = "VMI (pto.vmi.*) is lowered for the a5 vector pipe only";
        const char *avail = (oi->flags & F_NOCPU) && (oi->flags & F_NOA2A3) && !(oi->flags & F_NOA5) ? " (a5 only)"
                          : (oi->flags & F_NOCPU) && (oi->flags & F_NOA5) && !(oi->flags & F_NOA2A3) ? " (a2a3 only)" : "";
        v_err(V, DIAG_V_TARGET_OP, op->loc, "'%s' is not available on the %s target profile%s%s%s", oi->name,
              V->tp->name, avail, hint ? "; " : "", hint ? hint : "");
    }
    if (oi->flags & F_LEGACY) {
        const char *hint = op_hint(op->kind, HINT_LEGACY);
        v_warn(V, DIAG_V_DEPRECATED, op->loc, "'%s' is a pre-v0.6 form%s%s", oi->name, hint ? "; " : "", hint ? hint : "");
    }
}

/* ------------------------------------------------------------------ walk state */

typedef struct Walk {
    Op *func;
    Op *vec;                   /* innermost enclosing vector interval */
    Op *strict;                /* innermost enclosing strict_vecscope */
    Op *section;               /* enclosing pto.section.* */
} Walk;

static int is_vstate_type(const Type *t) { return ty_is_vector_state(t); }   /* VMI vectors and masks too */

static const char interval_desc[] = "a vector scope (pto.vecscope, pto.strict_vecscope or an scf.for carrying "
                                   "llvm.loop.aivector_scope)";

/* Vector-interval, capture and section rules for one op. */
static void check_scopes(VCtx *V, Op *op, const Walk *W)
{
    const OpInfo *oi = &op_info[op->kind];
    int interval = v_is_vec_interval(op);
    char b[96];

    if (interval && W->vec) {
        long d = v_err(V, DIAG_V_VEC_NESTED, op->loc, "'%s' opens a vector scope inside another one; vector scopes "
                       "must not nest", oi->name);
        v_note(V, d, W->vec->loc, "enclosing vector scope opened here");
    }
    if (!W->vec) {
        if (oi->flags & F_VEC) {
            v_err(V, DIAG_V_VEC_SCOPE, op->loc, "'%s' must be inside %s", oi->name, interval_desc);
        } else if (!interval) {
            /* vreg/mask/align values exist only inside a vector interval */
            const Value *bad = NULL;
            for (uint32_t i = 0; i < op->noperands && !bad; i++)
                if (op->operands[i] && is_vstate_type(op->operands[i]->type)) bad = op->operands[i];
            for (uint32_t i = 0; i < op->nresults && !bad; i++)
                if (is_vstate_type(op->results[i]->type)) bad = op->results[i];
            if (bad)
                v_err(V, DIAG_V_VEC_SCOPE, op->loc, "'%s' uses %%%s of type %s outside %s", oi->name, v_valname(bad),
                      v_tyname(bad->type, b, sizeof b), interval_desc);
        }
    } else if (oi->flags & F_OUTSIDE) {
        long d = v_err(V, DIAG_V_NOT_IN_SCOPE, op->loc, "'%s' is not allowed inside a vector scope; issue it from the "
                       "scalar unit, outside the scope", oi->name);
        v_note(V, d, W->vec->loc, "vector scope opened here");
    }
    if (interval && op->kind == OP_SCF_FOR) {
        for (uint32_t i = 0; i < op->nresults; i++)
            if (is_vstate_type(op->results[i]->type)) {
                v_err(V, DIAG_V_VEC_SCOPE, op->loc, "result %%%s of type %s leaves the vector scope",
                      v_valname(op->results[i]), v_tyname(op->results[i]->type, b, sizeof b));
                break;
            }
    }

    /* strict_vecscope: no implicit capture */
    if (W->strict) {
        for (uint32_t i = 0; i < op->noperands; i++) {
            const Value *v = op->operands[i];
            if (!v || v_block_within(v_value_block(v), W->strict)) continue;
            long d = v_err(V, DIAG_V_STRICT_CAPTURE, op->loc, "'%s' uses %%%s, defined outside the enclosing "
                           "pto.strict_vecscope; pass it in as a scope operand and block argument", oi->name, v_valname(v));
            v_note(V, d, v_value_loc(v), "%%%s is defined here", v_valname(v));
        }
    }

    /* sections (the compiler's section sugar: any number of each kind, anywhere in a function body,
       inside scf regions too; a core runs the sections of its kind where they stand) */
    if (op->kind == OP_SECTION_CUBE || op->kind == OP_SECTION_VECTOR) {
        if (!W->func) {
            v_err(V, DIAG_V_SECTION, op->loc, "'%s' must appear in a function body", oi->name);
        } else if (W->section) {
            long d = v_err(V, DIAG_V_SECTION, op->loc, "'%s' inside another section; sections do not nest", oi->name);
            v_note(V, d, W->section->loc, "enclosing section opened here");
        } else if (W->vec) {
            long d = v_err(V, DIAG_V_SECTION, op->loc, "'%s' inside a vector scope; open the scope inside the section",
                           oi->name);
            v_note(V, d, W->vec->loc, "vector scope opened here");
        }
    }
    /* helpers of the compiler's tile-op library (pto.tileop.helper) are pure compute: it rejects pipe
       synchronisation and MTE data movement in them */
    if (W->func && v_has(W->func, "pto.tileop.helper") &&
        ((oi->fam == FAM_SYNC && op->kind != OP_MEM_BAR && op->kind != OP_DCCI) || oi->fam == FAM_DMA ||
         oi->fam == FAM_CUBE_DMA)) {
        long d = v_err(V, DIAG_V_HELPER, op->loc, "'%s' in a pto.tileop.helper function: helpers contain no %s",
                       oi->name, oi->fam == FAM_SYNC ? "pipe synchronisation" : "MTE data movement");
        v_note(V, d, W->func->loc, "helper declared here");
    }
    if (W->section && W->section->kind == OP_SECTION_CUBE && interval && !W->vec) {
        long d = v_err(V, DIAG_V_SECTION, op->loc, "vector scope inside pto.section.cube; vector work belongs in "
                       "pto.section.vector (the AIV program)");
        v_note(V, d, W->section->loc, "cube section opened here");
    }
    if (W->section && W->section->kind == OP_SECTION_VECTOR && (oi->fam == FAM_MAD || oi->fam == FAM_CUBE_DMA)) {
        long d = v_err(V, DIAG_V_SECTION, op->loc, "cube operation '%s' inside pto.section.vector; it belongs in "
                       "pto.section.cube (the AIC program)", oi->name);
        v_note(V, d, W->section->loc, "vector section opened here");
    }
}

/* ------------------------------------------------------------------ terminators, scf, func */

static const Type *func_type(const Op *f) { return v_func_type(f); }

static int region_index(const Op *parent, const Block *b)
{
    for (uint32_t r = 0; r < parent->nregions; r++)
        if (parent->regions[r]->block == b) return (int)r;
    return -1;
}

static void check_terminator_placement(VCtx *V, Op *op)
{
    const OpInfo *oi = &op_info[op->kind];
    if (!(oi->flags & F_TERM)) return;
    Op *p = ir_parent_op(op);
    int ri = p ? region_index(p, op->parent) : -1;
    const char *want = NULL;
    switch (op->kind) {
    case OP_RETURN:
        if (!p || p->kind != OP_FUNC) want = "'return' may only terminate a function body";
        break;
    case OP_SCF_YIELD:
        if (!p || !(p->kind == OP_SCF_FOR || p->kind == OP_SCF_IF || (p->kind == OP_SCF_WHILE && ri == 1)))
            want = "'scf.yield' may only terminate the body of scf.for, scf.if or the 'do' region of scf.while";
        break;
    case OP_SCF_CONDITION:
        if (!p || p->kind != OP_SCF_WHILE || ri != 0)
            want = "'scf.condition' may only terminate the first region of scf.while";
        break;
    default:
        break;
    }
    if (want) v_err(V, DIAG_V_TERMINATOR, op->loc, "%s", want);
    else if (op->next) {
        long d = v_err(V, DIAG_V_TERMINATOR, op->loc, "'%s' must be the last operation of its block", oi->name);
        v_note(V, d, op->next->loc, "followed by this operation");
    }
}

/* Compares a list of values with a list of types and reports the first difference. Returns
   V_MATCH when they agree, else the index of the diagnostic (-1 when the error cap swallowed it). */
enum { V_MATCH = -2 };

static long match_types(VCtx *V, DiagId id, SrcLoc loc, const char *what, Value *const *vals, uint32_t nv,
                        const Type *const *types, uint32_t nt, const char *against)
{
    char a[96], b[96];
    if (nv != nt) return v_err(V, id, loc, "%s passes %u value(s) where %s has %u", what, nv, against, nt);
    for (uint32_t i = 0; i < nv; i++)
        if (vals[i] && vals[i]->type != types[i])
            return v_err(V, id, loc, "%s: value %u (%%%s) has type %s where %s has %s", what, i, v_valname(vals[i]),
                         v_tyname(vals[i]->type, a, sizeof a), against, v_tyname(types[i], b, sizeof b));
    return V_MATCH;
}

static const Type *const *value_types(Value *const *v, uint32_t n, const Type **buf)
{
    for (uint32_t i = 0; i < n && i < 64; i++) buf[i] = v[i] ? v[i]->type : NULL;
    return buf;
}

/* The terminator of a region that must yield `n` values of `types`, or report. */
static void check_region_yield(VCtx *V, Op *owner, Region *r, OpKind term, const Type *const *types, uint32_t n,
                               const char *against, int required)
{
    Op *last = r->block->last;
    if (!last || last->kind != term) {
        if (required || n)
            v_err(V, DIAG_V_TERMINATOR, last ? last->loc : owner->loc, "this region of '%s' must end with '%s'%s",
                  v_opname(owner), op_info[term].name, n ? " yielding its values" : "");
        return;
    }
    uint32_t skip = term == OP_SCF_CONDITION ? 1 : 0;
    if (last->noperands < skip) return;
    match_types(V, DIAG_V_YIELD, last->loc, op_info[term].name, last->operands + skip, last->noperands - skip,
                types, n, against);
}

static void check_scf(VCtx *V, Op *op)
{
    char a[96], b[96];
    const Type *buf[64];
    if (op->nresults > 64 || op->noperands > 64) return;   /* beyond the parser's limits */
    switch (op->kind) {
    case OP_SCF_FOR: {
        if (op->noperands < 3 || op->nregions != 1) return;
        Block *body = op->regions[0]->block;
        const Type *ivt = body->nargs ? body->args[0]->type : NULL;
        if (ivt && !ty_is_intlike(ivt))
            v_err(V, DIAG_V_OPERAND_TYPE, op->loc, "the induction variable of scf.for must be an integer or index, not %s",
                  v_tyname(ivt, a, sizeof a));
        static const char *const nm[3] = {"lower bound", "upper bound", "step"};
        for (int i = 0; i < 3; i++)
            if (ivt && op->operands[i] && op->operands[i]->type != ivt) {
                v_err(V, DIAG_V_OPERAND_TYPE, op->loc, "scf.for %s %%%s has type %s but the induction variable is %s",
                      nm[i], v_valname(op->operands[i]), v_tyname(op->operands[i]->type, a, sizeof a),
                      v_tyname(ivt, b, sizeof b));
                break;
            }
        if (body->nargs != op->noperands - 2)
            v_err(V, DIAG_V_REGION, op->loc, "scf.for body takes %u argument(s); expected the induction variable and %u "
                  "iter_args", body->nargs, op->noperands - 3);
        check_region_yield(V, op, op->regions[0], OP_SCF_YIELD, value_types(op->results, op->nresults, buf),
                           op->nresults, "the scf.for result list", 0);
        break;
    }
    case OP_SCF_IF: {
        if (op->noperands >= 1 && op->operands[0]) {
            const Type *ct = op->operands[0]->type;
            if (!(ct && ct->kind == TY_INT && ct->bits == 1))
                v_err(V, DIAG_V_OPERAND_TYPE, op->loc, "scf.if condition %%%s must be i1, not %s",
                      v_valname(op->operands[0]), v_tyname(ct, a, sizeof a));
        }
        if (op->nresults && op->nregions < 2)
            v_err(V, DIAG_V_REGION, op->loc, "scf.if with results needs an 'else' region yielding them");
        for (uint32_t r = 0; r < op->nregions; r++)
            check_region_yield(V, op, op->regions[r], OP_SCF_YIELD, value_types(op->results, op->nresults, buf),
                               op->nresults, "the scf.if result list", 0);
        break;
    }
    case OP_SCF_WHILE: {
        if (op->nregions != 2) return;
        const Type *ibuf[64];
        const Type *const *in = value_types(op->operands, op->noperands, ibuf);
        Block *before = op->regions[0]->block, *after = op->regions[1]->block;
        if (before->nargs != op->noperands)
            v_err(V, DIAG_V_REGION, op->loc, "the first region of scf.while takes %u argument(s); %u are passed in",
                  before->nargs, op->noperands);
        if (after->nargs != op->nresults)
            v_err(V, DIAG_V_REGION, op->loc, "the 'do' region of scf.while takes %u argument(s); it must take one per "
                  "result (%u)", after->nargs, op->nresults);
        else
            for (uint32_t i = 0; i < after->nargs; i++)
                if (after->args[i]->type != op->results[i]->type) {
                    v_err(V, DIAG_V_REGION, op->loc, "argument %u of the 'do' region has type %s; the result has type %s",
                          i, v_tyname(after->args[i]->type, a, sizeof a), v_tyname(op->results[i]->type, b, sizeof b));
                    break;
                }
        Op *cond = before->last;
        if (cond && cond->kind == OP_SCF_CONDITION && cond->noperands >= 1 && cond->operands[0]) {
            const Type *ct = cond->operands[0]->type;
            if (!(ct && ct->kind == TY_INT && ct->bits == 1))
                v_err(V, DIAG_V_OPERAND_TYPE, cond->loc, "scf.condition needs an i1 condition, not %s", v_tyname(ct, a, sizeof a));
        }
        check_region_yield(V, op, op->regions[0], OP_SCF_CONDITION, value_types(op->results, op->nresults, buf),
                           op->nresults, "the scf.while result list", 1);
        check_region_yield(V, op, op->regions[1], OP_SCF_YIELD, in, op->noperands, "the scf.while operand list", 1);
        break;
    }
    default:
        break;
    }
}

static void check_func(VCtx *V, Op *op)
{
    const Type *ft = func_type(op);
    if (!op->nregions) return;
    Block *body = op->regions[0]->block;
    if (ft && body->nargs == ft->nin) {
        for (uint32_t i = 0; i < ft->nin; i++)
            if (body->args[i]->type != ft->params[i]) {
                v_err(V, DIAG_V_REGION, op->loc, "function argument %u does not match the function type", i);
                break;
            }
    }
    if (!body->last || body->last->kind != OP_RETURN)
        v_err(V, DIAG_V_TERMINATOR, body->last ? body->last->loc : op->loc, "a function body must end with 'return'");
}

static void check_return(VCtx *V, Op *op)
{
    Op *f = ir_parent_op(op);
    if (!f || f->kind != OP_FUNC) return;
    const Type *ft = func_type(f);
    if (!ft) return;
    long d = match_types(V, DIAG_V_RETURN, op->loc, "return", op->operands, op->noperands, ft->params + ft->nin,
                         ft->nout, "the function type");
    if (d != V_MATCH) v_note(V, d, f->loc, "function declared here");
}

static const Attr *sym_name(const Op *op) { return op_attr(op, "sym_name"); }

static void check_call(VCtx *V, Op *op)
{
    const Attr *c = op_attr(op, "callee");
    if (!c || !c->s) return;
    Op *callee = functab_resolve(V->funcs, op, c->s);
    if (!callee) {
        v_err(V, DIAG_V_CALL, op->loc, "call to unknown function '@%s'", c->s[0] == '@' ? c->s + 1 : c->s);
        return;
    }
    const Type *ft = func_type(callee);
    if (!ft) return;
    long d = match_types(V, DIAG_V_CALL, op->loc, "call", op->operands, op->noperands, ft->params, ft->nin, "the callee");
    if (d == V_MATCH)
        d = match_types(V, DIAG_V_CALL, op->loc, "call results", op->results, op->nresults, ft->params + ft->nin,
                        ft->nout, "the callee");
    if (d != V_MATCH) v_note(V, d, callee->loc, "callee declared here");
}

static void check_strict_args(VCtx *V, Op *op)
{
    if (op->nregions != 1) return;
    Block *b = op->regions[0]->block;
    char a[96], c[96];
    if (b->nargs != op->noperands) {
        v_err(V, DIAG_V_REGION, op->loc, "pto.strict_vecscope passes %u value(s) but its block takes %u argument(s)",
              op->noperands, b->nargs);
        return;
    }
    for (uint32_t i = 0; i < b->nargs; i++)
        if (op->operands[i] && b->args[i]->type != op->operands[i]->type) {
            v_err(V, DIAG_V_REGION, op->loc, "block argument %%%s has type %s but the value passed in has type %s",
                  v_valname(b->args[i]), v_tyname(b->args[i]->type, a, sizeof a),
                  v_tyname(op->operands[i]->type, c, sizeof c));
            return;
        }
}

/* ------------------------------------------------------------------ modules and kernels */

static void check_module(VCtx *V, Op *mod)
{
    const Attr *ta = op_attr(mod, "pto.target_arch");
    if (ta) {
        PtoTarget t;
        if (!((ta->kind == AT_STR || ta->kind == AT_TOKEN) && ta->s && pto_target_from_name(ta->s, &t) == 0))
            v_err(V, DIAG_V_ATTR, v_attr_loc(mod, "pto.target_arch"),
                  "pto.target_arch must be \"a5\", \"a2a3\" or \"cpu\"");
    }
    const Attr *kk = op_attr(mod, "pto.kernel_kind");
    if (kk && !(kk->s && (strcmp(kk->s, "vector") == 0 || strcmp(kk->s, "cube") == 0)))
        v_err(V, DIAG_V_ATTR, v_attr_loc(mod, "pto.kernel_kind"), "pto.kernel_kind must be #pto.kernel_kind<vector> or "
              "#pto.kernel_kind<cube>");
    if (!mod->nregions) return;
    for (Op *o = mod->regions[0]->block->first; o; o = o->next) {
        if (v_skipped_unit(V, o)) continue;
        if (o->kind != OP_FUNC && o->kind != OP_MODULE) {
            v_err(V, DIAG_V_REGION, o->loc, "'%s' cannot appear at module level; only func.func and module may",
                  v_opname(o));
            continue;
        }
        const Attr *nm = o->kind == OP_FUNC ? sym_name(o) : NULL;
        Op *first = nm && nm->s ? functab_in_module(V->funcs, mod, nm->s) : NULL;
        if (first && first != o) {
            long d = v_err(V, DIAG_V_DUP_SYMBOL, o->loc, "function '@%s' is already defined in this module", nm->s);
            v_note(V, d, first->loc, "first defined here");
        }
        if (!v_is_kernel(o)) continue;   /* a module may hold any number of kernels; run -e picks one */
        const Type *ft = func_type(o);
        if (!o->nregions)
            v_err(V, DIAG_V_ENTRY, o->loc, "kernel function has no body");
        if (ft && ft->nout)
            v_err(V, DIAG_V_ENTRY, o->loc, "a kernel function returns no values (its type lists %u result(s))", ft->nout);
    }
}

/* ------------------------------------------------------------------ the walk */

static void verify_op(VCtx *V, Op *op, Walk W);

static void walk_regions(VCtx *V, Op *op, Walk W)
{
    for (uint32_t r = 0; r < op->nregions; r++)
        for (Op *o = op->regions[r]->block->first; o; o = o->next)
            if (!v_skipped_unit(V, o)) verify_op(V, o, W);
}

static void verify_op(VCtx *V, Op *op, Walk W)
{
    check_defs(V, op);
    check_target_op(V, op);
    check_scopes(V, op, &W);
    check_terminator_placement(V, op);
    switch (op->kind) {
    case OP_MODULE: check_module(V, op); break;
    case OP_FUNC: check_func(V, op); break;
    case OP_RETURN: check_return(V, op); break;
    case OP_CALL: check_call(V, op); break;
    case OP_SCF_FOR: case OP_SCF_IF: case OP_SCF_WHILE: check_scf(V, op); break;
    case OP_STRICT_VECSCOPE: check_strict_args(V, op); break;
    default: break;
    }
    if (op_info[op->kind].syn == SYN_SIG) {
        verify_structural(V, op);
        verify_family(V, op);
    } else if (op->kind == OP_UNREALIZED_CAST || op->kind == OP_ARITH_CONSTANT) {
        verify_family(V, op);   /* the families' rules for two ops of their own syntax */
    }
    verify_simt(V, op);
    verify_struct(V, op);
    verify_vmi(V, op);
    verify_tile(V, op);
    verify_pipe(V, op);
    verify_more_ops(V, op);
    if (!op->nregions) return;
    if (op->kind == OP_FUNC) {
        W.func = op;
        W.vec = W.strict = W.section = NULL;
    } else if (op->kind == OP_MODULE) {
        W.func = NULL;
        W.vec = W.strict = W.section = NULL;
    }
    if (v_is_vec_interval(op)) W.vec = op;
    if (op->kind == OP_STRICT_VECSCOPE) W.strict = op;
    if (op->kind == OP_SECTION_CUBE || op->kind == OP_SECTION_VECTOR) W.section = op;
    walk_regions(V, op, W);
}

/* Verifies `root` whole: the walk, the alignment chains, the static sync rules. With skip_units, the modules
   nested directly in root are left out (verify_module verifies each of them first, whole). The rules take
   `Op *` only because ir_walk and the family rules are not const-qualified; nothing under here writes the
   IR (what rewrites it runs before, in normalize.c). */
static void verify_root(const Module *m, const Op *root, int skip_units, PtoTarget target, DiagList *d,
                        const FuncTab *funcs)
{
    VCtx V = {m, m->ctx, d, target_profile(target), target, skip_units ? root : NULL, funcs};
    Walk W = {NULL, NULL, NULL, NULL};
    Op *r = (Op *)(uintptr_t)root;
    verify_op(&V, r, W);
    verify_align_carriers(&V, r);
    verify_sync(&V, r);
    verify_pipe_pairs(&V, r);
}

typedef struct Closed {
    Op *unit;
    bool closed;
    FuncTab funcs;
} Closed;

static int callee_inside(Op *op, void *ud)
{
    Closed *c = ud;
    const Attr *a = op_attr(op, "callee");
    if (!a || !a->s) return 0;
    if (functab_resolve(&c->funcs, op, a->s)) return 0;   /* the table holds only the unit's functions */
    c->closed = false;
    return 1;
}

bool verify_unit_closed(Op *unit, DiagList *d)
{
    Closed c = {unit, true, {0}};
    if (functab_build(&c.funcs, unit)) diag_oom(d, 0);   /* the table then scans instead, with the same answer */
    ir_walk(unit, callee_inside, &c);
    functab_free(&c.funcs);
    return c.closed;
}

void verify_nested(const Module *m, const Op *unit, PtoTarget target, DiagList *d)
{
    FuncTab ft;
    if (functab_build(&ft, unit)) diag_oom(d, 0);
    verify_root(m, unit, 0, target, d, &ft);
    functab_free(&ft);
}

void verify_module(const Module *m, PtoTarget target)
{
    if (!m || !m->top) return;
    const Op *top = m->top;
    int nested = 0;
    FuncTab ft;
    if (functab_build(&ft, top)) diag_oom(&m->ctx->diags, 0);
    /* Nested modules first, each whole; then the top module without them. */
    for (const Op *o = top->nregions ? top->regions[0]->block->first : NULL; o; o = o->next)
        if (o->kind == OP_MODULE) {
            verify_root(m, o, 0, target, &m->ctx->diags, &ft);
            nested = 1;
        }
    verify_root(m, top, nested, target, &m->ctx->diags, &ft);
    functab_free(&ft);
}
