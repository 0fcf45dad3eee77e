/* example_data.c — input generator and result printer for `make run` (no Python needed).
 *   example_data gen-f32 FILE ROWS COLS      deterministic f32 values in [-8, 8), some negative zeros
 *   example_data gen-f16 FILE ROWS COLS      the same values as IEEE half (exactly representable)
 *   example_data show-abs IN OUT ROWS COLS   before/after excerpt, checksum, |x| check
 *   example_data show-pad IN OUT ROWS VALID WIDTH   f16 rows padded from VALID to WIDTH elements */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static float value(unsigned i)
{
    /* multiples of 1/8 in [-8, 8): exact in f16 and f32, a readable mix of signs */
    uint32_t h = i * 2654435761u;
    int q = (int)((h >> 16) % 128) - 64;
    return (float)q / 8.0f;
}

static uint16_t to_half(float f)
{
    /* exact for the values above: |f| in {0} U [1/8, 8] with 3 fraction bits */
    if (f == 0) return signbit(f) ? 0x8000 : 0;
    uint16_t s = f < 0 ? 0x8000 : 0;
    float a = fabsf(f);
    int e;
    float m = frexpf(a, &e);            /* a = m * 2^e, m in [0.5, 1) */
    uint16_t mant = (uint16_t)((m * 2 - 1) * 1024);
    return (uint16_t)(s | (uint16_t)((e - 1 + 15) << 10) | mant);
}

static float from_half(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    float v = e ? ldexpf(1.0f + (float)m / 1024, e - 15) : ldexpf((float)m / 1024, -14);
    return (h & 0x8000) ? -v : v;
}

static void *slurp(const char *p, size_t *n)
{
    FILE *f = fopen(p, "rb");
    if (!f) { perror(p); exit(2); }
    fseek(f, 0, SEEK_END);
    long k = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *b = malloc((size_t)k + 1);
    if (!b || fread(b, 1, (size_t)k, f) != (size_t)k) { perror(p); exit(2); }
    fclose(f);
    *n = (size_t)k;
    return b;
}

static uint32_t fnv(const unsigned char *b, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 16777619u;
    return h;
}

int main(int argc, char **argv)
{
    if (argc >= 5 && (!strcmp(argv[1], "gen-f32") || !strcmp(argv[1], "gen-f16"))) {
        unsigned n = (unsigned)(atoi(argv[3]) * atoi(argv[4]));
        FILE *f = fopen(argv[2], "wb");
        if (!f) { perror(argv[2]); return 2; }
        for (unsigned i = 0; i < n; i++) {
            float v = value(i);
            if (i % 37 == 5) v = -0.0f;
            if (argv[1][5] == '3') fwrite(&v, 4, 1, f);
            else { uint16_t h = to_half(v); fwrite(&h, 2, 1, f); }
        }
        return fclose(f) != 0;
    }
    if (argc >= 6 && !strcmp(argv[1], "show-abs")) {
        size_t ni, no;
        float *in = slurp(argv[2], &ni), *out = slurp(argv[3], &no);
        int rows = atoi(argv[4]), cols = atoi(argv[5]);
        printf("abs_kernel_2d: %dx%d f32 tile, GM -> UB (MTE2) -> vabs (V) -> GM (MTE3)\n\n", rows, cols);
        printf("%-6s %-44s %s\n", "row", "input (first 6 of row)", "output");
        for (int r = 0; r < rows; r += rows / 4) {
            printf("%-6d", r);
            for (int c = 0; c < 6; c++) printf("%7.3f", in[r * cols + c]);
            printf("   ");
            for (int c = 0; c < 6; c++) printf("%7.3f", out[r * cols + c]);
            printf("\n");
        }
        int bad = 0;
        for (int i = 0; i < rows * cols; i++) {
            float e = fabsf(in[i]);
            if (memcmp(&e, &out[i], 4) != 0) bad++;
        }
        printf("\noutput checksum (FNV-1a over %zu bytes): 0x%08" PRIx32 "\n", no, fnv((unsigned char *)out, no));
        printf("elements equal to |input| bit for bit: %d of %d%s\n", rows * cols - bad, rows * cols, bad ? "  <-- MISMATCH" : "");
        return bad != 0;
    }
    if (argc >= 7 && !strcmp(argv[1], "show-pad")) {
        size_t ni, no;
        uint16_t *in = slurp(argv[2], &ni), *out = slurp(argv[3], &no);
        int rows = atoi(argv[4]), valid = atoi(argv[5]), width = atoi(argv[6]);
        printf("padded load: %d rows of %d f16 -> UB rows of %d elements (pad value 0), stored back\n\n", rows, valid, width);
        for (int r = 0; r < rows; r += rows / 4) {
            printf("row %-3d  data:", r);
            for (int c = 0; c < 4; c++) printf(" %6.3f", from_half(out[r * width + c]));
            printf(" ... %6.3f | pad:", from_half(out[r * width + valid - 1]));
            for (int c = valid; c < valid + 3; c++) printf(" %g", from_half(out[r * width + c]));
            printf(" ... (%d pad elements)\n", width - valid);
        }
        int bad = 0;
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < width; c++) {
                uint16_t want = c < valid ? in[r * valid + c] : 0;
                if (out[r * width + c] != want) bad++;
            }
        printf("\noutput checksum (FNV-1a over %zu bytes): 0x%08" PRIx32 "\n", no, fnv((unsigned char *)out, no));
        printf("elements matching data-then-pad layout: %d of %d%s\n", rows * width - bad, rows * width, bad ? "  <-- MISMATCH" : "");
        return bad != 0;
    }
    fprintf(stderr, "usage: example_data gen-f32|gen-f16 FILE ROWS COLS | show-abs IN OUT ROWS COLS | show-pad IN OUT ROWS VALID WIDTH\n");
    return 2;
}
