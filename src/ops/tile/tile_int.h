/* tile_int.h — private to the tile family (tile*.c): the run-time values of tiles and views, the decoded form
 * of a queued tile op, and the helpers its handlers share.
 *
 * Frame and capture layout (exec/program.h): a !pto.tile_buf is its byte address in its space (8 bytes), its
 * valid rows and columns (4 bytes each); a view its GM byte address, then shape[5] and strides[5] in elements
 * (8 bytes each; the type's rank says how many are used). A queued tile op captures every operand's whole
 * slot at issue (Instr.caps), so its handler reads them from the captured bytes. */
#ifndef PTOSIM_TILE_INT_H
#define PTOSIM_TILE_INT_H
#include <stdint.h>
#include <string.h>
#include "exec/autosync.h"
#include "isa/elem.h"
#include "ops/vec/lane.h"
#include "tile.h"

typedef struct TileRt { uint64_t addr; uint32_t vr, vc; } TileRt;
typedef struct ViewRt { uint64_t addr; int64_t shape[TILE_MAX_RANK], stride[TILE_MAX_RANK]; } ViewRt;

static inline TileRt tile_get(const uint8_t *p)
{
    TileRt t;
    memcpy(&t.addr, p, 8);
    memcpy(&t.vr, p + 8, 4);
    memcpy(&t.vc, p + 12, 4);
    return t;
}
static inline void tile_put(uint8_t *p, TileRt t)
{
    memcpy(p, &t.addr, 8);
    memcpy(p + 8, &t.vr, 4);
    memcpy(p + 12, &t.vc, 4);
}
static inline ViewRt view_get(const uint8_t *p)
{
    ViewRt v;
    memcpy(&v.addr, p, 8);
    memcpy(v.shape, p + 8, sizeof v.shape);
    memcpy(v.stride, p + 48, sizeof v.stride);
    return v;
}
static inline void view_put(uint8_t *p, const ViewRt *v)
{
    memcpy(p, &v->addr, 8);
    memcpy(p + 8, v->shape, sizeof v->shape);
    memcpy(p + 48, v->stride, sizeof v->stride);
}

/* The value 1 of an element kind as lane bits (the float kinds f32, f16, bf16; integers 1). */
static inline uint64_t one_of(ElemKind k)
{
    switch (k) {
    case EK_F32: return 0x3F800000u;
    case EK_F16: return 0x3C00u;
    case EK_BF16: return 0x3F80u;
    default: return 1;
    }
}

/* Element (r, c) of a tile of `rows` x `cols` elements of e bytes in its layout, as an element offset. Boxed:
   NZ columns of C0 = 32 bytes (16 accumulators in an acc tile, docs/semantics.md §8.2 L0C), each rows x C0
   row-major; zN: rows of 16-row boxes, each box column-major. */
static inline uint64_t tile_elem_off(const Type *t, uint64_t rows, uint64_t cols, unsigned e, uint64_t r, uint64_t c)
{
    if (t->slayout != TSL_NONE_BOX) {
        uint64_t c0 = t->space == AS_L0C ? 16 : 32 / e;
        if (t->blayout == TBL_COL_MAJOR) return (c / c0) * rows * c0 + r * c0 + c % c0;
        uint64_t r0 = 16;
        return (r / r0) * cols * r0 + c * r0 + r % r0;
    }
    return t->blayout == TBL_COL_MAJOR ? c * rows + r : r * cols + c;
}

/* The decoded form of a queued tile op (Instr.ext). Operand roles are operand indices (-1: absent). */
enum { TJ_MAX = 8 };
typedef struct TileJob {
    uint16_t off[TJ_MAX];      /* where operand i's slot is in the captured bytes */
    const Type *ty[TJ_MAX];    /* operand i's type */
    uint8_t n;
    int8_t src0, src1, scal, dst, mask;
    int32_t wpitch[TJ_MAX];    /* element-wise ops: operand i is a window whose lines keep its parent's row pitch
                                  (tile_row_pitch, in elements) when that differs from its type's columns, else 0 */
    int8_t aux[3];             /* operands of further roles, named by the op's file (tquant.mx: exp, max, scaling;
                                  tquant / tdequant: scale, offset) */
    uint8_t kind;              /* the computation class (TE_* of tile_ew.c, TD_* of tile_dma.c) */
    uint8_t vop;               /* ValuOp */
    uint8_t ek, sek;           /* ElemKind of the destination lanes and of the source lanes */
    uint8_t sbits;             /* width of the scalar operand's value */
    uint8_t hp;                /* precisionType = high_precision */
    uint8_t flat;              /* tcmps: the 1-D packed form (tile_ew.c) */
    uint8_t neg1;              /* tfillpad: an f32 destination padded `zero` fills -1.0 when it expands (semantics.md) */
    int16_t tok;               /* a token: compare predicate, round mode */
    uint64_t konst;            /* a constant lane (pad or fill bits) */
    int64_t pitch;             /* tmov / tstore: the source's row pitch in elements when a subview window keeps its
                                  parent's (tile_row_pitch), else 0: the type's columns */
} TileJob;

#define TJ(in) ((const TileJob *)(in)->ext)

static inline TileRt tj_tile(const TileJob *j, const uint64_t *args, int i)
{
    return tile_get((const uint8_t *)args + j->off[i]);
}
static inline ViewRt tj_view(const TileJob *j, const uint64_t *args, int i)
{
    return view_get((const uint8_t *)args + j->off[i]);
}
static inline uint64_t tj_scalar(const TileJob *j, const uint64_t *args, int i)
{
    uint64_t v;
    memcpy(&v, (const uint8_t *)args + j->off[i], 8);
    return v;
}

/* Builds the TileJob and the capture list of a queued tile op (every operand's whole slot); NULL after E-OOM. */
TileJob *tile_job(LowerView *L, const Op *op, Instr *in);
/* A run-time valid shape larger than the tile traps T-TILE; returns 1 then. */
int tile_check_valid(Exec *x, const Instr *in, const Type *t, TileRt r, const char *what);
/* tile_check_valid for every tile operand of a job (the destination named so): 1 after a trap. */
int tile_check_all(Exec *x, const Instr *in, const TileJob *j, const uint64_t *args);
/* The pad value of a tile's pad policy (TPAD_*) as element bits (A5 TileLib _pad_zero/_pad_max/_pad_min). */
uint64_t tile_pad_bits(const Type *t, int pad);

/* The cost of a tile op from its micro expansion: the n micro ops m[] of one repeat, `repeats` repeats. */
uint64_t tile_vec_cost(Exec *x, const OpKind *m, unsigned n, ElemKind ek, ElemKind sek, uint64_t repeats);
/* Auto-sync footprint: every tile operand whole, operand i written when bit i of written_mask is set. */
void tile_foot_whole(const TileJob *j, const uint64_t *args, AsFoot *f, uint32_t written_mask);

/* The groups of the family (tile_view.c, tile_dma.c, tile_ew.c). */
int tile_lower_view(LowerView *L, const Op *op, Instr *in);
int tile_lower_dma(LowerView *L, const Op *op, Instr *in);
int tile_lower_ew(LowerView *L, const Op *op, Instr *in);
/* tile_cvt.c (tcvt), tile_sort.c (tsort32, tmrgsort), tile_rand.c (trandom), tile_mov.c (tmov, textract,
   tinsert between vec tiles). */
int tile_lower_cvt(LowerView *L, const Op *op, Instr *in);
int tile_lower_sort(LowerView *L, const Op *op, Instr *in);
int tile_lower_rand(LowerView *L, const Op *op, Instr *in);
int tile_lower_mov(LowerView *L, const Op *op, Instr *in);
/* tile_mov.c: the row pitch (elements) of a row-major vec tile value: a pto.subview window's is its parent's,
   else the type's columns; whether every use of a value honours such a pitch (tmov, nested subview). */
int64_t tile_row_pitch(const Value *v);
/* A row-major unboxed vec tile: the tiles whose windows keep a parent's row pitch. */
static inline int tile_plain_rows(const Type *t)
{
    return t && t->kind == TY_TILE_BUF && t->space == AS_UB && t->blayout == TBL_ROW_MAJOR &&
           t->slayout == TSL_NONE_BOX;
}
/* Whether operand i of op o, an element-wise tile op (tile_ew.c), is read or written at the operand's own row
   pitch (TileJob.wpitch), so a subview window of a wider tile may be passed there (tile_mov.c). */
int tile_ew_pitch_ok(const Op *o, uint32_t i);
/* The same for every family that walks its operands at TileJob.wpitch: element-wise ops, reductions and expands
   (tile_reduce.c), tcvt (tile_mov.c, which decides whether a window runs). */
int tile_window_ok(const Op *o, uint32_t i);
/* Sets TileJob.wpitch for each operand of op that is a window of a wider row-major vec tile (tile_row_pitch), in a
   position ok allows (NULL: every operand); called by the lowering of each family tile_window_ok names. */
void tile_find_windows(TileJob *j, const Op *op, int (*ok)(const Op *o, uint32_t i));
/* The row pitch in elements operand i is walked at: its window's (wpitch) or its type's columns. */
static inline uint64_t tj_row_pitch(const TileJob *j, int i)
{
    return j->wpitch[i] ? (uint64_t)j->wpitch[i] : (uint64_t)j->ty[i]->dims[1];
}
int tile_pitch_uses_ok(const Value *v);
/* tile_reduce.c: row/column reductions (+ arg forms), the expand families, the partial ops. */
int tile_is_reduce(int kind);
int tile_lower_reduce(LowerView *L, const Op *op, Instr *in);
/* tile_cube.c: the cube tile ops (tmatmul, tgemv and their forms) on the cube family's engines. */
int tile_lower_cube(LowerView *L, const Op *op, Instr *in);
/* tmov / textract / tinsert involving cube buffers; 1 when the op is not one of them. */
int tile_lower_cube_mov(LowerView *L, const Op *op, Instr *in);
/* tmov acc -> vec/mat and tstore acc -> GM (FIXPIPE); 1 when the op is neither. */
int tile_lower_cube_fix(LowerView *L, const Op *op, Instr *in);
/* tload into an NZ mat tile (nd2nz); 1 when the op is not one. */
int tile_lower_cube_load(LowerView *L, const Op *op, Instr *in);
/* tile_extra.c: the extra ops (the last block of ops_tile.def); those not executable yet are T-UNSUPPORTED. */
int tile_lower_extra(LowerView *L, const Op *op, Instr *in);
/* tile_quant.c: tquant (INT8_SYM / INT8_ASYM), tquant.mx and tdequant; the MX exponent reorder (tmov with tmp). */
int tile_lower_quant(LowerView *L, const Op *op, Instr *in);
int tile_lower_mx_zz(LowerView *L, const Op *op, Instr *in);
/* tile_pipe.c: the cube<->vector pipe ops (initialize_pipe, tpush, tpop, tfree); 1 when the op is not one. */
int tile_lower_pipe(LowerView *L, const Op *op, Instr *in);
/* tile_pow.c: tpow / tpows on integer tiles (float tiles: T-UNSUPPORTED). */
int tile_lower_pow(LowerView *L, const Op *op, Instr *in);
/* tile_comm.c: pto.comm.twait and pto.comm.ttest on one rank. */
int tile_lower_comm(LowerView *L, const Op *op, Instr *in);
/* tile_gather.c: tgather's mask-pattern (and compare) forms, tscatter, tgatherb, thistogram, mgather, mscatter. */
int tile_lower_gather(LowerView *L, const Op *op, Instr *in);
#endif
