#!/usr/bin/env bash
# The whole test suite: builds with AddressSanitizer + UndefinedBehaviorSanitizer
# and the internal contract checks (CUZK_VERIFY)
# into build-asan/, then runs every test with ctest.  The last line is ctest's
# summary.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export CUZK_BUILD_DIR="${CUZK_BUILD_DIR:-$root/build-asan}"
"$root/tools/build.sh" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUZK_SANITIZE=ON -DCUZK_VERIFY=ON
cd "$CUZK_BUILD_DIR"
# The fresh oracle file's seed, printed here so that any run can be replayed.
export CUZK_ORACLE_SEED="${CUZK_ORACLE_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
echo "oracle vectors: fresh seed $CUZK_ORACLE_SEED (CUZK_ORACLE_SEED=$CUZK_ORACLE_SEED tools/test.sh replays it)"
# Tests labelled "slow" (production-size circuits, minutes each) are left out
# unless CUZK_SLOW=1 (then everything runs; add -L slow for only those).
labels=(-LE slow)
if [ "${CUZK_SLOW:-0}" = 1 ]; then labels=(); fi
ctest --output-on-failure -j"$(nproc)" ${labels[@]+"${labels[@]}"} "$@"
