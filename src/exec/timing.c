/* timing.c — the timing tables (built-in texts and the parser for user overrides) and the formulas of
 * exec/timing.h. Every number of the built-in tables and its source is listed in docs/timing.md. */
#include "timing.h"
#include "base/alloc.h"
#include "isa/type.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const path_names[TP__COUNT] = {
    "gm_ub", "gm_l1", "ub_gm", "l1_gm", "ub_ub", "l0c_gm", "l0c_l1", "l0c_ub", "l1_l0a", "l1_l0b", "l1_bt",
    "l1_fb", "l1_ub", "ub_l1", "l1_fill",
};
static const char *const unit_names[TU__COUNT] = {"exu", "exu0", "load", "store", "issue"};

const char *timing_path_name(TmPath p) { return p < TP__COUNT ? path_names[p] : "?"; }
const char *timing_unit_name(TmUnit u) { return u < TU__COUNT ? unit_names[u] : "?"; }

/* ------------------------------------------------------------------ built-in tables */

/* docs/timing.md gives the source of every number ("Sources of the built-in numbers"). The a5 and a2a3
   tables share the transfer paths that have no per-target figure and the scalar and sync costs. */
#define TM_HEAD \
    "# ptosim timing table (docs/timing.md lists the source of every number)\n" \
    "clock_ghz 1.85\n" \
    "# transfer paths: peak GiB/s, Hill half-saturation bytes (0 = flat), fixed cycles per transfer\n" \
    "path gm_ub   peak=247.16 k=0 startup=214\n" \
    "path gm_l1   peak=135    k=0 startup=67\n" \
    "path ub_gm   peak=188.46 k=0 startup=107\n" \
    "path l1_gm   peak=32     k=0 startup=0\n" \
    "path ub_ub   peak=1024   k=0 startup=0\n" \
    "path l0c_gm  peak=70     k=0 startup=0\n" \
    "path l0c_l1  peak=128    k=0 startup=0\n" \
    "path l0c_ub  peak=128    k=0 startup=0\n" \
    "path l1_bt   peak=32     k=0 startup=0\n" \
    "path l1_fb   peak=32     k=0 startup=0\n" \
    "path l1_ub   peak=220.5  k=0 startup=0\n" \
    "path ub_l1   peak=188.46 k=0 startup=0\n" \
    "path l1_fill peak=32     k=0 startup=0\n" \
    "# vector functions (scopes) and SIMT launches\n" \
    "vf startup=23 drain=12\n" \
    "simt lanes=32 launch=1100\n" \
    "# vector front end, ports, loops\n" \
    "issue_width 5\n" \
    "loop iter=1 gap=5 outer=7\n"
#define TM_TAIL \
    "# scalar unit and synchronisation\n" \
    "scalar op=1 issue=1\n" \
    "sync op=1\n" \
    "sort per8=8\n"
#define TM_MAD_COMMON \
    "mad_rate f16 k0=16 cycles=1\n" \
    "mad_rate bf16 k0=16 cycles=1\n" \
    "mad_rate si8 k0=32 cycles=1\n" \
    "mad_rate ui8 k0=32 cycles=1\n" \
    "mad_rate f8E4M3FN k0=32 cycles=1\n" \
    "mad_rate f8E5M2 k0=32 cycles=1\n" \
    "mad_rate hif8 k0=32 cycles=1\n" \
    "mad_rate f4E2M1x2 k0=64 cycles=1\n" \
    "mad_rate f4E1M2x2 k0=64 cycles=1\n"

static const char a5_text[] =
    TM_HEAD
    "path l1_l0a  peak=354.93 k=0 startup=0\n"
    "path l1_l0b  peak=385.94 k=0 startup=0\n"
    "# the chip's GM bandwidth (GiB/s; 0 = no cap), divided among the blocks of a launch\n"
    "gm_cap read=0 write=0 total=1490\n"
    "units exu=2 exu0=1 load=2 store=1 inflight=7\n"
    "forward minus=3\n"
    "vec default exu   lat=7 ii=1\n"
    "vec default exu0  lat=7 ii=1\n"
    "vec default load  lat=9 ii=1\n"
    "vec default store lat=9 ii=1\n"
    "vec default issue lat=1 ii=1\n"
#include "timing_vec.inc"
    "# cube: cycles = head + ceil(m/16) * ceil(n/16) * ceil(k/k0) * cycles\n"
    "mad head=25\n"
    "mad_rate f32 k0=8 cycles=8\n"
    TM_MAD_COMMON
    "# FIXPIPE: cycles = head + rows * (max(row, 4 * cols / bw) + penalty * (odd(ceil(cols / 8)) - 1))\n"
    "fixpipe head=343.4 row=4.59 bw=30 penalty=0.26\n"
    TM_TAIL;

static const char a2a3_text[] =
    TM_HEAD
    "path l1_l0a  peak=223.47 k=0 startup=0\n"
    "path l1_l0b  peak=147.14 k=0 startup=0\n"
    "# the chip's GM bandwidth (GiB/s; 0 = no cap), divided among the blocks of a launch\n"
    "gm_cap read=3360 write=3360 total=0\n"
    "units exu=1 exu0=1 load=2 store=1\n"
    "forward minus=0\n"
    "vec default exu   lat=6 ii=2\n"
    "vec default exu0  lat=6 ii=2\n"
    "vec default load  lat=9 ii=1\n"
    "vec default store lat=9 ii=1\n"
    "vec default issue lat=1 ii=1\n"
#include "timing_vec_a2a3.inc"
    "# cube: cycles = head + ceil(m/16) * ceil(n/16) * ceil(k/k0) * cycles\n"
    "mad head=21\n"
    "mad_rate f32 k0=8 cycles=2\n"
    TM_MAD_COMMON
    "# FIXPIPE: cycles = head + rows * (max(row, 4 * cols / bw) + penalty * (odd(ceil(cols / 8)) - 1))\n"
    "fixpipe head=164 row=4.45 bw=118 penalty=2.6\n"
    TM_TAIL;

const char *timing_default_text(PtoTarget target)
{
    return target == PTO_TARGET_A2A3 ? a2a3_text : a5_text;
}

int timing_default(Timing *t, PtoTarget target)
{
    memset(t, 0, sizeof *t);
    const char *s = timing_default_text(target);
    /* the built-in text is checked by the test suite: a failure here is running out of memory */
    if (timing_parse(t, "<built-in timing>", s, strlen(s), NULL) == 0) return 0;
    t->clock_hz = 1.85e9;
    return -1;
}

void timing_free(Timing *t)
{
    mem_free(t->vec);
    t->vec = NULL;
    t->nvec = t->capvec = 0;
}

/* ------------------------------------------------------------------ parser */

typedef struct TParse {
    const char *file;
    DiagList *d;
    uint32_t line;
    const char *line_start;
    int errors;
} TParse;

static void terr(TParse *P, const char *at, const char *fmt, const char *a)
{
    P->errors++;
    if (!P->d) return;
    SrcLoc loc = {P->file, P->line, (uint32_t)(at - P->line_start) + 1};
    diag_add(P->d, SEV_ERROR, DIAG_TIMING, loc, fmt, a);
}

/* Tokens of one line: words separated by blanks; a word "key=value" is split at '='. */
typedef struct TTok { const char *s; unsigned n; const char *val; unsigned vn; } TTok;

static unsigned split(const char *p, const char *end, TTok *tk, unsigned max)
{
    unsigned n = 0;
    while (p < end && n < max) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
        if (p >= end || *p == '#') break;
        const char *s = p;
        while (p < end && !isspace((unsigned char)*p) && *p != '#') p++;
        tk[n].s = s;
        tk[n].n = (unsigned)(p - s);
        tk[n].val = NULL;
        tk[n].vn = 0;
        const char *eq = memchr(s, '=', (size_t)(p - s));
        if (eq) {
            tk[n].n = (unsigned)(eq - s);
            tk[n].val = eq + 1;
            tk[n].vn = (unsigned)(p - eq - 1);
        }
        n++;
    }
    return n;
}

static int is_word(const TTok *t, const char *w) { return strlen(w) == t->n && !memcmp(t->s, w, t->n); }

static int num(TParse *P, const char *s, unsigned n, double *out)
{
    char buf[64];
    if (n == 0 || n >= sizeof buf) goto bad;
    memcpy(buf, s, n);
    buf[n] = 0;
    char *e;
    double v = strtod(buf, &e);
    if (*e || !(v >= 0) || v > 1e15) goto bad;
    *out = v;
    return 0;
bad:
    snprintf(buf, sizeof buf, "%.*s", (int)(n < 40 ? n : 40), s);
    terr(P, s, "expected a non-negative number, not '%s'", buf);
    return -1;
}

static int num_u32(TParse *P, const char *s, unsigned n, uint32_t *out)
{
    double v;
    if (num(P, s, n, &v)) return -1;
    if (v != floor(v) || v > 4294967295.0) {
        terr(P, s, "expected a whole number of cycles%s", "");
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

/* key=value fields: each listed key may appear; anything else is an error. */
typedef struct Field { const char *key; int is_int; void *dst; } Field;

static int fields(TParse *P, const TTok *tk, unsigned ntk, const Field *f, unsigned nf)
{
    int rc = 0;
    for (unsigned i = 0; i < ntk; i++) {
        unsigned k = 0;
        while (k < nf && !(tk[i].val && is_word(&tk[i], f[k].key))) k++;
        if (k == nf) {
            char w[48];
            snprintf(w, sizeof w, "%.*s", (int)(tk[i].n < 40 ? tk[i].n : 40), tk[i].s);
            terr(P, tk[i].s, tk[i].val ? "unknown field '%s' here" : "expected key=value, not '%s'", w);
            rc = -1;
            continue;
        }
        if (f[k].is_int) rc |= num_u32(P, tk[i].val, tk[i].vn, f[k].dst);
        else rc |= num(P, tk[i].val, tk[i].vn, f[k].dst);
    }
    return rc;
}

static int lookup(const TTok *t, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (is_word(t, names[i])) return i;
    return -1;
}

/* An element kind name ("f32", "si8", ...; "*" = any -> -1); -2 if unknown. Signless integer names
   (i8 ...) count as signed. */
static int form_of(const TTok *t)
{
    if (is_word(t, "*")) return -1;
    int k = ek_lookup(t->s, t->n);
    return k >= 0 ? k : -2;
}

static int op_of(const TTok *t)
{
    char buf[64];
    if (t->n + 5 >= sizeof buf) return -1;
    snprintf(buf, sizeof buf, "pto.%.*s", (int)t->n, t->s);
    return op_lookup(buf, (unsigned)strlen(buf));
}

static int add_vec_row(Timing *T, const TmVecRow *r)
{
    if (T->nvec == T->capvec) {
        uint32_t cap = T->capvec ? T->capvec * 2 : 64;
        TmVecRow *v = mem_realloc(T->vec, cap * sizeof *v);
        if (!v) return -1;
        T->vec = v;
        T->capvec = cap;
    }
    T->vec[T->nvec++] = *r;
    return 0;
}

static void word(char *w, size_t n, const TTok *t) { snprintf(w, n, "%.*s", (int)(t->n < 40 ? t->n : 40), t->s); }

static int parse_vec(TParse *P, Timing *T, TTok *tk, unsigned n)
{
    char w[48];
    if (n < 3) {
        terr(P, tk[0].s, "'vec' needs an op (or 'default') and a form%s", "");
        return -1;
    }
    uint32_t lat = 0, ii = 0, start = 0, drain = 0, fwd = TM_FWD_UNSET, fwd_st = TM_FWD_UNSET;
    int unit = -1;
    /* unit=NAME is a word, not a number: take it out before the numeric fields */
    TTok rest[16];
    unsigned nr = 0;
    for (unsigned i = 3; i < n && nr < 16; i++) {
        if (tk[i].val && is_word(&tk[i], "unit")) {
            TTok u = {tk[i].val, tk[i].vn, NULL, 0};
            unit = lookup(&u, unit_names, TU__COUNT);
            if (unit < 0) {
                word(w, sizeof w, &u);
                terr(P, tk[i].val, "unknown unit '%s' (exu, exu0, load, store, issue)", w);
                return -1;
            }
        } else {
            rest[nr++] = tk[i];
        }
    }
    int have_lat = 0, have_ii = 0;
    for (unsigned i = 0; i < nr; i++) {
        have_lat |= rest[i].val && is_word(&rest[i], "lat");
        have_ii |= rest[i].val && is_word(&rest[i], "ii");
    }
    Field f[] = {{"lat", 1, &lat}, {"ii", 1, &ii}, {"start", 1, &start}, {"drain", 1, &drain}, {"fwd", 1, &fwd},
                 {"fwd_st", 1, &fwd_st}};
    if (fields(P, rest, nr, f, 6)) return -1;
    if (lat > 65535 || ii > 65535 || (fwd != TM_FWD_UNSET && fwd > 65534) || (fwd_st != TM_FWD_UNSET && fwd_st > 65534)) {
        terr(P, tk[0].s, "latency, ii and forwarding distances must be below 65535%s", "");
        return -1;
    }
    if (is_word(&tk[1], "default")) {
        int u = lookup(&tk[2], unit_names, TU__COUNT);
        if (u < 0) {
            word(w, sizeof w, &tk[2]);
            terr(P, tk[2].s, "unknown unit '%s' (exu, exu0, load, store, issue)", w);
            return -1;
        }
        if (have_lat) T->vec_default[u].lat = (uint16_t)lat;
        if (have_ii) T->vec_default[u].ii = (uint16_t)ii;
        if (have_lat || fwd != TM_FWD_UNSET) T->vec_default[u].fwd = (uint16_t)fwd;
        if (have_lat || fwd_st != TM_FWD_UNSET) T->vec_default[u].fwd_st = (uint16_t)fwd_st;
        T->vec_default[u].unit = (uint8_t)u;
        return 0;
    }
    int op = op_of(&tk[1]);
    if (op < 0 || !(op_info[op].flags & F_VEC || op_info[op].pipe == PIPE_V_)) {
        word(w, sizeof w, &tk[1]);
        terr(P, tk[1].s, op < 0 ? "unknown op 'pto.%s'" : "'pto.%s' is not a vector op", w);
        return -1;
    }
    /* FORM, or SRC_DST for conversions */
    TTok ft = tk[2], st = {NULL, 0, NULL, 0};
    const char *us = memchr(ft.s, '_', ft.n);
    if (us) {
        st = (TTok){ft.s, (unsigned)(us - ft.s), NULL, 0};
        ft = (TTok){us + 1, (unsigned)(ft.s + ft.n - us - 1), NULL, 0};
    }
    int form = form_of(&ft), src = st.s ? form_of(&st) : -1;
    if (form == -2 || src == -2) {
        word(w, sizeof w, &tk[2]);
        terr(P, tk[2].s, "unknown element form '%s' (f32, f16, bf16, si8 ... ui64, *, or SRC_DST)", w);
        return -1;
    }
    if (!have_lat || !have_ii) {
        terr(P, tk[0].s, "a 'vec' row needs lat= and ii=%s", "");
        return -1;
    }
    TmVecRow r = {(uint16_t)op, (int8_t)form, (int8_t)src, {(uint16_t)lat, (uint16_t)ii, (uint16_t)fwd, (uint16_t)fwd_st, (uint8_t)(unit < 0 ? (int)timing_vec_unit((OpKind)op) : unit)}};
    if (add_vec_row(T, &r)) {
        P->errors++;
        if (P->d) diag_oom(P->d, 0);
        return -1;
    }
    return 0;
}

static int parse_line(TParse *P, Timing *T, TTok *tk, unsigned n)
{
    char w[48];
    const TTok *k = &tk[0];
    if (is_word(k, "clock_ghz") && n == 2 && !tk[1].val) {
        double g;
        if (num(P, tk[1].s, tk[1].n, &g)) return -1;
        if (g <= 0) {
            terr(P, tk[1].s, "the clock must be positive%s", "");
            return -1;
        }
        T->clock_hz = g * 1e9;
        return 0;
    }
    if (is_word(k, "path") && n >= 2) {
        int p = lookup(&tk[1], path_names, TP__COUNT);
        if (p < 0) {
            word(w, sizeof w, &tk[1]);
            terr(P, tk[1].s, "unknown path '%s'", w);
            return -1;
        }
        TmPathParam *pp = &T->path[p];
        Field f[] = {{"peak", 0, &pp->peak_gibs}, {"k", 0, &pp->k_bytes}, {"startup", 1, &pp->startup}};
        if (fields(P, tk + 2, n - 2, f, 3)) return -1;
        if (pp->peak_gibs <= 0) {
            terr(P, tk[1].s, "path '%s' needs a positive peak bandwidth", path_names[p]);
            return -1;
        }
        return 0;
    }
    if (is_word(k, "gm_cap")) {
        Field f[] = {{"read", 0, &T->gm_read_cap}, {"write", 0, &T->gm_write_cap}, {"total", 0, &T->gm_total_cap}};
        return fields(P, tk + 1, n - 1, f, 3);
    }
    if (is_word(k, "vf")) {
        Field f[] = {{"startup", 1, &T->vf_startup}, {"drain", 1, &T->vf_drain}};
        return fields(P, tk + 1, n - 1, f, 2);
    }
    if (is_word(k, "simt")) {
        Field f[] = {{"lanes", 1, &T->simt_lanes}, {"launch", 1, &T->simt_launch}};
        if (fields(P, tk + 1, n - 1, f, 2)) return -1;
        if (!T->simt_lanes) {
            terr(P, tk[0].s, "the SIMT lanes per cycle must be at least 1%s", "");
            return -1;
        }
        return 0;
    }
    if (is_word(k, "issue_width") && n == 2 && !tk[1].val) {
        if (num_u32(P, tk[1].s, tk[1].n, &T->issue_width)) return -1;
        if (!T->issue_width) {
            terr(P, tk[1].s, "the issue width must be at least 1%s", "");
            return -1;
        }
        return 0;
    }
    if (is_word(k, "units")) {
        Field f[] = {{"exu", 1, &T->units[TU_EXU]}, {"exu0", 1, &T->units[TU_EXU0]}, {"load", 1, &T->units[TU_LOAD]},
                     {"store", 1, &T->units[TU_STORE]}, {"inflight", 1, &T->inflight}};
        if (fields(P, tk + 1, n - 1, f, 5)) return -1;
        for (int u = 0; u < TU_ISSUE; u++)
            if (!T->units[u]) {
                terr(P, tk[0].s, "every unit count must be at least 1 (%s)", unit_names[u]);
                return -1;
            }
        return 0;
    }
    if (is_word(k, "vec")) return parse_vec(P, T, tk, n);
    if (is_word(k, "loop")) {
        Field f[] = {{"iter", 1, &T->iter_min}, {"gap", 1, &T->loop_gap}, {"outer", 1, &T->outer_min}};
        if (fields(P, tk + 1, n - 1, f, 3)) return -1;
        if (!T->iter_min) {
            terr(P, tk[0].s, "a loop iteration takes at least 1 cycle (iter)%s", "");
            return -1;
        }
        return 0;
    }
    if (is_word(k, "forward")) {
        Field f[] = {{"minus", 1, &T->fwd_minus}};
        return fields(P, tk + 1, n - 1, f, 1);
    }
    if (is_word(k, "mad")) {
        Field f[] = {{"head", 1, &T->mad_head}};
        return fields(P, tk + 1, n - 1, f, 1);
    }
    if (is_word(k, "mad_rate") && n >= 2) {
        int e = form_of(&tk[1]);
        if (e < 0) {
            word(w, sizeof w, &tk[1]);
            terr(P, tk[1].s, "unknown element kind '%s'", w);
            return -1;
        }
        uint32_t k0 = T->mad_k0[e], cyc = T->mad_cycles[e];
        Field f[] = {{"k0", 1, &k0}, {"cycles", 1, &cyc}};
        if (fields(P, tk + 2, n - 2, f, 2)) return -1;
        if (k0 < 1 || k0 > 255 || cyc > 255) {
            terr(P, tk[1].s, "k0 must be in 1..255 and cycles in 0..255%s", "");
            return -1;
        }
        T->mad_k0[e] = (uint8_t)k0;
        T->mad_cycles[e] = (uint8_t)cyc;
        return 0;
    }
    if (is_word(k, "fixpipe")) {
        Field f[] = {{"head", 0, &T->fix_head}, {"row", 0, &T->fix_row}, {"bw", 0, &T->fix_bw},
                     {"penalty", 0, &T->fix_penalty}};
        return fields(P, tk + 1, n - 1, f, 4);
    }
    if (is_word(k, "scalar")) {
        Field f[] = {{"op", 1, &T->scalar_op}, {"issue", 1, &T->issue}};
        return fields(P, tk + 1, n - 1, f, 2);
    }
    if (is_word(k, "sync")) {
        Field f[] = {{"op", 1, &T->sync_op}};
        return fields(P, tk + 1, n - 1, f, 1);
    }
    if (is_word(k, "sort")) {
        Field f[] = {{"per8", 1, &T->sort_per_elem_x8}};
        return fields(P, tk + 1, n - 1, f, 1);
    }
    word(w, sizeof w, k);
    terr(P, k->s, "unknown timing key '%s' (or wrong number of values)", w);
    return -1;
}

int timing_parse(Timing *t, const char *file, const char *text, size_t len, DiagList *d)
{
    TParse P = {file, d, 0, text, 0};
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        P.line++;
        P.line_start = p;
        TTok tk[24];
        unsigned n = split(p, le, tk, 24);
        if (n == 24) terr(&P, p, "too many words on one line%s", "");
        else if (n) parse_line(&P, t, tk, n);
        p = nl ? nl + 1 : end;
    }
    return P.errors ? -1 : 0;
}

/* ------------------------------------------------------------------ formulas */

TmPath timing_path(unsigned s, unsigned d)
{
    switch (s) {
    case AS_GM: return d == AS_L1 ? TP_GM_L1 : TP_GM_UB;
    case AS_UB: return d == AS_GM ? TP_UB_GM : d == AS_L1 ? TP_UB_L1 : TP_UB_UB;
    case AS_L1:
        switch (d) {
        case AS_GM: return TP_L1_GM;
        case AS_UB: return TP_L1_UB;
        case AS_L0A: return TP_L1_L0A;
        case AS_L0B: return TP_L1_L0B;
        case AS_BT: return TP_L1_BT;
        case AS_FB: return TP_L1_FB;
        default: return TP_L1_FILL;
        }
    case AS_L0C: return d == AS_GM ? TP_L0C_GM : d == AS_UB ? TP_L0C_UB : TP_L0C_L1;
    default: return TP_UB_UB;
    }
}

static int gm_read(TmPath p) { return p == TP_GM_UB || p == TP_GM_L1; }
static int gm_write(TmPath p) { return p == TP_UB_GM || p == TP_L1_GM || p == TP_L0C_GM; }

uint64_t timing_transfer(const Timing *t, TmPath p, uint64_t bytes, unsigned ncores)
{
    const TmPathParam *pp = &t->path[p];
    if (!bytes) return pp->startup;
    double b = (double)bytes;
    double bw = pp->peak_gibs * b / (pp->k_bytes + b);
    double cap = gm_read(p) ? t->gm_read_cap : gm_write(p) ? t->gm_write_cap : 0;
    if (cap > 0 && ncores > 0 && cap / ncores < bw) bw = cap / ncores;
    /* cycles = bytes / (bw GiB/s) * clock; rounded up so a transfer never takes less than its bytes need */
    double cyc = ceil(b * t->clock_hz / (bw * 1073741824.0) - 1e-9);
    if (!(cyc >= 0)) cyc = 0;
    if (cyc > 1e18) cyc = 1e18;
    return pp->startup + (uint64_t)cyc;
}

/* ------------------------------------------------------------------ GM bandwidth in flight */

/* Whole cycles of a span of model time: rounded up, so a transfer never takes less than its bytes need
   (the 1e-9 absorbs the rounding of an exact quotient). */
static uint64_t whole(double c)
{
    c = ceil(c - 1e-9);
    if (!(c >= 0)) return 0;
    return c > 1e18 ? (uint64_t)1e18 : (uint64_t)c;
}

/* A GM flow of `bytes` (a write when `write`) at most `rate` GiB/s, its data starting `startup` cycles
   after `start`, sharing the block's slice with the flows of f (docs/timing.md "GM bandwidth"). Times
   are relative to `start` while computing, so long runs keep their precision. Returns its cycles. */
static uint64_t gm_flow(const Timing *t, int write, uint64_t bytes, double rate, double startup, unsigned blocks,
                        uint64_t start, TmGmFlows *f)
{
    double nb = blocks ? (double)blocks : 1.0;
    double kcap = (write ? t->gm_write_cap : t->gm_read_cap) / nb, tcap = t->gm_total_cap / nb;
    double per = t->clock_hz / 1073741824.0;   /* cycles per byte at 1 GiB/s */
    double s0 = (double)start, b = (double)bytes;
    unsigned k = 0;   /* drop the segments that ended before this flow starts */
    for (unsigned i = 0; i < f->n; i++)
        if (f->s[i].t1 > s0) f->s[k++] = f->s[i];
    f->n = k;
    double at = startup, left = b;
    for (int guard = 0; left > 0 && guard < 4 * TM_GM_SEGS + 8; guard++) {
        double used_k = 0, used_t = 0, next = INFINITY;
        for (unsigned i = 0; i < f->n; i++) {
            const TmGmSeg *g = &f->s[i];
            double a = g->t0 - s0, z = g->t1 - s0;
            if (a <= at && at < z) {
                used_t += g->rate;
                if (g->write == write) used_k += g->rate;
            }
            if (a > at && a < next) next = a;
            if (z > at && z < next) next = z;
        }
        double r = rate;
        if (kcap > 0 && kcap - used_k < r) r = kcap - used_k;
        if (tcap > 0 && tcap - used_t < r) r = tcap - used_t;
        if (!(r > rate * 1e-9)) {   /* the slice is taken: wait for the next flow to end */
            if (next == INFINITY) r = rate;
            else {
                at = next;
                continue;
            }
        }
        double need = left * per / r;   /* cycles to move the rest at r */
        double end = at + need;
        int last = next == INFINITY || end <= next;
        if (!last) end = next;
        if (f->n < TM_GM_SEGS) {
            TmGmSeg *g = f->n ? &f->s[f->n - 1] : NULL;
            if (g && g->write == write && g->rate == r && g->t1 == s0 + at) g->t1 = s0 + end;
            else f->s[f->n++] = (TmGmSeg){s0 + at, s0 + end, r, write};
        }
        if (last) {
            if (at == startup) return (uint64_t)startup + whole(b * t->clock_hz / (r * 1073741824.0));
            at = end;
            break;
        }
        left -= (end - at) * r / per;
        at = end;
    }
    return whole(at);
}

uint64_t timing_transfer_gm(const Timing *t, TmPath p, uint64_t bytes, unsigned blocks, uint64_t start, TmGmFlows *f)
{
    int rd = gm_read(p), wr = gm_write(p);
    double kcap = rd ? t->gm_read_cap : wr ? t->gm_write_cap : 0;
    if (!bytes || !f || (!rd && !wr) || (kcap <= 0 && t->gm_total_cap <= 0)) return timing_transfer(t, p, bytes, 0);
    const TmPathParam *pp = &t->path[p];
    double b = (double)bytes;
    return gm_flow(t, wr, bytes, pp->peak_gibs * b / (pp->k_bytes + b), pp->startup, blocks, start, f);
}

static uint64_t odd_part(uint64_t x)
{
    while (x && !(x & 1)) x >>= 1;
    return x;
}

uint64_t timing_fixpipe(const Timing *t, uint64_t rows, uint64_t cols, unsigned acc_bytes)
{
    double per_row = t->fix_row;
    if (t->fix_bw > 0 && (double)acc_bytes * (double)cols / t->fix_bw > per_row)
        per_row = (double)acc_bytes * (double)cols / t->fix_bw;
    uint64_t n0 = acc_bytes && acc_bytes < 32 ? 32 / acc_bytes : 1;
    uint64_t n1 = (cols + n0 - 1) / n0;
    if (n1) per_row += t->fix_penalty * (double)(odd_part(n1) - 1);
    return whole(t->fix_head + (double)rows * per_row);
}

uint64_t timing_fixpipe_gm(const Timing *t, uint64_t rows, uint64_t cols, unsigned acc_bytes, uint64_t bytes,
                           unsigned blocks, uint64_t start, TmGmFlows *f)
{
    uint64_t c = timing_fixpipe(t, rows, cols, acc_bytes);
    double head = t->fix_head > 0 ? t->fix_head : 0;
    if (!bytes || !f || (t->gm_write_cap <= 0 && t->gm_total_cap <= 0) || (double)c <= head) return c;
    /* the drain's own rate in GiB/s: its bytes over the cycles after the head */
    double rate = (double)bytes / ((double)c - head) * t->clock_hz / 1073741824.0;
    uint64_t g = gm_flow(t, 1, bytes, rate, head, blocks, start, f);
    return g > c ? g : c;
}

uint64_t timing_mad(const Timing *t, ElemKind a, uint64_t m, uint64_t n, uint64_t k)
{
    unsigned k0 = a < EK__COUNT && t->mad_k0[a] ? t->mad_k0[a] : 16;
    unsigned cyc = a < EK__COUNT && t->mad_k0[a] ? t->mad_cycles[a] : 1;
    return t->mad_head + ((m + 15) / 16) * ((n + 15) / 16) * ((k + k0 - 1) / k0) * cyc;
}

TmUnit timing_vec_unit(OpKind op)
{
    switch ((OpUnit)op_unit[op]) {   /* the op table's UNIT column */
    case OU_LOAD: return TU_LOAD;
    case OU_STORE: return TU_STORE;
    case OU_ISSUE: return TU_ISSUE;
    default: return TU_EXU;
    }
}

static TmVec resolve(const Timing *t, TmVec v)
{
    if (v.fwd == TM_FWD_UNSET) v.fwd = (uint16_t)(v.lat > t->fwd_minus + 1 ? v.lat - t->fwd_minus : (v.lat ? 1 : 0));
    if (v.fwd_st == TM_FWD_UNSET) v.fwd_st = v.fwd;
    return v;
}

TmVec timing_vec(const Timing *t, OpKind op, ElemKind k, ElemKind src)
{
    const TmVecRow *any = NULL;
    for (uint32_t i = t->nvec; i-- > 0;) {
        const TmVecRow *r = &t->vec[i];
        if (r->op != op || (r->src >= 0 && r->src != (int)src)) continue;
        if (r->form == (int)k) return resolve(t, r->v);
        if (r->form < 0 && !any) any = r;
    }
    if (any) return resolve(t, any->v);
    return resolve(t, t->vec_default[timing_vec_unit(op)]);
}

/* ------------------------------------------------------------------ a vector body (tile ops) */

double timing_port_occ(const Timing *t, TmVec v)
{
    double o = v.ii ? v.ii : 1;
    if (t->inflight && (double)v.lat / t->inflight > o) o = (double)v.lat / t->inflight;
    return o;
}

/* The bounds of one iteration of a body, in cycles (fractional): the front end (slots / issue width, at
   least iter_min), and the ports (compute units, unit 0, loads paired with stores). */
void timing_body_bounds(const Timing *t, const TmVec *v, const unsigned *slots, unsigned n, double *fe, double *res,
                        int *res_why, double *res_nest)
{
    double nslots = 0, exu = 0, exu0 = 0, ld = 0, st = 0;
    for (unsigned i = 0; i < n; i++) {
        nslots += slots ? slots[i] : 1;
        switch (v[i].unit) {
        case TU_EXU: exu += timing_port_occ(t, v[i]); break;
        case TU_EXU0: exu0 += timing_port_occ(t, v[i]); exu += timing_port_occ(t, v[i]); break;
        case TU_LOAD: ld += v[i].ii; break;
        case TU_STORE: st += v[i].ii; break;
        default: break;   /* a front-end slot only */
        }
    }
    double f = nslots / (t->issue_width ? t->issue_width : 1);
    *fe = f > t->iter_min ? f : t->iter_min;
    double b[3];
    b[0] = exu / (t->units[TU_EXU] ? t->units[TU_EXU] : 1);
    b[1] = exu0 / (t->units[TU_EXU0] ? t->units[TU_EXU0] : 1);
    /* a cycle issues two loads, or a load and a store: each store cycle takes one load along */
    double scyc = st / (t->units[TU_STORE] ? t->units[TU_STORE] : 1), left = ld > scyc ? ld - scyc : 0;
    b[2] = scyc + left / (t->units[TU_LOAD] ? t->units[TU_LOAD] : 1);
    *res = 0;
    *res_why = 0;
    for (int k = 0; k < 3; k++)
        if (b[k] > *res) {
            *res = b[k];
            *res_why = k + 1;
        }
    if (res_nest) *res_nest = timing_nest_res(b[0], b[1], b[2]);
}

double timing_nest_res(double exu, double exu0, double ldst)
{
    /* inside a loop nest the load/store ports take whole cycles per iteration (the st_a5_fit 2D bodies
       with two loads and a store take 2 cycles per repeat where the 1D ones take 1.3) */
    double r = ceil(ldst - 1e-9);
    if (exu > r) r = exu;
    if (exu0 > r) r = exu0;
    return r;
}

/* Cycles of one outer iteration around p inner iterations: the inner loop's own time, or the front end's
   plus the gap between inner-loop instances, at least outer_min. */
double timing_outer_iter(const Timing *t, double p, double ii_fe, double ii_res)
{
    double a = p * ii_res, b = p * ii_fe + t->loop_gap, r = a > b ? a : b;
    return r > t->outer_min ? r : t->outer_min;
}

uint64_t timing_tile_body(const Timing *t, const OpKind *m, unsigned n, ElemKind k, ElemKind src, uint64_t lines,
                          uint64_t per_line)
{
    if (!n || !lines || !per_line) return 0;
    if (per_line == 1) {   /* one repeat per line: the lines are the loop (no inner loop, no gap) */
        per_line = lines;
        lines = 1;
    }
    TmVec v[96];
    if (n > 96) n = 96;
    for (unsigned i = 0; i < n; i++) v[i] = timing_vec(t, m[i], k, src);
    /* the first repeat's chain: the leading loads issue at once, the op after them when the last of them
       forwards to it; each further op when its predecessor forwards (fwd_st into a store); the last op
       retires after its latency */
    double ready = 0, cp = 0;
    unsigned i = 0;
    while (i < n && v[i].unit == TU_LOAD) {
        if (v[i].lat > cp) cp = v[i].lat;
        i++;
    }
    for (unsigned j = 0; j < i && i < n; j++) {
        double d = v[i].unit == TU_STORE ? v[j].fwd_st : v[j].fwd;
        if (d > ready) ready = d;
    }
    for (; i < n; i++) {
        if (i + 1 == n) cp = ready + v[i].lat;
        else ready += v[i + 1].unit == TU_STORE ? v[i].fwd_st : v[i].fwd;
    }
    double fe, res, res_nest;
    int why;
    timing_body_bounds(t, v, NULL, n, &fe, &res, &why, &res_nest);
    double ii = fe > res ? fe : res;
    double total = cp + (double)(per_line - 1) * ii;
    if (lines > 1) total += (double)(lines - 1) * timing_outer_iter(t, (double)per_line, fe, res_nest);
    return t->vf_startup + t->vf_drain + (uint64_t)ceil(total - 1e-9);
}
