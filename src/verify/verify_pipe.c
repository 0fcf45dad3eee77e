/* verify_pipe.c — the compiler's front-end rules of the cross-core pipe ops and of their FIXPIPE epilogue
 * (PTOAS lib/PTO/IR/PTO.cpp: the verifiers of aic/aiv_initialize_pipe, talloc/tpush/tpop/tfree, set_quant_scalar;
 * docs/PTO_IR_manual.md 4.18). A frontend pipe is named by its `id` (0 when not written, as the compiler's
 * default-id pass assigns) within one function; a data op finds its initialize_pipe by that id. A pipe whose
 * initialize_pipe carries `acc_push_epilogue` is a FIXPIPE pipe: the cube's acc tile goes through the FIXPIPE
 * (layout, quant, relu) on its way to the vector core, and the producer (aic) and consumer (aiv) inits must agree.
 * The ops are read as the op table declares them; nothing here runs them. Each op reports its first broken rule
 * only, at the op (the compiler's emitOpError). Rules and IDs: docs/verifier.md "Cross-core pipes". */
#include "verify_int.h"
#include "base/alloc.h"
#include <stdio.h>
#include <string.h>

enum { SIDE_NONE, SIDE_CUBE, SIDE_VECTOR };

static int64_t attr_i(const Op *op, const char *name, int64_t dflt)
{
    const Attr *a = op_attr(op, name);
    return a && (a->kind == AT_INT || a->kind == AT_BOOL) ? a->i : dflt;
}

static const char *attr_s(const Op *op, const char *name)
{
    const Attr *a = op_attr(op, name);
    if (!a || !a->s || !(a->kind == AT_STR || a->kind == AT_SYM || a->kind == AT_TOKEN)) return NULL;
    return a->s[0] == '@' ? a->s + 1 : a->s;
}

static bool is_init(const Op *o) { return o->kind == OP_AIC_INITIALIZE_PIPE || o->kind == OP_AIV_INITIALIZE_PIPE; }
static int64_t pipe_id(const Op *o) { return attr_i(o, "id", 0); }

/* ---------------------------------------------------------------- acc_push_epilogue */

enum { Q_NO_CONVERT, Q_F32_F16, Q_F32_BF16, Q_REQ8_SCALAR, Q_REQ8_VEC, Q_DEQF16_SCALAR, Q_DEQF16_VEC, Q_QF322B8_S,
       Q_QF322B8_V, Q_QF322F16_S, Q_QF322BF16_S, Q_QS322BF16_S, Q_QS322BF16_V, Q_QF322HIF8_S, Q_QF322FP8_S, Q__N };
static const char *const q_names[Q__N] = {
    "no_convert", "f32_f16", "f32_bf16", "req8_scalar", "req8_vec", "deqf16_scalar", "deqf16_vec",
    "qf322b8_pre_scalar", "qf322b8_pre_vec", "qf322f16_pre_scalar", "qf322bf16_pre_scalar", "qs322bf16_pre_scalar",
    "qs322bf16_pre_vec", "qf322hif8_pre_scalar", "qf322fp8_pre_scalar"};
static const char *const l_names[3] = {"nz2nd", "nz2dn", "nz2nz"};
static const char *const r_names[2] = {"no_relu", "normal_relu"};

typedef struct Epi {
    int layout, quant, relu;   /* indexes into the name tables, -1: missing or not one of them */
    char bad[24];              /* the first field whose value is not one of its names */
    char badval[40];
} Epi;

static int lookup(const char *const *names, int n, const char *s, size_t len)
{
    for (int i = 0; i < n; i++)
        if (strlen(names[i]) == len && !strncmp(names[i], s, len)) return i;
    return -1;
}

static bool ident_ch(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

/* 0: the op has no acc_push_epilogue; 1: it has one (e filled; a field it could not read is -1, named in e->bad). */
static int get_epi(const Op *op, Epi *e)
{
    const Attr *a = op_attr(op, "acc_push_epilogue");
    e->layout = e->quant = e->relu = -1;
    e->bad[0] = e->badval[0] = 0;
    if (!a) return 0;
    const char *s = a->kind == AT_RAW || a->kind == AT_STR ? a->s : NULL;
    const char *lt = s ? strchr(s, '<') : NULL;
    if (!lt) { snprintf(e->bad, sizeof e->bad, "layout"); return 1; }
    const char *p = lt + 1;
    while (*p && *p != '>') {
        while (*p == ' ' || *p == ',' || *p == '\n' || *p == '\t') p++;
        const char *k = p;
        while (ident_ch(*p)) p++;
        size_t kl = (size_t)(p - k);
        while (*p == ' ') p++;
        if (!kl || *p != '=') break;
        p++;
        while (*p == ' ') p++;
        const char *v = p;
        while (ident_ch(*p)) p++;
        size_t vl = (size_t)(p - v);
        int *slot = NULL, idx = -1;
        if (kl == 6 && !strncmp(k, "layout", 6)) { slot = &e->layout; idx = lookup(l_names, 3, v, vl); }
        else if (kl == 5 && !strncmp(k, "quant", 5)) { slot = &e->quant; idx = lookup(q_names, Q__N, v, vl); }
        else if (kl == 4 && !strncmp(k, "relu", 4)) { slot = &e->relu; idx = lookup(r_names, 2, v, vl); }
        if (slot) *slot = idx;
        if (slot && idx < 0 && !e->bad[0]) {
            snprintf(e->bad, sizeof e->bad, "%.*s", (int)kl, k);
            snprintf(e->badval, sizeof e->badval, "%.*s", (int)(vl < 32 ? vl : 32), v);
        }
    }
    if (!e->bad[0]) {
        const char *miss = e->layout < 0 ? "layout" : e->quant < 0 ? "quant" : e->relu < 0 ? "relu" : NULL;
        if (miss) snprintf(e->bad, sizeof e->bad, "%s", miss);
    }
    return 1;
}

static bool q_scalar(int q)
{
    return q == Q_DEQF16_SCALAR || q == Q_REQ8_SCALAR || q == Q_QF322B8_S || q == Q_QF322F16_S || q == Q_QF322BF16_S ||
           q == Q_QS322BF16_S || q == Q_QF322HIF8_S || q == Q_QF322FP8_S;
}
static bool q_vector(int q) { return q == Q_DEQF16_VEC || q == Q_REQ8_VEC || q == Q_QF322B8_V || q == Q_QS322BF16_V; }

/* element-type predicates (MLIR's: isInteger(32) is any signedness; i8 "signed or unsigned" excludes signless) */
static bool t_fk(const Type *t, int fk) { return t && t->kind == TY_FLOAT && t->fk == fk; }
static bool t_i32(const Type *t) { return t && t->kind == TY_INT && t->bits == 32; }
static bool t_su8(const Type *t) { return t && t->kind == TY_INT && t->bits == 8 && t->sign != SIGN_LESS; }
static bool t_s8(const Type *t) { return t && t->kind == TY_INT && t->bits == 8 && t->sign == SIGN_S; }

/* what the FIXPIPE may deliver to the consumer for quant q */
static bool consumer_elem_ok(int q, const Type *d)
{
    switch (q) {
    case Q_NO_CONVERT: return t_fk(d, FK_F32) || t_i32(d);
    case Q_F32_F16: case Q_DEQF16_SCALAR: case Q_DEQF16_VEC: case Q_QF322F16_S: return t_fk(d, FK_F16);
    case Q_F32_BF16: case Q_QF322BF16_S: case Q_QS322BF16_S: case Q_QS322BF16_V: return t_fk(d, FK_BF16);
    case Q_REQ8_SCALAR: case Q_QF322B8_S: return t_su8(d);
    case Q_REQ8_VEC: case Q_QF322B8_V: return t_s8(d);
    case Q_QF322HIF8_S: return t_fk(d, FK_HIF8);
    case Q_QF322FP8_S: return d && d->kind == TY_FLOAT && elem_kind(d) == EK_E4M3;   /* e4m3-like (f8E4M3 too) */
    default: return true;
    }
}

/* what the acc tile pushed into the FIXPIPE must hold for quant q */
static bool producer_elem_ok(int q, const Type *s)
{
    switch (q) {
    case Q_NO_CONVERT: return t_fk(s, FK_F32) || t_i32(s);
    case Q_F32_F16: case Q_F32_BF16: case Q_QF322B8_S: case Q_QF322B8_V: case Q_QF322F16_S: case Q_QF322BF16_S:
    case Q_QF322HIF8_S: case Q_QF322FP8_S: return t_fk(s, FK_F32);
    case Q_REQ8_SCALAR: case Q_REQ8_VEC: case Q_DEQF16_SCALAR: case Q_DEQF16_VEC: case Q_QS322BF16_S:
    case Q_QS322BF16_V: return t_i32(s);
    default: return true;
    }
}

static bool pair_ok(int q, const Type *s, const Type *d)
{
    if (q == Q_NO_CONVERT) return (t_fk(s, FK_F32) || t_i32(s)) && s == d;
    return producer_elem_ok(q, s) && consumer_elem_ok(q, d);
}

static bool layout_ok(int l, const Type *t)
{
    if (!t || t->kind != TY_TILE_BUF || t->space != AS_UB) return false;
    switch (l) {
    case 0: return t->blayout == TBL_ROW_MAJOR && t->slayout == TSL_NONE_BOX;
    case 1: return t->blayout == TBL_COL_MAJOR && t->slayout == TSL_NONE_BOX;
    case 2: return t->blayout == TBL_COL_MAJOR && t->slayout == TSL_ROW_MAJOR;
    default: return true;
    }
}

/* ---------------------------------------------------------------- lookups */

typedef struct Find {
    int64_t id;
    int kind;                  /* 0: frontend inits by id; 1: tpop_from_aic by id; 2: tpush_to_aiv by id */
    Op *hit;
    unsigned n;
    Op *list[64];
} Find;

static int find_visit(Op *o, void *ud)
{
    Find *f = ud;
    bool m = f->kind == 0 ? is_init(o) : f->kind == 1 ? o->kind == OP_TPOP_FROM_AIC : o->kind == OP_TPUSH_TO_AIV;
    if (m && pipe_id(o) == f->id) {
        if (!f->hit) f->hit = o;
        if (f->n < 64) f->list[f->n] = o;
        f->n++;
    }
    return 0;
}

static Find find_in(VCtx *V, Op *func, int kind, int64_t id)
{
    Find f;
    memset(&f, 0, sizeof f);
    f.id = id;
    f.kind = kind;
    if (func) v_walk(V, func, find_visit, &f);
    return f;
}

/* the reserve/import op that defines a consumer-buffer operand, or NULL */
static const Op *buf_def(const Value *v, OpKind k)
{
    return v && v->def && v->def->kind == k ? v->def : NULL;
}

static const char *side_name(int s) { return s == SIDE_CUBE ? "cube" : "vector"; }

/* Is op inside a function or section of `want`? A pto.tileop.helper function may hold either side. */
static bool in_side(const Op *op, int want)
{
    Op *f = v_enclosing_func(op);
    if (f && v_has(f, "pto.tileop.helper")) return true;
    for (Op *p = ir_parent_op(op); p && p != f; p = ir_parent_op(p)) {
        if (p->kind == OP_SECTION_CUBE) return want == SIDE_CUBE;
        if (p->kind == OP_SECTION_VECTOR) return want == SIDE_VECTOR;
    }
    const Attr *kk = f ? op_attr(f, "pto.kernel_kind") : NULL;
    if (!kk || !kk->s) return false;
    return !strcmp(kk->s, want == SIDE_CUBE ? "cube" : "vector");
}

static const char *const unpublished[] = {"stPhase", "st_phase", "atomicType", "atomic_type", "subBlockId", "subBlockid",
                                          "sub_blockid", "clipReluMode", "clip_relu_mode", "isChannelSplit",
                                          "is_channel_split", "channelSplit", "channel_split"};

/* FIXPIPE settings the compiler keeps off the frontend surface (STPhase, AtomicType, SubBlockId, ClipReluMode,
   IsChannelSplit): 1 when reported */
static int check_unpublished(VCtx *V, const Op *op)
{
    for (uint32_t i = 0; i < op->nattrs; i++)
        for (size_t k = 0; k < sizeof unpublished / sizeof *unpublished; k++)
            if (op->attrs[i].name && !strcmp(op->attrs[i].name, unpublished[k])) {
                v_err(V, DIAG_PIPE_ATTR, v_attr_loc(op, op->attrs[i].name), "'%s' does not take '%s': the FIXPIPE's "
                      "STPhase, AtomicType, SubBlockId, ClipReluMode and channel split are not part of the frontend "
                      "pipe surface", v_opname(op), unpublished[k]);
                return 1;
            }
    return 0;
}

static int check_side(VCtx *V, const Op *op, int want)
{
    if (in_side(op, want)) return 0;
    v_err(V, DIAG_PIPE_CONTEXT, op->loc, "'%s' belongs to the %s side of a pipe: it must be inside a function with "
          "pto.kernel_kind = #pto.kernel_kind<%s> or a pto.section.%s", v_opname(op), side_name(want),
          side_name(want), side_name(want));
    return 1;
}

/* ---------------------------------------------------------------- initialize_pipe */

static int check_slot_tensor(VCtx *V, const Op *op, const Value *t, int64_t slot_size)
{
    const Type *ty = t ? t->type : NULL;
    if (!ty || ty->kind != TY_TENSOR_VIEW || !ty->rank) {
        v_err(V, DIAG_PIPE_INIT, op_use_loc(op, t), "'gm_slot_tensor' must be a !pto.tensor_view describing one slot "
              "entry");
        return 1;
    }
    uint64_t n = 1;
    for (unsigned i = 0; i < ty->rank; i++) {
        if (ty->dims[i] < 0) return 0;
        n *= (uint64_t)ty->dims[i];
    }
    uint64_t bytes = n * (ty->elem ? (uint64_t)(ty_bits(ty->elem) / 8) : 0);
    if (bytes && (uint64_t)slot_size != bytes && (uint64_t)slot_size != 2 * bytes) {
        v_err(V, DIAG_PIPE_INIT, op->loc, "slot_size %lld is neither the %llu bytes of gm_slot_tensor nor twice them "
              "(a split GlobalTensor entry)", (long long)slot_size, (unsigned long long)bytes);
        return 1;
    }
    return 0;
}

static int check_init_common(VCtx *V, Op *op, int side, Epi *e, int has_epi)
{
    if (check_unpublished(V, op) || check_side(V, op, side)) return 1;
    Op *func = v_enclosing_func(op);
    if (!func) return 1;
    int64_t id = pipe_id(op);
    if (id < 0) {
        v_err(V, DIAG_PIPE_INIT, v_attr_loc(op, "id"), "pipe 'id' %lld is negative", (long long)id);
        return 1;
    }
    Find f = find_in(V, func, 0, id);
    if (f.n > 1) {
        long d = v_err(V, DIAG_PIPE_INIT, op->loc, "pipe id %lld is initialised %u times in this function; each "
                       "frontend initialize_pipe needs its own id", (long long)id, f.n);
        v_note(V, d, (f.hit != op ? f.hit : f.list[1])->loc, "another initialize_pipe with id %lld", (long long)id);
        return 1;
    }
    int64_t dm = attr_i(op, "dir_mask", 0), ss = attr_i(op, "slot_size", 0);
    if (dm < 1 || dm > 3) {
        v_err(V, DIAG_PIPE_INIT, v_attr_loc(op, "dir_mask"), "dir_mask is %lld; it must be 1 (C2V), 2 (V2C) or 3 (both)",
              (long long)dm);
        return 1;
    }
    if (ss <= 0) {
        v_err(V, DIAG_PIPE_INIT, v_attr_loc(op, "slot_size"), "slot_size must be greater than 0");
        return 1;
    }
    int64_t sn = dm == 3 ? 4 : 8;
    if (op_attr(op, "slot_num")) {
        sn = attr_i(op, "slot_num", 0);
        if (sn <= 0) {
            v_err(V, DIAG_PIPE_INIT, v_attr_loc(op, "slot_num"), "slot_num must be greater than 0");
            return 1;
        }
    }
    Value *c2v = v_grp(V, op, "c2v", 0), *v2c = v_grp(V, op, "v2c", 0), *gmb = v_grp(V, op, "gmb", 0),
          *gmt = v_grp(V, op, "gmt", 0);
    if (gmt) {
        if (gmb) {
            v_err(V, DIAG_PIPE_INIT, op_use_loc(op, gmb), "'gm_slot_tensor' cannot be combined with 'gm_slot_buffer'");
            return 1;
        }
        if ((c2v || v2c) && (dm != 1 || !c2v || v2c)) {
            v_err(V, DIAG_PIPE_INIT, op->loc, "a GM-backed tile pipe (gm_slot_tensor with a consumer buffer) is C2V "
                  "only: dir_mask = 1 with 'c2v_consumer_buf' alone");
            return 1;
        }
        if (check_slot_tensor(V, op, gmt, ss)) return 1;
        if (!c2v && !v2c) {
            if (op_attr(op, "local_slot_num")) {
                v_err(V, DIAG_PIPE_INIT, v_attr_loc(op, "local_slot_num"), "a GlobalTensor pipe has no local slots: "
                      "'local_slot_num' does not apply");
                return 1;
            }
            return 0;
        }
    }
    if (!c2v && !v2c) {
        v_err(V, DIAG_PIPE_INIT, op->loc, "a local pipe needs a consumer buffer ('c2v_consumer_buf' or "
              "'v2c_consumer_buf'); a GlobalTensor pipe gives 'gm_slot_tensor'");
        return 1;
    }
    if ((dm & 1) && !c2v) {
        v_err(V, DIAG_PIPE_INIT, op->loc, "dir_mask %lld carries C2V traffic: 'c2v_consumer_buf' is required", (long long)dm);
        return 1;
    }
    if ((dm & 2) && !v2c) {
        v_err(V, DIAG_PIPE_INIT, op->loc, "dir_mask %lld carries V2C traffic: 'v2c_consumer_buf' is required", (long long)dm);
        return 1;
    }
    if (op_attr(op, "local_slot_num")) {
        int64_t ls = attr_i(op, "local_slot_num", 0);
        SrcLoc l = v_attr_loc(op, "local_slot_num");
        if (V->target == PTO_TARGET_A5) {
            v_err(V, DIAG_PIPE_INIT, l, "'local_slot_num' is an a2a3 form of the frontend pipe (its GM slots staged in "
                  "fewer local slots); the a5 pipe has none");
            return 1;
        }
        if (ls <= 0 || ls > sn) {
            v_err(V, DIAG_PIPE_INIT, l, "local_slot_num %lld must be in 1..slot_num (%lld for dir_mask = %lld)",
                  (long long)ls, (long long)sn, (long long)dm);
            return 1;
        }
    }
    if (!has_epi) return 0;
    /* a FIXPIPE pipe: C2V only, no split, a consumer buffer that names its peer, the v1 modes */
    SrcLoc el = v_attr_loc(op, "acc_push_epilogue");
    if (e->bad[0]) {
        v_err(V, DIAG_FIXPIPE_EPILOGUE, el, "acc_push_epilogue.%s%s%s is not one of its values (layout: nz2nd, nz2dn, "
              "nz2nz; relu: no_relu, normal_relu; quant: the v1 modes)", e->bad, e->badval[0] ? " = " : "", e->badval);
        return 1;
    }
    if (dm != 1) {
        v_err(V, DIAG_FIXPIPE_EPILOGUE, el, "a pipe with acc_push_epilogue is C2V only (dir_mask = 1), not %lld",
              (long long)dm);
        return 1;
    }
    if (!attr_i(op, "nosplit", 0)) {
        v_err(V, DIAG_FIXPIPE_EPILOGUE, el, "a pipe with acc_push_epilogue needs nosplit = true");
        return 1;
    }
    if (c2v && !buf_def(c2v, OP_RESERVE_BUFFER) && !buf_def(c2v, OP_IMPORT_RESERVED_BUFFER)) {
        long d = v_err(V, DIAG_FIXPIPE_EPILOGUE, op_use_loc(op, c2v), "the 'c2v_consumer_buf' of a pipe with "
                       "acc_push_epilogue must come from pto.reserve_buffer or pto.import_reserved_buffer, so its peer "
                       "init can be found");
        v_note(V, d, v_value_loc(c2v), "%%%s is defined here", v_valname(c2v));
        return 1;
    }
    if ((e->quant == Q_QS322BF16_S || e->quant == Q_QS322BF16_V || e->quant == Q_QF322HIF8_S ||
         e->quant == Q_QF322FP8_S) && V->target != PTO_TARGET_A5) {
        v_err(V, DIAG_FIXPIPE_EPILOGUE, el, "acc_push_epilogue quant %s is available on the a5 target profile only",
              q_names[e->quant]);
        return 1;
    }
    return 0;
}

/* The root module a symbol lookup may reach (the walk for imports of a reserve_buffer). */
static Op *module_of(Op *func)
{
    Op *m = ir_parent_op(func);
    return m;
}

typedef struct PeerFind {
    VCtx *V;
    const char *name;
    const Op *target;          /* the function the import's peer_func must resolve to / the init's peer */
    int want;                  /* 0: aiv inits whose c2v is a reserve_buffer called name;
                                  1: imports called name whose peer_func is target;
                                  2: aic inits whose c2v is an import called name with peer target */
    Op *hit;
    unsigned n;
} PeerFind;

static int peer_visit(Op *o, void *ud)
{
    PeerFind *p = ud;
    if (p->want == 1) {
        if (o->kind != OP_IMPORT_RESERVED_BUFFER) return 0;
        const char *nm = attr_s(o, "name"), *pf = attr_s(o, "peer_func");
        if (!nm || !pf || strcmp(nm, p->name)) return 0;
        if (functab_resolve(p->V->funcs, o, pf) != p->target) return 0;
    } else {
        if (o->kind != (p->want == 0 ? OP_AIV_INITIALIZE_PIPE : OP_AIC_INITIALIZE_PIPE)) return 0;
        const Value *c2v = v_grp(p->V, o, "c2v", 0);
        const Op *d = buf_def(c2v, p->want == 0 ? OP_RESERVE_BUFFER : OP_IMPORT_RESERVED_BUFFER);
        const char *nm = d ? attr_s(d, "name") : NULL;
        if (!nm || strcmp(nm, p->name)) return 0;
        if (p->want == 2) {
            const char *pf = attr_s(d, "peer_func");
            if (!pf || functab_resolve(p->V->funcs, d, pf) != p->target) return 0;
        }
    }
    if (!p->hit) p->hit = o;
    p->n++;
    return 0;
}

static unsigned peer_find(VCtx *V, Op *root, int want, const char *name, const Op *target, Op **hit)
{
    PeerFind p = {V, name, target, want, NULL, 0};
    if (root) v_walk(V, root, peer_visit, &p);
    *hit = p.hit;
    return p.n;
}

static int epi_match(VCtx *V, const Op *op, const Epi *a, const Op *peer, const char *peer_role)
{
    Epi b;
    if (!get_epi(peer, &b)) {
        long d = v_err(V, DIAG_FIXPIPE_EPILOGUE, op->loc, "'%s' has acc_push_epilogue but its peer %s init has none: "
                       "both ends of a FIXPIPE pipe declare the same epilogue", v_opname(op), peer_role);
        v_note(V, d, peer->loc, "peer %s init", peer_role);
        return 1;
    }
    const char *f = NULL, *x = NULL, *y = NULL;
    if (b.layout >= 0 && b.layout != a->layout) f = "layout", x = l_names[a->layout], y = l_names[b.layout];
    else if (b.quant >= 0 && b.quant != a->quant) f = "quant", x = q_names[a->quant], y = q_names[b.quant];
    else if (b.relu >= 0 && b.relu != a->relu) f = "relu", x = r_names[a->relu], y = r_names[b.relu];
    if (!f) return 0;
    long d = v_err(V, DIAG_FIXPIPE_EPILOGUE, v_attr_loc(op, "acc_push_epilogue"), "acc_push_epilogue.%s is %s here but "
                   "%s at the peer %s init", f, x, y, peer_role);
    v_note(V, d, peer->loc, "peer %s init", peer_role);
    return 1;
}

static void check_aic_init(VCtx *V, Op *op)
{
    Epi e;
    int he = get_epi(op, &e);
    if (check_init_common(V, op, SIDE_CUBE, &e, he) || !he) return;
    const Op *imp = buf_def(v_grp(V, op, "c2v", 0), OP_IMPORT_RESERVED_BUFFER);
    const char *nm = imp ? attr_s(imp, "name") : NULL, *pf = imp ? attr_s(imp, "peer_func") : NULL;
    Op *peer_func = pf ? functab_resolve(V->funcs, imp, pf) : NULL, *hit = NULL;
    unsigned n = peer_func && nm ? peer_find(V, peer_func, 0, nm, NULL, &hit) : 0;
    if (n != 1) {
        long d = v_err(V, DIAG_FIXPIPE_EPILOGUE, op->loc, "the FIXPIPE producer init needs exactly one peer "
                       "aiv_initialize_pipe whose 'c2v_consumer_buf' is the reserve_buffer its import names (found %u)", n);
        if (imp) v_note(V, d, imp->loc, "the consumer buffer is imported here");
        return;
    }
    epi_match(V, op, &e, hit, "consumer");
}

static void check_aiv_init(VCtx *V, Op *op)
{
    Epi e;
    int he = get_epi(op, &e);
    if (check_init_common(V, op, SIDE_VECTOR, &e, he) || !he) return;
    Op *func = v_enclosing_func(op);
    Value *c2v = v_grp(V, op, "c2v", 0);
    if (!c2v) {
        v_err(V, DIAG_FIXPIPE_EPILOGUE, op->loc, "a FIXPIPE consumer init needs 'c2v_consumer_buf'");
        return;
    }
    if (buf_def(c2v, OP_IMPORT_RESERVED_BUFFER)) {
        v_err(V, DIAG_FIXPIPE_EPILOGUE, op_use_loc(op, c2v), "the FIXPIPE consumer's 'c2v_consumer_buf' must be its own "
              "pto.reserve_buffer, not an import");
        return;
    }
    const Op *res = buf_def(c2v, OP_RESERVE_BUFFER);
    const char *nm = res ? attr_s(res, "name") : NULL;
    if (!nm) return;   /* reported by the common rules */
    Op *imp = NULL, *pinit = NULL;
    unsigned n = peer_find(V, module_of(func), 1, nm, func, &imp);
    if (n != 1) {
        long d = v_err(V, DIAG_FIXPIPE_EPILOGUE, op->loc, "the FIXPIPE consumer buffer '%s' needs exactly one "
                       "pto.import_reserved_buffer naming it with peer_func = this function (found %u)", nm, n);
        v_note(V, d, res->loc, "reserved here");
        return;
    }
    Op *pfunc = v_enclosing_func(imp);
    n = peer_find(V, pfunc, 2, nm, func, &pinit);
    if (n != 1) {
        long d = v_err(V, DIAG_FIXPIPE_EPILOGUE, op->loc, "the FIXPIPE consumer init needs exactly one peer "
                       "aic_initialize_pipe whose 'c2v_consumer_buf' imports '%s' (found %u)", nm, n);
        v_note(V, d, imp->loc, "the buffer is imported here");
        return;
    }
    if (epi_match(V, op, &e, pinit, "producer")) return;
    /* the consumer entry type: the tpop_from_aic results of this pipe */
    Find pops = find_in(V, func, 1, pipe_id(op));
    if (!pops.n) {
        v_err(V, DIAG_FIXPIPE_EPILOGUE, op->loc, "no pto.tpop_from_aic of pipe id %lld: a FIXPIPE consumer needs one to "
              "fix the entry type", (long long)pipe_id(op));
        return;
    }
    const Type *rt = pops.hit->nresults ? pops.hit->results[0]->type : NULL;
    for (unsigned i = 1; i < pops.n && i < 64; i++)
        if (pops.list[i]->nresults && pops.list[i]->results[0]->type != rt) {
            long d = v_err(V, DIAG_FIXPIPE_EPILOGUE, op->loc, "the tpop_from_aic results of FIXPIPE pipe id %lld have "
                           "different tile types", (long long)pipe_id(op));
            v_note(V, d, pops.list[i]->loc, "this tpop_from_aic differs from the first");
            return;
        }
    if (!rt || rt->kind != TY_TILE_BUF) {
        v_err(V, DIAG_FIXPIPE_EPILOGUE, pops.hit->loc, "a FIXPIPE consumer pops a !pto.tile_buf");
        return;
    }
    char b[128];
    if (!consumer_elem_ok(e.quant, rt->elem)) {
        long d = v_err(V, DIAG_FIXPIPE_EPILOGUE, op->loc, "acc_push_epilogue quant %s cannot deliver the consumer's "
                       "%s", q_names[e.quant], v_tyname(rt, b, sizeof b));
        v_note(V, d, pops.hit->loc, "the consumer entry type");
        return;
    }
    if (!layout_ok(e.layout, rt)) {
        long d = v_err(V, DIAG_FIXPIPE_EPILOGUE, op->loc, "acc_push_epilogue layout %s needs a vec tile that is %s; the "
                       "consumer pops %s", l_names[e.layout], e.layout == 0 ? "row_major/none_box" : e.layout == 1 ?
                       "col_major/none_box" : "col_major/row_major (NZ)", v_tyname(rt, b, sizeof b));
        v_note(V, d, pops.hit->loc, "the consumer entry type");
        return;
    }
    bool stat = rt->dims[0] >= 0 && rt->dims[1] >= 0;
    uint64_t need = stat ? tile_bytes(rt) : 0;
    if (need) {
        int64_t mine = attr_i(op, "slot_size", 0), theirs = attr_i(pinit, "slot_size", 0);
        const Op *small = (uint64_t)mine < need ? op : (uint64_t)theirs < need ? pinit : NULL;
        if (small) {
            long d = v_err(V, DIAG_FIXPIPE_EPILOGUE, small == op ? v_attr_loc(op, "slot_size") : op->loc, "the %s's "
                           "slot_size %lld is smaller than the %llu bytes of the consumer entry the FIXPIPE delivers",
                           small == op ? "consumer" : "peer producer", (long long)(small == op ? mine : theirs),
                           (unsigned long long)need);
            if (small != op) v_note(V, d, pinit->loc, "peer producer init");
            return;
        }
    }
    Find push = find_in(V, pfunc, 2, pipe_id(pinit));
    for (unsigned i = 0; i < push.n && i < 64; i++) {
        Op *p = push.list[i];
        const Type *st = p->noperands && p->operands[0] ? p->operands[0]->type : NULL;
        if (!st || st->kind != TY_TILE_BUF) continue;
        if (!pair_ok(e.quant, st->elem, rt->elem)) {
            char c[128];
            long d = v_err(V, DIAG_FIXPIPE_EPILOGUE, op->loc, "acc_push_epilogue quant %s does not turn the producer's "
                           "%s into the consumer's %s", q_names[e.quant], v_tyname(st, c, sizeof c),
                           v_tyname(rt, b, sizeof b));
            v_note(V, d, p->loc, "the producer's tpush_to_aiv");
            return;
        }
    }
}

/* ---------------------------------------------------------------- data ops */

static bool odd_split(int64_t s) { return s == 3 || s == 4; }

/* split 0..4 (PTOAS verifySplitAttr); 1 when reported. */
static int bad_split(VCtx *V, SrcLoc sl, int64_t split)
{
    if (split >= 0 && split <= 4) return 0;
    v_err(V, DIAG_PIPE_USE, sl, "split is %lld; it must be 0 (none), 1/2 (even rows/columns) or 3/4 (odd rows/columns)",
          (long long)split);
    return 1;
}

/* An aiv_subblockid(%s) clause (PTOAS verifyAivSubblockIdOperand): a split vec-tile entry of the AIV side, entry type
   et (NULL: unknown); 1 when reported. */
static int bad_subblockid(VCtx *V, const Op *op, int64_t split, const Type *et)
{
    const Value *sub = v_grp(V, op, "sub", 0);
    if (!sub) return 0;
    const char *why = split == 0 ? "only when 'split' is 1, 2, 3 or 4"
                    : et && et->kind == TY_TENSOR_VIEW ? "not for !pto.tensor_view pipe entries"
                    : et && (et->kind != TY_TILE_BUF || et->space != AS_UB) ? "only on AIV-side vec tile entries" : NULL;
    if (!why) return 0;
    v_err(V, DIAG_PIPE_USE, op_use_loc(op, sub), "'%s' takes 'aiv_subblockid' %s", v_opname(op), why);
    return 1;
}

/* The init a data op names; reports and returns NULL when there is not exactly one. */
static Op *data_init(VCtx *V, const Op *op)
{
    Op *func = v_enclosing_func(op);
    if (!func) return NULL;
    Find f = find_in(V, func, 0, pipe_id(op));
    if (f.n == 1) return f.hit;
    v_err(V, DIAG_PIPE_USE, op->loc, "pipe id %lld names %s frontend initialize_pipe in this function", (long long)pipe_id(op),
          f.n ? "more than one" : "no");
    return NULL;
}

/* The entry value of a data op: the pushed/freed operand or the popped/allocated result. */
static const Value *entry_of(const Op *op)
{
    if (op->kind == OP_TPOP_FROM_AIC || op->kind == OP_TPOP_FROM_AIV || op->kind == OP_TALLOC_TO_AIV ||
        op->kind == OP_TALLOC_TO_AIC)
        return op->nresults ? op->results[0] : NULL;
    return op->noperands ? op->operands[0] : NULL;
}

static void check_data(VCtx *V, Op *op)
{
    bool c2v = op->kind == OP_TALLOC_TO_AIV || op->kind == OP_TPUSH_TO_AIV || op->kind == OP_TPOP_FROM_AIC ||
               op->kind == OP_TFREE_FROM_AIC;
    int side = op->kind == OP_TALLOC_TO_AIV || op->kind == OP_TPUSH_TO_AIV || op->kind == OP_TPOP_FROM_AIV ||
               op->kind == OP_TFREE_FROM_AIV ? SIDE_CUBE : SIDE_VECTOR;
    if (check_unpublished(V, op) || check_side(V, op, side)) return;
    int64_t id = pipe_id(op), split = attr_i(op, "split", 0);
    SrcLoc sl = v_attr_loc(op, "split");
    if (id < 0) {
        v_err(V, DIAG_PIPE_USE, v_attr_loc(op, "id"), "pipe 'id' %lld is negative", (long long)id);
        return;
    }
    if (bad_split(V, sl, split)) return;
    const Value *en = entry_of(op);
    if (bad_subblockid(V, op, split, en ? en->type : NULL)) return;
    Op *init = NULL;
    if (odd_split(split)) {
        if (!c2v) {
            v_err(V, DIAG_PIPE_USE, sl, "odd splits (3, 4) exist for C2V GM-backed tile pipes only");
            return;
        }
        if (!(init = data_init(V, op))) return;
        bool gm = v_grp(V, init, "gmt", 0) || (V->target != PTO_TARGET_A5 && v_grp(V, init, "gmb", 0));
        if (!(attr_i(init, "dir_mask", 0) == 1 && gm && v_grp(V, init, "c2v", 0))) {
            long d = v_err(V, DIAG_PIPE_USE, sl, "odd splits (3, 4) need a C2V-only pipe (dir_mask = 1) with GM slots "
                           "and a 'c2v_consumer_buf'");
            v_note(V, d, init->loc, "the pipe's init");
            return;
        }
    }
    if (!init && !(init = data_init(V, op))) return;
    int64_t dm = attr_i(init, "dir_mask", 0);
    if (c2v ? !(dm == 1 || dm == 3) : !(dm == 2 || dm == 3)) {
        long d = v_err(V, DIAG_PIPE_USE, op->loc, "'%s' moves %s entries, but pipe id %lld has dir_mask = %lld",
                       v_opname(op), c2v ? "C2V" : "V2C", (long long)id, (long long)dm);
        v_note(V, d, init->loc, "the pipe's init");
        return;
    }
    Epi e;
    int he = get_epi(init, &e);
    /* a FIXPIPE pipe writes whole entries: split = 0 (talloc and tfree check it before their entry, push and pop
       after, as the compiler does) */
    bool fx_split = he && split != 0 && op->kind != OP_TALLOC_TO_AIC && op->kind != OP_TPUSH_TO_AIC &&
                    op->kind != OP_TPOP_FROM_AIV;
    bool early = op->kind == OP_TALLOC_TO_AIV || op->kind == OP_TFREE_FROM_AIC || op->kind == OP_TFREE_FROM_AIV;
    if (fx_split && early) goto fixpipe_split;
    const Value *ev = entry_of(op);
    const Type *et = ev ? ev->type : NULL;
    bool view = et && ty_is_view(et);
    if (view) {
        const Value *g = v_grp(V, init, "gmt", 0);
        const Type *gt = g ? g->type : NULL;
        const char *why = NULL;
        if (!gt || gt->kind != TY_TENSOR_VIEW) why = "its init gives no 'gm_slot_tensor'";
        else if (gt->elem != et->elem) why = "its element type differs from the gm_slot_tensor's";
        else if (gt->rank != et->rank) why = "its rank differs from the gm_slot_tensor's";
        else
            for (unsigned i = 0; i < et->rank && !why; i++)
                if (gt->dims[i] >= 0 && et->dims[i] >= 0 && gt->dims[i] != et->dims[i])
                    why = "a dimension differs from the gm_slot_tensor's";
        if (why) {
            long d = v_err(V, DIAG_PIPE_USE, op->loc, "a tensor-view pipe entry must match the pipe's gm_slot_tensor: "
                           "%s", why);
            v_note(V, d, init->loc, "the pipe's init");
            return;
        }
        if (odd_split(split)) {
            v_err(V, DIAG_PIPE_USE, sl, "odd splits (3, 4) take tile entries, not tensor views");
            return;
        }
    }
    if (op->kind == OP_TPUSH_TO_AIV && split && et && (et->kind == TY_TILE_BUF || view)) {
        int64_t ax = et->kind == TY_TILE_BUF ? ((split == 1 || split == 3) ? et->dims[2] : et->dims[3])
                                             : (et->rank == 2 ? et->dims[(split == 1 || split == 3) ? 0 : 1] : -1);
        if (ax >= 0 && (ax % 2 != 0) != odd_split(split)) {
            v_err(V, DIAG_PIPE_USE, sl, "split = %lld splits the valid %s (%lld) into %s halves: it needs an %s count",
                  (long long)split, (split == 1 || split == 3) ? "rows" : "columns", (long long)ax,
                  odd_split(split) ? "unequal" : "equal", odd_split(split) ? "odd" : "even");
            return;
        }
    }
    if (op->kind == OP_TPOP_FROM_AIC || op->kind == OP_TPOP_FROM_AIV) {
        unsigned nvalid = 0;
        for (uint32_t i = 0; i < op->noperands; i++)
            if (op->operands[i] && op->operands[i]->type->kind == TY_INDEX) nvalid++;
        if (odd_split(split) && nvalid < 2 && !view) {
            v_err(V, DIAG_PIPE_USE, op->loc, "an odd-split tpop takes each sub-core's valid_row and valid_col operands");
            return;
        }
        const Type *rt = op->nresults ? op->results[0]->type : NULL;
        if (nvalid && rt && rt->kind == TY_TILE_BUF && (rt->dims[2] >= 0 || rt->dims[3] >= 0)) {
            /* PTOAS TPopFromAicOp: run-time valid operands fill a dynamic valid shape */
            v_err(V, DIAG_TILE_SHAPE, op->loc, "'%s' with valid_row/valid_col operands yields a tile whose valid shape "
                  "is dynamic (valid=?x?)", v_opname(op));
            return;
        }
    }
    if (!he) return;
    /* a FIXPIPE pipe */
    if (fx_split) {
    fixpipe_split:;
        long d = v_err(V, DIAG_FIXPIPE_EPILOGUE, sl, "'%s' of a pipe with acc_push_epilogue takes split = 0 (the FIXPIPE "
                       "writes whole entries)", v_opname(op));
        v_note(V, d, init->loc, "the pipe's init");
        return;
    }
    if (op->kind == OP_TPUSH_TO_AIV && init->kind == OP_AIC_INITIALIZE_PIPE && !e.bad[0]) {
        char b[128];
        if (!et || et->kind != TY_TILE_BUF || et->space != AS_L0C) {
            v_err(V, DIAG_FIXPIPE_EPILOGUE, op->loc, "a FIXPIPE pipe pushes a loc=acc tile, not %s",
                  et ? v_tyname(et, b, sizeof b) : "this");
            return;
        }
        if (!producer_elem_ok(e.quant, et->elem)) {
            long d = v_err(V, DIAG_FIXPIPE_EPILOGUE, op->loc, "acc_push_epilogue quant %s does not take a %s acc tile",
                           q_names[e.quant], v_tyname(et->elem, b, sizeof b));
            v_note(V, d, init->loc, "the pipe's init");
            return;
        }
        if (q_scalar(e.quant) || q_vector(e.quant)) {
            const char *want = q_scalar(e.quant) ? "pto.set_quant_scalar" : "pto.set_quant_vector";
            bool found = false;
            for (const Op *p = op->parent ? op->parent->first : NULL; p && p != op; p = p->next)
                if (!strcmp(op_info[p->kind].name, want) && pipe_id(p) == id) found = true;
            if (!found) {
                long d = v_err(V, DIAG_FIXPIPE_QUANT, op->loc, "acc_push_epilogue quant %s reads its %s state: a %s with "
                               "id = %lld must come before this push in the same block", q_names[e.quant],
                               q_scalar(e.quant) ? "scalar" : "vector", want, (long long)id);
                v_note(V, d, init->loc, "the pipe's init");
            }
        }
    }
}

static void check_set_quant(VCtx *V, Op *op)
{
    bool vec = op->kind == OP_SET_QUANT_VECTOR;
    if (check_unpublished(V, op)) return;
    Op *func = v_enclosing_func(op);
    if (!func) return;
    int64_t id = pipe_id(op);
    Find f = find_in(V, func, 0, id);
    if (f.n != 1) {
        v_err(V, DIAG_FIXPIPE_QUANT, op->loc, "pipe id %lld names %s frontend initialize_pipe in this function",
              (long long)id, f.n ? "more than one" : "no");
        return;
    }
    Epi e;
    long d = -1;
    if (f.hit->kind != OP_AIC_INITIALIZE_PIPE)
        d = v_err(V, DIAG_FIXPIPE_QUANT, op->loc, "pipe id %lld is initialised by aiv_initialize_pipe; the quant scale "
                  "is set on the producer (aic) side", (long long)id);
    else if (!get_epi(f.hit, &e))
        d = v_err(V, DIAG_FIXPIPE_QUANT, op->loc, "pipe id %lld has no acc_push_epilogue: there is no FIXPIPE quant "
                  "to set", (long long)id);
    else if (e.quant >= 0 && (vec ? !q_vector(e.quant) : !q_scalar(e.quant)))
        d = v_err(V, DIAG_FIXPIPE_QUANT, op->loc, "pipe id %lld quantises with %s, not a %s mode",
                  (long long)id, q_names[e.quant], vec ? "vector" : "scalar");
    if (d != -1) {
        v_note(V, d, f.hit->loc, "the pipe's init");
        return;
    }
    const Value *s = op->noperands ? op->operands[0] : NULL;
    char b[64];
    if (vec) {
        /* the scaling tile: loc=scaling; a5 f16 / bf16 / f32, a2a3 a packed 64-bit integer (PTOAS
           SetQuantVectorOp::verify, isFixpipeQuantPayloadElemType) */
        const Type *t = s ? s->type : NULL;
        if (!t || t->kind != TY_TILE_BUF) return;
        if (t->space != AS_FB) {
            v_err(V, DIAG_TILE_LOC, op_use_loc(op, s), "the quant vector is a loc=scaling tile, not %s",
                  v_tyname(t, b, sizeof b));
            return;
        }
        const Type *el = t->elem;
        bool ok = V->target == PTO_TARGET_A5 ? (t_fk(el, FK_F16) || t_fk(el, FK_BF16) || t_fk(el, FK_F32))
                                             : (el && el->kind == TY_INT && el->bits == 64);
        if (!ok)
            v_err(V, DIAG_V_OPERAND_TYPE, op_use_loc(op, s), "the quant vector's elements are %s on the %s target "
                  "profile, not %s", V->target == PTO_TARGET_A5 ? "f16, bf16 or f32" : "a packed i64 / ui64",
                  V->target == PTO_TARGET_A5 ? "a5" : "a2a3", v_tyname(el, b, sizeof b));
        return;
    }
    if (s && !t_fk(s->type, FK_F32))
        v_err(V, DIAG_V_OPERAND_TYPE, op_use_loc(op, s), "the quant scale is f32, not %s", v_tyname(s->type, b, sizeof b));
}

/* ---------------------------------------------------------------- the compiler-internal forms */

static bool is_internal_init(const Op *o) { return o->kind == OP_INITIALIZE_L2L_PIPE || o->kind == OP_INITIALIZE_L2G2L_PIPE; }

/* A consumer buffer that names its peer: the value comes from pto.reserve_buffer or pto.import_reserved_buffer. */
static bool peer_buffer(const Value *v)
{
    return buf_def(v, OP_RESERVE_BUFFER) || buf_def(v, OP_IMPORT_RESERVED_BUFFER);
}

/* PTOAS InitializeL2G2LPipeOp / InitializeL2LPipeOp::verify (verifyPipeShape), and the address rule of
   PTOResolveReservedBuffersPass (collectPeerAwareInit): a pipe with local slots and no explicit flag_base is paired
   through its buffer, so that buffer comes from pto.reserve_buffer or pto.import_reserved_buffer. */
static void check_internal_init(VCtx *V, Op *op)
{
    int64_t dm = attr_i(op, "dir_mask", 0), ss = attr_i(op, "slot_size", 0), sn = attr_i(op, "slot_num", 0);
    if (dm < 1 || dm > 3) {
        v_err(V, DIAG_PIPE_INIT, v_attr_loc(op, "dir_mask"), "dir_mask is %lld; it must be 1 (C2V), 2 (V2C) or 3 (both)",
              (long long)dm);
        return;
    }
    if (ss <= 0 || sn <= 0) {
        v_err(V, DIAG_PIPE_INIT, v_attr_loc(op, ss <= 0 ? "slot_size" : "slot_num"), "%s must be greater than 0",
              ss <= 0 ? "slot_size" : "slot_num");
        return;
    }
    if (op_attr(op, "flag_base")) {
        int64_t fb = attr_i(op, "flag_base", 0), w = dm == 3 ? 4 : 2;
        if (fb < 0 || fb + w > 16) {
            v_err(V, DIAG_PIPE_INIT, v_attr_loc(op, "flag_base"), "flag_base %lld: a pipe of dir_mask %lld uses %lld flag "
                  "ids from its base, which must lie within the 16 hardware flag ids", (long long)fb, (long long)dm,
                  (long long)w);
            return;
        }
    }
    const Value *local = v_grp(V, op, "local", 0), *peer = v_grp(V, op, "peer", 0);
    if (op->kind == OP_INITIALIZE_L2G2L_PIPE && !local) {   /* GM slots only (a GlobalTensor pipe) */
        if (op_attr(op, "local_slot_num"))
            v_err(V, DIAG_PIPE_INIT, v_attr_loc(op, "local_slot_num"), "'local_slot_num' needs a local consumer buffer "
                  "('local_addr')");
        return;
    }
    if (op_attr(op, "local_slot_num")) {
        int64_t l = attr_i(op, "local_slot_num", 0);
        if (l <= 0 || l > sn) {
            v_err(V, DIAG_PIPE_INIT, v_attr_loc(op, "local_slot_num"), "local_slot_num %lld must be in 1..slot_num (%lld)",
                  (long long)l, (long long)sn);
            return;
        }
    }
    if ((dm == 3) != (peer != NULL)) {
        v_err(V, DIAG_PIPE_INIT, peer ? op_use_loc(op, peer) : op->loc, dm == 3 ? "dir_mask 3 needs 'peer_local_addr', the "
              "V2C consumer buffer" : "'peer_local_addr' belongs to a pipe of dir_mask 3");
        return;
    }
    if (!op_attr(op, "flag_base") && !peer_buffer(local) && !(peer && peer_buffer(peer)))
        v_err(V, DIAG_PIPE_INIT, op_use_loc(op, local), "without an explicit 'flag_base' the local consumer buffer must come "
              "from pto.reserve_buffer or pto.import_reserved_buffer, which pair this init with its peer's");
}

/* The pipe handle operand of an internal data op (and its entry, NULL for pto.tfree(%pipe : !pto.pipe)). */
static const Value *internal_pipe(VCtx *V, const Op *op, const Value **entry)
{
    const Value *e = v_grp(V, op, "entry", 0), *p = v_grp(V, op, "pipe", 0);
    if (op->kind == OP_TFREE && !p) {   /* the one operand is the handle */
        p = e;
        e = NULL;
    }
    if (entry) *entry = e;
    return p;
}

/* PTOAS TPushOp / TPopOp / TFreeOp / TAllocOp::verify: inside a section or a kernel_kind function; a pipe handle from
   an internal init; split 0..4; the odd splits only for a C2V-only initialize_l2g2l_pipe with local slots and a tile
   entry; a producer's split entry of the matching row / column parity; aiv_subblockid as for the frontend ops; a
   tensor-view entry only through a GM-only initialize_l2g2l_pipe whose gm_addr has its element type and shape; a
   pushed tile in acc or vec, a popped one in vec or mat. */
static void check_internal_data(VCtx *V, Op *op)
{
    if (!in_side(op, SIDE_CUBE) && !in_side(op, SIDE_VECTOR)) {
        v_err(V, DIAG_PIPE_CONTEXT, op->loc, "'%s' must be inside a pto.section.cube / pto.section.vector or a function "
              "with a pto.kernel_kind", v_opname(op));
        return;
    }
    const Value *entry, *pv = internal_pipe(V, op, &entry);
    if (!pv || pv->type->kind != TY_HANDLE || pv->type->gran != HK_PIPE) {
        v_err(V, DIAG_V_OPERAND_TYPE, pv ? op_use_loc(op, pv) : op->loc, "'%s' takes a !pto.pipe handle", v_opname(op));
        return;
    }
    Op *init = pv->def && is_internal_init(pv->def) ? pv->def : NULL;
    if (!init) {
        v_err(V, DIAG_PIPE_USE, op_use_loc(op, pv), "the pipe handle of '%s' must come from pto.initialize_l2l_pipe or "
              "pto.initialize_l2g2l_pipe", v_opname(op));
        return;
    }
    int64_t split = attr_i(op, "split", 0);
    SrcLoc sl = v_attr_loc(op, "split");
    if (bad_split(V, sl, split)) return;
    const Type *et = entry ? entry->type : NULL;
    bool view = et && et->kind == TY_TENSOR_VIEW, producer = op->kind == OP_TPUSH || op->kind == OP_TALLOC;
    if (odd_split(split)) {
        bool c2v_side = in_side(op, producer ? SIDE_CUBE : SIDE_VECTOR);
        if (!c2v_side || init->kind != OP_INITIALIZE_L2G2L_PIPE || attr_i(init, "dir_mask", 0) != 1 ||
            !v_grp(V, init, "local", 0)) {
            long d = v_err(V, DIAG_PIPE_USE, sl, "odd splits (3, 4) exist only on the C2V side of a C2V-only (dir_mask = 1) "
                           "pto.initialize_l2g2l_pipe with a local consumer buffer");
            v_note(V, d, init->loc, "the pipe's init");
            return;
        }
        if (view) {
            v_err(V, DIAG_PIPE_USE, sl, "odd splits (3, 4) take tile entries, not !pto.tensor_view ones");
            return;
        }
    }
    if (op->kind == OP_TPUSH && split != 0 && et && (et->kind == TY_TILE_BUF || view)) {   /* verifyC2VProducerSplitParity */
        int rows = split == 1 || split == 3;
        int64_t n = et->kind == TY_TILE_BUF ? et->dims[rows ? 2 : 3] : (et->rank == 2 ? et->dims[rows ? 0 : 1] : -1);
        if (n >= 0 && (n % 2 != 0) != odd_split(split)) {
            v_err(V, DIAG_PIPE_USE, sl, "split = %lld halves an %s number of valid %s; this entry has %lld",
                  (long long)split, odd_split(split) ? "odd" : "even", rows ? "rows" : "columns", (long long)n);
            return;
        }
    }
    if (bad_subblockid(V, op, split, et)) return;
    if (view) {   /* verifyTensorEntryMatchesInternalPipeInit */
        const Value *gm = v_grp(V, init, "gm", 0);
        const Type *gt = gm ? gm->type : NULL;
        const char *why = init->kind != OP_INITIALIZE_L2G2L_PIPE ? "a pipe from pto.initialize_l2g2l_pipe"
                        : v_grp(V, init, "local", 0) ? "a GM-only pto.initialize_l2g2l_pipe (no local_addr)"
                        : !gt || gt->kind != TY_TENSOR_VIEW ? "an initialize_l2g2l_pipe whose gm_addr is a !pto.tensor_view"
                        : NULL;
        if (why) {
            long d = v_err(V, DIAG_PIPE_USE, op_use_loc(op, entry), "a !pto.tensor_view pipe entry needs %s", why);
            v_note(V, d, init->loc, "the pipe's init");
            return;
        }
        if (gt->elem != et->elem || gt->rank != et->rank) {
            long d = v_err(V, DIAG_PIPE_USE, op_use_loc(op, entry), "the pipe entry's %s differs from the "
                           "initialize_l2g2l_pipe gm_addr's", gt->elem != et->elem ? "element type" : "rank");
            v_note(V, d, init->loc, "the pipe's init");
            return;
        }
        for (unsigned i = 0; i < et->rank; i++)
            if (et->dims[i] >= 0 && gt->dims[i] >= 0 && et->dims[i] != gt->dims[i]) {
                long d = v_err(V, DIAG_PIPE_USE, op_use_loc(op, entry), "the pipe entry's dimension %u is %lld, the "
                               "initialize_l2g2l_pipe gm_addr's %lld", i, (long long)et->dims[i], (long long)gt->dims[i]);
                v_note(V, d, init->loc, "the pipe's init");
                return;
            }
        return;
    }
    if (et && et->kind == TY_TILE_BUF && (op->kind == OP_TPUSH || op->kind == OP_TPOP)) {
        bool ok = op->kind == OP_TPUSH ? et->space == AS_L0C || et->space == AS_UB : et->space == AS_UB || et->space == AS_L1;
        if (!ok)
            v_err(V, DIAG_TILE_LOC, op_use_loc(op, entry), "'%s' %s", v_opname(op), op->kind == OP_TPUSH
                  ? "pushes a tile in loc=acc or loc=vec" : "pops into a tile in loc=vec or loc=mat");
    }
}

void verify_pipe(VCtx *V, Op *op)
{
    switch (op->kind) {
    case OP_INITIALIZE_L2L_PIPE: case OP_INITIALIZE_L2G2L_PIPE: check_internal_init(V, op); break;
    case OP_TPUSH: case OP_TPOP: case OP_TFREE: case OP_TALLOC: check_internal_data(V, op); break;
    case OP_AIC_INITIALIZE_PIPE: check_aic_init(V, op); break;
    case OP_AIV_INITIALIZE_PIPE: check_aiv_init(V, op); break;
    case OP_TALLOC_TO_AIV: case OP_TALLOC_TO_AIC: case OP_TPUSH_TO_AIV: case OP_TPUSH_TO_AIC:
    case OP_TPOP_FROM_AIC: case OP_TPOP_FROM_AIV: case OP_TFREE_FROM_AIC: case OP_TFREE_FROM_AIV:
        check_data(V, op);
        break;
    case OP_SET_QUANT_SCALAR: case OP_SET_QUANT_VECTOR: check_set_quant(V, op); break;
    default: break;
    }
}

/* ---------------------------------------------------------------- peer pairs (module-wide) */

/* The compiler lowers each frontend init to one pipe init and pairs the inits of the two sides by the buffer they
   share: a consumer buffer from pto.reserve_buffer is keyed (this function, its name), one from
   pto.import_reserved_buffer (its peer_func, its name), per direction (dir_mask 3: c2v_consumer_buf is the C2V key,
   v2c_consumer_buf the V2C one). A GM-only pipe (gm_slot_tensor alone) is keyed by its id and dir_mask. Inits
   sharing a key form one logical pipe (PTOAS PTOResolveReservedBuffersPass, PTOInferValidatePipeInitPass). */
enum { MAX_PINIT = 256, MAX_PKEY = 512 };
typedef struct PInit {
    Op *op;
    int64_t dm, ss, sn, lsn;
    bool global_only, keyed;
    int usage;                 /* bit 0: a data op with split = 0; bit 1: one with split != 0 */
    int expl;                  /* nosplit written: 0/1; -1 not written */
    int parent;                /* union-find */
    bool internal;             /* pto.initialize_l2l_pipe / initialize_l2g2l_pipe */
    int64_t fb;                /* an internal init's explicit flag_base, else -1 */
} PInit;
typedef struct PKey {
    const char *owner, *name;
    int64_t dir, gid;          /* gid >= 0: a GM-only key (owner, name NULL) */
    int init;
} PKey;
typedef struct PairCtx {
    VCtx *V;
    PInit in[MAX_PINIT];
    PKey keys[MAX_PKEY];
    int nin, nkeys;
    bool overflow;
    bool ok[MAX_PINIT];        /* a component root whose pairing checks passed */
} PairCtx;

static int uf_find(PairCtx *c, int i)
{
    while (c->in[i].parent != i) i = c->in[i].parent = c->in[c->in[i].parent].parent;
    return i;
}

static const char *func_name(const Op *f)
{
    const Attr *a = f ? op_attr(f, "sym_name") : NULL;
    return a && a->s ? (a->s[0] == '@' ? a->s + 1 : a->s) : NULL;
}

static bool add_key(PairCtx *c, const Value *buf, int64_t dir, int init)
{
    const Op *d = buf ? buf->def : NULL;
    const char *owner = NULL, *name = d ? attr_s(d, "name") : NULL;
    if (d && d->kind == OP_RESERVE_BUFFER) owner = func_name(v_enclosing_func(d));
    else if (d && d->kind == OP_IMPORT_RESERVED_BUFFER) owner = attr_s(d, "peer_func");
    if (!owner || !name) return false;
    if (c->nkeys == MAX_PKEY) { c->overflow = true; return false; }
    c->keys[c->nkeys++] = (PKey){owner, name, dir, -1, init};
    return true;
}

/* Records an init of either form: its shape, and the keys that link it to its peer. A frontend init is keyed by
   its consumer buffers (c2v, v2c), a GM-only one by its id and dir_mask; an internal one by its local buffer (and
   peer buffer for dir_mask 3), a GM-only initialize_l2g2l_pipe by itself (never paired). */
static int collect_visit(Op *o, void *ud)
{
    PairCtx *c = ud;
    bool internal = is_internal_init(o);
    if (!internal && !is_init(o)) return 0;
    if (c->nin == MAX_PINIT) { c->overflow = true; return 1; }
    VCtx *V = c->V;
    int i = c->nin++;
    PInit *p = &c->in[i];
    memset(p, 0, sizeof *p);
    p->op = o;
    p->parent = i;
    p->internal = internal;
    p->dm = attr_i(o, "dir_mask", 0);
    p->ss = attr_i(o, "slot_size", 0);
    p->sn = op_attr(o, "slot_num") || internal ? attr_i(o, "slot_num", 0) : (p->dm == 3 ? 4 : 8);
    p->lsn = attr_i(o, "local_slot_num", -1);
    p->expl = op_attr(o, "nosplit") ? (int)(attr_i(o, "nosplit", 0) != 0) : -1;
    p->fb = internal && op_attr(o, "flag_base") ? attr_i(o, "flag_base", 0) : -1;
    Value *c2v = v_grp(V, o, internal ? "local" : "c2v", 0), *v2c = v_grp(V, o, internal ? "peer" : "v2c", 0);
    p->global_only = internal ? o->kind == OP_INITIALIZE_L2G2L_PIPE && !c2v : v_grp(V, o, "gmt", 0) && !c2v && !v2c;
    if (p->global_only) {
        if (c->nkeys == MAX_PKEY) { c->overflow = true; return 1; }
        c->keys[c->nkeys++] = (PKey){NULL, NULL, p->dm, internal ? ((int64_t)1 << 40) + i : pipe_id(o), i};
        p->keyed = true;
    } else if (p->dm == 3) {
        bool a = add_key(c, c2v, 1, i);
        bool b = add_key(c, v2c, 2, i);
        p->keyed = a || b;
    } else if (p->dm == 1 || p->dm == 2) {
        /* an internal init's one buffer is its local one, whatever the direction */
        p->keyed = add_key(c, internal || p->dm == 1 ? c2v : v2c, p->dm, i);
    }
    return 0;
}

typedef struct UseCtx {
    PairCtx *c;
    const Op *func;
} UseCtx;

static int usage_visit(Op *o, void *ud)
{
    UseCtx *u = ud;
    if (o->kind == OP_TPUSH || o->kind == OP_TPOP || o->kind == OP_TFREE || o->kind == OP_TALLOC) {
        const Value *pv = internal_pipe(u->c->V, o, NULL);
        for (int i = 0; pv && i < u->c->nin; i++)
            if (u->c->in[i].op == pv->def) u->c->in[i].usage |= attr_i(o, "split", 0) == 0 ? 1 : 2;
        return 0;
    }
    switch (o->kind) {
    case OP_TALLOC_TO_AIV: case OP_TALLOC_TO_AIC: case OP_TPUSH_TO_AIV: case OP_TPUSH_TO_AIC:
    case OP_TPOP_FROM_AIC: case OP_TPOP_FROM_AIV: case OP_TFREE_FROM_AIC: case OP_TFREE_FROM_AIV:
        break;
    default:
        return 0;
    }
    int64_t id = pipe_id(o);
    PairCtx *c = u->c;
    for (int i = 0; i < c->nin; i++)
        if (v_enclosing_func(c->in[i].op) == u->func && pipe_id(c->in[i].op) == id)
            c->in[i].usage |= attr_i(o, "split", 0) == 0 ? 1 : 2;
    return 0;
}

static bool same_key(const PKey *a, const PKey *b)
{
    if (a->dir != b->dir) return false;
    if (a->gid >= 0 || b->gid >= 0) return a->gid == b->gid && !a->owner && !b->owner;
    return !strcmp(a->owner, b->owner) && !strcmp(a->name, b->name);
}

/* The hardware flag ids of the pipes (PTOAS PTOResolveReservedBuffersPass, chooseFlagBaseForComponent): each logical
   pipe (a component of paired inits) takes 2 flag ids (dir_mask 1 or 2) or 4 (dir_mask 3) from an even base, the
   same in every function it spans, and a function's pipes must not overlap within the 16 flag ids. Pipes are placed
   in order: those lowered from frontend inits by their smallest id, then dir_mask; the internal ones after them, as
   the compiler collects them (initialize_l2l_pipe first, then initialize_l2g2l_pipe, each in program order). An
   explicit flag_base (internal inits) is taken as written; otherwise the lowest even base that is free in every
   function of the pipe. The first pipe that does not fit is reported at its first init. */
typedef struct FlagUse { const Op *func; int64_t lo, hi; } FlagUse;

static int64_t init_order(const PairCtx *c, int i)
{
    return c->in[i].internal ? (c->in[i].op->kind == OP_INITIALIZE_L2G2L_PIPE ? (int64_t)1 << 20 : 0) + i : i;
}

static bool key_lt(const int64_t *a, const int64_t *b)
{
    for (int f = 0; f < 4; f++)
        if (a[f] != b[f]) return a[f] < b[f];
    return false;
}

static void assign_flags(PairCtx *c)
{
    VCtx *V = c->V;
    int comp[MAX_PINIT], nc = 0;
    for (int r = 0; r < c->nin; r++)
        if (uf_find(c, r) == r && c->ok[r]) comp[nc++] = r;
    /* each component's sort key: (internal, smallest frontend id, dir_mask, creation order of its first init) */
    int64_t key[MAX_PINIT][4];
    int first[MAX_PINIT];
    for (int k = 0; k < nc; k++) {
        int64_t fid = -1, ord = -1;
        first[k] = comp[k];
        for (int i = 0; i < c->nin; i++) {
            if (uf_find(c, i) != comp[k]) continue;
            if (!c->in[i].internal && (fid < 0 || pipe_id(c->in[i].op) < fid)) fid = pipe_id(c->in[i].op);
            if (ord < 0 || init_order(c, i) < ord) { ord = init_order(c, i); first[k] = i; }
        }
        key[k][0] = fid < 0;
        key[k][1] = fid < 0 ? 0 : fid;
        key[k][2] = fid < 0 ? 0 : c->in[comp[k]].dm;
        key[k][3] = ord;
    }
    int idx[MAX_PINIT];
    for (int k = 0; k < nc; k++) idx[k] = k;
    for (int a = 1; a < nc; a++)   /* stable insertion sort by key */
        for (int b = a; b > 0 && key_lt(key[idx[b]], key[idx[b - 1]]); b--) {
            int x = idx[b];
            idx[b] = idx[b - 1];
            idx[b - 1] = x;
        }
    FlagUse *use = mem_calloc(2 * MAX_PINIT, sizeof *use);
    if (!use) { diag_oom(V->d, 0); return; }
    int nuse = 0;
    for (int t = 0; t < nc; t++) {
        int k = idx[t], r = comp[k];
        const Op *fop = c->in[first[k]].op;
        int64_t w = c->in[r].dm == 3 ? 4 : 2, fb = -1;
        const Op *funcs[MAX_PINIT];
        int nf = 0;
        bool bad = false;
        for (int i = 0; i < c->nin && !bad; i++) {
            if (uf_find(c, i) != r) continue;
            const Op *f = v_enclosing_func(c->in[i].op);
            bool seen = false;
            for (int j = 0; j < nf; j++) seen |= funcs[j] == f;
            if (!seen) funcs[nf++] = f;
            if (c->in[i].fb >= 0) {
                if (fb >= 0 && fb != c->in[i].fb) {
                    v_err(V, DIAG_PIPE_INIT, v_attr_loc(c->in[i].op, "flag_base"), "the inits of one pipe write "
                          "different flag_base values (%lld and %lld)", (long long)fb, (long long)c->in[i].fb);
                    bad = true;
                }
                fb = c->in[i].fb;
            }
        }
        if (bad) break;
        bool expl = fb >= 0;
        if (!expl) {   /* the lowest free even base */
            fb = 0;
            for (bool moved = true; moved;) {
                moved = false;
                for (int u = 0; u < nuse; u++) {
                    bool mine = false;
                    for (int j = 0; j < nf; j++) mine |= use[u].func == funcs[j];
                    if (mine && fb < use[u].hi && use[u].lo < fb + w) {
                        fb = (use[u].hi + 1) / 2 * 2;
                        moved = true;
                    }
                }
            }
        }
        if (fb + w > 16) {
            v_err(V, DIAG_PIPE_INIT, fop->loc, "the pipes of a function must fit within the 16 hardware flag ids; this "
                  "one needs ids %lld..%lld (%lld per pipe of dir_mask %lld, from an even base)", (long long)fb,
                  (long long)(fb + w - 1), (long long)w, (long long)c->in[r].dm);
            break;
        }
        for (int u = 0; u < nuse && !bad; u++) {
            bool mine = false;
            for (int j = 0; j < nf; j++) mine |= use[u].func == funcs[j];
            if (mine && fb < use[u].hi && use[u].lo < fb + w) {
                v_err(V, DIAG_PIPE_INIT, fop->loc, "flag_base %lld overlaps the flag ids %lld..%lld of another pipe "
                      "in the same function", (long long)fb, (long long)use[u].lo, (long long)(use[u].hi - 1));
                bad = true;
            }
        }
        if (bad) break;
        for (int j = 0; j < nf && nuse < 2 * MAX_PINIT; j++) use[nuse++] = (FlagUse){funcs[j], fb, fb + w};
    }
    mem_free(use);
}

void verify_pipe_pairs(VCtx *V, Op *root)
{
    PairCtx *c = mem_calloc(1, sizeof *c);
    if (!c) { diag_oom(V->d, 0); return; }   /* E-OOM: the pairing rules could not run */
    c->V = V;
    v_walk(V, root, collect_visit, c);
    if (c->overflow || c->nin < 1) goto done;
    /* the data ops of each init's pipe, per function */
    for (int i = 0; i < c->nin; i++) {
        Op *f = v_enclosing_func(c->in[i].op);
        bool seen = false;
        for (int j = 0; j < i && !seen; j++) seen = v_enclosing_func(c->in[j].op) == f;
        if (f && !seen) {
            UseCtx u = {c, f};
            v_walk(V, f, usage_visit, &u);
        }
    }
    for (int a = 0; a < c->nkeys; a++)
        for (int b = a + 1; b < c->nkeys; b++)
            if (c->keys[a].init != c->keys[b].init && same_key(&c->keys[a], &c->keys[b])) {
                int ra = uf_find(c, c->keys[a].init), rb = uf_find(c, c->keys[b].init);
                if (ra != rb) c->in[rb > ra ? rb : ra].parent = rb > ra ? ra : rb;
            }
    for (int r = 0; r < c->nin; r++) {
        if (uf_find(c, r) != r) continue;
        int members[MAX_PINIT], n = 0;
        for (int i = 0; i < c->nin; i++)
            if (uf_find(c, i) == r) members[n++] = i;
        PInit *root_in = &c->in[r];
        /* split usage: a pipe is split or not, on both sides */
        int mixed = -1, expl = -1, inferred = -1, clash = 0;
        for (int k = 0; k < n; k++) {
            PInit *p = &c->in[members[k]];
            if (p->usage == 3 && mixed < 0) mixed = members[k];
            if (p->expl >= 0) {
                if (expl >= 0 && expl != p->expl && !clash) clash = 1;
                expl = p->expl;
            }
        }
        if (mixed >= 0) {
            v_err(V, DIAG_PIPE_USE, c->in[mixed].op->loc, "the data ops of this pipe mix split = 0 with split = 1..4; "
                  "a pipe is split or not");
            continue;
        }
        if (clash) {
            v_err(V, DIAG_PIPE_INIT, root_in->op->loc, "the two sides of this pipe write different 'nosplit' values");
            continue;
        }
        int bad = -1;
        for (int k = 0; k < n; k++) {
            PInit *p = &c->in[members[k]];
            int u = p->usage == 1 ? 1 : p->usage == 2 ? 0 : -1;
            if (u < 0) continue;
            if (inferred >= 0 && inferred != u) { bad = members[k]; break; }
            inferred = u;
        }
        if (bad >= 0) {
            long d = v_err(V, DIAG_PIPE_USE, c->in[bad].op->loc, "one side of this pipe splits its entries and the other "
                           "does not");
            v_note(V, d, root_in->op->loc, "the pipe's first init");
            continue;
        }
        if (expl >= 0 && inferred >= 0 && expl != inferred) {
            int w = r;
            for (int k = 0; k < n; k++)
                if (c->in[members[k]].expl >= 0 && c->in[members[k]].expl != inferred) { w = members[k]; break; }
            v_err(V, DIAG_PIPE_INIT, v_attr_loc(c->in[w].op, "nosplit"), "nosplit = %s, but the pipe's data ops use "
                  "%s", expl ? "true" : "false", inferred ? "split = 0" : "split = 1..4");
            continue;
        }
        /* a local pipe is one init on each side */
        if (root_in->keyed && !root_in->global_only) {
            const Op *f0 = v_enclosing_func(c->in[members[0]].op), *f1 = NULL;
            for (int k = 1; k < n; k++)
                if (v_enclosing_func(c->in[members[k]].op) != f0) f1 = v_enclosing_func(c->in[members[k]].op);
            if (n != 2 || !f1) {
                v_err(V, DIAG_PIPE_INIT, root_in->op->loc, "a pipe whose consumer buffer comes from pto.reserve_buffer "
                      "or pto.import_reserved_buffer pairs exactly one init in each of two functions; this one is "
                      "linked to %d init(s) in %s", n, f1 ? "two functions" : "one function");
                continue;
            }
        }
        bool agree = true;
        for (int k = 1; k < n && agree; k++) {
            PInit *p = &c->in[members[k]], *q = &c->in[members[0]];
            if (p->dm != q->dm || p->ss != q->ss || p->sn != q->sn || p->lsn != q->lsn || p->global_only != q->global_only) {
                long d = v_err(V, DIAG_PIPE_INIT, q->op->loc, "the two inits of this pipe disagree on dir_mask, "
                               "slot_size, slot_num or local_slot_num");
                v_note(V, d, p->op->loc, "the peer init");
                agree = false;
            }
        }
        /* an init paired through no buffer (its flag_base written, or a frontend init whose buffer is a plain value)
           takes no part in the flag assignment, as in the compiler */
        c->ok[r] = agree && root_in->keyed;
    }
    assign_flags(c);
done:
    mem_free(c);
}
