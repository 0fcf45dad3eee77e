/* module.h — what the files of the API layer share about a module's functions (module.c): which are
 * kernels, and the public view of a parameter (used by pto_module_func_param and by launches). */
#ifndef PTOSIM_API_MODULE_H
#define PTOSIM_API_MODULE_H
#include "ptosim.h"
#include "isa/ir.h"

/* Does the function carry pto.kernel (or its older spellings pto.aicore, pto.entry)? */
int api_is_kernel_func(const Op *f);
/* Fills `out` for the block argument `arg` of a function; the type spelling is interned in `ctx`.
   -1 when out of memory for it (E-OOM added). */
int api_param_info(struct PtoCtx *ctx, const Value *arg, PtoParamInfo *out);
#endif
