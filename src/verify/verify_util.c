/* verify_util.c — the helpers every verifier pass shares (declared in verify_int.h): diagnostics,
 * value and type spellings, constants and constant addresses, operand groups, enclosing structure, and what the
 * family rules (verify_fam.c, verify_mem.c, verify_vec.c) share: named operands and results, capacity checks. */
#include "verify_int.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

long v_err(VCtx *V, DiagId id, SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    long r = diag_addv(V->d, SEV_ERROR, id, loc, fmt, ap);
    va_end(ap);
    return r;
}

long v_warn(VCtx *V, DiagId id, SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    long r = diag_addv(V->d, SEV_WARNING, id, loc, fmt, ap);
    va_end(ap);
    return r;
}

void v_note(VCtx *V, long idx, SrcLoc loc, const char *fmt, ...)
{
    if (idx < 0) return;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    diag_note(V->d, idx, loc, "%s", buf);
}

const char *v_tyname(const Type *t, char *buf, unsigned n)
{
    if (!t) snprintf(buf, n, "<unknown>");
    else ty_format(t, buf, n);
    return buf;
}

SrcLoc v_value_loc(const Value *v)
{
    if (v->loc.file) return v->loc;
    if (v->def) return v->def->loc;
    return v->loc;
}

const char *v_valname(const Value *v)
{
    return v && v->name ? v->name : "?";
}

bool v_const_int(const Value *v, int64_t *out)
{
    if (!v || !v->def || v->def->kind != OP_ARITH_CONSTANT) return false;
    const Attr *a = op_attr(v->def, "value");
    if (!a || a->kind != AT_INT) return false;
    if (v->type && v->type->kind == TY_FLOAT) return false;
    *out = a->i;
    return true;
}

int64_t v_sat_add(int64_t a, int64_t b)
{
    if (b > 0 && a > INT64_MAX - b) return INT64_MAX;
    if (b < 0 && a < INT64_MIN - b) return INT64_MIN;
    return a + b;
}

int64_t v_sat_mul(int64_t a, int64_t b)
{
    if (a == 0 || b == 0) return 0;
    int neg = (a < 0) != (b < 0);
    uint64_t ua = a < 0 ? (uint64_t)0 - (uint64_t)a : (uint64_t)a, ub = b < 0 ? (uint64_t)0 - (uint64_t)b : (uint64_t)b;
    if (ua > (uint64_t)INT64_MAX / ub) return neg ? INT64_MIN : INT64_MAX;
    int64_t r = (int64_t)(ua * ub);
    return neg ? -r : r;
}

static bool const_addr_rec(const Value *v, int64_t *out, int depth)
{
    if (!v || !v->def || depth > 64) return false;
    const Op *d = v->def;
    if (d->kind == OP_CASTPTR && d->noperands == 1) {
        const Value *a = d->operands[0];
        if (a && ty_is_intlike(a->type)) return v_const_int(a, out);
        if (a && ty_is_ptr(a->type)) return const_addr_rec(a, out, depth + 1);
        return false;
    }
    if (d->kind == OP_ADDPTR && d->noperands == 2 && v->type && v->type->kind == TY_PTR) {
        int64_t base, off;
        if (!const_addr_rec(d->operands[0], &base, depth + 1) || !v_const_int(d->operands[1], &off)) return false;
        *out = v_sat_add(base, v_sat_mul(off, (int64_t)ty_bytes(v->type->elem)));
        return true;
    }
    return false;
}

bool v_const_addr(const Value *v, int64_t *out) { return const_addr_rec(v, out, 0); }

int v_group_index(const VCtx *V, const Op *op, const char *group)
{
    if ((op_info[op->kind].syn != SYN_SIG && op_info[op->kind].syn != SYN_SUBVIEW) || !op->segs) return -1;
    const OpSig *s = ctx_sig(V->ctx, op->kind);
    for (unsigned i = 0; i < s->ngroups; i++)
        if (s->group_names[i][0] == group[0] && strcmp(s->group_names[i], group) == 0) return (int)i;
    return -1;
}

Value *v_grp(const VCtx *V, const Op *op, const char *group, unsigned i)
{
    int g = v_group_index(V, op, group);
    return g < 0 ? NULL : op_group_operand(op, (unsigned)g, i);
}

unsigned v_grp_len(const VCtx *V, const Op *op, const char *group)
{
    int g = v_group_index(V, op, group);
    return g < 0 ? 0 : op_group_len(op, (unsigned)g);
}

SrcLoc v_attr_loc(const Op *op, const char *name)
{
    const Attr *a = op_attr(op, name);
    return a && a->loc.file ? a->loc : op->loc;
}

Op *v_parent_op_of_block(const Block *b)
{
    return b && b->parent ? b->parent->parent : NULL;
}

const Block *v_value_block(const Value *v)
{
    if (!v) return NULL;
    return v->def ? v->def->parent : v->owner;
}

bool v_block_within(const Block *b, const Op *ancestor)
{
    while (b) {
        Op *p = v_parent_op_of_block(b);
        if (!p) return false;
        if (p == ancestor) return true;
        b = p->parent;
    }
    return false;
}

bool v_is_vec_interval(const Op *op)
{
    return op->kind == OP_VECSCOPE || op->kind == OP_STRICT_VECSCOPE ||
           (op->kind == OP_SCF_FOR && op_has_unit(op, "llvm.loop.aivector_scope"));
}

unsigned v_elem_bits(const Type *t)
{
    const Type *e = v_elem(t);
    return e ? ty_bits(e) : 0;
}

bool v_is_fp8ish(const Type *t)
{
    if (!t) return false;
    if (t->kind == TY_PTR || t->kind == TY_VREG) t = t->elem;
    ElemKind k = elem_kind(t);
    return k != EK_BAD && (ES_FP8 & EK_BIT(k)) != 0;
}

bool v_is_kernel(const Op *f)
{
    return op_is_kernel(f);
}

Op *v_enclosing_func(const Op *op)
{
    Op *p = ir_parent_op(op);
    while (p && p->kind != OP_FUNC) p = ir_parent_op(p);
    return p;
}

const Type *v_func_type(const Op *f)
{
    const Attr *a = op_attr(f, "function_type");
    return a && a->kind == AT_TYPE && a->ty && a->ty->kind == TY_FUNC ? a->ty : NULL;
}

/* Units sit directly under the walk's root (V->units_of): below the root the walk is ir_walk's. */
int v_walk(const VCtx *V, Op *root, OpVisit fn, void *ud)
{
    if (!V->units_of) return ir_walk(root, fn, ud);
    if (fn(root, ud)) return 1;
    for (uint32_t r = 0; r < root->nregions; r++)
        for (Op *o = root->regions[r]->block->first; o; o = o->next)
            if (!v_skipped_unit(V, o) && ir_walk(o, fn, ud)) return 1;
    return 0;
}

/* ------------------------------------------------------------------ shared by the family rules */

/* Where operand i of a named signature group is written, else the op's location. */
SrcLoc v_gloc(const VCtx *V, const Op *op, const char *group, unsigned i)
{
    int g = v_group_index(V, op, group);
    return g < 0 ? op->loc : op_group_loc(op, (unsigned)g, i);
}

/* Result named `name` in the signature, or NULL. */
Value *v_res_named(const VCtx *V, const Op *op, const char *name)
{
    const OpSig *sig = ctx_sig(V->ctx, op->kind);
    for (unsigned i = 0; i < sig->nres && i < op->nresults; i++)
        if (strcmp(sig->res[i].name, name) == 0) return op->results[i];
    return NULL;
}

/* Operand group or result called `name`. */
Value *v_named(const VCtx *V, const Op *op, const char *name)
{
    Value *v = v_grp(V, op, name, 0);
    return v ? v : v_res_named(V, op, name);
}

/* `what` names the bytes ("the address", "the access"); `via`, when given, the pointer operand the op
   touches them through. Sizes and offsets are decimal with hex in parentheses (the library's number style). */
void v_check_capacity(VCtx *V, const Op *op, const Value *p, int64_t addr, int64_t bytes, const char *what,
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
