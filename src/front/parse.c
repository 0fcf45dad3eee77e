/* parse.c — recursive-descent parser for .pto text: module/func structure, regions and blocks,
 * SSA scoping, types, attributes, and the irregular syntaxes (arith, scf, func). Table ops with a
 * signature are handed to bind.c. Errors are collected; the parser resynchronises at op boundaries. */
#include "parse.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_NESTING = 200, MAX_RESULTS = 64 };

/* ------------------------------------------------------------------ token helpers */

int P_is(Parser *P, TokKind k) { return P_cur(P)->kind == k; }

int P_is_ident(Parser *P, const char *s)
{
    Token *t = P_cur(P);
    return t->kind == TK_IDENT && strlen(s) == t->len && memcmp(t->s, s, t->len) == 0;
}

int P_eat(Parser *P, TokKind k)
{
    if (!P_is(P, k)) return 0;
    if (P->pos + 1 < P->ntk) P->pos++;
    return 1;
}

int P_eat_ident(Parser *P, const char *s)
{
    if (!P_is_ident(P, s)) return 0;
    P->pos++;
    return 1;
}

/* Consumes keyword s or reports that it is missing. */
static int expect_kw(Parser *P, const char *s)
{
    if (P_eat_ident(P, s)) return 1;
    Token *t = P_cur(P);
    P_error(P, DIAG_PARSE_EXPECTED, P_loc(P, t), "expected '%s', found '%.*s'", s, (int)(t->len > 40 ? 40 : t->len), t->s);
    return 0;
}

void P_error(Parser *P, DiagId id, SrcLoc loc, const char *fmt, ...)
{
    if (P->fatal) return;
    va_list ap;
    va_start(ap, fmt);
    long k = diag_addv(P->d, SEV_ERROR, id, loc, fmt, ap);
    va_end(ap);
    if (k < 0) {
        P->fatal = 1;
        diag_add(P->d, SEV_NOTE, DIAG_PARSE_TOO_MANY, loc, "too many errors; stopping here");
    }
}

static void tok_desc(const Token *t, char *buf, size_t n)
{
    if (t->kind == TK_EOF) snprintf(buf, n, "end of file");
    else snprintf(buf, n, "'%.*s%.*s%s'", t->kind == TK_SSA ? 1 : 0, "%",
                  (int)(t->len > 40 ? 40 : t->len), t->s, t->kind == TK_STRING ? "\"" : "");
    if (t->kind == TK_STRING) snprintf(buf, n, "\"%.*s\"", (int)(t->len > 40 ? 40 : t->len), t->s);
}

int P_expect(Parser *P, TokKind k, const char *what)
{
    if (P_eat(P, k)) return 1;
    char got[64];
    tok_desc(P_cur(P), got, sizeof got);
    P_error(P, DIAG_PARSE_EXPECTED, P_loc(P, P_cur(P)), "expected %s, found %s", what, got);
    return 0;
}

const char *P_text(Parser *P, const Token *t) { return ctx_intern(P->ctx, t->s, t->len); }

int P_int_literal(Parser *P, const Token *t, int64_t *out)
{
    (void)P;
    char buf[80];
    if (t->len >= sizeof buf) return 0;
    memcpy(buf, t->s, t->len);
    buf[t->len] = 0;
    char *end;
    errno = 0;
    int neg = buf[0] == '-';
    unsigned long long v = strtoull(buf + (neg || buf[0] == '+'), &end, 0);
    if (*end || errno) return 0;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 1;
}

/* ------------------------------------------------------------------ SSA scope */

static ScopeEnt *scope_find(Parser *P, const char *name)
{
    for (size_t i = P->nscope; i-- > 0;)
        if (P->scope[i].name == name) return &P->scope[i];
    return NULL;
}

static void scope_push_depth(Parser *P) { P->depth++; }

static void scope_pop_depth(Parser *P)
{
    while (P->nscope && P->scope[P->nscope - 1].depth == P->depth) P->nscope--;
    P->depth--;
}

static void scope_def(Parser *P, const char *name, Value **vals, uint32_t n, SrcLoc loc)
{
    ScopeEnt *e = scope_find(P, name);
    if (e && name[0] != '_') {
        P_error(P, DIAG_PARSE_REDEF, loc, "redefinition of SSA value '%%%s'", name);
        if (e->vals && e->n) diag_note(P->d, (long)P->d->n - 1, e->vals[0]->loc, "previous definition is here");
    }
    if (P->nscope == P->capscope) {
        size_t cap = P->capscope ? P->capscope * 2 : 256;
        ScopeEnt *s = realloc(P->scope, cap * sizeof *s);
        if (!s) return;
        P->scope = s;
        P->capscope = cap;
    }
    P->scope[P->nscope++] = (ScopeEnt){name, vals, n, P->depth};
}

static Value *new_value(Parser *P, const Type *t, const char *name, SrcLoc loc)
{
    Value *v = ARENA_NEW(&P->m->arena, Value);
    v->type = t;
    v->name = name;
    v->loc = loc;
    v->id = P->m->nvalues++;
    v->slot = -1;
    return v;
}

/* %name or %name#k */
Value *P_use(Parser *P)
{
    Token *t = P_cur(P);
    if (t->kind != TK_SSA) {
        P_expect(P, TK_SSA, "an SSA value");
        return NULL;
    }
    P->pos++;
    const char *hash = memchr(t->s, '#', t->len);
    uint32_t nlen = hash ? (uint32_t)(hash - t->s) : t->len;
    uint32_t idx = 0;
    if (hash) idx = (uint32_t)strtoul(hash + 1, NULL, 10);
    const char *name = ctx_intern(P->ctx, t->s, nlen);
    ScopeEnt *e = scope_find(P, name);
    SrcLoc loc = P_loc(P, t);
    if (!e) {
        P_error(P, DIAG_PARSE_UNDEF, loc, "use of undefined value '%%%s'", name);
        return NULL;
    }
    if (idx >= e->n) {
        P_error(P, DIAG_PARSE_UNDEF, loc, "'%%%s' has %u result(s); #%u does not exist", name, e->n, idx);
        return NULL;
    }
    if (!hash && e->n > 1) {
        P_error(P, DIAG_PARSE_UNDEF, loc, "'%%%s' names %u results; write '%%%s#k'", name, e->n, name);
        return NULL;
    }
    Value *v = e->vals[idx];
    v->nuses++;
    return v;
}

/* ------------------------------------------------------------------ types */

static const Type *builtin_type(Parser *P, const char *s, unsigned n)
{
    TypeTable *T = P->ctx->types;
    char b[32];
    if (n >= sizeof b) return NULL;
    memcpy(b, s, n);
    b[n] = 0;
    if (!strcmp(b, "index")) return ty_index(T);
    if (!strcmp(b, "f16")) return ty_float(T, FK_F16);
    if (!strcmp(b, "bf16")) return ty_float(T, FK_BF16);
    if (!strcmp(b, "f32")) return ty_float(T, FK_F32);
    if (!strcmp(b, "f64")) return ty_float(T, FK_F64);
    if (!strcmp(b, "f8E4M3FN") || !strcmp(b, "f8E4M3")) return ty_float(T, FK_E4M3FN);
    if (!strcmp(b, "f8E5M2")) return ty_float(T, FK_E5M2);
    if (!strcmp(b, "f8E8M0FNU")) return ty_float(T, FK_E8M0);
    if (!strcmp(b, "f4E2M1FN")) return ty_float(T, FK_F4E2M1X2);
    if (!strcmp(b, "none")) return ty_none(T);
    IntSign sg = SIGN_LESS;
    const char *d = b;
    if (b[0] == 's' && b[1] == 'i') { sg = SIGN_S; d = b + 2; }
    else if (b[0] == 'u' && b[1] == 'i') { sg = SIGN_U; d = b + 2; }
    else if (b[0] == 'i') d = b + 1;
    else return NULL;
    if (!isdigit((unsigned char)*d)) return NULL;
    char *end;
    unsigned long w = strtoul(d, &end, 10);
    if (*end || w < 1 || w > 64) return NULL;
    return ty_int(T, (unsigned)w, sg);
}

static const Type *bad_type(Parser *P, SrcLoc loc, const char *what)
{
    P_error(P, DIAG_PARSE_TYPE, loc, "%s", what);
    return NULL;
}

/* elem ',' space '>' — shared by !pto.ptr<...> and the short form <T, space> */
static const Type *ptr_body(Parser *P, SrcLoc loc)
{
    const Type *e = P_parse_type(P);
    if (!e) return NULL;
    if (!P_expect(P, TK_COMMA, "',' in pointer type")) return NULL;
    Token *s = P_cur(P);
    int as = s->kind == TK_IDENT ? as_lookup(s->s, s->len) : -1;
    if (as < 0) return bad_type(P, P_loc(P, s), "unknown address space (expected gm, ub, l1, l0a, l0b, l0c, bt, fb or an alias)");
    P->pos++;
    if (!P_expect(P, TK_RANGLE, "'>'")) return NULL;
    (void)loc;
    return ty_ptr(P->ctx->types, e, (AddrSpace)as);
}

/* `b8`, `b16` or `b32` and the closing '>' of !pto.mask<G> / !pto.vaddr<G>: 1, 2 or 4 bytes per lane, 0 for the
   manual's placeholder `G` when allowed, -1 after an error. */
static int granularity(Parser *P, int placeholder_ok, const char *what)
{
    Token *g = P_cur(P);
    int gran = -1;
    if (g->kind == TK_IDENT && g->len == 2 && g->s[0] == 'b' && g->s[1] == '8') gran = 1;
    else if (g->kind == TK_IDENT && g->len == 3 && g->s[0] == 'b' && g->s[1] == '1' && g->s[2] == '6') gran = 2;
    else if (g->kind == TK_IDENT && g->len == 3 && g->s[0] == 'b' && g->s[1] == '3' && g->s[2] == '2') gran = 4;
    else if (placeholder_ok && g->kind == TK_IDENT && g->len == 1 && g->s[0] == 'G') gran = 0;
    if (gran < 0) {
        bad_type(P, P_loc(P, g), what);
        return -1;
    }
    P->pos++;
    return P_expect(P, TK_RANGLE, "'>'") ? gran : -1;
}

/* '<' NxT '>' of !pto.vreg<NxT> and vector<NxT>. The lexer splits "64xf32" into 64 and "xf32", and
   "64x!pto.hif8" into 64, "x", !pto.hif8. Returns the element type (NULL after an error). */
static const Type *lanes_x_elem(Parser *P, const char *what, unsigned *lanes)
{
    char msg[80];
    snprintf(msg, sizeof msg, "'<' after %s", what);
    if (!P_expect(P, TK_LANGLE, msg)) return NULL;
    Token *n = P_cur(P);
    int64_t k;
    snprintf(msg, sizeof msg, "expected a lane count in %s<NxT>", what);
    if (n->kind != TK_INT || !P_int_literal(P, n, &k) || k <= 0 || k > 4096) return bad_type(P, P_loc(P, n), msg);
    P->pos++;
    Token *x = P_cur(P);
    const Type *e = NULL;
    if (x->kind == TK_IDENT && x->s[0] == 'x') {
        if (x->len == 1) {
            P->pos++;
            e = P_parse_type(P);
        } else {
            e = builtin_type(P, x->s + 1, x->len - 1);
            if (!e) return bad_type(P, P_loc(P, x), "unknown vector element type");
            P->pos++;
        }
    } else {
        snprintf(msg, sizeof msg, "expected 'x' and an element type in %s<NxT>", what);
        return bad_type(P, P_loc(P, x), msg);
    }
    if (!e || !P_expect(P, TK_RANGLE, "'>'")) return NULL;
    *lanes = (unsigned)k;
    return e;
}

static const Type *dialect_type(Parser *P, Token *t)
{
    TypeTable *T = P->ctx->types;
    SrcLoc loc = P_loc(P, t);
#define IS(lit) (t->len == sizeof(lit) - 1 && memcmp(t->s, lit, t->len) == 0)
    if (IS("pto.ptr")) {
        if (!P_eat(P, TK_LANGLE)) return bad_type(P, loc, "'!pto.ptr' needs '<element, space>'");
        return ptr_body(P, loc);
    }
    if (IS("pto.vreg")) {
        unsigned lanes;
        const Type *e = lanes_x_elem(P, "!pto.vreg", &lanes);
        return e ? ty_vreg(T, lanes, e) : NULL;
    }
    if (IS("llvm.ptr")) {      /* !llvm.ptr or !llvm.ptr<N> (numeric address space) */
        if (!P_eat(P, TK_LANGLE)) return ty_llptr(T, 0);
        Token *n = P_cur(P);
        int64_t as;
        if (n->kind != TK_INT || !P_int_literal(P, n, &as) || as < 0 || as > 255)
            return bad_type(P, P_loc(P, n), "expected a numeric address space in !llvm.ptr<N>");
        P->pos++;
        return P_expect(P, TK_RANGLE, "'>'") ? ty_llptr(T, (unsigned)as) : NULL;
    }
    if (IS("pto.hif8x2")) return ty_vec(T, 2, ty_float(T, FK_HIF8), true);
    if (IS("pto.mask")) {
        if (!P_eat(P, TK_LANGLE)) return ty_mask(T, 0);
        int gran = granularity(P, 1, "mask granularity must be b8, b16 or b32");
        return gran < 0 ? NULL : ty_mask(T, (unsigned)gran);
    }
    if (IS("pto.vaddr")) {
        if (!P_expect(P, TK_LANGLE, "'<' after !pto.vaddr")) return NULL;
        int gran = granularity(P, 0, "vector-address granularity must be b8, b16 or b32");
        return gran < 0 ? NULL : ty_vaddr(T, (unsigned)gran);
    }
    if (IS("pto.align")) return ty_align(T);
    if (IS("pto.hif8")) return ty_float(T, FK_HIF8);
    if (IS("pto.f4E2M1x2") || IS("pto.f4e2m1x2")) return ty_float(T, FK_F4E2M1X2);
    if (IS("pto.f4E1M2x2") || IS("pto.f4e1m2x2")) return ty_float(T, FK_F4E1M2X2);
    if (IS("pto.e8m0") || IS("pto.f8E8M0")) return ty_float(T, FK_E8M0);
    if (IS("pto.f8E4M3FN") || IS("pto.f8e4m3")) return ty_float(T, FK_E4M3FN);
    if (IS("pto.f8E5M2") || IS("pto.f8e5m2")) return ty_float(T, FK_E5M2);
#undef IS
    return bad_type(P, loc, "unknown dialect type");
}

const Type *P_parse_type(Parser *P)
{
    Token *t = P_cur(P);
    SrcLoc loc = P_loc(P, t);
    if (t->kind == TK_IDENT && P_is_ident(P, "vector") && P_at(P, 1)->kind == TK_LANGLE) {   /* packed SIMT value */
        P->pos++;
        unsigned lanes;
        const Type *e = lanes_x_elem(P, "vector", &lanes);
        return e ? ty_vec(P->ctx->types, lanes, e, false) : NULL;
    }
    if (t->kind == TK_IDENT) {
        const Type *ty = builtin_type(P, t->s, t->len);
        if (!ty) return bad_type(P, loc, "unknown type");
        P->pos++;
        return ty;
    }
    if (t->kind == TK_BANG) {
        P->pos++;
        return dialect_type(P, t);
    }
    if (t->kind == TK_LANGLE) {     /* short pointer form <f32, gm> */
        P->pos++;
        return ptr_body(P, loc);
    }
    if (t->kind == TK_LPAREN) {     /* function type (A, B) -> (C) */
        P->pos++;
        const Type *in[64], *out[64];
        unsigned nin = 0, nout = 0;
        if (!P_is(P, TK_RPAREN)) {
            do {
                const Type *e = P_parse_type(P);
                if (!e) return NULL;
                if (nin < 64) in[nin++] = e;
            } while (P_eat(P, TK_COMMA));
        }
        if (!P_expect(P, TK_RPAREN, "')'")) return NULL;
        if (!P_expect(P, TK_ARROW, "'->' in function type")) return NULL;
        if (P_eat(P, TK_LPAREN)) {
            if (!P_is(P, TK_RPAREN)) {
                do {
                    const Type *e = P_parse_type(P);
                    if (!e) return NULL;
                    if (nout < 64) out[nout++] = e;
                } while (P_eat(P, TK_COMMA));
            }
            if (!P_expect(P, TK_RPAREN, "')'")) return NULL;
        } else {
            const Type *e = P_parse_type(P);
            if (!e) return NULL;
            out[nout++] = e;
        }
        return ty_func(P->ctx->types, in, nin, out, nout);
    }
    char got[64];
    tok_desc(t, got, sizeof got);
    P_error(P, DIAG_PARSE_TYPE, loc, "expected a type, found %s", got);
    return NULL;
}

/* ------------------------------------------------------------------ attributes */

/* Skips a balanced <...>, (...), [...] or {...} group starting at the current opener. Brackets must match
   by kind; a closer of the wrong kind, or an opener still open at the end of the file, is an error. */
static void skip_balanced(Parser *P)
{
    TokKind want[64];
    int depth = 0;
    const Token *open = P_cur(P);
    do {
        const Token *t = P_cur(P);
        TokKind k = t->kind;
        if (k == TK_EOF) {
            P_error(P, DIAG_PARSE_EXPECTED, P_loc(P, open), "this bracket is never closed (end of file reached)");
            return;
        }
        TokKind close = k == TK_LANGLE ? TK_RANGLE : k == TK_LPAREN ? TK_RPAREN : k == TK_LBRACK ? TK_RBRACK
                        : k == TK_LBRACE ? TK_RBRACE : TK_EOF;
        if (close != TK_EOF) {
            if (depth == (int)(sizeof want / sizeof want[0])) {
                P_error(P, DIAG_PARSE_EXPECTED, P_loc(P, t), "brackets nested too deeply");
                return;
            }
            want[depth++] = close;
        } else if (k == TK_RANGLE || k == TK_RPAREN || k == TK_RBRACK || k == TK_RBRACE) {
            if (k != want[depth - 1]) {
                P_error(P, DIAG_PARSE_EXPECTED, P_loc(P, t), "this bracket does not match the one it closes");
                return;
            }
            depth--;
        }
        P->pos++;
    } while (depth > 0);
}

/* Source extent of token i, sigils and string quotes included. */
static const char *tok_begin(const Token *t)
{
    return t->s - (t->kind == TK_STRING || t->kind == TK_SSA || t->kind == TK_HASH || t->kind == TK_BANG ||
                   t->kind == TK_SYMBOL || t->kind == TK_BLOCK);
}
static const char *tok_end(const Token *t) { return t->s + t->len + (t->kind == TK_STRING); }

/* The source text of tokens [from, to), kept verbatim (it is printed back as is). A span with a comment
   inside is rebuilt from its tokens, one space for each gap, so the printed text holds no comment that
   would swallow what follows it. */
static const char *span_text(Parser *P, size_t from, size_t to)
{
    if (to <= from) return ctx_intern(P->ctx, "", 0);
    const char *s = tok_begin(&P->tk[from]), *end = tok_end(&P->tk[to - 1]);
    size_t n = (size_t)(end - s);
    int comment = 0;
    for (size_t i = from; i + 1 < to && !comment; i++) {
        const char *a = tok_end(&P->tk[i]), *b = tok_begin(&P->tk[i + 1]);
        for (const char *q = a; q + 1 < b; q++) comment |= q[0] == '/' && q[1] == '/';
    }
    if (!comment) return ctx_intern(P->ctx, s, n);
    char *buf = malloc(n + 1);
    if (!buf) return ctx_intern(P->ctx, s, n);
    size_t k = 0;
    for (size_t i = from; i < to; i++) {
        const char *b = tok_begin(&P->tk[i]), *e = tok_end(&P->tk[i]);
        if (i > from && b != tok_end(&P->tk[i - 1])) buf[k++] = ' ';
        memcpy(buf + k, b, (size_t)(e - b));
        k += (size_t)(e - b);
    }
    const char *r = ctx_intern(P->ctx, buf, k);
    free(buf);
    return r;
}

Attr P_parse_attr_value(Parser *P, const char *name)
{
    Attr a;
    memset(&a, 0, sizeof a);
    a.name = name;
    Token *t = P_cur(P);
    a.loc = P_loc(P, t);
    size_t start = P->pos;
    switch (t->kind) {
    case TK_STRING:
        a.kind = AT_STR;
        a.s = ctx_intern(P->ctx, t->s, t->len);
        P->pos++;
        return a;
    case TK_INT:
        if (P_int_literal(P, t, &a.i)) {
            a.kind = AT_INT;
            P->pos++;
            if (P_eat(P, TK_COLON)) a.ty = P_parse_type(P);
            return a;
        }
        break;
    case TK_FLOAT:
        a.kind = AT_FLOAT;
        a.f = strtod(P_text(P, t), NULL);
        P->pos++;
        if (P_eat(P, TK_COLON)) a.ty = P_parse_type(P);
        return a;
    case TK_IDENT:
        if (P_is_ident(P, "true") || P_is_ident(P, "false")) {
            a.kind = AT_BOOL;
            a.i = t->s[0] == 't';
            P->pos++;
            return a;
        }
        if (P_is_ident(P, "unit")) { a.kind = AT_UNIT; P->pos++; return a; }
        if (P_is_ident(P, "array")) {      /* array<i32: 1, 2, 3> */
            P->pos++;
            if (P_eat(P, TK_LANGLE)) {
                int64_t vals[256];
                uint32_t n = 0;
                if (P_is(P, TK_IDENT)) P->pos++;
                if (P_eat(P, TK_COLON)) {
                    do {
                        int64_t v;
                        if (!P_is(P, TK_INT) || !P_int_literal(P, P_cur(P), &v)) break;
                        P->pos++;
                        if (n < 256) vals[n++] = v;
                    } while (P_eat(P, TK_COMMA));
                }
                P_expect(P, TK_RANGLE, "'>'");
                a.kind = AT_INTS;
                a.ints = arena_dup(&P->m->arena, vals, sizeof(int64_t) * n);
                a.nints = n;
                a.s = span_text(P, start, P->pos);
                return a;
            }
            break;
        }
        {   /* a builtin type used as an attribute value */
            const Type *ty = builtin_type(P, t->s, t->len);
            if (ty) { a.kind = AT_TYPE; a.ty = ty; P->pos++; return a; }
        }
        /* a bare identifier (used by some clause values); keep as a token-like string */
        a.kind = AT_STR;
        a.s = P_text(P, t);
        P->pos++;
        a.i = -1;
        return a;
    case TK_BANG: {
        const Type *ty = P_parse_type(P);
        a.kind = AT_TYPE;
        a.ty = ty;
        return a;
    }
    case TK_SYMBOL:
        a.kind = AT_SYM;
        a.s = P_text(P, t);
        P->pos++;
        return a;
    case TK_HASH:
        /* #dialect.name<VALUE> — keep the inner identifier as the token text, the whole as raw */
        P->pos++;
        if (P_is(P, TK_LANGLE)) {
            Token *inner = P_at(P, 1);
            if (inner->kind == TK_IDENT && P_at(P, 2)->kind == TK_RANGLE) {
                a.kind = AT_TOKEN;
                a.i = -1;
                a.s = P_text(P, inner);
                P->pos += 3;
                a.raw = span_text(P, start, P->pos);
                return a;
            }
            skip_balanced(P);
        }
        a.kind = AT_RAW;
        a.s = span_text(P, start, P->pos);
        return a;
    case TK_LANGLE:
        /* <IDENT> shorthand token */
        if (P_at(P, 1)->kind == TK_IDENT && P_at(P, 2)->kind == TK_RANGLE) {
            a.kind = AT_TOKEN;
            a.i = -1;
            a.s = P_text(P, P_at(P, 1));
            P->pos += 3;
            a.raw = span_text(P, start, P->pos);
            return a;
        }
        break;
    case TK_LBRACK: case TK_LBRACE: case TK_LPAREN:
        skip_balanced(P);
        a.kind = AT_RAW;
        a.s = span_text(P, start, P->pos);
        return a;
    default:
        break;
    }
    char got[64];
    tok_desc(t, got, sizeof got);
    P_error(P, DIAG_PARSE_ATTR, a.loc, "expected an attribute value, found %s", got);
    if (t->kind != TK_EOF && t->kind != TK_RBRACE && t->kind != TK_COMMA) P->pos++;
    a.kind = AT_UNIT;
    return a;
}

/* '{' (name ('=' value)?) (',' ...)* '}' */
int P_parse_attr_dict(Parser *P, Attr **out, uint32_t *n)
{
    Attr buf[64];
    uint32_t k = 0;
    if (!P_expect(P, TK_LBRACE, "'{'")) return 0;
    if (!P_is(P, TK_RBRACE)) {
        do {
            Token *t = P_cur(P);
            if (t->kind != TK_IDENT && t->kind != TK_STRING) {
                P_expect(P, TK_IDENT, "an attribute name");
                return 0;
            }
            const char *name = P_text(P, t);
            P->pos++;
            Attr a;
            if (P_eat(P, TK_EQUAL)) {
                a = P_parse_attr_value(P, name);
            } else {
                memset(&a, 0, sizeof a);
                a.kind = AT_UNIT;
                a.name = name;
                a.loc = P_loc(P, t);
            }
            if (k < 64) buf[k++] = a;
            else P_error(P, DIAG_PARSE_LIMIT, a.loc, "too many attributes");
        } while (P_eat(P, TK_COMMA));
    }
    if (!P_expect(P, TK_RBRACE, "'}' closing the attribute dictionary")) return 0;
    Attr *arr = ARENA_ARRAY(&P->m->arena, Attr, k + *n);
    if (*n) memcpy(arr, *out, sizeof(Attr) * *n);
    memcpy(arr + *n, buf, sizeof(Attr) * k);
    *out = arr;
    *n += k;
    return 1;
}

/* ------------------------------------------------------------------ op construction */

Op *P_new_op(Parser *P, int kind, SrcLoc loc)
{
    Op *op = ARENA_NEW(&P->m->arena, Op);
    op->kind = (OpKind)kind;
    op->loc = loc;
    op->id = P->m->nops++;
    return op;
}

void P_set_results(Parser *P, Op *op, const Type *const *types, uint32_t n)
{
    op->results = ARENA_ARRAY(&P->m->arena, Value *, n ? n : 1);
    op->nresults = n;
    for (uint32_t i = 0; i < n; i++) {
        op->results[i] = new_value(P, types[i], NULL, op->loc);
        op->results[i]->def = op;
        op->results[i]->index = (uint16_t)i;
    }
}

static void set_operands(Parser *P, Op *op, Value **v, uint32_t n)
{
    op->operands = arena_dup(&P->m->arena, v, sizeof(Value *) * (n ? n : 1));
    op->noperands = n;
}

static void append_op(Block *b, Op *op)
{
    op->parent = b;
    op->prev = b->last;
    if (b->last) b->last->next = op;
    else b->first = op;
    b->last = op;
}

static Region *new_region(Parser *P, Op *parent)
{
    Region *r = ARENA_NEW(&P->m->arena, Region);
    r->parent = parent;
    r->block = ARENA_NEW(&P->m->arena, Block);
    r->block->parent = r;
    return r;
}

static void add_region(Parser *P, Op *op, Region *r)
{
    Region **rs = ARENA_ARRAY(&P->m->arena, Region *, op->nregions + 1);
    if (op->nregions) memcpy(rs, op->regions, sizeof(Region *) * op->nregions);
    rs[op->nregions++] = r;
    op->regions = rs;
    r->parent = op;
}

/* ------------------------------------------------------------------ recovery */

/* Skips to the next token that can start an op at the current nesting level; the token at
   P->pos itself counts only when at_here is set (the caller already consumed the bad token). */
static void recover_at(Parser *P, int at_here)
{
    int depth = 0;
    size_t start = P->pos - (at_here && P->pos > 0);
    while (!P_is(P, TK_EOF)) {
        Token *t = P_cur(P);
        if (P->pos > start && t->nl_before && depth == 0 &&
            (t->kind == TK_SSA || (t->kind == TK_IDENT && (memchr(t->s, '.', t->len) || P_is_ident(P, "return"))) ||
             t->kind == TK_STRING || t->kind == TK_RBRACE))
            return;
        if (t->kind == TK_LBRACE || t->kind == TK_LPAREN || t->kind == TK_LBRACK) depth++;
        if (t->kind == TK_RBRACE || t->kind == TK_RPAREN || t->kind == TK_RBRACK) {
            if (depth == 0) return;   /* end of the enclosing region */
            depth--;
        }
        P->pos++;
    }
}

static void recover(Parser *P) { recover_at(P, 0); }

/* ------------------------------------------------------------------ blocks and regions */

static Op *parse_op(Parser *P);

/* Parses ops until '}' into block b (the '{' is already consumed). */
static void parse_block_body(Parser *P, Block *b)
{
    if (P_is(P, TK_BLOCK)) {
        /* ^bb0(%a: T, ...): — arguments become block args (only for regions that take them). */
        P_error(P, DIAG_PARSE_EXPECTED, P_loc(P, P_cur(P)), "block labels are only allowed where the region takes arguments");
        recover(P);
    }
    while (!P_is(P, TK_RBRACE) && !P_is(P, TK_EOF) && !P->fatal) {
        size_t before = P->pos;
        Op *op = parse_op(P);
        if (op) append_op(b, op);
        if (P->pos == before) P->pos++;   /* guarantee progress */
    }
}

static int enter_nesting(Parser *P, SrcLoc loc)
{
    if (++P->nesting > MAX_NESTING) {
        P_error(P, DIAG_PARSE_LIMIT, loc, "regions nested deeper than %d", MAX_NESTING);
        P->fatal = 1;
        return 0;
    }
    return 1;
}

/* '{' [^bb(args):] ops '}' with optional typed block arguments (for regions that accept them). */
static Region *parse_region(Parser *P, Op *parent, const Type *const *argtypes, const char *const *argnames,
                            uint32_t nargs, int allow_label)
{
    Region *r = new_region(P, parent);
    Block *b = r->block;
    b->loc = P_loc(P, P_cur(P));
    if (!P_expect(P, TK_LBRACE, "'{' opening a region")) return r;
    if (!enter_nesting(P, b->loc)) return r;
    scope_push_depth(P);
    Value *argv[64];
    uint32_t na = 0;
    for (uint32_t i = 0; i < nargs && i < 64; i++) {
        argv[na] = new_value(P, argtypes[i], argnames[i], b->loc);
        argv[na]->owner = b;
        argv[na]->index = (uint16_t)na;
        na++;
    }
    if (allow_label && P_is(P, TK_BLOCK)) {
        P->pos++;
        if (P_eat(P, TK_LPAREN) && !P_is(P, TK_RPAREN)) {
            do {
                Token *nt = P_cur(P);
                if (!P_expect(P, TK_SSA, "a block argument")) break;
                if (!P_expect(P, TK_COLON, "':'")) break;
                const Type *ty = P_parse_type(P);
                if (!ty) break;
                if (na < 64) {
                    argv[na] = new_value(P, ty, ctx_intern(P->ctx, nt->s, nt->len), P_loc(P, nt));
                    argv[na]->owner = b;
                    argv[na]->index = (uint16_t)na;
                    na++;
                }
            } while (P_eat(P, TK_COMMA));
            P_expect(P, TK_RPAREN, "')'");
        } else if (P_is(P, TK_RPAREN)) {
            P->pos++;
        }
        P_expect(P, TK_COLON, "':' after the block label");
    }
    b->args = arena_dup(&P->m->arena, argv, sizeof(Value *) * (na ? na : 1));
    b->nargs = na;
    for (uint32_t i = 0; i < na; i++)
        if (argv[i]->name) scope_def(P, argv[i]->name, &b->args[i], 1, argv[i]->loc);
    parse_block_body(P, b);
    P_expect(P, TK_RBRACE, "'}' closing the region");
    scope_pop_depth(P);
    P->nesting--;
    return r;
}

/* ------------------------------------------------------------------ structural ops */

static void parse_trailing_attrs(Parser *P, Op *op)
{
    if (P_is_ident(P, "attributes")) P->pos++;
    if (P_is(P, TK_LBRACE) && !P_cur(P)->nl_before) P_parse_attr_dict(P, &op->attrs, &op->nattrs);
}

static Attr mk_attr(Parser *P, const char *name, AttrKind k)
{
    Attr a;
    memset(&a, 0, sizeof a);
    a.name = ctx_intern(P->ctx, name, strlen(name));
    a.kind = k;
    return a;
}

static void push_attr(Parser *P, Op *op, Attr a)
{
    Attr *arr = ARENA_ARRAY(&P->m->arena, Attr, op->nattrs + 1);
    if (op->nattrs) memcpy(arr, op->attrs, sizeof(Attr) * op->nattrs);
    arr[op->nattrs++] = a;
    op->attrs = arr;
}

/* module [@name] [attributes {...}] { ... } */
static Op *parse_module(Parser *P, SrcLoc loc)
{
    Op *op = P_new_op(P, OP_MODULE, loc);
    if (P_is(P, TK_SYMBOL)) {
        Attr a = mk_attr(P, "sym_name", AT_SYM);
        a.s = P_text(P, P_cur(P));
        P->pos++;
        push_attr(P, op, a);
    }
    if (P_eat_ident(P, "attributes")) P_parse_attr_dict(P, &op->attrs, &op->nattrs);
    P_set_results(P, op, NULL, 0);
    /* Each module is a symbol scope: nested modules do not see outer values. */
    add_region(P, op, parse_region(P, op, NULL, NULL, 0, 0));
    return op;
}

/* func.func [private] @name(%a: T [{attrs}], ...) [-> T | (T, ...)] [attributes {...}] [{ body }] */
static Op *parse_func(Parser *P, SrcLoc loc)
{
    Op *op = P_new_op(P, OP_FUNC, loc);
    P_set_results(P, op, NULL, 0);
    if (P_is_ident(P, "private") || P_is_ident(P, "public") || P_is_ident(P, "nested")) {
        Attr a = mk_attr(P, "sym_visibility", AT_STR);
        a.s = P_text(P, P_cur(P));
        push_attr(P, op, a);
        P->pos++;
    }
    Token *nt = P_cur(P);
    if (!P_expect(P, TK_SYMBOL, "a function name '@name'")) { recover(P); return NULL; }
    Attr sym = mk_attr(P, "sym_name", AT_SYM);
    sym.s = ctx_intern(P->ctx, nt->s, nt->len);
    sym.loc = P_loc(P, nt);
    push_attr(P, op, sym);
    const Type *in[64], *out[64];
    const char *names[64];
    uint32_t nin = 0, nout = 0;
    if (!P_expect(P, TK_LPAREN, "'(' opening the parameter list")) { recover(P); return NULL; }
    if (!P_is(P, TK_RPAREN)) {
        do {
            Token *an = P_cur(P);
            const char *aname = NULL;
            if (an->kind == TK_SSA) {
                aname = ctx_intern(P->ctx, an->s, an->len);
                P->pos++;
                if (!P_expect(P, TK_COLON, "':' after a parameter name")) { recover(P); return NULL; }
            }
            const Type *ty = P_parse_type(P);
            if (!ty) { recover(P); return NULL; }
            if (P_is(P, TK_LBRACE)) {   /* per-argument attributes are accepted and dropped */
                Attr *tmp = NULL;
                uint32_t nt2 = 0;
                P_parse_attr_dict(P, &tmp, &nt2);
            }
            if (nin >= 64) { P_error(P, DIAG_PARSE_LIMIT, P_loc(P, an), "more than 64 parameters"); recover(P); return NULL; }
            names[nin] = aname;
            in[nin++] = ty;
        } while (P_eat(P, TK_COMMA));
    }
    if (!P_expect(P, TK_RPAREN, "')' closing the parameter list")) { recover(P); return NULL; }
    if (P_eat(P, TK_ARROW)) {
        if (P_eat(P, TK_LPAREN)) {
            if (!P_is(P, TK_RPAREN)) {
                do {
                    const Type *ty = P_parse_type(P);
                    if (!ty) { recover(P); return NULL; }
                    if (nout < 64) out[nout++] = ty;
                } while (P_eat(P, TK_COMMA));
            }
            P_expect(P, TK_RPAREN, "')'");
        } else {
            const Type *ty = P_parse_type(P);
            if (!ty) { recover(P); return NULL; }
            out[nout++] = ty;
        }
    }
    Attr ft = mk_attr(P, "function_type", AT_TYPE);
    ft.ty = ty_func(P->ctx->types, in, nin, out, nout);
    push_attr(P, op, ft);
    if (P_eat_ident(P, "attributes")) P_parse_attr_dict(P, &op->attrs, &op->nattrs);
    if (P_is(P, TK_LBRACE)) {
        for (uint32_t i = 0; i < nin; i++)
            if (!names[i]) {
                P_error(P, DIAG_PARSE_EXPECTED, loc, "a function with a body needs named parameters");
                break;
            }
        /* Function bodies are isolated: outer SSA names are not visible. */
        size_t save_n = P->nscope;
        uint32_t save_depth = P->depth;
        ScopeEnt *save = NULL;
        if (save_n) {
            save = malloc(save_n * sizeof *save);
            if (save) memcpy(save, P->scope, save_n * sizeof *save);
        }
        P->nscope = 0;
        P->depth = 0;
        add_region(P, op, parse_region(P, op, in, names, nin, 0));
        if (save) {
            memcpy(P->scope, save, save_n * sizeof *save);
            free(save);
        }
        P->nscope = save_n;
        P->depth = save_depth;
    }
    return op;
}

/* [func.]return [%a, ... : T, ...] */
static Op *parse_return(Parser *P, SrcLoc loc, int kind)
{
    Op *op = P_new_op(P, kind, loc);
    P_set_results(P, op, NULL, 0);
    Value *v[64];
    uint32_t n = 0;
    if (P_is(P, TK_SSA) && !P_cur(P)->nl_before) {
        do {
            Value *x = P_use(P);
            if (n < 64 && x) v[n++] = x;
        } while (P_eat(P, TK_COMMA));
        if (P_eat(P, TK_COLON)) {
            uint32_t k = 0;
            do {
                const Type *t = P_parse_type(P);
                if (t && k < n && v[k]->type != t)
                    P_error(P, DIAG_PARSE_TYPE_MISMATCH, loc, "returned value %u has a different type", k);
                k++;
            } while (P_eat(P, TK_COMMA));
        }
    }
    set_operands(P, op, v, n);
    return op;
}

/* func.call @f(%a, ...) : (T...) -> (R...) */
static Op *parse_call(Parser *P, SrcLoc loc, uint32_t nres)
{
    Op *op = P_new_op(P, OP_CALL, loc);
    Token *nt = P_cur(P);
    if (!P_expect(P, TK_SYMBOL, "a callee '@name'")) { recover(P); return NULL; }
    Attr a = mk_attr(P, "callee", AT_SYM);
    a.s = ctx_intern(P->ctx, nt->s, nt->len);
    push_attr(P, op, a);
    Value *v[64];
    uint32_t n = 0;
    P_expect(P, TK_LPAREN, "'('");
    if (!P_is(P, TK_RPAREN)) {
        do {
            Value *x = P_use(P);
            if (x && n < 64) v[n++] = x;
        } while (P_eat(P, TK_COMMA));
    }
    P_expect(P, TK_RPAREN, "')'");
    set_operands(P, op, v, n);
    if (!P_expect(P, TK_COLON, "':' and the callee type")) { recover(P); return NULL; }
    const Type *ft = P_parse_type(P);
    if (!ft || ft->kind != TY_FUNC) { recover(P); return NULL; }
    if (nres && ft->nout != nres) P_error(P, DIAG_PARSE_RESULTS, loc, "call returns %u values but %u names are bound", ft->nout, nres);
    P_set_results(P, op, ft->params + ft->nin, ft->nout);
    return op;
}

/* pto.vecscope / pto.section.* [attributes {...}] { ... } [{...}] */
static Op *parse_region_op(Parser *P, int kind, SrcLoc loc)
{
    Op *op = P_new_op(P, kind, loc);
    P_set_results(P, op, NULL, 0);
    if (P_eat_ident(P, "attributes")) P_parse_attr_dict(P, &op->attrs, &op->nattrs);
    add_region(P, op, parse_region(P, op, NULL, NULL, 0, 0));
    parse_trailing_attrs(P, op);
    return op;
}

/* pto.strict_vecscope(%a, ...) { ^bb0(%x: T, ...): ... } : (T, ...) -> () */
static Op *parse_strict_vecscope(Parser *P, SrcLoc loc)
{
    Op *op = P_new_op(P, OP_STRICT_VECSCOPE, loc);
    P_set_results(P, op, NULL, 0);
    Value *v[64];
    uint32_t n = 0;
    if (P_eat(P, TK_LPAREN)) {
        if (!P_is(P, TK_RPAREN)) {
            do {
                Value *x = P_use(P);
                if (x && n < 64) v[n++] = x;
            } while (P_eat(P, TK_COMMA));
        }
        P_expect(P, TK_RPAREN, "')'");
    }
    set_operands(P, op, v, n);
    add_region(P, op, parse_region(P, op, NULL, NULL, 0, 1));
    if (P_eat(P, TK_COLON)) {
        const Type *ft = P_parse_type(P);
        if (ft && ft->kind == TY_FUNC) {
            if (ft->nin != n) P_error(P, DIAG_PARSE_TYPELIST, loc, "type list names %u captures, %u are passed", ft->nin, n);
            for (uint32_t i = 0; i < n && i < ft->nin; i++)
                if (v[i]->type != ft->params[i])
                    P_error(P, DIAG_PARSE_TYPE_MISMATCH, loc, "capture %u has a different type than the type list says", i);
        }
    }
    parse_trailing_attrs(P, op);
    return op;
}

/* ------------------------------------------------------------------ SIMT and llvm forms */

/* Operands of a table op bound one per signature group in order, the last group taking the rest. */
static void set_group_operands(Parser *P, Op *op, Value **v, uint32_t n)
{
    const OpSig *sig = ctx_sig(P->ctx, op->kind);
    unsigned ng = sig->ngroups ? sig->ngroups : 1;
    op->segs = ARENA_ARRAY(&P->m->arena, uint8_t, ng);
    for (uint32_t i = 0; i < n && sig->ngroups; i++) {
        unsigned g = i < ng ? i : ng - 1;
        if (op->segs[g] < 255) op->segs[g]++;
    }
    set_operands(P, op, v, n);
}

/* pto.simt_launch @f<<<%x, %y, %z>>>(%a, ...) : (T, ...) -> ()   |   pto.section.simt<<<X, Y, Z>>> { ... } */
static Op *parse_simt(Parser *P, int kind, SrcLoc loc)
{
    static const char *const dims[3] = {"dim_x", "dim_y", "dim_z"};
    Op *op = P_new_op(P, kind, loc);
    P_set_results(P, op, NULL, 0);
    Value *v[68];
    uint32_t n = 0;
    int launch = kind == OP_SIMT_LAUNCH;
    if (launch) {
        Token *nt = P_cur(P);
        if (!P_expect(P, TK_SYMBOL, "the SIMT entry '@name'")) { recover(P); return NULL; }
        Attr a = mk_attr(P, "callee", AT_SYM);
        a.s = ctx_intern(P->ctx, nt->s, nt->len);
        a.loc = P_loc(P, nt);
        push_attr(P, op, a);
    }
    for (int i = 0; i < 3; i++)
        if (!P_expect(P, TK_LANGLE, "'<<<' and the launch dimensions")) { recover(P); return NULL; }
    for (int i = 0; i < 3; i++) {
        if (i && !P_expect(P, TK_COMMA, "','")) { recover(P); return NULL; }
        Token *t = P_cur(P);
        if (launch) {
            if (!(v[n++] = P_use(P))) { recover(P); return NULL; }
            continue;
        }
        Attr a = mk_attr(P, dims[i], AT_INT);
        a.loc = P_loc(P, t);
        if (t->kind != TK_INT || !P_int_literal(P, t, &a.i)) {
            P_error(P, DIAG_PARSE_EXPECTED, a.loc, "expected an integer launch dimension");
            recover(P);
            return NULL;
        }
        P->pos++;
        push_attr(P, op, a);
    }
    for (int i = 0; i < 3; i++)
        if (!P_expect(P, TK_RANGLE, "'>>>'")) { recover(P); return NULL; }
    if (!launch) {
        if (P_eat_ident(P, "attributes")) P_parse_attr_dict(P, &op->attrs, &op->nattrs);
        add_region(P, op, parse_region(P, op, NULL, NULL, 0, 0));
        parse_trailing_attrs(P, op);
        return op;
    }
    if (!P_expect(P, TK_LPAREN, "'(' and the entry's arguments")) { recover(P); return NULL; }
    if (!P_is(P, TK_RPAREN)) {
        do {
            Value *x = P_use(P);
            if (!x) { recover(P); return NULL; }
            if (n < 67) v[n++] = x;
            else P_error(P, DIAG_PARSE_LIMIT, loc, "too many launch arguments");
        } while (P_eat(P, TK_COMMA));
    }
    P_expect(P, TK_RPAREN, "')'");
    if (P_is(P, TK_LBRACE)) P_parse_attr_dict(P, &op->attrs, &op->nattrs);
    if (!P_expect(P, TK_COLON, "':' and the entry's type")) { recover(P); return NULL; }
    const Type *ft = P_parse_type(P);
    if (!ft || ft->kind != TY_FUNC) { recover(P); return NULL; }
    if (ft->nin != n - 3) P_error(P, DIAG_PARSE_TYPELIST, loc, "type list names %u argument(s), %u are passed", ft->nin, n - 3);
    for (uint32_t i = 0; i < ft->nin && i + 3 < n; i++)
        if (v[i + 3]->type != ft->params[i])
            P_error(P, DIAG_PARSE_TYPE_MISMATCH, loc, "argument %u has a different type than the type list says", i);
    set_group_operands(P, op, v, n);
    return op;
}

/* llvm.alloca %n x T [{attrs}] : (I) -> !llvm.ptr
   llvm.getelementptr %p[%i] : (!llvm.ptr, I) -> !llvm.ptr, T
   llvm.extractelement %v[%i : I] : vector<NxT>                     (T kept as the attribute elem_type) */
static Op *parse_llvm(Parser *P, int kind, SrcLoc loc)
{
    Op *op = P_new_op(P, kind, loc);
    Value *v[2];
    const Type *rt = NULL, *et = NULL;
    if (!(v[0] = P_use(P))) { recover(P); return NULL; }
    if (kind == OP_LLVM_ALLOCA) {
        if (!expect_kw(P, "x") || !(et = P_parse_type(P))) { recover(P); return NULL; }
    } else {
        if (!P_expect(P, TK_LBRACK, "'['") || !(v[1] = P_use(P))) { recover(P); return NULL; }
        if (kind == OP_LLVM_EXTRACTELEMENT && P_eat(P, TK_COLON)) {
            const Type *it = P_parse_type(P);
            if (it && it != v[1]->type) P_error(P, DIAG_PARSE_TYPE_MISMATCH, loc, "the index has a different type than written");
        }
        if (!P_expect(P, TK_RBRACK, "']'")) { recover(P); return NULL; }
    }
    if (P_is(P, TK_LBRACE)) P_parse_attr_dict(P, &op->attrs, &op->nattrs);
    if (!P_expect(P, TK_COLON, "':' and the types")) { recover(P); return NULL; }
    const Type *t = P_parse_type(P);
    if (!t) { recover(P); return NULL; }
    uint32_t n = kind == OP_LLVM_ALLOCA ? 1 : 2;
    if (kind == OP_LLVM_EXTRACTELEMENT) {
        if (t != v[0]->type) P_error(P, DIAG_PARSE_TYPE_MISMATCH, loc, "the vector has a different type than written");
        rt = t->kind == TY_VEC ? t->elem : t;
    } else if (t->kind != TY_FUNC || t->nin != n || t->nout != 1) {
        P_error(P, DIAG_PARSE_TYPELIST, loc, "'%s' needs its type as '(operand types) -> result type'", op_info[kind].name);
        recover(P);
        return NULL;
    } else {
        rt = t->params[n];
        for (uint32_t i = 0; i < n; i++)
            if (v[i]->type != t->params[i]) P_error(P, DIAG_PARSE_TYPE_MISMATCH, loc, "operand %u has a different type than written", i);
        if (kind == OP_LLVM_GEP && (!P_expect(P, TK_COMMA, "',' and the element type") || !(et = P_parse_type(P)))) {
            recover(P);
            return NULL;
        }
    }
    if (et) {
        Attr a = mk_attr(P, "elem_type", AT_TYPE);
        a.ty = et;
        push_attr(P, op, a);
    }
    set_group_operands(P, op, v, n);
    P_set_results(P, op, &rt, 1);
    return op;
}

/* ------------------------------------------------------------------ scf */

/* scf.for %iv = %lb to %ub step %s [: T] [iter_args(%a = %x, ...) -> (T, ...)] [: T] { ... } [{attrs}] */
static Op *parse_scf_for(Parser *P, SrcLoc loc, uint32_t nres)
{
    Op *op = P_new_op(P, OP_SCF_FOR, loc);
    Token *ivt = P_cur(P);
    if (!P_expect(P, TK_SSA, "the induction variable")) { recover(P); return NULL; }
    const char *ivname = ctx_intern(P->ctx, ivt->s, ivt->len);
    if (!P_expect(P, TK_EQUAL, "'='")) { recover(P); return NULL; }
    Value *v[68];
    uint32_t n = 0;
    v[n++] = P_use(P);
    if (!expect_kw(P, "to")) { recover(P); return NULL; }
    v[n++] = P_use(P);
    if (!expect_kw(P, "step")) { recover(P); return NULL; }
    v[n++] = P_use(P);
    if (!v[0] || !v[1] || !v[2]) { recover(P); return NULL; }
    const Type *ivty = v[0]->type;
    if (P_eat(P, TK_COLON)) ivty = P_parse_type(P);
    const char *names[66];
    const Type *types[66];
    uint32_t ni = 0;
    names[ni] = ivname;
    types[ni++] = ivty;
    const Type *rtypes[64];
    uint32_t nr = 0;
    if (P_eat_ident(P, "iter_args")) {
        P_expect(P, TK_LPAREN, "'('");
        if (!P_is(P, TK_RPAREN)) {
            do {
                Token *an = P_cur(P);
                if (!P_expect(P, TK_SSA, "an iteration argument")) break;
                P_expect(P, TK_EQUAL, "'='");
                Value *init = P_use(P);
                if (n >= 67) { P_error(P, DIAG_PARSE_LIMIT, loc, "too many iter_args"); break; }
                v[n++] = init;
                names[ni] = ctx_intern(P->ctx, an->s, an->len);
                types[ni++] = init ? init->type : NULL;
            } while (P_eat(P, TK_COMMA));
        }
        P_expect(P, TK_RPAREN, "')'");
        if (P_eat(P, TK_ARROW)) {
            int paren = P_eat(P, TK_LPAREN);
            do {
                const Type *t = P_parse_type(P);
                if (t && nr < 64) rtypes[nr++] = t;
            } while (P_eat(P, TK_COMMA));
            if (paren) P_expect(P, TK_RPAREN, "')'");
        }
    }
    if (P_eat(P, TK_COLON)) ivty = types[0] = P_parse_type(P);
    for (uint32_t i = 0; i < n; i++)
        if (!v[i]) { recover(P); return NULL; }
    if (nr != ni - 1) {
        if (nr) P_error(P, DIAG_PARSE_RESULTS, loc, "scf.for declares %u result types for %u iter_args", nr, ni - 1);
        for (uint32_t i = 1; i < ni; i++) rtypes[i - 1] = types[i];
        nr = ni - 1;
    }
    for (uint32_t i = 1; i < ni; i++)
        if (types[i] != rtypes[i - 1])
            P_error(P, DIAG_PARSE_TYPE_MISMATCH, loc, "iter_arg %u is initialised with a value of another type", i - 1);
    if (nres && nres != nr) P_error(P, DIAG_PARSE_RESULTS, loc, "scf.for yields %u values but %u names are bound", nr, nres);
    if (!ivty) { recover(P); return NULL; }
    set_operands(P, op, v, n);
    P_set_results(P, op, rtypes, nr);
    add_region(P, op, parse_region(P, op, types, names, ni, 0));
    parse_trailing_attrs(P, op);
    return op;
}

/* scf.if %c [-> (T, ...)] { ... } [else { ... }] */
static Op *parse_scf_if(Parser *P, SrcLoc loc, uint32_t nres)
{
    Op *op = P_new_op(P, OP_SCF_IF, loc);
    Value *c = P_use(P);
    if (!c) { recover(P); return NULL; }
    set_operands(P, op, &c, 1);
    const Type *rt[64];
    uint32_t nr = 0;
    if (P_eat(P, TK_ARROW)) {
        int paren = P_eat(P, TK_LPAREN);
        do {
            const Type *t = P_parse_type(P);
            if (t && nr < 64) rt[nr++] = t;
        } while (P_eat(P, TK_COMMA));
        if (paren) P_expect(P, TK_RPAREN, "')'");
    }
    if (nres && nres != nr) P_error(P, DIAG_PARSE_RESULTS, loc, "scf.if produces %u values but %u names are bound", nr, nres);
    P_set_results(P, op, rt, nr);
    add_region(P, op, parse_region(P, op, NULL, NULL, 0, 0));
    if (P_eat_ident(P, "else")) add_region(P, op, parse_region(P, op, NULL, NULL, 0, 0));
    parse_trailing_attrs(P, op);
    return op;
}

/* scf.while (%a = %x, ...) : (T...) -> (R...) { before } do { after } */
static Op *parse_scf_while(Parser *P, SrcLoc loc, uint32_t nres)
{
    Op *op = P_new_op(P, OP_SCF_WHILE, loc);
    Value *v[64];
    const char *names[64];
    uint32_t n = 0;
    P_expect(P, TK_LPAREN, "'('");
    if (!P_is(P, TK_RPAREN)) {
        do {
            Token *an = P_cur(P);
            if (!P_expect(P, TK_SSA, "a loop-carried value")) break;
            P_expect(P, TK_EQUAL, "'='");
            Value *x = P_use(P);
            if (n < 64 && x) { names[n] = ctx_intern(P->ctx, an->s, an->len); v[n++] = x; }
        } while (P_eat(P, TK_COMMA));
    }
    P_expect(P, TK_RPAREN, "')'");
    if (!P_expect(P, TK_COLON, "':' and the loop type")) { recover(P); return NULL; }
    const Type *ft = P_parse_type(P);
    if (!ft || ft->kind != TY_FUNC || ft->nin != n) {
        P_error(P, DIAG_PARSE_TYPELIST, loc, "scf.while needs a type '(inputs) -> (results)' matching its operands");
        recover(P);
        return NULL;
    }
    if (nres && ft->nout != nres) P_error(P, DIAG_PARSE_RESULTS, loc, "scf.while produces %u values but %u names are bound", ft->nout, nres);
    set_operands(P, op, v, n);
    P_set_results(P, op, ft->params + ft->nin, ft->nout);
    add_region(P, op, parse_region(P, op, ft->params, names, n, 1));
    if (!P_eat_ident(P, "do")) {
        P_error(P, DIAG_PARSE_EXPECTED, P_loc(P, P_cur(P)), "expected 'do' and the loop body after the condition region");
        recover(P);
        return op;
    }
    add_region(P, op, parse_region(P, op, ft->params + ft->nin, NULL, 0, 1));
    parse_trailing_attrs(P, op);
    return op;
}

/* scf.yield [%a, ... : T, ...]  /  scf.condition(%c) [%a, ... : T, ...] */
static Op *parse_values_terminator(Parser *P, int kind, SrcLoc loc)
{
    Op *op = P_new_op(P, kind, loc);
    P_set_results(P, op, NULL, 0);
    Value *v[65];
    uint32_t n = 0;
    if (kind == OP_SCF_CONDITION) {
        P_expect(P, TK_LPAREN, "'('");
        v[n++] = P_use(P);
        P_expect(P, TK_RPAREN, "')'");
        if (!v[0]) { recover(P); return NULL; }
    }
    if (P_is(P, TK_SSA) && !P_cur(P)->nl_before) {
        do {
            Value *x = P_use(P);
            if (x && n < 65) v[n++] = x;
        } while (P_eat(P, TK_COMMA));
        if (P_eat(P, TK_COLON)) {
            uint32_t k = kind == OP_SCF_CONDITION;
            do {
                const Type *t = P_parse_type(P);
                if (t && k < n && v[k]->type != t)
                    P_error(P, DIAG_PARSE_TYPE_MISMATCH, loc, "value %u has a different type than written", k);
                k++;
            } while (P_eat(P, TK_COMMA));
        }
    }
    set_operands(P, op, v, n);
    return op;
}

/* ------------------------------------------------------------------ arith */

static Op *parse_arith_const(Parser *P, SrcLoc loc)
{
    Op *op = P_new_op(P, OP_ARITH_CONSTANT, loc);
    Token *t = P_cur(P);
    Attr a = mk_attr(P, "value", AT_INT);
    a.loc = P_loc(P, t);
    const Type *ty = NULL;
    if (P_is_ident(P, "true") || P_is_ident(P, "false")) {
        a.i = t->s[0] == 't';
        ty = ty_int(P->ctx->types, 1, SIGN_LESS);
        P->pos++;
        a.kind = AT_INT;
    } else if (t->kind == TK_INT) {
        if (!P_int_literal(P, t, &a.i)) {
            P_error(P, DIAG_LEX_NUMBER, a.loc, "integer literal does not fit in 64 bits");
            a.i = 0;
        }
        P->pos++;
    } else if (t->kind == TK_FLOAT) {
        a.kind = AT_FLOAT;
        a.s = P_text(P, t);
        a.f = strtod(a.s, NULL);
        P->pos++;
    } else if (P_is_ident(P, "dense") && P_at(P, 1)->kind == TK_LANGLE) {
        /* dense<v> / dense<[v0, v1, ...]> of a packed vector<NxT>: kept verbatim; lowering reads the elements */
        size_t start = P->pos++;
        skip_balanced(P);
        a.kind = AT_RAW;
        a.s = span_text(P, start, P->pos);
    } else if (P_is_ident(P, "inf") || P_is_ident(P, "nan")) {
        a.kind = AT_FLOAT;
        a.s = P_text(P, t);
        a.f = t->s[0] == 'i' ? 1.0 / 0.0 : 0.0 / 0.0;
        P->pos++;
    } else {
        char got[64];
        tok_desc(t, got, sizeof got);
        P_error(P, DIAG_PARSE_EXPECTED, a.loc, "expected a constant value, found %s", got);
        recover(P);
        return NULL;
    }
    if (P_eat(P, TK_COLON)) ty = P_parse_type(P);
    if (!ty) {
        if (!P->fatal && P->d->nerrors == 0)
            P_error(P, DIAG_PARSE_TYPE, loc, "arith.constant needs a type");
        recover(P);
        return NULL;
    }
    /* A decimal literal of a float constant keeps its text so the value can be rounded once, exactly. */
    if (a.kind == AT_INT && ty->kind == TY_FLOAT && t->kind == TK_INT && !(t->len > 2 && (t->s[1] == 'x' || t->s[1] == 'X'))) {
        a.kind = AT_FLOAT;
        a.s = P_text(P, t);
        a.f = (double)a.i;
    }
    a.ty = ty;
    push_attr(P, op, a);
    P_set_results(P, op, &ty, 1);
    return op;
}

/* Optional overflow<...> / fastmath<...> / exact modifiers are accepted and kept as raw attrs. */
static void arith_modifiers(Parser *P, Op *op)
{
    while (P_is(P, TK_IDENT) && (P_is_ident(P, "overflow") || P_is_ident(P, "fastmath") || P_is_ident(P, "exact") ||
                                 P_is_ident(P, "nuw") || P_is_ident(P, "nsw"))) {
        size_t s = P->pos;
        P->pos++;
        if (P_is(P, TK_LANGLE)) skip_balanced(P);
        Attr a = mk_attr(P, "modifier", AT_RAW);
        a.s = span_text(P, s, P->pos);
        push_attr(P, op, a);
    }
}

static Op *parse_arith(Parser *P, int kind, SrcLoc loc)
{
    OpSyntax syn = op_info[kind].syn;
    Op *op = P_new_op(P, kind, loc);
    Value *v[3];
    uint32_t n = 0;
    int pred = -1;
    if (syn == SYN_ARITH_CMP) {
        Token *t = P_cur(P);
        int set = kind == OP_ARITH_CMPI ? TS_ARITHCMPI : TS_ARITHCMPF;
        if (t->kind == TK_IDENT) pred = tok_lookup(set, t->s, t->len);
        else if (t->kind == TK_STRING) pred = tok_lookup(set, t->s, t->len);
        if (pred < 0) {
            P_error(P, DIAG_PARSE_TOKEN, P_loc(P, t), "unknown comparison predicate '%.*s'", (int)t->len, t->s);
            recover(P);
            return NULL;
        }
        P->pos++;
        P_expect(P, TK_COMMA, "','");
        Attr a = mk_attr(P, "predicate", AT_TOKEN);
        a.i = pred;
        a.s = tok_spelling(pred);
        push_attr(P, op, a);
    }
    unsigned want = syn == SYN_ARITH_UN || syn == SYN_ARITH_CAST ? 1 : syn == SYN_ARITH_SELECT ? 3 : 2;
    for (unsigned i = 0; i < want; i++) {
        if (i) P_expect(P, TK_COMMA, "','");
        v[n] = P_use(P);
        if (!v[n]) { recover(P); return NULL; }
        n++;
    }
    arith_modifiers(P, op);
    if (P_is(P, TK_LBRACE)) P_parse_attr_dict(P, &op->attrs, &op->nattrs);
    if (!P_expect(P, TK_COLON, "':' and a type")) { recover(P); return NULL; }
    const Type *t1 = P_parse_type(P);
    if (!t1) { recover(P); return NULL; }
    const Type *rt = t1;
    if (syn == SYN_ARITH_CAST) {
        if (!expect_kw(P, "to")) { recover(P); return NULL; }
        rt = P_parse_type(P);
        if (!rt) { recover(P); return NULL; }
        if (v[0]->type != t1) P_error(P, DIAG_PARSE_TYPE_MISMATCH, loc, "operand type differs from the written source type");
    } else if (syn == SYN_ARITH_SELECT) {
        if (P_eat(P, TK_COMMA)) {   /* select %c, %a, %b : i1, T */
            rt = P_parse_type(P);
            if (!rt) { recover(P); return NULL; }
        }
        if (v[1]->type != rt || v[2]->type != rt)
            P_error(P, DIAG_PARSE_TYPE_MISMATCH, loc, "select operands must have the written type");
    } else {
        for (uint32_t i = 0; i < n; i++)
            if (v[i]->type != t1) {
                char b[96];
                ty_format(v[i]->type, b, sizeof b);
                P_error(P, DIAG_PARSE_TYPE_MISMATCH, loc, "operand %u has type %s, not the written type", i, b);
                break;
            }
        if (syn == SYN_ARITH_CMP) rt = ty_int(P->ctx->types, 1, SIGN_LESS);
    }
    set_operands(P, op, v, n);
    P_set_results(P, op, &rt, 1);
    return op;
}

/* ------------------------------------------------------------------ op dispatch */

static int is_generic_name(Parser *P)
{
    return P_is(P, TK_STRING) && P_at(P, 1)->kind == TK_LPAREN;
}

static Op *parse_op(Parser *P)
{
    Token *first = P_cur(P);
    SrcLoc loc = P_loc(P, first);
    /* results: %a, %b = ...  |  %r:2 = ... */
    const char *rnames[MAX_RESULTS];
    uint32_t rcounts[MAX_RESULTS];
    SrcLoc rlocs[MAX_RESULTS];
    uint32_t ngroups = 0, nres = 0;
    if (P_is(P, TK_SSA)) {
        do {
            Token *t = P_cur(P);
            if (!P_expect(P, TK_SSA, "a result name")) { recover(P); return NULL; }
            uint32_t cnt = 1;
            if (P_is(P, TK_COLON) && P_at(P, 1)->kind == TK_INT) {
                P->pos++;
                int64_t c;
                if (!P_int_literal(P, P_cur(P), &c) || c < 1 || c > MAX_RESULTS) {
                    P_error(P, DIAG_PARSE_RESULTS, P_loc(P, P_cur(P)), "bad result count");
                    c = 1;
                }
                cnt = (uint32_t)c;
                P->pos++;
            }
            if (ngroups >= MAX_RESULTS || nres + cnt > MAX_RESULTS) {
                P_error(P, DIAG_PARSE_LIMIT, loc, "too many results");
                recover(P);
                return NULL;
            }
            rnames[ngroups] = ctx_intern(P->ctx, t->s, t->len);
            rlocs[ngroups] = P_loc(P, t);
            rcounts[ngroups++] = cnt;
            nres += cnt;
        } while (P_eat(P, TK_COMMA));
        if (!P_expect(P, TK_EQUAL, "'=' after the result names")) { recover(P); return NULL; }
        loc = P_loc(P, P_cur(P));
    }
    Token *nt = P_cur(P);
    Op *op = NULL;
    int generic = is_generic_name(P);
    if (nt->kind != TK_IDENT && !generic) {
        char got[64];
        tok_desc(nt, got, sizeof got);
        P_error(P, DIAG_PARSE_EXPECTED, loc, "expected an operation, found %s", got);
        recover(P);
        return NULL;
    }
    int kind = op_lookup(nt->s, nt->len);
    if (kind < 0) {
        P_error(P, DIAG_PARSE_UNKNOWN_OP, loc, "unknown operation '%.*s'", (int)nt->len, nt->s);
        P->pos++;
        recover_at(P, 1);
        return NULL;
    }
    P->pos++;
    if (generic) {
        op = bind_parse_generic(P, kind, loc, nres);
    } else {
        switch (op_info[kind].syn) {
        case SYN_MODULE: op = parse_module(P, loc); break;
        case SYN_FUNC: op = parse_func(P, loc); break;
        case SYN_RETURN: op = parse_return(P, loc, kind); break;
        case SYN_CALL: op = parse_call(P, loc, nres); break;
        case SYN_SCF_FOR: op = parse_scf_for(P, loc, nres); break;
        case SYN_SCF_IF: op = parse_scf_if(P, loc, nres); break;
        case SYN_SCF_WHILE: op = parse_scf_while(P, loc, nres); break;
        case SYN_SCF_YIELD: case SYN_SCF_CONDITION: op = parse_values_terminator(P, kind, loc); break;
        case SYN_REGION: op = parse_region_op(P, kind, loc); break;
        case SYN_STRICT_VECSCOPE: op = parse_strict_vecscope(P, loc); break;
        case SYN_ARITH_CONST: op = parse_arith_const(P, loc); break;
        case SYN_ARITH_BIN: case SYN_ARITH_UN: case SYN_ARITH_CMP: case SYN_ARITH_CAST: case SYN_ARITH_SELECT:
            op = parse_arith(P, kind, loc);
            break;
        case SYN_SIMT: op = parse_simt(P, kind, loc); break;
        case SYN_LLVM: op = parse_llvm(P, kind, loc); break;
        case SYN_SIG:
            P->ndps = 0;
            op = bind_parse_custom(P, kind, loc, rnames, rcounts, ngroups, nres);
            if (op && P->ndps && !ngroups) {
                for (uint32_t i = 0; i < P->ndps; i++) {
                    rnames[i] = P->dps_names[i];
                    rlocs[i] = P->dps_locs[i];
                    rcounts[i] = 1;
                }
                ngroups = nres = P->ndps;
            }
            break;
        }
    }
    if (!op) return NULL;
    /* Results left unbound are legal (validated kernels write `scf.for ... -> (i32) {` without a name);
       they simply cannot be referenced. Binding the wrong number is an error. */
    if (op->nresults != nres && nres) {
        if (nres || op->nresults)
            P_error(P, DIAG_PARSE_RESULTS, loc, "'%s' produces %u result(s) but %u name(s) are bound",
                    op_info[kind].name, op->nresults, nres);
        /* Bind what exists so later uses do not cascade into undefined-value errors. */
    }
    uint32_t k = 0;
    for (uint32_t g = 0; g < ngroups; g++) {
        uint32_t cnt = rcounts[g];
        if (k + cnt > op->nresults) break;
        for (uint32_t i = 0; i < cnt; i++) {
            op->results[k + i]->name = rnames[g];
            op->results[k + i]->loc = rlocs[g];
        }
        scope_def(P, rnames[g], &op->results[k], cnt, rlocs[g]);
        k += cnt;
    }
    return op;
}

/* ------------------------------------------------------------------ entry */

/* A file holds one module op, or bare top-level ops that get an implicit module. */
Op *parse_module_text(PtoCtx *ctx, Module *m, const char *file, const char *text, size_t len)
{
    Parser P;
    memset(&P, 0, sizeof P);
    P.ctx = ctx;
    P.m = m;
    P.d = &ctx->diags;
    P.file = file;
    TokenArray ta;
    if (lex_all(file, text, len, P.d, &ta) != 0) return NULL;
    P.tk = ta.t;
    P.ntk = ta.n;
    Op *top;
    SrcLoc loc = P_loc(&P, P_cur(&P));
    if (P_is_ident(&P, "module") || P_is_ident(&P, "builtin.module")) {
        P.pos++;
        top = parse_module(&P, loc);
        while (!P_is(&P, TK_EOF) && !P.fatal) {
            P_error(&P, DIAG_PARSE_EXPECTED, P_loc(&P, P_cur(&P)), "unexpected text after the module");
            recover(&P);
            if (P_is(&P, TK_RBRACE)) P.pos++;
            break;
        }
    } else {
        top = P_new_op(&P, OP_MODULE, loc);
        P_set_results(&P, top, NULL, 0);
        Region *r = new_region(&P, top);
        add_region(&P, top, r);
        while (!P_is(&P, TK_EOF) && !P.fatal) {
            size_t before = P.pos;
            if (P_is(&P, TK_RBRACE)) {
                P_error(&P, DIAG_PARSE_EXPECTED, P_loc(&P, P_cur(&P)), "unbalanced '}'");
                P.pos++;
                continue;
            }
            Op *op = parse_op(&P);
            if (op) append_op(r->block, op);
            if (P.pos == before) P.pos++;
        }
    }
    free(P.tk);
    free(P.scope);
    return top;
}
