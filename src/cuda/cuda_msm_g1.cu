// The G1 MSM kernels (cz_msm_sum over the PTX Fp with either multiply,
// gpu_ptx_mul2), in a file of their own so that the field types' kernels
// compile in parallel (msm.cuh).
#include "cuda/msm_sum.cuh"

CZ_MSM_SUM_INSTANCE(dfp_m1);
CZ_MSM_SUM_INSTANCE(dfp_m2);
