/* elem.h — element kinds: the scalar element types that vector lanes, cube tiles and the verifier's type
 * matrices distinguish, generated from the one table elem.def (names, sizes, number formats). Signless
 * integers count as signed (docs/semantics.md §1); the f4 kinds are the two-per-byte x2 containers. */
#ifndef PTOSIM_ELEM_H
#define PTOSIM_ELEM_H
#include <stdbool.h>
#include <stdint.h>
#include "base/bits.h"
#include "base/num.h"
#include "type.h"

typedef enum {
#define ELEM_INT(id, name, signless, bits, sign) EK_##id,
#define ELEM_FLOAT(fk, ek, name, spell, bits, fmt) EK_##ek,
#include "elem.def"
#undef ELEM_INT
#undef ELEM_FLOAT
    EK_BAD,
    EK__COUNT = EK_BAD
} ElemKind;

/* Sets of element kinds, one bit per kind (the op table's TYPES rows and the verifier use them). */
#define EK(b) (1u << EK_##b)
#define EK_BIT(k) (1u << (k))   /* the set of one kind k */
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
/* The number format of a float type (elem.def: its row's format; the twin f8E4M3 that of e4m3fn). */
NumFormat fk_format(FloatKind fk);
/* "si8", "f16", ... ("?" for EK_BAD). */
const char *ek_name(ElemKind k);
/* The kind an element name names (ek_name, or a signless integer "i8" ... for the signed kind), or -1. */
int ek_lookup(const char *s, unsigned n);

static inline bool ek_int(ElemKind k) { return k <= EK_U64; }
static inline bool ek_signed(ElemKind k) { return k <= EK_U64 && (k & 1) == 0; }
static inline bool ek_float(ElemKind k) { return k >= EK_F16 && k < EK_BAD; }
/* f16, bf16, f32: the kinds element-wise float arithmetic accepts */
static inline bool ek_arith_float(ElemKind k) { return k == EK_F16 || k == EK_BF16 || k == EK_F32; }
static inline bool ek_packed4(ElemKind k) { return k == EK_F4E2M1 || k == EK_F4E1M2; }
static inline unsigned ek_bytes(ElemKind k)
{
    static const uint8_t b[EK__COUNT + 1] = {
#define ELEM_INT(id, name, signless, bits, sign) (bits) / 8,
#define ELEM_FLOAT(fk, ek, name, spell, bits, fmt) (bits) / 8,
#include "elem.def"
#undef ELEM_INT
#undef ELEM_FLOAT
        0};
    return b[k];
}
static inline unsigned ek_bits(ElemKind k) { return ek_bytes(k) * 8; }
/* The exact-numerics format of a float kind (NUM_F32 for integers: callers check ek_float first). */
static inline NumFormat ek_fmt(ElemKind k)
{
    static const uint8_t f[EK__COUNT + 1] = {
#define ELEM_INT(id, name, signless, bits, sign) NUM_F32,
#define ELEM_FLOAT(fk, ek, name, spell, bits, fmt) fmt,
#include "elem.def"
#undef ELEM_INT
#undef ELEM_FLOAT
        NUM_F32};
    return (NumFormat)f[k];
}
static inline uint64_t ek_mask(ElemKind k) { return bits_mask(ek_bits(k)); }
static inline int64_t ek_sext(ElemKind k, uint64_t v) { return bits_sext(v, ek_bits(k)); }
#endif
