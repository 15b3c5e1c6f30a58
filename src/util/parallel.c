/* par_run: a fork/join over an atomic task counter.  Threads live only for one
 * call: the work handed out here is large (MSM windows, NTT blocks), so the
 * cost of starting a thread is noise beside it. */
#include "util/parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

typedef struct {
    par_task_fn fn;
    void *ctx;
    size_t n_tasks;
    atomic_size_t next;
} par_job;

typedef struct {
    par_job *job;
    unsigned worker;
} par_worker;

static void drain(par_job *job, unsigned worker) {
    for (;;) {
        size_t t = atomic_fetch_add_explicit(&job->next, 1, memory_order_relaxed);
        if (t >= job->n_tasks)
            return;
        job->fn(job->ctx, t, worker);
    }
}

static void *worker_main(void *arg) {
    par_worker *w = arg;
    drain(w->job, w->worker);
    return NULL;
}

void par_run(unsigned threads, size_t n_tasks, par_task_fn fn, void *ctx) {
    par_job job = {fn, ctx, n_tasks, 0};
    if (threads > n_tasks)
        threads = (unsigned)n_tasks;
    if (threads <= 1) {
        drain(&job, 0);
        return;
    }
    enum { MAX_HELPERS = 1023 };
    pthread_t tid[MAX_HELPERS];
    par_worker w[MAX_HELPERS];
    unsigned started = 0;
    for (unsigned i = 1; i < threads && started < MAX_HELPERS; i++) {
        w[started] = (par_worker){&job, i};
        if (pthread_create(&tid[started], NULL, worker_main, &w[started]) != 0)
            break; /* fewer helpers; the calling thread picks up the rest */
        started++;
    }
    drain(&job, 0);
    for (unsigned i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
}

unsigned par_cpu_count(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}
