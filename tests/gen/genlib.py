"""genlib.py — what the test generators (tests/gen/gen_*.py) share besides the float model (fmodel.py):
their command line, writing input and expected files, packing values, deterministic pseudo-random data and
integer wrapping. Python standard library only; nothing here runs ptosim.

A generator is called by tests/run.py as `python3 tests/gen/gen_X.py OUTDIR [CASE] [ARGS...]` (a `// GEN:`
line of a .pto test: OUTDIR is the test's temp dir, %t in its RUN lines). The usual shape:

    import genlib as gl
    def case_copy():
        src = gl.lcg_bytes(256, seed=3)
        gl.save("in.bin", src)
        gl.save("expected.bin", src)
    CASES = gl.cases(globals())              # every case_NAME function, by NAME
    if __name__ == "__main__":
        gl.main(CASES, __doc__)              # OUTDIR CASE ARGS...: sets gl.OUT, runs CASES[CASE](*ARGS)

Files
  OUT                      the output directory (set by cli() or main())
  save(name, data)         OUT/name <- bytes(data)
  save_vals(name, code, vals)  OUT/name <- little-endian struct array (code "B" "H" "I" "Q" "b" "h" "i" "q"
                           "e" "f" "d"), see pack()
  pack(code, vals)         bytes of a little-endian struct array
  unpack(code, data)       list of values of a little-endian struct array
  pack_ints(bits, vals), save_ints(name, bits, vals)  integers wrapped to 8/16/32/64 bits, little-endian
Command line
  cli(doc, nargs=1)        sys.argv[1:] checked (at least nargs words, else the doc as usage and exit 2);
                           sets OUT = argv[1], returns the words after it
  cases(namespace)         {NAME: function} of every case_NAME function
  run_case(cases, name, *args)  runs one case; an unknown name exits 2 listing the known ones
  main(cases, doc)         cli() then run_case()
Data
  lcg_bytes(n, seed, add=0)  the suite's deterministic byte pattern: x0 = seed * 2654435761 + add (mod 2^32),
                           x = x * 1103515245 + 12345 (mod 2^31), byte = bits 16..23 of x
  Lcg(seed)                the same recurrence as a stream of 23-bit numbers (next(), below(n))
Integers
  zext(v, bits)            the low `bits` bits; sext(v, bits) the same read as two's complement
"""
import os
import struct
import sys

OUT = None


# ---------------------------------------------------------------- command line

def cli(doc, nargs=1):
    """Checks sys.argv (at least `nargs` words after the program name), sets OUT, returns sys.argv[2:]."""
    global OUT
    if len(sys.argv) < 1 + nargs:
        sys.stderr.write((doc or "usage: %s OUTDIR ..." % sys.argv[0]).strip() + "\n")
        sys.exit(2)
    OUT = sys.argv[1]
    return sys.argv[2:]


def cases(namespace, prefix="case_"):
    """{NAME: function} for every function case_NAME of a module's globals()."""
    return {k[len(prefix):]: v for k, v in namespace.items() if k.startswith(prefix) and callable(v)}


def run_case(table, name, *args):
    if name not in table:
        sys.stderr.write("unknown case %s (have %s)\n" % (name, ", ".join(sorted(table))))
        sys.exit(2)
    return table[name](*args)


def main(table, doc):
    """OUTDIR CASE ARGS...: sets OUT and runs table[CASE](*ARGS) (arguments as strings)."""
    words = cli(doc, 2)
    return run_case(table, words[0], *words[1:])


# ---------------------------------------------------------------- files

def path(name, out=None):
    return os.path.join(OUT if out is None else out, name)


def save(name, data, out=None):
    """Writes bytes(data) to OUT/name (or out/name)."""
    with open(path(name, out), "wb") as f:
        f.write(bytes(data))


def save_text(name, text, out=None):
    with open(path(name, out), "w") as f:
        f.write(text)


def pack(code, vals):
    """Little-endian struct array: pack("I", [1, 2]) == b"\\x01\\0\\0\\0\\x02\\0\\0\\0"."""
    return struct.pack("<%d%s" % (len(vals), code), *vals)


def unpack(code, data):
    n = len(data) // struct.calcsize(code)
    return list(struct.unpack("<%d%s" % (n, code), bytes(data[:n * struct.calcsize(code)])))


def save_vals(name, code, vals, out=None):
    save(name, pack(code, vals), out)


INT_CODE = {8: "B", 16: "H", 32: "I", 64: "Q"}


def pack_ints(bits, vals):
    """Little-endian array of `bits`-bit integers (8, 16, 32, 64), each wrapped: pack_ints(8, [-1]) == b"\xff"."""
    return pack(INT_CODE[bits], [zext(v, bits) for v in vals])


def save_ints(name, bits, vals, out=None):
    save(name, pack_ints(bits, vals), out)


# ---------------------------------------------------------------- data

def lcg_bytes(n, seed=1, add=0):
    """deterministic pseudo-random bytes (the pattern of the DMA, predicate and vector load/store tests)"""
    x = (seed * 2654435761 + add) & 0xffffffff
    b = bytearray(n)
    for i in range(n):
        x = (x * 1103515245 + 12345) & 0x7fffffff
        b[i] = (x >> 16) & 0xff
    return b


class Lcg:
    """the same recurrence as a number stream: next() gives 23-bit numbers, below(n) one in [0, n)"""

    def __init__(self, seed):
        self.x = (seed * 2654435761 + 12345) & 0x7fffffff

    def next(self):
        self.x = (self.x * 1103515245 + 12345) & 0x7fffffff
        return self.x >> 8

    def below(self, n):
        return self.next() % n


# ---------------------------------------------------------------- integers

def zext(v, bits):
    return v & ((1 << bits) - 1)


def sext(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v
