#!/usr/bin/env python3
"""Write src/cuda/field_ptx_gen.cuh: the device's Fp and Fr add, subtract and
Montgomery multiply, each as ONE inline-asm block of PTX carry chains.

Why one block: written as one asm statement per instruction (a multiply is
about 580 of them), NVIDIA's front end (cicc) takes time that grows faster
than linearly with the statements in a kernel, and the G2 MSM file spent far
longer there than in anything else.  One block per operation hands the same instruction
stream to ptxas, which allocates and schedules it as before, and cicc's time
becomes small (docs/PERFORMANCE.md, "Builds in minutes").

Each operation is emitted from one instruction list in two forms: the asm
block (cz_mul_fp, ...) and one call per instruction (cz_mul_fp_i, ...), to
field_ptx.cuh's one-instruction asm functions on the device and to its CPU
model of the same instructions in the model tests (CZ_PTX_EMULATE:
tests/unit/cuda/ptx_model.cu and curve_model.cu run them against the CPU
field).  The per-instruction form costs cicc far more, but gives ptxas room
to interleave the loads and the chains: the G2 MSM's bucket kernel, the one
kernel where that was measured faster (fewer spills), uses it.  The moduli
come from tools/gen_constants.py (derived from the curve parameter x).

Algorithms (limbs of 32 bits, N = 12 for Fp, 8 for Fr):
  add: t = a + b (no carry out: a + b < 2p < 2^(32N)), then t - p if t >= p.
  sub: t = a - b, plus p where that borrowed.
  mul: CIOS Montgomery with the running value T in two accumulators, T = E +
       O 2^32: E takes the products of the even limbs of a, O those of the odd
       limbs, so the two carry chains of a half row share no register and
       ptxas can run them side by side.  Row 0 is plain products.  Each row's
       reduction adds m p (m = -T_0 / p mod 2^32), E by p's even limbs and O
       by its odd ones.  Fr's p ends in 2^64 - 2^32 + 1 with -1/p = -1 mod
       2^32: m = -e0, and the products of those two limbs are adds (lo(1 m) =
       m, lo((2^32 - 1) m) = e0, hi((2^32 - 1) m) = m - [m != 0]).  Between
       rows T / 2^32 = E[1..N] + O[0..N-1]: the new O is E[2..N] (from
       position 1), the new E is O plus E[1].  With a, b < p and T < 2p,
       T + a b_i + m p < 2^(32(N+1)), so N + 1 limbs hold every row; the end,
       T / 2^32 < 2p, takes one conditional subtraction.

Run:  python3 tools/gen_ptx_field.py [--check]
--check regenerates into memory and exits non-zero if the committed file differs.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_constants  # noqa: E402  (the moduli, derived and checked there)

OUT = "src/cuda/field_ptx_gen.cuh"


def limbs32(v, n):
    return [(v >> (32 * i)) & 0xFFFFFFFF for i in range(n)]


class Emitter:
    """An instruction list over symbolic operands: ('a', i) and ('b', i) the
    inputs, ('r', i) the outputs, ('t', k) temporaries, ('imm', v) constants."""

    def __init__(self):
        self.ops = []  # (opcode, dest, args)
        self.ntemp = 0

    def op(self, code, *args):
        d = ("t", self.ntemp)
        self.ntemp += 1
        self.ops.append((code, d, args))
        return d

    def to(self, dest, code, *args):
        self.ops.append((code, dest, args))


def imm(v):
    return ("imm", v)


def A(i):
    return ("a", i)


def B(i):
    return ("b", i)


ZERO = imm(0)


def cond_sub_p(em, t, p):
    """r = t - p if t >= p else t (t < 2p)."""
    n = len(p)
    d = [em.op("sub.cc.u32", t[0], imm(p[0]))]
    for i in range(1, n):
        d.append(em.op("subc.cc.u32", t[i], imm(p[i])))
    borrow = em.op("subc.u32", ZERO, ZERO)  # all ones when t < p
    q = em.op("setp.ne.u32", borrow, ZERO)
    for i in range(n):
        em.to(("r", i), "selp.b32", t[i], d[i], q)


def gen_add(p):
    em, n = Emitter(), len(p)
    t = [em.op("add.cc.u32", A(0), B(0))]
    for i in range(1, n - 1):
        t.append(em.op("addc.cc.u32", A(i), B(i)))
    t.append(em.op("addc.u32", A(n - 1), B(n - 1)))
    cond_sub_p(em, t, p)
    return em


def gen_sub(p):
    em, n = Emitter(), len(p)
    t = [em.op("sub.cc.u32", A(0), B(0))]
    for i in range(1, n):
        t.append(em.op("subc.cc.u32", A(i), B(i)))
    mask = em.op("subc.u32", ZERO, ZERO)  # all ones on borrow: add p back
    pm = [em.op("and.b32", mask, imm(p[i])) for i in range(n)]
    em.to(("r", 0), "add.cc.u32", t[0], pm[0])
    for i in range(1, n - 1):
        em.to(("r", i), "addc.cc.u32", t[i], pm[i])
    em.to(("r", n - 1), "addc.u32", t[n - 1], pm[n - 1])
    return em


def gen_mul(p, n0):
    em, n = Emitter(), len(p)
    assert n % 2 == 0 and n >= 4
    special = p[0] == 1 and p[1] == 0xFFFFFFFF and n0 == 0xFFFFFFFF

    def redc(E, O):
        e0 = E[0]
        if special:
            m = em.op("sub.u32", ZERO, e0)
            q = em.op("setp.ne.u32", e0, ZERO)
            ne = em.op("not.b32", e0)
            h1 = em.op("selp.b32", ne, ZERO, q)  # hi((2^32 - 1) m): m - 1, or 0 when m = 0
            E[0] = em.op("add.cc.u32", e0, m)  # 0, carry e0 != 0
            E[1] = em.op("addc.cc.u32", E[1], ZERO)
        else:
            m = em.op("mul.lo.u32", e0, imm(n0))
            E[0] = em.op("mad.lo.cc.u32", m, imm(p[0]), e0)
            E[1] = em.op("madc.hi.cc.u32", m, imm(p[0]), E[1])
        for j in range(2, n, 2):
            E[j] = em.op("madc.lo.cc.u32", m, imm(p[j]), E[j])
            E[j + 1] = em.op("madc.hi.cc.u32", m, imm(p[j]), E[j + 1])
        E[n] = em.op("addc.u32", E[n], ZERO)
        if special:
            O[0] = em.op("add.cc.u32", O[0], e0)
            O[1] = em.op("addc.cc.u32", O[1], h1)
        else:
            O[0] = em.op("mad.lo.cc.u32", m, imm(p[1]), O[0])
            O[1] = em.op("madc.hi.cc.u32", m, imm(p[1]), O[1])
        for j in range(3, n - 1, 2):
            O[j - 1] = em.op("madc.lo.cc.u32", m, imm(p[j]), O[j - 1])
            O[j] = em.op("madc.hi.cc.u32", m, imm(p[j]), O[j])
        O[n - 2] = em.op("madc.lo.cc.u32", m, imm(p[n - 1]), O[n - 2])
        O[n - 1] = em.op("madc.hi.u32", m, imm(p[n - 1]), O[n - 1])  # no carry out

    E, O = [None] * (n + 1), [None] * n
    for j in range(0, n, 2):
        E[j] = em.op("mul.lo.u32", A(j), B(0))
        E[j + 1] = em.op("mul.hi.u32", A(j), B(0))
        O[j] = em.op("mul.lo.u32", A(j + 1), B(0))
        O[j + 1] = em.op("mul.hi.u32", A(j + 1), B(0))
    E[n] = ZERO
    redc(E, O)
    for i in range(1, n):
        bi, e, o = B(i), [None] * (n + 1), [None] * n
        e[0] = em.op("add.cc.u32", O[0], E[1])  # position 0; its carry goes to position 1
        o[0] = em.op("madc.lo.cc.u32", A(1), bi, E[2])
        o[1] = em.op("madc.hi.cc.u32", A(1), bi, E[3])
        for j in range(3, n - 1, 2):
            o[j - 1] = em.op("madc.lo.cc.u32", A(j), bi, E[j + 1])
            o[j] = em.op("madc.hi.cc.u32", A(j), bi, E[j + 2])
        o[n - 2] = em.op("madc.lo.cc.u32", A(n - 1), bi, E[n])
        o[n - 1] = em.op("madc.hi.u32", A(n - 1), bi, ZERO)
        e[0] = em.op("mad.lo.cc.u32", A(0), bi, e[0])
        e[1] = em.op("madc.hi.cc.u32", A(0), bi, O[1])
        for j in range(2, n, 2):
            e[j] = em.op("madc.lo.cc.u32", A(j), bi, O[j])
            e[j + 1] = em.op("madc.hi.cc.u32", A(j), bi, O[j + 1])
        e[n] = em.op("addc.u32", ZERO, ZERO)
        E, O = e, o
        redc(E, O)
    s = [em.op("add.cc.u32", E[1], O[0])]  # T / 2^32 < 2p < 2^(32N): no carry out
    for j in range(1, n - 1):
        s.append(em.op("addc.cc.u32", E[j + 1], O[j]))
    s.append(em.op("addc.u32", E[n], O[n - 1]))
    cond_sub_p(em, s, p)
    return em


# ---- rendering ----------------------------------------------------------------

def asm_operand(x, n):
    kind, v = x
    if kind == "imm":
        return "0x%08x" % v if v else "0"
    if kind == "t":
        return "t%d" % v
    if kind == "r":
        return "%%%d" % v
    return "%%%d" % ((n if kind == "a" else 2 * n) + v)


def render_asm(name, em, n):
    preds = {d for code, d, _ in em.ops if code.startswith("setp")}
    lines = []
    for code, d, args in em.ops:
        dest = ("q%d" % d[1]) if d in preds else asm_operand(d, n)
        ops = [("q%d" % a[1]) if a in preds else asm_operand(a, n) for a in args]
        lines.append("%s %s, %s;" % (code, dest, ", ".join(ops)))
    nt = em.ntemp
    decl = "\\t.reg .u32 t<%d>;\\n" % nt
    decl += "".join("\\t.reg .pred q%d;\\n" % p[1] for p in sorted(preds))
    body = "\n".join('        "\\t%s\\n"' % ln for ln in lines)
    outs = ", ".join('"=r"(r[%d])' % i for i in range(n))
    ins = ", ".join(['"r"(a[%d])' % i for i in range(n)] + ['"r"(b[%d])' % i for i in range(n)])
    return ("static __device__ __forceinline__ void %s(uint32_t *r, const uint32_t *a,\n"
            "%s const uint32_t *b) {\n"
            '    asm volatile("{\\n"\n        "%s"\n%s\n        "}"\n'
            "                 : %s\n                 : %s);\n}\n"
            % (name, " " * (len(name) + 35), decl, body, outs, ins))


EMU = {
    "add.cc.u32": "add_cc", "addc.cc.u32": "addc_cc", "addc.u32": "addc",
    "sub.cc.u32": "sub_cc", "subc.cc.u32": "subc_cc", "subc.u32": "subc",
    "mul.lo.u32": "mul_lo", "mul.hi.u32": "mul_hi", "mad.lo.cc.u32": "mad_lo_cc",
    "madc.lo.cc.u32": "madc_lo_cc", "madc.hi.cc.u32": "madc_hi_cc", "madc.hi.u32": "madc_hi",
}


def c_operand(x):
    kind, v = x
    if kind == "imm":
        return "0x%08xu" % v
    if kind == "t":
        return "t%d" % v
    return "%s[%d]" % (kind, v)


def render_inst(name, em, qual):
    lines = []
    for code, d, args in em.ops:
        a = [c_operand(x) for x in args]
        if code in EMU:
            rhs = "%s(%s)" % (EMU[code], ", ".join(a))
        elif code == "sub.u32":
            rhs = "%s - %s" % (a[0], a[1])
        elif code == "not.b32":
            rhs = "~%s" % a[0]
        elif code == "and.b32":
            rhs = "%s & %s" % (a[0], a[1])
        elif code == "setp.ne.u32":
            rhs = "%s != %s ? 1u : 0u" % (a[0], a[1])
        elif code == "selp.b32":
            rhs = "%s ? %s : %s" % (a[2], a[0], a[1])
        else:
            raise ValueError(code)
        lhs = c_operand(d) if d[0] == "r" else "const uint32_t %s" % c_operand(d)
        lines.append("    %s = %s;" % (lhs, rhs))
    return ("%s void %s(uint32_t *r, const uint32_t *a, const uint32_t *b) {\n%s\n}\n"
            % (qual, name, "\n".join(lines)))


def render():
    p_fp = limbs32(gen_constants.P, 12)
    p_fr = limbs32(gen_constants.R, 8)
    n0_fp = (-pow(gen_constants.P, -1, 2**32)) % 2**32
    n0_fr = (-pow(gen_constants.R, -1, 2**32)) % 2**32
    ops = []
    for fname, p, n0 in (("fp", p_fp, n0_fp), ("fr", p_fr, n0_fr)):
        ops.append(("cz_add_" + fname, gen_add(p), len(p)))
        ops.append(("cz_sub_" + fname, gen_sub(p), len(p)))
        ops.append(("cz_mul_" + fname, gen_mul(p, n0), len(p)))
    out = ["/* Generated by tools/gen_ptx_field.py -- do not edit; rerun the script. */\n"
           "/* clang-format off */\n"
           "// Fp and Fr add, subtract and Montgomery multiply as PTX carry chains: one\n"
           "// asm block each (cz_mul_fp) or one call per instruction (cz_mul_fp_i, on the\n"
           "// device and in the CPU model); the script says why and how.  Included by\n"
           "// field_ptx.cuh after the instruction functions.\n"
           "#ifndef CUZK_CUDA_FIELD_PTX_GEN_CUH\n#define CUZK_CUDA_FIELD_PTX_GEN_CUH\n\n"
           "#include <stdint.h>\n\n"
           "// The moduli, the Montgomery ones (R mod p) and -1/p mod 2^32, as 32-bit\n"
           "// limbs (field.cuh's parameter structs read them; the chains embed them).\n"]
    one_fp = limbs32(gen_constants.RP, 12)  # the Montgomery one, R mod p
    one_fr = limbs32(gen_constants.RR, 8)
    for name, v in (("FP_P", p_fp), ("FR_P", p_fr), ("FP_ONE", one_fp), ("FR_ONE", one_fr)):
        out.append("#define CZ_%s {%s}\n" % (name, ", ".join("0x%08xu" % x for x in v)))
    out.append("#define CZ_FP_N0 0x%08xu\n#define CZ_FR_N0 0x%08xu\n\n" % (n0_fp, n0_fr))
    out.append("#ifdef __CUDA_ARCH__\n")
    for name, em, n in ops:
        out.append(render_asm(name, em, n))
    out.append("#define CZ_GEN_INST static __device__ __forceinline__\n"
               "#elif defined(CZ_PTX_EMULATE)\n"
               "#define CZ_GEN_INST static inline\n"
               "#endif\n\n"
               "#ifdef CZ_GEN_INST\n")
    for name, em, n in ops:
        out.append(render_inst(name + "_i", em, "CZ_GEN_INST"))
    out.append("#undef CZ_GEN_INST\n#endif\n\n#endif\n")
    return "".join(out)


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    path = os.path.join(root, OUT)
    txt = render()
    if "--check" in sys.argv:
        if not os.path.exists(path) or open(path).read() != txt:
            print("out of date: %s (rerun tools/gen_ptx_field.py)" % OUT)
            sys.exit(1)
        sys.exit(0)
    with open(path, "w") as f:
        f.write(txt)
    print("wrote %s" % OUT)


if __name__ == "__main__":
    main()
