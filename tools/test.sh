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
# Tests labelled "slow" (production-size circuits) only run on request: ctest -L slow.
ctest --output-on-failure -j"$(nproc)" -LE slow "$@"
