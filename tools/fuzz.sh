#!/usr/bin/env bash
# Fuzzing at depth, outside CI: every decoder target (c1, post, params,
# config, rpc) for RUNS executions each (default 10^7), its corpus kept in
# fuzz-corpus/NAME so that a later run starts where this one stopped.  CI's
# suite runs each for 20 s (ctest fuzz_*_20s); this is the long tier.
# Prints each target's executions, corpus size and time; a crash, leak or
# sanitizer report stops with libFuzzer's non-zero status.
# usage: tools/fuzz.sh [RUNS] [TARGET...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-10000000}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(c1 post params config rpc)
build="${CUZK_BUILD_DIR:-$root/build-asan}"
CUZK_BUILD_DIR="$build" "$root/tools/build.sh" --all -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUZK_SANITIZE=ON -DCUZK_VERIFY=ON \
    -DCUZK_CUDA=OFF >/dev/null
cd "$build"
for t in "${targets[@]}"; do
    [ -x "tests/fuzz_$t" ] || { echo "fuzz.sh: tests/fuzz_$t was not built (clang with libFuzzer needed)"; exit 2; }
done
mkdir -p "$root/fuzz-corpus"
for t in "${targets[@]}"; do
    corpus="$root/fuzz-corpus/$t"
    mkdir -p "$corpus"
    log="$root/fuzz-corpus/$t.log"
    t0=$SECONDS
    if [ "$t" = c1 ]; then
        CUZK_FUZZ_RUNS=$runs CUZK_FUZZ_CORPUS=$corpus "$root/tests/fuzz/run_fuzz_c1.sh" \
            "tests/fuzz_c1" ./cuzk "$root/tests/fuzz/c1.dict" >"$log" 2>&1
    else
        CUZK_FUZZ_RUNS=$runs CUZK_FUZZ_CORPUS=$corpus "$root/tests/fuzz/run_fuzz.sh" "$t" \
            "tests/fuzz_$t" ./cuzk "$root/tests/fuzz/seeds" >"$log" 2>&1
    fi || { tail -40 "$log"; echo "fuzz_$t: FAILED (log $log)"; exit 1; }
    execs=$(grep -o "stat::number_of_executed_units: [0-9]*" "$log" | awk '{print $2}')
    echo "fuzz_$t: ${execs:-?} executions, corpus $(ls "$corpus" | wc -l) inputs, $((SECONDS - t0)) s"
done
