/* The Filecoin circuits for the engine: their providers (the interface is
 * circuit_provider.h) and their parameter files by circuit id.  The engine
 * itself knows no Filecoin circuit or file name: whoever makes an engine for
 * Filecoin work (the daemon, `cuzk bench engine`, the tests) calls
 * engine_register_filecoin_providers after cuzk_engine_new. */
#ifndef CUZK_ENGINE_PROVIDERS_H
#define CUZK_ENGINE_PROVIDERS_H

#include "engine/circuit_provider.h"

/* POREP_SEAL_COMMIT: one C1 output (Curio's wrapper or bare). */
extern const engine_circuit_provider engine_provider_porep;

/* WINDOW_POST_PARTITION and WINNING_POST (FallbackPoSt). */
extern const engine_circuit_provider engine_provider_post;

/* SNAP_DEALS_UPDATE (the empty-sector update, provider_snap.c). */
extern const engine_circuit_provider engine_provider_snap;

/* Registers the providers above for their kinds and every Filecoin circuit
 * id's published file stem (porep-, wpost-, winning-, snap- + 2k 8m 512m 32g
 * 64g) with the SRS manager.  CUZK_OK, or an error with err
 * filled. */
cuzk_status engine_register_filecoin_providers(cuzk_engine *e, char err[CUZK_ERROR_LEN]);

#endif
