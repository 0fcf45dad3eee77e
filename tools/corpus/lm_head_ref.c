/* lm_head_ref.c — a native C reference of the matmul in PTOAS test/samples DeepseekV4Decode{A3,A5}/kernels/aic/lm_head_matmul
 * .pto, for the wall-time ratio in docs/perf.md "Model kernels": logits[16 x 64640] (f32) = hiddens[16 x 4096] (bf16) ·
 * weight[64640 x 4096]^T (bf16), for the 128-column tiles j = idx, idx + 24, ... < 505 that core `idx` computes
 * (the kernel's loop steps by 24 cores whatever its block count); each product exact in f32, summed over k ascending with f32 rounding (docs/semantics.md §8.4), so the
 * output must equal ptosim's byte for byte.
 *
 *   cc -O2 -o lm_head_ref tools/corpus/lm_head_ref.c
 *   ./lm_head_ref v1.bin v2.bin v3.bin IDX OUT.bin     (the files the samples runner writes with --keep)
 * Prints the CPU seconds of the read and of the matmul. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { M = 16, K = 4096, N = 64640, TN = 128 };

static void *slurp(const char *path, size_t n)
{
    FILE *f = fopen(path, "rb");
    void *p = malloc(n);
    if (!f || !p || fread(p, 1, n, f) != n) { fprintf(stderr, "lm_head_ref: cannot read %zu bytes of %s\n", n, path); exit(2); }
    fclose(f);
    return p;
}

static float bf16(uint16_t h) { uint32_t u = (uint32_t)h << 16; float f; memcpy(&f, &u, 4); return f; }
static double cpu(void) { return (double)clock() / CLOCKS_PER_SEC; }

int main(int argc, char **argv)
{
    if (argc != 6) { fprintf(stderr, "usage: lm_head_ref v1.bin v2.bin v3.bin IDX OUT.bin\n"); return 2; }
    double t0 = cpu();
    float *out = slurp(argv[1], (size_t)M * N * 4);
    uint16_t *a = slurp(argv[2], (size_t)M * K * 2), *w = slurp(argv[3], (size_t)N * K * 2);
    long idx = atol(argv[4]);
    double t1 = cpu();
    static float wt[K][TN];   /* the tile's weights, k-major, as floats */
    for (long j = idx; j < (N + TN - 1) / TN; j += 24) {
        for (int n = 0; n < TN; n++)
            for (int k = 0; k < K; k++) wt[k][n] = bf16(w[(size_t)(j * TN + n) * K + k]);
        for (int m = 0; m < M; m++) {
            float acc[TN] = {0};
            for (int k = 0; k < K; k++) {
                float x = bf16(a[m * K + k]);
                for (int n = 0; n < TN; n++) acc[n] = acc[n] + x * wt[k][n];
            }
            memcpy(out + (size_t)m * N + j * TN, acc, sizeof acc);
        }
    }
    double t2 = cpu();
    FILE *f = fopen(argv[5], "wb");
    if (!f || fwrite(out, 4, (size_t)M * N, f) != (size_t)M * N || fclose(f)) { fprintf(stderr, "lm_head_ref: cannot write %s\n", argv[5]); return 2; }
    printf("read %.3f s, matmul %.3f s (CPU)\n", t1 - t0, t2 - t1);
    return 0;
}
