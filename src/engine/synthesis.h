/* The synthesis workers (synthesis.c): partition tasks -> queued groups. */
#ifndef CUZK_ENGINE_SYNTHESIS_H
#define CUZK_ENGINE_SYNTHESIS_H

/* A worker thread's body; arg is the engine.  Returns once the dispatcher
 * is done and no batch is active. */
void *synth_main(void *arg);

struct cuzk_engine;
struct engine_job;
/* Under the lock: what one partition of member j of a batch of n_jobs jobs
 * reserves (a batch's floor is the sum): the peak of making a deferred
 * partition when the devices evaluate a/b/c and its circuit's pce is known
 * (its shape), else the classic bound (memory.h).  A batch of several jobs
 * reserves the classic bound: a member that had to grow while the others
 * held theirs could wait forever.  A partition that must go classic after
 * all gives this back and waits for the bound (group_reserve_classic). */
uint64_t synth_member_bytes(struct cuzk_engine *e, size_t n_jobs, const struct engine_job *j);

#endif
