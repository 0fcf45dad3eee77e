/* verify_sig.c — the structural pass: one generic loop over an op's compiled signature (op.h).
 *
 * For every positional and clause slot it checks the operand's type class and, for pointers, the
 * address space; for every result slot the result's type class. Then the documented field widths of
 * constant operands (the op table's FIELD rows, E-FIELD-WIDTH) and 32-byte alignment of constant
 * local-buffer addresses handed to DMA and cube ops (E-ALIGN). No per-op code lives
 * here; relational rules (types that must agree, clause combinations) are in verify_fam.c, verify_mem.c, verify_vec.c. */
#include "verify_int.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static void spaces_desc(uint16_t spaces, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = 0;
    for (int as = 0; as < AS__COUNT && k + 8 < n; as++)
        if (spaces & (1u << as)) k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? " or " : "", as_name((AddrSpace)as));
}

static void check_value_slot(VCtx *V, Op *op, const SigSlot *s, const char *clause)
{
    char a[96], sp[64];
    const char *in = clause ? " in clause '" : "", *cl = clause ? clause : "", *q = clause ? "'" : "";
    unsigned n = op_group_len(op, (unsigned)s->group), first = op_group_start(op, (unsigned)s->group);
    for (unsigned i = 0; i < n; i++) {
        Value *v = op->operands[first + i];
        if (!v || !v->type) continue;
        if (!tc_match(s->tc, v->type)) {
            v_err(V, DIAG_V_OPERAND_TYPE, op_operand_loc(op, first + i), "'%s' expects %s for '%s'%s%s%s, but %%%s has type %s",
                  v_opname(op), tc_desc(s->tc), s->name, in, cl, q, v_valname(v), v_tyname(v->type, a, sizeof a));
            continue;
        }
        if (s->tc == TC_PTR && s->spaces && !(s->spaces & (1u << v->type->space))) {
            spaces_desc(s->spaces, sp, sizeof sp);
            v_err(V, DIAG_V_ADDR_SPACE, op_operand_loc(op, first + i), "'%s' needs '%s'%s%s%s in %s, but %%%s points into %s",
                  v_opname(op), s->name, in, cl, q, sp, v_valname(v), as_name((AddrSpace)v->type->space));
        }
    }
    /* An offset is an index or integer, or a !pto.vaddr; which of the two an op takes is a family rule
       (verify_vec.c, vector-address forms). */
    if (s->kind == SL_MEM && !s->off_path) {
        unsigned no = op_group_len(op, (unsigned)s->group + 1), fo = op_group_start(op, (unsigned)s->group + 1);
        for (unsigned i = 0; i < no; i++) {
            Value *v = op->operands[fo + i];
            if (v && v->type && (s->off_vec ? v->type->kind != TY_VMI_VREG : !ty_is_intlike(v->type) && !ty_is_vaddr(v->type)))
                v_err(V, DIAG_V_OPERAND_TYPE, op_operand_loc(op, fo + i), "the offset in '%%%s[%%%s]' of '%s' must be %s, "
                      "not %s", s->name, v_valname(v), v_opname(op), s->off_vec ? "a !pto.vmi.vreg of indices" :
                      "an index or integer", v_tyname(v->type, a, sizeof a));
        }
    }
}

static void check_results(VCtx *V, Op *op, const OpSig *sig)
{
    char a[96];
    if (!sig->nres) return;
    for (uint32_t i = 0; i < op->nresults; i++) {
        const SigSlot *s = &sig->res[i < sig->nres ? i : (uint32_t)sig->nres - 1u];
        const Type *t = op->results[i]->type;
        if (!tc_match(s->tc, t)) {
            v_err(V, DIAG_V_RESULT_TYPE, op->loc, "result '%s' (%%%s) of '%s' must be %s, not %s", s->name,
                  v_valname(op->results[i]), v_opname(op), tc_desc(s->tc), v_tyname(t, a, sizeof a));
        } else if (s->tc == TC_PTR && s->spaces && t && !(s->spaces & (1u << t->space))) {
            char sp[64];
            spaces_desc(s->spaces, sp, sizeof sp);
            v_err(V, DIAG_V_ADDR_SPACE, op->loc, "result '%s' of '%s' must point into %s", s->name, v_opname(op), sp);
        }
    }
}

/* ------------------------------------------------------------------ field widths */

/* Documented widths of constant operands: the FIELD rows of the op table (op_fields). */
static void check_widths(VCtx *V, Op *op)
{
    for (unsigned w = 0; w < op_nfields; w++) {
        const OpField *W = &op_fields[w];
        if (W->op != op->kind) continue;
        int g = v_group_index(V, op, W->slot);
        unsigned n = g < 0 ? 0 : op_group_len(op, (unsigned)g);
        for (unsigned i = 0; i < n; i++) {
            int64_t c;
            Value *v = op_group_operand(op, (unsigned)g, i);
            if (!v_const_int(v, &c)) continue;
            SrcLoc at = op_group_loc(op, (unsigned)g, i);
            if (W->bits == 0) {
                if (c != 0) v_err(V, DIAG_V_FIELD_WIDTH, at, "the %s of '%s' must be 0 (it is %" PRId64 ")", W->what,
                                  v_opname(op), c);
                continue;
            }
            uint64_t max = W->bits >= 64 ? UINT64_MAX : (((uint64_t)1 << W->bits) - 1);
            if (c < 0 || (uint64_t)c > max) {
                char hw[64] = "";
                if (W->hw != W->bits) snprintf(hw, sizeof hw, " (the hardware field is %u bits)", W->hw);
                v_err(V, DIAG_V_FIELD_WIDTH, at, "the %s of '%s' is %" PRId64 ", which does not fit its %u-bit "
                      "unsigned field (0..%" PRIu64 ")%s", W->what, v_opname(op), c, W->bits, max, hw);
            }
        }
    }
}

/* ------------------------------------------------------------------ alignment */

/* DMA and cube ops address local buffers in 32-byte units (isa-notes §1.2 "Alignment rules",
   §4.1 item 5, §4.2, §4.5, §4.7; seed 000). */
static void check_dma_alignment(VCtx *V, Op *op, const OpSig *sig)
{
    OpFamily f = op_info[op->kind].fam;
    if (f != FAM_DMA && f != FAM_CUBE_DMA && f != FAM_MAD) return;
    for (unsigned j = 0; j < sig->npos; j++) {
        const SigSlot *s = &sig->pos[j];
        if (s->kind != SL_VALUE || s->tc != TC_PTR) continue;
        Value *v = op_group_operand(op, (unsigned)s->group, 0);
        int64_t addr;
        if (!v || !ty_is_ptr(v->type) || v->type->space == AS_GM || !v_const_addr(v, &addr)) continue;
        if (addr % 32 != 0) {
            long d = v_err(V, DIAG_V_ALIGN, op->loc, "'%s' needs a 32-byte aligned %s address for '%s', but %%%s is at "
                           "byte %" PRId64, v_opname(op), as_name((AddrSpace)v->type->space), s->name, v_valname(v), addr);
            v_note(V, d, v_value_loc(v), "address computed here");
        }
    }
}

void verify_structural(VCtx *V, Op *op)
{
    const OpSig *sig = ctx_sig(V->ctx, op->kind);
    if (!sig || !op->segs) return;
    for (unsigned j = 0; j < sig->npos; j++)
        if (sig->pos[j].kind == SL_VALUE || sig->pos[j].kind == SL_MEM) check_value_slot(V, op, &sig->pos[j], NULL);
    for (unsigned c = 0; c < sig->ncl; c++)
        for (unsigned j = 0; j < sig->cl[c].nslots; j++)
            if (sig->cl[c].slots[j].kind == SL_VALUE) check_value_slot(V, op, &sig->cl[c].slots[j], sig->cl[c].kw);
    check_results(V, op, sig);
    check_widths(V, op);
    check_dma_alignment(V, op, sig);
}
