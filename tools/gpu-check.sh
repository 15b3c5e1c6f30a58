#!/usr/bin/env bash
# One call on the GPU machine (the device tool): build for sm_90 there (a
# few minutes on its 16 cores; the carried static jansson and libcrypto,
# .device/jansson and .device/crypto, are made by tools/gpu-prepare.sh), run
# the self-test (it reports the GPUs the CUDA runtime sees), the CPU test suite
# and the field/curve benchmarks.  Logs go to $OUT.
#   tools/gpu-check.sh porep: PoRep C2 2 KiB proved by the CPU and CUDA backends
#   with the same r, s: byte-identical and verified.
#   tools/gpu-check.sh porep engine: + the engine with the GPU backend (bench
#   engine, CPU vs CUDA), bench ab on the staging threads, GPU checks at 2^12.
#   tools/gpu-check.sh pieces: porep-2k proved on the GPU with every large MSM
#   in pieces (byte-identical to uncut, verified), cuzk_gpu_check at 2^12
#   (pieced MSMs against the CPU's), gpus.memory_limit refusing / admitting.
#   tools/gpu-check.sh porep512: PoRep C2 512 MiB, CPU vs CUDA, byte-identical
#   and verified, then warm CUDA proofs with the per-phase breakdown.
#   tools/gpu-check.sh snap [2k|8m]: SnapDeals (cuzk seal + seal update),
#   TEST-ONLY setup snap-SIZE, CPU and CUDA proofs with the same r, s
#   byte-identical and verified (8m: 4 partitions of 10 M constraints).
#   tools/gpu-check.sh abc [32g]: a/b/c on the device (issue #30): cuzk_gpu_check_abc,
#   then PoRep 2 KiB and 512 MiB proved by the CPU and by CUDA with gpu_abc on
#   and off (same r, s: byte-identical, verified), `cuzk pce gpu` timings at
#   512 MiB (and porep-32g with the 32g argument: recorded here first).
#   tools/gpu-check.sh ab: bench_cuda of an older commit (.device/old, made by
#   tools/gpu-prepare.sh --old REV) against this tree's, in one call.
#   tools/gpu-check.sh setup [2k|512m|32g]: TEST-ONLY setup on the GPU.  2k
#   (default): cuzk_gpu_setup_check (each GPU step and whole setups of a
#   random circuit and porep-2k against the CPU's), then `cuzk setup porep-2k`
#   with --backend cpu and cuda from one --seed: cmp of .params and .vk.
#   512m: the same cmp at porep-512m.  32g: porep-32g on the GPU alone, timed,
#   into $CUZK_SETUP_DIR (default /tmp/setup-gpu, removed afterwards unless
#   CUZK_SETUP_KEEP=1): times and bytes.
#   tools/gpu-check.sh cuda [MSM_LOG NTT_LOG]: only the CUDA backend: build
#   cuzk, cuzk_gpu_check and bench_cuda, check GPU against CPU, then time the
#   GPU MSMs, NTTs, H step and whole proofs (CPU and GPU backends).
set -uo pipefail
out="${OUT:-/tmp/cuzk-out}"
mkdir -p "$out"
export PATH="$PATH:/usr/local/cuda/bin"
{
    echo "== machine"; nproc; lscpu | grep -E "Model name|Flags" | cut -c1-200
    nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
    nvcc --version | tail -1
} >"$out/machine.txt" 2>&1
# Binaries built on the development machine by `tools/gpu-prepare.sh --build
# [NAME...]` (carried as .device/carry/bin.tgz: an older build to compare
# with, say) are used when present; otherwise gpu_build builds the named
# targets here into build-gpu, timed (build_time.txt), with the CUDA flags
# ptxas -v (registers and spills into build.txt) and $CUZK_GPU_CUDA_FLAGS
# (--time=FILE, say).
prebuilt() {
    if [ -f .device/carry/bin.tgz ]; then # fresh each call: a warm machine keeps old files
        rm -rf .device/bin && tar xzf .device/carry/bin.tgz -C .device || return 1
    fi
    local b
    for b in "$@"; do [ -x ".device/bin/$b" ] || return 1; done
    mkdir -p build-gpu && for b in "$@"; do cp ".device/bin/$b" build-gpu/ || return 1; done
    cp .device/bin/ptxas.txt "$out/build.txt" 2>/dev/null
    echo "using $* from .device/bin"
}
gpu_build() {
    prebuilt "$@" && return 0
    local t0=$SECONDS
    cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DCMAKE_CUDA_FLAGS="-Xptxas=-v ${CUZK_GPU_CUDA_FLAGS:-}" -DCUZK_WERROR=OFF -DCUZK_DAEMON=OFF \
        -DCUZK_JANSSON_ROOT="$PWD/.device/jansson" -DCUZK_CRYPTO_ROOT="$PWD/.device/crypto" \
        >"$out/build.txt" 2>&1 &&
        cmake --build build-gpu -j"$(nproc)" --target "$@" >>"$out/build.txt" 2>&1 ||
        { grep -E "error" "$out/build.txt" | head -30; tail -30 "$out/build.txt"; return 1; }
    echo "build of $* on $(nproc) cores: $((SECONDS - t0)) s (warnings not errors: the device's gcc warns where CI's does not)" |
        tee -a "$out/build_time.txt"
}
if [ "${1:-}" = pieces ]; then
    # MSMs in pieces: a porep-2k CUDA proof with every large MSM cut up
    # (gpu_msm_piece=4096) byte-identical to the uncut one (same r, s) and
    # verified; cuzk_gpu_check's pieced G1/G2 MSMs against the CPU's;
    # gpus.memory_limit below a partition's need refused at submit, above it proving.
    gpu_build cuzk cuzk_gpu_check || exit 1
    c=build-gpu/cuzk d=/tmp/pieces-gpu
    mkdir -p $d
    $c seal --sector-size 2KiB --registered-proof StackedDrg2KiBV1_1 --random 7 --miner-id 1000 \
        --sector-number 1 --ticket "$(printf '%062d00' 1)" --seed "$(printf '%062d00' 2)" \
        --out $d/s >$out/seal.txt 2>&1 || { tail $out/seal.txt; exit 1; }
    $c setup porep-2k --out $d/p --backend cuda >$out/setup.txt 2>&1 || { tail $out/setup.txt; exit 1; }
    for piece in 0 4096; do
        CUZK_GPU_MSM_PIECE=$piece CUZK_TIMING=1 $c prove porep --c1 $d/s/c1.json --params-dir $d/p \
            --backend cuda --rs-seed 0badc0de --out $d/p$piece.bin >$out/prove_p$piece.txt 2>&1
        echo "gpu_msm_piece=$piece: rc $?; $(grep -oE "[0-9]+ MSM pieces" $out/prove_p$piece.txt | head -1)"
    done
    cmp $d/p0.bin $d/p4096.bin && echo "porep-2k: MSMs in pieces of 4096: proof byte-identical"
    $c verify porep --c1 $d/s/c1.json --params-dir $d/p --proof $d/p4096.bin | tail -1
    timeout 100 build-gpu/cuzk_gpu_check 12 12 >$out/gpu_check_pieces.txt 2>&1
    echo "cuzk_gpu_check 12 12: rc $?"
    grep -E "[0-9]+ pieces|MISMATCH|passed" $out/gpu_check_pieces.txt | grep -vE " 1 pieces" | head -16
    for lim in 0.001 2; do
        timeout 60 $c bench engine --workload porep-2k --c1 $d/s/c1.json --params-dir $d/p --jobs 1 \
            --backend cuda --devices 1 --gpu-memory-limit $lim --cases pipelined-b1 \
            >$out/engine_limit_$lim.txt 2>&1
        echo "bench engine --gpu-memory-limit $lim GiB: rc $? (0.001: 1, refused; 2: 0)"
        grep -m1 -E "memory_limit" $out/engine_limit_$lim.txt
    done
    exit 0
fi
if [ "${1:-}" = porep ]; then
    # PoRep C2 2 KiB on the GPU: seal, TEST-ONLY setup, prove with the CPU and
    # the CUDA backends with the same fixed r, s (--rs-seed): the proofs must be
    # byte-identical and verify; then fresh-randomness GPU proofs verify too.
    gpu_build cuzk cuzk_gpu_check || exit 1
    c=build-gpu/cuzk d=/tmp/porep-gpu
    mkdir -p $d
    t=$(date +%s)
    # miner 1000, sector 1: what `bench engine --c1 FILE` submits with (below)
    $c seal --sector-size 2KiB --registered-proof StackedDrg2KiBV1_1 --random 7 --miner-id 1000 \
        --sector-number 1 --ticket "$(printf '%062d00' 1)" --seed "$(printf '%062d00' 2)" \
        --out $d/s >$out/seal.txt 2>&1 || { tail $out/seal.txt; exit 1; }
    [ -s $d/p/done ] || { $c setup porep-2k --out $d/p >$out/setup.txt 2>&1 && touch $d/p/done; } ||
        { tail $out/setup.txt; exit 1; }
    echo "seal + setup: $(($(date +%s) - t)) s"
    CUZK_TIMING=1 $c prove porep --c1 $d/s/c1.json --params-dir $d/p --backend cpu \
        --rs-seed 0badc0de --out $d/cpu.bin 2>&1 | tee $out/prove_cpu.txt |
        grep -E "partition|total|prove |error|failed"
    # the CUDA proof byte-identical to the CPU backend's
    CUZK_TIMING=1 $c prove porep --c1 $d/s/c1.json --params-dir $d/p --backend cuda \
        --rs-seed 0badc0de --out $d/cuda.bin 2>&1 | tee $out/prove_cuda.txt |
        grep -E "partition|total|prove |device|error|failed"
    cmp $d/cpu.bin $d/cuda.bin && echo "porep-2k: CPU and CUDA proofs byte-identical (fixed r, s)"
    $c verify porep --c1 $d/s/c1.json --params-dir $d/p --proof $d/cuda.bin | tail -1
    for i in 1 2; do
        CUZK_TIMING=1 $c prove porep --c1 $d/s/c1.json --params-dir $d/p --backend cuda \
            --out $d/fresh.bin 2>&1 | tee $out/prove_fresh$i.txt | grep -E "total|prove |error"
    done
    $c verify porep --c1 $d/s/c1.json --params-dir $d/p --proof $d/fresh.bin | tail -1
    [ "${2:-}" = engine ] || exit 0
    # the engine with the GPU backend: PoRep C2 jobs end to end, pipelined vs
    # sequential vs batch 2, against the CPU backend; the switch A/B runner on
    # the staging threads; the GPU checks at small sizes (resident sets included)
    for be in cuda cpu; do
        [ $be = cuda ] && n=8 || n=3
        timeout 200 $c bench engine --workload porep-2k --c1 $d/s/c1.json --params-dir $d/p \
            --jobs $n --threads "$(nproc)" --backend $be --timeline $out/engine_$be.svg 2>&1 |
            tee $out/engine_$be.txt | grep -vE "^\s*$" | tail -9
    done
    timeout 120 $c bench ab --workload porep-2k --c1 $d/s/c1.json --params-dir $d/p \
        --backend cuda --a gpu_stage_threads=8 --b gpu_stage_threads=1 --runs 4 2>&1 |
        tee $out/ab_upload.txt | tail -22
    timeout 120 build-gpu/cuzk_gpu_check 12 12 >$out/gpu_check_small.txt 2>&1
    grep -E "MISMATCH|DIFFERENT|resident|passed" $out/gpu_check_small.txt
    exit 0
fi
if [ "${1:-}" = snap ]; then
    # SnapDeals on the GPU: a CC sector, its update, TEST-ONLY setup, then the
    # CPU and CUDA backends with the same fixed r, s must give byte-identical
    # proofs that verify.
    gpu_build cuzk || exit 1
    sz=${2:-2k}
    case $sz in 2k) size=2KiB sp=5 ;; 8m) size=8MiB sp=6 ;; *) echo "snap: 2k or 8m"; exit 2 ;; esac
    c=build-gpu/cuzk d=/tmp/snap-$sz
    mkdir -p $d
    t=$(date +%s)
    { [ -f $d/u/snap.json ] || { $c seal --sector-size $size --registered-proof $sp --zeros \
        --miner-id 1234 --sector-number 3 --ticket "$(printf '%062d00' 1)" \
        --seed "$(printf '%062d00' 2)" --out $d/cc && $c seal update --sector $d/cc --out $d/u \
        --random 7; }; } >$out/snap_seal.txt 2>&1 || { tail $out/snap_seal.txt; exit 1; }
    [ -s $d/p/done ] || { timeout 400 $c setup snap-$sz --out $d/p >$out/snap_setup.txt 2>&1 &&
        touch $d/p/done; } || { tail $out/snap_setup.txt; exit 1; }
    echo "snap-$sz: seal, update and setup in $(($(date +%s) - t)) s"
    for be in cpu cuda; do
        CUZK_TIMING=1 timeout 300 $c prove snap --snap-json $d/u/snap.json --params-dir $d/p \
            --backend $be --rs-seed 0badc0de --out $d/$be.bin 2>&1 | tee $out/snap_prove_$be.txt |
            grep -E "^prove snap" | tail -3
    done
    cmp $d/cpu.bin $d/cuda.bin && echo "snap-$sz: CPU and CUDA proofs byte-identical (fixed r, s)"
    $c verify snap --snap-json $d/u/snap.json --params-dir $d/p --proof $d/cuda.bin | tail -1
    exit 0
fi
if [ "${1:-}" = porep512 ]; then
    # PoRep C2 512 MiB (4.4 M constraints, domain 2^23) on the prebuilt
    # binaries: the C1 carried as .device/carry/c1-512m.json (sealed on the
    # development machine, `cuzk seal --sector-size 512MiB`) or sealed here;
    # TEST-ONLY setup; CPU and CUDA proofs with the same r, s byte-identical and
    # verified; then warm CUDA proofs (bench ab: the MSM reduction in levels, the
    # default, against one kernel).
    gpu_build cuzk || exit 1
    c=build-gpu/cuzk d=/tmp/porep512 c1=.device/carry/c1-512m.json
    mkdir -p $d
    if [ ! -f $c1 ]; then
        c1=$d/s/c1.json
        [ -f $c1 ] || timeout 400 $c seal --sector-size 512MiB --registered-proof StackedDrg512MiBV1_1 \
            --random 7 --miner-id 1234 --sector-number 3 --ticket "$(printf '%062d00' 1)" \
            --seed "$(printf '%062d00' 2)" --threads "$(nproc)" --out $d/s >$out/seal512.txt 2>&1 ||
            { tail $out/seal512.txt; exit 1; }
    fi
    t=$(date +%s)
    [ -s $d/p/done ] || { timeout 300 $c setup porep-512m --out $d/p >$out/setup512.txt 2>&1 &&
        touch $d/p/done; } || { tail $out/setup512.txt; exit 1; }
    echo "setup: $(($(date +%s) - t)) s"
    for be in cpu cuda; do
        CUZK_TIMING=1 timeout 150 $c prove porep --c1 $c1 --params-dir $d/p --backend $be \
            --rs-seed 0badc0de --out $d/$be.bin 2>&1 | tee $out/prove512_$be.txt |
            grep -E "partition|total|prove |device|error|failed"
    done
    cmp $d/cpu.bin $d/cuda.bin && echo "porep-512m: CPU and CUDA proofs byte-identical (fixed r, s)"
    $c verify porep --c1 $c1 --params-dir $d/p --proof $d/cuda.bin | tail -1
    timeout 200 $c bench ab --workload porep-512m --c1 $c1 --params-dir $d/p --backend cuda \
        --a "" --b gpu_msm_red_levels=0 --runs 3 2>&1 | tee $out/ab512.txt | tail -26
    exit 0
fi
if [ "${1:-}" = abc ]; then
    gpu_build cuzk cuzk_gpu_check_abc || exit 1
    c=build-gpu/cuzk
    timeout 150 build-gpu/cuzk_gpu_check_abc 2>&1 | tee $out/gpu_check_abc.txt |
        grep -E "gpu abc|gpu prove|passed|failed|DIFFERENT"
    for sz in 2k 512m; do
        d=/tmp/abc-$sz; mkdir -p $d
        case $sz in 2k) size=2KiB rp=StackedDrg2KiBV1_1 ;; 512m) size=512MiB rp=StackedDrg512MiBV1_1 ;; esac
        t=$(date +%s)
        { [ -f $d/s/c1.json ] || timeout 300 $c seal --sector-size $size --registered-proof $rp \
            --random 7 --miner-id 1234 --sector-number 3 --ticket "$(printf '%062d00' 1)" \
            --seed "$(printf '%062d00' 2)" --threads "$(nproc)" --out $d/s; } >$out/abc_seal_$sz.txt 2>&1 ||
            { tail $out/abc_seal_$sz.txt; exit 1; }
        [ -s $d/p/done ] || { timeout 300 $c setup porep-$sz --out $d/p >$out/abc_setup_$sz.txt 2>&1 &&
            touch $d/p/done; } || { tail $out/abc_setup_$sz.txt; exit 1; }
        echo "porep-$sz: seal + setup $(($(date +%s) - t)) s"
        for v in cpu abc1 abc0 abc1; do
            be=cuda; [ $v = cpu ] && be=cpu
            CUZK_GPU_ABC=${v#abc} CUZK_TIMING=1 timeout 200 $c prove porep --c1 $d/s/c1.json \
                --params-dir $d/p --backend $be --rs-seed 0badc0de --out $d/$v.bin 2>&1 |
                tee $out/abc_prove_${sz}_$v.txt | grep -E "deferred|proof 0: total|^prove|rror" | tail -4
        done
        cmp $d/cpu.bin $d/abc1.bin && cmp $d/cpu.bin $d/abc0.bin &&
            echo "porep-$sz: CPU, CUDA gpu_abc=1 and gpu_abc=0 proofs byte-identical (fixed r, s)"
        $c verify porep --c1 $d/s/c1.json --params-dir $d/p --proof $d/abc1.bin | tail -1
    done
    f=$(ls /tmp/abc-512m/p/*.pce | head -1)
    timeout 120 $c pce gpu $f --circuit porep-512m --reps 3 2>&1 | tee $out/pce_gpu_512m.txt
    [ "${2:-}" = 32g ] || exit 0
    mkdir -p /tmp/pce
    [ -f /tmp/pce/done ] || { timeout 200 $c pce build porep-32g --dir /tmp/pce --threads "$(nproc)" \
        >$out/pce_build_32g.txt 2>&1 && touch /tmp/pce/done; } || { tail $out/pce_build_32g.txt; exit 1; }
    f=$(ls /tmp/pce/*.pce | head -1)
    timeout 200 $c pce gpu $f --circuit porep-32g --reps 3 2>&1 |
        tee $out/pce_gpu_32g.txt
    exit 0
fi
if [ "${1:-}" = ab ]; then
    # bench_cuda before and after in one call: the carried .device/old
    # (tools/gpu-prepare.sh --old REV) against this tree's build, alternating
    # rounds, medians of 5: G2 2^24, G1 2^26, NTT 2^27, the H step 2^27.
    gpu_build bench_cuda || exit 1
    gunzip -kf .device/old/bench_cuda.gz && chmod +x .device/old/bench_cuda || exit 1
    for round in 1 2; do
        for side in "before $(cat .device/old/REV 2>/dev/null)" after; do
            b=.device/old/bench_cuda
            [ "$side" = after ] && b=build-gpu/bench_cuda
            echo "== $side, round $round"
            BENCH_REPS=5 timeout 60 $b msm 24 24 random g2 2>&1 | grep -E "^bench_cuda msm"
            BENCH_REPS=5 timeout 90 $b msm 26 26 random 2>&1 | grep -E "^bench_cuda msm"
            BENCH_REPS=5 timeout 90 $b ntt 27 27 2>&1 | grep -E "^bench_cuda ntt"
            BENCH_REPS=5 timeout 60 $b h 27 2>&1 | grep -E "^bench_cuda H"
        done
    done 2>&1 | tee "$out/ab.txt"
    exit 0
fi
if [ "${1:-}" = setup ]; then
    gpu_build cuzk cuzk_gpu_setup_check || exit 1
    c=build-gpu/cuzk d=${CUZK_SETUP_DIR:-/tmp/setup-gpu}
    size=${2:-2k}
    if [ "$size" = 2k ]; then
        timeout 240 build-gpu/cuzk_gpu_setup_check >$out/setup_check.txt 2>&1
        echo "cuzk_gpu_setup_check: rc $? ($(tail -1 $out/setup_check.txt))"
        grep -E "setup [0-9.]+ s" $out/setup_check.txt
    fi
    if [ "$size" = 2k ] || [ "$size" = 512m ]; then
        rm -rf $d && mkdir -p $d
        for b in cpu cuda; do
            t=$SECONDS
            timeout 200 $c setup porep-$size --out $d/$b --seed 5eed --backend $b >$out/setup_${size}_$b.txt 2>&1 ||
                { tail -5 $out/setup_${size}_$b.txt; exit 1; }
            echo "setup porep-$size --backend $b: $((SECONDS - t)) s"
            grep -E "time:|bytes" $out/setup_${size}_$b.txt
        done
        same=1
        for f in $d/cpu/*.params $d/cpu/*.vk; do
            cmp "$f" "$d/cuda/$(basename "$f")" || same=0
        done
        [ $same = 1 ] && echo "porep-$size: CPU and GPU setups byte-identical (.params, .vk)" ||
            echo "porep-$size: CPU and GPU setups DIFFER"
        rm -rf $d
    fi
    if [ "$size" = 32g ]; then
        rm -rf $d && mkdir -p $d && df -h $d | tail -1
        tv=""
        [ -x /usr/bin/time ] && tv="/usr/bin/time -v"
        t=$SECONDS
        timeout 540 $tv $c setup porep-32g --out $d --backend cuda >$out/setup_32g.txt 2>&1
        echo "setup porep-32g --backend cuda: rc $?, $((SECONDS - t)) s"
        grep -E "setup porep|time:|bytes|Maximum resident|Elapsed|error" $out/setup_32g.txt
        ls -l $d
        [ "${CUZK_SETUP_KEEP:-0}" = 1 ] || rm -rf $d
    fi
    exit 0
fi
if [ "${1:-}" = cuda ]; then
    export PATH="$PATH:/usr/local/cuda/bin"
    nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm --format=csv >"$out/machine.txt" 2>&1
    gpu_build cuzk cuzk_gpu_check bench_cuda || exit 1
    grep -E "registers|spill" "$out/build.txt" | grep -B1 -E "[1-9][0-9]* bytes spill" | head -20
    timeout 200 build-gpu/cuzk_gpu_check "${2:-20}" "${3:-24}" ${4:-} 2>&1 | tee "$out/gpu_check.txt" |
        grep -E "MISMATCH|DIFFERENT|failed|passed|prove|H step|ntt 2\^2[0-9]|n=1048576|g2 n=16384"
    if ! grep -q " 0 failed" "$out/gpu_check.txt" && command -v compute-sanitizer >/dev/null; then
        timeout 90 compute-sanitizer --print-limit 5 build-gpu/cuzk_gpu_check 10 4 noprove 2>&1 |
            tee "$out/sanitizer.txt" | grep -v "equal" | head -40
    fi
    [ -n "${CUZK_GPU_BENCH:-}" ] || exit 0
    timeout 60 build-gpu/bench_cuda field 2>&1 | tee "$out/bench_field.txt"
    timeout 240 build-gpu/bench_cuda msm 20 26 all 2>&1 | tee "$out/bench_msm.txt"
    timeout 120 build-gpu/bench_cuda ntt 20 27 2>&1 | tee "$out/bench_ntt.txt"
    timeout 60 build-gpu/bench_cuda h 27 2>&1 | tee "$out/bench_h.txt"
    timeout 60 build-gpu/bench_cuda msm 20 22 random g2 2>&1 | tee "$out/bench_msm_g2.txt"
    CUZK_TIMING=1 timeout 60 build-gpu/cuzk bench prove --circuit random:1048576:1 --reps 2 \
        --backend cuda 2>&1 | tee -a "$out/bench_prove.txt" | grep -E "cuzk timing|backend"
    exit 0
fi
gpu_build all || exit 1
build-gpu/cuzk selftest | tee "$out/selftest.txt"
# node and shared/ are not on that machine: the oracle and vector-file tests are left out
(cd build-gpu && ctest -j8 -E "fresh_seed|noble|cli_groth16|eip2537|shared_vectors|test_curve|zkey" \
    >"$out/ctest.txt" 2>&1)
grep -E "tests passed|Failed|Not Run" "$out/ctest.txt"
BENCH_REPS=5 build-gpu/bench_field_curve | tee "$out/bench_field_curve.txt"
BENCH_REPS=3 build-gpu/bench_msm g1 20 20 1,2,4,8,16 both | tee "$out/bench_msm.txt"
build-gpu/bench_ntt 22,24 1,4,16 2>&1 | tee "$out/bench_ntt.txt"
build-gpu/cuzk bench prove --circuit random:262144:1 --threads 16 --reps 2 2>&1 |
    tee "$out/bench_prove.txt"
cat "$out/machine.txt"
