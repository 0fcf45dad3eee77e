#!/bin/sh
# tests/fuzz/run.sh SECONDS — builds the libFuzzer target with clang (ASan + UBSan) and fuzzes parse,
# verify, print and bounded runs for SECONDS, seeded with every .pto file of the test suite.
# Exits 0 when clang is missing (the smoke test is then skipped, with a message).
set -eu
SECS=${1:-600}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CLANG=${CLANG:-clang}
if ! command -v "$CLANG" >/dev/null 2>&1; then
    echo "fuzz: clang not found, skipping"
    exit 0
fi
OUT=$ROOT/build-fuzz
mkdir -p "$OUT/corpus"
"$CLANG" -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -I"$ROOT/include" -I"$ROOT/src" "$ROOT/tests/fuzz/fuzz_pto.c" $(find "$ROOT/src" -name "*.c") -lm -o "$OUT/fuzz_pto"
find "$ROOT/tests" "$ROOT/examples" -name '*.pto' -exec cp {} "$OUT/corpus/" \;
cd "$OUT"
./fuzz_pto -max_total_time="$SECS" -max_len=8192 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -dict="$ROOT/tests/fuzz/pto.dict" corpus >fuzz.log 2>&1 || { tail -60 fuzz.log; exit 1; }
grep -E "stat::number_of_executed_units|Done" fuzz.log | tail -2
echo "fuzz: ${SECS}s clean"
