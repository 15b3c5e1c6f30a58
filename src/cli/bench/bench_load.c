/* The batch/stress runner, its summary and its timeline (bench_load.h).
 *
 * Threads: the caller's thread releases requests (all at once, or one every
 * 1/rate s on CLOCK_MONOTONIC); `slots` workers wait for a released request,
 * take the lowest index not yet taken, run its Prove call and record it.
 * Records are written only by the worker that took the index, and read after
 * all workers are joined.  Progress lines are printed under the same mutex
 * that guards the counters, so they never interleave. */
#include "cli/bench/bench_load.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "util/svg_timeline.h"
#include "util/timing.h"

typedef struct {
    const bench_plan *p;
    bench_record *rec;
    const bench_spec **order; /* the spec of each index */
    double t0;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t released, taken, done;
} run_state;

typedef struct {
    run_state *st;
    unsigned slot;
} worker_arg;

static void request_id(char out[64], const char *kind) {
    uint8_t b[16];
    if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b) {
        struct timespec t; /* no entropy: still unique per process and time */
        clock_gettime(CLOCK_REALTIME, &t);
        memcpy(b, &t, sizeof t < sizeof b ? sizeof t : sizeof b);
    }
    b[6] = (uint8_t)((b[6] & 0x0f) | 0x40); /* UUID v4 */
    b[8] = (uint8_t)((b[8] & 0x3f) | 0x80);
    snprintf(out, 64,
             "bench-%s-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", kind,
             b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
             b[14], b[15]);
}

int bench_record_ok(const bench_record *r) { return r->code == 0 && r->res.status == 1; }

static const char *status_name(int s) {
    static const char *const n[] = {"UNKNOWN", "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT"};
    return s >= 0 && s <= 4 ? n[s] : "UNKNOWN";
}

static void print_progress(FILE *f, const bench_record *r, size_t count) {
    double wall = (r->end_ms - r->start_ms) / 1000.0;
    if (r->code != 0) {
        fprintf(f, "  [%zu/%zu] %-7s ERROR - %.2fs (slot %u): %s: %s\n", r->index + 1, count,
                r->spec->name, wall, r->slot, grpc_client_code_name(r->code), r->msg);
        return;
    }
    const client_proof_result *x = &r->res;
    fprintf(f,
            "  [%zu/%zu] %-7s %s - %.2fs (queue=%llu synth=%llu prove=%llu total=%llu ms, "
            "%zu-byte proof, slot %u)",
            r->index + 1, count, r->spec->name, status_name(x->status), wall,
            (unsigned long long)x->queue_wait_ms, (unsigned long long)x->synthesis_ms,
            (unsigned long long)x->gpu_compute_ms, (unsigned long long)x->total_ms, x->proof_len,
            r->slot);
    if (x->status != 1)
        fprintf(f, ": %s", x->error_message);
    fputc('\n', f);
}

static void *worker(void *arg) {
    worker_arg *w = arg;
    run_state *st = w->st;
    const bench_plan *p = st->p;
    for (;;) {
        pthread_mutex_lock(&st->mu);
        while (st->taken == st->released && st->taken < p->count)
            pthread_cond_wait(&st->cv, &st->mu);
        if (st->taken >= p->count) {
            pthread_mutex_unlock(&st->mu);
            return NULL;
        }
        size_t i = st->taken++;
        pthread_mutex_unlock(&st->mu);

        bench_record *r = &st->rec[i];
        r->index = i;
        r->slot = w->slot;
        r->spec = st->order[i];
        char id[64];
        request_id(id, r->spec->name);
        client_proof_request q = r->spec->req;
        q.request_id = id;
        r->start_ms = timing_now_ms() - st->t0;
        r->code = grpc_client_prove(p->client, &q, p->timeout_ms, &r->res, r->msg);
        r->end_ms = timing_now_ms() - st->t0;

        pthread_mutex_lock(&st->mu);
        st->done++;
        if (p->progress) {
            print_progress(p->progress, r, p->count);
            fflush(p->progress);
        }
        pthread_mutex_unlock(&st->mu);
    }
}

/* Smooth weighted round robin: the mix spread evenly over the sequence
 * (weights 1:2 give a b b a b b ...), the same every run. */
static void plan_order(const bench_spec **order, const bench_plan *p) {
    double cur[64] = {0}, sum = 0;
    size_t n = p->n_specs < 64 ? p->n_specs : 64;
    for (size_t k = 0; k < n; k++)
        sum += p->specs[k].weight;
    for (size_t i = 0; i < p->count; i++) {
        size_t best = 0;
        for (size_t k = 0; k < n; k++) {
            cur[k] += p->specs[k].weight;
            if (cur[k] > cur[best])
                best = k;
        }
        cur[best] -= sum;
        order[i] = &p->specs[best];
    }
}

static void sleep_until(double t_ms) {
    double now = timing_now_ms();
    if (t_ms <= now)
        return;
    double d = t_ms - now;
    struct timespec ts = {(time_t)(d / 1000.0), (long)(fmod(d, 1000.0) * 1e6)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

int bench_run(const bench_plan *p, bench_record **out, double *elapsed_ms,
              char err[CUZK_ERROR_LEN]) {
    *out = NULL;
    run_state st;
    memset(&st, 0, sizeof st);
    st.p = p;
    st.rec = calloc(p->count ? p->count : 1, sizeof *st.rec);
    st.order = calloc(p->count ? p->count : 1, sizeof *st.order);
    pthread_t *th = calloc(p->slots, sizeof *th);
    worker_arg *wa = calloc(p->slots, sizeof *wa);
    if (!st.rec || !st.order || !th || !wa) {
        snprintf(err, CUZK_ERROR_LEN, "out of memory for %zu requests", p->count);
        free(st.rec);
        free(st.order);
        free(th);
        free(wa);
        return -1;
    }
    plan_order(st.order, p);
    pthread_mutex_init(&st.mu, NULL);
    pthread_cond_init(&st.cv, NULL);
    st.t0 = timing_now_ms();
    unsigned started = 0;
    for (; started < p->slots; started++) {
        wa[started] = (worker_arg){&st, started};
        if (pthread_create(&th[started], NULL, worker, &wa[started]) != 0)
            break;
    }
    if (started == 0) {
        snprintf(err, CUZK_ERROR_LEN, "cannot start worker threads");
        pthread_mutex_destroy(&st.mu);
        pthread_cond_destroy(&st.cv);
        free(st.rec);
        free(st.order);
        free(th);
        free(wa);
        return -1;
    }
    for (size_t i = 0; i < p->count; i++) {
        double at = p->rate_per_s > 0 ? (double)i * 1000.0 / p->rate_per_s : 0.0;
        st.rec[i].sched_ms = at;
        if (at > 0)
            sleep_until(st.t0 + at);
        pthread_mutex_lock(&st.mu);
        st.released = i + 1;
        pthread_cond_broadcast(&st.cv);
        pthread_mutex_unlock(&st.mu);
    }
    for (unsigned k = 0; k < started; k++)
        pthread_join(th[k], NULL);
    *elapsed_ms = timing_now_ms() - st.t0;
    pthread_mutex_destroy(&st.mu);
    pthread_cond_destroy(&st.cv);
    free(st.order);
    free(th);
    free(wa);
    *out = st.rec;
    return 0;
}

void bench_records_free(bench_record *r, size_t n) {
    if (r == NULL)
        return;
    for (size_t i = 0; i < n; i++)
        client_proof_result_free(&r[i].res);
    free(r);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double bench_percentile(double *v, size_t n, double q) {
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    size_t rank = (size_t)ceil(q / 100.0 * (double)n); /* nearest rank, 1-based */
    return v[rank == 0 ? 0 : rank - 1];
}

/* Summary lines for the records of spec s (NULL: all). */
static void summarize(FILE *f, const char *indent, const bench_record *r, size_t n,
                      const bench_spec *s, double elapsed_ms) {
    double *wall = malloc((n ? n : 1) * sizeof *wall);
    if (wall == NULL)
        return;
    size_t ok = 0, total = 0;
    double sum = 0, q = 0, syn = 0, prv = 0, srv = 0;
    for (size_t i = 0; i < n; i++) {
        if (s && r[i].spec != s)
            continue;
        total++;
        if (!bench_record_ok(&r[i]))
            continue;
        wall[ok++] = r[i].end_ms - r[i].start_ms;
        sum += r[i].end_ms - r[i].start_ms;
        q += (double)r[i].res.queue_wait_ms;
        syn += (double)r[i].res.synthesis_ms;
        prv += (double)r[i].res.gpu_compute_ms;
        srv += (double)r[i].res.total_ms;
    }
    fprintf(f, "%scompleted:   %zu of %zu (%zu failed)\n", indent, ok, total, total - ok);
    if (ok) {
        double secs = elapsed_ms / 1000.0;
        fprintf(f, "%sthroughput:  %.3f proofs/min (%.2f s/proof)\n", indent,
                (double)ok / secs * 60.0, secs / (double)ok);
        double avg = sum / (double)ok;
        double p50 = bench_percentile(wall, ok, 50), p95 = bench_percentile(wall, ok, 95);
        fprintf(f, "%slatency:     avg=%.2fs p50=%.2fs p95=%.2fs max=%.2fs\n", indent, avg / 1000.0,
                p50 / 1000.0, p95 / 1000.0, wall[ok - 1] / 1000.0);
        fprintf(f,
                "%sdaemon avg:  total=%.0f ms (queue=%.0f ms, synthesis=%.0f ms, prove=%.0f ms)\n",
                indent, srv / (double)ok, q / (double)ok, syn / (double)ok, prv / (double)ok);
    }
    free(wall);
}

void bench_summary(FILE *f, const bench_plan *p, const bench_record *r, size_t n,
                   double elapsed_ms) {
    fprintf(f, "total time:  %.2f s\n", elapsed_ms / 1000.0);
    summarize(f, "", r, n, NULL, elapsed_ms);
    if (p->rate_per_s > 0 && n) {
        double *late = malloc(n * sizeof *late);
        if (late) {
            for (size_t i = 0; i < n; i++)
                late[i] = r[i].start_ms - r[i].sched_ms;
            double p95 = bench_percentile(late, n, 95);
            fprintf(f, "start delay: p95=%.0f ms max=%.0f ms (requests waiting for a free slot)\n",
                    p95, late[n - 1]);
            free(late);
        }
    }
    if (p->n_specs > 1)
        for (size_t k = 0; k < p->n_specs; k++) {
            fprintf(f, "%s:\n", p->specs[k].name);
            summarize(f, "  ", r, n, &p->specs[k], elapsed_ms);
        }
    int shown = 0;
    for (size_t i = 0; i < n && shown < 5; i++)
        if (!bench_record_ok(&r[i])) {
            fprintf(f, "failure [%zu] %s: %s\n", r[i].index + 1, r[i].spec->name,
                    r[i].code ? r[i].msg : r[i].res.error_message);
            shown++;
        }
}

/* The stages of a request as the chart draws them (their legend order). */
enum { ST_RPC, ST_QUEUE, ST_SRS, ST_SYNTH, ST_WAIT, ST_PROVE, ST_FAILED, ST_COUNT };
static const svg_class STAGES[ST_COUNT] = {
    {"rpc", NULL},        {"queue", NULL}, {"srs load", NULL},   {"synthesis", NULL},
    {"wait/other", NULL}, {"prove", NULL}, {"failed", "#d62728"}};

enum { NOTE = 200 };

/* One bar: its tooltip is "stage: note, N ms" (kept in tip, NOTE bytes). */
static svg_bar bar(double a, double b, unsigned cls, const char *note, char *tip) {
    snprintf(tip, NOTE, "%s: %.150s, %.0f ms", STAGES[cls].name, note, b - a);
    return (svg_bar){a, b, cls, tip};
}

/* Appends the bars of one request to bars (room for 6; tips holds 6 tooltips
 * of NOTE bytes) and returns the count. */
static size_t stage_bars(svg_bar *bars, char *tips, const bench_record *r) {
    char note[NOTE];
    double a = r->start_ms, b = r->end_ms;
    if (!bench_record_ok(r)) {
        snprintf(note, sizeof note, "%s #%zu: %.150s", r->spec->name, r->index + 1,
                 r->code ? r->msg : r->res.error_message);
        bars[0] = bar(a, b, ST_FAILED, note, tips);
        return 1;
    }
    const client_proof_result *x = &r->res;
    snprintf(note, sizeof note, "%s #%zu, job %.150s", r->spec->name, r->index + 1, x->job_id);
    double wall = b - a, total = fmin((double)x->total_ms, wall);
    double st[4] = {(double)x->queue_wait_ms, (double)x->srs_load_ms, (double)x->synthesis_ms,
                    (double)x->gpu_compute_ms};
    static const unsigned cls[4] = {ST_QUEUE, ST_SRS, ST_SYNTH, ST_PROVE};
    double sum = st[0] + st[1] + st[2] + st[3];
    /* synthesis and prove are summed over partitions; pipelined partitions
     * overlap, so scale the stages into the daemon's total when they exceed it */
    double k = sum > total && sum > 0 ? total / sum : 1.0;
    /* the daemon time outside the four stages is mostly waiting for a busy
     * prover after synthesis (self-verification after proving is ms), so it
     * is drawn between synthesis and prove, and prove ends with the reply */
    double wait = total - sum * k;
    size_t m = 0;
    double t = b - total;
    bars[m] = bar(a, t, ST_RPC, note, tips + m * NOTE);
    m++;
    for (int s = 0; s < 4; s++) {
        if (s == 3 && wait > 0.5) {
            bars[m] = bar(t, t + wait, ST_WAIT, note, tips + m * NOTE);
            m++;
            t += wait;
        }
        if (st[s] <= 0)
            continue;
        bars[m] = bar(t, t + st[s] * k, cls[s], note, tips + m * NOTE);
        m++;
        t += st[s] * k;
    }
    return m;
}

int bench_timeline(const char *path, const char *title, const bench_plan *p, const bench_record *r,
                   size_t n, char err[CUZK_ERROR_LEN]) {
    svg_lane *lanes = calloc(p->slots, sizeof *lanes);
    svg_bar *bars = calloc(n * 6 + 1, sizeof *bars);
    char *tips = calloc(n * 6 + 1, NOTE);
    char(*names)[32] = calloc(p->slots, sizeof *names);
    int rc = -1;
    if (!lanes || !bars || !tips || !names) {
        snprintf(err, CUZK_ERROR_LEN, "out of memory for the timeline");
        goto out;
    }
    /* records grouped by slot, each lane's bars contiguous */
    size_t m = 0;
    for (unsigned s = 0; s < p->slots; s++) {
        snprintf(names[s], sizeof names[s], "slot %u", s);
        lanes[s].name = names[s];
        lanes[s].bars = bars + m;
        for (size_t i = 0; i < n; i++)
            if (r[i].slot == s && r[i].spec != NULL)
                m += stage_bars(bars + m, tips + m * NOTE, &r[i]);
        lanes[s].n_bars = (size_t)(bars + m - lanes[s].bars);
    }
    svg_timeline t = {title, "ms", lanes, p->slots, STAGES, ST_COUNT, 0};
    rc = svg_timeline_save(path, &t, err, CUZK_ERROR_LEN);
out:
    free(lanes);
    free(bars);
    free(tips);
    free(names);
    return rc;
}
