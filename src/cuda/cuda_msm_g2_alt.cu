// The G2 MSM kernels of the switches' other sides: the PTX Fp with one
// accumulator (gpu_ptx_mul2=0) and the portable Fp (gpu_g2_ptx=0), apart
// from the defaults' so that they compile in parallel (msm.cuh).
#include "cuda/msm_sum.cuh"

CZ_MSM_SUM_INSTANCE(g2f_m1);
CZ_MSM_SUM_INSTANCE(dfp2);
