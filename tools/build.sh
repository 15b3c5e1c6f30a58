#!/usr/bin/env bash
# Configures and builds cuzk into build/ (or $CUZK_BUILD_DIR), installing any
# missing dependency first.  Extra arguments go to cmake's configure step,
# e.g. tools/build.sh -DCUZK_SANITIZE=ON.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/tools/install-deps.sh"
build="${CUZK_BUILD_DIR:-$root/build}"
cmake -S "$root" -B "$build" "$@" >/dev/null
cmake --build "$build" -j"$(nproc)"
