/* host.h — what the simulator may ask of the host CPU. On x86-64 with GCC or Clang the hot vector
 * handlers are also built for AVX2 and chosen at lowering when the host has it (same semantics; only
 * the host vector width differs). */
#ifndef PTOSIM_HOST_H
#define PTOSIM_HOST_H
#include <stdbool.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HOST_HAVE_AVX2 1
#else
#define HOST_HAVE_AVX2 0
#endif

static inline bool host_avx2(void)
{
#if HOST_HAVE_AVX2
    return __builtin_cpu_supports("avx2") != 0;
#else
    return false;
#endif
}
#endif
