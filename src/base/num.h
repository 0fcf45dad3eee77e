/* num.h — exact numerics for the PTO value types: conversions between every float format the ISA
 * names (f64/f32/f16/bf16, fp8 e4m3fn/e5m2, hif8, fp4 e2m1/e1m2, e8m0) and integers, with every
 * rounding mode and saturation, plus correctly rounded + - * / sqrt in f32 and narrower.
 *
 * Everything is integer arithmetic on bit patterns: results never depend on the host FPU's
 * rounding mode, flush-to-zero setting or NaN propagation. Subnormals are kept everywhere.
 * Values travel as raw bit patterns right-aligned in a uint64_t; bits above the format's width
 * are ignored on input and zero on output.
 *
 * Choices for points the spec leaves open (to be copied into the semantics document):
 *  - NaN: every NaN that num_convert or num_arith produces is the destination's canonical NaN
 *    (num_canonical_nan); input payloads and NaN signs are not propagated. num_round_integral
 *    alone returns NaN inputs untouched, as vtrc passes them through (Q27).
 *  - Round to odd (NUM_RND_O): an exact value is kept; otherwise, of the two representable
 *    neighbours that bracket it, the one whose code has its lowest bit set. Beyond the largest
 *    finite value it gives the largest finite value (as IEEE round-to-odd does for f16/f32).
 *  - Ties under NUM_RND_R go to the neighbour with the even code. In IEEE-style formats that is
 *    the even significand; in hif8 and e8m0 it is literally the even code byte.
 *  - sat=true: NaN -> +0, +-inf and overflow -> +-largest finite, in every destination format
 *    (callers wanting "f32 keeps inf/NaN under sat" pass sat=false for f32 destinations).
 *  - sat=false overflow follows IEEE 754 per mode (R, A -> inf; Z, O -> max; F -> max or -inf;
 *    C -> inf or -max). A format without inf gives its NaN instead (e4m3fn, e8m0), and a format
 *    with neither (fp4) gives +-max. inf input: inf, else NaN, else +-max likewise.
 *  - NaN into fp4 (no NaN code) gives +0 with or without sat.
 *  - hif8 has a single zero (0x00): -0 and negative values that round to zero give 0x00.
 *  - e8m0 (2^(b-127), unsigned, no zero): positive values below 2^-127 give 0x00 in every mode.
 *    NaN, zeros, negative values and +inf give 0xFF without sat; with sat everything out of
 *    range clamps: NaN, zeros and negatives to 0x00, +inf and overflow to 0xFE.
 */
#ifndef PTOSIM_NUM_H
#define PTOSIM_NUM_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef enum {
    NUM_RND_R, /* nearest, ties to even */
    NUM_RND_A, /* nearest, ties away from zero */
    NUM_RND_F, /* toward -inf */
    NUM_RND_C, /* toward +inf */
    NUM_RND_Z, /* toward zero */
    NUM_RND_O  /* round to odd */
} NumRound;

typedef enum {
    NUM_F32, NUM_F16, NUM_BF16, NUM_E4M3FN, NUM_E5M2, NUM_HIF8,
    NUM_F4E2M1, NUM_F4E1M2, NUM_E8M0, NUM_F64,
    NUM_FORMAT_COUNT
} NumFormat;

typedef enum { NUM_OP_ADD, NUM_OP_SUB, NUM_OP_MUL, NUM_OP_DIV, NUM_OP_SQRT } NumOp;

/* Width of a format's encoding in bits (4, 8, 16, 32 or 64). */
unsigned num_format_bits(NumFormat f);

/* Value of format `from` rounded once to format `to` (rules in the header comment). */
uint64_t num_convert(NumFormat from, uint64_t bits, NumFormat to, NumRound rm, bool sat);

/* Float -> integer of `width` bits (1..64; anything else is treated as 64), rounded by `rm`.
 * Result: the two's-complement pattern in the low `width` bits, upper bits zero.
 * sat=true: clamp to the signed/unsigned range; NaN -> 0.
 * sat=false: the rounded value modulo 2^width; NaN -> 0; +-inf clamp as with sat. */
uint64_t num_to_int(NumFormat from, uint64_t bits, NumRound rm, unsigned width, bool is_signed,
                    bool sat);

/* Integer (low `width` bits of `value`, sign-extended if is_signed; width as for num_to_int)
 * -> float, rounded by `rm`. Overflow (narrow destinations only) follows the sat=false rules. */
uint64_t num_from_int(uint64_t value, unsigned width, bool is_signed, NumFormat to, NumRound rm);

/* Round to an integral value in the same format (vtrc), any of the six modes (O: the odd
 * neighbouring integer when inexact). Zero keeps its sign; inf and NaN come back unchanged. */
uint64_t num_round_integral(NumFormat f, uint64_t bits, NumRound rm);

/* Correctly rounded a op b (b ignored for sqrt) in format f, IEEE 754 special cases, sat=false
 * overflow rules, canonical NaN results. Every format except NUM_F64 (which gives NaN). */
uint64_t num_arith(NumFormat f, NumOp op, uint64_t a, uint64_t b, NumRound rm);
/* Correctly rounded fused a * b + c (one rounding) in format f, with num_arith's special-case rules
   (inf * 0 and inf - inf give the canonical NaN; an exact zero sum is +0, or -0 under NUM_RND_F).
   Every format except NUM_F64. */
uint64_t num_fma(NumFormat f, uint64_t a, uint64_t b, uint64_t c, NumRound rm);

/* The host float or double with these bits, and back (inline: hot loops use them). */
static inline float num_bits_to_f32(uint32_t b) { float f; memcpy(&f, &b, sizeof f); return f; }
static inline uint32_t num_f32_to_bits(float f) { uint32_t b; memcpy(&b, &f, sizeof b); return b; }
static inline double num_bits_to_f64(uint64_t b) { double d; memcpy(&d, &b, sizeof d); return d; }
static inline uint64_t num_f64_to_bits(double d) { uint64_t b; memcpy(&b, &d, sizeof b); return b; }

/* num_arith(NUM_F32, op, a, b, NUM_RND_R) through the host's binary64 arithmetic (the hot paths' lane
 * function): the operands are exact in a double, and + - * / sqrt computed there and rounded once to f32 are
 * correctly rounded (53 >= 2*24 + 2 makes the double rounding innocuous); a NaN result becomes the canonical
 * NaN. Relies on the default environment the API entry points install (round to nearest, no flush to zero).
 * tests/unit/test_num.c checks it against num_arith bit for bit. */
static inline uint32_t num_f32_arith_rn(NumOp op, uint32_t a, uint32_t b)
{
    double x = (double)num_bits_to_f32(a), y = (double)num_bits_to_f32(b), r;
    switch (op) {
    case NUM_OP_ADD: r = x + y; break;
    case NUM_OP_SUB: r = x - y; break;
    case NUM_OP_MUL: r = x * y; break;
    case NUM_OP_DIV: r = x / y; break;
    default: r = x >= 0 || x != x ? __builtin_sqrt(x) : __builtin_nan(""); break;   /* sqrt(-0) = -0 */
    }
    float f = (float)r;
    return f != f ? 0x7FC00000u : num_f32_to_bits(f);
}

bool num_is_nan(NumFormat f, uint64_t bits);
bool num_is_inf(NumFormat f, uint64_t bits);
/* f32 0x7FC00000, f16 0x7E00, bf16 0x7FC0, e4m3fn 0x7F, e5m2 0x7E, hif8 0x80, e8m0 0xFF,
 * f64 0x7FF8000000000000; fp4 has no NaN and returns 0 (+0, what a NaN converts to). */
uint64_t num_canonical_nan(NumFormat f);

#endif
