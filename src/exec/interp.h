/* interp.h — the interpreter's own handlers: structured control flow (scf.for/if/while, sections),
 * calls and returns, the vector-scope job that runs a scope body on the V pipe, and the handlers of ops
 * the simulator does not execute. The lowering driver (lower/) emits them; each reads the operands and
 * lowered data documented next to it. */
#ifndef PTOSIM_INTERP_H
#define PTOSIM_INTERP_H
#include "machine.h"

/* scf.for entry. arg0..2 = lb, ub, step; res0 = iv; imm[INTERP_IV_BITS] = iv width; ext = init -> iter copies;
   ext2 = init -> result copies (zero trips); jump = loop exit. */
enum { INTERP_IV_BITS = 0, INTERP_CORE_TYPE = 0 };
const Instr *interp_for_init(Exec *x, const Instr *in);
/* scf.for back edge. arg0..2 = lb, ub, step; arg3 = iv slot; ext = yield -> iter copies; ext2 = iter ->
   result copies; jump = body start. interp_for_next64: 64-bit iv, no iter_args. */
const Instr *interp_for_next(Exec *x, const Instr *in);
const Instr *interp_for_next64(Exec *x, const Instr *in);
/* scf.if: arg0 = condition; jump = else branch (or the end). */
const Instr *interp_if(Exec *x, const Instr *in);
/* Copies ext, then continues at jump (or the next instruction): yields of scf.if/while, while entry. */
const Instr *interp_copy_jump(Exec *x, const Instr *in);
/* scf.condition: arg0 = condition; ext = args -> after-region copies; ext2 = args -> results; jump = exit. */
const Instr *interp_condition(Exec *x, const Instr *in);
/* Section: runs the body only on a core of type imm[INTERP_CORE_TYPE]; jump = after the body. */
const Instr *interp_section(Exec *x, const Instr *in);
/* End of a region (NULL: the interpreter loop stops). */
const Instr *interp_end(Exec *x, const Instr *in);

/* func.call: ext = CallInfo. func.return: ext = CopyList of the returned values (dst unused). */
typedef struct CallInfo { const Func *callee; CopyList *args; uint32_t nres; int32_t res[64]; } CallInfo;
const Instr *interp_call(Exec *x, const Instr *in);
const Instr *interp_return(Exec *x, const Instr *in);

/* A vector scope issued to V: ext = ScopeInfo; caps = the captured values. Copies the captures into the
   V frame and interprets the body to its end. */
typedef struct ScopeInfo { const Instr *body; int32_t *dst; } ScopeInfo;
int interp_vecscope(Exec *x, const Instr *in, const uint64_t *args);

/* Default handlers of every op: trap T-UNSUPPORTED naming the op. */
const Instr *interp_unsupported(Exec *x, const Instr *in);
int interp_unsupported_job(Exec *x, const Instr *in, const uint64_t *args);
#endif
