/* elem.c — element kinds of types, and their spellings (elem.def). */
#include "elem.h"
#include <string.h>

ElemKind elem_kind(const Type *t)
{
    if (!t) return EK_BAD;
    if (t->kind == TY_INT) {
#define ELEM_INT(id, name, signless, bits_, sg)                                                                   \
        if (t->bits == (bits_) && (t->sign != SIGN_U) == (sg)) return EK_##id;
#include "elem.def"
#undef ELEM_INT
        return EK_BAD;
    }
    if (t->kind != TY_FLOAT) return EK_BAD;
    switch ((FloatKind)t->fk) {
#define ELEM_FLOAT(fk, ek, name, spell, bits, fmt) case FK_##fk: return EK_##ek;
#define FLOAT_TWIN(fk, ek, spell, bits, fmt) case FK_##fk: return EK_##ek;
#include "elem.def"
#undef ELEM_FLOAT
#undef FLOAT_TWIN
    default: return EK_BAD;
    }
}

NumFormat fk_format(FloatKind fk)
{
    static const NumFormat m[FK__COUNT] = {
#define ELEM_FLOAT(fk, ek, name, spell, bits, fmt) fmt,
#define SCALAR_FLOAT(fk, spell, bits, fmt) fmt,
#define FLOAT_TWIN(fk, ek, spell, bits, fmt) fmt,
#include "elem.def"
#undef ELEM_FLOAT
#undef SCALAR_FLOAT
#undef FLOAT_TWIN
    };
    return (unsigned)fk < FK__COUNT ? m[fk] : NUM_F32;
}

static const struct { const char *name, *signless; } names[EK__COUNT + 1] = {
#define ELEM_INT(id, name, signless, bits, sign) {name, signless},
#define ELEM_FLOAT(fk, ek, name, spell, bits, fmt) {name, NULL},
#include "elem.def"
#undef ELEM_INT
#undef ELEM_FLOAT
    {"?", NULL}};

const char *ek_name(ElemKind k) { return names[k].name; }

int ek_lookup(const char *s, unsigned n)
{
    for (int k = 0; k < EK__COUNT; k++)
        if ((strlen(names[k].name) == n && memcmp(names[k].name, s, n) == 0) ||
            (names[k].signless && strlen(names[k].signless) == n && memcmp(names[k].signless, s, n) == 0))
            return k;
    return -1;
}
