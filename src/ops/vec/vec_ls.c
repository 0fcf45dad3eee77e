/* vec_ls.c — vector loads and stores (every distribution token), dual loads/stores, block-strided and
 * indexed (gather/scatter) access, the alignment-state streams (vldas/vldus, vstus/vstur/vstas/vstar/vsta),
 * in-register data rearrangement (vintlv ... vzunpack) and the SPR AR ops (sprclr/sprsti/sprsts).
 *
 * Every reading implemented here, with its evidence tag, is listed in docs/semantics.md §6.
 * Lowering decodes the operand layout, distribution token and element widths into a VlsX record (in->ext)
 * and picks a handler specialised by element width, so no handler switches per lane. vlds/vsts NORM with a
 * full (or absent) mask are a bounds check plus one 256-byte memcpy.
 *
 * UB addresses: `%p[%off]` is p + off * sizeof(element of p's pointer type) (resolutions §2.3); a post-update
 * form (the extra pointer result) accesses p itself and returns p + off * unit. The vector-address forms
 * (pto.vald, pto.vast, ... with a !pto.vaddr offset from pto.vag) use the same lowering and handlers with a
 * byte offset (docs/semantics.md §6.11). Every access checks its whole footprint (bounds, alignment) before
 * the first byte moves, so a trap leaves UB untouched.
 *
 * SPR state: VecState.spr_ar holds AR (a 32-bit byte offset) and VecState.spr_sqzn the byte count set by
 * vsqz/vusqz and consumed by vstur; both are 0 at launch; sprsti/sprsts store AR's 32 bits. */
#include "vec.h"
#include "base/bits.h"
#include "base/host.h"
#include "exec/check.h"
#include "exec/interp.h"
#include "exec/observe.h"
#include "ops/pred/pred.h"
#include <inttypes.h>
#include <string.h>

int lower_vec_ls(LowerView *L, const Op *op, Instr *in);

/* ------------------------------------------------------------------ decoded operand layout */

/* Load/store distribution kinds (the token fixes the element width w, resolutions Q24/Q25). */
enum {
    LD_NORM, LD_BRC, LD_BRCBLK, LD_US, LD_DS, LD_UNPK, LD_UNPK4, LD_E2B, LD_SPLT4, LD_SPLT2, LD_EVEN,
    LDX_DINTLV, LDX_BDINTLV,
    ST_NORM, ST_1PT, ST_PK, ST_PK4, ST_MRG4, ST_MRG2,
    STX_INTLV,
};

typedef struct VlsX {
    int32_t base, off, mask, pn;   /* frame offsets of base, offset, mask operands and pointer result; -1 = absent */
    int32_t a2, a3;                /* further operand frame offsets (op-specific), -1 = absent */
    uint32_t unit;                 /* bytes per offset unit (pointer element size, or as the op says); the address
                                      mode of `%base[%off]`: 1 for a !pto.vaddr offset, whose slot holds the
                                      zero-extended 32-bit byte offset (offbits 64) */
    uint8_t offbits;               /* width of the offset operand's type */
    uint8_t kind;                  /* LD_/ST_ kind */
    uint8_t w;                     /* distribution / element width in bytes */
    uint8_t e;                     /* memory element bytes (gather/scatter) */
    uint16_t foot;                 /* UB footprint in bytes */
    uint16_t align;                /* required address alignment (power of two) */
    uint16_t n;                    /* lanes written (stores) */
    uint8_t os;                    /* bytes per written lane (stores) */
    uint8_t ms;                    /* image bits per lane of the governing mask */
    uint64_t maskpat;              /* the "all lanes active" bit pattern of one 64-bit image word */
    int64_t aux;                   /* op-specific constant */
} VlsX;

#define X_OF(in) ((const VlsX *)(in)->ext)


static inline uint64_t fr(const Exec *x, int32_t off) { return fr_u64(x, off); }

/* Host pointer into this core's UB for [a, a+len) with the given power-of-two alignment, or NULL after the
   trap (sim_mem raises T-OOB / T-MISALIGNED with its standard message). */
static inline uint8_t *ubp(Exec *x, const Instr *in, uint64_t a, uint64_t len, unsigned align, int mode,
                           const char *what)
{
    Core *c = x->core;
    uint64_t sz = c->memsz[AS_UB];
    if (!(a & (align - 1)) && a <= sz && len <= sz - a) {
        if (__builtin_expect(c->cl->watch, 0)) sim_access(x, in, c, AS_UB, a, len, mode);
        return c->mem[AS_UB] + a;
    }
    return sim_mem(x, in, AS_UB, a, len, align, mode, what);
}

/* Effective address of a `base[off]` operand; a post-update form accesses base and writes base + off·unit
   to its pointer result. */
static inline uint64_t ea(Exec *x, const VlsX *m)
{
    uint64_t b = fr(x, m->base);
    if (m->off < 0) {
        if (m->pn >= 0) fr_set_u64(x, m->pn, b);
        return b;
    }
    uint64_t d = (uint64_t)bits_sext(fr(x, m->off), m->offbits) * m->unit;
    if (m->pn >= 0) {
        fr_set_u64(x, m->pn, b + d);
        return b;
    }
    return b + d;
}

static inline int img_bit(const uint8_t *img, unsigned k) { return (img[k >> 3] >> (k & 7)) & 1; }

/* True when every lane of the mask view (pattern per 64-bit image word) is active. */
static inline int mask_full(const uint8_t *img, uint64_t pat)
{
    uint64_t w[4];
    memcpy(w, img, 32);
    return ((w[0] & w[1] & w[2] & w[3]) & pat) == pat;
}

static uint64_t lane_pattern(unsigned ms)
{
    uint64_t p = 0;
    for (unsigned k = 0; k < 64; k += ms) p |= 1ull << k;
    return p;
}

static inline void count(Exec *x, uint64_t bytes)
{
    x->core->pipes[PQ_V].ops++;
    x->core->pipes[PQ_V].bytes += bytes;
}

/* SPR AR / SQZN (see the file comment). */
static inline uint32_t spr_ar(const Core *c) { return (uint32_t)c->vec->spr_ar; }
static inline uint32_t spr_sqzn(const Core *c) { return c->vec->spr_sqzn; }
static inline void set_ar(Core *c, uint32_t v) { c->vec->spr_ar = v; }
static inline void set_sqzn(Core *c, uint32_t v) { c->vec->spr_sqzn = v; }


/* Calls BODY with W and T bound to each element width; the switch runs once per op, the loops inside
   BODY see a constant width. */
#define BY_WIDTH(w, BODY)                                  \
    switch (w) {                                           \
    case 1: { enum { W = 1 }; BODY; } break;               \
    case 2: { enum { W = 2 }; BODY; } break;               \
    case 4: { enum { W = 4 }; BODY; } break;               \
    default: { enum { W = 8 }; BODY; } break;              \
    }
#define LD(p, i) lane_get((p), W, (unsigned)(i))
#define ST(p, i, v) lane_set((p), W, (unsigned)(i), (uint64_t)(v))

/* ------------------------------------------------------------------ vlds */

/* The two NORM copies also come in AVX2 builds (32-byte moves; sim.h "host SIMD"). */
#if !HOST_HAVE_AVX2
#define x_vlds_norm_avx2 x_vlds_norm
#define x_vsts_norm_avx2 x_vsts_norm
#define x_vlds_norm_avx2_o64 x_vlds_norm_o64
#define x_vsts_norm_avx2_o64 x_vsts_norm_o64
#endif

/* The 256-byte register copy of the NORM paths, in unaligned may-alias chunks of the vector width the
   variant is built for (fully unrolled: 16 or 8 moves each way). */
typedef uint8_t vls_v16 __attribute__((vector_size(16), aligned(1), may_alias));
typedef uint8_t vls_v32 __attribute__((vector_size(32), aligned(1), may_alias));
#define COPY256(d, s, VT)                                                                                         \
    do {                                                                                                          \
        VT *d_ = (VT *)(void *)(d);                                                                               \
        const VT *s_ = (const VT *)(const void *)(s);                                                             \
        _Pragma("GCC unroll 16") for (unsigned k_ = 0; k_ < 256 / sizeof(VT); k_++) d_[k_] = s_[k_];             \
    } while (0)



/* The NORM fast paths keep their operands in Instr.imm (not in the VlsX record), so the hot path is a few
   loads and one 256-byte copy. */
enum {
    VN_BASE,       /* frame offset of the base pointer */
    VN_OFF,        /* frame offset of the offset */
    VN_SHIFT,      /* log2(unit) */
    VN_SIGN,       /* sign bit S of the offset type */
    VN_OFF_MASK,   /* mask M of the offset type, -1 for 64 bits; branch-free sign extension: ((v & M) ^ S) - S */
    VN_MASK,       /* frame offset of the mask (-1: none, or constant all lanes) */
    VN_MASK_PAT,   /* the all-lanes pattern of one 64-bit mask image word */
    VN_ALIGN_M1,   /* required alignment - 1 */
};
/* 64-bit (index/i64) offsets need no sign extension. */
static inline uint64_t fast_ea64(const Exec *x, const Instr *in)
{
    return fr_u64(x, (int32_t)in->imm[VN_BASE]) + (fr_u64(x, (int32_t)in->imm[VN_OFF]) << in->imm[VN_SHIFT]);
}

static inline uint64_t fast_ea(const Exec *x, const Instr *in)
{
    uint64_t o = fr_u64(x, (int32_t)in->imm[VN_OFF]);
    uint64_t sgn = (uint64_t)in->imm[VN_SIGN];
    o = ((o & (uint64_t)in->imm[VN_OFF_MASK]) ^ sgn) - sgn;
    return fr_u64(x, (int32_t)in->imm[VN_BASE]) + (o << in->imm[VN_SHIFT]);
}

/* The checked paths of the NORM copies: out-of-range or misaligned addresses (trap), and every access
   while a checker watches (ubp records it). */
static const Instr *vlds_norm_slow(Exec *x, const Instr *in)
{
    uint64_t a = fast_ea(x, in);
    Core *c = x->core;
    uint64_t al = (uint64_t)in->imm[VN_ALIGN_M1] + 1;   /* element alignment, see lower_vlds */
    const uint8_t *s = ubp(x, in, a, 256, (unsigned)al, ACC_READ, "vector load source");
    if (!s) return NULL;
    memcpy(FR(x, in->res[0]), s, 256);
    c->pipes[PQ_V].ops++;
    c->pipes[PQ_V].bytes += 256;
    return in + 1;
}

/* The fast paths call nothing on the common route, so they need no stack frame. */
#define X_VLDS_NORM_DEF(SUF, ATTR, VT, EA)                                                                          \
ATTR static const Instr *x_vlds_norm##SUF(Exec *x, const Instr *in)                                             \
{                                                                                                               \
    uint64_t a = EA(x, in);                                                                                     \
    Core *c = x->core;                                                                                          \
    if (__builtin_expect((a & (uint64_t)in->imm[VN_ALIGN_M1]) || a >= c->ub_fast_lim, 0))\
        return vlds_norm_slow(x, in);                                                                           \
    COPY256(FR(x, in->res[0]), c->mem[AS_UB] + a, VT);                                                          \
    c->pipes[PQ_V].ops++;                                                                                       \
    c->pipes[PQ_V].bytes += 256;                                                                                \
    return in + 1;                                                                                              \
}
X_VLDS_NORM_DEF(, , vls_v16, fast_ea)
X_VLDS_NORM_DEF(_o64, , vls_v16, fast_ea64)
#if HOST_HAVE_AVX2
X_VLDS_NORM_DEF(_avx2, __attribute__((target("avx2"))), vls_v32, fast_ea)
X_VLDS_NORM_DEF(_avx2_o64, __attribute__((target("avx2"))), vls_v32, fast_ea64)
#endif

/* Fills the 256-byte register d from the footprint s per the distribution (resolutions Q24; tokens the
   validated kernels never use follow the S descriptions, see the semantics doc). */
static void load_dist(uint8_t *d, const uint8_t *s, unsigned kind, unsigned w)
{
    switch (kind) {
    case LD_BRC:
        for (unsigned i = 0; i < 256; i += w) memcpy(d + i, s, w);
        break;
    case LD_BRCBLK:
        for (unsigned i = 0; i < 256; i += 32) memcpy(d + i, s, 32);
        break;
    case LD_US:   /* lane[2j] = lane[2j+1] = src[j] */
        BY_WIDTH(w, for (unsigned j = 0; j < 128 / W; j++) { uint64_t v = LD(s, j); ST(d, 2 * j, v); ST(d, 2 * j + 1, v); })
        break;
    case LD_DS:   /* lane[j] = src[2j] */
        BY_WIDTH(w, for (unsigned j = 0; j < 256 / W; j++) ST(d, j, LD(s, 2 * j)))
        break;
    case LD_EVEN: /* M DINTLV_B32 on vlds: even elements of 512 bytes (same as DS) */
        BY_WIDTH(w, for (unsigned j = 0; j < 256 / W; j++) ST(d, j, LD(s, 2 * j)))
        break;
    case LD_UNPK: /* w-bit src[j] zero-extended into 2w-bit slot j */
        memset(d, 0, 256);
        BY_WIDTH(w, for (unsigned j = 0; j < 128 / W; j++) memcpy(d + 2 * W * j, s + W * j, W))
        break;
    case LD_UNPK4: /* byte j zero-extended into 32-bit slot j */
        memset(d, 0, 256);
        for (unsigned j = 0; j < 64; j++) d[4 * j] = s[j];
        break;
    case LD_E2B: /* element b broadcast over 32-byte block b */
        for (unsigned b = 0; b < 8; b++)
            for (unsigned i = 0; i < 32; i += w) memcpy(d + 32 * b + i, s + w * b, w);
        break;
    case LD_SPLT4: /* per 32-byte block: 8 pixels x 4 byte channels -> 4 planes of 8 bytes */
        for (unsigned b = 0; b < 8; b++)
            for (unsigned c = 0; c < 4; c++)
                for (unsigned p = 0; p < 8; p++) d[32 * b + 8 * c + p] = s[32 * b + 4 * p + c];
        break;
    case LD_SPLT2: /* per 32-byte block: pixels of 2 w-byte channels -> 2 planes */
        BY_WIDTH(w, {
            unsigned px = 16 / W;
            for (unsigned b = 0; b < 8; b++)
                for (unsigned c = 0; c < 2; c++)
                    for (unsigned p = 0; p < px; p++) ST(d + 32 * b, c * px + p, LD(s + 32 * b, 2 * p + c));
        })
        break;
    default:
        memcpy(d, s, 256);
        break;
    }
}

static const Instr *x_vlds(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint64_t a = ea(x, m);
    const uint8_t *s = ubp(x, in, a, m->foot, m->align, ACC_READ, "vector load source");
    if (!s) return NULL;
    uint8_t tmp[256];
    load_dist(tmp, s, m->kind, m->w);
    memcpy(FR(x, in->res[0]), tmp, 256);
    count(x, m->foot);
    return in + 1;
}

/* ------------------------------------------------------------------ vsts */

/* Writes lanes j < n of `os` bytes from src to dst where mask image bit ms·j is set. */
static void masked_write(uint8_t *dst, const uint8_t *src, const uint8_t *img, unsigned n, unsigned os, unsigned ms)
{
    switch (os) {
    case 1:
        for (unsigned j = 0; j < n; j++) if (img_bit(img, ms * j)) dst[j] = src[j];
        break;
    case 2:
        for (unsigned j = 0; j < n; j++) if (img_bit(img, ms * j)) memcpy(dst + 2 * j, src + 2 * j, 2);
        break;
    case 4:
        for (unsigned j = 0; j < n; j++) if (img_bit(img, ms * j)) memcpy(dst + 4 * j, src + 4 * j, 4);
        break;
    default:
        for (unsigned j = 0; j < n; j++) if (img_bit(img, ms * j)) memcpy(dst + 8 * j, src + 8 * j, 8);
        break;
    }
}

static const Instr *vsts_norm_slow(Exec *x, const Instr *in)
{
    uint64_t a = fast_ea(x, in);
    Core *c = x->core;
    uint64_t al = (uint64_t)in->imm[VN_ALIGN_M1] + 1;
    uint8_t *d = ubp(x, in, a, 256, (unsigned)al, ACC_WRITE, "vector store destination");
    if (!d) return NULL;
    const uint8_t *v = FR(x, in->arg[0]);
    if (in->imm[VN_MASK] < 0 || mask_full(FR(x, (int32_t)in->imm[VN_MASK]), (uint64_t)in->imm[VN_MASK_PAT])) {
        memcpy(d, v, 256);
    } else {
        const VlsX *m = X_OF(in);
        masked_write(d, v, FR(x, m->mask), m->n, m->os, m->ms);
    }
    c->pipes[PQ_V].ops++;
    c->pipes[PQ_V].bytes += 256;
    return in + 1;
}

#define X_VSTS_NORM_DEF(SUF, ATTR, VT, EA)                                                                          \
ATTR static const Instr *x_vsts_norm##SUF(Exec *x, const Instr *in)                                             \
{                                                                                                               \
    uint64_t a = EA(x, in);                                                                                     \
    Core *c = x->core;                                                                                          \
    if (__builtin_expect((a & (uint64_t)in->imm[VN_ALIGN_M1]) || a >= c->ub_fast_lim || \
                         (in->imm[VN_MASK] >= 0 && !mask_full(FR(x, (int32_t)in->imm[VN_MASK]), (uint64_t)in->imm[VN_MASK_PAT])), 0)) \
        return vsts_norm_slow(x, in);                                                                           \
    COPY256(c->mem[AS_UB] + a, FR(x, in->arg[0]), VT);                                                          \
    c->pipes[PQ_V].ops++;                                                                                       \
    c->pipes[PQ_V].bytes += 256;                                                                                \
    return in + 1;                                                                                              \
}
X_VSTS_NORM_DEF(, , vls_v16, fast_ea)
X_VSTS_NORM_DEF(_o64, , vls_v16, fast_ea64)
#if HOST_HAVE_AVX2
X_VSTS_NORM_DEF(_avx2, __attribute__((target("avx2"))), vls_v32, fast_ea)
X_VSTS_NORM_DEF(_avx2_o64, __attribute__((target("avx2"))), vls_v32, fast_ea64)
#endif

/* ------------------------------------------------------------------ fused load, compute, store */

/* The common element-wise step `vlds a; [vlds b;] r = a OP b (or a OP s); vsts r` (NORM copies, an unmasked
   fast compute handler, loaded values and r used by nothing else) runs as one handler on the first load: it
   computes from UB into UB without the three 256-byte register copies, and does for the group exactly what
   the separate handlers do (counts, cycles, steps). When any of the fast conditions fails (an address out of
   the fast range or misaligned, a checker watching, a store mask not full, the store overlapping a source
   other than exactly, too few steps left) it runs the first load's checked path and the group continues one
   instruction at a time. */
typedef struct FuseX {
    ValuCore core;
    uint8_t n;          /* instructions in the group: loads, compute, store */
    uint8_t a_ld, b_ld; /* which load (0, 1) feeds the compute's a and b */
    uint8_t loop;       /* the group is the whole body of a 64-bit scf.for: its step follows and jumps back */
    uint8_t stride;     /* with `loop`: every member's offset is the loop's 64-bit induction variable with one
                           shift, and the scalar operand is not: the addresses move by step << shift a trip */
    int32_t s;          /* frame offset of the scalar operand, -1 for vector-vector */
} FuseX;

static inline int fuse_addr(const Exec *x, const Instr *in, uint64_t lim, uint64_t *a)
{
    *a = fast_ea(x, in);
    return !(*a & (uint64_t)in->imm[VN_ALIGN_M1]) && *a < lim;
}

static inline int apart(uint64_t d, uint64_t s) { return d == s || d + 256 <= s || s + 256 <= d; }

/* Whether the group at `in` can run fused now; its load and store addresses in la[] and *sa. */
/* The fused group's range check is that of the checked paths (a 256-byte access inside UB), also while a
   checker watches: the group then reports its three accesses itself (fuse_watch). */
static inline int fuse_addrs(const Exec *x, const Instr *in, unsigned n, uint64_t la[2], uint64_t *sa)
{
    const Instr *st = in + n - 1;
    uint64_t sz = x->core->memsz[AS_UB], lim = sz >= 256 ? sz - 255 : 0;
    return fuse_addr(x, in, lim, &la[0]) && (n == 3 || fuse_addr(x, in + 1, lim, &la[1])) &&
           fuse_addr(x, st, lim, sa) && apart(*sa, la[0]) && apart(*sa, la[1]);
}

static inline int fuse_ready(const Exec *x, const Instr *in, unsigned n, uint64_t la[2], uint64_t *sa)
{
    const Instr *st = in + n - 1;
    return x->left >= n && fuse_addrs(x, in, n, la, sa) &&
           (st->imm[VN_MASK] < 0 || mask_full(FR(x, (int32_t)st->imm[VN_MASK]), (uint64_t)st->imm[VN_MASK_PAT]));
}

/* A loop whose body is one group runs here until it ends or a fast condition fails: each further trip
   does what the interpreter's loop would (the step's and the group's cycles and steps, the induction
   variable), and a trip that cannot run fused goes back to the interpreter at the group's first load. */
/* What the checked paths report for the group's accesses, in their order: the loads, then the store (for
   UB: the race detector and initcheck). The race detector keeps, per vector-scope job, only the union of
   each op's ranges by kind (race.c), so the streams' ranges are gathered over the trips while they stay
   contiguous and handed over in one call each. Initcheck sees every access in order (a later trip may
   read what an earlier one wrote): the bits are tested and set here, and only a read that meets an
   unwritten byte goes to check_access for its report; a load that has reported (once per op) needs no
   further test. */
typedef struct FuseWatch {
    uint64_t lo[3], hi[3];
    uint8_t on[3];             /* race spans of load 0, load 1, the store */
    uint8_t race;
    uint8_t quiet[2];          /* load j: 0 tested here, 1 nothing to test (reported, or no initcheck), 2 to check_access */
    uint8_t *init;             /* initcheck's bits of this core's UB, or NULL */
} FuseWatch;

static void fuse_watch_begin(Exec *x, const Instr *in, FuseWatch *w)
{
    Core *c = x->core;
    uint64_t sz = 0;
    memset(w, 0, sizeof *w);
    w->race = c->cl->race && !x->race_quiet;
    w->init = check_init_bits(x, c, AS_UB, &sz);
    if (w->init && sz < c->memsz[AS_UB]) w->init = NULL;   /* not this core's UB: let check_access decide */
    for (unsigned j = 0; j < 2; j++)
        w->quiet[j] = w->init ? (uint8_t)sim_warned(x, in + j, DIAG_T_UNINIT) : c->sim->checks ? 2 : 1;
}

static inline int bits_all256(const uint8_t *b, uint64_t a)
{
    uint64_t w[4];
    memcpy(w, b + (a >> 3), 32);
    return (w[0] & w[1] & w[2] & w[3]) == ~0ull;
}

static inline void fuse_race_span(Exec *x, const Instr *op, FuseWatch *w, unsigned j, uint64_t a)
{
    if (w->on[j] && a <= w->hi[j] && a + 256 >= w->lo[j]) {
        if (a < w->lo[j]) w->lo[j] = a;
        if (a + 256 > w->hi[j]) w->hi[j] = a + 256;
        return;
    }
    if (w->on[j]) race_access(x, op, x->core, AS_UB, w->lo[j], w->hi[j] - w->lo[j], j == 2);   /* a jump */
    w->lo[j] = a;
    w->hi[j] = a + 256;
    w->on[j] = 1;
}

static void fuse_watch_end(Exec *x, const Instr *in, unsigned n, FuseWatch *w)
{
    for (unsigned j = 0; j < 3; j++)
        if (w->on[j]) race_access(x, j == 2 ? in + n - 1 : in + j, x->core, AS_UB, w->lo[j], w->hi[j] - w->lo[j], j == 2);
}

static inline __attribute__((always_inline)) void fuse_watch(Exec *x, const Instr *in, unsigned n, const uint64_t la[2],
                                                            uint64_t sa, FuseWatch *w, const int spans)
{
    Core *c = x->core;
    const Instr *st = in + n - 1;
    if (spans && w->race) {
        fuse_race_span(x, in, w, 0, la[0]);
        if (n == 4) fuse_race_span(x, in + 1, w, 1, la[1]);
        fuse_race_span(x, st, w, 2, sa);
    }
    for (unsigned j = 0; j < n - 2u; j++) {
        if (w->quiet[j] == 1) continue;
        if (w->quiet[j] == 0 && !(la[j] & 7) && bits_all256(w->init, la[j])) continue;
        check_access(x, in + j, c, AS_UB, la[j], 256, ACC_READ);
        if (w->quiet[j] == 0) w->quiet[j] = (uint8_t)sim_warned(x, in + j, DIAG_T_UNINIT);
    }
    if (w->init && !(sa & 7)) {
        static const uint64_t ones[4] = {~0ull, ~0ull, ~0ull, ~0ull};
        memcpy(w->init + (sa >> 3), ones, 32);
    } else if (c->sim->checks) {
        check_access(x, st, c, AS_UB, sa, 256, ACC_WRITE);
    }
}

/* A strided loop's race ranges, handed over once it has run: T trips from the first addresses a0[], d apart
   (contiguous when d <= 256: one range per stream). */
static void fuse_race_strided(Exec *x, const Instr *in, unsigned n, const uint64_t a0[3], uint64_t d, uint64_t T)
{
    for (unsigned j = 0; j < 3; j++) {
        if (j == 1 && n == 3) continue;
        const Instr *op = j == 2 ? in + n - 1 : in + j;
        if (d <= 256) race_access(x, op, x->core, AS_UB, a0[j], (T - 1) * d + 256, j == 2);
        else for (uint64_t t = 0; t < T; t++) race_access(x, op, x->core, AS_UB, a0[j] + t * d, 256, j == 2);
    }
}

/* Cycles of instructions this handler does beyond the one dispatched: to the op, and with the profile on
   to each instruction (the interpreter's loop credits only what it dispatches). */
static inline void fuse_credit(Exec *x, const Instr *from, unsigned k)
{
    for (unsigned i = 0; i < k; i++) {
        x->extra_cost += from[i].cost;
        if (__builtin_expect(x->prof != NULL, 0)) {
            obs_profile(x->prof, from + i, from[i].cost, 1);
            x->attributed += from[i].cost;
        }
    }
}

/* x_fused's loop: the trips with the counters kept in locals and added once at the end (T groups, S steps,
   T - 1 first loads dispatched again; with the profile on, credited to each instruction the same way).
   `watch`: the checkers see every trip. `strided`: the addresses move by d a trip (FuseX.stride, d aligned
   for every member), so alignment and the distances between them hold on every trip and only the range
   is checked (an address that wraps below 0 fails it too); else they are computed from the frame again.
   The flags are constants in each of the four instances. */
static inline __attribute__((always_inline)) const Instr *fused_trips(Exec *x, const Instr *in, const FuseX *f,
                                                                     uint64_t la[2], uint64_t sa, uint64_t d,
                                                                     const int watch, const int strided)
{
    Core *c = x->core;
    const unsigned n = f->n;
    uint8_t *ub = c->mem[AS_UB];
    const Instr *step = in + n, *ret;
    const uint64_t bound = ARG(x, step, 1), inc = ARG(x, step, 2), room = 2u * n + 2u;
    const uint64_t sz = c->memsz[AS_UB], lim = sz >= 256 ? sz - 255 : 0;
    uint64_t left = x->left, iv = fr_u64(x, step->arg[3]), T = 0, S = 0;
    const ValuCore core = f->core;
    const int32_t s_off = f->s;
    const uint64_t sv = strided && s_off >= 0 ? fr_u64(x, s_off) : 0;
    FuseWatch w;
    const uint64_t a0[3] = {la[0], la[1], sa};
    if (watch) fuse_watch_begin(x, in, &w);
    for (;;) {
        if (watch) fuse_watch(x, in, n, la, sa, &w, !strided);
        core(ub + sa, ub + la[f->a_ld], ub + la[f->b_ld], strided ? sv : s_off >= 0 ? fr_u64(x, s_off) : 0);
        T++;
        left -= n - 1;
        if (left <= room) { ret = step; break; }
        left--;
        S++;
        iv += inc;
        if (!strided) fr_set_u64(x, step->arg[3], iv);
        if ((int64_t)iv >= (int64_t)bound) { ret = step + 1; break; }
        if (strided) {
            la[0] += d;
            la[1] += d;
            sa += d;
            if (la[0] >= lim || (n == 4 && la[1] >= lim) || sa >= lim) { ret = in; break; }
        } else if (!fuse_addrs(x, in, n, la, &sa)) {
            ret = in;
            break;
        }
        left--;
    }
    if (strided) fr_set_u64(x, step->arg[3], iv);
    if (watch && strided && w.race) fuse_race_strided(x, in, n, a0, d, T);
    if (watch && !strided) fuse_watch_end(x, in, n, &w);
    c->pipes[PQ_V].ops += n * T;
    c->pipes[PQ_V].bytes += 256u * (n - 1u) * T;
    uint64_t cyc = (in[1].cost + in[2].cost + (n == 4 ? in[3].cost : 0u)) * T + step->cost * S + in->cost * (T - 1);
    x->extra_cost += cyc;
    if (__builtin_expect(x->prof != NULL, 0)) {
        for (unsigned k = 1; k < n; k++) obs_profile_n(x->prof, in + k, in[k].cost * T, T);
        obs_profile_n(x->prof, step, step->cost * S, S);
        obs_profile_n(x->prof, in, in->cost * (T - 1), T - 1);
        x->attributed += cyc;
    }
    x->left = left;
    return ret;
}

static const Instr *fused_loop(Exec *x, const Instr *in, const FuseX *f, uint64_t la[2], uint64_t sa, int watch)
{
    uint64_t d = f->stride ? ARG(x, in + f->n, 2) << in->imm[VN_SHIFT] : 0;
    int strided = f->stride;
    for (unsigned j = 0; j < f->n && strided; j++)
        if (j != f->n - 2u && (d & (uint64_t)in[j].imm[VN_ALIGN_M1])) strided = 0;
    if (strided) return watch ? fused_trips(x, in, f, la, sa, d, 1, 1) : fused_trips(x, in, f, la, sa, d, 0, 1);
    return watch ? fused_trips(x, in, f, la, sa, 0, 1, 0) : fused_trips(x, in, f, la, sa, 0, 0, 0);
}

static const Instr *x_fused(Exec *x, const Instr *in)
{
    const FuseX *f = in->ext2;
    Core *c = x->core;
    unsigned n = f->n, nld = n - 2u;
    uint64_t la[2] = {0, 0}, sa;
    if (__builtin_expect(!fuse_ready(x, in, n, la, &sa), 0)) return vlds_norm_slow(x, in);
    int watch = c->cl->watch;
    if (f->loop) return fused_loop(x, in, f, la, sa, watch);
    /* one group: the interpreter runs what follows it */
    uint8_t *ub = c->mem[AS_UB];
    if (__builtin_expect(watch, 0)) {
        FuseWatch w;
        fuse_watch_begin(x, in, &w);
        fuse_watch(x, in, n, la, sa, &w, 1);
        fuse_watch_end(x, in, n, &w);
    }
    f->core(ub + sa, ub + la[f->a_ld], ub + la[f->b_ld], f->s >= 0 ? fr_u64(x, f->s) : 0);
    c->pipes[PQ_V].ops += n;
    c->pipes[PQ_V].bytes += 256u * (nld + 1u);
    fuse_credit(x, in + 1, n - 1);
    x->left -= n - 1;
    return in + n;
}

static int is_vlds_norm(const Instr *in)
{
    return in->fn == x_vlds_norm || in->fn == x_vlds_norm_o64 || in->fn == x_vlds_norm_avx2 || in->fn == x_vlds_norm_avx2_o64;
}

static int is_vsts_norm(const Instr *in)
{
    return in->fn == x_vsts_norm || in->fn == x_vsts_norm_o64 || in->fn == x_vsts_norm_avx2 || in->fn == x_vsts_norm_avx2_o64;
}

/* Is `v`, the result of load instruction ld, used only as operands a/b of the compute? */
static int only_feeds(const Instr *ld, int32_t a, int32_t b)
{
    const Value *v = ld->op->results[0];
    return ld->res[0] == v->slot && v->nuses == (uint32_t)(a == v->slot) + (uint32_t)(b == v->slot);
}

void vec_fuse(LowerView *L, Instr *code, uint32_t n)
{
    for (uint32_t i = 2; i < n; i++) {
        Instr *st = &code[i], *alu = &code[i - 1];
        if (!is_vsts_norm(st) || !alu->op || !alu->op->nresults) continue;
        ValuCore core = valu_fast_core(alu);
        const Value *r = alu->op->results[0];
        if (!core || alu->res[0] != r->slot || st->arg[0] != r->slot || r->nuses != 1) continue;
        int32_t a, b, sc;
        valu_fast_operands(alu, &a, &b, &sc);
        unsigned nld = b < 0 || a == b ? 1 : 2;
        if (i < nld + 1) continue;
        Instr *first = &code[i - 1 - nld];
        int ok = 1;
        for (unsigned k = 0; k < nld; k++) ok &= is_vlds_norm(first + k) && first[k].op && only_feeds(first + k, a, b);
        if (!ok || (nld == 2 && first[0].res[0] == first[1].res[0])) continue;
        /* a and b each come from one of the loads */
        int a_ld = first[0].res[0] == a ? 0 : nld == 2 && first[1].res[0] == a ? 1 : -1;
        int b_ld = b < 0 ? a_ld : first[0].res[0] == b ? 0 : nld == 2 && first[1].res[0] == b ? 1 : -1;
        if (a_ld < 0 || b_ld < 0) continue;
        FuseX *f = lw_alloc(L, first->op, sizeof *f);
        if (!f) return;
        int loop = i + 1 < n && code[i + 1].fn == interp_for_next64 && code[i + 1].jump == first;
        int stride = loop && sc != code[i + 1].arg[3];
        for (unsigned k = 0; k < nld + 2 && stride; k++) {
            const Instr *m = k == nld ? NULL : k < nld ? first + k : st;   /* the loads and the store */
            stride = !m || (m->imm[VN_OFF] == code[i + 1].arg[3] && m->imm[VN_OFF_MASK] == -1 &&
                            m->imm[VN_SHIFT] == first->imm[VN_SHIFT]);
        }
        *f = (FuseX){core, (uint8_t)(nld + 2), (uint8_t)a_ld, (uint8_t)b_ld, (uint8_t)loop, (uint8_t)stride, b < 0 ? sc : -1};
        first->ext2 = f;
        first->fn = x_fused;
    }
}

/* Builds the bytes a store distribution writes (resolutions Q25; MRG* per S). */
static void store_dist(uint8_t *o, const uint8_t *v, unsigned kind, unsigned w)
{
    switch (kind) {
    case ST_PK:   /* low half of each w-byte lane */
        BY_WIDTH(w, for (unsigned j = 0; j < 256 / W; j++) memcpy(o + (W / 2) * j, v + W * j, W / 2))
        break;
    case ST_PK4:  /* low byte of each 32-bit lane */
        for (unsigned j = 0; j < 64; j++) o[j] = v[4 * j];
        break;
    case ST_MRG4: /* per 32-byte block: 4 planes of 8 bytes -> 8 pixels x 4 channels */
        for (unsigned b = 0; b < 8; b++)
            for (unsigned c = 0; c < 4; c++)
                for (unsigned p = 0; p < 8; p++) o[32 * b + 4 * p + c] = v[32 * b + 8 * c + p];
        break;
    case ST_MRG2:
        BY_WIDTH(w, {
            unsigned px = 16 / W;
            for (unsigned b = 0; b < 8; b++)
                for (unsigned c = 0; c < 2; c++)
                    for (unsigned p = 0; p < px; p++) ST(o + 32 * b, 2 * p + c, LD(v + 32 * b, c * px + p));
        })
        break;
    default:
        memcpy(o, v, 256);
        break;
    }
}

static const Instr *x_vsts(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint64_t a = ea(x, m);
    uint8_t *d = ubp(x, in, a, m->foot, m->align, ACC_WRITE, "vector store destination");
    if (!d) return NULL;
    const uint8_t *v = FR(x, in->arg[0]);
    uint8_t tmp[256];
    const uint8_t *src = v;
    if (m->kind != ST_NORM && m->kind != ST_1PT) {
        store_dist(tmp, v, m->kind, m->w);
        src = tmp;
    }
    if (m->kind == ST_1PT || m->mask < 0 || mask_full(FR(x, m->mask), m->maskpat)) memcpy(d, src, m->foot);
    else masked_write(d, src, FR(x, m->mask), m->n, m->os, m->ms);
    count(x, m->foot);
    return in + 1;
}

/* ------------------------------------------------------------------ vldsx2 / vstsx2 */

static const Instr *x_vldsx2(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint64_t a = ea(x, m);
    const uint8_t *s = ubp(x, in, a, 512, 32, ACC_READ, "vector load source");
    if (!s) return NULL;
    uint8_t lo[256], hi[256];
    if (m->kind == LDX_BDINTLV) {
        for (unsigned b = 0; b < 8; b++) {
            memcpy(lo + 32 * b, s + 64 * b, 32);
            memcpy(hi + 32 * b, s + 64 * b + 32, 32);
        }
    } else {
        BY_WIDTH(m->w, for (unsigned i = 0; i < 256 / W; i++) { ST(lo, i, LD(s, 2 * i)); ST(hi, i, LD(s, 2 * i + 1)); })
    }
    memcpy(FR(x, in->res[0]), lo, 256);
    memcpy(FR(x, in->res[1]), hi, 256);
    count(x, 512);
    return in + 1;
}

static const Instr *x_vstsx2(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint64_t a = ea(x, m);
    uint8_t *d = ubp(x, in, a, 512, 32, ACC_WRITE, "vector store destination");
    if (!d) return NULL;
    const uint8_t *lo = FR(x, in->arg[0]), *hi = FR(x, in->arg[1]);
    uint8_t o[512];
    BY_WIDTH(m->w, for (unsigned i = 0; i < 256 / W; i++) { ST(o, 2 * i, LD(lo, i)); ST(o, 2 * i + 1, LD(hi, i)); })
    memcpy(d, o, 512);   /* the predicate is ignored for INTLV (S) */
    count(x, 512);
    return in + 1;
}

/* ------------------------------------------------------------------ vsldb / vsstb (resolutions Q23) */

/* Block b (0..7) of a block-strided access: non-post p + (rs + b·bs)·32; post-update p + b·bs·32 with the
   pointer result p + rs·32. Block b is enabled by b32 mask lane b (image bit 4b). Returns 0 or -1. */
static int block_addrs(Exec *x, const Instr *in, const VlsX *m, uint64_t *addr, const uint8_t **img)
{
    uint64_t p = fr(x, m->base);
    uint64_t bs = fr(x, m->a2) & 0xffff, rs = fr(x, m->a3) & 0xffff;
    uint64_t first = p;
    if (m->pn >= 0) fr_set_u64(x, m->pn, p + rs * 32);
    else first = p + rs * 32;
    if (p & 31) {
        sim_mem(x, in, AS_UB, p, 32, 32, m->kind ? ACC_WRITE : ACC_READ,
                m->kind ? "block store destination" : "block load source");
        return -1;
    }
    *img = FR(x, m->mask);
    for (unsigned b = 0; b < 8; b++) addr[b] = first + b * bs * 32;
    return 0;
}

static const Instr *x_vsldb(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint64_t addr[8];
    const uint8_t *img;
    if (block_addrs(x, in, m, addr, &img)) return NULL;
    uint8_t r[256];
    for (unsigned b = 0; b < 8; b++) {
        if (!img_bit(img, 4 * b)) {
            memset(r + 32 * b, 0, 32);   /* masked-off block: zero, no access, no fault (S) */
            continue;
        }
        const uint8_t *s = ubp(x, in, addr[b], 32, 32, ACC_READ, "block load source");
        if (!s) return NULL;
        memcpy(r + 32 * b, s, 32);
    }
    memcpy(FR(x, in->res[0]), r, 256);
    count(x, 256);
    return in + 1;
}

static const Instr *x_vsstb(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint64_t addr[8];
    const uint8_t *img;
    if (block_addrs(x, in, m, addr, &img)) return NULL;
    uint8_t *d[8];
    for (unsigned b = 0; b < 8; b++) {
        d[b] = NULL;
        if (!img_bit(img, 4 * b)) continue;   /* masked-off block: not written */
        if (!(d[b] = ubp(x, in, addr[b], 32, 32, ACC_WRITE, "block store destination"))) return NULL;
    }
    const uint8_t *v = FR(x, in->arg[0]);
    for (unsigned b = 0; b < 8; b++)
        if (d[b]) memmove(d[b], v + 32 * b, 32);
    count(x, 256);
    return in + 1;
}

/* ------------------------------------------------------------------ gathers and scatter (Q22, §2.6) */

/* Traps for the first active lane whose element address is outside UB or misaligned. */
static void lane_trap(Exec *x, const Instr *in, uint64_t a, unsigned e, int mode, const char *what)
{
    sim_mem(x, in, AS_UB, a, e, e, mode, what);
}

/* vgather2 / vgather2_bc: lane i (N = index lanes, lane width W = 256/N) loads the E-byte element at
   base + idx[i]·E (idx unsigned), zero-extended to W bytes; inactive lanes are 0 and access nothing. */
static const Instr *x_vgather2(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint64_t base = fr(x, m->base);
    const uint8_t *idx = FR(x, m->a2), *img = FR(x, m->mask);
    Core *c = x->core;
    uint64_t sz = c->memsz[AS_UB];
    const uint8_t *ub = c->mem[AS_UB];
    unsigned e = m->e, iw = (unsigned)m->aux;
    uint8_t r[256];
    memset(r, 0, 256);
    unsigned active = 0;
    BY_WIDTH(m->w, {
        for (unsigned i = 0; i < 256 / W; i++) {
            if (!img_bit(img, W * i)) continue;
            uint64_t a = base + lane_get(idx, iw, i) * e;
            if ((a & (e - 1)) || a > sz || e > sz - a) {
                lane_trap(x, in, a, e, ACC_READ, "gather source element");
                return NULL;
            }
            if (__builtin_expect(c->cl->watch, 0)) sim_access(x, in, c, AS_UB, a, e, ACC_READ);
            uint64_t v = 0;
            memcpy(&v, ub + a, e < W ? e : W);   /* little-endian host: zero extension */
            ST(r, i, v);
            active++;
        }
    })
    memcpy(FR(x, in->res[0]), r, 256);
    count(x, (uint64_t)active * e);
    return in + 1;
}

/* vgatherb: block k (k < 8) is the 32 bytes at base + off[k] (u32 byte offset), enabled by b32 lane k. */
static const Instr *x_vgatherb(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint64_t base = fr(x, m->base);
    const uint8_t *off = FR(x, m->a2), *img = FR(x, m->mask);
    if (base & 31) {
        sim_mem(x, in, AS_UB, base, 32, 32, ACC_READ, "block gather base");
        return NULL;
    }
    uint8_t r[256];
    unsigned active = 0;
    for (unsigned k = 0; k < 8; k++) {
        if (!img_bit(img, 4 * k)) {
            memset(r + 32 * k, 0, 32);
            continue;
        }
        const uint8_t *s = ubp(x, in, base + lane_get(off, 4, k), 32, 32, ACC_READ, "block gather source");
        if (!s) return NULL;
        memcpy(r + 32 * k, s, 32);
        active++;
    }
    memcpy(FR(x, in->res[0]), r, 256);
    count(x, active * 32u);
    return in + 1;
}

/* Two active lanes of one scatter with the same address: which lane wins is unresolved (resolutions Q22),
   ptosim keeps the lowest lane and warns once per op (W-SCATTER-ALIAS). Open addressing over the (aligned,
   equal-size) lane addresses; n <= 256. */
static void scatter_aliases(Exec *x, const Instr *in, const uint64_t *addr, unsigned n)
{
    enum { H = 512 };
    uint64_t key[H];
    uint16_t lane[H];
    memset(key, 0xFF, sizeof key);
    for (unsigned i = 0; i < n; i++) {
        uint64_t a = addr[i];
        if (a == UINT64_MAX) continue;
        unsigned h = (unsigned)((a * 0x9E3779B97F4A7C15ull) >> 55);   /* 9 bits */
        while (key[h] != UINT64_MAX && key[h] != a) h = (h + 1) & (H - 1);
        if (key[h] == a) {
            sim_warn_once(x, in, DIAG_T_SCATTER_ALIAS, "lanes %u and %u both write UB address 0x%" PRIx64
                          "; ptosim keeps lane %u's value (which lane wins is not specified)", lane[h], i, a, lane[h]);
            return;
        }
        key[h] = a;
        lane[h] = (uint16_t)i;
    }
}

/* vscatter: active lane i writes the low E bytes of its W-byte lane to base + idx[i]·E. All addresses are
   checked first; lanes are written from the highest down so the lowest lane wins on a duplicate address. */
static const Instr *x_vscatter(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint64_t base = fr(x, m->base);
    const uint8_t *v = FR(x, in->arg[0]), *idx = FR(x, m->a2), *img = FR(x, m->mask);
    Core *c = x->core;
    uint64_t sz = c->memsz[AS_UB];
    uint8_t *ub = c->mem[AS_UB];
    unsigned e = m->e, iw = (unsigned)m->aux, w = m->w, n = 256 / w;
    uint64_t addr[256];
    for (unsigned i = 0; i < n; i++) {
        addr[i] = UINT64_MAX;
        if (!img_bit(img, w * i)) continue;
        uint64_t a = base + lane_get(idx, iw, i) * e;
        if ((a & (e - 1)) || a > sz || e > sz - a) {
            lane_trap(x, in, a, e, ACC_WRITE, "scatter destination element");
            return NULL;
        }
        addr[i] = a;
    }
    scatter_aliases(x, in, addr, n);
    unsigned active = 0;
    for (unsigned i = n; i-- > 0;) {
        if (addr[i] == UINT64_MAX) continue;
        if (__builtin_expect(c->cl->watch, 0)) sim_access(x, in, c, AS_UB, addr[i], e, ACC_WRITE);
        memcpy(ub + addr[i], v + (size_t)w * i, e);
        active++;
    }
    count(x, (uint64_t)active * e);
    return in + 1;
}

/* ------------------------------------------------------------------ alignment-state streams (Q21) */

static int store_state(Exec *x, const Instr *in, const AlignState *st)
{
    if (!st->init) {
        sim_trap(x, in, DIAG_T_ALIGN_STATE, "the !pto.align carrier was never initialised (use pto.init_align)");
        return -1;
    }
    if (st->load) {
        sim_trap(x, in, DIAG_T_ALIGN_STATE, "a load-stream state (from pto.vldas) is used by a store stream; "
                 "store streams start at pto.init_align");
        return -1;
    }
    return 0;
}

/* vldas / valda: primes a load stream at the 32-byte block containing the address (reads that block). */
static const Instr *x_vldas(Exec *x, const Instr *in)
{
    uint64_t p = ea(x, X_OF(in));
    if (!ubp(x, in, p & ~(uint64_t)31, 32, 32, ACC_READ, "unaligned-load priming block")) return NULL;
    AlignState st;
    memset(&st, 0, sizeof st);
    st.init = 1;
    st.load = 1;
    st.block = p & ~(uint64_t)31;
    st.cursor = p;
    memcpy(FR(x, in->res[0]), &st, sizeof st);
    count(x, 32);
    return in + 1;
}

/* The load step shared by vldus and valdu: the 256 bytes at p (any alignment) with the state (slot m->a2)
   primed for p's block; the returned state is primed for p + 256. Returns 0, or -1 after a trap. */
static int unaligned_load(Exec *x, const Instr *in, const VlsX *m, uint64_t p)
{
    AlignState st;
    memcpy(&st, FR(x, m->a2), sizeof st);
    if (!st.load) {
        sim_trap(x, in, DIAG_T_ALIGN_STATE, "the alignment state was not primed by pto.vldas or pto.valda");
        return -1;
    }
    if (st.block != (p & ~(uint64_t)31)) {
        sim_trap(x, in, DIAG_T_ALIGN_STATE, "the alignment state is primed for UB block 0x%" PRIx64
                 " but the load address 0x%" PRIx64 " is in block 0x%" PRIx64
                 " (prime it with pto.vldas or pto.valda at this address)", st.block, p, p & ~(uint64_t)31);
        return -1;
    }
    const uint8_t *s = ubp(x, in, p, 256, 1, ACC_READ, "unaligned load source");
    if (!s) return -1;
    memcpy(FR(x, in->res[0]), s, 256);
    st.block = (p + 256) & ~(uint64_t)31;
    st.cursor = p + 256;
    if (in->res[1] >= 0) memcpy(FR(x, in->res[1]), &st, sizeof st);
    count(x, 256);
    return 0;
}

/* vldus %p, %a[, %off]: loads at p; the optional pointer result is p + off elements (p + 256 bytes without an
   offset operand). */
static const Instr *x_vldus(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint64_t p = fr(x, m->base);
    if (unaligned_load(x, in, m, p)) return NULL;
    if (m->pn >= 0) {
        uint64_t d = m->off >= 0 ? (uint64_t)bits_sext(fr(x, m->off), m->offbits) * m->unit : 256;
        fr_set_u64(x, m->pn, p + d);
    }
    return in + 1;
}

/* uvld %p[%off]: the 256 bytes at p + off elements, any byte alignment (the compiler's vldas + vldus there). */
static const Instr *x_uvld(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    const uint8_t *s = ubp(x, in, ea(x, m), 256, 1, ACC_READ, "unaligned load source");
    if (!s) return NULL;
    memcpy(FR(x, in->res[0]), s, 256);
    count(x, 256);
    return in + 1;
}

/* valdu %base[%va], %a, %inc: loads at base + va; the updated vector address is va + inc (32-bit, bytes). */
static const Instr *x_valdu(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint32_t va = (uint32_t)fr(x, m->off);
    if (unaligned_load(x, in, m, fr(x, m->base) + va)) return NULL;
    fr_set_u64(x, m->pn, (uint32_t)(va + (uint32_t)fr(x, m->a3)));
    return in + 1;
}

/* The store step shared by vstus, vstur and vastu: appends n bytes at p to the stream whose state is operand 0
   and writes the new state to result 0. Returns 0, or -1 after a trap (the state result is then unwritten). */
static int stream_store(Exec *x, const Instr *in, uint64_t p, const uint8_t *bytes, uint64_t n)
{
    AlignState st;
    memcpy(&st, FR(x, in->arg[0]), sizeof st);
    if (store_state(x, in, &st) || align_append(x, in, &st, p, bytes, n)) return -1;
    memcpy(FR(x, in->res[0]), &st, sizeof st);
    count(x, n);
    return 0;
}

/* vstus %a, %n, %v, %p: appends the first n elements of v at cursor p; optional result p + n elements. */
static const Instr *x_vstus(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    AlignState st;
    memcpy(&st, FR(x, in->arg[0]), sizeof st);
    if (store_state(x, in, &st)) return NULL;   /* a misused state is reported before a bad count */
    int64_t n = bits_sext(fr(x, m->a2), m->offbits);
    if (n < 0 || (uint64_t)n * m->w > 256) {
        sim_trap(x, in, DIAG_T_FIELD, "element count %" PRId64 " is outside 0..%u", n, 256u / m->w);
        return NULL;
    }
    uint64_t p = fr(x, m->base);
    if (stream_store(x, in, p, FR(x, m->a3), (uint64_t)n * m->w)) return NULL;
    if (m->pn >= 0) fr_set_u64(x, m->pn, p + (uint64_t)n * m->unit);
    return in + 1;
}

/* vstur %a, %v, %base[, MODE]: appends the first SQZN bytes of v at base + AR; POST_UPDATE adds SQZN to AR. */
static const Instr *x_vstur(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    Core *c = x->core;
    uint32_t n = spr_sqzn(c);
    if (n > 256) n = 256;
    if (stream_store(x, in, fr(x, m->base) + spr_ar(c), FR(x, m->a2), n)) return NULL;
    if (m->aux) set_ar(c, spr_ar(c) + n);
    return in + 1;
}

/* vastu %a, %va, %v, %base, "POST_UPDATE": appends the 256 bytes of v at base + va; the updated vector address
   is va + 256 (32-bit), va itself for the no-post mode the verifier rejects. */
static const Instr *x_vastu(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint32_t va = (uint32_t)fr(x, m->off);
    if (stream_store(x, in, fr(x, m->base) + va, FR(x, m->a3), 256)) return NULL;
    fr_set_u64(x, m->pn, m->aux ? (uint32_t)(va + 256u) : va);
    return in + 1;
}

/* vstu %a, %off, %v, %base[, MODE] (the offset form): appends the 256 bytes of v at base + off bytes (the
   offset is the CCE vector_address, as for vastu); the returned offset is off + 256 with POST_UPDATE, off
   itself otherwise. */
static const Instr *x_vstu(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint64_t off = bits_sext(fr(x, m->off), m->offbits);
    if (stream_store(x, in, fr(x, m->base) + off, FR(x, m->a3), 256)) return NULL;
    fr_set_u64(x, m->pn, m->aux ? off + 256 : off);
    return in + 1;
}

/* vstas / vstar / vsta / vasta: write the held bytes of the stream; vstas optionally returns p + off elements. */
static const Instr *x_vflush(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    AlignState st;
    memcpy(&st, FR(x, in->arg[0]), sizeof st);
    if (store_state(x, in, &st)) return NULL;
    unsigned held = (unsigned)__builtin_popcount(st.valid);
    if (align_flush(x, in, &st)) return NULL;
    if (m->pn >= 0)
        fr_set_u64(x, m->pn, fr(x, m->base) + (m->off >= 0 ? (uint64_t)bits_sext(fr(x, m->off), m->offbits) * m->unit : 0));
    count(x, held);
    return in + 1;
}

/* ------------------------------------------------------------------ vag (vector-address generation) */

/* One stride of a pto.vag and the enclosing scf.for it scales: frame slots of the i32 stride and of the loop's
   induction variable, lower bound and step, and the loop's integer width. */
typedef struct VagLevel { int32_t s, iv, lb, step; uint32_t bits; } VagLevel;
typedef struct VagX { uint32_t n; VagLevel l[4]; } VagX;

/* 0-based iteration count of a loop: (iv - lb) / step in the loop's width (iv = lb + k·step exactly). */
static inline uint64_t loop_count(const Exec *x, const VagLevel *l)
{
    uint64_t w = l->bits >= 64 ? ~0ull : (1ull << l->bits) - 1;
    uint64_t d = (fr(x, l->iv) - fr(x, l->lb)) & w, st = fr(x, l->step) & w;
    return st ? d / st : 0;
}

/* vag %s1[, %s2, %s3, %s4]: the 32-bit byte offset sum of s_k · (iteration count of the k-th enclosing loop),
   strides unsigned, wrapping at 2^32; the result slot holds it zero-extended. The iteration counts read 0
   unless the launch binds them (pto_launch_set_vag_loops; docs/semantics.md §6.11). */
static const Instr *x_vag(Exec *x, const Instr *in)
{
    const VagX *g = in->ext;
    uint32_t a = 0;
    for (uint32_t k = 0; x->core->sim->vag_loops && k < g->n; k++) a += (uint32_t)fr(x, g->l[k].s) * (uint32_t)loop_count(x, &g->l[k]);
    fr_set_u64(x, in->res[0], a);
    count(x, 0);
    return in + 1;
}

/* ------------------------------------------------------------------ SPR */

static const Instr *x_sprclr(Exec *x, const Instr *in)
{
    set_ar(x->core, 0);
    return in + 1;
}

/* sprsti / sprsts "AR", %p[%off]: store AR (4 bytes) at p + off·unit (post form: at p, result p + off·unit). */
static const Instr *x_sprst(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint64_t a = ea(x, m);
    uint8_t *d = ubp(x, in, a, 4, 4, ACC_WRITE, "SPR store destination");
    if (!d) return NULL;
    uint32_t v = spr_ar(x->core);
    memcpy(d, &v, 4);
    count(x, 4);
    return in + 1;
}

/* ------------------------------------------------------------------ rearrangement (§2.6, Q8, Q34) */

/* Decoded operands of the rearrangements (Instr.imm): the element width, and one parameter whose meaning
   depends on the op. */
enum {
    RA_E,                   /* element bytes of the first vector operand (vusqz: of the result) */
    RA_PARAM,               /* the op's parameter, one of: */
    RA_PART_BITS,           /* vsunpack/vzunpack: width of the part operand */
    RA_HALF = RA_PARAM,     /* vintlv/vdintlv: 0 both results; the v2 forms: 1 LOWER, 2 HIGHER */
    RA_AMT_BITS = RA_PARAM, /* vslide/vshift: width of the amount operand */
    RA_MASK = RA_PARAM,     /* vusqz: mask operand index */
    RA_IDX_E = RA_PARAM,    /* vperm: element bytes of the index vector */
    RA_HIGHER = RA_PARAM,   /* vpack: 1 for HIGHER */
    RA_SIGNED = RA_PARAM,   /* vsunpack/vzunpack: 1 for sign extension */
};

/* The results of the (de)interleaves: both halves, or for the v2 forms the one half PART selects. */
static const Instr *intlv_results(Exec *x, const Instr *in, const uint8_t *lo, const uint8_t *hi)
{
    if (in->imm[RA_HALF] == 0) {
        memcpy(FR(x, in->res[0]), lo, 256);
        memcpy(FR(x, in->res[1]), hi, 256);
    } else {
        memcpy(FR(x, in->res[0]), in->imm[RA_HALF] == 1 ? lo : hi, 256);
    }
    count(x, 0);
    return in + 1;
}

/* vintlv: lo[2i]=a[i], lo[2i+1]=b[i], hi[2i]=a[N/2+i], hi[2i+1]=b[N/2+i]. */
static const Instr *x_vintlv(Exec *x, const Instr *in)
{
    const uint8_t *a = FR(x, in->arg[0]), *b = FR(x, in->arg[1]);
    uint8_t lo[256], hi[256];
    BY_WIDTH(in->imm[RA_E], {
        enum { N = 256 / W };
        for (unsigned i = 0; i < N / 2; i++) {
            ST(lo, 2 * i, LD(a, i));
            ST(lo, 2 * i + 1, LD(b, i));
            ST(hi, 2 * i, LD(a, N / 2 + i));
            ST(hi, 2 * i + 1, LD(b, N / 2 + i));
        }
    })
    return intlv_results(x, in, lo, hi);
}

/* vdintlv: C = a ‖ b; lo[i] = C[2i], hi[i] = C[2i+1]. */
static const Instr *x_vdintlv(Exec *x, const Instr *in)
{
    uint8_t c[512], lo[256], hi[256];
    memcpy(c, FR(x, in->arg[0]), 256);
    memcpy(c + 256, FR(x, in->arg[1]), 256);
    BY_WIDTH(in->imm[RA_E], for (unsigned i = 0; i < 256 / W; i++) { ST(lo, i, LD(c, 2 * i)); ST(hi, i, LD(c, 2 * i + 1)); })
    return intlv_results(x, in, lo, hi);
}

/* vslide %src0, %src1, %amt: dst[i] = src0[i - amt] when 0 <= i - amt < N, else src1[N + i - amt] when that
   is a lane, else 0 (the M loop for 0 <= amt <= N, extended with zero fill). */
static const Instr *x_vslide(Exec *x, const Instr *in)
{
    const uint8_t *s0 = FR(x, in->arg[0]), *s1 = FR(x, in->arg[1]);
    int64_t amt = bits_sext(fr(x, in->arg[2]), (unsigned)in->imm[RA_AMT_BITS]);
    uint8_t r[256];
    BY_WIDTH(in->imm[RA_E], {
        enum { N = 256 / W };
        for (int64_t i = 0; i < N; i++) {
            int64_t t = i - amt;
            uint64_t v = 0;
            if (t >= 0 && t < N) v = LD(s0, t);
            else if (t < 0 && t >= -(int64_t)N) v = LD(s1, N + t);
            ST(r, i, v);
        }
    })
    memcpy(FR(x, in->res[0]), r, 256);
    count(x, 0);
    return in + 1;
}

/* vshift %src, %amt: dst[i] = src[i - amt] when that is a lane, else 0. */
static const Instr *x_vshift(Exec *x, const Instr *in)
{
    const uint8_t *s = FR(x, in->arg[0]);
    int64_t amt = bits_sext(fr(x, in->arg[1]), (unsigned)in->imm[RA_AMT_BITS]);
    uint8_t r[256];
    BY_WIDTH(in->imm[RA_E], {
        enum { N = 256 / W };
        for (int64_t i = 0; i < N; i++) {
            int64_t t = i - amt;
            ST(r, i, (t >= 0 && t < N) ? LD(s, t) : 0);
        }
    })
    memcpy(FR(x, in->res[0]), r, 256);
    count(x, 0);
    return in + 1;
}

/* vsqz: active lanes compressed to the front in lane order, the rest 0; SQZN = active lanes · E bytes. */
static const Instr *x_vsqz(Exec *x, const Instr *in)
{
    const uint8_t *s = FR(x, in->arg[0]), *img = FR(x, in->arg[1]);
    uint8_t r[256];
    memset(r, 0, 256);
    unsigned j = 0;
    BY_WIDTH(in->imm[RA_E], for (unsigned i = 0; i < 256 / W; i++) if (img_bit(img, W * i)) { ST(r, j, LD(s, i)); j++; })
    memcpy(FR(x, in->res[0]), r, 256);
    set_sqzn(x->core, j * (uint32_t)in->imm[RA_E]);
    count(x, 0);
    return in + 1;
}

/* vusqz: r[i] = number of active lanes j < i (r[0] = 0); SQZN = active lanes · E bytes. */
static const Instr *x_vusqz(Exec *x, const Instr *in)
{
    const uint8_t *img = FR(x, in->arg[in->imm[RA_MASK]]);
    uint8_t r[256];
    unsigned cnt = 0;
    BY_WIDTH(in->imm[RA_E], for (unsigned i = 0; i < 256 / W; i++) { ST(r, i, cnt); cnt += (unsigned)img_bit(img, W * i); })
    memcpy(FR(x, in->res[0]), r, 256);
    set_sqzn(x->core, cnt * (uint32_t)in->imm[RA_E]);
    count(x, 0);
    return in + 1;
}

/* vperm: r[i] = src[idx[i] mod N] (idx unsigned, read at its own width). */
static const Instr *x_vperm(Exec *x, const Instr *in)
{
    const uint8_t *s = FR(x, in->arg[0]), *idx = FR(x, in->arg[1]);
    unsigned iw = (unsigned)in->imm[RA_IDX_E];
    uint8_t r[256];
    BY_WIDTH(in->imm[RA_E], {
        enum { N = 256 / W };
        for (unsigned i = 0; i < N; i++) {
            uint64_t k = i < 256 / iw ? lane_get(idx, iw, i) : 0;
            ST(r, i, LD(s, k % N));
        }
    })
    memcpy(FR(x, in->res[0]), r, 256);
    count(x, 0);
    return in + 1;
}

/* vpack: each W-byte lane truncated to W/2 bytes into lanes 0..N-1 (LOWER) or N..2N-1 (HIGHER);
   the other half 0. */
static const Instr *x_vpack(Exec *x, const Instr *in)
{
    const uint8_t *s = FR(x, in->arg[0]);
    unsigned h = (unsigned)in->imm[RA_E] / 2;
    uint8_t r[256];
    memset(r, 0, 256);
    uint8_t *d = r + (in->imm[RA_HIGHER] ? 128 : 0);
    BY_WIDTH(h, for (unsigned i = 0; i < 128 / W; i++) memcpy(d + W * i, s + 2 * W * i, W))
    memcpy(FR(x, in->res[0]), r, 256);
    count(x, 0);
    return in + 1;
}

/* vsunpack / vzunpack %src, %part: narrow lanes part·N/2 .. part·N/2 + N/2 - 1 sign- or zero-extended to
   double width (part 0 = lower half, 1 = upper half). RA_E is the narrow width. */
static const Instr *x_vunpack(Exec *x, const Instr *in)
{
    const uint8_t *s = FR(x, in->arg[0]);
    uint64_t part = fr(x, in->arg[1]) & ((in->imm[RA_PART_BITS] >= 64) ? ~0ull : ((1ull << in->imm[RA_PART_BITS]) - 1));
    if (part > 1) {
        sim_trap(x, in, DIAG_T_FIELD, "part %" PRIu64 " is not 0 or 1", part);
        return NULL;
    }
    unsigned w = (unsigned)in->imm[RA_E], half = 128 / w;
    int sgn = (int)in->imm[RA_SIGNED];
    uint8_t r[256];
    const uint8_t *src = s + part * 128;
    BY_WIDTH(w, {
        for (unsigned i = 0; i < half; i++) {
            uint64_t v = LD(src, i);
            if (sgn && W < 8) v = (uint64_t)bits_sext(v, 8 * W);
            lane_set(r, 2 * W, i, v);
        }
    })
    memcpy(FR(x, in->res[0]), r, 256);
    count(x, 0);
    return in + 1;
}

/* ------------------------------------------------------------------ lowering */

static const Type *otype(const Op *op, int idx) { return idx >= 0 && (uint32_t)idx < op->noperands ? op->operands[idx]->type : NULL; }
static unsigned elem_bytes_of(const Type *t)
{
    if (!t) return 1;
    if (t->kind == TY_PTR || t->kind == TY_VREG) return t->elem ? ty_bytes(t->elem) : 1;
    return ty_bytes(t);
}
static unsigned type_bits(const Type *t) { return t ? ty_bits(t) : 64; }

static int32_t slot_of(const Instr *in, int idx) { return idx >= 0 && idx < (int)in->nargs ? in->arg[idx] : -1; }

static VlsX *newx(LowerView *L, const Op *op)
{
    VlsX *m = lw_alloc(L, op, sizeof *m);
    if (!m) return NULL;
    m->base = m->off = m->mask = m->pn = m->a2 = m->a3 = -1;
    m->unit = 1;
    m->offbits = 64;
    m->align = 1;
    return m;
}

/* Base pointer + offset group (`name[off]`), unit = pointer element bytes; pointer result `pnres`. A !pto.vaddr
   offset (vector-address forms) is a byte offset: unit 1, and its slot already holds the zero-extended value. */
static void mem_operand(LowerView *L, const Op *op, const Instr *in, VlsX *m, const char *base, const char *off, int pnres)
{
    int b = lw_group_index(L, op, base, 0), o = off ? lw_group_index(L, op, off, 0) : -1;
    m->base = slot_of(in, b);
    m->off = slot_of(in, o);
    m->unit = elem_bytes_of(otype(op, b));
    m->offbits = (uint8_t)(o >= 0 ? type_bits(otype(op, o)) : 64);
    if (o >= 0 && ty_is_vaddr(otype(op, o))) {
        m->unit = 1;
        m->offbits = 64;
    }
    m->pn = pnres >= 0 && pnres < (int)in->nres ? in->res[pnres] : -1;
}

/* Element alignment of an access through the base pointer (power-of-two element sizes; 1 otherwise). */
static unsigned elem_align(const Op *op, int base_idx)
{
    unsigned e = elem_bytes_of(otype(op, base_idx));
    return e && !(e & (e - 1)) ? e : 1;
}

static int bad(LowerView *L, const Op *op, const char *what)
{
    lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s': %s", op_info[op->kind].name, what);
    return -1;
}

/* Fills the VN_* operands of the NORM fast paths; false when the form needs the generic handler (post-update,
   no offset operand, or an element size that is not a power of two). */
static bool fast_norm(Instr *in, const VlsX *m)
{
    if (m->pn >= 0 || m->off < 0 || m->base < 0 || (m->unit & (m->unit - 1))) return false;
    unsigned bits = m->offbits ? m->offbits : 64;
    uint64_t sgn = 1ull << (bits - 1);
    in->imm[VN_BASE] = m->base;
    in->imm[VN_OFF] = m->off;
    in->imm[VN_SHIFT] = 0;
    while ((1u << in->imm[VN_SHIFT]) < m->unit) in->imm[VN_SHIFT]++;
    in->imm[VN_SIGN] = (int64_t)sgn;
    in->imm[VN_OFF_MASK] = (int64_t)(bits >= 64 ? ~0ull : (sgn << 1) - 1);
    in->imm[VN_MASK] = m->mask;
    in->imm[VN_MASK_PAT] = (int64_t)m->maskpat;
    in->imm[VN_ALIGN_M1] = (int64_t)m->align - 1;   /* element alignment mask */
    return true;
}

static int lower_vlds(LowerView *L, const Op *op, Instr *in)
{
    VlsX *m = newx(L, op);
    if (!m) return -1;
    mem_operand(L, op, in, m, "src", "off", 1);
    int t = op_token_id(op, "dist");
    /* Element alignment, not 32 bytes: validated kernels (soft-post-update-dynamic-accumulator) load and
       store f32 vectors at element offsets 129, 195 and 801 and expect plain copies. */
    unsigned kind = LD_NORM, w = 1, foot = 256, al = elem_align(op, lw_group_index(L, op, "src", 0));
    switch (t) {
    case -1: case T_VLD_NORM: break;
    case T_VLD_BRC_B8: kind = LD_BRC; w = 1; foot = 1; al = 1; break;
    case T_VLD_BRC_B16: kind = LD_BRC; w = 2; foot = 2; al = 2; break;
    case T_VLD_BRC_B32: kind = LD_BRC; w = 4; foot = 4; al = 4; break;
    case T_VLD_BRC_BLK: case T_VLD_BLK: kind = LD_BRCBLK; foot = 32; break;
    case T_VLD_US_B8: kind = LD_US; w = 1; foot = 128; break;
    case T_VLD_US_B16: kind = LD_US; w = 2; foot = 128; break;
    case T_VLD_DS_B8: kind = LD_DS; w = 1; foot = 512; break;
    case T_VLD_DS_B16: kind = LD_DS; w = 2; foot = 512; break;
    case T_VLD_UNPK_B8: kind = LD_UNPK; w = 1; foot = 128; break;
    case T_VLD_UNPK_B16: kind = LD_UNPK; w = 2; foot = 128; break;
    case T_VLD_UNPK_B32: kind = LD_UNPK; w = 4; foot = 128; break;
    case T_VLD_UNPK4: case T_VLD_UNPK4_B8: kind = LD_UNPK4; foot = 64; break;
    case T_VLD_E2B_B16: kind = LD_E2B; w = 2; foot = 16; break;
    case T_VLD_E2B_B32: kind = LD_E2B; w = 4; foot = 32; break;
    case T_VLD_SPLT4CHN_B8: kind = LD_SPLT4; w = 1; break;
    case T_VLD_SPLT2CHN_B8: kind = LD_SPLT2; w = 1; break;
    case T_VLD_SPLT2CHN_B16: kind = LD_SPLT2; w = 2; break;
    case T_VLD_DINTLV_B32: kind = LD_EVEN; w = 4; foot = 512; break;
    default: return bad(L, op, "unknown load distribution");
    }
    m->kind = (uint8_t)kind;
    m->w = (uint8_t)w;
    m->foot = (uint16_t)foot;
    m->align = (uint16_t)al;
    in->ext = m;
    in->fn = x_vlds;
    if (!L->ctx->reference && fast_norm(in, m) && kind == LD_NORM) {
        bool o64 = in->imm[VN_OFF_MASK] == -1, wide = host_avx2();
        in->fn = o64 ? (wide ? x_vlds_norm_avx2_o64 : x_vlds_norm_o64) : (wide ? x_vlds_norm_avx2 : x_vlds_norm);
    }
    return 0;
}

/* The scf.for loops enclosing op inside its vector scope, innermost first, at most 4 (the verifier's rule for
   pto.vag); their induction variables, bounds and steps live in the scope's frame. */
static unsigned scope_loops(const Op *op, const Op *loops[4])
{
    unsigned k = 0;
    for (const Op *p = ir_parent_op(op); p && k < 4; p = ir_parent_op(p)) {
        if (p->kind == OP_SCF_FOR) loops[k++] = p;
        if (p->kind == OP_VECSCOPE || p->kind == OP_STRICT_VECSCOPE || op_attr(p, "llvm.loop.aivector_scope")) break;
    }
    return k;
}

static int lower_vag(LowerView *L, const Op *op, Instr *in)
{
    const Op *loops[4];
    unsigned n = in->nargs;
    if (n < 1 || n > 4 || scope_loops(op, loops) < n || in->nres < 1)
        return bad(L, op, "needs one enclosing scf.for per stride");
    VagX *g = lw_alloc(L, op, sizeof *g);
    if (!g) return -1;
    g->n = n;
    for (unsigned k = 0; k < n; k++) {
        const Value *iv = loops[k]->regions[0]->block->args[0];
        g->l[k] = (VagLevel){in->arg[k], iv->slot, loops[k]->operands[0]->slot, loops[k]->operands[2]->slot,
                             ty_bits(iv->type)};
    }
    in->ext = g;
    in->fn = x_vag;
    return 0;
}

static int lower_vsts(LowerView *L, const Op *op, Instr *in)
{
    VlsX *m = newx(L, op);
    if (!m) return -1;
    mem_operand(L, op, in, m, "dst", "off", 0);
    int mi = lw_group_index(L, op, "m", 0);
    m->mask = slot_of(in, mi);
    unsigned ve = elem_bytes_of(otype(op, 0));
    int t = op_token_id(op, "dist");
    unsigned kind = ST_NORM, w = ve, foot = 256, al = elem_align(op, lw_group_index(L, op, "dst", 0)), os = ve, ms = ve,
             n = 256 / ve;
    switch (t) {
    case -1: case T_VST_NORM: break;
    case T_VST_NORM_B8: w = os = ms = 1; n = 256; break;
    case T_VST_NORM_B16: w = os = ms = 2; n = 128; break;
    case T_VST_NORM_B32: w = os = ms = 4; n = 64; break;
    case T_VST_ONEPT_B8: kind = ST_1PT; w = os = 1; foot = 1; al = 1; n = 1; break;
    case T_VST_ONEPT_B16: kind = ST_1PT; w = os = 2; foot = 2; al = 2; n = 1; break;
    case T_VST_ONEPT_B32: kind = ST_1PT; w = os = 4; foot = 4; al = 4; n = 1; break;
    case T_VST_PK_B16: kind = ST_PK; w = 2; os = 1; ms = 2; n = 128; foot = 128; break;
    case T_VST_PK_B32: kind = ST_PK; w = 4; os = 2; ms = 4; n = 64; foot = 128; break;
    case T_VST_PK_B64: kind = ST_PK; w = 8; os = 4; ms = 8; n = 32; foot = 128; break;
    case T_VST_PK4_B32: kind = ST_PK4; w = 4; os = 1; ms = 4; n = 64; foot = 64; break;
    case T_VST_MRG4CHN_B8: kind = ST_MRG4; w = 1; os = 4; ms = 4; n = 64; break;
    case T_VST_MRG2CHN_B8: kind = ST_MRG2; w = 1; os = 2; ms = 2; n = 128; break;
    case T_VST_MRG2CHN_B16: kind = ST_MRG2; w = 2; os = 4; ms = 4; n = 64; break;
    default: return bad(L, op, "unknown store distribution");
    }
    if (ve > 8 || os > 8 || !n) return bad(L, op, "unsupported element width");
    m->kind = (uint8_t)kind;
    m->w = (uint8_t)w;
    m->foot = (uint16_t)foot;
    m->align = (uint16_t)al;
    m->os = (uint8_t)os;
    m->ms = (uint8_t)ms;
    m->n = (uint16_t)n;
    m->maskpat = lane_pattern(ms);
    if (mi >= 0 && !L->ctx->reference && pred_all_active(op->operands[mi], ms)) m->mask = -1;   /* constant all-lanes mask */
    in->ext = m;
    in->fn = x_vsts;
    if (!L->ctx->reference && fast_norm(in, m) && kind == ST_NORM && os == ms) {
        bool o64 = in->imm[VN_OFF_MASK] == -1, wide = host_avx2();
        in->fn = o64 ? (wide ? x_vsts_norm_avx2_o64 : x_vsts_norm_o64) : (wide ? x_vsts_norm_avx2 : x_vsts_norm);
    }
    return 0;
}

int lower_vec_ls(LowerView *L, const Op *op, Instr *in)
{
    const OpInfo *oi = &op_info[op->kind];
    if (oi->flags & F_NOSIM) return 0;   /* parsed and verified; traps T-UNSUPPORTED when executed */
    switch (op->kind) {
    case OP_VLDS: case OP_VALD:
        return lower_vlds(L, op, in);
    case OP_VSTS: case OP_VAST:
        return lower_vsts(L, op, in);
    case OP_VAG:
        return lower_vag(L, op, in);
    case OP_VLDSX2: case OP_VSTSX2: case OP_VALDX2: case OP_VASTX2: {
        VlsX *m = newx(L, op);
        if (!m) return -1;
        int ld = op->kind == OP_VLDSX2 || op->kind == OP_VALDX2;
        mem_operand(L, op, in, m, ld ? "src" : "dst", "off", op->kind == OP_VLDSX2 ? 2 : -1);   /* vldsx2 post-update */
        int t = op_token_id(op, "dist");
        switch (t) {
        case T_VLDX2_DINTLV_B8: case T_VSTX2_INTLV_B8: m->w = 1; break;
        case T_VLDX2_DINTLV_B16: case T_VSTX2_INTLV_B16: m->w = 2; break;
        case T_VLDX2_DINTLV_B32: case T_VSTX2_INTLV_B32: m->w = 4; break;
        case T_VLDX2_BDINTLV: m->w = 1; m->kind = LDX_BDINTLV; break;
        default: return bad(L, op, "unknown dual load/store distribution");
        }
        if (m->kind != LDX_BDINTLV) m->kind = ld ? LDX_DINTLV : STX_INTLV;
        in->ext = m;
        in->fn = ld ? x_vldsx2 : x_vstsx2;
        return 0;
    }
    case OP_VSLDB: case OP_VSSTB: {
        VlsX *m = newx(L, op);
        if (!m) return -1;
        int ld = op->kind == OP_VSLDB;
        mem_operand(L, op, in, m, ld ? "src" : "dst", NULL, ld ? 1 : 0);
        m->a2 = slot_of(in, lw_group_index(L, op, "bs", 0));
        m->a3 = slot_of(in, lw_group_index(L, op, "rs", 0));
        m->mask = slot_of(in, lw_group_index(L, op, "m", 0));
        m->kind = (uint8_t)!ld;
        in->ext = m;
        in->fn = ld ? x_vsldb : x_vsstb;
        return 0;
    }
    case OP_VGATHER2: case OP_VGATHER2_BC: case OP_VGATHERB: case OP_VSCATTER: {
        VlsX *m = newx(L, op);
        if (!m) return -1;
        int sc = op->kind == OP_VSCATTER;
        mem_operand(L, op, in, m, sc ? "dst" : "src", NULL, -1);
        int ii = lw_group_index(L, op, "idx", 0);
        m->a2 = slot_of(in, ii);
        m->mask = slot_of(in, lw_group_index(L, op, "m", 0));
        const Type *it = otype(op, ii);
        unsigned iw = elem_bytes_of(it);
        unsigned lanes = it && it->kind == TY_VREG && it->lanes ? it->lanes : 256 / iw;
        m->aux = iw;
        m->e = (uint8_t)m->unit;
        m->w = (uint8_t)(256 / lanes);
        if (m->w == 0 || (m->w & (m->w - 1)) || m->w > 8 || (iw & (iw - 1)) || m->e > 8 || (m->e & (m->e - 1)))
            return bad(L, op, "unsupported index or element width");
        if (m->e > m->w && op->kind != OP_VGATHERB)
            return bad(L, op, "the memory element is wider than a lane of the index vector");
        in->ext = m;
        in->fn = op->kind == OP_VGATHERB ? x_vgatherb : sc ? x_vscatter : x_vgather2;
        return 0;
    }
    case OP_UVLD: {
        VlsX *m = newx(L, op);
        if (!m) return -1;
        mem_operand(L, op, in, m, "src", "off", -1);
        in->ext = m;
        in->fn = x_uvld;
        return 0;
    }
    case OP_VLDAS: case OP_VALDA: {
        VlsX *m = newx(L, op);
        if (!m) return -1;
        mem_operand(L, op, in, m, "src", "off", -1);
        in->ext = m;
        in->fn = x_vldas;
        return 0;
    }
    case OP_VLDUS: case OP_VALDU: {
        /* vldus: "off" is the optional pointer increment; valdu: "off" is the vector address, "inc" its increment */
        VlsX *m = newx(L, op);
        if (!m) return -1;
        mem_operand(L, op, in, m, "src", "off", 2);
        m->a2 = slot_of(in, lw_group_index(L, op, "a", 0));
        m->a3 = slot_of(in, lw_group_index(L, op, "inc", 0));
        if (op->kind == OP_VALDU && (m->off < 0 || m->pn < 0 || m->a3 < 0)) return bad(L, op, "malformed operands");
        in->ext = m;
        in->fn = op->kind == OP_VALDU ? x_valdu : x_vldus;
        return 0;
    }
    case OP_VASTU: case OP_VSTU: {
        /* vstu: form B (offset + MODE token) only; form A threads a base pointer and an index mode operand */
        int st = op->kind == OP_VSTU, offi = lw_group_index(L, op, "off", 0);
        if (st && (offi < 0 || !ty_is_intlike(otype(op, offi)) || lw_group_index(L, op, "mode", 0) >= 0)) return 0;
        VlsX *m = newx(L, op);
        if (!m) return -1;
        mem_operand(L, op, in, m, "dst", "off", 1);
        m->unit = 1;
        m->a3 = slot_of(in, lw_group_index(L, op, "v", 0));
        m->aux = op_token_id(op, st ? "post" : "mode") == T_POST_POST_UPDATE;
        if (m->off < 0 || m->pn < 0) return bad(L, op, "malformed operands");
        in->ext = m;
        in->fn = st ? x_vstu : x_vastu;
        return 0;
    }
    case OP_VSTUS: {
        VlsX *m = newx(L, op);
        if (!m) return -1;
        mem_operand(L, op, in, m, "dst", NULL, 1);
        int ni = lw_group_index(L, op, "n", 0);
        m->a2 = slot_of(in, ni);
        m->offbits = (uint8_t)type_bits(otype(op, ni));
        int vi = lw_group_index(L, op, "v", 0);
        m->a3 = slot_of(in, vi);
        m->w = (uint8_t)elem_bytes_of(otype(op, vi));
        in->ext = m;
        in->fn = x_vstus;
        return 0;
    }
    case OP_VSTUR: {
        VlsX *m = newx(L, op);
        if (!m) return -1;
        mem_operand(L, op, in, m, "dst", NULL, -1);
        m->a2 = slot_of(in, lw_group_index(L, op, "v", 0));
        m->aux = op_token_id(op, "mode") == T_POST_POST_UPDATE;
        in->ext = m;
        in->fn = x_vstur;
        return 0;
    }
    case OP_VSTAS: case OP_VSTAR: case OP_VSTA: case OP_VASTA: {
        VlsX *m = newx(L, op);
        if (!m) return -1;
        mem_operand(L, op, in, m, "dst", "off", 0);
        if (op->kind != OP_VSTAS) m->pn = -1;
        in->ext = m;
        in->fn = x_vflush;
        return 0;
    }
    case OP_SPRCLR:
        in->fn = x_sprclr;
        return 0;
    case OP_SPRSTI: case OP_SPRSTS: {
        VlsX *m = newx(L, op);
        if (!m) return -1;
        mem_operand(L, op, in, m, "p", "off", 0);
        m->unit = op->kind == OP_SPRSTI ? 4 : 1;   /* §2.3: sprsti one 32-bit word, sprsts bytes */
        in->ext = m;
        in->fn = x_sprst;
        return 0;
    }
    default:
        break;
    }
    /* rearrangement: RA_E and the op's parameter */
    const Type *vt = op->noperands && op->operands[0] && op->operands[0]->type->kind == TY_VREG ? op->operands[0]->type
                     : op->nresults ? op->results[0]->type : NULL;
    unsigned e = elem_bytes_of(vt);
    if (e == 0 || e > 8 || (e & (e - 1))) return bad(L, op, "unsupported element width");
    in->imm[RA_E] = e;
    switch (op->kind) {
    case OP_VINTLV: in->fn = x_vintlv; return 0;
    case OP_VDINTLV: in->fn = x_vdintlv; return 0;
    case OP_VINTLVV2: case OP_VDINTLVV2:
        in->imm[RA_HALF] = op_token_id(op, "part") == T_HALF_HIGHER ? 2 : 1;
        in->fn = op->kind == OP_VINTLVV2 ? x_vintlv : x_vdintlv;
        return 0;
    case OP_VSLIDE:
        in->imm[RA_AMT_BITS] = type_bits(otype(op, 2));
        in->fn = x_vslide;
        return 0;
    case OP_VSHIFT:
        in->imm[RA_AMT_BITS] = type_bits(otype(op, 1));
        in->fn = x_vshift;
        return 0;
    case OP_VSQZ: in->fn = x_vsqz; return 0;
    case OP_VUSQZ: {
        const Type *rt = op->results[0]->type;
        in->imm[RA_E] = elem_bytes_of(rt);
        in->imm[RA_MASK] = lw_group_index(L, op, "m", 0);
        if (in->imm[RA_MASK] < 0) return bad(L, op, "missing mask");
        in->fn = x_vusqz;
        return 0;
    }
    case OP_VPERM:
        in->imm[RA_IDX_E] = elem_bytes_of(otype(op, 1));
        if (in->imm[RA_IDX_E] > 8 || (in->imm[RA_IDX_E] & (in->imm[RA_IDX_E] - 1)))
            return bad(L, op, "unsupported index width");
        in->fn = x_vperm;
        return 0;
    case OP_VPACK:
        if (e < 2) return bad(L, op, "vpack needs 16-, 32- or 64-bit source lanes");
        in->imm[RA_HIGHER] = op_token_id(op, "half") == T_HALF_HIGHER;
        in->fn = x_vpack;
        return 0;
    case OP_VSUNPACK: case OP_VZUNPACK:
        if (e > 4) return bad(L, op, "unpack needs 8-, 16- or 32-bit source lanes");
        in->imm[RA_SIGNED] = op->kind == OP_VSUNPACK;
        in->imm[RA_PART_BITS] = type_bits(otype(op, 1));
        in->fn = x_vunpack;
        return 0;
    default:
        return 0;   /* not simulated: the default handler traps T-UNSUPPORTED */
    }
}
