/* The Filecoin circuits' registration: see providers.h.
 *
 * Parameter files are named as rust-fil-proofs names them (each row's
 * param_stem; proof_types.h computes the names and its test checks them
 * against the published ones): v28-<prefix>-<sha256(identifier)>,
 * api-and-ecosystem.md s.7.1, filecoin-facts.md s.1.4.  Stems only: .params
 * and .vk follow. */
#include "engine/providers.h"

#include <stdio.h>

cuzk_status engine_register_filecoin_providers(cuzk_engine *e, char err[CUZK_ERROR_LEN]) {
    for (size_t i = 0; fc_kind_at(i); i++) {
        const fc_kind *k = fc_kind_at(i);
        engine_circuit_provider p;
        engine_provider_of_kind(&p, k);
        if (cuzk_engine_register_provider(e, (cuzk_proof_kind)k->wire_kind, &p) != CUZK_OK) {
            snprintf(err, CUZK_ERROR_LEN, "cannot register the %s provider", p.name);
            return CUZK_E_INTERNAL;
        }
        for (unsigned z = 0; z < FC_SECTOR_SIZES; z++) {
            fc_circuit c;
            char stem[160];
            if (k->circuit_at(k, &c, z) != 0 || k->param_stem(stem, sizeof stem, &c) == 0 ||
                cuzk_engine_register_circuit(e, c.id, stem) != CUZK_OK) {
                snprintf(err, CUZK_ERROR_LEN, "cannot register the parameter file of %s-%s",
                         k->id_prefix, fc_shape_at(z)->short_name);
                return CUZK_E_INTERNAL;
            }
        }
    }
    return CUZK_OK;
}
