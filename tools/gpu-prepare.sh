#!/usr/bin/env bash
# Copies this machine's static jansson into .device/jansson (git-ignored), to be
# carried to the GPU machine, which has no Debian -dev packages.
#   tools/gpu-prepare.sh --build: also builds cuzk, cuzk_gpu_check and
#   bench_cuda here for sm_90 (build-dev, no daemon, static jansson and
#   libcrypto) into .device/bin, so a device call can skip its ~200 s build
#   and packs them into .device/carry/bin.tgz: carry [".device/carry"] to the
#   device; tools/gpu-check.sh unpacks and uses them (same nvcc 13.0).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dst="$root/.device/jansson"
mkdir -p "$dst/include" "$dst/lib"
cp /usr/include/jansson.h /usr/include/jansson_config.h "$dst/include/"
cp /usr/lib/x86_64-linux-gnu/libjansson.a "$dst/lib/"
echo "prepared $dst"

# OpenSSL's libcrypto, static, for the same reason.
dst="$root/.device/crypto"
mkdir -p "$dst/include" "$dst/lib"
cp -r /usr/include/openssl "$dst/include/"
cp /usr/include/x86_64-linux-gnu/openssl/*.h "$dst/include/openssl/"
cp /usr/lib/x86_64-linux-gnu/libcrypto.a "$dst/lib/"
echo "prepared $dst"

[ "${1:-}" = --build ] || exit 0
cmake -S "$root" -B "$root/build-dev" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCUZK_DAEMON=OFF -DCMAKE_CUDA_FLAGS=-Xptxas=-v -DCUZK_JANSSON_ROOT="$root/.device/jansson" \
    -DCUZK_CRYPTO_ROOT="$root/.device/crypto" >/dev/null
cmake --build "$root/build-dev" -j"$(nproc)" --target cuzk cuzk_gpu_check bench_cuda \
    >"$root/.device/build.txt" 2>&1 || { grep -E "error" "$root/.device/build.txt" | head; exit 1; }
mkdir -p "$root/.device/bin"
cp "$root"/build-dev/{cuzk,cuzk_gpu_check,bench_cuda} "$root/.device/bin/"
strip "$root"/.device/bin/{cuzk,cuzk_gpu_check,bench_cuda} # the 64 MiB carry limit
grep -E "Compiling entry|registers|spill" "$root/.device/build.txt" >"$root/.device/bin/ptxas.txt" || true
# carried compressed: the three binaries outgrow the 64 MiB carry limit
mkdir -p "$root/.device/carry"
tar czf "$root/.device/carry/bin.tgz" -C "$root/.device" bin
echo "prepared $root/.device/bin ($(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet || echo +changes))"
