/* The Filecoin circuit providers the engine registers at start-up (the
 * interface is circuit_provider.h).  PoRep C2 and SnapDeals register here as
 * their providers are built. */
#ifndef CUZK_ENGINE_PROVIDERS_H
#define CUZK_ENGINE_PROVIDERS_H

#include "engine/circuit_provider.h"

/* WINDOW_POST_PARTITION and WINNING_POST (FallbackPoSt). */
extern const engine_circuit_provider engine_provider_post;

#endif
