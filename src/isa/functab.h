/* functab.h — the functions of a module tree by name: one hash lookup shared by the verifier (calls, SIMT
 * launches, duplicate symbols), the lowering (callees across sibling modules) and the launch (the entry), so
 * finding a function costs the same whether the file holds ten functions or a hundred thousand. */
#ifndef PTOSIM_FUNCTAB_H
#define PTOSIM_FUNCTAB_H
#include <stdbool.h>
#include <stdint.h>
#include "ir.h"

typedef struct FuncEnt {
    Op *func;                  /* a func.func, in textual order */
    const Op *module;          /* the module whose body holds it */
    const char *name;          /* its sym_name */
    uint32_t hash;
    int32_t next;              /* the next entry of the same hash bucket, in textual order (-1: none) */
} FuncEnt;

typedef struct FuncTab {
    const Op *root;
    FuncEnt *ents;
    uint32_t n;
    int32_t *heads;            /* bucket -> first entry, mask + 1 buckets */
    uint32_t mask;
    bool oom;                  /* the table could not be built: lookups scan the IR instead (same answers) */
} FuncTab;

/* Indexes every func.func with a sym_name under `root` (a module; nested modules at any depth). Returns 0, or -1
   when out of memory: the table then still answers every lookup (by scanning), the caller reports E-OOM. */
int functab_build(FuncTab *t, const Op *root);
void functab_free(FuncTab *t);

/* The first function called `name` directly in `module`'s body, in textual order; NULL when none. */
Op *functab_in_module(const FuncTab *t, const Op *module, const char *name);
/* The function a symbol reference from `from` names: the first `name` in the innermost enclosing module that
   holds one (MLIR's nearest symbol table). NULL when none. */
Op *functab_resolve(const FuncTab *t, const Op *from, const char *name);

/* Every function called `name` anywhere under the root, in textual order: functab_first, then functab_next until
   NULL. */
typedef struct FuncIter {
    int32_t i;                 /* the current entry */
    Op *op;                    /* the current function (the scan without a table) */
} FuncIter;
Op *functab_first(const FuncTab *t, const char *name, FuncIter *it);
Op *functab_next(const FuncTab *t, const char *name, FuncIter *it);
#endif
