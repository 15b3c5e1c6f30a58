#!/usr/bin/env bash
# A short bounded libFuzzer run of one of the decoder targets (fuzz_post,
# fuzz_params, fuzz_config, fuzz_rpc; default 20 s).  The corpus starts from
# the committed seeds (tests/fuzz/seeds/NAME: hand-made inputs and every
# input that once failed) plus inputs made by cuzk itself: a sealed 2 KiB
# sector's PoSt vanilla proofs, a small circuit's .params file, the example
# config.  Exit status: libFuzzer's (non-zero on any crash, leak, sanitizer
# report or failed property).
# usage: run_fuzz.sh NAME FUZZER CUZK SEEDS_DIR [SECONDS]
set -euo pipefail
name="$1"
fuzzer="$2"
cuzk="$3"
seeds="$4"
secs="${5:-20}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/corpus"
# tools/fuzz.sh (the deep runs): a corpus folder that outlives the run, and a
# number of executions instead of a time bound
runs=()
[ -n "${CUZK_FUZZ_RUNS:-}" ] && runs=(-runs="$CUZK_FUZZ_RUNS") && secs=0
[ -d "$seeds/$name" ] && cp "$seeds/$name"/* "$dir/corpus/"
h32() { printf "$1%.0s" $(seq 32); }
max_len=65536
case "$name" in
post)
    "$cuzk" seal --sector-size 2KiB --registered-proof 5 --random 3 --miner-id 1000 \
        --sector-number 9 --ticket "$(h32 11)" --seed "$(h32 22)" --out "$dir/s" >/dev/null 2>&1
    "$cuzk" post-vanilla --registered-proof 10 --sector-dir "$dir/s" --randomness "$(h32 33)" \
        --out "$dir/corpus/window.bin" >/dev/null
    "$cuzk" post-vanilla --registered-proof 0 --sector-dir "$dir/s" --randomness "$(h32 33)" \
        --out "$dir/corpus/winning.bin" >/dev/null
    ;;
params)
    "$cuzk" setup --circuit "random:40:1" --params "$dir/corpus/small.params" \
        --vk "$dir/small.vk" --threads 1 >/dev/null
    ;;
config | rpc) ;;
*)
    echo "run_fuzz.sh: unknown target $name" >&2
    exit 2
    ;;
esac
seed="$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')"
echo "fuzz_$name: ${secs}s, $(ls "$dir/corpus" | wc -l) seeds, libFuzzer -seed=$seed"
exec "$fuzzer" -seed="$seed" -max_total_time="$secs" -max_len="$max_len" -timeout=20 \
    -rss_limit_mb=4096 -print_final_stats=1 "${runs[@]}" ${CUZK_FUZZ_CORPUS:+"$CUZK_FUZZ_CORPUS"} "$dir/corpus"
