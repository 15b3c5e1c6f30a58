#!/usr/bin/env bash
# One call on the GPU machine (the device tool): build for sm_90 with the
# carried static jansson (.device/jansson, made by tools/gpu-prepare.sh), run
# the self-test (it reports the GPUs the CUDA runtime sees), the CPU test suite
# and the field/curve benchmarks.  Logs go to $OUT.
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
if [ "${1:-}" = cuda ]; then
    export PATH="$PATH:/usr/local/cuda/bin"
    nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm --format=csv >"$out/machine.txt" 2>&1
    t0=$(date +%s)
    cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DCMAKE_CUDA_FLAGS="-Xptxas=-v" -DCMAKE_C_FLAGS=-w \
        -DCUZK_JANSSON_ROOT="$PWD/.device/jansson" -DCUZK_CRYPTO_ROOT="$PWD/.device/crypto" >"$out/build.txt" 2>&1 &&
        cmake --build build-gpu -j"$(nproc)" --target cuzk cuzk_gpu_check bench_cuda >>"$out/build.txt" 2>&1 ||
        { grep -E "error" "$out/build.txt" | head -30; tail -30 "$out/build.txt"; exit 1; }
    echo "build: $(($(date +%s) - t0)) s (C warnings off: the device gcc warns where CI gcc does not)"
    grep -E "registers|spill" "$out/build.txt" | grep -B1 -E "[1-9][0-9]* bytes spill" | head -20
    timeout 200 build-gpu/cuzk_gpu_check "${2:-20}" "${3:-24}" ${4:-} 2>&1 | tee "$out/gpu_check.txt" |
        grep -E "MISMATCH|DIFFERENT|failed|passed|prove|H step|ntt 2\^2[0-9]|n=1048576|g2 n=16384"
    if ! grep -q " 0 failed" "$out/gpu_check.txt" && command -v compute-sanitizer >/dev/null; then
        timeout 90 compute-sanitizer --print-limit 5 build-gpu/cuzk_gpu_check 10 4 noprove 2>&1 |
            tee "$out/sanitizer.txt" | grep -v "equal" | head -40
    fi
    [ -n "${CUZK_GPU_BENCH:-}" ] || exit 0
    for be in cpu cuda; do
        CUZK_TIMING=1 timeout 90 build-gpu/cuzk bench prove --circuit random:1048576:1 --reps 2 \
            --backend $be 2>&1 | tee -a "$out/bench_prove.txt" | grep -E "cuzk timing|backend"
    done
    timeout 150 build-gpu/bench_cuda msm 20 26 both 2>&1 | tee "$out/bench_msm.txt"
    timeout 60 build-gpu/bench_cuda ntt 20 27 2>&1 | tee "$out/bench_ntt.txt"
    CUZK_NTT_RADIX=4 timeout 40 build-gpu/bench_cuda ntt 24 24 2>&1 | sed 's/^/radix-16 passes: /' |
        tee -a "$out/bench_ntt.txt"
    timeout 60 build-gpu/bench_cuda h 27 2>&1 | tee "$out/bench_h.txt"
    timeout 40 build-gpu/bench_cuda msm 16 18 random g2 2>&1 | tee "$out/bench_msm_g2.txt"
    exit 0
fi
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCUZK_JANSSON_ROOT="$PWD/.device/jansson" -DCUZK_CRYPTO_ROOT="$PWD/.device/crypto" >"$out/build.txt" 2>&1 &&
    cmake --build build-gpu -j"$(nproc)" >>"$out/build.txt" 2>&1 || { tail -30 "$out/build.txt"; exit 1; }
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
