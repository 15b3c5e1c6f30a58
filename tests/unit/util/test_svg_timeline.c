/* svg_timeline: random charts are written and read back.  A small XML
 * reader checks that the output is well formed (every tag closed in order,
 * attributes quoted, '&' only in the five entities, no raw '<' in text);
 * then every bar must appear once, in its lane, with the caller's times and
 * class colour, at the x the plot's own mapping gives; lane names and the
 * legend must appear escaped; bad bars must be refused with a message.
 * svg_timeline_pack must give non-overlapping lanes, as few as the largest
 * overlap. */
#include <math.h>

#include "check.h"
#include "util/svg_timeline.h"

/* ---- a minimal XML well-formedness check ------------------------------------------ */

static int entity_ok(const char *p) {
    static const char *const ok[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
    for (size_t i = 0; i < 5; i++)
        if (strncmp(p, ok[i], strlen(ok[i])) == 0)
            return 1;
    return 0;
}

/* 1 when doc is well formed (in the subset the writer uses); counts tags. */
static int well_formed(const char *doc, size_t *n_tags) {
    char stack[64][32];
    int depth = 0, seen_root = 0;
    *n_tags = 0;
    for (const char *p = doc; *p;) {
        if (*p == '&') {
            if (!entity_ok(p))
                return 0;
            p++;
            continue;
        }
        if (*p == '>')
            return 0; /* a raw '>' in text is legal XML but the writer escapes it */
        if (*p != '<') {
            if (!depth && !seen_root && *p != '\n' && *p != ' ')
                return 0;
            p++;
            continue;
        }
        if (strncmp(p, "<?", 2) == 0) {
            const char *e = strstr(p, "?>");
            if (!e || seen_root)
                return 0;
            p = e + 2;
            continue;
        }
        const char *e = p + 1;
        int in_quote = 0;
        for (; *e && (in_quote || *e != '>'); e++) {
            if (*e == '"')
                in_quote = !in_quote;
            else if (in_quote && (*e == '<' || (*e == '&' && !entity_ok(e))))
                return 0;
        }
        if (!*e)
            return 0;
        ++*n_tags;
        if (p[1] == '/') { /* end tag */
            size_t len = (size_t)(e - p - 2);
            if (!depth || strlen(stack[depth - 1]) != len || strncmp(stack[depth - 1], p + 2, len))
                return 0;
            depth--;
        } else if (e[-1] != '/') { /* start tag */
            size_t len = strcspn(p + 1, " >/\n");
            if (depth == 64 || len >= 32)
                return 0;
            if (!depth && seen_root)
                return 0;
            memcpy(stack[depth], p + 1, len);
            stack[depth++][len] = 0;
            seen_root = 1;
        }
        p = e + 1;
    }
    return depth == 0 && seen_root;
}

/* The value of attribute name in the tag starting at tag, or NAN. */
static double attr_num(const char *tag, const char *name) {
    char key[64];
    snprintf(key, sizeof key, " %s=\"", name);
    const char *end = strchr(tag, '>'), *a = strstr(tag, key);
    if (!a || (end && a > end))
        return NAN;
    return strtod(a + strlen(key), NULL);
}

static char *render(const svg_timeline *t, int *rc, char *err, size_t cap) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    *rc = svg_timeline_write(f, t, err, cap);
    fclose(f);
    return buf;
}

/* ---- tests ------------------------------------------------------------------------- */

#define MAX_LANES 6
#define MAX_BARS 40

static void test_random_chart(void) {
    static const svg_class classes[] = {
        {"synth", "#4e79a7"}, {"queue wait", NULL}, {"prove", "#e15759"}, {"verify <&>", NULL}};
    svg_bar bars[MAX_LANES][MAX_BARS];
    svg_lane lanes[MAX_LANES];
    char names[MAX_LANES][32];
    size_t n_lanes = 1 + check_rand64() % MAX_LANES, total = 0;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t l = 0; l < n_lanes; l++) {
        size_t nb = check_rand64() % MAX_BARS;
        double t = (double)(check_rand64() % 1000);
        for (size_t i = 0; i < nb; i++) {
            bars[l][i].start = t;
            t += (double)(check_rand64() % 500) / 4;
            bars[l][i].end = t;
            t += (double)(check_rand64() % 100);
            bars[l][i].cls = (unsigned)(check_rand64() % 4);
            bars[l][i].label = i % 3 ? NULL : "p<1> & \"x\"";
            lo = fmin(lo, bars[l][i].start);
            hi = fmax(hi, bars[l][i].end);
        }
        snprintf(names[l], sizeof names[l], "worker %zu <%s>", l, l % 2 ? "a&b" : "c");
        lanes[l] = (svg_lane){names[l], bars[l], nb};
        total += nb;
    }
    svg_timeline t = {"stage timeline <test>", "ms", lanes, n_lanes, classes, 4, 0};
    char err[256] = "";
    int rc;
    char *doc = render(&t, &rc, err, sizeof err);
    CHECK(rc == 0);
    CHECK(doc && strncmp(doc, "<?xml", 5) == 0 && strstr(doc, "<svg ") != NULL);
    size_t n_tags = 0;
    CHECK(doc && well_formed(doc, &n_tags));
    CHECK(n_tags > total);
    /* escaped names, legend, title */
    CHECK(strstr(doc, "worker 0 &lt;c&gt;") != NULL);
    CHECK(n_lanes < 2 || strstr(doc, "worker 1 &lt;a&amp;b&gt;") != NULL);
    CHECK(strstr(doc, "verify &lt;&amp;&gt;</text>") != NULL);
    CHECK(strstr(doc, "stage timeline &lt;test&gt;") != NULL);
    size_t legends = 0;
    for (const char *p = doc; (p = strstr(p, "<g class=\"legend\">")); p++)
        legends++;
    CHECK(legends == 4);
    /* the plot mapping */
    const char *plot = strstr(doc, "<g id=\"plot\"");
    CHECK(plot != NULL);
    if (!plot) {
        free(doc);
        return;
    }
    double t0 = attr_num(plot, "data-t0"), t1 = attr_num(plot, "data-t1");
    double x0 = attr_num(plot, "data-x0"), x1 = attr_num(plot, "data-x1");
    if (total) {
        CHECK(t0 == lo && t1 == (hi > lo ? hi : lo + 1));
    }
    CHECK(x0 > 0 && x1 > x0 && x1 <= 1200);
    const double scale = (x1 - x0) / (t1 - t0);
    /* every bar, in order, in its lane, where the mapping puts it */
    const char *p = doc;
    size_t seen = 0, ok = 0;
    for (size_t l = 0; l < n_lanes; l++)
        for (size_t i = 0; i < lanes[l].n_bars; i++) {
            p = strstr(p, "<rect class=\"bar\"");
            if (!p)
                break;
            seen++;
            const svg_bar *b = &bars[l][i];
            double x = attr_num(p, "x"), w = attr_num(p, "width");
            double want_x = x0 + (b->start - t0) * scale, want_w = (b->end - b->start) * scale;
            const char *want_fill = b->cls == 0   ? "fill=\"#4e79a7\""
                                    : b->cls == 2 ? "fill=\"#e15759\""
                                                  : "fill=\"#";
            const char *close = strstr(p, "</rect>");
            int fill_ok = close && strstr(p, want_fill) && strstr(p, want_fill) < close;
            if (attr_num(p, "data-lane") == (double)l && attr_num(p, "data-class") == b->cls &&
                attr_num(p, "data-start") == b->start && attr_num(p, "data-end") == b->end &&
                fabs(x - want_x) <= 0.06 && fabs(w - (want_w < 0.5 ? 0.5 : want_w)) <= 0.06 &&
                fill_ok)
                ok++;
            p++;
        }
    CHECK(seen == total && ok == total);
    size_t bars_in_doc = 0; /* and no others */
    for (const char *q = doc; (q = strstr(q, "<rect class=\"bar\"")); q++)
        bars_in_doc++;
    CHECK(bars_in_doc == total);
    /* at least two axis ticks */
    size_t ticks = 0;
    for (const char *q = doc; (q = strstr(q, "class=\"tick\"")); q++)
        ticks++;
    CHECK(ticks >= 2);
    free(doc);
}

static void test_bad_bars(void) {
    svg_class cls[] = {{"a", NULL}};
    svg_bar b = {10, 5, 0, NULL};
    svg_lane lane = {"w", &b, 1};
    svg_timeline t = {"x", "ms", &lane, 1, cls, 1, 0};
    char err[256] = "";
    int rc;
    free(render(&t, &rc, err, sizeof err));
    CHECK(rc == -1 && strstr(err, "bad interval") != NULL);
    b = (svg_bar){1, 2, 3, NULL};
    err[0] = 0;
    free(render(&t, &rc, err, sizeof err));
    CHECK(rc == -1 && strstr(err, "class 3") != NULL);
    b = (svg_bar){NAN, 2, 0, NULL};
    err[0] = 0;
    free(render(&t, &rc, err, sizeof err));
    CHECK(rc == -1 && strstr(err, "bad interval") != NULL);
    /* no bars at all: still a well-formed chart */
    lane.n_bars = 0;
    char *doc = render(&t, &rc, err, sizeof err);
    size_t n = 0;
    CHECK(rc == 0 && doc && well_formed(doc, &n));
    free(doc);
    CHECK(svg_timeline_save("/nonexistent-dir/x.svg", &t, err, sizeof err) == -1 &&
          strstr(err, "/nonexistent-dir/x.svg") != NULL);
}

static void test_pack(void) {
    enum { N = 200 };
    double s[N], e[N];
    unsigned lane[N];
    for (int round = 0; round < 20; round++) {
        size_t n = 1 + check_rand64() % N;
        for (size_t i = 0; i < n; i++) {
            s[i] = (double)(check_rand64() % 1000);
            e[i] = s[i] + 1 + (double)(check_rand64() % 100);
        }
        size_t lanes = svg_timeline_pack(s, e, n, lane);
        int overlap_free = 1, in_range = 1;
        for (size_t i = 0; i < n; i++) {
            in_range &= lane[i] < lanes;
            for (size_t k = i + 1; k < n; k++)
                if (lane[i] == lane[k] && s[i] < e[k] && s[k] < e[i])
                    overlap_free = 0;
        }
        /* the largest overlap: how many intervals contain some start */
        size_t most = 0;
        for (size_t i = 0; i < n; i++) {
            size_t c = 0;
            for (size_t k = 0; k < n; k++)
                c += s[k] <= s[i] && s[i] < e[k];
            most = c > most ? c : most;
        }
        CHECK(overlap_free && in_range);
        CHECK(lanes == most);
    }
    CHECK(svg_timeline_pack(s, e, 0, lane) == 0);
}

int main(void) {
    check_seed("test_svg_timeline");
    for (int i = 0; i < 30; i++)
        test_random_chart();
    test_bad_bars();
    test_pack();
    return check_finish();
}
