/* strbuf.h — growable heap string used by printers and renderers. When memory runs out the buffer is marked
   failed: later writes do nothing and sb_take returns NULL, so the one check is at the end. */
#ifndef PTOSIM_STRBUF_H
#define PTOSIM_STRBUF_H
#include <stdarg.h>
#include <stddef.h>

typedef struct StrBuf {
    char *s;
    size_t n, cap;
    int failed;                /* an allocation failed: the text is incomplete */
} StrBuf;

void sb_init(StrBuf *b);
void sb_putc(StrBuf *b, char c);
void sb_puts(StrBuf *b, const char *s);
void sb_putn(StrBuf *b, const char *s, size_t n);
void sb_printf(StrBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(StrBuf *b, const char *fmt, va_list ap);
void sb_truncate(StrBuf *b, size_t n);   /* back to the first n bytes (n <= b->n) */
/* Returns the NUL-terminated buffer, or NULL (nothing to free) when an allocation failed; b is reset. */
char *sb_take(StrBuf *b);
/* Releases the buffer without allocating (sb_take of an empty buffer allocates its ""); b is reset. */
void sb_free(StrBuf *b);
#endif
