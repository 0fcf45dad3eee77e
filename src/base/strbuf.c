/* strbuf.c — growable heap string. */
#include "strbuf.h"
#include "alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_init(StrBuf *b) { b->s = NULL; b->n = b->cap = 0; b->failed = 0; }

/* Room for `extra` more bytes and the NUL; 0 (the buffer marked failed) when out of memory. */
static int sb_reserve(StrBuf *b, size_t extra)
{
    if (b->failed) return 0;
    if (b->n + extra + 1 <= b->cap) return 1;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->n + extra + 1) cap *= 2;
    char *s = mem_realloc(b->s, cap);
    if (!s) {
        b->failed = 1;
        return 0;
    }
    b->s = s;
    b->cap = cap;
    return 1;
}

void sb_putn(StrBuf *b, const char *s, size_t n)
{
    if (!sb_reserve(b, n)) return;
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}
void sb_truncate(StrBuf *b, size_t n)
{
    if (!b->s || n > b->n) return;   /* a failed buffer may hold nothing */
    b->n = n;
    b->s[n] = 0;
}

void sb_putc(StrBuf *b, char c) { sb_putn(b, &c, 1); }
void sb_puts(StrBuf *b, const char *s) { sb_putn(b, s, strlen(s)); }

void sb_vprintf(StrBuf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int k = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (k <= 0 || !sb_reserve(b, (size_t)k)) return;
    vsnprintf(b->s + b->n, (size_t)k + 1, fmt, ap);
    b->n += (size_t)k;
}

void sb_printf(StrBuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(b, fmt, ap);
    va_end(ap);
}

void sb_free(StrBuf *b)
{
    mem_free(b->s);
    sb_init(b);
}

char *sb_take(StrBuf *b)
{
    if (!b->s && sb_reserve(b, 0)) b->s[0] = 0;
    char *s = b->failed ? NULL : b->s;
    if (b->failed) mem_free(b->s);
    sb_init(b);
    return s;
}
