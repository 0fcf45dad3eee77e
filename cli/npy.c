/* npy.c — .npy header parsing and writing (only what `ptosim run` needs: little-endian, C order). */
#include "npy.h"
#include "cli.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n') p++;
    return p;
}

/* A quoted Python string at p ('...' or "..."): its body [*b, *e), and the position after it; NULL if none. */
static const char *quoted(const char *p, const char **b, const char **e)
{
    char q = *p;
    if (q != '\'' && q != '"') return NULL;
    const char *end = strchr(p + 1, q);
    if (!end) return NULL;
    *b = p + 1;
    *e = end;
    return end + 1;
}

/* The header dictionary, parsed exactly as numpy writes it: '{' KEY ':' VALUE (',' KEY ':' VALUE)* ','? '}' with
   KEY one of 'descr', 'fortran_order', 'shape', each exactly once (numpy's reader demands exactly these keys).
   The values' positions go to *d, *f, *s. 0, or -1 with the reason in err. */
static int header_keys(const char *h, const char **d, const char **f, const char **s, char *err, size_t errn)
{
    static const char *const names[3] = {"descr", "fortran_order", "shape"};
    const char **at[3] = {d, f, s};
    *d = *f = *s = NULL;
    const char *p = skip_ws(h);
    if (*p++ != '{') { snprintf(err, errn, "malformed .npy header (not a dictionary)"); return -1; }
    for (;;) {
        p = skip_ws(p);
        if (*p == '}') break;
        const char *kb, *ke;
        p = quoted(p, &kb, &ke);
        if (!p) { snprintf(err, errn, "malformed .npy header (a key is not a quoted string)"); return -1; }
        int k = -1;
        for (int i = 0; i < 3; i++)
            if ((size_t)(ke - kb) == strlen(names[i]) && !memcmp(kb, names[i], (size_t)(ke - kb))) k = i;
        if (k < 0) { snprintf(err, errn, "unknown key '%.*s' in .npy header", (int)(ke - kb), kb); return -1; }
        if (*at[k]) { snprintf(err, errn, "key '%s' given twice in .npy header", names[k]); return -1; }
        p = skip_ws(p);
        if (*p++ != ':') { snprintf(err, errn, "malformed .npy header (':' missing after '%s')", names[k]); return -1; }
        p = skip_ws(p);
        *at[k] = p;
        /* skip the value: a string, a tuple, or a word (True/False) */
        const char *vb, *ve;
        if (*p == '\'' || *p == '"') p = quoted(p, &vb, &ve);
        else if (*p == '(') p = strchr(p, ')') ? strchr(p, ')') + 1 : NULL;
        else while (isalnum((unsigned char)*p)) p++;
        if (!p) { snprintf(err, errn, "malformed value of '%s' in .npy header", names[k]); return -1; }
        p = skip_ws(p);
        if (*p == ',') p++;
        else if (*p != '}') { snprintf(err, errn, "malformed .npy header (',' or '}' expected after '%s')", names[k]); return -1; }
    }
    p = skip_ws(p + 1);
    if (*p) { snprintf(err, errn, "malformed .npy header (text after the dictionary)"); return -1; }
    if (!*d || !*f || !*s) { snprintf(err, errn, "malformed .npy header (needs descr, fortran_order, shape)"); return -1; }
    return 0;
}

int npy_parse(const uint8_t *buf, size_t n, Npy *out, char *err, size_t errn)
{
    memset(out, 0, sizeof *out);
    if (n < 10 || memcmp(buf, "\x93NUMPY", 6) != 0) { snprintf(err, errn, "not a .npy file (bad magic)"); return -1; }
    unsigned major = buf[6];
    size_t hlen, hoff;
    if (major == 1) { hlen = (size_t)buf[8] | ((size_t)buf[9] << 8); hoff = 10; }
    else if (major == 2 || major == 3) {
        if (n < 12) { snprintf(err, errn, "truncated .npy header"); return -1; }
        hlen = (size_t)buf[8] | ((size_t)buf[9] << 8) | ((size_t)buf[10] << 16) | ((size_t)buf[11] << 24);
        hoff = 12;
    } else { snprintf(err, errn, "unsupported .npy version %u", major); return -1; }
    if (hlen > n - hoff || hlen > 1 << 20) { snprintf(err, errn, "truncated .npy header"); return -1; }
    char *h = malloc(hlen + 1);
    if (!h) { snprintf(err, errn, "out of memory"); return -1; }
    memcpy(h, buf + hoff, hlen);
    h[hlen] = 0;
    int rc = -1;
    const char *d, *f, *s;
    if (header_keys(h, &d, &f, &s, err, errn)) goto out;
    char q = *d == '"' ? '"' : '\'';
    if (*d != q) { snprintf(err, errn, "malformed descr in .npy header"); goto out; }
    const char *de = strchr(d + 1, q);
    if (!de || de - d - 1 >= (long)sizeof out->descr || de - d - 1 < 2) { snprintf(err, errn, "unsupported descr in .npy header"); goto out; }
    memcpy(out->descr, d + 1, (size_t)(de - d - 1));
    const char *ds = out->descr;
    out->big_endian = ds[0] == '>';
    if (ds[0] == '<' || ds[0] == '>' || ds[0] == '|' || ds[0] == '=') ds++;
    out->kind = ds[0];
    char *end;
    long isz = strtol(ds + 1, &end, 10);
    if (*end || isz <= 0 || isz > 16) { snprintf(err, errn, "unsupported dtype '%s'", out->descr); goto out; }
    out->itemsize = (unsigned)isz;
    if (strncmp(f, "True", 4) && strncmp(f, "False", 5)) { snprintf(err, errn, "fortran_order is neither True nor False"); goto out; }
    out->fortran = strncmp(f, "True", 4) == 0;
    if (*s != '(') { snprintf(err, errn, "malformed shape in .npy header"); goto out; }
    s++;
    out->count = 1;
    for (;;) {
        while (*s == ' ' || *s == ',') s++;
        if (*s == ')') break;
        if (!isdigit((unsigned char)*s) || out->ndim >= 8) { snprintf(err, errn, "malformed shape in .npy header"); goto out; }
        errno = 0;
        unsigned long long v = strtoull(s, &end, 10);
        if (errno == ERANGE) { snprintf(err, errn, "shape too large"); goto out; }
        s = end;
        out->shape[out->ndim++] = v;
        if (v && out->count > (~0ull) / v) { snprintf(err, errn, "shape too large"); goto out; }
        out->count *= v;
    }
    out->data_off = hoff + hlen;
    if (out->count > (n - out->data_off) / out->itemsize) {
        snprintf(err, errn, "truncated .npy data: header promises %llu x %u bytes, file has %zu",
                 (unsigned long long)out->count, out->itemsize, n - out->data_off);
        goto out;
    }
    rc = 0;
out:
    free(h);
    return rc;
}

int npy_write(const char *path, const char *descr, const uint64_t *shape, unsigned ndim, const void *data, size_t bytes)
{
    char h[256];
    int k = snprintf(h, sizeof h, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
    for (unsigned i = 0; i < ndim; i++) k += snprintf(h + k, sizeof h - (size_t)k, "%llu,%s", (unsigned long long)shape[i], i + 1 < ndim ? " " : "");
    k += snprintf(h + k, sizeof h - (size_t)k, "), }");
    /* pad so that the data starts on a 64-byte boundary, header ends with '\n' */
    size_t total = 10 + (size_t)k + 1;
    size_t pad = (64 - total % 64) % 64;
    CliOutFile o;
    FILE *f = cli_out_open(&o, path, "wb");
    if (!f) return -1;
    unsigned hl = (unsigned)((size_t)k + pad + 1);
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hl & 0xff), (unsigned char)(hl >> 8)};
    int ok = fwrite(pre, 1, 10, f) == 10 && fwrite(h, 1, (size_t)k, f) == (size_t)k;
    for (size_t i = 0; ok && i < pad; i++) ok = fputc(' ', f) != EOF;
    ok = ok && fputc('\n', f) != EOF;
    ok = ok && (bytes == 0 || fwrite(data, 1, bytes, f) == bytes);
    return cli_out_close(&o, ok);
}
