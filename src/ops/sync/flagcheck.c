/* flagcheck.c — synchronisation checks that do not depend on the schedule simulated (issue 29).
 *
 * The race detector's vector clocks (exec/race.c) say whether one executed op happens before another. The
 * n-th set of a flag (or semaphore) pairs with its n-th wait: sets of one flag run on one agent (its set
 * pipe) and waits of one flag key (src, dst, event) on one agent (its wait pipe), both in program order,
 * so the pairing is the program's, not the schedule's. On it:
 *  - rule A (W-FLAG-ALIAS, W-SEM-DEPTH): set n must happen after wait n - depth (depth 1 for a one-bit flag,
 *    15 for a 4-bit counter), else on some schedule the set finds the flag still set (lost) or the counter
 *    full (overflow). When the wait has not run yet when the set runs, the check is completed when it runs
 *    (a wait that runs after a set cannot happen before it), so the report is the same whichever ran first;
 *  - W-FLAG-SHARED: a set from pipe P with event e for destination D2 while the last set of (P, D1, e) is
 *    still live (its wait does not happen before this set): one bit on a target keying flags by (set pipe,
 *    event);
 *  - rule B (W-FLAG-CROSS, (set pipe, event) key only): two waits on different pipes for the same
 *    (set pipe, event) must be ordered, else which one takes a set depends on timing. Reported at the wait
 *    later in the source, with a note at the other.
 * Reports are located at the op a fix belongs to, carry the same notes whatever ran first, and are given
 * once per op. Without the race detector (--no-race) the checks are off. */
#include "sync.h"
#include "exec/race.h"
#include "isa/ctx.h"
#include <stdio.h>

enum { FC_FLAG, FC_GROUP, FC_SEM, FC_CROSS };

static uint32_t fc_key(int tag, int core, int src, int dst, int e)
{
    return (uint32_t)tag << 28 | (uint32_t)core << 24 | (uint32_t)src << 16 | (uint32_t)dst << 8 | (uint32_t)e;
}

static FcRec *rec(Cluster *cl, uint32_t key)
{
    SyncClusterState *s = cl->sync;
    for (uint32_t i = 0; i < s->nfc; i++)
        if (s->fc[i].key == key) return &s->fc[i];
    if (s->nfc == FC_RECS) return NULL;   /* more live keys than the table holds: those go unchecked */
    FcRec *r = &s->fc[s->nfc++];
    memset(r, 0, sizeof *r);
    r->key = key;
    return r;
}

/* The stamp of the op running on x: its agent and the agent's clock now. 0 when the detector is off. */
static int stamp(Exec *x, const Instr *in, FcStamp *st)
{
    uint32_t a, c;
    if (!race_stamp(x, &a, &c)) return 0;
    *st = (FcStamp){in, c, (uint16_t)a, (uint8_t)x->core->index, 1};
    return 1;
}

/* Does the op stamped w happen before what x's agent does now? */
static int before(Exec *x, const FcStamp *w)
{
    uint32_t a, c;
    if (!race_stamp(x, &a, &c)) return 1;
    return w->agent == a || race_knows(x, w->agent) >= w->clock;
}

static SrcLoc loc(const Instr *in) { return in && in->op ? in->op->loc : (SrcLoc){0, 0, 0}; }

/* A warning at the op stamped `at`, described as from its core, with notes; once per op. */
static long warn_at(Exec *x, const FcStamp *at, DiagId id, const char *msg)
{
    Exec t = {0};
    t.core = &x->core->cl->cores[at->core];
    t.pipe = x->pipe;
    return sim_warn_once_at(&t, at->in, id, "%s", msg);
}

static void describe(const Instr *in, int e, char *b, size_t n)
{
    if (in->kind == OP_SET_FLAG || in->kind == OP_SET_FLAG_DYN || in->kind == OP_WAIT_FLAG || in->kind == OP_WAIT_FLAG_DYN)
        snprintf(b, n, "flag %s -> %s, event %d", pq_name((unsigned)in->imm[0]), pq_name((unsigned)in->imm[1]), e);
    else if (in->kind == OP_SET_CROSS_CORE || in->kind == OP_WAIT_FLAG_DEV)
        snprintf(b, n, "cross-core event %d to AIV%d", e % 16, e / 16);
    else snprintf(b, n, "intra-block semaphore %d", e);
}

/* Rule A's report at set `s`, whose pair `w` (the wait of the set `depth` before it, `prev`) does not
   happen before it. */
static void report_a(Exec *x, const FcStamp *s, const FcStamp *prev, const FcStamp *w, int depth, int e)
{
    char what[96], msg[400];
    describe(s->in, e, what, sizeof what);
    if (depth == 1)
        snprintf(msg, sizeof msg, "this set of %s may be lost: nothing orders it after the wait that consumes the "
                 "previous set, so on some timing it runs while the flag (one bit) is still set", what);
    else
        snprintf(msg, sizeof msg, "%s may be set %d times before it is waited: nothing orders this set after the wait "
                 "that consumes the set %d before it, so on some timing its 4-bit counter overflows (T-SEM-OVERFLOW)",
                 what, depth + 1, depth);
    long d = warn_at(x, s, depth == 1 ? DIAG_T_FLAG_ALIAS : DIAG_T_SEM_DEPTH, msg);
    if (d < 0) return;
    DiagList *dl = x->core->sim->diags;
    if (prev && prev->ok && prev->in)
        diag_note(dl, d, loc(prev->in), depth == 1 ? "the previous set of this flag is here" : "the set %d before it is here", depth);
    if (w && w->ok && w->in)
        diag_note(dl, d, loc(w->in), "it is consumed by this wait, which does not happen before the set; %s",
                  depth == 1 ? "add a flag from this wait's pipe back to the set's pipe"
                             : "signal the setter from after this wait before that set");
}

/* A set of counter `key` with the given depth (1: a one-bit flag). */
static void rule_a_set(Exec *x, const Instr *in, uint32_t key, int depth, int e)
{
    FcStamp me;
    if (!stamp(x, in, &me)) return;
    FcRec *r = rec(x->core->cl, key);
    if (!r) return;
    uint32_t n = r->nset++;
    r->set[n % FC_RING] = me;
    if (n < (uint32_t)depth) return;
    uint32_t m = n - (uint32_t)depth;
    if (m >= r->nwait) return;                     /* its wait has not run: checked when it does */
    if (r->nwait - m > FC_RING) return;            /* too long ago to be held: it happened before */
    const FcStamp *w = &r->wait[m % FC_RING];
    if (before(x, w)) return;
    report_a(x, &me, &r->set[m % FC_RING], w, depth, e);
}

static void rule_a_wait(Exec *x, const Instr *in, uint32_t key, int depth, int e)
{
    FcStamp me;
    if (!stamp(x, in, &me)) return;
    FcRec *r = rec(x->core->cl, key);
    if (!r) return;
    uint32_t m = r->nwait++;
    r->wait[m % FC_RING] = me;
    uint32_t n = m + (uint32_t)depth;              /* the set this wait must happen before */
    if (n >= r->nset || r->nset - m > FC_RING) return;
    /* set n ran before this wait: the wait cannot happen before it */
    report_a(x, &r->set[n % FC_RING], &r->set[m % FC_RING], &me, depth, e);
}

void fc_flag_set(Exec *x, const Instr *in, int src, int dst, int e, int pipe_key)
{
    int core = x->core->index;
    rule_a_set(x, in, fc_key(FC_FLAG, core, src, dst, e), 1, e);
    /* W-FLAG-SHARED: another destination's last set of (src, e) still live */
    if (!diag_warn_enabled(&x->core->sim->ctx->diags, DIAG_T_FLAG_SHARED, pipe_key)) return;
    FcStamp me;
    if (!stamp(x, in, &me)) return;
    SyncClusterState *s = x->core->cl->sync;
    for (uint32_t i = 0; i < s->nfc; i++) {
        const FcRec *r = &s->fc[i];
        if (r->key >> 24 != ((uint32_t)FC_FLAG << 4 | (uint32_t)core) || (int)(r->key >> 16 & 0xFF) != src ||
            (int)(r->key & 0xFF) != e || (int)(r->key >> 8 & 0xFF) == dst || !r->nset)
            continue;
        uint32_t m = r->nset - 1;
        if (m < r->nwait && r->nwait - m <= FC_RING && before(x, &r->wait[m % FC_RING])) continue;
        char msg[400];
        snprintf(msg, sizeof msg, "%s sets event %d for %s while its set of event %d for %s is still live (its wait "
                 "does not happen before this set): where a flag is one bit per (set pipe, event) (a2a3) one of the two "
                 "sets is lost or taken by the wrong pipe; give each destination its own event", pq_name((unsigned)src),
                 e, pq_name((unsigned)dst), e, pq_name((unsigned)(r->key >> 8 & 0xFF)));
        long d = warn_at(x, &me, DIAG_T_FLAG_SHARED, msg);
        if (d >= 0 && r->set[m % FC_RING].in)
            diag_note(x->core->sim->diags, d, loc(r->set[m % FC_RING].in), "the set for %s is here",
                      pq_name((unsigned)(r->key >> 8 & 0xFF)));
        return;
    }
}

static int later_in_source(const Instr *a, const Instr *b)
{
    SrcLoc la = loc(a), lb = loc(b);
    return la.line != lb.line ? la.line > lb.line : la.col > lb.col;
}

void fc_flag_wait(Exec *x, const Instr *in, int src, int dst, int e, int pipe_key)
{
    int core = x->core->index;
    rule_a_wait(x, in, fc_key(FC_FLAG, core, src, dst, e), 1, e);
    if (!pipe_key) return;
    /* rule B: the waits of one (set pipe, event) on different pipes must be ordered */
    FcStamp me;
    if (!stamp(x, in, &me)) return;
    FcRec *g = rec(x->core->cl, fc_key(FC_GROUP, core, src, 0, e));
    if (!g) return;
    for (int p = 0; p < PQ__COUNT; p++) {
        const FcStamp *o = &g->wait[p];
        if (p == (int)x->pipe || !o->ok || before(x, o)) continue;
        const FcStamp *at = later_in_source(in, o->in) ? &me : o, *other = at == &me ? o : &me;
        char msg[400], wa[96], wb[96];
        describe(at->in, e, wa, sizeof wa);
        describe(other->in, e, wb, sizeof wb);
        snprintf(msg, sizeof msg, "this wait for %s and the wait for %s are not ordered, and a flag is one bit per (set "
                 "pipe, event): which of them takes a set depends on timing; give each destination its own event",
                 wa, wb);
        long d = warn_at(x, at, DIAG_T_FLAG_CROSS, msg);
        if (d >= 0) diag_note(x->core->sim->diags, d, loc(other->in), "the other wait is here");
    }
    g->wait[x->pipe] = me;
}

void fc_sem_set(Exec *x, const Instr *in, int tag_cross, unsigned k)
{
    rule_a_set(x, in, fc_key(tag_cross ? FC_CROSS : FC_SEM, 0, 0, 0, (int)k), 15, (int)k);
}

void fc_sem_wait(Exec *x, const Instr *in, int tag_cross, unsigned k)
{
    rule_a_wait(x, in, fc_key(tag_cross ? FC_CROSS : FC_SEM, 0, 0, 0, (int)k), 15, (int)k);
}
