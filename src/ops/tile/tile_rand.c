/* tile_rand.c — pto.trandom: the Philox counter-based generator of the A5 template (lib/TileOps/a5/trandom.py,
 * template_trandom), one V job filling the destination's valid region with u32 words. Per register (64 lanes):
 * lane i's 128-bit counter is (counter3..counter0) + i; `rounds` (default 10) Philox rounds with the template's
 * multipliers 0xD2511F53 / 0xCD9E8D57 and key increments 0x9E3779B9 / 0xBB67AE85 (vmull's 32x32->64 products,
 * vxor, vadds) produce four words per lane, which two vintlv levels interleave into four registers stored at
 * columns 256k.. of the row: words 4i..4i+3 of a 256-word group come from lane i (i < 64). After each group the
 * counters advance by 64 (by ((valid columns - 1) mod 64) + 1 after a row's last group) with carries, and they
 * keep advancing from row to row. docs/semantics.md §14 "trandom". */
#include "tile_int.h"

enum { TR_LANES = 64, TR_GROUP = 4 * TR_LANES };
enum { TR_ROUNDS };   /* Instr.imm: the rounds attribute */

/* Adds `add` to lane counters (c0 lowest word) with carry, as the template's vaddc/vaddcs chain does. */
static void ctr_add(uint32_t c[4], uint32_t add)
{
    uint64_t s = (uint64_t)c[0] + add;
    c[0] = (uint32_t)s;
    for (int k = 1; k < 4 && (s >> 32); k++) {
        s = (uint64_t)c[k] + 1;
        c[k] = (uint32_t)s;
    }
}

/* The four Philox output words of one counter (the lane of _philox_round, `rounds` times). */
static void philox(const uint32_t ctr[4], uint32_t k0, uint32_t k1, unsigned rounds, uint32_t out[4])
{
    uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
    for (unsigned r = 0; r < rounds; r++) {
        uint64_t p0 = (uint64_t)c0 * 0xD2511F53u, p1 = (uint64_t)c2 * 0xCD9E8D57u;
        uint32_t l0 = (uint32_t)p0, h0 = (uint32_t)(p0 >> 32), l1 = (uint32_t)p1, h1 = (uint32_t)(p1 >> 32);
        c0 = (uint32_t)valu_eval(VOP_XOR, EK_U32, valu_eval(VOP_XOR, EK_U32, h1, c1, 0), k0, 0);
        c2 = (uint32_t)valu_eval(VOP_XOR, EK_U32, valu_eval(VOP_XOR, EK_U32, h0, c3, 0), k1, 0);
        c1 = l1;
        c3 = l0;
        k0 = (uint32_t)valu_eval(VOP_ADD, EK_U32, k0, 0x9E3779B9u, 0);
        k1 = (uint32_t)valu_eval(VOP_ADD, EK_U32, k1, 0xBB67AE85u, 0);
    }
    out[0] = c0;
    out[1] = c1;
    out[2] = c2;
    out[3] = c3;
}

/* args: key0, key1, counter0..3, dst. */
static int p_trandom(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    const Type *dt = j->ty[(int)j->dst];
    TileRt d = tj_tile(j, args, j->dst);
    if (tile_check_valid(x, in, dt, d, "destination")) return -1;
    const uint32_t k0 = (uint32_t)tj_scalar(j, args, 0), k1 = (uint32_t)tj_scalar(j, args, 1);
    const unsigned rounds = (unsigned)in->imm[TR_ROUNDS];
    uint32_t ctr[TR_LANES][4];
    for (unsigned i = 0; i < TR_LANES; i++) {
        for (int k = 0; k < 4; k++) ctr[i][k] = (uint32_t)tj_scalar(j, args, 2 + k);
        ctr_add(ctr[i], i);   /* vci(0) added with carry */
    }
    const uint64_t groups = (d.vc + TR_GROUP - 1) / TR_GROUP, pitch = (uint64_t)dt->dims[1] * 4;
    const uint32_t tail_add = d.vc ? (uint32_t)((d.vc - 1) % TR_LANES + 1) : 0;
    uint32_t buf[TR_GROUP];
    for (uint64_t r = 0; r < d.vr; r++) {
        for (uint64_t g = 0; g < groups; g++) {
            for (unsigned i = 0; i < TR_LANES; i++) philox(ctr[i], k0, k1, rounds, &buf[4 * i]);
            /* the stores of the four interleaved registers, masked at the valid columns */
            uint64_t c0 = g * TR_GROUP, n = d.vc - c0 < TR_GROUP ? d.vc - c0 : TR_GROUP;
            uint8_t *pd = sim_mem(x, in, (AddrSpace)dt->space, d.addr + r * pitch + c0 * 4, n * 4, 1, ACC_WRITE,
                                  "tile destination");
            if (!pd) return -1;
            memcpy(pd, buf, n * 4);
            uint32_t add = g == groups - 1 ? tail_add : TR_LANES;
            for (unsigned i = 0; i < TR_LANES; i++) ctr_add(ctr[i], add);
        }
    }
    /* one group: rounds x (2 vmull, 4 vxor, 2 vadds), 4 vintlv, 4 vsts, the counter update (vaddc + 3 vaddcs) */
    OpKind m[8 * 16 + 16];
    unsigned n = 0;
    for (unsigned r = 0; r < rounds && r < 16; r++) {
        m[n++] = OP_VMULL; m[n++] = OP_VMULL;
        m[n++] = OP_VXOR; m[n++] = OP_VXOR; m[n++] = OP_VXOR; m[n++] = OP_VXOR;
        m[n++] = OP_VADDS; m[n++] = OP_VADDS;
    }
    for (unsigned k = 0; k < 4; k++) { m[n++] = OP_VINTLV; m[n++] = OP_VSTS; m[n++] = k ? OP_VADDCS : OP_VADDC; }
    x->extra_cost += tile_vec_cost(x, m, n, EK_U32, EK_U32, d.vr * groups);
    sim_count(x, PQ_V, (uint64_t)d.vr * d.vc * 4);
    return 0;
}

/* What trandom writes: the destination's valid rows. */
static void foot_trandom(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    const Type *dt = j->ty[(int)j->dst];
    TileRt d = tj_tile(j, args, j->dst);
    if (d.vr && d.vc) as_add(f, dt->space, d.addr, d.addr + (d.vr - 1) * (uint64_t)dt->dims[1] * 4 + d.vc * 4, 1);
}

int tile_lower_rand(LowerView *L, const Op *op, Instr *in)
{
    TileJob *j = tile_job(L, op, in);
    if (!j) return -1;
    j->dst = (int8_t)lw_group_index(L, op, "dst", 0);
    const Type *dt = op->operands[j->dst]->type;
    if (ty_bits(dt->elem) != 32 || dt->elem->kind != TY_INT) {
        lw_error(L, op, DIAG_V_ELEM_TYPE, "'pto.trandom' fills 32-bit integer tiles");
        return -1;
    }
    const Attr *a = op_attr(op, "rounds");
    in->imm[TR_ROUNDS] = a && a->kind == AT_INT ? a->i : 10;
    j->ek = j->sek = (uint8_t)EK_U32;
    in->pfn = p_trandom;
    in->foot = foot_trandom;
    in->cost = 1;
    return 0;
}
