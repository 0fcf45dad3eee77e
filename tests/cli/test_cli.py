#!/usr/bin/env python3
"""test_cli.py --build BUILD — tests of the ptosim command line that .pto directives cannot express:
--help against the options the parser accepts, standard input, JSON Lines and SARIF output (parsed with
the json module; expected IDs and locations are read from the DIAG/NOTE directives of the test files),
hex dumps, argument errors and their messages. Prints "N passed, M failed"; exit 1 on failure."""
import json, os, re, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import BUILD, ROOT, check, finish

PTOSIM = os.path.join(BUILD, "ptosim")
T = lambda *p: os.path.join(ROOT, "tests", *p)


def ptosim(*args, stdin=None, cwd=None):
    p = subprocess.run([PTOSIM] + list(args), input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8", "replace")


# ---------------------------------------------------------------- --help lists what the parser accepts

COMMANDS = [[], ["check"], ["fmt"], ["run"]]
# options that existed before the option tables, and the long forms shared by the subcommands
REQUIRED = {
    "": {"-h", "--help", "-V", "--version"},
    "check": {"-t", "--target", "--diagnostics-format", "-h", "--help"},
    "fmt": {"-o", "--output", "--generic", "--no-verify", "-t", "--target", "-h", "--help"},
    "run": {"-t", "--target", "-e", "--entry", "-b", "--blocks", "-q", "--quiet", "--steps", "--no-race", "--race",
            "--vag-loops", "--dump", "--diagnostics-format", "-h", "--help"},
}
# a value each option accepts, to probe the parser with it
VALUES = {"TARGET": "a5", "NAME": "k", "N": "2", "FILE": "-", "FORMAT": "json", "SPEC": "ub:0:32"}


def help_options(text):
    """(spelling set, {spelling: value name or None}) of the option lines of --help."""
    opts, values = set(), {}
    for line in text.splitlines():
        m = re.match(r"^  (?:(-[A-Za-z0-9]),? ?)?(?:\s*(--[a-z][a-z0-9-]*))?(?:[= ]([A-Z]+))?(?:\s{2,}(\S.*))?$", line)
        if not m or not (m.group(1) or m.group(2)):
            continue
        for s in (m.group(1), m.group(2)):
            if s:
                opts.add(s)
                values[s] = m.group(3)
    return opts, values


for cmd in COMMANDS:
    name = cmd[0] if cmd else ""
    code, out, err = ptosim(*cmd, "--help")
    check(code == 0 and out.startswith("usage: ptosim"), "ptosim %s --help exits 0 with a usage" % name, err)
    code2, out2, _ = ptosim(*cmd, "-h")
    check(code2 == 0 and out2 == out, "ptosim %s -h is --help" % name)
    if cmd:
        code3, out3, _ = ptosim("help", *cmd)
        check(code3 == 0 and out3 == out, "ptosim help %s is ptosim %s --help" % (name, name))
    listed, values = help_options(out)
    code, lst, err = ptosim(*cmd, "--list-options")
    accepted = set()
    for line in lst.splitlines():
        accepted.update(w for w in line.split() if w.startswith("-"))
    check(code == 0 and accepted, "ptosim %s --list-options" % name, err)
    check(listed == accepted, "ptosim %s: --help lists exactly the options the parser accepts" % name,
          "only in --help: %s\nonly in the parser: %s" % (sorted(listed - accepted), sorted(accepted - listed)))
    check(REQUIRED[name] <= listed, "ptosim %s --help lists %s" % (name, sorted(REQUIRED[name] - listed)))
    # every line of an option says what it does
    for line in out.splitlines():
        if re.match(r"^  -", line) and not re.match(r"^  (-\S+,? ?)?(--\S+)?\s*$", line):
            check(len(line.split("  ")[-1].strip()) > 5, "ptosim %s --help: description of %r" % (name, line))
    # the parser really takes each listed option (probed after the subcommand, with a value when it needs one)
    for o in sorted(accepted):
        if o in ("-h", "--help", "--list-options", "-V", "--version"):
            continue
        argv = list(cmd) + [o] + ([VALUES.get(values.get(o), "x")] if values.get(o) else [])
        code, out_, err = ptosim(*argv)
        check("unknown option" not in err, "ptosim %s accepts %s" % (name, " ".join(argv[len(cmd):])), err)
    code, _, err = ptosim(*cmd, "--no-such-option")
    check(code == 2 and "unknown option '--no-such-option'" in err and "[E-USAGE]" in err,
          "ptosim %s rejects an unknown option" % name, err)

code, out, _ = ptosim("-V")
code2, out2, _ = ptosim("--version")
code3, out3, _ = ptosim("version")
check(code == code2 == code3 == 0 and out.startswith("ptosim ") and out == out2 == out3, "-V, --version, version")
# a converting op lists its pairs per target (the A5 templates convert f32 to fp8 and f16 to hif8; a2a3 has neither)
code, out, err = ptosim("help", "pto.tcvt")
a5 = out.split("pairs on a5", 1)[-1].split("pairs on a2a3", 1)[0]
a3 = out.split("pairs on a2a3", 1)[-1]
row = lambda text, src: next((l.split("->", 1)[1].split() for l in text.splitlines() if l.split()[:2] == [src, "->"]), [])
check(code == 0 and "pairs on a5" in out and "pairs on a2a3" in out, "help pto.tcvt lists its pairs per target", out)
check("f8E4M3FN" in row(a5, "f32") and "hif8" in row(a5, "f16") and "f32" in row(a5, "f16"), "help pto.tcvt: a5 pairs", a5)
check(row(a3, "f32") and "f8E4M3FN" not in row(a3, "f32") and "hif8" not in row(a3, "f16"), "help pto.tcvt: a2a3 pairs", a3)
code, out, err = ptosim("help", "nope")
check(code == 2 and "'nope' is neither a command" in err, "help of an unknown command (nor op)", err)
code, out, err = ptosim("run", "--no-rase")
check(code == 2 and "did you mean '--no-race'?" in err, "a misspelled option gets a suggestion", err)
code, out, err = ptosim("run", "--quiet=1")
check(code == 2 and "option '--quiet' takes no value" in err, "a flag given a value", err)
code, out, err = ptosim("run", "--steps")
check(code == 2 and "option '--steps' needs a value (N)" in err, "a missing value", err)

# ---------------------------------------------------------------- standard input

copy = open(T("cli", "copy_f32.pto"), "rb").read()
code, out, err = ptosim("check", "-", stdin=copy)
check(code == 0 and err == "", "check - reads standard input", err)
code, out, err = ptosim("check", "-", stdin=b"module {\n  func.func @f() {\n    pto.nope\n  }\n}\n")
check(code == 1 and re.search(r"^<stdin>:3:5: error: .*\[E-", err, re.M), "check -: diagnostics name <stdin>", err)
code, out, err = ptosim("check", "-", "-", stdin=copy)
check(code == 2 and "can be read only once" in err, "check - - is refused", err)
code_f, out_f, _ = ptosim("fmt", T("cli", "copy_f32.pto"))
code, out, err = ptosim("fmt", "-", stdin=copy)
check(code == 0 and code_f == 0 and out == out_f and "pto.mte_gm_ub" in out, "fmt - prints what fmt FILE prints", err)
with tempfile.TemporaryDirectory() as tmp:
    src = bytes(range(256))
    open(os.path.join(tmp, "in.bin"), "wb").write(src)
    code, out, err = ptosim("run", "-q", "-", "in.bin", "zeros:256:out.bin", "5", stdin=copy, cwd=tmp)
    got = open(os.path.join(tmp, "out.bin"), "rb").read() if code == 0 else b""
    check(code == 0 and got == src, "run - reads the kernel from standard input", err)

    # ------------------------------------------------------------ argument errors, before the run
    kernel = T("cli", "copy_f32.pto")
    code, out, err = ptosim("run", kernel, "5", "zeros:256", "1")
    check(code == 2 and "parameter 0 (%src: !pto.ptr<f32, gm>)" in err and "not the number '5'" in err
          and "[E-ARG-FORM]" in err, "a scalar where a pointer is expected names the parameter", err)
    code, out, err = ptosim("run", kernel, "zeros:256", "zeros:256", "zeros:4")
    check(code == 2 and "parameter 2 (%unused: i32)" in err and "integer literal" in err, "a buffer where a scalar is expected", err)
    open(os.path.join(tmp, "i16.npy"), "wb").write(
        b"\x93NUMPY\x01\x00" + (118).to_bytes(2, "little")
        + b"{'descr': '<i2', 'fortran_order': False, 'shape': (128,), }".ljust(117) + b"\n" + bytes(256))
    code, out, err = ptosim("run", kernel, "i16.npy", "zeros:256", "1", cwd=tmp)
    check(code == 2 and "parameter 0 (%src: !pto.ptr<f32, gm>)" in err and "'<i2'" in err and "'<f4'" in err
          and "[E-ARG-NPY]" in err, "a .npy of the wrong dtype names the parameter and both types", err)
    # an unwritable output is found before the run: the trapping kernel does not run (exit 2, not 3) and
    # the other output is not written
    trap = T("cli", "trap_after_copy.pto")
    code, out, err = ptosim("run", trap, "in.bin:first.bin", "zeros:256:no/such/dir/out.bin", "262016", cwd=tmp)
    check(code == 2 and "parameter 1 (%dst: !pto.ptr<ui8, gm>): cannot write 'no/such/dir/out.bin': No such file or directory" in err
          and "[E-IO-WRITE]" in err and not os.path.exists(os.path.join(tmp, "first.bin")) and "T-OOB" not in err,
          "an unwritable output path is reported before the run, with the reason", err)
    code, out, err = ptosim("run", trap, "in.bin", "zeros:256:" + tmp, "262016", cwd=tmp)
    check(code == 2 and "Is a directory" in err and "T-OOB" not in err, "an output path that is a directory", err)
    code, out, err = ptosim("run", trap, "in.bin", "zeros:256", "262016", "--dump", "ub:0:32:no/dir/x.bin", cwd=tmp)
    check(code == 2 and "cannot write 'no/dir/x.bin': No such file or directory" in err and "T-OOB" not in err,
          "an unwritable dump file is reported before the run", err)
    code, out, err = ptosim("check", tmp)
    check(code == 2 and "cannot read '%s': Is a directory [E-IO-READ]" % tmp in err, "check on a directory", err)
    empty = os.path.join(tmp, "empty.pto")
    open(empty, "w").close()
    code, out, err = ptosim("run", empty)
    check(code == 2 and "empty.pto:1:1: error: the module defines no function to run [E-ENTRY]" in err, "run on an empty file", err)
    code, out, err = ptosim("run", "-e", "nope", kernel)
    check(code == 2 and re.search(r"copy_f32\.pto:[1-9]\d*:[1-9]\d*: error: no function '@nope' in the module \[E-ENTRY\]", err),
          "run -e nope: a real location", err)

    # ------------------------------------------------------------ --dump as a hex dump
    code, out, err = ptosim("run", "-q", kernel, "in.bin", "zeros:256", "1", "--dump", "ub:0x10:40", cwd=tmp)
    lines = out.splitlines()
    hexbytes = []
    for l in lines[1:]:
        m = re.match(r"^([0-9a-f]{8})  (.*?)\s*\|(.*)\|$", l)
        if m:
            hexbytes += [int(b, 16) for b in m.group(2).split()]
    check(code == 0 and lines and "aiv0.ub of block 0, offset 16, 40 bytes" in lines[0] and lines[1].startswith("00000010")
          and hexbytes == list(src[16:56]), "--dump without FILE prints a hex dump of the bytes", out + err)
    code, out, err = ptosim("run", "-q", kernel, "in.bin", "zeros:256", "1", "--dump", "ub:0:64:d.npy:f32", cwd=tmp)
    d = open(os.path.join(tmp, "d.npy"), "rb").read() if code == 0 else b""
    check(code == 0 and d.startswith(b"\x93NUMPY") and b"'descr': '<f4'" in d and b"(16,)" in d and d.endswith(src[:64]),
          "--dump to a .npy of f32", err)
    for spec, msg in [("ub:0", "expected [bN.][CORE.]SPACE:OFFSET:BYTES"), ("xx:0:4", "unknown space 'xx'"),
                      ("aiv3.ub:0:4", "unknown selector 'aiv3'"), ("ub:0:6:x.npy:f32", "not a whole number of f32"),
                      ("ub:0:8:x.bin:f32", "applies to a .npy FILE only"), ("ub:0:0", "bad byte count"),
                      ("b1.ub:0:4", "block 1 does not exist")]:
        code, out, err = ptosim("run", kernel, "in.bin", "zeros:256", "1", "--dump", spec, cwd=tmp)
        check(code == 2 and msg in err and "completed" not in err, "--dump %s: %s" % (spec, msg), err)
    for spec, msg in [("aic.l1:0:4", "this kernel has no core aic"),
                      ("ub:262000:1000", "offset 262000 (0x3ff70) + 1000 bytes is past the end of ub (262144 (0x40000) bytes)")]:
        code, out, err = ptosim("run", kernel, "in.bin", "zeros:256", "1", "--dump", spec, cwd=tmp)
        check(code == 2 and msg in err, "--dump %s: %s" % (spec, msg), err)

# ---------------------------------------------------------------- JSON Lines and SARIF


def directives(path):
    """Expected (id, line, col) of DIAG lines and (line, col) of NOTE lines, and the RUN arguments."""
    diags, notes, run = [], [], None
    for line in open(path, encoding="utf-8"):
        m = re.match(r"\s*//\s*DIAG:\s*([A-Z]-[A-Z0-9-]+)\s*@\s*(\d+):(\d+)", line)
        if m:
            diags.append((m.group(1), int(m.group(2)), int(m.group(3))))
        m = re.match(r"\s*//\s*NOTE:\s*@?\s*(\d+):(\d+)", line)
        if m:
            notes.append((int(m.group(1)), int(m.group(2))))
        m = re.match(r"\s*//\s*RUN:\s*ptosim run %s(.*)$", line)
        if m and run is None:
            run = m.group(1).split()
    return diags, notes, run


CASES = [T("verify", "addr_space.pto"), T("dma", "deadlock.pto"), T("dma", "oob_ub.pto")]
for path in CASES:
    want, want_notes, run = directives(path)
    argv = ["run", path] + run if run else ["check", path]
    base = os.path.relpath(path, ROOT)
    code, out, err = ptosim(argv[0], "--diagnostics-format=json", *argv[1:])
    recs = []
    try:
        recs = [json.loads(l) for l in out.splitlines()]
        ok = True
    except ValueError as e:
        ok = False
        err += "\n%s" % e
    check(ok and recs and code in (1, 3), "%s: --diagnostics-format=json is JSON Lines" % base, out + err)
    keys = {"id", "severity", "file", "line", "col", "message", "notes"}
    check(all(set(r) == keys and r["severity"] in ("error", "warning", "note", "trap") and isinstance(r["notes"], list)
              for r in recs), "%s: every JSON record has exactly %s" % (base, sorted(keys)), out)
    got = {(r["id"], r["line"], r["col"]) for r in recs if r["file"] == path}
    check(set(want) <= got, "%s: JSON records at the expected locations" % base, "want %s\ngot %s" % (want, got))
    got_notes = {(n["line"], n["col"]) for r in recs for n in r["notes"] if n["file"] == path}
    check(set(want_notes) <= got_notes and all(set(n) == {"file", "line", "col", "message"} for r in recs for n in r["notes"]),
          "%s: JSON notes" % base, "want %s\ngot %s" % (want_notes, got_notes))

    code, out, err = ptosim(argv[0], "--diagnostics-format", "sarif", *argv[1:])
    try:
        log = json.loads(out)
    except ValueError as e:
        log = None
        err += "\n%s" % e
    check(isinstance(log, dict), "%s: --diagnostics-format=sarif is one JSON document" % base, out + err)
    if not isinstance(log, dict):
        continue
    # the properties SARIF 2.1.0 requires: sarifLog.version and runs, run.tool.driver.name,
    # result.message.text; locations with artifactLocation.uri and a region with startLine >= 1
    runs = log.get("runs")
    check(log.get("version") == "2.1.0" and isinstance(runs, list) and len(runs) == 1, "%s: SARIF log header" % base)
    res = runs[0].get("results") if runs else None
    check(runs and isinstance(runs[0].get("tool", {}).get("driver", {}).get("name"), str) and isinstance(res, list),
          "%s: SARIF run with tool.driver.name and results" % base)
    inv = runs[0].get("invocations") if runs else None
    check(isinstance(inv, list) and len(inv) == 1 and inv[0].get("executionSuccessful") is True and inv[0].get("exitCode") == code,
          "%s: SARIF invocation with executionSuccessful and the exit code" % base, inv)
    res = res or []
    got = set()
    got_notes = set()

    def loc_of(l):
        pl = l.get("physicalLocation", {})
        r = pl.get("region", {})
        return pl.get("artifactLocation", {}).get("uri"), r.get("startLine"), r.get("startColumn")

    for r in res:
        check(isinstance(r.get("message", {}).get("text"), str) and r.get("level") in ("error", "warning", "note", "none")
              and isinstance(r.get("ruleId"), str), "%s: SARIF result fields" % base, r)
        for l in r.get("locations", []):
            uri, line, col = loc_of(l)
            check(isinstance(uri, str) and isinstance(line, int) and line >= 1, "%s: SARIF location" % base, l)
            if uri == "file://" + path:
                got.add((r["ruleId"], line, col))
        for l in r.get("relatedLocations", []):
            uri, line, col = loc_of(l)
            check(isinstance(l.get("message", {}).get("text"), str), "%s: SARIF related location message" % base, l)
            if uri == "file://" + path:
                got_notes.add((line, col))
    check(set(want) <= got, "%s: SARIF results at the expected locations" % base, "want %s\ngot %s" % (want, got))
    check(set(want_notes) <= got_notes, "%s: SARIF notes as related locations" % base, "want %s\ngot %s" % (want_notes, got_notes))

# a clean file: an empty SARIF result list, no JSON records; CLI errors in JSON too
code, out, err = ptosim("check", "--diagnostics-format=sarif", T("cli", "copy_f32.pto"))
check(code == 0 and json.loads(out)["runs"][0]["results"] == [], "SARIF of a clean file has no results", out + err)
code, out, err = ptosim("check", "--diagnostics-format=json", T("cli", "copy_f32.pto"))
check(code == 0 and out == "", "JSON of a clean file is empty", out + err)
code, out, err = ptosim("check", "--diagnostics-format=json", T("cli", "no-such-file.pto"))
recs = [json.loads(l) for l in out.splitlines()] if code == 2 else []
check(len(recs) == 1 and recs[0]["id"] == "E-IO-READ" and recs[0]["file"] is None and recs[0]["line"] is None,
      "an I/O error as a JSON record without location", out + err)
code, out, err = ptosim("check", "--diagnostics-format=sarif", T("cli", "no-such-file.pto"))
log = json.loads(out) if code == 2 else {}
inv = log.get("runs", [{}])[0].get("invocations", [{}])[0]
check(inv.get("executionSuccessful") is False and inv.get("exitCode") == 2
      and log["runs"][0]["results"][0]["ruleId"] == "E-IO-READ", "SARIF of an I/O error: execution not successful", out + err)
code, out, err = ptosim("check", "--diagnostics-format=xml", T("cli", "copy_f32.pto"))
check(code == 2 and "unknown diagnostics format 'xml'" in err, "an unknown diagnostics format", err)

finish()
