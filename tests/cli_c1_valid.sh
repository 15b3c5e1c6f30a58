#!/usr/bin/env bash
# `cuzk c1 synth --valid`: a C1 of an invented (never sealed) sector that
# `cuzk verify-vanilla` accepts with its miner and sector, and whose circuit
# `cuzk c1 check --circuit` finds satisfied; another sector number, a
# synthetic-PoRep proof and bad options are refused.  --post-proof writes
# Winning/WindowPoSt vanilla proofs of the same sector (the sizes of a sealed
# 2 KiB sector's: 5680 and 36816 bytes).
# usage: cli_c1_valid.sh CUZK
set -uo pipefail
cuzk="$1"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fails=0
check() { # check DESCRIPTION WANT_RC WANT_REGEX COMMAND...
    local desc="$1" want="$2" re="$3" rc=0
    shift 3
    "$@" >"$dir/out" 2>&1 || rc=$?
    if [ "$rc" = "$want" ] && grep -Eq -- "$re" "$dir/out"; then
        echo "ok: $desc -> $(tail -1 "$dir/out")"
    else
        echo "FAIL: $desc: exit $rc (expected $want), output: $(cat "$dir/out")"
        fails=$((fails + 1))
    fi
}
check "synth valid 2 KiB" 0 "StackedDrg2KiBV1_1 \(valid: an invented sector" \
    "$cuzk" c1 synth --valid --proof StackedDrg2KiBV1_1 --seed 5 --miner 1234 --sector 77 \
    --out "$dir/a.json"
check "verify-vanilla" 0 "^ok: StackedDrg2KiBV1_1, 1 partitions x 2 challenges verified \(replica_id checked\)" \
    "$cuzk" verify-vanilla --c1 "$dir/a.json" --miner-id 1234 --sector-number 77
check "another sector" 1 "INVALID: replica_id is not the one of miner 1234 sector 78" \
    "$cuzk" verify-vanilla --c1 "$dir/a.json" --miner-id 1234 --sector-number 78
check "circuit" 0 "partition 0: 2687921 constraints satisfied" \
    "$cuzk" c1 check --circuit "$dir/a.json"
check "circuit partition 0" 0 "^ok: circuit satisfied" \
    "$cuzk" c1 check --circuit --partition 0 "$dir/a.json"
check "circuit partition 1" 2 "the proof has 1 partitions" \
    "$cuzk" c1 check --circuit --partition 1 "$dir/a.json"
check "same seed, same bytes" 0 "" sh -c "\"$cuzk\" c1 synth --valid --proof 5 --seed 5 --miner 1234 \
    --sector 77 --out \"$dir/b.json\" && cmp \"$dir/a.json\" \"$dir/b.json\""
check "wrapped 8 MiB V1" 0 "StackedDrg8MiBV1 \(valid" \
    "$cuzk" c1 synth --valid --proof 1 --wrapper 77 --data-nodes 100 --out "$dir/c.json"
check "verify-vanilla wrapped" 0 "^ok: StackedDrg8MiBV1, 1 partitions x 2 challenges verified \(replica_id checked\)" \
    "$cuzk" verify-vanilla --c1 "$dir/c.json" --miner-id 1000 --sector-number 77
check "synthetic refused" 1 "challenges depend on comm_r" \
    "$cuzk" c1 synth --valid --proof StackedDrg2KiBV1_1_Feat_SyntheticPoRep --out "$dir/x.json"
check "bad miner" 1 "bad --miner" \
    "$cuzk" c1 synth --valid --proof 5 --miner x --out "$dir/x.json"
check "miner without --valid" 2 "usage" \
    "$cuzk" c1 synth --proof 5 --miner 3 --out "$dir/x.json"
h32() { printf "$1%.0s" $(seq 32); }
check "window PoSt" 0 "StackedDrgWindow2KiBV1_1 vanilla proof of sector 77, 5680 bytes" \
    "$cuzk" c1 synth --valid --proof 5 --seed 5 --miner 1234 --sector 77 --out "$dir/d.json" \
    --post-proof 10 --randomness "$(h32 33)" --post-out "$dir/w.bin"
check "same sector" 0 "^same$" sh -c "cmp \"$dir/a.json\" \"$dir/d.json\" && echo same"
check "winning PoSt" 0 "StackedDrgWinning2KiBV1 vanilla proof of sector 77, 36816 bytes" \
    "$cuzk" c1 synth --valid --proof 5 --seed 5 --miner 1234 --sector 77 --out "$dir/d.json" \
    --post-proof 0 --randomness "$(h32 33)" --post-out "$dir/win.bin"
check "PoSt of another size" 1 "StackedDrgWindow32GiBV1_1: the invented sector is a 2KiB sector" \
    "$cuzk" c1 synth --valid --proof 5 --out "$dir/d.json" \
    --post-proof 13 --randomness "$(h32 33)" --post-out "$dir/x.bin"
check "PoSt without randomness" 2 "usage" \
    "$cuzk" c1 synth --valid --proof 5 --out "$dir/d.json" --post-proof 10 --post-out "$dir/x.bin"
[ "$fails" = 0 ] && echo "all passed" || echo "$fails failed"
exit $((fails != 0))
