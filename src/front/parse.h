/* parse.h — the .pto parser's internal interface (shared by parse.c and bind.c). */
#ifndef PTOSIM_PARSE_H
#define PTOSIM_PARSE_H
#include "isa/ctx.h"
#include "isa/ir.h"
#include "lex.h"

/* One entry of the SSA scope: a name bound to a run of values (%r:2 binds two). */
typedef struct ScopeEnt {
    const char *name;
    Value **vals;
    uint32_t n;
    uint32_t depth;
} ScopeEnt;

typedef struct Parser {
    PtoCtx *ctx;
    Module *m;
    DiagList *d;
    const char *file;
    Token *tk;
    size_t ntk, pos;
    ScopeEnt *scope;
    size_t nscope, capscope;
    uint32_t depth;
    uint32_t nesting;          /* region nesting, bounded against stack exhaustion */
    int fatal;                 /* error cap reached */
    /* DPS form: result names written inside outs(...) */
    const char *dps_names[64];
    SrcLoc dps_locs[64];
    uint32_t ndps;
} Parser;

/* Parsed but not yet bound pieces of a custom-form op. */
typedef enum { IT_VALUE, IT_MEM, IT_TOKEN, IT_INT, IT_CLAUSE, IT_TYPE } ItemKind;

typedef struct Item {
    ItemKind kind;
    SrcLoc loc;
    Value *v, *off;            /* IT_VALUE, IT_MEM */
    const char *s;             /* IT_TOKEN spelling / IT_CLAUSE keyword / key of a keyed clause item */
    uint32_t slen;
    int64_t i;                 /* IT_INT */
    const char *key;           /* "key =" prefix inside clauses */
    struct Item *sub;          /* IT_CLAUSE: its items */
    uint32_t nsub;
    int bare;                  /* IT_CLAUSE written without parentheses */
} Item;

typedef struct TypeItem {
    const Type *t;
    const char *kw;            /* keyword prefix seen before this type (e.g. "loop"), or NULL */
    SrcLoc loc;
} TypeItem;

/* token access */
static inline Token *P_cur(Parser *P) { return &P->tk[P->pos]; }
static inline Token *P_at(Parser *P, size_t k) { return &P->tk[P->pos + k < P->ntk ? P->pos + k : P->ntk - 1]; }
static inline SrcLoc P_loc(Parser *P, const Token *t) { return (SrcLoc){P->file, t->line, t->col}; }
int P_is(Parser *P, TokKind k);
int P_is_ident(Parser *P, const char *s);
int P_eat(Parser *P, TokKind k);
int P_eat_ident(Parser *P, const char *s);
int P_expect(Parser *P, TokKind k, const char *what);
void P_error(Parser *P, DiagId id, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
const char *P_text(Parser *P, const Token *t);       /* interned token text */

const Type *P_parse_type(Parser *P);
Value *P_use(Parser *P);                             /* parses %name[#k] and resolves it */
Attr P_parse_attr_value(Parser *P, const char *name);
int P_parse_attr_dict(Parser *P, Attr **out, uint32_t *n);
int P_int_literal(Parser *P, const Token *t, int64_t *out);

/* bind.c: custom (signature-driven), DPS and generic forms of table ops */
Op *bind_parse_custom(Parser *P, int kind, SrcLoc loc, const char **resnames, uint32_t *rescounts,
                      uint32_t nresgroups, uint32_t nres);
Op *bind_parse_generic(Parser *P, int kind, SrcLoc loc, uint32_t nres);

/* shared op construction */
Op *P_new_op(Parser *P, int kind, SrcLoc loc);
void P_set_results(Parser *P, Op *op, const Type *const *types, uint32_t n);
#endif

Op *parse_module_text(PtoCtx *ctx, Module *m, const char *file, const char *text, size_t len);
