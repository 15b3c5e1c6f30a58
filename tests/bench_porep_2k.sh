#!/usr/bin/env bash
# The porep-2k benchmark workloads end to end (real proofs, so label slow/e2e):
# `cuzk bench ab --workload porep-2k --runs 1` seals a 2 KiB sector, proves and
# verifies it once per side and reports every phase; `cuzk bench engine
# --workload porep-2k --jobs 2` proves it through the engine's PoRep provider
# and draws a synthesis, a prove and a verify bar per job.  Needs the porep-2k
# test parameters in PARAM_DIR (porep_e2e makes them).  Timing is checked only
# for the injected WinningPoSt: its wait is bounded by one partition.
# usage: bench_porep_2k.sh CUZK PARAM_DIR
. "$(dirname "$0")/e2e_common.sh" bench_porep_2k "$1" "" "$2"
has() { grep -qE -- "$1" "$dir/out" || fail "$2: no line matching /$1/"; }

check "bench ab porep-2k, 1 run per side" 0 "$cuzk" bench ab --workload porep-2k \
    --params-dir "$params" --a "" --b poseidon_replay=off --runs 1
has "PoRep C2 of one 2 KiB sector .*sealed here" "the workload is described"
num='[0-9]+\.[0-9]+'
for phase in "public inputs" "witness \+ check" synthesis "H polynomial" "MSM L" "MSM H" prove \
    verify total; do
    has "^$phase +$num +$num +($num|-)$" "a row for $phase"
done
# A real WinningPoSt (a sector sealed here, `cuzk post-vanilla`, winning-2k
# parameters made if absent) injected into a porep-2k stream: it waits at most
# for the partition in progress (wait <= one partition + 10% + 150 ms).
rnd=$(printf 'winning' | sha256sum | cut -c1-62)00
check "seal a sector for the WinningPoSt" 0 "$cuzk" seal --sector-size 2KiB \
    --registered-proof StackedDrg2KiBV1_1 --random 7 --miner-id 1000 --sector-number 3 \
    --ticket "$rnd" --seed "$rnd" --out "$dir/s"
check "its WinningPoSt vanilla proof" 0 "$cuzk" post-vanilla --registered-proof 0 \
    --sector-dir "$dir/s" --randomness "$rnd" --out "$dir/win.bin"
wstem=$("$cuzk" circuit info winning-2k | sed -n 's/^parameters *\([^ ]*\)\.params.*/\1/p')
if [ ! -f "$params/$wstem.params" ]; then
    check "setup winning-2k (TEST-ONLY)" 0 "$cuzk" setup winning-2k --out "$params"
fi
check "bench engine porep-2k, 2 jobs, a WinningPoSt injected at 5 s" 0 "$cuzk" bench engine \
    --workload porep-2k --params-dir "$params" --jobs 2 --cases pipelined-b1 \
    --inject-winning 5000 --winning-vanilla "$dir/win.bin" --winning-randomness "$rnd" \
    --timeline "$dir/t.svg"
has "^  pipelined-b1 " "a pipelined-b1 row"
for cls in 0 2 3; do # the workload's two jobs: a synthesis, a prove and a verify bar each
    n=$(grep -c "class=\"bar\" data-lane=\"[0-9]*\" data-class=\"$cls\"" "$dir/t.svg")
    [ "$n" = 2 ] || fail "two bars of class $cls in the timeline (got $n)"
done
has "^  inject-winning pipelined-b1 +at 5000 ms: .*behind bench-pipelined-b1-0 partition 0" \
    "the WinningPoSt waited behind the first job's partition"
awk '/^  inject-winning / {
    match($0, /wait [0-9]+ ms/); w = substr($0, RSTART + 5, RLENGTH - 8) + 0
    match($0, /proves in <= [0-9]+ ms/); b = substr($0, RSTART + 13, RLENGTH - 16) + 0
    if (b <= 0 || w > b * 1.1 + 150) { print "wait " w " ms over one partition (" b " ms)"; bad = 1 }
} END { exit bad }' "$dir/out" || fail "the WinningPoSt waited longer than one partition"
[ "$fails" = 0 ] && echo "bench_porep_2k: all passed" || echo "bench_porep_2k: $fails failed"
exit $((fails > 0))
