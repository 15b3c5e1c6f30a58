/* Monotonic wall-clock time for per-phase timing. */
#ifndef CUZK_UTIL_TIMING_H
#define CUZK_UTIL_TIMING_H

#include <time.h>

static inline double timing_now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

#endif
