/* The test-data sealer and native vanilla verification on 2 KiB sectors:
 * Fr32 padding against a bit-by-bit reference, comm_d of zeros, seal -> C1
 * JSON -> decode -> verify for V1, V1_1, Synthetic and NI-PoRep, and that
 * damaging any one part of the decoded model fails verification with a
 * message naming that part. */
#include "sealer_test_util.h"

#include "filecoin/porep/challenges.h"
#include "filecoin/merkle/comm_d_zero.h"

/* Bit i of a little-endian byte stream. */
static int bit(const uint8_t *b, size_t i) { return (b[i / 8] >> (i % 8)) & 1; }

static void test_fr32(void) {
    enum { Q = 5 };
    uint8_t raw[127 * Q], pad[128 * Q], back[127 * Q];
    check_rand_bytes(raw, sizeof raw);
    fc_fr32_pad(pad, raw, Q);
    int same = 1;
    for (size_t n = 0; n < 4 * Q; n++)
        for (size_t t = 0; t < 256; t++) {
            int want = t < 254 ? bit(raw, 254 * n + t) : 0;
            same &= bit(pad + 32 * n, t) == want;
        }
    CHECK(same);
    fc_fr32_unpad(back, pad, Q);
    CHECK_MEM(back, raw, sizeof raw);
    CHECK(fc_fr32_unpadded_size(2048) == 2032);
    CHECK(fc_seal_pad_sector(raw, 2033, 2048) == NULL);
}

/* Damages one part of a fresh copy of c; verification must fail naming it. */
typedef struct {
    const char *name, *want; /* the message must contain want */
    void (*damage)(c1_output *c);
} damage_case;

static void flip(uint8_t *b) { b[0] ^= 1; }
static void d_cx_row(c1_output *c) { flip(c1_at(c, 0, 1)->c_x.rows[0]); }
static void d_label_parent(c1_output *c) { flip(c1_at(c, 0, 1)->labeling[0].parents[3]); }
static void d_label_parent2(c1_output *c) { flip(c1_at(c, 0, 0)->labeling[1].parents[10]); }
static void d_comm_d_path(c1_output *c) { flip(c1_path_hashes(&c1_at(c, 0, 1)->comm_d, 2)[0]); }
static void d_r_path(c1_output *c) { flip(c1_path_hashes(&c1_at(c, 0, 0)->comm_r_last, 1)[3]); }
static void d_drg_path(c1_output *c) { flip(c1_path_hashes(&c1_at(c, 0, 1)->drg[3].proof, 0)[2]); }
static void d_exp_row(c1_output *c) { flip(c1_at(c, 0, 0)->exp[5].rows[1]); }
static void d_comm_r(c1_output *c) { flip(c->comm_r); }
static void d_comm_d(c1_output *c) { flip(c->comm_d); }
static void d_ticket(c1_output *c) { flip(c->ticket); }
static void d_encoding(c1_output *c) { flip(c1_at(c, 0, 1)->encoding.parents[0]); }
static void d_r_leaf(c1_output *c) { flip(c1_at(c, 0, 1)->comm_r_last.nodes[1]); }
static void d_cx_root(c1_output *c) { flip(c1_at(c, 0, 1)->c_x.proof.nodes[0]); }
static void d_r_root0(c1_output *c) { flip(c1_at(c, 0, 0)->comm_r_last.nodes[0]); }
static void d_index(c1_output *c) { c1_at(c, 0, 1)->exp[2].proof.index[0] ^= 1; }
static void d_col_index(c1_output *c) { c1_at(c, 0, 0)->drg[4].index ^= 1; }
static void d_label_node(c1_output *c) { c1_at(c, 0, 0)->labeling[0].node ^= 1; }
static void d_data_leaf(c1_output *c) { flip(c1_at(c, 0, 0)->comm_d.nodes[1]); }
static void d_replica_id(c1_output *c) { flip(c->replica_id); }
static void d_layer(c1_output *c) { c1_at(c, 0, 1)->labeling[1].layer_index = 1; }

static const damage_case cases[] = {
    {"c_x row", "partition 0 challenge 1: c_x column: inclusion proof leaf is not the Poseidon",
     d_cx_row},
    {"label parent", "challenge 1: labeling_proofs[0]: parents[3] is not drg_parents[3] row 1",
     d_label_parent},
    {"label parent layer 2",
     "challenge 0: labeling_proofs[1]: parents[10] is not exp_parents[4] row 1", d_label_parent2},
    {"comm_d path", "challenge 1: comm_d_proofs: inclusion proof does not reach comm_d",
     d_comm_d_path},
    {"tree R path", "challenge 0: comm_r_last_proof: inclusion proof does not reach comm_r_last",
     d_r_path},
    {"drg path", "challenge 1: drg_parents[3] column: inclusion proof does not reach comm_c",
     d_drg_path},
    {"exp row", "challenge 0: exp_parents[5] column: inclusion proof leaf is not the Poseidon",
     d_exp_row},
    {"comm_r", "comm_r is not Poseidon2(comm_c, comm_r_last)", d_comm_r},
    {"comm_d", "replica_id is not the one of miner", d_comm_d},
    {"ticket", "replica_id is not the one of miner", d_ticket},
    {"encoding", "challenge 1: encoding_proof: parents differ", d_encoding},
    {"tree R leaf", "challenge 1: comm_r_last_proof: inclusion proof does not reach comm_r_last",
     d_r_leaf},
    {"c_x root", "challenge 1: c_x column: inclusion proof root is not comm_c", d_cx_root},
    {"comm_r_last root", "comm_r is not Poseidon2", d_r_root0},
    {"path index", "challenge 1: exp_parents[2] column: inclusion proof path proves leaf", d_index},
    {"column index", "challenge 0: drg_parents[4] column: index", d_col_index},
    {"labeling node", "challenge 0: labeling_proofs[0]: node", d_label_node},
    {"data leaf", "challenge 0: comm_d_proofs: inclusion proof does not reach comm_d", d_data_leaf},
    {"replica_id", "replica_id is not the one of miner", d_replica_id},
    {"layer index", "challenge 1: labeling_proofs[1]: layer_index 1, expected 2", d_layer},
};

static void test_damage(const c1_output *good) {
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        c1_output *c = NULL;
        uint8_t *text;
        size_t len;
        CHECK(c1_encode(&text, &len, good, NULL) == C1_OK);
        CHECK(c1_decode(&c, text, len, NULL) == C1_OK);
        free(text);
        if (!c)
            continue;
        cases[i].damage(c);
        char msg[512];
        int rc = st_verify(c, 1, msg, sizeof msg);
        int named = rc != 0 && strstr(msg, cases[i].want) != NULL;
        CHECK(named);
        if (!named)
            fprintf(stderr, "damage %s: rc %d, message \"%s\", wanted \"%s\"\n", cases[i].name, rc,
                    msg, cases[i].want);
        c1_output_free(c);
    }
    /* Without the prover's ids comm_d is checked against the proofs' roots. */
    c1_output *c = NULL;
    uint8_t *text;
    size_t len;
    CHECK(c1_encode(&text, &len, good, NULL) == C1_OK);
    CHECK(c1_decode(&c, text, len, NULL) == C1_OK);
    free(text);
    flip(c->comm_d);
    char msg[512];
    CHECK(st_verify(c, 0, msg, sizeof msg) != 0);
    CHECK(strstr(msg, "comm_d_proofs: inclusion proof root is not comm_d") != NULL);
    flip(c->comm_d);
    flip(c->replica_id); /* other challenges, or labels that differ */
    CHECK(st_verify(c, 0, msg, sizeof msg) != 0);
    CHECK(strstr(msg, "partition 0 challenge ") != NULL);
    c1_output_free(c);
}

/* Another seed: interactive and synthetic challenges change, NI's do not. */
static void test_seed(c1_output *c) {
    uint8_t keep[32];
    memcpy(keep, c->seed, 32);
    for (unsigned tries = 0; tries < 8; tries++) {
        c->seed[tries] ^= 0x5a;
        uint64_t a[2], b[2];
        fc_porep_challenges(a, c->proof, 0, c->replica_id, c->comm_r, keep, NULL, 0);
        fc_porep_challenges(b, c->proof, 0, c->replica_id, c->comm_r, c->seed, NULL, 0);
        if (c->proof->variant == FC_POREP_NI || a[0] != b[0]) {
            char msg[512];
            int rc = st_verify(c, 1, msg, sizeof msg);
            if (c->proof->variant == FC_POREP_NI)
                CHECK(rc == 0);
            else
                CHECK(rc != 0 && strstr(msg, "partition 0 challenge 0: proves node") &&
                      strstr(msg, "seed and comm_r give challenge"));
            break;
        }
    }
    memcpy(c->seed, keep, 32);
    CHECK(st_verify(c, 1, NULL, 0) == 0);
}

int main(void) {
    check_seed("test_sealer");
    test_fr32();
    static const unsigned ids[] = {0, 5, 10, 15};
    for (unsigned k = 0; k < 4; k++) {
        for (int random = 0; random < 2; random++) {
            uint8_t raw[2032];
            check_rand_bytes(raw, sizeof raw);
            fc_sealed s;
            c1_output *c = st_seal(&s, ids[k], random ? raw : NULL, random ? sizeof raw : 0);
            if (!c) {
                fc_sealed_free(&s);
                continue;
            }
            if (!random) {
                uint8_t z[32];
                CHECK(fc_comm_d_zero(z, 2048) == 0);
                CHECK_MEM(s.comm_d, z, 32);
            }
            char msg[512];
            int rc = st_verify(c, 1, msg, sizeof msg);
            CHECK(rc == 0);
            if (rc)
                fprintf(stderr, "id %u: %s\n", ids[k], msg);
            CHECK(st_verify(c, 0, NULL, 0) == 0);
            fc_vanilla_info info;
            CHECK(fc_vanilla_verify(c, NULL, &info, NULL, 0) == 0);
            CHECK_MEM(info.comm_c, s.comm_c, 32);
            CHECK_MEM(info.comm_r_last, s.comm_r_last, 32);
            CHECK(info.challenges_checked == c->partitions * c->challenges);
            fc_vanilla_opts other = {1, ST_MINER + 1, ST_SECTOR};
            CHECK(fc_vanilla_verify(c, &other, NULL, msg, sizeof msg) != 0);
            CHECK(strstr(msg, "replica_id") != NULL);
            test_seed(c);
            if (random && ids[k] == 5)
                test_damage(c);
            c1_output_free(c);
            fc_sealed_free(&s);
        }
    }
    return check_finish();
}
