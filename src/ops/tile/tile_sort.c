/* tile_sort.c — pto.tsort32 and pto.tmrgsort: one V job each that issues the UB sorters exactly as the A5
 * templates do (lib/TileOps/a5/tsort32.py, tmrgsort.py): the same vbitsort / vmrgsort4 calls at the same
 * addresses with the same repeat counts, list lengths and config words, the tail block of an unaligned tsort32
 * staged through the tmp tile and padded there as the template pads it, and a multi-list tmrgsort merged into the
 * tmp tile and copied to the destination's valid columns. Every record is computed by the micro sorters' lane
 * functions (ops/vec/lane.h: lane_bitsort32, lane_mrgsort4), so the tile ops and the micro ops cannot disagree.
 * Readings: docs/semantics.md §14 "tsort32, tmrgsort". */
#include "tile_int.h"
#include "exec/timing.h"
#include <inttypes.h>
#include "base/alloc.h"

enum { SB_BLOCK = 32, SB_REPEAT_MAX = 255, SB_MAX_UB_TMP = 32 * 255 };
enum { SJ_F16 };   /* Instr.imm: 1 for f16 scores */

static uint64_t sort_cycles(const Exec *x, uint64_t n) { return (n + 7) / 8 * x->core->sim->timing->sort_per_elem_x8; }

/* ------------------------------------------------------------------ the micro steps */

/* vbitsort(dst, scores, idx, rep) on UB byte addresses. */
static int bitsort(Exec *x, const Instr *in, int f16, uint64_t dst, uint64_t sc, uint64_t ix, uint64_t rep)
{
    const unsigned se = f16 ? 2 : 4;
    if (!rep) return 0;
    const uint8_t *ps = sim_mem(x, in, AS_UB, sc, rep * 32 * se, 32, ACC_READ, "score source");
    const uint8_t *pi = ps ? sim_mem(x, in, AS_UB, ix, rep * 128, 32, ACC_READ, "index source") : NULL;
    uint8_t *pd = pi ? sim_mem(x, in, AS_UB, dst, rep * 256, 32, ACC_WRITE, "sort destination") : NULL;
    if (!pd) return -1;
    for (uint64_t r = 0; r < rep; r++) {
        uint8_t rec[256];
        lane_bitsort32(f16, ps + r * 32 * se, pi + r * 128, rec);
        memcpy(pd + r * 256, rec, 256);
    }
    x->extra_cost += sort_cycles(x, rep * 32);
    sim_count(x, PQ_V, rep * 256);
    return 0;
}

/* mte_ub_ub of `blocks` 32-byte blocks (one burst). */
static int ub_copy(Exec *x, const Instr *in, uint64_t dst, uint64_t src, uint64_t blocks)
{
    if (!blocks) return 0;
    const uint8_t *ps = sim_mem(x, in, AS_UB, src, blocks * 32, 32, ACC_READ, "tile source");
    uint8_t *pd = ps ? sim_mem(x, in, AS_UB, dst, blocks * 32, 32, ACC_WRITE, "tmp tile") : NULL;
    if (!pd) return -1;
    memmove(pd, ps, blocks * 32);
    return 0;
}

/* vsts of vdup(pad) under the mask of the first n lanes, at UB byte address a. */
static int pad_store(Exec *x, const Instr *in, uint64_t a, unsigned e, uint64_t pad, uint64_t n)
{
    if (!n) return 0;
    uint8_t *pd = sim_mem(x, in, AS_UB, a, n * e, 32, ACC_WRITE, "tmp tile");
    if (!pd) return -1;
    for (uint64_t i = 0; i < n; i++) lane_set(pd, e, (unsigned)i, pad);
    return 0;
}

/* ------------------------------------------------------------------ tsort32 */

/* Row stride of a tile in elements, its row bytes rounded up to 32 (tsort32.py). */
static uint64_t stride32(const Type *t, uint64_t e) { return ((uint64_t)t->dims[1] * e + 31) / 32 * 32 / e; }

static int p_tsort32(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    for (int i = 0; i < j->n; i++)
        if (tile_check_valid(x, in, j->ty[i], tj_tile(j, args, i), i == j->dst ? "destination" : "source")) return -1;
    const int f16 = (int)in->imm[SJ_F16];
    const Type *dt = j->ty[(int)j->dst], *st = j->ty[(int)j->src0], *it = j->ty[(int)j->src1];
    TileRt d = tj_tile(j, args, j->dst), s = tj_tile(j, args, j->src0), ix = tj_tile(j, args, j->src1);
    const uint64_t e = f16 ? 2 : 4, rows = d.vr, cols = s.vc;
    const uint64_t ds = stride32(dt, e) * e, ss = stride32(st, e) * e;
    const uint64_t is = ix.vr == 1 ? 0 : stride32(it, 4) * 4;
    const uint64_t coef = f16 ? 4 : 2;   /* destination elements per record */
    const uint64_t rep = (cols + SB_BLOCK - 1) / SB_BLOCK, tail = cols % SB_BLOCK;
    const uint64_t pad = j->konst;
    if (tail == 0) {   /* template_tsort32 */
        for (uint64_t r = 0; r < rows; r++) {
            if (rep <= SB_REPEAT_MAX) {
                if (bitsort(x, in, f16, d.addr + r * ds, s.addr + r * ss, ix.addr + r * is, rep)) return -1;
                continue;
            }
            uint64_t loops = (rep + SB_REPEAT_MAX - 1) / SB_REPEAT_MAX, last = rep % SB_REPEAT_MAX;
            for (uint64_t c = 0; c < loops; c++) {
                uint64_t o = c * SB_REPEAT_MAX * SB_BLOCK;
                if (bitsort(x, in, f16, d.addr + r * ds + o * coef * e, s.addr + r * ss + o * e, ix.addr + r * is + o * 4,
                            c == loops - 1 ? last : SB_REPEAT_MAX))
                    return -1;
            }
        }
        return 0;
    }
    if (j->scal < 0) {
        sim_trap(x, in, DIAG_T_TILE, "'pto.tsort32' of %" PRIu64 " columns (not a multiple of 32) needs a tmp tile", cols);
        return -1;
    }
    const uint64_t tmp = tj_tile(j, args, j->scal).addr;
    if (cols * e <= SB_MAX_UB_TMP) {   /* template_tsort32_with_tmp: the whole row staged in tmp */
        const uint64_t blocks = (cols * e + 31) / 32, last_off = (rep * SB_BLOCK - SB_BLOCK) * e;
        for (uint64_t r = 0; r < rows; r++) {
            if (ub_copy(x, in, tmp, s.addr + r * ss, blocks) || pad_store(x, in, tmp + last_off, (unsigned)e, pad, SB_BLOCK - tail) ||
                bitsort(x, in, f16, d.addr + r * ds, tmp, ix.addr + r * is, rep))
                return -1;
        }
        return 0;
    }
    const uint64_t loops = (rep + SB_REPEAT_MAX - 1) / SB_REPEAT_MAX, last = rep % SB_REPEAT_MAX;
    for (uint64_t r = 0; r < rows; r++) {
        for (uint64_t c = 0; c < loops; c++) {
            uint64_t o = c * SB_REPEAT_MAX * SB_BLOCK;
            if (c < loops - 1) {
                if (bitsort(x, in, f16, d.addr + r * ds + o * coef * e, s.addr + r * ss + o * e, ix.addr + r * is + o * 4,
                            SB_REPEAT_MAX))
                    return -1;
                continue;
            }
            if (last == 0) continue;
            if (last > 1 && bitsort(x, in, f16, d.addr + r * ds + o * coef * e, s.addr + r * ss + o * e,
                                    ix.addr + r * is + o * 4, last - 1))
                return -1;
            uint64_t ts = (c * SB_REPEAT_MAX + (last - 1)) * SB_BLOCK, td = ts * coef;
            uint64_t blocks = (tail * e + 31) / 32, last_off = ((tail + SB_BLOCK - 1) / SB_BLOCK * SB_BLOCK - SB_BLOCK) * e;
            if (ub_copy(x, in, tmp, s.addr + r * ss + ts * e, blocks) ||
                pad_store(x, in, tmp + last_off, (unsigned)e, pad, SB_BLOCK - tail) ||
                bitsort(x, in, f16, d.addr + r * ds + td * e, tmp, ix.addr + r * is + ts * 4, 1))
                return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ tmrgsort */

/* vmrgsort4(dst, l0..l3, count, config) on UB byte addresses (the micro op's repeat layout: repeat r reads list k
   at l_k + r * T and writes dst + r * T, T = 8 * the total records). */
static int mrgsort(Exec *x, const Instr *in, int f16, uint64_t dst, const uint64_t l[4], uint64_t cnt, uint64_t cfg)
{
    const unsigned rep = (unsigned)(cfg & 0xFF), valid = (unsigned)((cfg >> 8) & 0xF);
    const int exhausted = (int)((cfg >> 12) & 1);
    unsigned len[4], pos[4];
    uint64_t total = 0;
    for (unsigned k = 0; k < 4; k++) {
        len[k] = (valid >> k) & 1 ? (unsigned)((cnt >> (16 * k)) & 0xFFFF) : 0;
        total += len[k];
    }
    if (!rep || !total) return 0;
    const uint64_t span = 8 * total;
    const uint8_t *src[4] = {0, 0, 0, 0};
    for (unsigned k = 0; k < 4; k++)
        if ((valid >> k) & 1 && !(src[k] = sim_mem(x, in, AS_UB, l[k], span * (rep - 1) + 8ull * len[k], 8, ACC_READ,
                                                   "merge source")))
            return -1;
    uint8_t *pd = sim_mem(x, in, AS_UB, dst, span * rep, 8, ACC_WRITE, "merge destination");
    uint8_t *out = pd ? mem_alloc(span) : NULL;
    if (!out) {
        if (pd) sim_trap(x, in, DIAG_T_OOM, "out of memory");
        return -1;
    }
    for (unsigned r = 0; r < rep; r++) {
        const uint8_t *lr[4];
        for (unsigned k = 0; k < 4; k++) lr[k] = src[k] ? src[k] + r * span : NULL;
        uint64_t n = lane_mrgsort4(f16, lr, len, valid, exhausted, out, pos);
        memcpy(pd + r * span, out, (size_t)(8 * n));
    }
    mem_free(out);
    x->extra_cost += sort_cycles(x, total * rep);
    sim_count(x, PQ_V, span * rep);
    return 0;
}

static int p_tmrgsort(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    for (int i = 0; i < j->n; i++)
        if (j->ty[i]->kind == TY_TILE_BUF &&
            tile_check_valid(x, in, j->ty[i], tj_tile(j, args, i), i == j->dst ? "destination" : "source"))
            return -1;
    const int f16 = (int)in->imm[SJ_F16];
    const uint64_t e = f16 ? 2 : 4;
    TileRt d = tj_tile(j, args, j->dst);
    if (j->src1 < 0) {   /* format 1 (template_tmrgsort_single_list): four blocks of one list */
        TileRt s = tj_tile(j, args, j->src0);
        uint64_t blen = tj_scalar(j, args, j->scal) & 0xFFFFFFFFu;
        uint64_t nst = blen * e / 8, rep = blen ? s.vc / (blen * 4) : 0, off = nst * 8;
        uint64_t l[4] = {s.addr, s.addr + off, s.addr + 2 * off, s.addr + 3 * off};
        uint64_t cnt = (nst & 0xFFFF) * 0x0001000100010001ull;
        return mrgsort(x, in, f16, d.addr, l, cnt, rep | 0xF00u);
    }
    /* formats 2-4 (template_tmrgsort_multi_list2..4): merge into tmp, then copy dst's valid columns of row 0 */
    unsigned nl = (unsigned)in->imm[1];
    uint64_t l[4], cnt = 0;
    TileRt t = tj_tile(j, args, j->scal);
    for (unsigned k = 0; k < 4; k++) {
        TileRt s = tj_tile(j, args, k < nl ? k : 0);
        l[k] = s.addr;
        if (k < nl) cnt |= ((s.vc * e / 8) & 0xFFFF) << (16 * k);
    }
    uint64_t cfg = 1 | ((uint64_t)((1u << nl) - 1) << 8) | (uint64_t)j->flat << 12;
    if (mrgsort(x, in, f16, t.addr, l, cnt, cfg)) return -1;
    if (d.vr && d.vc) {
        const uint8_t *ps = sim_mem(x, in, AS_UB, t.addr, d.vc * e, 1, ACC_READ, "tmp tile");
        uint8_t *pd = ps ? sim_mem(x, in, AS_UB, d.addr, d.vc * e, 1, ACC_WRITE, "tile destination") : NULL;
        if (!pd) return -1;
        memmove(pd, ps, d.vc * e);
        static const OpKind m[] = {OP_VLDS, OP_VSTS};
        x->extra_cost += tile_vec_cost(x, m, 2, (ElemKind)j->ek, (ElemKind)j->ek, (d.vc * e + VREG_BYTES - 1) / VREG_BYTES);
    }
    return 0;
}

/* Both sorts touch their tiles whole (the templates address rows by the tiles' strides and stage through tmp). */
static void foot_sort(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    uint32_t w = 1u << j->dst;
    if (j->scal >= 0 && j->ty[(int)j->scal]->kind == TY_TILE_BUF) w |= 1u << j->scal;
    tile_foot_whole(j, args, f, w);
}

/* ------------------------------------------------------------------ lowering */

static int scores_f16(LowerView *L, const Op *op, const Type *t)
{
    ElemKind k = elem_kind(t->elem);
    if (k == EK_F32 || k == EK_F16) return k == EK_F16;
    lw_error(L, op, DIAG_V_ELEM_TYPE, "'%s' on %s tiles is not simulated (the sorters take f32 or f16 scores)",
             op_info[op->kind].name, ek_name(k));
    return -1;
}

int tile_lower_sort(LowerView *L, const Op *op, Instr *in)
{
    TileJob *j = tile_job(L, op, in);
    if (!j) return -1;
    in->cost = 1;
    in->foot = foot_sort;
    if (op->kind == OP_TSORT32) {
        j->src0 = (int8_t)lw_group_index(L, op, "src", 0);
        j->src1 = (int8_t)lw_group_index(L, op, "idx", 0);
        j->scal = (int8_t)lw_group_index(L, op, "tmp", 0);   /* the tmp tile */
        j->dst = (int8_t)lw_group_index(L, op, "dst", 0);
        const Type *dt = op->operands[j->dst]->type;
        int f16 = scores_f16(L, op, dt);
        if (f16 < 0) return -1;
        in->imm[SJ_F16] = f16;
        j->ek = j->sek = (uint8_t)elem_kind(dt->elem);
        /* the template's pad of the unaligned tail (_pad_min): the constants 0xFF800000 and 0xFC00 as values */
        j->konst = f16 ? 0x7BE0u /* 64512.0 */ : 0x4F7F8000u /* 4286578688.0 */;
        in->pfn = p_tsort32;
        return 0;
    }
    /* tmrgsort: format 1 is ins(src, blockLen) outs(dst); formats 2-4 ins(lists..., tmp) outs(dst, executed) */
    unsigned ns = 0, nd = 0;
    while (lw_group_index(L, op, "srcs", ns) >= 0) ns++;
    while (lw_group_index(L, op, "dsts", nd) >= 0) nd++;
    int last = ns ? lw_group_index(L, op, "srcs", ns - 1) : -1;
    j->dst = (int8_t)(nd ? lw_group_index(L, op, "dsts", 0) : -1);
    int ok = j->dst >= 0 && op->operands[j->dst]->type->kind == TY_TILE_BUF && last >= 0;
    for (unsigned k = 0; ok && k + 1 < ns; k++) ok = op->operands[lw_group_index(L, op, "srcs", k)]->type->kind == TY_TILE_BUF;
    int fmt1 = ok && ns == 2 && nd == 1 && op->operands[last]->type->kind != TY_TILE_BUF;
    int fmt2 = ok && ns >= 3 && ns <= 5 && nd == 2 && op->operands[last]->type->kind == TY_TILE_BUF;
    if (!fmt1 && !fmt2) {
        lw_error(L, op, DIAG_V_OPERAND_TYPE, "'pto.tmrgsort' takes ins(src, blockLen) outs(dst) or ins(2 to 4 lists, "
                 "tmp) outs(dst, executed)");
        return -1;
    }
    const Type *dt = op->operands[j->dst]->type;
    int f16 = scores_f16(L, op, dt);
    if (f16 < 0) return -1;
    in->imm[SJ_F16] = f16;
    j->ek = j->sek = (uint8_t)elem_kind(dt->elem);
    j->src0 = (int8_t)lw_group_index(L, op, "srcs", 0);
    if (fmt1) {
        j->scal = (int8_t)last;   /* blockLen */
    } else {
        j->src1 = (int8_t)lw_group_index(L, op, "srcs", 1);
        j->scal = (int8_t)last;   /* tmp */
        in->imm[1] = ns - 1;      /* lists */
        const Attr *a = op_attr(op, "exhausted");
        j->flat = (uint8_t)(a && a->kind == AT_BOOL && a->i);
    }
    in->pfn = p_tmrgsort;
    return 0;
}
