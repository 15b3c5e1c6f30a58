// Independent Groth16 prover for snarkjs .zkey + .wtns on BLS12-381 (BigInt + @noble/curves only,
// no snarkjs code): the byte-for-byte oracle for `cuzk prove zkey`.  From oracles.md Appendix A.
// usage: node noble_prove.mjs circuit.zkey witness.wtns proof.json public.json
// env GROTH16_RS=r,s (decimal) pins the blinding; otherwise it is random.
import fs from 'node:fs';
import { bls12_381 as bls } from '@noble/curves/bls12-381.js';
import { pippenger } from '@noble/curves/abstract/curve.js';
const [zkeyPath, wtnsPath, proofOut, publicOut] = process.argv.slice(2);
const G1 = bls.G1.Point, G2 = bls.G2.Point, { Fp, Fr } = bls.fields, q = Fp.ORDER, r = Fr.ORDER;
function readBinFile(path, magic) {            // magic[4] u32 ver u32 n {u32 id, u64 size, bytes}*
  const b = fs.readFileSync(path);
  if (b.subarray(0, 4).toString('latin1') !== magic) throw new Error(`${path}: not ${magic}`);
  const sections = {}; let p = 12;
  for (let i = 0; i < b.readUInt32LE(8); i++) {
    const id = b.readUInt32LE(p), size = Number(b.readBigUInt64LE(p + 4)); p += 12;
    (sections[id] ??= []).push(b.subarray(p, p + size)); p += size;
  }
  return { sections };
}
const leToBig = (buf) => { let x = 0n; for (let i = buf.length - 1; i >= 0; i--) x = (x << 8n) | BigInt(buf[i]); return x; };
const RqInv = Fp.inv((1n << 384n) % q), Rr = (1n << 256n) % r, Rr2Inv = Fr.inv(Fr.mul(Rr, Rr));
const fq = (buf) => Fp.mul(leToBig(buf), RqInv);                          // LE Montgomery -> value
const g1At = (b, o) => { const x = fq(b.subarray(o, o + 48)), y = fq(b.subarray(o + 48, o + 96));
  return x === 0n && y === 0n ? G1.ZERO : G1.fromAffine({ x, y }); };
const g2At = (b, o) => { const f = (k) => fq(b.subarray(o + 48 * k, o + 48 * (k + 1)));
  const x = { c0: f(0), c1: f(1) }, y = { c0: f(2), c1: f(3) };
  return !x.c0 && !x.c1 && !y.c0 && !y.c1 ? G2.ZERO : G2.fromAffine({ x, y }); };
// .wtns: sec1 = u32 n8, q[n8], u32 nWitness; sec2 = values, standard form, LE
const W = readBinFile(wtnsPath, 'wtns'), wh = W.sections[1][0], wn8 = wh.readUInt32LE(0);
const w = Array.from({ length: wh.readUInt32LE(4 + wn8) }, (_, i) => leToBig(W.sections[2][0].subarray(i * wn8, (i + 1) * wn8)));
// .zkey header (sec 2)
const Z = readBinFile(zkeyPath, 'zkey'), h = Z.sections[2][0]; let o = 0;
o += 4 + h.readUInt32LE(o); const n8r = h.readUInt32LE(o); o += 4 + n8r;
const nVars = h.readUInt32LE(o), nPublic = h.readUInt32LE(o + 4), domainSize = h.readUInt32LE(o + 8); o += 12;
const alpha1 = g1At(h, o), beta1 = g1At(h, o + 96), beta2 = g2At(h, o + 192), gamma2 = g2At(h, o + 384),
      delta1 = g1At(h, o + 576), delta2 = g2At(h, o + 672);
if (w.length !== nVars) throw new Error('witness length mismatch');
const power = Math.log2(domainSize);
let nqr = 2n; while (Fr.pow(nqr, (r - 1n) / 2n) !== r - 1n) nqr++;          // = 5 (ffjavascript rule)
let s = 0, t = r - 1n; while ((t & 1n) === 0n) { s++; t >>= 1n; }
const wroot = []; wroot[s] = Fr.pow(nqr, t); for (let i = s - 1; i >= 0; i--) wroot[i] = Fr.sqr(wroot[i + 1]);
const inc = power === s ? Fr.sqr(nqr) : wroot[power + 1];
// sec 4: u32 n, {u32 m, u32 c, u32 s, Fr coef*R^2}
const cb = Z.sections[4][0], sCoef = 12 + n8r, A = Array(domainSize).fill(0n), B = Array(domainSize).fill(0n);
for (let i = 0; i < cb.readUInt32LE(0); i++) {
  const p = 4 + i * sCoef, T = cb.readUInt32LE(p) === 0 ? A : B, c = cb.readUInt32LE(p + 4);
  T[c] = Fr.add(T[c], Fr.mul(Fr.mul(leToBig(cb.subarray(p + 12, p + 12 + n8r)), Rr2Inv), w[cb.readUInt32LE(p + 8)]));
}
const C = A.map((a, i) => Fr.mul(a, B[i]));
function fft(a, root) { const n = a.length; if (n === 1) return a.slice();
  const ev = fft(a.filter((_, i) => i % 2 === 0), Fr.sqr(root)), od = fft(a.filter((_, i) => i % 2 === 1), Fr.sqr(root));
  const out = Array(n); let x = 1n;
  for (let k = 0; k < n / 2; k++) { const y = Fr.mul(x, od[k]); out[k] = Fr.add(ev[k], y); out[k + n / 2] = Fr.sub(ev[k], y); x = Fr.mul(x, root); }
  return out; }
const wn = wroot[power], nInv = Fr.inv(BigInt(domainSize));
const odd = (v) => { const cf = fft(v, Fr.inv(wn)).map((c) => Fr.mul(c, nInv)); let x = 1n;
  return fft(cf.map((c) => { const y = Fr.mul(c, x); x = Fr.mul(x, inc); return y; }), wn); };
const Ao = odd(A), Bo = odd(B), Co = odd(C), Hs = Ao.map((a, i) => Fr.sub(Fr.mul(a, Bo[i]), Co[i]));   // no /Z
const msm = (Cons, sec, size, at, sc) => { const P = [], S = [];
  sc.forEach((k, i) => { if (k) { const pt = at(sec, i * size); if (!pt.is0()) { P.push(pt); S.push(k); } } });
  return P.length ? pippenger(Cons, P, S) : Cons.ZERO; };
const rnd = () => Fr.create(BigInt('0x' + Buffer.from(crypto.getRandomValues(new Uint8Array(48))).toString('hex')));
const [rr, ss] = process.env.GROTH16_RS ? process.env.GROTH16_RS.split(',').map((x) => Fr.create(BigInt(x))) : [rnd(), rnd()];
const mul = (P, k) => (k === 0n ? P.subtract(P) : P.multiply(k));
const piA = msm(G1, Z.sections[5][0], 96, g1At, w).add(alpha1).add(mul(delta1, rr));
const piB = msm(G2, Z.sections[7][0], 192, g2At, w).add(beta2).add(mul(delta2, ss));
const b1 = msm(G1, Z.sections[6][0], 96, g1At, w).add(beta1).add(mul(delta1, ss));
const piC = msm(G1, Z.sections[8][0], 96, g1At, w.slice(nPublic + 1)).add(msm(G1, Z.sections[9][0], 96, g1At, Hs))
  .add(mul(piA, ss)).add(mul(b1, rr)).add(mul(delta1, Fr.neg(Fr.mul(rr, ss))));
const a1 = (P) => { const { x, y } = P.toAffine(); return [String(x), String(y), '1']; };
const a2 = (P) => { const { x, y } = P.toAffine(); return [[String(x.c0), String(x.c1)], [String(y.c0), String(y.c1)], ['1', '0']]; };
fs.writeFileSync(proofOut, JSON.stringify({ pi_a: a1(piA), pi_b: a2(piB), pi_c: a1(piC), protocol: 'groth16', curve: 'bls12381' }, null, 1));
fs.writeFileSync(publicOut, JSON.stringify(w.slice(1, nPublic + 1).map(String), null, 1));
