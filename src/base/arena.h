/* arena.h — bump allocator: every IR object of a module lives in one arena, freed in one call. */
#ifndef PTOSIM_ARENA_H
#define PTOSIM_ARENA_H
#include <setjmp.h>
#include <stddef.h>

typedef struct ArenaChunk ArenaChunk;
typedef struct Arena {
    ArenaChunk *head;
    size_t total;          /* bytes handed out, for statistics */
    /* Where arena_alloc goes when memory runs out: code that allocates from the arena without checking
       (the parser, the signature compiler, vector-scope inference, interning) runs under a setjmp and points
       this at it; the handler reports E-OOM and frees what the unfinished work held. NULL: arena_alloc
       aborts, which only a caller outside every handler (a defect `make oomtest` reports) can reach. An
       arena stays consistent after a failed allocation (nothing is half-added). */
    jmp_buf *oom;
} Arena;

void  arena_init(Arena *a);
void  arena_free(Arena *a);
void *arena_try_alloc(Arena *a, size_t size);          /* zeroed, 16-byte aligned; NULL when out of memory */
void *arena_alloc(Arena *a, size_t size);              /* the same, but longjmps to a->oom when out of memory */
void *arena_dup(Arena *a, const void *p, size_t size);
/* Moves every chunk of src into dst (what src handed out now lives as long as dst); src is left empty. */
void  arena_adopt(Arena *dst, Arena *src);
char *arena_strndup(Arena *a, const char *s, size_t n);

#define ARENA_NEW(a, T)        ((T *)arena_alloc((a), sizeof(T)))
#define ARENA_ARRAY(a, T, n)   ((T *)arena_alloc((a), sizeof(T) * (size_t)(n)))
#endif
