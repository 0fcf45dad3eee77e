/* vsched.h — static timing of vector scopes (vsched.c) and the base cost of every instruction. */
#ifndef PTOSIM_VSCHED_H
#define PTOSIM_VSCHED_H
#include "machine.h"
#include "timing.h"

/* What bounds a loop's cycles per iteration. */
enum { VB_ISSUE, VB_EXU, VB_EXU0, VB_LDST, VB_ITER, VB_CHAIN, VB_RES_COUNT = VB_ITER };

/* One analysed innermost loop of a vector scope. */
typedef struct VecLoop {
    const Instr *init, *next;  /* the loop's entry and back edge */
    uint32_t ii;               /* cycles per iteration (the fractional II rounded up) */
    uint32_t lat;              /* critical path of one iteration */
    uint8_t bound;             /* VB_* */
} VecLoop;

enum { VSCHED_MAX_LOOPS = 256 };
typedef struct VecSched {
    VecLoop loops[VSCHED_MAX_LOOPS];
    uint32_t nloops;
} VecSched;

/* Sets Instr.cost of every instruction of P under table T, and records the analysed loops. */
int vsched_annotate(VecSched *out, Program *P, const Timing *T);   /* -1 when out of memory */
const char *vsched_bound_name(int why);
#endif
