/* verify_fam.h — what the family rules share (verify_fam.c: the dispatch, post-update pointers, sync;
 * verify_mem.c: pointers, DMA, cube; verify_vec.c: predicates, vector ops, vector-address forms): short type
 * tests for messages and rules, and each family's entry point. Private to those three files. */
#ifndef PTOSIM_VERIFY_FAM_H
#define PTOSIM_VERIFY_FAM_H
#include "verify_int.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static inline const char *tyn(const Type *t, char *b) { return v_tyname(t, b, 96); }

static inline bool is_int(const Type *t) { return t && t->kind == TY_INT; }
static inline bool is_float(const Type *t) { return t && t->kind == TY_FLOAT; }
static inline bool is_uint(const Type *t, unsigned bits) { return is_int(t) && t->sign == SIGN_U && t->bits == bits; }
static inline unsigned ebytes(const Type *t) { unsigned b = v_elem_bits(t); return b / 8; }

/* Location of a token or clause attribute, else the op's. */
static inline SrcLoc aloc(const Op *op, const char *name) { return v_attr_loc(op, name); }

/* verify_mem.c */
void fam_ptr(VCtx *V, Op *op);
void fam_dma(VCtx *V, Op *op);
void fam_raw_fill(VCtx *V, Op *op);
void fam_mad(VCtx *V, Op *op);
void fam_fixpipe(VCtx *V, Op *op);
/* verify_vec.c */
void fam_pred(VCtx *V, Op *op);
void fam_vec(VCtx *V, Op *op);
void fam_vaddr(VCtx *V, Op *op);
#endif
