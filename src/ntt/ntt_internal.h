/* Internals shared by the ntt files: inline butterflies, the kernels that
 * run one pass over in-cache data, and the scaling helpers.
 *
 * Conventions.  DIF (Gentleman-Sande) stages take natural order to
 * bit-reversed, largest stride first; DIT (Cooley-Tukey) stages take
 * bit-reversed to natural, smallest stride first.  Global stage S (0 = the
 * largest stride) pairs j with j + n/2^(S+1) and multiplies by
 * omega^(2^S (j mod n/2^(S+1))), in both DIF and DIT.
 * The powers table holds omega^e for e <= n/2 only; an inverse twiddle
 * omega^-e = -omega^(n/2 - e), and the minus sign is absorbed by swapping
 * the butterfly's add and subtract (the _swap butterflies). */
#ifndef CUZK_NTT_NTT_INTERNAL_H
#define CUZK_NTT_NTT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "field/constants.h"
#include "field/fp.h"
#include "field/mont.h"
#include "ntt/ntt.h"

#define NTT_INLINE static inline __attribute__((always_inline))

/* s = a + b, d = a - b (mod r); s and d distinct, either may alias a or b.
 * Through portable C the butterfly's add and subtract take a good part of its
 * time; one ADC/SBB block that loads the operands once and ends each half in
 * CMOVs overlaps with the multiply almost entirely (docs/PERFORMANCE.md,
 * NTT).  Selected, like the field's assembly, by fp_asm_enabled()
 * (CUZK_FIELD_ASM=0: C). */
#if defined(CUZK_HAVE_X86_ASM)
NTT_INLINE void ntt_add_sub_x86(fr *s, fr *d, const fr *a, const fr *b) {
    static const uint64_t q[4] = {FR_MOD0, FR_MOD1, FR_MOD2, FR_MOD3};
    uint64_t s0, s1, s2, s3, d0, d1, d2, d3, m;
    /* All loads first (the aliasing contract), then: store the raw sum,
     * subtract r and take the raw sum back on a borrow; store the raw
     * difference, add r and take the raw difference back when a >= b. */
    __asm__("movq 0(%[a]), %[s0]\n\t"
            "movq 8(%[a]), %[s1]\n\t"
            "movq 16(%[a]), %[s2]\n\t"
            "movq 24(%[a]), %[s3]\n\t"
            "movq %[s0], %[d0]\n\t"
            "movq %[s1], %[d1]\n\t"
            "movq %[s2], %[d2]\n\t"
            "movq %[s3], %[d3]\n\t"
            "subq 0(%[b]), %[d0]\n\t"
            "sbbq 8(%[b]), %[d1]\n\t"
            "sbbq 16(%[b]), %[d2]\n\t"
            "sbbq 24(%[b]), %[d3]\n\t"
            "sbbq %[m], %[m]\n\t"
            "addq 0(%[b]), %[s0]\n\t"
            "adcq 8(%[b]), %[s1]\n\t"
            "adcq 16(%[b]), %[s2]\n\t"
            "adcq 24(%[b]), %[s3]\n\t"
            "movq %[s0], 0(%[s])\n\t"
            "movq %[s1], 8(%[s])\n\t"
            "movq %[s2], 16(%[s])\n\t"
            "movq %[s3], 24(%[s])\n\t"
            "subq %[q], %[s0]\n\t"
            "sbbq 8+%[q], %[s1]\n\t"
            "sbbq 16+%[q], %[s2]\n\t"
            "sbbq 24+%[q], %[s3]\n\t"
            "cmovcq 0(%[s]), %[s0]\n\t"
            "cmovcq 8(%[s]), %[s1]\n\t"
            "cmovcq 16(%[s]), %[s2]\n\t"
            "cmovcq 24(%[s]), %[s3]\n\t"
            "movq %[s0], 0(%[s])\n\t"
            "movq %[s1], 8(%[s])\n\t"
            "movq %[s2], 16(%[s])\n\t"
            "movq %[s3], 24(%[s])\n\t"
            "movq %[d0], 0(%[d])\n\t"
            "movq %[d1], 8(%[d])\n\t"
            "movq %[d2], 16(%[d])\n\t"
            "movq %[d3], 24(%[d])\n\t"
            "addq %[q], %[d0]\n\t"
            "adcq 8+%[q], %[d1]\n\t"
            "adcq 16+%[q], %[d2]\n\t"
            "adcq 24+%[q], %[d3]\n\t"
            "testq %[m], %[m]\n\t"
            "cmovzq 0(%[d]), %[d0]\n\t"
            "cmovzq 8(%[d]), %[d1]\n\t"
            "cmovzq 16(%[d]), %[d2]\n\t"
            "cmovzq 24(%[d]), %[d3]\n\t"
            "movq %[d0], 0(%[d])\n\t"
            "movq %[d1], 8(%[d])\n\t"
            "movq %[d2], 16(%[d])\n\t"
            "movq %[d3], 24(%[d])\n\t"
            : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [d0] "=&r"(d0),
              [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3), [m] "=&r"(m), "=m"(*s), "=m"(*d)
            : [a] "r"(a->l), [b] "r"(b->l), [s] "r"(s->l), [d] "r"(d->l), [q] "m"(q), "m"(*a),
              "m"(*b)
            : "cc");
}
#endif

/* The portable halves, into a fresh output (no aliasing with the inputs). */
NTT_INLINE void ntt_add_c(fr *r, const fr *a, const fr *b) {
    static const uint64_t q[4] = {FR_MOD0, FR_MOD1, FR_MOD2, FR_MOD3};
    mont_add(r->l, a->l, b->l, q, 4);
}
NTT_INLINE void ntt_sub_c(fr *r, const fr *a, const fr *b) {
    static const uint64_t q[4] = {FR_MOD0, FR_MOD1, FR_MOD2, FR_MOD3};
    mont_sub(r->l, a->l, b->l, q, 4);
}

NTT_INLINE void ntt_add_sub(fr *s, fr *d, const fr *a, const fr *b, int x86) {
#if defined(CUZK_HAVE_X86_ASM)
    if (x86) {
        ntt_add_sub_x86(s, d, a, b);
        return;
    }
#endif
    (void)x86;
    fr t, u;
    ntt_add_c(&t, a, b);
    ntt_sub_c(&u, a, b);
    *s = t;
    *d = u;
}

/* The x86 flag for one kernel call: read once, passed down as a value. */
static inline int ntt_use_x86(void) {
#if defined(CUZK_HAVE_X86_ASM)
    return fp_asm_enabled();
#else
    return 0;
#endif
}

/* r = a b: straight to the MULX/ADX body when the kernel already knows it
 * is selected, skipping fr_mul's dispatch frame (the debug build keeps
 * fr_mul for its contract checks). */
NTT_INLINE void ntt_mul(fr *r, const fr *a, const fr *b, int x86) {
#if defined(CUZK_HAVE_X86_ASM) && !defined(CUZK_VERIFY)
    if (x86) {
        fr_mul_adx(r, a, b);
        return;
    }
#endif
    (void)x86;
    fr_mul(r, a, b);
}

/* (x, y) -> (x + y, x - y) */
NTT_INLINE void ntt_bf_plain(fr *x, fr *y, int x86) { ntt_add_sub(x, y, x, y, x86); }
/* DIF: (x, y) -> (x + y, (x - y) w) */
NTT_INLINE void ntt_bf_dif(fr *x, fr *y, const fr *w, int x86) {
    fr t;
    if (x86) {
        ntt_add_sub(x, &t, x, y, 1);
    } else {
        ntt_sub_c(&t, x, y);
        ntt_add_c(x, x, y);
    }
    ntt_mul(y, &t, w, x86);
}
/* DIF with the negated twiddle -w: (x + y, (y - x) w) */
NTT_INLINE void ntt_bf_dif_swap(fr *x, fr *y, const fr *w, int x86) {
    fr t;
    if (x86) {
        ntt_add_sub(x, &t, y, x, 1);
    } else {
        ntt_sub_c(&t, y, x);
        ntt_add_c(x, x, y);
    }
    ntt_mul(y, &t, w, x86);
}
/* DIT: (x, y) -> (x + y w, x - y w) */
NTT_INLINE void ntt_bf_dit(fr *x, fr *y, const fr *w, int x86) {
    fr t;
    ntt_mul(&t, y, w, x86);
    if (x86) {
        ntt_add_sub(x, y, x, &t, 1);
    } else {
        ntt_sub_c(y, x, &t);
        ntt_add_c(x, x, &t);
    }
}
/* DIT with the negated twiddle -w: (x - y w, x + y w) */
NTT_INLINE void ntt_bf_dit_swap(fr *x, fr *y, const fr *w, int x86) {
    fr t;
    ntt_mul(&t, y, w, x86);
    if (x86) {
        ntt_add_sub(y, x, x, &t, 1);
    } else {
        ntt_add_c(y, x, &t);
        ntt_sub_c(x, x, &t);
    }
}

static inline size_t ntt_bitrev(size_t x, unsigned bits) {
    if (bits == 0)
        return 0;
    uint64_t v = x;
    v = ((v >> 1) & 0x5555555555555555ULL) | ((v & 0x5555555555555555ULL) << 1);
    v = ((v >> 2) & 0x3333333333333333ULL) | ((v & 0x3333333333333333ULL) << 2);
    v = ((v >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((v & 0x0f0f0f0f0f0f0f0fULL) << 4);
    return (size_t)(__builtin_bswap64(v) >> (64 - bits));
}

/* All b DIF stages on a contiguous block of 2^b: natural -> bit-reversed.
 * layers is the domain's layers or layers_inv (covering 2^b). */
void ntt_block_dif(fr *x, unsigned b, const fr *layers);
/* All b DIT stages on a contiguous block of 2^b: bit-reversed -> natural. */
void ntt_block_dit(fr *x, unsigned b, const fr *layers);

/* Column pass kernels on a gathered buffer of 2^b rows by cols columns
 * (row m, column c at buf[m * cols + c]): all b stages of a sub-problem of
 * N = 2^b * stride elements, whose columns j0 + c these are.  powers holds
 * omega_N^e for e <= half_n = N/2; inv picks the inverse twiddles. */
void ntt_cols_dif(fr *buf, unsigned b, size_t cols, const fr *powers, size_t half_n, size_t j0,
                  size_t stride, int inv);
void ntt_cols_dit(fr *buf, unsigned b, size_t cols, const fr *powers, size_t half_n, size_t j0,
                  size_t stride, int inv);

/* r = a^e */
void ntt_pow_u64(fr *r, const fr *a, uint64_t e);
/* x[k] *= c * h^(first + k) for k < count, one thread (c, h: NULL = 1). */
void ntt_powers_range(fr *x, size_t count, size_t first, const fr *c, const fr *h);

#endif
