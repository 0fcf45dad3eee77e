/* fmtspec.c — pto.print format strings (fmtspec.h). */
#include "fmtspec.h"
#include <stdio.h>
#include <string.h>

typedef struct Conv {
    char flags[8];             /* distinct flags, in the order written */
    int width, prec;           /* -1: absent */
    char conv;
} Conv;

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* One escape at s (after the backslash): the byte it stands for and its length, or -1. */
static int escape(const char *s, unsigned char *out)
{
    switch (s[0]) {
    case 'n': *out = '\n'; return 1;
    case 't': *out = '\t'; return 1;
    case '"': *out = '"'; return 1;
    case '\\': *out = '\\'; return 1;
    default: break;
    }
    int h = hexval(s[0]), l = h < 0 ? -1 : hexval(s[1]);
    if (l < 0) return -1;
    *out = (unsigned char)(h * 16 + l);
    return 2;
}

static int number(const char **p)
{
    int v = 0;
    while (**p >= '0' && **p <= '9') {
        if (v <= FMT_MAX_WIDTH) v = v * 10 + (**p - '0');
        (*p)++;
    }
    return v;
}

/* Parses the conversion after '%' at *p; returns its class or -1 (why). */
static int conversion(const char **p, Conv *c, char *why, size_t n)
{
    const char *s = *p;
    memset(c, 0, sizeof *c);
    c->width = c->prec = -1;
    size_t nf = 0;
    while (*s && strchr("-+ #0", *s)) {
        if (!memchr(c->flags, *s, nf) && nf < sizeof c->flags - 1) c->flags[nf++] = *s;
        s++;
    }
    if (*s == '*') {
        snprintf(why, n, "a '*' width or precision takes a value the op does not have");
        return -1;
    }
    if (*s >= '0' && *s <= '9') c->width = number(&s);
    if (*s == '.') {
        s++;
        if (*s == '*') {
            snprintf(why, n, "a '*' width or precision takes a value the op does not have");
            return -1;
        }
        c->prec = number(&s);
    }
    if (c->width > FMT_MAX_WIDTH || c->prec > FMT_MAX_WIDTH) {
        snprintf(why, n, "a width or precision above %d", FMT_MAX_WIDTH);
        return -1;
    }
    while (*s && strchr("hljztL", *s)) s++;   /* length modifiers: the value's own type decides */
    c->conv = *s;
    *p = *s ? s + 1 : s;
    if (*s && strchr("di", *s)) return FMT_SIGNED;
    if (*s == 'c') return FMT_SIGNED;
    if (*s && strchr("uoxX", *s)) return FMT_UNSIGNED;
    if (*s && strchr("fFeEgGaA", *s)) return FMT_FLOAT;
    if (!*s) snprintf(why, n, "the format ends inside a conversion");
    else snprintf(why, n, "'%%%c' is not a conversion pto.print can apply to its one scalar (d i u o x X c f F e E g G a A)", *s);
    return -1;
}

/* Walks fmt: literal bytes (escapes decoded) go to b (when given), the conversion is parsed into *c. */
static int walk(const char *fmt, StrBuf *b, Conv *c, int *cls, size_t *at, char *why, size_t n)
{
    *cls = FMT_NONE;
    for (const char *p = fmt; *p;) {
        if (*p == '\\') {
            unsigned char ch;
            int k = escape(p + 1, &ch);
            if (k < 0) {
                *at = (size_t)(p - fmt);
                snprintf(why, n, "unknown escape '\\%c' (\\n \\t \\\" \\\\ or two hex digits)", p[1] ? p[1] : ' ');
                return -1;
            }
            if (b) sb_putc(b, (char)ch);
            p += 1 + k;
            continue;
        }
        if (*p != '%') {
            if (b) sb_putc(b, *p);
            p++;
            continue;
        }
        if (p[1] == '%') {
            if (b) sb_putc(b, '%');
            p += 2;
            continue;
        }
        const char *start = p++;
        if (*cls != FMT_NONE) {
            *at = (size_t)(start - fmt);
            snprintf(why, n, "a second conversion: pto.print formats one value");
            return -1;
        }
        Conv cv;
        int k = conversion(&p, &cv, why, n);
        if (k < 0) {
            *at = (size_t)(start - fmt);
            return -1;
        }
        *cls = k;
        if (c) *c = cv;
        if (b) return (int)(p - fmt);   /* rendering: the caller formats, then continues at this offset */
    }
    return 0;
}

int fmt_class(const char *fmt, size_t *at, char *why, size_t n)
{
    int cls;
    *at = 0;
    return walk(fmt, NULL, NULL, &cls, at, why, n) < 0 ? -1 : cls;
}

void fmt_render(StrBuf *b, const char *fmt, int64_t i, uint64_t u, double d)
{
    Conv c;
    int cls;
    size_t at;
    char why[8];
    int k = walk(fmt, b, &c, &cls, &at, why, sizeof why);
    if (k <= 0) return;
    char spec[32];
    int sl = snprintf(spec, sizeof spec, "%%%s", c.flags);
    if (c.width >= 0) sl += snprintf(spec + sl, sizeof spec - (size_t)sl, "%d", c.width);
    if (c.prec >= 0) sl += snprintf(spec + sl, sizeof spec - (size_t)sl, ".%d", c.prec);
    char out[2 * FMT_MAX_WIDTH + 400];   /* %f of the largest double: 309 digits + the precision, or the width */
    if (cls == FMT_FLOAT) {
        snprintf(spec + sl, sizeof spec - (size_t)sl, "%c", c.conv);
        snprintf(out, sizeof out, spec, d);
    } else if (c.conv == 'c') {
        snprintf(spec + sl, sizeof spec - (size_t)sl, "c");
        snprintf(out, sizeof out, spec, (int)(unsigned char)i);
    } else if (cls == FMT_SIGNED) {
        snprintf(spec + sl, sizeof spec - (size_t)sl, "ll%c", c.conv);
        snprintf(out, sizeof out, spec, (long long)i);
    } else {
        snprintf(spec + sl, sizeof spec - (size_t)sl, "ll%c", c.conv);
        snprintf(out, sizeof out, spec, (unsigned long long)u);
    }
    sb_puts(b, out);
    walk(fmt + k, b, NULL, &cls, &at, why, sizeof why);   /* the literal text after the conversion */
}
