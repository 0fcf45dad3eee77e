/* vec_fuse.c — the fused fast path of the vector family: after a function is lowered, vec_fuse finds each
 * `vlds [vlds] OP vsts` group of NORM copies and an unmasked fast compute handler whose registers nothing else
 * uses, and makes its first load one handler (x_fused) that computes from UB into UB, doing for every
 * instruction exactly what the interpreter would (docs/internals.md, "Fused groups"). */
#include "vec_ls_int.h"
#include "exec/check.h"
#include "exec/interp.h"
#include "exec/observe.h"

/* The common element-wise step `vlds a; [vlds b;] r = a OP b (or a OP s); vsts r` (NORM copies, an unmasked
   fast compute handler, loaded values and r used by nothing else) runs as one handler on the first load: it
   computes from UB into UB without the three 256-byte register copies, and does for the group exactly what
   the separate handlers do (counts, cycles, steps). When any of the fast conditions fails (an address out of
   the fast range or misaligned, a checker watching, a store mask not full, the store overlapping a source
   other than exactly, too few steps left) it runs the first load's checked path and the group continues one
   instruction at a time. */
typedef struct FuseX {
    ValuCore core;
    uint8_t n;          /* instructions in the group: loads, compute, store */
    uint8_t a_ld, b_ld; /* which load (0, 1) feeds the compute's a and b */
    uint8_t loop;       /* the group is the whole body of a 64-bit scf.for: its step follows and jumps back */
    uint8_t stride;     /* with `loop`: every member's offset is the loop's 64-bit induction variable with one
                           shift, and the scalar operand is not: the addresses move by step << shift a trip */
    int32_t s;          /* frame offset of the scalar operand, -1 for vector-vector */
} FuseX;

static inline int fuse_addr(const Exec *x, const Instr *in, uint64_t lim, uint64_t *a)
{
    *a = fast_ea(x, in);
    return !(*a & (uint64_t)in->imm[VN_ALIGN_M1]) && *a < lim;
}

static inline int apart(uint64_t d, uint64_t s) { return d == s || d + 256 <= s || s + 256 <= d; }

/* Whether the group at `in` can run fused now; its load and store addresses in la[] and *sa. */
/* The fused group's range check is that of the checked paths (a 256-byte access inside UB), also while a
   checker watches: the group then reports its three accesses itself (fuse_watch). */
static inline int fuse_addrs(const Exec *x, const Instr *in, unsigned n, uint64_t la[2], uint64_t *sa)
{
    const Instr *st = in + n - 1;
    uint64_t sz = x->core->memsz[AS_UB], lim = sz >= 256 ? sz - 255 : 0;
    return fuse_addr(x, in, lim, &la[0]) && (n == 3 || fuse_addr(x, in + 1, lim, &la[1])) &&
           fuse_addr(x, st, lim, sa) && apart(*sa, la[0]) && apart(*sa, la[1]);
}

static inline int fuse_ready(const Exec *x, const Instr *in, unsigned n, uint64_t la[2], uint64_t *sa)
{
    const Instr *st = in + n - 1;
    return x->left >= n && fuse_addrs(x, in, n, la, sa) &&
           (st->imm[VN_MASK] < 0 || mask_full(FR(x, (int32_t)st->imm[VN_MASK]), (uint64_t)st->imm[VN_MASK_PAT]));
}

/* A loop whose body is one group runs here until it ends or a fast condition fails: each further trip
   does what the interpreter's loop would (the step's and the group's cycles and steps, the induction
   variable), and a trip that cannot run fused goes back to the interpreter at the group's first load. */
/* What the checked paths report for the group's accesses, in their order: the loads, then the store (for
   UB: the race detector and initcheck). The race detector keeps, per vector-scope job, only the union of
   each op's ranges by kind (race.c), so the streams' ranges are gathered over the trips while they stay
   contiguous and handed over in one call each. Initcheck sees every access in order (a later trip may
   read what an earlier one wrote): the bits are tested and set here, and only a read that meets an
   unwritten byte goes to check_access for its report; a load that has reported (once per op) needs no
   further test. */
typedef struct FuseWatch {
    uint64_t lo[3], hi[3];
    uint8_t on[3];             /* race spans of load 0, load 1, the store */
    uint8_t race;
    uint8_t quiet[2];          /* load j: 0 tested here, 1 nothing to test (reported, or no initcheck), 2 to check_access */
    uint8_t *init;             /* initcheck's bits of this core's UB, or NULL */
} FuseWatch;

static void fuse_watch_begin(Exec *x, const Instr *in, FuseWatch *w)
{
    Core *c = x->core;
    uint64_t sz = 0;
    memset(w, 0, sizeof *w);
    w->race = c->cl->race && !x->race_quiet;
    w->init = check_init_bits(x, c, AS_UB, &sz);
    if (w->init && sz < c->memsz[AS_UB]) w->init = NULL;   /* not this core's UB: let check_access decide */
    for (unsigned j = 0; j < 2; j++)
        w->quiet[j] = w->init ? (uint8_t)sim_warned(x, in + j, DIAG_T_UNINIT) : c->sim->checks ? 2 : 1;
}

static inline int bits_all256(const uint8_t *b, uint64_t a)
{
    uint64_t w[4];
    memcpy(w, b + (a >> 3), 32);
    return (w[0] & w[1] & w[2] & w[3]) == ~0ull;
}

static inline void fuse_race_span(Exec *x, const Instr *op, FuseWatch *w, unsigned j, uint64_t a)
{
    if (w->on[j] && a <= w->hi[j] && a + 256 >= w->lo[j]) {
        if (a < w->lo[j]) w->lo[j] = a;
        if (a + 256 > w->hi[j]) w->hi[j] = a + 256;
        return;
    }
    if (w->on[j]) race_access(x, op, x->core, AS_UB, w->lo[j], w->hi[j] - w->lo[j], j == 2);   /* a jump */
    w->lo[j] = a;
    w->hi[j] = a + 256;
    w->on[j] = 1;
}

static void fuse_watch_end(Exec *x, const Instr *in, unsigned n, FuseWatch *w)
{
    for (unsigned j = 0; j < 3; j++)
        if (w->on[j]) race_access(x, j == 2 ? in + n - 1 : in + j, x->core, AS_UB, w->lo[j], w->hi[j] - w->lo[j], j == 2);
}

static inline __attribute__((always_inline)) void fuse_watch(Exec *x, const Instr *in, unsigned n, const uint64_t la[2],
                                                            uint64_t sa, FuseWatch *w, const int spans)
{
    Core *c = x->core;
    const Instr *st = in + n - 1;
    if (spans && w->race) {
        fuse_race_span(x, in, w, 0, la[0]);
        if (n == 4) fuse_race_span(x, in + 1, w, 1, la[1]);
        fuse_race_span(x, st, w, 2, sa);
    }
    for (unsigned j = 0; j < n - 2u; j++) {
        if (w->quiet[j] == 1) continue;
        if (w->quiet[j] == 0 && !(la[j] & 7) && bits_all256(w->init, la[j])) continue;
        check_access(x, in + j, c, AS_UB, la[j], 256, ACC_READ);
        if (w->quiet[j] == 0) w->quiet[j] = (uint8_t)sim_warned(x, in + j, DIAG_T_UNINIT);
    }
    if (w->init && !(sa & 7)) {
        static const uint64_t ones[4] = {~0ull, ~0ull, ~0ull, ~0ull};
        memcpy(w->init + (sa >> 3), ones, 32);
    } else if (c->sim->checks) {
        check_access(x, st, c, AS_UB, sa, 256, ACC_WRITE);
    }
}

/* A strided loop's race ranges, handed over once it has run: T trips from the first addresses a0[], d apart
   (contiguous when d <= 256: one range per stream). */
static void fuse_race_strided(Exec *x, const Instr *in, unsigned n, const uint64_t a0[3], uint64_t d, uint64_t T)
{
    for (unsigned j = 0; j < 3; j++) {
        if (j == 1 && n == 3) continue;
        const Instr *op = j == 2 ? in + n - 1 : in + j;
        if (d <= 256) race_access(x, op, x->core, AS_UB, a0[j], (T - 1) * d + 256, j == 2);
        else for (uint64_t t = 0; t < T; t++) race_access(x, op, x->core, AS_UB, a0[j] + t * d, 256, j == 2);
    }
}

/* Cycles of instructions this handler does beyond the one dispatched: to the op, and with the profile on
   to each instruction (the interpreter's loop credits only what it dispatches). */
static inline void fuse_credit(Exec *x, const Instr *from, unsigned k)
{
    for (unsigned i = 0; i < k; i++) {
        x->extra_cost += from[i].cost;
        if (__builtin_expect(x->prof != NULL, 0)) {
            obs_profile(x->prof, from + i, from[i].cost, 1);
            x->attributed += from[i].cost;
        }
    }
}

/* x_fused's loop: the trips with the counters kept in locals and added once at the end (T groups, S steps,
   T - 1 first loads dispatched again; with the profile on, credited to each instruction the same way).
   `watch`: the checkers see every trip. `strided`: the addresses move by d a trip (FuseX.stride, d aligned
   for every member), so alignment and the distances between them hold on every trip and only the range
   is checked (an address that wraps below 0 fails it too); else they are computed from the frame again.
   The flags are constants in each of the four instances. */
static inline __attribute__((always_inline)) const Instr *fused_trips(Exec *x, const Instr *in, const FuseX *f,
                                                                     uint64_t la[2], uint64_t sa, uint64_t d,
                                                                     const int watch, const int strided)
{
    Core *c = x->core;
    const unsigned n = f->n;
    uint8_t *ub = c->mem[AS_UB];
    const Instr *step = in + n, *ret;
    const uint64_t bound = ARG(x, step, 1), inc = ARG(x, step, 2), room = 2u * n + 2u;
    const uint64_t sz = c->memsz[AS_UB], lim = sz >= 256 ? sz - 255 : 0;
    uint64_t left = x->left, iv = fr_u64(x, step->arg[3]), T = 0, S = 0;
    const ValuCore core = f->core;
    const int32_t s_off = f->s;
    const uint64_t sv = strided && s_off >= 0 ? fr_u64(x, s_off) : 0;
    FuseWatch w;
    const uint64_t a0[3] = {la[0], la[1], sa};
    if (watch) fuse_watch_begin(x, in, &w);
    for (;;) {
        if (watch) fuse_watch(x, in, n, la, sa, &w, !strided);
        core(ub + sa, ub + la[f->a_ld], ub + la[f->b_ld], strided ? sv : s_off >= 0 ? fr_u64(x, s_off) : 0);
        T++;
        left -= n - 1;
        if (left <= room) { ret = step; break; }
        left--;
        S++;
        iv += inc;
        if (!strided) fr_set_u64(x, step->arg[3], iv);
        if ((int64_t)iv >= (int64_t)bound) { ret = step + 1; break; }
        if (strided) {
            la[0] += d;
            la[1] += d;
            sa += d;
            if (la[0] >= lim || (n == 4 && la[1] >= lim) || sa >= lim) { ret = in; break; }
        } else if (!fuse_addrs(x, in, n, la, &sa)) {
            ret = in;
            break;
        }
        left--;
    }
    if (strided) fr_set_u64(x, step->arg[3], iv);
    if (watch && strided && w.race) fuse_race_strided(x, in, n, a0, d, T);
    if (watch && !strided) fuse_watch_end(x, in, n, &w);
    c->pipes[PQ_V].ops += n * T;
    c->pipes[PQ_V].bytes += 256u * (n - 1u) * T;
    uint64_t cyc = (in[1].cost + in[2].cost + (n == 4 ? in[3].cost : 0u)) * T + step->cost * S + in->cost * (T - 1);
    x->extra_cost += cyc;
    if (__builtin_expect(x->prof != NULL, 0)) {
        for (unsigned k = 1; k < n; k++) obs_profile_n(x->prof, in + k, in[k].cost * T, T);
        obs_profile_n(x->prof, step, step->cost * S, S);
        obs_profile_n(x->prof, in, in->cost * (T - 1), T - 1);
        x->attributed += cyc;
    }
    x->left = left;
    return ret;
}

static const Instr *fused_loop(Exec *x, const Instr *in, const FuseX *f, uint64_t la[2], uint64_t sa, int watch)
{
    uint64_t d = f->stride ? ARG(x, in + f->n, 2) << in->imm[VN_SHIFT] : 0;
    int strided = f->stride;
    for (unsigned j = 0; j < f->n && strided; j++)
        if (j != f->n - 2u && (d & (uint64_t)in[j].imm[VN_ALIGN_M1])) strided = 0;
    if (strided) return watch ? fused_trips(x, in, f, la, sa, d, 1, 1) : fused_trips(x, in, f, la, sa, d, 0, 1);
    return watch ? fused_trips(x, in, f, la, sa, 0, 1, 0) : fused_trips(x, in, f, la, sa, 0, 0, 0);
}

static const Instr *x_fused(Exec *x, const Instr *in)
{
    const FuseX *f = in->ext2;
    Core *c = x->core;
    unsigned n = f->n, nld = n - 2u;
    uint64_t la[2] = {0, 0}, sa;
    if (__builtin_expect(!fuse_ready(x, in, n, la, &sa), 0)) return vls_load_norm_slow(x, in);
    int watch = c->cl->watch;
    if (f->loop) return fused_loop(x, in, f, la, sa, watch);
    /* one group: the interpreter runs what follows it */
    uint8_t *ub = c->mem[AS_UB];
    if (__builtin_expect(watch, 0)) {
        FuseWatch w;
        fuse_watch_begin(x, in, &w);
        fuse_watch(x, in, n, la, sa, &w, 1);
        fuse_watch_end(x, in, n, &w);
    }
    f->core(ub + sa, ub + la[f->a_ld], ub + la[f->b_ld], f->s >= 0 ? fr_u64(x, f->s) : 0);
    c->pipes[PQ_V].ops += n;
    c->pipes[PQ_V].bytes += 256u * (nld + 1u);
    fuse_credit(x, in + 1, n - 1);
    x->left -= n - 1;
    return in + n;
}

/* Is `v`, the result of load instruction ld, used only as operands a/b of the compute? */
static int only_feeds(const Instr *ld, int32_t a, int32_t b)
{
    const Value *v = ld->op->results[0];
    return ld->res[0] == v->slot && v->nuses == (uint32_t)(a == v->slot) + (uint32_t)(b == v->slot);
}

void vec_fuse(LowerView *L, Instr *code, uint32_t n)
{
    for (uint32_t i = 2; i < n; i++) {
        Instr *st = &code[i], *alu = &code[i - 1];
        if (!vls_is_norm_store(st) || !alu->op || !alu->op->nresults) continue;
        ValuCore core = valu_fast_core(alu);
        const Value *r = alu->op->results[0];
        if (!core || alu->res[0] != r->slot || st->arg[0] != r->slot || r->nuses != 1) continue;
        int32_t a, b, sc;
        valu_fast_operands(alu, &a, &b, &sc);
        unsigned nld = b < 0 || a == b ? 1 : 2;
        if (i < nld + 1) continue;
        Instr *first = &code[i - 1 - nld];
        int ok = 1;
        for (unsigned k = 0; k < nld; k++) ok &= vls_is_norm_load(first + k) && first[k].op && only_feeds(first + k, a, b);
        if (!ok || (nld == 2 && first[0].res[0] == first[1].res[0])) continue;
        /* a and b each come from one of the loads */
        int a_ld = first[0].res[0] == a ? 0 : nld == 2 && first[1].res[0] == a ? 1 : -1;
        int b_ld = b < 0 ? a_ld : first[0].res[0] == b ? 0 : nld == 2 && first[1].res[0] == b ? 1 : -1;
        if (a_ld < 0 || b_ld < 0) continue;
        FuseX *f = lw_alloc(L, first->op, sizeof *f);
        if (!f) return;
        int loop = i + 1 < n && code[i + 1].fn == interp_for_next64 && code[i + 1].jump == first;
        int stride = loop && sc != code[i + 1].arg[3];
        for (unsigned k = 0; k < nld + 2 && stride; k++) {
            const Instr *m = k == nld ? NULL : k < nld ? first + k : st;   /* the loads and the store */
            stride = !m || (m->imm[VN_OFF] == code[i + 1].arg[3] && m->imm[VN_OFF_MASK] == -1 &&
                            m->imm[VN_SHIFT] == first->imm[VN_SHIFT]);
        }
        *f = (FuseX){core, (uint8_t)(nld + 2), (uint8_t)a_ld, (uint8_t)b_ld, (uint8_t)loop, (uint8_t)stride, b < 0 ? sc : -1};
        first->ext2 = f;
        first->fn = x_fused;
    }
}

