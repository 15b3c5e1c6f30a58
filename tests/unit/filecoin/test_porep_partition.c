/* One PoRep C2 request prepared (porep_partition.h), on 2 KiB sectors sealed
 * here (V1_1: 1 partition, NI: 13): every partition's inputs equal
 * porep_c1_public's, the decoded C1 may be freed once prepared (the first and
 * last partitions' prepared witnesses synthesize to exactly the derived
 * inputs), and a flipped label row is refused naming the partition
 * and challenge.  Also the header's memory figure: one 32 GiB partition's
 * witness arrays. */
#include "check.h"
#include "filecoin/porep/porep_partition.h"
#include "sealer/sealer.h"
#include "sealer/sealer_data.h"
#include "groth16/prove_checked.h"

static c1_output *seal(const fc_seal_proof *p, fc_sealed *s) {
    fc_seal_params sp;
    memset(&sp, 0, sizeof sp);
    sp.proof = p;
    sp.miner_id = check_rand64() % 100000;
    sp.sector_number = check_rand64() % 1000;
    check_rand_bytes(sp.ticket, 32);
    check_rand_bytes(sp.seed, 32);
    sp.ticket[31] &= 0x3f;
    size_t raw_len = fc_fr32_unpadded_size(p->shape->sector_size);
    uint8_t *raw = malloc(raw_len);
    check_rand_bytes(raw, raw_len);
    uint8_t *padded = fc_seal_pad_sector(raw, raw_len, p->shape->sector_size);
    free(raw);
    char err[256];
    c1_output *c = NULL;
    CHECK(padded && fc_seal_precommit(s, &sp, padded, err, sizeof err) == 0);
    free(padded);
    CHECK(fc_seal_commit1(&c, s, err, sizeof err) == 0);
    return c;
}

static void test_prepare(const fc_seal_proof *p) {
    fc_sealed s;
    c1_output *c = seal(p, &s);
    if (!c)
        return;
    char err[512];
    porep_c2 c2;
    CHECK(porep_c2_prepare(&c2, c, err, sizeof err) == 0);
    CHECK(c2.proof == p && c2.n_partitions == c->partitions && c2.challenges == c->challenges);
    fc_graph g;
    CHECK(fc_graph_init_proof(&g, p) == 0);
    for (unsigned k = 0; k < c2.n_partitions; k++) {
        porep_public pub;
        CHECK(porep_c1_public(&pub, c, k, &g, err, sizeof err) == 0);
        CHECK(pub.n_inputs == c2.parts[k].pub.n_inputs);
        CHECK_MEM(pub.inputs, c2.parts[k].pub.inputs, pub.n_inputs * sizeof(fr));
        porep_public_free(&pub);
    }
    fc_graph_free(&g);
    /* a flipped label row of partition last, challenge 0 */
    const unsigned last = c->partitions - 1;
    c1_at(c, last, 0)->drg[2].rows[0][0] ^= 1;
    porep_c2 bad;
    CHECK(porep_c2_prepare(&bad, c, err, sizeof err) == -1 && bad.parts == NULL);
    char want[64];
    snprintf(want, sizeof want, "partition %u: challenge 0: ", last);
    CHECK(strncmp(err, want, strlen(want)) == 0);
    if (strncmp(err, want, strlen(want)) != 0)
        fprintf(stderr, "  got: %s\n", err);
    porep_c2_free(&bad);
    /* prepared partitions stand alone: the decoded C1 is gone */
    c1_output_free(c);
    const unsigned ks[2] = {0, c2.n_partitions - 1};
    for (unsigned i = 0; i < 2; i++) {
        porep_partition *in = &c2.parts[ks[i]];
        r1cs_partition part;
        CHECK(groth16_synthesize_checked(&part, porep_partition_synthesize, in, in->pub.inputs,
                                         in->pub.n_inputs, err, sizeof err) == 0);
        r1cs_partition_free(&part);
    }
    porep_c2_free(&c2);
    CHECK(c2.parts == NULL);
    fc_sealed_free(&s);
}

int main(void) {
    check_seed("test_porep_partition");
    test_prepare(fc_seal_proof_by_id(5));  /* V1_1 2 KiB: 1 partition */
    test_prepare(fc_seal_proof_by_id(15)); /* NI 2 KiB: 13 partitions */
    /* the header's figure: one 32 GiB partition's witness */
    porep_shape s;
    porep_shape_for_sector(&s, fc_shape_at(3), 18);
    porep_witness_sizes z;
    porep_witness_sizes_get(&s, &z);
    const size_t nfr = z.data_leaf + z.d_sib + z.rows + z.c_sib + z.r_sib;
    const size_t nu32 = z.d_index + z.c_index + z.r_index;
    CHECK(nfr == 23688 && nu32 == 3420 && z.challenge == 18);
    return check_finish();
}
