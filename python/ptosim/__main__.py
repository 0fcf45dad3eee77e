"""python3 -m ptosim ARGS... — the ptosim command-line tool: this runs the tool itself (found as
ptosim.program_path() says: $PTOSIM_BIN, the package's own copy, make install's BINDIR, the source tree's
build/ptosim, then PATH) with the same arguments, so options, output and exit status are the tool's.
It needs neither numpy nor the library (see __init__.py)."""
import os, sys

from . import _lib


def main():
    prog = _lib.program_path()
    if not prog:
        sys.stderr.write("ptosim: error: cannot find the ptosim tool; build it with `make`, install it with "
                         "`make install`, or name it in PTOSIM_BIN [E-IO-READ]\n")
        return 2
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(prog, ["ptosim"] + sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
