/* The engine's pce tiers (engine/pce.h) under a small memory budget, on two
 * toy circuits whose .pce files are recorded into the parameter cache on
 * first use: with room for one pce only, taking the second unmaps the idle
 * first (the budget never passed); a pce in use is never unmapped, so the
 * other one is refused (classic synthesis) while it is held; an unmapped pce
 * maps again from its file and evaluates as before; a file changed while
 * unmapped is validated fully again and refused when corrupt. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cli/toy_circuits.h"
#include "engine/engine_internal.h"
#include "engine/pce.h"
#include "engine/providers.h"
#include "util/switches.h"

static char dir[64];

static cuzk_engine *engine(uint64_t budget) {
    cuzk_engine_config c;
    cuzk_engine_config_defaults(&c);
    snprintf(c.param_cache, sizeof c.param_cache, "%s", dir);
    c.memory_budget = budget;
    c.synthesis_threads = 2;
    c.gpu_threads = 1;
    c.use_gpu = 0;
    char err[CUZK_ERROR_LEN];
    cuzk_engine *e = cuzk_engine_new(&c, err);
    CHECK(e != NULL);
    if (!e)
        return NULL;
    CHECK(cuzk_engine_register_circuit(e, "toy-a", "toy-a") == CUZK_OK);
    CHECK(cuzk_engine_register_circuit(e, "toy-b", "toy-b") == CUZK_OK);
    return e;
}

static engine_pce *entry(cuzk_engine *e, const char *id) {
    for (engine_pce *p = e->pces; p; p = p->next)
        if (strcmp(p->circuit_id, id) == 0)
            return p;
    return NULL;
}

/* a/b/c of the toy with values, by classic synthesis and through p */
static void evaluates(const r1cs_pce *p, toy_circuit *t) {
    r1cs_cs *cs = r1cs_cs_new(R1CS_PROVE, 0, NULL);
    r1cs_partition classic, q;
    CHECK(r1cs_synthesize(cs, t->fn, t) == R1CS_OK && r1cs_take_partition(cs, &classic) == 0);
    r1cs_cs_free(cs);
    fr *in = malloc(classic.num_inputs * sizeof(fr)), *aux = malloc(classic.num_aux * sizeof(fr));
    memcpy(in, classic.input, classic.num_inputs * sizeof(fr));
    memcpy(aux, classic.aux, classic.num_aux * sizeof(fr));
    char err[256];
    CHECK(pce_partition(p, in, aux, 2, &q, err, sizeof err) == 0);
    CHECK(q.num_constraints == classic.num_constraints);
    if (q.num_constraints == classic.num_constraints) {
        CHECK_MEM(q.a, classic.a, q.num_constraints * sizeof(fr));
        CHECK_MEM(q.c, classic.c, q.num_constraints * sizeof(fr));
    }
    r1cs_partition_free(&q);
    r1cs_partition_free(&classic);
}

int main(void) {
    check_seed("test_engine_pce_tiers");
    char err[256], why[128];
    CHECK(switch_set(SW_PCE, 1, err, sizeof err) == 0);
    snprintf(dir, sizeof dir, "/tmp/cuzk-pce-tiers-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    toy_circuit ta, tb;
    CHECK(toy_circuit_parse(&ta, "random:30000:5", why, sizeof why) == 0);
    CHECK(toy_circuit_parse(&tb, "random:20000:6", why, sizeof why) == 0);
    engine_plan pa = {.blank = ta.fn, .blank_arg = &ta}, pb = {.blank = tb.fn, .blank_arg = &tb};
    snprintf(pa.circuit_id, sizeof pa.circuit_id, "toy-a");
    snprintf(pb.circuit_id, sizeof pb.circuit_id, "toy-b");
    unsigned t;

    /* a large budget: both recorded into the cache and held */
    cuzk_engine *e = engine(1ull << 30);
    if (!e)
        return check_finish();
    const r1cs_pce *a = engine_pce_get(e, &pa, &t), *b = engine_pce_get(e, &pb, &t);
    CHECK(a && b);
    engine_pce_put(e, a);
    engine_pce_put(e, b);
    const uint64_t ab = entry(e, "toy-a")->bytes, bb = entry(e, "toy-b")->bytes;
    CHECK(ab > 0 && bb > 0 && e->mem.pce_bytes == ab + bb);
    cuzk_engine_free(e);

    /* room for one of them */
    const uint64_t budget = (ab > bb ? ab : bb) + (ab < bb ? ab : bb) / 2;
    e = engine(budget);
    if (!e)
        return check_finish();
    a = engine_pce_get(e, &pa, &t);
    CHECK(a != NULL && entry(e, "toy-a")->state == ENGINE_PCE_READY);
    engine_pce_put(e, a);
    b = engine_pce_get(e, &pb, &t); /* a is idle: unmapped to make room */
    CHECK(b != NULL);
    engine_pce *ea = entry(e, "toy-a"), *eb = entry(e, "toy-b");
    CHECK(ea->state == ENGINE_PCE_UNMAPPED && ea->unmaps == 1);
    CHECK(e->mem.pce_bytes == bb && mem_used(&e->mem) <= budget);
    /* b in use: a does not fit, classic synthesis (NULL), nothing unmapped */
    CHECK(engine_pce_get(e, &pa, &t) == NULL);
    CHECK(ea->state == ENGINE_PCE_UNMAPPED && eb->state == ENGINE_PCE_READY && eb->unmaps == 0);
    engine_pce_put(e, b);
    /* b idle: a maps again (cheaply, the same file), b unmapped */
    a = engine_pce_get(e, &pa, &t);
    CHECK(a != NULL && ea->remaps == 1 && eb->state == ENGINE_PCE_UNMAPPED && eb->unmaps == 1);
    CHECK(e->mem.pce_bytes == ab && e->mem.peak_used <= budget);
    if (a)
        evaluates(a, &ta);
    engine_pce_put(e, a);
    /* b's file changed while unmapped (one byte of DICT, its checksum fails):
     * validated fully again and refused */
    char path[256];
    snprintf(path, sizeof path, "%s/toy-b.pce", dir);
    int fd = open(path, O_RDWR);
    CHECK(fd >= 0);
    unsigned char byte = 0;
    CHECK(pread(fd, &byte, 1, 4096 + 40) == 1);
    byte ^= 0x40;
    CHECK(pwrite(fd, &byte, 1, 4096 + 40) == 1);
    close(fd);
    struct timespec ts[2] = {{0, UTIME_NOW}, {12345, 0}}; /* the mtime surely differs */
    CHECK(utimensat(AT_FDCWD, path, ts, 0) == 0);
    CHECK(engine_pce_get(e, &pb, &t) == NULL);
    CHECK(eb->state == ENGINE_PCE_FAILED && eb->remaps == 0);
    /* a (idle) made room for the attempt; b's bytes were handed back */
    CHECK(e->mem.pce_bytes == 0 && ea->unmaps == 2 && mem_used(&e->mem) == e->mem.srs_bytes);
    cuzk_engine_free(e);

    unlink(path);
    snprintf(path, sizeof path, "%s/toy-a.pce", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/toy-a.pce.lock", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/toy-b.pce.lock", dir);
    unlink(path);
    CHECK(rmdir(dir) == 0);
    return check_finish();
}
