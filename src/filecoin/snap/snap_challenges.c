/* SnapDeals challenges and public inputs: see snap_challenges.h. */
#include "filecoin/snap/snap_challenges.h"

#include "gadget/poseidon.h"

void snap_gen_tag(fr *out) { poseidon_custom_tag(out, POSEIDON_CTYPE_GEN_RANDOMNESS); }

static void hash2(fr *out, const fr *a, const fr *b) {
    fr tag, in[2] = {*a, *b};
    snap_gen_tag(&tag);
    poseidon_hash_tagged(out, in, 2, &tag);
}

void snap_phi(fr *out, const fr *comm_d_new, const fr *comm_r_old) {
    hash2(out, comm_d_new, comm_r_old);
}

void snap_rho(fr *out, const fr *phi, uint64_t hi) {
    fr h;
    fr_set_u64(&h, hi);
    hash2(out, phi, &h);
}

int snap_challenges(uint64_t *out, const fc_update_proof *p, const fr *comm_r_new, unsigned k) {
    if (k >= p->partitions)
        return -1;
    const unsigned rb = p->rand_bits, cpd = p->challenges_per_digest;
    uint64_t raw[4] = {0, 0, 0, 0};
    for (unsigned t = 0; t < p->challenges; t++) {
        unsigned i = t % cpd;
        if (i == 0) {
            fr idx, digest;
            fr_set_u64(&idx, (uint64_t)k * p->digests + t / cpd);
            hash2(&digest, comm_r_new, &idx);
            fr_to_raw(raw, &digest); /* canonical, little-endian limbs */
        }
        uint64_t c = 0;
        for (unsigned b = 0; b < rb; b++) {
            unsigned bit = i * rb + b;
            c |= ((raw[bit / 64] >> (bit % 64)) & 1) << b;
        }
        out[t] = c | ((uint64_t)k << rb);
    }
    return 0;
}

int snap_public_inputs(fr out[4], const fc_update_proof *p, unsigned k, unsigned h,
                       const fr *comm_r_old, const fr *comm_d_new, const fr *comm_r_new) {
    uint64_t h_select = fc_update_h_select(p, h);
    if (k >= p->partitions || !h_select)
        return -1;
    fr_set_u64(&out[0], (uint64_t)k | (h_select << p->partition_bits));
    out[1] = *comm_r_old;
    out[2] = *comm_d_new;
    out[3] = *comm_r_new;
    return 0;
}
