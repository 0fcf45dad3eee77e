/* alloc.h — the one place every allocation of the library goes through.
 *
 * The normal build maps these straight onto the C library (inline: nothing is added to any path).
 * The allocation-failure build (`make oomtest`, compiled with -DPTOSIM_ALLOC_INJECT) routes them through
 * alloc.c, which can make the Nth allocation fail, so a test can fail every allocation site in turn and
 * check that each failure becomes a clean E-OOM / T-OOM diagnostic with nothing leaked (tests/oom/).
 * `tools/check_layers.py` rejects a direct malloc/calloc/realloc/free/aligned_alloc/mmap anywhere else. */
#ifndef PTOSIM_ALLOC_H
#define PTOSIM_ALLOC_H
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#ifdef PTOSIM_ALLOC_INJECT
void *mem_alloc(size_t n);
void *mem_calloc(size_t n, size_t size);
void *mem_realloc(void *p, size_t n);
void *mem_aligned(size_t align, size_t n);     /* n a multiple of align, as for aligned_alloc */
void  mem_free(void *p);
/* Anonymous zeroed read-write mapping of len bytes (NULL on failure), and its release. */
void *mem_map(size_t len);
void  mem_unmap(void *p, size_t len);

/* Failure injection. The state is per thread (the only mutable state outside a context, and only in this
   build): the test arms it, runs the library on the same thread, and reads what happened.
   alloc_inject_arm(n, persistent): from now, count allocations (every mem_* call above except mem_free and
   mem_unmap); allocation n (1-based) fails, and with `persistent` every later one too; n = 0 disarms. */
void alloc_inject_arm(uint64_t n, int persistent);
uint64_t alloc_inject_count(void);     /* allocations counted since alloc_inject_arm */
int alloc_inject_fired(void);          /* whether an injected failure happened since then */
/* The call site (return address) of the first injected failure, for counting distinct sites. */
const void *alloc_inject_site(void);
#else
static inline void *mem_alloc(size_t n) { return malloc(n); }
static inline void *mem_calloc(size_t n, size_t size) { return calloc(n, size); }
static inline void *mem_realloc(void *p, size_t n) { return realloc(p, n); }
static inline void *mem_aligned(size_t align, size_t n) { return aligned_alloc(align, n); }
static inline void  mem_free(void *p) { free(p); }
void *mem_map(size_t len);
void  mem_unmap(void *p, size_t len);
#endif

/* Zeroed page-aligned buffers for the simulated on-chip memories: mem_pages(len) maps them (pages cost
   nothing until touched, so a buffer a kernel never uses is free), mem_pages_zero(p, len) makes the whole
   buffer zero again (on Linux by returning the touched pages to the system, so clearing costs what was
   used, not the capacity), mem_pages_free(p, len) releases it. NULL on failure. */
void *mem_pages(size_t len);
void  mem_pages_zero(void *p, size_t len);
void  mem_pages_free(void *p, size_t len);
/* The same, for buffers cleared between uses (the on-chip memories of a block, reused by the next): small
   pages, and mem_pages_clear(p, len) zeroes only the pages the last use touched (on Linux the resident ones,
   mincore), keeping them mapped, so the next use pays no page faults and clearing costs what was touched;
   elsewhere it is mem_pages_zero. Released with mem_pages_free. */
void *mem_pages_small(size_t len);
/* What the last mem_pages_clear of a buffer found resident (its runs of pages), and the calling thread's page-fault
   count after it: while that thread has taken no page fault since, no other page can have become resident, so the
   next clear zeroes the same runs without asking the kernel (mincore walks every page of the buffer). Zeroed
   (valid = 0) before the first clear. */
enum { PAGE_RUNS_MAX = 32 };
typedef struct PageRuns {
    int valid;
    uint32_t n;
    size_t lo[PAGE_RUNS_MAX], hi[PAGE_RUNS_MAX];
    long faults;
    unsigned long thread;
} PageRuns;
void  mem_pages_clear(void *p, size_t len, PageRuns *pr);

/* calloc(1, n): one zeroed object. */
static inline void *mem_zalloc(size_t n) { return mem_calloc(1, n); }
#endif
