/* tile_ew.c — the element-wise vector tile ops: one V job each over the destination's valid region, row by row
 * as the A5 TileLib's element-wise templates traverse it (lib/TileOps/a5/_elementwise.py). Every lane is the
 * vector family's lane function of the micro op the template emits (ops/vec/lane.h: valu_eval, lane_cmp,
 * lane_cvt; num_round_integral is vtrc's lane); where a template computes a lane with a sequence of micro ops
 * (high-precision division, remainders, high-precision log, reciprocal as 1/x) that sequence is followed op by
 * op, masked lanes included. Elements outside the valid region are neither read nor written.
 * The packed-predicate ops (tcmp, tcmps, tsel, tsels) use the byte layout the templates' predicate stores
 * produce: one bit per element, LSB first. docs/tile.md, docs/semantics.md §14. */
#include "tile_int.h"
#include "exec/timing.h"

enum {
    TE_UN, TE_BIN, TE_SCAL, TE_SCAL_L, TE_DIV_HP, TE_DIV_HP_S, TE_DIV_HP_SL, TE_REM, TE_REM_S, TE_LOG_HP, TE_RECIP,
    TE_CMP, TE_CMPS, TE_SEL, TE_SELS, TE_EXPANDS, TE_FILLPAD,
};

/* ------------------------------------------------------------------ composite lanes */

#define V(op, k, a, b) valu_eval(VOP_##op, k, a, b, 0)
#define C(tok, k, a, b) lane_cmp(T_CMP_##tok, k, a, b)

/* div_hp.py's three-candidate search (f32), its ops masked by m. */
static uint64_t three_cand(uint64_t lhs, uint64_t rhs, int m)
{
    const ElemKind F = EK_F32, U = EK_U32;
    const uint64_t INF = 0x7f800000u, SIGN = 0x80000000u, ONE = 0x3F800000u, NONE = 0xBF800000u;
    if (!m) return 0;   /* every op zeroes the lane; special = 0 selects z_best = 0 */
    uint64_t z = V(DIV, F, lhs, rhs), zi = z;
    uint64_t zos = V(OR, U, z, SIGN);
    int special = C(GE, U, zos, INF) || C(EQ, F, z, 0);
    uint64_t y = V(MUL, F, rhs, NONE);
    uint64_t r = V(ADD, F, lhs, V(MUL, F, z, y));
    uint64_t zp = V(ADD, F, z, NONE), zn = V(ADD, F, z, ONE);
    uint64_t rp = V(ADD, F, lhs, V(MUL, F, zp, y)), rn = V(ADD, F, lhs, V(MUL, F, zn, y));
    uint64_t ra = V(ABS, F, r, 0), rpa = V(ABS, F, rp, 0), rna = V(ABS, F, rn, 0);
    int bp = C(LT, F, rpa, ra);
    uint64_t zb = bp ? zp : z, rba = bp ? rpa : ra;
    if (C(LT, F, rna, rba)) zb = zn;
    return special ? zi : zb;
}

/* The high-precision division of div_hp.py, one lane: f32 (_div_ieee754_f32_impl) and f16
   (_div_ieee754_f16_impl). The constants are the templates'. */
typedef struct HpDiv {
    ElemKind F, U, S;
    uint64_t inf, sign, expx, expn, subt, qnan, enlarge, reduce, two, base;
    int64_t bias, uflow, oflow;
    unsigned mant;
    int f32;
} HpDiv;

static const HpDiv hp32 = {EK_F32, EK_U32, EK_S32, 0x7f800000u, 0x80000000u, 0x807FFFFFu, 0x3F800000u, 0x007FFFFFu,
                           0x7fc00000u, 0x4B000000u, 0x34000000u, 0x40000000u, 4194304u, 127, -23, 255, 23, 1};
static const HpDiv hp16 = {EK_F16, EK_U16, EK_S16, 0x7C00u, 0x8000u, 0x83FFu, 0x3C00u, 0x03FFu, 0x7E00u, 0x6400u,
                           0x1400u, 0x4000u, 512u, 15, -9, 31, 10, 0};

static uint64_t hp_div(const HpDiv *h, uint64_t src0, uint64_t src1)
{
    const ElemKind F = h->F, U = h->U, S = h->S;
    const uint64_t M = ek_mask(S);
    uint64_t a0 = V(ABS, F, src0, 0), a1 = V(ABS, F, src1, 0);
    int valid = !(C(EQ, U, a0, h->inf) || C(EQ, U, a1, h->inf) || C(EQ, U, a0, 0) || C(EQ, U, a1, 0));
    /* the f32 template detects a subnormal dividend with EQ (as pto-isa's Div754.hpp does), the f16 one with LT */
    int sub0 = h->f32 ? C(EQ, U, a0, h->subt) : C(LT, U, a0, h->subt), nrm0 = !sub0;
    int sub1 = C(LT, U, a1, h->subt), nrm1 = !sub1;
    uint64_t s0 = sub0 ? V(MUL, F, src0, h->enlarge) : 0, s1 = sub1 ? V(MUL, F, src1, h->enlarge) : 0;
    uint64_t all0 = nrm0 ? src0 : s0, all1 = nrm1 ? src1 : s1;
    uint64_t n0 = valid ? V(ADD, U, V(AND, U, all0, h->expx), h->expn) : 0;
    uint64_t n1 = valid ? V(ADD, U, V(AND, U, all1, h->expx), h->expn) : 0;
    n0 = valid ? n0 : all0;
    n1 = valid ? n1 : all1;
    uint64_t na0 = valid ? V(ABS, F, n0, 0) : 0, na1 = valid ? V(ABS, F, n1, 0) : 0;
    int mnorm = valid && C(LE, F, na0, na1);
    uint64_t dst = h->f32 ? three_cand(n0, n1, valid) : V(DIV, F, n0, n1);
    if (sub0 && nrm1) dst = V(MUL, F, dst, h->reduce);
    if (nrm0 && sub1) dst = V(MUL, F, dst, h->enlarge);
    uint64_t sign = V(AND, U, dst, h->sign);
    uint64_t e0 = V(SHR, U, V(AND, U, all0, h->inf), h->mant), e1 = V(SHR, U, V(AND, U, all1, h->inf), h->mant);
    uint64_t scale = V(ADD, S, V(SUB, S, e0, e1), (uint64_t)h->bias & M);
    int uf1 = valid && C(EQ, S, scale, (uint64_t)h->uflow & M);
    uint64_t z1 = uf1 ? V(ADD, U, sign, 1) : 0, z2 = uf1 ? V(ADD, U, sign, 0) : 0;
    uint64_t du = uf1 ? (mnorm ? z2 : z1) : dst;
    int mvt = !uf1 && valid;
    int uf2 = mvt && C(LT, S, scale, (uint64_t)h->uflow & M);
    if (uf2) du = V(ADD, U, sign, 0);
    mvt = mvt && !uf2;
    int of1 = mvt && C(EQ, S, scale, (uint64_t)h->oflow & M);
    if (of1) {
        scale = V(ADD, S, scale, M);   /* + (-1) */
        du = V(MUL, F, du, h->two);
    }
    int of2 = mvt && C(GT, S, scale, (uint64_t)h->oflow & M);
    if (of2) du = V(ADD, U, sign, h->inf);
    int mvf = mvt && !of2;
    int pos = mvf && C(GT, S, scale, 0);
    if (pos) du = V(MUL, F, du, V(SHL, U, scale, h->mant));
    if (mvf && !pos) du = V(MUL, F, du, V(SHR, S, h->base, V(ABS, S, scale, 0)));
    int nan = C(NE, F, a0, a0) || C(NE, F, a1, a1);
    return nan ? h->qnan : du;
}

/* _remainder.py: q = a / b, truncated in round mode rnd for floats; r = a - q * b; for f32 tile-tile a result
   whose sign differs from b's gets b added. */
static uint64_t rem_lane(ElemKind k, uint64_t a, uint64_t b, NumRound rnd, int correct)
{
    uint64_t q = V(DIV, k, a, b);
    if (ek_float(k)) q = num_round_integral(ek_fmt(k), q, rnd);
    uint64_t r = V(SUB, k, a, V(MUL, k, q, b));
    if (correct && k == EK_F32 && C(LT, k, V(MUL, k, b, r), 0)) r = V(ADD, k, r, b);
    return r;
}

/* tlog.py's high-precision form: inputs below the largest subnormal are scaled up before vln, the log of the
   scale subtracted after. */
static uint64_t log_hp(ElemKind k, uint64_t v)
{
    uint64_t thr, mul, comp;
    if (k == EK_F16) {
        thr = 0x03FF;
        mul = 0x6400;
        comp = num_convert(NUM_F64, num_f64_to_bits(-6.931471805599453094172), NUM_F16, NUM_RND_R, false);
    } else {
        thr = 0x007FFFFF;
        mul = 0x4B000000;
        comp = num_convert(NUM_F64, num_f64_to_bits(-15.9423851528787421), NUM_F32, NUM_RND_R, false);
    }
    int small = C(LT, k, v, thr);
    uint64_t l = V(LN, k, small ? V(MUL, k, v, mul) : v, 0);
    return small ? V(ADD, k, l, comp) : l;
}

static uint64_t one_bits(ElemKind k) { return k == EK_F16 ? 0x3C00 : k == EK_BF16 ? 0x3F80 : 0x3F800000; }

/* One destination lane from source lane a and the second operand b (a lane or the scalar). */
static uint64_t ew_lane(const TileJob *j, uint64_t a, uint64_t b)
{
    const ElemKind k = (ElemKind)j->ek;
    switch (j->kind) {
    case TE_UN: return valu_eval((ValuOp)j->vop, k, a, 0, 0);
    case TE_BIN: case TE_SCAL: return valu_eval((ValuOp)j->vop, k, a, b, 0);
    case TE_SCAL_L: return valu_eval((ValuOp)j->vop, k, b, a, 0);
    case TE_DIV_HP: case TE_DIV_HP_S: return hp_div(k == EK_F16 ? &hp16 : &hp32, a, b);
    case TE_DIV_HP_SL: return hp_div(k == EK_F16 ? &hp16 : &hp32, b, a);
    case TE_REM: return rem_lane(k, a, b, (NumRound)j->tok, 1);
    case TE_REM_S: return rem_lane(k, a, b, (NumRound)j->tok, 0);
    case TE_LOG_HP: return log_hp(k, a);
    case TE_RECIP: return V(DIV, k, one_bits(k), a);
    default: return 0;
    }
}

/* ------------------------------------------------------------------ timing */

/* The micro ops one repeat (one 256-byte register of lanes) of a tile op issues, by computation class. */
static unsigned micro_ops(const TileJob *j, OpKind m, OpKind *out)
{
    unsigned n = 0;
    switch (j->kind) {
    case TE_UN: case TE_RECIP: out[n++] = OP_VLDS; out[n++] = m; break;
    case TE_BIN: case TE_REM: out[n++] = OP_VLDS; out[n++] = OP_VLDS; out[n++] = m; break;
    case TE_SCAL: case TE_SCAL_L: case TE_REM_S: out[n++] = OP_VLDS; out[n++] = m; break;
    case TE_DIV_HP: case TE_DIV_HP_S: case TE_DIV_HP_SL:   /* about 60 vector ops (div_hp.py) */
        out[n++] = OP_VLDS;
        out[n++] = OP_VLDS;
        for (unsigned i = 0; i < 14; i++) { out[n++] = OP_VCMP; out[n++] = OP_VSEL; out[n++] = OP_VMUL; out[n++] = OP_VADD; }
        out[n++] = OP_VDIV;
        break;
    case TE_LOG_HP: out[n++] = OP_VLDS; out[n++] = OP_VCMPS; out[n++] = OP_VMULS; out[n++] = OP_VSEL; out[n++] = OP_VLN;
        out[n++] = OP_VADDS; out[n++] = OP_VSEL; break;
    case TE_CMP: out[n++] = OP_VLDS; out[n++] = OP_VLDS; out[n++] = OP_VCMP; out[n++] = OP_PSTS; return n;
    case TE_CMPS: out[n++] = OP_VLDS; out[n++] = OP_VCMPS; out[n++] = OP_PSTS; return n;
    case TE_SEL: out[n++] = OP_PLDS; out[n++] = OP_VLDS; out[n++] = OP_VLDS; out[n++] = OP_VSEL; break;
    case TE_SELS: out[n++] = OP_PLDS; out[n++] = OP_VLDS; out[n++] = OP_VSEL; break;
    case TE_EXPANDS: out[n++] = OP_VDUP; break;
    case TE_FILLPAD: out[n++] = OP_VLDS; out[n++] = OP_VDUP; break;
    default: break;
    }
    if (j->kind == TE_REM || j->kind == TE_REM_S) { out[n++] = OP_VTRC; out[n++] = OP_VMUL; out[n++] = OP_VSUB; }
    out[n++] = OP_VSTS;
    return n;
}

/* docs/timing.md "Tile ops": `lines` lines of `per_line` repeats (exec/timing.c timing_tile_body). */
static uint64_t ew_cost(Exec *x, const Instr *in, const TileJob *j, uint64_t lines, uint64_t per_line)
{
    if (!lines || !per_line) return 0;
    OpKind m[80];
    unsigned n = micro_ops(j, (OpKind)in->imm[0], m);
    x->core->pipes[PQ_V].ops += lines * per_line * n;
    return timing_tile_body(x->core->sim->timing, m, n, (ElemKind)j->ek, (ElemKind)j->sek, lines, per_line);
}

/* ------------------------------------------------------------------ the valid region */

/* A tile operand walked line by line: row-major tiles by rows, column-major ones by columns. */
typedef struct Walker {
    uint64_t addr, pitch;      /* bytes between lines */
    unsigned e;
    AddrSpace as;
} Walker;

static Walker walker(const TileJob *j, const uint64_t *args, int i)
{
    const Type *t = j->ty[i];
    TileRt r = tj_tile(j, args, i);
    Walker w = {r.addr, 0, ty_bytes(t->elem), (AddrSpace)t->space};
    w.pitch = (t->blayout == TBL_COL_MAJOR ? (uint64_t)t->dims[0] : tj_row_pitch(j, i)) * w.e;
    return w;
}

static uint8_t *line(Exec *x, const Instr *in, const Walker *w, uint64_t l, uint64_t n, int mode, const char *what)
{
    return sim_mem(x, in, w->as, w->addr + l * w->pitch, n * w->e, 1, mode, what);
}

static int check_tiles(Exec *x, const Instr *in, const TileJob *j, const uint64_t *args)
{
    for (int i = 0; i < j->n; i++)
        if (j->ty[i]->kind == TY_TILE_BUF &&
            tile_check_valid(x, in, j->ty[i], tj_tile(j, args, i), i == j->dst ? "destination" : "source"))
            return 1;
    return 0;
}

/* The scalar operand's lane: its value at its own width, converted when it is a float of another kind than the
   lanes (tlrelu's f32 slope on an f16 tile: the template's coercion, nearest-even). */
static uint64_t scalar_lane(const TileJob *j, const uint64_t *args)
{
    if (j->scal < 0) return 0;
    const Type *st = j->ty[(int)j->scal];
    uint64_t s = tj_scalar(j, args, j->scal);
    if (j->sbits < 64) s &= (1ull << j->sbits) - 1;
    ElemKind sk = elem_kind(st);
    if (st->kind == TY_FLOAT && sk != (ElemKind)j->ek && ek_float((ElemKind)j->ek))
        s = lane_cvt(sk, (ElemKind)j->ek, s, NUM_RND_R, false);
    return s;
}

static int p_ew(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (check_tiles(x, in, j, args)) return -1;
    TileRt d = tj_tile(j, args, j->dst);
    const Type *dt = j->ty[(int)j->dst];
    int colm = dt->blayout == TBL_COL_MAJOR;
    uint64_t nl = colm ? d.vc : d.vr, ll = colm ? d.vr : d.vc;
    Walker wd = walker(j, args, j->dst), wa = wd, wb = wd;
    if (j->src0 >= 0) wa = walker(j, args, j->src0);
    if (j->src1 >= 0) wb = walker(j, args, j->src1);
    uint64_t s = scalar_lane(j, args);
    unsigned e = wd.e;
    for (uint64_t l = 0; l < nl && ll; l++) {
        const uint8_t *pa = j->src0 >= 0 ? line(x, in, &wa, l, ll, ACC_READ, "tile source") : NULL;
        const uint8_t *pb = j->src1 >= 0 ? line(x, in, &wb, l, ll, ACC_READ, "tile source") : NULL;
        if ((j->src0 >= 0 && !pa) || (j->src1 >= 0 && !pb)) return -1;
        uint8_t *pd = line(x, in, &wd, l, ll, ACC_WRITE, "tile destination");
        if (!pd) return -1;
        for (uint64_t i = 0; i < ll; i++) {
            uint64_t a = pa ? lane_get(pa, wa.e, (unsigned)i) : 0;
            uint64_t b = pb ? lane_get(pb, wb.e, (unsigned)i) : s;
            lane_set(pd, e, (unsigned)i, ew_lane(j, a, b));
        }
    }
    uint64_t lanes = VREG_BYTES / e;
    x->extra_cost += ew_cost(x, in, j, nl, (ll + lanes - 1) / lanes);
    sim_count(x, PQ_V, nl * ll * e);
    return 0;
}

/* texpands: the scalar in every valid element. */
static int p_expands(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (check_tiles(x, in, j, args)) return -1;
    TileRt d = tj_tile(j, args, j->dst);
    int colm = j->ty[(int)j->dst]->blayout == TBL_COL_MAJOR;
    uint64_t nl = colm ? d.vc : d.vr, ll = colm ? d.vr : d.vc;
    Walker wd = walker(j, args, j->dst);
    uint64_t s = scalar_lane(j, args);
    for (uint64_t l = 0; l < nl && ll; l++) {
        uint8_t *pd = line(x, in, &wd, l, ll, ACC_WRITE, "tile destination");
        if (!pd) return -1;
        for (uint64_t i = 0; i < ll; i++) lane_set(pd, wd.e, (unsigned)i, s);
    }
    uint64_t lanes = VREG_BYTES / wd.e;
    x->extra_cost += ew_cost(x, in, j, nl, (ll + lanes - 1) / lanes);
    sim_count(x, PQ_V, nl * ll * wd.e);
    return 0;
}

/* The mat (L1) forms (pto-isa a5 TExpandS.hpp TExpandsTile, TFillPad.hpp TFillPad_cube): texpands fills the whole
   tile, rows x cols elements (create_cbuf_matrix over its bytes: the layout does not matter); tfillpad on an NZ tile
   zeroes, in the destination itself, the rows past its valid rows in each 32-byte column block up to the valid
   columns rounded up to the block, and every whole column block past them (the source is not read: the template
   works in place). */
static int p_mat_fill(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (check_tiles(x, in, j, args)) return -1;
    const Type *t = j->ty[(int)j->dst];
    TileRt d = tj_tile(j, args, j->dst);
    unsigned e = ty_bytes(t->elem);
    uint64_t R = (uint64_t)t->dims[0], C = (uint64_t)t->dims[1], c0 = 32 / e, n = 0;
    if (in->kind == OP_TEXPANDS) {
        uint8_t *p = sim_mem(x, in, AS_L1, d.addr, R * C * e, 1, ACC_WRITE, "tile destination");
        if (!p) return -1;
        uint64_t v = scalar_lane(j, args);
        for (uint64_t i = 0; i < R * C; i++) lane_set(p, e, (unsigned)i, v);
        n = R * C * e;
    } else {
        uint64_t acol = (d.vc + c0 - 1) / c0 * c0;
        for (uint64_t b = 0; b * c0 < C; b++) {   /* column block b: rows [from, R) */
            uint64_t from = b * c0 < acol ? d.vr : 0;
            if (from >= R) continue;
            uint8_t *p = sim_mem(x, in, AS_L1, d.addr + (b * R + from) * 32, (R - from) * 32, 1, ACC_WRITE,
                                 "tile destination");
            if (!p) return -1;
            memset(p, 0, (R - from) * 32);
            n += (R - from) * 32;
        }
    }
    sim_count(x, in->kind == OP_TEXPANDS ? PQ_V : PQ_MTE1, n);
    x->extra_cost += (n + 31) / 32;   /* one 32-byte block per cycle (create_cbuf_matrix) */
    return 0;
}

static void foot_mat_fill(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    tile_foot_whole(j, args, f, 1u << j->dst);
}

/* tfillpad (_fillpad.py): the destination's valid region holds the source where the source is valid and the
   destination's pad value elsewhere (a null pad fills zeros). An f32 destination padded `zero` whose valid region
   is larger than the source's fills -1.0 instead: the system tests' custom pad (docs/semantics.md "tfillpad custom
   pad"). */
static int p_fillpad(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (check_tiles(x, in, j, args)) return -1;
    TileRt d = tj_tile(j, args, j->dst), s = tj_tile(j, args, j->src0);
    Walker wd = walker(j, args, j->dst), ws = walker(j, args, j->src0);
    uint64_t fill = j->neg1 && (d.vr > s.vr || d.vc > s.vc) ? 0xBF800000u : j->konst;
    for (uint64_t r = 0; r < d.vr && d.vc; r++) {
        uint64_t n = r < s.vr ? (s.vc < d.vc ? s.vc : d.vc) : 0;
        const uint8_t *ps = n ? line(x, in, &ws, r, n, ACC_READ, "tile source") : NULL;
        if (n && !ps) return -1;
        uint8_t tmp[8];
        uint8_t *pd = line(x, in, &wd, r, d.vc, ACC_WRITE, "tile destination");
        if (!pd) return -1;
        for (uint64_t c = 0; c < d.vc; c++) {
            if (c < n) memcpy(tmp, ps + c * ws.e, ws.e);
            else lane_set(tmp, wd.e, 0, fill);
            memcpy(pd + c * wd.e, tmp, wd.e);
        }
    }
    uint64_t lanes = VREG_BYTES / wd.e;
    x->extra_cost += ew_cost(x, in, j, d.vr, (d.vc + lanes - 1) / lanes);
    sim_count(x, PQ_V, (uint64_t)d.vr * d.vc * wd.e);
    return 0;
}

/* ------------------------------------------------------------------ packed predicates */

/* Elements per predicate store and its bytes, by source element bytes (tcmp.py: 32- and 16-bit compares store
   128 elements in 16 bytes, 8-bit ones 256 in 32). */
static void pred_block(unsigned e, uint64_t *elems, uint64_t *bytes)
{
    *elems = e == 1 ? 256 : 128;
    *bytes = e == 1 ? 32 : 16;
}

/* tcmp / tcmps: row r's bits go to the destination at r * (its row bytes) for tcmp, at r * (the packed bytes
   of a row) for tcmps (its 1-D form: one packed stream); each row writes whole predicate stores, bits past
   the valid columns 0. */
static int p_cmp(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (check_tiles(x, in, j, args)) return -1;
    TileRt a = tj_tile(j, args, j->src0), d = tj_tile(j, args, j->dst);
    Walker wa = walker(j, args, j->src0), wb = wa, wd = walker(j, args, j->dst);
    if (j->src1 >= 0) wb = walker(j, args, j->src1);
    const ElemKind k = (ElemKind)j->sek;
    uint64_t s = j->scal >= 0 ? tj_scalar(j, args, j->scal) & ek_mask(k) : 0;
    uint64_t be, bb;
    pred_block(wa.e, &be, &bb);
    uint64_t vr = a.vr, vc = a.vc, rowbytes = (vc + be - 1) / be * bb;
    (void)d;
    if (j->flat) {   /* tcmps 1-D: one stream over vr * vc elements */
        uint64_t total = vr * vc, nbytes = (total + be - 1) / be * bb;
        uint8_t *pd = sim_mem(x, in, wd.as, wd.addr, nbytes, 1, ACC_WRITE, "predicate destination");
        const uint8_t *pa = total ? sim_mem(x, in, wa.as, wa.addr, total * wa.e, 1, ACC_READ, "tile source") : NULL;
        if (!pd || (total && !pa)) return -1;
        memset(pd, 0, nbytes);
        for (uint64_t i = 0; i < total; i++)
            if (lane_cmp(j->tok, k, lane_get(pa, wa.e, (unsigned)i), s)) pd[i >> 3] = (uint8_t)(pd[i >> 3] | (1u << (i & 7)));
    } else {
        uint64_t dpitch = j->src1 >= 0 ? wd.pitch : rowbytes;
        for (uint64_t r = 0; r < vr && vc; r++) {
            const uint8_t *pa = line(x, in, &wa, r, vc, ACC_READ, "tile source");
            const uint8_t *pb = j->src1 >= 0 ? line(x, in, &wb, r, vc, ACC_READ, "tile source") : NULL;
            uint8_t *pd = sim_mem(x, in, wd.as, wd.addr + r * dpitch, rowbytes, 1, ACC_WRITE, "predicate destination");
            if (!pa || (j->src1 >= 0 && !pb) || !pd) return -1;
            memset(pd, 0, rowbytes);
            for (uint64_t c = 0; c < vc; c++) {
                uint64_t lb = pb ? lane_get(pb, wb.e, (unsigned)c) : s;
                if (lane_cmp(j->tok, k, lane_get(pa, wa.e, (unsigned)c), lb)) pd[c >> 3] = (uint8_t)(pd[c >> 3] | (1u << (c & 7)));
            }
        }
    }
    uint64_t lanes = VREG_BYTES / wa.e;
    x->extra_cost += ew_cost(x, in, j, vr, (vc + lanes - 1) / lanes);
    sim_count(x, PQ_V, vr * vc * wa.e);
    return 0;
}

/* tsel / tsels: element (r, c) is the first source where bit c of the mask row r (at r * the mask's row bytes)
   is set, else the second source (tsel) or the scalar (tsels). */
static int p_sel(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    if (check_tiles(x, in, j, args)) return -1;
    TileRt d = tj_tile(j, args, j->dst);
    Walker wm = walker(j, args, j->mask), wa = walker(j, args, j->src0), wb = wa, wd = walker(j, args, j->dst);
    if (j->src1 >= 0) wb = walker(j, args, j->src1);
    uint64_t s = scalar_lane(j, args);
    for (uint64_t r = 0; r < d.vr && d.vc; r++) {
        const uint8_t *pm = sim_mem(x, in, wm.as, wm.addr + r * wm.pitch, (d.vc + 7) / 8, 1, ACC_READ, "predicate source");
        const uint8_t *pa = line(x, in, &wa, r, d.vc, ACC_READ, "tile source");
        const uint8_t *pb = j->src1 >= 0 ? line(x, in, &wb, r, d.vc, ACC_READ, "tile source") : NULL;
        uint8_t *pd = line(x, in, &wd, r, d.vc, ACC_WRITE, "tile destination");
        if (!pm || !pa || (j->src1 >= 0 && !pb) || !pd) return -1;
        for (uint64_t c = 0; c < d.vc; c++) {
            uint64_t v = (pm[c >> 3] >> (c & 7)) & 1 ? lane_get(pa, wa.e, (unsigned)c)
                                                   : pb ? lane_get(pb, wb.e, (unsigned)c) : s;
            lane_set(pd, wd.e, (unsigned)c, v);
        }
    }
    uint64_t lanes = VREG_BYTES / wd.e;
    x->extra_cost += ew_cost(x, in, j, d.vr, (d.vc + lanes - 1) / lanes);
    sim_count(x, PQ_V, (uint64_t)d.vr * d.vc * wd.e);
    return 0;
}

/* ------------------------------------------------------------------ footprints */

/* What an element-wise op touches, for auto-sync: the bytes between the first and the last valid element of
   each tile operand (sources read, the destination written; tcmp's destination its packed rows). */
static void foot_ew(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    for (int i = 0; i < j->n; i++) {
        const Type *t = j->ty[i];
        if (t->kind != TY_TILE_BUF) continue;
        TileRt r = tj_tile(j, args, i);
        uint64_t e = ty_bytes(t->elem), hi;
        int colm = t->blayout == TBL_COL_MAJOR;
        uint64_t nl = colm ? r.vc : r.vr, ll = colm ? r.vr : r.vc;
        uint64_t pitch = (colm ? (uint64_t)t->dims[0] : tj_row_pitch(j, i)) * e;
        if (i == j->dst && (j->kind == TE_CMP || j->kind == TE_CMPS)) {
            /* packed rows: at most one row of the tile's bytes per source row, or the flat stream */
            TileRt a = tj_tile(j, args, j->src0);
            uint64_t rows = a.vr ? a.vr : 1;
            hi = rows * pitch + 64 + (uint64_t)a.vr * a.vc / 8;
        } else if (i == j->mask) {
            TileRt d = tj_tile(j, args, j->dst);
            hi = d.vr ? (d.vr - 1) * pitch + (d.vc + 7) / 8 : 0;
        } else {
            hi = nl && ll ? (nl - 1) * pitch + ll * e : 0;
        }
        as_add(f, t->space, r.addr, r.addr + hi, i == j->dst);
    }
}

/* ------------------------------------------------------------------ lowering */

typedef struct EwRow { uint16_t op; uint8_t kind, vop; uint16_t micro; } EwRow;
static const EwRow ew_rows[] = {
    {OP_TADD, TE_BIN, VOP_ADD, OP_VADD}, {OP_TSUB, TE_BIN, VOP_SUB, OP_VSUB}, {OP_TMUL, TE_BIN, VOP_MUL, OP_VMUL},
    {OP_TDIV, TE_BIN, VOP_DIV, OP_VDIV}, {OP_TMAX, TE_BIN, VOP_MAX, OP_VMAX}, {OP_TMIN, TE_BIN, VOP_MIN, OP_VMIN},
    {OP_TAND, TE_BIN, VOP_AND, OP_VAND}, {OP_TOR, TE_BIN, VOP_OR, OP_VOR}, {OP_TXOR, TE_BIN, VOP_XOR, OP_VXOR},
    {OP_TSHL, TE_BIN, VOP_SHL, OP_VSHL}, {OP_TSHR, TE_BIN, VOP_SHR, OP_VSHR}, {OP_TPRELU, TE_BIN, VOP_PRELU, OP_VPRELU},
    {OP_TADDRELU, TE_BIN, VOP_ADDRELU, OP_VADDRELU},
    {OP_TREM, TE_REM, VOP_DIV, OP_VDIV}, {OP_TFMOD, TE_REM, VOP_DIV, OP_VDIV},
    {OP_TADDS, TE_SCAL, VOP_ADD, OP_VADDS}, {OP_TSUBS, TE_SCAL, VOP_SUB, OP_VSUB}, {OP_TMULS, TE_SCAL, VOP_MUL, OP_VMULS},
    {OP_TDIVS, TE_SCAL, VOP_DIV, OP_VDIV}, {OP_TMAXS, TE_SCAL, VOP_MAX, OP_VMAXS}, {OP_TMINS, TE_SCAL, VOP_MIN, OP_VMINS},
    {OP_TANDS, TE_SCAL, VOP_AND, OP_VAND}, {OP_TORS, TE_SCAL, VOP_OR, OP_VOR}, {OP_TXORS, TE_SCAL, VOP_XOR, OP_VXOR},
    {OP_TSHLS, TE_SCAL, VOP_SHL, OP_VSHLS}, {OP_TSHRS, TE_SCAL, VOP_SHR, OP_VSHRS},
    {OP_TREMS, TE_REM_S, VOP_DIV, OP_VDIV}, {OP_TFMODS, TE_REM_S, VOP_DIV, OP_VDIV},
    {OP_TLRELU, TE_SCAL, VOP_LRELU, OP_VLRELU},
    {OP_TABS, TE_UN, VOP_ABS, OP_VABS}, {OP_TNEG, TE_UN, VOP_NEG, OP_VNEG}, {OP_TEXP, TE_UN, VOP_EXP, OP_VEXP},
    {OP_TLOG, TE_UN, VOP_LN, OP_VLN}, {OP_TSQRT, TE_UN, VOP_SQRT, OP_VSQRT}, {OP_TRSQRT, TE_UN, VOP_RSQRT, OP_VRSQRT},
    {OP_TRECIP, TE_RECIP, VOP_DIV, OP_VDIV}, {OP_TRELU, TE_UN, VOP_RELU, OP_VRELU}, {OP_TNOT, TE_UN, VOP_NOT, OP_VNOT},
    {OP_TCMP, TE_CMP, 0, OP_VCMP}, {OP_TCMPS, TE_CMPS, 0, OP_VCMPS}, {OP_TSEL, TE_SEL, 0, OP_VSEL},
    {OP_TSELS, TE_SELS, 0, OP_VSEL}, {OP_TEXPANDS, TE_EXPANDS, 0, OP_VDUP}, {OP_TFILLPAD, TE_FILLPAD, 0, OP_VDUP},
};

static const EwRow *ew_row(int kind)
{
    for (unsigned i = 0; i < sizeof ew_rows / sizeof ew_rows[0]; i++)
        if (ew_rows[i].op == kind) return &ew_rows[i];
    return NULL;
}

/* Every operand of the line-wise ops reads and writes through walker(); tcmp / tcmps (packed rows, a flat form
   chosen from the types) and tsel's predicate mask do not take windows. */
int tile_ew_pitch_ok(const Op *o, uint32_t i)
{
    const EwRow *r = ew_row(o->kind);
    if (!r || r->kind == TE_CMP || r->kind == TE_CMPS) return 0;
    return !((o->kind == OP_TSEL || o->kind == OP_TSELS) && i == 0);   /* the mask: the first operand (ops_tile.def) */
}

static int hp_attr(const Op *op)
{
    const Attr *a = op_token(op, "precisionType");
    return a && a->s && strcmp(a->s, "high_precision") == 0;
}

/* tcmps' 1-D form (require_predicate_compare_1d with a flattened destination, ptodsl tilelib): chosen by the
   compiler for static row-major tiles when the packed stream fits the destination; it packs rows without gaps. */
static int tcmps_flat(const Type *src, const Type *dst)
{
    for (int i = 0; i < 4; i++)
        if (src->dims[i] <= 0 || dst->dims[i] <= 0) return 0;
    if (src->blayout || src->slayout || dst->blayout || dst->slayout || src->compact > 1 || dst->compact > 1) return 0;
    int64_t vr = src->dims[2], vc = src->dims[3];
    if (dst->dims[2] != vr) return 0;
    uint64_t e = ty_bytes(src->elem), be, bb;
    pred_block((unsigned)e, &be, &bb);
    int64_t prow = dst->dims[1] * (int64_t)ty_bytes(dst->elem), need = (vc + (int64_t)be - 1) / (int64_t)be * (int64_t)bb;
    if (prow < need) return 0;
    if (vr == 1) return 0;   /* one row: both forms write the same bytes */
    int contiguous = vc == src->dims[1];
    if (prow >= src->dims[1] * (int64_t)ty_bytes(dst->elem)) {
        int64_t total = (vr * vc + (int64_t)be - 1) / (int64_t)be * (int64_t)bb;
        return contiguous && dst->dims[0] * prow >= total;
    }
    return 0;
}

int tile_lower_ew(LowerView *L, const Op *op, Instr *in)
{
    const EwRow *row = ew_row(op->kind);
    if (!row) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' is not simulated yet", op_info[op->kind].name);
        return -1;
    }
    TileJob *j = tile_job(L, op, in);
    if (!j) return -1;
    j->kind = row->kind;
    j->vop = row->vop;
    in->imm[0] = row->micro;
    in->pfn = p_ew;
    in->foot = foot_ew;
    in->cost = 1;
    j->dst = (int8_t)lw_group_index(L, op, "dst", 0);
    const Type *dt = op->operands[j->dst]->type;
    j->ek = (uint8_t)elem_kind(dt->elem);
    j->sek = j->ek;
    int s0 = lw_group_index(L, op, "src0", 0), s = lw_group_index(L, op, "src", 0);
    j->src0 = (int8_t)(s0 >= 0 ? s0 : s);
    j->src1 = (int8_t)lw_group_index(L, op, "src1", 0);
    j->scal = (int8_t)lw_group_index(L, op, "scalar", 0);
    if (op->kind == OP_TLRELU) j->scal = (int8_t)lw_group_index(L, op, "slope", 0);
    if (op->kind == OP_TDIVS) {   /* tile and scalar in either order */
        int a = lw_group_index(L, op, "a", 0), b = lw_group_index(L, op, "b", 0);
        int lhs = op->operands[a]->type->kind != TY_TILE_BUF;
        j->src0 = (int8_t)(lhs ? b : a);
        j->scal = (int8_t)(lhs ? a : b);
        if (lhs) j->kind = TE_SCAL_L;
    }
    if (j->scal >= 0) j->sbits = (uint8_t)ty_bits(op->operands[j->scal]->type);
    if ((op->kind == OP_TEXPANDS || op->kind == OP_TFILLPAD) && dt->space == AS_L1) {   /* the mat forms */
        if (op->kind == OP_TFILLPAD && (dt->compact || ty_bytes(dt->elem) > 4 || 32 % ty_bytes(dt->elem))) {
            lw_error(L, op, DIAG_T_UNSUPPORTED, "'pto.tfillpad' on a mat tile with a compact mode or of this element "
                     "type is not simulated");
            return -1;
        }
        in->pfn = p_mat_fill;
        in->foot = foot_mat_fill;
        if (op->kind == OP_TFILLPAD) in->pipe = PQ_MTE1;   /* PTOAS TFillPadOp::getPipe: mat -> mat on MTE1 */
        return 0;
    }
    int hp = hp_attr(op);
    ElemKind k = (ElemKind)j->ek;
    switch (op->kind) {
    case OP_TDIV: case OP_TDIVS:
        /* the high-precision algorithm exists for f32 and f16; i32 always takes the soft division */
        if (hp && (k == EK_F32 || k == EK_F16))
            j->kind = op->kind == OP_TDIV ? TE_DIV_HP : j->kind == TE_SCAL_L ? TE_DIV_HP_SL : TE_DIV_HP_S;
        break;
    case OP_TREM: case OP_TREMS: j->tok = NUM_RND_F; break;
    case OP_TFMOD: case OP_TFMODS: j->tok = NUM_RND_Z; break;
    case OP_TLOG: if (hp) j->kind = TE_LOG_HP; break;
    case OP_TCMP: case OP_TCMPS: {
        int t = op_token_id(op, "cmpMode");
        j->tok = (int16_t)(t >= 0 ? t : T_CMP_EQ);
        j->sek = (uint8_t)elem_kind(op->operands[j->src0]->type->elem);
        if (op->kind == OP_TCMPS) j->flat = (uint8_t)tcmps_flat(op->operands[j->src0]->type, dt);
        in->pfn = p_cmp;
        break;
    }
    case OP_TSEL: case OP_TSELS:
        j->mask = (int8_t)lw_group_index(L, op, "mask", 0);
        if (op->kind == OP_TSELS) j->src1 = -1;
        in->pfn = p_sel;
        break;
    case OP_TEXPANDS: in->pfn = p_expands; break;
    case OP_TFILLPAD:
        j->konst = tile_pad_bits(dt, dt->pad);
        j->neg1 = elem_kind(dt->elem) == EK_F32 && dt->pad == TPAD_ZERO;
        in->pfn = p_fillpad;
        break;
    default: break;
    }
    if (j->ek == EK_BAD || j->sek == EK_BAD) {
        lw_error(L, op, DIAG_V_ELEM_TYPE, "'%s' on tiles of this element type is not simulated", op_info[op->kind].name);
        return -1;
    }
    tile_find_windows(j, op, tile_ew_pitch_ok);
    return 0;
}
