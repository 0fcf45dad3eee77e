/* align.c — the byte model of unaligned store streams shared by pstu and the vstu* family
 * (resolutions Q21, Q45): each appended byte is written once at its own address; a partial 32-byte
 * block is held back until it completes, the stream leaves it, or the stream is flushed. */
#include "pred.h"

static int write_block(Exec *x, const Instr *in, AlignState *st)
{
    if (!st->valid) return 0;
    uint8_t *ub = sim_mem(x, in, AS_UB, st->block, 32, 1, ACC_WRITE, "stream destination");
    if (!ub) return -1;
    for (unsigned b = 0; b < 32; b++)
        if (st->valid & (1u << b)) ub[b] = st->pending[b];
    st->valid = 0;
    return 0;
}

int align_append(Exec *x, const Instr *in, AlignState *st, uint64_t addr, const uint8_t *bytes, uint64_t n)
{
    /* check the whole range first so a trap leaves UB untouched */
    if (n && !sim_mem(x, in, AS_UB, addr, n, 1, ACC_WRITE, "stream destination")) return -1;
    st->init = 1;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t a = addr + i, blk = a & ~(uint64_t)31;
        if (st->valid && blk != st->block && write_block(x, in, st)) return -1;
        st->block = blk;
        st->pending[a & 31] = bytes[i];
        st->valid |= 1u << (a & 31);
        if (st->valid == 0xffffffffu && write_block(x, in, st)) return -1;
    }
    st->cursor = addr + n;
    return 0;
}

int align_flush(Exec *x, const Instr *in, AlignState *st)
{
    int r = write_block(x, in, st);
    st->valid = 0;
    return r;
}
