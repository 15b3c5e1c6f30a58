#!/usr/bin/env bash
# The whole test suite: builds with AddressSanitizer + UndefinedBehaviorSanitizer
# and the internal contract checks (CUZK_VERIFY)
# into build-asan/, then runs every test with ctest.  The last line is ctest's
# summary.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export CUZK_BUILD_DIR="${CUZK_BUILD_DIR:-$root/build-asan}"
# CUDA is left out here: no GPU runs its code in this build, and .ci/run
# compiles it in the release build.
"$root/tools/build.sh" --all -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUZK_SANITIZE=ON -DCUZK_VERIFY=ON -DCUZK_CUDA=OFF
cd "$CUZK_BUILD_DIR"
# The fresh oracle file's seed, printed here so that any run can be replayed.
export CUZK_ORACLE_SEED="${CUZK_ORACLE_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
echo "oracle vectors: fresh seed $CUZK_ORACLE_SEED (CUZK_ORACLE_SEED=$CUZK_ORACLE_SEED tools/test.sh replays it)"
# Tests labelled `slow` (minutes each, e.g. the 512 MiB parent caches) run only
# with CUZK_SLOW=1; those labelled `huge` (32/64 GiB parent caches, for a big
# machine) only when asked for: (cd build-asan && ctest -L huge).
slow=(-LE "slow|huge")
[ "${CUZK_SLOW:-0}" = 1 ] && slow=(-LE huge)
ctest --output-on-failure -j"$(nproc)" "${slow[@]}" "$@"
