#!/bin/sh
# tests/fuzz/run.sh SECONDS — builds the libFuzzer target with clang (ASan + UBSan) and fuzzes parse,
# verify, print and bounded runs (of the kernel and of its printed text) for SECONDS, seeded with every .pto file
# of the test suite and the hostile shapes of tests/fuzz/seeds.py, with the dictionary tests/fuzz/pto.dict.
# Budgets per input (docs/testing.md "Fuzzing"): FUZZ_TIMEOUT seconds (default 10: a slow input is a finding,
# the super-linear class of issue 33), FUZZ_RSS_MB (2048), FUZZ_STACK_KB (the stack a recursion may use: 4096,
# half the usual 8 MiB, so unbounded recursion overflows early), a 20,000-step limit per run (in fuzz_pto.c);
# stack depth is a coverage feature (-fsanitize-coverage=stack-depth, -use_value_profile) so deeper inputs are kept.
# Exits 0 when clang is missing (the smoke test is then skipped, with a message).
set -eu
SECS=${1:-600}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CLANG=${CLANG:-clang}
if [ "$SECS" -le 0 ] 2>/dev/null; then   # libFuzzer reads -max_total_time=0 as "no limit"
    echo "fuzz: 0 seconds, skipping"
    exit 0
fi
if ! command -v "$CLANG" >/dev/null 2>&1; then
    echo "fuzz: clang not found, skipping"
    exit 0
fi
OUT=$ROOT/build-fuzz
mkdir -p "$OUT/corpus"
"$CLANG" -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -fsanitize-coverage=stack-depth \
    -I"$ROOT/include" -I"$ROOT/src" "$ROOT/tests/fuzz/fuzz_pto.c" $(find "$ROOT/src" -name "*.c") -lm -o "$OUT/fuzz_pto"
find "$ROOT/tests" "$ROOT/examples" -name '*.pto' -exec cp {} "$OUT/corpus/" \;
python3 "$ROOT/tests/fuzz/seeds.py" "$OUT/corpus"
cd "$OUT"
ulimit -s "${FUZZ_STACK_KB:-4096}"
./fuzz_pto -max_total_time="$SECS" -max_len=8192 -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
    -use_value_profile=1 -print_final_stats=1 \
    -dict="$ROOT/tests/fuzz/pto.dict" corpus >fuzz.log 2>&1 || { tail -60 fuzz.log; exit 1; }
grep -E "stat::number_of_executed_units|Done" fuzz.log | tail -2
echo "fuzz: ${SECS}s clean"
