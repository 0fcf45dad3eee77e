/* tile_pow.c — tpow / tpows on integer tiles (si8..si32, ui8..ui32), one V job over the destination's valid region
 * (docs/semantics.md §14.7): dst = base ^ exp by square-and-multiply at the element width (wrapping), with
 * base^0 = 1 and 1^exp = 1, and for signed types a negative exponent giving 0 unless the base is -1 (then +-1 by
 * the exponent's parity). Float tiles (the A5 ln / exp algorithm) are not executable yet: a located T-UNSUPPORTED. */
#include "tile_int.h"

static uint64_t sext(uint64_t v, unsigned bits)
{
    return bits >= 64 ? v : (uint64_t)((int64_t)(v << (64 - bits)) >> (64 - bits));
}

/* One lane: b, e the element bits; the result's low `bits` bits. */
static uint64_t ipow(uint64_t b, uint64_t e, unsigned bits, int is_signed)
{
    uint64_t m = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    b &= m;
    e &= m;
    if (e == 0 || b == 1) return 1;
    if (is_signed && (sext(e, bits) >> 63)) return b == m ? (e & 1 ? m : 1) : 0;   /* b == m: b is -1 */
    uint64_t d = 1;
    for (; e; e >>= 1) {
        if (e & 1) d = (d * b) & m;
        b = (b * b) & m;
    }
    return d;
}

static int p_pow(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    for (int i = 0; i < j->n; i++)
        if (j->ty[i]->kind == TY_TILE_BUF &&
            tile_check_valid(x, in, j->ty[i], tj_tile(j, args, i), i == j->dst ? "destination" : "source"))
            return -1;
    TileRt d = tj_tile(j, args, j->dst);
    const ElemKind k = (ElemKind)j->ek;
    unsigned e = (unsigned)ty_bytes(j->ty[(int)j->dst]->elem), bits = e * 8;
    uint64_t sc = j->scal >= 0 ? tj_scalar(j, args, j->scal) : 0;
    const Type *dt = j->ty[(int)j->dst], *bt = j->ty[(int)j->src0], *et = j->src1 >= 0 ? j->ty[(int)j->src1] : NULL;
    uint64_t da = tj_tile(j, args, j->dst).addr, ba = tj_tile(j, args, j->src0).addr;
    uint64_t ea = j->src1 >= 0 ? tj_tile(j, args, j->src1).addr : 0;
    for (uint64_t r = 0; r < d.vr && d.vc; r++) {
        const uint8_t *pb = sim_mem(x, in, (AddrSpace)bt->space, ba + r * (uint64_t)bt->dims[1] * e, d.vc * e, 1,
                                    ACC_READ, "tile source");
        const uint8_t *pe = !pb || !et ? NULL : sim_mem(x, in, (AddrSpace)et->space, ea + r * (uint64_t)et->dims[1] * e,
                                                        d.vc * e, 1, ACC_READ, "tile source");
        uint8_t *pd = !pb || (et && !pe) ? NULL : sim_mem(x, in, (AddrSpace)dt->space, da + r * (uint64_t)dt->dims[1] * e,
                                                          d.vc * e, 1, ACC_WRITE, "tile destination");
        if (!pd) return -1;
        for (uint64_t c = 0; c < d.vc; c++)
            lane_set(pd, e, (unsigned)c, ipow(lane_get(pb, e, (unsigned)c), pe ? lane_get(pe, e, (unsigned)c) : sc,
                                             bits, ek_signed(k)));
    }
    /* per bit of the (widened) element: vand, vcmps, vmul, vsel, vshrs, vmul */
    OpKind m[8] = {OP_VLDS, OP_VLDS, OP_VMUL, OP_VMUL, OP_VSEL, OP_VSHRS, OP_VSTS};
    unsigned lanes = VREG_BYTES / (e < 2 ? 2 : e), w = e < 2 ? 16 : bits;
    x->extra_cost += tile_vec_cost(x, m, 7, k, k, (uint64_t)d.vr * ((d.vc + lanes - 1) / lanes) * w);
    sim_count(x, PQ_V, (uint64_t)d.vr * d.vc * e);
    return 0;
}

static void foot_pow(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    tile_foot_whole(j, args, f, 1u << j->dst);
}

int tile_lower_pow(LowerView *L, const Op *op, Instr *in)
{
    const char *name = op_info[op->kind].name;
    for (uint32_t i = 0; i < op->noperands; i++) {
        const Type *t = op->operands[i]->type;
        if (t->kind == TY_TILE_BUF && (t->blayout != TBL_ROW_MAJOR || t->slayout != TSL_NONE_BOX)) {
            lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' runs on row-major tiles (blayout=row_major, slayout=none_box) only",
                     name);
            return -1;
        }
    }
    int d = lw_group_index(L, op, "dst", 0);
    ElemKind k = elem_kind(op->operands[d]->type->elem);
    if (!ek_int(k) || k == EK_S64 || k == EK_U64) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' on %s tiles is not executable yet (integer tiles up to 32 bits run; "
                 "the A5 floating-point algorithm is not yet followed, docs/tile.md)", name, ek_name(k));
        return -1;
    }
    TileJob *j = tile_job(L, op, in);
    if (!j) return -1;
    in->foot = foot_pow;
    in->cost = 1;
    j->dst = (int8_t)d;
    j->ek = j->sek = (uint8_t)k;
    if (op->kind == OP_TPOW) {
        j->src0 = (int8_t)lw_group_index(L, op, "base", 0);
        j->src1 = (int8_t)lw_group_index(L, op, "exp", 0);
    } else {
        j->src0 = (int8_t)lw_group_index(L, op, "src", 0);
        j->scal = (int8_t)lw_group_index(L, op, "scalar", 0);
    }
    in->pfn = p_pow;
    return 0;
}
