/* Circuit names of the CLI: see circuit_names.h. */
#include "cli/circuit_names.h"

#include <stdio.h>
#include <string.h>

#include "util/err.h"

const char *circuit_names_list(void) {
    static char list[1024];
    if (!list[0]) /* the CLI is one thread */
        for (size_t i = 0, n = 0; fc_kind_at(i); i++)
            for (unsigned z = 0; z < FC_SECTOR_SIZES && n < sizeof list; z++)
                n += (size_t)snprintf(list + n, sizeof list - n, "%s%s-%s", n ? "|" : "",
                                      fc_kind_at(i)->circuit_name, fc_shape_at(z)->short_name);
    return list;
}

int circuit_name_parse(circuit_name *out, const char *name) {
    memset(out, 0, sizeof *out);
    if (fc_circuit_by_name(&out->fc, name) != 0) {
        fprintf(stderr, "cuzk: unknown circuit \"%s\" (one of %s)\n", name, circuit_names_list());
        return -1;
    }
    out->proof_name = out->fc.proof_name;
    if (!out->fc.kind->param_stem(out->stem, sizeof out->stem, &out->fc))
        out->stem[0] = 0;
    return 0;
}

int circuit_name_synthesize(r1cs_cs *cs, const circuit_name *c, const void *witness) {
    return c->fc.kind->synthesize(cs, c->fc.shape, witness);
}

void circuit_name_describe(const circuit_name *c) {
    char line[512];
    c->fc.kind->describe(line, sizeof line, &c->fc);
    printf("circuit            %s\n", line);
    if (c->stem[0])
        printf("parameters         %s.params / .vk\n", c->stem);
}

int circuit_name_witness_generate(const circuit_name *c, const void *witness,
                                  const r1cs_segment_mark *segs, size_t nseg, size_t num_inputs,
                                  size_t num_aux, unsigned threads, fr *input, fr *aux, char *err,
                                  size_t cap) {
    if (!c->fc.kind->witness_generate)
        return err_set(err, cap, "%s has no witness generator", c->fc.kind->circuit_name);
    return c->fc.kind->witness_generate(c->fc.shape, witness, segs, nseg, num_inputs, num_aux,
                                        threads, input, aux, err, cap);
}

int circuit_name_witness(circuit_witness *w, const circuit_name *c, uint64_t seed) {
    return c->fc.kind->witness_random(w, c->fc.shape, seed);
}

void circuit_witness_free(circuit_witness *w) { fc_kind_witness_free(w); }
