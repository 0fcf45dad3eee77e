/* ctx.c — context lifetime and string interning. */
#include "ctx.h"
#include "base/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct StrTab {
    const char **slots;
    unsigned cap, n;
};

static uint64_t hash_str(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

/* Out of memory: longjmps to the arena's handler when there is one (the front end), else NULL. */
static void *intern_alloc(PtoCtx *c, size_t n)
{
    void *p = arena_try_alloc(&c->arena, n);
    if (!p && c->arena.oom) longjmp(*c->arena.oom, 1);
    return p;
}

const char *ctx_intern(PtoCtx *c, const char *s, size_t n)
{
    StrTab *t = c->strs;
    if (t->n * 2 >= t->cap) {
        unsigned cap = t->cap * 2;
        const char **sl = intern_alloc(c, sizeof(const char *) * cap);
        if (!sl) return NULL;
        for (unsigned i = 0; i < t->cap; i++) {
            if (!t->slots[i]) continue;
            unsigned j = (unsigned)hash_str(t->slots[i], strlen(t->slots[i])) & (cap - 1);
            while (sl[j]) j = (j + 1) & (cap - 1);
            sl[j] = t->slots[i];
        }
        t->slots = sl;
        t->cap = cap;
    }
    unsigned j = (unsigned)hash_str(s, n) & (t->cap - 1);
    while (t->slots[j]) {
        if (strncmp(t->slots[j], s, n) == 0 && t->slots[j][n] == 0) return t->slots[j];
        j = (j + 1) & (t->cap - 1);
    }
    char *d = intern_alloc(c, n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    t->slots[j] = d;
    t->n++;
    return d;
}

PtoCtx *ctx_new(void)
{
    PtoCtx *volatile c = mem_calloc(1, sizeof *c);   /* volatile: read after the longjmp below */
    if (!c) return NULL;
    arena_init(&c->arena);
    jmp_buf oom;   /* out of memory below: NULL, as pto_context_new documents */
    if (setjmp(oom)) {
        arena_free(&c->arena);
        mem_free((void *)c);
        return NULL;
    }
    c->arena.oom = &oom;
    c->types = types_new(&c->arena);
    c->strs = ARENA_NEW(&c->arena, StrTab);
    c->strs->cap = 1024;
    c->strs->slots = ARENA_ARRAY(&c->arena, const char *, c->strs->cap);
    c->arena.oom = NULL;
    diag_init(&c->diags);
    if (diag_reserve(&c->diags)) longjmp(oom, 1);
    atomic_init(&c->sigtab, NULL);
    return c;
}

/* A compiled signature table, or NULL when out of memory (nothing kept). */
static SigTab *sigtab_new(char *err, unsigned nerr)
{
    SigTab *volatile t = mem_alloc(sizeof *t);
    if (!t) return NULL;
    arena_init(&t->arena);
    jmp_buf oom;
    if (setjmp(oom)) {
        arena_free(&t->arena);
        mem_free(t);
        return NULL;
    }
    t->arena.oom = &oom;
    t->sigs = sig_compile_all(&t->arena, err, nerr);
    t->arena.oom = NULL;
    return t;
}

const OpSig *const *ctx_sigs_compile(PtoCtx *c)
{
    SigTab *t = atomic_load_explicit(&c->sigtab, memory_order_acquire);
    if (t) return t->sigs;
    char err[256];
    t = sigtab_new(err, sizeof err);
    if (!t) return NULL;
    if (!t->sigs) {
        /* The op table is part of the program; a malformed row is a build defect caught by `make test`. */
        fprintf(stderr, "ptosim: internal error: %s\n", err);
        abort();
    }
    /* Two threads may race here; the loser frees its copy and uses the winner's. */
    SigTab *expected = NULL;
    if (!atomic_compare_exchange_strong_explicit(&c->sigtab, &expected, t, memory_order_acq_rel, memory_order_acquire)) {
        arena_free(&t->arena);
        mem_free(t);
        t = expected;
    }
    return t->sigs;
}

const OpSig *const *ctx_sigs_need(PtoCtx *c)
{
    const OpSig *const *s = ctx_sigs_compile(c);
    if (s) return s;
    if (c->arena.oom) longjmp(*c->arena.oom, 1);
    fputs("ptosim: out of memory compiling the signature table\n", stderr);
    abort();
}

void ctx_free(PtoCtx *c)
{
    if (!c) return;
    diag_free(&c->diags);
    SigTab *t = atomic_load_explicit(&c->sigtab, memory_order_acquire);
    if (t) {
        arena_free(&t->arena);
        mem_free(t);
    }
    arena_free(&c->arena);
    mem_free(c);
}
