/* tile_extra.c — the tile layer's "extra" ops (the block at the end of isa/ops_tile.def). Those that run, each one
 * V job over the destination's valid region (docs/tile.md, docs/semantics.md §14.6):
 *   tci                 dst[0, c] = S + c (descending: S - c), wrapped to the element width; one valid row (tci.py)
 *   ttri                dst[i, j] = 1 where j <= i + d (lower) / j >= i + d (upper), else 0 (ttri.py, pto-isa TTRI)
 *   tconcat             dst[i, 0:c0] = src0 row i, dst[i, c0:c0+c1] = src1 row i (tconcat.py)
 *   ttrans              dst[j, i] = src[i, j] over the source's valid region (a pure move)
 *   taddc tsubc         (src0 +/- src1) + src2, each step the vector lane of vadd / vsub (pto-isa TADDC, TSUBC)
 *   taddsc tsubsc       (src0 +/- scalar) + src1, likewise
 *   taxpy               dst = scalar * src + dst, the vaxpy lane (one rounding); an f16 source and scalar into an
 *                       f32 destination are widened first (pto-isa TAXPY, a5 TAxpy.hpp: UNPK_B16 + vcvt + vaxpy)
 *   tconcatidx          row i: n0 = idx0[i, 0] / sizeof(index), n1 likewise; s0 = min(n0, dst valid cols) columns of
 *                       src0, then s1 = min(n1, the rest) of src1 (pto-isa a5 TConcat.hpp TConcatIdx)
 *   tgather (indices)   dst[r, c] = src element number indices[r, c] of its storage (row-major, pitch = its static
 *                       columns), over dst's valid region; an index at or past static rows x cols traps T-TILE
 *                       (pto-isa a5 TGather.hpp: vgather2 from the tile base; cpu TGather.hpp flat / Cols)
 *   tprint tprefetch    no effect on the simulated machine (documented no-ops)
 *   treshape            the source tile's bytes under the result type (an alias: address kept, no data moves)
 * The gather/scatter family's other forms are tile_gather.c's; an extra op neither file runs (tsync) parses and
 * verifies, and lowering it is a located T-UNSUPPORTED error ("not executable yet"). */
#include "tile_int.h"
#include "base/alloc.h"
#include "base/bits.h"
#include "base/num.h"
#include "base/strbuf.h"

enum { TX_TCI, TX_TTRI, TX_CONCAT, TX_TRANS, TX_TERN, TX_TERN_S, TX_AXPY, TX_CONCATIDX, TX_GATHER };

typedef struct Line { uint64_t addr, pitch; unsigned e; AddrSpace as; } Line;

static Line line_of(const TileJob *j, const uint64_t *args, int i)
{
    const Type *t = j->ty[i];
    Line l = {tj_tile(j, args, i).addr, 0, ty_bytes(t->elem), (AddrSpace)t->space};
    l.pitch = (uint64_t)t->dims[1] * l.e;
    return l;
}

static uint8_t *row_of(Exec *x, const Instr *in, const Line *l, uint64_t r, uint64_t c0, uint64_t n, int mode)
{
    return sim_mem(x, in, l->as, l->addr + r * l->pitch + c0 * l->e, n * l->e, 1, mode,
                   mode == ACC_WRITE ? "tile destination" : "tile source");
}

/* The cost: one vector store (and the loads of its sources) per 256-byte register of each written row. */
static void charge(Exec *x, const TileJob *j, unsigned nload, uint64_t rows, uint64_t cols, unsigned e)
{
    OpKind m[8];
    unsigned n = 0;
    for (unsigned i = 0; i < nload && n < 6; i++) m[n++] = OP_VLDS;
    if (j->kind == TX_TERN || j->kind == TX_TERN_S) { m[n++] = OP_VADD; }
    if (j->kind == TX_GATHER) m[n++] = OP_VGATHER2;   /* the index load, one vgather2, the store (a5 TGather.hpp) */
    m[n++] = OP_VSTS;
    uint64_t lanes = VREG_BYTES / (e ? e : 1);
    x->extra_cost += tile_vec_cost(x, m, n, (ElemKind)j->ek, (ElemKind)j->ek, rows * ((cols + lanes - 1) / lanes));
    sim_count(x, PQ_V, rows * cols * e);
}

static int p_tci(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    TileRt d = tj_tile(j, args, j->dst);
    if (d.vr > 1) {
        sim_trap(x, in, DIAG_T_UNSUPPORTED, "pto.tci over %u valid rows is not executable (the A5 template writes one "
                 "row; the order of several is implementation-defined)", (unsigned)d.vr);
        return -1;
    }
    Line l = line_of(j, args, j->dst);
    uint64_t s = tj_scalar(j, args, j->scal);
    if (d.vr && d.vc) {
        uint8_t *p = row_of(x, in, &l, 0, 0, d.vc, ACC_WRITE);
        if (!p) return -1;
        for (uint64_t c = 0; c < d.vc; c++) lane_set(p, l.e, (unsigned)c, j->tok ? s - c : s + c);
    }
    charge(x, j, 0, d.vr, d.vc, l.e);
    return 0;
}

static int p_ttri(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    TileRt d = tj_tile(j, args, j->dst);
    Line l = line_of(j, args, j->dst);
    int64_t diag = (int64_t)tj_scalar(j, args, j->scal);
    if (j->sbits < 64) diag = (int64_t)((uint64_t)diag << (64 - j->sbits)) >> (64 - j->sbits);
    for (uint64_t r = 0; r < d.vr && d.vc; r++) {
        uint8_t *p = row_of(x, in, &l, r, 0, d.vc, ACC_WRITE);
        if (!p) return -1;
        for (uint64_t c = 0; c < d.vc; c++) {
            int64_t lim = (int64_t)r + diag;
            int one = j->tok ? (int64_t)c >= lim : (int64_t)c <= lim;
            lane_set(p, l.e, (unsigned)c, one ? j->konst : 0);
        }
    }
    charge(x, j, 0, d.vr, d.vc, l.e);
    return 0;
}

static int p_concat(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    TileRt d = tj_tile(j, args, j->dst), a = tj_tile(j, args, j->src0), b = tj_tile(j, args, j->src1);
    Line ld = line_of(j, args, j->dst), la = line_of(j, args, j->src0), lb = line_of(j, args, j->src1);
    if ((uint64_t)a.vc + b.vc > (uint64_t)j->ty[(int)j->dst]->dims[1]) {
        sim_trap(x, in, DIAG_T_TILE, "pto.tconcat: %u + %u source columns do not fit the destination's %lld columns",
                 (unsigned)a.vc, (unsigned)b.vc, (long long)j->ty[(int)j->dst]->dims[1]);
        return -1;
    }
    for (uint64_t r = 0; r < d.vr; r++) {
        if (a.vc) {
            const uint8_t *ps = row_of(x, in, &la, r, 0, a.vc, ACC_READ);
            uint8_t *pd = ps ? row_of(x, in, &ld, r, 0, a.vc, ACC_WRITE) : NULL;
            if (!pd) return -1;
            memmove(pd, ps, (size_t)a.vc * ld.e);
        }
        if (b.vc) {
            const uint8_t *ps = row_of(x, in, &lb, r, 0, b.vc, ACC_READ);
            uint8_t *pd = ps ? row_of(x, in, &ld, r, a.vc, b.vc, ACC_WRITE) : NULL;
            if (!pd) return -1;
            memmove(pd, ps, (size_t)b.vc * ld.e);
        }
    }
    charge(x, j, 1, 2 * (uint64_t)d.vr, ((uint64_t)a.vc + b.vc + 1) / 2, ld.e);
    return 0;
}

static int p_trans(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    TileRt s = tj_tile(j, args, j->src0);
    const Type *dt = j->ty[(int)j->dst];
    Line ls = line_of(j, args, j->src0), ld = line_of(j, args, j->dst);
    if ((int64_t)s.vc > dt->dims[0] || (int64_t)s.vr > dt->dims[1]) {
        sim_trap(x, in, DIAG_T_TILE, "pto.ttrans: the source's %ux%u valid region transposed does not fit the %lldx%lld "
                 "destination", (unsigned)s.vr, (unsigned)s.vc, (long long)dt->dims[0], (long long)dt->dims[1]);
        return -1;
    }
    for (uint64_t r = 0; r < s.vr && s.vc; r++) {
        const uint8_t *ps = row_of(x, in, &ls, r, 0, s.vc, ACC_READ);
        if (!ps) return -1;
        uint8_t tmp[8];
        for (uint64_t c = 0; c < s.vc; c++) {
            memcpy(tmp, ps + c * ls.e, ls.e);
            uint8_t *pd = row_of(x, in, &ld, c, r, 1, ACC_WRITE);
            if (!pd) return -1;
            memcpy(pd, tmp, ld.e);
        }
    }
    charge(x, j, 1, s.vr, s.vc, ls.e);
    return 0;
}

/* taddc / tsubc / taddsc / tsubsc: (src0 OP second) + third, left to right. */
static int p_tern(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    TileRt d = tj_tile(j, args, j->dst);
    const ElemKind k = (ElemKind)j->ek;
    int third = j->mask;   /* the operand added last */
    Line ld = line_of(j, args, j->dst), la = line_of(j, args, j->src0), lc = line_of(j, args, third), lb = la;
    if (j->src1 >= 0) lb = line_of(j, args, j->src1);
    uint64_t s = j->scal >= 0 ? tj_scalar(j, args, j->scal) & ek_mask(k) : 0;
    for (uint64_t r = 0; r < d.vr && d.vc; r++) {
        const uint8_t *pa = row_of(x, in, &la, r, 0, d.vc, ACC_READ);
        const uint8_t *pb = j->src1 >= 0 ? row_of(x, in, &lb, r, 0, d.vc, ACC_READ) : NULL;
        const uint8_t *pc = row_of(x, in, &lc, r, 0, d.vc, ACC_READ);
        uint8_t *pd = row_of(x, in, &ld, r, 0, d.vc, ACC_WRITE);
        if (!pa || (j->src1 >= 0 && !pb) || !pc || !pd) return -1;
        for (uint64_t c = 0; c < d.vc; c++) {
            uint64_t b = pb ? lane_get(pb, lb.e, (unsigned)c) : s;
            uint64_t t = valu_eval((ValuOp)j->vop, k, lane_get(pa, la.e, (unsigned)c), b, 0);
            lane_set(pd, ld.e, (unsigned)c, valu_eval(VOP_ADD, k, t, lane_get(pc, lc.e, (unsigned)c), 0));
        }
    }
    charge(x, j, j->src1 >= 0 ? 3 : 2, d.vr, d.vc, ld.e);
    return 0;
}

/* taxpy: dst = scalar * src + dst over the destination's valid region, the vaxpy lane; a narrower source and its
   scalar are converted to the destination's type first (exact widening). */
static int p_axpy(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    TileRt d = tj_tile(j, args, j->dst);
    const ElemKind k = (ElemKind)j->ek, sk = (ElemKind)j->sek;
    Line ld = line_of(j, args, j->dst), ls = line_of(j, args, j->src0);
    uint64_t a = tj_scalar(j, args, j->scal) & ek_mask(sk);
    if (sk != k) a = lane_cvt(sk, k, a, NUM_RND_R, false);
    for (uint64_t r = 0; r < d.vr && d.vc; r++) {
        const uint8_t *ps = row_of(x, in, &ls, r, 0, d.vc, ACC_READ);
        uint8_t *pd = row_of(x, in, &ld, r, 0, d.vc, ACC_WRITE);
        if (!ps || !pd) return -1;
        for (uint64_t c = 0; c < d.vc; c++) {
            uint64_t v = lane_get(ps, ls.e, (unsigned)c);
            if (sk != k) v = lane_cvt(sk, k, v, NUM_RND_R, false);
            lane_set(pd, ld.e, (unsigned)c, valu_eval(VOP_AXPY, k, v, lane_get(pd, ld.e, (unsigned)c), a));
        }
    }
    charge(x, j, 2, d.vr, d.vc, ld.e);
    return 0;
}

/* tconcatidx: per valid row i of the destination, n0 = idx0[i, 0] / sizeof(index type) (an unsigned division of the
   sign-extended value, as the C++ does), n1 likewise; the first s0 = min(n0, valid cols) columns from src0, then
   s1 = min(n1, valid cols - s0) from src1 right after them. The rest of the row is not written. */
static int p_concatidx(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    TileRt d = tj_tile(j, args, j->dst);
    Line ld = line_of(j, args, j->dst), l0 = line_of(j, args, j->src0), l1 = line_of(j, args, j->src1);
    Line i0 = line_of(j, args, j->mask), i1 = line_of(j, args, j->scal);
    for (uint64_t r = 0; r < d.vr; r++) {
        const uint8_t *q0 = row_of(x, in, &i0, r, 0, 1, ACC_READ), *q1 = row_of(x, in, &i1, r, 0, 1, ACC_READ);
        if (!q0 || !q1) return -1;
        uint64_t v0 = lane_get(q0, i0.e, 0), v1 = lane_get(q1, i1.e, 0);
        if (ek_signed(elem_kind(j->ty[j->mask]->elem))) {
            v0 = (uint64_t)bits_sext(v0, i0.e * 8);
            v1 = (uint64_t)bits_sext(v1, i1.e * 8);
        }
        uint32_t n0 = (uint32_t)(v0 / i0.e), n1 = (uint32_t)(v1 / i1.e);
        uint64_t s0 = n0 < d.vc ? n0 : d.vc, rest = d.vc - s0, s1 = n1 < rest ? n1 : rest;
        if (s0) {
            const uint8_t *ps = row_of(x, in, &l0, r, 0, s0, ACC_READ);
            uint8_t *pd = row_of(x, in, &ld, r, 0, s0, ACC_WRITE);
            if (!ps || !pd) return -1;
            memmove(pd, ps, s0 * ld.e);
        }
        if (s1) {
            const uint8_t *ps = row_of(x, in, &l1, r, 0, s1, ACC_READ);
            uint8_t *pd = row_of(x, in, &ld, r, s0, s1, ACC_WRITE);
            if (!ps || !pd) return -1;
            memmove(pd, ps, s1 * ld.e);
        }
    }
    charge(x, j, 2, d.vr, d.vc, ld.e);
    return 0;
}

/* tgather, index form: dst[r, c] = the source element whose linear number in the source's storage (row-major, row
   pitch = its static columns) is indices[r, c], read unsigned, over dst's valid region. The gather reads from the
   tile's base with no regard for its valid shape; an index at or past the static rows x cols is T-TILE here (the
   cpu model writes 0, the device reads whatever lies there). */
static int p_gather(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    TileRt d = tj_tile(j, args, j->dst);
    Line ld = line_of(j, args, j->dst), ls = line_of(j, args, j->src0), li = line_of(j, args, j->mask);
    const Type *st = j->ty[(int)j->src0];
    uint64_t cols = (uint64_t)st->dims[1], numel = (uint64_t)st->dims[0] * cols;
    for (uint64_t r = 0; r < d.vr && d.vc; r++) {
        const uint8_t *pi = row_of(x, in, &li, r, 0, d.vc, ACC_READ);
        if (!pi) return -1;
        uint8_t *pd = row_of(x, in, &ld, r, 0, d.vc, ACC_WRITE);
        if (!pd) return -1;
        for (uint64_t c = 0; c < d.vc; c++) {
            uint64_t ix = lane_get(pi, li.e, (unsigned)c);
            if (ix >= numel) {
                sim_trap(x, in, DIAG_T_TILE, "index %llu at dst[%llu, %llu] is outside the %lldx%lld "
                         "source tile (%llu elements)", (unsigned long long)ix, (unsigned long long)r,
                         (unsigned long long)c, (long long)st->dims[0], (long long)st->dims[1],
                         (unsigned long long)numel);
                return -1;
            }
            const uint8_t *ps = row_of(x, in, &ls, ix / cols, ix % cols, 1, ACC_READ);
            if (!ps) return -1;
            lane_set(pd, ld.e, (unsigned)c, lane_get(ps, ls.e, 0));
        }
    }
    charge(x, j, 1, d.vr, d.vc, li.e);
    return 0;
}

static void foot_extra(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    tile_foot_whole(j, args, f, 1u << j->dst);
}

static const Instr *x_nop(Exec *x, const Instr *in)
{
    (void)x;
    return in + 1;
}

/* One element of e bytes of type `el` as pto.tprint writes it: floats fixed with precision p in width w (their
   exact value as a double), integers in width w (unsigned ones as unsigned), other kinds as hex bits. */
static void tprint_elem(StrBuf *b, const Type *el, const uint8_t *p, unsigned e, int w, int prec)
{
    uint64_t v = 0;
    memcpy(&v, p, e < 8 ? e : 8);
    if (el->kind == TY_FLOAT && !ek_packed4(elem_kind(el))) {
        NumFormat f = fk_format((FloatKind)el->fk);
        sb_printf(b, "%*.*f", w, prec, num_bits_to_f64(num_convert(f, v, NUM_F64, NUM_RND_R, false)));
    } else if (el->kind == TY_INT && ty_signed(el)) {
        sb_printf(b, "%*lld", w, (long long)bits_sext(v, 8 * (int64_t)e));
    } else if (el->kind == TY_INT) {
        sb_printf(b, "%*llu", w, (unsigned long long)v);
    } else {
        sb_printf(b, "%*s0x%0*llx", w > 2 + 2 * (int)e ? w - 2 - 2 * (int)e : 0, "", 2 * (int)e, (unsigned long long)v);
    }
}

/* pto.tprint (docs/semantics.md §12 "Device output"): after every pipe of the core drained (pto-isa's TPRINT puts
   a pipe_barrier(PIPE_ALL) first), "TPRINT <rows>x<cols>" and one line per row of the tile's valid region (a
   view: its elements, rows = all but the last dimension), values separated by a space, in the printFormat's
   width and precision (8/4, 8/2, 10/6). A tmp operand is not needed: ptosim reads acc and mat tiles in place. */
static const Instr *x_tprint(Exec *x, const Instr *in)
{
    if (sim_drain_all(x)) return SIM_BLOCKED;
    const Op *op = in->op;
    const Type *t = op->operands[0]->type;
    int w = 8, prec = 4;
    const Attr *pf = op_attr(op, "printFormat");
    int64_t k = pf && pf->kind == AT_TOKEN ? tok_ordinal((int)pf->i) : pf && pf->kind == AT_INT ? pf->i : 0;
    if (k == 1) prec = 2;
    if (k == 2) w = 10, prec = 6;
    unsigned e = ty_bytes(t->elem);
    StrBuf b;
    sb_init(&b);
    if (t->kind == TY_TILE_BUF) {
        TileRt tr = tile_get(FR(x, in->arg[0]));
        uint64_t rows = (uint64_t)t->dims[0], cols = (uint64_t)t->dims[1];
        const uint8_t *m = sim_mem(x, in, (AddrSpace)t->space, tr.addr, rows * cols * e, 1, ACC_READ, "tile");
        if (!m) return NULL;
        sb_printf(&b, "TPRINT %ux%u\n", tr.vr, tr.vc);
        for (uint64_t r = 0; r < tr.vr && b.n <= SIM_OUT_CAP; r++) {   /* past the cap sim_out keeps nothing */
            for (uint64_t c = 0; c < tr.vc && b.n <= SIM_OUT_CAP; c++) {
                if (c) sb_putc(&b, ' ');
                tprint_elem(&b, t->elem, m + tile_elem_off(t, rows, cols, e, r, c) * e, e, w, prec);
            }
            sb_putc(&b, '\n');
        }
    } else {
        ViewRt v = view_get(FR(x, in->arg[0]));
        unsigned rank = (unsigned)t->rank;
        uint64_t cols = rank ? (uint64_t)v.shape[rank - 1] : 1, rows = 1;
        for (unsigned d = 0; d + 1 < rank; d++) rows *= (uint64_t)v.shape[d];
        sb_printf(&b, "TPRINT %llux%llu\n", (unsigned long long)rows, (unsigned long long)cols);
        for (uint64_t r = 0; r < rows && b.n <= SIM_OUT_CAP; r++) {
            int64_t off = 0;
            uint64_t q = r;
            for (unsigned d = rank ? rank - 1 : 0; d-- > 0;) {
                off += (int64_t)(q % (uint64_t)v.shape[d]) * v.stride[d];
                q /= (uint64_t)v.shape[d];
            }
            for (uint64_t c = 0; c < cols && b.n <= SIM_OUT_CAP; c++) {
                int64_t eo = off + (int64_t)c * (rank ? v.stride[rank - 1] : 1);
                const uint8_t *p = sim_mem(x, in, AS_GM, sim_index_addr(v.addr, eo, e), e, 1, ACC_READ, "view element");
                if (!p) {
                    sb_free(&b);
                    return NULL;
                }
                if (c) sb_putc(&b, ' ');
                tprint_elem(&b, t->elem, p, e, w, prec);
            }
            sb_putc(&b, '\n');
        }
    }
    if (sim_out_buf(x, in, &b)) return NULL;
    return in + 1;
}

/* treshape: the source's bytes under the result's type: its address, and the valid shape the result type states
   (a dynamic dimension: the whole dimension) — an alias, no data moves (pto-isa TRESHAPE: "bitwise reshape";
   A2/A3 alias the storage). */
static const Instr *x_reshape(Exec *x, const Instr *in)
{
    TileRt t = tile_get(FR(x, in->arg[0]));
    const Type *r = in->op->results[0]->type;
    t.vr = (uint32_t)(r->dims[2] >= 0 ? r->dims[2] : r->dims[0]);
    t.vc = (uint32_t)(r->dims[3] >= 0 ? r->dims[3] : r->dims[1]);
    tile_put(FR(x, in->res[0]), t);
    return in + 1;
}

/* pto.tassign %tile, %addr: the same tile (type and valid shape) at byte address addr of its buffer; no data moves
   (PTOAS TAssignOp: "rebinds a tile to an address"). Accesses through it are bounds-checked as any tile's. */
static const Instr *x_tassign(Exec *x, const Instr *in)
{
    TileRt t = tile_get(FR(x, in->arg[0]));
    t.addr = fr_u64(x, in->arg[1]);
    tile_put(FR(x, in->res[0]), t);
    return in + 1;
}

int tile_lower_extra(LowerView *L, const Op *op, Instr *in)
{
    switch (op->kind) {
    case OP_TPRINT: in->cost = 1; in->fn = x_tprint; return 0;
    case OP_TPREFETCH: in->cost = 1; in->fn = x_nop; return 0;
    case OP_TRESHAPE: in->cost = 1; in->fn = x_reshape; return 0;
    case OP_TASSIGN: in->cost = 1; in->fn = x_tassign; return 0;
    case OP_TCI: case OP_TTRI: case OP_TCONCAT: case OP_TTRANS: case OP_TADDC: case OP_TSUBC: case OP_TADDSC:
    case OP_TSUBSC: case OP_TAXPY: case OP_TCONCATIDX: break;
    case OP_TGATHER: break;   /* the index form (tile.c sends the mask-pattern and compare forms to tile_gather.c) */
    default:
        lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' parses and verifies but is not executable yet (docs/tile.md)",
                 op_info[op->kind].name);
        return -1;
    }
    for (uint32_t i = 0; i < op->noperands; i++) {
        const Type *t = op->operands[i]->type;
        if (t->kind == TY_TILE_BUF && (t->blayout != TBL_ROW_MAJOR || t->slayout != TSL_NONE_BOX)) {
            lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' runs on row-major tiles (blayout=row_major, slayout=none_box) only",
                     op_info[op->kind].name);
            return -1;
        }
    }
    TileJob *j = tile_job(L, op, in);
    if (!j) return -1;
    in->foot = foot_extra;
    in->cost = 1;
    j->dst = (int8_t)lw_group_index(L, op, op->kind == OP_TGATHER ? "dsts" : "dst", 0);
    const Type *dt = op->operands[j->dst]->type;
    j->ek = j->sek = (uint8_t)elem_kind(dt->elem);
    switch (op->kind) {
    case OP_TCI: {
        j->kind = TX_TCI;
        j->scal = (int8_t)lw_group_index(L, op, "s", 0);
        const Attr *a = op_attr(op, "descending");
        j->tok = (int16_t)(a && a->i);
        in->pfn = p_tci;
        break;
    }
    case OP_TTRI: {
        j->kind = TX_TTRI;
        j->scal = (int8_t)lw_group_index(L, op, "diag", 0);
        j->sbits = (uint8_t)ty_bits(op->operands[j->scal]->type);
        const Attr *a = op_attr(op, "upperOrLower");
        j->tok = (int16_t)(a && a->i == 1);
        j->konst = one_of((ElemKind)j->ek);
        in->pfn = p_ttri;
        break;
    }
    case OP_TCONCAT:
        j->kind = TX_CONCAT;
        j->src0 = (int8_t)lw_group_index(L, op, "src0", 0);
        j->src1 = (int8_t)lw_group_index(L, op, "src1", 0);
        in->pfn = p_concat;
        break;
    case OP_TCONCATIDX:
        j->kind = TX_CONCATIDX;
        j->src0 = (int8_t)lw_group_index(L, op, "src0", 0);
        j->src1 = (int8_t)lw_group_index(L, op, "src1", 0);
        j->mask = (int8_t)lw_group_index(L, op, "idx0", 0);
        j->scal = (int8_t)lw_group_index(L, op, "idx1", 0);
        in->pfn = p_concatidx;
        break;
    case OP_TAXPY: {
        j->kind = TX_AXPY;
        j->src0 = (int8_t)lw_group_index(L, op, "src", 0);
        j->scal = (int8_t)lw_group_index(L, op, "scalar", 0);
        ElemKind sk = elem_kind(op->operands[j->src0]->type->elem);
        j->sek = (uint8_t)sk;
        if (!((sk == (ElemKind)j->ek && (sk == EK_F16 || sk == EK_F32)) || (sk == EK_F16 && j->ek == EK_F32))) {
            lw_error(L, op, DIAG_V_ELEM_TYPE, "'pto.taxpy' runs f16 and f32 tiles, and an f16 source into an f32 "
                     "destination (pto-isa TAXPY)");
            return -1;
        }
        in->pfn = p_axpy;
        break;
    }
    case OP_TGATHER: {
        j->kind = TX_GATHER;
        j->src0 = (int8_t)lw_group_index(L, op, "src", 0);
        j->mask = (int8_t)lw_group_index(L, op, "rest", 0);
        const Type *st = op->operands[j->src0]->type, *it = op->operands[j->mask]->type;
        if (it->kind != TY_TILE_BUF || !ek_int(elem_kind(it->elem)) || ty_bytes(it->elem) < 2 ||
            ty_bytes(st->elem) != ty_bytes(dt->elem) || st->dims[0] < 0 || st->dims[1] < 0) {
            lw_error(L, op, DIAG_T_UNSUPPORTED, "'pto.tgather' runs an integer index tile of 16 or 32 bits and "
                     "source and destination elements of one size");
            return -1;
        }
        in->pfn = p_gather;
        break;
    }
    case OP_TTRANS:
        j->kind = TX_TRANS;
        j->src0 = (int8_t)lw_group_index(L, op, "src", 0);
        in->pfn = p_trans;
        break;
    default: {   /* the ternary ops */
        int sc = op->kind == OP_TADDSC || op->kind == OP_TSUBSC;
        j->kind = sc ? TX_TERN_S : TX_TERN;
        j->vop = op->kind == OP_TADDC || op->kind == OP_TADDSC ? VOP_ADD : VOP_SUB;
        j->src0 = (int8_t)lw_group_index(L, op, "src0", 0);
        if (sc) {
            j->scal = (int8_t)lw_group_index(L, op, "scalar", 0);
            j->mask = (int8_t)lw_group_index(L, op, "src1", 0);
        } else {
            j->src1 = (int8_t)lw_group_index(L, op, "src1", 0);
            j->mask = (int8_t)lw_group_index(L, op, "src2", 0);
        }
        in->pfn = p_tern;
        break;
    }
    }
    if (j->ek == EK_BAD) {
        lw_error(L, op, DIAG_V_ELEM_TYPE, "'%s' on tiles of this element type is not simulated", op_info[op->kind].name);
        return -1;
    }
    return 0;
}
