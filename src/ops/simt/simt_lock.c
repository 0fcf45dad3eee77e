/* simt_lock.c — the lockstep path of SIMT launches (docs/internals.md, "SIMT launches"). The per-workitem
 * scheduler (simt.c) runs the body once per workitem through the generic interpreter; here every
 * instruction runs once over all the workitems that are at it (a group: an active-lane list), on lane
 * registers laid out by slot (slot k of workitem l at lregs[k * n + l]), so an add over 256 workitems is one
 * loop. A body runs here only when a check before its first launch finds every instruction one of a known
 * set (scalar arithmetic, casts, f32 math, pto.load/store/ldg/stg, thread queries, scf.for/if, syncthreads),
 * every loop bound the same on every workitem (a uniformity analysis: thread ids and loaded values vary,
 * what is computed from uniform values is uniform) and every pto.syncthreads outside the branches of an
 * scf.if whose condition varies; anything else (collectives, atomics, calls, scf.while, clocks, keep/resume,
 * private memory, packed values) runs per workitem as before, and so does everything under --no-fast-paths.
 *
 * Divergence: an scf.if whose condition differs between the group's lanes splits the group; the lanes that
 * skip the branch wait at its else start (or end) while the others run, and groups meet again where their
 * program points coincide (the smallest point runs first: structured code reconverges at the if's end).
 *
 * Equivalence with the per-workitem order (each workitem runs to its next pto.syncthreads, in increasing id):
 * both give the same values and memory whenever no two workitems touch the same bytes between two
 * syncthreads with one of them writing — the launches the race checker passes (W-RACE otherwise). Memory
 * accesses of a group go through sim_mem once per access over all its lanes when their addresses are
 * consecutive and inside one buffer (the same bytes recorded for the checkers), else lane by lane; with the
 * race checker on, every lane's access is recorded in the checker's shadow exactly as per workitem. */
#include "simt_int.h"
#include "base/alloc.h"
#include "exec/check.h"
#include "exec/interp.h"
#include "exec/observe.h"
#include "ops/scalar/scalar.h"
#include <stdlib.h>
#include <string.h>

enum {
    LK_END, LK_FOR_INIT, LK_FOR_NEXT, LK_IF, LK_COPY_JUMP, LK_SYNC, LK_NOP,
    LK_CONST, LK_ADD, LK_SUB, LK_MUL, LK_AND, LK_OR, LK_XOR, LK_SHL, LK_SHRU, LK_CMPI, LK_ZEXT, LK_SEXT, LK_F32,
    LK_SQRT32, LK_LOAD, LK_STORE, LK_PURE, LK_PURE_DIV, LK_QUERY,
};

typedef struct LIns {
    uint8_t k, op;
    uint8_t uni;               /* the result is the same on every workitem: computed once, then copied to the lanes */
    uint8_t ubase;             /* memory ops: the pointer operand is the same on every workitem */
    uint8_t aidx;              /* memory ops: the index is c + tid_x modulo 2^(its width), c the same everywhere */
    uint8_t ctid;              /* arith.cmpi of tid_x itself (operand 0) with a uniform operand 1 */
    uint8_t bits, sbits;
    uint32_t a[4];             /* operand slots (frame offset / 8) */
    uint32_t r;                /* result slot */
    uint64_t val;              /* LK_CONST: the value; masks otherwise */
    uint32_t jump, jump2;      /* instruction indices */
} LIns;

typedef struct SimtPlan {
    struct SimtPlan *next;
    const Func *F;
    int ok;
    int oom;                   /* an allocation of the analysis failed: the launch traps T-OOM */
    uint32_t n, nslots;
    LIns *li;
    uint32_t W;                /* words of a slot set */
    uint64_t *live;            /* slots live into instruction i: live[i * W ..] (a superset) */
} SimtPlan;

/* ------------------------------------------------------------------ the plan */

static int slot_ok(const Func *F, int32_t off) { return off >= 0 && off % 8 == 0 && (uint32_t)off + 8 <= F->frame_size; }

static int copies_ok(const Func *F, const CopyList *cl)
{
    if (!cl) return 1;
    if (cl->n > 64) return 0;
    for (uint32_t i = 0; i < cl->n; i++)
        if (cl->c[i].size != 8 || !slot_ok(F, cl->c[i].dst) || !slot_ok(F, cl->c[i].src)) return 0;
    return 1;
}

/* every operand and result of the op is an 8-byte frame slot */
static int values_ok(const Func *F, const Instr *in)
{
    if (in->nres > 1) return 0;
    for (unsigned i = 0; i < in->nargs; i++)
        if (in->arg[i] >= 0 && !slot_ok(F, in->arg[i])) return 0;
    if (in->nres && !slot_ok(F, in->res[0])) return 0;
    if (in->op) {
        for (uint32_t i = 0; i < in->op->noperands; i++)
            if (value_frame_bytes(in->op->operands[i]->type) != 8) return 0;
        for (uint32_t i = 0; i < in->op->nresults; i++)
            if (value_frame_bytes(in->op->results[i]->type) != 8) return 0;
    }
    return 1;
}

static uint64_t mask_of(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

/* Decodes instruction i of F into p->li[i]; 0 when it is not one the lockstep path runs. */
static int decode(const Func *F, uint32_t i, LIns *d)
{
    const Instr *in = &F->entry[i];
    const Instr *base = F->entry;
    memset(d, 0, sizeof *d);
    if (in->queued) return 0;
    for (unsigned k = 0; k < 4 && k < in->nargs; k++) d->a[k] = in->arg[k] >= 0 ? (uint32_t)in->arg[k] / 8 : 0;
    d->r = in->nres && in->res[0] >= 0 ? (uint32_t)in->res[0] / 8 : 0;
    d->jump = in->jump ? (uint32_t)(in->jump - base) : i + 1;
    if (in->fn == interp_end || in->fn == interp_return) { d->k = LK_END; return 1; }
    if (in->fn == interp_for_init || in->fn == interp_for_next || in->fn == interp_for_next64) {
        d->k = in->fn == interp_for_init ? LK_FOR_INIT : LK_FOR_NEXT;
        for (unsigned k = 0; k < in->nargs; k++)
            if (!slot_ok(F, in->arg[k])) return 0;
        if (d->k == LK_FOR_INIT && !slot_ok(F, in->res[0])) return 0;
        if (d->k == LK_FOR_INIT) d->r = (uint32_t)in->res[0] / 8;
        d->bits = (uint8_t)in->imm[INTERP_IV_BITS];
        return copies_ok(F, in->ext) && copies_ok(F, in->ext2) && d->jump < F->ncode;
    }
    if (in->fn == interp_if) {
        d->k = LK_IF;
        return slot_ok(F, in->arg[0]) && d->jump < F->ncode && d->jump > i;
    }
    if (in->fn == interp_copy_jump) {
        d->k = LK_COPY_JUMP;
        return copies_ok(F, in->ext) && d->jump > i && d->jump <= F->ncode;
    }
    if (in->kind == OP_SYNCTHREADS) {
        d->k = LK_SYNC;
        return 1;
    }
    ScalarLane s = scalar_lane(in);
    if (s.kind != SLN_NONE) {
        if (!values_ok(F, in)) return 0;
        d->bits = (uint8_t)(s.bits > 64 ? 64 : s.bits);
        d->sbits = (uint8_t)(s.sbits > 64 ? 64 : s.sbits);
        d->op = (uint8_t)s.op;
        switch (s.kind) {
        case SLN_CONST: d->k = LK_CONST; d->val = s.value; break;
        case SLN_ADD: d->k = LK_ADD; break;
        case SLN_SUB: d->k = LK_SUB; break;
        case SLN_MUL: d->k = LK_MUL; break;
        case SLN_AND: d->k = LK_AND; break;
        case SLN_OR: d->k = LK_OR; break;
        case SLN_XOR: d->k = LK_XOR; break;
        case SLN_SHL: d->k = LK_SHL; break;
        case SLN_SHRU: d->k = LK_SHRU; break;
        case SLN_CMPI: d->k = LK_CMPI; break;
        case SLN_ZEXT: d->k = LK_ZEXT; d->val = mask_of(s.sbits) & mask_of(s.bits); break;
        case SLN_SEXT: d->k = LK_SEXT; d->val = mask_of(s.bits); break;
        case SLN_F32: d->k = LK_F32; break;
        case SLN_PURE_DIV: d->k = LK_PURE_DIV; break;
        default: d->k = LK_PURE; break;
        }
        if (d->k != LK_PURE && d->k != LK_CONST && d->k != LK_ZEXT && d->k != LK_SEXT) d->val = mask_of(s.bits);
        if ((d->k == LK_PURE || d->k == LK_PURE_DIV) && in->nres != 1) return 0;
        if (d->k == LK_PURE_DIV && (in->nargs < 2 || in->arg[1] < 0)) return 0;
        return 1;
    }
    /* the SIMT family's ops, by kind (simt_ops.c lowers each of these kinds inside SIMT code to one handler) */
    if (in->fn == interp_unsupported || !values_ok(F, in)) return 0;
    switch (in->kind) {
    case OP_LOAD_SCALAR: case OP_LDG: case OP_STORE_SCALAR: case OP_STG:
        d->k = in->kind == OP_LOAD_SCALAR || in->kind == OP_LDG ? LK_LOAD : LK_STORE;
        return in->imm[SO_BYTES] >= 1 && in->imm[SO_BYTES] <= 8;
    case OP_SQRT:
        if (in->imm[SO_FMT] == NUM_F32 && in->imm[SO_LANES] == 1) { d->k = LK_SQRT32; return 1; }
        d->k = LK_PURE;
        return in->nres == 1;
    case OP_ABSF: case OP_EXP: case OP_LOG: case OP_SIN: case OP_COS: case OP_CEIL: case OP_FLOOR: case OP_RINT:
    case OP_ROUND: case OP_POW: case OP_FMIN: case OP_FMAX: case OP_FMA: case OP_PRMT: case OP_MULHI:
    case OP_MUL_I32TOI64: case OP_CONVERT: case OP_LLVM_GEP:
        d->k = LK_PURE;
        return in->nres == 1;
    case OP_THREADFENCE: case OP_THREADFENCE_BLOCK:
        d->k = LK_NOP;
        return 1;
    case OP_GET_CLOCK32: case OP_GET_CLOCK64:   /* per-workitem cycles */
        return 0;
    default:
        if (in->kind < OP_GET_TID_X || in->kind > OP_GET_LANEMASK_GT) return 0;
        d->k = LK_QUERY;   /* op 1: differs between workitems */
        d->op = (uint8_t)((in->kind >= OP_GET_TID_X && in->kind <= OP_GET_TID_Z) || in->kind == OP_GET_LANEID ||
                          (in->kind >= OP_GET_LANEMASK_EQ && in->kind <= OP_GET_LANEMASK_GT));
        return in->nres == 1;
    }
}

static void mark_copies(const CopyList *cl, uint8_t *vary, int force, int *changed)
{
    if (!cl) return;
    for (uint32_t i = 0; i < cl->n; i++) {
        uint32_t d = (uint32_t)cl->c[i].dst / 8, s = (uint32_t)cl->c[i].src / 8;
        if ((force || vary[s]) && !vary[d]) { vary[d] = 1; *changed = 1; }
    }
}

/* Which slots may differ between workitems; then whether loops and barriers are where lockstep needs them. */
static int analyse(const Func *F, SimtPlan *p)
{
    uint32_t n = p->n;
    uint8_t *vary = mem_calloc(p->nslots + 1, 1), *div = mem_calloc(n + 1, 1);
    int ok = vary && div;
    if (!ok) p->oom = 1;
    for (int changed = 1, rounds = 0; ok && changed; rounds++) {
        changed = 0;
        memset(div, 0, n);
        for (uint32_t i = 0; i < n; i++) {   /* the branches of an scf.if on a varying condition */
            const LIns *d = &p->li[i];
            if (d->k != LK_IF || !vary[d->a[0]]) continue;
            uint32_t then_end = d->jump - 1, end = p->li[then_end].k == LK_COPY_JUMP ? p->li[then_end].jump : d->jump;
            for (uint32_t j = i + 1; j < end && j < n; j++) div[j] = 1;
        }
        for (uint32_t i = 0; i < n; i++) {
            const LIns *d = &p->li[i];
            const Instr *in = &F->entry[i];
            int v = 0;
            switch (d->k) {
            case LK_FOR_INIT: case LK_FOR_NEXT:
                mark_copies(in->ext, vary, 0, &changed);
                mark_copies(in->ext2, vary, 0, &changed);
                continue;
            case LK_COPY_JUMP:
                mark_copies(in->ext, vary, div[i], &changed);
                continue;
            case LK_LOAD: v = 1; break;
            case LK_QUERY: v = d->op; break;
            case LK_CONST: v = 0; break;
            case LK_ADD: case LK_SUB: case LK_MUL: case LK_AND: case LK_OR: case LK_XOR: case LK_SHL: case LK_SHRU:
            case LK_CMPI: case LK_ZEXT: case LK_SEXT: case LK_F32: case LK_SQRT32: case LK_PURE: case LK_PURE_DIV:
                for (unsigned k = 0; k < in->nargs; k++) v |= in->arg[k] >= 0 && vary[in->arg[k] / 8];
                break;
            default: continue;
            }
            if (v && !vary[d->r]) { vary[d->r] = 1; changed = 1; }
        }
        if (rounds > 4 * (int)n + 8) ok = 0;
    }
    for (uint32_t i = 0; ok && i < n; i++) {
        LIns *d = &p->li[i];
        const Instr *in = &F->entry[i];
        if (d->k >= LK_CONST && d->k != LK_LOAD && d->k != LK_STORE && !(d->k == LK_QUERY && d->op)) d->uni = !vary[d->r];
        if (d->k == LK_LOAD || d->k == LK_STORE) d->ubase = !vary[in->arg[d->k == LK_STORE] / 8];
    }
    /* lane-affine slots: 255 = tid_x itself (0 .. 2047, an exact integer), 1..64 = c + tid_x modulo 2^that, c uniform;
       0 = neither. One forward pass: a value op's operands are defined before it (dominance); copies give 0. */
    uint8_t *aff = ok ? mem_calloc(p->nslots + 1, 1) : NULL;
    if (ok && !aff) p->oom = 1;
    for (uint32_t i = 0; aff && i < n; i++) {
        LIns *d = &p->li[i];
        const Instr *in = &F->entry[i];
        uint8_t a0 = in->nargs > 0 && in->arg[0] >= 0 ? aff[in->arg[0] / 8] : 0;
        uint8_t a1 = in->nargs > 1 && in->arg[1] >= 0 ? aff[in->arg[1] / 8] : 0;
        int u0 = in->nargs > 0 && in->arg[0] >= 0 && !vary[in->arg[0] / 8];
        int u1 = in->nargs > 1 && in->arg[1] >= 0 && !vary[in->arg[1] / 8];
        uint8_t r = 0;
        switch (d->k) {
        case LK_QUERY:
            if (in->kind == OP_GET_TID_X) r = 255;
            break;
        case LK_ADD: case LK_SUB: {
            uint8_t m = a0 && u1 ? a0 : a1 && u0 && d->k == LK_ADD ? a1 : 0;
            if (m) r = (uint8_t)(m < d->bits ? m : d->bits);
            break;
        }
        case LK_ZEXT: case LK_SEXT:
            if (a0 == 255 && d->sbits >= 13 && d->bits >= 13) r = 255;   /* 0 .. 2047 survive the cast */
            else if (a0 && d->bits <= a0 && d->bits <= d->sbits) r = (uint8_t)d->bits;   /* truncation keeps it */
            break;
        default: break;
        }
        if (d->k >= LK_CONST && d->k != LK_STORE && d->k != LK_LOAD) aff[d->r] = r;
        if (d->k == LK_CMPI && a0 == 255 && u1 && d->op != SLN_EQ && d->op != SLN_NE) d->ctid = 1;
        if (d->k == LK_LOAD || d->k == LK_STORE) {
            unsigned b = d->k == LK_STORE, w = (unsigned)in->imm[SO_AUX];
            uint8_t m = in->imm[SO_AUX] && in->nargs > b + 1 && in->arg[b + 1] >= 0 ? aff[in->arg[b + 1] / 8] : 0;
            d->aidx = (uint8_t)(m && (m == 255 || m >= w));
        }
    }
    mem_free(aff);
    for (uint32_t i = 0; ok && i < n; i++) {
        const LIns *d = &p->li[i];
        if ((d->k == LK_FOR_INIT || d->k == LK_FOR_NEXT) && (vary[d->a[0]] || vary[d->a[1]] || vary[d->a[2]])) ok = 0;
        if (d->k == LK_SYNC && div[i]) ok = 0;
    }
    mem_free(vary);
    mem_free(div);
    return ok;
}

static void set_bit(uint64_t *b, uint32_t k) { b[k >> 6] |= 1ull << (k & 63); }
static void uses_copies(const CopyList *cl, uint64_t *b)
{
    for (uint32_t i = 0; cl && i < cl->n; i++) set_bit(b, (uint32_t)cl->c[i].src / 8);
}

/* Slots live into each instruction (backward, to a fixed point). Only an instruction's plain result kills;
   conditional writes (copies, loop variables) do not: a superset of the live slots, which is what a rollback
   needs (docs/internals.md: the slots an epoch may have to give back). */
static int liveness(const Func *F, SimtPlan *p)
{
    uint32_t n = p->n, W = (p->nslots + 63) / 64 + 1;
    p->W = W;
    p->live = mem_calloc((size_t)(n + 1) * W, sizeof *p->live);
    uint64_t *use = mem_calloc((size_t)(n + 1) * W, sizeof *use), *out = mem_calloc(W, sizeof *out);
    int ok = p->live && use && out;
    if (!ok) p->oom = 1;
    for (uint32_t i = 0; ok && i < n; i++) {
        const Instr *in = &F->entry[i];
        uint64_t *u = use + (size_t)i * W;
        const LIns *d = &p->li[i];
        switch (d->k) {
        case LK_FOR_INIT: case LK_FOR_NEXT: case LK_COPY_JUMP:
            uses_copies(in->ext, u);
            uses_copies(in->ext2, u);
            break;
        default: break;
        }
        if (d->k != LK_END && d->k != LK_COPY_JUMP && d->k != LK_CONST && d->k != LK_SYNC && d->k != LK_NOP)
            for (unsigned k = 0; k < in->nargs; k++)
                if (in->arg[k] >= 0) set_bit(u, (uint32_t)in->arg[k] / 8);
    }
    for (int changed = 1; ok && changed;) {
        changed = 0;
        for (uint32_t i = n; i-- > 0;) {
            const LIns *d = &p->li[i];
            memset(out, 0, W * sizeof *out);
            uint32_t succ[2] = {UINT32_MAX, UINT32_MAX};
            switch (d->k) {
            case LK_END: break;
            case LK_COPY_JUMP: succ[0] = d->jump; break;
            case LK_IF: case LK_FOR_INIT: case LK_FOR_NEXT: succ[0] = i + 1; succ[1] = d->jump; break;
            default: succ[0] = i + 1; break;
            }
            for (int s = 0; s < 2; s++)
                if (succ[s] < n)
                    for (uint32_t w = 0; w < W; w++) out[w] |= p->live[(size_t)succ[s] * W + w];
            int kills = d->k >= LK_CONST && d->k != LK_STORE;
            if (kills) out[d->r >> 6] &= ~(1ull << (d->r & 63));
            uint64_t *lv = p->live + (size_t)i * W;
            const uint64_t *u = use + (size_t)i * W;
            for (uint32_t w = 0; w < W; w++) {
                uint64_t v = out[w] | u[w];
                if (v != lv[w]) { lv[w] = v; changed = 1; }
            }
        }
    }
    mem_free(use);
    mem_free(out);
    return ok;
}

static SimtPlan *plan_of(SimtState *st, const Func *F)
{
    for (SimtPlan *p = st->plans; p; p = p->next)
        if (p->F == F) return p->oom ? NULL : p;
    SimtPlan *p = mem_calloc(1, sizeof *p);
    if (!p) return NULL;
    p->F = F;
    p->n = F->ncode;
    p->nslots = (F->frame_size + 7) / 8;
    p->li = mem_calloc(p->n + 1, sizeof *p->li);
    if (!p->li) { mem_free(p); return NULL; }   /* out of memory: the caller traps T-OOM */
    p->next = st->plans;
    st->plans = p;
    if (!p->n || !F->entry) return p;
    for (uint32_t i = 0; i < F->ncode; i++) {
        if (F->entry[i].fn == interp_condition || F->entry[i].fn == interp_call) return p;   /* scf.while, calls */
        if (!decode(F, i, &p->li[i])) return p;
    }
    p->ok = analyse(F, p) && liveness(F, p);
    return p->oom ? NULL : p;
}

int simt_lock_ok(SimtState *st, const Func *F)
{
    const SimtPlan *p = plan_of(st, F);
    return !p ? -1 : p->ok;
}

void simt_lock_free(SimtState *st)
{
    while (st->plans) {
        SimtPlan *n = st->plans->next;
        mem_free(st->plans->li);
        mem_free(st->plans->live);
        mem_free(st->plans);
        st->plans = n;
    }
    mem_free(st->lregs);
    mem_free(st->lanes);
    mem_free(st->laddr);
    st->lregs = NULL;
    st->lanes = NULL;
    st->laddr = NULL;
    st->lregs_cap = st->lanes_cap = 0;
}

/* ------------------------------------------------------------------ running */

typedef struct Group { uint32_t pc; uint32_t n; uint16_t *l; uint32_t nt; } Group;   /* nt: a prefix split's taken lanes */

/* One access of a group in the current epoch, for the conflict check: its byte hull and, when lane l's bytes are
   [key + n·l, key + n·l + n) for every lane of it (affine), the key. */
typedef struct Acc { uint64_t lo, hi, key; uint32_t n; uint8_t as, affine; } Acc;
enum { ACC_LIST = 32 };
/* the widest stretch a scattered access of a group is read (or written, when at most 4x its bytes) as one */
#define SIMT_HULL_MAX 65536u

/* An access replayed to the checkers when the epoch commits: lanes[first..first+cnt) at addrs[first..]. */
typedef struct LogAcc { const Instr *in; uint32_t first, cnt, n; uint8_t as, write, span, affine; } LogAcc;
/* Bytes an epoch overwrote, restored when it rolls back. */
typedef struct Undo { uint8_t *p; uint32_t len; size_t off; } Undo;

typedef struct LRun {
    Exec *job;
    SimtState *st;
    Sim *s;
    Cluster *cl;
    const Func *F;
    const SimtPlan *p;
    uint64_t **map;            /* slot -> its lanes */
    uint64_t **spare;          /* lane buffers free for renaming */
    /* slot -> when it holds a comparison of tid_x with a threshold (lanes [lo, hi) hold `below` under tb, the
       negation from tb on): ok set; cleared by any write of the slot, so an scf.if on it needs no scan */
    struct Pred { uint32_t lo, hi, tb; uint8_t below, ok; } *pred;
    /* slot -> its lanes are not in its buffer but one value on every lane (LZ_UNI: lv) or a threshold comparison
       over all lanes (LZ_PRED: lanes under lv's low half hold its bit 32, the rest the negation); the buffer is
       filled (rd) only when an op reads it lane by lane */
    uint8_t *lz;
    uint64_t *lv;
    uint32_t nspare;
    uint32_t N;
    uint64_t *steps, limit, *cycles;
    int lin;                   /* a one-dimensional launch: tid_x is the lane */
    uint64_t *prof;            /* with the profile on: executions per instruction in the epoch (given at commit) */
    int checkers;              /* some checker watches: accesses are logged and reported when the epoch commits */
    /* the epoch: where it started, what it changed */
    uint32_t start;
    uint64_t steps0, cycles0;
    const uint64_t *live;      /* slots live at its start */
    uint64_t *saved;           /* slots already renamed or saved in it */
    struct { uint32_t slot; uint64_t *old; uint64_t lv; uint8_t lz; } *ren;
    uint32_t nren;
    Acc rd[ACC_LIST], wr[ACC_LIST];
    uint32_t nrd, nwr;
    Undo *undo;
    uint32_t nundo, capundo;
    uint8_t *ubytes;
    size_t nub, capub;
    LogAcc *log;
    uint32_t nlog, caplog;
    uint16_t *llanes;
    uint64_t *laddrs;
    size_t nla, capla;
    int oom;
} LRun;

#define REG(k) (C->map[(k)])
enum { LZ_NONE, LZ_UNI, LZ_PRED };

/* The lanes of a lazy slot (lz, lv) into b. */
static void lazy_fill(uint64_t *b, uint32_t N, uint8_t lz, uint64_t lv)
{
    if (lz == LZ_UNI) {
        for (uint32_t l = 0; l < N; l++) b[l] = lv;
        return;
    }
    uint32_t tb = (uint32_t)lv < N ? (uint32_t)lv : N, l = 0;
    uint64_t below = lv >> 32;
    for (; l < tb; l++) b[l] = below;
    for (; l < N; l++) b[l] = below ^ 1;
}

/* Slot k's lanes for an op that reads them lane by lane. */
static inline const uint64_t *rd(LRun *C, uint32_t k)
{
    if (C->lz[k]) {
        lazy_fill(C->map[k], C->N, C->lz[k], C->lv[k]);
        C->lz[k] = LZ_NONE;
    }
    return C->map[k];
}

/* Lane l of slot k. */
static inline uint64_t rd1(const LRun *C, uint32_t k, uint32_t l)
{
    switch (C->lz[k]) {
    case LZ_NONE: return C->map[k][l];
    case LZ_UNI: return C->lv[k];
    default: return (C->lv[k] >> 32) ^ (uint64_t)(l >= (uint32_t)C->lv[k]);
    }
}
/* a loop over the group's lanes (increasing); `full`: they are consecutive ids (the whole launch, a prefix, ...) */
#define LANES(...)                                                                                                    \
    do {                                                                                                              \
        if (full) {                                                                                                   \
            for (uint32_t l = act[0], e_ = act[0] + na; l < e_; l++) { __VA_ARGS__; }                                 \
        } else {                                                                                                      \
            for (uint32_t q_ = 0; q_ < na; q_++) { uint32_t l = act[q_]; __VA_ARGS__; }                               \
        }                                                                                                             \
    } while (0)

/* ---- the epoch's undo state */

/* Before slot k is written: a slot live at the epoch's start keeps its old lanes for a rollback (a fresh buffer
   takes the writes; `keep`: the new buffer starts as a copy, because some lanes are not written or the op
   reads k too). */
static void before_write(LRun *C, uint32_t k, int keep)
{
    uint8_t lz = C->lz[k];
    uint64_t lv = C->lv[k];
    C->pred[k].ok = 0;
    C->lz[k] = LZ_NONE;   /* the writer makes it lazy again after this, if it is */
    if (!((C->live[k >> 6] >> (k & 63)) & 1) || ((C->saved[k >> 6] >> (k & 63)) & 1)) {
        if (lz && keep) lazy_fill(C->map[k], C->N, lz, lv);
        return;
    }
    C->saved[k >> 6] |= 1ull << (k & 63);
    uint64_t *nb = C->spare[--C->nspare], *old = C->map[k];
    if (keep && lz) lazy_fill(nb, C->N, lz, lv);
    else if (keep) memcpy(nb, old, C->N * sizeof *nb);
    C->ren[C->nren].slot = k;
    C->ren[C->nren].old = old;
    C->ren[C->nren].lz = lz;
    C->ren[C->nren].lv = lv;
    C->nren++;
    C->map[k] = nb;
}

/* Writes v to the group's lanes of slot k: lazily when the group is every lane. */
static void put_uniform(LRun *C, uint32_t k, uint64_t v, const uint16_t *act, uint32_t na, int full)
{
    if (na == C->N) {
        before_write(C, k, 0);
        C->lz[k] = LZ_UNI;
        C->lv[k] = v;
        return;
    }
    before_write(C, k, 1);
    uint64_t *y = REG(k);
    LANES(y[l] = v);
}

static void before_copies(LRun *C, const CopyList *cl)
{
    for (uint32_t i = 0; cl && i < cl->n; i++) before_write(C, (uint32_t)cl->c[i].dst / 8, 1);
}

static int grow(void **p, uint32_t *cap, size_t elem, uint32_t need)
{
    if (need <= *cap) return 0;
    uint32_t c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *q = mem_realloc(*p, (size_t)c * elem);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

static int grow_z(void **p, size_t *cap, size_t elem, size_t need)
{
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 4096;
    while (c < need) c *= 2;
    void *q = mem_realloc(*p, c * elem);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

static int grow_la(LRun *C, size_t need)
{
    if (need <= C->capla) return 0;
    size_t c = C->capla ? C->capla : 4096;
    while (c < need) c *= 2;
    uint16_t *a = mem_realloc(C->llanes, c * sizeof *a);
    if (a) C->llanes = a;
    uint64_t *b = mem_realloc(C->laddrs, c * sizeof *b);
    if (b) C->laddrs = b;
    if (!a || !b) return -1;
    C->capla = c;
    return 0;
}

/* Keeps the bytes [p, p + len) an access is about to overwrite. */
static int save_bytes(LRun *C, uint8_t *p, uint64_t len)
{
    if (grow((void **)&C->undo, &C->capundo, sizeof *C->undo, C->nundo + 1) ||
        grow_z((void **)&C->ubytes, &C->capub, 1, C->nub + len)) return -1;
    memcpy(C->ubytes + C->nub, p, len);
    C->undo[C->nundo++] = (Undo){p, (uint32_t)len, C->nub};
    C->nub += len;
    return 0;
}

/* Whether an access conflicts with the epoch's earlier ones: the same bytes touched by two different lanes, one of
   them writing (conservatively: overlapping hulls unless both are affine with one key and size); then records it. */
static int conflicts(LRun *C, const Acc *a, int write)
{
    for (int li = 0; li < 2; li++) {
        const Acc *L = li ? C->wr : C->rd;
        uint32_t n = li ? C->nwr : C->nrd;
        if (!li && !write) continue;   /* read against read: never */
        for (uint32_t i = 0; i < n; i++) {
            const Acc *b = &L[i];
            if (b->as != a->as || b->hi <= a->lo || a->hi <= b->lo) continue;
            if (a->affine && b->affine && a->key == b->key && a->n == b->n) continue;
            return 1;
        }
    }
    Acc *L = write ? C->wr : C->rd;
    uint32_t *n = write ? &C->nwr : &C->nrd;
    for (uint32_t i = 0; i < *n; i++) {   /* the same lanes' pattern again: one record */
        Acc *b = &L[i];
        if (b->as == a->as && ((a->affine && b->affine && a->key == b->key && a->n == b->n) ||
                               (!a->affine && !b->affine && a->lo <= b->hi && b->lo <= a->hi))) {
            if (a->lo < b->lo) b->lo = a->lo;
            if (a->hi > b->hi) b->hi = a->hi;
            return 0;
        }
    }
    if (*n == ACC_LIST) {   /* full: every record of the space becomes one hull, affine no more */
        uint32_t k = 0;
        Acc h = *a;
        h.affine = 0;
        for (uint32_t i = 0; i < *n; i++) {
            if (L[i].as != a->as) { L[k++] = L[i]; continue; }
            if (L[i].lo < h.lo) h.lo = L[i].lo;
            if (L[i].hi > h.hi) h.hi = L[i].hi;
        }
        *n = k;
        if (k == ACC_LIST) return 1;   /* only other spaces fill it (never: two spaces are checked) */
        L[(*n)++] = h;
        return 0;
    }
    L[(*n)++] = *a;
    return 0;
}

/* ---- lane operations */

static void run_copies(LRun *C, const CopyList *cl, const uint16_t *act, uint32_t na, int full)
{
    if (!cl || !cl->n) return;
    before_copies(C, cl);
    if (cl->n == 1) {
        uint64_t *d = REG(cl->c[0].dst / 8);
        const uint64_t *s = rd(C, cl->c[0].src / 8);
        LANES(d[l] = s[l]);
        return;
    }
    /* parallel copy: every source read before any destination is written, per lane (at most 64: the plan) */
    uint64_t tmp[64];
    for (uint32_t i = 0; i < cl->n; i++) rd(C, cl->c[i].src / 8);
    LANES({
        for (uint32_t i = 0; i < cl->n; i++) tmp[i] = REG(cl->c[i].src / 8)[l];
        for (uint32_t i = 0; i < cl->n; i++) REG(cl->c[i].dst / 8)[l] = tmp[i];
    });
}

/* A handler run as it is on each lane: the operands go into the workitem's own frame, the result comes back. */
static void run_pure(LRun *C, const Instr *in, const uint16_t *act, uint32_t na, int full)
{
    uint64_t *r = REG(in->res[0] / 8);
    LANES({
        SimtItem *it = &C->st->items[l];
        Exec *x = &it->x;
        for (unsigned k = 0; k < in->nargs; k++)
            if (in->arg[k] >= 0) fr_set_u64(x, in->arg[k], rd1(C, in->arg[k] / 8, l));
        C->st->cur = it;
        x->cur = in;
        in->fn(x, in);
        r[l] = fr_u64(x, in->res[0]);
    });
    C->st->cur = NULL;
}

/* Whether [a, a + len) of space `as` is inside one buffer: sim_mem on it neither traps nor warns. */
static int span_ok(const LRun *C, AddrSpace as, uint64_t a, uint64_t len)
{
    if (a == SIM_ADDR_WRAP || len > UINT64_MAX - a) return 0;
    if (as == AS_GM) {
        const Sim *s = C->s;
        int j = sim_gm_find(s, a);
        if (j < 0) return 0;
        const GmBuf *g = &s->gm[j];
        return a >= g->base && a - g->base <= g->size && len <= g->size - (a - g->base) && a >= SIM_GM_BASE &&
               a - SIM_GM_BASE <= s->gm_span && len <= s->gm_span - (a - SIM_GM_BASE);
    }
    if (as >= AS__COUNT) return 0;
    uint64_t sz = C->job->core->memsz[as];
    return a <= sz && len <= sz - a;
}

/* The host bytes of an access known to be in bounds, with nothing recorded (the epoch reports it when it commits). */
static uint8_t *quiet_mem(LRun *C, Exec *x, const Instr *in, AddrSpace as, uint64_t a, uint64_t len, unsigned align,
                          int write)
{
    int w = C->cl->watch, g = C->cl->gm_watch;
    C->cl->watch = C->cl->gm_watch = 0;
    x->cur = in;
    uint8_t *p = sim_mem(x, in, as, a, len, align, write ? ACC_WRITE : ACC_READ, write ? "destination" : "source");
    C->cl->watch = w;
    C->cl->gm_watch = g;
    return p;
}

/* A load or store of the group: 0 done, 1 the epoch must roll back (a conflict, an access that would trap or
   warn: the per-workitem order decides those), -1 after a trap (out of host memory). */
static int run_mem(LRun *C, const Instr *in, int store, int ubase, int aidx, const uint16_t *act, uint32_t na, int full)
{
    uint32_t N = C->N;
    SimtState *st = C->st;
    unsigned n = (unsigned)in->imm[SO_BYTES], align = (unsigned)in->imm[SO_ALIGN];
    AddrSpace as = (AddrSpace)in->imm[SO_SPACE];
    unsigned b = store ? 1u : 0u;
    const uint64_t *base = rd(C, in->arg[b] / 8);
    const uint64_t *idx = in->imm[SO_AUX] && in->arg[b + 1] >= 0 ? rd(C, in->arg[b + 1] / 8) : NULL;
    unsigned w = (unsigned)in->imm[SO_AUX];
    uint64_t *A = st->laddr;
    uint32_t l0 = act[0], m = na;
    uint64_t lo = 0, hi = 0;
    int consec = 0, affine = 0, filled = 0;
    /* the common case first: consecutive lanes, one pointer, index = lane + c: lane l at lo + n·(l - l0) */
    if (full && ubase) {
        uint64_t b0 = base[l0];
        if (idx) {
            uint64_t sm = w >= 64 ? 0 : 1ull << (w - 1), vm = w >= 64 ? ~0ull : (sm << 1) - 1;
            uint64_t c0 = (((idx[l0] & vm) ^ sm) - sm) - l0, bad = 0;
            int64_t i0 = bits_sext(idx[l0], w), i1 = bits_sext(idx[l0 + na - 1], w);
            /* an index known to be c + tid_x modulo 2^w (the plan) needs only its ends: no wrap between them */
            if (aidx) bad = (uint64_t)i1 - (uint64_t)i0 != na - 1;
            else
                for (uint32_t l = l0; l < l0 + na; l++) bad |= ((((idx[l] & vm) ^ sm) - sm) - l) ^ c0;
            if (!bad) {
                uint64_t a0 = sim_index_addr(b0, i0, n), a1 = sim_index_addr(b0, i1, n);
                if (a0 != SIM_ADDR_WRAP && a1 != SIM_ADDR_WRAP && i1 >= i0) {
                    lo = a0;
                    hi = a1;
                    consec = affine = 1;
                }
            }
        } else if (na == 1) {
            lo = hi = b0;
            consec = affine = 1;
        }
    }
    if (!consec) {
        m = 0;
        if (idx) LANES(A[m++] = sim_index_addr(base[l], bits_sext(idx[l], w), n));
        else LANES(A[m++] = base[l]);
        filled = 1;
        consec = affine = 1;
        uint64_t key = A[0] - (uint64_t)n * l0;
        lo = hi = A[0];
        for (uint32_t j = 0; j < m; j++) {
            if (j) consec &= A[j] == A[j - 1] + n;
            affine &= A[j] == key + (uint64_t)n * act[j];
            if (A[j] < lo) lo = A[j];
            if (A[j] > hi) hi = A[j];
        }
    }
    uint64_t key = lo - (uint64_t)n * l0;   /* when affine (lo is lane l0's address) */
    int aligned = align <= 1 || (lo % align == 0 && (n % align == 0 || m == 1));
    if (!consec && align > 1) {
        aligned = 1;
        for (uint32_t j = 0; j < m && aligned; j++) aligned = A[j] % align == 0;
    }
    if (!aligned || hi == SIM_ADDR_WRAP || !span_ok(C, as, lo, consec ? (uint64_t)n * m : n)) return 1;
    if (!consec)
        for (uint32_t j = 0; j < m; j++)
            if (!span_ok(C, as, A[j], n)) return 1;
    Acc acc = {lo, hi + n, key, n, (uint8_t)as, (uint8_t)affine};
    if (conflicts(C, &acc, store)) return 1;
    const uint64_t *v = store ? rd(C, in->arg[0] / 8) : NULL;
    if (!store) before_write(C, (uint32_t)in->res[0] / 8, na != N);
    uint64_t *r = store ? NULL : REG(in->res[0] / 8);
    Exec *x0 = &st->items[l0].x;
    if (consec) {
        uint8_t *p = quiet_mem(C, x0, in, as, lo, (uint64_t)n * m, align, store);
        if (!p) return -1;
        if (store && save_bytes(C, p, (uint64_t)n * m)) { C->oom = 1; return -1; }
        if (full) {   /* lane l at p + n·(l - l0) */
            uint8_t *q = p - (size_t)n * l0;
            if (store && n == 4) for (uint32_t l = l0; l < l0 + na; l++) { uint32_t t = (uint32_t)v[l]; memcpy(q + 4 * (size_t)l, &t, 4); }
            else if (store) for (uint32_t l = l0; l < l0 + na; l++) memcpy(q + (size_t)n * l, &v[l], n);
            else if (n == 4) for (uint32_t l = l0; l < l0 + na; l++) { uint32_t t; memcpy(&t, q + 4 * (size_t)l, 4); r[l] = t; }
            else for (uint32_t l = l0; l < l0 + na; l++) { uint64_t t = 0; memcpy(&t, q + (size_t)n * l, n); r[l] = t; }
        } else {
            uint32_t j = 0;
            if (store) LANES({ memcpy(p + (size_t)n * j, &v[l], n); j++; });
            else LANES({ uint64_t t = 0; memcpy(&t, p + (size_t)n * j, n); r[l] = t; j++; });
        }
    } else if (hi - lo <= SIMT_HULL_MAX && (!store || hi - lo <= 4ull * n * m) && span_ok(C, as, lo, hi - lo + n)) {
        /* scattered lanes inside one small stretch of one buffer (a broadcast read, a gather): its bytes once */
        uint8_t *p = quiet_mem(C, x0, in, as, lo, hi - lo + n, align, store);
        if (!p) return -1;
        if (store && save_bytes(C, p, hi - lo + n)) { C->oom = 1; return -1; }
        uint32_t j = 0;
        if (store) LANES({ memcpy(p + (A[j] - lo), &v[l], n); j++; });
        else if (hi == lo && n == 4) {   /* every lane reads the same word */
            uint32_t t;
            memcpy(&t, p, 4);
            LANES(r[l] = t);
        } else LANES({ uint64_t t = 0; memcpy(&t, p + (A[j] - lo), n); r[l] = t; j++; });
    } else {
        uint32_t j = 0;
        int rc = 0;
        LANES({
            uint8_t *q = quiet_mem(C, &st->items[l].x, in, as, A[j], n, align, store);
            if (!q) { rc = -1; break; }
            if (store) {
                if (save_bytes(C, q, n)) { C->oom = 1; rc = -1; break; }
                memcpy(q, &v[l], n);
            } else {
                uint64_t t = 0;
                memcpy(&t, q, n);
                r[l] = t;
            }
            j++;
        });
        if (rc) return -1;
    }
    if (C->checkers) {   /* reported when the epoch commits, in this order */
        if (grow((void **)&C->log, &C->caplog, sizeof *C->log, C->nlog + 1) || grow_la(C, C->nla + m)) {
            C->oom = 1;
            return -1;
        }
        C->log[C->nlog++] = (LogAcc){in, (uint32_t)C->nla, m, n, (uint8_t)as, (uint8_t)store, (uint8_t)consec,
                                     (uint8_t)affine};
        uint32_t j = 0;
        LANES({
            C->llanes[C->nla + j] = (uint16_t)l;
            C->laddrs[C->nla + j] = filled ? A[j] : lo + (uint64_t)n * j;
            j++;
        });
        C->nla += m;
    }
    return 0;
}

static int cmp(int op, uint64_t a, uint64_t b, unsigned w)
{
    int64_t sa = bits_sext(a, w), sb = bits_sext(b, w);
    switch (op) {
    case SLN_EQ: return a == b;
    case SLN_NE: return a != b;
    case SLN_SLT: return sa < sb;
    case SLN_SLE: return sa <= sb;
    case SLN_SGT: return sa > sb;
    case SLN_SGE: return sa >= sb;
    case SLN_ULT: return a < b;
    case SLN_ULE: return a <= b;
    case SLN_UGT: return a > b;
    default: return a >= b;
    }
}

/* ---- epochs */

/* The epoch ends well (a pto.syncthreads, the end): its accesses go to the checkers, its undo state is dropped. */
static int commit(LRun *C)
{
    SimtState *st = C->st;
    /* The workitem race checker needs this epoch's accesses only if two lanes can have met: conflicts() let no
       two accesses of the epoch touch the same bytes from different lanes with one writing (it rolls the epoch
       back instead), so only a write whose own lanes may share bytes (neither consecutive nor one affine
       pattern) can hold a race. Otherwise the epoch leaves nothing the checker could use: its records only
       ever meet accesses of the same epoch. */
    int race = 0;
    if (C->s->race_check && !st->race.off)
        for (uint32_t i = 0; i < C->nlog && !race; i++) race = C->log[i].write && !C->log[i].span && !C->log[i].affine;
    for (uint32_t i = 0; i < C->nlog; i++) {
        const LogAcc *g = &C->log[i];
        AddrSpace as = (AddrSpace)g->as;
        int mode = g->write ? ACC_WRITE : ACC_READ;
        if (C->cl->watch || (as == AS_GM && C->cl->gm_watch)) {
            /* a read the initcheck may report names the bytes of one workitem's access: lane by lane then (unless
               every byte it reads was written: nothing to report) */
            Exec *x = &st->items[C->llanes[g->first]].x;
            int per_lane = !g->write && as != AS_GM && (C->s->checks & CHK_INIT);
            if (per_lane && g->span)
                per_lane = !check_init_clean(x, x->core, as, C->laddrs[g->first], (uint64_t)g->n * g->cnt);
            if (g->span && !per_lane) {
                x->cur = g->in;
                sim_access(x, g->in, x->core, as, C->laddrs[g->first], (uint64_t)g->n * g->cnt, mode);
            } else {
                for (uint32_t j = 0; j < g->cnt; j++) {
                    /* the same bytes as the lane before: the same records (each checker keeps a union, and warns
                       once per op) */
                    if (j && C->laddrs[g->first + j] == C->laddrs[g->first + j - 1]) continue;
                    x = &st->items[C->llanes[g->first + j]].x;
                    x->cur = g->in;
                    sim_access(x, g->in, x->core, as, C->laddrs[g->first + j], g->n, mode);
                }
            }
        }
        if (race) {
            if (g->span) {
                simt_race_span(st, g->in, as, C->laddrs[g->first], g->n, C->llanes + g->first, g->cnt, g->write);
            } else {
                for (uint32_t j = 0; j < g->cnt; j++) {
                    SimtItem *it = &st->items[C->llanes[g->first + j]];
                    st->cur = it;
                    simt_race_access(&it->x, g->in, as, C->laddrs[g->first + j], g->n, g->write, 0);
                    if (C->s->trapped) break;
                }
                st->cur = NULL;
            }
        }
        if (C->s->trapped) return -1;
    }
    C->nlog = 0;
    C->nla = 0;
    if (C->prof)
        for (uint32_t i = 0; i < C->p->n; i++)
            if (C->prof[i]) {
                obs_profile_n(C->s->obs, &C->F->entry[i], 0, C->prof[i]);
                C->prof[i] = 0;
            }
    for (uint32_t i = 0; i < C->nren; i++) C->spare[C->nspare++] = C->ren[i].old;
    C->nren = 0;
    memset(C->saved, 0, C->p->W * sizeof *C->saved);
    C->nundo = 0;
    C->nub = 0;
    C->nrd = C->nwr = 0;
    return 0;
}

static void begin(LRun *C, uint32_t start)
{
    C->start = start;
    C->live = C->p->live + (size_t)start * C->p->W;
    C->steps0 = *C->steps;
    C->cycles0 = *C->cycles;
}

/* The epoch rolls back: memory, lanes, counters as at its start; every workitem then continues from there on its
   own (simt.c's scheduler). */
static void rollback(LRun *C)
{
    SimtState *st = C->st;
    for (uint32_t i = C->nundo; i-- > 0;) memcpy(C->undo[i].p, C->ubytes + C->undo[i].off, C->undo[i].len);
    for (uint32_t i = C->nren; i-- > 0;) {
        C->spare[C->nspare++] = C->map[C->ren[i].slot];
        C->map[C->ren[i].slot] = C->ren[i].old;
        C->lz[C->ren[i].slot] = C->ren[i].lz;
        C->lv[C->ren[i].slot] = C->ren[i].lv;
    }
    C->nren = 0;
    *C->steps = C->steps0;
    *C->cycles = C->cycles0;
    if (C->prof) memset(C->prof, 0, C->p->n * sizeof *C->prof);
    uint32_t N = C->N;
    const Instr *pc = &C->F->entry[C->start];
    for (uint32_t l = 0; l < N; l++) {
        SimtItem *it = &st->items[l];
        for (uint32_t k = 0; k < C->p->nslots; k++) fr_set_u64(&it->x, (int32_t)(8 * k), rd1(C, k, l));
        it->pc = pc;
        it->state = SI_RUN;
    }
}

/* The value of a uniform instruction, computed on lane l0: 0, or 1 when the epoch must roll back. */
static int uni_value(LRun *C, const LIns *d, const Instr *in, uint32_t l0, uint64_t *out)
{
    uint64_t a = d->k != LK_CONST && in->nargs > 0 && in->arg[0] >= 0 ? rd1(C, d->a[0], l0) : 0;
    uint64_t b = d->k != LK_CONST && in->nargs > 1 && in->arg[1] >= 0 ? rd1(C, d->a[1], l0) : 0;
    uint64_t mk = d->val, v;
    unsigned w = d->bits;
    switch (d->k) {
    case LK_CONST: v = d->val; break;
    case LK_ADD: v = (a + b) & mk; break;
    case LK_SUB: v = (a - b) & mk; break;
    case LK_MUL: v = (a * b) & mk; break;
    case LK_AND: v = a & b & mk; break;
    case LK_OR: v = (a | b) & mk; break;
    case LK_XOR: v = (a ^ b) & mk; break;
    case LK_SHL: v = ((b & mk) >= w ? 0 : a << (b & mk)) & mk; break;
    case LK_SHRU: v = ((b & mk) >= w ? 0 : (a & mk) >> (b & mk)) & mk; break;
    case LK_CMPI: v = (uint64_t)cmp(d->op, a & mk, b & mk, w); break;
    case LK_ZEXT: v = a & mk; break;
    case LK_SEXT: v = (uint64_t)bits_sext(a, d->sbits) & mk; break;
    case LK_F32: v = num_f32_arith_rn((NumOp)d->op, (uint32_t)a, (uint32_t)b); break;
    case LK_SQRT32: v = num_f32_arith_rn(NUM_OP_SQRT, (uint32_t)a, 0); break;
    default: {   /* LK_PURE, LK_PURE_DIV, LK_QUERY */
        if (d->k == LK_PURE_DIV && (b & mk) == 0) return 1;
        SimtItem *it = &C->st->items[l0];
        Exec *x = &it->x;
        for (unsigned k = 0; k < in->nargs; k++)
            if (in->arg[k] >= 0) fr_set_u64(x, in->arg[k], rd1(C, in->arg[k] / 8, l0));
        C->st->cur = it;
        x->cur = in;
        in->fn(x, in);
        C->st->cur = NULL;
        v = fr_u64(x, in->res[0]);
        break;
    }
    }
    *out = v;
    return 0;
}

#define BIN(expr)                                                                                                     \
    do {                                                                                                              \
        const uint64_t *x0 = rd(C, d->a[0]), *x1 = rd(C, d->a[1]);                                                    \
        before_write(C, d->r, na != C->N || d->r == d->a[0] || d->r == d->a[1]);                                           \
        uint64_t *y = REG(d->r), mk = d->val;                                                                         \
        LANES({ uint64_t a = x0[l], b = x1[l]; y[l] = (expr) & mk; });                                               \
    } while (0)
#define UN(expr)                                                                                                      \
    do {                                                                                                              \
        const uint64_t *x0 = rd(C, d->a[0]);                                                                          \
        before_write(C, d->r, na != C->N || d->r == d->a[0]);                                                              \
        uint64_t *y = REG(d->r), mk = d->val;                                                                         \
        (void)mk;                                                                                                     \
        LANES({ uint64_t a = x0[l]; y[l] = (expr); });                                                                \
    } while (0)
#define F32(OPC)                                                                                                      \
    do {                                                                                                              \
        const uint64_t *x0 = rd(C, d->a[0]), *x1 = rd(C, d->a[1]);                                                    \
        before_write(C, d->r, na != C->N || d->r == d->a[0] || d->r == d->a[1]);                                           \
        uint64_t *y = REG(d->r);                                                                                      \
        LANES(y[l] = num_f32_arith_rn(OPC, (uint32_t)x0[l], (uint32_t)x1[l]));                                        \
    } while (0)

/* Runs the group g until: it ends (0), reaches a pto.syncthreads (1), meets the pending group on top of the stack
   (2), splits at a divergent scf.if (3), must roll the epoch back (4); -1 after a trap. */
static int run_group(LRun *C, Group *g, uint32_t stop)
{
    const LIns *li = C->p->li;
    const Instr *code = C->F->entry;
    uint32_t N = C->N;
    uint32_t pc = g->pc;
    const uint16_t *act = g->l;
    uint32_t na = g->n;
    int full = (uint32_t)act[na - 1] - act[0] == na - 1;   /* consecutive ids */
    for (;;) {
        if (pc >= stop) { g->pc = pc; return 2; }
        const LIns *d = &li[pc];
        const Instr *in = &code[pc];
        *C->steps += na;
        if (*C->steps > C->limit) { g->pc = pc; return 4; }   /* the per-workitem run names the workitem */
        if (d->k == LK_SYNC) { g->pc = pc; return 1; }
        *C->cycles += (uint64_t)in->cost * na;
        if (C->prof) C->prof[pc] += na;
        uint32_t next = pc + 1;
        if (d->uni) {
            uint64_t v;
            if (uni_value(C, d, in, act[0], &v)) { g->pc = pc; return 4; }
            put_uniform(C, d->r, v, act, na, full);
            if (C->s->trapped) return -1;
            pc = next;
            continue;
        }
        switch (d->k) {
        case LK_END:
            g->pc = UINT32_MAX;
            return 0;
        case LK_FOR_INIT: {
            uint32_t l0 = act[0];
            unsigned w = d->bits;
            uint64_t lb = rd1(C, d->a[0], l0), ub = rd1(C, d->a[1], l0);
            put_uniform(C, d->r, lb, act, na, full);
            run_copies(C, in->ext, act, na, full);
            if (bits_sext(lb, w) >= bits_sext(ub, w)) {
                run_copies(C, in->ext2, act, na, full);
                next = d->jump;
            }
            break;
        }
        case LK_FOR_NEXT: {
            uint32_t l0 = act[0];
            unsigned w = d->bits;
            run_copies(C, in->ext, act, na, full);
            uint64_t v = (rd1(C, d->a[3], l0) + rd1(C, d->a[2], l0)) & mask_of(w);
            put_uniform(C, d->a[3], v, act, na, full);
            if (bits_sext(v, w) < bits_sext(rd1(C, d->a[1], l0), w)) next = d->jump;
            else run_copies(C, in->ext2, act, na, full);
            break;
        }
        case LK_IF: {
            const struct Pred *P = &C->pred[d->a[0]];
            uint32_t nt = 0;
            if (C->lz[d->a[0]] == LZ_UNI) {
                if (!(C->lv[d->a[0]] & 1)) next = d->jump;
                break;
            }
            if (full && P->ok && P->below && act[0] >= P->lo && act[0] + na <= P->hi) {
                /* lanes under the threshold take it: a prefix of the group, counted without a scan */
                nt = P->tb <= act[0] ? 0 : P->tb - act[0] >= na ? na : P->tb - act[0];
                if (nt == na) break;
                if (nt == 0) { next = d->jump; break; }
                g->pc = pc;
                g->nt = nt;
                return 5;
            }
            const uint64_t *c = rd(C, d->a[0]);
            LANES(nt += (uint32_t)(c[l] & 1));
            if (nt == na) break;
            if (nt == 0) { next = d->jump; break; }
            g->pc = pc;
            if (full) {   /* consecutive lanes, the first nt of them taking it (no 0 -> 1 step): no partition */
                uint64_t rise = 0;
                for (uint32_t l = act[0] + 1; l < act[0] + na; l++) rise |= c[l] & ~c[l - 1];
                if (!(rise & 1)) { g->nt = nt; return 5; }
            }
            return 3;
        }
        case LK_COPY_JUMP:
            run_copies(C, in->ext, act, na, full);
            next = d->jump;
            break;
        case LK_NOP: break;
        case LK_CONST: put_uniform(C, d->r, d->val, act, na, full); break;
        case LK_ADD: BIN(a + b); break;
        case LK_SUB: BIN(a - b); break;
        case LK_MUL: BIN(a * b); break;
        case LK_AND: BIN(a & b); break;
        case LK_OR: BIN(a | b); break;
        case LK_XOR: BIN(a ^ b); break;
        case LK_SHL: { unsigned w = d->bits; BIN((b & mk) >= w ? 0 : a << (b & mk)); break; }
        case LK_SHRU: { unsigned w = d->bits; BIN((b & mk) >= w ? 0 : (a & mk) >> (b & mk)); break; }
        case LK_CMPI: {
            /* branch-free forms (vectorise without 64-bit compares): borrow(a - b) is a <u b; signed operands
               sign-extended and their sign bits flipped compare unsigned */
            unsigned w = d->bits;
            uint64_t sm = w >= 64 ? 0 : 1ull << (w - 1), fl = 1ull << 63;
            if (d->ctid && full && C->lin) {   /* lane l compares l itself: true on one side of a threshold */
                uint64_t hv = rd1(C, d->a[1], act[0]) & d->val;
                uint32_t e = act[0] + na, tb;   /* lanes below tb: l < h (or l <= h) in the predicate's order */
                int le = d->op == SLN_ULE || d->op == SLN_SLE || d->op == SLN_UGT || d->op == SLN_SGT;
                int sgn = d->op == SLN_SLT || d->op == SLN_SLE || d->op == SLN_SGT || d->op == SLN_SGE;
                if (sgn) {
                    int64_t h = bits_sext(hv, w);
                    tb = h < 0 ? 0 : (uint64_t)h >= e ? e : (uint32_t)h + (uint32_t)le;
                } else {
                    tb = hv >= e ? e : (uint32_t)hv + (uint32_t)le;
                }
                if (tb > e) tb = e;
                uint64_t below = d->op == SLN_ULT || d->op == SLN_ULE || d->op == SLN_SLT || d->op == SLN_SLE;
                if (na == N) {   /* every lane: lazily */
                    before_write(C, d->r, 0);
                    C->lz[d->r] = LZ_PRED;
                    C->lv[d->r] = below << 32 | tb;
                } else {
                    before_write(C, d->r, 1);
                    uint64_t *y = REG(d->r);
                    uint32_t l = act[0];
                    for (; l < tb; l++) y[l] = below;
                    for (; l < e; l++) y[l] = below ^ 1;
                }
                C->pred[d->r] = (struct Pred){act[0], e, tb, (uint8_t)below, 1};
                break;
            }
#define ULT_(x, y) (((~(x) & (y)) | (~((x) ^ (y)) & ((x) - (y)))) >> 63)
#define SX_(x) (((((x) & mk) ^ sm) - sm) ^ fl)
            switch (d->op) {
            case SLN_EQ: BIN(((((a ^ b) & mk) | (0 - ((a ^ b) & mk))) >> 63) ^ 1); break;
            case SLN_NE: BIN(((((a ^ b) & mk) | (0 - ((a ^ b) & mk))) >> 63)); break;
            case SLN_ULT: BIN(ULT_(a & mk, b & mk)); break;
            case SLN_ULE: BIN(ULT_(b & mk, a & mk) ^ 1); break;
            case SLN_UGT: BIN(ULT_(b & mk, a & mk)); break;
            case SLN_UGE: BIN(ULT_(a & mk, b & mk) ^ 1); break;
            case SLN_SLT: BIN(ULT_(SX_(a), SX_(b))); break;
            case SLN_SLE: BIN(ULT_(SX_(b), SX_(a)) ^ 1); break;
            case SLN_SGT: BIN(ULT_(SX_(b), SX_(a))); break;
            default: BIN(ULT_(SX_(a), SX_(b)) ^ 1); break;
            }
#undef ULT_
#undef SX_
            break;
        }
        case LK_ZEXT: UN(a & mk); break;
        case LK_SEXT: { unsigned sw = d->sbits; UN((uint64_t)bits_sext(a, sw) & mk); break; }
        case LK_F32:
            switch (d->op) {
            case NUM_OP_ADD: F32(NUM_OP_ADD); break;
            case NUM_OP_SUB: F32(NUM_OP_SUB); break;
            case NUM_OP_MUL: F32(NUM_OP_MUL); break;
            default: F32(NUM_OP_DIV); break;
            }
            break;
        case LK_SQRT32: UN(num_f32_arith_rn(NUM_OP_SQRT, (uint32_t)a, 0)); break;
        case LK_LOAD: case LK_STORE: {
            int r = run_mem(C, in, d->k == LK_STORE, d->ubase, d->aidx && C->lin, act, na, full);
            if (r) { g->pc = pc; return r < 0 ? -1 : 4; }
            break;
        }
        case LK_PURE_DIV: {
            const uint64_t *dv = rd(C, d->a[1]);
            uint64_t mk = d->val;
            int zero = 0;
            LANES(zero |= (dv[l] & mk) == 0);
            if (zero) { g->pc = pc; return 4; }   /* the per-workitem run traps at the right workitem */
        }
        /* fall through */
        default:   /* LK_PURE, LK_QUERY */
            before_write(C, d->r, 1);
            run_pure(C, in, act, na, full);
            break;
        }
        if (C->s->trapped) return -1;
        pc = next;
    }
}

int simt_lock_run(Exec *job, SimtState *st, const Func *F, const uint64_t *params, uint32_t nparams, uint64_t *steps,
                  uint64_t limit, uint64_t *cycles)
{
    SimtPlan *p = plan_of(st, F);
    if (!p || !p->ok) return 1;
    Exec *x0 = &st->items[0].x;
    uint32_t N = st->nitems, S = p->nslots;
    /* lane buffers: one per slot, as many again for the renames of an epoch */
    size_t nreg = (size_t)2 * S * N;
    if (nreg > st->lregs_cap) {
        mem_free(st->lregs);
        st->lregs = mem_calloc(nreg, sizeof *st->lregs);
        st->lregs_cap = st->lregs ? nreg : 0;
        if (!st->lregs) goto oom;
    }
    /* lane lists: the running group's and the pending groups' share one array of N (a split partitions its
       group's part in place, a merge joins two neighbouring parts), plus N for merging */
    if ((size_t)2 * N > st->lanes_cap) {
        mem_free(st->lanes);
        st->lanes = mem_alloc((size_t)2 * N * sizeof *st->lanes);
        st->lanes_cap = st->lanes ? (size_t)2 * N : 0;
        if (!st->lanes) goto oom;
    }
    if (!st->laddr && !(st->laddr = mem_alloc(SIMT_MAX_ITEMS * sizeof *st->laddr))) goto oom;
    LRun C;
    memset(&C, 0, sizeof C);
    C.map = mem_alloc((size_t)S * 2 * sizeof *C.map);
    C.ren = mem_alloc((size_t)S * sizeof *C.ren);
    C.saved = mem_calloc(p->W, sizeof *C.saved);
    C.pred = mem_calloc(S, sizeof *C.pred);
    C.lz = mem_calloc(S, sizeof *C.lz);
    C.lv = mem_calloc(S, sizeof *C.lv);
    if (!C.map || !C.ren || !C.saved || !C.pred || !C.lz || !C.lv) {
        mem_free(C.map);
        mem_free(C.ren);
        mem_free(C.saved);
        mem_free(C.pred);
        mem_free(C.lz);
        mem_free(C.lv);
        goto oom;
    }
    C.spare = C.map + S;
    for (uint32_t k = 0; k < S; k++) {
        C.map[k] = st->lregs + (size_t)k * N;
        C.spare[k] = st->lregs + (size_t)(S + k) * N;
    }
    C.nspare = S;
    const uint64_t *live0 = p->live;
    for (uint32_t k = 0; k < S; k++)
        if ((live0[k >> 6] >> (k & 63)) & 1) memset(C.map[k], 0, N * sizeof *C.map[k]);
    for (uint32_t k = 0; k < nparams && k < F->nparams; k++) {
        uint64_t *r = C.map[F->param_off[k] / 8];
        for (uint32_t l = 0; l < N; l++) r[l] = params[k];
    }
    C.job = job;
    C.st = st;
    C.s = job->core->sim;
    C.cl = job->core->cl;
    C.F = F;
    C.p = p;
    C.N = N;
    C.steps = steps;
    C.limit = limit;
    C.cycles = cycles;
    C.lin = st->dim[0] == N;
    if (C.s->obs->profile && !(C.prof = mem_calloc(p->n + 1, sizeof *C.prof))) {
        mem_free(C.map);
        mem_free(C.ren);
        mem_free(C.saved);
        mem_free(C.pred);
        mem_free(C.lz);
        mem_free(C.lv);
        goto oom;
    }
    C.checkers = C.cl->watch || C.cl->gm_watch || C.s->race_check;
    begin(&C, 0);
    int rc = 0;
    /* groups: stack[0..ns) pending (the top has the smallest program point), plus the running one */
    Group stack[64];
    uint32_t ns = 0;
    uint16_t *pool = st->lanes, *tmp = st->lanes + N;
    Group cur = {0, N, pool, 0};
    for (uint32_t l = 0; l < N; l++) cur.l[l] = (uint16_t)l;
    for (;;) {
        uint32_t stop = ns ? stack[ns - 1].pc : UINT32_MAX;
        int r = run_group(&C, &cur, stop);
        if (r < 0 || ((r == 3 || r == 5) && ns == 64)) {
            if (r < 0 && C.oom && !C.s->trapped)
                sim_trap(&st->items[0].x, &F->entry[cur.pc], DIAG_T_OOM, "out of host memory in a SIMT launch");
            if (r < 0) { rc = -1; break; }
            r = 4;   /* deeper divergence than the stack holds: per workitem from the epoch's start */
        }
        if (r == 4) {
            rollback(&C);
            rc = 2;
            break;
        }
        if (r == 5) {   /* a divergent scf.if taken by a prefix of the group's (consecutive) lanes */
            const LIns *d = &p->li[cur.pc];
            uint32_t nt = cur.nt;
            stack[ns++] = (Group){d->jump, cur.n - nt, cur.l + nt, 0};
            cur.n = nt;
            cur.pc++;
            continue;
        }
        if (r == 3) {   /* a divergent scf.if at cur.pc: the lanes that take it run on, the others wait */
            const LIns *d = &p->li[cur.pc];
            const uint64_t *c = C.map[d->a[0]];
            uint32_t nt = 0, nf = 0;
            for (uint32_t j = 0; j < cur.n; j++) {
                uint16_t l = cur.l[j];
                if (c[l] & 1) cur.l[nt++] = l;
                else tmp[nf++] = l;
            }
            memcpy(cur.l + nt, tmp, nf * sizeof *tmp);
            stack[ns++] = (Group){d->jump, nf, cur.l + nt, 0};
            cur.n = nt;
            cur.pc++;
            continue;
        }
        if (r == 2) {   /* the running group reached the top pending group's point: merge, or let that one run */
            Group *t = &stack[ns - 1];
            if (cur.pc == t->pc) {
                /* the two lists are neighbours in the array, each increasing: merged in increasing id */
                uint16_t *lo = cur.l < t->l ? cur.l : t->l;
                const Group *a = cur.l < t->l ? &cur : t, *z = cur.l < t->l ? t : &cur;
                if (a->l[a->n - 1] < z->l[0]) {   /* already in order (a prefix and the rest, ...) */
                    cur.l = lo;
                    cur.n = a->n + z->n;
                    ns--;
                    continue;
                }
                uint32_t i = 0, j = 0, k = 0;
                while (i < cur.n || j < t->n) {
                    if (j >= t->n || (i < cur.n && cur.l[i] < t->l[j])) tmp[k++] = cur.l[i++];
                    else tmp[k++] = t->l[j++];
                }
                memcpy(lo, tmp, k * sizeof *tmp);
                cur.l = lo;
                cur.n = k;
                ns--;
            } else {
                Group t2 = *t;
                *t = cur;
                cur = t2;
            }
            continue;
        }
        if (r == 1) {   /* pto.syncthreads: every lane is here (it is outside divergent code, no lane has finished) */
            if (ns || cur.n != N) {   /* not expected (the plan keeps barriers out of divergent code) */
                rollback(&C);
                rc = 2;
                break;
            }
            if (commit(&C)) { rc = -1; break; }
            st->epoch++;
            cur.pc++;
            begin(&C, cur.pc);
            continue;
        }
        if (ns) { cur = stack[--ns]; continue; }   /* the group finished; a pending one runs */
        if (commit(&C)) rc = -1;
        break;
    }
    mem_free(C.map);
    mem_free(C.ren);
    mem_free(C.saved);
    mem_free(C.pred);
    mem_free(C.lz);
    mem_free(C.lv);
    mem_free(C.undo);
    mem_free(C.ubytes);
    mem_free(C.log);
    mem_free(C.llanes);
    mem_free(C.laddrs);
    mem_free(C.prof);
    return rc;
oom:
    sim_trap(x0, F->entry, DIAG_T_OOM, "out of host memory preparing a SIMT launch in lockstep");
    return -1;
}
