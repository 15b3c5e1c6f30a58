#!/usr/bin/python3
"""A WinningPoSt that arrives behind queued PoRep work is proved next.

The real daemon, configured so PoRep C2 jobs queue (pipeline.enabled = false:
one batch at a time; scheduler.max_batch_size = 1: every job its own batch),
gets three 2 KiB PoRep C2 jobs over gRPC, then a WinningPoSt submitted with
the kind's default priority (PRIORITY_UNSPECIFIED -> CRITICAL).  Asserted:
  - when the WinningPoSt is submitted, at least two PoRep jobs are still
    queued (GetStatus porep-c2 pending), so the test really tests overtaking;
  - every job completes; the WinningPoSt completes before every PoRep job
    that was still queued when it arrived: at most the PoRep jobs that were
    already running (in_progress) finish before it, measured both by the
    order in which AwaitProof returns and by queue_wait_ms;
  - its 192-byte proof verifies with `cuzk verify post` (and against other
    randomness it does not), and each PoRep proof with `cuzk verify porep`;
  - the last PoRep job, still queued when the WinningPoSt completes, is then
    cancelled (CancelProof: not running) and awaits CANCELLED, no proof (it
    would only prove once more what the others prove).

usage: daemon_priority.py CUZK PROTO_DIR PARAMS_DIR
PARAMS_DIR holds (or gets, by `cuzk setup`) the test-only porep-2k and
winning-2k parameters."""
import os, shutil, sys, tempfile, threading

import daemon_util as du

cuzk, proto_dir, params = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3])
tmp = tempfile.mkdtemp(prefix="cuzk-daemon-priority-")
pb = du.load_pb(proto_dir, tmp)

N_POREP = 3
ck = du.Checks("daemon_priority")
check, run = ck.check, lambda *a: du.run_cli(cuzk, *a)


h32 = lambda b: b * 32  # noqa: E731
os.makedirs(params, exist_ok=True)
for circuit in ("porep-2k", "winning-2k"):
    check(run("setup", circuit, "--out", params).returncode == 0, f"setup {circuit}")

sdir = os.path.join(tmp, "sector")
check(run("seal", "--sector-size", "2KiB", "--registered-proof", "5", "--random", "9",
          "--miner-id", "1000", "--sector-number", "4", "--ticket", h32("31"), "--seed", h32("32"),
          "--out", sdir, "--curio").returncode == 0, "seal")
wrapper = open(os.path.join(sdir, "c1.json"), "rb").read()
rnd = h32("23")
win = os.path.join(tmp, "win.bin")
check(run("post-vanilla", "--registered-proof", "0", "--sector-dir", sdir, "--randomness", rnd,
          "--out", win).returncode == 0, "post-vanilla winning")

sock = os.path.join(tmp, "run", "cuzk.sock")
cfg = du.write_config(os.path.join(tmp, "cuzk.toml"), f"unix://{sock}", params,
                      '[scheduler]\nmax_batch_size = 1\n[pipeline]\nenabled = false\n')
log = open(os.path.join(tmp, "daemon.log"), "w")
d = du.start_daemon(cuzk, cfg, log)
ch = du.channel(f"unix://{sock}")


def method(name, req, resp):
    return ch.unary_unary(f"/cuzk.v1.ProvingEngine/{name}", request_serializer=req.SerializeToString,
                          response_deserializer=resp.FromString)


try:
    du.wait_ready(ch, timeout=30)
    submit = method("SubmitProof", pb.SubmitProofRequest, pb.SubmitProofResponse)
    await_ = method("AwaitProof", pb.AwaitProofRequest, pb.AwaitProofResponse)
    status = method("GetStatus", pb.GetStatusRequest, pb.GetStatusResponse)
    preload = method("PreloadSRS", pb.PreloadSrsRequest, pb.PreloadSrsResponse)
    # parameters resident first, so the order below is the scheduler's alone
    for c in ("porep-2k", "winning-2k"):
        preload(pb.PreloadSrsRequest(circuit_id=c), timeout=600)

    jobs = []  # (name, job_id)
    for i in range(N_POREP):
        r = submit(pb.SubmitProofRequest(request_id=f"porep-{i}", proof_kind=pb.POREP_SEAL_COMMIT,
                                         sector_size=2048, registered_proof=5, sector_number=4,
                                         miner_id=1000, vanilla_proof=wrapper), timeout=120)
        jobs.append((f"porep-{i}", r.job_id))
    q = {x.proof_kind: x for x in status(pb.GetStatusRequest(), timeout=30).queues}
    porep_q = q.get("porep-c2")
    pending = porep_q.pending if porep_q else 0
    running = porep_q.in_progress if porep_q else 0
    r = submit(pb.SubmitProofRequest(request_id="winning", proof_kind=pb.WINNING_POST,
                                     registered_proof=0, miner_id=1000,
                                     randomness=bytes.fromhex(rnd),
                                     vanilla_proofs=[open(win, "rb").read()]), timeout=120)
    jobs.append(("winning", r.job_id))
    # pending can only have dropped between GetStatus and the submit: re-read after
    q = {x.proof_kind: x for x in status(pb.GetStatusRequest(), timeout=30).queues}
    still = q["porep-c2"].pending if "porep-c2" in q else 0
    print(f"at submit: porep-c2 pending {pending} in_progress {running}; just after: {still}")
    check(still >= 2, f"PoRep jobs queued behind the running one when the WinningPoSt "
                      f"arrived ({still} pending)")

    cancel = method("CancelProof", pb.CancelProofRequest, pb.CancelProofResponse)
    done, results, lock = [], {}, threading.Lock()
    last_name, last_id = jobs[N_POREP - 1]
    cancelled = {}

    def wait(name, job_id):
        res = await_(pb.AwaitProofRequest(job_id=job_id), timeout=1800)
        if name == "winning":  # the last PoRep is queued behind another one still
            cancelled["resp"] = cancel(pb.CancelProofRequest(job_id=last_id), timeout=30)
        with lock:
            done.append(name)
            results[name] = res

    threads = [threading.Thread(target=wait, args=j) for j in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("completion order:", " ".join(done))
    c = cancelled.get("resp")
    check(c is not None and not c.was_running, f"{last_name} cancelled while queued ({c})")
    last = results.pop(last_name, None)
    if last_name in done:
        done.remove(last_name)
    check(last is not None and last.status == pb.AwaitProofResponse.CANCELLED and not last.proof,
          f"{last_name} awaits CANCELLED without a proof "
          f"({last.status if last else None})")
    for name, res in results.items():
        check(res.status == pb.AwaitProofResponse.COMPLETED and len(res.proof) == 192,
              f"{name}: status {res.status} ({res.error_message}), {len(res.proof)} bytes, "
              f"queue_wait_ms {res.queue_wait_ms}, total_ms {res.total_ms}")
    before = done.index("winning") if "winning" in done else len(done)
    # the PoRep jobs that were queued (not running) when it arrived all finish after it
    check(before <= N_POREP - still,
          f"WinningPoSt completed after {before} PoRep jobs; at most {N_POREP - still} had "
          f"started when it arrived")
    w = results.get("winning")
    if w:
        later = [n for n in done[before + 1:]]
        # the cancelled one aside
        check(len(later) >= still - 1 and all(results[n].queue_wait_ms >= w.queue_wait_ms
                                              for n in later),
              f"the {len(later)} PoRep jobs completing after it waited longer in the queue "
              f"({[results[n].queue_wait_ms for n in later]} ms vs {w.queue_wait_ms} ms)")
        pf = os.path.join(tmp, "win.proof")
        open(pf, "wb").write(w.proof)
        v = run("verify", "post", "--kind", "winning", "--vanilla", win, "--randomness", rnd,
                "--proof", pf, "--params-dir", params)
        check(v.returncode == 0 and "OK" in v.stdout, "cuzk verify post accepts the WinningPoSt")
        v = run("verify", "post", "--kind", "winning", "--vanilla", win, "--randomness",
                h32("24"), "--proof", pf, "--params-dir", params)
        check(v.returncode == 1 and "INVALID" in v.stdout,
              "... and rejects it for other randomness")
    for name, res in results.items():
        if name.startswith("porep") and len(res.proof) == 192:
            pf = os.path.join(tmp, f"{name}.proof")
            open(pf, "wb").write(res.proof)
            v = run("verify", "porep", "--c1", os.path.join(sdir, "c1.json"), "--proof", pf,
                    "--params-dir", params)
            check(v.returncode == 0 and "OK" in v.stdout, f"cuzk verify porep accepts {name}")
finally:
    ch.close()
    rc = du.stop_daemon(d)
    check(rc == 0, f"SIGTERM: exit {rc}")
    log.close()
    if ck.failures:
        print(open(os.path.join(tmp, "daemon.log")).read()[-4000:])
    shutil.rmtree(tmp, ignore_errors=True)
ck.finish()
