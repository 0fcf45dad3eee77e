/* case.c — `ptosim case DIR...`: runs PTOAS / PTO-Gym style case directories (data script, host program built
 * against ptosim's stand-in device runtime, ptosim as the device, the case's compare script). The driver is
 * the Python module ptosim.case (python/ptosim/case.py, installed with the Python package): the cases' own
 * scripts are Python, so the tool only finds it and hands over, passing itself as the ptosim to run. */
#include "cli.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int cli_case(int argc, char **argv)
{
    char exe[PATH_MAX], dir[PATH_MAX], py_dir[PATH_MAX + 16], probe[PATH_MAX + 64];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return cli_error(NULL, "E-IO-READ", "cannot find the ptosim executable: %s", strerror(errno));
    exe[n] = 0;
    snprintf(dir, sizeof dir, "%s", exe);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    /* the source tree (build/ptosim next to python/): put its package first on the path */
    snprintf(py_dir, sizeof py_dir, "%s/../python", dir);
    snprintf(probe, sizeof probe, "%s/ptosim/case.py", py_dir);
    if (is_file(probe)) {
        const char *old = getenv("PYTHONPATH");
        size_t len = strlen(py_dir) + (old ? strlen(old) + 2 : 1);
        char *pp = malloc(len);
        if (!pp) return 2;
        snprintf(pp, len, "%s%s%s", py_dir, old && *old ? ":" : "", old && *old ? old : "");
        setenv("PYTHONPATH", pp, 1);
        free(pp);
    }
    if (!getenv("PTOSIM_BIN")) setenv("PTOSIM_BIN", exe, 1);
    const char *python = getenv("PTOSIM_PYTHON");
    if (!python || !*python) python = "python3";
    char **args = calloc((size_t)argc + 4, sizeof *args);
    if (!args) return 2;
    args[0] = (char *)python;
    args[1] = (char *)"-m";
    args[2] = (char *)"ptosim.case";
    for (int i = 0; i < argc; i++) args[3 + i] = argv[i];
    fflush(NULL);
    execvp(python, args);
    int e = errno;
    free(args);
    return cli_error(NULL, "E-IO-READ", "ptosim case runs its driver with %s (set PTOSIM_PYTHON for another), which "
                     "could not be started: %s", python, strerror(e));
}
