/* tile_cube.c — the cube tile ops: pto.tmatmul and pto.tgemv with their .acc, .bias and .mx forms, one PIPE_M
 * job each. They are mapped onto the cube family's MAD engine (ops/cube/cube.h cube_mad_exec), the one pto.mad*
 * runs, exactly as the A5 TileLib templates expand them (lib/TileOps/a5/tmatmul*.py, tgemv*.py): m and k are the
 * left tile's valid shape, n the right tile's valid columns; tmatmul runs mad* with disable_gemv, tgemv runs it
 * with m = 1 in GEMV mode (A one contiguous row of k elements); the .mx forms run mad_mx* with sat (tgemv.mx.acc:
 * without), their scale tiles only stand in the syntax (the scales are the MX state of the L0A/L0B data). The
 * .acc forms accumulate into the destination tile (the templates ignore the acc_in operand).
 * docs/tile.md "Cube tile ops", docs/semantics.md §14.5. */
#include "tile_int.h"
#include <inttypes.h>
#include "ops/cube/cube.h"
#include "base/alloc.h"

enum { TC_LHS, TC_RHS, TC_DST, TC_BIAS, TC_GEMV, TC_MAT, TC_LSC, TC_RSC };
/* Instr.imm: operand indices (-1: absent), GEMV, which of lhs (1) and rhs (2) are mat tiles, and the .mx forms'
   lscale / rscale operands when they are e8m0 tiles that hold the scales (else -1: the scales are the MX state the
   micro scale loads attached to the data) */

/* The bytes of the fragment image of R x C MX scales held by an e8m0 tile t (see p_tload_scale): A's [M, G] in a
   row-major tile, B's [G, N] in a column-major one, ⌈rows/16⌉·⌈G/2⌉·32 bytes; a single-row A, its G bytes. */
static uint64_t scale_image_bytes(const Type *t, uint64_t R, uint64_t C)
{
    int b = t->blayout == TBL_COL_MAJOR;
    uint64_t r = b ? C : R, g = b ? R : C;
    return !b && r == 1 ? g : (r + 15) / 16 * ((g + 1) / 2) * 32;
}

/* The MX scales an e8m0 scaling tile holds (a tmov from a mat tile put them there, in the state's order: semantics
   §14.5 "MX scale tiles"), installed as the state of the data tile at l0addr before the MAD. */
static int install_scales(Exec *x, const Instr *in, int side, const Type *st, TileRt s, uint64_t l0addr, uint64_t len)
{
    uint64_t have = scale_image_bytes(st, s.vr, s.vc);
    const uint8_t *p = sim_mem(x, in, (AddrSpace)st->space, s.addr, have, 1, ACC_READ, side ? "rscale" : "lscale");
    return p ? cube_mx_install(x, in, side, l0addr, p, have, len) : -1;
}

/* A mat tile as a tmatmul operand (docs/semantics.md §14.5 "tmatmul on mat tiles"): the L0 bytes `tmov` mat ->
   left (side 0) / right (1) would write, in a host buffer (NULL after a trap). */
static uint8_t *mat_operand(Exec *x, const Instr *in, int side, const Type *t, TileRt r)
{
    unsigned e = ty_bytes(t->elem);
    uint64_t R = side ? r.vc : r.vr, K = side ? r.vr : r.vc;
    uint64_t len = (K + 32 / (e ? e : 1) - 1) / (32 / (e ? e : 1)) * ((R + 15) / 16 * 16) * 32;
    uint8_t *d = mem_alloc(len ? len : 1);
    if (!d) {
        sim_trap(x, in, DIAG_T_OOM, "out of host memory for a mat-tile operand");
        return NULL;
    }
    if (cube_l1_l0_image(x, in, side, side, ek_packed4(elem_kind(t->elem)) ? 0 : e, r.addr, d, R, K)) {
        mem_free(d);
        return NULL;
    }
    return d;
}

static int p_tmatmul(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    const MadExt *me = in->ext2;
    TileRt a = tj_tile(j, args, (int)in->imm[TC_LHS]), b = tj_tile(j, args, (int)in->imm[TC_RHS]);
    TileRt c = tj_tile(j, args, (int)in->imm[TC_DST]);
    if (tile_check_valid(x, in, j->ty[in->imm[TC_LHS]], a, "left") ||
        tile_check_valid(x, in, j->ty[in->imm[TC_RHS]], b, "right") ||
        tile_check_valid(x, in, j->ty[in->imm[TC_DST]], c, "accumulator"))
        return -1;
    uint64_t bias = in->imm[TC_BIAS] >= 0 ? tj_tile(j, args, (int)in->imm[TC_BIAS]).addr : 0;
    uint64_t m = in->imm[TC_GEMV] ? 1 : a.vr;
    if (in->imm[TC_LSC] >= 0 || in->imm[TC_RSC] >= 0) {   /* scales held by e8m0 scale tiles */
        uint64_t G = (a.vc + 31) / 32, G2 = (G + 1) / 2;
        uint64_t la = m == 1 && in->imm[TC_GEMV] ? G : (m + 15) / 16 * 16 * G2 * 2, lb = (b.vc + 15) / 16 * 16 * G2 * 2;
        if ((in->imm[TC_LSC] >= 0 && install_scales(x, in, 0, j->ty[in->imm[TC_LSC]], tj_tile(j, args, (int)in->imm[TC_LSC]),
                                                    a.addr, la)) ||
            (in->imm[TC_RSC] >= 0 && install_scales(x, in, 1, j->ty[in->imm[TC_RSC]], tj_tile(j, args, (int)in->imm[TC_RSC]),
                                                    b.addr, lb)))
            return -1;
    }
    if (!in->imm[TC_MAT]) return cube_mad_exec(x, in, me, a.addr, b.addr, c.addr, bias, m, b.vc, a.vc);
    uint8_t *pa = NULL, *pb = NULL;
    int rc = -1;
    if ((!(in->imm[TC_MAT] & 1) || (pa = mat_operand(x, in, 0, j->ty[in->imm[TC_LHS]], a))) &&
        (!(in->imm[TC_MAT] & 2) || (pb = mat_operand(x, in, 1, j->ty[in->imm[TC_RHS]], b))))
        rc = cube_mad_exec_with(x, in, me, pa, pb, a.addr, b.addr, c.addr, bias, m, b.vc, a.vc);
    mem_free(pa);
    mem_free(pb);
    return rc;
}

/* The left, right and bias tiles read, the destination written (and read by the .acc forms): whole tiles. The
   scale tiles are not touched. */
static void foot_tmatmul(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    for (int k = TC_LHS; k <= TC_RSC; k++) {
        int i = k == TC_GEMV || k == TC_MAT ? -1 : (int)in->imm[k];
        if (i < 0) continue;
        const Type *t = j->ty[i];
        TileRt r = tj_tile(j, args, i);
        uint64_t n = (uint64_t)t->dims[0] * (uint64_t)t->dims[1] * ty_bytes(t->elem);
        if (ek_packed4(elem_kind(t->elem))) n /= 2;
        as_add(f, t->space, r.addr, r.addr + n, k == TC_DST);
    }
}

/* The source tile read and the destination tile written, whole. */
static void foot_mov_cube(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    tile_foot_whole(j, args, f, 1u << j->dst);
}

static int p_unsup(Exec *x, const Instr *in, const uint64_t *args)
{
    (void)args;
    sim_trap(x, in, DIAG_T_UNSUPPORTED, "'%s': %s", op_info[in->kind].name, (const char *)in->ext2);
    return -1;
}

int tile_lower_cube(LowerView *L, const Op *op, Instr *in)
{
    TileJob *j = tile_job(L, op, in);
    if (!j) return -1;
    int k = op->kind;
    int gemv = k == OP_TGEMV || k == OP_TGEMV_ACC || k == OP_TGEMV_BIAS || k == OP_TGEMV_MX || k == OP_TGEMV_MX_ACC ||
               k == OP_TGEMV_MX_BIAS;
    int mx = k == OP_TMATMUL_MX || k == OP_TMATMUL_MX_ACC || k == OP_TMATMUL_MX_BIAS || k == OP_TGEMV_MX ||
             k == OP_TGEMV_MX_ACC || k == OP_TGEMV_MX_BIAS;
    int mode = k == OP_TMATMUL_ACC || k == OP_TMATMUL_MX_ACC || k == OP_TGEMV_ACC || k == OP_TGEMV_MX_ACC ? 1
               : k == OP_TMATMUL_BIAS || k == OP_TMATMUL_MX_BIAS || k == OP_TGEMV_BIAS || k == OP_TGEMV_MX_BIAS ? 2 : 0;
    int sat = mx && k != OP_TGEMV_MX_ACC;   /* the templates' sat = "sat", tgemv.mx.acc's "nosat" */
    in->imm[TC_LHS] = lw_group_index(L, op, "lhs", 0);
    in->imm[TC_RHS] = lw_group_index(L, op, "rhs", 0);
    in->imm[TC_DST] = lw_group_index(L, op, "dst", 0);
    in->imm[TC_BIAS] = lw_group_index(L, op, "bias", 0);
    in->imm[TC_GEMV] = gemv;
    const Type *ta = op->operands[in->imm[TC_LHS]]->type, *tb = op->operands[in->imm[TC_RHS]]->type;
    in->imm[TC_MAT] = (ta->space == AS_L1) | (tb->space == AS_L1) << 1;
    in->imm[TC_LSC] = in->imm[TC_RSC] = -1;
    for (int s = 0; s < 2 && mx; s++) {
        int i = lw_group_index(L, op, s ? "rscale" : "lscale", 0);
        if (i >= 0 && elem_kind(op->operands[i]->type->elem) == EK_E8M0) in->imm[s ? TC_RSC : TC_LSC] = i;
    }
    const Type *tc = op->operands[in->imm[TC_DST]]->type;
    const Type *tbias = in->imm[TC_BIAS] >= 0 ? op->operands[in->imm[TC_BIAS]]->type : NULL;
    const char *why = NULL;
    MadExt *me = cube_mad_plan(L, op, mode, mx, gemv, sat, ta->elem, tb->elem, tc->elem, tbias ? tbias->elem : NULL, &why);
    if (!me) return -1;
    if (!why && in->imm[TC_MAT] && (mx || gemv))
        why = "a mat tile as an operand of the .mx or tgemv forms is not simulated";
    if (why) {   /* a trap when it runs, as pto.mad* does */
        in->ext2 = why;
        in->pfn = p_unsup;
        return 0;
    }
    j->src0 = (int8_t)in->imm[TC_LHS];
    j->src1 = (int8_t)in->imm[TC_RHS];
    j->dst = (int8_t)in->imm[TC_DST];
    in->ext2 = me;
    in->pfn = p_tmatmul;
    in->foot = foot_tmatmul;
    in->cost = 1;
    return 0;
}

/* ---------------------------------------------------------------- tmov / textract from mat (PIPE_MTE1) */

/* The moves out of a mat tile, as the templates expand them (lib/TileOps/a5/tmov2left.py, tmov2right.py,
   tmov2bias.py, tmov2scale.py): mat -> left is mte_l1_l0a(m, k = the source's valid shape), mat -> right
   mte_l1_l0b(k, n) with transpose, mat -> bias mte_l1_bt(len = valid cols, nburst = valid rows), mat -> scaling
   mte_l1_fb(len = valid cols, nburst = valid rows). */
enum { MV1_LEFT, MV1_RIGHT, MV1_BIAS, MV1_SCALE };
enum { TM_KIND = 0, TM_SRC, TM_DST, TM_SFMT, TM_E, TM_ROW, TM_COL, TM_TRANS };   /* Instr.imm */

/* A single-row unboxed mat tile (a GEMV vector) into a left tile: its k elements from column c, as one contiguous
   row at the start of the L0A tile (the layout the GEMV MAD reads: semantics §8.4), the rest of the row's 32-byte
   blocks zero; only the source row's bytes are read. */
static int vector_to_left(Exec *x, const Instr *in, unsigned e, uint64_t src, uint64_t c, uint64_t dst, uint64_t k)
{
    uint64_t c0 = 32 / e, n = (k + c0 - 1) / c0 * 32;
    const uint8_t *ps = sim_mem(x, in, AS_L1, src + c * e, k * e, 1, ACC_READ, "source");
    uint8_t *pd = ps ? sim_mem(x, in, AS_L0A, dst, n, 32, ACC_WRITE, "destination") : NULL;
    if (!pd) return -1;
    memmove(pd, ps, k * e);
    memset(pd + k * e, 0, n - k * e);
    sim_transfer(x, AS_L1, AS_L0A, n);
    return 0;
}

static int p_tmov_mat(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    TileRt s = tj_tile(j, args, (int)in->imm[TM_SRC]), d = tj_tile(j, args, (int)in->imm[TM_DST]);
    if (tile_check_valid(x, in, j->ty[in->imm[TM_SRC]], s, "source") ||
        tile_check_valid(x, in, j->ty[in->imm[TM_DST]], d, "destination"))
        return -1;
    const Type *s0 = j->ty[in->imm[TM_SRC]];
    if (in->imm[TM_KIND] == MV1_LEFT && s0->dims[0] == 1 && s0->slayout == TSL_NONE_BOX && in->imm[TM_E] > 0) {
        uint64_t c = in->imm[TM_ROW] >= 0 ? tj_scalar(j, args, (int)in->imm[TM_COL]) : 0;
        uint64_t k = in->imm[TM_ROW] >= 0 ? d.vc : s.vc;
        if (in->imm[TM_ROW] >= 0 && (tj_scalar(j, args, (int)in->imm[TM_ROW]) != 0 || c + k > (uint64_t)s0->dims[1])) {
            sim_trap(x, in, DIAG_T_TILE, "the 1x%" PRIu64 " window at (%" PRIu64 ", %" PRIu64 ") leaves the 1x%lld source",
                     k, tj_scalar(j, args, (int)in->imm[TM_ROW]), c, (long long)s0->dims[1]);
            return -1;
        }
        return vector_to_left(x, in, (unsigned)in->imm[TM_E], s.addr, c, d.addr, k);
    }
    if (in->imm[TM_ROW] >= 0) {   /* textract: the destination's valid shape from (row, col) of the source */
        uint64_t r = tj_scalar(j, args, (int)in->imm[TM_ROW]), c = tj_scalar(j, args, (int)in->imm[TM_COL]);
        const Type *st = j->ty[in->imm[TM_SRC]];
        uint64_t sr = (uint64_t)st->dims[0], sc = (uint64_t)st->dims[1];
        int zn = (int)in->imm[TM_TRANS], side = in->imm[TM_KIND] == MV1_RIGHT;
        /* left: A's rows are the load's R; right: B's columns are (L0B holds B transposed), and a boxed NZ B is
           the transposed source of the load, a ZN one the plain one (docs/semantics.md §14.5 "textract"). The
           TileLib templates (--tile-op-expand) load a right tile the other way round in both layouts, so that
           B[k][n] = src[row + n][col + k]: the window in the source's own frame. */
        if (side && x->core->sim->tile_op_expand) {
            CubeWin w = {r, c, sr, sc};
            return cube_l1_l0_exec(x, in, 1, zn, (unsigned)in->imm[TM_E], s.addr, d.addr, d.vc, d.vr, &w);
        }
        CubeWin w = side ? (CubeWin){c, r, sc, sr} : (CubeWin){r, c, sr, sc};
        return cube_l1_l0_exec(x, in, side, side ? !zn : zn, (unsigned)in->imm[TM_E], s.addr, d.addr,
                               side ? d.vc : d.vr, side ? d.vr : d.vc, &w);
    }
    switch (in->imm[TM_KIND]) {
    /* the valid region from the mat tile read at its static pitch, as textract (0, 0) does; a ZN mat tile (DN2ZN)
       holds the NZ image of the matrix transposed: as for textract, it is the plain source of a right tile and the
       transposed one of a left tile */
    case MV1_LEFT: {
        const Type *st = j->ty[in->imm[TM_SRC]];
        CubeWin w = {0, 0, (uint64_t)st->dims[0], (uint64_t)st->dims[1]};
        return cube_l1_l0_exec(x, in, 0, (int)in->imm[TM_TRANS], (unsigned)in->imm[TM_E], s.addr, d.addr, s.vr, s.vc, &w);
    }
    case MV1_RIGHT: {
        const Type *st = j->ty[in->imm[TM_SRC]];
        CubeWin w = {0, 0, (uint64_t)st->dims[1], (uint64_t)st->dims[0]};
        return cube_l1_l0_exec(x, in, 1, !in->imm[TM_TRANS], (unsigned)in->imm[TM_E], s.addr, d.addr, s.vc, s.vr, &w);
    }
    case MV1_BIAS: return cube_l1_bt_exec(x, in, (int)in->imm[TM_SFMT], (unsigned)in->imm[TM_E], s.addr, d.addr, s.vc, s.vr, 0, 0);
    default:
        if (in->imm[TM_SFMT] == -2) {   /* MX scales (e8m0): the tile's bytes as they are, L1 -> the scaling buffer */
            uint64_t n = scale_image_bytes(j->ty[in->imm[TM_SRC]], s.vr, s.vc);
            const uint8_t *ps = sim_mem(x, in, AS_L1, s.addr, n, 1, ACC_READ, "source");
            uint8_t *pd = ps ? sim_mem(x, in, AS_FB, d.addr, n, 1, ACC_WRITE, "destination") : NULL;
            if (!pd) return -1;
            memmove(pd, ps, n);
            sim_transfer(x, AS_L1, AS_FB, n);
            return 0;
        }
        if (in->imm[TM_E] == 8) {   /* a2a3 packed quant rows: the row's bytes in mte_l1_fb's 64-byte units, rows packed */
            uint64_t u = (s.vc * 8 + 63) / 64;
            return cube_l1_fb_exec(x, in, s.addr, d.addr, u * s.vr, 1, 0, 0);
        }
        return cube_l1_fb_exec(x, in, s.addr, d.addr, s.vc, s.vr, 0, 0);
    }
}

/* Lowers a tmov whose source is a mat tile; 1 when the op is not one (the caller goes on). */
int tile_lower_cube_mov(LowerView *L, const Op *op, Instr *in)
{
    int si = lw_group_index(L, op, "src", 0), di = lw_group_index(L, op, "dst", 0);
    if (si < 0 || di < 0) return 1;
    const Type *st = op->operands[si]->type, *dt = op->operands[di]->type;
    if (st->kind != TY_TILE_BUF || dt->kind != TY_TILE_BUF || st->space != AS_L1 || op->kind == OP_TINSERT) return 1;
    int kind = dt->space == AS_L0A ? MV1_LEFT : dt->space == AS_L0B ? MV1_RIGHT : dt->space == AS_BT ? MV1_BIAS
             : dt->space == AS_FB ? MV1_SCALE : -1;
    if (kind < 0 || (op->kind == OP_TEXTRACT && kind > MV1_RIGHT)) return 1;
    TileJob *j = tile_job(L, op, in);
    if (!j) return -1;
    j->src0 = (int8_t)si;
    j->dst = (int8_t)di;
    ElemKind ek = elem_kind(st->elem);
    in->imm[TM_KIND] = kind;
    in->imm[TM_SRC] = si;
    in->imm[TM_DST] = di;
    in->imm[TM_SFMT] = ek == EK_E8M0 && kind == MV1_SCALE ? -2 : ek_float(ek) ? (int64_t)ek_fmt(ek) : -1;
    in->imm[TM_E] = ek_bytes(ek);
    /* textract (lib/TileOps/a5/textract.py): mte_l1_l0a/b(m, k / k, n = the destination's valid shape, start_row,
       start_col), transposing when the mat tile is boxed row_major / col_major (the "cross-fractal" layout) */
    in->imm[TM_ROW] = op->kind == OP_TEXTRACT ? lw_group_index(L, op, "row", 0) : -1;
    in->imm[TM_COL] = op->kind == OP_TEXTRACT ? lw_group_index(L, op, "col", 0) : -1;
    in->imm[TM_TRANS] = st->blayout == TBL_ROW_MAJOR && st->slayout == TSL_COL_MAJOR;
    in->pipe = PQ_MTE1;
    in->pfn = p_tmov_mat;
    in->foot = foot_mov_cube;
    in->cost = 1;
    /* 8-byte elements: only into a scaling tile (the a2a3 FIXPIPE quant vector, packed ui64; a byte copy) */
    if (ek_packed4(ek) || !ek_bytes(ek) || (ek_bytes(ek) > 4 && kind != MV1_SCALE)) {
        in->ext2 = "this element type is not simulated for moves out of a mat tile";
        in->pfn = p_unsup;
    }
    return 0;
}

/* ---------------------------------------------------------------- out of an acc tile (PIPE_FIX) */

/* tmov acc -> vec / mat (lib/TileOps/a5/tmov2vec.py: mte_l0c_ub(m, n = the destination's valid shape, src_stride
   = the acc tile's rows, dst_stride = the destination's columns)) and tstore acc -> GM (tstore.py
   template_tstore_acc_to_gm_nz2nd: m, n = the acc tile's valid shape, dst_stride = the view's row stride). The
   destination layout follows the destination: row-major ND, column-major DN, boxed NZ. */
/* Instr.imm; TF_SS: the source stride (rows); TF_PRE: the pre-quantisation scalar's operand, or -1 */
enum { TF_SRC = 0, TF_DST, TF_MODE, TF_ROW, TF_COL, TF_FP, TF_SS, TF_PRE };

/* The rows of the acc tile a (chain of) pto.subview window(s) of an acc tile lies in: the FIXPIPE source stride
   of a writeback from the window (tile_view.c places an acc window at its NZ element address). */
static int64_t acc_root_rows(const Value *v)
{
    for (int depth = 0; depth < 64 && v->def && v->def->kind == OP_SUBVIEW && v->def->noperands &&
                        v->def->operands[0]->type->kind == TY_TILE_BUF && v->def->operands[0]->type->space == AS_L0C;
         depth++)
        v = v->def->operands[0];
    return v->type->dims[0];
}
enum { FM_MOV, FM_STORE, FM_INS_MAT, FM_INS_ND, FM_INS_NZ };   /* TF_MODE */

/* The QUANT_PRE word of a pre-quantisation scalar (pto-isa cpu/common.hpp quantize_element, the reference of its
   fields): the f32 scale in bits 31..0, taken exactly; for an 8-bit integer destination an offset in bits 45..37,
   added before rounding, and the signedness in bit 46. ptosim takes the signedness from the destination type and
   does not add an offset, so a word that sets the offset, or a sign bit that contradicts the destination, traps
   T-UNSUPPORTED (docs/semantics.md §14.5 "The pre-quantisation scalar"). */
static int pre_scalar(Exec *x, const Instr *in, const Type *dt, uint64_t q, uint64_t *qp)
{
    const Type *e = ty_is_view(dt) || dt->kind == TY_TILE_BUF ? dt->elem : dt;
    ElemKind k = elem_kind(e);
    if (k == EK_S8 || k == EK_U8) {
        uint64_t off = q >> 37 & 0x1FF, sgn = q >> 46 & 1;
        if (off) {
            sim_trap(x, in, DIAG_T_UNSUPPORTED, "the pre-quantisation scalar 0x%016" PRIx64 " sets the 8-bit offset field "
                     "(bits 45..37 = %" PRIu64 "), which is not simulated", q, off);
            return -1;
        }
        if (sgn != (k == EK_S8)) {
            sim_trap(x, in, DIAG_T_UNSUPPORTED, "the pre-quantisation scalar 0x%016" PRIx64 " says %s (bit 46 = %" PRIu64
                     ") but the destination is %s", q, sgn ? "signed" : "unsigned", sgn, k == EK_S8 ? "si8" : "ui8");
            return -1;
        }
    }
    *qp = q & 0xFFFFFFFFu;
    return 0;
}

/* tinsert acc -> mat / vec (lib/TileOps/a5/tinsert.py template_tinsert_acc_to_mat_basic, _acc_to_vec_nd_basic,
   _acc_to_vec_nz_basic): the acc tile's valid rows, its valid columns rounded up to the destination's C0 (32 bytes;
   16 columns for an f32 NZ vec destination), written at (row, col) of the destination: NZ at
   (col / C0)·rows·C0 + row·C0 + col % C0 elements, ND at row·cols + col. Source stride: the acc tile's rows (NZ
   mat) or its valid rows rounded up to 16 (vec). */
static int p_fix_out(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    const FixExt *fe = in->ext2;
    const Type *st = j->ty[in->imm[TF_SRC]], *dt = j->ty[in->imm[TF_DST]];
    TileRt s = tj_tile(j, args, (int)in->imm[TF_SRC]);
    if (tile_check_valid(x, in, st, s, "source")) return -1;
    int mode = (int)in->imm[TF_MODE];
    uint64_t qp = in->imm[TF_FP] >= 0 ? tj_tile(j, args, (int)in->imm[TF_FP]).addr : 0;
    if (in->imm[TF_PRE] >= 0 && pre_scalar(x, in, dt, tj_scalar(j, args, (int)in->imm[TF_PRE]), &qp)) return -1;
    if (mode == FM_STORE) {
        ViewRt v = tj_view(j, args, (int)in->imm[TF_DST]);
        int64_t ds = dt->rank >= 2 ? v.stride[dt->rank - 2] : (int64_t)s.vc;
        return cube_fix_exec(x, in, fe, s.addr, v.addr, s.vr, s.vc, (uint64_t)in->imm[TF_SS], (uint64_t)ds, 0, qp);
    }
    TileRt d = tj_tile(j, args, (int)in->imm[TF_DST]);
    if (tile_check_valid(x, in, dt, d, "destination")) return -1;
    uint64_t e = ty_bytes(dt->elem), rows = (uint64_t)dt->dims[0], cols = (uint64_t)dt->dims[1];
    if (mode == FM_MOV) {   /* dst_stride: the destination's columns (rows for a DN tile), as the templates pass */
        uint64_t ds = dt->blayout == TBL_COL_MAJOR && dt->slayout == TSL_NONE_BOX ? rows : cols;
        return cube_fix_exec(x, in, fe, s.addr, d.addr, d.vr, d.vc, (uint64_t)in->imm[TF_SS], ds, 0, qp);
    }
    uint64_t r = tj_scalar(j, args, (int)in->imm[TF_ROW]), c = tj_scalar(j, args, (int)in->imm[TF_COL]);
    uint64_t c0 = 32 / e, al = mode == FM_INS_NZ && e == 4 ? 16 : c0, n = (s.vc + al - 1) / al * al;
    if (r >= rows || c >= cols) {
        sim_trap(x, in, DIAG_T_TILE, "the insert position (%llu, %llu) lies outside the %llux%llu destination tile",
                 (unsigned long long)r, (unsigned long long)c, (unsigned long long)rows, (unsigned long long)cols);
        return -1;
    }
    if (mode == FM_INS_ND)
        return cube_fix_exec(x, in, fe, s.addr, d.addr + (r * cols + c) * e, s.vr, n, (s.vr + 15) / 16 * 16, cols, 0, qp);
    uint64_t off = (c / c0) * rows * c0 + r * c0 + c % c0;
    return cube_fix_exec(x, in, fe, s.addr, d.addr + off * e, s.vr, n,
                         mode == FM_INS_MAT ? (uint64_t)st->dims[0] : (s.vr + 15) / 16 * 16, rows, 0, qp);
}

/* The acc tile read whole; the destination tile written whole, or the view's rows of the store. */
static void foot_fix_out(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    if (in->imm[TF_MODE] != FM_STORE) {
        tile_foot_whole(j, args, f, 1u << j->dst);
        return;
    }
    const Type *st = j->ty[in->imm[TF_SRC]], *dt = j->ty[in->imm[TF_DST]];
    TileRt s = tj_tile(j, args, (int)in->imm[TF_SRC]);
    ViewRt v = tj_view(j, args, (int)in->imm[TF_DST]);
    as_add(f, st->space, s.addr, s.addr + (uint64_t)in->imm[TF_SS] * (uint64_t)st->dims[1] * 4, 0);
    int64_t ds = dt->rank >= 2 ? v.stride[dt->rank - 2] : (int64_t)s.vc;
    uint64_t e = ty_bytes(dt->elem);
    if (s.vr && s.vc) as_add(f, AS_GM, v.addr, v.addr + ((s.vr - 1) * (uint64_t)ds + s.vc) * e, 1);
}

/* Lowers tmov acc -> vec/mat and tstore acc -> GM; 1 when the op is neither. */
int tile_lower_cube_fix(LowerView *L, const Op *op, Instr *in)
{
    int store = op->kind == OP_TSTORE;
    if (op->kind != OP_TMOV && op->kind != OP_TINSERT && op->kind != OP_TEXTRACT && !store) return 1;
    int si = lw_group_index(L, op, "src", 0), di = lw_group_index(L, op, "dst", 0);
    if (si < 0 || di < 0) return 1;
    const Type *st = op->operands[si]->type, *dt = op->operands[di]->type;
    if (st->kind != TY_TILE_BUF || st->space != AS_L0C) return 1;
    int space, layout, mode;
    if (store) {
        if (!ty_is_view(dt)) return 1;
        space = AS_GM;
        layout = CUBE_FIX_ND;
        mode = FM_STORE;
    } else {
        if (dt->kind != TY_TILE_BUF || (dt->space != AS_UB && dt->space != AS_L1)) return 1;
        space = dt->space;
        int nd = dt->slayout == TSL_NONE_BOX;
        layout = nd ? (dt->blayout == TBL_COL_MAJOR ? CUBE_FIX_DN : CUBE_FIX_ND) : CUBE_FIX_NZ;
        mode = FM_MOV;
        if (op->kind == OP_TEXTRACT && dt->space != AS_L1) return 1;   /* textract acc -> mat (textract_fp.py) */
        if (op->kind == OP_TINSERT) {
            mode = dt->space == AS_L1 ? FM_INS_MAT : nd ? FM_INS_ND : FM_INS_NZ;
            if (mode == FM_INS_NZ) layout = CUBE_FIX_NZNZ;
            if (nd && dt->blayout != TBL_ROW_MAJOR) return 1;
        }
    }
    TileJob *j = tile_job(L, op, in);
    if (!j) return -1;
    j->src0 = (int8_t)si;
    j->dst = (int8_t)di;
    const char *why = NULL;
    int fpi = lw_group_index(L, op, op->kind == OP_TMOV ? "tmp" : "fp", 0);
    FixExt *fe = cube_fix_plan(L, op, space, layout, st->elem, dt->elem, fpi >= 0, &why);
    if (!fe) return -1;
    /* the pre-quantisation scalar: FIXPIPE's scalar quant mode of the (accumulator, destination) types, the scale the
       f32 in the scalar's low 32 bits (pto-isa TStore.hpp GetScalarPreQuantModeGm + set_quant_pre) */
    int pre = lw_group_index(L, op, "pre", 0);
    /* reluPreMode (PTOAS TStoreOp / TMovOp / TExtractOp / TInsertOp): normal_relu is FIXPIPE's, after the quant step
       (§8.5); scalar, vector and piecewise relu need a payload the tile forms do not carry */
    const Attr *ra = op_attr(op, "reluPreMode");
    int relu = ra && ra->s && strstr(ra->s, "normal_relu") != NULL;
    if (pre >= 0 || relu) cube_fix_set_epilogue(fe, pre >= 0 ? 1 : 0, -1, relu, &why);
    if (ra && ra->s && !relu && !strstr(ra->s, "no_relu"))
        why = "a scalar, vector or piecewise relu (reluPreMode) is not simulated for tile moves: its payload is not an "
              "operand of the op";
    in->imm[TF_PRE] = pre;
    in->imm[TF_SRC] = si;
    in->imm[TF_DST] = di;
    in->imm[TF_MODE] = mode;
    in->imm[TF_ROW] = lw_group_index(L, op, "row", 0);
    in->imm[TF_COL] = lw_group_index(L, op, "col", 0);
    in->imm[TF_FP] = fpi;
    in->imm[TF_SS] = acc_root_rows(op->operands[si]);
    in->pipe = PQ_FIX;
    in->ext2 = fe;
    in->pfn = p_fix_out;
    in->foot = foot_fix_out;
    in->cost = 1;
    if (why) {
        in->ext2 = why;
        in->pfn = p_unsup;
    }
    return 0;
}

/* ---------------------------------------------------------------- tload GM -> mat (PIPE_MTE2) */

/* Instr.imm[0] of a tload into a boxed mat tile: the view's layout and the tile's */
enum { TLM_ND2NZ = 0, TLM_DN2NZ = 1, TLM_ZN = 2 };

/* tload into an NZ mat tile (lib/TileOps/a5/tload.py template_tload_gm_to_mat_nd2nz / _dn2nz): mte_gm_l1_frac of the
   tile's valid m x k from the view (row stride: the view's, in bytes), dst_group(1, 1, R, 0) with R the tile's static
   rows (docs/semantics.md §14.5). */
static int p_tload_mat(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    const Type *vt = j->ty[0], *tt = j->ty[1];
    TileRt t = tj_tile(j, args, 1);
    ViewRt v = tj_view(j, args, 0);
    if (tile_check_valid(x, in, tt, t, "destination")) return -1;
    uint64_t e = ty_bytes(tt->elem);
    int wrap = 0;   /* the row stride in bytes, a checked product: one wrapped to a small value would pass the field */
    if (in->imm[0] == TLM_ZN) {   /* DN2ZN: the view's columns are the rows of the NZ image of the tile transposed */
        if (vt->rank < 2 || v.stride[vt->rank - 2] != 1) {
            sim_trap(x, in, DIAG_T_UNSUPPORTED, "a tload into a ZN mat tile (blayout=row_major, slayout=col_major) reads a "
                     "DN view, whose rows are contiguous; this view's row stride is %" PRId64 " (docs/semantics.md §14.5)",
                     vt->rank < 2 ? 0 : v.stride[vt->rank - 2]);
            return -1;
        }
        uint64_t cs = sim_mul_checked(v.stride[vt->rank - 1], e, &wrap);
        if (wrap) {
            sim_trap(x, in, DIAG_T_WRAP, "the view's column stride of %" PRId64 " elements of %" PRIu64 " bytes wraps around 2^64",
                     v.stride[vt->rank - 1], e);
            return -1;
        }
        return cube_frac_exec(x, in, 0, (unsigned)e, v.addr, t.addr, t.vc, t.vr, cs, 0, 1, 1, (uint64_t)tt->dims[1], 0);
    }
    uint64_t rs = vt->rank >= 2 ? sim_mul_checked(v.stride[vt->rank - 2], e, &wrap) : t.vc * e;
    if (wrap) {
        sim_trap(x, in, DIAG_T_WRAP, "the view's row stride of %" PRId64 " elements of %" PRIu64 " bytes wraps around 2^64",
                 v.stride[vt->rank - 2], e);
        return -1;
    }
    /* DN (in->imm[0]): the view holds the tile column-major, column c at c * its row stride */
    /* the NZ column blocks tt's static rows apart: the pitch every move out of a mat tile reads (pto-isa TLoad ND2NZ;
       docs/semantics.md §14.5) */
    return cube_frac_exec(x, in, (int)in->imm[0], (unsigned)e, v.addr, t.addr, t.vr, t.vc, rs, 0, 1, 1,
                          (uint64_t)tt->dims[0], 0);
}

/* The view's rows read, the tile written whole. */
static void foot_tload_mat(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    const Type *vt = j->ty[0], *tt = j->ty[1];
    TileRt t = tj_tile(j, args, 1);
    ViewRt v = tj_view(j, args, 0);
    uint64_t e = ty_bytes(tt->elem);
    int wrap = 0;   /* a wrapping stride traps when the op runs (p_tload_mat) */
    int zn = in->imm[0] == TLM_ZN && vt->rank >= 2;
    uint64_t rs = zn ? sim_mul_checked(v.stride[vt->rank - 1], e, &wrap)
                : vt->rank >= 2 ? sim_mul_checked(v.stride[vt->rank - 2], e, &wrap) : t.vc * e;
    uint64_t lines = in->imm[0] ? t.vc : t.vr, len = in->imm[0] ? t.vr : t.vc;
    if (lines && len) as_add(f, AS_GM, v.addr, v.addr + (lines - 1) * rs + len * e, 0);
    as_add(f, AS_L1, t.addr, t.addr + (uint64_t)tt->dims[0] * (uint64_t)tt->dims[1] * e, 1);
}

/* tload of MX scales (e8m0) into a mat tile of 32-byte fractals. GM holds them already in the fractal order the
   scale load reads (pto-isa TLoad.hpp MX_A_ZZ / MX_B_NN, "ZZ2ZZ and NN2NN"; the golden scripts pack them so): A's
   [M, G] scales (a row-major tile) as [M/16][G/2][16][2], B's [G, N] (a column-major tile) as [N/16][G/2][16][2],
   each 16-row / 2-group fragment 32 bytes, so the load copies that image, ⌈R/16⌉·⌈G/2⌉·32 bytes, from the view's
   base to the tile's; a single-row A (a GEMV vector) is its G bytes. docs/semantics.md §14.5 "MX scale tiles". */
static int p_tload_scale(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    const Type *vt = j->ty[0], *tt = j->ty[1];
    TileRt t = tj_tile(j, args, 1);
    ViewRt v = tj_view(j, args, 0);
    if (tile_check_valid(x, in, tt, t, "destination")) return -1;
    uint64_t rows = vt->rank >= 2 ? (uint64_t)v.shape[vt->rank - 2] : 1, cols = vt->rank ? (uint64_t)v.shape[vt->rank - 1] : 0;
    uint64_t n = scale_image_bytes(tt, rows, cols);
    if (n > (uint64_t)tt->dims[0] * (uint64_t)tt->dims[1]) {
        sim_trap(x, in, DIAG_T_TILE, "the %" PRIu64 " bytes of %" PRIu64 "x%" PRIu64 " MX scales in fragments do not fit the "
                 "%lldx%lld scale tile", n, rows, cols, (long long)tt->dims[0], (long long)tt->dims[1]);
        return -1;
    }
    if (!n) return 0;
    const uint8_t *ps = sim_mem(x, in, AS_GM, v.addr, n, 1, ACC_READ, "source");
    uint8_t *pd = ps ? sim_mem(x, in, AS_L1, t.addr, n, 1, ACC_WRITE, "destination") : NULL;
    if (!pd) return -1;
    memmove(pd, ps, n);
    sim_transfer(x, AS_GM, AS_L1, n);
    return 0;
}

/* Lowers a tload into an NZ mat tile; 1 when the op is not one. */
int tile_lower_cube_load(LowerView *L, const Op *op, Instr *in)
{
    const Type *vt = op->operands[0]->type, *tt = op->operands[1]->type;
    if (tt->kind == TY_TILE_BUF && tt->space == AS_L1 && ty_is_view(vt) && elem_kind(tt->elem) == EK_E8M0 &&
        tt->fractal == 32) {
        TileJob *j = tile_job(L, op, in);
        if (!j) return -1;
        j->src0 = 0;
        j->dst = 1;
        in->pfn = p_tload_scale;
        in->cost = 1;
        return 0;   /* auto-sync: no footprint, so it waits for everything before it (autosync_foot_all) */
    }
    int zn = tt->blayout == TBL_ROW_MAJOR && tt->slayout == TSL_COL_MAJOR;
    if (tt->kind != TY_TILE_BUF || tt->space != AS_L1 || !ty_is_view(vt) ||
        !(zn || (tt->blayout == TBL_COL_MAJOR && tt->slayout == TSL_ROW_MAJOR)))
        return 1;
    TileJob *j = tile_job(L, op, in);
    if (!j) return -1;
    j->src0 = 0;
    j->dst = 1;
    /* the templates' choice (lib/TileOps/a5/tload.py, _load_store.py): nd2nz when the view's last extent is the
       tile's columns, else dn2nz when it is the tile's rows (the view holds the tile transposed) */
    int64_t last = vt->rank ? vt->dims[vt->rank - 1] : -1;
    in->imm[0] = zn ? TLM_ZN : last >= 0 && last != tt->dims[1] && last == tt->dims[0] ? TLM_DN2NZ : TLM_ND2NZ;
    in->pfn = p_tload_mat;
    in->foot = foot_tload_mat;
    in->cost = 1;
    ElemKind ek = elem_kind(tt->elem);
    if (ek_packed4(ek) || !ek_bytes(ek) || ek_bytes(ek) > 4) {
        in->ext2 = "this element type is not simulated for a tload into a mat tile";
        in->pfn = p_unsup;
    }
    return 0;
}
