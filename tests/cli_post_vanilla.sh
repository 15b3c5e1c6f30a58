#!/usr/bin/env bash
# cuzk post-vanilla on a sector sealed by cuzk seal: WindowPoSt (10 paths of
# a 2 KiB tree: 8 + 10 x (4 + 64 + 2 x (8 + 7 x 32 + 8)) + 64 = 5680 bytes) and
# WinningPoSt (66 paths: 36816 bytes); wrong sizes and bad input refused.
set -euo pipefail
cuzk="$1"
d="$(mktemp -d)"
trap 'rm -rf "$d"' EXIT
h32() { printf "$1%.0s" $(seq 32); }
"$cuzk" seal --sector-size 2KiB --registered-proof 5 --random 3 --miner-id 1000 \
    --sector-number 9 --ticket "$(h32 11)" --seed "$(h32 22)" --out "$d/s" >/dev/null 2>&1
"$cuzk" post-vanilla --registered-proof 10 --sector-dir "$d/s" --randomness "$(h32 33)" --out "$d/w.bin"
"$cuzk" post-vanilla --registered-proof 0 --sector-dir "$d/s" --randomness "$(h32 33)" --out "$d/win.bin"
test "$(stat -c %s "$d/w.bin")" = 5680
test "$(stat -c %s "$d/win.bin")" = 36816
fails() { if "$cuzk" post-vanilla "$@" >"$d/out" 2>&1; then echo "accepted: $*"; exit 1; fi; grep -q "$EXPECT" "$d/out" || { cat "$d/out"; exit 1; }; }
EXPECT="needs 34359738368 bytes" fails --registered-proof 13 --sector-dir "$d/s" --randomness "$(h32 33)" --out "$d/x"
EXPECT="not a PoSt proof" fails --registered-proof 15 --sector-dir "$d/s" --randomness "$(h32 33)" --out "$d/x"
EXPECT="64 hex digits" fails --registered-proof 10 --sector-dir "$d/s" --randomness 12 --out "$d/x"
EXPECT="not a canonical field element" fails --registered-proof 10 --sector-dir "$d/s" --randomness "$(h32 ff)" --out "$d/x"
EXPECT="cannot read" fails --registered-proof 10 --sector-dir "$d/nope" --randomness "$(h32 33)" --out "$d/x"
echo "post-vanilla: window 5680 B, winning 36816 B, 5 bad inputs refused"
