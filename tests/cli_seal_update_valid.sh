#!/usr/bin/env bash
# cuzk seal update --valid: invented SnapDeals updates (sealer/seal_synth_snap.h)
# of 2 KiB, 8 MiB (--h 7) and 32 GiB, no sector sealed.  Each output dir has
# snap.json and one vanilla-<k> per partition of the size's length, and the
# native verifier (test_snap_partition dir: snap_partition_prepare, what
# cuzk prove snap runs first) accepts every partition; with one byte of one
# vanilla proof changed it refuses.  cuzk prove snap --snap-json checks the
# 32 GiB set (and refuses the tampered one) before it looks for parameters.
# The same seed gives the same bytes.
# Bad input (unknown proof, bad h, too many nodes, an unwritable dir) is
# refused with a message.
#
# usage: cli_seal_update_valid.sh CUZK CHECK [PARAM_DIR]
#   PARAM_DIR: also prove the invented 2 KiB update with cuzk prove snap
#   (TEST-ONLY snap-2k parameters, made there by cuzk setup when missing) and
#   check it with cuzk verify snap; a proof against another comm_d_new fails.
set -euo pipefail
cuzk="$1"
check="$2"
params="${3:-}"
d="$(mktemp -d)"
trap 'rm -rf "$d"' EXIT
field() { sed -n "s/.*\"$2\":\"\\{0,1\\}\\([^\",}]*\\).*/\\1/p" "$1"; }

invent() { # invent NAME PROOF PARTS BYTES|- [ARGS...]
    local name="$1" proof="$2" parts="$3" bytes="$4"
    shift 4
    "$cuzk" seal update --valid --registered-proof "$proof" --out "$d/$name" --seed 5 "$@"
    test "$(field "$d/$name/snap.json" partitions)" = "$parts"
    [ "$bytes" = - ] || test "$(field "$d/$name/snap.json" vanilla_bytes)" = "$bytes"
    bytes=$(field "$d/$name/snap.json" vanilla_bytes)
    for k in $(seq 0 $((parts - 1))); do test "$(stat -c %s "$d/$name/vanilla-$k")" = "$bytes"; done
    test ! -e "$d/$name/vanilla-$parts"
    "$check" dir "$d/$name"
    # one byte changed in the last partition's proof: refused
    cp -r "$d/$name" "$d/$name.bad"
    local last=$((parts - 1))
    printf '\x5a' | dd of="$d/$name.bad/vanilla-$last" bs=1 seek=$((bytes / 2)) conv=notrunc \
        2>/dev/null
    if "$check" dir "$d/$name.bad" >"$d/out" 2>&1; then
        echo "a tampered $name vanilla proof was accepted"
        exit 1
    fi
    grep -q "refused\|SNAP_E_\|CHECK failed" "$d/out"
}
invent 2k StackedDrg2KiBV1 1 15064
invent 8m 1 4 43864 --h 7 --nodes 40
test "$(field "$d/8m/snap.json" h)" = 7
start=$(date +%s)
invent 32g StackedDrg32GiBV1 16 -
echo "32 GiB: invented and verified in $(($(date +%s) - start)) s"
# cuzk prove snap takes the 32 GiB snap.json: its checks pass, then the
# (absent) parameters stop it; the tampered set is refused naming the proof
mkdir "$d/empty"
if "$cuzk" prove snap --snap-json "$d/32g/snap.json" --params-dir "$d/empty" --out "$d/p" \
    >"$d/out" 2>&1; then echo "proved without parameters?"; exit 1; fi
grep -q "16 partitions: vanilla proofs checked" "$d/out" || { cat "$d/out"; exit 1; }
if "$cuzk" prove snap --snap-json "$d/32g.bad/snap.json" --params-dir "$d/empty" --out "$d/p" \
    >"$d/out" 2>&1; then echo "proved without parameters?"; exit 1; fi
grep -q "vanilla_proofs\[15\] (partition 15)" "$d/out" || { cat "$d/out"; exit 1; }

# the same seed, the same bytes; another seed, another update
"$cuzk" seal update --valid --registered-proof 0 --out "$d/2k-again" --seed 5 >/dev/null
cmp "$d/2k/vanilla-0" "$d/2k-again/vanilla-0"
"$cuzk" seal update --valid --registered-proof 0 --out "$d/2k-other" --seed 6 >/dev/null
! cmp -s "$d/2k/vanilla-0" "$d/2k-other/vanilla-0"

fails() { if "$cuzk" seal update --valid "$@" >"$d/out" 2>&1; then echo "accepted: $*"; exit 1; fi
          grep -q -- "$EXPECT" "$d/out" || { echo "wanted: $EXPECT"; cat "$d/out"; exit 1; }; }
EXPECT="unknown registered update proof" fails --registered-proof StackedDrg3KiBV1 --out "$d/x"
EXPECT="unknown registered update proof" fails --registered-proof 5 --out "$d/x"
EXPECT="is not one of" fails --registered-proof 0 --out "$d/x" --h 3
EXPECT="is not one of" fails --registered-proof 3 --out "$d/x" --h 13
EXPECT="--h" fails --registered-proof 3 --out "$d/x" --h 0
EXPECT="at most" fails --registered-proof 0 --out "$d/x" --nodes 2000000
EXPECT="bad --seed" fails --registered-proof 0 --out "$d/x" --seed -1
EXPECT="needs --registered-proof" fails --out "$d/x"
touch "$d/file"
EXPECT="cannot create $d/file/sub" fails --registered-proof 0 --out "$d/file/sub"

if [ -n "$params" ]; then
    "$cuzk" setup snap-2k --out "$params" >/dev/null
    J="$d/2k/snap.json"
    "$cuzk" prove snap --snap-json "$J" --params-dir "$params" --out "$d/snap.proof"
    test "$(stat -c %s "$d/snap.proof")" = 192
    "$cuzk" verify snap --snap-json "$J" --proof "$d/snap.proof" --params-dir "$params"
    if "$cuzk" verify snap --registered-proof 0 --comm-r-old "$(field "$J" comm_r_old)" \
        --comm-r-new "$(field "$J" comm_r_new)" --comm-d-new "$(field "$J" comm_r_old)" \
        --proof "$d/snap.proof" --params-dir "$params" >"$d/out" 2>&1; then
        echo "verify snap accepted another comm_d_new"
        exit 1
    fi
    echo "invented 2 KiB update proved and verified"
fi
echo "seal update --valid: 2 KiB, 8 MiB, 32 GiB invented and verified; tampering and bad input refused"
