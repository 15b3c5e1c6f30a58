/* Circuit names of the CLI: see circuit_names.h. */
#include "cli/circuit_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/porep/porep_circuit.h"
#include "filecoin/porep/porep_witness_par.h"
#include "filecoin/post/post_circuit.h"
#include "filecoin/proof_types.h"

const char *const CIRCUIT_NAMES =
    "porep-2k|porep-8m|porep-512m|porep-32g|porep-64g|winning-2k|"
    "window-2k|winning-32g|window-32g|window-64g (and winning-/window- "
    "8m, 512m, 64g)|snap-2k|snap-8m|snap-512m|snap-32g|snap-64g";

int circuit_name_parse(circuit_name *out, const char *name) {
    const char *dash = strchr(name, '-');
    if (!dash)
        goto bad;
    const fc_sector_shape *shape = NULL;
    unsigned si = 0;
    for (unsigned i = 0; i < FC_SECTOR_SIZES; i++)
        if (strcmp(fc_shape_at(i)->short_name, dash + 1) == 0) {
            shape = fc_shape_at(i);
            si = i;
        }
    if (!shape)
        goto bad;
    const size_t kind = (size_t)(dash - name);
    memset(out, 0, sizeof *out);
    if (kind == 4 && strncmp(name, "snap", 4) == 0) {
        if (snap_shape_for_id(&out->ss, si))
            goto bad;
        out->snap = 1;
        out->proof_name = out->ss.p.name;
        if (!fc_update_param_stem(out->stem, sizeof out->stem, &out->ss.p))
            out->stem[0] = 0;
        return 0;
    }
    if (kind == 5 && strncmp(name, "porep", 5) == 0) {
        const fc_seal_proof *p = fc_seal_proof_by_id(5 + si); /* V1_1: every version's circuit */
        out->porep = 1;
        out->proof_name = p->name;
        porep_shape_for_sector(&out->ps, shape, p->challenges_per_partition);
        if (!fc_porep_param_stem(out->stem, sizeof out->stem, shape))
            out->stem[0] = 0;
        return 0;
    }
    int winning = kind == 7 && strncmp(name, "winning", 7) == 0;
    int window = kind == 6 && strncmp(name, "window", 6) == 0;
    if (!winning && !window)
        goto bad;
    const fc_post_proof *p = fc_post_proof_by_id(window ? 5 + si : si);
    out->proof_name = p->name;
    post_shape_for_proof(&out->qs, p);
    if (!fc_post_param_stem(out->stem, sizeof out->stem, p))
        out->stem[0] = 0;
    return 0;
bad:
    fprintf(stderr, "cuzk: unknown circuit \"%s\" (one of %s)\n", name, CIRCUIT_NAMES);
    return -1;
}

int circuit_name_synthesize(r1cs_cs *cs, const circuit_name *c, const void *witness) {
    if (c->snap)
        return snap_circuit_synthesize(cs, &c->ss, witness);
    return c->porep ? porep_circuit_synthesize(cs, &c->ps, witness)
                    : post_circuit_synthesize(cs, &c->qs, witness);
}

void circuit_name_describe(const circuit_name *c) {
    if (c->snap) {
        const fc_update_proof *p = &c->ss.p;
        printf("circuit            %s update partition: %llu nodes, %u partitions, %u challenges, "
               "%u apex leaves, tree R %u-%u-%u\n",
               p->name, (unsigned long long)p->nodes, p->partitions, p->challenges, p->apex_leaves,
               p->arity_base, p->arity_sub, p->arity_top);
    } else if (c->porep) {
        printf("circuit            %s partition: %llu nodes, %u layers, %u challenges, trees R/C "
               "%u-%u-%u\n",
               c->proof_name, (unsigned long long)c->ps.nodes, c->ps.layers, c->ps.challenges,
               c->ps.arity_base, c->ps.arity_sub, c->ps.arity_top);
    } else {
        printf("circuit            %s: %u sectors x %u challenges, %llu leaves, tree R %u-%u-%u\n",
               c->proof_name, c->qs.sectors, c->qs.challenges, (unsigned long long)c->qs.nodes,
               c->qs.arity_base, c->qs.arity_sub, c->qs.arity_top);
    }
    if (c->stem[0])
        printf("parameters         %s.params / .vk\n", c->stem);
}

/* ---- a synthetic witness ---------------------------------------------------- */

static uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void rand_frs(fr *out, size_t n, uint64_t *s) {
    for (size_t i = 0; i < n; i++) {
        uint8_t b[32];
        for (int j = 0; j < 4; j++) {
            uint64_t v = rng_next(s);
            memcpy(b + 8 * j, &v, 8);
        }
        fr_from_bytes_le_reduce(&out[i], b);
    }
}

/* Path positions below each level's arity, per path of `levels` levels. */
static void rand_index(uint32_t *out, size_t n, const por_shape *t, uint64_t *s) {
    const unsigned lv = por_shape_levels(t);
    for (size_t i = 0; i < n; i++)
        out[i] = (uint32_t)(rng_next(s) % por_shape_arity(t, (unsigned)(i % lv)));
}

int circuit_name_witness(circuit_witness *w, const circuit_name *c, uint64_t seed) {
    memset(w, 0, sizeof *w);
    uint64_t s = seed;
    if (c->snap) { /* any values: proving-mode synthesis does not check them */
        snap_witness_sizes z;
        snap_witness_sizes_get(&c->ss, &z);
        size_t nfr = 6 + z.apex_leaves + z.partition_path + 2 * z.leaves + 2 * z.path_r + z.path_d;
        fr *f = malloc(nfr * sizeof(fr));
        if (!f)
            return -1;
        rand_frs(f, nfr, &s);
        snap_witness *sw = &w->sw;
        sw->k = 0;
        sw->h = c->ss.p.h_default;
        sw->comm_r_old = f[0];
        sw->comm_d_new = f[1];
        sw->comm_r_new = f[2];
        sw->comm_c = f[3];
        sw->root_r_old = f[4];
        sw->root_r_new = f[5];
        sw->apex_leaves = f + 6;
        sw->partition_path = sw->apex_leaves + z.apex_leaves;
        sw->leaf_r_old = sw->partition_path + z.partition_path;
        sw->leaf_d_new = sw->leaf_r_old + z.leaves;
        sw->path_r_old = sw->leaf_d_new + z.leaves;
        sw->path_r_new = sw->path_r_old + z.path_r;
        sw->path_d = sw->path_r_new + z.path_r;
        w->mem = f;
        return 0;
    }
    if (c->porep) {
        porep_witness_sizes z;
        por_shape rc, d;
        porep_witness_sizes_get(&c->ps, &z);
        porep_shape_tree_rc(&c->ps, &rc);
        porep_shape_tree_d(&c->ps, &d);
        size_t nfr = z.data_leaf + z.d_sib + z.rows + z.c_sib + z.r_sib;
        size_t nu32 = z.d_index + z.c_index + z.r_index;
        char *m = malloc(nfr * sizeof(fr) + z.challenge * 8 + nu32 * 4);
        if (!m)
            return -1;
        fr *f = (fr *)m;
        uint64_t *ch = (uint64_t *)(f + nfr);
        uint32_t *u = (uint32_t *)(ch + z.challenge);
        rand_frs(f, nfr, &s);
        for (size_t i = 0; i < z.challenge; i++)
            ch[i] = 1 + rng_next(&s) % (c->ps.nodes - 1);
        rand_index(u, z.d_index, &d, &s);
        rand_index(u + z.d_index, z.c_index, &rc, &s);
        rand_index(u + z.d_index + z.c_index, z.r_index, &rc, &s);
        fr k[5];
        rand_frs(k, 5, &s);
        w->pw = (porep_witness){k[0],
                                k[1],
                                k[2],
                                k[3],
                                k[4],
                                ch,
                                f,
                                u,
                                f + z.data_leaf,
                                f + z.data_leaf + z.d_sib,
                                u + z.d_index,
                                f + z.data_leaf + z.d_sib + z.rows,
                                u + z.d_index + z.c_index,
                                f + z.data_leaf + z.d_sib + z.rows + z.c_sib};
        /* c_x rows = the labels of the parents' rows, as in a real witness
         * (the parallel witness generator checks them) */
        porep_witness_fix_labels(&c->ps, f + z.data_leaf + z.d_sib, &k[0], ch);
        w->mem = m;
        return 0;
    }
    por_shape t;
    post_shape_tree(&c->qs, &t);
    const size_t S = c->qs.sectors, C = c->qs.challenges, lv = por_shape_levels(&t),
                 sb = por_shape_siblings(&t);
    size_t nfr = 3 * S + S * C * (1 + sb);
    char *m = malloc(nfr * sizeof(fr) + S * C * lv * 4);
    if (!m)
        return -1;
    fr *f = (fr *)m;
    uint32_t *u = (uint32_t *)(f + nfr);
    rand_frs(f, nfr, &s);
    rand_index(u, S * C * lv, &t, &s);
    w->qw = (post_witness){S, f, f + S, f + 2 * S, f + 3 * S, u, f + 3 * S + S * C, NULL};
    w->mem = m;
    return 0;
}

void circuit_witness_free(circuit_witness *w) {
    free(w->mem);
    w->mem = NULL;
}
