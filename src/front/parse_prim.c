/* parse_prim.c — the parser's primitives, shared by parse.c (structure) and bind.c (signature syntax):
 * the token window, literals, "did you mean", SSA names and scopes, types, attributes, and building ops.
 * Tokens come from a window lexed on demand (parse.h); SSA names and type spellings go through hash
 * tables, so each byte is touched a few times and each op costs the same wherever it is in the file. */
#include "parse.h"
#include "base/alloc.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ token window */

void P_fill(Parser *P, size_t i)
{
    while (P->nlexed <= i) {
        size_t rel = P->nlexed - P->base, c = rel >> TKC_BITS, off = rel & (TKC_N - 1);
        if (c == P->nchunks) {
            if (P->nchunks == P->capchunks) {
                P->capchunks = P->capchunks ? P->capchunks * 2 : 8;
                P->chunks = front_realloc(P->lx.oom, P->chunks, P->capchunks * sizeof *P->chunks);
            }
            P->chunks[P->nchunks++] = P->nspare ? P->spare[--P->nspare] : front_realloc(P->lx.oom, NULL, TKC_N * sizeof(Token));
        }
        P->nlexed += lex_fill(&P->lx, &P->chunks[c][off], TKC_N - off);
    }
}

/* Drops the chunks wholly before the current token. Called between ops, where nothing holds an older
   token or position. */
void P_release(Parser *P)
{
    size_t c = (P->pos - P->base) >> TKC_BITS;
    if (!c) return;
    for (size_t k = 0; k < c; k++) {
        if (P->nspare < 16) {
            if (!P->spare) P->spare = front_realloc(P->lx.oom, NULL, 16 * sizeof *P->spare);
            P->spare[P->nspare++] = P->chunks[k];
        } else {
            mem_free(P->chunks[k]);
        }
    }
    memmove(P->chunks, P->chunks + c, (P->nchunks - c) * sizeof *P->chunks);
    P->nchunks -= c;
    P->base += c << TKC_BITS;
    /* the comments already attached go too */
    if (P->cmnext) {
        memmove(P->lx.cm, P->lx.cm + P->cmnext, (P->lx.ncm - P->cmnext) * sizeof *P->lx.cm);
        P->lx.ncm -= P->cmnext;
        P->cmnext = 0;
    }
}

/* ------------------------------------------------------------------ token helpers */

int P_is_ident(Parser *P, const char *s)
{
    Token *t = P_cur(P);
    return t->kind == TK_IDENT && strlen(s) == t->len && memcmp(t->s, s, t->len) == 0;
}

int P_eat(Parser *P, TokKind k)
{
    if (!P_is(P, k)) return 0;
    if (k != TK_EOF) P->pos++;
    return 1;
}

int P_eat_ident(Parser *P, const char *s)
{
    if (!P_is_ident(P, s)) return 0;
    P->pos++;
    return 1;
}

/* Consumes keyword s or reports that it is missing. */
int P_expect_kw(Parser *P, const char *s)
{
    if (P_eat_ident(P, s)) return 1;
    Token *t = P_cur(P);
    P_error(P, DIAG_PARSE_EXPECTED, P_loc(P, t), "expected '%s', found '%.*s'", s, (int)(t->len > 40 ? 40 : t->len), t->s);
    return 0;
}

long P_error(Parser *P, DiagId id, SrcLoc loc, const char *fmt, ...)
{
    if (P->fatal || P->quiet) return -1;
    va_list ap;
    va_start(ap, fmt);
    long k = diag_addv(P->d, SEV_ERROR, id, loc, fmt, ap);
    va_end(ap);
    if (k < 0) {
        P->fatal = 1;
        diag_add(P->d, SEV_NOTE, DIAG_PARSE_TOO_MANY, loc, "too many errors; stopping here");
    }
    return k;
}

void P_tok_desc(const Token *t, char *buf, size_t n)
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
    P_tok_desc(P_cur(P), got, sizeof got);
    P_error(P, DIAG_PARSE_EXPECTED, P_loc(P, P_cur(P)), "expected %s, found %s", what, got);
    return 0;
}

const char *P_text(Parser *P, const Token *t) { return ctx_intern(P->ctx, t->s, t->len); }

int P_int_literal(Parser *P, const Token *t, int64_t *out)
{
    (void)P;
    const char *s = t->s, *e = t->s + t->len;
    int neg = 0;
    if (s < e && (*s == '-' || *s == '+')) neg = *s++ == '-';
    if (s == e) return 0;
    uint64_t v = 0;
    if (e - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        for (s += 2; s < e; s++) {
            unsigned d = *s >= '0' && *s <= '9' ? (unsigned)(*s - '0') : *s >= 'a' && *s <= 'f' ? (unsigned)(*s - 'a' + 10)
                       : *s >= 'A' && *s <= 'F' ? (unsigned)(*s - 'A' + 10) : 16u;
            if (d > 15 || v >> 60) return 0;
            v = v << 4 | d;
        }
    } else if (s[0] == '0' && e - s > 1) {
        for (s++; s < e; s++) {   /* a leading 0 is octal, as strtoull reads it */
            if (*s < '0' || *s > '7' || v >> 61) return 0;
            v = v << 3 | (uint64_t)(*s - '0');
        }
    } else {
        for (; s < e; s++) {
            if (*s < '0' || *s > '9') return 0;
            uint64_t d = (uint64_t)(*s - '0');
            if (v > (UINT64_MAX - d) / 10) return 0;
            v = v * 10 + d;
        }
    }
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 1;
}

/* ------------------------------------------------------------------ did you mean */

/* Edit distance of two short strings, counting a swap of two adjacent characters as one edit (vlsd for
   vlds), or a value above `cap` once it cannot stay within it. */
static unsigned edit_distance(const char *a, size_t na, const char *b, size_t nb, unsigned cap)
{
    enum { MAXW = 64 };
    if (na > MAXW || nb > MAXW) return cap + 1;
    if ((na > nb ? na - nb : nb - na) > cap) return cap + 1;
    unsigned prev2[MAXW + 1], prev[MAXW + 1], row[MAXW + 1];
    for (size_t j = 0; j <= nb; j++) prev[j] = (unsigned)j;
    for (size_t i = 1; i <= na; i++) {
        unsigned best = row[0] = (unsigned)i;
        for (size_t j = 1; j <= nb; j++) {
            unsigned c = prev[j - 1] + (a[i - 1] != b[j - 1]);
            if (prev[j] + 1 < c) c = prev[j] + 1;
            if (row[j - 1] + 1 < c) c = row[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < c) c = prev2[j - 2] + 1;
            row[j] = c;
            if (c < best) best = c;
        }
        if (best > cap) return cap + 1;
        memcpy(prev2, prev, (nb + 1) * sizeof *prev);
        memcpy(prev, row, (nb + 1) * sizeof *row);
    }
    return prev[nb];
}

static size_t common_prefix(const char *a, size_t na, const char *b)
{
    size_t k = 0;
    while (k < na && b[k] && a[k] == b[k]) k++;
    return k;
}

const char *P_suggest(const char *word, size_t n, const char *const *cands, size_t ncands)
{
    /* a third of the word may be wrong, at least one edit, at most four */
    unsigned cap = (unsigned)(n / 3);
    if (cap < 1) cap = 1;
    if (cap > 4) cap = 4;
    const char *best = NULL;
    unsigned bd = cap + 1;
    size_t bp = 0;
    for (size_t i = 0; i < ncands; i++) {
        if (!cands[i]) continue;
        size_t m = strlen(cands[i]);
        unsigned d = edit_distance(word, n, cands[i], m, cap);
        /* letter case alone counts as one edit (pipe_v for PIPE_V) */
        if (d > cap && m == n) {
            size_t k = 0;
            while (k < n && (word[k] | 0x20) == (cands[i][k] | 0x20)) k++;
            if (k == n) d = 1;
        }
        /* the word is the candidate without its prefix (MTE2 for PIPE_MTE2, vadd for pto.vadd) */
        if (d > cap && n >= 2 && m > n && !memcmp(cands[i] + m - n, word, n) && strchr("_.", cands[i][m - n - 1])) d = 1;
        /* equally close: the candidate sharing the longer prefix with the word (pto.vadd, not pto.vag, for pto.vad) */
        size_t p = common_prefix(word, n, cands[i]);
        if (d < bd || (d == bd && d <= cap && p > bp)) {
            bd = d;
            bp = p;
            best = cands[i];
        }
    }
    return best;
}

/* ------------------------------------------------------------------ SSA names and scope */

/* A word at a time: names are short, and hashing them is a good part of parsing. */
static inline uint32_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15u ^ n, w = 0;
    for (; n >= 8; s += 8, n -= 8) {
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDu;
        h ^= h >> 32;
    }
    w = 0;
    unsigned sh = 0;
    if (n & 4) { uint32_t x; memcpy(&x, s, 4); w = x; s += 4; sh = 32; }
    if (n & 2) { uint16_t x; memcpy(&x, s, 2); w |= (uint64_t)x << sh; s += 2; sh += 16; }
    if (n & 1) w |= (uint64_t)(unsigned char)*s << sh;
    h = (h ^ w) * 0xC4CEB9FE1A85EC53u;
    return (uint32_t)(h ^ h >> 29);
}

/* The NameEnt of %s[0, n), created when `create` (else -1 when the file never defined it). */
int32_t P_name_index(Parser *P, const char *s, uint32_t n, int create)
{
    if (P->nnames * 2 >= P->captab) {
        uint32_t cap = P->captab ? P->captab * 2 : 1024;
        int32_t *t = front_realloc(P->lx.oom, P->nametab, cap * sizeof *t);
        for (uint32_t i = 0; i < cap; i++) t[i] = -1;
        for (uint32_t i = 0; i < P->nnames; i++) {
            uint32_t j = P->names[i].hash & (cap - 1);
            while (t[j] >= 0) j = (j + 1) & (cap - 1);
            t[j] = (int32_t)i;
        }
        P->nametab = t;
        P->captab = cap;
    }
    uint32_t h = hash_bytes(s, n), j = h & (P->captab - 1);
    for (int32_t k; (k = P->nametab[j]) >= 0; j = (j + 1) & (P->captab - 1)) {
        const NameEnt *e = &P->names[k];
        if (e->hash == h && e->len == n && memcmp(e->name, s, n) == 0) return k;
    }
    if (!create) return -1;
    if (P->nnames == P->capnames) {
        P->capnames = P->capnames ? P->capnames * 2 : 512;
        P->names = front_realloc(P->lx.oom, P->names, P->capnames * sizeof *P->names);
    }
    P->names[P->nnames] = (NameEnt){ctx_intern(P->ctx, s, n), n, h, -1, 0};
    P->nametab[j] = (int32_t)P->nnames;
    return (int32_t)P->nnames++;
}

/* The visible binding of a name, or NULL. */
static ScopeEnt *scope_find(Parser *P, int32_t name)
{
    int32_t b = name >= 0 ? P->names[name].bind : -1;
    return b >= 0 && (size_t)b >= P->floor ? &P->scope[b] : NULL;
}

void P_scope_push(Parser *P) { P->depth++; }

void P_scope_pop(Parser *P)
{
    while (P->nscope > P->floor && P->scope[P->nscope - 1].depth == P->depth) {
        ScopeEnt *e = &P->scope[--P->nscope];
        P->names[e->name].bind = e->shadow;
    }
    P->depth--;
}

void P_scope_def(Parser *P, int32_t name, Value **vals, uint32_t n, SrcLoc loc)
{
    ScopeEnt *e = scope_find(P, name);
    const char *s = P->names[name].name;
    if (e && s[0] != '_') {
        long d = P_error(P, DIAG_PARSE_REDEF, loc, "redefinition of SSA value '%%%s'", s);
        if (e->vals && e->n) diag_note(P->d, d, e->vals[0]->loc, "previous definition is here");
    }
    if (P->nscope == P->capscope) {
        P->capscope = P->capscope ? P->capscope * 2 : 256;
        P->scope = front_realloc(P->lx.oom, P->scope, P->capscope * sizeof *P->scope);
    }
    int32_t prev = P->names[name].bind;
    P->names[name].bind = (int32_t)P->nscope;
    P->scope[P->nscope++] = (ScopeEnt){vals, n, P->depth, name, prev};
}

/* The NameEnt of a defining %name token, and its interned spelling. */
int32_t P_def_name(Parser *P, const Token *t) { return P_name_index(P, t->s, t->len, 1); }
const char *P_def_str(Parser *P, const Token *t)
{
    int32_t i = P_def_name(P, t);   /* may grow P->names: index it only afterwards */
    return P->names[i].name;
}

Value *P_new_value(Parser *P, Value *v, const Type *t, const char *name, SrcLoc loc)
{
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
    ScopeEnt *e = scope_find(P, P_name_index(P, t->s, nlen, 0));
    SrcLoc loc = P_loc(P, t);
    if (!e) {
        int32_t ni = P_name_index(P, t->s, nlen, 0);
        if (ni < 0 || !P->names[ni].of_unknown_op)   /* else reported once, as the unknown op that defines it */
            P_error(P, DIAG_PARSE_UNDEF, loc, "use of undefined value '%%%.*s'", (int)nlen, t->s);
        return NULL;
    }
    const char *name = P->names[e->name].name;
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

/* P_use that also reports where the operand is written. */
Value *P_use_at(Parser *P, SrcLoc *loc)
{
    *loc = P_loc(P, P_cur(P));
    return P_use(P);
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
    int fk = fk_lookup(b, n, 0);
    if (fk >= 0) return ty_float(T, (FloatKind)fk);
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

/* elem (',' space)? '>' — shared by !pto.ptr<...> and the short form <T, space>; without a space the pointer
   is in gm (the compiler's default memory space) */
static const Type *ptr_body(Parser *P, SrcLoc loc)
{
    const Type *e = P_parse_type(P);
    if (!e) return NULL;
    if (P_eat(P, TK_RANGLE)) return ty_ptr(P->ctx->types, e, AS_GM);
    if (!P_expect(P, TK_COMMA, "',' or '>' in pointer type")) return NULL;
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
static const Type *lanes_x_elem_max(Parser *P, const char *what, unsigned *lanes, int64_t max);
static const Type *lanes_x_elem(Parser *P, const char *what, unsigned *lanes)
{
    return lanes_x_elem_max(P, what, lanes, 4096);
}

static int vmi_layout(Parser *P, VmiLayout *l);
static const Type *lanes_x_elem_lay(Parser *P, const char *what, unsigned *lanes, int64_t max, VmiLayout *lay);
static const Type *lanes_x_elem_max(Parser *P, const char *what, unsigned *lanes, int64_t max)
{
    return lanes_x_elem_lay(P, what, lanes, max, NULL);
}

/* '<' N 'x' T (',' layout, when lay is given)? '>' */
static const Type *lanes_x_elem_lay(Parser *P, const char *what, unsigned *lanes, int64_t max, VmiLayout *lay)
{
    char msg[80];
    snprintf(msg, sizeof msg, "'<' after %s", what);
    if (!P_expect(P, TK_LANGLE, msg)) return NULL;
    Token *n = P_cur(P);
    int64_t k;
    snprintf(msg, sizeof msg, "expected a lane count in %s<NxT>", what);
    if (n->kind != TK_INT || !P_int_literal(P, n, &k) || k <= 0 || k > max) return bad_type(P, P_loc(P, n), msg);
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
    if (!e || (lay && !vmi_layout(P, lay)) || !P_expect(P, TK_RANGLE, "'>'")) return NULL;
    *lanes = (unsigned)k;
    return e;
}

/* '<' field (',' field)* '>' of !pto.struct: each field an 8/16/32/64-bit integer, f16/bf16/f32/f64 or a struct. */
static const Type *struct_type(Parser *P, SrcLoc loc)
{
    const Type *f[64];
    unsigned n = 0;
    int bad = 0;
    if (!P_expect(P, TK_LANGLE, "'<' after !pto.struct")) return NULL;
    if (P_is(P, TK_RANGLE)) {
        P_error(P, DIAG_V_STRUCT_FIELD, P_loc(P, P_cur(P)), "'!pto.struct' needs at least one field");
        return NULL;
    }
    do {
        SrcLoc fl = P_loc(P, P_cur(P));
        const Type *e = P_parse_type(P);
        if (!e) return NULL;
        if (!ty_struct_field_ok(e) && !bad) {
            char b[96];
            ty_format(e, b, sizeof b);
            P_error(P, DIAG_V_STRUCT_FIELD, fl, "'!pto.struct' field %u has type %s, which is not scalar-storable: a field "
                    "is an 8/16/32/64-bit integer (signless, signed or unsigned), f16, bf16, f32, f64 or a nested "
                    "!pto.struct", n, b);
            bad = 1;
        }
        if (n == 64) {
            P_error(P, DIAG_PARSE_LIMIT, fl, "a !pto.struct has at most 64 fields");
            return NULL;
        }
        f[n++] = e;
    } while (P_eat(P, TK_COMMA));
    if (!P_expect(P, TK_RANGLE, "'>' closing !pto.struct<...>") || bad) return NULL;
    const Type *t = ty_struct(P->ctx->types, f, n);
    if (!t) P_error(P, DIAG_PARSE_LIMIT, loc, "a !pto.struct has at most 4096 scalar fields in all");
    return t;
}

static const Alias *alias_find(Parser *P, int is_type, const char *s, uint32_t n);

/* An integer field of a layout: '=' INT, in [lo, 65535]. */
static int layout_int(Parser *P, const char *field, int64_t lo, uint16_t *out)
{
    if (!P_expect(P, TK_EQUAL, "'=' in #pto.vmi.layout<...>")) return 0;
    Token *n = P_cur(P);
    int64_t v;
    if (n->kind != TK_INT || !P_int_literal(P, n, &v) || v < lo || v > 65535) {
        P_error(P, DIAG_PARSE_ATTR, P_loc(P, n), "#pto.vmi.layout: %s must be an integer from %lld to 65535", field,
                (long long)lo);
        return 0;
    }
    P->pos++;
    *out = (uint16_t)v;
    return 1;
}

/* (',' '#pto.vmi.layout' '<' kind (= N)? (',' key = N)* '>')? after the element or granularity of a VMI type:
   kind contiguous | deinterleaved = 2|4 | block_deinterleaved = 2|4 | num_groups = N; keys lane_stride
   (contiguous, deinterleaved, num_groups) and slots (num_groups). The compiler's attribute rules. */
static int vmi_layout(Parser *P, VmiLayout *l)
{
    static const char *const kinds[] = {"contiguous", "deinterleaved", "block_deinterleaved", "num_groups"};
    l->kind = VL_NONE;
    l->factor = 1;
    l->slots = 0;
    l->stride = 1;
    if (!P_eat(P, TK_COMMA)) return 1;
    Token *h = P_cur(P);
    if (h->kind != TK_HASH || h->len != 14 || memcmp(h->s, "pto.vmi.layout", 14) != 0) {
        P_error(P, DIAG_PARSE_ATTR, P_loc(P, h), "expected #pto.vmi.layout<...> after ',' in a VMI type");
        return 0;
    }
    P->pos++;
    if (!P_expect(P, TK_LANGLE, "'<' after #pto.vmi.layout")) return 0;
    Token *k = P_cur(P);
    for (unsigned i = 0; i < 4 && k->kind == TK_IDENT; i++)
        if (k->len == strlen(kinds[i]) && memcmp(k->s, kinds[i], k->len) == 0) l->kind = (uint8_t)(VL_CONTIGUOUS + i);
    if (l->kind == VL_NONE) {
        P_error(P, DIAG_PARSE_ATTR, P_loc(P, k), "expected a VMI layout kind: contiguous, deinterleaved, "
                "block_deinterleaved or num_groups");
        return 0;
    }
    P->pos++;
    if (l->kind != VL_CONTIGUOUS) {
        Token *f = P_cur(P);
        if (!layout_int(P, "the factor", 1, &l->factor)) return 0;
        if ((l->kind == VL_DEINTERLEAVED || l->kind == VL_BLOCK_DEINTERLEAVED) && l->factor != 2 && l->factor != 4) {
            P_error(P, DIAG_PARSE_ATTR, P_loc(P, f), "#pto.vmi.layout<%s = %u>: the factor must be 2 or 4",
                    kinds[l->kind - 1], l->factor);
            return 0;
        }
    }
    while (P_eat(P, TK_COMMA)) {
        Token *key = P_cur(P);
        int stride = key->kind == TK_IDENT && key->len == 11 && memcmp(key->s, "lane_stride", 11) == 0;
        int slots = key->kind == TK_IDENT && key->len == 5 && memcmp(key->s, "slots", 5) == 0;
        if ((!stride && !slots) || (slots && l->kind != VL_NUM_GROUPS) || (stride && l->kind == VL_BLOCK_DEINTERLEAVED)) {
            P_error(P, DIAG_PARSE_ATTR, P_loc(P, key), "#pto.vmi.layout<%s>: expected %s", kinds[l->kind - 1],
                    l->kind == VL_NUM_GROUPS ? "'slots = N' or 'lane_stride = N'"
                    : l->kind == VL_BLOCK_DEINTERLEAVED ? "'>' (it takes no other field)" : "'lane_stride = N'");
            return 0;
        }
        P->pos++;
        if (!layout_int(P, stride ? "lane_stride" : "slots", 1, stride ? &l->stride : &l->slots)) return 0;
    }
    return P_expect(P, TK_RANGLE, "'>' closing #pto.vmi.layout<...>");
}

/* '<' L ('x' (pred | b8 | b16 | b32))? (',' layout)? '>' of !pto.vmi.mask. */
static const Type *vmi_mask_type(Parser *P)
{
    if (!P_expect(P, TK_LANGLE, "'<' after !pto.vmi.mask")) return NULL;
    Token *n = P_cur(P);
    int64_t k;
    if (n->kind != TK_INT || !P_int_literal(P, n, &k) || k <= 0 || k > VMI_MAX_LANES)
        return bad_type(P, P_loc(P, n), "expected a lane count (1 to 16384) in !pto.vmi.mask<LxG>");
    P->pos++;
    unsigned gran = 0;
    Token *g = P_cur(P);
    if (g->kind == TK_IDENT && g->s[0] == 'x') {
        const char *q = g->s + 1;
        unsigned len = g->len - 1;
        if (len == 4 && !memcmp(q, "pred", 4)) gran = 0;
        else if (len == 2 && !memcmp(q, "b8", 2)) gran = 1;
        else if (len == 3 && !memcmp(q, "b16", 3)) gran = 2;
        else if (len == 3 && !memcmp(q, "b32", 3)) gran = 4;
        else return bad_type(P, P_loc(P, g), "VMI mask granularity must be pred, b8, b16 or b32");
        P->pos++;
    }
    VmiLayout lay;
    if (!vmi_layout(P, &lay) || !P_expect(P, TK_RANGLE, "'>'")) return NULL;
    return ty_vmi_mask_l(P->ctx->types, (unsigned)k, gran, &lay);
}

/* ------------------------------------------------------------------ tile-layer types (docs/tile.md) */

/* The 'x'-joined words of a shape: the lexer reads "16x64xf32" as 16 and "x64xf32", "?x?xf16" as ?, "x", ?,
   "xf16", and "16x64x!pto.hif8" as 16, "x64x", !pto.hif8 (a "0x.." dimension lexes as a hex number, whose text
   is split here the same way). Reads dims (each '?' when allow_dyn, else a size) into d[0..max) and, when elem
   is non-NULL, the element type after them. Returns the number of dims, 0 after an error. */
static unsigned shape_dims(Parser *P, int64_t *d, unsigned max, int allow_dyn, const Type **elem, const char *what)
{
    unsigned n = 0;
    char msg[128];
    for (;;) {
        Token *t = P_cur(P);
        const char *w = NULL;
        unsigned wl = 0;
        if (t->kind == TK_QUESTION && allow_dyn) {
            if (n == max) goto too_many;
            d[n++] = TILE_DYN;
            P->pos++;
        } else if (t->kind == TK_INT && t->s[0] != '-') {
            if (n == max) goto too_many;
            if (t->len > 2 && t->s[0] == '0' && (t->s[1] == 'x' || t->s[1] == 'X')) {
                d[n++] = 0;              /* "0x16": a zero dimension, then the word "x16" */
                w = t->s + 1;
                wl = t->len - 1;
            } else if (!P_int_literal(P, t, &d[n]) || d[n] < 0) {
                snprintf(msg, sizeof msg, "dimension out of range in %s", what);
                bad_type(P, P_loc(P, t), msg);
                return 0;
            } else {
                n++;
            }
            P->pos++;
        } else {
            snprintf(msg, sizeof msg, "expected a dimension (%sa size) in %s", allow_dyn ? "'?' or " : "", what);
            bad_type(P, P_loc(P, t), msg);
            return 0;
        }
        if (!w) {
            Token *x = P_cur(P);
            if (x->kind != TK_IDENT || x->s[0] != 'x') {
                if (!elem) return n;
                snprintf(msg, sizeof msg, "expected 'x' and an element type in %s", what);
                bad_type(P, P_loc(P, x), msg);
                return 0;
            }
            w = x->s;
            wl = x->len;
            P->pos++;
        }
        /* w = "x" (dims)* ([element] | 'x' at its end) */
        unsigned k = 1;
        int ended_x = 1;
        while (k < wl) {
            unsigned j = k;
            while (j < wl && w[j] >= '0' && w[j] <= '9') j++;
            if (j == k) break;                    /* the element type starts here */
            if (n == max) goto too_many;
            int64_t v = 0;
            for (unsigned q = k; q < j; q++) v = v > (INT64_MAX - 9) / 10 ? INT64_MAX : v * 10 + (w[q] - '0');
            d[n++] = v;
            if (j == wl) { k = j; ended_x = 0; break; }
            if (w[j] != 'x') {
                snprintf(msg, sizeof msg, "malformed shape in %s", what);
                bad_type(P, P_loc(P, P_tok(P, P->pos - 1)), msg);
                return 0;
            }
            k = j + 1;
        }
        if (k < wl) {                             /* "...xf32": the element type ends the word */
            if (!elem) {
                snprintf(msg, sizeof msg, "unexpected element type in %s", what);
                bad_type(P, P_loc(P, P_tok(P, P->pos - 1)), msg);
                return 0;
            }
            *elem = builtin_type(P, w + k, wl - k);
            if (!*elem) {
                snprintf(msg, sizeof msg, "unknown element type in %s", what);
                bad_type(P, P_loc(P, P_tok(P, P->pos - 1)), msg);
                return 0;
            }
            return n;
        }
        if (!ended_x) {                           /* the word ended with a dimension */
            if (!elem) return n;
            snprintf(msg, sizeof msg, "expected 'x' and an element type in %s", what);
            bad_type(P, P_loc(P, P_cur(P)), msg);
            return 0;
        }
        /* the word ended with 'x': a dimension or, last, an element type follows */
        if (P_is(P, TK_INT) || P_is(P, TK_QUESTION)) continue;
        if (!elem) {
            snprintf(msg, sizeof msg, "expected a dimension in %s", what);
            bad_type(P, P_loc(P, P_cur(P)), msg);
            return 0;
        }
        *elem = P_parse_type(P);
        return *elem ? n : 0;
    }
too_many:
    snprintf(msg, sizeof msg, "too many dimensions in %s (at most %u)", what, max);
    bad_type(P, P_loc(P, P_cur(P)), msg);
    return 0;
}

/* '<' (('?' | size) 'x')+ elem '>' of !pto.tensor_view and !pto.partition_tensor_view (rank 1 to 5). */
static const Type *view_type(Parser *P, int part)
{
    const char *what = part ? "!pto.partition_tensor_view" : "!pto.tensor_view";
    char msg[64];
    snprintf(msg, sizeof msg, "'<' after %s", what);
    if (!P_expect(P, TK_LANGLE, msg)) return NULL;
    int64_t d[TILE_MAX_RANK];
    const Type *e = NULL;
    unsigned n = shape_dims(P, d, TILE_MAX_RANK, 1, &e, what);
    if (!n || !e || !P_expect(P, TK_RANGLE, "'>'")) return NULL;
    return ty_tensor_view(P->ctx->types, part, n, d, e);
}

static const Type *tile_err(Parser *P, const Token *t, const char *fmt, const char *a)
{
    P_error(P, DIAG_TILE_TYPE, P_loc(P, t), fmt, a);
    return NULL;
}

/* A keyword value (blayout=row_major, slayout="none_box", pad=zero): its index in names[], or -1 after an
   error. Integers select by number (pad=2). */
static int tile_enum(Parser *P, const char *key, const char *const *names, unsigned n)
{
    Token *t = P_cur(P);
    if (t->kind == TK_INT) {
        int64_t v;
        if (P_int_literal(P, t, &v) && v >= 0 && v < (int64_t)n) { P->pos++; return (int)v; }
    } else if (t->kind == TK_IDENT || t->kind == TK_STRING) {
        for (unsigned i = 0; i < n; i++)
            if (strlen(names[i]) == t->len && memcmp(names[i], t->s, t->len) == 0) { P->pos++; return (int)i; }
    }
    char list[128];
    size_t k = 0;
    for (unsigned i = 0; i < n; i++) k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", i ? ", " : "", names[i]);
    char tok[64];
    P_tok_desc(t, tok, sizeof tok);
    P_error(P, DIAG_TILE_TYPE, P_loc(P, t), "unknown %s %s in !pto.tile_buf (expected %s)", key, tok, list);
    return -1;
}

/* One valid dimension of the long form: '?', -1 (dynamic) or a size. */
static int tile_vdim(Parser *P, int64_t *v)
{
    Token *t = P_cur(P);
    if (t->kind == TK_QUESTION) { *v = TILE_DYN; P->pos++; return 1; }
    if (t->kind == TK_INT && P_int_literal(P, t, v) && *v >= -1) { if (*v < 0) *v = TILE_DYN; P->pos++; return 1; }
    tile_err(P, t, "%s must be '?', -1 or a size", "a valid dimension");
    return 0;
}

/* !pto.tile_buf in the compact form <loc, RxCxT (, key=value)*> or the long form <loc=L, dtype=T, rows=R,
   cols=C, v_row=.., v_col=.., blayout=.., slayout=.., fractal=.., pad=.. (, compact=..)>. Keys other than the
   location may come in any order; each at most once. Checked: positive shape, valid within it, fractal 32, 512
   or 1024 (E-TILE-TYPE at the offending token). */
static const Type *tile_buf_type(Parser *P, Token *name, int64_t *count)
{
    static const char *const bl[] = {"row_major", "col_major"}, *const sl[] = {"none_box", "row_major", "col_major"};
    static const char *const pads[] = {"null", "zero", "max", "min"}, *const cms[] = {"null", "normal", "row_plus_one"};
    if (!P_expect(P, TK_LANGLE, "'<' after !pto.tile_buf")) return NULL;
    Type k;
    memset(&k, 0, sizeof k);
    k.fractal = TILE_DEF_FRACTAL;
    int64_t vr = -2, vc = -2;
    unsigned seen = 0;
    Token *lt = P_cur(P), *validtok = lt, *fractok = NULL;
    int longform = lt->kind == TK_IDENT && lt->len == 3 && !memcmp(lt->s, "loc", 3) && P_at(P, 1)->kind == TK_EQUAL;
    if (longform) P->pos += 2;
    lt = P_cur(P);
    int as = lt->kind == TK_IDENT || lt->kind == TK_STRING ? tile_loc_lookup(lt->s, lt->len) : -1;
    if (as < 0) {
        char tok[64];
        P_tok_desc(lt, tok, sizeof tok);
        return tile_err(P, lt, "unknown tile location %s (expected vec, mat, left, right, acc, bias or scaling)", tok);
    }
    k.space = (uint8_t)as;
    P->pos++;
    if (!longform) {
        if (!P_expect(P, TK_COMMA, "',' after the tile location")) return NULL;
        Token *st = P_cur(P);
        int64_t d[2];
        const Type *e = NULL;
        unsigned n = shape_dims(P, d, 2, 0, &e, "!pto.tile_buf");
        if (!n || !e) return NULL;
        if (n != 2) return tile_err(P, st, "%s needs exactly two dimensions (rows x cols)", "!pto.tile_buf");
        k.dims[0] = d[0];
        k.dims[1] = d[1];
        k.elem = e;
        seen |= 1u << 0 | 1u << 1 | 1u << 2;
    }
    static const char *const keys[] = {"dtype", "rows", "cols", "valid", "v_row", "v_col", "blayout", "slayout",
                                       "fractal", "pad", "compact", "count"};
    while (P_eat(P, TK_COMMA)) {
        Token *kt = P_cur(P);
        int key = -1;
        if (kt->kind == TK_IDENT)
            for (unsigned i = 0; i < sizeof keys / sizeof keys[0]; i++)
                if (strlen(keys[i]) == kt->len && !memcmp(keys[i], kt->s, kt->len)) key = (int)i;
        if (key < 0 || (!longform && key <= 2) || (longform && key == 3) || (!longform && (key == 4 || key == 5)) ||
            (key == 11 && !count)) {
            char tok[64];
            P_tok_desc(kt, tok, sizeof tok);
            return tile_err(P, kt, "unknown key %s in !pto.tile_buf", tok);
        }
        if (seen & (1u << key)) return tile_err(P, kt, "'%s' is given twice in !pto.tile_buf", keys[key]);
        seen |= 1u << key;
        P->pos++;
        if (!P_expect(P, TK_EQUAL, "'=' after a !pto.tile_buf key")) return NULL;
        Token *vt = P_cur(P);
        int64_t v;
        int ev;
        switch (key) {
        case 0: if (!(k.elem = P_parse_type(P))) return NULL; break;
        case 1: case 2:
            if (vt->kind != TK_INT || !P_int_literal(P, vt, &v)) return tile_err(P, vt, "%s must be an integer", keys[key]);
            k.dims[key - 1] = v;
            P->pos++;
            break;
        case 3: {
            int64_t d[2];
            validtok = vt;
            unsigned n = shape_dims(P, d, 2, 1, NULL, "valid=");
            if (!n) return NULL;
            if (n != 2) return tile_err(P, vt, "%s needs exactly two dimensions (rows x cols)", "valid=");
            vr = d[0];
            vc = d[1];
            break;
        }
        case 4: validtok = vt; if (!tile_vdim(P, &vr)) return NULL; break;
        case 5: validtok = vt; if (!tile_vdim(P, &vc)) return NULL; break;
        case 6: if ((ev = tile_enum(P, "blayout", bl, 2)) < 0) return NULL; k.blayout = (uint8_t)ev; break;
        case 7: if ((ev = tile_enum(P, "slayout", sl, 3)) < 0) return NULL; k.slayout = (uint8_t)ev; break;
        case 8:
            fractok = vt;
            if (vt->kind != TK_INT || !P_int_literal(P, vt, &v)) return tile_err(P, vt, "%s must be an integer", "fractal");
            k.fractal = (uint16_t)(v >= 0 && v <= 65535 ? v : 0);
            P->pos++;
            break;
        case 9: if ((ev = tile_enum(P, "pad", pads, 4)) < 0) return NULL; k.pad = (uint8_t)ev; break;
        case 10: if ((ev = tile_enum(P, "compact", cms, 3)) < 0) return NULL; k.compact = (uint8_t)ev; break;
        default:   /* count, of a multi_tile_buf in the compact form */
            if (vt->kind != TK_INT || !P_int_literal(P, vt, count)) return tile_err(P, vt, "%s must be an integer", "count");
            P->pos++;
            break;
        }
    }
    if (!P_expect(P, TK_RANGLE, "'>' closing !pto.tile_buf")) return NULL;
    if (longform && (seen & 7u) != 7u)
        return tile_err(P, name, "%s needs dtype, rows and cols", "!pto.tile_buf<loc=...>");
    if (k.dims[0] <= 0 || k.dims[1] <= 0 || k.dims[0] > 1 << 20 || k.dims[1] > 1 << 20)
        return tile_err(P, name, "%s rows and cols must be positive (at most 1048576)", "!pto.tile_buf");
    k.dims[2] = vr == -2 ? k.dims[0] : vr;
    k.dims[3] = vc == -2 ? k.dims[1] : vc;
    char m[160];
    if (k.dims[2] > k.dims[0] || k.dims[3] > k.dims[1]) {
        snprintf(m, sizeof m, "the valid region %lldx%lld exceeds the tile's %lldx%lld", (long long)k.dims[2],
                 (long long)k.dims[3], (long long)k.dims[0], (long long)k.dims[1]);
        return tile_err(P, validtok, "%s", m);
    }
    if (k.fractal != 32 && k.fractal != 512 && k.fractal != 1024)
        return tile_err(P, fractok ? fractok : name, "%s must be 32, 512 or 1024", "fractal");
    if (k.elem && (k.elem->kind != TY_INT && k.elem->kind != TY_FLOAT))
        return tile_err(P, name, "%s element type must be an integer or float type", "!pto.tile_buf");
    return ty_tile_buf(P->ctx->types, &k);
}

/* !pto.local_array<D0x...xT>: static dims (rank 1..5, at most 4096 elements) of a scalar element type. */
static const Type *local_array_type(Parser *P, Token *name)
{
    int64_t d[TILE_MAX_RANK];
    const Type *e = NULL;
    if (!P_expect(P, TK_LANGLE, "'<' after !pto.local_array")) return NULL;
    unsigned n = shape_dims(P, d, TILE_MAX_RANK, 0, &e, "!pto.local_array");
    if (!n || !e || !P_expect(P, TK_RANGLE, "'>' closing !pto.local_array")) return NULL;
    uint64_t c = 1;
    for (unsigned i = 0; i < n; i++) c *= d[i] > 0 ? (uint64_t)d[i] : 0;
    if (c < 1 || c > 4096 || (e->kind != TY_INT && e->kind != TY_FLOAT && e->kind != TY_INDEX))
        return tile_err(P, name, "%s holds 1 to 4096 integer, index or float elements", "!pto.local_array");
    return ty_local_array(P->ctx->types, n, d, e);
}

/* !pto.multi_tile_buf<!pto.tile_buf<...>, count=N> or its compact form <loc, RxCxT (, key=value)*, count=N>: N slots
   of the tile (N >= 1 here; the verifier holds the compiler's N >= 2). */
static const Type *multi_tile_type(Parser *P, Token *name)
{
    int64_t count = -1;
    const Type *tile;
    Token *lt = P_at(P, 1);
    if (lt->kind == TK_BANG) {
        if (!P_expect(P, TK_LANGLE, "'<' after !pto.multi_tile_buf") || !(tile = P_parse_type(P))) return NULL;
        if (tile->kind != TY_TILE_BUF) return tile_err(P, name, "%s holds a !pto.tile_buf", "!pto.multi_tile_buf");
        if (!P_expect(P, TK_COMMA, "', count=N'") || !P_expect_kw(P, "count") || !P_expect(P, TK_EQUAL, "'='"))
            return NULL;
        Token *ct = P_cur(P);
        if (ct->kind != TK_INT || !P_int_literal(P, ct, &count)) return tile_err(P, ct, "%s must be an integer", "count");
        P->pos++;
        if (!P_expect(P, TK_RANGLE, "'>' closing !pto.multi_tile_buf")) return NULL;
    } else if (!(tile = tile_buf_type(P, name, &count))) {
        return NULL;
    }
    if (count < 1 || count > 1024) return tile_err(P, name, "%s needs count=N with 1 <= N <= 1024", "!pto.multi_tile_buf");
    return ty_multi_tile(P->ctx->types, tile, count);
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
    if (IS("pto.tensor_view")) return view_type(P, 0);
    if (IS("pto.partition_tensor_view")) return view_type(P, 1);
    if (IS("pto.tile_buf")) return tile_buf_type(P, t, NULL);
    if (IS("pto.multi_tile_buf")) return multi_tile_type(P, t);
    if (IS("pto.local_array")) return local_array_type(P, t);
    if (IS("pto.eventid_array")) {   /* !pto.eventid_array<N>: N event ids (index values), 1..4096 */
        int64_t k = 0;
        if (!P_expect(P, TK_LANGLE, "'<' after !pto.eventid_array")) return NULL;
        Token *nt = P_cur(P);
        if (nt->kind != TK_INT || !P_int_literal(P, nt, &k) || k < 1 || k > 4096)
            return tile_err(P, nt, "%s holds 1 to 4096 event ids", "!pto.eventid_array");
        P->pos++;
        if (!P_expect(P, TK_RANGLE, "'>' closing !pto.eventid_array")) return NULL;
        return ty_eventid_array(P->ctx->types, k);
    }
    if (IS("pto.vmi.vreg")) {
        unsigned lanes;
        VmiLayout lay;
        const Type *e = lanes_x_elem_lay(P, "!pto.vmi.vreg", &lanes, VMI_MAX_LANES, &lay);
        return e ? ty_vmi_vreg_l(T, lanes, e, &lay) : NULL;
    }
    if (IS("pto.vmi.mask")) return vmi_mask_type(P);
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
    if (IS("pto.struct")) return struct_type(P, loc);
    if (IS("pto.align")) return ty_align(T);
    if (IS("pto.async_session")) return ty_handle(T, HK_ASYNC_SESSION);
    if (IS("pto.async_event")) return ty_handle(T, HK_ASYNC_EVENT);
    if (IS("pto.prefetch_async_context")) return ty_handle(T, HK_PREFETCH_CTX);
    if (IS("pto.pipe")) return ty_handle(T, HK_PIPE);
#undef IS
    int fk = fk_lookup(t->s, t->len, 1);
    if (fk >= 0) return ty_float(T, (FloatKind)fk);
    const Alias *al = alias_find(P, 1, t->s, t->len);
    if (al) return al->ty;
    P_error(P, DIAG_PARSE_TYPE, loc, "unknown dialect type or undefined type alias '!%.*s'", (int)t->len, t->s);
    return NULL;
}

/* ------------------------------------------------------------------ aliases and locations */

static uint32_t alias_hash(int is_type, const char *s, uint32_t n)
{
    uint32_t h = 2166136261u ^ (uint32_t)is_type;   /* FNV-1a */
    for (uint32_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* Aliases by name: a chained hash over P->aliases (bucket heads in P->alias_heads), so a file of many aliases
   parses in linear time. */
static const Alias *alias_find(Parser *P, int is_type, const char *s, uint32_t n)
{
    if (!P->alias_mask) return NULL;
    uint32_t h = alias_hash(is_type, s, n);
    for (int32_t i = P->alias_heads[h & P->alias_mask]; i >= 0; i = P->aliases[i].next) {
        const Alias *a = &P->aliases[i];
        if (a->hash == h && a->is_type == is_type && a->len == n && memcmp(a->s, s, n) == 0) return a;
    }
    return NULL;
}

static void alias_add(Parser *P, Alias a)
{
    if (P->naliases == P->capaliases) {
        uint32_t cap = P->capaliases ? 2 * P->capaliases : 8;
        P->aliases = front_realloc(P->lx.oom, P->aliases, cap * sizeof *P->aliases);
        P->capaliases = cap;
        /* the bucket heads grow with the table: at most one alias per bucket on average */
        P->alias_heads = front_realloc(P->lx.oom, P->alias_heads, cap * sizeof *P->alias_heads);
        P->alias_mask = cap - 1;
        for (uint32_t i = 0; i < cap; i++) P->alias_heads[i] = -1;
        for (uint32_t i = P->naliases; i-- > 0;) {
            uint32_t b = P->aliases[i].hash & P->alias_mask;
            P->aliases[i].next = P->alias_heads[b];
            P->alias_heads[b] = (int32_t)i;
        }
    }
    a.hash = alias_hash(a.is_type, a.s, a.len);
    uint32_t b = a.hash & P->alias_mask;
    a.next = P->alias_heads[b];
    P->aliases[P->naliases] = a;
    P->alias_heads[b] = (int32_t)P->naliases++;
}

int P_at_loc(Parser *P) { return P_is_ident(P, "loc") && P_at(P, 1)->kind == TK_LPAREN; }

int P_skip_loc(Parser *P)
{
    if (!P_at_loc(P)) return 0;
    P->pos++;
    P_skip_balanced(P);
    return 1;
}

int P_at_alias_def(Parser *P)
{
    TokKind k = P_cur(P)->kind;
    return (k == TK_BANG || k == TK_HASH) && P_at(P, 1)->kind == TK_EQUAL;
}

/* `!name = type` | `#name = attribute` | `#name = loc(...)`. Names are MLIR's: no '.' (that would be a
   dialect's namespace); each is defined once. A type alias must be defined before its first use. */
void P_parse_alias_def(Parser *P)
{
    Token *t = P_cur(P);
    int is_type = t->kind == TK_BANG;
    SrcLoc loc = P_loc(P, t);
    P->pos += 2;
    if (memchr(t->s, '.', t->len)) {
        P_error(P, DIAG_PARSE_EXPECTED, loc, "an alias name may not contain '.' (it would name a dialect)");
    } else if (alias_find(P, is_type, t->s, t->len)) {
        P_error(P, DIAG_PARSE_EXPECTED, loc, "alias '%c%.*s' is defined twice", is_type ? '!' : '#', (int)t->len, t->s);
    }
    if (!is_type && P_skip_loc(P)) return;
    Alias a;
    memset(&a, 0, sizeof a);
    a.s = t->s;
    a.len = (uint32_t)t->len;
    a.is_type = (uint8_t)is_type;
    if (is_type) {
        a.ty = P_parse_type(P);
        if (!a.ty) return;
    } else {
        a.attr = P_parse_attr_value(P, NULL);
    }
    alias_add(P, a);
}

/* ------------------------------------------------------------------ token and type tables */

void P_sym_init(jmp_buf *oom, SymTab *t, uint32_t n)
{
    t->cap = 64;
    while (t->cap < 2 * n) t->cap *= 2;
    t->s = front_realloc(oom, NULL, t->cap * sizeof *t->s);
    for (uint32_t i = 0; i < t->cap; i++) t->s[i].name = NULL;
}

static uint32_t sym_hash(const char *s, uint32_t n, int32_t key) { return hash_bytes(s, n) ^ (uint32_t)key * 0x9E3779B9u; }

int32_t P_sym_find(const SymTab *t, const char *s, uint32_t n, int32_t key)
{
    for (uint32_t j = sym_hash(s, n, key) & (t->cap - 1); t->s[j].name; j = (j + 1) & (t->cap - 1))
        if (t->s[j].key == key && t->s[j].len == n && memcmp(t->s[j].name, s, n) == 0) return t->s[j].val;
    return -1;
}

void P_sym_add(SymTab *t, const char *name, int32_t key, int32_t val)
{
    uint32_t n = (uint32_t)strlen(name);
    if (P_sym_find(t, name, n, key) >= 0) return;
    uint32_t j = sym_hash(name, n, key) & (t->cap - 1);
    while (t->s[j].name) j = (j + 1) & (t->cap - 1);
    t->s[j] = (Sym){name, n, key, val};
}

int P_tok_lookup(Parser *P, int set, const char *s, uint32_t n)
{
    if (!P->toks.s) {
        int aset;
        const char *spell;
        unsigned nal = 0;
        while (tok_alias(nal, &aset, &spell) >= 0) nal++;
        P_sym_init(P->lx.oom, &P->toks, T__COUNT + nal);
        for (int i = 0; i < T__COUNT; i++) P_sym_add(&P->toks, tok_spelling(i), tok_set(i), i);
        for (unsigned i = 0; i < nal; i++) {
            int tok = tok_alias(i, &aset, &spell);
            P_sym_add(&P->toks, spell, aset, tok);
        }
    }
    return P_sym_find(&P->toks, s, n, set);
}

/* The source text a type starting at token t spans, when it can be known from the bytes alone: an
   identifier, or a !dialect.type with its <...> group. 0 when the type spans lines, comments or strings. */
static size_t type_span(const Token *t, const char *end)
{
    if (t->kind == TK_IDENT) return t->len;
    if (t->kind != TK_BANG) return 0;
    const char *s = t->s - 1, *p = t->s + t->len;
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    if (p >= end || *p != '<') return (size_t)(t->s + t->len - s);
    int depth = 0;
    for (; p < end && p - s < 160; p++) {
        if (*p == '\n' || *p == '/' || *p == '"') return 0;
        if (*p == '<') depth++;
        else if (*p == '>' && --depth == 0) return (size_t)(p + 1 - s);
    }
    return 0;
}

static const Type *parse_type_uncached(Parser *P);

/* Types are parsed once per spelling: later occurrences of the same text take the cached type and skip its
   tokens. Only spellings parsed without an error and consuming exactly their span are cached, so a hit
   yields what parsing would. */
static const Type *parse_type_cached(Parser *P);

/* Types nest at most P_MAX_TYPE_DEPTH deep (docs/semantics.md "Nesting limits"): deeper input is a located
   E-NEST-DEPTH error, and every recursive consumer of types (printer, verifier, interning) is bounded by it. */
const Type *P_parse_type(Parser *P)
{
    if (P->tdepth >= P_MAX_TYPE_DEPTH) {
        P_error(P, DIAG_NEST_DEPTH, P_loc(P, P_cur(P)), "types nested deeper than %d", P_MAX_TYPE_DEPTH);
        P->fatal = 1;
        return NULL;
    }
    P->tdepth++;
    const Type *ty = parse_type_cached(P);
    P->tdepth--;
    return ty;
}

static const Type *parse_type_cached(Parser *P)
{
    Token *t = P_cur(P);
    const char *s = t->kind == TK_BANG ? t->s - 1 : t->s;
    size_t n = type_span(t, P->lx.end);
    if (!n) return parse_type_uncached(P);
    uint32_t h = hash_bytes(s, n), mask = P->captys - 1;
    if (P->captys)
        for (uint32_t j = h & mask; P->tys[j].s; j = (j + 1) & mask)
            if (P->tys[j].hash == h && P->tys[j].len == n && memcmp(P->tys[j].s, s, n) == 0) {
                while (P_cur(P)->s < s + n) P->pos++;
                return P->tys[j].t;
            }
    size_t errs = P->d->n;
    const Type *ty = parse_type_uncached(P);
    const Token *last = P_tok(P, P->pos - 1);
    if (!ty || P->quiet || P->d->n != errs || last->s + last->len != s + n) return ty;
    if (2 * (P->ntys + 1) > P->captys) {
        uint32_t cap = P->captys ? P->captys * 2 : 256;
        TypeName *x = front_realloc(P->lx.oom, NULL, cap * sizeof *x);
        for (uint32_t i = 0; i < cap; i++) x[i].s = NULL;
        for (uint32_t i = 0; i < P->captys; i++)
            if (P->tys[i].s) {
                uint32_t j = P->tys[i].hash & (cap - 1);
                while (x[j].s) j = (j + 1) & (cap - 1);
                x[j] = P->tys[i];
            }
        mem_free(P->tys);
        P->tys = x;
        P->captys = cap;
    }
    uint32_t j = h & (P->captys - 1);
    while (P->tys[j].s) j = (j + 1) & (P->captys - 1);
    P->tys[j] = (TypeName){s, (uint32_t)n, h, ty};
    P->ntys++;
    return ty;
}

/* memref '<' (('?' | INT) 'x')+ elem (',' '#pto.address_space' '<' space '>')? '>': the compiler's buffer-like
   spelling of a pointer operand; it denotes the pointer to the buffer's first element (!pto.ptr<elem, space>,
   gm when no space is written). `memref` is the current token. */
/* A memref dimension's digits; -2 when they do not fit in an int64. */
static int64_t memref_dim(const char *s, size_t n)
{
    int64_t v = 0;
    for (size_t i = 0; i < n && isdigit((unsigned char)s[i]); i++) {
        if (v > (INT64_MAX - (s[i] - '0')) / 10) return -2;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

/* Appends dimension v (memref_dim's -2: too large) to dims[0..*rank); 0, or -1 after an E-PARSE-TYPE at `at`. */
static int memref_add_dim(Parser *P, SrcLoc at, int64_t *dims, unsigned *rank, int64_t v)
{
    if (*rank == TILE_MAX_RANK) {
        bad_type(P, at, "a memref has at most 5 dimensions here");
        return -1;
    }
    if (v == -2) {
        bad_type(P, at, "a memref dimension too large for 64 bits");
        return -1;
    }
    dims[(*rank)++] = v;
    return 0;
}

static const Type *memref_type(Parser *P, SrcLoc loc)
{
    P->pos++;
    if (!P_expect(P, TK_LANGLE, "'<' after memref")) return NULL;
    const Type *e = NULL;
    int64_t dims[TILE_MAX_RANK];
    unsigned rank = 0;
    for (;;) {
        Token *d = P_cur(P);
        if (d->kind != TK_QUESTION && d->kind != TK_INT) return bad_type(P, P_loc(P, d), "expected a dimension ('?' or a size) in memref<...>");
        /* a zero dimension lexes with what follows as a hex number ("0xf32"; "0x4" then "xf16"): 0, then the word
           "x..." its text continues with (joined with the next word when it ends in a digit) */
        int hex0 = d->kind == TK_INT && d->len > 2 && d->s[0] == '0' && (d->s[1] == 'x' || d->s[1] == 'X');
        if (memref_add_dim(P, P_loc(P, d), dims, &rank,
                           d->kind == TK_QUESTION ? TILE_DYN : hex0 ? 0 : memref_dim(d->s, d->len)))
            return NULL;
        P->pos++;
        /* the lexer joins "x4x8xf16" into one word: x, then sizes each followed by x, then the element type */
        Token *x = hex0 ? d : P_cur(P);
        char joined[128];
        const char *xs = x->s;
        size_t xl = x->len;
        if (hex0) {
            Token *y = P_cur(P);
            int more = isdigit((unsigned char)d->s[d->len - 1]) && y->kind == TK_IDENT && y->s[0] == 'x';
            if (d->len - 1 + (more ? y->len : 0) >= sizeof joined) return bad_type(P, P_loc(P, d), "a memref shape too long");
            memcpy(joined, d->s + 1, d->len - 1);
            if (more) memcpy(joined + d->len - 1, y->s, y->len);
            xs = joined;
            xl = d->len - 1 + (more ? y->len : 0);
            if (more) P->pos++;
        } else {
            if (x->kind != TK_IDENT || x->s[0] != 'x') return bad_type(P, P_loc(P, x), "expected 'x' after a memref dimension");
            P->pos++;
        }
        unsigned k = 1;
        for (;;) {
            unsigned j = k;
            while (j < xl && isdigit((unsigned char)xs[j])) j++;
            if (j == k || j >= xl || xs[j] != 'x') break;
            if (memref_add_dim(P, P_loc(P, x), dims, &rank, memref_dim(xs + k, j - k))) return NULL;
            k = j + 1;
        }
        if (k < xl) {      /* "xf16": the element type ends the word */
            e = builtin_type(P, xs + k, (unsigned)(xl - k));
            if (!e) return bad_type(P, P_loc(P, x), "unknown memref element type");
            break;
        }
        if (!P_is(P, TK_QUESTION) && !P_is(P, TK_INT)) {   /* "x !pto.hif8" */
            e = P_parse_type(P);
            if (!e) return NULL;
            break;
        }
    }
    AddrSpace as = AS_GM;
    int written = 0;
    if (P_eat(P, TK_COMMA)) {
        written = 1;
        Token *h = P_cur(P);
        if (h->kind != TK_HASH || h->len != 17 || memcmp(h->s, "pto.address_space", 17) != 0)
            return bad_type(P, P_loc(P, h), "expected #pto.address_space<...> in memref<...>");
        P->pos++;
        if (!P_expect(P, TK_LANGLE, "'<'")) return NULL;
        Token *sp = P_cur(P);
        int a = sp->kind == TK_IDENT ? as_lookup(sp->s, sp->len) : -1;
        if (a < 0) return bad_type(P, P_loc(P, sp), "unknown address space (expected gm, ub, l1, l0a, l0b, l0c, bt, fb or an alias)");
        P->pos++;
        if (!P_expect(P, TK_RANGLE, "'>'")) return NULL;
        as = (AddrSpace)a;
    }
    if (!P_expect(P, TK_RANGLE, "'>' closing memref<...>")) return NULL;
    (void)loc;
    return ty_memref(P->ctx->types, e, as, written, rank, dims);
}

static const Type *parse_type_uncached(Parser *P)
{
    Token *t = P_cur(P);
    SrcLoc loc = P_loc(P, t);
    /* <loc=..., ...>: a !pto.tile_buf written without its prefix, as the compiler prints the tile types of an op
       whose format does not qualify them (PTOAS sample MatMul/tmatmulk.pto, tmatmul.bias) */
    if (t->kind == TK_LANGLE && P_at(P, 1)->kind == TK_IDENT && P_at(P, 1)->len == 3 && !memcmp(P_at(P, 1)->s, "loc", 3))
        return tile_buf_type(P, t, NULL);
    if (t->kind == TK_IDENT && P_is_ident(P, "vector") && P_at(P, 1)->kind == TK_LANGLE) {   /* packed SIMT value */
        P->pos++;
        unsigned lanes;
        const Type *e = lanes_x_elem(P, "vector", &lanes);
        return e ? ty_vec(P->ctx->types, lanes, e, false) : NULL;
    }
    if (t->kind == TK_IDENT && t->len == 6 && memcmp(t->s, "memref", 6) == 0 && P_at(P, 1)->kind == TK_LANGLE)
        return memref_type(P, loc);
    if (t->kind == TK_IDENT) {
        const Type *ty = builtin_type(P, t->s, t->len);
        if (!ty) {
            /* the C spellings users reach for first */
            static const struct { const char *c, *mlir; } cnames[] = {
                {"float", "f32"}, {"half", "f16"}, {"double", "f64"}, {"bfloat16", "bf16"}, {"int", "i32"},
                {"short", "i16"}, {"char", "i8"}, {"long", "i64"}, {"bool", "i1"}, {"float32", "f32"},
                {"float16", "f16"}, {"int32", "i32"}, {"int16", "i16"}, {"int8", "i8"}, {"uint8", "ui8"},
                {"uint16", "ui16"}, {"uint32", "ui32"}, {"int64", "i64"}, {"size_t", "index"},
            };
            for (unsigned i = 0; i < sizeof cnames / sizeof cnames[0]; i++)
                if (strlen(cnames[i].c) == t->len && memcmp(cnames[i].c, t->s, t->len) == 0) {
                    P_error(P, DIAG_PARSE_TYPE, loc, "unknown type '%s'; did you mean '%s'?", cnames[i].c, cnames[i].mlir);
                    return NULL;
                }
            P_error(P, DIAG_PARSE_TYPE, loc, "unknown type '%.*s'", (int)t->len, t->s);
            return NULL;
        }
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
        int over = 0;
        if (!P_is(P, TK_RPAREN)) {
            do {
                SrcLoc el = P_loc(P, P_cur(P));
                const Type *e = P_parse_type(P);
                if (!e) return NULL;
                if (P_list_room(P, nin, 64, el, "input types in a function type", &over)) in[nin++] = e;
            } while (P_eat(P, TK_COMMA));
        }
        if (!P_expect(P, TK_RPAREN, "')'")) return NULL;
        if (!P_expect(P, TK_ARROW, "'->' in function type")) return NULL;
        if (P_eat(P, TK_LPAREN)) {
            if (!P_is(P, TK_RPAREN)) {
                over = 0;
                do {
                    SrcLoc el = P_loc(P, P_cur(P));
                    const Type *e = P_parse_type(P);
                    if (!e) return NULL;
                    if (P_list_room(P, nout, 64, el, "result types in a function type", &over)) out[nout++] = e;
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
    P_tok_desc(t, got, sizeof got);
    P_error(P, DIAG_PARSE_TYPE, loc, "expected a type, found %s", got);
    return NULL;
}

/* ------------------------------------------------------------------ attributes */

int P_list_room(Parser *P, uint32_t n, uint32_t cap, SrcLoc loc, const char *what, int *over)
{
    if (n < cap) return 1;
    if (!(*over)++) P_error(P, DIAG_PARSE_LIMIT, loc, "more than %u %s", cap, what);
    return 0;
}

/* Skips a balanced <...>, (...), [...] or {...} group starting at the current opener. Brackets must match
   by kind; a closer of the wrong kind, or an opener still open at the end of the file, is an error. */
void P_skip_balanced(Parser *P)
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
                P_error(P, DIAG_NEST_DEPTH, P_loc(P, t), "brackets nested deeper than %d", (int)(sizeof want / sizeof want[0]));
                P->fatal = 1;
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
const char *P_span_text(Parser *P, size_t from, size_t to)
{
    if (to <= from) return ctx_intern(P->ctx, "", 0);
    const char *s = tok_begin(P_tok(P, from)), *end = tok_end(P_tok(P, to - 1));
    size_t n = (size_t)(end - s);
    int comment = 0;
    for (size_t i = from; i + 1 < to && !comment; i++) {
        const char *a = tok_end(P_tok(P, i)), *b = tok_begin(P_tok(P, i + 1));
        for (const char *q = a; q + 1 < b; q++) comment |= q[0] == '/' && q[1] == '/';
    }
    if (!comment) return ctx_intern(P->ctx, s, n);
    char *buf = mem_alloc(n + 1);
    if (!buf) return ctx_intern(P->ctx, s, n);
    size_t k = 0;
    for (size_t i = from; i < to; i++) {
        const char *b = tok_begin(P_tok(P, i)), *e = tok_end(P_tok(P, i));
        if (i > from && b != tok_end(P_tok(P, i - 1))) buf[k++] = ' ';
        memcpy(buf + k, b, (size_t)(e - b));
        k += (size_t)(e - b);
    }
    const char *r = ctx_intern(P->ctx, buf, k);
    mem_free(buf);
    return r;
}

/* An integer literal typed by a float type: a decimal one is the value (kept as its text, so it is rounded
   once like `15360.0`), a hexadecimal one the value's bit pattern (MLIR's spelling of NaN payloads and
   infinities: `0x7FC00000 : f32`). A signed hex literal or one with more bits than the type holds would
   be read as something other than what it looks like: each is an error. */
void P_float_int_literal(Parser *P, const Token *t, Attr *a)
{
    const char *s = t->s;
    unsigned bits = ty_bits(a->ty);
    int sign = s[0] == '-' || s[0] == '+';
    if (!(t->len > 2 + (unsigned)sign && s[sign] == '0' && (s[sign + 1] == 'x' || s[sign + 1] == 'X'))) {
        a->kind = AT_FLOAT;
        a->s = P_text(P, t);
        a->f = (double)a->i;
    } else if (sign) {
        P_error(P, DIAG_PARSE_ATTR, a->loc, "a hexadecimal float literal is a bit pattern and takes no sign");
    } else if (bits < 64 && (uint64_t)a->i >> bits) {
        P_error(P, DIAG_PARSE_ATTR, a->loc, "hexadecimal float literal %.*s has more than the %u bits of its type",
                (int)t->len, s, bits);
    }
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
            if (a.ty && a.ty->kind == TY_FLOAT) P_float_int_literal(P, t, &a);
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
        if ((P_is_ident(P, "dense") || P_is_ident(P, "dense_resource")) && P_at(P, 1)->kind == TK_LANGLE) {
            /* dense<[...]> : tensor<NxT>, kept verbatim (the consumer re-reads the elements) */
            P->pos++;
            P_skip_balanced(P);
            if (P_eat(P, TK_COLON)) {
                if ((P_is_ident(P, "tensor") || P_is_ident(P, "vector")) && P_at(P, 1)->kind == TK_LANGLE) {
                    P->pos++;
                    P_skip_balanced(P);
                } else {
                    a.ty = P_parse_type(P);
                }
            }
            a.kind = AT_RAW;
            a.s = P_span_text(P, start, P->pos);
            return a;
        }
        if (P_is_ident(P, "array")) {      /* array<i32: 1, 2, 3> */
            P->pos++;
            if (P_eat(P, TK_LANGLE)) {
                int64_t vals[256];
                uint32_t n = 0;
                int over = 0;
                if (P_is(P, TK_IDENT)) P->pos++;
                if (P_eat(P, TK_COLON)) {
                    do {
                        int64_t v;
                        if (!P_is(P, TK_INT) || !P_int_literal(P, P_cur(P), &v)) break;
                        if (P_list_room(P, n, 256, P_loc(P, P_cur(P)), "values in an array<...> attribute", &over))
                            vals[n++] = v;
                        P->pos++;
                    } while (P_eat(P, TK_COMMA));
                }
                P_expect(P, TK_RANGLE, "'>'");
                a.kind = AT_INTS;
                a.ints = arena_dup(&P->m->arena, vals, sizeof(int64_t) * n);
                a.nints = n;
                a.s = P_span_text(P, start, P->pos);
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
    case TK_HASH: {
        const Alias *al = alias_find(P, 0, t->s, t->len);
        if (al) {   /* #name of an attribute alias: its value */
            P->pos++;
            Attr v = al->attr;
            v.name = name;
            v.loc = a.loc;
            return v;
        }
        /* #dialect.name<VALUE> — keep the inner identifier as the token text, the whole as raw */
        P->pos++;
        if (P_is(P, TK_LANGLE) && P_at(P, 1)->kind == TK_IDENT && P_at(P, 2)->kind == TK_IDENT &&
            P_at(P, 3)->kind == TK_RANGLE) {
            /* #pto<set value>: an MLIR enum attribute, the value is the token */
            a.kind = AT_TOKEN;
            a.i = -1;
            a.s = P_text(P, P_at(P, 2));
            P->pos += 4;
            a.raw = P_span_text(P, start, P->pos);
            return a;
        }
        if (P_is(P, TK_LANGLE)) {
            Token *inner = P_at(P, 1);
            if (inner->kind == TK_IDENT && P_at(P, 2)->kind == TK_RANGLE) {
                a.kind = AT_TOKEN;
                a.i = -1;
                a.s = P_text(P, inner);
                P->pos += 3;
                a.raw = P_span_text(P, start, P->pos);
                return a;
            }
            P_skip_balanced(P);
        }
        a.kind = AT_RAW;
        a.s = P_span_text(P, start, P->pos);
        return a;
    }
    case TK_LANGLE:
        /* <IDENT> shorthand token */
        if (P_at(P, 1)->kind == TK_IDENT && P_at(P, 2)->kind == TK_RANGLE) {
            a.kind = AT_TOKEN;
            a.i = -1;
            a.s = P_text(P, P_at(P, 1));
            P->pos += 3;
            a.raw = P_span_text(P, start, P->pos);
            return a;
        }
        break;
    case TK_LBRACK: case TK_LBRACE: case TK_LPAREN:
        P_skip_balanced(P);
        a.kind = AT_RAW;
        a.s = P_span_text(P, start, P->pos);
        return a;
    default:
        break;
    }
    char got[64];
    P_tok_desc(t, got, sizeof got);
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
    op->kind = (uint16_t)kind;
    op->loc = loc;
    op->id = P->m->nops++;
    return op;
}

/* The result pointers and the values themselves in one allocation. */
void P_set_results(Parser *P, Op *op, const Type *const *types, uint32_t n)
{
    if (!n) {   /* most ops: one shared array instead of 16 bytes each */
        op->results = P->noresults;
        op->nresults = 0;
        return;
    }
    size_t head = ((size_t)n * sizeof(Value *) + 15) & ~(size_t)15;
    char *mem = arena_alloc(&P->m->arena, head + (size_t)n * sizeof(Value));
    op->results = (Value **)(void *)mem;
    op->nresults = n;
    Value *vals = (Value *)(void *)(mem + head);
    for (uint32_t i = 0; i < n; i++) {
        op->results[i] = P_new_value(P, &vals[i], types[i], NULL, op->loc);
        op->results[i]->def = op;
        op->results[i]->index = (uint16_t)i;
    }
}

void P_set_operands(Parser *P, Op *op, Value *const *v, const SrcLoc *locs, uint32_t n)
{
    size_t bytes = (size_t)n * sizeof(Value *);
    char *mem = arena_alloc(&P->m->arena, bytes + (locs ? (size_t)n * sizeof(uint32_t) : 0));
    op->operands = (Value **)(void *)mem;
    if (n) memcpy(op->operands, v, bytes);
    op->noperands = n;
    op->flags &= (uint8_t)~OPF_OPLOC;
    if (locs && n) {
        uint32_t *oploc = (uint32_t *)(void *)(mem + bytes);
        op->flags |= OPF_OPLOC;
        for (uint32_t i = 0; i < n; i++) oploc[i] = op_pack_loc(op->loc, locs[i]);
    }
}
