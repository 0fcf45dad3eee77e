// Host program with a table of cases, as the tile system tests write it: each case launches its own kernel
// and reads and writes the files of its subdirectory.
#include "acl/acl.h"
#include "test_common.h"
#include <cstdio>
#include <cstring>
#include <string>

using namespace PtoTestCommon;

void LaunchVadd_n1024(int32_t *a, int32_t *b, int32_t *c, void *stream);
void LaunchVadd_n512(int32_t *a, int32_t *b, int32_t *c, void *stream);

struct TestCase { const char *name; void (*launch)(int32_t *, int32_t *, int32_t *, void *); size_t n; };
static const TestCase kCases[] = {{"n1024", LaunchVadd_n1024, 1024}, {"n512", LaunchVadd_n512, 512}};

static int RunCase(const TestCase &tc, aclrtStream stream) {
  size_t bytes = tc.n * sizeof(int32_t), got = 0;
  std::string dir = std::string("./") + tc.name;
  void *ah, *bh, *ch, *ad, *bd, *cd;
  aclrtMallocHost(&ah, bytes);
  aclrtMallocHost(&bh, bytes);
  aclrtMallocHost(&ch, bytes);
  aclrtMalloc(&ad, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&bd, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&cd, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  if (!ReadFile(dir + "/input1.bin", got, ah, bytes) || !ReadFile(dir + "/input2.bin", got, bh, bytes)) return 1;
  aclrtMemcpy(ad, bytes, ah, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(bd, bytes, bh, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  tc.launch((int32_t *)ad, (int32_t *)bd, (int32_t *)cd, stream);
  aclrtSynchronizeStream(stream);
  aclrtMemcpy(ch, bytes, cd, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
  int rc = WriteFile(dir + "/output.bin", ch, bytes) ? 0 : 1;
  aclrtFree(ad); aclrtFree(bd); aclrtFree(cd);
  aclrtFreeHost(ah); aclrtFreeHost(bh); aclrtFreeHost(ch);
  return rc;
}

int main(int argc, char **argv) {
  aclInit(nullptr);
  aclrtSetDevice(0);
  aclrtStream stream;
  aclrtCreateStream(&stream);
  int rc = 0;
  for (const TestCase &tc : kCases)
    if ((argc < 2 || !std::strcmp(argv[1], tc.name)) && RunCase(tc, stream)) rc = 1;
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return rc;
}
