/* The proof kinds' table: see kinds.h.  Each row is defined in its kind's
 * folder; this list is the one place that names them all. */
#include "filecoin/kinds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const fc_kind fc_kind_porep;   /* filecoin/porep/porep_kind.c */
extern const fc_kind fc_kind_wpost;   /* filecoin/post/post_kind.c */
extern const fc_kind fc_kind_winning; /* filecoin/post/post_kind.c */
extern const fc_kind fc_kind_snap;    /* filecoin/snap/snap_kind.c */

static const fc_kind *const table[] = {&fc_kind_porep, &fc_kind_wpost, &fc_kind_winning,
                                       &fc_kind_snap};

const fc_kind *fc_kind_at(size_t i) { return i < sizeof table / sizeof table[0] ? table[i] : NULL; }

const fc_kind *fc_kind_by_wire(int wire_kind) {
    for (size_t i = 0; fc_kind_at(i); i++)
        if (table[i]->wire_kind == wire_kind)
            return table[i];
    return NULL;
}

const fc_kind *fc_kind_by_id_prefix(const char *prefix) {
    for (size_t i = 0; prefix && fc_kind_at(i); i++)
        if (strcmp(table[i]->id_prefix, prefix) == 0)
            return table[i];
    return NULL;
}

/* "<prefix>-<short name>": the row whose prefix (by_id) or circuit name
 * matches, at that size. */
static int circuit_by(fc_circuit *out, const char *s, int by_id) {
    const char *dash = s ? strrchr(s, '-') : NULL;
    if (!dash)
        return -1;
    const size_t n = (size_t)(dash - s);
    for (size_t i = 0; fc_kind_at(i); i++) {
        const char *name = by_id ? table[i]->id_prefix : table[i]->circuit_name;
        if (strlen(name) != n || strncmp(name, s, n) != 0)
            continue;
        for (unsigned z = 0; z < FC_SECTOR_SIZES; z++)
            if (strcmp(fc_shape_at(z)->short_name, dash + 1) == 0)
                return table[i]->circuit_at(table[i], out, z);
    }
    return -1;
}

int fc_circuit_by_id(fc_circuit *out, const char *id) { return circuit_by(out, id, 1); }

int fc_circuit_by_name(fc_circuit *out, const char *name) { return circuit_by(out, name, 0); }

void fc_circuit_init(fc_circuit *out, const fc_kind *k, unsigned i, const char *proof_name) {
    memset(out, 0, sizeof *out);
    out->kind = k;
    out->size = i;
    out->proof_name = proof_name;
    snprintf(out->id, sizeof out->id, "%s-%s", k->id_prefix, fc_shape_at(i)->short_name);
}

void fc_kind_witness_free(fc_kind_witness *w) {
    free(w->mem);
    w->mem = NULL;
}

uint64_t fc_kind_rand64(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void fc_kind_rand_frs(fr *out, size_t n, uint64_t *s) {
    for (size_t i = 0; i < n; i++) {
        uint8_t b[32];
        for (int j = 0; j < 4; j++) {
            uint64_t v = fc_kind_rand64(s);
            memcpy(b + 8 * j, &v, 8);
        }
        fr_from_bytes_le_reduce(&out[i], b);
    }
}

void fc_kind_rand_index(uint32_t *out, size_t n, const por_shape *t, uint64_t *s) {
    const unsigned lv = por_shape_levels(t);
    for (size_t i = 0; i < n; i++)
        out[i] = (uint32_t)(fc_kind_rand64(s) % por_shape_arity(t, (unsigned)(i % lv)));
}
