/* vsched.c — static timing of vector scopes, and the base costs of every other instruction
 * (docs/timing.md, "Vector scopes").
 *
 * A vector scope runs on the V pipe as one job; the interpreter adds up the `cost` of every instruction
 * it executes in the scope, plus the vector function's startup and drain. Those costs are set here,
 * once per launch and timing table, from a schedule of the scope's code:
 *   - an innermost scf.for (a body without control flow) is a software-pipelined loop: its cycles per
 *     iteration are II = max(front end, compute ports, unit 0, load/store ports, the longest loop-carried
 *     chain of forwarding distances), fractional; the first iteration's extra latency (critical path - II)
 *     is charged once per loop nest, and a loop inside another loop adds the gap between instances;
 *   - any other straight-line run of instructions costs max(resource bound, critical path) at the top
 *     of a scope, and its ports' bound inside a loop nest (the nest's pipeline hides its latency);
 * and each instruction of a loop body or run carries its share of those cycles, weighted by how long
 * it occupies its unit, so per-line profiles add up to the scope's cycles. A dependent op issues `fwd`
 * cycles after its producer (`fwd_st` for a store), and a result retires `lat` cycles after issue.
 * Dependencies are those through frame slots (registers, masks, scalars); memory dependencies between
 * vector loads and stores are not modelled (the hardware orders them in its queues). */
#include "vsched.h"
#include "base/alloc.h"
#include "interp.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Per-instruction facts for the schedule. */
typedef struct VNode {
    const Instr *in;
    uint32_t lat;              /* issue -> result retired (0: no result that matters) */
    uint32_t fwd, fwd_st;      /* issue -> a dependent compute op / store may issue */
    uint32_t occ;              /* cycles on its unit (the profile's weight) */
    double pocc;               /* cycles on its port for the bounds (compute ports: at most `inflight` in flight) */
    int unit;                  /* TmUnit, or -1 for front-end-only instructions (scalar arith) */
    int slots;                 /* front-end slots (0: control flow) */
} VNode;

static int is_ctrl(const Instr *in)
{
    return in->fn == interp_for_init || in->fn == interp_for_next || in->fn == interp_for_next64 ||
           in->fn == interp_if || in->fn == interp_copy_jump || in->fn == interp_condition ||
           in->fn == interp_section || in->fn == interp_end || in->fn == interp_call || in->fn == interp_return;
}

/* Element kind of a vector op's first vreg (or pointer) operand. */
static ElemKind operand_kind(const Op *op)
{
    for (uint32_t i = 0; i < op->noperands; i++) {
        const Type *t = op->operands[i] ? op->operands[i]->type : NULL;
        if (t && (t->kind == TY_VREG || t->kind == TY_VMI_VREG || t->kind == TY_PTR)) return elem_kind(t->elem);
    }
    return EK_BAD;
}

/* Element kind of a vector op: its first vreg result, else its first vreg/pointer operand. */
static ElemKind node_kind(const Op *op)
{
    for (uint32_t i = 0; i < op->nresults; i++)
        if (op->results[i]->type->kind == TY_VREG || op->results[i]->type->kind == TY_VMI_VREG)
            return elem_kind(op->results[i]->type->elem);
    return operand_kind(op);
}

/* Physical registers of a VMI op's widest vector operand or result (at least 1). */
static unsigned vmi_regs_of(const Op *op)
{
    unsigned k = 1;
    for (uint32_t i = 0; i < op->noperands; i++)
        if (op->operands[i] && op->operands[i]->type->kind == TY_VMI_VREG && ty_vmi_regs(op->operands[i]->type) > k)
            k = ty_vmi_regs(op->operands[i]->type);
    for (uint32_t i = 0; i < op->nresults; i++)
        if (op->results[i]->type->kind == TY_VMI_VREG && ty_vmi_regs(op->results[i]->type) > k)
            k = ty_vmi_regs(op->results[i]->type);
    return k;
}

static VNode node(const Timing *T, const Instr *in)
{
    VNode n = {in, 0, 0, 0, 0, 0, -1, 0};
    if (is_ctrl(in) || !in->op) return n;
    OpFamily f = op_info[in->kind].fam;
    n.slots = 1;
    if (f == FAM_ARITH || f == FAM_PTR || f == FAM_QUERY || f == FAM_STRUCT) {
        n.lat = n.fwd = n.fwd_st = 1;   /* address and index arithmetic: a front-end slot, one cycle */
        return n;
    }
    /* a VMI op is charged as the K micro ops it stands for (ops_vmi.def VMI rows): K slots, K times the
       unit's occupancy, and its results K - 1 cycles after the first micro op's (docs/timing.md "VMI") */
    int micro = op_vmi_micro(in->kind);
    unsigned K = micro >= 0 ? vmi_regs_of(in->op) : 1;
    TmVec v = timing_vec(T, (OpKind)(micro >= 0 ? micro : in->kind), node_kind(in->op), operand_kind(in->op));
    n.lat = v.lat + (K - 1);
    n.fwd = v.fwd + (K - 1);
    n.fwd_st = v.fwd_st + (K - 1);
    n.occ = (v.ii ? v.ii : 1) * K;
    n.pocc = (v.unit == TU_EXU || v.unit == TU_EXU0 ? timing_port_occ(T, v) : (v.ii ? v.ii : 1)) * K;
    n.unit = v.unit;
    n.slots = (int)K;
    return n;
}

/* ------------------------------------------------------------------ dependencies through frame slots */

/* When a consumer of each written slot may issue, keyed by frame offset / 8 (slots are 8-byte aligned): t for
   a compute consumer, s for a store. */
typedef struct Ready { int64_t *t, *s; uint32_t n; } Ready;

static int64_t ready_of(const Ready *R, int32_t off, int store)
{
    return off >= 0 && (uint32_t)(off / 8) < R->n ? (store ? R->s : R->t)[off / 8] : INT64_MIN;
}
static void set_ready(Ready *R, int32_t off, int64_t t, int64_t s)
{
    if (off >= 0 && (uint32_t)(off / 8) < R->n) {
        R->t[off / 8] = t;
        R->s[off / 8] = s;
    }
}

/* Earliest-issue schedule with unlimited resources over nodes [0, n): returns the critical path (the
   latest retirement). Slots not written yet are ready at `ready_default` (0, or INT64_MIN to find the
   chain starting at one slot). */
static int64_t crit_path(const VNode *v, uint32_t n, Ready *R, int64_t ready_default)
{
    int64_t end = 0;
    for (uint32_t i = 0; i < n; i++) {
        const Instr *in = v[i].in;
        int store = v[i].unit == TU_STORE;
        int64_t s = 0;
        int any = 0;
        for (unsigned a = 0; a < in->nargs; a++) {
            int64_t r = ready_of(R, in->arg[a], store);
            if (r == INT64_MIN) r = ready_default;
            if (r == INT64_MIN) continue;
            if (!any || r > s) s = r;
            any = 1;
        }
        if (!any && ready_default == INT64_MIN) continue;   /* not on a chain from the start slot */
        if (!any) s = 0;
        int64_t done = s + v[i].lat;
        for (unsigned r = 0; r < in->nres; r++) set_ready(R, in->res[r], s + v[i].fwd, s + v[i].fwd_st);
        if (done > end) end = done;
    }
    return end;
}

/* Per-iteration bounds of a set of nodes (docs/timing.md): *fe = front-end slots / issue width (only the
   slots of instructions with a unit when `units_only`), the result = the busiest port; *why its VB_*. */
static double res_bound(const Timing *T, const VNode *v, uint32_t n, int units_only, double *fe, int *why, double *nest)
{
    double slots = 0, exu = 0, exu0 = 0, ld = 0, st = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!units_only || (v[i].unit >= 0 && v[i].unit != TU_ISSUE)) slots += v[i].slots;
        switch (v[i].unit) {
        case TU_EXU: exu += v[i].pocc; break;
        case TU_EXU0: exu0 += v[i].pocc; exu += v[i].pocc; break;
        case TU_LOAD: ld += v[i].pocc; break;
        case TU_STORE: st += v[i].pocc; break;
        default: break;   /* a front-end slot only */
        }
    }
    *fe = slots / T->issue_width;
    double b[VB_RES_COUNT] = {0};
    b[VB_EXU] = exu / T->units[TU_EXU];
    b[VB_EXU0] = exu0 / T->units[TU_EXU0];
    /* a cycle issues two loads, or one load and one store (each store cycle takes one load along) */
    double scyc = st / T->units[TU_STORE], left = ld > scyc ? ld - scyc : 0;
    b[VB_LDST] = scyc + left / T->units[TU_LOAD];
    if (nest) *nest = timing_nest_res(b[VB_EXU], b[VB_EXU0], b[VB_LDST]);
    double best = 0;
    *why = VB_ISSUE;
    for (int k = VB_EXU; k < VB_RES_COUNT; k++)
        if (b[k] > best) {
            best = b[k];
            *why = k;
        }
    return best;
}

/* Spreads `total` cycles over the nodes in proportion to their weight (occupancy, at least 1 for any
   issued node), as integers that add up to total; control flow carries nothing. */
static void spread(VNode *v, uint32_t n, uint64_t total)
{
    uint64_t W = 0;
    for (uint32_t i = 0; i < n; i++) W += v[i].slots ? (v[i].occ ? v[i].occ : 1) : 0;
    uint64_t cum = 0, given = 0;
    for (uint32_t i = 0; i < n; i++) {
        Instr *in = (Instr *)v[i].in;
        uint64_t w = v[i].slots ? (v[i].occ ? v[i].occ : 1) : 0;
        cum += w;
        uint64_t upto = W ? total * cum / W : 0;
        uint64_t c = upto - given;
        given = upto;
        in->cost = (uint32_t)(c > UINT32_MAX ? UINT32_MAX : c);
    }
    if (!W && n) ((Instr *)v[n - 1].in)->cost += (uint32_t)total;
}

static uint32_t cyc32(double c)
{
    if (!(c > 0)) return 0;
    c = ceil(c - 1e-9);
    return c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

/* The trip count of a loop whose bounds and step are arith.constant values, else -1. */
static int const_int(const Value *v, int64_t *out)
{
    if (!v || !v->def || v->def->kind != OP_ARITH_CONSTANT) return 0;
    const Attr *a = op_attr(v->def, "value");
    if (!a || a->kind != AT_INT) return 0;
    *out = a->i;
    return 1;
}

static int64_t trip_count(const Instr *init)
{
    const Op *op = init->op;
    int64_t lb, ub, st;
    if (!op || op->kind != OP_SCF_FOR || op->noperands < 3 || !const_int(op->operands[0], &lb) ||
        !const_int(op->operands[1], &ub) || !const_int(op->operands[2], &st) || st <= 0)
        return -1;
    if (ub <= lb) return 0;
    return (int64_t)(((uint64_t)ub - (uint64_t)lb + (uint64_t)st - 1) / (uint64_t)st);
}

/* ------------------------------------------------------------------ scopes */

typedef struct Annot {
    const Timing *T;
    VecSched *out;
    VNode *nodes;
    uint32_t cap;
    Ready R;
    int failed;
} Annot;

static int grow(Annot *A, uint32_t n)
{
    if (n <= A->cap) return 0;
    VNode *v = mem_realloc(A->nodes, n * sizeof *v);
    if (!v) return -1;
    A->nodes = v;
    A->cap = n;
    return 0;
}

static void reset_ready(Annot *A, int64_t val)
{
    for (uint32_t i = 0; i < A->R.n; i++) A->R.t[i] = A->R.s[i] = val;
}

/* A straight-line run [a, b): at the top of a scope max(resource bound, critical path); inside a loop nest
   (`nest` = the nest's outermost loop) the ports' bound of its instructions with a unit (the gap between
   inner-loop instances covers the loop's own control, predicate and address instructions). */
static void time_run(Annot *A, const Instr *a, const Instr *b, const Instr *nest)
{
    uint32_t n = (uint32_t)(b - a);
    if (!n || grow(A, n)) { A->failed |= n != 0; return; }
    for (uint32_t i = 0; i < n; i++) A->nodes[i] = node(A->T, a + i);
    int why;
    double fe, res = res_bound(A->T, A->nodes, n, nest != NULL, &fe, &why, NULL);
    double c = fe > res ? fe : res;
    if (!nest) {
        reset_ready(A, INT64_MIN);
        int64_t cp = crit_path(A->nodes, n, &A->R, 0);
        if ((double)cp > c) c = (double)cp;
    }
    spread(A->nodes, n, cyc32(c));
}

/* An innermost loop: init at `init`, body (init, next), back edge `next`; `nest` = the outermost loop of
   the scope around it, or NULL. */
static void time_loop(Annot *A, Instr *init, Instr *next, Instr *nest)
{
    const Timing *T = A->T;
    const Instr *a = init + 1;
    uint32_t n = (uint32_t)(next - a);
    if (grow(A, n ? n : 1)) { A->failed = 1; return; }
    for (uint32_t i = 0; i < n; i++) A->nodes[i] = node(T, a + i);
    int why;
    double fe, res_nest, res = res_bound(T, A->nodes, n, 0, &fe, &why, &res_nest);
    int fe_why = VB_ISSUE;
    if (fe < T->iter_min) {
        fe = T->iter_min;
        fe_why = VB_ITER;
    }
    double ii = res;
    if (fe >= ii) {
        ii = fe;
        why = fe_why;
    }
    reset_ready(A, INT64_MIN);
    int64_t lat = crit_path(A->nodes, n, &A->R, 0);
    /* loop-carried chains: a value yielded into an iter_arg feeds the next iteration, which may issue its
       consumer `fwd` cycles after the producer issued */
    const CopyList *carried = next->ext;
    int64_t rec = 0;
    for (uint32_t c = 0; carried && c < carried->n; c++) {
        reset_ready(A, INT64_MIN);
        set_ready(&A->R, carried->c[c].dst, 0, 0);
        crit_path(A->nodes, n, &A->R, INT64_MIN);
        int64_t t = ready_of(&A->R, carried->c[c].src, 0);
        if (t > rec) rec = t;
    }
    if ((double)rec > ii) {
        ii = (double)rec;
        why = VB_CHAIN;
    }
    /* the fill: the first iteration takes its critical path instead of II */
    double fill = (double)lat > ii ? (double)lat - ii : 0;
    int64_t N = trip_count(init);
    /* per instance: N iterations at the fractional II (then rounded up once), else ceil(II) each; a loop
       inside another one adds, per instance, what an outer iteration takes beyond its N iterations */
    double per = N >= 0 ? floor(ii + 1e-9) : ceil(ii - 1e-9), inst;
    if (N >= 0) {
        inst = (double)N * ii;
        if (nest) {
            double o = timing_outer_iter(T, (double)N, fe, res_nest > (double)rec ? res_nest : (double)rec);
            if (o > inst) inst = o;
        }
    } else {
        inst = 0;
        if (nest && fe >= res && fe >= (double)rec) inst = T->loop_gap;
    }
    spread(A->nodes, n, (uint64_t)per);
    double base = N >= 0 ? (double)N * per : 0;
    double extra = inst - base;   /* >= 0: per <= ii */
    if (nest) {
        nest->cost += cyc32(fill);   /* once per loop nest */
        init->cost = cyc32(extra);
    } else {
        init->cost = cyc32(fill + extra);
    }
    next->cost = 0;
    VecSched *o = A->out;
    if (o->nloops < VSCHED_MAX_LOOPS) {
        o->loops[o->nloops++] = (VecLoop){init, next, cyc32(ii), (uint32_t)lat, (uint8_t)why};
    }
}

/* Times the body [body, end) of one scope. */
static void time_scope(Annot *A, Instr *body, Instr *end)
{
    enum { MAXNEST = 32 };
    Instr *outer[MAXNEST];   /* the loops around the current point that are not innermost */
    int sp = 0;
    Instr *run = body;
    for (Instr *p = body; p < end; p++) {
        if (!is_ctrl(p)) continue;
        Instr *nest = sp ? outer[0] : NULL;
        if (p != nest) p->cost = 0;
        if (p->fn == interp_for_init) {
            Instr *next = (Instr *)p->jump - 1;
            int inner = next > p && next < end && (next->fn == interp_for_next || next->fn == interp_for_next64);
            for (Instr *q = p + 1; inner && q < next; q++) inner = !is_ctrl(q);
            time_run(A, run, p, nest);
            if (inner) {
                time_loop(A, p, next, nest);
                p = next;
                run = next + 1;
                continue;
            }
            run = p + 1;
            if (next > p && next < end && sp < MAXNEST) outer[sp++] = p;
            continue;
        }
        time_run(A, run, p, nest);
        run = p + 1;
        while (sp && p + 1 >= outer[sp - 1]->jump) sp--;   /* p is the back edge of the innermost open loop */
    }
    time_run(A, run, end, sp ? outer[0] : NULL);
}

int vsched_annotate(VecSched *out, Program *P, const Timing *T)
{
    Annot A = {T, out, NULL, 0, {NULL, NULL, 0}, 0};
    out->nloops = 0;
    A.R.n = P->max_frame / 8 + 1;
    A.R.t = mem_alloc(A.R.n * sizeof *A.R.t);
    A.R.s = mem_alloc(A.R.n * sizeof *A.R.s);
    if (!A.R.t || !A.R.s) {
        mem_free(A.R.t);
        mem_free(A.R.s);
        return -1;
    }
    for (uint32_t f = 0; f < P->nfuncs; f++) {
        Instr *code = (Instr *)P->funcs[f].entry;
        uint32_t n = P->funcs[f].ncode;
        for (uint32_t i = 0; code && i < n; i++) {
            Instr *in = &code[i];
            if (in->pfn == interp_vecscope) {
                const ScopeInfo *si = in->ext;
                Instr *body = (Instr *)si->body, *end = (Instr *)in->jump - 1;
                in->cost = T->vf_startup + T->vf_drain;
                time_scope(&A, body, end);
                end->cost = 0;
                i = (uint32_t)(end - code);
            } else if (in->fn == sim_issue) {
                /* queued ops: synchronisation takes its fixed cycles; transfers and compute add theirs */
                in->cost = op_info[in->kind].fam == FAM_SYNC ? T->sync_op : 0;
            } else {
                in->cost = T->scalar_op;
            }
        }
    }
    mem_free(A.R.t);
    mem_free(A.R.s);
    mem_free(A.nodes);
    return A.failed ? -1 : 0;
}

const char *vsched_bound_name(int why)
{
    static const char *const n[] = {"issue width", "execution units", "execution unit 0", "load/store ports",
                                    "one iteration per cycle", "a loop-carried dependency chain"};
    return why >= 0 && why <= VB_CHAIN ? n[why] : "?";
}
