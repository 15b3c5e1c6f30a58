/* The streaming sealer's memory ledger: see seal_mem.h. */
#include "sealer/seal_mem.h"

#include <stdlib.h>

int fc_seal_mem_reserve(fc_seal_mem *m, uint64_t n) {
    uint64_t c = atomic_load(&m->cur);
    do {
        if (n > m->budget || c > m->budget - n)
            return -1;
    } while (!atomic_compare_exchange_weak(&m->cur, &c, c + n));
    uint64_t now = c + n, p = atomic_load(&m->peak);
    while (now > p && !atomic_compare_exchange_weak(&m->peak, &p, now))
        ;
    return 0;
}

void fc_seal_mem_release(fc_seal_mem *m, uint64_t n) { atomic_fetch_sub(&m->cur, n); }

void *fc_seal_mem_alloc(fc_seal_mem *m, size_t n) {
    if (fc_seal_mem_reserve(m, n) != 0)
        return NULL;
    void *p = malloc(n ? n : 1);
    if (!p)
        fc_seal_mem_release(m, n);
    return p;
}

void fc_seal_mem_free(fc_seal_mem *m, void *p, size_t n) {
    if (!p)
        return;
    free(p);
    fc_seal_mem_release(m, n);
}
