#!/usr/bin/env bash
# End-to-end check of `cuzk prove zkey` / `cuzk verify zkey` against snarkjs and
# the independent noble prover/verifier (tools/oracle), for three circom circuits
# (Mul(5), circomlib LessThan(32), circomlib Poseidon(2))
# compiled for bls12381 with the committed test-only ptau (tests/oracle/pot8_final.ptau).
#   usage: zkey_oracle.sh CUZK TESTS_ORACLE_DIR TOOLS_ORACLE_DIR
# Per circuit: circom2 -> snarkjs setup + contribute + export vk + wtns calculate ->
#   cuzk prove (random r, s): snarkjs, noble and cuzk verify say OK;
#   cuzk prove with CUZK_ZKEY_RS=r,s equals noble_prove.mjs with GROTH16_RS=r,s (JSON values),
#   for 1 and 2 threads; cuzk's --vk-out equals snarkjs' vk on every field it writes;
#   cuzk verify rejects a changed public input and a swapped proof point (exit 1),
#   and says 2 for a malformed proof file.
set -euo pipefail
cuzk="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
here="$(cd "$2" && pwd)"
tools="$(cd "$3" && pwd)"
S="$here/node_modules/.bin/snarkjs"
C="$here/node_modules/.bin/circom2"
for f in "$S" "$C" "$here/node_modules/circomlib/circuits/comparators.circom" \
    "$tools/node_modules/@noble/curves/package.json"; do
    [ -e "$f" ] || { echo "missing $f: run tools/install-deps.sh (npm ci in tests/oracle and tools/oracle)"; exit 1; }
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/circomlib"
cp -r "$here/node_modules/circomlib/circuits" "$work/circomlib/"
cp "$here"/circuits/*.circom "$here"/circuits/*.json "$work/"
cd "$work" # circom2 (WASI) only sees files under its working directory

same_json() { # same_json A B KEYS...: the JSON values agree (all of them when no keys)
    node -e '
const fs = require("fs"), [a, b, ...keys] = process.argv.slice(1);
const A = JSON.parse(fs.readFileSync(a)), B = JSON.parse(fs.readFileSync(b));
const ks = keys.length ? keys : null;
const pick = (o) => ks ? ks.map((k) => o[k]) : o;
if (JSON.stringify(pick(A)) !== JSON.stringify(pick(B))) { console.error(a + " != " + b); process.exit(1); }' "$@"
}
expect_rc() { # expect_rc RC what cmd...
    local want="$1" what="$2"
    shift 2
    set +e
    "$@" >/dev/null 2>&1
    local got=$?
    set -e
    [ "$got" -eq "$want" ] || { echo "FAIL: $what: exit $got, expected $want"; exit 1; }
    echo "ok: $what (exit $got)"
}

RS1="123456789012345678901234567890,987654321098765432109876543210"
RS2="0,0"
for c in mul lessthan poseidon; do
    echo "== $c"
    opt=""
    [ "$c" = poseidon ] && opt="--O2" # 240 constraints instead of 514: fits the 2^8 ptau
    "$C" "$c.circom" --r1cs --wasm $opt --prime bls12381 -o . >/dev/null
    "$S" groth16 setup "$c.r1cs" "$here/pot8_final.ptau" "${c}_0.zkey" >/dev/null
    "$S" zkey contribute "${c}_0.zkey" "$c.zkey" --name=c1 -e="cuzk test" >/dev/null
    "$S" zkey export verificationkey "$c.zkey" "$c.vk.json" >/dev/null
    "$S" wtns calculate "${c}_js/$c.wasm" "$c.input.json" "$c.wtns" >/dev/null

    "$cuzk" prove zkey --zkey "$c.zkey" --wtns "$c.wtns" --proof "$c.proof.json" \
        --public "$c.public.json" --vk-out "$c.myvk.json"
    "$S" groth16 verify "$c.vk.json" "$c.public.json" "$c.proof.json" | grep -q "OK!" ||
        { echo "FAIL: snarkjs rejects cuzk's proof"; exit 1; }
    echo "ok: snarkjs groth16 verify accepts cuzk's proof"
    node "$tools/noble_verify.mjs" "$c.vk.json" "$c.public.json" "$c.proof.json" >/dev/null
    echo "ok: noble_verify accepts cuzk's proof"
    expect_rc 0 "cuzk verify zkey accepts" \
        "$cuzk" verify zkey --vk "$c.vk.json" --proof "$c.proof.json" --public "$c.public.json"
    same_json "$c.vk.json" "$c.myvk.json" protocol curve nPublic vk_alpha_1 vk_beta_2 \
        vk_gamma_2 vk_delta_2 IC
    echo "ok: cuzk's vk equals snarkjs' vk"

    for rs in "$RS1" "$RS2"; do
        GROTH16_RS="$rs" node "$tools/noble_prove.mjs" "$c.zkey" "$c.wtns" noble.proof.json \
            noble.public.json
        for t in 1 2; do
            CUZK_ZKEY_RS="$rs" "$cuzk" prove zkey --zkey "$c.zkey" --wtns "$c.wtns" \
                --proof det.proof.json --public det.public.json --threads "$t"
            same_json det.proof.json noble.proof.json
            same_json det.public.json noble.public.json
        done
        echo "ok: fixed r,s = $rs: cuzk's proof.json equals noble_prove.mjs's (1 and 2 threads)"
    done
    "$S" groth16 verify "$c.vk.json" det.public.json det.proof.json | grep -q "OK!"

    # tampering: a changed public input, a swapped point, a malformed file
    node -e 'const fs=require("fs"); const p=JSON.parse(fs.readFileSync(process.argv[1]));
p[0]=(BigInt(p[0])+1n).toString(); fs.writeFileSync("bad.public.json", JSON.stringify(p));' "$c.public.json"
    expect_rc 1 "cuzk verify zkey rejects a changed public input" \
        "$cuzk" verify zkey --vk "$c.vk.json" --proof "$c.proof.json" --public bad.public.json
    node -e 'const fs=require("fs"); const p=JSON.parse(fs.readFileSync(process.argv[1]));
p.pi_a=p.pi_c; fs.writeFileSync("bad.proof.json", JSON.stringify(p));' "$c.proof.json"
    expect_rc 1 "cuzk verify zkey rejects a proof with pi_a := pi_c" \
        "$cuzk" verify zkey --vk "$c.vk.json" --proof bad.proof.json --public "$c.public.json"
    if "$S" groth16 verify "$c.vk.json" "$c.public.json" bad.proof.json | grep -q "OK!"; then
        echo "FAIL: snarkjs accepts the tampered proof (the test is broken)"
        exit 1
    fi
    node -e 'const fs=require("fs"); const p=JSON.parse(fs.readFileSync(process.argv[1]));
p.pi_a[1]=(BigInt(p.pi_a[1])+1n).toString(); fs.writeFileSync("off.proof.json", JSON.stringify(p));' "$c.proof.json"
    expect_rc 1 "cuzk verify zkey rejects pi_a off the curve" \
        "$cuzk" verify zkey --vk "$c.vk.json" --proof off.proof.json --public "$c.public.json"
    echo '{"pi_a": 5}' >malformed.json
    expect_rc 2 "cuzk verify zkey: malformed proof file" \
        "$cuzk" verify zkey --vk "$c.vk.json" --proof malformed.json --public "$c.public.json"
done
expect_rc 2 "cuzk prove zkey: a witness of another circuit" \
    "$cuzk" prove zkey --zkey lessthan.zkey --wtns mul.wtns --proof x.json --public y.json
expect_rc 2 "cuzk prove zkey: a .wtns given as the zkey" \
    "$cuzk" prove zkey --zkey mul.wtns --wtns mul.wtns --proof x.json --public y.json
# A witness that does not satisfy the circuit: the self-check refuses to write a proof.
node -e 'const fs=require("fs"); const b=fs.readFileSync("mul.wtns"); const off=b.length-32; b[off]^=1; fs.writeFileSync("badw.wtns", b);'
expect_rc 1 "cuzk prove zkey refuses an unsatisfying witness" \
    "$cuzk" prove zkey --zkey mul.zkey --wtns badw.wtns --proof x.json --public y.json
echo "all zkey oracle checks passed"
