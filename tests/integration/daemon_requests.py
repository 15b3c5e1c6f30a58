#!/usr/bin/python3
"""Every answer right for its request (#32), through the real daemon and a
gRPC client built from proto/:

  - identity: a PoRep request whose miner_id / sector_number do not reproduce
    the C1's replica_id (another miner, another sector, 2^64-1 for both) is
    INVALID_ARGUMENT naming the values, before any work;
  - WinningPoSt with batching on (max_batch_size 2, max_batch_wait_ms 300 s):
    a lone WinningPoSt is not held for a batch partner;
  - retry after a client deadline: a Prove with a 1 s deadline is abandoned,
    and the retry with the same request_id gets the proof (it verifies);
  - a reused request_id with other content (sector 6's C1 under sector 5's
    id) is ALREADY_EXISTS naming the id; the same content is the same job.

usage: daemon_requests.py CUZK PROTO_DIR PARAMS_DIR
PARAMS_DIR holds (or gets, by `cuzk setup`) the test-only porep-2k and
winning-2k parameters."""
import os, shutil, sys, tempfile, threading, time

import grpc

import daemon_util as du

cuzk, proto_dir, params = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3])
tmp = tempfile.mkdtemp(prefix="cuzk-daemon-requests-")
pb = du.load_pb(proto_dir, tmp)
BATCH_WAIT_S = 300  # far beyond any proof here: a held job shows at once
ck = du.Checks("daemon_requests")
check, run = ck.check, lambda *a: du.run_cli(cuzk, *a)


h32 = lambda b: b * 32  # noqa: E731
os.makedirs(params, exist_ok=True)
for circuit in ("porep-2k", "winning-2k"):
    check(run("setup", circuit, "--out", params).returncode == 0, f"setup {circuit}")
sectors = {}
for num in (5, 6):
    sdir = os.path.join(tmp, f"sector{num}")
    check(run("seal", "--sector-size", "2KiB", "--registered-proof", "5", "--random", str(num),
              "--miner-id", "1000", "--sector-number", str(num), "--ticket", h32("41"),
              "--seed", h32("42"), "--out", sdir, "--curio").returncode == 0, f"seal sector {num}")
    sectors[num] = sdir
c1 = {n: open(os.path.join(d, "c1.json"), "rb").read() for n, d in sectors.items()}
rnd = h32("25")
win = os.path.join(tmp, "win.bin")
check(run("post-vanilla", "--registered-proof", "0", "--sector-dir", sectors[5], "--randomness",
          rnd, "--out", win).returncode == 0, "post-vanilla winning")

sock = os.path.join(tmp, "run", "cuzk.sock")
cfg = du.write_config(os.path.join(tmp, "cuzk.toml"), f"unix://{sock}", params,
                      f"[scheduler]\nmax_batch_size = 2\nmax_batch_wait_ms = {BATCH_WAIT_S * 1000}\n")
log = open(os.path.join(tmp, "daemon.log"), "w")
d = du.start_daemon(cuzk, cfg, log)
ch = du.channel(f"unix://{sock}")


def method(name, req, resp):
    return ch.unary_unary(f"/cuzk.v1.ProvingEngine/{name}", request_serializer=req.SerializeToString,
                          response_deserializer=resp.FromString)


def porep(rid, num, miner=1000, sector=None):
    return pb.SubmitProofRequest(request_id=rid, proof_kind=pb.POREP_SEAL_COMMIT, sector_size=2048,
                                 registered_proof=5, miner_id=miner,
                                 sector_number=num if sector is None else sector,
                                 vanilla_proof=c1[num])


def verify_porep(num, proof, what):
    pf = os.path.join(tmp, f"p{num}.proof")
    open(pf, "wb").write(proof)
    v = run("verify", "porep", "--c1", os.path.join(sectors[num], "c1.json"), "--proof", pf,
            "--params-dir", params)
    check(v.returncode == 0 and "OK" in v.stdout, f"cuzk verify porep accepts {what}")


try:
    du.wait_ready(ch, timeout=30)
    prove = method("Prove", pb.ProveRequest, pb.ProveResponse)
    submit = method("SubmitProof", pb.SubmitProofRequest, pb.SubmitProofResponse)
    await_ = method("AwaitProof", pb.AwaitProofRequest, pb.AwaitProofResponse)
    preload = method("PreloadSRS", pb.PreloadSrsRequest, pb.PreloadSrsResponse)
    for c in ("porep-2k", "winning-2k"):
        preload(pb.PreloadSrsRequest(circuit_id=c), timeout=600)

    # WinningPoSt alone with batching on: proved at once, not after the batch wait.
    t0 = time.monotonic()
    r = prove(pb.ProveRequest(submit=pb.SubmitProofRequest(
        request_id="winpost-1000-x", proof_kind=pb.WINNING_POST, registered_proof=0,
        miner_id=1000, randomness=bytes.fromhex(rnd), vanilla_proofs=[open(win, "rb").read()])),
        timeout=600).result
    dt = time.monotonic() - t0
    check(r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 192
          and dt < BATCH_WAIT_S / 2 and r.queue_wait_ms < 5000,
          f"lone WinningPoSt with batching on: {dt:.1f} s, queue_wait_ms {r.queue_wait_ms} "
          f"(batch wait {BATCH_WAIT_S} s), status {r.status} {r.error_message}")

    # Identity: the request's miner and sector against the C1's replica_id.
    for miner, sector, what in ((9999, 5, "miner 9999 with a C1 of miner 1000"),
                                (1000, 2, "sector 2 with sector 5's C1"),
                                (2**64 - 1, 2**64 - 1, "2^64-1 for both")):
        try:
            prove(pb.ProveRequest(submit=porep(f"id-{miner}-{sector}", 5, miner, sector)),
                  timeout=120)
            check(False, f"identity: {what} was accepted")
        except grpc.RpcError as e:
            check(e.code() == grpc.StatusCode.INVALID_ARGUMENT and f"miner_id {miner}" in e.details()
                  and f"sector_number {sector}" in e.details() and "replica_id" in e.details(),
                  f"identity: {what} -> {e.code()} {e.details()}")

    # A Prove whose caller gives up after 1 s (the job waits for a batch partner).
    try:
        prove(pb.ProveRequest(submit=porep("porep-1000-5", 5)), timeout=1)
        check(False, "Prove with a 1 s deadline returned")
    except grpc.RpcError as e:
        check(e.code() == grpc.StatusCode.DEADLINE_EXCEEDED, f"Prove 1 s deadline: {e.code()}")
    time.sleep(1)  # the server notices within one await slice and abandons the job

    # The retry with the same request_id proves it.
    retry = {}

    def do_retry():
        try:
            retry["r"] = prove(pb.ProveRequest(submit=porep("porep-1000-5", 5)),
                               timeout=1800).result
        except grpc.RpcError as e:
            retry["e"] = e

    t = threading.Thread(target=do_retry)
    t.start()
    time.sleep(2)
    # Another request under that id: refused, naming the id.
    try:
        submit(porep("porep-1000-5", 6), timeout=120)
        check(False, "sector 6's C1 under sector 5's request_id was accepted")
    except grpc.RpcError as e:
        check(e.code() == grpc.StatusCode.ALREADY_EXISTS and "porep-1000-5" in e.details(),
              f"reused request_id with other content -> {e.code()} {e.details()}")
    # Sector 6 under its own id fills the batch; the same content again is the same job.
    r6 = submit(porep("porep-1000-6", 6), timeout=120)
    again = submit(porep("porep-1000-6", 6), timeout=120)
    check(again.job_id == r6.job_id == "porep-1000-6", "the same request again -> the same job")
    t.join()
    rr = retry.get("r")
    check(rr is not None and rr.status == pb.AwaitProofResponse.COMPLETED and len(rr.proof) == 192,
          f"retry after the client deadline: {rr.status if rr else retry.get('e')} "
          f"{rr.error_message if rr else ''}")
    if rr is not None and len(rr.proof) == 192:
        verify_porep(5, rr.proof, "the retried sector 5 proof")
    a6 = await_(pb.AwaitProofRequest(job_id="porep-1000-6"), timeout=1800)
    check(a6.status == pb.AwaitProofResponse.COMPLETED and len(a6.proof) == 192,
          f"sector 6: {a6.status} {a6.error_message}")
    if len(a6.proof) == 192:
        verify_porep(6, a6.proof, "sector 6's proof")
finally:
    ch.close()
    rc = du.stop_daemon(d)
    check(rc == 0, f"SIGTERM: exit {rc}")
    log.close()
    if ck.failures:
        print(open(os.path.join(tmp, "daemon.log")).read()[-6000:])
    shutil.rmtree(tmp, ignore_errors=True)
ck.finish()
