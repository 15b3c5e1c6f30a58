/* Sliding-window exponentiation, written once for fp, fr and fp2.
 *
 * POW_VARTIME_DEFINE(fn, T, sqr, mul, set_one) defines
 *   void fn(T *r, const T *a, const uint64_t *e, size_t n)
 * computing r = a^e for e given as n little-endian 64-bit limbs.  A 5-bit
 * window keeps 16 odd powers, so there is one multiply per window instead of
 * one per set bit (for a 381-bit exponent: ~380 squarings + ~75 multiplies
 * against ~190).  Variable time in e; the exponents used are public. */
#ifndef CUZK_FIELD_POW_TEMPLATE_H
#define CUZK_FIELD_POW_TEMPLATE_H

#include <stddef.h>
#include <stdint.h>

#define POW_WINDOW 5

static inline int pow_bit(const uint64_t *e, size_t b) {
    return (int)((e[b / 64] >> (b % 64)) & 1);
}

#define POW_VARTIME_DEFINE(fn, T, sqr, mul, set_one)                             \
    void fn(T *r, const T *a, const uint64_t *e, size_t n) {                     \
        T odd[1 << (POW_WINDOW - 1)], a2, acc; /* odd[i] = a^(2i + 1) */         \
        set_one(&acc);                                                           \
        odd[0] = *a;                                                             \
        sqr(&a2, a);                                                             \
        for (int i = 1; i < (1 << (POW_WINDOW - 1)); i++)                        \
            mul(&odd[i], &odd[i - 1], &a2);                                      \
        size_t i = n * 64;                                                       \
        while (i > 0) {                                                          \
            size_t bit = i - 1;                                                  \
            if (!pow_bit(e, bit)) {                                              \
                sqr(&acc, &acc);                                                 \
                i--;                                                             \
                continue;                                                        \
            }                                                                    \
            /* the longest window of at most POW_WINDOW bits that ends in a 1 */ \
            size_t len = bit + 1 < POW_WINDOW ? bit + 1 : POW_WINDOW;            \
            while (!pow_bit(e, bit - len + 1))                                   \
                len--;                                                           \
            unsigned v = 0;                                                      \
            for (size_t k = 0; k < len; k++) {                                   \
                v = (v << 1) | (unsigned)pow_bit(e, bit - k);                    \
                sqr(&acc, &acc);                                                 \
            }                                                                    \
            mul(&acc, &acc, &odd[v >> 1]);                                       \
            i -= len;                                                            \
        }                                                                        \
        *r = acc;                                                                \
    }

#endif
