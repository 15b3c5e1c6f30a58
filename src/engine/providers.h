/* The Filecoin circuit providers the engine registers at start-up (the
 * interface is circuit_provider.h).  SnapDeals registers here once its
 * circuit is built. */
#ifndef CUZK_ENGINE_PROVIDERS_H
#define CUZK_ENGINE_PROVIDERS_H

#include "engine/circuit_provider.h"

/* POREP_SEAL_COMMIT: one C1 output (Curio's wrapper or bare). */
extern const engine_circuit_provider engine_provider_porep;

/* WINDOW_POST_PARTITION and WINNING_POST (FallbackPoSt). */
extern const engine_circuit_provider engine_provider_post;

#endif
