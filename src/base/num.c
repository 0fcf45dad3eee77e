/* num.c — exact conversions and narrow-float arithmetic (API and the reading of open spec points
 * in num.h).
 *
 * Every value is first decoded into one exact intermediate (class, sign, binary exponent,
 * normalised 64-bit significand). Every format's significand fits in 64 bits, so decoding never
 * loses anything; the only rounding happens once, in encode(), which splits the exact value at the
 * destination's quantum (the weight of the last significand bit at that magnitude) and picks one
 * of the two bracketing candidates by mode. Arithmetic builds the same intermediate with a sticky
 * bit folded into the lowest significand bit, far below any destination's rounding point.
 */
#include "num.h"

#include <string.h>

typedef enum { X_ZERO, X_FINITE, X_INF, X_NAN } XClass;

/* value = sig * 2^(exp - 63); bit 63 of sig is set when cls == X_FINITE. */
typedef struct {
    XClass cls;
    bool neg;
    int exp;
    uint64_t sig;
} Exact;

/* IEEE: sign | exponent | fraction with implicit bit and subnormals. The other two kinds have
 * irregular layouts handled by their own code. */
typedef enum { K_IEEE, K_HIF8, K_E8M0 } FmtKind;

typedef struct {
    FmtKind kind;
    unsigned width;    /* bits in the encoding */
    int prec;          /* significand bits including the implicit one (K_IEEE) */
    int emin;          /* exponent of the lowest normal binade (K_IEEE) */
    uint64_t max_mag;  /* magnitude code of the largest finite value */
    uint64_t inf_mag;  /* magnitude code of inf, 0 if the format has none */
    uint64_t nan;      /* canonical NaN, 0 if the format has none */
    bool has_nan;
} Fmt;

static const Fmt FMT[NUM_FORMAT_COUNT] = {
    [NUM_F32]    = {K_IEEE, 32, 24, -126, 0x7F7FFFFFu, 0x7F800000u, 0x7FC00000u, true},
    [NUM_F16]    = {K_IEEE, 16, 11, -14, 0x7BFF, 0x7C00, 0x7E00, true},
    [NUM_BF16]   = {K_IEEE, 16, 8, -126, 0x7F7F, 0x7F80, 0x7FC0, true},
    [NUM_E4M3FN] = {K_IEEE, 8, 4, -6, 0x7E, 0, 0x7F, true},
    [NUM_E5M2]   = {K_IEEE, 8, 3, -14, 0x7B, 0x7C, 0x7E, true},
    [NUM_HIF8]   = {K_HIF8, 8, 4, -22, 0x6E, 0x6F, 0x80, true},
    [NUM_F4E2M1] = {K_IEEE, 4, 2, 0, 0x7, 0, 0, false},
    [NUM_F4E1M2] = {K_IEEE, 4, 3, 0, 0x7, 0, 0, false},
    [NUM_E8M0]   = {K_E8M0, 8, 1, -127, 0xFE, 0, 0xFF, true},
    [NUM_F64]    = {K_IEEE, 64, 53, -1022, 0x7FEFFFFFFFFFFFFFull, 0x7FF0000000000000ull,
                    0x7FF8000000000000ull, true},
};

static const Fmt *fmt_of(NumFormat f)
{
    /* An out-of-range enum would index past the table; f32 is as good a fallback as any. */
    return (unsigned)f < NUM_FORMAT_COUNT ? &FMT[f] : &FMT[NUM_F32];
}

static uint64_t low_mask(unsigned width)
{
    return width >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << width) - 1;
}

static int bit_length(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return v ? 64 - __builtin_clzll(v) : 0;
#else
    int n = 0;
    for (int step = 32; step > 0; step >>= 1)
        if (v >> step) {
            v >>= step;
            n += step;
        }
    return n + (int)v;
#endif
}

static Exact exact_special(XClass cls, bool neg)
{
    Exact x = {cls, neg, 0, 0};
    return x;
}

/* The exact value (-1)^neg * m * 2^q. */
static Exact exact_from_int(bool neg, uint64_t m, int q)
{
    if (m == 0) return exact_special(X_ZERO, neg);
    int n = bit_length(m);
    Exact x = {X_FINITE, neg, q + n - 1, m << (64 - n)};
    return x;
}

/* Decoding */

static Exact decode_ieee(const Fmt *f, uint64_t bits)
{
    uint64_t sign = (uint64_t)1 << (f->width - 1);
    bool neg = (bits & sign) != 0;
    uint64_t mag = bits & (sign - 1);
    if (mag > f->max_mag)
        return exact_special(f->inf_mag && mag == f->inf_mag ? X_INF : X_NAN, neg);
    unsigned fbits = (unsigned)f->prec - 1;
    uint64_t efield = mag >> fbits;
    uint64_t m = mag & low_mask(fbits);
    int qmin = f->emin - (int)fbits;
    if (efield == 0) return exact_from_int(neg, m, qmin);
    return exact_from_int(neg, m | (uint64_t)1 << fbits, qmin + (int)efield - 1);
}

/* hif8 per resolutions §2.4: bits 6..3 select (exponent width, mantissa width) by prefix code;
 * the exponent field is sign-magnitude with its top bit as sign and an implicit 1 in that place. */
static Exact decode_hif8(uint64_t bits)
{
    bool neg = (bits & 0x80) != 0;
    unsigned mag = (unsigned)(bits & 0x7F);
    if (mag == 0) return exact_special(neg ? X_NAN : X_ZERO, false);
    if (mag == 0x6F) return exact_special(X_INF, neg);
    unsigned dot = mag >> 3;
    if (dot == 0) return exact_from_int(neg, 1, (int)(mag & 7) - 23);
    unsigned ew, mw;
    if (dot >= 12)     { ew = 4; mw = 1; }
    else if (dot >= 8) { ew = 3; mw = 2; }
    else if (dot >= 4) { ew = 2; mw = 3; }
    else if (dot >= 2) { ew = 1; mw = 3; }
    else               { ew = 0; mw = 3; }
    unsigned m = mag & ((1u << mw) - 1);
    int e = 0;
    if (ew) {
        unsigned field = (mag >> mw) & ((1u << ew) - 1);
        unsigned top = 1u << (ew - 1);
        int magnitude = (int)(field | top);
        e = (field & top) ? -magnitude : magnitude;
    }
    return exact_from_int(neg, (1u << mw) | m, e - (int)mw);
}

static Exact decode(NumFormat nf, uint64_t bits)
{
    const Fmt *f = fmt_of(nf);
    bits &= low_mask(f->width);
    switch (f->kind) {
    case K_HIF8: return decode_hif8(bits);
    case K_E8M0:
        if (bits == 0xFF) return exact_special(X_NAN, false);
        return exact_from_int(false, 1, (int)bits - 127);
    case K_IEEE: break;
    }
    return decode_ieee(f, bits);
}

/* Rounding */

/* |x| / 2^q as an integer part m plus where the dropped fraction sits relative to one half
 * (half < 0 below, 0 exactly, > 0 above). Callers guarantee m fits: x->exp - q <= 63. */
typedef struct {
    uint64_t m;
    int half;
    bool exact;
} Split;

static Split split_at(const Exact *x, int q)
{
    Split s = {0, -1, false};
    int sh = q - x->exp + 63;
    if (sh <= 0) {
        s.m = x->sig;
        s.exact = true;
    } else if (sh < 64) {
        uint64_t rem = x->sig & low_mask((unsigned)sh);
        uint64_t half = (uint64_t)1 << (sh - 1);
        s.m = x->sig >> sh;
        s.exact = rem == 0;
        s.half = rem < half ? -1 : rem > half ? 1 : 0;
    } else if (sh == 64) {
        /* sig has bit 63 set, so |x| is at least half a quantum. */
        s.half = x->sig == (uint64_t)1 << 63 ? 0 : 1;
    }
    return s;
}

/* Whether an inexact value goes to the upper candidate. Ties and round-to-odd look only at the
 * lower candidate's code: the two bracketing codes always differ in parity (consecutive codes in
 * the IEEE formats and e8m0; in hif8 the top of each binade has an all-ones mantissa and the next
 * power of two a zero one, and the subnormal codes 0x00..0x07 are consecutive). */
static bool pick_upper(NumRound rm, bool neg, int half, uint64_t code_lo)
{
    switch (rm) {
    case NUM_RND_R: return half > 0 || (half == 0 && (code_lo & 1));
    case NUM_RND_A: return half >= 0;
    case NUM_RND_F: return neg;
    case NUM_RND_C: return !neg;
    case NUM_RND_Z: return false;
    case NUM_RND_O: return (code_lo & 1) == 0;
    }
    return false;
}

static uint64_t with_sign(const Fmt *f, bool neg, uint64_t mag)
{
    if (!neg) return mag;
    if (f->kind == K_HIF8) return mag ? (mag | 0x80) : 0;  /* hif8 has no -0 */
    return mag | (uint64_t)1 << (f->width - 1);
}

static uint64_t result_overflow(const Fmt *f, bool neg, NumRound rm, bool sat)
{
    bool to_inf = !sat && (rm == NUM_RND_R || rm == NUM_RND_A || (rm == NUM_RND_C && !neg) ||
                           (rm == NUM_RND_F && neg));
    if (to_inf && f->inf_mag) return with_sign(f, neg, f->inf_mag);
    if (to_inf && f->has_nan) return f->nan;
    return with_sign(f, neg, f->max_mag);
}

static uint64_t result_inf(const Fmt *f, bool neg, bool sat)
{
    if (!sat && f->inf_mag) return with_sign(f, neg, f->inf_mag);
    if (!sat && f->has_nan) return f->nan;
    return with_sign(f, neg, f->max_mag);
}

/* hif8 mantissa width for a binade exponent (values at or beyond 2^16 only matter as overflow). */
static int hif8_mw(int e)
{
    int a = e < 0 ? -e : e;
    return a <= 3 ? 3 : a <= 7 ? 2 : 1;
}

/* Weight exponent of the last significand bit for values in binade [2^e, 2^(e+1)). */
static int quantum(const Fmt *f, int e)
{
    switch (f->kind) {
    case K_HIF8:
        if (e >= -15) return e - hif8_mw(e);
        return e >= -22 ? e : -22;
    case K_E8M0:
        return e;
    case K_IEEE: break;
    }
    return (e > f->emin ? e : f->emin) - (f->prec - 1);
}

/* Magnitude code of m * 2^q, where q is a quantum of the binade being rounded and m <= 2^prec
 * (m == 2^prec means rounding carried into the next binade). *ovf: beyond the largest finite
 * value; the code returned then still has the parity the next code would have. */
static uint64_t cand_code(const Fmt *f, uint64_t m, int q, bool *ovf)
{
    *ovf = false;
    if (m == 0) return 0;
    if (f->kind == K_IEEE) {
        unsigned fbits = (unsigned)f->prec - 1;
        int d = q - (f->emin - (int)fbits);  /* biased exponent - 1, >= 0 by construction */
        if (d > (int)(f->max_mag >> fbits)) {
            *ovf = true;
            return m;
        }
        /* Normal codes are ((e - emin + 1) << fbits) + (m - 2^fbits): the implicit bit adds into
         * the exponent field, which also makes a carry into the next binade come out right. */
        uint64_t code = ((uint64_t)d << fbits) + m;
        *ovf = code > f->max_mag;
        return code;
    }
    int e = q + bit_length(m) - 1;
    if (f->kind == K_E8M0) {
        *ovf = e > 127;
        return (uint64_t)(e + 127) & 0xFF;
    }
    /* hif8 */
    if (e >= 16) {
        *ovf = true;
        return m;
    }
    if (e < -15) return (uint64_t)(e + 23);  /* subnormal powers of two 2^-22 .. 2^-16 */
    int mw = hif8_mw(e);
    int sh = q - (e - mw);
    /* A carry into a binade with fewer mantissa bits is an exact power of two: shifting right
     * drops only zeros. */
    uint64_t frac = (sh >= 0 ? m << sh : m >> -sh) - ((uint64_t)1 << mw);
    unsigned a = (unsigned)(e < 0 ? -e : e);
    unsigned es = e < 0 ? 1u : 0u;
    uint64_t code;
    if (a == 0)      code = 0x08;
    else if (a == 1) code = 0x10 | es << 3;
    else if (a <= 3) code = 0x20 | es << 4 | (a - 2) << 3;
    else if (a <= 7) code = 0x40 | es << 4 | (a - 4) << 2;
    else             code = 0x60 | es << 4 | (a - 8) << 1;
    code |= frac;
    *ovf = code == 0x6F;  /* the would-be 1.5 * 2^15 is the inf code */
    return code;
}

static uint64_t encode(NumFormat nf, const Exact *x, NumRound rm, bool sat)
{
    const Fmt *f = fmt_of(nf);
    if (f->kind == K_E8M0) {
        if (x->cls == X_NAN || x->cls == X_ZERO || x->neg) return sat ? 0x00 : 0xFF;
        if (x->cls == X_INF) return sat ? 0xFE : 0xFF;
        if (x->exp < -127) return 0x00;  /* no zero to round to */
    }
    switch (x->cls) {
    case X_NAN: return (sat || !f->has_nan) ? 0 : f->nan;
    case X_INF: return result_inf(f, x->neg, sat);
    case X_ZERO: return with_sign(f, x->neg, 0);
    case X_FINITE: break;
    }
    int q = quantum(f, x->exp);
    Split s = split_at(x, q);
    bool ovf;
    uint64_t code = cand_code(f, s.m, q, &ovf);
    if (!s.exact && !ovf && pick_upper(rm, x->neg, s.half, code))
        code = cand_code(f, s.m + 1, q, &ovf);
    if (ovf) return result_overflow(f, x->neg, rm, sat);
    return with_sign(f, x->neg, code);
}

uint64_t num_convert(NumFormat from, uint64_t bits, NumFormat to, NumRound rm, bool sat)
{
    Exact x = decode(from, bits);
    return encode(to, &x, rm, sat);
}

/* Integers */

uint64_t num_to_int(NumFormat from, uint64_t bits, NumRound rm, unsigned width, bool is_signed,
                    bool sat)
{
    if (width == 0 || width > 64) width = 64;
    uint64_t mask = low_mask(width);
    uint64_t max_pos = is_signed ? mask >> 1 : mask;
    uint64_t min_mag = is_signed ? (mask >> 1) + 1 : 0;  /* magnitude of the most negative value */
    Exact x = decode(from, bits);
    if (x.cls == X_NAN || x.cls == X_ZERO) return 0;
    if (x.cls == X_INF) return x.neg ? (0 - min_mag) & mask : max_pos;

    uint64_t m;       /* rounded magnitude, modulo 2^64 when huge */
    bool huge = false;  /* rounded magnitude >= 2^64 */
    if (x.exp >= 64) {
        huge = true;
        m = x.exp - 63 < 64 ? x.sig << (x.exp - 63) : 0;
    } else {
        Split s = split_at(&x, 0);
        m = s.m;
        /* s.m < 2^63 whenever inexact, so m + 1 cannot wrap. */
        if (!s.exact && pick_upper(rm, x.neg, s.half, m)) m++;
    }
    if (sat) {
        if (x.neg) return (huge || m > min_mag) ? (0 - min_mag) & mask : (0 - m) & mask;
        return (huge || m > max_pos) ? max_pos : m;
    }
    return (x.neg ? 0 - m : m) & mask;
}

uint64_t num_from_int(uint64_t value, unsigned width, bool is_signed, NumFormat to, NumRound rm)
{
    if (width == 0 || width > 64) width = 64;
    uint64_t v = value & low_mask(width);
    bool neg = is_signed && ((v >> (width - 1)) & 1);
    uint64_t mag = neg ? (0 - v) & low_mask(width) : v;
    Exact x = exact_from_int(neg, mag, 0);
    return encode(to, &x, rm, false);
}

uint64_t num_round_integral(NumFormat f, uint64_t bits, NumRound rm)
{
    bits &= low_mask(fmt_of(f)->width);
    Exact x = decode(f, bits);
    if (x.cls != X_FINITE || x.exp >= 63) return bits;  /* already integral, inf or NaN */
    Split s = split_at(&x, 0);
    uint64_t m = s.m;
    if (!s.exact && pick_upper(rm, x.neg, s.half, m)) m++;
    Exact r = exact_from_int(x.neg, m, 0);
    return encode(f, &r, rm, false);
}

/* Arithmetic. Operands have at most 24 significant bits (every format but f64), which is what
 * makes the 64-bit intermediates below exact or correctly sticky. */

static uint64_t shift_right_jam(uint64_t v, int n)
{
    if (n <= 0) return v;
    if (n >= 64) return v != 0;
    return (v >> n) | ((v & low_mask((unsigned)n)) != 0);
}

static Exact arith_add(const Exact *a, const Exact *b, NumRound rm)
{
    const Exact *big = a, *small = b;
    if (b->exp > a->exp) { big = b; small = a; }
    /* Two bits of headroom keep the sum below 2^64. A sticky bit appears only when the
     * alignment shift exceeds the 40 zero bits under a <= 24-bit significand; the result then
     * still has >= 60 significant bits, so the sticky sits far below any rounding point. */
    uint64_t sb = big->sig >> 2;
    uint64_t ss = shift_right_jam(small->sig >> 2, big->exp - small->exp);
    int q = big->exp - 61;
    if (big->neg == small->neg) return exact_from_int(big->neg, sb + ss, q);
    if (sb == ss) return exact_special(X_ZERO, rm == NUM_RND_F);  /* x - x is +0, or -0 under F */
    if (sb > ss) return exact_from_int(big->neg, sb - ss, q);
    return exact_from_int(small->neg, ss - sb, q);
}

static Exact arith_mul(const Exact *a, const Exact *b)
{
    /* 24 x 24 bits: the product is exact in 48. */
    return exact_from_int(a->neg != b->neg, (a->sig >> 40) * (b->sig >> 40), a->exp + b->exp - 46);
}

static Exact arith_div(const Exact *a, const Exact *b)
{
    /* 63-bit dividend over a 24-bit divisor: a quotient of >= 39 bits plus a sticky bit. */
    uint64_t n = a->sig >> 1, d = b->sig >> 40;
    uint64_t quo = n / d;
    return exact_from_int(a->neg != b->neg, quo | (n % d != 0), a->exp - b->exp - 39);
}

static Exact arith_sqrt(const Exact *a)
{
    uint64_t m = a->sig >> 40;  /* value = m * 2^q */
    int q = a->exp - 23;
    if (q & 1) { m <<= 1; q -= 1; }
    int up = (62 - bit_length(m)) & ~1;  /* even shift keeps the exponent halvable */
    m <<= up;
    q -= up;
    /* Digit-by-digit integer square root: >= 31 root bits, remainder as sticky. */
    uint64_t rem = m, root = 0, bit = (uint64_t)1 << 62;
    while (bit > rem) bit >>= 2;
    while (bit) {
        if (rem >= root + bit) {
            rem -= root + bit;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    return exact_from_int(false, root | (rem != 0), q / 2);
}

uint64_t num_arith(NumFormat f, NumOp op, uint64_t a, uint64_t b, NumRound rm)
{
    const Fmt *fm = fmt_of(f);
    uint64_t qnan = fm->has_nan ? fm->nan : 0;
    if (f == NUM_F64) return qnan;
    Exact x = decode(f, a), y = decode(f, b), r;
    if (x.cls == X_NAN || (op != NUM_OP_SQRT && y.cls == X_NAN)) return qnan;
    bool sn = x.neg != y.neg;
    switch (op) {
    case NUM_OP_SUB:
        y.neg = !y.neg;
        /* fall through */
    case NUM_OP_ADD:
        if (x.cls == X_INF && y.cls == X_INF && x.neg != y.neg) return qnan;
        if (x.cls == X_INF || y.cls == X_INF) r = x.cls == X_INF ? x : y;
        else if (x.cls == X_ZERO && y.cls == X_ZERO)
            r = exact_special(X_ZERO, x.neg == y.neg ? x.neg : rm == NUM_RND_F);
        else if (x.cls == X_ZERO) r = y;
        else if (y.cls == X_ZERO) r = x;
        else r = arith_add(&x, &y, rm);
        break;
    case NUM_OP_MUL:
        if ((x.cls == X_INF && y.cls == X_ZERO) || (x.cls == X_ZERO && y.cls == X_INF)) return qnan;
        if (x.cls == X_INF || y.cls == X_INF) r = exact_special(X_INF, sn);
        else if (x.cls == X_ZERO || y.cls == X_ZERO) r = exact_special(X_ZERO, sn);
        else r = arith_mul(&x, &y);
        break;
    case NUM_OP_DIV:
        if ((x.cls == X_INF && y.cls == X_INF) || (x.cls == X_ZERO && y.cls == X_ZERO)) return qnan;
        if (x.cls == X_INF || y.cls == X_ZERO) r = exact_special(X_INF, sn);
        else if (x.cls == X_ZERO || y.cls == X_INF) r = exact_special(X_ZERO, sn);
        else r = arith_div(&x, &y);
        break;
    case NUM_OP_SQRT:
        if (x.cls == X_ZERO) r = x;
        else if (x.neg) return qnan;
        else if (x.cls == X_INF) r = x;
        else r = arith_sqrt(&x);
        break;
    default:
        return qnan;
    }
    return encode(f, &r, rm, false);
}

/* a * b + c with one rounding: the product of two <= 24-bit significands is exact in 48 bits, which
 * arith_add's headroom argument still covers (the sum keeps >= 60 significant bits whenever a sticky bit
 * forms). */
uint64_t num_fma(NumFormat f, uint64_t a, uint64_t b, uint64_t c, NumRound rm)
{
    const Fmt *fm = fmt_of(f);
    uint64_t qnan = fm->has_nan ? fm->nan : 0;
    if (f == NUM_F64) return qnan;
    Exact x = decode(f, a), y = decode(f, b), z = decode(f, c), p, r;
    if (x.cls == X_NAN || y.cls == X_NAN || z.cls == X_NAN) return qnan;
    bool pn = x.neg != y.neg;
    if ((x.cls == X_INF && y.cls == X_ZERO) || (x.cls == X_ZERO && y.cls == X_INF)) return qnan;
    if (x.cls == X_INF || y.cls == X_INF) p = exact_special(X_INF, pn);
    else if (x.cls == X_ZERO || y.cls == X_ZERO) p = exact_special(X_ZERO, pn);
    else p = arith_mul(&x, &y);
    if (p.cls == X_INF && z.cls == X_INF && p.neg != z.neg) return qnan;
    if (p.cls == X_INF || z.cls == X_INF) r = p.cls == X_INF ? p : z;
    else if (p.cls == X_ZERO && z.cls == X_ZERO) r = exact_special(X_ZERO, p.neg == z.neg ? p.neg : rm == NUM_RND_F);
    else if (p.cls == X_ZERO) r = z;
    else if (z.cls == X_ZERO) r = p;
    else r = arith_add(&p, &z, rm);
    return encode(f, &r, rm, false);
}

/* Small helpers */

unsigned num_format_bits(NumFormat f) { return fmt_of(f)->width; }

bool num_is_nan(NumFormat f, uint64_t bits) { return decode(f, bits).cls == X_NAN; }
bool num_is_inf(NumFormat f, uint64_t bits) { return decode(f, bits).cls == X_INF; }

uint64_t num_canonical_nan(NumFormat f) { return fmt_of(f)->nan; }
