// One kernel per case, declared with the AICORE macro as the tile system tests do.
#include <stdint.h>

#ifndef AICORE
#define AICORE [aicore]
#endif

extern "C" __global__ AICORE void vadd_n1024(__gm__ int32_t *a, __gm__ int32_t *b, __gm__ int32_t *c);
void LaunchVadd_n1024(int32_t *a, int32_t *b, int32_t *c, void *stream) {
  vadd_n1024<<<1, nullptr, stream>>>((__gm__ int32_t *)a, (__gm__ int32_t *)b, (__gm__ int32_t *)c);
}

extern "C" __global__ AICORE void vadd_n512(__gm__ int32_t *a, __gm__ int32_t *b, __gm__ int32_t *c);
void LaunchVadd_n512(int32_t *a, int32_t *b, int32_t *c, void *stream) {
  vadd_n512<<<1, nullptr, stream>>>((__gm__ int32_t *)a, (__gm__ int32_t *)b, (__gm__ int32_t *)c);
}
