/* tile_quant.c — the quantisation ops, each one V job (docs/tile.md, docs/semantics.md "tquant / tdequant" and
 * "tquant.mx"):
 *   tquant INT8_SYM   dst = s8(x * fp[r, 0])                  x, fp, offset f32; dst si8 / i8
 *   tquant INT8_ASYM  dst = u8(x * fp[r, 0] + offset[r, 0])   dst ui8
 *                     each step one f32 vector lane (vmul, vadd), then the A5 cast chain f32 -> s32 (nearest-even,
 *                     saturating) -> f32 -> f16 -> 8 bits (saturating): one rounding, clamped to the 8-bit range
 *   tdequant          dst = (f32(src) - offset[r, 0]) * scale[r, 0]   src i8 / i16, dst, scale, offset f32
 *   tquant.mx         groups of 32 elements along grpAxis (axis1: within a row, axis0: down a column): the group's
 *                     largest magnitude (max), a shared e8m0 exponent (exp) and its reciprocal power of two
 *                     (scaling) by the OCP or NV rule, then dst = fp8 / fp4(x * scaling) (pto-isa a5 TQuant.hpp)
 *   tmov + tmp        the MX exponent reorder into the cube's ZZ scale layout (pto-isa a5 TMov.hpp ND->ZZ, DN->ZZ)
 * Every lane goes through the shared conversion and arithmetic lanes (lane_cvt, valu_eval). */
#include "tile_int.h"

typedef struct QLine { uint64_t addr; const Type *t; unsigned e; } QLine;

static QLine qline(const TileJob *j, const uint64_t *args, int i)
{
    QLine l = {tj_tile(j, args, i).addr, j->ty[i], ty_bytes(j->ty[i]->elem)};
    return l;
}

/* Element (r, c) of a tile in its block layout (row- or column-major, no boxes). */
static uint8_t *qelem(Exec *x, const Instr *in, const QLine *l, uint64_t r, uint64_t c, uint64_t n, int mode)
{
    uint64_t off = l->t->blayout == TBL_COL_MAJOR ? c * (uint64_t)l->t->dims[0] + r : r * (uint64_t)l->t->dims[1] + c;
    return sim_mem(x, in, (AddrSpace)l->t->space, l->addr + off * l->e, n * l->e, 1, mode,
                   mode == ACC_WRITE ? "tile destination" : "tile source");
}

enum { Q_SCALE, Q_OFFSET };   /* tquant / tdequant: TileJob.aux (tquant's scale is its fp operand) */

/* The per-row coefficient of a row (element (r, 0) of a scale / offset tile). */
static int coef(Exec *x, const Instr *in, const TileJob *j, const uint64_t *args, int i, uint64_t r, uint64_t *v)
{
    if (i < 0) { *v = 0; return 0; }
    QLine l = qline(j, args, i);
    TileRt t = tj_tile(j, args, i);
    if (r >= t.vr || t.vc == 0) {
        sim_trap(x, in, DIAG_T_TILE, "'%s': row %u has no coefficient (the %s tile's valid shape is %ux%u)",
                 in->op ? op_info[in->op->kind].name : "tile op", (unsigned)r, i == j->aux[Q_SCALE] ? "scale" : "offset",
                 (unsigned)t.vr, (unsigned)t.vc);
        return -1;
    }
    const uint8_t *p = qelem(x, in, &l, r, 0, 1, ACC_READ);
    if (!p) return -1;
    *v = lane_get(p, l.e, 0);
    return 0;
}

static void charge(Exec *x, const TileJob *j, const OpKind *m, unsigned n, uint64_t rows, uint64_t cols)
{
    uint64_t lanes = VREG_BYTES / 4;
    x->extra_cost += tile_vec_cost(x, m, n, EK_F32, EK_F32, rows * ((cols + lanes - 1) / lanes));
    sim_count(x, PQ_V, rows * cols * 4);
    (void)j;
}

/* One lane of a per-row quantisation op: v the source lane, sc and of the row's scale and offset. */
typedef uint64_t (*QLaneFn)(const TileJob *j, uint64_t v, uint64_t sc, uint64_t of);

/* The frame tquant and tdequant share: over the destination's valid rows, the row's coefficients (element (r, 0) of
   the scale tile and of the offset tile), then f on each lane of the row. */
static int quant_rows(Exec *x, const Instr *in, const uint64_t *args, QLaneFn f)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    TileRt d = tj_tile(j, args, j->dst);
    QLine ld = qline(j, args, j->dst), ls = qline(j, args, j->src0);
    for (uint64_t r = 0; r < d.vr && d.vc; r++) {
        uint64_t sc, of;
        if (coef(x, in, j, args, j->aux[Q_SCALE], r, &sc) || coef(x, in, j, args, j->aux[Q_OFFSET], r, &of)) return -1;
        const uint8_t *ps = qelem(x, in, &ls, r, 0, d.vc, ACC_READ);
        uint8_t *pd = ps ? qelem(x, in, &ld, r, 0, d.vc, ACC_WRITE) : NULL;
        if (!pd) return -1;
        for (uint64_t c = 0; c < d.vc; c++) lane_set(pd, ld.e, (unsigned)c, f(j, lane_get(ps, ls.e, (unsigned)c), sc, of));
    }
    return 0;
}

/* tquant: src0 the source, scal the fp (scale) tile, mask the offset tile (-1 for INT8_SYM); tok 1 for ASYM. */
static uint64_t lane_quant(const TileJob *j, uint64_t x, uint64_t sc, uint64_t of)
{
    uint64_t v = valu_eval(VOP_MUL, EK_F32, x, sc, 0);
    if (j->tok) v = valu_eval(VOP_ADD, EK_F32, v, of, 0);
    v = lane_cvt(EK_F32, EK_S32, v, NUM_RND_R, true);
    v = lane_cvt(EK_S32, EK_F32, v, NUM_RND_R, false);
    v = lane_cvt(EK_F32, EK_F16, v, NUM_RND_R, true);
    return lane_cvt(EK_F16, j->tok ? EK_U8 : EK_S8, v, NUM_RND_R, true);
}

static int p_quant(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (quant_rows(x, in, args, lane_quant)) return -1;
    TileRt d = tj_tile(j, args, j->dst);
    static const OpKind m_sym[] = {OP_VLDS, OP_VLDS, OP_VMUL, OP_VCVT, OP_VCVT, OP_VCVT, OP_VCVT, OP_VSTS};
    static const OpKind m_asym[] = {OP_VLDS, OP_VLDS, OP_VLDS, OP_VMUL, OP_VADD, OP_VCVT, OP_VCVT, OP_VCVT, OP_VCVT,
                                    OP_VSTS};
    if (j->tok) charge(x, j, m_asym, 10, d.vr, d.vc);
    else charge(x, j, m_sym, 8, d.vr, d.vc);
    return 0;
}

/* tdequant: src0 the i8 / i16 source, scal the scale tile, mask the offset tile. */
static uint64_t lane_dequant(const TileJob *j, uint64_t v, uint64_t sc, uint64_t of)
{
    const ElemKind sk = (ElemKind)j->sek;
    if (sk == EK_S8) {   /* widened to s32, then s32 -> f32 toward zero (exact for 8-bit values) */
        v = lane_cvt(EK_S8, EK_S32, v, NUM_RND_R, false);
        v = lane_cvt(EK_S32, EK_F32, v, NUM_RND_Z, false);
    } else {
        v = lane_cvt(sk, EK_F32, v, NUM_RND_R, false);
    }
    v = valu_eval(VOP_SUB, EK_F32, v, of, 0);
    return valu_eval(VOP_MUL, EK_F32, v, sc, 0);
}

static int p_dequant(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (quant_rows(x, in, args, lane_dequant)) return -1;
    TileRt d = tj_tile(j, args, j->dst);
    static const OpKind m[] = {OP_VLDS, OP_VCVT, OP_VSUB, OP_VMUL, OP_VSTS};
    charge(x, j, m, 5, d.vr, d.vc);
    return 0;
}

/* ------------------------------------------------------------------ tquant.mx */

enum { MX_F32_OCP, MX_F32_NV, MX_B16_OCP, MX_B16_NV };   /* the exponent rule (TileJob.vop) */
enum { MX_EXP, MX_MAX, MX_SCALING };          /* tquant.mx: TileJob.aux */
/* TileJob fields of tquant.mx: src0 src, dst dst, aux exp / max / scaling; kind the group axis (0 / 1), tok 1 for
   MXFP4_E2M1, vop the exponent rule. */

/* The shared exponent (low byte) and the scaling bits of a group whose largest magnitude has bits mx (of the source
   kind sk; pto-isa a5 TQuant.hpp ComputeF32OcpExpAndScaling, ComputeF32NvExpAndScaling,
   ComputeB16OcpExpAndScalingRegs, ComputeB16NvExpAndScalingRegs). */
static void mx_exp(int rule, int fp4, ElemKind sk, uint64_t mx, uint64_t *ex, uint64_t *sc)
{
    if (rule == MX_B16_NV) {   /* the max widened to f32, times f32(1/448) (1/6 for MXFP4), a ceil(log2); the scaling
                                  as bf16 bits */
        uint32_t b = (uint32_t)valu_eval(VOP_MUL, EK_F32, lane_cvt(sk, EK_F32, mx, NUM_RND_R, false),
                                         fp4 ? 0x3E2AAAABu : 0x3B124925u, 0);
        uint32_t e = b >> 23 & 0xFFu, sh = e + ((b & 0x7FFFFFu) && b > 0x00400000u && b < 0x7F000000u);
        uint32_t scb = (0xFEu - sh) << 7;
        if (b == 0x7F800000u) { scb = 0x0040u; sh = 0xFE; }
        else if (b > 0x7F800000u) { scb = fp4 ? 0x7FC0u : 0x7F81u; sh = 0xFF; }
        *ex = sh & 0xFF;
        *sc = scb & 0xFFFFu;
        return;
    }
    if (rule == MX_B16_OCP) {
        uint32_t kmax = fp4 ? 0x0100u : 0x0400u, e = (uint32_t)mx & 0x7F80u, m = (uint32_t)mx & 0x007Fu;
        uint32_t sh = (e <= kmax ? kmax : e) - kmax;
        int nan = e == 0x7F80u && m;
        *ex = nan ? 0xFF : sh >> 7;
        *sc = nan ? (fp4 ? 0x7FC0u : 0x7F81u) : (0x7F00u - sh) & 0xFFFFu;
        return;
    }
    if (rule == MX_F32_NV) mx = valu_eval(VOP_MUL, EK_F32, mx, 0x3B124925u, 0);   /* max * (1/448 as f32) */
    uint32_t e = (uint32_t)(mx >> 23) & 0xFFu, m = (uint32_t)mx & 0x7FFFFFu;
    if (rule == MX_F32_OCP) {
        if (e == 0xFF && m) { *ex = 0xFF; *sc = 0x7FC00000u; }
        else if (e <= 8) { *ex = 0; *sc = 0x7F000000u; }
        else { *ex = e - 8; *sc = (uint64_t)(0xFEu - (e - 8)) << 23; }
        return;
    }
    uint32_t sh = e + ((m && e > 0 && e < 0xFE) || (e == 0 && m > 0x400000u));   /* ceil(log2), powers kept */
    if (e == 0xFF) { *ex = m ? 0xFF : 0xFE; *sc = m ? 0x7FC00000u : 0x00400000u; return; }
    *ex = sh & 0xFF;
    *sc = ((uint64_t)(0xFEu - sh) << 23) & 0xFFFFFFFFu;
}

/* An f32 lane as the 4-bit e2m1 code of pto-isa a5 TQuant.hpp CalcE2M1SignedCodeI32 (the f16 -> MXFP4 path): the
   magnitude rounded to e2m1's grid by adding 2^(e + 22) (e the exponent field clamped to 127..129) in f32, the code
   its bits less the magic's plus 2 (e - 127), at most 7 (6.0); the sign bit set for a negative lane; a NaN +6. */
static uint8_t e2m1_code(uint64_t v)
{
    uint32_t b = (uint32_t)v, a = b & 0x7FFFFFFFu, e = a >> 23;
    e = e < 127 ? 127 : e > 129 ? 129 : e;
    uint32_t magic = (e + 22) << 23;
    uint32_t code = ((uint32_t)valu_eval(VOP_ADD, EK_F32, a, magic, 0) - magic) + ((e - 127) << 1);
    code = code < 7 ? code : 7;
    return (uint8_t)(a > 0x7F800000u || !(b >> 31) ? code : code | 8);
}

/* An f16 lane as the bf16 bits the OCP max reduces (pto-isa a5 TQuant.hpp Fp16ToBf16PreserveSpecial): truncated
   (ROUND_Z), an infinity +inf, a NaN the bf16 quiet NaN 0x7FC0. */
static uint64_t f16_as_bf16(uint64_t v)
{
    uint64_t a = v & 0x7FFFu;
    if ((a & 0x7C00u) == 0x7C00u) return a & 0x3FFu ? 0x7FC0u : 0x7F80u;
    return lane_cvt(EK_F16, EK_BF16, v, NUM_RND_Z, false);
}

/* The flat element block of a per-group output tile (exp, max, scaling: the groups in row-major order). */
static uint8_t *mx_flat(Exec *x, const Instr *in, const TileJob *j, const uint64_t *args, int i, uint64_t n,
                        const char *what)
{
    const Type *t = j->ty[i];
    uint64_t e = ty_bytes(t->elem), cap = (uint64_t)t->dims[0] * (uint64_t)t->dims[1];
    if (n > cap) {
        sim_trap(x, in, DIAG_T_TILE, "'pto.tquant.mx': %llu groups do not fit the %s tile's %lldx%lld elements",
                 (unsigned long long)n, what, (long long)t->dims[0], (long long)t->dims[1]);
        return NULL;
    }
    return sim_mem(x, in, (AddrSpace)t->space, tj_tile(j, args, i).addr, n * e, 1, ACC_WRITE, "tile destination");
}

static int p_quant_mx(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    TileRt s = tj_tile(j, args, j->src0);
    const ElemKind sk = (ElemKind)j->sek;
    const int ax1 = j->kind == 1, fp4 = j->tok;
    if (ax1 ? s.vc % 32 : s.vr % 32) {
        sim_trap(x, in, DIAG_T_TILE, "'pto.tquant.mx' groups 32 elements along axis %d, but the source's valid shape "
                 "is %ux%u", ax1, s.vr, s.vc);
        return -1;
    }
    const uint64_t ng = (uint64_t)s.vr * s.vc / 32, gpr = ax1 ? s.vc / 32 : s.vc;   /* groups, groups per group row */
    QLine ls = qline(j, args, j->src0), ld = qline(j, args, j->dst);
    const unsigned se = ls.e;
    uint8_t *pe = mx_flat(x, in, j, args, j->aux[MX_EXP], ng, "exp");
    uint8_t *pm = pe ? mx_flat(x, in, j, args, j->aux[MX_MAX], ng, "max") : NULL;
    uint8_t *pc = pm ? mx_flat(x, in, j, args, j->aux[MX_SCALING], ng, "scaling") : NULL;
    if (!pc) return -1;
    for (uint64_t g = 0; g < ng; g++) {   /* the group's largest magnitude: vabs + vcmax (f32), abs bits (b16) */
        uint64_t gr = g / gpr, gc = g % gpr, mx = 0;
        for (unsigned i = 0; i < 32; i++) {
            uint64_t r = ax1 ? gr : gr * 32 + i, c = ax1 ? gc * 32 + i : gc;
            const uint8_t *p = qelem(x, in, &ls, r, c, 1, ACC_READ);
            if (!p) return -1;
            uint64_t v = lane_get(p, se, 0);
            if (sk == EK_F32) {
                v = valu_eval(VOP_ABS, EK_F32, v, 0, 0);
                if (i == 0 || lane_better(EK_F32, v, mx, 1)) mx = v;
            } else {
                if (sk == EK_F16 && j->vop == MX_B16_OCP) v = f16_as_bf16(v);   /* OCP reduces f16 as bf16 bits */
                if ((v & 0x7FFFu) > mx) mx = v & 0x7FFFu;
            }
        }
        uint64_t ex, sc;
        mx_exp(j->vop, fp4, sk, mx, &ex, &sc);
        lane_set(pe, 1, (unsigned)g, ex);
        lane_set(pm, se, (unsigned)g, mx);
        lane_set(pc, se, (unsigned)g, sc);
    }
    for (uint64_t r = 0; r < s.vr; r++) {   /* dst = fp8 / fp4(x * scaling), the multiply in the source type */
        const uint8_t *ps = qelem(x, in, &ls, r, 0, s.vc, ACC_READ);
        uint8_t *pd = ps ? qelem(x, in, &ld, r, 0, fp4 ? s.vc / 2 : s.vc, ACC_WRITE) : NULL;
        if (!pd) return -1;
        for (uint64_t c = 0; c < s.vc; c++) {
            uint64_t g = ax1 ? r * gpr + c / 32 : (r / 32) * gpr + c;
            uint64_t x0 = lane_get(ps, se, (unsigned)c), sc = lane_get(pc, se, (unsigned)g);
            /* f16: x and the bf16 scaling widened to f32 and multiplied there (ApplyHalfScalingToFP8Window) */
            uint64_t v = sk == EK_F16 ? valu_eval(VOP_MUL, EK_F32, lane_cvt(EK_F16, EK_F32, x0, NUM_RND_R, false),
                                                  lane_cvt(EK_BF16, EK_F32, sc, NUM_RND_R, false), 0)
                                      : valu_eval(VOP_MUL, sk, x0, sc, 0);
            if (fp4) {
                /* bf16: a NaN product becomes +inf (SaturateBf16NaNToPosInf), then bf16 -> e2m1; f16: the f32 product's
                   code (CalcE2M1SignedCodeI32) */
                if (sk == EK_BF16 && (v & 0x7FFFu) > 0x7F80u) v = 0x7F80u;
                uint64_t nib = sk == EK_F16 ? e2m1_code(v) : lane_cvt(sk, EK_F4E2M1, v, NUM_RND_R, false) & 0xF;
                pd[c / 2] = (uint8_t)(c & 1 ? (pd[c / 2] & 0x0F) | nib << 4 : nib);
            } else {
                if (sk == EK_BF16) v = lane_cvt(sk, EK_F32, v, NUM_RND_R, false);
                pd[c] = (uint8_t)lane_cvt(EK_F32, EK_E4M3, v, NUM_RND_R, true);
            }
        }
    }
    /* per 64 source lanes: vlds, vabs, vcmax x2 (the max), then vmul + vcvt + vsts (the quantisation) */
    static const OpKind m[] = {OP_VLDS, OP_VABS, OP_VCMAX, OP_VCMAX, OP_VLDS, OP_VMUL, OP_VCVT, OP_VSTS};
    uint64_t lanes = VREG_BYTES / se;
    x->extra_cost += tile_vec_cost(x, m, 8, sk, sk, s.vr * ((s.vc + lanes - 1) / lanes));
    sim_count(x, PQ_V, (uint64_t)s.vr * s.vc * se);
    return 0;
}

static void foot_quant_mx(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    tile_foot_whole(j, args, f, 1u << j->dst | 1u << j->aux[MX_EXP] | 1u << j->aux[MX_MAX] | 1u << j->aux[MX_SCALING]);
}

static int lower_quant_mx(LowerView *L, const Op *op, Instr *in)
{
    TileJob *j = tile_job(L, op, in);
    if (!j) return -1;
    j->src0 = (int8_t)lw_group_index(L, op, "src", 0);
    j->dst = (int8_t)lw_group_index(L, op, "dst", 0);
    j->aux[MX_EXP] = (int8_t)lw_group_index(L, op, "exp", 0);
    j->aux[MX_MAX] = (int8_t)lw_group_index(L, op, "max", 0);
    j->aux[MX_SCALING] = (int8_t)lw_group_index(L, op, "scaling", 0);
    if (lw_group_index(L, op, "exp_zz", 0) >= 0 || op_attr(op, "storeMode")) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "'pto.tquant.mx' with exp_zz / storeMode (the deprecated fused form) is not "
                 "simulated; reorder the exponents with pto.tmov and a tmp tile");
        return -1;
    }
    const Attr *ib = op_attr(op, "interleave");
    if (ib && ib->i) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "'pto.tquant.mx' with interleave = true is not simulated");
        return -1;
    }
    const Attr *qt = op_token(op, "quant_type"), *al = op_token(op, "quantScaleAlg"), *ax = op_token(op, "grpAxis");
    j->tok = (int16_t)(qt && qt->s && strcmp(qt->s, "MXFP4_E2M1") == 0);
    int nv = al && al->s && strcmp(al->s, "nv") == 0;
    j->kind = (uint8_t)!(ax && ax->s && strcmp(ax->s, "axis0") == 0);   /* the default: axis1 */
    j->sek = (uint8_t)elem_kind(op->operands[j->src0]->type->elem);
    j->ek = (uint8_t)elem_kind(op->operands[j->dst]->type->elem);
    if (j->sek == EK_F32 && !j->tok) j->vop = nv ? MX_F32_NV : MX_F32_OCP;
    else if (j->sek == EK_BF16 || j->sek == EK_F16) j->vop = nv ? MX_B16_NV : MX_B16_OCP;
    else {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "'pto.tquant.mx' runs f32 sources into MXFP8 and bf16 / f16 sources into "
                 "MXFP8 and MXFP4_E2M1 (ocp and nv); %s into %s%s is not simulated yet", ek_name((ElemKind)j->sek),
                 j->tok ? "MXFP4_E2M1" : "MXFP8", nv ? " (nv)" : "");
        return -1;
    }
    in->pfn = p_quant_mx;
    in->foot = foot_quant_mx;
    in->cost = 1;
    return 0;
}

/* ------------------------------------------------------------------ tmov X -> ZZ (the MX exponent reorder) */

/* src0 the exponent tile (flat, row-major), dst the ZZ destination (flat), src1 the tmp tile; kind the axis.
   axis0 (DN -> ZZ): the source's valid rows M (even) and columns N (a multiple of 16) give
     dst[(cb * M/2 + p) * 32 + 2q + d] = src[(2p + d) * N + 16 cb + q]
   axis1 (ND -> ZZ): the destination's valid rows R and columns C (even) give, with P = C / 2 and the source's rows
   R .. 16 * ceil(R / 16) first zeroed in the source itself,
     dst[((rb * P + p) * 16 + i) * 2 + d] = src[(rb * 16 + i) * C + 2p + d]
   and the tmp tile holds the gather's u16 index table: i * P (16 entries), rb * 16 P + p, then the last row block's
   16 offsets (pto-isa a5 TMov.hpp GenerateB8IndicesZZToUB, GenerateB8IndicesDN2ZZToUB). */
static int p_mx_zz(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    const Type *st = j->ty[(int)j->src0], *dt = j->ty[(int)j->dst], *tt = j->ty[(int)j->src1];
    TileRt s = tj_tile(j, args, j->src0), d = tj_tile(j, args, j->dst), t = tj_tile(j, args, j->src1);
    uint64_t scap = (uint64_t)st->dims[0] * (uint64_t)st->dims[1], dcap = (uint64_t)dt->dims[0] * (uint64_t)dt->dims[1];
    uint64_t tcap = (uint64_t)tt->dims[0] * (uint64_t)tt->dims[1], nsrc, nout;
    if (j->kind == 0) {
        uint64_t M = s.vr, N = s.vc;
        if (M % 2 || N % 16) {
            sim_trap(x, in, DIAG_T_TILE, "'pto.tmov' DN -> ZZ needs an even number of exponent rows and a multiple of "
                     "16 columns; the source's valid shape is %ux%u", s.vr, s.vc);
            return -1;
        }
        nsrc = nout = M * N;
        if (nout > dcap) goto small;
        const uint8_t *ps = sim_mem(x, in, (AddrSpace)st->space, s.addr, nsrc, 1, ACC_READ, "tile source");
        uint8_t *pd = ps ? sim_mem(x, in, (AddrSpace)dt->space, d.addr, nout, 1, ACC_WRITE, "tile destination") : NULL;
        if (!pd) return -1;
        for (uint64_t cb = 0; cb < N / 16; cb++)
            for (uint64_t p = 0; p < M / 2; p++)
                for (uint64_t q = 0; q < 16; q++)
                    for (uint64_t e = 0; e < 2; e++) pd[(cb * (M / 2) + p) * 32 + 2 * q + e] = ps[(2 * p + e) * N + 16 * cb + q];
    } else {
        uint64_t R = d.vr, C = d.vc, P = C / 2, rbc = (R + 15) / 16;
        if (C % 2) {
            sim_trap(x, in, DIAG_T_TILE, "'pto.tmov' ND -> ZZ needs an even number of exponent columns; the "
                     "destination's valid shape is %ux%u", d.vr, d.vc);
            return -1;
        }
        nsrc = rbc * 16 * C;
        nout = rbc * P * 32;
        uint64_t ntmp = (32 + rbc * P) * 2;
        if (nsrc > scap || nout > dcap || ntmp > tcap) goto small;
        if (nsrc > R * C) {   /* the source's padding rows zeroed first */
            uint8_t *pz = sim_mem(x, in, (AddrSpace)st->space, s.addr + R * C, nsrc - R * C, 1, ACC_WRITE,
                                  "tile source padding");
            if (!pz) return -1;
            memset(pz, 0, nsrc - R * C);
        }
        uint8_t *pt = sim_mem(x, in, (AddrSpace)tt->space, t.addr, ntmp, 1, ACC_WRITE, "tmp tile");
        if (!pt) return -1;
        for (uint64_t i = 0; i < 16; i++) lane_set(pt, 2, (unsigned)i, i * P);
        for (uint64_t rb = 0; rb < rbc; rb++)
            for (uint64_t p = 0; p < P; p++) lane_set(pt, 2, (unsigned)(16 + rb * P + p), rb * 16 * P + p);
        for (uint64_t i = 0; i < 16; i++) lane_set(pt, 2, (unsigned)(16 + rbc * P + i), (rbc - 1) * 16 * P + i);
        const uint8_t *ps = sim_mem(x, in, (AddrSpace)st->space, s.addr, nsrc, 1, ACC_READ, "tile source");
        uint8_t *pd = ps ? sim_mem(x, in, (AddrSpace)dt->space, d.addr, nout, 1, ACC_WRITE, "tile destination") : NULL;
        if (!pd) return -1;
        for (uint64_t rb = 0; rb < rbc; rb++)
            for (uint64_t p = 0; p < P; p++)
                for (uint64_t i = 0; i < 16; i++)
                    for (uint64_t e = 0; e < 2; e++) pd[((rb * P + p) * 16 + i) * 2 + e] = ps[(rb * 16 + i) * C + 2 * p + e];
    }
    static const OpKind m[] = {OP_VLDS, OP_VLDS, OP_VINTLV, OP_VSSTB};
    x->extra_cost += tile_vec_cost(x, m, 4, EK_U8, EK_U8, (nout + VREG_BYTES - 1) / VREG_BYTES);
    sim_count(x, PQ_V, nout);
    return 0;
small:
    sim_trap(x, in, DIAG_T_TILE, "'pto.tmov' %s -> ZZ: the source (%llu bytes), destination (%llu) or tmp (%llu) tile "
             "is too small for the reorder", j->kind ? "ND" : "DN", (unsigned long long)scap, (unsigned long long)dcap,
             (unsigned long long)tcap);
    return -1;
}

static void foot_mx_zz(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    tile_foot_whole(j, args, f, 1u << j->dst | 1u << j->src1 | 1u << j->src0);
}

int tile_lower_mx_zz(LowerView *L, const Op *op, Instr *in)
{
    TileJob *j = tile_job(L, op, in);
    if (!j) return -1;
    j->src0 = (int8_t)lw_group_index(L, op, "src", 0);
    j->src1 = (int8_t)lw_group_index(L, op, "tmp", 0);
    j->dst = (int8_t)lw_group_index(L, op, "dst", 0);
    const Attr *ax = op_token(op, "grpAxis");
    j->kind = (uint8_t)!(ax && ax->s && strcmp(ax->s, "axis0") == 0);
    j->ek = j->sek = (uint8_t)elem_kind(op->operands[j->dst]->type->elem);
    for (int i = 0; i < 3; i++) {
        const Type *t = op->operands[i == 0 ? j->src0 : i == 1 ? j->src1 : j->dst]->type;
        if (ty_bytes(t->elem) != 1 || t->space != AS_UB) {
            lw_error(L, op, DIAG_V_ELEM_TYPE, "'pto.tmov' X -> ZZ reorders 8-bit exponent tiles in vec (ui8, f8E8M0, "
                     "hif8)");
            return -1;
        }
    }
    in->pfn = p_mx_zz;
    in->foot = foot_mx_zz;
    in->cost = 1;
    return 0;
}

static void foot_quant(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    tile_foot_whole(j, args, f, 1u << j->dst);
}

int tile_lower_quant(LowerView *L, const Op *op, Instr *in)
{
    if (op->kind == OP_TQUANT_MX) return lower_quant_mx(L, op, in);
    int q = op->kind == OP_TQUANT;
    const char *name = op_info[op->kind].name;
    for (uint32_t i = 0; i < op->noperands; i++) {
        const Type *t = op->operands[i]->type;
        if (t->kind == TY_TILE_BUF && t->slayout != TSL_NONE_BOX) {
            lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' runs on unboxed tiles (slayout=none_box) only", name);
            return -1;
        }
    }
    TileJob *j = tile_job(L, op, in);
    if (!j) return -1;
    in->foot = foot_quant;
    in->cost = 1;
    j->dst = (int8_t)lw_group_index(L, op, "dst", 0);
    j->src0 = (int8_t)lw_group_index(L, op, "src", 0);
    j->aux[Q_SCALE] = (int8_t)lw_group_index(L, op, q ? "fp" : "scale", 0);
    j->aux[Q_OFFSET] = (int8_t)lw_group_index(L, op, "offset", 0);
    const Type *dt = op->operands[j->dst]->type, *st = op->operands[j->src0]->type;
    j->ek = (uint8_t)elem_kind(dt->elem);
    j->sek = (uint8_t)elem_kind(st->elem);
    int bad = 0;
    const Type *ct[2] = {op->operands[j->aux[Q_SCALE]]->type, j->aux[Q_OFFSET] >= 0 ? op->operands[j->aux[Q_OFFSET]]->type : NULL};
    for (int i = 0; i < 2; i++)
        if (ct[i] && elem_kind(ct[i]->elem) != EK_F32) bad = 1;
    if (q) {
        const Attr *a = op_token(op, "quant_type");
        j->tok = (int16_t)(a && a->s && strcmp(a->s, "INT8_ASYM") == 0);
        if (j->sek != EK_F32 || j->ek != (j->tok ? EK_U8 : EK_S8)) bad = 1;
        in->pfn = p_quant;
    } else {
        if (j->ek != EK_F32 || (j->sek != EK_S8 && j->sek != EK_S16)) bad = 1;
        in->pfn = p_dequant;
    }
    if (bad) {
        lw_error(L, op, DIAG_V_ELEM_TYPE, q ? "'%s' runs f32 sources and scale / offset tiles into si8 (INT8_SYM) or "
                 "ui8 (INT8_ASYM) destinations only" : "'%s' runs i8 / i16 sources into f32 destinations with f32 scale "
                 "and offset tiles only", name);
        return -1;
    }
    return 0;
}
