/* vec_rearr.c — in-register data rearrangement (docs/semantics.md §2.6, resolutions Q8, Q34): interleaves
 * (vintlv, vdintlv and their v2 forms), slides and shifts, squeeze/unsqueeze (which set SPR SQZN), vperm,
 * vpack and vsunpack/vzunpack, with their lowering. */
#include "vec_ls_int.h"
#include <inttypes.h>

int lower_vec_rearr(LowerView *L, const Op *op, Instr *in);

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

int lower_vec_rearr(LowerView *L, const Op *op, Instr *in)
{
    if (op_info[op->kind].flags & F_NOSIM) return 0;   /* parsed and verified; traps T-UNSUPPORTED when executed */
    /* RA_E and the op's parameter */
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
