/* Explicit parallelism: every parallel call says how many threads it may use.
 *
 * There is no global pool.  A caller (the engine, from its configuration; a
 * command, from --threads) passes a thread count down, so two proofs running
 * at once split the cores between them instead of oversubscribing.  par_run starts
 * threads - 1 helpers for the duration of the call and works on the calling
 * thread too; threads <= 1 runs everything inline, with no thread created. */
#ifndef CUZK_UTIL_PARALLEL_H
#define CUZK_UTIL_PARALLEL_H

#include <stddef.h>

/* Called once per task index in [0, n_tasks); worker is in [0, threads). */
typedef void (*par_task_fn)(void *ctx, size_t task, unsigned worker);

/* Runs fn for every task, handing tasks out dynamically (an atomic counter),
 * and returns when all are done.  If helper threads cannot be created, the
 * remaining work runs on the calling thread: slower, never lost. */
void par_run(unsigned threads, size_t n_tasks, par_task_fn fn, void *ctx);

/* Number of online CPUs (at least 1): a default for tools and benchmarks,
 * never used implicitly by the library. */
unsigned par_cpu_count(void);

#endif
