/* The Filecoin circuits for the engine: one provider per row of the kind
 * table (filecoin/kinds.h; the adapter is provider_kind.c, the interface
 * circuit_provider.h) and their parameter files by circuit id.  The engine
 * itself knows no Filecoin circuit or file name: whoever makes an engine for
 * Filecoin work (the daemon, `cuzk bench engine`, the tests) calls
 * engine_register_filecoin_providers after cuzk_engine_new. */
#ifndef CUZK_ENGINE_PROVIDERS_H
#define CUZK_ENGINE_PROVIDERS_H

#include "engine/circuit_provider.h"
#include "filecoin/kinds.h"

/* The provider of kind k (ctx: the row). */
void engine_provider_of_kind(engine_circuit_provider *out, const fc_kind *k);

/* Registers every row's provider for its wire kind and every circuit id's
 * published file stem ("<id_prefix>-<size>" for the five sector sizes) with
 * the SRS manager.  CUZK_OK, or an error with err filled. */
cuzk_status engine_register_filecoin_providers(cuzk_engine *e, char err[CUZK_ERROR_LEN]);

#endif
