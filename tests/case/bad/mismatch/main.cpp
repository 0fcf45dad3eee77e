// Host program of the vadd case, as a device host program is written: device buffers, copies in, the launch,
// a stream synchronisation, the copy out, the output file.
#include "acl/acl.h"
#include "test_common.h"
#include <cstdio>

void LaunchVadd(int32_t *x, int32_t *y, int32_t *z, void *stream);

int main() {
  const size_t bytes = 1024 * sizeof(int32_t);
  aclInit(nullptr);
  aclrtSetDevice(0);
  aclrtStream stream;
  aclrtCreateStream(&stream);
  void *xh, *yh, *zh, *xd, *yd, *zd;
  aclrtMallocHost(&xh, bytes);
  aclrtMallocHost(&yh, bytes);
  aclrtMallocHost(&zh, bytes);
  aclrtMalloc(&xd, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&yd, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&zd, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  size_t n = 0;
  if (!PtoTestCommon::ReadFile("x.bin", n, xh, bytes) || !PtoTestCommon::ReadFile("y.bin", n, yh, bytes)) {
    std::fprintf(stderr, "cannot read the inputs\n");
    return 1;
  }
  aclrtMemcpy(xd, bytes, xh, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(yd, bytes, yh, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  LaunchVadd((int32_t *)xd, (int32_t *)yd, (int32_t *)zd, stream);
  aclrtSynchronizeStream(stream);
  aclrtMemcpy(zh, bytes, zd, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
  if (!PtoTestCommon::WriteFile("z.bin", zh, bytes)) return 1;
  aclrtFree(xd); aclrtFree(yd); aclrtFree(zd);
  aclrtFreeHost(xh); aclrtFreeHost(yh); aclrtFreeHost(zh);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
