#!/usr/bin/env bash
# WindowPoSt and WinningPoSt end to end on 2 KiB sectors: cuzk seal (three
# sectors; random data, miner, tickets and randomness from the printed seed)
# -> cuzk post-vanilla (the bincode Curio sends) -> cuzk setup wpost-2k /
# winning-2k (TEST-ONLY parameters, cached in PARAM_DIR so reruns skip it) ->
# cuzk prove post -> cuzk verify post and the independent verifier
# (tools/oracle/verify_bellperson.mjs, @noble/curves) on the vk, each
# partition's proof and `cuzk post public-inputs`.  Proofs checked against
# other randomness, or another sector, must be refused by both verifiers.
#
# Always (no parameters needed): public-input counts (Window 2 KiB: 2 sectors
# x 11; Winning: 66 x 2); inputs from --sector N:COMM_R equal those from the
# vanilla files; vanilla proofs made for other randomness, or for another
# proof slot (WindowPoSt V1), are refused by prove post naming the sector and
# no proof is written; truncated, missing, wrong-kind and too-many-sector
# inputs are clear errors; verify post refuses a proof of the wrong length.
#
# usage: post_e2e.sh CUZK ORACLE_DIR PARAM_DIR [quick|full]
. "$(dirname "$0")/e2e_common.sh" post_e2e "$@"
count_inputs() { grep -c '^[0-9a-f]\{64\}$' "$1"; }
miner=$((1000 + seed % 5000))
for s in 1 2 3; do
    check "seal 2 KiB sector $s" 0 "$cuzk" seal --sector-size 2KiB \
        --registered-proof StackedDrg2KiBV1_1 --random "$((seed % 100000 + s))" --miner-id "$miner" \
        --sector-number "$s" --ticket "$(hex32 ticket$s)" --seed "$(hex32 seed$s)" --out "$dir/s$s"
done
rnd=$(hex32 randomness)
other=$(hex32 other)
vanilla() { # vanilla OUT PROOF_ID SECTOR RANDOMNESS [SLOT]
    check "post-vanilla $1" 0 "$cuzk" post-vanilla --registered-proof "$2" --sector-dir "$dir/s$3" \
        --randomness "$4" --slot "${5:-0}" --out "$dir/$1"
}
vanilla win.bin 0 1 "$rnd"
vanilla win_other.bin 0 1 "$other"
for s in 1 2 3; do vanilla w$s.bin 10 $s "$rnd"; done
vanilla w1_other.bin 10 1 "$other"
# WindowPoSt V1 (proof 5): challenges depend on the slot of the sector in the proof
for s in 1 2 3; do vanilla v1_$s.bin 5 $s "$rnd" $((s - 1)); done
vanilla v1_3_slot0.bin 5 3 "$rnd" 0
W="--vanilla $dir/w1.bin --vanilla $dir/w2.bin --vanilla $dir/w3.bin"

# ---- no parameters needed -------------------------------------------------------
check "public inputs, WinningPoSt" 0 "$cuzk" post public-inputs --kind winning \
    --vanilla "$dir/win.bin" --randomness "$rnd"
cp "$dir/last" "$dir/win.pub"
check "  66 slots x 2 = 132 inputs" 0 test "$(count_inputs "$dir/win.pub")" = 132
check "  proof StackedDrgWinning2KiBV1" 0 grep -q "StackedDrgWinning2KiBV1 partition 0" "$dir/win.pub"
check "public inputs, WindowPoSt, 3 sectors" 0 "$cuzk" post public-inputs --kind window $W \
    --randomness "$rnd"
cp "$dir/last" "$dir/w.pub"
check "  2 partitions of 22 inputs" 0 test "$(count_inputs "$dir/w.pub")" = 44
check "  partition 1 holds 1 sector" 0 grep -q "StackedDrgWindow2KiBV1_1 partition 1 (1 sector)" "$dir/w.pub"
"$cuzk" post public-inputs --kind window $W --randomness "$rnd" |
    awk '/^#/{k++} !/^#/{print > (d "/w.pub" (k - 1))}' d="$dir"
comm_r() { /usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["comm_r"])' "$dir/s$1/sector.json"; }
check "public inputs from --sector N:COMM_R" 0 "$cuzk" post public-inputs --registered-proof 10 \
    --sector "1:$(comm_r 1)" --sector "2:$(comm_r 2)" --randomness "$rnd" --partition 0
grep -v '^#' "$dir/last" >"$dir/sec.pub"
check "  equal those from the vanilla files" 0 cmp "$dir/sec.pub" "$dir/w.pub0"

prove_refused() { # prove_refused DESCRIPTION GREP ARGS... (exit 1, or $RC)
    local desc="$1" pat="$2"
    shift 2
    rm -f "$dir/refused.proof"
    check "prove post refuses $desc" "${RC:-1}" "$cuzk" prove post "$@" --params-dir "$params" \
        --out "$dir/refused.proof"
    check "  saying \"$pat\"" 0 grep -q "$pat" "$dir/last"
    check "  and writes no proof" 1 test -e "$dir/refused.proof"
}
prove_refused "a Winning vanilla proof for other randomness" \
    "sector 1 challenge [0-9]* opens leaf .*, the randomness challenges leaf" \
    --kind winning --vanilla "$dir/win_other.bin" --randomness "$rnd"
prove_refused "a Window vanilla proof for other randomness" \
    "vanilla_proofs\[0\]: sector 1 challenge [0-9]* opens leaf" \
    --kind window --vanilla "$dir/w1_other.bin" --vanilla "$dir/w2.bin" --randomness "$rnd"
prove_refused "a V1 vanilla proof made for another slot" \
    "vanilla_proofs\[0\]: sector 3 challenge [0-9]* opens leaf" --registered-proof 5 \
    --vanilla "$dir/v1_1.bin" --vanilla "$dir/v1_2.bin" --vanilla "$dir/v1_3_slot0.bin" \
    --randomness "$rnd"
head -c 1000 "$dir/w1.bin" >"$dir/trunc.bin"
prove_refused "a truncated vanilla proof" "not a PoSt vanilla proof" \
    --kind window --vanilla "$dir/trunc.bin" --randomness "$rnd"
prove_refused "a Winning proof as WindowPoSt" "fit no WindowPoSt proof" \
    --kind window --vanilla "$dir/win.bin" --randomness "$rnd"
prove_refused "a Window proof under a Winning id" "not a StackedDrgWinning2KiBV1 vanilla proof" \
    --registered-proof 0 --vanilla "$dir/w1.bin" --randomness "$rnd"
prove_refused "3 sectors in one 2-sector partition" "a StackedDrgWindow2KiBV1_1 partition takes at most 2" \
    --kind window $W --partition 0 --randomness "$rnd"
prove_refused "two sectors for WinningPoSt" "proves one sector, 2 given" \
    --kind winning --vanilla "$dir/win.bin" --vanilla "$dir/win.bin" --randomness "$rnd"
prove_refused "a missing file" "cannot read" --kind window --vanilla "$dir/none.bin" --randomness "$rnd"
RC=2 prove_refused "randomness that is not a field element" "not a canonical field element" \
    --kind window --vanilla "$dir/w1.bin" --randomness "$(printf 'ff%.0s' $(seq 32))"
RC=2 prove_refused "short randomness" "64 hex digits" --kind window --vanilla "$dir/w1.bin" --randomness 12
check "prove post: --kind bogus is a usage error" 2 "$cuzk" prove post --kind bogus \
    --vanilla "$dir/w1.bin" --randomness "$rnd"
check "prove post: WinningPoSt without parameters in an empty dir" 1 "$cuzk" prove post \
    --kind winning --vanilla "$dir/win.bin" --randomness "$rnd" --params-dir "$dir/empty" \
    --out "$dir/none.proof"
head -c 100 /dev/urandom >"$dir/short.proof"
check "verify post refuses a 100-byte proof" 2 "$cuzk" verify post --kind winning \
    --vanilla "$dir/win.bin" --randomness "$rnd" --proof "$dir/short.proof" --params-dir "$params"
check "  naming the length" 0 grep -q "100 bytes, 1 partition of StackedDrgWinning2KiBV1: expected 192" "$dir/last"
check "verify post: --sector needs a comm_r" 2 "$cuzk" verify post --registered-proof 10 \
    --sector 5 --randomness "$rnd" --proof "$dir/short.proof"
if [ "$mode" = quick ]; then
    echo "$fails failed"
    exit "$fails"
fi

# ---- setup, prove, verify ---------------------------------------------------------
if [ ! -d "$oracle/node_modules/@noble/curves" ]; then
    echo "FAIL: missing $oracle/node_modules: run tools/install-deps.sh (npm ci)"
    exit 1
fi
stem() { "$cuzk" circuit info "$1" | sed -n 's/^parameters *\([^ ]*\)\.params.*/\1/p'; }
win_stem=$(stem winning-2k)
w_stem=$(stem window-2k)
for c in winning-2k:$win_stem wpost-2k:$w_stem; do
    check "setup ${c%%:*} (cached in $params)" 0 "$cuzk" setup "${c%%:*}" --out "$params"
    check "  test-only meta" 0 grep -q '"test_only": true' "$params/${c#*:}.meta"
done
win_vk="$params/$win_stem.vk"
w_vk="$params/$w_stem.vk"
check "  the two circuits have their own parameter files" 1 test "$win_vk" = "$w_vk"
noble() { # noble DESCRIPTION WANT VK PROOF PUB
    check "noble: $1" "$2" node "$oracle/verify_bellperson.mjs" "$3" "$4" "$5"
}

# WinningPoSt
check "prove post winning" 0 "$cuzk" prove post --kind winning --vanilla "$dir/win.bin" \
    --randomness "$rnd" --miner-id "$miner" --params-dir "$params" --out "$dir/win.proof"
check "  192 bytes" 0 test "$(stat -c %s "$dir/win.proof")" = 192
check "verify post winning" 0 "$cuzk" verify post --kind winning --vanilla "$dir/win.bin" \
    --randomness "$rnd" --proof "$dir/win.proof" --params-dir "$params"
check "verify post winning from --sector, parameters from \$FIL_PROOFS_PARAMETER_CACHE" 0 \
    env FIL_PROOFS_PARAMETER_CACHE="$params" "$cuzk" verify post --registered-proof 0 \
    --sector "1:$(comm_r 1)" --randomness "$rnd" --proof "$dir/win.proof"
noble "winning" 0 "$win_vk" "$dir/win.proof" "$dir/win.pub"
check "verify post winning, other randomness: INVALID" 1 "$cuzk" verify post --kind winning \
    --vanilla "$dir/win.bin" --randomness "$other" --proof "$dir/win.proof" --params-dir "$params"
"$cuzk" post public-inputs --kind winning --vanilla "$dir/win.bin" --randomness "$other" \
    >"$dir/win_other.pub"
noble "winning, other randomness" 1 "$win_vk" "$dir/win.proof" "$dir/win_other.pub"
check "verify post winning, another sector: INVALID" 1 "$cuzk" verify post --registered-proof 0 \
    --sector "2:$(comm_r 2)" --randomness "$rnd" --proof "$dir/win.proof" --params-dir "$params"

# WindowPoSt V1_1: 3 sectors, 2 partitions (the second padded with its last sector)
check "prove post window, 3 sectors" 0 "$cuzk" prove post --kind window $W --randomness "$rnd" \
    --miner-id "$miner" --params-dir "$params" --out "$dir/w.proof"
check "  2 x 192 bytes" 0 test "$(stat -c %s "$dir/w.proof")" = 384
check "verify post window" 0 "$cuzk" verify post --kind window $W --randomness "$rnd" \
    --proof "$dir/w.proof" --params-dir "$params"
for k in 0 1; do
    dd if="$dir/w.proof" of="$dir/w.proof$k" bs=192 skip=$k count=1 2>/dev/null
    noble "window partition $k" 0 "$w_vk" "$dir/w.proof$k" "$dir/w.pub$k"
done
check "verify post window, other randomness: INVALID" 1 "$cuzk" verify post --kind window $W \
    --randomness "$other" --proof "$dir/w.proof" --params-dir "$params"
"$cuzk" post public-inputs --kind window --vanilla "$dir/w1.bin" --vanilla "$dir/w2.bin" \
    --randomness "$other" --partition 0 >"$dir/w_other.pub0"
noble "window partition 0, other randomness" 1 "$w_vk" "$dir/w.proof0" "$dir/w_other.pub0"
check "verify post window: partition proofs swapped: INVALID" 1 bash -c \
    "cat '$dir/w.proof1' '$dir/w.proof0' >'$dir/swap.proof' && '$cuzk' verify post --kind window \
    $W --randomness $rnd --proof '$dir/swap.proof' --params-dir '$params'"
# One partition as Curio asks for it: partition 1 alone
check "prove post window --partition 1" 0 "$cuzk" prove post --kind window \
    --vanilla "$dir/w3.bin" --partition 1 --randomness "$rnd" --params-dir "$params" \
    --out "$dir/p1.proof"
check "verify post window --partition 1" 0 "$cuzk" verify post --kind window \
    --vanilla "$dir/w3.bin" --partition 1 --randomness "$rnd" --proof "$dir/p1.proof" \
    --params-dir "$params"
noble "window --partition 1" 0 "$w_vk" "$dir/p1.proof" "$dir/w.pub1"

# --rs-seed (TEST ONLY): the same seed gives the same bytes, another seed other
# bytes; both proofs verify (what tools/gpu-check.sh compares across backends)
for sd in 0bad 0bad 0bae; do
    check "prove post window --partition 1 --rs-seed $sd" 0 "$cuzk" prove post --kind window \
        --vanilla "$dir/w3.bin" --partition 1 --randomness "$rnd" --params-dir "$params" \
        --rs-seed $sd --out "$dir/rs_$sd.$((n_rs = ${n_rs:-0} + 1))"
done
check "--rs-seed: same seed, same proof" 0 cmp "$dir/rs_0bad.1" "$dir/rs_0bad.2"
check "--rs-seed: another seed, another proof" 1 cmp -s "$dir/rs_0bad.1" "$dir/rs_0bae.3"
check "verify post: an --rs-seed proof verifies" 0 "$cuzk" verify post --kind window \
    --vanilla "$dir/w3.bin" --partition 1 --randomness "$rnd" --proof "$dir/rs_0bae.3" \
    --params-dir "$params"

# WindowPoSt V1 (slot-dependent challenges), same parameters
check "prove post window V1, 3 sectors" 0 "$cuzk" prove post --registered-proof 5 \
    --vanilla "$dir/v1_1.bin" --vanilla "$dir/v1_2.bin" --vanilla "$dir/v1_3.bin" \
    --randomness "$rnd" --params-dir "$params" --out "$dir/v1.proof"
check "verify post window V1" 0 "$cuzk" verify post --registered-proof 5 \
    --vanilla "$dir/v1_1.bin" --vanilla "$dir/v1_2.bin" --vanilla "$dir/v1_3.bin" \
    --randomness "$rnd" --proof "$dir/v1.proof" --params-dir "$params"
check "verify post: the V1 proof is not a V1_1 proof" 1 "$cuzk" verify post --registered-proof 10 \
    --vanilla "$dir/v1_1.bin" --vanilla "$dir/v1_2.bin" --vanilla "$dir/v1_3.bin" \
    --randomness "$rnd" --proof "$dir/v1.proof" --params-dir "$params"
echo "$fails failed"
exit "$fails"
