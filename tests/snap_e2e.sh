#!/usr/bin/env bash
# SnapDeals end to end: cuzk seal (a CC sector) -> cuzk seal update (new
# data: the partition vanilla proofs Curio sends and snap.json) -> cuzk setup
# snap-SIZE (TEST-ONLY parameters, cached in PARAM_DIR so reruns skip it) ->
# cuzk prove snap -> cuzk verify snap and the independent verifier
# (tools/oracle/verify_bellperson.mjs, @noble/curves) on the vk, each
# partition's proof and `cuzk snap public-inputs`.  A flipped proof byte and
# another comm_d_new / comm_r_new are rejected by both verifiers.
#
# Always (no parameters needed): 4 public inputs per partition, input 0 =
# k | h_select << partition_bits, inputs 1..3 = comm_r_old, comm_d_new,
# comm_r_new (from snap.json and from the --comm-* options alike); a tampered
# vanilla proof (one tree R path sibling), swapped commitments, a missing or
# extra partition, a bad registered proof are refused by prove snap naming
# the field, before any parameters load, and no proof is written.
#
# usage: snap_e2e.sh CUZK ORACLE_DIR PARAM_DIR [quick|full|8m-quick|8m]
#   8m...: an 8 MiB sector (4 partitions, h 10 as the daemon uses).  Its
#   test-only setup (10 M constraints, domain 2^24) and four CPU proofs take
#   far longer than a CI run on 2 cores; 8m-quick runs the checks alone.
. "$(dirname "$0")/e2e_common.sh" snap_e2e "$@"
field() { /usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$@"; }
if [ "${mode#8m}" != "$mode" ]; then
    size=8MiB seal_id=6 rp=1 parts=4 circuit=snap-8m apex=128
else
    size=2KiB seal_id=5 rp=0 parts=1 circuit=snap-2k apex=8
fi
check "seal a CC $size sector" 0 "$cuzk" seal --sector-size $size --registered-proof $seal_id \
    --zeros --miner-id "$((1000 + seed % 5000))" --sector-number 7 --ticket "$(hex32 ticket)" \
    --seed "$(hex32 seed)" --out "$dir/cc"
check "seal update (random data)" 0 "$cuzk" seal update --sector "$dir/cc" --out "$dir/u" \
    --random "$((seed % 100000))"
J="$dir/u/snap.json"
cro=$(field "$J" comm_r_old)
crn=$(field "$J" comm_r_new)
cdn=$(field "$J" comm_d_new)
V=""
for k in $(seq 0 $((parts - 1))); do V="$V --vanilla $dir/u/vanilla-$k"; done
C="--comm-r-old $cro --comm-r-new $crn --comm-d-new $cdn"

# ---- no parameters needed -------------------------------------------------------
check "snap public-inputs (--snap-json)" 0 "$cuzk" snap public-inputs --snap-json "$J"
cp "$dir/last" "$dir/json.pub"
check "  4 inputs per partition" 0 test "$(grep -c '^[0-9a-f]\{64\}$' "$dir/json.pub")" = $((4 * parts))
# shellcheck disable=SC2086
check "snap public-inputs (--comm-*)" 0 "$cuzk" snap public-inputs --registered-proof $rp $C
check "  equal those from snap.json" 0 cmp "$dir/last" "$dir/json.pub"
check "  inputs 1..3 = comm_r_old, comm_d_new, comm_r_new" 0 test \
    "$(grep -v '^#' "$dir/json.pub" | sed -n 2,4p | tr '\n' ' ')" = "$cro $cdn $crn "
if [ "$size" = 8MiB ]; then first=2000000000000000000000000000000000000000000000000000000000000000
else first=0100000000000000000000000000000000000000000000000000000000000000; fi
check "  input 0 of partition 0 = h_select << partition_bits" 0 test \
    "$(grep -v '^#' "$dir/json.pub" | head -1)" = $first
awk '/^#/{k++} !/^#/{print > (d "/pub" (k - 1))}' d="$dir" "$dir/json.pub"

prove_refused() { # prove_refused DESCRIPTION GREP ARGS... (exit 1, or $RC)
    local desc="$1" pat="$2"
    shift 2
    rm -f "$dir/refused.proof"
    check "prove snap refuses $desc" "${RC:-1}" "$cuzk" prove snap "$@" --params-dir "$dir/empty" \
        --out "$dir/refused.proof"
    check "  saying \"$pat\"" 0 grep -q -- "$pat" "$dir/last"
    check "  and writes no proof" 1 test -e "$dir/refused.proof"
}
# challenge 0's proof_r_old after comm_c, u64 + apex leaves, u64: variant
# u32, root, leaf, u64 n_elems, u64 n_hashes, sibling 0 at 132 + 32 x apex
# (388 at 2 KiB): flip a low byte of it
cp "$dir/u/vanilla-0" "$dir/tampered"
printf '\x5a' | dd of="$dir/tampered" bs=1 seek=$((134 + 32 * apex)) conv=notrunc 2>/dev/null
TV="--vanilla $dir/tampered"
for k in $(seq 1 $((parts - 1))); do TV="$TV --vanilla $dir/u/vanilla-$k"; done
# shellcheck disable=SC2086
prove_refused "a tampered tree R path sibling" \
    "vanilla_proofs\[0\] (partition 0): challenge_proofs\[0\].proof_r_old" \
    --registered-proof $rp $TV $C
# shellcheck disable=SC2086
prove_refused "swapped comm_r_old / comm_r_new" "comm_r" --registered-proof $rp $V \
    --comm-r-old "$crn" --comm-r-new "$cro" --comm-d-new "$cdn"
# shellcheck disable=SC2086
prove_refused "another comm_d_new" "comm_d_new" --registered-proof $rp $V \
    --comm-r-old "$cro" --comm-r-new "$crn" --comm-d-new "$(hex32 other)"
# shellcheck disable=SC2086
[ "$parts" -gt 1 ] && prove_refused "a missing partition proof" "vanilla_proofs: 1 partition proofs" \
    --registered-proof $rp --vanilla "$dir/u/vanilla-0" $C
# shellcheck disable=SC2086
prove_refused "one partition proof too many" "partition proofs, StackedDrg" \
    --registered-proof $rp $V --vanilla "$dir/u/vanilla-0" $C
head -c 1000 "$dir/u/vanilla-0" >"$dir/trunc"
# shellcheck disable=SC2086
[ "$parts" = 1 ] && prove_refused "a truncated vanilla proof" "vanilla_proofs\[0\]" \
    --registered-proof $rp --vanilla "$dir/trunc" $C
# shellcheck disable=SC2086
RC=2 prove_refused "registered proof 5" "not a RegisteredUpdateProof" --registered-proof 5 $V $C
# shellcheck disable=SC2086
RC=2 prove_refused "a comm that is not a field element" "comm_d_new: not a canonical" \
    --registered-proof $rp $V --comm-r-old "$cro" --comm-r-new "$crn" \
    --comm-d-new "$(printf 'ff%.0s' $(seq 32))"
# shellcheck disable=SC2086
RC=2 prove_refused "a short comm" "64 hex digits" --registered-proof $rp $V \
    --comm-r-old 12 --comm-r-new "$crn" --comm-d-new "$cdn"
/usr/bin/python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); del j["comm_d_new"]
json.dump(j, open(sys.argv[2], "w"))' "$J" "$dir/u/nod.json"
prove_refused "a snap.json without comm_d_new" 'no "comm_d_new" (give --comm-d-new)' \
    --snap-json "$dir/u/nod.json"
check "prove snap without parameters in an empty dir" 1 "$cuzk" prove snap --snap-json "$J" \
    --params-dir "$dir/empty" --out "$dir/none.proof"
head -c 100 /dev/urandom >"$dir/short.proof"
check "verify snap refuses a 100-byte proof" 2 "$cuzk" verify snap --snap-json "$J" \
    --proof "$dir/short.proof" --params-dir "$params"
check "  naming the length" 0 grep -q "100 bytes, $parts partition" "$dir/last"
if [ "$mode" = quick ] || [ "$mode" = 8m-quick ]; then
    echo "$fails failed"
    exit "$fails"
fi

# ---- setup, prove, verify ---------------------------------------------------------
if [ ! -d "$oracle/node_modules/@noble/curves" ]; then
    echo "FAIL: missing $oracle/node_modules: run tools/install-deps.sh (npm ci)"
    exit 1
fi
stem=$("$cuzk" circuit info $circuit | sed -n 's/^parameters *\([^ ]*\)\.params.*/\1/p')
check "circuit info $circuit names the parameter stem" 0 test -n "$stem"
check "setup $circuit (cached in $params)" 0 "$cuzk" setup $circuit --out "$params"
check "  test-only meta" 0 grep -q '"test_only": true' "$params/$stem.meta"
vk="$params/$stem.vk"
noble() { # noble DESCRIPTION WANT PROOF PUB
    check "noble: $1" "$2" node "$oracle/verify_bellperson.mjs" "$vk" "$3" "$4"
}
# shellcheck disable=SC2086
check "prove snap (--vanilla, --comm-*)" 0 "$cuzk" prove snap --registered-proof $rp $V $C \
    --params-dir "$params" --out "$dir/snap.proof"
check "  $parts x 192 bytes" 0 test "$(stat -c %s "$dir/snap.proof")" = $((192 * parts))
check "verify snap (--snap-json)" 0 "$cuzk" verify snap --snap-json "$J" \
    --proof "$dir/snap.proof" --params-dir "$params"
# shellcheck disable=SC2086
check "verify snap (--comm-*, parameters from \$FIL_PROOFS_PARAMETER_CACHE)" 0 \
    env FIL_PROOFS_PARAMETER_CACHE="$params" "$cuzk" verify snap --registered-proof $rp $C \
    --proof "$dir/snap.proof"
for k in $(seq 0 $((parts - 1))); do
    dd if="$dir/snap.proof" of="$dir/snap.proof$k" bs=192 skip=$k count=1 2>/dev/null
    noble "partition $k" 0 "$dir/snap.proof$k" "$dir/pub$k"
done
# shellcheck disable=SC2086
check "verify snap, another comm_d_new: INVALID" 1 "$cuzk" verify snap --registered-proof $rp \
    --comm-r-old "$cro" --comm-r-new "$crn" --comm-d-new "$(hex32 other)" \
    --proof "$dir/snap.proof" --params-dir "$params"
# shellcheck disable=SC2086
check "verify snap, another comm_r_new: INVALID" 1 "$cuzk" verify snap --registered-proof $rp \
    --comm-r-old "$cro" --comm-r-new "$(hex32 other2)" --comm-d-new "$cdn" \
    --proof "$dir/snap.proof" --params-dir "$params"
"$cuzk" snap public-inputs --registered-proof $rp --comm-r-old "$cro" --comm-r-new "$crn" \
    --comm-d-new "$(hex32 other)" | awk '/^#/{k++} k==1' >"$dir/other.pub0"
noble "partition 0, another comm_d_new" 1 "$dir/snap.proof0" "$dir/other.pub0"
cp "$dir/snap.proof" "$dir/flip.proof"
printf '\x01' | dd of="$dir/flip.proof" bs=1 seek=150 conv=notrunc 2>/dev/null
check "verify snap: a proof with a flipped C byte is rejected" 1 bash -c \
    "'$cuzk' verify snap --snap-json '$J' --proof '$dir/flip.proof' --params-dir '$params' ||
     exit 1"
dd if="$dir/flip.proof" of="$dir/flip.proof0" bs=192 count=1 2>/dev/null
check "noble: the flipped proof is rejected" 1 bash -c \
    "node '$oracle/verify_bellperson.mjs' '$vk' '$dir/flip.proof0' '$dir/pub0' || exit 1"
# --rs-seed (TEST ONLY): the same seed gives the same bytes
for n in 1 2; do
    check "prove snap --rs-seed 5a5a ($n)" 0 "$cuzk" prove snap --snap-json "$J" \
        --params-dir "$params" --rs-seed 5a5a --out "$dir/rs.$n"
done
check "--rs-seed: same seed, same proof" 0 cmp "$dir/rs.1" "$dir/rs.2"
echo "$fails failed"
exit "$fails"
