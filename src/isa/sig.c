/* sig.c — compiles the operand-signature strings of ops.def into SigSlot/SigClause tables.
 *
 * Signature language (whitespace separates items):
 *   sig     := pos-list? (clause | dict | results)*
 *   pos     := (KEY '=' ('[' vslot ']' | vslot))                 a value written KEY = %v, or a list KEY = [%a, ...]
 *            | NAME ':' TC ('[' NAME (':T' | ':V')? ']' | '[#' NAME ']')? MODS ('=' KEY ('|' KEY)*)?
 *                                                            (':T': the offset's type is written; ':V': it is a VMI
 *                                                            vector of per-lane indices, type written)
 *                                                            value, memory operand %base[%off], or a value
 *                                                            with a constant path %s[1, 0] (attribute NAME,
 *                                                            generic form NAME = array<i64: 1, 0>); a value
 *                                                            with keys may also be written KEY(%v), anywhere
 *            | '@' NAME ':' SET STYLE? ('=' TOKEN)? '?'?      enum token ("X", <X>, #pto.set<X>, X)
 *            | '#' NAME ':int' ('=' INT)? '?'?               integer literal attribute
 *            | '$' NAME '?'?                                  string literal attribute (pto.print ins("fmt", %v : T))
 *            | '[' slot (',' slot)* ']'                       bracket group: pto.set_flag["A", "B", "C"], pto.set_flag_dyn[<A>, <B>, %e]
 *            | '[?' slot (',' slot)* ']'                      the same, printed without the brackets (both spellings parse):
 *                                                             pto.get_buf "PIPE_V", 0 and pto.get_buf[#pto.pipe_event_type<TVEC>, 0]
 *   a '|' instead of ',' between positional slots: the slots after it are outs (ins(...) outs(...) form); a '|'
 *   after the last slot: the op is written ins(...) alone (pto.print)
 *   clause  := KWS ('!'|'?'|'*')? '^'? '(' cslot (',' cslot)* ')'   |   KWS '?'   (bare unit keyword)
 *   KWS     := KW ('|' KW)*                                  the keyword, then other spellings it accepts
 *   cslot   := (KEY '=')? (value | token)
 *   dict    := '{' tokslot (',' tokslot)* '}'                tokens whose canonical home is the attr dict
 *   results := '->' NAME ':' TC MODS (',' NAME ':' TC MODS)*
 *   TC      := any i1 i8 i16 i32 i64 index int float scalar sval vreg mask align struct vvreg vmask vval
 *              tile view tview pview (the tile layer: tile_buf, either view, tensor_view, partition_tensor_view)
 *              | ptr('.' SPACE ('|' SPACE)*)?
 *              (sval: a scalar or a packed vector<NxT>)
 *   MODS    := ('?' optional | '*' variadic | '~' type not written in the type list
 *               | '>' (a result) its type is printed after '->' even when no operand type precedes it)*
 *   STYLE   := '/a' angle | '/h' hash | '/b' bare | '/m' MLIR enum #pto<set value>   (default: quoted)
 * '^' on a clause: its keyword is repeated in the type list ("loop i64, i64, i64"). */
#include "op.h"
#include "type.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef struct SigParser {
    const char *p;
    Arena *a;
    char *err;
    unsigned errn;
    const char *opname;
    int failed;
    /* scratch */
    const char *groups[64];
    unsigned ngroups;
} SigParser;

static void sp_fail(SigParser *S, const char *what)
{
    if (!S->failed) snprintf(S->err, S->errn, "ops.def: %s: %s at \"%.20s\"", S->opname, what, S->p);
    S->failed = 1;
}

static void ws(SigParser *S) { while (*S->p == ' ' || *S->p == '\t' || *S->p == '\n') S->p++; }
static int peek(SigParser *S) { ws(S); return (unsigned char)*S->p; }
static int eat(SigParser *S, char c) { if (peek(S) == c) { S->p++; return 1; } return 0; }

static const char *name(SigParser *S)
{
    ws(S);
    const char *s = S->p;
    while (isalnum((unsigned char)*S->p) || *S->p == '_') S->p++;
    if (S->p == s) { sp_fail(S, "expected a name"); return ""; }
    return arena_strndup(S->a, s, (size_t)(S->p - s));
}

static int add_group(SigParser *S, const char *n)
{
    for (unsigned i = 0; i < S->ngroups; i++)
        if (strcmp(S->groups[i], n) == 0) { sp_fail(S, "duplicate group name"); return 0; }
    if (S->ngroups >= 64) { sp_fail(S, "too many groups"); return 0; }
    S->groups[S->ngroups] = n;
    return (int)S->ngroups++;
}

static const char *const tc_names[TC__COUNT] = {
#define TCLASS(id, name, desc, match, implied) name,
#include "tclass.def"
#undef TCLASS
};

bool tc_match(TypeClass tc, const Type *t)
{
    if (!t) return true;
    switch (tc) {
#define TCLASS(id, name, desc, match, implied) case TC_##id: return match;
#include "tclass.def"
#undef TCLASS
    default: return true;
    }
}

const char *tc_desc(TypeClass tc)
{
    static const char *const d[TC__COUNT] = {
#define TCLASS(id, name, desc, match, implied) desc,
#include "tclass.def"
#undef TCLASS
    };
    return (unsigned)tc < TC__COUNT ? d[tc] : "?";
}

const Type *tc_implied(TypeClass tc, TypeTable *T)
{
    switch (tc) {
#define TCLASS(id, name, desc, match, implied) case TC_##id: return implied;
#include "tclass.def"
#undef TCLASS
    default: return NULL;
    }
}

static void type_class(SigParser *S, SigSlot *sl)
{
    const char *n = name(S);
    for (unsigned i = 0; i < TC__COUNT; i++)
        if (strcmp(tc_names[i], n) == 0) sl->tc = (TypeClass)i;
    if (sl->tc == TC_ANY && strcmp(n, "any") != 0) sp_fail(S, "unknown type class");
    if (sl->tc == TC_PTR && *S->p == '.') {
        do {
            S->p++;
            const char *sp = S->p;
            while (isalnum((unsigned char)*S->p)) S->p++;
            int as = as_lookup(sp, (unsigned)(S->p - sp));
            if (as < 0) { sp_fail(S, "unknown space"); return; }
            sl->spaces |= (uint16_t)(1u << as);
        } while (*S->p == '|');
    }
}

static void mods(SigParser *S, SigSlot *sl)
{
    for (;;) {
        if (*S->p == '?') sl->optional = 1;
        else if (*S->p == '*') sl->variadic = 1;
        else if (*S->p == '~') sl->untyped = 1;
        else if (*S->p == '>') sl->arrow = 1;
        else break;
        S->p++;
    }
}

/* '@' NAME ':' SET STYLE? ('=' TOKEN)? '?'?  — S->p is just past '@'. */
static void token_slot(SigParser *S, SigSlot *sl)
{
    sl->kind = SL_TOKEN;
    sl->name = name(S);
    if (!eat(S, ':')) { sp_fail(S, "expected ':' after token name"); return; }
    const char *s = S->p;
    while (isalnum((unsigned char)*S->p) || *S->p == '_') S->p++;
    char setname[48];
    snprintf(setname, sizeof setname, "%.*s", (int)(S->p - s), s);
    /* Sets are referenced by their enum name (e.g. PIPE) in the table. */
    sl->tokset = -1;
#define TOKSET(set, nm) if (strcmp(setname, #set) == 0) sl->tokset = TS_##set;
#define TOK(set, id, spell)
#define TOKA(set, alias, id)
#include "tokens.def"
#undef TOKSET
#undef TOK
#undef TOKA
    if (sl->tokset < 0) { sp_fail(S, "unknown token set"); return; }
    sl->style = TS_QUOTED;
    if (*S->p == '/') {
        S->p++;
        sl->style = *S->p == 'a' ? TS_ANGLE : *S->p == 'h' ? TS_HASH : *S->p == 'm' ? TS_MLIR : TS_BARE;
        S->p++;
    }
    if (*S->p == '=') {
        S->p++;
        const char *t = S->p;
        while (isalnum((unsigned char)*S->p) || *S->p == '_') S->p++;
        int tk = tok_lookup(sl->tokset, t, (unsigned)(S->p - t));
        if (tk < 0) { sp_fail(S, "unknown default token"); return; }
        sl->has_def = 1;
        sl->def = tk;
        sl->optional = 1;
    }
    mods(S, sl);
}

static void value_slot(SigParser *S, SigSlot *sl, const char *n)
{
    sl->kind = SL_VALUE;
    sl->name = n;
    if (!eat(S, ':')) { sp_fail(S, "expected ':'"); return; }
    type_class(S, sl);
    if (*S->p == '[') {
        S->p++;
        sl->kind = SL_MEM;
        if (*S->p == '#') { S->p++; sl->off_path = 1; }
        sl->off_name = name(S);
        if (*S->p == ':' && S->p[1] == 'T') { sl->off_typed = 1; S->p += 2; }
        else if (*S->p == ':' && S->p[1] == 'V') { sl->off_typed = sl->off_vec = 1; S->p += 2; }
        if (!eat(S, ']')) { sp_fail(S, "expected ']'"); return; }
    }
    mods(S, sl);
    if (*S->p == '=') {   /* =KEY|KEY: the operand may also be written KEY(%v), in any order; the a-th keys of
                             an op's slots name one operand form (Op.keyforms), an empty key none */
        do {
            S->p++;
            if (sl->npkeys >= SIG_MAX_ALIAS) { sp_fail(S, "too many keys"); return; }
            sl->pkeys[sl->npkeys++] = *S->p == '|' ? "" : name(S);
        } while (*S->p == '|');
    }
    sl->group = (int16_t)add_group(S, sl->name);
    if (sl->kind == SL_MEM && !sl->off_path) add_group(S, sl->off_name);
}

static void int_slot(SigParser *S, SigSlot *sl)
{
    sl->kind = SL_INT;
    sl->name = name(S);
    if (!eat(S, ':')) { sp_fail(S, "expected ':'"); return; }
    const char *ty = name(S);
    if (strcmp(ty, "bool") == 0) sl->is_bool = 1;
    else if (strcmp(ty, "int") != 0) sp_fail(S, "expected int or bool");
    if (*S->p == '=') {
        S->p++;
        long long v = 0;
        int neg = *S->p == '-';
        if (neg) S->p++;
        while (isdigit((unsigned char)*S->p)) v = v * 10 + (*S->p++ - '0');
        sl->has_def = 1;
        sl->def = neg ? -v : v;
        sl->optional = 1;
    }
    mods(S, sl);
}

/* One slot in a positional list, a clause, or a dict. */
static void any_slot(SigParser *S, SigSlot *sl, int allow_value)
{
    ws(S);
    if (eat(S, '@')) { token_slot(S, sl); return; }
    if (eat(S, '#')) { int_slot(S, sl); return; }
    if (eat(S, '$')) {
        sl->kind = SL_STR;
        sl->name = name(S);
        if (eat(S, '?')) sl->optional = 1;
        return;
    }
    if (!allow_value) { sp_fail(S, "expected a token slot"); return; }
    const char *n = name(S);
    value_slot(S, sl, n);
}

typedef struct SlotVec { SigSlot v[48]; unsigned n; } SlotVec;

static SigSlot *push_slot(SigParser *S, SlotVec *v)
{
    if (v->n >= 48) { sp_fail(S, "too many slots"); return &v->v[0]; }
    memset(&v->v[v->n], 0, sizeof v->v[0]);
    v->v[v->n].group = -1;
    return &v->v[v->n++];
}

static int at_clause(SigParser *S)
{
    ws(S);
    const char *p = S->p;
    if (!isalpha((unsigned char)*p)) return 0;
    while (isalnum((unsigned char)*p) || *p == '_') p++;
    return *p != ':' && *p != '=';   /* NAME: a slot; KEY=: a keyed positional slot */
}

static const OpSig *compile_one(SigParser *S, const char *src)
{
    SlotVec pos = {.n = 0}, dict = {.n = 0}, res = {.n = 0};
    SigClause cl[16];
    unsigned ncl = 0;
    OpSig *sig = ARENA_NEW(S->a, OpSig);
    S->p = src;
    S->ngroups = 0;

    /* '(' pos-list ')': the operands may be written in parentheses after the op's name or its dict */
    int paren = eat(S, '(');
    sig->paren = (bool)paren;
    /* positional list */
    if (peek(S) && !at_clause(S) && peek(S) != '{' && !(S->p[0] == '-' && S->p[1] == '>')) {
        int outs = 0;
        for (;;) {
            ws(S);
            const char *q = S->p;
            while (isalnum((unsigned char)*q) || *q == '_') q++;
            if (q > S->p && *q == '=') {      /* KEY = %v or KEY = [...] */
                const char *k = arena_strndup(S->a, S->p, (size_t)(q - S->p));
                S->p = q + 1;
                int list = eat(S, '[');
                SigSlot *sl = push_slot(S, &pos);
                any_slot(S, sl, 1);
                sl->key = k;
                sl->list = (bool)list;
                sl->out = (bool)outs;
                if (list && (!eat(S, ']') || !sl->variadic)) sp_fail(S, "a KEY=[...] slot is one variadic value slot");
                sig->has_keyed = 1;
            } else if (eat(S, '[')) {
                sig->has_bracket = 1;
                sig->bracket_plain = eat(S, '?');
                do {
                    SigSlot *sl = push_slot(S, &pos);
                    any_slot(S, sl, 1);
                    sl->in_bracket = 1;
                } while (eat(S, ','));
                if (!eat(S, ']')) sp_fail(S, "expected ']'");
            } else {
                SigSlot *sl = push_slot(S, &pos);
                any_slot(S, sl, 1);
                sl->out = (bool)outs;
            }
            if (S->failed) break;
            if (eat(S, '|')) {
                outs = 1;
                sig->has_outs = 1;
                int e = peek(S);
                if (!e || e == '{' || e == '-' || e == ')') {   /* "a, b |": written ins(...) with no outs */
                    sig->ins_only = 1;
                    break;
                }
            } else if (!eat(S, ',')) {
                break;
            }
        }
    }
    if (paren && !eat(S, ')')) sp_fail(S, "expected ')' closing the operands");
    /* keyed slots after the parenthesised operands, separated by commas: (gm:any?) mode=@mode:SET/h, ... */
    while (paren && !S->failed && peek(S) && !at_clause(S) && isalpha((unsigned char)*S->p)) {
        const char *q = S->p;
        while (isalnum((unsigned char)*q) || *q == '_') q++;
        if (*q != '=') break;
        const char *k = arena_strndup(S->a, S->p, (size_t)(q - S->p));
        S->p = q + 1;
        SigSlot *sl = push_slot(S, &pos);
        any_slot(S, sl, 1);
        sl->key = k;
        sl->after_paren = 1;
        sig->has_keyed = 1;
        eat(S, ',');
    }
    while (!S->failed && peek(S)) {
        if (eat(S, ':')) {      /* :(a, b) — the type list names these groups in this order */
            if (!eat(S, '(')) { sp_fail(S, "expected '(' after ':'"); break; }
            do {
                const char *n = name(S);
                int g = -1;
                for (unsigned i = 0; i < S->ngroups; i++) if (!strcmp(S->groups[i], n)) g = (int)i;
                if (g < 0 || sig->ntype_order >= 8) { sp_fail(S, "bad type-order group"); break; }
                sig->type_order[sig->ntype_order++] = (int16_t)g;
            } while (eat(S, ','));
            if (!eat(S, ')')) sp_fail(S, "expected ')'");
        } else if (eat(S, '{')) {
            do {
                SigSlot *sl = push_slot(S, &dict);
                any_slot(S, sl, 0);
            } while (eat(S, ','));
            if (!eat(S, '}')) sp_fail(S, "expected '}'");
        } else if (S->p[0] == '-' && S->p[1] == '>') {
            S->p += 2;
            do {
                SigSlot *sl = push_slot(S, &res);
                const char *n = name(S);
                if (!eat(S, ':')) { sp_fail(S, "expected ':'"); break; }
                sl->kind = SL_VALUE;
                sl->name = n;
                type_class(S, sl);
                mods(S, sl);
            } while (eat(S, ','));
        } else if (at_clause(S)) {
            if (ncl >= 16) { sp_fail(S, "too many clauses"); break; }
            SigClause *c = &cl[ncl++];
            memset(c, 0, sizeof *c);
            c->kw = name(S);
            while (*S->p == '|' && c->nalias < SIG_MAX_ALIAS) {   /* other spellings of the keyword */
                S->p++;
                c->alias[c->nalias++] = name(S);
            }
            c->mult = CL_ONE;
            if (*S->p == '?') { c->mult = CL_OPT; S->p++; }
            else if (*S->p == '*') { c->mult = CL_MANY; S->p++; }
            else if (*S->p == '!') S->p++;
            if (*S->p == '^') { c->type_prefix = 1; S->p++; }
            if (*S->p != '(') {
                if (c->mult != CL_OPT) sp_fail(S, "bare clause keyword must be optional (kw?)");
                c->unit = 1;
                continue;
            }
            S->p++;
            SlotVec cs = {.n = 0};
            do {
                SigSlot *sl = push_slot(S, &cs);
                ws(S);
                const char *save = S->p;
                const char *k = NULL;
                while (isalnum((unsigned char)*S->p) || *S->p == '_') S->p++;
                if (*S->p == '=') { k = arena_strndup(S->a, save, (size_t)(S->p - save)); S->p++; }
                else S->p = save;
                any_slot(S, sl, 1);
                sl->key = k;
                if (c->mult == CL_MANY && sl->kind == SL_VALUE) sl->variadic = 1;
            } while (!S->failed && eat(S, ','));
            if (!eat(S, ')')) sp_fail(S, "expected ')'");
            c->slots = arena_dup(S->a, cs.v, sizeof(SigSlot) * cs.n);
            c->nslots = (uint16_t)cs.n;
        } else {
            sp_fail(S, "unexpected text");
        }
    }
    if (S->failed) return NULL;
    sig->pos = arena_dup(S->a, pos.v, sizeof(SigSlot) * pos.n);
    sig->npos = (uint16_t)pos.n;
    sig->dict = arena_dup(S->a, dict.v, sizeof(SigSlot) * dict.n);
    sig->ndict = (uint16_t)dict.n;
    sig->res = arena_dup(S->a, res.v, sizeof(SigSlot) * res.n);
    sig->nres = (uint16_t)res.n;
    sig->cl = arena_dup(S->a, cl, sizeof(SigClause) * ncl);
    sig->ncl = (uint16_t)ncl;
    sig->ngroups = (uint16_t)S->ngroups;
    sig->group_names = arena_dup(S->a, S->groups, sizeof(char *) * S->ngroups);
    return sig;
}

const OpSig *const *sig_compile_all(Arena *a, char *err, unsigned errn)
{
    const OpSig **all = ARENA_ARRAY(a, const OpSig *, OP__COUNT);
    SigParser S = {.a = a, .err = err, .errn = errn};
    for (int k = 0; k < OP__COUNT; k++) {
        S.opname = op_info[k].name;
        S.failed = 0;
        all[k] = compile_one(&S, op_info[k].sig ? op_info[k].sig : "");
        if (!all[k]) return NULL;
    }
    return (const OpSig *const *)all;
}

int sig_group(const OpSig *s, const char *n)
{
    for (unsigned i = 0; i < s->ngroups; i++)
        if (strcmp(s->group_names[i], n) == 0) return (int)i;
    return -1;
}

void sig_generic_order(const OpSig *s, int16_t *order)
{
    unsigned no = 0;
    if (s->has_outs)
        for (int pass = 0; pass < 3; pass++)
            for (unsigned i = 0; i < s->npos; i++) {
                const SigSlot *sl = &s->pos[i];
                if (sl->kind != SL_VALUE || sl->group < 0) continue;
                if ((sl->out ? 1 : sl->optional ? 2 : 0) == pass && no < s->ngroups) order[no++] = sl->group;
            }
    if (no != s->ngroups)   /* not every group is a plain positional value: as they are */
        for (no = 0; no < s->ngroups; no++) order[no] = (int16_t)no;
}

const SigSlot *sig_find_token(const OpSig *s, const char *n)
{
    for (unsigned i = 0; i < s->npos; i++)
        if ((s->pos[i].kind == SL_TOKEN || s->pos[i].kind == SL_INT || s->pos[i].kind == SL_STR) && strcmp(s->pos[i].name, n) == 0) return &s->pos[i];
    for (unsigned i = 0; i < s->ndict; i++)
        if (strcmp(s->dict[i].name, n) == 0) return &s->dict[i];
    for (unsigned c = 0; c < s->ncl; c++)
        for (unsigned i = 0; i < s->cl[c].nslots; i++)
            if (s->cl[c].slots[i].kind != SL_VALUE && strcmp(s->cl[c].slots[i].name, n) == 0) return &s->cl[c].slots[i];
    return NULL;
}

int sig_clause_index(const OpSig *s, const char *kw, unsigned n)
{
    for (unsigned c = 0; c < s->ncl; c++) {
        const SigClause *cl = &s->cl[c];
        if (strlen(cl->kw) == n && memcmp(cl->kw, kw, n) == 0) return (int)c;
        for (unsigned a = 0; a < cl->nalias; a++)
            if (strlen(cl->alias[a]) == n && memcmp(cl->alias[a], kw, n) == 0) return (int)c;
    }
    return -1;
}
