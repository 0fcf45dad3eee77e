/* vec_ls_int.h — private to the vector family's memory-side files: vec_ls.c (contiguous loads and stores, the
 * SPR stores, vag, and the dispatch of their lowering), vec_ls_idx.c (block-strided and indexed access),
 * vec_ls_stream.c (the alignment-state streams), vec_fuse.c (the fused load-compute-store group) and
 * vec_rearr.c (in-register rearrangement). What they share: the decoded operand record (VlsX), the checked UB
 * access with its fast route, effective addresses, mask and width helpers, the NORM fast paths' operand
 * layout, and the lowering helpers. The readings implemented in these files are listed in
 * docs/semantics.md §6. */
#ifndef PTOSIM_VEC_LS_INT_H
#define PTOSIM_VEC_LS_INT_H
#include "vec.h"
#include "base/bits.h"
#include <string.h>

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
    uint64_t a = sim_index_addr(b, bits_sext(fr(x, m->off), m->offbits), m->unit);
    if (m->pn >= 0) {
        fr_set_u64(x, m->pn, a);
        return b;
    }
    return a;
}

static inline int img_bit(const uint8_t *img, unsigned k) { return (img[k >> 3] >> (k & 7)) & 1; }

/* True when every lane of the mask view (pattern per 64-bit image word) is active. */
static inline int mask_full(const uint8_t *img, uint64_t pat)
{
    uint64_t w[4];
    memcpy(w, img, 32);
    return ((w[0] & w[1] & w[2] & w[3]) & pat) == pat;
}

static inline void count(Exec *x, uint64_t bytes)
{
    x->core->pipes[PQ_V].ops++;
    x->core->pipes[PQ_V].bytes += bytes;
}

/* SPR AR / SQZN (see the file comment of vec_ls.c). */
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

/* ------------------------------------------------------------------ the NORM fast paths (vec_ls.c, vec_fuse.c) */

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
    return sim_index_addr(fr_u64(x, (int32_t)in->imm[VN_BASE]), (int64_t)fr_u64(x, (int32_t)in->imm[VN_OFF]),
                          1ull << in->imm[VN_SHIFT]);
}

static inline uint64_t fast_ea(const Exec *x, const Instr *in)
{
    uint64_t o = fr_u64(x, (int32_t)in->imm[VN_OFF]);
    uint64_t sgn = (uint64_t)in->imm[VN_SIGN];
    o = ((o & (uint64_t)in->imm[VN_OFF_MASK]) ^ sgn) - sgn;
    return sim_index_addr(fr_u64(x, (int32_t)in->imm[VN_BASE]), (int64_t)o, 1ull << in->imm[VN_SHIFT]);
}

/* The checked path of the NORM load copy (vec_ls.c), where the fused group falls back. */
const Instr *vls_load_norm_slow(Exec *x, const Instr *in);
/* Is `in` a vlds / vsts NORM fast copy (one of the specialised handlers)? */
int vls_is_norm_load(const Instr *in);
int vls_is_norm_store(const Instr *in);

/* ------------------------------------------------------------------ lowering helpers */

static inline const Type *otype(const Op *op, int idx) { return idx >= 0 && (uint32_t)idx < op->noperands ? op->operands[idx]->type : NULL; }
static inline unsigned elem_bytes_of(const Type *t)
{
    if (!t) return 1;
    if (t->kind == TY_PTR || t->kind == TY_VREG) return t->elem ? ty_bytes(t->elem) : 1;
    return ty_bytes(t);
}
static inline unsigned type_bits(const Type *t) { return t ? ty_bits(t) : 64; }

static inline int32_t slot_of(const Instr *in, int idx) { return idx >= 0 && idx < (int)in->nargs ? in->arg[idx] : -1; }

static inline VlsX *newx(LowerView *L, const Op *op)
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
static inline void mem_operand(LowerView *L, const Op *op, const Instr *in, VlsX *m, const char *base, const char *off, int pnres)
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
static inline unsigned elem_align(const Op *op, int base_idx)
{
    unsigned e = elem_bytes_of(otype(op, base_idx));
    return e && !(e & (e - 1)) ? e : 1;
}

static inline int bad(LowerView *L, const Op *op, const char *what)
{
    lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s': %s", op_info[op->kind].name, what);
    return -1;
}

/* The lowering of the block-strided and indexed accesses (vec_ls_idx.c) and of the streams (vec_ls_stream.c). */
int vls_lower_indexed(LowerView *L, const Op *op, Instr *in);
int vls_lower_stream(LowerView *L, const Op *op, Instr *in);
#endif
