// Montgomery add, sub and multiply for the device as PTX carry chains
// (add.cc / addc / mad.lo.cc / madc.hi.cc on 32-bit limbs): one instruction
// per limb step, where the portable C in field.cuh spends a 64-bit product
// and two 64-bit adds.  Included by field.cuh; P is a field's parameter
// struct (N limbs, p(i), n0).  Add, sub and multiply are generated, one asm
// block each (field_ptx_gen.cuh); Fr's Shoup multiply below is written with
// one asm statement per instruction, each volatile so the compiler keeps
// their order: the carry flag runs from one to the next, and ptxas, which
// models the flag, schedules them.  The device always uses them (the portable
// C lost by 1.36x to 1.54x in multiply throughput: PERFORMANCE.md);
// bench_cuda's "field" mode times both in one binary.
#ifndef CUZK_CUDA_FIELD_PTX_CUH
#define CUZK_CUDA_FIELD_PTX_CUH

#include <stdint.h>

#if defined(__CUDA_ARCH__)
#define CZ_PTX_BODIES 1
#define CZ_D __device__ __forceinline__
#define CZ_PTX_UNROLL _Pragma("unroll")

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
CZ_ASM2(mul_lo, "mul.lo.u32")         // lo(a b), no flag
CZ_ASM2(mul_hi, "mul.hi.u32")         // hi(a b), no flag
CZ_ASM3(mad_lo, "mad.lo.u32")         // lo(a b) + c
CZ_ASM3(mad_lo_cc, "mad.lo.cc.u32")   // lo(a b) + c, carry out
CZ_ASM3(madc_lo, "madc.lo.u32")       // lo(a b) + c + carry
CZ_ASM3(madc_lo_cc, "madc.lo.cc.u32") // lo(a b) + c + carry, carry out
CZ_ASM3(madc_hi_cc, "madc.hi.cc.u32") // hi(a b) + c + carry, carry out
CZ_ASM3(madc_hi, "madc.hi.u32")       // hi(a b) + c + carry
CZ_ASM3(mad_hi_cc, "mad.hi.cc.u32")   // hi(a b) + c, carry out
CZ_ASM3(mad_hi, "mad.hi.u32")         // hi(a b) + c
#undef CZ_ASM2
#undef CZ_ASM3

#elif defined(CZ_PTX_EMULATE)
// A host model of the same instructions with PTX's one carry flag, so that
// tests/unit/cuda/ptx_model.cu runs these exact chains on the CPU against the
// CPU field (a wrong limb index or a lost carry shows there, not on the GPU).
#define CZ_PTX_BODIES 1
#define CZ_D static inline
#define CZ_PTX_UNROLL
static uint32_t cz_emu_cf; // carry (add) or borrow (sub) flag
CZ_D uint32_t cz_emu_set(uint64_t s) {
    cz_emu_cf = (uint32_t)(s >> 32) & 1;
    return (uint32_t)s;
}
CZ_D uint64_t cz_lo(uint32_t a, uint32_t b) { return (uint32_t)((uint64_t)a * b); }
CZ_D uint64_t cz_hi(uint32_t a, uint32_t b) { return ((uint64_t)a * b) >> 32; }
CZ_D uint32_t add_cc(uint32_t a, uint32_t b) { return cz_emu_set((uint64_t)a + b); }
CZ_D uint32_t addc_cc(uint32_t a, uint32_t b) { return cz_emu_set((uint64_t)a + b + cz_emu_cf); }
CZ_D uint32_t addc(uint32_t a, uint32_t b) { return (uint32_t)((uint64_t)a + b + cz_emu_cf); }
CZ_D uint32_t sub_cc(uint32_t a, uint32_t b) { return cz_emu_set((uint64_t)a - b); }
CZ_D uint32_t subc_cc(uint32_t a, uint32_t b) { return cz_emu_set((uint64_t)a - b - cz_emu_cf); }
CZ_D uint32_t subc(uint32_t a, uint32_t b) { return (uint32_t)((uint64_t)a - b - cz_emu_cf); }
CZ_D uint32_t mul_lo(uint32_t a, uint32_t b) { return (uint32_t)cz_lo(a, b); }
CZ_D uint32_t mul_hi(uint32_t a, uint32_t b) { return (uint32_t)cz_hi(a, b); }
CZ_D uint32_t mad_lo(uint32_t a, uint32_t b, uint32_t c) { return (uint32_t)(cz_lo(a, b) + c); }
CZ_D uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) { return cz_emu_set(cz_lo(a, b) + c); }
CZ_D uint32_t madc_lo(uint32_t a, uint32_t b, uint32_t c) {
    return (uint32_t)(cz_lo(a, b) + c + cz_emu_cf);
}
CZ_D uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
    return cz_emu_set(cz_lo(a, b) + c + cz_emu_cf);
}
CZ_D uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
    return cz_emu_set(cz_hi(a, b) + c + cz_emu_cf);
}
CZ_D uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c) {
    return (uint32_t)(cz_hi(a, b) + c + cz_emu_cf);
}
CZ_D uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c) { return cz_emu_set(cz_hi(a, b) + c); }
CZ_D uint32_t mad_hi(uint32_t a, uint32_t b, uint32_t c) { return (uint32_t)(cz_hi(a, b) + c); }
#endif

// The generated chains (their moduli everywhere, their bodies where the
// instructions above exist).
#include "cuda/field_ptx_gen.cuh"

#ifdef CZ_PTX_BODIES
// r = t - p when t >= p; t < 2p.
template <class P> CZ_D void ptx_reduce(uint32_t *r, const uint32_t *t) {
    constexpr int N = P::N;
    uint32_t d[N];
    d[0] = sub_cc(t[0], P::p(0));
    CZ_PTX_UNROLL
    for (int i = 1; i < N; i++)
        d[i] = subc_cc(t[i], P::p(i));
    uint32_t borrow = subc(0, 0); // all ones when t < p
    CZ_PTX_UNROLL
    for (int i = 0; i < N; i++)
        r[i] = borrow ? t[i] : d[i];
}

// Fr's modulus ends in 2^64 - 2^32 + 1 (32-bit limbs 1, 2^32 - 1) and
// -p^-1 = -1 mod 2^32: in a row of REDC, m = -e0 (e0 = E[0]), so
// lo(1 m) = m, hi(1 m) = 0, lo((2^32 - 1) m) = -m = e0 and
// hi((2^32 - 1) m) = m - [m != 0]: four multiply-adds become adds, which run
// on the integer ALU while the multiplier is the bottleneck.
template <class P> struct ptx_p_low_special {
    static constexpr bool value = P::p(0) == 1u && P::p(1) == 0xffffffffu && P::n0 == 0xffffffffu;
};

// Add, subtract and the Montgomery multiply, generated (tools/gen_ptx_field.py
// says why and how), picked by the field's limb count: one asm block each,
// or with P::inst one call per instruction (the CPU model has only that form).
template <class P> CZ_D void ptx_add(uint32_t *r, const uint32_t *a, const uint32_t *b) {
    static_assert(P::N == 12 || P::N == 8, "Fp or Fr");
#ifdef __CUDA_ARCH__
    if constexpr (P::N == 8)
        cz_add_fr(r, a, b);
    else if constexpr (P::inst)
        cz_add_fp_i(r, a, b);
    else
        cz_add_fp(r, a, b);
#else // the CPU model (CZ_PTX_EMULATE)
    if constexpr (P::N == 12)
        cz_add_fp_i(r, a, b);
    else
        cz_add_fr_i(r, a, b);
#endif
}
template <class P> CZ_D void ptx_sub(uint32_t *r, const uint32_t *a, const uint32_t *b) {
    static_assert(P::N == 12 || P::N == 8, "Fp or Fr");
#ifdef __CUDA_ARCH__
    if constexpr (P::N == 8)
        cz_sub_fr(r, a, b);
    else if constexpr (P::inst)
        cz_sub_fp_i(r, a, b);
    else
        cz_sub_fp(r, a, b);
#else // the CPU model (CZ_PTX_EMULATE)
    if constexpr (P::N == 12)
        cz_sub_fp_i(r, a, b);
    else
        cz_sub_fr_i(r, a, b);
#endif
}
template <class P> CZ_D void ptx_mul2(uint32_t *r, const uint32_t *a, const uint32_t *b) {
    static_assert(P::N == 12 || P::N == 8, "Fp or Fr");
#ifdef __CUDA_ARCH__
    if constexpr (P::N == 8)
        cz_mul_fr(r, a, b);
    else if constexpr (P::inst)
        cz_mul_fp_i(r, a, b);
    else
        cz_mul_fp(r, a, b);
#else // the CPU model (CZ_PTX_EMULATE)
    if constexpr (P::N == 12)
        cz_mul_fp_i(r, a, b);
    else
        cz_mul_fr_i(r, a, b);
#endif
}

// One multiply-add of a carry chain: the low or high half, first (no carry
// in) or not, last (no carry out) or not.  Callers pass values that fold to
// constants once their loops unroll, so one instruction remains.
CZ_D uint32_t mad_step(bool hi, bool first, bool last, uint32_t a, uint32_t b, uint32_t c) {
    if (hi)
        return first ? (last ? mad_hi(a, b, c) : mad_hi_cc(a, b, c))
                     : (last ? madc_hi(a, b, c) : madc_hi_cc(a, b, c));
    return first ? (last ? mad_lo(a, b, c) : mad_lo_cc(a, b, c))
                 : (last ? madc_lo(a, b, c) : madc_lo_cc(a, b, c));
}

// t[0..n-1] += w[j] y for j = S, S + 2, ... < n, mod 2^(32n): each product's
// low half into t[j] and high half into t[j+1] (dropped past the top), one
// chain, adjacent halves of a product side by side (ptxas fuses those into
// IMAD.WIDE).
template <int n, int S> CZ_D void ptx_chain_mod(uint32_t *t, const uint32_t *w, uint32_t y) {
    int total = 0;
    for (int j = S; j < n; j += 2)
        total += j + 1 < n ? 2 : 1;
    int k = 0;
    CZ_PTX_UNROLL
    for (int j = S; j < n; j += 2) {
        t[j] = mad_step(false, k == 0, k == total - 1, w[j], y, t[j]);
        k++;
        if (j + 1 < n) {
            t[j + 1] = mad_step(true, k == 0, k == total - 1, w[j], y, t[j + 1]);
            k++;
        }
    }
}

// lo(x w) mod 2^(32 n) for n-limb x, w, by rows, into t (zero on entry).
template <int n, int I = 0>
CZ_D void ptx_mul_low(uint32_t *t, const uint32_t *x, const uint32_t *w) {
    if constexpr (I < n) {
        ptx_chain_mod<n - I, 0>(t + I, w, x[I]);
        ptx_chain_mod<n - I, 1>(t + I, w, x[I]);
        ptx_mul_low<n, I + 1>(t, x, w);
    }
}

// Row I of Shoup's quotient: A += x_I wq[7-I .. 8] / 2^32 with the low half
// of the first product (column 7) dropped.  Product k (wq[7 - I + k]) puts
// its low half in A[k - 1] and its high half in A[k]; A[I + 1] is 0 on entry
// and the top of this row.  The chain of the parity that stops below the
// top runs first and closes with the carry into A[I + 1].
template <int I, int S> CZ_D void ptx_quot_chain(uint32_t *A, const uint32_t *wq, uint32_t y) {
    constexpr bool top = (I + 1) % 2 == S;
    int total = top ? 0 : 1;
    for (int k = S; k <= I + 1; k += 2)
        total += k >= 1 ? 2 : 1;
    int st = 0;
    CZ_PTX_UNROLL
    for (int k = S; k <= I + 1; k += 2) {
        const uint32_t wj = wq[7 - I + k];
        if (k >= 1) {
            A[k - 1] = mad_step(false, st == 0, st == total - 1, wj, y, A[k - 1]);
            st++;
        }
        A[k] = mad_step(true, st == 0, st == total - 1, wj, y, A[k]);
        st++;
    }
    if constexpr (!top)
        A[I + 1] = addc(A[I + 1], 0);
}

template <int I = 0> CZ_D void ptx_quot_rows(uint32_t *A, const uint32_t *x, const uint32_t *wq) {
    if constexpr (I < 8) {
        ptx_quot_chain<I, I % 2>(A, wq, x[I]);
        ptx_quot_chain<I, (I + 1) % 2>(A, wq, x[I]);
        ptx_quot_rows<I + 1>(A, x, wq);
    }
}

// Shoup's multiply by a fixed w < p (Fr only): r = x w mod p, given
// wq = floor(w 2^288 / p) (9 limbs, shoup_quotient).  For any x < 2^256,
// with Q = floor(x w / p): x w / p - x wq / 2^288 is in [0, x / 2^288), so
// q0 = floor(x wq / 2^288) is Q or Q - 1.  The quotient here skips the
// products below column 7 and the low halves of column 7, D < 16 2^256 in
// all, so q is q0 or q0 - 1.  Both short at once would need x wq within x of
// Q 2^288 from below and D to carry past it: x + D > 2^288, impossible.  So
// r = x w - q p is below 2p: computed mod 2^256 as lo(x w) - lo(q p), then
// one conditional subtraction.  Fr's p = 1 - 2^32 + 2^64 + (p >> 64) 2^64
// makes q p = q - (q << 32) + (q ((p >> 64) + 1)) << 64, so the low two limbs
// of p cost adds.  Multiply-adds: 64 + 80 + 36 against 224 for Montgomery
// (ptx_mul2 with Fr's special limbs); x in Montgomery form and w plain give
// x w in Montgomery form.  r may alias x.
template <class P>
CZ_D void ptx_mul_shoup(uint32_t *r, const uint32_t *x, const uint32_t *w, const uint32_t *wq) {
    static_assert(P::N == 8 && ptx_p_low_special<P>::value && P::p(2) != 0xffffffffu,
                  "Fr's modulus");
    uint32_t L[8], A[9], M[6], pp[6];
    CZ_PTX_UNROLL
    for (int j = 0; j < 8; j++)
        L[j] = 0;
    ptx_mul_low<8>(L, x, w);
    CZ_PTX_UNROLL
    for (int j = 0; j < 9; j++)
        A[j] = 0;
    ptx_quot_rows(A, x, wq);
    const uint32_t *q = A + 1; // A[0] is column 8, dropped
    CZ_PTX_UNROLL
    for (int j = 0; j < 6; j++) {
        pp[j] = P::p(j + 2) + (j == 0 ? 1u : 0u); // (p >> 64) + 1
        M[j] = 0;
    }
    ptx_mul_low<6>(M, q, pp);
    uint32_t s[8]; // L + (q << 32) - q - (M << 64), mod 2^256
    s[0] = L[0];
    s[1] = add_cc(L[1], q[0]);
    CZ_PTX_UNROLL
    for (int j = 2; j < 7; j++)
        s[j] = addc_cc(L[j], q[j - 1]);
    s[7] = addc(L[7], q[6]);
    s[0] = sub_cc(s[0], q[0]);
    CZ_PTX_UNROLL
    for (int j = 1; j < 7; j++)
        s[j] = subc_cc(s[j], q[j]);
    s[7] = subc(s[7], q[7]);
    s[2] = sub_cc(s[2], M[0]);
    CZ_PTX_UNROLL
    for (int j = 3; j < 7; j++)
        s[j] = subc_cc(s[j], M[j - 2]);
    s[7] = subc(s[7], M[5]);
    ptx_reduce<P>(r, s);
}

#undef CZ_D
#undef CZ_PTX_UNROLL
#undef CZ_PTX_BODIES
#endif // CZ_PTX_BODIES

#endif
