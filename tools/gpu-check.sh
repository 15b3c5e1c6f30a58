#!/usr/bin/env bash
# One call on the GPU machine (the device tool): build for sm_90 with the
# carried static jansson (.device/jansson, made by tools/gpu-prepare.sh), run
# the self-test (it reports the GPUs the CUDA runtime sees), the CPU test suite
# and the field/curve benchmarks.  Logs go to $OUT.
set -uo pipefail
out="${OUT:-/tmp/cuzk-out}"
mkdir -p "$out"
export PATH="$PATH:/usr/local/cuda/bin"
{
    echo "== machine"; nproc; lscpu | grep -E "Model name|Flags" | cut -c1-200
    nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
    nvcc --version | tail -1
} >"$out/machine.txt" 2>&1
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
