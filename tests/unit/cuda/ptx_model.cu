// The device's PTX field arithmetic (field_ptx.cuh) run on the CPU through a
// model of the PTX instructions and their carry flag (CZ_PTX_EMULATE), against
// the CPU field: the multiply (ptx_mul2), add and subtract, and Fr's Shoup
// multiply, on random elements, the edge limbs and inputs built so that the
// top limbs' carries are taken.  It
// needs no GPU, so CI checks the limb logic of the kernels' arithmetic.
#define CZ_PTX_EMULATE 1
#include "cuda/field.cuh"

extern "C" {
#include "field_rand.h"
}

namespace {

// One product, sum and difference by the PTX chains, each compared with the
// CPU's: returns the number of mismatches.
template <class P, class C>
int compare(const C &a, const C &b, void (*cpu_mul)(C *, const C *, const C *),
            void (*cpu_add)(C *, const C *, const C *),
            void (*cpu_sub)(C *, const C *, const C *)) {
    static_assert(sizeof(C) == sizeof(field<P>), "same bytes on both sides");
    field<P> x, y, rm, ra, rs;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    ptx_mul2<P>(rm.v, x.v, y.v);
    ptx_add<P>(ra.v, x.v, y.v);
    ptx_sub<P>(rs.v, x.v, y.v);
    C m, s, d;
    cpu_mul(&m, &a, &b);
    cpu_add(&s, &a, &b);
    cpu_sub(&d, &a, &b);
    return (memcmp(&rm, &m, sizeof m) != 0) + (memcmp(&ra, &s, sizeof s) != 0) +
           (memcmp(&rs, &d, sizeof d) != 0);
}

// a's top 32-bit limb x odd and small, b's lower limbs -1/x mod 2^32: the low
// half of a_top b_i is 2^32 - 1 in every row, so the chains' carries reach
// the top limbs.  Both stay below p (their top limbs are small).
template <class C> void carry_stress(C &a, C &b, int limbs) {
    static_assert(sizeof(C) <= 64, "limb buffers");
    uint32_t x[16], y[16];
    memcpy(x, &a, sizeof a);
    memcpy(y, &b, sizeof b);
    uint32_t t = (x[limbs - 1] & 0x00fffffeu) | 1u, inv = t;
    for (int k = 0; k < 5; k++) // Newton: inv = t^-1 mod 2^32
        inv *= 2u - t * inv;
    x[limbs - 1] = t;
    for (int i = 0; i < limbs - 1; i++)
        y[i] = 0u - inv;
    y[limbs - 1] &= 0x00ffffffu;
    memcpy(&a, x, sizeof a);
    memcpy(&b, y, sizeof b);
}

// The element whose low limb is v and the others 0 (raw, not Montgomery).
template <class C> C raw_small(uint32_t v) {
    C r;
    memset(&r, 0, sizeof r);
    memcpy(&r, &v, sizeof v);
    return r;
}

template <class P, class C>
void run(const char *name, C (*rnd)(), void (*cpu_mul)(C *, const C *, const C *),
         void (*cpu_add)(C *, const C *, const C *), void (*cpu_sub)(C *, const C *, const C *),
         void (*neg)(C *, const C *), int n) {
    int bad = 0, cases = 0;
    C raw1 = raw_small<C>(1), raw2 = raw_small<C>(2), edges[6];
    memset(&edges[0], 0, sizeof(C)); // 0
    edges[1] = raw1;
    edges[2] = raw2;
    neg(&edges[3], &raw1); // p - 1
    neg(&edges[4], &raw2); // p - 2
    edges[5] = rnd();
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++, cases++)
            bad += compare<P>(edges[i], edges[j], cpu_mul, cpu_add, cpu_sub);
    for (int k = 0; k < n; k++, cases += 2) {
        C a = rnd(), b = rnd();
        bad += compare<P>(a, b, cpu_mul, cpu_add, cpu_sub);
        carry_stress(a, b, P::N);
        bad += compare<P>(a, b, cpu_mul, cpu_add, cpu_sub);
    }
    CHECK(bad == 0);
    printf("%s: %d pairs, product, sum and difference each: %d mismatches\n", name, cases, bad);
}

// Whether q = floor(w 2^288 / p): q p <= w 2^288 < q p + p, by products
// (not the division shoup_quotient does).
bool quotient_ok(const uint32_t q[9], const uint32_t w[8]) {
    const uint32_t p[8] = CZ_FR_P;
    uint32_t qp[18] = {0}, num[18] = {0};
    for (int i = 0; i < 9; i++) {
        uint64_t c = 0;
        for (int j = 0; j < 8; j++) {
            uint64_t t = (uint64_t)q[i] * p[j] + qp[i + j] + c;
            qp[i + j] = (uint32_t)t;
            c = t >> 32;
        }
        qp[i + 8] = (uint32_t)c;
    }
    for (int j = 0; j < 8; j++)
        num[9 + j] = w[j];
    uint32_t d[18]; // num - qp
    int64_t borrow = 0;
    for (int j = 0; j < 18; j++) {
        int64_t t = (int64_t)num[j] - qp[j] - borrow;
        d[j] = (uint32_t)t;
        borrow = t < 0;
    }
    if (borrow)
        return false; // q p > w 2^288
    for (int j = 17; j >= 8; j--)
        if (d[j])
            return false; // the remainder has more than 8 limbs
    for (int j = 7; j >= 0; j--)
        if (d[j] != p[j])
            return d[j] < p[j];
    return false; // remainder == p
}

// ptx_mul_shoup(x, plain w, its quotient) against the CPU's x W (W = w in
// Montgomery form): returns 1 on a mismatch or a bad quotient.
int shoup_case(const fr &x, const fr &W) {
    uint64_t raw[4];
    fr_to_raw(raw, &W);
    uint32_t w[8], q[9], r[8];
    memcpy(w, raw, sizeof w);
    shoup_quotient(q, w);
    if (!quotient_ok(q, w))
        return 1;
    uint32_t xv[8];
    memcpy(xv, &x, sizeof xv);
    ptx_mul_shoup<fr_params>(r, xv, w, q);
    fr want;
    fr_mul(&want, &x, &W);
    return memcmp(r, &want, sizeof r) != 0;
}

// Random pairs, the edges, and pairs with x w = +-k mod p for small k (x
// as an integer times w), where x w / p sits just above an integer and the
// quotient estimate is one short: the conditional subtractions run.
void run_shoup(int n) {
    int bad = 0, cases = 0;
    fr edges[5], one, zero;
    fr_set_one(&one);
    memset(&zero, 0, sizeof zero);
    edges[0] = zero;
    edges[1] = one;
    fr_neg(&edges[2], &one);
    uint64_t r1[4] = {1, 0, 0, 0};
    fr_from_raw(&edges[3], r1); // plain 1 (w = 1 or x = R^-1)
    edges[4] = rand_fr();
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++, cases++)
            bad += shoup_case(edges[i], edges[j]);
    for (int k = 0; k < n; k++) {
        fr x = rand_fr(), w = rand_fr();
        bad += shoup_case(x, w), cases++;
        fr y = x, z = w;
        carry_stress(y, z, 8);
        bad += shoup_case(y, z), cases++;
        if (k < 64) { // W with x_int w_plain = +-(k % 4) mod p
            uint64_t xr[4], kr[4] = {(uint64_t)(k % 4), 0, 0, 0};
            memcpy(xr, &x, sizeof xr);
            fr xi, kk, W;
            fr_from_raw(&xi, xr); // x's limbs as a plain value
            fr_inv(&xi, &xi);
            fr_from_raw(&kk, kr);
            if (k % 8 >= 4)
                fr_neg(&kk, &kk);
            fr_mul(&W, &xi, &kk);
            bad += shoup_case(x, W), cases++;
        }
    }
    CHECK(bad == 0);
    printf("Fr Shoup multiply: %d products against the CPU, quotients checked: %d mismatches\n",
           cases, bad);
}

} // namespace

int main() {
    check_seed("cuda_ptx_model");
    run<fp_params, fp>("Fp", rand_fp, fp_mul, fp_add, fp_sub, fp_neg, 20000);
    run<fr_params, fr>("Fr", rand_fr, fr_mul, fr_add, fr_sub, fr_neg, 20000);
    run_shoup(20000);
    return check_finish();
}
