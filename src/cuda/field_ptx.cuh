// Montgomery add, sub and multiply for the device as PTX carry chains
// (add.cc / addc / mad.lo.cc / madc.hi.cc on 32-bit limbs): one instruction
// per limb step, where the portable C in field.cuh spends a 64-bit product
// and two 64-bit adds.  Included by field.cuh; P is a field's parameter
// struct (N limbs, p(i), n0).
//
// Each asm statement is volatile so the compiler keeps their order: the carry
// flag runs from one to the next, and ptxas, which models the flag, schedules
// them.  Build with -DCUZK_NO_PTX_FIELD to use the portable C on the device
// too; bench_cuda's "field" mode times both in one binary.
#ifndef CUZK_CUDA_FIELD_PTX_CUH
#define CUZK_CUDA_FIELD_PTX_CUH

#include <stdint.h>

#if defined(__CUDA_ARCH__) && !defined(CUZK_NO_PTX_FIELD)
#define CZ_PTX 1
#else
#define CZ_PTX 0
#endif

#ifdef __CUDA_ARCH__
#define CZ_D __device__ __forceinline__

// One PTX instruction as a function: r = OP a, b (, c).
#define CZ_ASM2(name, op)                                           \
    CZ_D uint32_t name(uint32_t a, uint32_t b) {                    \
        uint32_t r;                                                 \
        asm volatile(op " %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); \
        return r;                                                   \
    }
#define CZ_ASM3(name, op)                                                       \
    CZ_D uint32_t name(uint32_t a, uint32_t b, uint32_t c) {                    \
        uint32_t r;                                                             \
        asm volatile(op " %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); \
        return r;                                                               \
    }
CZ_ASM2(add_cc, "add.cc.u32")         // carry out
CZ_ASM2(addc_cc, "addc.cc.u32")       // carry in and out
CZ_ASM2(addc, "addc.u32")             // carry in
CZ_ASM2(sub_cc, "sub.cc.u32")         // borrow out
CZ_ASM2(subc_cc, "subc.cc.u32")       // borrow in and out
CZ_ASM2(subc, "subc.u32")             // borrow in
CZ_ASM3(mad_lo_cc, "mad.lo.cc.u32")   // lo(a b) + c, carry out
CZ_ASM3(madc_lo_cc, "madc.lo.cc.u32") // lo(a b) + c + carry, carry out
CZ_ASM3(madc_hi_cc, "madc.hi.cc.u32") // hi(a b) + c + carry, carry out
CZ_ASM3(madc_hi, "madc.hi.u32")       // hi(a b) + c + carry
#undef CZ_ASM2
#undef CZ_ASM3

// r = t - p when t >= p; t < 2p.
template <class P> CZ_D void ptx_reduce(uint32_t *r, const uint32_t *t) {
    constexpr int N = P::N;
    uint32_t d[N];
    d[0] = sub_cc(t[0], P::p(0));
#pragma unroll
    for (int i = 1; i < N; i++)
        d[i] = subc_cc(t[i], P::p(i));
    uint32_t borrow = subc(0, 0); // all ones when t < p
#pragma unroll
    for (int i = 0; i < N; i++)
        r[i] = borrow ? t[i] : d[i];
}

// a + b < 2p < 2^(32N) (p < 2^(32N) / 2): no carry out of the top limb.
template <class P> CZ_D void ptx_add(uint32_t *r, const uint32_t *a, const uint32_t *b) {
    constexpr int N = P::N;
    uint32_t t[N];
    t[0] = add_cc(a[0], b[0]);
#pragma unroll
    for (int i = 1; i < N - 1; i++)
        t[i] = addc_cc(a[i], b[i]);
    t[N - 1] = addc(a[N - 1], b[N - 1]);
    ptx_reduce<P>(r, t);
}

template <class P> CZ_D void ptx_sub(uint32_t *r, const uint32_t *a, const uint32_t *b) {
    constexpr int N = P::N;
    uint32_t t[N];
    t[0] = sub_cc(a[0], b[0]);
#pragma unroll
    for (int i = 1; i < N; i++)
        t[i] = subc_cc(a[i], b[i]);
    uint32_t mask = subc(0, 0); // all ones on borrow: add p back
    r[0] = add_cc(t[0], P::p(0) & mask);
#pragma unroll
    for (int i = 1; i < N - 1; i++)
        r[i] = addc_cc(t[i], P::p(i) & mask);
    r[N - 1] = addc(t[N - 1], P::p(N - 1) & mask);
}

// t[0..N] += x * y where x is N limbs: two carry chains, one for the products
// of even limbs (lo into t[j], hi into t[j+1]) and one for the odd limbs.  The
// caller guarantees the sum fits in N + 1 limbs.
template <int N> CZ_D void ptx_mul_add_row(uint32_t *t, const uint32_t *x, uint32_t y) {
    t[0] = mad_lo_cc(x[0], y, t[0]);
    t[1] = madc_hi_cc(x[0], y, t[1]);
#pragma unroll
    for (int j = 2; j < N; j += 2) {
        t[j] = madc_lo_cc(x[j], y, t[j]);
        t[j + 1] = madc_hi_cc(x[j], y, t[j + 1]);
    }
    t[N] = addc(t[N], 0);
    t[1] = mad_lo_cc(x[1], y, t[1]);
    t[2] = madc_hi_cc(x[1], y, t[2]);
#pragma unroll
    for (int j = 3; j < N - 1; j += 2) {
        t[j] = madc_lo_cc(x[j], y, t[j]);
        t[j + 1] = madc_hi_cc(x[j], y, t[j + 1]);
    }
    t[N - 1] = madc_lo_cc(x[N - 1], y, t[N - 1]);
    t[N] = madc_hi(x[N - 1], y, t[N]);
}

// Montgomery r = a b / 2^(32N) mod p, CIOS by rows.  With a < p and the
// partial value t < 2p, t + a b_i + m p < 2^(32(N+1)) when p < 2^(32N) / 2,
// so N + 1 limbs hold every row.
template <class P> CZ_D void ptx_mul(uint32_t *r, const uint32_t *a, const uint32_t *b) {
    constexpr int N = P::N;
    static_assert(N % 2 == 0 && N >= 4, "even limb count");
    uint32_t pm[N];
#pragma unroll
    for (int j = 0; j < N; j++)
        pm[j] = P::p(j);
    uint32_t t[N + 1];
#pragma unroll
    for (int j = 0; j <= N; j++)
        t[j] = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
        ptx_mul_add_row<N>(t, a, b[i]);
        uint32_t m = t[0] * P::n0;
        ptx_mul_add_row<N>(t, pm, m); // t[0] becomes 0
#pragma unroll
        for (int j = 0; j < N; j++)
            t[j] = t[j + 1];
        t[N] = 0;
    }
    ptx_reduce<P>(r, t);
}

#undef CZ_D
#endif // __CUDA_ARCH__

#endif
