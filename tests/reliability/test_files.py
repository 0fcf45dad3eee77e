#!/usr/bin/env python3
"""test_files.py [--build BUILD] — issue 33 classes 4 and 5 on the command line: files never lose data, reads are
bounded, output errors are never silent. Each case states its expectation (exit code, diagnostic ID, file
contents) from the documented contract (docs/internals.md "Output files", README exit codes), not from ptosim:

  - an :OUT naming the kernel, an input file or another :OUT: exit 2 (E-USAGE) before anything runs, the files
    unchanged;
  - `fmt -o FILE` replaces FILE whole and leaves no temporary behind; `fmt -o` of a file with errors keeps FILE;
  - an :OUT that is a FIFO: opened once, the reader gets every byte (once the pre-check opened it and hung);
  - an endless argument (a pipe fed forever) and an endless kernel on stdin: exit 2 with E-MEM-LIMIT / E-IO-READ
    under --max-memory=1M, within seconds and without growing past the bound;
  - standard output closed or full (/dev/full): exit 2 with E-IO-WRITE, never 0;
  - a write failing part way (an output to /dev/full, past RLIMIT_FSIZE, onto a full 64 KiB tmpfs when root):
    exit 2 with E-IO-WRITE, the target byte for byte as it was, no temporary left."""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import BUILD, ROOT, check, finish
import shutil, subprocess, tempfile, threading

PTOSIM = os.path.join(BUILD, "ptosim")
# a kernel that copies 64 bytes from its first parameter to its second (tests/dma/grouped_loops3.pto's shape)
KERNEL = """module attributes {pto.target_arch = "a5"} {
  func.func @copy(%src: !pto.ptr<ui8, gm>, %dst: !pto.ptr<ui8, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %c64 = arith.constant 64 : i64
    %ub = pto.castptr %c0 : i64 -> !pto.ptr<ui8, ub>
    pto.mte_gm_ub %src, %ub, %c0, %c64 nburst(%c1, %c64, %c64) : !pto.ptr<ui8, gm>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %ub, %dst, %c64 nburst(%c1, %c64, %c64) : !pto.ptr<ui8, ub>, !pto.ptr<ui8, gm>, i64, i64, i64, i64
    pto.barrier #pto.pipe<PIPE_ALL>
    return
  }
}
"""


def run(args, timeout=30, **kw):
    try:
        p = subprocess.run([PTOSIM] + args, stdout=kw.pop("stdout", subprocess.PIPE), stderr=subprocess.PIPE,
                           timeout=timeout, **kw)
        return p.returncode, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return -999, "TIMEOUT"


def read(path):
    with open(path, "rb") as f:
        return f.read()


tmp = tempfile.mkdtemp(prefix="ptosim-rel-")
try:
    k = os.path.join(tmp, "k.pto")
    inp = os.path.join(tmp, "in.bin")
    with open(k, "w") as f:
        f.write(KERNEL)
    data = bytes(range(64))
    with open(inp, "wb") as f:
        f.write(data)

    # the run itself works (the baseline the refusals below are measured against)
    out = os.path.join(tmp, "out.bin")
    code, err = run(["run", "-q", k, inp, "zeros:64:" + out])
    check(code == 0 and read(out) == data, "baseline run copies 64 bytes", err)

    # an OUT naming the kernel, the input, another OUT
    for args, what in ((["run", k, inp, "zeros:64:" + k], "OUT = kernel"),
                       (["run", k, inp, "zeros:64:" + inp], "OUT = input"),
                       (["run", k, "fill:64:1:" + out, "zeros:64:" + out], "two OUTs, one file"),
                       (["run", k, inp, "zeros:64:" + os.path.join(tmp, ".", "k.pto")], "OUT = kernel, spelled otherwise")):
        code, err = run(args)
        check(code == 2 and "[E-USAGE]" in err, what + ": exit 2, E-USAGE", "exit %d\n%s" % (code, err))
        check(read(k) == KERNEL.encode() and read(inp) == data, what + ": kernel and input unchanged")

    # fmt -o: replaced whole, no temporary left; a file with errors leaves the target alone
    target = os.path.join(tmp, "fmt.pto")
    with open(target, "w") as f:
        f.write("precious\n")
    code, err = run(["fmt", k, "-o", target])
    check(code == 0 and read(target).startswith(b"module"), "fmt -o replaces the file", err)
    check(sorted(os.listdir(tmp)) == sorted(["k.pto", "in.bin", "out.bin", "fmt.pto"]), "no temporary left",
          str(os.listdir(tmp)))
    bad = os.path.join(tmp, "bad.pto")
    with open(bad, "w") as f:
        f.write("module {\n  pto.nonsense\n}\n")
    before = read(target)
    code, err = run(["fmt", bad, "-o", target])
    check(code == 1 and read(target) == before, "fmt -o of a file with errors keeps the target", err)
    os.remove(bad)
    code, err = run(["fmt", k, "-o", k])
    check(code == 0 and read(k) == KERNEL.encode(), "fmt -o of the file itself (canonical already) keeps it", err)

    # a FIFO output: opened once, its reader gets the 64 bytes
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    got = []

    def reader():
        with open(fifo, "rb") as f:
            got.append(f.read())

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    code, err = run(["run", "-q", k, inp, "zeros:64:" + fifo], timeout=20)
    t.join(10)
    check(code == 0 and got == [data], "a FIFO OUT gets the bytes once", "exit %d got %r\n%s" % (code, got, err))
    os.remove(fifo)

    # endless inputs under --max-memory=1M: an argument read from a pipe that never ends, a kernel on stdin
    p = subprocess.Popen(["sh", "-c", "exec cat /dev/zero"], stdout=subprocess.PIPE)
    code, err = run(["run", k, "/dev/stdin", "zeros:64", "--max-memory=1M"], stdin=p.stdout, timeout=30)
    p.kill()
    p.wait()
    check(code == 2 and "[E-MEM-LIMIT]" in err, "endless argument pipe: exit 2, E-MEM-LIMIT", "exit %d\n%s" % (code, err))
    code, err = run(["run", k, "/dev/zero", "zeros:64", "--max-memory=1M"])
    check(code == 2 and "[E-MEM-LIMIT]" in err, "endless argument device: exit 2, E-MEM-LIMIT", "exit %d\n%s" % (code, err))
    p = subprocess.Popen(["sh", "-c", "exec cat /dev/zero"], stdout=subprocess.PIPE)
    code, err = run(["run", "-", "zeros:64", "zeros:64", "--max-memory=1M"], stdin=p.stdout, timeout=30)
    p.kill()
    p.wait()
    check(code == 2 and "[E-IO-READ]" in err, "endless kernel on stdin: exit 2, E-IO-READ", "exit %d\n%s" % (code, err))

    # .npy headers: keys parsed exactly (numpy's reader demands exactly descr, fortran_order, shape)
    def npy(header):
        h = header + " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
        return b"\x93NUMPY\x01\x00" + bytes([len(h) & 255, len(h) >> 8]) + h.encode() + data
    for header, what, ok in (("{'descr': '|u1', 'fortran_order': False, 'shape': (64,), }", "a well-formed header", True),
                             ("{'descr': '|u1', 'fortran_order': False, 'xshape': (64,), }", "key 'xshape'", False),
                             ("{'descr': '|u1', 'fortran_order': False, 'shape': (64,), 'shape': (1,), }", "duplicate key", False),
                             ("{'descr': '|u1', 'fortran_order': Maybe, 'shape': (64,), }", "fortran_order Maybe", False)):
        path = os.path.join(tmp, "a.npy")
        with open(path, "wb") as f:
            f.write(npy(header))
        code, err = run(["run", "-q", k, path, "zeros:64"])
        if ok:
            check(code == 0, ".npy " + what + " is read", err)
        else:
            check(code == 2 and "[E-ARG-NPY]" in err, ".npy " + what + ": exit 2, E-ARG-NPY", "exit %d\n%s" % (code, err))
        os.remove(path)

    # --dump FILE.npy:TYPE with an unknown TYPE is a usage error (it never becomes part of the file name)
    code, err = run(["run", k, inp, "zeros:64", "--dump", "ub:0:64:" + os.path.join(tmp, "d.npy") + ":f33"])
    check(code == 2 and "[E-USAGE]" in err and not os.listdir(tmp).count("d.npy:f33"), "--dump TYPE validated", err)

    # standard output closed, or full
    code, err = run(["fmt", k], stdout=subprocess.DEVNULL, preexec_fn=lambda: os.close(1))
    check(code == 2 and "[E-IO-WRITE]" in err, "fmt with stdout closed: exit 2, E-IO-WRITE", "exit %d\n%s" % (code, err))
    if os.path.exists("/dev/full"):
        with open("/dev/full", "wb") as full:
            code, err = run(["fmt", k], stdout=full)
        check(code == 2 and "[E-IO-WRITE]" in err, "fmt to /dev/full: exit 2, E-IO-WRITE", "exit %d\n%s" % (code, err))
        with open("/dev/full", "wb") as full:
            code, err = run(["run", k, inp, "zeros:64", "--stats"], stdout=full)
        check(code == 2 and "[E-IO-WRITE]" in err, "run --stats to /dev/full: exit 2", "exit %d\n%s" % (code, err))

    # a write that fails part way (disk full): exit 2, E-IO-WRITE, the target byte for byte as it was, no temporary
    # left. Three ways to fail a write: /dev/full (fails at once), a file-size limit (RLIMIT_FSIZE: the kernel
    # fails writes past N bytes with EFBIG, no root needed), and when root a 64 KiB tmpfs filled up (ENOSPC).
    big = os.path.join(tmp, "big.pto")   # a kernel whose formatted text is ~ 40 KB
    with open(big, "w") as f:
        f.write('module attributes {pto.target_arch = "a5"} {\n  func.func @k() attributes {pto.kernel} {\n')
        for i in range(1000):
            f.write("    %%c%d = arith.constant %d : i64\n" % (i, i))
        f.write("    return\n  }\n}\n")
    precious = bytes((i * 7) & 255 for i in range(10000))

    def fresh(path):
        with open(path, "wb") as f:
            f.write(precious)

    code, err = run(["fmt", k, "-o", "/dev/full"])
    check(code == 2 and "[E-IO-WRITE]" in err, "fmt -o /dev/full: exit 2, E-IO-WRITE", "exit %d\n%s" % (code, err))
    code, err = run(["run", k, inp, "zeros:64:/dev/full"])
    check(code == 2 and "[E-IO-WRITE]" in err, "run OUT=/dev/full: exit 2, E-IO-WRITE", "exit %d\n%s" % (code, err))

    def limited(n):
        def pre():
            import resource, signal
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # EFBIG instead of the signal
            resource.setrlimit(resource.RLIMIT_FSIZE, (n, n))
        return pre

    lim = os.path.join(tmp, "lim")
    os.mkdir(lim)
    target = os.path.join(lim, "target.pto")
    for args, what in ((["fmt", big, "-o", target], "fmt -o FILE"),
                       (["run", k, inp, "zeros:64:" + target], "run OUT"),
                       (["run", k, inp, "zeros:64", "--dump", "ub:0:64:" + target], "--dump FILE")):
        fresh(target)
        code, err = run(args, preexec_fn=limited(32 if what != "fmt -o FILE" else 4096))
        check(code == 2 and "[E-IO-WRITE]" in err, what + " past a file-size limit: exit 2, E-IO-WRITE",
              "exit %d\n%s" % (code, err))
        check(read(target) == precious and os.listdir(lim) == ["target.pto"],
              what + " past a file-size limit: the old file intact, no temporary", str(os.listdir(lim)))
    # the input itself as the output: a failed write keeps the kernel
    shutil.copy(big, target)
    code, err = run(["fmt", target, "-o", target], preexec_fn=limited(4096))
    check(code == 2 and read(target) == read(big), "fmt -o INPUT past a file-size limit keeps the input", err)
    os.remove(target)

    # disk full for real: a 64 KiB tmpfs (root only; skipped, with a message, where mounting is not allowed)
    mnt = os.path.join(tmp, "mnt")
    os.mkdir(mnt)
    mounted = os.geteuid() == 0 and subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt],
                                                    stderr=subprocess.DEVNULL).returncode == 0
    if not mounted:
        print("test_files: not root or mount refused: the tmpfs disk-full case is skipped (RLIMIT_FSIZE ran)")
    else:
        try:
            target = os.path.join(mnt, "target.pto")
            fresh(target)
            try:   # fill the rest of the file system
                with open(os.path.join(mnt, "filler"), "wb") as f:
                    while True:
                        f.write(b"\0" * 4096)
                        f.flush()
            except OSError:
                pass
            for args, what in ((["fmt", big, "-o", target], "fmt -o FILE"), (["run", k, inp, "zeros:64:" + target], "run OUT")):
                code, err = run(args)
                check(code == 2 and "[E-IO-WRITE]" in err and "No space left" in err,
                      what + " on a full tmpfs: exit 2, E-IO-WRITE (ENOSPC)", "exit %d\n%s" % (code, err))
                check(read(target) == precious and sorted(os.listdir(mnt)) == ["filler", "target.pto"],
                      what + " on a full tmpfs: the old file intact, no temporary", str(os.listdir(mnt)))
        finally:
            subprocess.run(["umount", mnt])
finally:
    shutil.rmtree(tmp, ignore_errors=True)
finish()
