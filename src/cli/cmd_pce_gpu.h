/* `cuzk pce gpu FILE --circuit NAME [--threads T] [--reps R]`: a/b/c on the
 * GPU (issue #30) against the CPU for one partition of NAME with a synthetic
 * witness made through FILE's segments: the compact witness's size, upload,
 * expansion and SpMV times, and whether a, b, c and aux equal the CPU's. */
#ifndef CUZK_CLI_CMD_PCE_GPU_H
#define CUZK_CLI_CMD_PCE_GPU_H

int cmd_pce_gpu(int argc, char **argv);

#endif
