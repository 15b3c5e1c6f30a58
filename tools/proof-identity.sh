#!/bin/bash
# Proof bytes before/after a refactor: two cuzk binaries (OLD, NEW) prove the same 2 KiB
# PoRep, WindowPoSt, WinningPoSt and SnapDeals inputs with the same --rs-seed (TEST ONLY:
# fixed r, s) on the CPU backend; each pair must be byte-identical.
# usage: tools/proof-identity.sh OLD NEW PARAMS(with porep-2k, wpost-2k, winning-2k, snap-2k) WORK
set -u
old=$1 new=$2 p=$3 w=$4
mkdir -p "$w"; cd "$w"
t=$(printf '11%.0s' {1..32}); s=$(printf '22%.0s' {1..32}); rnd="$(printf '33%.0s' {1..31})00"
"$new" seal --sector-size 2KiB --registered-proof StackedDrg2KiBV1_1 --random 5 --miner-id 1001 \
  --sector-number 1 --ticket $t --seed $s --out s >/dev/null 2>&1 || echo "seal failed"
"$new" post-vanilla --registered-proof 10 --sector-dir s --randomness $rnd --slot 0 --out w.bin >/dev/null 2>&1 || echo "wpost vanilla failed"
"$new" post-vanilla --registered-proof 0 --sector-dir s --randomness $rnd --out win.bin >/dev/null 2>&1 || echo "winning vanilla failed"
"$new" seal --sector-size 2KiB --registered-proof 5 --zeros --miner-id 1001 --sector-number 7 \
  --ticket $t --seed $s --out cc >/dev/null 2>&1 && "$new" seal update --sector cc --out u --random 77 >/dev/null 2>&1 || echo "snap seal failed"
for b in old new; do
  bin=${!b}
  "$bin" prove porep --c1 s/c1.json --params-dir "$p" --rs-seed 0bad --threads 2 --out porep.$b >/dev/null 2>&1 || echo "$b porep failed"
  "$bin" prove post --kind window --vanilla w.bin --randomness $rnd --params-dir "$p" --rs-seed 0bad --threads 2 --out window.$b >/dev/null 2>&1 || echo "$b window failed"
  "$bin" prove post --kind winning --vanilla win.bin --randomness $rnd --params-dir "$p" --rs-seed 0bad --threads 2 --out winning.$b >/dev/null 2>&1 || echo "$b winning failed"
  "$bin" prove snap --snap-json u/snap.json --params-dir "$p" --rs-seed 0bad --threads 2 --out snap.$b >/dev/null 2>&1 || echo "$b snap failed"
done
for k in porep window winning snap; do
  if cmp -s $k.old $k.new && [ -s $k.new ]; then echo "$k: identical ($(stat -c %s $k.new) bytes, sha256 $(sha256sum < $k.new | cut -c1-16))"; else echo "$k: DIFFERENT or missing"; fi
done
