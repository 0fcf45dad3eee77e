/* vec_ls_idx.c — the vector accesses whose addresses are not one contiguous footprint: block-strided
 * (vsldb/vsstb: eight 32-byte blocks, resolutions Q23) and indexed (vgather2, vgather2_bc, vgatherb, vscatter:
 * resolutions Q22, docs/semantics.md §2.6), with their lowering. */
#include "vec_ls_int.h"
#include <inttypes.h>
#include "lane.h"

/* ------------------------------------------------------------------ vsldb / vsstb (resolutions Q23) */

/* Block b (0..7) of a block-strided access: non-post p + (rs + b·bs)·32; post-update p + b·bs·32 with the
   pointer result p + rs·32. Block b is enabled by b32 mask lane b (image bit 4b). Returns 0 or -1. */
static int block_addrs(Exec *x, const Instr *in, const VlsX *m, uint64_t *addr, const uint8_t **img)
{
    uint64_t p = fr(x, m->base);
    uint64_t bs = fr(x, m->a2) & 0xffff, rs = fr(x, m->a3) & 0xffff;
    uint64_t first = p;
    if (m->pn >= 0) fr_set_u64(x, m->pn, sim_index_addr(p, (int64_t)rs, 32));
    else first = sim_index_addr(p, (int64_t)rs, 32);
    if (p & 31) {
        sim_mem(x, in, AS_UB, p, 32, 32, m->kind ? ACC_WRITE : ACC_READ,
                m->kind ? "block store destination" : "block load source");
        return -1;
    }
    *img = FR(x, m->mask);
    for (unsigned b = 0; b < 8; b++) addr[b] = sim_index_addr(first, (int64_t)(b * bs), 32);
    return 0;
}

static const Instr *x_vsldb(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint64_t addr[8];
    const uint8_t *img;
    if (block_addrs(x, in, m, addr, &img)) return NULL;
    uint8_t r[256];
    for (unsigned b = 0; b < 8; b++) {
        if (!img_bit(img, 4 * b)) {
            memset(r + 32 * b, 0, 32);   /* masked-off block: zero, no access, no fault (S) */
            continue;
        }
        const uint8_t *s = ubp(x, in, addr[b], 32, 32, ACC_READ, "block load source");
        if (!s) return NULL;
        memcpy(r + 32 * b, s, 32);
    }
    memcpy(FR(x, in->res[0]), r, 256);
    count(x, 256);
    return in + 1;
}

static const Instr *x_vsstb(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint64_t addr[8];
    const uint8_t *img;
    if (block_addrs(x, in, m, addr, &img)) return NULL;
    uint8_t *d[8];
    for (unsigned b = 0; b < 8; b++) {
        d[b] = NULL;
        if (!img_bit(img, 4 * b)) continue;   /* masked-off block: not written */
        if (!(d[b] = ubp(x, in, addr[b], 32, 32, ACC_WRITE, "block store destination"))) return NULL;
    }
    const uint8_t *v = FR(x, in->arg[0]);
    for (unsigned b = 0; b < 8; b++)
        if (d[b]) memmove(d[b], v + 32 * b, 32);
    count(x, 256);
    return in + 1;
}

/* ------------------------------------------------------------------ gathers and scatter (Q22, §2.6) */

/* Traps for the first active lane whose element address is outside UB or misaligned. */
static void lane_trap(Exec *x, const Instr *in, uint64_t a, unsigned e, int mode, const char *what)
{
    sim_mem(x, in, AS_UB, a, e, e, mode, what);
}

/* vgather2 / vgather2_bc: lane i (N = index lanes, lane width W = 256/N) loads the E-byte element at
   base + idx[i]·E (idx unsigned), zero-extended to W bytes; inactive lanes are 0 and access nothing. */
static const Instr *x_vgather2(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint64_t base = fr(x, m->base);
    const uint8_t *idx = FR(x, m->a2), *img = FR(x, m->mask);
    Core *c = x->core;
    uint64_t sz = c->memsz[AS_UB];
    const uint8_t *ub = c->mem[AS_UB];
    unsigned e = m->e, iw = (unsigned)m->aux;
    uint8_t r[256];
    memset(r, 0, 256);
    unsigned active = 0;
    BY_WIDTH(m->w, {
        for (unsigned i = 0; i < 256 / W; i++) {
            if (!img_bit(img, W * i)) continue;
            uint64_t a = sim_index_addr(base, (int64_t)lane_get(idx, iw, i), e);
            if ((a & (e - 1)) || a > sz || e > sz - a) {
                lane_trap(x, in, a, e, ACC_READ, "gather source element");
                return NULL;
            }
            if (__builtin_expect(c->cl->watch, 0)) sim_access(x, in, c, AS_UB, a, e, ACC_READ);
            uint64_t v = 0;
            memcpy(&v, ub + a, e < W ? e : W);   /* little-endian host: zero extension */
            ST(r, i, v);
            active++;
        }
    })
    memcpy(FR(x, in->res[0]), r, 256);
    count(x, (uint64_t)active * e);
    return in + 1;
}

/* vgatherb: block k (k < 8) is the 32 bytes at base + off[k] (u32 byte offset), enabled by b32 lane k. */
static const Instr *x_vgatherb(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint64_t base = fr(x, m->base);
    const uint8_t *off = FR(x, m->a2), *img = FR(x, m->mask);
    if (base & 31) {
        sim_mem(x, in, AS_UB, base, 32, 32, ACC_READ, "block gather base");
        return NULL;
    }
    uint8_t r[256];
    unsigned active = 0;
    for (unsigned k = 0; k < 8; k++) {
        if (!img_bit(img, 4 * k)) {
            memset(r + 32 * k, 0, 32);
            continue;
        }
        const uint8_t *s = ubp(x, in, sim_index_addr(base, (int64_t)lane_get(off, 4, k), 1), 32, 32, ACC_READ, "block gather source");
        if (!s) return NULL;
        memcpy(r + 32 * k, s, 32);
        active++;
    }
    memcpy(FR(x, in->res[0]), r, 256);
    count(x, active * 32u);
    return in + 1;
}

/* vscatter: active lane i writes the low E bytes of its W-byte lane to base + idx[i]·E. All addresses are
   checked first; lane_scatter writes them, the lowest lane winning on a duplicate address. */
static const Instr *x_vscatter(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint64_t base = fr(x, m->base);
    const uint8_t *v = FR(x, in->arg[0]), *idx = FR(x, m->a2), *img = FR(x, m->mask);
    Core *c = x->core;
    uint64_t sz = c->memsz[AS_UB];
    uint8_t *ub = c->mem[AS_UB];
    unsigned e = m->e, iw = (unsigned)m->aux, w = m->w, n = 256 / w;
    uint8_t *dst[256];
    for (unsigned i = 0; i < n; i++) {
        dst[i] = NULL;
        if (!img_bit(img, w * i)) continue;
        uint64_t a = sim_index_addr(base, (int64_t)lane_get(idx, iw, i), e);
        if ((a & (e - 1)) || a > sz || e > sz - a) {
            lane_trap(x, in, a, e, ACC_WRITE, "scatter destination element");
            return NULL;
        }
        dst[i] = ub + a;
    }
    if (__builtin_expect(c->cl->watch, 0))
        for (unsigned i = 0; i < n; i++)
            if (dst[i]) sim_access(x, in, c, AS_UB, (uint64_t)(dst[i] - ub), e, ACC_WRITE);
    unsigned la, lb;
    if (lane_scatter_alias(dst, n, &la, &lb))   /* which lane wins is unresolved (Q22): ptosim keeps the lowest */
        sim_warn_once(x, in, DIAG_T_SCATTER_ALIAS, "lanes %u and %u both write UB address 0x%" PRIx64 "; ptosim keeps "
                      "lane %u's value (which lane wins is not specified)", la, lb, (uint64_t)(dst[la] - ub), la);
    count(x, (uint64_t)lane_scatter(dst, v, n, w, e) * e);
    return in + 1;
}

/* ------------------------------------------------------------------ lowering */

int vls_lower_indexed(LowerView *L, const Op *op, Instr *in)
{
    switch (op->kind) {
    case OP_VSLDB: case OP_VSSTB: {
        VlsX *m = newx(L, op);
        if (!m) return -1;
        int ld = op->kind == OP_VSLDB;
        mem_operand(L, op, in, m, ld ? "src" : "dst", NULL, ld ? 1 : 0);
        m->a2 = slot_of(in, lw_group_index(L, op, "bs", 0));
        m->a3 = slot_of(in, lw_group_index(L, op, "rs", 0));
        m->mask = slot_of(in, lw_group_index(L, op, "m", 0));
        m->kind = (uint8_t)!ld;
        in->ext = m;
        in->fn = ld ? x_vsldb : x_vsstb;
        return 0;
    }
    case OP_VGATHER2: case OP_VGATHER2_BC: case OP_VGATHERB: case OP_VSCATTER: {
        VlsX *m = newx(L, op);
        if (!m) return -1;
        int sc = op->kind == OP_VSCATTER;
        mem_operand(L, op, in, m, sc ? "dst" : "src", NULL, -1);
        int ii = lw_group_index(L, op, "idx", 0);
        m->a2 = slot_of(in, ii);
        m->mask = slot_of(in, lw_group_index(L, op, "m", 0));
        const Type *it = otype(op, ii);
        unsigned iw = elem_bytes_of(it);
        unsigned lanes = it && it->kind == TY_VREG && it->lanes ? it->lanes : 256 / iw;
        m->aux = iw;
        m->e = (uint8_t)m->unit;
        m->w = (uint8_t)(256 / lanes);
        if (m->w == 0 || (m->w & (m->w - 1)) || m->w > 8 || (iw & (iw - 1)) || m->e > 8 || (m->e & (m->e - 1)))
            return bad(L, op, "unsupported index or element width");
        if (m->e > m->w && op->kind != OP_VGATHERB)
            return bad(L, op, "the memory element is wider than a lane of the index vector");
        in->ext = m;
        in->fn = op->kind == OP_VGATHERB ? x_vgatherb : sc ? x_vscatter : x_vgather2;
        return 0;
    }
    default:
        return 0;
    }
}
