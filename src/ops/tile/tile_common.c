/* tile_common.c — what the tile family's groups share: the decoded job of a queued tile op with its capture
 * list, the run-time valid-shape check and the pad values of the tile pad policies. */
#include "tile_int.h"
#include <inttypes.h>
#include "exec/timing.h"

TileJob *tile_job(LowerView *L, const Op *op, Instr *in)
{
    if (op->noperands > TJ_MAX) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' has more operands than the tile family supports", op_info[op->kind].name);
        return NULL;
    }
    TileJob *j = lw_alloc(L, op, sizeof *j);
    CaptureList *caps = lw_alloc(L, op, sizeof(CaptureList) + op->noperands * sizeof(Capture));
    if (!j || !caps) return NULL;
    j->n = (uint8_t)op->noperands;
    j->src0 = j->src1 = j->scal = j->dst = j->mask = -1;
    memset(j->aux, -1, sizeof j->aux);
    caps->n = op->noperands;
    for (uint32_t i = 0; i < op->noperands; i++) {
        const Value *v = op->operands[i];
        uint32_t sz = value_frame_bytes(v->type);
        caps->c[i].off = v->slot;
        caps->c[i].size = sz;
        j->off[i] = (uint16_t)caps->bytes;
        j->ty[i] = v->type;
        caps->bytes += (sz + 7) & ~7u;
    }
    in->caps = caps;
    in->ext = j;
    return j;
}

int tile_check_valid(Exec *x, const Instr *in, const Type *t, TileRt r, const char *what)
{
    if ((int64_t)r.vr <= t->dims[0] && (int64_t)r.vc <= t->dims[1]) return 0;
    sim_trap(x, in, DIAG_T_TILE, "the %s tile's valid region %" PRIu32 "x%" PRIu32 " exceeds its %lldx%lld shape", what,
             r.vr, r.vc, (long long)t->dims[0], (long long)t->dims[1]);
    return 1;
}

int tile_check_all(Exec *x, const Instr *in, const TileJob *j, const uint64_t *args)
{
    for (int i = 0; i < j->n; i++)
        if (j->ty[i]->kind == TY_TILE_BUF &&
            tile_check_valid(x, in, j->ty[i], tj_tile(j, args, i), i == j->dst ? "destination" : "source"))
            return 1;
    return 0;
}

/* The A5 TileLib's pad constants (_load_store.py _pad_zero/_pad_max/_pad_min, _fillpad.py the same): zero;
   the largest finite value (all ones for unsigned integers); the lowest finite value (0 for unsigned). The
   8-bit float kinds take the i8 constants 127 / -128, as the library's fallthrough does. */
uint64_t tile_pad_bits(const Type *t, int pad)
{
    ElemKind k = elem_kind(t->elem);
    if (pad != TPAD_MAX && pad != TPAD_MIN) return 0;
    int mx = pad == TPAD_MAX;
    switch (k) {
    case EK_F32: return mx ? 0x7F7FFFFFu : 0xFF7FFFFFu;
    case EK_F16: return mx ? 0x7BFFu : 0xFBFFu;
    case EK_BF16: return mx ? 0x7F7Fu : 0xFF7Fu;
    case EK_U8: case EK_U16: case EK_U32: case EK_U64: return mx ? ek_mask(k) : 0;
    case EK_S16: return mx ? 0x7FFFu : 0x8000u;
    case EK_S32: return mx ? 0x7FFFFFFFu : 0x80000000u;
    case EK_S64: return mx ? 0x7FFFFFFF7FFFFFFFull : 0x8000000080000000ull;   /* the library's i32 pattern */
    default: return mx ? 0x7Fu : 0x80u;
    }
}

/* docs/timing.md "Tile ops": a tile op whose micro expansion issues the n ops m[] per repeat (one 256-byte
   register of lanes) costs what exec/timing.c timing_tile_body says for one line of `repeats` repeats. */
uint64_t tile_vec_cost(Exec *x, const OpKind *m, unsigned n, ElemKind ek, ElemKind sek, uint64_t repeats)
{
    if (!repeats || !n) return 0;
    x->core->pipes[PQ_V].ops += repeats * n;
    return timing_tile_body(x->core->sim->timing, m, n, ek, sek, 1, repeats);
}

/* The footprint of a tile op that reads its source tiles and writes its destination tiles whole (rows x cols
   elements from the tile's address): every tile operand, written when `written(i)` says so. */
void tile_foot_whole(const TileJob *j, const uint64_t *args, AsFoot *f, uint32_t written_mask)
{
    for (int i = 0; i < j->n; i++) {
        const Type *t = j->ty[i];
        if (t->kind != TY_TILE_BUF) continue;
        TileRt r = tj_tile(j, args, i);
        uint64_t n = (uint64_t)t->dims[0] * (uint64_t)t->dims[1] * ty_bytes(t->elem);
        as_add(f, t->space, r.addr, r.addr + n, (written_mask >> i) & 1);
    }
}

int64_t tile_row_pitch(const Value *v)
{
    for (int depth = 0; depth < 64 && v->def && v->def->kind == OP_SUBVIEW && tile_plain_rows(v->def->operands[0]->type);
         depth++)
        v = v->def->operands[0];
    return v->type->dims[1];
}

void tile_find_windows(TileJob *j, const Op *op, int (*ok)(const Op *o, uint32_t i))
{
    for (uint32_t i = 0; i < op->noperands && i < TJ_MAX; i++) {
        if (!tile_plain_rows(op->operands[i]->type) || (ok && !ok(op, i))) continue;
        const Type *t = op->operands[i]->type;
        int64_t p = tile_row_pitch(op->operands[i]);
        if (p > 0 && p != t->dims[1]) j->wpitch[i] = (int32_t)p;
    }
}
