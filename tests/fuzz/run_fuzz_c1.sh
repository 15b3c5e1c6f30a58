#!/usr/bin/env bash
# A short bounded libFuzzer run of fuzz_c1 (default 20 s), seeded from the
# encoder's output (`cuzk c1 synth`: 2 KiB bare and wrapped, a NI 2 KiB) and a
# few small documents.  Exit status: libFuzzer's (non-zero on any crash,
# sanitizer report or failed property).
# usage: run_fuzz_c1.sh FUZZER CUZK DICT [SECONDS]
set -euo pipefail
fuzzer="$1"
cuzk="$2"
dict="$3"
secs="${4:-20}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/corpus"
# tools/fuzz.sh (the deep runs): a corpus folder that outlives the run, and a
# number of executions instead of a time bound
runs=()
[ -n "${CUZK_FUZZ_RUNS:-}" ] && runs=(-runs="$CUZK_FUZZ_RUNS") && secs=0
"$cuzk" c1 synth --proof StackedDrg2KiBV1_1 --seed 1 --out "$dir/corpus/bare.json" >/dev/null
"$cuzk" c1 synth --proof StackedDrg2KiBV1 --seed 2 --wrapper 7 --out "$dir/corpus/wrapped.json" >/dev/null
printf '{}' >"$dir/corpus/empty.json"
printf '{"comm_d":[1,2,3],"registered_proof":"StackedDrg2KiBV1"}' >"$dir/corpus/small.json"
printf '{"SectorNum":1,"Phase1Out":"e30=","SectorSize":2048}' >"$dir/corpus/wrap-small.json"
printf 'Zm9vYmFy' >"$dir/corpus/b64.txt"
seed="$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')"
echo "fuzz_c1: ${secs}s, libFuzzer -seed=$seed"
exec "$fuzzer" -seed="$seed" -max_total_time="$secs" -max_len=262144 -timeout=20 \
    -rss_limit_mb=4096 -dict="$dict" -print_final_stats=1 "${runs[@]}" ${CUZK_FUZZ_CORPUS:+"$CUZK_FUZZ_CORPUS"} "$dir/corpus"
