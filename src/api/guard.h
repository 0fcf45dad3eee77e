/* guard.h — the thread-safety rule of include/ptosim.h, enforced where cheap: every API call that changes a
 * context (parsing, verifying, printing, launching, running, freeing) holds the context's busy flag for its
 * duration. A call that finds the flag taken (another thread is in the same context) does nothing and
 * returns its failure value; the thread holding the flag reports E-THREAD when it leaves. One atomic
 * exchange per call, nothing per op. */
#ifndef PTOSIM_API_GUARD_H
#define PTOSIM_API_GUARD_H
#include "isa/ctx.h"
#include <fenv.h>
#include <stdatomic.h>

/* The host's floating-point environment never reaches the simulation: a call saves it, runs under the default
   environment (round to nearest, no flush-to-zero, no denormals-are-zero: FE_DFL_ENV; block threads created
   meanwhile inherit it) and restores it on the way out (docs/semantics.md "Host floating-point environment"). */

static inline int api_enter(PtoCtx *c, fenv_t *saved)
{
    unsigned free_ = 0;
    if (atomic_compare_exchange_strong(&c->busy, &free_, 1u)) {
        fegetenv(saved);
        fesetenv(FE_DFL_ENV);
        return 1;
    }
    atomic_fetch_add(&c->clashes, 1u);
    return 0;
}

static inline void api_leave(PtoCtx *c, const fenv_t *saved)
{
    unsigned n = atomic_exchange(&c->clashes, 0u);
    if (n) diag_add(&c->diags, SEV_ERROR, DIAG_THREAD, (SrcLoc){0, 0, 0}, "this context was used by another thread "
                    "at the same time (%u call(s) refused); a context and everything made from it belong to one thread "
                    "at a time (include/ptosim.h)", n);
    atomic_store(&c->busy, 0u);
    fesetenv(saved);
}
#endif
