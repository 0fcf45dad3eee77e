/* test_common.h — the file helpers case host programs include (PtoTestCommon::ReadFile / WriteFile). */
#pragma once
#include <stddef.h>
#include <stdio.h>
#include <string>
namespace PtoTestCommon {
inline bool ReadFile(const std::string &path, size_t &size, void *buf, size_t cap) {
  FILE *f = fopen(path.c_str(), "rb");
  if (!f) return false;
  size_t n = fread(buf, 1, cap, f);
  int more = fgetc(f) != EOF;
  fclose(f);
  if (n == 0 || more) return false;
  size = n;
  return true;
}
inline bool WriteFile(const std::string &path, const void *buf, size_t size) {
  if (!buf) return false;
  FILE *f = fopen(path.c_str(), "wb");
  if (!f) return false;
  size_t n = fwrite(buf, 1, size, f);
  return fclose(f) == 0 && n == size;
}
}
