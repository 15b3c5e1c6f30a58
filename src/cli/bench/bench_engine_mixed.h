/* `cuzk bench engine --workload mixed`: one stream of PoRep C2, SnapDeals,
 * WindowPoSt and WinningPoSt requests in a stated ratio (--mix), submitted
 * interleaved through the engine path the daemon uses (cuzk_engine_submit /
 * cuzk_engine_await, each kind at its default priority), as a busy Curio node
 * sends them.  Reported per kind: jobs, proved, failed, submit-to-proof
 * latency p50/p99/max, proofs/hour; the wall time, how busy the GPUs were
 * (or "cpu"), the peak host RSS; and for each WinningPoSt how long it waited
 * and whether it was ever queued behind another kind's batch: whether a job
 * of another kind left the queue after it arrived and before it did (read
 * from the engine's job timelines: QUEUE interval, dispatch order, batch).
 *
 * A proof counts as proved only when the engine completed it (the engine
 * self-verifies every partition) AND the bench verified every partition
 * again against the kind's .vk file and public inputs it derived itself
 * from the request (bench_mixed_input.h). */
#ifndef CUZK_CLI_BENCH_ENGINE_MIXED_H
#define CUZK_CLI_BENCH_ENGINE_MIXED_H

/* argv: the `bench engine` options, --workload mixed among them.  0 when
 * every proof was proved and verified, 1 on a failure, 2 on a usage error. */
int cmd_bench_engine_mixed(int argc, char **argv);

#endif
