/* test_front.c — front-end behaviour through ptosim.h: diagnostics quote the right line of a large file
 * and a window of a long line, comments survive printing, operand positions. Expectations are computed
 * here from the texts the test builds. */
#include "ptosim.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static char *cat(char *a, const char *b)
{
    size_t n = a ? strlen(a) : 0, m = strlen(b);
    char *r = realloc(a, n + m + 1);
    memcpy(r + n, b, m + 1);
    return r;
}

/* A diagnostic on line 30001 of a file quotes that line (found through the line index). */
static void deep_line(void)
{
    enum { N = 30000 };
    size_t cap = (size_t)N * 48 + 256, n = 0;
    char *text = malloc(cap);
    n += (size_t)sprintf(text + n, "module {\n");
    for (int i = 1; i < N; i++) n += (size_t)sprintf(text + n, "// filler line %d\n", i + 1);
    n += (size_t)sprintf(text + n, "  pto.nope_%d\n}\n", 77);
    PtoContext *ctx = pto_context_new();
    PtoModule *m = pto_parse(ctx, "deep.pto", text, n);
    PtoDiagInfo d;
    CHECK(pto_diag_count(ctx) >= 1 && pto_diag_get(ctx, 0, &d) == 0, "one diagnostic");
    CHECK(d.line == N + 1 && d.col == 3, "at line 30001, column 3");
    char *r = pto_diag_render(ctx, 0, 0);
    CHECK(strstr(r, "30001 |   pto.nope_77\n") != NULL, "quotes line 30001");
    pto_free(r);
    pto_module_free(m);
    pto_context_free(ctx);
    free(text);
}

/* A 100,000-byte line: the rendering shows a window around the caret, not the line. */
static void long_line(void)
{
    char *text = cat(NULL, "module {\n  func.func @k() {\n    ");
    for (int i = 0; i < 4000; i++) {
        char b[64];
        snprintf(b, sizeof b, "%%c%d = arith.constant %d : i64 ", i, i);
        text = cat(text, b);
    }
    size_t col = strlen(text) - strlen("module {\n  func.func @k() {\n") + 1;   /* of the bad op's name */
    text = cat(text, "pto.wrong_op\n    return\n  }\n}\n");
    PtoContext *ctx = pto_context_new();
    PtoModule *m = pto_parse(ctx, "long.pto", text, strlen(text));
    PtoDiagInfo d;
    CHECK(pto_diag_get(ctx, 0, &d) == 0 && d.line == 3 && d.col == col, "error at the op's column");
    char *r = pto_diag_render(ctx, 0, 0);
    CHECK(strlen(r) < 600, "the rendering is short");
    CHECK(strstr(r, "| ...") != NULL, "a cut is marked");
    /* the caret sits under the first letter of the op: same offset from '|' on both lines */
    const char *src = strstr(r, "| ..."), *op = strstr(src, "pto.wrong_op"), *caret = strstr(src, "\n      | ");
    const char *hat = caret ? strchr(caret, '^') : NULL;
    CHECK(op && hat && (op - src) == (hat - (caret + 7)), "caret under the op");
    pto_free(r);
    pto_module_free(m);
    pto_context_free(ctx);
    free(text);
}

/* Comments: printed back in place, stable under a second print, also in the generic form. */
static void comments(void)
{
    const char *ok =
        "// top\n"
        "module {\n"
        "  func.func @k(%p: !pto.ptr<f32, ub>, %i: index) { // open\n"
        "    // before\n"
        "    %v = pto.vlds %p[%i] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32> // trail\n"
        "    return\n"
        "    // end\n"
        "  }\n"
        "}\n";
    PtoContext *ctx = pto_context_new();
    PtoModule *m = pto_parse(ctx, "c.pto", ok, strlen(ok));
    CHECK(pto_error_count(ctx) == 0, "parses");
    char *out = pto_print(m, 0);
    CHECK(out && strcmp(out, ok) == 0, "printed as written (the text is canonical)");
    char *gen = pto_print(m, 1);
    PtoModule *g = pto_parse(ctx, "g.pto", gen, strlen(gen));
    char *back = pto_print(g, 0);
    CHECK(back && strcmp(back, ok) == 0, "generic form keeps the comments");
    pto_free(out);
    pto_free(gen);
    pto_free(back);
    pto_module_free(g);
    pto_module_free(m);
    pto_context_free(ctx);
}

/* An undefined offset is reported where it is written, inside %base[%off]. */
static void operand_position(void)
{
    const char *text = "module {\n  func.func @k(%p: !pto.ptr<f32, ub>) {\n"
                       "    %v = pto.vlds %p[%i] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n    return\n  }\n}\n";
    PtoContext *ctx = pto_context_new();
    PtoModule *m = pto_parse(ctx, "u.pto", text, strlen(text));
    PtoDiagInfo d;
    CHECK(pto_diag_get(ctx, 0, &d) == 0 && !strcmp(d.id, "E-SSA-UNDEF") && d.line == 3 && d.col == 22,
          "undefined offset at its column");
    pto_module_free(m);
    pto_context_free(ctx);
}

int main(void)
{
    deep_line();
    long_line();
    comments();
    operand_position();
    return check_finish();
}
