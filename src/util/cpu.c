#include "util/cpu.h"

#if defined(__x86_64__)
#include <cpuid.h>

int cpu_has_adx_bmi2(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return 0;
    /* CPUID.(EAX=7,ECX=0):EBX bit 8 = BMI2 (MULX), bit 19 = ADX. */
    return ((b >> 8) & 1) && ((b >> 19) & 1);
}
#else
int cpu_has_adx_bmi2(void) { return 0; }
#endif
