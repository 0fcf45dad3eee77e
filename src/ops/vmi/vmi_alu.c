/* vmi_alu.c — VMI compute: element-wise ops, vector-scalar ops, fused SFU ops, compare and select, index
 * generation, broadcasts, reductions, vmull, interleave, histograms and mask boolean ops. Every lane goes
 * through the vector family's lane functions (ops/vec/lane.h); what VMI adds is the grouping of L logical
 * lanes and how a mask applies (docs/vmi.md, "Semantics"). */
#include "vmi_int.h"

/* ------------------------------------------------------------------ element-wise */

/* Writes lane i of the result: 0 (pmode zero) or the first operand's lane (merge) where the mask is off. */
static void apply_mask(const VmiX *v, uint8_t *out, const uint8_t *m, const uint8_t *src)
{
    if (!m || v->mode == VM_ALL) return;
    uint32_t i0 = 0;   /* leading whole bytes of active lanes need nothing */
    while (i0 / 8 < v->L / 8 && m[i0 / 8] == 0xFF) i0 += 8;
    for (uint32_t i = i0; i < v->L; i++)
        if (!vm_bit(m, i)) lane_set(out, v->e2, i, v->mode == VM_MERGE && src ? lane_get(src, v->e2, i) : 0);
}

/* r = op(a, b | s, c) on every lane of K registers; the mask (if any) applies afterwards (mode). */
static const Instr *x_ew(Exec *x, const Instr *in)
{
    const VmiX *v = VX(in);
    static _Thread_local uint8_t out[VMI_MAX_BYTES];
    const uint8_t *a = vx_op(x, in, v->a);
    const uint8_t *b = v->b >= 0 ? vx_op(x, in, v->b) : NULL;
    const uint8_t *c = v->c >= 0 ? vx_op(x, in, v->c) : NULL;
    uint64_t s = 0;
    if (v->s >= 0) {
        s = vx_scalar(x, in, v->s);
        if (v->s_bits < 64) s &= (1ull << v->s_bits) - 1;
    }
    const ElemKind k = (ElemKind)v->k;
    const unsigned e = v->e, n = VREG_BYTES / e;
    for (uint32_t r = 0; r < v->K; r++) {
        uint8_t *o = out + (size_t)r * VREG_BYTES;
        const uint8_t *ar = a + (size_t)r * VREG_BYTES, *br = b ? b + (size_t)r * VREG_BYTES : NULL;
        if (v->core) {
            v->core(o, ar, br, s);
            continue;
        }
        const uint8_t *cr = c ? c + (size_t)r * VREG_BYTES : NULL;
        for (unsigned i = 0; i < n; i++) {
            uint64_t la = lane_get(ar, e, i);
            uint64_t lb = br ? lane_get(br, e, i) : s;
            uint64_t lc = cr ? lane_get(cr, e, i) : s;
            lane_set(o, e, i, valu_eval((ValuOp)v->vop, k, la, lb, lc));
        }
    }
    apply_mask(v, out, v->m >= 0 ? vx_op(x, in, v->m) : NULL, a);
    memcpy(FR(x, in->res[0]), out, (size_t)v->K * VREG_BYTES);
    return vx_done(x, in, v->K);
}

/* vlrelu / vprelu as the compiler expands them (max(x, 0) + min(x, 0) * slope, each step rounded): the
   slope is the scalar s (vlrelu) or lane b (vprelu). */
static const Instr *x_relu_slope(Exec *x, const Instr *in)
{
    const VmiX *v = VX(in);
    static _Thread_local uint8_t out[VMI_MAX_BYTES];
    const uint8_t *a = vx_op(x, in, v->a), *b = v->b >= 0 ? vx_op(x, in, v->b) : NULL;
    uint64_t s = v->s >= 0 ? vx_scalar(x, in, v->s) & ek_mask((ElemKind)v->k) : 0;
    const ElemKind k = (ElemKind)v->k;
    for (uint32_t i = 0; i < v->K * (VREG_BYTES / v->e); i++) {
        uint64_t xa = lane_get(a, v->e, i), sl = b ? lane_get(b, v->e, i) : s;
        uint64_t pos = valu_eval(VOP_MAX, k, xa, 0, 0), neg = valu_eval(VOP_MIN, k, xa, 0, 0);
        lane_set(out, v->e, i, valu_eval(VOP_ADD, k, pos, valu_eval(VOP_MUL, k, neg, sl, 0), 0));
    }
    apply_mask(v, out, v->m >= 0 ? vx_op(x, in, v->m) : NULL, a);
    memcpy(FR(x, in->res[0]), out, (size_t)v->K * VREG_BYTES);
    return vx_done(x, in, 4 * v->K);
}

/* vexpdif: f32 lane i = exp(x[i] - max[i]). The max vector is f32 whatever x is (the spec), so an f16 x is
   widened (exactly) to f32 and the f32 lane function computes the lane. */
static const Instr *x_expdif(Exec *x, const Instr *in)
{
    const VmiX *v = VX(in);
    static _Thread_local uint8_t out[VMI_MAX_BYTES];
    const uint8_t *a = vx_op(x, in, v->a), *mx = vx_op(x, in, v->b), *m = v->m >= 0 ? vx_op(x, in, v->m) : NULL;
    const ElemKind mk = (ElemKind)v->sub;   /* the max vector's element kind */
    memset(out, 0, (size_t)v->K2 * VREG_BYTES);
    for (uint32_t i = 0; i < v->L; i++) {
        if (m && !vm_bit(m, i)) continue;
        uint64_t xa = lane_get(a, v->e, i), xm = lane_get(mx, ek_bytes(mk), i);
        if (v->k != EK_F32) xa = lane_cvt((ElemKind)v->k, EK_F32, xa, NUM_RND_R, 0);
        if (mk != EK_F32) xm = lane_cvt(mk, EK_F32, xm, NUM_RND_R, 0);
        lane_set(out, 4, i, lane_expdif(EK_F32, xa, xm));
    }
    memcpy(FR(x, in->res[0]), out, (size_t)v->K2 * VREG_BYTES);
    return vx_done(x, in, v->K2);
}

/* vmull: 64-bit products split into low and high 32-bit lanes; inactive lanes are 0. */
static const Instr *x_mull(Exec *x, const Instr *in)
{
    const VmiX *v = VX(in);
    static _Thread_local uint8_t lo[VMI_MAX_BYTES], hi[VMI_MAX_BYTES];
    const uint8_t *a = vx_op(x, in, v->a), *b = vx_op(x, in, v->b), *m = v->m >= 0 ? vx_op(x, in, v->m) : NULL;
    const ElemKind k = (ElemKind)v->k;
    memset(lo, 0, (size_t)v->K * VREG_BYTES);
    memset(hi, 0, (size_t)v->K * VREG_BYTES);
    for (uint32_t i = 0; i < v->L; i++) {
        if (m && !vm_bit(m, i)) continue;
        uint64_t va = lane_get(a, 4, i), vb = lane_get(b, 4, i);
        uint64_t p = ek_signed(k) ? (uint64_t)(ek_sext(k, va) * ek_sext(k, vb)) : va * vb;
        lane_set(lo, 4, i, p);
        lane_set(hi, 4, i, p >> 32);
    }
    memcpy(FR(x, in->res[0]), lo, (size_t)v->K * VREG_BYTES);
    memcpy(FR(x, in->res[1]), hi, (size_t)v->K * VREG_BYTES);
    return vx_done(x, in, v->K);
}

/* ------------------------------------------------------------------ compare and select */

/* vcmp / vcmps: result bit i = seed[i] && a[i] CMP (b[i] | s). Floats compare ordered (a NaN gives 0, "ne"
   included: the compiler maps eq..ge to oeq..oge); integers by the element's signedness. */
static const Instr *x_cmp(Exec *x, const Instr *in)
{
    const VmiX *v = VX(in);
    static _Thread_local uint8_t out[VMI_MAX_BYTES / 8];
    const uint8_t *a = vx_op(x, in, v->a), *b = v->b >= 0 ? vx_op(x, in, v->b) : NULL;
    const uint8_t *seed = v->m >= 0 ? vx_op(x, in, v->m) : NULL;   /* cmpf / cmpi: every lane */
    const ElemKind k = (ElemKind)v->k;
    uint64_t s = v->s >= 0 ? vx_scalar(x, in, v->s) & ek_mask(k) : 0;
    const uint32_t nb = vm_bytes(v->L);
    memset(out, 0, nb);
    for (uint32_t i = 0; i < v->L; i++) {
        if (seed && !vm_bit(seed, i)) continue;
        uint64_t la = lane_get(a, v->e, i), lb = b ? lane_get(b, v->e, i) : s;
        int r;
        if (v->tok == T_CMP_NE && !ek_int(k)) r = lane_cmp(T_CMP_LT, k, la, lb) || lane_cmp(T_CMP_GT, k, la, lb);
        else r = lane_cmp(v->tok, k, la, lb);
        vm_put(out, i, r);
    }
    memcpy(FR(x, in->res[0]), out, nb);
    return vx_done(x, in, v->K);
}

/* vsel: r[i] = m[i] ? a[i] : b[i] (the compiler renames it to its select whatever pmode says). */
static const Instr *x_sel(Exec *x, const Instr *in)
{
    const VmiX *v = VX(in);
    static _Thread_local uint8_t out[VMI_MAX_BYTES];
    const uint8_t *m = vx_op(x, in, v->m), *a = vx_op(x, in, v->a), *b = vx_op(x, in, v->b);
    memcpy(out, b, (size_t)v->K * VREG_BYTES);
    for (uint32_t i = 0; i < v->L; i++)
        if (vm_bit(m, i)) memcpy(out + (size_t)i * v->e, a + (size_t)i * v->e, v->e);
    memcpy(FR(x, in->res[0]), out, (size_t)v->K * VREG_BYTES);
    return vx_done(x, in, v->K);
}

/* vselr: r[i] = a[idx[i] mod L], the index read as unsigned. */
static const Instr *x_selr(Exec *x, const Instr *in)
{
    const VmiX *v = VX(in);
    static _Thread_local uint8_t out[VMI_MAX_BYTES];
    const uint8_t *a = vx_op(x, in, v->a), *idx = vx_op(x, in, v->b);
    memset(out, 0, (size_t)v->K * VREG_BYTES);
    for (uint32_t i = 0; i < v->L; i++) {
        uint64_t j = lane_get(idx, v->e, i) % v->L;
        memcpy(out + (size_t)i * v->e, a + (size_t)j * v->e, v->e);
    }
    memcpy(FR(x, in->res[0]), out, (size_t)v->K * VREG_BYTES);
    return vx_done(x, in, v->K);
}

/* Mask boolean ops (vand/vor/vxor/vnot on masks): bit by bit. */
static const Instr *x_mask_bool(Exec *x, const Instr *in)
{
    const VmiX *v = VX(in);
    static _Thread_local uint8_t out[VMI_MAX_BYTES / 8];
    const uint8_t *a = vx_op(x, in, v->a), *b = v->b >= 0 ? vx_op(x, in, v->b) : NULL;
    const uint32_t nb = vm_bytes(v->L2);
    for (uint32_t i = 0; i < nb; i++) {
        uint8_t r;
        switch ((ValuOp)v->vop) {
        case VOP_AND: r = a[i] & b[i]; break;
        case VOP_OR: r = a[i] | b[i]; break;
        case VOP_XOR: r = a[i] ^ b[i]; break;
        default: r = (uint8_t)~a[i]; break;
        }
        out[i] = r;
    }
    for (uint32_t i = v->L2; i < nb * 8; i++) vm_put(out, i, 0);   /* bits past L stay clear */
    memcpy(FR(x, in->res[0]), out, nb);
    return vx_done(x, in, (v->L2 + 255) / 256);
}

/* ------------------------------------------------------------------ index generation and broadcast */

/* vci: lane i = base +- (i mod S), S = L / groups (the ramp restarts per group). */
static const Instr *x_ci(Exec *x, const Instr *in)
{
    const VmiX *v = VX(in);
    static _Thread_local uint8_t out[VMI_MAX_BYTES];
    const ElemKind k = (ElemKind)v->k2;
    uint64_t base = vx_scalar(x, in, v->s);
    uint32_t S = v->L2 / (v->groups ? v->groups : 1);
    memset(out, 0, (size_t)v->K2 * VREG_BYTES);
    for (uint32_t i = 0; i < v->L2; i++) lane_set(out, v->e2, i, lane_ci(k, base, i % S, v->desc));
    memcpy(FR(x, in->res[0]), out, (size_t)v->K2 * VREG_BYTES);
    return vx_done(x, in, v->K2);
}

/* vbrc: a scalar (s) or a V<1xT> over every lane; grouped: slot g of a V<CxT> over lanes [g*L/C, (g+1)*L/C). */
static const Instr *x_brc(Exec *x, const Instr *in)
{
    const VmiX *v = VX(in);
    static _Thread_local uint8_t out[VMI_MAX_BYTES];
    const unsigned e = v->e2;
    memset(out, 0, (size_t)v->K2 * VREG_BYTES);
    if (v->s >= 0) {
        uint64_t s = vx_scalar(x, in, v->s);
        for (uint32_t i = 0; i < v->L2; i++) lane_set(out, e, i, s);
    } else {
        const uint8_t *a = vx_op(x, in, v->a);
        uint32_t C = v->groups ? v->groups : 1, S = v->L2 / C;
        for (uint32_t g = 0; g < C; g++) {
            uint64_t s = lane_get(a, e, g);
            for (uint32_t i = 0; i < S; i++) lane_set(out, e, g * S + i, s);
        }
    }
    memcpy(FR(x, in->res[0]), out, (size_t)v->K2 * VREG_BYTES);
    return vx_done(x, in, v->K2);
}

/* ------------------------------------------------------------------ reductions */

/* Float sum of the S lanes of one group starting at lane g0, inactive lanes +0, in the compiler's order
   (docs/vmi.md "Reduction order"): the group's units of U bytes (256 when the group is whole registers, else
   32, one VLane) are added lane-wise in order, then the unit is summed by the pairwise tree of vcadd/vcgadd.
   A group that is not a whole number of VLanes is summed by the pairwise tree over its lanes. */
static uint64_t group_fsum(const VmiX *v, const uint8_t *a, const uint8_t *m, uint32_t g0, uint32_t S)
{
    const ElemKind k = (ElemKind)v->k;
    const unsigned e = v->e;
    uint64_t acc[256];
    uint32_t W = S * e, U = W % VREG_BYTES == 0 ? VREG_BYTES : W % 32 == 0 ? 32 : 0;
    if (!U) {
        unsigned n = 1;
        while (n < S) n *= 2;
        for (unsigned i = 0; i < n; i++) acc[i] = i < S && (!m || vm_bit(m, g0 + i)) ? lane_get(a, e, g0 + i) : 0;
        return lane_tree_sum(k, acc, n);
    }
    const unsigned n = U / e;
    for (unsigned i = 0; i < n; i++) acc[i] = !m || vm_bit(m, g0 + i) ? lane_get(a, e, g0 + i) : 0;
    for (uint32_t u = 1; u < W / U; u++)
        for (unsigned i = 0; i < n; i++) {
            uint32_t l = g0 + u * n + i;
            uint64_t x = !m || vm_bit(m, l) ? lane_get(a, e, l) : 0;
            acc[i] = valu_eval(VOP_ADD, k, acc[i], x, 0);
        }
    return lane_tree_sum(k, acc, n);
}

static const Instr *x_red(Exec *x, const Instr *in)
{
    const VmiX *v = VX(in);
    static _Thread_local uint8_t out[VMI_MAX_BYTES];
    const uint8_t *a = vx_op(x, in, v->a), *m = v->m >= 0 ? vx_op(x, in, v->m) : NULL;
    const ElemKind k = (ElemKind)v->k;
    const unsigned e = v->e;
    const uint32_t C = v->groups ? v->groups : 1, S = v->L / C;
    memset(out, 0, (size_t)v->K2 * VREG_BYTES);
    for (uint32_t g = 0; g < C; g++) {
        uint64_t r;
        if (v->vop == VOP_ADD) {
            if (ek_int(k)) {
                uint64_t sum = 0;
                for (uint32_t i = g * S; i < (g + 1) * S; i++)
                    if (!m || vm_bit(m, i)) sum += lane_get(a, e, i);
                r = sum & ek_mask((ElemKind)v->k2);
            } else {
                r = group_fsum(v, a, m, g * S, S);
            }
        } else {
            int want_max = v->vop == VOP_MAX, found = 0;
            uint64_t best = lane_empty_extremum(k, want_max);
            for (uint32_t i = g * S; i < (g + 1) * S; i++) {
                if (m && !vm_bit(m, i)) continue;
                uint64_t xv = lane_get(a, e, i);
                if (!found || lane_better(k, xv, best, want_max)) {
                    best = xv;
                    found = 1;
                }
            }
            r = lane_canon(k, best);
        }
        lane_set(out, v->e2, g, r);
    }
    memcpy(FR(x, in->res[0]), out, (size_t)v->K2 * VREG_BYTES);
    return vx_done(x, in, v->K);
}

/* ------------------------------------------------------------------ rearrangement and histograms */

/* vintlv: lo = a[0] b[0] a[1] b[1] ... (first halves), hi the second halves; vdintlv the inverse: the
   stream a ++ b split into its even lanes (lo) and odd lanes (hi). */
static const Instr *x_intlv(Exec *x, const Instr *in)
{
    const VmiX *v = VX(in);
    static _Thread_local uint8_t lo[VMI_MAX_BYTES], hi[VMI_MAX_BYTES];
    const uint8_t *a = vx_op(x, in, v->a), *b = vx_op(x, in, v->b);
    const unsigned e = v->e;
    const uint32_t L = v->L, H = L / 2;
    memset(lo, 0, (size_t)v->K * VREG_BYTES);
    memset(hi, 0, (size_t)v->K * VREG_BYTES);
    for (uint32_t i = 0; i < L; i++) {
        if (v->sub) {   /* deinterleave: stream lane t = 2i (even), 2i + 1 (odd) */
            uint32_t t0 = 2 * i, t1 = 2 * i + 1;
            lane_set(lo, e, i, t0 < L ? lane_get(a, e, t0) : lane_get(b, e, t0 - L));
            lane_set(hi, e, i, t1 < L ? lane_get(a, e, t1) : lane_get(b, e, t1 - L));
        } else {        /* interleave: result lane i takes a or b lane i / 2 of its half */
            uint32_t j = i / 2;
            const uint8_t *src = i & 1 ? b : a;
            lane_set(lo, e, i, lane_get(src, e, j));
            lane_set(hi, e, i, lane_get(src, e, H + j));
        }
    }
    memcpy(FR(x, in->res[0]), lo, (size_t)v->K * VREG_BYTES);
    memcpy(FR(x, in->res[1]), hi, (size_t)v->K * VREG_BYTES);
    return vx_done(x, in, v->K);
}

/* channel_split (sub = 1): lane i of result k = source lane i·N + k; channel_merge: result lane i·N + k = lane i of
   operand k (N = groups: the results / operands; at most 4, the results an instruction holds). */
static const Instr *x_channel(Exec *x, const Instr *in)
{
    const VmiX *v = VX(in);
    static _Thread_local uint8_t out[VMI_MAX_BYTES];
    const unsigned e = v->e, N = v->groups;
    if (v->sub) {
        const uint8_t *a = vx_op(x, in, v->a);
        const uint32_t C = v->L / N;
        for (unsigned k = 0; k < N; k++) {
            memset(out, 0, (size_t)v->K2 * VREG_BYTES);
            for (uint32_t i = 0; i < C; i++) lane_set(out, e, i, lane_get(a, e, i * N + k));
            memcpy(FR(x, in->res[k]), out, (size_t)v->K2 * VREG_BYTES);
        }
    } else {
        memset(out, 0, (size_t)v->K2 * VREG_BYTES);
        for (unsigned k = 0; k < N; k++) {
            const uint8_t *a = vx_op(x, in, (int)k);
            for (uint32_t i = 0; i < v->L; i++) lane_set(out, e, i * N + k, lane_get(a, e, i));
        }
        memcpy(FR(x, in->res[0]), out, (size_t)v->K2 * VREG_BYTES);
    }
    return vx_done(x, in, N * (v->K > v->K2 ? v->K : v->K2));
}

/* vdhist / vchist: bin counts of the active 8-bit source lanes (as unsigned) added to acc; vchist adds
   the running (cumulative) count. Bins past the result's lanes are dropped; counts wrap at 16 bits. */
static const Instr *x_hist(Exec *x, const Instr *in)
{
    const VmiX *v = VX(in);
    static _Thread_local uint8_t out[VMI_MAX_BYTES];
    const uint8_t *acc = vx_op(x, in, v->a), *src = vx_op(x, in, v->b), *m = vx_op(x, in, v->m);
    const uint32_t srcL = VX(in)->gsize;
    uint32_t cnt[256] = {0};
    for (uint32_t i = 0; i < srcL; i++)
        if (vm_bit(m, i)) cnt[src[i]]++;
    memset(out, 0, (size_t)v->K2 * VREG_BYTES);
    uint32_t run = 0;
    for (uint32_t bin = 0; bin < v->L2 && bin < 256; bin++) {
        run += cnt[bin];
        uint32_t add = v->sub ? run : cnt[bin];
        lane_set(out, 2, bin, (lane_get(acc, 2, bin) + add) & 0xFFFF);
    }
    memcpy(FR(x, in->res[0]), out, (size_t)v->K2 * VREG_BYTES);
    return vx_done(x, in, 2 * v->K);
}

/* ------------------------------------------------------------------ lowering */

static int lower_ew(LowerView *L, const Op *op, Instr *in, VmiX *x, int micro)
{
    int vop = valu_op_of(micro);
    if (vop < 0) return vmi_bad_type(L, op, "an element-wise operation", NULL);
    x->vop = (uint8_t)vop;
    const int fused = op->kind == OP_VMI_VMULA || op->kind == OP_VMI_FMA;
    if (op_vmi_class(op->kind) == VC_INT_S && ek_int((ElemKind)x->k))   /* shrsi: arithmetic, a signless type too */
        x->k = (uint8_t)(x->k & ~1u);
    x->a = (int8_t)vmi_operand(L, op, fused ? "acc" : "a");
    x->b = (int8_t)vmi_operand(L, op, op->kind == OP_VMI_VPRELU ? "alpha" : "b");
    x->s = (int8_t)vmi_operand(L, op, op->kind == OP_VMI_VAXPY ? "alpha" : "s");
    const ElemKind k = (ElemKind)x->k;
    if (k == EK_BAD || !(ek_int(k) || ek_arith_float(k)))
        return vmi_bad_type(L, op, "integer, f16, bf16 or f32 lanes", op->operands[0]->type);
    switch (op->kind) {
    case OP_VMI_VMULA: case OP_VMI_FMA:   /* acc + a*b: the micro vmula's operands are acc, a, b */
        x->b = (int8_t)vmi_operand(L, op, "a");
        x->c = (int8_t)vmi_operand(L, op, "b");
        break;
    case OP_VMI_VAXPY:   /* alpha*a + b: with no c operand the evaluation takes the scalar alpha as c */
        x->c = -1;
        break;
    default: break;
    }
    if (x->s >= 0) {
        const Type *st = op->operands[x->s]->type;
        x->s_bits = (uint8_t)((vop == VOP_SHL || vop == VOP_SHR) ? ty_bits(st) : ek_bits(k));
    }
    /* Element-wise compute ignores its mask (the compiler discards it: docs/vmi.md "Masks and pmode");
       vector-scalar and fused ops apply it, zeroing inactive lanes (or keeping the source's with merge). */
    switch (op->kind) {
    case OP_VMI_VADDS: case OP_VMI_VMULS: case OP_VMI_VMAXS: case OP_VMI_VMINS: case OP_VMI_VSHLS: case OP_VMI_VSHRS:
        break;
    default:
        x->mode = VM_ALL;
        break;
    }
    if (op->kind != OP_VMI_VAXPY && !fused) x->core = valu_core((ValuOp)vop, k, x->s >= 0);
    in->fn = x_ew;
    return 0;
}

int vmi_lower_alu(LowerView *L, const Op *op, Instr *in, VmiX *x)
{
    const int micro = op_vmi_micro(op->kind);
    const Type *rt = op->nresults ? op->results[0]->type : NULL;
    switch (op->kind) {
    case OP_VMI_VAND: case OP_VMI_VOR: case OP_VMI_VXOR: case OP_VMI_VNOT:
    case OP_VMI_MASK_AND: case OP_VMI_MASK_OR: case OP_VMI_MASK_XOR: case OP_VMI_MASK_NOT:
        if (rt && rt->kind == TY_VMI_MASK) {
            x->vop = (uint8_t)valu_op_of(micro);
            x->a = (int8_t)vmi_operand(L, op, "a");
            x->b = (int8_t)vmi_operand(L, op, "b");
            x->L2 = rt->lanes;
            in->fn = x_mask_bool;
            return 0;
        }
        return lower_ew(L, op, in, x, micro);
    case OP_VMI_VLRELU: case OP_VMI_VPRELU:
        if (!ek_arith_float((ElemKind)x->k)) return vmi_bad_type(L, op, "f16, bf16 or f32 lanes", op->operands[0]->type);
        x->a = (int8_t)vmi_operand(L, op, "a");
        x->b = (int8_t)vmi_operand(L, op, "alpha");
        x->s = (int8_t)vmi_operand(L, op, "s");
        x->mode = VM_ALL;
        in->fn = x_relu_slope;
        return 0;
    case OP_VMI_VEXPDIF:
        if (x->k != EK_F16 && x->k != EK_F32) return vmi_bad_type(L, op, "f16 or f32 lanes", op->operands[0]->type);
        x->a = (int8_t)vmi_operand(L, op, "a");
        x->b = (int8_t)vmi_operand(L, op, "b");
        x->sub = (uint8_t)vmi_kind(op->operands[x->b]->type->elem);
        if (x->sub != EK_F16 && x->sub != EK_F32) return vmi_bad_type(L, op, "an f16 or f32 max", op->operands[x->b]->type);
        in->fn = x_expdif;
        return 0;
    case OP_VMI_VMULL:
        x->k = (uint8_t)elem_kind(op->operands[0]->type->elem);   /* signless i32 multiplies as signed (the spec) */
        if (x->e != 4 || !ek_int((ElemKind)x->k)) return vmi_bad_type(L, op, "32-bit integer lanes", op->operands[0]->type);
        x->a = (int8_t)vmi_operand(L, op, "a");
        x->b = (int8_t)vmi_operand(L, op, "b");
        in->fn = x_mull;
        return 0;
    case OP_VMI_VCMP: case OP_VMI_VCMPS: case OP_VMI_CMPF: case OP_VMI_CMPI: {
        static const int16_t map[] = {T_CMP_EQ, T_CMP_NE, T_CMP_LT, T_CMP_LE, T_CMP_GT, T_CMP_GE,
                                      T_CMP_EQ, T_CMP_NE, T_CMP_LT, T_CMP_LE, T_CMP_GT, T_CMP_GE};
        static const int16_t imap[] = {T_CMP_EQ, T_CMP_NE, T_CMP_LT, T_CMP_LE, T_CMP_GT, T_CMP_GE,
                                       T_CMP_LT, T_CMP_LE, T_CMP_GT, T_CMP_GE};
        int t = op_token_id(op, "cmp");
        if (op->kind == OP_VMI_CMPI) {   /* the predicate names the signedness: u* unsigned, s* signed */
            if (t < T_ICMP_EQ || t > T_ICMP_SGE) return vmi_bad_type(L, op, "a compare predicate", NULL);
            x->tok = imap[t - T_ICMP_EQ];
            if (ek_int((ElemKind)x->k) && t >= T_ICMP_ULT)
                x->k = (uint8_t)(t >= T_ICMP_SLT ? x->k & ~1u : x->k | 1u);
        } else {
            if (t < T_VCMP_EQ || t > T_VCMP_OGE) return vmi_bad_type(L, op, "a compare predicate", NULL);
            x->tok = map[t - T_VCMP_EQ];
        }
        x->a = (int8_t)vmi_operand(L, op, "a");
        x->b = (int8_t)vmi_operand(L, op, "b");
        x->s = (int8_t)vmi_operand(L, op, "s");
        x->m = (int8_t)vmi_operand(L, op, "seed");
        if (!(ek_int((ElemKind)x->k) || ek_arith_float((ElemKind)x->k)))
            return vmi_bad_type(L, op, "integer, f16, bf16 or f32 lanes", op->operands[0]->type);
        in->fn = x_cmp;
        return 0;
    }
    case OP_VMI_VSEL: case OP_VMI_SELECT:
        x->a = (int8_t)vmi_operand(L, op, "a");
        x->b = (int8_t)vmi_operand(L, op, "b");
        in->fn = x_sel;
        return 0;
    case OP_VMI_VSELR:
        x->a = (int8_t)vmi_operand(L, op, "a");
        x->b = (int8_t)vmi_operand(L, op, "idx");
        in->fn = x_selr;
        return 0;
    case OP_VMI_VCI: case OP_VMI_IOTA:
        x->s = (int8_t)vmi_operand(L, op, "base");
        x->desc = op_token_id(op, "order") == T_ORDER_DESC;
        x->groups = (uint32_t)(vmi_attr_int(op, "group", 1) > 0 ? vmi_attr_int(op, "group", 1) : 1);
        if (!(ek_int((ElemKind)x->k2) || ek_arith_float((ElemKind)x->k2))) return vmi_bad_type(L, op, "integer or float lanes", rt);
        in->fn = x_ci;
        return 0;
    case OP_VMI_VBRC: case OP_VMI_GROUP_BROADCAST: case OP_VMI_BROADCAST: {
        const Value *src = op->operands[0];
        if (src->type->kind == TY_VMI_VREG) {
            x->a = 0;
            x->groups = src->type->lanes;
        } else {
            x->s = 0;
        }
        in->fn = x_brc;
        return 0;
    }
    case OP_VMI_VCADD: case OP_VMI_VCMAX: case OP_VMI_VCMIN:
    case OP_VMI_GROUP_REDUCE_ADDI: case OP_VMI_GROUP_REDUCE_ADDF: case OP_VMI_GROUP_REDUCE_MAXI:
    case OP_VMI_GROUP_REDUCE_MAXF: case OP_VMI_GROUP_REDUCE_MINI: case OP_VMI_GROUP_REDUCE_MINF:
    case OP_VMI_REDUCE_ADDF: case OP_VMI_REDUCE_ADDI: case OP_VMI_REDUCE_MAXF: case OP_VMI_REDUCE_MINF:
    case OP_VMI_REDUCE_MAXI: case OP_VMI_REDUCE_MINI: {
        int vop = valu_op_of(micro == OP_VCADD ? OP_VADD : micro == OP_VCMAX ? OP_VMAX : OP_VMIN);
        x->vop = (uint8_t)vop;
        x->a = (int8_t)vmi_operand(L, op, "a");
        int64_t C = vmi_attr_int(op, "group", vmi_attr_int(op, "num_groups", 1));
        x->groups = C > 0 ? (uint32_t)C : 1;
        if (!(ek_int((ElemKind)x->k) || ek_arith_float((ElemKind)x->k)))
            return vmi_bad_type(L, op, "integer, f16, bf16 or f32 lanes", op->operands[0]->type);
        in->fn = x_red;
        return 0;
    }
    case OP_VMI_VINTLV: case OP_VMI_VDINTLV:
        x->a = (int8_t)vmi_operand(L, op, "a");
        x->b = (int8_t)vmi_operand(L, op, "b");
        x->sub = op->kind == OP_VMI_VDINTLV;
        in->fn = x_intlv;
        return 0;
    case OP_VMI_CHANNEL_SPLIT: case OP_VMI_CHANNEL_MERGE: {
        int split = op->kind == OP_VMI_CHANNEL_SPLIT;
        uint32_t n = split ? op->nresults : op->noperands;
        if (n < 2 || n > 4) {
            lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' with %u channels is not simulated (2 to 4 are)",
                     op_info[op->kind].name, n);
            return -1;
        }
        x->groups = n;
        x->sub = (uint8_t)split;
        x->a = 0;
        in->fn = x_channel;
        return 0;
    }
    case OP_VMI_VCHIST: case OP_VMI_VDHIST:
        x->a = (int8_t)vmi_operand(L, op, "acc");
        x->b = (int8_t)vmi_operand(L, op, "a");
        x->gsize = op->operands[x->b]->type->lanes;   /* source lanes */
        x->sub = op->kind == OP_VMI_VCHIST;
        in->fn = x_hist;
        return 0;
    default:
        if (micro >= 0 && valu_op_of(micro) >= 0) return lower_ew(L, op, in, x, micro);
        break;
    }
    lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' is not simulated", op_info[op->kind].name);
    return -1;
}
