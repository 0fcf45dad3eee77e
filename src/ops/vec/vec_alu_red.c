/* vec_alu_red.c — reductions (isa-notes §3.2.7; resolutions Q28, §2.6).
 *
 * Float sums use one fixed order: a pairwise tree over lane order, every partial sum rounded to the
 * element type ((x0+x1)+(x2+x3))+... . vcpadd is one level of that tree, vcgadd the levels inside a
 * 32-byte group (VLane), vcadd all levels, so vcadd == the tree over the eight vcgadd results.
 * Inactive lanes enter sums as +0 and are skipped by max/min. Integer sums wrap. */
#include "vec_alu_int.h"

static uint64_t add2(ElemKind k, uint64_t a, uint64_t b) { return valu_eval(VOP_ADD, k, a, b, 0); }

/* In-place pairwise tree over v[0..n) (n a power of two); returns v[0]. */
uint64_t lane_tree_sum(ElemKind k, uint64_t *v, unsigned n)
{
    for (; n > 1; n /= 2)
        for (unsigned i = 0; i < n / 2; i++) v[i] = add2(k, v[2 * i], v[2 * i + 1]);
    return v[0];
}

/* Is x a better extremum than the current best y? NaN beats everything but an earlier NaN; +0 is
   above -0. Ties keep the earlier lane. */
int lane_better(ElemKind k, uint64_t x, uint64_t y, int want_max)
{
    if (ek_int(k)) {
        if (ek_signed(k)) {
            int64_t a = ek_sext(k, x), b = ek_sext(k, y);
            return want_max ? a > b : a < b;
        }
        return want_max ? x > y : x < y;
    }
    double a = fdec(k, x), b = fdec(k, y);
    if (b != b) return 0;
    if (a != a) return 1;
    if (a == b && a == 0) {
        int an = (x & fsignbit(k)) != 0, bn = (y & fsignbit(k)) != 0;
        return want_max ? (bn && !an) : (an && !bn);
    }
    return want_max ? a > b : a < b;
}

/* The value an empty max (min) reduction yields: -inf (+inf) or the integer minimum (maximum). */
uint64_t lane_empty_extremum(ElemKind k, int want_max)
{
    if (ek_int(k)) {
        uint64_t m = ek_mask(k);
        if (ek_signed(k)) return want_max ? (m >> 1) + 1 : m >> 1;
        return want_max ? 0 : m;
    }
    return fenc(k, want_max ? -INFINITY : INFINITY);
}

uint64_t lane_canon(ElemKind k, uint64_t v) { return ek_int(k) || !fisnan(k, v) ? v : num_canonical_nan(ek_fmt(k)); }

/* The generic reduction (RD_*, RS_* of vec_alu_int.h); vec_alu_red_fast.c has the common kinds' fast ones. */
const Instr *valu_x_red(Exec *x, const Instr *in)
{
    const int kind = (int)in->imm[RS_KIND];
    const ElemKind k = (ElemKind)in->imm[RS_SRC], kd = (ElemKind)in->imm[RS_DST];
    const unsigned e = ek_bytes(k), n = VREG_BYTES / e, g = 32 / e;
    const uint8_t *m = in->imm[RS_MASK] >= 0 ? FR(x, in->arg[in->imm[RS_MASK]]) : NULL;
    const uint8_t *a = FR(x, in->arg[0]);
    uint64_t v[256];
    uint8_t out[VREG_BYTES];
    memset(out, 0, sizeof out);
    switch (kind) {
    case RD_ADD:
        if (ek_int(k)) {
            /* integer sum of the active lanes, wrapped to the (possibly wider) result type */
            uint64_t s = 0;
            for (unsigned i = 0; i < n; i++)
                if (mask_on(m, e, i)) s += ek_signed(k) ? (uint64_t)ek_sext(k, lane_get(a, e, i)) : lane_get(a, e, i);
            lane_set(out, ek_bytes(kd), 0, s & ek_mask(kd));
        } else {
            for (unsigned i = 0; i < n; i++) v[i] = mask_on(m, e, i) ? lane_get(a, e, i) : 0;
            lane_set(out, e, 0, lane_tree_sum(k, v, n));
        }
        break;
    case RD_GADD:
        for (unsigned grp = 0; grp < 8; grp++) {
            for (unsigned i = 0; i < g; i++) v[i] = mask_on(m, e, grp * g + i) ? lane_get(a, e, grp * g + i) : 0;
            lane_set(out, e, grp, lane_tree_sum(k, v, g));
        }
        break;
    case RD_PADD:
        for (unsigned i = 0; i < n / 2; i++) {
            uint64_t x0 = mask_on(m, e, 2 * i) ? lane_get(a, e, 2 * i) : 0;
            uint64_t x1 = mask_on(m, e, 2 * i + 1) ? lane_get(a, e, 2 * i + 1) : 0;
            lane_set(out, e, i, add2(k, x0, x1));
        }
        break;
    case RD_MAX: case RD_MIN: {
        int want_max = kind == RD_MAX, found = 0;
        uint64_t best = lane_empty_extremum(k, want_max), idx = 0;
        for (unsigned i = 0; i < n; i++) {
            if (!mask_on(m, e, i)) continue;
            uint64_t xv = lane_get(a, e, i);
            if (!found || lane_better(k, xv, best, want_max)) {
                best = xv;
                idx = i;
                found = 1;
            }
        }
        lane_set(out, e, 0, lane_canon(k, best));
        lane_set(out, e, 1, idx);
        break;
    }
    case RD_GMAX: case RD_GMIN: {
        int want_max = kind == RD_GMAX;
        for (unsigned grp = 0; grp < 8; grp++) {
            int found = 0;
            uint64_t best = lane_empty_extremum(k, want_max);
            for (unsigned i = grp * g; i < (grp + 1) * g; i++) {
                if (!mask_on(m, e, i)) continue;
                uint64_t xv = lane_get(a, e, i);
                if (!found || lane_better(k, xv, best, want_max)) {
                    best = xv;
                    found = 1;
                }
            }
            lane_set(out, e, grp, lane_canon(k, best));
        }
        break;
    }
    }
    memcpy(FR(x, in->res[0]), out, VREG_BYTES);
    return valu_done(x, in);
}

int lower_valu_red(LowerView *L, const Op *op, Instr *in)
{
    ElemKind k = valu_vreg_ek(op->operands[0]);
    ElemKind kd = valu_vreg_ek(op->nresults ? op->results[0] : NULL);
    if (!(ek_int(k) || ek_arith_float(k)))
        return valu_bad_type(L, op, "integer, f16, bf16 or f32 elements", op->operands[0]->type);
    int kind;
    switch (op->kind) {
    case OP_VCADD: kind = RD_ADD; break;
    case OP_VCMAX: kind = RD_MAX; break;
    case OP_VCMIN: kind = RD_MIN; break;
    case OP_VCGADD: kind = RD_GADD; break;
    case OP_VCGMAX: kind = RD_GMAX; break;
    case OP_VCGMIN: kind = RD_GMIN; break;
    default: kind = RD_PADD; break;
    }
    if (kd != k) {
        /* only vcadd widens: 8 -> 16 and 16 -> 32 bit integers of the same signedness */
        int widen = kind == RD_ADD && ek_int(k) && ek_int(kd) && ek_bytes(kd) == 2 * ek_bytes(k) && ek_bytes(k) <= 2 &&
                    ek_signed(k) == ek_signed(kd);
        if (!widen) return valu_bad_type(L, op, "a result of the input type (vcadd: or the double-width integer)",
                                         op->nresults ? op->results[0]->type : NULL);
    }
    in->imm[RS_KIND] = kind;
    in->imm[RS_SRC] = k;
    in->imm[RS_DST] = kd;
    in->imm[RS_MASK] = valu_operand(L, op, "m");
    in->fn = valu_x_red;
    ExecFn f = L->ctx->reference ? NULL : valu_red_fast(kind, k, kd);
    if (f) in->fn = f;
    return 0;
}
