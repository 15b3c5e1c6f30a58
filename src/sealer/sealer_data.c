/* Fr32 padding and test data: see sealer_data.h. */
#include "sealer/sealer_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/err.h"

/* Node j of a 128-byte quad starts at raw bit 254*j: byte 254j/8, shift 254j%8. */
static const unsigned quad_byte[4] = {0, 31, 63, 95};
static const unsigned quad_shift[4] = {0, 6, 4, 2};

void fc_fr32_pad(uint8_t *out, const uint8_t *in, size_t quads) {
    for (size_t q = 0; q < quads; q++) {
        const uint8_t *r = in + q * 127;
        uint8_t *o = out + q * 128;
        for (unsigned j = 0; j < 4; j++) {
            unsigned b = quad_byte[j], sh = quad_shift[j];
            for (unsigned k = 0; k < 32; k++) {
                unsigned lo = b + k, hi = b + k + 1;
                unsigned v = lo < 127 ? r[lo] >> sh : 0;
                if (sh && hi < 127)
                    v |= (unsigned)r[hi] << (8 - sh);
                o[32 * j + k] = (uint8_t)v;
            }
            o[32 * j + 31] &= 0x3f;
        }
    }
}

void fc_fr32_unpad(uint8_t *out, const uint8_t *in, size_t quads) {
    for (size_t q = 0; q < quads; q++) {
        const uint8_t *p = in + q * 128;
        uint8_t *r = out + q * 127;
        memset(r, 0, 127);
        for (unsigned j = 0; j < 4; j++) {
            unsigned b = quad_byte[j], sh = quad_shift[j];
            for (unsigned k = 0; k < 32; k++) {
                unsigned v = p[32 * j + k];
                if (k == 31)
                    v &= 0x3f;
                if (b + k < 127)
                    r[b + k] |= (uint8_t)(v << sh);
                if (sh && b + k + 1 < 127)
                    r[b + k + 1] |= (uint8_t)(v >> (8 - sh));
            }
        }
    }
}

void fc_seal_random_bytes_at(uint8_t *out, size_t n, uint64_t seed, uint64_t offset) {
    uint64_t s = seed + (offset / 8) * 0x9e3779b97f4a7c15ULL;
    for (size_t i = 0; i < n; i += 8) {
        uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        for (size_t k = 0; k < 8 && i + k < n; k++)
            out[i + k] = (uint8_t)(z >> (8 * k));
    }
}

void fc_seal_random_bytes(uint8_t *out, size_t n, uint64_t seed) {
    fc_seal_random_bytes_at(out, n, seed, 0);
}

enum { PAD_QUADS = 8192 }; /* 1 MiB padded a step; 127 * 8192 raw bytes is a multiple of 8 */

int fc_seal_pad_stream(int out_fd, FILE *in, const uint64_t *random_seed, uint64_t sector_size,
                       char *err, size_t cap) {
    if (sector_size % 128)
        return err_set(err, cap, "sector size %llu is not a multiple of 128",
                       (unsigned long long)sector_size);
    uint8_t *raw = malloc((size_t)PAD_QUADS * 127), *pad = malloc((size_t)PAD_QUADS * 128);
    int rc = -1;
    if (!raw || !pad) {
        snprintf(err, cap, "out of memory");
        goto out;
    }
    uint64_t quads = sector_size / 128, unpadded = fc_fr32_unpadded_size(sector_size);
    for (uint64_t q = 0; q < quads; q += PAD_QUADS) {
        size_t nq = quads - q < PAD_QUADS ? (size_t)(quads - q) : PAD_QUADS;
        size_t nraw = nq * 127;
        memset(raw, 0, nraw);
        if (in) {
            size_t got = fread(raw, 1, nraw, in);
            if (got < nraw && ferror(in)) {
                snprintf(err, cap, "cannot read the data");
                goto out;
            }
        } else if (random_seed) {
            fc_seal_random_bytes_at(raw, nraw, *random_seed, q * 127);
        }
        fc_fr32_pad(pad, raw, nq);
        const uint8_t *p = pad;
        size_t left = nq * 128;
        off_t off = (off_t)(q * 128);
        while (left) {
            ssize_t w = pwrite(out_fd, p, left, off);
            if (w <= 0) {
                snprintf(err, cap, "cannot write the padded data");
                goto out;
            }
            p += w, left -= (size_t)w, off += w;
        }
    }
    if (in && fgetc(in) != EOF) {
        snprintf(err, cap, "holds more than the %llu bytes the sector takes",
                 (unsigned long long)unpadded);
        goto out;
    }
    rc = 0;
out:
    free(raw);
    free(pad);
    return rc;
}

uint8_t *fc_seal_pad_sector(const uint8_t *raw, size_t raw_len, uint64_t sector_size) {
    if (sector_size % 128 || raw_len > fc_fr32_unpadded_size(sector_size))
        return NULL;
    size_t quads = (size_t)(sector_size / 128);
    uint8_t *full = calloc(quads ? quads : 1, 127);
    uint8_t *out = malloc(sector_size ? sector_size : 1);
    if (!full || !out) {
        free(full);
        free(out);
        return NULL;
    }
    if (raw_len)
        memcpy(full, raw, raw_len);
    fc_fr32_pad(out, full, quads);
    free(full);
    return out;
}
