/* `cuzk bench engine --timeline FILE.svg` (see bench_engine_timeline.h). */
#include "cli/bench/bench_engine_timeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/svg_timeline.h"

enum { CLS_SYNTH, CLS_WAIT, CLS_PROVE, CLS_VERIFY, CLS_N };

static const svg_class CLASSES[CLS_N] = {{"synthesis", "#4e79a7"},
                                         {"queue wait (synthesized, no prover free)", "#bab0ac"},
                                         {"prove (backend call)", "#e15759"},
                                         {"self-verify", "#59a14f"}};

int bench_tl_add(bench_tl *t, unsigned case_index, const cuzk_job_timeline *jt) {
    for (size_t k = 0; k < jt->n_events; k++) {
        const cuzk_timeline_event *e = &jt->events[k];
        if (e->partition < 0 ||
            (e->stage != CUZK_STAGE_SYNTHESIS && e->stage != CUZK_STAGE_PROVE_WAIT &&
             e->stage != CUZK_STAGE_PROVE && e->stage != CUZK_STAGE_VERIFY))
            continue;
        if (t->n == t->cap) {
            size_t cap = t->cap ? 2 * t->cap : 64;
            bench_tl_event *ev = realloc(t->ev, cap * sizeof *ev);
            if (!ev)
                return -1;
            t->ev = ev;
            t->cap = cap;
        }
        bench_tl_event *o = &t->ev[t->n++];
        o->case_index = case_index;
        o->partition = e->partition;
        o->stage = e->stage;
        o->start_ms = e->start_ms;
        o->end_ms = e->end_ms;
        snprintf(o->job, sizeof o->job, "%s", jt->job_id);
    }
    return 0;
}

void bench_tl_free(bench_tl *t) {
    free(t->ev);
    memset(t, 0, sizeof *t);
}

/* Space for the chart: bars in lane order, their labels, the lanes. */
typedef struct {
    svg_bar *bars;
    char (*labels)[256];
    size_t n_bars;
    svg_lane *lanes;
    char (*names)[64];
    size_t n_lanes;
    /* scratch for one group */
    double *s, *e;
    unsigned *lane, *cls;
    const bench_tl_event **src;
    unsigned *members; /* jobs sharing one prove call */
} chart;

static int group_stage(cuzk_stage st) {
    return st == CUZK_STAGE_SYNTHESIS ? 0 : st == CUZK_STAGE_PROVE_WAIT ? 1 : 2;
}

/* Adds the lanes of one group (0 synthesis, 1 queue, 2 prover) of one case. */
static void add_group(chart *c, const bench_tl *t, unsigned ci, int group, const char *case_name) {
    static const char *const gname[] = {"synth", "queue", "prover"};
    size_t m = 0;
    for (size_t i = 0; i < t->n; i++) {
        const bench_tl_event *ev = &t->ev[i];
        if (ev->case_index != ci || group_stage(ev->stage) != group)
            continue;
        /* a batch's jobs share one backend call: one bar for it */
        size_t dup = m;
        if (ev->stage == CUZK_STAGE_PROVE)
            for (size_t k = 0; k < m && dup == m; k++)
                if (c->cls[k] == CLS_PROVE && c->s[k] == ev->start_ms && c->e[k] == ev->end_ms)
                    dup = k;
        if (dup < m) {
            c->members[dup]++;
            continue;
        }
        c->s[m] = ev->start_ms;
        c->e[m] = ev->end_ms;
        c->cls[m] = ev->stage == CUZK_STAGE_SYNTHESIS    ? CLS_SYNTH
                    : ev->stage == CUZK_STAGE_PROVE_WAIT ? CLS_WAIT
                    : ev->stage == CUZK_STAGE_PROVE      ? CLS_PROVE
                                                         : CLS_VERIFY;
        c->src[m] = ev;
        c->members[m] = 1;
        m++;
    }
    if (!m)
        return;
    size_t lanes = svg_timeline_pack(c->s, c->e, m, c->lane);
    if (!lanes) { /* out of memory: everything in one lane rather than nothing */
        for (size_t i = 0; i < m; i++)
            c->lane[i] = 0;
        lanes = 1;
    }
    for (size_t l = 0; l < lanes; l++) {
        svg_lane *ln = &c->lanes[c->n_lanes];
        snprintf(c->names[c->n_lanes], sizeof c->names[0], "%s %s %zu", case_name, gname[group],
                 l + 1);
        ln->name = c->names[c->n_lanes++];
        ln->bars = &c->bars[c->n_bars];
        ln->n_bars = 0;
        for (size_t i = 0; i < m; i++) {
            if (c->lane[i] != l)
                continue;
            const bench_tl_event *ev = c->src[i];
            svg_bar *b = &c->bars[c->n_bars];
            char *lab = c->labels[c->n_bars++];
            *b = (svg_bar){c->s[i], c->e[i], c->cls[i], lab};
            if (c->members[i] > 1)
                snprintf(lab, sizeof c->labels[0], "%s: partition %d of %u jobs (batch), %.0f ms",
                         CLASSES[c->cls[i]].name, ev->partition, c->members[i], c->e[i] - c->s[i]);
            else
                snprintf(lab, sizeof c->labels[0], "%s: %.120s partition %d, %.0f ms",
                         CLASSES[c->cls[i]].name, ev->job, ev->partition, c->e[i] - c->s[i]);
            ln->n_bars++;
        }
    }
}

int bench_tl_write_svg(const bench_tl *t, const char *path, const char *title,
                       const char *const *case_names, size_t n_cases, char *err, size_t cap) {
    chart c;
    memset(&c, 0, sizeof c);
    size_t n = t->n ? t->n : 1;
    c.bars = calloc(n, sizeof *c.bars);
    c.labels = calloc(n, sizeof *c.labels);
    c.lanes = calloc(n + 1, sizeof *c.lanes);
    c.names = calloc(n + 1, sizeof *c.names);
    c.s = calloc(n, sizeof *c.s);
    c.e = calloc(n, sizeof *c.e);
    c.lane = calloc(n, sizeof *c.lane);
    c.cls = calloc(n, sizeof *c.cls);
    c.src = calloc(n, sizeof *c.src);
    c.members = calloc(n, sizeof *c.members);
    int rc = -1;
    if (!c.bars || !c.labels || !c.lanes || !c.names || !c.s || !c.e || !c.lane || !c.cls ||
        !c.src || !c.members) {
        snprintf(err, cap, "timeline: out of memory");
    } else {
        for (unsigned ci = 0; ci < n_cases; ci++)
            for (int g = 0; g < 3; g++)
                add_group(&c, t, ci, g, case_names[ci]);
        svg_timeline chart_def = {
            title, "ms since the engine started", c.lanes, c.n_lanes, CLASSES, CLS_N, 1400};
        rc = svg_timeline_save(path, &chart_def, err, cap);
    }
    free(c.bars);
    free(c.labels);
    free(c.lanes);
    free(c.names);
    free(c.s);
    free(c.e);
    free(c.lane);
    free(c.cls);
    free(c.src);
    free(c.members);
    return rc;
}
