/* The switch registry (see switches.h).  The table below is the one list of
 * optimization switches; the code that a switch steers reads it with
 * switch_get() where the choice is made. */
#include "util/switches.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/err.h"

static const switch_info TABLE[SW_COUNT] = {
    [SW_FIELD_ASM] = {"field_asm", "CUZK_FIELD_ASM",
                      "Fp/Fr multiply and add/sub in MULX/ADX assembly (needs BMI2+ADX); off = "
                      "portable C",
                      1, 0, 1, 0, 1},
    [SW_POSEIDON_REPLAY] = {"poseidon_replay", "CUZK_POSEIDON_REPLAY",
                            "Poseidon gadget replays a recorded constraint template instead of "
                            "building each linear combination",
                            1, 0, 1, 0, 1},
    [SW_GPU_MSM_WINDOW] = {"gpu_msm_window", "CUZK_MSM_WINDOW",
                           "CUDA MSM window bits (0 = chosen from the size)", 0, 8, 24, 1, 0},
    [SW_GPU_SRS_SETS] = {"gpu_srs_sets", "CUZK_GPU_SRS_SETS",
                         "CUDA backend: parameter sets kept resident in device memory (LRU)", 4, 1,
                         16, 0, 0},
    [SW_GPU_MSM_RED_LEVELS] = {"gpu_msm_red_levels", "CUZK_GPU_MSM_RED_LEVELS",
                               "CUDA MSM: the bucket reduction in levels of in-place suffix sums "
                               "and plain sums, two points live per thread (1: from 2^18 buckets "
                               "on, 2: always; 0: running sum and total in one kernel, three live "
                               "points, parts weighted by a double-and-add)",
                               1, 0, 2, 0, 0},
    [SW_GPU_STAGE_THREADS] = {"gpu_stage_threads", "CUZK_GPU_STAGE_THREADS",
                              "CUDA backend: the most host threads copying a proof's inputs into "
                              "the pinned pool, out of the proof's own (1: one memcpy at a time, "
                              "the old way; 0: all of the proof's threads)",
                              8, 0, 256, 0, 0},
    [SW_GPU_MSM_RED_PART] = {"gpu_msm_red_part", "CUZK_GPU_MSM_RED_PART",
                             "CUDA MSM bucket reduction: log2 of the buckets each thread sums at "
                             "the first level (0: from the size, about 2^16 threads in all)",
                             0, 1, 10, 1, 0},
    [SW_PCE] = {"pce", "CUZK_PCE",
                "synthesis: the witness only, then a, b, c from the circuit's recorded matrices "
                "(docs/PCE.md), on all of the partition's threads (0: classic synthesis, every "
                "constraint built and evaluated, one thread)",
                1, 0, 1, 0, 1},
    [SW_GPU_ABC] = {"gpu_abc", "CUZK_GPU_ABC",
                    "CUDA backend with pce: the witness sent compactly (bits as bitmaps) and a, b, "
                    "c evaluated from the recorded matrices resident on the GPU (0: a, b, c on the "
                    "host and copied over)",
                    1, 0, 1, 0, 1},
    [SW_PARAMS_HOST] = {"params_host", "CUZK_PARAMS_HOST",
                        "parameter points in host memory: 0 = unless every prover keeps its own "
                        "copy (a GPU's), 1 = always, 2 = never (each reader decodes the file a "
                        "chunk at a time)",
                        0, 1, 2, 1, 0},
    [SW_GPU_MSM_PIECE] = {"gpu_msm_piece", "CUZK_GPU_MSM_PIECE",
                          "CUDA MSM: the most scalars one piece takes, the pieces' sums added (0: "
                          "as many as the device's free memory holds the working set of)",
                          0, 64, 0x7fffffff, 1, 0},
};

static _Atomic long values[SW_COUNT];
static void (*_Atomic watchers[SW_COUNT])(long);
static pthread_once_t once = PTHREAD_ONCE_INIT;

const switch_info *switch_describe(switch_id id) {
    return (unsigned)id < SW_COUNT ? &TABLE[id] : NULL;
}

static int in_range(const switch_info *s, long v) {
    return (v >= s->min && v <= s->max) || (s->zero_auto && v == 0);
}

static void allowed_text(char *out, size_t cap, const switch_info *s) {
    if (s->is_bool)
        snprintf(out, cap, "0/1, on/off, true/false or yes/no");
    else if (s->zero_auto)
        snprintf(out, cap, "0 (automatic) or %ld..%ld", s->min, s->max);
    else
        snprintf(out, cap, "%ld..%ld", s->min, s->max);
}

int switch_parse_value(switch_id id, const char *text, long *value, char *err, size_t cap) {
    const switch_info *s = switch_describe(id);
    if (!s)
        return err_set(err, cap, "no switch number %d", (int)id);
    static const char *const on[] = {"1", "on", "true", "yes"}, *const off[] = {"0", "off", "false",
                                                                                "no"};
    long v = 0;
    int ok = 0;
    if (s->is_bool) {
        for (size_t i = 0; i < 4 && !ok; i++) {
            if (strcasecmp(text, on[i]) == 0)
                v = 1, ok = 1;
            else if (strcasecmp(text, off[i]) == 0)
                v = 0, ok = 1;
        }
    } else if (*text) {
        char *end;
        errno = 0;
        v = strtol(text, &end, 10);
        ok = !*end && errno == 0;
    }
    if (!ok || !in_range(s, v)) {
        char allowed[64];
        allowed_text(allowed, sizeof allowed, s);
        return err_set(err, cap, "switch %s: bad value \"%s\" (allowed: %s)", s->name, text,
                       allowed);
    }
    *value = v;
    return 0;
}

/* Initial values: the environment where it names a valid value; a bad one is
 * reported once and the default kept. */
static void init_values(void) {
    for (int i = 0; i < SW_COUNT; i++) {
        const switch_info *s = &TABLE[i];
        long v = s->def;
        const char *env = getenv(s->env);
        if (env && *env) {
            char err[160];
            if (switch_parse_value((switch_id)i, env, &v, err, sizeof err)) {
                fprintf(stderr, "cuzk: ignoring %s=%s: %s\n", s->env, env, err);
                v = s->def;
            }
        }
        atomic_store(&values[i], v);
    }
}

long switch_get(switch_id id) {
    pthread_once(&once, init_values);
    return (unsigned)id < SW_COUNT ? atomic_load_explicit(&values[id], memory_order_relaxed) : 0;
}

int switch_find(const char *name) {
    for (int i = 0; i < SW_COUNT; i++)
        if (strcmp(TABLE[i].name, name) == 0)
            return i;
    return -1;
}

int switch_set(switch_id id, long value, char *err, size_t cap) {
    const switch_info *s = switch_describe(id);
    pthread_once(&once, init_values);
    if (!s || !in_range(s, value)) {
        char allowed[64] = "";
        if (s)
            allowed_text(allowed, sizeof allowed, s);
        return err_set(err, cap, "switch %s: value %ld out of range (allowed: %s)",
                       s ? s->name : "(unknown)", value, allowed);
    }
    atomic_store(&values[id], value);
    void (*fn)(long) = atomic_load(&watchers[id]);
    if (fn)
        fn(value);
    return 0;
}

void switch_watch(switch_id id, void (*fn)(long value)) {
    if ((unsigned)id >= SW_COUNT)
        return;
    atomic_store(&watchers[id], fn);
    if (fn)
        fn(switch_get(id));
}

int switch_parse_list(switch_assignments *out, const char *list, char *err, size_t cap) {
    memset(out, 0, sizeof *out);
    if (!list || !*list || strcmp(list, "default") == 0)
        return 0;
    char buf[1024];
    if (strlen(list) >= sizeof buf)
        return err_set(err, cap, "switch list longer than %zu characters", sizeof buf - 1);
    snprintf(buf, sizeof buf, "%s", list);
    char *save = NULL;
    for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        if (!eq || eq == item)
            return err_set(err, cap, "\"%s\" is not NAME=VALUE", item);
        *eq = 0;
        int id = switch_find(item);
        if (id < 0)
            return err_set(err, cap, "unknown switch \"%s\" (`cuzk bench ab --list` lists them)",
                           item);
        for (size_t k = 0; k < out->n; k++)
            if (out->id[k] == (switch_id)id)
                return err_set(err, cap, "switch %s given twice", item);
        long v;
        if (switch_parse_value((switch_id)id, eq + 1, &v, err, cap))
            return -1;
        out->id[out->n] = (switch_id)id;
        out->value[out->n++] = v;
    }
    return 0;
}

void switch_save(switch_snapshot *out) {
    for (int i = 0; i < SW_COUNT; i++)
        out->value[i] = switch_get((switch_id)i);
}

void switch_restore(const switch_snapshot *s) {
    char err[160];
    for (int i = 0; i < SW_COUNT; i++)
        if (switch_get((switch_id)i) != s->value[i])
            (void)switch_set((switch_id)i, s->value[i], err, sizeof err);
}

void switch_apply(const switch_assignments *a) {
    char err[160];
    for (size_t k = 0; k < a->n; k++)
        (void)switch_set(a->id[k], a->value[k], err, sizeof err);
}

void switch_format(char *out, size_t cap, switch_id id, long value) {
    const switch_info *s = switch_describe(id);
    if (s && s->is_bool)
        snprintf(out, cap, "%s", value ? "on" : "off");
    else
        snprintf(out, cap, "%ld", value);
}
