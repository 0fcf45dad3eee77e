/* npy.h — minimal .npy (NumPy format 1.0-3.0) reader and writer for `ptosim run`. */
#ifndef PTOSIM_NPY_H
#define PTOSIM_NPY_H
#include <stddef.h>
#include <stdint.h>

typedef struct Npy {
    char kind;                 /* 'f', 'i', 'u', 'b', 'V', 'S' ... */
    unsigned itemsize;
    int big_endian;
    int fortran;
    uint64_t shape[8];
    unsigned ndim;
    uint64_t count;            /* product of the shape */
    size_t data_off;           /* offset of the data in the file */
    char descr[16];
} Npy;

/* Parses the header of buf[0..n). Returns 0 or writes a reason into err. */
int npy_parse(const uint8_t *buf, size_t n, Npy *out, char *err, size_t errn);
/* Writes a .npy file with descr (e.g. "<f4") and the given shape; returns 0 or -1. */
int npy_write(const char *path, const char *descr, const uint64_t *shape, unsigned ndim, const void *data, size_t bytes);
#endif
