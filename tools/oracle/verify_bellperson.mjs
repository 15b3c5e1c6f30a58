// Independent Groth16 verifier for bellperson-format files, on @noble/curves.
//
//   node verify_bellperson.mjs FILE.vk PROOF.bin PUBLIC.txt
//
// FILE.vk    bellperson VerifyingKey::write bytes: alpha_g1 (G1 uncompressed, 96 B),
//            beta_g1 (96), beta_g2 (G2 uncompressed, 192), gamma_g2 (192),
//            delta_g1 (96), delta_g2 (192), u32 big-endian n_ic, n_ic x G1 (96 each).
// PROOF.bin  one 192-byte proof: A (G1 compressed, 48) | B (G2 compressed, 96) |
//            C (G1 compressed, 48).
// PUBLIC.txt one public input per line, in circuit order: 64 hex digits giving the
//            32-byte little-endian canonical Fr encoding (bellperson's to_repr);
//            blank lines and lines starting with '#' are skipped. n_ic must be
//            (number of inputs) + 1.
//
// Prints OK (exit 0) or INVALID (exit 1); a file it cannot parse prints
// "ERROR: ..." and exits 2.  Points are decoded with noble's zcash codec, which
// checks flags, canonical coordinates, the curve and the subgroup.  The check is
// prod e(-A,B) e(alpha,beta) e(acc,gamma) e(C,delta) == 1 with
// acc = ic[0] + sum x_i ic[i+1] (an independent shape from the C verifier's).
import fs from 'node:fs';
import { bls12_381 as bls } from '@noble/curves/bls12-381.js';

const G1 = bls.G1.Point;
const G2 = bls.G2.Point;
const Fp12 = bls.fields.Fp12;
const R = bls.fields.Fr.ORDER;

function fail(msg) {
  console.log(`ERROR: ${msg}`);
  process.exit(2);
}

function point(P, bytes, what, offset) {
  try {
    const p = P.fromBytes(bytes);
    p.assertValidity();
    return p;
  } catch (e) {
    fail(`${what} at offset ${offset}: ${e.message}`);
  }
}

function readVk(buf) {
  if (buf.length < 868) fail(`vk: ${buf.length} bytes, the header needs 868`);
  let off = 0;
  const g1 = (what) => { const p = point(G1, buf.subarray(off, off + 96), what, off); off += 96; return p; };
  const g2 = (what) => { const p = point(G2, buf.subarray(off, off + 192), what, off); off += 192; return p; };
  const vk = {};
  vk.alpha = g1('vk alpha_g1');
  vk.beta1 = g1('vk beta_g1');
  vk.beta = g2('vk beta_g2');
  vk.gamma = g2('vk gamma_g2');
  vk.delta1 = g1('vk delta_g1');
  vk.delta = g2('vk delta_g2');
  const nIc = new DataView(buf.buffer, buf.byteOffset + 864, 4).getUint32(0, false);
  off = 868;
  if (buf.length !== 868 + 96 * nIc) fail(`vk: n_ic = ${nIc} needs ${868 + 96 * nIc} bytes, file has ${buf.length}`);
  vk.ic = [];
  for (let i = 0; i < nIc; i++) {
    const p = g1(`vk ic[${i}]`);
    if (p.is0()) fail(`vk ic[${i}] at offset ${off - 96}: point at infinity`);
    vk.ic.push(p);
  }
  return vk;
}

function readProof(buf) {
  if (buf.length !== 192) fail(`proof: ${buf.length} bytes, expected 192`);
  const A = point(G1, buf.subarray(0, 48), 'proof A', 0);
  const B = point(G2, buf.subarray(48, 144), 'proof B', 48);
  const C = point(G1, buf.subarray(144, 192), 'proof C', 144);
  for (const [n, p] of [['A', A], ['B', B], ['C', C]]) if (p.is0()) fail(`proof ${n}: point at infinity`);
  return { A, B, C };
}

function readPublic(text) {
  const out = [];
  text.split('\n').forEach((line, i) => {
    const s = line.trim();
    if (s === '' || s.startsWith('#')) return;
    if (!/^[0-9a-fA-F]{64}$/.test(s)) fail(`public line ${i + 1}: expected 64 hex digits`);
    let v = 0n;
    for (let b = 31; b >= 0; b--) v = (v << 8n) | BigInt(parseInt(s.slice(2 * b, 2 * b + 2), 16));
    if (v >= R) fail(`public line ${i + 1}: not canonical (>= r)`);
    out.push(v);
  });
  return out;
}

const args = process.argv.slice(2);
if (args.length !== 3) {
  console.log('usage: node verify_bellperson.mjs FILE.vk PROOF.bin PUBLIC.txt');
  process.exit(2);
}
const vk = readVk(new Uint8Array(fs.readFileSync(args[0])));
const { A, B, C } = readProof(new Uint8Array(fs.readFileSync(args[1])));
const x = readPublic(fs.readFileSync(args[2], 'utf8'));
if (x.length + 1 !== vk.ic.length) fail(`${x.length} public inputs, the vk has ${vk.ic.length} ic points (MalformedVerifyingKey)`);

let acc = vk.ic[0];
x.forEach((v, i) => { if (v !== 0n) acc = acc.add(vk.ic[i + 1].multiply(v)); });
const pairs = [
  { g1: A.negate(), g2: B },
  { g1: vk.alpha, g2: vk.beta },
  { g1: acc, g2: vk.gamma },
  { g1: C, g2: vk.delta },
];
// A pair with a point at infinity contributes 1 (noble's pairing refuses infinity).
const live = pairs.filter((p) => !p.g1.is0() && !p.g2.is0());
const ok = Fp12.eql(bls.pairingBatch(live), Fp12.ONE);
console.log(ok ? 'OK' : 'INVALID');
process.exit(ok ? 0 : 1);
