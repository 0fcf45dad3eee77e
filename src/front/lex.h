/* lex.h — tokens of the .pto text format (MLIR-flavoured). */
#ifndef PTOSIM_LEX_H
#define PTOSIM_LEX_H
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

typedef struct TokenArray {
    Token *t;
    size_t n;
} TokenArray;

/* Tokenises `text`; lexical errors are reported to `d` and skipped. Returns 0 on success (even with
   errors: the caller checks d->nerrors). The array is malloc'd; free with free(arr->t). */
int lex_all(const char *file, const char *text, size_t len, DiagList *d, TokenArray *arr);
const char *tok_kind_name(TokKind k);
#endif
