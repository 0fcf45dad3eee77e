/* outfile.c — output files that never lose what they held: a regular (or new) file is written to a temporary
 * in the same folder and renamed over the target only when every byte is written and closed, so a failed
 * write (disk full, a signal) leaves the old file whole. A FIFO, a device or a terminal is opened once and
 * written in place (renaming over it would replace it). docs/internals.md "Output files". */
#define _XOPEN_SOURCE 700   /* realpath */
#include "cli.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *cli_out_open(CliOutFile *o, const char *path, const char *mode)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    struct stat st;
    int exists = stat(path, &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) {
            errno = EISDIR;
            return NULL;
        }
        return o->f = fopen(path, mode);   /* a FIFO or a device: opened once, written in place */
    }
    /* through a symbolic link: the temporary goes next to the file the link names, which the rename replaces */
    char *real = exists ? realpath(path, NULL) : NULL;
    const char *target = real ? real : path;
    size_t n = strlen(target);
    o->tmp = malloc(n + 16);
    if (!o->tmp) {
        free(real);
        errno = ENOMEM;
        return NULL;
    }
    memcpy(o->tmp, target, n);
    memcpy(o->tmp + n, ".ptosim-XXXXXX", 15);
    o->real = real;
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        int e = errno;
        free(o->tmp);
        free(o->real);
        o->tmp = o->real = NULL;
        errno = e;
        return NULL;
    }
    /* the permissions the file had, or those a new file gets (0666 less the umask) */
    mode_t m;
    if (exists) {
        m = st.st_mode & 07777;
    } else {
        mode_t um = umask(0);
        umask(um);
        m = 0666 & ~um;
    }
    (void)fchmod(fd, m);
    o->f = fdopen(fd, mode[0] == 'w' ? "wb" : mode);
    if (!o->f) {
        int e = errno;
        close(fd);
        unlink(o->tmp);
        free(o->tmp);
        free(o->real);
        o->tmp = o->real = NULL;
        errno = e;
    }
    return o->f;
}

int cli_out_close(CliOutFile *o, int ok)
{
    int e = ok ? 0 : (errno ? errno : EIO);
    if (o->f) {
        if (ferror(o->f) && !e) e = errno ? errno : EIO;
        if (fclose(o->f) != 0 && !e) e = errno ? errno : EIO;
    } else if (!e) {
        e = errno ? errno : EIO;
    }
    o->f = NULL;
    if (o->tmp) {
        if (!e && rename(o->tmp, o->real ? o->real : o->path) != 0) e = errno;
        if (e) unlink(o->tmp);
        free(o->tmp);
        free(o->real);
        o->tmp = o->real = NULL;
    }
    errno = e;
    return e ? -1 : 0;
}

int cli_out_write(const char *path, const void *data, size_t n)
{
    CliOutFile o;
    errno = 0;
    FILE *f = cli_out_open(&o, path, "wb");
    int ok = f && (n == 0 || fwrite(data, 1, n, f) == n);
    return cli_out_close(&o, ok);
}
