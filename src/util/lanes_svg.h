/* A timeline as an SVG picture: horizontal lanes of labelled intervals on a
 * shared time axis, so idle gaps between bars are visible at a glance.
 *
 * The caller gives lanes (one per worker, request slot, GPU, ...) and in
 * each the intervals [start_ms, end_ms) with a stage label ("queue",
 * "synthesis", "prove", ...).  Bars get one colour per distinct label
 * (listed in a legend: the caller's `legend` labels first, in its order, so
 * a stage keeps its colour from one picture to the next, then any other
 * label in order of first appearance) and a tooltip (<title>)
 * with the label, the interval's own note and its duration.  Times are in
 * milliseconds on any common origin; the picture starts at the earliest
 * start.  Text is XML-escaped; the output is a standalone SVG 1.1 file. */
#ifndef CUZK_UTIL_LANES_SVG_H
#define CUZK_UTIL_LANES_SVG_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
    double start_ms, end_ms;
    const char *label; /* stage name: decides the colour; NULL = "" */
    const char *note;  /* extra tooltip text (job id, ...); may be NULL */
} lanes_svg_interval;

typedef struct {
    const char *name; /* shown at the left of the lane */
    const lanes_svg_interval *iv;
    size_t n;
} lanes_svg_lane;

/* Writes the picture to f.  legend: NULL or a NULL-terminated list of
 * labels that get the first colours (shown even when unused).  Intervals with end < start are drawn
 * as zero width; NaN or infinite times are refused.  Returns 0, or -1 on a write error or bad input
 * (a NaN or infinite time: nothing is written). */
int lanes_svg_write(FILE *f, const char *title, const char *const *legend,
                    const lanes_svg_lane *lanes, size_t n_lanes);

/* The same into a file at path (created or truncated).  Returns 0, or -1
 * with err (cap bytes) naming the problem. */
int lanes_svg_save(const char *path, const char *title, const char *const *legend,
                   const lanes_svg_lane *lanes, size_t n_lanes, char *err, size_t cap);

#endif
