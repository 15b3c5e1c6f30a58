#!/usr/bin/env bash
# Benchmark: cuzk prove zkey against snarkjs groth16 prove on the same circom
# circuit, zkey and witness, alternating in one run (BLS12-381).
#   usage: bench/snarkjs_compare.sh CUZK [N] [REPS]
# N: the Mul(N) chain length (default 4000: 4,001 constraints, domain 2^12).  Makes its own
# test-only powers of tau of the power the circuit needs, in $CUZK_BENCH_DIR
# (default /tmp/cuzk-snarkjs-bench), kept between runs: its phase-2
# preparation takes minutes.  Needs npm ci in tests/oracle.
set -euo pipefail
cuzk="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
n="${2:-4000}"
reps="${3:-3}"
root="$(cd "$(dirname "$0")/.." && pwd)"
S="$root/tests/oracle/node_modules/.bin/snarkjs"
C="$root/tests/oracle/node_modules/.bin/circom2"
dir="${CUZK_BENCH_DIR:-/tmp/cuzk-snarkjs-bench}"
mkdir -p "$dir"
cd "$dir"
power=1
while [ $((1 << power)) -lt $((n + 2)) ]; do power=$((power + 1)); done
if [ ! -f "pot${power}_final.ptau" ]; then
    echo "making a test-only ptau of power $power (slow, once)"
    "$S" powersoftau new bls12381 "$power" p0.ptau >/dev/null
    "$S" powersoftau contribute p0.ptau p1.ptau --name=bench -e="cuzk bench" >/dev/null
    "$S" powersoftau prepare phase2 p1.ptau "pot${power}_final.ptau" >/dev/null
fi
cat >"mul$n.circom" <<CIRCOM
pragma circom 2.0.0;
template Mul(N) {
    signal input a;
    signal input b;
    signal output c;
    signal t[N+1];
    t[0] <== a*b;
    for (var i = 0; i < N; i++) { t[i+1] <== t[i]*t[i] + b; }
    c <== t[N];
}
component main {public [b]} = Mul($n);
CIRCOM
echo '{"a": "3", "b": "11"}' >input.json
if [ ! -f "mul$n.zkey" ]; then
    "$C" "mul$n.circom" --r1cs --wasm --prime bls12381 -o . >/dev/null
    "$S" groth16 setup "mul$n.r1cs" "pot${power}_final.ptau" "mul$n.zkey" >/dev/null
fi
"$S" wtns calculate "mul${n}_js/mul$n.wasm" input.json w.wtns >/dev/null
"$S" zkey export verificationkey "mul$n.zkey" vk.json >/dev/null
echo "Mul($n): ptau power $power; $(nproc) cores; snarkjs $("$S" --version 2>/dev/null | head -1 || true)"
for r in $(seq 1 "$reps"); do
    t0=$(date +%s.%N)
    "$S" groth16 prove "mul$n.zkey" w.wtns sp.json spub.json >/dev/null
    t1=$(date +%s.%N)
    "$cuzk" prove zkey --zkey "mul$n.zkey" --wtns w.wtns --proof cp.json --public cpub.json >/dev/null
    t2=$(date +%s.%N)
    ok=$("$S" groth16 verify vk.json cpub.json cp.json 2>&1 | grep -c "OK" || true)
    echo "rep $r (snarkjs verifies cuzk's proof: $([ "$ok" -gt 0 ] && echo yes || echo NO)): snarkjs $(echo "$t1 - $t0" | bc) s, cuzk $(echo "$t2 - $t1" | bc) s, ratio $(echo "scale=2; ($t1 - $t0) / ($t2 - $t1)" | bc)"
done
