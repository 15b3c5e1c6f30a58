/* Uniform Fr elements from the kernel's CSPRNG (getrandom(2)). */
#ifndef CUZK_GROTH16_RANDOM_H
#define CUZK_GROTH16_RANDOM_H

#include "field/fr.h"

/* 0 on success, -1 if getrandom fails.  Rejection sampling: 255 random bits,
 * retried while >= r, so there is no modular bias. */
int groth16_random_fr(fr *out);

#endif
