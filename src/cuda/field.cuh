// Device (and host) Montgomery arithmetic for Fp and Fr, in the CPU's byte
// layout: an element is the CPU struct's little-endian 64-bit limbs read as
// twice as many little-endian 32-bit limbs, so R = 2^384 / 2^256 is the same
// and arrays copy between host and device with no conversion.
//
// Functions are __host__ __device__ so the same code can be checked on the
// CPU.  On the device, add, sub and the multiply use PTX carry chains
// (field_ptx.cuh); the host runs the portable C: CIOS over 32-bit limbs with
// 64-bit partial products (the CPU model tests check the PTX chains against
// it).
#ifndef CUZK_CUDA_FIELD_CUH
#define CUZK_CUDA_FIELD_CUH

#include <stdint.h>

#include "cuda/field_ptx.cuh"

#define CZ_HD __host__ __device__ __forceinline__
// #pragma unroll means nothing to the host compiler (and -Werror rejects it).
#ifdef __CUDA_ARCH__
#define CZ_UNROLL _Pragma("unroll")
#else
#define CZ_UNROLL
#endif

// Limb i of the modulus; with unrolled loops these fold to immediates.
struct fp_params {
    static constexpr int N = 12;
    static constexpr bool inst = false;      // the PTX chains as one asm block each (field_ptx.cuh)
    static constexpr uint32_t n0 = CZ_FP_N0; // -p^-1 mod 2^32
    static CZ_HD constexpr uint32_t p(int i) {
        constexpr uint32_t m[12] = CZ_FP_P;
        return m[i];
    }
    static CZ_HD constexpr uint32_t one(int i) {
        constexpr uint32_t m[12] = CZ_FP_ONE;
        return m[i];
    }
};
struct fr_params {
    static constexpr int N = 8;
    static constexpr bool inst = false;
    static constexpr uint32_t n0 = CZ_FR_N0;
    static CZ_HD constexpr uint32_t p(int i) {
        constexpr uint32_t m[8] = CZ_FR_P;
        return m[i];
    }
    static CZ_HD constexpr uint32_t one(int i) {
        constexpr uint32_t m[8] = CZ_FR_ONE;
        return m[i];
    }
};

template <class P> struct field {
    static constexpr int N = P::N;
    uint32_t v[N];
};

// Shoup's quotient for a fixed Fr multiplier w < p (ptx_mul_shoup): q =
// floor(w 2^288 / p), 9 limbs, by restoring division one bit at a time (host
// table setup; w < p keeps the remainder below 2^256).
static inline void shoup_quotient(uint32_t q[9], const uint32_t w[8]) {
    constexpr uint32_t p[8] = CZ_FR_P;
    uint32_t r[8];
    for (int j = 0; j < 8; j++)
        r[j] = w[j];
    for (int j = 0; j < 9; j++)
        q[j] = 0;
    for (int bit = 0; bit < 288; bit++) {
        for (int j = 8; j > 0; j--) // q <<= 1
            q[j] = (q[j] << 1) | (q[j - 1] >> 31);
        q[0] <<= 1;
        for (int j = 7; j > 0; j--) // r <<= 1: r < p < 2^255, no bit lost
            r[j] = (r[j] << 1) | (r[j - 1] >> 31);
        r[0] <<= 1;
        int ge = 1; // r >= p
        for (int j = 7; j >= 0; j--)
            if (r[j] != p[j]) {
                ge = r[j] > p[j];
                break;
            }
        if (ge) {
            uint64_t borrow = 0;
            for (int j = 0; j < 8; j++) {
                uint64_t d = (uint64_t)r[j] - p[j] - borrow;
                r[j] = (uint32_t)d;
                borrow = (d >> 32) & 1;
            }
            q[0] |= 1;
        }
    }
}
typedef field<fp_params> dfp;
typedef field<fr_params> dfr;

// Fp with the PTX chains as one asm statement per instruction (field_ptx.cuh,
// tools/gen_ptx_field.py): the same bytes and results; for the G2 bucket
// kernel, where ptxas spills less that way.
struct fp_params_i : fp_params {
    static constexpr bool inst = true;
};
typedef field<fp_params_i> dfp_i;

template <class P> CZ_HD void f_zero(field<P> &r) {
    CZ_UNROLL
    for (int i = 0; i < P::N; i++)
        r.v[i] = 0;
}

// The Montgomery one, R mod p.
template <class P> CZ_HD void set_one(field<P> &r) {
    CZ_UNROLL
    for (int i = 0; i < P::N; i++)
        r.v[i] = P::one(i);
}

template <class P> CZ_HD bool f_is_zero(const field<P> &a) {
    uint32_t acc = 0;
    CZ_UNROLL
    for (int i = 0; i < P::N; i++)
        acc |= a.v[i];
    return acc == 0;
}

template <class P> CZ_HD bool f_eq(const field<P> &a, const field<P> &b) {
    uint32_t acc = 0;
    CZ_UNROLL
    for (int i = 0; i < P::N; i++)
        acc |= a.v[i] ^ b.v[i];
    return acc == 0;
}

// r = t - p if t >= p (t < 2p, given as N limbs plus a carry bit hi).
template <class P> CZ_HD void f_reduce_once(field<P> &r, const uint32_t *t, uint32_t hi) {
    uint32_t d[P::N];
    uint64_t borrow = 0;
    CZ_UNROLL
    for (int i = 0; i < P::N; i++) {
        uint64_t s = (uint64_t)t[i] - P::p(i) - borrow;
        d[i] = (uint32_t)s;
        borrow = (s >> 63) & 1;
    }
    // t >= p exactly when the subtraction did not borrow past the carry bit
    bool ge = hi || !borrow;
    CZ_UNROLL
    for (int i = 0; i < P::N; i++)
        r.v[i] = ge ? d[i] : t[i];
}

template <class P> CZ_HD void f_add_c(field<P> &r, const field<P> &a, const field<P> &b) {
    uint32_t t[P::N];
    uint64_t c = 0;
    CZ_UNROLL
    for (int i = 0; i < P::N; i++) {
        uint64_t s = (uint64_t)a.v[i] + b.v[i] + c;
        t[i] = (uint32_t)s;
        c = s >> 32;
    }
    f_reduce_once<P>(r, t, (uint32_t)c);
}

template <class P> CZ_HD void f_sub_c(field<P> &r, const field<P> &a, const field<P> &b) {
    uint32_t t[P::N];
    uint64_t borrow = 0;
    CZ_UNROLL
    for (int i = 0; i < P::N; i++) {
        uint64_t s = (uint64_t)a.v[i] - b.v[i] - borrow;
        t[i] = (uint32_t)s;
        borrow = (s >> 63) & 1;
    }
    // on borrow add p back
    uint32_t mask = 0u - (uint32_t)borrow;
    uint64_t c = 0;
    CZ_UNROLL
    for (int i = 0; i < P::N; i++) {
        uint64_t s = (uint64_t)t[i] + (P::p(i) & mask) + c;
        r.v[i] = (uint32_t)s;
        c = s >> 32;
    }
}

// CIOS Montgomery multiply: r = a b / 2^(32N) mod p.  The running value stays
// below 2p < 2^(32N) (p < 2^(32N) / 2 for both fields), so one subtraction
// ends it.
template <class P> CZ_HD void f_mul_c(field<P> &r, const field<P> &a, const field<P> &b) {
    constexpr int N = P::N;
    uint32_t t[N + 2];
    CZ_UNROLL
    for (int i = 0; i < N + 2; i++)
        t[i] = 0;
    CZ_UNROLL
    for (int i = 0; i < N; i++) {
        uint32_t bi = b.v[i];
        uint64_t c = 0;
        CZ_UNROLL
        for (int j = 0; j < N; j++) {
            uint64_t s = (uint64_t)a.v[j] * bi + t[j] + c;
            t[j] = (uint32_t)s;
            c = s >> 32;
        }
        uint64_t s = (uint64_t)t[N] + c;
        t[N] = (uint32_t)s;
        t[N + 1] = (uint32_t)(s >> 32);
        uint32_t m = t[0] * P::n0;
        s = (uint64_t)m * P::p(0) + t[0];
        c = s >> 32;
        CZ_UNROLL
        for (int j = 1; j < N; j++) {
            s = (uint64_t)m * P::p(j) + t[j] + c;
            t[j - 1] = (uint32_t)s;
            c = s >> 32;
        }
        s = (uint64_t)t[N] + c;
        t[N - 1] = (uint32_t)s;
        t[N] = t[N + 1] + (uint32_t)(s >> 32);
    }
    f_reduce_once<P>(r, t, t[N]);
}

// The dispatch: PTX carry chains on the device (and in the CPU model tests,
// through the instruction model), the portable C elsewhere.
#if defined(__CUDA_ARCH__) || defined(CZ_PTX_EMULATE)
#define CZ_FIELD_CHAINS 1
#else
#define CZ_FIELD_CHAINS 0
#endif
template <class P> CZ_HD void f_add(field<P> &r, const field<P> &a, const field<P> &b) {
#if CZ_FIELD_CHAINS
    ptx_add<P>(r.v, a.v, b.v);
#else
    f_add_c(r, a, b);
#endif
}
template <class P> CZ_HD void f_sub(field<P> &r, const field<P> &a, const field<P> &b) {
#if CZ_FIELD_CHAINS
    ptx_sub<P>(r.v, a.v, b.v);
#else
    f_sub_c(r, a, b);
#endif
}
// Montgomery multiply: ptx_mul2 (two accumulators, PERFORMANCE.md: faster
// than one accumulator, a dedicated square and a Karatsuba product, all
// measured and removed) on the device, the portable C elsewhere.
template <class P> CZ_HD void f_mul(field<P> &r, const field<P> &a, const field<P> &b) {
#if CZ_FIELD_CHAINS
    ptx_mul2<P>(r.v, a.v, b.v);
#else
    f_mul_c(r, a, b);
#endif
}

template <class P> CZ_HD void f_neg(field<P> &r, const field<P> &a) {
    field<P> z;
    f_zero(z);
    f_sub(r, z, a);
}

template <class P> CZ_HD void f_dbl(field<P> &r, const field<P> &a) { f_add(r, a, a); }

template <class P> CZ_HD void f_sqr(field<P> &r, const field<P> &a) { f_mul(r, a, a); }

// Montgomery -> canonical limbs (multiply by plain 1).
template <class P> CZ_HD void f_from_mont(field<P> &r, const field<P> &a) {
    field<P> one;
    f_zero(one);
    one.v[0] = 1;
    f_mul(r, a, one);
}

// a < p as an integer (for canonical-scalar checks).
template <class P> CZ_HD bool f_is_canonical(const field<P> &a) {
    uint64_t borrow = 0;
    CZ_UNROLL
    for (int i = 0; i < P::N; i++) {
        uint64_t s = (uint64_t)a.v[i] - P::p(i) - borrow;
        borrow = (s >> 63) & 1;
    }
    return borrow != 0;
}

// Fp2 = Fp[u]/(u^2 + 1), the CPU's fp2 layout (c0 then c1).  The point
// operations over it are inlined into the kernels (curve.cuh).
template <class B> struct fp2_t { B c0, c1; };
typedef fp2_t<dfp> dfp2;
typedef fp2_t<dfp_i> dfp2_i;

template <class B> CZ_HD void f_zero(fp2_t<B> &r) {
    f_zero(r.c0);
    f_zero(r.c1);
}
template <class B> CZ_HD void set_one(fp2_t<B> &r) {
    set_one(r.c0);
    f_zero(r.c1);
}
template <class B> CZ_HD bool f_is_zero(const fp2_t<B> &a) {
    return f_is_zero(a.c0) && f_is_zero(a.c1);
}
template <class B> CZ_HD void f_add(fp2_t<B> &r, const fp2_t<B> &a, const fp2_t<B> &b) {
    f_add(r.c0, a.c0, b.c0);
    f_add(r.c1, a.c1, b.c1);
}
template <class B> CZ_HD void f_sub(fp2_t<B> &r, const fp2_t<B> &a, const fp2_t<B> &b) {
    f_sub(r.c0, a.c0, b.c0);
    f_sub(r.c1, a.c1, b.c1);
}
template <class B> CZ_HD void f_neg(fp2_t<B> &r, const fp2_t<B> &a) {
    f_neg(r.c0, a.c0);
    f_neg(r.c1, a.c1);
}
template <class B> CZ_HD void f_dbl(fp2_t<B> &r, const fp2_t<B> &a) { f_add(r, a, a); }
// Karatsuba: 3 Fp multiplies.  (A lazily reduced form, three double-width
// products and two reductions, was slower in the G2 kernels: 6cbf986.)
template <class B> CZ_HD void f_mul(fp2_t<B> &r, const fp2_t<B> &a, const fp2_t<B> &b) {
    B t0, t1, s0, s1;
    f_mul(t0, a.c0, b.c0);
    f_mul(t1, a.c1, b.c1);
    f_add(s0, a.c0, a.c1);
    f_add(s1, b.c0, b.c1);
    f_mul(s0, s0, s1);
    f_sub(r.c0, t0, t1);
    f_sub(s0, s0, t0);
    f_sub(r.c1, s0, t1);
}
// (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u
template <class B> CZ_HD void f_sqr(fp2_t<B> &r, const fp2_t<B> &a) {
    B s, d, m;
    f_add(s, a.c0, a.c1);
    f_sub(d, a.c0, a.c1);
    f_mul(m, a.c0, a.c1);
    f_mul(r.c0, s, d);
    f_add(r.c1, m, m);
}

#endif
