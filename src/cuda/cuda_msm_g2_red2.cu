// The G2 MSM's k_red2 (msm_red2.cuh), apart so that ptxas works on it beside
// the other G2 kernels.
#include "cuda/msm_red2.cuh"

CZ_RED2_INSTANCE(dfp2);
