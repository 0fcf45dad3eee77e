/* print.c — the canonical printer. Table ops print from their signature (so the printed form is what
 * bind.c reads back), structural/arith/scf ops by hand; `generic` prints table ops in MLIR's generic form.
 * parse -> print -> parse -> print is a fixed point (checked by the test suite for every test kernel). */
#include "print.h"
#include "isa/ctx.h"
#include "base/strbuf.h"
#include <stdio.h>
#include "base/alloc.h"
#include <stdlib.h>
#include <string.h>

typedef struct Printer {
    StrBuf b;
    PtoCtx *ctx;
    const Module *m;
    int generic;
    int indent;
} Printer;

static void pr_indent(Printer *p) { for (int i = 0; i < p->indent; i++) sb_puts(&p->b, "  "); }

/* ------------------------------------------------------------------ comments */

/* The comments of `op` (m->comments is sorted by op id): [*first, *end). */
static void op_comments(const Printer *p, const Op *op, uint32_t *first, uint32_t *end)
{
    const OpComment *c = p->m->comments;
    uint32_t lo = 0, hi = p->m->ncomments;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (c[mid].op->id < op->id) lo = mid + 1;
        else hi = mid;
    }
    *first = lo;
    while (lo < p->m->ncomments && c[lo].op == op) lo++;
    *end = lo;
}

/* Comment text as written; a control byte (a NUL would end the printed text) becomes '?'. */
static void pr_comment_text(Printer *p, const OpComment *c)
{
    for (uint32_t i = 0; i < c->len; i++) {
        unsigned char ch = (unsigned char)c->text[i];
        sb_putc(&p->b, (ch < 0x20 && ch != '\t') || ch == 0x7F ? '?' : (char)ch);
    }
}

/* Comments of one place: on their own lines (indented), or after what is on the current line. */
static void pr_comments(Printer *p, const Op *op, CommentPlace place, unsigned region)
{
    if (!p->m->ncomments) return;
    uint32_t i, end;
    op_comments(p, op, &i, &end);
    for (; i < end; i++) {
        const OpComment *c = &p->m->comments[i];
        if (c->place != place || (c->region != region && (place == CM_OPEN || place == CM_END))) continue;
        if (place == CM_TRAIL || place == CM_OPEN) {
            sb_putc(&p->b, ' ');
            pr_comment_text(p, c);
        } else {
            pr_indent(p);
            pr_comment_text(p, c);
            sb_putc(&p->b, '\n');
        }
    }
}

static void pr_type(Printer *p, const Type *t)
{
    char buf[256];
    int k = ty_format(t, buf, sizeof buf);
    if (k < (int)sizeof buf) { sb_puts(&p->b, buf); return; }
    char *big = mem_alloc((size_t)k + 1);     /* a long struct type */
    if (!big) { p->b.failed = 1; return; }
    ty_format(t, big, (unsigned)k + 1);
    sb_puts(&p->b, big);
    mem_free(big);
}

/* A value that belongs to a multi-result group (%r:2) is written %r#k. */
static int group_size(const Value *v, int *idx)
{
    *idx = 0;
    if (!v->def) return 1;
    int n = 0;
    for (uint32_t i = 0; i < v->def->nresults; i++)
        if (v->def->results[i]->name == v->name) {
            if (v->def->results[i] == v) *idx = n;
            n++;
        }
    return n;
}

static void pr_value(Printer *p, const Value *v)
{
    if (!v) { sb_puts(&p->b, "%<null>"); return; }
    int idx;
    if (v->name && group_size(v, &idx) > 1) sb_printf(&p->b, "%%%s#%d", v->name, idx);
    else if (v->name) sb_printf(&p->b, "%%%s", v->name);
    else sb_printf(&p->b, "%%v%u", v->id);
}

/* Comma-separated lists: values, the types of values, and `vals : types`. */
static void pr_value_list(Printer *p, Value *const *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) { if (i) sb_puts(&p->b, ", "); pr_value(p, v[i]); }
}

static void pr_type_list(Printer *p, Value *const *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) { if (i) sb_puts(&p->b, ", "); pr_type(p, v[i]->type); }
}

static void pr_typed_values(Printer *p, Value *const *v, uint32_t n)
{
    pr_value_list(p, v, n);
    if (!n) return;
    sb_puts(&p->b, " : ");
    pr_type_list(p, v, n);
}

/* A function type from values: `(T...) -> R`, the results in parentheses unless there is exactly one. */
static void pr_arrow_type(Printer *p, Value *const *in, uint32_t nin, Value *const *out, uint32_t nout)
{
    sb_putc(&p->b, '(');
    pr_type_list(p, in, nin);
    sb_puts(&p->b, ") -> ");
    if (nout != 1) sb_putc(&p->b, '(');
    pr_type_list(p, out, nout);
    if (nout != 1) sb_putc(&p->b, ')');
}

static void pr_str(Printer *p, const char *s)
{
    sb_putc(&p->b, '"');
    sb_puts(&p->b, s);
    sb_putc(&p->b, '"');
}

/* The bit pattern of a float constant, as the hex literal it was written as (a decimal would re-parse as a
   value): every digit of the type's width, `0x3C00` for f16. */
static void pr_float_bits(Printer *p, int64_t bits, const Type *t)
{
    unsigned w = ty_bits(t), digits = w < 4 ? 1 : (w + 3) / 4;
    sb_printf(&p->b, "0x%0*llX", (int)digits, (unsigned long long)bits);
}

static void pr_attr_value(Printer *p, const Attr *a)
{
    switch (a->kind) {
    case AT_UNIT: sb_puts(&p->b, "unit"); break;
    case AT_BOOL: sb_puts(&p->b, a->i ? "true" : "false"); break;
    case AT_INT:
        if (a->ty && a->ty->kind == TY_FLOAT) pr_float_bits(p, a->i, a->ty);
        else sb_printf(&p->b, "%lld", (long long)a->i);
        if (a->ty) { sb_puts(&p->b, " : "); pr_type(p, a->ty); }
        break;
    case AT_FLOAT:
        if (a->s) sb_puts(&p->b, a->s);
        else sb_printf(&p->b, "%.17g", a->f);
        if (a->ty) { sb_puts(&p->b, " : "); pr_type(p, a->ty); }
        break;
    case AT_STR: pr_str(p, a->s); break;
    case AT_TOKEN:
        if (a->raw) sb_puts(&p->b, a->raw);
        else pr_str(p, a->s);
        break;
    case AT_TYPE: if (a->ty) pr_type(p, a->ty); break;
    case AT_SYM: sb_printf(&p->b, "@%s", a->s); break;
    case AT_RAW: case AT_INTS: sb_puts(&p->b, a->s ? a->s : ""); break;
    }
}

/* {name = value, flag, ...} for attributes not already printed elsewhere. */
static void pr_attr_dict(Printer *p, const Attr *attrs, uint32_t n, int (*skip)(const Attr *, const void *),
                         const void *ud, const char *lead)
{
    int first = 1;
    for (uint32_t i = 0; i < n; i++) {
        const Attr *a = &attrs[i];
        if (skip && skip(a, ud)) continue;
        sb_puts(&p->b, first ? lead : ", ");
        first = 0;
        sb_puts(&p->b, a->name);
        if (a->kind != AT_UNIT) {
            sb_puts(&p->b, " = ");
            pr_attr_value(p, a);
        }
    }
    if (!first) sb_putc(&p->b, '}');
}

static void pr_block(Printer *p, const Block *b);

static void pr_region_body(Printer *p, const Op *op, unsigned ri);

/* '{' [comment] NL ops [comments] '}' of region ri of op. */
static void pr_region(Printer *p, const Op *op, unsigned ri)
{
    sb_putc(&p->b, '{');
    pr_comments(p, op, CM_OPEN, ri);
    sb_putc(&p->b, '\n');
    p->indent++;
    pr_region_body(p, op, ri);
    p->indent--;
    pr_indent(p);
    sb_putc(&p->b, '}');
}

static void pr_region_body(Printer *p, const Op *op, unsigned ri)
{
    pr_block(p, op->regions[ri]->block);
    pr_comments(p, op, CM_END, ri);
}

static void pr_results(Printer *p, const Op *op)
{
    if (!op->nresults || !op->results[0]->name) return;   /* unbound results stay unbound */
    for (uint32_t i = 0; i < op->nresults;) {
        const Value *v = op->results[i];
        int idx;
        int n = v->name ? group_size(v, &idx) : 1;
        if (i) sb_puts(&p->b, ", ");
        if (v->name) sb_printf(&p->b, "%%%s", v->name);
        else sb_printf(&p->b, "%%v%u", v->id);
        if (n > 1) sb_printf(&p->b, ":%d", n);
        i += (uint32_t)n;
    }
    sb_puts(&p->b, " = ");
}

/* ------------------------------------------------------------------ signature-driven ops */

static void pr_token(Printer *p, const SigSlot *s, const Attr *a)
{
    const char *sp = tok_spelling((int)a->i);
    switch (s->style) {
    case TS_QUOTED: pr_str(p, sp); break;
    case TS_ANGLE: sb_printf(&p->b, "<%s>", sp); break;
    case TS_HASH: sb_printf(&p->b, "#pto.%s<%s>", tokset_name(s->tokset), sp); break;
    case TS_BARE: sb_puts(&p->b, sp); break;
    case TS_MLIR: sb_printf(&p->b, "#pto<%s %s>", tokset_name(s->tokset), sp); break;
    }
}

typedef struct SigCtx {
    const Op *op;
    const OpSig *sig;
    uint32_t cursor[64];       /* next operand index per group */
} SigCtx;

static Value *next_in_group(SigCtx *c, int g)
{
    if (g < 0 || !c->op->segs || c->cursor[g] >= c->op->segs[g]) return NULL;
    return c->op->operands[op_group_start(c->op, (unsigned)g) + c->cursor[g]++];
}

/* Prints one slot; returns 1 if something was printed. */
static int pr_slot(Printer *p, SigCtx *c, const SigSlot *s, int first)
{
    const Attr *a;
    switch (s->kind) {
    case SL_VALUE: {
        Value *v = next_in_group(c, s->group);
        if (!v) return 0;
        if (!first) sb_puts(&p->b, ", ");
        if (s->key) sb_printf(&p->b, "%s = ", s->key);
        pr_value(p, v);
        return 1;
    }
    case SL_MEM: {
        Value *v = next_in_group(c, s->group);
        if (!v) return 0;
        if (!first) sb_puts(&p->b, ", ");
        pr_value(p, v);
        if (s->off_path) {
            const Attr *pa = op_attr(c->op, s->off_name);
            sb_putc(&p->b, '[');
            for (uint32_t i = 0; pa && pa->kind == AT_INTS && i < pa->nints; i++)
                sb_printf(&p->b, "%s%lld", i ? ", " : "", (long long)pa->ints[i]);
            sb_putc(&p->b, ']');
            return 1;
        }
        Value *o = next_in_group(c, s->group + 1);
        if (o) { sb_putc(&p->b, '['); pr_value(p, o); sb_putc(&p->b, ']'); }
        return 1;
    }
    case SL_TOKEN:
        a = op_token(c->op, s->name);
        if (!a) return 0;
        if (!first) sb_puts(&p->b, ", ");
        if (s->key) sb_printf(&p->b, "%s = ", s->key);
        pr_token(p, s, a);
        return 1;
    case SL_INT:
        a = op_attr(c->op, s->name);
        if (!a) return 0;
        if (!first) sb_puts(&p->b, ", ");
        if (s->key) sb_printf(&p->b, "%s = ", s->key);
        if (s->is_bool) sb_puts(&p->b, a->i ? "true" : "false");
        else sb_printf(&p->b, "%lld", (long long)a->i);
        return 1;
    case SL_STR:
        a = op_attr(c->op, s->name);
        if (!a || a->kind != AT_STR) return 0;
        if (!first) sb_puts(&p->b, ", ");
        if (s->key) sb_printf(&p->b, "%s = ", s->key);
        pr_str(p, a->s);
        return 1;
    }
    return 0;
}

/* Occurrences of a clause: the flag attribute marks presence; repeated clauses count their first group. */
static unsigned clause_count(const Op *op, const SigClause *cl)
{
    if (!op_attr(op, cl->kw)) return 0;
    if (cl->mult != CL_MANY) return 1;
    for (unsigned j = 0; j < cl->nslots; j++)
        if (cl->slots[j].kind == SL_VALUE && cl->slots[j].group >= 0) return op->segs[cl->slots[j].group];
    return 1;
}

static int is_sig_attr(const Attr *a, const void *ud)
{
    const OpSig *sig = ud;
    for (unsigned i = 0; i < sig->npos; i++) {
        if (sig->pos[i].kind != SL_VALUE && sig->pos[i].kind != SL_MEM && !strcmp(sig->pos[i].name, a->name)) return 1;
        if (sig->pos[i].off_path && !strcmp(sig->pos[i].off_name, a->name)) return 1;
    }
    for (unsigned i = 0; i < sig->ndict; i++) if (!strcmp(sig->dict[i].name, a->name)) return 1;
    for (unsigned c = 0; c < sig->ncl; c++) {
        if (!strcmp(sig->cl[c].kw, a->name)) return 1;
        for (unsigned i = 0; i < sig->cl[c].nslots; i++)
            if (sig->cl[c].slots[i].kind != SL_VALUE && !strcmp(sig->cl[c].slots[i].name, a->name)) return 1;
    }
    return 0;
}

static int is_dict_slot(const Attr *a, const void *ud)
{
    const OpSig *sig = ud;
    for (unsigned i = 0; i < sig->ndict; i++) if (!strcmp(sig->dict[i].name, a->name)) return 0;
    return 1;
}

static void pr_types_in_order(Printer *p, const Op *op, const OpSig *sig)
{
    if (sig->ntype_order) {
        for (unsigned k = 0; k < sig->ntype_order; k++) {
            const Value *v = op_group_operand(op, (unsigned)sig->type_order[k], 0);
            if (!v) continue;
            if (k) sb_puts(&p->b, ", ");
            pr_type(p, v->type);
        }
        return;
    }
    SigCtx c;
    memset(&c, 0, sizeof c);
    c.op = op;
    c.sig = sig;
    int first = 1;
#define PT(v, kw) do { if (!first) sb_puts(&p->b, ", "); first = 0; if (kw) sb_printf(&p->b, "%s ", kw); pr_type(p, (v)->type); } while (0)
    for (unsigned i = 0; i < sig->npos; i++) {
        const SigSlot *s = &sig->pos[i];
        if (s->kind != SL_VALUE && s->kind != SL_MEM) continue;
        Value *v;
        while ((v = next_in_group(&c, s->group))) {
            if (!s->untyped) PT(v, (const char *)NULL);
            if (s->kind == SL_MEM && !s->off_path) {
                Value *o = next_in_group(&c, s->group + 1);
                if (o && s->off_typed) PT(o, (const char *)NULL);
            }
            if (!s->variadic) break;
        }
    }
    for (unsigned k = 0; k < sig->ncl; k++) {
        const SigClause *cl = &sig->cl[k];
        unsigned occ = clause_count(op, cl);
        if (cl->unit) {
            if (occ && (op_info[op->kind].flags & F_COMMA) && cl->kw[0] && strstr("nd2nz dn2nz", cl->kw)) {
                if (!first) sb_puts(&p->b, ", ");
                first = 0;
                sb_puts(&p->b, cl->kw);
            }
            continue;
        }
        for (unsigned o = 0; o < occ; o++) {
            int firstin = 1;
            for (unsigned j = 0; j < cl->nslots; j++) {
                const SigSlot *s = &cl->slots[j];
                if (s->kind != SL_VALUE) continue;
                Value *v = next_in_group(&c, s->group);
                if (!v) continue;
                PT(v, cl->type_prefix && firstin ? cl->kw : (const char *)NULL);
                firstin = 0;
            }
        }
    }
#undef PT
}

static int any_typed_operand(const Op *op, const OpSig *sig)
{
    (void)sig;
    return op->noperands > 0;
}

/* The signature's dictionary tokens, then the op's discardable attributes: " {a = x, ...}" or nothing. */
static void pr_sig_dict(Printer *p, const Op *op, const OpSig *sig)
{
    int f = 1;
    for (unsigned i = 0; i < sig->ndict; i++) {
        const SigSlot *s = &sig->dict[i];
        const Attr *a = op_attr(op, s->name);
        if (!a) continue;
        sb_puts(&p->b, f ? " {" : ", ");
        f = 0;
        sb_printf(&p->b, "%s = ", s->name);
        if (s->kind == SL_TOKEN && s->style == TS_MLIR) pr_token(p, s, a);
        else if (s->kind == SL_TOKEN) pr_str(p, tok_spelling((int)a->i));
        else if (s->is_bool) sb_puts(&p->b, a->i ? "true" : "false");
        else sb_printf(&p->b, "%lld", (long long)a->i);
    }
    for (uint32_t i = 0; i < op->nattrs; i++) {
        const Attr *a = &op->attrs[i];
        if (is_sig_attr(a, sig)) continue;
        sb_puts(&p->b, f ? " {" : ", ");
        f = 0;
        sb_puts(&p->b, a->name);
        if (a->kind != AT_UNIT) { sb_puts(&p->b, " = "); pr_attr_value(p, a); }
    }
    if (!f) sb_putc(&p->b, '}');
}

/* One side of the tile layer's ins(... : types) / outs(... : types) form: the positional slots whose `out`
   flag is `outs`, then ` : ` and their types (the dictionary goes inside ins, before the types). */
static void pr_dps_side(Printer *p, const Op *op, const OpSig *sig, int outs)
{
    SigCtx c;
    memset(&c, 0, sizeof c);
    c.op = op;
    c.sig = sig;
    sb_puts(&p->b, outs ? " outs(" : " ins(");
    int first = 1;
    for (unsigned i = 0; i < sig->npos; i++) {
        const SigSlot *s = &sig->pos[i];
        if (s->out != outs) continue;
        if (pr_slot(p, &c, s, first)) first = 0;
        while (s->variadic && s->kind == SL_VALUE && c.cursor[s->group] < op->segs[s->group]) pr_slot(p, &c, s, 0);
    }
    if (!outs) pr_sig_dict(p, op, sig);
    int ft = 1;
    for (unsigned i = 0; i < sig->npos; i++) {
        const SigSlot *s = &sig->pos[i];
        if (s->out != outs || (s->kind != SL_VALUE && s->kind != SL_MEM) || s->untyped) continue;
        for (uint32_t k = 0; k < op_group_len(op, (unsigned)s->group); k++) {
            sb_puts(&p->b, ft ? " : " : ", ");
            ft = 0;
            pr_type(p, op_group_operand(op, (unsigned)s->group, k)->type);
        }
    }
    sb_putc(&p->b, ')');
}

/* The compiler's form of an op with keyed slots after its parenthesised operands:
   pto.syncall(%w, %n : T, i32) mode = #pto.sync_all_mode<soft>, core_type = #pto.sync_core_type<mix> */
static int has_after_paren(const OpSig *sig)
{
    for (unsigned i = 0; sig->paren && i < sig->npos; i++)
        if (sig->pos[i].after_paren) return 1;
    return 0;
}

static void pr_paren_op(Printer *p, const Op *op, const OpSig *sig)
{
    SigCtx c;
    memset(&c, 0, sizeof c);
    c.op = op;
    c.sig = sig;
    sb_printf(&p->b, "%s(", op_info[op->kind].name);
    int first = 1;
    for (unsigned i = 0; i < sig->npos; i++) {
        const SigSlot *s = &sig->pos[i];
        if (s->after_paren) continue;
        if (pr_slot(p, &c, s, first)) first = 0;
        while (s->variadic && s->kind == SL_VALUE && c.cursor[s->group] < op->segs[s->group]) pr_slot(p, &c, s, 0);
    }
    if (any_typed_operand(op, sig)) {
        sb_puts(&p->b, " : ");
        pr_types_in_order(p, op, sig);
    }
    sb_putc(&p->b, ')');
    first = 1;
    for (unsigned i = 0; i < sig->npos; i++) {
        const SigSlot *s = &sig->pos[i];
        if (!s->after_paren) continue;
        if (first) sb_putc(&p->b, ' ');
        if (pr_slot(p, &c, s, first)) first = 0;
    }
    pr_sig_dict(p, op, sig);
}

static void pr_sig_op(Printer *p, const Op *op)
{
    const OpSig *sig = ctx_sig(p->ctx, op->kind);
    if (has_after_paren(sig) && !op->nresults) {
        pr_paren_op(p, op, sig);
        return;
    }
    if (sig->has_outs) {
        sb_puts(&p->b, op_info[op->kind].name);
        pr_dps_side(p, op, sig, 0);
        if (!sig->ins_only) pr_dps_side(p, op, sig, 1);
        return;
    }
    SigCtx c;
    memset(&c, 0, sizeof c);
    c.op = op;
    c.sig = sig;
    sb_puts(&p->b, op_info[op->kind].name);
    int first = 1;
    if (sig->has_bracket && !sig->bracket_plain) {
        sb_putc(&p->b, '[');
        int f = 1;
        for (unsigned i = 0; i < sig->npos; i++)
            if (sig->pos[i].in_bracket && pr_slot(p, &c, &sig->pos[i], f)) f = 0;
        sb_putc(&p->b, ']');
    }
    for (unsigned i = 0; i < sig->npos; i++) {
        const SigSlot *s = &sig->pos[i];
        if (s->in_bracket && !sig->bracket_plain) continue;
        if (s->key && s->kind == SL_VALUE) {
            /* KEY = [%a, ...] (after a comma) or KEY = %v (after a space): the tile layer's view and alloc ops */
            unsigned n = op_group_len(op, (unsigned)s->group);
            if (!s->list && !n) continue;
            sb_puts(&p->b, first || !s->list ? " " : ", ");
            first = 0;
            sb_printf(&p->b, "%s = ", s->key);
            if (s->list) sb_putc(&p->b, '[');
            for (unsigned k = 0; k < n; k++) {
                if (k) sb_puts(&p->b, ", ");
                pr_value(p, next_in_group(&c, s->group));
            }
            if (s->list) sb_putc(&p->b, ']');
            continue;
        }
        if (first) {
            /* peek: print the separating space only if the slot prints */
            size_t n0 = p->b.n;
            sb_putc(&p->b, ' ');
            if (!pr_slot(p, &c, s, 1)) { sb_truncate(&p->b, n0); continue; }
            first = 0;
        } else {
            pr_slot(p, &c, s, 0);
        }
        while (s->variadic && s->kind == SL_VALUE && c.cursor[s->group] < op->segs[s->group]) pr_slot(p, &c, s, 0);
    }
    int comma = (op_info[op->kind].flags & F_COMMA) != 0;
    for (unsigned k = 0; k < sig->ncl; k++) {
        const SigClause *cl = &sig->cl[k];
        unsigned occ = clause_count(op, cl);
        for (unsigned o = 0; o < occ; o++) {
            sb_puts(&p->b, comma && !first ? ", " : " ");
            first = 0;
            sb_puts(&p->b, cl->kw);
            if (cl->unit) continue;
            /* a clause whose contents are all absent prints bare ("sat") */
            size_t n0 = p->b.n;
            sb_putc(&p->b, '(');
            int f = 1;
            for (unsigned j = 0; j < cl->nslots; j++)
                if (pr_slot(p, &c, &cl->slots[j], f)) f = 0;
            if (f) sb_truncate(&p->b, n0);
            else sb_putc(&p->b, ')');
        }
    }
    /* tokens whose home is the attribute dictionary, then discardable attributes */
    pr_sig_dict(p, op, sig);
    (void)is_dict_slot;
    int typed = 0;
    if (any_typed_operand(op, sig)) {
        size_t n0 = p->b.n;
        sb_puts(&p->b, " : ");
        size_t n1 = p->b.n;
        pr_types_in_order(p, op, sig);
        if (p->b.n == n1) sb_truncate(&p->b, n0);
        else typed = 1;
    }
    if (op->nresults) {
        sb_puts(&p->b, typed || (sig->nres && sig->res[0].arrow) ? " -> " : " : ");
        /* ops whose results are fully implied still print them, for readability */
        pr_type_list(p, op->results, op->nresults);
    }
}

/* ------------------------------------------------------------------ generic form */

static void pr_generic(Printer *p, const Op *op)
{
    const OpSig *sig = ctx_sig(p->ctx, op->kind);
    sb_printf(&p->b, "\"%s\"(", op_info[op->kind].name);
    /* the operands group by group in the generic form's order (sig_generic_order), which the parser reads back */
    enum { MAXG = 64, MAXV = 256 };
    int16_t order[MAXG];
    Value *perm[MAXV];
    Value *const *ops = op->operands;
    if (sig->ngroups <= MAXG && op->noperands <= MAXV) {
        sig_generic_order(sig, order);
        uint32_t start[MAXG], at = 0, k = 0;
        for (unsigned g = 0; g < sig->ngroups; g++) { start[g] = at; at += op->segs[g]; }
        for (unsigned g = 0; g < sig->ngroups && at == op->noperands; g++)
            for (uint32_t j = 0; j < op->segs[order[g]]; j++) perm[k++] = op->operands[start[order[g]] + j];
        if (at == op->noperands) ops = perm;
        else for (unsigned g = 0; g < sig->ngroups; g++) order[g] = (int16_t)g;
    } else {
        for (unsigned g = 0; g < sig->ngroups && g < MAXG; g++) order[g] = (int16_t)g;
    }
    pr_value_list(p, ops, op->noperands);
    sb_putc(&p->b, ')');
    int f = 1;
    int needseg = 0;
    for (unsigned g = 0; g < sig->ngroups; g++) needseg |= op->segs[g] != 1;
    for (uint32_t i = 0; i < op->nattrs; i++) {
        const Attr *a = &op->attrs[i];
        sb_puts(&p->b, f ? " {" : ", ");
        f = 0;
        sb_puts(&p->b, a->name);
        if (a->kind == AT_UNIT) continue;
        sb_puts(&p->b, " = ");
        if (a->kind == AT_TOKEN && a->i >= 0) pr_str(p, tok_spelling((int)a->i));
        else pr_attr_value(p, a);
    }
    if (needseg && sig->ngroups) {
        sb_puts(&p->b, f ? " {" : ", ");
        f = 0;
        sb_puts(&p->b, "operandSegmentSizes = array<i32: ");
        for (unsigned g = 0; g < sig->ngroups; g++)
            sb_printf(&p->b, "%s%u", g ? ", " : "", op->segs[g < MAXG ? (unsigned)order[g] : g]);
        sb_putc(&p->b, '>');
    }
    if (!f) sb_putc(&p->b, '}');
    sb_puts(&p->b, " : ");
    pr_arrow_type(p, ops, op->noperands, op->results, op->nresults);
}

/* ------------------------------------------------------------------ structural ops */

static int skip_func_attrs(const Attr *a, const void *ud)
{
    (void)ud;
    return !strcmp(a->name, "sym_name") || !strcmp(a->name, "function_type") || !strcmp(a->name, "sym_visibility");
}

/* Attributes the SIMT and llvm forms print in their own syntax. */
static int skip_simt_attrs(const Attr *a, const void *ud)
{
    (void)ud;
    return !strcmp(a->name, "callee") || !strncmp(a->name, "dim_", 4) || !strcmp(a->name, "elem_type") ||
           !strcmp(a->name, "const_index");
}

/* The explicit label of a region's block: `^bb0(%a: T, ...):` and a new line. */
static void pr_block_label(Printer *p, const Block *b)
{
    sb_puts(&p->b, "^bb0(");
    for (uint32_t i = 0; i < b->nargs; i++) {
        if (i) sb_puts(&p->b, ", ");
        pr_value(p, b->args[i]);
        sb_puts(&p->b, ": ");
        pr_type(p, b->args[i]->type);
    }
    sb_puts(&p->b, "):\n");
}

/* Region ri of op written with its block label: `{` [comment] NL `^bb0(...):` NL ops [comments] `}`. */
static void pr_labelled_region(Printer *p, const Op *op, unsigned ri)
{
    sb_putc(&p->b, '{');
    pr_comments(p, op, CM_OPEN, ri);
    sb_putc(&p->b, '\n');
    p->indent++;
    pr_indent(p);
    pr_block_label(p, op->regions[ri]->block);
    pr_region_body(p, op, ri);
    p->indent--;
    pr_indent(p);
    sb_putc(&p->b, '}');
}

/* One printer per custom syntax, named like the parser's (parse.c): each prints what follows the results. */

static void pr_module(Printer *p, const Op *op)
{
    sb_puts(&p->b, "module");
    const Attr *sym = op_attr(op, "sym_name");
    if (sym) sb_printf(&p->b, " @%s", sym->s);
    pr_attr_dict(p, op->attrs, op->nattrs, skip_func_attrs, NULL, " attributes {");
    sb_putc(&p->b, ' ');
    pr_region(p, op, 0);
}

static void pr_func(Printer *p, const Op *op)
{
    const Attr *sym = op_attr(op, "sym_name"), *ft = op_attr(op, "function_type"), *vis = op_attr(op, "sym_visibility");
    sb_puts(&p->b, "func.func ");
    if (vis) sb_printf(&p->b, "%s ", vis->s);
    sb_printf(&p->b, "@%s(", sym ? sym->s : "?");
    const Type *t = ft ? ft->ty : NULL;
    for (unsigned i = 0; t && i < t->nin; i++) {
        if (i) sb_puts(&p->b, ", ");
        if (op->nregions) { pr_value(p, op->regions[0]->block->args[i]); sb_puts(&p->b, ": "); }
        pr_type(p, t->params[i]);
    }
    sb_putc(&p->b, ')');
    if (t && t->nout) {
        sb_puts(&p->b, " -> ");
        if (t->nout > 1) sb_putc(&p->b, '(');
        for (unsigned i = 0; i < t->nout; i++) { if (i) sb_puts(&p->b, ", "); pr_type(p, t->params[t->nin + i]); }
        if (t->nout > 1) sb_putc(&p->b, ')');
    }
    pr_attr_dict(p, op->attrs, op->nattrs, skip_func_attrs, NULL, " attributes {");
    if (op->nregions) { sb_putc(&p->b, ' '); pr_region(p, op, 0); }
}

static void pr_return(Printer *p, const Op *op)
{
    sb_puts(&p->b, "return");
    if (op->noperands) { sb_putc(&p->b, ' '); pr_typed_values(p, op->operands, op->noperands); }
}

static void pr_call(Printer *p, const Op *op)
{
    const Attr *c = op_attr(op, "callee");
    sb_printf(&p->b, "func.call @%s(", c ? c->s : "?");
    pr_value_list(p, op->operands, op->noperands);
    sb_puts(&p->b, ") : ");
    pr_arrow_type(p, op->operands, op->noperands, op->results, op->nresults);
}

static void pr_scf_for(Printer *p, const Op *op)
{
    const Block *b = op->regions[0]->block;
    sb_puts(&p->b, "scf.for ");
    pr_value(p, b->args[0]);
    sb_puts(&p->b, " = ");
    pr_value(p, op->operands[0]);
    sb_puts(&p->b, " to ");
    pr_value(p, op->operands[1]);
    sb_puts(&p->b, " step ");
    pr_value(p, op->operands[2]);
    if (op->noperands > 3) {
        sb_puts(&p->b, " iter_args(");
        for (uint32_t i = 3; i < op->noperands; i++) {
            if (i > 3) sb_puts(&p->b, ", ");
            pr_value(p, b->args[i - 2]);
            sb_puts(&p->b, " = ");
            pr_value(p, op->operands[i]);
        }
        sb_puts(&p->b, ") -> (");
        pr_type_list(p, op->results, op->nresults);
        sb_putc(&p->b, ')');
    }
    if (b->args[0]->type != op->operands[0]->type) { sb_puts(&p->b, " : "); pr_type(p, b->args[0]->type); }
    sb_putc(&p->b, ' ');
    pr_region(p, op, 0);
    pr_attr_dict(p, op->attrs, op->nattrs, NULL, NULL, " {");
}

static void pr_scf_if(Printer *p, const Op *op)
{
    sb_puts(&p->b, "scf.if ");
    pr_value(p, op->operands[0]);
    if (op->nresults) {
        sb_puts(&p->b, " -> (");
        pr_type_list(p, op->results, op->nresults);
        sb_putc(&p->b, ')');
    }
    sb_putc(&p->b, ' ');
    pr_region(p, op, 0);
    if (op->nregions > 1) { sb_puts(&p->b, " else "); pr_region(p, op, 1); }
    pr_attr_dict(p, op->attrs, op->nattrs, NULL, NULL, " {");
}

static void pr_scf_while(Printer *p, const Op *op)
{
    const Block *b = op->regions[0]->block;
    sb_puts(&p->b, "scf.while (");
    for (uint32_t i = 0; i < op->noperands; i++) {
        if (i) sb_puts(&p->b, ", ");
        pr_value(p, b->args[i]);
        sb_puts(&p->b, " = ");
        pr_value(p, op->operands[i]);
    }
    sb_puts(&p->b, ") : (");
    pr_type_list(p, op->operands, op->noperands);
    sb_puts(&p->b, ") -> (");
    pr_type_list(p, op->results, op->nresults);
    sb_puts(&p->b, ") ");
    pr_region(p, op, 0);
    sb_puts(&p->b, " do ");
    pr_labelled_region(p, op, 1);   /* the after-region's arguments are printed as a block label */
}

/* scf.yield [vals : types] and scf.condition(%c) [vals : types]. */
static void pr_values_terminator(Printer *p, const Op *op)
{
    uint32_t k = 0;
    if (op_info[op->kind].syn == SYN_SCF_CONDITION) {
        sb_puts(&p->b, "scf.condition(");
        pr_value(p, op->operands[0]);
        sb_putc(&p->b, ')');
        k = 1;
    } else {
        sb_puts(&p->b, "scf.yield");
    }
    if (op->noperands > k) { sb_putc(&p->b, ' '); pr_typed_values(p, op->operands + k, op->noperands - k); }
}

static void pr_region_op(Printer *p, const Op *op)
{
    sb_puts(&p->b, op_info[op->kind].name);
    sb_putc(&p->b, ' ');
    pr_region(p, op, 0);
    pr_attr_dict(p, op->attrs, op->nattrs, NULL, NULL, " {");
}

static void pr_strict_vecscope(Printer *p, const Op *op)
{
    sb_puts(&p->b, "pto.strict_vecscope(");
    pr_value_list(p, op->operands, op->noperands);
    sb_puts(&p->b, ") ");
    pr_labelled_region(p, op, 0);
    sb_puts(&p->b, " : (");
    pr_type_list(p, op->operands, op->noperands);
    sb_puts(&p->b, ") -> ()");
    pr_attr_dict(p, op->attrs, op->nattrs, NULL, NULL, " {");
}

static void pr_arith_const(Printer *p, const Op *op)
{
    const Attr *v = op_attr(op, "value");
    const Type *t = op->results[0]->type;
    sb_puts(&p->b, "arith.constant ");
    if (t->kind == TY_INT && t->bits == 1) sb_puts(&p->b, v && v->i ? "true" : "false");
    else {
        if (v && v->kind == AT_INT && t->kind == TY_FLOAT) pr_float_bits(p, v->i, t);
        else if (v) { Attr c = *v; c.ty = NULL; pr_attr_value(p, &c); }
        sb_puts(&p->b, " : ");
        pr_type(p, t);
    }
}

/* arith binary, unary, compare, cast and select ops. */
static void pr_arith(Printer *p, const Op *op)
{
    const OpInfo *oi = &op_info[op->kind];
    sb_printf(&p->b, "%s ", oi->name);
    if (oi->syn == SYN_ARITH_CMP) {
        const Attr *pa = op_attr(op, "predicate");
        sb_printf(&p->b, "%s, ", pa ? pa->s : "?");
    }
    pr_value_list(p, op->operands, op->noperands);
    for (uint32_t i = 0; i < op->nattrs; i++)
        if (op->attrs[i].kind == AT_RAW && !strcmp(op->attrs[i].name, "modifier")) sb_printf(&p->b, " %s", op->attrs[i].s);
    sb_puts(&p->b, " : ");
    if (oi->syn == SYN_ARITH_CAST) {
        pr_type(p, op->operands[0]->type);
        sb_puts(&p->b, " to ");
        pr_type(p, op->results[0]->type);
    } else {
        pr_type(p, op->operands[oi->syn == SYN_ARITH_SELECT ? 1 : 0]->type);
    }
}

static void pr_simt(Printer *p, const Op *op)
{
    const Attr *c = op_attr(op, "callee");
    static const char *const dims[3] = {"dim_x", "dim_y", "dim_z"};
    sb_puts(&p->b, op_info[op->kind].name);
    if (c) sb_printf(&p->b, " @%s", c->s);
    sb_puts(&p->b, "<<<");
    for (int i = 0; i < 3; i++) {
        const Attr *d = op_attr(op, dims[i]);
        if (i) sb_puts(&p->b, ", ");
        if (op->nregions) sb_printf(&p->b, "%lld", d ? (long long)d->i : 0LL);
        else if ((uint32_t)i < op->noperands) pr_value(p, op->operands[i]);
    }
    sb_puts(&p->b, ">>>");
    if (op->nregions) {
        sb_putc(&p->b, ' ');
        pr_region(p, op, 0);
        pr_attr_dict(p, op->attrs, op->nattrs, skip_simt_attrs, NULL, " {");
        return;
    }
    uint32_t nargs = op->noperands > 3 ? op->noperands - 3 : 0;   /* the arguments follow the three dims */
    Value *const *args = nargs ? op->operands + 3 : op->operands;
    sb_putc(&p->b, '(');
    pr_value_list(p, args, nargs);
    sb_putc(&p->b, ')');
    pr_attr_dict(p, op->attrs, op->nattrs, skip_simt_attrs, NULL, " {");
    sb_puts(&p->b, " : (");
    pr_type_list(p, args, nargs);
    sb_puts(&p->b, ") -> ()");
}

static void pr_llvm(Printer *p, const Op *op)
{
    const Attr *et = op_attr(op, "elem_type");
    sb_printf(&p->b, "%s ", op_info[op->kind].name);
    pr_value(p, op->operands[0]);
    if (op->kind == OP_LLVM_ALLOCA) {
        sb_puts(&p->b, " x ");
        if (et) pr_type(p, et->ty);
    } else {
        sb_putc(&p->b, '[');
        const Attr *ci = op_attr(op, "const_index");
        if (ci && op->noperands == 1) sb_printf(&p->b, "%lld", (long long)ci->i);
        else pr_value(p, op->operands[1]);
        if (op->kind == OP_LLVM_EXTRACTELEMENT) { sb_puts(&p->b, " : "); pr_type(p, op->operands[1]->type); }
        sb_putc(&p->b, ']');
    }
    pr_attr_dict(p, op->attrs, op->nattrs, skip_simt_attrs, NULL, " {");
    sb_puts(&p->b, " : ");
    if (op->kind == OP_LLVM_EXTRACTELEMENT) { pr_type(p, op->operands[0]->type); return; }
    sb_putc(&p->b, '(');
    pr_type_list(p, op->operands, op->noperands);
    sb_puts(&p->b, ") -> ");
    pr_type(p, op->results[0]->type);
    if (op->kind == OP_LLVM_GEP && et) { sb_puts(&p->b, ", "); pr_type(p, et->ty); }
}

static int skip_sizes_attr(const Attr *a, const void *ud)
{
    (void)ud;
    return !strcmp(a->name, "sizes");
}

/* pto.subview %src[%i, %j] sizes [R, C] (valid [%vr, %vc])? : T -> T */
/* The attributes (but sizes) then " : SOURCE" + sep + t: the end of the subview-like forms. */
static void pr_window_tail(Printer *p, const Op *op, const Type *t, const char *sep)
{
    pr_attr_dict(p, op->attrs, op->nattrs, skip_sizes_attr, NULL, " {");
    sb_puts(&p->b, " : ");
    pr_type(p, op->operands[0]->type);
    sb_puts(&p->b, sep);
    pr_type(p, t);
}

static void pr_subview(Printer *p, const Op *op)
{
    const Attr *sz = op_attr(op, "sizes");
    sb_printf(&p->b, "%s ", op_info[op->kind].name);
    pr_value(p, op->operands[0]);
    sb_putc(&p->b, '[');
    if (op->kind == OP_LOCAL_ARRAY_GET || op->kind == OP_LOCAL_ARRAY_SET || op->kind == OP_MULTI_TILE_GET) {
        /* %a[%i, ...](, %v)? : A (-> T | , T) */
        int set = op->kind == OP_LOCAL_ARRAY_SET;
        uint32_t ni = op->noperands - 1 - (uint32_t)set;
        if (ni) pr_value_list(p, op->operands + 1, ni);
        sb_putc(&p->b, ']');
        if (set) {
            sb_puts(&p->b, ", ");
            pr_value(p, op->operands[op->noperands - 1]);
        }
        pr_window_tail(p, op, set ? op->operands[op->noperands - 1]->type : op->results[0]->type, set ? ", " : " -> ");
        return;
    }
    if (op->noperands >= 3) pr_value_list(p, op->operands + 1, 2);
    sb_puts(&p->b, "] sizes [");
    if (sz && sz->kind == AT_INTS && sz->nints == 2)
        sb_printf(&p->b, "%lld, %lld", (long long)sz->ints[0], (long long)sz->ints[1]);
    sb_putc(&p->b, ']');
    if (op->noperands == 5) {
        sb_puts(&p->b, " valid [");
        pr_value_list(p, op->operands + 3, 2);
        sb_putc(&p->b, ']');
    }
    pr_window_tail(p, op, op->results[0]->type, " -> ");
}

/* One op: its comments, indentation and results, then its syntax (the parser's parse_op dispatches alike). */
static void pr_op(Printer *p, const Op *op)
{
    pr_comments(p, op, CM_BEFORE, 0);
    pr_indent(p);
    pr_results(p, op);
    switch (op_info[op->kind].syn) {
    case SYN_MODULE: pr_module(p, op); break;
    case SYN_FUNC: pr_func(p, op); break;
    case SYN_RETURN: pr_return(p, op); break;
    case SYN_CALL: pr_call(p, op); break;
    case SYN_SCF_FOR: pr_scf_for(p, op); break;
    case SYN_SCF_IF: pr_scf_if(p, op); break;
    case SYN_SCF_WHILE: pr_scf_while(p, op); break;
    case SYN_SCF_YIELD: case SYN_SCF_CONDITION: pr_values_terminator(p, op); break;
    case SYN_REGION: pr_region_op(p, op); break;
    case SYN_STRICT_VECSCOPE: pr_strict_vecscope(p, op); break;
    case SYN_ARITH_CONST: pr_arith_const(p, op); break;
    case SYN_ARITH_BIN: case SYN_ARITH_UN: case SYN_ARITH_CMP: case SYN_ARITH_CAST: case SYN_ARITH_SELECT:
        pr_arith(p, op);
        break;
    case SYN_SIMT: pr_simt(p, op); break;
    case SYN_LLVM: pr_llvm(p, op); break;
    case SYN_SUBVIEW: pr_subview(p, op); break;
    case SYN_SIG:
        if (p->generic) pr_generic(p, op);
        else pr_sig_op(p, op);
        break;
    case SYN_CF:   /* never left after parsing (the parser structures the graph or reports it): its generic form */
        pr_generic(p, op);
        break;
    }
    pr_comments(p, op, CM_TRAIL, 0);
    sb_putc(&p->b, '\n');
    pr_comments(p, op, CM_AFTER, 0);
}

static int by_id(const void *a, const void *b)
{
    uint32_t x = (*(const Op *const *)a)->id, y = (*(const Op *const *)b)->id;
    return (x > y) - (x < y);
}

/* A block where vector-scope inference wrapped ops (IR_INFERRED) is printed as written: the inferred scopes'
   ops and the block's own, in source order (op ids are textual), without what the inference added. */
static int pr_inferred_block(Printer *p, const Block *b)
{
    size_t n = 0, k = 0;
    int any = 0;
    for (const Op *o = b->first; o; o = o->next) {
        int inf = op_attr(o, IR_INFERRED) != NULL;
        any |= inf;
        if (inf && o->kind == OP_VECSCOPE)
            for (const Op *q = o->regions[0]->block->first; q; q = q->next) n++;
        else n++;
    }
    if (!any) return 0;
    const Op **v = mem_alloc((n ? n : 1) * sizeof *v);
    if (!v) {   /* the text would show the inferred scopes: fail it (pto_print: NULL, E-OOM) */
        p->b.failed = 1;
        return 1;
    }
    for (const Op *o = b->first; o; o = o->next) {
        if (!op_attr(o, IR_INFERRED)) v[k++] = o;
        else if (o->kind == OP_VECSCOPE)
            for (const Op *q = o->regions[0]->block->first; q; q = q->next)
                if (!op_attr(q, IR_INFERRED)) v[k++] = q;
    }
    qsort(v, k, sizeof *v, by_id);
    for (size_t i = 0; i < k; i++) pr_op(p, v[i]);
    mem_free(v);
    return 1;
}

static void pr_block(Printer *p, const Block *b)
{
    if (pr_inferred_block(p, b)) return;
    for (const Op *o = b->first; o; o = o->next)
        if (!op_attr(o, IR_INFERRED)) pr_op(p, o);
}

char *print_module(PtoCtx *ctx, const Module *m, int generic)
{
    Printer p;
    memset(&p, 0, sizeof p);
    sb_init(&p.b);
    p.ctx = ctx;
    p.m = m;
    p.generic = generic;
    if (m->top) pr_op(&p, m->top);
    return sb_take(&p.b);
}
