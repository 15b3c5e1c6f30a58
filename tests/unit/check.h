/* A small test harness: CHECK macros, a seeded PRNG whose seed is printed
 * (CUZK_TEST_SEED reproduces a run), and the closing "N passed, N failed" line. */
#ifndef CUZK_TEST_CHECK_H
#define CUZK_TEST_CHECK_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Counted atomically: tests CHECK from their fixtures' threads too. */
static int check_passed, check_failed;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (cond) {                                                                  \
            __atomic_fetch_add(&check_passed, 1, __ATOMIC_RELAXED);                  \
        } else if (__atomic_add_fetch(&check_failed, 1, __ATOMIC_RELAXED) <= 20) {   \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

#define CHECK_MEM(a, b, n) CHECK(memcmp((a), (b), (n)) == 0)

static uint64_t check_rng_state;

static inline uint64_t check_rand64(void) {
    /* splitmix64: enough for test inputs, reproducible from the seed */
    uint64_t z = (check_rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline void check_rand_bytes(uint8_t *out, size_t n) {
    for (size_t i = 0; i < n; i++)
        out[i] = (uint8_t)check_rand64();
}

static inline void check_seed(const char *name) {
    const char *env = getenv("CUZK_TEST_SEED");
    uint64_t seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
    check_rng_state = seed;
    printf("%s: seed %" PRIu64 " (set CUZK_TEST_SEED to repeat)\n", name, seed);
}

static inline int check_finish(void) {
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif
