/* acl/acl.h — the part of the device runtime's interface that case host programs call, for ptosim's
 * stand-in runtime (ptosim_runtime.cpp): device memory is host memory, streams and devices are tokens. */
#pragma once
#include <stddef.h>
#include <stdint.h>
typedef uint16_t aclFloat16;   /* the runtime's half type: 16 raw bits */
typedef int aclError;
typedef void *aclrtStream;
enum { ACL_SUCCESS = 0, ACL_ERROR_FAILURE = 1 };
typedef enum { ACL_MEMCPY_HOST_TO_HOST, ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST,
               ACL_MEMCPY_DEVICE_TO_DEVICE } aclrtMemcpyKind;
typedef enum { ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_HUGE_ONLY, ACL_MEM_MALLOC_NORMAL_ONLY }
  aclrtMemMallocPolicy;
aclError aclInit(const char *);
aclError aclFinalize(void);
const char *aclGetRecentErrMsg(void);
aclError aclrtSetDevice(int);
aclError aclrtResetDevice(int);
aclError aclrtCreateStream(aclrtStream *);
aclError aclrtDestroyStream(aclrtStream);
aclError aclrtSynchronizeStream(aclrtStream);
aclError aclrtMalloc(void **, size_t, aclrtMemMallocPolicy);
aclError aclrtMallocHost(void **, size_t);
aclError aclrtFree(void *);
aclError aclrtFreeHost(void *);
aclError aclrtMemcpy(void *, size_t, const void *, size_t, aclrtMemcpyKind);
aclError aclrtMemset(void *, size_t, int, size_t);
