/* diag.c — diagnostic collection and rendering (the CLI decides where the text goes). */
#include "diag.h"
#include "alloc.h"
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

static const char *const diag_summaries[] = {
#define DIAG(e, id, s) s,
#include "diag.def"
#undef DIAG
};

const char *diag_msg(const Diag *g)
{
    return g->msg ? g->msg : (unsigned)g->id < DIAG__COUNT ? diag_summaries[g->id] : "";
}

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

/* Diagnostics keep one spare slot for the out-of-memory diagnostic: a list holding n items has cap > n. */
static int grow_items(DiagList *d, size_t need)
{
    if (need < d->cap) return 0;
    size_t cap = d->cap ? d->cap : 16;
    while (cap <= need) cap *= 2;
    Diag *it = mem_realloc(d->items, cap * sizeof *it);
    if (!it) return -1;
    d->items = it;
    d->cap = cap;
    return 0;
}

int diag_reserve(DiagList *d) { return grow_items(d, d->n); }

void diag_oom(DiagList *d, int run)
{
    if (d->oom) return;
    d->oom = 1;
    if (d->n >= d->cap) return;   /* never reserved (diag_reserve failed): nowhere to say it */
    Diag *g = &d->items[d->n++];
    memset(g, 0, sizeof *g);
    g->sev = run ? SEV_TRAP : SEV_ERROR;
    g->id = run ? DIAG_T_OOM : DIAG_OOM;
    d->nerrors++;
}

static void free_items(DiagList *d)
{
    for (size_t i = 0; i < d->n; i++) {
        mem_free(d->items[i].msg);
        for (size_t j = 0; j < d->items[i].nnotes; j++) mem_free(d->items[i].notes[j].msg);
        mem_free(d->items[i].notes);
    }
    d->n = 0;
}

void diag_free(DiagList *d)
{
    free_items(d);
    mem_free(d->items);
    for (size_t i = 0; i < d->nsrcs; i++) mem_free(d->srcs[i].lines);
    mem_free(d->srcs);
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
    int oom = id == DIAG_OOM || id == DIAG_T_OOM;
    if (oom && d->oom) return -1;   /* one out-of-memory diagnostic per list */
    if (sev >= SEV_ERROR && d->max_errors && d->nerrors >= d->max_errors && !oom) return -1;
    char *msg = grow_items(d, d->n + 1) ? NULL : vfmt(fmt, ap);
    if (!msg) {   /* the spare slot takes the out-of-memory diagnostic instead */
        diag_oom(d, sev == SEV_TRAP);
        return -1;
    }
    Diag *g = &d->items[d->n];
    memset(g, 0, sizeof *g);
    g->sev = sev;
    g->id = id;
    g->loc = loc;
    g->msg = msg;
    d->oom |= (uint8_t)oom;
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
    DiagNote *nn = mem_realloc(g->notes, (g->nnotes + 1) * sizeof *nn);
    if (nn) g->notes = nn;
    va_list ap;
    va_start(ap, fmt);
    char *msg = nn ? vfmt(fmt, ap) : NULL;
    va_end(ap);
    if (!msg) {
        diag_oom(d, g->sev == SEV_TRAP);
        return;
    }
    nn[g->nnotes].loc = loc;
    nn[g->nnotes].msg = msg;
    g->nnotes++;
}

void diag_add_source(DiagList *d, const char *file, const char *text, size_t len)
{
    if (d->nsrcs == d->capsrcs) {
        size_t cap = d->capsrcs ? d->capsrcs * 2 : 4;
        DiagSource *s = mem_realloc(d->srcs, cap * sizeof *s);
        if (!s) {
            diag_oom(d, 0);
            return;
        }
        d->srcs = s;
        d->capsrcs = cap;
    }
    d->srcs[d->nsrcs++] = (DiagSource){file, text, len, NULL, 0};
}

void diag_remove_source(DiagList *d, const char *text)
{
    for (size_t i = 0; i < d->nsrcs; i++)
        if (d->srcs[i].text == text) {
            mem_free(d->srcs[i].lines);
            memmove(&d->srcs[i], &d->srcs[i + 1], sizeof(DiagSource) * (d->nsrcs - i - 1));
            d->nsrcs--;
            return;
        }
}

void diag_clear(DiagList *d)
{
    free_items(d);   /* the item array (with its spare slot), sources and settings stay */
    d->nerrors = d->nwarnings = d->npromoted = 0;
    d->oom = 0;
}

/* The line-start index of a source: one pass over the text, on the first diagnostic rendered against it.
   Sources too large for 32-bit offsets keep no index and are not quoted. */
static int index_lines(DiagSource *s)
{
    if (s->lines) return 1;
    if (s->len >= UINT32_MAX) return 0;
    size_t n = 1;
    for (const char *p = s->text, *end = s->text + s->len; (p = memchr(p, '\n', (size_t)(end - p))); p++) n++;
    uint32_t *l = mem_alloc(n * sizeof *l);
    if (!l) return 0;
    size_t k = 0;
    l[k++] = 0;
    for (const char *p = s->text, *end = s->text + s->len; (p = memchr(p, '\n', (size_t)(end - p))); p++)
        l[k++] = (uint32_t)(p + 1 - s->text);
    s->lines = l;
    s->nlines = n;
    return 1;
}

/* Finds line `line` of `file` among the registered sources. The index is a cache: building it does not
   change what the list holds, hence the cast. */
static int find_line(const DiagList *d, SrcLoc loc, const char **start, size_t *n)
{
    if (!loc.file || !loc.line) return 0;
    for (size_t i = d->nsrcs; i-- > 0;) {
        DiagSource *s = (DiagSource *)&d->srcs[i];
        if (s->file != loc.file && strcmp(s->file, loc.file) != 0) continue;
        if (!index_lines(s) || loc.line > s->nlines) return 0;
        const char *p = s->text + s->lines[loc.line - 1], *end = s->text + s->len;
        const char *q = p;
        while (q < end && *q != '\n' && *q != '\r') q++;
        *start = p;
        *n = (size_t)(q - p);
        return 1;
    }
    return 0;
}

/* Lines longer than LINE_LONG bytes are shown as a window of LINE_SHOWN bytes around the caret. */
enum { LINE_LONG = 200, LINE_SHOWN = 160, LINE_BEFORE = 80 };

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
        size_t caret = loc.col ? loc.col - 1 : 0, from = 0, to = n;
        if (caret > n) caret = n;
        if (n > LINE_LONG) {
            from = caret > LINE_BEFORE ? caret - LINE_BEFORE : 0;
            while (from > 0 && ((unsigned char)line[from] & 0xC0) == 0x80) from--;   /* whole UTF-8 characters */
            to = from + LINE_SHOWN < n ? from + LINE_SHOWN : n;
            while (to < n && ((unsigned char)line[to] & 0xC0) == 0x80) to++;
        }
        sb_printf(b, "%5u | ", loc.line);
        if (from) sb_puts(b, "...");
        for (size_t i = from; i < to; i++) {   /* control bytes (a NUL would end the rendered text) shown as '?' */
            unsigned char ch = (unsigned char)line[i];
            sb_putc(b, ch == '\t' ? ' ' : ch < 0x20 || ch == 0x7F ? '?' : (char)ch);
        }
        if (to < n) sb_puts(b, "...");
        sb_puts(b, "\n      | ");
        if (from) sb_puts(b, "   ");
        for (size_t c = from; c < caret; c++) sb_putc(b, ' ');
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
    render_one(&b, d, g->loc, words[g->sev], diag_msg(g), diag_id_str(g->id), color);
    for (size_t j = 0; j < g->nnotes; j++)
        render_one(&b, d, g->notes[j].loc, "note", g->notes[j].msg, NULL, color);
    return sb_take(&b);
}
