/* opt.c — the table-driven option parser behind every subcommand, and the --help / --list-options
 * text generated from the same table.
 *
 * Accepted forms: `--name=VALUE`, `--name VALUE`, `-xVALUE`, `-x VALUE`, clustered short flags (`-qv`),
 * `--` (every later word is an operand) and `-` (an operand: standard input). Options and operands
 * may be interleaved. */
#include "cli.h"
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int cli_usage_error(const CliCmd *cmd, const char *fmt, ...)
{
    va_list ap;
    const char *name = cmd ? cmd->name : "";
    fprintf(stderr, "ptosim%s%s: error: ", *name ? " " : "", name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " [E-USAGE]\nTry 'ptosim %s%s--help'.\n", name, *name ? " " : "");
    return 2;
}

int cli_parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)*s)) return -1;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end || errno) return -1;
    *out = v;
    return 0;
}

const char *cli_num(char buf[48], uint64_t v)
{
    if (v < 1024) snprintf(buf, 48, "%" PRIu64, v);
    else snprintf(buf, 48, "%" PRIu64 " (0x%" PRIx64 ")", v, v);
    return buf;
}

/* "-3", "-0x10", "-.5", "-inf", "-infinity", "-nan" (any case): a negative number, not an option. */
static int negative_number(const char *a)
{
    if (isdigit((unsigned char)a[1]) || a[1] == '.') return 1;
    static const char *const names[] = {"inf", "infinity", "nan"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        const char *p = a + 1, *q = names[k];
        while (*p && *q && tolower((unsigned char)*p) == *q) p++, q++;
        if (!*p && !*q) return 1;
    }
    return 0;
}

/* Edit distance between two short strings (for "did you mean"); large when either is long. */
static size_t distance(const char *a, size_t n, const char *b)
{
    size_t m = strlen(b), row[64];
    if (n >= 63 || m >= 63) return 99;
    for (size_t j = 0; j <= m; j++) row[j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[m];
}

static int unknown_long(const CliCmd *cmd, const char *name, size_t n)
{
    const char *best = NULL;
    size_t bd = 3;
    for (size_t k = 0; k < cmd->nopts; k++) {
        const char *cand = cmd->opts[k].name;
        if (!cand) continue;
        size_t d = distance(name, n, cand);
        if (n >= 3 && !strncmp(cand, name, n)) d = 1;   /* an abbreviation */
        if (d < bd) { bd = d; best = cand; }
    }
    if (best) return cli_usage_error(cmd, "unknown option '--%.*s' (did you mean '--%s'?)", (int)n, name, best);
    return cli_usage_error(cmd, "unknown option '--%.*s'", (int)n, name);
}

static int apply(const CliCmd *cmd, const CliOpt *o, CliArgs *a, const char *v)
{
    int rc = o->apply(a, v);
    if (rc) return rc;
    if (a->help) { opt_help(cmd, stdout); return 1; }
    if (a->list_options) { opt_list(cmd, stdout); return 1; }
    return 0;
}

int opt_parse(const CliCmd *cmd, int argc, char **argv, CliArgs *a)
{
    a->cmd = cmd;
    a->operands = calloc((size_t)argc + 1, sizeof *a->operands);
    if (!a->operands) return 2;
    for (int i = 0; i < argc; i++) {
        char *w = argv[i];
        if (!strcmp(w, "--")) {
            while (++i < argc) a->operands[a->noperands++] = argv[i];
            break;
        }
        if (w[0] != '-' || !w[1] || (cmd->negative_operands && negative_number(w))) {
            a->operands[a->noperands++] = w;
            continue;
        }
        if (w[1] == '-') {
            const char *name = w + 2, *eq = strchr(name, '=');
            size_t n = eq ? (size_t)(eq - name) : strlen(name);
            const CliOpt *o = NULL;
            for (size_t k = 0; k < cmd->nopts && !o; k++)
                if (cmd->opts[k].name && strlen(cmd->opts[k].name) == n && !strncmp(cmd->opts[k].name, name, n)) o = &cmd->opts[k];
            if (!o) return unknown_long(cmd, name, n);
            const char *v = NULL;
            if (!o->value && eq) return cli_usage_error(cmd, "option '--%s' takes no value", o->name);
            if (o->value) {
                if (eq) v = eq + 1;
                else if (i + 1 < argc) v = argv[++i];
                else return cli_usage_error(cmd, "option '--%s' needs a value (%s)", o->name, o->value);
            }
            int rc = apply(cmd, o, a, v);
            if (rc) return rc;
            continue;
        }
        for (const char *p = w + 1; *p; p++) {
            const CliOpt *o = NULL;
            for (size_t k = 0; k < cmd->nopts && !o; k++)
                if (cmd->opts[k].shortname == *p) o = &cmd->opts[k];
            if (!o) {
                if (p == w + 1 && w[2]) return cli_usage_error(cmd, "unknown option '%s' (long options start with '--')", w);
                return cli_usage_error(cmd, "unknown option '-%c'", *p);
            }
            const char *v = NULL;
            if (o->value) {
                if (p[1]) v = p + 1;
                else if (i + 1 < argc) v = argv[++i];
                else return cli_usage_error(cmd, "option '-%c' needs a value (%s)", *p, o->value);
            }
            int rc = apply(cmd, o, a, v);
            if (rc) return rc;
            if (v) break;
        }
    }
    return 0;
}

/* "-t, --target=TARGET", "    --steps=N", "-W WARNING" */
static int opt_spelling(const CliOpt *o, char *buf, size_t n)
{
    if (o->shortname && o->name) return snprintf(buf, n, "-%c, --%s%s%s", o->shortname, o->name, o->value ? "=" : "", o->value ? o->value : "");
    if (o->name) return snprintf(buf, n, "    --%s%s%s", o->name, o->value ? "=" : "", o->value ? o->value : "");
    return snprintf(buf, n, "-%c%s%s", o->shortname, o->value ? " " : "", o->value ? o->value : "");
}

/* Prints `text` from column `col` on, wrapped before column 100, continuation lines indented to `indent`
   (a '\n' in the text starts a new line). */
static void wrap(FILE *f, const char *text, int col, int indent)
{
    const char *p = text;
    while (*p) {
        const char *w = p;
        while (*w && *w != ' ' && *w != '\n') w++;
        int len = (int)(w - p);
        if (col > indent && col + 1 + len > 100) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', f);
            col++;
        }
        fprintf(f, "%.*s", len, p);
        col += len;
        p = w;
        if (*p == '\n') { fprintf(f, "\n%*s", indent, ""); col = indent; }
        while (*p == ' ' || *p == '\n') p++;
    }
    fputc('\n', f);
}

void opt_help(const CliCmd *cmd, FILE *f)
{
    fprintf(f, "usage: ptosim %s%s[OPTION]... %s\n", cmd->name, *cmd->name ? " " : "", cmd->operands);
    wrap(f, cmd->summary, 0, 0);
    fputs("\noptions:\n", f);
    int width = 0;
    char buf[128];
    for (size_t k = 0; k < cmd->nopts; k++) {
        int n = opt_spelling(&cmd->opts[k], buf, sizeof buf);
        if (n > width) width = n;
    }
    if (width > 24) width = 24;
    for (size_t k = 0; k < cmd->nopts; k++) {
        int n = opt_spelling(&cmd->opts[k], buf, sizeof buf);
        fprintf(f, "  %s", buf);
        if (n > width) fprintf(f, "\n%*s", width + 4, "");
        else fprintf(f, "%*s", width - n + 2, "");
        wrap(f, cmd->opts[k].help, width + 4, width + 4);
    }
    if (cmd->subcommands) {
        fputs("\ncommands:\n", f);
        for (const CliCmd *const *c = cmd->subcommands; *c; c++) fprintf(f, "  %-8s%s\n", (*c)->name, (*c)->brief);
    }
    if (cmd->details) {
        fputc('\n', f);
        fputs(cmd->details, f);
    }
}

void opt_list(const CliCmd *cmd, FILE *f)
{
    for (size_t k = 0; k < cmd->nopts; k++) {
        const CliOpt *o = &cmd->opts[k];
        if (o->shortname) fprintf(f, "-%c%s", o->shortname, o->name ? " " : "");
        if (o->name) fprintf(f, "--%s", o->name);
        fprintf(f, "%s%s\n", o->value ? " " : "", o->value ? o->value : "");
    }
}
