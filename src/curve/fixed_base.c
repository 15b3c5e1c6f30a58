/* Fixed-base window tables for G1 and G2 (fixed_base_template.h). */
#include "curve/fixed_base.h"

#include <stdlib.h>

#include "util/parallel.h"

/* Points per batched addition (one inversion each) and per task. */
#define FB_BATCH 2048

#define PT g1
#include "curve/fixed_base_template.h"
#undef PT

#define PT g2
#include "curve/fixed_base_template.h"
#undef PT

unsigned fixed_base_window(size_t n) {
    unsigned best = 1;
    double best_cost = 0;
    for (unsigned w = 1; w <= 16; w++) {
        /* additions: one per window for each scalar, and the table's */
        double cost = (double)((255 + w - 1) / w) * ((double)n + (double)((1u << w) - 1));
        if (w == 1 || cost < best_cost) {
            best = w;
            best_cost = cost;
        }
    }
    return best;
}
