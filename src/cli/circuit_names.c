/* Circuit names of the CLI: see circuit_names.h. */
#include "cli/circuit_names.h"

#include <stdio.h>
#include <string.h>

#include "filecoin/porep/porep_circuit.h"
#include "filecoin/post/post_circuit.h"
#include "filecoin/proof_types.h"

const char *const CIRCUIT_NAMES =
    "porep-2k|porep-8m|porep-512m|porep-32g|porep-64g|winning-2k|"
    "window-2k|winning-32g|window-32g|window-64g (and winning-/window- "
    "8m, 512m, 64g)";

int circuit_name_parse(circuit_name *out, const char *name) {
    const char *dash = strchr(name, '-');
    if (!dash)
        goto bad;
    const fc_sector_shape *shape = NULL;
    unsigned si = 0;
    for (unsigned i = 0; i < FC_SECTOR_SIZES; i++)
        if (strcmp(fc_shape_at(i)->short_name, dash + 1) == 0) {
            shape = fc_shape_at(i);
            si = i;
        }
    if (!shape)
        goto bad;
    const size_t kind = (size_t)(dash - name);
    memset(out, 0, sizeof *out);
    if (kind == 5 && strncmp(name, "porep", 5) == 0) {
        const fc_seal_proof *p = fc_seal_proof_by_id(5 + si); /* V1_1: every version's circuit */
        out->porep = 1;
        out->proof_name = p->name;
        porep_shape_for_sector(&out->ps, shape, p->challenges_per_partition);
        if (!fc_porep_param_stem(out->stem, sizeof out->stem, shape))
            out->stem[0] = 0;
        return 0;
    }
    int winning = kind == 7 && strncmp(name, "winning", 7) == 0;
    int window = kind == 6 && strncmp(name, "window", 6) == 0;
    if (!winning && !window)
        goto bad;
    const fc_post_proof *p = fc_post_proof_by_id(window ? 5 + si : si);
    out->proof_name = p->name;
    post_shape_for_proof(&out->qs, p);
    if (!fc_post_param_stem(out->stem, sizeof out->stem, p))
        out->stem[0] = 0;
    return 0;
bad:
    fprintf(stderr, "cuzk: unknown circuit \"%s\" (one of %s)\n", name, CIRCUIT_NAMES);
    return -1;
}

int circuit_name_synthesize(r1cs_cs *cs, const circuit_name *c, const void *witness) {
    return c->porep ? porep_circuit_synthesize(cs, &c->ps, witness)
                    : post_circuit_synthesize(cs, &c->qs, witness);
}

void circuit_name_describe(const circuit_name *c) {
    if (c->porep) {
        printf("circuit            %s partition: %llu nodes, %u layers, %u challenges, trees R/C "
               "%u-%u-%u\n",
               c->proof_name, (unsigned long long)c->ps.nodes, c->ps.layers, c->ps.challenges,
               c->ps.arity_base, c->ps.arity_sub, c->ps.arity_top);
    } else {
        printf("circuit            %s: %u sectors x %u challenges, %llu leaves, tree R %u-%u-%u\n",
               c->proof_name, c->qs.sectors, c->qs.challenges, (unsigned long long)c->qs.nodes,
               c->qs.arity_base, c->qs.arity_sub, c->qs.arity_top);
    }
    if (c->stem[0])
        printf("parameters         %s.params / .vk\n", c->stem);
}
