#!/usr/bin/env bash
# The whole test suite: builds with AddressSanitizer + UndefinedBehaviorSanitizer
# into build-asan/, then runs every test with ctest.  The last line is ctest's
# summary.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export CUZK_BUILD_DIR="${CUZK_BUILD_DIR:-$root/build-asan}"
"$root/tools/build.sh" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUZK_SANITIZE=ON
cd "$CUZK_BUILD_DIR"
ctest --output-on-failure -j"$(nproc)" "$@"
