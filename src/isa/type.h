/* type.h — interned types: equal types are the same pointer. */
#ifndef PTOSIM_TYPE_H
#define PTOSIM_TYPE_H
#include <stdbool.h>
#include <stdint.h>
#include "base/arena.h"

/* TY_VEC: a packed scalar vector<NxT> of the SIMT surface (lanes, elem; gran 1 = the spelling !pto.hif8x2);
   TY_LLPTR: an opaque !llvm.ptr<N> (space = the numeric address space N; 0 = a workitem's private memory);
   TY_STRUCT: a stack-local !pto.struct<T, ...> (params = the nin field types; lanes = its scalar leaves);
   TY_VMI_VREG: a logical VMI vector !pto.vmi.vreg<LxT> (lanes = L, elem = T);
   TY_VMI_MASK: a logical VMI mask !pto.vmi.mask<LxG> (lanes = L; gran 1/2/4 for b8/b16/b32, 0 = pred or unwritten).
   Both may carry the compiler's physical layout `, #pto.vmi.layout<...>` (Type.lay): it names where the lanes
   sit in registers after layout assignment and never changes a lane's value, so ptosim only keeps, compares
   and prints it (docs/vmi.md "Layouts"). */
typedef enum { TY_INT, TY_INDEX, TY_FLOAT, TY_PTR, TY_VREG, TY_MASK, TY_ALIGN, TY_FUNC, TY_NONE, TY_VADDR, TY_VEC,
               TY_LLPTR, TY_STRUCT, TY_VMI_VREG, TY_VMI_MASK,
               TY_TENSOR_VIEW, TY_PART_VIEW, TY_TILE_BUF, TY_MULTI_TILE, TY_LOCAL_ARRAY,
               TY_HANDLE } TypeKind;
typedef enum { SIGN_LESS, SIGN_S, SIGN_U } IntSign;
/* Float kinds: the ELEM_FLOAT, SCALAR_FLOAT and FLOAT_TWIN rows of elem.def, in its order (FK_BF16X2: !pto.bf16x2, a
   32-bit container of two bf16 values, low half first, a VMI element type; FK_E4M3: MLIR's f8E4M3). */
typedef enum {
#define ELEM_FLOAT(fk, ek, name, spell, bits, fmt) FK_##fk,
#define SCALAR_FLOAT(fk, spell, bits, fmt) FK_##fk,
#define FLOAT_TWIN(fk, ek, spell, bits, fmt) FK_##fk,
#include "elem.def"
#undef ELEM_FLOAT
#undef SCALAR_FLOAT
#undef FLOAT_TWIN
    FK__COUNT
} FloatKind;
/* Address spaces; canonical names in type.c. */
typedef enum { AS_GM, AS_UB, AS_L1, AS_L0A, AS_L0B, AS_L0C, AS_BT, AS_FB, AS__COUNT } AddrSpace;

/* #pto.vmi.layout<kind ...>: kind VL_NONE (no layout written), contiguous, deinterleaved = factor,
   block_deinterleaved = factor, num_groups = factor [, slots = S]; lane_stride = stride (1 when not written). */
typedef enum { VL_NONE, VL_CONTIGUOUS, VL_DEINTERLEAVED, VL_BLOCK_DEINTERLEAVED, VL_NUM_GROUPS } VmiLayoutKind;
typedef struct VmiLayout {
    uint8_t kind;              /* VmiLayoutKind */
    uint16_t factor, slots, stride;
} VmiLayout;

typedef struct Type Type;
struct Type {
    TypeKind kind;
    uint8_t sign;              /* TY_INT */
    uint8_t fk;                /* TY_FLOAT */
    uint8_t space;             /* TY_PTR */
    uint8_t gran;              /* TY_MASK: 1, 2, 4 bytes per lane (b8/b16/b32), 0 = unspecified; TY_VADDR: 1, 2, 4 */
    uint16_t bits;             /* TY_INT/TY_FLOAT width (f4x2 containers count 8) */
    uint16_t lanes;            /* TY_VREG, TY_VMI_VREG, TY_VMI_MASK */
    const Type *elem;          /* TY_PTR, TY_VREG */
    const Type *const *params; /* TY_FUNC inputs then results; TY_STRUCT fields */
    uint16_t nin, nout;        /* TY_FUNC; TY_STRUCT: nin = number of fields */
    VmiLayout lay;             /* TY_VMI_VREG, TY_VMI_MASK: the layout written with the type (kind VL_NONE: none) */
    /* The tile layer (docs/tile.md). TY_TENSOR_VIEW, TY_PART_VIEW: `rank` dims (TILE_DYN = '?'), elem.
       TY_TILE_BUF: dims = rows, cols, valid rows, valid cols (TILE_DYN = '?'), space = its location, elem,
       and the layout config (TileBLayout, TileSLayout, fractal bytes, TilePad, compact mode). */
    uint8_t rank;
    uint8_t blayout, slayout, pad, compact;
    uint16_t fractal;
    int64_t dims[5];
};

typedef struct TypeTable TypeTable;
TypeTable *types_new(Arena *a);

const Type *ty_int(TypeTable *t, unsigned bits, IntSign sign);
const Type *ty_index(TypeTable *t);
const Type *ty_float(TypeTable *t, FloatKind fk);
const Type *ty_ptr(TypeTable *t, const Type *elem, AddrSpace as);
/* memref<d0x...xelem[, #pto.address_space<as>]>: the compiler's buffer spelling of a pointer operand. It is the
   pointer to the buffer's first element (TY_PTR) that keeps its shape (rank > 0, dims; TILE_DYN = '?'), so it
   prints as written (pad = 1: no address space written, gm) and type equality tells it from !pto.ptr (the ops
   that take only a pointer reject it). */
const Type *ty_memref(TypeTable *t, const Type *elem, AddrSpace as, int space_written, unsigned rank,
                      const int64_t *dims);
const Type *ty_vreg(TypeTable *t, unsigned lanes, const Type *elem);
const Type *ty_mask(TypeTable *t, unsigned gran);
const Type *ty_align(TypeTable *t);
/* !pto.vaddr<bG>: a vector-address offset token (a 32-bit byte offset from pto.vag); gran 1, 2 or 4. */
const Type *ty_vaddr(TypeTable *t, unsigned gran);
/* TY_HANDLE: an opaque run-time handle of the asynchronous DMA surface, or the compiler-internal !pto.pipe of a
   cross-core pipe (gran = HandleKind); its frame slot is 8 bytes (docs/tile.md "Asynchronous prefetch"). */
typedef enum { HK_ASYNC_SESSION = 1, HK_ASYNC_EVENT, HK_PREFETCH_CTX, HK_PIPE } HandleKind;
const Type *ty_handle(TypeTable *t, HandleKind k);
const Type *ty_none(TypeTable *t);
/* !pto.vmi.vreg<LxT> and !pto.vmi.mask<LxG> (gran 0 = pred). */
const Type *ty_vmi_vreg(TypeTable *t, unsigned lanes, const Type *elem);
const Type *ty_vmi_mask(TypeTable *t, unsigned lanes, unsigned gran);
/* The same with a layout (NULL or kind VL_NONE: none). */
const Type *ty_vmi_vreg_l(TypeTable *t, unsigned lanes, const Type *elem, const VmiLayout *lay);
const Type *ty_vmi_mask_l(TypeTable *t, unsigned lanes, unsigned gran, const VmiLayout *lay);
/* Appends the spelling ", #pto.vmi.layout<...>" of a layout (nothing for VL_NONE); returns chars written. */
int ty_format_layout(const VmiLayout *lay, char *buf, unsigned n);
/* Most logical lanes a VMI value may have (64 registers of 8-bit lanes). */
#define VMI_MAX_LANES 16384u
/* ---- the tile layer's types (docs/tile.md) ---- */
#define TILE_DYN (-1)          /* a '?' dimension */
#define TILE_MAX_RANK 5
typedef enum { TBL_ROW_MAJOR, TBL_COL_MAJOR } TileBLayout;
typedef enum { TSL_NONE_BOX, TSL_ROW_MAJOR, TSL_COL_MAJOR } TileSLayout;
typedef enum { TPAD_NULL, TPAD_ZERO, TPAD_MAX, TPAD_MIN } TilePad;
/* The defaults a !pto.tile_buf spelling may omit (and the printer omits). */
#define TILE_DEF_FRACTAL 512
/* !pto.tensor_view<d0x...xT> (part = 0) or !pto.partition_tensor_view<...> (part = 1): rank 1..5. */
const Type *ty_tensor_view(TypeTable *t, int part, unsigned rank, const int64_t *dims, const Type *elem);
/* A !pto.tile_buf: `k` holds space, elem, dims[0..3], blayout, slayout, pad, compact, fractal (other fields unused). */
const Type *ty_tile_buf(TypeTable *t, const Type *k);
static inline bool ty_is_view(const Type *t) { return t && (t->kind == TY_TENSOR_VIEW || t->kind == TY_PART_VIEW); }
static inline bool ty_is_tile(const Type *t) { return t && t->kind == TY_TILE_BUF; }
/* A !pto.multi_tile_buf<TILE, count=N>: the slot tile's fields as in a tile_buf, dims[4] = N (count). */
const Type *ty_multi_tile(TypeTable *t, const Type *tile, int64_t count);
/* !pto.local_array<D0x...xT>: a stack-local array of scalars (rank <= 5, dims in dims[], elem). The compiler's
   !pto.eventid_array<N> is one of N index values with `space` = 1 (printed so). */
const Type *ty_local_array(TypeTable *t, unsigned rank, const int64_t *dims, const Type *elem);
const Type *ty_eventid_array(TypeTable *t, int64_t n);
static inline uint64_t local_array_count(const Type *t)
{
    uint64_t n = 1;
    for (unsigned i = 0; i < t->rank; i++) n *= (uint64_t)t->dims[i];
    return n;
}
/* The slot tile of a multi_tile_buf (the !pto.tile_buf each pto.multi_tile_get yields). */
const Type *ty_multi_slot(TypeTable *t, const Type *multi);
/* Bytes from one slot of a multi_tile_buf to the next: the slot tile's bytes rounded up to `align`. */
static inline uint64_t multi_slot_stride(uint64_t tile_bytes, uint64_t align)
{
    return align > 1 ? (tile_bytes + align - 1) / align * align : tile_bytes;
}
/* "vec", "mat", "left", "right", "acc", "bias", "scaling" for a tile's space; NULL for gm. */
const char *tile_loc_name(AddrSpace as);
int tile_loc_lookup(const char *s, unsigned n);     /* AddrSpace or -1 */
/* Bytes a tile occupies: rows * cols elements (packed f4 pairs count one byte). */
uint64_t tile_bytes(const Type *t);
/* vector<NxT> (hif8x2: spelled !pto.hif8x2, lanes 2 of hif8) and !llvm.ptr<N>. */
const Type *ty_vec(TypeTable *t, unsigned lanes, const Type *elem, bool hif8x2);
const Type *ty_llptr(TypeTable *t, unsigned space);
const Type *ty_func(TypeTable *t, const Type *const *in, unsigned nin, const Type *const *out, unsigned nout);
/* !pto.struct<fields...> (1..64 fields; NULL beyond). Field types are not checked here: ty_struct_field_ok. */
const Type *ty_struct(TypeTable *t, const Type *const *fields, unsigned n);
/* A type a struct field may have: an 8/16/32/64-bit integer of any signedness, f16/bf16/f32/f64, a struct. */
bool ty_struct_field_ok(const Type *f);
/* The scalar leaf a constant field path reaches: returns the index of the leaf in depth-first order (the
   struct's leaves are numbered 0..lanes-1) and its type in *leaf, or a negative StructPathError with
   *depth = the path position at fault and *leaf = the type reached there. */
typedef enum { SP_EMPTY = -1, SP_RANGE = -2, SP_NOT_STRUCT = -3, SP_AGGREGATE = -4 } StructPathError;
int ty_struct_path(const Type *s, const int64_t *path, unsigned n, const Type **leaf, unsigned *depth);

static inline bool ty_is_int(const Type *t) { return t && t->kind == TY_INT; }
static inline bool ty_is_intlike(const Type *t) { return t && (t->kind == TY_INT || t->kind == TY_INDEX); }
static inline bool ty_is_float(const Type *t) { return t && t->kind == TY_FLOAT; }
static inline bool ty_is_ptr(const Type *t) { return t && t->kind == TY_PTR; }
static inline bool ty_is_vreg(const Type *t) { return t && t->kind == TY_VREG; }
static inline bool ty_is_mask(const Type *t) { return t && t->kind == TY_MASK; }
static inline bool ty_is_vaddr(const Type *t) { return t && t->kind == TY_VADDR; }
static inline bool ty_is_vec(const Type *t) { return t && t->kind == TY_VEC; }
static inline bool ty_is_struct(const Type *t) { return t && t->kind == TY_STRUCT; }
static inline bool ty_is_vmi(const Type *t) { return t && (t->kind == TY_VMI_VREG || t->kind == TY_VMI_MASK); }
/* Values that live only inside a vector scope: registers, masks, align states and VMI values. */
static inline bool ty_is_vector_state(const Type *t)
{
    return t && (t->kind == TY_VREG || t->kind == TY_MASK || t->kind == TY_ALIGN || ty_is_vmi(t));
}
/* Physical registers a VMI vector occupies: ceil(L * bits / 2048) (at least 1). */
static inline unsigned ty_vmi_regs(const Type *t)
{
    unsigned bits = t->elem->bits;
    unsigned k = (unsigned)(((unsigned long)t->lanes * bits + 2047u) / 2048u);
    return k ? k : 1;
}
/* Storage width in bits of a scalar or element type (index = 64). */
unsigned ty_bits(const Type *t);
static inline unsigned ty_bytes(const Type *t) { unsigned b = ty_bits(t); return b < 8 ? 1 : b / 8; }
/* True when the integer is treated as signed (signless counts as signed, resolutions Q49). */
static inline bool ty_signed(const Type *t) { return t->kind == TY_INDEX || (t->kind == TY_INT && t->sign != SIGN_U); }

/* The float type a spelling names (elem.def): builtin spellings ("f16", "f8E4M3") when dialect = 0, the dialect's
   ("pto.hif8", written after '!') when dialect = 1; -1 if none. */
int fk_lookup(const char *s, unsigned n, int dialect);
const char *as_name(AddrSpace as);
int as_lookup(const char *s, unsigned n);   /* canonical names and aliases; -1 if unknown */
/* Appends the canonical spelling of `t` to buf (size n); returns chars written (like snprintf). */
int ty_format(const Type *t, char *buf, unsigned n);
#endif
