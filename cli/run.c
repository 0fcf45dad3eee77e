/* run.c — `ptosim run KERNEL.pto [-t TARGET] [-e ENTRY] [-b BLOCKS] [-q] [--steps N] [--no-race] [--vag-loops] ARG...`
 * One ARG per kernel parameter: pointer INIT[:OUT] (INIT = PATH raw or .npy | zeros:BYTES |
 * fill:BYTES:BYTEVALUE; OUT receives the final contents, .npy when the name ends in .npy) or a scalar
 * literal. Exit: 0 completed, 1 parse/verify errors, 2 usage or I/O error, 3 run-time trap. */
#include "cli.h"
#include "npy.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

static int isdigit_first(const char *s) { return isdigit((unsigned char)s[0]); }

typedef struct Buf {
    uint8_t *data;
    size_t size;
    const char *out;
    int npy_in;
    Npy npy;
} Buf;

static int arg_error(const char *fmt, const char *a, const char *b)
{
    fputs("ptosim: error: ", stderr);
    fprintf(stderr, fmt, a, b);
    fputs("\n", stderr);
    return 2;
}

static int ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcmp(s + n - m, suf) == 0;
}

static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!*s || *s == '-') return -1;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end || errno) return -1;
    *out = v;
    return 0;
}

static int read_file(const char *path, uint8_t **data, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    size_t cap = 65536, n = 0;
    uint8_t *b = malloc(cap);
    if (!b) { fclose(f); return -1; }
    for (;;) {
        if (n == cap) {
            uint8_t *nb = realloc(b, cap *= 2);
            if (!nb) { free(b); fclose(f); return -1; }
            b = nb;
        }
        size_t k = fread(b + n, 1, cap - n, f);
        n += k;
        if (!k) break;
    }
    int err = ferror(f);
    fclose(f);
    if (err) { free(b); return -1; }
    *data = b;
    *size = n;
    return 0;
}

/* numpy descr for a parameter's element type; bf16 and the 8-bit float formats travel as raw bits */
static void descr_of(const PtoParamInfo *pi, char *d, size_t n)
{
    unsigned b = pi->elem_bits < 8 ? 1 : pi->elem_bits / 8;
    int raw_float = pi->elem_code == 'f' && (strstr(pi->type, "bf16") || b == 1);
    char k = raw_float ? 'u' : pi->elem_code == 'b' ? 'u' : pi->elem_code;
    snprintf(d, n, "%c%c%u", b == 1 ? '|' : '<', k, b);
}

static int check_npy_type(const PtoParamInfo *pi, const Npy *np, const char *path, unsigned idx)
{
    unsigned want = pi->elem_bits < 8 ? 1 : pi->elem_bits / 8;
    char msg[256];
    if (np->big_endian && np->itemsize > 1) {
        snprintf(msg, sizeof msg, "%s is big-endian ('%s'); only little-endian data is accepted", path, np->descr);
        goto bad;
    }
    if (np->fortran) {
        snprintf(msg, sizeof msg, "%s is in Fortran order; write it in C order", path);
        goto bad;
    }
    int ok = np->itemsize == want;
    if (ok && pi->elem_code == 'f' && !(strstr(pi->type, "bf16") || want == 1)) ok = np->kind == 'f';
    if (ok && pi->elem_code != 'f') ok = np->kind == 'i' || np->kind == 'u' || np->kind == 'b';
    if (ok && (strstr(pi->type, "bf16") || (pi->elem_code == 'f' && want == 1)))
        ok = np->kind == 'u' || np->kind == 'i' || np->kind == 'V' || np->kind == 'f';
    if (ok) return 0;
    snprintf(msg, sizeof msg, "%s holds '%s' elements but parameter %u ('%%%s') is %s", path, np->descr, idx,
             pi->name ? pi->name : "?", pi->type);
bad:
    fprintf(stderr, "ptosim: error: %s [E-ARG-NPY]\n", msg);
    return 2;
}

static int load_pointer_arg(const char *arg, const PtoParamInfo *pi, unsigned idx, Buf *b)
{
    memset(b, 0, sizeof *b);
    char *s = strdup(arg);
    if (!s) return 2;
    int rc = 2;
    char *out = NULL;
    if (!strncmp(s, "zeros:", 6) || !strncmp(s, "fill:", 5)) {
        int fill = s[0] == 'f';
        char *p = s + (fill ? 5 : 6);
        char *c1 = strchr(p, ':');
        char *c2 = NULL;
        if (c1) *c1 = 0;
        uint64_t bytes, val = 0;
        if (parse_u64(p, &bytes) || bytes > (1ull << 34)) {
            rc = arg_error("argument %s: bad byte count in '%s' [E-ARG-FORM]", arg, p);
            goto done;
        }
        if (fill) {
            if (!c1) { rc = arg_error("argument %s: fill needs fill:BYTES:BYTEVALUE%s [E-ARG-FORM]", arg, ""); goto done; }
            char *v = c1 + 1;
            c2 = strchr(v, ':');
            if (c2) *c2 = 0;
            if (parse_u64(v, &val) || val > 255) {
                rc = arg_error("argument %s: fill value '%s' is not a byte (0..255) [E-ARG-FORM]", arg, v);
                goto done;
            }
            out = c2 ? c2 + 1 : NULL;
        } else {
            out = c1 ? c1 + 1 : NULL;
        }
        b->size = (size_t)bytes;
        b->data = malloc(b->size ? b->size : 1);
        if (!b->data) { rc = arg_error("argument %s: cannot allocate %s bytes [E-ARG-SIZE]", arg, p); goto done; }
        memset(b->data, (int)val, b->size);
    } else {
        char *c = strchr(s, ':');
        if (c) { *c = 0; out = c + 1; }
        if (!*s) { rc = arg_error("argument %s: empty input path%s [E-ARG-FORM]", arg, ""); goto done; }
        uint8_t *data;
        size_t n;
        if (read_file(s, &data, &n)) {
            fprintf(stderr, "ptosim: error: cannot read '%s': %s [E-IO-READ]\n", s, strerror(errno));
            goto done;
        }
        if (ends_with(s, ".npy")) {
            char err[256];
            Npy np;
            if (npy_parse(data, n, &np, err, sizeof err)) {
                fprintf(stderr, "ptosim: error: %s: %s [E-ARG-NPY]\n", s, err);
                free(data);
                goto done;
            }
            if (check_npy_type(pi, &np, s, idx)) { free(data); goto done; }
            b->size = (size_t)(np.count * np.itemsize);
            b->data = malloc(b->size ? b->size : 1);
            if (!b->data) { free(data); goto done; }
            memcpy(b->data, data + np.data_off, b->size);
            b->npy_in = 1;
            b->npy = np;
            free(data);
        } else {
            b->data = data;
            b->size = n;
        }
    }
    if (out && !*out) { rc = arg_error("argument %s: empty output path after ':'%s [E-ARG-FORM]", arg, ""); goto done; }
    b->out = out ? strdup(out) : NULL;
    rc = 0;
done:
    free(s);
    if (rc) { free(b->data); b->data = NULL; }
    return rc;
}

static int parse_scalar(PtoLaunch *l, unsigned i, const PtoParamInfo *pi, const char *s)
{
    char *end;
    if (pi->kind == PTO_PARAM_INT) {
        if (!strcmp(s, "true")) return pto_launch_bind_int(l, i, 1);
        if (!strcmp(s, "false")) return pto_launch_bind_int(l, i, 0);
        errno = 0;
        int neg = s[0] == '-';
        unsigned long long v = strtoull(s + (neg || s[0] == '+'), &end, 0);
        if (*end || errno || !isdigit_first(s + (neg || s[0] == '+'))) return -1;
        uint64_t u = neg ? 0 - (uint64_t)v : (uint64_t)v;
        if (pi->elem_bits < 64) {
            /* the literal must fit the parameter's width, signed or unsigned */
            uint64_t lim = 1ull << pi->elem_bits;
            if (!neg && v >= lim) return -2;
            if (neg && v > (lim >> 1)) return -2;
        }
        return pto_launch_bind_int(l, i, (int64_t)u);
    }
    if (pi->kind == PTO_PARAM_FLOAT) {
        errno = 0;
        /* f32 parameters: strtof rounds the literal once, like f32 constants; wider and narrower types go
           through binary64 (docs/semantics.md §4) */
        double d = pi->elem_bits == 32 ? (double)strtof(s, &end) : strtod(s, &end);
        if (*end || end == s) return -1;
        return pto_launch_bind_float(l, i, d);
    }
    return -1;
}

static const char *pipe_short(unsigned p)
{
    static const char *const n[] = {"S", "V", "MTE1", "MTE2", "MTE3", "M", "FIX", "?"};
    return p < 8 ? n[p] : "?";
}

static int write_out(const Buf *b, const PtoParamInfo *pi)
{
    if (!b->out) return 0;
    if (ends_with(b->out, ".npy")) {
        char d[16];
        uint64_t shape[8];
        unsigned nd = 1;
        unsigned isz = pi->elem_bits < 8 ? 1 : pi->elem_bits / 8;
        if (b->npy_in && b->npy.itemsize == isz) {
            memcpy(shape, b->npy.shape, sizeof shape);
            nd = b->npy.ndim;
            snprintf(d, sizeof d, "%s", b->npy.descr);
        } else {
            shape[0] = b->size / isz;
            descr_of(pi, d, sizeof d);
        }
        if (npy_write(b->out, d, shape, nd, b->data, b->size)) {
            fprintf(stderr, "ptosim: error: cannot write '%s' [E-IO-WRITE]\n", b->out);
            return 2;
        }
        return 0;
    }
    FILE *f = fopen(b->out, "wb");
    int ok = f && (b->size == 0 || fwrite(b->data, 1, b->size, f) == b->size);
    if (f && fclose(f) != 0) ok = 0;
    if (!ok) {
        fprintf(stderr, "ptosim: error: cannot write '%s' [E-IO-WRITE]\n", b->out);
        return 2;
    }
    return 0;
}

/* "-inf", "-infinity", "-nan" (any case) are negative float arguments, not options. */
static int is_neg_special(const char *a)
{
    static const char *const names[] = {"inf", "infinity", "nan"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        const char *p = a + 1, *q = names[k];
        while (*p && *q && tolower((unsigned char)*p) == *q) p++, q++;
        if (!*p && !*q) return 1;
    }
    return 0;
}

int cli_run(int argc, char **argv)
{
    PtoTarget target = PTO_TARGET_DEFAULT;
    const char *file = NULL, *entry = NULL;
    unsigned blocks = 1;
    int quiet = 0, race = 1, vag_loops = 0, stats = 0, profile = 0;
    const char *trace = NULL, *timing = NULL;
    uint64_t steps = 0;
    char **args = calloc((size_t)argc + 1, sizeof *args);
    int nargs = 0;
    if (!args) return 2;
    int rc = 2;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--trace") || !strcmp(a, "--timing")) {
            if (i + 1 >= argc) { rc = cli_usage_error("%s needs a file name", a); goto out; }
            if (!strcmp(a, "--trace")) trace = argv[++i];
            else timing = argv[++i];
        } else if (!strcmp(a, "--stats")) {
            stats = 1;
        } else if (!strcmp(a, "--profile")) {
            profile = 1;
        } else if (!strcmp(a, "-t") || !strcmp(a, "-e") || !strcmp(a, "-b") || !strcmp(a, "--steps")) {
            if (i + 1 >= argc) { rc = cli_usage_error("%s needs a value", a); goto out; }
            const char *v = argv[++i];
            if (!strcmp(a, "-t")) { if (cli_parse_target(v, &target)) goto out; }
            else if (!strcmp(a, "-e")) entry = v[0] == '@' ? v + 1 : v;
            else if (!strcmp(a, "-b")) {
                uint64_t n;
                if (parse_u64(v, &n) || n == 0 || n > 65535) { rc = cli_usage_error("-b needs a block count in 1..65535, got '%s'", v); goto out; }
                blocks = (unsigned)n;
            } else {
                if (parse_u64(v, &steps) || steps == 0) { rc = cli_usage_error("--steps needs a positive count, got '%s'", v); goto out; }
            }
        } else if (!strcmp(a, "-q")) {
            quiet = 1;
        } else if (!strcmp(a, "--vag-loops")) {
            vag_loops = 1;
        } else if (!strcmp(a, "--no-race")) {
            race = 0;
        } else if (!strcmp(a, "--race")) {
            race = 1;
        } else if (!strcmp(a, "--")) {
            for (i++; i < argc; i++) args[nargs++] = argv[i];
        } else if (a[0] == '-' && a[1] && !isdigit((unsigned char)a[1]) && a[1] != '.' && !is_neg_special(a)) {
            rc = cli_usage_error("unknown option '%s'", a);
            goto out;
        } else if (!file) {
            file = a;
        } else {
            args[nargs++] = argv[i];
        }
    }
    if (!file) { rc = cli_usage_error("%s", "run needs a KERNEL.pto"); goto out; }
    PtoContext *ctx = pto_context_new();
    if (!ctx) goto out;
    int st;
    PtoModule *m = cli_load(ctx, file, target, &st);
    if (st) { rc = st; pto_module_free(m); pto_context_free(ctx); goto out; }
    size_t d0 = pto_diag_count(ctx);
    PtoLaunch *l = pto_launch_new(m, entry, target);
    if (!l) {
        cli_print_diags(ctx, d0);
        rc = pto_error_count(ctx) ? 2 : 2;
        pto_module_free(m);
        pto_context_free(ctx);
        goto out;
    }
    unsigned np = pto_launch_num_params(l);
    Buf *bufs = calloc(np + 1, sizeof *bufs);
    rc = 0;
    if (!bufs) rc = 2;
    if (!rc && (unsigned)nargs != np) {
        fprintf(stderr, "ptosim: error: the kernel takes %u argument(s), %d given [E-ARG-COUNT]\n", np, nargs);
        for (unsigned i = 0; i < np; i++) {
            PtoParamInfo pi;
            pto_launch_param(l, i, &pi);
            fprintf(stderr, "  %u: %%%s : %s\n", i, pi.name ? pi.name : "?", pi.type);
        }
        rc = 2;
    }
    for (unsigned i = 0; !rc && i < np; i++) {
        PtoParamInfo pi;
        pto_launch_param(l, i, &pi);
        if (pi.kind == PTO_PARAM_PTR) {
            if (strcmp(pi.space, "gm") != 0) {
                fprintf(stderr, "ptosim: error: parameter %u ('%%%s') is a %s pointer; kernel pointers must be in gm [E-ARG-FORM]\n", i, pi.name, pi.space);
                rc = 2;
                break;
            }
            rc = load_pointer_arg(args[i], &pi, i, &bufs[i]);
            if (!rc) pto_launch_bind_buffer(l, i, bufs[i].data, bufs[i].size);
        } else if (pi.kind == PTO_PARAM_INT || pi.kind == PTO_PARAM_FLOAT) {
            int r = parse_scalar(l, i, &pi, args[i]);
            if (r == -2) { fprintf(stderr, "ptosim: error: argument %u ('%s') does not fit %s [E-ARG-FORM]\n", i, args[i], pi.type); rc = 2; }
            else if (r) { fprintf(stderr, "ptosim: error: argument %u ('%s') is not a valid %s literal [E-ARG-FORM]\n", i, args[i], pi.type); rc = 2; }
        } else {
            fprintf(stderr, "ptosim: error: parameter %u has type %s, which cannot be passed from the command line [E-ARG-FORM]\n", i, pi.type);
            rc = 2;
        }
    }
    if (!rc && timing) rc = cli_load_timing(l, ctx, timing);
    if (!rc) {
        if (steps) pto_launch_set_step_limit(l, steps);
        pto_launch_set_trace(l, trace != NULL);
        pto_launch_set_profile(l, profile);
        pto_launch_set_race_check(l, race);
        pto_launch_set_vag_loops(l, vag_loops);
        size_t dr = pto_diag_count(ctx);
        int r = pto_launch_run(l, blocks);
        cli_print_diags(ctx, dr);
        if (r == 0) {
            for (unsigned i = 0; i < np && !rc; i++) {
                PtoParamInfo pi;
                pto_launch_param(l, i, &pi);
                if (pi.kind == PTO_PARAM_PTR) rc = write_out(&bufs[i], &pi);
            }
            if (!quiet && !rc) {
                const PtoStats *s = pto_launch_stats(l);
                fprintf(stderr, "ptosim: %s completed on %s: %u block(s), %u core(s), %" PRIu64 " ops, %" PRIu64 " cycles; bytes moved:",
                        file, pto_target_name(target == PTO_TARGET_DEFAULT ? pto_module_target(m) : target), blocks, s->cores,
                        s->ops_executed, s->cycles);
                int any = 0;
                for (unsigned p = 0; p < 7; p++)
                    if (s->bytes_moved[p]) { fprintf(stderr, " %s %" PRIu64, pipe_short(p), s->bytes_moved[p]); any = 1; }
                fputs(any ? "\n" : " none\n", stderr);
            }
        } else {
            rc = r == 3 ? 3 : 2;
        }
        if (r == 0 || r == 3) {
            if (stats) cli_print_stats(l, stdout);
            if (profile) cli_print_profile(l, stdout);
            if (trace) {
                int t = cli_write_trace(l, trace);
                if (!rc) rc = t;
            }
        }
    }
    for (unsigned i = 0; bufs && i < np; i++) { free(bufs[i].data); free((char *)bufs[i].out); }
    free(bufs);
    pto_launch_free(l);
    pto_module_free(m);
    pto_context_free(ctx);
out:
    free(args);
    return rc;
}
