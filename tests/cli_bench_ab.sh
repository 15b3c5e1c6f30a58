#!/usr/bin/env bash
# cuzk bench ab: the switch list; a short A/B run on the random workload
# (--runs 2, one warm-up pair) whose report has the expected structure (runs alternating
# A,B,A,B; the configuration table marking exactly the switches that differ;
# one row per phase with two medians and a ratio, "total" last); refusals of
# an unknown switch, a bad value, an unknown workload and a bad --runs, each
# with a message naming it; porep-2k without parameters says how to make
# them.  Timing values are not checked.
# usage: cli_bench_ab.sh CUZK
. "$(dirname "$0")/e2e_common.sh" cli_bench_ab "$1"
has() { grep -qE -- "$1" "$dir/out" || fail "$2: no line matching /$1/"; }

check "--list" 0 "$cuzk" bench ab --list
for s in field_asm poseidon_replay gpu_msm_window gpu_srs_sets gpu_msm_red_levels \
    gpu_stage_threads gpu_msm_red_part; do
    has "^$s +CUZK_[A-Z0-9_]+ " "--list names $s"
done
# retired switches (measured, decided, their losers deleted) are gone from the list
for s in gpu_ntt_shoup r1cs_thp msm_bit_fast_path msm_batch_affine gpu_g2 gpu_b2_overlap \
    gpu_upload_overlap gpu_host_register; do
    ! grep -qE "^$s " "$dir/out" || fail "--list still names the retired $s"
done
check "a retired switch is refused" 2 "$cuzk" bench ab --workload random:64 --a "" \
    --b gpu_g2=on --runs 1
has 'unknown switch "gpu_g2"' "retired switch message"
check "--list with CUZK_FIELD_ASM=0" 0 env CUZK_FIELD_ASM=0 "$cuzk" bench ab --list
has "^field_asm +CUZK_FIELD_ASM +on +off " "the environment sets the starting value"

check "A/B on random:600, 2 runs after 1 warm-up pair" 0 "$cuzk" bench ab \
    --workload random:600:5 --a field_asm=on --b field_asm=off,poseidon_replay=off --runs 2 \
    --warmup 1 --threads 1
cp "$dir/out" "$dir/ab"
order=$(grep -oE '^run [0-9]+ [AB]' "$dir/ab" | tr '\n' ' ')
[ "$order" = "run 1 A run 1 B run 2 A run 2 B " ] || fail "runs alternate A,B,A,B (got: $order)"
warm=$(grep -oE '^warm-up [0-9]+ [AB]' "$dir/ab" | tr '\n' ' ')
[ "$warm" = "warm-up 1 A warm-up 1 B " ] || fail "one warm-up pair first (got: $warm)"
differs=$(grep -E '<- differs$' "$dir/ab" | awk '{print $1}' | tr '\n' ' ')
[ "$differs" = "field_asm poseidon_replay " ] || fail "differing switches (got: $differs)"
has "^phase +A median ms +B median ms +B/A$" "report header"
num='[0-9]+\.[0-9]+'
for phase in synthesis "MSM H" prove verify total; do
    has "^$phase +$num +$num +($num|-)$" "a row for $phase"
done
last=$(grep -E "^[A-Za-z].* $num +$num +($num|-)$" "$dir/ab" | tail -1 | awk '{print $1}')
[ "$last" = total ] || fail "total is the last phase (got: $last)"

check "an unknown switch is refused" 2 "$cuzk" bench ab --workload random:64 \
    --a field_asm=on --b warp_drive=on --runs 1
has 'unknown switch "warp_drive"' "unknown switch message"
check "a bad value is refused" 2 "$cuzk" bench ab --workload random:64 --a field_asm=maybe \
    --b field_asm=off --runs 1
has 'field_asm: bad value "maybe"' "bad value message"
check "an out-of-range value is refused" 2 "$cuzk" bench ab --workload random:64 \
    --a gpu_msm_window=30 --b gpu_msm_window=0 --runs 1
has 'gpu_msm_window: bad value "30" \(allowed: 0 \(automatic\) or 8..24\)' "range message"
check "an unknown workload is refused" 2 "$cuzk" bench ab --workload porep-64g --a "" --b "" \
    --runs 1
has 'unknown workload "porep-64g"' "unknown workload message"
check "porep-512m without --c1 is refused" 1 "$cuzk" bench ab --workload porep-512m --a "" \
    --b "" --runs 1
has 'porep-512m: give the sector.s C1 output with --c1' "porep-512m needs --c1"
check "--runs 0 is refused" 2 "$cuzk" bench ab --workload random:64 --a "" --b "" --runs 0
check "--warmup -1 is refused" 2 "$cuzk" bench ab --workload random:64 --a "" --b "" \
    --warmup -1
check "an unknown backend is refused" 2 "$cuzk" bench ab --workload random:64 --a "" --b "" \
    --backend tpu
has 'unknown --backend "tpu"' "unknown backend message"
check "--a is required" 2 "$cuzk" bench ab --workload random:64 --b field_asm=off
check "porep-2k without parameters" 1 env -u FIL_PROOFS_PARAMETER_CACHE "$cuzk" bench ab \
    --workload porep-2k --params-dir "$dir/none" --a "" --b field_asm=off --runs 1
has 'no StackedDrg2KiBV1_1 parameters: .*cuzk setup porep-2k --out DIR' "missing params message"

[ "$fails" = 0 ] && echo "cli_bench_ab: all passed" || echo "cli_bench_ab: $fails failed"
exit $((fails > 0))
