#include "groth16/backend.h"

#include <string.h>

const groth16_backend *groth16_backend_find(const char *name) {
    if (name && strcmp(name, groth16_backend_cpu.name) == 0)
        return &groth16_backend_cpu;
    return NULL;
}
