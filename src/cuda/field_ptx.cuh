// Montgomery add, sub, multiply and square for the device as PTX carry chains
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

// a + b < 2p < 2^(32N) (p < 2^(32N) / 2): no carry out of the top limb.
template <class P> CZ_D void ptx_add(uint32_t *r, const uint32_t *a, const uint32_t *b) {
    constexpr int N = P::N;
    uint32_t t[N];
    t[0] = add_cc(a[0], b[0]);
    CZ_PTX_UNROLL
    for (int i = 1; i < N - 1; i++)
        t[i] = addc_cc(a[i], b[i]);
    t[N - 1] = addc(a[N - 1], b[N - 1]);
    ptx_reduce<P>(r, t);
}

template <class P> CZ_D void ptx_sub(uint32_t *r, const uint32_t *a, const uint32_t *b) {
    constexpr int N = P::N;
    uint32_t t[N];
    t[0] = sub_cc(a[0], b[0]);
    CZ_PTX_UNROLL
    for (int i = 1; i < N; i++)
        t[i] = subc_cc(a[i], b[i]);
    uint32_t mask = subc(0, 0); // all ones on borrow: add p back
    r[0] = add_cc(t[0], P::p(0) & mask);
    CZ_PTX_UNROLL
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
    CZ_PTX_UNROLL
    for (int j = 2; j < N; j += 2) {
        t[j] = madc_lo_cc(x[j], y, t[j]);
        t[j + 1] = madc_hi_cc(x[j], y, t[j + 1]);
    }
    t[N] = addc(t[N], 0);
    t[1] = mad_lo_cc(x[1], y, t[1]);
    t[2] = madc_hi_cc(x[1], y, t[2]);
    CZ_PTX_UNROLL
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
    CZ_PTX_UNROLL
    for (int j = 0; j < N; j++)
        pm[j] = P::p(j);
    uint32_t t[N + 1];
    CZ_PTX_UNROLL
    for (int j = 0; j <= N; j++)
        t[j] = 0;
    CZ_PTX_UNROLL
    for (int i = 0; i < N; i++) {
        ptx_mul_add_row<N>(t, a, b[i]);
        uint32_t m = t[0] * P::n0;
        ptx_mul_add_row<N>(t, pm, m); // t[0] becomes 0
        CZ_PTX_UNROLL
        for (int j = 0; j < N; j++)
            t[j] = t[j + 1];
        t[N] = 0;
    }
    ptx_reduce<P>(r, t);
}

// Fr's modulus ends in 2^64 - 2^32 + 1 (32-bit limbs 1, 2^32 - 1) and
// -p^-1 = -1 mod 2^32: in a row of REDC, m = -e0 (e0 = E[0]), so
// lo(1 m) = m, hi(1 m) = 0, lo((2^32 - 1) m) = -m = e0 and
// hi((2^32 - 1) m) = m - [m != 0]: four multiply-adds become adds, which run
// on the integer ALU while the multiplier is the bottleneck.
template <class P> struct ptx_p_low_special {
    static constexpr bool value = P::p(0) == 1u && P::p(1) == 0xffffffffu && P::n0 == 0xffffffffu;
};

// The reduction half of a row of ptx_mul2: m from position 0 (only E holds
// it), then m p added to E by the even limbs of p and to O by the odd ones.
// E[0] becomes 0.  O has no carry out: O 2^32 <= T < 2^(32(N+1)).
template <class P, bool SPECIAL> CZ_D void ptx_mul2_redc(uint32_t *E, uint32_t *O) {
    constexpr int N = P::N;
    constexpr bool sp = SPECIAL && ptx_p_low_special<P>::value;
    const uint32_t e0 = E[0], m = sp ? 0u - e0 : e0 * P::n0;
    const uint32_t h1 = e0 ? ~e0 : 0u; // sp: hi((2^32 - 1) m) = m - 1, or 0 when m = 0
    if constexpr (sp) {
        E[0] = add_cc(e0, m); // 0, carry e0 != 0
        E[1] = addc_cc(E[1], 0);
    } else {
        E[0] = mad_lo_cc(P::p(0), m, e0);
        E[1] = madc_hi_cc(P::p(0), m, E[1]);
    }
    CZ_PTX_UNROLL
    for (int j = 2; j < N; j += 2) {
        E[j] = madc_lo_cc(P::p(j), m, E[j]);
        E[j + 1] = madc_hi_cc(P::p(j), m, E[j + 1]);
    }
    E[N] = addc(E[N], 0);
    if constexpr (sp) {
        O[0] = add_cc(O[0], e0);
        O[1] = addc_cc(O[1], h1);
    } else {
        O[0] = mad_lo_cc(P::p(1), m, O[0]);
        O[1] = madc_hi_cc(P::p(1), m, O[1]);
    }
    CZ_PTX_UNROLL
    for (int j = 3; j < N - 1; j += 2) {
        O[j - 1] = madc_lo_cc(P::p(j), m, O[j - 1]);
        O[j] = madc_hi_cc(P::p(j), m, O[j]);
    }
    O[N - 2] = madc_lo_cc(P::p(N - 1), m, O[N - 2]);
    O[N - 1] = madc_hi(P::p(N - 1), m, O[N - 1]);
}

// Montgomery r = a b / 2^(32N) mod p, CIOS with the running value T split
// in two accumulators, T = E + O 2^32: E (N + 1 limbs from position 0) takes
// the products of the even limbs, O (N limbs from position 1) those of the
// odd limbs.  The two carry chains of each half row share no register, so
// ptxas can run them side by side, where ptx_mul's single accumulator makes
// every chain wait on the one before.  Row 0 is plain products (no carries).
// Between rows, T / 2^32 = E[1..N] + O[0..N-1] (both now from position 0):
// the new O is E[2..N] (from position 1), the new E is O plus E[1], whose
// carry enters the new O's chain.  Bounds as ptx_mul: T < 2^(32(N+1)).
template <class P, bool SPECIAL = true>
CZ_D void ptx_mul2(uint32_t *r, const uint32_t *a, const uint32_t *b) {
    constexpr int N = P::N;
    static_assert(N % 2 == 0 && N >= 4, "even limb count");
    uint32_t E[N + 1], O[N];
    CZ_PTX_UNROLL
    for (int j = 0; j < N; j += 2) {
        E[j] = mul_lo(a[j], b[0]);
        E[j + 1] = mul_hi(a[j], b[0]);
        O[j] = mul_lo(a[j + 1], b[0]);
        O[j + 1] = mul_hi(a[j + 1], b[0]);
    }
    E[N] = 0;
    ptx_mul2_redc<P, SPECIAL>(E, O);
    CZ_PTX_UNROLL
    for (int i = 1; i < N; i++) {
        uint32_t bi = b[i], e[N + 1], o[N];
        e[0] = add_cc(O[0], E[1]); // position 0; its carry goes to position 1
        o[0] = madc_lo_cc(a[1], bi, E[2]);
        o[1] = madc_hi_cc(a[1], bi, E[3]);
        CZ_PTX_UNROLL
        for (int j = 3; j < N - 1; j += 2) {
            o[j - 1] = madc_lo_cc(a[j], bi, E[j + 1]);
            o[j] = madc_hi_cc(a[j], bi, E[j + 2]);
        }
        o[N - 2] = madc_lo_cc(a[N - 1], bi, E[N]);
        o[N - 1] = madc_hi(a[N - 1], bi, 0);
        e[0] = mad_lo_cc(a[0], bi, e[0]);
        e[1] = madc_hi_cc(a[0], bi, O[1]);
        CZ_PTX_UNROLL
        for (int j = 2; j < N; j += 2) {
            e[j] = madc_lo_cc(a[j], bi, O[j]);
            e[j + 1] = madc_hi_cc(a[j], bi, O[j + 1]);
        }
        e[N] = addc(0, 0);
        CZ_PTX_UNROLL
        for (int j = 0; j < N; j++) {
            E[j] = e[j];
            O[j] = o[j];
        }
        E[N] = e[N];
        ptx_mul2_redc<P, SPECIAL>(E, O);
    }
    uint32_t s[N]; // T / 2^32 < 2p < 2^(32N): no carry out
    s[0] = add_cc(E[1], O[0]);
    CZ_PTX_UNROLL
    for (int j = 1; j < N - 1; j++)
        s[j] = addc_cc(E[j + 1], O[j]);
    s[N - 1] = addc(E[N], O[N - 1]);
    ptx_reduce<P>(r, s);
}

// t[0..L] += x[0..L-1] y where t[L] is 0 on entry, so the sum fits in L + 1
// limbs: the low halves in one carry chain, the high halves in another.
template <int L> CZ_D void ptx_row_top0(uint32_t *t, const uint32_t *x, uint32_t y) {
    t[0] = mad_lo_cc(x[0], y, t[0]);
    CZ_PTX_UNROLL
    for (int j = 1; j < L; j++)
        t[j] = madc_lo_cc(x[j], y, t[j]);
    t[L] = addc(t[L], 0);
    if constexpr (L == 1) {
        t[1] = mad_hi(x[0], y, t[1]);
    } else {
        t[1] = mad_hi_cc(x[0], y, t[1]);
        CZ_PTX_UNROLL
        for (int j = 1; j < L - 1; j++)
            t[j + 1] = madc_hi_cc(x[j], y, t[j + 1]);
        t[L] = madc_hi(x[L - 1], y, t[L]);
    }
}

// The cross products a_i a_j (i < j) into t: row I spans t[2I+1 .. I+N],
// whose top limb no earlier row reached.
template <int N, int I> CZ_D void ptx_cross_rows(uint32_t *t, const uint32_t *a) {
    if constexpr (I < N - 1) {
        ptx_row_top0<N - 1 - I>(t + 2 * I + 1, a + I + 1, a[I]);
        ptx_cross_rows<N, I + 1>(t, a);
    }
}

// One row of REDC on u[0..N] (u[N] = 0 on entry): u += m p with m = -u[0] /
// p mod 2^32, so u[0] becomes 0, then u shifts down a limb.  With Fr's
// special low limbs (1, 2^32 - 1) and m = -u[0], the products of those two
// limbs are adds (see ptx_p_low_special): twelve multiply-adds a row, not 16.
template <class P> CZ_D void ptx_redc_row(uint32_t *u) {
    constexpr int N = P::N;
    const uint32_t u0 = u[0];
    if constexpr (ptx_p_low_special<P>::value) {
        const uint32_t m = 0u - u0, h1 = u0 ? ~u0 : 0u; // hi((2^32 - 1) m)
        // the low halves: p0 m = m, lo(p1 m) = u0, then p2..p(N-1)
        uint32_t t = add_cc(u0, m); // 0, carry u0 != 0
        (void)t;
        u[1] = addc_cc(u[1], u0);
        CZ_PTX_UNROLL
        for (int j = 2; j < N; j++)
            u[j] = madc_lo_cc(P::p(j), m, u[j]);
        u[N] = addc(u[N], 0);
        // the high halves: hi(p0 m) = 0, hi(p1 m) = h1, then p2..p(N-1)
        u[2] = add_cc(u[2], h1);
        CZ_PTX_UNROLL
        for (int j = 2; j < N - 1; j++)
            u[j + 1] = madc_hi_cc(P::p(j), m, u[j + 1]);
        u[N] = madc_hi(P::p(N - 1), m, u[N]);
    } else {
        uint32_t pm[N];
        CZ_PTX_UNROLL
        for (int j = 0; j < N; j++)
            pm[j] = P::p(j);
        ptx_mul_add_row<N>(u, pm, u0 * P::n0);
    }
    CZ_PTX_UNROLL
    for (int j = 0; j < N; j++)
        u[j] = u[j + 1];
    u[N] = 0;
}

// r = t / 2^(32N) mod p for a 2N-limb t = h R + u with h < p / 2: as
// h + REDC(u).  REDC(u) <= p since u < R, so h + REDC(u) < 2p and one
// subtraction ends it.
template <class P> CZ_D void ptx_reduce_wide(uint32_t *r, const uint32_t *t) {
    constexpr int N = P::N;
    uint32_t u[N + 1];
    CZ_PTX_UNROLL
    for (int j = 0; j < N; j++)
        u[j] = t[j];
    u[N] = 0;
    CZ_PTX_UNROLL
    for (int i = 0; i < N; i++) // u + m p < 2^(32(N+1)) at every row
        ptx_redc_row<P>(u);
    uint32_t s[N];
    s[0] = add_cc(u[0], t[N]);
    CZ_PTX_UNROLL
    for (int j = 1; j < N - 1; j++)
        s[j] = addc_cc(u[j], t[N + j]);
    s[N - 1] = addc(u[N - 1], t[2 * N - 1]);
    ptx_reduce<P>(r, s);
}

// Montgomery r = a^2 / 2^(32N) mod p: the 2N-limb square (cross products
// once, doubled, plus the diagonal: about N^2 / 2 fewer products than a
// multiply), then T = h R + u is reduced as h + REDC(u).  REDC(u) <= p since
// u < R, and h < p^2 / R < p / 2 for both fields, so h + REDC(u) < 2p and one
// subtraction ends it.
template <class P> CZ_D void ptx_sqr(uint32_t *r, const uint32_t *a) {
    constexpr int N = P::N;
    uint32_t t[2 * N];
    CZ_PTX_UNROLL
    for (int j = 0; j < 2 * N; j++)
        t[j] = 0;
    ptx_cross_rows<N, 0>(t, a);
    t[1] = add_cc(t[1], t[1]); // doubled; t[2N-1] was 0
    CZ_PTX_UNROLL
    for (int j = 2; j < 2 * N - 1; j++)
        t[j] = addc_cc(t[j], t[j]);
    t[2 * N - 1] = addc(0, 0);
    t[0] = mad_lo_cc(a[0], a[0], t[0]); // the diagonal, one chain
    t[1] = madc_hi_cc(a[0], a[0], t[1]);
    CZ_PTX_UNROLL
    for (int i = 1; i < N - 1; i++) {
        t[2 * i] = madc_lo_cc(a[i], a[i], t[2 * i]);
        t[2 * i + 1] = madc_hi_cc(a[i], a[i], t[2 * i + 1]);
    }
    t[2 * N - 2] = madc_lo_cc(a[N - 1], a[N - 1], t[2 * N - 2]);
    t[2 * N - 1] = madc_hi(a[N - 1], a[N - 1], t[2 * N - 1]);
    ptx_reduce_wide<P>(r, t);
}

// r[0..2H-1] = x[0..H-1] y[0..H-1], schoolbook by rows: row 0 as plain
// low products plus one chain of high ones, then rows through ptx_row_top0.
template <int H> CZ_D void ptx_prod(uint32_t *r, const uint32_t *x, const uint32_t *y) {
    CZ_PTX_UNROLL
    for (int j = 0; j < H; j++)
        r[j] = mul_lo(x[j], y[0]);
    r[1] = mad_hi_cc(x[0], y[0], r[1]);
    CZ_PTX_UNROLL
    for (int j = 1; j < H - 1; j++)
        r[j + 1] = madc_hi_cc(x[j], y[0], r[j + 1]);
    r[H] = madc_hi(x[H - 1], y[0], 0);
    CZ_PTX_UNROLL
    for (int j = H + 1; j < 2 * H; j++)
        r[j] = 0;
    CZ_PTX_UNROLL
    for (int i = 1; i < H; i++)
        ptx_row_top0<H>(r + i, x, y[i]);
}

// Montgomery r = a b / 2^(32N) mod p with the 2N-limb product by one level of
// Karatsuba: with a = a0 + a1 X, b = b0 + b1 X (X = 2^(16N)), a b = z0 +
// ((a0 + a1)(b0 + b1) - z0 - z2) X + z2 X^2, three half-size products
// (3 N^2 / 4 limb products, not N^2) for some adds, which run on the integer
// ALU while the multiplier is the bottleneck.  The half sums have a carry bit
// each, added back as masked rows.  Then T = h R + u is reduced as
// h + REDC(u), as in ptx_sqr.  Measured, not used: on sm_90 it is 29 % (Fr)
// and 31 % (Fp) slower than ptx_mul2 (bench_cuda field), because ptxas fuses
// ptx_mul2's adjacent lo/hi products of one pair into IMAD.WIDE, which these
// separate lo and hi chains do not get, and the extra adds cost issue slots.
// Kept for that benchmark and the CPU model test (ptx_model.cu).
template <class P> CZ_D void ptx_mul_kara(uint32_t *r, const uint32_t *a, const uint32_t *b) {
    constexpr int N = P::N, H = N / 2;
    static_assert(N % 4 == 0, "halves of even limb count");
    uint32_t t[2 * N], sa[H], sb[H], z[N + 1];
    ptx_prod<H>(t, a, b);             // z0
    ptx_prod<H>(t + N, a + H, b + H); // z2
    sa[0] = add_cc(a[0], a[H]);
    CZ_PTX_UNROLL
    for (int j = 1; j < H; j++)
        sa[j] = addc_cc(a[j], a[H + j]);
    const uint32_t ca = addc(0, 0);
    sb[0] = add_cc(b[0], b[H]);
    CZ_PTX_UNROLL
    for (int j = 1; j < H; j++)
        sb[j] = addc_cc(b[j], b[H + j]);
    const uint32_t cb = addc(0, 0);
    ptx_prod<H>(z, sa, sb);
    // (sa + ca X)(sb + cb X) = sa sb + (ca sb + cb sa) X + ca cb X^2
    const uint32_t ma = 0u - ca, mb = 0u - cb;
    z[H] = add_cc(z[H], sb[0] & ma);
    CZ_PTX_UNROLL
    for (int j = 1; j < H; j++)
        z[H + j] = addc_cc(z[H + j], sb[j] & ma);
    z[N] = addc(ca & cb, 0);
    z[H] = add_cc(z[H], sa[0] & mb);
    CZ_PTX_UNROLL
    for (int j = 1; j < H; j++)
        z[H + j] = addc_cc(z[H + j], sa[j] & mb);
    z[N] = addc(z[N], 0);
    // z1 = z - z0 - z2 = a0 b1 + a1 b0 >= 0
    z[0] = sub_cc(z[0], t[0]);
    CZ_PTX_UNROLL
    for (int j = 1; j < N; j++)
        z[j] = subc_cc(z[j], t[j]);
    z[N] = subc(z[N], 0);
    z[0] = sub_cc(z[0], t[N]);
    CZ_PTX_UNROLL
    for (int j = 1; j < N; j++)
        z[j] = subc_cc(z[j], t[N + j]);
    z[N] = subc(z[N], 0);
    // t += z1 X; a b < 2^(64N): no carry out of the top limb
    t[H] = add_cc(t[H], z[0]);
    CZ_PTX_UNROLL
    for (int j = 1; j <= N; j++)
        t[H + j] = addc_cc(t[H + j], z[j]);
    CZ_PTX_UNROLL
    for (int j = H + N + 1; j < 2 * N - 1; j++)
        t[j] = addc_cc(t[j], 0);
    t[2 * N - 1] = addc(t[2 * N - 1], 0);
    ptx_reduce_wide<P>(r, t);
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
