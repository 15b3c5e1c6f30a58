// Independent Groth16 verifier for snarkjs JSON on BLS12-381 (@noble/curves only).
// From oracles.md Appendix B.  usage: node noble_verify.mjs vk.json public.json proof.json; exit 0 = OK.
import fs from 'node:fs';
import { bls12_381 as bls } from '@noble/curves/bls12-381.js';
const [vk, pub, pr] = process.argv.slice(2).map((f) => JSON.parse(fs.readFileSync(f)));
const G1 = bls.G1.Point, G2 = bls.G2.Point, Fp12 = bls.fields.Fp12;
const g1 = ([x, y, z]) => (z === '0' ? G1.ZERO : G1.fromAffine({ x: BigInt(x), y: BigInt(y) }));
const g2 = ([x, y, z]) => (z[0] === '0' && z[1] === '0' ? G2.ZERO
  : G2.fromAffine({ x: { c0: BigInt(x[0]), c1: BigInt(x[1]) }, y: { c0: BigInt(y[0]), c1: BigInt(y[1]) } }));
const A = g1(pr.pi_a), B = g2(pr.pi_b), C = g1(pr.pi_c); [A, B, C].forEach((P) => P.assertValidity());
let vkx = g1(vk.IC[0]);
pub.forEach((v, i) => { const k = BigInt(v); if (k >= bls.fields.Fr.ORDER) throw new Error('input >= r'); if (k) vkx = vkx.add(g1(vk.IC[i + 1]).multiply(k)); });
const ok = Fp12.eql(bls.pairingBatch([{ g1: A.negate(), g2: B }, { g1: g1(vk.vk_alpha_1), g2: g2(vk.vk_beta_2) },
  { g1: vkx, g2: g2(vk.vk_gamma_2) }, { g1: C, g2: g2(vk.vk_delta_2) }]), Fp12.ONE);
console.log(ok ? 'OK' : 'INVALID'); process.exit(ok ? 0 : 1);
