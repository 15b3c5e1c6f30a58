#!/usr/bin/env node
// Independent BLS12-381 test-vector generator ("oracle") built on @noble/curves.
//
//   node gen_vectors.mjs --seed N [--count K] [--out FILE]
//
// Writes JSON Lines, one case per line:
//   {"op":NAME,"in":[hex,...],"out":[hex,...]}
//   {"op":NAME,"in":[hex,...],"err":true}
// See README.md for the encodings. Output is a pure function of (seed, count):
// all randomness comes from a SHA-256 counter-mode stream seeded with N.

import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { bls12_381 as bls } from '@noble/curves/bls12-381.js';
import { pippenger } from '@noble/curves/abstract/curve.js';
import { FFT, rootsOfUnity } from '@noble/curves/abstract/fft.js';

const { Fp, Fp2, Fp12, Fr } = bls.fields;
const G1 = bls.G1.Point;
const G2 = bls.G2.Point;

// ---------------------------------------------------------------- arguments
function parseArgs(argv) {
  const a = { seed: null, count: 8, out: null };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = argv[i + 1];
    if (k === '--seed') { a.seed = v; i++; }
    else if (k === '--count') { a.count = Number(v); i++; }
    else if (k === '--out') { a.out = v; i++; }
    else if (k === '-h' || k === '--help') {
      process.stderr.write('usage: node gen_vectors.mjs --seed N [--count K] [--out FILE]\n');
      process.exit(0);
    } else {
      process.stderr.write(`unknown argument: ${k}\n`);
      process.exit(2);
    }
  }
  if (a.seed === null || !/^[0-9]+$/.test(a.seed)) {
    process.stderr.write('error: --seed N (a non-negative integer) is required\n');
    process.exit(2);
  }
  if (!Number.isInteger(a.count) || a.count < 0) {
    process.stderr.write('error: --count must be a non-negative integer\n');
    process.exit(2);
  }
  a.seed = BigInt(a.seed).toString(); // canonical decimal form
  return a;
}

// ---------------------------------------------------------------- PRNG
// SHA-256(domain || seed || ":" || counter(u64 BE)) blocks, consumed in order.
// The ops of the first version share the stream "cuzk-oracle/v1/seed=N:"; each op
// added later gets its own stream "cuzk-oracle/v1/seed=N/<stream>:", so adding or
// changing an op never shifts the cases of another.
class Prng {
  constructor(seed, stream = null) {
    const tag = stream === null ? `seed=${seed}` : `seed=${seed}/${stream}`;
    this.prefix = Buffer.from(`cuzk-oracle/v1/${tag}:`, 'utf8');
    this.ctr = 0n;
    this.buf = Buffer.alloc(0);
  }
  bytes(n) {
    while (this.buf.length < n) {
      const c = Buffer.alloc(8);
      c.writeBigUInt64BE(this.ctr++);
      const h = createHash('sha256').update(this.prefix).update(c).digest();
      this.buf = Buffer.concat([this.buf, h]);
    }
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return Buffer.from(out);
  }
  big(nbytes) { return BigInt('0x' + (this.bytes(nbytes).toString('hex') || '0')); }
  // uniform-ish in [0, m): 64 extra bits of width make the bias < 2^-64
  below(m) {
    const nb = Math.ceil(m.toString(16).length / 2) + 8;
    return this.big(nb) % m;
  }
  int(n) { return Number(this.below(BigInt(n))); }
}

// ---------------------------------------------------------------- constants
const P = Fp.ORDER;
const R = Fr.ORDER;
const TWO256 = 1n << 256n;
const MASK381 = (1n << 381n) - 1n;
const FP_BYTES = 48;

// ---------------------------------------------------------------- encoders
// Written here from the spec (not via noble's toBytes) so that points outside
// the subgroup can be encoded; cross-checked against noble for valid points.
const hexBE = (n, len) => {
  if (n < 0n || n >= 1n << BigInt(8 * len)) throw new Error('hexBE: out of range');
  return n.toString(16).padStart(2 * len, '0');
};
const hexLE = (n, len) => Buffer.from(hexBE(n, len), 'hex').reverse().toString('hex');
const fpHex = (n) => hexBE(n, FP_BYTES);
const frHex = (n) => hexLE(n, 32);
const fp2Hex = (e) => fpHex(e.c1) + fpHex(e.c0);
const scHex = (n) => hexLE(n, 32);

const half = (P - 1n) / 2n;
const sortFp = (y) => y > half;
const sortFp2 = (y) => (y.c1 !== 0n ? y.c1 > half : y.c0 > half);

function orFlags(hex, flags) {
  const b = Buffer.from(hex, 'hex');
  b[0] |= flags;
  return b.toString('hex');
}
function setByte0(hex, fn) {
  const b = Buffer.from(hex, 'hex');
  b[0] = fn(b[0]);
  return b.toString('hex');
}

// affine coordinates: {inf:true} or {x,y} (Fp bigint for G1, {c0,c1} for G2)
function affOf(pt) {
  if (pt.is0()) return { inf: true };
  const { x, y } = pt.toAffine();
  return { x, y };
}
function encG1U(a) { return a.inf ? orFlags('00'.repeat(96), 0x40) : fpHex(a.x) + fpHex(a.y); }
function encG1C(a) {
  if (a.inf) return orFlags('00'.repeat(48), 0xc0);
  return orFlags(fpHex(a.x), 0x80 | (sortFp(a.y) ? 0x20 : 0));
}
function encG2U(a) { return a.inf ? orFlags('00'.repeat(192), 0x40) : fp2Hex(a.x) + fp2Hex(a.y); }
function encG2C(a) {
  if (a.inf) return orFlags('00'.repeat(96), 0xc0);
  return orFlags(fp2Hex(a.x), 0x80 | (sortFp2(a.y) ? 0x20 : 0));
}

// noble's toBytes() throws 'bad point: ZERO' for an identity that is not the
// canonical projective (0,1,0) (e.g. the result of X + (-X)), so normalize first.
const nobleHex = (pt, comp) =>
  Buffer.from((pt.is0() ? pt.constructor.ZERO : pt).toBytes(comp)).toString('hex');
// encode a valid (subgroup) point, asserting our encoder agrees with noble
function g1u(pt) { const h = encG1U(affOf(pt)); assertEq(h, nobleHex(pt, false), 'G1 unc enc'); return h; }
function g1c(pt) { const h = encG1C(affOf(pt)); assertEq(h, nobleHex(pt, true), 'G1 comp enc'); return h; }
function g2u(pt) { const h = encG2U(affOf(pt)); assertEq(h, nobleHex(pt, false), 'G2 unc enc'); return h; }
function g2c(pt) { const h = encG2C(affOf(pt)); assertEq(h, nobleHex(pt, true), 'G2 comp enc'); return h; }

function assertEq(a, b, what) {
  if (a !== b) throw new Error(`internal mismatch (${what}): ${a} != ${b}`);
}
function assert(c, what) { if (!c) throw new Error(`internal assertion failed: ${what}`); }

// ---------------------------------------------------------------- output
const lines = [];
const counts = new Map();
function emit(op, ins, outs) {
  for (const h of [...ins, ...outs]) assert(/^[0-9a-f]*$/.test(h) && h.length % 2 === 0, `hex ${op}`);
  lines.push(JSON.stringify({ op, in: ins, out: outs }));
  bump(op, 'ok');
}
function emitErr(op, ins) {
  for (const h of ins) assert(/^[0-9a-f]*$/.test(h) && h.length % 2 === 0, `hex ${op}`);
  lines.push(JSON.stringify({ op, in: ins, err: true }));
  bump(op, 'err');
}
function bump(op, kind) {
  if (!counts.has(op)) counts.set(op, { ok: 0, err: 0 });
  counts.get(op)[kind]++;
}

// ---------------------------------------------------------------- main
const args = parseArgs(process.argv.slice(2));
process.stderr.write(`seed=${args.seed}\n`);
// `let`: the sections added after the first version switch rng to their own stream
let rng = new Prng(args.seed);
const N = args.count;

const randFp = () => rng.below(P);
const randFr = () => rng.below(R);
const randFrNZ = () => 1n + rng.below(R - 1n);
const randFp2 = () => ({ c0: randFp(), c1: randFp() });
const pick = (arr) => arr[rng.int(arr.length)];

// ================================================================ Fp
const fpEdge = [
  0n, 1n, 2n, P - 1n, P - 2n, half, half + 1n,
  0x1a0111ea397fe69an << 320n,             // top limb equal to p's top limb, rest 0
  P - 1n - ((1n << 320n) - 1n),            // top limb of p, lower limbs below p's
  1n << 380n,                              // highest bit that can be set
  (1n << 384n) % P,                        // Montgomery R mod p
  ((1n << 384n) % P) ** 2n % P,            // R^2 mod p
  P - ((1n << 384n) % P),                  // -R mod p
  (1n << 64n) - 1n, 1n << 64n,              // limb boundary
];
const fpCore = [0n, 1n, 2n, P - 1n, 0x1a0111ea397fe69an << 320n, (1n << 384n) % P, half + 1n];

function fpBin(op, f) {
  for (const a of fpCore) for (const b of fpCore) emit(op, [fpHex(a), fpHex(b)], [fpHex(f(a, b))]);
  for (const a of fpEdge) {
    if (fpCore.includes(a)) continue;
    const b = randFp();
    emit(op, [fpHex(a), fpHex(b)], [fpHex(f(a, b))]);
    emit(op, [fpHex(b), fpHex(a)], [fpHex(f(b, a))]);
    emit(op, [fpHex(a), fpHex(a)], [fpHex(f(a, a))]);
  }
  for (let i = 0; i < N; i++) { const a = randFp(), b = randFp(); emit(op, [fpHex(a), fpHex(b)], [fpHex(f(a, b))]); }
  emitErr(op, [fpHex(P), fpHex(1n)]);
  emitErr(op, [fpHex(randFp()), fpHex(P + 1n)]);
  emitErr(op, [fpHex((1n << 384n) - 1n), fpHex(0n)]);
}
fpBin('fp_add', (a, b) => Fp.add(a, b));
fpBin('fp_sub', (a, b) => Fp.sub(a, b));
fpBin('fp_mul', (a, b) => Fp.mul(a, b));

function fpUn(op, f, zeroErr) {
  for (const a of fpEdge) {
    if (a === 0n && zeroErr) { emitErr(op, [fpHex(0n)]); continue; }
    emit(op, [fpHex(a)], [fpHex(f(a))]);
  }
  for (let i = 0; i < N; i++) { const a = randFp(); if (a === 0n && zeroErr) continue; emit(op, [fpHex(a)], [fpHex(f(a))]); }
  emitErr(op, [fpHex(P)]);
  emitErr(op, [fpHex((1n << 384n) - 1n)]);
}
fpUn('fp_sqr', (a) => Fp.sqr(a), false);
fpUn('fp_inv', (a) => Fp.inv(a), true);

// ================================================================ Fr
const frEdge = [
  0n, 1n, 2n, R - 1n, R - 2n, (R - 1n) / 2n, (R + 1n) / 2n,
  0x73eda753299d7d48n << 192n,             // top limb equal to r's top limb
  0x73eda753299d7d47ffffffffffffffffffffffffffffffffffffffffffffffffn,
  1n << 253n, 1n << 254n,
  TWO256 % R,                              // Montgomery R mod r
  (TWO256 % R) ** 2n % R,                  // R^2 mod r
  (1n << 64n) - 1n, 1n << 64n,
];
const frCore = [0n, 1n, 2n, R - 1n, 0x73eda753299d7d48n << 192n, TWO256 % R, (R + 1n) / 2n];

function frBin(op, f) {
  for (const a of frCore) for (const b of frCore) emit(op, [frHex(a), frHex(b)], [frHex(f(a, b))]);
  for (const a of frEdge) {
    if (frCore.includes(a)) continue;
    const b = randFr();
    emit(op, [frHex(a), frHex(b)], [frHex(f(a, b))]);
    emit(op, [frHex(b), frHex(a)], [frHex(f(b, a))]);
  }
  for (let i = 0; i < N; i++) { const a = randFr(), b = randFr(); emit(op, [frHex(a), frHex(b)], [frHex(f(a, b))]); }
  emitErr(op, [frHex(R), frHex(1n)]);
  emitErr(op, [frHex(randFr()), frHex(R + 1n)]);
  emitErr(op, [frHex(TWO256 - 1n), frHex(0n)]);
}
frBin('fr_add', (a, b) => Fr.add(a, b));
frBin('fr_sub', (a, b) => Fr.sub(a, b));
frBin('fr_mul', (a, b) => Fr.mul(a, b));
{
  const op = 'fr_inv';
  for (const a of frEdge) {
    if (a === 0n) { emitErr(op, [frHex(0n)]); continue; }
    emit(op, [frHex(a)], [frHex(Fr.inv(a))]);
  }
  for (let i = 0; i < N; i++) { const a = randFrNZ(); emit(op, [frHex(a)], [frHex(Fr.inv(a))]); }
  emitErr(op, [frHex(R)]);
  emitErr(op, [frHex(TWO256 - 1n)]);
}

// ================================================================ Fp2
const fp2 = (c0, c1) => ({ c0, c1 });
const fp2Edge = [
  fp2(0n, 0n), fp2(1n, 0n), fp2(0n, 1n), fp2(2n, 0n), fp2(1n, 1n),
  fp2(P - 1n, 0n), fp2(0n, P - 1n), fp2(P - 1n, P - 1n),
  fp2(0x1a0111ea397fe69an << 320n, 0x1a0111ea397fe69an << 320n),
  fp2(1n << 380n, P - 1n),
  fp2((1n << 384n) % P, 0n),
];
const fp2Bad = [fp2(P, 0n), fp2(0n, P), fp2((1n << 384n) - 1n, 1n), fp2(1n, (1n << 381n) - 1n)];
{
  const op = 'fp2_mul';
  for (const a of fp2Edge) for (const b of fp2Edge.slice(0, 8)) emit(op, [fp2Hex(a), fp2Hex(b)], [fp2Hex(Fp2.mul(a, b))]);
  for (let i = 0; i < N; i++) { const a = randFp2(), b = randFp2(); emit(op, [fp2Hex(a), fp2Hex(b)], [fp2Hex(Fp2.mul(a, b))]); }
  for (const a of fp2Edge.slice(8)) { const b = randFp2(); emit(op, [fp2Hex(a), fp2Hex(b)], [fp2Hex(Fp2.mul(a, b))]); }
  emitErr(op, [fp2Hex(fp2Bad[0]), fp2Hex(randFp2())]);
  emitErr(op, [fp2Hex(randFp2()), fp2Hex(fp2Bad[1])]);
  emitErr(op, [fp2Hex(fp2Bad[2]), fp2Hex(fp2Bad[3])]);
}
{
  const op = 'fp2_inv';
  for (const a of fp2Edge) {
    if (Fp2.is0(a)) { emitErr(op, [fp2Hex(a)]); continue; }
    emit(op, [fp2Hex(a)], [fp2Hex(Fp2.inv(a))]);
  }
  for (let i = 0; i < N; i++) { const a = randFp2(); emit(op, [fp2Hex(a)], [fp2Hex(Fp2.inv(a))]); }
  for (const b of fp2Bad) emitErr(op, [fp2Hex(b)]);
}

// ================================================================ points
// Curve descriptions used for crafting invalid encodings.
const B2 = fp2(4n, 4n);
const C = {
  g1: {
    Point: G1, F: Fp, b: 4n, W: 48, // W: compressed size = one coordinate
    encU: encG1U, encC: encG1C, u: g1u, c: g1c,
    coordHex: fpHex,
    rand: () => G1.BASE.multiply(randFrNZ()),
    randX: randFp,
    // components of x from the top of the encoding down
    xTop: (x) => x, // the flag-carrying component
  },
  g2: {
    Point: G2, F: Fp2, b: B2, W: 96,
    encU: encG2U, encC: encG2C, u: g2u, c: g2c,
    coordHex: fp2Hex,
    rand: () => G2.BASE.multiply(randFrNZ()),
    randX: randFp2,
    xTop: (x) => x.c1,
  },
};

function trySqrt(F, v) {
  try { const s = F.sqrt(v); if (s !== undefined && F.eql(F.sqr(s), v)) return s; } catch (e) { /* non-square */ }
  return undefined;
}

// on-curve point NOT in the prime-order subgroup (cofactor not cleared)
function nonSubgroupAff(cv) {
  for (;;) {
    const x = cv.randX();
    const y = trySqrt(cv.F, cv.F.add(cv.F.mul(cv.F.sqr(x), x), cv.b));
    if (y === undefined) continue;
    const pt = cv.Point.fromAffine({ x, y });
    if (!pt.isTorsionFree()) return { x, y };
  }
}
// x with x^3 + b a non-square (no point with this x)
function nonSquareX(cv) {
  for (;;) {
    const x = cv.randX();
    if (trySqrt(cv.F, cv.F.add(cv.F.mul(cv.F.sqr(x), x), cv.b)) === undefined) return x;
  }
}
// a subgroup point whose flag-carrying x component is < 2^381 - p, so that
// "component + p" still fits below the flag bits
function smallXPoint(cv) {
  for (;;) {
    const pt = cv.rand();
    const a = affOf(pt);
    if (cv.xTop(a.x) < (1n << 381n) - P) return pt;
  }
}

// Invalid uncompressed encodings as [reason, hex]; the reason is used only inside
// the generator (cross-check messages, picking pairing error inputs).
function badUncompressed(name) {
  const cv = C[name];
  const out = [];
  const pt = cv.rand();
  const a = affOf(pt);
  const good = cv.u(pt);
  const W = 2 * cv.W; // uncompressed length in bytes
  // 1. x coordinate (flag-carrying component) >= p: x + p, same point mod p
  {
    const s = affOf(smallXPoint(cv));
    if (name === 'g1') out.push(['x+p', fpHex(s.x + P) + fpHex(s.y)]);
    else out.push(['x.c1+p', fpHex(s.x.c1 + P) + fpHex(s.x.c0) + fp2Hex(s.y)]);
  }
  // 2. y coordinate >= p (y + p)
  if (name === 'g1') out.push(['y+p', fpHex(a.x) + fpHex(a.y + P)]);
  else {
    out.push(['y.c0+p', fp2Hex(a.x) + fpHex(a.y.c1) + fpHex(a.y.c0 + P)]);
    out.push(['x.c0+p', fpHex(a.x.c1) + fpHex(a.x.c0 + P) + fp2Hex(a.y)]);
    out.push(['y.c1=p', fp2Hex(a.x) + fpHex(P) + fpHex(a.y.c0)]);
  }
  // 3. coordinate = 2^381-1 (all value bits set)
  out.push(['x=2^381-1', hexBE(MASK381, 48) + good.slice(96)]);
  // 4. not on curve: y + 1
  if (name === 'g1') out.push(['y+1', fpHex(a.x) + fpHex(Fp.add(a.y, 1n))]);
  else out.push(['y.c0+1', fp2Hex(a.x) + fp2Hex(Fp2.add(a.y, Fp2.ONE))]);
  // 5. all zero, no infinity flag ((0,0) is not on the curve)
  out.push(['all-zero', '00'.repeat(W)]);
  // 6. on curve, not in subgroup (random x)
  out.push(['not-in-subgroup', cv.encU(nonSubgroupAff(cv))]);
  // 6b. G1: the order-3 point (0, 2) -- on curve, x = 0, outside G1
  if (name === 'g1') out.push(['(0,2)', fpHex(0n) + fpHex(2n)]);
  // 7. compression flag set on an uncompressed encoding
  out.push(['C-flag', orFlags(good, 0x80)]);
  // 8. sort flag set on an uncompressed encoding
  out.push(['S-flag', orFlags(good, 0x20)]);
  // 9. infinity flag with the (non-zero) coordinates of a valid point
  out.push(['I-flag+coords', orFlags(good, 0x40)]);
  // 10. infinity flag, zeros except the last byte
  out.push(['I-flag+lastbyte', orFlags('00'.repeat(W - 1) + '01', 0x40)]);
  // 11. infinity with sort flag (0x60) and zeros
  out.push(['I+S-flag', orFlags('00'.repeat(W), 0x60)]);
  // 12. compressed-infinity flags (0xc0) on an uncompressed-length buffer
  out.push(['C+I-flag', orFlags('00'.repeat(W), 0xc0)]);
  return out;
}

function badCompressed(name) {
  const cv = C[name];
  const out = [];
  const pt = cv.rand();
  const a = affOf(pt);
  const good = cv.c(pt);
  const Wc = cv.W; // compressed length in bytes
  // 1. compression flag missing (flags otherwise as for a valid point)
  out.push(['no-C-flag', setByte0(good, (b) => b & 0x7f)]);
  if (good !== setByte0(good, (b) => b & 0xdf)) out.push(['no-flags', setByte0(good, (b) => b & 0x1f)]);
  else out.push(['S-only', setByte0(good, (b) => (b & 0x1f) | 0x20)]);
  // 2. all zero
  out.push(['all-zero', '00'.repeat(Wc)]);
  // 3. compressed infinity with sort flag
  out.push(['C+I+S', orFlags('00'.repeat(Wc), 0xe0)]);
  // 4. compressed infinity with non-zero x
  out.push(['C+I+lastbyte', orFlags('00'.repeat(Wc - 1) + '01', 0xc0)]);
  out.push(['C+I+x', setByte0(good, (b) => (b & 0x1f) | 0xc0)]); // exactly C+I, x payload kept
  // 5. x with x^3 + b a non-square (not on curve)
  {
    const x = nonSquareX(cv);
    out.push(['no-sqrt', orFlags(cv.coordHex(x), 0x80)]);
    out.push(['no-sqrt+S', orFlags(cv.coordHex(x), 0xa0)]);
  }
  // 6. x >= p
  {
    const s = affOf(smallXPoint(cv));
    const sort = name === 'g1' ? sortFp(s.y) : sortFp2(s.y);
    const fl = 0x80 | (sort ? 0x20 : 0);
    if (name === 'g1') {
      out.push(['x+p', orFlags(fpHex(s.x + P), fl)]);
      out.push(['x=p', orFlags(fpHex(P), 0x80)]);
    } else {
      out.push(['x.c1+p', orFlags(fpHex(s.x.c1 + P) + fpHex(s.x.c0), fl)]);
      const sa = sortFp2(a.y) ? 0x20 : 0;
      out.push(['x.c0+p', orFlags(fpHex(a.x.c1) + fpHex(a.x.c0 + P), 0x80 | sa)]);
      out.push(['x.c0=2^384-1', orFlags(fpHex(a.x.c1) + 'ff'.repeat(48), 0x80 | sa)]);
    }
    out.push(['x=2^381-1', orFlags(hexBE(MASK381, 48) + good.slice(96), 0x80)]);
  }
  // 7. on curve, not in subgroup
  {
    const ns = nonSubgroupAff(cv);
    out.push(['not-in-subgroup', cv.encC(ns)]);
    out.push(['not-in-subgroup-neg', cv.encC({ x: ns.x, y: cv.F.neg(ns.y) })]);
  }
  if (name === 'g1') out.push(['x=0 (order-3 point)', orFlags(fpHex(0n), 0x80)]);
  return out;
}

// Noble's own verdict on an encoding (used only as a cross-check of our
// error cases; disagreements are reported on stderr).
const nobleRejects = (cv, hex) => {
  try { cv.Point.fromBytes(Buffer.from(hex, 'hex')); return false; } catch (e) { return true; }
};
const disagreements = [];
function checkBad(name, list, kind) {
  for (const [why, hex] of list) {
    if (!nobleRejects(C[name], hex)) disagreements.push(`${name} ${kind} '${why}' accepted by noble: ${hex}`);
  }
}

const mulK = (pt, k) => {
  const kr = k % R;
  return kr === 0n ? pt.multiplyUnsafe(0n) : pt.multiply(kr);
};
const kEdge = [0n, 1n, 2n, 3n, R - 1n, R, R + 1n, 2n * R, TWO256 - 1n, R - 2n, (R - 1n) / 2n, 1n << 255n];

for (const name of ['g1', 'g2']) {
  const cv = C[name];
  const Pt = cv.Point;
  const O = Pt.ZERO;
  const Gen = Pt.BASE;
  const bu = badUncompressed(name);
  const bc = badCompressed(name);
  checkBad(name, bu, 'uncompressed');
  checkBad(name, bc, 'compressed');
  const randPts = () => { const a = []; for (let i = 0; i < N; i++) a.push(cv.rand()); return a; };

  // ---- add
  {
    const op = `${name}_add`;
    const X = cv.rand(), Y = cv.rand();
    const pairs = [
      [Gen, Gen], [Gen, Gen.negate()], [Gen, O], [O, Gen], [O, O], [X, O], [O, X],
      [X, X], [X, X.negate()], [X.negate(), X], [X, Gen], [Gen, X], [X, X.double()], [X.double(), X],
      [X, Y.subtract(X)], // result equals Y
    ];
    for (let i = 0; i < N; i++) pairs.push([cv.rand(), cv.rand()]);
    for (const [p, q] of pairs) emit(op, [cv.u(p), cv.u(q)], [cv.u(p.add(q))]);
    bu.forEach(([, h], i) => emitErr(op, i % 2 ? [cv.u(X), h] : [h, cv.u(X)]));
    emitErr(op, [bu[0][1], bu[1][1]]);
  }
  // ---- dbl
  {
    const op = `${name}_dbl`;
    const pts = [Gen, O, Gen.negate(), Gen.double(), ...randPts()];
    for (const p of pts) emit(op, [cv.u(p)], [cv.u(p.double())]);
    for (const [, h] of bu) emitErr(op, [h]);
  }
  // ---- neg
  {
    const op = `${name}_neg`;
    const pts = [Gen, O, Gen.negate(), ...randPts()];
    for (const p of pts) emit(op, [cv.u(p)], [cv.u(p.negate())]);
    for (const [, h] of bu) emitErr(op, [h]);
  }
  // ---- mul
  {
    const op = `${name}_mul`;
    const X = cv.rand();
    for (const base of [Gen, X]) for (const k of kEdge) emit(op, [cv.u(base), scHex(k)], [cv.u(mulK(base, k))]);
    for (const k of [0n, 1n, R - 1n, TWO256 - 1n]) emit(op, [cv.u(O), scHex(k)], [cv.u(O)]);
    for (let i = 0; i < N; i++) {
      const base = cv.rand();
      const k = rng.big(32); // any 256-bit value; > r about half the time
      emit(op, [cv.u(base), scHex(k)], [cv.u(mulK(base, k))]);
    }
    for (let i = 0; i < N / 2; i++) {
      const k = rng.big(32);
      emit(op, [cv.u(Gen), scHex(k)], [cv.u(mulK(Gen, k))]);
    }
    for (const [, h] of bu) emitErr(op, [h, scHex(rng.big(32))]);
  }
  // ---- compress
  {
    const op = `${name}_compress`;
    const pts = [Gen, Gen.negate(), O, ...randPts()];
    for (const p of pts) emit(op, [cv.u(p)], [cv.c(p)]);
    for (const [, h] of bu) emitErr(op, [h]);
  }
  // ---- decompress
  {
    const op = `${name}_decompress`;
    const pts = [Gen, Gen.negate(), O];
    for (const p of randPts()) pts.push(p, p.negate()); // both sort-flag values
    for (const p of pts) emit(op, [cv.c(p)], [cv.u(p)]);
    for (const [, h] of bc) emitErr(op, [h]);
  }
  // ---- decode_uncompressed
  {
    const op = `${name}_decode_uncompressed`;
    const pts = [Gen, Gen.negate(), O, smallXPoint(cv), ...randPts()];
    for (const p of pts) emit(op, [cv.u(p)], [cv.u(p)]);
    for (const [, h] of bu) emitErr(op, [h]);
  }
}

// ================================================================ pairing
{
  const op = 'pairing_check';
  const g1s = G1.BASE, g2s = G2.BASE;
  const O1 = G1.ZERO, O2 = G2.ZERO;
  // product of pairings via noble; pairs containing infinity contribute 1
  const pcheck = (pairs) => {
    const live = pairs.filter(([a, b]) => !a.is0() && !b.is0()).map(([g1, g2]) => ({ g1, g2 }));
    if (live.length === 0) return true;
    return Fp12.eql(bls.pairingBatch(live), Fp12.ONE);
  };
  const enc = (pairs) => pairs.flatMap(([a, b]) => [g1u(a), g2u(b)]);
  const cases = []; // [pairs, expected-by-construction]
  const s = () => randFrNZ();
  const X1 = () => g1s.multiply(s());
  const X2 = () => g2s.multiply(s());

  cases.push([[], true]);
  cases.push([[[O1, g2s]], true]);
  cases.push([[[g1s, O2]], true]);
  cases.push([[[O1, O2]], true]);
  cases.push([[[g1s, g2s]], false]);
  cases.push([[[X1(), X2()]], false]);
  // e(G,H) * e(-G,H) = 1 and e(G,H) * e(G,-H) = 1
  cases.push([[[g1s, g2s], [g1s.negate(), g2s]], true]);
  cases.push([[[g1s, g2s], [g1s, g2s.negate()]], true]);
  cases.push([[[g1s, g2s], [g1s, g2s]], false]);
  for (let i = 0; i < Math.max(2, N / 2); i++) {
    // e(aP, bQ) * e(-abP, Q) = 1
    const a = s(), b = s();
    const Pp = X1(), Qq = X2();
    cases.push([[[Pp.multiply(a), Qq.multiply(b)], [Pp.multiply(Fr.mul(a, b)).negate(), Qq]], true]);
    // false: off by one in the scalar
    const ab1 = Fr.add(Fr.mul(a, b), 1n);
    cases.push([[[Pp.multiply(a), Qq.multiply(b)], [Pp.multiply(ab1).negate(), Qq]], false]);
  }
  // with an infinity pair mixed in
  {
    const a = s();
    cases.push([[[g1s.multiply(a), g2s], [O1, X2()], [g1s, g2s.multiply(a).negate()]], true]);
    cases.push([[[g1s.multiply(a), g2s], [X1(), O2], [g1s, g2s.multiply(a)]], false]);
  }
  // 3 pairs: e(aP,Q) e(bP,Q) e(-(a+b)P,Q)
  for (let i = 0; i < 2; i++) {
    const a = s(), b = s();
    const Pp = X1(), Qq = X2();
    cases.push([[[Pp.multiply(a), Qq], [Pp.multiply(b), Qq], [Pp.multiply(Fr.add(a, b)).negate(), Qq]], true]);
    cases.push([[[Pp.multiply(a), Qq], [Pp.multiply(b), Qq], [Pp.multiply(Fr.add(a, b)), Qq]], false]);
  }
  // 4 pairs: e(aG,bH) e(cG,dH) e(-(ab+cd)G, H) e(O-ish) and a full 4-term identity
  for (let i = 0; i < 2; i++) {
    const a = s(), b = s(), c = s(), d = s();
    const abcd = Fr.add(Fr.mul(a, b), Fr.mul(c, d));
    const t = s();
    cases.push([[
      [g1s.multiply(a), g2s.multiply(b)],
      [g1s.multiply(c), g2s.multiply(d)],
      [g1s.multiply(t), g2s],
      [g1s.multiply(Fr.add(abcd, t)).negate(), g2s],
    ], true]);
    cases.push([[
      [g1s.multiply(a), g2s.multiply(b)],
      [g1s.multiply(c), g2s.multiply(d)],
      [g1s.multiply(t), g2s],
      [g1s.multiply(Fr.add(abcd, t)), g2s],
    ], false]);
  }
  for (const [pairs, want] of cases) {
    const got = pcheck(pairs);
    assert(got === want, `pairing construction (${pairs.length} pairs) expected ${want}`);
    emit(op, enc(pairs), [got ? '01' : '00']);
  }
  // error cases: one invalid point among otherwise valid (true) inputs
  const bu1 = badUncompressed('g1');
  const bu2 = badUncompressed('g2');
  const pick1 = (why) => bu1.find(([w]) => w === why)[1];
  const pick2 = (why) => bu2.find(([w]) => w === why)[1];
  const base = enc([[g1s, g2s], [g1s.negate(), g2s]]);
  const withBad = (idx, h) => { const a = base.slice(); a[idx] = h; return a; };
  emitErr(op, withBad(0, pick1('not-in-subgroup')));
  emitErr(op, withBad(3, pick2('not-in-subgroup')));
  emitErr(op, withBad(1, pick2('y.c0+1')));
  emitErr(op, withBad(2, pick1('x+p')));
  emitErr(op, withBad(2, pick1('I-flag+lastbyte')));
  emitErr(op, withBad(0, pick1('(0,2)')));
}

// ================================================================ MSM
// gX_msm: in = [P_1..P_n, k_1..k_n] (points uncompressed, scalars 32-byte LE, any
// 256-bit value, reduced mod r), out = [sum k_i P_i]. Each group has its own PRNG stream.
// The answer comes from noble's pippenger(); for n <= 4 it is also compared with a
// sum of noble's multiplyUnsafe(), and cases built to hit a known value assert it.
const MSM_LARGE = {
  // [n, kind]: a few sizes past 64 (noble's pippenger: ~0.6 ms/point G1, ~2 ms/point G2)
  g1: [[256, 'bitheavy'], [300, 'random']],
  g2: [[128, 'bitheavy']],
};
// sizes around powers of two (G2 stops at 33: its 64-term cases are the bit-heavy one
// and the random ones) and the largest n of the --count random cases
const MSM_SWEEP = {
  g1: [2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64],
  g2: [2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33],
};
const MSM_RANDOM_MAX = { g1: 64, g2: 32 };
for (const name of ['g1', 'g2']) {
  const op = `${name}_msm`;
  rng = new Prng(args.seed, op);
  const cv = C[name];
  const Pt = cv.Point;
  const O = Pt.ZERO;
  const Gen = Pt.BASE;
  const rpts = (n) => Array.from({ length: n }, () => cv.rand());
  const rscs = (n) => Array.from({ length: n }, () => randFr());
  // 90% of the scalars 0 or 1 (half each), the rest uniform
  const bitHeavy = (n) => Array.from({ length: n }, () => (rng.int(10) < 9 ? BigInt(rng.int(2)) : randFr()));
  const sum = (pts) => pts.reduce((a, b) => a.add(b), O);
  const enc = (pts, scs) => [...pts.map((p) => cv.u(p)), ...scs.map((k) => scHex(k))];
  const emitMsm = (pts, scs, expect) => {
    assert(pts.length === scs.length && scs.every((k) => k >= 0n && k < R), `${op} inputs`);
    const res = pippenger(Pt, pts, scs);
    if (pts.length <= 4) assert(res.equals(sum(pts.map((p, i) => p.multiplyUnsafe(scs[i])))), `${op} pippenger vs sum`);
    if (expect !== undefined) assert(res.equals(expect), `${op} construction`);
    emit(op, enc(pts, scs), [cv.u(res)]);
  };

  const X = cv.rand(), Y = cv.rand();
  const k = randFrNZ();
  emitMsm([], [], O);                                   // no terms: the identity
  emitMsm([Gen], [1n], Gen);
  emitMsm([X], [k], X.multiply(k));
  emitMsm([X], [0n], O);
  emitMsm([X], [1n], X);
  emitMsm([X], [R - 1n], X.negate());
  emitMsm([O], [k], O);                                 // base at infinity
  emitMsm([O], [0n], O);
  emitMsm([X, X], [k, R - k], O);                       // k·P + (r−k)·P = O
  emitMsm([X, X.negate()], [k, k], O);                  // a base and its negative
  { const j = randFr(); emitMsm([X, X.negate()], [k, j], X.multiplyUnsafe(Fr.sub(k, j))); }
  emitMsm([X, X], [k, k], X.multiply(Fr.add(k, k)));    // equal terms: a doubling in the sum
  emitMsm([X, Y], [R - 1n, R - 1n], X.add(Y).negate());
  emitMsm([Gen, X, Y], [1n, 1n, 1n], Gen.add(X).add(Y));
  emitMsm(rpts(8), Array(8).fill(0n), O);               // all scalars zero
  { const p = rpts(16); emitMsm(p, Array(16).fill(1n), sum(p)); }
  { const p = rpts(7); emitMsm(p, Array(7).fill(R - 1n), sum(p).negate()); }
  emitMsm(rpts(64), bitHeavy(64));                      // bit-heavy
  emitMsm(rpts(33), bitHeavy(33));
  { // repeated bases: 4 distinct points, 32 terms
    const b = rpts(4);
    emitMsm(Array.from({ length: 32 }, () => b[rng.int(4)]), rscs(32));
  }
  { // the same base in every term, scalars summing to 0 mod r
    const s = rscs(4);
    s.push(Fr.neg(s.reduce((a, c) => Fr.add(a, c), 0n)));
    emitMsm(Array(5).fill(X), s, O);
  }
  { // bases at infinity mixed in; all bases at infinity
    emitMsm(rpts(12).map((q, i) => (i % 3 === 1 ? O : q)), rscs(12));
    emitMsm([O, O, O, O], rscs(4), O);
  }
  // small scalars, powers of two (2^254 is the top bit a scalar < r can have), near r
  emitMsm(rpts(32), Array.from({ length: 32 }, () => BigInt(rng.int(256))));
  {
    const e = []; for (let i = 0; i < 254; i += 8) e.push(i); e.push(253, 254);
    emitMsm(rpts(e.length), e.map((i) => 1n << BigInt(i)));
  }
  emitMsm(rpts(16), Array.from({ length: 16 }, () => R - 1n - BigInt(rng.int(1 << 16))));
  { // 16 unrelated-looking terms whose sum is O: P_i = a_i G, last scalar cancels the rest
    const a = Array.from({ length: 16 }, () => randFrNZ());
    const s = rscs(15);
    let t = 0n;
    for (let i = 0; i < 15; i++) t = Fr.add(t, Fr.mul(s[i], a[i]));
    s.push(Fr.mul(Fr.neg(t), Fr.inv(a[15])));
    emitMsm(a.map((ai) => Gen.multiply(ai)), s, O);
  }
  // sizes around powers of two
  for (const n of MSM_SWEEP[name]) emitMsm(rpts(n), rscs(n));
  for (const [n, kind] of MSM_LARGE[name]) emitMsm(rpts(n), kind === 'bitheavy' ? bitHeavy(n) : rscs(n));
  for (let i = 0; i < N; i++) { const n = 1 + rng.int(MSM_RANDOM_MAX[name]); emitMsm(rpts(n), rscs(n)); }

  // ---- errors
  const bu = badUncompressed(name);
  checkBad(name, bu, 'uncompressed');
  const bad = (why) => bu.find(([w]) => w === why)[1];
  const p3 = rpts(3), s3 = rscs(3);
  const withIn = (idx, h) => { const a = enc(p3, s3); a[idx] = h; return a; };
  // scalars >= r are any 256-bit values, reduced mod r (VECTORS.md): not errors
  const emitMsmWide = (pts, wide) => {
    const res = pippenger(Pt, pts, wide.map((w) => w % R));
    emit(op, [...pts.map((p) => cv.u(p)), ...wide.map((w) => scHex(w))], [cv.u(res)]);
  };
  emitMsmWide([X], [R]);                                // scalar = r: the identity
  emitMsmWide(p3, [R, s3[1], s3[2]]);
  emitMsmWide(p3, [s3[0], R + 1n, s3[2]]);
  emitMsmWide(p3, [s3[0], s3[1], TWO256 - 1n]);
  const badWhy = name === 'g1'
    ? ['not-in-subgroup', 'y+1', 'x+p', '(0,2)', 'all-zero', 'I-flag+lastbyte', 'C-flag']
    : ['not-in-subgroup', 'y.c0+1', 'x.c1+p', 'all-zero', 'I-flag+lastbyte', 'C-flag'];
  badWhy.forEach((why, i) => emitErr(op, withIn(i % 3, bad(why))));
  { // an invalid point whose scalar is 0 must still be rejected
    const a = withIn(1, bad('not-in-subgroup')); a[4] = scHex(0n); emitErr(op, a);
  }
  emitErr(op, [cv.u(X)]);                               // odd number of inputs
  emitErr(op, [scHex(k)]);
  emitErr(op, enc(p3, s3).slice(0, 5));
  emitErr(op, withIn(0, cv.c(p3[0])));                  // compressed point
  emitErr(op, withIn(3, scHex(s3[0]).slice(0, 62)));    // 31-byte scalar
  emitErr(op, [scHex(k), cv.u(X)]);                     // scalar first, point second
}

// ================================================================ NTT
// fr_ntt:       in = [v_0..v_{n-1}],    out = [V_k = Σ_j v_j ω^{jk}]
// fr_intt:      in = [V_0..V_{n-1}],    out = [v_j = n^{-1} Σ_k V_k ω^{-jk}]
// fr_coset_ntt: in = [g, v_0..v_{n-1}], out = [V_k = Σ_j v_j (g ω^k)^j]
// n a power of two, ω = ω_n = 7^((r-1)/n), all values Fr (32-byte LE, < r); out
// holds n values. The answer is a naive O(n²) DFT in plain BigInt; noble's FFT
// (rootsOfUnity(Fr, 7)) must agree.
const nobleFft = FFT(rootsOfUnity(Fr, 7n), Fr);
function omegaN(n) {
  assert(n >= 1 && (n & (n - 1)) === 0, 'omega: n');
  const w = Fr.pow(7n, (R - 1n) / BigInt(n));
  assert(Fr.pow(w, BigInt(n)) === 1n && (n === 1 || Fr.pow(w, BigInt(n / 2)) === R - 1n), 'omega order');
  return w;
}
// Σ_j a_j w^{s·j·k} for every k (s = ±1), by table lookup of w^((j·k) mod n)
function naiveDft(a, w, s) {
  const n = a.length;
  const W = [1n];
  for (let m = 1; m < n; m++) W.push((W[m - 1] * w) % R);
  const out = [];
  for (let k = 0; k < n; k++) {
    let acc = 0n;
    for (let j = 0; j < n; j++) {
      const e = (j * k) % n;
      acc += a[j] * W[s > 0 || e === 0 ? e : n - e];
    }
    out.push(acc % R);
  }
  return out;
}
const nttOf = (v) => {
  const out = naiveDft(v, omegaN(v.length), 1);
  assert(JSON.stringify(out.map(String)) === JSON.stringify(nobleFft.direct(v).map(String)), 'ntt vs noble');
  return out;
};
const inttOf = (V) => {
  const ni = Fr.inv(BigInt(V.length));
  const out = naiveDft(V, omegaN(V.length), -1).map((x) => (x * ni) % R);
  assert(JSON.stringify(out.map(String)) === JSON.stringify(nobleFft.inverse(V).map(String)), 'intt vs noble');
  return out;
};
const cosetOf = (g, v) => {
  const gp = [1n];
  for (let j = 1; j < v.length; j++) gp.push((gp[j - 1] * g) % R);
  const out = naiveDft(v.map((x, j) => (x * gp[j]) % R), omegaN(v.length), 1);
  // noble: evaluate by Horner at the n points directly (cheap cross-check for small n)
  if (v.length <= 64) {
    const w = omegaN(v.length);
    for (let kk = 0, x = g; kk < v.length; kk++, x = Fr.mul(x, w)) {
      let acc = Fr.ZERO;
      for (let j = v.length - 1; j >= 0; j--) acc = Fr.add(Fr.mul(acc, x), v[j]);
      assert(acc === out[kk], 'coset vs horner');
    }
  }
  return out;
};
// largest log2(n) of the one-random-case-per-size sweep (keeps the file near 2 MB)
const NTT_MAX_LOG = { fr_ntt: 10, fr_intt: 9, fr_coset_ntt: 8 };
{
  const rv = (n) => Array.from({ length: n }, () => randFr());
  const delta = (n, i = 0) => Array.from({ length: n }, (_, j) => (j === i ? 1n : 0n));
  const fill = (n, c) => Array(n).fill(c);
  const hx = (a) => a.map((x) => frHex(x));
  const eqv = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  const nttErrs = (op, pre) => {
    emitErr(op, [...pre]);                              // n = 0
    emitErr(op, [...pre, ...hx(rv(3))]);                // n = 3
    emitErr(op, [...pre, ...hx(rv(6))]);                // n = 6
    emitErr(op, [...pre, ...hx(rv(5))]);                // n = 5
    emitErr(op, [...pre, ...hx([randFr(), R, randFr(), randFr()])]); // a value = r
    emitErr(op, [...pre, ...hx([randFr(), TWO256 - 1n])]);
    emitErr(op, [...pre, frHex(R - 1n + R)]);           // n = 1, value ≥ r
    { const a = [...pre, ...hx(rv(8))]; a[a.length - 1] = a[a.length - 1].slice(0, 62); emitErr(op, a); } // 31-byte value
  };

  { // ---- fr_ntt
    const op = 'fr_ntt';
    rng = new Prng(args.seed, op);
    const em = (v, expect) => { const out = nttOf(v); if (expect) assert(eqv(out, expect), `${op} construction`); emit(op, hx(v), hx(out)); };
    for (let e = 0; e <= NTT_MAX_LOG[op]; e++) em(rv(1 << e));
    em([0n], [0n]); em([1n], [1n]); em([R - 1n], [R - 1n]);
    { const a = randFr(), b = randFr(); em([a, b], [Fr.add(a, b), Fr.sub(a, b)]); }
    em([1n, R - 1n], [0n, 2n]);
    em(delta(8), fill(8, 1n));                          // δ_0 → all ones
    { const w = omegaN(8); em(delta(8, 1), Array.from({ length: 8 }, (_, kk) => Fr.pow(w, BigInt(kk)))); }
    { const c = randFr(); em(fill(16, c), [Fr.mul(16n, c), ...fill(15, 0n)]); }
    em(fill(4, 0n), fill(4, 0n));
    em(fill(32, R - 1n));
    { // v_j = ω^{-j}: V = n·δ_1
      const n = 16, wi = Fr.inv(omegaN(n));
      em(Array.from({ length: n }, (_, j) => Fr.pow(wi, BigInt(j))), [0n, 16n, ...fill(14, 0n)]);
    }
    em(Array.from({ length: 32 }, (_, j) => BigInt(j)));
    em(rv(64).map((x) => (rng.int(10) < 9 ? 0n : x)));  // sparse
    for (let i = 0; i < N; i++) em(rv(1 << rng.int(7)));
    nttErrs(op, []);
  }
  { // ---- fr_intt
    const op = 'fr_intt';
    rng = new Prng(args.seed, op);
    const em = (V, expect) => { const out = inttOf(V); if (expect) assert(eqv(out, expect), `${op} construction`); emit(op, hx(V), hx(out)); };
    for (let e = 0; e <= NTT_MAX_LOG[op]; e++) em(rv(1 << e));
    em([0n], [0n]); em([1n], [1n]); em([R - 1n], [R - 1n]);
    { const a = randFr(), b = randFr(), h = Fr.inv(2n); em([a, b], [Fr.mul(Fr.add(a, b), h), Fr.mul(Fr.sub(a, b), h)]); }
    em(fill(8, 1n), delta(8));                          // all ones → δ_0
    em([8n, ...fill(7, 0n)], fill(8, 1n));
    { const c = randFr(); em(fill(16, c), [c, ...fill(15, 0n)]); }
    em(fill(4, 0n), fill(4, 0n));
    em(fill(32, R - 1n));
    { const v = rv(32); em(nttOf(v), v); }              // round trip
    for (let i = 0; i < N; i++) em(rv(1 << rng.int(7)));
    nttErrs(op, []);
  }
  { // ---- fr_coset_ntt
    const op = 'fr_coset_ntt';
    rng = new Prng(args.seed, op);
    const em = (g, v, expect) => { const out = cosetOf(g, v); if (expect) assert(eqv(out, expect), `${op} construction`); emit(op, [frHex(g), ...hx(v)], hx(out)); };
    for (let e = 0; e <= NTT_MAX_LOG[op]; e++) em(7n, rv(1 << e));   // bellperson's coset: g = 7
    for (const n of [1, 8, 64]) { const v = rv(n); em(1n, v, nttOf(v)); } // g = 1: plain NTT
    for (const n of [1, 4, 32, 128]) em(randFrNZ(), rv(n));
    em(R - 1n, rv(8));
    em(7n, delta(16), fill(16, 1n));                    // δ_0 → all ones, any g
    { const g = randFrNZ(), w = omegaN(8); em(g, delta(8, 1), Array.from({ length: 8 }, (_, kk) => Fr.mul(g, Fr.pow(w, BigInt(kk))))); }
    for (const n of [8, 64]) em(omegaN(2 * n), rv(n));  // snarkjs-style odd coset: g = ω_{2n}
    { // g = ω_n: the coset is the subgroup itself, out = NTT rotated by one
      const v = rv(16), V = nttOf(v);
      em(omegaN(16), v, V.map((_, kk) => V[(kk + 1) % 16]));
    }
    em(5n, rv(16));
    for (let i = 0; i < N; i++) em(randFrNZ(), rv(1 << rng.int(7)));
    // errors: shift 0, shift not canonical, missing shift, and the fr_ntt errors after g = 7
    emitErr(op, [frHex(0n), ...hx(rv(4))]);
    emitErr(op, [frHex(0n)]);
    emitErr(op, [frHex(R), ...hx(rv(4))]);
    emitErr(op, [frHex(R + 7n), ...hx(rv(2))]);
    emitErr(op, [scHex(TWO256 - 1n), ...hx(rv(1))]);
    emitErr(op, []);                                    // no shift at all
    nttErrs(op, [frHex(7n)]);
  }
}

// ---------------------------------------------------------------- finish
const text = lines.join('\n') + '\n';
if (args.out) writeFileSync(args.out, text);
else process.stdout.write(text);

let total = 0;
for (const [op, c] of counts) {
  process.stderr.write(`  ${op.padEnd(26)} ok=${String(c.ok).padStart(4)} err=${String(c.err).padStart(3)}\n`);
  total += c.ok + c.err;
}
process.stderr.write(`total ${total} cases, ${text.length} bytes\n`);
for (const d of disagreements) process.stderr.write(`NOTE: ${d}\n`);
