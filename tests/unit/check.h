/* check.h — the result counting every unit program in tests/unit shares (tests/run.py reads the last line,
 * "N passed, M failed", and the exit status).
 *
 *   CHECK(cond, fmt, ...)   counts one check; on failure prints "FAIL file:line: " and the printf-style
 *                           message (formatted only then, so passing checks stay cheap)
 *   check_pass()            counts a passing check a caller decided itself
 *   check_fail_shown()      counts a failing check; returns nonzero if its details should be printed
 *                           (the first CHECK_SHOWN failures are; the rest are only counted)
 *   check_finish()          prints "... N more failures not shown" when needed and the summary line;
 *                           returns main's exit status (0 only when nothing failed)
 *
 * Each program includes this header once (its counters are static). */
#ifndef PTOSIM_TESTS_CHECK_H
#define PTOSIM_TESTS_CHECK_H

#include <stdarg.h>
#include <stdio.h>

#ifndef CHECK_SHOWN
#define CHECK_SHOWN 30
#endif

static long check_passed, check_failed;

static inline void check_pass(void)
{
    check_passed++;
}

static inline int check_fail_shown(void)
{
    return ++check_failed <= CHECK_SHOWN;
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static inline void check_fail_at(const char *file, int line, const char *fmt, ...)
{
    if (!check_fail_shown()) return;
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL %s:%d: ", file, line);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

#define CHECK(cond, ...)                                          \
    do {                                                          \
        if (cond) check_pass();                                   \
        else check_fail_at(__FILE__, __LINE__, __VA_ARGS__);      \
    } while (0)

static inline int check_finish(void)
{
    if (check_failed > CHECK_SHOWN) printf("... %ld more failures not shown\n", check_failed - CHECK_SHOWN);
    printf("%ld passed, %ld failed\n", check_passed, check_failed);
    return check_failed != 0;
}

#endif
