// Device discovery through the CUDA runtime (statically linked, so the binary
// starts on machines without libcudart; without a driver it reports 0 GPUs).
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#include "cuda/cuda_device.h"

extern "C" {
#include "util/err.h"
}

extern "C" int cuda_device_count(char *err, size_t errlen) {
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver)
        return 0; // no GPU or no driver: the CPU backend serves
    if (e != cudaSuccess) {
        return err_set(err, errlen, "cudaGetDeviceCount: %s (%s)", cudaGetErrorString(e),
                       cudaGetErrorName(e));
    }
    return n;
}

extern "C" int cuda_device_query(int device, cuda_device_info *out, char *err, size_t errlen) {
    cudaDeviceProp prop;
    cudaError_t e = cudaGetDeviceProperties(&prop, device);
    if (e != cudaSuccess) {
        return err_set(err, errlen, "cudaGetDeviceProperties: %s (%s)", cudaGetErrorString(e),
                       cudaGetErrorName(e));
    }
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", prop.name);
    out->sm_major = prop.major;
    out->sm_minor = prop.minor;
    out->multiprocessors = prop.multiProcessorCount;
    out->total_memory = prop.totalGlobalMem;
    return 0;
}

extern "C" int cuda_device_memory(int device, size_t *free_bytes, size_t *total_bytes, char *err,
                                  size_t errlen) {
    int prev = 0;
    cudaGetDevice(&prev);
    cudaError_t e = cudaSetDevice(device);
    if (e == cudaSuccess)
        e = cudaMemGetInfo(free_bytes, total_bytes);
    cudaSetDevice(prev);
    if (e != cudaSuccess) {
        return err_set(err, errlen, "cudaMemGetInfo: %s (%s)", cudaGetErrorString(e),
                       cudaGetErrorName(e));
    }
    return 0;
}
