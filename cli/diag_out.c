/* diag_out.c — reporting diagnostics as text, JSON Lines or SARIF 2.1.0 (--diagnostics-format).
 *
 * text : "FILE:LINE:COL: error: message [ID]" + source line + caret + notes, on stderr.
 * json : JSON Lines on stdout: one object per diagnostic and line, written as soon as it is reported:
 *        {"id", "severity" (error|warning|note|trap), "file", "line", "col", "message",
 *         "notes": [{"file", "line", "col", "message"}]}; an unknown file, line or column is null.
 * sarif: one SARIF 2.1.0 log on stdout, written when the command ends: one run, one result per
 *        diagnostic (ruleId, level, message, locations; notes as relatedLocations).
 * Errors the CLI finds itself (arguments, files) take the same path, without a source location. */
#include "cli.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct Str { char *p; size_t n, cap; } Str;

static void s_put(Str *s, const char *t, size_t n)
{
    if (s->n + n + 1 > s->cap) {
        size_t cap = s->cap ? s->cap : 256;
        while (cap < s->n + n + 1) cap *= 2;
        char *np = realloc(s->p, cap);
        if (!np) return;                 /* out of memory: the text is cut short, never overrun */
        s->p = np;
        s->cap = cap;
    }
    memcpy(s->p + s->n, t, n);
    s->n += n;
    s->p[s->n] = 0;
}

static void s_str(Str *s, const char *t) { s_put(s, t, strlen(t)); }

static void s_printf(Str *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void s_printf(Str *s, const char *fmt, ...)
{
    char buf[64];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > 0) s_put(s, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* Length of the well-formed UTF-8 sequence at p (1..4), or 0 when the bytes there are not one. */
static size_t utf8_len(const unsigned char *p)
{
    unsigned c = p[0];
    size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (n == 0 || (n == 2 && c < 0xC2) || (n == 4 && c > 0xF4)) return 0;
    for (size_t k = 1; k < n; k++)
        if ((p[k] & 0xC0) != 0x80) return 0;
    if (n == 3 && ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] >= 0xA0))) return 0;   /* overlong, surrogate */
    if (n == 4 && ((c == 0xF0 && p[1] < 0x90) || (c == 0xF4 && p[1] >= 0x90))) return 0;   /* overlong, > U+10FFFF */
    return n;
}

/* A JSON string literal; bytes that are not UTF-8 become U+FFFD. NULL becomes null. */
static void s_json(Str *s, const char *t)
{
    if (!t) { s_str(s, "null"); return; }
    s_str(s, "\"");
    for (const unsigned char *p = (const unsigned char *)t; *p;) {
        size_t n = utf8_len(p);
        if (*p == '"' || *p == '\\') { s_put(s, "\\", 1); s_put(s, (const char *)p, 1); }
        else if (*p == '\n') s_str(s, "\\n");
        else if (*p == '\t') s_str(s, "\\t");
        else if (*p < 0x20 || *p == 0x7F) s_printf(s, "\\u%04x", *p);
        else if (n) { s_put(s, (const char *)p, n); p += n; continue; }
        else s_str(s, "\\ufffd");
        p++;
    }
    s_str(s, "\"");
}

static void s_json_num(Str *s, unsigned v)
{
    if (v) s_printf(s, "%u", v);
    else s_str(s, "null");
}

static const char *sev_name(PtoSeverity s)
{
    return s == PTO_SEV_NOTE ? "note" : s == PTO_SEV_WARNING ? "warning" : s == PTO_SEV_ERROR ? "error" : "trap";
}

static void json_loc(Str *s, const PtoDiagInfo *d)
{
    s_str(s, "\"file\":");
    s_json(s, d->file);
    s_str(s, ",\"line\":");
    s_json_num(s, d->file ? d->line : 0);
    s_str(s, ",\"col\":");
    s_json_num(s, d->file && d->line ? d->col : 0);
}

/* One JSON Lines record. ctx may be NULL (a CLI error, no notes). */
static void json_record(Str *s, const PtoContext *ctx, size_t i, const PtoDiagInfo *d)
{
    s_str(s, "{\"id\":");
    s_json(s, d->id);
    s_str(s, ",\"severity\":");
    s_json(s, sev_name(d->severity));
    s_str(s, ",");
    json_loc(s, d);
    s_str(s, ",\"message\":");
    s_json(s, d->message);
    s_str(s, ",\"notes\":[");
    for (size_t j = 0; ctx && j < d->nnotes; j++) {
        PtoDiagInfo n;
        if (pto_diag_note_get(ctx, i, j, &n)) break;
        s_str(s, j ? ",{" : "{");
        json_loc(s, &n);
        s_str(s, ",\"message\":");
        s_json(s, n.message);
        s_str(s, "}");
    }
    s_str(s, "]}\n");
}

/* A file name as a URI reference: unreserved characters and '/' stay, everything else is %XX. */
static void s_uri(Str *s, const char *path)
{
    s_str(s, "\"");
    if (path[0] == '/') s_str(s, "file://");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("-._~/", *p))
            s_put(s, (const char *)p, 1);
        else
            s_printf(s, "%%%02X", *p);
    }
    s_str(s, "\"");
}

static void sarif_location(Str *s, const PtoDiagInfo *d)
{
    s_str(s, "\"physicalLocation\":{\"artifactLocation\":{\"uri\":");
    s_uri(s, d->file);
    s_str(s, "}");
    if (d->line) {
        s_printf(s, ",\"region\":{\"startLine\":%u", d->line);
        if (d->col) s_printf(s, ",\"startColumn\":%u", d->col);
        s_str(s, "}");
    }
    s_str(s, "}");
}

static void sarif_result(Str *s, const PtoContext *ctx, size_t i, const PtoDiagInfo *d)
{
    s_str(s, "{\"ruleId\":");
    s_json(s, d->id);
    s_str(s, ",\"level\":");
    s_json(s, d->severity == PTO_SEV_WARNING ? "warning" : d->severity == PTO_SEV_NOTE ? "note" : "error");
    s_str(s, ",\"message\":{\"text\":");
    s_json(s, d->message);
    s_str(s, "}");
    if (d->file) {
        s_str(s, ",\"locations\":[{");
        sarif_location(s, d);
        s_str(s, "}]");
    }
    if (ctx && d->nnotes) {
        s_str(s, ",\"relatedLocations\":[");
        for (size_t j = 0; j < d->nnotes; j++) {
            PtoDiagInfo n;
            if (pto_diag_note_get(ctx, i, j, &n)) break;
            s_printf(s, "%s{\"id\":%zu,\"message\":{\"text\":", j ? "," : "", j + 1);
            s_json(s, n.message);
            s_str(s, "}");
            if (n.file) {
                s_str(s, ",");
                sarif_location(s, &n);
            }
            s_str(s, "}");
        }
        s_str(s, "]");
    }
    s_printf(s, ",\"properties\":{\"severity\":\"%s\"}}", sev_name(d->severity));
}

static void emit(CliOut *o, const PtoContext *ctx, size_t i, const PtoDiagInfo *d)
{
    Str s = {0};
    if (o->fmt == CLI_FMT_JSON) {
        json_record(&s, ctx, i, d);
        if (s.p) fputs(s.p, stdout);
        fflush(stdout);
    } else {
        sarif_result(&s, ctx, i, d);
        Str all = {o->sarif, o->sarif_len, o->sarif_cap};
        if (o->nresults++) s_str(&all, ",\n    ");
        if (s.p) s_str(&all, s.p);
        o->sarif = all.p, o->sarif_len = all.n, o->sarif_cap = all.cap;
    }
    free(s.p);
}

static int use_color(void) { return isatty(2) && !getenv("NO_COLOR"); }

void cli_print_diags(CliOut *o, PtoContext *ctx, size_t from)
{
    int color = o->fmt == CLI_FMT_TEXT && use_color();
    for (size_t i = from; i < pto_diag_count(ctx); i++) {
        if (o->fmt == CLI_FMT_TEXT) {
            char *s = pto_diag_render(ctx, i, color);
            if (s) fputs(s, stderr);
            pto_free(s);
            continue;
        }
        PtoDiagInfo d;
        if (pto_diag_get(ctx, i, &d) == 0) emit(o, ctx, i, &d);
    }
}

int cli_error(CliOut *o, const char *id, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!o || o->fmt == CLI_FMT_TEXT) {
        fprintf(stderr, "ptosim: error: %s [%s]\n", msg, id);
    } else {
        PtoDiagInfo d = {PTO_SEV_ERROR, id, NULL, 0, 0, msg, 0};
        emit(o, NULL, 0, &d);
    }
    return 2;
}

void cli_out_finish(CliOut *o, int exit_status)
{
    if (o->fmt == CLI_FMT_SARIF) {
        /* exit status 2 (usage or I/O error) means the analysis did not complete */
        printf("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"version\": \"2.1.0\",\n"
               "  \"runs\": [{\n    \"tool\": {\"driver\": {\"name\": \"ptosim\", \"version\": \"%s\"}},\n"
               "    \"invocations\": [{\"executionSuccessful\": %s, \"exitCode\": %d}],\n"
               "    \"results\": [%s%s%s]\n  }]\n}\n",
               CLI_VERSION, exit_status == 2 ? "false" : "true", exit_status, o->nresults ? "\n    " : "",
               o->sarif ? o->sarif : "", o->nresults ? "\n    " : "");
        fflush(stdout);
    }
    free(o->sarif);
    o->sarif = NULL;
    o->sarif_len = o->sarif_cap = o->nresults = 0;
}

FILE *cli_dump_stream(const CliOut *o) { return o->fmt == CLI_FMT_TEXT ? stdout : stderr; }
