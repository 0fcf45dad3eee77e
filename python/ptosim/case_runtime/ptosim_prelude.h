/* ptosim_prelude.h — included before a case's host program (ptosim case): the device-code keywords of a
 * kernel declaration compile as host C++, the element types a host program names, and the calls a rewritten
 * launch.cpp makes to hand each kernel launch to `ptosim run`. */
#pragma once
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#define __global__
#define __gm__
#define __aicore__
typedef _Float16 half;
#define __fp16 _Float16
struct bfloat16_t {
  uint16_t bits;
  bfloat16_t() : bits(0) {}
  bfloat16_t(float f) { uint32_t u; memcpy(&u, &f, 4);
    bits = (u & 0x7fffffffu) > 0x7f800000u ? (uint16_t)((u >> 16) | 0x40u)
                                           : (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16); }
  operator float() const { uint32_t u = (uint32_t)bits << 16; float f; memcpy(&f, &u, 4); return f; }
};
#ifndef __CCE_AICORE__
typedef struct { unsigned char v; } hifloat8_t;
typedef struct { unsigned char v; } float8_e4m3_t;
typedef struct { unsigned char v; } float8_e5m2_t;
typedef struct { unsigned char v; } float8_e8m0_t;
typedef struct { unsigned char v; } float4_e1m2x2_t;
typedef struct { unsigned char v; } float4_e2m1x2_t;
#define __CCE_AICORE_TYPES_DEFINED 1
#endif
#ifdef __cplusplus
#include <type_traits>
void ptosim_blocks(long long n);
void ptosim_arg_ptr(const void *p);
void ptosim_arg_int(long long v, int is_signed, int is_bool);
void ptosim_arg_float(double v);
/* a kernel parameter the host program's declaration leaves out (a pointer: a zeroed 64-byte buffer, else 0) */
void ptosim_arg_absent(int is_ptr);
void ptosim_exec(const char *kernel);
template <class T> inline void ptosim_arg(T *p) { ptosim_arg_ptr((const void *)p); }
template <class T> inline typename std::enable_if<std::is_integral<T>::value || std::is_enum<T>::value>::type
ptosim_arg(T v) { ptosim_arg_int((long long)v, std::is_signed<T>::value, std::is_same<T, bool>::value); }
inline void ptosim_arg(float v) { ptosim_arg_float(v); }
inline void ptosim_arg(double v) { ptosim_arg_float(v); }
inline void ptosim_arg(_Float16 v) { ptosim_arg_float((float)v); }
inline void ptosim_arg(bfloat16_t v) { ptosim_arg_float((float)v); }
/* an argument of an integer kernel parameter: a float passes its bits, as the C calling convention does */
template <class T> inline void ptosim_arg_ibits(T v) { ptosim_arg(v); }
inline void ptosim_arg_ibits(float v) { unsigned int b; __builtin_memcpy(&b, &v, sizeof b); ptosim_arg_int((long long)b, 0, 0); }
inline void ptosim_arg_ibits(double v) { unsigned long long b; __builtin_memcpy(&b, &v, sizeof b); ptosim_arg_int((long long)b, 0, 0); }
inline void ptosim_arg_ibits(_Float16 v) { unsigned short b; __builtin_memcpy(&b, &v, sizeof b); ptosim_arg_int((long long)b, 0, 0); }
inline void ptosim_arg_ibits(bfloat16_t v) { ptosim_arg_int((long long)v.bits, 0, 0); }
#endif
