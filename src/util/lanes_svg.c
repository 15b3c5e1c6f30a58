/* Lanes of labelled intervals as SVG (see lanes_svg.h).
 *
 * Layout: a title line, a legend line, then one 22-px lane per entry with
 * its name in a fixed left column, the bars scaled into a plot width of
 * PLOT_W px, and a time axis with "nice" tick steps (1/2/5 x 10^k ms) at the
 * bottom.  Everything is computed in one pass over the intervals first
 * (time range, distinct labels), then written. */
#include "util/lanes_svg.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#define LEFT_W 150.0
#define PLOT_W 1000.0
#define LANE_H 22.0
#define BAR_H 16.0
#define TOP_H 56.0
#define AXIS_H 34.0
#define MAX_LABELS 16

/* Colour-blind-friendly palette (Okabe-Ito, then a few greys/extras). */
static const char *const palette[MAX_LABELS] = {
    "#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7", "#F0E442", "#999999",
    "#882255", "#44AA99", "#117733", "#332288", "#AA4499", "#DDCC77", "#88CCEE", "#666666"};

static void put_escaped(FILE *f, const char *s) {
    for (; s && *s; s++) {
        switch (*s) {
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '&':
            fputs("&amp;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            /* control characters are not allowed in XML 1.0 text */
            fputc((unsigned char)*s < 0x20 && *s != '\t' ? ' ' : *s, f);
        }
    }
}

/* Index of label in labels[] (added when new; the last slot is shared by
 * every label beyond MAX_LABELS - 1). */
static size_t label_index(const char **labels, size_t *n, const char *label) {
    const char *l = label ? label : "";
    for (size_t i = 0; i < *n; i++)
        if (strcmp(labels[i], l) == 0)
            return i;
    if (*n < MAX_LABELS) {
        labels[*n] = l;
        return (*n)++;
    }
    return MAX_LABELS - 1;
}

/* 1, 2 or 5 times a power of ten, giving at most ~10 ticks over span. */
static double tick_step(double span) {
    double raw = span / 10.0;
    double p = pow(10.0, floor(log10(raw)));
    double m = raw / p;
    return (m <= 1.0 ? 1.0 : m <= 2.0 ? 2.0 : m <= 5.0 ? 5.0 : 10.0) * p;
}

static void put_duration(FILE *f, double ms) {
    if (ms < 1000.0)
        fprintf(f, "%.0f ms", ms);
    else
        fprintf(f, "%.2f s", ms / 1000.0);
}

static int times_ok(const lanes_svg_lane *lanes, size_t n_lanes) {
    for (size_t l = 0; l < n_lanes; l++)
        for (size_t i = 0; i < lanes[l].n; i++)
            if (!isfinite(lanes[l].iv[i].start_ms) || !isfinite(lanes[l].iv[i].end_ms))
                return 0;
    return 1;
}

int lanes_svg_write(FILE *f, const char *title, const char *const *legend,
                    const lanes_svg_lane *lanes, size_t n_lanes) {
    if (!times_ok(lanes, n_lanes))
        return -1;
    double t0 = INFINITY, t1 = -INFINITY;
    const char *labels[MAX_LABELS];
    size_t n_labels = 0;
    for (size_t k = 0; legend && legend[k]; k++)
        label_index(labels, &n_labels, legend[k]);
    for (size_t l = 0; l < n_lanes; l++)
        for (size_t i = 0; i < lanes[l].n; i++) {
            const lanes_svg_interval *v = &lanes[l].iv[i];
            t0 = fmin(t0, v->start_ms);
            t1 = fmax(t1, fmax(v->start_ms, v->end_ms));
            label_index(labels, &n_labels, v->label);
        }
    if (t0 > t1)
        t0 = t1 = 0;
    double span = t1 - t0 > 1.0 ? t1 - t0 : 1.0;
    double scale = PLOT_W / span;
    double width = LEFT_W + PLOT_W + 30.0;
    double height = TOP_H + LANE_H * (double)n_lanes + AXIS_H;

    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
            "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" "
            "font-size=\"12\">\n"
            "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n",
            width, height, width, height, width, height);
    fputs("<text x=\"8\" y=\"18\" font-size=\"14\" font-weight=\"bold\">", f);
    put_escaped(f, title ? title : "timeline");
    fputs(" (", f);
    put_duration(f, t1 - t0);
    fputs(")</text>\n", f);

    /* legend */
    double lx = 8.0;
    for (size_t k = 0; k < n_labels; k++) {
        fprintf(f,
                "<rect x=\"%.1f\" y=\"30\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                "<text x=\"%.1f\" y=\"41\">",
                lx, palette[k], lx + 16.0);
        put_escaped(f, labels[k][0] ? labels[k] : "(none)");
        fputs("</text>\n", f);
        lx += 24.0 + 7.0 * (double)strlen(labels[k][0] ? labels[k] : "(none)");
    }

    /* lanes */
    for (size_t l = 0; l < n_lanes; l++) {
        double y = TOP_H + LANE_H * (double)l;
        fprintf(f,
                "<g class=\"lane\">\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                "fill=\"%s\"/>\n<text x=\"8\" y=\"%.1f\">",
                LEFT_W, y, PLOT_W, LANE_H, l % 2 ? "#f4f4f4" : "#fbfbfb", y + 15.0);
        put_escaped(f, lanes[l].name ? lanes[l].name : "");
        fputs("</text>\n", f);
        for (size_t i = 0; i < lanes[l].n; i++) {
            const lanes_svg_interval *v = &lanes[l].iv[i];
            double w = v->end_ms > v->start_ms ? (v->end_ms - v->start_ms) * scale : 0.0;
            size_t k = label_index(labels, &n_labels, v->label);
            fprintf(f,
                    "<rect class=\"bar\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
                    "fill=\"%s\" stroke=\"#333333\" stroke-width=\"0.3\"><title>",
                    LEFT_W + (v->start_ms - t0) * scale, y + (LANE_H - BAR_H) / 2, w, BAR_H,
                    palette[k]);
            put_escaped(f, v->label ? v->label : "");
            fputs(": ", f);
            put_duration(f, v->end_ms > v->start_ms ? v->end_ms - v->start_ms : 0.0);
            fputs(" at +", f);
            put_duration(f, v->start_ms - t0);
            if (v->note && v->note[0]) {
                fputs(" (", f);
                put_escaped(f, v->note);
                fputs(")", f);
            }
            fputs("</title></rect>\n", f);
        }
        fputs("</g>\n", f);
    }

    /* time axis */
    double ay = TOP_H + LANE_H * (double)n_lanes;
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\"/>\n",
            LEFT_W, ay, LEFT_W + PLOT_W, ay);
    double step = tick_step(span);
    for (double t = 0; t <= span + step * 1e-9; t += step) {
        double x = LEFT_W + t * scale;
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\"/>"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
                x, ay, x, ay + 5.0, x, ay + 18.0);
        if (step >= 1000.0)
            fprintf(f, "%g s", t / 1000.0);
        else
            fprintf(f, "%g ms", t);
        fputs("</text>\n", f);
    }
    fputs("</svg>\n", f);
    return ferror(f) ? -1 : 0;
}

int lanes_svg_save(const char *path, const char *title, const char *const *legend,
                   const lanes_svg_lane *lanes, size_t n_lanes, char *err, size_t cap) {
    if (!times_ok(lanes, n_lanes)) {
        snprintf(err, cap, "%s: an interval has a NaN or infinite time", path);
        return -1;
    }
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        snprintf(err, cap, "%s: %s", path, strerror(errno));
        return -1;
    }
    errno = 0;
    int rc = lanes_svg_write(f, title, legend, lanes, n_lanes);
    if (fclose(f) != 0 || rc != 0) {
        snprintf(err, cap, "%s: write failed: %s", path, errno ? strerror(errno) : "I/O error");
        return -1;
    }
    return 0;
}
