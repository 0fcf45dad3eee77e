"""ptosim — parse, verify and run PTO ISA v0.6 micro-instruction kernels from Python.

    import numpy as np, ptosim
    m = ptosim.load("kernel.pto")              # or the kernel's text; raises DiagnosticError on errors
    print(m.kernels)                           # {'abs_kernel_2d': Kernel(@abs_kernel_2d(%arg0: ...))}
    x = np.linspace(-1, 1, 1024, dtype=np.float32)
    y = np.zeros_like(x)
    r = m.run(x, y)                            # arrays are bound in place: y now holds the result
    print(r.stats.cycles, r.warnings)

A thin layer over libptosim (include/ptosim.h) through ctypes; numpy is the only dependency. Arrays are
passed zero-copy (the kernel reads and writes their memory), so they must be C-contiguous, writeable and
of the pointer's element type. A run releases the GIL: kernels on several Python threads run in parallel
(one Module can be run from several threads at once; each run gets its own copy of the library state).
"""
import sys

try:
    from ._api import *          # noqa: F401,F403
    from ._api import __all__    # noqa: F401
except ImportError as _e:
    # `python3 -m ptosim` (the tool, __main__.py) and `python3 -m ptosim.case` (the case driver) work without
    # numpy or the library. While `-m` locates the package, sys.argv[0] is "-m" (the documented behaviour).
    if sys.argv[:1] != ["-m"]:
        if getattr(_e, "name", None) == "numpy":
            raise ImportError("ptosim needs numpy, which this Python (%s) cannot import: install it (Debian: apt-get "
                              "install python3-numpy; elsewhere: python3 -m pip install numpy), or use a Python that "
                              "has it (Debian's /usr/bin/python3). `python3 -m ptosim` runs the tool without numpy."
                              % sys.executable, name="numpy") from None
        raise

__version__ = "0.1"
