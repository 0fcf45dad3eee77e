/* autosync.h — auto-sync: the synchronisation a correct compiler inserts into a tile kernel written without
 * any (docs/tile.md "Auto-sync").
 *
 * In a function the lowering puts in auto-sync mode (it has tile ops on pipes and no explicit sync op), every
 * queued op carries a footprint function (Instr.foot). When the scalar unit issues such an op, its footprint
 * (byte ranges per address space, read or written) is recorded, and for every other pipe the most recent
 * earlier op whose footprint conflicts with it (read after write, write after read, write after write) becomes
 * an inferred edge. The op then runs only once those ops have completed ("operations on the same tile buffer
 * are ordered by program order"); the edge orders the two for the race detector and is drawn as a flow in the
 * trace, and the wait shows in --stats as an "auto-sync" stall. Ops of one pipe keep their queue order. */
#ifndef PTOSIM_AUTOSYNC_H
#define PTOSIM_AUTOSYNC_H
#include "machine.h"

enum { AS_MAX_RANGES = 12 };
typedef struct AsRange { uint64_t lo, hi; uint8_t space, write; } AsRange;
/* What one queued op touches: byte ranges [lo, hi) of address spaces; `all` = everything (an op whose
   accesses are not described, e.g. a vector scope or a micro DMA in an auto-sync function). */
struct AsFoot { AsRange r[AS_MAX_RANGES]; uint8_t n, all; };
typedef struct AsFoot AsFoot;

/* Adds a range (too many ranges: the footprint becomes `all`). */
static inline void as_add(AsFoot *f, unsigned space, uint64_t lo, uint64_t hi, int write)
{
    if (hi <= lo) return;
    if (f->n == AS_MAX_RANGES) { f->all = 1; return; }
    f->r[f->n++] = (AsRange){lo, hi, (uint8_t)space, (uint8_t)(write != 0)};
}

/* The footprint of an op that describes none: everything, read and written. */
void autosync_foot_all(const Instr *in, const uint64_t *args, AsFoot *f);

/* Per-core state: allocated on first use, cleared for each block, freed with the launch's blocks. */
void autosync_reset(Core *c);
void autosync_free(Core *c);
/* The scalar unit issues `in` (an op with a footprint) as queue entry e with captured values `args`: records
   it and its inferred edges. Returns -1 when out of memory (the caller traps). */
int autosync_issue(Exec *x, const Instr *in, const QEntry *e, const uint64_t *args);
/* Before pipe pq runs its head entry e: 1 while an op it depends on is still in flight (the pipe waits), else
   0 after ordering e after those ops (race detector, trace flow). */
int autosync_wait(Exec *x, int pq, const QEntry *e);
/* Entry e of pipe pq completed (called inside its job, so the release carries its clock). */
void autosync_done(Exec *x, int pq, const QEntry *e);
/* Inferred edges of the run so far (every core of the block). */
uint64_t autosync_edges(const Core *c);
#endif
