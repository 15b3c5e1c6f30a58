#include "cli/cmd_graph.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "filecoin/sdr/graph.h"
#include "filecoin/sdr/parent_cache.h"
#include "util/hex.h"
#include "util/parallel.h"

static const char *usage =
    "cuzk graph cache-name PROOF | cache-digest PROOF [--out FILE] [--threads N] | "
    "parents PROOF NODE   (PROOF: a seal proof name like StackedDrg2KiBV1_1, or its id 0..19)";

static const fc_seal_proof *parse_proof(const char *s) {
    const fc_seal_proof *p = fc_seal_proof_by_name(s);
    if (p)
        return p;
    char *end;
    errno = 0;
    unsigned long long id = strtoull(s, &end, 10);
    if (*s && !*end && errno == 0 && s[0] != '-')
        p = fc_seal_proof_by_id(id);
    if (!p)
        fprintf(stderr,
                "cuzk graph: unknown seal proof \"%s\" (a name such as StackedDrg2KiBV1_1, "
                "or an id 0..19)\n",
                s);
    return p;
}

static int cache_digest(const fc_seal_proof *p, int argc, char **argv) {
    const char *out_path = NULL;
    unsigned threads = par_cpu_count();
    cli_opt opts[] = {{"--out", &out_path}};
    if (cli_parse(argc, argv, opts, 1, &threads, usage) != 0)
        return 2;
    fc_graph g;
    if (fc_graph_init_proof(&g, p) != 0) {
        fprintf(stderr, "cuzk graph: cannot build the graph of %s (out of memory)\n", p->name);
        return 1;
    }
    FILE *f = NULL;
    if (out_path && !(f = fopen(out_path, "wb"))) {
        fprintf(stderr, "cuzk graph: cannot create %s: %s\n", out_path, strerror(errno));
        fc_graph_free(&g);
        return 1;
    }
    uint8_t d[32];
    char err[128];
    int rc = fc_parent_cache_generate(d, &g, threads, f, err, sizeof err);
    fc_graph_free(&g);
    if (f && fclose(f) != 0 && rc == 0) {
        snprintf(err, sizeof err, "closing %s failed", out_path);
        rc = -1;
    }
    if (rc != 0) {
        fprintf(stderr, "cuzk graph: %s\n", err);
        return 1;
    }
    char hex[65];
    hex_encode(hex, d, 32);
    printf("%s\n", hex);
    return 0;
}

static int parents(const fc_seal_proof *p, const char *node_s) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(node_s, &end, 10);
    if (!*node_s || *end || errno || node_s[0] == '-' || v >= p->shape->nodes) {
        fprintf(stderr, "cuzk graph: node \"%s\" is not in 0..%llu\n", node_s,
                (unsigned long long)p->shape->nodes - 1);
        return 2;
    }
    fc_graph g;
    if (fc_graph_init_proof(&g, p) != 0) {
        fprintf(stderr, "cuzk graph: cannot build the graph of %s (out of memory)\n", p->name);
        return 1;
    }
    uint32_t par[FC_GRAPH_DEGREE];
    fc_graph_parents(&g, (uint32_t)v, par);
    fc_graph_free(&g);
    for (int i = 0; i < FC_GRAPH_DEGREE; i++)
        printf("%u%c", par[i], i + 1 < FC_GRAPH_DEGREE ? ' ' : '\n');
    return 0;
}

int cmd_graph(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    const fc_seal_proof *p = parse_proof(argv[1]);
    if (!p)
        return 2;
    if (strcmp(argv[0], "cache-name") == 0 && argc == 2) {
        fc_graph g;
        char key[128];
        if (fc_graph_init_proof(&g, p) != 0) {
            fprintf(stderr, "cuzk graph: cannot build the graph of %s\n", p->name);
            return 1;
        }
        size_t n = fc_parent_cache_key(key, sizeof key, &g);
        fc_graph_free(&g);
        if (!n) {
            fprintf(stderr, "cuzk graph: cannot compute the cache name\n");
            return 1;
        }
        printf("%s\n", key);
        return 0;
    }
    if (strcmp(argv[0], "cache-digest") == 0)
        return cache_digest(p, argc - 2, argv + 2);
    if (strcmp(argv[0], "parents") == 0 && argc == 3)
        return parents(p, argv[2]);
    fprintf(stderr, "usage: %s\n", usage);
    return 2;
}
