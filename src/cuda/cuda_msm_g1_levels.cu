// The G1 MSM's levelled reduction kernels (msm_red_levels.cuh), apart so
// that ptxas works on them beside the other G1 kernels.
#include "cuda/msm_red_levels.cuh"

CZ_RED_LEVELS_INSTANCE(dfp);
