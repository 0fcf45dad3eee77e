/* ctx.h — the library context: interned strings and types, compiled op signatures, diagnostics.
 * Everything a parse/verify/run needs is reachable from here; there is no global mutable state. */
#ifndef PTOSIM_CTX_H
#define PTOSIM_CTX_H
#include <stdatomic.h>
#include "base/arena.h"
#include "base/diag.h"
#include "op.h"
#include "type.h"

typedef struct StrTab StrTab;
typedef struct SigTab SigTab;

typedef struct PtoCtx {
    Arena arena;               /* types, strings */
    TypeTable *types;
    StrTab *strs;
    /* The op signatures, compiled on first use: a context that never meets a table op (an empty
       module, a context only used for diagnostics) starts without paying for the whole table. */
    _Atomic(SigTab *) sigtab;
    DiagList diags;
    int color;
    bool reference;            /* lowering takes the reference handlers, never the fast paths (pto_context_set_fast_paths) */
    _Atomic unsigned busy;     /* an API call is using the context (api/guard.h) */
    _Atomic unsigned clashes;  /* calls refused meanwhile because another thread used it */
} PtoCtx;

PtoCtx *ctx_new(void);
void ctx_free(PtoCtx *c);
/* NULL when out of memory (without an arena handler: under one, it longjmps). */
const char *ctx_intern(PtoCtx *c, const char *s, size_t n);

/* Compiles the signature table once (thread-safe: a context may be shared by threads that only read it).
   NULL when out of memory. It is compiled when the parser first needs a signature (a module without ops
   never pays for it); every later use is of an op the parser bound, so the table is there. */
const OpSig *const *ctx_sigs_compile(PtoCtx *c);
/* The same for ctx_sig's first use: out of memory longjmps to the handler of the context's arena (the
   parser's: E-OOM); without one it is a defect and stops. */
const OpSig *const *ctx_sigs_need(PtoCtx *c);
struct SigTab { Arena arena; const OpSig *const *sigs; };
static inline const OpSig *ctx_sig(const PtoCtx *c, int kind)
{
    SigTab *t = atomic_load_explicit(&((PtoCtx *)c)->sigtab, memory_order_acquire);
    return (t ? t->sigs : ctx_sigs_need((PtoCtx *)c))[kind];
}
#endif
