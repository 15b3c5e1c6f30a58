#!/usr/bin/env bash
# cuzk seal update: the SnapDeals update step on a CC sector sealed by cuzk
# seal.  Checks the outputs: file sizes (a 2 KiB PartitionProof is 15,064
# bytes), comm_r_old = sector.json's comm_r = Poseidon2(comm_c, comm_r_last),
# comm_r_new = Poseidon2(comm_c, comm_r_last_new) (cuzk hash poseidon), the new
# data and comm_d_new equal what cuzk seal pads and commits for the same
# --random seed, and every vanilla file passes snap_partition_prepare with
# the update file's tree R root = comm_r_last_new (test_snap_partition dir).
# Bad inputs are refused with a message naming them.  Mode 8m: an 8 MiB
# sector, 4 partitions of 43,864 bytes, and --h 7.
set -euo pipefail
cuzk="$1"
check="$2"
mode="${3:-2k}"
d="$(mktemp -d)"
trap 'rm -rf "$d"' EXIT
h32() { printf "$1%.0s" $(seq 32); }
field() { sed -n "s/.*\"$2\":\"\\{0,1\\}\\([^\",}]*\\).*/\\1/p" "$1"; }
if [ "$mode" = 8m ]; then size=8MiB proof=6 bytes=43864 parts=4 hopt="--h 7" h=7
else size=2KiB proof=5 bytes=15064 parts=1 hopt="" h=1; fi
seal() { "$cuzk" seal --sector-size $size --registered-proof $proof --miner-id 1000 \
    --sector-number 9 --ticket "$(h32 11)" --seed "$(h32 22)" "$@" >/dev/null 2>&1; }
seal --zeros --out "$d/cc"
seal --random 7 --out "$d/data7"          # its unsealed = the padded data of seed 7
# shellcheck disable=SC2086
"$cuzk" seal update --sector "$d/cc" --out "$d/u" --random 7 $hopt

test "$(field "$d/u/snap.json" partitions)" = $parts
test "$(field "$d/u/snap.json" h)" = $h
test "$(field "$d/u/snap.json" vanilla_bytes)" = $bytes
for k in $(seq 0 $((parts - 1))); do test "$(stat -c %s "$d/u/vanilla-$k")" = $bytes; done
test ! -e "$d/u/vanilla-$parts"
cmp "$d/u/update-data" "$d/data7/unsealed"
test "$(field "$d/u/snap.json" comm_d_new)" = "$(field "$d/data7/sector.json" comm_d)"
test "$(field "$d/u/snap.json" comm_r_old)" = "$(field "$d/cc/sector.json" comm_r)"
c=$(field "$d/u/snap.json" comm_c)
test "$("$cuzk" hash poseidon --arity 2 "$c" "$(field "$d/u/snap.json" comm_r_last_old)")" = \
     "$(field "$d/u/snap.json" comm_r_old)"
test "$("$cuzk" hash poseidon --arity 2 "$c" "$(field "$d/u/snap.json" comm_r_last_new)")" = \
     "$(field "$d/u/snap.json" comm_r_new)"
! cmp -s "$d/u/update" "$d/cc/sealed"
"$check" dir "$d/u"

# the same seed gives the same bytes; zeros and a file work too
"$cuzk" seal update --sector "$d/cc" --out "$d/u2" --random 7 $hopt >/dev/null
cmp "$d/u/vanilla-0" "$d/u2/vanilla-0"
"$cuzk" seal update --sector "$d/cc" --out "$d/z" --zeros >/dev/null
head -c 1000 /dev/urandom > "$d/piece"
"$cuzk" seal update --sector "$d/cc" --out "$d/f" --data "$d/piece" >/dev/null
"$check" dir "$d/f" >/dev/null

fails() { if "$cuzk" seal update "$@" >"$d/out" 2>&1; then echo "accepted: $*"; exit 1; fi
          grep -q -- "$EXPECT" "$d/out" || { echo "wanted: $EXPECT"; cat "$d/out"; exit 1; }; }
EXPECT="is not one of" fails --sector "$d/cc" --out "$d/x" --h 3
EXPECT="cannot read" fails --sector "$d/nope" --out "$d/x"
EXPECT="give at most one" fails --sector "$d/cc" --out "$d/x" --zeros --random 1
head -c $((bytes * 200)) /dev/zero > "$d/big"   # past the unpadded size
EXPECT="holds more than" fails --sector "$d/cc" --out "$d/x" --data "$d/big"
cp -r "$d/cc" "$d/bad"
printf '\001' | dd of="$d/bad/sealed" bs=1 seek=64 conv=notrunc 2>/dev/null
EXPECT="tree R root is not p_aux's comm_r_last" fails --sector "$d/bad" --out "$d/x"
head -c 100 "$d/cc/sealed" > "$d/bad/sealed"
EXPECT="sealed holds 100 bytes" fails --sector "$d/bad" --out "$d/x"
echo "seal update $size: $parts x $bytes-byte vanilla proofs checked, 6 bad inputs refused"
