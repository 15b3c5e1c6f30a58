#!/usr/bin/env python3
"""Calls that finish while their reply is being sent, many times over.

usage: daemon_race.py DAEMON PROTO_DIR [--calls N] [--threads T]

The class of the fixed use-after-free in src/server/grpc_service.c: a call's
reply is started by its handler thread while the completion queue's thread
finishes the same call (the client cancels it, its deadline passes, or its
channel closes), and whichever side lets go last frees it.  DAEMON is
cuzk_daemon_test (the server over the engine test double, whose jobs last a
few milliseconds), so every call is short and many are in flight at once.
Each of T threads makes N/T calls, picked at random (the seed is printed):

  - GetStatus, a quick reply;
  - Prove with a deadline of 1-20 ms against jobs of a few ms: the deadline
    passes before, during or after the reply;
  - Prove as a future cancelled by the client after 0-5 ms;
  - SubmitProof, then CancelProof and AwaitProof with a short timeout;
  - a channel opened for one call and closed while the call is in flight.

Afterwards the daemon must still answer, stop on SIGTERM with exit 0 and log
no error.  Run under AddressSanitizer (the test suite) a freed call touched
again aborts the daemon; under ThreadSanitizer (tools/test.sh --tsan) so does
any unordered access (TSAN_OPTIONS halt_on_error=1)."""
import argparse
import os
import random
import signal
import sys
import tempfile
import threading
import time

import daemon_util as du

ap = argparse.ArgumentParser()
ap.add_argument("daemon")
ap.add_argument("proto_dir")
ap.add_argument("--calls", type=int, default=3000)
ap.add_argument("--threads", type=int, default=8)
args = ap.parse_args()

import grpc  # noqa: E402

tmp = tempfile.mkdtemp(prefix="cuzk-race-")
pb = du.load_pb(args.proto_dir, tmp)
C = du.Checks("daemon_race")
seed = int(os.environ.get("CUZK_RACE_SEED", random.randrange(1 << 32)))
print(f"daemon_race: seed {seed} (CUZK_RACE_SEED={seed} replays it)", flush=True)

sock = os.path.join(tmp, "cuzk.sock")
listen = f"unix://{sock}"
cfg = du.write_config(os.path.join(tmp, "race.toml"), listen,
                      extra=f'[srs]\nparam_cache = "{tmp}"\n[logging]\nlevel = "warn"\n')
log_path = os.path.join(tmp, "daemon.log")
env = du.daemon_env({"CUZK_ENGINE_DOUBLE_JOB_MS": "3"})
proc = du.start_daemon(args.daemon, cfg, open(log_path, "w"), env=env)


def winning(request_id=""):
    return pb.SubmitProofRequest(request_id=request_id, proof_kind=pb.WINNING_POST,
                                 registered_proof=3, miner_id=1000,
                                 randomness=bytes(range(32)), vanilla_proofs=[b"vanilla"])


counts = {"ok": 0, "deadline": 0, "cancelled": 0, "other": 0, "unexpected": 0}
lock = threading.Lock()
EXPECTED = {grpc.StatusCode.OK, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED,
            grpc.StatusCode.NOT_FOUND, grpc.StatusCode.FAILED_PRECONDITION,
            grpc.StatusCode.INTERNAL, grpc.StatusCode.UNAVAILABLE,
            grpc.StatusCode.RESOURCE_EXHAUSTED}
unexpected = []


def note(code):
    with lock:
        if code == grpc.StatusCode.OK:
            counts["ok"] += 1
        elif code == grpc.StatusCode.DEADLINE_EXCEEDED:
            counts["deadline"] += 1
        elif code == grpc.StatusCode.CANCELLED:
            counts["cancelled"] += 1
        elif code in EXPECTED:
            counts["other"] += 1
        else:
            counts["unexpected"] += 1
            if len(unexpected) < 5:
                unexpected.append(str(code))


def call(fn, *a, **k):
    try:
        fn(*a, **k)
        note(grpc.StatusCode.OK)
    except grpc.RpcError as e:
        note(e.code())


def worker(k, n):
    rnd = random.Random(seed * 1000 + k)
    ch = du.channel(listen)
    m = du.methods(ch, pb)
    for i in range(n):
        what = rnd.randrange(5)
        rid = f"race-{k}-{i}"
        if what == 0:
            call(m.GetStatus, pb.GetStatusRequest(), timeout=10)
        elif what == 1:
            call(m.Prove, pb.ProveRequest(submit=winning(rid)), timeout=rnd.uniform(0.001, 0.02))
        elif what == 2:
            f = m.Prove.future(pb.ProveRequest(submit=winning(rid)), timeout=10)
            time.sleep(rnd.uniform(0, 0.005))
            f.cancel()
            try:
                f.result()
                note(grpc.StatusCode.OK)
            except grpc.FutureCancelledError:
                note(grpc.StatusCode.CANCELLED)
            except grpc.RpcError as e:
                note(e.code())
        elif what == 3:
            try:
                r = m.SubmitProof(winning(rid), timeout=10)
                note(grpc.StatusCode.OK)
                call(m.CancelProof, pb.CancelProofRequest(job_id=r.job_id), timeout=10)
                call(m.AwaitProof, pb.AwaitProofRequest(job_id=r.job_id, timeout_ms=2), timeout=10)
            except grpc.RpcError as e:
                note(e.code())
        else:
            one = du.channel(listen)
            f = du.methods(one, pb).Prove.future(pb.ProveRequest(submit=winning(rid)), timeout=10)
            time.sleep(rnd.uniform(0, 0.004))
            one.close()
            try:
                f.result()
                note(grpc.StatusCode.OK)
            except grpc.FutureCancelledError:
                note(grpc.StatusCode.CANCELLED)
            except grpc.RpcError as e:
                note(e.code())
    ch.close()


try:
    ch = du.channel(listen)
    try:
        du.wait_ready(ch, timeout=60)
    except grpc.FutureTimeoutError:
        proc.kill()
        print(open(log_path).read()[-6000:])
        raise SystemExit("daemon_race: the daemon did not become ready")
    t0 = time.time()
    per = max(1, args.calls // args.threads)
    ts = [threading.Thread(target=worker, args=(k, per)) for k in range(args.threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    total = sum(counts.values())
    print(f"daemon_race: {total} calls in {time.time() - t0:.1f} s: {counts}", flush=True)
    C.check(counts["unexpected"] == 0, f"every call ended with an expected status {unexpected}")
    C.check(counts["deadline"] > 0 and counts["cancelled"] > 0 and counts["ok"] > 0,
            "deadlines, client cancellations and replies all happened")
    C.check(proc.poll() is None, "the daemon is still running")
    try:
        st = du.methods(ch, pb).GetStatus(pb.GetStatusRequest(), timeout=10)
        alive = st is not None
    except grpc.RpcError:
        alive = False
    C.check(alive, "the daemon still answers GetStatus")
    ch.close()
finally:
    rc = du.stop_daemon(proc, signal.SIGTERM, timeout=60)
text = open(log_path).read()
C.check(rc == 0, f"SIGTERM -> exit 0 (rc {rc})")
bad = [ln for ln in text.splitlines() if " ERROR " in ln or "Sanitizer" in ln]
C.check(not bad, f"no error or sanitizer line in the daemon's log {bad[:3]}")
if C.failures:
    print(text[-4000:])
C.finish()
