/* fmtspec.h — the format strings of pto.print (docs/semantics.md §12 "Device output"): literal text with the
   MLIR string escapes (\n \t \" \\ \XX), %% for a percent sign, and at most one conversion
   %[flags -+ #0][width][.precision][length hh h l ll j z t L]conversion, the conversion one of d i u o x X c
   (an integer) or f F e E g G a A (a float). Width and precision are at most FMT_MAX_WIDTH. The verifier checks a
   string with fmt_class; the simulator renders it with fmt_render (the C library's formatting of one long long,
   unsigned long long or double, under a specification rebuilt from the checked pieces: the user's string never
   reaches printf). */
#ifndef PTOSIM_FMTSPEC_H
#define PTOSIM_FMTSPEC_H
#include <stddef.h>
#include <stdint.h>
#include "strbuf.h"

enum { FMT_MAX_WIDTH = 512 };
typedef enum { FMT_NONE, FMT_SIGNED, FMT_UNSIGNED, FMT_FLOAT } FmtClass;

/* The class of fmt's conversion (FMT_NONE: literal text only), or -1 with the reason in why[n] and the byte
   offset of the fault in *at. */
int fmt_class(const char *fmt, size_t *at, char *why, size_t n);
/* Appends fmt with its conversion applied to i (FMT_SIGNED; `c` takes its low byte), u (FMT_UNSIGNED) or d
   (FMT_FLOAT). fmt must have passed fmt_class. */
void fmt_render(StrBuf *b, const char *fmt, int64_t i, uint64_t u, double d);
#endif
