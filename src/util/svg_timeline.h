/* A timeline chart as a standalone SVG file: horizontal lanes (one per
 * worker, say), each holding labelled intervals (bars) coloured by class,
 * with a legend and a time axis, so idle gaps between stages are visible at
 * a glance.  Used by `cuzk bench engine --timeline FILE.svg`; knows nothing
 * of the engine: any caller with lanes of intervals can draw them.
 *
 * The output is plain SVG 1.1 (no script, no external resources).  Every bar
 * is a <rect class="bar"> carrying data-lane, data-class, data-start and
 * data-end (the caller's values) and a <title> tooltip; the plot area is a
 * <g id="plot"> whose data-t0/data-t1/data-x0/data-x1 map time to x, so a
 * test or a script can read the chart back. */
#ifndef CUZK_UTIL_SVG_TIMELINE_H
#define CUZK_UTIL_SVG_TIMELINE_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
    double start, end; /* in the chart's unit; end >= start */
    unsigned cls;      /* index into the chart's classes */
    const char *label; /* tooltip; NULL: the class name and the times */
} svg_bar;

typedef struct {
    const char *name; /* shown left of the lane */
    const svg_bar *bars;
    size_t n_bars;
} svg_lane;

typedef struct {
    const char *name;  /* legend text */
    const char *color; /* "#rrggbb" or any SVG colour; NULL: a built-in palette colour */
} svg_class;

typedef struct {
    const char *title; /* may be NULL */
    const char *unit;  /* axis unit, e.g. "ms"; NULL = none */
    const svg_lane *lanes;
    size_t n_lanes;
    const svg_class *classes;
    size_t n_classes;
    unsigned width; /* pixels; 0 = 1200 */
} svg_timeline;

/* Writes the chart.  The time axis spans the earliest start to the latest
 * end (1 unit when there are no bars).  Returns 0, or -1 with a message in
 * err: a bar whose class does not exist, a bar that ends before it starts
 * or has a non-finite time, or a write error. */
int svg_timeline_write(FILE *f, const svg_timeline *t, char *err, size_t cap);

/* The same into a file (replaced).  0, or -1 with a message naming path. */
int svg_timeline_save(const char *path, const svg_timeline *t, char *err, size_t cap);

/* Lanes for n intervals [start_i, end_i) such that intervals in one lane do
 * not overlap, using as few lanes as the most intervals that overlap at one
 * moment (first fit in order of start).  lane_out gets each interval's
 * lane; returns the number of lanes (0 when n is 0), or 0 with lane_out
 * untouched when out of memory.  For callers whose events do not say which
 * worker ran them. */
size_t svg_timeline_pack(const double *start, const double *end, size_t n, unsigned *lane_out);

#endif
