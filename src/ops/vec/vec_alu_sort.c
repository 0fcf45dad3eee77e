/* vec_alu_sort.c — the UB-to-UB helpers: the sorters vbitsort and vmrgsort4 (resolutions §2.6; isa-notes
 * §3.2.10) and the 16 x 16 transpose vtranspose (PTOAS vpto-spec §13, two-operand form).
 *
 * Both work on 8-byte proposal records: the score in the low word (f32, or f16 in the low half with the
 * upper half 0) and the u32 index in the high word. Order: score descending; NaN ranks above +inf;
 * -0 equals +0; ties keep the earlier proposal (vbitsort) or the lower-numbered list (vmrgsort4).
 * Real kernels issue them from the scalar unit outside vector scopes, so they are queued on PIPE_V
 * (PipeFn); inside a scope they run as ordinary V instructions. The whole footprint is checked before
 * anything is written. */
#include "vec_alu_int.h"
#include "base/alloc.h"

/* Cycles to sort `n` elements or records (timing table: sort per8 cycles per group of 8). */
static uint64_t sort_cycles(const Exec *x, uint64_t n) { return (n + 7) / 8 * x->core->sim->timing->sort_per_elem_x8; }
#include <inttypes.h>
#include <stdlib.h>

/* Does score x go before score y? */
static int ahead(int f16, uint32_t x, uint32_t y)
{
    double a = f16 ? fdec(EK_F16, x & 0xFFFF) : fdec(EK_F32, x);
    double b = f16 ? fdec(EK_F16, y & 0xFFFF) : fdec(EK_F32, y);
    int an = a != a, bn = b != b;
    if (an || bn) return an && !bn;
    return a > b;
}

/* ------------------------------------------------------------------ vbitsort */

enum { SO_F16 };   /* Instr.imm of vbitsort and vmrgsort4: 1 for f16 scores */

/* One repeat: 32 scores (f32, or f16 when f16) and 32 u32 indices become 32 records, stable, descending. */
void lane_bitsort32(int f16, const uint8_t *scores, const uint8_t *idx, uint8_t *rec)
{
    const unsigned se = f16 ? 2 : 4;
    uint32_t s[32], id[32];
    uint8_t order[32];
    for (unsigned i = 0; i < 32; i++) {
        s[i] = (uint32_t)lane_get(scores, se, i);
        id[i] = (uint32_t)lane_get(idx, 4, i);
        order[i] = (uint8_t)i;
    }
    /* stable insertion sort, descending */
    for (unsigned i = 1; i < 32; i++) {
        uint8_t t = order[i];
        unsigned j = i;
        while (j > 0 && ahead(f16, s[t], s[order[j - 1]])) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = t;
    }
    for (unsigned i = 0; i < 32; i++) {
        uint64_t v = (uint64_t)s[order[i]] | (uint64_t)id[order[i]] << 32;
        memcpy(rec + 8 * i, &v, 8);
    }
}

/* args: dst, scores, idx, repeat. */
static int p_vbitsort(Exec *x, const Instr *in, const uint64_t *args)
{
    const int f16 = (int)in->imm[SO_F16];
    const unsigned se = f16 ? 2 : 4;
    uint64_t rep = args[3];
    if (rep == 0) return 0;
    if (rep > 0xFFFF) {
        sim_trap(x, in, DIAG_T_FIELD, "repeat count %" PRIu64 " is out of range", rep);
        return -1;
    }
    uint8_t *dst = sim_mem(x, in, AS_UB, args[0], rep * 256, 32, ACC_WRITE, "destination");
    if (!dst) return -1;
    const uint8_t *sc = sim_mem(x, in, AS_UB, args[1], rep * 32 * se, 32, ACC_READ, "score source");
    if (!sc) return -1;
    const uint8_t *ix = sim_mem(x, in, AS_UB, args[2], rep * 128, 32, ACC_READ, "index source");
    if (!ix) return -1;
    for (uint64_t r = 0; r < rep; r++) {
        uint8_t rec[256];
        lane_bitsort32(f16, sc + r * 32 * se, ix + r * 128, rec);
        memcpy(dst + r * 256, rec, 256);
    }
    sim_count(x, x->pipe, rep * 256);
    x->extra_cost += sort_cycles(x, rep * 32);
    return 0;
}

/* ------------------------------------------------------------------ vmrgsort4 */

/* One merge of up to four descending lists of 8-byte records (list k: len[k] records at src[k], used when bit k
   of `valid` is set) into out; exhausted: stop as soon as a valid list has run out. Returns the records written;
   pos[k] = the records taken from list k. */
uint64_t lane_mrgsort4(int f16, const uint8_t *const src[4], const unsigned len[4], unsigned valid, int exhausted,
                       uint8_t *out, unsigned pos[4])
{
    uint64_t n = 0;
    unsigned ln[4];
    for (unsigned k = 0; k < 4; k++) {
        pos[k] = 0;
        ln[k] = (valid >> k) & 1 ? len[k] : 0;
    }
    for (;;) {
        if (exhausted) {
            int out_of_list = 0;
            for (unsigned k = 0; k < 4; k++) out_of_list |= ((valid >> k) & 1) && pos[k] == ln[k];
            if (out_of_list) break;
        }
        int best = -1;
        uint64_t bv = 0;
        for (unsigned k = 0; k < 4; k++) {
            if (pos[k] >= ln[k]) continue;
            uint64_t v;
            memcpy(&v, src[k] + 8ull * pos[k], 8);
            if (best < 0 || ahead(f16, (uint32_t)v, (uint32_t)bv)) {
                best = (int)k;
                bv = v;
            }
        }
        if (best < 0) break;
        memcpy(out + 8 * n++, &bv, 8);
        pos[best]++;
    }
    return n;
}

/* args: dst, src0..src3, count, config.
 * count: list k holds (count >> 16k) & 0xFFFF records. config: bits 7..0 repeat count, bits 11..8
 * valid-list mask, bit 12 exhausted mode (stop as soon as any valid list runs out). With repeat > 1
 * each repeat r reads list k at src_k + r*T and writes at dst + r*T, T = 8 * (total records). */
static int p_vmrgsort4(Exec *x, const Instr *in, const uint64_t *args)
{
    const int f16 = (int)in->imm[SO_F16];
    const uint64_t cnt = args[5], cfg = args[6];
    const unsigned rep = (unsigned)(cfg & 0xFF), valid = (unsigned)((cfg >> 8) & 0xF);
    const int exhausted = (int)((cfg >> 12) & 1);
    unsigned len[4];
    uint64_t total = 0;
    for (unsigned k = 0; k < 4; k++) {
        len[k] = (valid >> k) & 1 ? (unsigned)((cnt >> (16 * k)) & 0xFFFF) : 0;
        total += len[k];
    }
    if (rep == 0) return 0;
    const uint64_t span = 8 * total;
    uint8_t *dst = sim_mem(x, in, AS_UB, args[0], span * rep, 8, ACC_WRITE, "destination");
    if (!dst) return -1;
    const uint8_t *src[4] = {0, 0, 0, 0};
    for (unsigned k = 0; k < 4; k++) {
        if (!((valid >> k) & 1)) continue;
        char what[16] = "source 0";
        what[7] = (char)('0' + k);
        src[k] = sim_mem(x, in, AS_UB, args[1 + k], span * (rep - 1) + 8ull * len[k], 8, ACC_READ, what);
        if (!src[k]) return -1;
    }
    uint8_t *out = mem_alloc(span ? span : 1);
    if (!out) {
        sim_trap(x, in, DIAG_T_UNSUPPORTED, "out of memory");
        return -1;
    }
    unsigned pos[4] = {0, 0, 0, 0};
    for (unsigned r = 0; r < rep; r++) {
        const uint8_t *l[4];
        for (unsigned k = 0; k < 4; k++) l[k] = src[k] ? src[k] + r * span : NULL;
        uint64_t n = lane_mrgsort4(f16, l, len, valid, exhausted, out, pos);
        memcpy(dst + r * span, out, (size_t)(8 * n));
    }
    mem_free(out);
    for (unsigned k = 0; k < 4; k++) x->core->vec->vms4_sr[k] = (uint16_t)pos[k];
    sim_count(x, x->pipe, span * rep);
    x->extra_cost += sort_cycles(x, span * rep / 8);   /* 8-byte records */
    return 0;
}

/* ------------------------------------------------------------------ vtranspose */

/* args: dst, src. The 512 bytes at src are a row-major 16 x 16 matrix of 16-bit elements; dst receives its
   transpose, dst[i][j] = src[j][i]. Both addresses are 32-byte aligned; overlapping regions are undefined
   by the contract and trap T-OVERLAP. */
static int p_vtranspose(Exec *x, const Instr *in, const uint64_t *args)
{
    const uint64_t d = args[0], s = args[1];
    const uint8_t *src = sim_mem(x, in, AS_UB, s, 512, 32, ACC_READ, "transpose source");
    if (!src) return -1;
    uint8_t *dst = sim_mem(x, in, AS_UB, d, 512, 32, ACC_WRITE, "transpose destination");
    if (!dst) return -1;
    if (d < s + 512 && s < d + 512) {   /* both in UB, so no wrap-around */
        sim_trap(x, in, DIAG_T_OVERLAP, "the 512-byte source at UB 0x%" PRIx64 " and destination at UB 0x%" PRIx64
                 " overlap; the transpose is undefined for overlapping regions", s, d);
        return -1;
    }
    for (unsigned i = 0; i < 16; i++)
        for (unsigned j = 0; j < 16; j++) memcpy(dst + 32 * i + 2 * j, src + 32 * j + 2 * i, 2);
    sim_transfer(x, AS_UB, AS_UB, 512);
    return 0;
}

/* The three-operand form: its config word has no published layout. */
static int p_vtranspose_cfg(Exec *x, const Instr *in, const uint64_t *args)
{
    (void)args;
    sim_trap(x, in, DIAG_T_UNSUPPORTED, "the config-word form is not simulated (the word's layout is not "
             "published); the two-operand form transposes one 16 x 16 matrix of 16-bit elements");
    return -1;
}

/* Inside a vector scope the same work runs as a V instruction. */
static const Instr *x_sort(Exec *x, const Instr *in)
{
    uint64_t args[8];
    for (unsigned i = 0; i < in->nargs && i < 8; i++) args[i] = ARG(x, in, i);
    return in->pfn(x, in, args) == 0 ? in + 1 : NULL;
}

/* pto.get_vms4_sr: the VMS4 status register, read by the scalar unit. */
static const Instr *x_get_vms4_sr(Exec *x, const Instr *in)
{
    for (unsigned i = 0; i < 4 && i < in->nres; i++) fr_set_u64(x, in->res[i], x->core->vec->vms4_sr[i]);
    return in + 1;
}

int lower_valu_sort(LowerView *L, const Op *op, Instr *in)
{
    if (op->kind == OP_GET_VMS4_SR) {
        in->fn = x_get_vms4_sr;
        return 0;
    }
    if (op->kind == OP_VTRANSPOSE) {
        in->pfn = op->noperands == 2 ? p_vtranspose : p_vtranspose_cfg;
        in->fn = x_sort;
        return 0;
    }
    const Value *sv = op->operands[op->kind == OP_VBITSORT ? 1 : 0];
    const Type *e = sv->type->kind == TY_PTR ? sv->type->elem : NULL;
    int f16 = e && e->kind == TY_FLOAT && e->fk == FK_F16;
    /* vbitsort: f32 or f16 scores (S); vmrgsort4 reads f16 records for f16 pointers, else f32 scores */
    if (op->kind == OP_VBITSORT && !(e && e->kind == TY_FLOAT && (e->fk == FK_F16 || e->fk == FK_F32)))
        return valu_bad_type(L, op, "f32 or f16 scores", sv->type);
    in->imm[SO_F16] = f16;
    in->pfn = op->kind == OP_VBITSORT ? p_vbitsort : p_vmrgsort4;
    in->fn = x_sort;
    return 0;
}
