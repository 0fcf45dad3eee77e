#!/usr/bin/env python3
"""seeds.py OUTDIR — small hostile seeds for the libFuzzer target (tests/fuzz/run.sh adds them to the corpus of
the suite's kernels): each shape of issue 33 just past its limit and within the fuzzer's -max_len (8 KiB), so
mutations start at the edge the limits guard: nesting (types 64, brackets 64, regions 200), list caps (64
operands/types, 256 array values), huge counts and indices, wrapping DMA products, CR-only line breaks and
hex float constants."""
import os, sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
HDR = 'module attributes {pto.target_arch = "a5"} {\n'


def fn(params, body="    return\n", attrs=""):
    return HDR + "  func.func @k(%s)%s {\n%s  }\n}\n" % (params, attrs, body)


seeds = {
    "deep_ptr": fn("%a: " + "!pto.ptr<" * 66 + "f32" + ", gm>" * 66),
    "deep_shortptr": fn("%a: " + "<" * 66 + "f32" + ", gm>" * 66),
    "deep_fn": fn("%a: " + "(" * 66 + "i32" + ") -> i32" * 66),
    "deep_struct": fn("%a: " + "!pto.struct<" * 66 + "i32" + ">" * 66),
    "deep_memref": fn("%a: " + "memref<1x!pto.ptr<" * 33 + "f32" + ">>" * 33),
    "deep_attr": fn("", attrs=" attributes {x = " + "[" * 66 + "1" + "]" * 66 + "}"),
    "deep_dense": fn("", attrs=" attributes {x = dense<" + "[" * 66 + "1" + "]" * 66 + "> : tensor<1xi32>}"),
    "deep_regions": fn("%c: i1", "    scf.if %c {\n" * 202 + "    }\n" * 202 + "    return\n"),
    "many_operands": HDR + "  func.func @g(%a: i64) {\n    return\n  }\n  func.func @k(%x: i64) {\n    func.call @g("
                     + ", ".join(["%x"] * 70) + ") : (i64) -> ()\n    return\n  }\n}\n",
    "many_fn_types": fn("%a: (" + ", ".join(["i32"] * 70) + ") -> i32"),
    "many_array": fn("", attrs=" attributes {x = array<i64: " + ", ".join(["7"] * 260) + ">}"),
    "many_aliases": "".join("!t%d = i32\n" % i for i in range(200)) + "!t7 = i64\n" + fn("%a: !t199"),
    "many_funcs": HDR + "".join("  func.func @f%d(%%a: i64) -> i64 {\n    %%r = func.call @f%d(%%a) : (i64) -> i64\n"
                               "    return %%r : i64\n  }\n" % (i, i + 1) for i in range(60))
                  + "  func.func @f60(%a: i64) -> i64 {\n    return %a : i64\n  }\n"
                  + "  func.func @f5(%a: i64) -> i64 {\n    return %a : i64\n  }\n}\n",
    "cr_only": fn("", "    // a comment\r    pto.no_such_op\r    return\r").replace("\n", "\r"),
    "index_wrap": fn("%a: !pto.ptr<f64, gm>, %o: !pto.ptr<f64, gm>",
                     "    %c0 = arith.constant 0 : index\n    %big = arith.constant 2305843009213693952 : index\n"
                     "    %v = pto.load_scalar %a[%big] : !pto.ptr<f64, gm> -> f64\n"
                     "    pto.store_scalar %v, %o[%c0] : !pto.ptr<f64, gm>, f64\n    return\n", " attributes {pto.kernel}"),
    "dma_wrap": fn("%src: !pto.ptr<ui8, gm>, %dst: !pto.ptr<ui8, gm>",
                   "    %c0 = arith.constant 0 : i64\n    %c4096 = arith.constant 4096 : i64\n"
                   "    %c32 = arith.constant 32 : i64\n    %big = arith.constant 1048576 : i64\n"
                   "    %ub = pto.castptr %c0 : i64 -> !pto.ptr<ui8, ub>\n"
                   "    pto.mte_gm_ub %src, %ub, %c0, %c32 nburst(%c4096, %c0, %c0) loop(%big, %c0, %c0) "
                   "loop(%big, %c0, %c0) loop(%c4096, %c0, %c0) : !pto.ptr<ui8, gm>, !pto.ptr<ui8, ub>, i64, i64, i64, "
                   "i64, i64, loop i64, i64, i64, loop i64, i64, i64, loop i64, i64, i64\n"
                   "    pto.barrier #pto.pipe<PIPE_ALL>\n    return\n", " attributes {pto.kernel}"),
    "hex_float": fn("%o: !pto.ptr<f32, gm>",
                    "    %c0 = arith.constant 0 : index\n    %n = arith.constant 0xFF800000 : f32\n"
                    "    %h = arith.constant 0x3C00 : f16\n"
                    "    pto.store_scalar %n, %o[%c0] : !pto.ptr<f32, gm>, f32\n    return\n", " attributes {pto.kernel}"),
}
for name, text in seeds.items():
    assert len(text.encode()) <= 8192, name
    with open(os.path.join(out, "seed_" + name + ".pto"), "w", newline="") as f:
        f.write(text)
