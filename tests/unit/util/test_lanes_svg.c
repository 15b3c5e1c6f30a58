/* util/lanes_svg: bars land where their times say (random lanes, seeded),
 * one colour per label with the caller's legend first, XML escaping, balanced
 * tags, and bad input (NaN times, an unwritable path) refused. */
#define _GNU_SOURCE /* open_memstream */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/lanes_svg.h"

static char *render(const char *title, const char *const *legend, const lanes_svg_lane *l, size_t n,
                    int *rc) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    *rc = lanes_svg_write(f, title, legend, l, n);
    fclose(f);
    return buf;
}

static size_t count(const char *s, const char *pat) {
    size_t n = 0;
    for (const char *p = strstr(s, pat); p; p = strstr(p + 1, pat))
        n++;
    return n;
}

/* The fill colour of the nth (0-based) bar whose title starts with label. */
static int bar_fill(const char *svg, const char *label, int nth, char out[8]) {
    char pat[64];
    snprintf(pat, sizeof pat, "><title>%s: ", label);
    const char *t = strstr(svg, pat);
    for (; t && nth > 0; nth--)
        t = strstr(t + 1, pat);
    if (t == NULL)
        return -1;
    const char *start = t;
    while (start > svg && strncmp(start, "<rect class=\"bar\"", 17) != 0)
        start--;
    const char *fill = strstr(start, "fill=\"#");
    if (fill == NULL || fill > t)
        return -1;
    memcpy(out, fill + 6, 7);
    out[7] = 0;
    return 0;
}

int main(void) {
    check_seed("test_lanes_svg");

    /* random lanes: every bar inside the plot [150, 1150], first at 150, last ends at 1150 */
    enum { LANES = 4, PER = 7 };
    lanes_svg_interval iv[LANES][PER];
    lanes_svg_lane lanes[LANES];
    static const char *const labels[] = {"queue", "synthesis", "prove", "other"};
    double lo = INFINITY, hi = -INFINITY;
    for (int l = 0; l < LANES; l++) {
        double t = 1000.0 + (double)(check_rand64() % 500);
        for (int i = 0; i < PER; i++) {
            double d = 1.0 + (double)(check_rand64() % 3000);
            iv[l][i] = (lanes_svg_interval){t, t + d, labels[check_rand64() % 4], "job"};
            lo = fmin(lo, t);
            hi = fmax(hi, t + d);
            t += d + (double)(check_rand64() % 200);
        }
        lanes[l] = (lanes_svg_lane){l % 2 ? "odd" : "even", iv[l], PER};
    }
    int rc;
    char *svg = render("random", NULL, lanes, LANES, &rc);
    CHECK(rc == 0);
    CHECK(strncmp(svg, "<?xml", 5) == 0);
    CHECK(strcmp(svg + strlen(svg) - 7, "</svg>\n") == 0);
    CHECK(count(svg, "<rect class=\"bar\"") == LANES * PER);
    CHECK(count(svg, "<g ") == count(svg, "</g>") && count(svg, "<g ") == LANES);
    CHECK(count(svg, "<title>") == count(svg, "</title>"));
    double min_x = 1e9, max_end = 0;
    for (const char *p = strstr(svg, "<rect class=\"bar\""); p;
         p = strstr(p + 1, "<rect class=\"bar\"")) {
        double x, y, w;
        CHECK(sscanf(p, "<rect class=\"bar\" x=\"%lf\" y=\"%lf\" width=\"%lf\"", &x, &y, &w) == 3);
        CHECK(x >= 149.99 && w >= 0 && x + w <= 1150.01);
        min_x = fmin(min_x, x);
        max_end = fmax(max_end, x + w);
    }
    CHECK(fabs(min_x - 150.0) < 0.01 && fabs(max_end - 1150.0) < 0.02);
    free(svg);

    /* legend order, one colour per label, escaping */
    lanes_svg_interval a[3] = {
        {0, 10, "a", NULL}, {10, 20, "<b&\"c\">", "n<1>"}, {20, 30, "a", ""}};
    lanes_svg_lane one = {"lane \"1\" & <2>", a, 3};
    static const char *const legend[] = {"zeta", "a", NULL};
    svg = render("t<i>tle", legend, &one, 1, &rc);
    CHECK(rc == 0);
    CHECK(strstr(svg, "t&lt;i&gt;tle") != NULL);
    CHECK(strstr(svg, "lane &quot;1&quot; &amp; &lt;2&gt;") != NULL);
    CHECK(strstr(svg, "&lt;b&amp;&quot;c&quot;&gt;: 10 ms") != NULL);
    CHECK(strstr(svg, "(n&lt;1&gt;)") != NULL);
    CHECK(strstr(svg, "<b&") == NULL);
    const char *z = strstr(svg, ">zeta</text>"), *la = strstr(svg, ">a</text>");
    CHECK(z && la && z < la); /* the legend's order, unused "zeta" shown too */
    char f1[8], f2[8], f3[8];
    CHECK(bar_fill(svg, "a", 0, f1) == 0);
    CHECK(bar_fill(svg, "&lt;b&amp;&quot;c&quot;&gt;", 0, f2) == 0 && strcmp(f1, f2) != 0);
    CHECK(bar_fill(svg, "a", 1, f3) == 0 && strcmp(f1, f3) == 0);
    free(svg);

    /* empty picture, NaN refused, unwritable path named */
    svg = render(NULL, NULL, NULL, 0, &rc);
    CHECK(rc == 0 && strstr(svg, "</svg>") != NULL);
    free(svg);
    lanes_svg_interval nan_iv = {0, NAN, "x", NULL};
    lanes_svg_lane bad = {"bad", &nan_iv, 1};
    svg = render("nan", NULL, &bad, 1, &rc);
    CHECK(rc == -1 && (svg == NULL || svg[0] == 0));
    free(svg);
    char err[256] = "";
    CHECK(lanes_svg_save("/nonexistent-dir/x.svg", "t", NULL, &one, 1, err, sizeof err) == -1);
    CHECK(strstr(err, "/nonexistent-dir/x.svg") != NULL);
    return check_finish();
}
