/* main.c — the ptosim command-line tool. Uses only the public API (ptosim.h).
 *   ptosim check FILE... [-t TARGET]
 *   ptosim fmt FILE [-o OUT] [--generic]
 *   ptosim run KERNEL.pto [-t TARGET] [-e ENTRY] [-b BLOCKS] [-q] ARG...
 * Exit status: 0 ok, 1 parse/verify errors, 2 usage or I/O error, 3 run-time trap. */
#include "ptosim.h"
#include "cli.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int use_color(void) { return isatty(2) && !getenv("NO_COLOR"); }

void cli_print_diags(PtoContext *ctx, size_t from)
{
    int color = use_color();
    for (size_t i = from; i < pto_diag_count(ctx); i++) {
        char *s = pto_diag_render(ctx, i, color);
        fputs(s, stderr);
        pto_free(s);
    }
}

static void usage(FILE *f)
{
    fputs("usage: ptosim check FILE... [-t a5|a2a3|cpu]\n"
          "       ptosim fmt FILE [-o OUT] [--generic] [-t TARGET]\n"
          "       ptosim run KERNEL.pto [-t a5|a2a3|cpu] [-e ENTRY] [-b BLOCKS] [-q] [--steps N] [--no-race]\n"
          "                  [--vag-loops] ARG...\n"
          "         one ARG per kernel parameter: pointer INIT[:OUT] with INIT = PATH (raw or .npy) |\n"
          "         zeros:BYTES | fill:BYTES:BYTEVALUE; scalar: a literal (128, -3, 0x40, 1.5)\n"
          "exit status: 0 ok, 1 parse/verify errors, 2 usage or I/O error, 3 run-time trap\n", f);
}

int cli_usage_error(const char *fmt, const char *arg)
{
    fputs("ptosim: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs(" [E-USAGE]\n", stderr);
    usage(stderr);
    return 2;
}

int cli_parse_target(const char *s, PtoTarget *t)
{
    if (pto_target_from_name(s, t) != 0) return cli_usage_error("unknown target '%s' (expected a5, a2a3 or cpu)", s);
    return 0;
}

/* Parses and verifies one file; returns the module (or NULL) and sets *status to 0/1/2. */
PtoModule *cli_load(PtoContext *ctx, const char *path, PtoTarget target, int *status)
{
    size_t before = pto_error_count(ctx), d0 = pto_diag_count(ctx);
    PtoModule *m = pto_parse_file(ctx, path);
    if (!m) {
        cli_print_diags(ctx, d0);
        *status = 2;
        return NULL;
    }
    if (pto_error_count(ctx) == before) pto_verify(m, target);
    cli_print_diags(ctx, d0);
    *status = pto_error_count(ctx) > before ? 1 : 0;
    return m;
}

static int cmd_check(int argc, char **argv)
{
    PtoTarget target = PTO_TARGET_DEFAULT;
    const char *files[256];
    int nf = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-t") || !strcmp(argv[i], "--target")) {
            if (i + 1 >= argc) return cli_usage_error("%s needs a target", argv[i]);
            if (cli_parse_target(argv[++i], &target)) return 2;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error("unknown option '%s'", argv[i]);
        } else if (nf < 256) {
            files[nf++] = argv[i];
        }
    }
    if (!nf) return cli_usage_error("%s", "check needs at least one FILE");
    int worst = 0;
    PtoContext *ctx = pto_context_new();
    if (!ctx) return 2;
    for (int i = 0; i < nf; i++) {
        int st;
        PtoModule *m = cli_load(ctx, files[i], target, &st);
        if (st > worst) worst = st;
        pto_module_free(m);
    }
    pto_context_free(ctx);
    return worst;
}

static int cmd_fmt(int argc, char **argv)
{
    PtoTarget target = PTO_TARGET_DEFAULT;
    const char *file = NULL, *out = NULL;
    int generic = 0, noverify = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-o")) {
            if (i + 1 >= argc) return cli_usage_error("%s needs a file name", argv[i]);
            out = argv[++i];
        } else if (!strcmp(argv[i], "--generic")) {
            generic = 1;
        } else if (!strcmp(argv[i], "--no-verify")) {
            noverify = 1;
        } else if (!strcmp(argv[i], "-t")) {
            if (i + 1 >= argc) return cli_usage_error("%s needs a target", argv[i]);
            if (cli_parse_target(argv[++i], &target)) return 2;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error("unknown option '%s'", argv[i]);
        } else if (!file) {
            file = argv[i];
        } else {
            return cli_usage_error("fmt takes one FILE, got '%s' too", argv[i]);
        }
    }
    if (!file) return cli_usage_error("%s", "fmt needs a FILE");
    PtoContext *ctx = pto_context_new();
    if (!ctx) return 2;
    int st = 0;
    PtoModule *m;
    if (noverify) {
        m = pto_parse_file(ctx, file);
        st = !m ? 2 : pto_error_count(ctx) ? 1 : 0;
        cli_print_diags(ctx, 0);
    } else {
        m = cli_load(ctx, file, target, &st);
    }
    if (m && st == 0) {
        char *text = pto_print(m, generic);
        FILE *f = out ? fopen(out, "w") : stdout;
        if (!f) {
            fprintf(stderr, "ptosim: error: cannot write '%s' [E-IO-WRITE]\n", out);
            st = 2;
        } else {
            fputs(text, f);
            if (out && fclose(f) != 0) {
                fprintf(stderr, "ptosim: error: cannot write '%s' [E-IO-WRITE]\n", out);
                st = 2;
            }
        }
        pto_free(text);
    }
    pto_module_free(m);
    pto_context_free(ctx);
    return st;
}

int main(int argc, char **argv)
{
    if (argc < 2) { usage(stderr); return 2; }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "check")) return cmd_check(argc - 2, argv + 2);
    if (!strcmp(cmd, "fmt")) return cmd_fmt(argc - 2, argv + 2);
    if (!strcmp(cmd, "run")) return cli_run(argc - 2, argv + 2);
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) { usage(stdout); return 0; }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) { puts("ptosim 0.1 (PTO ISA v0.6 micro-instruction surface)"); return 0; }
    return cli_usage_error("unknown command '%s'", cmd);
}
