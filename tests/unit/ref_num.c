/* ref_num.c — the test oracle for num.c (see ref_num.h). Deliberately naive: decode by the
 * format definitions in resolutions §2.4 into doubles, encode by binary search over a sorted
 * table of all non-negative finite code values (for f32: neighbours from host conversion and
 * nextafterf) and an explicit choice between the two neighbours, comparing with their midpoint.
 * Doubles hold every value of these formats exactly, and midpoints of neighbours too.
 * Test-only code, so it keeps its tables (and a one-entry search cache) in file-scope state. */
#include "ref_num.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    double v;
    uint32_t code;
} Entry;

typedef struct {
    Entry e[32768];
    int n;
    double beyond;         /* the value the next code would have past the largest finite one */
    uint32_t beyond_code;  /* and that code, for its parity */
    uint32_t sign;         /* sign bit, 0 if unsigned */
    uint32_t inf;          /* +inf code, 0 if none */
    uint32_t nan;          /* canonical NaN code, 0 if none */
    bool has_nan;
} Table;

static Table tabs[NUM_FORMAT_COUNT];

static const float F4E2M1[8] = {0, .5f, 1, 1.5f, 2, 3, 4, 6};
static const float F4E1M2[8] = {0, .25f, .5f, .75f, 1, 1.25f, 1.5f, 1.75f};

static double dec_f16(unsigned h)
{
    double s = (h & 0x8000) ? -1.0 : 1.0;
    unsigned e = (h >> 10) & 31, m = h & 1023;
    if (e == 31) return m ? NAN : s * INFINITY;
    if (e == 0) return s * ldexp(m, -24);
    return s * ldexp(m + 1024, (int)e - 25);
}

static double dec_hif8(unsigned b)
{
    static const struct { unsigned len, pat, ew, mw; } DOT[] = {
        {4, 1, 0, 3}, {3, 1, 1, 3}, {2, 1, 2, 3}, {2, 2, 3, 2}, {2, 3, 4, 1},
    };
    if (b == 0x00) return 0.0;
    if (b == 0x80) return NAN;
    if (b == 0x6F) return INFINITY;
    if (b == 0xEF) return -INFINITY;
    double s = (b & 0x80) ? -1.0 : 1.0;
    unsigned body = b & 0x7F;
    if ((body >> 3) == 0) return s * ldexp(1.0, (int)(b & 7) - 23);
    for (unsigned i = 0; i < sizeof DOT / sizeof DOT[0]; i++) {
        unsigned len = DOT[i].len, ew = DOT[i].ew, mw = DOT[i].mw;
        if ((body >> (7 - len)) != DOT[i].pat) continue;
        unsigned ef = (body >> mw) & ((1u << ew) - 1), mf = body & ((1u << mw) - 1);
        int ex = 0;
        if (ew > 0) {
            int magnitude = (int)(ef | (1u << (ew - 1)));
            ex = (ef >> (ew - 1)) ? -magnitude : magnitude;
        }
        return s * (1.0 + mf / (double)(1u << mw)) * ldexp(1.0, ex);
    }
    abort();
}

double ref_decode(NumFormat f, uint64_t code)
{
    switch (f) {
    case NUM_F32: {
        float x;
        uint32_t b = (uint32_t)code;
        memcpy(&x, &b, sizeof x);
        return x;
    }
    case NUM_F16: return dec_f16((unsigned)(code & 0xFFFF));
    case NUM_BF16: return ref_decode(NUM_F32, (code & 0xFFFF) << 16);
    case NUM_E4M3FN: {
        unsigned b = (unsigned)(code & 0xFF), e = (b >> 3) & 15, m = b & 7;
        double s = (b & 0x80) ? -1.0 : 1.0;
        if ((b & 0x7F) == 0x7F) return NAN;
        if (e == 0) return s * (m / 8.0) * ldexp(1.0, -6);
        return s * (1.0 + m / 8.0) * ldexp(1.0, (int)e - 7);
    }
    case NUM_E5M2: return dec_f16((unsigned)(code & 0xFF) << 8);  /* e5m2 is the top byte of f16 */
    case NUM_HIF8: return dec_hif8((unsigned)(code & 0xFF));
    case NUM_F4E2M1: return ((code & 8) ? -1.0 : 1.0) * F4E2M1[code & 7];
    case NUM_F4E1M2: return ((code & 8) ? -1.0 : 1.0) * F4E1M2[code & 7];
    case NUM_E8M0: return (code & 0xFF) == 0xFF ? NAN : ldexp(1.0, (int)(code & 0xFF) - 127);
    default: abort();
    }
}

static int cmp_entry(const void *a, const void *b)
{
    double x = ((const Entry *)a)->v, y = ((const Entry *)b)->v;
    return x < y ? -1 : x > y;
}

static bool build(NumFormat f, unsigned width, double beyond, uint32_t beyond_code, uint32_t sign,
                  uint32_t inf, uint32_t nan, bool has_nan)
{
    Table *t = &tabs[f];
    t->n = 0;
    for (uint32_t c = 0; c < (1u << width); c++) {
        double v = ref_decode(f, c);
        if (isnan(v) || isinf(v) || signbit(v)) continue;
        t->e[t->n].v = v;
        t->e[t->n].code = c;
        t->n++;
    }
    qsort(t->e, (size_t)t->n, sizeof t->e[0], cmp_entry);
    for (int i = 1; i < t->n; i++)
        if (!(t->e[i - 1].v < t->e[i].v)) return false;
    t->beyond = beyond;
    t->beyond_code = beyond_code;
    t->sign = sign;
    t->inf = inf;
    t->nan = nan;
    t->has_nan = has_nan;
    return t->e[t->n - 1].v < beyond;
}

bool ref_init(void)
{
    bool ok = true;
    ok &= build(NUM_F16, 16, 65536.0, 0x7C00, 0x8000, 0x7C00, 0x7E00, true);
    ok &= build(NUM_BF16, 16, ldexp(1.0, 128), 0x7F80, 0x8000, 0x7F80, 0x7FC0, true);
    ok &= build(NUM_E4M3FN, 8, 480.0, 0x7F, 0x80, 0, 0x7F, true);
    ok &= build(NUM_E5M2, 8, 65536.0, 0x7C, 0x80, 0x7C, 0x7E, true);
    ok &= build(NUM_HIF8, 8, 49152.0, 0x6F, 0x80, 0x6F, 0x80, true);
    ok &= build(NUM_F4E2M1, 4, 8.0, 0x8, 0x8, 0, 0, false);
    ok &= build(NUM_F4E1M2, 4, 2.0, 0x8, 0x8, 0, 0, false);
    ok &= build(NUM_E8M0, 8, ldexp(1.0, 128), 0xFF, 0, 0, 0xFF, true);
    return ok;
}

int ref_count(NumFormat f) { return tabs[f].n; }

double ref_value_at(NumFormat f, int i) { return i < tabs[f].n ? tabs[f].e[i].v : tabs[f].beyond; }

static uint32_t f32_bits_of(float v)
{
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

static uint64_t signed_code(NumFormat f, const Table *t, bool neg, uint32_t code)
{
    if (!neg) return code;
    if (f == NUM_HIF8 && code == 0) return 0;
    return code | t->sign;
}

static uint64_t max_code(const Table *t) { return t->e[t->n - 1].code; }

/* Where a value beyond the largest finite one lands (IEEE 754 §7.4, then the format's lack of
 * inf or NaN). */
static uint64_t ovf(NumFormat f, const Table *t, bool neg, NumRound rm, bool sat)
{
    bool inf_side;
    switch (rm) {
    case NUM_RND_R: case NUM_RND_A: inf_side = true; break;
    case NUM_RND_F: inf_side = neg; break;
    case NUM_RND_C: inf_side = !neg; break;
    default: inf_side = false; break;
    }
    if (sat || !inf_side) return signed_code(f, t, neg, (uint32_t)max_code(t));
    if (t->inf) return signed_code(f, t, neg, t->inf);
    if (t->has_nan) return t->nan;
    return signed_code(f, t, neg, (uint32_t)max_code(t));
}

/* Whether to take the upper neighbour. cmp: the value against the midpoint of the two. */
static bool choose_up(NumRound rm, bool neg, int cmp, uint32_t above_code)
{
    switch (rm) {
    case NUM_RND_R: return cmp > 0 || (cmp == 0 && (above_code & 1) == 0);
    case NUM_RND_A: return cmp >= 0;
    case NUM_RND_F: return neg;
    case NUM_RND_C: return !neg;
    case NUM_RND_Z: return false;
    default: return (above_code & 1) != 0;  /* O */
    }
}

/* f32 has too many codes for a table: find the neighbours with host conversion and nextafterf. */
static uint64_t encode_f32(double x, int tail, NumRound rm, bool sat)
{
    const uint32_t INF = 0x7F800000u, MAX = 0x7F7FFFFFu;
    bool neg = signbit(x) != 0;
    uint32_t sign = neg ? 0x80000000u : 0;
    if (isnan(x)) return sat ? 0 : 0x7FC00000u;
    if (isinf(x)) return sign | (sat ? MAX : INF);
    double a = fabs(x), beyond = ldexp(1.0, 128);
    int at = neg ? -tail : tail;
    bool to_inf = !sat && (rm == NUM_RND_R || rm == NUM_RND_A || (rm == NUM_RND_C && !neg) ||
                           (rm == NUM_RND_F && neg));
    if (a > beyond) return sign | (to_inf ? INF : MAX);
    float c = (float)a, lo, hi;
    if (isinf(c)) {
        lo = FLT_MAX;
        hi = INFINITY;
    } else if ((double)c <= a) {
        lo = c;
        hi = nextafterf(c, INFINITY);
    } else {
        hi = c;
        lo = nextafterf(c, 0.0f);
    }
    int cmp;
    if ((double)lo == a) {
        if (at == 0) return sign | f32_bits_of(lo);
        if (at < 0) {
            hi = lo;
            lo = nextafterf(lo, 0.0f);
        }
        cmp = at < 0 ? 1 : -1;
    } else {
        double mid = ((double)lo + (isinf(hi) ? beyond : (double)hi)) / 2;
        cmp = a < mid ? -1 : a > mid ? 1 : at;
    }
    if (!choose_up(rm, neg, cmp, f32_bits_of(hi))) return sign | f32_bits_of(lo);
    if (isinf(hi)) return sign | (to_inf ? INF : MAX);
    return sign | f32_bits_of(hi);
}

uint64_t ref_encode_tail(NumFormat f, double x, int tail, NumRound rm, bool sat)
{
    if (f == NUM_F32) return encode_f32(x, tail, rm, sat);
    const Table *t = &tabs[f];
    if (f == NUM_E8M0 && !isnan(x) && (x <= 0 || x == INFINITY))
        return sat ? (x > 0 ? 0xFE : 0x00) : 0xFF;
    if (isnan(x)) return sat ? 0 : t->nan;
    bool neg = signbit(x) != 0;
    double a = fabs(x);
    int at = neg ? -tail : tail;  /* the tail's direction in magnitude */
    if (isinf(x)) {
        if (sat || (!t->inf && !t->has_nan)) return signed_code(f, t, neg, (uint32_t)max_code(t));
        return t->inf ? signed_code(f, t, neg, t->inf) : t->nan;
    }
    if (a < t->e[0].v || (a == t->e[0].v && at < 0)) return t->e[0].code;  /* e8m0: nothing lower */
    if (a > t->beyond) return ovf(f, t, neg, rm, sat);
    /* Callers loop over modes for one value: remember the last search. */
    static NumFormat last_f = NUM_FORMAT_COUNT;
    static double last_a = -1;
    static int last_lo;
    int lo = 0, hi = t->n - 1;  /* largest index with value <= a */
    if (f == last_f && a == last_a) {
        lo = last_lo;
    } else {
        while (lo < hi) {
            int mid = (lo + hi + 1) / 2;
            if (t->e[mid].v <= a) lo = mid;
            else hi = mid - 1;
        }
        last_f = f;
        last_a = a;
        last_lo = lo;
    }
    int cmp;
    if (t->e[lo].v == a) {
        if (at == 0) return signed_code(f, t, neg, t->e[lo].code);
        if (at < 0) lo--;  /* just below a code: between the previous one and it */
        cmp = at < 0 ? 1 : -1;
    } else {
        double mid = (t->e[lo].v + ref_value_at(f, lo + 1)) / 2;
        cmp = a < mid ? -1 : a > mid ? 1 : at;
    }
    bool past_end = lo + 1 == t->n;
    uint32_t above_code = past_end ? t->beyond_code : t->e[lo + 1].code;
    if (!choose_up(rm, neg, cmp, above_code)) return signed_code(f, t, neg, t->e[lo].code);
    if (past_end) return ovf(f, t, neg, rm, sat);
    return signed_code(f, t, neg, above_code);
}

uint64_t ref_encode(NumFormat f, double x, NumRound rm, bool sat)
{
    return ref_encode_tail(f, x, 0, rm, sat);
}

double ref_round_integral(double x, NumRound rm)
{
    if (!isfinite(x) || floor(x) == x) return x;
    /* Compare with the midpoint rather than subtract: x - floor(x) can round (x = -0.5 + 2^-54). */
    double fl = floor(x), ce = ceil(x), mid = fl + 0.5, r;
    bool fl_even = fmod(fl, 2.0) == 0;
    switch (rm) {
    case NUM_RND_R: r = x < mid ? fl : x > mid ? ce : (fl_even ? fl : ce); break;
    case NUM_RND_A: r = x < mid ? fl : x > mid ? ce : (x < 0 ? fl : ce); break;
    case NUM_RND_F: r = fl; break;
    case NUM_RND_C: r = ce; break;
    case NUM_RND_Z: r = x < 0 ? ce : fl; break;
    default: r = fl_even ? ce : fl; break;
    }
    return r == 0 ? copysign(0.0, x) : r;
}

uint64_t ref_to_int(double x, NumRound rm, unsigned width, bool is_signed, bool sat)
{
    uint64_t mask = width == 64 ? ~(uint64_t)0 : ((uint64_t)1 << width) - 1;
    double top = ldexp(1.0, is_signed ? (int)width - 1 : (int)width);  /* first value too big */
    double bottom = is_signed ? -top : 0.0;                            /* smallest allowed */
    uint64_t max_bits = is_signed ? mask >> 1 : mask;
    uint64_t min_bits = is_signed ? ((mask >> 1) + 1) & mask : 0;
    if (isnan(x)) return 0;
    if (isinf(x)) return x > 0 ? max_bits : min_bits;
    double r = ref_round_integral(x, rm);
    if (sat) {
        if (r >= top) return max_bits;
        if (r < bottom) return min_bits;
    }
    uint64_t m = (uint64_t)fmod(fabs(r), ldexp(1.0, 64));
    return (r < 0 ? 0 - m : m) & mask;
}

static uint64_t ref_f32_sign(bool neg, float v)
{
    return neg ? f32_bits_of(v) | 0x80000000u : f32_bits_of(v);
}

static uint64_t from_int_f32(bool neg, uint64_t u, NumRound rm)
{
    float c = (float)u, lo, hi;  /* host conversion, default round-to-nearest */
    if (c != 0x1p64f && (uint64_t)c == u) return ref_f32_sign(neg, c);
    if (c != 0x1p64f && (uint64_t)c < u) {
        lo = c;
        hi = nextafterf(c, INFINITY);
    } else {
        hi = c;
        lo = nextafterf(c, 0.0f);
    }
    uint64_t d_lo = u - (uint64_t)lo;
    uint64_t d_hi = hi == 0x1p64f ? 0 - u : (uint64_t)hi - u;
    int cmp = d_lo < d_hi ? -1 : d_lo > d_hi ? 1 : 0;  /* against the midpoint, in integers */
    return ref_f32_sign(neg, choose_up(rm, neg, cmp, f32_bits_of(hi)) ? hi : lo);
}

uint64_t ref_from_int(uint64_t value, unsigned width, bool is_signed, NumFormat to, NumRound rm)
{
    uint64_t mask = width == 64 ? ~(uint64_t)0 : ((uint64_t)1 << width) - 1;
    uint64_t v = value & mask;
    bool neg = is_signed && (v >> (width - 1)) != 0;
    uint64_t u = neg ? (0 - v) & mask : v;
    if (to == NUM_F32) return from_int_f32(neg, u, rm);
    /* Beyond 2^20 every table format but bf16 and e8m0 has overflowed, whatever the digits;
     * tests keep those two below it. */
    double d = u > (1u << 20) ? ldexp(1.0, 21) : (double)u;
    return ref_encode(to, neg ? -d : d, rm, false);
}
