/* The synthesis workers (synthesis.c): partition tasks -> queued groups. */
#ifndef CUZK_ENGINE_SYNTHESIS_H
#define CUZK_ENGINE_SYNTHESIS_H

/* A worker thread's body; arg is the engine.  Returns once the dispatcher
 * is done and no batch is active. */
void *synth_main(void *arg);

#endif
