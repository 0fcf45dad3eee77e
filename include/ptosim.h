/* ptosim.h — the public interface of libptosim: parse, verify, print and run PTO ISA v0.6
 * micro-instruction kernels. All handles are opaque. Unless a function says otherwise, pointers it
 * returns are owned by the handle they came from and live as long as it does; strings returned as
 * `char *` are heap-allocated and released with pto_free(). The library never prints: every problem
 * becomes a diagnostic with a stable ID, collected in the context.
 *
 * Threads: a context and everything made from it (its modules, launches, the strings they return) belong to
 * one thread at a time. Different contexts may be used by different threads at the same time with no
 * locking; one context may pass from thread to thread between calls. The library detects a context used
 * by two threads at once in the calls that change it (pto_parse*, pto_check*, pto_verify, pto_print,
 * pto_module_free, pto_launch_new, pto_launch_run, pto_launch_free): the later call does nothing and
 * returns its failure value (NULL, -1, 2; pto_verify counts 1 error), and the call in progress reports E-THREAD when
 * it ends. Other calls are not checked. pto_launch_run's own worker threads are the library's business.
 *
 * Floating point: each of those calls saves the host's floating-point environment, runs under the default
 * one (round to nearest, no flush-to-zero, no denormals-are-zero) and restores the host's on return, so a
 * host built with -ffast-math or running with FTZ/DAZ gets the same bits. */
#ifndef PTOSIM_H
#define PTOSIM_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
/* libptosim.so exports exactly the declarations of this header: its objects are compiled with
   -fvisibility=hidden, and this pragma gives these declarations (and so their definitions) default
   visibility. For a program that includes the header it changes nothing. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

typedef struct PtoCtx PtoContext;
typedef struct PtoModule PtoModule;
typedef struct PtoLaunch PtoLaunch;

typedef enum { PTO_TARGET_DEFAULT = -1, PTO_TARGET_A5 = 0, PTO_TARGET_A2A3 = 1, PTO_TARGET_CPU = 2 } PtoTarget;
typedef enum { PTO_SEV_NOTE, PTO_SEV_WARNING, PTO_SEV_ERROR, PTO_SEV_TRAP } PtoSeverity;

/* ---- context and diagnostics ---- */
PtoContext *pto_context_new(void);                 /* NULL only when out of memory */
void pto_context_free(PtoContext *ctx);            /* frees diagnostics; modules must be freed first */
void pto_free(void *p);

typedef struct PtoDiagInfo {
    PtoSeverity severity;
    const char *id;            /* stable, e.g. "E-SSA-UNDEF", "T-OOB" */
    const char *file;          /* NULL when the diagnostic has no location */
    unsigned line, col;
    const char *message;
    size_t nnotes;
} PtoDiagInfo;

size_t pto_diag_count(const PtoContext *ctx);
size_t pto_error_count(const PtoContext *ctx);     /* errors and traps */
int pto_diag_get(const PtoContext *ctx, size_t i, PtoDiagInfo *out);   /* 0 on success */
/* Note j (0 <= j < nnotes) of diagnostic i: severity PTO_SEV_NOTE, the id of diagnostic i, the note's
   location (file NULL when it has none) and message; nnotes = 0. 0 on success, -1 when i or j is out
   of range. */
int pto_diag_note_get(const PtoContext *ctx, size_t i, size_t j, PtoDiagInfo *out);
/* "FILE:LINE:COL: error: message [ID]" + source line + caret + notes; caller frees. NULL when out of
   memory. */
char *pto_diag_render(const PtoContext *ctx, size_t i, int color);
void pto_diag_clear(PtoContext *ctx);
/* Warning control, as a compiler's -Wno-ID / -Werror=ID / -Werror / -w: `id` is a warning's stable ID
   ("W-RACE") or its short form ("race"), or NULL for every warning without a setting of its own. Ignored
   warnings are not recorded; warnings made errors are recorded with PTO_SEV_ERROR and counted by
   pto_error_count and pto_promoted_warning_count. Returns 0, or -1 for an unknown warning ID.
   PTO_WARN_ENABLE (-WID) turns on a warning that is off by default on the target (W-FLAG-SHARED on a5). */
typedef enum { PTO_WARN_DEFAULT, PTO_WARN_IGNORE, PTO_WARN_ERROR, PTO_WARN_ENABLE } PtoWarnAction;
int pto_set_warning(PtoContext *ctx, const char *id, PtoWarnAction action);
size_t pto_promoted_warning_count(const PtoContext *ctx);
void pto_set_max_errors(PtoContext *ctx, size_t n);
/* on = 0: launches created afterwards run every op on its reference handler, bypassing the simulator's
   fast paths (AVX2 and unmasked element-wise handlers, NORM vector loads/stores, constant-mask stores).
   Results are identical either way; the switch exists to test that (tests/diff). Default 1. */
void pto_context_set_fast_paths(PtoContext *ctx, int on);

/* ---- front end ---- */
/* Parses `text` (copied). Returns a module even when there are errors (check pto_error_count);
   NULL only when out of memory. */
PtoModule *pto_parse(PtoContext *ctx, const char *filename, const char *text, size_t len);
/* Reads and parses a file; NULL with an E-IO-READ diagnostic when it cannot be read. */
PtoModule *pto_parse_file(PtoContext *ctx, const char *path);
void pto_module_free(PtoModule *m);
/* The module's pto.target_arch ("a5", "a2a3", "cpu"), else PTO_TARGET_A5. */
PtoTarget pto_module_target(const PtoModule *m);
int pto_target_from_name(const char *name, PtoTarget *out);   /* 0 on success */
const char *pto_target_name(PtoTarget t);
/* Structural, semantic and target-profile verification; returns the number of errors found.
   PTO_TARGET_DEFAULT selects pto_module_target(m). */
size_t pto_verify(PtoModule *m, PtoTarget target);
/* Parses and verifies (when parsing found no error) without keeping the module: the diagnostics of
   pto_parse + pto_verify, in the same order, but each module nested directly in the top module is verified
   as soon as it is parsed and then freed, so memory holds the text and one nested module at a time. Returns
   the number of errors added, or -1 when the text cannot be held (out of memory) or, for pto_check_file,
   the file cannot be read (E-IO-READ). */
long pto_check(PtoContext *ctx, const char *filename, const char *text, size_t len, PtoTarget target);
long pto_check_file(PtoContext *ctx, const char *path, PtoTarget target);
/* Canonical text (generic != 0: pto ops in MLIR's generic form). Caller frees. NULL, with E-OOM, when out of
   memory; NULL, with E-USAGE, for a module that had parse errors (its IR is incomplete) or a NULL module. */
char *pto_print(const PtoModule *m, int generic);

/* ---- simulation ---- */
typedef enum { PTO_PARAM_PTR, PTO_PARAM_INT, PTO_PARAM_FLOAT, PTO_PARAM_OTHER } PtoParamKind;

typedef struct PtoParamInfo {
    PtoParamKind kind;
    const char *name;          /* without '%' */
    unsigned elem_bits;        /* pointer element / scalar width in bits */
    char elem_code;            /* 'i' signed int, 'u' unsigned int, 'f' float (numpy kind codes), 'b' bool */
    const char *type;          /* spelling of the parameter type */
    const char *space;         /* pointer address space name, else NULL */
} PtoParamInfo;

/* The functions of a module with a body, in source order: the entries pto_launch_new can take. Strings
   live as long as the module. pto_module_func_param describes parameter j of function i, as
   pto_launch_param does for a launch. Each returns 0, or -1 when i or j is out of range. */
typedef struct PtoFuncInfo {
    const char *name;          /* without '@' */
    int is_kernel;             /* carries pto.kernel (the default entry when it is the only one) */
    unsigned nparams;
    const char *file;          /* where the function is defined */
    unsigned line, col;
} PtoFuncInfo;
size_t pto_module_func_count(const PtoModule *m);
int pto_module_func(const PtoModule *m, size_t i, PtoFuncInfo *out);
int pto_module_func_param(const PtoModule *m, size_t i, unsigned j, PtoParamInfo *out);

/* Prepares a launch of `entry` (NULL: the only pto.kernel function, else the only function).
   The module must have verified without errors. NULL with a diagnostic on failure. */
PtoLaunch *pto_launch_new(PtoModule *m, const char *entry, PtoTarget target);
void pto_launch_free(PtoLaunch *l);
unsigned pto_launch_num_params(const PtoLaunch *l);
int pto_launch_param(const PtoLaunch *l, unsigned i, PtoParamInfo *out);
/* Binds a GM buffer to a pointer parameter. The memory stays caller-owned and must stay valid until
   pto_launch_run, which reads it when the run starts and writes the kernel's results back when the run
   ends (also after a trap). GM is one flat device address space: each buffer is a device allocation
   starting at a 2 MiB boundary, followed by a gap (docs/semantics.md §1). Parameters whose memory
   overlaps are one allocation, each pointing at its offset in it (pointers into one block). */
int pto_launch_bind_buffer(PtoLaunch *l, unsigned i, void *data, size_t size);
int pto_launch_bind_int(PtoLaunch *l, unsigned i, int64_t v);
int pto_launch_bind_float(PtoLaunch *l, unsigned i, double v);
/* Binds the raw bits of a scalar parameter of any kind: the low elem_bits of `bits` (an f16 parameter given
   0x4200 holds 3.0), as a host passing an integer of the parameter's width through the C calling convention. */
int pto_launch_bind_bits(PtoLaunch *l, unsigned i, uint64_t bits);
void pto_launch_set_step_limit(PtoLaunch *l, uint64_t steps);   /* per core; 0 = default */
/* Limit on the memory a run may need: the simulated GM image (each buffer rounded up to its 2 MiB-aligned
   slot) plus the bound host buffers. A run over it fails before allocating, with E-MEM-LIMIT (pto_launch_run
   returns 2). 0 = the default, PTO_DEFAULT_MAX_MEMORY (8 GiB). */
#define PTO_DEFAULT_MAX_MEMORY (8ull << 30)
/* A kernel source is at most this many bytes (a larger file, or a pipe or device that yields more, is E-IO-READ
   after reading at most this much): an endless input never exhausts memory. */
#define PTO_MAX_SOURCE_BYTES (1ull << 30)
void pto_launch_set_memory_limit(PtoLaunch *l, uint64_t bytes);
void pto_launch_set_race_check(PtoLaunch *l, int on);
/* What identifies a set_flag/wait_flag flag (docs/semantics.md §2 "Flag key"): the target's setting (the
   default: a5 and cpu (src, dst, event), a2a3 (set pipe, event)), or one of the two forced. */
typedef enum { PTO_FLAG_KEY_TARGET, PTO_FLAG_KEY_SRC_DST_EVENT, PTO_FLAG_KEY_PIPE_EVENT } PtoFlagKey;
void pto_launch_set_flag_key(PtoLaunch *l, PtoFlagKey key);
/* The flag model: 0 (the default) every set is delivered, and a set that may be lost on the device is
   reported (W-FLAG-ALIAS, whatever the schedule); 1 ("lossy") a set while its flag is still set is lost,
   so a kernel that relies on it deadlocks at the wait that never gets it. */
void pto_launch_set_flag_model(PtoLaunch *l, int lossy);
/* Threads that run the blocks of a launch (0, the default: one per online CPU). Every result — output
   bytes, diagnostics and their order, stats, time records, cycles — is that of running the blocks one
   after another in block order, whatever the count (docs/semantics.md, "Blocks on threads"). */
void pto_launch_set_jobs(PtoLaunch *l, unsigned jobs);
/* The sanitizer's checks (all off by default in the library; ptosim run turns them all on):
   PTO_CHECK_RACE     races between pipes and cores of a block and between blocks (W-RACE);
   PTO_CHECK_INIT     reads of on-chip bytes nothing wrote in the launch (W-UNINIT);
   PTO_CHECK_UNWRITTEN  output bytes the kernel never wrote (W-UNWRITTEN; outputs: pto_launch_set_output). */
enum { PTO_CHECK_RACE = 1, PTO_CHECK_INIT = 2, PTO_CHECK_UNWRITTEN = 4, PTO_CHECK_ALL = 7 };
void pto_launch_set_checks(PtoLaunch *l, unsigned checks, int on);
/* Parameter i (a pointer) is an output: with PTO_CHECK_UNWRITTEN, bytes of its buffer the kernel never
   wrote are reported. Returns 0, or -1 when i is not a pointer parameter. */
int pto_launch_set_output(PtoLaunch *l, unsigned i, int on);
/* GM accesses that leave their buffer. Default (0): performed in the flat device space and reported
   (W-GM-OOB; W-GM-CLOBBER when a write reaches another buffer), gap bytes read as 0xA5; 1 (strict):
   they trap T-OOB. Accesses outside the device space trap either way. */
void pto_launch_set_gm_strict(PtoLaunch *l, int on);
/* pto.vag reads loop iteration counters. Default (0): they read 0, as the validated vector-address kernels
   require; 1: the PTOAS design formula, sum of stride x iteration count of the enclosing i16 scf.for loops
   (docs/semantics.md §6.11). */
void pto_launch_set_vag_loops(PtoLaunch *l, int on);
/* Which lowering of the tile ops to follow where the compiler's two disagree (docs/semantics.md §14.5
   "textract"). Default (0): pto-isa's, what `ptoas` emits by default; 1: the TileLib templates, what
   `ptoas --enable-tile-op-expand` emits (the compiler's tile system tests are built so). */
void pto_launch_set_tile_op_expand(PtoLaunch *l, int on);
/* Applies a timing table (the text format of docs/timing.md) on top of the target's built-in one; keys
   the text does not name keep their values. Returns 0, or -1 with E-TIMING diagnostics (located in
   `name`). Timing changes when things happen, never the bytes a race-free kernel produces. */
int pto_launch_set_timing(PtoLaunch *l, const char *name, const char *text, size_t len);
/* The built-in timing table of a target, as text (static storage). */
const char *pto_timing_default(PtoTarget target);
/* Runs `blocks` blocks. Returns 0 when the kernel completed, 3 on a run-time trap (diagnostic
   added), 2 when the launch is not fully bound or memory ran out (E-OOM, or T-OOM when a checker or
   recorder lost an allocation during the run: a run never completes with a check silently off). */
int pto_launch_run(PtoLaunch *l, unsigned blocks);

/* On-chip memory after a run, for debugging (`ptosim run --dump`). */
typedef struct PtoMemView {
    const uint8_t *data;       /* the whole address space; valid until the next run or pto_launch_free */
    uint64_t size;             /* its size in bytes (the target profile's capacity) */
    unsigned block;            /* the block whose memory this is */
    const char *core;          /* the core it belongs to: "aic", "aiv0" or "aiv1" */
} PtoMemView;
/* The on-chip buffer `space` ("ub", "l1", "l0a", "l0b", "l0c", "bt", "fb") of one core of the last
   block that pto_launch_run ran, as that block left it: at its end, or at the trap. Blocks run one
   after another, each from zeroed buffers, so only the last block's memory is kept. `core`: "aic",
   "aiv0", "aiv1", or NULL for the core that owns the space (ub: the first AIV; the others: the AIC;
   a single-core kernel: its core). Returns 0; -1 before any run; -2 when the kernel has no such core
   (a vector-only kernel runs one AIV, aiv0; a cube-only kernel one AIC; a mixed one all three);
   -3 for an unknown space or core name. */
int pto_launch_mem(const PtoLaunch *l, const char *core, const char *space, PtoMemView *out);

typedef struct PtoStats {
    uint64_t ops_executed;     /* all executed operations, every core */
    uint64_t vector_ops;       /* vector-pipe instructions */
    uint64_t bytes_moved[8];   /* per pipe: S, V, MTE1, MTE2, MTE3, M, FIX, (unused) */
    uint64_t cycles;           /* simulated cycles of the longest core */
    unsigned cores;
} PtoStats;
const PtoStats *pto_launch_stats(const PtoLaunch *l);
/* The device output of the last run (pto.print, pto.tprint; docs/semantics.md §12 "Device output"): the blocks'
   output one block after another, in block order. *len (may be NULL) receives its length. The bytes stay valid
   until the next run or pto_launch_free; "" before any run or when the kernel printed nothing. */
const char *pto_launch_output(const PtoLaunch *l, size_t *len);
/* How the entry function is synchronised (docs/tile.md "Auto-sync"): 1 when it is a tile kernel without
   explicit synchronisation, which ptosim orders by auto-sync, 0 when its own sync ops order it. *edges (may be
   NULL) receives the dependencies auto-sync inferred in the last run, every block. */
int pto_launch_autosync(const PtoLaunch *l, uint64_t *edges);
/* A pipe's name as the text spells it ("PIPE_MTE2"): its one name in messages, --stats, --trace and the run
   summary; index into bytes_moved; "?" out of range. */
const char *pto_pipe_name(unsigned pipe_index);

/* ---- time: the timing model's view of the last run (docs/timing.md) ----
   Pipe indices as in pto_pipe_name: 0 scalar unit, 1 V, 2 MTE1, 3 MTE2, 4 MTE3, 5 M (cube), 6 FIX. */
enum { PTO_PIPES = 7 };
typedef enum {
    PTO_WAIT_FLAG, PTO_WAIT_BARRIER, PTO_WAIT_BUFFER, PTO_WAIT_SEMAPHORE, PTO_WAIT_CROSS_CORE, PTO_WAIT_OTHER,
    PTO_WAIT_QUEUE,                    /* the scalar unit waited for room in a full pipe queue */
    PTO_WAIT_AUTOSYNC,                 /* a tile op waited for the ops auto-sync ordered it after (docs/tile.md) */
    PTO_WAIT__COUNT
} PtoWaitCause;
const char *pto_wait_cause_name(PtoWaitCause c);
double pto_launch_clock_hz(const PtoLaunch *l);

typedef struct PtoPipeTime {
    uint64_t busy;                     /* cycles executing ops */
    uint64_t stall[PTO_WAIT__COUNT];   /* cycles an op waited before it could run, by cause */
    uint64_t bytes, ops;
    uint64_t end;                      /* cycle at which its last op finished */
} PtoPipeTime;
typedef struct PtoCoreTime {
    unsigned block;
    const char *core;                  /* "AIV", "AIC" (one core per block), or "AIC", "AIV0", "AIV1" */
    PtoPipeTime pipe[PTO_PIPES];
} PtoCoreTime;
/* Cores of the last run (every block's), in block order. */
size_t pto_launch_core_count(const PtoLaunch *l);
int pto_launch_core_time(const PtoLaunch *l, size_t i, PtoCoreTime *out);   /* 0 on success */

/* One waiting op of the last run, with the total cycles it waited; ranked by cycles, largest first. */
typedef struct PtoStall {
    unsigned block;
    const char *core;
    unsigned pipe;
    PtoWaitCause cause;
    uint64_t cycles, times;
    const char *what;                  /* e.g. "flag PIPE_MTE2 -> PIPE_V, event 0" */
    const char *op, *file;             /* the waiting op and its location */
    unsigned line, col;
    const char *setter_op, *setter_file;   /* the op whose release ended the last wait (NULL if unknown) */
    unsigned setter_line, setter_col;
} PtoStall;
size_t pto_launch_stall_count(const PtoLaunch *l);
int pto_launch_stall(const PtoLaunch *l, size_t i, PtoStall *out);

/* Trace of every executed op, for Perfetto / chrome://tracing: off by default; turning it on changes no
   result. The JSON is malloc'd (pto_free); NULL when the run recorded none or memory ran out. While a launch
   runs, the events of its committed blocks go to unnamed temporary files (tmpfile; in memory when none can be
   made), so memory holds only the blocks in flight. */
void pto_launch_set_trace(PtoLaunch *l, int on);
char *pto_launch_trace_json(const PtoLaunch *l);
/* The same JSON, byte for byte, handed to `write` in pieces of about 64 KiB, in order (never all of it in
   memory): 0, or -1 when no trace was recorded, memory ran out, the temporary files could not be read or
   `write` returned nonzero (which stops the writing). */
typedef int (*PtoWriteFn)(void *user, const char *data, size_t n);
int pto_launch_write_trace(const PtoLaunch *l, PtoWriteFn write, void *user);

/* Per-line profile: off by default. Lines ranked by cycles + stall cycles, largest first. */
void pto_launch_set_profile(PtoLaunch *l, int on);
typedef struct PtoProfileLine {
    const char *file;
    unsigned line;
    const char *op;                    /* the first op on the line */
    uint64_t cycles;                   /* cycles its ops executed */
    uint64_t stall;                    /* cycles its ops waited */
    uint64_t count;                    /* executions */
} PtoProfileLine;
size_t pto_launch_profile_count(const PtoLaunch *l);
int pto_launch_profile_line(const PtoLaunch *l, size_t i, PtoProfileLine *out);
/* Innermost loops of vector scopes, as the timing model schedules them. */
typedef struct PtoLoopTime {
    const char *file;
    unsigned line;                     /* the scf.for */
    uint32_t ii;                       /* cycles per iteration (a fractional II rounded up) */
    uint32_t latency;                  /* critical path of one iteration */
    const char *bound;                 /* what sets ii: "issue width", "load/store ports", ... */
    uint64_t iterations;               /* executed (profile runs only; 0 otherwise) */
} PtoLoopTime;
size_t pto_launch_loop_count(const PtoLaunch *l);
int pto_launch_loop(const PtoLaunch *l, size_t i, PtoLoopTime *out);

/* ---- op reference ----
   The ops of the op table: pto_op_count() rows, pto_op_name(i) the spelling of row i (static; an op written
   in several forms has one row per form, under one spelling). pto_op_reference describes the op spelled `name`
   (or an alias of it): what its family does, its pipe, targets, aliases, the syntax and operands of each form
   (type classes, address spaces, documented field widths), its element types, and the section of
   docs/semantics.md that reads it — the entry `ptosim help OP` prints and docs/ops.md lists. malloc'd
   (pto_free); NULL for an unknown name or when out of memory. */
size_t pto_op_count(void);
const char *pto_op_name(size_t i);
char *pto_op_reference(PtoContext *ctx, const char *name);

/* ---- reports of the last run ----
   The timing model's view of the last run as one JSON document (schema: docs/stats.schema.json): totals, per
   core and pipe busy and stalled cycles by cause, bytes, every waiting op with its releaser, the vector loops,
   and with the profile on (pto_launch_set_profile) the per-line profile. malloc'd (pto_free); NULL before a
   run or when out of memory. */
char *pto_launch_stats_json(const PtoLaunch *l);
/* One self-contained HTML page (inline CSS and script, no network): the timeline per core and pipe (with
   the trace on), the waits, the kernel's source annotated with the profile's cycles (with the profile on) and
   the vector loops. malloc'd (pto_free); NULL before a run or when out of memory. */
char *pto_launch_report_html(const PtoLaunch *l);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
