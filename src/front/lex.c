/* lex.c — converts .pto text into tokens, a batch at a time as the parser asks for them. The grammar
 * is MLIR's generic lexical structure: %ssa, ^block, @symbol, !type, #attr, identifiers with dots,
 * numbers, strings, punctuation. Every byte is classified through one table; comments are skipped
 * with memchr and remembered (position and the token after them) for the printer. */
#include "lex.h"
#include "base/alloc.h"
#include <stdio.h>
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

/* Byte classes. NUL belongs to none but C_STREND, so the scanning loops stop at the sentinel after the
   text; C_STREND marks the bytes a string literal's scan stops at; C_DASH is '-', which SSA and block
   names may hold besides the identifier bytes. */
enum { C_ID0 = 1, C_ID = 2, C_DIGIT = 4, C_HEX = 8, C_BLANK = 16, C_STREND = 32, C_DASH = 64 };

static const uint8_t cls[256] = {
    ['a'] = C_ID0 | C_ID | C_HEX, ['b'] = C_ID0 | C_ID | C_HEX, ['c'] = C_ID0 | C_ID | C_HEX,
    ['d'] = C_ID0 | C_ID | C_HEX, ['e'] = C_ID0 | C_ID | C_HEX, ['f'] = C_ID0 | C_ID | C_HEX,
    ['g'] = C_ID0 | C_ID, ['h'] = C_ID0 | C_ID, ['i'] = C_ID0 | C_ID, ['j'] = C_ID0 | C_ID, ['k'] = C_ID0 | C_ID,
    ['l'] = C_ID0 | C_ID, ['m'] = C_ID0 | C_ID, ['n'] = C_ID0 | C_ID, ['o'] = C_ID0 | C_ID, ['p'] = C_ID0 | C_ID,
    ['q'] = C_ID0 | C_ID, ['r'] = C_ID0 | C_ID, ['s'] = C_ID0 | C_ID, ['t'] = C_ID0 | C_ID, ['u'] = C_ID0 | C_ID,
    ['v'] = C_ID0 | C_ID, ['w'] = C_ID0 | C_ID, ['x'] = C_ID0 | C_ID, ['y'] = C_ID0 | C_ID, ['z'] = C_ID0 | C_ID,
    ['A'] = C_ID0 | C_ID | C_HEX, ['B'] = C_ID0 | C_ID | C_HEX, ['C'] = C_ID0 | C_ID | C_HEX,
    ['D'] = C_ID0 | C_ID | C_HEX, ['E'] = C_ID0 | C_ID | C_HEX, ['F'] = C_ID0 | C_ID | C_HEX,
    ['G'] = C_ID0 | C_ID, ['H'] = C_ID0 | C_ID, ['I'] = C_ID0 | C_ID, ['J'] = C_ID0 | C_ID, ['K'] = C_ID0 | C_ID,
    ['L'] = C_ID0 | C_ID, ['M'] = C_ID0 | C_ID, ['N'] = C_ID0 | C_ID, ['O'] = C_ID0 | C_ID, ['P'] = C_ID0 | C_ID,
    ['Q'] = C_ID0 | C_ID, ['R'] = C_ID0 | C_ID, ['S'] = C_ID0 | C_ID, ['T'] = C_ID0 | C_ID, ['U'] = C_ID0 | C_ID,
    ['V'] = C_ID0 | C_ID, ['W'] = C_ID0 | C_ID, ['X'] = C_ID0 | C_ID, ['Y'] = C_ID0 | C_ID, ['Z'] = C_ID0 | C_ID,
    ['0'] = C_ID | C_DIGIT | C_HEX, ['1'] = C_ID | C_DIGIT | C_HEX, ['2'] = C_ID | C_DIGIT | C_HEX,
    ['3'] = C_ID | C_DIGIT | C_HEX, ['4'] = C_ID | C_DIGIT | C_HEX, ['5'] = C_ID | C_DIGIT | C_HEX,
    ['6'] = C_ID | C_DIGIT | C_HEX, ['7'] = C_ID | C_DIGIT | C_HEX, ['8'] = C_ID | C_DIGIT | C_HEX,
    ['9'] = C_ID | C_DIGIT | C_HEX, ['_'] = C_ID0 | C_ID, ['.'] = C_ID, ['$'] = C_ID, ['-'] = C_DASH, [' '] = C_BLANK,
    [0] = C_STREND, ['"'] = C_STREND, ['\\'] = C_STREND, ['\n'] = C_STREND,
    ['\t'] = C_BLANK, ['\r'] = C_BLANK, ['\f'] = C_BLANK, ['\v'] = C_BLANK,
};

/* Single-character punctuation; TK_EOF = not punctuation. */
static const uint8_t punct[256] = {
    ['('] = TK_LPAREN, [')'] = TK_RPAREN, ['['] = TK_LBRACK, [']'] = TK_RBRACK, ['{'] = TK_LBRACE,
    ['}'] = TK_RBRACE, ['<'] = TK_LANGLE, ['>'] = TK_RANGLE, [','] = TK_COMMA, [':'] = TK_COLON,
    ['='] = TK_EQUAL, ['*'] = TK_STAR, ['?'] = TK_QUESTION, ['+'] = TK_PLUS, ['.'] = TK_DOT,
};

static inline int is(int c, int k) { return cls[(unsigned char)c] & k; }

void lex_init(Lexer *L, const char *file, const char *text, size_t len, DiagList *d)
{
    memset(L, 0, sizeof *L);
    L->file = file;
    L->p = L->line_start = text;
    L->end = text + len;
    L->line = 1;
    L->nl = 1;
    L->d = d;
}

static void lex_error(Lexer *L, DiagId id, const char *at, const char *msg)
{
    SrcLoc loc = {L->file, L->line, (uint32_t)(at - L->line_start) + 1};
    diag_add(L->d, SEV_ERROR, id, loc, "%s", msg);
}

void *front_realloc(jmp_buf *oom, void *p, size_t n)
{
    void *q = mem_realloc(p, n ? n : 1);
    if (!q) longjmp(*oom, 1);
    return q;
}

static void add_comment(Lexer *L, const char *s, const char *e)
{
    if (L->ncm == L->capcm) {
        L->capcm = L->capcm ? L->capcm * 2 : 64;
        L->cm = front_realloc(L->oom, L->cm, L->capcm * sizeof *L->cm);
    }
    while (e > s && is(e[-1], C_BLANK)) e--;
    L->cm[L->ncm++] = (Comment){s, (uint32_t)(e - s), L->line, L->ntok, L->nl};
}

/* Numbers: [-]digits[.digits][e[+-]digits] | [-]0x hex. */
static const char *scan_number(const char *s, TokKind *kind)
{
    const char *p = s;
    if (*p == '-' || *p == '+') p++;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && is(p[2], C_HEX)) {
        p += 2;
        while (is(*p, C_HEX)) p++;
        *kind = TK_INT;
        return p;
    }
    while (is(*p, C_DIGIT)) p++;
    *kind = TK_INT;
    if (*p == '.' && is(p[1], C_DIGIT)) {
        p++;
        while (is(*p, C_DIGIT)) p++;
        *kind = TK_FLOAT;
    }
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        if (*q == '+' || *q == '-') q++;
        if (is(*q, C_DIGIT)) {
            while (is(*q, C_DIGIT)) q++;
            p = q;
            *kind = TK_FLOAT;
        }
    }
    return p;
}

/* The scanning state lives in locals while lex_fill runs; SYNC writes it back before anything that
   reads the Lexer (diagnostics, comments). `s` is a token's text, `at` where it begins in the source (its
   sigil or opening quote), which is where diagnostics point. */
#define SYNC() (L->p = p, L->line = line, L->line_start = ls, L->nl = nl, L->ntok = ntok)
#define EMIT(k_, s_, len_, at_)                                                                    \
    do {                                                                                           \
        Token *tk_ = &out[k++];                                                                    \
        tk_->kind = (k_);                                                                          \
        tk_->s = (s_);                                                                             \
        tk_->len = (uint32_t)(len_);                                                               \
        tk_->line = line;                                                                          \
        tk_->col = (uint32_t)((at_) - ls) + 1;                                                     \
        tk_->nl_before = nl;                                                                       \
        nl = 0;                                                                                    \
        ntok++;                                                                                    \
    } while (0)

size_t lex_fill(Lexer *L, Token *out, size_t n)
{
    size_t k = 0, ntok = L->ntok;
    const char *p = L->p, *end = L->end, *ls = L->line_start;
    uint32_t line = L->line;
    uint8_t nl = L->nl;
    while (k < n) {
        unsigned c = (unsigned char)*p;
        if (cls[c] & C_BLANK) {
            do c = (unsigned char)*++p;
            while (cls[c] & C_BLANK);
        }
        if (c == '\n') {
            ls = ++p;
            line++;
            nl = 1;
            continue;
        }
        if (p >= end) {
            EMIT(TK_EOF, end, 0, end);
            break;
        }
        const char *s = p;
        TokKind kind = (TokKind)punct[c];
        if (kind != TK_EOF) {
            EMIT(kind, s, 1, s);
            p++;
            continue;
        }
        if (cls[c] & C_ID0) {
            const char *q = s + 1;
            while (cls[(unsigned char)*q] & C_ID) q++;
            /* A trailing '.' belongs to punctuation, not the identifier. */
            while (q[-1] == '.' && q > s + 1) q--;
            EMIT(TK_IDENT, s, q - s, s);
            p = q;
            continue;
        }
        switch (c) {
        case '%': case '^': case '@': case '!': case '#': {
            const char *q = s + 1;
            if (c == '%' || c == '^') {
                /* SSA values and blocks: digits (%0), or a name of letters, digits and "$._-" not starting
                   with a digit (%c-128_f32, as MLIR spells negative constants). Values may carry a #N result
                   suffix (%r#1). */
                if (is(*q, C_DIGIT)) {
                    while (is(*q, C_DIGIT)) q++;
                } else {
                    while (cls[(unsigned char)*q] & (C_ID | C_DASH)) q++;
                }
                if (c == '%' && *q == '#' && is(q[1], C_DIGIT))
                    for (q++; is(*q, C_DIGIT); q++) {}
            } else if (c == '@' && *q == '"') {   /* @"quoted symbol" */
                q++;
                while (q < end && *q != '"' && *q != '\n') q++;
                if (q < end && *q == '"') q++;
            } else {
                while (cls[(unsigned char)*q] & C_ID) q++;
            }
            if (q == s + 1) {
                SYNC();
                lex_error(L, DIAG_LEX_CHAR, s, "expected a name after the sigil");
                p = q;
                continue;
            }
            kind = c == '%' ? TK_SSA : c == '^' ? TK_BLOCK : c == '@' ? TK_SYMBOL : c == '!' ? TK_BANG : TK_HASH;
            EMIT(kind, s + 1, q - s - 1, s);
            p = q;
            continue;
        }
        case '"': {
            const char *q = s + 1;
            for (;;) {   /* stops at '"', '\n', '\\' or a NUL (the sentinel, or one inside the string) */
                while (!(cls[(unsigned char)*q] & C_STREND)) q++;
                if (*q == '\\' && q + 1 < end) { q += 2; continue; }
                if (*q == 0 && q < end) { q++; continue; }
                break;
            }
            if (q >= end || *q != '"') {
                SYNC();
                lex_error(L, DIAG_LEX_STRING, s, "unterminated string literal");
                p = q < end ? q : end;
                continue;
            }
            const char *nul = memchr(s + 1, '\0', (size_t)(q - s - 1));
            if (nul) {   /* text is printed back as C strings: a NUL would cut it short */
                SYNC();
                lex_error(L, DIAG_LEX_STRING, nul, "string literal contains a NUL byte");
            }
            EMIT(TK_STRING, s + 1, q - s - 1, s);
            p = q + 1;
            continue;
        }
        case '/':
            if (s[1] == '/') {
                const char *e = memchr(s, '\n', (size_t)(end - s));
                p = e ? e : end;
                SYNC();
                add_comment(L, s, p);
                continue;
            }
            break;
        case '-':
            if (s[1] == '>') {
                EMIT(TK_ARROW, s, 2, s);
                p = s + 2;
                continue;
            }
            if (is(s[1], C_DIGIT)) {
                const char *e = scan_number(s, &kind);
                EMIT(kind, s, e - s, s);
                p = e;
                continue;
            }
            EMIT(TK_MINUS, s, 1, s);
            p = s + 1;
            continue;
        default:
            if (is(c, C_DIGIT)) {
                const char *e = scan_number(s, &kind);
                EMIT(kind, s, e - s, s);
                p = e;
                continue;
            }
            break;
        }
        SYNC();
        lex_error(L, DIAG_LEX_CHAR, s, c >= 0x20 && c < 0x7F ? "unexpected character" : "unexpected byte");
        p = s + 1;
    }
    SYNC();
    return k;
}
