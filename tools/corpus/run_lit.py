#!/usr/bin/env python3
"""tools/corpus/run_lit.py — measure ptosim against the public compiler's `test/lit/vpto` files.

    python3 tools/corpus/run_lit.py PTOAS_DIR [--dir vpto|vmi_new|pto] [--build BUILD] [--filter TEXT] [-v] [--list]

PTOAS_DIR is a checkout (or an extracted copy) of the compiler repository. Every `.pto` file under
PTOAS_DIR/test/lit/vpto is split into its *units*: the file itself, or, when its RUN lines use
`split-file`, each `//--- NAME` section named by a RUN line (other lines blanked so line numbers stay).
Each RUN line that feeds a unit to the compiler classifies it:

  positive   `ptoas ...` without `not` (the compiler accepts the input)
  negative   `not ptoas ...`, or `-verify-diagnostics` / `expected-error` (the compiler rejects it)
  pass-test  `pto-test-opt ...` (a compiler-internal pass test: its input is a pass's intermediate
             form, not a kernel) or `ptoas --emit-pto-ir` (stops in the tile-level pipeline, before the
             micro-instruction backend): listed, not counted
  surface:X  the input uses another surface of the compiler (tile ops, the pto.ub dialect, VMI, SIMT,
             LLVM-dialect ops): listed, not counted
  driver     a negative test whose expected message is about the compiler driver (options, output
             files, CANN versions, pto.backend fat-object packaging) or a limit of its C++ (EmitC)
             code generator: listed, not counted
  option:X   a negative test whose RUN line passes a compiler option X that changes what the compiler
             accepts and that ptosim does not model (--pto-level, the memory planner's options, a
             backend other than vpto, --enable-bufid_sync, ...; UNMODELLED below): listed with how many
             ptosim rejects all the same, not counted
  (a RUN line with no input, such as `ptoas --help`, is ignored)

Every RUN line is walked once (run_inputs: the compiler stage, its options and the unit each input names);
both the vpto/pto classification and the vmi_new one are built on that walk.

A unit fed to ptoas by several RUN lines with different targets is one unit per target; positive
wins over negative for the same target only when both occur (a file checking one accepted and one
rejected variant through different options is listed as "mixed" and not counted). The target is the
RUN line's `--pto-arch` (a2/a3 -> a2a3, a5 -> a5), else the module's own `pto.target_arch`.

Each counted unit is checked with `BUILD/ptosim check -t TARGET`. Output: one line per mismatch
(positive rejected: the first error; negative accepted), then the counts per class; the negatives rejected
only because ptosim does not know an op (E-PARSE-UNKNOWN-OP first) are counted per op. Measurement tool,
not part of `make test`; standard library only.

`--dir pto` measures the tile level against PTOAS_DIR/test/lit/pto the same way as vpto, except that
the tile and VMI surfaces are counted as kernels (ptosim runs them). For vpto, the environment variable
LIT_COUNT=simt,vmi,tile counts those surfaces there too.

`--dir vmi_new` measures the VMI layer against PTOAS_DIR/test/lit/vmi_new instead (target a5). There
the compiler's verifier is exercised through its test driver, so a RUN line classifies its input as:

  negative   `not ptoas --emit-pto-ir`, or `not pto-test-opt` without a pass option (the op
             verifiers reject the input as it is parsed); with `-split-input-file` each `// -----`
             chunk is a unit of its own (other chunks blanked so line numbers stay)
  negative / positive  `pto-test-opt -verify-diagnostics`: a chunk with an `expected-error` is a
             negative whose error is expected on the line the annotation names; one without is a
             positive
  positive   `pto-test-opt` without a pass option (a parse/verify/print round trip), `ptoas --emit-pto-ir`
             without `not`, and `ptoas --emit-vpto*` (the whole compiler accepts the kernel)
  pass-test  `pto-test-opt` with a pass option (a compiler-internal pass test: its input may be a
             pass's intermediate form); pass-negative the same under `not` (a lowering refusal):
             listed, not counted

A negative counts as rejected when ptosim reports an error with a location; the summary also says how
many were rejected on the expected line and how many only because ptosim does not know the op (the
compiler-internal spellings of VMI that are not part of the spec: E-PARSE-UNKNOWN-OP). A positive that
ptosim rejects with E-PARSE-UNKNOWN-OP is listed as excluded (compiler-internal op), not as a failure.
"""
import json, os, re, shlex, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_lines(text):
    """The RUN commands of a lit file, with backslash continuations joined."""
    cmds, cur = [], None
    for line in text.splitlines():
        m = re.match(r"\s*//\s*RUN:(.*)$", line)
        if not m:
            if cur is not None:
                cmds.append(cur)
                cur = None
            continue
        part = m.group(1).rstrip()
        cont = part.endswith("\\")
        if cont:
            part = part[:-1]
        cur = part if cur is None else cur + " " + part
        if not cont:
            cmds.append(cur)
            cur = None
    if cur is not None:
        cmds.append(cur)
    return cmds


def split_sections(text):
    """split-file: {name: text}, each section padded with blank lines so its line numbers are the file's."""
    out, name, buf, start = {}, None, [], 0
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        m = re.match(r"//---\s+(\S+)\s*$", line)
        if m:
            if name is not None:
                out[name] = "\n" * start + "".join(buf)
            name, buf, start = m.group(1), [], i + 1
        elif name is not None:
            buf.append(line)
    if name is not None:
        out[name] = "\n" * start + "".join(buf)
    return out


def tool_stage(cmd):
    """(tool, negated, argv) of the compiler stage of a RUN command, or None."""
    for stage in re.split(r"\|(?!\|)", cmd):
        stage = stage.replace("(", " ").replace(")", " ")
        for sub in stage.split("&&"):
            try:
                argv = shlex.split(sub)
            except ValueError:
                argv = sub.split()
            neg = False
            while argv and argv[0] in ("not", "env"):
                neg = neg or argv[0] == "not"
                argv = argv[1:]
            if argv and argv[0] in ("ptoas", "pto-test-opt"):
                return argv[0], neg, argv[1:]
    return None


def inputs_of(argv):
    ins, skip = [], False
    for a in argv:
        if skip:
            skip = False
            continue
        if a == "-o":
            skip = True
            continue
        if a.startswith("-"):
            continue
        if a == "%s" or a.startswith("%t/") or a.startswith("%t.") or a.endswith(".pto"):
            ins.append(a)
    return ins


def target_of(argv, text):
    for a in argv:
        m = re.match(r"--pto-arch[= ]?(\w+)", a)
        if m:
            return "a5" if m.group(1) == "a5" else "a2a3"
    if "--pto-arch" in argv:
        v = argv[argv.index("--pto-arch") + 1] if argv.index("--pto-arch") + 1 < len(argv) else "a5"
        return "a5" if v == "a5" else "a2a3"
    m = re.search(r'pto\.target_arch\s*=\s*"(\w+)"', text)
    if m:
        return "a5" if m.group(1) == "a5" else "a2a3"
    return "a5"


# Other surfaces of the compiler, not the micro-instruction surface ptosim implements: tile-level ops,
# the `pto.ub` dialect, VMI, SIMT (its own issue) and LLVM-dialect input.
SURFACES = [
    ("tile", re.compile(r"!pto\.(tile_buf|tensor_view|partition_tensor_view)\b|pto\.alloc_tile\b|pto\.tilelang\b")),
    ("ub-dialect", re.compile(r"\bpto\.ub\.\w+")),
    ("vmi", re.compile(r"\bpto\.vmi\.\w+|!pto\.vmi")),
    ("simt", re.compile(r"simt")),
    ("llvm-dialect", re.compile(r"^\s*(%[\w#:, ]+=\s*)?llvm\.\w+", re.M)),
]
# Negative tests whose expected message is about the compiler driver (options, output files, fat-object
# packaging, CANN versions) or a limit of its C++ (EmitC) code generator, not about the kernel.
DRIVER = re.compile(r"(?i)\boption\b|flags? require|fatobj|pto\.backend|\bCANN\b|explicit file path|"
                    r"for EmitC C\+\+ emission")


def code_of(text):
    return "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("//"))


def surface_of(text):
    code = code_of(text)
    for name, rx in SURFACES:
        if rx.search(code):
            return name
    return None


def expected_messages(text, argv_all):
    m = re.search(r"--check-prefix(?:es)?[= ](\S+)", argv_all)
    prefixes = m.group(1).split(",") if m else ["CHECK"]
    msgs = []
    for pre in prefixes:
        msgs += re.findall(r"//\s*%s(?:-\w+)?:(.*)" % re.escape(pre), text)
    msgs += re.findall(r"expected-error[^{]*\{\{(.*?)\}\}", text)
    return msgs


def run_inputs(text):
    """The one walk over a lit file's RUN lines: for each input a compiler stage reads, (cmd, tool, negated, argv,
    unit name, unit text); the unit is the file itself ("") or a split-file section (other lines blanked)."""
    sections = split_sections(text) if "split-file" in text else {}
    for cmd in run_lines(text):
        st = tool_stage(cmd)
        if st is None:
            continue
        tool, neg, argv = st
        for inp in inputs_of(argv):
            if inp == "%s":
                yield cmd, tool, neg, argv, "", text
                continue
            sec = inp[3:] if inp.startswith("%t/") else None
            if sec is not None and sec in sections:
                yield cmd, tool, neg, argv, sec, sections[sec]


# Options of the compiler that decide whether it accepts a kernel and that ptosim does not model (ptosim accepts
# tiles with and without addresses, as level 2 and level 3 together; it has no memory planner, no EmitC backend,
# no buffer-id sync choice). A negative whose RUN line carries one is the class "option:NAME": listed with the
# option and with how many of them ptosim rejects all the same, not counted. Modelled: --pto-arch (ptosim -t)
# and --pto-backend=vpto (the micro-instruction backend ptosim runs). Output, printing, CANN output version,
# FileCheck and sync-insertion options (ptosim infers sync itself) do not change what is accepted.
UNMODELLED = ("--pto-level", "--plan-memory-impl", "--pto-plan-memory", "--plan-memory-order-by-size",
              "--enable-tile-op-expand", "--pto-backend", "--enable-bufid_sync", "--enable-inject-barrier-all-sync",
              "--pto-resolve-reserved-buffers", "--pto-normalize-uncovered-tile-sections")
MODELLED_VALUES = {"--pto-backend": ("vpto",)}


def unmodelled_options(argv):
    out = set()
    for i, a in enumerate(argv):
        name, _, val = a.partition("=")
        if name not in UNMODELLED:
            continue
        if not val and i + 1 < len(argv) and not argv[i + 1].startswith("-"):
            val = argv[i + 1]
        if val not in MODELLED_VALUES.get(name, ()):
            out.add(name)
    return sorted(out)


def units_of(path, counted=()):
    """[(unit name, text, class, target)] for one lit file; the surfaces named in `counted` are checked as
    kernels (not set aside as another surface)."""
    text = open(path, encoding="utf-8", errors="replace").read()
    found = {}  # (unit, target) -> set of classes
    for cmd, tool, neg, argv, key, body in run_inputs(text):
        surf = surface_of(body)
        if surf in counted:
            surf = None
        if tool == "pto-test-opt":
            cls = "pass-test"
        elif "--emit-pto-ir" in argv or "-emit-pto-ir" in argv:
            cls = "pass-test"
        elif surf:
            cls = "surface:" + surf
        elif neg or "-verify-diagnostics" in argv or "expected-error" in body:
            cls = "negative"
            if (re.search(r"\bpto\.backend\s*=", code_of(body))
                    or any(DRIVER.search(msg) for msg in expected_messages(text, cmd))):
                cls = "driver"
            elif unmodelled_options(argv):
                cls = "option:" + ",".join(unmodelled_options(argv))
        else:
            cls = "positive"
        found.setdefault((key, target_of(argv, body)), (body, set()))[1].add(cls)
    out = []
    for (key, tgt), (body, classes) in found.items():
        special = [c for c in classes if c not in ("positive", "negative")]
        if special:
            cls = sorted(special)[0]
        elif len(classes) > 1:
            cls = "mixed"
        else:
            cls = next(iter(classes))
        out.append((key, body, cls, tgt))
    return out


def check(ptosim, body, target, tmp):
    f = os.path.join(tmp, "unit.pto")
    with open(f, "w", encoding="utf-8") as fh:
        fh.write(body)
    p = subprocess.run([ptosim, "check", "-t", target, "--diagnostics-format=json", f],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = None
    for line in p.stdout.decode(errors="replace").splitlines():
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if d.get("severity") == "error" and first is None:
            first = "%s:%s: %s [%s]" % (d.get("line"), d.get("col"), d.get("message"), d.get("id"))
    if p.returncode not in (0, 1):
        first = first or ("exit status %d: %s" % (p.returncode, p.stderr.decode(errors="replace").strip()[:200]))
    return p.returncode == 0, first


# ---------------------------------------------------------------------------------------------------- vmi_new

# Options of the compiler's test driver that do not run a pass.
NO_PASS = {"-split-input-file", "--split-input-file", "-verify-diagnostics", "--verify-diagnostics",
           "-allow-unregistered-dialect", "--allow-unregistered-dialect"}


def split_chunks(text):
    """-split-input-file: [(first line, text)], each chunk padded so its line numbers are the file's."""
    lines = text.splitlines(keepends=True)
    out, start, buf = [], 0, []
    for i, line in enumerate(lines):
        if re.match(r"\s*//\s*-----\s*$", line):
            out.append((start, "\n" * start + "".join(buf)))
            start, buf = i + 1, []
        else:
            buf.append(line)
    out.append((start, "\n" * start + "".join(buf)))
    return out


def expected_errors(text):
    """[(line, message)] of the expected-error annotations of a chunk (1-based lines)."""
    out = []
    for i, line in enumerate(text.splitlines()):
        for m in re.finditer(r"expected-error(?:@([+-]\d+|above|below))?\s*\{\{(.*?)\}\}", line):
            at, n = m.group(1), i + 1
            if at == "above":
                n -= 1
            elif at == "below":
                n += 1
            elif at:
                n += int(at)
            out.append((n, m.group(2)))
    return out


def vmi_run_class(tool, neg, argv):
    """Class of one RUN line of vmi_new for its input, or None (no kernel input)."""
    if tool == "pto-test-opt":
        passes = [a for a in argv if a.startswith("-") and a not in NO_PASS and a != "-o"]
        if passes:
            return "pass-negative" if neg else "pass-test"
        return "negative" if neg else ("verify-diag" if "-verify-diagnostics" in argv or
                                       "--verify-diagnostics" in argv else "positive")
    if "--emit-pto-ir" in argv or "-emit-pto-ir" in argv:
        return "negative" if neg else "positive"
    return "pass-negative" if neg else "positive"


def vmi_units_of(path):
    """[(unit name, text, class, expected [(line, message)])] for one vmi_new lit file."""
    text = open(path, encoding="utf-8", errors="replace").read()
    found = {}  # unit -> [text, classes, expected]
    for cmd, tool, neg, argv, key, body in run_inputs(text):
        cls = vmi_run_class(tool, neg, argv)
        split = "-split-input-file" in argv or "--split-input-file" in argv
        chunks = split_chunks(body) if split else [(0, body)]
        for start, chunk in chunks:
            if not code_of(chunk).strip():
                continue
            name = key + ("@%d" % (start + 1) if split and len(chunks) > 1 else "")
            exp = expected_errors(chunk)
            c = cls
            if c == "verify-diag":
                c = "negative" if exp else "positive"
            ent = found.setdefault(name, [chunk, set(), exp])
            ent[1].add(c)
    out = []
    for name, (chunk, classes, exp) in found.items():
        if "negative" in classes and "positive" in classes:
            cls = "mixed"
        else:
            cls = next((c for c in ("negative", "positive", "pass-negative", "pass-test") if c in classes))
        out.append((name, chunk, cls, exp))
    return out


def check_all(ptosim, body, target, tmp):
    """(exit status, [(line, col, id, message)] of the errors) of `ptosim check`."""
    f = os.path.join(tmp, "unit.pto")
    with open(f, "w", encoding="utf-8") as fh:
        fh.write(body)
    p = subprocess.run([ptosim, "check", "-t", target, "--diagnostics-format=json", f],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    errs = []
    for line in p.stdout.decode(errors="replace").splitlines():
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if d.get("severity") == "error":
            errs.append((d.get("line"), d.get("col"), d.get("id"), d.get("message")))
    return p.returncode, errs


def main_vmi(ptoas, ptosim, filt, verbose, listing):
    litdir = os.path.join(ptoas, "test", "lit", "vmi_new")
    if not os.path.isdir(litdir):
        sys.stderr.write("run_lit.py: need %s\n" % litdir)
        return 2
    files = []
    for d, _, fs in os.walk(litdir):
        files += [os.path.join(d, f) for f in fs if f.endswith(".pto")]
    files.sort()
    counts = {}
    neg_line = neg_unknown = neg_crash = neg_scope_only = neg_annot = 0
    excluded = {}
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            rel = os.path.relpath(path, litdir)
            if filt and filt not in rel:
                continue
            for key, body, cls, exp in vmi_units_of(path):
                name = rel + (":" + key if key else "")
                c = counts.setdefault(cls, [0, 0])
                if cls not in ("positive", "negative"):
                    c[0] += 1
                    if listing:
                        print("%-13s %s" % (cls, name))
                    continue
                rc, errs = check_all(ptosim, body, "a5", tmp)
                first = errs[0] if errs else None
                desc = "%s:%s: %s [%s]" % first if first else ("exit status %d" % rc)
                if rc not in (0, 1):
                    neg_crash += 1
                    print("CRASH     %s: exit status %d" % (name, rc))
                if cls == "positive":
                    if rc == 0:
                        c[0] += 1
                        if verbose or listing:
                            print("ok        %s" % name)
                    elif (all(e[2] == "E-VEC-SCOPE" for e in errs) and
                          re.search(r"\)\s*->\s*\(?[^{]*!pto\.vmi\.", code_of(body))):
                        why = ("IR fragment: a function returns a VMI value, so its VMI ops stand outside any vector "
                               "scope (E-VEC-SCOPE only)")
                        excluded[why] = excluded.get(why, 0) + 1
                        counts.setdefault("positive-excluded", [0, 0])[0] += 1
                        if verbose or listing:
                            print("EXCLUDED  %s: %s" % (name, why))
                    elif first and first[2] == "E-PARSE-UNKNOWN-OP":
                        op = re.search(r"'([\w.]+)'", first[3])
                        why = "compiler-internal op %s" % (op.group(1) if op else "?")
                        excluded[why] = excluded.get(why, 0) + 1
                        counts.setdefault("positive-excluded", [0, 0])[0] += 1
                        if verbose or listing:
                            print("EXCLUDED  %s: %s" % (name, why))
                    else:
                        c[1] += 1
                        print("REJECTED  %s: %s" % (name, desc))
                    continue
                located = [e for e in errs if e[0]]
                if rc == 0 or not located:
                    c[0] += 1
                    print("ACCEPTED  %s%s" % (name, "" if rc == 0 else ": no located error"))
                    continue
                c[1] += 1
                neg_annot += bool(exp)
                unknown = first[2] == "E-PARSE-UNKNOWN-OP"
                neg_unknown += unknown
                want = sorted(set(l for l, _ in exp))
                at = not want or any(e[0] in want for e in located)
                neg_line += bool(want) and at
                # show the error that says why: one on the expected line, else the first that is not about
                # the vector scope (a function returning a VMI value puts its ops outside any scope)
                why = ([e for e in located if e[0] in want and e[2] != "E-VEC-SCOPE"] or
                       [e for e in located if e[0] in want] or [e for e in located if e[2] != "E-VEC-SCOPE"] or
                       located)[0]
                neg_scope_only += all(e[2] == "E-VEC-SCOPE" for e in located)
                desc = "%s:%s: %s [%s]" % why
                if verbose or listing or (want and not at and not unknown):
                    tag = "unknown-op" if unknown else ("ok" if at else "OTHER-LINE")
                    print("%-9s %s: %s%s" % (tag, name, desc,
                                             "" if at or not want else " (expected line %s)" %
                                             ",".join(map(str, want))))
    pos, neg = counts.get("positive", [0, 0]), counts.get("negative", [0, 0])
    npos_ex = counts.get("positive-excluded", [0, 0])[0]
    print("not counted: %s" % ", ".join("%s %d" % (k, v[0]) for k, v in sorted(counts.items())
                                          if k not in ("positive", "negative", "positive-excluded")))
    print("positives excluded (%d): %s" % (npos_ex, "; ".join("%s: %d" % kv for kv in sorted(excluded.items()))
                                           or "none"))
    print("negative: %d/%d rejected with a located error (%d wrongly accepted); of the rejected, %d only as an "
          "unknown op, %d only by E-VEC-SCOPE; %d of the %d with an expected-error annotation rejected on its line"
          % (neg[1], sum(neg), neg[0], neg_unknown, neg_scope_only, neg_line, neg_annot))
    print("positive: %d/%d accepted (%d rejected)%s" % (pos[0], pos[0] + pos[1], pos[1],
                                                         "; %d crashes" % neg_crash if neg_crash else ""))
    return 1 if neg_crash else 0


def main():
    args = sys.argv[1:]
    build = os.path.join(ROOT, "build")
    filt, verbose, listing, ptoas, litsub = None, False, False, None, "vpto"
    while args:
        a = args.pop(0)
        if a == "--dir":
            litsub = args.pop(0)
        elif a == "--build":
            build = args.pop(0)
        elif a == "--filter":
            filt = args.pop(0)
        elif a == "-v":
            verbose = True
        elif a == "--list":
            listing = True
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            ptoas = a
    if not ptoas or litsub not in ("vpto", "vmi_new", "pto"):
        sys.stderr.write("usage: run_lit.py PTOAS_DIR [--dir vpto|vmi_new|pto] [--build BUILD] [--filter TEXT] "
                         "[-v] [--list]\n")
        return 2
    if litsub == "vmi_new":
        ptosim = os.path.join(build, "ptosim")
        if not os.access(ptosim, os.X_OK):
            sys.stderr.write("run_lit.py: need %s\n" % ptosim)
            return 2
        return main_vmi(ptoas, ptosim, filt, verbose, listing)
    litdir = os.path.join(ptoas, "test", "lit", litsub)
    counted = ("tile", "vmi") if litsub == "pto" else (os.environ.get("LIT_COUNT", "").split(",") if os.environ.get("LIT_COUNT") else ())
    ptosim = os.path.join(build, "ptosim")
    if not os.path.isdir(litdir) or not os.access(ptosim, os.X_OK):
        sys.stderr.write("run_lit.py: need %s and %s\n" % (litdir, ptosim))
        return 2
    files = []
    for d, _, fs in os.walk(litdir):
        files += [os.path.join(d, f) for f in fs if f.endswith(".pto")]
    files.sort()
    counts, neg_unknown = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            rel = os.path.relpath(path, litdir)
            if filt and filt not in rel:
                continue
            for key, body, cls, tgt in units_of(path, counted):
                name = rel + (":" + key if key else "") + ("" if tgt == "a5" else " [%s]" % tgt)
                c = counts.setdefault(cls, [0, 0])
                if cls.startswith("option:"):
                    # listed, not counted; how many ptosim rejects all the same is said in the summary
                    ok, first = check(ptosim, body, tgt, tmp)
                    c[0 if ok else 1] += 1
                    if listing or verbose:
                        print("%-9s %s: %s" % (cls, name, "accepted" if ok else "rejected: " + str(first)))
                    continue
                if cls not in ("positive", "negative"):
                    c[0] += 1
                    if listing:
                        print("%-9s %s" % (cls, name))
                    continue
                ok, first = check(ptosim, body, tgt, tmp)
                c[0 if ok else 1] += 1
                if cls == "negative" and not ok and first and first.endswith("[E-PARSE-UNKNOWN-OP]"):
                    op = re.search(r"unknown operation '([\w.]+)'", first)
                    key = op.group(1) if op else "?"
                    neg_unknown[key] = neg_unknown.get(key, 0) + 1
                if cls == "positive" and not ok:
                    print("REJECTED  %s: %s" % (name, first))
                elif cls == "negative" and ok:
                    print("ACCEPTED  %s" % name)
                elif verbose or listing:
                    print("ok        %s%s" % (name, "" if ok else ": " + str(first)))
    pos, neg = counts.get("positive", [0, 0]), counts.get("negative", [0, 0])
    other = ", ".join("%s %d" % (k, sum(v)) + (" (%d rejected by ptosim all the same)" % v[1] if
                                                k.startswith("option:") else "")
                      for k, v in sorted(counts.items()) if k not in ("positive", "negative"))
    print("not counted: %s" % (other or "none"))
    print("positive: %d/%d accepted; negative: %d/%d rejected (%d wrongly accepted); of the rejected, %d only as "
          "an unknown op (%s)" % (pos[0], sum(pos), neg[1], sum(neg), neg[0], sum(neg_unknown.values()),
                                  ", ".join("%s %d" % kv for kv in sorted(neg_unknown.items(), key=lambda kv: -kv[1]))
                                  or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
