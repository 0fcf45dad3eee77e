/* cube.h — the cube family: L1/L0/BT/FB data movement (cube.c), MAD (cube_mad.c), FIXPIPE writeback
 * (cube_fix.c). Semantics: docs/semantics.md §8. */
#ifndef PTOSIM_CUBE_H
#define PTOSIM_CUBE_H
#include "exec/machine.h"

struct CubeState {
    uint8_t *mx_scale;         /* MX scale state: one byte per 32 bytes of L0A, then of L0B */
    size_t mx_bytes;
    void *scratch;             /* MAD's decoded operands and accumulator rows (cube_mad.c), grown on demand */
    size_t scratch_bytes;
};
typedef struct CubeState CubeState;

int cube_lower(LowerView *L, const Op *op, Instr *in);
int cube_reset(Core *c);
void cube_release(Core *c);

/* ---- the cube engines the tile family's cube ops share (ops/tile/tile_cube.c, docs/tile.md "Cube tile ops"):
   one implementation for the micro and the tile forms ---- */

/* MAD (cube_mad.c): a decoded configuration for mode 0 (C = A·B), 1 (C += A·B) or 2 (C = A·B + bias), MX, GEMV
   (m = 1 reads A as one contiguous row) and sat, from the element types of A, B, C and the bias; NULL on E-OOM.
   *why is NULL, or the reason the combination is not simulated. */
typedef struct MadExt MadExt;
MadExt *cube_mad_plan(LowerView *L, const Op *op, int mode, int mx, int gemv, int sat, const Type *a, const Type *b,
                      const Type *c, const Type *bias, const char **why);
/* Runs one MAD as pto.mad* does (same checks, numerics, counters and cycles); 0, or -1 after a trap. */
int cube_mad_exec(Exec *x, const Instr *in, const MadExt *me, uint64_t A, uint64_t B, uint64_t C, uint64_t BIAS,
                  uint64_t M, uint64_t N, uint64_t K);
/* The same with the operands' L0A/L0B bytes given (pa, pb: NULL reads them at A, B), for a tile op whose operand is
   a mat tile (cube_l1_l0_image made its bytes); not for MX. */
int cube_mad_exec_with(Exec *x, const Instr *in, const MadExt *me, const uint8_t *pa, const uint8_t *pb, uint64_t A,
                       uint64_t B, uint64_t C, uint64_t BIAS, uint64_t M, uint64_t N, uint64_t K);
/* L1 -> L0A (side 0, R = m) / L0B (side 1, R = n) as pto.mte_l1_l0a/b's shape form (tr: transpose; e: element
   bytes); L1 -> BT as pto.mte_l1_bt (sfmt: NumFormat of a float source, -1 an integer; se its bytes); L1 -> FB as
   pto.mte_l1_fb. Each returns 0, or -1 after a trap (cube.c). A window (pto.textract) reads the R x K region at
   (r0, k0) of a source whose extent is sr x sk (its NZ pitch pad16(sr), transposed pad16(sk)); NULL: the source is
   R x K itself (the micro shape form; a transposing 1-byte one runs as its full-control expansion, semantics §8.2). */
typedef struct CubeWin { uint64_t r0, k0, sr, sk; } CubeWin;
int cube_l1_l0_exec(Exec *x, const Instr *in, int side, int tr, unsigned e, uint64_t src, uint64_t dst, uint64_t R,
                    uint64_t K, const CubeWin *w);
/* The logical L0 tile cube_l1_l0_exec (no window, e > 0) would give the MAD, into d (ceil(K / (32 / e)) * pad16(R) * 32 of
   them) instead: L0 and the transfer counters untouched. 0, or -1 after a trap. */
int cube_l1_l0_image(Exec *x, const Instr *in, int side, int tr, unsigned e, uint64_t src, uint8_t *d, uint64_t R,
                     uint64_t K);
/* The MX scales of the L0A (side 0) / L0B (1) data tile at l0addr: `len` bytes in the state's order (what
   pto.mte_l1_l0a_mx / _l0b_mx write: semantics §8.2 "MX scale state"), the first `have` of them from src, the rest
   zero. For the tile .mx forms whose scale tiles hold the scales. 0, or -1 after a trap. */
int cube_mx_install(Exec *x, const Instr *in, int side, uint64_t l0addr, const uint8_t *src, uint64_t have,
                    uint64_t len);
int cube_l1_bt_exec(Exec *x, const Instr *in, int sfmt, unsigned se, uint64_t src, uint64_t dst, uint64_t len,
                    uint64_t n, uint64_t sg, uint64_t dg);
int cube_l1_fb_exec(Exec *x, const Instr *in, uint64_t src, uint64_t dst, uint64_t len, uint64_t n, uint64_t sg,
                    uint64_t dg);
/* GM -> L1 ND (dn = 0) or DN (dn = 1) to NZ as pto.mte_gm_l1_frac (cube.c): R x C elements of e bytes, source strides
   inner / outer in bytes, dst_group g, s2, s3, s4. */
int cube_frac_exec(Exec *x, const Instr *in, int dn, unsigned e, uint64_t src, uint64_t dst, uint64_t R, uint64_t C,
                   uint64_t inner, uint64_t outer, uint64_t g, uint64_t s2, uint64_t s3, uint64_t s4);
/* FIXPIPE writeback (cube_fix.c) of an M x N accumulator block (source stride ss in 16-accumulator rows,
   destination stride ds in elements) to `space` (AS_GM, AS_L1, AS_UB: subblock `sub` of a mixed kernel) in one
   of the layouts below, without relu; qvec: the vector quantisation of the destination type with the FB
   parameters at qp (else a plain conversion); *why as cube_mad_plan's. */
enum { CUBE_FIX_ND, CUBE_FIX_DN, CUBE_FIX_NZ, CUBE_FIX_NZNZ };
typedef struct FixExt FixExt;
FixExt *cube_fix_plan(LowerView *L, const Op *op, int space, int layout, const Type *acc, const Type *dst, int qvec,
                      const char **why);
int cube_fix_exec(Exec *x, const Instr *in, const FixExt *fe, uint64_t src, uint64_t dst, uint64_t M, uint64_t N,
                  uint64_t ss, uint64_t ds, uint64_t sub, uint64_t qp);
/* A UB writeback split between the two AIVs of the cluster as mte_l0c_ub's dual modes: the upper / lower half of
   the rows (CUBE_SPLIT_M) or the left / right half of the columns (CUBE_SPLIT_N) to AIV0 / AIV1 at the same
   address (the tile pipes' tpush_to_aiv, ops/tile/tile_pipe.c). */
enum { CUBE_SPLIT_NONE, CUBE_SPLIT_M, CUBE_SPLIT_N };
void cube_fix_set_split(FixExt *fe, int split);
/* A cross-core pipe's acc_push_epilogue on a plan (cube_fix.c): quant 0 none, 1 scalar (qp: the f32 bits), 2 vector
   (qp: the FB address; qdfmt < 0 8-byte rows, else a NumFormat per column); relu 1: normal_relu. */
void cube_fix_set_epilogue(FixExt *fe, int quant, int qdfmt, int relu, const char **why);
#endif
