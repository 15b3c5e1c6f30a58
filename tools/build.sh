#!/usr/bin/env bash
# Configures and builds cuzk into build/ (or $CUZK_BUILD_DIR), installing any
# missing dependency first.  By default it builds the programs (cuzk, the
# benchmarks; the CUDA backend only where a GPU is present: CMakeLists.txt's
# CUZK_CUDA); with --all also every test executable.  Further arguments go to
# cmake's configure step, e.g. tools/build.sh --all -DCUZK_SANITIZE=ON or
# tools/build.sh -DCUZK_CUDA=ON.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
target=programs
if [ "${1:-}" = --all ]; then
    target=all
    shift
fi
"$root/tools/install-deps.sh"
build="${CUZK_BUILD_DIR:-$root/build}"
cfg=$(cmake -S "$root" -B "$build" "$@" 2>&1) || { echo "$cfg"; exit 1; }
grep -E "^-- cuzk:" <<<"$cfg" || true
cmake --build "$build" -j"$(nproc)" --target "$target"
