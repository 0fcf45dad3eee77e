/* elem.c — element kinds of types, and their spellings. */
#include "elem.h"

ElemKind elem_kind(const Type *t)
{
    if (!t) return EK_BAD;
    if (t->kind == TY_INT) {
        int u = t->sign == SIGN_U;
        switch (t->bits) {
        case 8: return u ? EK_U8 : EK_S8;
        case 16: return u ? EK_U16 : EK_S16;
        case 32: return u ? EK_U32 : EK_S32;
        case 64: return u ? EK_U64 : EK_S64;
        default: return EK_BAD;
        }
    }
    if (t->kind != TY_FLOAT) return EK_BAD;
    switch ((FloatKind)t->fk) {
    case FK_F16: return EK_F16;
    case FK_BF16: return EK_BF16;
    case FK_F32: return EK_F32;
    case FK_E4M3FN: return EK_E4M3;
    case FK_E5M2: return EK_E5M2;
    case FK_HIF8: return EK_HIF8;
    case FK_F4E2M1X2: return EK_F4E2M1;
    case FK_F4E1M2X2: return EK_F4E1M2;
    case FK_E8M0: return EK_E8M0;
    default: return EK_BAD;
    }
}

const char *ek_name(ElemKind k)
{
    static const char *const n[] = {"si8", "ui8", "si16", "ui16", "si32", "ui32", "si64", "ui64", "f16", "bf16",
                                    "f32", "f8E4M3FN", "f8E5M2", "hif8", "f4E2M1x2", "f4E1M2x2", "f8E8M0", "?"};
    return n[k];
}
