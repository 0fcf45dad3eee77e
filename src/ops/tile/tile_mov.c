/* tile_mov.c — the vector-side moves between vec tiles: pto.tmov (the destination's valid region from the same
 * place of the source), pto.textract (the destination's valid region from the source window at (row, col)) and
 * pto.tinsert (the source's valid region into the destination at (row, col)). Each is one V job of row-wise
 * vlds/vsts copies as the A5 templates write them (lib/TileOps/a5/tmov.py, textract.py
 * template_textract_vec2vec_nd, tinsert.py template_tinsert_vec_to_vec_nd_basic and its 1x1 scalar form): bytes
 * are copied unchanged, and nothing outside the copied region is touched. Moves that involve cube buffers
 * (mat, left, right, acc, ...) belong to the cube part of the tile layer. docs/semantics.md §14. */
#include "tile_int.h"

enum { MV_TMOV, MV_EXTRACT, MV_INSERT };
/* Instr.imm: the move, the operand indices of the row and column offsets, MV_COLMAJ: tmov of column-major tiles
   (docs/semantics.md §14). A source window that keeps its parent's row pitch: TileJob.pitch. */
enum { MV_KIND, MV_ROW, MV_COL, MV_COLMAJ, MV_NZ };   /* MV_NZ: row-major -> NZ (p_mov_nz), or tinsert NZ -> NZ */

/* Operand i of op o takes a window at its own pitch (tile_common.c tile_find_windows): element-wise ops
   (tile_ew_pitch_ok), reductions and expands, tcvt. */
int tile_window_ok(const Op *o, uint32_t i)
{
    return tile_is_reduce(o->kind) || o->kind == OP_TCVT || tile_ew_pitch_ok(o, i);
}

/* Whether every use of v (a row-major vec tile) honours a row pitch other than its type's columns: a pto.tmov
   from it into a row-major vec tile, a pto.tstore of it (ND: tile_dma.c), an element-wise op, a reduction or
   expand, a tcvt (tile_window_ok), or a pto.subview of it that is one row or whose result again has only such uses. Found by
   walking the function; a use outside those ops (scf.yield, a call, any other op) makes it 0. */
typedef struct PitchUses { const Value *v; uint32_t found; int bad; } PitchUses;
static int pitch_visit(Op *o, void *ud)
{
    PitchUses *u = ud;
    for (uint32_t i = 0; i < o->noperands && !u->bad; i++) {
        if (o->operands[i] != u->v) continue;
        u->found++;
        if (o->kind == OP_SUBVIEW && i == 0 && o->nresults == 1 && tile_plain_rows(o->results[0]->type))
            /* one row has no pitch to keep: any use of it reads the right bytes */
            u->bad = o->results[0]->type->dims[0] != 1 && !tile_pitch_uses_ok(o->results[0]);
        else if (!(o->kind == OP_TMOV && i == 0 && o->noperands == 2 && tile_plain_rows(o->operands[1]->type)) &&
                 !(o->kind == OP_TSTORE && i == 0 && o->noperands == 2) && !tile_window_ok(o, i))
            u->bad = 1;
    }
    return 0;
}
int tile_pitch_uses_ok(const Value *v)
{
    const Op *f = v->def;
    while (f && f->kind != OP_FUNC) f = ir_parent_op(f);
    if (!f || !tile_plain_rows(v->type)) return 0;
    PitchUses u = {v, 0, 0};
    ir_walk((Op *)f, pitch_visit, &u);
    return !u.bad && u.found == v->nuses;
}

/* The copied region: `n` rows of `w` elements, read at (r0, c0) of the source, written at (r1, c1) of the
   destination. */
typedef struct MovRegion { uint64_t n, w, r0, c0, r1, c1; } MovRegion;

static int region(Exec *x, const Instr *in, const uint64_t *args, MovRegion *g)
{
    const TileJob *j = TJ(in);
    const Type *st = j->ty[(int)j->src0], *dt = j->ty[(int)j->dst];
    TileRt s = tj_tile(j, args, j->src0), d = tj_tile(j, args, j->dst);
    if (tile_check_valid(x, in, st, s, "source") || tile_check_valid(x, in, dt, d, "destination")) return -1;
    uint64_t row = in->imm[MV_ROW] >= 0 ? tj_scalar(j, args, (int)in->imm[MV_ROW]) : 0;
    uint64_t col = in->imm[MV_COL] >= 0 ? tj_scalar(j, args, (int)in->imm[MV_COL]) : 0;
    *g = (MovRegion){d.vr, d.vc, 0, 0, 0, 0};
    const char *what = NULL;
    const Type *t = dt;
    if (in->imm[MV_KIND] == MV_EXTRACT) {
        g->r0 = row;
        g->c0 = col;
        t = st;
        what = "source";
    } else if (in->imm[MV_KIND] == MV_INSERT) {
        *g = (MovRegion){s.vr, s.vc, 0, 0, row, col};
        what = "destination";
    }
    uint64_t rr = what && t == st ? g->r0 : g->r1, cc = what && t == st ? g->c0 : g->c1;
    if (what && g->n && g->w && (rr + g->n > (uint64_t)t->dims[0] || cc + g->w > (uint64_t)t->dims[1])) {
        sim_trap(x, in, DIAG_T_TILE, "the %llux%llu window at (%llu, %llu) leaves the %s tile's %lldx%lld shape",
                 (unsigned long long)g->n, (unsigned long long)g->w, (unsigned long long)rr, (unsigned long long)cc,
                 what, (long long)t->dims[0], (long long)t->dims[1]);
        return -1;
    }
    return 0;
}

static int p_mov(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    const Type *st = j->ty[(int)j->src0], *dt = j->ty[(int)j->dst];
    TileRt s = tj_tile(j, args, j->src0), d = tj_tile(j, args, j->dst);
    MovRegion g;
    if (region(x, in, args, &g)) return -1;
    const uint64_t e = ty_bytes(dt->elem);
    uint64_t sp = (uint64_t)(j->pitch ? j->pitch : st->dims[1]) * e, dp = (uint64_t)dt->dims[1] * e;
    if (in->imm[MV_COLMAJ]) {   /* column-major: each valid column is contiguous, the pitch is the row count */
        g = (MovRegion){g.w, g.n, 0, 0, 0, 0};
        sp = (uint64_t)st->dims[0] * e;
        dp = (uint64_t)dt->dims[0] * e;
    }
    for (uint64_t r = 0; r < g.n && g.w; r++) {
        const uint8_t *ps = sim_mem(x, in, (AddrSpace)st->space, s.addr + (g.r0 + r) * sp + g.c0 * e, g.w * e, 1,
                                    ACC_READ, "tile source");
        uint8_t *pd = ps ? sim_mem(x, in, (AddrSpace)dt->space, d.addr + (g.r1 + r) * dp + g.c1 * e, g.w * e, 1,
                                   ACC_WRITE, "tile destination") : NULL;
        if (!pd) return -1;
        memmove(pd, ps, g.w * e);
    }
    static const OpKind m[] = {OP_VLDS, OP_VSTS};
    uint64_t lanes = VREG_BYTES / e;
    x->extra_cost += tile_vec_cost(x, m, 2, (ElemKind)j->ek, (ElemKind)j->ek, g.n * ((g.w + lanes - 1) / lanes));
    sim_count(x, PQ_V, g.n * g.w * e);
    return 0;
}

/* tmov from a row-major tile into an NZ tile (pto-isa a5 TMov.hpp TMovToVecNd2Nz): element (r, c) of the
   destination's valid region goes to (c / C0)·R·C0 + r·C0 + c % C0, C0 = 32 bytes of elements, R the valid rows
   rounded up to 16 (the template's block stride); docs/semantics.md §14.10. */
static int p_mov_nz(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    const Type *st = j->ty[(int)j->src0], *dt = j->ty[(int)j->dst];
    TileRt s = tj_tile(j, args, j->src0), d = tj_tile(j, args, j->dst);
    if (tile_check_valid(x, in, st, s, "source") || tile_check_valid(x, in, dt, d, "destination")) return -1;
    const uint64_t e = ty_bytes(dt->elem), c0 = 32 / e, R = ((uint64_t)d.vr + 15) / 16 * 16;
    uint64_t n = d.vr, w = d.vc, scols = (uint64_t)st->dims[1];
    if (!n || !w) return 0;
    if ((w + c0 - 1) / c0 * R * c0 > (uint64_t)dt->dims[0] * (uint64_t)dt->dims[1]) {
        sim_trap(x, in, DIAG_T_TILE, "the NZ image of the %llux%llu valid region (column blocks of %llu rows) exceeds the "
                 "%lldx%lld destination tile", (unsigned long long)n, (unsigned long long)w, (unsigned long long)R,
                 (long long)dt->dims[0], (long long)dt->dims[1]);
        return -1;
    }
    for (uint64_t r = 0; r < n; r++) {
        const uint8_t *ps = sim_mem(x, in, AS_UB, s.addr + r * scols * e, w * e, 1, ACC_READ, "tile source");
        if (!ps) return -1;
        for (uint64_t cb = 0; cb * c0 < w; cb++) {
            uint64_t k = w - cb * c0 < c0 ? w - cb * c0 : c0;
            uint8_t *pd = sim_mem(x, in, AS_UB, d.addr + (cb * R * c0 + r * c0) * e, k * e, 1, ACC_WRITE, "tile destination");
            if (!pd) return -1;
            memmove(pd, ps + cb * c0 * e, k * e);
        }
    }
    static const OpKind m[] = {OP_VLDS, OP_VSTS};
    uint64_t lanes = VREG_BYTES / e;
    x->extra_cost += tile_vec_cost(x, m, 2, (ElemKind)j->ek, (ElemKind)j->ek, n * ((w + lanes - 1) / lanes));
    sim_count(x, PQ_V, n * w * e);
    return 0;
}

/* Element (r, c) of an NZ tile of `rows` static rows: column blocks of C0 = 32 bytes, rows of C0 elements. */
static uint64_t nz_elem(uint64_t r, uint64_t c, uint64_t rows, uint64_t c0) { return ((c / c0) * rows + r) * c0 + c % c0; }

/* tinsert between two NZ vec tiles (pto-isa TINSERT's window: dst[row + i][col + j] = src[i][j] over the source's
   valid region), each element at its place in its own tile's NZ layout; docs/semantics.md §14.10. */
static int p_ins_nz(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    const Type *st = j->ty[(int)j->src0], *dt = j->ty[(int)j->dst];
    TileRt s = tj_tile(j, args, j->src0), d = tj_tile(j, args, j->dst);
    MovRegion g;
    if (region(x, in, args, &g)) return -1;
    const uint64_t e = ty_bytes(dt->elem), c0 = 32 / e, sr = (uint64_t)st->dims[0], dr = (uint64_t)dt->dims[0];
    if (!g.n || !g.w) return 0;
    const uint8_t *ps = sim_mem(x, in, AS_UB, s.addr, sr * (uint64_t)st->dims[1] * e, 1, ACC_READ, "tile source");
    uint8_t *pd = ps ? sim_mem(x, in, AS_UB, d.addr, dr * (uint64_t)dt->dims[1] * e, 1, ACC_WRITE, "tile destination") : NULL;
    if (!pd) return -1;
    for (uint64_t r = 0; r < g.n; r++)
        for (uint64_t c = 0; c < g.w; c++)
            memmove(pd + nz_elem(g.r1 + r, g.c1 + c, dr, c0) * e, ps + nz_elem(r, c, sr, c0) * e, e);
    static const OpKind m[] = {OP_VLDS, OP_VSTS};
    uint64_t lanes = VREG_BYTES / e;
    x->extra_cost += tile_vec_cost(x, m, 2, (ElemKind)j->ek, (ElemKind)j->ek, g.n * ((g.w + lanes - 1) / lanes));
    sim_count(x, PQ_V, g.n * g.w * e);
    return 0;
}

/* The source tile read, the destination tile written (whole tiles: the offsets are run-time values); a source
   with its parent's pitch spans its rows at that pitch. */
static void foot_mov(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    if (!j->pitch) {
        tile_foot_whole(j, args, f, 1u << j->dst);
        return;
    }
    const Type *st = j->ty[(int)j->src0], *dt = j->ty[(int)j->dst];
    TileRt s = tj_tile(j, args, j->src0), d = tj_tile(j, args, j->dst);
    uint64_t e = ty_bytes(st->elem);
    as_add(f, st->space, s.addr, s.addr + ((uint64_t)(st->dims[0] - 1) * (uint64_t)j->pitch + (uint64_t)st->dims[1]) * e, 0);
    as_add(f, dt->space, d.addr, d.addr + (uint64_t)dt->dims[0] * (uint64_t)dt->dims[1] * ty_bytes(dt->elem), 1);
}

int tile_lower_mov(LowerView *L, const Op *op, Instr *in)
{
    if (op->kind == OP_TMOV && lw_group_index(L, op, "tmp", 0) >= 0) return tile_lower_mx_zz(L, op, in);
    TileJob *j = tile_job(L, op, in);
    if (!j) return -1;
    j->src0 = (int8_t)lw_group_index(L, op, "src", 0);
    j->dst = (int8_t)lw_group_index(L, op, "dst", 0);
    const Type *st = op->operands[j->src0]->type, *dt = op->operands[j->dst]->type;
    if (st->space != AS_UB || dt->space != AS_UB) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' between loc=%s and loc=%s tiles is not simulated (the vector side: "
                 "vec to vec)", op_info[op->kind].name, tile_loc_name((AddrSpace)st->space),
                 tile_loc_name((AddrSpace)dt->space));
        return -1;
    }
    j->ek = j->sek = (uint8_t)elem_kind(dt->elem);
    in->imm[MV_KIND] = op->kind == OP_TEXTRACT ? MV_EXTRACT : op->kind == OP_TINSERT ? MV_INSERT : MV_TMOV;
    in->imm[MV_ROW] = lw_group_index(L, op, "row", 0);
    in->imm[MV_COL] = lw_group_index(L, op, "col", 0);
    in->imm[MV_COLMAJ] = op->kind == OP_TMOV && st->blayout == TBL_COL_MAJOR && dt->blayout == TBL_COL_MAJOR;
    in->imm[MV_NZ] = op->kind == OP_TMOV && st->blayout == TBL_ROW_MAJOR && st->slayout == TSL_NONE_BOX &&
                     dt->blayout == TBL_COL_MAJOR && dt->slayout == TSL_ROW_MAJOR;
    int insnz = op->kind == OP_TINSERT && st->blayout == TBL_COL_MAJOR && st->slayout == TSL_ROW_MAJOR &&
                dt->blayout == TBL_COL_MAJOR && dt->slayout == TSL_ROW_MAJOR && ty_bits(dt->elem) >= 8;
    if (!in->imm[MV_NZ] && op->kind == OP_TMOV && tile_plain_rows(st) && tile_row_pitch(op->operands[j->src0]) != st->dims[1])
        j->pitch = tile_row_pitch(op->operands[j->src0]);
    in->pfn = insnz ? p_ins_nz : in->imm[MV_NZ] ? p_mov_nz : p_mov;
    in->foot = foot_mov;
    in->cost = 1;
    return 0;
}
