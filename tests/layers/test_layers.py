#!/usr/bin/env python3
"""tests/layers/test_layers.py --build BUILD — the layer rule of docs/internals.md holds, and the
checker (tools/check_layers.py) catches each kind of violation: a forbidden include, a forbidden
symbol use, a circle of files, and an allocation that bypasses src/base/alloc.h. The violations are planted in throw-away trees."""
import os, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHECK = os.path.join(ROOT, "tools", "check_layers.py")
passed = failed = 0


def result(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL %s\n%s" % (name, detail))


def check(args):
    p = subprocess.run([sys.executable, CHECK] + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    return p.returncode, p.stdout


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def compile_tree(tmp, files):
    """Writes src/<rel>.c for each entry and compiles it to obj/<rel>.o, as the Makefile lays them out."""
    cc = os.environ.get("CC", "cc")
    for rel, text in files.items():
        write(os.path.join(tmp, "src", rel + ".c"), text)
        obj = os.path.join(tmp, "obj", rel + ".o")
        os.makedirs(os.path.dirname(obj), exist_ok=True)
        subprocess.run([cc, "-c", "-o", obj, os.path.join(tmp, "src", rel + ".c")], check=True)
    return os.path.join(tmp, "obj")


def main():
    build = sys.argv[sys.argv.index("--build") + 1] if "--build" in sys.argv else "build"
    # 1. this repository obeys the rule (includes and, from the objects, symbol uses)
    rc, out = check([os.path.join(build, "obj")])
    result("repository", rc == 0 and out.startswith("layers: ok") and " 0 objects" not in out, out)

    with tempfile.TemporaryDirectory() as tmp:
        # 2. exec/ including a header of ops/ (a layer above it) is reported at the include's line
        t = os.path.join(tmp, "inc")
        for d in ("src", "cli", "include"):
            shutil.copytree(os.path.join(ROOT, d), os.path.join(t, d))
        sched = os.path.join(t, "src", "exec", "sched.c")
        with open(sched) as f:
            lines = f.readlines()
        lines.insert(2, '#include "ops/ops.h"\n')
        with open(sched, "w") as f:
            f.writelines(lines)
        rc, out = check(["--root", t])
        result("bad include", rc == 1 and "src/exec/sched.c:3: exec/ may not include src/ops/ops.h" in out, out)

        # 3. a function of exec/ calling one of ops/ is reported with the symbol
        t = os.path.join(tmp, "sym")
        obj = compile_tree(t, {"exec/a": "int ops_fn(void);\nint exec_fn(void) { return ops_fn(); }\n",
                               "ops/fam/b": "int ops_fn(void) { return 1; }\n"})
        rc, out = check(["--root", t, obj])
        result("bad symbol use", rc == 1 and "src/exec/a.c uses src/ops/fam/b.c (ops_fn), which exec/ may not use" in out, out)

        # 4. two files of one folder using each other form a circle
        t = os.path.join(tmp, "circle")
        obj = compile_tree(t, {"exec/c1": "int g(void);\nint f(void) { return g(); }\n",
                               "exec/c2": "int f(void);\nint g(void) { return f() + 1; }\n"})
        rc, out = check(["--root", t, obj])
        result("file circle", rc == 1 and "circle of files using each other: src/exec/c1.c <-> src/exec/c2.c" in out, out)

        # 5. the same two files without the back edge pass
        t = os.path.join(tmp, "fine")
        obj = compile_tree(t, {"exec/c1": "int g(void);\nint f(void) { return g(); }\n",
                               "exec/c2": "int g(void) { return 1; }\n"})
        rc, out = check(["--root", t, obj])
        result("no circle", rc == 0 and "layers: ok" in out, out)

        # 6. a direct call of the C library's allocator outside base/alloc.c is reported at its line;
        #    the words in comments and strings are not calls
        obj = compile_tree(t, {"exec/c3": "#include <stdlib.h>\n/* malloc(1) */ const char *s = \"free(p)\";\n"
                                          "void *h(void) { return malloc(4); }\n"})
        rc, out = check(["--root", t, obj])
        result("direct malloc", rc == 1 and "src/exec/c3.c:3: calls malloc() directly" in out
               and out.count("directly") == 1, out)

    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
