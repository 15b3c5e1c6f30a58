#!/usr/bin/python3
"""The daemon and `cuzk prove porep` make the same proof: one 2 KiB PoRep C1
(Curio's wrapper), proved over gRPC by the real daemon and by the CLI with the
same fixed r, s (CUZK_TEST_ONLY_RS_SEED / --rs-seed, TEST ONLY), the daemon
with synthesis through PCE (default) and the CLI with classic synthesis
(CUZK_PCE=0), must give byte-identical 192-byte proofs, which `cuzk verify
porep` accepts: one comparison covers both the two front ends and the two
synthesis paths.  Both run
filecoin/porep_partition and groth16/prove_checked; this test keeps them
together.  (Fresh r, s would make the proofs differ, so equality also shows
that both used the seed.)

usage: porep_same_proof.py CUZK PROTO_DIR PARAMS_DIR
PARAMS_DIR holds (or gets, by `cuzk setup porep-2k`) the test-only porep-2k
parameters that porep_e2e and daemon_e2e share."""
import os, shutil, subprocess, sys, tempfile

import grpc

import daemon_util as du

cuzk, proto_dir, params = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3])
tmp = tempfile.mkdtemp(prefix="cuzk-same-proof-")
subprocess.run(["/usr/bin/protoc", f"--python_out={tmp}", f"-I{proto_dir}",
                os.path.join(proto_dir, "cuzk/v1/proving.proto")], check=True)
sys.path.insert(0, tmp)
from cuzk.v1 import proving_pb2 as pb  # noqa: E402

SEED = "0badc0de"
ck = du.Checks("porep_same_proof")
check = ck.check


def run(*a, env=None):
    return du.run_cli(cuzk, *a, env=env)


env = dict(os.environ)
env.pop("FIL_PROOFS_PARAMETER_CACHE", None)
os.makedirs(params, exist_ok=True)
check(run("setup", "porep-2k", "--out", params).returncode == 0, "setup porep-2k (reused)")
sdir = os.path.join(tmp, "sector")
check(run("seal", "--sector-size", "2KiB", "--registered-proof", "5", "--random", "9",
          "--miner-id", "1001", "--sector-number", "4", "--ticket", "33" * 32, "--seed", "44" * 32,
          "--out", sdir, "--curio").returncode == 0, "seal")
c1 = os.path.join(sdir, "c1.json")


def daemon_proof(seed, pce):
    """The proof the daemon returns for c1 with r, s fixed by seed, synthesis
    through PCE or classic (the switch pce, CUZK_PCE)."""
    sock = os.path.join(tmp, "run", "cuzk.sock")
    cfg = os.path.join(tmp, "cuzk.toml")
    with open(cfg, "w") as f:
        f.write(f'[daemon]\nlisten = "unix://{sock}"\n[srs]\nparam_cache = "{params}"\n'
                '[gpus]\nuse_gpu = false\n')
    log = open(os.path.join(tmp, "daemon.log"), "w")
    d = subprocess.Popen([cuzk, "daemon", "--config", cfg], stderr=log,
                         stdout=subprocess.DEVNULL, env=dict(env, CUZK_TEST_ONLY_RS_SEED=seed, CUZK_PCE=pce))
    ch = grpc.insecure_channel(f"unix://{sock}")
    try:
        grpc.channel_ready_future(ch).result(timeout=30)
        prove = ch.unary_unary("/cuzk.v1.ProvingEngine/Prove",
                               request_serializer=pb.ProveRequest.SerializeToString,
                               response_deserializer=pb.ProveResponse.FromString)
        req = pb.SubmitProofRequest(request_id="same-proof", proof_kind=pb.POREP_SEAL_COMMIT,
                                    sector_size=2048, registered_proof=5, sector_number=4,
                                    miner_id=1001, vanilla_proof=open(c1, "rb").read())
        r = prove(pb.ProveRequest(submit=req), timeout=1800).result
        check(r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 192,
              f"daemon (CUZK_PCE={pce}): status {r.status} ({r.error_message}), {len(r.proof)} bytes")
        return r.proof
    finally:
        ch.close()
        d.terminate()
        d.wait(timeout=120)
        log.close()
        warned = "CUZK_TEST_ONLY_RS_SEED fixes" in open(os.path.join(tmp, "daemon.log")).read()
        check(warned, "the daemon warns that r, s are fixed")


try:
    from_daemon = daemon_proof(SEED, "1")
    cli = os.path.join(tmp, "cli.proof")
    r = run("prove", "porep", "--c1", c1, "--params-dir", params, "--rs-seed", SEED, "--out", cli,
            env=dict(env, CUZK_PCE="0"))
    check(r.returncode == 0, "cuzk prove porep --rs-seed (CUZK_PCE=0, classic)")
    from_cli = open(cli, "rb").read() if r.returncode == 0 else b""
    check(len(from_cli) == 192 and from_cli == from_daemon,
          "the daemon's proof (PCE) and the CLI's (classic) are byte-identical")
    dfile = os.path.join(tmp, "daemon.proof")
    open(dfile, "wb").write(from_daemon)
    v = run("verify", "porep", "--c1", c1, "--proof", dfile, "--params-dir", params, env=env)
    check(v.returncode == 0 and "OK" in v.stdout, "cuzk verify porep accepts the proof")
finally:
    shutil.rmtree(tmp, ignore_errors=True)
ck.finish()
