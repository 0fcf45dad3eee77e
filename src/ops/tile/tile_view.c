/* tile_view.c — the tile layer's ops without data movement, run by the scalar unit (tile_buf_addr also inside a
 * vector scope): tensor and partition views, their dims, strides and address, tile allocation (the address a
 * constant operand gives, or the plan of isa/tile_plan.c), valid shapes, tile addresses. docs/tile.md. */
#include "tile_int.h"
#include "isa/tile_plan.h"
#include "exec/race.h"
#include "exec/check.h"
#include <inttypes.h>

/* Decoded operands (Instr.imm). */
enum {
    TV_RANK,       /* views: rank of the result (or source) view */
    TV_ELEM,       /* element bytes */
    TV_SHAPE,      /* make_tensor_view / partition_view: first operand of the shape / offsets group */
    TV_STRIDE,     /* first operand of the strides / sizes group */
};
/* alloc_tile's (Instr.imm). */
enum {
    TV_ADDR,       /* operand index of addr (-1: the planned address in TV_PLANNED) */
    TV_PLANNED,
    TV_VR,         /* operand index of valid_row (-1: the static value in TV_VR_STATIC) */
    TV_VC,
    TV_VR_STATIC,
    TV_VC_STATIC,
};

static const Instr *done(Exec *x, const Instr *in)
{
    (void)x;
    return in + 1;
}

static const Instr *x_make_view(Exec *x, const Instr *in)
{
    ViewRt v;
    memset(&v, 0, sizeof v);
    unsigned r = (unsigned)in->imm[TV_RANK];
    v.addr = ARG(x, in, 0);
    for (unsigned i = 0; i < r; i++) {
        v.shape[i] = (int64_t)ARG(x, in, (unsigned)in->imm[TV_SHAPE] + i);
        v.stride[i] = (int64_t)ARG(x, in, (unsigned)in->imm[TV_STRIDE] + i);
    }
    view_put(FR(x, in->res[0]), &v);
    return done(x, in);
}

static const Instr *x_partition(Exec *x, const Instr *in)
{
    ViewRt s = view_get(FR(x, in->arg[0])), v = s;
    unsigned r = (unsigned)in->imm[TV_RANK];
    uint64_t e = (uint64_t)in->imm[TV_ELEM];
    for (unsigned i = 0; i < r; i++) {
        int64_t off = (int64_t)ARG(x, in, (unsigned)in->imm[TV_SHAPE] + i);
        int64_t sz = (int64_t)ARG(x, in, (unsigned)in->imm[TV_STRIDE] + i);
        if (off < 0 || sz < 0) {
            sim_trap(x, in, DIAG_T_TILE, "partition dimension %u has a negative offset or size (%" PRId64 ", %" PRId64
                     ")", i, off, sz);
            return NULL;
        }
        /* the hardware computes addresses from the strides and checks no view bounds: a warning, and the accesses
           go ahead at the address the strides give, where the GM checks still apply (docs/semantics.md §14) */
        int64_t end;
        if (__builtin_add_overflow(off, sz, &end) || end > s.shape[i])
            sim_warn_once(x, in, DIAG_T_TILE_VIEW, "partition dimension %u (offset %" PRId64 ", size %" PRId64
                          ") leaves the view's %" PRId64 " elements", i, off, sz, s.shape[i]);
        int64_t k;   /* off x stride elements, exactly: a product that wraps poisons the address (T-WRAP on access) */
        v.addr = __builtin_mul_overflow(off, s.stride[i], &k) ? SIM_ADDR_WRAP : sim_index_addr(v.addr, k, e);
        v.shape[i] = sz;
    }
    view_put(FR(x, in->res[0]), &v);
    return done(x, in);
}

static const Instr *x_view_query(Exec *x, const Instr *in)
{
    ViewRt v = view_get(FR(x, in->arg[0]));
    uint64_t d = ARG(x, in, 1);
    if (d >= (uint64_t)in->imm[TV_RANK]) {
        sim_trap(x, in, DIAG_T_TILE, "dimension %" PRIu64 " of a rank-%d view", d, (int)in->imm[TV_RANK]);
        return NULL;
    }
    fr_set_u64(x, in->res[0], (uint64_t)(in->kind == OP_GET_TENSOR_VIEW_DIM ? v.shape[d] : v.stride[d]));
    return done(x, in);
}

static const Instr *x_view_addr(Exec *x, const Instr *in)
{
    fr_set_u64(x, in->res[0], view_get(FR(x, in->arg[0])).addr);
    return done(x, in);
}

/* Stores tile t with the valid region vr x vc into slot. A region past type ty's shape warns W-TILE-VALID (once per
   op) and is clamped to the shape (docs/semantics.md §14 "A valid region past the shape"). */
static const Instr *put_valid(Exec *x, const Instr *in, uint8_t *slot, const Type *ty, TileRt t, uint64_t vr, uint64_t vc)
{
    if (vr > (uint64_t)ty->dims[0] || vc > (uint64_t)ty->dims[1]) {
        sim_warn_once(x, in, DIAG_T_TILE_VALID, "valid region %" PRIu64 "x%" PRIu64 " exceeds the tile's %lldx%lld "
                      "shape: ptosim runs the tile's ops on %lldx%lld (on hardware they would reach past the tile)",
                      vr, vc, (long long)ty->dims[0], (long long)ty->dims[1],
                      (long long)(vr < (uint64_t)ty->dims[0] ? vr : (uint64_t)ty->dims[0]),
                      (long long)(vc < (uint64_t)ty->dims[1] ? vc : (uint64_t)ty->dims[1]));
        if (vr > (uint64_t)ty->dims[0]) vr = (uint64_t)ty->dims[0];
        if (vc > (uint64_t)ty->dims[1]) vc = (uint64_t)ty->dims[1];
    }
    t.vr = (uint32_t)vr;
    t.vc = (uint32_t)vc;
    tile_put(slot, t);
    return done(x, in);
}

static const Instr *x_alloc(Exec *x, const Instr *in)
{
    TileRt t;
    t.addr = in->imm[TV_ADDR] >= 0 ? ARG(x, in, (unsigned)in->imm[TV_ADDR]) : (uint64_t)in->imm[TV_PLANNED];
    uint64_t vr = in->imm[TV_VR] >= 0 ? ARG(x, in, (unsigned)in->imm[TV_VR]) : (uint64_t)in->imm[TV_VR_STATIC];
    uint64_t vc = in->imm[TV_VC] >= 0 ? ARG(x, in, (unsigned)in->imm[TV_VC]) : (uint64_t)in->imm[TV_VC_STATIC];
    return put_valid(x, in, FR(x, in->res[0]), in->op->results[0]->type, t, vr, vc);
}

static const Instr *x_set_valid(Exec *x, const Instr *in)
{
    uint8_t *slot = FR(x, in->arg[0]);
    TileRt t = tile_get(slot);
    return put_valid(x, in, slot, in->op->operands[0]->type, t, ARG(x, in, 1), ARG(x, in, 2));
}

static const Instr *x_get_valid(Exec *x, const Instr *in)
{
    TileRt t = tile_get(FR(x, in->arg[0]));
    switch (in->kind) {
    case OP_TILE_VALID_ROWS: fr_set_u64(x, in->res[0], t.vr); break;
    case OP_TILE_VALID_COLS: fr_set_u64(x, in->res[0], t.vc); break;
    default:
        fr_set_u64(x, in->res[0], t.vr);
        if (in->res[1] >= 0) fr_set_u64(x, in->res[1], t.vc);
        break;
    }
    return done(x, in);
}

static const Instr *x_tile_addr(Exec *x, const Instr *in)
{
    fr_set_u64(x, in->res[0], tile_get(FR(x, in->arg[0])).addr);
    return done(x, in);
}

/* subview's (Instr.imm): the source's rows and columns, element bytes, the layout (1: column-major), whether the
   window's rows keep the source's row pitch (0: a window the 16-byte tile value cannot describe, docs/tile.md). */
enum { TS_SROWS, TS_SCOLS, TS_ELEM, TS_COLMAJ, TS_OK, TS_VR, TS_VC, TS_PITCH };   /* TS_PITCH: the source's row pitch;
                                                                                   TS_OK 2: an NZ acc window */

/* Whether every use of v (a window of an NZ acc tile) is a FIXPIPE read that takes the parent acc tile's rows as its
   source stride (tile_cube.c acc_root_rows): the source of a tstore, tmov or tinsert, or a further acc window. */
typedef struct AccUses { const Value *v; int bad; } AccUses;
static int acc_use_visit(Op *o, void *ud)
{
    AccUses *u = ud;
    for (uint32_t i = 0; i < o->noperands && !u->bad; i++) {
        if (o->operands[i] != u->v) continue;
        if (o->kind == OP_SUBVIEW && i == 0 && o->nresults == 1) {
            AccUses w = {o->results[0], 0};
            Op *f = ir_parent_op(o);
            while (f && f->kind != OP_FUNC) f = ir_parent_op(f);
            if (f) ir_walk(f, acc_use_visit, &w);
            u->bad = w.bad;
        } else if (!((o->kind == OP_TSTORE || o->kind == OP_TMOV || o->kind == OP_TINSERT) && i == 0)) {
            u->bad = 1;
        }
    }
    return u->bad;
}

static int acc_window_ok(const Op *op)
{
    const Type *st = op->operands[0]->type;
    if (st->space != AS_L0C || st->blayout != TBL_COL_MAJOR || st->slayout != TSL_ROW_MAJOR) return 0;
    AccUses u = {op->results[0], 0};
    Op *f = ir_parent_op(op);
    while (f && f->kind != OP_FUNC) f = ir_parent_op(f);
    if (f) ir_walk(f, acc_use_visit, &u);
    return f && !u.bad;
}

static const Instr *x_subview(Exec *x, const Instr *in)
{
    TileRt s = tile_get(FR(x, in->arg[0])), t;
    const Type *ty = in->op->results[0]->type;
    uint64_t r = ARG(x, in, 1), c = ARG(x, in, 2), R = (uint64_t)ty->dims[0], C = (uint64_t)ty->dims[1];
    uint64_t sr = (uint64_t)in->imm[TS_SROWS], sc = (uint64_t)in->imm[TS_SCOLS];
    if (r > sr || c > sc || R > sr - r || C > sc - c) {
        sim_trap(x, in, DIAG_T_TILE, "the %" PRIu64 "x%" PRIu64 " window at (%" PRId64 ", %" PRId64 ") leaves the "
                 "%" PRIu64 "x%" PRIu64 " source tile", R, C, (int64_t)r, (int64_t)c, sr, sc);
        return NULL;
    }
    if (!in->imm[TS_OK]) {
        sim_trap(x, in, DIAG_T_UNSUPPORTED, "a %" PRIu64 "x%" PRIu64 " window at (%" PRIu64 ", %" PRIu64 ") of a %"
                 PRIu64 "x%" PRIu64 "%s tile is not simulated (its lines do not keep the tile's pitch; docs/semantics.md "
                 "§14.1)", R, C, r, c, sr, sc, ty->slayout != TSL_NONE_BOX ? " boxed" : "");
        return NULL;
    }
    if (in->imm[TS_OK] == 2) {   /* an NZ acc window: (col / 16) blocks of sr x 16 accumulators, then row r */
        if (c % 16) {
            sim_trap(x, in, DIAG_T_UNSUPPORTED, "a window of an acc tile at column %" PRIu64 " is not simulated (it "
                     "starts at a 16-column block)", c);
            return NULL;
        }
        t.addr = s.addr + ((c / 16) * sr * 16 + r * 16) * (uint64_t)in->imm[TS_ELEM];
    } else
        t.addr = s.addr + (in->imm[TS_COLMAJ] ? c * sr + r : r * (uint64_t)in->imm[TS_PITCH] + c) * (uint64_t)in->imm[TS_ELEM];
    uint64_t vr = in->imm[TS_VR] >= 0 ? ARG(x, in, (unsigned)in->imm[TS_VR]) : (uint64_t)(ty->dims[2] >= 0 ? ty->dims[2] : ty->dims[0]);
    uint64_t vc = in->imm[TS_VC] >= 0 ? ARG(x, in, (unsigned)in->imm[TS_VC]) : (uint64_t)(ty->dims[3] >= 0 ? ty->dims[3] : ty->dims[1]);
    t.vr = (uint32_t)(vr < R ? vr : R);   /* the valid region is clipped to the window (PTO_IR_manual pto.subview) */
    t.vc = (uint32_t)(vc < C ? vc : C);
    tile_put(FR(x, in->res[0]), t);
    return done(x, in);
}

/* tgetval / tsetval (Instr.imm): element bytes, the tile's element count, whether the function is in auto-sync
   mode. In auto-sync mode the scalar access first waits for every queued op of its core to complete (the
   compiler's sync before a scalar access to a tile; conservative: the bytes are those of the ordered program);
   with explicit synchronisation it accesses at once and the kernel's own sync orders it (docs/tile.md). */
/* A local array's frame slot (pto.declare_local_array's result, Instr.arg[0] of get / set): one 8-byte word per
   element in row-major order, then one written bit per element. Instr.imm: LA_RANK, then the dims. */
enum { LA_RANK, LA_DIM0 };
static const Instr *x_la_declare(Exec *x, const Instr *in)
{
    uint64_t n = 1;
    for (int i = 0; i < in->imm[LA_RANK]; i++) n *= (uint64_t)in->imm[LA_DIM0 + i];
    memset(x->frame + in->res[0], 0, 8 * n + 8 * ((n + 63) / 64));   /* values 0, nothing written */
    return done(x, in);
}

/* The element number of the indices (operands 1..rank), or -1 after a T-OOB trap. */
static int64_t la_index(Exec *x, const Instr *in)
{
    uint64_t lin = 0;
    for (int i = 0; i < in->imm[LA_RANK]; i++) {
        uint64_t k = ARG(x, in, 1 + (unsigned)i), d = (uint64_t)in->imm[LA_DIM0 + i];
        if (k >= d) {
            sim_trap(x, in, DIAG_T_OOB, "index %" PRId64 " of dimension %d is outside the local array's %" PRIu64,
                     (int64_t)k, i, d);
            return -1;
        }
        lin = lin * d + k;
    }
    return (int64_t)lin;
}

static uint64_t la_count(const Instr *in)
{
    uint64_t n = 1;
    for (int i = 0; i < in->imm[LA_RANK]; i++) n *= (uint64_t)in->imm[LA_DIM0 + i];
    return n;
}

static const Instr *x_la_get(Exec *x, const Instr *in)
{
    int64_t k = la_index(x, in);
    if (k < 0) return NULL;
    int32_t base = in->arg[0], bits = base + 8 * (int32_t)la_count(in) + 8 * (int32_t)(k / 64);
    if ((x->core->sim->checks & CHK_INIT) && !(fr_u64(x, bits) >> (k % 64) & 1))
        sim_warn_once(x, in, DIAG_T_UNINIT, "reads a local array element that nothing wrote (it reads as 0)");
    fr_set_u64(x, in->res[0], fr_u64(x, base + 8 * (int32_t)k));
    return done(x, in);
}

static const Instr *x_la_set(Exec *x, const Instr *in)
{
    int64_t k = la_index(x, in);
    if (k < 0) return NULL;
    int32_t base = in->arg[0], bits = base + 8 * (int32_t)la_count(in) + 8 * (int32_t)(k / 64);
    fr_set_u64(x, base + 8 * (int32_t)k, ARG(x, in, 1 + (unsigned)in->imm[LA_RANK]));
    fr_set_u64(x, bits, fr_u64(x, bits) | 1ull << (k % 64));
    return done(x, in);
}

/* pto.multi_tile_get: slot k (operand 1) of the multi_tile_buf (operand 0), k below MG_COUNT, MG_STRIDE bytes
   apart (tile_plan_multi_stride); the slot's tile keeps the buffer's valid shape. */
enum { MG_COUNT, MG_STRIDE };
static const Instr *x_multi_get(Exec *x, const Instr *in)
{
    TileRt t = tile_get(FR(x, in->arg[0]));
    uint64_t k = ARG(x, in, 1);
    if (k >= (uint64_t)in->imm[MG_COUNT]) {
        sim_trap(x, in, DIAG_T_TILE, "slot %" PRId64 " of a multi_tile_buf of %" PRId64 " slots", (int64_t)k, in->imm[MG_COUNT]);
        return NULL;
    }
    t.addr += k * (uint64_t)in->imm[MG_STRIDE];
    tile_put(FR(x, in->res[0]), t);
    return done(x, in);
}

enum { TG_ELEM, TG_COUNT, TG_AUTO };

/* 1 once every queue of the core has drained (the scalar unit then continues after the latest of them, ordered
   after them for the race detector), else 0: the scalar unit waits (SIM_BLOCKED). */
static int core_drained(Exec *x)
{
    Core *c = x->core;
    for (int p = 1; p < PQ__COUNT; p++)
        if (c->pipes[p].head != c->pipes[p].tail) return 0;
    uint64_t t = c->su_t;
    for (int p = 1; p < PQ__COUNT; p++)
        if (c->pipes[p].t > t) t = c->pipes[p].t;
    c->su_t = t;
    race_join_all(x);
    return 1;
}

static int scalar_drained(Exec *x, const Instr *in) { return !in->imm[TG_AUTO] || core_drained(x); }

static const Instr *x_fence_all(Exec *x, const Instr *in)
{
    return core_drained(x) ? done(x, in) : SIM_BLOCKED;
}

static uint8_t *scalar_elem(Exec *x, const Instr *in, int tile_arg, int off_arg, int mode)
{
    const Type *ty = in->op->operands[tile_arg]->type;
    TileRt t = tile_get(FR(x, in->arg[tile_arg]));
    uint64_t off = ARG(x, in, (unsigned)off_arg), e = (uint64_t)in->imm[TG_ELEM];
    if (off >= (uint64_t)in->imm[TG_COUNT]) {
        sim_trap(x, in, DIAG_T_TILE, "element offset %" PRIu64 " is outside the %" PRId64 " elements of the tile", off,
                 in->imm[TG_COUNT]);
        return NULL;
    }
    return sim_mem(x, in, (AddrSpace)ty->space, t.addr + off * e, e, 1, mode, mode == ACC_READ ? "tile element" :
                   "tile element");
}

static const Instr *x_getval(Exec *x, const Instr *in)
{
    if (!scalar_drained(x, in)) return SIM_BLOCKED;
    const uint8_t *p = scalar_elem(x, in, 0, 1, ACC_READ);
    if (!p) return NULL;
    uint64_t v = 0;
    memcpy(&v, p, (size_t)in->imm[TG_ELEM]);   /* little-endian host, as every frame slot (zero-extended) */
    fr_set_u64(x, in->res[0], v);
    return done(x, in);
}

static const Instr *x_setval(Exec *x, const Instr *in)
{
    if (!scalar_drained(x, in)) return SIM_BLOCKED;
    uint8_t *p = scalar_elem(x, in, 2, 0, ACC_WRITE);
    if (!p) return NULL;
    uint64_t v = ARG(x, in, 1);
    memcpy(p, &v, (size_t)in->imm[TG_ELEM]);
    return done(x, in);
}

/* reserve_buffer / import_reserved_buffer: the FIFO's local base address (Instr.imm[0]). */
static const Instr *x_const_i32(Exec *x, const Instr *in)
{
    fr_set_u64(x, in->res[0], (uint64_t)(uint32_t)in->imm[0]);
    return done(x, in);
}

/* The frontend cross-core pipe ops: a FIFO between a cube function and its peer vector function (one launch
   runs one function; docs/tile.md "Cross-core pipes"). */
static const Instr *x_xcore(Exec *x, const Instr *in)
{
    sim_trap(x, in, DIAG_T_UNSUPPORTED, "the frontend cross-core pipe between a cube function and its peer vector "
             "function is not simulated (docs/tile.md \"Cross-core pipes\")");
    return NULL;
}

static const Instr *x_comm(Exec *x, const Instr *in)
{
    sim_trap(x, in, DIAG_T_UNSUPPORTED, "communication between ranks is not simulated: a ptosim launch is one rank "
             "(docs/semantics.md \"Communication ops\")");
    return NULL;
}

static int64_t attr_int(const Op *op, const char *name, int64_t def)
{
    const Attr *a = op_attr(op, name);
    return a && (a->kind == AT_INT || a->kind == AT_BOOL) ? a->i : def;
}

static const char *attr_text(const Op *op, const char *name)
{
    const Attr *a = op_attr(op, name);
    return a && (a->kind == AT_STR || a->kind == AT_SYM) ? a->s : NULL;
}

/* The base of a reserve_buffer: its `base`; with auto = true and no base, the first hole of its space (aligned
   as the tile plan aligns: 32 bytes in UB, 512 in L1) that overlaps no tile the function's tile plan places (at
   any time) and no earlier reserve_buffer of the function, as the compiler's memory planner places them after
   the tiles (PTOAS PTOPlanMemory.cpp assignAutoReserveBufferBases; docs/tile.md "Allocation"). */
typedef struct RbList { const Op *op[32]; uint32_t n; } RbList;
static int collect_rb(Op *o, void *ud)
{
    RbList *l = ud;
    if (o->kind == OP_RESERVE_BUFFER && l->n < 32) l->op[l->n++] = o;
    return 0;
}

static AddrSpace rb_space(const Op *o)
{
    const Attr *a = op_attr(o, "location");
    const char *s = a && (a->kind == AT_RAW || a->kind == AT_STR || a->kind == AT_TOKEN) ? a->s : NULL;
    return s && strstr(s, "mat") ? AS_L1 : AS_UB;
}

static int64_t reserve_base(const Op *rb)
{
    const Attr *ba = op_attr(rb, "base");
    if (ba && ba->kind == AT_INT) return ba->i;
    if (!attr_int(rb, "auto", 0)) return 0;
    Op *f = ir_parent_op(rb);
    while (f && f->kind != OP_FUNC) f = ir_parent_op(f);
    if (!f) return 0;
    RbList l;
    l.n = 0;
    ir_walk(f, collect_rb, &l);
    TilePlan p;
    if (tile_plan_build(f, NULL, &p)) return 0;
    uint64_t taken[32][2];
    int64_t res = 0;
    for (uint32_t k = 0; k < l.n; k++) {
        const Op *o = l.op[k];
        AddrSpace as = rb_space(o);
        uint64_t al = as == AS_UB ? 32 : 512, size = (uint64_t)attr_int(o, "size", 0), base;
        const Attr *b = op_attr(o, "base");
        if (b && b->kind == AT_INT) base = (uint64_t)b->i;
        else {
            base = 0;
            for (int moved = 1; moved;) {   /* the lowest aligned start clear of every placed range */
                moved = 0;
                for (uint32_t i = 0; i < p.n; i++) {
                    const TileSlot *t = &p.t[i];
                    if (t->as != as || !t->fits || !t->size) continue;
                    if (base < t->addr + t->size && t->addr < base + size) {
                        base = (t->addr + t->size + al - 1) / al * al;
                        moved = 1;
                    }
                }
                for (uint32_t i = 0; i < k; i++)
                    if (rb_space(l.op[i]) == as && base < taken[i][1] && taken[i][0] < base + size) {
                        base = (taken[i][1] + al - 1) / al * al;
                        moved = 1;
                    }
            }
        }
        taken[k][0] = base;
        taken[k][1] = base + size;
        if (o == rb) res = (int64_t)base;
    }
    tile_plan_free(&p);
    return res;
}

/* import_reserved_buffer: the base of the reserve_buffer named `name` in the function `peer_func` (the
   compiler's pto-resolve-reserved-buffers; reserve_base for the auto ones). */
typedef struct FindRes { const char *name, *func; int64_t base; int found; } FindRes;
static int find_reserve(Op *o, void *ud)
{
    FindRes *f = ud;
    if (o->kind != OP_RESERVE_BUFFER || f->found) return 0;
    const char *n = attr_text(o, "name");
    const Op *fn = ir_parent_op(o);
    while (fn && fn->kind != OP_FUNC) fn = ir_parent_op(fn);
    const char *fname = fn ? attr_text(fn, "sym_name") : NULL;
    if (n && !strcmp(n, f->name) && (!f->func || (fname && !strcmp(fname, f->func)))) {
        f->base = reserve_base(o);
        f->found = 1;
    }
    return 0;
}

/* Whether the function holding op synchronises explicitly (lower.c's auto-sync rule: a sync-family op other than
   mem_bar), i.e. is not in auto-sync mode. */
static int walk_sync(Op *o, void *ud)
{
    if (op_info[o->kind].fam == FAM_SYNC && o->kind != OP_MEM_BAR) *(int *)ud = 1;
    return 0;
}
static int func_has_sync(const Op *op)
{
    const Op *f = ir_parent_op(op);
    while (f && f->kind != OP_FUNC) f = ir_parent_op(f);
    int s = 0;
    if (f) ir_walk((Op *)f, walk_sync, &s);
    return s;
}

/* The planned address of an alloc_tile: the plan of its function is computed once and kept in each alloc's
   Op.aux (the address + 1; a lowering-time scratch, docs/internals.md) until the module is freed. */
static int planned_addr(LowerView *L, const Op *op, uint64_t *addr)
{
    if (!op->aux) {
        const Op *f = ir_parent_op(op);
        while (f && f->kind != OP_FUNC) f = ir_parent_op(f);
        TilePlan p;
        if (!f || tile_plan_build(f, NULL, &p)) {
            lw_error(L, op, DIAG_OOM, "out of memory planning the tile addresses");
            return -1;
        }
        /* the verifier checked the capacity of the target; the placement does not depend on it */
        for (uint32_t i = 0; i < p.n; i++)
            if (!p.t[i].fixed && p.t[i].fits) ((Op *)p.t[i].op)->aux = (void *)(uintptr_t)(p.t[i].addr + 1);
        tile_plan_free(&p);
    }
    if (!op->aux) {   /* the verifier reported it (E-TILE-ALLOC) */
        lw_error(L, op, DIAG_TILE_ALLOC, "the tile does not fit its address space");
        return -1;
    }
    *addr = (uint64_t)(uintptr_t)op->aux - 1;
    return 0;
}

int tile_lower_view(LowerView *L, const Op *op, Instr *in)
{
    in->cost = 1;
    switch (op->kind) {
    case OP_MAKE_TENSOR_VIEW: case OP_PARTITION_VIEW: {
        const Type *t = op->results[0]->type;
        in->imm[TV_RANK] = t->rank;
        in->imm[TV_ELEM] = ty_bytes(t->elem);
        in->imm[TV_SHAPE] = 1;
        in->imm[TV_STRIDE] = 1 + t->rank;
        if (op->noperands != 1u + 2u * t->rank) {
            lw_error(L, op, DIAG_TILE_SHAPE, "'%s' needs %u sizes and %u strides for its rank-%u view", op_info[op->kind].name,
                     t->rank, t->rank, t->rank);
            return -1;
        }
        in->fn = op->kind == OP_MAKE_TENSOR_VIEW ? x_make_view : x_partition;
        return 0;
    }
    case OP_GET_TENSOR_VIEW_DIM: case OP_GET_TENSOR_VIEW_STRIDE:
        in->imm[TV_RANK] = op->operands[0]->type->rank;
        in->fn = x_view_query;
        return 0;
    case OP_TENSOR_VIEW_ADDR: in->fn = x_view_addr; return 0;
    case OP_ALLOC_TILE: case OP_ALLOC_MULTI_TILE: {
        const Type *t = op->results[0]->type;
        in->imm[TV_ADDR] = lw_group_index(L, op, "addr", 0);
        in->imm[TV_VR] = lw_group_index(L, op, "valid_row", 0);
        in->imm[TV_VC] = lw_group_index(L, op, "valid_col", 0);
        /* a dynamic valid dimension without its operand starts as the whole dimension */
        in->imm[TV_VR_STATIC] = t->dims[2] >= 0 ? t->dims[2] : t->dims[0];
        in->imm[TV_VC_STATIC] = t->dims[3] >= 0 ? t->dims[3] : t->dims[1];
        if (in->imm[TV_ADDR] < 0) {
            uint64_t a;
            if (planned_addr(L, op, &a)) return -1;
            in->imm[TV_PLANNED] = (int64_t)a;
        }
        in->fn = x_alloc;
        return 0;
    }
    case OP_DECLARE_LOCAL_ARRAY: case OP_LOCAL_ARRAY_GET: case OP_LOCAL_ARRAY_SET: {
        const Type *t = op->kind == OP_DECLARE_LOCAL_ARRAY ? op->results[0]->type : op->operands[0]->type;
        in->imm[LA_RANK] = t->rank;
        for (unsigned i = 0; i < t->rank; i++) in->imm[LA_DIM0 + i] = t->dims[i];
        if (op->kind != OP_DECLARE_LOCAL_ARRAY && op->noperands != 1u + t->rank + (op->kind == OP_LOCAL_ARRAY_SET)) {
            lw_error(L, op, DIAG_V_OPERAND_COUNT, "'%s' takes %u indices", op_info[op->kind].name, t->rank);
            return -1;
        }
        in->fn = op->kind == OP_DECLARE_LOCAL_ARRAY ? x_la_declare : op->kind == OP_LOCAL_ARRAY_GET ? x_la_get : x_la_set;
        return 0;
    }
    case OP_MULTI_TILE_GET: {
        const Type *mt = op->operands[0]->type;
        in->imm[MG_COUNT] = mt->dims[4];
        in->imm[MG_STRIDE] = (int64_t)tile_plan_multi_stride(mt);
        in->fn = x_multi_get;
        return 0;
    }
    case OP_SUBVIEW: {
        const Type *st = op->operands[0]->type, *t = op->results[0]->type;
        int colmaj = st->blayout == TBL_COL_MAJOR;
        in->imm[TS_SROWS] = st->dims[0];
        in->imm[TS_SCOLS] = st->dims[1];
        in->imm[TS_ELEM] = ty_bytes(st->elem);
        in->imm[TS_COLMAJ] = colmaj;
        /* an unboxed window keeps the source's pitch when it spans the pitch's direction whole or is one line */
        in->imm[TS_OK] = (t->dims[0] == st->dims[0] && t->dims[1] == st->dims[1]) ||
                         (st->slayout == TSL_NONE_BOX && (colmaj ? t->dims[1] == 1 || t->dims[0] == st->dims[0]
                                                                 : t->dims[0] == 1 || t->dims[1] == st->dims[1]));
        /* another row-major window keeps its parent's pitch when every use honours one (tmov, a nested subview:
           tile_mov.c); a tile value carries no pitch, so any other use stays T-UNSUPPORTED */
        in->imm[TS_PITCH] = colmaj || st->slayout != TSL_NONE_BOX ? st->dims[1] : tile_row_pitch(op->operands[0]);
        if (!in->imm[TS_OK] && !colmaj && st->slayout == TSL_NONE_BOX && tile_pitch_uses_ok(op->results[0]))
            in->imm[TS_OK] = 1;
        if (!in->imm[TS_OK] && acc_window_ok(op)) in->imm[TS_OK] = 2;
        in->imm[TS_VR] = lw_group_index(L, op, "valid_row", 0);
        in->imm[TS_VC] = lw_group_index(L, op, "valid_col", 0);
        in->fn = x_subview;
        return 0;
    }
    case OP_TGETVAL: case OP_TSETVAL: {
        const Type *t = op->operands[op->kind == OP_TGETVAL ? 0 : 2]->type;
        in->imm[TG_ELEM] = ty_bytes(t->elem);
        in->imm[TG_COUNT] = t->dims[0] * t->dims[1];
        in->imm[TG_AUTO] = !func_has_sync(op);
        in->fn = op->kind == OP_TGETVAL ? x_getval : x_setval;
        return 0;
    }
    case OP_CMO_CACHEINVALID: in->fn = done; return 0;
    case OP_TGET_SCALE_ADDR: in->fn = done; return 0;   /* an address binding of the planner: no data moves */
    case OP_COMM_TWAIT: case OP_COMM_TTEST: case OP_COMM_TNOTIFY: case OP_COMM_TPUT: case OP_COMM_TGET:
    case OP_COMM_TBROADCAST: case OP_COMM_TGATHER: case OP_COMM_TSCATTER: case OP_COMM_TREDUCE:
        in->fn = x_comm;
        return 0;
    case OP_FENCE_BARRIER_ALL: in->fn = x_fence_all; return 0;   /* no data cache is modelled (docs/tile.md) */
    case OP_RESERVE_BUFFER: in->imm[0] = reserve_base(op); in->fn = x_const_i32; return 0;
    case OP_IMPORT_RESERVED_BUFFER: {
        FindRes f = {attr_text(op, "name"), attr_text(op, "peer_func"), 0, 0};
        const Op *root = op;
        while (ir_parent_op(root)) root = ir_parent_op(root);
        if (f.name) ir_walk((Op *)root, find_reserve, &f);
        in->imm[0] = f.base;
        in->fn = x_const_i32;
        return 0;
    }
    case OP_AIC_INITIALIZE_PIPE: case OP_AIV_INITIALIZE_PIPE: case OP_TALLOC_TO_AIV: case OP_TALLOC_TO_AIC:
    case OP_TPUSH_TO_AIV: case OP_TPUSH_TO_AIC: case OP_TPOP_FROM_AIC: case OP_TPOP_FROM_AIV: case OP_TFREE_FROM_AIC:
    case OP_TFREE_FROM_AIV:
        in->fn = x_xcore;
        return 0;
    case OP_SET_VALIDSHAPE: in->fn = x_set_valid; return 0;
    case OP_GET_VALIDSHAPE: case OP_TILE_VALID_ROWS: case OP_TILE_VALID_COLS: in->fn = x_get_valid; return 0;
    case OP_TILE_BUF_ADDR: in->fn = x_tile_addr; return 0;
    case OP_SET_QUANT_SCALAR: case OP_SET_QUANT_VECTOR: in->fn = x_xcore; return 0;
    case OP_SET_FFTS: in->fn = done; return 0;   /* the cross-core flags are modelled, not read from GM */
    default:
        return 0;
    }
}
