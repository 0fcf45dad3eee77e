/* normalize.h — the normalisation pass: what runs between parsing and verification and may rewrite the IR.
 * Today it is one rewrite, vector-scope inference (normalize.c). The verifier itself only reads the IR. */
#ifndef PTOSIM_NORMALIZE_H
#define PTOSIM_NORMALIZE_H
#include "isa/ir.h"
/* Normalises a parsed module, unit by unit like verify_module (each module nested directly in the top module
   with its own work budget, then the top module's own functions). Out of memory is E-OOM in the context's
   diagnostics; the IR stays whole. */
void norm_module(Module *m);
/* One unit (a module nested directly in the top module), as norm_module normalises it: for checking while
   parsing (Module.on_unit), before the top module is complete. */
void norm_unit(Module *m, Op *unit);
#endif
