#!/bin/sh
# examples/run.sh BUILD_DIR — the main job behind `make run`: generate inputs, run the bundled kernels
# through `ptosim run`, and print readable results. The inputs and outputs stay in BUILD_DIR/example/,
# so every command echoed here can be run again as shown.
set -e
B=${1:-build}
D=$B/example
mkdir -p "$D"
run() { echo "\$ $*"; "$@" 2>&1; }
"$B/example_data" gen-f32 "$D/in.bin" 32 32
run "$B/ptosim" run examples/abs_kernel_2d.pto "$D/in.bin" "zeros:4096:$D/out.bin" --stats --trace "$D/abs_kernel_2d.trace.json"
echo
"$B/example_data" show-abs "$D/in.bin" "$D/out.bin" 32 32
echo
"$B/example_data" gen-f16 "$D/in16.bin" 64 100
run "$B/ptosim" run examples/pad_load_64x100.pto "$D/in16.bin" "fill:16384:255:$D/out16.bin"
echo
"$B/example_data" show-pad "$D/in16.bin" "$D/out16.bin" 64 100 128
echo
echo "trace of the first example: $D/abs_kernel_2d.trace.json (open it in https://ui.perfetto.dev or chrome://tracing:"
echo "one track per pipe, arrows from each set_flag to the wait_flag it released; docs/timing.md explains the numbers)"
