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

int diag_warn_enabled(const DiagList *d, DiagId id, int dflt)
{
    WarnAction a = (WarnAction)((unsigned)id < DIAG__COUNT && d->warn[id] ? d->warn[id] : d->warn_all);
    if (a == WARN_IGNORE) return 0;
    if ((unsigned)id < DIAG__COUNT && (d->warn[id] == WARN_ENABLE || d->warn[id] == WARN_ERROR)) return 1;
    return dflt || a == WARN_ENABLE;
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

static void free_item(Diag *g)
{
    mem_free(g->msg);
    mem_free(g->q.text);
    for (size_t j = 0; j < g->nnotes; j++) {
        mem_free(g->notes[j].msg);
        mem_free(g->notes[j].q.text);
    }
    mem_free(g->notes);
}

static void free_items(DiagList *d)
{
    for (size_t i = 0; i < d->n; i++) free_item(&d->items[i]);
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

void diag_append(DiagList *dst, DiagList *src)
{
    if (src->n && grow_items(dst, dst->n + src->n)) {
        free_items(src);
        diag_oom(dst, 0);
    }
    for (size_t i = 0; i < src->n; i++) {
        Diag *g = &src->items[i];
        int oom = g->id == DIAG_OOM || g->id == DIAG_T_OOM;
        int capped = g->sev >= SEV_ERROR && dst->max_errors && dst->nerrors >= dst->max_errors;
        if (oom) {
            diag_oom(dst, g->id == DIAG_T_OOM);
            continue;
        }
        if (capped) {   /* dropped, as diag_add would have */
            free_item(g);
            continue;
        }
        dst->items[dst->n++] = *g;
        if (g->sev >= SEV_ERROR) dst->nerrors++;
        else if (g->sev == SEV_WARNING) dst->nwarnings++;
        dst->npromoted += g->promoted;
    }
    src->n = 0;
    src->nerrors = src->nwarnings = src->npromoted = 0;
    src->oom = 0;
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
    g->promoted = (uint8_t)promoted;
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
    memset(&nn[g->nnotes], 0, sizeof nn[g->nnotes]);
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

/* Line `line` of an indexed source (without its end), or 0 past its end. */
static int line_of(const DiagSource *s, uint32_t line, const char **start, size_t *n)
{
    if (line > s->nlines) return 0;
    const char *p = s->text + s->lines[line - 1], *end = s->text + s->len, *q = p;
    while (q < end && *q != '\n' && *q != '\r') q++;
    *start = p;
    *n = (size_t)(q - p);
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
        return index_lines(s) && line_of(s, loc.line, start, n);
    }
    return 0;
}

/* Lines longer than LINE_LONG bytes are shown as a window of LINE_SHOWN bytes around the caret. */
enum { LINE_LONG = 200, LINE_SHOWN = 160, LINE_BEFORE = 80 };

/* The quoted line as shown (into b): a line over LINE_LONG bytes is cut to a window around the caret, '...'
   marking each cut; control bytes (a NUL would end the rendered text) shown as '?'. Returns the caret's
   column in what was written. */
static uint32_t quote_line(StrBuf *b, const char *line, size_t n, uint32_t col)
{
    size_t caret = col ? col - 1 : 0, from = 0, to = n;
    if (caret > n) caret = n;
    if (n > LINE_LONG) {
        from = caret > LINE_BEFORE ? caret - LINE_BEFORE : 0;
        while (from > 0 && ((unsigned char)line[from] & 0xC0) == 0x80) from--;   /* whole UTF-8 characters */
        to = from + LINE_SHOWN < n ? from + LINE_SHOWN : n;
        while (to < n && ((unsigned char)line[to] & 0xC0) == 0x80) to++;
    }
    if (from) sb_puts(b, "...");
    for (size_t i = from; i < to; i++) {
        unsigned char ch = (unsigned char)line[i];
        sb_putc(b, ch == '\t' ? ' ' : ch < 0x20 || ch == 0x7F ? '?' : (char)ch);
    }
    if (to < n) sb_puts(b, "...");
    return (uint32_t)(caret - from + (from ? 3 : 0));
}

static int in_source(const DiagSource *s, SrcLoc loc)
{
    return loc.file && loc.line && (loc.file == s->file || strcmp(loc.file, s->file) == 0);
}

/* Keeps the quoted line of loc when it lies in source s (whose line index is built). */
static void keep_quote(DiagList *d, DiagSource *s, SrcLoc loc, DiagQuote *q)
{
    const char *line;
    size_t n;
    if (q->text || !in_source(s, loc) || !line_of(s, loc.line, &line, &n)) return;
    StrBuf b;
    sb_init(&b);
    uint32_t caret = quote_line(&b, line, n, loc.col);
    q->text = sb_take(&b);
    q->caret = caret;
    if (!q->text) diag_oom(d, 0);
}

void diag_remove_source(DiagList *d, const char *text)
{
    for (size_t i = 0; i < d->nsrcs; i++) {
        DiagSource *s = &d->srcs[i];
        if (s->text != text) continue;
        /* Quoting finds the newest source of a name: an older one has nothing to keep. */
        int keep = 1;
        for (size_t k = i + 1; k < d->nsrcs; k++)
            if (!strcmp(d->srcs[k].file, s->file)) keep = 0;
        int quoted = 0;
        for (size_t j = 0; keep && !quoted && j < d->n; j++) {
            quoted = in_source(s, d->items[j].loc);
            for (size_t k = 0; k < d->items[j].nnotes; k++) quoted |= in_source(s, d->items[j].notes[k].loc);
        }
        if (quoted && !index_lines(s)) {
            if (s->len < UINT32_MAX) diag_oom(d, 0);   /* else never quoted */
            quoted = 0;
        }
        for (size_t j = 0; quoted && j < d->n; j++) {
            Diag *g = &d->items[j];
            keep_quote(d, s, g->loc, &g->q);
            for (size_t k = 0; k < g->nnotes; k++) keep_quote(d, s, g->notes[k].loc, &g->notes[k].q);
        }
        mem_free(s->lines);
        memmove(&d->srcs[i], &d->srcs[i + 1], sizeof(DiagSource) * (d->nsrcs - i - 1));
        d->nsrcs--;
        return;
    }
}

static void render_one(StrBuf *b, const DiagList *d, SrcLoc loc, const DiagQuote *q, const char *sevword,
                       const char *msg, const char *id, int color)
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
    uint32_t caret;
    if (find_line(d, loc, &line, &n)) {
        sb_printf(b, "%5u | ", loc.line);
        caret = quote_line(b, line, n, loc.col);
    } else if (q->text) {
        sb_printf(b, "%5u | %s", loc.line, q->text);
        caret = q->caret;
    } else {
        return;
    }
    sb_puts(b, "\n      | ");
    for (uint32_t c = 0; c < caret; c++) sb_putc(b, ' ');
    sb_printf(b, "%s^%s\n", on, off);
}

char *diag_render(const DiagList *d, size_t i, int color)
{
    StrBuf b;
    sb_init(&b);
    if (i >= d->n) return sb_take(&b);
    const Diag *g = &d->items[i];
    static const char *const words[] = {"note", "warning", "error", "trap"};
    render_one(&b, d, g->loc, &g->q, words[g->sev], diag_msg(g), diag_id_str(g->id), color);
    for (size_t j = 0; j < g->nnotes; j++)
        render_one(&b, d, g->notes[j].loc, &g->notes[j].q, "note", g->notes[j].msg, NULL, color);
    return sb_take(&b);
}
