/* parse.c — recursive-descent parser for .pto text: module/func structure, regions and blocks,
 * the irregular syntaxes (arith, scf, func), comments and error recovery. Table ops with a signature are
 * handed to bind.c; both build on the primitives of parse_prim.c. Errors are collected; the parser
 * resynchronises at op boundaries. */
#include "parse.h"
#include "isa/elem.h"
#include "base/alloc.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

enum { MAX_NESTING = 200, MAX_RESULTS = 64 };


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
    /* after a fatal error (E-NEST-DEPTH, the error cap) parsing stops: no recovery, so the rest of the file is
       never lexed (10^6 nested types once lexed 3 million tokens here, 170 MB, to find the function's end) */
    while (!P_is(P, TK_EOF) && !P->fatal) {
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

/* ------------------------------------------------------------------ comments */

/* Comments are attached as the parser passes them (see CommentPlace in ir.h):
     - own-line comments before an op in a block      -> CM_BEFORE of that op
     - a comment after an op's last token, same line  -> CM_TRAIL of the op
     - a comment after a region's '{', same line      -> CM_OPEN of that region
     - own-line comments before a region's '}'         -> CM_END of that region
     - comments inside a multi-line op                -> CM_BEFORE of the op (printed on its own line)
     - comments after the top-level module             -> CM_AFTER of the module
   A comment is pending until attached; "before token t" means it was lexed before token t. */
static int cm_pending(Parser *P, size_t tok)
{
    P_tok(P, tok);             /* lex up to the token, so every comment before it is known */
    return P->cmnext < P->lx.ncm && P->lx.cm[P->cmnext].tok <= tok;
}

/* Attaches the next pending comment; op may be NULL for now (parse_block_op fills it in). The records
   live in the module's arena, grown by doubling. */
static void cm_attach(Parser *P, const Op *op, CommentPlace place, unsigned region)
{
    const Comment *c = &P->lx.cm[P->cmnext++];
    if (P->m->on_unit) return;   /* checked only, never printed: no comments kept */
    if (P->ncms == P->capcms) {
        size_t cap = P->capcms ? P->capcms * 2 : 64;
        OpComment *x = arena_alloc(&P->m->arena, cap * sizeof *x);
        if (P->ncms) memcpy(x, P->cms, P->ncms * sizeof *x);
        P->cms = x;
        P->capcms = cap;
    }
    P->cms[P->ncms++] = (OpComment){op, c->s, c->len, (uint8_t)place, (uint8_t)(region > 255 ? 255 : region)};
}

/* After an op ending just before token P->pos: what is still pending inside it, then its trailing comment. */
static void cm_after_op(Parser *P, const Op *op)
{
    while (cm_pending(P, P->pos - 1)) cm_attach(P, op, CM_BEFORE, 0);
    if (cm_pending(P, P->pos) && !P->lx.cm[P->cmnext].own_line) cm_attach(P, op, CM_TRAIL, 0);
}

static int cmp_comment(const void *a, const void *b);

/* Sorted by op, then by position: what the printer looks up. Comments without an op are dropped. */
static void cm_finish(Parser *P)
{
    size_t k = 0;
    for (size_t i = 0; i < P->ncms; i++)
        if (P->cms[i].op) P->cms[k++] = P->cms[i];
    if (!k) return;
    qsort(P->cms, k, sizeof *P->cms, cmp_comment);
    P->m->comments = P->cms;
    P->m->ncomments = (uint32_t)k;
}

static int cmp_comment(const void *a, const void *b)
{
    const OpComment *x = a, *y = b;
    if (x->op->id != y->op->id) return x->op->id < y->op->id ? -1 : 1;
    return x->text < y->text ? -1 : x->text > y->text;
}

/* ------------------------------------------------------------------ blocks and regions */

static Op *parse_op(Parser *P);

/* One op of a block, with its comments: the leading ones are recorded before the op exists and get it
   afterwards (they stay without an op, and are dropped, when it does not parse). */
static Op *parse_block_op(Parser *P)
{
    P_release(P);
    size_t lead = P->ncms;
    while (cm_pending(P, P->pos)) cm_attach(P, NULL, CM_BEFORE, 0);
    size_t lead_end = P->ncms;
    Op *op = parse_op(P);
    if (!op) return NULL;
    P_skip_loc(P);   /* a trailing source location (MLIR's debug info) is accepted and dropped */
    for (size_t i = lead; i < lead_end; i++) P->cms[i].op = op;
    cm_after_op(P, op);
    return op;
}

/* Streaming (Module.on_unit set): a module nested directly in the top module is parsed into an arena of its
   own, handed to on_unit (unless the parse has reported an error: nothing is verified then), and freed,
   never linked into the top module — unless on_unit keeps it: then it is linked and its arena joins the
   module's. Nothing outside the nested module points into its arena: its SSA
   names go out of scope with it, types and spellings live in the context, and no comments are kept. */
static void parse_unit(Parser *P, Block *top)
{
    Module *m = P->m;
    P->outer = m->arena;
    arena_init(&m->arena);
    m->arena.oom = P->outer.oom;
    P->in_unit = 1;
    Op *op = parse_block_op(P);
    int keep = 0;
    if (op && P->d->nerrors == P->errors0) {
        op->parent = top;   /* as if linked: the verifier walks up from ops to their module */
        keep = m->on_unit(m, top->parent->parent, op, m->on_unit_data);
    }
    Arena unit = m->arena;
    m->arena = P->outer;
    P->in_unit = 0;
    if (keep) {
        append_op(top, op);
        arena_adopt(&m->arena, &unit);
    } else {
        arena_free(&unit);
    }
}

static Block *cfg_block(Parser *P, Block *cur);

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
        if (P_is(P, TK_BLOCK) && P->cfg_nesting && P->nesting == P->cfg_nesting) {
            b = cfg_block(P, b);   /* ^name(args): a block of the function body's control-flow graph */
            continue;
        }
        if (P->nesting == 1 && P->stream && (P_is_ident(P, "module") || P_is_ident(P, "builtin.module")))
            parse_unit(P, b);
        else {
            Op *op = parse_block_op(P);
            if (op) append_op(b, op);
        }
        if (P->pos == before) P->pos++;   /* guarantee progress */
    }
}

static int enter_nesting(Parser *P, SrcLoc loc)
{
    if (++P->nesting > MAX_NESTING) {
        P_error(P, DIAG_NEST_DEPTH, loc, "regions nested deeper than %d", MAX_NESTING);
        P->fatal = 1;
        return 0;
    }
    return 1;
}

/* After a block label: `(%a: T, ...)` (optional) and the ':'; the arguments are appended to argv from *na on (at most
   64 in all), owned by b. */
static void label_args(Parser *P, Block *b, Value **argv, uint32_t *na)
{
    int over = 0;
    if (P_eat(P, TK_LPAREN) && !P_is(P, TK_RPAREN)) {
        do {
            Token *nt = P_cur(P);
            if (!P_expect(P, TK_SSA, "a block argument")) break;
            if (!P_expect(P, TK_COLON, "':'")) break;
            const Type *ty = P_parse_type(P);
            if (!ty) break;
            P_skip_loc(P);
            if (P_list_room(P, *na, 64, P_loc(P, nt), "block arguments", &over)) {
                argv[*na] = P_new_value(P, ARENA_NEW(&P->m->arena, Value), ty, P_def_str(P, nt), P_loc(P, nt));
                argv[*na]->owner = b;
                argv[*na]->index = (uint16_t)*na;
                (*na)++;
            }
        } while (P_eat(P, TK_COMMA));
        P_expect(P, TK_RPAREN, "')'");
    } else if (P_is(P, TK_RPAREN)) {
        P->pos++;
    }
    P_expect(P, TK_COLON, "':' after the block label");
}

/* b's arguments are argv[0..na), defined in the current scope under their names. */
static void set_block_args(Parser *P, Block *b, Value **argv, uint32_t na)
{
    b->args = arena_dup(&P->m->arena, argv, sizeof(Value *) * (na ? na : 1));
    b->nargs = na;
    for (uint32_t i = 0; i < na; i++)
        if (argv[i]->name) P_scope_def(P, P_name_index(P, argv[i]->name, (uint32_t)strlen(argv[i]->name), 1), &b->args[i], 1,
                                     argv[i]->loc);
}

/* '{' [^bb(args):] ops '}' with optional typed block arguments (for regions that accept them). Arguments
   given by the op (argtypes/argnames) are located at arglocs (where their names are written), else at
   the region's '{'. */
static Region *parse_region(Parser *P, Op *parent, const Type *const *argtypes, const char *const *argnames,
                            const SrcLoc *arglocs, uint32_t nargs, int allow_label)
{
    Region *r = new_region(P, parent);
    Block *b = r->block;
    unsigned ri = parent ? parent->nregions : 0;
    b->loc = P_loc(P, P_cur(P));
    while (cm_pending(P, P->pos)) cm_attach(P, parent, CM_BEFORE, 0);   /* inside the op's header */
    if (!P_expect(P, TK_LBRACE, "'{' opening a region")) return r;
    if (!enter_nesting(P, b->loc)) return r;
    P_scope_push(P);
    Value *argv[64];
    uint32_t na = 0;
    if (cm_pending(P, P->pos) && !P->lx.cm[P->cmnext].own_line) cm_attach(P, parent, CM_OPEN, ri);
    Value *given = nargs ? arena_alloc(&P->m->arena, sizeof(Value) * (nargs < 64 ? nargs : 64)) : NULL;
    for (uint32_t i = 0; i < nargs && i < 64; i++) {
        argv[na] = P_new_value(P, &given[i], argtypes[i], argnames[i], arglocs ? arglocs[i] : b->loc);
        argv[na]->owner = b;
        argv[na]->index = (uint16_t)na;
        na++;
    }
    if (allow_label && P_is(P, TK_BLOCK)) {
        P->pos++;
        label_args(P, b, argv, &na);
        if (cm_pending(P, P->pos) && !P->lx.cm[P->cmnext].own_line) cm_attach(P, parent, CM_OPEN, ri);
    }
    set_block_args(P, b, argv, na);
    parse_block_body(P, b);
    while (cm_pending(P, P->pos)) cm_attach(P, parent, CM_END, ri);
    P_expect(P, TK_RBRACE, "'}' closing the region");
    P_scope_pop(P);
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
    add_region(P, op, parse_region(P, op, NULL, NULL, NULL, 0, 0));
    return op;
}

/* After an error in a function's parameter list: the rest of the header and the body go unparsed (the body
   would only repeat the error as uses of undefined parameters). */
static void skip_func(Parser *P)
{
    recover(P);
    if (P->fatal || !P_eat(P, TK_RPAREN)) return;
    while (!P_is(P, TK_EOF) && !P_is(P, TK_LBRACE) && !P_cur(P)->nl_before) {
        if (P_is(P, TK_LPAREN)) P_skip_balanced(P);
        else if (P_eat_ident(P, "attributes") && P_is(P, TK_LBRACE)) P_skip_balanced(P);
        else P->pos++;
    }
    if (P_is(P, TK_LBRACE) && !P_cur(P)->nl_before) P_skip_balanced(P);
}

/* func.func [private] @name(%a: T [{attrs}], ...) [-> T | (T, ...)] [attributes {...}] [{ body }] */
static void cfg_structurize(Parser *P, Region *body, const Type *const *rt, uint32_t nrt);
static void cfg_start(Parser *P, Block *entry);

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
    SrcLoc argl[64];
    uint32_t nin = 0, nout = 0;
    int over_out = 0;
    if (!P_expect(P, TK_LPAREN, "'(' opening the parameter list")) { recover(P); return NULL; }
    if (!P_is(P, TK_RPAREN)) {
        do {
            Token *an = P_cur(P);
            const char *aname = NULL;
            if (an->kind == TK_SSA) {
                aname = P_def_str(P, an);
                P->pos++;
                if (!P_expect(P, TK_COLON, "':' after a parameter name")) { recover(P); return NULL; }
            }
            const Type *ty = P_parse_type(P);
            if (!ty) { skip_func(P); return NULL; }
            if (P_is(P, TK_LBRACE)) {   /* per-argument attributes are accepted and dropped */
                Attr *tmp = NULL;
                uint32_t nt2 = 0;
                P_parse_attr_dict(P, &tmp, &nt2);
            }
            P_skip_loc(P);
            if (nin >= 64) { P_error(P, DIAG_PARSE_LIMIT, P_loc(P, an), "more than 64 parameters"); recover(P); return NULL; }
            names[nin] = aname;
            argl[nin] = P_loc(P, an);
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
                    else if (!over_out++) P_error(P, DIAG_PARSE_LIMIT, P_loc(P, P_tok(P, P->pos - 1)), "more than 64 results");
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
        size_t save_floor = P->floor;
        P->floor = P->nscope;
        uint32_t save_cfg = P->cfg_nesting;
        P->cfg_nesting = P->nesting + 1;
        P->ncfg = 0;
        Region *body = parse_region(P, op, in, names, argl, nin, 0);
        P->cfg_nesting = save_cfg;
        /* a branch with no labelled block to go to: the graph is the entry alone (its destination is reported) */
        if (!P->ncfg && body->block->last && op_info[body->block->last->kind].syn == SYN_CF) cfg_start(P, body->block);
        if (P->ncfg) cfg_structurize(P, body, out, nout);
        P->ncfg = 0;
        add_region(P, op, body);
        P->floor = save_floor;
    }
    return op;
}

/* `%a, %b, ...`: appends the values to v/vl from *n on, at most cap in all; the first value over the cap is
   E-PARSE-LIMIT (never a silent truncation), the rest are parsed and dropped. */
static void parse_value_list(Parser *P, Value **v, SrcLoc *vl, uint32_t *n, uint32_t cap)
{
    int over = 0;
    do {
        SrcLoc l;
        Value *x = P_use_at(P, &l);
        if (x && *n < cap) { vl[*n] = l; v[(*n)++] = x; }
        else if (x && !over++) P_error(P, DIAG_PARSE_LIMIT, l, "more than %u values in one list", cap);
    } while (P_eat(P, TK_COMMA));
}

/* The operands of a terminator, `[%a, ... [: T, ...]]` on the op's line: appended as parse_value_list does; the
   types written are checked against the values from index `first` on (`ret`: they are returned values). */
static void parse_typed_values(Parser *P, Value **v, SrcLoc *vl, uint32_t *n, uint32_t cap, uint32_t first, int ret)
{
    if (!P_is(P, TK_SSA) || P_cur(P)->nl_before) return;
    parse_value_list(P, v, vl, n, cap);
    if (!P_eat(P, TK_COLON)) return;
    uint32_t k = first;
    do {
        const Type *t = P_parse_type(P);
        if (t && k < *n && v[k]->type != t)
            P_error(P, DIAG_PARSE_TYPE_MISMATCH, vl[k], "%s %u has a different type%s", ret ? "returned value" : "value", k,
                    ret ? "" : " than written");
        k++;
    } while (P_eat(P, TK_COMMA));
}

/* [func.]return [%a, ... : T, ...] */
static Op *parse_return(Parser *P, SrcLoc loc, int kind)
{
    Op *op = P_new_op(P, kind, loc);
    P_set_results(P, op, NULL, 0);
    Value *v[64];
    SrcLoc vl[64];
    uint32_t n = 0;
    parse_typed_values(P, v, vl, &n, 64, 0, 1);
    P_set_operands(P, op, v, vl, n);
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
    SrcLoc vl[64];
    uint32_t n = 0;
    P_expect(P, TK_LPAREN, "'('");
    if (!P_is(P, TK_RPAREN)) parse_value_list(P, v, vl, &n, 64);
    P_expect(P, TK_RPAREN, "')'");
    P_set_operands(P, op, v, vl, n);
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
    add_region(P, op, parse_region(P, op, NULL, NULL, NULL, 0, 0));
    parse_trailing_attrs(P, op);
    return op;
}

/* pto.strict_vecscope(%a, ...) { ^bb0(%x: T, ...): ... } : (T, ...) -> () */
static Op *parse_strict_vecscope(Parser *P, SrcLoc loc)
{
    Op *op = P_new_op(P, OP_STRICT_VECSCOPE, loc);
    P_set_results(P, op, NULL, 0);
    Value *v[64];
    SrcLoc vl[64];
    uint32_t n = 0;
    if (P_eat(P, TK_LPAREN)) {
        if (!P_is(P, TK_RPAREN)) parse_value_list(P, v, vl, &n, 64);
        P_expect(P, TK_RPAREN, "')'");
    }
    P_set_operands(P, op, v, vl, n);
    add_region(P, op, parse_region(P, op, NULL, NULL, NULL, 0, 1));
    if (P_eat(P, TK_COLON)) {
        const Type *ft = P_parse_type(P);
        if (ft && ft->kind == TY_FUNC) {
            if (ft->nin != n) P_error(P, DIAG_PARSE_TYPELIST, loc, "type list names %u captures, %u are passed", ft->nin, n);
            for (uint32_t i = 0; i < n && i < ft->nin; i++)
                if (v[i]->type != ft->params[i])
                    P_error(P, DIAG_PARSE_TYPE_MISMATCH, vl[i], "capture %u has a different type than the type list says", i);
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
    P_set_operands(P, op, v, NULL, n);
}

/* The operands of an op whose groups have the given sizes (seg[i] operands in group i, ng groups). */
static void set_group_operands_segs(Parser *P, Op *op, Value **v, uint32_t n, const uint32_t *seg, unsigned ng)
{
    const OpSig *sig = ctx_sig(P->ctx, op->kind);
    unsigned have = sig->ngroups ? sig->ngroups : 1;
    op->segs = ARENA_ARRAY(&P->m->arena, uint8_t, have);
    for (unsigned g = 0; g < ng && g < have; g++) op->segs[g] = (uint8_t)(seg[g] < 255 ? seg[g] : 255);
    P_set_operands(P, op, v, NULL, n);
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
        add_region(P, op, parse_region(P, op, NULL, NULL, NULL, 0, 0));
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
   llvm.getelementptr %p[C] : (!llvm.ptr) -> !llvm.ptr, T          (a constant index C: the attribute const_index)
   llvm.extractelement %v[%i : I] : vector<NxT>                     (T kept as the attribute elem_type) */
static Op *parse_llvm(Parser *P, int kind, SrcLoc loc)
{
    Op *op = P_new_op(P, kind, loc);
    Value *v[2];
    const Type *rt = NULL, *et = NULL;
    int cidx = 0;   /* a constant GEP index (its value in the attribute const_index) */
    if (!(v[0] = P_use(P))) { recover(P); return NULL; }
    if (kind == OP_LLVM_ALLOCA) {
        if (!P_expect_kw(P, "x") || !(et = P_parse_type(P))) { recover(P); return NULL; }
    } else if (kind == OP_LLVM_GEP && P_at(P, 1)->kind == TK_INT && P_is(P, TK_LBRACK)) {
        int64_t c;
        Token *t = P_at(P, 1);
        if (!P_int_literal(P, t, &c)) {
            P_error(P, DIAG_PARSE_EXPECTED, P_loc(P, t), "the constant index does not fit in 64 bits");
            recover(P);
            return NULL;
        }
        P->pos += 2;
        Attr a = mk_attr(P, "const_index", AT_INT);
        a.i = c;
        push_attr(P, op, a);
        cidx = 1;
        if (!P_expect(P, TK_RBRACK, "']'")) { recover(P); return NULL; }
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
    uint32_t n = kind == OP_LLVM_ALLOCA || cidx ? 1 : 2;
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

/* pto.subview %src[%i, %j] sizes [R, C] (valid [%vr, %vc])? {attrs}? : T -> T — the offsets and valid values are
   operands (groups src, row, col, valid_row, valid_col), the sizes the integer-list attribute `sizes`. */
static void set_group_operands_segs(Parser *P, Op *op, Value **v, uint32_t n, const uint32_t *seg, unsigned ng);

static Op *parse_subview(Parser *P, int kind, SrcLoc loc)
{
    Op *op = P_new_op(P, kind, loc);
    Value *v[5];
    uint32_t n = 0;
    int64_t sz[2] = {0, 0};
    if (!(v[n++] = P_use(P)) || !P_expect(P, TK_LBRACK, "'[' and the offsets")) { recover(P); return NULL; }
    if (kind == OP_LOCAL_ARRAY_GET || kind == OP_LOCAL_ARRAY_SET) {
        /* pto.local_array_get %a[%i, ...] : A -> T;  pto.local_array_set %a[%i, ...], %v : A, T */
        Value *w[7];
        uint32_t m = 0;
        w[m++] = v[0];
        if (!P_is(P, TK_RBRACK))
            do {
                if (m == 6) { P_error(P, DIAG_PARSE_OPERANDS, P_loc(P, P_cur(P)), "at most 5 indices"); recover(P); return NULL; }
                if (!(w[m++] = P_use(P))) { recover(P); return NULL; }
            } while (P_eat(P, TK_COMMA));
        if (!P_expect(P, TK_RBRACK, "']'")) { recover(P); return NULL; }
        uint32_t ni = m - 1;
        if (kind == OP_LOCAL_ARRAY_SET && (!P_expect(P, TK_COMMA, "', ' and the value") || !(w[m++] = P_use(P)))) {
            recover(P);
            return NULL;
        }
        if (P_is(P, TK_LBRACE)) P_parse_attr_dict(P, &op->attrs, &op->nattrs);
        if (!P_expect(P, TK_COLON, "':' and the types")) { recover(P); return NULL; }
        const Type *at = P_parse_type(P), *t2 = NULL;
        /* the compiler's eventid_array_get / _set write only the array type: the element type (index) is implied */
        int implied = at && at->kind == TY_LOCAL_ARRAY && at->space == 1 &&
                      !P_is(P, kind == OP_LOCAL_ARRAY_GET ? TK_ARROW : TK_COMMA);
        if (implied) t2 = at->elem;
        else if (!at || !P_expect(P, kind == OP_LOCAL_ARRAY_GET ? TK_ARROW : TK_COMMA, kind == OP_LOCAL_ARRAY_GET ? "'->' "
                                  "and the result type" : "',' and the value's type") || !(t2 = P_parse_type(P))) {
            recover(P);
            return NULL;
        }
        if (at != w[0]->type) P_error(P, DIAG_PARSE_TYPE_MISMATCH, loc, "the array has a different type than written");
        if (kind == OP_LOCAL_ARRAY_SET && t2 != w[m - 1]->type)
            P_error(P, DIAG_PARSE_TYPE_MISMATCH, loc, "the value has a different type than written");
        uint32_t segs[3] = {1, ni, 1};
        set_group_operands_segs(P, op, w, m, segs, kind == OP_LOCAL_ARRAY_SET ? 3 : 2);
        if (kind == OP_LOCAL_ARRAY_GET) P_set_results(P, op, &t2, 1);
        return op;
    }
    if (kind == OP_MULTI_TILE_GET) {   /* pto.multi_tile_get %m[%k] : M -> T */
        if (!(v[n++] = P_use(P)) || !P_expect(P, TK_RBRACK, "']'") || !P_expect(P, TK_COLON, "':' and the types")) {
            recover(P);
            return NULL;
        }
        const Type *mt = P_parse_type(P), *tt = NULL;
        if (!mt || !P_expect(P, TK_ARROW, "'->' and the result type") || !(tt = P_parse_type(P))) { recover(P); return NULL; }
        if (mt != v[0]->type) P_error(P, DIAG_PARSE_TYPE_MISMATCH, loc, "the source has a different type than written");
        set_group_operands(P, op, v, n);
        P_set_results(P, op, &tt, 1);
        return op;
    }
    for (int i = 0; i < 2; i++) {
        if ((i && !P_expect(P, TK_COMMA, "','")) || !(v[n++] = P_use(P))) { recover(P); return NULL; }
    }
    if (!P_expect(P, TK_RBRACK, "']'") || !P_expect_kw(P, "sizes") || !P_expect(P, TK_LBRACK, "'['")) {
        recover(P);
        return NULL;
    }
    for (int i = 0; i < 2; i++) {
        if (i && !P_expect(P, TK_COMMA, "','")) { recover(P); return NULL; }
        Token *t = P_cur(P);
        if (!P_is(P, TK_INT) || !P_int_literal(P, t, &sz[i])) {
            P_error(P, DIAG_PARSE_OPERANDS, P_loc(P, t), "expected an integer size in 'sizes [R, C]'");
            recover(P);
            return NULL;
        }
        P->pos++;
    }
    if (!P_expect(P, TK_RBRACK, "']'")) { recover(P); return NULL; }
    if (P_eat_ident(P, "valid")) {
        if (!P_expect(P, TK_LBRACK, "'['") || !(v[n++] = P_use(P)) || !P_expect(P, TK_COMMA, "','") ||
            !(v[n++] = P_use(P)) || !P_expect(P, TK_RBRACK, "']'")) {
            recover(P);
            return NULL;
        }
    }
    if (P_is(P, TK_LBRACE)) P_parse_attr_dict(P, &op->attrs, &op->nattrs);
    if (!P_expect(P, TK_COLON, "':' and the types")) { recover(P); return NULL; }
    const Type *st = P_parse_type(P), *rt = NULL;
    if (!st) { recover(P); return NULL; }
    if (P_is(P, TK_ARROW)) {
        P->pos++;
        if (!(rt = P_parse_type(P))) { recover(P); return NULL; }
    } else if (st->kind == TY_TILE_BUF) {
        /* `: source type` alone (the tile spec's pto.subset form): the window is the source's config at rows x cols
           = sizes, its valid shape the sizes, or dynamic when `valid [..]` gives it */
        Type k = *st;
        k.dims[0] = sz[0];
        k.dims[1] = sz[1];
        k.dims[2] = n > 3 ? TILE_DYN : sz[0];
        k.dims[3] = n > 3 ? TILE_DYN : sz[1];
        rt = ty_tile_buf(P->ctx->types, &k);
    } else {
        P_expect(P, TK_ARROW, "'->' and the result type");
        recover(P);
        return NULL;
    }
    if (st != v[0]->type) P_error(P, DIAG_PARSE_TYPE_MISMATCH, loc, "the source has a different type than written");
    Attr a = mk_attr(P, "sizes", AT_INTS);
    a.ints = arena_dup(&P->m->arena, sz, sizeof sz);
    a.nints = 2;
    push_attr(P, op, a);
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
    const char *ivname = P_def_str(P, ivt);
    if (!P_expect(P, TK_EQUAL, "'='")) { recover(P); return NULL; }
    Value *v[68];
    SrcLoc vl[68];
    uint32_t n = 0;
    v[n] = P_use_at(P, &vl[n]);
    n++;
    if (!P_expect_kw(P, "to")) { recover(P); return NULL; }
    v[n] = P_use_at(P, &vl[n]);
    n++;
    if (!P_expect_kw(P, "step")) { recover(P); return NULL; }
    v[n] = P_use_at(P, &vl[n]);
    n++;
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
    int over = 0;
    if (P_eat_ident(P, "iter_args")) {
        P_expect(P, TK_LPAREN, "'('");
        if (!P_is(P, TK_RPAREN)) {
            do {
                Token *an = P_cur(P);
                if (!P_expect(P, TK_SSA, "an iteration argument")) break;
                P_expect(P, TK_EQUAL, "'='");
                SrcLoc l;
                Value *init = P_use_at(P, &l);
                if (n >= 67) { P_error(P, DIAG_PARSE_LIMIT, loc, "too many iter_args"); break; }
                vl[n] = l;
                v[n++] = init;
                names[ni] = P_def_str(P, an);
                types[ni++] = init ? init->type : NULL;
            } while (P_eat(P, TK_COMMA));
        }
        P_expect(P, TK_RPAREN, "')'");
        if (P_eat(P, TK_ARROW)) {
            int paren = P_eat(P, TK_LPAREN);
            do {
                SrcLoc tl = P_loc(P, P_cur(P));
                const Type *t = P_parse_type(P);
                if (t && P_list_room(P, nr, 64, tl, "result types", &over)) rtypes[nr++] = t;
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
            P_error(P, DIAG_PARSE_TYPE_MISMATCH, vl[i + 2], "iter_arg %u is initialised with a value of another type", i - 1);
    if (nres && nres != nr) P_error(P, DIAG_PARSE_RESULTS, loc, "scf.for yields %u values but %u names are bound", nr, nres);
    if (!ivty) { recover(P); return NULL; }
    P_set_operands(P, op, v, vl, n);
    P_set_results(P, op, rtypes, nr);
    add_region(P, op, parse_region(P, op, types, names, NULL, ni, 0));
    parse_trailing_attrs(P, op);
    return op;
}

/* scf.if %c [-> (T, ...)] { ... } [else { ... }] */
static Op *parse_scf_if(Parser *P, SrcLoc loc, uint32_t nres)
{
    Op *op = P_new_op(P, OP_SCF_IF, loc);
    SrcLoc cl;
    Value *c = P_use_at(P, &cl);
    if (!c) { recover(P); return NULL; }
    P_set_operands(P, op, &c, &cl, 1);
    const Type *rt[64];
    uint32_t nr = 0;
    int over = 0;
    if (P_eat(P, TK_ARROW)) {
        int paren = P_eat(P, TK_LPAREN);
        do {
            SrcLoc tl = P_loc(P, P_cur(P));
            const Type *t = P_parse_type(P);
            if (t && P_list_room(P, nr, 64, tl, "result types", &over)) rt[nr++] = t;
        } while (P_eat(P, TK_COMMA));
        if (paren) P_expect(P, TK_RPAREN, "')'");
    }
    if (nres && nres != nr) P_error(P, DIAG_PARSE_RESULTS, loc, "scf.if produces %u values but %u names are bound", nr, nres);
    P_set_results(P, op, rt, nr);
    add_region(P, op, parse_region(P, op, NULL, NULL, NULL, 0, 0));
    if (P_eat_ident(P, "else")) add_region(P, op, parse_region(P, op, NULL, NULL, NULL, 0, 0));
    parse_trailing_attrs(P, op);
    return op;
}

/* scf.while (%a = %x, ...) : (T...) -> (R...) { before } do { after } */
static Op *parse_scf_while(Parser *P, SrcLoc loc, uint32_t nres)
{
    Op *op = P_new_op(P, OP_SCF_WHILE, loc);
    Value *v[64];
    SrcLoc vl[64];
    const char *names[64];
    uint32_t n = 0;
    P_expect(P, TK_LPAREN, "'('");
    if (!P_is(P, TK_RPAREN)) {
        do {
            Token *an = P_cur(P);
            if (!P_expect(P, TK_SSA, "a loop-carried value")) break;
            P_expect(P, TK_EQUAL, "'='");
            SrcLoc l;
            Value *x = P_use_at(P, &l);
            if (n < 64 && x) { names[n] = P_def_str(P, an); vl[n] = l; v[n++] = x; }
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
    for (uint32_t i = 0; i < n; i++)   /* the before region's arguments take the written types */
        if (v[i]->type != ft->params[i]) {
            char b[96];
            ty_format(v[i]->type, b, sizeof b);
            P_error(P, DIAG_PARSE_TYPE_MISMATCH, vl[i], "loop-carried value %u is initialised with a value of type %s, not "
                    "the written type", i, b);
            break;
        }
    P_set_operands(P, op, v, vl, n);
    P_set_results(P, op, ft->params + ft->nin, ft->nout);
    add_region(P, op, parse_region(P, op, ft->params, names, NULL, n, 1));
    if (!P_eat_ident(P, "do")) {
        P_error(P, DIAG_PARSE_EXPECTED, P_loc(P, P_cur(P)), "expected 'do' and the loop body after the condition region");
        recover(P);
        return op;
    }
    add_region(P, op, parse_region(P, op, ft->params + ft->nin, NULL, NULL, 0, 1));
    parse_trailing_attrs(P, op);
    return op;
}

/* scf.yield [%a, ... : T, ...]  /  scf.condition(%c) [%a, ... : T, ...] */
static Op *parse_values_terminator(Parser *P, int kind, SrcLoc loc)
{
    Op *op = P_new_op(P, kind, loc);
    P_set_results(P, op, NULL, 0);
    Value *v[65];
    SrcLoc vl[65];
    uint32_t n = 0;
    if (kind == OP_SCF_CONDITION) {
        P_expect(P, TK_LPAREN, "'('");
        v[n] = P_use_at(P, &vl[n]);
        n++;
        P_expect(P, TK_RPAREN, "')'");
        if (!v[0]) { recover(P); return NULL; }
    }
    parse_typed_values(P, v, vl, &n, 65, kind == OP_SCF_CONDITION, 0);
    P_set_operands(P, op, v, vl, n);
    return op;
}

/* ------------------------------------------------------------------ generic forms of the scf ops */

/* MLIR's generic spelling of the region ops and their terminators, as the compiler's tests write them:
   "scf.for"(%lb, %ub, %step, %init...) ({ ^bb0(%iv: T, %a: T...): ... }) {attrs} : (T...) -> (R...);
   "scf.if"(%c) ({ then }, { else }) : (i1) -> (R...); "scf.while"(%x...) ({ ^bb0(...): before }, { ^bb0(...):
   after }) : (T...) -> (R...); "scf.yield"(%a...) : (T...) -> (); "scf.condition"(%c, %a...) : (i1, T...) -> ().
   The regions' arguments are their entry labels'; the ops are then what the custom forms build. */

/* "(%a, %b, ...)" into v/vl (at most cap); 0, or -1 after an error. */
static int generic_operands(Parser *P, Value **v, SrcLoc *vl, uint32_t *n, uint32_t cap, SrcLoc loc)
{
    if (!P_expect(P, TK_LPAREN, "'('")) return -1;
    if (!P_is(P, TK_RPAREN)) {
        do {
            if (*n >= cap) {
                P_error(P, DIAG_PARSE_LIMIT, loc, "too many operands");
                return -1;
            }
            if (!(v[*n] = P_use_at(P, &vl[*n]))) return -1;
            (*n)++;
        } while (P_eat(P, TK_COMMA));
    }
    return P_expect(P, TK_RPAREN, "')'") ? 0 : -1;
}

/* "[{attrs}] : (T...) -> (R...)" after the operands and regions, checked against the n operands: the function type,
   or NULL after an error. */
static const Type *generic_tail(Parser *P, Op *op, Value **v, const SrcLoc *vl, uint32_t n)
{
    return bind_generic_functype(P, &op->attrs, &op->nattrs, v, vl, n);
}

/* The types of region r's entry arguments against want[0..n): a located error when they differ. */
static void generic_block_args(Parser *P, const Region *r, const Type *const *want, uint32_t n, const char *what)
{
    const Block *b = r->block;
    int ok = b->nargs == n;
    for (uint32_t i = 0; ok && i < n; i++) ok = b->args[i]->type == want[i];
    if (!ok)
        P_error(P, DIAG_PARSE_TYPE_MISMATCH, b->nargs ? b->args[0]->loc : b->loc, "the %s takes %u argument(s) of the "
                "types its operands give", what, n);
}

static Op *parse_generic_scf(Parser *P, int kind, SrcLoc loc, uint32_t nres)
{
    Op *op = P_new_op(P, kind, loc);
    Value *v[68];
    SrcLoc vl[68];
    uint32_t n = 0;
    int term = kind == OP_SCF_YIELD || kind == OP_SCF_CONDITION;
    if (generic_operands(P, v, vl, &n, 67, loc)) { recover(P); return NULL; }
    if ((kind == OP_SCF_FOR && n < 3) || (kind == OP_SCF_IF && n != 1) || (kind == OP_SCF_CONDITION && n < 1)) {
        P_error(P, DIAG_PARSE_OPERANDS, loc, kind == OP_SCF_FOR ? "'scf.for' takes its lower bound, upper bound, step "
                "and its iteration arguments' initial values" : kind == OP_SCF_IF ? "'scf.if' takes one condition"
                : "'scf.condition' takes the condition first");
        recover(P);
        return NULL;
    }
    P_set_operands(P, op, v, vl, n);
    Region *rg[2] = {NULL, NULL};
    if (!term) {
        if (!P_expect(P, TK_LPAREN, "'(' and the op's regions")) { recover(P); return NULL; }
        for (int i = 0; i < 2; i++) {
            if (i && !P_eat(P, TK_COMMA)) break;
            rg[i] = parse_region(P, op, NULL, NULL, NULL, 0, 1);
            add_region(P, op, rg[i]);
        }
        if (!P_expect(P, TK_RPAREN, "')' closing the regions")) { recover(P); return NULL; }
    }
    const Type *ft = generic_tail(P, op, v, vl, n);
    if (!ft) {   /* at the next line already when the type parsed but did not fit */
        if (!P_cur(P)->nl_before) recover(P);
        return NULL;
    }
    const Type *const *res = ft->params + ft->nin;
    if (term && ft->nout) P_error(P, DIAG_PARSE_RESULTS, loc, "'%s' has no results", op_info[kind].name);
    if (!term && nres && nres != ft->nout)
        P_error(P, DIAG_PARSE_RESULTS, loc, "'%s' produces %u values but %u names are bound", op_info[kind].name,
                ft->nout, nres);
    if (kind == OP_SCF_FOR) {   /* the body takes the induction variable and the iteration arguments */
        const Type *want[67];
        for (uint32_t i = 0; i + 2 < n; i++) want[i] = v[i + 2]->type;
        want[0] = v[0]->type;
        if (rg[1]) P_error(P, DIAG_PARSE_EXPECTED, rg[1]->block->loc, "'scf.for' has one region");
        generic_block_args(P, rg[0], want, n - 2, "loop body");
        if (ft->nout != n - 3) P_error(P, DIAG_PARSE_RESULTS, loc, "'scf.for' yields %u values for %u iteration "
                                       "arguments", ft->nout, n - 3);
        for (uint32_t i = 0; i < ft->nout && i + 3 < n; i++)
            if (res[i] != v[i + 3]->type)
                P_error(P, DIAG_PARSE_TYPE_MISMATCH, vl[i + 3], "iteration argument %u is initialised with a value of "
                        "another type than the result", i);
    } else if (kind == OP_SCF_WHILE) {   /* before: the operands' types; after: the results' */
        generic_block_args(P, rg[0], ft->params, n, "condition region");
        if (!rg[1]) P_error(P, DIAG_PARSE_EXPECTED, loc, "'scf.while' has a condition region and a body");
        else generic_block_args(P, rg[1], res, ft->nout, "loop body");
    } else if (kind == OP_SCF_IF) {
        generic_block_args(P, rg[0], NULL, 0, "then region");
        if (rg[1] && !rg[1]->block->first && !ft->nout) op->nregions = 1;   /* an empty else region: none */
        else if (rg[1]) generic_block_args(P, rg[1], NULL, 0, "else region");
    }
    P_set_results(P, op, term ? NULL : res, term ? 0 : ft->nout);
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
        P_skip_balanced(P);
        a.kind = AT_RAW;
        a.s = P_span_text(P, start, P->pos);
    } else if (P_is_ident(P, "inf") || P_is_ident(P, "nan")) {
        a.kind = AT_FLOAT;
        a.s = P_text(P, t);
        a.f = t->s[0] == 'i' ? 1.0 / 0.0 : 0.0 / 0.0;
        P->pos++;
    } else {
        char got[64];
        P_tok_desc(t, got, sizeof got);
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
    if (a.kind == AT_INT && ty->kind == TY_FLOAT && t->kind == TK_INT) {
        a.ty = ty;
        P_float_int_literal(P, t, &a);
    }
    /* a finite literal that rounds to infinity in its type is an error, as in MLIR (nearest-even, the
       literal first read as a double) */
    if (a.kind == AT_FLOAT && a.s && isfinite(a.f) && ty->kind == TY_FLOAT && elem_kind(ty) != EK_BAD &&
        ty_bits(ty) <= 32) {
        NumFormat f = ek_fmt(elem_kind(ty));
        uint64_t r = num_convert(NUM_F64, num_f64_to_bits(a.f), f, NUM_RND_R, false);
        uint64_t mx = num_convert(NUM_F64, num_f64_to_bits(1e300), f, NUM_RND_Z, false);   /* the largest finite */
        if ((r & ~(1ull << (num_format_bits(f) - 1))) > (mx & ~(1ull << (num_format_bits(f) - 1)))) {
            char tb[48];
            ty_format(ty, tb, sizeof tb);
            P_error(P, DIAG_LEX_NUMBER, a.loc, "float literal %s is out of range for %s (it would round to infinity)", a.s, tb);
        }
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
        if (P_is(P, TK_LANGLE)) P_skip_balanced(P);
        Attr a = mk_attr(P, "modifier", AT_RAW);
        a.s = P_span_text(P, s, P->pos);
        push_attr(P, op, a);
    }
}

static Op *parse_arith(Parser *P, int kind, SrcLoc loc)
{
    OpSyntax syn = op_info[kind].syn;
    Op *op = P_new_op(P, kind, loc);
    Value *v[3];
    SrcLoc vl[3];
    uint32_t n = 0;
    int pred = -1;
    if (syn == SYN_ARITH_CMP) {
        Token *t = P_cur(P);
        int set = kind == OP_ARITH_CMPI ? TS_ARITHCMPI : TS_ARITHCMPF;
        if (t->kind == TK_IDENT || t->kind == TK_STRING) pred = P_tok_lookup(P, set, t->s, t->len);
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
        v[n] = P_use_at(P, &vl[n]);
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
        if (!P_expect_kw(P, "to")) { recover(P); return NULL; }
        rt = P_parse_type(P);
        if (!rt) { recover(P); return NULL; }
        if (v[0]->type != t1) P_error(P, DIAG_PARSE_TYPE_MISMATCH, vl[0], "operand type differs from the written source type");
    } else if (syn == SYN_ARITH_SELECT) {
        if (P_eat(P, TK_COMMA)) {   /* select %c, %a, %b : i1, T */
            rt = P_parse_type(P);
            if (!rt) { recover(P); return NULL; }
        }
        if (v[1]->type != rt || v[2]->type != rt)
            P_error(P, DIAG_PARSE_TYPE_MISMATCH, vl[v[1]->type != rt ? 1 : 2], "select operands must have the written type");
    } else {
        for (uint32_t i = 0; i < n; i++)
            if (v[i]->type != t1) {
                char b[96];
                ty_format(v[i]->type, b, sizeof b);
                P_error(P, DIAG_PARSE_TYPE_MISMATCH, vl[i], "operand %u has type %s, not the written type", i, b);
                break;
            }
        if (syn == SYN_ARITH_CMP) rt = ty_int(P->ctx->types, 1, SIGN_LESS);
    }
    P_set_operands(P, op, v, vl, n);
    P_set_results(P, op, &rt, 1);
    return op;
}

/* ------------------------------------------------------------------ op dispatch */

/* Op names and aliases, hashed on the first lookup (the table has a few hundred rows). */
static int lookup_op(Parser *P, const char *s, uint32_t n)
{
    if (!P->ops.s) {
        static const struct { const char *name; int kind; } aliases[] = {
#define OP(id, name, fam, pipe, syn, flags, sig)
#define ALIAS(name, id) {name, OP_##id},
#include "isa/ops.def"
#undef OP
#undef ALIAS
        };
        P_sym_init(P->lx.oom, &P->ops, OP__COUNT + (uint32_t)(sizeof aliases / sizeof aliases[0]));
        for (int k = 0; k < OP__COUNT; k++) P_sym_add(&P->ops, op_info[k].name, 0, k);
        for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) P_sym_add(&P->ops, aliases[i].name, 0, aliases[i].kind);
    }
    return P_sym_find(&P->ops, s, n, 0);
}

/* "; did you mean 'pto.vadd'?" for an unknown op name, or "". */
static void suggest_op(Parser *P, const char *s, uint32_t n, char *buf, size_t bn)
{
    buf[0] = 0;
    char pre[128];
    if (n + 4 < sizeof pre && memchr(s, '.', n) == NULL) {   /* vadd -> pto.vadd */
        snprintf(pre, sizeof pre, "pto.%.*s", (int)n, s);
        if (lookup_op(P, pre, n + 4) >= 0) {
            snprintf(buf, bn, "; did you mean '%s'?", pre);
            return;
        }
    }
    const char *names[OP__COUNT];
    for (int k = 0; k < OP__COUNT; k++) names[k] = op_info[k].name;
    const char *best = P_suggest(s, n, names, OP__COUNT);
    if (best) snprintf(buf, bn, "; did you mean '%s'?", best);
}

static int is_generic_name(Parser *P)
{
    return P_is(P, TK_STRING) && P_at(P, 1)->kind == TK_LPAREN;
}

/* ------------------------------------------------------------------ unstructured control flow */

/* A function body may be a graph of blocks (`^name(%a: T):` labels, `cf.br` / `cf.cond_br` terminators), as MLIR's
   cf dialect writes early exits and if/else merges. ptosim's IR has single-block regions, so the parser turns an
   acyclic graph into structured control flow: a cf.cond_br becomes an scf.if whose branches run the blocks up to
   the branch's immediate post-dominator (the merge); the merge's block arguments become the scf.if's results; a
   return reached in both branches (the exit as the merge) becomes one return after it. A graph that is not so
   nested (a loop, an early return inside a branch whose other side goes on, a merge reached from outside its
   branch) is E-REGION at the branch: ptosim does not structure it. */

typedef struct CfTerm { const char *dest[2]; SrcLoc dloc[2]; uint32_t nargs[2]; } CfTerm;   /* in Op.aux */
typedef struct CfgBlock { const char *name; SrcLoc loc; Block *b; uint8_t done; } CfgBlock;
enum { CFG_MAX = 63 };

/* cf.br ^dest(%a, ... : T, ...)  /  cf.cond_br %c, ^t(...), ^f(...) */
static Op *parse_cf(Parser *P, int kind, SrcLoc loc)
{
    if (!P->cfg_nesting || P->nesting != P->cfg_nesting) {
        P_error(P, DIAG_V_REGION, loc, "'%s' branches between the blocks of a function body; inside another region "
                "(scf.if, scf.for, a section, a vector scope) use that region's own control flow", op_info[kind].name);
        recover(P);
        return NULL;
    }
    Op *op = P_new_op(P, kind, loc);
    P_set_results(P, op, NULL, 0);
    CfTerm *t = ARENA_NEW(&P->m->arena, CfTerm);
    Value *v[130];
    SrcLoc vl[130];
    uint32_t n = 0;
    if (kind == OP_CF_COND_BR) {
        v[0] = P_use_at(P, &vl[0]);
        if (!v[0] || !P_expect(P, TK_COMMA, "',' after the condition")) { recover(P); return NULL; }
        n = 1;
    }
    for (int i = 0; i < (kind == OP_CF_COND_BR ? 2 : 1); i++) {
        if (i && !P_expect(P, TK_COMMA, "',' between the destinations")) { recover(P); return NULL; }
        Token *bt = P_cur(P);
        if (!P_expect(P, TK_BLOCK, "a block label '^name'")) { recover(P); return NULL; }
        t->dest[i] = ctx_intern(P->ctx, bt->s, bt->len);
        t->dloc[i] = P_loc(P, bt);
        uint32_t n0 = n;
        if (P_is(P, TK_LPAREN) && !P_cur(P)->nl_before) {
            P->pos++;
            if (!P_is(P, TK_RPAREN)) {
                parse_value_list(P, v, vl, &n, 129);
                if (P_eat(P, TK_COLON)) {
                    uint32_t k = n0;
                    do {
                        const Type *ty = P_parse_type(P);
                        if (ty && k < n && v[k]->type != ty)
                            P_error(P, DIAG_PARSE_TYPE_MISMATCH, vl[k], "branch argument %u has a different type than "
                                    "written", k - n0);
                        k++;
                    } while (P_eat(P, TK_COMMA));
                }
            }
            P_expect(P, TK_RPAREN, "')' closing the branch arguments");
        }
        t->nargs[i] = n - n0;
    }
    P_set_operands(P, op, v, vl, n);
    op->aux = t;
    return op;
}

/* The graph's entry block, unnamed: the body's own block. */
static void cfg_start(Parser *P, Block *entry)
{
    CfgBlock *c = ARENA_ARRAY(&P->m->arena, CfgBlock, CFG_MAX + 1);
    P->cfg = c;
    P->capcfg = CFG_MAX + 1;
    c[0] = (CfgBlock){NULL, entry->loc, entry, 0};
    P->ncfg = 1;
}

/* ^name(%a: T, ...): starts a new block of the function body's graph (the one before it is `cur`). */
static Block *cfg_block(Parser *P, Block *cur)
{
    Token *lt = P_cur(P);
    SrcLoc loc = P_loc(P, lt);
    P->pos++;
    if (P->ncfg == 0) cfg_start(P, cur);
    Block *b = ARENA_NEW(&P->m->arena, Block);
    b->parent = cur->parent;
    b->loc = loc;
    Value *argv[64];
    uint32_t na = 0;
    label_args(P, b, argv, &na);
    set_block_args(P, b, argv, na);
    if (P->ncfg >= P->capcfg) {
        if (P->ncfg == P->capcfg) P_error(P, DIAG_PARSE_LIMIT, loc, "more than %d blocks in one function body", CFG_MAX);
        P->ncfg = P->capcfg + 1;   /* reported once; the rest are parsed into this block and dropped */
        return b;
    }
    P->cfg[P->ncfg++] = (CfgBlock){ctx_intern(P->ctx, lt->s, lt->len), loc, b, 0};
    return b;
}

typedef struct Cfg {
    Parser *P;
    CfgBlock *bl;
    uint32_t n;                /* blocks; index n is the exit */
    int succ[CFG_MAX][2];      /* -1: none */
    uint64_t pdom[CFG_MAX + 1];
    const Type *const *rt;     /* the function's result types */
    uint32_t nrt;
    Op *ret;                   /* a return of the body, reused as the one after the structure */
    int failed;
} Cfg;

static int cfg_fail(Cfg *G, SrcLoc loc, const char *what)
{
    if (!G->failed)
        P_error(G->P, DIAG_V_REGION, loc, "unstructured control flow ptosim does not structure: %s (it turns an acyclic "
                "graph of blocks into scf.if when every branch's two sides meet again, or both end the function)", what);
    G->failed = 1;
    return -1;
}

static int cfg_find(Cfg *G, const char *name)
{
    for (uint32_t i = 1; i < G->n; i++)
        if (G->bl[i].name == name) return (int)i;
    return -1;
}

static Op *term_of(const Block *b) { return b->last; }

/* Moves b's ops but its terminator to the end of `to`. */
static void move_body(Block *b, Block *to)
{
    Op *t = term_of(b);
    for (Op *o = b->first, *nx; o && o != t; o = nx) {
        nx = o->next;
        o->next = o->prev = NULL;
        append_op(to, o);
    }
}

static void add_yield(Parser *P, Block *to, SrcLoc loc, Value **v, const SrcLoc *vl, uint32_t n)
{
    Op *y = P_new_op(P, OP_SCF_YIELD, loc);
    P_set_results(P, y, NULL, 0);
    P_set_operands(P, y, v, (SrcLoc *)vl, n);
    append_op(to, y);
}

/* The immediate post-dominator of block i (G->n: the exit): the strict post-dominator that all the others
   post-dominate, i.e. the one with the most post-dominators. */
static int ipdom(const Cfg *G, int i)
{
    int best = -1, bc = -1;
    for (uint32_t d = 0; d <= G->n; d++)
        if ((int)d != i && (G->pdom[i] >> d & 1)) {
            int c = __builtin_popcountll(G->pdom[d]);
            if (c > bc) { bc = c; best = (int)d; }
        }
    return best;
}

static int cfg_emit(Cfg *G, int b, int stop, Block *out, int top);

/* The branch edge to `d` with arguments args[0..na) inside a region ending at `stop`: its blocks, then the yield of
   stop's arguments. */
static int cfg_edge(Cfg *G, int d, Value **args, const SrcLoc *al, uint32_t na, int stop, Block *out, SrcLoc loc)
{
    if (d == stop) {
        add_yield(G->P, out, loc, args, al, na);
        return 0;
    }
    if (na) return cfg_fail(G, loc, "arguments passed to a block that is not where the two sides meet");
    return cfg_emit(G, d, stop, out, 0);
}

/* Emits block b and what follows it until `stop` (a block, or G->n: the exit) into `out`. */
static int cfg_emit(Cfg *G, int b, int stop, Block *out, int top)
{
    Parser *P = G->P;
    for (;;) {
        CfgBlock *B = &G->bl[b];
        if (B->done) return cfg_fail(G, B->loc, "a block reached from two places that do not meet at it");
        B->done = 1;
        move_body(B->b, out);
        Op *t = term_of(B->b);
        if (t->kind == OP_RETURN) {
            if (stop != (int)G->n) return cfg_fail(G, t->loc, "a return inside a branch whose other side goes on");
            if (top) {
                t->next = t->prev = NULL;
                append_op(out, t);
            } else {
                add_yield(P, out, t->loc, t->operands, NULL, t->noperands);
            }
            return 0;
        }
        CfTerm *ct = t->aux;
        if (t->kind == OP_CF_BR) {
            int d = G->succ[b][0];
            if (d == stop) {
                add_yield(P, out, t->loc, t->operands, NULL, t->noperands);
                return 0;
            }
            if (ct->nargs[0]) return cfg_fail(G, t->loc, "arguments passed to a block that is not where two sides meet");
            b = d;
            continue;
        }
        /* cf.cond_br: an scf.if up to the merge */
        int m = ipdom(G, b);
        if (m < 0) return cfg_fail(G, t->loc, "a branch whose sides never meet");
        if (m != (int)G->n && m != stop && !(G->pdom[m] >> stop & 1))
            return cfg_fail(G, t->loc, "a branch whose sides meet outside the enclosing branch");
        Op *ifop = P_new_op(P, OP_SCF_IF, t->loc);
        P_set_operands(P, ifop, t->operands, NULL, 1);
        if (m == (int)G->n) {
            if (stop != (int)G->n) return cfg_fail(G, t->loc, "a return inside a branch whose other side goes on");
            P_set_results(P, ifop, G->rt, G->nrt);
        } else if (m == stop) {   /* the enclosing branch's merge too: fresh results, yielded on below, named
                                     after the merge's arguments (name.id: printed and read back as one name) */
            Block *mb = G->bl[m].b;
            const Type *mt[64];
            for (uint32_t i = 0; i < mb->nargs && i < 64; i++) mt[i] = mb->args[i]->type;
            P_set_results(P, ifop, mt, mb->nargs < 64 ? mb->nargs : 64);
            for (uint32_t i = 0; i < ifop->nresults; i++) {
                char nm[96];
                snprintf(nm, sizeof nm, "%s.%u", mb->args[i]->name ? mb->args[i]->name : "m", ifop->results[i]->id);
                ifop->results[i]->name = ctx_intern(P->ctx, nm, strlen(nm));
            }
        } else {   /* the merge's block arguments are the scf.if's results */
            Block *mb = G->bl[m].b;
            P_set_results(P, ifop, NULL, 0);
            if (mb->nargs) {
                ifop->results = mb->args;
                ifop->nresults = mb->nargs;
                for (uint32_t i = 0; i < mb->nargs; i++) {
                    mb->args[i]->def = ifop;
                    mb->args[i]->owner = NULL;
                    mb->args[i]->index = (uint16_t)i;
                }
            }
        }
        Value **a = t->operands + 1;
        for (int side = 0; side < 2; side++) {
            Region *r = new_region(P, ifop);
            r->block->loc = t->loc;
            add_region(P, ifop, r);
            if (cfg_edge(G, G->succ[b][side], side ? a + ct->nargs[0] : a, NULL, ct->nargs[side], m, r->block, t->loc))
                return -1;
        }
        append_op(out, ifop);
        if (m == (int)G->n) {   /* both sides returned: one return (or yield) of the scf.if's results */
            if (top) {
                Op *r = G->ret;
                P_set_operands(P, r, ifop->results, NULL, ifop->nresults);
                r->next = r->prev = NULL;
                append_op(out, r);
            } else {
                add_yield(P, out, t->loc, ifop->results, NULL, ifop->nresults);
            }
            return 0;
        }
        if (m == stop) {
            add_yield(P, out, t->loc, ifop->results, NULL, ifop->nresults);
            return 0;
        }
        b = m;
    }
}

/* The blocks of fn's body, parsed into P->cfg: checked and structured into the body's one block. */
static void cfg_structurize(Parser *P, Region *body, const Type *const *rt, uint32_t nrt)
{
    if (P->ncfg > P->capcfg) return;   /* E-PARSE-LIMIT already */
    Cfg *G = arena_alloc(&P->m->arena, sizeof *G);
    memset(G, 0, sizeof *G);
    G->P = P;
    G->bl = P->cfg;
    G->n = P->ncfg;
    G->rt = rt;
    G->nrt = nrt;
    uint32_t n = G->n;
    /* terminators and successors */
    for (uint32_t i = 0; i < n; i++) {
        Op *t = term_of(G->bl[i].b);
        G->succ[i][0] = G->succ[i][1] = -1;
        if (!t || (t->kind != OP_RETURN && t->kind != OP_CF_BR && t->kind != OP_CF_COND_BR)) {
            P_error(P, DIAG_V_TERMINATOR, t ? t->loc : G->bl[i].loc, "a block of a function body ends with cf.br, "
                    "cf.cond_br or a return");
            return;
        }
        if (t->kind == OP_RETURN) {
            G->succ[i][0] = (int)n;
            if (!G->ret) G->ret = t;
            continue;
        }
        CfTerm *ct = t->aux;
        for (int k = 0; k < (t->kind == OP_CF_COND_BR ? 2 : 1); k++) {
            int d = cfg_find(G, ct->dest[k]);
            if (d < 0) {
                P_error(P, DIAG_PARSE_EXPECTED, ct->dloc[k], "no block '^%s' in this function body", ct->dest[k]);
                return;
            }
            uint32_t want = G->bl[d].b->nargs;
            if (ct->nargs[k] != want) {
                P_error(P, DIAG_PARSE_OPERANDS, ct->dloc[k], "block '^%s' takes %u argument(s), the branch passes %u",
                        ct->dest[k], want, ct->nargs[k]);
                return;
            }
            Value *const *args = t->operands + (t->kind == OP_CF_COND_BR ? 1 : 0) + (k ? ct->nargs[0] : 0);
            for (uint32_t j = 0; j < want; j++)
                if (args[j] && args[j]->type != G->bl[d].b->args[j]->type) {
                    P_error(P, DIAG_PARSE_TYPE_MISMATCH, ct->dloc[k], "argument %u of the branch to '^%s' has another "
                            "type than the block's", j, ct->dest[k]);
                    return;
                }
            if (d == 0) { cfg_fail(G, ct->dloc[k], "a branch back to the entry block (a loop)"); return; }
            G->succ[i][k] = d;
        }
    }
    if (!G->ret) { cfg_fail(G, G->bl[0].loc, "no block returns"); return; }
    /* a back edge (a loop) makes the graph cyclic: blocks are checked in an order where every edge goes forward */
    uint32_t order[CFG_MAX], no = 0, indeg[CFG_MAX] = {0};
    for (uint32_t i = 0; i < n; i++)
        for (int k = 0; k < 2; k++)
            if (G->succ[i][k] >= 0 && G->succ[i][k] < (int)n) indeg[G->succ[i][k]]++;
    uint32_t stack[CFG_MAX], ns = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!indeg[i]) stack[ns++] = i;
    while (ns) {
        uint32_t i = stack[--ns];
        order[no++] = i;
        for (int k = 0; k < 2; k++) {
            int d = G->succ[i][k];
            if (d >= 0 && d < (int)n && !--indeg[d]) stack[ns++] = (uint32_t)d;
        }
    }
    if (no != n) {   /* at the first block on a cycle (never freed of its incoming edges) */
        uint32_t c = 1;
        while (c < n && !indeg[c]) c++;
        cfg_fail(G, G->bl[c < n ? c : 0].loc, "a loop between blocks");
        return;
    }
    /* post-dominators, in reverse topological order */
    G->pdom[n] = 1ull << n;
    for (uint32_t k = no; k-- > 0;) {
        uint32_t i = order[k];
        uint64_t s = ~0ull;
        for (int e = 0; e < 2; e++)
            if (G->succ[i][e] >= 0) s &= G->pdom[G->succ[i][e]];
        G->pdom[i] = s | 1ull << i;
    }
    Block *entry = G->bl[0].b, *out = ARENA_NEW(&P->m->arena, Block);
    if (cfg_emit(G, 0, (int)n, out, 1)) return;
    /* the structured ops become the body's block (its arguments stay) */
    entry->first = entry->last = NULL;
    for (Op *o = out->first, *nx; o; o = nx) {
        nx = o->next;
        o->next = o->prev = NULL;
        append_op(entry, o);
    }
    body->block = entry;
}

static Op *parse_op(Parser *P)
{
    Token *first = P_cur(P);
    SrcLoc loc = P_loc(P, first);
    /* results: %a, %b = ...  |  %r:2 = ... */
    int32_t rnames[MAX_RESULTS];
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
            rnames[ngroups] = P_def_name(P, t);
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
        P_tok_desc(nt, got, sizeof got);
        P_error(P, DIAG_PARSE_EXPECTED, loc, "expected an operation, found %s", got);
        recover(P);
        return NULL;
    }
    int kind = lookup_op(P, nt->s, nt->len);
    if (kind < 0) {
        char hint[160];
        suggest_op(P, nt->s, nt->len, hint, sizeof hint);
        P_error(P, DIAG_PARSE_UNKNOWN_OP, loc, "unknown operation '%.*s'%s", (int)nt->len, nt->s, hint);
        for (uint32_t g = 0; g < ngroups; g++) P->names[rnames[g]].of_unknown_op = 1;
        P->pos++;
        recover_at(P, 1);
        return NULL;
    }
    P->pos++;
    if (generic && (kind == OP_SCF_FOR || kind == OP_SCF_IF || kind == OP_SCF_WHILE || kind == OP_SCF_YIELD ||
                    kind == OP_SCF_CONDITION)) {
        op = parse_generic_scf(P, kind, loc, nres);
    } else if (generic) {
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
        case SYN_SUBVIEW: op = parse_subview(P, kind, loc); break;
        case SYN_CF: op = parse_cf(P, kind, loc); break;
        case SYN_SIG:
            P->ndps = 0;
            op = bind_parse_custom(P, kind, loc, NULL, rcounts, ngroups, nres);
            if (op && P->ndps && !ngroups) {
                for (uint32_t i = 0; i < P->ndps; i++) {
                    rnames[i] = P_name_index(P, P->dps_names[i], (uint32_t)strlen(P->dps_names[i]), 1);
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
            op->results[k + i]->name = P->names[rnames[g]].name;
            op->results[k + i]->loc = rlocs[g];
        }
        P_scope_def(P, rnames[g], &op->results[k], cnt, rlocs[g]);
        k += cnt;
    }
    return op;
}

/* ------------------------------------------------------------------ entry */

/* A file holds one module op, or bare top-level ops that get an implicit module. */
static Op *parse_all(Parser *P)
{
    Op *top;
    while (P_at_alias_def(P) && !P->fatal) P_parse_alias_def(P);
    SrcLoc loc = P_loc(P, P_cur(P));
    if (P_is_ident(P, "module") || P_is_ident(P, "builtin.module")) {
        size_t lead = P->ncms;
        while (cm_pending(P, P->pos)) cm_attach(P, NULL, CM_BEFORE, 0);
        size_t lead_end = P->ncms;
        P->pos++;
        P->stream = P->m->on_unit != NULL;   /* regions at nesting 1 are then the top module's (parse_unit) */
        top = parse_module(P, loc);
        P_skip_loc(P);
        for (size_t i = lead; i < lead_end; i++) P->cms[i].op = top;
        cm_after_op(P, top);
        while (P_at_alias_def(P) && !P->fatal) P_parse_alias_def(P);   /* MLIR prints location aliases last */
        while (!P_is(P, TK_EOF) && !P->fatal) {
            P_error(P, DIAG_PARSE_EXPECTED, P_loc(P, P_cur(P)), "unexpected text after the module");
            recover(P);
            if (P_is(P, TK_RBRACE)) P->pos++;
            break;
        }
        while (cm_pending(P, P->pos)) cm_attach(P, top, CM_AFTER, 0);
    } else {
        top = P_new_op(P, OP_MODULE, loc);
        P_set_results(P, top, NULL, 0);
        Region *r = new_region(P, top);
        add_region(P, top, r);
        while (!P_is(P, TK_EOF) && !P->fatal) {
            size_t before = P->pos;
            if (P_is(P, TK_RBRACE)) {
                P_error(P, DIAG_PARSE_EXPECTED, P_loc(P, P_cur(P)), "unbalanced '}'");
                P->pos++;
                continue;
            }
            if (P_at_alias_def(P)) {
                P_parse_alias_def(P);
                continue;
            }
            Op *op = parse_block_op(P);
            if (op) append_op(r->block, op);
            if (P->pos == before) P->pos++;
        }
        while (cm_pending(P, P->pos)) cm_attach(P, top, CM_END, 0);
    }
    cm_finish(P);
    return top;
}

/* Parses a module. Out of memory anywhere below (the arenas and front_realloc longjmp to the handler
   here): the one E-OOM diagnostic, the parser's tables freed, and no top op (what the arena holds stays
   with the module and goes with it). */
Op *parse_module_text(PtoCtx *ctx, Module *m, const char *file, const char *text, size_t len)
{
    Parser P;
    memset(&P, 0, sizeof P);
    P.ctx = ctx;
    P.m = m;
    P.d = &ctx->diags;
    P.file = file;
    jmp_buf oom;
    Op *volatile top = NULL;
    if (setjmp(oom)) {
        diag_oom(&ctx->diags, 0);
        top = NULL;
        if (P.in_unit) {   /* the nested module being parsed goes now; the module's own arena stays */
            arena_free(&m->arena);
            m->arena = P.outer;
        }
    } else {
        lex_init(&P.lx, file, text, len, P.d);
        P.lx.oom = m->arena.oom = ctx->arena.oom = &oom;
        P.errors0 = P.d->nerrors;
        P.noresults = arena_alloc(&m->arena, sizeof(Value *));   /* in the module's own arena (parse_unit) */
        bind_init(&P);
        top = parse_all(&P);
    }
    m->arena.oom = ctx->arena.oom = NULL;
    bind_free(&P);
    for (size_t i = 0; i < P.nchunks; i++) mem_free(P.chunks[i]);
    for (size_t i = 0; i < P.nspare; i++) mem_free(P.spare[i]);
    mem_free(P.chunks);
    mem_free(P.spare);
    mem_free(P.lx.cm);
    mem_free(P.names);
    mem_free(P.nametab);
    mem_free(P.ops.s);
    mem_free(P.toks.s);
    mem_free(P.tys);
    mem_free(P.aliases);
    mem_free(P.alias_heads);
    mem_free(P.scope);
    return top;
}
