/* time.c — the public view of a run's time records (ptosim.h, "time"): per-core pipe times, the stall
 * report, the trace and the per-line profile, read from exec/observe.h. */
#include "launch_int.h"
#include "base/alloc.h"
#include "exec/observe.h"
#include "ops/sync/sync.h"
#include <stdlib.h>
#include <string.h>

const char *pto_wait_cause_name(PtoWaitCause c) { return obs_cause_name((WaitCause)c); }
double pto_launch_clock_hz(const PtoLaunch *l) { return l->timing.clock_hz; }
void pto_launch_set_trace(PtoLaunch *l, int on) { l->sim.obs->trace = on != 0; }
void pto_launch_set_profile(PtoLaunch *l, int on) { l->sim.obs->profile = on != 0; }

char *pto_launch_trace_json(const PtoLaunch *l)
{
    const Observe *o = l->sim.obs;
    return o->trace && o->ncores ? obs_trace_json(o, &l->sim) : NULL;
}

int pto_launch_write_trace(const PtoLaunch *l, PtoWriteFn write, void *user)
{
    const Observe *o = l->sim.obs;
    if (!o->trace || !o->ncores || !write) return -1;
    return obs_trace_write(o, &l->sim, write, user);
}


size_t pto_launch_core_count(const PtoLaunch *l) { return l->sim.obs->ncores; }

int pto_launch_core_time(const PtoLaunch *l, size_t i, PtoCoreTime *out)
{
    const Observe *o = l->sim.obs;
    if (i >= o->ncores) return -1;
    const CoreTime *ct = &o->cores[i];
    memset(out, 0, sizeof *out);
    out->block = ct->block;
    out->core = core_label(ct->type, ct->subblock, ct->ncores);
    for (int p = 0; p < PQ__COUNT && p < PTO_PIPES; p++) {
        const AgentTime *a = &ct->agent[p];
        out->pipe[p].busy = a->busy;
        for (int w = 0; w < WC__COUNT && w < PTO_WAIT__COUNT; w++) out->pipe[p].stall[w] = a->stall[w];
        out->pipe[p].bytes = a->bytes;
        out->pipe[p].ops = a->ops;
        out->pipe[p].end = a->end;
    }
    return 0;
}

/* ------------------------------------------------------------------ stalls */

static int by_cycles(const void *a, const void *b)
{
    const StallRec *x = *(const StallRec *const *)a, *y = *(const StallRec *const *)b;
    if (x->cycles != y->cycles) return x->cycles > y->cycles ? -1 : 1;
    if (x->block != y->block) return x->block < y->block ? -1 : 1;
    return x->wait->id < y->wait->id ? -1 : x->wait->id > y->wait->id;
}

size_t pto_launch_stall_count(const PtoLaunch *l) { return l->sim.obs->nstalls; }

int pto_launch_stall(const PtoLaunch *l, size_t i, PtoStall *out)
{
    PtoLaunch *ml = (PtoLaunch *)l;   /* the sorted view and the descriptions are caches of the launch */
    const Observe *o = l->sim.obs;
    if (i >= o->nstalls) return -1;
    if (ml->stall_view_n != o->nstalls || !ml->stall_view) {
        mem_free(ml->stall_view);
        ml->stall_view = mem_alloc(o->nstalls * sizeof *ml->stall_view);
        if (!ml->stall_view) {
            ml->stall_view_n = 0;
            return -1;
        }
        for (size_t k = 0; k < o->nstalls; k++) ml->stall_view[k] = &o->stalls[k];
        qsort(ml->stall_view, o->nstalls, sizeof *ml->stall_view, by_cycles);
        ml->stall_view_n = o->nstalls;
    }
    const StallRec *r = ml->stall_view[i];
    memset(out, 0, sizeof *out);
    out->block = r->block;
    /* the core's name: a cluster of three cores has the AIC first */
    const Cluster *cl = l->sim.cl;
    if (cl && r->core < cl->ncores)
        out->core = core_label(cl->cores[r->core].type, (unsigned)cl->cores[r->core].subblock, (unsigned)cl->ncores);
    else out->core = l->prog->kernel_kind == 1 ? "AIC" : "AIV";
    out->pipe = r->pipe;
    out->cause = (PtoWaitCause)r->cause;
    out->cycles = r->cycles;
    out->times = r->times;
    sync_describe(r->wait, ml->what_buf, sizeof ml->what_buf);
    out->what = ml->what_buf;
    const Op *op = r->wait->op;
    out->op = op_info[r->wait->kind].name;
    out->file = op ? op->loc.file : NULL;
    out->line = op ? op->loc.line : 0;
    out->col = op ? op->loc.col : 0;
    if (r->setter && r->setter->op) {
        out->setter_op = op_info[r->setter->kind].name;
        out->setter_file = r->setter->op->loc.file;
        out->setter_line = r->setter->op->loc.line;
        out->setter_col = r->setter->op->loc.col;
    }
    return 0;
}

/* ------------------------------------------------------------------ profile */

static int by_line_cost(const void *a, const void *b)
{
    const LineAgg *x = a, *y = b;
    uint64_t cx = x->cycles + x->stall, cy = y->cycles + y->stall;
    if (cx != cy) return cx > cy ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* Aggregates the per-instruction counters of the last run by source line (cached in the launch). */
static int build_profile(PtoLaunch *l)
{
    const Observe *o = l->sim.obs;
    if (!o->profile || !o->nprof) return -1;
    if (l->prof_built) return 0;
    mem_free(l->prof);
    l->prof = NULL;
    l->nprof = 0;
    size_t cap = 0;
    for (uint32_t f = 0; f < l->prog->nfuncs; f++) {
        const Func *F = &l->prog->funcs[f];
        for (uint32_t i = 0; F->entry && i < F->ncode; i++) {
            const Instr *in = &F->entry[i];
            if (!in->op || in->id >= o->nprof) continue;
            uint64_t c = o->prof_cycles[in->id], s = o->prof_stall[in->id], n = o->prof_count[in->id];
            if (!c && !s && !n) continue;
            LineAgg *a = NULL;
            for (size_t k = 0; k < l->nprof && !a; k++)
                if (l->prof[k].line == in->op->loc.line && l->prof[k].file == in->op->loc.file) a = &l->prof[k];
            if (!a) {
                if (l->nprof == cap) {
                    cap = cap ? cap * 2 : 64;
                    LineAgg *p = mem_realloc(l->prof, cap * sizeof *p);
                    if (!p) return -1;
                    l->prof = p;
                }
                a = &l->prof[l->nprof++];
                *a = (LineAgg){in->op->loc.file, in->op->loc.line, op_info[in->kind].name, 0, 0, 0};
            }
            a->cycles += c;
            a->stall += s;
            if (n > a->count) a->count = n;
        }
    }
    if (l->nprof > 1) qsort(l->prof, l->nprof, sizeof *l->prof, by_line_cost);   /* no profiled line: prof may be NULL */
    l->prof_built = 1;
    return 0;
}

size_t pto_launch_profile_count(const PtoLaunch *l)
{
    return build_profile((PtoLaunch *)l) ? 0 : l->nprof;
}

int pto_launch_profile_line(const PtoLaunch *l, size_t i, PtoProfileLine *out)
{
    if (build_profile((PtoLaunch *)l) || i >= l->nprof) return -1;
    const LineAgg *a = &l->prof[i];
    *out = (PtoProfileLine){a->file, a->line, a->op, a->cycles, a->stall, a->count};
    return 0;
}

size_t pto_launch_loop_count(const PtoLaunch *l) { return l->timed ? l->vsched.nloops : 0; }

int pto_launch_loop(const PtoLaunch *l, size_t i, PtoLoopTime *out)
{
    if (!l->timed || i >= l->vsched.nloops) return -1;
    const VecLoop *v = &l->vsched.loops[i];
    const Observe *o = l->sim.obs;
    const Op *op = v->init->op;
    memset(out, 0, sizeof *out);
    out->file = op ? op->loc.file : NULL;
    out->line = op ? op->loc.line : 0;
    out->ii = v->ii;
    out->latency = v->lat;
    out->bound = vsched_bound_name(v->bound);
    if (o->profile && v->next->id < o->nprof) out->iterations = o->prof_count[v->next->id];
    return 0;
}
