/* op.h — the op table (ops.def) as C data, plus the compiled operand signatures that drive the
 * parser's binder, the printer, the structural verifier and the lowering's operand lookup. */
#ifndef PTOSIM_OP_H
#define PTOSIM_OP_H
#include <stdbool.h>
#include <stdint.h>
#include "base/arena.h"
#include "tokens.h"
#include "type.h"

typedef enum {
    FAM_STRUCT, FAM_SCF, FAM_ARITH, FAM_PTR, FAM_QUERY, FAM_SYNC, FAM_DMA, FAM_DMA_CFG, FAM_PRED_LS,
    FAM_PRED_GEN, FAM_MISC, FAM_VLS, FAM_VMAT, FAM_VUN, FAM_VBIN, FAM_VSCAL, FAM_VCVT, FAM_VRED,
    FAM_VCMP, FAM_VREARR, FAM_VSFU, FAM_MAD, FAM_CUBE_DMA, FAM_SPR, FAM_SIMT, FAM_VMI, FAM_TILE, FAM__COUNT
} OpFamily;

/* The op table's pipe column (pipes.def): PIPE_ID_ = the pipe's queue + 1; PIPE_NONE = structure, PIPE_DYN =
   given by the op's pipe token. */
enum { PIPE__COUNT = 0
#define PIPE(id, spell, queue) + 1
#include "pipes.def"
#undef PIPE
};
typedef enum {
    PIPE_NONE,
#define PIPE(id, spell, queue) PIPE_##id##_ = (queue) + 1,
#include "pipes.def"
#undef PIPE
    PIPE_DYN = PIPE__COUNT + 1
} OpPipe;
/* Name of the pipe with queue index q (pipes.def): "PIPE_MTE2"; "?" out of range. */
const char *pipe_name(unsigned q);
/* Queue index of a PIPE token naming a pipe of the machine, or -1 (PIPE_ALL, names no pipe runs, others). */
int pipe_of_token(int tok);

/* How the custom form is written; SYN_SIG = driven by the signature string. */
typedef enum {
    SYN_SIG, SYN_MODULE, SYN_FUNC, SYN_RETURN, SYN_CALL, SYN_SCF_FOR, SYN_SCF_IF, SYN_SCF_WHILE,
    SYN_SCF_YIELD, SYN_SCF_CONDITION, SYN_REGION, SYN_STRICT_VECSCOPE, SYN_ARITH_CONST, SYN_ARITH_BIN,
    SYN_ARITH_UN, SYN_ARITH_CMP, SYN_ARITH_CAST, SYN_ARITH_SELECT,
    SYN_SIMT,      /* pto.simt_launch @f<<<%x, %y, %z>>>(args) : (T...) -> (), pto.section.simt<<<X, Y, Z>>> {...} */
    SYN_LLVM,      /* llvm.alloca %n x T, llvm.getelementptr %p[%i] : (...) -> !llvm.ptr, T, llvm.extractelement */
    SYN_SUBVIEW,   /* pto.subview %src[%i, %j] sizes [R, C] (valid [%vr, %vc])? : T -> T */
    SYN_CF         /* cf.br ^bb(%a : T), cf.cond_br %c, ^t(...), ^f(...): turned into scf.if by the parser */
} OpSyntax;

enum {
    F_VEC      = 1u << 0,   /* must be inside a vector scope */
    F_OUTSIDE  = 1u << 1,   /* must not be inside a vector scope */
    F_PURE     = 1u << 2,
    F_TERM     = 1u << 3,   /* region terminator */
    F_NOCPU    = 1u << 4,   /* not on the cpu profile */
    F_NOA2A3   = 1u << 5,   /* not on a2a3 */
    F_NOA5     = 1u << 6,   /* not on a5 */
    F_LEGACY   = 1u << 7,   /* pre-v0.6 form (warning) */
    F_SPEC     = 1u << 8,   /* only in the spec / reference compiler, not the manual */
    F_COMMA    = 1u << 9,   /* clauses are comma-separated in the canonical form */
    F_NOSIM    = 1u << 10,  /* parsed and verified, not simulated (trap T-UNSUPPORTED) */
    F_ISOLATED = 1u << 11,  /* region may not capture outer values */
    F_REGIONS  = 1u << 12,  /* op owns regions */
    F_SCALARMEM= 1u << 13,  /* scalar-unit memory access */
    F_CONVERTS = 1u << 14,  /* a copy whose two sides may hold different element types (cube data paths) */
    F_SIMT     = 1u << 15,  /* only a SIMT workitem executes it: inside a pto.simt_entry function or pto.section.simt */
};
#define F_A5ONLY (F_NOCPU | F_NOA2A3)
#define F_A2A3ONLY (F_NOCPU | F_NOA5)

typedef enum {
#define OP(id, name, fam, pipe, syn, flags, sig) OP_##id,
#define ALIAS(name, id)
#include "ops.def"
#undef OP
#undef ALIAS
    OP__COUNT
} OpKind;

typedef struct OpInfo {
    const char *name;
    OpFamily fam;
    OpPipe pipe;
    OpSyntax syn;
    uint32_t flags;
    const char *sig;
} OpInfo;

extern const OpInfo op_info[OP__COUNT];
int op_lookup(const char *name, unsigned len);     /* OpKind or -1 */
/* The other operand form of `kind` (ops.def FORM rows: two rows with one spelling), or -1. */
int op_other_form(int kind);
/* The form of `kind` taken when the attribute dictionary holds `attr` (ops.def FORM_IF rows): the
   first such row of `kind` for which has_attr(attr, arg) is true, else -1. */
int op_attr_form(int kind, int (*has_attr)(const char *attr, void *arg), void *arg);
/* The micro op a VMI op stands for (ops_vmi.def VMI rows), or -1. */
int op_vmi_micro(int kind);
/* The element class an MLIR-named VMI op requires (ops_vmi.def VCLASS rows), or VC_NONE. */
typedef enum { VC_NONE, VC_FLT, VC_INT, VC_INT_U, VC_INT_S } VmiClass;
VmiClass op_vmi_class(int kind);

/* ---- element types of vector ops (ops.def TYPES rows) ---- */
typedef enum {
    TR_NONE,       /* no type relation */
    TR_SAME,       /* every vreg operand (except index vectors) and vreg result has one type */
    TR_SAME_OPS,   /* the vreg operands share one type; the result is a conversion */
    TR_RED,        /* vcadd: like TR_SAME, or a widening 8->16 / 16->32 integer sum */
    TR_CVT,        /* vcvt: a legal (source, destination) pair and part token */
    TR_TRC,        /* vtrc: same float type, rounding tokens */
    TR_PACK,       /* vpack: integer narrowing to half width */
    TR_UNPACK,     /* vsunpack/vzunpack: integer widening to double width */
    TR_EXPDIF,     /* vexpdif: f16|f32 inputs, f32 result, EVEN|ODD */
    TR_IDX,        /* vselr/vperm: data and result alike, integer index vector of the data width */
    TR_HALF_PART,  /* vmulscvt: a 2:1 narrowing placed by EVEN|ODD */
    TR_SHIFT,      /* vshl/vshr: result = data type, counts !pto.vreg<NxsiW> (or, deprecated, the data type) */
} TypeRel;
typedef enum { TS_SCALAR_NONE, TS_SCALAR_ELEM, TS_SCALAR_SHIFT } TypeScalarRule;

typedef struct OpTypes {
    uint8_t rel;               /* TypeRel */
    uint8_t scalar;            /* TypeScalarRule for the scalar operand ("s" or "alpha") */
    const char *mref;          /* vreg whose element width fixes the mask granularity; "b32" = fixed */
    uint32_t isa;              /* element kinds (1 << ElemKind) the ISA defines */
    uint32_t sim;              /* further kinds ptosim simulates: accepted with W-ELEM-TYPE */
    const char *of;            /* value whose kind isa/sim constrain (NULL: first vreg operand, else result) */
} OpTypes;
extern const OpTypes op_types[OP__COUNT];   /* all zero for ops without a TYPES row */

/* ---- per-op facts (ops.def UNIT, ALIGN_ROLE, GRAN, HINT, CVT rows) ---- */
typedef enum { OU_EXU, OU_LOAD, OU_STORE, OU_ISSUE } OpUnit;
extern const uint8_t op_unit[OP__COUNT];           /* OpUnit; OU_EXU without a UNIT row */
typedef enum { AL_NONE, AL_STORE_START, AL_LOAD_START, AL_STORE_STEP, AL_LOAD_STEP, AL_FLUSH, AL_PASS } AlignRole;
extern const uint8_t op_align_role[OP__COUNT];     /* AlignRole; AL_NONE without an ALIGN_ROLE row */
extern const uint8_t op_gran[OP__COUNT];           /* bytes per predicate lane the name fixes; 0 without a GRAN row */
typedef enum { HINT_ANY, HINT_A5, HINT_A2A3, HINT_CPU, HINT_LEGACY } OpHintWhen;
/* The op's one line of meaning (its DOC row, ops_doc.def), or NULL. */
const char *op_doc(int kind);
/* The replacement hint of op `kind` for E-TARGET-OP on a target (HINT_A5 ...; a HINT_ANY row serves every target)
   or for W-DEPRECATED (HINT_LEGACY); NULL if none. */
const char *op_hint(int kind, OpHintWhen when);
typedef enum { CVT_NONE, CVT_ISA, CVT_SIM } CvtStatus;
/* Whether converting op `kind` takes the element-kind pair (src, dst) (ElemKind values; CVT rows). */
CvtStatus op_cvt(int kind, int src, int dst);
/* The pair on one target: that target's CVT_ON rows when the op has any for it, else the CVT rows. */
CvtStatus op_cvt_on(int kind, int target, int src, int dst);
/* Whether op `kind` has CVT rows at all. */
bool op_has_cvt(int kind);

/* ---- documented field widths of constant operands (ops.def FIELD rows) ---- */
typedef struct OpField {
    OpKind op;
    const char *slot;          /* signature group */
    uint8_t bits, hw;          /* documented width (0: must be 0), hardware field width */
    const char *what;
} OpField;
extern const OpField op_fields[];
extern const unsigned op_nfields;

/* ---- compiled signatures ---- */
/* Signature type classes: tclass.def. */
typedef enum {
#define TCLASS(id, name, desc, match, implied) TC_##id,
#include "tclass.def"
#undef TCLASS
    TC__COUNT
} TypeClass;
/* Whether type t belongs to class tc (a NULL type belongs to every class). */
bool tc_match(TypeClass tc, const Type *t);
/* "an integer or index", ... for messages. */
const char *tc_desc(TypeClass tc);
/* The type a result of class tc has when none is written, or NULL. */
const Type *tc_implied(TypeClass tc, TypeTable *T);

typedef enum { SL_VALUE, SL_MEM, SL_TOKEN, SL_INT, SL_STR } SlotKind;   /* SL_STR: a string literal attribute */
enum { SIG_MAX_ALIAS = 3 };
typedef enum { TS_QUOTED, TS_ANGLE, TS_HASH, TS_BARE, TS_MLIR } TokStyle;   /* TS_MLIR: #pto<set value> */

typedef struct SigSlot {
    SlotKind kind;
    const char *name;          /* operand-group name, or attribute name */
    const char *key;           /* "key =" inside a clause, else NULL */
    TypeClass tc;
    uint16_t spaces;           /* TC_PTR: bitmask of allowed AddrSpace, 0 = any */
    int16_t tokset;            /* SL_TOKEN */
    uint8_t style;             /* TokStyle */
    bool optional, variadic, untyped, off_typed, off_vec, in_bracket, has_def, is_bool;   /* off_vec: a VMI index vector */
    bool arrow;                /* result: printed `-> T` even without operand types (pto.declare_struct -> T) */
    bool off_path;             /* SL_MEM written %base[i, j, ...]: off_name is an integer-list attribute, no group */
    bool out;                  /* positional slot after '|': written in outs(...) of the ins/outs form (tile ops) */
    bool list;                 /* positional slot written KEY = [%a, %b, ...] (key set; variadic) */
    bool after_paren;          /* keyed slot written after the parenthesised operands: (...) mode = #pto.x<y> */
    int64_t def;               /* default token id / int */
    int16_t group;             /* operand group (SL_VALUE, SL_MEM base; offset = group + 1) */
    const char *off_name;      /* SL_MEM offset group name (off_path: the attribute's name) */
    const char *pkeys[SIG_MAX_ALIAS];   /* positional value slot: names under which it may be written KEY(%v) */
    uint8_t npkeys;
} SigSlot;

typedef enum { CL_ONE, CL_OPT, CL_MANY } ClauseMult;

typedef struct SigClause {
    const char *kw;
    const char *alias[SIG_MAX_ALIAS];   /* other spellings accepted on input (printed as kw) */
    uint8_t nalias;
    ClauseMult mult;
    bool type_prefix;          /* keyword repeated in the type list */
    bool unit;                 /* bare keyword, no parentheses (unit attribute) */
    SigSlot *slots;
    uint16_t nslots;
} SigClause;

typedef struct OpSig {
    SigSlot *pos;
    uint16_t npos;
    SigClause *cl;
    uint16_t ncl;
    SigSlot *dict;
    uint16_t ndict;
    SigSlot *res;
    uint16_t nres;
    uint16_t ngroups;
    const char **group_names;
    bool has_bracket;
    bool bracket_plain;        /* written '[?': the bracket group is printed as plain positional slots */
    bool paren;                /* written '(' pos-list ')': the operands may also be written NAME(%a : T, ...) */
    bool has_outs;             /* some positional slots are outs: the op is written ins(...) outs(...) */
    bool ins_only;             /* with has_outs: no slot is an out, the op is written ins(...) alone */
    bool has_keyed;            /* some positional slots are written KEY = %v or KEY = [...] */
    int16_t type_order[8];     /* groups in type-list order when it differs from operand order */
    uint8_t ntype_order;
} OpSig;

/* Compiles every op's signature string; returns NULL and writes a message on a malformed table. */
const OpSig *const *sig_compile_all(Arena *a, char *err, unsigned errn);
int sig_group(const OpSig *s, const char *name);   /* group index or -1 */
/* The order of s's operand groups in the generic form (order[0 .. s->ngroups)): the compiler's ins/outs ops list
   the required ins, then the outs, then the optional ins (TMovOp: src, dst, fp?, preQuantScalar?); every other op
   its groups as they are. */
void sig_generic_order(const OpSig *s, int16_t *order);
int sig_clause_index(const OpSig *s, const char *kw, unsigned n);   /* clause written kw (or an alias), or -1 */
const SigSlot *sig_find_token(const OpSig *s, const char *name);
#endif
