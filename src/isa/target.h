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
    int flag_key;              /* what identifies a set_flag/wait_flag flag: FLAG_KEY_* (docs/semantics.md §2) */
    int flag_events;           /* set_flag/wait_flag event ids 0..flag_events-1 on the device (W-FLAG-EVENT) */
} TargetProfile;

/* A flag is one bit per (set pipe, destination pipe, event) (a5), or per (set pipe, event) (a2a3). */
enum { FLAG_KEY_SRC_DST_EVENT = 1, FLAG_KEY_PIPE_EVENT = 2 };

const TargetProfile *target_profile(PtoTarget t);
#endif
