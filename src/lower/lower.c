/* lower.c — turns a verified module into a Program: frame slots for every value, flat instruction
 * arrays with resolved jumps for scf control flow, calls, sections and vector scopes, and per-op
 * handlers chosen by the family modules. Nothing here runs on the hot path. */
#include "exec/sim.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const Instr sim_blocked_marker;

struct LowerCtx {
    PtoCtx *ctx;
    Program *prog;
    const Module *m;
    Instr *code;
    uint32_t n, cap;
    int32_t *jmp, *jmp2;       /* jump targets as indices during construction */
    uint32_t frame;            /* next free frame offset of the function being lowered */
    int failed;
    int in_scope;              /* lowering the body of a vector scope */
    char *err;
    size_t errn;
    const Op **funcs;
    uint32_t nfuncs;
};

/* ------------------------------------------------------------------ helpers for family code */

const OpSig *lw_sig(LowerCtx *L, const Op *op) { return ctx_sig(L->ctx, op->kind); }
Arena *lw_arena(LowerCtx *L) { return &L->prog->arena; }
PtoTarget lw_target(LowerCtx *L) { (void)L; return PTO_TARGET_A5; }

int lw_group_index(LowerCtx *L, const Op *op, const char *group, unsigned j)
{
    const OpSig *s = lw_sig(L, op);
    int g = sig_group(s, group);
    if (g < 0 || !op->segs || j >= op->segs[g]) return -1;
    return (int)(op_group_start(op, (unsigned)g) + j);
}

bool lw_const(LowerCtx *L, const Value *v, int64_t *out)
{
    (void)L;
    if (!v || !v->def || v->def->kind != OP_ARITH_CONSTANT) return false;
    const Attr *a = op_attr(v->def, "value");
    if (!a || a->kind != AT_INT) return false;
    *out = a->i;
    return true;
}

void lw_error(LowerCtx *L, const Op *op, DiagId id, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_addv(&L->ctx->diags, SEV_ERROR, id, op->loc, fmt, ap);
    va_end(ap);
    L->failed = 1;
}

/* ------------------------------------------------------------------ frame slots */

static uint32_t slot_size(const Type *t)
{
    switch (t->kind) {
    case TY_VREG: return 256;
    case TY_MASK: return 32;
    case TY_ALIGN: return 128;
    default: return 8;
    }
}

static void assign(LowerCtx *L, Value *v)
{
    uint32_t sz = slot_size(v->type);
    uint32_t al = sz >= 32 ? 32 : 8;
    L->frame = (L->frame + al - 1) & ~(al - 1);
    v->slot = (int32_t)L->frame;
    L->frame += sz;
}

static void assign_region_values(LowerCtx *L, const Region *r)
{
    Block *b = r->block;
    for (uint32_t i = 0; i < b->nargs; i++) assign(L, b->args[i]);
    for (Op *o = b->first; o; o = o->next) {
        for (uint32_t i = 0; i < o->nresults; i++) assign(L, o->results[i]);
        for (uint32_t k = 0; k < o->nregions; k++) assign_region_values(L, o->regions[k]);
    }
}

/* ------------------------------------------------------------------ code buffer */

static uint32_t emit(LowerCtx *L, const Op *op)
{
    if (L->n == L->cap) {
        uint32_t cap = L->cap ? L->cap * 2 : 256;
        Instr *c = realloc(L->code, cap * sizeof *c);
        int32_t *j = realloc(L->jmp, cap * sizeof *j);
        int32_t *j2 = realloc(L->jmp2, cap * sizeof *j2);
        if (!c || !j || !j2) { free(c ? c : L->code); abort(); }
        L->code = c; L->jmp = j; L->jmp2 = j2;
        L->cap = cap;
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

/* ------------------------------------------------------------------ control-flow handlers */

typedef struct CopyList { uint32_t n; struct { int32_t dst, src; uint32_t size; } c[]; } CopyList;

static CopyList *copylist(LowerCtx *L, uint32_t n)
{
    CopyList *c = arena_alloc(&L->prog->arena, sizeof(CopyList) + n * sizeof c->c[0]);
    c->n = n;
    return c;
}

/* Parallel copy: sources are read before any destination is written (yield %b, %a swaps). */
static void do_copies_n(Exec *x, const CopyList *cl);
static inline void do_copies(Exec *x, const CopyList *cl)
{
    if (cl && cl->n) do_copies_n(x, cl);
}

static void do_copies_n(Exec *x, const CopyList *cl)
{
    uint8_t tmp[4096];
    uint32_t off = 0;
    int fits = 1;
    for (uint32_t i = 0; i < cl->n; i++) off += cl->c[i].size;
    if (off > sizeof tmp) fits = 0;
    if (fits) {
        off = 0;
        for (uint32_t i = 0; i < cl->n; i++) { memcpy(tmp + off, x->frame + cl->c[i].src, cl->c[i].size); off += cl->c[i].size; }
        off = 0;
        for (uint32_t i = 0; i < cl->n; i++) { memcpy(x->frame + cl->c[i].dst, tmp + off, cl->c[i].size); off += cl->c[i].size; }
    } else {
        for (uint32_t i = 0; i < cl->n; i++) memmove(x->frame + cl->c[i].dst, x->frame + cl->c[i].src, cl->c[i].size);
    }
}

/* iv compare in the iv's type: index/i64 signed 64-bit, narrower types sign-extended from their width. */
static int64_t iv_val(uint64_t raw, int64_t bits)
{
    if (bits >= 64) return (int64_t)raw;
    uint64_t m = 1ull << (bits - 1);
    raw &= (m << 1) - 1;
    return (int64_t)((raw ^ m) - m);
}

/* FOR_INIT: arg0..2 = lb, ub, step; res0 = iv; ext = copies init->iter; jump = loop exit (after FOR_NEXT). */
static const Instr *x_for_init(Exec *x, const Instr *in)
{
    uint64_t lb = ARG(x, in, 0);
    fr_set_u64(x, in->res[0], lb);
    do_copies(x, in->ext);
    if (iv_val(lb, in->imm[0]) < iv_val(ARG(x, in, 1), in->imm[0])) return in + 1;
    /* zero trips: results take the initial values */
    do_copies(x, in->ext2);
    return in->jump;
}

/* FOR_NEXT: arg0..2 = lb, ub, step; arg3 = iv slot; ext = yield->iter copies; jump = body start;
   jump2 (as CopyList) = iter->result copies. */
static const Instr *x_for_next(Exec *x, const Instr *in)
{
    do_copies(x, in->ext);
    uint64_t iv = fr_u64(x, in->arg[3]) + ARG(x, in, 2);
    uint64_t m = in->imm[0] >= 64 ? ~0ull : (1ull << in->imm[0]) - 1;
    iv &= m;
    fr_set_u64(x, in->arg[3], iv);
    if (iv_val(iv, in->imm[0]) < iv_val(ARG(x, in, 1), in->imm[0])) return in->jump;
    do_copies(x, in->ext2);
    return in + 1;
}

/* FOR_NEXT for the common loop: 64-bit induction variable (index/i64), no iter_args. */
static const Instr *x_for_next64(Exec *x, const Instr *in)
{
    uint64_t iv = fr_u64(x, in->arg[3]) + ARG(x, in, 2);
    fr_set_u64(x, in->arg[3], iv);
    return (int64_t)iv < (int64_t)ARG(x, in, 1) ? in->jump : in + 1;
}

static const Instr *x_if(Exec *x, const Instr *in) { return (ARG(x, in, 0) & 1) ? in + 1 : in->jump; }
static const Instr *x_copy_jump(Exec *x, const Instr *in) { do_copies(x, in->ext); return in->jump ? in->jump : in + 1; }
static const Instr *x_end(Exec *x, const Instr *in) { (void)x; (void)in; return NULL; }

/* scf.condition: arg0 = cond; ext = args->after copies; jump2 (CopyList) = args->results; jump = exit */
static const Instr *x_condition(Exec *x, const Instr *in)
{
    if (ARG(x, in, 0) & 1) { do_copies(x, in->ext); return in + 1; }
    do_copies(x, in->ext2);
    return in->jump;
}

/* Sections: run the body only on the matching core type (imm0 = CoreType). */
static const Instr *x_section(Exec *x, const Instr *in)
{
    return (int64_t)x->core->type == in->imm[0] ? in + 1 : in->jump;
}

static const Instr *x_unsupported(Exec *x, const Instr *in)
{
    sim_trap(x, in, DIAG_T_UNSUPPORTED, "'%s' is not simulated yet", op_info[in->kind].name);
    return NULL;
}

static int p_unsupported(Exec *x, const Instr *in, const uint64_t *args)
{
    (void)args;
    sim_trap(x, in, DIAG_T_UNSUPPORTED, "'%s' is not simulated yet", op_info[in->kind].name);
    return -1;
}

/* Vector scope executed on V: copy the captures into the V frame, interpret the body to the end. */
typedef struct ScopeExt { const Instr *body; CaptureList *caps; int32_t *dst; } ScopeExt;

static int p_vecscope(Exec *x, const Instr *in, const uint64_t *args)
{
    const ScopeExt *se = in->ext;
    const uint8_t *src = (const uint8_t *)args;
    for (uint32_t i = 0; i < se->caps->n; i++) {
        memcpy(x->frame + se->dst[i], src, se->caps->c[i].size);
        src += (se->caps->c[i].size + 7) & ~7u;
    }
    const Instr *pc = se->body;
    uint64_t limit = x->core->sim->step_limit, steps = x->steps;
    if (steps >= limit) {
        sim_trap(x, pc, DIAG_T_STEP_LIMIT, "step limit of %llu reached inside a vector scope", (unsigned long long)limit);
        return -1;
    }
    /* the hot loop: handlers return NULL at the end of the body or after raising a trap; `left` counts
       down the steps still allowed */
    uint64_t left = limit - steps + 1;
    while (pc) {
        if (__builtin_expect(--left == 0, 0)) {
            x->steps = limit;
            sim_trap(x, pc, DIAG_T_STEP_LIMIT, "step limit of %llu reached inside a vector scope",
                     (unsigned long long)limit);
            return -1;
        }
        pc = pc->fn(x, pc);
    }
    x->steps = limit + 1 - left;
    return x->core->sim->trapped ? -1 : 0;
}

const CaptureList *sim_scope_captures(const Instr *in)
{
    return in->pfn == p_vecscope ? ((const ScopeExt *)in->ext)->caps : NULL;
}

/* ------------------------------------------------------------------ value containment */

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

static void collect_free(const Region *r, const Op *scope, FreeVars *fv)
{
    for (const Op *o = r->block->first; o; o = o->next) {
        for (uint32_t i = 0; i < o->noperands; i++) {
            const Value *v = o->operands[i];
            if (!v || value_inside(v, scope)) continue;
            int seen = 0;
            for (uint32_t k = 0; k < fv->n; k++) seen |= fv->v[k] == v;
            if (seen) continue;
            if (fv->n < 256) fv->v[fv->n++] = v;
            else fv->overflow = 1;
        }
        for (uint32_t k = 0; k < o->nregions; k++) collect_free(o->regions[k], scope, fv);
    }
}

/* ------------------------------------------------------------------ op lowering */

static void lower_region(LowerCtx *L, const Region *r);

static void fill_operands(LowerCtx *L, const Op *op, Instr *in)
{
    if (op->noperands > INSTR_MAX_ARGS) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' has more operands than the simulator supports", op_info[op->kind].name);
        return;
    }
    in->nargs = (uint8_t)op->noperands;
    for (uint32_t i = 0; i < op->noperands; i++) in->arg[i] = op->operands[i] ? op->operands[i]->slot : -1;
    in->nres = (uint8_t)(op->nresults < 4 ? op->nresults : 4);
    for (uint32_t i = 0; i < in->nres; i++) in->res[i] = op->results[i]->slot;
}

static int family_lower(LowerCtx *L, const Op *op, Instr *in)
{
    switch (op_info[op->kind].fam) {
    case FAM_ARITH: case FAM_PTR: case FAM_QUERY: case FAM_STRUCT:
        return lower_family_scalar(L, op, in);
    case FAM_DMA: case FAM_DMA_CFG:
        return lower_family_dma(L, op, in);
    case FAM_SYNC:
        return lower_family_sync(L, op, in);
    case FAM_PRED_LS: case FAM_PRED_GEN:
        return lower_family_pred(L, op, in);
    case FAM_MAD: case FAM_CUBE_DMA:
        return lower_family_cube(L, op, in);
    case FAM_MISC:
        if (op->kind == OP_INIT_ALIGN) return lower_family_pred(L, op, in);
        return lower_family_scalar(L, op, in);
    default:
        return lower_family_vector(L, op, in);
    }
}

static CopyList *copies_from(LowerCtx *L, Value *const *dst, Value *const *src, uint32_t n)
{
    CopyList *c = copylist(L, n);
    for (uint32_t i = 0; i < n; i++) {
        c->c[i].dst = dst[i]->slot;
        c->c[i].src = src[i]->slot;
        c->c[i].size = slot_size(dst[i]->type);
    }
    return c;
}

static void lower_scope(LowerCtx *L, const Op *op)
{
    /* The scope instruction is queued on V; its body is a separate run of instructions ended by END. */
    uint32_t k = emit(L, op);
    FreeVars fv;
    fv.n = 0;
    fv.overflow = 0;
    int strict = op->kind == OP_STRICT_VECSCOPE;
    const Block *b = op->regions[0]->block;
    if (!strict) collect_free(op->regions[0], op, &fv);
    if (fv.overflow) lw_error(L, op, DIAG_T_UNSUPPORTED, "vector scope captures more than 256 values");
    L->prog->uses_vector = true;
    uint32_t ncap = strict ? op->noperands : fv.n;
    ScopeExt *se = ARENA_NEW(&L->prog->arena, ScopeExt);
    se->caps = arena_alloc(&L->prog->arena, sizeof(CaptureList) + ncap * sizeof(Capture));
    se->dst = ARENA_ARRAY(&L->prog->arena, int32_t, ncap ? ncap : 1);
    se->caps->n = ncap;
    uint32_t bytes = 0;
    for (uint32_t i = 0; i < ncap; i++) {
        const Value *src = strict ? op->operands[i] : fv.v[i];
        uint32_t sz = slot_size(src->type);
        se->caps->c[i].off = src->slot;
        se->caps->c[i].size = sz;
        se->dst[i] = strict ? (i < b->nargs ? b->args[i]->slot : src->slot) : src->slot;
        bytes += (sz + 7) & ~7u;
    }
    se->caps->bytes = bytes;
    Instr *in = &L->code[k];
    in->pipe = PQ_V;
    in->pfn = p_vecscope;
    in->ext = se;
    in->cost = 4;
    in->queued = 1;
    /* jump over the body in the issuing stream */
    uint32_t body = L->n;
    int was = L->in_scope;
    L->in_scope = 1;
    lower_region(L, op->regions[0]);
    uint32_t end = emit(L, NULL);
    L->in_scope = was;
    L->code[end].fn = x_end;
    L->jmp[k] = (int32_t)end + 1;          /* continue after the body */
    L->jmp2[k] = (int32_t)body;            /* body start (resolved into se->body later) */
}

/* The terminator of an scf region: explicit scf.yield, or the implicit empty one MLIR elides. */
static void emit_yield(LowerCtx *L, const Op *parent, const Op *y)
{
    Value *const *vals = y ? y->operands : NULL;
    uint32_t n = y ? y->noperands : 0;
    uint32_t k = emit(L, y ? y : parent);
    Instr *in = &L->code[k];
    in->queued = 0;
    if (parent && parent->kind == OP_SCF_FOR) {
        const Block *b = parent->regions[0]->block;
        in->fn = x_for_next;
        in->nargs = 4;
        for (int i = 0; i < 3; i++) in->arg[i] = parent->operands[i]->slot;
        in->arg[3] = b->args[0]->slot;
        in->imm[0] = ty_bits(b->args[0]->type);
        in->ext = copies_from(L, b->args + 1, vals, n);
        in->ext2 = copies_from(L, parent->results, b->args + 1, parent->nresults);
        if (!n && !parent->nresults && in->imm[0] == 64) in->fn = x_for_next64;
    } else if (parent && parent->kind == OP_SCF_IF) {
        in->fn = x_copy_jump;
        in->ext = copies_from(L, parent->results, vals, n);
        L->jmp[k] = (int32_t)k + 1;   /* the then-branch's jump is patched by the scf.if lowering */
    } else if (parent && parent->kind == OP_SCF_WHILE) {
        in->fn = x_copy_jump;
        in->ext = copies_from(L, parent->regions[0]->block->args, vals, n);
    } else {
        in->fn = x_end;
    }
}

/* Lowers the region of an scf op and guarantees it ends in its terminator instruction. */
static void lower_scf_region(LowerCtx *L, const Op *parent, const Region *r)
{
    lower_region(L, r);
    const Op *last = r->block->last;
    if (!last || (last->kind != OP_SCF_YIELD && last->kind != OP_SCF_CONDITION)) emit_yield(L, parent, NULL);
}

static void lower_for(LowerCtx *L, const Op *op)
{
    const Block *b = op->regions[0]->block;
    uint32_t niter = op->noperands - 3;
    uint32_t k = emit(L, op);
    Instr *in = &L->code[k];
    in->queued = 0;
    in->fn = x_for_init;
    in->nargs = 3;
    for (int i = 0; i < 3; i++) in->arg[i] = op->operands[i]->slot;
    in->res[0] = b->args[0]->slot;
    in->imm[0] = ty_bits(b->args[0]->type);
    in->ext = copies_from(L, b->args + 1, op->operands + 3, niter);
    in->ext2 = copies_from(L, op->results, op->operands + 3, niter);
    uint32_t body = L->n;
    lower_scf_region(L, op, op->regions[0]);
    uint32_t nx = L->n - 1;        /* FOR_NEXT */
    L->jmp[k] = (int32_t)nx + 1;
    L->jmp[nx] = (int32_t)body;
}

static void lower_op(LowerCtx *L, const Op *op)
{
    const OpInfo *oi = &op_info[op->kind];
    switch (op->kind) {
    case OP_SCF_FOR:
        lower_for(L, op);
        return;
    case OP_SCF_IF: {
        uint32_t k = emit(L, op);
        L->code[k].fn = x_if;
        L->code[k].arg[0] = op->operands[0]->slot;
        L->code[k].nargs = 1;
        lower_scf_region(L, op, op->regions[0]);   /* ends with COPY_JUMP (jump patched below) */
        uint32_t then_end = L->n - 1;
        L->jmp[k] = (int32_t)L->n;               /* else start (or end) */
        if (op->nregions > 1) {
            lower_scf_region(L, op, op->regions[1]);   /* ends with a COPY that falls through */
        }
        L->jmp[then_end] = (int32_t)L->n;
        return;
    }
    case OP_SCF_WHILE: {
        const Block *before = op->regions[0]->block;
        uint32_t k = emit(L, op);
        L->code[k].fn = x_copy_jump;
        L->code[k].ext = copies_from(L, before->args, op->operands, op->noperands);
        L->jmp[k] = (int32_t)k + 1;
        uint32_t start = L->n;
        lower_scf_region(L, op, op->regions[0]);   /* ends with CONDITION */
        uint32_t cond = L->n - 1;
        lower_scf_region(L, op, op->regions[1]);   /* ends with COPY_JUMP back */
        uint32_t back = L->n - 1;
        L->jmp[back] = (int32_t)start;
        L->jmp[cond] = (int32_t)L->n;
        return;
    }
    case OP_SCF_YIELD:
        emit_yield(L, ir_parent_op(op), op);
        return;
    case OP_SCF_CONDITION: {
        const Op *parent = ir_parent_op(op);
        uint32_t k = emit(L, op);
        Instr *in = &L->code[k];
        in->fn = x_condition;
        in->arg[0] = op->operands[0]->slot;
        in->nargs = 1;
        if (parent && parent->kind == OP_SCF_WHILE) {
            in->ext = copies_from(L, parent->regions[1]->block->args, op->operands + 1, op->noperands - 1);
            in->ext2 = copies_from(L, parent->results, op->operands + 1, op->noperands - 1);
        }
        return;
    }
    case OP_VECSCOPE: case OP_STRICT_VECSCOPE:
        lower_scope(L, op);
        return;
    case OP_SECTION_CUBE: case OP_SECTION_VECTOR: {
        uint32_t k = emit(L, op);
        L->code[k].fn = x_section;
        L->code[k].imm[0] = op->kind == OP_SECTION_CUBE ? CORE_AIC : CORE_AIV;
        lower_region(L, op->regions[0]);
        L->jmp[k] = (int32_t)L->n;
        if (op->kind == OP_SECTION_CUBE) L->prog->has_cube = true;
        else L->prog->has_vector = true;
        return;
    }
    default:
        break;
    }
    if (op->kind == OP_SCF_FOR || (oi->flags & F_REGIONS)) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' cannot be lowered here", oi->name);
        return;
    }
    /* scf.for carrying llvm.loop.aivector_scope is a vector interval: treat it like a vecscope */
    uint32_t k = emit(L, op);
    Instr *in = &L->code[k];
    fill_operands(L, op, in);
    in->fn = x_unsupported;
    in->pfn = p_unsupported;
    if (family_lower(L, op, in) != 0) L->failed = 1;
    /* which kind of core the program needs (cube pipes vs the vector side) */
    if (in->pipe == PQ_M || in->pipe == PQ_MTE1 || in->pipe == PQ_FIX || op->kind == OP_MTE_GM_L1 ||
        op->kind == OP_MTE_GM_L1_FRAC || op->kind == OP_COPY_GM_TO_CBUF)
        L->prog->uses_cube = true;
    else if (in->pipe == PQ_V || in->pipe == PQ_MTE3 || op->kind == OP_MTE_GM_UB || op->kind == OP_COPY_GM_TO_UBUF)
        L->prog->uses_vector = true;
}

static void lower_region(LowerCtx *L, const Region *r)
{
    for (const Op *o = r->block->first; o; o = o->next) {
        if (o->kind == OP_SCF_FOR && op_attr(o, "llvm.loop.aivector_scope")) {
            /* a lowered-form vector interval: one V job whose body is the loop */
            uint32_t k = emit(L, o);
            FreeVars fv = {.n = 0};
            /* free variables of the loop op itself (bounds, inits) plus its body */
            for (uint32_t i = 0; i < o->noperands; i++) {
                int seen = 0;
                for (uint32_t q = 0; q < fv.n; q++) seen |= fv.v[q] == o->operands[i];
                if (!seen && fv.n < 256) fv.v[fv.n++] = o->operands[i];
            }
            collect_free(o->regions[0], o, &fv);
            ScopeExt *se = ARENA_NEW(&L->prog->arena, ScopeExt);
            se->caps = arena_alloc(&L->prog->arena, sizeof(CaptureList) + fv.n * sizeof(Capture));
            se->dst = ARENA_ARRAY(&L->prog->arena, int32_t, fv.n ? fv.n : 1);
            se->caps->n = fv.n;
            uint32_t bytes = 0;
            for (uint32_t i = 0; i < fv.n; i++) {
                se->caps->c[i].off = fv.v[i]->slot;
                se->caps->c[i].size = slot_size(fv.v[i]->type);
                se->dst[i] = fv.v[i]->slot;
                bytes += (se->caps->c[i].size + 7) & ~7u;
            }
            se->caps->bytes = bytes;
            L->code[k].pipe = PQ_V;
            L->code[k].pfn = p_vecscope;
            L->code[k].ext = se;
            L->code[k].queued = 1;
            uint32_t body = L->n;
            int was = L->in_scope;
            L->in_scope = 1;
            lower_for(L, o);
            uint32_t end = emit(L, NULL);
            L->in_scope = was;
            L->code[end].fn = x_end;
            L->jmp[k] = (int32_t)end + 1;
            L->jmp2[k] = (int32_t)body;
            continue;
        }
        lower_op(L, o);
    }
}

/* ------------------------------------------------------------------ calls */

typedef struct CallExt { uint32_t func; CopyList *args; uint32_t nres; int32_t res[64]; } CallExt;

static const Instr *x_call(Exec *x, const Instr *in);
static const Instr *x_return(Exec *x, const Instr *in);

static void lower_function(LowerCtx *L, uint32_t fi)
{
    const Op *fop = L->funcs[fi];
    Func *F = &L->prog->funcs[fi];
    F->op = fop;
    const Attr *sym = op_attr(fop, "sym_name");
    F->name = sym ? sym->s : "?";
    if (!fop->nregions) return;   /* declaration */
    L->frame = 0;
    assign_region_values(L, fop->regions[0]);
    F->frame_size = (L->frame + 31) & ~31u;
    if (F->frame_size > L->prog->max_frame) L->prog->max_frame = F->frame_size;
    const Block *b = fop->regions[0]->block;
    F->nparams = b->nargs;
    F->param_off = ARENA_ARRAY(&L->prog->arena, int32_t, b->nargs ? b->nargs : 1);
    const Type **pt = ARENA_ARRAY(&L->prog->arena, const Type *, b->nargs ? b->nargs : 1);
    for (uint32_t i = 0; i < b->nargs; i++) {
        F->param_off[i] = b->args[i]->slot;
        pt[i] = b->args[i]->type;
    }
    F->param_types = pt;
    L->n = 0;
    lower_region(L, fop->regions[0]);
    /* a body without an explicit return ends here */
    uint32_t end = emit(L, NULL);
    L->code[end].fn = x_end;
    /* resolve jumps into a permanent array */
    Instr *code = arena_dup(&L->prog->arena, L->code, sizeof(Instr) * L->n);
    for (uint32_t i = 0; i < L->n; i++) {
        if (L->jmp[i] >= 0) code[i].jump = &code[L->jmp[i]];
        if (L->jmp2[i] >= 0) {
            if (code[i].pfn == p_vecscope) ((ScopeExt *)code[i].ext)->body = &code[L->jmp2[i]];
            else code[i].jump2 = &code[L->jmp2[i]];
        }
        /* ops outside a vector scope that run on a pipe other than the SU are issued, not executed */
        if (code[i].queued == 2) code[i].queued = code[i].pipe != PQ_S;
        if (code[i].queued) code[i].fn = sim_issue;
    }
    F->entry = code;
}

static int find_func(LowerCtx *L, const char *name)
{
    for (uint32_t i = 0; i < L->nfuncs; i++) {
        const Attr *s = op_attr(L->funcs[i], "sym_name");
        if (s && !strcmp(s->s, name)) return (int)i;
    }
    return -1;
}

static int collect_funcs(Op *o, void *ud)
{
    LowerCtx *L = ud;
    if (o->kind == OP_FUNC) {
        const Op **f = realloc(L->funcs, (L->nfuncs + 1) * sizeof *f);
        if (!f) return 1;
        L->funcs = f;
        L->funcs[L->nfuncs++] = o;
    }
    return 0;
}

/* Calls and returns need the callee table, so they are lowered here rather than by a family. */
int lower_family_call(LowerCtx *L, const Op *op, Instr *in);
int lower_family_call(LowerCtx *L, const Op *op, Instr *in)
{
    if (op->kind == OP_RETURN) {
        in->fn = x_return;
        CopyList *c = copylist(L, op->noperands);
        for (uint32_t i = 0; i < op->noperands; i++) {
            c->c[i].src = op->operands[i]->slot;
            c->c[i].size = slot_size(op->operands[i]->type);
            c->c[i].dst = -1;
        }
        in->ext = c;
        return 0;
    }
    const Attr *callee = op_attr(op, "callee");
    int fi = callee ? find_func(L, callee->s) : -1;
    if (fi < 0 || !L->funcs[fi]->nregions) {
        lw_error(L, op, DIAG_V_CALL, "call to '@%s', which has no body", callee ? callee->s : "?");
        return -1;
    }
    if (op->nresults > 64) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "too many call results");
        return -1;
    }
    CallExt *ce = ARENA_NEW(&L->prog->arena, CallExt);
    ce->func = (uint32_t)fi;
    ce->nres = op->nresults;
    for (uint32_t i = 0; i < op->nresults; i++) ce->res[i] = op->results[i]->slot;
    /* callee parameter slots are assigned when the callee is lowered; resolve offsets lazily at run */
    ce->args = copylist(L, op->noperands);
    for (uint32_t i = 0; i < op->noperands; i++) {
        ce->args->c[i].src = op->operands[i]->slot;
        ce->args->c[i].size = slot_size(op->operands[i]->type);
        ce->args->c[i].dst = (int32_t)i;
    }
    in->ext = ce;
    in->fn = x_call;
    in->imm[0] = (int64_t)(uintptr_t)L->prog;
    return 0;
}

static const Instr *x_call(Exec *x, const Instr *in)
{
    const CallExt *ce = in->ext;
    const Program *prog = (const Program *)(uintptr_t)in->imm[0];
    const Func *F = &prog->funcs[ce->func];
    if (x->ncalls >= 256) {
        sim_trap(x, in, DIAG_T_CALL_DEPTH, "call depth limit (256) reached calling '@%s'", F->name);
        return NULL;
    }
    uint32_t need = x->frame_top + F->frame_size;
    if (need > x->frame_cap) {
        sim_trap(x, in, DIAG_T_CALL_DEPTH, "frame stack exhausted calling '@%s'", F->name);
        return NULL;
    }
    if (x->ncalls == x->capcalls) {
        uint32_t cap = x->capcalls ? x->capcalls * 2 : 16;
        struct CallRec *c = realloc(x->calls, cap * sizeof *c);
        if (!c) return NULL;
        x->calls = c;
        x->capcalls = cap;
    }
    uint8_t *nf = x->frame_base + x->frame_top;
    memset(nf, 0, F->frame_size);
    for (uint32_t i = 0; i < ce->args->n; i++)
        memcpy(nf + F->param_off[i], x->frame + ce->args->c[i].src, ce->args->c[i].size);
    x->calls[x->ncalls++] = (struct CallRec){in + 1, x->frame, in};
    x->frame_top = need;
    x->frame = nf;
    return F->entry;
}

static const Instr *x_return(Exec *x, const Instr *in)
{
    if (!x->ncalls) return NULL;   /* the kernel itself returns */
    struct CallRec r = x->calls[--x->ncalls];
    const CopyList *vals = in->ext;
    const CallExt *ce = r.call->ext;
    for (uint32_t i = 0; i < vals->n && i < ce->nres; i++)
        memcpy(r.frame + ce->res[i], x->frame + vals->c[i].src, vals->c[i].size);
    x->frame_top = (uint32_t)(x->frame - x->frame_base);
    x->frame = r.frame;
    return r.ret;
}

Program *lower_module(PtoCtx *ctx, const Module *m, const Op *entry, char *err, size_t errn)
{
    LowerCtx L;
    memset(&L, 0, sizeof L);
    L.ctx = ctx;
    L.m = m;
    L.err = err;
    L.errn = errn;
    Program *P = calloc(1, sizeof *P);
    if (!P) return NULL;
    arena_init(&P->arena);
    L.prog = P;
    ir_walk(m->top, collect_funcs, &L);
    P->nfuncs = L.nfuncs;
    P->funcs = ARENA_ARRAY(&P->arena, Func, L.nfuncs ? L.nfuncs : 1);
    for (uint32_t i = 0; i < L.nfuncs; i++) lower_function(&L, i);
    free(L.code);
    free(L.jmp);
    free(L.jmp2);
    free(L.funcs);
    (void)entry;
    if (L.failed) {
        program_free(P);
        snprintf(err, errn, "lowering failed");
        return NULL;
    }
    P->kernel_kind = P->has_cube && P->has_vector ? 2 : P->has_cube ? 1 : 0;
    return P;
}

void program_free(Program *p)
{
    if (!p) return;
    arena_free(&p->arena);
    free(p);
}
