/* tile_dma.c — tload (GM -> UB on MTE2) and tstore (UB -> GM on MTE3): one queued job each, executed as a burst
 * plan of the DMA engine (ops/dma), so bounds, alignment, the race detector, initcheck and the path's cycles are
 * those of a micro copy. The plan is the A5 TileLib's (lib/TileOps/a5/tload.py, tstore.py): the tile's layout
 * picks ND (row-major), DN (column-major) or NZ (boxed, 32-byte fractal rows); a view of rank 5 is the
 * compiler's 5-D global tensor (loops over its three outer dims around n bursts), rank 2 one matrix. A tile
 * with a pad value fills the rest of each written row (docs/tile.md "tload and tstore", docs/semantics.md). */
#include "tile_int.h"
#include "ops/dma/dma.h"

enum { TD_ND, TD_DN, TD_NZ };

/* The tile layout's transfer form, or -1 (docs/tile.md lists the supported ones). */
static int layout_form(const Type *t)
{
    if (t->slayout == TSL_NONE_BOX) return t->blayout == TBL_ROW_MAJOR ? TD_ND : TD_DN;
    if (t->slayout == TSL_ROW_MAJOR && t->blayout == TBL_COL_MAJOR) return TD_NZ;
    /* one row (one column) of a boxed vec tile: its bytes in order, moved as ND (DN) (pto-isa a5 TStore.hpp) */
    if (t->dims[0] == 1 && t->blayout == TBL_ROW_MAJOR) return TD_ND;
    if (t->dims[1] == 1 && t->blayout == TBL_COL_MAJOR) return TD_DN;
    return -1;
}

/* A view's shape and strides as the 5-D tensor the templates read: a rank below 5 gets leading dims of 1. The
   static flags say which dims the type fixes (the templates substitute the tile's valid shape for dynamic
   ones). */
typedef struct View5 { int64_t g[5], s[5]; int stat[5]; int rank; } View5;

static View5 view5(const Type *vt, const ViewRt *v)
{
    View5 r;
    int k = 5 - vt->rank;
    r.rank = vt->rank;
    for (int i = 0; i < 5; i++) {
        int j = i - k;
        r.g[i] = j >= 0 ? v->shape[j] : 1;
        r.s[i] = j >= 0 ? v->stride[j] : 0;
        r.stat[i] = j >= 0 ? vt->dims[j] >= 0 : 1;
    }
    return r;
}

static void add_loop(DmaPlan *p, int64_t count, uint64_t ss, uint64_t ds)
{
    if (count == 1) return;
    p->loop[p->nloops++] = (DmaLoop){(uint64_t)count, ss, ds};
}

/* The plan of a tload (load) or tstore: GM side `gm` (the view), local side the tile. Strides of the local side
   are in elements of the tile, the GM side's in elements of the view; e = element bytes. Products of run-time
   strides and shapes are checked (p->wrap: T-WRAP at the op, never a stride wrapped to 0). *run_stride (when
   given) receives the view's stride along the DMA run: its innermost for ND, the row stride for DN. */
static void make_plan(const TileJob *j, const uint64_t *args, int load, DmaPlan *p, const Type **tty,
                      int64_t *run_stride)
{
    int ti = load ? 1 : 0, vi = load ? 0 : 1;
    const Type *tt = j->ty[ti], *vt = j->ty[vi];
    TileRt t = tj_tile(j, args, ti);
    ViewRt v = tj_view(j, args, vi);
    View5 w = view5(vt, &v);
    if (run_stride) *run_stride = w.s[j->kind == TD_DN ? 3 : 4];
    uint64_t e = ty_bytes(tt->elem), rows = (uint64_t)tt->dims[0], cols = (uint64_t)tt->dims[1];
    if (j->pitch) cols = (uint64_t)j->pitch;   /* a tstore from a window that keeps its parent's row pitch */
    uint64_t gm = v.addr, ub = t.addr, gs, us;       /* burst strides (bytes) */
    memset(p, 0, sizeof *p);
    *tty = tt;
    int form = j->kind;
    int all1 = w.stat[0] && w.stat[1] && w.stat[2] && w.g[0] == 1 && w.g[1] == 1 && w.g[2] == 1;
    if (w.rank == 2 && form != TD_NZ) {
        if (form == TD_ND) {
            p->n = t.vr;
            p->len = t.vc * e;
            gs = sim_mul_checked(w.s[3], e, &p->wrap);
            us = cols * e;
        } else {
            p->n = t.vc;
            p->len = t.vr * e;
            gs = sim_mul_checked(w.s[4], e, &p->wrap);
            us = rows * e;
        }
    } else if (form == TD_ND) {
        uint64_t n3 = w.stat[3] ? (uint64_t)w.g[3] : all1 ? t.vr : (uint64_t)w.g[3];
        p->n = n3;
        p->len = (load && w.stat[4] ? (uint64_t)w.g[4] : t.vc) * e;
        gs = sim_mul_checked(w.s[3], e, &p->wrap);
        us = cols * e;
        uint64_t l2 = (w.stat[3] ? (uint64_t)w.g[3] : t.vr) * cols, l1 = sim_mul_checked(w.g[2], l2, &p->wrap),
                 l0 = sim_mul_checked(w.g[1], l1, &p->wrap);
        add_loop(p, w.g[2], sim_mul_checked(w.s[2], e, &p->wrap), sim_mul_checked((int64_t)l2, e, &p->wrap));
        add_loop(p, w.g[1], sim_mul_checked(w.s[1], e, &p->wrap), sim_mul_checked((int64_t)l1, e, &p->wrap));
        add_loop(p, w.g[0], sim_mul_checked(w.s[0], e, &p->wrap), sim_mul_checked((int64_t)l0, e, &p->wrap));
    } else if (form == TD_DN) {
        uint64_t n4 = w.stat[4] ? (uint64_t)w.g[4] : t.vc;
        p->n = n4;
        p->len = t.vr * e;
        gs = sim_mul_checked(w.s[4], e, &p->wrap);
        us = rows * e;
        uint64_t l2 = sim_mul_checked((int64_t)rows, n4, &p->wrap), l1 = sim_mul_checked(w.g[2], l2, &p->wrap),
                 l0 = sim_mul_checked(w.g[1], l1, &p->wrap);
        add_loop(p, w.g[2], sim_mul_checked(w.s[2], e, &p->wrap), sim_mul_checked((int64_t)l2, e, &p->wrap));
        add_loop(p, w.g[1], sim_mul_checked(w.s[1], e, &p->wrap), sim_mul_checked((int64_t)l1, e, &p->wrap));
        add_loop(p, w.g[0], sim_mul_checked(w.s[0], e, &p->wrap), sim_mul_checked((int64_t)l0, e, &p->wrap));
    } else {   /* NZ: g1 column blocks of C0 = 32 bytes, vr rows each; g0 tiles */
        p->n = (uint64_t)w.g[1];
        p->len = (uint64_t)t.vr * 32;
        gs = sim_mul_checked(w.s[1], e, &p->wrap);
        us = rows * 32;
        add_loop(p, w.g[0], sim_mul_checked(w.s[0], e, &p->wrap), 
                 sim_mul_checked(w.g[1], sim_mul_checked(w.g[4], rows * e, &p->wrap), &p->wrap));
    }
    /* the loops' strides were written (GM, tile): orient them source -> destination */
    for (int i = 0; i < p->nloops; i++)
        if (!load) { uint64_t x = p->loop[i].ss; p->loop[i].ss = p->loop[i].ds; p->loop[i].ds = x; }
    if (load) {
        p->sas = AS_GM;
        p->das = (AddrSpace)tt->space;
        p->src = gm;
        p->dst = ub;
        p->ss = gs;
        p->ds = us;
        if (tt->pad != TPAD_NULL) {
            uint64_t bits = tile_pad_bits(tt, tt->pad);
            p->pad = 1;
            p->patlen = (unsigned)e;
            for (unsigned i = 0; i < e && i < 32; i++) p->pat[i] = (uint8_t)(bits >> (8 * (i % 8)));
        }
    } else {
        p->sas = (AddrSpace)tt->space;
        p->das = AS_GM;
        p->src = ub;
        p->dst = gm;
        p->ss = us;
        p->ds = gs;
    }
}

/* The DMA moves contiguous runs along the tile's row (ND) or column (DN): a view whose innermost stride along that
   run is not 1 is refused by the compiler on a2a3 ("A2/A3 DMA lowering requires a unit innermost stride"), so it
   traps T-UNSUPPORTED there; on a5 pto-isa's NPU TLoad/TStore ignore that stride and move contiguous elements
   (its CPU reference honours it), which ptosim does too, with W-UNCONFIRMED (docs/semantics.md §14, "Innermost
   view stride"). Returns 1 after a trap. */
static int inner_stride(Exec *x, const Instr *in, const TileJob *j, const uint64_t *args, int load, int64_t s)
{
    if (j->kind == TD_NZ) return 0;
    TileRt t = tj_tile(j, args, load ? 1 : 0);
    int dn = j->kind == TD_DN;
    if (s == 1 || (dn ? t.vr : t.vc) <= 1) return 0;
    if (x->core->sim->tp->id == PTO_TARGET_A2A3) {
        sim_trap(x, in, DIAG_T_UNSUPPORTED, "the view's innermost stride is %lld, not 1: the a2a3 DMA moves contiguous "
                 "%s (the compiler refuses this view)", (long long)s, dn ? "columns" : "rows");
        return 1;
    }
    sim_warn_once(x, in, DIAG_V_UNCONFIRMED, "the view's innermost stride is %lld, not 1: the DMA moves contiguous "
                  "%s, as pto-isa's TLoad/TStore do; the stride is not honoured", (long long)s, dn ? "columns" : "rows");
    return 0;
}

static int p_tdma(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    int load = in->kind == OP_TLOAD;
    int ti = load ? 1 : 0;
    if (tile_check_valid(x, in, j->ty[ti], tj_tile(j, args, ti), load ? "destination" : "source")) return -1;
    DmaPlan p;
    const Type *tt;
    int64_t rs;
    make_plan(j, args, load, &p, &tt, &rs);
    if (inner_stride(x, in, j, args, load, rs)) return -1;
    return dma_run_plan(x, in, &p);
}

/* The plan's bounding ranges: what auto-sync orders tload and tstore by. */
static void foot_tdma(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    int load = in->kind == OP_TLOAD;
    DmaPlan p;
    const Type *tt;
    make_plan(j, args, load, &p, &tt, NULL);
    uint64_t rows = p.n;
    for (int i = 0; i < p.nloops; i++) rows *= p.loop[i].count;
    if (!rows) return;
    uint64_t drow = p.pad == 1 && p.ds > p.len ? p.ds : p.len;
    uint64_t shi = (p.n - 1) * p.ss + p.len, dhi = (p.n - 1) * p.ds + drow;
    for (int i = 0; i < p.nloops; i++) {
        shi += (p.loop[i].count - 1) * p.loop[i].ss;
        dhi += (p.loop[i].count - 1) * p.loop[i].ds;
    }
    as_add(f, p.sas, p.src, p.src + shi, 0);
    as_add(f, p.das, p.dst, p.dst + dhi, 1);
}

int tile_lower_dma(LowerView *L, const Op *op, Instr *in)
{
    TileJob *j = tile_job(L, op, in);
    if (!j) return -1;
    int load = op->kind == OP_TLOAD;
    const Type *tt = j->ty[load ? 1 : 0], *vt = j->ty[load ? 0 : 1];
    int form = layout_form(tt);
    /* the local side: a vec tile; also a mat tile in ND / DN (GM <-> L1 on the same engines) and, for a tload on
       a5, a scaling tile (the FIXPIPE quant vector; docs/semantics.md "FIXPIPE epilogue of a cross-core pipe") */
    int local_ok = tt->space == AS_UB || (tt->space == AS_L1 && form != TD_NZ) || (tt->space == AS_FB && load && form == TD_ND);
    if (form == TD_NZ && local_ok && vt->rank != 5) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' of an NZ tile through a rank-%u view is not simulated: the GM layout "
                 "the compiler gives such a view is not published (a rank-5 view is; docs/tile.md)",
                 op_info[op->kind].name, vt->rank);
        return -1;
    }
    if (form < 0 || !local_ok) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' between GM and a %s tile of this layout is not simulated (docs/tile.md)",
                 op_info[op->kind].name, tile_loc_name((AddrSpace)tt->space));
        return -1;
    }
    j->kind = (uint8_t)form;
    if (!load && form == TD_ND) {
        int64_t pitch = tile_row_pitch(op->operands[0]);
        j->pitch = pitch != tt->dims[1] ? pitch : 0;
    }
    j->src0 = 0;
    j->dst = 1;
    in->pfn = p_tdma;
    in->foot = foot_tdma;
    in->cost = 1;
    return 0;
}
