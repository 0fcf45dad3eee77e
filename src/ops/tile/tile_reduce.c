/* tile_reduce.c — the row and column reductions (trowsum/max/min/prod, trowargmax/min, tcolsum/max/min/prod,
 * tcolargmax/min), the expand family (trowexpand, tcolexpand and their add/sub/mul/div/max/min/expdif forms) and
 * the partial ops (tpartadd/mul/max/min): one V job each, in the order the A5 TileLib templates compute
 * (lib/TileOps/a5/_row_reductions.py, _reductions.py, _row_arg.py, _col_arg.py, _expand_binary.py, _part.py).
 * Every lane is a vector-family lane function (ops/vec/lane.h): a row sum is vcadd's tree over each 256-byte
 * chunk of the row, the chunk sums chained with vadd from +0; a row max is vcmax's per chunk chained with vmax
 * from the template's pad constant; a row product multiplies chunks lane-wise and folds the register with the
 * template's vintlv/vmul ladder. docs/tile.md, docs/semantics.md §14.2. */
#include "tile_int.h"
#include "base/alloc.h"

enum {
    TR_ROWSUM, TR_ROWEXT, TR_ROWPROD, TR_ROWARG, TR_COL, TR_COLARG, TR_ROWEXP, TR_COLEXP, TR_ROWBIN, TR_COLBIN,
    TR_PARTBIN, TR_PARTEXT,
};
/* TileJob.tok for the binary forms: the lane computation */
enum { LB_VOP, LB_EXPDIF, LB_EXPSUB, LB_DIV16 };

/* ------------------------------------------------------------------ element access */

typedef struct Tl {
    uint64_t addr;
    unsigned e;
    int colm;
    int64_t rows, cols;
    AddrSpace as;
} Tl;

static Tl tl_of(const TileJob *j, const uint64_t *args, int i)
{
    const Type *t = j->ty[i];
    TileRt r = tj_tile(j, args, i);
    Tl l = {r.addr, ty_bytes(t->elem), t->blayout == TBL_COL_MAJOR, t->dims[0], (int64_t)tj_row_pitch(j, i),
            (AddrSpace)t->space};
    return l;
}

/* n elements of row r from column c (a row-major tile: one access; n must be 1 for a column-major one). */
static uint8_t *at(Exec *x, const Instr *in, const Tl *t, uint64_t r, uint64_t c, uint64_t n, int mode)
{
    uint64_t off = t->colm ? c * (uint64_t)t->rows + r : r * (uint64_t)t->cols + c;
    return sim_mem(x, in, t->as, t->addr + off * t->e, n * t->e, 1, mode,
                   mode == ACC_WRITE ? "tile destination" : "tile source");
}

#define V(op, k, a, b) valu_eval(VOP_##op, k, a, b, 0)

/* ------------------------------------------------------------------ row reductions */

/* The per-chunk trees of a whole row at once: the row's chunks of `lanes` lanes (absent lanes `fill`) reduced
   pairwise, adjacent lanes first, one level for every chunk in one pass of core calls; a chunk's tree never
   crosses its chunk (widths are powers of two), so out[c] is exactly chunk c's tree. `scr` holds 3 * chunks
   registers. */
static void row_trees(ValuCore core, unsigned e, const uint8_t *row, uint64_t vc, unsigned lanes, uint64_t fill,
                      uint8_t *scr, uint64_t *out)
{
    uint64_t chunks = (vc + lanes - 1) / lanes, n = chunks * lanes;
    uint8_t *buf = scr, *ev = scr + chunks * VREG_BYTES, *od = ev + chunks * VREG_BYTES;
    memcpy(buf, row, vc * e);
    for (uint64_t i = vc; i < n; i++) lane_set(buf, e, (unsigned)i, fill);
    for (unsigned w = lanes; w > 1; w /= 2, n /= 2) {
        uint64_t half = n / 2;
        if (e == 4) {
            const uint32_t *b = (const uint32_t *)(void *)buf;
            uint32_t *a0 = (uint32_t *)(void *)ev, *a1 = (uint32_t *)(void *)od;
            for (uint64_t i = 0; i < half; i++) { a0[i] = b[2 * i]; a1[i] = b[2 * i + 1]; }
        } else if (e == 2) {
            const uint16_t *b = (const uint16_t *)(void *)buf;
            uint16_t *a0 = (uint16_t *)(void *)ev, *a1 = (uint16_t *)(void *)od;
            for (uint64_t i = 0; i < half; i++) { a0[i] = b[2 * i]; a1[i] = b[2 * i + 1]; }
        } else {
            for (uint64_t i = 0; i < half; i++) {
                memcpy(ev + i * e, buf + 2 * i * e, e);
                memcpy(od + i * e, buf + (2 * i + 1) * e, e);
            }
        }
        for (uint64_t r = 0; r * VREG_BYTES < half * e; r++)
            core(buf + r * VREG_BYTES, ev + r * VREG_BYTES, od + r * VREG_BYTES, 0);
    }
    for (uint64_t c = 0; c < chunks; c++) out[c] = lane_get(buf, e, (unsigned)c);
}

/* vcadd over one register: lanes [0, n) of the chunk, absent lanes +0 (lane_tree_sum's tree); integers summed
   exactly and wrapped */
static uint64_t chunk_sum(ElemKind k, const uint8_t *p, unsigned n, unsigned lanes)
{
    uint64_t v[256];
    if (ek_int(k)) {
        uint64_t s = 0;
        for (unsigned i = 0; i < n; i++) s += ek_signed(k) ? (uint64_t)ek_sext(k, lane_get(p, ek_bytes(k), i)) : lane_get(p, ek_bytes(k), i);
        return s & ek_mask(k);
    }
    for (unsigned i = 0; i < lanes; i++) v[i] = i < n ? lane_get(p, ek_bytes(k), i) : 0;
    return lane_tree_sum(k, v, lanes);
}

/* vcmax / vcmin over lanes [0, n): the best value (NaN made canonical) and its lane, the first on ties */
static uint64_t chunk_ext(ElemKind k, const uint8_t *p, unsigned n, int want_max, uint64_t *idx)
{
    uint64_t best = lane_empty_extremum(k, want_max);
    *idx = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t xv = lane_get(p, ek_bytes(k), i);
        if (!i || lane_better(k, xv, best, want_max)) {
            best = xv;
            *idx = i;
        }
    }
    return lane_canon(k, best);
}

/* The product ladder of _row_reductions.py: log2(lanes) times (lhs, rhs) = vintlv(acc, one), acc = lhs * rhs. */
static uint64_t prod_fold(ElemKind k, uint64_t *acc, unsigned lanes)
{
    uint64_t lo[256], hi[256], one = one_of(k);
    for (unsigned step = lanes; step > 1; step /= 2) {
        for (unsigned i = 0; i < lanes / 2; i++) {
            lo[2 * i] = acc[i];
            lo[2 * i + 1] = one;
            hi[2 * i] = acc[lanes / 2 + i];
            hi[2 * i + 1] = one;
        }
        for (unsigned i = 0; i < lanes; i++) acc[i] = V(MUL, k, lo[i], hi[i]);
    }
    return acc[0];
}

static int p_row(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    TileRt s = tj_tile(j, args, j->src0);
    Tl ts = tl_of(j, args, j->src0), td = tl_of(j, args, j->dst);
    const ElemKind k = (ElemKind)j->sek, kd = (ElemKind)j->ek;
    const unsigned lanes = VREG_BYTES / ek_bytes(k);
    const int want_max = j->vop == VOP_MAX;
    ValuCore ext = j->kind == TR_ROWEXT ? valu_core((ValuOp)j->vop, k, false) : NULL;
    uint64_t chunks = (s.vc + lanes - 1) / lanes;
    /* the sums and extrema of whole rows through the vadd / vmax cores (vec.h ValuCore: valu_eval's results), every
       chunk's tree in one pass. A chunk's vcmax value is its best lane (NaN canonical, +0 above -0), which the
       vmax tree of its lanes, absent lanes the empty extremum, also yields; vcadd's is lane_tree_sum's tree. */
    ValuCore tree = j->kind == TR_ROWSUM && !ek_int(k) ? valu_core(VOP_ADD, k, false) : ext;
    uint8_t *scr = tree && chunks ? mem_calloc(chunks, 3 * VREG_BYTES + 8) : NULL;
    uint64_t *part = scr ? (uint64_t *)(void *)(scr + chunks * 3 * VREG_BYTES) : NULL;
    if (tree && chunks && !scr) {
        sim_trap(x, in, DIAG_T_OOM, "out of host memory for a row reduction's scratch");
        return -1;
    }
    for (uint64_t r = 0; r < s.vr; r++) {
        const uint8_t *row = s.vc ? at(x, in, &ts, r, 0, s.vc, ACC_READ) : NULL;
        if (s.vc && !row) { mem_free(scr); return -1; }
        if (scr) {
            row_trees(tree, ek_bytes(k), row, s.vc, lanes, j->kind == TR_ROWSUM ? 0 : lane_empty_extremum(k, want_max),
                      scr, part);
            uint64_t acc = j->kind == TR_ROWSUM ? 0 : j->konst;
            for (uint64_t c = 0; c < chunks; c++) acc = valu_eval((ValuOp)j->vop, k, acc, part[c], 0);
            uint8_t *d = at(x, in, &td, r, 0, 1, ACC_WRITE);
            if (!d) { mem_free(scr); return -1; }
            lane_set(d, ek_bytes(kd), 0, acc & ek_mask(kd));
            continue;
        }
        uint64_t acc = 0, idx_acc = 0, pacc[256];
        if (j->kind == TR_ROWEXT || j->kind == TR_ROWARG) acc = j->konst;
        if (j->kind == TR_ROWPROD)
            for (unsigned i = 0; i < lanes; i++) pacc[i] = one_of(k);
        for (uint64_t c = 0; c < s.vc; c += lanes) {
            unsigned n = (unsigned)(s.vc - c < lanes ? s.vc - c : lanes);
            const uint8_t *p = row + c * ek_bytes(k);
            uint64_t idx;
            switch (j->kind) {
            case TR_ROWSUM: acc = V(ADD, k, acc, chunk_sum(k, p, n, lanes)); break;
            case TR_ROWEXT: acc = valu_eval((ValuOp)j->vop, k, acc, chunk_ext(k, p, n, want_max, &idx), 0); break;
            case TR_ROWPROD:
                for (unsigned i = 0; i < n; i++) pacc[i] = V(MUL, k, pacc[i], lane_get(p, ek_bytes(k), i));
                break;
            default: {   /* TR_ROWARG: a strictly better chunk extremum takes over (vcmp lt / gt) */
                uint64_t v = chunk_ext(k, p, n, want_max, &idx);
                if (lane_cmp(want_max ? T_CMP_LT : T_CMP_GT, k, acc, v)) {
                    acc = v;
                    idx_acc = (idx + c) & 0xFFFFFFFFu;
                }
                break;
            }
            }
        }
        if (j->kind == TR_ROWPROD) acc = prod_fold(k, pacc, lanes);
        if (j->kind == TR_ROWARG) acc = idx_acc;
        uint8_t *d = at(x, in, &td, r, 0, 1, ACC_WRITE);
        if (!d) return -1;
        lane_set(d, ek_bytes(kd), 0, acc & ek_mask(kd));
    }
    mem_free(scr);
    OpKind m[4] = {OP_VLDS, (OpKind)in->imm[0], OP_VADD, OP_VSTS};
    x->extra_cost += tile_vec_cost(x, m, 4, k, k, s.vr * (chunks ? chunks : 1));
    sim_count(x, PQ_V, (uint64_t)s.vr * s.vc * ek_bytes(k));
    return 0;
}

/* ------------------------------------------------------------------ column reductions */

static int p_col(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    TileRt s = tj_tile(j, args, j->src0);
    Tl ts = tl_of(j, args, j->src0), td = tl_of(j, args, j->dst);
    const ElemKind k = (ElemKind)j->sek, kd = (ElemKind)j->ek;
    const unsigned e = ek_bytes(k);
    if (!s.vc || !s.vr) return 0;
    uint8_t *d = at(x, in, &td, 0, 0, s.vc, ACC_WRITE);
    const uint8_t *r0 = at(x, in, &ts, 0, 0, s.vc, ACC_READ);
    if (!d || !r0) return -1;
    uint64_t *best = mem_alloc(s.vc * 2 * sizeof *best);
    if (!best) {
        sim_trap(x, in, DIAG_T_OOM, "out of host memory for a column reduction's scratch");
        return -1;
    }
    uint64_t *idx = best + s.vc;
    /* tcolargmax/min compare in 16 bits for 8-bit sources (the template widens them exactly) */
    ElemKind kc = k;
    if (j->kind == TR_COLARG && e == 1) kc = ek_signed(k) ? EK_S16 : EK_U16;
    for (uint64_t c = 0; c < s.vc; c++) {
        uint64_t v = lane_get(r0, e, (unsigned)c);
        best[c] = kc != k ? lane_cvt(k, kc, v, NUM_RND_R, false) : v;
        idx[c] = 0;
    }
    int want_max = j->vop == VOP_MAX;
    for (uint64_t r = 1; r < s.vr; r++) {
        const uint8_t *p = at(x, in, &ts, r, 0, s.vc, ACC_READ);
        if (!p) { mem_free(best); return -1; }
        for (uint64_t c = 0; c < s.vc; c++) {
            uint64_t v = lane_get(p, e, (unsigned)c);
            if (j->kind == TR_COLARG) {
                if (kc != k) v = lane_cvt(k, kc, v, NUM_RND_R, false);
                if (lane_cmp(want_max ? T_CMP_GT : T_CMP_LT, kc, v, best[c])) idx[c] = r;
                best[c] = valu_eval((ValuOp)j->vop, kc, best[c], v, 0);
            } else {
                best[c] = valu_eval((ValuOp)j->vop, k, best[c], v, 0);
            }
        }
    }
    for (uint64_t c = 0; c < s.vc; c++) {
        uint64_t v = best[c];
        if (j->kind == TR_COLARG)   /* 16-bit index registers for 8- and 16-bit sources, sign-extended to i32 */
            v = e <= 2 ? (uint64_t)(int64_t)(int16_t)(uint16_t)idx[c] : idx[c];
        lane_set(d, ek_bytes(kd), (unsigned)c, v & ek_mask(kd));
    }
    mem_free(best);
    unsigned lanes = VREG_BYTES / e;
    OpKind m[3] = {OP_VLDS, (OpKind)in->imm[0], OP_VSTS};
    x->extra_cost += tile_vec_cost(x, m, 2, k, k, s.vr * ((s.vc + lanes - 1) / lanes));
    sim_count(x, PQ_V, (uint64_t)s.vr * s.vc * e);
    return 0;
}

/* ------------------------------------------------------------------ expands */

static uint64_t bin_lane(const TileJob *j, uint64_t a, uint64_t b)
{
    const ElemKind k = (ElemKind)j->ek;
    switch (j->tok) {
    case LB_EXPDIF: return lane_expdif(k, a, b);
    case LB_EXPSUB: return V(EXP, k, V(SUB, k, a, b), 0);
    case LB_DIV16: {   /* tcolexpanddiv i16: both sides to f32, vdiv, back truncated without saturation */
        uint64_t fa = lane_cvt(EK_S16, EK_F32, a, NUM_RND_R, false), fb = lane_cvt(EK_S16, EK_F32, b, NUM_RND_R, false);
        return lane_cvt(EK_F32, EK_S16, V(DIV, EK_F32, fa, fb), NUM_RND_Z, false);
    }
    default: return valu_eval((ValuOp)j->vop, k, a, b, 0);
    }
}

/* trowexpand / tcolexpand and their binary forms over the destination's valid region: the broadcast operand
   is element (r, 0) (row forms) or (0, c) (column forms) of src (src1 of the binary forms). */
static int p_expand(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    TileRt d = tj_tile(j, args, j->dst);
    int bin = j->kind == TR_ROWBIN || j->kind == TR_COLBIN, row = j->kind == TR_ROWEXP || j->kind == TR_ROWBIN;
    Tl td = tl_of(j, args, j->dst), tb = tl_of(j, args, bin ? j->src1 : j->src0), ta = td;
    if (bin) ta = tl_of(j, args, j->src0);
    const unsigned e = td.e, lanes = VREG_BYTES / e;
    /* whole registers of a plain binary form through the vector family's SIMD core of the same lane function
       (vec.h ValuCore: the same results as valu_eval lane by lane); the tail lane by lane */
    ValuCore core = bin && j->tok == LB_VOP ? valu_core((ValuOp)j->vop, (ElemKind)j->ek, row) : NULL;
    for (uint64_t r = 0; r < d.vr && d.vc; r++) {
        const uint8_t *pa = bin ? at(x, in, &ta, r, 0, d.vc, ACC_READ) : NULL;
        const uint8_t *pb = row ? at(x, in, &tb, r, 0, 1, ACC_READ) : at(x, in, &tb, 0, 0, d.vc, ACC_READ);
        uint8_t *pd = at(x, in, &td, r, 0, d.vc, ACC_WRITE);
        if ((bin && !pa) || !pb || !pd) return -1;
        uint64_t bs = row ? lane_get(pb, e, 0) : 0, c0 = 0;
        if (core)
            for (; c0 + lanes <= d.vc; c0 += lanes) core(pd + c0 * e, pa + c0 * e, row ? NULL : pb + c0 * e, bs);
        if (j->tok == LB_EXPDIF && row) {   /* the softmax step: vexpdif's lane on 32-bit words */
            const double m = (double)num_bits_to_f32((uint32_t)bs);
            for (; c0 < d.vc; c0++) {
                uint32_t a, v;
                memcpy(&a, pa + c0 * 4, 4);
                v = lane_expdif_f32(a, m);
                memcpy(pd + c0 * 4, &v, 4);
            }
        }
        for (uint64_t c = c0; c < d.vc; c++) {
            uint64_t b = row ? bs : lane_get(pb, e, (unsigned)c);
            lane_set(pd, e, (unsigned)c, bin ? bin_lane(j, lane_get(pa, e, (unsigned)c), b) : b);
        }
    }
    OpKind m[5] = {OP_VLDS, OP_VLDS, OP_VDUP, (OpKind)in->imm[0], OP_VSTS};
    x->extra_cost += tile_vec_cost(x, m, 5, (ElemKind)j->ek, (ElemKind)j->ek, d.vr * ((d.vc + lanes - 1) / lanes));
    sim_count(x, PQ_V, (uint64_t)d.vr * d.vc * e);
    return 0;
}

/* ------------------------------------------------------------------ partial ops */

/* _part.py: tpartadd/tpartmul when one source covers the destination's valid region: the other source's region
   holds op(full, part), the rest the full source (neither covers it: the destination is left alone);
   tpartmax/min: the pad constant everywhere, src0's region copied over it, then op(dst, src1) over src1's. */
static int p_part(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    TileRt d = tj_tile(j, args, j->dst), s0 = tj_tile(j, args, j->src0), s1 = tj_tile(j, args, j->src1);
    Tl td = tl_of(j, args, j->dst), t0 = tl_of(j, args, j->src0), t1 = tl_of(j, args, j->src1);
    const ElemKind k = (ElemKind)j->ek;
    const unsigned e = td.e;
    if (j->kind == TR_PARTBIN) {
        int f0 = s0.vr == d.vr && s0.vc == d.vc, f1 = s1.vr == d.vr && s1.vc == d.vc;
        if (!f0 && !f1) return 0;
        const Tl *tf = f0 ? &t0 : &t1, *tp = f0 ? &t1 : &t0;
        TileRt p = f0 ? s1 : s0;
        for (uint64_t r = 0; r < d.vr && d.vc; r++) {
            const uint8_t *pf = at(x, in, tf, r, 0, d.vc, ACC_READ);
            uint64_t pn = r < p.vr ? (p.vc < d.vc ? p.vc : d.vc) : 0;
            const uint8_t *pp = pn ? at(x, in, tp, r, 0, pn, ACC_READ) : NULL;
            uint8_t *pd = at(x, in, &td, r, 0, d.vc, ACC_WRITE);
            if (!pf || (pn && !pp) || !pd) return -1;
            for (uint64_t c = 0; c < d.vc; c++) {
                uint64_t v = lane_get(pf, e, (unsigned)c);
                if (c < pn) v = valu_eval((ValuOp)j->vop, k, v, lane_get(pp, e, (unsigned)c), 0);
                lane_set(pd, e, (unsigned)c, v);
            }
        }
    } else {
        for (uint64_t r = 0; r < d.vr && d.vc; r++) {
            uint64_t n0 = r < s0.vr ? s0.vc : 0, n1 = r < s1.vr ? s1.vc : 0;
            if (n0 > d.vc) n0 = d.vc;
            if (n1 > d.vc) n1 = d.vc;
            const uint8_t *p0 = n0 ? at(x, in, &t0, r, 0, n0, ACC_READ) : NULL;
            const uint8_t *p1 = n1 ? at(x, in, &t1, r, 0, n1, ACC_READ) : NULL;
            uint8_t *pd = at(x, in, &td, r, 0, d.vc, ACC_WRITE);
            if ((n0 && !p0) || (n1 && !p1) || !pd) return -1;
            for (uint64_t c = 0; c < d.vc; c++) {
                uint64_t v = c < n0 ? lane_get(p0, e, (unsigned)c) : j->konst;
                if (c < n1) v = valu_eval((ValuOp)j->vop, k, v, lane_get(p1, e, (unsigned)c), 0);
                lane_set(pd, e, (unsigned)c, v);
            }
        }
    }
    unsigned lanes = VREG_BYTES / e;
    OpKind m[4] = {OP_VLDS, OP_VLDS, (OpKind)in->imm[0], OP_VSTS};
    x->extra_cost += tile_vec_cost(x, m, 4, k, k, d.vr * ((d.vc + lanes - 1) / lanes));
    sim_count(x, PQ_V, (uint64_t)d.vr * d.vc * e);
    return 0;
}

/* Auto-sync footprint: the source and destination tiles whole (a window's rows at its pitch), the destination
   written; the unused tmp tile
   (TileJob.mask holds its operand index here) touches nothing. */
static void foot_rd(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    for (int i = 0; i < j->n; i++) {
        const Type *t = j->ty[i];
        if (t->kind != TY_TILE_BUF || i == j->mask) continue;
        TileRt r = tj_tile(j, args, i);
        /* a window: its rows at the parent's pitch */
        uint64_t n = ((uint64_t)(t->dims[0] - 1) * tj_row_pitch(j, i) + (uint64_t)t->dims[1]) * ty_bytes(t->elem);
        as_add(f, t->space, r.addr, r.addr + n, i == j->dst);
    }
}

/* ------------------------------------------------------------------ lowering */

typedef struct RdRow { uint16_t op; uint8_t kind, vop; uint16_t micro; } RdRow;
static const RdRow rd_rows[] = {
    {OP_TROWSUM, TR_ROWSUM, VOP_ADD, OP_VCADD}, {OP_TROWMAX, TR_ROWEXT, VOP_MAX, OP_VCMAX},
    {OP_TROWMIN, TR_ROWEXT, VOP_MIN, OP_VCMIN}, {OP_TROWPROD, TR_ROWPROD, VOP_MUL, OP_VMUL},
    {OP_TROWARGMAX, TR_ROWARG, VOP_MAX, OP_VCMAX}, {OP_TROWARGMIN, TR_ROWARG, VOP_MIN, OP_VCMIN},
    {OP_TCOLSUM, TR_COL, VOP_ADD, OP_VADD}, {OP_TCOLMAX, TR_COL, VOP_MAX, OP_VMAX}, {OP_TCOLMIN, TR_COL, VOP_MIN, OP_VMIN},
    {OP_TCOLPROD, TR_COL, VOP_MUL, OP_VMUL}, {OP_TCOLARGMAX, TR_COLARG, VOP_MAX, OP_VMAX},
    {OP_TCOLARGMIN, TR_COLARG, VOP_MIN, OP_VMIN},
    {OP_TROWEXPAND, TR_ROWEXP, 0, OP_VDUP}, {OP_TCOLEXPAND, TR_COLEXP, 0, OP_VDUP},
    {OP_TROWEXPANDADD, TR_ROWBIN, VOP_ADD, OP_VADD}, {OP_TROWEXPANDSUB, TR_ROWBIN, VOP_SUB, OP_VSUB},
    {OP_TROWEXPANDMUL, TR_ROWBIN, VOP_MUL, OP_VMUL}, {OP_TROWEXPANDDIV, TR_ROWBIN, VOP_DIV, OP_VDIV},
    {OP_TROWEXPANDMAX, TR_ROWBIN, VOP_MAX, OP_VMAX}, {OP_TROWEXPANDMIN, TR_ROWBIN, VOP_MIN, OP_VMIN},
    {OP_TROWEXPANDEXPDIF, TR_ROWBIN, VOP_SUB, OP_VEXPDIF},
    {OP_TCOLEXPANDADD, TR_COLBIN, VOP_ADD, OP_VADD}, {OP_TCOLEXPANDSUB, TR_COLBIN, VOP_SUB, OP_VSUB},
    {OP_TCOLEXPANDMUL, TR_COLBIN, VOP_MUL, OP_VMUL}, {OP_TCOLEXPANDDIV, TR_COLBIN, VOP_DIV, OP_VDIV},
    {OP_TCOLEXPANDMAX, TR_COLBIN, VOP_MAX, OP_VMAX}, {OP_TCOLEXPANDMIN, TR_COLBIN, VOP_MIN, OP_VMIN},
    {OP_TCOLEXPANDEXPDIF, TR_COLBIN, VOP_SUB, OP_VEXPDIF},
    {OP_TPARTADD, TR_PARTBIN, VOP_ADD, OP_VADD}, {OP_TPARTMUL, TR_PARTBIN, VOP_MUL, OP_VMUL},
    {OP_TPARTMAX, TR_PARTEXT, VOP_MAX, OP_VMAX}, {OP_TPARTMIN, TR_PARTEXT, VOP_MIN, OP_VMIN},
};

int tile_is_reduce(int kind)
{
    for (unsigned i = 0; i < sizeof rd_rows / sizeof rd_rows[0]; i++)
        if (rd_rows[i].op == kind) return 1;
    return 0;
}

int tile_lower_reduce(LowerView *L, const Op *op, Instr *in)
{
    const RdRow *row = NULL;
    for (unsigned i = 0; i < sizeof rd_rows / sizeof rd_rows[0]; i++)
        if (rd_rows[i].op == op->kind) row = &rd_rows[i];
    if (!row) return -1;
    TileJob *j = tile_job(L, op, in);
    if (!j) return -1;
    tile_find_windows(j, op, NULL);
    j->kind = row->kind;
    j->vop = row->vop;
    in->imm[0] = row->micro;
    in->cost = 1;
    j->dst = (int8_t)lw_group_index(L, op, "dst", 0);
    int s0 = lw_group_index(L, op, "src0", 0), s = lw_group_index(L, op, "src", 0);
    j->src0 = (int8_t)(s0 >= 0 ? s0 : s);
    j->src1 = (int8_t)lw_group_index(L, op, "src1", 0);
    j->mask = (int8_t)lw_group_index(L, op, "tmp", 0);
    const Type *dt = op->operands[j->dst]->type, *st = op->operands[j->src0]->type;
    j->ek = (uint8_t)elem_kind(dt->elem);
    j->sek = (uint8_t)elem_kind(st->elem);
    ElemKind k = (ElemKind)j->sek;
    switch (j->kind) {
    case TR_ROWSUM: case TR_ROWPROD: in->pfn = p_row; break;
    case TR_ROWEXT: case TR_ROWARG:
        /* the accumulator starts at the template's pad constant: the lowest finite value for a max */
        j->konst = tile_pad_bits(st, j->vop == VOP_MAX ? TPAD_MIN : TPAD_MAX);
        in->pfn = p_row;
        break;
    case TR_COL: case TR_COLARG: in->pfn = p_col; break;
    case TR_PARTEXT: j->konst = tile_pad_bits(dt, j->vop == VOP_MAX ? TPAD_MIN : TPAD_MAX); in->pfn = p_part; break;
    case TR_PARTBIN: in->pfn = p_part; break;
    default:
        in->pfn = p_expand;
        if (row->micro == OP_VEXPDIF) j->tok = k == EK_F32 ? LB_EXPDIF : LB_EXPSUB;
        else if (op->kind == OP_TCOLEXPANDDIV && k == EK_S16) j->tok = LB_DIV16;
        else j->tok = LB_VOP;
        break;
    }
    in->foot = foot_rd;
    if ((op->kind == OP_TROWEXPANDDIV || op->kind == OP_TCOLEXPANDDIV) && ek_bytes(k) == 1) {
        /* verified (the compiler accepts it on a5) but with no TileLib template and no 8-bit vdiv lane reading */
        lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' on 8-bit tiles is not simulated (no 8-bit division lane; docs/"
                 "semantics.md 14.2)", op_info[op->kind].name);
        return -1;
    }
    if ((ElemKind)j->ek == EK_BAD || k == EK_BAD || ek_bytes(k) == 0) {
        lw_error(L, op, DIAG_V_ELEM_TYPE, "'%s' on tiles of this element type is not simulated", op_info[op->kind].name);
        return -1;
    }
    return 0;
}
