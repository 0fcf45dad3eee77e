/* dump.c — `ptosim run --dump [bN.][CORE.]SPACE:OFFSET:BYTES[:FILE[:TYPE]]`: on-chip memory of the last
 * block that ran, written after the run (or the trap) as raw bytes, a .npy of TYPE elements, or a hex
 * dump. The spec and its output file are checked before the run; the block, the core and the range
 * against the space's size after it (pto_launch_mem knows them only then). */
#include "cli.h"
#include "npy.h"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct DumpType { const char *name, *descr; unsigned size; } DumpType;

/* numpy has no bf16: its bits travel as u16, as for run's .npy outputs */
static const DumpType dump_types[] = {
    {"i8", "|i1", 1}, {"u8", "|u1", 1}, {"i16", "<i2", 2}, {"u16", "<u2", 2}, {"i32", "<i4", 4}, {"u32", "<u4", 4},
    {"i64", "<i8", 8}, {"u64", "<u8", 8}, {"f16", "<f2", 2}, {"bf16", "<u2", 2}, {"f32", "<f4", 4}, {"f64", "<f8", 8},
};

struct CliDump {
    const char *spec;
    long block;                /* -1: not given */
    const char *core;          /* NULL: the owner of the space */
    char space[8];
    uint64_t offset, bytes;
    char *file;                /* NULL: hex dump */
    const DumpType *type;
};

static const DumpType *find_type(const char *name)
{
    for (size_t k = 0; k < sizeof dump_types / sizeof dump_types[0]; k++)
        if (!strcmp(dump_types[k].name, name)) return &dump_types[k];
    return NULL;
}

static int parse_selector(CliArgs *a, CliDump *d, char *sel)
{
    static const char *const spaces[] = {"ub", "l1", "l0a", "l0b", "l0c", "bt", "fb"};
    char *space = strrchr(sel, '.');
    space = space ? space + 1 : sel;
    for (char *part = sel, *dot; part < space; part = dot + 1) {
        dot = strchr(part, '.');
        *dot = 0;
        uint64_t n;
        if (part[0] == 'b' && !cli_parse_u64(part + 1, &n) && n < 65536) d->block = (long)n;
        else if (!strcmp(part, "aic")) d->core = "aic";
        else if (!strcmp(part, "aiv0") || !strcmp(part, "aiv")) d->core = "aiv0";
        else if (!strcmp(part, "aiv1")) d->core = "aiv1";
        else return cli_usage_error(a->cmd, "--dump '%s': unknown selector '%s' (expected bN, aic, aiv0, aiv1 or aiv)", d->spec, part);
    }
    for (size_t k = 0; k < sizeof spaces / sizeof spaces[0]; k++)
        if (!strcmp(space, spaces[k])) {
            snprintf(d->space, sizeof d->space, "%s", space);
            return 0;
        }
    return cli_usage_error(a->cmd, "--dump '%s': unknown space '%s' (expected ub, l1, l0a, l0b, l0c, bt or fb)", d->spec, space);
}

static int parse_spec(CliArgs *a, CliDump *d, char *s)
{
    char *f[3], *rest = s;
    for (int k = 0; k < 3; k++) {
        f[k] = rest;
        rest = rest ? strchr(rest, ':') : NULL;
        if (rest) *rest++ = 0;
    }
    if (!f[1] || !f[2]) return cli_usage_error(a->cmd, "--dump '%s': expected [bN.][CORE.]SPACE:OFFSET:BYTES[:FILE[:TYPE]]", d->spec);
    if (parse_selector(a, d, f[0])) return 2;
    if (cli_parse_u64(f[1], &d->offset)) return cli_usage_error(a->cmd, "--dump '%s': bad offset '%s'", d->spec, f[1]);
    if (cli_parse_u64(f[2], &d->bytes) || d->bytes == 0 || d->bytes > (1u << 30))
        return cli_usage_error(a->cmd, "--dump '%s': bad byte count '%s' (1 to 1073741824 (0x40000000))", d->spec, f[2]);
    d->type = &dump_types[1];
    if (!rest) return 0;
    char *colon = strrchr(rest, ':');
    /* FILE.npy:WORD — WORD is the TYPE and must be one (it never becomes part of the file name) */
    if (colon && !find_type(colon + 1) && colon - rest >= 4 && !strncmp(colon - 4, ".npy", 4)) {
        char known[160];
        size_t k = 0;
        for (size_t i = 0; i < sizeof dump_types / sizeof dump_types[0] && k + 16 < sizeof known; i++)
            k += (size_t)snprintf(known + k, sizeof known - k, "%s%s", i ? ", " : "", dump_types[i].name);
        return cli_usage_error(a->cmd, "--dump '%s': unknown element type '%s' (one of %s)", d->spec, colon + 1, known);
    }
    if (colon && find_type(colon + 1)) {
        d->type = find_type(colon + 1);
        *colon = 0;
        size_t n = strlen(rest);
        if (n < 4 || strcmp(rest + n - 4, ".npy"))
            return cli_usage_error(a->cmd, "--dump '%s': an element type applies to a .npy FILE only", d->spec);
    }
    if (!*rest) return cli_usage_error(a->cmd, "--dump '%s': empty FILE", d->spec);
    if (d->bytes % d->type->size)
        return cli_usage_error(a->cmd, "--dump '%s': %" PRIu64 " bytes are not a whole number of %s elements", d->spec, d->bytes, d->type->name);
    d->file = strdup(rest);
    return d->file ? 0 : 2;
}

int cli_dump_add(CliArgs *a, const char *spec)
{
    CliDump *nd = realloc(a->dumps, (a->ndumps + 1) * sizeof *nd);
    if (!nd) return 2;
    a->dumps = nd;
    CliDump *d = &nd[a->ndumps++];
    memset(d, 0, sizeof *d);
    d->spec = spec;
    d->block = -1;
    char *s = strdup(spec);
    int rc = s ? parse_spec(a, d, s) : 2;
    free(s);
    return rc;
}

int cli_dump_check(CliArgs *a)
{
    for (unsigned k = 0; k < a->ndumps; k++) {
        if (a->dumps[k].block >= (long)a->blocks)
            return cli_error(&a->diag, "E-USAGE", "--dump '%s': block %ld does not exist (the launch has %u block(s))", a->dumps[k].spec,
                             a->dumps[k].block, a->blocks);
        int e = a->dumps[k].file ? cli_writable(a->dumps[k].file) : 0;
        if (e) return cli_error(&a->diag, "E-IO-WRITE", "--dump '%s': cannot write '%s': %s", a->dumps[k].spec, a->dumps[k].file, strerror(e));
    }
    return 0;
}

static void hexdump(FILE *f, const uint8_t *p, uint64_t base, uint64_t n)
{
    for (uint64_t i = 0; i < n; i += 16) {
        fprintf(f, "%08" PRIx64 " ", base + i);
        for (uint64_t j = i; j < i + 16; j++) {
            if (j % 8 == 0) fputc(' ', f);
            if (j < n) fprintf(f, "%02x ", p[j]);
            else fputs("   ", f);
        }
        fputs(" |", f);
        for (uint64_t j = i; j < i + 16 && j < n; j++) fputc(p[j] >= 0x20 && p[j] < 0x7F ? p[j] : '.', f);
        fputs("|\n", f);
    }
}

static int dump_one(CliArgs *a, const CliDump *d, PtoLaunch *l)
{
    PtoMemView v;
    int r = pto_launch_mem(l, d->core, d->space, &v);
    if (r == -2) return cli_error(&a->diag, "E-USAGE", "--dump '%s': this kernel has no core %s (a vector kernel runs aiv0, a cube kernel aic)", d->spec, d->core);
    if (r) return cli_error(&a->diag, "E-USAGE", "--dump '%s': no memory to dump (the kernel did not run)", d->spec);
    if (d->block >= 0 && (unsigned long)d->block != v.block)
        return cli_error(&a->diag, "E-USAGE", "--dump '%s': only the last block that ran, block %u, can be dumped", d->spec, v.block);
    char o1[48], o2[48], o3[48];
    if (d->offset > v.size || d->bytes > v.size - d->offset)
        return cli_error(&a->diag, "E-USAGE", "--dump '%s': offset %s + %s bytes is past the end of %s (%s bytes)", d->spec,
                         cli_num(o1, d->offset), cli_num(o2, d->bytes), d->space, cli_num(o3, v.size));
    const uint8_t *p = v.data + d->offset;
    if (!d->file) {
        FILE *f = cli_dump_stream(&a->diag);
        fprintf(f, "%s.%s of block %u, offset %s, %s bytes:\n", v.core, d->space, v.block, cli_num(o1, d->offset), cli_num(o2, d->bytes));
        hexdump(f, p, d->offset, d->bytes);
        return 0;
    }
    size_t n = strlen(d->file);
    int ok;
    errno = 0;
    if (n >= 4 && !strcmp(d->file + n - 4, ".npy")) {
        uint64_t shape[1] = {d->bytes / d->type->size};
        ok = npy_write(d->file, d->type->descr, shape, 1, p, d->bytes) == 0;
    } else {
        ok = cli_out_write(d->file, p, d->bytes) == 0;
    }
    if (!ok) return cli_error(&a->diag, "E-IO-WRITE", "--dump '%s': cannot write '%s': %s", d->spec, d->file, strerror(errno ? errno : EIO));
    return 0;
}

int cli_dump_write(CliArgs *a, PtoLaunch *l)
{
    int rc = 0;
    for (unsigned k = 0; k < a->ndumps; k++) rc |= dump_one(a, &a->dumps[k], l);
    return rc;
}

void cli_dump_free(CliArgs *a)
{
    for (unsigned k = 0; k < a->ndumps; k++) free(a->dumps[k].file);
    free(a->dumps);
    a->dumps = NULL;
    a->ndumps = 0;
}
