/* timing.h — the timing model: per-target tables of clock, transfer bandwidths, vector-op latencies and
 * throughputs, cube rates and scalar/sync costs, read from a small text format (docs/timing.md) so a
 * user can inspect and override them; and the formulas that turn an op's work into cycles.
 *
 * Timing decides only when things happen, never what they compute: every handler does its work the
 * same way under any table. */
#ifndef PTOSIM_TIMING_H
#define PTOSIM_TIMING_H
#include <stdint.h>
#include "ptosim.h"
#include "base/diag.h"
#include "isa/elem.h"
#include "isa/op.h"

/* Data paths of the transfer engines (MTEs, FIXPIPE, the V pipe's UB->UB copies). */
typedef enum {
    TP_GM_UB, TP_GM_L1, TP_UB_GM, TP_L1_GM, TP_UB_UB, TP_L0C_GM, TP_L0C_L1, TP_L0C_UB, TP_L1_L0A, TP_L1_L0B,
    TP_L1_BT, TP_L1_FB, TP_L1_UB, TP_UB_L1, TP_L1_FILL, TP__COUNT
} TmPath;

/* Vector execution resources: either of the two execution units, execution unit 0 only, a load port,
   the store port; TU_ISSUE ops take an issue slot and no unit (predicate generation and algebra). */
typedef enum { TU_EXU, TU_EXU0, TU_LOAD, TU_STORE, TU_ISSUE, TU__COUNT } TmUnit;

enum { TM_FWD_UNSET = 0xFFFF };
typedef struct TmVec {
    uint16_t lat;              /* issue -> result retired, cycles */
    uint16_t ii;               /* cycles the op occupies its unit (initiation interval) */
    uint16_t fwd;              /* issue -> a dependent compute op may issue (TM_FWD_UNSET: lat - fwd_minus) */
    uint16_t fwd_st;           /* issue -> a dependent store may issue (TM_FWD_UNSET: fwd) */
    uint8_t unit;              /* TmUnit */
} TmVec;

typedef struct TmVecRow {
    uint16_t op;               /* OpKind */
    int8_t form;               /* ElemKind of the op's element type (its result's), -1 = any */
    int8_t src;                /* conversions: ElemKind of the source, -1 = any */
    TmVec v;
} TmVecRow;

typedef struct TmPath_ {
    double peak_gibs;          /* peak bandwidth, GiB/s */
    double k_bytes;            /* half-saturation size of the Hill model (0 = flat) */
    uint32_t startup;          /* fixed cycles per transfer */
} TmPathParam;

typedef struct Timing {
    double clock_hz;
    TmPathParam path[TP__COUNT];
    double gm_read_cap, gm_write_cap;      /* GiB/s of the chip's GM for reads, for writes; 0 = no cap */
    double gm_total_cap;                   /* GiB/s of reads and writes together; 0 = no cap */
    uint32_t vf_startup, vf_drain;         /* launch and retire of a vector function (scope, SIMT launch) */
    uint32_t simt_lanes;                   /* SIMT: workitem-op cycles retired per cycle (one subgroup op) */
    uint32_t simt_launch;                  /* SIMT: fixed cycles of a launch (warp setup, barrier, cold cache) */
    uint32_t issue_width;                  /* vector front end: instructions taken per cycle */
    uint32_t iter_min;                     /* a loop starts at most one iteration per iter_min cycles */
    uint32_t loop_gap;                     /* cycles between an outer iteration's inner-loop instances */
    uint32_t outer_min;                    /* least cycles of an outer iteration around an inner loop */
    uint32_t fwd_minus;                    /* rows without fwd: fwd = lat - fwd_minus (at least 1) */
    uint32_t units[TU__COUNT];             /* how many of each resource (exu0 is one of the exu) */
    uint32_t inflight;                     /* ops in flight per compute port (0 = no cap): a compute op
                                              occupies its port max(ii, lat / inflight) cycles */
    TmVec vec_default[TU__COUNT];          /* ops without a row of their own, by resource */
    TmVecRow *vec;                         /* rows, later rows win */
    uint32_t nvec, capvec;
    uint32_t mad_head;                     /* cycles before the first fractal */
    uint8_t mad_k0[EK__COUNT];             /* K elements per fractal step, by A's element kind */
    uint8_t mad_cycles[EK__COUNT];         /* cycles per 16 x 16 x k0 fractal */
    double fix_head;                       /* FIXPIPE: fixed cycles per drain */
    double fix_row;                        /* FIXPIPE: least cycles per row of the accumulator drained */
    double fix_bw;                         /* FIXPIPE: accumulator bytes drained per cycle (0 = no rate) */
    double fix_penalty;                    /* FIXPIPE: cycles per row per odd N-fractal group beyond one */
    uint32_t scalar_op;                    /* a scalar-unit op */
    uint32_t issue;                        /* the scalar unit handing an op to a pipe queue */
    uint32_t sync_op;                      /* set_flag, wait_flag (once released), barriers, tokens */
    uint32_t sort_per_elem_x8;             /* UB sorters: cycles per 8 elements */
} Timing;

/* Fills t with the built-in table of the target (a5 and cpu: the a5 table; a2a3: its own). */
int timing_default(Timing *t, PtoTarget target);   /* -1 when out of memory */
void timing_free(Timing *t);
/* The built-in table's text. */
const char *timing_default_text(PtoTarget target);
/* Applies a table text on top of t (keys it does not name keep their values). Returns 0, or -1 after
   E-TIMING diagnostics at file:line:col. */
int timing_parse(Timing *t, const char *file, const char *text, size_t len, DiagList *d);

/* Cycles to move `bytes` on path p when `ncores` cores share GM: startup + bytes / bw, with
   bw = min(peak * bytes / (k + bytes), cap / ncores) for GM paths (cap only when set). */
uint64_t timing_transfer(const Timing *t, TmPath p, uint64_t bytes, unsigned ncores);

/* The GM transfers of one block in flight (docs/timing.md "GM bandwidth"): each holds a share of the
   block's slice of the chip's GM bandwidth (the caps / the launch's blocks) over a span of model time,
   as segments [t0, t1) at a rate (GiB/s). Deterministic: only the block's own transfers are in it. */
enum { TM_GM_SEGS = 256 };
typedef struct TmGmSeg { double t0, t1, rate; int write; } TmGmSeg;
typedef struct TmGmFlows { TmGmSeg s[TM_GM_SEGS]; unsigned n; } TmGmFlows;
/* Cycles of a transfer of `bytes` on path p that starts at cycle `start` of a block of a launch of
   `blocks` blocks: startup, then the bytes at the path's rate or what the block's slice has left beside
   the transfers already in flight (first come, first served), whichever is less; the transfer's own
   segments are added to f. Paths that do not touch GM, or no cap: timing_transfer. */
uint64_t timing_transfer_gm(const Timing *t, TmPath p, uint64_t bytes, unsigned blocks, uint64_t start, TmGmFlows *f);
/* FIXPIPE cycles of draining `rows` rows of `cols` accumulator elements of `acc_bytes` bytes each
   (pypto's drain model): head + rows * (max(row, acc_bytes * cols / bw) + penalty * (odd(N1) - 1)),
   N1 = ceil(cols / (32 / acc_bytes)), odd(x) = x without its factors of 2; rounded up. */
uint64_t timing_fixpipe(const Timing *t, uint64_t rows, uint64_t cols, unsigned acc_bytes);
/* The same drain writing `bytes` to GM: its writes also take a share of the block's GM slice at the
   drain's own rate (timing_transfer_gm); the cycles are the larger of the two. */
uint64_t timing_fixpipe_gm(const Timing *t, uint64_t rows, uint64_t cols, unsigned acc_bytes, uint64_t bytes,
                           unsigned blocks, uint64_t start, TmGmFlows *f);
/* The path of a copy between two address spaces (AS_* of isa/type.h). */
TmPath timing_path(unsigned src_space, unsigned dst_space);
/* Cycles of a MAD: head + ceil(m/16) * ceil(n/16) * ceil(k/k0) * cycles, by A's element kind. */
uint64_t timing_mad(const Timing *t, ElemKind a, uint64_t m, uint64_t n, uint64_t k);
/* The vector parameters of an op on element kind k (for conversions: from kind src), from the last
   matching row (exact forms before `*`), else the default of its resource. */
TmVec timing_vec(const Timing *t, OpKind op, ElemKind k, ElemKind src);   /* fwd, fwd_st resolved */
/* Cycles of a tile op's vector body (docs/timing.md "Tile ops"): n micro ops m[] per repeat (loads, then a
   chain of compute ops, then the store), `lines` lines of `per_line` repeats each, vf startup and drain
   included. */
/* The per-iteration bounds of a body of n ops v[] (slots[i] front-end slots each, NULL = 1): *fe = max(slots /
   issue width, iter_min); *res = the busiest of the compute units, unit 0 and the load/store ports (a cycle
   issues two loads or a load and a store), *why = 1, 2, 3 for which (0 if none is busy); *res_nest (if not
   NULL) the same inside a loop nest (timing_nest_res). */
void timing_body_bounds(const Timing *t, const TmVec *v, const unsigned *slots, unsigned n, double *fe, double *res,
                        int *why, double *res_nest);
/* The port bound of an inner loop's iteration inside a nest: max(compute, unit 0, ceil(load/store)). */
double timing_nest_res(double exu, double exu0, double ldst);
/* Cycles of one iteration of an outer loop around p inner iterations: max(p x res, p x fe + loop gap,
   outer_min). */
double timing_outer_iter(const Timing *t, double p, double ii_fe, double ii_res);
/* Cycles a compute op occupies its port: max(ii, lat / inflight) (ii when there is no cap). */
double timing_port_occ(const Timing *t, TmVec v);
uint64_t timing_tile_body(const Timing *t, const OpKind *m, unsigned n, ElemKind k, ElemKind src, uint64_t lines,
                          uint64_t per_line);
/* The resource class of a vector op when it has no row: loads, stores or an execution unit. */
TmUnit timing_vec_unit(OpKind op);
const char *timing_path_name(TmPath p);
const char *timing_unit_name(TmUnit u);
#endif
