/* simt.h — the vector core's SIMT mode (docs/simt.md): launches of pto.simt_entry functions and
 * pto.section.simt regions as one V-pipe job each, the workitems that run them, thread and lane queries,
 * collectives, scalar memory and atomics, scalar math, conversions, keep/resume slots, the llvm.* subset,
 * and the race checker between the workitems of a launch. */
#ifndef PTOSIM_SIMT_H
#define PTOSIM_SIMT_H
#include "exec/machine.h"
#include <stdbool.h>

enum {
    SIMT_WARP = 32,            /* lanes of a subgroup (docs/simt.md, "Workitems, lanes and subgroups") */
    SIMT_MAX_ITEMS = 2048,     /* workitems of one launch */
    SIMT_DEFAULT_ENVELOPE = 1024,   /* pto.simt_max_threads of an entry that does not state it */
    SIMT_SLOTS = 123,          /* keep/resume slot words per workitem */
    SIMT_PRIV_BYTES = 4096,    /* llvm.alloca memory of one workitem in one launch */
    SIMT_PERSIST_BYTES = 1024, /* {pto.persistent} llvm.alloca memory of one workitem, kept across launches */
};

/* !llvm.ptr values: a workitem's private memory (llvm.alloca) starts at 0; {pto.persistent} memory at
   SIMT_PERSIST_BASE. Both are per workitem. */
#define SIMT_PERSIST_BASE 0x100000000ull

typedef enum { SI_RUN, SI_WAIT, SI_DONE } SimtItemState;

/* One workitem: its own interpreter context (frame stack, call stack), where it is, who it is. x comes
   first: a handler's Exec is its workitem. */
typedef struct SimtItem {
    Exec x;
    const Instr *pc;           /* next instruction; the sync point it waits at when state == SI_WAIT */
    uint32_t tid;              /* linear id: tid_x + dim_x * (tid_y + dim_y * tid_z) */
    uint32_t t[3];             /* tid_x, tid_y, tid_z */
    uint8_t state;             /* SimtItemState */
    uint64_t cycles;           /* op cycles the workitem has executed in this launch (clock queries) */
    uint8_t *priv;             /* llvm.alloca memory (SIMT_PRIV_BYTES, allocated on first use) */
    uint32_t priv_top;
} SimtItem;

/* The race checker's shadow memory (simt_race.c): one entry per aligned 4-byte word a workitem touched in this
   launch, a direct-mapped array for UB and pages of SIMT_SHADOW_PAGE words (found by address in a small hash)
   for the other spaces; a word that sees an access to only part of it is split into one entry per byte (in a
   hash). Entries carry the launch's generation: a new launch starts empty without clearing anything. */
typedef struct SimtShadow SimtShadow;
enum { SIMT_SHADOW_PAGE = 1024 };
typedef struct SimtPage { uint64_t key; SimtShadow *e; } SimtPage;   /* key (space << 56 | page) + 1; 0 empty */
typedef struct SimtRace {
    SimtShadow *tab;           /* the bytes of split words */
    uint32_t cap, n;           /* slots, entries of the current generation */
    uint32_t gen;              /* the current launch's generation (older entries count as empty) */
    int off;                   /* out of host memory: checking stopped for this launch */
    SimtShadow *ub;            /* UB's words, indexed by address / 4 (allocated on first use) */
    uint64_t ub_words;
    SimtPage *dir;             /* the pages of the other spaces in this launch, by address */
    uint32_t dcap, dn;
    SimtPage last;             /* the page found last */
    SimtShadow *pool;          /* pages of earlier launches, reused for any address (their entries are stale),
                                  linked through their first entry's key */
} SimtRace;

struct SimtState {
    uint32_t cfg[3];           /* pto.store_vfsimt_info: dim_x, dim_y, dim_z */
    int has_cfg;
    /* the running launch */
    SimtItem *items;
    uint32_t nitems, capitems;
    uint8_t *frames;           /* every workitem's frame stack */
    size_t frames_cap;
    SimtItem *cur;             /* the workitem executing, NULL outside a launch */
    uint32_t dim[3];
    uint32_t epoch;            /* pto.syncthreads releases so far in this launch */
    uint64_t t0;               /* cycle the launch started */
    SimtRace race;
    /* per linear tid, across the launches of a block */
    uint32_t *slots;           /* keep/resume: SIMT_SLOTS words each, allocated on first use */
    uint8_t *persist;          /* {pto.persistent} llvm.alloca memory, SIMT_PERSIST_BYTES each */
    uint32_t persist_top;
    /* the lockstep engine (simt_lock.c) */
    struct SimtPlan *plans;    /* per launched function: whether and how it runs in lockstep */
    uint64_t *lregs;           /* lane registers: slot k of workitem l at lregs[k * n + l] */
    size_t lregs_cap;
    uint16_t *lanes;           /* lane lists of the active group and the pending ones */
    size_t lanes_cap;
    uint64_t *laddr;           /* one memory access's per-lane addresses */
};

typedef struct SimtState SimtState;

/* The op-table rows of the SIMT family, pto.load/pto.store inside SIMT code, and func.call ops the driver
   turned into launches (in->ext2 = the callee's Func; for pto.section.simt the enclosing Func, with the
   region's body at in->jump2). */
int simt_lower(LowerView *L, const Op *op, Instr *in);
/* Whether `op` runs on workitems: it is inside a pto.simt_entry function or a pto.section.simt. */
bool simt_inside(const Op *op);
int simt_reset(Core *c);
void simt_free(Core *c);
#endif
