#!/bin/sh
# test_num_crosscheck.sh — compares num_convert f32 -> f16 / bf16 (R, no sat) with the Python
# standard-library oracle in tests/gen/num_crosscheck.py, line by line.
# Usage: sh tests/unit/test_num_crosscheck.sh   (CC and PYTHON may be overridden; make test runs it through
# tests/run.py). Last line: N passed, M failed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
CC=${CC:-cc}
PYTHON=${PYTHON:-python3}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

cat > "$tmp/driver.c" <<'EOF'
/* Reads f32 patterns (hex, one per line), prints "<f32> <f16> <bf16>" as num_convert gives them. */
#include <stdio.h>

#include "base/num.h"

int main(void)
{
    unsigned x;
    while (scanf("%x", &x) == 1) {
        unsigned h = (unsigned)num_convert(NUM_F32, x, NUM_F16, NUM_RND_R, false);
        unsigned b = (unsigned)num_convert(NUM_F32, x, NUM_BF16, NUM_RND_R, false);
        printf("%08x %04x %04x\n", x, h, b);
    }
    return 0;
}
EOF

if ! $CC -O2 -I"$root/src" "$tmp/driver.c" "$root/src/base/num.c" -o "$tmp/driver"; then
    echo "cannot build the driver"; echo "0 passed, 1 failed"; exit 1
fi
if ! $PYTHON "$root/tests/gen/num_crosscheck.py" > "$tmp/want"; then
    echo "the Python oracle failed"; echo "0 passed, 1 failed"; exit 1
fi
cut -d' ' -f1 "$tmp/want" | "$tmp/driver" > "$tmp/got"
paste -d'|' "$tmp/want" "$tmp/got" | awk -F'|' '
    $1 == $2 { pass++; next }
    { fail++; if (fail <= 20) print "FAIL want " $1 "  got " $2 }
    END { printf "%d passed, %d failed\n", pass, fail; exit fail > 0 }'
