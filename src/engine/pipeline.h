/* The proving pipeline (pipeline.c, with dispatcher.c, synthesis.c and
 * batch.c): what the API (engine.c) calls. */
#ifndef CUZK_ENGINE_PIPELINE_H
#define CUZK_ENGINE_PIPELINE_H

#include "engine/engine_internal.h"

/* Splits the cores and starts the dispatcher, synthesis and prover threads. */
int pipeline_start(cuzk_engine *e, char err[CUZK_ERROR_LEN]);
/* Stops the threads after the work they hold is done (engine lock not held). */
void pipeline_join(cuzk_engine *e);
/* A running job was cancelled: drop its queued partitions now. */
void pipeline_cancel_job(cuzk_engine *e, engine_job *j);
/* Whether memory held now will be released without new admissions (the SRS
 * manager's can_release input; ctx is the engine). */
int pipeline_can_release(void *ctx);

#endif
