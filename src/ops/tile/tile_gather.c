/* tile_gather.c — the gather/scatter tile ops beyond tgather's index form (that one is in tile_extra.c), each one
 * V job, following the A5 TileLib templates (PTOAS lib/TileOps/a5/tgather.py, tscatter.py, tgatherb.py,
 * thistogram.py); docs/semantics.md §14.6 states each reading with its evidence:
 *   tgather  mask, "row"   dst[r, c] = src[r, c*T + S] over dst's valid region (T = 1, 2, 4 and S the selected
 *                          lane of the pattern: P1111 (S 0, T 1), P0101 (0, 2), P1010 (1, 2), P0001 (0, 4),
 *                          P0010 (1, 4), P0100 (2, 4), P1000 (3, 4))
 *   tgather  mask, "col"   dst[r, c] = src[r*T + S, c] over dst's valid region
 *   tscatter mask, "row"   over src's valid region: dst[r, p] = src[r, p/T] where p % T == S, else 0, for
 *                          p < valid cols * T; the rest of dst is not written
 *   tscatter mask, "col"   dst zeroed whole (except P1111), then dst[r*T + S, c] = src[r, c]
 *   tscatter indices       dst zeroed whole, then per row of dst's valid region, per register of index lanes
 *                          (64 for 32-bit, 128 for 16-bit indices): dst element idx[r, c] = src[r, c]; one
 *                          register is one vscatter (lane_scatter: the lowest lane wins a duplicate), registers
 *                          in row-major order (a later one overwrites)
 *   tgatherb               per row, per 8 offsets: 8 blocks of 32 bytes from src's base + offset[r, k] (bytes)
 *   thistogram             per valid src row: 256 cumulative u32 counts of one byte of each element, filtered
 *                          by the upper bytes (chistv2 is a cumulative histogram)
 *   mgather / mscatter     GM <-> UB through a UB index tile (pto-isa a5 MGather.hpp / MScatter.hpp): row coalesce
 *                          (table row idx[r]) or elem (table element idx[r, c]); OOB modes undefined (T-OOB trap),
 *                          clamp, wrap, zero (gather) / skip (scatter); scatter atomics add/max/min; positions in
 *                          row-major order, a later one winning a duplicate (Conflict::Last); mgather GM -> L1
 *                          into an NZ mat tile on MTE2 (row, or elem through the GM scratch view)
 * An index, offset or pattern position outside its tile is a located T-TILE trap. The compare form of tgather parses
 * and verifies but is not executable yet (T-UNSUPPORTED). */
#include "tile_int.h"
#include <inttypes.h>

enum { GX_GMASK_ROW, GX_GMASK_COL, GX_SMASK_ROW, GX_SMASK_COL, GX_SCATTER, GX_GATHERB, GX_HIST };

static uint64_t numel(const Type *t) { return (uint64_t)t->dims[0] * (uint64_t)t->dims[1]; }

/* n elements from element number `at` of tile operand i's storage (row-major, row pitch = its columns); a range
   past the tile's rows x cols traps T-TILE (no access outside the tile). */
static uint8_t *tile_at(Exec *x, const Instr *in, const TileJob *j, const uint64_t *args, int i, uint64_t at,
                        uint64_t n, int mode, const char *what)
{
    const Type *t = j->ty[i];
    uint64_t tot = numel(t);
    if (at > tot || n > tot - at) {
        sim_trap(x, in, DIAG_T_TILE, "%s: elements %" PRIu64 "..%" PRIu64 " are outside the %lldx%lld tile (%" PRIu64
                 " elements)", what, at, at + n - 1, (long long)t->dims[0], (long long)t->dims[1], tot);
        return NULL;
    }
    unsigned e = ty_bytes(t->elem);
    return sim_mem(x, in, (AddrSpace)t->space, tj_tile(j, args, i).addr + at * e, n * e, 1, mode, what);
}

static void charge(Exec *x, const TileJob *j, const OpKind *m, unsigned n, uint64_t repeats, uint64_t bytes)
{
    x->extra_cost += tile_vec_cost(x, m, n, (ElemKind)j->ek, (ElemKind)j->sek, repeats);
    sim_count(x, PQ_V, bytes);
}

static uint64_t regs(uint64_t n, unsigned e) { return (n * e + VREG_BYTES - 1) / VREG_BYTES; }

/* tgather, mask-pattern forms: konst = S, tok = T. */
static int p_gmask(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    TileRt d = tj_tile(j, args, j->dst);
    const Type *st = j->ty[(int)j->src0], *dt = j->ty[(int)j->dst];
    uint64_t sc = (uint64_t)st->dims[1], dc = (uint64_t)dt->dims[1], s = j->konst, t = (uint64_t)j->tok;
    unsigned e = ty_bytes(dt->elem);
    for (uint64_t r = 0; r < d.vr && d.vc; r++) {
        int row = j->kind == GX_GMASK_ROW;
        uint64_t first = row ? r * sc + s : (r * t + s) * sc, span = row ? (d.vc - 1) * t + 1 : d.vc;
        const uint8_t *ps = tile_at(x, in, j, args, j->src0, first, span, ACC_READ, "tgather source");
        uint8_t *pd = ps ? tile_at(x, in, j, args, j->dst, r * dc, d.vc, ACC_WRITE, "tgather destination") : NULL;
        if (!pd) return -1;
        for (uint64_t c = 0; c < d.vc; c++)   /* ascending: in place, a position is read before it is written */
            memmove(pd + c * e, ps + (row ? c * t : c) * e, e);
    }
    static const OpKind m[] = {OP_VLDS, OP_VDINTLV, OP_VSTS};
    charge(x, j, m, t > 1 && j->kind == GX_GMASK_ROW ? 3 : 2, d.vr * regs(d.vc * t, e), (uint64_t)d.vr * d.vc * e);
    return 0;
}

/* tscatter, mask-pattern forms: konst = S, tok = T; flat: zero the destination first (the col form but P1111). */
static int p_smask(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    TileRt s = tj_tile(j, args, j->src0);
    const Type *st = j->ty[(int)j->src0], *dt = j->ty[(int)j->dst];
    uint64_t sc = (uint64_t)st->dims[1], dc = (uint64_t)dt->dims[1], st0 = j->konst, t = (uint64_t)j->tok;
    unsigned e = ty_bytes(dt->elem);
    if (j->flat) {
        uint8_t *p = tile_at(x, in, j, args, j->dst, 0, numel(dt), ACC_WRITE, "tscatter destination");
        if (!p) return -1;
        memset(p, 0, numel(dt) * e);
    }
    for (uint64_t r = 0; r < s.vr && s.vc; r++) {
        const uint8_t *ps = tile_at(x, in, j, args, j->src0, r * sc, s.vc, ACC_READ, "tscatter source");
        if (!ps) return -1;
        if (j->kind == GX_SMASK_COL) {
            uint8_t *pd = tile_at(x, in, j, args, j->dst, (r * t + st0) * dc, s.vc, ACC_WRITE, "tscatter destination");
            if (!pd) return -1;
            memmove(pd, ps, s.vc * e);
            continue;
        }
        uint64_t n = s.vc * t;
        uint8_t *pd = tile_at(x, in, j, args, j->dst, r * dc, n, ACC_WRITE, "tscatter destination");
        if (!pd) return -1;
        for (uint64_t p = n; p-- > 0;) {   /* descending: in place, a source element is read before it is overwritten */
            if (p % t == st0) memmove(pd + p * e, ps + (p / t) * e, e);
            else memset(pd + p * e, 0, e);
        }
    }
    static const OpKind m[] = {OP_VLDS, OP_VINTLV, OP_VSTS};
    charge(x, j, m, t > 1 && j->kind == GX_SMASK_ROW ? 3 : 2, s.vr * regs(s.vc * t, e), (uint64_t)s.vr * s.vc * t * e);
    return 0;
}

/* tscatter, index form: mask = the index tile. */
static int p_scatter(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    TileRt d = tj_tile(j, args, j->dst);
    const Type *st = j->ty[(int)j->src0], *dt = j->ty[(int)j->dst], *it = j->ty[(int)j->mask];
    uint64_t sc = (uint64_t)st->dims[1], ic = (uint64_t)it->dims[1], tot = numel(dt);
    unsigned e = ty_bytes(dt->elem), ie = ty_bytes(it->elem), lanes = VREG_BYTES / ie;
    uint8_t *base = tile_at(x, in, j, args, j->dst, 0, tot, ACC_WRITE, "tscatter destination");
    if (!base) return -1;
    memset(base, 0, tot * e);
    uint8_t *dst[256];
    for (uint64_t r = 0; r < d.vr; r++)
        for (uint64_t c0 = 0; c0 < d.vc; c0 += lanes) {
            unsigned n = (unsigned)(d.vc - c0 < lanes ? d.vc - c0 : lanes);
            const uint8_t *pi = tile_at(x, in, j, args, j->mask, r * ic + c0, n, ACC_READ, "tscatter indices");
            const uint8_t *ps = pi ? tile_at(x, in, j, args, j->src0, r * sc + c0, n, ACC_READ, "tscatter source") : NULL;
            if (!ps) return -1;
            for (unsigned i = 0; i < n; i++) {
                uint64_t ix = lane_get(pi, ie, i);
                if (ix >= tot) {
                    sim_trap(x, in, DIAG_T_TILE, "index %" PRIu64 " at idx[%" PRIu64 ", %" PRIu64 "] is outside the "
                             "%lldx%lld destination tile (%" PRIu64 " elements)", ix, r, c0 + i,
                             (long long)dt->dims[0], (long long)dt->dims[1], tot);
                    return -1;
                }
                if (!(dst[i] = tile_at(x, in, j, args, j->dst, ix, 1, ACC_WRITE, "tscatter destination"))) return -1;
            }
            unsigned la, lb;
            if (lane_scatter_alias(dst, n, &la, &lb))
                sim_warn_once(x, in, DIAG_T_SCATTER_ALIAS, "idx[%" PRIu64 ", %" PRIu64 "] and idx[%" PRIu64 ", %" PRIu64
                              "] are both %" PRIu64 " in one vscatter register; ptosim keeps the first's value (which "
                              "lane wins is not specified)", r, c0 + la, r, c0 + lb, lane_get(pi, ie, la));
            lane_scatter(dst, ps, n, e, e);
        }
    static const OpKind m[] = {OP_VLDS, OP_VLDS, OP_VSCATTER};
    charge(x, j, m, 3, d.vr * ((d.vc + lanes - 1) / lanes), (uint64_t)d.vr * d.vc * e);
    return 0;
}

/* tgatherb: mask = the offset tile (u32 byte offsets of 32-byte blocks). Per dst row: rem = dst's valid columns;
   per group k of 8 offsets (k*8 < the offset tile's valid columns) the blocks b < rem are gathered, the first
   min(rem, lanes) elements of the register stored at dst[r, k*lanes]; then rem -= 64 (the template's u32 mask). */
static int p_gatherb(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    TileRt d = tj_tile(j, args, j->dst), o = tj_tile(j, args, j->mask);
    const Type *st = j->ty[(int)j->src0], *dt = j->ty[(int)j->dst], *ot = j->ty[(int)j->mask];
    uint64_t dc = (uint64_t)dt->dims[1], oc = (uint64_t)ot->dims[1];
    unsigned e = ty_bytes(dt->elem), lanes = VREG_BYTES / e;
    uint64_t sbytes = numel(st) * ty_bytes(st->elem), sbase = tj_tile(j, args, j->src0).addr, groups = 0;
    for (uint64_t r = 0; r < d.vr; r++) {
        int64_t rem = (int64_t)d.vc;
        for (uint64_t k = 0; k * 8 < o.vc; k++, rem -= 64) {
            unsigned nb = rem <= 0 ? 0 : rem < 8 ? (unsigned)rem : 8;
            unsigned nd = rem <= 0 ? 0 : rem < (int64_t)lanes ? (unsigned)rem : lanes;
            uint8_t reg[VREG_BYTES];
            memset(reg, 0, sizeof reg);
            const uint8_t *po = nb ? tile_at(x, in, j, args, j->mask, r * oc + k * 8, nb, ACC_READ, "tgatherb offsets")
                                   : NULL;
            if (nb && !po) return -1;
            for (unsigned b = 0; b < nb; b++) {
                uint64_t off = lane_get(po, 4, b);
                if (off > sbytes || 32 > sbytes - off) {
                    sim_trap(x, in, DIAG_T_TILE, "offset %" PRIu64 " at offsets[%" PRIu64 ", %" PRIu64 "]: its 32-byte "
                             "block is outside the %" PRIu64 "-byte source tile", off, r, k * 8 + b, sbytes);
                    return -1;
                }
                const uint8_t *ps = sim_mem(x, in, (AddrSpace)st->space, sbase + off, 32, 32, ACC_READ,
                                            "tgatherb source block");
                if (!ps) return -1;
                memcpy(reg + 32 * b, ps, 32);
            }
            groups++;
            if (!nd) continue;
            uint8_t *pd = tile_at(x, in, j, args, j->dst, r * dc + k * lanes, nd, ACC_WRITE, "tgatherb destination");
            if (!pd) return -1;
            memcpy(pd, reg, (size_t)nd * e);
        }
    }
    static const OpKind m[] = {OP_VLDS, OP_VGATHERB, OP_VSTS};
    charge(x, j, m, 3, groups, groups * VREG_BYTES);
    return 0;
}

/* thistogram: tok = the byte; mask = idx. Row r of dst (its storage from element r*256) gets the 256 cumulative
   counts: dst[r, b] = #{c < valid cols : byte `tok` of src[r, c] <= b and the filter holds}. Filter (u16, byte 0):
   the high byte equals idx element r of its storage; (u32, byte k < 3): bytes 3, 2, 1 (down to k + 1) equal idx
   elements 0, cols, 2*cols of its storage. */
static int p_hist(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    TileRt s = tj_tile(j, args, j->src0);
    const Type *st = j->ty[(int)j->src0], *it = j->ty[(int)j->mask];
    uint64_t sc = (uint64_t)st->dims[1], ic = (uint64_t)it->dims[1];
    unsigned e = ty_bytes(st->elem), byte = (unsigned)j->tok;
    unsigned nf = e == 2 ? (byte == 0) : 3 - byte;   /* the number of filter bytes */
    uint8_t fv[3] = {0, 0, 0};
    if (e == 4)
        for (unsigned k = 0; k < nf; k++) {
            const uint8_t *p = tile_at(x, in, j, args, j->mask, k * ic, 1, ACC_READ, "thistogram idx");
            if (!p) return -1;
            fv[k] = p[0];
        }
    for (uint64_t r = 0; r < s.vr; r++) {
        uint32_t cnt[256];
        memset(cnt, 0, sizeof cnt);
        if (e == 2 && nf) {
            const uint8_t *p = tile_at(x, in, j, args, j->mask, r, 1, ACC_READ, "thistogram idx");
            if (!p) return -1;
            fv[0] = p[0];
        }
        const uint8_t *ps = s.vc ? tile_at(x, in, j, args, j->src0, r * sc, s.vc, ACC_READ, "thistogram source") : NULL;
        if (s.vc && !ps) return -1;
        for (uint64_t c = 0; c < s.vc; c++) {
            uint32_t v = (uint32_t)lane_get(ps, e, (unsigned)c);
            int pass = 1;
            for (unsigned k = 0; k < nf && pass; k++) pass = ((v >> (8 * (e - 1 - k))) & 0xFFu) == fv[k];
            if (pass) cnt[(v >> (8 * byte)) & 0xFFu]++;
        }
        uint8_t *pd = tile_at(x, in, j, args, j->dst, r * 256, 256, ACC_WRITE, "thistogram destination");
        if (!pd) return -1;
        uint32_t run = 0;
        for (unsigned b = 0; b < 256; b++) {
            run += cnt[b];
            memcpy(pd + 4 * b, &run, 4);
        }
    }
    static const OpKind m[] = {OP_VLDSX2, OP_VCMP, OP_CHISTV2, OP_CHISTV2, OP_VCVT, OP_VCVT, OP_VADD, OP_VADD};
    charge(x, j, m, 8, s.vr * ((s.vc + 255) / 256) + s.vr, (uint64_t)s.vr * s.vc * e);
    return 0;
}

/* ------------------------------------------------------------------ mgather / mscatter (GM, pto-isa a5 MGather.hpp,
   MScatter.hpp): tok = coalesce (1 elem), konst = the OOB mode (GOOB_* / SOOB_*), vop = the atomic op (MS_*),
   scal = the view operand. Row mode: table row idx[r] (idx storage element r, a u32) at the view's base + idx * the
   pitch of its second-to-last dim, capacity its rows; elem mode: element idx[r, c] of the packed table from the
   view's base, capacity the product of its shape. */
enum { MS_NONE, MS_ADD, MS_MAX, MS_MIN };
enum { OOB_UNDEF, OOB_CLAMP, OOB_WRAP, OOB_ZERO_SKIP };

static void table_of(const TileJob *j, const uint64_t *args, uint64_t *cap_rows, uint64_t *pitch, uint64_t *cap_el)
{
    const Type *vt = j->ty[(int)j->scal];
    ViewRt v = tj_view(j, args, j->scal);
    int rk = vt->rank;
    uint64_t n = 1;
    for (int i = 0; i < rk; i++) n *= (uint64_t)(v.shape[i] > 0 ? v.shape[i] : 0);
    *cap_el = n;
    *cap_rows = rk >= 2 ? (uint64_t)(v.shape[rk - 2] > 0 ? v.shape[rk - 2] : 0) : 1;
    *pitch = rk >= 2 ? (uint64_t)v.stride[rk - 2] : 0;
}

/* The index of position k of the index tile as the u32 the SIMT kernel computes with, remapped by the OOB mode:
   1 to access, 0 to skip (zero / skip), -1 after a trap (undefined mode: an index past the capacity). */
static int remap(Exec *x, const Instr *in, const TileJob *j, uint64_t raw, uint64_t cap, uint64_t *out,
                 uint64_t r, uint64_t c)
{
    uint32_t ix = (uint32_t)raw;
    if (ix < cap) {
        *out = ix;
        return 1;
    }
    switch ((int)j->konst) {
    case OOB_CLAMP: *out = cap ? cap - 1 : 0; return cap ? 1 : 0;
    case OOB_WRAP: *out = cap ? ix % cap : 0; return cap ? 1 : 0;
    case OOB_ZERO_SKIP: return 0;
    default:
        sim_trap(x, in, DIAG_T_OOB, "%s: index %" PRIu32 " at idx[%" PRIu64 ", %" PRIu64 "] is outside the table's %"
                 PRIu64 " %s (the OOB mode is undefined; clamp, wrap or %s bound it)", op_info[in->kind].name, ix, r, c,
                 cap, j->tok ? "elements" : "rows", in->kind == OP_MGATHER ? "zero" : "skip");
        return -1;
    }
}

static uint64_t idx_at(const uint8_t *p, const Type *it, uint64_t k)
{
    unsigned ie = ty_bytes(it->elem);
    uint64_t v = lane_get(p, ie, (unsigned)k);
    if (ek_signed(elem_kind(it->elem))) v = (uint64_t)(int64_t)(ie == 2 ? (int16_t)v : (int32_t)v);
    return v;
}

static int p_mgs(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    int g = in->kind == OP_MGATHER;
    int ti = g ? j->dst : j->src0;
    TileRt t = tj_tile(j, args, ti);
    const Type *tt = j->ty[ti], *it = j->ty[(int)j->mask];
    const ElemKind k = (ElemKind)j->ek;
    unsigned e = ty_bytes(tt->elem);
    uint64_t tc = (uint64_t)tt->dims[1], ic = (uint64_t)it->dims[1], caprows, pitch, capel;
    table_of(j, args, &caprows, &pitch, &capel);
    uint64_t base = tj_view(j, args, j->scal).addr;
    int mode = g ? ACC_READ : j->vop != MS_NONE ? ACC_ATOMIC : ACC_WRITE;
    const char *what = g ? "mgather table" : "mscatter table";
    TileRt iv = tj_tile(j, args, j->mask);
    if (j->tok && (iv.vr != t.vr || iv.vc != t.vc)) {   /* elem: one index per element (pto-isa MGATHER/MSCATTER) */
        sim_trap(x, in, DIAG_T_TILE, "%s with coalesce = elem: the index tile's valid shape %" PRIu32 "x%" PRIu32
                 " differs from the %s tile's %" PRIu32 "x%" PRIu32, op_info[in->kind].name, iv.vr, iv.vc,
                 g ? "destination" : "source", t.vr, t.vc);
        return -1;
    }
    for (uint64_t r = 0; r < t.vr && t.vc; r++) {
        uint8_t *pt = tile_at(x, in, j, args, ti, r * tc, t.vc, g ? ACC_WRITE : ACC_READ, g ? "mgather destination"
                              : "mscatter source");
        if (!pt) return -1;
        if (!j->tok) {   /* row */
            const uint8_t *pi = tile_at(x, in, j, args, j->mask, r, 1, ACC_READ, "index tile");
            uint64_t ix;
            int a = pi ? remap(x, in, j, idx_at(pi, it, 0), caprows, &ix, r, 0) : -1;
            if (a < 0) return -1;
            if (!a) {
                if (g) memset(pt, 0, t.vc * e);
                continue;
            }
            uint8_t *pg = sim_mem(x, in, AS_GM, base + ix * pitch * e, t.vc * e, 1, mode, what);
            if (!pg) return -1;
            if (g) memcpy(pt, pg, t.vc * e);
            else if (j->vop == MS_NONE) memmove(pg, pt, t.vc * e);
            else
                for (uint64_t c = 0; c < t.vc; c++)
                    lane_set(pg, e, (unsigned)c, valu_eval((ValuOp)j->sbits, k, lane_get(pg, e, (unsigned)c),
                                                           lane_get(pt, e, (unsigned)c), 0));
            continue;
        }
        const uint8_t *pi = tile_at(x, in, j, args, j->mask, r * ic, t.vc, ACC_READ, "index tile");
        if (!pi) return -1;
        for (uint64_t c = 0; c < t.vc; c++) {   /* elem: row-major, a later position overwrites (Conflict::Last) */
            uint64_t ix;
            int a = remap(x, in, j, idx_at(pi, it, c), capel, &ix, r, c);
            if (a < 0) return -1;
            if (!a) {
                if (g) memset(pt + c * e, 0, e);
                continue;
            }
            uint8_t *pg = sim_mem(x, in, AS_GM, base + ix * e, e, 1, mode, what);
            if (!pg) return -1;
            if (g) memcpy(pt + c * e, pg, e);
            else if (j->vop == MS_NONE) memmove(pg, pt + c * e, e);
            else lane_set(pg, e, 0, valu_eval((ValuOp)j->sbits, k, lane_get(pg, e, 0), lane_get(pt, e, (unsigned)c), 0));
        }
    }
    static const OpKind m[] = {OP_VLDS, OP_VSTS};
    charge(x, j, m, 2, t.vr * regs(t.vc, e), (uint64_t)t.vr * t.vc * e);
    return 0;
}

/* mgather GM -> L1 (pto-isa a5 MGather.hpp MGatherGm2L1RowImpl / MGatherGm2L1ElemImpl): the destination is an NZ mat
   tile (C0 = 32 / E columns per fractal column, element (r, c) at (c / C0) * rows * C0 + r * C0 + c % C0), the
   indices a GM view read from its base (row: element r; elem: element r * the view's row stride + c). Row: zero mode
   first zeroes the whole tile, then each valid row r copies the valid columns of table row remap(idx[r]) (rows =
   the product of every table dim but the last, pitch = the stride of the second-to-last). Elem: the GM scratch view
   gets the whole tile's NZ image (zeros, then table element remap(idx) at each valid (r, c)), then the tile is a
   copy of it; the scratch keeps the image. scal = the table, mask = the index view, src1 = the scratch. */
static int p_mgather_l1(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (tile_check_all(x, in, j, args)) return -1;
    const Type *tt = j->ty[(int)j->dst], *it = j->ty[(int)j->mask];
    TileRt t = tj_tile(j, args, j->dst);
    unsigned e = ty_bytes(tt->elem), ie = ty_bytes(it->elem);
    uint64_t R = (uint64_t)tt->dims[0], C = (uint64_t)tt->dims[1], c0 = 32 / e, caprows, pitch, capel;
    table_of(j, args, &caprows, &pitch, &capel);
    ViewRt tv = tj_view(j, args, j->scal);
    int trk = j->ty[(int)j->scal]->rank;
    int64_t last = trk ? tv.shape[trk - 1] : 1;
    caprows = last > 0 ? capel / (uint64_t)last : 0;   /* every table dim but the last (pto-isa: DIM_0..DIM_3) */
    uint64_t base = tv.addr;
    ViewRt iv = tj_view(j, args, j->mask);
    uint64_t istride = it->rank >= 2 ? (uint64_t)(iv.stride[it->rank - 2] > 0 ? iv.stride[it->rank - 2] : 0) : 0;
    uint64_t moved = 0;
    uint64_t sc = j->tok ? tj_view(j, args, j->src1).addr : 0;
    if (j->tok) {   /* elem: build the image in the scratch view */
        uint8_t *pz = sim_mem(x, in, AS_GM, sc, R * C * e, 1, ACC_WRITE, "mgather scratch");
        if (!pz) return -1;
        memset(pz, 0, R * C * e);
    } else if (j->konst == OOB_ZERO_SKIP) {
        uint8_t *pz = sim_mem(x, in, AS_L1, t.addr, R * C * e, 1, ACC_WRITE, "mgather destination");
        if (!pz) return -1;
        memset(pz, 0, R * C * e);
    }
    for (uint64_t r = 0; r < t.vr; r++) {
        if (!j->tok) {
            const uint8_t *pi = sim_mem(x, in, AS_GM, iv.addr + r * ie, ie, 1, ACC_READ, "mgather indices");
            uint64_t ix;
            int a = pi ? remap(x, in, j, lane_get(pi, ie, 0), caprows, &ix, r, 0) : -1;
            if (a < 0) return -1;
            if (!a || !t.vc) continue;
            const uint8_t *pg = sim_mem(x, in, AS_GM, base + ix * pitch * e, t.vc * e, 1, ACC_READ, "mgather table");
            if (!pg) return -1;
            for (uint64_t c = 0; c < t.vc; c += c0) {   /* one C0 run of the row per fractal column */
                uint64_t n = t.vc - c < c0 ? t.vc - c : c0;
                uint8_t *pd = sim_mem(x, in, AS_L1, t.addr + ((c / c0) * R * c0 + r * c0) * e, n * e, 1, ACC_WRITE,
                                      "mgather destination");
                if (!pd) return -1;
                memmove(pd, pg + c * e, n * e);
            }
            moved += t.vc * e;
            continue;
        }
        for (uint64_t c = 0; c < t.vc; c++) {   /* each GM pointer used before the next GM access */
            const uint8_t *pi = sim_mem(x, in, AS_GM, iv.addr + (r * istride + c) * ie, ie, 1, ACC_READ, "mgather indices");
            uint64_t ix;
            int a = pi ? remap(x, in, j, lane_get(pi, ie, 0), capel, &ix, r, c) : -1;
            if (a < 0) return -1;
            if (!a) continue;
            const uint8_t *pg = sim_mem(x, in, AS_GM, base + ix * e, e, 1, ACC_READ, "mgather table");
            if (!pg) return -1;
            uint8_t v[8];
            memcpy(v, pg, e);
            uint8_t *ps = sim_mem(x, in, AS_GM, sc + ((c / c0) * R * c0 + r * c0 + c % c0) * e, e, 1, ACC_WRITE,
                                  "mgather scratch");
            if (!ps) return -1;
            memcpy(ps, v, e);
        }
    }
    if (j->tok) {   /* the bulk copy scratch -> L1 */
        uint8_t *pd = sim_mem(x, in, AS_L1, t.addr, R * C * e, 1, ACC_WRITE, "mgather destination");
        if (!pd) return -1;
        const uint8_t *ps = sim_mem(x, in, AS_GM, sc, R * C * e, 1, ACC_READ, "mgather scratch");
        if (!ps) return -1;
        memmove(pd, ps, R * C * e);
        moved = R * C * e;
    }
    sim_transfer(x, AS_GM, AS_L1, moved);   /* counts the bytes on MTE2 and charges the GM -> L1 path */
    return 0;
}

static void foot_mgather_l1(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    tile_foot_whole(j, args, f, 1u << j->dst);
    for (int k = 0; k < 3; k++) {   /* the table and the indices read, the scratch written: each view's extent */
        int i = k == 0 ? j->scal : k == 1 ? j->mask : j->src1;
        if (i < 0) continue;
        const Type *vt = j->ty[i];
        ViewRt v = tj_view(j, args, i);
        uint64_t hi = 1;
        for (int d = 0; d < vt->rank; d++) {
            if (v.shape[d] <= 0) return;
            hi += (uint64_t)(v.shape[d] - 1) * (uint64_t)(v.stride[d] > 0 ? v.stride[d] : 0);
        }
        if (k == 2) {
            const Type *tt = j->ty[(int)j->dst];
            uint64_t n = (uint64_t)tt->dims[0] * (uint64_t)tt->dims[1];
            hi = hi > n ? hi : n;
        }
        as_add(f, AS_GM, v.addr, v.addr + hi * ty_bytes(vt->elem), k == 2);
    }
}

/* Auto-sync footprint: the tiles whole, the table from the view's base over its strided extent and its packed
   capacity (the indices are not known before the op runs). */
static void foot_mgs(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    int g = in->kind == OP_MGATHER;
    tile_foot_whole(j, args, f, g ? 1u << j->dst : 0);
    const Type *vt = j->ty[(int)j->scal];
    ViewRt v = tj_view(j, args, j->scal);
    uint64_t e = ty_bytes(vt->elem), hi = 1, n = 1;
    for (int i = 0; i < vt->rank; i++) {
        if (v.shape[i] <= 0) return;
        hi += (uint64_t)(v.shape[i] - 1) * (uint64_t)(v.stride[i] > 0 ? v.stride[i] : 0);
        n *= (uint64_t)v.shape[i];
    }
    as_add(f, AS_GM, v.addr, v.addr + (hi > n ? hi : n) * e, !g);
}

static void foot_gather(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    tile_foot_whole(j, args, f, 1u << j->dst);
}

/* The (S, T) of a mask pattern; 0 when the text names none. */
static int pattern_of(const char *s, uint64_t *start, int16_t *times)
{
    static const struct { const char *p; uint8_t s, t; } P[] = {
        {"P1111", 0, 1}, {"P0101", 0, 2}, {"P1010", 1, 2}, {"P0001", 0, 4}, {"P0010", 1, 4}, {"P0100", 2, 4},
        {"P1000", 3, 4},
    };
    for (unsigned i = 0; s && i < sizeof P / sizeof P[0]; i++)
        if (strstr(s, P[i].p)) {
            *start = P[i].s;
            *times = P[i].t;
            return 1;
        }
    return 0;
}

static int unsupported(LowerView *L, const Op *op, const char *what)
{
    lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' %s is not executable yet (docs/tile.md)", op_info[op->kind].name, what);
    return -1;
}

/* The OOB mode of an mgather / mscatter (OOB_*). */
static uint64_t oob_mode(const Op *op, int g)
{
    int oob = op_token_id(op, g ? "gatherOob" : "scatterOob");
    return oob == T_GOOB_CLAMP || oob == T_SOOB_CLAMP ? OOB_CLAMP : oob == T_GOOB_WRAP || oob == T_SOOB_WRAP ? OOB_WRAP
         : oob == T_GOOB_ZERO || oob == T_SOOB_SKIP ? OOB_ZERO_SKIP : OOB_UNDEF;
}

/* mgather into an L1 (mat) tile: the verifier has checked the NZ layout, the GM index view and the scratch rule. */
static int lower_mgather_l1(LowerView *L, const Op *op, Instr *in, int vi, int ii, int ti)
{
    const Type *vt = op->operands[vi]->type, *it = op->operands[ii]->type, *tt = op->operands[ti]->type;
    int si = lw_group_index(L, op, "scratch", 0);
    if (tt->dims[0] < 0 || tt->dims[1] < 0 || vt->elem != tt->elem || it->kind == TY_TILE_BUF || ty_bytes(it->elem) != 4 ||
        ty_bytes(tt->elem) > 4 || tt->blayout != TBL_COL_MAJOR || tt->slayout != TSL_ROW_MAJOR)
        return unsupported(L, op, "into an L1 tile other than a static NZ tile with 32-bit GM indices");
    TileJob *j = tile_job(L, op, in);
    if (!j) return -1;
    j->scal = (int8_t)vi;
    j->mask = (int8_t)ii;
    j->dst = (int8_t)ti;
    j->src1 = (int8_t)si;
    j->ek = j->sek = (uint8_t)elem_kind(tt->elem);
    j->tok = (int16_t)(op_token_id(op, "coalesce") == T_COAL_ELEM);
    j->konst = oob_mode(op, 1);
    if (j->tok && si < 0) return unsupported(L, op, "with coalesce = elem and no scratch view");
    in->pipe = PQ_MTE2;
    in->pfn = p_mgather_l1;
    in->foot = foot_mgather_l1;
    in->cost = 1;
    return 0;
}

static int lower_mgs(LowerView *L, const Op *op, Instr *in)
{
    int g = op->kind == OP_MGATHER;
    int vi = lw_group_index(L, op, "mem", 0), ii = lw_group_index(L, op, "idx", 0);
    int ti = lw_group_index(L, op, g ? "dst" : "src", 0);
    const Type *vt = op->operands[vi]->type, *it = op->operands[ii]->type, *tt = op->operands[ti]->type;
    if (g && tt->kind == TY_TILE_BUF && tt->space == AS_L1) return lower_mgather_l1(L, op, in, vi, ii, ti);
    if (lw_group_index(L, op, "scratch", 0) >= 0 || tt->space != AS_UB || it->kind != TY_TILE_BUF ||
        it->space != AS_UB)
        return unsupported(L, op, "between GM and other than UB or L1 tiles");
    if (tt->dims[0] < 0 || tt->dims[1] < 0 || it->dims[0] < 0 || it->dims[1] < 0 || tt->blayout != TBL_ROW_MAJOR ||
        tt->slayout != TSL_NONE_BOX || it->slayout != TSL_NONE_BOX || vt->elem != tt->elem)
        return unsupported(L, op, "on other than static row-major tiles of the table's element type");
    ElemKind ik = elem_kind(it->elem);
    if (!ek_int(ik) || (ty_bytes(it->elem) != 4 && ty_bytes(it->elem) != 2))
        return unsupported(L, op, "with other than 16- or 32-bit integer indices");
    TileJob *j = tile_job(L, op, in);
    if (!j) return -1;
    in->foot = foot_mgs;
    in->cost = 1;
    in->pfn = p_mgs;
    j->scal = (int8_t)vi;
    j->mask = (int8_t)ii;
    if (g) j->dst = (int8_t)ti;
    else j->src0 = (int8_t)ti;
    j->ek = j->sek = (uint8_t)elem_kind(tt->elem);
    j->tok = (int16_t)(op_token_id(op, "coalesce") == T_COAL_ELEM);
    j->konst = oob_mode(op, g);
    int at = g ? -1 : op_token_id(op, "scatterAtomicOp");
    j->vop = (uint8_t)(at == T_SATOM_ADD ? MS_ADD : at == T_SATOM_MAX ? MS_MAX : at == T_SATOM_MIN ? MS_MIN : MS_NONE);
    j->sbits = (uint8_t)(j->vop == MS_ADD ? VOP_ADD : j->vop == MS_MAX ? VOP_MAX : VOP_MIN);
    if (j->ek == EK_BAD || (j->vop != MS_NONE && ty_bytes(tt->elem) < 2)) {
        lw_error(L, op, DIAG_V_ELEM_TYPE, "'%s' on tiles of this element type is not simulated%s", op_info[op->kind].name,
                 j->vop != MS_NONE ? " (atomic forms: 16- and 32-bit elements)" : "");
        return -1;
    }
    return 0;
}

int tile_lower_gather(LowerView *L, const Op *op, Instr *in)
{
    const Attr *mp = op_attr(op, "maskPattern");
    if (op->kind == OP_MGATHER || op->kind == OP_MSCATTER) return lower_mgs(L, op, in);
    if (op->kind == OP_TGATHER && !mp) return unsupported(L, op, "in its compare form");
    int hist = op->kind == OP_THISTOGRAM;
    for (uint32_t i = 0; i < op->noperands; i++) {
        const Type *t = op->operands[i]->type;
        if (t->kind != TY_TILE_BUF || t->dims[0] < 0 || t->dims[1] < 0) continue;
        int idx_ok = hist && i == (uint32_t)lw_group_index(L, op, "idx", 0);   /* thistogram's u16 idx is DN */
        if (t->slayout != TSL_NONE_BOX || (t->blayout != TBL_ROW_MAJOR && !idx_ok)) {
            lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' runs on row-major tiles (blayout=row_major, slayout=none_box) only",
                     op_info[op->kind].name);
            return -1;
        }
    }
    TileJob *j = tile_job(L, op, in);
    if (!j) return -1;
    in->foot = foot_gather;
    in->cost = 1;
    j->src0 = (int8_t)lw_group_index(L, op, "src", 0);
    j->dst = (int8_t)lw_group_index(L, op, op->kind == OP_TGATHER ? "dsts" : "dst", 0);
    if (j->src0 < 0 || j->dst < 0) return unsupported(L, op, "with these operands");
    const Type *st = op->operands[j->src0]->type, *dt = op->operands[j->dst]->type;
    if (st->dims[0] < 0 || st->dims[1] < 0 || dt->dims[0] < 0 || dt->dims[1] < 0)
        return unsupported(L, op, "on tiles of a dynamic shape");
    j->ek = j->sek = (uint8_t)elem_kind(dt->elem);
    switch (op->kind) {
    case OP_TGATHER: case OP_TSCATTER:
        if (mp) {
            const Attr *ax = op_attr(op, "axis");
            int col = ax && ax->s && !strcmp(ax->s, "col");
            if (!pattern_of(mp->s, &j->konst, &j->tok)) return unsupported(L, op, "with this mask pattern");
            if (ty_bytes(st->elem) != ty_bytes(dt->elem)) return unsupported(L, op, "with src and dst of two sizes");
            if (op->kind == OP_TGATHER) {
                j->kind = col ? GX_GMASK_COL : GX_GMASK_ROW;
                in->pfn = p_gmask;
            } else {
                j->kind = col ? GX_SMASK_COL : GX_SMASK_ROW;
                j->flat = (uint8_t)(col && j->tok != 1);
                in->pfn = p_smask;
            }
            break;
        }
        {   /* tscatter, index form: 8- and 16-bit data with 16-bit indices, 32-bit data with 32-bit indices */
            j->kind = GX_SCATTER;
            j->mask = (int8_t)lw_group_index(L, op, "idx", 0);
            const Type *it = op->operands[j->mask]->type;
            unsigned e = ty_bytes(dt->elem), ie = it->kind == TY_TILE_BUF ? ty_bytes(it->elem) : 0;
            if (!ek_int(elem_kind(it->elem)) || ie != (e == 4 ? 4u : 2u) || e > 4 || ty_bytes(st->elem) != e ||
                it->dims[1] < 0)
                return unsupported(L, op, "with these index and element types (the A5 template pairs 8- and 16-bit "
                                   "data with i16/ui16 indices, 32-bit data with i32/ui32)");
            in->pfn = p_scatter;
        }
        break;
    case OP_TGATHERB: {
        j->kind = GX_GATHERB;
        j->mask = (int8_t)lw_group_index(L, op, "offsets", 0);
        const Type *ot = op->operands[j->mask]->type;
        if (ot->kind != TY_TILE_BUF || !ek_int(elem_kind(ot->elem)) || ty_bytes(ot->elem) != 4 || ot->dims[1] < 0 ||
            ty_bytes(st->elem) != ty_bytes(dt->elem))
            return unsupported(L, op, "with other than u32 offsets and src and dst elements of one size");
        in->pfn = p_gatherb;
        break;
    }
    case OP_THISTOGRAM: {
        j->kind = GX_HIST;
        j->mask = (int8_t)lw_group_index(L, op, "idx", 0);
        const Type *it = op->operands[j->mask]->type;
        ElemKind sk = elem_kind(st->elem);
        const Attr *b = op_attr(op, "byte"), *msb = op_attr(op, "isMSB");
        j->tok = (int16_t)(b ? b->i : msb ? (msb->i != 0) : 1);
        if ((sk != EK_U16 && sk != EK_U32) || elem_kind(dt->elem) != EK_U32 || it->kind != TY_TILE_BUF ||
            ty_bytes(it->elem) != 1 || it->dims[1] < 0 || j->tok < 0 || j->tok > (sk == EK_U16 ? 1 : 3))
            return unsupported(L, op, "with other than a ui16/ui32 source, ui8 idx and ui32 destination");
        in->pfn = p_hist;
        break;
    }
    default: return unsupported(L, op, "");
    }
    if (j->ek == EK_BAD) {
        lw_error(L, op, DIAG_V_ELEM_TYPE, "'%s' on tiles of this element type is not simulated", op_info[op->kind].name);
        return -1;
    }
    return 0;
}
