#!/usr/bin/env bash
# Our Groth16 files checked by an independent verifier: test_groth16_verify
# writes a vk, a valid proof, a tampered proof and public inputs (from a known
# trapdoor, seed printed); tools/oracle/verify_bellperson.mjs (@noble/curves)
# must say OK for the valid proof and INVALID for the tampered proof and for
# wrong public inputs.
# usage: groth16_oracle.sh TEST_GROTH16_VERIFY ORACLE_DIR
set -euo pipefail
bin="$1"
oracle="$2"
if [ ! -d "$oracle/node_modules/@noble/curves" ]; then
    echo "missing $oracle/node_modules: run tools/install-deps.sh (npm ci)" >&2
    exit 1
fi
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
"$bin" --write-oracle "$dir"

fails=0
expect() { # expect WANT_OUTPUT WANT_RC PROOF PUBLIC
    local out rc=0
    out="$(node "$oracle/verify_bellperson.mjs" "$dir/vk.vk" "$dir/$3" "$dir/$4")" || rc=$?
    if [ "$out" = "$1" ] && [ "$rc" = "$2" ]; then
        echo "ok: $3 with $4 -> $out"
    else
        echo "FAIL: $3 with $4 -> '$out' (exit $rc), expected '$1' (exit $2)" >&2
        fails=$((fails + 1))
    fi
}
expect OK 0 valid.proof public.txt
expect INVALID 1 tampered.proof public.txt
expect INVALID 1 valid.proof wrong_public.txt
exit "$fails"
