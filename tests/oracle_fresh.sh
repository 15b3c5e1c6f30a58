#!/usr/bin/env bash
# Generates a fresh vector file from the @noble/curves oracle with a random
# seed (printed, so a failure can be replayed) and checks cuzk against it.
# usage: oracle_fresh.sh CUZK_BINARY ORACLE_DIR [SEED]
set -euo pipefail
cuzk="$1"
oracle="$2"
seed="${3:-${CUZK_ORACLE_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}}"
echo "oracle seed: $seed (set CUZK_ORACLE_SEED=$seed to replay)"
if [ ! -d "$oracle/node_modules/@noble/curves" ]; then
    echo "missing $oracle/node_modules: run tools/install-deps.sh (npm ci)" >&2
    exit 1
fi
out="$(mktemp --suffix=.jsonl)"
trap 'rm -f "$out"' EXIT
node "$oracle/gen_vectors.mjs" --seed "$seed" --out "$out"
"$cuzk" selftest --vectors "$out"
