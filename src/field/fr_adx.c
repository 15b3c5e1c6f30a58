/* Fr Montgomery multiplication with MULX/ADCX/ADOX: the 4-limb twin of
 * fp_adx.c (same row structure and register rotation; see the comments
 * there).  Only called when fp_asm_enabled() (fr.c dispatches). */
#include "field/constants.h"
#include "field/fr.h"

#if defined(CUZK_HAVE_X86_ASM)

static const uint64_t MOD[4] = {FR_MOD0, FR_MOD1, FR_MOD2, FR_MOD3};
static const uint64_t MINV = FR_INV;

#define ROW_MUL4(i, T0, T1, T2, T3, T4) \
    "movq " #i "*8(%[b]), %%rdx\n\t"    \
    "xorl %k[lo], %k[lo]\n\t"           \
    "mulxq 0(%[a]), %[lo], %[hi]\n\t"   \
    "adoxq %[lo], %[" #T0 "]\n\t"       \
    "adcxq %[hi], %[" #T1 "]\n\t"       \
    "mulxq 8(%[a]), %[lo], %[hi]\n\t"   \
    "adoxq %[lo], %[" #T1 "]\n\t"       \
    "adcxq %[hi], %[" #T2 "]\n\t"       \
    "mulxq 16(%[a]), %[lo], %[hi]\n\t"  \
    "adoxq %[lo], %[" #T2 "]\n\t"       \
    "adcxq %[hi], %[" #T3 "]\n\t"       \
    "mulxq 24(%[a]), %[lo], %[hi]\n\t"  \
    "adoxq %[lo], %[" #T3 "]\n\t"       \
    "adcxq %[hi], %[" #T4 "]\n\t"       \
    "movl $0, %k[lo]\n\t"               \
    "adoxq %[lo], %[" #T4 "]\n\t"

#define ROW_RED4(T0, T1, T2, T3, T4)  \
    "movq %[" #T0 "], %%rdx\n\t"      \
    "imulq %[inv], %%rdx\n\t"         \
    "xorl %k[lo], %k[lo]\n\t"         \
    "mulxq %[q], %[lo], %[hi]\n\t"    \
    "adcxq %[lo], %[" #T0 "]\n\t"     \
    "adoxq %[hi], %[" #T1 "]\n\t"     \
    "mulxq 8+%[q], %[lo], %[hi]\n\t"  \
    "adcxq %[lo], %[" #T1 "]\n\t"     \
    "adoxq %[hi], %[" #T2 "]\n\t"     \
    "mulxq 16+%[q], %[lo], %[hi]\n\t" \
    "adcxq %[lo], %[" #T2 "]\n\t"     \
    "adoxq %[hi], %[" #T3 "]\n\t"     \
    "mulxq 24+%[q], %[lo], %[hi]\n\t" \
    "adcxq %[lo], %[" #T3 "]\n\t"     \
    "adoxq %[hi], %[" #T4 "]\n\t"     \
    "movl $0, %k[lo]\n\t"             \
    "adcxq %[lo], %[" #T4 "]\n\t"

/* Result (t4, t0, t1, t2) < 2r: subtract r unless it borrows. */
#define FINAL_SUB4             \
    "movq %[t4], %[lo]\n\t"    \
    "subq %[q], %[lo]\n\t"     \
    "movq %[t0], %[hi]\n\t"    \
    "sbbq 8+%[q], %[hi]\n\t"   \
    "movq %[t1], %%rdx\n\t"    \
    "sbbq 16+%[q], %%rdx\n\t"  \
    "movq %[t2], %[t3]\n\t"    \
    "sbbq 24+%[q], %[t3]\n\t"  \
    "cmovncq %[lo], %[t4]\n\t" \
    "cmovncq %[hi], %[t0]\n\t" \
    "cmovncq %%rdx, %[t1]\n\t" \
    "cmovncq %[t3], %[t2]\n\t"

void fr_mul_adx(fr *r, const fr *a, const fr *b) {
    uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, lo, hi;
    __asm__(
        /* clang-format off */
        ROW_MUL4(0, t0, t1, t2, t3, t4) ROW_RED4(t0, t1, t2, t3, t4)
        ROW_MUL4(1, t1, t2, t3, t4, t0) ROW_RED4(t1, t2, t3, t4, t0)
        ROW_MUL4(2, t2, t3, t4, t0, t1) ROW_RED4(t2, t3, t4, t0, t1)
        ROW_MUL4(3, t3, t4, t0, t1, t2) ROW_RED4(t3, t4, t0, t1, t2)
        FINAL_SUB4
        /* clang-format on */
        : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [t4] "+&r"(t4),
          [lo] "=&r"(lo), [hi] "=&r"(hi)
        : [a] "r"(a->l), [b] "r"(b->l), [q] "m"(MOD), [inv] "m"(MINV),
          "m"(*(const uint64_t(*)[4])a->l), "m"(*(const uint64_t(*)[4])b->l)
        : "rdx", "cc");
    r->l[0] = t4;
    r->l[1] = t0;
    r->l[2] = t1;
    r->l[3] = t2;
}

/* r = a + b mod r and r = a - b mod r: the 4-limb twins of fp_add_x86 /
 * fp_sub_x86 (store the raw result, then CMOV it back from memory). */
void fr_add_x86(fr *r, const fr *a, const fr *b) {
    uint64_t x0, x1, x2, x3;
    __asm__ volatile("movq 0(%[a]), %[x0]\n\t"
                     "addq 0(%[b]), %[x0]\n\t"
                     "movq 8(%[a]), %[x1]\n\t"
                     "adcq 8(%[b]), %[x1]\n\t"
                     "movq 16(%[a]), %[x2]\n\t"
                     "adcq 16(%[b]), %[x2]\n\t"
                     "movq 24(%[a]), %[x3]\n\t"
                     "adcq 24(%[b]), %[x3]\n\t"
                     "movq %[x0], 0(%[r])\n\t"
                     "movq %[x1], 8(%[r])\n\t"
                     "movq %[x2], 16(%[r])\n\t"
                     "movq %[x3], 24(%[r])\n\t"
                     "subq %[q], %[x0]\n\t"
                     "sbbq 8+%[q], %[x1]\n\t"
                     "sbbq 16+%[q], %[x2]\n\t"
                     "sbbq 24+%[q], %[x3]\n\t"
                     "cmovcq 0(%[r]), %[x0]\n\t"
                     "cmovcq 8(%[r]), %[x1]\n\t"
                     "cmovcq 16(%[r]), %[x2]\n\t"
                     "cmovcq 24(%[r]), %[x3]\n\t"
                     "movq %[x0], 0(%[r])\n\t"
                     "movq %[x1], 8(%[r])\n\t"
                     "movq %[x2], 16(%[r])\n\t"
                     "movq %[x3], 24(%[r])\n\t"
                     : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), "=m"(*r)
                     : [a] "r"(a->l), [b] "r"(b->l), [r] "r"(r->l), [q] "m"(MOD), "m"(*a), "m"(*b)
                     : "cc");
}

void fr_sub_x86(fr *r, const fr *a, const fr *b) {
    uint64_t x0, x1, x2, x3, m;
    __asm__ volatile("movq 0(%[a]), %[x0]\n\t"
                     "subq 0(%[b]), %[x0]\n\t"
                     "movq 8(%[a]), %[x1]\n\t"
                     "sbbq 8(%[b]), %[x1]\n\t"
                     "movq 16(%[a]), %[x2]\n\t"
                     "sbbq 16(%[b]), %[x2]\n\t"
                     "movq 24(%[a]), %[x3]\n\t"
                     "sbbq 24(%[b]), %[x3]\n\t"
                     "sbbq %[m], %[m]\n\t"
                     "movq %[x0], 0(%[r])\n\t"
                     "movq %[x1], 8(%[r])\n\t"
                     "movq %[x2], 16(%[r])\n\t"
                     "movq %[x3], 24(%[r])\n\t"
                     "addq %[q], %[x0]\n\t"
                     "adcq 8+%[q], %[x1]\n\t"
                     "adcq 16+%[q], %[x2]\n\t"
                     "adcq 24+%[q], %[x3]\n\t"
                     "testq %[m], %[m]\n\t"
                     "cmovzq 0(%[r]), %[x0]\n\t"
                     "cmovzq 8(%[r]), %[x1]\n\t"
                     "cmovzq 16(%[r]), %[x2]\n\t"
                     "cmovzq 24(%[r]), %[x3]\n\t"
                     "movq %[x0], 0(%[r])\n\t"
                     "movq %[x1], 8(%[r])\n\t"
                     "movq %[x2], 16(%[r])\n\t"
                     "movq %[x3], 24(%[r])\n\t"
                     : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), [m] "=&r"(m),
                       "=m"(*r)
                     : [a] "r"(a->l), [b] "r"(b->l), [r] "r"(r->l), [q] "m"(MOD), "m"(*a), "m"(*b)
                     : "cc");
}

#else

void fr_mul_adx(fr *r, const fr *a, const fr *b) { fr_mul_portable(r, a, b); }
void fr_add_x86(fr *r, const fr *a, const fr *b) { fr_add_portable(r, a, b); }
void fr_sub_x86(fr *r, const fr *a, const fr *b) { fr_sub_portable(r, a, b); }

#endif
