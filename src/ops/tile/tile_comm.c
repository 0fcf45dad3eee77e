/* tile_comm.c — the signal ops of the communication set that a one-rank launch can run: pto.comm.twait and
 * pto.comm.ttest, by the scalar unit on a view of i32 signals in this rank's GM (docs/semantics.md
 * "Communication ops"), and the asynchronous L2 prefetch (make_prefetch_async_context, get_prefetch_async_session,
 * tprefetch_async, comm.wait_async_event): no effect on any value, the event complete at once. The data-moving
 * comm ops and tnotify stay T-UNSUPPORTED (tile_view.c). */
#include "tile_int.h"
#include <inttypes.h>

enum { TC_CMP, TC_RANK, TC_ELEM };   /* Instr.imm: the comparison (WC_*), the view's rank, element bytes */
enum { WC_EQ, WC_NE, WC_GT, WC_GE, WC_LT, WC_LE };   /* PTOAS PTOAttrs.td WaitCmp, in its order */

static const char *const wc_name[] = { "eq", "ne", "gt", "ge", "lt", "le" };

/* The comparison of `cmp = #pto<wait_cmp ge>` (also a bare token or string): -1 when absent or unknown. */
static int wait_cmp(const Op *op)
{
    const Attr *a = op_attr(op, "cmp");
    if (!a) return -1;
    const char *s = a->s;
    if (!s) return -1;
    size_t n = strlen(s);
    while (n && (s[n - 1] == '>' || s[n - 1] == ' ' || s[n - 1] == '"')) n--;
    size_t b = n;
    while (b && ((s[b - 1] >= 'a' && s[b - 1] <= 'z') || (s[b - 1] >= 'A' && s[b - 1] <= 'Z'))) b--;
    for (int i = 0; i < 6; i++)
        if (n - b == 2 && (s[b] | 0x20) == wc_name[i][0] && (s[b + 1] | 0x20) == wc_name[i][1]) return i;
    return -1;
}

static int holds(int cmp, int64_t v, int64_t k)
{
    switch (cmp) {
    case WC_EQ: return v == k;
    case WC_NE: return v != k;
    case WC_GT: return v > k;
    case WC_GE: return v >= k;
    case WC_LT: return v < k;
    default: return v <= k;
    }
}

/* Whether every signal of the view satisfies the comparison: 1, 0, or -1 after a trap. *first gets the first
   element that does not (for the message). */
static int signals_hold(Exec *x, const Instr *in, int64_t *first)
{
    ViewRt v = view_get(FR(x, in->arg[0]));
    unsigned r = (unsigned)in->imm[TC_RANK], e = (unsigned)in->imm[TC_ELEM];
    int64_t k = (int64_t)(int32_t)ARG(x, in, 1);
    int cmp = (int)in->imm[TC_CMP];
    int64_t idx[TILE_MAX_RANK] = { 0 };
    for (unsigned i = 0; i < r; i++)
        if (v.shape[i] <= 0) return 1;   /* no signal: the condition holds for all of them */
    for (;;) {
        uint64_t a = v.addr;
        for (unsigned i = 0; i < r; i++) {
            int64_t off;
            a = __builtin_mul_overflow(idx[i], v.stride[i], &off) ? SIM_ADDR_WRAP : sim_index_addr(a, off, e);
        }
        const uint8_t *p = sim_mem(x, in, AS_GM, a, e, e, ACC_READ, "signal");
        if (!p) return -1;
        int64_t s;
        if (e == 4) { int32_t w; memcpy(&w, p, 4); s = w; }
        else if (e == 8) { memcpy(&s, p, 8); }
        else if (e == 2) { int16_t w; memcpy(&w, p, 2); s = w; }
        else s = (int8_t)p[0];
        if (!holds(cmp, s, k)) { *first = s; return 0; }
        unsigned i = r;
        while (i > 0) {
            i--;
            if (++idx[i] < v.shape[i]) break;
            idx[i] = 0;
            if (i == 0) return 1;
        }
        if (r == 0) return 1;
    }
}

/* twait: the signals are this rank's GM words that peer ranks raise with tnotify. A launch is one rank: when the
   condition does not hold, only a peer could make it hold, so the wait ends as if the peers had signalled
   (W-COMM-PEER, once per op; docs/semantics.md "Communication ops"). */
static const Instr *x_twait(Exec *x, const Instr *in)
{
    int64_t seen = 0;
    int h = signals_hold(x, in, &seen);
    if (h < 0) return NULL;
    if (!h)
        sim_warn_once(x, in, DIAG_T_COMM_PEER, "signal value %" PRId64 " does not satisfy '%s %" PRId64 "'; only a "
                      "peer rank could raise it and a ptosim launch is one rank: the wait ends as if it had", seen,
                      wc_name[in->imm[TC_CMP]], (int64_t)(int32_t)ARG(x, in, 1));
    return in + 1;
}

/* ttest: whether the signals satisfy the comparison now (no waiting). */
static const Instr *x_ttest(Exec *x, const Instr *in)
{
    int64_t seen = 0;
    int h = signals_hold(x, in, &seen);
    if (h < 0) return NULL;
    fr_set_u64(x, in->res[0], (uint64_t)h);
    return in + 1;
}

/* make_prefetch_async_context / get_prefetch_async_session: the handle is the workspace pointer, passed on. */
static const Instr *x_pass(Exec *x, const Instr *in)
{
    fr_set_u64(x, in->res[0], ARG(x, in, 0));
    return in + 1;
}

/* tprefetch_async: a hint to the L2 cache, which ptosim does not model; the event handle is 1 (complete). */
static const Instr *x_prefetch(Exec *x, const Instr *in)
{
    fr_set_u64(x, in->res[0], 1);
    return in + 1;
}

/* comm.wait_async_event, comm.test_async_event: the event is complete (every asynchronous operation ptosim runs is,
   the moment it starts): true. */
static const Instr *x_wait_event(Exec *x, const Instr *in)
{
    fr_set_u64(x, in->res[0], 1);
    return in + 1;
}

int tile_lower_comm(LowerView *L, const Op *op, Instr *in)
{
    in->cost = 1;
    switch (op->kind) {
    case OP_MAKE_PREFETCH_ASYNC_CONTEXT: case OP_GET_PREFETCH_ASYNC_SESSION: in->fn = x_pass; return 0;
    case OP_TPREFETCH_ASYNC: in->fn = x_prefetch; return 0;
    case OP_COMM_WAIT_ASYNC_EVENT: case OP_COMM_TEST_ASYNC_EVENT: in->fn = x_wait_event; return 0;
    default: break;
    }
    const Type *t = op->operands[0]->type;
    int cmp = wait_cmp(op);
    if (cmp < 0) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' needs cmp = #pto<wait_cmp eq|ne|gt|ge|lt|le>",
                 op_info[op->kind].name);
        return -1;
    }
    if (!ty_is_view(t) || !t->elem || t->elem->kind != TY_INT) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' needs a view of integer signals", op_info[op->kind].name);
        return -1;
    }
    in->imm[TC_CMP] = cmp;
    in->imm[TC_RANK] = t->rank;
    in->imm[TC_ELEM] = (t->elem->bits + 7) / 8;
    in->fn = op->kind == OP_COMM_TWAIT ? x_twait : x_ttest;
    return 0;
}
