/* x86-64 assembly for Fp: Montgomery multiplication with MULX/ADCX/ADOX
 * (BMI2 + ADX) and ADC/SBB + CMOV addition and subtraction.
 *
 * CIOS over 6 limbs with two independent carry chains: ADOX carries through
 * OF and ADCX through CF, so each row's low and high product words are folded
 * in one pass.  Seven accumulator registers rotate: after a reduction row the
 * lowest word is exactly zero and becomes the next row's top word.  The
 * portable twin is mont_mul in mont.h; tests compare both on random inputs.
 * Only called when cpu_has_adx_bmi2() says so (see fp.c). */
#include "field/constants.h"
#include "field/fp.h"

#if defined(CUZK_HAVE_X86_ASM)

static const uint64_t MOD[6] = {FP_MOD0, FP_MOD1, FP_MOD2, FP_MOD3, FP_MOD4, FP_MOD5};
static const uint64_t MINV = FP_INV;

/* t[T0..T6] += a * b[i], T6 = 0 on entry. */
#define ROW_MUL(i, T0, T1, T2, T3, T4, T5, T6) \
    "movq " #i "*8(%[b]), %%rdx\n\t"           \
    "xorl %k[lo], %k[lo]\n\t"                  \
    "mulxq 0(%[a]), %[lo], %[hi]\n\t"          \
    "adoxq %[lo], %[" #T0 "]\n\t"              \
    "adcxq %[hi], %[" #T1 "]\n\t"              \
    "mulxq 8(%[a]), %[lo], %[hi]\n\t"          \
    "adoxq %[lo], %[" #T1 "]\n\t"              \
    "adcxq %[hi], %[" #T2 "]\n\t"              \
    "mulxq 16(%[a]), %[lo], %[hi]\n\t"         \
    "adoxq %[lo], %[" #T2 "]\n\t"              \
    "adcxq %[hi], %[" #T3 "]\n\t"              \
    "mulxq 24(%[a]), %[lo], %[hi]\n\t"         \
    "adoxq %[lo], %[" #T3 "]\n\t"              \
    "adcxq %[hi], %[" #T4 "]\n\t"              \
    "mulxq 32(%[a]), %[lo], %[hi]\n\t"         \
    "adoxq %[lo], %[" #T4 "]\n\t"              \
    "adcxq %[hi], %[" #T5 "]\n\t"              \
    "mulxq 40(%[a]), %[lo], %[hi]\n\t"         \
    "adoxq %[lo], %[" #T5 "]\n\t"              \
    "adcxq %[hi], %[" #T6 "]\n\t"              \
    "movl $0, %k[lo]\n\t"                      \
    "adoxq %[lo], %[" #T6 "]\n\t"

/* t += m * p with m = t0 * (-p^-1): afterwards T0 = 0 and T1..T6 hold t / 2^64. */
#define ROW_RED(T0, T1, T2, T3, T4, T5, T6) \
    "movq %[" #T0 "], %%rdx\n\t"            \
    "imulq %[inv], %%rdx\n\t"               \
    "xorl %k[lo], %k[lo]\n\t"               \
    "mulxq %[q], %[lo], %[hi]\n\t"          \
    "adcxq %[lo], %[" #T0 "]\n\t"           \
    "adoxq %[hi], %[" #T1 "]\n\t"           \
    "mulxq 8+%[q], %[lo], %[hi]\n\t"        \
    "adcxq %[lo], %[" #T1 "]\n\t"           \
    "adoxq %[hi], %[" #T2 "]\n\t"           \
    "mulxq 16+%[q], %[lo], %[hi]\n\t"       \
    "adcxq %[lo], %[" #T2 "]\n\t"           \
    "adoxq %[hi], %[" #T3 "]\n\t"           \
    "mulxq 24+%[q], %[lo], %[hi]\n\t"       \
    "adcxq %[lo], %[" #T3 "]\n\t"           \
    "adoxq %[hi], %[" #T4 "]\n\t"           \
    "mulxq 32+%[q], %[lo], %[hi]\n\t"       \
    "adcxq %[lo], %[" #T4 "]\n\t"           \
    "adoxq %[hi], %[" #T5 "]\n\t"           \
    "mulxq 40+%[q], %[lo], %[hi]\n\t"       \
    "adcxq %[lo], %[" #T5 "]\n\t"           \
    "adoxq %[hi], %[" #T6 "]\n\t"           \
    "movl $0, %k[lo]\n\t"                   \
    "adcxq %[lo], %[" #T6 "]\n\t"

/* Final step: (t6, t0..t4) < 2p; subtract p and keep the difference unless it
 * borrows (CMOVNC), using the registers the rows no longer need. */
#define FINAL_SUB              \
    "movq %[t6], %[lo]\n\t"    \
    "subq %[q], %[lo]\n\t"     \
    "movq %[t0], %[hi]\n\t"    \
    "sbbq 8+%[q], %[hi]\n\t"   \
    "movq %[t1], %%rdx\n\t"    \
    "sbbq 16+%[q], %%rdx\n\t"  \
    "movq %[t2], %[t5]\n\t"    \
    "sbbq 24+%[q], %[t5]\n\t"  \
    "movq %[t3], %[a]\n\t"     \
    "sbbq 32+%[q], %[a]\n\t"   \
    "movq %[t4], %[b]\n\t"     \
    "sbbq 40+%[q], %[b]\n\t"   \
    "cmovncq %[lo], %[t6]\n\t" \
    "cmovncq %[hi], %[t0]\n\t" \
    "cmovncq %%rdx, %[t1]\n\t" \
    "cmovncq %[t5], %[t2]\n\t" \
    "cmovncq %[a], %[t3]\n\t"  \
    "cmovncq %[b], %[t4]\n\t"

void fp_mul_adx(fp *r, const fp *a, const fp *b) {
    uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5 = 0, t6 = 0, lo, hi;
    const uint64_t *pa = a->l, *pb = b->l;
    __asm__(
        /* clang-format off */
        ROW_MUL(0, t0, t1, t2, t3, t4, t5, t6) ROW_RED(t0, t1, t2, t3, t4, t5, t6)
        ROW_MUL(1, t1, t2, t3, t4, t5, t6, t0) ROW_RED(t1, t2, t3, t4, t5, t6, t0)
        ROW_MUL(2, t2, t3, t4, t5, t6, t0, t1) ROW_RED(t2, t3, t4, t5, t6, t0, t1)
        ROW_MUL(3, t3, t4, t5, t6, t0, t1, t2) ROW_RED(t3, t4, t5, t6, t0, t1, t2)
        ROW_MUL(4, t4, t5, t6, t0, t1, t2, t3) ROW_RED(t4, t5, t6, t0, t1, t2, t3)
        ROW_MUL(5, t5, t6, t0, t1, t2, t3, t4) ROW_RED(t5, t6, t0, t1, t2, t3, t4)
        FINAL_SUB
        /* clang-format on */
        : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [t4] "+&r"(t4),
          [t5] "+&r"(t5), [t6] "+&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [a] "+&r"(pa),
          [b] "+&r"(pb)
        : [q] "m"(MOD), [inv] "m"(MINV), "m"(*(const uint64_t(*)[6])a->l),
          "m"(*(const uint64_t(*)[6])b->l)
        : "rdx", "cc");
    r->l[0] = t6;
    r->l[1] = t0;
    r->l[2] = t1;
    r->l[3] = t2;
    r->l[4] = t3;
    r->l[5] = t4;
}

void fp_sqr_adx(fp *r, const fp *a) { fp_mul_adx(r, a, a); }

/* r = a + b mod p: add, store the sum, subtract p, and take the stored sum
 * back (CMOVC from memory) when that borrows.  All loads of a and b happen
 * before the first store, so r may alias either. */
void fp_add_x86(fp *r, const fp *a, const fp *b) {
    uint64_t x0, x1, x2, x3, x4, x5;
    __asm__ volatile("movq 0(%[a]), %[x0]\n\t"
                     "addq 0(%[b]), %[x0]\n\t"
                     "movq 8(%[a]), %[x1]\n\t"
                     "adcq 8(%[b]), %[x1]\n\t"
                     "movq 16(%[a]), %[x2]\n\t"
                     "adcq 16(%[b]), %[x2]\n\t"
                     "movq 24(%[a]), %[x3]\n\t"
                     "adcq 24(%[b]), %[x3]\n\t"
                     "movq 32(%[a]), %[x4]\n\t"
                     "adcq 32(%[b]), %[x4]\n\t"
                     "movq 40(%[a]), %[x5]\n\t"
                     "adcq 40(%[b]), %[x5]\n\t"
                     "movq %[x0], 0(%[r])\n\t"
                     "movq %[x1], 8(%[r])\n\t"
                     "movq %[x2], 16(%[r])\n\t"
                     "movq %[x3], 24(%[r])\n\t"
                     "movq %[x4], 32(%[r])\n\t"
                     "movq %[x5], 40(%[r])\n\t"
                     "subq %[q], %[x0]\n\t"
                     "sbbq 8+%[q], %[x1]\n\t"
                     "sbbq 16+%[q], %[x2]\n\t"
                     "sbbq 24+%[q], %[x3]\n\t"
                     "sbbq 32+%[q], %[x4]\n\t"
                     "sbbq 40+%[q], %[x5]\n\t"
                     "cmovcq 0(%[r]), %[x0]\n\t"
                     "cmovcq 8(%[r]), %[x1]\n\t"
                     "cmovcq 16(%[r]), %[x2]\n\t"
                     "cmovcq 24(%[r]), %[x3]\n\t"
                     "cmovcq 32(%[r]), %[x4]\n\t"
                     "cmovcq 40(%[r]), %[x5]\n\t"
                     "movq %[x0], 0(%[r])\n\t"
                     "movq %[x1], 8(%[r])\n\t"
                     "movq %[x2], 16(%[r])\n\t"
                     "movq %[x3], 24(%[r])\n\t"
                     "movq %[x4], 32(%[r])\n\t"
                     "movq %[x5], 40(%[r])\n\t"
                     : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3),
                       [x4] "=&r"(x4), [x5] "=&r"(x5), "=m"(*r)
                     : [a] "r"(a->l), [b] "r"(b->l), [r] "r"(r->l), [q] "m"(MOD), "m"(*a), "m"(*b)
                     : "cc");
}

/* r = a - b mod p: subtract, remember the borrow, store the difference, add p,
 * and take the stored difference back (CMOVZ from memory) when there was no
 * borrow. */
void fp_sub_x86(fp *r, const fp *a, const fp *b) {
    uint64_t x0, x1, x2, x3, x4, x5, m;
    __asm__ volatile("movq 0(%[a]), %[x0]\n\t"
                     "subq 0(%[b]), %[x0]\n\t"
                     "movq 8(%[a]), %[x1]\n\t"
                     "sbbq 8(%[b]), %[x1]\n\t"
                     "movq 16(%[a]), %[x2]\n\t"
                     "sbbq 16(%[b]), %[x2]\n\t"
                     "movq 24(%[a]), %[x3]\n\t"
                     "sbbq 24(%[b]), %[x3]\n\t"
                     "movq 32(%[a]), %[x4]\n\t"
                     "sbbq 32(%[b]), %[x4]\n\t"
                     "movq 40(%[a]), %[x5]\n\t"
                     "sbbq 40(%[b]), %[x5]\n\t"
                     "sbbq %[m], %[m]\n\t"
                     "movq %[x0], 0(%[r])\n\t"
                     "movq %[x1], 8(%[r])\n\t"
                     "movq %[x2], 16(%[r])\n\t"
                     "movq %[x3], 24(%[r])\n\t"
                     "movq %[x4], 32(%[r])\n\t"
                     "movq %[x5], 40(%[r])\n\t"
                     "addq %[q], %[x0]\n\t"
                     "adcq 8+%[q], %[x1]\n\t"
                     "adcq 16+%[q], %[x2]\n\t"
                     "adcq 24+%[q], %[x3]\n\t"
                     "adcq 32+%[q], %[x4]\n\t"
                     "adcq 40+%[q], %[x5]\n\t"
                     "testq %[m], %[m]\n\t"
                     "cmovzq 0(%[r]), %[x0]\n\t"
                     "cmovzq 8(%[r]), %[x1]\n\t"
                     "cmovzq 16(%[r]), %[x2]\n\t"
                     "cmovzq 24(%[r]), %[x3]\n\t"
                     "cmovzq 32(%[r]), %[x4]\n\t"
                     "cmovzq 40(%[r]), %[x5]\n\t"
                     "movq %[x0], 0(%[r])\n\t"
                     "movq %[x1], 8(%[r])\n\t"
                     "movq %[x2], 16(%[r])\n\t"
                     "movq %[x3], 24(%[r])\n\t"
                     "movq %[x4], 32(%[r])\n\t"
                     "movq %[x5], 40(%[r])\n\t"
                     : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3),
                       [x4] "=&r"(x4), [x5] "=&r"(x5), [m] "=&r"(m), "=m"(*r)
                     : [a] "r"(a->l), [b] "r"(b->l), [r] "r"(r->l), [q] "m"(MOD), "m"(*a), "m"(*b)
                     : "cc");
}

#else /* no x86-64 assembly: never selected, kept so the symbols exist */

void fp_mul_adx(fp *r, const fp *a, const fp *b) { fp_mul_portable(r, a, b); }
void fp_sqr_adx(fp *r, const fp *a) { fp_mul_portable(r, a, a); }
void fp_add_x86(fp *r, const fp *a, const fp *b) { fp_add_portable(r, a, b); }
void fp_sub_x86(fp *r, const fp *a, const fp *b) { fp_sub_portable(r, a, b); }

#endif
