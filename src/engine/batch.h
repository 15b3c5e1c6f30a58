/* Batches and synthesized groups: their life cycle, shared by the
 * dispatcher (dispatcher.c), the synthesis workers (synthesis.c) and the
 * provers (pipeline.c).
 *
 * A batch ends (batch_check_done) when nothing is left to hand out and no
 * task of it is open; it then releases its parameter set and floor and
 * settles its jobs.  A group member is dropped (group_drop_member) when its
 * job is no longer live or its proof is stored: its partition is freed and
 * its memory returned at once.  A job settles (batch_settle) into its final
 * state once none of its partitions is in flight.
 *
 * Every function runs under the engine lock. */
#ifndef CUZK_ENGINE_BATCH_H
#define CUZK_ENGINE_BATCH_H

#include <stddef.h>

#include "engine/engine_internal.h"

/* Puts an admitted batch on the active list (priority, then admission order). */
void batch_insert_active(cuzk_engine *e, engine_batch *b);
/* Ends the batch (and frees it) when it has nothing left to do. */
void batch_check_done(cuzk_engine *e, engine_batch *b);
/* A job with nothing in flight reaches its final state: cancelled, failed,
 * or completed with every partition proven. */
void batch_settle(cuzk_engine *e, engine_job *j);

/* An empty group for partition part of b, room for every job of b; NULL
 * when out of memory. */
engine_group *group_new(engine_batch *b, size_t part);
/* Frees the group's arrays and the group (members already dropped). */
void group_free(engine_group *g);
/* Drops member k: frees its partition, returns its memory, settles its job. */
void group_drop_member(cuzk_engine *e, engine_group *g, size_t k);
/* Drops every member, closes the batch's task, frees the group. */
void group_done(cuzk_engine *e, engine_group *g);
int group_empty(const engine_group *g);
/* Queues a synthesized group for the provers (pipeline order). */
void group_queue(cuzk_engine *e, engine_group *g);
/* Member k holds the classic bound (plan.partition_bytes) when this returns
 * 0: a reservation smaller than that (a deferred one, memory.h) is given back
 * first, then the bound is waited for from the budget, or the batch's floor
 * once free (a lone member), so nothing is held while waiting.  A member
 * under the floor is covered already (the floor is the classic bound).  -1:
 * its job is no longer live, or (retry: a prover's classic retry, which new
 * reservations wait behind) nothing else running could give memory back. */
int group_reserve_classic(cuzk_engine *e, engine_group *g, size_t k, int retry);

#endif
