#!/usr/bin/env bash
# `cuzk c1 synth --valid`: a C1 of an invented (never sealed) sector that
# `cuzk verify-vanilla` accepts with its miner and sector, and whose circuit
# `cuzk c1 check --circuit` finds satisfied; another sector number, a
# synthetic-PoRep proof and bad options are refused.  --post-proof writes
# Winning/WindowPoSt vanilla proofs of the same sector (the sizes of a sealed
# 2 KiB sector's: 5680 and 36816 bytes).
# usage: cli_c1_valid.sh CUZK
. "$(dirname "$0")/e2e_common.sh" cli_c1_valid "$1"
check_re "synth valid 2 KiB" 0 "StackedDrg2KiBV1_1 \(valid: an invented sector" \
    "$cuzk" c1 synth --valid --proof StackedDrg2KiBV1_1 --seed 5 --miner 1234 --sector 77 \
    --out "$dir/a.json"
check_re "verify-vanilla" 0 "^ok: StackedDrg2KiBV1_1, 1 partitions x 2 challenges verified \(replica_id checked\)" \
    "$cuzk" verify-vanilla --c1 "$dir/a.json" --miner-id 1234 --sector-number 77
check_re "another sector" 1 "INVALID: replica_id is not the one of miner 1234 sector 78" \
    "$cuzk" verify-vanilla --c1 "$dir/a.json" --miner-id 1234 --sector-number 78
check_re "circuit" 0 "partition 0: 2687921 constraints satisfied" \
    "$cuzk" c1 check --circuit "$dir/a.json"
check_re "circuit partition 0" 0 "^ok: circuit satisfied" \
    "$cuzk" c1 check --circuit --partition 0 "$dir/a.json"
check_re "circuit partition 1" 2 "the proof has 1 partitions" \
    "$cuzk" c1 check --circuit --partition 1 "$dir/a.json"
check "same seed, same bytes" 0 sh -c "\"$cuzk\" c1 synth --valid --proof 5 --seed 5 --miner 1234 \
    --sector 77 --out \"$dir/b.json\" && cmp \"$dir/a.json\" \"$dir/b.json\""
check_re "wrapped 8 MiB V1" 0 "StackedDrg8MiBV1 \(valid" \
    "$cuzk" c1 synth --valid --proof 1 --wrapper 77 --data-nodes 100 --out "$dir/c.json"
check_re "verify-vanilla wrapped" 0 "^ok: StackedDrg8MiBV1, 1 partitions x 2 challenges verified \(replica_id checked\)" \
    "$cuzk" verify-vanilla --c1 "$dir/c.json" --miner-id 1000 --sector-number 77
check_re "synthetic refused" 1 "challenges depend on comm_r" \
    "$cuzk" c1 synth --valid --proof StackedDrg2KiBV1_1_Feat_SyntheticPoRep --out "$dir/x.json"
check_re "bad miner" 1 "bad --miner" \
    "$cuzk" c1 synth --valid --proof 5 --miner x --out "$dir/x.json"
check_re "miner without --valid" 2 "usage" \
    "$cuzk" c1 synth --proof 5 --miner 3 --out "$dir/x.json"
h32() { printf "$1%.0s" $(seq 32); }
check_re "window PoSt" 0 "StackedDrgWindow2KiBV1_1 vanilla proof of sector 77, 5680 bytes" \
    "$cuzk" c1 synth --valid --proof 5 --seed 5 --miner 1234 --sector 77 --out "$dir/d.json" \
    --post-proof 10 --randomness "$(h32 33)" --post-out "$dir/w.bin"
check_re "same sector" 0 "^same$" sh -c "cmp \"$dir/a.json\" \"$dir/d.json\" && echo same"
check_re "winning PoSt" 0 "StackedDrgWinning2KiBV1 vanilla proof of sector 77, 36816 bytes" \
    "$cuzk" c1 synth --valid --proof 5 --seed 5 --miner 1234 --sector 77 --out "$dir/d.json" \
    --post-proof 0 --randomness "$(h32 33)" --post-out "$dir/win.bin"
check_re "PoSt of another size" 1 "StackedDrgWindow32GiBV1_1: the invented sector is a 2KiB sector" \
    "$cuzk" c1 synth --valid --proof 5 --out "$dir/d.json" \
    --post-proof 13 --randomness "$(h32 33)" --post-out "$dir/x.bin"
check_re "PoSt without randomness" 2 "usage" \
    "$cuzk" c1 synth --valid --proof 5 --out "$dir/d.json" --post-proof 10 --post-out "$dir/x.bin"
[ "$fails" = 0 ] && echo "all passed" || echo "$fails failed"
exit $((fails != 0))
