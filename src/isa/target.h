/* target.h — target profiles: capacities and availability rules (isa-notes §1.7, §3.5; Q41). */
#ifndef PTOSIM_TARGET_H
#define PTOSIM_TARGET_H
#include <stdint.h>
#include "ptosim.h"
#include "type.h"

typedef struct TargetProfile {
    PtoTarget id;
    const char *name;
    uint64_t cap[AS__COUNT];   /* bytes per address space (gm unused) */
    uint32_t op_mask;          /* the F_NO* flag that excludes an op on this target */
    int events;                /* event ids 0..events-1 */
    int sems;                  /* intra-block semaphore ids */
    int fp8;                   /* fp8/hif8/f4 element types available */
} TargetProfile;

const TargetProfile *target_profile(PtoTarget t);
#endif
