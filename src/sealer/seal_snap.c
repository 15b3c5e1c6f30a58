/* The SnapDeals update step (see seal_snap.h). */
#include "sealer/seal_snap.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "field/fr.h"
#include "filecoin/snap/snap_vanilla_gen.h"
#include "gadget/poseidon.h"
#include "sealer/sealer_data.h"
#include "util/err.h"
#include "util/hex.h"

/* The whole file when it holds exactly `want` bytes; NULL with a message. */
static uint8_t *read_exact(const char *dir, const char *name, size_t want, char *err, size_t cap) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        err_set(err, cap, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    uint8_t *b = malloc(want + 1);
    size_t n = b ? fread(b, 1, want + 1, f) : 0;
    fclose(f);
    if (!b || n != want) {
        if (b)
            err_set(err, cap, "%s holds %s%zu bytes, the sector needs %zu", path,
                    n > want ? "more than " : "", n > want ? want : n, want);
        else
            err_set(err, cap, "out of memory");
        free(b);
        return NULL;
    }
    return b;
}

static int write_out(const char *dir, const char *name, const void *a, size_t n, char *err,
                     size_t cap) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    int bad = !f || (n && fwrite(a, 1, n, f) != n);
    if (f)
        bad |= fclose(f) != 0;
    return bad ? err_set(err, cap, "cannot write %s: %s", path, strerror(errno)) : 0;
}

/* The seal proof id and comm_r of sector.json. */
static int read_sector_json(const char *dir, unsigned *proof_id, uint8_t comm_r[32], char *err,
                            size_t cap) {
    char path[4096];
    snprintf(path, sizeof path, "%s/sector.json", dir);
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    json_t *id = j ? json_object_get(j, "registered_proof_id") : NULL;
    json_t *r = j ? json_object_get(j, "comm_r") : NULL;
    int ok = id && json_is_integer(id) && json_integer_value(id) >= 0 && r && json_is_string(r) &&
             hex_decode(comm_r, 32, json_string_value(r)) == 32;
    if (ok)
        *proof_id = (unsigned)json_integer_value(id);
    json_decref(j);
    if (!j)
        return err_set(err, cap, "cannot read %s: %s", path, je.text);
    if (!ok)
        return err_set(err, cap, "%s: needs registered_proof_id and a 32-byte hex comm_r", path);
    return 0;
}

/* The registered update proof of the sealed sector's size. */
static const fc_update_proof *update_proof_for(unsigned seal_id, char *err, size_t cap) {
    const fc_seal_proof *sp = fc_seal_proof_by_id(seal_id);
    if (!sp) {
        err_set(err, cap, "sector.json: registered_proof_id %u is not a seal proof", seal_id);
        return NULL;
    }
    for (unsigned id = 0; id < FC_SECTOR_SIZES; id++) {
        const fc_update_proof *p = fc_update_proof_by_id(id);
        if (p && p->sector_size == sp->shape->sector_size) {
            if (p->sector_size > (512ull << 20))
                break;
            return p;
        }
    }
    err_set(err, cap, "%s sectors: the update step holds everything in memory (up to 512MiB)",
            sp->shape->size_name);
    return NULL;
}

/* The padded new data: a file, a random seed, or zeros. */
static uint8_t *new_data(const fc_seal_snap_opts *o, uint64_t sector_size, char *err, size_t cap) {
    const uint64_t raw_cap = fc_fr32_unpadded_size(sector_size);
    uint8_t *raw = calloc(1, raw_cap + 1);
    size_t n = 0;
    if (!raw) {
        err_set(err, cap, "out of memory");
        return NULL;
    }
    if (o->data_file) {
        FILE *f = fopen(o->data_file, "rb");
        if (!f) {
            err_set(err, cap, "cannot read %s: %s", o->data_file, strerror(errno));
            free(raw);
            return NULL;
        }
        n = fread(raw, 1, raw_cap + 1, f);
        fclose(f);
        if (n > raw_cap) {
            err_set(err, cap, "%s holds more than the %" PRIu64 " bytes the sector takes",
                    o->data_file, raw_cap);
            free(raw);
            return NULL;
        }
    } else if (o->random_seed) {
        fc_seal_random_bytes(raw, raw_cap, *o->random_seed);
        n = raw_cap;
    }
    uint8_t *padded = fc_seal_pad_sector(raw, n, sector_size);
    free(raw);
    if (!padded)
        err_set(err, cap, "out of memory");
    return padded;
}

static int write_json(const char *dir, const fc_seal_snap_result *r, char *err, size_t cap) {
    const uint8_t *v[6] = {r->comm_c,     r->comm_r_last_old, r->comm_r_last_new,
                           r->comm_r_old, r->comm_d_new,      r->comm_r_new};
    char h[6][65];
    for (int i = 0; i < 6; i++)
        hex_encode(h[i], v[i], 32);
    const fc_update_proof *p = r->proof;
    char files[16 * 16] = "";
    size_t used = 0;
    for (unsigned k = 0; k < p->partitions; k++)
        used += (size_t)snprintf(files + used, sizeof files - used, "%s\"vanilla-%u\"",
                                 k ? "," : "", k);
    char text[2048];
    int n = snprintf(text, sizeof text,
                     "{\"registered_update_proof\":\"%s\",\"registered_update_proof_id\":%d,"
                     "\"sector_size\":%" PRIu64 ",\"h\":%u,\"partitions\":%u,"
                     "\"vanilla_bytes\":%zu,\"comm_c\":\"%s\",\"comm_r_last_old\":\"%s\","
                     "\"comm_r_last_new\":\"%s\",\"comm_r_old\":\"%s\",\"comm_d_new\":\"%s\","
                     "\"comm_r_new\":\"%s\",\"vanilla_proofs\":[%s]}\n",
                     p->name, p->id, p->sector_size, r->h, p->partitions, r->vanilla_bytes, h[0],
                     h[1], h[2], h[3], h[4], h[5], files);
    return write_out(dir, "snap.json", text, (size_t)n, err, cap);
}

int fc_seal_snap_write_proofs(fc_seal_snap_result *r, const char *dir, const fc_snap_trees *t,
                              char *err, size_t cap) {
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return err_set(err, cap, "cannot create %s: %s", dir, strerror(errno));
    for (unsigned k = 0; k < r->proof->partitions; k++) {
        uint8_t *buf;
        size_t len;
        char name[32];
        if (fc_snap_vanilla_write(&buf, &len, t, k, err, cap) != 0)
            return -1;
        snprintf(name, sizeof name, "vanilla-%u", k);
        int w = write_out(dir, name, buf, len, err, cap);
        free(buf);
        if (w)
            return -1;
        r->vanilla_bytes = len;
    }
    return write_json(dir, r, err, cap);
}

/* comm_r = Poseidon2(comm_c, comm_r_last). */
static int comm_r_of(uint8_t out[32], const uint8_t comm_c[32], const uint8_t last[32]) {
    fr in[2], h;
    if (!fr_from_bytes_le(&in[0], comm_c) || !fr_from_bytes_le(&in[1], last) ||
        poseidon_hash(&h, in, 2) != 0)
        return -1;
    fr_to_bytes_le(out, &h);
    return 0;
}

int fc_seal_snap(fc_seal_snap_result *r, const fc_seal_snap_opts *o, char *err, size_t cap) {
    memset(r, 0, sizeof *r);
    unsigned seal_id = 0;
    uint8_t comm_r[32], check[32];
    if (read_sector_json(o->sector_dir, &seal_id, comm_r, err, cap) != 0)
        return -1;
    const fc_update_proof *p = update_proof_for(seal_id, err, cap);
    if (!p)
        return -1;
    r->proof = p;
    const size_t nb = (size_t)p->nodes * 32;
    uint8_t *aux = read_exact(o->sector_dir, "p_aux", 64, err, cap);
    uint8_t *old = aux ? read_exact(o->sector_dir, "sealed", nb, err, cap) : NULL;
    uint8_t *data = old ? new_data(o, p->sector_size, err, cap) : NULL;
    uint8_t *replica = data ? malloc(nb) : NULL;
    fc_snap_update u;
    memset(&u, 0, sizeof u);
    int rc = -1;
    if (!replica) {
        if (data)
            err_set(err, cap, "out of memory");
        goto done;
    }
    memcpy(r->comm_c, aux, 32);
    memcpy(r->comm_r_last_old, aux + 32, 32);
    if (comm_r_of(check, r->comm_c, r->comm_r_last_old) != 0 || memcmp(check, comm_r, 32) != 0) {
        err_set(err, cap, "%s: Poseidon2(comm_c, comm_r_last) of p_aux is not sector.json's comm_r",
                o->sector_dir);
        goto done;
    }
    if (fc_snap_update_build(&u, p, o->h, r->comm_c, old, data, replica, err, cap) != 0)
        goto done;
    if (memcmp(u.root_r_old, r->comm_r_last_old, 32) != 0) {
        err_set(err, cap, "%s/sealed: its tree R root is not p_aux's comm_r_last", o->sector_dir);
        goto done;
    }
    r->h = u.h;
    memcpy(r->comm_r_last_new, u.root_r_new, 32);
    memcpy(r->comm_r_old, u.comm_r_old, 32);
    memcpy(r->comm_d_new, u.comm_d_new, 32);
    memcpy(r->comm_r_new, u.comm_r_new, 32);
    if (mkdir(o->out_dir, 0755) != 0 && errno != EEXIST) {
        err_set(err, cap, "cannot create %s: %s", o->out_dir, strerror(errno));
        goto done;
    }
    if (write_out(o->out_dir, "update", replica, nb, err, cap) ||
        write_out(o->out_dir, "update-data", data, nb, err, cap))
        goto done;
    fc_snap_trees trees;
    fc_snap_update_trees(&trees, &u);
    rc = fc_seal_snap_write_proofs(r, o->out_dir, &trees, err, cap);
done:
    fc_snap_update_free(&u);
    free(aux);
    free(old);
    free(data);
    free(replica);
    return rc;
}
