/* The optimization switches: one registry for every on/off (or numeric)
 * choice that has a reference path beside its fast path, so that both sides
 * can run in one binary (DESIGN.md s.6) and `cuzk bench ab` can flip them
 * between runs without re-executing.
 *
 * Each switch has a name (what `cuzk bench ab --a name=value` takes), the
 * environment variable that sets its initial value (read once, at first
 * use), a default and an allowed range.  Code reads the value at the point
 * of use with switch_get(); a layer that caches a decision (the field's
 * assembly flag) registers a watcher that is called on every change.
 *
 * Thread safety: values are atomics; switch_get is safe anywhere.  Changing
 * a switch while proofs run is allowed but which of them see the new value
 * is unspecified: the A/B runner changes them only between runs. */
#ifndef CUZK_UTIL_SWITCHES_H
#define CUZK_UTIL_SWITCHES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    SW_FIELD_ASM = 0,      /* Fp/Fr MULX/ADX assembly (when the CPU has it) */
    SW_POSEIDON_REPLAY,    /* recorded Poseidon constraint template in proving mode */
    SW_GPU_MSM_WINDOW,     /* CUDA MSM window bits; 0 = from the size */
    SW_GPU_SRS_SETS,       /* CUDA backend: parameter sets kept resident on the device */
    SW_GPU_MSM_RED_LEVELS, /* CUDA MSM: bucket reduction in levels, two live points a thread */
    SW_GPU_STAGE_THREADS,  /* CUDA backend: most host threads filling the pinned pool */
    SW_GPU_MSM_RED_PART,   /* CUDA MSM reduction: log2 buckets per thread at level 1; 0 = auto */
    SW_PCE,                /* synthesis through the pre-compiled constraint evaluator */
    SW_GPU_ABC,            /* CUDA backend: a, b, c from the recorded matrices on the GPU */
    SW_PARAMS_HOST,        /* parameter points decoded into host memory (else read from the file) */
    SW_GPU_MSM_PIECE,      /* CUDA MSM: most scalars a piece takes; 0 = what free memory holds */
    SW_COUNT
} switch_id;

typedef struct {
    const char *name; /* "field_asm" */
    const char *env;  /* "CUZK_FIELD_ASM" */
    const char *desc;
    long def;
    long min, max; /* allowed values; booleans are 0..1 */
    int zero_auto; /* 1: 0 is also allowed (means "automatic") */
    int is_bool;   /* values may be written 0/1/on/off/true/false/yes/no */
} switch_info;

/* The switch's static description; NULL when id is out of range. */
const switch_info *switch_describe(switch_id id);

/* The current value (the environment's on first use, else the default). */
long switch_get(switch_id id);

/* The id of a name, or -1 when no switch has that name. */
int switch_find(const char *name);

/* Sets a value after checking its range.  0, or -1 with a message naming
 * the switch and the allowed values in err. */
int switch_set(switch_id id, long value, char *err, size_t cap);

/* Parses a value for switch id ("1", "off", "12", ...).  0, or -1 with a
 * message in err. */
int switch_parse_value(switch_id id, const char *text, long *value, char *err, size_t cap);

/* Called with the new value on every switch_set of id (and once now with
 * the current value).  One watcher per switch; a second replaces the first. */
void switch_watch(switch_id id, void (*fn)(long value));

/* A parsed "name=value,name=value" list (at most SW_COUNT entries, each
 * switch at most once). */
typedef struct {
    size_t n;
    switch_id id[SW_COUNT];
    long value[SW_COUNT];
} switch_assignments;

/* Parses a list; "" or "default" is the empty list.  0, or -1 with a message
 * naming the unknown switch, the bad value or the repeated name. */
int switch_parse_list(switch_assignments *out, const char *list, char *err, size_t cap);

/* All current values, and setting them back (for runs that must start from
 * the same state). */
typedef struct {
    long value[SW_COUNT];
} switch_snapshot;

void switch_save(switch_snapshot *out);
void switch_restore(const switch_snapshot *s);

/* Applies a list on top of the current values (already range-checked). */
void switch_apply(const switch_assignments *a);

/* Writes the value as the list syntax takes it ("on"/"off" or a number). */
void switch_format(char *out, size_t cap, switch_id id, long value);

#ifdef __cplusplus
}
#endif
#endif
