#!/bin/sh
# examples/run.sh BUILD_DIR — the main job behind `make run`: generate inputs, run a bundled kernel
# through `ptosim run`, and print a readable result.
set -e
B=${1:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$B/example_data" gen-f16 "$T/in.bin" 64 100
echo "\$ ptosim run examples/pad_load_64x100.pto in.bin fill:16384:255:out.bin"
"$B/ptosim" run examples/pad_load_64x100.pto "$T/in.bin" "fill:16384:255:$T/out.bin" 2>&1
echo
"$B/example_data" show-pad "$T/in.bin" "$T/out.bin" 64 100 128
