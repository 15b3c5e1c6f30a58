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
# The 47 GB parameter file lives in /tmp/p32 only while the machine stays warm.
O=${OUT:-/tmp/cuzk-out}; mkdir -p $O
export PATH="$PATH:/usr/local/cuda/bin"
t=$SECONDS
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCUZK_WERROR=OFF -DCUZK_DAEMON=OFF -DCUZK_JANSSON_ROOT="$PWD/.device/jansson" \
    -DCUZK_CRYPTO_ROOT="$PWD/.device/crypto" >$O/build.txt 2>&1 &&
    cmake --build build-gpu -j"$(nproc)" --target cuzk >>$O/build.txt 2>&1 || { tail -20 $O/build.txt; exit 1; }
echo "build $((SECONDS - t)) s"
c=build-gpu/cuzk d=/tmp/p32
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
left=$((580 - SECONDS))
t=$SECONDS
if [ "${1:-prove}" = prove ]; then
    CUZK_TIMING=1 timeout $left $c prove porep --c1 $d/c1.json --params-dir $d --backend cuda \
        --out $d/proof.bin >$O/prove_32g.txt 2>&1
    echo "prove porep 32g --backend cuda: rc $?, $((SECONDS - t)) s"
    grep -E "^prove|deferred|proof [0-9]: total|rror" $O/prove_32g.txt | tail -30
    if [ -s $d/proof.bin ]; then
        timeout 60 $c verify porep --c1 $d/c1.json --params-dir $d --proof $d/proof.bin 2>&1 | tail -2
        # one byte of partition 3's proof flipped: must be refused
        cp $d/proof.bin $d/flip.bin
        b=$(od -An -tu1 -j 600 -N1 $d/flip.bin | tr -d ' ')
        printf "$(printf '\\%03o' $((b ^ 1)))" | dd of=$d/flip.bin bs=1 seek=600 conv=notrunc status=none
        timeout 60 $c verify porep --c1 $d/c1.json --params-dir $d --proof $d/flip.bin \
            >$O/verify_flip.txt 2>&1
        r=$?; tail -2 $O/verify_flip.txt; echo "verify of the flipped proof: rc $r (must not be 0)"
    fi
else
    TM=""; [ -x /usr/bin/time ] && TM="/usr/bin/time -v"
    for n in ${JOBS:-5}; do
        left=$((580 - SECONDS)); t=$SECONDS
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
