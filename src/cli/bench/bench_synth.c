/* cuzk bench synth --pce: see bench_synth.h. */
#include "cli/bench/bench_synth.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/circuit_names.h"
#include "filecoin/param_dir.h"
#include "r1cs/pce_cache.h"
#include "util/parallel.h"
#include "util/timing.h"

#define MAX_T 32

typedef struct {
    circuit_name c;
    const char *name, *dir;
    int sides[2], n_sides; /* 1 = pce, 0 = classic, in the order given */
    unsigned threads[MAX_T], n_threads, reps;
} synth_opts;

static const char *usage =
    "usage: cuzk bench synth NAME --pce on|off|on,off [--threads LIST] [--reps R] [--dir D]\n"
    "  classic synthesis (off) and/or PCE witness + SpMV (on), each side and thread count\n"
    "  in a child process: witness ms, SpMV ms, constraints/s, peak RSS.  LIST: 1,2,4,...\n"
    "  (default: all CPUs); D: where NAME's .pce is (recorded there when missing;\n"
    "  default: the parameter cache)\n";

/* VmHWM / VmRSS of this process in KiB, or 0. */
static unsigned long status_kib(const char *key) {
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    char line[256];
    unsigned long v = 0;
    size_t kl = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, kl) == 0 && line[kl] == ':') {
            v = strtoul(line + kl + 1, NULL, 10);
            break;
        }
    fclose(f);
    return v;
}

static double mib_kib(unsigned long k) { return (double)k / 1024.0; }

static int parse_list(synth_opts *o, const char *v) {
    o->n_threads = 0;
    const char *p = v;
    while (*p) {
        char *end;
        long t = strtol(p, &end, 10);
        if (end == p || t < 1 || t > 1024 || o->n_threads == MAX_T || (*end && *end != ','))
            return -1;
        o->threads[o->n_threads++] = (unsigned)t;
        p = *end ? end + 1 : end;
    }
    return o->n_threads ? 0 : -1;
}

static int parse_sides(synth_opts *o, const char *v) {
    o->n_sides = 0;
    if (strcmp(v, "both") == 0)
        v = "off,on";
    const char *p = v;
    while (*p && o->n_sides < 2) {
        size_t n = strcspn(p, ",");
        if (n == 2 && strncmp(p, "on", 2) == 0)
            o->sides[o->n_sides++] = 1;
        else if (n == 3 && strncmp(p, "off", 3) == 0)
            o->sides[o->n_sides++] = 0;
        else
            return -1;
        p += n;
        if (*p == ',')
            p++;
    }
    return *p || o->n_sides == 0 ? -1 : 0;
}

static int parse(synth_opts *o, int argc, char **argv) {
    memset(o, 0, sizeof *o);
    o->reps = 1;
    o->threads[0] = par_cpu_count();
    o->n_threads = 1;
    if (argc < 1)
        return -1;
    o->name = argv[0];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            fprintf(stderr, "cuzk bench synth: %s needs a value\n", a);
            return -1;
        }
        i++;
        if (strcmp(a, "--pce") == 0) {
            if (parse_sides(o, v)) {
                fprintf(stderr, "cuzk bench synth: --pce \"%s\" is not on, off or on,off\n", v);
                return -1;
            }
        } else if (strcmp(a, "--threads") == 0) {
            if (parse_list(o, v)) {
                fprintf(stderr, "cuzk bench synth: --threads \"%s\" is not a list of 1..1024\n", v);
                return -1;
            }
        } else if (strcmp(a, "--reps") == 0) {
            char *end;
            long r = strtol(v, &end, 10);
            if (*end || r < 1 || r > 1000) {
                fprintf(stderr, "cuzk bench synth: --reps \"%s\" is not 1..1000\n", v);
                return -1;
            }
            o->reps = (unsigned)r;
        } else if (strcmp(a, "--dir") == 0) {
            o->dir = v;
        } else {
            fprintf(stderr, "cuzk bench synth: unknown option \"%s\"\n", a);
            return -1;
        }
    }
    if (!o->n_sides) {
        fprintf(stderr, "cuzk bench synth: --pce is needed here\n");
        return -1;
    }
    return circuit_name_parse(&o->c, o->name);
}

static int gen_witness(const circuit_name *c, const void *wp, const r1cs_pce *p, unsigned threads,
                       fr *in, fr *aux, char *err, size_t cap) {
    return circuit_name_witness_generate(c, wp, p->segments, p->n_segments, p->num_inputs,
                                         p->num_aux, threads, in, aux, err, cap);
}

static int blank(r1cs_cs *cs, void *c) { return circuit_name_synthesize(cs, c, NULL); }

/* 2 MiB-aligned memory advised for transparent huge pages, as a partition's. */
static void *huge_alloc(size_t bytes) {
    void *p = NULL;
    if (posix_memalign(&p, (size_t)2 << 20, bytes ? bytes : 1))
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
}

/* The classic side in this (child) process. */
static int run_classic(const synth_opts *o, const void *wp, unsigned long start_kib) {
    for (unsigned rep = 0; rep < o->reps; rep++) {
        double t0 = timing_now_ms();
        r1cs_cs *cs = r1cs_cs_new(R1CS_PROVE, 0, NULL);
        r1cs_partition p;
        if (!cs || circuit_name_synthesize(cs, &o->c, wp) || r1cs_finish(cs) ||
            r1cs_take_partition(cs, &p)) {
            fprintf(stderr, "cuzk bench synth: classic: %s\n",
                    cs ? r1cs_error_message(cs) : "out of memory");
            r1cs_cs_free(cs);
            return 1;
        }
        double ms = timing_now_ms() - t0;
        printf("pce off T=1   rep %u: synthesis %.1f ms (witness and a/b/c together) = %.2f M "
               "constraints/s, peak RSS %.1f MiB (%.1f MiB before)\n",
               rep, ms, 1e-3 * (double)p.num_constraints / ms, mib_kib(status_kib("VmHWM")),
               mib_kib(start_kib));
        fflush(stdout);
        r1cs_partition_free(&p);
        r1cs_cs_free(cs);
    }
    return 0;
}

/* The PCE side on T threads in this (child) process. */
static int run_pce(const synth_opts *o, const void *wp, const char *dir, unsigned T) {
    r1cs_pce p;
    pce_obtain_info info;
    char err[512];
    const char *stem = o->c.stem[0] ? o->c.stem : o->name;
    if (pce_obtain(dir, o->name, stem, blank, (void *)&o->c, NULL, T, &p, &info, err, sizeof err)) {
        fprintf(stderr, "cuzk bench synth: no pce: %s\n", err);
        return 1;
    }
    if (info.built)
        printf("pce                %s %s/%s.pce in %.1f ms\n",
               info.in_memory ? "recorded in memory for" : "recorded into", dir, stem, info.ms);
    uint64_t pce_bytes = p.file_bytes;
    for (unsigned k = 1; !pce_bytes && k <= PCE_SECTIONS; k++) /* recorded: held in memory */
        pce_bytes += pce_section_bytes(&p, k);
    const unsigned long start_kib = status_kib("VmRSS");
    int rc = 0;
    for (unsigned rep = 0; rep < o->reps && rc == 0; rep++) {
        /* fresh vectors every rep, as a partition gets them */
        fr *in = malloc(p.num_inputs * sizeof(fr)), *aux = huge_alloc(p.num_aux * sizeof(fr));
        if (!in || !aux) {
            fprintf(stderr, "cuzk bench synth: out of memory for the witness\n");
            free(in);
            free(aux);
            rc = 1;
            break;
        }
        double t0 = timing_now_ms();
        if (gen_witness(&o->c, wp, &p, T, in, aux, err, sizeof err)) {
            fprintf(stderr, "cuzk bench synth: witness: %s\n", err);
            free(in);
            free(aux);
            rc = 1;
            break;
        }
        double t1 = timing_now_ms();
        r1cs_partition q;
        if (pce_partition(&p, in, aux, T, &q, err, sizeof err)) { /* takes in and aux */
            fprintf(stderr, "cuzk bench synth: SpMV: %s\n", err);
            rc = 1;
            break;
        }
        double t2 = timing_now_ms(), wms = t1 - t0, sms = t2 - t1, ms = t2 - t0;
        printf("pce on  T=%-3u rep %u: witness %.1f ms, SpMV %.1f ms, total %.1f ms = %.2f M "
               "constraints/s, peak RSS %.1f MiB (%.1f MiB before; the pce %.1f MiB)\n",
               T, rep, wms, sms, ms, 1e-3 * (double)q.num_constraints / ms,
               mib_kib(status_kib("VmHWM")), mib_kib(start_kib), (double)p.file_bytes / 1048576.0);
        fflush(stdout);
        r1cs_partition_free(&q);
    }
    pce_free(&p);
    return rc;
}

/* One side at one thread count in a child: the synthetic witness made there,
 * so that VmHWM counts only this run. */
static int child(const synth_opts *o, int side, unsigned T, const char *dir) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "cuzk bench synth: fork: %s\n", strerror(errno));
        return 1;
    }
    if (pid == 0) {
        circuit_witness w;
        if (circuit_name_witness(&w, &o->c, 1)) {
            fprintf(stderr, "cuzk bench synth: out of memory for the witness\n");
            _exit(1);
        }
        const void *wp = circuit_witness_of(&w, &o->c);
        int rc = side ? run_pce(o, wp, dir, T) : run_classic(o, wp, status_kib("VmRSS"));
        circuit_witness_free(&w);
        fflush(stdout);
        _exit(rc);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    fprintf(stderr, "cuzk bench synth: the %s run (T=%u) died (signal %d)\n",
            side ? "pce" : "classic", T, WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    return 1;
}

int bench_synth_pce(int argc, char **argv) {
    synth_opts o;
    if (parse(&o, argc, argv)) {
        fprintf(stderr, "%s", usage);
        return 2;
    }
    char dir[4096] = "", err[512];
    int want_pce = o.sides[0] || (o.n_sides > 1 && o.sides[1]);
    if (want_pce) {
        if (fc_param_dir(dir, sizeof dir, o.dir, NULL, NULL, err, sizeof err)) {
            fprintf(stderr, "cuzk bench synth: %s\n", err);
            return 2;
        }
        if (mkdir(dir, 0755) != 0 && errno != EEXIST)
            fprintf(stderr, "cuzk bench synth: cannot create %s (%s): the pce stays in memory\n",
                    dir, strerror(errno));
    }
    circuit_name_describe(&o.c);
    int rc = 0;
    for (int s = 0; s < o.n_sides && rc == 0; s++) {
        if (!o.sides[s]) { /* classic synthesis is one thread per partition */
            rc = child(&o, 0, 1, dir);
            continue;
        }
        for (unsigned i = 0; i < o.n_threads && rc == 0; i++)
            rc = child(&o, 1, o.threads[i], dir);
    }
    return rc;
}
