/* syncall.c — pto.syncall, the barrier of every participating core of the launch (pto-isa SYNCALL; docs/semantics.md
 * "pto.syncall").
 *
 * A participating core drains its pipes (the barrier's PIPE_ALL), arrives, and waits until the round it arrived in
 * is complete: `before` is the arrival count it found, the round ends at (before / P + 1) * P arrivals, P the
 * participants (used_cores, else the count the library derives from the launch). A soft barrier counts in the first
 * i32 of its GM workspace, as the library's atomic add does (the word holds rounds x P afterwards); a hard one in
 * the launch's GridSync. The cores of other kinds than core_type names run the op as a no-op, as the library's
 * per-core compilation does. Blocks cannot finish one after another around such a barrier, so a launch whose
 * program has one runs its blocks side by side (api/blocks.c run_cohort): a waiting core parks its cluster
 * (SIM_PARKED) and the launch runs the other blocks; when it comes back the op finds its round complete and leaves
 * at the round's latest arrival. A round that can never complete is a deadlock the launch reports. */
#include "sync.h"
#include "base/bits.h"
#include "exec/race.h"
#include <inttypes.h>
#include <stdio.h>

enum { SA_MODE, SA_CORE, SA_GM, SA_USED, SA_UW };   /* Instr.imm: tokens, operand indices (-1: absent), used's width */

/* Does core c take part in a barrier of core set `set` (0 AIV, 1 AIC, 2 both)? */
static int takes_part(const Core *c, int set) { return set == 2 || (set == 0) == (c->type == CORE_AIV); }

/* Participants when used_cores is absent or 0: a hard barrier counts the launch's cores of its set; a soft one
   what the library derives, get_block_num() for aiv_only and aic_only and blocks x (1 + AIVs per AIC) for mix. */
static int64_t default_participants(const Core *c, int soft, int set)
{
    const Cluster *cl = c->cl;
    int64_t blocks = c->sim->blocks ? c->sim->blocks : 1, n = 0;
    if (soft) return set == 2 ? blocks * cl->ncores : blocks;
    for (int i = 0; i < cl->ncores; i++) n += takes_part(&cl->cores[i], set);
    return blocks * n;
}

static GridBar *bar_of(GridSync *g, uint64_t key)
{
    for (unsigned i = 0; i < g->nbar; i++)
        if (g->bar[i].key == key) return &g->bar[i];
    if (g->nbar == GRID_MAX_BARS) return NULL;
    GridBar *b = &g->bar[g->nbar++];
    memset(b, 0, sizeof *b);
    b->key = key;
    return b;
}

/* The soft barrier's counter: the first i32 of the workspace, read and written as the library's atomics do. */
static int32_t *soft_word(Exec *x, const Instr *in)
{
    uint64_t a = ARG(x, in, (unsigned)in->imm[SA_GM]);
    return (int32_t *)(void *)sim_mem(x, in, AS_GM, a, 4, 4, ACC_ATOMIC, "gm_workspace");
}

static const Instr *x_syncall(Exec *x, const Instr *in)
{
    Core *c = x->core;
    int soft = in->imm[SA_MODE] == T_SYNCMODE_SOFT, set = (int)in->imm[SA_CORE];
    if (!takes_part(c, set)) return in + 1;
    GridSync *g = c->sim->grid;
    if (!c->grid_wait) {
        if (sim_drain_all(x)) return SIM_BLOCKED;   /* the barrier's PIPE_ALL: every queue of the core drains first */
        int64_t n = 0;
        if (in->imm[SA_USED] >= 0) n = bits_sext(ARG(x, in, (unsigned)in->imm[SA_USED]), (unsigned)in->imm[SA_UW]);
        if (n < 0) {
            sim_trap(x, in, DIAG_T_FIELD, "used_cores of 'pto.syncall' is %" PRId64 "; it counts the cores that take part", n);
            return NULL;
        }
        if (!n) n = default_participants(c, soft, set);
        if (!g || !n) {   /* a launch without side-by-side blocks never reaches here (the program has no syncall) */
            sim_trap(x, in, DIAG_T_UNSUPPORTED, "'pto.syncall' has no participants to wait for");
            return NULL;
        }
        uint64_t key = soft ? ARG(x, in, (unsigned)in->imm[SA_GM]) : (uint64_t)(1 + set);
        GridBar *b = bar_of(g, key);
        if (!b) {
            sim_trap(x, in, DIAG_T_UNSUPPORTED, "more than %d distinct 'pto.syncall' barriers in one launch", GRID_MAX_BARS);
            return NULL;
        }
        int64_t before;
        if (soft) {
            int32_t *w = soft_word(x, in), v;
            if (!w) return NULL;
            memcpy(&v, w, 4);
            before = v;
            int32_t nv = (int32_t)(uint32_t)((uint32_t)v + 1u);   /* the atomic add wraps as the device's does */
            memcpy(w, &nv, 4);
        } else {
            before = b->count++;
        }
        int64_t round = before >= 0 ? before / n : -1 - (-1 - before) / n;   /* floor division */
        uint64_t *rt = &b->round_t[(uint64_t)round % GRID_ROUNDS];
        if (before - round * n == 0 || *rt < c->su_t) *rt = c->su_t;   /* the round's latest arrival */
        c->grid_round = round;
        c->grid_target = (round + 1) * n;
        c->grid_bar = (uint8_t)(b - g->bar);
        c->grid_wait = 1;
        c->grid_at = in;
        g->progress++;
        race_release(x, RC_GRID, 0);
    }
    GridBar *b = &g->bar[c->grid_bar];
    int64_t now = b->count;
    if (soft) {
        int32_t *w = soft_word(x, in), v;
        if (!w) return NULL;
        memcpy(&v, w, 4);
        now = v;
    }
    if (now < c->grid_target) return SIM_BLOCKED;   /* parked: the launch runs the other blocks */
    /* the round is complete: leave when its last participant arrived */
    uint64_t rel = b->round_t[(uint64_t)c->grid_round % GRID_ROUNDS];
    if (rel > c->su_t) c->su_t = rel;
    c->grid_wait = 0;
    c->grid_epoch++;
    g->progress++;
    race_acquire(x, RC_GRID, 0);
    return in + 1;
}

int syncall_lower(LowerView *L, const Op *op, Instr *in)
{
    in->imm[SA_MODE] = op_token_id(op, "mode");
    in->imm[SA_CORE] = tok_ordinal(op_token_id(op, "core_type"));
    in->imm[SA_GM] = lw_group_index(L, op, "gm", 0);
    in->imm[SA_USED] = lw_group_index(L, op, "used", 0);
    const Type *t = in->imm[SA_USED] >= 0 ? op->operands[in->imm[SA_USED]]->type : NULL;
    in->imm[SA_UW] = t && ty_is_intlike(t) ? ty_bits(t) : 64;
    in->fn = x_syncall;
    in->pipe = PQ_S;
    L->prog->uses_syncall = true;
    return 0;
}

/* What a core waiting at a barrier waits for (deadlock reports): "round R of the barrier: A of P arrived". */
void syncall_describe(const Core *c, char *buf, size_t n)
{
    const GridSync *g = c->sim->grid;
    if (!g || !(c->grid_wait || c->grid_pipe_wait) || c->grid_bar >= g->nbar) {
        snprintf(buf, n, "every participant of the launch");
        return;
    }
    if (c->grid_pipe_wait)
        snprintf(buf, n, "raise %" PRId64 " of its cross-block flag (%" PRId64 " sets by the %s cores raise it)",
                 c->grid_round, c->grid_target, c->type == CORE_AIC ? "AIC" : "AIV");
    else
        snprintf(buf, n, "round %" PRId64 " of the barrier (%" PRId64 " arrivals release it)", c->grid_round, c->grid_target);
}

/* ------------------------------------------------------------------ cross-block flags (ffts_mode 0) */

/* sync.set / set_cross_block with ffts_mode 0 on pipe P: the FFTS counts the sets of flag f made by the cores of
   one kind (AIC or AIV) of the launch; every N of them (N = that kind's cores) raise f on each of those cores,
   whose wait (sync.wait / wait_cross_block, mode 0) consumes one raise (pto-isa SyncAll.hpp: the hard SYNCALL is
   such a set and wait on every core of the kind). The flag is the op's id, 0..15. */
static int xblock_flag(Exec *x, const Instr *in, const uint64_t *args, int64_t *f)
{
    *f = in->imm[SA_GM] >= 0 ? in->imm[SA_GM] : bits_sext(args[0], (unsigned)in->imm[SA_UW]);
    if (*f < 0 || *f > 15) {
        sim_trap(x, in, DIAG_T_FIELD, "cross-block flag id %" PRId64 " is outside 0..15", *f);
        return -1;
    }
    if (!x->core->sim->grid) {
        sim_trap(x, in, DIAG_T_UNSUPPORTED, "a cross-block flag needs the launch's blocks side by side");
        return -1;
    }
    return 0;
}

static GridBar *xblock_bar(Exec *x, int64_t f)
{
    return bar_of(x->core->sim->grid, 0x100u + (uint64_t)x->core->type * 16u + (uint64_t)f);
}

static int64_t xblock_cores(const Core *c)
{
    int64_t n = 0;
    for (int i = 0; i < c->cl->ncores; i++) n += c->cl->cores[i].type == c->type;
    return n * (c->sim->blocks ? c->sim->blocks : 1);
}

static int xblock_set(Exec *x, const Instr *in, const uint64_t *args)
{
    int64_t f;
    if (xblock_flag(x, in, args, &f)) return -1;
    GridBar *b = xblock_bar(x, f);
    if (!b) {
        sim_trap(x, in, DIAG_T_UNSUPPORTED, "more than %d distinct launch-wide barriers and flags", GRID_MAX_BARS);
        return -1;
    }
    int64_t n = xblock_cores(x->core), before = b->count++, round = before / n;
    uint64_t done = x->now + in->cost, *rt = &b->round_t[(uint64_t)round % GRID_ROUNDS];
    if (before % n == 0 || *rt < done) *rt = done;   /* the round's latest set raises the flag */
    x->core->sim->grid->progress++;
    race_release(x, RC_GRID, (unsigned)(1 + f));
    return 0;
}

static int xblock_wait(Exec *x, const Instr *in, const uint64_t *args)
{
    int64_t f;
    if (xblock_flag(x, in, args, &f)) return -1;
    Core *c = x->core;
    GridBar *b = xblock_bar(x, f);
    if (!b) {
        sim_trap(x, in, DIAG_T_UNSUPPORTED, "more than %d distinct launch-wide barriers and flags", GRID_MAX_BARS);
        return -1;
    }
    int64_t n = xblock_cores(c), k = c->xblock_waits[f];
    if (b->count / n <= k) {   /* not raised yet: the launch runs the other blocks */
        c->grid_pipe_wait = 1;
        c->grid_at = in;
        c->grid_round = k;
        c->grid_target = (k + 1) * n;
        c->grid_bar = (uint8_t)(b - c->sim->grid->bar);
        return 1;
    }
    uint64_t ready = b->round_t[(uint64_t)k % GRID_ROUNDS];
    if (x->now < ready) {
        x->retry_at = ready;
        return 1;
    }
    c->grid_pipe_wait = 0;
    c->xblock_waits[f]++;
    c->grid_epoch++;
    c->sim->grid->progress++;
    race_acquire(x, RC_GRID, (unsigned)(1 + f));
    return 0;
}

/* Lowers sync.set/sync.wait with ffts_mode 0 and set_cross_block/wait_cross_block: the flag is the literal id or
   operand 0 (a run-time id). */
int xblock_lower(LowerView *L, const Op *op, Instr *in, int set)
{
    const Attr *id = op_attr(op, "id");
    in->imm[SA_GM] = id ? id->i : -1;
    const Type *t = op->noperands && op->operands[0] ? op->operands[0]->type : NULL;
    in->imm[SA_UW] = t && ty_is_intlike(t) && ty_signed(t) ? ty_bits(t) : 64;
    in->pfn = set ? xblock_set : xblock_wait;
    L->prog->uses_syncall = true;
    return 0;
}
