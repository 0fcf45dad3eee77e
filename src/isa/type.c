/* type.c — type interning (hash-consing) and canonical spellings. */
#include "type.h"
#include <stdio.h>
#include <string.h>

struct TypeTable {
    Arena *arena;
    Type **slots;
    unsigned cap, n;
    const Type *index, *none, *align;
};

static const char *const as_names[AS__COUNT] = {"gm", "ub", "l1", "l0a", "l0b", "l0c", "bt", "fb"};
static const struct { const char *name; AddrSpace as; } as_alias[] = {
    {"vec", AS_UB}, {"mat", AS_L1}, {"cbuf", AS_L1}, {"left", AS_L0A}, {"right", AS_L0B},
    {"acc", AS_L0C}, {"bias", AS_BT}, {"scaling", AS_FB}, {"fbuf", AS_FB},
};
static const struct { const char *spell; unsigned bits; } fks[FK__COUNT] = {
#define ELEM_FLOAT(fk, ek, name, spell, bits, fmt) {spell, bits},
#define SCALAR_FLOAT(fk, spell, bits, fmt) {spell, bits},
#define FLOAT_TWIN(fk, ek, spell, bits, fmt) {spell, bits},
#include "elem.def"
#undef ELEM_FLOAT
#undef SCALAR_FLOAT
#undef FLOAT_TWIN
};
static const struct { const char *spell; FloatKind fk; } fk_spells[] = {
#define ELEM_FLOAT(fk, ek, name, spell, bits, fmt) {spell, FK_##fk},
#define SCALAR_FLOAT(fk, spell, bits, fmt) {spell, FK_##fk},
#define FLOAT_TWIN(fk, ek, spell, bits, fmt) {spell, FK_##fk},
#define FLOAT_SPELL(spell, fk) {spell, FK_##fk},
#include "elem.def"
#undef ELEM_FLOAT
#undef SCALAR_FLOAT
#undef FLOAT_TWIN
#undef FLOAT_SPELL
};

int fk_lookup(const char *s, unsigned n, int dialect)
{
    for (unsigned i = 0; i < sizeof fk_spells / sizeof fk_spells[0]; i++) {
        const char *sp = fk_spells[i].spell;
        if ((sp[0] == '!') != (dialect != 0)) continue;
        sp += dialect != 0;
        if (strlen(sp) == n && memcmp(sp, s, n) == 0) return (int)fk_spells[i].fk;
    }
    return -1;
}

const char *as_name(AddrSpace as) { return as < AS__COUNT ? as_names[as] : "?"; }

int as_lookup(const char *s, unsigned n)
{
    for (unsigned i = 0; i < AS__COUNT; i++)
        if (strlen(as_names[i]) == n && memcmp(as_names[i], s, n) == 0) return (int)i;
    for (unsigned i = 0; i < sizeof as_alias / sizeof as_alias[0]; i++)
        if (strlen(as_alias[i].name) == n && memcmp(as_alias[i].name, s, n) == 0) return (int)as_alias[i].as;
    return -1;
}

TypeTable *types_new(Arena *a)
{
    TypeTable *t = ARENA_NEW(a, TypeTable);
    t->arena = a;
    t->cap = 256;
    t->slots = ARENA_ARRAY(a, Type *, t->cap);
    return t;
}

static uint64_t hash_type(const Type *k)
{
    uint64_t h = 1469598103934665603ull;
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 1099511628211ull)
    MIX(k->kind); MIX(k->sign); MIX(k->fk); MIX(k->space); MIX(k->gran); MIX(k->bits); MIX(k->lanes);
    MIX((uintptr_t)k->elem); MIX(k->nin); MIX(k->nout);
    MIX(k->lay.kind); MIX(k->lay.factor); MIX(k->lay.slots); MIX(k->lay.stride);
    MIX(k->rank); MIX(k->blayout); MIX(k->slayout); MIX(k->pad); MIX(k->compact); MIX(k->fractal);
    for (unsigned i = 0; i < TILE_MAX_RANK; i++) MIX((uint64_t)k->dims[i]);
    for (unsigned i = 0; i < (unsigned)k->nin + k->nout; i++) MIX((uintptr_t)k->params[i]);
#undef MIX
    return h;
}

static bool same_type(const Type *a, const Type *b)
{
    if (a->kind != b->kind || a->sign != b->sign || a->fk != b->fk || a->space != b->space ||
        a->gran != b->gran || a->bits != b->bits || a->lanes != b->lanes || a->elem != b->elem ||
        a->nin != b->nin || a->nout != b->nout || a->lay.kind != b->lay.kind || a->lay.factor != b->lay.factor ||
        a->lay.slots != b->lay.slots || a->lay.stride != b->lay.stride || a->rank != b->rank ||
        a->blayout != b->blayout || a->slayout != b->slayout || a->pad != b->pad || a->compact != b->compact ||
        a->fractal != b->fractal || memcmp(a->dims, b->dims, sizeof a->dims) != 0)
        return false;
    for (unsigned i = 0; i < (unsigned)a->nin + a->nout; i++)
        if (a->params[i] != b->params[i]) return false;
    return true;
}

static void grow(TypeTable *t)
{
    unsigned cap = t->cap * 2;
    Type **s = ARENA_ARRAY(t->arena, Type *, cap);
    for (unsigned i = 0; i < t->cap; i++) {
        Type *e = t->slots[i];
        if (!e) continue;
        unsigned j = (unsigned)hash_type(e) & (cap - 1);
        while (s[j]) j = (j + 1) & (cap - 1);
        s[j] = e;
    }
    t->slots = s;
    t->cap = cap;
}

static const Type *intern(TypeTable *t, const Type *key)
{
    if (t->n * 2 >= t->cap) grow(t);
    unsigned j = (unsigned)hash_type(key) & (t->cap - 1);
    while (t->slots[j]) {
        if (same_type(t->slots[j], key)) return t->slots[j];
        j = (j + 1) & (t->cap - 1);
    }
    Type *n = arena_dup(t->arena, key, sizeof *key);
    if (key->nin + key->nout)
        n->params = arena_dup(t->arena, key->params, sizeof(Type *) * ((size_t)key->nin + key->nout));
    t->slots[j] = n;
    t->n++;
    return n;
}

const Type *ty_int(TypeTable *t, unsigned bits, IntSign sign)
{
    Type k = {.kind = TY_INT, .bits = (uint16_t)bits, .sign = (uint8_t)sign};
    return intern(t, &k);
}
const Type *ty_index(TypeTable *t)
{
    if (!t->index) { Type k = {.kind = TY_INDEX, .bits = 64}; t->index = intern(t, &k); }
    return t->index;
}
const Type *ty_float(TypeTable *t, FloatKind fk)
{
    Type k = {.kind = TY_FLOAT, .fk = (uint8_t)fk, .bits = (uint16_t)fks[fk].bits};
    return intern(t, &k);
}
const Type *ty_ptr(TypeTable *t, const Type *elem, AddrSpace as)
{
    Type k = {.kind = TY_PTR, .elem = elem, .space = (uint8_t)as, .bits = 64};
    return intern(t, &k);
}
const Type *ty_memref(TypeTable *t, const Type *elem, AddrSpace as, int space_written, unsigned rank,
                      const int64_t *dims)
{
    Type k = {.kind = TY_PTR, .elem = elem, .space = (uint8_t)as, .bits = 64, .rank = (uint8_t)rank,
              .pad = (uint8_t)!space_written};
    for (unsigned i = 0; i < rank && i < TILE_MAX_RANK; i++) k.dims[i] = dims[i];
    return intern(t, &k);
}
const Type *ty_vreg(TypeTable *t, unsigned lanes, const Type *elem)
{
    Type k = {.kind = TY_VREG, .elem = elem, .lanes = (uint16_t)lanes};
    return intern(t, &k);
}
const Type *ty_mask(TypeTable *t, unsigned gran)
{
    Type k = {.kind = TY_MASK, .gran = (uint8_t)gran};
    return intern(t, &k);
}
const Type *ty_align(TypeTable *t)
{
    if (!t->align) { Type k = {.kind = TY_ALIGN}; t->align = intern(t, &k); }
    return t->align;
}
const Type *ty_vaddr(TypeTable *t, unsigned gran)
{
    Type k = {.kind = TY_VADDR, .gran = (uint8_t)gran};
    return intern(t, &k);
}
const Type *ty_handle(TypeTable *t, HandleKind hk)
{
    Type k = {.kind = TY_HANDLE, .gran = (uint8_t)hk};
    return intern(t, &k);
}
const Type *ty_none(TypeTable *t)
{
    if (!t->none) { Type k = {.kind = TY_NONE}; t->none = intern(t, &k); }
    return t->none;
}
const Type *ty_vmi_vreg_l(TypeTable *t, unsigned lanes, const Type *elem, const VmiLayout *lay)
{
    Type k = {.kind = TY_VMI_VREG, .elem = elem, .lanes = (uint16_t)lanes};
    if (lay && lay->kind != VL_NONE) k.lay = *lay;
    return intern(t, &k);
}
const Type *ty_vmi_mask_l(TypeTable *t, unsigned lanes, unsigned gran, const VmiLayout *lay)
{
    Type k = {.kind = TY_VMI_MASK, .lanes = (uint16_t)lanes, .gran = (uint8_t)gran};
    if (lay && lay->kind != VL_NONE) k.lay = *lay;
    return intern(t, &k);
}
const Type *ty_vmi_vreg(TypeTable *t, unsigned lanes, const Type *elem) { return ty_vmi_vreg_l(t, lanes, elem, NULL); }
const Type *ty_vmi_mask(TypeTable *t, unsigned lanes, unsigned gran) { return ty_vmi_mask_l(t, lanes, gran, NULL); }

int ty_format_layout(const VmiLayout *l, char *buf, unsigned n)
{
    static const char *const kinds[] = {"", "contiguous", "deinterleaved", "block_deinterleaved", "num_groups"};
    if (!l->kind || l->kind > VL_NUM_GROUPS) return n ? (buf[0] = 0, 0) : 0;
    int k = snprintf(buf, n, ", #pto.vmi.layout<%s", kinds[l->kind]);
    unsigned at;
#define AT() (at = (unsigned)k < n ? (unsigned)k : n)
    if (l->kind != VL_CONTIGUOUS) { AT(); k += snprintf(buf + at, n - at, " = %u", l->factor); }
    if (l->slots) { AT(); k += snprintf(buf + at, n - at, ", slots = %u", l->slots); }
    if (l->stride != 1) { AT(); k += snprintf(buf + at, n - at, ", lane_stride = %u", l->stride); }
    AT();
    k += snprintf(buf + at, n - at, ">");
#undef AT
    return k;
}
/* ---- the tile layer ---- */
static const struct { const char *name; AddrSpace as; } tile_locs[] = {
    {"vec", AS_UB}, {"mat", AS_L1}, {"left", AS_L0A}, {"right", AS_L0B}, {"acc", AS_L0C}, {"bias", AS_BT},
    {"scaling", AS_FB},
};

const char *tile_loc_name(AddrSpace as)
{
    for (unsigned i = 0; i < sizeof tile_locs / sizeof tile_locs[0]; i++)
        if (tile_locs[i].as == as) return tile_locs[i].name;
    return NULL;
}

int tile_loc_lookup(const char *s, unsigned n)
{
    for (unsigned i = 0; i < sizeof tile_locs / sizeof tile_locs[0]; i++)
        if (strlen(tile_locs[i].name) == n && memcmp(tile_locs[i].name, s, n) == 0) return (int)tile_locs[i].as;
    return -1;
}

const Type *ty_tensor_view(TypeTable *t, int part, unsigned rank, const int64_t *dims, const Type *elem)
{
    Type k = {.kind = part ? TY_PART_VIEW : TY_TENSOR_VIEW, .elem = elem, .rank = (uint8_t)rank};
    for (unsigned i = 0; i < rank && i < TILE_MAX_RANK; i++) k.dims[i] = dims[i] < 0 ? TILE_DYN : dims[i];
    return intern(t, &k);
}

const Type *ty_tile_buf(TypeTable *t, const Type *d)
{
    Type k = {.kind = TY_TILE_BUF, .elem = d->elem, .space = d->space, .rank = 2, .blayout = d->blayout,
              .slayout = d->slayout, .pad = d->pad, .compact = d->compact, .fractal = d->fractal};
    for (unsigned i = 0; i < 4; i++) k.dims[i] = d->dims[i] < 0 ? TILE_DYN : d->dims[i];
    return intern(t, &k);
}

const Type *ty_multi_tile(TypeTable *t, const Type *tile, int64_t count)
{
    Type k = *ty_tile_buf(t, tile);
    k.kind = TY_MULTI_TILE;
    k.dims[4] = count;
    return intern(t, &k);
}

const Type *ty_local_array(TypeTable *t, unsigned rank, const int64_t *dims, const Type *elem)
{
    Type k = {.kind = TY_LOCAL_ARRAY, .elem = elem, .rank = (uint8_t)rank};
    for (unsigned i = 0; i < rank && i < TILE_MAX_RANK; i++) k.dims[i] = dims[i];
    return intern(t, &k);
}

const Type *ty_eventid_array(TypeTable *t, int64_t n)
{
    Type k = {.kind = TY_LOCAL_ARRAY, .elem = ty_index(t), .rank = 1, .space = 1};
    k.dims[0] = n;
    return intern(t, &k);
}

const Type *ty_multi_slot(TypeTable *t, const Type *multi)
{
    return ty_tile_buf(t, multi);
}

uint64_t tile_bytes(const Type *t)
{
    uint64_t n = (uint64_t)(t->dims[0] > 0 ? t->dims[0] : 0) * (uint64_t)(t->dims[1] > 0 ? t->dims[1] : 0);
    return n * ty_bytes(t->elem);
}

const Type *ty_vec(TypeTable *t, unsigned lanes, const Type *elem, bool hif8x2)
{
    Type k = {.kind = TY_VEC, .elem = elem, .lanes = (uint16_t)lanes, .gran = (uint8_t)hif8x2};
    return intern(t, &k);
}
const Type *ty_llptr(TypeTable *t, unsigned space)
{
    Type k = {.kind = TY_LLPTR, .space = (uint8_t)space, .bits = 64};
    return intern(t, &k);
}
const Type *ty_func(TypeTable *t, const Type *const *in, unsigned nin, const Type *const *out, unsigned nout)
{
    const Type *buf[64];
    if (nin + nout > 64) return NULL;
    for (unsigned i = 0; i < nin; i++) buf[i] = in[i];
    for (unsigned i = 0; i < nout; i++) buf[nin + i] = out[i];
    Type k = {.kind = TY_FUNC, .params = buf, .nin = (uint16_t)nin, .nout = (uint16_t)nout};
    return intern(t, &k);
}

const Type *ty_struct(TypeTable *t, const Type *const *fields, unsigned n)
{
    if (n == 0 || n > 64) return NULL;
    unsigned leaves = 0;
    for (unsigned i = 0; i < n; i++) leaves += fields[i]->kind == TY_STRUCT ? fields[i]->lanes : 1;
    if (leaves > 4096) return NULL;
    Type k = {.kind = TY_STRUCT, .params = fields, .nin = (uint16_t)n, .lanes = (uint16_t)leaves};
    return intern(t, &k);
}

bool ty_struct_field_ok(const Type *f)
{
    if (f->kind == TY_STRUCT) return true;
    if (f->kind == TY_INT) return f->bits == 8 || f->bits == 16 || f->bits == 32 || f->bits == 64;
    return f->kind == TY_FLOAT && (f->fk == FK_F16 || f->fk == FK_BF16 || f->fk == FK_F32 || f->fk == FK_F64);
}

int ty_struct_path(const Type *s, const int64_t *path, unsigned n, const Type **leaf, unsigned *depth)
{
    int idx = 0;
    const Type *cur = s;
    *depth = 0;
    *leaf = s;
    if (n == 0) return SP_EMPTY;
    for (unsigned d = 0; d < n; d++) {
        *depth = d;
        *leaf = cur;
        if (cur->kind != TY_STRUCT) return SP_NOT_STRUCT;
        if (path[d] < 0 || path[d] >= cur->nin) return SP_RANGE;
        for (int64_t i = 0; i < path[d]; i++) idx += cur->params[i]->kind == TY_STRUCT ? cur->params[i]->lanes : 1;
        cur = cur->params[path[d]];
    }
    *leaf = cur;
    return cur->kind == TY_STRUCT ? SP_AGGREGATE : idx;
}

unsigned ty_bits(const Type *t)
{
    switch (t->kind) {
    case TY_INT: case TY_FLOAT: return t->bits;
    case TY_INDEX: case TY_PTR: return 64;
    case TY_VREG: return 2048;
    case TY_MASK: return 256;
    case TY_VADDR: return 32;   /* the ABI value is <1 x i32> */
    case TY_VEC: return t->lanes * ty_bits(t->elem);
    case TY_LLPTR: return 64;
    case TY_STRUCT: return 64;   /* the value is the address of its storage */
    case TY_VMI_VREG: return t->lanes * ty_bits(t->elem);
    case TY_VMI_MASK: return t->lanes;
    default: return 0;
    }
}

/* Appends `sep` then (if t) the spelling of t at offset k of buf[n]; returns the new length (as snprintf counts). */
static int fmt_at(char *buf, unsigned n, int k, const char *sep, const Type *t)
{
    unsigned at = (unsigned)k < n ? (unsigned)k : n;
    k += snprintf(buf + at, n - at, "%s", sep);
    at = (unsigned)k < n ? (unsigned)k : n;
    if (t) k += ty_format(t, buf + at, n - at);
    return k;
}

int ty_format(const Type *t, char *buf, unsigned n)
{
    char e[96];
    switch (t->kind) {
    case TY_INT:
        return snprintf(buf, n, "%s%u", t->sign == SIGN_S ? "si" : t->sign == SIGN_U ? "ui" : "i", t->bits);
    case TY_INDEX: return snprintf(buf, n, "index");
    case TY_FLOAT: return snprintf(buf, n, "%s", fks[t->fk].spell);
    case TY_PTR:
        ty_format(t->elem, e, sizeof e);
        if (t->rank) {   /* memref<d0x...xelem, #pto.address_space<as>> */
            int k = snprintf(buf, n, "memref<");
            for (unsigned i = 0; i < t->rank; i++) {
                unsigned at = (unsigned)k < n ? (unsigned)k : n;
                k += t->dims[i] == TILE_DYN ? snprintf(buf + at, n - at, "?x")
                                            : snprintf(buf + at, n - at, "%lldx", (long long)t->dims[i]);
            }
            unsigned at = (unsigned)k < n ? (unsigned)k : n;
            if (t->pad) return k + snprintf(buf + at, n - at, "%s>", e);   /* no space written: gm */
            return k + snprintf(buf + at, n - at, "%s, #pto.address_space<%s>>", e, as_names[t->space]);
        }
        return snprintf(buf, n, "!pto.ptr<%s, %s>", e, as_names[t->space]);
    case TY_VREG:
        ty_format(t->elem, e, sizeof e);
        return snprintf(buf, n, "!pto.vreg<%ux%s>", t->lanes, e);
    case TY_MASK:
        if (!t->gran) return snprintf(buf, n, "!pto.mask");
        return snprintf(buf, n, "!pto.mask<b%u>", t->gran * 8u);
    case TY_ALIGN: return snprintf(buf, n, "!pto.align");
    case TY_VADDR: return snprintf(buf, n, "!pto.vaddr<b%u>", t->gran * 8u);
    case TY_NONE: return snprintf(buf, n, "()");
    case TY_HANDLE:
        return snprintf(buf, n, "%s", t->gran == HK_ASYNC_SESSION ? "!pto.async_session" : t->gran == HK_ASYNC_EVENT
                                      ? "!pto.async_event" : t->gran == HK_PIPE ? "!pto.pipe" : "!pto.prefetch_async_context");
    case TY_VEC:
        if (t->gran) return snprintf(buf, n, "!pto.hif8x2");
        ty_format(t->elem, e, sizeof e);
        return snprintf(buf, n, "vector<%ux%s>", t->lanes, e);
    case TY_VMI_VREG: {
        char l[96];
        ty_format(t->elem, e, sizeof e);
        ty_format_layout(&t->lay, l, sizeof l);
        return snprintf(buf, n, "!pto.vmi.vreg<%ux%s%s>", t->lanes, e, l);
    }
    case TY_VMI_MASK: {
        char l[96];
        ty_format_layout(&t->lay, l, sizeof l);
        if (!t->gran) return snprintf(buf, n, "!pto.vmi.mask<%uxpred%s>", t->lanes, l);
        return snprintf(buf, n, "!pto.vmi.mask<%uxb%u%s>", t->lanes, t->gran * 8u, l);
    }
    case TY_LLPTR:
        return t->space ? snprintf(buf, n, "!llvm.ptr<%u>", t->space) : snprintf(buf, n, "!llvm.ptr");
    case TY_TENSOR_VIEW: case TY_PART_VIEW: {
        int k = snprintf(buf, n, "%s<", t->kind == TY_PART_VIEW ? "!pto.partition_tensor_view" : "!pto.tensor_view");
        for (unsigned i = 0; i < t->rank; i++) {
            unsigned at = (unsigned)k < n ? (unsigned)k : n;
            if (t->dims[i] < 0) k += snprintf(buf + at, n - at, "?x");
            else k += snprintf(buf + at, n - at, "%lldx", (long long)t->dims[i]);
        }
        return fmt_at(buf, n, fmt_at(buf, n, k, "", t->elem), ">", NULL);
    }
    case TY_TILE_BUF: {
        static const char *const bl[] = {"row_major", "col_major"}, *const sl[] = {"none_box", "row_major", "col_major"};
        const char *loc = tile_loc_name((AddrSpace)t->space);
        int k = snprintf(buf, n, "!pto.tile_buf<%s, %lldx%lldx", loc ? loc : "?", (long long)t->dims[0],
                         (long long)t->dims[1]);
        k = fmt_at(buf, n, k, "", t->elem);
        char d[96] = "";
        int dk = 0;
        if (t->dims[2] != t->dims[0] || t->dims[3] != t->dims[1]) {
            char r[24], c[24];
            if (t->dims[2] < 0) snprintf(r, sizeof r, "?"); else snprintf(r, sizeof r, "%lld", (long long)t->dims[2]);
            if (t->dims[3] < 0) snprintf(c, sizeof c, "?"); else snprintf(c, sizeof c, "%lld", (long long)t->dims[3]);
            dk += snprintf(d + dk, sizeof d - (size_t)dk, ", valid=%sx%s", r, c);
        }
        if (t->blayout) dk += snprintf(d + dk, sizeof d - (size_t)dk, ", blayout=%s", bl[t->blayout & 1]);
        if (t->slayout) dk += snprintf(d + dk, sizeof d - (size_t)dk, ", slayout=%s", sl[t->slayout % 3]);
        if (t->fractal != TILE_DEF_FRACTAL) dk += snprintf(d + dk, sizeof d - (size_t)dk, ", fractal=%u", t->fractal);
        if (t->pad) dk += snprintf(d + dk, sizeof d - (size_t)dk, ", pad=%u", t->pad);
        if (t->compact) dk += snprintf(d + dk, sizeof d - (size_t)dk, ", compact=%u", t->compact);
        (void)dk;
        k = fmt_at(buf, n, k, d, NULL);
        return fmt_at(buf, n, k, ">", NULL);
    }
    case TY_LOCAL_ARRAY: {
        if (t->space == 1) return snprintf(buf, n, "!pto.eventid_array<%lld>", (long long)t->dims[0]);
        int k = snprintf(buf, n, "!pto.local_array<");
        for (unsigned i = 0; i < t->rank; i++) {
            unsigned at = (unsigned)k < n ? (unsigned)k : n;
            k += snprintf(buf + at, n - at, "%lldx", (long long)t->dims[i]);
        }
        return fmt_at(buf, n, fmt_at(buf, n, k, "", t->elem), ">", NULL);
    }
    case TY_MULTI_TILE: {
        Type slot = *t;
        slot.kind = TY_TILE_BUF;
        slot.dims[4] = 0;
        int k = fmt_at(buf, n, 0, "!pto.multi_tile_buf<", &slot);
        unsigned at = (unsigned)k < n ? (unsigned)k : n;
        return k + snprintf(buf + at, n - at, ", count=%lld>", (long long)t->dims[4]);
    }
    case TY_STRUCT: {     /* fields are written in place: a nesting can be longer than any fixed buffer */
        int k = snprintf(buf, n, "!pto.struct<");
        for (unsigned i = 0; i < t->nin; i++) k = fmt_at(buf, n, k, i ? ", " : "", t->params[i]);
        return fmt_at(buf, n, k, ">", NULL);
    }
    case TY_FUNC: {
        int k = snprintf(buf, n, "(");
        for (unsigned i = 0; i < t->nin; i++) k = fmt_at(buf, n, k, i ? ", " : "", t->params[i]);
        k = fmt_at(buf, n, k, t->nout != 1 ? ") -> (" : ") -> ", NULL);
        for (unsigned i = 0; i < t->nout; i++) k = fmt_at(buf, n, k, i ? ", " : "", t->params[t->nin + i]);
        return t->nout != 1 ? fmt_at(buf, n, k, ")", NULL) : k;
    }
    }
    return snprintf(buf, n, "?");
}
