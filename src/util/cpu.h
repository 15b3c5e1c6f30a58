/* CPU feature detection for run-time selection of assembly fast paths. */
#ifndef CUZK_UTIL_CPU_H
#define CUZK_UTIL_CPU_H

/* 1 if the CPU executes MULX (BMI2) and ADCX/ADOX (ADX); 0 elsewhere. */
int cpu_has_adx_bmi2(void);

#endif
