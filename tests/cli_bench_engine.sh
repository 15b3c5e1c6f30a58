#!/usr/bin/env bash
# cuzk bench engine: a small synthetic run with --timeline FILE.svg writes a
# chart that parses as XML and holds, per case, lanes for the synthesis
# workers, the queue and the prover, with one synthesis, queue-wait and
# verify bar per partition (jobs x partitions) and one prove bar per
# backend call; --timeline FILE.csv has one line per event; a bad timeline
# name, an unknown workload, synthetic-only options with porep-2k, and
# porep-2k without parameters are refused with messages, and so are the
# mixed workload's argument errors.  Timing is checked
# only for --inject-winning: a WinningPoSt waits at most for one partition.
# usage: cli_bench_engine.sh CUZK
. "$(dirname "$0")/e2e_common.sh" cli_bench_engine "$1"
py=/usr/bin/python3
has() { grep -qE -- "$1" "$dir/out" || fail "$2: no line matching /$1/"; }

args=(--jobs 3 --partitions 2 --constraints 256 --work 1000 --threads 2)
check "synthetic run with an SVG timeline" 0 "$cuzk" bench engine "${args[@]}" \
    --timeline "$dir/t.svg"
has "^  pipelined-b1 " "a pipelined-b1 row"
has "^  sequential-b1 " "a sequential-b1 row"
has "^  pipelined-b2 " "a pipelined-b2 row"
has "timeline: $dir/t.svg" "the timeline is named"
"$py" - "$dir/t.svg" <<'PYEOF' || fail "SVG content"
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
lanes = {}
for g in root.iter("{http://www.w3.org/2000/svg}g"):
    if g.get("class") == "lane":
        name = g.find("s:text", ns).text
        lanes[name] = [r for r in g.findall("s:rect", ns) if r.get("class") == "bar"]
bad = 0
def count(case, group, cls):
    return sum(1 for n, bars in lanes.items() if n.startswith(case + " " + group + " ")
               for b in bars if b.get("data-class") == str(cls))
jobs, parts = 3, 2
for case, batch in (("pipelined-b1", 1), ("sequential-b1", 1), ("pipelined-b2", 2)):
    for group in ("synth", "prover"):
        if not any(n.startswith(case + " " + group + " ") for n in lanes):
            print("no %s lane for %s" % (group, case)); bad += 1
    got = (count(case, "synth", 0), count(case, "queue", 1), count(case, "prover", 3))
    if got != (jobs * parts,) * 3:
        print(case, "synthesis/queue/verify bars", got); bad += 1
    calls = count(case, "prover", 2)
    want = parts * ((jobs + batch - 1) // batch)
    if calls != want:
        print(case, "prove bars", calls, "want", want); bad += 1
    for n, bars in lanes.items():  # bars in one lane never overlap
        if n.startswith(case):
            iv = sorted((float(b.get("data-start")), float(b.get("data-end"))) for b in bars)
            if any(a[1] > b[0] for a, b in zip(iv, iv[1:])):
                print("overlap in lane", n); bad += 1
legend = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "legend"]
if len(legend) != 4:
    print("legend entries", len(legend)); bad += 1
sys.exit(1 if bad else 0)
PYEOF
# FIL_PROOFS_PARAMETER_CACHE must not send the engine away from the bench's directory
check "the same with a CSV timeline, one case" 0 env FIL_PROOFS_PARAMETER_CACHE=/nonexistent \
    "$cuzk" bench engine "${args[@]}" --cases sequential-b1 --timeline "$dir/t.csv"
lines=$(grep -c '^sequential-b1,' "$dir/t.csv")
# per job: queue + srs load (job level), and per partition synthesis, wait, prove, verify
[ "$lines" -ge $((3 * 2 * 4)) ] || fail "CSV events: $lines"
grep -q "^  pipelined-b1 " "$dir/out" && fail "--cases ran a case not asked for"

# --inject-winning: a WinningPoSt (here the synthetic circuit submitted as one,
# CRITICAL) injected into the running stream waits at most for the partition
# being proven: wait <= the longest partition prove + 10% + 150 ms (a loaded
# 2-core machine).  Before the engine let CRITICAL work past the bounded
# queue it waited for the queued partitions too (about two).  One injection
# per case: a second one inside the first's proof would wait for it.
winning_bounded() { # every inject-winning line: wait <= bound * 1.1 + 150
    local n
    n=$(grep -c "^  inject-winning " "$dir/out")
    [ "$n" = "$1" ] || fail "$n inject-winning lines, expected $1"
    awk '/^  inject-winning / {
        match($0, /wait [0-9]+ ms/); w = substr($0, RSTART + 5, RLENGTH - 8) + 0
        match($0, /proves in <= [0-9]+ ms/); b = substr($0, RSTART + 13, RLENGTH - 16) + 0
        if (b <= 0 || w > b * 1.1 + 150) { print "wait " w " ms over one partition (" b " ms): " $0; bad = 1 }
    } END { exit bad }' "$dir/out" || fail "a WinningPoSt waited longer than one partition"
}
check "a WinningPoSt injected at 300 ms" 0 "$cuzk" bench engine --jobs 2 --partitions 3 \
    --constraints 2048 --work 1000 --threads 2 --cases pipelined-b1,sequential-b1 \
    --inject-winning 300
has "^  inject-winning pipelined-b1 +at 300 ms: queue [0-9]+ ms, start [0-9]+ ms, wait [0-9]+ ms, prove [0-9]+ ms, total [0-9]+ ms; behind " "an injection line"
winning_bounded 2
has "^  injected WinningPoSt pipelined-b1 +1 proved, 0 failed: total p50 [0-9]+ ms, p99 [0-9]+ ms, max [0-9]+ ms$" \
    "the injections' percentiles"
check "a gpus.memory_limit below a partition's least need: refused, named" 1 "$cuzk" bench engine \
    --jobs 1 --partitions 2 --devices 1 --gpu-memory-limit 0.001 --cases pipelined-b1
check "  the message names the limit and the need" 0 grep -q \
    "gpus.memory_limit: a porep-c2 partition (bench-16384) needs at least .* MiB of device memory" \
    "$dir/last"
check "  a limit above it proves" 0 "$cuzk" bench engine --jobs 1 --partitions 2 --devices 1 \
    --gpu-memory-limit 1 --cases pipelined-b1
check "--gpu-memory-limit 0" 2 "$cuzk" bench engine "${args[@]}" --gpu-memory-limit 0
check "--inject-winning out of order" 2 "$cuzk" bench engine "${args[@]}" --inject-winning 500,100
has "ascending" "out of order message"
check "--winning-vanilla without --winning-randomness" 2 "$cuzk" bench engine "${args[@]}" \
    --inject-winning 100 --winning-vanilla /dev/null
has "go together" "vanilla without randomness message"

check "a timeline name without .svg/.csv" 2 "$cuzk" bench engine "${args[@]}" \
    --timeline "$dir/t.png"
has "must end in .svg" "timeline name message"
check "an unknown case" 2 "$cuzk" bench engine "${args[@]}" --cases fastest
has 'unknown case "fastest"' "unknown case message"
check "an unknown workload" 2 "$cuzk" bench engine --workload porep-64g
has 'unknown workload "porep-64g"' "unknown workload message"
check "synthetic options with porep-2k" 2 "$cuzk" bench engine --workload porep-2k \
    --constraints 100
check "porep-2k without parameters" 1 env -u FIL_PROOFS_PARAMETER_CACHE "$cuzk" bench engine \
    --workload porep-2k --params-dir "$dir/none"
has 'no StackedDrg2KiBV1_1 parameters: .*cuzk setup porep-2k --out DIR' "missing params message"

# --workload mixed refuses, before any work: an unknown kind in --mix, a ratio
# of all zeros, and a kind without inputs at a size where none are made here.
check "mixed: an unknown kind" 2 "$cuzk" bench engine --workload mixed \
    --mix porep:1,proof:2 --params-dir "$dir"
has '--mix: unknown kind "proof" \(porep, snap, window, winning\)' "unknown kind message"
check "mixed: a ratio of all zeros" 2 "$cuzk" bench engine --workload mixed \
    --mix porep:0,winning:0 --params-dir "$dir"
has 'every kind is 0; nothing to prove' "all zeros message"
check "mixed: 32 GiB without a C1" 2 "$cuzk" bench engine --workload mixed \
    --sector-size 32GiB --mix porep:1,winning:0 --params-dir "$dir"
has '--mix porep:N at a sector size other than 2 KiB needs --c1 FILE' "missing input message"
check "mixed: a WinningPoSt file without its randomness" 2 "$cuzk" bench engine \
    --workload mixed --mix winning:1 --winning-vanilla /dev/null --params-dir "$dir"
has 'go together' "vanilla without randomness message"

[ "$fails" = 0 ] && echo "cli_bench_engine: all passed" || echo "cli_bench_engine: $fails failed"
exit $((fails > 0))
