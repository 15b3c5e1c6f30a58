#!/usr/bin/python3
"""SnapDeals through the real daemon, driven over gRPC by a client that knows
only the .proto: a 2 KiB update made by `cuzk seal update` is submitted as
Curio's client sends it (SNAP_DEALS_UPDATE, registered_proof 0, sector_size 0,
one bincode PartitionProof per partition, the three raw 32-byte
commitments).  The 192-byte proof that comes back is accepted by `cuzk verify
snap` and by the independent Node verifier (tools/oracle, @noble/curves) on
the vk and `cuzk snap public-inputs`.  A wrong commitment gets
INVALID_ARGUMENT naming it, a tampered vanilla proof (one path sibling) is
refused before synthesis naming the partition, challenge and path, a missing
commitment and a wrong registered proof are refused, and the daemon keeps
serving; SIGTERM then exits 0.

usage: snap_daemon_e2e.py CUZK PROTO_DIR PARAMS_DIR ORACLE_DIR
PARAMS_DIR holds (or gets, by `cuzk setup snap-2k`) the test-only snap-2k
parameters."""
import json, os, shutil, subprocess, sys, tempfile

import grpc

import daemon_util as du

cuzk, proto_dir = sys.argv[1], sys.argv[2]
params, oracle = os.path.abspath(sys.argv[3]), os.path.abspath(sys.argv[4])
tmp = tempfile.mkdtemp(prefix="cuzk-snap-e2e-")
pb = du.load_pb(proto_dir, tmp)


ck = du.Checks("snap_daemon_e2e")
check, run = ck.check, lambda *a: du.run_cli(cuzk, *a)


h32 = lambda b: b * 32  # noqa: E731
os.makedirs(params, exist_ok=True)
check(run("setup", "snap-2k", "--out", params).returncode == 0, "setup snap-2k")
info = run("circuit", "info", "snap-2k").stdout
stem = next(l.split()[1] for l in info.splitlines() if l.startswith("parameters"))
vk = os.path.join(params, stem.replace(".params", "") + ".vk")

cc, upd = os.path.join(tmp, "cc"), os.path.join(tmp, "u")
check(run("seal", "--sector-size", "2KiB", "--registered-proof", "5", "--zeros",
          "--miner-id", "1000", "--sector-number", "4", "--ticket", h32("11"), "--seed", h32("22"),
          "--out", cc).returncode == 0, "seal a CC sector")
check(run("seal", "update", "--sector", cc, "--out", upd, "--random", "9").returncode == 0,
      "seal update")
sj = json.load(open(os.path.join(upd, "snap.json")))
vanilla = [open(os.path.join(upd, f), "rb").read() for f in sj["vanilla_proofs"]]
comm = {k: bytes.fromhex(sj[k]) for k in ("comm_r_old", "comm_r_new", "comm_d_new")}


def snap_req(rid, **kw):
    f = dict(request_id=rid, proof_kind=pb.SNAP_DEALS_UPDATE, registered_proof=0, sector_size=0,
             sector_number=4, miner_id=1000, vanilla_proofs=vanilla, **comm)
    f.update(kw)
    return pb.SubmitProofRequest(**f)


sock = os.path.join(tmp, "run", "cuzk.sock")
cfg = du.write_config(os.path.join(tmp, "cuzk.toml"), f"unix://{sock}", params)
log = open(os.path.join(tmp, "daemon.log"), "w")
d = du.start_daemon(cuzk, cfg, log)
ch = du.channel(f"unix://{sock}")


def refused(req, code, words, what):
    try:
        prove(pb.ProveRequest(submit=req), timeout=120)
        check(False, f"{what}: accepted")
    except grpc.RpcError as e:
        check(e.code() == code and all(w in e.details() for w in words),
              f"{what}: {e.code()} {e.details()}")


try:
    du.wait_ready(ch, timeout=30)
    prove = ch.unary_unary("/cuzk.v1.ProvingEngine/Prove",
                           request_serializer=pb.ProveRequest.SerializeToString,
                           response_deserializer=pb.ProveResponse.FromString)
    r = prove(pb.ProveRequest(submit=snap_req("snap-1000-4")), timeout=1800).result
    check(r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 192,
          f"snap: status {r.status} ({r.error_message}), {len(r.proof)} bytes, "
          f"total_ms {r.total_ms}")
    pfile = os.path.join(tmp, "snap.proof")
    open(pfile, "wb").write(r.proof)
    v = run("verify", "snap", "--snap-json", os.path.join(upd, "snap.json"), "--proof", pfile,
            "--params-dir", params)
    check(v.returncode == 0 and "OK" in v.stdout, "cuzk verify snap accepts the daemon's proof")
    pub = os.path.join(tmp, "snap.pub")
    with open(pub, "w") as f:
        f.write(run("snap", "public-inputs", "--snap-json",
                    os.path.join(upd, "snap.json")).stdout)
    n = subprocess.run(["node", os.path.join(oracle, "verify_bellperson.mjs"), vk, pfile, pub],
                       capture_output=True, text=True)
    check(n.returncode == 0 and "OK" in n.stdout,
          f"the Node verifier accepts the daemon's proof: {n.stdout.strip()} {n.stderr[-300:]}")
    other = os.path.join(tmp, "other.pub")
    with open(other, "w") as f:
        f.write(run("snap", "public-inputs", "--registered-proof", "0",
                    "--comm-r-old", sj["comm_r_old"], "--comm-r-new", sj["comm_r_new"],
                    "--comm-d-new", sj["comm_r_old"]).stdout)
    n = subprocess.run(["node", os.path.join(oracle, "verify_bellperson.mjs"), vk, pfile, other],
                       capture_output=True, text=True)
    check(n.returncode == 1 and "INVALID" in n.stdout,
          f"the Node verifier rejects it for another comm_d_new: {n.stdout.strip()}")

    # A wrong commitment: INVALID_ARGUMENT naming it, before anything is queued.
    refused(snap_req("snap-bad-d", comm_d_new=comm["comm_r_old"]),
            grpc.StatusCode.INVALID_ARGUMENT, ["comm_d_new"], "another comm_d_new")
    refused(snap_req("snap-bad-r", comm_r_old=comm["comm_r_new"]),
            grpc.StatusCode.INVALID_ARGUMENT, ["comm_r_old"], "another comm_r_old")
    # A tampered vanilla proof: one sibling of challenge 0's tree R old path.
    t = bytearray(vanilla[0])
    t[390] ^= 0x5a
    refused(snap_req("snap-tampered", vanilla_proofs=[bytes(t)]),
            grpc.StatusCode.INVALID_ARGUMENT,
            ["vanilla_proofs[0]", "challenge_proofs[0].proof_r_old", "does not hash"],
            "a tampered path sibling")
    refused(snap_req("snap-trailing", vanilla_proofs=[vanilla[0] + b"\0"]),
            grpc.StatusCode.INVALID_ARGUMENT, ["vanilla_proofs[0]"], "a trailing byte")
    req = snap_req("snap-no-comm")
    req.ClearField("comm_r_new")
    refused(req, grpc.StatusCode.INVALID_ARGUMENT, ["comm_r_new", "missing"],
            "a missing comm_r_new")
    refused(snap_req("snap-rp", registered_proof=7), grpc.StatusCode.INVALID_ARGUMENT,
            ["registered_proof"], "registered_proof 7")
    refused(snap_req("snap-size", sector_size=8 << 20), grpc.StatusCode.INVALID_ARGUMENT,
            ["sector_size"], "sector_size 8 MiB for a 2 KiB update proof")
    refused(snap_req("snap-two", vanilla_proofs=vanilla * 2), grpc.StatusCode.INVALID_ARGUMENT,
            ["vanilla_proofs", "2 partition proofs"], "two partition proofs for one partition")
    # cuzk bench single -t snap: the benchmark client's request, and the
    # snap-2k circuit id for PreloadSRS.
    r = run("bench", "-a", f"unix://{sock}", "preload", "-c", "snap-2k")
    check(r.returncode == 0 and "snap-2k" in r.stdout, f"preload -c snap-2k: {r.stdout.strip()}")
    bp = os.path.join(tmp, "bench.proof")
    r = run("bench", "single", "-a", f"unix://{sock}", "-t", "snap", "--registered-proof", "0",
            "--vanilla", os.path.join(upd, sj["vanilla_proofs"][0]),
            "--comm-r-old", sj["comm_r_old"], "--comm-r-new", sj["comm_r_new"],
            "--comm-d-new", sj["comm_d_new"], "--proof-out", bp)
    check(r.returncode == 0 and "status:    COMPLETED" in r.stdout
          and "proof:     192 bytes" in r.stdout, "bench single -t snap")
    v = run("verify", "snap", "--snap-json", os.path.join(upd, "snap.json"), "--proof", bp,
            "--params-dir", params)
    check(v.returncode == 0, "cuzk verify snap accepts the bench client's proof")
    # Still serving: the same request again proves.
    r = prove(pb.ProveRequest(submit=snap_req("snap-again")), timeout=1800).result
    check(r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 192,
          f"snap again after the refusals: status {r.status} ({r.error_message})")
finally:
    ch.close()
    rc = du.stop_daemon(d)
    check(rc == 0, f"SIGTERM: exit {rc}")
    log.close()
    if ck.failures:
        print(open(os.path.join(tmp, "daemon.log")).read()[-4000:])
    shutil.rmtree(tmp, ignore_errors=True)
ck.finish()
