/* The engine's prover devices, opened by whoever starts an engine (the
 * daemon, `cuzk bench engine`): the engine opens none itself, so it links
 * no backend but the CPU's and is handed its devices through the config's
 * prover_devices.  The GPUs are CUDA backends (cuda_backend_open), owned
 * here and closed after the engine is freed. */
#ifndef CUZK_CLI_ENGINE_DEVICES_H
#define CUZK_CLI_ENGINE_DEVICES_H

#include <stddef.h>

#include "cuzk/engine.h"
#include "groth16/backend.h"

typedef struct {
    const groth16_backend *owned[16];
    size_t n;
} cli_engine_devices;

/* Unless c->simulate_devices, opens the GPUs c asks for (c->use_gpu:
 * gpus.devices, or every GPU found) into d and lists them in
 * c->prover_devices.  A GPU that cannot be opened is logged with its reason
 * and left out; with none, the engine proves on the CPU backend (logged). */
void cli_engine_devices_open(cli_engine_devices *d, cuzk_engine_config *c);
/* Closes what cli_engine_devices_open opened (after cuzk_engine_free). */
void cli_engine_devices_close(cli_engine_devices *d);

/* TEST ONLY hooks read from the environment into c, for the daemon and the
 * bench (the engine reads no environment): CUZK_TEST_ONLY_RS_SEED (every
 * proof's r, s from that seed) and CUZK_TEST_FAIL_DEVICE=k[,l...] (every
 * call on device k fails as a device fault). */
void cli_engine_test_hooks(cuzk_engine_config *c);

#endif
