#!/usr/bin/env python3
"""tools/check_layers.py [--root DIR] [OBJDIR] — enforces the layer rule of docs/internals.md.

1. Includes: every `#include "..."` in src/ and cli/ must name a header of the including file's own
   folder or of a layer that folder may use (table LAYERS below); include/ptosim.h, the public
   interface, may be included anywhere.
2. Symbols (when OBJDIR holds the library's object files): a file may call into, or read the data
   of, only files it may include from, and within one folder (and between the families of src/ops)
   the "uses" graph of files has no circle. Uses are read from `nm` (defined vs undefined symbols).

3. Allocation: no file of src/ but src/base/alloc.[ch] calls the C library's allocator (malloc, calloc,
   realloc, free, aligned_alloc, posix_memalign, strdup, strndup, mmap, munmap) itself: every allocation
   goes through src/base/alloc.h, where the allocation-failure build (make oomtest) can fail it.

--root DIR checks the tree at DIR instead of this repository (the tests use it on a copy with a
deliberate violation). Prints every violation and exits 1 if there is any; prints "layers: ok (...)"
otherwise.
"""
import os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# folder -> folders it may use (its own folder is always allowed)
LAYERS = {
    "base": set(),
    "isa": {"base"},
    "front": {"isa", "base"},
    "verify": {"isa", "base"},
    "exec": {"isa", "base"},
    "ops": {"ops", "exec", "isa", "base"},
    "lower": {"ops", "exec", "isa", "base"},
    "api": {"lower", "ops", "exec", "front", "verify", "isa", "base"},
    "cli": set(),
}


def folder_of(path):
    """Layer name and sub-folder (the family for src/ops/<family>/) of a repository path."""
    rel = os.path.relpath(path, ROOT).split(os.sep)
    if rel[0] == "cli":
        return "cli", "cli"
    if rel[0] == "src" and len(rel) >= 3:
        if rel[1] == "ops" and len(rel) >= 4:
            return "ops", "ops/" + rel[2]
        return rel[1], rel[1]
    return None, None


def sources():
    for top in ("src", "cli"):
        for d, _, fs in os.walk(os.path.join(ROOT, top)):
            for f in sorted(fs):
                if f.endswith((".c", ".h")):
                    yield os.path.join(d, f)


def resolve(inc, src):
    """Path of a quoted include: the including file's folder first, then src/, then include/."""
    for base in (os.path.dirname(src), os.path.join(ROOT, "src"), os.path.join(ROOT, "include")):
        p = os.path.normpath(os.path.join(base, inc))
        if os.path.isfile(p):
            return p
    return None


def allowed(src_layer, src_sub, dst_path):
    if os.path.relpath(dst_path, ROOT) == os.path.join("include", "ptosim.h"):
        return True
    dl, ds = folder_of(dst_path)
    if dl is None:
        return False
    if ds == src_sub:
        return True
    return dl in LAYERS.get(src_layer, set())


def check_includes(errors):
    edges = []
    for src in sources():
        layer, sub = folder_of(src)
        with open(src, encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if not m:
                    continue
                dst = resolve(m.group(1), src)
                where = "%s:%d" % (os.path.relpath(src, ROOT), n)
                if dst is None:
                    errors.append("%s: cannot resolve #include \"%s\"" % (where, m.group(1)))
                elif not allowed(layer, sub, dst):
                    errors.append("%s: %s/ may not include %s" % (where, sub, os.path.relpath(dst, ROOT)))
                elif dst.endswith(".h"):
                    edges.append((src, dst))
    return edges


LIBC_ALLOC = re.compile(r"(?<![\w.>])(malloc|calloc|realloc|free|aligned_alloc|posix_memalign|strdup|strndup|mmap|munmap)\s*\(")


def strip_c(text):
    """The text with comments and string/character literals blanked (newlines kept, for line numbers)."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', blank, text, flags=re.S)


def check_alloc(errors):
    for src in sources():
        rel = os.path.relpath(src, ROOT)
        if not rel.startswith("src" + os.sep) or rel in (os.path.join("src", "base", "alloc.c"),
                                                         os.path.join("src", "base", "alloc.h")):
            continue
        with open(src, encoding="utf-8", errors="replace") as f:
            text = strip_c(f.read())
        for n, line in enumerate(text.split("\n"), 1):
            for m in LIBC_ALLOC.finditer(line):
                errors.append("%s:%d: calls %s() directly; allocate through base/alloc.h (mem_*)" % (rel, n, m.group(1)))


def sccs(nodes, succ):
    """Tarjan's strongly connected components (iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(succ.get(root, ())))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(succ.get(w, ()))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(comp)
    return out


def check_symbols(objdir, errors):
    objs = []
    for d, _, fs in os.walk(objdir):
        objs += [os.path.join(d, f) for f in fs if f.endswith(".o")]
    if not objs:
        return 0
    defs, uses = {}, {}
    for o in sorted(objs):
        rel = os.path.relpath(o, objdir)[:-2] + ".c"
        src = os.path.join(ROOT, "src", rel)
        if not os.path.isfile(src):
            continue   # a stale object whose source is gone
        out = subprocess.run(["nm", "-P", o], stdout=subprocess.PIPE, universal_newlines=True, check=True).stdout
        uses[src] = set()
        for line in out.splitlines():
            parts = line.split()
            if len(parts) < 2:
                continue
            sym, kind = parts[0], parts[1]
            if kind == "U":
                uses[src].add(sym)
            elif kind in "TDBRCVW":
                defs.setdefault(sym, src)
    graph = {s: set() for s in uses}
    for s, syms in uses.items():
        for sym in syms:
            d = defs.get(sym)
            if d and d != s:
                graph[s].add(d)
    for s, ds in sorted(graph.items()):
        layer, sub = folder_of(s)
        for d in sorted(ds):
            if not allowed(layer, sub, d):
                errors.append("%s uses %s (%s), which %s/ may not use" % (
                    os.path.relpath(s, ROOT), os.path.relpath(d, ROOT),
                    ", ".join(sorted(x for x in uses[s] if defs.get(x) == d)[:4]), sub))
    # no circle of files within a folder, and none between the families of ops/
    for comp in sccs(sorted(graph), graph):
        if len(comp) > 1:
            names = sorted(os.path.relpath(c, ROOT) for c in comp)
            errors.append("circle of files using each other: %s" % " <-> ".join(names))
    sub_graph = {}
    for s, ds in graph.items():
        a = folder_of(s)[1]
        for d in ds:
            b = folder_of(d)[1]
            if a != b:
                sub_graph.setdefault(a, set()).add(b)
    for comp in sccs(sorted(sub_graph), sub_graph):
        if len(comp) > 1:
            errors.append("circle of folders using each other: %s" % " <-> ".join(sorted(comp)))
    return len(objs)


def main():
    global ROOT
    args = sys.argv[1:]
    if len(args) >= 2 and args[0] == "--root":
        ROOT = os.path.abspath(args[1])
        args = args[2:]
    errors = []
    edges = check_includes(errors)
    check_alloc(errors)
    # no include circle between folders
    fg = {}
    for s, d in edges:
        a, b = folder_of(s)[1], folder_of(d)[1]
        if a and b and a != b:
            fg.setdefault(a, set()).add(b)
    for comp in sccs(sorted(fg), fg):
        if len(comp) > 1:
            errors.append("include circle between folders: %s" % " <-> ".join(sorted(comp)))
    nobj = check_symbols(args[0], errors) if args and os.path.isdir(args[0]) else 0
    for e in errors:
        print("layers: " + e)
    if errors:
        print("layers: %d violation(s)" % len(errors))
        return 1
    print("layers: ok (%d files, %d objects)" % (sum(1 for _ in sources()), nobj))
    return 0


if __name__ == "__main__":
    sys.exit(main())
