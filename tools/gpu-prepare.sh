#!/usr/bin/env bash
# Copies this machine's static jansson into .device/jansson (git-ignored), to be
# carried to the GPU machine, which has no Debian -dev packages.
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
