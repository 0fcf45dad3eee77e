/* opref.c — the op reference (ptosim.h "op reference"): one entry per op of the op table, written from the
 * table itself — the syntax from the compiled signature (every form of the op), the operands with their type
 * classes, address spaces and documented field widths (FIELD rows), the element types (TYPES rows), the pipe,
 * the targets and where it may appear (flags), its aliases, what its family does and where docs/semantics.md
 * reads it. `ptosim help OP` prints an entry, tools/gen_ops_md.py writes all of them into docs/ops.md. */
#include "ptosim.h"
#include "base/strbuf.h"
#include "isa/ctx.h"
#include "isa/elem.h"
#include "isa/op.h"
#include "isa/target.h"
#include "isa/type.h"
#include "isa/tokens.h"
#include <stdio.h>
#include <string.h>

static const struct { const char *name; int kind; } ref_aliases[] = {
#define OP(id, name, fam, pipe, syn, flags, sig)
#define ALIAS(name, id) {name, OP_##id},
#include "isa/ops.def"
#undef OP
#undef ALIAS
    {NULL, -1}
};

/* What each family's ops do, in one line, and the section of docs/semantics.md that reads them. */
static const struct { const char *what, *section; } fam_doc[FAM__COUNT] = {
    [FAM_STRUCT] = {"structure: modules, functions, calls, sections of a mixed kernel", "§1 Machine and launch"},
    [FAM_SCF] = {"structured control flow, run by the scalar unit (inside a vector scope: by the V pipe)", "§4 Scalar unit"},
    [FAM_ARITH] = {"scalar arithmetic on integers, index and floats, run by the scalar unit", "§4 Scalar unit"},
    [FAM_PTR] = {"pointer arithmetic and scalar memory access", "§4 Scalar unit"},
    [FAM_QUERY] = {"queries of the launch and the core (block index, subblock, counts) and traps", "§1 Machine and launch"},
    [FAM_SYNC] = {"synchronisation between pipes and cores: flags, barriers, buffer tokens, semaphores", "§2 Execution order and synchronisation"},
    [FAM_DMA] = {"DMA copies between GM and on-chip buffers, in bursts, on an MTE pipe", "§3 DMA"},
    [FAM_DMA_CFG] = {"DMA configuration registers (padding, loop strides)", "§3 DMA"},
    [FAM_PRED_LS] = {"predicate (mask) loads and stores", "§5 Predicates"},
    [FAM_PRED_GEN] = {"mask generation and mask algebra", "§5 Predicates"},
    [FAM_MISC] = {"vector scopes and other regions", "§2 Execution order and synchronisation"},
    [FAM_VLS] = {"vector register loads and stores between UB and registers, in distributions", "§6 Vector memory"},
    [FAM_VMAT] = {"vector register materialisation: broadcasts, index vectors, duplicates", "§7 Vector compute"},
    [FAM_VUN] = {"unary element-wise vector op: each active lane from the same lane of its operand", "§7 Vector compute"},
    [FAM_VBIN] = {"binary element-wise vector op: each active lane from the same lanes of its two operands", "§7 Vector compute"},
    [FAM_VSCAL] = {"vector-scalar op: each active lane from its lane and one scalar", "§7 Vector compute"},
    [FAM_VCVT] = {"conversions between element types, with rounding and saturation", "§7.5 Conversions"},
    [FAM_VRED] = {"reductions across the lanes of a register", "§7.6 Reductions"},
    [FAM_VCMP] = {"comparisons into masks, and selection by a mask", "§7.7 Compare and select"},
    [FAM_VREARR] = {"rearrangement of lanes between registers", "§6.7 Data rearrangement"},
    [FAM_VSFU] = {"special functions on vector lanes (exp, log, sqrt, reciprocal, ...)", "§7 Vector compute"},
    [FAM_MAD] = {"cube matrix multiply-accumulate on L0A/L0B into L0C", "§8 Cube"},
    [FAM_CUBE_DMA] = {"cube data movement between GM, L1, L0A/L0B, L0C and FIXPIPE writeback", "§8 Cube"},
    [FAM_SPR] = {"special-purpose registers of the vector unit", "§6.6 SPR AR / SQZN"},
    [FAM_SIMT] = {"SIMT launches and per-workitem ops (docs/simt.md)", "§11 SIMT"},
    [FAM_VMI] = {"VMI op on logical vectors of any length, charged as the micro ops it stands for (docs/vmi.md)", "§13 VMI logical vectors"},
    [FAM_TILE] = {"tile op: views of GM, tiles in on-chip buffers, and whole-tile compute, one job on its pipe (docs/tile.md)", "§14 Tile ops"},
};

/* A type class in an operand list: tclass.def's description without its article ("a !pto.vreg" -> "!pto.vreg"). */
static const char *tc_name(TypeClass tc)
{
    const char *d = tc_desc(tc);
    if (!d) return "?";
    if (strncmp(d, "a ", 2) == 0) return d + 2;
    if (strncmp(d, "an ", 3) == 0) return d + 3;
    return d;
}

/* The pipe line of an entry: the pipes.def spelling; the scalar unit and the two non-pipes explained. */
static void put_pipe(StrBuf *b, OpPipe p)
{
    if (p == PIPE_NONE) sb_puts(b, "none (structure)");
    else if (p == PIPE_DYN) sb_puts(b, "given by the op's pipe operand");
    else sb_printf(b, "%s%s", pipe_name((unsigned)p - 1), p == PIPE_S_ ? " (the scalar unit)" : "");
}

static void spaces(StrBuf *b, uint16_t sp)
{
    if (!sp) return;
    sb_puts(b, " in ");
    int first = 1;
    for (unsigned s = 0; s < AS__COUNT; s++)
        if (sp & (1u << s)) {
            sb_printf(b, "%s%s", first ? "" : "|", as_name((AddrSpace)s));
            first = 0;
        }
}

/* A slot as written: %name, %base[%off], "TOKEN", N. */
static void slot_text(StrBuf *b, const SigSlot *sl)
{
    if (sl->key) sb_printf(b, "%s = ", sl->key);
    switch (sl->kind) {
    case SL_VALUE: sb_printf(b, "%%%s%s", sl->name, sl->variadic ? "..." : ""); break;
    case SL_MEM: sb_printf(b, "%%%s[%s%s]", sl->name, sl->off_path ? "" : "%", sl->off_name ? sl->off_name : "off"); break;
    case SL_TOKEN: {
        const char *set = tokset_name(sl->tokset);
        if (sl->style == TS_ANGLE) sb_printf(b, "<%s>", set);
        else if (sl->style == TS_HASH) sb_printf(b, "#pto.%s", set);
        else if (sl->style == TS_BARE) sb_printf(b, "%s", set);
        else if (sl->style == TS_MLIR) sb_printf(b, "#pto<%s ...>", set);
        else sb_printf(b, "\"%s\"", set);
        break;
    }
    case SL_INT: sb_printf(b, "%s", sl->name); break;
    case SL_STR: sb_printf(b, "\"%s\"", sl->name); break;
    }
}

/* The attribute dictionary of a signature, as written: {name = TOKEN, [optional = N]}. */
static void dict_text(StrBuf *b, const OpSig *s)
{
    if (s->ndict) {
        sb_puts(b, " {");
        for (unsigned k = 0; k < s->ndict; k++) {
            const SigSlot *sl = &s->dict[k];
            sb_printf(b, "%s%s%s = ", k ? ", " : "", sl->optional ? "[" : "", sl->name);
            if (sl->kind == SL_TOKEN) slot_text(b, sl);
            else sb_puts(b, "N");
            if (sl->optional) sb_puts(b, "]");
        }
        sb_puts(b, "}");
    }
}

static void syntax(StrBuf *b, const OpInfo *oi, const OpSig *s)
{
    if (oi->syn != SYN_SIG || !s) {
        sb_printf(b, "  syntax:    %s ... (a structural form: see docs/semantics.md)\n", oi->name);
        return;
    }
    sb_puts(b, "  syntax:    ");
    for (unsigned i = 0; i < s->nres; i++) sb_printf(b, "%s%%%s%s", i ? ", " : "", s->res[i].name, s->res[i].optional ? "?" : "");
    if (s->nres) sb_puts(b, " = ");
    sb_puts(b, oi->name);
    int inb = 0, n = 0, io = 0;   /* io: the ins(...) outs(...) form (a '|' in the signature); 1 in ins, 2 in outs */
    int after = 0;                /* keyed slots after the parenthesised operands: name(%a : TYPES) key = TOKEN, ... */
    for (unsigned i = 0; i < s->npos; i++) {
        if (s->pos[i].out) io = 1;
        if (s->pos[i].after_paren) after = 1;
    }
    if (after) {
        sb_puts(b, "(");
        for (unsigned i = 0; i < s->npos; i++) {
            const SigSlot *sl = &s->pos[i];
            if (sl->after_paren) continue;
            sb_printf(b, "%s%s", n++ ? ", " : "", sl->optional ? "[" : "");
            slot_text(b, sl);
            if (sl->optional) sb_puts(b, "]");
        }
        sb_puts(b, " : TYPES)");
        n = 0;
        for (unsigned i = 0; i < s->npos; i++)
            if (s->pos[i].after_paren) {
                sb_puts(b, n++ ? ", " : " ");
                slot_text(b, &s->pos[i]);
                sb_puts(b, "<...>");
            }
        sb_puts(b, "\n");
        return;
    }
    if (io) sb_puts(b, " ins(");
    for (unsigned i = 0; i < s->npos; i++) {
        const SigSlot *sl = &s->pos[i];
        if (io == 1 && sl->out) {
            dict_text(b, s);
            sb_puts(b, " : TYPES) outs(");
            io = 2;
            n = 0;
        }
        if (sl->in_bracket && !inb) { sb_puts(b, "["); inb = 1; n = 0; }
        else if (!sl->in_bracket && inb) { sb_puts(b, "]"); inb = 0; n = 1; }
        sb_puts(b, n++ ? ", " : (inb || io) ? "" : " ");
        if (sl->optional) sb_puts(b, "[");
        slot_text(b, sl);
        if (sl->optional) sb_puts(b, "]");
    }
    if (inb) sb_puts(b, "]");
    for (unsigned c = 0; c < s->ncl; c++) {
        const SigClause *cl = &s->cl[c];
        sb_printf(b, " %s%s", cl->mult == CL_ONE ? "" : "[", cl->kw);
        if (!cl->unit) {
            sb_puts(b, "(");
            for (unsigned k = 0; k < cl->nslots; k++) {
                if (k) sb_puts(b, ", ");
                slot_text(b, &cl->slots[k]);
            }
            sb_puts(b, ")");
        }
        sb_printf(b, "%s", cl->mult == CL_ONE ? "" : cl->mult == CL_MANY ? "]..." : "]");
    }
    if (!io) dict_text(b, s);
    sb_puts(b, io ? " : TYPES)\n" : " : TYPES\n");
}

static void operand_line(StrBuf *b, int kind, const SigSlot *sl, const char *where)
{
    if (sl->kind == SL_TOKEN) {
        int f = tokset_first(sl->tokset), n = tokset_size(sl->tokset);
        sb_printf(b, "    %-10s token of %s%s:", sl->name, tokset_name(sl->tokset), sl->optional ? " (optional)" : "");
        for (int t = 0; t < n && t < 12; t++) sb_printf(b, " %s", tok_spelling(f + t));
        if (n > 12) sb_printf(b, " ... (%d in all)", n);
        sb_putc(b, '\n');
        return;
    }
    if (sl->kind == SL_INT) {
        sb_printf(b, "    %-10s integer attribute%s\n", sl->name, sl->optional ? " (optional)" : "");
        return;
    }
    sb_printf(b, "    %%%-9s %s", sl->name, tc_name(sl->tc));
    spaces(b, sl->spaces);
    if (sl->kind == SL_MEM) sb_printf(b, ", indexed by %%%s (elements)", sl->off_name ? sl->off_name : "off");
    if (sl->optional) sb_puts(b, ", optional");
    if (sl->variadic) sb_puts(b, ", any number");
    if (where) sb_printf(b, " (%s)", where);
    for (unsigned f = 0; f < op_nfields; f++)
        if ((int)op_fields[f].op == kind && !strcmp(op_fields[f].slot, sl->name)) {
            if (op_fields[f].bits) sb_printf(b, "; %s, %u bits", op_fields[f].what, op_fields[f].bits);
            else sb_printf(b, "; %s, must be 0", op_fields[f].what);
        }
    sb_putc(b, '\n');
}

/* The conversion pairs of a converting op, from the op table's CVT rows (what the verifier accepts), per target:
   one line per source kind; a destination marked * is simulated beyond the ISA's list (W-ELEM-TYPE). */
static void cvt_pairs(StrBuf *b, int kind)
{
    static const struct { int target; const char *name; } tg[] = {{PTO_TARGET_A5, "a5"}, {PTO_TARGET_A2A3, "a2a3"}};
    int same = 1;
    for (int s = 0; s < EK__COUNT && same; s++)
        for (int d = 0; d < EK__COUNT; d++)
            if (op_cvt_on(kind, PTO_TARGET_A5, s, d) != op_cvt_on(kind, PTO_TARGET_A2A3, s, d)) { same = 0; break; }
    for (unsigned t = 0; t < (same ? 1u : 2u); t++) {
        sb_printf(b, "  pairs%s%s%s (source -> destinations; * simulated beyond the ISA's list):\n", same ? "" : " on ",
                  same ? "" : tg[t].name, same ? " on every target" : "");
        for (int s = 0; s < EK__COUNT; s++) {
            int n = 0;
            for (int d = 0; d < EK__COUNT; d++) {
                CvtStatus c = op_cvt_on(kind, tg[t].target, s, d);
                if (c == CVT_NONE) continue;
                if (!n++) sb_printf(b, "    %-9s ->", ek_name((ElemKind)s));
                sb_printf(b, " %s%s", ek_name((ElemKind)d), c == CVT_SIM ? "*" : "");
            }
            if (n) sb_putc(b, '\n');
        }
    }
}

static void entry(StrBuf *b, PtoContext *ctx, int kind, int first_form)
{
    const OpInfo *oi = &op_info[kind];
    const OpSig *s = oi->syn == SYN_SIG ? ctx_sig(ctx, kind) : NULL;
    if (first_form) {
        sb_printf(b, "%s\n", oi->name);
        const char *what = op_doc(kind) ? op_doc(kind) : fam_doc[oi->fam].what;
        sb_printf(b, "  what:      %s\n", what ? what : "-");
        sb_puts(b, "  pipe:      ");
        put_pipe(b, oi->pipe);
        sb_puts(b, "\n");
        sb_puts(b, "  targets:  ");
        if (!(oi->flags & F_NOA5)) sb_puts(b, " a5");
        if (!(oi->flags & F_NOA2A3)) sb_puts(b, " a2a3");
        if (!(oi->flags & F_NOCPU)) sb_puts(b, " cpu");
        sb_printf(b, "%s%s%s\n", oi->flags & F_VEC ? "; inside a vector scope" : "", oi->flags & F_OUTSIDE ? "; outside vector scopes" : "",
                  oi->flags & F_NOSIM ? "; not simulated (T-UNSUPPORTED)" : "");
        int na = 0;
        for (int i = 0; ref_aliases[i].name; i++)
            if (ref_aliases[i].kind == kind) sb_printf(b, "%s%s", na++ ? ", " : "  aliases:   ", ref_aliases[i].name);
        if (na) sb_putc(b, '\n');
        if (oi->flags & F_LEGACY) sb_puts(b, "  note:      a pre-v0.6 form (W-DEPRECATED)\n");
        if (oi->flags & F_SPEC) sb_puts(b, "  note:      in the spec or the reference compiler, not in the manual\n");
        int micro = op_vmi_micro(kind);
        if (micro >= 0) sb_printf(b, "  lanes:     those of %s, charged as K of it (K = registers of the widest vector)\n", op_info[micro].name);
    }
    syntax(b, oi, s);
    if (s) {
        if (s->npos || s->ncl || s->nres) sb_puts(b, "  operands:\n");
        for (unsigned i = 0; i < s->npos; i++) operand_line(b, kind, &s->pos[i], NULL);
        for (unsigned c = 0; c < s->ncl; c++)
            for (unsigned k = 0; k < s->cl[c].nslots; k++) operand_line(b, kind, &s->cl[c].slots[k], s->cl[c].kw);
        for (unsigned k = 0; k < s->ndict; k++) operand_line(b, kind, &s->dict[k], "attribute");
        for (unsigned i = 0; i < s->nres; i++) {
            sb_printf(b, "    -> %%%-6s %s", s->res[i].name, tc_name(s->res[i].tc));
            spaces(b, s->res[i].spaces);
            sb_puts(b, s->res[i].optional ? ", optional result\n" : " (result)\n");
        }
    }
    const OpTypes *t = &op_types[kind];
    if (first_form && t->isa) {
        sb_puts(b, "  elements: ");
        for (unsigned e = 0; e < 32; e++)
            if (t->isa & (1u << e)) sb_printf(b, " %s", ek_name((ElemKind)e));
        if (t->sim & ~t->isa) {
            sb_puts(b, "; also simulated (W-ELEM-TYPE):");
            for (unsigned e = 0; e < 32; e++)
                if ((t->sim & ~t->isa) & (1u << e)) sb_printf(b, " %s", ek_name((ElemKind)e));
        }
        sb_putc(b, '\n');
    }
    if (first_form && op_has_cvt(kind)) cvt_pairs(b, kind);
}

size_t pto_op_count(void) { return OP__COUNT; }

const char *pto_op_name(size_t i) { return i < OP__COUNT ? op_info[i].name : NULL; }

char *pto_op_reference(PtoContext *ctx, const char *name)
{
    if (!ctx || !name) return NULL;
    int kind = op_lookup(name, (unsigned)strlen(name));
    if (kind < 0 || !ctx_sigs_compile(ctx)) return NULL;
    const char *canon = op_info[kind].name;
    StrBuf b;
    sb_init(&b);
    int first = 1;
    for (int k = 0; k < OP__COUNT; k++)   /* every row of this spelling: the op's forms */
        if (!strcmp(op_info[k].name, canon)) {
            if (!first) sb_puts(&b, "  another form:\n");
            entry(&b, ctx, k, first);
            first = 0;
        }
    sb_printf(&b, "  semantics: docs/semantics.md %s\n", fam_doc[op_info[kind].fam].section ? fam_doc[op_info[kind].fam].section : "");
    return sb_take(&b);
}
