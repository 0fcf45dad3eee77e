/* gm.c — GM as one flat device address space (docs/semantics.md §1, "GM").
 *
 * The buffers bound to pointer parameters are device allocations placed one after another from SIM_GM_BASE,
 * each at a 2 MiB boundary (the huge page the ACL_MEM_MALLOC_HUGE_FIRST policy of validated hosts gives)
 * and reserving ALIGN_UP(size, 32) + 32 bytes rounded up to whole pages. Parameters whose host memory
 * overlaps are one allocation (pointers into one aclrtMalloc'd block). The device space is one host image
 * of all those slots: the bound bytes are copied in when a run starts and back when it ends (or traps);
 * the bytes of a slot after its buffer (the gap) hold SIM_GM_GAP_BYTE. A fast path (off with the reference
 * handlers): a buffer whose host bytes are 16-byte aligned, as the image's slots are, is accessed in place
 * (GmBuf.alias: no copy in, no copy out, its slot of the image never touched) as long as every access stays
 * inside its buffer; the first that leaves one, or a launch whose blocks run on private views, copies every
 * aliased buffer into the image first (sim_gm_unalias), and from there the run is the copying one. An access inside its buffer is
 * plain; one that leaves it is performed in the image and reported (W-GM-OOB, W-GM-CLOBBER when a write
 * reaches another buffer), or traps T-OOB in strict mode; one that leaves the device space traps. */
#include "machine.h"
#include "base/alloc.h"
#include "gmview.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { GM_PAGE = 2u << 20 };

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

/* Bytes the allocator reserves for a buffer of `size` bytes: ALIGN_UP(size, 32) + 32, in whole pages. */
static uint64_t slot_bytes(uint64_t size) { return align_up(align_up(size, 32) + 32, GM_PAGE); }

int sim_gm_place(Sim *s, const GmBind *b, unsigned n, uint64_t *addr)
{
    /* group the parameters by overlapping host memory (a zero-size buffer joins a group it touches) */
    unsigned *grp = mem_calloc(n + 1, sizeof *grp);
    if (!grp) return -1;
    for (unsigned i = 0; i < n; i++) grp[i] = i;
    for (int merged = 1; merged;) {
        merged = 0;
        for (unsigned i = 0; i < n; i++) {
            if (!b[i].is_ptr) continue;
            uintptr_t lo = (uintptr_t)b[i].data, hi = lo + b[i].size;
            for (unsigned j = i + 1; j < n; j++) {
                if (!b[j].is_ptr || grp[j] == grp[i]) continue;
                uintptr_t l2 = (uintptr_t)b[j].data, h2 = l2 + b[j].size;
                int meet = b[i].size && b[j].size ? (lo < h2 && l2 < hi) : (lo <= h2 && l2 <= hi);
                if (!meet) continue;
                unsigned from = grp[j] > grp[i] ? grp[j] : grp[i], to = grp[j] > grp[i] ? grp[i] : grp[j];
                for (unsigned k = 0; k < n; k++)
                    if (grp[k] == from) grp[k] = to;
                merged = 1;
            }
        }
    }
    /* one allocation per group, in the order of its first parameter */
    uint64_t span = 0;
    uint32_t old_ngm = s->ngm;
    s->ngm = 0;
    for (unsigned i = 0; i < n; i++) {
        if (!b[i].is_ptr || grp[i] != i) continue;
        uintptr_t lo = UINTPTR_MAX, hi = 0;
        int out = 0;
        for (unsigned k = i; k < n; k++) {
            if (!b[k].is_ptr || grp[k] != i) continue;
            uintptr_t l2 = (uintptr_t)b[k].data;
            lo = l2 < lo ? l2 : lo;
            hi = l2 + b[k].size > hi ? l2 + b[k].size : hi;
            out |= b[k].output;
        }
        GmBuf *g = &s->gm[s->ngm++];
        /* this slot's gap still holds the gap byte from the last run: same place, same size, filled then */
        int ready = s->ngm <= old_ngm && g->gap_ready && g->base == SIM_GM_BASE + span && g->size == hi - lo;
        g->base = SIM_GM_BASE + span;
        g->size = hi - lo;
        g->data = (uint8_t *)lo;
        g->name = b[i].name;
        g->param = i;
        g->output = (uint8_t)out;
        g->gap_ready = (uint8_t)ready;
        g->written = 0;
        span += slot_bytes(g->size);
        for (unsigned k = i; k < n; k++)
            if (b[k].is_ptr && grp[k] == i) addr[k] = g->base + ((uintptr_t)b[k].data - lo);
    }
    mem_free(grp);
    uint64_t host = 0;
    for (uint32_t i = 0; i < s->ngm; i++) host += s->gm[i].size;
    if (s->max_memory && (span > s->max_memory || host > s->max_memory - span)) {
        s->gm_need = span + host;
        s->ngm = 0;
        return -2;
    }
    /* the image: kept between runs. The gaps are filled lazily, on the first access that leaves its buffer
       (sim_gm_fill_gaps; all of them before blocks run on threads): a launch whose accesses stay inside
       their buffers never touches the 2 MiB slots' tails. They are marked for refilling when the layout
       changed or a write reached them. */
    int relaid = span != s->gm_span;
    if (span > s->gm_cap) {
        mem_free(s->gm_mem);
        s->gm_mem = mem_alloc(span ? span : 1);
        s->gm_cap = s->gm_mem ? span : 0;
        if (!s->gm_mem) { s->gm_span = 0; return -1; }
        relaid = 1;
    }
    s->gm_span = span;
    for (uint32_t i = 0; i < s->ngm; i++) {
        GmBuf *g = &s->gm[i];
        uint8_t *p = s->gm_mem + (g->base - SIM_GM_BASE);
        g->alias = !s->ctx->reference && ((uintptr_t)g->data & 15) == 0;
        if (g->size && !g->alias) memcpy(p, g->data, g->size);
        if (relaid || s->gm_gaps_dirty) g->gap_ready = 0;
    }
    s->gm_gaps_dirty = 0;
    return 0;
}

void sim_gm_unalias(Sim *s)
{
    for (uint32_t i = 0; i < s->ngm; i++) {
        GmBuf *g = &s->gm[i];
        if (!g->alias) continue;
        if (g->size) memcpy(s->gm_mem + (g->base - SIM_GM_BASE), g->data, g->size);
        g->alias = 0;
    }
}

void sim_gm_fill_gaps(Sim *s, uint64_t addr, uint64_t len)
{
    for (uint32_t i = 0; i < s->ngm; i++) {
        GmBuf *g = &s->gm[i];
        uint64_t end = i + 1 < s->ngm ? s->gm[i + 1].base : SIM_GM_BASE + s->gm_span;
        if (g->gap_ready || (len && (end <= addr || g->base >= addr + len))) continue;
        memset(s->gm_mem + (g->base - SIM_GM_BASE) + g->size, SIM_GM_GAP_BYTE, end - g->base - g->size);
        g->gap_ready = 1;
    }
}

/* Only buffers a write reached: the others still hold the bytes copied in (a write that left its buffer may
   have reached any of them: gm_gaps_dirty copies them all). */
void sim_gm_copy_out(Sim *s)
{
    for (uint32_t i = 0; i < s->ngm; i++) {
        GmBuf *g = &s->gm[i];
        if (g->size && !g->alias && (__atomic_load_n(&g->written, __ATOMIC_RELAXED) || s->gm_gaps_dirty))
            memcpy(g->data, s->gm_mem + (g->base - SIM_GM_BASE), g->size);
    }
}

void sim_gm_free(Sim *s)
{
    mem_free(s->gm_mem);
    s->gm_mem = NULL;
    s->gm_span = s->gm_cap = 0;
}

int sim_gm_find(const Sim *s, uint64_t addr)
{
    if (!s->ngm || addr < SIM_GM_BASE || addr - SIM_GM_BASE >= s->gm_span) return -1;
    uint32_t lo = 0, hi = s->ngm;   /* the last allocation whose slot starts at or below addr */
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (s->gm[mid].base <= addr) lo = mid;
        else hi = mid;
    }
    return (int)lo;
}

/* The part of [addr, addr+len) inside allocation g, as offsets in it; 0 when they do not meet. */
static int clip(const GmBuf *g, uint64_t addr, uint64_t len, uint64_t *lo, uint64_t *hi)
{
    uint64_t a = addr > g->base ? addr : g->base, e = addr + len < g->base + g->size ? addr + len : g->base + g->size;
    if (a >= e) return 0;
    *lo = a - g->base;
    *hi = e - g->base;
    return 1;
}

/* Reports an access that leaves allocation j (its own: the one whose slot holds its first byte). */
static void report_outside(Exec *x, const Instr *in, uint32_t j, uint64_t addr, uint64_t len, int mode,
                           const char *what)
{
    Sim *s = x->core->sim;
    const GmBuf *g = &s->gm[j];
    uint64_t o = addr - g->base, out_lo = o > g->size ? o : g->size;
    sim_gm_unalias(s);                /* the access runs in the image, across slots */
    sim_gm_fill_gaps(s, addr, len);   /* in place only: a launch on threads filled them all first */
    if (mode != ACC_READ) s->gm_gaps_dirty = 1;
    for (uint32_t k = j + 1; mode != ACC_READ && k < s->ngm && s->gm[k].base < addr + len; k++) {
        uint64_t lo, hi;
        if (!clip(&s->gm[k], addr, len, &lo, &hi)) continue;
        sim_warn_once(x, in, DIAG_T_GM_CLOBBER,
                      "%s GM bytes [%" PRIu64 ", %" PRIu64 ") ([0x%" PRIx64 ", 0x%" PRIx64 ")) of buffer '%s' run past its "
                      "%" PRIu64 " (0x%" PRIx64 ") bytes and overwrite bytes [%" PRIu64 ", %" PRIu64 ") ([0x%" PRIx64
                      ", 0x%" PRIx64 ")) of buffer '%s'", what, o, o + len, o, o + len, g->name, g->size, g->size, lo, hi,
                      lo, hi, s->gm[k].name);
        return;
    }
    sim_warn_once(x, in, DIAG_T_GM_OOB,
                  "%s GM bytes [%" PRIu64 ", %" PRIu64 ") ([0x%" PRIx64 ", 0x%" PRIx64 ")) of buffer '%s' leave its %" PRIu64
                  " (0x%" PRIx64 ") bytes: [%" PRIu64 ", %" PRIu64 ") lie outside it", what, o, o + len, o, o + len,
                  g->name, g->size, g->size, out_lo, o + len);
}

/* Host pointer to [addr, addr+len) of the image: the shared one, or the block's private view (gmview.h). */
static uint8_t *image(Exec *x, const Instr *in, uint64_t addr, uint64_t len)
{
    Sim *s = x->core->sim;
    if (!s->view) return s->gm_mem + (addr - SIM_GM_BASE);
    uint8_t *p = gmv_map(s->view, addr - SIM_GM_BASE, len);
    if (!p) sim_trap(x, in, DIAG_T_OOM, "out of host memory copying GM for block %llu", (unsigned long long)x->core->block_idx);
    return p;
}

uint8_t *sim_gm_access(Exec *x, const Instr *in, uint64_t addr, uint64_t len, int mode, const char *what)
{
    Sim *s = x->core->sim;
    int j = sim_gm_find(s, addr);
    if (j >= 0 && len <= s->gm_span - (addr - SIM_GM_BASE)) {
        GmBuf *g = &s->gm[j];
        uint64_t o = addr - g->base;
        if (mode != ACC_READ && !__atomic_load_n(&g->written, __ATOMIC_RELAXED)) __atomic_store_n(&g->written, 1, __ATOMIC_RELAXED);
        if (o <= g->size && len <= g->size - o) return g->alias ? g->data + o : image(x, in, addr, len);
        if (!s->gm_strict) {
            report_outside(x, in, (uint32_t)j, addr, len, mode, what);
            return image(x, in, addr, len);
        }
        sim_trap(x, in, DIAG_T_OOB, "%s bytes [%" PRIu64 ", %" PRIu64 ") ([0x%" PRIx64 ", 0x%" PRIx64 ")) of GM buffer '%s' "
                 "lie outside its %" PRIu64 " (0x%" PRIx64 ") bytes (strict GM)", what, o, o + len, o, o + len, g->name,
                 g->size, g->size);
        return NULL;
    }
    uint64_t end = SIM_GM_BASE + s->gm_span;
    if (j >= 0) {
        const GmBuf *g = &s->gm[j];
        uint64_t o = addr - g->base;
        sim_trap(x, in, DIAG_T_OOB, "%s bytes [%" PRIu64 ", %" PRIu64 ") ([0x%" PRIx64 ", 0x%" PRIx64 ")) of GM buffer '%s' "
                 "run past the end of the device's GM at 0x%" PRIx64, what, o, o + len, o, o + len, g->name, end);
        return NULL;
    }
    sim_trap(x, in, DIAG_T_OOB, "%s GM address %" PRIu64 " (0x%" PRIx64 "), %" PRIu64 " (0x%" PRIx64 ") bytes, is outside "
             "the device's GM [0x%" PRIx64 ", 0x%" PRIx64 ")", what, addr, addr, len, len, (uint64_t)SIM_GM_BASE, end);
    return NULL;
}
