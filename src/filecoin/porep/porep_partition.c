/* One PoRep C2 request's partitions: see porep_partition.h. */
#include "filecoin/porep/porep_partition.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/porep/porep_witness_par.h"
#include "filecoin/porep/replica_id.h"
#include "filecoin/proof_types.h"
#include "filecoin/prover_id.h"
#include "filecoin/sdr/graph.h"
#include "util/err.h"
#include "util/timing.h"

void porep_c2_free(porep_c2 *c2) {
    for (unsigned k = 0; c2->parts && k < c2->n_partitions; k++) {
        porep_public_free(&c2->parts[k].pub);
        porep_c1_witness_free(&c2->parts[k].w);
    }
    free(c2->parts);
    memset(c2, 0, sizeof *c2);
}

int porep_c2_prepare(porep_c2 *out, const c1_output *c, char *err, size_t cap) {
    memset(out, 0, sizeof *out);
    if (porep_c1_shape(&out->shape, c, err, cap))
        return -1;
    out->proof = c->proof;
    out->challenges = c->challenges;
    out->parts = calloc(c->partitions, sizeof *out->parts);
    if (!out->parts)
        return err_set(err, cap, "out of memory");
    out->n_partitions = c->partitions;
    fc_graph g;
    if (fc_graph_init_proof(&g, c->proof) != 0) {
        porep_c2_free(out);
        return err_set(err, cap, "cannot build the %s graph (out of memory)", c->proof->name);
    }
    char msg[480];
    int rc = 0;
    for (unsigned k = 0; k < out->n_partitions && rc == 0; k++) {
        porep_partition *p = &out->parts[k];
        double t0 = timing_now_ms();
        if (porep_c1_public(&p->pub, c, k, &g, msg, sizeof msg)) {
            rc = err_set(err, cap, "partition %u: %s", k, msg);
            break;
        }
        double t1 = timing_now_ms();
        if (porep_c1_witness_get(&p->w, c, k, msg, sizeof msg) ||
            porep_c1_check(&p->w, &p->pub, msg, sizeof msg))
            rc = err_set(err, cap, "partition %u: %s", k, msg);
        out->public_ms += t1 - t0;
        out->witness_ms += timing_now_ms() - t1;
    }
    fc_graph_free(&g);
    if (rc)
        porep_c2_free(out);
    return rc;
}

int porep_partition_synthesize(r1cs_cs *cs, void *partition) {
    const porep_partition *p = partition;
    return porep_circuit_synthesize(cs, &p->w.shape, &p->w.w);
}

int porep_c1_identity_check(const c1_output *c, uint64_t miner_id, uint64_t sector_number,
                            char *err, size_t cap) {
    uint8_t prover[32], porep_id[32], rid[32];
    fc_prover_id(prover, miner_id);
    fc_porep_id(porep_id, c->proof);
    fc_replica_id(rid, prover, sector_number, c->ticket, c->comm_d, porep_id);
    if (memcmp(rid, c->replica_id, 32) == 0)
        return 0;
    char wrap[96] = "";
    if (c->wrapped && c->sector_num != sector_number)
        snprintf(wrap, sizeof wrap, "; the Curio wrapper says SectorNum %llu",
                 (unsigned long long)c->sector_num);
    err_set(err, cap,
            "miner_id %llu and sector_number %llu do not reproduce the C1's replica_id "
            "%02x%02x%02x%02x... (got %02x%02x%02x%02x...): the C1 was sealed for another miner "
            "or sector%s",
            (unsigned long long)miner_id, (unsigned long long)sector_number, c->replica_id[0],
            c->replica_id[1], c->replica_id[2], c->replica_id[3], rid[0], rid[1], rid[2], rid[3],
            wrap);
    return -1;
}

int porep_partition_witness(void *partition, const r1cs_pce *p, unsigned threads, fr *input,
                            fr *aux, char *err, size_t cap) {
    const porep_partition *pp = partition;
    return porep_witness_generate(&pp->w.shape, &pp->w.w, p->segments, p->n_segments, p->num_inputs,
                                  p->num_aux, threads, input, aux, err, cap);
}
