/* diag.c — diagnostic collection and rendering (the CLI decides where the text goes). */
#include "diag.h"
#include "strbuf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ASCII case-insensitive equality (no locale). */
static int strcasecmp_ascii(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        int x = *a >= 'A' && *a <= 'Z' ? *a + 32 : *a, y = *b >= 'A' && *b <= 'Z' ? *b + 32 : *b;
        if (x != y) return 1;
    }
    return *a != *b;
}

static const char *const diag_ids[] = {
#define DIAG(e, id, s) id,
#include "diag.def"
#undef DIAG
};

const char *diag_id_str(DiagId id) { return (unsigned)id < DIAG__COUNT ? diag_ids[id] : "E-?"; }

int diag_id_lookup(const char *name)
{
    for (int i = 0; i < DIAG__COUNT; i++) {
        const char *id = diag_ids[i];
        if (!strcasecmp_ascii(name, id) || (strlen(id) > 2 && !strcasecmp_ascii(name, id + 2))) return i;
    }
    return -1;
}

void diag_init(DiagList *d)
{
    memset(d, 0, sizeof *d);
    d->max_errors = 50;
}

void diag_free(DiagList *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free(d->items[i].msg);
        for (size_t j = 0; j < d->items[i].nnotes; j++) free(d->items[i].notes[j].msg);
        free(d->items[i].notes);
    }
    free(d->items);
    free(d->srcs);
    memset(d, 0, sizeof *d);
}

static char *vfmt(const char *fmt, va_list ap)
{
    StrBuf b;
    sb_init(&b);
    sb_vprintf(&b, fmt, ap);
    return sb_take(&b);
}

long diag_addv(DiagList *d, DiagSeverity sev, DiagId id, SrcLoc loc, const char *fmt, va_list ap)
{
    int promoted = 0;
    if (sev == SEV_WARNING) {
        WarnAction a = (WarnAction)((unsigned)id < DIAG__COUNT && d->warn[id] ? d->warn[id] : d->warn_all);
        if (a == WARN_IGNORE) return -1;
        if (a == WARN_ERROR) {
            sev = SEV_ERROR;
            promoted = 1;
        }
    }
    if (sev >= SEV_ERROR && d->max_errors && d->nerrors >= d->max_errors) return -1;
    if (d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 16;
        Diag *it = realloc(d->items, cap * sizeof *it);
        if (!it) return -1;
        d->items = it;
        d->cap = cap;
    }
    Diag *g = &d->items[d->n];
    memset(g, 0, sizeof *g);
    g->sev = sev;
    g->id = id;
    g->loc = loc;
    g->msg = vfmt(fmt, ap);
    if (sev >= SEV_ERROR) d->nerrors++;
    else if (sev == SEV_WARNING) d->nwarnings++;
    d->npromoted += (size_t)promoted;
    return (long)d->n++;
}

long diag_add(DiagList *d, DiagSeverity sev, DiagId id, SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    long r = diag_addv(d, sev, id, loc, fmt, ap);
    va_end(ap);
    return r;
}

void diag_note(DiagList *d, long idx, SrcLoc loc, const char *fmt, ...)
{
    if (idx < 0 || (size_t)idx >= d->n) return;
    Diag *g = &d->items[idx];
    DiagNote *nn = realloc(g->notes, (g->nnotes + 1) * sizeof *nn);
    if (!nn) return;
    g->notes = nn;
    va_list ap;
    va_start(ap, fmt);
    nn[g->nnotes].loc = loc;
    nn[g->nnotes].msg = vfmt(fmt, ap);
    va_end(ap);
    g->nnotes++;
}

void diag_add_source(DiagList *d, const char *file, const char *text, size_t len)
{
    if (d->nsrcs == d->capsrcs) {
        size_t cap = d->capsrcs ? d->capsrcs * 2 : 4;
        DiagSource *s = realloc(d->srcs, cap * sizeof *s);
        if (!s) return;
        d->srcs = s;
        d->capsrcs = cap;
    }
    d->srcs[d->nsrcs++] = (DiagSource){file, text, len};
}

/* Finds line `line` of `file` among the registered sources. */
static int find_line(const DiagList *d, SrcLoc loc, const char **start, size_t *n)
{
    if (!loc.file || !loc.line) return 0;
    for (size_t i = d->nsrcs; i-- > 0;) {
        const DiagSource *s = &d->srcs[i];
        if (s->file != loc.file && strcmp(s->file, loc.file) != 0) continue;
        const char *p = s->text, *end = s->text + s->len;
        for (uint32_t l = 1; l < loc.line && p < end; p++)
            if (*p == '\n') l++;
        if (p > end) return 0;
        const char *q = p;
        while (q < end && *q != '\n' && *q != '\r') q++;
        *start = p;
        *n = (size_t)(q - p);
        return 1;
    }
    return 0;
}

static void render_one(StrBuf *b, const DiagList *d, SrcLoc loc, const char *sevword, const char *msg,
                       const char *id, int color)
{
    const char *on = "", *off = "";
    if (color) {
        off = "\033[0m";
        on = strcmp(sevword, "error") == 0 || strcmp(sevword, "trap") == 0 ? "\033[1;31m"
           : strcmp(sevword, "warning") == 0 ? "\033[1;35m" : "\033[1;36m";
    }
    if (loc.file) {
        sb_printf(b, "%s:%u:%u: ", loc.file, loc.line, loc.col);
    } else {
        sb_puts(b, "ptosim: ");
    }
    sb_printf(b, "%s%s%s: %s", on, sevword, off, msg);
    if (id) sb_printf(b, " [%s]", id);
    sb_putc(b, '\n');
    const char *line;
    size_t n;
    if (find_line(d, loc, &line, &n)) {
        sb_printf(b, "%5u | ", loc.line);
        for (size_t i = 0; i < n; i++) {   /* control bytes (a NUL would end the rendered text) shown as '?' */
            unsigned char ch = (unsigned char)line[i];
            sb_putc(b, ch == '\t' ? ' ' : ch < 0x20 || ch == 0x7F ? '?' : (char)ch);
        }
        sb_puts(b, "\n      | ");
        for (uint32_t c = 1; c < loc.col && c <= n; c++) sb_putc(b, ' ');
        sb_printf(b, "%s^%s\n", on, off);
    }
}

char *diag_render(const DiagList *d, size_t i, int color)
{
    StrBuf b;
    sb_init(&b);
    if (i >= d->n) return sb_take(&b);
    const Diag *g = &d->items[i];
    static const char *const words[] = {"note", "warning", "error", "trap"};
    render_one(&b, d, g->loc, words[g->sev], g->msg, diag_id_str(g->id), color);
    for (size_t j = 0; j < g->nnotes; j++)
        render_one(&b, d, g->notes[j].loc, "note", g->notes[j].msg, NULL, color);
    return sb_take(&b);
}
