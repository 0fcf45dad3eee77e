/* alloc.c — mappings for large arena chunks and, in the allocation-failure build (PTOSIM_ALLOC_INJECT),
 * the counting allocator that fails the Nth allocation (alloc.h). */
#define _GNU_SOURCE            /* MAP_ANONYMOUS, madvise, RUSAGE_THREAD */
#include "alloc.h"
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#ifdef PTOSIM_ALLOC_INJECT
/* Per-thread injection state: a test thread arms it and runs the library on itself (alloc.h). */
static _Thread_local uint64_t inj_count, inj_at;
static _Thread_local int inj_persistent, inj_fired;
static _Thread_local const void *inj_site;

void alloc_inject_arm(uint64_t n, int persistent)
{
    inj_count = 0;
    inj_at = n;
    inj_persistent = persistent;
    inj_fired = 0;
    inj_site = NULL;
}

uint64_t alloc_inject_count(void) { return inj_count; }
int alloc_inject_fired(void) { return inj_fired; }
const void *alloc_inject_site(void) { return inj_site; }

/* Whether this allocation fails; `site` is the caller of the mem_* function. */
static int inject(const void *site)
{
    if (!inj_at) return 0;
    uint64_t k = ++inj_count;
    if (k == inj_at || (inj_persistent && k > inj_at)) {
        if (!inj_fired) inj_site = site;
        inj_fired = 1;
        return 1;
    }
    return 0;
}
#define SITE __builtin_return_address(0)

__attribute__((noinline)) void *mem_alloc(size_t n) { return inject(SITE) ? NULL : malloc(n); }
__attribute__((noinline)) void *mem_calloc(size_t n, size_t size) { return inject(SITE) ? NULL : calloc(n, size); }
__attribute__((noinline)) void *mem_realloc(void *p, size_t n) { return inject(SITE) ? NULL : realloc(p, n); }
__attribute__((noinline)) void *mem_aligned(size_t align, size_t n) { return inject(SITE) ? NULL : aligned_alloc(align, n); }
void mem_free(void *p) { free(p); }
#define MAP_INJECT() if (inject(SITE)) return NULL
#else
#define MAP_INJECT() (void)0
#endif

__attribute__((noinline)) void *mem_map(size_t len)
{
#ifdef MAP_ANONYMOUS
    MAP_INJECT();
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return m == MAP_FAILED ? NULL : m;
#else
    (void)len;
    return NULL;
#endif
}

void mem_unmap(void *p, size_t len)
{
#ifdef MAP_ANONYMOUS
    if (p) munmap(p, len);
#else
    (void)p, (void)len;
#endif
}

/* Without anonymous mappings the pages come from the allocator, cleared. */
void *mem_pages(size_t len)
{
    len = len ? len : 1;
#ifdef MAP_ANONYMOUS
#ifdef MADV_HUGEPAGE
    /* 2 MiB and more: mapped on a 2 MiB boundary (the slack around it unmapped again) with huge pages
       requested, so touching a buffer costs one fault per 2 MiB instead of one per 4 KiB */
    enum { HUGE = 2 * 1024 * 1024 };
    if (len >= HUGE && len <= SIZE_MAX / 2) {
        size_t full = (len + HUGE - 1) & ~(size_t)(HUGE - 1);
        uint8_t *m = mem_map(full + HUGE);
        if (!m) return NULL;
        uint8_t *p = (uint8_t *)(((uintptr_t)m + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
        if (p > m) munmap(m, (size_t)(p - m));
        if (m + full + HUGE > p + full) munmap(p + full, (size_t)(m + full + HUGE - (p + full)));
        madvise(p, full, MADV_HUGEPAGE);   /* advice only */
        return p;
    }
#endif
    return mem_map(len);
#else
    size_t r = (len + 4095) & ~(size_t)4095;
    void *p = mem_aligned(4096, r);
    if (p) memset(p, 0, r);
    return p;
#endif
}

/* Linux drops the pages of a private anonymous mapping on MADV_DONTNEED and reads them back as zeros; a
   small buffer is cheaper to clear by hand than through the system. */
void mem_pages_zero(void *p, size_t len)
{
    if (!p) return;
#if defined(MAP_ANONYMOUS) && defined(MADV_DONTNEED) && defined(__linux__)
    if (len >= 64 * 1024 && madvise(p, len, MADV_DONTNEED) == 0) return;
#endif
    memset(p, 0, len);
}

void *mem_pages_small(size_t len)
{
    len = len ? len : 1;
#ifdef MAP_ANONYMOUS
#ifdef MADV_HUGEPAGE
    /* mapped to the length mem_pages_free unmaps */
    if (len >= 2 * 1024 * 1024 && len <= SIZE_MAX / 2) len = (len + 2 * 1024 * 1024 - 1) & ~(size_t)(2 * 1024 * 1024 - 1);
#endif
    void *p = mem_map(len);
#ifdef MADV_NOHUGEPAGE
    if (p) madvise(p, len, MADV_NOHUGEPAGE);   /* advice only: residency then follows the touched 4 KiB pages */
#endif
    return p;
#else
    return mem_pages(len);
#endif
}

#if defined(__linux__) && defined(RUSAGE_THREAD)
/* The calling thread's page faults so far, or -1. */
static long thread_faults(void)
{
    struct rusage u;
    return getrusage(RUSAGE_THREAD, &u) ? -1 : u.ru_minflt + u.ru_majflt;
}
#else
static long thread_faults(void) { return -1; }
#endif

void mem_pages_clear(void *p, size_t len, PageRuns *pr)
{
    if (!p) return;
#if defined(MAP_ANONYMOUS) && defined(__linux__)
    enum { PG = 4096, CHUNK = 4096 };   /* pages per mincore call */
    unsigned char vec[CHUNK];
    uint8_t *b = p;
    size_t pages = (len + PG - 1) / PG;
    unsigned long self = (unsigned long)pthread_self();
    long f0 = thread_faults();
    if (pr && pr->valid && f0 >= 0 && f0 == pr->faults && pr->thread == self) {
        for (uint32_t i = 0; i < pr->n; i++) memset(b + pr->lo[i], 0, pr->hi[i] - pr->lo[i]);
        pr->faults = thread_faults();   /* the pages were resident: no fault, but count again all the same */
        return;
    }
    if (pr) {
        pr->valid = 1;
        pr->n = 0;
    }
    for (size_t first = 0; first < pages; first += CHUNK) {
        size_t n = pages - first < CHUNK ? pages - first : CHUNK;
        size_t bytes = first + n == pages ? len - first * PG : n * PG;
        if (mincore(b + first * PG, bytes, vec) != 0) {
            mem_pages_zero(b + first * PG, bytes);
            if (pr) pr->valid = 0;
            continue;
        }
        for (size_t i = 0; i < n;) {   /* runs of resident pages */
            if (!(vec[i] & 1)) { i++; continue; }
            size_t j = i;
            while (j < n && (vec[j] & 1)) j++;
            size_t lo = (first + i) * PG, hi = (first + j) * PG;
            if (hi > len) hi = len;
            memset(b + lo, 0, hi - lo);
            if (pr && pr->n < PAGE_RUNS_MAX) {
                pr->lo[pr->n] = lo;
                pr->hi[pr->n++] = hi;
            } else if (pr) {
                pr->valid = 0;   /* too many runs to remember: mincore next time */
            }
            i = j;
        }
    }
    if (pr) {
        pr->faults = thread_faults();
        pr->thread = self;
        if (pr->faults < 0) pr->valid = 0;
    }
#else
    (void)pr;
    mem_pages_zero(p, len);
#endif
}

void mem_pages_free(void *p, size_t len)
{
#ifdef MAP_ANONYMOUS
#ifdef MADV_HUGEPAGE
    if (len >= 2 * 1024 * 1024 && len <= SIZE_MAX / 2) len = (len + 2 * 1024 * 1024 - 1) & ~(size_t)(2 * 1024 * 1024 - 1);
#endif
    mem_unmap(p, len ? len : 1);
#else
    (void)len;
    mem_free(p);
#endif
}
