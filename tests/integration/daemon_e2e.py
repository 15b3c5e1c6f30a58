#!/usr/bin/python3
"""The real daemon, driven over gRPC by a client that knows only the .proto:
a 2 KiB PoRep C1 in Curio's wrapper and a 2 KiB WindowPoSt (vanilla proofs as
Curio sends them) come back as 192-byte proofs that `cuzk verify porep` /
`cuzk verify post` and the engine's self-verification accept; a bad C1 gets INVALID_ARGUMENT naming
the problem and the daemon keeps serving; SIGTERM then exits 0.

The daemon runs with r, s fixed (CUZK_TEST_ONLY_RS_SEED, TEST ONLY; it warns),
so its PoRep proof, synthesized through PCE, must be byte-identical to
`cuzk prove porep --rs-seed` with classic synthesis (CUZK_PCE=0): one
comparison keeps the two front ends on one path and the two synthesis paths
equal.  (Fresh r, s would make the proofs differ, so equality also shows that
both used the seed.)

usage: daemon_e2e.py CUZK PROTO_DIR PARAMS_DIR
PARAMS_DIR holds (or gets, by `cuzk setup porep-2k`) the test-only porep-2k
parameters; the WindowPoSt 2 KiB ones are made by `cuzk setup wpost-2k`."""
import json, os, shutil, sys, tempfile, time

import grpc

import daemon_util as du

cuzk, proto_dir, params = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3])
tmp = tempfile.mkdtemp(prefix="cuzk-daemon-e2e-")
pb = du.load_pb(proto_dir, tmp)

ck = du.Checks("daemon_e2e")
check, run = ck.check, lambda *a: du.run_cli(cuzk, *a)


h32 = lambda b: b * 32  # noqa: E731
os.makedirs(params, exist_ok=True)
for circuit in ("porep-2k", "wpost-2k"):
    r = run("setup", circuit, "--out", params)
    check(r.returncode == 0, f"setup {circuit}")

# A sealed 2 KiB sector: its C1 in Curio's wrapper, and its PoSt vanilla proof.
sdir = os.path.join(tmp, "sector")
check(run("seal", "--sector-size", "2KiB", "--registered-proof", "5", "--random", "7",
          "--miner-id", "1000", "--sector-number", "3", "--ticket", h32("11"), "--seed", h32("22"),
          "--out", sdir, "--curio").returncode == 0, "seal")
wrapper = open(os.path.join(sdir, "c1.json"), "rb").read()
rnd = bytes.fromhex(h32("21"))
vfile = os.path.join(tmp, "w.bin")
check(run("post-vanilla", "--registered-proof", "10", "--sector-dir", sdir,
          "--randomness", rnd.hex(), "--out", vfile).returncode == 0, "post-vanilla")

sock = os.path.join(tmp, "run", "cuzk.sock")
cfg = du.write_config(os.path.join(tmp, "cuzk.toml"), f"unix://{sock}", params)
log = open(os.path.join(tmp, "daemon.log"), "w")
SEED = "0badc0de"
d = du.start_daemon(cuzk, cfg, log, env=dict(du.daemon_env(), CUZK_TEST_ONLY_RS_SEED=SEED))
ch = du.channel(f"unix://{sock}")
try:
    du.wait_ready(ch, timeout=30)
    prove = ch.unary_unary("/cuzk.v1.ProvingEngine/Prove",
                           request_serializer=pb.ProveRequest.SerializeToString,
                           response_deserializer=pb.ProveResponse.FromString)

    # PoRep C2 as Curio sends it.
    req = pb.SubmitProofRequest(request_id="porep-1000-3", proof_kind=pb.POREP_SEAL_COMMIT,
                                sector_size=2048, registered_proof=5, sector_number=3,
                                miner_id=1000, vanilla_proof=wrapper)
    t0 = time.time()
    r = prove(pb.ProveRequest(submit=req), timeout=1800).result
    check(r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 192,
          f"porep: status {r.status} ({r.error_message}), {len(r.proof)} bytes")
    print(f"porep-2k over gRPC: {time.time() - t0:.1f} s, total_ms {r.total_ms}, "
          f"synthesis_ms {r.synthesis_ms}, gpu_compute_ms {r.gpu_compute_ms}")
    pfile = os.path.join(tmp, "porep.proof")
    open(pfile, "wb").write(r.proof)
    v = run("verify", "porep", "--c1", os.path.join(sdir, "c1.json"), "--proof", pfile,
            "--params-dir", params)
    check(v.returncode == 0 and "OK" in v.stdout, "cuzk verify porep accepts the daemon's proof")
    cli = os.path.join(tmp, "cli.proof")
    c = du.run_cli(cuzk, "prove", "porep", "--c1", os.path.join(sdir, "c1.json"), "--params-dir",
                   params, "--rs-seed", SEED, "--out", cli, env=dict(os.environ, CUZK_PCE="0"))
    check(c.returncode == 0, "cuzk prove porep --rs-seed (CUZK_PCE=0, classic)")
    from_cli = open(cli, "rb").read() if c.returncode == 0 else b""
    check(len(from_cli) == 192 and from_cli == r.proof,
          "the daemon's proof (PCE) and the CLI's (classic) are byte-identical")

    # A damaged C1: refused, named, and the daemon keeps serving.
    bad = json.loads(wrapper)
    bad["SectorSize"] = 4096
    try:
        prove(pb.ProveRequest(submit=pb.SubmitProofRequest(
            proof_kind=pb.POREP_SEAL_COMMIT, registered_proof=5,
            vanilla_proof=json.dumps(bad).encode())), timeout=60)
        check(False, "a bad C1 was accepted")
    except grpc.RpcError as e:
        check(e.code() == grpc.StatusCode.INVALID_ARGUMENT and "SectorSize" in e.details(),
              f"bad C1: {e.code()} {e.details()}")

    # WindowPoSt 2 KiB (V1_1), one sector.
    req = pb.SubmitProofRequest(request_id="wdpost-1000-0", proof_kind=pb.WINDOW_POST_PARTITION,
                                registered_proof=10, miner_id=1000, randomness=rnd,
                                partition_index=0, vanilla_proofs=[open(vfile, "rb").read()])
    r = prove(pb.ProveRequest(submit=req), timeout=600).result
    check(r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 192,
          f"wpost: status {r.status} ({r.error_message}), {len(r.proof)} bytes")
    wfile = os.path.join(tmp, "wpost.proof")
    open(wfile, "wb").write(r.proof)
    v = run("verify", "post", "--registered-proof", "10", "--vanilla", vfile, "--randomness",
            rnd.hex(), "--proof", wfile, "--params-dir", params)
    check(v.returncode == 0 and "OK" in v.stdout, "cuzk verify post accepts the daemon's WindowPoSt")
    # Other randomness: the vanilla proof opens other leaves.
    req.randomness = bytes.fromhex(h32("22"))
    req.request_id = "wdpost-other"
    try:
        prove(pb.ProveRequest(submit=req), timeout=60)
        check(False, "WindowPoSt with other randomness was accepted")
    except grpc.RpcError as e:
        check(e.code() == grpc.StatusCode.INVALID_ARGUMENT and "randomness" in e.details(),
              f"other randomness: {e.code()} {e.details()}")
finally:
    ch.close()
    rc = du.stop_daemon(d)
    check(rc == 0, f"SIGTERM: exit {rc}")
    log.close()
    check("CUZK_TEST_ONLY_RS_SEED fixes" in open(os.path.join(tmp, "daemon.log")).read(),
          "the daemon warns that r, s are fixed")
    if ck.failures:
        print(open(os.path.join(tmp, "daemon.log")).read()[-4000:])
    shutil.rmtree(tmp, ignore_errors=True)
ck.finish()
