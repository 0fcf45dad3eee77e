/* vec_ls_stream.c — the alignment-state streams (resolutions Q21): unaligned loads through a primed state
 * (vldas/valda, vldus/valdu, uvld) and unaligned stores appended to a store stream (vstus, vstur, vstu, vastu)
 * and flushed (vstas/vstar/vsta/vasta), on the byte model of ops/pred/align.c; with their lowering. */
#include "vec_ls_int.h"
#include "ops/pred/pred.h"
#include <inttypes.h>

/* ------------------------------------------------------------------ alignment-state streams (Q21) */

static int store_state(Exec *x, const Instr *in, const AlignState *st)
{
    if (!st->init) {
        sim_trap(x, in, DIAG_T_ALIGN_STATE, "the !pto.align carrier was never initialised (use pto.init_align)");
        return -1;
    }
    if (st->load) {
        sim_trap(x, in, DIAG_T_ALIGN_STATE, "a load-stream state (from pto.vldas) is used by a store stream; "
                 "store streams start at pto.init_align");
        return -1;
    }
    return 0;
}

/* vldas / valda: primes a load stream at the 32-byte block containing the address (reads that block). */
static const Instr *x_vldas(Exec *x, const Instr *in)
{
    uint64_t p = ea(x, X_OF(in));
    if (!ubp(x, in, p & ~(uint64_t)31, 32, 32, ACC_READ, "unaligned-load priming block")) return NULL;
    AlignState st;
    memset(&st, 0, sizeof st);
    st.init = 1;
    st.load = 1;
    st.block = p & ~(uint64_t)31;
    st.cursor = p;
    memcpy(FR(x, in->res[0]), &st, sizeof st);
    count(x, 32);
    return in + 1;
}

/* The load step shared by vldus and valdu: the 256 bytes at p (any alignment) with the state (slot m->a2)
   primed for p's block; the returned state is primed for p + 256. Returns 0, or -1 after a trap. */
static int unaligned_load(Exec *x, const Instr *in, const VlsX *m, uint64_t p)
{
    AlignState st;
    memcpy(&st, FR(x, m->a2), sizeof st);
    if (!st.load) {
        sim_trap(x, in, DIAG_T_ALIGN_STATE, "the alignment state was not primed by pto.vldas or pto.valda");
        return -1;
    }
    if (st.block != (p & ~(uint64_t)31)) {
        sim_trap(x, in, DIAG_T_ALIGN_STATE, "the alignment state is primed for UB block 0x%" PRIx64
                 " but the load address 0x%" PRIx64 " is in block 0x%" PRIx64
                 " (prime it with pto.vldas or pto.valda at this address)", st.block, p, p & ~(uint64_t)31);
        return -1;
    }
    const uint8_t *s = ubp(x, in, p, 256, 1, ACC_READ, "unaligned load source");
    if (!s) return -1;
    memcpy(FR(x, in->res[0]), s, 256);
    st.block = (p + 256) & ~(uint64_t)31;
    st.cursor = p + 256;
    if (in->res[1] >= 0) memcpy(FR(x, in->res[1]), &st, sizeof st);
    count(x, 256);
    return 0;
}

/* vldus %p, %a[, %off]: loads at p; the optional pointer result is p + off elements (p + 256 bytes without an
   offset operand). */
static const Instr *x_vldus(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint64_t p = fr(x, m->base);
    if (unaligned_load(x, in, m, p)) return NULL;
    if (m->pn >= 0) {
        fr_set_u64(x, m->pn, m->off >= 0 ? sim_index_addr(p, bits_sext(fr(x, m->off), m->offbits), m->unit)
                                          : sim_index_addr(p, 1, 256));
    }
    return in + 1;
}

/* uvld %p[%off]: the 256 bytes at p + off elements, any byte alignment (the compiler's vldas + vldus there). */
static const Instr *x_uvld(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    const uint8_t *s = ubp(x, in, ea(x, m), 256, 1, ACC_READ, "unaligned load source");
    if (!s) return NULL;
    memcpy(FR(x, in->res[0]), s, 256);
    count(x, 256);
    return in + 1;
}

/* valdu %base[%va], %a, %inc: loads at base + va; the updated vector address is va + inc (32-bit, bytes). */
static const Instr *x_valdu(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint32_t va = (uint32_t)fr(x, m->off);
    if (unaligned_load(x, in, m, fr(x, m->base) + va)) return NULL;
    fr_set_u64(x, m->pn, (uint32_t)(va + (uint32_t)fr(x, m->a3)));
    return in + 1;
}

/* The store step shared by vstus, vstur and vastu: appends n bytes at p to the stream whose state is operand 0
   and writes the new state to result 0. Returns 0, or -1 after a trap (the state result is then unwritten). */
static int stream_store(Exec *x, const Instr *in, uint64_t p, const uint8_t *bytes, uint64_t n)
{
    AlignState st;
    memcpy(&st, FR(x, in->arg[0]), sizeof st);
    if (store_state(x, in, &st) || align_append(x, in, &st, p, bytes, n)) return -1;
    memcpy(FR(x, in->res[0]), &st, sizeof st);
    count(x, n);
    return 0;
}

/* vstus %a, %n, %v, %p: appends the first n elements of v at cursor p; optional result p + n elements. */
static const Instr *x_vstus(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    AlignState st;
    memcpy(&st, FR(x, in->arg[0]), sizeof st);
    if (store_state(x, in, &st)) return NULL;   /* a misused state is reported before a bad count */
    int64_t n = bits_sext(fr(x, m->a2), m->offbits);
    if (n < 0 || (uint64_t)n * m->w > 256) {
        sim_trap(x, in, DIAG_T_FIELD, "element count %" PRId64 " is outside 0..%u", n, 256u / m->w);
        return NULL;
    }
    uint64_t p = fr(x, m->base);
    if (stream_store(x, in, p, FR(x, m->a3), (uint64_t)n * m->w)) return NULL;
    if (m->pn >= 0) fr_set_u64(x, m->pn, p + (uint64_t)n * m->unit);
    return in + 1;
}

/* vstur %a, %v, %base[, MODE]: appends the first SQZN bytes of v at base + AR; POST_UPDATE adds SQZN to AR. */
static const Instr *x_vstur(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    Core *c = x->core;
    uint32_t n = spr_sqzn(c);
    if (n > 256) n = 256;
    if (stream_store(x, in, fr(x, m->base) + spr_ar(c), FR(x, m->a2), n)) return NULL;
    if (m->aux) set_ar(c, spr_ar(c) + n);
    return in + 1;
}

/* vastu %a, %va, %v, %base, "POST_UPDATE": appends the 256 bytes of v at base + va; the updated vector address
   is va + 256 (32-bit), va itself for the no-post mode the verifier rejects. */
static const Instr *x_vastu(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint32_t va = (uint32_t)fr(x, m->off);
    if (stream_store(x, in, fr(x, m->base) + va, FR(x, m->a3), 256)) return NULL;
    fr_set_u64(x, m->pn, m->aux ? (uint32_t)(va + 256u) : va);
    return in + 1;
}

/* vstu %a, %off, %v, %base[, MODE] (the offset form): appends the 256 bytes of v at base + off bytes (the
   offset is the CCE vector_address, as for vastu); the returned offset is off + 256 with POST_UPDATE, off
   itself otherwise. */
static const Instr *x_vstu(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    uint64_t off = bits_sext(fr(x, m->off), m->offbits);
    if (stream_store(x, in, fr(x, m->base) + off, FR(x, m->a3), 256)) return NULL;
    fr_set_u64(x, m->pn, m->aux ? off + 256 : off);
    return in + 1;
}

/* vstas / vstar / vsta / vasta: write the held bytes of the stream; vstas optionally returns p + off elements. */
static const Instr *x_vflush(Exec *x, const Instr *in)
{
    const VlsX *m = X_OF(in);
    AlignState st;
    memcpy(&st, FR(x, in->arg[0]), sizeof st);
    if (store_state(x, in, &st)) return NULL;
    unsigned held = (unsigned)__builtin_popcount(st.valid);
    if (align_flush(x, in, &st)) return NULL;
    if (m->pn >= 0)
        fr_set_u64(x, m->pn, fr(x, m->base) + (m->off >= 0 ? (uint64_t)bits_sext(fr(x, m->off), m->offbits) * m->unit : 0));
    count(x, held);
    return in + 1;
}

/* ------------------------------------------------------------------ lowering */

int vls_lower_stream(LowerView *L, const Op *op, Instr *in)
{
    switch (op->kind) {
    case OP_UVLD: {
        VlsX *m = newx(L, op);
        if (!m) return -1;
        mem_operand(L, op, in, m, "src", "off", -1);
        in->ext = m;
        in->fn = x_uvld;
        return 0;
    }
    case OP_VLDAS: case OP_VALDA: {
        VlsX *m = newx(L, op);
        if (!m) return -1;
        mem_operand(L, op, in, m, "src", "off", -1);
        in->ext = m;
        in->fn = x_vldas;
        return 0;
    }
    case OP_VLDUS: case OP_VALDU: {
        /* vldus: "off" is the optional pointer increment; valdu: "off" is the vector address, "inc" its increment */
        VlsX *m = newx(L, op);
        if (!m) return -1;
        mem_operand(L, op, in, m, "src", "off", 2);
        m->a2 = slot_of(in, lw_group_index(L, op, "a", 0));
        m->a3 = slot_of(in, lw_group_index(L, op, "inc", 0));
        if (op->kind == OP_VALDU && (m->off < 0 || m->pn < 0 || m->a3 < 0)) return bad(L, op, "malformed operands");
        in->ext = m;
        in->fn = op->kind == OP_VALDU ? x_valdu : x_vldus;
        return 0;
    }
    case OP_VASTU: case OP_VSTU: {
        /* vstu: form B (offset + MODE token) only; form A threads a base pointer and an index mode operand */
        int st = op->kind == OP_VSTU, offi = lw_group_index(L, op, "off", 0);
        if (st && (offi < 0 || !ty_is_intlike(otype(op, offi)) || lw_group_index(L, op, "mode", 0) >= 0)) return 0;
        VlsX *m = newx(L, op);
        if (!m) return -1;
        mem_operand(L, op, in, m, "dst", "off", 1);
        m->unit = 1;
        m->a3 = slot_of(in, lw_group_index(L, op, "v", 0));
        m->aux = op_token_id(op, st ? "post" : "mode") == T_POST_POST_UPDATE;
        if (m->off < 0 || m->pn < 0) return bad(L, op, "malformed operands");
        in->ext = m;
        in->fn = st ? x_vstu : x_vastu;
        return 0;
    }
    case OP_VSTUS: {
        VlsX *m = newx(L, op);
        if (!m) return -1;
        mem_operand(L, op, in, m, "dst", NULL, 1);
        int ni = lw_group_index(L, op, "n", 0);
        m->a2 = slot_of(in, ni);
        m->offbits = (uint8_t)type_bits(otype(op, ni));
        int vi = lw_group_index(L, op, "v", 0);
        m->a3 = slot_of(in, vi);
        m->w = (uint8_t)elem_bytes_of(otype(op, vi));
        in->ext = m;
        in->fn = x_vstus;
        return 0;
    }
    case OP_VSTUR: {
        VlsX *m = newx(L, op);
        if (!m) return -1;
        mem_operand(L, op, in, m, "dst", NULL, -1);
        m->a2 = slot_of(in, lw_group_index(L, op, "v", 0));
        m->aux = op_token_id(op, "mode") == T_POST_POST_UPDATE;
        in->ext = m;
        in->fn = x_vstur;
        return 0;
    }
    case OP_VSTAS: case OP_VSTAR: case OP_VSTA: case OP_VASTA: {
        VlsX *m = newx(L, op);
        if (!m) return -1;
        mem_operand(L, op, in, m, "dst", "off", 0);
        if (op->kind != OP_VSTAS) m->pn = -1;
        in->ext = m;
        in->fn = x_vflush;
        return 0;
    }
    default:
        return 0;
    }
}
