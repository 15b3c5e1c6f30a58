/* Reading a parameter set's points where they are: in memory or, for a
 * file-backed set, from the mapped file a range at a time (params.h). */
#include "groth16/params.h"

#include <sys/mman.h>
#include <unistd.h>

size_t groth16_params_data_chunk(const groth16_params_data *d) {
    size_t c = d->file_chunk ? d->file_chunk : GROTH16_PARAMS_CHUNK;
    return c < 64 ? 64 : (c + 63) / 64 * 64; /* CPU chunks split density words */
}

int groth16_params_data_on_host(const groth16_params_data *d) {
    return d->h && d->l && d->a && d->b_g1 && d->b_g2;
}

void groth16_params_drop_pages(const groth16_params *p, groth16_section sec, size_t start,
                               size_t count) {
    long page = sysconf(_SC_PAGESIZE);
    if (!p || !p->map || page <= 0 || !count)
        return;
    const groth16_section_layout *L = &p->layout.sec[sec];
    uint64_t lo = L->offset + start * L->point_bytes, hi = lo + count * L->point_bytes;
    lo = (lo + (uint64_t)page - 1) / (uint64_t)page * (uint64_t)page;
    hi = hi / (uint64_t)page * (uint64_t)page;
    if (hi > lo)
        madvise((uint8_t *)p->map + lo, hi - lo, MADV_DONTNEED);
}

static const g1_affine *own_g1(const groth16_params_data *d, groth16_section sec) {
    switch (sec) {
    case GROTH16_SEC_H:
        return d->h;
    case GROTH16_SEC_L:
        return d->l;
    case GROTH16_SEC_A:
        return d->a;
    default:
        return d->b_g1;
    }
}

const g1_affine *groth16_params_data_g1(const groth16_params_data *d, groth16_section sec,
                                        size_t start, size_t count, g1_affine *buf,
                                        unsigned threads, groth16_error *err) {
    if (sec == GROTH16_SEC_B_G2) {
        groth16_fail(err, GROTH16_ERR_ARG, "params: b_g2 is not a G1 section");
        return NULL;
    }
    const g1_affine *own = own_g1(d, sec);
    if (own)
        return own + start;
    if (!d->file) {
        groth16_fail(err, GROTH16_ERR_ARG, "params: %s is neither in memory nor in a file",
                     groth16_section_name(sec));
        return NULL;
    }
    if (groth16_params_read_g1(d->file, sec, start, count, buf, GROTH16_CHECK_CURVE, threads,
                               err) != GROTH16_OK)
        return NULL;
    groth16_params_drop_pages(d->file, sec, start, count);
    return buf;
}

const g2_affine *groth16_params_data_g2(const groth16_params_data *d, size_t start, size_t count,
                                        g2_affine *buf, unsigned threads, groth16_error *err) {
    if (d->b_g2)
        return d->b_g2 + start;
    if (!d->file) {
        groth16_fail(err, GROTH16_ERR_ARG, "params: b_g2 is neither in memory nor in a file");
        return NULL;
    }
    if (groth16_params_read_g2(d->file, GROTH16_SEC_B_G2, start, count, buf, GROTH16_CHECK_CURVE,
                               threads, err) != GROTH16_OK)
        return NULL;
    groth16_params_drop_pages(d->file, GROTH16_SEC_B_G2, start, count);
    return buf;
}
