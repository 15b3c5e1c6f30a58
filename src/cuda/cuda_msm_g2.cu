// The G2 MSM kernels over the PTX Fp with two accumulators (the defaults:
// gpu_g2_ptx, gpu_ptx_mul2), in a file of their own so that the field types'
// kernels compile in parallel (msm.cuh).
#include "cuda/msm_sum.cuh"

CZ_MSM_SUM_INSTANCE(g2f_m2);
