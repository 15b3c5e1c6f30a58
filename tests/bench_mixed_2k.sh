#!/usr/bin/env bash
# `cuzk bench engine --workload mixed` at 2 KiB (issue 43): one sector sealed
# in memory gives a PoRep C1, a SnapDeals update and Window/WinningPoSt
# vanilla proofs; a small stream of all four kinds (batch 2, one submit every
# second so that the WinningPoSts arrive while other work runs) must have
# every proof proved and verified, a row per kind, and no WinningPoSt queued
# behind another kind's batch.  No timing is asserted.  Needs the four 2 KiB
# test parameter sets in PARAM_DIR.
# usage: bench_mixed_2k.sh CUZK PARAM_DIR
. "$(dirname "$0")/e2e_common.sh" bench_mixed_2k "$1" "" "$2"
has() { grep -qE -- "$1" "$dir/out" || fail "$2: no line matching /$1/"; }

check "a mixed 2 KiB stream: porep 1, snap 1, window 2, winning 3" 0 "$cuzk" bench engine \
    --workload mixed --mix porep:1,snap:1,window:2,winning:3 --batch 2 --interval-ms 1000 \
    --params-dir "$params"
for row in "porep-c2 +1 +1 +0" "snap-update +1 +1 +0" "window-post +2 +2 +0" \
    "winning-post +3 +3 +0"; do
    has "^  $row +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$" "a row: ${row%% *}"
done
has "^  proofs verified: 7 of 7 " "every proof verified here"
n=$(grep -c "^  winning bench-mixed-.*queued behind another kind's batch: no$" "$dir/out")
[ "$n" = 3 ] || fail "$n of 3 WinningPoSts not queued behind another kind's batch"
has "^  WinningPoSt queued behind another kind's batch: 0 of 3$" "the WinningPoSt summary"
has "^  wall [0-9.]+ s; GPU busy: cpu .*peak host RSS \(VmHWM\) [0-9.]+ GiB$" "the totals line"
[ "$fails" = 0 ] && echo "bench_mixed_2k: all passed" || echo "bench_mixed_2k: $fails failed"
exit $((fails > 0))
