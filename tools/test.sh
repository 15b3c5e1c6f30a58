#!/usr/bin/env bash
# The whole test suite: builds with AddressSanitizer + UndefinedBehaviorSanitizer
# and the internal contract checks (CUZK_VERIFY) into build-asan/, then runs
# every test with ctest.  The last line is ctest's summary.
#
#   tools/test.sh            the default suite (ASan + UBSan)
#   tools/test.sh --tsan     the ThreadSanitizer tier (label tsan: the engine's
#                            threaded tests and the daemon's) in build-tsan/;
#                            --tsan --build-only builds it and stops
#   tools/test.sh --long     the long tier (label long: the race stress at
#                            60,000 calls, ...) on the ASan build; tools/fuzz.sh
#                            runs the fuzzers at depth
# Further arguments go to ctest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mode=default
case "${1:-}" in
--tsan | --long)
    mode=${1#--}
    shift
    ;;
esac

if [ "$mode" = tsan ]; then
    export CUZK_BUILD_DIR="${CUZK_TSAN_BUILD_DIR:-$root/build-tsan}"
    "$root/tools/install-deps.sh"
    cmake -S "$root" -B "$CUZK_BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUZK_TSAN=ON \
        -DCUZK_VERIFY=ON -DCUZK_CUDA=OFF >/dev/null
    cd "$CUZK_BUILD_DIR"
    # only what the tier runs: the labelled tests' programs
    targets=(cuzk)
    [ -n "$(cmake --build . --target help | grep -w cuzk_daemon_test)" ] && targets+=(cuzk_daemon_test)
    for t in critical deferred devices memory parts pce_tiers pipeline requests sched snap srs stress; do
        targets+=("test_engine_$t")
    done
    cmake --build . -j"$(nproc)" --target "${targets[@]}"
    [ "${1:-}" = --build-only ] && exit 0
    # Reports inside the uninstrumented gRPC library are suppressed, each
    # named in tests/tsan.supp; any other report fails the test (exit 66).
    export TSAN_OPTIONS="suppressions=$root/tests/tsan.supp halt_on_error=1 exitcode=66 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
    ctest --output-on-failure -j"$(nproc)" -L tsan "$@"
    exit
fi

export CUZK_BUILD_DIR="${CUZK_BUILD_DIR:-$root/build-asan}"
# CUDA is left out here: no GPU runs its code in this build, and .ci/run
# compiles it in the release build.
"$root/tools/build.sh" --all -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUZK_SANITIZE=ON -DCUZK_VERIFY=ON -DCUZK_CUDA=OFF
cd "$CUZK_BUILD_DIR"
if [ "$mode" = long ]; then
    ctest --output-on-failure -L long "$@"
    exit
fi
# The fresh oracle file's seed, printed here so that any run can be replayed.
export CUZK_ORACLE_SEED="${CUZK_ORACLE_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
echo "oracle vectors: fresh seed $CUZK_ORACLE_SEED (CUZK_ORACLE_SEED=$CUZK_ORACLE_SEED tools/test.sh replays it)"
# Tests labelled `slow` (minutes each, e.g. the 512 MiB parent caches) run only
# with CUZK_SLOW=1; those labelled `huge` (32/64 GiB parent caches, for a big
# machine) only when asked for: (cd build-asan && ctest -L huge); `long` ones
# with --long.
slow=(-LE "slow|huge|long")
[ "${CUZK_SLOW:-0}" = 1 ] && slow=(-LE "huge|long")
ctest --output-on-failure -j"$(nproc)" "${slow[@]}" "$@"
