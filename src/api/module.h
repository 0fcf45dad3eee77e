/* module.h — what the files of the API layer share about a module's functions (module.c): the public
 * view of a parameter (used by pto_module_func_param and by launches). */
#ifndef PTOSIM_API_MODULE_H
#define PTOSIM_API_MODULE_H
#include "ptosim.h"
#include "isa/ir.h"

/* Fills `out` for the block argument `arg` of a function; the type spelling is interned in `ctx`.
   -1 when out of memory for it (E-OOM added). */
int api_param_info(struct PtoCtx *ctx, const Value *arg, PtoParamInfo *out);
#endif
