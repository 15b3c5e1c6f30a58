/* CUDA device discovery, callable from C.  The only layer that includes CUDA
 * headers is src/cuda; everything above sees plain C and error codes. */
#ifndef CUZK_CUDA_DEVICE_H
#define CUZK_CUDA_DEVICE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    char name[256];
    int sm_major, sm_minor;
    int multiprocessors;
    size_t total_memory;
} cuda_device_info;

/* Number of usable CUDA devices; 0 when there is no driver or no GPU
 * (not an error: the CPU backend serves).  Returns -1 only for an
 * unexpected runtime failure, with a message in err. */
int cuda_device_count(char *err, size_t errlen);
/* 0 on success, -1 with a message in err. */
int cuda_device_query(int device, cuda_device_info *out, char *err, size_t errlen);
/* Free and total device memory now (cudaMemGetInfo on the device's primary
 * context, which the backend shares).  0 on success, -1 with a message. */
int cuda_device_memory(int device, size_t *free_bytes, size_t *total_bytes, char *err,
                       size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
