/* `cuzk bench synth NAME --pce on|off|on,off [--threads LIST] [--reps R]
 * [--dir D]`: both synthesis paths of one partition with a synthetic witness,
 * classic proving-mode synthesis (one thread, as the engine runs it) and PCE
 * (witness on T threads + SpMV from the recorded matrices, the .pce obtained
 * in D, default the parameter cache, recorded there on first use).  Each
 * side and thread count runs in its own child process, so its peak RSS
 * (VmHWM) is its own: the line gives witness ms, SpMV ms, total,
 * constraints/s and the peak (and what the child held before the timed work:
 * the synthetic witness, the mapped .pce pages it has touched). */
#ifndef CUZK_CLI_BENCH_SYNTH_H
#define CUZK_CLI_BENCH_SYNTH_H

/* argv[0] is NAME; the options follow. 0, 1 on failure, 2 on bad usage. */
int bench_synth_pce(int argc, char **argv);

#endif
