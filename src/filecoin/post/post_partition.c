/* One FallbackPoSt partition: see post_partition.h. */
#include "filecoin/post/post_partition.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/merkle/inclusion_proof.h"
#include "filecoin/merkle/merkle_proof.h"
#include "filecoin/post/post_challenges.h"
#include "filecoin/post/post_witness_par.h"
#include "gadget/poseidon.h"
#include "util/err.h"

/* Partition indices beyond this cannot occur (a miner's deadline holds far
 * fewer) and keep partition * sector_count + slot far from overflow. */
#define POST_MAX_PARTITION ((uint64_t)1 << 32)

unsigned post_partition_max_sectors(const fc_post_proof *p) {
    return p->kind == FC_POST_WINNING ? 1 : p->sector_count;
}

static post_partition_status nomem(char *err, size_t errlen) {
    err_set(err, errlen, "out of memory");
    return POST_PARTITION_NOMEM;
}

/* Slot count and the leaf challenges of every slot (slots x challenge_count). */
static size_t slot_challenges(uint64_t *want, const fc_post_proof *p, const fc_post_replica *r,
                              size_t n, const uint8_t randomness[32], uint64_t partition) {
    const size_t C = p->challenge_count;
    if (p->kind == FC_POST_WINNING) {
        for (size_t s = 0; s < p->sector_count; s++)
            fc_post_sector_leaf_challenges(&want[s * C], p, randomness, r[0].sector_id, s);
        return p->sector_count;
    }
    for (size_t i = 0; i < n; i++)
        fc_post_sector_leaf_challenges(&want[i * C], p, randomness, r[i].sector_id,
                                       partition * p->sector_count + i);
    return n;
}

static int check_request(const fc_post_proof *p, size_t n, const uint8_t randomness[32],
                         uint64_t partition, char *err, size_t errlen) {
    const unsigned max = post_partition_max_sectors(p);
    if (!fc_post_randomness_ok(randomness))
        return err_set(err, errlen, "randomness: not a canonical field element");
    if (n < 1 || n > max)
        return err_set(err, errlen, "%zu sectors: a %s partition takes %s%u", n, p->name,
                       max > 1 ? "1 to " : "", max);
    if (p->kind == FC_POST_WINNING && partition != 0)
        return err_set(err, errlen, "WinningPoSt has only partition 0, not %llu",
                       (unsigned long long)partition);
    if (partition >= POST_MAX_PARTITION)
        return err_set(err, errlen, "partition %llu: out of range", (unsigned long long)partition);
    return 0;
}

/* Inputs from replicas and their slots' challenges (want: slots x C). */
static post_partition_status public_from(fr **out, size_t *n_out, const fc_post_proof *p,
                                         const fc_post_replica *r, size_t n, const uint64_t *want,
                                         size_t slots, char *err, size_t errlen) {
    post_shape s;
    post_shape_for_proof(&s, p);
    fr *comm_r = malloc(slots * sizeof *comm_r);
    *n_out = post_num_public_inputs(&s);
    *out = malloc(*n_out * sizeof **out);
    post_partition_status rc = POST_PARTITION_INVALID;
    if (!comm_r || !*out) {
        rc = nomem(err, errlen);
        goto done;
    }
    for (size_t i = 0; i < slots; i++) {
        const fc_post_replica *ri = &r[i < n ? i : n - 1];
        if (!fr_from_bytes_le(&comm_r[i], ri->comm_r)) {
            err_set(err, errlen, "sector %llu: comm_r is not a canonical field element",
                    (unsigned long long)ri->sector_id);
            goto done;
        }
    }
    if (post_public_inputs(*out, &s, slots, comm_r, want, err, errlen) == 0)
        rc = POST_PARTITION_OK;
done:
    free(comm_r);
    if (rc) {
        free(*out);
        *out = NULL;
        *n_out = 0;
    }
    return rc;
}

post_partition_status post_partition_public(fr **out, size_t *n_out, const fc_post_proof *p,
                                            const fc_post_replica *r, size_t n,
                                            const uint8_t randomness[32], uint64_t partition,
                                            char *err, size_t errlen) {
    *out = NULL;
    *n_out = 0;
    if (check_request(p, n, randomness, partition, err, errlen))
        return POST_PARTITION_INVALID;
    uint64_t *want = malloc((size_t)p->sector_count * p->challenge_count * sizeof *want);
    if (!want)
        return nomem(err, errlen);
    size_t slots = slot_challenges(want, p, r, n, randomness, partition);
    post_partition_status rc = public_from(out, n_out, p, r, n, want, slots, err, errlen);
    free(want);
    return rc;
}

void post_partition_free(post_partition *pp) {
    for (size_t i = 0; i < pp->n_decoded; i++)
        fc_post_vanilla_free(&pp->decoded[i]);
    free(pp->decoded);
    free(pp->winning_slots);
    post_witness_free(&pp->witness);
    free(pp->inputs);
    memset(pp, 0, sizeof *pp);
}

/* WinningPoSt: one sector, 66 paths -> 66 slots of one path each. */
static post_partition_status winning_view(post_partition *pp, char *err, size_t errlen) {
    const fc_post_vanilla *v = &pp->decoded[0];
    const fc_post_sector_proof *sp = &v->sectors[0];
    if (pp->n_decoded != 1 || v->n_sectors != 1)
        return err_set(err, errlen, "WinningPoSt proves one sector: got %zu sector proofs",
                       pp->n_decoded > 1 ? pp->n_decoded : v->n_sectors);
    pp->winning_slots = calloc(sp->n_proofs, sizeof *pp->winning_slots);
    if (!pp->winning_slots)
        return nomem(err, errlen);
    for (size_t j = 0; j < sp->n_proofs; j++) {
        pp->winning_slots[j] = *sp;
        pp->winning_slots[j].proofs = &sp->proofs[j];
        pp->winning_slots[j].n_proofs = 1;
    }
    pp->winning = *v;
    pp->winning.sectors = pp->winning_slots;
    pp->winning.n_sectors = sp->n_proofs;
    pp->winning.arena = NULL; /* owned by decoded[0] */
    return 0;
}

/* Every path reaches comm_r_last, and comm_r = Poseidon2(comm_c, comm_r_last):
 * a proof that fails here would only fail self-verification later. */
static int check_paths(const fc_post_vanilla *v, size_t i, char *err, size_t errlen) {
    for (size_t q = 0; q < v->n_sectors; q++) {
        const fc_post_sector_proof *sp = &v->sectors[q];
        fr in[2], h;
        uint8_t comm_r[32];
        if (!fr_from_bytes_le(&in[0], sp->comm_c) || !fr_from_bytes_le(&in[1], sp->comm_r_last) ||
            poseidon_hash(&h, in, 2) != 0)
            return err_set(err, errlen,
                           "vanilla_proofs[%zu]: comm_c or comm_r_last is not a field element", i);
        fr_to_bytes_le(comm_r, &h);
        if (memcmp(comm_r, v->comm_r, 32) != 0)
            return err_set(err, errlen,
                           "vanilla_proofs[%zu]: comm_r is not Poseidon(comm_c, comm_r_last)", i);
        for (size_t j = 0; j < sp->n_proofs; j++) {
            merkle_proof m;
            int ok = fc_inclusion_to_merkle(&m, &sp->proofs[j], TREE_HASH_POSEIDON) == 0 &&
                     merkle_proof_verify(&m) == MERKLE_OK &&
                     memcmp(m.root, sp->comm_r_last, 32) == 0;
            merkle_proof_free(&m);
            if (!ok)
                return err_set(err, errlen,
                               "vanilla_proofs[%zu]: sector %llu challenge %zu: the inclusion path "
                               "does not reach comm_r_last",
                               i, (unsigned long long)v->sector_id, j);
        }
    }
    return 0;
}

/* The witness, and the opened leaves against the randomness's challenges. */
static post_partition_status witness_and_inputs(post_partition *pp, uint64_t partition,
                                                const uint8_t rnd[32], char *err, size_t errlen) {
    const fc_post_proof *p = pp->proof;
    const int winning = p->kind == FC_POST_WINNING;
    const size_t cap = (size_t)pp->shape.sectors * pp->shape.challenges;
    const fc_post_vanilla **views = malloc(pp->n_decoded * sizeof *views);
    uint64_t *opened = malloc(cap * sizeof *opened), *want = malloc(cap * sizeof *want);
    size_t n_rep = 0;
    for (size_t i = 0; i < pp->n_decoded; i++)
        n_rep += pp->decoded[i].n_sectors;
    fc_post_replica *rep = malloc((n_rep ? n_rep : 1) * sizeof *rep);
    char msg[400];
    post_partition_status rc = POST_PARTITION_INVALID;
    if (!views || !opened || !want || !rep) {
        rc = nomem(err, errlen);
        goto done;
    }
    size_t k = 0;
    for (size_t i = 0; i < pp->n_decoded; i++) {
        views[i] = &pp->decoded[i];
        for (size_t q = 0; q < pp->decoded[i].n_sectors; q++, k++) {
            rep[k].sector_id = pp->decoded[i].sector_id;
            memcpy(rep[k].comm_r, pp->decoded[i].comm_r, 32);
        }
    }
    if (check_request(p, n_rep, rnd, partition, err, errlen))
        goto done;
    const fc_post_vanilla *one = &pp->winning;
    if (post_witness_from_vanilla(&pp->witness, opened, &pp->shape, winning ? &one : views,
                                  winning ? 1 : pp->n_decoded, msg, sizeof msg) != 0) {
        err_set(err, errlen, "vanilla_proofs: %s", msg);
        goto done;
    }
    const size_t slots = slot_challenges(want, p, rep, n_rep, rnd, partition);
    const size_t C = pp->shape.challenges;
    /* slot -> vanilla proof: Winning has one; Window's proofs hold one sector each as Curio
     * sends them, else their sectors in order */
    size_t vi = 0, left = winning ? slots : pp->decoded[0].n_sectors;
    for (size_t s = 0; s < slots; s++) {
        while (!winning && left == 0)
            left = pp->decoded[++vi].n_sectors;
        left--;
        for (size_t j = 0; j < C; j++)
            if (opened[s * C + j] != want[s * C + j]) {
                err_set(err, errlen,
                        "vanilla_proofs[%zu]: sector %llu challenge %zu opens leaf %llu, the "
                        "randomness challenges leaf %llu",
                        vi, (unsigned long long)rep[winning ? 0 : s].sector_id, winning ? s : j,
                        (unsigned long long)opened[s * C + j], (unsigned long long)want[s * C + j]);
                goto done;
            }
    }
    rc = public_from(&pp->inputs, &pp->n_inputs, p, rep, n_rep, want, slots, err, errlen);
done:
    free(views);
    free(opened);
    free(want);
    free(rep);
    return rc;
}

post_partition_status post_partition_prepare(post_partition *out, const fc_post_proof *p,
                                             const uint8_t *const *vanilla, const size_t *len,
                                             size_t n, const uint8_t randomness[32],
                                             uint64_t partition, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    const unsigned max = post_partition_max_sectors(p);
    if (n < 1 || n > max)
        return err_set(err, errlen, "vanilla_proofs: %zu sector proofs, a %s partition takes %s%u",
                       n, p->name, max > 1 ? "1 to " : "", max);
    out->proof = p;
    post_shape_for_proof(&out->shape, p);
    out->decoded = calloc(n, sizeof *out->decoded);
    if (!out->decoded)
        return nomem(err, errlen);
    char msg[400];
    post_partition_status rc = POST_PARTITION_INVALID;
    for (size_t i = 0; i < n; i++, out->n_decoded++)
        if (fc_post_vanilla_decode(&out->decoded[i], vanilla[i], len[i], p, msg, sizeof msg) != 0) {
            err_set(err, errlen, "vanilla_proofs[%zu]: %s", i, msg);
            goto fail;
        }
    for (size_t i = 0; i < out->n_decoded; i++)
        if (check_paths(&out->decoded[i], i, err, errlen) != 0)
            goto fail;
    if (p->kind == FC_POST_WINNING && (rc = winning_view(out, err, errlen)) != POST_PARTITION_OK)
        goto fail;
    if ((rc = witness_and_inputs(out, partition, randomness, err, errlen)) != POST_PARTITION_OK)
        goto fail;
    return POST_PARTITION_OK;
fail:
    post_partition_free(out);
    return rc;
}

int post_partition_witness(void *partition, const r1cs_pce *p, unsigned threads, fr *input, fr *aux,
                           char *err, size_t cap) {
    const post_partition *pp = partition;
    return post_witness_generate(&pp->shape, &pp->witness, p->segments, p->n_segments,
                                 p->num_inputs, p->num_aux, threads, input, aux, err, cap);
}
