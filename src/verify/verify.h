/* verify.h — the verifier: structural, semantic and target-profile rules over a parsed module. It reads the
 * IR and writes diagnostics only; run the normalisation pass (normalize.h) on the module first. */
#ifndef PTOSIM_VERIFY_H
#define PTOSIM_VERIFY_H
#include "isa/ir.h"
#include "ptosim.h"
/* Verifies a parsed, normalised module. A module nested directly in the top module is a unit: it is verified
   whole (rules, alignment chains, sync) before the next, all of them before the rest of the top module,
   so diagnostics come unit by unit; without nested modules the module is one unit. */
void verify_module(const Module *m, PtoTarget target);
/* One unit, as verify_module verifies it, with its diagnostics into `d`: for checking while parsing
   (Module.on_unit), before the top module is complete. */
void verify_nested(const Module *m, const Op *unit, PtoTarget target, DiagList *d);
/* Does every callee named in `unit` resolve inside it? Else verifying it needs the whole top module (a call
   may name a function of the top module written after the unit), and checking keeps it. Out of memory for
   its function table: E-OOM into `d`, and the same answer by scanning. */
bool verify_unit_closed(Op *unit, DiagList *d);
#endif
