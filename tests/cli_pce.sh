#!/usr/bin/env bash
# `cuzk pce build porep-2k --dir D`, then `check` and `info` of the file: the
# counts match `cuzk circuit info porep-2k`; a flipped byte, a truncated file
# and a file for another circuit (--circuit) fail with exit 1 and the reason.
# usage: cli_pce.sh CUZK
. "$(dirname "$0")/e2e_common.sh" cli_pce "$1"
check_re "build porep-2k" 0 "non-zeros A/B/C +6421005 / 2689006 / 5824682 = 14934693" \
    "$cuzk" pce build porep-2k --dir "$dir/p" --threads 2
f="$(ls "$dir"/p/*.pce)"
case "$f" in */v28-stacked-proof-of-replication-*.pce) ;; *) fail "file name $f" ;; esac
check_re "check" 0 ": ok \(porep-2k, 2687961 rows, 14934693 terms" "$cuzk" pce check "$f" --circuit porep-2k
check_re "info" 0 "rows +2687961 \(2687921 circuit\), 40 inputs, 2685673 aux" "$cuzk" pce info "$f"
check_re "info: density as circuit info" 0 "density +A aux 2674908, B inputs 1, B aux 685521" "$cuzk" pce info "$f"
check_re "info: dictionary" 0 "class \+1 +1 entries" "$cuzk" pce info "$f"
check_re "another circuit" 1 "shape mismatch: recorded for circuit \"porep-2k\", expected \"porep-8m\"" \
    "$cuzk" pce check "$f" --circuit porep-8m
cp "$f" "$dir/bad.pce"
printf '\x55' | dd of="$dir/bad.pce" bs=1 seek=$((5 * 1024 * 1024)) conv=notrunc status=none
check_re "flipped byte" 1 "checksum of section [A-Z_]+ \(chunk [0-9]+\) mismatch" "$cuzk" pce check "$dir/bad.pce"
head -c 100000 "$f" >"$dir/short.pce"
check_re "truncated" 1 "truncated" "$cuzk" pce check "$dir/short.pce"
check_re "unknown circuit" 2 "unknown circuit" "$cuzk" pce build porep-1k --dir "$dir/p"
[ "$fails" = 0 ] || exit 1
