/* gmview.c — a block's private view of GM (gmview.h): pages of the device image copied on first touch,
 * access and write sets as byte ranges, the conflict test against other blocks' writes, and the commit. */
#include "base/alloc.h"
#include "gmview.h"
#include <stdlib.h>
#include <string.h>

enum { PAGE_SHIFT = 12, PAGE = 1 << PAGE_SHIFT };

struct GmView {
    pthread_rwlock_t *lock;
    uint8_t *data;             /* the private copy of the image (pages not yet copied hold stale bytes) */
    uint64_t size, cap;
    uint64_t *copied;          /* one bit per page */
    size_t nwords, capwords;
    uint8_t *shared;           /* the launch's image */
    GmSet touched, written;
    int oom;
};

GmView *gmv_new(pthread_rwlock_t *lock)
{
    GmView *v = mem_calloc(1, sizeof *v);
    if (v) v->lock = lock;
    return v;
}

void gmset_free(GmSet *s)
{
    mem_free(s->r);
    memset(s, 0, sizeof *s);
}

void gmv_free(GmView *v)
{
    if (!v) return;
    mem_free(v->data);
    mem_free(v->copied);
    gmset_free(&v->touched);
    gmset_free(&v->written);
    mem_free(v);
}

int gmv_open(GmView *v, uint8_t *image, uint64_t size)
{
    size_t nwords = (size_t)((size + PAGE - 1) >> PAGE_SHIFT) / 64 + 1;
    if (nwords > v->capwords) {
        mem_free(v->copied);
        v->copied = mem_alloc(nwords * sizeof *v->copied);
        v->capwords = v->copied ? nwords : 0;
        if (!v->copied) return -1;
    }
    memset(v->copied, 0, nwords * sizeof *v->copied);
    v->nwords = nwords;
    if (size > v->cap) {   /* the private copy is allocated on the first touch */
        mem_free(v->data);
        v->data = NULL;
        v->cap = 0;
    }
    v->size = size;
    v->shared = image;
    v->touched.n = v->touched.norm = 0;
    v->written.n = v->written.norm = 0;
    v->oom = 0;
    return 0;
}

uint8_t *gmv_map(GmView *v, uint64_t off, uint64_t len)
{
    if (!v->data) {
        v->data = mem_alloc(v->size ? (size_t)v->size : 1);
        if (!v->data) return NULL;
        v->cap = v->size;
    }
    if (!len) return v->data + off;
    uint64_t p0 = off >> PAGE_SHIFT, p1 = (off + len - 1) >> PAGE_SHIFT;
    uint64_t p = p0;
    while (p <= p1 && (v->copied[p >> 6] >> (p & 63) & 1)) p++;
    if (p > p1) return v->data + off;
    if (v->lock) pthread_rwlock_rdlock(v->lock);
    for (; p <= p1; p++) {
        if (v->copied[p >> 6] >> (p & 63) & 1) continue;
        uint64_t lo = p << PAGE_SHIFT, hi = lo + PAGE < v->size ? lo + PAGE : v->size;
        memcpy(v->data + lo, v->shared + lo, (size_t)(hi - lo));
        v->copied[p >> 6] |= 1ull << (p & 63);
    }
    if (v->lock) pthread_rwlock_unlock(v->lock);
    return v->data + off;
}

/* ------------------------------------------------------------------ range sets */

static int range_cmp(const void *pa, const void *pb)
{
    const GmRange *a = pa, *b = pb;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Sorts and merges the set (touching ranges join). */
static void normalise(GmSet *s)
{
    if (s->norm == s->n) return;
    qsort(s->r, s->n, sizeof *s->r, range_cmp);
    size_t k = 0;
    for (size_t i = 1; i < s->n; i++) {
        if (s->r[i].lo <= s->r[k].hi) {
            if (s->r[i].hi > s->r[k].hi) s->r[k].hi = s->r[i].hi;
        } else {
            s->r[++k] = s->r[i];
        }
    }
    s->n = s->norm = s->n ? k + 1 : 0;
}

static int set_add(GmSet *s, uint64_t lo, uint64_t hi)
{
    /* streams of copies extend one of the newest ranges */
    for (size_t i = s->n, k = 0; i > s->norm && k < 4; i--, k++) {
        GmRange *g = &s->r[i - 1];
        if (lo <= g->hi && hi >= g->lo) {
            if (lo < g->lo) g->lo = lo;
            if (hi > g->hi) g->hi = hi;
            return 0;
        }
    }
    if (s->n == s->cap) {
        normalise(s);
        if (s->n * 2 > s->cap || !s->cap) {
            size_t cap = s->cap ? s->cap * 2 : 256;
            GmRange *r = mem_realloc(s->r, cap * sizeof *r);
            if (!r) return -1;
            s->r = r;
            s->cap = cap;
        }
    }
    s->r[s->n++] = (GmRange){lo, hi};
    return 0;
}

void gmv_log(GmView *v, uint64_t off, uint64_t len, int mode)
{
    if (off >= v->size) return;
    if (len > v->size - off) len = v->size - off;
    if (!len || v->oom) return;
    uint64_t lo = off, hi = lo + len;
    if (set_add(&v->touched, lo, hi) || (mode != ACC_READ && set_add(&v->written, lo, hi))) v->oom = 1;
}

int gmv_failed(const GmView *v) { return v->oom; }

int gmv_conflicts(GmView *v, GmSet *writes)
{
    normalise(&v->touched);
    normalise(writes);
    size_t i = 0, j = 0;
    const GmSet *a = &v->touched;
    while (i < a->n && j < writes->n) {
        const GmRange *x = &a->r[i], *y = &writes->r[j];
        if (x->hi <= y->lo) i++;
        else if (y->hi <= x->lo) j++;
        else return 1;
    }
    return 0;
}

int gmv_commit(GmView *v, GmSet *out)
{
    if (v->oom) return -1;
    normalise(&v->written);
    for (size_t i = 0; i < v->written.n; i++) {
        const GmRange *r = &v->written.r[i];
        memcpy(v->shared + r->lo, v->data + r->lo, (size_t)(r->hi - r->lo));
    }
    *out = v->written;
    memset(&v->written, 0, sizeof v->written);
    return 0;
}
