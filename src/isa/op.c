/* op.c — the op table as data, and name lookup (canonical names and aliases). */
#include "op.h"
#include "elem.h"
#include "ptosim.h"
#include <string.h>

const OpInfo op_info[OP__COUNT] = {
#define OP(id, name, fam, pipe, syn, flags, sig) {name, fam, pipe, syn, flags, sig},
#define ALIAS(name, id)
#include "ops.def"
#undef OP
#undef ALIAS
};

static const struct { const char *name; } pipes[PIPE__COUNT] = {
#define PIPE(id, spell, queue) [queue] = {spell},
#include "pipes.def"
#undef PIPE
};

const char *pipe_name(unsigned q) { return q < PIPE__COUNT ? pipes[q].name : "?"; }

int pipe_of_token(int tok)
{
    switch (tok) {
#define PIPE(id, spell, queue) case T_PIPE_##id: return queue;
#include "pipes.def"
#undef PIPE
    default: return -1;
    }
}

static const struct { const char *name; int kind; } aliases[] = {
#define OP(id, name, fam, pipe, syn, flags, sig)
#define ALIAS(name, id) {name, OP_##id},
#include "ops.def"
#undef OP
#undef ALIAS
    {NULL, -1}
};

int op_lookup(const char *name, unsigned len)
{
    /* Linear scan: parsing is not the hot path, and the table is small. */
    for (int k = 0; k < OP__COUNT; k++)
        if (strlen(op_info[k].name) == len && memcmp(op_info[k].name, name, len) == 0) return k;
    for (int i = 0; aliases[i].name; i++)
        if (strlen(aliases[i].name) == len && memcmp(aliases[i].name, name, len) == 0) return aliases[i].kind;
    return -1;
}

static const struct { int a, b; } forms[] = {
#define OP(id, name, fam, pipe, syn, flags, sig)
#define ALIAS(name, id)
#define FORM(id, other) {OP_##id, OP_##other},
#include "ops.def"
#undef OP
#undef ALIAS
#undef FORM
    {-1, -1}
};

int op_other_form(int kind)
{
    for (int i = 0; forms[i].a >= 0; i++) {
        if (forms[i].a == kind) return forms[i].b;
        if (forms[i].b == kind) return forms[i].a;
    }
    return -1;
}

static const struct { int a, b; const char *attr; } attr_forms[] = {
#define OP(id, name, fam, pipe, syn, flags, sig)
#define ALIAS(name, id)
#define FORM_IF(id, other, attr) {OP_##id, OP_##other, attr},
#include "ops.def"
#undef OP
#undef ALIAS
#undef FORM_IF
    {-1, -1, NULL}
};

int op_attr_form(int kind, int (*has_attr)(const char *attr, void *arg), void *arg)
{
    for (int i = 0; attr_forms[i].a >= 0; i++)
        if (attr_forms[i].a == kind && has_attr(attr_forms[i].attr, arg)) return attr_forms[i].b;
    return -1;
}

static const int16_t vmi_micro[OP__COUNT] = {
#define OP(id, name, fam, pipe, syn, flags, sig)
#define ALIAS(name, id)
#define VMI(id, micro) [OP_##id] = OP_##micro + 1,
#include "ops.def"
#undef OP
#undef ALIAS
#undef VMI
};

int op_vmi_micro(int kind) { return kind >= 0 && kind < OP__COUNT ? vmi_micro[kind] - 1 : -1; }

static const uint8_t vmi_class[OP__COUNT] = {
#define OP(id, name, fam, pipe, syn, flags, sig)
#define ALIAS(name, id)
#define VCLASS(id, cls) [OP_##id] = VC_##cls,
#include "ops.def"
#undef OP
#undef ALIAS
#undef VCLASS
};

VmiClass op_vmi_class(int kind) { return kind >= 0 && kind < OP__COUNT ? (VmiClass)vmi_class[kind] : VC_NONE; }

const OpTypes op_types[OP__COUNT] = {
#define OP(id, name, fam, pipe, syn, flags, sig)
#define ALIAS(name, id)
#define TYPES(id, rel, scalar, mref, isa, sim, of) [OP_##id] = {TR_##rel, TS_SCALAR_##scalar, mref, isa, sim, of},
#include "ops.def"
#undef OP
#undef ALIAS
#undef TYPES
};

const uint8_t op_unit[OP__COUNT] = {
#define OP(id, name, fam, pipe, syn, flags, sig)
#define ALIAS(name, id)
#define UNIT(id, unit) [OP_##id] = OU_##unit,
#include "ops.def"
#undef OP
#undef ALIAS
#undef UNIT
};

const uint8_t op_align_role[OP__COUNT] = {
#define OP(id, name, fam, pipe, syn, flags, sig)
#define ALIAS(name, id)
#define ALIGN_ROLE(id, role) [OP_##id] = AL_##role,
#include "ops.def"
#undef OP
#undef ALIAS
#undef ALIGN_ROLE
};

const uint8_t op_gran[OP__COUNT] = {
#define OP(id, name, fam, pipe, syn, flags, sig)
#define ALIAS(name, id)
#define GRAN(id, bytes) [OP_##id] = bytes,
#include "ops.def"
#undef OP
#undef ALIAS
#undef GRAN
};

static const char *const op_docs[OP__COUNT] = {
#define OP(id, name, fam, pipe, syn, flags, sig)
#define ALIAS(name, id)
#define DOC(id, text) [OP_##id] = text,
#include "ops.def"
#undef OP
#undef ALIAS
#undef DOC
};

const char *op_doc(int kind)
{
    return kind >= 0 && kind < OP__COUNT ? op_docs[kind] : NULL;
}

static const struct { int op; OpHintWhen when; const char *text; } hints[] = {
#define OP(id, name, fam, pipe, syn, flags, sig)
#define ALIAS(name, id)
#define HINT(id, when, text) {OP_##id, HINT_##when, text},
#include "ops.def"
#undef OP
#undef ALIAS
#undef HINT
};

const char *op_hint(int kind, OpHintWhen when)
{
    const char *h = NULL;
    for (unsigned i = 0; i < sizeof hints / sizeof hints[0]; i++)
        if (hints[i].op == kind && (hints[i].when == when || (hints[i].when == HINT_ANY && when != HINT_LEGACY)))
            h = hints[i].text;
    return h;
}

static const struct { uint16_t op; uint8_t src, dst, status; } cvts[] = {
#define OP(id, name, fam, pipe, syn, flags, sig)
#define ALIAS(name, id)
#define CVT(id, src, dst, status) {OP_##id, EK_##src, EK_##dst, CVT_##status},
#include "ops.def"
#undef OP
#undef ALIAS
#undef CVT
};

CvtStatus op_cvt(int kind, int src, int dst)
{
    for (unsigned i = 0; i < sizeof cvts / sizeof cvts[0]; i++)
        if (cvts[i].op == kind && cvts[i].src == src && cvts[i].dst == dst) return (CvtStatus)cvts[i].status;
    return CVT_NONE;
}

static const struct { uint16_t op; uint8_t target, src, dst, status; } cvts_on[] = {
#define OP(id, name, fam, pipe, syn, flags, sig)
#define ALIAS(name, id)
#define CVT_ON(id, target, src, dst, status) {OP_##id, PTO_TARGET_##target, EK_##src, EK_##dst, CVT_##status},
#include "ops.def"
#undef OP
#undef ALIAS
#undef CVT_ON
};

CvtStatus op_cvt_on(int kind, int target, int src, int dst)
{
    bool own = false;
    for (unsigned i = 0; i < sizeof cvts_on / sizeof cvts_on[0]; i++) {
        if (cvts_on[i].op != kind || cvts_on[i].target != target) continue;
        own = true;
        if (cvts_on[i].src == src && cvts_on[i].dst == dst) return (CvtStatus)cvts_on[i].status;
    }
    return own ? CVT_NONE : op_cvt(kind, src, dst);
}

bool op_has_cvt(int kind)
{
    for (unsigned i = 0; i < sizeof cvts / sizeof cvts[0]; i++)
        if (cvts[i].op == kind) return true;
    return false;
}

const OpField op_fields[] = {
#define OP(id, name, fam, pipe, syn, flags, sig)
#define ALIAS(name, id)
#define FIELD(id, slot, bits, hw, what) {OP_##id, slot, bits, hw, what},
#include "ops.def"
#undef OP
#undef ALIAS
#undef FIELD
};
const unsigned op_nfields = sizeof op_fields / sizeof op_fields[0];
