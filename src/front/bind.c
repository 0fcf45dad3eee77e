/* bind.c — parses table ops written in the custom (assembly), DPS (ins/outs) and generic MLIR forms,
 * and binds what was written to the op's compiled signature (op.h). All three forms produce the same
 * Op: operands grouped per signature slot, tokens and flags as named attributes, typed results. */
#include "parse.h"
#include "base/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_ITEMS = 96, MAX_TYPES = 128 };

typedef struct Bound {
    Value *vals[MAX_ITEMS * 2];
    int16_t grp[MAX_ITEMS * 2];    /* group of each value in textual order */
    uint8_t typed[MAX_ITEMS * 2];  /* written in the canonical type list */
    SrcLoc loc[MAX_ITEMS * 2];
    uint32_t n;
    Attr attrs[64];
    uint32_t nattrs;
    int clause_seen[16];
    int last_clause;
    uint8_t keyforms;              /* Op.keyforms: the alternatives of the KEY(%v) keys written */
} Bound;

/* The binder's scratch lives as long as the parse: no allocation per op. */
int bind_init(Parser *P)
{
    P->bound = front_realloc(P->lx.oom, NULL, sizeof *P->bound);
    P->items = front_realloc(P->lx.oom, NULL, MAX_ITEMS * sizeof *P->items);
    P->bracket = front_realloc(P->lx.oom, NULL, MAX_ITEMS * sizeof *P->bracket);
    P->types = front_realloc(P->lx.oom, NULL, MAX_TYPES * sizeof *P->types);
    P->rtypes = front_realloc(P->lx.oom, NULL, MAX_TYPES * sizeof *P->rtypes);
    P->capisub = 64;
    P->isub = front_realloc(P->lx.oom, NULL, P->capisub * sizeof *P->isub);
    return 0;
}

void bind_free(Parser *P)
{
    mem_free(P->bound);
    mem_free(P->items);
    mem_free(P->bracket);
    mem_free(P->types);
    mem_free(P->rtypes);
    mem_free(P->isub);
}

static void bound_reset(Bound *B)
{
    B->n = 0;
    B->nattrs = 0;
    memset(B->clause_seen, 0, sizeof B->clause_seen);
    B->last_clause = 0;
    B->keyforms = 0;
}

/* ------------------------------------------------------------------ item parsing */

/* At a line that starts with SSA names: are they operands continued from the op's line (not the results of
   the next op, `%a, %b = ...` or `%r:2 = ...`)? */
static int ssa_operands_follow(Parser *P)
{
    uint32_t k = 0;
    if (P_at(P, 0)->kind != TK_SSA) return 0;
    for (;;) {
        if (P_at(P, k)->kind != TK_SSA) return 1;
        k++;
        TokKind n = P_at(P, k)->kind;
        if (n == TK_EQUAL) return 0;
        if (n == TK_COLON && P_at(P, k + 1)->kind == TK_INT && P_at(P, k + 2)->kind == TK_EQUAL) return 0;
        if (n != TK_COMMA) return 1;
        k++;
    }
}

/* A positional slot written KEY = ... (tile-layer ops: alloc_tile addr = %a, make_tensor_view shape = [...]). */
static const SigSlot *keyed_pos(const OpSig *sig, const char *s, uint32_t n)
{
    if (!sig || !sig->has_keyed) return NULL;
    for (unsigned j = 0; j < sig->npos; j++)
        if (sig->pos[j].key && strlen(sig->pos[j].key) == n && memcmp(sig->pos[j].key, s, n) == 0) return &sig->pos[j];
    return NULL;
}

static int at_keyed(Parser *P, const OpSig *sig)
{
    const Token *t = P_cur(P);
    return t->kind == TK_IDENT && P_at(P, 1)->kind == TK_EQUAL && keyed_pos(sig, t->s, t->len);
}

static int is_clause_kw(const OpSig *sig, const Token *t)
{
    return t->kind == TK_IDENT && sig_clause_index(sig, t->s, t->len) >= 0;
}

/* `loc(` ends the op (a trailing source location) unless the op has a clause of that name. */
static int at_loc(Parser *P, const OpSig *sig)
{
    return P_at_loc(P) && !is_clause_kw(sig, P_cur(P));
}

static Item *push_item(Parser *P, Item *items, uint32_t *n, SrcLoc loc)
{
    if (*n >= MAX_ITEMS) {
        P_error(P, DIAG_PARSE_LIMIT, loc, "too many operands");
        return NULL;
    }
    Item *it = &items[(*n)++];
    memset(it, 0, sizeof *it);
    it->loc = loc;
    return it;
}

static int parse_item_list(Parser *P, const OpSig *sig, Item *items, uint32_t *n, int nested, int stop_at_colon);

/* The constant path of %s[1, 0] (pto.struct_get / struct_set): integer literals up to the ']'. */
static void parse_path(Parser *P, Item *it)
{
    int64_t v[64];
    uint32_t n = 0;
    do {
        Token *t = P_cur(P);
        if (!P_is(P, TK_INT)) {
            P_error(P, DIAG_PARSE_OPERANDS, P_loc(P, t), "expected an integer field index in the path '%%s[...]'");
            break;
        }
        if (!P_int_literal(P, t, &v[n < 64 ? n : 63])) P_error(P, DIAG_LEX_NUMBER, P_loc(P, t), "integer literal does not fit in 64 bits");
        else if (n == 64) P_error(P, DIAG_PARSE_LIMIT, P_loc(P, t), "a field path has at most 64 indices");
        P->pos++;
        if (n < 64) n++;
    } while (P_eat(P, TK_COMMA));
    while (!P_is(P, TK_RBRACK) && !P_is(P, TK_EOF) && !P_cur(P)->nl_before) P->pos++;
    it->path = arena_dup(&P->m->arena, v, sizeof(int64_t) * n);
    it->npath = n;
}

/* One item; returns 0 when the current token cannot start an item. */
/* Moves a list's or clause's `ns` sub-items into the parser's shared sub-item store and points `it` at them
   (`it` stays valid: the caller's list is not P->isub). */
static void keep_sub(Parser *P, Item *it, const Item *sub, uint32_t ns)
{
    if (P->nisub + ns > P->capisub) {
        while (P->capisub < P->nisub + ns) P->capisub = P->capisub ? P->capisub * 2 : 64;
        P->isub = front_realloc(P->lx.oom, P->isub, P->capisub * sizeof *P->isub);
    }
    if (ns) memcpy(P->isub + P->nisub, sub, ns * sizeof *sub);
    it->sub = (uint32_t)P->nisub;
    it->nsub = ns;
    P->nisub += ns;
}

static int parse_item(Parser *P, const OpSig *sig, Item *items, uint32_t *n, int nested)
{
    Token *t = P_cur(P);
    SrcLoc loc = P_loc(P, t);
    const char *key = NULL;
    SrcLoc keyloc = loc;
    if ((nested && t->kind == TK_IDENT && P_at(P, 1)->kind == TK_EQUAL) || (!nested && at_keyed(P, sig))) {
        key = P_text(P, t);
        P->pos += 2;
        t = P_cur(P);
        loc = P_loc(P, t);
    }
    Item *it;
    if (key && !nested && t->kind == TK_LBRACK) {     /* KEY = [%a, %b, ...] */
        if (!(it = push_item(P, items, n, loc))) return 0;
        it->kind = IT_LIST;
        it->key = key;
        it->keyloc = keyloc;
        P->pos++;
        Item sub[MAX_ITEMS];
        uint32_t ns = 0;
        if (!P_is(P, TK_RBRACK)) parse_item_list(P, sig, sub, &ns, 1, 0);
        P_expect(P, TK_RBRACK, "']' closing the list");
        keep_sub(P, it, sub, ns);
        return 1;
    }
    switch (t->kind) {
    case TK_SSA: {
        Value *v = P_use(P);
        if (!(it = push_item(P, items, n, loc))) return 0;
        it->kind = IT_VALUE;
        it->v = v;
        if (P_is(P, TK_LBRACK)) {
            P->pos++;
            it->kind = IT_MEM;
            it->offloc = P_loc(P, P_cur(P));
            if (P_is(P, TK_SSA)) it->off = P_use(P);
            else if (P_is(P, TK_INT)) parse_path(P, it);
            else if (P_is(P, TK_RBRACK)) it->npath = 0;   /* %s[]: an empty path (the verifier reports it) */
            else {
                P_error(P, DIAG_PARSE_OPERANDS, P_loc(P, P_cur(P)), "the offset in '%%base[...]' must be an SSA value");
                while (!P_is(P, TK_RBRACK) && !P_is(P, TK_EOF)) P->pos++;
            }
            P_expect(P, TK_RBRACK, "']'");
        }
        break;
    }
    case TK_STRING:
        if (!(it = push_item(P, items, n, loc))) return 0;
        it->kind = IT_TOKEN;
        it->quoted = 1;
        it->s = t->s;
        it->slen = t->len;
        P->pos++;
        break;
    case TK_LANGLE:
        if (P_at(P, 1)->kind != TK_IDENT || P_at(P, 2)->kind != TK_RANGLE) return 0;
        if (!(it = push_item(P, items, n, loc))) return 0;
        it->kind = IT_TOKEN;
        it->s = P_at(P, 1)->s;
        it->slen = P_at(P, 1)->len;
        P->pos += 3;
        break;
    case TK_HASH:
        if (!(it = push_item(P, items, n, loc))) return 0;
        it->kind = IT_TOKEN;
        P->pos++;
        if (P_is(P, TK_LANGLE) && P_at(P, 1)->kind == TK_IDENT && P_at(P, 2)->kind == TK_RANGLE) {
            it->s = P_at(P, 1)->s;
            it->slen = P_at(P, 1)->len;
            P->pos += 3;
        } else {
            /* #TOKEN without a dialect wrapper */
            it->s = t->s;
            it->slen = t->len;
        }
        break;
    case TK_INT:
        if (!(it = push_item(P, items, n, loc))) return 0;
        it->kind = IT_INT;
        if (!P_int_literal(P, t, &it->i)) P_error(P, DIAG_LEX_NUMBER, loc, "integer literal does not fit in 64 bits");
        P->pos++;
        break;
    case TK_IDENT:
        if (P_at(P, 1)->kind == TK_LPAREN) {
            if (!(it = push_item(P, items, n, loc))) return 0;
            it->kind = IT_CLAUSE;
            it->s = t->s;
            it->slen = t->len;
            P->pos += 2;
            Item sub[MAX_ITEMS];
            uint32_t ns = 0;
            if (!P_is(P, TK_RPAREN)) parse_item_list(P, sig, sub, &ns, 1, 0);
            P_expect(P, TK_RPAREN, "')' closing the clause");
            keep_sub(P, it, sub, ns);
            break;
        }
        /* a bare word: an enum token written without quotes, or a flag clause */
        if (!(it = push_item(P, items, n, loc))) return 0;
        it->kind = IT_TOKEN;
        it->bare = 1;
        it->s = t->s;
        it->slen = t->len;
        P->pos++;
        break;
    default:
        if (key) P_error(P, DIAG_PARSE_EXPECTED, loc, "expected a value after '%s ='", key);
        return 0;
    }
    it->key = key;
    it->keyloc = keyloc;
    return 1;
}

/* A bare word on the operand's line that is a token of one of the op's bare-style positional token slots
   (pto.cmo.cacheinvalid %v single_cache_line), or a #pto.set<X> of a hash-style one. */
static int at_bare_token(Parser *P, const OpSig *sig)
{
    const Token *t = P_cur(P);
    if (t->kind == TK_HASH && !t->nl_before) {   /* a #pto.set<X> token of a hash-style slot (cacheinvalid all #...) */
        for (unsigned i = 0; i < sig->npos; i++)
            if (sig->pos[i].kind == SL_TOKEN && sig->pos[i].style == TS_HASH) return 1;
        return 0;
    }
    if (t->kind != TK_IDENT || t->nl_before || P_at(P, 1)->kind == TK_LPAREN) return 0;
    for (unsigned i = 0; i < sig->npos; i++)
        if (sig->pos[i].kind == SL_TOKEN && sig->pos[i].style == TS_BARE && tok_lookup(sig->pos[i].tokset, t->s, t->len) >= 0)
            return 1;
    return 0;
}

/* Items separated by commas. Outside parentheses, a clause keyword or a quoted token may follow without a comma. */
static int parse_item_list(Parser *P, const OpSig *sig, Item *items, uint32_t *n, int nested, int stop_at_colon)
{
    (void)stop_at_colon;
    for (;;) {
        if (!parse_item(P, sig, items, n, nested)) return 0;
        if (P_eat(P, TK_COMMA)) continue;
        if (!nested && is_clause_kw(sig, P_cur(P))) continue;
        if (!nested && at_keyed(P, sig)) continue;   /* alloc_tile addr = %a valid_row = %r */
        /* a quoted token on the same line may follow an operand without a comma: pto.dcci %p "SINGLE_CACHE_LINE"
           (an op never starts with a string there; a generic-form op starts its own line) */
        if (!nested && P_is(P, TK_STRING) && !P_cur(P)->nl_before) continue;
        if (!nested && at_bare_token(P, sig)) continue;
        /* `word(` without a dot cannot start an op: it is a clause (possibly one this op lacks) */
        if (!nested && P_is(P, TK_IDENT) && P_at(P, 1)->kind == TK_LPAREN && !memchr(P_cur(P)->s, '.', P_cur(P)->len) &&
            !at_loc(P, sig))
            continue;
        return 1;
    }
}

/* Types after ':' — each may carry a clause keyword prefix ("loop i64") or be a bare keyword
 * ("nd2nz"), and parenthesised groups ("src_layout(i64, i64)") are flattened. */
static int parse_type_list(Parser *P, TypeItem *out, uint32_t *n)
{
    for (;;) {
        const char *kw = NULL;
        Token *t = P_cur(P);
        SrcLoc loc = P_loc(P, t);
        /* keyword prefix: an identifier that is not a type, followed by a type, '(' or ',' */
        while (t->kind == TK_IDENT) {
            int is_type = 0;
            size_t save = P->pos;
            /* probe: builtin type names never contain '_' and start with i/si/ui/f/bf/index/none/vector */
            char c0 = t->s[0];
            if (t->len == 6 && memcmp(t->s, "memref", 6) == 0 && P_at(P, 1)->kind == TK_LANGLE) break;
            if ((c0 == 'i' || c0 == 's' || c0 == 'u' || c0 == 'f' || c0 == 'b' || c0 == 'n' || c0 == 'v') &&
                !memchr(t->s, '_', t->len)) {
                P->quiet++;    /* a probe: whatever it finds wrong is not an error */
                const Type *ty = P_parse_type(P);
                P->quiet--;
                is_type = ty != NULL;
                P->pos = save;
            }
            if (is_type) break;
            kw = P_text(P, t);
            P->pos++;
            t = P_cur(P);
            if (t->kind == TK_COMMA || t->kind != TK_IDENT) break;
        }
        if (kw && (P_is(P, TK_COMMA) || P_is(P, TK_ARROW) || P_is(P, TK_LBRACE) ||
                   (P_cur(P)->nl_before && P_cur(P)->kind != TK_BANG))) {
            /* bare keyword entry (e.g. "nd2nz"): contributes no operand type */
            if (P_eat(P, TK_COMMA)) continue;
            return 1;
        }
        if (kw && P_is(P, TK_LPAREN)) {
            P->pos++;
            do {
                const Type *ty = P_parse_type(P);
                if (!ty) return 0;
                if (*n >= MAX_TYPES) { P_error(P, DIAG_PARSE_LIMIT, loc, "type list too long"); return 0; }
                out[(*n)++] = (TypeItem){ty, kw, loc};
            } while (P_eat(P, TK_COMMA));
            if (!P_expect(P, TK_RPAREN, "')'")) return 0;
        } else {
            loc = P_loc(P, P_cur(P));
            const Type *ty = P_parse_type(P);
            if (!ty) return 0;
            if (*n >= MAX_TYPES) { P_error(P, DIAG_PARSE_LIMIT, loc, "type list too long"); return 0; }
            out[(*n)++] = (TypeItem){ty, kw, loc};
        }
        if (!P_eat(P, TK_COMMA)) return 1;
    }
}

/* ------------------------------------------------------------------ binding */

/* The wording of the classes up to struct predates tclass.def and is kept; later classes (VMI) take its
   description. */
static const char *slot_desc(const SigSlot *s, char *b, size_t n)
{
    static const char *const tcn[] = {"a value", "an i1", "an i8", "an i16", "an i32", "an i64", "an index",
                                      "an integer", "a float", "a scalar", "a pointer", "a vector register",
                                      "a mask", "an alignment state", "a scalar or packed vector", "a struct",
                                      "a VMI vector", "a VMI mask", "a VMI vector or mask", "a tile", "a view",
                                      "a tensor view", "a partition view"};
    if (s->kind == SL_TOKEN) snprintf(b, n, "a %s token for '%s'", tokset_name(s->tokset), s->name);
    else if (s->kind == SL_INT) snprintf(b, n, "an integer literal for '%s'", s->name);
    else if (s->kind == SL_STR) snprintf(b, n, "a string literal for '%s'", s->name);
    else if (s->kind == SL_MEM && s->off_path) snprintf(b, n, "a struct with a field path '%%%s[i, ...]'", s->name);
    else if (s->kind == SL_MEM) snprintf(b, n, "a memory operand '%%%s[%%%s]'", s->name, s->off_name);
    else snprintf(b, n, "%s for '%s'", (unsigned)s->tc < sizeof tcn / sizeof tcn[0] ? tcn[s->tc] : tc_desc(s->tc), s->name);
    return b;
}

static void add_value(Bound *B, Value *v, int group, int typed, SrcLoc loc)
{
    if (B->n >= MAX_ITEMS * 2) return;
    B->vals[B->n] = v;
    B->grp[B->n] = (int16_t)group;
    B->typed[B->n] = (uint8_t)typed;
    B->loc[B->n] = loc;
    B->n++;
}

/* `name` is a signature string: it lives as long as the context, like the module. */
static Attr *add_attr(Parser *P, Bound *B, const char *name, AttrKind k, SrcLoc loc)
{
    for (uint32_t i = 0; i < B->nattrs; i++)
        if (B->attrs[i].name == name || strcmp(B->attrs[i].name, name) == 0) {
            P_error(P, DIAG_PARSE_OPERANDS, loc, "'%s' is given twice", name);
            return &B->attrs[i];
        }
    if (B->nattrs >= 64) return &B->attrs[0];
    Attr *a = &B->attrs[B->nattrs++];
    memset(a, 0, sizeof *a);
    a->name = name;
    a->kind = k;
    a->loc = loc;
    return a;
}

/* Whether a value's type belongs to a slot's type class (used to let optional operands be skipped:
   `pto.vusqz %m` binds the mask to `m`, not to the optional vreg before it). */
static int tc_ok(const Value *v, const SigSlot *s) { return !v || tc_match(s->tc, v->type); }

/* Does `it` fit slot `s`? Optional value slots also require the right type class. */
static int fits(Parser *P, const Item *it, const SigSlot *s)
{
    if (s->list) return it->kind == IT_LIST;
    switch (s->kind) {
    case SL_VALUE: return it->kind == IT_VALUE && (!(s->optional || s->variadic) || tc_ok(it->v, s));
    case SL_MEM:
        if (s->off_path) return it->kind == IT_MEM && !it->off;   /* the path is required */
        return (it->kind == IT_MEM && it->off) || it->kind == IT_VALUE;
    case SL_INT: return it->kind == IT_INT;
    case SL_STR: return it->kind == IT_TOKEN && it->quoted;
    case SL_TOKEN: return it->kind == IT_TOKEN && P_tok_lookup(P, s->tokset, it->s, it->slen) >= 0;
    }
    return 0;
}

static void bind_token(Parser *P, Bound *B, const SigSlot *s, const Item *it)
{
    Attr *a = add_attr(P, B, s->name, AT_TOKEN, it->loc);
    a->i = P_tok_lookup(P, s->tokset, it->s, it->slen);
    a->s = tok_spelling((int)a->i);
}

/* The generic spelling of a path attribute, "array<i64: 1, 0>", in the module arena. */
static const char *path_text(Parser *P, const int64_t *v, uint32_t n)
{
    char b[64 * 22 + 16];
    int k = snprintf(b, sizeof b, "array<i64");
    for (uint32_t i = 0; i < n; i++) k += snprintf(b + k, sizeof b - (size_t)k, "%s%lld", i ? ", " : ": ", (long long)v[i]);
    snprintf(b + k, sizeof b - (size_t)k, ">");
    return arena_strndup(&P->m->arena, b, strlen(b));
}

static void bind_slot(Parser *P, Bound *B, const SigSlot *s, const Item *it)
{
    if (it->kind == IT_LIST) {
        for (uint32_t i = 0; i < it->nsub; i++) {
            const Item *e = &P->isub[it->sub + i];
            if (e->kind != IT_VALUE || e->key) {
                P_error(P, DIAG_PARSE_OPERANDS, e->loc, "'%s = [...]' lists values", s->key);
                return;
            }
            add_value(B, e->v, s->group, !s->untyped, e->loc);
        }
        return;
    }
    switch (s->kind) {
    case SL_VALUE:
        add_value(B, it->v, s->group, !s->untyped, it->loc);
        break;
    case SL_MEM:
        add_value(B, it->v, s->group, !s->untyped, it->loc);
        if (s->off_path) {
            Attr *a = add_attr(P, B, s->off_name, AT_INTS, it->offloc);
            a->ints = it->path;
            a->nints = it->npath;
            a->s = path_text(P, it->path, it->npath);
        } else if (it->kind == IT_MEM) {
            add_value(B, it->off, s->group + 1, s->off_typed, it->offloc);
        }
        break;
    case SL_INT: {
        Attr *a = add_attr(P, B, s->name, AT_INT, it->loc);
        a->i = it->i;
        break;
    }
    case SL_TOKEN:
        bind_token(P, B, s, it);
        break;
    case SL_STR: {
        Attr *a = add_attr(P, B, s->name, AT_STR, it->loc);
        a->s = ctx_intern(P->ctx, it->s, it->slen);
        break;
    }
    }
}

/* "; did you mean 'X'?" for the closest of cands, or "". */
static const char *did_you_mean(const Item *it, const char *const *cands, size_t n, char *buf, size_t bn)
{
    const char *best = P_suggest(it->s, it->slen, cands, n);
    if (best) snprintf(buf, bn, "; did you mean '%s'?", best);
    else buf[0] = 0;
    return buf;
}

static void bad_token(Parser *P, const SigSlot *s, const Item *it)
{
    int first = tokset_first(s->tokset), cnt = tokset_size(s->tokset);
    char list[256] = "", hint[96];
    const char *spell[256];
    size_t k = 0;
    for (int i = 0; i < cnt && i < 12 && k + 24 < sizeof list; i++)
        k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", i ? ", " : "", tok_spelling(first + i));
    if (cnt > 12) snprintf(list + k, sizeof list - k, ", ...");
    for (int i = 0; i < cnt && i < 256; i++) spell[i] = tok_spelling(first + i);
    P_error(P, DIAG_PARSE_TOKEN, it->loc, "'%.*s' is not a valid %s for '%s' (expected one of: %s)%s",
            (int)it->slen, it->s, tokset_name(s->tokset), s->name, list,
            did_you_mean(it, spell, (size_t)(cnt < 256 ? cnt : 256), hint, sizeof hint));
}

/* Binds a sequence of items to a sequence of slots (positional list or one clause's contents), in the
   order the items are written so the type list can be matched textually. Keyed items (`clip = %c`) bind
   to the slot with that key; the others fill the unkeyed slots in order, skipping optional slots whose
   kind or type class does not fit. */
static void bind_seq(Parser *P, Bound *B, const SigSlot *slots, unsigned nslots, const Item *items, uint32_t nitems,
                     const OpSig *sig, const char *where, SrcLoc at)
{
    char d[128];
    unsigned j = 0;              /* next unkeyed slot */
    uint64_t keyed = 0;          /* slots filled by keyed items (KEY(%v) positional keys) */
    for (uint32_t i = 0; i < nitems; i++) {
        const Item *it = &items[i];
        if (it->key) {
            const SigSlot *s = NULL;
            unsigned alt = 0;
            for (unsigned k = 0; k < nslots; k++) {
                if (slots[k].key && strcmp(slots[k].key, it->key) == 0) s = &slots[k];
                for (unsigned a = 0; a < slots[k].npkeys; a++)
                    if (strcmp(slots[k].pkeys[a], it->key) == 0) s = &slots[k], alt = a;
            }
            if (s && s->npkeys) B->keyforms |= (uint8_t)(1u << (alt < 7 ? alt : 7));
            if (!s) {
                const char *keys[48];
                size_t nk = 0;
                for (unsigned k = 0; k < nslots && nk < 48; k++)
                    if (slots[k].key) keys[nk++] = slots[k].key;
                char hint[96];
                Item key = {.s = it->key, .slen = (uint32_t)strlen(it->key)};
                P_error(P, DIAG_PARSE_CLAUSE, it->keyloc, "'%s =' is not a field of %s%s", it->key, where,
                        did_you_mean(&key, keys, nk, hint, sizeof hint));
            }
            else if (!fits(P, it, s)) {
                if (s->kind == SL_TOKEN && it->kind == IT_TOKEN) bad_token(P, s, it);
                else P_error(P, DIAG_PARSE_OPERANDS, it->loc, "'%s =' expects %s", it->key, slot_desc(s, d, sizeof d));
            } else {
                bind_slot(P, B, s, it);
                if (s - slots < 64) keyed |= 1ull << (s - slots);
            }
            continue;
        }
        /* skip keyed slots, slots a keyed item filled, and optional slots this item does not fit */
        while (j < nslots && (slots[j].key || (j < 64 && (keyed >> j & 1)) ||
                              (!fits(P, it, &slots[j]) && (slots[j].optional || slots[j].variadic)))) j++;
        if (j < nslots && fits(P, it, &slots[j])) {
            bind_slot(P, B, &slots[j], it);
            if (!(slots[j].variadic && slots[j].kind == SL_VALUE)) j++;
            continue;
        }
        if (j < nslots) {
            if (slots[j].kind == SL_TOKEN && it->kind == IT_TOKEN) {
                bad_token(P, &slots[j], it);
                j++;
                continue;
            }
            P_error(P, DIAG_PARSE_OPERANDS, it->loc, "expected %s in %s", slot_desc(&slots[j], d, sizeof d), where);
            return;
        }
        /* leftovers: tokens that belong in the attribute dictionary, or too many operands */
        if (it->kind == IT_TOKEN && sig) {
            int done = 0;
            for (unsigned k = 0; k < sig->ndict && !done; k++)
                if (fits(P, it, &sig->dict[k])) { bind_token(P, B, &sig->dict[k], it); done = 1; }
            if (done) continue;
        }
        P_error(P, DIAG_PARSE_OPERANDS, it->loc, "unexpected extra operand in %s", where);
        return;
    }
    /* required slots left unfilled */
    for (; j < nslots; j++) {
        const SigSlot *s = &slots[j];
        if (s->key || s->optional || s->variadic || (j < 64 && (keyed >> j & 1))) continue;
        /* a variadic value slot that already took operands counts as filled */
        SrcLoc loc = nitems ? items[nitems - 1].loc : at;
        P_error(P, DIAG_PARSE_OPERANDS, loc, "missing %s in %s", slot_desc(s, d, sizeof d), where);
        return;
    }
}

static int clause_index(const OpSig *sig, const char *s, uint32_t n) { return sig_clause_index(sig, s, n); }

static void bind_clause(Parser *P, Bound *B, const OpSig *sig, int c, const Item *it)
{
    const SigClause *cl = &sig->cl[c];
    if (B->clause_seen[c] && cl->mult != CL_MANY) {
        P_error(P, DIAG_PARSE_CLAUSE, it->loc, "clause '%s' may appear only once", cl->kw);
        return;
    }
    if (c < B->last_clause) {
        P_error(P, DIAG_PARSE_CLAUSE, it->loc, "clause '%s' must come before '%s'", cl->kw, sig->cl[B->last_clause].kw);
    }
    B->last_clause = c;
    B->clause_seen[c]++;
    if (cl->unit) {
        if (it->kind == IT_CLAUSE) P_error(P, DIAG_PARSE_CLAUSE, it->loc, "'%s' takes no arguments", cl->kw);
        add_attr(P, B, cl->kw, AT_UNIT, it->loc);
        return;
    }
    /* The flag marks presence; clauses with only optional contents may be written bare (e.g. "sat"). */
    if (B->clause_seen[c] == 1) add_attr(P, B, cl->kw, AT_UNIT, it->loc);
    char where[64];
    snprintf(where, sizeof where, "clause '%s'", cl->kw);
    /* In a repeatable clause, 'variadic' means one operand per occurrence, not a greedy run. */
    SigSlot one[16];
    const SigSlot *slots = cl->slots;
    if (cl->mult == CL_MANY && cl->nslots <= 16) {
        memcpy(one, cl->slots, sizeof(SigSlot) * cl->nslots);
        for (unsigned j = 0; j < cl->nslots; j++) one[j].variadic = 0;
        slots = one;
    }
    if (it->kind != IT_CLAUSE) {
        for (unsigned j = 0; j < cl->nslots; j++)
            if (!slots[j].optional && !slots[j].variadic) {
                P_error(P, DIAG_PARSE_CLAUSE, it->loc, "clause '%s' needs arguments", cl->kw);
                return;
            }
        return;
    }
    bind_seq(P, B, slots, cl->nslots, P->isub + it->sub, it->nsub, NULL, where, it->loc);
}

/* The key spelled s[0, n) of a positional slot (the signature's string, so it outlives the parse), or NULL. */
static const char *pos_key_slot(const OpSig *sig, const char *s, uint32_t n)
{
    for (unsigned j = 0; j < sig->npos; j++)
        for (unsigned a = 0; a < sig->pos[j].npkeys; a++)
            if (strlen(sig->pos[j].pkeys[a]) == n && memcmp(sig->pos[j].pkeys[a], s, n) == 0) return sig->pos[j].pkeys[a];
    return NULL;
}

/* After all items are bound: groups -> operand array + segment sizes. */
static void finish_operands(Parser *P, Op *op, const OpSig *sig, Bound *B)
{
    uint32_t total = 0;
    for (uint32_t i = 0; i < B->n; i++) total += B->grp[i] >= 0 && (unsigned)B->grp[i] < sig->ngroups;
    /* operands, their positions (op_oploc) and the group sizes in one allocation */
    size_t vb = (size_t)total * sizeof(Value *), lb = (size_t)total * sizeof(uint32_t);
    char *mem = arena_alloc(&P->m->arena, vb + lb + (sig->ngroups ? sig->ngroups : 1));
    op->operands = (Value **)(void *)mem;
    op->noperands = total;
    if (total) op->flags |= OPF_OPLOC;
    uint32_t *oploc = (uint32_t *)(void *)(mem + vb);
    op->segs = (uint8_t *)(mem + vb + lb);
    uint32_t k = 0;
    for (unsigned g = 0; g < sig->ngroups; g++) {
        for (uint32_t i = 0; i < B->n; i++)
            if (B->grp[i] == (int)g) {
                oploc[k] = op_pack_loc(op->loc, B->loc[i]);
                op->operands[k++] = B->vals[i];
                op->segs[g]++;
            }
    }
    op->keyforms = B->keyforms;
    if (B->nattrs) {
        Attr *arr = ARENA_ARRAY(&P->m->arena, Attr, op->nattrs + B->nattrs);
        if (op->nattrs) memcpy(arr, op->attrs, sizeof(Attr) * op->nattrs);
        memcpy(arr + op->nattrs, B->attrs, sizeof(Attr) * B->nattrs);
        op->attrs = arr;
        op->nattrs += B->nattrs;
    }
}

/* Matches written types against the operands in textual order. */
static void check_types(Parser *P, const Bound *B0, const TypeItem *T, uint32_t nt, SrcLoc loc, const char *opname,
                        const OpSig *sig)
{
    Bound reord;
    const Bound *B = B0;
    if (sig->ntype_order) {
        /* the written type list names groups in a different order than the operands */
        memset(&reord, 0, sizeof reord);
        for (unsigned k = 0; k < sig->ntype_order; k++)
            for (uint32_t i = 0; i < B0->n; i++)
                if (B0->grp[i] == sig->type_order[k]) add_value(&reord, B0->vals[i], B0->grp[i], B0->typed[i], B0->loc[i]);
        for (uint32_t i = 0; i < B0->n; i++) {
            int listed = 0;
            for (unsigned k = 0; k < sig->ntype_order; k++) listed |= B0->grp[i] == sig->type_order[k];
            if (!listed) add_value(&reord, B0->vals[i], B0->grp[i], 0, B0->loc[i]);
        }
        B = &reord;
    }
    uint32_t ncanon = 0;
    for (uint32_t i = 0; i < B->n; i++) ncanon += B->typed[i];
    int all = 0;
    if (nt == ncanon) all = 0;
    else if (nt == B->n) all = 1;
    else {
        P_error(P, DIAG_PARSE_TYPELIST, nt ? T[0].loc : loc, "'%s' lists %u operand type(s); expected %u", opname, nt, ncanon);
        return;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < B->n && k < nt; i++) {
        if (!all && !B->typed[i]) continue;
        const Value *v = B->vals[i];
        if (v && v->type != T[k].t) {
            char a[96], b[96];
            ty_format(T[k].t, a, sizeof a);
            ty_format(v->type, b, sizeof b);
            P_error(P, DIAG_PARSE_TYPE_MISMATCH, T[k].loc, "type %s is written for operand %u, but '%%%s' has type %s",
                    a, k, v->name ? v->name : "?", b);
        }
        k++;
    }
}

/* Result types from the written list, or implied by a concrete type class. */
static int result_types(Parser *P, const OpSig *sig, uint32_t nres, const TypeItem *rt, uint32_t nrt, SrcLoc loc,
                        const char *opname, const Type **out)
{
    unsigned req = 0, maxr = 0;
    int variadic = 0;
    for (unsigned i = 0; i < sig->nres; i++) {
        if (!sig->res[i].optional && !sig->res[i].variadic) req++;
        if (sig->res[i].variadic) variadic = 1;
        maxr++;
    }
    if (nres < req || (!variadic && nres > maxr)) {
        P_error(P, DIAG_PARSE_RESULTS, loc, "'%s' has %u result(s) here; it produces %s%u", opname, nres,
                req == maxr ? "" : "at least ", req);
        return 0;
    }
    if (nrt) {
        if (nrt != nres) {
            P_error(P, DIAG_PARSE_TYPELIST, rt[0].loc, "%u result type(s) written for %u result(s)", nrt, nres);
            return 0;
        }
        for (uint32_t i = 0; i < nres; i++) out[i] = rt[i].t;
        return 1;
    }
    TypeTable *T = P->ctx->types;
    for (uint32_t i = 0; i < nres; i++) {
        const SigSlot *s = &sig->res[i < sig->nres ? i : (uint32_t)sig->nres - 1];
        out[i] = tc_implied(s->tc, T);
        if (!out[i]) {
            P_error(P, DIAG_PARSE_TYPELIST, loc, "'%s' needs its result type(s) written after '->'", opname);
            return 0;
        }
    }
    return 1;
}

/* Binds attribute-dictionary entries: tokens and flags by name, the rest kept as discardable. */
static void bind_dict(Parser *P, Bound *B, const OpSig *sig, const Attr *da, uint32_t nda, Op *op, int generic)
{
    for (uint32_t i = 0; i < nda; i++) {
        const Attr *a = &da[i];
        const SigSlot *s = sig_find_token(sig, a->name);
        if (s && s->kind == SL_TOKEN && (a->kind == AT_STR || a->kind == AT_TOKEN)) {
            Item it = {.kind = IT_TOKEN, .s = a->s, .slen = (uint32_t)strlen(a->s), .loc = a->loc};
            if (!fits(P, &it, s)) bad_token(P, s, &it);
            else bind_token(P, B, s, &it);
            continue;
        }
        if (s && s->kind == SL_TOKEN && a->kind != AT_UNIT && a->kind != AT_BOOL) {
            /* a token's name with a value that is no token (#pto<quant_%type X>, a number, a list): never kept as a
               discardable attribute under the token's own name, which the printer would read as the token */
            P_error(P, DIAG_PARSE_TOKEN, a->loc, "'%s' takes a %s token, which this value is not", s->name,
                    tokset_name(s->tokset));
            continue;
        }
        if (s && s->kind == SL_STR && a->kind == AT_STR) {
            Attr *x = add_attr(P, B, s->name, AT_STR, a->loc);
            x->s = a->s;
            continue;
        }
        if (s && s->kind == SL_INT && (a->kind == AT_INT || a->kind == AT_BOOL)) {
            Attr *x = add_attr(P, B, s->name, AT_INT, a->loc);
            x->i = a->i;
            continue;
        }
        int c = clause_index(sig, a->name, (uint32_t)strlen(a->name));
        if (c >= 0 && (a->kind == AT_UNIT || (a->kind == AT_BOOL && a->i))) {
            if (sig->cl[c].unit || generic) {
                B->clause_seen[c]++;
                add_attr(P, B, sig->cl[c].kw, AT_UNIT, a->loc);
                continue;
            }
        }
        if (a->kind == AT_BOOL && !a->i && c >= 0) continue;   /* flag = false is the default */
        /* unit attribute spellings of tokens, e.g. {post_update} */
        Attr *arr = ARENA_ARRAY(&P->m->arena, Attr, op->nattrs + 1);
        if (op->nattrs) memcpy(arr, op->attrs, sizeof(Attr) * op->nattrs);
        arr[op->nattrs++] = *a;
        op->attrs = arr;
    }
}

/* Applies operandSegmentSizes (if present) as a cross-check. */
static void check_segments(Parser *P, const Op *op, const OpSig *sig)
{
    const Attr *a = op_attr(op, "operandSegmentSizes");
    if (!a) return;
    if (a->kind != AT_INTS || a->nints != sig->ngroups) {
        P_error(P, DIAG_PARSE_SEGMENTS, a->loc, "operandSegmentSizes must list %u sizes", sig->ngroups);
        return;
    }
    for (unsigned g = 0; g < sig->ngroups; g++)
        if (a->ints[g] != op->segs[g]) {
            P_error(P, DIAG_PARSE_SEGMENTS, a->loc, "operandSegmentSizes says %lld operand(s) for '%s', %u are written",
                    (long long)a->ints[g], sig->group_names[g], op->segs[g]);
            return;
        }
}

static void strip_attr(Op *op, const char *name)
{
    for (uint32_t i = 0; i < op->nattrs; i++)
        if (strcmp(op->attrs[i].name, name) == 0) {
            memmove(&op->attrs[i], &op->attrs[i + 1], sizeof(Attr) * (op->nattrs - i - 1));
            op->nattrs--;
            return;
        }
}

/* Number of positional value slots of a signature (bracket slots included). */
static unsigned pos_values(const OpSig *sig)
{
    unsigned n = 0;
    for (unsigned j = 0; j < sig->npos; j++) n += sig->pos[j].kind == SL_VALUE || sig->pos[j].kind == SL_MEM;
    return n;
}

/* pto.partition_view written without its result type: the compiler infers a partition of the source's rank
   and element type whose dims are the constant sizes ('?' for the others). NULL when it cannot. */
static const Type *partition_type(Parser *P, const Op *op)
{
    const Value *src = op->noperands ? op->operands[0] : NULL;
    if (!src || !ty_is_view(src->type) || op->noperands != 1u + 2u * src->type->rank) return NULL;
    int64_t d[TILE_MAX_RANK];
    for (unsigned i = 0; i < src->type->rank; i++) {
        const Value *v = op->operands[1 + src->type->rank + i];
        const Attr *a = v && v->def && v->def->kind == OP_ARITH_CONSTANT ? op_attr(v->def, "value") : NULL;
        d[i] = a && a->kind == AT_INT && a->i >= 0 ? a->i : TILE_DYN;
    }
    return ty_tensor_view(P->ctx->types, 1, src->type->rank, d, src->type->elem);
}

/* Two rows spelled alike (ops.def FORM): the one whose positional operand count is `n`, else `kind`. */
static int pick_form(Parser *P, int kind, unsigned n)
{
    int other = op_other_form(kind);
    if (other < 0 || pos_values(ctx_sig(P->ctx, kind)) == n) return kind;
    return pos_values(ctx_sig(P->ctx, other)) == n ? other : kind;
}

/* An attribute dictionary as op_attr_form sees it (ops.def FORM_IF rows). */
typedef struct DictView { const Attr *a; uint32_t n; } DictView;
static int dict_has(const char *name, void *arg)
{
    const DictView *d = arg;
    for (uint32_t i = 0; i < d->n; i++)
        if (strcmp(d->a[i].name, name) == 0) return 1;
    return 0;
}

/* Whether n positional values with the memory operand (%base[%off]) at position `at` fit a signature: between
   its required and all value slots before the memory slot, and likewise after it. */
static int sig_mem_fits(const OpSig *sig, int at, int n)
{
    int lo[2] = {0, 0}, hi[2] = {0, 0}, side = 0;
    for (unsigned j = 0; j < sig->npos; j++) {
        if (sig->pos[j].kind == SL_MEM) { side = 1; continue; }
        if (sig->pos[j].kind != SL_VALUE) continue;
        hi[side]++;
        lo[side] += !(sig->pos[j].optional || sig->pos[j].variadic);
    }
    int after = n - at - 1;
    return side && at >= lo[0] && at <= hi[0] && after >= lo[1] && after <= hi[1];
}

/* Two rows of one spelling (FORM) whose operand counts both fit what is written: the one whose memory
   operand can stand where the written %base[%off] stands (`pto.vmi.vstore %v, %p[%o], %bs, %rs` is the
   block-strided row, `pto.vmi.vstore %lo, %hi, %p[%o], %m` the interleaving one). */
static int pick_form_by_mem(Parser *P, int kind, const Item *pos, uint32_t npos)
{
    int other = op_other_form(kind);
    if (other < 0) return kind;
    int at = -1;
    for (uint32_t i = 0; i < npos && at < 0; i++)
        if (pos[i].kind == IT_MEM && pos[i].off) at = (int)i;
    const OpSig *a = ctx_sig(P->ctx, kind), *b = ctx_sig(P->ctx, other);
    if (at < 0 || sig_mem_fits(a, at, (int)npos) || !sig_mem_fits(b, at, (int)npos)) return kind;
    return other;
}

/* The types of a tile op's ins(...) after its ':' (the compiler's assembly formats): `%a, %b : Ta, Tb`; also each
   operand with its own type, `%a : Ta, %b : Tb` (tmov with an fp tile), and a trailing keyword operand
   `fp %x : T` or `pre_quant %x : T` (textract, tinsert, tstore): the operand is appended to the ins. */
static void parse_tile_ins_types(Parser *P, const OpSig *sig, Item *items, uint32_t *nitems, TypeItem *types,
                                 uint32_t *nt, Attr **dict, uint32_t *ndict)
{
    for (;;) {
        SrcLoc loc = P_loc(P, P_cur(P));
        if (*nt && P_is(P, TK_STRING)) {
            /* the mask-pattern forms of tgather/tscatter: `ins(%src, {maskPattern = ...} : T, "row"|"col")`, the
               axis as a string after the type (the compiler's custom format); kept as the attribute `axis` */
            Attr a = P_parse_attr_value(P, "axis");
            if (a.kind != AT_STR || !a.s || (strcmp(a.s, "row") && strcmp(a.s, "col"))) {
                P_error(P, DIAG_PARSE_OPERANDS, loc, "the axis after the types of ins(...) is \"row\" or \"col\"");
                return;
            }
            Attr *arr = ARENA_ARRAY(&P->m->arena, Attr, *ndict + 1);
            if (*ndict) memcpy(arr, *dict, sizeof(Attr) * *ndict);
            arr[(*ndict)++] = a;
            *dict = arr;
            return;
        }
        const Type *ty = P_parse_type(P);
        if (!ty) return;
        if (*nt >= MAX_TYPES) {
            P_error(P, DIAG_PARSE_LIMIT, loc, "type list too long");
            return;
        }
        types[(*nt)++] = (TypeItem){ty, NULL, loc};
        int more = 0;
        if (P_is(P, TK_COMMA) && P_at(P, 1)->kind == TK_SSA) {
            P->pos++;
            more = 1;
        } else if (P_eat(P, TK_COMMA)) {
            continue;
        } else if ((P_is_ident(P, "fp") || P_is_ident(P, "pre_quant")) && P_at(P, 1)->kind == TK_SSA) {
            P->pos++;
            more = 1;
        }
        if (!more) return;
        if (!parse_item_list(P, sig, items, nitems, 1, 1)) return;
        if (!P_expect(P, TK_COLON, "':' and the type of the operand")) return;
    }
}

/* `(item [: T], ...)` on the op's line — the operands of the frontend pipe and communication ops
   (pto.tpush_to_aiv(%t : T), pto.aic_initialize_pipe {...} (c2v_consumer_buf = %b : i32, ...),
   pto.comm.tput(%a, %b, buf(%c) : T, T, T)): the items join the operand list, the types the type list, in order. */
static void parse_paren_group(Parser *P, const OpSig *sig, Item *items, uint32_t *nitems, TypeItem *types, uint32_t *nt)
{
    P->pos++;
    while (!P_is(P, TK_RPAREN) && !P_is(P, TK_EOF)) {
        if (!parse_item(P, sig, items, nitems, 1)) break;
        if (P_eat(P, TK_COLON)) {   /* `: T` after one item, or `: T, T, ...` after all of them */
            for (;;) {
                SrcLoc tl = P_loc(P, P_cur(P));
                const Type *t = P_parse_type(P);
                if (!t) break;
                if (*nt < MAX_TYPES) types[(*nt)++] = (TypeItem){t, NULL, tl};
                const Token *u = P_at(P, 1);
                if (!P_is(P, TK_COMMA) || u->kind == TK_SSA || (u->kind == TK_IDENT && (P_at(P, 2)->kind == TK_EQUAL ||
                                                                                       P_at(P, 2)->kind == TK_LPAREN)))
                    break;
                P->pos++;
            }
        }
        if (!P_eat(P, TK_COMMA)) break;
    }
    P_expect(P, TK_RPAREN, "')' closing the operands");
}

Op *bind_parse_custom(Parser *P, int kind, SrcLoc loc, const char **resnames, uint32_t *rescounts,
                      uint32_t nresgroups, uint32_t nres)
{
    (void)resnames; (void)rescounts; (void)nresgroups;
    const OpSig *sig = ctx_sig(P->ctx, kind);
    const char *opname = op_info[kind].name;
    Op *op = P_new_op(P, kind, loc);
    Bound *B = P->bound;
    Item *items = P->items, *bracket = P->bracket;
    TypeItem *types = P->types, *rtypes = P->rtypes;
    uint32_t nitems = 0, nbr = 0, nt = 0, nrt = 0;
    bound_reset(B);
    P->nisub = 0;
    Attr *dict = NULL;
    uint32_t ndict = 0;
    const Type *rt[MAX_TYPES];
    int dps = 0;
    uint32_t nins = UINT32_MAX;    /* ins(...) outs(...) operands: the items written in ins */

    size_t errs0 = P->d->nerrors;
    if (P_is(P, TK_LBRACK) && !P_cur(P)->nl_before) {      /* pto.set_flag["A", "B", "C"] */
        P->pos++;
        if (!P_is(P, TK_RBRACK)) parse_item_list(P, sig, bracket, &nbr, 1, 0);
        P_expect(P, TK_RBRACK, "']'");
    }
    if (P_is(P, TK_LPAREN) && !P_cur(P)->nl_before && sig->paren) {
        parse_paren_group(P, sig, items, &nitems, types, &nt);
        /* keyed slots after the operands: pto.syncall(%w : T) mode = #pto.sync_all_mode<soft>, core_type = ... */
        if (!P_cur(P)->nl_before && at_keyed(P, sig)) parse_item_list(P, sig, items, &nitems, 0, 1);
    } else if (P_is_ident(P, "ins") && P_at(P, 1)->kind == TK_LPAREN && clause_index(sig, "ins", 3) < 0) {
        dps = 1;
        P->pos += 2;
        if (!P_is(P, TK_RPAREN) && !P_is(P, TK_COLON) && !P_is(P, TK_LBRACE)) parse_item_list(P, sig, items, &nitems, 1, 1);
        if (sig->has_outs && P_is(P, TK_LBRACE)) P_parse_attr_dict(P, &dict, &ndict);   /* ins(%a, %b {cmpMode = ...} : ...) */
        if (P_eat(P, TK_COLON)) {
            if (sig->has_outs) parse_tile_ins_types(P, sig, items, &nitems, types, &nt, &dict, &ndict);
            else parse_type_list(P, types, &nt);
        }
        P_expect(P, TK_RPAREN, "')' closing ins(...)");
        if (sig->has_outs && sig->ins_only) {
            nins = nitems;
        } else if (sig->has_outs) {
            /* the tile layer's form: outs(...) lists operands the op writes, not results */
            nins = nitems;
            if (P_eat_ident(P, "outs")) {
                P_expect(P, TK_LPAREN, "'(' after outs");
                if (!P_is(P, TK_RPAREN) && !P_is(P, TK_COLON)) parse_item_list(P, sig, items, &nitems, 1, 1);
                if (P_eat(P, TK_COLON)) parse_type_list(P, types, &nt);
                P_expect(P, TK_RPAREN, "')' closing outs(...)");
            } else {
                P_error(P, DIAG_PARSE_OPERANDS, P_loc(P, P_cur(P)), "'%s' needs outs(...) after ins(...)", opname);
            }
        } else if (P_is_ident(P, "outs") && P_at(P, 1)->kind == TK_COLON) {
            /* ins(...) outs : T — the result's type only (pto.tgetval) */
            P->pos += 2;
            parse_type_list(P, rtypes, &nrt);
        } else if (P_eat_ident(P, "outs")) {
            P_expect(P, TK_LPAREN, "'('");
            P->ndps = 0;
            if (!P_is(P, TK_RPAREN) && !P_is(P, TK_COLON)) {
                int over = 0;
                do {
                    Token *t = P_cur(P);
                    if (!P_expect(P, TK_SSA, "a result name in outs(...)")) break;
                    if (P_list_room(P, P->ndps, 64, P_loc(P, t), "result names in outs(...)", &over)) {
                        P->dps_names[P->ndps] = ctx_intern(P->ctx, t->s, t->len);
                        P->dps_locs[P->ndps++] = P_loc(P, t);
                    }
                } while (P_eat(P, TK_COMMA));
            }
            if (P_eat(P, TK_COLON)) parse_type_list(P, rtypes, &nrt);
            P_expect(P, TK_RPAREN, "')' closing outs(...)");
            if (!nres) nres = P->ndps;
        }
    } else {
        Token *t = P_cur(P);
        int starts = t->kind == TK_SSA || t->kind == TK_STRING || t->kind == TK_HASH || t->kind == TK_INT ||
                     t->kind == TK_LANGLE || (t->kind == TK_IDENT && !memchr(t->s, '.', t->len) &&
                                              !P_is_ident(P, "return") && !P_is_ident(P, "attributes"));
        /* An operand never starts a new line unless the previous line ended with a comma (a clause
           keyword of this op may: DMA clauses are often written on their own lines). */
        if (starts && ((t->nl_before && !is_clause_kw(sig, t) && !(sig->npos && ssa_operands_follow(P))) ||
                       at_loc(P, sig)))
            starts = 0;
        if (starts) parse_item_list(P, sig, items, &nitems, 0, 1);
    }
    if (P_is(P, TK_LBRACE) && !(P_cur(P)->nl_before && P_at(P, 1)->kind != TK_IDENT))
        P_parse_attr_dict(P, &dict, &ndict);
    if (P_is(P, TK_LPAREN) && sig->paren && !nitems) parse_paren_group(P, sig, items, &nitems, types, &nt);
    /* a clause after the attribute dict: pto.tpop_from_aic {id = 0, split = 1} aiv_subblockid(%s) -> T */
    if (P_is(P, TK_LBRACE) && !ndict && !(P_cur(P)->nl_before && P_at(P, 1)->kind != TK_IDENT))
        P_parse_attr_dict(P, &dict, &ndict);
    if (P_cur(P)->kind == TK_IDENT && sig->ncl && is_clause_kw(sig, P_cur(P)) && P_at(P, 1)->kind == TK_LPAREN)
        parse_item_list(P, sig, items, &nitems, 0, 1);
    if (!dps && P_eat(P, TK_COLON)) {
        if (P_is(P, TK_LPAREN) && P_cur(P)->kind == TK_LPAREN) {
            /* (T, ...) -> (R, ...) */
            const Type *ft = P_parse_type(P);
            if (ft && ft->kind == TY_FUNC) {
                for (unsigned i = 0; i < ft->nin && nt < MAX_TYPES; i++) types[nt++] = (TypeItem){ft->params[i], NULL, loc};
                for (unsigned i = 0; i < ft->nout && nrt < MAX_TYPES; i++) rtypes[nrt++] = (TypeItem){ft->params[ft->nin + i], NULL, loc};
            }
        } else if (!parse_type_list(P, types, &nt)) {
            goto fail;
        }
    }
    if (!dps && P_eat(P, TK_ARROW)) {
        int paren = P_eat(P, TK_LPAREN);
        if (!parse_type_list(P, rtypes, &nrt)) goto fail;
        if (paren) P_expect(P, TK_RPAREN, "')'");
    }
    if (P->fatal) goto fail;

    /* positional + clause items */
    {
        Item pos[MAX_ITEMS], cls[MAX_ITEMS];
        int clsidx[MAX_ITEMS];
        uint32_t npos = 0, ncls = 0;
        for (uint32_t i = 0; i < nitems; i++) {
            const Item *it = &items[i];
            int c = -1;
            if (it->kind == IT_CLAUSE || (it->kind == IT_TOKEN && it->bare)) c = clause_index(sig, it->s, it->slen);
            if (c >= 0) {
                clsidx[ncls] = c;
                cls[ncls++] = *it;
            } else if (it->kind == IT_CLAUSE && it->nsub == 1 && P->isub[it->sub].kind == IT_VALUE &&
                       !P->isub[it->sub].key && pos_key_slot(sig, it->s, it->slen)) {
                /* KEY(%v): a positional operand written under one of its keys */
                Item k = P->isub[it->sub];
                k.key = pos_key_slot(sig, it->s, it->slen);
                k.keyloc = it->loc;
                pos[npos++] = k;
            } else if (it->kind == IT_CLAUSE) {
                const char *kws[16];
                char hint[96];
                for (unsigned k = 0; k < sig->ncl && k < 16; k++) kws[k] = sig->cl[k].kw;
                P_error(P, DIAG_PARSE_CLAUSE, it->loc, "'%s' has no clause '%.*s'%s", opname, (int)it->slen, it->s,
                        did_you_mean(it, kws, sig->ncl < 16 ? sig->ncl : 16, hint, sizeof hint));
            } else {
                pos[npos++] = *it;
            }
        }
        int form = pick_form(P, kind, npos + nbr);
        if (form == kind && !nbr) form = pick_form_by_mem(P, kind, pos, npos);
        DictView dv = {dict, ndict};
        int aform = op_attr_form(kind, dict_has, &dv);
        if (aform >= 0) form = aform;
        if (form != kind) {   /* the same spelling with another operand list (no clauses: FORM rows have none) */
            kind = form;
            op->kind = (OpKind)form;
            sig = ctx_sig(P->ctx, form);
        }
        /* bracket slots vs positional slots */
        SigSlot br[16], ps[48];
        unsigned nb = 0, np = 0;
        for (unsigned j = 0; j < sig->npos; j++) {
            if (sig->pos[j].in_bracket) { if (nb < 16) br[nb++] = sig->pos[j]; }
            else if (np < 48) ps[np++] = sig->pos[j];
        }
        if (nbr && !nb) P_error(P, DIAG_PARSE_OPERANDS, bracket[0].loc, "'%s' takes no bracketed operands", opname);
        else if (nb) {
            if (nbr < nb && npos) {
                /* the bracket's trailing operands may also be written after it, or all of them as plain
                   positional operands: pto.set_flag_dyn["PIPE_V", "PIPE_MTE3"] %e */
                uint32_t k = nb - nbr < npos ? nb - nbr : npos;
                Item all[MAX_ITEMS];
                memcpy(all, bracket, sizeof(Item) * nbr);
                memcpy(all + nbr, pos, sizeof(Item) * k);
                bind_seq(P, B, br, nb, all, nbr + k, NULL, opname, loc);
                memmove(pos, pos + k, sizeof(Item) * (npos - k));
                npos -= k;
            } else {
                /* ... and the bracket may also carry the leading positional operands:
                   pto.set_flag_dyn[<PIPE_V>, <PIPE_MTE3>, %e] is pto.set_flag_dyn[<PIPE_V>, <PIPE_MTE3>] %e */
                uint32_t k = nbr;
                if (nbr > nb && npos + (nbr - nb) <= MAX_ITEMS) {
                    memmove(pos + (nbr - nb), pos, sizeof(Item) * npos);
                    memcpy(pos, bracket + nb, sizeof(Item) * (nbr - nb));
                    npos += nbr - nb;
                    k = nb;
                }
                bind_seq(P, B, br, nb, bracket, k, NULL, opname, loc);
            }
        }
        if (nins <= npos) {
            /* ins items bind to the slots before the '|', outs items to those after (an optional ins slot never
               takes an outs operand) */
            SigSlot ins[48], outs[48];
            unsigned ni = 0, no = 0;
            for (unsigned s = 0; s < np; s++) {
                if (ps[s].out) outs[no++] = ps[s];
                else ins[ni++] = ps[s];
            }
            bind_seq(P, B, ins, ni, pos, nins, sig, opname, loc);
            bind_seq(P, B, outs, no, pos + nins, npos - nins, sig, opname, loc);
        } else {
            bind_seq(P, B, ps, np, pos, npos, sig, opname, loc);
        }
        /* clauses after the positional operands, in the order written */
        for (uint32_t i = 0; i < ncls; i++) bind_clause(P, B, sig, clsidx[i], &cls[i]);
    }
    for (unsigned c = 0; c < sig->ncl; c++)
        if (sig->cl[c].mult == CL_ONE && !B->clause_seen[c])
            P_error(P, DIAG_PARSE_CLAUSE, loc, "'%s' needs a '%s(...)' clause", opname, sig->cl[c].kw);
    bind_dict(P, B, sig, dict, ndict, op, 0);
    finish_operands(P, op, sig, B);
    check_segments(P, op, sig);
    strip_attr(op, "operandSegmentSizes");

    /* types: if there is no '->', trailing types beyond the operands may be the results */
    {
        uint32_t ncanon = 0;
        for (uint32_t i = 0; i < B->n; i++) ncanon += B->typed[i];
        if (!nrt && nres && nt == ncanon + nres) {
            for (uint32_t i = 0; i < nres; i++) rtypes[i] = types[ncanon + i];
            nrt = nres;
            nt = ncanon;
        }
        /* after an operand error the type list would only repeat it */
        if (nt && P->d->nerrors == errs0) check_types(P, B, types, nt, loc, opname, sig);
        else if (ncanon && !nt && sig->nres + sig->npos > 0) {
            /* Ops written without a type list are accepted when every operand type is known from its
               definition (they always are: no forward references). */
        }
        if (!nres && nrt) nres = nrt;   /* results written only as types: legal, just unbound */
        int inferred = !nrt && nres == 1 && kind == OP_PARTITION_VIEW && (rt[0] = partition_type(P, op)) != NULL;
        if (!inferred && !result_types(P, sig, nres, rtypes, nrt, loc, opname, rt)) goto fail;
    }
    P_set_results(P, op, rt, nres);
    return op;
fail:
    /* keep going: skip the rest of this op */
    while (!P_is(P, TK_EOF) && !(P_cur(P)->nl_before)) P->pos++;
    return NULL;
}

const Type *bind_generic_functype(Parser *P, Attr **dict, uint32_t *nd, Value *const *v, const SrcLoc *vl, uint32_t n)
{
    if (P_is(P, TK_LBRACE)) P_parse_attr_dict(P, dict, nd);
    if (!P_expect(P, TK_COLON, "':' and the function type")) return NULL;
    SrcLoc tl = P_loc(P, P_cur(P));
    const Type *ft = P_parse_type(P);
    if (!ft) return NULL;
    if (ft->kind != TY_FUNC) {
        P_error(P, DIAG_PARSE_TYPE, tl, "the generic form ends with a function type '(operands) -> (results)'");
        return NULL;
    }
    if (ft->nin != n) {
        P_error(P, DIAG_PARSE_TYPELIST, tl, "the function type lists %u operand(s), %u are written", ft->nin, n);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++)
        if (v[i] && v[i]->type != ft->params[i])
            P_error(P, DIAG_PARSE_TYPE_MISMATCH, vl[i], "operand %u has a different type than the function type says", i);
    return ft;
}

/* "pto.x"(%a, ...) [<{props}>] [({region})...] [{attrs}] : (T...) -> (R...) */
Op *bind_parse_generic(Parser *P, int kind, SrcLoc loc, uint32_t nres)
{
    const OpSig *sig = ctx_sig(P->ctx, kind);
    Op *op = P_new_op(P, kind, loc);
    Value *vals[MAX_ITEMS];
    SrcLoc vlocs[MAX_ITEMS];
    uint32_t n = 0;
    P_expect(P, TK_LPAREN, "'('");
    if (!P_is(P, TK_RPAREN)) {
        do {
            SrcLoc l = P_loc(P, P_cur(P));
            Value *v = P_use(P);
            if (n < MAX_ITEMS) { vlocs[n] = l; vals[n++] = v; }
        } while (P_eat(P, TK_COMMA));
    }
    P_expect(P, TK_RPAREN, "')'");
    Attr *dict = NULL;
    uint32_t nd = 0;
    if (P_is(P, TK_LANGLE) && P_at(P, 1)->kind == TK_LBRACE) {
        P->pos++;
        P_parse_attr_dict(P, &dict, &nd);
        P_expect(P, TK_RANGLE, "'>'");
    }
    if (op_info[kind].syn != SYN_SIG) {
        P_error(P, DIAG_PARSE_EXPECTED, loc, "'%s' cannot be written in the generic form", op_info[kind].name);
        return NULL;
    }
    const Type *ft = bind_generic_functype(P, &dict, &nd, vals, vlocs, n);
    if (!ft) return NULL;
    for (uint32_t i = 0; i < n; i++) if (!vals[i]) return NULL;
    /* distribute operands over groups: operandSegmentSizes, or one per group when unambiguous */
    {
        DictView dv = {dict, nd};
        int af = op_attr_form(kind, dict_has, &dv);
        if (af >= 0) {
            kind = af;
            op->kind = (OpKind)kind;
            sig = ctx_sig(P->ctx, kind);
        }
    }
    if (op_other_form(kind) >= 0 && (int)n != (int)sig->ngroups && pick_form(P, kind, n) != kind) {
        kind = pick_form(P, kind, n);
        op->kind = (OpKind)kind;
        sig = ctx_sig(P->ctx, kind);
    }
    Bound *B = P->bound;
    bound_reset(B);
    const Attr *seg = NULL;
    for (uint32_t i = 0; i < nd; i++) if (strcmp(dict[i].name, "operandSegmentSizes") == 0) seg = &dict[i];
    /* a memory operand's offset is an operand of its own here, so two FORM rows (pto.vmi.vload and its
       block-strided form) are told apart by their group count: the sizes' count, else one per operand */
    if (op_other_form(kind) >= 0) {
        unsigned want = seg && seg->kind == AT_INTS ? seg->nints : n;
        int other = op_other_form(kind);
        if (sig->ngroups != want && ctx_sig(P->ctx, other)->ngroups == want) {
            kind = other;
            op->kind = (OpKind)kind;
            sig = ctx_sig(P->ctx, kind);
        }
    }
    int16_t grp[MAX_ITEMS], order[MAX_ITEMS];
    sig_generic_order(sig, order);   /* the groups in the generic form's order (the compiler's) */
    if (seg) {
        int64_t sum = 0;
        for (uint32_t g = 0; seg->kind == AT_INTS && g < seg->nints; g++) sum += seg->ints[g] < 0 ? 1 << 20 : seg->ints[g];
        if (seg->kind != AT_INTS || seg->nints != sig->ngroups || sum != (int64_t)n) {
            P_error(P, DIAG_PARSE_SEGMENTS, seg->loc, "operandSegmentSizes must list %u sizes adding up to the %u operand(s) written",
                    sig->ngroups, n);
            return NULL;
        }
        uint32_t k = 0;
        for (unsigned g = 0; g < sig->ngroups; g++)
            for (int64_t j = 0; j < seg->ints[g] && k < n; j++) grp[k++] = order[g];
    } else if (sig->ngroups == 1 && sig->npos == 1 && sig->pos[0].variadic) {
        for (uint32_t k = 0; k < n; k++) grp[k] = order[0];   /* one variadic group takes every operand */
    } else {
        /* Without sizes: only the case of exactly one operand per group is unambiguous. */
        if (n != sig->ngroups) {
            P_error(P, DIAG_PARSE_SEGMENTS, loc, "'%s' in generic form needs operandSegmentSizes to place %u operand(s)",
                    op_info[kind].name, n);
            return NULL;
        }
        for (uint32_t k = 0; k < n; k++) grp[k] = order[k];
    }
    for (uint32_t i = 0; i < n; i++) add_value(B, vals[i], grp[i], 1, vlocs[i]);
    bind_dict(P, B, sig, dict, nd, op, 1);
    finish_operands(P, op, sig, B);
    strip_attr(op, "operandSegmentSizes");
    if (ft->nout != nres) P_error(P, DIAG_PARSE_RESULTS, loc, "the function type lists %u result(s), %u are bound", ft->nout, nres);
    P_set_results(P, op, ft->params + ft->nin, ft->nout);
    return op;
}
