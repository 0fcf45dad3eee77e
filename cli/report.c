/* report.c — the performance view of `ptosim run`: --timing (load a table), --stats (per core and pipe
 * time), --profile (source lines by cycles, vector loops), --trace (Chrome trace JSON). */
#include "cli.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_load_timing(CliArgs *a, PtoLaunch *l, PtoContext *ctx, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return cli_error(&a->diag, "E-IO-READ", "cannot read the timing table '%s': %s", path, strerror(errno));
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) break;
        if (n == cap) {
            char *b = realloc(buf, cap *= 2);
            if (!b) { free(buf); buf = NULL; break; }
            buf = b;
        }
        size_t k = fread(buf + n, 1, cap - n, f);
        n += k;
        if (!k) break;
    }
    int err = ferror(f);
    fclose(f);
    if (!buf || err) {
        free(buf);
        return cli_error(&a->diag, "E-IO-READ", "cannot read the timing table '%s'", path);
    }
    size_t d0 = pto_diag_count(ctx);
    int rc = pto_launch_set_timing(l, path, buf, n);
    free(buf);
    cli_print_diags(&a->diag, ctx, d0);
    return rc ? 2 : 0;
}

static int to_file(void *user, const char *data, size_t n) { return fwrite(data, 1, n, (FILE *)user) != n; }

/* The trace goes to the file a piece at a time (pto_launch_write_trace): never the whole JSON in memory. */
int cli_write_trace(CliArgs *a, const PtoLaunch *l, const char *path)
{
    CliOutFile o;
    errno = 0;
    FILE *f = cli_out_open(&o, path, "wb");
    int wrote = f ? pto_launch_write_trace(l, to_file, f) : -1;
    int failed_io = f && ferror(f);
    int ok = cli_out_close(&o, wrote == 0) == 0;
    if (ok) return 0;
    if (f && wrote != 0 && !failed_io)
        return cli_error(&a->diag, "E-IO-WRITE", "no trace was recorded for '%s' (out of memory?)", path);
    return cli_error(&a->diag, "E-IO-WRITE", "cannot write the trace '%s': %s", path, strerror(errno));
}

static double pct(uint64_t a, uint64_t b) { return b ? 100.0 * (double)a / (double)b : 0.0; }

void cli_print_stats(const PtoLaunch *l, FILE *out)
{
    const PtoStats *s = pto_launch_stats(l);
    double hz = pto_launch_clock_hz(l);
    fprintf(out, "time: %" PRIu64 " cycles = %.3f us at %.2f GHz (the longest core)\n", s->cycles,
            (double)s->cycles / hz * 1e6, hz / 1e9);
    size_t nc = pto_launch_core_count(l);
    for (size_t i = 0; i < nc; i++) {
        PtoCoreTime ct;
        if (pto_launch_core_time(l, i, &ct)) continue;
        uint64_t end = 0;
        for (int p = 0; p < PTO_PIPES; p++)
            if (ct.pipe[p].end > end) end = ct.pipe[p].end;
        /* blocks whose cores spent their time alike (every block of a uniform kernel): one table for the run of
           them. Cores of a block are n apart (n: cores per block, the distance to the next same-named core). */
        size_t step = 1, same = 0;
        while (i + step < nc) {
            PtoCoreTime nx;
            if (pto_launch_core_time(l, i + step, &nx) || !strcmp(nx.core, ct.core)) break;
            step++;
        }
        for (size_t k = i + step; k < nc; k += step) {
            PtoCoreTime nx;
            if (pto_launch_core_time(l, k, &nx) || strcmp(nx.core, ct.core) || memcmp(nx.pipe, ct.pipe, sizeof nx.pipe)) break;
            same++;
        }
        if (same && step == 1) {
            fprintf(out, "blocks %u..%u %s (%zu blocks, each): %" PRIu64 " cycles\n", ct.block, ct.block + (unsigned)same,
                    ct.core, same + 1, end);
            i += same;
        } else {
            fprintf(out, "block %u %s: %" PRIu64 " cycles\n", ct.block, ct.core, end);
        }
        fprintf(out, "  %-9s %10s %6s %10s  %-34s %10s %9s\n", "pipe", "busy", "util", "stalled", "stalls by cause",
                "bytes", "GB/s");
        for (int p = 0; p < PTO_PIPES; p++) {
            const PtoPipeTime *t = &ct.pipe[p];
            uint64_t stall = 0;
            for (int w = 0; w < PTO_WAIT__COUNT; w++) stall += t->stall[w];
            if (!t->busy && !stall && !t->ops && !t->bytes) continue;
            char causes[96] = "";
            size_t k = 0;
            for (int w = 0; w < PTO_WAIT__COUNT && k < sizeof causes; w++)
                if (t->stall[w])
                    k += (size_t)snprintf(causes + k, sizeof causes - k, "%s%s %" PRIu64, k ? ", " : "",
                                          pto_wait_cause_name((PtoWaitCause)w), t->stall[w]);
            double gbs = t->busy ? (double)t->bytes / ((double)t->busy / hz) / 1e9 : 0.0;
            fprintf(out, "  %-9s %10" PRIu64 " %5.1f%% %10" PRIu64 "  %-34s %10" PRIu64, pto_pipe_name((unsigned)p), t->busy,
                    pct(t->busy, end), stall, causes[0] ? causes : "-", t->bytes);
            if (t->bytes) fprintf(out, " %9.2f", gbs);
            fputc('\n', out);
        }
    }
    size_t ns = pto_launch_stall_count(l);
    if (ns) fprintf(out, "waits (largest first):\n");
    for (size_t i = 0; i < ns && i < 10; i++) {
        PtoStall st;
        if (pto_launch_stall(l, i, &st)) continue;
        fprintf(out, "  %" PRIu64 " cycles: block %u %s %s waited for %s at %s:%u:%u (%" PRIu64 " time%s)", st.cycles,
                st.block, st.core, pto_pipe_name(st.pipe), st.what, st.file ? st.file : "?",
                st.line, st.col, st.times, st.times == 1 ? "" : "s");
        if (st.setter_op)
            fprintf(out, "; released by %s at %s:%u:%u", st.setter_op, st.setter_file ? st.setter_file : "?",
                    st.setter_line, st.setter_col);
        fputc('\n', out);
    }
    if (ns > 10) fprintf(out, "  (%zu more)\n", ns - 10);
}

void cli_print_profile(const PtoLaunch *l, FILE *out, size_t top)
{
    size_t n = pto_launch_profile_count(l);
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        PtoProfileLine pl;
        if (!pto_launch_profile_line(l, i, &pl)) total += pl.cycles + pl.stall;
    }
    fprintf(out, "profile: source lines by cycles (executing + waiting), every core and block; %% of the sum over the lines "
                 "(%" PRIu64 " cycles: pipes run at the same time, so it exceeds the run's)\n", total);
    fprintf(out, "  %12s %6s %12s %12s %10s  %s\n", "cycles", "%", "executing", "waiting", "count", "line");
    size_t shown = top && top < n ? top : n;
    for (size_t i = 0; i < shown; i++) {
        PtoProfileLine pl;
        if (pto_launch_profile_line(l, i, &pl)) continue;
        fprintf(out, "  %12" PRIu64 " %5.1f%% %12" PRIu64 " %12" PRIu64 " %10" PRIu64 "  %s:%u %s\n", pl.cycles + pl.stall,
                pct(pl.cycles + pl.stall, total), pl.cycles, pl.stall, pl.count, pl.file ? pl.file : "?", pl.line, pl.op);
    }
    if (shown < n) fprintf(out, "  (%zu more lines; --top N shows N)\n", n - shown);
    size_t nl = pto_launch_loop_count(l);
    if (nl) fprintf(out, "vector loops (innermost, as scheduled):\n");
    for (size_t i = 0; i < nl; i++) {
        PtoLoopTime lt;
        if (pto_launch_loop(l, i, &lt)) continue;
        fprintf(out, "  %s:%u: %u cycles/iteration, set by %s; one iteration's latency %u; %" PRIu64 " iterations\n",
                lt.file ? lt.file : "?", lt.line, lt.ii, lt.bound, lt.latency, lt.iterations);
    }
}

/* Writes `text` to path ('-' or NULL: `dflt`); 0, or 2 after reporting. */
static int write_text(CliArgs *a, const char *path, FILE *dflt, const char *text, const char *what)
{
    if (!path || !strcmp(path, "-")) {
        if (fputs(text, dflt) < 0 || fflush(dflt) != 0)
            return cli_error(&a->diag, "E-IO-WRITE", "cannot write the %s to %s: %s", what,
                             dflt == stdout ? "<stdout>" : "<stderr>", strerror(errno));
        return 0;
    }
    int ok = cli_out_write(path, text, strlen(text)) == 0;
    if (!ok) return cli_error(&a->diag, "E-IO-WRITE", "cannot write the %s '%s': %s", what, path, strerror(errno));
    return 0;
}

int cli_write_stats(CliArgs *a, const PtoLaunch *l)
{
    /* never into the diagnostics stream: stdout carries json/sarif diagnostics, so the stats go to stderr */
    FILE *dflt = a->diag.fmt == CLI_FMT_TEXT ? stdout : stderr;
    if (a->stats_json) {
        char *json = pto_launch_stats_json(l);
        if (!json) return cli_error(&a->diag, "E-OOM", "%s", "out of memory writing the stats");
        int rc = write_text(a, a->stats_file, dflt, json, "stats");
        pto_free(json);
        return rc;
    }
    FILE *out = dflt;
    int to_file = a->stats_file && strcmp(a->stats_file, "-");
    CliOutFile of;
    if (to_file && !(out = cli_out_open(&of, a->stats_file, "w")))
        return cli_error(&a->diag, "E-IO-WRITE", "cannot write the stats '%s': %s", a->stats_file, strerror(errno));
    if (a->stats) cli_print_stats(l, out);
    if (a->profile) cli_print_profile(l, out, a->top);
    int ok = !ferror(out);
    if (to_file && cli_out_close(&of, ok)) ok = 0;
    if (!to_file && fflush(out) != 0) ok = 0;
    if (!ok) return cli_error(&a->diag, "E-IO-WRITE", "cannot write the stats '%s'", a->stats_file ? a->stats_file : "-");
    return 0;
}

int cli_write_report(CliArgs *a, const PtoLaunch *l)
{
    char *html = pto_launch_report_html(l);
    if (!html) return cli_error(&a->diag, "E-IO-WRITE", "no report could be made for '%s' (out of memory?)", a->report);
    int rc = write_text(a, a->report, a->diag.fmt == CLI_FMT_TEXT ? stdout : stderr, html, "report");
    pto_free(html);
    return rc;
}
