/* launch.c — the public run API: bind kernel parameters to buffers and scalars, choose the kind of
 * cluster (one AIV per block for vector kernels, one AIC for cube kernels, AIC + 2 AIV for mixed ones),
 * and run the blocks (blocks.c: on a pool of threads, with the result of running them in block order). */
#include "launch_int.h"
#include "base/alloc.h"
#include "module.h"
#include "guard.h"
#include "base/num.h"
#include "exec/machine.h"
#include "isa/ctx.h"
#include "exec/race.h"
#include "exec/vsched.h"
#include "exec/observe.h"
#include "exec/check.h"
#include "lower/lower.h"
#include "ops/ops.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


enum { DEFAULT_STEP_LIMIT = 200000000 };

/* ------------------------------------------------------------------ entry selection */

typedef struct FindEntry {
    const char *name;
    const Op *found[8];
    int nfound, nkernels;
    const Op *any[8];
    int nany;
    char kernels[256];         /* the kernels' names, for the error when several could run */
} FindEntry;

static int find_entry(Op *o, void *ud)
{
    FindEntry *fe = ud;
    if (o->kind != OP_FUNC || !o->nregions) return 0;
    const Attr *s = op_attr(o, "sym_name");
    if (fe->name) {
        if (s && !strcmp(s->s, fe->name) && fe->nfound < 8) fe->found[fe->nfound++] = o;
        return 0;
    }
    if (op_is_kernel(o)) {
        if (fe->nfound < 8) fe->found[fe->nfound++] = o;
        size_t n = strlen(fe->kernels);
        if (n + 8 < sizeof fe->kernels)
            snprintf(fe->kernels + n, sizeof fe->kernels - n, "%s@%s", fe->nkernels ? ", " : "", s && s->s ? s->s : "?");
        else if (n + 4 < sizeof fe->kernels && strcmp(fe->kernels + n - 3, "...") != 0)
            snprintf(fe->kernels + n, sizeof fe->kernels - n, "...");
        fe->nkernels++;
    }
    if (fe->nany < 8) fe->any[fe->nany++] = o;
    return 0;
}

static void launch_err(Module *m, DiagId id, SrcLoc loc, const char *fmt, const char *a)
{
    diag_add(&m->ctx->diags, SEV_ERROR, id, loc, fmt, a);
}
static void pto_launch_free_unguarded(PtoLaunch *l);

static PtoLaunch *pto_launch_new_unguarded(PtoModule *m, const char *entry, PtoTarget target)
{
    /* entry problems point at the module (for an empty file: its start) */
    SrcLoc none = m->top && m->top->loc.line ? m->top->loc : (SrcLoc){m->file, 1, 1};
    if (!m->top || m->ctx->diags.nerrors) {
        launch_err(m, DIAG_V_ENTRY, none, "%s", "the module has errors; fix them before running");
        return NULL;
    }
    FindEntry fe;
    memset(&fe, 0, sizeof fe);
    if (entry && entry[0] == '@') entry++;   /* -e @name as the module writes it */
    fe.name = entry;
    ir_walk(m->top, find_entry, &fe);
    const Op *f = NULL;
    if (entry) {
        if (fe.nfound != 1) {
            launch_err(m, DIAG_V_ENTRY, none, fe.nfound ? "entry '@%s' is defined more than once" : "no function '@%s' in the module", entry);
            return NULL;
        }
        f = fe.found[0];
    } else if (fe.nfound == 1) {
        f = fe.found[0];
    } else if (fe.nfound == 0 && fe.nany == 1) {
        f = fe.any[0];
    } else if (fe.nkernels > 1) {
        launch_err(m, DIAG_V_ENTRY, none, "the module has several kernels (%s); choose one with -e NAME", fe.kernels);
        return NULL;
    } else {
        launch_err(m, DIAG_V_ENTRY, none, "%s", fe.nany == 0 ? "the module defines no function to run"
                                                 : "no pto.kernel function and more than one function; choose one with -e");
        return NULL;
    }
    if (target == PTO_TARGET_DEFAULT) target = pto_module_target(m);
    PtoLaunch *l = mem_calloc(1, sizeof *l);
    if (!l) goto oom;
    l->m = m;
    l->target = target;
    l->entry_op = f;
    size_t d0 = m->ctx->diags.n;
    l->prog = lower_program(m->ctx, m, f);
    if (!l->prog) {
        /* a form the simulator cannot lower (T-UNSUPPORTED, ...) was reported as such: no E-OOM besides */
        for (size_t i = d0; i < m->ctx->diags.n; i++)
            if (m->ctx->diags.items[i].id != DIAG_OOM && m->ctx->diags.items[i].sev == SEV_ERROR) {
                pto_launch_free_unguarded(l);
                return NULL;
            }
        goto oom;   /* lowering's E-OOM is there already: diag_oom adds no second one */
    }
    for (uint32_t i = 0; i < l->prog->nfuncs && !l->entry; i++)   /* the first: not a scope variant */
        if (l->prog->funcs[i].op == f) l->entry = &l->prog->funcs[i];
    const Block *b = f->regions[0]->block;
    unsigned np = b->nargs;
    l->param_vals = mem_calloc(np + 1, sizeof *l->param_vals);
    l->bound = mem_calloc(np + 1, 1);
    l->info = mem_calloc(np + 1, sizeof *l->info);
    l->sim.gm = mem_calloc(np + 1, sizeof *l->sim.gm);
    if (!l->param_vals || !l->bound || !l->info || !l->sim.gm) goto oom;
    for (unsigned i = 0; i < np; i++)
        if (api_param_info(m->ctx, b->args[i], &l->info[i])) goto oom;
    l->sim.ctx = m->ctx;
    l->sim.diags = &m->ctx->diags;
    sb_init(&l->out);
    l->sim.out = &l->out;
    l->sim.prog = l->prog;
    l->sim.entry = l->entry;
    l->sim.tp = target_profile(target);
    l->sim.step_limit = DEFAULT_STEP_LIMIT;
    l->sim.max_memory = PTO_DEFAULT_MAX_MEMORY;
    if (timing_default(&l->timing, target)) goto oom;
    l->sim.timing = &l->timing;
    l->sim.deadlock_explain = ops_explain_deadlock;
    l->sim.check = check_new();
    l->binds = mem_calloc(b->nargs + 1, sizeof *l->binds);
    l->sim.obs = obs_new();
    if (!l->sim.check || !l->binds || !l->sim.obs) goto oom;
    l->sim.obs->spill = 1;   /* the trace of committed blocks goes to temporary files (observe.h) */
    return l;
oom:   /* every failure above is an allocation's */
    diag_oom(&m->ctx->diags, 0);
    pto_launch_free_unguarded(l);
    return NULL;
}
static void pto_launch_free_unguarded(PtoLaunch *l)
{
    if (!l) return;
    for (unsigned i = 0; i < l->nruns; i++) launch_run_free(l->runs[i]);
    mem_free(l->runs);
    sb_free(&l->out);
    mem_free(l->info);
    mem_free(l->param_vals);
    mem_free(l->bound);
    mem_free(l->sim.gm);
    program_free(l->prog);
    timing_free(&l->timing);
    obs_free(l->sim.obs);
    check_free(l->sim.check);
    mem_free(l->binds);
    sim_gm_free(&l->sim);
    mem_free(l->stall_view);
    mem_free(l->prof);
    mem_free(l);
}

unsigned pto_launch_num_params(const PtoLaunch *l) { return l->entry ? l->entry->nparams : 0; }

int pto_launch_param(const PtoLaunch *l, unsigned i, PtoParamInfo *out)
{
    if (i >= pto_launch_num_params(l)) return -1;
    *out = l->info[i];
    return 0;
}

int pto_launch_bind_buffer(PtoLaunch *l, unsigned i, void *data, size_t size)
{
    if (i >= pto_launch_num_params(l) || l->info[i].kind != PTO_PARAM_PTR) return -1;
    GmBind *g = &l->binds[i];
    g->data = data;
    g->size = size;
    g->name = l->info[i].name ? l->info[i].name : "?";
    g->is_ptr = 1;
    l->bound[i] = 1;
    return 0;
}

int pto_launch_bind_int(PtoLaunch *l, unsigned i, int64_t v)
{
    if (i >= pto_launch_num_params(l)) return -1;
    if (l->info[i].kind == PTO_PARAM_FLOAT) return pto_launch_bind_float(l, i, (double)v);
    if (l->info[i].kind != PTO_PARAM_INT) return -1;
    unsigned w = l->info[i].elem_bits;
    uint64_t u = (uint64_t)v;
    l->param_vals[i] = w >= 64 ? u : (u & ((1ull << w) - 1));
    l->bound[i] = 1;
    return 0;
}

int pto_launch_bind_bits(PtoLaunch *l, unsigned i, uint64_t bits)
{
    if (i >= pto_launch_num_params(l)) return -1;
    if (l->info[i].kind != PTO_PARAM_INT && l->info[i].kind != PTO_PARAM_FLOAT) return -1;
    unsigned w = l->info[i].elem_bits;
    l->param_vals[i] = w >= 64 ? bits : (bits & ((1ull << w) - 1));
    l->bound[i] = 1;
    return 0;
}

int pto_launch_bind_float(PtoLaunch *l, unsigned i, double v)
{
    if (i >= pto_launch_num_params(l) || l->info[i].kind != PTO_PARAM_FLOAT) return -1;
    const Type *t = l->entry->param_types[i];
    l->param_vals[i] = num_convert(NUM_F64, num_f64_to_bits(v), fk_format((FloatKind)t->fk), NUM_RND_R, false);
    l->bound[i] = 1;
    return 0;
}

void pto_launch_set_step_limit(PtoLaunch *l, uint64_t steps) { l->sim.step_limit = steps ? steps : DEFAULT_STEP_LIMIT; }
void pto_launch_set_memory_limit(PtoLaunch *l, uint64_t bytes) { l->sim.max_memory = bytes ? bytes : PTO_DEFAULT_MAX_MEMORY; }
void pto_launch_set_race_check(PtoLaunch *l, int on) { l->sim.race_check = on; }
void pto_launch_set_flag_key(PtoLaunch *l, PtoFlagKey key)
{
    l->sim.flag_key = key == PTO_FLAG_KEY_SRC_DST_EVENT ? FLAG_KEY_SRC_DST_EVENT : key == PTO_FLAG_KEY_PIPE_EVENT ? FLAG_KEY_PIPE_EVENT : 0;
}
void pto_launch_set_flag_model(PtoLaunch *l, int lossy) { l->sim.flag_lossy = lossy != 0; }
void pto_launch_set_jobs(PtoLaunch *l, unsigned jobs) { l->jobs = jobs; }

void pto_launch_set_checks(PtoLaunch *l, unsigned checks, int on)
{
    if (checks & PTO_CHECK_RACE) l->sim.race_check = on != 0;
    unsigned k = (checks & PTO_CHECK_INIT ? CHK_INIT : 0) | (checks & PTO_CHECK_UNWRITTEN ? CHK_UNWRITTEN : 0) |
                 (checks & PTO_CHECK_RACE ? CHK_BLOCKS : 0);
    l->sim.checks = on ? l->sim.checks | k : l->sim.checks & ~k;
}

int pto_launch_set_output(PtoLaunch *l, unsigned i, int on)
{
    if (i >= pto_launch_num_params(l) || l->info[i].kind != PTO_PARAM_PTR) return -1;
    l->binds[i].output = on != 0;
    return 0;
}
void pto_launch_set_vag_loops(PtoLaunch *l, int on) { l->sim.vag_loops = on; }
void pto_launch_set_tile_op_expand(PtoLaunch *l, int on) { l->sim.tile_op_expand = on; }
void pto_launch_set_gm_strict(PtoLaunch *l, int on) { l->sim.gm_strict = on != 0; }
const PtoStats *pto_launch_stats(const PtoLaunch *l) { return &l->sim.stats; }

const char *pto_launch_output(const PtoLaunch *l, size_t *len)
{
    if (len) *len = l && l->out.s ? l->out.n : 0;
    return l && l->out.s ? l->out.s : "";
}

int pto_launch_autosync(const PtoLaunch *l, uint64_t *edges)
{
    if (edges) *edges = l->sim.autosync_edges;
    return l->entry && l->entry->autosync;
}
const char *pto_pipe_name(unsigned i) { return pq_name(i); }

int pto_launch_set_timing(PtoLaunch *l, const char *name, const char *text, size_t len)
{
    l->timed = 0;
    /* the diagnostics keep the name: intern it, the caller's string need not outlive them */
    const char *file = name ? ctx_intern(l->m->ctx, name, strlen(name)) : "<timing>";
    return timing_parse(&l->timing, file, text, len, &l->m->ctx->diags) ? -1 : 0;
}

const char *pto_timing_default(PtoTarget target)
{
    return timing_default_text(target == PTO_TARGET_DEFAULT ? PTO_TARGET_A5 : target);
}

const Cluster *launch_last_cluster(const PtoLaunch *l) { return l->sim.cl && l->sim.cl->ncores ? l->sim.cl : NULL; }
static int pto_launch_run_unguarded(PtoLaunch *l, unsigned blocks)
{
    Sim *s = &l->sim;
    Module *m = l->m;
    for (unsigned i = 0; i < pto_launch_num_params(l); i++)
        if (!l->bound[i]) {
            diag_add(&m->ctx->diags, SEV_ERROR, DIAG_ARG_COUNT, (SrcLoc){0, 0, 0}, "parameter %u ('%%%s') is not bound", i,
                     l->info[i].name ? l->info[i].name : "?");
            return 2;
        }
    if (blocks == 0) blocks = 1;
    int placed = sim_gm_place(s, l->binds, pto_launch_num_params(l), l->param_vals);
    if (placed == -2) {
        diag_add(&m->ctx->diags, SEV_ERROR, DIAG_MEM_LIMIT, l->entry_op->loc,
                 "the GM buffers need %llu bytes (device image and host copies), over the memory limit of %llu bytes; "
                 "raise it with --max-memory", (unsigned long long)s->gm_need, (unsigned long long)s->max_memory);
        return 2;
    }
    if (placed) {
        diag_add(&m->ctx->diags, SEV_ERROR, DIAG_OOM, l->entry_op->loc, "out of memory placing the GM buffers");
        return 2;
    }
    s->params = l->param_vals;
    s->blocks = blocks;
    if (!l->timed) {
        if (vsched_annotate(&l->vsched, l->prog, &l->timing)) {
            diag_oom(&m->ctx->diags, 0);
            return 2;
        }
        l->timed = 1;
    }
    s->trapped = 0;
    s->nwarned = 0;
    memset(&s->stats, 0, sizeof s->stats);
    s->autosync_edges = 0;
    mem_free(l->stall_view);
    l->stall_view = NULL;
    l->stall_view_n = 0;
    l->prof_built = 0;
    if (obs_reset(s->obs, l->prog->ninstr) || check_launch_begin(s->check, s)) {
        diag_add(&m->ctx->diags, SEV_ERROR, DIAG_OOM, l->entry_op->loc, "out of memory preparing the profile");
        return 2;
    }
    int kind = l->prog->kernel_kind;
    const Attr *kk = NULL;
    for (const Op *p = l->entry_op; p && !kk; p = ir_parent_op(p)) kk = op_attr(p, "pto.kernel_kind");
    if (kind == 0 && kk && kk->s && !strcmp(kk->s, "cube")) kind = 1;
    if (kind == 0 && l->prog->uses_cube && !l->prog->uses_vector) kind = 1;   /* e.g. an entry calling a cube function */
    memset(&l->reported, 0, sizeof l->reported);
    sb_truncate(&l->out, 0);
    l->out.failed = 0;
    int rc = launch_run_blocks(l, blocks, kind);
    if (l->out.failed) {   /* the device output lost an allocation: T-OOM, as for any record */
        diag_oom(&m->ctx->diags, 1);
        rc = 2;
    }
    sim_gm_copy_out(s);   /* the committed blocks' bytes (a trap: up to the trapping block) */
    if (rc != 2) check_launch_end(s->check, s);
    if (s->obs->oom || check_oom(s->check)) {   /* merging the blocks' records lost an allocation: T-OOM */
        diag_oom(&m->ctx->diags, 1);
        rc = 2;
    }
    return rc;
}

PtoLaunch * pto_launch_new(PtoModule *m, const char *entry, PtoTarget target)
{
    if (!m) return NULL;
    PtoCtx *c = m->ctx;
    fenv_t env;
    if (!api_enter(c, &env)) return NULL;
    PtoLaunch *r = pto_launch_new_unguarded(m, entry, target);
    api_leave(c, &env);
    return r;
}

void pto_launch_free(PtoLaunch *l)
{
    if (!l) return;
    PtoCtx *c = l->m->ctx;
    fenv_t env;
    if (!api_enter(c, &env)) return;
    pto_launch_free_unguarded(l);
    api_leave(c, &env);
}

int pto_launch_run(PtoLaunch *l, unsigned blocks)
{
    if (!l) return 2;
    PtoCtx *c = l->m->ctx;
    fenv_t env;
    if (!api_enter(c, &env)) return 2;
    int r = pto_launch_run_unguarded(l, blocks);
    api_leave(c, &env);
    return r;
}
