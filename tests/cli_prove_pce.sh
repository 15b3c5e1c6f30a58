#!/bin/bash
# `cuzk prove post` / `porep` / `snap` through PCE (#28): with --rs-seed
# (TEST ONLY) the proof bytes are the same with CUZK_PCE=0 and =1; with PCE on
# the .pce is recorded beside the parameters on first use and loaded after;
# a corrupt .pce is renamed .bad and rebuilt, and the proof stays the same;
# one written by `cuzk setup --pce` is loaded.  The cache's life (load,
# corrupt, setup --pce) is the same code for every kind, so only the post mode
# (a circuit of thousands of rows) walks it; porep and snap prove twice.
# The parameters (TEST-ONLY, cached in PARAMS) are linked into a private
# folder, so the .pce files this test writes stay in it.
# usage: cli_prove_pce.sh CUZK PARAMS post|porep|snap
. "$(dirname "$0")/e2e_common.sh" cli_prove_pce "$1" "" "$2" "$3"
mkdir -p "$params" "$dir/p"
params="$(cd "$params" && pwd)"
export -n FIL_PROOFS_PARAMETER_CACHE
if [ "$mode" = post ]; then
    circuit=window-2k # `cuzk setup` calls it wpost-2k
    setup=wpost-2k
    check "seal a 2 KiB sector" 0 "$cuzk" seal --sector-size 2KiB \
        --registered-proof StackedDrg2KiBV1_1 --random 5 --miner-id 1001 --sector-number 1 \
        --ticket "$(printf '11%.0s' {1..32})" --seed "$(printf '22%.0s' {1..32})" --out "$dir/s"
    rnd="$(printf '33%.0s' {1..31})00"
    check "post-vanilla" 0 "$cuzk" post-vanilla --registered-proof 10 --sector-dir "$dir/s" \
        --randomness "$rnd" --slot 0 --out "$dir/w.bin"
    prove() { CUZK_PCE=$1 "$cuzk" prove post --kind window --vanilla "$dir/w.bin" --randomness "$rnd" \
        --params-dir "$dir/p" --rs-seed 0bad --threads 2 --out "$2" 2>&1 | tee "$dir/log"; }
    verify() { "$cuzk" verify post --kind window --vanilla "$dir/w.bin" --randomness "$rnd" \
        --params-dir "$dir/p" --proof "$1"; }
elif [ "$mode" = snap ]; then
    circuit=snap-2k
    setup=snap-2k
    check "seal a CC 2 KiB sector" 0 "$cuzk" seal --sector-size 2KiB --registered-proof 5 \
        --zeros --miner-id 1001 --sector-number 7 --ticket "$(printf '55%.0s' {1..32})" \
        --seed "$(printf '66%.0s' {1..32})" --out "$dir/cc"
    check "seal update (random data)" 0 "$cuzk" seal update --sector "$dir/cc" --out "$dir/u" \
        --random 77
    prove() { CUZK_PCE=$1 "$cuzk" prove snap --snap-json "$dir/u/snap.json" --params-dir "$dir/p" \
        --rs-seed 0bad --threads 2 --out "$2" 2>&1 | tee "$dir/log"; }
    verify() { "$cuzk" verify snap --snap-json "$dir/u/snap.json" --params-dir "$dir/p" \
        --proof "$1"; }
else
    circuit=porep-2k
    setup=porep-2k
    check "seal a 2 KiB sector (C1)" 0 "$cuzk" seal --sector-size 2KiB --registered-proof 5 \
        --random 9 --miner-id 1001 --sector-number 4 --ticket "$(printf '33%.0s' {1..32})" \
        --seed "$(printf '44%.0s' {1..32})" --out "$dir/s" --curio
    prove() { CUZK_PCE=$1 "$cuzk" prove porep --c1 "$dir/s/c1.json" --params-dir "$dir/p" --rs-seed 0bad \
        --threads 2 --out "$2" 2>&1 | tee "$dir/log"; }
    verify() { "$cuzk" verify porep --c1 "$dir/s/c1.json" --params-dir "$dir/p" --proof "$1"; }
fi
stem=$("$cuzk" circuit info "$circuit" | sed -n 's/^parameters *\([^ ]*\)\.params.*/\1/p')
check "setup $setup (cached in $params)" 0 "$cuzk" setup "$setup" --out "$params"
for x in params vk meta; do ln -s "$params/$stem.$x" "$dir/p/$stem.$x"; done
pce="$dir/p/$stem.pce"

check "CUZK_PCE=0: proved" 0 prove 0 $dir/off.proof
check "  no .pce recorded" 1 test -e "$pce"
check "CUZK_PCE=1: proved" 0 prove 1 $dir/on.proof
check "  the .pce recorded on first use" 0 grep -q "pce recorded into" "$dir/log"
check "  no fall-back to classic synthesis" 1 grep -q "classic synthesis" "$dir/log"
check "  same proof bytes as CUZK_PCE=0" 0 cmp "$dir/off.proof" "$dir/on.proof"
check "  the proof verifies" 0 verify "$dir/on.proof"
if [ "$mode" != post ]; then
    echo "cli_prove_pce $mode: $fails failure(s)"
    exit $((fails > 0))
fi
check "CUZK_PCE=1 again: proved" 0 prove 1 $dir/on2.proof
check "  the .pce loaded" 0 grep -q "pce loaded from" "$dir/log"
check "  same proof bytes" 0 cmp "$dir/off.proof" "$dir/on2.proof"
# one byte of the DICT section flipped: its chunk checksum no longer matches
byte=$(od -An -tu1 -j 8209 -N1 "$pce" | tr -d ' ')
printf "$(printf '\\%03o' $((byte ^ 64)))" | dd of="$pce" bs=1 seek=8209 conv=notrunc status=none
check "a corrupt .pce: proved" 0 prove 1 $dir/re.proof
check "  refused, renamed to .bad" 0 grep -q "refused (.*checksum.*), renamed to .bad" "$dir/log"
check "  rebuilt" 0 grep -q "pce recorded into" "$dir/log"
check "  the .bad kept" 0 test -e "$pce.bad"
check "  same proof bytes" 0 cmp "$dir/off.proof" "$dir/re.proof"
# `cuzk setup --pce` leaves the recording beside new parameters: loaded, not
# recorded.
check "setup $setup --pce" 0 "$cuzk" setup "$setup" --out "$dir/q" --pce --threads 2
check "  STEM.pce written" 0 test -s "$dir/q/$stem.pce"
rm -f "$dir/p/$stem".*
for x in params vk meta pce; do ln -s "$dir/q/$stem.$x" "$dir/p/$stem.$x"; done
check "with them: proved" 0 prove 1 $dir/q.proof
check "  the .pce loaded" 0 grep -q "pce loaded from" "$dir/log"
check "  not recorded" 1 grep -q "pce recorded" "$dir/log"
check "  the proof verifies" 0 verify "$dir/q.proof"
echo "cli_prove_pce $mode: $fails failure(s)"
[ "$fails" = 0 ]
