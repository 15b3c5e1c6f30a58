/* The SRS manager (see srs.h). */
#include "engine/srs.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "filecoin/param_digest.h"
#include "util/slog.h"
#include "util/timing.h"

void srs_init(srs_manager *m, const char *cache_dir, const srs_env *env) {
    memset(m, 0, sizeof *m);
    snprintf(m->cache_dir, sizeof m->cache_dir, "%s", cache_dir);
    m->env = *env;
    m->decode_threads = 1;
}

static double clock_ms(const srs_manager *m) {
    return m->env.now_ms ? m->env.now_ms(m->env.ctx) : timing_now_ms();
}

static void forget(srs_manager *m, srs_set *s) {
    if (m->env.forget)
        m->env.forget(m->env.ctx, &s->data);
}

static void free_points(srs_set *s) {
    free(s->h);
    free(s->l);
    free(s->a);
    free(s->b1);
    free(s->b2);
    s->h = s->l = s->a = s->b1 = NULL;
    s->b2 = NULL;
    memset(&s->data, 0, sizeof s->data);
}

static void close_file(srs_set *s) {
    free_points(s);
    groth16_pvk_free(&s->pvk);
    groth16_params_close(&s->gp);
    memset(&s->gp, 0, sizeof s->gp);
    memset(&s->pvk, 0, sizeof s->pvk);
}

void srs_free(srs_manager *m) {
    for (srs_set *s = m->sets, *next; s; s = next) {
        next = s->next;
        forget(m, s);
        close_file(s);
        free(s);
    }
    for (srs_name *n = m->names, *next; n; n = next) {
        next = n->next;
        free(n);
    }
    memset(m, 0, sizeof *m);
}

cuzk_status srs_register(srs_manager *m, const char *circuit_id, const char *stem) {
    if (!circuit_id || !*circuit_id || strlen(circuit_id) >= ENGINE_CIRCUIT_ID_LEN || !stem ||
        !*stem || strlen(stem) >= sizeof(((srs_name *)0)->stem) || strchr(stem, '/'))
        return CUZK_E_INVALID;
    for (srs_set *s = m->sets; s; s = s->next)
        if (strcmp(s->circuit_id, circuit_id) == 0 && (s->tier != SRS_COLD || s->loading))
            return CUZK_E_INVALID; /* renaming a loaded set would orphan its file */
    srs_name *n = NULL;
    for (n = m->names; n; n = n->next)
        if (strcmp(n->circuit_id, circuit_id) == 0)
            break;
    if (!n) {
        if (!(n = calloc(1, sizeof *n)))
            return CUZK_E_INTERNAL;
        snprintf(n->circuit_id, sizeof n->circuit_id, "%s", circuit_id);
        n->next = m->names;
        m->names = n;
    }
    snprintf(n->stem, sizeof n->stem, "%s", stem);
    for (srs_set *s = m->sets; s; s = s->next) /* a cold set picks up the new name */
        if (strcmp(s->circuit_id, circuit_id) == 0)
            snprintf(s->path, sizeof s->path, "%s/%s.params", m->cache_dir, stem);
    return CUZK_OK;
}

/* The registered file stem of a circuit id (circuit_provider.h: the Filecoin
 * ones come from engine/providers.c), NULL if there is none. */
static const char *stem_of(const srs_manager *m, const char *id) {
    for (const srs_name *n = m->names; n; n = n->next)
        if (strcmp(n->circuit_id, id) == 0)
            return n->stem;
    return NULL;
}

srs_set *srs_lookup(srs_manager *m, const char *circuit_id, cuzk_status *st,
                    char err[CUZK_ERROR_LEN]) {
    for (srs_set *s = m->sets; s; s = s->next)
        if (strcmp(s->circuit_id, circuit_id) == 0)
            return s;
    const char *stem = stem_of(m, circuit_id);
    if (!stem || strlen(circuit_id) >= ENGINE_CIRCUIT_ID_LEN) {
        *st = CUZK_E_NOT_FOUND;
        snprintf(err, CUZK_ERROR_LEN, "srs: unknown circuit id \"%.64s\"", circuit_id);
        return NULL;
    }
    srs_set *s = calloc(1, sizeof *s);
    if (!s) {
        *st = CUZK_E_INTERNAL;
        snprintf(err, CUZK_ERROR_LEN, "srs: out of memory");
        return NULL;
    }
    snprintf(s->circuit_id, sizeof s->circuit_id, "%s", circuit_id);
    snprintf(s->path, sizeof s->path, "%s/%s.params", m->cache_dir, stem);
    s->tier = SRS_COLD;
    s->next = m->sets;
    m->sets = s;
    return s;
}

/* COLD -> WARM without the lock: map, parse, prepare the vk. */
/* The published-digest check, once per set (a whole read of the file). */
static cuzk_status check_digest(srs_set *s, int trust, char err[CUZK_ERROR_LEN]) {
    if (s->digest_checked)
        return CUZK_OK;
    char why[CUZK_ERROR_LEN] = "";
    double t0 = timing_now_ms();
    fc_param_check_result r = fc_param_check_load(s->path, trust, why, sizeof why);
    if (r == FC_PARAM_MISMATCH || r == FC_PARAM_IO) {
        snprintf(err, CUZK_ERROR_LEN, "srs %.63s: %.440s", s->circuit_id, why);
        return r == FC_PARAM_IO ? CUZK_E_NOT_FOUND : CUZK_E_INTERNAL;
    }
    if (r == FC_PARAM_TEST_ONLY)
        slog(SLOG_WARN, "srs", "circuit_id=%s %s", s->circuit_id, why);
    else if (r == FC_PARAM_VERIFIED)
        slog(SLOG_INFO, "srs", "circuit_id=%s digest matches parameters.json path=%s ms=%.0f",
             s->circuit_id, s->path, timing_now_ms() - t0);
    s->digest_checked = 1;
    return CUZK_OK;
}

/* Without the lock (s->loading is set): the set's file opened and its vk
 * prepared; its sizes go to *points and *hot, which the caller publishes
 * under the lock (budget checks read them at any time). */
static cuzk_status open_warm(srs_set *s, int trust, int file_backed, uint64_t *points,
                             uint64_t *hot, char err[CUZK_ERROR_LEN]) {
    cuzk_status dst = check_digest(s, trust, err);
    if (dst != CUZK_OK)
        return dst;
    groth16_error ge = {0};
    if (groth16_params_open(&s->gp, s->path, &ge) != GROTH16_OK) {
        snprintf(err, CUZK_ERROR_LEN, "srs %.63s: %.200s: %.200s", s->circuit_id, s->path, ge.msg);
        memset(&s->gp, 0, sizeof s->gp);
        return ge.status == GROTH16_ERR_IO ? CUZK_E_NOT_FOUND : CUZK_E_INTERNAL;
    }
    if (groth16_pvk_prepare(&s->pvk, &s->gp.vk, &ge) != GROTH16_OK) {
        snprintf(err, CUZK_ERROR_LEN, "srs %s: vk: %s", s->circuit_id, ge.msg);
        groth16_params_close(&s->gp);
        memset(&s->gp, 0, sizeof s->gp);
        return CUZK_E_INTERNAL;
    }
    const groth16_params_layout *L = &s->gp.layout;
    *points = (uint64_t)(L->sec[GROTH16_SEC_H].count + L->sec[GROTH16_SEC_L].count +
                         L->sec[GROTH16_SEC_A].count + L->sec[GROTH16_SEC_B_G1].count) *
                  sizeof(g1_affine) +
              (uint64_t)L->sec[GROTH16_SEC_B_G2].count * sizeof(g2_affine);
    /* file-backed: a reader's chunk of G1 points and of G2 points */
    size_t g1 = 0, c = GROTH16_PARAMS_CHUNK, nb = L->sec[GROTH16_SEC_B_G2].count;
    for (int k = GROTH16_SEC_H; k < GROTH16_SEC_B_G2; k++)
        g1 = L->sec[k].count > g1 ? L->sec[k].count : g1;
    *hot = !file_backed
               ? *points
               : (g1 < c ? g1 : c) * sizeof(g1_affine) + (nb < c ? nb : c) * sizeof(g2_affine);
    return CUZK_OK;
}

/* Decodes one section in chunks, handing each chunk's file pages back as it
 * goes: the mapped file is not in the budget, so its resident pages must not
 * add up to a second copy of the parameters beside the decoded points. */
#define SRS_DECODE_CHUNK ((size_t)1 << 18)
static int read_section(groth16_params *gp, groth16_section sec, void *out, groth16_check ck,
                        unsigned threads, groth16_error *ge) {
    const groth16_section_layout *L = &gp->layout.sec[sec];
    for (size_t at = 0; at < L->count; at += SRS_DECODE_CHUNK) {
        size_t n = L->count - at < SRS_DECODE_CHUNK ? L->count - at : SRS_DECODE_CHUNK;
        groth16_status st =
            sec == GROTH16_SEC_B_G2
                ? groth16_params_read_g2(gp, sec, at, n, (g2_affine *)out + at, ck, threads, ge)
                : groth16_params_read_g1(gp, sec, at, n, (g1_affine *)out + at, ck, threads, ge);
        if (st != GROTH16_OK)
            return -1;
        groth16_params_drop_pages(gp, sec, at, n);
    }
    return 0;
}

/* WARM -> HOT without the lock.  Points are checked for the curve, the level
 * rust-fil-proofs reads mapped parameters at; every proof is self-verified
 * before it leaves the engine anyway. */
static cuzk_status decode_hot(srs_set *s, unsigned threads, int file_backed,
                              char err[CUZK_ERROR_LEN]) {
    const groth16_params_layout *L = &s->gp.layout;
    size_t nh = L->sec[GROTH16_SEC_H].count, nl = L->sec[GROTH16_SEC_L].count;
    size_t na = L->sec[GROTH16_SEC_A].count, nb = L->sec[GROTH16_SEC_B_G1].count;
    if (file_backed) { /* bad points surface when a prover first reads them */
        groth16_params_data d = {&s->gp.vk, NULL, nh,   NULL, nl,     NULL,
                                 na,        NULL, NULL, nb,   &s->gp, 0};
        s->data = d;
        return CUZK_OK;
    }
    s->h = malloc((nh + 1) * sizeof *s->h);
    s->l = malloc((nl + 1) * sizeof *s->l);
    s->a = malloc((na + 1) * sizeof *s->a);
    s->b1 = malloc((nb + 1) * sizeof *s->b1);
    s->b2 = malloc((nb + 1) * sizeof *s->b2);
    groth16_error ge = {0};
    const groth16_check ck = GROTH16_CHECK_CURVE;
    if (!s->h || !s->l || !s->a || !s->b1 || !s->b2) {
        snprintf(err, CUZK_ERROR_LEN, "srs %s: out of memory decoding parameters", s->circuit_id);
        free_points(s);
        return CUZK_E_INTERNAL;
    }
    if (read_section(&s->gp, GROTH16_SEC_H, s->h, ck, threads, &ge) ||
        read_section(&s->gp, GROTH16_SEC_L, s->l, ck, threads, &ge) ||
        read_section(&s->gp, GROTH16_SEC_A, s->a, ck, threads, &ge) ||
        read_section(&s->gp, GROTH16_SEC_B_G1, s->b1, ck, threads, &ge) ||
        read_section(&s->gp, GROTH16_SEC_B_G2, s->b2, ck, threads, &ge)) {
        snprintf(err, CUZK_ERROR_LEN, "srs %.63s: %.200s: %.200s", s->circuit_id, s->path, ge.msg);
        free_points(s);
        return CUZK_E_INTERNAL;
    }
    groth16_params_data d = {&s->gp.vk, s->h, nh, s->l, nl, s->a, na, s->b1, s->b2, nb, NULL, 0};
    s->data = d;
    return CUZK_OK;
}

static void demote_to_warm(srs_manager *m, srs_set *s) {
    forget(m, s); /* a GPU's resident copy goes too */
    free_points(s);
    mem_put_srs(m->env.mem, s->hot_bytes);
    s->tier = SRS_WARM;
    m->demotions++;
    pthread_cond_broadcast(m->env.cv_mem);
}

int srs_make_room(srs_manager *m, uint64_t need, const srs_set *keep) {
    int young_ok = -1; /* asked once, only when a recently used set is the candidate */
    while (!mem_fits(m->env.mem, need)) {
        srs_set *lru = NULL;
        for (srs_set *s = m->sets; s; s = s->next)
            if (s != keep && s->tier == SRS_HOT && !s->refs && !s->loading &&
                (!lru || s->last_used_ms < lru->last_used_ms))
                lru = s;
        if (!lru)
            return 0;
        if (m->min_idle_ms > 0 && lru->last_used_ms > m->env.now_ms(m->env.ctx) - m->min_idle_ms) {
            if (young_ok < 0)
                young_ok = !m->env.can_release || !m->env.can_release(m->env.ctx);
            if (!young_ok)
                return 0; /* running work will free memory: wait for it instead */
        }
        demote_to_warm(m, lru);
    }
    return 1;
}

cuzk_status srs_acquire(srs_manager *m, srs_set *s, uint64_t also, uint64_t keep_free, int wait,
                        double *load_ms, char err[CUZK_ERROR_LEN]) {
    double t0 = timing_now_ms();
    *load_ms = 0;
    for (;;) {
        if (s->loading) {
            pthread_cond_wait(m->env.cv_mem, m->env.mu);
            continue;
        }
        if (s->tier == SRS_COLD) {
            s->loading = 1;
            pthread_mutex_unlock(m->env.mu);
            uint64_t points = 0, hot = 0;
            cuzk_status st = open_warm(s, m->trust_params, m->file_backed, &points, &hot, err);
            pthread_mutex_lock(m->env.mu);
            s->loading = 0;
            if (st == CUZK_OK)
                s->points_bytes = points, s->hot_bytes = hot;
            pthread_cond_broadcast(m->env.cv_mem);
            if (st != CUZK_OK)
                return st;
            s->tier = SRS_WARM;
            continue;
        }
        uint64_t need = also + (s->tier == SRS_HOT ? 0 : s->hot_bytes);
        int running = -1; /* can running work release memory: asked when it matters */
        if (keep_free)
            running = m->env.can_release && m->env.can_release(m->env.ctx);
        if (srs_make_room(m, need + (running > 0 ? keep_free : 0), s))
            break;
        if (need > m->env.mem->budget) {
            snprintf(err, CUZK_ERROR_LEN,
                     "memory budget: %s needs %llu bytes (parameters %llu + one partition group "
                     "%llu), budget is %llu",
                     s->circuit_id, (unsigned long long)need,
                     (unsigned long long)(s->tier == SRS_HOT ? 0 : s->hot_bytes),
                     (unsigned long long)also, (unsigned long long)m->env.mem->budget);
            return CUZK_E_EXHAUSTED;
        }
        if (running < 0)
            running = m->env.can_release && m->env.can_release(m->env.ctx);
        if (!wait || !running) {
            snprintf(err, CUZK_ERROR_LEN,
                     "memory budget: %s needs %llu bytes, %llu of %llu in use by parameters and "
                     "partitions that are in use",
                     s->circuit_id, (unsigned long long)need,
                     (unsigned long long)mem_used(m->env.mem),
                     (unsigned long long)m->env.mem->budget);
            return CUZK_E_EXHAUSTED;
        }
        m->env.mem->waits++;
        pthread_cond_wait(m->env.cv_mem, m->env.mu);
    }
    mem_take_parts(m->env.mem, also);
    s->refs++;
    if (s->tier != SRS_HOT) {
        mem_take_srs(m->env.mem, s->hot_bytes); /* counted from the start of decoding */
        s->loading = 1;
        pthread_mutex_unlock(m->env.mu);
        cuzk_status st = decode_hot(s, m->decode_threads, m->file_backed, err);
        pthread_mutex_lock(m->env.mu);
        s->loading = 0;
        pthread_cond_broadcast(m->env.cv_mem);
        if (st != CUZK_OK) {
            mem_put_srs(m->env.mem, s->hot_bytes);
            mem_put_parts(m->env.mem, also);
            s->refs--;
            return st;
        }
        s->tier = SRS_HOT;
        m->loads++;
        *load_ms = timing_now_ms() - t0;
    }
    s->last_used_ms = clock_ms(m);
    return CUZK_OK;
}

void srs_release(srs_manager *m, srs_set *s) {
    if (s->refs)
        s->refs--;
    s->last_used_ms = clock_ms(m);
    if (!s->refs)
        pthread_cond_broadcast(m->env.cv_mem); /* now evictable */
}

cuzk_status srs_evict(srs_manager *m, srs_set *s, uint64_t *freed) {
    *freed = 0;
    if (s->refs || s->loading)
        return CUZK_E_EXHAUSTED;
    if (s->tier == SRS_HOT) {
        *freed = s->hot_bytes;
        demote_to_warm(m, s);
    }
    close_file(s);
    s->tier = SRS_COLD;
    return CUZK_OK;
}
