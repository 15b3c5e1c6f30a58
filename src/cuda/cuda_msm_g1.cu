// The G1 MSM kernels (cz_msm_sum over the PTX Fp), in a file of their own
// so that each field type's kernels compile in parallel (msm.cuh).
#include "cuda/msm_sum.cuh"

CZ_MSM_SUM_INSTANCE(dfp);
