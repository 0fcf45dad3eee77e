/* run.c — `ptosim run KERNEL.pto [OPTION]... ARG...`: binds one ARG per kernel parameter, runs the
 * kernel and writes the output buffers (also after a trap: the memory as it was at the trap).
 * Every argument is checked before the run, and every argument error names its parameter
 * (index, %name, type). */
#include "cli.h"
#include "npy.h"
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct Buf {
    uint8_t *data;
    size_t size;
    const char *out;           /* points into the ARG */
    char *in;                  /* the input file (NULL: zeros/fill/alias), owned */
    int npy_in;
    int alias;                 /* data points into an earlier parameter's buffer (@K+OFF) */
    Npy npy;
} Buf;

/* "parameter 1 (%dst: !pto.ptr<f32, gm>): MESSAGE" */
static int param_error(CliArgs *a, const char *id, unsigned idx, const PtoParamInfo *pi, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int param_error(CliArgs *a, const char *id, unsigned idx, const PtoParamInfo *pi, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cli_error(&a->diag, id, "parameter %u (%%%s: %s): %s", idx, pi->name ? pi->name : "?", pi->type, msg);
}

static int ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcmp(s + n - m, suf) == 0;
}

int cli_writable(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) return EISDIR;
        /* a FIFO or a device is not opened here (opening a FIFO would block or hand its reader an empty
           stream): only its permission is checked, the output opens it once */
        if (!S_ISREG(st.st_mode)) return access(path, W_OK) == 0 ? 0 : errno;
        FILE *f = fopen(path, "r+b");   /* opens for writing without truncating */
        if (!f) return errno;
        fclose(f);
        return 0;
    }
    if (errno != ENOENT) return errno;
    /* a new file: its directory must exist and be writable */
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (stat(dir, &st) != 0) return errno;
    if (!S_ISDIR(st.st_mode)) return ENOTDIR;
    if (access(dir, W_OK | X_OK) != 0) return errno;
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

static int check_npy_type(CliArgs *a, const PtoParamInfo *pi, const Npy *np, const char *path, unsigned idx)
{
    unsigned want = pi->elem_bits < 8 ? 1 : pi->elem_bits / 8;
    if (np->big_endian && np->itemsize > 1)
        return param_error(a, "E-ARG-NPY", idx, pi, "'%s' is big-endian ('%s'); only little-endian data is accepted", path, np->descr);
    if (np->fortran) return param_error(a, "E-ARG-NPY", idx, pi, "'%s' is in Fortran order; write it in C order", path);
    int raw = strstr(pi->type, "bf16") || (pi->elem_code == 'f' && want == 1);   /* bits of a format numpy lacks */
    int ok = np->itemsize == want;
    if (ok && raw) ok = np->kind == 'u' || np->kind == 'i' || np->kind == 'V' || np->kind == 'f';
    else if (ok && pi->elem_code == 'f') ok = np->kind == 'f';
    else if (ok) ok = np->kind == 'i' || np->kind == 'u' || np->kind == 'b';
    if (ok) return 0;
    char d[16];
    descr_of(pi, d, sizeof d);
    return param_error(a, "E-ARG-NPY", idx, pi, "'%s' holds '%s' elements; this parameter needs %u-byte %s elements ('%s')",
                       path, np->descr, want, raw ? "raw" : pi->elem_code == 'f' ? "float" : "integer", d);
}

/* Does s read as a scalar literal (so that a pointer parameter given one is a slip, not a file name)? */
static int looks_scalar(const char *s)
{
    char *end;
    if (!strcmp(s, "true") || !strcmp(s, "false")) return 1;
    errno = 0;
    (void)strtod(s, &end);
    return end != s && !*end;
}

/* Counts `bytes` more of host buffer against --max-memory: each buffer is held twice during a run (the host
   copy and the simulated GM image), so the check happens before anything that size is allocated. */
static int over_memory_limit(CliArgs *a, const PtoParamInfo *pi, unsigned idx, uint64_t bytes)
{
    uint64_t lim = a->max_memory ? a->max_memory : PTO_DEFAULT_MAX_MEMORY;
    a->host_bytes += bytes;
    if (a->host_bytes <= lim / 2) return 0;
    return param_error(a, "E-MEM-LIMIT", idx, pi, "the buffers need at least %llu bytes (host copies and the GM image), "
                       "over the memory limit of %llu bytes; raise it with --max-memory",
                       (unsigned long long)a->host_bytes * 2, (unsigned long long)lim);
}

static int load_pointer_arg(CliArgs *a, const char *arg, const PtoParamInfo *pi, unsigned idx, Buf *b)
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
        if (c1) *c1 = 0;
        uint64_t bytes, val = 0;
        if (cli_parse_u64(p, &bytes) || bytes > (1ull << 34)) {
            rc = param_error(a, "E-ARG-FORM", idx, pi, "bad byte count '%s' in '%s' (a count up to 17179869184 (0x400000000))", p, arg);
            goto done;
        }
        if (fill) {
            if (!c1) { rc = param_error(a, "E-ARG-FORM", idx, pi, "'%s': fill needs fill:BYTES:BYTEVALUE", arg); goto done; }
            char *v = c1 + 1, *c2 = strchr(v, ':');
            if (c2) *c2 = 0;
            if (cli_parse_u64(v, &val) || val > 255) {
                rc = param_error(a, "E-ARG-FORM", idx, pi, "'%s': fill value '%s' is not a byte (0..255)", arg, v);
                goto done;
            }
            out = c2 ? c2 + 1 : NULL;
        } else {
            out = c1 ? c1 + 1 : NULL;
        }
        if ((rc = over_memory_limit(a, pi, idx, bytes)) != 0) goto done;
        rc = 2;
        b->size = (size_t)bytes;
        b->data = malloc(b->size ? b->size : 1);
        if (!b->data) { rc = param_error(a, "E-ARG-SIZE", idx, pi, "cannot allocate %s bytes", p); goto done; }
        memset(b->data, (int)val, b->size);
    } else {
        char *c = strchr(s, ':');
        if (c) { *c = 0; out = c + 1; }
        if (!*s) { rc = param_error(a, "E-ARG-FORM", idx, pi, "'%s': empty input path", arg); goto done; }
        struct stat st;
        if (looks_scalar(s) && stat(s, &st) != 0) {
            rc = param_error(a, "E-ARG-FORM", idx, pi,
                             "a pointer parameter takes a buffer (FILE, zeros:BYTES or fill:BYTES:BYTEVALUE, each with an "
                             "optional :OUT), not the number '%s'", s);
            goto done;
        }
        uint8_t *data;
        size_t n;
        b->in = strdup(s);
        if (!b->in) goto done;
        FILE *f = fopen(s, "rb");
        /* read at most what the memory limit still allows (an endless device or pipe stops there) */
        uint64_t lim = a->max_memory ? a->max_memory : PTO_DEFAULT_MAX_MEMORY;
        uint64_t room = lim / 2 > a->host_bytes ? lim / 2 - a->host_bytes : 0;
        int e = f ? cli_read_all(f, &data, &n, room) : errno;
        if (f) fclose(f);
        if (e == EFBIG) {
            rc = param_error(a, "E-MEM-LIMIT", idx, pi, "'%s' holds more than the %llu bytes the memory limit of %llu "
                             "leaves for it (buffers are held twice); raise it with --max-memory", s,
                             (unsigned long long)room, (unsigned long long)lim);
            goto done;
        }
        if (e) { rc = param_error(a, "E-IO-READ", idx, pi, "cannot read '%s': %s", s, strerror(e)); goto done; }
        if ((rc = over_memory_limit(a, pi, idx, n)) != 0) { free(data); goto done; }
        rc = 2;
        if (ends_with(s, ".npy")) {
            char err[256];
            Npy np;
            int bad = npy_parse(data, n, &np, err, sizeof err);
            if (bad) rc = param_error(a, "E-ARG-NPY", idx, pi, "'%s': %s", s, err);
            else bad = rc = check_npy_type(a, pi, &np, s, idx);
            if (!bad) {
                b->size = (size_t)(np.count * np.itemsize);
                b->data = malloc(b->size ? b->size : 1);
                if (b->data) memcpy(b->data, data + np.data_off, b->size);
                b->npy_in = 1;
                b->npy = np;
            }
            free(data);
            if (bad || !b->data) goto done;
        } else {
            b->data = data;
            b->size = n;
        }
    }
    if (out && !*out) { rc = param_error(a, "E-ARG-FORM", idx, pi, "'%s': empty output path after ':'", arg); goto done; }
    if (out) {
        int e = cli_writable(out);
        if (e) { rc = param_error(a, "E-IO-WRITE", idx, pi, "cannot write '%s': %s", out, strerror(e)); goto done; }
        b->out = arg + (out - s);   /* :OUT ends the ARG, so the ARG itself holds the name */
    }
    rc = 0;
done:
    free(s);
    if (rc) { free(b->data); b->data = NULL; }
    return rc;
}

/* "@K" or "@K+OFF": the parameter points OFF bytes into the buffer of pointer parameter K < i (several
   pointers into one device allocation). */
static int alias_arg(CliArgs *a, const char *arg, const PtoParamInfo *pi, unsigned idx, Buf *bufs)
{
    char num[32];
    const char *plus = strchr(arg + 1, '+');
    size_t n = plus ? (size_t)(plus - arg - 1) : strlen(arg + 1);
    uint64_t k, off = 0;
    snprintf(num, sizeof num, "%.*s", (int)(n < sizeof num ? n : sizeof num - 1), arg + 1);
    if (!n || n >= sizeof num || cli_parse_u64(num, &k) || (plus && cli_parse_u64(plus + 1, &off)))
        return param_error(a, "E-ARG-FORM", idx, pi, "'%s': a pointer into another buffer is @K or @K+OFFSET (K: an earlier "
                           "pointer parameter's index)", arg);
    if (k >= idx || !bufs[k].data)
        return param_error(a, "E-ARG-FORM", idx, pi, "'%s': parameter %" PRIu64 " is not an earlier pointer parameter", arg, k);
    if (off > bufs[k].size)
        return param_error(a, "E-ARG-FORM", idx, pi, "'%s': offset %" PRIu64 " lies past the %zu bytes of parameter %" PRIu64
                           "'s buffer", arg, off, bufs[k].size, k);
    memset(&bufs[idx], 0, sizeof bufs[idx]);
    bufs[idx].data = bufs[k].data + off;
    bufs[idx].size = bufs[k].size - (size_t)off;
    bufs[idx].alias = 1;
    return 0;
}

static int bind_scalar(PtoLaunch *l, unsigned i, const PtoParamInfo *pi, const char *s)
{
    char *end;
    if (!strncmp(s, "bits:", 5)) {   /* the parameter's raw bits: bits:0x4200 for an f16 3.0 */
        const char *d = s + 5;
        int neg = d[0] == '-';
        errno = 0;
        unsigned long long v = strtoull(d + neg, &end, 0);
        if (*end || errno || !isdigit((unsigned char)d[neg])) return errno == ERANGE ? -2 : -1;
        return pto_launch_bind_bits(l, i, neg ? 0 - (uint64_t)v : (uint64_t)v);
    }
    if (pi->kind == PTO_PARAM_INT) {
        if (!strcmp(s, "true")) return pto_launch_bind_int(l, i, 1);
        if (!strcmp(s, "false")) return pto_launch_bind_int(l, i, 0);
        errno = 0;
        int neg = s[0] == '-';
        const char *digits = s + (neg || s[0] == '+');
        unsigned long long v = strtoull(digits, &end, 0);
        if (*end || errno || !isdigit((unsigned char)digits[0])) return errno == ERANGE ? -2 : -1;
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

static int write_out(CliArgs *a, const Buf *b, const PtoParamInfo *pi)
{
    int ok;
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
        errno = 0;
        ok = npy_write(b->out, d, shape, nd, b->data, b->size) == 0;
    } else {
        ok = cli_out_write(b->out, b->data, b->size) == 0;
    }
    if (!ok) return cli_error(&a->diag, "E-IO-WRITE", "cannot write '%s': %s", b->out, strerror(errno ? errno : EIO));
    return 0;
}

static void print_summary(const char *file, PtoTarget target, unsigned blocks, const PtoStats *s, const PtoLaunch *l)
{
    fprintf(stderr, "ptosim: %s completed on %s: %u block(s), %u core(s), %" PRIu64 " ops, %" PRIu64 " cycles; bytes moved:",
            file, pto_target_name(target), blocks, s->cores, s->ops_executed, s->cycles);
    int any = 0;
    for (unsigned p = 0; p < 7; p++)
        if (s->bytes_moved[p]) { fprintf(stderr, " %s %" PRIu64, pto_pipe_name(p), s->bytes_moved[p]); any = 1; }
    if (!any) fputs(" none", stderr);
    uint64_t edges;
    if (pto_launch_autosync(l, &edges)) fprintf(stderr, "; sync: auto-sync, %" PRIu64 " inferred edge(s)", edges);
    fputc('\n', stderr);
}

/* The closing line of a run that reported warnings (also after a trap, and with -q): the outputs of a kernel
   with a race, an uninitialised read or an access outside its buffer may be wrong even though it completed. */
static void print_warning_summary(const PtoContext *ctx, size_t from)
{
    size_t n = 0, promoted = 0;
    for (size_t i = from; i < pto_diag_count(ctx); i++) {
        PtoDiagInfo d;
        if (pto_diag_get(ctx, i, &d) || strncmp(d.id, "W-", 2) != 0) continue;
        if (d.severity == PTO_SEV_WARNING) n++;
        else if (d.severity == PTO_SEV_ERROR) promoted++;
    }
    if (n + promoted)
        fprintf(stderr, "ptosim: %zu warning%s%s: results may be invalid\n", n + promoted, n + promoted == 1 ? "" : "s",
                promoted ? " (made errors by -Werror)" : "");
}

/* Binds every argument; 0 or 2 after reporting the first bad one. */
static int bind_args(CliArgs *a, PtoLaunch *l, Buf *bufs, unsigned np)
{
    char **args = a->operands + 1;
    if ((unsigned)(a->noperands - 1) != np) {
        cli_error(&a->diag, "E-ARG-COUNT", "the kernel takes %u argument(s), %d given", np, a->noperands - 1);
        for (unsigned i = 0; i < np; i++) {
            PtoParamInfo pi;
            pto_launch_param(l, i, &pi);
            fprintf(stderr, "  %u: %%%s : %s\n", i, pi.name ? pi.name : "?", pi.type);
        }
        return 2;
    }
    for (unsigned i = 0; i < np; i++) {
        PtoParamInfo pi;
        pto_launch_param(l, i, &pi);
        if (pi.kind == PTO_PARAM_PTR) {
            if (strcmp(pi.space, "gm") != 0)
                return param_error(a, "E-ARG-FORM", i, &pi, "a %s pointer cannot be passed; kernel pointers must be in gm", pi.space);
            if (args[i][0] == '@' ? alias_arg(a, args[i], &pi, i, bufs) : load_pointer_arg(a, args[i], &pi, i, &bufs[i]))
                return 2;
            pto_launch_bind_buffer(l, i, bufs[i].data, bufs[i].size);
        } else if (pi.kind == PTO_PARAM_INT || pi.kind == PTO_PARAM_FLOAT) {
            int r = bind_scalar(l, i, &pi, args[i]);
            if (r == -2) return param_error(a, "E-ARG-FORM", i, &pi, "'%s' does not fit %s", args[i], pi.type);
            if (r)
                return param_error(a, "E-ARG-FORM", i, &pi, "a scalar parameter takes %s literal (such as %s), not '%s'",
                                   pi.kind == PTO_PARAM_INT ? "an integer" : "a floating-point",
                                   pi.kind == PTO_PARAM_INT ? "128, -3 or 0x40" : "1.5, -3, 0x1.8p-3 or inf", args[i]);
        } else {
            return param_error(a, "E-ARG-FORM", i, &pi, "this type cannot be passed from the command line");
        }
    }
    return 0;
}

/* Exit status of a launch that could not be prepared: 1 when an error the verifier could have reported was found
   while lowering (E-CALL, E-SIMT-ENTRY, ...: the kernel is invalid, as for check), else 2 (E-ENTRY: no or no
   unique entry for the command line; E-OOM; a form the simulator cannot lower). */
static int lowering_rc(const PtoContext *ctx, size_t d0)
{
    for (size_t i = d0; i < pto_diag_count(ctx); i++) {
        PtoDiagInfo di;
        if (pto_diag_get(ctx, i, &di) || di.severity != PTO_SEV_ERROR || strncmp(di.id, "E-", 2) != 0) continue;
        if (strcmp(di.id, "E-ENTRY") != 0 && strcmp(di.id, "E-OOM") != 0) return 1;
    }
    return 2;
}

/* Do two paths name the same file? Existing files by identity (links, ./x and x); a path that does not exist yet
   by its spelling. FIFOs and devices never clash (writing /dev/null twice loses nothing). */
static int same_file(const char *p, const char *q)
{
    struct stat sp, sq;
    int ep = stat(p, &sp) == 0, eq = stat(q, &sq) == 0;
    if (ep && eq) return S_ISREG(sp.st_mode) && sp.st_dev == sq.st_dev && sp.st_ino == sq.st_ino;
    return !ep && !eq && strcmp(p, q) == 0;
}

/* An output that names the kernel, an input file or another output would destroy what the run reads or
   writes: a usage error before anything runs (exit 2). */
static int check_out_paths(CliArgs *a, const char *kernel, const Buf *bufs, unsigned np)
{
    const char *other[3] = {a->trace, a->stats_file && strcmp(a->stats_file, "-") ? a->stats_file : NULL, a->report};
    const char *oname[3] = {"--trace", "--stats-file", "--report"};
    for (unsigned i = 0; i < np + 3; i++) {
        const char *o = i < np ? bufs[i].out : other[i - np];
        if (!o) continue;
        char what[48];
        if (i < np) snprintf(what, sizeof what, "the output of parameter %u", i);
        else snprintf(what, sizeof what, "%s", oname[i - np]);
        if (same_file(o, kernel))
            return cli_usage_error(a->cmd, "%s '%s' is the kernel file; it would be overwritten", what, o);
        for (unsigned j = 0; j < np; j++)
            if (bufs[j].in && same_file(o, bufs[j].in))
                return cli_usage_error(a->cmd, "%s '%s' is the input file of parameter %u; write to another file", what, o, j);
        for (unsigned j = 0; j < np + 3 && j < i; j++) {
            const char *p = j < np ? bufs[j].out : other[j - np];
            char pw[48];
            if (j < np) snprintf(pw, sizeof pw, "parameter %u", j);
            else snprintf(pw, sizeof pw, "%s", oname[j - np]);
            if (p && same_file(o, p))
                return cli_usage_error(a->cmd, "%s '%s' is also the output of %s; one would overwrite the other", what, o, pw);
        }
    }
    return 0;
}

int cli_run(CliArgs *a)
{
    if (!a->noperands) return cli_usage_error(a->cmd, "run needs a KERNEL.pto");
    const char *file = a->operands[0];
    if (cli_dump_check(a)) return 2;
    PtoContext *ctx = pto_context_new();
    if (ctx && a->no_fast) pto_context_set_fast_paths(ctx, 0);
    if (!ctx) return 2;
    int rc;
    if (cli_apply_warnings(a, ctx)) {
        pto_context_free(ctx);
        return 2;
    }
    PtoModule *m = cli_load(a, ctx, file, 1, &rc);
    PtoLaunch *l = NULL;
    Buf *bufs = NULL;
    unsigned np = 0;
    if (rc) goto out;
    size_t d0 = pto_diag_count(ctx);
    l = pto_launch_new(m, a->entry, a->target);
    cli_print_diags(&a->diag, ctx, d0);
    rc = 2;
    if (!l) {
        rc = lowering_rc(ctx, d0);
        goto out;
    }
    np = pto_launch_num_params(l);
    bufs = calloc(np + 1, sizeof *bufs);
    if (!bufs || bind_args(a, l, bufs, np) || check_out_paths(a, file, bufs, np)) goto out;
    if (a->timing && (rc = cli_load_timing(a, l, ctx, a->timing)) != 0) goto out;
    rc = 2;
    if (a->steps) pto_launch_set_step_limit(l, a->steps);
    pto_launch_set_memory_limit(l, a->max_memory);
    pto_launch_set_trace(l, a->trace != NULL || a->report != NULL);
    pto_launch_set_profile(l, a->profile || a->report != NULL);
    pto_launch_set_race_check(l, a->race);
    pto_launch_set_flag_key(l, (PtoFlagKey)a->flag_key);
    pto_launch_set_flag_model(l, a->flag_lossy);
    pto_launch_set_jobs(l, a->jobs);
    pto_launch_set_checks(l, PTO_CHECK_RACE, a->race);
    pto_launch_set_checks(l, PTO_CHECK_INIT, !a->no_initcheck);
    pto_launch_set_checks(l, PTO_CHECK_UNWRITTEN, !a->no_unwritten);
    for (unsigned i = 0; i < np; i++)
        if (bufs[i].out) pto_launch_set_output(l, i, 1);
    pto_launch_set_vag_loops(l, a->vag_loops);
    pto_launch_set_tile_op_expand(l, a->tile_op_expand);
    pto_launch_set_gm_strict(l, a->strict_gm);
    size_t dr = pto_diag_count(ctx);
    int r = pto_launch_run(l, a->blocks);
    size_t on;
    const char *os = pto_launch_output(l, &on);
    if (on) {   /* the kernel's pto.print / pto.tprint output, before the diagnostics (it came first) */
        FILE *f = cli_dump_stream(&a->diag);
        fwrite(os, 1, on, f);
        fflush(f);
    }
    cli_print_diags(&a->diag, ctx, dr);
    if (r != 0 && r != 3) goto out;
    /* completed or trapped: write every output (after a trap, memory as it was at the trap) */
    int werr = 0, nout = 0;
    for (unsigned i = 0; i < np; i++)
        if (bufs[i].out) {
            PtoParamInfo pi;
            pto_launch_param(l, i, &pi);
            werr |= write_out(a, &bufs[i], &pi);
            nout++;
        }
    werr |= cli_dump_write(a, l);
    if (a->stats || a->profile) werr |= cli_write_stats(a, l);
    if (a->trace) werr |= cli_write_trace(a, l, a->trace);
    if (a->report) werr |= cli_write_report(a, l);
    if (r == 3 && (nout || a->ndumps))
        fprintf(stderr, "ptosim: note: the kernel trapped; the output files%s hold the memory as it was at the trap\n",
                a->ndumps ? " and dumps" : "");
    if (r == 0 && !a->quiet && !werr)
        print_summary(file, a->target == PTO_TARGET_DEFAULT ? pto_module_target(m) : a->target, a->blocks, pto_launch_stats(l), l);
    print_warning_summary(ctx, dr);
    rc = r == 3 ? 3 : werr ? 2 : pto_promoted_warning_count(ctx) ? 4 : 0;
out:
    for (unsigned i = 0; bufs && i < np; i++)
        if (!bufs[i].alias) free(bufs[i].data);
    for (unsigned i = 0; bufs && i < np; i++) free(bufs[i].in);
    free(bufs);
    pto_launch_free(l);
    pto_module_free(m);
    pto_context_free(ctx);
    return rc;
}
