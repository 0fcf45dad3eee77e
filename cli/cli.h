/* cli.h — pieces of the command-line tool shared between its files (not part of the library).
 *
 * Every subcommand is described by one CliCmd: its operands, a one-line summary and an option table
 * (CliOpt rows). The same table drives the parser (opt.c) and `--help` / `--list-options`, so the two
 * cannot drift apart; a new option is one new row plus the function that applies it. */
#ifndef PTOSIM_CLI_H
#define PTOSIM_CLI_H
#include "ptosim.h"
#include <stdint.h>
#include <stdio.h>

#define CLI_VERSION "0.1"

/* ---- how diagnostics are reported (diag_out.c) ---- */
typedef enum { CLI_FMT_TEXT, CLI_FMT_JSON, CLI_FMT_SARIF } CliFormat;

typedef struct CliOut {
    CliFormat fmt;
    char *sarif;               /* SARIF results gathered until cli_out_finish */
    size_t sarif_len, sarif_cap;
    size_t nresults;
} CliOut;

/* Reports the library diagnostics from index `from` on (text: stderr; json/sarif: stdout). */
void cli_print_diags(CliOut *o, PtoContext *ctx, size_t from);
/* Reports an error found by the CLI itself (no source location); returns 2 (the exit status). */
int cli_error(CliOut *o, const char *id, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Writes what the format still holds back (the SARIF log, with the command's exit status) and frees it. */
void cli_out_finish(CliOut *o, int exit_status);
/* Where hex dumps go: stdout, or stderr when stdout carries json/sarif diagnostics. */
FILE *cli_dump_stream(const CliOut *o);

/* ---- option values of every subcommand, filled by the option table ---- */
typedef struct CliDump CliDump;

typedef struct CliArgs {
    const struct CliCmd *cmd;
    char **operands;           /* non-option arguments, in order */
    int noperands;
    int help, list_options, version;
    PtoTarget target;
    const char *entry;
    unsigned blocks;
    unsigned jobs;             /* --jobs; 0 = the library's default (one per CPU) */
    int quiet, race, vag_loops, tile_op_expand, strict_gm, no_fast;
    int flag_key, flag_lossy;      /* --flag-key (PtoFlagKey), --flag-model=lossy */
    uint64_t steps;
    uint64_t max_memory;       /* --max-memory (0: the library's default) */
    uint64_t host_bytes;       /* bytes of the buffers loaded so far */
    const char *out;
    int generic, no_verify;
    CliOut diag;
    CliDump *dumps;            /* --dump, in command-line order */
    unsigned ndumps;
    const char *trace, *timing;    /* --trace FILE, --timing FILE */
    const char *warn[64];      /* -W settings in command-line order: "error", "error=ID", "no-ID"; "" = -w */
    unsigned nwarn;
    int stats, profile;
    int stats_json;            /* --stats-format=json (or a --stats-file ending in .json) */
    int stats_format_set;
    size_t top;                /* --top N: profile lines shown (0: all) */
    const char *stats_file;    /* --stats-file FILE: stats and profile go there */
    const char *report;        /* --report FILE: the HTML report */
    int no_initcheck, no_unwritten;
} CliArgs;

typedef struct CliOpt {
    char shortname;            /* 0: long form only */
    const char *name;          /* long form without "--"; NULL: short form only */
    const char *value;         /* the value's name in --help ("TARGET"); NULL: a flag without value */
    const char *help;          /* one line for --help */
    int (*apply)(CliArgs *a, const char *value);   /* 0, or 2 after reporting a usage error */
} CliOpt;

typedef struct CliCmd {
    const char *name;          /* "" for the top level (`ptosim --help`) */
    const char *operands;      /* synopsis of the operands ("FILE...") */
    const char *brief;         /* a few words for the list of commands */
    const char *summary;       /* what the command does, for --help */
    const char *details;       /* text after the option list (operands, exit status), may be NULL */
    const CliOpt *opts;
    size_t nopts;
    int negative_operands;     /* "-3", "-1.5", "-inf" are operands, not options */
    int (*run)(CliArgs *a);
    const struct CliCmd *const *subcommands;   /* top level: listed by --help */
} CliCmd;

/* ---- opt.c ---- */
/* Parses argv (the words after the subcommand) against cmd's table. Returns 0 to go on, 1 when --help
   or --list-options was served (exit 0), 2 after a usage error. */
int opt_parse(const CliCmd *cmd, int argc, char **argv, CliArgs *a);
void opt_help(const CliCmd *cmd, FILE *f);
void opt_list(const CliCmd *cmd, FILE *f);
/* "ptosim CMD: error: MESSAGE [E-USAGE]" + a pointer to --help; returns 2. */
int cli_usage_error(const CliCmd *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cli_parse_u64(const char *s, uint64_t *out);   /* decimal or 0x hex, no sign; 0 on success */
/* The one number style of CLI messages: sizes and offsets in decimal, with the hex value in
   parentheses from 1024 on ("4096 (0x1000)"), where hex shows the alignment. */
const char *cli_num(char buf[48], uint64_t v);

/* ---- main.c ---- */
/* Reads the whole stream; 0, or an errno value (the buffer is then freed). */
int cli_read_all(FILE *f, uint8_t **data, size_t *size, uint64_t max);   /* EFBIG past max bytes */
/* Parses and verifies one file ("-": standard input); returns the module (or NULL) and sets *status to 0/1/2. */
PtoModule *cli_load(CliArgs *a, PtoContext *ctx, const char *path, int verify, int *status);

/* ---- case.c: `ptosim case`, handed to the Python driver ptosim.case (argv: the words after "case") ---- */
int cli_case(int argc, char **argv);

/* ---- run.c, dump.c ---- */
int cli_run(CliArgs *a);
int cli_dump_add(CliArgs *a, const char *spec);    /* --dump: parses and records one spec */
int cli_dump_check(CliArgs *a);                     /* before the run: output files writable */
int cli_dump_write(CliArgs *a, PtoLaunch *l);       /* after the run (or trap); 0 or 2 */
void cli_dump_free(CliArgs *a);
/* 0 when `path` can be written (created or replaced) without touching it, else an errno value. */
int cli_writable(const char *path);

/* ---- output files (outfile.c): written to a temporary in the same folder, renamed when complete ---- */
typedef struct CliOutFile { FILE *f; const char *path; char *tmp, *real; } CliOutFile;
/* Opens an output (mode "w"/"wb"); NULL with errno set. A FIFO or device is opened in place. */
FILE *cli_out_open(CliOutFile *o, const char *path, const char *mode);
/* Closes it: with ok and no write error, renames the temporary over the target (0); else removes the
   temporary, leaves the target as it was and returns -1 with errno set. */
int cli_out_close(CliOutFile *o, int ok);
/* The whole of data to path that way: 0, or -1 with errno set. */
int cli_out_write(const char *path, const void *data, size_t n);
/* Applies the -W/-w settings to a new context; 0, or 2 after a usage error (unknown warning ID). */
int cli_apply_warnings(CliArgs *a, PtoContext *ctx);

/* ---- the performance view (report.c) ---- */
/* Applies a --timing file to the launch; 0, or 2 after reporting. */
int cli_load_timing(CliArgs *a, PtoLaunch *l, PtoContext *ctx, const char *path);
/* Writes the recorded trace; 0, or 2 after reporting. */
int cli_write_trace(CliArgs *a, const PtoLaunch *l, const char *path);
void cli_print_stats(const PtoLaunch *l, FILE *out);
void cli_print_profile(const PtoLaunch *l, FILE *out, size_t top);   /* top: lines shown, 0 = all */
/* --stats / --profile output after a run: text or JSON, to --stats-file, else stdout, else (when stdout carries
   json or sarif diagnostics) stderr; 0, or 2 after reporting. */
int cli_write_stats(CliArgs *a, const PtoLaunch *l);
/* --report FILE: the HTML report; 0, or 2 after reporting. */
int cli_write_report(CliArgs *a, const PtoLaunch *l);
#endif
