/* Fixed-base window tables for G1 and G2 (fixed_base_template.h). */
#include "curve/fixed_base.h"

#include <stdlib.h>

#include "util/parallel.h"

#define PT g1
#include "curve/fixed_base_template.h"
#undef PT

#define PT g2
#include "curve/fixed_base_template.h"
#undef PT
