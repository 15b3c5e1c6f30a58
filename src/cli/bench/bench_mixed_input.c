/* The mixed workload's inputs (see bench_mixed_input.h). */
#include "cli/bench/bench_mixed_input.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/bench/bench_porep_input.h"
#include "filecoin/porep/porep_inputs.h"
#include "filecoin/post/post_challenges.h"
#include "filecoin/post/post_partition.h"
#include "filecoin/post/post_vanilla.h"
#include "filecoin/post/post_vanilla_gen.h"
#include "filecoin/snap/snap_challenges.h"
#include "filecoin/snap/snap_vanilla_gen.h"
#include "sealer/sealer_data.h"
#include "util/file_read.h"
#include "util/hex.h"

/* A PoSt vanilla proof or a Snap partition proof is far smaller than this. */
#define MIX_VANILLA_MAX ((size_t)64 << 20)

static const char *const MIX_NAMES[MIX_KINDS] = {"porep", "snap", "window", "winning"};
static const cuzk_proof_kind MIX_WIRE[MIX_KINDS] = {CUZK_KIND_POREP_C2, CUZK_KIND_SNAP_DEALS,
                                                    CUZK_KIND_WINDOW_POST, CUZK_KIND_WINNING_POST};

const char *bench_mix_kind_name(bench_mix_kind k) { return k < MIX_KINDS ? MIX_NAMES[k] : "?"; }

/* The kind's circuit at sector size shape: its parameter set. */
static int circuit_of(bench_mix_input *in, const fc_sector_shape *shape, char *err, size_t cap) {
    const fc_kind *k = fc_kind_by_wire(MIX_WIRE[in->mk]);
    char id[64];
    snprintf(id, sizeof id, "%s-%s", k ? k->id_prefix : "?", shape ? shape->short_name : "?");
    if (!k || !shape || fc_circuit_by_id(&in->circuit, id) != 0) {
        snprintf(err, cap, "%s: no circuit %s", MIX_NAMES[in->mk], id);
        return -1;
    }
    in->kind = MIX_WIRE[in->mk];
    in->sector_size = shape->sector_size;
    return 0;
}

static int alloc_inputs(bench_mix_input *in, size_t parts, size_t n, char *err, size_t cap) {
    in->n_parts = parts;
    in->n_inputs = n;
    in->inputs = calloc(parts * n, sizeof *in->inputs);
    if (!in->inputs)
        snprintf(err, cap, "out of memory");
    return in->inputs ? 0 : -1;
}

/* PoRep: the C1 (its json taken over from pi) and every partition's inputs. */
static int porep_finish(bench_mix_input *in, bench_porep_input *pi, const char *c1_path, char *err,
                        size_t cap) {
    const c1_output *c = pi->c1;
    in->blob = pi->json;
    in->blob_len = pi->json_len;
    pi->json = NULL;
    in->registered_proof = c->proof->id;
    in->miner_id = pi->miner_id;
    in->sector_number = pi->sector_number;
    if (c1_path)
        snprintf(in->origin, sizeof in->origin, "%s (%s)", c->proof->name, c1_path);
    else
        snprintf(in->origin, sizeof in->origin, "%s", pi->origin);
    fc_graph g;
    if (circuit_of(in, c->proof->shape, err, cap) || fc_graph_init_proof(&g, c->proof) != 0) {
        if (!err[0])
            snprintf(err, cap, "porep: no graph for %s", c->proof->name);
        return -1;
    }
    int rc = 0;
    for (unsigned k = 0; rc == 0 && k < c->partitions; k++) {
        porep_public pub;
        rc = porep_c1_public(&pub, c, k, &g, err, cap);
        if (rc == 0 && k == 0)
            rc = alloc_inputs(in, c->partitions, pub.n_inputs, err, cap);
        if (rc == 0)
            memcpy(in->inputs + k * in->n_inputs, pub.inputs, pub.n_inputs * sizeof(fr));
        porep_public_free(&pub);
    }
    fc_graph_free(&g);
    return rc;
}

/* PoSt: the proof type in->van[] decode as (Window: the V1_1 proofs, ids
 * 10..14; Winning: 0..4), the replicas they name, partition 0's inputs. */
static int post_finish(bench_mix_input *in, char *err, size_t cap) {
    const int winning = in->mk == MIX_WINNING;
    const fc_post_proof *p = NULL;
    fc_post_replica rep[BENCH_MIX_MAX_VANILLA];
    char why[512] = "";
    for (uint64_t id = winning ? 0 : 10; !p && id < (winning ? 5u : 15u); id++) {
        const fc_post_proof *q = fc_post_proof_by_id(id);
        size_t ok = 0;
        for (size_t i = 0; q && i < in->n_van; i++) {
            fc_post_vanilla v;
            if (fc_post_vanilla_decode(&v, in->van[i], in->van_len[i], q, why, sizeof why) != 0)
                break;
            rep[i].sector_id = v.sector_id;
            memcpy(rep[i].comm_r, v.comm_r, 32);
            fc_post_vanilla_free(&v);
            ok++;
        }
        if (q && ok == in->n_van)
            p = q;
    }
    if (!p) {
        snprintf(err, cap, "%s: not a %s vanilla proof of one sector: %s", MIX_NAMES[in->mk],
                 winning ? "WinningPoSt" : "WindowPoSt", why);
        return -1;
    }
    if (in->n_van > post_partition_max_sectors(p)) {
        snprintf(err, cap, "%s: %zu sectors, one partition of %s takes %u", MIX_NAMES[in->mk],
                 in->n_van, p->name, post_partition_max_sectors(p));
        return -1;
    }
    in->registered_proof = p->id;
    in->miner_id = 1000;
    fr *inputs;
    size_t n;
    if (circuit_of(in, p->shape, err, cap) ||
        post_partition_public(&inputs, &n, p, rep, in->n_van, in->rnd, 0, err, cap) != 0)
        return -1;
    in->inputs = inputs;
    in->n_inputs = n;
    in->n_parts = 1;
    return 0;
}

/* Snap: every partition's 4 inputs from the three commitments (h default,
 * as the engine proves). */
static int snap_finish(bench_mix_input *in, const fc_update_proof *p, char *err, size_t cap) {
    fr c[3];
    if (!fr_from_bytes_le(&c[0], in->comm_r_old) || !fr_from_bytes_le(&c[1], in->comm_d_new) ||
        !fr_from_bytes_le(&c[2], in->comm_r_new)) {
        snprintf(err, cap, "snap: a commitment is not a canonical field element");
        return -1;
    }
    if (in->n_van != p->partitions) {
        snprintf(err, cap, "snap: %zu vanilla proofs, %s has %u partitions", in->n_van, p->name,
                 p->partitions);
        return -1;
    }
    in->registered_proof = (uint64_t)p->id;
    if (circuit_of(in, p->shape, err, cap) || alloc_inputs(in, p->partitions, 4, err, cap))
        return -1;
    for (unsigned k = 0; k < p->partitions; k++)
        if (snap_public_inputs(in->inputs + 4 * k, p, k, p->h_default, &c[0], &c[1], &c[2])) {
            snprintf(err, cap, "snap: partition %u: no public inputs", k);
            return -1;
        }
    return 0;
}

static int add_file(bench_mix_input *in, const char *path, char *err, size_t cap) {
    char why[256];
    if (in->n_van == BENCH_MIX_MAX_VANILLA) {
        snprintf(err, cap, "%s: more than %d vanilla proofs", MIX_NAMES[in->mk],
                 BENCH_MIX_MAX_VANILLA);
        return -1;
    }
    in->van[in->n_van] =
        file_read_all(path, MIX_VANILLA_MAX, &in->van_len[in->n_van], why, sizeof why);
    if (!in->van[in->n_van]) {
        snprintf(err, cap, "cannot read %s: %s", path, why);
        return -1;
    }
    in->n_van++;
    return 0;
}

static int read_post(bench_mix_input *in, const char *list, const char *rnd_hex, char *err,
                     size_t cap) {
    if (strlen(rnd_hex) != 64 || hex_decode(in->rnd, 32, rnd_hex) != 32 ||
        !fc_post_randomness_ok(in->rnd)) {
        snprintf(err, cap, "--%s-randomness: 64 hex digits of a canonical field element expected",
                 MIX_NAMES[in->mk]);
        return -1;
    }
    char buf[8192], *save = NULL;
    snprintf(buf, sizeof buf, "%s", list);
    for (char *f = strtok_r(buf, ",", &save); f; f = strtok_r(NULL, ",", &save))
        if (add_file(in, f, err, cap))
            return -1;
    snprintf(in->origin, sizeof in->origin, "%s", list);
    return post_finish(in, err, cap);
}

/* snap.json of `cuzk seal update`: proof id, h, commitments, vanilla files
 * (beside it). */
static int read_snap(bench_mix_input *in, const char *path, char *err, size_t cap) {
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    if (!j) {
        snprintf(err, cap, "--snap-json %s: %s", path, je.text);
        return -1;
    }
    json_t *id = json_object_get(j, "registered_update_proof_id");
    json_t *h = json_object_get(j, "h");
    json_t *files = json_object_get(j, "vanilla_proofs");
    const fc_update_proof *p =
        json_is_integer(id) ? fc_update_proof_by_id((uint64_t)json_integer_value(id)) : NULL;
    const char *names[3] = {"comm_r_old", "comm_r_new", "comm_d_new"};
    uint8_t *dst[3] = {in->comm_r_old, in->comm_r_new, in->comm_d_new};
    int rc = p && json_is_array(files) ? 0 : -1;
    if (rc)
        snprintf(err, cap, "--snap-json %s: no registered_update_proof_id or vanilla_proofs", path);
    if (rc == 0 && json_is_integer(h) && json_integer_value(h) != (json_int_t)p->h_default) {
        snprintf(err, cap,
                 "--snap-json %s: h %lld; the engine proves with %s's default h %u "
                 "(`cuzk seal update` without --h)",
                 path, (long long)json_integer_value(h), p->name, p->h_default);
        rc = -1;
    }
    for (int i = 0; rc == 0 && i < 3; i++) {
        const char *s = json_string_value(json_object_get(j, names[i]));
        if (!s || strlen(s) != 64 || hex_decode(dst[i], 32, s) != 32) {
            snprintf(err, cap, "--snap-json %s: %s: 64 hex digits expected", path, names[i]);
            rc = -1;
        }
    }
    const char *slash = strrchr(path, '/');
    for (size_t i = 0; rc == 0 && i < json_array_size(files); i++) {
        const char *name = json_string_value(json_array_get(files, i));
        char fp[4400];
        snprintf(fp, sizeof fp, "%.*s%s", slash ? (int)(slash - path + 1) : 0, path,
                 name ? name : "");
        if (!name) {
            snprintf(err, cap, "--snap-json %s: vanilla_proofs[%zu] is not a file name", path, i);
            rc = -1;
        } else {
            rc = add_file(in, fp, err, cap);
        }
    }
    json_decref(j);
    snprintf(in->origin, sizeof in->origin, "%s (%s)", p ? p->name : "?", path);
    return rc ? -1 : snap_finish(in, p, err, cap);
}

int bench_mix_inputs_read(bench_mix_input in[MIX_KINDS], const int want[MIX_KINDS],
                          const bench_mix_files *f, char *err, size_t cap) {
    err[0] = 0;
    for (int k = 0; k < MIX_KINDS; k++) {
        memset(&in[k], 0, sizeof in[k]);
        in[k].mk = (bench_mix_kind)k;
    }
    if (want[MIX_POREP] && f->c1) {
        bench_porep_input pi;
        int rc = bench_porep_input_get(&pi, f->c1, 1, err, cap) ||
                 porep_finish(&in[MIX_POREP], &pi, f->c1, err, cap);
        bench_porep_input_free(&pi);
        if (rc)
            return -1;
    }
    if (want[MIX_SNAP] && f->snap_json && read_snap(&in[MIX_SNAP], f->snap_json, err, cap))
        return -1;
    if (want[MIX_WINDOW] && f->window_vanilla &&
        read_post(&in[MIX_WINDOW], f->window_vanilla, f->window_rnd, err, cap))
        return -1;
    if (want[MIX_WINNING] && f->winning_vanilla &&
        read_post(&in[MIX_WINNING], f->winning_vanilla, f->winning_rnd, err, cap))
        return -1;
    return 0;
}

/* A PoSt vanilla proof of the sealed sector s for in's kind at 2 KiB. */
static int make_post(bench_mix_input *in, const fc_sealed *s, uint64_t seed, char *err,
                     size_t cap) {
    /* Winning2KiBV1 is 0, Window2KiBV1_1 10 */
    const fc_post_proof *p = fc_post_proof_by_id(in->mk == MIX_WINNING ? 0 : 10);
    fc_post_sector ps = {.tree_r = &s->tree_r, .sector_id = s->sector_number};
    memcpy(ps.comm_c, s->comm_c, 32);
    memcpy(ps.comm_r_last, s->comm_r_last, 32);
    memcpy(ps.comm_r, s->comm_r, 32);
    for (int i = 0; i < 32; i++)
        in->rnd[i] = (uint8_t)(seed * 29 + (uint64_t)i * 11 + (uint64_t)in->mk);
    in->rnd[31] = 0; /* a canonical field element */
    if (fc_post_vanilla_generate(&in->van[0], &in->van_len[0], p, &ps, in->rnd, 0, err, cap))
        return -1;
    in->n_van = 1;
    snprintf(in->origin, sizeof in->origin, "%s of the sector sealed here", p->name);
    return post_finish(in, err, cap);
}

/* A SnapDeals update of the sealed sector's replica with random data. */
static int make_snap(bench_mix_input *in, const fc_sealed *s, uint64_t seed, char *err,
                     size_t cap) {
    const fc_update_proof *p = NULL;
    for (uint64_t id = 0; !p && id < FC_SECTOR_SIZES; id++)
        if ((p = fc_update_proof_by_id(id)) && p->sector_size != 2048)
            p = NULL;
    size_t raw_len = p ? fc_fr32_unpadded_size(p->sector_size) : 0;
    uint8_t *raw = p ? malloc(raw_len) : NULL, *data = NULL;
    if (raw) {
        fc_seal_random_bytes(raw, raw_len, seed + 1);
        data = fc_seal_pad_sector(raw, raw_len, p->sector_size);
    }
    free(raw);
    if (!data) {
        snprintf(err, cap, p ? "out of memory" : "no 2 KiB update proof");
        return -1;
    }
    fc_snap_update u;
    memset(&u, 0, sizeof u);
    int rc = fc_snap_update_build(&u, p, 0, s->comm_c, s->tree_r.row[0], data, NULL, err, cap);
    free(data);
    for (unsigned k = 0; rc == 0 && k < p->partitions; k++) {
        rc = fc_snap_vanilla_generate(&in->van[k], &in->van_len[k], &u, k, err, cap);
        in->n_van += rc == 0;
    }
    if (rc == 0) {
        memcpy(in->comm_r_old, u.comm_r_old, 32);
        memcpy(in->comm_r_new, u.comm_r_new, 32);
        memcpy(in->comm_d_new, u.comm_d_new, 32);
        snprintf(in->origin, sizeof in->origin, "%s update of the sector sealed here", p->name);
        rc = snap_finish(in, p, err, cap);
    }
    fc_snap_update_free(&u);
    return rc;
}

int bench_mix_inputs_make_2k(bench_mix_input in[MIX_KINDS], const int want[MIX_KINDS],
                             uint64_t seed, char *err, size_t cap) {
    err[0] = 0;
    bench_porep_input pi;
    fc_sealed s;
    if (bench_porep_input_seal(&pi, &s, seed, err, cap))
        return -1;
    int rc = 0;
    if (want[MIX_POREP] && !in[MIX_POREP].kind)
        rc = porep_finish(&in[MIX_POREP], &pi, NULL, err, cap);
    if (rc == 0 && want[MIX_SNAP] && !in[MIX_SNAP].kind)
        rc = make_snap(&in[MIX_SNAP], &s, seed, err, cap);
    for (int k = MIX_WINDOW; rc == 0 && k <= MIX_WINNING; k++)
        if (want[k] && !in[k].kind)
            rc = make_post(&in[k], &s, seed, err, cap);
    bench_porep_input_free(&pi);
    fc_sealed_free(&s);
    return rc;
}

void bench_mix_request(cuzk_request *r, const bench_mix_input *in, const char *id) {
    memset(r, 0, sizeof *r);
    r->request_id = id;
    r->kind = in->kind;
    r->priority = CUZK_PRIORITY_DEFAULT; /* the kind's own */
    r->registered_proof = in->registered_proof;
    r->miner_id = in->miner_id;
    r->sector_number = in->sector_number;
    if (in->kind == CUZK_KIND_POREP_C2) {
        r->vanilla_proof = in->blob;
        r->vanilla_proof_len = in->blob_len;
        return;
    }
    r->vanilla_proofs = (const uint8_t *const *)in->van;
    r->vanilla_proofs_len = in->van_len;
    r->n_vanilla_proofs = in->n_van;
    if (in->kind == CUZK_KIND_SNAP_DEALS) {
        r->comm_r_old = in->comm_r_old;
        r->comm_r_new = in->comm_r_new;
        r->comm_d_new = in->comm_d_new;
    } else {
        r->randomness = in->rnd;
    }
}

void bench_mix_input_free(bench_mix_input *in) {
    free(in->blob);
    for (size_t i = 0; i < in->n_van; i++)
        free(in->van[i]);
    free(in->inputs);
    memset(in, 0, sizeof *in);
}
