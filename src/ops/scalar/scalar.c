/* scalar.c — the scalar unit's operations: the arith dialect with exact integer semantics at every
 * width (values live zero-extended in 64-bit slots), float arithmetic without host-mode dependence,
 * pointer ops, scalar loads/stores and block queries. Undefined-in-MLIR corners get one fixed reading,
 * recorded in docs/semantics.md (division overflow wraps, shifts >= width give 0 or the sign fill,
 * float->int conversions saturate). */
#include "scalar.h"
#include "base/alloc.h"
#include "base/bits.h"
#include "base/fmtspec.h"
#include "base/num.h"
#include "exec/check.h"
#include <stdlib.h>
#include <string.h>


/* Decoded operands of the arith ops (Instr.imm); the casts and the constant reuse slots for their own. */
enum {
    AR_BITS,    /* width of the operands */
    AR_FMT,     /* float operands: their NumFormat */
    AR_OP,      /* addf..divf: NumOp; maximumf 0, minimumf 1, maxnumf 2, minnumf 3; cmpi/cmpf: predicate token */
    AR_BYTES,   /* select: bytes of the selected value (a scalar slot, a vreg or a mask) */
};

#define A0 ARG(x, in, 0)
#define A1 ARG(x, in, 1)
#define W (in->imm[AR_BITS])
#define SET(v) fr_set_u64(x, in->res[0], (uint64_t)(v) & bits_mask(W))
#define NEXT return in + 1

/* ------------------------------------------------------------------ integers */

static const Instr *x_addi(Exec *x, const Instr *in) { SET(A0 + A1); NEXT; }
static const Instr *x_subi(Exec *x, const Instr *in) { SET(A0 - A1); NEXT; }
static const Instr *x_muli(Exec *x, const Instr *in) { SET(A0 * A1); NEXT; }
static const Instr *x_andi(Exec *x, const Instr *in) { SET(A0 & A1); NEXT; }
static const Instr *x_ori(Exec *x, const Instr *in) { SET(A0 | A1); NEXT; }
static const Instr *x_xori(Exec *x, const Instr *in) { SET(A0 ^ A1); NEXT; }

static const Instr *x_shli(Exec *x, const Instr *in)
{
    uint64_t s = A1 & bits_mask(W);
    SET(s >= (uint64_t)W ? 0 : A0 << s);
    NEXT;
}
static const Instr *x_shrui(Exec *x, const Instr *in)
{
    uint64_t s = A1 & bits_mask(W);
    SET(s >= (uint64_t)W ? 0 : (A0 & bits_mask(W)) >> s);
    NEXT;
}
static const Instr *x_shrsi(Exec *x, const Instr *in)
{
    uint64_t s = A1 & bits_mask(W);
    int64_t v = bits_sext(A0, W);
    if (s >= (uint64_t)W) s = (uint64_t)W - 1;
    /* arithmetic shift without relying on implementation-defined >> of negative values */
    uint64_t r = v < 0 ? ~(~(uint64_t)v >> s) : (uint64_t)v >> s;
    SET(r);
    NEXT;
}

/* A zero divisor (semantics "Integer division"): W-DIV-ZERO once per op, and the division gives all ones, the
   remainder the dividend (so a = q * b + r still holds). Returns 1 when the divisor is zero. */
static int divzero(Exec *x, const Instr *in, uint64_t d)
{
    if (d & bits_mask(W)) return 0;
    sim_warn_once(x, in, DIAG_T_DIV_ZERO, "'%s': integer division by zero (the quotient is all ones, the remainder "
                  "the dividend)", op_info[in->kind].name);
    return 1;
}

/* Signed division at width W; the one overflowing case (MIN / -1) wraps to MIN. */
static int64_t sdiv(int64_t a, int64_t b, int64_t w)
{
    int64_t min = w >= 64 ? INT64_MIN : -(int64_t)(1ull << (w - 1));
    if (b == -1 && a == min) return a;
    return a / b;
}
static int64_t srem(int64_t a, int64_t b, int64_t w)
{
    int64_t min = w >= 64 ? INT64_MIN : -(int64_t)(1ull << (w - 1));
    if (b == -1 && a == min) return 0;
    return a % b;
}

/* The quotients: by zero all ones (divzero). */
static const Instr *x_divsi(Exec *x, const Instr *in)
{
    if (divzero(x, in, A1)) SET(~0ull);
    else SET((uint64_t)sdiv(bits_sext(A0, W), bits_sext(A1, W), W));
    NEXT;
}
static const Instr *x_divui(Exec *x, const Instr *in)
{
    if (divzero(x, in, A1)) SET(~0ull);
    else SET((A0 & bits_mask(W)) / (A1 & bits_mask(W)));
    NEXT;
}
static const Instr *x_ceildivsi(Exec *x, const Instr *in)
{
    if (divzero(x, in, A1)) { SET(~0ull); NEXT; }
    int64_t a = bits_sext(A0, W), b = bits_sext(A1, W);
    int64_t q = sdiv(a, b, W), r = srem(a, b, W);
    if (r != 0 && ((r > 0) == (b > 0))) q = (int64_t)((uint64_t)q + 1);
    SET((uint64_t)q);
    NEXT;
}
static const Instr *x_floordivsi(Exec *x, const Instr *in)
{
    if (divzero(x, in, A1)) { SET(~0ull); NEXT; }
    int64_t a = bits_sext(A0, W), b = bits_sext(A1, W);
    int64_t q = sdiv(a, b, W), r = srem(a, b, W);
    if (r != 0 && ((r < 0) != (b < 0))) q = (int64_t)((uint64_t)q - 1);
    SET((uint64_t)q);
    NEXT;
}
static const Instr *x_ceildivui(Exec *x, const Instr *in)
{
    if (divzero(x, in, A1)) { SET(~0ull); NEXT; }
    uint64_t a = A0 & bits_mask(W), b = A1 & bits_mask(W);
    SET(a / b + (a % b != 0));
    NEXT;
}
/* The remainders: by zero the dividend (divzero). */
static const Instr *x_remsi(Exec *x, const Instr *in)
{
    if (divzero(x, in, A1)) SET(A0);
    else SET((uint64_t)srem(bits_sext(A0, W), bits_sext(A1, W), W));
    NEXT;
}
static const Instr *x_remui(Exec *x, const Instr *in)
{
    if (divzero(x, in, A1)) SET(A0);
    else SET((A0 & bits_mask(W)) % (A1 & bits_mask(W)));
    NEXT;
}
static const Instr *x_maxsi(Exec *x, const Instr *in) { SET(bits_sext(A0, W) > bits_sext(A1, W) ? A0 : A1); NEXT; }
static const Instr *x_minsi(Exec *x, const Instr *in) { SET(bits_sext(A0, W) < bits_sext(A1, W) ? A0 : A1); NEXT; }
static const Instr *x_maxui(Exec *x, const Instr *in) { SET((A0 & bits_mask(W)) > (A1 & bits_mask(W)) ? A0 : A1); NEXT; }
static const Instr *x_minui(Exec *x, const Instr *in) { SET((A0 & bits_mask(W)) < (A1 & bits_mask(W)) ? A0 : A1); NEXT; }

static const Instr *x_cmpi(Exec *x, const Instr *in)
{
    uint64_t a = A0 & bits_mask(W), b = A1 & bits_mask(W);
    int64_t sa = bits_sext(a, W), sb = bits_sext(b, W);
    int r = 0;
    switch ((int)in->imm[AR_OP]) {
    case T_ARITHCMPI_EQ: r = a == b; break;
    case T_ARITHCMPI_NE: r = a != b; break;
    case T_ARITHCMPI_SLT: r = sa < sb; break;
    case T_ARITHCMPI_SLE: r = sa <= sb; break;
    case T_ARITHCMPI_SGT: r = sa > sb; break;
    case T_ARITHCMPI_SGE: r = sa >= sb; break;
    case T_ARITHCMPI_ULT: r = a < b; break;
    case T_ARITHCMPI_ULE: r = a <= b; break;
    case T_ARITHCMPI_UGT: r = a > b; break;
    case T_ARITHCMPI_UGE: r = a >= b; break;
    }
    fr_set_u64(x, in->res[0], (uint64_t)r);
    NEXT;
}

static const Instr *x_select(Exec *x, const Instr *in)
{
    int32_t src = (A0 & 1) ? in->arg[1] : in->arg[2];
    memmove(x->frame + in->res[0], x->frame + src, (size_t)in->imm[AR_BYTES]);
    NEXT;
}

/* ------------------------------------------------------------------ floats */

static NumFormat numfmt(const Type *t) { return fk_format((FloatKind)t->fk); }

static int fis_nan(NumFormat f, uint64_t v) { return num_is_nan(f, v); }

/* value of a float slot as double (exact for every format up to f64) */
static double fval(NumFormat f, uint64_t v) { return num_bits_to_f64(num_convert(f, v, NUM_F64, NUM_RND_R, false)); }

static const Instr *x_fbin(Exec *x, const Instr *in)
{
    NumFormat f = (NumFormat)in->imm[AR_FMT];
    NumOp op = (NumOp)in->imm[AR_OP];
    uint64_t r;
    if (f == NUM_F64) {
        double a = num_bits_to_f64(A0), b = num_bits_to_f64(A1), c;
        switch (op) {
        case NUM_OP_ADD: c = a + b; break;
        case NUM_OP_SUB: c = a - b; break;
        case NUM_OP_MUL: c = a * b; break;
        default: c = a / b; break;
        }
        r = c != c ? num_canonical_nan(NUM_F64) : num_f64_to_bits(c);
    } else {
        r = num_arith(f, op, A0, A1, NUM_RND_R);
    }
    fr_set_u64(x, in->res[0], r);
    NEXT;
}

/* f32 + - * / (the fast path; x_fbin is its reference, --no-fast-paths): num_f32_arith_rn, bit-identical */
static const Instr *x_fbin_f32(Exec *x, const Instr *in)
{
    fr_set_u64(x, in->res[0], num_f32_arith_rn((NumOp)in->imm[AR_OP], (uint32_t)A0, (uint32_t)A1));
    NEXT;
}

/* maximumf, minimumf propagate NaNs; maxnumf, minnumf ignore them */
static const Instr *x_fminmax(Exec *x, const Instr *in)
{
    NumFormat f = (NumFormat)in->imm[AR_FMT];
    uint64_t a = A0, b = A1;
    int an = fis_nan(f, a), bn = fis_nan(f, b);
    int kind = (int)in->imm[AR_OP];
    uint64_t r;
    if (an || bn) {
        if (kind <= 1 || (an && bn)) r = num_canonical_nan(f);
        else r = an ? b : a;
    } else {
        double da = fval(f, a), db = fval(f, b);
        int want_max = kind == 0 || kind == 2;
        if (da == db) {
            /* +0 vs -0: max prefers +0, min prefers -0 */
            unsigned sb = num_format_bits(f) - 1;
            int a_neg = (int)((a >> sb) & 1);
            r = want_max ? (a_neg ? b : a) : (a_neg ? a : b);
        } else {
            r = (want_max ? da > db : da < db) ? a : b;
        }
    }
    fr_set_u64(x, in->res[0], r);
    NEXT;
}

static const Instr *x_negf(Exec *x, const Instr *in)
{
    NumFormat f = (NumFormat)in->imm[AR_FMT];
    fr_set_u64(x, in->res[0], A0 ^ (1ull << (num_format_bits(f) - 1)));
    NEXT;
}

static const Instr *x_cmpf(Exec *x, const Instr *in)
{
    NumFormat f = (NumFormat)in->imm[AR_FMT];
    int un = fis_nan(f, A0) || fis_nan(f, A1);
    double a = un ? 0 : fval(f, A0), b = un ? 0 : fval(f, A1);
    int r = 0;
    switch ((int)in->imm[AR_OP]) {
    case T_ARITHCMPF_FALSE: r = 0; break;
    case T_ARITHCMPF_OEQ: r = !un && a == b; break;
    case T_ARITHCMPF_OGT: r = !un && a > b; break;
    case T_ARITHCMPF_OGE: r = !un && a >= b; break;
    case T_ARITHCMPF_OLT: r = !un && a < b; break;
    case T_ARITHCMPF_OLE: r = !un && a <= b; break;
    case T_ARITHCMPF_ONE: r = !un && a != b; break;
    case T_ARITHCMPF_ORD: r = !un; break;
    case T_ARITHCMPF_UEQ: r = un || a == b; break;
    case T_ARITHCMPF_UGT: r = un || a > b; break;
    case T_ARITHCMPF_UGE: r = un || a >= b; break;
    case T_ARITHCMPF_ULT: r = un || a < b; break;
    case T_ARITHCMPF_ULE: r = un || a <= b; break;
    case T_ARITHCMPF_UNE: r = un || a != b; break;
    case T_ARITHCMPF_UNO: r = un; break;
    case T_ARITHCMPF_TRUE: r = 1; break;
    }
    fr_set_u64(x, in->res[0], (uint64_t)r);
    NEXT;
}

/* ------------------------------------------------------------------ casts */

enum { CV_SEXT, CV_ZEXT, CV_TRUNC, CV_SITOFP, CV_UITOFP, CV_FPTOSI, CV_FPTOUI, CV_FTOF, CV_BITS };

/* Decoded operands of the casts (Instr.imm). */
enum {
    CV_SRC_BITS,   /* width of the source */
    CV_DST_BITS,   /* width of the result */
    CV_KIND,       /* the conversion, CV_SEXT..CV_BITS */
    CV_SRC_FMT,    /* float source: its NumFormat */
    CV_DST_FMT,    /* float result: its NumFormat */
};

static const Instr *x_cast(Exec *x, const Instr *in)
{
    uint64_t v = A0, r = 0;
    int64_t sw = in->imm[CV_SRC_BITS], dw = in->imm[CV_DST_BITS];
    switch ((int)in->imm[CV_KIND]) {
    case CV_SEXT: r = (uint64_t)bits_sext(v, sw) & bits_mask(dw); break;
    case CV_ZEXT: case CV_TRUNC: case CV_BITS: r = v & bits_mask(sw) & bits_mask(dw); break;
    case CV_SITOFP: r = num_from_int(v, (unsigned)sw, true, (NumFormat)in->imm[CV_DST_FMT], NUM_RND_R); break;
    case CV_UITOFP: r = num_from_int(v, (unsigned)sw, false, (NumFormat)in->imm[CV_DST_FMT], NUM_RND_R); break;
    case CV_FPTOSI: r = num_to_int((NumFormat)in->imm[CV_SRC_FMT], v, NUM_RND_Z, (unsigned)dw, true, true); break;
    case CV_FPTOUI: r = num_to_int((NumFormat)in->imm[CV_SRC_FMT], v, NUM_RND_Z, (unsigned)dw, false, true); break;
    case CV_FTOF: r = num_convert((NumFormat)in->imm[CV_SRC_FMT], v, (NumFormat)in->imm[CV_DST_FMT], NUM_RND_R, false); break;
    }
    fr_set_u64(x, in->res[0], r);
    NEXT;
}

enum { CN_VALUE };   /* Instr.imm of arith.constant: its bits, zero-extended */

static const Instr *x_const(Exec *x, const Instr *in) { fr_set_u64(x, in->res[0], (uint64_t)in->imm[CN_VALUE]); NEXT; }

/* ------------------------------------------------------------------ pointers, scalar memory, queries */

enum { CP_BITS };   /* Instr.imm of castptr: width of the result (64 for a pointer) */

static const Instr *x_copy8(Exec *x, const Instr *in) { fr_set_u64(x, in->res[0], A0 & bits_mask(in->imm[CP_BITS])); NEXT; }

/* Decoded operands of addptr (Instr.imm). */
enum {
    AP_ELEM_BYTES,   /* bytes of the pointer's element */
    AP_OFF_BITS,     /* width of the offset operand */
};

static const Instr *x_addptr(Exec *x, const Instr *in)
{
    int64_t off = bits_sext(A1, in->imm[AP_OFF_BITS]);
    fr_set_u64(x, in->res[0], sim_index_addr(A0, off, (uint64_t)in->imm[AP_ELEM_BYTES]));
    NEXT;
}

/* Decoded operands of the scalar loads and stores (Instr.imm). */
enum {
    SM_ELEM_BYTES,   /* bytes of the pointer's element: the access size */
    SM_SPACE,        /* AddrSpace of the pointer */
    SM_OFF_BITS,     /* width of the offset operand (0 = no offset) */
};

static uint64_t elem_addr(Exec *x, const Instr *in, unsigned base_arg)
{
    uint64_t a = ARG(x, in, base_arg);
    if (in->imm[SM_OFF_BITS] && in->arg[base_arg + 1] >= 0)
        a = sim_index_addr(a, bits_sext(ARG(x, in, base_arg + 1), in->imm[SM_OFF_BITS]), (uint64_t)in->imm[SM_ELEM_BYTES]);
    return a;
}

static const Instr *x_load_scalar(Exec *x, const Instr *in)
{
    uint64_t a = elem_addr(x, in, 0);
    uint8_t *p = sim_mem(x, in, (AddrSpace)in->imm[SM_SPACE], a, (uint64_t)in->imm[SM_ELEM_BYTES], 1, ACC_READ, "source");
    if (!p) return NULL;
    uint64_t v = 0;
    memcpy(&v, p, (size_t)in->imm[SM_ELEM_BYTES]);   /* little-endian host assumed (x86-64, aarch64) */
    fr_set_u64(x, in->res[0], v);
    NEXT;
}

static const Instr *x_store_scalar(Exec *x, const Instr *in)
{
    uint64_t a = elem_addr(x, in, 1);
    uint8_t *p = sim_mem(x, in, (AddrSpace)in->imm[SM_SPACE], a, (uint64_t)in->imm[SM_ELEM_BYTES], 1, ACC_WRITE, "destination");
    if (!p) return NULL;
    uint64_t v = A0;
    memcpy(p, &v, (size_t)in->imm[SM_ELEM_BYTES]);
    NEXT;
}

static const Instr *x_query(Exec *x, const Instr *in)
{
    Core *c = x->core;
    uint64_t v = 0;
    switch (in->kind) {
    case OP_GET_BLOCK_IDX: v = c->block_idx; break;
    case OP_GET_BLOCK_NUM: v = c->sim->blocks; break;
    case OP_GET_SUBBLOCK_IDX: v = (uint64_t)c->subblock; break;
    case OP_GET_SUBBLOCK_NUM: v = c->cl->ncores == 3 ? 2 : 1; break;
    case OP_GET_CTRL: v = c->scalar->ctrl; break;
    case OP_SET_CTRL: c->scalar->ctrl = A0; NEXT;
    case OP_SBITSET0: v = A0 & ~(1ull << (A1 & 63)); break;
    case OP_SBITSET1: v = A0 | (1ull << (A1 & 63)); break;
    case OP_TRAP: sim_trap(x, in, DIAG_T_TRAP, "the kernel trapped the core"); return NULL;
    }
    fr_set_u64(x, in->res[0], v);
    NEXT;
}

/* pto.print: the format with the one scalar in it, to the block's output (docs/semantics.md §12 "Device output").
   An integer is its bits sign-extended for d, i and c and zero-extended for u, o, x and X (an i1 is 0 or 1); a
   float is its exact value as a double. */
static const Instr *x_print(Exec *x, const Instr *in)
{
    const Attr *f = op_attr(in->op, "format");
    const Type *t = in->op->operands[0]->type;
    uint64_t v = A0;
    unsigned w = ty_bits(t);
    int64_t i = w == 1 ? (int64_t)(v & 1) : w < 64 ? bits_sext(v, w) : (int64_t)v;
    double d = t->kind == TY_FLOAT ? num_bits_to_f64(num_convert(numfmt(t), v & bits_mask(w), NUM_F64, NUM_RND_R, false)) : 0;
    StrBuf b;
    sb_init(&b);
    fmt_render(&b, f && f->s ? f->s : "", i, v & bits_mask(w), d);
    if (sim_out_buf(x, in, &b)) return NULL;
    NEXT;
}

/* ------------------------------------------------------------------ lowering */

static const Type *ty0(const Op *op) { return op->noperands ? op->operands[0]->type : op->results[0]->type; }

static int lower_const(LowerView *L, const Op *op, Instr *in)
{
    const Attr *a = op_attr(op, "value");
    const Type *t = op->results[0]->type;
    in->fn = x_const;
    if (!a) return -1;
    if (t->kind == TY_FLOAT) {
        NumFormat f = numfmt(t);
        if (a->kind == AT_INT) {
            in->imm[CN_VALUE] = a->i;   /* hex literal: the bit pattern */
        } else if (f == NUM_F32 && a->s) {
            /* strtof rounds the decimal literal once, correctly, to binary32 */
            in->imm[CN_VALUE] = num_f32_to_bits(strtof(a->s, NULL));
        } else {
            double d = a->s ? strtod(a->s, NULL) : a->f;
            in->imm[CN_VALUE] = (int64_t)num_convert(NUM_F64, num_f64_to_bits(d), f, NUM_RND_R, false);
        }
        return 0;
    }
    in->imm[CN_VALUE] = (int64_t)((uint64_t)a->i & bits_mask(ty_bits(t)));
    (void)L;
    return 0;
}

/* ------------------------------------------------------------------ packed SIMT values */

/* Element-wise arith on a packed vector<NxT> (at most 64 bits): the element op, lowered for one lane into
   ext with operands at 0, 8 (and 16) and its result at 24 of a scratch frame, runs once per lane. */
enum { LN_LANES, LN_EBITS, LN_RBITS };

static const Instr *x_lanes(Exec *x, const Instr *in)
{
    const Instr *e = in->ext;
    unsigned lanes = (unsigned)in->imm[LN_LANES], eb = (unsigned)in->imm[LN_EBITS], rb = (unsigned)in->imm[LN_RBITS];
    uint8_t fr[32];
    Exec t = *x;
    t.frame = fr;
    uint64_t r = 0;
    for (unsigned l = 0; l < lanes; l++) {
        memset(fr, 0, sizeof fr);
        for (unsigned i = 0; i < in->nargs && i < 3; i++)
            fr_set_u64(&t, 8 * (int32_t)i, (ARG(x, in, i) >> (l * eb)) & bits_mask(eb));
        if (!e->fn(&t, e)) return NULL;
        r |= (fr_u64(&t, 24) & bits_mask(rb)) << (l * rb);
    }
    fr_set_u64(x, in->res[0], r);
    NEXT;
}

static int lower_arith_t(LowerView *L, const Op *op, Instr *in, const Type *t);

/* dense<v> or dense<[v0, ...]> of a packed constant: the lanes' bits, low lane first (up to 128 bits). */
static int dense_bits(const Attr *a, const Type *t, uint64_t out[2])
{
    const Type *e = t->elem;
    unsigned eb = ty_bits(e);
    const char *p = a && a->kind == AT_RAW && a->s ? strchr(a->s, '<') : NULL;
    if (!p || t->lanes * eb > 128) return -1;
    p++;
    int list = *p == '[';
    out[0] = out[1] = 0;
    for (unsigned l = 0; l < t->lanes; l++) {
        while (*p == '[' || *p == ' ' || *p == ',') p++;
        char *end;
        uint64_t v;
        if (e->kind == TY_FLOAT) v = num_convert(NUM_F64, num_f64_to_bits(strtod(p, &end)), numfmt(e), NUM_RND_R, false);
        else if (*p == 't' || *p == 'f') { v = *p == 't'; end = (char *)p + (*p == 't' ? 4 : 5); }
        else v = (uint64_t)strtoll(p, &end, 0);
        if (end == p) return -1;
        v &= bits_mask(eb);
        unsigned bit = l * eb;
        out[bit / 64] |= v << (bit % 64);
        if (list) p = end;
    }
    return 0;
}

static const Instr *x_const16(Exec *x, const Instr *in)
{
    fr_set_u64(x, in->res[0], (uint64_t)in->imm[0]);
    fr_set_u64(x, in->res[0] + 8, (uint64_t)in->imm[1]);
    NEXT;
}

static int lower_packed(LowerView *L, const Op *op, Instr *in)
{
    const Type *t = ty0(op), *d = op->results[0]->type;
    if (op->kind == OP_ARITH_CONSTANT) {
        uint64_t v[2];
        if (dense_bits(op_attr(op, "value"), d, v)) return 0;   /* stays "not simulated" */
        in->imm[0] = (int64_t)v[0];
        in->imm[1] = (int64_t)v[1];
        in->fn = x_const16;
        return 0;
    }
    if (op->kind == OP_ARITH_SELECT) {
        in->fn = x_select;
        in->imm[AR_BYTES] = ty_bytes(d) <= 8 ? 8 : 16;
        return 0;
    }
    if (t->kind != TY_VEC || d->kind != TY_VEC || t->lanes != d->lanes || ty_bits(t) > 64 || ty_bits(d) > 64 ||
        op_info[op->kind].syn == SYN_ARITH_CAST || op->kind == OP_ARITH_CMPI || op->kind == OP_ARITH_CMPF)
        return 0;   /* stays "not simulated" */
    Instr *e = lw_alloc(L, op, sizeof *e);
    if (!e) return -1;
    *e = *in;
    for (unsigned i = 0; i < 3; i++) e->arg[i] = 8 * (int32_t)i;
    e->res[0] = 24;
    if (lower_arith_t(L, op, e, t->elem) != 0 || !e->fn) return 0;
    in->ext = e;
    in->fn = x_lanes;
    in->imm[LN_LANES] = t->lanes;
    in->imm[LN_EBITS] = ty_bits(t->elem);
    in->imm[LN_RBITS] = ty_bits(d->elem);
    return 0;
}

static int lower_arith(LowerView *L, const Op *op, Instr *in)
{
    if (ty0(op)->kind == TY_VEC || op->results[0]->type->kind == TY_VEC) return lower_packed(L, op, in);
    return lower_arith_t(L, op, in, ty0(op));
}

/* The arith ops on scalars of type t (the operands' type; casts take their result type from the op). */
static int lower_arith_t(LowerView *L, const Op *op, Instr *in, const Type *t)
{
    in->imm[AR_BITS] = ty_bits(t);
    if (t->kind == TY_FLOAT) in->imm[AR_FMT] = numfmt(t);
    switch (op->kind) {
    case OP_ARITH_CONSTANT: return lower_const(L, op, in);
    case OP_ARITH_ADDI: in->fn = x_addi; return 0;
    case OP_ARITH_SUBI: in->fn = x_subi; return 0;
    case OP_ARITH_MULI: in->fn = x_muli; return 0;
    case OP_ARITH_DIVSI: in->fn = x_divsi; return 0;
    case OP_ARITH_DIVUI: in->fn = x_divui; return 0;
    case OP_ARITH_CEILDIVSI: in->fn = x_ceildivsi; return 0;
    case OP_ARITH_CEILDIVUI: in->fn = x_ceildivui; return 0;
    case OP_ARITH_FLOORDIVSI: in->fn = x_floordivsi; return 0;
    case OP_ARITH_REMSI: in->fn = x_remsi; return 0;
    case OP_ARITH_REMUI: in->fn = x_remui; return 0;
    case OP_ARITH_ANDI: in->fn = x_andi; return 0;
    case OP_ARITH_ORI: in->fn = x_ori; return 0;
    case OP_ARITH_XORI: in->fn = x_xori; return 0;
    case OP_ARITH_SHLI: in->fn = x_shli; return 0;
    case OP_ARITH_SHRSI: in->fn = x_shrsi; return 0;
    case OP_ARITH_SHRUI: in->fn = x_shrui; return 0;
    case OP_ARITH_MAXSI: in->fn = x_maxsi; return 0;
    case OP_ARITH_MAXUI: in->fn = x_maxui; return 0;
    case OP_ARITH_MINSI: in->fn = x_minsi; return 0;
    case OP_ARITH_MINUI: in->fn = x_minui; return 0;
    case OP_ARITH_ADDF: in->fn = x_fbin; in->imm[AR_OP] = NUM_OP_ADD; break;
    case OP_ARITH_SUBF: in->fn = x_fbin; in->imm[AR_OP] = NUM_OP_SUB; break;
    case OP_ARITH_MULF: in->fn = x_fbin; in->imm[AR_OP] = NUM_OP_MUL; break;
    case OP_ARITH_DIVF: in->fn = x_fbin; in->imm[AR_OP] = NUM_OP_DIV; break;
    default: break;
    }
    if (in->fn == x_fbin) {
        if (in->imm[AR_FMT] == NUM_F32 && !L->ctx->reference) in->fn = x_fbin_f32;
        return 0;
    }
    switch (op->kind) {
    case OP_ARITH_MAXIMUMF: in->fn = x_fminmax; in->imm[AR_OP] = 0; return 0;
    case OP_ARITH_MINIMUMF: in->fn = x_fminmax; in->imm[AR_OP] = 1; return 0;
    case OP_ARITH_MAXNUMF: in->fn = x_fminmax; in->imm[AR_OP] = 2; return 0;
    case OP_ARITH_MINNUMF: in->fn = x_fminmax; in->imm[AR_OP] = 3; return 0;
    case OP_ARITH_NEGF: in->fn = x_negf; return 0;
    case OP_ARITH_CMPI: in->fn = x_cmpi; in->imm[AR_OP] = op_token_id(op, "predicate"); return 0;
    case OP_ARITH_CMPF: in->fn = x_cmpf; in->imm[AR_OP] = op_token_id(op, "predicate"); return 0;
    case OP_ARITH_SELECT:
        in->fn = x_select;
        in->imm[AR_BYTES] = value_frame_bytes(op->results[0]->type);
        return 0;
    default: break;
    }
    /* casts */
    const Type *d = op->results[0]->type;
    in->fn = x_cast;
    in->imm[CV_SRC_BITS] = ty_bits(t);
    in->imm[CV_DST_BITS] = ty_bits(d);
    if (t->kind == TY_FLOAT) in->imm[CV_SRC_FMT] = numfmt(t);
    if (d->kind == TY_FLOAT) in->imm[CV_DST_FMT] = numfmt(d);
    switch (op->kind) {
    case OP_ARITH_INDEX_CAST: in->imm[CV_KIND] = ty_bits(d) > ty_bits(t) ? CV_SEXT : CV_TRUNC; break;
    case OP_ARITH_INDEX_CASTUI: in->imm[CV_KIND] = CV_ZEXT; break;
    case OP_ARITH_EXTSI: in->imm[CV_KIND] = CV_SEXT; break;
    case OP_ARITH_EXTUI: in->imm[CV_KIND] = CV_ZEXT; break;
    case OP_ARITH_TRUNCI: in->imm[CV_KIND] = CV_TRUNC; break;
    case OP_ARITH_SITOFP: in->imm[CV_KIND] = CV_SITOFP; break;
    case OP_ARITH_UITOFP: in->imm[CV_KIND] = CV_UITOFP; break;
    case OP_ARITH_FPTOSI: in->imm[CV_KIND] = CV_FPTOSI; break;
    case OP_ARITH_FPTOUI: in->imm[CV_KIND] = CV_FPTOUI; break;
    case OP_ARITH_EXTF: case OP_ARITH_TRUNCF: in->imm[CV_KIND] = CV_FTOF; break;
    case OP_ARITH_BITCAST: case OP_UNREALIZED_CAST: in->imm[CV_KIND] = CV_BITS; break;
    default: return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ stack-local structs */

/* Instr.imm of struct_get / struct_set: the frame offset of the word holding the leaf's written bit, the bit. */
enum { SF_BITS_OFF, SF_BIT };

static const Instr *x_struct_set(Exec *x, const Instr *in)
{
    fr_set_u64(x, in->res[0], A0);
    fr_set_u64(x, (int32_t)in->imm[SF_BITS_OFF], fr_u64(x, (int32_t)in->imm[SF_BITS_OFF]) | 1ull << in->imm[SF_BIT]);
    NEXT;
}

static const Instr *x_struct_get(Exec *x, const Instr *in)
{
    if ((x->core->sim->checks & CHK_INIT) && !(fr_u64(x, (int32_t)in->imm[SF_BITS_OFF]) >> in->imm[SF_BIT] & 1))
        sim_warn_once(x, in, DIAG_T_UNINIT, "reads a struct field that nothing wrote (its storage reads as 0)");
    fr_set_u64(x, in->res[0], A0);
    NEXT;
}

static const Instr *x_nop(Exec *x, const Instr *in) { (void)x; NEXT; }

/* Whether `v` is defined outside the innermost vector scope or SIMT section around `op` (whose body runs as a
   separate job on a copy of the values it captures). */
static int captured(const Op *op, const Value *v)
{
    const Op *job = NULL;
    for (const Op *p = ir_parent_op(op); p && !job; p = ir_parent_op(p))
        if (p->kind == OP_VECSCOPE || p->kind == OP_STRICT_VECSCOPE || p->kind == OP_SECTION_SIMT ||
            (p->kind == OP_SCF_FOR && op_attr(p, "llvm.loop.aivector_scope")))
            job = p;
    if (!job || !v->def) return 0;
    for (const Op *p = v->def; p; p = ir_parent_op(p))
        if (p == job) return 0;
    return 1;
}

/* get / set: the leaf's frame slot replaces the struct operand; x_copy-like moves do the rest. */
static int lower_struct(LowerView *L, const Op *op, Instr *in)
{
    if (op->kind == OP_DECLARE_STRUCT) { in->fn = x_nop; return 0; }
    const Value *s = op->operands[0];
    const Attr *pa = op_attr(op, "path");
    const Type *leaf;
    unsigned depth;
    int k = pa && pa->kind == AT_INTS ? ty_struct_path(s->type, pa->ints, pa->nints, &leaf, &depth) : SP_EMPTY;
    if (k < 0) return 0;   /* the verifier rejects it */
    int32_t at = s->slot + 8 * k;
    in->imm[SF_BITS_OFF] = s->slot + 8 * (int32_t)s->type->lanes + 8 * (k / 64);
    in->imm[SF_BIT] = k % 64;
    if (op->kind == OP_STRUCT_GET) {
        in->arg[0] = at;
        in->fn = x_struct_get;
        return 0;
    }
    if (captured(op, s)) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "pto.struct_set writes a struct declared outside the vector scope or SIMT "
                 "section it stands in; ptosim copies a struct into such a scope (reads see it) but cannot write it back");
        return 0;
    }
    in->res[0] = at;
    in->arg[0] = in->arg[1];
    in->fn = x_struct_set;
    return 0;
}

static unsigned elem_bytes(const Type *p) { return p->kind == TY_PTR ? ty_bytes(p->elem) : 1; }

int scalar_reset(Core *c)
{
    c->scalar->ctrl = 0;
    return 0;
}

int scalar_lower(LowerView *L, const Op *op, Instr *in)
{
    switch (op_info[op->kind].fam) {
    case FAM_ARITH:
        return lower_arith(L, op, in);
    case FAM_QUERY:
        in->fn = op->kind == OP_PRINT ? x_print : x_query;
        return 0;
    default:
        break;
    }
    switch (op->kind) {
    case OP_CASTPTR: case OP_INTTOPTR: case OP_PTRTOINT: {
        const Type *d = op->results[0]->type;
        in->fn = x_copy8;
        in->imm[CP_BITS] = d->kind == TY_PTR ? 64 : ty_bits(d);
        return 0;
    }
    case OP_ADDPTR:
        in->fn = x_addptr;
        in->imm[AP_ELEM_BYTES] = elem_bytes(op->operands[0]->type);
        in->imm[AP_OFF_BITS] = ty_bits(op->operands[1]->type);
        return 0;
    case OP_DECLARE_STRUCT: case OP_STRUCT_GET: case OP_STRUCT_SET:
        return lower_struct(L, op, in);
    case OP_LOAD_SCALAR: case OP_LD_DEV: case OP_STORE_SCALAR: case OP_ST_DEV: {
        int st = op->kind == OP_STORE_SCALAR || op->kind == OP_ST_DEV;
        const Type *pt = op->operands[st]->type;
        in->fn = st ? x_store_scalar : x_load_scalar;
        in->imm[SM_ELEM_BYTES] = elem_bytes(pt);
        in->imm[SM_SPACE] = pt->space;
        int off = lw_group_index(L, op, "off", 0);
        in->imm[SM_OFF_BITS] = off >= 0 ? ty_bits(op->operands[off]->type) : 0;
        return 0;
    }
    default:
        return 0;   /* stays "not simulated" */
    }
}

/* ------------------------------------------------------------------ lockstep decoding */

ScalarLane scalar_lane(const Instr *in)
{
    ScalarLane o = {SLN_NONE, (unsigned)in->imm[AR_BITS], 0, 0, 0};
    ExecFn f = in->fn;
    if (f == x_const) { o.kind = SLN_CONST; o.value = (uint64_t)in->imm[CN_VALUE]; }
    else if (f == x_addi) o.kind = SLN_ADD;
    else if (f == x_subi) o.kind = SLN_SUB;
    else if (f == x_muli) o.kind = SLN_MUL;
    else if (f == x_andi) o.kind = SLN_AND;
    else if (f == x_ori) o.kind = SLN_OR;
    else if (f == x_xori) o.kind = SLN_XOR;
    else if (f == x_shli) o.kind = SLN_SHL;
    else if (f == x_shrui) o.kind = SLN_SHRU;
    else if (f == x_fbin_f32) { o.kind = SLN_F32; o.op = (int)in->imm[AR_OP]; }
    else if (f == x_cmpi) {
        static const int tok[] = {T_ARITHCMPI_EQ, T_ARITHCMPI_NE, T_ARITHCMPI_SLT, T_ARITHCMPI_SLE, T_ARITHCMPI_SGT,
                                  T_ARITHCMPI_SGE, T_ARITHCMPI_ULT, T_ARITHCMPI_ULE, T_ARITHCMPI_UGT, T_ARITHCMPI_UGE};
        for (int i = 0; i < 10; i++)
            if (in->imm[AR_OP] == tok[i]) { o.kind = SLN_CMPI; o.op = i; }
    } else if (f == x_cast) {
        o.sbits = (unsigned)in->imm[CV_SRC_BITS];
        o.bits = (unsigned)in->imm[CV_DST_BITS];
        switch ((int)in->imm[CV_KIND]) {
        case CV_SEXT: o.kind = SLN_SEXT; break;
        case CV_ZEXT: case CV_TRUNC: case CV_BITS: o.kind = SLN_ZEXT; break;
        default: o.kind = SLN_PURE; break;
        }
    } else if (f == x_copy8) {
        o.kind = SLN_ZEXT;
        o.bits = o.sbits = (unsigned)in->imm[CP_BITS];
    } else if (f == x_divsi || f == x_divui || f == x_remsi || f == x_remui || f == x_ceildivsi || f == x_ceildivui ||
               f == x_floordivsi) {
        o.kind = SLN_PURE_DIV;
    } else if (f == x_shrsi || f == x_maxsi || f == x_minsi || f == x_maxui || f == x_minui ||
               f == x_fbin || f == x_fminmax || f == x_negf || f == x_cmpf || f == x_addptr || f == x_query || f == x_nop ||
               (f == x_select && in->imm[AR_BYTES] == 8))
        o.kind = SLN_PURE;
    return o;
}
