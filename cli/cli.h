/* cli.h — pieces of the command-line tool shared between main.c and cli_run.c (not part of the library). */
#ifndef PTOSIM_CLI_H
#define PTOSIM_CLI_H
#include "ptosim.h"
#include <stdio.h>
void cli_print_diags(PtoContext *ctx, size_t from);
int cli_usage_error(const char *fmt, const char *arg);
int cli_parse_target(const char *s, PtoTarget *t);
PtoModule *cli_load(PtoContext *ctx, const char *path, PtoTarget target, int *status);
int cli_run(int argc, char **argv);
/* report.c: the performance view */
int cli_load_timing(PtoLaunch *l, PtoContext *ctx, const char *path);
int cli_write_trace(const PtoLaunch *l, const char *path);
void cli_print_stats(const PtoLaunch *l, FILE *out);
void cli_print_profile(const PtoLaunch *l, FILE *out);
#endif
