// Device discovery through the CUDA runtime (statically linked, so the binary
// starts on machines without libcudart; without a driver it reports 0 GPUs).
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#include "cuda/cuda_device.h"

static void set_err(char *err, size_t errlen, const char *what, cudaError_t e) {
    if (err && errlen)
        snprintf(err, errlen, "%s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
}

extern "C" int cuda_device_count(char *err, size_t errlen) {
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver)
        return 0; // no GPU or no driver: the CPU backend serves
    if (e != cudaSuccess) {
        set_err(err, errlen, "cudaGetDeviceCount", e);
        return -1;
    }
    return n;
}

extern "C" int cuda_device_query(int device, cuda_device_info *out, char *err, size_t errlen) {
    cudaDeviceProp prop;
    cudaError_t e = cudaGetDeviceProperties(&prop, device);
    if (e != cudaSuccess) {
        set_err(err, errlen, "cudaGetDeviceProperties", e);
        return -1;
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
        set_err(err, errlen, "cudaMemGetInfo", e);
        return -1;
    }
    return 0;
}
