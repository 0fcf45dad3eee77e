/* dump.c — pto_launch_mem: read-only access to the on-chip buffers of the last block that ran
 * (`ptosim run --dump`). The simulator keeps one cluster and reuses it block after block, so what is
 * left after pto_launch_run is the last block's memory, at its end or at its trap. */
#include "launch_int.h"
#include <string.h>

static const char *core_name(const Core *c) { return c->type == CORE_AIC ? "aic" : c->subblock ? "aiv1" : "aiv0"; }

int pto_launch_mem(const PtoLaunch *l, const char *core, const char *space, PtoMemView *out)
{
    int as = -1;
    for (int a = AS_UB; a < AS__COUNT; a++)
        if (space && !strcmp(space, as_name((AddrSpace)a))) as = a;
    if (as < 0 || (core && strcmp(core, "aic") && strcmp(core, "aiv0") && strcmp(core, "aiv1"))) return -3;
    const Cluster *cl = launch_last_cluster(l);
    if (!cl) return -1;
    const Core *c = NULL;
    if (core) {
        for (int i = 0; i < cl->ncores && !c; i++)
            if (!strcmp(core_name(&cl->cores[i]), core)) c = &cl->cores[i];
        if (!c) return -2;
    } else {
        /* the owner: UB belongs to the vector cores, the other buffers to the cube core */
        CoreType want = as == AS_UB ? CORE_AIV : CORE_AIC;
        for (int i = 0; i < cl->ncores && !c; i++)
            if (cl->cores[i].type == want) c = &cl->cores[i];
        if (!c) c = &cl->cores[0];
    }
    if (!c->mem[as]) return -1;
    out->data = c->mem[as];
    out->size = c->memsz[as];
    out->block = (unsigned)c->block_idx;
    out->core = core_name(c);
    return 0;
}
