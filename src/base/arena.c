/* arena.c — chunked bump allocator backing the IR, interned strings and types. */
#define _DEFAULT_SOURCE        /* MAP_ANONYMOUS, madvise */
#include "arena.h"
#include "alloc.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct ArenaChunk {
    ArenaChunk *next;
    size_t used, cap;
    void *map;                 /* the mapping holding this chunk (large chunks), else NULL (calloc) */
    size_t maplen;
    _Alignas(16) unsigned char data[];
};

/* Chunks grow from 64 KiB to 4 MiB as the arena grows, so a large module takes few allocations. Chunks
   of 2 MiB and more are mapped on 2 MiB boundaries with transparent huge pages requested where the
   system has them: a large module then costs a few page faults instead of one per 4 KiB, which is most
   of the time its memory takes. Mapped chunks are zero already and never reused, so their allocations
   are not cleared; smaller chunks come from malloc and each allocation is cleared, so a small arena
   (an empty module) touches only the memory it uses. */
enum { ARENA_CHUNK = 64 * 1024, ARENA_CHUNK_MAX = 4 * 1024 * 1024, HUGE = 2 * 1024 * 1024 };

void arena_init(Arena *a) { a->head = NULL; a->total = 0; a->oom = NULL; }

static ArenaChunk *chunk_new(size_t cap)
{
#if defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE)
    if (cap >= HUGE - sizeof(ArenaChunk) && cap <= SIZE_MAX / 2) {
        size_t len = (sizeof(ArenaChunk) + cap + HUGE - 1) & ~(size_t)(HUGE - 1), maplen = len + HUGE;
        void *m = mem_map(maplen);
        if (m) {
            ArenaChunk *c = (ArenaChunk *)(((uintptr_t)m + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
            madvise(c, len, MADV_HUGEPAGE);   /* advice only: without huge pages this is an ordinary mapping */
            c->map = m;
            c->maplen = maplen;
            c->cap = len - sizeof(ArenaChunk);
            return c;
        }
    }
#endif
    ArenaChunk *c = mem_alloc(sizeof(ArenaChunk) + cap);
    if (c) {
        c->cap = cap;
        c->map = NULL;
    }
    return c;
}

void arena_free(Arena *a)
{
    ArenaChunk *c = a->head;
    while (c) {
        ArenaChunk *n = c->next;
        if (c->map) mem_unmap(c->map, c->maplen);
        else mem_free(c);
        c = n;
    }
    a->head = NULL;
    a->total = 0;
}

void *arena_try_alloc(Arena *a, size_t size)
{
    if (size > SIZE_MAX / 4) return NULL;
    size = (size + 15u) & ~(size_t)15u;
    if (size == 0) size = 16;
    ArenaChunk *c = a->head;
    int big = 0;
    if (!c || c->cap - c->used < size) {
        size_t step = ARENA_CHUNK, last = c ? c->cap + sizeof(ArenaChunk) : 0;
        if (last >= ARENA_CHUNK) step = last * 2 > ARENA_CHUNK_MAX ? ARENA_CHUNK_MAX : last * 2;
        big = size > step / 2;
        c = chunk_new(big ? size : step - sizeof(ArenaChunk));
        if (!c) return NULL;
        c->used = 0;
        if (a->head && big) {
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
    if (!c->map) memset(p, 0, size);
    return p;
}

void *arena_alloc(Arena *a, size_t size)
{
    void *p = arena_try_alloc(a, size);
    if (!p) {
        if (a->oom) longjmp(*a->oom, 1);
        /* No handler: a defect (every caller runs under one; make oomtest fails on this stop). */
        fputs("ptosim: out of memory\n", stderr);
        abort();
    }
    return p;
}

void arena_adopt(Arena *dst, Arena *src)
{
    ArenaChunk *c = src->head;
    if (c) {
        /* src's chunks go behind dst's current one, which stays the one allocations come from */
        ArenaChunk *last = c;
        while (last->next) last = last->next;
        if (dst->head) {
            last->next = dst->head->next;
            dst->head->next = c;
        } else {
            dst->head = c;
        }
    }
    dst->total += src->total;
    src->head = NULL;
    src->total = 0;
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
