/* tile_pipe.c — the frontend cube<->vector tile pipes (PTOAS PTO_IR_manual §4.18; docs/tile.md "Cube<->vector
 * pipes"): pto.aic/aiv_initialize_pipe, pto.tpush_to_aiv/aic, pto.tpop_from_aic/aiv, pto.tfree_from_aic/aiv.
 *
 * A pipe is a ring of `slot_num` slots of `slot_size` bytes in the consumer's local buffer (C2V: each AIV's UB
 * at c2v_consumer_buf; V2C: the AIC's L1 at v2c_consumer_buf), kept per block in the cluster (struct
 * TilePipeState). The ring counts entries: a push writes entry k into slot k % slot_num once the consumer has
 * freed entry k - slot_num (else the push waits), a pop takes the oldest filled entry (else it waits), a free
 * gives the oldest popped entry back. Which AIVs take part follows the split: 1 (up-down) and 2 (left-right)
 * give each AIV one half of the cube's tile; 0 (no split) is the 1C:1V mode on a5 (AIV0 only) and the same
 * whole tile to both AIVs on a2a3 (docs/semantics.md §14.10).
 *
 * Where each op runs (pto-isa include/pto/npu/a5/TPush.hpp, TPop.hpp: the pipes that set and wait the flags):
 * tpush_to_aiv is a FIX job (the acc tile to the AIVs' UB through mte_l0c_ub's engine), tpush_to_aic an MTE3 job
 * (the vec tile into the AIC's L1), tfree_from_aic a V job and tfree_from_aiv an MTE1 job (each after the
 * consumer's earlier reads), the pops and the initialisations run on the scalar unit. A push orders the
 * consumer's reads after its writes, a free the producer's next writes of the slot after the consumer's reads
 * (race detector and trace: cross-core channels). */
#include "tile_int.h"
#include <inttypes.h>
#include <stdio.h>
#include "base/alloc.h"
#include "exec/race.h"
#include "ops/cube/cube.h"

enum { TP_MAX = 16 };
enum { TP_C2V, TP_V2C };

typedef struct TpRing {
    uint8_t used, dir, split_set;
    int8_t split;
    int32_t id;
    uint32_t slot_size, nslots;
    uint64_t buf;                  /* consumer base address (UB of each AIV, or the AIC's L1) */
    const Instr *init_at[3];       /* each core's initialize_pipe (by Core.index: the AIC, AIV0, AIV1) */
    uint64_t put[2];               /* C2V: entries delivered (both AIVs receive together: [0]); V2C: pushed by AIV s */
    uint64_t got[2], freed[2];     /* C2V: popped / freed by AIV s; V2C: [0] by the AIC */
    uint64_t ready[2];             /* cycle the latest delivery completes (C2V [0]; V2C per AIV) */
    const Instr *last_push[2];
    uint64_t qscalar, qvector;     /* C2V FIXPIPE epilogues: set_quant_scalar's f32 bits, set_quant_vector's FB address */
    uint8_t qs_set, qv_set;
} TpRing;

typedef struct TilePipeState { TpRing r[TP_MAX]; } TilePipeState;

int tile_pipe_reset(Cluster *cl)
{
    if (!cl->tpipe && !(cl->tpipe = mem_calloc(1, sizeof *cl->tpipe))) return -1;
    memset(cl->tpipe, 0, sizeof *cl->tpipe);
    return 0;
}

enum { TP_ID, TP_DIR, TP_SPLIT, TP_SLOTSZ, TP_NSLOTS, TP_C2VB, TP_V2CB };   /* Instr.imm */
enum { TP_VR = 3, TP_VC, TP_RVR, TP_RVC };                                  /* pops: operands, static valid shape */
enum { TP_SRC = 3 };                                                        /* pushes and frees: the entry operand */
enum { TP_QUANT = 4, TP_DBYTES };   /* tpush_to_aiv of a FIXPIPE pipe: quant 0 none, 1 scalar, 2 vector; element bytes */
enum { TP_SUB = 7 };                 /* tpush_to_aic / tpop_from_aic: the aiv_subblockid operand (-1: none) */

/* An explicit aiv_subblockid must name the AIV that runs the op (the simulator places each AIV's part by the core
   that runs it): 0, or -1 after a trap. */
static int check_sub(Exec *x, const Instr *in, uint64_t v)
{
    if (in->imm[TP_SUB] < 0) return 0;
    if (v == (uint64_t)(x->core->subblock & 1)) return 0;
    sim_trap(x, in, DIAG_T_PIPE, "aiv_subblockid is %" PRIu64 ", but AIV %d runs this '%s': a part placed for the other "
             "AIV is not simulated", v, x->core->subblock & 1, op_info[in->kind].name);
    return -1;
}

static int64_t attr_i(const Op *op, const char *name, int64_t def)
{
    const Attr *a = op_attr(op, name);
    return a && (a->kind == AT_INT || a->kind == AT_BOOL) ? a->i : def;
}

static TpRing *ring_find(Cluster *cl, int64_t id, int dir, int make)
{
    TilePipeState *st = cl->tpipe;
    for (int i = 0; i < TP_MAX; i++)
        if (st->r[i].used && st->r[i].id == id && st->r[i].dir == dir) return &st->r[i];
    if (!make) return NULL;
    for (int i = 0; i < TP_MAX; i++)
        if (!st->r[i].used) {
            st->r[i].used = 1;
            st->r[i].id = (int32_t)id;
            st->r[i].dir = (uint8_t)dir;
            st->r[i].split = -1;
            return &st->r[i];
        }
    return NULL;
}

static unsigned ring_key(const Cluster *cl, const TpRing *r, unsigned what, unsigned t)
{
    return 0x10000u + (unsigned)(r - cl->tpipe->r) * 16u + what * 4u + t;   /* RC_CROSS keys of the pipes */
}

static const char *dir_name(int dir) { return dir == TP_C2V ? "C2V" : "V2C"; }

static int is_a2a3(const Exec *x) { return x->core->sim->tp->id == PTO_TARGET_A2A3; }

/* The ring a transfer op of core x uses: its own side's initialize_pipe must have run. */
static TpRing *ring_of(Exec *x, const Instr *in, int dir)
{
    TpRing *r = ring_find(x->core->cl, in->imm[TP_ID], dir, 0);
    int side = x->core->type == CORE_AIC ? 0 : 1;
    if (!r || !r->init_at[x->core->index % 3]) {
        sim_trap(x, in, DIAG_T_PIPE, "pipe id %" PRId64 " (%s) has no %s on this %s core", in->imm[TP_ID], dir_name(dir),
                 side ? "pto.aiv_initialize_pipe" : "pto.aic_initialize_pipe", side ? "vector" : "cube");
        return NULL;
    }
    int64_t sp = in->imm[TP_SPLIT];
    if (r->split_set && r->split != sp) {
        sim_trap(x, in, DIAG_T_PIPE, "split = %" PRId64 " on pipe id %" PRId64 ", which earlier transfers used with "
                 "split = %d (one logical pipe keeps one split mode)", sp, in->imm[TP_ID], r->split);
        return NULL;
    }
    r->split = (int8_t)sp;
    r->split_set = 1;
    return r;
}

/* Which AIVs take part in a transfer of split mode sp: a mask of subblocks. */
static unsigned parts(const Exec *x, int64_t sp)
{
    if (x->core->cl->ncores != 3) return 1u;
    if (sp != 0) return 3u;
    return is_a2a3(x) ? 3u : 1u;
}

static int check_part(Exec *x, const Instr *in, int64_t sp)
{
    unsigned sb = (unsigned)x->core->subblock & 1u;
    if (parts(x, sp) & (1u << sb)) return 0;
    sim_trap(x, in, DIAG_T_PIPE, "split = 0 on a5 is the 1C:1V mode: the vector side of the pipe is AIV0, and this "
             "is AIV%u (docs/tile.md \"Cube<->vector pipes\")", sb);
    return -1;
}

/* ---------------------------------------------------------------- initialize_pipe */

static const Instr *x_init(Exec *x, const Instr *in)
{
    int me = x->core->index % 3;
    if (x->core->cl->ncores != 3) {
        sim_trap(x, in, DIAG_T_PIPE, "a cross-core pipe joins a cube function and its vector peer: launch a kernel whose "
                 "pto.section.cube and pto.section.vector call the two, so they run as one cluster (this launch runs "
                 "one %s core)", x->core->type == CORE_AIC ? "cube" : "vector");
        return NULL;
    }
    int64_t dm = in->imm[TP_DIR];
    for (int dir = TP_C2V; dir <= TP_V2C; dir++) {
        if (!(dm & (1 << dir))) continue;
        int64_t bo = in->imm[dir == TP_C2V ? TP_C2VB : TP_V2CB];
        uint64_t base = bo >= 0 ? (uint64_t)(uint32_t)fr_u64(x, (int32_t)bo) : 0;
        TpRing *r = ring_find(x->core->cl, in->imm[TP_ID], dir, 1);
        if (!r) {
            sim_trap(x, in, DIAG_T_PIPE, "more than %d cross-core pipes in one block", TP_MAX);
            return NULL;
        }
        if (r->init_at[me]) {
            sim_trap(x, in, DIAG_T_PIPE, "pipe id %" PRId64 " (%s) is initialised twice on this core", in->imm[TP_ID],
                     dir_name(dir));
            return NULL;
        }
        if ((r->init_at[0] || r->init_at[1] || r->init_at[2]) && (r->slot_size != (uint32_t)in->imm[TP_SLOTSZ] || r->nslots != (uint32_t)in->imm[TP_NSLOTS] ||
                                  r->buf != base)) {
            sim_trap(x, in, DIAG_T_PIPE, "pipe id %" PRId64 " (%s): the cube and vector sides disagree on slot_size, "
                     "slot_num or the consumer buffer (%u x %u at 0x%" PRIx64 " against %u x %u at 0x%" PRIx64 ")",
                     in->imm[TP_ID], dir_name(dir), (unsigned)in->imm[TP_NSLOTS], (unsigned)in->imm[TP_SLOTSZ], base,
                     r->nslots, r->slot_size, r->buf);
            return NULL;
        }
        r->init_at[me] = in;
        r->slot_size = (uint32_t)in->imm[TP_SLOTSZ];
        r->nslots = (uint32_t)in->imm[TP_NSLOTS];
        r->buf = base;
    }
    return in + 1;
}

/* ---------------------------------------------------------------- tpush_to_aiv (FIX) */

static int p_push_aiv(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    Cluster *cl = x->core->cl;
    TpRing *r = ring_of(x, in, TP_C2V);
    if (!r) return -1;
    const Type *st = j->ty[0];
    TileRt s = tj_tile(j, args, 0);
    if (tile_check_valid(x, in, st, s, "pushed")) return -1;
    int64_t sp = in->imm[TP_SPLIT];
    unsigned pm = parts(x, sp);
    for (unsigned t = 0; t < 2; t++)
        if ((pm >> t & 1u) && r->put[0] - r->freed[t] >= r->nslots) return 1;   /* the ring is full for AIV t */
    uint64_t eb = in->imm[TP_DBYTES] ? (uint64_t)in->imm[TP_DBYTES] : ty_bytes(st->elem);   /* the consumer's element */
    uint64_t bytes = (uint64_t)st->dims[0] * (uint64_t)st->dims[1] * eb / (sp == 1 || sp == 2 ? 2 : 1);
    if (bytes > r->slot_size) {
        sim_trap(x, in, DIAG_T_PIPE, "the pushed entry (%" PRIu64 " bytes per vector core) does not fit a %u-byte slot",
                 bytes, r->slot_size);
        return -1;
    }
    if (r->put[0] >= r->nslots)
        for (unsigned t = 0; t < 2; t++)
            if (pm >> t & 1u) sim_acquire(x, RC_CROSS, ring_key(cl, r, 1, t));
    uint64_t dst = r->buf + (r->put[0] % r->nslots) * r->slot_size;
    uint64_t ss = (uint64_t)st->dims[0], cols = (uint64_t)st->dims[1];
    if (sp == 1 && s.vr % 2) {
        sim_trap(x, in, DIAG_T_PIPE, "an up-down split needs an even number of valid rows (%" PRIu32 ")", s.vr);
        return -1;
    }
    const FixExt *fe = in->ext2;
    int rc = 0;
    uint64_t qp = 0;
    if (in->imm[TP_QUANT]) {   /* the epilogue's quant state, as the latest set_quant_* of the id left it */
        int vec = in->imm[TP_QUANT] == 2;
        if (vec ? !r->qv_set : !r->qs_set) {
            sim_trap(x, in, DIAG_T_PIPE, "pipe id %" PRId64 " quantises with a %s scale, and no pto.set_quant_%s of the "
                     "id ran before this push", in->imm[TP_ID], vec ? "vector" : "scalar", vec ? "vector" : "scalar");
            return -1;
        }
        qp = vec ? r->qvector : r->qscalar;
    }
    if (sp == 1 || sp == 2) {
        rc = cube_fix_exec(x, in, fe, s.addr, dst, s.vr, s.vc, ss, sp == 2 ? cols / 2 : cols, 0, qp);
    } else {
        for (unsigned t = 0; t < 2 && !rc; t++)
            if (pm >> t & 1u) rc = cube_fix_exec(x, in, fe, s.addr, dst, s.vr, s.vc, ss, cols, t, qp);
    }
    if (rc) return -1;
    r->put[0]++;
    r->ready[0] = x->now + in->cost + x->extra_cost;
    r->last_push[0] = in;
    for (unsigned t = 0; t < 2; t++)
        if (pm >> t & 1u) sim_release(x, RC_CROSS, ring_key(cl, r, 0, t));
    sim_signal(x->core, x->now);
    return 0;
}

/* ---------------------------------------------------------------- set_quant_scalar / set_quant_vector (FIX) */

/* A FIX job, so it takes effect between the pushes queued before it and those after it, as the FPC / quant
   register write the compiler emits before each push does (PTOAS PTOToEmitC: SET_QUANT_* rematerialised before
   every matching TPUSH; pto-isa SetQuantVector.hpp: set_fpc with the scaling tile's address). */
static int p_set_quant(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    TpRing *r = ring_of(x, in, TP_C2V);
    if (!r) return -1;
    if (in->kind == OP_SET_QUANT_VECTOR) {
        r->qvector = tj_tile(j, args, 0).addr;
        r->qv_set = 1;
    } else {
        r->qscalar = tj_scalar(j, args, 0) & 0xFFFFFFFFu;
        r->qs_set = 1;
    }
    return 0;
}

/* The FIXPIPE epilogue of a tpush_to_aiv (docs/semantics.md "FIXPIPE epilogue of a cross-core pipe"): the
   acc_push_epilogue of the function's aic_initialize_pipe of the push's id, the element type of the consumer's
   tpop_from_aic of that id (in the function the init's import_reserved_buffer names), and for a vector quant the
   payload of the latest set_quant_vector of the id before the push in its block. */
typedef struct PushEpi {
    int64_t id;
    const Op *init, *pop;
    const char *peer;
    int layout, quant, relu;   /* CUBE_FIX_*; 0 none / 1 scalar / 2 vector; normal_relu */
} PushEpi;

static int find_init(Op *o, void *ud)
{
    PushEpi *e = ud;
    if (o->kind == OP_AIC_INITIALIZE_PIPE && attr_i(o, "id", 0) == e->id && !e->init) e->init = o;
    return 0;
}

static int find_pop(Op *o, void *ud)
{
    PushEpi *e = ud;
    if (o->kind == OP_FUNC) {
        const Attr *a = op_attr(o, "sym_name");
        const char *n = a && (a->kind == AT_STR || a->kind == AT_SYM) ? a->s : NULL;
        if (!n || strcmp(n, e->peer)) return 0;
        for (uint32_t i = 0; i < o->nregions; i++)
            for (const Op *p = o->regions[i]->block ? o->regions[i]->block->first : NULL; p; p = p->next)
                if (p->kind == OP_TPOP_FROM_AIC && attr_i(p, "id", 0) == e->id && !e->pop) e->pop = p;
    }
    return 0;
}

/* The value of `key = word` in the acc_push_epilogue text, as its index in names[], else -1. */
static int epi_field(const char *s, const char *key, const char *const *names, int n)
{
    size_t kl = strlen(key);
    for (const char *p = s; (p = strstr(p, key)); p += kl) {
        const char *q = p + kl;
        while (*q == ' ') q++;
        if (*q != '=' || (p > s && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z')))) continue;
        q++;
        while (*q == ' ') q++;
        size_t vl = 0;
        while ((q[vl] >= 'a' && q[vl] <= 'z') || (q[vl] >= '0' && q[vl] <= '9') || q[vl] == '_') vl++;
        for (int i = 0; i < n; i++)
            if (strlen(names[i]) == vl && !strncmp(names[i], q, vl)) return i;
        return -1;
    }
    return -1;
}

/* 0: no epilogue (e->init NULL or without one); 1: e filled; -1 after an error. */
static int push_epilogue(LowerView *L, const Op *op, PushEpi *e, const Type **dst)
{
    memset(e, 0, sizeof *e);
    e->id = attr_i(op, "id", 0);
    Op *fn = ir_parent_op(op);
    while (fn && fn->kind != OP_FUNC) fn = ir_parent_op(fn);
    if (!fn) return 0;
    ir_walk(fn, find_init, e);
    const Attr *a = e->init ? op_attr(e->init, "acc_push_epilogue") : NULL;
    const char *s = a && (a->kind == AT_RAW || a->kind == AT_STR) ? a->s : NULL;
    if (!s) return 0;
    static const char *const lay[] = {"nz2nd", "nz2dn", "nz2nz"}, *const rel[] = {"no_relu", "normal_relu"};
    static const char *const qn[] = {"no_convert", "f32_f16", "f32_bf16", "deqf16_scalar", "req8_scalar",
                                     "qf322b8_pre_scalar", "qf322f16_pre_scalar", "qf322bf16_pre_scalar",
                                     "qs322bf16_pre_scalar", "qf322hif8_pre_scalar", "qf322fp8_pre_scalar",
                                     "deqf16_vec", "req8_vec", "qf322b8_pre_vec", "qs322bf16_pre_vec"};
    int l = epi_field(s, "layout", lay, 3), q = epi_field(s, "quant", qn, 15), r = epi_field(s, "relu", rel, 2);
    if (l < 0 || q < 0 || r < 0) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "'pto.tpush_to_aiv': the pipe's acc_push_epilogue is not one ptosim reads");
        return -1;
    }
    e->layout = l == 0 ? CUBE_FIX_ND : l == 1 ? CUBE_FIX_DN : CUBE_FIX_NZNZ;
    e->quant = q < 3 ? 0 : q < 11 ? 1 : 2;
    e->relu = r;
    /* the consumer's element type */
    int c2 = -1;
    for (uint32_t i = 0; i < e->init->noperands; i++) {
        const Value *v = e->init->operands[i];
        if (v && v->def && v->def->kind == OP_IMPORT_RESERVED_BUFFER && c2 < 0) c2 = (int)i;
    }
    const Attr *pf = c2 >= 0 ? op_attr(e->init->operands[c2]->def, "peer_func") : NULL;
    e->peer = pf && (pf->kind == AT_SYM || pf->kind == AT_STR) ? pf->s : NULL;
    if (e->peer && e->peer[0] == '@') e->peer++;
    if (e->peer) {
        Op *root = fn;
        while (ir_parent_op(root)) root = ir_parent_op(root);
        ir_walk(root, find_pop, e);
    }
    const Type *pt = e->pop && e->pop->nresults ? e->pop->results[0]->type : NULL;
    if (!pt || pt->kind != TY_TILE_BUF) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "'pto.tpush_to_aiv': the consumer's tpop_from_aic of pipe id %lld (in the "
                 "function the init's import_reserved_buffer names) was not found, so the FIXPIPE's output type is "
                 "unknown", (long long)e->id);
        return -1;
    }
    *dst = pt->elem;
    return 1;
}

/* The payload format of the latest set_quant_vector of the push's id before it in its block: -1 the 8-byte rows
   (a 64-bit integer scaling tile, a2a3), else the NumFormat of the f16 / bf16 / f32 elements (a5); -2: none. */
static int qvec_payload(const Op *op, int64_t id)
{
    int f = -2;
    for (const Op *p = op->parent ? op->parent->first : NULL; p && p != op; p = p->next)
        if (p->kind == OP_SET_QUANT_VECTOR && attr_i(p, "id", 0) == id && p->noperands) {
            const Type *t = p->operands[0]->type;
            const Type *el = t && t->kind == TY_TILE_BUF ? t->elem : NULL;
            f = !el ? -2 : el->kind == TY_INT && el->bits == 64 ? -1
              : el->kind != TY_FLOAT ? -3 : el->fk == FK_F16 ? NUM_F16 : el->fk == FK_BF16 ? NUM_BF16
              : el->fk == FK_F32 ? NUM_F32 : -3;
        }
    return f;
}

/* ---------------------------------------------------------------- tpush_to_aic (MTE3) */

static int p_push_aic(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    Cluster *cl = x->core->cl;
    TpRing *r = ring_of(x, in, TP_V2C);
    if (!r) return -1;
    int64_t sp = in->imm[TP_SPLIT];
    if (check_part(x, in, sp) || check_sub(x, in, in->imm[TP_SUB] < 0 ? 0 : tj_scalar(j, args, (int)in->imm[TP_SUB])))
        return -1;
    unsigned sb = (unsigned)x->core->subblock & 1u;
    const Type *st = j->ty[0];
    TileRt s = tj_tile(j, args, 0);
    if (tile_check_valid(x, in, st, s, "pushed")) return -1;
    if (r->put[sb] - r->freed[0] >= r->nslots) return 1;   /* the ring is full */
    unsigned e = (unsigned)ty_bytes(st->elem);
    uint64_t rows = (uint64_t)st->dims[0], cols = (uint64_t)st->dims[1];
    uint64_t crows = rows * (sp == 1 ? 2 : 1), ccols = cols * (sp == 2 ? 2 : 1);   /* the consumer's tile */
    if (crows * ccols * e > r->slot_size) {
        sim_trap(x, in, DIAG_T_PIPE, "the consumer's entry (%" PRIu64 "x%" PRIu64 " elements) does not fit a %u-byte slot",
                 crows, ccols, r->slot_size);
        return -1;
    }
    uint64_t r0 = sp == 1 ? (uint64_t)s.vr * sb : 0, c0 = sp == 2 ? (uint64_t)s.vc * sb : 0;
    if (r->put[sb] >= r->nslots) sim_acquire(x, RC_CROSS, ring_key(cl, r, 3, 0));
    uint64_t dst = r->buf + (r->put[sb] % r->nslots) * r->slot_size;
    Core *aic = &cl->cores[0];
    /* the whole footprints first (bounds), then the exact rows for the checkers */
    int quiet = x->race_quiet;
    x->race_quiet = 1;
    const uint8_t *sp8 = sim_mem(x, in, AS_UB, s.addr, rows * cols * e, 32, ACC_READ, "source");
    uint8_t *dp8 = sp8 ? sim_mem_core(x, aic, in, AS_L1, dst, crows * ccols * e, 32, ACC_WRITE, "destination") : NULL;
    x->race_quiet = quiet;
    if (!dp8) return -1;
    int watch = cl->watch;
    for (uint64_t rr = 0; rr < s.vr; rr++)
        for (uint64_t cc = 0; cc < s.vc; cc++) {
            uint64_t so = tile_elem_off(st, rows, cols, e, rr, cc), d = tile_elem_off(st, crows, ccols, e, rr + r0, cc + c0);
            memcpy(dp8 + d * e, sp8 + so * e, e);
            if (watch) {
                sim_access(x, in, x->core, AS_UB, s.addr + so * e, e, ACC_READ);
                sim_access(x, in, aic, AS_L1, dst + d * e, e, ACC_WRITE);
            }
        }
    sim_transfer(x, AS_UB, AS_L1, (uint64_t)s.vr * s.vc * e);
    r->put[sb]++;
    r->ready[sb] = x->now + in->cost + x->extra_cost;
    r->last_push[sb] = in;
    sim_release(x, RC_CROSS, ring_key(cl, r, 2, sb));
    sim_signal(x->core, x->now);
    return 0;
}

/* ---------------------------------------------------------------- pops (scalar unit) */

static int p_pop(Exec *x, const Instr *in, const uint64_t *args)
{
    Cluster *cl = x->core->cl;
    int dir = in->kind == OP_TPOP_FROM_AIC ? TP_C2V : TP_V2C;
    TpRing *r = ring_of(x, in, dir);
    if (!r) return -1;
    int64_t sp = in->imm[TP_SPLIT];
    uint64_t filled, ready = 0, k;
    unsigned sb = 0;
    if (dir == TP_C2V) {
        if (check_part(x, in, sp) || check_sub(x, in, in->imm[TP_SUB] < 0 ? 0 : args[in->imm[TP_SUB]])) return -1;
        sb = (unsigned)x->core->subblock & 1u;
        filled = r->put[0];
        ready = r->ready[0];
        k = r->got[sb];
    } else {   /* an entry is filled when every AIV that takes part has pushed its part */
        unsigned pm = parts(x, sp);
        filled = UINT64_MAX;
        for (unsigned t = 0; t < 2; t++)
            if (pm >> t & 1u) {
                if (r->put[t] < filled) filled = r->put[t];
                if (r->ready[t] > ready) ready = r->ready[t];
            }
        k = r->got[0];
    }
    if (k >= filled) return 1;
    if (x->now < ready) {
        x->retry_at = ready;
        return 1;
    }
    TileRt t;
    t.addr = r->buf + (k % r->nslots) * r->slot_size;
    t.vr = (uint32_t)(in->imm[TP_VR] >= 0 ? args[in->imm[TP_VR]] : (uint64_t)in->imm[TP_RVR]);
    t.vc = (uint32_t)(in->imm[TP_VC] >= 0 ? args[in->imm[TP_VC]] : (uint64_t)in->imm[TP_RVC]);
    tile_put(x->frame + in->res[0], t);
    if (dir == TP_C2V) {
        r->got[sb]++;
        sim_acquire(x, RC_CROSS, ring_key(cl, r, 0, sb));
    } else {
        r->got[0]++;
        unsigned pm = parts(x, sp);
        for (unsigned u = 0; u < 2; u++)
            if (pm >> u & 1u) sim_acquire(x, RC_CROSS, ring_key(cl, r, 2, u));
    }
    return 0;
}

/* ---------------------------------------------------------------- frees (V on the AIV, MTE1 on the AIC) */

static int p_free(Exec *x, const Instr *in, const uint64_t *args)
{
    (void)args;
    Cluster *cl = x->core->cl;
    int dir = in->kind == OP_TFREE_FROM_AIC ? TP_C2V : TP_V2C;
    TpRing *r = ring_of(x, in, dir);
    if (!r) return -1;
    unsigned sb = 0;
    if (dir == TP_C2V) {
        if (check_part(x, in, in->imm[TP_SPLIT])) return -1;
        sb = (unsigned)x->core->subblock & 1u;
    }
    if (r->freed[sb] >= r->got[sb]) {
        sim_trap(x, in, DIAG_T_PIPE, "'%s' on pipe id %" PRId64 " (%s) frees no entry: every popped entry is already "
                 "freed (%" PRIu64 " popped)", op_info[in->kind].name, in->imm[TP_ID], dir_name(dir), r->got[sb]);
        return -1;
    }
    r->freed[sb]++;
    sim_release(x, RC_CROSS, ring_key(cl, r, dir == TP_C2V ? 1 : 3, sb));
    sim_signal(x->core, x->now);
    return 0;
}

/* ---------------------------------------------------------------- deadlocks */

static long explain(Cluster *cl, const Core *c, const Instr *in)
{
    DiagList *d = cl->sim->diags;
    int dir = in->kind == OP_TPOP_FROM_AIC || in->kind == OP_TPUSH_TO_AIV || in->kind == OP_TFREE_FROM_AIC ? TP_C2V : TP_V2C;
    TpRing *r = ring_find(cl, in->imm[TP_ID], dir, 0);
    const char *who = core_label(c->type, (unsigned)c->subblock, (unsigned)cl->ncores);
    SrcLoc loc = in->op ? in->op->loc : (SrcLoc){0, 0, 0};
    int push = in->kind == OP_TPUSH_TO_AIV || in->kind == OP_TPUSH_TO_AIC;
    if (!r) return -1;
    unsigned sb = (unsigned)c->subblock & 1u;
    long di;
    if (push) {
        uint64_t k = dir == TP_C2V ? r->put[0] : r->put[sb];
        di = diag_add(d, SEV_TRAP, DIAG_T_DEADLOCK, loc, "deadlock: %s waits in %s for a free slot of pipe id %d (%s): "
                      "all %u slots hold entries the consumer never frees (entry %" PRIu64 " needs entry %" PRIu64
                      " freed)", who, op_info[in->kind].name, r->id, dir_name(dir), r->nslots, k, k - r->nslots);
    } else {
        uint64_t k = dir == TP_C2V ? r->got[sb] : r->got[0];
        di = diag_add(d, SEV_TRAP, DIAG_T_DEADLOCK, loc, "deadlock: %s waits in %s for entry %" PRIu64 " of pipe id %d "
                      "(%s), which the producer never pushes (%" PRIu64 " pushed)", who, op_info[in->kind].name, k, r->id,
                      dir_name(dir), dir == TP_C2V ? r->put[0] : r->put[sb]);
    }
    if (di < 0) return di;
    const Instr *lp = r->last_push[dir == TP_C2V ? 0 : sb];
    if (!push && lp && lp->op) diag_note(d, di, lp->op->loc, "the last push of this pipe is here");
    int peer_cube = (dir == TP_C2V) != push;   /* the other end of a pop from the cube, of a push to the AIC */
    if (peer_cube ? !r->init_at[0] : !r->init_at[1] && !r->init_at[2])
        diag_note(d, di, loc, "the %s side never ran its initialize_pipe", peer_cube ? "cube" : "vector");
    return di;
}

static int is_pipe_op(unsigned k)
{
    return k == OP_TPOP_FROM_AIC || k == OP_TPOP_FROM_AIV || k == OP_TPUSH_TO_AIV || k == OP_TPUSH_TO_AIC;
}

long tile_pipe_explain_deadlock(Cluster *cl)
{
    if (!cl->tpipe) return -1;
    for (int i = 0; i < cl->ncores; i++) {
        const Core *c = &cl->cores[i];
        if (c->su_state == 1 && c->su_blocked_on && is_pipe_op(c->su_blocked_on->kind))
            return explain(cl, c, c->su_blocked_on);
        for (int p = 1; p < PQ__COUNT; p++) {
            const QEntry *q = sim_queue_head(c, p);
            if (q && is_pipe_op(q->in->kind)) return explain(cl, c, q->in);
        }
    }
    return -1;
}

/* ---------------------------------------------------------------- lowering */

static void foot_push(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    const Type *t = j->ty[0];
    TileRt s = tj_tile(j, args, 0);
    as_add(f, t->space, s.addr, s.addr + (uint64_t)t->dims[0] * (uint64_t)t->dims[1] * ty_bytes(t->elem), 0);
}

int tile_lower_pipe(LowerView *L, const Op *op, Instr *in)
{
    int k = op->kind;
    in->imm[TP_ID] = attr_i(op, "id", 0);
    in->imm[TP_SPLIT] = attr_i(op, "split", 0);
    in->imm[TP_SUB] = k == OP_TPUSH_TO_AIC || k == OP_TPOP_FROM_AIC ? lw_group_index(L, op, "sub", 0) : -1;
    in->cost = 1;
    if (k == OP_AIC_INITIALIZE_PIPE || k == OP_AIV_INITIALIZE_PIPE) {
        int64_t dm = attr_i(op, "dir_mask", 0), ns = attr_i(op, "slot_num", dm == 3 ? 4 : 8);
        int64_t sz = attr_i(op, "slot_size", 0);
        if (lw_group_index(L, op, "gmt", 0) >= 0 && lw_group_index(L, op, "c2v", 0) < 0) {
            lw_error(L, op, DIAG_T_UNSUPPORTED, "a global-only GM FIFO pipe (gm_slot_tensor without a consumer buffer) "
                     "is not simulated");
            return -1;
        }
        if (dm < 1 || dm > 3 || ns < 1 || sz < 1 || ns > (1 << 20) || sz > (1 << 30)) {
            lw_error(L, op, DIAG_T_PIPE, "'%s' needs dir_mask 1..3, slot_size > 0 and slot_num > 0", op_info[k].name);
            return -1;
        }
        in->imm[TP_DIR] = dm;
        in->imm[TP_SLOTSZ] = sz;
        in->imm[TP_NSLOTS] = ns;
        int c2 = lw_group_index(L, op, "c2v", 0), v2 = lw_group_index(L, op, "v2c", 0);
        in->imm[TP_C2VB] = c2 >= 0 ? in->arg[c2] : -1;
        in->imm[TP_V2CB] = v2 >= 0 ? in->arg[v2] : -1;
        in->fn = x_init;
        return 0;
    }
    if (k == OP_TPOP_FROM_AIC || k == OP_TPOP_FROM_AIV) {
        const Type *t = op->results[0]->type;
        if (t->kind != TY_TILE_BUF) {
            lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' of a global (tensor view) entry is not simulated", op_info[k].name);
            return -1;
        }
        in->imm[TP_VR] = lw_group_index(L, op, "vr", 0);
        in->imm[TP_VC] = lw_group_index(L, op, "vc", 0);
        in->imm[TP_RVR] = t->dims[2] >= 0 ? t->dims[2] : t->dims[0];
        in->imm[TP_RVC] = t->dims[3] >= 0 ? t->dims[3] : t->dims[1];
        in->pipe = PQ_S;
        in->pfn = p_pop;
        in->fn = sim_exec_now;
        return 0;
    }
    if (k == OP_SET_QUANT_SCALAR || k == OP_SET_QUANT_VECTOR) {
        if (!tile_job(L, op, in)) return -1;
        in->pipe = PQ_FIX;
        in->pfn = p_set_quant;
        return 0;
    }
    if (k == OP_TFREE_FROM_AIC || k == OP_TFREE_FROM_AIV) {
        in->pipe = k == OP_TFREE_FROM_AIC ? PQ_V : PQ_MTE1;
        in->pfn = p_free;
        in->foot = autosync_foot_all;   /* after every earlier read of the slot, whichever pipe made it */
        return 0;
    }
    if (k == OP_TPUSH_TO_AIV || k == OP_TPUSH_TO_AIC) {
        const Type *t = op->noperands ? op->operands[0]->type : NULL;
        if (!t || t->kind != TY_TILE_BUF) {
            lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' of a global (tensor view) entry is not simulated", op_info[k].name);
            return -1;
        }
        if (!tile_job(L, op, in)) return -1;
        in->foot = foot_push;
        if (k == OP_TPUSH_TO_AIC) {
            if (t->space != AS_UB) {
                lw_error(L, op, DIAG_T_UNSUPPORTED, "'pto.tpush_to_aic' pushes a vec tile");
                return -1;
            }
            in->pipe = PQ_MTE3;
            in->pfn = p_push_aic;
            return 0;
        }
        if (t->space != AS_L0C) {
            lw_error(L, op, DIAG_T_UNSUPPORTED, "'pto.tpush_to_aiv' of a %s tile is not simulated (an acc tile is)",
                     t->space == AS_UB ? "vec" : "non-acc");
            return -1;
        }
        const char *why = NULL;
        /* without an epilogue, the consumer's tile: row-major ND, the acc's element type (no conversion: TPush.hpp
           pushAcc2VecFiFo); with one, its layout, quant and relu into the consumer's element type */
        PushEpi e;
        const Type *dt = t->elem;
        int he = push_epilogue(L, op, &e, &dt);
        if (he < 0) return -1;
        int qf = he && e.quant == 2 ? qvec_payload(op, e.id) : -1;
        if (qf == -2 || qf == -3) {
            lw_error(L, op, DIAG_T_UNSUPPORTED, "'pto.tpush_to_aiv': the vector quant payload (the set_quant_vector "
                     "before this push) is neither a 64-bit integer nor an f16 / bf16 / f32 scaling tile");
            return -1;
        }
        FixExt *fe = cube_fix_plan(L, op, AS_UB, he ? e.layout : CUBE_FIX_ND, t->elem, dt, he && e.quant == 2, &why);
        if (!fe) return -1;
        if (he) {
            cube_fix_set_epilogue(fe, e.quant, qf, e.relu, &why);
            in->imm[TP_QUANT] = e.quant;
            in->imm[TP_DBYTES] = (int64_t)ty_bytes(dt);
        }
        if (why) {
            lw_error(L, op, DIAG_T_UNSUPPORTED, "'pto.tpush_to_aiv': %s", why);
            return -1;
        }
        int64_t sp = in->imm[TP_SPLIT];
        if (sp < 0 || sp > 2) {
            lw_error(L, op, DIAG_T_UNSUPPORTED, "split = %lld (an odd split) is simulated only for GM-backed pipes, which are "
                     "not simulated", (long long)sp);
            return -1;
        }
        cube_fix_set_split(fe, sp == 1 ? CUBE_SPLIT_M : sp == 2 ? CUBE_SPLIT_N : CUBE_SPLIT_NONE);
        in->ext2 = fe;
        in->pipe = PQ_FIX;
        in->pfn = p_push_aiv;
        return 0;
    }
    return 1;
}
