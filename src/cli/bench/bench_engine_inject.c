/* WinningPoSt injected into `cuzk bench engine`: see bench_engine_inject.h. */
#include "cli/bench/bench_engine_inject.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/providers.h"
#include "filecoin/post/post_challenges.h"
#include "filecoin/post/post_vanilla.h"
#include "util/file_read.h"
#include "util/hex.h"
#include "util/timing.h"

/* The WinningPoSt proof whose shape the vanilla proof has. */
static const fc_post_proof *winning_proof_of(const uint8_t *b, size_t len) {
    char err[512];
    fc_post_vanilla v;
    for (uint64_t id = 0; id < 5; id++) {
        const fc_post_proof *p = fc_post_proof_by_id(id);
        if (p && p->kind == FC_POST_WINNING &&
            fc_post_vanilla_decode(&v, b, len, p, err, sizeof err) == 0) {
            fc_post_vanilla_free(&v);
            return p;
        }
    }
    return NULL;
}

int bench_inject_parse(bench_inject *in, const char *list, const char *vanilla_path,
                       const char *rnd_hex) {
    memset(in, 0, sizeof *in);
    const char *s = list;
    while (s && *s) {
        char *end;
        double v = strtod(s, &end);
        if (end == s || (*end && *end != ',') || v < 0 || v > 3600000 ||
            in->n == BENCH_INJECT_MAX || (in->n && v < in->at_ms[in->n - 1])) {
            fprintf(stderr,
                    "cuzk bench engine: --inject-winning \"%s\": up to %d times in ms, "
                    "ascending, 0..3600000, comma separated\n",
                    list, BENCH_INJECT_MAX);
            return 2;
        }
        in->at_ms[in->n++] = v;
        s = *end ? end + 1 : end;
    }
    if (!vanilla_path != !rnd_hex) {
        fprintf(stderr, "cuzk bench engine: --winning-vanilla and --winning-randomness go "
                        "together\n");
        return 2;
    }
    if (!vanilla_path)
        return 0;
    if (strlen(rnd_hex) != 64 || hex_decode(in->rnd, 32, rnd_hex) != 32 ||
        !fc_post_randomness_ok(in->rnd)) {
        fprintf(stderr, "cuzk bench engine: --winning-randomness: 64 hex digits of a canonical "
                        "field element expected\n");
        return 2;
    }
    char why[256];
    in->vanilla = file_read_all(vanilla_path, (size_t)64 << 20, &in->vanilla_len, why, sizeof why);
    if (!in->vanilla) {
        fprintf(stderr, "cuzk bench engine: --winning-vanilla %s: %s\n", vanilla_path, why);
        return 1;
    }
    if (!(in->proof = winning_proof_of(in->vanilla, in->vanilla_len))) {
        fprintf(stderr,
                "cuzk bench engine: --winning-vanilla %s: not a WinningPoSt vanilla "
                "proof of one sector\n",
                vanilla_path);
        return 1;
    }
    snprintf(in->circuit, sizeof in->circuit, "winning-%s", in->proof->shape->short_name);
    return 0;
}

cuzk_status bench_inject_prepare(bench_inject *in, cuzk_engine *e, engine_synthetic *syn,
                                 const char *syn_circuit, char err[CUZK_ERROR_LEN]) {
    if (in->vanilla) /* a daemon keeps the WinningPoSt set resident */
        return cuzk_engine_preload_srs(e, in->circuit, NULL, NULL, err);
    if (!syn) {
        snprintf(err, CUZK_ERROR_LEN,
                 "--inject-winning on a Filecoin workload needs a real "
                 "WinningPoSt: --winning-vanilla FILE --winning-randomness "
                 "HEX");
        return CUZK_E_INVALID;
    }
    snprintf(in->circuit, sizeof in->circuit, "%s", syn_circuit);
    in->syn_text = in->circuit;
    engine_circuit_provider p = engine_synthetic_provider(syn);
    return cuzk_engine_register_provider(e, CUZK_KIND_WINNING_POST, &p);
}

static void *inject_thread(void *arg) {
    bench_inject *in = arg;
    for (size_t i = 0; i < in->n; i++) {
        double now = timing_now_ms() - in->t0;
        if (in->at_ms[i] > now)
            usleep((useconds_t)((in->at_ms[i] - now) * 1000));
        bench_inject_one *o = &in->one[i];
        snprintf(o->id, sizeof o->id, "bench-%s-winning-%zu", in->case_name, i);
        char text[256];
        const uint8_t *vp[1] = {in->vanilla};
        const size_t vl[1] = {in->vanilla_len};
        cuzk_request r;
        memset(&r, 0, sizeof r);
        r.request_id = o->id;
        r.kind = CUZK_KIND_WINNING_POST; /* DEFAULT priority: CRITICAL */
        if (in->vanilla) {
            r.registered_proof = in->proof->id;
            r.vanilla_proofs = vp;
            r.vanilla_proofs_len = vl;
            r.n_vanilla_proofs = 1;
            r.randomness = in->rnd;
            r.miner_id = 1000;
        } else {
            size_t n = engine_synthetic_request(text, sizeof text, in->syn_text, 1, 100000 + i);
            r.vanilla_proof = (const uint8_t *)text;
            r.vanilla_proof_len = n;
        }
        cuzk_submit_info info;
        char err[CUZK_ERROR_LEN];
        if (cuzk_engine_submit(in->e, &r, &info, err) != CUZK_OK) {
            fprintf(stderr, "cuzk bench engine: inject %s: %s\n", o->id, err);
            o->failed = 1;
        }
    }
    return NULL;
}

int bench_inject_start(bench_inject *in, cuzk_engine *e, const char *case_name, double t0) {
    in->e = e;
    in->case_name = case_name;
    in->t0 = t0;
    memset(in->one, 0, sizeof in->one);
    for (size_t i = 0; i < in->n; i++)
        in->one[i].at_ms = in->at_ms[i];
    in->started = in->n && pthread_create(&in->th, NULL, inject_thread, in) == 0;
    return in->n && !in->started ? -1 : 0;
}

typedef struct {
    double start, end;
    int partition;
    char job[CUZK_JOB_ID_LEN];
} prove_iv;

/* Every PROVE interval of the workload's jobs; *n_out of them. */
static prove_iv *workload_proves(bench_inject *in, unsigned jobs, size_t *n_out) {
    size_t n = 0, cap = 64;
    prove_iv *v = malloc(cap * sizeof *v);
    for (unsigned i = 0; v && i < jobs; i++) {
        char id[96];
        snprintf(id, sizeof id, "bench-%s-%u", in->case_name, i);
        cuzk_job_timeline t;
        if (cuzk_engine_job_timeline(in->e, id, &t) != CUZK_OK)
            continue;
        for (size_t k = 0; v && k < t.n_events; k++) {
            const cuzk_timeline_event *ev = &t.events[k];
            if (ev->stage != CUZK_STAGE_PROVE)
                continue;
            if (n == cap) {
                prove_iv *g = realloc(v, 2 * cap * sizeof *v);
                if (!g) {
                    free(v);
                    v = NULL;
                    break;
                }
                v = g;
                cap *= 2;
            }
            v[n] = (prove_iv){ev->start_ms, ev->end_ms, ev->partition, ""};
            snprintf(v[n++].job, CUZK_JOB_ID_LEN, "%s", id);
        }
        cuzk_job_timeline_clear(&t);
    }
    *n_out = n;
    return v;
}

/* One injected job's figures from its timeline. */
static void measure(bench_inject_one *o, const cuzk_job_timeline *t, const prove_iv *pv,
                    size_t n_pv) {
    double submit = -1, own = 0, synth_start = -1, prove_start = -1, end = 0;
    for (size_t k = 0; k < t->n_events; k++) {
        const cuzk_timeline_event *ev = &t->events[k];
        double d = ev->end_ms - ev->start_ms;
        if (ev->end_ms > end)
            end = ev->end_ms;
        switch (ev->stage) {
        case CUZK_STAGE_QUEUE:
            submit = ev->start_ms;
            o->queue_ms = d;
            break;
        case CUZK_STAGE_SRS_LOAD:
            own += d;
            break;
        case CUZK_STAGE_SYNTHESIS:
            own += d;
            if (synth_start < 0 || ev->start_ms < synth_start)
                synth_start = ev->start_ms;
            break;
        case CUZK_STAGE_PROVE:
            o->prove_ms += d;
            if (prove_start < 0 || ev->start_ms < prove_start)
                prove_start = ev->start_ms;
            break;
        default:
            break;
        }
    }
    o->start_ms = synth_start - submit;
    o->wait_ms = prove_start - submit - own;
    o->total_ms = end - submit;
    /* the workload's partition proven last before its own, since its submit */
    o->behind[0] = 0;
    double latest = -1;
    for (size_t k = 0; k < n_pv; k++)
        if (pv[k].end > submit && pv[k].start < prove_start && pv[k].start > latest) {
            latest = pv[k].start;
            snprintf(o->behind, sizeof o->behind, "%s partition %d", pv[k].job, pv[k].partition);
            o->behind_prove_ms = pv[k].end - pv[k].start;
        }
}

int bench_inject_finish(bench_inject *in, unsigned jobs) {
    if (!in->n)
        return 0;
    if (in->started)
        pthread_join(in->th, NULL);
    in->started = 0;
    size_t n_pv = 0;
    prove_iv *pv = workload_proves(in, jobs, &n_pv);
    in->bound_ms = 0;
    for (size_t k = 0; k < n_pv; k++)
        if (pv[k].end - pv[k].start > in->bound_ms)
            in->bound_ms = pv[k].end - pv[k].start;
    int rc = pv ? 0 : -1;
    for (size_t i = 0; i < in->n; i++) {
        bench_inject_one *o = &in->one[i];
        cuzk_result res;
        memset(&res, 0, sizeof res);
        cuzk_status st = CUZK_OK;
        if (!o->failed && ((st = cuzk_engine_await(in->e, o->id, 0, &res)) != CUZK_OK ||
                           res.state != CUZK_JOB_COMPLETED)) {
            fprintf(stderr, "cuzk bench engine: %s: %s%s%s\n", o->id, cuzk_status_name(st),
                    res.error[0] ? ": " : "", res.error);
            o->failed = 1;
        }
        cuzk_result_clear(&res);
        cuzk_job_timeline t;
        if (o->failed || cuzk_engine_job_timeline(in->e, o->id, &t) != CUZK_OK) {
            rc = -1;
            continue;
        }
        measure(o, &t, pv, n_pv);
        o->done = 1;
        cuzk_job_timeline_clear(&t);
    }
    free(pv);
    return rc;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_inject_report(const bench_inject *in, FILE *out) {
    for (size_t i = 0; i < in->n; i++) {
        const bench_inject_one *o = &in->one[i];
        if (!o->done)
            continue;
        fprintf(out,
                "  inject-winning %-14s at %.0f ms: queue %.0f ms, start %.0f ms, wait %.0f ms, "
                "prove %.0f ms, total %.0f ms; behind %s",
                in->case_name, o->at_ms, o->queue_ms, o->start_ms, o->wait_ms, o->prove_ms,
                o->total_ms, o->behind[0] ? o->behind : "nothing (the prover was free)");
        if (o->behind[0])
            fprintf(out, " (prove %.0f ms)", o->behind_prove_ms);
        fprintf(out, "; one workload partition proves in <= %.0f ms\n", in->bound_ms);
    }
    /* submit-to-proof percentiles (nearest rank) over the completed ones */
    double t[BENCH_INJECT_MAX];
    size_t n = 0, failed = 0;
    for (size_t i = 0; i < in->n; i++) {
        if (in->one[i].done && !in->one[i].failed)
            t[n++] = in->one[i].total_ms;
        failed += in->one[i].failed != 0;
    }
    if (!n)
        return;
    qsort(t, n, sizeof t[0], cmp_double);
    fprintf(out,
            "  injected WinningPoSt %-14s %zu proved, %zu failed: total p50 %.0f ms, p99 %.0f "
            "ms, max %.0f ms\n",
            in->case_name, n, failed, t[(n - 1) / 2], t[(size_t)((double)n * 0.99 + 0.999) - 1],
            t[n - 1]);
}

void bench_inject_free(bench_inject *in) {
    if (in->started)
        pthread_join(in->th, NULL);
    free(in->vanilla);
    memset(in, 0, sizeof *in);
}
