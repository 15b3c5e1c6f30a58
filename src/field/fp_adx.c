/* Fp Montgomery multiplication with MULX/ADCX/ADOX (x86-64, BMI2 + ADX).
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
#define FINAL_SUB                                                                                 \
    "movq %[t6], %[lo]\n\t"                                                                       \
    "subq %[q], %[lo]\n\t"                                                                        \
    "movq %[t0], %[hi]\n\t"                                                                       \
    "sbbq 8+%[q], %[hi]\n\t"                                                                      \
    "movq %[t1], %%rdx\n\t"                                                                       \
    "sbbq 16+%[q], %%rdx\n\t"                                                                     \
    "movq %[t2], %[t5]\n\t"                                                                       \
    "sbbq 24+%[q], %[t5]\n\t"                                                                     \
    "movq %[t3], %[a]\n\t"                                                                        \
    "sbbq 32+%[q], %[a]\n\t"                                                                      \
    "movq %[t4], %[b]\n\t"                                                                        \
    "sbbq 40+%[q], %[b]\n\t"                                                                      \
    "cmovncq %[lo], %[t6]\n\t"                                                                    \
    "cmovncq %[hi], %[t0]\n\t"                                                                    \
    "cmovncq %%rdx, %[t1]\n\t"                                                                    \
    "cmovncq %[t5], %[t2]\n\t"                                                                    \
    "cmovncq %[a], %[t3]\n\t"                                                                     \
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

#else /* no x86-64 assembly: never selected, kept so the symbols exist */

void fp_mul_adx(fp *r, const fp *a, const fp *b) { fp_mul_portable(r, a, b); }
void fp_sqr_adx(fp *r, const fp *a) { fp_mul_portable(r, a, a); }

#endif
