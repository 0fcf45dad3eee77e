/* ctx.h — the library context: interned strings and types, compiled op signatures, diagnostics.
 * Everything a parse/verify/run needs is reachable from here; there is no global mutable state. */
#ifndef PTOSIM_CTX_H
#define PTOSIM_CTX_H
#include "base/arena.h"
#include "base/diag.h"
#include "op.h"
#include "type.h"

typedef struct StrTab StrTab;

typedef struct PtoCtx {
    Arena arena;               /* types, strings, signatures */
    TypeTable *types;
    StrTab *strs;
    const OpSig *const *sigs;  /* per OpKind */
    DiagList diags;
    int color;
} PtoCtx;

PtoCtx *ctx_new(void);
void ctx_free(PtoCtx *c);
const char *ctx_intern(PtoCtx *c, const char *s, size_t n);
static inline const OpSig *ctx_sig(const PtoCtx *c, int kind) { return c->sigs[kind]; }
#endif
