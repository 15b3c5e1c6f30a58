#!/usr/bin/env bash
# `cuzk seal` on 2 KiB sectors -> `cuzk c1 check` and `cuzk verify-vanilla`
# accept the C1 (bare and Curio-wrapped), comm_d of --zeros is the published
# empty-sector value, and damaged or mismatched copies are rejected with the
# failing part named.
# usage: cli_seal.sh CUZK
. "$(dirname "$0")/e2e_common.sh" cli_seal "$1"
T=0101010101010101010101010101010101010101010101010101010101010101
S=0202020202020202020202020202020202020202020202020202020202020202
S2=0302020202020202020202020202020202020202020202020202020202020202
seal() { # seal OUT PROOF DATA-ARGS...
    local out="$1" proof="$2"
    shift 2
    "$cuzk" seal --sector-size 2KiB --registered-proof "$proof" "$@" --miner-id 1000 \
        --sector-number 7 --ticket "$T" --out "$dir/$out"
}
zero_comm_d=fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833
check_re "seal 2 KiB zeros V1_1" 0 "comm_d $zero_comm_d" seal z StackedDrg2KiBV1_1 --zeros --seed "$S"
check_re "c1 check" 0 "^ok: StackedDrg2KiBV1_1 \(id 5\), 1 partitions x 2 challenges" \
    "$cuzk" c1 check "$dir/z/c1.json"
check_re "verify-vanilla" 0 "^ok: StackedDrg2KiBV1_1, 1 partitions x 2 challenges verified \(replica_id checked\)" \
    "$cuzk" verify-vanilla --c1 "$dir/z/c1.json" --miner-id 1000 --sector-number 7
check_re "files" 0 "^64 2048 2048 288$" sh -c "cd \"$dir/z\" && echo \$(stat -c %s p_aux sealed unsealed tree-r-last)"
check_re "p_aux matches verify-vanilla's comm_c, comm_r_last" 0 "yes" sh -c \
    "od -An -tx1 -v \"$dir/z/p_aux\" | tr -d ' \n' > \"$dir/paux.hex\";
     \"$cuzk\" verify-vanilla --c1 \"$dir/z/c1.json\" | sed 's/.*comm_c \([0-9a-f]*\) comm_r_last \([0-9a-f]*\)/\1\2/' | tr -d '\n' > \"$dir/vv.hex\";
     cmp -s \"$dir/paux.hex\" \"$dir/vv.hex\" && echo yes"
check_re "wrong sector number" 1 "INVALID: replica_id is not the one of miner 1000 sector 8" \
    "$cuzk" verify-vanilla --c1 "$dir/z/c1.json" --miner-id 1000 --sector-number 8
check_re "seal 2 KiB random Synthetic, Curio wrapper" 0 "sealed StackedDrg2KiBV1_1_Feat_SyntheticPoRep" \
    seal r 10 --random 9 --seed "$S" --curio
check_re "c1 check wrapper" 0 "SectorNum 7" "$cuzk" c1 check "$dir/r/c1.json"
check_re "verify-vanilla wrapper" 0 "^ok: StackedDrg2KiBV1_1_Feat_SyntheticPoRep" \
    "$cuzk" verify-vanilla --c1 "$dir/r/c1.json" --miner-id 1000 --sector-number 7
head -c 1000 /dev/urandom >"$dir/data"
check_re "seal 2 KiB file NI-PoRep" 0 "sealed StackedDrg2KiBV1_2_Feat_NonInteractivePoRep" \
    seal f 15 --data "$dir/data" --seed "$S"
check_re "verify-vanilla NI" 0 "13 partitions x 2 challenges verified" \
    "$cuzk" verify-vanilla --c1 "$dir/f/c1.json" --miner-id 1000 --sector-number 7
check_re "unsealed starts with the padded file" 0 "^same$" sh -c \
    "[ \"\$(head -c 31 \"$dir/f/unsealed\" | od -An -tx1)\" = \"\$(head -c 31 \"$dir/data\" | od -An -tx1)\" ] && echo same"
# Damage: the first label of c_x (rows[0][0]) of challenge 0, in the JSON.
awk '{ if (!done && match($0, /"rows":\[\[[0-9]+/)) { v = substr($0, RSTART + 9, RLENGTH - 9);
       n = (v + 1) % 256; $0 = substr($0, 1, RSTART + 8) n substr($0, RSTART + RLENGTH); done = 1 }
       print }' "$dir/z/c1.json" >"$dir/bad.json"
check_re "damaged copy still decodes" 0 "^ok: StackedDrg2KiBV1_1" "$cuzk" c1 check "$dir/bad.json"
check_re "damaged copy rejected" 1 "INVALID: partition 0 challenge 0: c_x column: inclusion proof leaf is not the Poseidon hash of the rows" \
    "$cuzk" verify-vanilla --c1 "$dir/bad.json"
check_re "other seed" 0 "sealed" seal z2 5 --zeros --seed "$S2"
# Put seal z2's seed into z's C1: the challenges no longer match.
seed2=$(grep -o '"seed":\[[0-9,]*\]' "$dir/z2/c1.json")
sed "s/\"seed\":\[[0-9,]*\]/$seed2/" "$dir/z/c1.json" >"$dir/seed.json"
check_re "a C1 with another seed fails the challenge check" 1 "INVALID: partition 0 challenge 0: proves node [0-9]+, but replica_id, seed and comm_r give challenge" \
    "$cuzk" verify-vanilla --c1 "$dir/seed.json"
check_re "c1 synth 32 GiB (random values)" 0 "synthetic" "$cuzk" c1 synth --proof 8 --seed 3 --out "$dir/synth.json"
check_re "random 32 GiB C1 rejected" 1 "INVALID: comm_(r is not Poseidon2|c or comm_r_last .* is not a field element)" \
    "$cuzk" verify-vanilla --c1 "$dir/synth.json"
check_re "miner as ID address f01000 seals the same sector" 0 "^same$" sh -c \
    "\"$cuzk\" seal --registered-proof 5 --zeros --miner-id f01000 --sector-number 7 --ticket $T \
       --seed $S --out \"$dir/f0\" >/dev/null 2>&1 && cmp -s \"$dir/f0/c1.json\" \"$dir/z/c1.json\" && echo same"
check_re "bad seed" 2 "--seed wants 64 hex digits" seal t 5 --zeros --seed 12
check_re "size mismatch" 2 "does not match" "$cuzk" seal --sector-size 8MiB --registered-proof 5 --zeros \
    --miner-id 1 --sector-number 1 --ticket "$T" --seed "$S" --out "$dir/m"
check_re "32 GiB refused" 2 "not supported" "$cuzk" seal --registered-proof 8 --zeros \
    --miner-id 1 --sector-number 1 --ticket "$T" --seed "$S" --out "$dir/m"
check_re "two data sources" 2 "at most one" seal t 5 --zeros --random 1 --seed "$S"
check_re "streaming and --in-memory seal the same files" 0 "^same$" sh -c \
    "\"$cuzk\" seal --registered-proof 10 --random 4 --miner-id 1000 --sector-number 7 --ticket $T \
       --seed $S --out \"$dir/st\" >/dev/null 2>&1 &&
     \"$cuzk\" seal --registered-proof 10 --random 4 --miner-id 1000 --sector-number 7 --ticket $T \
       --seed $S --out \"$dir/im\" --in-memory >/dev/null 2>&1 &&
     for f in c1.json p_aux sealed unsealed tree-r-last sector.json; do
       cmp -s \"$dir/st/\$f\" \"$dir/im/\$f\" || exit 1; done && echo same"
check_re "streaming writes its layer and tree files" 0 "^2048 2048 2016 2336$" sh -c \
    "cd \"$dir/st\" && echo \$(stat -c %s layer-1 layer-2 tree-d tree-c)"
check_re "streaming reports phases and its memory ledger" 0 "memory ledger peak [0-9]+ of a 2097152 byte budget" \
    seal mb 5 --zeros --seed "$S" --mem-budget 2MiB --threads 1
check_re "memory budget below two layers refused" 1 "memory budget 4000 bytes is below the [0-9]+ a 2KiB seal needs" \
    seal mb2 5 --zeros --seed "$S" --mem-budget 4000
check_re "bad --mem-budget" 2 "bad --mem-budget" seal mb3 5 --zeros --seed "$S" --mem-budget 12XB
check_re "a shared --parent-cache is made once and reused" 0 "^same$" sh -c \
    "\"$cuzk\" seal --registered-proof 5 --zeros --miner-id 1000 --sector-number 7 --ticket $T \
       --seed $S --out \"$dir/pc1\" --parent-cache \"$dir/pc.cache\" >/dev/null 2>&1 &&
     [ \$(stat -c %s \"$dir/pc.cache\") = 3584 ] && ! ls \"$dir/pc1\"/*.cache >/dev/null 2>&1 &&
     touch -d 2000-01-01 \"$dir/pc.cache\" &&
     \"$cuzk\" seal --registered-proof 5 --zeros --miner-id 1000 --sector-number 7 --ticket $T \
       --seed $S --out \"$dir/pc2\" --parent-cache \"$dir/pc.cache\" >/dev/null 2>&1 &&
     [ \$(stat -c %Y \"$dir/pc.cache\") = \$(date -d 2000-01-01 +%s) ] &&
     cmp -s \"$dir/pc1/c1.json\" \"$dir/z/c1.json\" && cmp -s \"$dir/pc2/c1.json\" \"$dir/z/c1.json\" && echo same"
echo "$fails failed"
[ "$fails" = 0 ]
