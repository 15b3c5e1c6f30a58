#!/usr/bin/env bash
# Copies this machine's static jansson into .device/jansson (git-ignored), to be
# carried to the GPU machine, which has no Debian -dev packages.
#   tools/gpu-check.sh builds on the GPU machine itself; carry [".device"].
#   tools/gpu-prepare.sh --build [NAME...]: also builds cuzk, cuzk_gpu_check
#   and bench_cuda (or the NAMEs given) here for sm_90 (build-dev, no daemon,
#   static jansson and libcrypto) into .device/bin and packs them into
#   .device/carry/bin.tgz, which tools/gpu-check.sh then uses instead of its
#   own build (same nvcc 13.0).  Built for sm_90 only (90-real: no PTX for
#   the JIT), to fit the device's 64 MiB carry.
#   tools/gpu-prepare.sh --old REV: builds bench_cuda of commit REV (a
#   worktree in /tmp) into .device/old/bench_cuda.gz, the "before" side of
#   `tools/gpu-check.sh ab` (commits before the build work of issue #25 take
#   about 40 minutes here).
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

if [ "${1:-}" = --old ]; then
    rev=$(git -C "$root" rev-parse --short "${2:?usage: --old REV}")
    wt=/tmp/cuzk-old-$rev
    [ -d "$wt" ] || git -C "$root" worktree add -f "$wt" "$rev" >/dev/null
    cmake -S "$wt" -B "$wt/build-dev" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90-real \
        -DCUZK_DAEMON=OFF -DCUZK_JANSSON_ROOT="$root/.device/jansson" \
        -DCUZK_CRYPTO_ROOT="$root/.device/crypto" >/dev/null
    cmake --build "$wt/build-dev" -j"$(nproc)" --target bench_cuda >"$root/.device/build-old.txt" 2>&1 ||
        { grep -E "error" "$root/.device/build-old.txt" | head; exit 1; }
    mkdir -p "$root/.device/old"
    strip -o "$root/.device/old/bench_cuda" "$wt/build-dev/bench_cuda"
    gzip -f "$root/.device/old/bench_cuda" && echo "$rev" >"$root/.device/old/REV"
    echo "prepared $root/.device/old/bench_cuda.gz ($rev)"
    exit 0
fi
[ "${1:-}" = --build ] || exit 0
cmake -S "$root" -B "$root/build-dev" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90-real \
    -DCUZK_DAEMON=OFF -DCMAKE_CUDA_FLAGS=-Xptxas=-v -DCUZK_JANSSON_ROOT="$root/.device/jansson" \
    -DCUZK_CRYPTO_ROOT="$root/.device/crypto" >/dev/null
shift
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(cuzk cuzk_gpu_check bench_cuda)
cmake --build "$root/build-dev" -j"$(nproc)" --target "${names[@]}" \
    >"$root/.device/build.txt" 2>&1 || { grep -E "error" "$root/.device/build.txt" | head; exit 1; }
rm -rf "$root/.device/bin" && mkdir -p "$root/.device/bin"
for n in "${names[@]}"; do
    cp "$root/build-dev/$n" "$root/.device/bin/"
    strip "$root/.device/bin/$n" # the 64 MiB carry limit
done
grep -E "Compiling entry|registers|spill" "$root/.device/build.txt" >"$root/.device/bin/ptxas.txt" || true
mkdir -p "$root/.device/carry"
tar czf "$root/.device/carry/bin.tgz" -C "$root/.device" bin
size=$(stat -c %s "$root/.device/carry/bin.tgz")
[ "$size" -lt $((60 << 20)) ] ||
    echo "warning: bin.tgz is $((size >> 20)) MiB: with the rest of .device/carry it may pass the device's 64 MiB carry; name fewer binaries"
echo "prepared $root/.device/bin ($(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet || echo +changes))"
