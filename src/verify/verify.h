/* verify.h — the verifier: structural, semantic and target-profile rules over a parsed module. */
#ifndef PTOSIM_VERIFY_H
#define PTOSIM_VERIFY_H
#include "isa/ir.h"
#include "ptosim.h"
void verify_module(Module *m, PtoTarget target);
/* Wraps vector operations left outside a vector scope in inferred scopes (verify_infer.c); verify_module
   runs it first. */
void verify_infer_vecscopes(Module *m);
#endif
