/* vec_ls.c — contiguous vector loads and stores (vlds/vsts with every distribution token and their
 * vector-address forms vald/vast, the dual vldsx2/vstsx2), the NORM fast copies, vag (vector-address
 * generation), the SPR AR ops (sprclr/sprsti/sprsts), and the dispatch of the memory side's lowering
 * (lower_vec_ls): block-strided and indexed accesses lower in vec_ls_idx.c, the alignment-state streams in
 * vec_ls_stream.c. The fused `vlds; [vlds;] OP; vsts` group is vec_fuse.c; rearrangements are vec_rearr.c.
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
#include "vec_ls_int.h"
#include "base/host.h"
#include "ops/pred/pred.h"

int lower_vec_ls(LowerView *L, const Op *op, Instr *in);

/* ------------------------------------------------------------------ vlds */

/* The two NORM copies also come in AVX2 builds (32-byte moves; base/host.h). */
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

/* The checked paths of the NORM copies: out-of-range or misaligned addresses (trap), and every access
   while a checker watches (ubp records it). */
const Instr *vls_load_norm_slow(Exec *x, const Instr *in)
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
        return vls_load_norm_slow(x, in);                                                                           \
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

/* vlds BRC_B8/B16/B32 in range and unwatched: the element at the address in every slot (load_dist's LD_BRC);
   out of range, misaligned or watched by a checker: the generic handler (the trap, the records). */
static const Instr *x_vlds_brc(Exec *x, const Instr *in)
{
    uint64_t a = fast_ea(x, in);
    Core *c = x->core;
    const uint8_t *s;
    if (__builtin_expect((a & (uint64_t)in->imm[VN_ALIGN_M1]) || a >= c->ub_fast_lim, 0)) {
        /* the checked access (the trap, or the checkers' records), then the same fill */
        s = ubp(x, in, a, (unsigned)in->imm[VN_ALIGN_M1] + 1, (unsigned)in->imm[VN_ALIGN_M1] + 1, ACC_READ, "vector load source");
        if (!s) return NULL;
    } else {
        s = c->mem[AS_UB] + a;
    }
    uint8_t *d = FR(x, in->res[0]);
    switch (in->imm[VN_ALIGN_M1]) {
    case 0: memset(d, s[0], 256); break;
    case 1: { uint16_t v, o[128]; memcpy(&v, s, 2); for (unsigned i = 0; i < 128; i++) o[i] = v; memcpy(d, o, 256); break; }
    default: { uint32_t v, o[64]; memcpy(&v, s, 4); for (unsigned i = 0; i < 64; i++) o[i] = v; memcpy(d, o, 256); break; }
    }
    count(x, in->imm[VN_ALIGN_M1] + 1);
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

int vls_is_norm_load(const Instr *in)
{
    return in->fn == x_vlds_norm || in->fn == x_vlds_norm_o64 || in->fn == x_vlds_norm_avx2 || in->fn == x_vlds_norm_avx2_o64;
}

int vls_is_norm_store(const Instr *in)
{
    return in->fn == x_vsts_norm || in->fn == x_vsts_norm_o64 || in->fn == x_vsts_norm_avx2 || in->fn == x_vsts_norm_avx2_o64;
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

/* ------------------------------------------------------------------ lowering */

static uint64_t lane_pattern(unsigned ms)
{
    uint64_t p = 0;
    for (unsigned k = 0; k < 64; k += ms) p |= 1ull << k;
    return p;
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
    if (!L->ctx->reference && kind == LD_BRC && w == al && fast_norm(in, m)) in->fn = x_vlds_brc;   /* w == align == footprint */
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
    case OP_VSLDB: case OP_VSSTB: case OP_VGATHER2: case OP_VGATHER2_BC: case OP_VGATHERB: case OP_VSCATTER:
        return vls_lower_indexed(L, op, in);
    case OP_UVLD: case OP_VLDAS: case OP_VALDA: case OP_VLDUS: case OP_VALDU: case OP_VASTU: case OP_VSTU:
    case OP_VSTUS: case OP_VSTUR: case OP_VSTAS: case OP_VSTAR: case OP_VSTA: case OP_VASTA:
        return vls_lower_stream(L, op, in);
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
        return 0;   /* not simulated: the default handler traps T-UNSUPPORTED */
    }
}
