/* lex.c — converts .pto text into a token array. The grammar is MLIR's generic lexical structure:
 * %ssa, ^block, @symbol, !type, #attr, identifiers with dots, numbers, strings, punctuation. */
#include "lex.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const char *tok_kind_name(TokKind k)
{
    static const char *const names[] = {
        "end of file", "identifier", "SSA value", "block label", "symbol", "type", "attribute",
        "integer", "float", "string", "'('", "')'", "'['", "']'", "'{'", "'}'", "'<'", "'>'",
        "','", "':'", "'='", "'->'", "'*'", "'?'", "'+'", "'-'", "'.'",
    };
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

static int is_id0(int c) { return isalpha(c) || c == '_'; }
static int is_id(int c) { return isalnum(c) || c == '_' || c == '.' || c == '$'; }

typedef struct Lexer {
    const char *file, *p, *end, *line_start;
    uint32_t line;
    int nl;
    DiagList *d;
    Token *t;
    size_t n, cap;
} Lexer;

/* `s` is the token's text; `start` where it begins in the source (its sigil or opening quote), which is
   where diagnostics point. */
static int push_at(Lexer *L, TokKind k, const char *s, size_t len, const char *start);
static int push(Lexer *L, TokKind k, const char *s, size_t len) { return push_at(L, k, s, len, s); }

static int push_at(Lexer *L, TokKind k, const char *s, size_t len, const char *start)
{
    if (L->n == L->cap) {
        size_t cap = L->cap ? L->cap * 2 : 1024;
        Token *t = realloc(L->t, cap * sizeof *t);
        if (!t) return -1;
        L->t = t;
        L->cap = cap;
    }
    Token *tk = &L->t[L->n++];
    tk->kind = k;
    tk->s = s;
    tk->len = (uint32_t)len;
    tk->line = L->line;
    tk->col = (uint32_t)(start - L->line_start) + 1;
    tk->nl_before = (uint8_t)L->nl;
    L->nl = 0;
    return 0;
}

static void lex_error(Lexer *L, DiagId id, const char *at, const char *msg)
{
    SrcLoc loc = {L->file, L->line, (uint32_t)(at - L->line_start) + 1};
    diag_add(L->d, SEV_ERROR, id, loc, "%s", msg);
}

/* Numbers: [-]digits[.digits][e[+-]digits] | [-]0x hex. */
static const char *scan_number(Lexer *L, const char *s, TokKind *kind)
{
    const char *p = s;
    if (*p == '-' || *p == '+') p++;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && p + 2 < L->end && isxdigit((unsigned char)p[2])) {
        p += 2;
        while (p < L->end && isxdigit((unsigned char)*p)) p++;
        *kind = TK_INT;
        return p;
    }
    while (p < L->end && isdigit((unsigned char)*p)) p++;
    *kind = TK_INT;
    if (p + 1 < L->end && *p == '.' && isdigit((unsigned char)p[1])) {
        p++;
        while (p < L->end && isdigit((unsigned char)*p)) p++;
        *kind = TK_FLOAT;
    }
    if (p < L->end && (*p == 'e' || *p == 'E')) {
        const char *q = p + 1;
        if (q < L->end && (*q == '+' || *q == '-')) q++;
        if (q < L->end && isdigit((unsigned char)*q)) {
            while (q < L->end && isdigit((unsigned char)*q)) q++;
            p = q;
            *kind = TK_FLOAT;
        }
    }
    return p;
}

int lex_all(const char *file, const char *text, size_t len, DiagList *d, TokenArray *arr)
{
    Lexer L = {.file = file, .p = text, .end = text + len, .line_start = text, .line = 1, .nl = 1, .d = d};
    while (L.p < L.end) {
        const char *s = L.p;
        int c = (unsigned char)*s;
        if (c == '\n') { L.p++; L.line++; L.line_start = L.p; L.nl = 1; continue; }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') { L.p++; continue; }
        if (c == '/' && s + 1 < L.end && s[1] == '/') {
            while (L.p < L.end && *L.p != '\n') L.p++;
            continue;
        }
        TokKind k;
        const char *e = s + 1;
        switch (c) {
        case '(': k = TK_LPAREN; break;
        case ')': k = TK_RPAREN; break;
        case '[': k = TK_LBRACK; break;
        case ']': k = TK_RBRACK; break;
        case '{': k = TK_LBRACE; break;
        case '}': k = TK_RBRACE; break;
        case '<': k = TK_LANGLE; break;
        case '>': k = TK_RANGLE; break;
        case ',': k = TK_COMMA; break;
        case ':': k = TK_COLON; break;
        case '=': k = TK_EQUAL; break;
        case '*': k = TK_STAR; break;
        case '?': k = TK_QUESTION; break;
        case '+': k = TK_PLUS; break;
        case '.': k = TK_DOT; break;
        case '-':
            if (s + 1 < L.end && s[1] == '>') { k = TK_ARROW; e = s + 2; break; }
            if (s + 1 < L.end && isdigit((unsigned char)s[1])) { e = scan_number(&L, s, &k); break; }
            k = TK_MINUS;
            break;
        case '"': {
            const char *p = s + 1;
            while (p < L.end && *p != '"' && *p != '\n') p += (*p == '\\' && p + 1 < L.end) ? 2 : 1;
            if (p >= L.end || *p != '"') {
                lex_error(&L, DIAG_LEX_STRING, s, "unterminated string literal");
                L.p = p;
                continue;
            }
            const char *nul = memchr(s + 1, '\0', (size_t)(p - s - 1));
            if (nul)   /* text is printed back as C strings: a NUL would cut it short */
                lex_error(&L, DIAG_LEX_STRING, nul, "string literal contains a NUL byte");
            if (push_at(&L, TK_STRING, s + 1, (size_t)(p - s - 1), s)) goto oom;
            L.p = p + 1;
            continue;
        }
        case '%': case '^': case '@': case '!': case '#': {
            const char *p = s + 1;
            if (c == '@' && p < L.end && *p == '"') {   /* @"quoted symbol" */
                p++;
                while (p < L.end && *p != '"' && *p != '\n') p++;
                if (p < L.end && *p == '"') p++;
            } else {
                /* SSA names may be numeric (%0) and carry a #N result suffix (%r#1). */
                while (p < L.end && (is_id((unsigned char)*p) || (c == '%' && *p == '#' && p + 1 < L.end &&
                                                                  isdigit((unsigned char)p[1]))))
                    p++;
            }
            if (p == s + 1) {
                lex_error(&L, DIAG_LEX_CHAR, s, "expected a name after the sigil");
                L.p = p;
                continue;
            }
            k = c == '%' ? TK_SSA : c == '^' ? TK_BLOCK : c == '@' ? TK_SYMBOL : c == '!' ? TK_BANG : TK_HASH;
            if (push_at(&L, k, s + 1, (size_t)(p - s - 1), s)) goto oom;
            L.p = p;
            continue;
        }
        default:
            if (isdigit(c)) { e = scan_number(&L, s, &k); break; }
            if (is_id0(c)) {
                const char *p = s + 1;
                while (p < L.end && is_id((unsigned char)*p)) p++;
                /* A trailing '.' belongs to punctuation, not the identifier. */
                while (p > s + 1 && p[-1] == '.') p--;
                k = TK_IDENT;
                e = p;
                break;
            }
            lex_error(&L, DIAG_LEX_CHAR, s, isprint(c) ? "unexpected character" : "unexpected byte");
            L.p = s + 1;
            continue;
        }
        if (push(&L, k, s, (size_t)(e - s))) goto oom;
        L.p = e;
    }
    if (push(&L, TK_EOF, L.end, 0)) goto oom;
    arr->t = L.t;
    arr->n = L.n;
    return 0;
oom:
    free(L.t);
    arr->t = NULL;
    arr->n = 0;
    return -1;
}
