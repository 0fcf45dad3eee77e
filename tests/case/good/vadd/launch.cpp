// The kernel's declaration and its launch: one block.
#include <stdint.h>

extern "C" __global__ [aicore] void vadd(__gm__ int32_t *x, __gm__ int32_t *y, __gm__ int32_t *z);

void LaunchVadd(int32_t *x, int32_t *y, int32_t *z, void *stream) {
  vadd<<<1, nullptr, stream>>>((__gm__ int32_t *)x, (__gm__ int32_t *)y, (__gm__ int32_t *)z);
}
