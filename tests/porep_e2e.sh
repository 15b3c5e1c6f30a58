#!/usr/bin/env bash
# PoRep C2 end to end on 2 KiB sectors: cuzk seal (random data, miner, sector,
# ticket, seed; seed printed) -> cuzk setup porep-2k (TEST-ONLY parameters,
# cached in PARAM_DIR so reruns skip it) -> cuzk prove porep -> cuzk verify
# porep -> the independent verifier (tools/oracle/verify_bellperson.mjs,
# @noble/curves) on the vk, the proof and `cuzk porep public-inputs`.  A proof
# checked against another sector's inputs must be refused by both verifiers.
#
# Always (no parameters needed): the public inputs are 39 lines; a C1 with one
# flipped label byte or path hash is refused by `cuzk prove porep` with the
# native check's message and no proof is written; a truncated C1 and a missing
# one are clear errors; verify porep refuses a proof of the wrong length; Synthetic
# and NI C1s pass the native checks; parameters of another circuit are refused.
#
# usage: porep_e2e.sh CUZK ORACLE_DIR PARAM_DIR [quick|full|all]
#   quick: only the checks that need no parameters
#   full:  + V1_1 setup/prove/verify (default)
#   all:   + Synthetic and NI (13 partitions) proofs
. "$(dirname "$0")/e2e_common.sh" porep_e2e "$@"
py=/usr/bin/python3
seal() { # seal NAME PROOF SECTOR
    check "seal $2 sector $3" 0 "$cuzk" seal --sector-size 2KiB --registered-proof "$2" \
        --random "$((seed % 100000 + $3))" --miner-id "$((1000 + seed % 5000))" \
        --sector-number "$3" --ticket "$(hex32 ticket$3)" --seed "$(hex32 seed$3)" --out "$dir/$1"
}
seal a StackedDrg2KiBV1_1 1
seal b StackedDrg2KiBV1_1 2

# ---- no parameters needed -------------------------------------------------------
check "public inputs" 0 "$cuzk" porep public-inputs --c1 "$dir/a/c1.json"
n=$(grep -c '^[0-9a-f]\{64\}$' "$dir/last")
check "39 public inputs ($n)" 0 test "$n" = 39
corrupt() { # corrupt WHAT OUT: one byte of the first challenge flipped
    "$py" - "$dir/a/c1.json" "$2" "$1" <<'EOF'
import json, sys
c = json.load(open(sys.argv[1]))
p = next(iter(c["vanilla_proofs"].values()))[0][0]
if sys.argv[3] == "label":
    p["replica_column_proofs"]["drg_parents"][2]["column"]["rows"][0][0] ^= 1
else:
    p["comm_d_proofs"]["data"]["Single"]["path"]["path"][3]["hashes"][0][0] ^= 1
json.dump(c, open(sys.argv[2], "w"), separators=(",", ":"))
EOF
}
for what in label path; do
    corrupt "$what" "$dir/bad_$what.json"
    check "prove porep refuses a C1 with a flipped $what" 1 "$cuzk" prove porep \
        --c1 "$dir/bad_$what.json" --params-dir "$params" --out "$dir/bad_$what.proof"
    check "  with the native check's message" 0 \
        grep -q "not a valid vanilla proof: partition 0: challenge 0: .*does not lead to comm_[cd]" "$dir/last"
    check "  and no proof file" 1 test -e "$dir/bad_$what.proof"
done
head -c 5000 "$dir/a/c1.json" >"$dir/trunc.json"
check "prove porep refuses a truncated C1" 1 "$cuzk" prove porep --c1 "$dir/trunc.json" \
    --params-dir "$params" --out "$dir/t.proof"
check "  naming the problem" 0 grep -q "not a usable C1 output: syntax: vanilla_proofs" "$dir/last"
check "prove porep refuses a missing C1" 1 "$cuzk" prove porep --c1 "$dir/none.json" \
    --params-dir "$params" --out "$dir/t.proof"
head -c 100 /dev/urandom >"$dir/short.proof"
check "verify porep refuses a 100-byte proof" 2 "$cuzk" verify porep --c1 "$dir/a/c1.json" \
    --proof "$dir/short.proof" --params-dir "$params"
# Synthetic and NI C1s pass the native checks (proved in mode all)
seal s StackedDrg2KiBV1_1_Feat_SyntheticPoRep 3
seal ni StackedDrg2KiBV1_2_Feat_NonInteractivePoRep 4
for x in s ni; do
    check "prove porep $x: C1 checked, then no parameters in an empty dir" 1 "$cuzk" prove porep \
        --c1 "$dir/$x/c1.json" --params-dir "$dir/empty" --out "$dir/$x.none"
    check "  the witness was checked" 0 grep -q "witness checked, public inputs derived" "$dir/last"
done
"$cuzk" porep public-inputs --c1 "$dir/ni/c1.json" >"$dir/ni.pub"
check "NI: 13 partitions of 39 public inputs" 0 test "$(grep -c '^[0-9a-f]\{64\}$' "$dir/ni.pub")" = 507

# parameters of another circuit under porep-2k's name are refused
stem=$("$cuzk" circuit info porep-2k | sed -n 's/^parameters *\([^ ]*\)\.params.*/\1/p')
mkdir -p "$dir/wrong"
check "toy parameters under the name $stem" 0 "$cuzk" setup --circuit cubic \
    --params "$dir/wrong/$stem.params" --vk "$dir/wrong/$stem.vk"
check "prove porep refuses them" 1 "$cuzk" prove porep --c1 "$dir/a/c1.json" \
    --params-dir "$dir/wrong" --out "$dir/w.proof"
check "  by their digest" 0 grep -q "is not Filecoin's published" "$dir/last"
check "prove porep --trust-params refuses them too" 1 "$cuzk" prove porep --c1 "$dir/a/c1.json" \
    --params-dir "$dir/wrong" --out "$dir/w.proof" --trust-params
check "  saying why" 0 grep -q "ic points, the circuit needs 40: not this circuit's" "$dir/last"
"$cuzk" prove --circuit cubic --params "$dir/wrong/$stem.params" --proof "$dir/toy.proof" >/dev/null
check "verify porep refuses them" 2 "$cuzk" verify porep --c1 "$dir/a/c1.json" \
    --proof "$dir/toy.proof" --params-dir "$dir/wrong"
if [ "$mode" = quick ]; then
    echo "$fails failed"
    exit "$fails"
fi

# ---- setup, prove, verify ---------------------------------------------------------
if [ ! -d "$oracle/node_modules/@noble/curves" ]; then
    echo "FAIL: missing $oracle/node_modules: run tools/install-deps.sh (npm ci)"
    exit 1
fi
check "setup porep-2k (cached in $params)" 0 "$cuzk" setup porep-2k --out "$params"
check "  test-only meta" 0 grep -q '"test_only": true' "$params"/v28-stacked-proof-of-replication-*8-0-0-sha256_hasher-032d3138*.meta
vk=$(ls "$params"/v28-stacked-proof-of-replication-*8-0-0-sha256_hasher-032d3138*.vk)
prove_and_verify() { # prove_and_verify NAME
    check "prove porep $1" 0 "$cuzk" prove porep --c1 "$dir/$1/c1.json" --params-dir "$params" \
        --out "$dir/$1.proof"
    sed -n '/^timing/,$p' "$dir/last"
    check "verify porep $1" 0 "$cuzk" verify porep --c1 "$dir/$1/c1.json" --proof "$dir/$1.proof" \
        --params-dir "$params"
    local parts=$(($(stat -c %s "$dir/$1.proof") / 192)) k
    for ((k = 0; k < parts; k++)); do
        "$cuzk" porep public-inputs --c1 "$dir/$1/c1.json" --partition $k >"$dir/$1.pub$k"
        dd if="$dir/$1.proof" of="$dir/$1.proof$k" bs=192 skip=$k count=1 2>/dev/null
        check "noble verify $1 partition $k" 0 node "$oracle/verify_bellperson.mjs" "$vk" \
            "$dir/$1.proof$k" "$dir/$1.pub$k"
    done
}
prove_and_verify a
check "verify porep a, parameters from \$FIL_PROOFS_PARAMETER_CACHE" 0 \
    env FIL_PROOFS_PARAMETER_CACHE="$params" "$cuzk" verify porep --c1 "$dir/a/c1.json" \
    --proof "$dir/a.proof"
check "verify porep: sector a's proof against sector b" 1 "$cuzk" verify porep \
    --c1 "$dir/b/c1.json" --proof "$dir/a.proof" --params-dir "$params"
"$cuzk" porep public-inputs --c1 "$dir/b/c1.json" >"$dir/b.pub0"
check "noble verify: sector a's proof against sector b's inputs" 1 node \
    "$oracle/verify_bellperson.mjs" "$vk" "$dir/a.proof0" "$dir/b.pub0"
cp "$dir/a.proof" "$dir/flip.proof"
b=$(od -An -tu1 -j144 -N1 "$dir/a.proof" | tr -d ' ')
printf "$(printf '\\%03o' $((b ^ 0x20)))" | dd of="$dir/flip.proof" bs=1 seek=144 conv=notrunc 2>/dev/null
check "verify porep: C negated" 1 "$cuzk" verify porep --c1 "$dir/a/c1.json" \
    --proof "$dir/flip.proof" --params-dir "$params"

if [ "$mode" = all ]; then
    prove_and_verify s
    prove_and_verify ni
fi
echo "$fails failed"
exit "$fails"
