/* lex.h — tokens of the .pto text format (MLIR-flavoured), produced on demand. */
#ifndef PTOSIM_LEX_H
#define PTOSIM_LEX_H
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include "base/diag.h"

typedef enum {
    TK_EOF,
    TK_IDENT,      /* bare or dotted identifier: pto.vadd, i64, nburst, f8E4M3FN */
    TK_SSA,        /* %name (without '%'); may contain '#N' suffix */
    TK_BLOCK,      /* ^bb0 */
    TK_SYMBOL,     /* @name */
    TK_BANG,       /* !dialect.type */
    TK_HASH,       /* #dialect.attr */
    TK_INT,        /* integer literal, optionally negative; hex allowed */
    TK_FLOAT,      /* float literal */
    TK_STRING,     /* "..." (text excludes quotes, escapes not yet decoded) */
    TK_LPAREN, TK_RPAREN, TK_LBRACK, TK_RBRACK, TK_LBRACE, TK_RBRACE, TK_LANGLE, TK_RANGLE,
    TK_COMMA, TK_COLON, TK_EQUAL, TK_ARROW, TK_STAR, TK_QUESTION, TK_PLUS, TK_MINUS, TK_DOT,
} TokKind;

typedef struct Token {
    TokKind kind;
    uint32_t len;
    const char *s;             /* points into the source text */
    uint32_t line, col;
    uint8_t nl_before;         /* first token on its line */
} Token;

/* A `//` comment: where it is and which token follows it, so the parser can attach it to the IR. */
typedef struct Comment {
    const char *s;             /* the comment from its "//", into the source text */
    uint32_t len;              /* up to the end of the line, trailing blanks and '\r' excluded */
    uint32_t line;
    size_t tok;                /* number of tokens lexed before it (index of the next token) */
    uint8_t own_line;          /* nothing but blanks before it on its line */
} Comment;

typedef struct Lexer {
    const char *file, *p, *end, *line_start;
    uint32_t line;
    uint8_t nl;                /* no token yet on the current line */
    DiagList *d;
    size_t ntok;               /* tokens produced so far */
    Comment *cm;               /* every comment seen so far (malloc'd; the owner frees it) */
    size_t ncm, capcm;
    jmp_buf *oom;              /* where front_realloc goes when memory runs out (parse_module_text's handler) */
} Lexer;

/* Starts lexing text[0, len); text[len] must be readable and 0 (a sentinel the scanning loops stop at). */
void lex_init(Lexer *L, const char *file, const char *text, size_t len, DiagList *d);
/* Lexes the next tokens into out[0, n) (n >= 1) and returns how many: fewer than n only at the end of
   the text, where a TK_EOF token is produced (and again on every later call). Lexical errors are
   reported to the DiagList and skipped. Returns 0 only when out of memory for the comment list. */
size_t lex_fill(Lexer *L, Token *out, size_t n);
const char *tok_kind_name(TokKind k);
/* realloc for the front end's growable tables: when memory runs out it longjmps to *oom (the parser's
   handler, which reports E-OOM and frees the tables), as arena_alloc does. */
void *front_realloc(jmp_buf *oom, void *p, size_t n);
#endif
