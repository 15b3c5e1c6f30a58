// The G2 MSM kernels (cz_msm_sum over Fp2 on the PTX Fp), in a file of their
// own so that each field type's kernels compile in parallel (msm.cuh).
#include "cuda/msm_sum.cuh"

CZ_MSM_SUM_INSTANCE(dfp2);
