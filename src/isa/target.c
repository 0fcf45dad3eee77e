/* target.c — the three profiles. Capacities follow resolutions Q41 (TASSIGN table); the cpu profile
 * uses the a5 sizes. FB is modelled larger than its nominal 4 KiB because validated kernels address
 * FB up to 0x10040 (resolutions §2.1). The flag key and event range per target: docs/semantics.md §2
 * "Flag key". */
#include "target.h"
#include "op.h"
#include <string.h>

static const TargetProfile profiles[] = {
    {PTO_TARGET_A5, "a5",
     {0, 256u << 10, 512u << 10, 64u << 10, 64u << 10, 256u << 10, 4u << 10, 0x11000}, F_NOA5, 16, 32, 1, FLAG_KEY_SRC_DST_EVENT, 16},
    {PTO_TARGET_A2A3, "a2a3",
     {0, 192u << 10, 512u << 10, 64u << 10, 64u << 10, 128u << 10, 1u << 10, 0x11000}, F_NOA2A3, 16, 16, 0, FLAG_KEY_PIPE_EVENT, 8},
    {PTO_TARGET_CPU, "cpu",
     {0, 256u << 10, 512u << 10, 64u << 10, 64u << 10, 256u << 10, 4u << 10, 0x11000}, F_NOCPU, 16, 0, 0, FLAG_KEY_SRC_DST_EVENT, 16},
};

const TargetProfile *target_profile(PtoTarget t)
{
    for (unsigned i = 0; i < sizeof profiles / sizeof profiles[0]; i++)
        if (profiles[i].id == t) return &profiles[i];
    return &profiles[0];
}

int pto_target_from_name(const char *name, PtoTarget *out)
{
    if (!strcmp(name, "a5")) *out = PTO_TARGET_A5;
    else if (!strcmp(name, "a2a3") || !strcmp(name, "a2") || !strcmp(name, "a3")) *out = PTO_TARGET_A2A3;
    else if (!strcmp(name, "cpu")) *out = PTO_TARGET_CPU;
    else return -1;
    return 0;
}

const char *pto_target_name(PtoTarget t) { return target_profile(t)->name; }
