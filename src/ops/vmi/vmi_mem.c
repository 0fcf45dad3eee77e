/* vmi_mem.c — VMI loads and stores between UB and logical vectors: continuous, broadcast, unpack and
 * deinterleave loads, interleave stores, group (row-strided and slot) forms, 32-byte block-strided forms,
 * gathers and scatters. Every access goes through sim_mem, so bounds, element alignment, the race detector
 * and the initialisation checker see a VMI access exactly as they see a micro one (docs/vmi.md "Memory"). */
#include "vmi_int.h"

/* Sub-kinds (VmiX.sub). */
enum { ML_CONT, ML_BRC, ML_UNPACK, ML_DINTLV, ML_GROUP, ML_GROUP_BRC, ML_BLOCK, MG_GATHER, MG_GATHERB };

/* Host pointer for [a, a+len) of UB, element-aligned, or NULL after a trap. */
static uint8_t *ub(Exec *x, const Instr *in, uint64_t a, uint64_t len, unsigned align, int mode, const char *what)
{
    return sim_mem(x, in, AS_UB, a, len, align ? align : 1, mode, what);
}

/* Base address of the op's memory operand: the pointer plus the offset in elements of e bytes. */
static uint64_t ea(Exec *x, const Instr *in, const VmiX *v, unsigned e)
{
    uint64_t p = vx_scalar(x, in, v->b);
    int64_t off = v->c >= 0 ? (int64_t)vx_scalar(x, in, v->c) : 0;
    return sim_index_addr(p, off, e);
}

static void count(Exec *x, uint64_t bytes) { x->core->pipes[PQ_V].bytes += bytes; }

/* ------------------------------------------------------------------ loads */

static const Instr *x_load(Exec *x, const Instr *in)
{
    const VmiX *v = VX(in);
    static _Thread_local uint8_t out[VMI_MAX_BYTES], out2[VMI_MAX_BYTES];
    const unsigned e = v->e2;   /* lanes of the result; the pointer's element has e bytes too (unpack: v->e) */
    const uint32_t L = v->L2;
    uint64_t a = ea(x, in, v, v->sub == ML_UNPACK ? v->e : e);
    memset(out, 0, (size_t)v->K2 * VREG_BYTES);
    switch (v->sub) {
    case ML_CONT: {
        const uint8_t *s = ub(x, in, a, (uint64_t)L * e, e, ACC_READ, "vector load source");
        if (!s) return NULL;
        memcpy(out, s, (size_t)L * e);
        count(x, (uint64_t)L * e);
        if (v->a >= 0 && v->m >= 0) {   /* masked_load: the passthru where the mask is off */
            const uint8_t *m = vx_op(x, in, v->m), *p = vx_op(x, in, v->a);
            for (uint32_t i = 0; i < L; i++)
                if (!vm_bit(m, i)) memcpy(out + (size_t)i * e, p + (size_t)i * e, e);
        }
        break;
    }
    case ML_BRC: {
        const uint8_t *s = ub(x, in, a, e, e, ACC_READ, "vector load source");
        if (!s) return NULL;
        for (uint32_t i = 0; i < L; i++) memcpy(out + (size_t)i * e, s, e);
        count(x, e);
        break;
    }
    case ML_UNPACK: {   /* narrow elements zero-extended into wide lanes */
        const unsigned es = v->e;
        const uint8_t *s = ub(x, in, a, (uint64_t)L * es, es, ACC_READ, "vector load source");
        if (!s) return NULL;
        for (uint32_t i = 0; i < L; i++) lane_set(out, e, i, lane_get(s, es, i));
        count(x, (uint64_t)L * es);
        break;
    }
    case ML_DINTLV: {   /* 2L elements: even ones to the first result, odd ones to the second */
        const uint8_t *s = ub(x, in, a, 2ull * L * e, e, ACC_READ, "vector load source");
        if (!s) return NULL;
        memset(out2, 0, (size_t)v->K2 * VREG_BYTES);
        for (uint32_t i = 0; i < L; i++) {
            memcpy(out + (size_t)i * e, s + (size_t)(2 * i) * e, e);
            memcpy(out2 + (size_t)i * e, s + (size_t)(2 * i + 1) * e, e);
        }
        memcpy(FR(x, in->res[1]), out2, (size_t)v->K2 * VREG_BYTES);
        count(x, 2ull * L * e);
        break;
    }
    case ML_GROUP: case ML_GROUP_BRC: {   /* C rows of S = L/C lanes (a slot load when S = 1), row g at g*stride */
        const uint32_t C = v->groups, S = L / C;
        int64_t stride = (int64_t)vx_scalar(x, in, v->s);
        const uint32_t rowlen = v->sub == ML_GROUP_BRC ? 1 : S;
        for (uint32_t g = 0; g < C; g++) {
            const uint8_t *s = ub(x, in, a + (uint64_t)((int64_t)g * stride) * e, (uint64_t)rowlen * e, e, ACC_READ,
                                  "vector load source");
            if (!s) return NULL;
            for (uint32_t j = 0; j < S; j++) memcpy(out + (size_t)(g * S + j) * e, s + (size_t)(rowlen == 1 ? 0 : j) * e, e);
            count(x, (uint64_t)rowlen * e);
        }
        break;
    }
    case ML_BLOCK: {   /* 32-byte block b of register r at a + (r*rs + b*bs)*32; with a mask (stride_load) a block
                          whose first lane is off stays 0 and is not read, as vsldb's masked-off block */
        const int64_t bs = (int16_t)vx_scalar(x, in, v->s), rs = v->a >= 0 ? (int16_t)vx_scalar(x, in, v->a) : 0;
        const uint32_t nblk = (L * e + 31) / 32, per = 32 / e;
        const uint8_t *m = v->m >= 0 ? vx_op(x, in, v->m) : NULL;
        for (uint32_t blk = 0; blk < nblk; blk++) {
            if (m && !vm_bit(m, blk * per)) continue;
            uint32_t r = blk / 8, b = blk % 8;
            uint64_t p = a + (uint64_t)(((int64_t)r * rs + (int64_t)b * bs) * 32);
            const uint8_t *s = ub(x, in, p, 32, 32, ACC_READ, "vector load source");
            if (!s) return NULL;
            memcpy(out + (size_t)blk * 32, s, 32);
            count(x, 32);
        }
        break;
    }
    }
    memcpy(FR(x, in->res[0]), out, (size_t)v->K2 * VREG_BYTES);
    return vx_done(x, in, v->K2 * (v->sub == ML_DINTLV ? 2u : 1u));
}

/* ------------------------------------------------------------------ stores */

/* A store through a pointer to narrower elements (e < the value's lane bytes ev) writes the low e bytes of
   each lane: the compiler's narrowing store distribution (docs/vmi.md "Memory"). */
static const Instr *x_store(Exec *x, const Instr *in)
{
    const VmiX *v = VX(in);
    const unsigned e = v->e2, ev = v->e;
    const uint32_t L = v->L;
    const uint8_t *val = vx_op(x, in, v->a), *m = v->m >= 0 ? vx_op(x, in, v->m) : NULL;
    uint64_t a = ea(x, in, v, e);
    switch (v->sub) {
    case ML_CONT: {
        uint8_t *d = ub(x, in, a, (uint64_t)L * e, e, ACC_WRITE, "vector store destination");
        if (!d) return NULL;
        if (!m && e == ev) memcpy(d, val, (size_t)L * e);
        else
            for (uint32_t i = 0; i < L; i++)
                if (!m || vm_bit(m, i)) memcpy(d + (size_t)i * e, val + (size_t)i * ev, e);
        count(x, (uint64_t)L * e);
        break;
    }
    case ML_DINTLV: {   /* two values interleaved: element 2i from the first, 2i + 1 from the second */
        const uint8_t *hi = vx_op(x, in, v->s);
        uint8_t *d = ub(x, in, a, 2ull * L * e, e, ACC_WRITE, "vector store destination");
        if (!d) return NULL;
        for (uint32_t i = 0; i < L; i++) {
            if (m && !vm_bit(m, i)) continue;
            memcpy(d + (size_t)(2 * i) * e, val + (size_t)i * ev, e);
            memcpy(d + (size_t)(2 * i + 1) * e, hi + (size_t)i * ev, e);
        }
        count(x, 2ull * L * e);
        break;
    }
    case ML_GROUP: {
        const uint32_t C = v->groups, S = L / C;
        int64_t stride = (int64_t)vx_scalar(x, in, v->s);
        for (uint32_t g = 0; g < C; g++) {
            uint8_t *d = ub(x, in, a + (uint64_t)((int64_t)g * stride) * e, (uint64_t)S * e, e, ACC_WRITE,
                            "vector store destination");
            if (!d) return NULL;
            for (uint32_t j = 0; j < S; j++)
                if (!m || vm_bit(m, g * S + j)) memcpy(d + (size_t)j * e, val + (size_t)(g * S + j) * ev, e);
            count(x, (uint64_t)S * e);
        }
        break;
    }
    case ML_BLOCK: {   /* block b (E = 32/e lanes) is written when its first lane is active */
        const int64_t bs = (int16_t)vx_scalar(x, in, v->s);
        /* without a repeat stride (vsstb) the blocks of later registers continue the sequence: block blk of
           the value at blk * block_stride (the spec's C code) */
        const int64_t rs = v->gsize ? (int16_t)vx_scalar(x, in, (int)v->gsize - 1) : 8 * bs;
        const uint32_t per = 32 / e, nblk = (L * e + 31) / 32;
        for (uint32_t blk = 0; blk < nblk; blk++) {
            if (m && !vm_bit(m, blk * per)) continue;
            uint32_t r = blk / 8, b = blk % 8;
            uint64_t p = a + (uint64_t)(((int64_t)r * rs + (int64_t)b * bs) * 32);
            uint8_t *d = ub(x, in, p, 32, 32, ACC_WRITE, "vector store destination");
            if (!d) return NULL;
            memcpy(d, val + (size_t)blk * 32, 32);
            count(x, 32);
        }
        break;
    }
    }
    return vx_done(x, in, v->K * (v->sub == ML_DINTLV ? 2u : 1u));
}

/* ------------------------------------------------------------------ gather and scatter */

/* vgather: r[i] = element idx[i] of the table at p (vgatherb: byte offset idx[i]); inactive lanes 0. */
static const Instr *x_gather(Exec *x, const Instr *in)
{
    const VmiX *v = VX(in);
    static _Thread_local uint8_t out[VMI_MAX_BYTES];
    const unsigned e = v->e2, ei = v->e;
    const uint8_t *idx = vx_op(x, in, v->a), *m = vx_op(x, in, v->m);
    uint64_t p = vx_scalar(x, in, v->b);
    if (v->c >= 0) memcpy(out, vx_op(x, in, v->c), (size_t)v->K2 * VREG_BYTES);
    else memset(out, 0, (size_t)v->K2 * VREG_BYTES);
    for (uint32_t i = 0; i < v->L2; i++) {
        if (!vm_bit(m, i)) continue;
        uint32_t j = v->L == v->L2 ? i : (uint32_t)((uint64_t)i * v->L / v->L2);
        uint64_t o = lane_get(idx, ei, j);
        uint64_t addr = p + (v->sub == MG_GATHERB ? o : o * e);
        const uint8_t *s = ub(x, in, addr, e, v->sub == MG_GATHERB ? 1 : e, ACC_READ, "vector gather source");
        if (!s) return NULL;
        memcpy(out + (size_t)i * e, s, e);
    }
    count(x, (uint64_t)v->L2 * e);
    memcpy(FR(x, in->res[0]), out, (size_t)v->K2 * VREG_BYTES);
    return vx_done(x, in, v->K2);
}

/* vscatter: element idx[i] of the table at p = v[i] for active lanes, in lane order. */
static const Instr *x_scatter(Exec *x, const Instr *in)
{
    const VmiX *v = VX(in);
    const unsigned e = v->e;
    const uint8_t *val = vx_op(x, in, v->a), *idx = vx_op(x, in, v->s), *m = vx_op(x, in, v->m);
    const unsigned ei = (unsigned)v->gsize;
    uint64_t p = vx_scalar(x, in, v->b);
    for (uint32_t i = 0; i < v->L; i++) {
        if (!vm_bit(m, i)) continue;
        uint8_t *d = ub(x, in, p + lane_get(idx, ei, i) * e, e, e, ACC_WRITE, "vector scatter destination");
        if (!d) return NULL;
        memcpy(d, val + (size_t)i * e, e);
    }
    count(x, (uint64_t)v->L * e);
    return vx_done(x, in, v->K);
}

/* ------------------------------------------------------------------ lowering */

int vmi_lower_mem(LowerView *L, const Op *op, Instr *in, VmiX *x)
{
    const int is_load = op->kind == OP_VMI_VLOAD || op->kind == OP_VMI_VLOAD_GROUP || op->kind == OP_VMI_VLOAD_BLK ||
                        op->kind == OP_VMI_LOAD || op->kind == OP_VMI_DEINTERLEAVE_LOAD || op->kind == OP_VMI_GROUP_LOAD ||
                        op->kind == OP_VMI_GROUP_BROADCAST_LOAD || op->kind == OP_VMI_MASKED_LOAD ||
                        op->kind == OP_VMI_STRIDE_LOAD;
    /* the spec's {group = C}, or num_groups = C in the compiler's named group loads and stores */
    const int64_t C = vmi_attr_int(op, "group", vmi_attr_int(op, "num_groups", 1));
    if (op->kind == OP_VMI_VGATHER || op->kind == OP_VMI_VGATHERB || op->kind == OP_VMI_GATHER) {
        x->a = (int8_t)vmi_operand(L, op, "idx");
        x->b = (int8_t)vmi_operand(L, op, "src");
        x->c = (int8_t)vmi_operand(L, op, "pass");   /* gather: inactive lanes take it (vgather: 0) */
        const Type *it = op->operands[x->a]->type;
        x->L = it->lanes;
        x->e = (uint8_t)vmi_lane_bytes(it->elem);
        x->sub = op->kind == OP_VMI_VGATHERB ? MG_GATHERB : MG_GATHER;
        in->fn = x_gather;
        return 0;
    }
    if (op->kind == OP_VMI_VSCATTER || op->kind == OP_VMI_SCATTER) {
        x->a = (int8_t)vmi_operand(L, op, "v");
        x->b = (int8_t)vmi_operand(L, op, "dst");
        x->s = (int8_t)vmi_operand(L, op, "idx");
        x->gsize = vmi_lane_bytes(op->operands[x->s]->type->elem);
        in->fn = x_scatter;
        return 0;
    }
    x->b = (int8_t)vmi_operand(L, op, is_load ? "src" : "dst");
    x->c = (int8_t)vmi_operand(L, op, "off");
    int dist = op_token_id(op, "dist_mode");
    if (is_load) {
        const Type *pt = op->operands[x->b]->type;
        x->e = (uint8_t)vmi_lane_bytes(pt->elem);   /* the pointer's element (unpack reads those) */
        switch (op->kind) {
        case OP_VMI_VLOAD_GROUP: case OP_VMI_GROUP_LOAD: case OP_VMI_GROUP_BROADCAST_LOAD:
            x->s = (int8_t)vmi_operand(L, op, "stride");
            x->groups = C > 0 ? (uint32_t)C : 0;
            x->sub = dist == T_VDIST_BRC || op->kind == OP_VMI_GROUP_BROADCAST_LOAD ? ML_GROUP_BRC : ML_GROUP;
            if (!x->groups || x->L2 % x->groups) {
                lw_error(L, op, DIAG_V_ATTR, "'group' (%u) must divide the %u lanes of the result", x->groups, x->L2);
                return -1;
            }
            break;
        case OP_VMI_VLOAD_BLK: case OP_VMI_STRIDE_LOAD:
            x->s = (int8_t)vmi_operand(L, op, "bs");
            x->a = (int8_t)vmi_operand(L, op, "rs");
            x->sub = ML_BLOCK;
            break;
        default:
            if (op->kind == OP_VMI_MASKED_LOAD) x->a = (int8_t)vmi_operand(L, op, "pass");
            x->sub = dist == T_VDIST_BRC ? ML_BRC : dist == T_VDIST_UNPACK ? ML_UNPACK
                   : dist == T_VDIST_DINTLV || op->kind == OP_VMI_DEINTERLEAVE_LOAD ? ML_DINTLV : ML_CONT;
            if (x->sub == ML_CONT && x->e < x->e2) x->sub = ML_UNPACK;   /* narrower elements widen into the lanes */
            break;
        }
        in->fn = x_load;
        return 0;
    }
    x->a = (int8_t)vmi_operand(L, op, "v");
    x->e2 = (uint8_t)vmi_lane_bytes(op->operands[x->b]->type->elem);   /* the pointer's element */
    if (x->e2 > x->e) {
        char b[96];
        ty_format(op->operands[x->b]->type, b, sizeof b);
        lw_error(L, op, DIAG_V_ELEM_TYPE, "'%s' stores %u-byte lanes through %s, whose elements are wider",
                 op_info[op->kind].name, x->e, b);
        return -1;
    }
    switch (op->kind) {
    case OP_VMI_VSTORE_GROUP: case OP_VMI_GROUP_STORE:
        x->s = (int8_t)vmi_operand(L, op, "stride");
        x->groups = C > 0 ? (uint32_t)C : 0;
        x->sub = ML_GROUP;
        if (!x->groups || x->L % x->groups) {
            lw_error(L, op, DIAG_V_ATTR, "'group' (%u) must divide the %u lanes of the value", x->groups, x->L);
            return -1;
        }
        break;
    case OP_VMI_VSTORE_BLK: case OP_VMI_VSSTB: case OP_VMI_STRIDE_STORE: {
        x->s = (int8_t)vmi_operand(L, op, "bs");
        int rs = vmi_operand(L, op, "rs");
        x->gsize = rs >= 0 ? (uint32_t)rs + 1 : 0;
        x->sub = ML_BLOCK;
        break;
    }
    default: {
        int hi = vmi_operand(L, op, "hi");
        if (hi >= 0 || dist == T_VDIST_DINTLV) {
            x->s = (int8_t)hi;
            x->sub = ML_DINTLV;
            if (hi < 0) {
                lw_error(L, op, DIAG_V_ATTR, "an interleaving store (dist_mode = \"dintlv\") takes two values");
                return -1;
            }
        } else {
            x->sub = ML_CONT;
        }
        break;
    }
    }
    in->fn = x_store;
    return 0;
}
