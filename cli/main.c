/* main.c — the ptosim command-line tool: the subcommands, their option tables, check and fmt.
 * Uses only the public API (ptosim.h). `ptosim help` lists the commands, `ptosim help CMD` (or
 * `ptosim CMD --help`) describes one; the option tables below are the single source of both.
 * Exit status: 0 ok, 1 parse/verify errors, 2 usage or I/O error, 3 run-time trap. */
#include "cli.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ option handlers */

static int set_help(CliArgs *a, const char *v) { (void)v; a->help = 1; return 0; }
static int set_list(CliArgs *a, const char *v) { (void)v; a->list_options = 1; return 0; }
static int set_version(CliArgs *a, const char *v) { (void)v; a->version = 1; return 0; }
static int set_quiet(CliArgs *a, const char *v) { (void)v; a->quiet = 1; return 0; }
static int set_race(CliArgs *a, const char *v) { (void)v; a->race = 1; return 0; }
static int set_no_race(CliArgs *a, const char *v) { (void)v; a->race = 0; return 0; }
static int set_no_initcheck(CliArgs *a, const char *v) { (void)v; a->no_initcheck = 1; return 0; }
static int set_no_unwritten(CliArgs *a, const char *v) { (void)v; a->no_unwritten = 1; return 0; }
static int set_no_sanitize(CliArgs *a, const char *v) { (void)v; a->race = 0; a->no_initcheck = a->no_unwritten = 1; return 0; }
static int set_vag_loops(CliArgs *a, const char *v) { (void)v; a->vag_loops = 1; return 0; }
static int set_tile_op_expand(CliArgs *a, const char *v) { (void)v; a->tile_op_expand = 1; return 0; }
static int set_strict_gm(CliArgs *a, const char *v) { (void)v; a->strict_gm = 1; return 0; }
static int set_no_fast(CliArgs *a, const char *v) { (void)v; a->no_fast = 1; return 0; }
static int set_generic(CliArgs *a, const char *v) { (void)v; a->generic = 1; return 0; }
static int set_no_verify(CliArgs *a, const char *v) { (void)v; a->no_verify = 1; return 0; }
static int set_output(CliArgs *a, const char *v) { a->out = v; return 0; }
static int set_entry(CliArgs *a, const char *v) { a->entry = v[0] == '@' ? v + 1 : v; return 0; }
static int set_dump(CliArgs *a, const char *v) { return cli_dump_add(a, v); }
static int set_trace(CliArgs *a, const char *v) { a->trace = v; return 0; }

static int add_warn(CliArgs *a, const char *v)
{
    if (a->nwarn == sizeof a->warn / sizeof a->warn[0]) return cli_usage_error(a->cmd, "too many -W options%s", "");
    a->warn[a->nwarn++] = v;
    return 0;
}
static int set_W(CliArgs *a, const char *v)
{
    if (!*v) return cli_usage_error(a->cmd, "-W takes error, error=ID, no-ID or ID (e.g. -Werror=race, -Wno-deprecated, -Wflag-shared), not '%s'", v);
    return add_warn(a, v);
}
static int set_w(CliArgs *a, const char *v) { (void)v; return add_warn(a, ""); }

int cli_apply_warnings(CliArgs *a, PtoContext *ctx)
{
    for (unsigned i = 0; i < a->nwarn; i++) {
        const char *v = a->warn[i], *id = NULL;
        PtoWarnAction act;
        if (!*v) act = PTO_WARN_IGNORE;                              /* -w */
        else if (!strcmp(v, "error")) act = PTO_WARN_ERROR;         /* -Werror */
        else if (!strncmp(v, "error=", 6)) { act = PTO_WARN_ERROR; id = v + 6; }
        else if (!strncmp(v, "no-", 3)) { act = PTO_WARN_IGNORE; id = v + 3; }   /* -Wno-ID */
        else { act = PTO_WARN_ENABLE; id = v; }                      /* -WID: a warning off by default */
        if (pto_set_warning(ctx, id, act))
            return cli_usage_error(a->cmd, "unknown warning '%s' (a W-... ID such as W-RACE, or its short form race)", id);
    }
    return 0;
}
static int set_timing(CliArgs *a, const char *v) { a->timing = v; return 0; }
static int set_flag_key(CliArgs *a, const char *v)
{
    if (!strcmp(v, "src-dst-event")) a->flag_key = PTO_FLAG_KEY_SRC_DST_EVENT;
    else if (!strcmp(v, "pipe-event")) a->flag_key = PTO_FLAG_KEY_PIPE_EVENT;
    else if (!strcmp(v, "target")) a->flag_key = PTO_FLAG_KEY_TARGET;
    else return cli_usage_error(a->cmd, "unknown flag key '%s' (expected src-dst-event, pipe-event or target)", v);
    return 0;
}
static int set_flag_model(CliArgs *a, const char *v)
{
    if (!strcmp(v, "lossy")) a->flag_lossy = 1;
    else if (!strcmp(v, "delivered")) a->flag_lossy = 0;
    else return cli_usage_error(a->cmd, "unknown flag model '%s' (expected delivered or lossy)", v);
    return 0;
}
static int set_stats(CliArgs *a, const char *v) { (void)v; a->stats = 1; return 0; }
static int set_profile(CliArgs *a, const char *v) { (void)v; a->profile = 1; return 0; }
static int set_report(CliArgs *a, const char *v) { a->report = v; return 0; }
static int set_top(CliArgs *a, const char *v)
{
    uint64_t n;
    if (cli_parse_u64(v, &n) || n == 0) return cli_usage_error(a->cmd, "--top needs a positive line count, got '%s'", v);
    a->top = (size_t)n;
    a->profile = 1;
    return 0;
}
static int set_stats_file(CliArgs *a, const char *v)
{
    a->stats_file = v;
    a->stats = 1;
    size_t n = strlen(v);
    if (!a->stats_format_set) a->stats_json = n >= 5 && !strcmp(v + n - 5, ".json");
    return 0;
}
static int set_stats_format(CliArgs *a, const char *v)
{
    if (strcmp(v, "text") && strcmp(v, "json"))
        return cli_usage_error(a->cmd, "unknown stats format '%s' (expected text or json)", v);
    a->stats_json = !strcmp(v, "json");
    a->stats_format_set = 1;
    a->stats = 1;
    return 0;
}

static int set_target(CliArgs *a, const char *v)
{
    if (pto_target_from_name(v, &a->target) == 0) return 0;
    return cli_usage_error(a->cmd, "unknown target '%s' (expected a5, a2a3 or cpu)", v);
}

static int set_blocks(CliArgs *a, const char *v)
{
    uint64_t n;
    if (cli_parse_u64(v, &n) || n == 0 || n > 65535) return cli_usage_error(a->cmd, "--blocks needs a count in 1..65535, got '%s'", v);
    a->blocks = (unsigned)n;
    return 0;
}

static int set_jobs(CliArgs *a, const char *v)
{
    uint64_t n;
    if (cli_parse_u64(v, &n) || n == 0 || n > 256) return cli_usage_error(a->cmd, "--jobs needs a thread count in 1..256, got '%s'", v);
    a->jobs = (unsigned)n;
    return 0;
}

static int set_steps(CliArgs *a, const char *v)
{
    if (cli_parse_u64(v, &a->steps) || a->steps == 0) return cli_usage_error(a->cmd, "--steps needs a positive count, got '%s'", v);
    return 0;
}

/* BYTES, or a count with a K, M or G suffix (binary: 1K = 1024). */
static int set_max_memory(CliArgs *a, const char *v)
{
    char num[32];
    size_t n = strlen(v), sh = 0;
    const char *suf = "KMG";
    const char *k = n ? strchr(suf, v[n - 1]) : NULL;
    if (k && *k) sh = 10 * (size_t)(k - suf + 1), n--;
    uint64_t x;
    if (n == 0 || n >= sizeof num) x = 0;
    else {
        memcpy(num, v, n);
        num[n] = 0;
        if (cli_parse_u64(num, &x) || x > (UINT64_MAX >> sh)) x = 0;
    }
    if (x == 0) return cli_usage_error(a->cmd, "--max-memory needs a positive byte count (suffix K, M or G allowed), got '%s'", v);
    a->max_memory = x << sh;
    return 0;
}

static int set_diag_format(CliArgs *a, const char *v)
{
    static const char *const names[] = {"text", "json", "sarif"};
    for (int k = 0; k < 3; k++)
        if (!strcmp(v, names[k])) { a->diag.fmt = (CliFormat)k; return 0; }
    return cli_usage_error(a->cmd, "unknown diagnostics format '%s' (expected text, json or sarif)", v);
}

/* ------------------------------------------------------------------ option tables
 * A row each; rows shared by several subcommands are written once, here. */

#define OPT_TARGET {'t', "target", "TARGET", "target profile: a5, a2a3 or cpu (default: the module's pto.target_arch, else a5)", set_target}
#define OPT_DIAG_FORMAT {0, "diagnostics-format", "FORMAT", "text (default, on stderr), json (JSON Lines: one object per diagnostic) or sarif (one SARIF 2.1.0 log); json and sarif go to stdout", set_diag_format}
#define OPT_HELP {'h', "help", NULL, "show this help and exit", set_help}
#define OPT_LIST {0, "list-options", NULL, "print the accepted options, one per line (for scripts and shell completion), and exit", set_list}
#define OPT_W {'W', NULL, "WHAT", "-Werror: every warning is an error; -Werror=ID: that warning is; -Wno-ID: drop that warning; -WID: turn on a warning off by default (-Wflag-shared) (ID: W-RACE or race, W-DEPRECATED or deprecated, ...)", set_W}
#define OPT_NOWARN {'w', NULL, NULL, "report no warnings", set_w}

static const CliOpt check_opts[] = {OPT_TARGET, OPT_W, OPT_NOWARN, OPT_DIAG_FORMAT, OPT_HELP, OPT_LIST};

static const CliOpt fmt_opts[] = {
    {'o', "output", "FILE", "write the text to FILE instead of stdout ('-': stdout)", set_output},
    {0, "generic", NULL, "print pto ops in MLIR's generic form", set_generic},
    {0, "no-verify", NULL, "print a file that parses but does not verify", set_no_verify},
    OPT_TARGET, OPT_HELP, OPT_LIST,
};

static const CliOpt run_opts[] = {
    OPT_TARGET,
    {'e', "entry", "NAME", "the function to run (default: the only pto.kernel function, else the only function)", set_entry},
    {'b', "blocks", "N", "number of blocks to launch, 1..65535 (default 1)", set_blocks},
    {'j', "jobs", "N", "threads running the blocks, 1..256 (default: one per CPU); the results never depend on it", set_jobs},
    {'q', "quiet", NULL, "no summary line on stderr", set_quiet},
    {0, "steps", "N", "per-core step limit that stops runaway loops (default 200000000)", set_steps},
    {0, "max-memory", "BYTES", "limit on the run's buffers: host copies plus the simulated GM image; K, M, G suffixes (default 8G)", set_max_memory},
    {0, "race", NULL, "detect races between pipes, cores and blocks (W-RACE; the default)", set_race},
    {0, "no-race", NULL, "no race detection (faster)", set_no_race},
    {0, "no-initcheck", NULL, "do not report reads of on-chip bytes nothing wrote (W-UNINIT)", set_no_initcheck},
    {0, "no-unwritten", NULL, "do not report output bytes the kernel never wrote (W-UNWRITTEN)", set_no_unwritten},
    {0, "no-sanitize", NULL, "none of the checks above (the fastest run)", set_no_sanitize},
    {0, "no-fast-paths", NULL, "run every op on its reference handler, without the fast paths (same results, slower; for testing them)", set_no_fast},
    {0, "strict-gm", NULL, "a GM access that leaves its buffer traps T-OOB (default: it lands in the flat device GM and is reported, W-GM-OOB / W-GM-CLOBBER)", set_strict_gm},
    {0, "vag-loops", NULL, "pto.vag binds the iteration counts of its enclosing loops (default: they read 0)", set_vag_loops},
    {0, "tile-op-expand", NULL, "where the compiler's two tile lowerings disagree (textract into a right tile), follow its "
     "TileLib templates (ptoas --enable-tile-op-expand) instead of pto-isa", set_tile_op_expand},
    {0, "dump", "SPEC", "after the run (or a trap) write on-chip memory: [bN.][CORE.]SPACE:OFFSET:BYTES[:FILE[:TYPE]]; repeatable (see below)", set_dump},
    {0, "stats", NULL, "print the timing model's view: cycles, per core and pipe busy/stall cycles by cause, bandwidth, the longest waits (stdout; stderr when stdout carries json or sarif diagnostics)", set_stats},
    {0, "profile", NULL, "print source lines ranked by cycles and the vector loops' cycles per iteration and bound (where --stats goes)", set_profile},
    {0, "top", "N", "--profile shows the N costliest lines (implies --profile)", set_top},
    {0, "stats-format", "FORMAT", "text (default) or json (one document, docs/stats.schema.json; with --profile it holds the profile); implies --stats", set_stats_format},
    {0, "stats-file", "FILE", "write --stats and --profile to FILE ('-': stdout; a name ending in .json selects json); implies --stats", set_stats_file},
    {0, "trace", "FILE", "write a Chrome trace (JSON; open in Perfetto or chrome://tracing): a track per pipe, arrows from releases to waits", set_trace},
    {0, "report", "FILE", "write an HTML report (one offline file): timeline per core and pipe, waits, source annotated with cycles, loops", set_report},
    {0, "timing", "FILE", "apply a timing table (docs/timing.md) over the target's built-in one", set_timing},
    {0, "flag-key", "KEY", "what identifies a flag: src-dst-event, pipe-event, or target (the default: a5 src-dst-event, a2a3 pipe-event)", set_flag_key},
    {0, "flag-model", "MODEL", "delivered (the default: every set reaches its wait; a set the device may lose is W-FLAG-ALIAS) or lossy (a set while the flag is set is lost)", set_flag_model},
    OPT_W, OPT_NOWARN, OPT_DIAG_FORMAT, OPT_HELP, OPT_LIST,
};

/* `ptosim case`: the driver (python/ptosim/case.py) parses these; the table gives the help and the man page */
static int set_noop(CliArgs *a, const char *v) { (void)a; (void)v; return 0; }
static const CliOpt case_opts[] = {
    {0, "filter", "TEXT", "only cases whose path contains TEXT (repeatable)", set_noop},
    {'j', "jobs", "N", "cases run in parallel (default 1)", set_noop},
    {0, "keep", "DIR", "copy each case's work directory (data, host program, ptosim's outputs) under DIR", set_noop},
    {0, "stats", NULL, "print each launch's --stats after its case's line", set_noop},
    {0, "profile", NULL, "with --stats: the per-line profile too", set_noop},
    {0, "report", "DIR", "write an HTML report of each launch (ptosim run --report) into DIR", set_noop},
    {0, "ptosim", "FILE", "the ptosim to launch kernels with (default: this one)", set_noop},
    {0, "cxx", "FILE", "the host C++ compiler (default: $CXX, else g++)", set_noop},
    {'v', "verbose", NULL, "print the warnings of passing cases too", set_noop},
    OPT_HELP, OPT_LIST,
};

static const CliOpt top_opts[] = {
    OPT_HELP,
    {'V', "version", NULL, "print the version and exit", set_version},
    OPT_LIST,
};

#define N_OF(t) (sizeof t / sizeof t[0])

static int cmd_check(CliArgs *a);
static int cmd_fmt(CliArgs *a);

static const CliCmd check_cmd = {
    "check", "FILE...", "parse and verify kernels",
    "Parses and verifies each FILE ('-': standard input) and reports every problem found.",
    "exit status: 0 every file is valid, 1 an error was reported, 2 usage or I/O error\n",
    check_opts, N_OF(check_opts), 0, cmd_check, NULL,
};

static const CliCmd fmt_cmd = {
    "fmt", "FILE", "print a kernel in canonical form",
    "Prints FILE ('-': standard input) in canonical form; fmt(fmt(x)) == fmt(x). Nothing is printed "
    "when FILE has errors.",
    "exit status: 0 printed, 1 parse/verify errors, 2 usage or I/O error\n",
    fmt_opts, N_OF(fmt_opts), 0, cmd_fmt, NULL,
};

static const CliCmd run_cmd = {
    "run", "KERNEL.pto ARG...", "execute a kernel",
    "Runs a kernel ('-': read it from standard input) on the simulated machine, with one ARG per "
    "kernel parameter.",
    "arguments, one per kernel parameter in declaration order ('--' ends the options):\n"
    "  pointer parameter  INIT[:OUT]  INIT = FILE (raw bytes, or .npy checked against the element type),\n"
    "                     zeros:BYTES, or fill:BYTES:BYTEVALUE; OUT receives the buffer's final contents\n"
    "                     (.npy when the name ends in .npy), also after a trap\n"
    "  scalar parameter   a literal: 128, -3, 0x40, 1.5, 0x1.8p-3, inf, -inf, nan, true, false\n"
    "\n"
    "--dump [bN.][CORE.]SPACE:OFFSET:BYTES[:FILE[:TYPE]]\n"
    "  SPACE ub, l1, l0a, l0b, l0c, bt or fb; CORE aiv0, aiv1 (aiv = aiv0) or aic (default: the core that\n"
    "  owns SPACE); bN the block, which must be the last block that ran (the trapping one after a trap);\n"
    "  OFFSET and BYTES decimal or 0x hex. FILE receives the raw bytes, or a .npy of TYPE elements when it\n"
    "  ends in .npy (TYPE: i8 u8 i16 u16 i32 u32 i64 u64 f16 bf16 f32 f64, default u8); without FILE a hex\n"
    "  dump goes to stdout.\n"
    "\n"
    "exit status: 0 completed, 1 parse/verify errors, 2 usage or I/O error, 3 run-time trap,\n"
    "  4 completed, but a run-time warning was made an error by -Werror / -Werror=ID\n",
    run_opts, N_OF(run_opts), 1, cli_run, NULL,
};

static const CliCmd case_cmd = {
    "case", "DIR... [RUN OPTION]...", "validate case directories (as DEVICE=SIM does)",
    "Runs each PTOAS / PTO-Gym style case directory under the DIRs (kernel .pto, golden.py or gen_data.py, "
    "compare.py, main.cpp, launch.cpp; tile system tests with cases.py and st_common.py one level up) the way "
    "the vendor flow validates them on its simulator: the data script runs, the case's host program is built "
    "against ptosim's stand-in device runtime (each kernel launch runs ptosim run), and the case's compare "
    "script judges. One PASS/FAIL line per case, then 'N passed, M failed'. Needs python3 with numpy "
    "(PTOSIM_PYTHON picks another) and a C++17 compiler.",
    "Other options (--no-race, --no-initcheck, --strict-gm, -Werror, --timing FILE, ...) are passed to every\n"
    "ptosim run of the cases.\n"
    "\n"
    "exit status: 0 every case passed, 1 a case failed, 2 usage error or no case found\n",
    case_opts, N_OF(case_opts), 0, NULL, NULL,
};

static const CliCmd help_cmd = {"help", "[COMMAND | OP]", "describe a command (ptosim help run) or an op (ptosim help pto.vadd)", "", NULL, NULL, 0, 0, NULL, NULL};

static const CliCmd *const commands[] = {&check_cmd, &fmt_cmd, &run_cmd, &case_cmd, &help_cmd, NULL};

static const CliCmd top_cmd = {
    "", "COMMAND [ARG]...", "",
    "ptosim parses, verifies and runs PTO ISA v0.6 micro-instruction kernels on the CPU.",
    "exit status: 0 ok, 1 parse/verify errors, 2 usage or I/O error, 3 run-time trap\n",
    top_opts, N_OF(top_opts), 0, NULL, commands,
};

/* ------------------------------------------------------------------ loading */

int cli_read_all(FILE *f, uint8_t **data, size_t *size, uint64_t max)
{
    size_t cap = 65536, n = 0;
    uint8_t *b = malloc(cap);
    if (!b) return ENOMEM;
    errno = 0;
    for (;;) {
        if (n == cap) {
            uint8_t *nb = realloc(b, cap *= 2);
            if (!nb) { free(b); return ENOMEM; }
            b = nb;
        }
        size_t k = fread(b + n, 1, cap - n, f);
        n += k;
        if (!k) break;
        if (n > max) {   /* an endless stream (a device, a pipe) stops here */
            free(b);
            return EFBIG;
        }
    }
    if (ferror(f)) {
        int e = errno ? errno : EIO;
        free(b);
        return e;
    }
    *data = b;
    *size = n;
    return 0;
}

/* Bytes a kernel read from standard input may have: PTO_MAX_SOURCE_BYTES, less under a smaller --max-memory */
static uint64_t source_bound(const CliArgs *a)
{
    return a->max_memory && a->max_memory < PTO_MAX_SOURCE_BYTES ? a->max_memory : PTO_MAX_SOURCE_BYTES;
}

PtoModule *cli_load(CliArgs *a, PtoContext *ctx, const char *path, int verify, int *status)
{
    size_t before = pto_error_count(ctx), d0 = pto_diag_count(ctx);
    PtoModule *m;
    if (!strcmp(path, "-")) {
        uint8_t *text;
        size_t n;
        int e = cli_read_all(stdin, &text, &n, source_bound(a));
        if (e) {
            *status = cli_error(&a->diag, "E-IO-READ", "cannot read standard input: %s", strerror(e));
            return NULL;
        }
        m = pto_parse(ctx, "<stdin>", (const char *)text, n);
        free(text);
    } else {
        m = pto_parse_file(ctx, path);
    }
    if (!m) {
        cli_print_diags(&a->diag, ctx, d0);
        *status = 2;
        return NULL;
    }
    if (verify && pto_error_count(ctx) == before) pto_verify(m, a->target);
    cli_print_diags(&a->diag, ctx, d0);
    *status = pto_error_count(ctx) > before ? 1 : 0;
    return m;
}

/* ------------------------------------------------------------------ commands */

static int cmd_check(CliArgs *a)
{
    if (!a->noperands) return cli_usage_error(a->cmd, "check needs at least one FILE");
    int stdin_uses = 0;
    for (int i = 0; i < a->noperands; i++) stdin_uses += !strcmp(a->operands[i], "-");
    if (stdin_uses > 1) return cli_usage_error(a->cmd, "standard input ('-') can be read only once");
    PtoContext *ctx = pto_context_new();
    if (!ctx) return 2;
    if (cli_apply_warnings(a, ctx)) {
        pto_context_free(ctx);
        return 2;
    }
    int worst = 0;
    for (int i = 0; i < a->noperands; i++) {
        /* Checked as parsed: each nested module is verified and freed in turn (pto_check). */
        const char *path = a->operands[i];
        size_t d0 = pto_diag_count(ctx);
        long errors;
        int st;
        if (!strcmp(path, "-")) {
            uint8_t *text;
            size_t n;
            int e = cli_read_all(stdin, &text, &n, source_bound(a));
            if (e) {
                st = cli_error(&a->diag, "E-IO-READ", "cannot read standard input: %s", strerror(e));
                if (st > worst) worst = st;
                continue;
            }
            errors = pto_check(ctx, "<stdin>", (const char *)text, n, a->target);
            free(text);
        } else {
            errors = pto_check_file(ctx, path, a->target);
        }
        cli_print_diags(&a->diag, ctx, d0);
        st = errors < 0 ? 2 : errors > 0 ? 1 : 0;
        if (st > worst) worst = st;
    }
    pto_context_free(ctx);
    return worst;
}

static int cmd_fmt(CliArgs *a)
{
    if (a->noperands != 1)
        return a->noperands ? cli_usage_error(a->cmd, "fmt takes one FILE, got '%s' too", a->operands[1])
                            : cli_usage_error(a->cmd, "fmt needs a FILE");
    PtoContext *ctx = pto_context_new();
    if (!ctx) return 2;
    int st;
    PtoModule *m = cli_load(a, ctx, a->operands[0], !a->no_verify, &st);
    if (m && st == 0) {
        char *text = pto_print(m, a->generic);
        int to_stdout = !a->out || !strcmp(a->out, "-");
        int ok;   /* no text: the file stays as it was */
        errno = 0;
        if (!text) ok = 0;
        else if (to_stdout) ok = fputs(text, stdout) >= 0 && fflush(stdout) == 0;
        else ok = cli_out_write(a->out, text, strlen(text)) == 0;   /* a temporary, renamed when complete */
        if (!text) st = cli_error(&a->diag, "E-OOM", "%s", "out of memory printing the module");
        else if (!ok) st = cli_error(&a->diag, "E-IO-WRITE", "cannot write '%s': %s", to_stdout ? "<stdout>" : a->out, strerror(errno));
        pto_free(text);
    }
    pto_module_free(m);
    pto_context_free(ctx);
    return st;
}

static int print_help_of(const char *name)
{
    if (name[0] == '-') name = "help";   /* ptosim help --help */
    for (const CliCmd *const *c = commands; *c; c++)
        if (!strcmp((*c)->name, name) && (*c)->opts) { opt_help(*c, stdout); return 0; }
    if (!strcmp(name, "help")) { opt_help(&top_cmd, stdout); return 0; }
    PtoContext *ctx = pto_context_new();   /* not a command: an op of the op table (docs/ops.md) */
    char *ref = ctx ? pto_op_reference(ctx, name) : NULL;
    pto_context_free(ctx);
    if (ref) {
        fputs(ref, stdout);
        pto_free(ref);
        return 0;
    }
    return cli_usage_error(NULL, "'%s' is neither a command (check, fmt, run, case, help) nor an op of the op table "
                           "(docs/ops.md lists them)", name);
}

static int dispatch_version(void)
{
    printf("ptosim %s (PTO ISA v0.6 micro-instruction surface)\n", CLI_VERSION);
    return 0;
}

static int dispatch(int argc, char **argv)
{
    CliArgs a;
    memset(&a, 0, sizeof a);
    a.target = PTO_TARGET_DEFAULT;
    a.blocks = 1;
    a.race = 1;
    if (argc < 2) { opt_help(&top_cmd, stderr); return 2; }
    const char *name = argv[1];
    const CliCmd *cmd = NULL;
    for (const CliCmd *const *c = commands; *c && !cmd; c++)
        if (!strcmp((*c)->name, name) && (*c)->run) cmd = *c;
    if (!strcmp(name, "help"))
        return argc > 3 ? cli_usage_error(NULL, "help takes at most one COMMAND")
             : argc == 3 ? print_help_of(argv[2]) : print_help_of("help");
    if (!strcmp(name, "version")) return dispatch_version();
    if (!strcmp(name, "case")) {   /* help from the table; the run goes to the driver */
        for (int i = 2; i < argc && strcmp(argv[i], "--"); i++)
            if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) { opt_help(&case_cmd, stdout); return 0; }
            else if (!strcmp(argv[i], "--list-options")) { opt_list(&case_cmd, stdout); return 0; }
        return cli_case(argc - 2, argv + 2);
    }
    if (!cmd && name[0] != '-') return cli_usage_error(NULL, "unknown command '%s' (commands: check, fmt, run, case, help)", name);
    int rc = opt_parse(cmd ? cmd : &top_cmd, argc - 2 + !cmd, argv + 2 - !cmd, &a);
    if (!rc && a.version) rc = dispatch_version();
    else if (!rc && !cmd) rc = cli_usage_error(NULL, "%s", a.noperands ? "options go after the COMMAND" : "no COMMAND given");
    else if (!rc) {
        rc = cmd->run(&a);
        cli_out_finish(&a.diag, rc);
    }
    cli_dump_free(&a);
    free(a.operands);
    return rc == 1 && (a.help || a.list_options) ? 0 : rc;
}

/* Every write to stdout and stderr is checked once at the end (they are buffered, so a failed write shows as
   the stream's error flag or a failed flush): output lost to a closed pipe or a full disk is exit 2 with a
   message, never exit 0. SIGPIPE keeps its default action (a reader that went away ends the process). */
int main(int argc, char **argv)
{
    int rc = dispatch(argc, argv);
    int out_bad = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;
    int err_bad = fflush(stderr) != 0 || ferror(stderr);
    if (out_bad && rc != 2) {   /* a command that failed on it has said so */
        fprintf(stderr, "ptosim: error: cannot write to standard output: %s [E-IO-WRITE]\n", strerror(e ? e : EIO));
        return 2;
    }
    return out_bad || err_bad ? 2 : rc;
}
