/* bits.h — integer bit-field helpers shared by every layer: width masks and sign extension of the
 * low `w` bits of a 64-bit container (values of narrow integer types live zero-extended in 64 bits). */
#ifndef PTOSIM_BITS_H
#define PTOSIM_BITS_H
#include <stdint.h>

/* The low w bits set (w >= 64: all; w must not be negative). */
static inline uint64_t bits_mask(int64_t w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

/* The low w bits of v as a two's-complement number (w <= 0 or w >= 64: v itself). */
static inline int64_t bits_sext(uint64_t v, int64_t w)
{
    if (w <= 0 || w >= 64) return (int64_t)v;
    uint64_t m = 1ull << (w - 1);
    v &= (m << 1) - 1;
    return (int64_t)((v ^ m) - m);
}
#endif
