#!/usr/bin/env bash
# Issue #43 items 1 and 2 on the GPU machine (`run` with carry .device, one
# call each, back to back while the machine stays warm; the disk holds one
# 32 GiB set at a time, so each mode removes the others'):
#   tools/gpu-kinds32.sh snap: TEST-ONLY snap-32g parameters and their .pce made
#     on the GPU, valid update vanilla proofs of an invented 32 GiB sector
#     (`cuzk seal update --valid`: sparse trees, no sealing), checked natively,
#     the 16-partition proof through the engine on the GPU (PCE, a/b/c there),
#     verified, one flipped byte refused; then `bench engine --workload mixed
#     --mix snap:1` (SNAP_JOBS, default 3) for latency and s/proof.
#   tools/gpu-kinds32.sh window: TEST-ONLY wpost-32g parameters made on the GPU
#     (60.8 GB: no room for a .pce file beside them, so the engine records the
#     pce in memory: a directory stands where its lock file would be, which the
#     engine reads as "this folder takes no pce file"), a valid WindowPoSt
#     vanilla proof of an invented 32 GiB sector (one partition, 2349 sectors),
#     proved through the engine (`bench engine --workload mixed --mix window:1`,
#     WINDOW_JOBS, default 3: the first records the pce, the rest show the
#     steady state), every proof verified by the bench; `cuzk verify post` of
#     one proof written by `cuzk prove post` and of a flipped copy.
O=${OUT:-/tmp/cuzk-out}; mkdir -p $O
export PATH="$PATH:/usr/local/cuda/bin"
t=$SECONDS
if [ ! -x build-gpu/cuzk ]; then
    cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DCMAKE_CUDA_FLAGS="-Xptxas=-v ${CUZK_GPU_CUDA_FLAGS:-}" -DCUZK_WERROR=OFF -DCUZK_DAEMON=OFF -DCUZK_JANSSON_ROOT="$PWD/.device/jansson" \
        -DCUZK_CRYPTO_ROOT="$PWD/.device/crypto" >$O/build.txt 2>&1 &&
        cmake --build build-gpu -j"$(nproc)" --target cuzk >>$O/build.txt 2>&1 || { tail -20 $O/build.txt; exit 1; }
    echo "build $((SECONDS - t)) s"
fi
c=build-gpu/cuzk
TM=""; [ -x /usr/bin/time ] && TM="/usr/bin/time -v"
flip() { # a copy of proof $1 with the byte at offset $2 flipped, into $3
    cp "$1" "$3"
    local b; b=$(od -An -tu1 -j "$2" -N1 "$3" | tr -d ' ')
    printf "$(printf '\\%03o' $((b ^ 1)))" | dd of="$3" bs=1 seek="$2" conv=notrunc status=none
}
show() { grep -vE "^\s+(Page|Vol|Invol|Swap|File|Socket|Signal|Average|Exit|Minor|Major|Percent|System|User|Command)" "$1" | tail -"${2:-30}"; }
mode=${1:?usage: tools/gpu-kinds32.sh snap|window}
if [ "$mode" = snap ]; then
    d=/tmp/s32
    rm -rf /tmp/p32 /tmp/w32 /tmp/p64
    if [ ! -f $d/done ]; then
        rm -rf $d && mkdir -p $d
        t=$SECONDS
        timeout 300 $c setup snap-32g --out $d --backend cuda --pce >$O/setup_s32.txt 2>&1 ||
            { tail -5 $O/setup_s32.txt; exit 1; }
        echo "setup snap-32g --backend cuda --pce: $((SECONDS - t)) s"
        grep -E "time:|pce|bytes" $O/setup_s32.txt
        t=$SECONDS
        $TM timeout 120 $c seal update --valid --registered-proof StackedDrg32GiBV1 --seed 7 --out $d/u \
            >$O/invent_s32.txt 2>&1 || { show $O/invent_s32.txt; exit 1; }
        echo "seal update --valid 32 GiB: $((SECONDS - t)) s"
        grep -E "Maximum resident|Elapsed" $O/invent_s32.txt
        touch $d/done
    fi
    df -h /tmp | tail -1
    t=$SECONDS
    CUZK_TIMING=1 timeout 240 $c prove snap --snap-json $d/u/snap.json --params-dir $d --backend cuda \
        --out $d/proof.bin >$O/prove_s32.txt 2>&1
    echo "prove snap 32 GiB --backend cuda: rc $?, $((SECONDS - t)) s"
    grep -E "^prove|vanilla|pce|proof [0-9]+: total|rror" $O/prove_s32.txt | tail -24
    if [ -s $d/proof.bin ]; then
        timeout 60 $c verify snap --snap-json $d/u/snap.json --params-dir $d --proof $d/proof.bin 2>&1 | tail -1
        echo "verify: rc ${PIPESTATUS[0]}"
        flip $d/proof.bin 1000 $d/flip.bin
        timeout 60 $c verify snap --snap-json $d/u/snap.json --params-dir $d --proof $d/flip.bin \
            >$O/verify_flip_s32.txt 2>&1
        r=$?; tail -1 $O/verify_flip_s32.txt; echo "verify of the flipped proof: rc $r (must not be 0)"
    fi
    left=$((585 - SECONDS)); t=$SECONDS
    [ $left -lt 60 ] && { echo "no time left for the engine bench"; exit 0; }
    timeout $left $TM $c bench engine --workload mixed --mix porep:0,snap:1,window:0,winning:0 \
        --jobs "${SNAP_JOBS:-3}" --threads "$(nproc)" --backend cuda --params-dir $d \
        --snap-json $d/u/snap.json >$O/engine_s32.txt 2>&1
    echo "bench engine --mix snap:1 32 GiB: rc $?, $((SECONDS - t)) s"
    show $O/engine_s32.txt 30
    exit 0
fi
[ "$mode" = window ] || { echo "unknown mode $mode"; exit 2; }
d=/tmp/w32
rm -rf /tmp/p32 /tmp/s32 /tmp/p64
R=$(printf '21%.0s' $(seq 32))
if [ ! -f $d/done ]; then
    rm -rf $d && mkdir -p $d
    t=$SECONDS
    timeout 300 $c setup wpost-32g --out $d --backend cuda >$O/setup_w32.txt 2>&1 ||
        { tail -5 $O/setup_w32.txt; exit 1; }
    echo "setup wpost-32g --backend cuda: $((SECONDS - t)) s"
    grep -E "time:|bytes" $O/setup_w32.txt
    $c c1 synth --valid --proof StackedDrg32GiBV1_1 --miner 1000 --sector 9 --out $d/c1.json \
        --post-proof 13 --randomness $R --post-out $d/w.bin 2>&1 | tail -1
    for p in $d/*.params; do mkdir -p "${p%.params}.pce.lock"; done
    touch $d/done
fi
df -h /tmp | tail -1
left=$((585 - SECONDS)); t=$SECONDS
timeout $left $TM $c bench engine --workload mixed --mix porep:0,snap:0,window:1,winning:0 \
    --jobs "${WINDOW_JOBS:-3}" --threads "$(nproc)" --backend cuda --params-dir $d \
    --window-vanilla $d/w.bin --window-randomness $R >$O/engine_w32.txt 2>&1
echo "bench engine --mix window:1 32 GiB: rc $?, $((SECONDS - t)) s"
show $O/engine_w32.txt 30
left=$((585 - SECONDS)); t=$SECONDS
[ $left -lt 60 ] && { echo "no time left for prove post + verify"; exit 0; }
timeout $left $c prove post --registered-proof 13 --vanilla $d/w.bin --randomness $R --miner-id 1000 \
    --params-dir $d --backend cuda --out $d/proof.bin >$O/prove_w32.txt 2>&1
echo "prove post window-32g (engine, pce in memory): rc $?, $((SECONDS - t)) s"
grep -E "^prove|pce|rror" $O/prove_w32.txt | tail -8
v() { timeout 60 $c verify post --registered-proof 13 --vanilla $d/w.bin --randomness $R \
    --params-dir $d --proof "$1" >$O/verify_w32.txt 2>&1; r=$?; tail -1 $O/verify_w32.txt; }
[ -s $d/proof.bin ] && { v $d/proof.bin; echo "verify: rc $r"; flip $d/proof.bin 40 $d/flip.bin;
    v $d/flip.bin; echo "verify of the flipped proof: rc $r (must not be 0)"; }
exit 0
