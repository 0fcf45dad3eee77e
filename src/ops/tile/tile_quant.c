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

/* The per-row coefficient of a row (element (r, 0) of a scale / offset tile). */
static int coef(Exec *x, const Instr *in, const TileJob *j, const uint64_t *args, int i, uint64_t r, uint64_t *v)
{
    if (i < 0) { *v = 0; return 0; }
    QLine l = qline(j, args, i);
    TileRt t = tj_tile(j, args, i);
    if (r >= t.vr || t.vc == 0) {
        sim_trap(x, in, DIAG_T_TILE, "'%s': row %u has no coefficient (the %s tile's valid shape is %ux%u)",
                 in->op ? op_info[in->op->kind].name : "tile op", (unsigned)r, i == j->scal ? "scale" : "offset",
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
   the scale tile scal and the offset tile mask), then f on each lane of the row. */
static int quant_rows(Exec *x, const Instr *in, const uint64_t *args, QLaneFn f)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    TileRt d = tj_tile(j, args, j->dst);
    QLine ld = qline(j, args, j->dst), ls = qline(j, args, j->src0);
    for (uint64_t r = 0; r < d.vr && d.vc; r++) {
        uint64_t sc, of;
        if (coef(x, in, j, args, j->scal, r, &sc) || coef(x, in, j, args, j->mask, r, &of)) return -1;
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

static void foot_quant(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    tile_foot_whole(j, args, f, 1u << j->dst);
}

int tile_lower_quant(LowerView *L, const Op *op, Instr *in)
{
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
    j->scal = (int8_t)lw_group_index(L, op, q ? "fp" : "scale", 0);
    j->mask = (int8_t)lw_group_index(L, op, "offset", 0);
    const Type *dt = op->operands[j->dst]->type, *st = op->operands[j->src0]->type;
    j->ek = (uint8_t)elem_kind(dt->elem);
    j->sek = (uint8_t)elem_kind(st->elem);
    int bad = 0;
    const Type *ct[2] = {op->operands[j->scal]->type, j->mask >= 0 ? op->operands[j->mask]->type : NULL};
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
