/* simt_math.c — the element operations of the SIMT scalar math ops on f16, bf16 and f32 bit patterns
 * (docs/semantics.md, "SIMT"). Where the chapter defines the result exactly (abs, sqrt, fma, ceil, floor,
 * min, max, add) it is computed with the exact numerics of base/num.h. exp, log and pow are evaluated in
 * binary64 by the code below — only IEEE basic operations, floor, fabs, frexp and ldexp, all exact or correctly
 * rounded, so no host libm is involved — with a relative error below 2^-50, then rounded once to the
 * element format. sin and cos follow the compiler's software implementation step by step in f32. Every
 * NaN result is the format's canonical NaN (absf alone clears the sign bit of whatever it gets). */
#include "simt_int.h"
#include <math.h>

static double to_d(NumFormat f, uint64_t v) { return num_bits_to_f64(num_convert(f, v, NUM_F64, NUM_RND_R, false)); }
static uint64_t from_d(NumFormat f, double d) { return num_convert(NUM_F64, num_f64_to_bits(d), f, NUM_RND_R, false); }
static uint64_t sign_bit(NumFormat f) { return 1ull << (num_format_bits(f) - 1); }

/* ------------------------------------------------------------------ binary64 exp, log, pow */

static const double LN2_HI = 6.93147180369123816490e-01;   /* upper 32 bits of ln 2: k * LN2_HI is exact */
static const double LN2_LO = 1.90821492927058770002e-10;   /* ln 2 - LN2_HI */
static const double INV_LN2 = 1.44269504088896338700e+00;

/* e^x: x = k ln2 + r with |r| <= ln2/2 (Cody-Waite), e^r by its Taylor series to r^20/20!. */
static double d_exp(double x)
{
    if (x != x) return x;
    if (x > 709.0) return HUGE_VAL;
    if (x < -745.5) return 0.0;
    double k = floor(x * INV_LN2 + 0.5);
    double r = (x - k * LN2_HI) - k * LN2_LO;
    double s = 1.0;
    for (int n = 20; n >= 1; n--) s = 1.0 + s * r / n;
    return ldexp(s, (int)k);
}

/* ln x = e ln2 + ln m with m in [sqrt(1/2), sqrt(2)); ln m = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172,
   by its series to s^29. */
static double d_log(double x)
{
    if (x != x) return x;
    if (x < 0) return NAN;
    if (x == 0) return -HUGE_VAL;
    if (x == HUGE_VAL) return x;
    int e;
    double m = frexp(x, &e);
    if (m < 0.70710678118654752440) {
        m *= 2;
        e--;
    }
    double s = (m - 1) / (m + 1), s2 = s * s, t = 0;
    for (int n = 29; n >= 3; n -= 2) t = (t + 1.0 / n) * s2;
    double lm = 2 * s + 2 * s * t;
    return (e * LN2_HI + lm) + e * LN2_LO;
}

static bool is_int_d(double y) { return floor(y) == y; }
static bool is_odd_d(double y) { double h = y * 0.5; return is_int_d(y) && fabs(y) < 9007199254740992.0 && floor(h) != h; }

/* pow with the IEEE 754 / C99 special cases; x^y = e^(y ln|x|) otherwise. */
static double d_pow(double x, double y)
{
    if (y == 0 || x == 1) return 1.0;
    if (x != x || y != y) return NAN;
    if (x == 0) {
        bool odd = is_odd_d(y);
        if (y < 0) return odd ? copysign(HUGE_VAL, x) : HUGE_VAL;
        return odd ? x : 0.0;
    }
    if (isinf(y)) {
        double ax = fabs(x);
        if (ax == 1) return 1.0;
        return (ax < 1) == (y < 0) ? HUGE_VAL : 0.0;
    }
    if (isinf(x)) {
        bool odd = is_odd_d(y), neg = x < 0;
        double r = y < 0 ? 0.0 : HUGE_VAL;
        return neg && odd ? -r : r;
    }
    if (x < 0 && !is_int_d(y)) return NAN;
    double r = d_exp(y * d_log(fabs(x)));
    return x < 0 && is_odd_d(y) ? -r : r;
}

/* ------------------------------------------------------------------ f32 sin and cos (software reading) */

static uint64_t fadd(uint64_t a, uint64_t b) { return num_arith(NUM_F32, NUM_OP_ADD, a, b, NUM_RND_R); }
static uint64_t fsub(uint64_t a, uint64_t b) { return num_arith(NUM_F32, NUM_OP_SUB, a, b, NUM_RND_R); }
static uint64_t fmul(uint64_t a, uint64_t b) { return num_arith(NUM_F32, NUM_OP_MUL, a, b, NUM_RND_R); }
static uint64_t ffma(uint64_t a, uint64_t b, uint64_t c) { return num_fma(NUM_F32, a, b, c, NUM_RND_R); }
static uint64_t fconst(double d) { return from_d(NUM_F32, d); }
static bool feq(uint64_t a, uint64_t b) { return !num_is_nan(NUM_F32, a) && to_d(NUM_F32, a) == to_d(NUM_F32, b); }
static bool flt(uint64_t a, uint64_t b) { return !num_is_nan(NUM_F32, a) && to_d(NUM_F32, a) < to_d(NUM_F32, b); }
static uint64_t fround(uint64_t a) { return num_round_integral(NUM_F32, a, NUM_RND_A); }

/* Polynomials in x2 = x * x, Horner with fused steps; coefficients are the Taylor ones rounded to f32. */
static uint64_t sin_poly(uint64_t x2)
{
    static const double c[] = {-1.0 / 6227020800.0, 1.0 / 39916800.0, -1.0 / 362880.0, 1.0 / 5040.0, -1.0 / 120.0,
                               1.0 / 6.0};
    uint64_t p = fconst(c[0]);
    for (unsigned i = 1; i < sizeof c / sizeof c[0]; i++) p = ffma(p, x2, fconst(c[i]));
    return p;
}

static uint64_t cos_poly(uint64_t x2)
{
    static const double c[] = {-1.0 / 87178291200.0, 1.0 / 479001600.0, -1.0 / 3628800.0, 1.0 / 40320.0,
                               -1.0 / 720.0, 1.0 / 24.0, -1.0 / 2.0, 1.0};
    uint64_t p = fconst(c[0]);
    for (unsigned i = 1; i < sizeof c / sizeof c[0]; i++) p = ffma(p, x2, fconst(c[i]));
    return p;
}

/* sin (cos when want_cos) of an f32: nearest-quadrant reduction to [-pi/4, pi/4], both polynomials, the
   quadrant selecting sin, cos or their negations. */
static uint64_t f32_sincos(uint64_t v, bool want_cos)
{
    uint64_t q = fround(fmul(v, fconst(0.6366197723675814)));
    uint64_t x = fsub(v, fmul(q, fconst(1.5707963267948966)));
    uint64_t quad = fsub(q, fmul(fconst(4.0), fround(fmul(q, fconst(0.25)))));
    if (flt(quad, 0)) quad = fadd(quad, fconst(4.0));
    uint64_t x2 = fmul(x, x);
    uint64_t s = fsub(x, fmul(fmul(x, x2), sin_poly(x2))), c = cos_poly(x2);
    uint64_t ns = fsub(0, s), nc = fsub(0, c);
    uint64_t r;
    if (!want_cos) r = feq(quad, fconst(1)) ? c : feq(quad, fconst(2)) ? ns : feq(quad, fconst(3)) ? nc : s;
    else r = feq(quad, fconst(1)) ? ns : feq(quad, fconst(2)) ? nc : feq(quad, fconst(3)) ? s : c;
    return r;
}

/* ------------------------------------------------------------------ the element operations */

/* IEEE minNum/maxNum: a NaN operand yields the other operand; -0 orders below +0. */
static uint64_t minmax(NumFormat f, uint64_t a, uint64_t b, bool want_max)
{
    bool an = num_is_nan(f, a), bn = num_is_nan(f, b);
    if (an && bn) return num_canonical_nan(f);
    if (an) return b;
    if (bn) return a;
    double da = to_d(f, a), db = to_d(f, b);
    if (da == db) {
        bool aneg = (a & sign_bit(f)) != 0;
        return want_max ? (aneg ? b : a) : (aneg ? a : b);
    }
    return (want_max ? da > db : da < db) ? a : b;
}

static uint64_t canon(NumFormat f, uint64_t r) { return num_is_nan(f, r) ? num_canonical_nan(f) : r; }

uint64_t simt_math(SimtMath op, NumFormat f, uint64_t a, uint64_t b, uint64_t c)
{
    switch (op) {
    case SM_ABS: return a & ~sign_bit(f);
    case SM_SQRT: return num_arith(f, NUM_OP_SQRT, a, 0, NUM_RND_R);
    case SM_ADD: return num_arith(f, NUM_OP_ADD, a, b, NUM_RND_R);
    case SM_SUB: return num_arith(f, NUM_OP_SUB, a, b, NUM_RND_R);
    case SM_FMA: return num_fma(f, a, b, c, NUM_RND_R);
    case SM_MIN: return minmax(f, a, b, false);
    case SM_MAX: return minmax(f, a, b, true);
    case SM_CEIL: return canon(f, num_round_integral(f, a, NUM_RND_C));
    case SM_FLOOR: return canon(f, num_round_integral(f, a, NUM_RND_F));
    case SM_RINT: return canon(f, num_round_integral(f, a, NUM_RND_R));
    case SM_ROUND: return canon(f, num_round_integral(f, a, NUM_RND_A));
    case SM_EXP: return canon(f, from_d(f, d_exp(to_d(f, a))));
    case SM_LOG: return canon(f, from_d(f, d_log(to_d(f, a))));
    case SM_POW: return canon(f, from_d(f, d_pow(to_d(f, a), to_d(f, b))));
    case SM_SIN: case SM_COS: return canon(f, f32_sincos(a, op == SM_COS));
    }
    return num_canonical_nan(f);
}
