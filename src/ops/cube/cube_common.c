/* cube_common.c — what the cube family's files share: element types of tile pointers, run-time field
 * checks, the "not simulated" handler, and the MX scale state. */
#include "cube_int.h"
#include <inttypes.h>
#include <string.h>

CElem cube_elem(const Type *t)
{
    CElem e;
    memset(&e, 0, sizeof e);
    e.kind = elem_kind(t);
    e.fmt = -1;
    if (e.kind == EK_BAD) return e;
    e.bytes = (uint8_t)ek_bytes(e.kind);
    if (ek_float(e.kind)) {
        e.fmt = (int8_t)ek_fmt(e.kind);
        e.packed4 = ek_packed4(e.kind);
    } else {
        e.bits = (uint8_t)ek_bits(e.kind);
        e.is_signed = ek_signed(e.kind);
    }
    return e;
}

CElem cube_ptr_elem(const Op *op, int i)
{
    CElem e;
    memset(&e, 0, sizeof e);
    e.kind = EK_BAD;
    e.fmt = -1;
    if (i < 0 || (uint32_t)i >= op->noperands || !op->operands[i]) return e;
    const Type *t = op->operands[i]->type;
    if (!t || t->kind != TY_PTR) return e;
    return cube_elem(t->elem);
}

const char *cube_elem_name(CElem e) { return e.kind == EK_BAD ? "this type" : ek_name(e.kind); }

int cube_field(Exec *x, const Instr *in, const char *what, uint64_t v, unsigned bits)
{
    if (bits >= 64 || v < (1ull << bits)) return 0;
    sim_trap(x, in, DIAG_T_FIELD, "%s = %" PRIu64 " does not fit its %u-bit field (0..%" PRIu64 ")", what, v, bits,
             (uint64_t)((1ull << bits) - 1));
    return 1;
}

static int p_unsup(Exec *x, const Instr *in, const uint64_t *a)
{
    (void)a;
    sim_trap(x, in, DIAG_T_UNSUPPORTED, "%s", (const char *)in->ext2);
    return -1;
}

int cube_unsupported(Instr *in, const char *msg)
{
    in->ext2 = msg;
    in->pfn = p_unsup;
    return 0;
}

/* MX scale state (CubeState.mx_scale, zeroed for every block like the on-chip buffers, resolutions §2.1): the
   L0A-side then the L0B-side state, each 1/32 of its L0 buffer. */
uint8_t *cube_mx_state(Exec *x, const Instr *in, int side, uint64_t l0addr, uint64_t len)
{
    Core *c = x->core;
    uint64_t cap0 = c->memsz[AS_L0A] / 32, cap1 = c->memsz[AS_L0B] / 32;
    uint8_t *st = c->cube->mx_scale;
    uint64_t cap = side ? cap1 : cap0, off = l0addr / 32;
    if (off > cap || len > cap - off) {
        sim_trap(x, in, DIAG_T_OOB, "MX scales for the %s tile at 0x%" PRIx64 " need state bytes [%" PRIu64 ", %" PRIu64
                 ") of the %" PRIu64 "-byte scale buffer (one scale byte per 32 data bytes)",
                 side ? "L0B" : "L0A", l0addr, off, off + len, cap);
        return NULL;
    }
    return st + (side ? cap0 : 0) + off;
}
