/* tile_cvt.c — pto.tcvt: one V job converting every element of the destination's valid region from the source
 * tile's element type, as the A5 TileLib's conversion templates do (lib/TileOps/a5/tcvt.py). Each template is a
 * short chain of vcvt (or vtrc) micro ops with a fixed saturation mode per pair and the op's round mode; every
 * step is the vector family's conversion lane (ops/vec/lane.h: lane_cvt, and num_round_integral for vtrc), so a
 * tile conversion can never disagree with the micro op it stands for. Which pairs exist: the op table's CVT rows
 * of TCVT (src/isa/ops_tile.def). Readings: docs/semantics.md §14 "tcvt". */
#include "tile_int.h"

/* One micro step of a conversion chain. */
typedef enum { CS_CVT, CS_TRC, CS_AND } CvtStepKind;
typedef enum { CR_OP, CR_R, CR_A } CvtRnd;   /* the op's round mode, nearest-even, or ties away (hif8) */
typedef struct CvtStep { uint8_t kind, s, d, rnd, sat; } CvtStep;
typedef struct CvtPlan {
    CvtStep st[4];
    uint8_t n;
    uint8_t rm;        /* NumRound of the op's rmode */
    uint8_t pack4;     /* bf16 -> f4 x2: two source elements per destination byte */
} CvtPlan;

/* The saturation mode the template passes for a one-step pair (tcvt.py: sat="sat"/"nosat" or the instruction's
   default, NOSAT). Float narrowing saturates except to hif8 and the 4-bit formats; float -> int saturates for
   f32/bf16 -> i32 and f32 -> i64; int narrowing saturates except i32 -> i16 and i64 -> i32. */
static int pair_sat(ElemKind s, ElemKind d)
{
    if (ek_float(s) && ek_float(d)) return d != EK_HIF8 && !ek_packed4(d);
    if (ek_float(s)) return (d == EK_S32 && (s == EK_F32 || s == EK_BF16)) || (s == EK_F32 && d == EK_S64);
    if (ek_float(d)) return 0;
    if (ek_bits(d) >= ek_bits(s)) return 0;
    return !((s == EK_S32 && d == EK_S16) || (s == EK_S64 && d == EK_S32));
}

static void step(CvtPlan *p, CvtStepKind k, ElemKind s, ElemKind d, CvtRnd r, int sat)
{
    p->st[p->n++] = (CvtStep){(uint8_t)k, (uint8_t)s, (uint8_t)d, (uint8_t)r, (uint8_t)sat};
}

/* The chain of the template of pair (s, d). */
static void plan_pair(CvtPlan *p, ElemKind s, ElemKind d)
{
    if (s == EK_F32 && d == EK_F32) {                          /* template_tcvt_f32_to_f32: vtrc */
        step(p, CS_TRC, s, d, CR_OP, 0);
    } else if (d == EK_S16 && (s == EK_F32 || s == EK_F16)) {  /* via i32, both steps NOSAT */
        step(p, CS_CVT, s, EK_S32, CR_OP, 0);
        step(p, CS_CVT, EK_S32, EK_S16, CR_R, 0);
    } else if (s == EK_F16 && d == EK_S8) {                    /* template_tcvt_f16_to_si8 */
        step(p, CS_CVT, EK_F16, EK_S16, CR_OP, 0);
        step(p, CS_AND, EK_S16, EK_S16, CR_R, 0);              /* vand with 255 */
        step(p, CS_CVT, EK_S16, EK_F16, CR_OP, 0);
        step(p, CS_CVT, EK_F16, EK_S8, CR_OP, 0);
    } else if (s == EK_S32 && d == EK_F16) {                  /* a2a3 vconv_deq, scale 1.0: nearest-even, no mode */
        step(p, CS_CVT, s, d, CR_R, 0);
    } else {
        step(p, CS_CVT, s, d, d == EK_HIF8 ? CR_A : CR_OP, pair_sat(s, d));
    }
    p->pack4 = (uint8_t)ek_packed4(d);
}

static uint64_t cvt_lane(const CvtPlan *p, uint64_t v)
{
    for (unsigned i = 0; i < p->n; i++) {
        const CvtStep *s = &p->st[i];
        NumRound rm = s->rnd == CR_OP ? (NumRound)p->rm : s->rnd == CR_A ? NUM_RND_A : NUM_RND_R;
        switch (s->kind) {
        case CS_TRC: v = num_round_integral(ek_fmt((ElemKind)s->s), v, rm); break;
        case CS_AND: v = valu_eval(VOP_AND, (ElemKind)s->s, v, 0xFF, 0); break;
        default: v = lane_cvt((ElemKind)s->s, (ElemKind)s->d, v, rm, s->sat != 0); break;
        }
    }
    return v;
}

/* The micro ops of one repeat, for the timing model. */
static unsigned cvt_micro(const CvtPlan *p, OpKind *m)
{
    unsigned n = 0;
    m[n++] = OP_VLDS;
    for (unsigned i = 0; i < p->n; i++) m[n++] = p->st[i].kind == CS_TRC ? OP_VTRC : p->st[i].kind == CS_AND ? OP_VAND : OP_VCVT;
    if (p->pack4 || ek_bits((ElemKind)p->st[p->n - 1].d) < 16) m[n++] = OP_VSELR;
    m[n++] = OP_VSTS;
    return n;
}

static int p_cvt(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    const CvtPlan *p = in->ext2;
    const Type *st = j->ty[(int)j->src0], *dt = j->ty[(int)j->dst];
    TileRt s = tj_tile(j, args, j->src0), d = tj_tile(j, args, j->dst);
    if (tile_check_valid(x, in, st, s, "source") || tile_check_valid(x, in, dt, d, "destination")) return -1;
    const ElemKind sk = (ElemKind)j->sek, dk = (ElemKind)j->ek;
    const unsigned es = ek_bytes(sk), ed = ek_bytes(dk), per = p->pack4 ? 2 : 1;
    const uint64_t spitch = tj_row_pitch(j, j->src0) * es, dpitch = tj_row_pitch(j, j->dst) * ed;
    for (uint64_t r = 0; r < d.vr && d.vc; r++) {
        const uint8_t *ps = sim_mem(x, in, (AddrSpace)st->space, s.addr + r * spitch, d.vc * per * es, 1, ACC_READ,
                                    "tile source");
        uint8_t *pd = ps ? sim_mem(x, in, (AddrSpace)dt->space, d.addr + r * dpitch, d.vc * ed, 1, ACC_WRITE,
                                   "tile destination") : NULL;
        if (!pd) return -1;
        if (p->pack4) {
            for (uint64_t c = 0; c < d.vc; c++) {
                uint64_t lo = cvt_lane(p, lane_get(ps, es, (unsigned)(2 * c))) & 0xF;
                uint64_t hi = cvt_lane(p, lane_get(ps, es, (unsigned)(2 * c + 1))) & 0xF;
                pd[c] = (uint8_t)(lo | hi << 4);
            }
        } else if (p->n == 1 && p->st[0].kind == CS_CVT && p->st[0].rnd == CR_OP) {
            lane_cvt_run(sk, dk, pd, ps, (unsigned)d.vc, (NumRound)p->rm, p->st[0].sat != 0);
        } else {
            for (uint64_t c = 0; c < d.vc; c++) lane_set(pd, ed, (unsigned)c, cvt_lane(p, lane_get(ps, es, (unsigned)c)));
        }
    }
    /* one repeat: a register of the wider of the two element types */
    OpKind m[10];
    unsigned nm = cvt_micro(p, m), wide = (es * per > ed ? es * per : ed);
    uint64_t lanes = VREG_BYTES / wide;
    x->extra_cost += tile_vec_cost(x, m, nm, dk, sk, (uint64_t)d.vr * ((d.vc + lanes - 1) / lanes));
    sim_count(x, PQ_V, (uint64_t)d.vr * d.vc * ed);
    return 0;
}

/* What tcvt touches: the source's and the destination's valid rows. */
static void foot_cvt(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    const CvtPlan *p = in->ext2;
    const Type *st = j->ty[(int)j->src0], *dt = j->ty[(int)j->dst];
    TileRt s = tj_tile(j, args, j->src0), d = tj_tile(j, args, j->dst);
    if (!d.vr || !d.vc) return;
    uint64_t es = ty_bytes(st->elem), ed = ty_bytes(dt->elem), per = p->pack4 ? 2 : 1;
    as_add(f, st->space, s.addr, s.addr + (d.vr - 1) * tj_row_pitch(j, j->src0) * es + d.vc * per * es, 0);
    as_add(f, dt->space, d.addr, d.addr + (d.vr - 1) * tj_row_pitch(j, j->dst) * ed + d.vc * ed, 1);
}

static NumRound rmode(const Op *op)
{
    switch (op_token_id(op, "rmode")) {
    case T_RMODE_ROUND: return NUM_RND_A;
    case T_RMODE_FLOOR: return NUM_RND_F;
    case T_RMODE_CEIL: return NUM_RND_C;
    case T_RMODE_TRUNC: return NUM_RND_Z;
    case T_RMODE_ODD: return NUM_RND_O;
    default: return NUM_RND_R;   /* RINT, CAST_RINT, NONE and the default: tcvt.py's _round_mode */
    }
}

int tile_lower_cvt(LowerView *L, const Op *op, Instr *in)
{
    TileJob *j = tile_job(L, op, in);
    CvtPlan *p = lw_alloc(L, op, sizeof *p);
    if (!j || !p) return -1;
    tile_find_windows(j, op, NULL);
    j->src0 = (int8_t)lw_group_index(L, op, "src", 0);
    j->dst = (int8_t)lw_group_index(L, op, "dst", 0);
    ElemKind s = elem_kind(op->operands[j->src0]->type->elem), d = elem_kind(op->operands[j->dst]->type->elem);
    /* the lowering is not target-aware: a pair of either target's rows runs (the verifier checks the target's) */
    if (s == EK_BAD || d == EK_BAD || (!op_cvt(OP_TCVT, s, d) && !op_cvt_on(OP_TCVT, PTO_TARGET_A2A3, s, d))) {
        lw_error(L, op, DIAG_V_ELEM_TYPE, "'pto.tcvt' has no %s -> %s form", ek_name(s), ek_name(d));
        return -1;
    }
    j->sek = (uint8_t)s;
    j->ek = (uint8_t)d;
    p->rm = (uint8_t)rmode(op);
    plan_pair(p, s, d);
    in->ext2 = p;
    in->pfn = p_cvt;
    in->foot = foot_cvt;
    in->cost = 1;
    return 0;
}
