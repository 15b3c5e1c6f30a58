#!/usr/bin/env bash
# The CLI checks as the daemon does (issue 32), on a 2 KiB sector sealed here
# and no real parameters:
#  - prove porep holds the C1 to --miner-id / --sector-number (default: the
#    Curio wrapper's SectorNum): another miner or sector is refused naming
#    both, before any parameters load; --sector-number alone, or --miner-id
#    alone on a bare C1, is a usage error; the right pair, or the miner and a
#    wrapper, pass the check (then fail: no parameters).
#  - prove porep|post|snap and verify porep refuse a file with Filecoin's
#    published name whose digest is not parameters.json's, naming both
#    digests; --trust-params or TRUST_PARAMS=1 skip the check (the garbage
#    then fails to parse instead); a .meta saying test_only is a warning.
#  - prove post refuses the same sector given twice.
# usage: cli_params_check.sh CUZK
. "$(dirname "$0")/e2e_common.sh" cli_params_check "$1" "" "" quick
# run: check, keeping the command's output for has / hasnt after it
run() { check "$@"; cp "$dir/last" "$dir/said"; }
has() { check "  saying \"$1\"" 0 grep -q -- "$1" "$dir/said"; }
hasnt() { check "  not saying \"$1\"" 1 grep -q -- "$1" "$dir/said"; }
miner=$((1000 + seed % 5000))
run "seal a 2 KiB sector" 0 "$cuzk" seal --sector-size 2KiB --registered-proof StackedDrg2KiBV1_1 \
    --random "$((seed % 100000))" --miner-id "$miner" --sector-number 5 \
    --ticket "$(hex32 ticket)" --seed "$(hex32 seed)" --out "$dir/s"
C1="$dir/s/c1.json"
mkdir -p "$dir/empty" "$dir/fake"

# ---- identity -------------------------------------------------------------------
run "prove porep, another miner" 1 "$cuzk" prove porep --c1 "$C1" --miner-id $((miner + 1)) \
    --sector-number 5 --params-dir "$dir/empty" --out "$dir/p.bin"
has "miner_id $((miner + 1)) and sector_number 5 do not reproduce the C1's replica_id"
run "prove porep, another sector" 1 "$cuzk" prove porep --c1 "$C1" --miner "$miner" \
    --sector 6 --params-dir "$dir/empty" --out "$dir/p.bin"
has "sector_number 6 do not reproduce"
check "  no proof written" 1 test -e "$dir/p.bin"
run "prove porep, --sector-number without --miner-id" 2 "$cuzk" prove porep --c1 "$C1" \
    --sector-number 5 --params-dir "$dir/empty"
has "needs --miner-id"
run "prove porep, the right miner and sector (then no parameters)" 1 "$cuzk" prove porep \
    --c1 "$C1" --miner-id "$miner" --sector-number 5 --params-dir "$dir/empty"
has "identity checked: miner $miner sector 5"
run "prove porep, --miner-id alone on a bare C1" 2 "$cuzk" prove porep --c1 "$C1" \
    --miner-id "$miner" --params-dir "$dir/empty"
has "only Curio's wrapper names its SectorNum"
run "seal the sector again in Curio's wrapper" 0 "$cuzk" seal --sector-size 2KiB \
    --registered-proof StackedDrg2KiBV1_1 --random "$((seed % 100000))" --miner-id "$miner" \
    --sector-number 5 --ticket "$(hex32 ticket)" --seed "$(hex32 seed)" --out "$dir/w" --curio
run "prove porep, --miner-id alone: the wrapper's SectorNum (then no parameters)" 1 "$cuzk" \
    prove porep --c1 "$dir/w/c1.json" --miner-id "$miner" --params-dir "$dir/empty"
has "identity checked: miner $miner sector 5"
run "prove porep, the wrapper's C1 for another sector" 1 "$cuzk" prove porep \
    --c1 "$dir/w/c1.json" --miner-id "$miner" --sector-number 9 --params-dir "$dir/empty"
has "the Curio wrapper says SectorNum 5"
run "prove porep, no identity given (then no parameters)" 1 "$cuzk" prove porep --c1 "$C1" \
    --params-dir "$dir/empty"
# the name the parameters must have, from the message about the missing file
porep_params=$(grep -o '[^ :]*\.params' "$dir/last" | head -1)
has "checked against itself only"
check "  the missing file has Filecoin's published name" 0 grep -q "^v28-" \
    <<<"$(basename "$porep_params")"

# ---- parameter digests ----------------------------------------------------------
fake() { # fake NAME: 4 KiB of garbage under a published name in $dir/fake
    head -c 4096 /dev/urandom >"$dir/fake/$1"
    rm -f "$dir/fake/${1%.*}.meta"
}
P=$(basename "$porep_params")
fake "$P"
run "prove porep, a corrupted .params" 1 "$cuzk" prove porep --c1 "$C1" --params-dir "$dir/fake" \
    --out "$dir/p.bin"
has "is not Filecoin's published"
has "TRUST_PARAMS=1"
run "prove porep --trust-params: not checked, then unreadable" 1 "$cuzk" prove porep --c1 "$C1" \
    --params-dir "$dir/fake" --trust-params --out "$dir/p.bin"
has "digest not checked"
hasnt "is not Filecoin's published"
run "prove porep, TRUST_PARAMS=1: the same" 1 env TRUST_PARAMS=1 "$cuzk" prove porep --c1 "$C1" \
    --params-dir "$dir/fake" --out "$dir/p.bin"
has "digest not checked"
echo '{"test_only": true}' >"$dir/fake/${P%.params}.meta"
run "prove porep, a TEST-ONLY .meta: a warning, then unreadable" 1 "$cuzk" prove porep \
    --c1 "$C1" --params-dir "$dir/fake" --out "$dir/p.bin"
has "TEST-ONLY parameters under Filecoin's published name"
hasnt "is not Filecoin's published"
# a well-formed proof (the generators) so that verify reaches the vk
{
    printf '97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb'
    printf '93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e'
    printf '024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8'
    printf '97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb'
} | xxd -r -p >"$dir/gen.bin"
fake "${P%.params}.vk"
run "verify porep, a corrupted .vk" 2 "$cuzk" verify porep --c1 "$C1" --proof "$dir/gen.bin" \
    --params-dir "$dir/fake"
has "is not Filecoin's published"
run "verify porep --trust-params: not checked, then unreadable" 2 "$cuzk" verify porep --c1 "$C1" \
    --proof "$dir/gen.bin" --params-dir "$dir/fake" --trust-params
has "digest not checked"
hasnt "is not Filecoin's published"

# ---- PoSt ---------------------------------------------------------------------
rnd=$(hex32 randomness)
run "post-vanilla, winning" 0 "$cuzk" post-vanilla --registered-proof 0 --sector-dir "$dir/s" \
    --randomness "$rnd" --out "$dir/win.bin"
run "post-vanilla, window" 0 "$cuzk" post-vanilla --registered-proof 10 --sector-dir "$dir/s" \
    --randomness "$rnd" --out "$dir/w.bin"
run "prove post, no parameters (the name they need)" 1 "$cuzk" prove post --kind winning \
    --vanilla "$dir/win.bin" --randomness "$rnd" --params-dir "$dir/empty"
W=$(basename "$(grep -o '[^ :]*\.params' "$dir/last" | head -1)")
fake "$W"
run "prove post, a corrupted .params" 1 "$cuzk" prove post --kind winning \
    --vanilla "$dir/win.bin" --randomness "$rnd" --params-dir "$dir/fake" --out "$dir/p.bin"
has "is not Filecoin's published"
run "prove post --trust-params: not checked" 1 "$cuzk" prove post --kind winning \
    --vanilla "$dir/win.bin" --randomness "$rnd" --params-dir "$dir/fake" --trust-params
has "digest not checked"
run "prove post, one sector twice" 1 "$cuzk" prove post --kind window --vanilla "$dir/w.bin" \
    --vanilla "$dir/w.bin" --randomness "$rnd" --params-dir "$dir/empty"
has "sector 5 is given twice"

# ---- SnapDeals ----------------------------------------------------------------
run "seal a CC sector" 0 "$cuzk" seal --sector-size 2KiB --registered-proof 5 --zeros \
    --miner-id "$miner" --sector-number 7 --ticket "$(hex32 ticket)" --seed "$(hex32 seed)" \
    --out "$dir/cc"
run "seal update" 0 "$cuzk" seal update --sector "$dir/cc" --out "$dir/u" --random "$seed"
run "prove snap, no parameters (the name they need)" 1 "$cuzk" prove snap \
    --snap-json "$dir/u/snap.json" --params-dir "$dir/empty"
S=$(basename "$(grep -o '[^ :]*\.params' "$dir/last" | head -1)")
fake "$S"
run "prove snap, a corrupted .params" 1 "$cuzk" prove snap --snap-json "$dir/u/snap.json" \
    --params-dir "$dir/fake" --out "$dir/p.bin"
has "is not Filecoin's published"
run "prove snap, TRUST_PARAMS=1: not checked" 1 env TRUST_PARAMS=1 "$cuzk" prove snap \
    --snap-json "$dir/u/snap.json" --params-dir "$dir/fake" --out "$dir/p.bin"
has "digest not checked"

[ "$fails" = 0 ] && echo "cli_params_check: all passed" || echo "cli_params_check: $fails failed"
exit $((fails > 0))
