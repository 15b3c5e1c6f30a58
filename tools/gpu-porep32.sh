#!/usr/bin/env bash
# Issue #29 on the GPU machine (`run` with carry .device, one call each):
#   tools/gpu-porep32.sh setup: the CUDA build and the parameters (with their
#     .pce) and C1 below, nothing more: the next call, made while the machine
#     is still warm, finds them and has its whole time for proving.
#   tools/gpu-porep32.sh prove:  CUDA build there, TEST-ONLY porep-32g parameters
#     made on the GPU, a valid 32 GiB C1 invented without sealing, the full
#     proof (10 partitions) on the GPU, verified; one byte flipped, refused.
#   tools/gpu-porep32.sh engine: the same parameters and C1, then `cuzk bench
#     engine --workload porep` (JOBS jobs, default 5; a list runs each, e.g.
#     JOBS="1 4": single-proof latency, then the steady state; on GPU 0 through the
#     per-device path, memory budget BUDGET GiB, default 48, timeline) with
#     peak RSS.
#   tools/gpu-porep32.sh wpost: TEST-ONLY wpost-32g parameters made on the GPU, a
#     valid WindowPoSt vanilla proof of an invented 32 GiB sector, the proof
#     (one partition of 2349 sectors, classic synthesis: no room on the disk
#     for its .pce) on the GPU, verified; a flipped byte, refused.
#   tools/gpu-porep32.sh porep64: TEST-ONLY porep-64g parameters made on the GPU, a
#     valid 64 GiB C1, the proof on the GPU (its .pce recorded on the way), verified.
#   tools/gpu-porep32.sh winning: issue #43 item 3 -- the porep-32g set and C1 as
#     above, TEST-ONLY winning-32g parameters made on the GPU beside them, a valid
#     WinningPoSt vanilla proof of an invented 32 GiB sector, then `bench engine
#     --workload porep` (JOBS, default 8) with 20 WinningPoSt injected 3.5 s apart
#     from 4 s on: each injection's submit-to-proof time, their p50/p99, and
#     what each waited behind (every proof self-verified by the engine).
#   tools/gpu-porep32.sh mixed: the sets and inputs of `winning` (made if missing),
#     then `bench engine --workload mixed` over them (MIX, default
#     porep:1,snap:0,window:0,winning:2; JOBS, default 30; INTERVAL ms between
#     submits, default 4000: 20 WinningPoSt arriving among 10 PoRep, a stream
#     the GPU keeps up with): per-kind latency p50/p99, proofs/hour, GPU busy,
#     peak RSS, and what each WinningPoSt waited behind.
# The 47 GB parameter file lives in /tmp/p32 (w32, p64) only while the machine
# stays warm; the disk holds one such set at a time.
O=${OUT:-/tmp/cuzk-out}; mkdir -p $O
export PATH="$PATH:/usr/local/cuda/bin"
t=$SECONDS
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_CUDA_FLAGS="-Xptxas=-v ${CUZK_GPU_CUDA_FLAGS:-}" -DCUZK_WERROR=OFF -DCUZK_DAEMON=OFF -DCUZK_JANSSON_ROOT="$PWD/.device/jansson" \
    -DCUZK_CRYPTO_ROOT="$PWD/.device/crypto" >$O/build.txt 2>&1 &&
    cmake --build build-gpu -j"$(nproc)" --target cuzk >>$O/build.txt 2>&1 || { tail -20 $O/build.txt; exit 1; }
echo "build $((SECONDS - t)) s"
c=build-gpu/cuzk d=/tmp/p32
# bounded SECS OUTFILE CMD...: CMD with its output in OUTFILE; past SECS, every
# thread's stack (gdb, else the kernel's wait channels) goes to $O/hang.txt
# before it is killed (rc 124), so that a hang says where it waits
bounded() {
    local secs=$1 out=$2 end pid p
    shift 2
    end=$((SECONDS + secs))
    "$@" >"$out" 2>&1 &
    pid=$!
    while kill -0 $pid 2>/dev/null; do
        if [ $SECONDS -ge $end ]; then
            p=$(pgrep -P $pid | head -1); p=${p:-$pid}
            if command -v gdb >/dev/null; then
                gdb -p "$p" -batch -ex "thread apply all bt" >$O/hang.txt 2>&1
            else
                for t in /proc/$p/task/*; do echo "$t $(cat $t/comm) $(cat $t/wchan)"; done >$O/hang.txt
            fi
            kill -9 $p $pid 2>/dev/null; wait $pid 2>/dev/null
            echo "timed out after $secs s: stacks in hang.txt"; return 124
        fi
        sleep 1
    done
    wait $pid
}
# a copy of proof $1 with the byte at offset $2 flipped, into $3
flip() {
    cp "$1" "$3"
    local b; b=$(od -An -tu1 -j "$2" -N1 "$3" | tr -d ' ')
    printf "$(printf '\\%03o' $((b ^ 1)))" | dd of="$3" bs=1 seek="$2" conv=notrunc status=none
}
if [ "${1:-prove}" = wpost ]; then # one set on the disk at a time
    rm -rf $d /tmp/p64 && d=/tmp/w32 && rm -rf $d && mkdir -p $d
    t=$SECONDS
    df -h /tmp | tail -1
    # no .pce: beside the 60.8 GB parameters the disk has no room for it
    timeout 300 $c setup wpost-32g --out $d --backend cuda >$O/setup_w32.txt 2>&1 ||
        { tail -5 $O/setup_w32.txt; exit 1; }
    echo "setup wpost-32g --backend cuda: $((SECONDS - t)) s"
    grep -E "time:|pce|bytes" $O/setup_w32.txt
    R=$(printf '21%.0s' $(seq 32))
    $c c1 synth --valid --proof StackedDrg32GiBV1_1 --miner 1000 --sector 9 --out $d/c1.json \
        --post-proof 13 --randomness $R --post-out $d/w.bin 2>&1 | tail -2
    t=$SECONDS
    CUZK_PCE=0 CUZK_TIMING=1 timeout $((${LIMIT:-580} - SECONDS)) $c prove post --registered-proof 13 --vanilla $d/w.bin \
        --randomness $R --miner-id 1000 --params-dir $d --backend cuda --out $d/proof.bin \
        >$O/prove_w32.txt 2>&1
    echo "prove post window-32g --backend cuda: rc $?, $((SECONDS - t)) s"
    grep -E "^prove|pce|proof 0: total|rror" $O/prove_w32.txt | tail -12
    v() { timeout 60 $c verify post --registered-proof 13 --vanilla $d/w.bin --randomness $R \
        --params-dir $d --proof "$1" >$O/verify_w32.txt 2>&1; r=$?; tail -1 $O/verify_w32.txt; }
    [ -s $d/proof.bin ] && { v $d/proof.bin; echo "verify: rc $r"; flip $d/proof.bin 40 $d/flip.bin;
        v $d/flip.bin; echo "verify of the flipped proof: rc $r (must not be 0)"; }
    exit 0
fi
if [ "${1:-prove}" = porep64 ]; then
    rm -rf $d /tmp/w32 && d=/tmp/p64 && rm -rf $d && mkdir -p $d
    t=$SECONDS
    timeout 300 $c setup porep-64g --out $d --backend cuda >$O/setup_64g.txt 2>&1 ||
        { tail -5 $O/setup_64g.txt; exit 1; }
    echo "setup porep-64g --backend cuda: $((SECONDS - t)) s"
    grep -E "time:|bytes" $O/setup_64g.txt
    $c c1 synth --valid --proof StackedDrg64GiBV1_1 --out $d/c1.json 2>&1 | tail -1
    t=$SECONDS
    CUZK_TIMING=1 timeout $((${LIMIT:-580} - SECONDS)) $c prove porep --c1 $d/c1.json --params-dir $d \
        --backend cuda --out $d/proof.bin >$O/prove_64g.txt 2>&1
    echo "prove porep 64g --backend cuda: rc $?, $((SECONDS - t)) s"
    grep -E "^prove|pce|proof [0-9]: total|rror" $O/prove_64g.txt | tail -30
    [ -s $d/proof.bin ] &&
        timeout 60 $c verify porep --c1 $d/c1.json --params-dir $d --proof $d/proof.bin 2>&1 | tail -1
    exit 0
fi
if [ ! -f $d/done ]; then
    rm -rf $d && mkdir -p $d
    t=$SECONDS
    timeout 300 $c setup porep-32g --out $d --backend cuda --pce >$O/setup_32g.txt 2>&1 ||
        { tail -5 $O/setup_32g.txt; exit 1; }
    echo "setup porep-32g --backend cuda --pce: $((SECONDS - t)) s"
    grep -E "time:|pce" $O/setup_32g.txt
    timeout 30 $c c1 synth --valid --proof StackedDrg32GiBV1_1 --out $d/c1.json >$O/c1.txt 2>&1 ||
        { tail -3 $O/c1.txt; exit 1; }
    touch $d/done
fi
[ "${1:-prove}" = setup ] && { df -h /tmp | tail -1; exit 0; }
left=$((${LIMIT:-580} - SECONDS))
t=$SECONDS
if [ "${1:-prove}" = prove ]; then
    CUZK_TIMING=1 timeout $left $c prove porep --c1 $d/c1.json --params-dir $d --backend cuda \
        --out $d/proof.bin >$O/prove_32g.txt 2>&1
    echo "prove porep 32g --backend cuda: rc $?, $((SECONDS - t)) s"
    grep -E "^prove|deferred|proof [0-9]: total|rror" $O/prove_32g.txt | tail -30
    if [ -s $d/proof.bin ]; then
        timeout 60 $c verify porep --c1 $d/c1.json --params-dir $d --proof $d/proof.bin 2>&1 | tail -2
        # one byte of partition 3's proof flipped: must be refused
        flip $d/proof.bin 600 $d/flip.bin
        timeout 60 $c verify porep --c1 $d/c1.json --params-dir $d --proof $d/flip.bin \
            >$O/verify_flip.txt 2>&1
        r=$?; tail -2 $O/verify_flip.txt; echo "verify of the flipped proof: rc $r (must not be 0)"
    fi
elif [ "$1" = winning ] || [ "$1" = mixed ]; then
    R=$(printf '31%.0s' $(seq 32))
    if [ ! -s $d/win.bin ]; then
        timeout 120 $c setup winning-32g --out $d --backend cuda --pce >$O/setup_win32.txt 2>&1 ||
            { tail -5 $O/setup_win32.txt; exit 1; }
        echo "setup winning-32g --backend cuda --pce: $((SECONDS - t)) s"
        timeout 60 $c c1 synth --valid --proof StackedDrg32GiBV1_1 --miner 1000 --sector 77 \
            --out $d/c1w.json --post-proof 3 --randomness $R --post-out $d/win.bin 2>&1 | tail -1
    fi
fi
if [ "$1" = winning ]; then
    at=$(seq -s, 4000 3500 70500)
    left=$((${LIMIT:-580} - SECONDS)); t=$SECONDS
    bounded $((left - 15)) $O/engine_win32.txt $c bench engine --workload porep --c1 $d/c1.json --params-dir $d \
        --jobs "${JOBS:-8}" --threads "$(nproc)" --backend cuda --devices 1 \
        --memory-budget "${BUDGET:-64}" --cases pipelined-b1 --timeline $O/engine_win32.svg \
        --inject-winning "$at" --winning-vanilla $d/win.bin --winning-randomness $R
    echo "bench engine porep-32g + 20 WinningPoSt: rc $?, $((SECONDS - t)) s"
    grep -E "pipelined|first job|preloaded|device gpu|inject|WinningPoSt|peak host RSS|rror|bench engine:" \
        $O/engine_win32.txt | head -40
elif [ "$1" = mixed ]; then
    TM=""; [ -x /usr/bin/time ] && TM="/usr/bin/time -v"
    left=$((${LIMIT:-580} - SECONDS)); t=$SECONDS
    bounded $((left - 15)) $O/mixed32.txt $TM $c bench engine --workload mixed \
        --mix "${MIX:-porep:1,snap:0,window:0,winning:2}" --jobs "${JOBS:-30}" \
        --interval-ms "${INTERVAL:-4000}" --threads "$(nproc)" --backend cuda --params-dir $d \
        --c1 $d/c1.json --winning-vanilla $d/win.bin --winning-randomness $R
    echo "bench engine --workload mixed 32 GiB: rc $?, $((SECONDS - t)) s"
    grep -vE "^\s+(Page|Vol|Invol|Swap|File|Socket|Signal|Average|Exit|Minor|Major|Percent|System|User|Command)" \
        $O/mixed32.txt | tail -40
elif [ "${1:-prove}" = engine ]; then
    TM=""; [ -x /usr/bin/time ] && TM="/usr/bin/time -v"
    for n in ${JOBS:-5}; do
        left=$((${LIMIT:-580} - SECONDS)); t=$SECONDS
        [ $left -lt 30 ] && { echo "no time left for --jobs $n"; break; }
        timeout $left $TM $c bench engine --workload porep --c1 $d/c1.json --params-dir $d \
            --jobs "$n" --threads "$(nproc)" --backend cuda --devices 1 \
            --memory-budget "${BUDGET:-48}" --cases pipelined-b1 --timeline $O/engine_32g_$n.svg \
            >$O/engine_32g_$n.txt 2>&1
        echo "bench engine porep-32g --jobs $n: rc $?, $((SECONDS - t)) s"
        grep -E "pipelined|first job|preloaded|device gpu|backend:|parameters:|peak host RSS|Maximum resident|Elapsed|rror" \
            $O/engine_32g_$n.txt | head -30
    done
fi
