#!/bin/sh
# examples/run.sh BUILD_DIR — the main job behind `make run`: generate inputs, run the bundled kernels
# through `ptosim run`, and print readable results.
set -e
B=${1:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$B/example_data" gen-f32 "$T/in.bin" 32 32
echo "\$ ptosim run examples/abs_kernel_2d.pto in.bin zeros:4096:out.bin --stats --trace $B/abs_kernel_2d.trace.json"
"$B/ptosim" run examples/abs_kernel_2d.pto "$T/in.bin" "zeros:4096:$T/out.bin" --stats --trace "$B/abs_kernel_2d.trace.json" 2>&1
echo
"$B/example_data" show-abs "$T/in.bin" "$T/out.bin" 32 32
echo
"$B/example_data" gen-f16 "$T/in16.bin" 64 100
echo "\$ ptosim run examples/pad_load_64x100.pto in16.bin fill:16384:255:out16.bin"
"$B/ptosim" run examples/pad_load_64x100.pto "$T/in16.bin" "fill:16384:255:$T/out16.bin" 2>&1
echo
"$B/example_data" show-pad "$T/in16.bin" "$T/out16.bin" 64 100 128
echo
echo "trace of the first example: $B/abs_kernel_2d.trace.json (open it in https://ui.perfetto.dev or chrome://tracing;"
echo "one track per pipe, arrows from each set_flag to the wait_flag it released; docs/timing.md explains the numbers)"
