/* cube_mad.c — the six MAD ops: mad (C = A·B), mad_acc (C += A·B), mad_bias (C = A·B + bias[n]) and their
 * MX forms (fp8 operands with E8M0 scales per 32-element K group, resolutions Q40).
 *
 * Operands are read from the L0 layouts the loads write (cube.c: L0A = NZ [M,K], L0B = NZ [N,K], pitch
 * ⌈rows/16⌉·16) and C is written at the Q36 address ((n/16)·⌈M/16⌉·16 + m)·16 + n%16. Only the logical
 * M x N cells are written.
 *
 * Summation order (the hardware order is unstated, resolutions Q38; this is our documented reference):
 * for each (m, n) the accumulator starts at 0 (mad), the old C (mad_acc) or bias[n] (mad_bias) and adds
 * the products for k = 0, 1, ..., K-1 in ascending order, each product rounded once to f32 and each
 * addition rounded to f32 (round to nearest even, subnormals kept). Products of f16, bf16, tf32, fp8 and
 * hif8 inputs are exact in f32, so only the additions round for them. Integer inputs (i8/ui8) multiply
 * exactly and accumulate in 32-bit two's complement (wrapping). */
#include "cube_int.h"
#include "base/alloc.h"
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct MadExt {
    int8_t ia, ib, ic, ibias, im, in, ik;
    uint8_t mode;       /* 0 overwrite, 1 accumulate, 2 bias */
    uint8_t mx;
    uint8_t sat;        /* 1 = sat clause */
    uint8_t tf32;       /* 0 none, 1 round_even, 2 round_away */
    uint8_t integer;    /* 8-bit integer inputs, i32 accumulator */
    CElem ea, eb;
} MadExt;

/* tf32_mode (resolutions Q38): the f32 input rounded to 10 mantissa bits; inf/NaN unchanged. */
static uint32_t tf32_round(uint32_t b, int away)
{
    if ((b & 0x7F800000u) == 0x7F800000u) return b;
    if (away) return (b + 0x1000u) & ~0x1FFFu;
    uint32_t lsb = (b >> 13) & 1u;
    return (b + 0xFFFu + lsb) & ~0x1FFFu;
}

/* Value of one float input element; sat: NaN -> 0 and +-inf -> +-largest finite of its format (Q38). */
static double in_val(const MadExt *me, CElem e, const uint8_t *p)
{
    uint64_t bits = 0;
    memcpy(&bits, p, e.bytes);
    NumFormat f = (NumFormat)e.fmt;
    if (f == NUM_F32 && me->tf32) bits = tf32_round((uint32_t)bits, me->tf32 == 2);
    if (me->sat) {
        if (num_is_nan(f, bits)) return 0.0;
        double v = cube_fval(f, bits);
        if (isinf(v)) return cube_fval(f, num_convert(NUM_F64, num_f64_to_bits(v), f, NUM_RND_R, true));
        return v;
    }
    return cube_fval(f, bits);
}

static int64_t in_int(CElem e, const uint8_t *p)
{
    return e.is_signed ? (int64_t)(int8_t)p[0] : (int64_t)p[0];
}

/* sat: NaN -> 0, +-inf (and overflow, which produced it) -> +-FLT_MAX */
static float satf(float v)
{
    if (v != v) return 0.0f;
    if (v > FLT_MAX) return FLT_MAX;
    if (v < -FLT_MAX) return -FLT_MAX;
    return v;
}

static int p_mad(Exec *x, const Instr *in, const uint64_t *a)
{
    const MadExt *me = in->ext;
    uint64_t A = a[me->ia], B = a[me->ib], C = a[me->ic], M = a[me->im], N = a[me->in], K = a[me->ik];
    if (cube_field(x, in, "m", M, 16) || cube_field(x, in, "n", N, 16) || cube_field(x, in, "k", K, 16)) return -1;
    if (!M || !N || !K) return 0;
    if (me->mx && !x->core->sim->tp->fp8) {
        sim_trap(x, in, DIAG_T_UNSUPPORTED, "MX matmul needs the a5 target profile");
        return -1;
    }
    unsigned e = me->ea.bytes;
    uint64_t Mp = pad16(M), Np = pad16(N), K1 = ceil_div(K, 32u / e);
    const uint8_t *pa = sim_mem(x, in, AS_L0A, A, K1 * Mp * 32, 32, "left operand");
    if (!pa) return -1;
    const uint8_t *pb = sim_mem(x, in, AS_L0B, B, K1 * Np * 32, 32, "right operand");
    if (!pb) return -1;
    /* C: written; mad_acc also reads it first (a read-modify-write) */
    uint64_t clen = ceil_div(N, 16) * Mp * 16 * 4;
    uint8_t *pc = sim_mem(x, in, AS_L0C, C, clen, 32, me->mode == 1 ? "accumulator" : "accumulator destination");
    if (!pc) return -1;
    if (me->mode == 1 && x->core->cl->watch) sim_access(x, in, x->core, AS_L0C, C, clen, ACC_WRITE);
    const uint8_t *pbias = NULL;
    if (me->mode == 2) {
        pbias = sim_mem(x, in, AS_BT, a[me->ibias], N * 4, 32, "bias");
        if (!pbias) return -1;
    }
    uint64_t G = ceil_div(K, 32);
    const uint8_t *sa = NULL, *sb = NULL;
    if (me->mx) {
        if (K % 64) {
            sim_trap(x, in, DIAG_T_FIELD, "k = %" PRIu64 " is not a multiple of 64, as MX matmul requires", K);
            return -1;
        }
        sa = cube_mx_state(x, in, 0, A, G * Mp);
        if (!sa) return -1;
        sb = cube_mx_state(x, in, 1, B, G * Np);
        if (!sb) return -1;
    }
    if (me->integer) {
        int32_t *ai = mem_alloc(sizeof(int32_t) * (M * K + N * K));
        if (!ai) { sim_trap(x, in, DIAG_T_UNSUPPORTED, "out of memory"); return -1; }
        int32_t *bi = ai + M * K;
        for (uint64_t m = 0; m < M; m++)
            for (uint64_t k = 0; k < K; k++) ai[m * K + k] = (int32_t)in_int(me->ea, pa + nz_off(m, k, Mp, 1));
        for (uint64_t n = 0; n < N; n++)
            for (uint64_t k = 0; k < K; k++) bi[n * K + k] = (int32_t)in_int(me->eb, pb + nz_off(n, k, Np, 1));
        for (uint64_t m = 0; m < M; m++)
            for (uint64_t n = 0; n < N; n++) {
                uint8_t *cp = pc + l0c_elem(m, n, Mp) * 4;
                uint32_t acc = 0;
                if (me->mode == 1) memcpy(&acc, cp, 4);
                else if (me->mode == 2) memcpy(&acc, pbias + n * 4, 4);
                for (uint64_t k = 0; k < K; k++) acc += (uint32_t)(ai[m * K + k] * bi[n * K + k]);
                memcpy(cp, &acc, 4);
            }
        mem_free(ai);
    } else {
        double *av = mem_alloc(sizeof(double) * (M * K + N * K));
        if (!av) { sim_trap(x, in, DIAG_T_UNSUPPORTED, "out of memory"); return -1; }
        double *bv = av + M * K;
        for (uint64_t m = 0; m < M; m++)
            for (uint64_t k = 0; k < K; k++) {
                double v = in_val(me, me->ea, pa + nz_off(m, k, Mp, e));
                if (me->mx) v = sa[(k / 32) * Mp + m] == 0xFF ? NAN : ldexp(v, (int)sa[(k / 32) * Mp + m] - 127);
                av[m * K + k] = v;
            }
        for (uint64_t n = 0; n < N; n++)
            for (uint64_t k = 0; k < K; k++) {
                double v = in_val(me, me->eb, pb + nz_off(n, k, Np, e));
                if (me->mx) v = sb[(k / 32) * Np + n] == 0xFF ? NAN : ldexp(v, (int)sb[(k / 32) * Np + n] - 127);
                bv[n * K + k] = v;
            }
        for (uint64_t m = 0; m < M; m++)
            for (uint64_t n = 0; n < N; n++) {
                uint8_t *cp = pc + l0c_elem(m, n, Mp) * 4;
                uint32_t ib = 0;
                if (me->mode == 1) memcpy(&ib, cp, 4);
                else if (me->mode == 2) memcpy(&ib, pbias + n * 4, 4);
                float acc = num_bits_to_f32(ib);
                if (me->sat) acc = satf(acc);
                const double *ar = av + m * K, *br = bv + n * K;
                for (uint64_t k = 0; k < K; k++) {
                    float p = (float)(ar[k] * br[k]);   /* exact product, one rounding to f32 */
                    if (me->sat) p = satf(p);
                    float s = acc + p;
                    acc = me->sat ? satf(s) : s;
                }
                uint32_t r = acc != acc ? (uint32_t)num_canonical_nan(NUM_F32) : num_f32_to_bits(acc);
                memcpy(cp, &r, 4);
            }
        mem_free(av);
    }
    sim_count(x, x->pipe, M * N * 4);
    x->extra_cost += timing_mad(x->core->sim->timing, me->ea.kind, M, N, K);
    return 0;
}

int cube_lower_mad(LowerView *L, const Op *op, Instr *in)
{
    MadExt *me = lw_alloc(L, op, sizeof(MadExt));
    if (!me) return -1;
    me->ia = (int8_t)lw_group_index(L, op, "a", 0);
    me->ib = (int8_t)lw_group_index(L, op, "b", 0);
    me->ic = (int8_t)lw_group_index(L, op, "c", 0);
    me->ibias = (int8_t)lw_group_index(L, op, "bias", 0);
    me->im = (int8_t)lw_group_index(L, op, "m", 0);
    me->in = (int8_t)lw_group_index(L, op, "n", 0);
    me->ik = (int8_t)lw_group_index(L, op, "k", 0);
    me->mode = op->kind == OP_MAD_ACC || op->kind == OP_MAD_MX_ACC ? 1 : op->kind == OP_MAD_BIAS || op->kind == OP_MAD_MX_BIAS ? 2 : 0;
    me->mx = op->kind == OP_MAD_MX || op->kind == OP_MAD_MX_ACC || op->kind == OP_MAD_MX_BIAS;
    me->sat = op_has_unit(op, "sat");
    int tf = op_token_id(op, "tf32");
    me->tf32 = !op_has_unit(op, "tf32_mode") ? 0 : tf == T_TF32_ROUND_AWAY ? 2 : 1;
    me->ea = cube_ptr_elem(op, me->ia);
    me->eb = cube_ptr_elem(op, me->ib);
    CElem ec = cube_ptr_elem(op, me->ic);
    in->ext = me;
    in->pfn = p_mad;
    if (me->ia < 0 || me->ib < 0 || me->ic < 0 || me->im < 0 || me->in < 0 || me->ik < 0 || (me->mode == 2 && me->ibias < 0))
        return cube_unsupported(in, "this form of MAD is not simulated");
    if (me->ea.packed4 || me->eb.packed4) return cube_unsupported(in, "MAD on packed fp4 operands is not simulated");
    if (!me->ea.bytes || me->ea.bytes != me->eb.bytes)
        return cube_unsupported(in, "MAD operands of different element widths are not simulated");
    int fa = me->ea.fmt >= 0, fb = me->eb.fmt >= 0;
    if (fa != fb) return cube_unsupported(in, "MAD mixing integer and floating-point operands is not simulated");
    if (me->mx && !(me->ea.fmt == NUM_E4M3FN || me->ea.fmt == NUM_E5M2) )
        return cube_unsupported(in, "MX matmul is simulated for f8E4M3FN / f8E5M2 operands only");
    if (me->mx && !(me->eb.fmt == NUM_E4M3FN || me->eb.fmt == NUM_E5M2))
        return cube_unsupported(in, "MX matmul is simulated for f8E4M3FN / f8E5M2 operands only");
    if (fa) {
        if (me->ea.fmt == NUM_F64 || me->ea.fmt == NUM_E8M0)
            return cube_unsupported(in, "MAD on this floating-point type is not simulated");
        if (ec.fmt != NUM_F32) return cube_unsupported(in, "floating-point MAD needs an f32 accumulator");
    } else {
        if (me->ea.bits != 8) return cube_unsupported(in, "integer MAD is simulated for 8-bit operands only");
        if (ec.fmt >= 0 || ec.bits != 32) return cube_unsupported(in, "integer MAD needs a 32-bit integer accumulator");
        me->integer = 1;
    }
    if (me->mode == 2) {
        CElem eb = cube_ptr_elem(op, me->ibias);
        if (eb.bytes != 4 || (eb.fmt >= 0) != fa) return cube_unsupported(in, "the bias table must hold the accumulator type");
    }
    return 0;
}
