/* strbuf.h — growable heap string used by printers and renderers. */
#ifndef PTOSIM_STRBUF_H
#define PTOSIM_STRBUF_H
#include <stdarg.h>
#include <stddef.h>

typedef struct StrBuf {
    char *s;
    size_t n, cap;
} StrBuf;

void sb_init(StrBuf *b);
void sb_putc(StrBuf *b, char c);
void sb_puts(StrBuf *b, const char *s);
void sb_putn(StrBuf *b, const char *s, size_t n);
void sb_printf(StrBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(StrBuf *b, const char *fmt, va_list ap);
char *sb_take(StrBuf *b);   /* returns the NUL-terminated buffer; b is reset */
#endif
