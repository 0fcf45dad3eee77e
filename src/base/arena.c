/* arena.c — chunked bump allocator backing the IR, interned strings and types. */
#include "arena.h"
#include <stdlib.h>
#include <string.h>

struct ArenaChunk {
    ArenaChunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

enum { ARENA_CHUNK = 64 * 1024 };

void arena_init(Arena *a) { a->head = NULL; a->total = 0; }

void arena_free(Arena *a)
{
    ArenaChunk *c = a->head;
    while (c) {
        ArenaChunk *n = c->next;
        free(c);
        c = n;
    }
    a->head = NULL;
    a->total = 0;
}

void *arena_try_alloc(Arena *a, size_t size)
{
    size = (size + 15u) & ~(size_t)15u;
    if (size == 0) size = 16;
    ArenaChunk *c = a->head;
    if (!c || c->cap - c->used < size) {
        size_t cap = size > ARENA_CHUNK / 2 ? size : ARENA_CHUNK;
        c = malloc(sizeof(ArenaChunk) + cap);
        if (!c) return NULL;
        c->used = 0;
        c->cap = cap;
        if (a->head && size > ARENA_CHUNK / 2) {
            /* Big blocks go behind the current chunk so its free tail stays usable. */
            c->next = a->head->next;
            a->head->next = c;
        } else {
            c->next = a->head;
            a->head = c;
        }
    }
    void *p = c->data + c->used;
    c->used += size;
    a->total += size;
    memset(p, 0, size);
    return p;
}

void *arena_alloc(Arena *a, size_t size)
{
    void *p = arena_try_alloc(a, size);
    if (!p) abort();   /* callers that cannot report out-of-memory (the front end, for now) */
    return p;
}

void *arena_dup(Arena *a, const void *p, size_t size)
{
    void *q = arena_alloc(a, size);
    if (size) memcpy(q, p, size);
    return q;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *q = arena_alloc(a, n + 1);
    memcpy(q, s, n);
    q[n] = 0;
    return q;
}
