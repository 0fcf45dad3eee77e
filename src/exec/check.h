/* check.h — the access checks beyond the race detector of one block (race.h): reads of on-chip bytes
 * nothing wrote in the launch (W-UNINIT), bytes of an output buffer the kernel never wrote
 * (W-UNWRITTEN), and GM accesses of different blocks that conflict (W-RACE across blocks). Every access
 * a pipe makes reaches them through sim_access (mem.c). */
#ifndef PTOSIM_CHECK_H
#define PTOSIM_CHECK_H
#include "machine.h"

typedef struct Check Check;

/* What to check (Sim.checks). */
enum { CHK_INIT = 1, CHK_UNWRITTEN = 2, CHK_BLOCKS = 4 };

Check *check_new(void);
/* Whether k lost an allocation while recording (its reports would be incomplete: the run fails with T-OOM). */
int check_oom(const Check *k);
void check_free(Check *k);
/* Start of a launch: a GM allocation is an output when its `output` is set (W-UNWRITTEN). 0, or -1 out of
   memory. */
int check_launch_begin(Check *k, const Sim *s);
/* Start of a block: nothing on chip is written yet. A block has its own Check (`k`, its on-chip bits and its
   GM accesses) beside the launch's (`launch`: outputs and the accesses of the blocks merged so far). */
int check_block_begin(Check *k, const Check *launch, const Cluster *cl);
/* Merges block `blk`'s GM accesses into the launch's `k` (blocks are merged in block order). */
void check_merge(Check *k, Check *blk, const Sim *s);
/* initcheck's bits for the on-chip space `as` of the core `owner` (one per byte, set when written in this
   launch) and their count, for a handler that tests and sets them itself on its hot path (what it cannot
   decide there it hands to check_access); NULL when initcheck is off. The bits are marked as used. */
uint8_t *check_init_bits(Exec *x, const Core *owner, AddrSpace as, uint64_t *size);
/* 1 when a read of [addr, addr + len) of the on-chip space `as` of `owner` cannot report T-UNINIT (every byte
   written in this launch, or initcheck not watching it), else 0. */
int check_init_clean(const Exec *x, const Core *owner, AddrSpace as, uint64_t addr, uint64_t len);
/* check_access (declared in machine.h for sim_access): an access by the op `in` running on x to
   [addr, addr+len) of space `as` owned by core `owner`. */
/* End of the launch: the unwritten output ranges, and the races between blocks, in block order. */
void check_launch_end(Check *k, Sim *s);
#endif
