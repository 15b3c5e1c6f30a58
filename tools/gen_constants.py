#!/usr/bin/env python3
"""Recompute every BLS12-381 constant that cuzk's field and curve layers use.

Writes src/field/constants.h and src/field/constants.c (both say "generated").
Nothing here is copied: each value is derived below from the curve parameter
x = -0xd201000000010000 and checked (group orders, roots, endomorphisms) before
it is written.  Run:  python3 tools/gen_constants.py [--check]
--check regenerates into memory and exits non-zero if the committed files differ.
"""
import os
import sys

# ---- the curve parameter and the primes it defines --------------------------
X = -0xD201000000010000
P = (X - 1) ** 2 * (X**4 - X**2 + 1) // 3 + X  # base field modulus
R = X**4 - X**2 + 1                            # prime group order (scalar field)
assert P % 4 == 3 and P.bit_length() == 381 and R.bit_length() == 255
assert pow(2, P - 1, P) == 1 and pow(3, R - 1, R) == 1  # Fermat witnesses
H1 = (X - 1) ** 2 // 3                          # G1 cofactor
assert (P + 1 - (X + 1)) == H1 * R              # #E(Fp) = p + 1 - t, t = x + 1

FP_LIMBS, FR_LIMBS = 6, 4
RP = pow(2, 64 * FP_LIMBS, P)                   # Montgomery R for Fp
RR = pow(2, 64 * FR_LIMBS, R)                   # Montgomery R for Fr


def limbs(v, n):
    return [(v >> (64 * i)) & (2**64 - 1) for i in range(n)]


def mont_p(v):
    return v * RP % P


def mont_r(v):
    return v * RR % R


# ---- Fp2 = Fp[u]/(u^2 + 1) as pairs (c0, c1) ---------------------------------
def f2mul(a, b):
    return ((a[0] * b[0] - a[1] * b[1]) % P, (a[0] * b[1] + a[1] * b[0]) % P)


def f2add(a, b):
    return ((a[0] + b[0]) % P, (a[1] + b[1]) % P)


def f2sub(a, b):
    return ((a[0] - b[0]) % P, (a[1] - b[1]) % P)


def f2pow(a, e):
    out = (1, 0)
    while e:
        if e & 1:
            out = f2mul(out, a)
        a = f2mul(a, a)
        e >>= 1
    return out


def f2inv(a):
    n = (a[0] * a[0] + a[1] * a[1]) % P
    ni = pow(n, P - 2, P)
    return (a[0] * ni % P, (-a[1]) * ni % P)


def f2conj(a):  # Frobenius on Fp2 = conjugation, since u^p = -u
    return (a[0], (-a[1]) % P)


XI = (1, 1)  # the non-residue u + 1 that builds Fp6 and Fp12

# ---- elliptic curve arithmetic (affine, None = infinity) over Fp or Fp2 -----
class Ops:
    def __init__(self, add, sub, mul, inv, zero, one):
        self.add, self.sub, self.mul, self.inv, self.zero, self.one = add, sub, mul, inv, zero, one


OPS1 = Ops(lambda a, b: (a + b) % P, lambda a, b: (a - b) % P, lambda a, b: a * b % P,
           lambda a: pow(a, P - 2, P), 0, 1)
OPS2 = Ops(f2add, f2sub, f2mul, f2inv, (0, 0), (1, 0))


def ec_add(o, p1, p2):
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    (x1, y1), (x2, y2) = p1, p2
    if x1 == x2:
        if o.add(y1, y2) == o.zero:
            return None
        three_x2 = o.mul(o.add(o.add(o.one, o.one), o.one), o.mul(x1, x1))
        lam = o.mul(three_x2, o.inv(o.add(y1, y1)))
    else:
        lam = o.mul(o.sub(y2, y1), o.inv(o.sub(x2, x1)))
    x3 = o.sub(o.sub(o.mul(lam, lam), x1), x2)
    return (x3, o.sub(o.mul(lam, o.sub(x1, x3)), y1))


def ec_neg(o, pt):
    return None if pt is None else (pt[0], o.sub(o.zero, pt[1]))


def ec_mul(o, pt, k):
    if k < 0:
        return ec_mul(o, ec_neg(o, pt), -k)
    acc = None
    while k:
        if k & 1:
            acc = ec_add(o, acc, pt)
        pt = ec_add(o, pt, pt)
        k >>= 1
    return acc


# ---- generators (the standard ones, as in the zcash/IETF specifications) ----
G1X = 0x17F1D3A73197D7942695638C4FA9AC0FC3688C4F9774B905A14E3A3F171BAC586C55E83FF97A1AEFFB3AF00ADB22C6BB
G1Y = 0x08B3F481E3AAA0F1A09E30ED741D8AE4FCF5E095D5D00AF600DB18CB2C04B3EDD03CC744A2888AE40CAA232946C5E7E1
G2X = (0x024AA2B2F08F0A91260805272DC51051C6E47AD4FA403B02B4510B647AE3D1770BAC0326A805BBEFD48056C8C121BDB8,
       0x13E02B6052719F607DACD3A088274F65596BD0D09920B61AB5DA61BBDC7F5049334CF11213945D57E5AC7D055D042B7E)
G2Y = (0x0CE5D527727D6E118CC9CDC6DA2E351AADFD9BAA8CBDD3A76D429A695160D12C923AC9CC3BACA289E193548608B82801,
       0x0606C4A02EA734CC32ACD2B02BC28B99CB3E287E85A763AF267492AB572E99AB3F370D275CEC1DA1AAA9075FF05F79BE)
B1 = 4
B2 = (4, 4)  # 4(u + 1)
assert (G1Y * G1Y - G1X**3 - B1) % P == 0
assert f2sub(f2mul(G2Y, G2Y), f2add(f2mul(G2X, f2mul(G2X, G2X)), B2)) == (0, 0)
assert ec_mul(OPS1, (G1X, G1Y), R) is None
assert ec_mul(OPS2, (G2X, G2Y), R) is None

# ---- Fr: 2-adicity, generator 7, root of unity ------------------------------
S = 0
T = R - 1
while T % 2 == 0:
    S, T = S + 1, T // 2
assert S == 32
FR_GEN = 7
assert pow(FR_GEN, (R - 1) // 2, R) == R - 1  # 7 is a non-residue, so 7^T has order 2^32
FR_ROOT = pow(FR_GEN, T, R)
assert pow(FR_ROOT, 2**31, R) == R - 1

# ---- G1 endomorphism phi(x, y) = (beta x, y) with phi(P) = -[x^2] P on G1 ---
g1 = (G1X, G1Y)
minus_x2_g1 = ec_neg(OPS1, ec_mul(OPS1, g1, X * X))
BETA = None
for cand in (pow(2, (P - 1) // 3, P), pow(2, 2 * (P - 1) // 3, P)):
    assert pow(cand, 3, P) == 1 and cand != 1
    if (cand * G1X % P, G1Y) == minus_x2_g1:
        BETA = cand
assert BETA is not None

# ---- G2 untwist-Frobenius-twist psi(x, y) = (cx * conj(x), cy * conj(y)) ----
PSI_CX = f2inv(f2pow(XI, (P - 1) // 3))
PSI_CY = f2inv(f2pow(XI, (P - 1) // 2))
g2 = (G2X, G2Y)
psi_g2 = (f2mul(PSI_CX, f2conj(G2X)), f2mul(PSI_CY, f2conj(G2Y)))
assert psi_g2 == ec_mul(OPS2, g2, X)  # psi(P) = [x] P exactly on G2

# ---- Frobenius coefficients of the tower ------------------------------------
# Fp6 = Fp2[v]/(v^3 - xi): (v^k)^(p^i) = xi^(k (p^i - 1)/3) v^k.
# Fp12 = Fp6[w]/(w^2 - v): w^(p^i) = xi^((p^i - 1)/6) w.
FROB6_C1 = [f2pow(XI, (P**i - 1) // 3) for i in range(6)]
FROB6_C2 = [f2pow(XI, 2 * (P**i - 1) // 3) for i in range(6)]
FROB12_C1 = [f2pow(XI, (P**i - 1) // 6) for i in range(12)]

# ---- output -------------------------------------------------------------------
def c_limbs(v, n):
    return "{{" + ", ".join("0x%016xULL" % l for l in limbs(v, n)) + "}}"


def c_fp(v):
    return c_limbs(mont_p(v), FP_LIMBS)


def c_fp2(v):
    return "{" + c_fp(v[0]) + ", " + c_fp(v[1]) + "}"


def c_fr(v):
    return c_limbs(mont_r(v), FR_LIMBS)


HEADER_NOTE = "/* Generated by tools/gen_constants.py -- do not edit; rerun the script. */\n/* clang-format off */\n"


def render():
    inv_p = (-pow(P, -1, 2**64)) % 2**64
    inv_r = (-pow(R, -1, 2**64)) % 2**64
    h = [HEADER_NOTE,
         "/* Every value is derived in the script from x = -0xd201000000010000. */\n",
         "#ifndef CUZK_FIELD_CONSTANTS_H\n#define CUZK_FIELD_CONSTANTS_H\n\n",
         '#include "field/fp.h"\n#include "field/fr.h"\n#include "field/fp2.h"\n\n',
         "/* p = (x-1)^2 (x^4-x^2+1)/3 + x, little-endian 64-bit limbs */\n"]
    for i, l in enumerate(limbs(P, 6)):
        h.append("#define FP_MOD%d 0x%016xULL\n" % (i, l))
    h.append("/* -p^-1 mod 2^64, for Montgomery reduction */\n#define FP_INV 0x%016xULL\n" % inv_p)
    h.append("/* r = x^4 - x^2 + 1 */\n")
    for i, l in enumerate(limbs(R, 4)):
        h.append("#define FR_MOD%d 0x%016xULL\n" % (i, l))
    h.append("/* -r^-1 mod 2^64 */\n#define FR_INV 0x%016xULL\n" % inv_r)
    h.append("/* 2-adicity of r - 1 */\n#define FR_TWO_ADICITY %d\n" % S)
    h.append("/* multiplicative generator of Fr^* used for roots of unity and cosets */\n"
             "#define FR_GENERATOR %d\n\n" % FR_GEN)
    h.append("/* BLS parameter |x| (x itself is negative) */\n#define BLS_X_ABS 0x%016xULL\n\n" % -X)
    decls = [
        ("fp", "FP_MODULUS_RAW", "p as a plain (non-Montgomery) number"),
        ("fp", "FP_ONE", "1 in Montgomery form (2^384 mod p)"),
        ("fp", "FP_R2", "2^768 mod p: canonical -> Montgomery"),
        ("fr", "FR_MODULUS_RAW", "r as a plain number"),
        ("fr", "FR_ONE", "1 in Montgomery form (2^256 mod r)"),
        ("fr", "FR_R2", "2^512 mod r"),
        ("fr", "FR_ROOT_OF_UNITY", "7^((r-1)/2^32): a primitive 2^32-th root of unity"),
        ("fp", "G1_B", "curve constant b = 4"),
        ("fp", "G1_GEN_X", "G1 generator x"),
        ("fp", "G1_GEN_Y", "G1 generator y"),
        ("fp", "G1_BETA", "cube root of unity with (beta x, y) = -[x^2](x, y) on G1"),
        ("fp2", "G2_B", "twist constant b' = 4(u + 1)"),
        ("fp2", "G2_GEN_X", "G2 generator x"),
        ("fp2", "G2_GEN_Y", "G2 generator y"),
        ("fp2", "G2_PSI_CX", "1/(u+1)^((p-1)/3): psi's x coefficient"),
        ("fp2", "G2_PSI_CY", "1/(u+1)^((p-1)/2): psi's y coefficient"),
        ("fp", "FP_EXP_INV", "p - 2 (plain): Fermat inverse exponent"),
        ("fp", "FP_EXP_SQRT", "(p + 1)/4 (plain): square root exponent, p = 3 mod 4"),
        ("fp", "FP_EXP_LEGENDRE", "(p - 1)/2 (plain): Euler's criterion exponent"),
        ("fp", "FP_EXP_SQRT_FP2", "(p - 3)/4 (plain): Fp2 square root exponent"),
        ("fr", "FR_EXP_INV", "r - 2 (plain): Fermat inverse exponent"),
    ]
    for t, name, why in decls:
        h.append("/* %s */\nextern const %s %s;\n" % (why, t, name))
    h.append("/* (u+1)^((p^i - 1)/3), (u+1)^(2(p^i - 1)/3): Fp6 Frobenius, i = 0..5 */\n"
             "extern const fp2 FP6_FROB_C1[6];\nextern const fp2 FP6_FROB_C2[6];\n")
    h.append("/* (u+1)^((p^i - 1)/6): Fp12 Frobenius, i = 0..11 */\n"
             "extern const fp2 FP12_FROB_C1[12];\n")
    h.append("\n#endif\n")

    c = [HEADER_NOTE, '#include "field/constants.h"\n\n']
    raw = lambda v, n: c_limbs(v, n)
    vals = {
        "FP_MODULUS_RAW": raw(P, 6), "FP_ONE": c_fp(1), "FP_R2": raw(RP * RP % P, 6),
        "FR_MODULUS_RAW": raw(R, 4), "FR_ONE": c_fr(1), "FR_R2": raw(RR * RR % R, 4),
        "FR_ROOT_OF_UNITY": c_fr(FR_ROOT), "G1_B": c_fp(B1), "G1_GEN_X": c_fp(G1X),
        "G1_GEN_Y": c_fp(G1Y), "G1_BETA": c_fp(BETA), "G2_B": c_fp2(B2),
        "G2_GEN_X": c_fp2(G2X), "G2_GEN_Y": c_fp2(G2Y), "G2_PSI_CX": c_fp2(PSI_CX),
        "G2_PSI_CY": c_fp2(PSI_CY), "FP_EXP_INV": raw(P - 2, 6),
        "FP_EXP_SQRT": raw((P + 1) // 4, 6), "FP_EXP_LEGENDRE": raw((P - 1) // 2, 6),
        "FP_EXP_SQRT_FP2": raw((P - 3) // 4, 6), "FR_EXP_INV": raw(R - 2, 4),
    }
    for t, name, _ in decls:
        c.append("const %s %s = %s;\n" % (t, name, vals[name]))
    for name, arr in (("FP6_FROB_C1", FROB6_C1), ("FP6_FROB_C2", FROB6_C2), ("FP12_FROB_C1", FROB12_C1)):
        c.append("const fp2 %s[%d] = {\n" % (name, len(arr)))
        for v in arr:
            c.append("    %s,\n" % c_fp2(v))
        c.append("};\n")
    return "".join(h), "".join(c)


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    h, c = render()
    paths = {os.path.join(root, "src/field/constants.h"): h, os.path.join(root, "src/field/constants.c"): c}
    if "--check" in sys.argv:
        bad = [p for p, txt in paths.items() if not os.path.exists(p) or open(p).read() != txt]
        for p in bad:
            print("out of date: %s" % p)
        sys.exit(1 if bad else 0)
    for p, txt in paths.items():
        with open(p, "w") as f:
            f.write(txt)
    print("wrote src/field/constants.h, src/field/constants.c")


if __name__ == "__main__":
    main()
