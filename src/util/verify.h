/* Contract checks for debug builds (-DCUZK_VERIFY=ON, used by the test
 * command): cheap preconditions written next to the code that relies on them.
 * In other builds they compile to nothing. */
#ifndef CUZK_UTIL_VERIFY_H
#define CUZK_UTIL_VERIFY_H

#ifdef CUZK_VERIFY
#include <stdio.h>
#include <stdlib.h>
#define VERIFY_CHECK(cond)                                                                \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "%s:%d: contract violated: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                                      \
        }                                                                                 \
    } while (0)
#else
#define VERIFY_CHECK(cond) ((void)0)
#endif

#endif
