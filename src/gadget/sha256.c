/* SHA-256 circuit: see sha256.h. */
#include "gadget/sha256.h"

/* FIPS 180-4 section 4.2.2: first 32 bits of the fractional parts of the
 * cube roots of the first 64 primes. */
static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

/* FIPS 180-4 section 5.3.3: fractional parts of the square roots of the
 * first 8 primes. */
static const uint32_t IV[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

void gsha256_iv(gu32 out[8]) {
    for (int i = 0; i < 8; i++)
        out[i] = gu32_constant(IV[i]);
}

/* Upstream's Maybe: a word that is either known or a list of operands whose
 * sum is taken only when the word is first used. */
typedef struct {
    unsigned n; /* 0: concrete */
    gu32 ops[8];
    gu32 word;
} maybe;

static gu32 maybe_compute(gmultieq *m, maybe *x, const gu32 *extra) {
    if (x->n == 0)
        return x->word;
    if (extra)
        x->ops[x->n++] = *extra;
    return gu32_addmany(m, x->ops, x->n);
}

/* a ^ b ^ c of three re-wirings of one word, in upstream's xor order. */
static gu32 xor3(r1cs_cs *cs, const gu32 *x, const gu32 *y, const gu32 *z, const char *name) {
    r1cs_push(cs, "first xor for %s", name);
    gu32 t = gu32_xor(cs, x, y);
    r1cs_pop(cs);
    r1cs_push(cs, "second xor for %s", name);
    t = gu32_xor(cs, &t, z);
    r1cs_pop(cs);
    return t;
}

void gsha256_compress(r1cs_cs *cs, gu32 state_out[8], const gu32 state_in[8],
                      const gbool block[512]) {
    gu32 w[64]; /* the message schedule, 17 KiB */
    for (int i = 0; i < 16; i++)
        w[i] = gu32_from_bits_be(block + 32 * i);
    gu32 cur[8];
    for (int i = 0; i < 8; i++)
        cur[i] = state_in[i];

    gmultieq m;
    gmultieq_init(&m, cs);

    for (int i = 16; i < 64; i++) {
        r1cs_push(cs, "w extension %d", i);
        gu32 r7 = gu32_rotr(&w[i - 15], 7), r18 = gu32_rotr(&w[i - 15], 18);
        gu32 s3 = gu32_shr(&w[i - 15], 3);
        gu32 s0 = xor3(cs, &r7, &r18, &s3, "s0");
        gu32 r17 = gu32_rotr(&w[i - 2], 17), r19 = gu32_rotr(&w[i - 2], 19);
        gu32 s10 = gu32_shr(&w[i - 2], 10);
        gu32 s1 = xor3(cs, &r17, &r19, &s10, "s1");
        gu32 ops[4] = {w[i - 16], s0, w[i - 7], s1};
        r1cs_push(cs, "computation of w[i]");
        w[i] = gu32_addmany(&m, ops, 4);
        r1cs_pop(cs);
        r1cs_pop(cs);
    }

    maybe a = {.n = 0, .word = cur[0]}, e = {.n = 0, .word = cur[4]};
    gu32 b = cur[1], c = cur[2], d = cur[3], f = cur[5], g = cur[6], h = cur[7];

    for (int i = 0; i < 64; i++) {
        r1cs_push(cs, "compression round %d", i);

        r1cs_push(cs, "deferred e computation");
        gu32 new_e = maybe_compute(&m, &e, NULL);
        r1cs_pop(cs);
        gu32 r6 = gu32_rotr(&new_e, 6), r11 = gu32_rotr(&new_e, 11);
        gu32 r25 = gu32_rotr(&new_e, 25);
        gu32 s1 = xor3(cs, &r6, &r11, &r25, "s1");
        r1cs_push(cs, "ch");
        gu32 ch = gu32_sha256_ch(cs, &new_e, &f, &g);
        r1cs_pop(cs);

        r1cs_push(cs, "deferred a computation");
        gu32 new_a = maybe_compute(&m, &a, NULL);
        r1cs_pop(cs);
        gu32 r2 = gu32_rotr(&new_a, 2), r13 = gu32_rotr(&new_a, 13);
        gu32 r22 = gu32_rotr(&new_a, 22);
        gu32 s0 = xor3(cs, &r2, &r13, &r22, "s0");
        r1cs_push(cs, "maj");
        gu32 maj = gu32_sha256_maj(cs, &new_a, &b, &c);
        r1cs_pop(cs);

        /* temp1 = h + S1 + ch + k[i] + w[i]; e = temp1 + d;
         * a = temp1 + temp2 with temp2 = S0 + maj, all kept as operands */
        gu32 k = gu32_constant(K[i]);
        const gu32 temp1[5] = {h, s1, ch, k, w[i]};
        h = g;
        g = f;
        f = new_e;
        e.n = 6;
        a.n = 7;
        for (int j = 0; j < 5; j++)
            e.ops[j] = a.ops[j] = temp1[j];
        e.ops[5] = d;
        a.ops[5] = s0;
        a.ops[6] = maj;
        d = c;
        c = b;
        b = new_a;
        r1cs_pop(cs);
    }

    /* h0 and h4 fold the current value into the deferred sums (8 and 7
     * operands); the others are plain 2-operand additions */
    const gu32 *rest[8] = {NULL, &b, &c, &d, NULL, &f, &g, &h};
    gu32 out[8];
    for (int i = 0; i < 8; i++) {
        if (i == 0 || i == 4) {
            r1cs_push(cs, "deferred h%d computation", i);
            out[i] = maybe_compute(&m, i == 0 ? &a : &e, &cur[i]);
        } else {
            r1cs_push(cs, "new h%d", i);
            gu32 ops[2] = {cur[i], *rest[i]};
            out[i] = gu32_addmany(&m, ops, 2);
        }
        r1cs_pop(cs);
    }
    gmultieq_finish(&m);
    for (int i = 0; i < 8; i++)
        state_out[i] = out[i];
}

void gsha256_block_no_padding(r1cs_cs *cs, gbool out[256], const gbool block[512]) {
    gu32 st[8];
    gsha256_iv(st);
    gsha256_compress(cs, st, st, block);
    for (int i = 0; i < 8; i++)
        gu32_to_bits_be(out + 32 * i, &st[i]);
}

int gsha256(r1cs_cs *cs, gbool out[256], const gbool *in, size_t nbits) {
    if (nbits % 8 != 0 || nbits > ((size_t)1 << 60))
        return -1;
    gu32 st[8];
    gsha256_iv(st);
    /* message, one 1 bit, zeros up to 448 mod 512, 64-bit big-endian length */
    size_t total = (nbits + 1 + 64 + 511) / 512 * 512;
    gbool block[512];
    for (size_t blk = 0; blk * 512 < total; blk++) {
        for (size_t j = 0; j < 512; j++) {
            size_t pos = blk * 512 + j;
            if (pos < nbits)
                block[j] = in[pos];
            else if (pos == nbits)
                block[j] = gbool_const(1);
            else if (pos < total - 64)
                block[j] = gbool_const(0);
            else
                block[j] = gbool_const((int)(((uint64_t)nbits >> (total - 1 - pos)) & 1));
        }
        r1cs_push(cs, "block %zu", blk);
        gsha256_compress(cs, st, st, block);
        r1cs_pop(cs);
    }
    for (int i = 0; i < 8; i++)
        gu32_to_bits_be(out + 32 * i, &st[i]);
    return 0;
}
