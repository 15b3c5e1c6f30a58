/* The SDR label (create_label.rs):
 *  - upstream's test setup (37 parents and the id as bytes_into_boolean_vec_be
 *    bits, layer 3 and node 22 constant): 532,025 constraints in all
 *    (filecoin-facts.md 3.7), satisfied, output = the native label;
 *  - the PoRep circuit's setup (id and parents as to_bits_le +
 *    reverse_bit_numbering of allocated nums, node a UInt64::alloc): one
 *    label = 522,269 constraints (facts 3.7, the model's S, which reproduces
 *    the four published stacked-circuit counts), output = native;
 *  - the native label equals OpenSSL's SHA-256 over the message as facts 3.3
 *    lays it out (big-endian layer and node), trimmed; node 0 hashes 64 bytes;
 *  - a flipped parent bit or node bit is reported unsatisfied; bad id sizes
 *    are refused. */
#include <openssl/sha.h>

#include "check.h"
#include "field_rand.h"
#include "filecoin/porep/label_circuit.h"
#include "gadget/tree_hash.h"

static void rand_node(uint8_t out[32]) {
    fr v = rand_fr();
    fr_to_bytes_le(out, &v);
}

/* 14 random parent labels, then the 37 as the vanilla code repeats them. */
static void rand_parents(uint8_t p[LABEL_PARENTS][32]) {
    for (int i = 0; i < 14; i++)
        rand_node(p[i]);
    for (int i = 14; i < LABEL_PARENTS; i++)
        memcpy(p[i], p[(i - 14) % 14], 32);
}

static void test_native(void) {
    uint8_t id[32], parents[LABEL_PARENTS][32], msg[LABEL_MESSAGE_BYTES], want[32], got[32];
    rand_node(id);
    rand_parents(parents);
    uint32_t layer = 0x01020304u;
    uint64_t node = 0x1122334455667788ull;
    memset(msg, 0, sizeof msg);
    memcpy(msg, id, 32);
    const uint8_t be[12] = {1, 2, 3, 4, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88};
    memcpy(msg + 32, be, 12);
    memcpy(msg + 64, parents, sizeof parents);
    SHA256(msg, sizeof msg, want);
    want[31] &= 0x3f;
    label_native(got, id, layer, node, &parents[0][0]);
    CHECK_MEM(got, want, 32);
    SHA256(msg, 64, want);
    want[31] &= 0x3f;
    label_native(got, id, layer, node, NULL);
    CHECK_MEM(got, want, 32);
}

enum { GOOD, BAD_PARENT_BIT, BAD_NODE_BIT };

/* Upstream's test: parents' bits, then the id's, then the label. */
static void upstream_setup(int corrupt) {
    uint8_t id[32], parents[LABEL_PARENTS][32], want[32];
    rand_node(id);
    rand_parents(parents);
    const uint32_t layer = 3;
    const uint64_t node = 22;
    label_native(want, id, layer, node, &parents[0][0]);

    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
    CHECK(cs != NULL);
    if (!cs)
        return;
    static gbool pbits[LABEL_PARENTS * 256];
    gbool idbits[256];
    for (int i = 0; i < LABEL_PARENTS; i++) {
        r1cs_push(cs, "parents %d", i);
        label_alloc_bytes_be(cs, pbits + 256 * i, parents[i], 32);
        r1cs_pop(cs);
    }
    r1cs_push(cs, "id");
    label_alloc_bytes_be(cs, idbits, id, 32);
    r1cs_pop(cs);
    if (corrupt == BAD_PARENT_BIT)
        pbits[256 * 20 + 77].val ^= 1;
    gu32 l = gu32_constant(layer);
    gu64 nd = gu64_constant(node);
    gnum out;
    r1cs_push(cs, "create_label");
    CHECK(label_circuit_create(cs, &out, idbits, 256, pbits, &l, &nd) == 0);
    r1cs_pop(cs);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    r1cs_counts k;
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK && k.checked);
    CHECK(k.constraints == 532025);
    if (corrupt == GOOD) {
        fr w;
        CHECK(fr_from_bytes_le(&w, want));
        CHECK(k.satisfied && out.has_val && fr_equal(&out.val, &w));
        printf("  upstream's test setup: %zu constraints\n", k.constraints);
    } else {
        CHECK(!k.satisfied);
        printf("  flipped parent bit: unsatisfied at %s\n",
               k.unsatisfied_path ? k.unsatisfied_path : "?");
    }
    r1cs_cs_free(cs);
}

/* A 256-bit message field from an allocated num, as the PoRep circuit makes
 * it: to_bits_le (255 bits), then reverse_bit_numbering (pad, per byte). */
static void num_bits(r1cs_cs *cs, gbool out[256], const uint8_t bytes[32]) {
    fr v;
    CHECK(fr_from_bytes_le(&v, bytes));
    gnum n = gnum_alloc(cs, &v);
    gbool le[GNUM_BITS];
    gnum_to_bits_le(cs, &n, le);
    tree_hash_reverse_bit_numbering(out, le, GNUM_BITS);
}

static void porep_setup(int corrupt) {
    uint8_t id[32], parents[LABEL_PARENTS][32], want[32];
    rand_node(id);
    rand_parents(parents);
    const uint32_t layer = 1 + (uint32_t)(check_rand64() % 11);
    const uint64_t node = check_rand64() >> 34;
    label_native(want, id, layer, node, &parents[0][0]);

    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
    CHECK(cs != NULL);
    if (!cs)
        return;
    static gbool pbits[LABEL_PARENTS * 256];
    gbool idbits[256];
    num_bits(cs, idbits, id);
    for (int i = 0; i < 14; i++)
        num_bits(cs, pbits + 256 * i, parents[i]);
    for (int i = 14; i < LABEL_PARENTS; i++)
        memcpy(pbits + 256 * i, pbits + 256 * ((i - 14) % 14), 256 * sizeof(gbool));
    gu64 nd = gu64_alloc(cs, &node);
    if (corrupt == BAD_NODE_BIT)
        nd.bits[3].val ^= 1;
    gu32 l = gu32_constant(layer);
    gnum out;
    size_t r0 = r1cs_num_constraints(cs);
    CHECK(label_circuit_create(cs, &out, idbits, 256, pbits, &l, &nd) == 0);
    size_t rows = r1cs_num_constraints(cs) - r0;
    CHECK(rows == 522269);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    r1cs_counts k;
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK && k.checked);
    if (corrupt == GOOD) {
        fr w;
        CHECK(fr_from_bytes_le(&w, want));
        CHECK(k.satisfied && out.has_val && fr_equal(&out.val, &w));
        printf("  PoRep setup (layer %u, node %llu): label %zu constraints\n", layer,
               (unsigned long long)node, rows);
    } else {
        CHECK(!k.satisfied);
    }
    r1cs_cs_free(cs);
}

static void test_bad(void) {
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
    static gbool pbits[LABEL_PARENTS * 256];
    gbool id[257];
    for (int i = 0; i < 257; i++)
        id[i] = gbool_const(0);
    for (int i = 0; i < LABEL_PARENTS * 256; i++)
        pbits[i] = gbool_const(0);
    gu32 l = gu32_constant(1);
    gu64 nd = gu64_constant(1);
    gnum out;
    CHECK(label_circuit_create(cs, &out, id, 31, pbits, &l, &nd) == -1);
    CHECK(label_circuit_create(cs, &out, id, 257, pbits, &l, &nd) == -1);
    CHECK(r1cs_num_aux(cs) == 0 && r1cs_num_constraints(cs) == 0);
    /* all constant: no constraint in the hash, only the packing row */
    CHECK(label_circuit_create(cs, &out, id, 256, pbits, &l, &nd) == 0);
    CHECK(r1cs_num_constraints(cs) == 1);
    r1cs_cs_free(cs);
}

int main(void) {
    check_seed("test_label_circuit");
    test_native();
    upstream_setup(GOOD);
    upstream_setup(BAD_PARENT_BIT);
    porep_setup(GOOD);
    porep_setup(GOOD);
    porep_setup(BAD_NODE_BIT);
    test_bad();
    return check_finish();
}
