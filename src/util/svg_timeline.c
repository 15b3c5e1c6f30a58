/* Timeline charts as SVG (see svg_timeline.h).
 *
 * Layout, top to bottom: title, legend (one swatch per class), the lanes
 * (name on the left, bars in the plot area), the time axis with ticks at
 * 1/2/5 x 10^k steps.  Coordinates are written with one decimal. */
#include "util/svg_timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

#define LEFT 170.0 /* lane names */
#define RIGHT 20.0
#define LANE_H 20.0
#define LANE_GAP 6.0
#define TITLE_H 28.0
#define LEGEND_H 24.0
#define AXIS_H 40.0

static const char *const PALETTE[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
                                      "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
#define PALETTE_N (sizeof PALETTE / sizeof PALETTE[0])

static void put_escaped(FILE *f, const char *s) {
    for (; s && *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        case '\'':
            fputs("&apos;", f);
            break;
        default:
            if ((unsigned char)*s >= 0x20 || *s == '\t')
                fputc(*s, f);
        }
    }
}

static const char *class_color(const svg_timeline *t, unsigned c) {
    return t->classes[c].color ? t->classes[c].color : PALETTE[c % PALETTE_N];
}

/* The tick step: 1, 2 or 5 times a power of ten, giving at most ~10 ticks. */
static double tick_step(double span) {
    double raw = span / 10, p = pow(10, floor(log10(raw)));
    if (raw <= p)
        return p;
    if (raw <= 2 * p)
        return 2 * p;
    if (raw <= 5 * p)
        return 5 * p;
    return 10 * p;
}

static int check_bars(const svg_timeline *t, double *t0, double *t1, char *err, size_t cap) {
    int any = 0;
    for (size_t l = 0; l < t->n_lanes; l++) {
        const svg_lane *ln = &t->lanes[l];
        for (size_t i = 0; i < ln->n_bars; i++) {
            const svg_bar *b = &ln->bars[i];
            if (b->cls >= t->n_classes)
                return err_set(err, cap, "timeline: lane %zu bar %zu: class %u, but there are %zu",
                               l, i, b->cls, t->n_classes);
            if (!isfinite(b->start) || !isfinite(b->end) || b->end < b->start)
                return err_set(err, cap, "timeline: lane %zu bar %zu: bad interval [%g, %g]", l, i,
                               b->start, b->end);
            if (!any || b->start < *t0)
                *t0 = b->start;
            if (!any || b->end > *t1)
                *t1 = b->end;
            any = 1;
        }
    }
    if (!any)
        *t0 = 0, *t1 = 1;
    if (*t1 <= *t0)
        *t1 = *t0 + 1;
    return 0;
}

static void write_legend(FILE *f, const svg_timeline *t, double y) {
    double x = LEFT;
    for (size_t c = 0; c < t->n_classes; c++) {
        fprintf(f,
                "<g class=\"legend\"><rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"14\" "
                "fill=\"",
                x, y);
        put_escaped(f, class_color(t, (unsigned)c));
        fprintf(f, "\"/><text x=\"%.1f\" y=\"%.1f\">", x + 18, y + 12);
        put_escaped(f, t->classes[c].name);
        fputs("</text></g>\n", f);
        x += 18 + 8.0 * (double)strlen(t->classes[c].name ? t->classes[c].name : "") + 24;
    }
}

static void write_axis(FILE *f, const svg_timeline *t, double t0, double t1, double x0, double x1,
                       double y) {
    double scale = (x1 - x0) / (t1 - t0), step = tick_step(t1 - t0);
    fprintf(f,
            "<g id=\"axis\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
            "stroke=\"#333\"/>\n",
            x0, y, x1, y);
    for (double v = ceil(t0 / step) * step; v <= t1 + step * 1e-9; v += step) {
        double x = x0 + (v - t0) * scale;
        fprintf(f,
                "<line class=\"tick\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                "stroke=\"#333\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n",
                x, y, x, y + 5, x, y + 18, v);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", x1, y + 34);
    put_escaped(f, t->unit ? t->unit : "");
    fputs("</text></g>\n", f);
}

int svg_timeline_write(FILE *f, const svg_timeline *t, char *err, size_t cap) {
    double t0 = 0, t1 = 1;
    if (check_bars(t, &t0, &t1, err, cap))
        return -1;
    const double width = t->width ? t->width : 1200;
    const double x0 = LEFT, x1 = width - RIGHT, scale = (x1 - x0) / (t1 - t0);
    const double lanes_y = TITLE_H + LEGEND_H + 8;
    const double axis_y = lanes_y + (double)t->n_lanes * (LANE_H + LANE_GAP) + 4;
    const double height = axis_y + AXIS_H;
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
            "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" "
            "font-size=\"12\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
            width, height, width, height);
    fputs("<text x=\"10\" y=\"19\" font-size=\"15\" font-weight=\"bold\">", f);
    put_escaped(f, t->title);
    fputs("</text>\n", f);
    write_legend(f, t, TITLE_H);
    fprintf(f,
            "<g id=\"plot\" data-t0=\"%.17g\" data-t1=\"%.17g\" data-x0=\"%.1f\" "
            "data-x1=\"%.1f\">\n",
            t0, t1, x0, x1);
    for (size_t l = 0; l < t->n_lanes; l++) {
        const svg_lane *ln = &t->lanes[l];
        const double y = lanes_y + (double)l * (LANE_H + LANE_GAP);
        fprintf(f,
                "<g class=\"lane\" data-lane=\"%zu\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                "height=\"%.1f\" fill=\"#f4f4f4\"/><text x=\"%.1f\" y=\"%.1f\" "
                "text-anchor=\"end\">",
                l, x0, y, x1 - x0, LANE_H, x0 - 8, y + LANE_H - 6);
        put_escaped(f, ln->name);
        fputs("</text>\n", f);
        for (size_t i = 0; i < ln->n_bars; i++) {
            const svg_bar *b = &ln->bars[i];
            double bx = x0 + (b->start - t0) * scale, bw = (b->end - b->start) * scale;
            fprintf(f,
                    "<rect class=\"bar\" data-lane=\"%zu\" data-class=\"%u\" "
                    "data-start=\"%.17g\" data-end=\"%.17g\" x=\"%.1f\" y=\"%.1f\" "
                    "width=\"%.1f\" height=\"%.1f\" fill=\"",
                    l, b->cls, b->start, b->end, bx, y + 2, bw < 0.5 ? 0.5 : bw, LANE_H - 4);
            put_escaped(f, class_color(t, b->cls));
            fputs("\"><title>", f);
            if (b->label)
                put_escaped(f, b->label);
            else {
                put_escaped(f, t->classes[b->cls].name);
                fprintf(f, " %g-%g ", b->start, b->end);
                put_escaped(f, t->unit);
            }
            fputs("</title></rect>\n", f);
        }
        fputs("</g>\n", f);
    }
    fputs("</g>\n", f);
    write_axis(f, t, t0, t1, x0, x1, axis_y);
    fputs("</svg>\n", f);
    if (ferror(f))
        return err_set(err, cap, "timeline: write error");
    return 0;
}

int svg_timeline_save(const char *path, const svg_timeline *t, char *err, size_t cap) {
    FILE *f = fopen(path, "w");
    if (!f)
        return err_set(err, cap, "cannot write %s", path);
    int rc = svg_timeline_write(f, t, err, cap);
    if (fclose(f) != 0 && rc == 0) {
        snprintf(err, cap, "cannot write %s", path);
        rc = -1;
    }
    return rc;
}

typedef struct {
    double start;
    size_t index;
} by_start;

static int cmp_start(const void *a, const void *b) {
    const by_start *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

size_t svg_timeline_pack(const double *start, const double *end, size_t n, unsigned *lane_out) {
    if (n == 0)
        return 0;
    by_start *order = malloc(n * sizeof *order);
    double *free_at = malloc(n * sizeof *free_at); /* per lane: when its last interval ends */
    if (!order || !free_at) {
        free(order);
        free(free_at);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = (by_start){start[i], i};
    qsort(order, n, sizeof *order, cmp_start);
    size_t lanes = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = order[k].index, l = 0;
        while (l < lanes && free_at[l] > start[i])
            l++;
        if (l == lanes)
            lanes++;
        free_at[l] = end[i];
        lane_out[i] = (unsigned)l;
    }
    free(order);
    free(free_at);
    return lanes;
}
