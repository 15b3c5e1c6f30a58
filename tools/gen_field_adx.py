#!/usr/bin/env python3
"""Write src/field/fp_adx.c (6 limbs) and src/field/fr_adx.c (4 limbs): x86-64
Montgomery multiplication with MULX/ADCX/ADOX (BMI2 + ADX) and ADC/SBB + CMOV
addition and subtraction, from one template with the limb count n as parameter.

Multiply: CIOS over n limbs with two independent carry chains: ADOX carries
through OF and ADCX through CF, so each row's low and high product words are
folded in one pass.  n + 1 accumulator registers t0..tn rotate: after a
reduction row the lowest word is exactly zero and becomes the next row's top
word.  After n rows the result is (tn, t0, ..., t(n-2)) < 2p and t(n-1) is
free; the final subtraction of p needs n scratch registers: lo, hi, rdx,
t(n-1), then the a and b pointers (their last use is behind it; with n = 6
they become read-write operands for that).

Add: add, store the sum, subtract p, and take the stored sum back (CMOVC from
memory) when that borrows.  Sub: subtract, remember the borrow, store the
difference, add p, and take the stored difference back (CMOVZ from memory)
when there was no borrow.  All loads of a and b happen before the first
store, so r may alias either.

The portable twins are mont_mul / the _portable functions (mont.h, fp.c,
fr.c); the field tests compare both on random inputs.  The moduli come from
src/field/constants.h (tools/gen_constants.py).
Run:  python3 tools/gen_field_adx.py [--check]
--check regenerates into memory and exits non-zero if the committed files differ.
"""
import os
import sys

FIELDS = [
    # file, prefix, C type, constant prefix, limbs, has a _sqr_adx, what it is
    ("src/field/fp_adx.c", "fp", "fp", "FP", 6, True, "Fp (381-bit base field)"),
    ("src/field/fr_adx.c", "fr", "fr", "FR", 4, False, "Fr (255-bit scalar field)"),
]


def macro(head, lines):
    """A #define with its backslashes aligned one column after the longest line."""
    rows = [head] + ["    " + s for s in lines]
    width = max(len(r) for r in rows) + 1
    out = [r.ljust(width) + "\\" for r in rows[:-1]] + [rows[-1]]
    return "\n".join(out) + "\n"


def off(j, base):
    """Memory operand for limb j: '0(%[a])' style for pointers, '8+%[q]' for MOD."""
    if base == "q":
        return "%[q]" if j == 0 else "%d+%%[q]" % (8 * j)
    return "%d(%%[%s])" % (8 * j, base)


def row_mul(n):
    T = ["T%d" % k for k in range(n + 1)]
    s = ['"movq " #i "*8(%[b]), %%rdx\\n\\t"', '"xorl %k[lo], %k[lo]\\n\\t"']
    for j in range(n):
        s.append('"mulxq %s, %%[lo], %%[hi]\\n\\t"' % off(j, "a"))
        s.append('"adoxq %%[lo], %%[" #%s "]\\n\\t"' % T[j])
        s.append('"adcxq %%[hi], %%[" #%s "]\\n\\t"' % T[j + 1])
    s.append('"movl $0, %k[lo]\\n\\t"')
    s.append('"adoxq %%[lo], %%[" #%s "]\\n\\t"' % T[n])
    return macro("#define ROW_MUL(i, %s)" % ", ".join(T), s)


def row_red(n):
    T = ["T%d" % k for k in range(n + 1)]
    s = ['"movq %[" #T0 "], %%rdx\\n\\t"', '"imulq %[inv], %%rdx\\n\\t"',
         '"xorl %k[lo], %k[lo]\\n\\t"']
    for j in range(n):
        s.append('"mulxq %s, %%[lo], %%[hi]\\n\\t"' % off(j, "q"))
        s.append('"adcxq %%[lo], %%[" #%s "]\\n\\t"' % T[j])
        s.append('"adoxq %%[hi], %%[" #%s "]\\n\\t"' % T[j + 1])
    s.append('"movl $0, %k[lo]\\n\\t"')
    s.append('"adcxq %%[lo], %%[" #%s "]\\n\\t"' % T[n])
    return macro("#define ROW_RED(%s)" % ", ".join(T), s)


def result_regs(n):
    return ["t%d" % n] + ["t%d" % k for k in range(n - 1)]


def scratch_regs(n):
    regs = ["%[lo]", "%[hi]", "%%rdx", "%%[t%d]" % (n - 1), "%[a]", "%[b]"][:n]
    assert len(regs) == n, "more limbs than scratch registers"
    return regs


def final_sub(n):
    res, scr = result_regs(n), scratch_regs(n)
    s = []
    for j in range(n):
        s.append('"movq %%[%s], %s\\n\\t"' % (res[j], scr[j]))
        s.append('"%s %s, %s\\n\\t"' % ("subq" if j == 0 else "sbbq", off(j, "q"), scr[j]))
    for j in range(n):
        s.append('"cmovncq %s, %%[%s]\\n\\t"' % (scr[j], res[j]))
    return macro("#define FINAL_SUB", s)


def mul_fn(pre, ty, n):
    t = ["t%d" % k for k in range(n + 1)]
    ptr_scratch = n > 4  # FINAL_SUB overwrites the a and b pointers
    out = ["void %s_mul_adx(%s *r, const %s *a, const %s *b) {\n" % (pre, ty, ty, ty)]
    out.append("    uint64_t %s, lo, hi;\n" % ", ".join("%s = 0" % x for x in t))
    if ptr_scratch:
        out.append("    const uint64_t *pa = a->l, *pb = b->l;\n")
    out.append("    __asm__(\n")
    for i in range(n):
        rot = ", ".join(t[(i + k) % (n + 1)] for k in range(n + 1))
        out.append("        ROW_MUL(%d, %s) ROW_RED(%s)\n" % (i, rot, rot))
    out.append("        FINAL_SUB\n")
    outs = ['[%s] "+&r"(%s)' % (x, x) for x in t] + ['[lo] "=&r"(lo)', '[hi] "=&r"(hi)']
    ins = ['[q] "m"(MOD)', '[inv] "m"(MINV)']
    if ptr_scratch:
        outs += ['[a] "+&r"(pa)', '[b] "+&r"(pb)']
    else:
        ins = ['[a] "r"(a->l)', '[b] "r"(b->l)'] + ins
    ins += ['"m"(*(const uint64_t(*)[%d])a->l)' % n, '"m"(*(const uint64_t(*)[%d])b->l)' % n]
    out.append("        : %s\n" % ", ".join(outs))
    out.append("        : %s\n" % ", ".join(ins))
    out.append('        : "rdx", "cc");\n')
    for j, reg in enumerate(result_regs(n)):
        out.append("    r->l[%d] = %s;\n" % (j, reg))
    out.append("}\n")
    return "".join(out)


def addsub_fn(pre, ty, n, sub):
    x = ["x%d" % j for j in range(n)]
    op0, opn = ("subq", "sbbq") if sub else ("addq", "adcq")
    back0, backn = ("addq", "adcq") if sub else ("subq", "sbbq")
    s = []
    for j in range(n):
        s.append("movq %s, %%[%s]" % (off(j, "a"), x[j]))
        s.append("%s %s, %%[%s]" % (op0 if j == 0 else opn, off(j, "b"), x[j]))
    if sub:
        s.append("sbbq %[m], %[m]")
    s += ["movq %%[%s], %s" % (x[j], off(j, "r")) for j in range(n)]
    s += ["%s %s, %%[%s]" % (back0 if j == 0 else backn, off(j, "q"), x[j]) for j in range(n)]
    if sub:
        s.append("testq %[m], %[m]")
    cmov = "cmovzq" if sub else "cmovcq"
    s += ["%s %s, %%[%s]" % (cmov, off(j, "r"), x[j]) for j in range(n)]
    s += ["movq %%[%s], %s" % (x[j], off(j, "r")) for j in range(n)]
    regs = x + (["m"] if sub else [])
    name = "sub" if sub else "add"
    out = ["void %s_%s_x86(%s *r, const %s *a, const %s *b) {\n" % (pre, name, ty, ty, ty)]
    out.append("    uint64_t %s;\n" % ", ".join(regs))
    out.append("    __asm__ volatile(\n")
    out += ['        "%s\\n\\t"\n' % line for line in s]
    out.append("        : %s, \"=m\"(*r)\n" % ", ".join('[%s] "=&r"(%s)' % (v, v) for v in regs))
    out.append('        : [a] "r"(a->l), [b] "r"(b->l), [r] "r"(r->l), [q] "m"(MOD), "m"(*a), "m"(*b)\n')
    out.append('        : "cc");\n')
    out.append("}\n")
    return "".join(out)


def render(pre, ty, cpre, n, sqr, what):
    o = ["/* Generated by tools/gen_field_adx.py -- do not edit; rerun the script. */\n"]
    o.append("/* clang-format off */\n")
    o.append("/* x86-64 assembly for %s, %d limbs: Montgomery multiplication with\n" % (what, n))
    o.append(" * MULX/ADCX/ADOX and ADC/SBB + CMOV addition and subtraction (p: this field's\n")
    o.append(" * modulus); the script says how they work.  Only called when %s.c's dispatch\n" % pre)
    o.append(" * has found BMI2 + ADX. */\n")
    o.append('#include "field/constants.h"\n#include "field/%s.h"\n\n' % pre)
    o.append("#if defined(CUZK_HAVE_X86_ASM)\n\n")
    o.append("static const uint64_t MOD[%d] = {%s};\n"
             % (n, ", ".join("%s_MOD%d" % (cpre, j) for j in range(n))))
    o.append("static const uint64_t MINV = %s_INV;\n\n" % cpre)
    o.append("/* t[T0..T%d] += a * b[i], T%d = 0 on entry. */\n" % (n, n))
    o.append(row_mul(n) + "\n")
    o.append("/* t += m * p with m = t0 * (-p^-1): afterwards T0 = 0 and T1..T%d hold t / 2^64. */\n"
             % n)
    o.append(row_red(n) + "\n")
    res = result_regs(n)
    o.append("/* (%s, %s) < 2p: subtract p and keep the difference unless it borrows\n"
             % (res[0], ", ".join(res[1:])))
    o.append(" * (CMOVNC), using the registers the rows no longer need. */\n")
    o.append(final_sub(n) + "\n")
    o.append(mul_fn(pre, ty, n) + "\n")
    if sqr:
        o.append("void %s_sqr_adx(%s *r, const %s *a) { %s_mul_adx(r, a, a); }\n\n" % (pre, ty, ty, pre))
    o.append("/* r = a + b mod p */\n" + addsub_fn(pre, ty, n, False) + "\n")
    o.append("/* r = a - b mod p */\n" + addsub_fn(pre, ty, n, True) + "\n")
    o.append("#else /* no x86-64 assembly: never selected, kept so the symbols exist */\n\n")
    o.append("void %s_mul_adx(%s *r, const %s *a, const %s *b) { %s_mul_portable(r, a, b); }\n"
             % (pre, ty, ty, ty, pre))
    if sqr:
        o.append("void %s_sqr_adx(%s *r, const %s *a) { %s_mul_portable(r, a, a); }\n" % (pre, ty, ty, pre))
    for op in ("add", "sub"):
        o.append("void %s_%s_x86(%s *r, const %s *a, const %s *b) { %s_%s_portable(r, a, b); }\n"
                 % (pre, op, ty, ty, ty, pre, op))
    o.append("\n#endif\n")
    return "".join(o)


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    paths = {os.path.join(root, f[0]): render(*f[1:]) for f in FIELDS}
    if "--check" in sys.argv:
        bad = [p for p, txt in paths.items() if not os.path.exists(p) or open(p).read() != txt]
        for p in bad:
            print("out of date: %s" % p)
        sys.exit(1 if bad else 0)
    for p, txt in paths.items():
        with open(p, "w") as f:
            f.write(txt)
    print("wrote " + ", ".join(f[0] for f in FIELDS))


if __name__ == "__main__":
    main()
