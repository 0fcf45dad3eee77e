/* print.h — canonical and generic printers. */
#ifndef PTOSIM_PRINT_H
#define PTOSIM_PRINT_H
#include "isa/ctx.h"
#include "isa/ir.h"
char *print_module(PtoCtx *ctx, const Module *m, int generic);   /* malloc'd text */
#endif
