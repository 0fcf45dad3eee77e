/* pred.c — the predicate family: the 256-bit predicate register and its b8/b16/b32 views, predicate
 * generation and algebra (pset/pge/plt, pand/por/pxor/pnot/psel, ppack/punpack, pintlv/pdintlv,
 * pbitcast), predicate load/store (plds/pldi/pld, psts/psti/pst, pstu; the vector-address forms pald/past)
 * and pto.init_align.
 *
 * Register model (resolutions Q2, Q3, §2.2; docs/semantics.md §5): a mask value is the 32-byte
 * image in its frame slot; image bit k is bit k%8 of byte k/8. Logical lane i of a mask<bG> view is image
 * bit g*i (g = 1/2/4 bytes). Producers of lanes (pset, pge, plt, pintlv, pdintlv) write canonical images
 * (every non-lane bit 0); consumers of lanes read only bit g*i. pand/por/pxor/pnot/psel, ppack/punpack,
 * pbitcast and the load/store distributions work on raw image bits.
 *
 * Every op here runs on the V pipe inside a vector scope (in->fn); memory goes through sim_mem. */
#include "pred.h"
#include "base/bits.h"
#include <inttypes.h>
#include <string.h>

/* ------------------------------------------------------------------ image helpers */

static inline unsigned img_bit(const uint8_t *m, unsigned k) { return (m[k >> 3] >> (k & 7)) & 1u; }
static inline void img_put(uint8_t *m, unsigned k, unsigned v)
{
    if (v) m[k >> 3] = (uint8_t)(m[k >> 3] | (1u << (k & 7)));
    else m[k >> 3] = (uint8_t)(m[k >> 3] & ~(1u << (k & 7)));
}

/* The granularity an op's name fixes (b8 = 1, b16 = 2, b32 = 4): the op table's GRAN column. */
static unsigned suffix_gran(OpKind k) { return op_gran[k]; }

/* Every predicate op is one V-pipe instruction in the run statistics. */
static inline const Instr *pred_done(Exec *x, const Instr *in)
{
    x->core->pipes[PQ_V].ops++;
    return in + 1;
}

/* ------------------------------------------------------------------ generation */

/* pset/pge: the canonical mask image, computed at lowering, fills the first MASK_BYTES of Instr.imm (these
   ops have no other constants). PSET_IMAGE(in) is its address, read-only when `in` is. */
#define PSET_IMAGE(in) ((in)->imm)
_Static_assert(sizeof ((Instr *)0)->imm >= MASK_BYTES, "a mask image fits in Instr.imm");

static const Instr *x_pset(Exec *x, const Instr *in)
{
    memcpy(FR(x, in->res[0]), PSET_IMAGE(in), MASK_BYTES);
    return pred_done(x, in);
}

int pred_pattern(int tok, unsigned n, unsigned *vl)
{
    *vl = 0;
    switch (tok) {
    case T_PAT_ALL: *vl = n; return 0;
    case T_PAT_ALLF: return 0;
    case T_PAT_H: *vl = n / 2; return 0;
    case T_PAT_Q: *vl = n / 4; return 0;
    case T_PAT_M3: return 1;
    case T_PAT_M4: return 2;
    case T_PAT_VL1: *vl = 1; break;
    case T_PAT_VL2: *vl = 2; break;
    case T_PAT_VL3: *vl = 3; break;
    case T_PAT_VL4: *vl = 4; break;
    case T_PAT_VL8: *vl = 8; break;
    case T_PAT_VL16: *vl = 16; break;
    case T_PAT_VL32: *vl = 32; break;
    case T_PAT_VL64: *vl = 64; break;
    case T_PAT_VL128: *vl = 128; break;
    default: return -1;
    }
    if (*vl > n) *vl = n;   /* the verifier rejects PAT_VLn with n > lanes (Q5) */
    return 0;
}

int pred_pattern_on(int kind, unsigned vl, unsigned i) { return kind == 0 ? i < vl : kind == 1 ? i % 3 == 0 : i % 4 == 0; }

/* Lane set of a pattern token at lane count n (resolutions Q4, Q5). Returns -1 for an unknown token. */
static int pattern_image(int tok, unsigned g, uint8_t img[MASK_BYTES])
{
    unsigned n = 256 / g, vl;
    int kind = pred_pattern(tok, n, &vl);
    if (kind < 0) return -1;
    memset(img, 0, MASK_BYTES);
    for (unsigned i = 0; i < n; i++)
        if (pred_pattern_on(kind, vl, i)) img_put(img, g * i, 1);
    return 0;
}

/* Decoded operands of plt_bN (Instr.imm). */
enum {
    PL_LANES,     /* lanes N of the mask view */
    PL_GRAN,      /* g: lane i is image bit g·i */
    PL_S0_BITS,   /* width of %s0 */
    PL_S1_BITS,   /* width of the %s1 result */
};

/* plt_bN (Q9): %s0 is read as an unsigned integer of its width. */
static const Instr *x_plt(Exec *x, const Instr *in)
{
    uint64_t s = ARG(x, in, 0) & bits_mask(in->imm[PL_S0_BITS]);
    uint64_t n = (uint64_t)in->imm[PL_LANES], g = (uint64_t)in->imm[PL_GRAN];
    uint64_t act = s < n ? s : n;
    uint8_t img[MASK_BYTES];
    memset(img, 0, sizeof img);
    for (uint64_t i = 0; i < act; i++) img_put(img, (unsigned)(g * i), 1);
    memcpy(FR(x, in->res[0]), img, MASK_BYTES);
    if (in->res[1] >= 0) fr_set_u64(x, in->res[1], (s - act) & bits_mask(in->imm[PL_S1_BITS]));
    return pred_done(x, in);
}

/* ------------------------------------------------------------------ algebra (raw image) */

static inline void ld4(uint64_t w[4], const uint8_t *p) { memcpy(w, p, MASK_BYTES); }
static inline void st4(uint8_t *p, const uint64_t w[4]) { memcpy(p, w, MASK_BYTES); }

enum { PG_OP };   /* Instr.imm of pand/por/pxor: 0 and, 1 or, 2 xor */

/* Operands a, b, g: d = g AND (a op b) over all 256 bits (Q7). */
static const Instr *x_plogic(Exec *x, const Instr *in)
{
    uint64_t a[4], b[4], g[4], d[4];
    ld4(a, FR(x, in->arg[0]));
    ld4(b, FR(x, in->arg[1]));
    ld4(g, FR(x, in->arg[2]));
    for (int i = 0; i < 4; i++) {
        uint64_t r = in->imm[PG_OP] == 0 ? a[i] & b[i] : in->imm[PG_OP] == 1 ? a[i] | b[i] : a[i] ^ b[i];
        d[i] = g[i] & r;
    }
    st4(FR(x, in->res[0]), d);
    return pred_done(x, in);
}

static const Instr *x_pnot(Exec *x, const Instr *in)
{
    uint64_t a[4], g[4], d[4];
    ld4(a, FR(x, in->arg[0]));
    ld4(g, FR(x, in->arg[1]));
    for (int i = 0; i < 4; i++) d[i] = g[i] & ~a[i];
    st4(FR(x, in->res[0]), d);
    return pred_done(x, in);
}

/* psel %a, %b, %sel [, %x ignored]: d = sel ? a : b per image bit (Q7). */
static const Instr *x_psel(Exec *x, const Instr *in)
{
    uint64_t a[4], b[4], s[4], d[4];
    ld4(a, FR(x, in->arg[0]));
    ld4(b, FR(x, in->arg[1]));
    ld4(s, FR(x, in->arg[2]));
    for (int i = 0; i < 4; i++) d[i] = (s[i] & a[i]) | (~s[i] & b[i]);
    st4(FR(x, in->res[0]), d);
    return pred_done(x, in);
}

static const Instr *x_pbitcast(Exec *x, const Instr *in)
{
    memmove(FR(x, in->res[0]), FR(x, in->arg[0]), MASK_BYTES);
    return pred_done(x, in);
}

/* Decoded operands of ppack/punpack (Instr.imm). */
enum {
    PK_UNPACK,   /* 0 ppack, 1 punpack */
    PK_HIGHER,   /* 1 for HIGHER */
};

/* ppack / punpack on raw image bits (Q6). */
static const Instr *x_ppack(Exec *x, const Instr *in)
{
    const uint8_t *s = FR(x, in->arg[0]);
    uint8_t d[MASK_BYTES];
    memset(d, 0, sizeof d);
    unsigned hi = in->imm[PK_HIGHER] ? 128u : 0u;
    for (unsigned j = 0; j < 128; j++) {
        if (in->imm[PK_UNPACK] == 0) img_put(d, hi + j, img_bit(s, 2 * j));
        else img_put(d, 2 * j, img_bit(s, hi + j));
    }
    memcpy(FR(x, in->res[0]), d, MASK_BYTES);
    return pred_done(x, in);
}

/* Decoded operands of pintlv/pdintlv (Instr.imm). */
enum {
    PI_DEINTLV,   /* 0 pintlv, 1 pdintlv */
    PI_GRAN,      /* g: lane i is image bit g·i */
};

/* pintlv / pdintlv on logical lanes (Q8). Canonical results. */
static const Instr *x_pintlv(Exec *x, const Instr *in)
{
    const uint8_t *a = FR(x, in->arg[0]), *b = FR(x, in->arg[1]);
    unsigned g = (unsigned)in->imm[PI_GRAN], n = 256 / g, h = n / 2;
    uint8_t lo[MASK_BYTES], hi[MASK_BYTES];
    memset(lo, 0, sizeof lo);
    memset(hi, 0, sizeof hi);
    if (in->imm[PI_DEINTLV] == 0) {
        for (unsigned i = 0; i < h; i++) {
            img_put(lo, g * (2 * i), img_bit(a, g * i));
            img_put(lo, g * (2 * i + 1), img_bit(b, g * i));
            img_put(hi, g * (2 * i), img_bit(a, g * (h + i)));
            img_put(hi, g * (2 * i + 1), img_bit(b, g * (h + i)));
        }
    } else {
        /* C = a ‖ b (2N lanes); lo[i] = C[2i], hi[i] = C[2i+1] */
        for (unsigned i = 0; i < n; i++) {
            unsigned k0 = 2 * i, k1 = 2 * i + 1;
            unsigned c0 = k0 < n ? img_bit(a, g * k0) : img_bit(b, g * (k0 - n));
            unsigned c1 = k1 < n ? img_bit(a, g * k1) : img_bit(b, g * (k1 - n));
            img_put(lo, g * i, c0);
            img_put(hi, g * i, c1);
        }
    }
    memcpy(FR(x, in->res[0]), lo, MASK_BYTES);
    memcpy(FR(x, in->res[1]), hi, MASK_BYTES);
    return pred_done(x, in);
}

/* ------------------------------------------------------------------ load / store (Q1, §2.2, §2.3) */

enum { D_NORM, D_US, D_DS, D_PK };
enum { PRED_ALIGN = 8 };   /* isa-notes §4.12 (M): the effective address is 8-byte aligned */

/* Decoded operands of the predicate loads and stores (Instr.imm). */
enum {
    PM_DIST,       /* distribution, D_* */
    PM_UNIT,       /* bytes per offset unit */
    PM_OFF,        /* offset operand index (-1: none) */
    PM_OFF_BITS,   /* width of the offset, for sign extension */
    PM_POST,       /* 1 for a post-update form */
    PM_BASE,       /* base operand index */
    PM_MASK,       /* stores: mask operand index */
    PM_POST_RES,   /* post-update form: index of the pointer result */
};

static void pred_addr(Exec *x, const Instr *in, uint64_t *addr, uint64_t *next)
{
    uint64_t base = ARG(x, in, (unsigned)in->imm[PM_BASE]);
    int64_t off = in->imm[PM_OFF] >= 0 ? bits_sext(ARG(x, in, (unsigned)in->imm[PM_OFF]), in->imm[PM_OFF_BITS]) : 0;
    *next = sim_index_addr(base, off, (uint64_t)in->imm[PM_UNIT]);
    *addr = in->imm[PM_POST] ? base : *next;
}

static const Instr *x_pld(Exec *x, const Instr *in)
{
    uint64_t addr, next;
    pred_addr(x, in, &addr, &next);
    int d = (int)in->imm[PM_DIST];
    unsigned len = d == D_NORM ? 32 : d == D_US ? 16 : 64;
    const uint8_t *m = sim_mem(x, in, AS_UB, addr, len, PRED_ALIGN, ACC_READ, "predicate source");
    if (!m) return NULL;
    uint8_t img[MASK_BYTES];
    if (d == D_NORM) {
        memcpy(img, m, MASK_BYTES);
    } else if (d == D_US) {
        memset(img, 0, sizeof img);
        for (unsigned j = 0; j < 128; j++) {
            unsigned v = img_bit(m, j);
            img_put(img, 2 * j, v);
            img_put(img, 2 * j + 1, v);
        }
    } else {
        memset(img, 0, sizeof img);
        for (unsigned j = 0; j < 256; j++) img_put(img, j, img_bit(m, 2 * j));
    }
    memcpy(FR(x, in->res[0]), img, MASK_BYTES);
    if (in->imm[PM_POST]) fr_set_u64(x, in->res[in->imm[PM_POST_RES]], next);
    sim_count(x, PQ_V, len);
    return pred_done(x, in);
}

static const Instr *x_pst(Exec *x, const Instr *in)
{
    uint64_t addr, next;
    pred_addr(x, in, &addr, &next);
    const uint8_t *img = FR(x, in->arg[in->imm[PM_MASK]]);
    unsigned len = in->imm[PM_DIST] == D_PK ? 16 : 32;
    uint8_t buf[MASK_BYTES];
    if (in->imm[PM_DIST] == D_PK) {
        memset(buf, 0, sizeof buf);
        for (unsigned j = 0; j < 128; j++) img_put(buf, j, img_bit(img, 2 * j));
    } else {
        memcpy(buf, img, MASK_BYTES);
    }
    uint8_t *m = sim_mem(x, in, AS_UB, addr, len, PRED_ALIGN, ACC_WRITE, "predicate destination");
    if (!m) return NULL;
    memcpy(m, buf, len);
    if (in->imm[PM_POST]) fr_set_u64(x, in->res[in->imm[PM_POST_RES]], next);
    sim_count(x, PQ_V, len);
    return pred_done(x, in);
}

/* ------------------------------------------------------------------ pstu and the align carrier (Q45) */

static const Instr *x_init_align(Exec *x, const Instr *in)
{
    AlignState st;
    memset(&st, 0, sizeof st);
    st.init = 1;
    memset(FR(x, in->res[0]), 0, ALIGN_BYTES);
    memcpy(FR(x, in->res[0]), &st, sizeof st);
    return pred_done(x, in);
}

/* %a1, %p1 = pstu %a0, %m, %p0: appends the mask packed 1 bit per logical lane (lane i = image bit g*i,
   LSB first) to the store stream at p0; p1 = p0 + N/8 bytes. */
enum { PU_GRAN };   /* Instr.imm of pstu: g, lane i of the mask is image bit g·i */

static const Instr *x_pstu(Exec *x, const Instr *in)
{
    AlignState st;
    memcpy(&st, FR(x, in->arg[0]), sizeof st);
    if (!st.init) {
        sim_trap(x, in, DIAG_T_ALIGN_STATE, "the !pto.align carrier was never initialised (use pto.init_align)");
        return NULL;
    }
    if (st.load) {
        sim_trap(x, in, DIAG_T_ALIGN_STATE, "the !pto.align carrier belongs to a load stream (pto.vldas); a store "
                 "stream starts at pto.init_align");
        return NULL;
    }
    const uint8_t *img = FR(x, in->arg[1]);
    unsigned g = (unsigned)in->imm[PU_GRAN], n = 256 / g, nbytes = n / 8;
    uint8_t pay[MASK_BYTES];
    memset(pay, 0, sizeof pay);
    for (unsigned i = 0; i < n; i++) img_put(pay, i, img_bit(img, g * i));
    uint64_t p0 = ARG(x, in, 2);
    if (align_append(x, in, &st, p0, pay, nbytes)) return NULL;
    memcpy(FR(x, in->res[0]), &st, sizeof st);
    fr_set_u64(x, in->res[1], p0 + nbytes);
    sim_count(x, PQ_V, nbytes);
    return pred_done(x, in);
}

/* ------------------------------------------------------------------ lowering */

static int dist_of(const Op *op, int is_store)
{
    int t = op_token_id(op, "dist");
    if (is_store) return t == T_PST_PK ? D_PK : D_NORM;
    return t == T_PLD_US ? D_US : t == T_PLD_DS ? D_DS : D_NORM;
}

static int lower_ls(LowerView *L, const Op *op, Instr *in)
{
    int st = op->kind == OP_PSTS || op->kind == OP_PSTI || op->kind == OP_PST || op->kind == OP_PAST;
    int d = dist_of(op, st);
    int64_t unit;
    int offi;
    switch (op->kind) {
    case OP_PLDS: case OP_PSTS: case OP_PALD: case OP_PAST:
        unit = 1;                               /* bytes (Q1); a !pto.vaddr is a byte offset too */
        offi = lw_group_index(L, op, "off", 0);
        break;
    case OP_PLDI: case OP_PSTI:
        unit = (d == D_US || d == D_PK) ? 16 : 32;   /* dist unit (Q1) */
        offi = lw_group_index(L, op, "off", 0);
        break;
    default:                                    /* pld / pst: %areg in 8-byte units (isa-notes §4.12) */
        unit = 8;
        offi = lw_group_index(L, op, "areg", 0);
        break;
    }
    int pi = lw_group_index(L, op, "p", 0);
    if (pi < 0) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' without a base pointer", op_info[op->kind].name);
        return -1;
    }
    in->imm[PM_DIST] = d;
    in->imm[PM_UNIT] = unit;
    in->imm[PM_OFF] = offi;
    /* a !pto.vaddr slot holds the zero-extended 32-bit byte offset: no sign extension */
    const Type *ot = offi >= 0 ? op->operands[offi]->type : NULL;
    in->imm[PM_OFF_BITS] = ot && !ty_is_vaddr(ot) ? ty_bits(ot) : 64;
    in->imm[PM_BASE] = pi;
    in->imm[PM_MASK] = st ? lw_group_index(L, op, "m", 0) : -1;
    /* a post-update form has the extra pointer result: loads %m, %pn; stores %pn */
    unsigned post_res = st ? 0u : 1u;
    in->imm[PM_POST] = op->nresults > post_res && op->kind != OP_PLD && op->kind != OP_PST;
    in->imm[PM_POST_RES] = post_res;
    if (st && in->imm[PM_MASK] < 0) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' without a mask operand", op_info[op->kind].name);
        return -1;
    }
    in->fn = st ? x_pst : x_pld;
    return 0;
}

/* True when the mask value m is a compile-time pattern (pset/pge with a pattern token) that activates every
   lane of elem_bytes-wide elements, i.e. image bit elem_bytes*j is set for every lane j. Masks are SSA values,
   so such a mask is the same at every execution: lowering may then pick the unmasked handler. */
bool pred_all_active(const Value *m, unsigned elem_bytes)
{
    const Op *d = m ? m->def : NULL;
    if (!d || !elem_bytes || elem_bytes > 8) return false;
    switch (d->kind) {
    case OP_PSET_B8: case OP_PSET_B16: case OP_PSET_B32: case OP_PGE_B8: case OP_PGE_B16: case OP_PGE_B32: break;
    default: return false;
    }
    uint8_t img[MASK_BYTES];
    if (pattern_image(op_token_id(d, "pat"), suffix_gran(d->kind), img)) return false;
    for (unsigned b = 0; b < 256; b += elem_bytes)
        if (!((img[b / 8] >> (b % 8)) & 1)) return false;
    return true;
}

int pred_lower(LowerView *L, const Op *op, Instr *in)
{
    switch (op->kind) {
    case OP_INIT_ALIGN:
        in->fn = x_init_align;
        return 0;
    case OP_PSET_B8: case OP_PSET_B16: case OP_PSET_B32: case OP_PGE_B8: case OP_PGE_B16: case OP_PGE_B32: {
        int t = op_token_id(op, "pat");
        uint8_t img[MASK_BYTES];
        if (pattern_image(t, suffix_gran(op->kind), img)) {
            lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' needs a pattern token", op_info[op->kind].name);
            return -1;
        }
        memcpy(PSET_IMAGE(in), img, MASK_BYTES);
        in->fn = x_pset;
        return 0;
    }
    case OP_PLT_B8: case OP_PLT_B16: case OP_PLT_B32: {
        unsigned g = suffix_gran(op->kind);
        in->imm[PL_LANES] = 256 / g;
        in->imm[PL_GRAN] = g;
        in->imm[PL_S0_BITS] = ty_bits(op->operands[0]->type);
        in->imm[PL_S1_BITS] = op->nresults > 1 ? ty_bits(op->results[1]->type) : 64;
        in->fn = x_plt;
        return 0;
    }
    case OP_PAND: case OP_POR: case OP_PXOR:
        in->imm[PG_OP] = op->kind == OP_PAND ? 0 : op->kind == OP_POR ? 1 : 2;
        in->fn = x_plogic;
        return 0;
    case OP_PNOT:
        in->fn = x_pnot;
        return 0;
    case OP_PSEL:
        in->fn = x_psel;
        return 0;
    case OP_PBITCAST:
        in->fn = x_pbitcast;
        return 0;
    case OP_PPACK: case OP_PUNPACK:
        in->imm[PK_UNPACK] = op->kind == OP_PUNPACK;
        in->imm[PK_HIGHER] = op_token_id(op, "half") == T_HALF_HIGHER;
        in->fn = x_ppack;
        return 0;
    case OP_PINTLV_B8: case OP_PINTLV_B16: case OP_PINTLV_B32:
    case OP_PDINTLV_B8: case OP_PDINTLV_B16: case OP_PDINTLV_B32:
        in->imm[PI_DEINTLV] = op->kind == OP_PDINTLV_B8 || op->kind == OP_PDINTLV_B16 || op->kind == OP_PDINTLV_B32;
        in->imm[PI_GRAN] = suffix_gran(op->kind);
        in->fn = x_pintlv;
        return 0;
    case OP_PLDS: case OP_PLDI: case OP_PLD: case OP_PSTS: case OP_PSTI: case OP_PST: case OP_PALD: case OP_PAST:
        return lower_ls(L, op, in);
    case OP_PSTU: {
        const Type *mt = op->operands[1]->type;
        unsigned g = ty_is_mask(mt) ? mt->gran : 0;
        if (g != 1 && g != 2 && g != 4) {
            lw_error(L, op, DIAG_T_UNSUPPORTED, "pto.pstu needs a mask of known granularity");
            return -1;
        }
        in->imm[PU_GRAN] = g;
        in->fn = x_pstu;
        return 0;
    }
    default:
        return 0;   /* pltm_b*: not simulated (the default handler traps T-UNSUPPORTED) */
    }
}
