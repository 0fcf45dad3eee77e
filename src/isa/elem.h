/* elem.h — element kinds: the one list of the scalar element types that vector lanes, cube tiles and
 * the verifier's type matrices distinguish. Signless integers count as signed (docs/semantics.md §1);
 * the f4 kinds are the two-per-byte x2 containers. */
#ifndef PTOSIM_ELEM_H
#define PTOSIM_ELEM_H
#include <stdbool.h>
#include <stdint.h>
#include "base/bits.h"
#include "base/num.h"
#include "type.h"

typedef enum {
    EK_S8, EK_U8, EK_S16, EK_U16, EK_S32, EK_U32, EK_S64, EK_U64,
    EK_F16, EK_BF16, EK_F32,
    EK_E4M3, EK_E5M2, EK_HIF8, EK_F4E2M1, EK_F4E1M2, EK_E8M0,
    EK_BAD,
    EK__COUNT = EK_BAD
} ElemKind;

/* Sets of element kinds, one bit per kind (the op table's TYPES rows and the verifier use them). */
#define EK(b) (1u << EK_##b)
#define ES_I8 (EK(S8) | EK(U8))
#define ES_I16 (EK(S16) | EK(U16))
#define ES_I32 (EK(S32) | EK(U32))
#define ES_I64 (EK(S64) | EK(U64))
#define ES_I8_32 (ES_I8 | ES_I16 | ES_I32)               /* "i8-i32" */
#define ES_INT (ES_I8_32 | ES_I64)                      /* "all integer types" */
#define ES_FH (EK(F16) | EK(F32))                       /* "f16, f32" */
#define ES_FB (EK(F16) | EK(BF16) | EK(F32))            /* "f16, bf16, f32" */
#define ES_FP8 (EK(E4M3) | EK(E5M2) | EK(HIF8) | EK(F4E2M1) | EK(F4E1M2) | EK(E8M0))
#define ES_ANY (ES_INT | ES_FB | ES_FP8)

/* Kind of a scalar or element type (integers of 8..64 bits, the float kinds above); EK_BAD otherwise
   (i1, index, f64, non-scalars). */
ElemKind elem_kind(const Type *t);
/* "si8", "f16", ... ("?" for EK_BAD). */
const char *ek_name(ElemKind k);

static inline bool ek_int(ElemKind k) { return k <= EK_U64; }
static inline bool ek_signed(ElemKind k) { return k <= EK_U64 && (k & 1) == 0; }
static inline bool ek_float(ElemKind k) { return k >= EK_F16 && k < EK_BAD; }
/* f16, bf16, f32: the kinds element-wise float arithmetic accepts */
static inline bool ek_arith_float(ElemKind k) { return k == EK_F16 || k == EK_BF16 || k == EK_F32; }
static inline bool ek_packed4(ElemKind k) { return k == EK_F4E2M1 || k == EK_F4E1M2; }
static inline unsigned ek_bytes(ElemKind k)
{
    static const uint8_t b[] = {1, 1, 2, 2, 4, 4, 8, 8, 2, 2, 4, 1, 1, 1, 1, 1, 1, 0};
    return b[k];
}
static inline unsigned ek_bits(ElemKind k) { return ek_bytes(k) * 8; }
/* The exact-numerics format of a float kind (NUM_F32 for integers: callers check ek_float first). */
static inline NumFormat ek_fmt(ElemKind k)
{
    static const uint8_t f[] = {NUM_F32, NUM_F32, NUM_F32, NUM_F32, NUM_F32, NUM_F32, NUM_F32, NUM_F32,
                                NUM_F16, NUM_BF16, NUM_F32, NUM_E4M3FN, NUM_E5M2, NUM_HIF8, NUM_F4E2M1, NUM_F4E1M2,
                                NUM_E8M0, NUM_F32};
    return (NumFormat)f[k];
}
static inline uint64_t ek_mask(ElemKind k) { return bits_mask(ek_bits(k)); }
static inline int64_t ek_sext(ElemKind k, uint64_t v) { return bits_sext(v, ek_bits(k)); }
#endif
