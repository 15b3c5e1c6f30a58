/* The Filecoin circuits' registration: see providers.h.
 *
 * Parameter files are named as rust-fil-proofs names them (proof_types.h
 * computes the names; its test checks them against the published ones):
 * v28-<prefix>-<sha256(identifier)>, api-and-ecosystem.md s.7.1,
 * filecoin-facts.md s.1.4.  Stems only: .params and .vk follow. */
#include "engine/providers.h"

#include <stdio.h>

#include "filecoin/proof_types.h"

static cuzk_status name(cuzk_engine *e, const char *id, const char *stem, int made,
                        char err[CUZK_ERROR_LEN]) {
    cuzk_status st = made ? cuzk_engine_register_circuit(e, id, stem) : CUZK_E_INTERNAL;
    if (st != CUZK_OK)
        snprintf(err, CUZK_ERROR_LEN, "cannot register the parameter file of %s", id);
    return st;
}

cuzk_status engine_register_filecoin_providers(cuzk_engine *e, char err[CUZK_ERROR_LEN]) {
    static const struct {
        cuzk_proof_kind kind;
        const engine_circuit_provider *p;
    } kinds[] = {
        {CUZK_KIND_POREP_C2, &engine_provider_porep},
        {CUZK_KIND_WINDOW_POST, &engine_provider_post},
        {CUZK_KIND_WINNING_POST, &engine_provider_post},
        {CUZK_KIND_SNAP_DEALS, &engine_provider_snap},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (cuzk_engine_register_provider(e, kinds[i].kind, kinds[i].p) != CUZK_OK) {
            snprintf(err, CUZK_ERROR_LEN, "cannot register the %s provider", kinds[i].p->name);
            return CUZK_E_INTERNAL;
        }
    cuzk_status st = CUZK_OK;
    for (unsigned i = 0; i < FC_SECTOR_SIZES && st == CUZK_OK; i++) {
        const fc_sector_shape *sh = fc_shape_at(i);
        char id[ENGINE_CIRCUIT_ID_LEN], stem[160];
        snprintf(id, sizeof id, "porep-%s", sh->short_name);
        st = name(e, id, stem, fc_porep_param_stem(stem, sizeof stem, sh) != 0, err);
        snprintf(id, sizeof id, "wpost-%s", sh->short_name);
        if (st == CUZK_OK) /* WindowPoSt V1 and V1_1 share their parameters */
            st = name(e, id, stem,
                      fc_post_param_stem(stem, sizeof stem, fc_post_proof_by_id(5 + i)) != 0, err);
        snprintf(id, sizeof id, "winning-%s", sh->short_name);
        if (st == CUZK_OK)
            st = name(e, id, stem,
                      fc_post_param_stem(stem, sizeof stem, fc_post_proof_by_id(i)) != 0, err);
    }
    for (uint64_t i = 0; i < FC_SECTOR_SIZES && st == CUZK_OK; i++) {
        const fc_update_proof *u = fc_update_proof_by_id(i);
        char id[ENGINE_CIRCUIT_ID_LEN], stem[160];
        snprintf(id, sizeof id, "snap-%s", u ? u->shape->short_name : "?");
        st = name(e, id, stem, u && fc_update_param_stem(stem, sizeof stem, u) != 0, err);
    }
    return st;
}
