/* api.c — the public front-end entry points (ptosim.h) over the internal modules. */
#include "ptosim.h"
#include "base/alloc.h"
#include "isa/ctx.h"
#include "isa/ir.h"
#include "front/parse.h"
#include "front/print.h"
#include "verify/normalize.h"
#include "verify/verify.h"
#include "guard.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

PtoContext *pto_context_new(void) { return ctx_new(); }
void pto_context_free(PtoContext *ctx) { ctx_free(ctx); }
void pto_free(void *p) { mem_free(p); }

size_t pto_diag_count(const PtoContext *ctx) { return ctx->diags.n; }
size_t pto_error_count(const PtoContext *ctx) { return ctx->diags.nerrors; }
void pto_set_max_errors(PtoContext *ctx, size_t n) { ctx->diags.max_errors = n; }
void pto_context_set_fast_paths(PtoContext *ctx, int on) { ctx->reference = !on; }

int pto_diag_get(const PtoContext *ctx, size_t i, PtoDiagInfo *out)
{
    if (i >= ctx->diags.n) return -1;
    const Diag *d = &ctx->diags.items[i];
    out->severity = (PtoSeverity)d->sev;
    out->id = diag_id_str(d->id);
    out->file = d->loc.file;
    out->line = d->loc.line;
    out->col = d->loc.col;
    out->message = diag_msg(d);
    out->nnotes = d->nnotes;
    return 0;
}

int pto_diag_note_get(const PtoContext *ctx, size_t i, size_t j, PtoDiagInfo *out)
{
    if (i >= ctx->diags.n || j >= ctx->diags.items[i].nnotes) return -1;
    const Diag *d = &ctx->diags.items[i];
    const DiagNote *n = &d->notes[j];
    out->severity = PTO_SEV_NOTE;
    out->id = diag_id_str(d->id);
    out->file = n->loc.file;
    out->line = n->loc.line;
    out->col = n->loc.col;
    out->message = n->msg;
    out->nnotes = 0;
    return 0;
}

char *pto_diag_render(const PtoContext *ctx, size_t i, int color) { return diag_render(&ctx->diags, i, color); }

void pto_diag_clear(PtoContext *ctx) { diag_clear(&ctx->diags); }

/* A module whose source text (len bytes and a NUL) lives in its own arena, like the IR built from it. */
static Module *module_new(PtoContext *ctx, const char *filename, size_t len, char **text)
{
    Module *m = mem_calloc(1, sizeof *m);
    if (!m) return NULL;
    arena_init(&m->arena);
    m->ctx = ctx;
    m->file = ctx_intern(ctx, filename ? filename : "<input>", strlen(filename ? filename : "<input>"));
    *text = arena_try_alloc(&m->arena, len + 1);   /* zeroed: the NUL is there */
    if (!*text || !m->file) {   /* out of memory: NULL, as pto_parse documents */
        arena_free(&m->arena);
        mem_free(m);
        return NULL;
    }
    m->text = *text;
    m->len = len;
    return m;
}

/* Line breaks are LF, CRLF or a lone CR (classic Mac text): a lone CR becomes LF in the module's own copy of
   the text, so every later stage (the lexer's lines and `//` comments, the caret lines of diagnostics) sees one
   kind of line break, at the same byte offsets and columns. CRLF stays as it is (the CR is a blank). */
static void lone_cr_to_lf(Module *m)
{
    char *t = (char *)(uintptr_t)m->text, *end = t + m->len;
    for (char *p = t; (p = memchr(p, '\r', (size_t)(end - p))); p++)
        if (p + 1 == end || p[1] != '\n') *p = '\n';
}

static PtoModule *parse_text(Module *m)
{
    lone_cr_to_lf(m);
    diag_add_source(&m->ctx->diags, m->file, m->text, m->len);
    size_t e0 = m->ctx->diags.nerrors;
    m->top = parse_module_text(m->ctx, m, m->file, m->text, m->len);   /* compiles the signatures on first need */
    m->parse_errors = (uint32_t)(m->ctx->diags.nerrors - e0);
    return m;
}
static void pto_module_free_unguarded(PtoModule *m);

static PtoModule *pto_parse_unguarded(PtoContext *ctx, const char *filename, const char *text, size_t len)
{
    char *copy;
    Module *m = module_new(ctx, filename, len, &copy);
    if (!m) return NULL;
    if (len) memcpy(copy, text, len);
    return parse_text(m);
}

/* A module holding the file's text, not parsed yet; NULL with E-IO-READ when it cannot be read (or when out
   of memory). */
static Module *read_file(PtoContext *ctx, const char *path)
{
    FILE *f = fopen(path, "rb");
    SrcLoc none = {0, 0, 0};
    if (!f) {
        diag_add(&ctx->diags, SEV_ERROR, DIAG_IO_READ, none, "cannot read '%s': %s", path, strerror(errno));
        return NULL;
    }
    /* A regular file is read straight into the module's arena. Anything else (a pipe) has no size: it is
       read into a growing buffer first. */
    struct stat st;
    int is_reg = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
    if (is_reg && (uintmax_t)st.st_size > PTO_MAX_SOURCE_BYTES) {
        fclose(f);
        diag_add(&ctx->diags, SEV_ERROR, DIAG_IO_READ, none, "'%s' has %ju bytes, over the kernel source limit of %llu",
                 path, (uintmax_t)st.st_size, (unsigned long long)PTO_MAX_SOURCE_BYTES);
        return NULL;
    }
    if (is_reg) {
        char *text;
        Module *m = module_new(ctx, path, (size_t)st.st_size, &text);
        if (!m) { fclose(f); return NULL; }
        size_t n = fread(text, 1, (size_t)st.st_size, f);
        int bad = ferror(f) || n != (size_t)st.st_size || getc(f) != EOF;   /* the file changed while read */
        fclose(f);
        if (bad) {
            pto_module_free_unguarded(m);
            diag_add(&ctx->diags, SEV_ERROR, DIAG_IO_READ, none, "error while reading '%s'", path);
            return NULL;
        }
        return m;
    }
    size_t cap = 65536, n = 0;
    char *buf = mem_alloc(cap);
    if (!buf) { fclose(f); return NULL; }
    errno = 0;
    for (;;) {
        if (n + 1 >= cap) {
            cap *= 2;
            char *nb = mem_realloc(buf, cap);
            if (!nb) { mem_free(buf); fclose(f); return NULL; }
            buf = nb;
        }
        size_t k = fread(buf + n, 1, cap - 1 - n, f);
        n += k;
        if (k == 0) break;
        if (n > PTO_MAX_SOURCE_BYTES) {   /* an endless device or pipe stops here */
            mem_free(buf);
            fclose(f);
            diag_add(&ctx->diags, SEV_ERROR, DIAG_IO_READ, none, "'%s' yields more than the kernel source limit of %llu "
                     "bytes", path, (unsigned long long)PTO_MAX_SOURCE_BYTES);
            return NULL;
        }
    }
    int err = ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (err) {
        mem_free(buf);
        diag_add(&ctx->diags, SEV_ERROR, DIAG_IO_READ, none, "cannot read '%s': %s", path, strerror(err));
        return NULL;
    }
    char *text;
    Module *m = module_new(ctx, path, n, &text);
    if (m && n) memcpy(text, buf, n);
    mem_free(buf);
    return m;
}
static PtoModule *pto_parse_file_unguarded(PtoContext *ctx, const char *path)
{
    Module *m = read_file(ctx, path);
    return m ? parse_text(m) : NULL;
}
static void pto_module_free_unguarded(PtoModule *m)
{
    if (!m) return;
    /* The diagnostics keep pointing at the text for rendering; detach it first. */
    diag_remove_source(&m->ctx->diags, m->text);
    arena_free(&m->arena);
    mem_free(m);
}

static PtoTarget target_of(const Op *top)
{
    const Attr *a = top ? op_attr(top, "pto.target_arch") : NULL;
    PtoTarget t;
    if (a && (a->kind == AT_STR || a->kind == AT_TOKEN) && pto_target_from_name(a->s, &t) == 0) return t;
    return PTO_TARGET_A5;
}

PtoTarget pto_module_target(const PtoModule *m) { return target_of(m->top); }
static size_t pto_verify_unguarded(PtoModule *m, PtoTarget target)
{
    if (target == PTO_TARGET_DEFAULT) target = pto_module_target(m);
    size_t before = m->ctx->diags.nerrors;
    if (m->top) {
        norm_module(m);   /* the only rewrite between parse and verify: inferred vector scopes */
        verify_module(m, target);
    }
    return m->ctx->diags.nerrors - before;
}

/* Checking while parsing: each nested module is verified into `pending`, whose diagnostics join the
   context's only if the whole parse reports no error (pto_verify's rule: nothing is verified then). */
typedef struct CheckRun {
    PtoTarget target;          /* PTO_TARGET_DEFAULT: the top module's, known once its header is parsed */
    DiagList pending;
    int keeping;               /* a unit needed the whole module: it and every later unit are kept */
} CheckRun;

/* A unit that calls out of itself (a function of the top module, perhaps written later) is kept, with all
   later units, and verified at the end as pto_verify would, after the units verified here: the order stays. */
static int check_unit(Module *m, Op *top, Op *unit, void *data)
{
    CheckRun *c = data;
    if (!c->keeping && !verify_unit_closed(unit, &m->ctx->diags)) c->keeping = 1;
    if (c->keeping) return 1;
    norm_unit(m, unit);
    verify_nested(m, unit, c->target == PTO_TARGET_DEFAULT ? target_of(top) : c->target, &c->pending);
    return 0;
}

static long check_text(Module *m, PtoTarget target)
{
    DiagList *d = &m->ctx->diags;
    size_t before = d->nerrors;
    CheckRun c;
    c.target = target;
    c.keeping = 0;
    diag_init(&c.pending);
    memcpy(c.pending.warn, d->warn, sizeof d->warn);
    c.pending.warn_all = d->warn_all;
    c.pending.max_errors = 0;   /* the cap applies when they join the context's list */
    if (diag_reserve(&c.pending)) {
        pto_module_free_unguarded(m);
        diag_oom(d, 0);
        return -1;
    }
    m->on_unit = check_unit;
    m->on_unit_data = &c;
    parse_text(m);
    if (d->nerrors == before) {
        diag_append(d, &c.pending);
        if (m->top) {
            norm_module(m);
            verify_module(m, target == PTO_TARGET_DEFAULT ? target_of(m->top) : target);
        }
    }
    diag_free(&c.pending);
    pto_module_free_unguarded(m);
    return (long)(d->nerrors - before);
}
static long pto_check_unguarded(PtoContext *ctx, const char *filename, const char *text, size_t len, PtoTarget target)
{
    char *copy;
    Module *m = module_new(ctx, filename, len, &copy);
    if (!m) return -1;
    if (len) memcpy(copy, text, len);
    return check_text(m, target);
}
static long pto_check_file_unguarded(PtoContext *ctx, const char *path, PtoTarget target)
{
    Module *m = read_file(ctx, path);
    return m ? check_text(m, target) : -1;
}
static char *pto_print_unguarded(const PtoModule *m, int generic)
{
    if (!m) return NULL;
    if (!m->top || m->parse_errors) {   /* the IR of a module with parse errors is incomplete: nothing to print */
        SrcLoc at = {m->file, 1, 1};
        diag_add(&m->ctx->diags, SEV_ERROR, DIAG_USAGE, at, "cannot print '%s': it has parse errors", m->file);
        return NULL;
    }
    char *s = print_module(m->ctx, m, generic);
    if (!s) diag_oom(&m->ctx->diags, 0);
    return s;
}

int pto_set_warning(PtoContext *ctx, const char *id, PtoWarnAction action)
{
    if ((unsigned)action > PTO_WARN_ENABLE) return -1;
    if (!id) {
        ctx->diags.warn_all = (uint8_t)action;
        return 0;
    }
    int k = diag_id_lookup(id);
    if (k < 0 || diag_id_str((DiagId)k)[0] != 'W') return -1;
    ctx->diags.warn[k] = (uint8_t)action;
    return 0;
}

size_t pto_promoted_warning_count(const PtoContext *ctx) { return ctx->diags.npromoted; }

PtoModule * pto_parse(PtoContext *ctx, const char *filename, const char *text, size_t len)
{
    if (!ctx) return NULL;
    PtoCtx *c = ctx;
    fenv_t env;
    if (!api_enter(c, &env)) return NULL;
    PtoModule *r = pto_parse_unguarded(ctx, filename, text, len);
    api_leave(c, &env);
    return r;
}

PtoModule * pto_parse_file(PtoContext *ctx, const char *path)
{
    if (!ctx) return NULL;
    PtoCtx *c = ctx;
    fenv_t env;
    if (!api_enter(c, &env)) return NULL;
    PtoModule *r = pto_parse_file_unguarded(ctx, path);
    api_leave(c, &env);
    return r;
}

void pto_module_free(PtoModule *m)
{
    if (!m) return;
    PtoCtx *c = m->ctx;
    fenv_t env;
    if (!api_enter(c, &env)) return;
    pto_module_free_unguarded(m);
    api_leave(c, &env);
}

size_t pto_verify(PtoModule *m, PtoTarget target)
{
    if (!m) return 1;
    PtoCtx *c = m->ctx;
    fenv_t env;
    if (!api_enter(c, &env)) return 1;
    size_t r = pto_verify_unguarded(m, target);
    api_leave(c, &env);
    return r;
}

long pto_check(PtoContext *ctx, const char *filename, const char *text, size_t len, PtoTarget target)
{
    if (!ctx) return -1;
    PtoCtx *c = ctx;
    fenv_t env;
    if (!api_enter(c, &env)) return -1;
    long r = pto_check_unguarded(ctx, filename, text, len, target);
    api_leave(c, &env);
    return r;
}

long pto_check_file(PtoContext *ctx, const char *path, PtoTarget target)
{
    if (!ctx) return -1;
    PtoCtx *c = ctx;
    fenv_t env;
    if (!api_enter(c, &env)) return -1;
    long r = pto_check_file_unguarded(ctx, path, target);
    api_leave(c, &env);
    return r;
}

char * pto_print(const PtoModule *m, int generic)
{
    if (!m) return NULL;
    PtoCtx *c = m->ctx;
    fenv_t env;
    if (!api_enter(c, &env)) return NULL;
    char *r = pto_print_unguarded(m, generic);
    api_leave(c, &env);
    return r;
}
