/* One PoRep C2 request's partitions: see porep_partition.h. */
#include "filecoin/porep/porep_partition.h"

#include <stdlib.h>
#include <string.h>

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
