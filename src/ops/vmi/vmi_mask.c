/* vmi_mask.c — VMI mask producers: create_mask (a prefix of n lanes), create_group_mask (a prefix in every
 * group), pset/pge (a predicate pattern, per group with `group`), plt (a prefix and the remainder) and the
 * constant_mask of the compiler's generic form. A mask holds one bit per logical lane (vmi_int.h). */
#include "vmi_int.h"
#include "ops/pred/pred.h"
#include <stdlib.h>

enum { MK_PREFIX, MK_GROUP, MK_PATTERN, MK_PLT, MK_CONST };

static const Instr *x_mask(Exec *x, const Instr *in)
{
    const VmiX *v = VX(in);
    static _Thread_local uint8_t out[VMI_MAX_BYTES / 8];
    const uint32_t L = v->L2, nb = vm_bytes(L);
    memset(out, 0, nb);
    switch (v->sub) {
    case MK_PREFIX: case MK_PLT: {
        uint64_t n = vx_scalar(x, in, v->s);
        if (v->sub == MK_PLT) n &= 0xFFFFFFFFu;   /* plt's i32 operand, read as unsigned like the micro plt */
        for (uint32_t i = 0; i < L && i < n; i++) vm_put(out, i, 1);
        if (v->sub == MK_PLT) {
            uint64_t rest = n > L ? n - L : 0;
            memcpy(FR(x, in->res[1]), &rest, 8);
        }
        break;
    }
    case MK_GROUP: {
        uint64_t n = vx_scalar(x, in, v->s);
        for (uint32_t i = 0; i < L; i++) vm_put(out, i, (i % v->gsize) < n);
        break;
    }
    case MK_PATTERN: {
        const uint32_t S = L / v->groups;
        unsigned vl;
        int kind = pred_pattern(v->tok, S, &vl);
        for (uint32_t i = 0; i < L; i++) vm_put(out, i, pred_pattern_on(kind, vl, i % S));
        break;
    }
    case MK_CONST:
        memcpy(out, v->cmask, nb);
        break;
    }
    memcpy(FR(x, in->res[0]), out, nb);
    return vx_done(x, in, (L + 255) / 256);
}

/* The bits of dense<[true, false, ...]> (or dense<true>: every lane) in attribute text. */
static int parse_dense(const char *t, uint8_t *bits, uint32_t L)
{
    const char *p = strchr(t, '<');
    if (!p) return -1;
    p++;
    uint32_t n = 0;
    int splat = *p != '[';
    while (*p && *p != '>') {
        if (!strncmp(p, "true", 4) || *p == '1') {
            if (n < L) vm_put(bits, n, 1);
            n++;
            p += *p == '1' ? 1 : 4;
        } else if (!strncmp(p, "false", 5) || *p == '0') {
            n++;
            p += *p == '0' ? 1 : 5;
        } else {
            p++;
        }
    }
    if (splat && n == 1) {
        int on = vm_bit(bits, 0);
        for (uint32_t i = 0; i < L; i++) vm_put(bits, i, on);
        return 0;
    }
    return n == L ? 0 : -1;
}

int vmi_lower_mask(LowerView *L, const Op *op, Instr *in, VmiX *x)
{
    switch (op->kind) {
    case OP_VMI_CREATE_MASK: x->sub = MK_PREFIX; x->s = (int8_t)vmi_operand(L, op, "n"); break;
    case OP_VMI_PLT: x->sub = MK_PLT; x->s = (int8_t)vmi_operand(L, op, "s"); break;
    case OP_VMI_CREATE_GROUP_MASK: {
        x->sub = MK_GROUP;
        x->s = (int8_t)vmi_operand(L, op, "n");
        int64_t gs = vmi_attr_int(op, "group_size", 0), ng = vmi_attr_int(op, "num_groups", 0);
        if (gs <= 0 && ng > 0) gs = x->L2 / ng;
        if (gs <= 0) {
            lw_error(L, op, DIAG_V_ATTR, "'%s' needs a positive group_size", op_info[op->kind].name);
            return -1;
        }
        x->gsize = (uint32_t)gs;
        break;
    }
    case OP_VMI_PSET: case OP_VMI_PGE: {
        x->sub = MK_PATTERN;
        x->tok = (int16_t)op_token_id(op, "pattern");
        int64_t g = vmi_attr_int(op, "group", 1);
        x->groups = g > 0 && x->L2 % (uint32_t)g == 0 ? (uint32_t)g : 1;
        break;
    }
    case OP_VMI_CONSTANT_MASK: {
        const Attr *a = op_attr(op, "value");
        x->sub = MK_CONST;
        x->cmask = lw_alloc(L, op, vm_bytes(x->L2));
        if (!x->cmask) return -1;
        if (!a || !a->s || parse_dense(a->s, x->cmask, x->L2) < 0) {
            lw_error(L, op, DIAG_V_ATTR, "'%s' needs value = dense<[...]> with one boolean per lane (%u)",
                     op_info[op->kind].name, x->L2);
            return -1;
        }
        break;
    }
    default: return -1;
    }
    in->fn = x_mask;
    return 0;
}
