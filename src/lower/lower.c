/* lower.c — the lowering driver: walks a verified function and emits flat Instr arrays (exec/program.h).
 * It assigns a frame slot to every value, lowers control flow (scf.for/if/while, sections), vector
 * scopes, calls and returns itself, and hands every other op to its family's hook (ops/ops.h), which
 * picks the run-time handlers. The entry function is lowered first, then every function it calls.
 * Nothing here runs while a kernel executes. */
#include "lower.h"
#include "base/alloc.h"
#include "exec/autosync.h"
#include "exec/interp.h"
#include "exec/machine.h"
#include "ops/ops.h"
#include "isa/functab.h"
#include <stdlib.h>
#include <string.h>

typedef struct Lowering {
    LowerView v;               /* what the family hooks see */
    Instr *code;               /* the function being lowered */
    uint32_t n, cap;
    int32_t *jmp, *jmp2;       /* jump targets as indices during construction */
    uint32_t frame;            /* next free frame offset of the function being lowered */
    int in_scope;              /* lowering the body of a vector scope or a SIMT section: nothing is queued */
    int scope_func;            /* lowering a function's scope variant: the one called from inside a vector scope */
    int in_simt;               /* lowering code that SIMT workitems run */
    uint32_t cur_fi;           /* index of the function being lowered */
    const Op **funcs;          /* every func.func of the module, in order */
    uint32_t nfuncs;
    uint32_t *todo;            /* functions still to lower */
    uint32_t ntodo;
    uint8_t *queued;           /* per entry of todo's index space: already queued */
    FuncTab ftab;              /* the functions by name (isa/functab.h) */
    uint32_t capfuncs;
} Lowering;

/* ------------------------------------------------------------------ frame slots */

static uint32_t slot_size(const Type *t) { return value_frame_bytes(t); }

static void assign(Lowering *L, Value *v)
{
    uint32_t sz = slot_size(v->type);
    uint32_t al = sz >= 32 ? 32 : 8;
    L->frame = (L->frame + al - 1) & ~(al - 1);
    v->slot = (int32_t)L->frame;
    L->frame += sz;
}

static void assign_region_values(Lowering *L, const Region *r)
{
    Block *b = r->block;
    for (uint32_t i = 0; i < b->nargs; i++) assign(L, b->args[i]);
    for (Op *o = b->first; o; o = o->next) {
        for (uint32_t i = 0; i < o->nresults; i++) assign(L, o->results[i]);
        for (uint32_t k = 0; k < o->nregions; k++) assign_region_values(L, o->regions[k]);
    }
}

/* ------------------------------------------------------------------ code buffer */

/* Appends an instruction for `op` (NULL: a synthetic region end) and returns its index. When the buffer
   cannot grow, lowering has failed (E-OOM) and slot 0 is reused so the walk can finish harmlessly. */
static uint32_t emit(Lowering *L, const Op *op)
{
    if (L->n == L->cap) {
        uint32_t cap = L->cap * 2;
        Instr *c = mem_realloc(L->code, cap * sizeof *c);
        if (c) L->code = c;
        int32_t *j = c ? mem_realloc(L->jmp, cap * sizeof *j) : NULL;
        if (j) L->jmp = j;
        int32_t *j2 = j ? mem_realloc(L->jmp2, cap * sizeof *j2) : NULL;
        if (j2) L->jmp2 = j2;
        if (!j2) {
            if (!L->v.failed) lw_error(&L->v, op, DIAG_OOM, "out of memory lowering the kernel");
            L->n = 0;
        } else {
            L->cap = cap;
        }
    }
    Instr *in = &L->code[L->n];
    memset(in, 0, sizeof *in);
    for (unsigned i = 0; i < INSTR_MAX_ARGS; i++) in->arg[i] = -1;
    for (unsigned i = 0; i < 4; i++) in->res[i] = -1;
    in->op = op;
    in->kind = (uint16_t)(op ? op->kind : 0);
    in->pipe = PQ_S;
    in->cost = 1;
    in->queued = (uint8_t)(L->in_scope ? 0 : 2);   /* 2 = decide after family lowering */
    L->jmp[L->n] = -1;
    L->jmp2[L->n] = -1;
    return L->n++;
}

static uint32_t emit_end(Lowering *L)
{
    uint32_t k = emit(L, NULL);
    L->code[k].fn = interp_end;
    L->code[k].queued = 0;
    return k;
}

static CopyList *copies_from(Lowering *L, const Op *op, Value *const *dst, Value *const *src, uint32_t n)
{
    CopyList *c = lw_alloc(&L->v, op, sizeof(CopyList) + n * sizeof c->c[0]);
    if (!c) return NULL;
    c->n = n;
    for (uint32_t i = 0; i < n; i++) {
        c->c[i].dst = dst ? dst[i]->slot : -1;
        c->c[i].src = src[i]->slot;
        c->c[i].size = slot_size(src[i]->type);
    }
    return c;
}

/* ------------------------------------------------------------------ vector scopes */

static int op_inside(const Op *o, const Op *region_op)
{
    while (o) {
        if (o == region_op) return 1;
        o = ir_parent_op(o);
    }
    return 0;
}

static int value_inside(const Value *v, const Op *region_op)
{
    if (v->def) return op_inside(v->def, region_op);
    if (v->owner && v->owner->parent) return op_inside(v->owner->parent->parent, region_op);
    return 0;
}

typedef struct FreeVars { const Value *v[256]; uint32_t n; int overflow; } FreeVars;

static void add_free(FreeVars *fv, const Value *v)
{
    for (uint32_t k = 0; k < fv->n; k++)
        if (fv->v[k] == v) return;
    if (fv->n < 256) fv->v[fv->n++] = v;
    else fv->overflow = 1;
}

/* Values used inside `scope`'s regions but defined outside it. */
static void collect_free(const Region *r, const Op *scope, FreeVars *fv)
{
    for (const Op *o = r->block->first; o; o = o->next) {
        for (uint32_t i = 0; i < o->noperands; i++) {
            const Value *v = o->operands[i];
            if (v && !value_inside(v, scope)) add_free(fv, v);
        }
        for (uint32_t k = 0; k < o->nregions; k++) collect_free(o->regions[k], scope, fv);
    }
}

static void lower_region(Lowering *L, const Region *r);
static void lower_for(Lowering *L, const Op *op);

/* A vector scope is one job on V: the issuing stream captures `src[i]` and jumps over the body; the V
   pipe copies capture i to frame slot dst[i] and interprets the body, which ends in interp_end. `body_op`
   is the op whose regions form the body (a vecscope), or the scf.for that is itself the body. */
/* The frame values a queued job captures at issue. */
static CaptureList *make_caps(Lowering *L, const Op *op, const Value *const *src, uint32_t ncap)
{
    CaptureList *caps = lw_alloc(&L->v, op, sizeof(CaptureList) + ncap * sizeof(Capture));
    if (!caps) return NULL;
    caps->n = ncap;
    for (uint32_t i = 0; i < ncap; i++) {
        caps->c[i].off = src[i]->slot;
        caps->c[i].size = slot_size(src[i]->type);
        caps->bytes += (caps->c[i].size + 7) & ~7u;
    }
    return caps;
}

static void lower_scope_job(Lowering *L, const Op *op, const Value *const *src, const int32_t *dst, uint32_t ncap,
                            const Op *loop)
{
    uint32_t k = emit(L, op);
    L->v.prog->uses_vector = true;
    CaptureList *caps = make_caps(L, op, src, ncap);
    ScopeInfo *si = lw_alloc(&L->v, op, sizeof *si);
    int32_t *d = lw_alloc(&L->v, op, sizeof(int32_t) * (ncap ? ncap : 1));
    if (!caps || !si || !d) return;
    for (uint32_t i = 0; i < ncap; i++) d[i] = dst ? dst[i] : src[i]->slot;
    si->dst = d;
    Instr *in = &L->code[k];
    in->pipe = PQ_V;
    in->pfn = interp_vecscope;
    in->caps = caps;
    in->ext = si;
    in->cost = 4;
    in->queued = 1;
    uint32_t body = L->n;
    int was = L->in_scope;
    L->in_scope = 1;
    if (loop) lower_for(L, loop);
    else lower_region(L, op->regions[0]);
    uint32_t end = emit_end(L);
    L->in_scope = was;
    L->jmp[k] = (int32_t)end + 1;          /* the issuing stream continues after the body */
    L->jmp2[k] = (int32_t)body;            /* resolved into ScopeInfo.body */
}

static void lower_vecscope(Lowering *L, const Op *op)
{
    if (L->scope_func) {
        /* in a function called from a vector scope: an inferred scope is that scope (its body runs inline);
           a scope written in the text would nest */
        if (op_attr(op, IR_INFERRED)) {
            lower_region(L, op->regions[0]);
            return;
        }
        lw_error(&L->v, op, DIAG_V_VEC_SCOPE, "a vector scope in a function called from inside a vector scope "
                 "would nest (vector scopes do not nest)");
        return;
    }
    FreeVars fv = {.n = 0};
    const Block *b = op->regions[0]->block;
    if (op->kind == OP_STRICT_VECSCOPE) {
        /* explicit captures: operand i becomes block argument i */
        int32_t dst[256];
        uint32_t n = op->noperands < 256 ? op->noperands : 256;
        for (uint32_t i = 0; i < n; i++) dst[i] = i < b->nargs ? b->args[i]->slot : op->operands[i]->slot;
        if (op->noperands > 256) lw_error(&L->v, op, DIAG_T_UNSUPPORTED, "vector scope captures more than 256 values");
        lower_scope_job(L, op, (const Value *const *)op->operands, dst, n, NULL);
        return;
    }
    collect_free(op->regions[0], op, &fv);
    if (fv.overflow) lw_error(&L->v, op, DIAG_T_UNSUPPORTED, "vector scope captures more than 256 values");
    lower_scope_job(L, op, fv.v, NULL, fv.n, NULL);
}

/* An scf.for carrying llvm.loop.aivector_scope is a lowered-form vector interval: one V job whose body
   is the loop itself. */
static void lower_vector_interval(Lowering *L, const Op *o)
{
    FreeVars fv = {.n = 0};
    for (uint32_t i = 0; i < o->noperands; i++) add_free(&fv, o->operands[i]);   /* bounds and inits */
    collect_free(o->regions[0], o, &fv);
    if (fv.overflow) lw_error(&L->v, o, DIAG_T_UNSUPPORTED, "vector scope captures more than 256 values");
    lower_scope_job(L, o, fv.v, NULL, fv.n, o);
}

/* pto.section.simt: one SIMT launch on V whose workitems run the region in a copy of this function's frame
   (the captured free values at their own slots); the issuing stream jumps over the body. */
static void lower_simt_section(Lowering *L, const Op *op)
{
    FreeVars fv = {.n = 0};
    collect_free(op->regions[0], op, &fv);
    if (fv.overflow) lw_error(&L->v, op, DIAG_T_UNSUPPORTED, "SIMT section captures more than 256 values");
    uint32_t k = emit(L, op);
    L->v.prog->uses_vector = true;
    Instr *in = &L->code[k];
    in->caps = make_caps(L, op, fv.v, fv.n);
    in->pipe = PQ_V;
    in->queued = 1;
    in->ext2 = &L->v.prog->funcs[L->cur_fi];
    if (ops_lower(&L->v, op, in) != 0) L->v.failed = 1;
    uint32_t body = L->n;
    int was = L->in_scope, was_simt = L->in_simt;
    L->in_scope = L->in_simt = 1;
    lower_region(L, op->regions[0]);
    uint32_t end = emit_end(L);
    L->in_scope = was;
    L->in_simt = was_simt;
    L->jmp[k] = (int32_t)end + 1;          /* the issuing stream continues after the body */
    L->jmp2[k] = (int32_t)body;            /* the workitems start here */
}

/* ------------------------------------------------------------------ structured control flow */

/* The terminator of an scf region: explicit scf.yield, or the implicit empty one MLIR elides. */
static void emit_yield(Lowering *L, const Op *parent, const Op *y)
{
    Value *const *vals = y ? y->operands : NULL;
    uint32_t n = y ? y->noperands : 0;
    uint32_t k = emit(L, y ? y : parent);
    Instr *in = &L->code[k];
    in->queued = 0;
    if (parent && parent->kind == OP_SCF_FOR) {
        const Block *b = parent->regions[0]->block;
        in->fn = interp_for_next;
        in->nargs = 4;
        for (int i = 0; i < 3; i++) in->arg[i] = parent->operands[i]->slot;
        in->arg[3] = b->args[0]->slot;
        in->imm[INTERP_IV_BITS] = ty_bits(b->args[0]->type);
        in->ext = copies_from(L, parent, b->args + 1, vals, n);
        in->ext2 = copies_from(L, parent, parent->results, b->args + 1, parent->nresults);
        if (!n && !parent->nresults && in->imm[INTERP_IV_BITS] == 64) in->fn = interp_for_next64;
    } else if (parent && parent->kind == OP_SCF_IF) {
        in->fn = interp_copy_jump;
        in->ext = copies_from(L, parent, parent->results, vals, n);
        L->jmp[k] = (int32_t)k + 1;   /* the then-branch's jump is patched by the scf.if lowering */
    } else if (parent && parent->kind == OP_SCF_WHILE) {
        in->fn = interp_copy_jump;
        in->ext = copies_from(L, parent, parent->regions[0]->block->args, vals, n);
    } else {
        in->fn = interp_end;
    }
}

/* Lowers the region of an scf op and guarantees it ends in its terminator instruction. */
static void lower_scf_region(Lowering *L, const Op *parent, const Region *r)
{
    lower_region(L, r);
    const Op *last = r->block->last;
    if (!last || (last->kind != OP_SCF_YIELD && last->kind != OP_SCF_CONDITION)) emit_yield(L, parent, NULL);
}

static void lower_for(Lowering *L, const Op *op)
{
    const Block *b = op->regions[0]->block;
    uint32_t niter = op->noperands - 3;
    uint32_t k = emit(L, op);
    Instr *in = &L->code[k];
    in->queued = 0;
    in->fn = interp_for_init;
    in->nargs = 3;
    for (int i = 0; i < 3; i++) in->arg[i] = op->operands[i]->slot;
    in->res[0] = b->args[0]->slot;
    in->imm[INTERP_IV_BITS] = ty_bits(b->args[0]->type);
    in->ext = copies_from(L, op, b->args + 1, op->operands + 3, niter);
    in->ext2 = copies_from(L, op, op->results, op->operands + 3, niter);
    uint32_t body = L->n;
    lower_scf_region(L, op, op->regions[0]);
    uint32_t nx = L->n - 1;        /* the back edge */
    L->jmp[k] = (int32_t)nx + 1;
    L->jmp[nx] = (int32_t)body;
}

static void lower_if(Lowering *L, const Op *op)
{
    uint32_t k = emit(L, op);
    L->code[k].fn = interp_if;
    L->code[k].queued = 0;
    L->code[k].arg[0] = op->operands[0]->slot;
    L->code[k].nargs = 1;
    lower_scf_region(L, op, op->regions[0]);   /* ends with a copy-and-jump (jump patched below) */
    uint32_t then_end = L->n - 1;
    L->jmp[k] = (int32_t)L->n;               /* else start (or end) */
    if (op->nregions > 1) lower_scf_region(L, op, op->regions[1]);   /* ends with a copy that falls through */
    L->jmp[then_end] = (int32_t)L->n;
}

static void lower_while(Lowering *L, const Op *op)
{
    const Block *before = op->regions[0]->block;
    uint32_t k = emit(L, op);
    L->code[k].fn = interp_copy_jump;
    L->code[k].queued = 0;
    L->code[k].ext = copies_from(L, op, before->args, op->operands, op->noperands);
    L->jmp[k] = (int32_t)k + 1;
    uint32_t start = L->n;
    lower_scf_region(L, op, op->regions[0]);   /* ends with the condition */
    uint32_t cond = L->n - 1;
    lower_scf_region(L, op, op->regions[1]);   /* ends with a copy-and-jump back */
    uint32_t back = L->n - 1;
    L->jmp[back] = (int32_t)start;
    L->jmp[cond] = (int32_t)L->n;
}

static void lower_condition(Lowering *L, const Op *op)
{
    const Op *parent = ir_parent_op(op);
    uint32_t k = emit(L, op);
    Instr *in = &L->code[k];
    in->fn = interp_condition;
    in->queued = 0;
    in->arg[0] = op->operands[0]->slot;
    in->nargs = 1;
    if (parent && parent->kind == OP_SCF_WHILE) {
        in->ext = copies_from(L, op, parent->regions[1]->block->args, op->operands + 1, op->noperands - 1);
        in->ext2 = copies_from(L, op, parent->results, op->operands + 1, op->noperands - 1);
    }
}

static void lower_section(Lowering *L, const Op *op)
{
    uint32_t k = emit(L, op);
    L->code[k].fn = interp_section;
    L->code[k].queued = 0;
    L->code[k].imm[INTERP_CORE_TYPE] = op->kind == OP_SECTION_CUBE ? CORE_AIC : CORE_AIV;
    lower_region(L, op->regions[0]);
    L->jmp[k] = (int32_t)L->n;
    if (op->kind == OP_SECTION_CUBE) L->v.prog->has_cube = true;
    else L->v.prog->has_vector = true;
}

/* ------------------------------------------------------------------ calls */

/* The function named `name`: its definition when the file has one, else its first declaration. A body-less
   declaration (func.func private @f(...)) thus resolves to the definition of @f in a sibling module of the
   same file, as the upstream flow links the modules of one file (docs/semantics.md §12). */
static const Type *fn_type(const Op *f)
{
    const Attr *a = op_attr(f, "function_type");
    return a && a->kind == AT_TYPE ? a->ty : NULL;
}

/* L->funcs[i] for function f: the functions are collected in pre-order, so their ids ascend */
static int func_index(const Lowering *L, const Op *f)
{
    uint32_t lo = 0, hi = L->nfuncs;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (L->funcs[mid]->id < f->id) lo = mid + 1;
        else hi = mid;
    }
    if (lo < L->nfuncs && L->funcs[lo] == f) return (int)lo;
    for (uint32_t i = 0; i < L->nfuncs; i++)   /* ids out of order (not expected): the scan gives the same answer */
        if (L->funcs[i] == f) return (int)i;
    return -1;
}

static int find_func(const Lowering *L, const char *name)
{
    const Op *decl = NULL;
    FuncIter it;
    for (const Op *f = functab_first(&L->ftab, name, &it); f; f = functab_next(&L->ftab, name, &it))
        if (!f->nregions) { decl = f; break; }
    for (const Op *f = functab_first(&L->ftab, name, &it); f; f = functab_next(&L->ftab, name, &it)) {
        if (!f->nregions) continue;
        /* a definition stands in for the declaration only with the same (interned) function type */
        if (!decl || fn_type(f) == fn_type(decl)) return func_index(L, f);
    }
    return decl ? func_index(L, decl) : -1;
}

/* Queues function fi for lowering (once). */
static void want_func(Lowering *L, uint32_t fi)
{
    if (L->queued[fi]) return;
    L->queued[fi] = 1;
    L->todo[L->ntodo++] = fi;   /* todo has room for every function */
}

/* The callee of a call or launch, queued for lowering; -1 after an error. */
static int callee_of(Lowering *L, const Op *op)
{
    const Attr *callee = op_attr(op, "callee");
    int fi = callee ? find_func(L, callee->s) : -1;
    if (fi < 0 || !L->funcs[fi]->nregions) {
        lw_error(&L->v, op, DIAG_V_CALL, "call to '@%s', which has no body", callee ? callee->s : "?");
        return -1;
    }
    /* a call inside a vector scope runs its callee inside that scope (the compiler inlines it): the callee's
       scope variant, Program.funcs[nfuncs/2 + fi] (docs/semantics.md §12 "Calls inside a vector scope") */
    if (L->in_scope && !L->in_simt) fi += (int)L->nfuncs;
    want_func(L, (uint32_t)fi);
    return fi;
}

/* pto.simt_launch, or a func.call of a pto.simt_entry function from outside SIMT code: a job on V that the
   SIMT family runs with the callee's Func in ext2. */
static void lower_simt_launch(Lowering *L, const Op *op, Instr *in, int fi)
{
    in->pipe = PQ_V;
    in->ext2 = &L->v.prog->funcs[fi];
    if (ops_lower(&L->v, op, in) != 0) L->v.failed = 1;
}

static void lower_call(Lowering *L, const Op *op, Instr *in)
{
    int fi = callee_of(L, op);
    if (fi < 0) return;
    if (!L->in_simt && op_attr(L->funcs[(uint32_t)fi % L->nfuncs], "pto.simt_entry")) {
        lower_simt_launch(L, op, in, (int)((uint32_t)fi % L->nfuncs));
        return;
    }
    if (op->nresults > 64) {
        lw_error(&L->v, op, DIAG_T_UNSUPPORTED, "too many call results");
        return;
    }
    CallInfo *ci = lw_alloc(&L->v, op, sizeof *ci);
    if (!ci) return;
    ci->callee = &L->v.prog->funcs[fi];
    ci->nres = op->nresults;
    for (uint32_t i = 0; i < op->nresults; i++) ci->res[i] = op->results[i]->slot;
    /* the callee's parameter slots are known only once it is lowered: dst is the parameter index */
    ci->args = copies_from(L, op, NULL, op->operands, op->noperands);
    if (ci->args)
        for (uint32_t i = 0; i < op->noperands; i++) ci->args->c[i].dst = (int32_t)i;
    in->ext = ci;
    in->fn = interp_call;
}

/* ------------------------------------------------------------------ ops */

static void fill_operands(Lowering *L, const Op *op, Instr *in)
{
    if (op->noperands > INSTR_MAX_ARGS) {
        lw_error(&L->v, op, DIAG_T_UNSUPPORTED, "'%s' has more operands than the simulator supports", op_info[op->kind].name);
        return;
    }
    in->nargs = (uint8_t)op->noperands;
    for (uint32_t i = 0; i < op->noperands; i++) in->arg[i] = op->operands[i] ? op->operands[i]->slot : -1;
    in->nres = (uint8_t)(op->nresults < 4 ? op->nresults : 4);
    for (uint32_t i = 0; i < in->nres; i++) in->res[i] = op->results[i]->slot;
}

/* Which side of a cluster an op needs: its pipe decides, except MTE2 loads, which go to the side that owns
   their destination (L1: the AIC, UB: an AIV). */
static void note_core_side(Lowering *L, const Op *op, const Instr *in)
{
    Program *P = L->v.prog;
    switch (in->pipe) {
    case PQ_M: case PQ_MTE1: case PQ_FIX:
        P->uses_cube = true;
        return;
    case PQ_V: case PQ_MTE3:
        P->uses_vector = true;
        return;
    case PQ_MTE2: {
        int d = lw_group_index(&L->v, op, "dst", 0);
        const Type *t = d >= 0 ? op->operands[d]->type : NULL;
        if (t && t->kind == TY_PTR && t->space == AS_L1) P->uses_cube = true;
        else if (t && t->kind == TY_PTR && t->space == AS_UB) P->uses_vector = true;
        return;
    }
    default:
        return;
    }
}

static void lower_op(Lowering *L, const Op *op)
{
    switch (op->kind) {
    case OP_SCF_FOR:
        if (op_attr(op, "llvm.loop.aivector_scope")) lower_vector_interval(L, op);
        else lower_for(L, op);
        return;
    case OP_SCF_IF: lower_if(L, op); return;
    case OP_SCF_WHILE: lower_while(L, op); return;
    case OP_SCF_YIELD: emit_yield(L, ir_parent_op(op), op); return;
    case OP_SCF_CONDITION: lower_condition(L, op); return;
    case OP_VECSCOPE: case OP_STRICT_VECSCOPE: lower_vecscope(L, op); return;
    case OP_SECTION_CUBE: case OP_SECTION_VECTOR: lower_section(L, op); return;
    case OP_SECTION_SIMT: lower_simt_section(L, op); return;
    case OP_UNREALIZED_CAST: {   /* a cast of a tile, view or other non-scalar value to its own type: a copy */
        const Type *t = op->nresults ? op->results[0]->type : NULL;
        if (!t || op->noperands != 1 || op->operands[0]->type != t || t->kind == TY_INT || t->kind == TY_FLOAT ||
            t->kind == TY_INDEX || t->kind == TY_PTR)
            break;
        uint32_t k = emit(L, op);
        Instr *in = &L->code[k];
        in->queued = 0;
        in->fn = interp_copy_jump;
        in->ext = copies_from(L, op, op->results, op->operands, 1);
        return;
    }
    default: break;
    }
    const OpInfo *oi = &op_info[op->kind];
    if (L->scope_func && oi->pipe != PIPE_V_ && oi->pipe != PIPE_S_ && oi->pipe != PIPE_NONE) {
        lw_error(&L->v, op, DIAG_V_VEC_SCOPE, "'%s' cannot run in a function called from inside a vector scope "
                 "(the call runs the function in the scope)", oi->name);
        return;
    }
    if (oi->flags & F_REGIONS) {
        lw_error(&L->v, op, DIAG_T_UNSUPPORTED, "'%s' cannot be lowered here", oi->name);
        return;
    }
    uint32_t k = emit(L, op);
    Instr *in = &L->code[k];
    fill_operands(L, op, in);
    in->fn = interp_unsupported;
    in->pfn = interp_unsupported_job;
    in->pipe = (uint8_t)pq_of_op_pipe(oi->pipe);
    if (op->kind == OP_CALL) {
        lower_call(L, op, in);
    } else if (op->kind == OP_SIMT_LAUNCH) {
        int fi = callee_of(L, op);
        if (fi >= 0) lower_simt_launch(L, op, in, fi);
    } else if (op->kind == OP_RETURN) {
        in->fn = interp_return;
        in->ext = copies_from(L, op, NULL, op->operands, op->noperands);
    } else if (ops_lower(&L->v, op, in) != 0) {
        L->v.failed = 1;
    }
    note_core_side(L, op, in);
}

static void lower_region(Lowering *L, const Region *r)
{
    for (const Op *o = r->block->first; o; o = o->next) lower_op(L, o);
}

/* ------------------------------------------------------------------ functions */

/* Auto-sync mode (exec/autosync.h, docs/tile.md): a function that issues tile ops to pipes and has no explicit
   synchronisation (flags, barriers, buffer tokens, semaphores; mem_bar inside vector scopes and a barrier just
   before the return do not count). */
typedef struct SyncScan { int tile, sync; } SyncScan;
static int scan_sync(Op *o, void *ud)
{
    SyncScan *s = ud;
    const OpInfo *oi = &op_info[o->kind];
    if (oi->fam == FAM_TILE && oi->pipe != PIPE_S_) s->tile = 1;
    /* a barrier right before the function's return orders nothing between its ops (the kernels the compiler's
       insert-sync pass completes end with one) */
    int trailing = o->kind == OP_BARRIER && o->next && o->next->kind == OP_RETURN;
    if (oi->fam == FAM_SYNC && o->kind != OP_MEM_BAR && !trailing) s->sync = 1;
    return 0;
}

static int wants_autosync(const Op *fop)
{
    SyncScan s = {0, 0};
    ir_walk((Op *)fop, scan_sync, &s);
    return s.tile && !s.sync;
}

static void lower_function(Lowering *L, uint32_t fidx)
{
    const uint32_t fi = fidx % L->nfuncs;
    const Op *fop = L->funcs[fi];
    Program *P = L->v.prog;
    Func *F = &P->funcs[fidx];
    L->cur_fi = fi;
    L->in_simt = op_attr(fop, "pto.simt_entry") != NULL;
    L->scope_func = fidx >= L->nfuncs;
    L->in_scope = L->scope_func;
    L->frame = 0;
    assign_region_values(L, fop->regions[0]);
    F->frame_size = (L->frame + 31) & ~31u;
    if (F->frame_size > P->max_frame) P->max_frame = F->frame_size;
    const Block *b = fop->regions[0]->block;
    F->nparams = b->nargs;
    F->param_off = lw_alloc(&L->v, fop, sizeof(int32_t) * (b->nargs ? b->nargs : 1));
    const Type **pt = lw_alloc(&L->v, fop, sizeof(const Type *) * (b->nargs ? b->nargs : 1));
    if (!F->param_off || !pt) return;
    for (uint32_t i = 0; i < b->nargs; i++) {
        F->param_off[i] = b->args[i]->slot;
        pt[i] = b->args[i]->type;
    }
    F->param_types = pt;
    L->n = 0;
    F->autosync = (uint8_t)wants_autosync(fop);
    lower_region(L, fop->regions[0]);
    emit_end(L);   /* a body without an explicit return ends here */
    Instr *code = lw_alloc(&L->v, fop, sizeof(Instr) * L->n);
    if (!code) return;
    memcpy(code, L->code, sizeof(Instr) * L->n);
    for (uint32_t i = 0; i < L->n; i++) {
        code[i].id = P->ninstr++;
        if (L->jmp[i] >= 0) code[i].jump = &code[L->jmp[i]];
        if (L->jmp2[i] >= 0) {
            if (code[i].pfn == interp_vecscope) ((ScopeInfo *)code[i].ext)->body = &code[L->jmp2[i]];
            else code[i].jump2 = &code[L->jmp2[i]];
        }
        /* ops outside a vector scope that run on a pipe other than the SU are issued, not executed */
        if (code[i].queued == 2) code[i].queued = code[i].pipe != PQ_S;
        if (code[i].queued) code[i].fn = sim_issue;
        /* auto-sync: every queued op has a footprint (an undescribed one conflicts with everything); in an
           explicitly synchronised function none has */
        if (!F->autosync || !code[i].queued) code[i].foot = NULL;
        else if (!code[i].foot) code[i].foot = autosync_foot_all;
    }
    ops_fuse(&L->v, code, L->n);
    F->entry = code;
    F->ncode = L->n;
}

static int collect_funcs(Op *o, void *ud)
{
    Lowering *L = ud;
    if (o->kind == OP_FUNC) {
        if (L->nfuncs == L->capfuncs) {   /* grown geometrically: a file of many functions stays linear */
            uint32_t cap = L->capfuncs ? 2 * L->capfuncs : 16;
            const Op **f = cap > L->capfuncs ? mem_realloc(L->funcs, (size_t)cap * sizeof *f) : NULL;
            if (!f) return 1;
            L->funcs = f;
            L->capfuncs = cap;
        }
        L->funcs[L->nfuncs++] = o;
    }
    return 0;
}

Program *lower_program(PtoCtx *ctx, const Module *m, const Op *entry)
{
    Lowering L;
    memset(&L, 0, sizeof L);
    L.v.ctx = ctx;
    Program *P = mem_calloc(1, sizeof *P);
    if (!P) {
        diag_add(&ctx->diags, SEV_ERROR, DIAG_OOM, entry->loc, "out of memory lowering the kernel");
        return NULL;
    }
    arena_init(&P->arena);
    L.v.prog = P;
    L.cap = 256;
    L.code = mem_alloc(L.cap * sizeof *L.code);
    L.jmp = mem_alloc(L.cap * sizeof *L.jmp);
    L.jmp2 = mem_alloc(L.cap * sizeof *L.jmp2);
    int walk_failed = ir_walk(m->top, collect_funcs, &L);
    /* every function twice: as called from the scalar unit, and its scope variant (called in a vector scope) */
    L.todo = mem_alloc((L.nfuncs ? 2 * L.nfuncs : 1) * sizeof *L.todo);
    L.queued = mem_calloc(L.nfuncs ? 2 * L.nfuncs : 1, 1);
    if (!walk_failed && functab_build(&L.ftab, m->top)) walk_failed = 1;
    P->funcs = lw_alloc(&L.v, entry, sizeof(Func) * (L.nfuncs ? 2 * L.nfuncs : 1));
    if (!L.code || !L.jmp || !L.jmp2 || !L.todo || !L.queued || walk_failed || !P->funcs) {
        if (!L.v.failed) lw_error(&L.v, entry, DIAG_OOM, "out of memory lowering the kernel");
    } else {
        P->nfuncs = 2 * L.nfuncs;
        for (uint32_t i = 0; i < P->nfuncs; i++) {
            const Attr *sym = op_attr(L.funcs[i % L.nfuncs], "sym_name");
            P->funcs[i].op = L.funcs[i % L.nfuncs];
            P->funcs[i].name = sym ? sym->s : "?";
            if (i < L.nfuncs && L.funcs[i] == entry) want_func(&L, i);
        }
        if (op_attr(entry, "pto.simt_entry"))
            lw_error(&L.v, entry, DIAG_V_SIMT_ENTRY, "a pto.simt_entry function runs only through a SIMT launch; run the "
                     "kernel that launches it");
        for (uint32_t t = 0; t < L.ntodo && !L.v.failed; t++) lower_function(&L, L.todo[t]);
    }
    mem_free(L.code);
    mem_free(L.jmp);
    mem_free(L.jmp2);
    mem_free(L.funcs);
    mem_free(L.todo);
    mem_free(L.queued);
    functab_free(&L.ftab);
    if (L.v.failed) {
        program_free(P);
        return NULL;
    }
    P->kernel_kind = P->has_cube && P->has_vector ? 2 : P->has_cube ? 1 : 0;
    return P;
}
