/* report.c — the last run's time records as documents (ptosim.h, "reports"): the stats and profile as one
 * JSON document (docs/stats.schema.json), and the self-contained HTML report (timeline per core and pipe,
 * waits, the source annotated with the profile, vector loops). Both read only what the other public
 * functions of the launch read (time.c), so they say the same as --stats and --profile. */
#include "launch_int.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "exec/observe.h"
#include "exec/pipe.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A JSON string; in_html: also '<', '>' and '&' as \u escapes, so the text can sit in a <script> element. */
static void jstr(StrBuf *b, const char *s, int in_html)
{
    if (!s) { sb_puts(b, "null"); return; }
    sb_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned c = *p;
        if (c == '"' || c == '\\') { sb_putc(b, '\\'); sb_putc(b, (char)c); }
        else if (c == '\n') sb_puts(b, "\\n");
        else if (c == '\t') sb_puts(b, "\\t");
        else if (c < 0x20 || c == 0x7f || (in_html && (c == '<' || c == '>' || c == '&'))) sb_printf(b, "\\u%04x", c);
        else if (c < 0x80) sb_putc(b, (char)c);
        else {
            /* well-formed UTF-8 passes; a stray byte becomes U+FFFD */
            size_t n = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
            size_t k = 1;
            while (n && k < n && (p[k] & 0xC0) == 0x80) k++;
            if (n && k == n && c >= 0xC2 && c <= 0xF4) { sb_putn(b, (const char *)p, n); p += n - 1; }
            else sb_puts(b, "\\ufffd");
        }
    }
    sb_putc(b, '"');
}

/* "op":..,"file":..,"line":N,"col":N — where an op is in the source */
static void jsite(StrBuf *b, const char *op, const char *file, unsigned line, unsigned col, int in_html)
{
    sb_puts(b, "\"op\":");
    jstr(b, op, in_html);
    sb_puts(b, ",\"file\":");
    jstr(b, file, in_html);
    sb_printf(b, ",\"line\":%u,\"col\":%u", line, col);
}

static int core_active(const PtoPipeTime *t)
{
    uint64_t st = 0;
    for (int w = 0; w < PTO_WAIT__COUNT; w++) st += t->stall[w];
    return t->busy || st || t->ops || t->bytes;
}

static void stats_body(const PtoLaunch *l, StrBuf *b, int html)
{
    const PtoStats *s = pto_launch_stats(l);
    double hz = pto_launch_clock_hz(l);
    size_t nc = pto_launch_core_count(l);
    unsigned blocks = 0;
    for (size_t i = 0; i < nc; i++) {
        PtoCoreTime ct;
        if (!pto_launch_core_time(l, i, &ct) && ct.block + 1 > blocks) blocks = ct.block + 1;
    }
    sb_puts(b, "{\"format\":\"ptosim-stats\",\"version\":1,\"file\":");
    jstr(b, l->m->file, html);
    sb_puts(b, ",\"entry\":");
    jstr(b, l->entry ? l->entry->name : NULL, html);
    sb_printf(b, ",\"target\":\"%s\",\"clock_hz\":%.0f,\"blocks\":%u,\"cycles\":%" PRIu64 ",\"ops\":%" PRIu64
                 ",\"vector_ops\":%" PRIu64 ",\"bytes\":{",
              pto_target_name(l->target), hz, blocks, s->cycles, s->ops_executed, s->vector_ops);
    int first = 1;
    for (unsigned p = 0; p < PTO_PIPES; p++)
        if (s->bytes_moved[p]) {
            sb_printf(b, "%s\"%s\":%" PRIu64, first ? "" : ",", pto_pipe_name(p), s->bytes_moved[p]);
            first = 0;
        }
    sb_puts(b, "},\"cores\":[");
    for (size_t i = 0; i < nc; i++) {
        PtoCoreTime ct;
        if (pto_launch_core_time(l, i, &ct)) continue;
        uint64_t end = 0;
        for (int p = 0; p < PTO_PIPES; p++)
            if (ct.pipe[p].end > end) end = ct.pipe[p].end;
        sb_printf(b, "%s\n{\"block\":%u,\"core\":\"%s\",\"cycles\":%" PRIu64 ",\"pipes\":{", i ? "," : "", ct.block, ct.core, end);
        first = 1;
        for (int p = 0; p < PTO_PIPES; p++) {
            const PtoPipeTime *t = &ct.pipe[p];
            if (!core_active(t)) continue;
            uint64_t stalled = 0;
            for (int w = 0; w < PTO_WAIT__COUNT; w++) stalled += t->stall[w];
            sb_printf(b, "%s\"%s\":{\"busy\":%" PRIu64 ",\"stalled\":%" PRIu64 ",\"stalls\":{", first ? "" : ",",
                      pto_pipe_name((unsigned)p), t->busy, stalled);
            first = 0;
            int f2 = 1;
            for (int w = 0; w < PTO_WAIT__COUNT; w++)
                if (t->stall[w]) {
                    sb_printf(b, "%s\"%s\":%" PRIu64, f2 ? "" : ",", pto_wait_cause_name((PtoWaitCause)w), t->stall[w]);
                    f2 = 0;
                }
            sb_printf(b, "},\"bytes\":%" PRIu64 ",\"ops\":%" PRIu64 ",\"end\":%" PRIu64 "}", t->bytes, t->ops, t->end);
        }
        sb_puts(b, "}}");
    }
    sb_puts(b, "],\n\"waits\":[");
    size_t ns = pto_launch_stall_count(l);
    for (size_t i = 0; i < ns; i++) {
        PtoStall st;
        if (pto_launch_stall(l, i, &st)) continue;
        sb_printf(b, "%s\n{\"cycles\":%" PRIu64 ",\"times\":%" PRIu64 ",\"block\":%u,\"core\":\"%s\",\"pipe\":\"%s\",\"cause\":\"%s\",\"what\":",
                  i ? "," : "", st.cycles, st.times, st.block, st.core, pto_pipe_name(st.pipe),
                  pto_wait_cause_name(st.cause));
        jstr(b, st.what, html);
        sb_putc(b, ',');
        jsite(b, st.op, st.file, st.line, st.col, html);
        sb_puts(b, ",\"released_by\":");
        if (st.setter_op) {
            sb_putc(b, '{');
            jsite(b, st.setter_op, st.setter_file, st.setter_line, st.setter_col, html);
            sb_putc(b, '}');
        } else {
            sb_puts(b, "null");
        }
        sb_putc(b, '}');
    }
    sb_puts(b, "],\n\"loops\":[");
    size_t nl = pto_launch_loop_count(l);
    for (size_t i = 0; i < nl; i++) {
        PtoLoopTime lt;
        if (pto_launch_loop(l, i, &lt)) continue;
        sb_printf(b, "%s{\"file\":", i ? "," : "");
        jstr(b, lt.file, html);
        sb_printf(b, ",\"line\":%u,\"ii\":%u,\"latency\":%u,\"bound\":", lt.line, lt.ii, lt.latency);
        jstr(b, lt.bound, html);
        sb_printf(b, ",\"iterations\":%" PRIu64 "}", lt.iterations);
    }
    sb_puts(b, "],\n\"profile\":");
    if (!l->sim.obs->profile) {
        sb_puts(b, "null");
    } else {
        size_t n = pto_launch_profile_count(l);
        uint64_t total = 0;
        for (size_t i = 0; i < n; i++) {
            PtoProfileLine pl;
            if (!pto_launch_profile_line(l, i, &pl)) total += pl.cycles + pl.stall;
        }
        sb_printf(b, "{\"total\":%" PRIu64 ",\"lines\":[", total);
        for (size_t i = 0; i < n; i++) {
            PtoProfileLine pl;
            if (pto_launch_profile_line(l, i, &pl)) continue;
            sb_printf(b, "%s\n{\"file\":", i ? "," : "");
            jstr(b, pl.file, html);
            sb_printf(b, ",\"line\":%u,\"op\":", pl.line);
            jstr(b, pl.op, html);
            sb_printf(b, ",\"cycles\":%" PRIu64 ",\"stall\":%" PRIu64 ",\"count\":%" PRIu64 "}", pl.cycles, pl.stall, pl.count);
        }
        sb_puts(b, "]}");
    }
    sb_putc(b, '}');
}

char *pto_launch_stats_json(const PtoLaunch *l)
{
    if (!l || !l->sim.obs->ncores) return NULL;
    StrBuf b;
    sb_init(&b);
    stats_body(l, &b, 0);
    sb_putc(&b, '\n');
    return sb_take(&b);
}

/* ------------------------------------------------------------------ HTML report */

static const char report_page[] =
#include "report_page.inc"
    ;

/* The data the page draws: the stats document, the kernel's source, and the trace as compact arrays
   (cycles, not microseconds): ev = [pid, tid, t0, t1, kind, name, line, bytes, released_by], names and
   released_by as indices into `names` (-1: none), flows = [pid0, tid0, t0, pid1, tid1, t1]. */
static void report_data(const PtoLaunch *l, StrBuf *b)
{
    const Observe *o = l->sim.obs;
    sb_puts(b, "{\"stats\":");
    stats_body(l, b, 1);
    sb_puts(b, ",\n\"source\":");
    jstr(b, l->m->text, 1);
    sb_printf(b, ",\n\"trace\":%s,\"pipes\":[", o->trace ? "true" : "false");
    for (unsigned p = 0; p < PQ__COUNT; p++) {
        sb_puts(b, p ? "," : "");
        jstr(b, pq_name(p), 1);
    }
    sb_puts(b, "],\"cores\":[");
    for (size_t i = 0; i < o->ncores; i++) {
        const CoreTime *ct = &o->cores[i];
        unsigned idx = ct->ncores == 3 ? (ct->type == CORE_AIC ? 0u : 1u + ct->subblock) : 0u;
        const char *nm = core_label(ct->type, ct->subblock, ct->ncores);
        sb_printf(b, "%s[%u,\"block %u %s\"]", i ? "," : "", ct->block * 3 + idx, ct->block, nm);
    }
    /* names: interned by pointer order of appearance (a small table; op names repeat) */
    const char **names = NULL;
    char (*own)[96] = NULL;
    size_t nnames = 0, cap = 0;
    sb_puts(b, "],\n\"ev\":[");
    TraceEv ebuf[256];   /* the events a chunk at a time, from memory or the launch's spool */
    const TraceEv *chunk = NULL;
    size_t c0 = 0, cn = 0;
    for (size_t i = 0; i < o->nev && !b->failed; i++) {
        if (i >= c0 + cn) {
            c0 = i;
            cn = obs_ev_chunk(o, i, ebuf, sizeof ebuf / sizeof *ebuf, &chunk);
            if (!cn) { b->failed = 1; break; }
        }
        const TraceEv *e = &chunk[i - c0];
        char w[96];
        obs_ev_name(w, sizeof w, e);
        int idx[2] = {-1, -1};
        char sw[96] = "";
        if (e->setter && e->setter->op)
            snprintf(sw, sizeof sw, "%s:%u", op_info[e->setter->kind].name, e->setter->op->loc.line);
        for (int k = 0; k < 2; k++) {
            const char *want = k ? sw : w;
            if (k && !*want) break;
            for (size_t j = 0; j < nnames && idx[k] < 0; j++)
                if (!strcmp(names[j], want)) idx[k] = (int)j;
            if (idx[k] >= 0) continue;
            if (nnames == cap) {
                size_t nc = cap ? cap * 2 : 64;
                const char **nn = mem_realloc(names, nc * sizeof *nn);
                if (nn) names = nn;
                char (*no)[96] = nn ? mem_realloc(own, nc * sizeof *no) : NULL;
                if (!no) { b->failed = 1; break; }
                own = no;
                cap = nc;
                for (size_t j = 0; j < nnames; j++) names[j] = own[j];   /* own moved */
            }
            snprintf(own[nnames], sizeof own[nnames], "%s", want);
            names[nnames] = own[nnames];
            idx[k] = (int)nnames++;
        }
        const Op *op = e->in ? e->in->op : NULL;
        sb_printf(b, "%s[%u,%u,%" PRIu64 ",%" PRIu64 ",%u,%d,%u,%" PRIu64 ",%d]", i ? (i % 8 ? "," : ",\n") : "", e->core, e->pipe,
                  e->t0, e->t1, e->kind, idx[0], op && op->loc.file == l->m->file ? op->loc.line : 0, e->bytes, idx[1]);
    }
    sb_puts(b, "],\n\"names\":[");
    for (size_t j = 0; j < nnames; j++) {
        sb_puts(b, j ? "," : "");
        jstr(b, names[j], 1);
    }
    mem_free(names);
    mem_free(own);
    sb_puts(b, "],\n\"flows\":[");
    TraceFlow fbuf[256];
    const TraceFlow *fchunk = NULL;
    c0 = cn = 0;
    for (size_t i = 0; i < o->nflows && !b->failed; i++) {
        if (i >= c0 + cn) {
            c0 = i;
            cn = obs_flow_chunk(o, i, fbuf, sizeof fbuf / sizeof *fbuf, &fchunk);
            if (!cn) { b->failed = 1; break; }
        }
        const TraceFlow *f = &fchunk[i - c0];
        sb_printf(b, "%s[%u,%u,%" PRIu64 ",%u,%u,%" PRIu64 "]", i ? "," : "", f->core0, f->pipe0, f->t0, f->core1, f->pipe1, f->t1);
    }
    sb_puts(b, "]}");
}

char *pto_launch_report_html(const PtoLaunch *l)
{
    if (!l || !l->sim.obs->ncores) return NULL;
    const char *mark = strstr(report_page, "/*PTOSIM_DATA*/");
    const char *tmark = strstr(report_page, "PTOSIM_TITLE");
    if (!mark || !tmark || tmark > mark) return NULL;
    StrBuf b;
    sb_init(&b);
    sb_putn(&b, report_page, (size_t)(tmark - report_page));
    for (const char *p = l->m->file ? l->m->file : "kernel"; *p; p++) {   /* the title, as HTML text */
        if (*p == '<') sb_puts(&b, "&lt;");
        else if (*p == '>') sb_puts(&b, "&gt;");
        else if (*p == '&') sb_puts(&b, "&amp;");
        else sb_putc(&b, *p);
    }
    const char *after_title = tmark + strlen("PTOSIM_TITLE");
    sb_putn(&b, after_title, (size_t)(mark - after_title));
    report_data(l, &b);
    sb_puts(&b, mark + strlen("/*PTOSIM_DATA*/"));
    return sb_take(&b);
}
