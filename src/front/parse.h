/* parse.h — the .pto parser's internal interface (shared by parse.c and bind.c). */
#ifndef PTOSIM_PARSE_H
#define PTOSIM_PARSE_H
#include <assert.h>
#include "isa/ctx.h"
#include "isa/ir.h"
#include "lex.h"

/* The token window: tokens are lexed on demand into fixed chunks (a token never moves while it is in the
   window) and whole chunks are dropped once the parser has finished the op that used them, so memory
   holds one op's tokens, not the file's. */
enum { TKC_BITS = 8, TKC_N = 1u << TKC_BITS };

/* An SSA name seen in the file, and its innermost visible binding (index into the scope, -1 = none). */
typedef struct NameEnt {
    const char *name;          /* interned, without '%' */
    uint32_t len, hash;
    int32_t bind;
    uint8_t of_unknown_op;     /* a result of an op the parser did not know: its uses are not reported again */
} NameEnt;

/* One entry of the SSA scope: a name bound to a run of values (%r:2 binds two). */
typedef struct ScopeEnt {
    Value **vals;
    uint32_t n;
    uint32_t depth;
    int32_t name;              /* NameEnt index */
    int32_t shadow;            /* the binding of the same name this one hides, -1 = none */
} ScopeEnt;

/* Spellings to numbers (op kinds, enum-token ids), in hash tables built on first use; `key` separates
   name spaces (a token's set). The first spelling added wins. */
typedef struct Sym { const char *name; uint32_t len; int32_t key, val; } Sym;
typedef struct SymTab { Sym *s; uint32_t cap; } SymTab;
/* Types by their source text: a type written before is not parsed again. */
typedef struct TypeName { const char *s; uint32_t len, hash; const Type *t; } TypeName;

/* A file-level alias: `!name = type` or `#name = attribute` (a location alias `#name = loc(...)` keeps
   nothing: locations are skipped). */
typedef struct Alias {
    const char *s;
    uint32_t len;
    uint8_t is_type;
    const Type *ty;
    Attr attr;
    uint32_t hash;
    int32_t next;              /* the next alias of the same hash bucket (-1: none) */
} Alias;

enum { P_MAX_TYPE_DEPTH = 64 };   /* types nest at most this deep (E-NEST-DEPTH) */

typedef struct Bound Bound;
typedef struct Item Item;
typedef struct TypeItem TypeItem;

typedef struct Parser {
    PtoCtx *ctx;
    Module *m;
    DiagList *d;
    const char *file;
    Lexer lx;
    Token **chunks;            /* the token window; chunks[0][0] is token `base` */
    size_t nchunks, capchunks;
    Token **spare;             /* dropped chunks, for reuse */
    size_t nspare;
    size_t base, nlexed, pos;  /* absolute token indices */
    ScopeEnt *scope;
    size_t nscope, capscope;
    size_t floor;              /* scope entries below this are invisible (an isolated function body) */
    NameEnt *names;            /* every SSA name seen, in order (indices are stable) */
    uint32_t nnames, capnames;
    int32_t *nametab;          /* open-addressing hash of names: index into names, -1 = empty */
    uint32_t captab;
    SymTab ops;                /* op names and aliases */
    SymTab toks;               /* enum tokens and aliases */
    Value **noresults;         /* the (zeroed) result array every op without results shares */
    TypeName *tys;             /* spellings of the types parsed so far */
    Alias *aliases;            /* file-level aliases, in definition order */
    uint32_t naliases, capaliases;
    int32_t *alias_heads;      /* alias hash buckets (capaliases of them), see alias_find */
    uint32_t alias_mask;
    uint32_t tdepth;           /* type nesting of the type being parsed */
    uint32_t captys, ntys;
    uint32_t depth;
    uint32_t nesting;          /* region nesting, bounded against stack exhaustion */
    int fatal;                 /* error cap reached */
    int quiet;                 /* > 0 while probing: P_error reports nothing */
    /* comments: the next one to attach, and the attachments so far */
    size_t cmnext;
    OpComment *cms;
    size_t ncms, capcms;
    /* scratch of the table-op binder (bind.c), allocated once per parse */
    Bound *bound;
    Item *items, *bracket, *isub;
    size_t nisub, capisub;
    TypeItem *types, *rtypes;
    /* DPS form: result names written inside outs(...) */
    const char *dps_names[64];
    SrcLoc dps_locs[64];
    uint32_t ndps;
    /* Streaming (Module.on_unit): the module's own arena while a nested module is parsed into a fresh one */
    Arena outer;
    int stream;                /* on_unit is set and the file is one module op: its nested modules are units */
    int in_unit;
    size_t errors0;            /* errors in the list when the parse began */
    /* unstructured control flow: the labelled blocks of the function body being parsed (parse.c) */
    struct CfgBlock *cfg;
    uint32_t ncfg, capcfg;
    uint32_t cfg_nesting;      /* the region nesting of that body (0: no labelled blocks allowed) */
} Parser;

/* Parsed but not yet bound pieces of a custom-form op. */
typedef enum { IT_VALUE, IT_MEM, IT_TOKEN, IT_INT, IT_CLAUSE, IT_TYPE, IT_LIST } ItemKind;   /* IT_LIST: KEY = [...] */

struct Item {
    ItemKind kind;
    SrcLoc loc;
    SrcLoc offloc;             /* IT_MEM: where the offset is written */
    Value *v, *off;            /* IT_VALUE, IT_MEM */
    const int64_t *path;       /* IT_MEM written %s[1, 0]: the constant path (off is NULL), in the module arena */
    uint32_t npath;
    const char *s;             /* IT_TOKEN spelling / IT_CLAUSE keyword / key of a keyed clause item */
    uint32_t slen;
    int64_t i;                 /* IT_INT */
    const char *key;           /* "key =" prefix inside clauses */
    SrcLoc keyloc;             /* where the key is written */
    uint32_t sub, nsub;        /* IT_CLAUSE, IT_LIST: its items, P->isub[sub .. sub + nsub) */
    int bare;                  /* IT_CLAUSE written without parentheses */
    int quoted;                /* IT_TOKEN written as a string literal */
};

struct TypeItem {
    const Type *t;
    const char *kw;            /* keyword prefix seen before this type (e.g. "loop"), or NULL */
    SrcLoc loc;
};

/* token access */
void P_fill(Parser *P, size_t i);
static inline Token *P_tok(Parser *P, size_t i)
{
    assert(i >= P->base);      /* the chunk holding it was dropped: a parser bug */
    if (i >= P->nlexed) P_fill(P, i);
    i -= P->base;
    return &P->chunks[i >> TKC_BITS][i & (TKC_N - 1)];
}
static inline Token *P_cur(Parser *P) { return P_tok(P, P->pos); }
static inline Token *P_at(Parser *P, size_t k) { return P_tok(P, P->pos + k); }
static inline SrcLoc P_loc(Parser *P, const Token *t) { return (SrcLoc){P->file, t->line, t->col}; }
static inline int P_is(Parser *P, TokKind k) { return P_cur(P)->kind == k; }
int P_is_ident(Parser *P, const char *s);
int P_eat(Parser *P, TokKind k);
int P_eat_ident(Parser *P, const char *s);
int P_expect(Parser *P, TokKind k, const char *what);
/* Reports an error; returns its index for diag_note, -1 when nothing was added. */
long P_error(Parser *P, DiagId id, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
const char *P_text(Parser *P, const Token *t);       /* interned token text */

const Type *P_parse_type(Parser *P);
/* Token id of s[0, n) in token set `set` (aliases resolved), or -1: tok_lookup through a hash table. */
int P_tok_lookup(Parser *P, int set, const char *s, uint32_t n);
Value *P_use(Parser *P);                             /* parses %name[#k] and resolves it */
Attr P_parse_attr_value(Parser *P, const char *name);
int P_parse_attr_dict(Parser *P, Attr **out, uint32_t *n);
int P_int_literal(Parser *P, const Token *t, int64_t *out);
/* An integer literal `t` read into `a` whose type `a->ty` is a float type: decimal = the value, hex = the bits. */
void P_float_int_literal(Parser *P, const Token *t, Attr *a);
/* The closest spelling among `cands` within edit distance of `word` ("did you mean"), or NULL. */
const char *P_suggest(const char *word, size_t n, const char *const *cands, size_t ncands);
int P_expect_kw(Parser *P, const char *s);
void P_tok_desc(const Token *t, char *buf, size_t n);   /* "'text'" or "end of file", for messages */
void P_release(Parser *P);                           /* drops the token chunks wholly before the current token */
void P_skip_balanced(Parser *P);                     /* skips a bracketed group */
/* List caps (never a silent cut): 1 while *n < cap; at the first element over it E-PARSE-LIMIT at loc naming
   `what`, once per list (*over counts), then 0 so the caller parses and drops the rest. */
int P_list_room(Parser *P, uint32_t n, uint32_t cap, SrcLoc loc, const char *what, int *over);
int P_at_loc(Parser *P);                             /* `loc(` starts here */
int P_skip_loc(Parser *P);                           /* skips a `loc(...)` source location; 1 if one was there */
int P_at_alias_def(Parser *P);                       /* `!name =` or `#name =` starts here */
void P_parse_alias_def(Parser *P);                   /* one alias definition (P_at_alias_def holds) */
const char *P_span_text(Parser *P, size_t from, size_t to);   /* source text of tokens [from, to) */

/* SSA names and scopes (parse_prim.c) */
int32_t P_name_index(Parser *P, const char *s, uint32_t n, int create);
int32_t P_def_name(Parser *P, const Token *t);
const char *P_def_str(Parser *P, const Token *t);
void P_scope_push(Parser *P);
void P_scope_pop(Parser *P);
void P_scope_def(Parser *P, int32_t name, Value **vals, uint32_t n, SrcLoc loc);
Value *P_new_value(Parser *P, Value *v, const Type *t, const char *name, SrcLoc loc);
Value *P_use_at(Parser *P, SrcLoc *loc);            /* P_use, also returning where the use is written */

/* name tables (op names and aliases) */
void P_sym_init(jmp_buf *oom, SymTab *t, uint32_t n);
void P_sym_add(SymTab *t, const char *name, int32_t key, int32_t val);
int32_t P_sym_find(const SymTab *t, const char *s, uint32_t n, int32_t key);

/* bind.c: custom (signature-driven), DPS and generic forms of table ops */
Op *bind_parse_custom(Parser *P, int kind, SrcLoc loc, const char **resnames, uint32_t *rescounts,
                      uint32_t nresgroups, uint32_t nres);
Op *bind_parse_generic(Parser *P, int kind, SrcLoc loc, uint32_t nres);
/* The tail of a generic op, `[{attrs}] : (T...) -> (R...)`: the dictionary into *dict / *nd, and the function type
   checked against the n operands v (located errors); the type, or NULL after an error. */
const Type *bind_generic_functype(Parser *P, Attr **dict, uint32_t *nd, Value *const *v, const SrcLoc *vl, uint32_t n);
int bind_init(Parser *P);
void bind_free(Parser *P);

/* shared op construction (parse_prim.c) */
Op *P_new_op(Parser *P, int kind, SrcLoc loc);
void P_set_results(Parser *P, Op *op, const Type *const *types, uint32_t n);
/* Operands of `op` with where each is written (locs may be NULL). */
void P_set_operands(Parser *P, Op *op, Value *const *v, const SrcLoc *locs, uint32_t n);

/* parse.c: parses a whole module; text[len] must be 0. Comments are attached to the module (m->comments). */
Op *parse_module_text(PtoCtx *ctx, Module *m, const char *file, const char *text, size_t len);
#endif
