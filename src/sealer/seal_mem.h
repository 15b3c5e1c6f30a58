/* Memory bookkeeping for the streaming sealer: every large buffer it holds
 * (two label layers, tree chunks, upper tree rows, the parent-cache windows)
 * is taken through this ledger, which refuses an allocation that would take
 * the total over the budget and records the peak.  Process overhead outside
 * the sealer (code, libraries, the C1 model, stdio) is not on the ledger. */
#ifndef CUZK_FILECOIN_SEAL_MEM_H
#define CUZK_FILECOIN_SEAL_MEM_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t budget;       /* bytes; the ledger never goes above it */
    _Atomic uint64_t cur;  /* bytes held now */
    _Atomic uint64_t peak; /* the most ever held at once */
} fc_seal_mem;

static inline void fc_seal_mem_init(fc_seal_mem *m, uint64_t budget) {
    m->budget = budget;
    atomic_store(&m->cur, 0);
    atomic_store(&m->peak, 0);
}

/* Books n bytes: 0, or -1 (nothing booked) when that would pass the budget. */
int fc_seal_mem_reserve(fc_seal_mem *m, uint64_t n);
void fc_seal_mem_release(fc_seal_mem *m, uint64_t n);

/* malloc(n) booked on the ledger; NULL when over budget or out of memory. */
void *fc_seal_mem_alloc(fc_seal_mem *m, size_t n);
/* Frees p (NULL is fine) and unbooks the n bytes it was allocated with. */
void fc_seal_mem_free(fc_seal_mem *m, void *p, size_t n);

/* Bytes still free under the budget. */
static inline uint64_t fc_seal_mem_left(fc_seal_mem *m) {
    uint64_t c = atomic_load(&m->cur);
    return c < m->budget ? m->budget - c : 0;
}

#endif
