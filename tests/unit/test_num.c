/* test_num.c — checks src/num.c against the independent oracle in ref_num.c (table search over
 * decoded values, floor/ceil in double, host float arithmetic where it is exact or correctly
 * rounded, error-free transformations for the rest) and against hand-computed values from resolutions.md. Exhaustive over every f16, bf16,
 * fp8, hif8 and fp4 code; sampled for f32 and f64.
 * Build: cc -Isrc tests/unit/test_num.c tests/unit/ref_num.c src/num.c -lm */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/num.h"
#include "check.h"
#include "ref_num.h"

static const char RM_NAME[] = "RAFCZO";
static const char *const FMT_NAME[NUM_FORMAT_COUNT] = {
    "f32", "f16", "bf16", "e4m3fn", "e5m2", "hif8", "f4e2m1", "f4e1m2", "e8m0", "f64",
};
static const NumFormat TABLE_FMTS[] = {
    NUM_F16, NUM_BF16, NUM_E4M3FN, NUM_E5M2, NUM_HIF8, NUM_F4E2M1, NUM_F4E1M2, NUM_E8M0,
};
#define N_TABLE_FMTS (sizeof TABLE_FMTS / sizeof TABLE_FMTS[0])

/* One check. `what` is a printf format for the label, its arguments follow `sat`; it is only
 * formatted on failure, which keeps the 10^8 passing checks cheap. */
static void eq(uint64_t got, uint64_t want, const char *what, uint64_t in, int rm, int sat, ...)
{
    if (got == want) {
        check_pass();
        return;
    }
    if (!check_fail_shown()) return;
    char label[64];
    va_list ap;
    va_start(ap, sat);
    vsnprintf(label, sizeof label, what, ap);
    va_end(ap);
    printf("FAIL %s in=0x%llx rm=%c sat=%d: got 0x%llx want 0x%llx\n", label, (unsigned long long)in,
           rm >= 0 ? RM_NAME[rm] : '-', sat, (unsigned long long)got, (unsigned long long)want);
}

static uint32_t f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static float bits_f32(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static uint64_t f64_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static double bits_f64(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* The f32 pattern num.c should give for the exact value v (canonical NaN; sat per Q26). */
static uint32_t want_f32(double v, bool sat)
{
    if (isnan(v)) return sat ? 0 : 0x7FC00000u;
    if (isinf(v) && sat) return v > 0 ? 0x7F7FFFFFu : 0xFF7FFFFFu;
    return f32_bits((float)v);
}

static uint64_t want_f64(double v, bool sat)
{
    if (isnan(v)) return sat ? 0 : 0x7FF8000000000000ull;
    if (isinf(v) && sat) return f64_bits(v > 0 ? 1.7976931348623157e308 : -1.7976931348623157e308);
    return f64_bits(v);
}

static uint64_t xs_state = 0x9E3779B97F4A7C15ull;

static uint64_t xorshift(void)
{
    xs_state ^= xs_state << 13;
    xs_state ^= xs_state >> 7;
    xs_state ^= xs_state << 17;
    return xs_state;
}

/* An f32 pattern: fully random half the time, otherwise with the exponent drawn from
 * [lo_exp, hi_exp] (biased field) so narrow formats see their own range. */
static uint32_t rand_f32(int lo_exp, int hi_exp)
{
    uint64_t r = xorshift();
    uint32_t b = (uint32_t)r;
    if ((r >> 32) & 1) return b;
    uint32_t span = (uint32_t)(hi_exp - lo_exp + 1);
    uint32_t e = (uint32_t)lo_exp + (uint32_t)((r >> 33) % span);
    return (b & 0x807FFFFFu) | e << 23;
}

/* Checks f32 pattern b -> each of fmts, every mode, sat on and off. */
static void check_f32_to_table(uint32_t b, const NumFormat *fmts, size_t nf)
{
    double v = bits_f32(b);
    for (size_t i = 0; i < nf; i++)
        for (int rm = 0; rm < 6; rm++)
            for (int sat = 0; sat < 2; sat++)
                eq(num_convert(NUM_F32, b, fmts[i], (NumRound)rm, sat),
                   ref_encode(fmts[i], v, (NumRound)rm, sat), "%s", b, rm, sat, FMT_NAME[fmts[i]]);
}

/* Hand-computed values from resolutions.md §2.4, Q26, Q27 (no oracle involved). */
static void test_spot(void)
{
    const NumRound R = NUM_RND_R;
    uint32_t f448 = f32_bits(448.0f), f1000 = f32_bits(1000.0f), inf = 0x7F800000u;
    eq(num_convert(NUM_F32, f448, NUM_E4M3FN, R, true), 0x7E, "e4m3 max 448", f448, 0, 1);
    eq(num_convert(NUM_F32, f1000, NUM_E4M3FN, R, true), 0x7E, "e4m3 sat 1000", f1000, 0, 1);
    eq(num_convert(NUM_F32, f1000, NUM_E4M3FN, R, false), 0x7F, "e4m3 nosat 1000 -> NaN", f1000, 0, 0);
    eq(num_convert(NUM_F32, inf | 0x80000000u, NUM_E4M3FN, R, true), 0xFE, "e4m3 sat -inf", inf, 0, 1);
    eq(num_convert(NUM_E4M3FN, 0x7E, NUM_F32, R, false), f448, "e4m3 0x7E", 0x7E, 0, 0);
    eq(num_convert(NUM_E4M3FN, 0x01, NUM_F32, R, false), f32_bits(0x1p-9f), "e4m3 min sub", 1, 0, 0);
    eq(num_convert(NUM_E4M3FN, 0xFF, NUM_F32, R, false), 0x7FC00000u, "e4m3 0xFF NaN", 0xFF, 0, 0);
    eq(num_convert(NUM_F32, f32_bits(57344.0f), NUM_E5M2, R, true), 0x7B, "e5m2 max", 57344, 0, 1);
    eq(num_convert(NUM_F32, inf, NUM_E5M2, R, true), 0x7B, "e5m2 sat inf", inf, 0, 1);
    eq(num_convert(NUM_F32, inf, NUM_E5M2, R, false), 0x7C, "e5m2 inf", inf, 0, 0);
    eq(num_convert(NUM_E5M2, 0x01, NUM_F32, R, false), f32_bits(0x1p-16f), "e5m2 min sub", 1, 0, 0);
    eq(num_convert(NUM_F32, f32_bits(70000.0f), NUM_F16, R, true), 0x7BFF, "f16 sat 70000", 70000, 0, 1);
    eq(num_convert(NUM_F32, f32_bits(-70000.0f), NUM_F16, R, true), 0xFBFF, "f16 sat -70000", 70000, 0, 1);
    eq(num_convert(NUM_F32, f32_bits(70000.0f), NUM_F16, R, false), 0x7C00, "f16 nosat 70000", 70000, 0, 0);
    eq(num_convert(NUM_F32, 0x7FC00000u, NUM_F16, R, true), 0x0000, "f16 sat NaN -> +0", 0, 0, 1);
    eq(num_convert(NUM_F32, 0xFFC00001u, NUM_F16, R, false), 0x7E00, "f16 NaN canonical", 0, 0, 0);
    eq(num_convert(NUM_F32, f32_bits(65519.0f), NUM_F16, R, false), 0x7BFF, "f16 65519", 0, 0, 0);
    eq(num_convert(NUM_F32, f32_bits(65520.0f), NUM_F16, R, false), 0x7C00, "f16 65520", 0, 0, 0);
    eq(num_convert(NUM_F32, f32_bits(0x1p-25f), NUM_F16, R, false), 0x0000, "f16 tie to 0", 0, 0, 0);
    eq(num_convert(NUM_F32, f32_bits(0x1.8p-25f), NUM_F16, R, false), 0x0001, "f16 min sub", 0, 0, 0);
    eq(num_convert(NUM_F32, 0x3F808000u, NUM_BF16, R, false), 0x3F80, "bf16 tie even", 0, 0, 0);
    eq(num_convert(NUM_F32, 0x3F818000u, NUM_BF16, R, false), 0x3F82, "bf16 tie odd", 0, 0, 0);
    /* hif8 decode rules, one code per dot class */
    static const struct { uint8_t code; float v; } H[] = {
        {0x00, 0.0f}, {0x01, 0x1p-22f}, {0x07, 0x1p-16f}, {0x08, 1.0f}, {0x0F, 1.875f},
        {0x10, 2.0f}, {0x18, 0.5f}, {0x20, 4.0f}, {0x28, 8.0f}, {0x30, 0.25f}, {0x38, 0.125f},
        {0x40, 16.0f}, {0x4C, 128.0f}, {0x50, 0x1p-4f}, {0x5C, 0x1p-7f}, {0x60, 256.0f},
        {0x6E, 32768.0f}, {0x70, 0x1p-8f}, {0x7E, 0x1p-15f}, {0x7F, 0x1.8p-15f}, {0xC8, -64.0f}, {0xE7, -3072.0f},
    };
    for (size_t i = 0; i < sizeof H / sizeof H[0]; i++) {
        eq(num_convert(NUM_HIF8, H[i].code, NUM_F32, R, false), f32_bits(H[i].v), "hif8 decode", H[i].code, 0, 0);
        eq(num_convert(NUM_F32, f32_bits(H[i].v), NUM_HIF8, NUM_RND_A, false), H[i].code, "hif8 encode", H[i].code, 1, 0);
    }
    eq(num_convert(NUM_HIF8, 0x80, NUM_F32, R, false), 0x7FC00000u, "hif8 NaN", 0x80, 0, 0);
    eq(num_convert(NUM_HIF8, 0x6F, NUM_F32, R, false), inf, "hif8 +inf", 0x6F, 0, 0);
    eq(num_convert(NUM_HIF8, 0xEF, NUM_F32, R, false), inf | 0x80000000u, "hif8 -inf", 0xEF, 0, 0);
    eq(num_convert(NUM_F32, f32_bits(40000.0f), NUM_HIF8, R, false), 0x6E, "hif8 40000 -> max", 0, 0, 0);
    eq(num_convert(NUM_F32, f32_bits(41000.0f), NUM_HIF8, R, false), 0x6F, "hif8 41000 -> inf", 0, 0, 0);
    eq(num_convert(NUM_F32, f32_bits(41000.0f), NUM_HIF8, R, true), 0x6E, "hif8 sat", 0, 0, 1);
    eq(num_convert(NUM_F32, 0x80000000u, NUM_HIF8, R, false), 0x00, "hif8 -0", 0, 0, 0);
    /* fp4 tables and bf16 -> fp4 ties to the even code */
    static const float E2M1[8] = {0, .5f, 1, 1.5f, 2, 3, 4, 6}, E1M2[8] = {0, .25f, .5f, .75f, 1, 1.25f, 1.5f, 1.75f};
    for (unsigned c = 0; c < 16; c++) {
        float s = (c & 8) ? -1.0f : 1.0f;
        eq(num_convert(NUM_F4E2M1, c, NUM_F32, R, false), f32_bits(s * E2M1[c & 7]), "e2m1 decode", c, 0, 0);
        eq(num_convert(NUM_F4E1M2, c, NUM_F32, R, false), f32_bits(s * E1M2[c & 7]), "e1m2 decode", c, 0, 0);
    }
    static const struct { float v; uint8_t e2m1; } T[] = {
        {0.25f, 0}, {0.75f, 2}, {1.25f, 2}, {1.75f, 4}, {2.5f, 4}, {3.5f, 6}, {5.0f, 6}, {7.0f, 7}, {-5.0f, 14},
    };
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++)
        eq(num_convert(NUM_BF16, f32_bits(T[i].v) >> 16, NUM_F4E2M1, R, false), T[i].e2m1, "bf16->e2m1 tie", i, 0, 0);
    eq(num_convert(NUM_BF16, f32_bits(0.375f) >> 16, NUM_F4E1M2, R, false), 2, "bf16->e1m2 .375", 0, 0, 0);
    eq(num_convert(NUM_BF16, f32_bits(1.875f) >> 16, NUM_F4E1M2, R, false), 7, "bf16->e1m2 1.875", 0, 0, 0);
    /* e8m0 */
    eq(num_convert(NUM_E8M0, 0x7F, NUM_F32, R, false), f32_bits(1.0f), "e8m0 127", 0x7F, 0, 0);
    eq(num_convert(NUM_E8M0, 0x00, NUM_F32, R, false), 0x00400000u, "e8m0 0", 0, 0, 0);
    eq(num_convert(NUM_E8M0, 0xFE, NUM_F32, R, false), f32_bits(0x1p127f), "e8m0 254", 0xFE, 0, 0);
    eq(num_convert(NUM_E8M0, 0xFF, NUM_F32, R, false), 0x7FC00000u, "e8m0 NaN", 0xFF, 0, 0);
    /* Q27: vtrc */
    static const struct { float in; NumRound rm; float out; } V[] = {
        {-2.5f, NUM_RND_R, -2}, {2.5f, NUM_RND_R, 2}, {3.5f, NUM_RND_R, 4}, {-3.5f, NUM_RND_R, -4},
        {2.5f, NUM_RND_A, 3}, {-2.5f, NUM_RND_A, -3}, {-2.5f, NUM_RND_F, -3}, {-2.5f, NUM_RND_C, -2},
        {-2.7f, NUM_RND_Z, -2}, {2.7f, NUM_RND_Z, 2}, {-0.3f, NUM_RND_R, -0.0f}, {2.2f, NUM_RND_O, 3},
    };
    for (size_t i = 0; i < sizeof V / sizeof V[0]; i++) {
        eq(num_round_integral(NUM_F32, f32_bits(V[i].in), V[i].rm), f32_bits(V[i].out), "vtrc f32", i, (int)V[i].rm, 0);
        eq(num_round_integral(NUM_F16, num_convert(NUM_F32, f32_bits(V[i].in), NUM_F16, R, false), V[i].rm),
           num_convert(NUM_F32, f32_bits(V[i].out), NUM_F16, R, false), "vtrc f16", i, (int)V[i].rm, 0);
    }
    eq(num_round_integral(NUM_F32, 0x7FC00001u, R), 0x7FC00001u, "vtrc NaN passes", 0, 0, 0);
    eq(num_round_integral(NUM_F32, 0xFF800000u, R), 0xFF800000u, "vtrc -inf passes", 0, 0, 0);
    /* Q26: si64 -> f32 with R at the 2^24 neighbours */
    eq(num_from_int((1u << 24) + 1, 64, true, NUM_F32, R), f32_bits(0x1p24f), "si64 2^24+1", 0, 0, 0);
    eq(num_from_int((1u << 24) + 3, 64, true, NUM_F32, R), f32_bits(16777220.0f), "si64 2^24+3", 0, 0, 0);
    eq(num_from_int(0 - (uint64_t)((1u << 24) + 1), 64, true, NUM_F32, R), f32_bits(-0x1p24f), "si64 -(2^24+1)", 0, 0, 0);
    eq(num_from_int(0x8000000000000000ull, 64, true, NUM_F32, R), f32_bits(-0x1p63f), "si64 min", 0, 0, 0);
    eq(num_from_int(~0ull, 64, false, NUM_F32, R), f32_bits(0x1p64f), "u64 max", 0, 0, 0);
    eq(num_from_int(~0ull, 64, false, NUM_F32, NUM_RND_Z), 0x5F7FFFFFu, "u64 max Z", 0, 4, 0);
    eq(num_from_int(0xFFFF, 16, true, NUM_F16, R), 0xBC00, "si16 -1", 0, 0, 0);
    /* float -> int */
    eq(num_to_int(NUM_F32, f32_bits(-2.5f), R, 32, true, true), 0xFFFFFFFEu, "f32->s32 -2.5", 0, 0, 1);
    eq(num_to_int(NUM_F32, f32_bits(1e10f), R, 32, true, true), 0x7FFFFFFFu, "f32->s32 sat", 0, 0, 1);
    eq(num_to_int(NUM_F32, f32_bits(-1e10f), R, 32, true, true), 0x80000000u, "f32->s32 -sat", 0, 0, 1);
    eq(num_to_int(NUM_F32, f32_bits(300.0f), R, 8, false, true), 255, "f32->u8 sat", 0, 0, 1);
    eq(num_to_int(NUM_F32, f32_bits(300.0f), R, 8, false, false), 44, "f32->u8 wrap", 0, 0, 0);
    eq(num_to_int(NUM_F32, f32_bits(-1.0f), R, 8, false, true), 0, "f32->u8 -1 sat", 0, 0, 1);
    eq(num_to_int(NUM_F32, f32_bits(-1.0f), R, 8, false, false), 0xFF, "f32->u8 -1 wrap", 0, 0, 0);
    eq(num_to_int(NUM_F32, 0x7FC00000u, R, 16, true, false), 0, "NaN->0", 0, 0, 0);
    eq(num_to_int(NUM_F32, 0xFF800000u, R, 64, true, false), 0x8000000000000000ull, "-inf->s64", 0, 0, 0);
    /* arithmetic corner cases (Q §2.5) */
    eq(num_arith(NUM_F16, NUM_OP_DIV, 0, 0, R), 0x7E00, "f16 0/0", 0, 0, 0);
    eq(num_arith(NUM_F16, NUM_OP_DIV, 0x3C00, 0x7C00, R), 0, "f16 1/inf", 0, 0, 0);
    eq(num_arith(NUM_F16, NUM_OP_DIV, 0x7C00, 0x3C00, R), 0x7C00, "f16 inf/1", 0, 0, 0);
    eq(num_arith(NUM_F16, NUM_OP_DIV, 0xBC00, 0x0000, R), 0xFC00, "f16 -1/0", 0, 0, 0);
    eq(num_arith(NUM_F16, NUM_OP_ADD, 0x3C00, 0xBC00, NUM_RND_F), 0x8000, "f16 1-1 F", 0, 2, 0);
    eq(num_arith(NUM_F16, NUM_OP_SQRT, 0x8000, 0, R), 0x8000, "f16 sqrt -0", 0, 0, 0);
    eq(num_arith(NUM_BF16, NUM_OP_MUL, 0x3FC0, 0x3FC0, R), 0x4010, "bf16 1.5*1.5", 0, 0, 0);
    /* helpers */
    static const uint64_t NANS[NUM_FORMAT_COUNT] = {
        0x7FC00000u, 0x7E00, 0x7FC0, 0x7F, 0x7E, 0x80, 0, 0, 0xFF, 0x7FF8000000000000ull,
    };
    for (int f = 0; f < NUM_FORMAT_COUNT; f++) {
        eq(num_canonical_nan((NumFormat)f), NANS[f], "canonical nan", (uint64_t)f, -1, 0);
        bool fp4 = f == NUM_F4E2M1 || f == NUM_F4E1M2;
        eq(num_is_nan((NumFormat)f, NANS[f]), fp4 ? 0u : 1u, "is_nan(canonical)", (uint64_t)f, -1, 0);
    }
    eq(num_convert(NUM_F16, 0xABCD3C00u, NUM_F32, R, false), f32_bits(1.0f), "high bits ignored", 0, 0, 0);
    eq(num_format_bits(NUM_F4E1M2), 4, "format bits", 0, -1, 0);
}

/* Every code of every table format: decode to f32/f64, and to every table format both directly
 * and through f32, every mode, sat on/off. For f16 and bf16 this is the "to f32 and back"
 * exhaustive check; for the narrow formats it covers all cross conversions. */
static void test_codes_exhaustive(void)
{
    for (size_t s = 0; s < N_TABLE_FMTS; s++) {
        NumFormat src = TABLE_FMTS[s];
        uint32_t ncodes = 1u << num_format_bits(src);
        for (uint32_t c = 0; c < ncodes; c++) {
            double v = ref_decode(src, c);
            eq(num_is_nan(src, c), isnan(v) ? 1u : 0u, "is_nan", c, -1, 0);
            uint32_t b32 = want_f32(v, false);
            eq(num_convert(src, c, NUM_F32, NUM_RND_R, false), b32, "decode->f32", c, 0, 0);
            eq(num_convert(src, c, NUM_F32, NUM_RND_Z, true), want_f32(v, true), "decode->f32 sat", c, 4, 1);
            eq(num_convert(src, c, NUM_F64, NUM_RND_R, false), want_f64(v, false), "decode->f64", c, 0, 0);
            eq(num_convert(src, c, NUM_F64, NUM_RND_R, true), want_f64(v, true), "decode->f64 sat", c, 0, 1);
            for (size_t d = 0; d < N_TABLE_FMTS; d++) {
                NumFormat dst = TABLE_FMTS[d];
                for (int rm = 0; rm < 6; rm++)
                    for (int sat = 0; sat < 2; sat++) {
                        uint64_t want = ref_encode(dst, v, (NumRound)rm, sat);
                        eq(num_convert(src, c, dst, (NumRound)rm, sat), want, "%s->%s", c, rm, sat, FMT_NAME[src], FMT_NAME[dst]);
                        if (!isnan(v))  /* through f32, except NaN whose f32 form is canonical anyway */
                            eq(num_convert(NUM_F32, b32, dst, (NumRound)rm, sat), want, "f32->%s", b32, rm, sat, FMT_NAME[dst]);
                    }
            }
        }
    }
}

/* f32 inputs at and next to every rounding boundary of every table format: each value, each
 * midpoint between neighbours, and the f32 neighbours of both. */
static void test_boundaries(void)
{
    for (size_t i = 0; i < N_TABLE_FMTS; i++) {
        NumFormat f = TABLE_FMTS[i];
        int n = ref_count(f);
        for (int k = 0; k < n; k++) {
            float v = (float)ref_value_at(f, k);
            float mid = (float)((ref_value_at(f, k) + ref_value_at(f, k + 1)) / 2);
            const float probes[] = {
                v, nextafterf(v, INFINITY), nextafterf(v, 0), mid, nextafterf(mid, INFINITY), nextafterf(mid, 0),
            };
            for (size_t p = 0; p < sizeof probes / sizeof probes[0]; p++) {
                check_f32_to_table(f32_bits(probes[p]), &f, 1);
                check_f32_to_table(f32_bits(-probes[p]), &f, 1);
            }
        }
    }
    /* bf16 boundaries live in the low half of the f32 pattern: sweep them for every high half. */
    static const uint32_t LOWS[] = {0x0000, 0x0001, 0x7FFF, 0x8000, 0x8001, 0xFFFF};
    const NumFormat bf16 = NUM_BF16;
    for (uint32_t h = 0; h < 0x10000; h++)
        for (size_t l = 0; l < sizeof LOWS / sizeof LOWS[0]; l++) {
            uint32_t b = h << 16 | LOWS[l];
            if (isnan(bits_f32(b))) continue;  /* NaN patterns: covered below */
            check_f32_to_table(b, &bf16, 1);
        }
    static const uint32_t SPECIAL[] = {
        0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF,
        0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FBFFFFF, 0xFFFFFFFF, 0x477FE000,
        0x477FEFFF, 0x477FF000, 0x477FF001, 0x33000000, 0x33000001, 0x33800000, 0x387FC000, 0x38800000,
    };
    for (size_t i = 0; i < sizeof SPECIAL / sizeof SPECIAL[0]; i++)
        check_f32_to_table(SPECIAL[i], TABLE_FMTS, N_TABLE_FMTS);
}

static void test_random_f32(void)
{
    static const NumFormat wide[] = {NUM_F16, NUM_BF16};
    for (int i = 0; i < 2000000; i++)
        check_f32_to_table(rand_f32(127 - 30, 127 + 17), wide, 2);
    for (int i = 0; i < 200000; i++)
        check_f32_to_table(rand_f32(127 - 25, 127 + 17), TABLE_FMTS + 2, N_TABLE_FMTS - 2);
    for (int i = 0; i < 50000; i++)  /* e8m0's range */
        check_f32_to_table(rand_f32(0, 254), TABLE_FMTS + 7, 1);
}

/* f32 <-> f64 against host conversions (exact widening; narrowing in the default nearest mode). */
static void test_f64(void)
{
    for (int i = 0; i < 500000; i++) {
        uint32_t b = (uint32_t)xorshift();
        float f = bits_f32(b);
        eq(num_convert(NUM_F32, b, NUM_F64, NUM_RND_R, false), want_f64(f, false), "f32->f64", b, 0, 0);
        uint64_t r = xorshift();
        uint64_t e = 1023 - 160 + (r >> 52) % 320;  /* around the f32 range, subnormals included */
        uint64_t d = (r & 0x800FFFFFFFFFFFFFull) | e << 52;
        if (i % 4 == 0) d = r;
        double x = bits_f64(d);
        eq(num_convert(NUM_F64, d, NUM_F32, NUM_RND_R, false), want_f32((float)x, false), "f64->f32 host", d, 0, 0);
        for (int rm = 0; rm < 6; rm++)
            eq(num_convert(NUM_F64, d, NUM_F32, (NumRound)rm, i & 16), ref_encode(NUM_F32, x, (NumRound)rm, i & 16),
               "f64->f32", d, rm, (i & 16) != 0);
        for (int rm = 0; rm < 6; rm++)
            eq(num_round_integral(NUM_F64, d, (NumRound)rm), isnan(x) ? d : f64_bits(ref_round_integral(x, (NumRound)rm)),
               "vtrc f64", d, rm, 0);
        if (i % 4 == 1) {  /* f64 significand bits far below the rounding point */
            static const NumFormat to[] = {NUM_F16, NUM_BF16, NUM_E4M3FN, NUM_HIF8};
            for (size_t t = 0; t < 4; t++)
                for (int rm = 0; rm < 6; rm++)
                    eq(num_convert(NUM_F64, d, to[t], (NumRound)rm, i & 8), ref_encode(to[t], x, (NumRound)rm, i & 8),
                       "f64->%s", d, rm, (i & 8) != 0, FMT_NAME[to[t]]);
        }
    }
}

static void check_to_int(NumFormat src, uint64_t bits, double v)
{
    static const unsigned W[] = {8, 16, 32, 64};
    for (size_t w = 0; w < 4; w++)
        for (int sg = 0; sg < 2; sg++)
            for (int rm = 0; rm < 6; rm++)
                for (int sat = 0; sat < 2; sat++) {
                    eq(num_to_int(src, bits, (NumRound)rm, W[w], sg, sat),
                       ref_to_int(v, (NumRound)rm, W[w], sg, sat), "%s->%c%u", bits, rm, sat,
                       FMT_NAME[src], sg ? 's' : 'u', W[w]);
                }
}

static void test_to_int(void)
{
    for (uint32_t c = 0; c < 0x10000; c++) {
        check_to_int(NUM_F16, c, ref_decode(NUM_F16, c));
        check_to_int(NUM_BF16, c, ref_decode(NUM_BF16, c));
    }
    for (uint32_t c = 0; c < 256; c++) check_to_int(NUM_HIF8, c, ref_decode(NUM_HIF8, c));
    /* Edges: around every power of two up to 2^66, by halves, quarters and one ulp. */
    static const double D[] = {0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3};
    for (int k = -2; k <= 66; k++) {
        double p = ldexp(1.0, k);
        for (int sg = 0; sg < 2; sg++) {
            double s = sg ? -1.0 : 1.0;
            double xs[] = {p, nextafter(p, 0), nextafter(p, INFINITY), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
            size_t n = 3;
            for (size_t j = 0; j < sizeof D / sizeof D[0]; j++) {
                xs[n++] = p + D[j];
                xs[n++] = p - D[j];
            }
            for (size_t j = 0; j < n; j++) {
                double x = s * xs[j];
                check_to_int(NUM_F64, f64_bits(x), x);
                float f = (float)x;
                if ((double)f == x) check_to_int(NUM_F32, f32_bits(f), x);
            }
        }
    }
    static const double SPECIAL[] = {INFINITY, -INFINITY, NAN, 1e300, -1e300, 4.9e-324, -4.9e-324, -0.0};
    for (size_t i = 0; i < sizeof SPECIAL / sizeof SPECIAL[0]; i++) {
        double x = SPECIAL[i];
        check_to_int(NUM_F64, f64_bits(x), x);
        check_to_int(NUM_F32, f32_bits((float)x), (float)x);
    }
    for (int i = 0; i < 20000; i++) {
        uint32_t b = rand_f32(127 - 4, 127 + 66);
        check_to_int(NUM_F32, b, bits_f32(b));
    }
}

static void test_from_int(void)
{
    static const unsigned W[] = {8, 16, 32, 64};
    static const NumFormat TO[] = {NUM_F32, NUM_F16, NUM_E4M3FN, NUM_HIF8};
    for (int k = 0; k <= 64; k++) {
        for (int d = -3; d <= 3; d++) {
            uint64_t base = k == 64 ? 0 : (uint64_t)1 << k;
            uint64_t vals[] = {base + (uint64_t)(int64_t)d, 0 - (base + (uint64_t)(int64_t)d),
                               xorshift() >> (k & 63), (base - 1) & ~(xorshift() >> (k & 63))};
            for (size_t v = 0; v < 4; v++)
                for (size_t w = 0; w < 4; w++)
                    for (int sg = 0; sg < 2; sg++)
                        for (size_t t = 0; t < 4; t++)
                            for (int rm = 0; rm < 6; rm++) {
                                eq(num_from_int(vals[v], W[w], sg, TO[t], (NumRound)rm),
                                   ref_from_int(vals[v], W[w], sg, TO[t], (NumRound)rm), "%c%u->%s", vals[v],
                                   rm, 0, sg ? 's' : 'u', W[w], FMT_NAME[TO[t]]);
                            }
        }
    }
    for (int i = 0; i < 100000; i++) {
        uint64_t v = xorshift() >> (xorshift() % 64);
        for (int rm = 0; rm < 6; rm++) {
            eq(num_from_int(v, 64, true, NUM_F32, (NumRound)rm), ref_from_int(v, 64, true, NUM_F32, (NumRound)rm),
               "s64->f32", v, rm, 0);
            eq(num_from_int(v, 64, false, NUM_F32, (NumRound)rm), ref_from_int(v, 64, false, NUM_F32, (NumRound)rm),
               "u64->f32", v, rm, 0);
        }
    }
}

static void test_round_integral(void)
{
    for (size_t i = 0; i < N_TABLE_FMTS; i++) {
        NumFormat f = TABLE_FMTS[i];
        uint32_t ncodes = 1u << num_format_bits(f);
        for (uint32_t c = 0; c < ncodes; c++) {
            double v = ref_decode(f, c);
            for (int rm = 0; rm < 6; rm++) {
                uint64_t want = isfinite(v) ? ref_encode(f, ref_round_integral(v, (NumRound)rm), (NumRound)rm, false) : c;
                if (isfinite(v) && ref_round_integral(v, (NumRound)rm) == v) want = c;  /* integral: unchanged */
                eq(num_round_integral(f, c, (NumRound)rm), want, "vtrc %s", c, rm, 0, FMT_NAME[f]);
            }
        }
    }
    for (int i = 0; i < 500000; i++) {
        uint32_t b = rand_f32(127 - 3, 127 + 25);
        float x = bits_f32(b);
        for (int rm = 0; rm < 6; rm++) {
            uint32_t want = isnan(x) ? b : f32_bits((float)ref_round_integral(x, (NumRound)rm));
            eq(num_round_integral(NUM_F32, b, (NumRound)rm), want, "vtrc f32", b, rm, 0);
        }
    }
}

/* a op b as a double plus the sign of what it is missing (ref_encode_tail): + and - by TwoSum,
 * / and sqrt by the remainder from fma (exact when the quotient or root is the nearest double);
 * * is exact for every format up to f32. */
static double ref_op(NumOp op, double a, double b, NumRound rm, int *tail)
{
    double r, rem;
    *tail = 0;
    switch (op) {
    case NUM_OP_SUB: b = -b; /* fall through */
    case NUM_OP_ADD: {
        r = a + b;
        if (!isfinite(r)) return r;
        double bb = r - a;
        rem = (a - (r - bb)) + (b - bb);
        /* An exact zero sum of opposite-signed operands is -0 only when rounding toward -inf. */
        if (r == 0 && signbit(a) != signbit(b)) r = rm == NUM_RND_F ? -0.0 : 0.0;
        break;
    }
    case NUM_OP_MUL: return a * b;
    case NUM_OP_DIV:
        r = a / b;
        if (!isfinite(r) || r == 0 || !isfinite(b)) return r;
        rem = fma(-r, b, a);
        if (b < 0) rem = -rem;
        break;
    default:
        r = sqrt(a);
        if (!isfinite(r) || r == 0) return r;
        rem = fma(-r, r, a);
        break;
    }
    *tail = rem > 0 ? 1 : rem < 0 ? -1 : 0;
    return r;
}

static void check_arith(NumFormat f, NumOp op, uint64_t a, uint64_t b)
{
    static const char *const OPN[] = {"add", "sub", "mul", "div", "sqrt"};
    double x = ref_decode(f, a), y = ref_decode(f, b);
    for (int rm = 0; rm < 6; rm++) {
        int tail;
        double r = ref_op(op, x, y, (NumRound)rm, &tail);
        eq(num_arith(f, op, a, b, (NumRound)rm), ref_encode_tail(f, r, tail, (NumRound)rm, false), "%s %s b=%llx", a,
           rm, 0, FMT_NAME[f], OPN[op], (unsigned long long)b);
    }
}

static void check_arith_all(NumFormat f, uint64_t a, uint64_t b)
{
    for (int op = 0; op < 5; op++) check_arith(f, (NumOp)op, a, b);
}

static void test_arith(void)
{
    static const NumFormat small[] = {NUM_E4M3FN, NUM_E5M2, NUM_HIF8, NUM_F4E2M1, NUM_F4E1M2};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
        uint32_t n = 1u << num_format_bits(small[i]);
        for (uint32_t a = 0; a < n; a++) {
            check_arith(small[i], NUM_OP_SQRT, a, 0);
            for (uint32_t b = 0; b < n; b++)
                for (int op = 0; op < 4; op++) check_arith(small[i], (NumOp)op, a, b);
        }
    }
    for (uint32_t a = 0; a < 0x10000; a++) {
        check_arith(NUM_F16, NUM_OP_SQRT, a, 0);
        check_arith(NUM_BF16, NUM_OP_SQRT, a, 0);
    }
    for (int i = 0; i < 150000; i++) {
        uint64_t r = xorshift();
        uint32_t a = (uint32_t)r & 0xFFFF, b = (uint32_t)(r >> 16) & 0xFFFF;
        if (i & 1) b = (b & 0x83FF) | (a & 0x7C00);  /* same binade: cancellation */
        check_arith_all(NUM_F16, a, b);
        a = (uint32_t)(r >> 32) & 0xFFFF;
        b = (uint32_t)(r >> 48);
        if (i & 2) b = (b & 0x807F) | ((a + (uint32_t)(r % 7) * 0x80) & 0x7F80);
        check_arith_all(NUM_BF16, a, b);
        /* f32: near and far exponents, subnormals included */
        a = rand_f32(0, 254);
        b = rand_f32(0, 254);
        if (i & 1) b = (b & 0x807FFFFFu) | ((a + (uint32_t)(xorshift() % 64) * 0x800000u) & 0x7F800000u);
        check_arith_all(NUM_F32, a, b);
    }
    /* f32 under R against the host's own IEEE single arithmetic, a second opinion. */
    for (int i = 0; i < 300000; i++) {
        uint32_t a = rand_f32(1, 254), b = rand_f32(1, 254);
        if (i & 1) b = (b & 0x807FFFFFu) | ((a + (uint32_t)(xorshift() % 64) * 0x800000u) & 0x7F800000u);
        float x = bits_f32(a), y = bits_f32(b);
        const float res[] = {x + y, x - y, x * y, x / y, sqrtf(x)};
        static const char *const OPN[] = {"f32 add", "f32 sub", "f32 mul", "f32 div", "f32 sqrt"};
        for (int op = 0; op < 5; op++)
            eq(num_arith(NUM_F32, (NumOp)op, a, b, NUM_RND_R), want_f32(res[op], false), "%s b=%x", a, 0, 0, OPN[op], b);
    }
}

/* The hot paths' f32 lane function num_f32_arith_rn against num_arith under R, bit for bit: specials (zeros,
   infinities, NaNs with payloads, subnormals, the extremes), every pair of them, and random operands of near
   and far exponents (the fast path's differential check). */
static void test_f32_fast(void)
{
    static const uint32_t SP[] = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001,
                                  0x00000001, 0x80000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000,
                                  0xBF800000, 0x33800000, 0x4B800000, 0x3F7FFFFF, 0x00400000, 0x80400001};
    enum { NS = sizeof SP / sizeof SP[0] };
    for (int op = 0; op < 5; op++)
        for (unsigned i = 0; i < NS; i++)
            for (unsigned j = 0; j < NS; j++)
                eq(num_f32_arith_rn((NumOp)op, SP[i], SP[j]), num_arith(NUM_F32, (NumOp)op, SP[i], SP[j], NUM_RND_R),
                   "fast f32 op %d b=%x", SP[i], 0, 0, op, SP[j]);
    for (int i = 0; i < 400000; i++) {
        uint32_t a = rand_f32(0, 255), b = rand_f32(0, 255);
        if (i & 1) b = (b & 0x807FFFFFu) | ((a + (uint32_t)(xorshift() % 64) * 0x800000u) & 0x7F800000u);
        if (i & 2) a ^= 0x80000000u;
        for (int op = 0; op < 5; op++)
            eq(num_f32_arith_rn((NumOp)op, a, b), num_arith(NUM_F32, (NumOp)op, a, b, NUM_RND_R), "fast f32 op %d b=%x", a, 0,
               0, op, b);
    }
}

int main(void)
{
    if (!ref_init()) {
        printf("ref_init failed: format codes are not distinct values\n0 passed, 1 failed\n");
        return 1;
    }
    test_spot();
    test_codes_exhaustive();
    test_boundaries();
    test_random_f32();
    test_f64();
    test_to_int();
    test_from_int();
    test_round_integral();
    test_arith();
    test_f32_fast();
    return check_finish();
}
