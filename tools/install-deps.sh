#!/usr/bin/env bash
# Installs what building and testing cuzk needs on Debian 12, only if missing.
# Called by the README commands and by .ci/run; safe to run repeatedly.
set -euo pipefail

need_pkgs=()
want() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed" || need_pkgs+=("$1"); }
# For tools that may come from elsewhere than Debian (e.g. a newer Node.js): check the command.
want_cmd() { command -v "$1" >/dev/null 2>&1 || need_pkgs+=("$2"); }

want build-essential
want cmake
want pkg-config
want libjansson-dev # JSON Lines test vectors (later: config and status JSON)
want libssl-dev     # libcrypto: native SHA-256 (SHA-NI), BLAKE2b, ChaCha20 for Filecoin
want libgrpc-dev          # cuzk daemon: gRPC core (the cuzk.v1 server; optional in CMake)
want libprotobuf-c-dev    # cuzk daemon: protobuf-c runtime
want protobuf-c-compiler  # cuzk daemon: protoc-c generates the C message code at build time
want protobuf-compiler    # daemon test: protoc --python_out for the Python client's messages
want python3-grpcio       # daemon test: the gRPC client (/usr/bin/python3)
want python3-protobuf     # daemon test: protobuf runtime for the generated messages
want python3-prometheus-client # daemon test: a real parser for the /metrics text
want clang-14            # libFuzzer target for the C1 decoder (tests/fuzz, optional in CMake)
want libclang-rt-14-dev  # libFuzzer and sanitizer runtimes for clang-14
want_cmd python3 python3     # tools/gen_constants.py --check
want_cmd node nodejs         # the @noble/curves oracle in tools/oracle
want_cmd npm npm
want_cmd clang-format clang-format

if [ ${#need_pkgs[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -q
    $SUDO apt-get install -y -q --no-install-recommends "${need_pkgs[@]}"
fi

# The oracle's pinned npm packages (package-lock.json), installed once.
here="$(cd "$(dirname "$0")" && pwd)"
if [ -f "$here/oracle/package-lock.json" ] && [ ! -d "$here/oracle/node_modules/@noble/curves" ]; then
    (cd "$here/oracle" && npm ci --no-audit --no-fund --loglevel=error)
fi
# snarkjs + circom2 + circomlib for the .zkey/.wtns end-to-end test (tests/oracle).
if [ -f "$here/../tests/oracle/package-lock.json" ] && [ ! -d "$here/../tests/oracle/node_modules/snarkjs" ]; then
    (cd "$here/../tests/oracle" && npm ci --no-audit --no-fund --loglevel=error)
fi
# @grpc/grpc-js for the daemon's interop test (tests/integration/node).
if [ -f "$here/../tests/integration/node/package-lock.json" ] && [ ! -d "$here/../tests/integration/node/node_modules/@grpc/grpc-js" ]; then
    (cd "$here/../tests/integration/node" && npm ci --no-audit --no-fund --loglevel=error)
fi
