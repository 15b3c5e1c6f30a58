#!/usr/bin/env bash
# The end-to-end demo: seal a 2 KiB sector (StackedDrg2KiBV1_1, random data),
# make or reuse TEST-ONLY parameters for porep-2k, prove PoRep C2 from the C1
# file, and verify the proof, with progress and a per-phase timing summary.
#
# usage: tools/demo.sh [WORK_DIR]
#   WORK_DIR       where the sector, C1 and proof go (default: a temp dir, kept)
#   $CUZK_BUILD_DIR the build (default build/; built by tools/build.sh if absent)
#   $CUZK_PARAMS   parameter directory (default: $CUZK_BUILD_DIR/test-params).
#                  The test-only setup takes ~3 min and 1.1 GB once; reruns reuse it.
#   $CUZK_DEMO_PROOF  registered proof (default StackedDrg2KiBV1_1; the 2 KiB
#                  Synthetic and NI variants work too)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${CUZK_BUILD_DIR:-$root/build}"
cuzk="$build/cuzk"
[ -x "$cuzk" ] || "$root/tools/build.sh"
params="${CUZK_PARAMS:-$build/test-params}"
proof="${CUZK_DEMO_PROOF:-StackedDrg2KiBV1_1}"
work="${1:-$(mktemp -d /tmp/cuzk-demo.XXXXXX)}"
mkdir -p "$work"
rand32() { od -An -N32 -tx1 /dev/urandom | tr -d ' \n' | sed 's/..$/00/'; }
step() { printf '\n== %s\n' "$*"; }
t_start=$SECONDS

step "1/4 seal a 2 KiB sector ($proof) -> $work/sector"
t0=$SECONDS
"$cuzk" seal --sector-size 2KiB --registered-proof "$proof" --random "$RANDOM" \
    --miner-id 1000 --sector-number 1 --ticket "$(rand32)" --seed "$(rand32)" \
    --out "$work/sector" 2>/dev/null
t_seal=$((SECONDS - t0))
echo "C1 output: $work/sector/c1.json ($(stat -c %s "$work/sector/c1.json") bytes)"

step "2/4 test-only parameters for porep-2k in $params"
t0=$SECONDS
"$cuzk" setup porep-2k --out "$params"
t_setup=$((SECONDS - t0))

step "3/4 prove (C1 -> witness, checked; public inputs derived; Groth16; self-verified)"
t0=$SECONDS
"$cuzk" prove porep --c1 "$work/sector/c1.json" --params-dir "$params" --out "$work/proof.bin"
t_prove=$((SECONDS - t0))

step "4/4 verify"
t0=$SECONDS
"$cuzk" verify porep --c1 "$work/sector/c1.json" --proof "$work/proof.bin" --params-dir "$params"
t_verify=$((SECONDS - t0))

step "summary"
printf '  seal %d s, setup %d s%s, prove %d s, verify %d s; total %d s\n' "$t_seal" "$t_setup" \
    "$([ "$t_setup" -lt 10 ] && echo ' (cached)')" "$t_prove" "$t_verify" "$((SECONDS - t_start))"
echo "  proof: $work/proof.bin ($(stat -c %s "$work/proof.bin") bytes)"
echo "  the parameters are TEST-ONLY (random toxic waste): the proof shows the pipeline, not a"
echo "  proof the chain would accept; with Filecoin's published parameters in"
echo "  \$FIL_PROOFS_PARAMETER_CACHE, 'cuzk prove porep --c1 FILE' uses those instead."
