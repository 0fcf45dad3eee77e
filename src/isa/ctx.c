/* ctx.c — context lifetime and string interning. */
#include "ctx.h"
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

const char *ctx_intern(PtoCtx *c, const char *s, size_t n)
{
    StrTab *t = c->strs;
    if (t->n * 2 >= t->cap) {
        unsigned cap = t->cap * 2;
        const char **sl = ARENA_ARRAY(&c->arena, const char *, cap);
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
    const char *d = arena_strndup(&c->arena, s, n);
    t->slots[j] = d;
    t->n++;
    return d;
}

PtoCtx *ctx_new(void)
{
    PtoCtx *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    arena_init(&c->arena);
    c->types = types_new(&c->arena);
    c->strs = ARENA_NEW(&c->arena, StrTab);
    c->strs->cap = 1024;
    c->strs->slots = ARENA_ARRAY(&c->arena, const char *, c->strs->cap);
    diag_init(&c->diags);
    char err[256];
    c->sigs = sig_compile_all(&c->arena, err, sizeof err);
    if (!c->sigs) {
        /* The op table is part of the program; a malformed row is a build defect caught by `make test`. */
        fprintf(stderr, "ptosim: internal error: %s\n", err);
        abort();
    }
    return c;
}

void ctx_free(PtoCtx *c)
{
    if (!c) return;
    diag_free(&c->diags);
    arena_free(&c->arena);
    free(c);
}
