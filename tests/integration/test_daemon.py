#!/usr/bin/python3
"""The cuzk daemon driven over gRPC by a real client (Debian python3-grpcio).

usage: test_daemon.py DAEMON PROTO_DIR [--engine double|real]

DAEMON is a binary taking `daemon --config FILE` (cuzk_daemon_test, the server
linked with the engine TEST DOUBLE; or the real cuzk with --engine real).
Message classes are generated from PROTO_DIR/cuzk/v1/proving.proto with
Debian's protoc at test time; calls go through grpcio's generic unary calls
on the method paths, as Curio's client sends them.

Every RPC is exercised over a unix socket and over TCP: status codes and
messages for bad requests, Submit/Await (timeouts)/Cancel, Prove, client
cancellation reaching the engine, duplicate request ids, SRS preload/evict,
status and metrics over gRPC and HTTP, unknown methods and undecodable
bytes, a 40 MB request, a message over the receive limit that the memory
budget sets, CancelProof only from the submitting connection or with the
shared secret, SIGTERM while a Prove is waiting (exit 0 and a
clean answer to the client) in both shutdown modes, and (real engine) a 32 GiB
PoRep refused under a memory budget too small for it.
"""
import argparse
import atexit
import json
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

import grpc

import daemon_util as du

ap = argparse.ArgumentParser()
ap.add_argument("daemon")
ap.add_argument("proto_dir")
ap.add_argument("--engine", choices=["double", "real"], default="double")
ap.add_argument("--pb2-dir", help="use proving_pb2 already generated here (hosts without protoc)")
args = ap.parse_args()
DOUBLE = args.engine == "double"

tmp = tempfile.mkdtemp(prefix="cuzk-daemon-test-")
pb = du.load_pb(args.proto_dir, tmp, args.pb2_dir)

ck = du.Checks(f"daemon_grpc_{args.engine}")
check = ck.check


SVC = "/cuzk.v1.ProvingEngine/"
RESP = {"SubmitProof": pb.SubmitProofResponse, "AwaitProof": pb.AwaitProofResponse,
        "Prove": pb.ProveResponse, "CancelProof": pb.CancelProofResponse,
        "GetStatus": pb.GetStatusResponse, "GetMetrics": pb.GetMetricsResponse,
        "PreloadSRS": pb.PreloadSrsResponse, "EvictSRS": pb.EvictSrsResponse}


class Client:
    def __init__(self, target, own_connection=False):
        if own_connection:  # not shared with other channels to the same target
            self.ch = grpc.insecure_channel(target, options=du.GRPC_OPTIONS + [
                ("grpc.use_local_subchannel_pool", 1)])
        else:
            self.ch = du.channel(target)

    def call(self, method, req, timeout=30, raw=False, md=None):
        """(response, None) or (None, RpcError)."""
        des = RESP.get(method, pb.GetStatusResponse).FromString
        ser = (lambda b: b) if raw else (lambda m: m.SerializeToString())
        fn = self.ch.unary_unary(SVC + method, request_serializer=ser, response_deserializer=des)
        try:
            return fn(req, timeout=timeout, metadata=md), None
        except grpc.RpcError as e:
            return None, e

    def close(self):
        self.ch.close()


DAEMONS = []


@atexit.register
def _kill_leftovers():
    for p in DAEMONS:
        if p.poll() is None:
            p.kill()


class Daemon:
    def __init__(self, name, listen, extra="", job_ms=0, status=True, log_format="text", env=None):
        self.name = name
        self.listen = listen
        self.http_port = du.free_port() if status else None
        self.cfg = os.path.join(tmp, f"{name}.toml")
        with open(self.cfg, "w") as f:
            f.write(f'[daemon]\nlisten = "{listen}"\n')
            if status:
                f.write(f'status_listen = "127.0.0.1:{self.http_port}"\n')
            f.write(extra)
            f.write(f'\n[srs]\nparam_cache = "{tmp}"\n')  # checked at start: must exist
            f.write(f'\n[logging]\nlevel = "debug"\nformat = "{log_format}"\n')
        self.log = os.path.join(tmp, f"{name}.log")
        env = dict(os.environ, CUZK_ENGINE_DOUBLE_JOB_MS=str(job_ms), **(env or {}))
        env.pop("RUST_LOG", None)
        self.proc = du.start_daemon(args.daemon, self.cfg, open(self.log, "w"), env=env)
        DAEMONS.append(self.proc)
        self.client = Client(listen)
        try:
            du.wait_ready(self.client.ch, timeout=20)
        except grpc.FutureTimeoutError:
            self.proc.kill()
            print(open(self.log).read())
            raise SystemExit(f"{name}: daemon did not become ready")

    def call(self, *a, **k):
        return self.client.call(*a, **k)

    def http(self, path, method="GET"):
        req = urllib.request.Request(f"http://127.0.0.1:{self.http_port}{path}", method=method)
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, r.headers.get("Content-Type", ""), r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.headers.get("Content-Type", ""), e.read().decode()

    def stop(self, sig=signal.SIGTERM, timeout=30):
        rc = du.stop_daemon(self.proc, sig, timeout)
        self.client.close()
        text = self.logtext()
        check(" ERROR " not in text and '"level":"error"' not in text,
              f"{self.name}: no error-level log lines")
        return rc

    def logtext(self):
        return open(self.log).read()


def code(err):
    return err.code() if err is not None else grpc.StatusCode.OK


def winning(request_id="", **kw):
    return pb.SubmitProofRequest(request_id=request_id, proof_kind=pb.WINNING_POST,
                                 registered_proof=3, miner_id=1000,
                                 randomness=bytes(range(32)), vanilla_proofs=[b"vanilla"], **kw)


def porep(request_id="", **kw):
    wrapper = json.dumps({"SectorNum": 1, "Phase1Out": "e30=", "SectorSize": 2048}).encode()
    fields = dict(request_id=request_id, proof_kind=pb.POREP_SEAL_COMMIT, sector_size=2048,
                  registered_proof=5, sector_number=1, miner_id=1000, vanilla_proof=wrapper)
    fields.update(kw)
    return pb.SubmitProofRequest(**fields)


def bad_requests(d, tag):
    r, e = d.call("SubmitProof", pb.SubmitProofRequest(proof_kind=0, vanilla_proof=b"x"))
    check(code(e) == grpc.StatusCode.INVALID_ARGUMENT and e.details() == "invalid proof_kind: 0",
          f"{tag}: proof_kind 0 -> INVALID_ARGUMENT 'invalid proof_kind: 0'")
    raw = bytes([0x10, 7])  # field 2 (proof_kind) = 7, beyond the enum
    r, e = d.call("SubmitProof", raw, raw=True)
    check(code(e) == grpc.StatusCode.INVALID_ARGUMENT and e.details() == "invalid proof_kind: 7",
          f"{tag}: proof_kind 7 -> INVALID_ARGUMENT 'invalid proof_kind: 7'")
    r, e = d.call("Prove", pb.ProveRequest())
    check(code(e) == grpc.StatusCode.INVALID_ARGUMENT and e.details() == "missing submit field",
          f"{tag}: Prove without submit -> INVALID_ARGUMENT 'missing submit field'")
    req = winning()
    req.randomness = bytes(31)
    r, e = d.call("SubmitProof", req)
    check(code(e) == grpc.StatusCode.INVALID_ARGUMENT and "randomness must be 32 bytes, got 31"
          in e.details(), f"{tag}: 31-byte randomness -> INVALID_ARGUMENT")
    req = pb.SubmitProofRequest(proof_kind=pb.SNAP_DEALS_UPDATE, vanilla_proofs=[b"p"],
                                comm_r_old=bytes(5))
    r, e = d.call("SubmitProof", req)
    check(code(e) == grpc.StatusCode.INVALID_ARGUMENT and "comm_r_old must be 32 bytes"
          in e.details(), f"{tag}: 5-byte comm_r_old -> INVALID_ARGUMENT")
    r, e = d.call("SubmitProof", porep(sector_size=12345))
    check(code(e) == grpc.StatusCode.INVALID_ARGUMENT and "invalid sector_size: 12345"
          in e.details(), f"{tag}: sector_size 12345 -> INVALID_ARGUMENT")
    r, e = d.call("SubmitProof", porep(request_id="x" * 200))
    check(code(e) == grpc.StatusCode.INVALID_ARGUMENT and "request_id" in e.details(),
          f"{tag}: 200-byte request_id -> INVALID_ARGUMENT")
    raw = porep().SerializeToString() + bytes([0x28, 9])  # priority = 9
    r, e = d.call("SubmitProof", raw, raw=True)
    check(code(e) == grpc.StatusCode.INVALID_ARGUMENT and "invalid priority: 9" in e.details(),
          f"{tag}: priority 9 -> INVALID_ARGUMENT")
    r, e = d.call("GetStatus", b"\xff\xff\xff", raw=True)
    check(code(e) == grpc.StatusCode.INVALID_ARGUMENT and "does not decode" in e.details(),
          f"{tag}: undecodable bytes -> INVALID_ARGUMENT")
    r, e = d.call("NoSuchMethod", b"", raw=True)
    check(code(e) == grpc.StatusCode.UNIMPLEMENTED, f"{tag}: unknown method -> UNIMPLEMENTED")
    r, e = d.call("AwaitProof", pb.AwaitProofRequest(job_id="no-such-job"))
    check(code(e) == grpc.StatusCode.NOT_FOUND, f"{tag}: Await unknown job -> NOT_FOUND")
    r, e = d.call("AwaitProof", pb.AwaitProofRequest())
    check(code(e) == grpc.StatusCode.INVALID_ARGUMENT, f"{tag}: Await without job_id -> INVALID_ARGUMENT")
    r, e = d.call("CancelProof", pb.CancelProofRequest(job_id="no-such-job"))
    check(code(e) == grpc.StatusCode.NOT_FOUND, f"{tag}: Cancel unknown job -> NOT_FOUND")


REJECTED = (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.UNIMPLEMENTED)


def real_rejects(d, tag):
    """Real engine: the fake vanilla proofs here may be refused at submit
    (bad input / no circuit).  That must be a clean INVALID_ARGUMENT or
    UNIMPLEMENTED; the job life cycle is then left to the double's run."""
    if DOUBLE:
        return False
    r, e = d.call("SubmitProof", winning(f"probe-{tag}"))
    if e is None:
        d.call("CancelProof", pb.CancelProofRequest(job_id=f"probe-{tag}"))
        return False
    check(code(e) in REJECTED, f"{tag}: real engine refuses the fake vanilla proof cleanly ({e.details()})")
    return True


def jobs(d, tag, job_ms):
    if real_rejects(d, tag):
        return
    # Submit + Await with a timeout shorter than the job: TIMEOUT, the job goes on.
    rid = f"winpost-1000-{tag}"
    r, e = d.call("SubmitProof", winning(rid))
    check(e is None and r.job_id == rid, f"{tag}: SubmitProof keeps request_id as job_id")
    t0 = time.monotonic()
    r, e = d.call("AwaitProof", pb.AwaitProofRequest(job_id=rid, timeout_ms=200))
    dt = time.monotonic() - t0
    check(e is None and r.status == pb.AwaitProofResponse.TIMEOUT and dt < job_ms / 1000.0,
          f"{tag}: AwaitProof timeout_ms=200 -> TIMEOUT after {dt:.2f}s")
    r2, e2 = d.call("SubmitProof", winning(rid))
    check(e2 is None and r2.job_id == rid, f"{tag}: duplicate request_id -> the same job")
    r, e = d.call("AwaitProof", pb.AwaitProofRequest(job_id=rid))
    final = e is None and r.status in (pb.AwaitProofResponse.COMPLETED, pb.AwaitProofResponse.FAILED)
    check(final, f"{tag}: AwaitProof without timeout -> final status")
    if DOUBLE and final:
        check(r.status == pb.AwaitProofResponse.FAILED and "unsupported" in r.error_message
              and r.total_ms >= job_ms - 50, f"{tag}: double fails the job 'unsupported' with timings")
    # An empty request_id gets a UUIDv4.
    r, e = d.call("SubmitProof", winning())
    check(e is None and re.fullmatch(
        r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", r.job_id),
        f"{tag}: empty request_id -> UUIDv4 job id")
    d.call("AwaitProof", pb.AwaitProofRequest(job_id=r.job_id))
    # Cancel: A runs, B waits behind it (lower priority).
    a, _ = d.call("SubmitProof", porep(f"A-{tag}", priority=pb.HIGH))
    time.sleep(0.3)
    b, _ = d.call("SubmitProof", porep(f"B-{tag}", priority=pb.LOW))
    r, e = d.call("CancelProof", pb.CancelProofRequest(job_id=f"B-{tag}"))
    check(e is None and not r.was_running, f"{tag}: Cancel queued job -> was_running false")
    r, e = d.call("AwaitProof", pb.AwaitProofRequest(job_id=f"B-{tag}"))
    check(e is None and r.status == pb.AwaitProofResponse.CANCELLED, f"{tag}: cancelled queued job awaits CANCELLED")
    r, e = d.call("CancelProof", pb.CancelProofRequest(job_id=f"A-{tag}"))
    check(e is None and r.was_running, f"{tag}: Cancel running job -> was_running true")
    r, e = d.call("AwaitProof", pb.AwaitProofRequest(job_id=f"A-{tag}"))
    check(e is None and r.status == pb.AwaitProofResponse.CANCELLED, f"{tag}: cancelled running job awaits CANCELLED")
    # Prove: a failed proof is gRPC OK with result.status FAILED.
    r, e = d.call("Prove", pb.ProveRequest(submit=porep(f"porep-1000-1-{tag}")))
    check(e is None and r.result.job_id == f"porep-1000-1-{tag}" and r.result.status in (
        pb.AwaitProofResponse.COMPLETED, pb.AwaitProofResponse.FAILED), f"{tag}: Prove -> OK with a final result")
    if DOUBLE:
        check(r is not None and r.result.status == pb.AwaitProofResponse.FAILED
              and "unsupported" in r.result.error_message, f"{tag}: Prove via double -> FAILED 'unsupported'")
    # A client deadline on Prove reaches the engine: the job is cancelled.
    rid = f"deadline-{tag}"
    r, e = d.call("Prove", pb.ProveRequest(submit=porep(rid)), timeout=0.4)
    check(code(e) == grpc.StatusCode.DEADLINE_EXCEEDED, f"{tag}: Prove past its deadline -> DEADLINE_EXCEEDED")
    r, e = d.call("AwaitProof", pb.AwaitProofRequest(job_id=rid))
    check(e is None and r.status == pb.AwaitProofResponse.CANCELLED,
          f"{tag}: ... and the server cancelled the job ({r.error_message if r else e})")
    # A client deadline on AwaitProof abandons the wait only.
    rid = f"await-deadline-{tag}"
    d.call("SubmitProof", porep(rid))
    r, e = d.call("AwaitProof", pb.AwaitProofRequest(job_id=rid), timeout=0.3)
    check(code(e) == grpc.StatusCode.DEADLINE_EXCEEDED, f"{tag}: AwaitProof past its deadline -> DEADLINE_EXCEEDED")
    r, e = d.call("AwaitProof", pb.AwaitProofRequest(job_id=rid))
    check(e is None and r.status != pb.AwaitProofResponse.CANCELLED,
          f"{tag}: ... and the job was not cancelled (status {r.status if r else e})")


def cancel_owner(d, tag, secret=None):
    """CancelProof belongs to the connection that submitted the job, or to a
    caller presenting the shared secret: another connection without it gets
    PERMISSION_DENIED and the job goes on."""
    if real_rejects(d, tag):
        return
    md = [("authorization", f"Bearer {secret}")] if secret else None
    other = Client(d.listen, own_connection=True)
    rid = f"owned-{tag}"
    r, e = d.call("SubmitProof", porep(rid, priority=pb.LOW), md=md)
    check(e is None, f"{tag}: a job submitted for the ownership check")
    r, e = other.call("CancelProof", pb.CancelProofRequest(job_id=rid), md=md)
    if secret:
        check(e is None, f"{tag}: another connection with the secret cancels it "
                         f"({e.details() if e else 'ok'})")
    else:
        check(code(e) == grpc.StatusCode.PERMISSION_DENIED and "another connection" in e.details(),
              f"{tag}: another connection's CancelProof -> PERMISSION_DENIED "
              f"({e.details() if e else r})")
        r, e = d.call("AwaitProof", pb.AwaitProofRequest(job_id=rid, timeout_ms=100))
        check(e is None and r.status != pb.AwaitProofResponse.CANCELLED,
              f"{tag}: ... and the job goes on")
        r, e = d.call("CancelProof", pb.CancelProofRequest(job_id=rid))
        check(e is None, f"{tag}: the submitting connection cancels it")
    r, e = d.call("AwaitProof", pb.AwaitProofRequest(job_id=rid), md=md)
    check(e is None and r.status == pb.AwaitProofResponse.CANCELLED, f"{tag}: ... CANCELLED")
    other.close()


def srs_and_status(d, tag):
    r, e = d.call("PreloadSRS", pb.PreloadSrsRequest(circuit_id="porep-2k"))
    if DOUBLE:
        check(e is None and not r.already_loaded, f"{tag}: PreloadSRS porep-2k -> loaded")
        r, e = d.call("PreloadSRS", pb.PreloadSrsRequest(circuit_id="porep-2k"))
        check(e is None and r.already_loaded, f"{tag}: PreloadSRS again -> already_loaded")
        r, e = d.call("GetStatus", pb.GetStatusRequest())
        check(e is None and [s.circuit_id for s in r.loaded_srs] == ["porep-2k"],
              f"{tag}: GetStatus lists the loaded SRS")
        r, e = d.call("EvictSRS", pb.EvictSrsRequest(circuit_id="porep-2k"))
        check(e is None and r.was_loaded, f"{tag}: EvictSRS -> was_loaded")
        r, e = d.call("EvictSRS", pb.EvictSrsRequest(circuit_id="porep-2k"))
        check(e is None and not r.was_loaded, f"{tag}: EvictSRS again -> not loaded")
    r, e = d.call("PreloadSRS", pb.PreloadSrsRequest(circuit_id="no-such-circuit"))
    check(code(e) == grpc.StatusCode.NOT_FOUND, f"{tag}: PreloadSRS unknown id -> NOT_FOUND")
    r, e = d.call("PreloadSRS", pb.PreloadSrsRequest())
    check(code(e) == grpc.StatusCode.INVALID_ARGUMENT, f"{tag}: PreloadSRS without id -> INVALID_ARGUMENT")
    r, e = d.call("EvictSRS", pb.EvictSrsRequest())
    check(code(e) == grpc.StatusCode.INVALID_ARGUMENT, f"{tag}: EvictSRS without id -> INVALID_ARGUMENT")
    st, e = d.call("GetStatus", pb.GetStatusRequest())
    check(e is None and (st.total_proofs_failed >= 1 or not DOUBLE), f"{tag}: GetStatus counts failed proofs")
    m, e = d.call("GetMetrics", pb.GetMetricsRequest())
    check(e is None and "cuzk_proofs_failed_total" in m.prometheus_text, f"{tag}: GetMetrics -> Prometheus text")
    if d.http_port:
        code_, ctype, body = d.http("/status")
        ok = code_ == 200 and ctype.startswith("application/json")
        doc = json.loads(body) if ok else {}
        want = ["uptime_secs", "memory", "synthesis", "pipelines", "gpu_workers", "allocations",
                "counters", "buffers"]
        check(ok and all(k in doc for k in want), f"{tag}: HTTP /status has the Rust daemon's keys")
        check(ok and isinstance(doc.get("devices"), list) and (DOUBLE or (
              len(doc["devices"]) >= 1 and all(k in doc["devices"][0] for k in (
                  "name", "state", "workers", "resident_sets", "resident_bytes")))),
              f"{tag}: HTTP /status lists the prover devices")
        check(ok and doc["counters"]["total_failed"] >= st.total_proofs_failed
              and set(doc["memory"]) >= {"total_bytes", "used_bytes", "available_bytes"}
              and "porep-c2" in doc["counters"]["failed_by_kind"], f"{tag}: HTTP /status counters")
        code_, ctype, body = d.http("/metrics")
        check(code_ == 200 and ctype.startswith("text/plain") and "cuzk_proofs_completed_total" in body,
              f"{tag}: HTTP /metrics -> Prometheus text")
        check(code_ == 200 and (DOUBLE or "cuzk_device_up{device=" in body),
              f"{tag}: HTTP /metrics has per-device samples")
        check(d.http("/nope")[0] == 404, f"{tag}: HTTP /nope -> 404")
        check(d.http("/status", method="POST")[0] == 405, f"{tag}: HTTP POST -> 405")


def big_message(d, tag):
    big = porep(f"big-{tag}")
    big.vanilla_proof = b"{" + b" " * (40 << 20) + b"}"
    r, e = d.call("SubmitProof", big, timeout=60)
    check((e is None and r.job_id == f"big-{tag}") or (not DOUBLE and code(e) in REJECTED),
          f"{tag}: 40 MB SubmitProof delivered to the engine")
    d.call("CancelProof", pb.CancelProofRequest(job_id=f"big-{tag}"))


def sigterm_during_prove(d, tag, want_status):
    out = {}

    def prove():
        out["r"], out["e"] = d.call("Prove", pb.ProveRequest(submit=porep(f"term-{tag}")), timeout=60)

    t = threading.Thread(target=prove)
    t.start()
    time.sleep(0.5)
    rc = d.stop(signal.SIGTERM)
    t.join(30)
    check(rc == 0, f"{tag}: SIGTERM during a Prove -> exit 0 (rc {rc})")
    r, e = out.get("r"), out.get("e")
    # want_status None (real engine): any final result, or UNAVAILABLE
    final = (pb.AwaitProofResponse.COMPLETED, pb.AwaitProofResponse.FAILED,
             pb.AwaitProofResponse.CANCELLED)
    clean = (not DOUBLE and e is not None and e.code() in REJECTED) or \
        (e is None and (r.result.status == want_status or
                            (want_status is None and r.result.status in final))) or \
        (e is not None and e.code() == grpc.StatusCode.UNAVAILABLE and want_status is None)
    check(clean, f"{tag}: the waiting client got a clean answer "
                 f"({r.result.status if r else (e.code(), e.details()) if e else 'nothing'})")
    check("draining" in d.logtext() and "stopped" in d.logtext(), f"{tag}: drain logged")


# ---- the unix-socket daemon: finish running jobs on shutdown --------------------
JOB_MS = 1500
sock = os.path.join(tmp, "run", "curio", "cuzk.sock")
uds = Daemon("uds", f"unix://{sock}", job_ms=JOB_MS)
st = os.stat(sock)
check(stat.S_ISSOCK(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o660,
      f"uds: socket created in a new folder with mode 0660 ({oct(stat.S_IMODE(st.st_mode))})")
second = subprocess.run([args.daemon, "daemon", "--config", uds.cfg], capture_output=True,
                        text=True, timeout=30)
check(second.returncode == 1 and "another process is serving" in second.stderr,
      "uds: a second daemon on a live socket exits 1 naming the problem")
bad_requests(uds, "uds")
jobs(uds, "uds", JOB_MS)
srs_and_status(uds, "uds")
big_message(uds, "uds")
r, e = uds.call("GetStatus", pb.GetStatusRequest())
check(e is None, "uds: still serving after all the errors")
sigterm_during_prove(uds, "uds", pb.AwaitProofResponse.FAILED if DOUBLE else None)
check(not os.path.exists(sock), "uds: socket removed at exit")

# A stale socket (nobody listening) is replaced.
s = socket.socket(socket.AF_UNIX)
s.bind(sock)
s.close()
notify_path = os.path.join(tmp, "notify.sock")
notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
notify.bind(notify_path)
notify.settimeout(10)
uds2 = Daemon("uds-stale", f"unix://{sock}", status=False, log_format="json",
              env={"NOTIFY_SOCKET": notify_path})
r, e = uds2.call("GetStatus", pb.GetStatusRequest())
uds2.call("SubmitProof", pb.SubmitProofRequest(proof_kind=9))
check(e is None and "removed a stale socket" in uds2.logtext(), "uds: stale socket removed and replaced")
check(uds2.stop(signal.SIGINT) == 0, "uds: SIGINT with nothing running -> exit 0")
msgs = []
try:
    while len(msgs) < 2:
        msgs.append(notify.recv(256).decode())
except socket.timeout:
    pass
check(msgs == ["READY=1", "STOPPING=1"], f"systemd notify: READY=1 then STOPPING=1 ({msgs})")
try:
    lines = [json.loads(line) for line in uds2.logtext().splitlines()]
except ValueError:
    lines = []
check(len(lines) >= 4 and all({"ts", "level", "target", "msg"} <= set(x) for x in lines)
      and any(x.get("error") == "invalid proof_kind: 9" and x["level"] == "warn" for x in lines),
      "logging.format = json: one JSON object per line, key=value pairs as fields")

# ---- the TCP daemon: cancel running jobs on shutdown ----------------------------
port = du.free_port()
tcp = Daemon("tcp", f"127.0.0.1:{port}", extra='shutdown = "cancel"\n', job_ms=JOB_MS)
bad_requests(tcp, "tcp")
jobs(tcp, "tcp", JOB_MS)
cancel_owner(tcp, "tcp")
srs_and_status(tcp, "tcp")
sigterm_during_prove(tcp, "tcp", pb.AwaitProofResponse.CANCELLED)

# ---- with the shared secret, any caller presenting it may cancel any job -----------
token = os.path.join(tmp, "token")
with open(token, "w") as f:
    f.write("s3cret-s3cret-s3cret\n")
os.chmod(token, 0o600)
if DOUBLE:  # the real engine refuses these fake vanilla proofs: nothing to cancel
    sec = Daemon("secret", f"127.0.0.1:{du.free_port()}", status=False, job_ms=JOB_MS,
                 extra=f'shutdown = "cancel"\nauth_token_file = "{token}"\n')
    cancel_owner(sec, "secret", secret="s3cret-s3cret-s3cret")
    check(sec.stop() == 0, "secret: exit 0")

# ---- a full queue: RESOURCE_EXHAUSTED -------------------------------------------
full = Daemon("full", f"127.0.0.1:{du.free_port()}", status=False, job_ms=JOB_MS,
              extra='shutdown = "cancel"\n[scheduler]\nmax_pending_jobs = 1\n')
if not real_rejects(full, "full"):
    r, e = full.call("SubmitProof", porep("first"))
    check(e is None, "full: the first job is accepted")
    r, e = full.call("SubmitProof", porep("second"))
    check(code(e) == grpc.StatusCode.RESOURCE_EXHAUSTED and (not DOUBLE or "max_pending_jobs" in e.details()),
          f"full: beyond scheduler.max_pending_jobs -> RESOURCE_EXHAUSTED ({e.details() if e else r})")
    r, e = full.call("Prove", pb.ProveRequest(submit=winning("third")))
    check(code(e) == grpc.StatusCode.RESOURCE_EXHAUSTED, "full: Prove too -> RESOURCE_EXHAUSTED")
check(full.stop() == 0, "full: exit 0 with a job running (cancel mode)")

# ---- a memory budget too small for one 32 GiB partition: RESOURCE_EXHAUSTED ------
# (issue #29) A valid 32 GiB C1 (invented without sealing) under a 4 GiB budget:
# refused at submit with the budget named, no proof attempted, nothing swapped.
if not DOUBLE:
    c1 = os.path.join(tmp, "c1-32g.json")
    p = subprocess.run([args.daemon, "c1", "synth", "--valid", "--proof", "StackedDrg32GiBV1_1",
                        "--miner", "1000", "--sector", "7", "--out", c1],
                       capture_output=True, text=True, timeout=300)
    check(p.returncode == 0, f"budget: a valid 32 GiB C1 made ({p.stderr.strip()[-200:]})")
    small = Daemon("budget", f"127.0.0.1:{du.free_port()}", status=False,
                   extra='\n[memory]\ntotal_budget = "4GiB"\n')
    with open(c1, "rb") as f:
        req = pb.SubmitProofRequest(request_id="big32", proof_kind=pb.POREP_SEAL_COMMIT,
                                    sector_size=32 << 30, registered_proof=8, sector_number=7,
                                    miner_id=1000, vanilla_proof=f.read())
    r, e = small.call("Prove", pb.ProveRequest(submit=req), timeout=300)
    check(code(e) == grpc.StatusCode.RESOURCE_EXHAUSTED and "memory budget" in e.details()
          and "porep" in e.details(),
          f"budget: a 32 GiB PoRep under 4 GiB -> RESOURCE_EXHAUSTED ({e.details() if e else r})")
    r, e = small.call("GetStatus", pb.GetStatusRequest())
    check(e is None, "budget: the daemon still answers")
    check(small.stop() == 0, "budget: exit 0")
    os.unlink(c1)

# ---- the gRPC receive limit follows the memory budget (issue #46) -----------------
# total_budget = 64 MiB: a message over a sixth of it is refused by gRPC core from
# its length prefix (RESOURCE_EXHAUSTED naming the limit) before it is read whole;
# one under it reaches the engine; the daemon serves on.
LIMIT = (64 << 20) // 6
rl = Daemon("recvlimit", f"127.0.0.1:{du.free_port()}", status=False,
            extra='\n[memory]\ntotal_budget = "64MiB"\n')
check(f"max_receive={LIMIT}" in rl.logtext(), f"recvlimit: the receive limit is logged ({LIMIT})")
over = porep("over-limit")
over.vanilla_proof = b"x" * LIMIT
r, e = rl.call("SubmitProof", over, timeout=60)
check(code(e) == grpc.StatusCode.RESOURCE_EXHAUSTED and str(LIMIT) in e.details(),
      f"recvlimit: a message over the limit -> RESOURCE_EXHAUSTED ({e.details() if e else r})")
under = porep("under-limit")
under.vanilla_proof = b"{" + b" " * (1 << 20) + b"}"
r, e = rl.call("SubmitProof", under, timeout=60)
check((e is None and r.job_id == "under-limit") or (not DOUBLE and code(e) in REJECTED),
      f"recvlimit: a 1 MiB message reaches the engine ({e.details() if e else 'accepted'})")
rl.call("CancelProof", pb.CancelProofRequest(job_id="under-limit"))
r, e = rl.call("GetStatus", pb.GetStatusRequest())
check(e is None, "recvlimit: the daemon still answers")
check(rl.stop() == 0, "recvlimit: exit 0")

# ---- many concurrent calls: every one answered, nothing crosses --------------------
busy_d = Daemon("concurrent", f"127.0.0.1:{du.free_port()}", status=False)
results = {}


def one(i):
    if i % 3 == 0:
        r, e = busy_d.call("Prove", pb.ProveRequest(submit=winning(f"c-{i}")))
        results[i] = (e is None and r.result.job_id == f"c-{i}" and r.result.status in (
            pb.AwaitProofResponse.COMPLETED, pb.AwaitProofResponse.FAILED)) or (
            not DOUBLE and code(e) in REJECTED)
    elif i % 3 == 1:
        r, e = busy_d.call("GetStatus", pb.GetStatusRequest())
        results[i] = e is None
    else:
        r, e = busy_d.call("SubmitProof", porep(f"c-{i}"))
        r2, e2 = busy_d.call("AwaitProof", pb.AwaitProofRequest(job_id=f"c-{i}"))
        results[i] = (e is None and e2 is None and r2.job_id == f"c-{i}") or (
            not DOUBLE and code(e) in REJECTED)


threads = [threading.Thread(target=one, args=(i,)) for i in range(96)]
for t in threads:
    t.start()
for t in threads:
    t.join(120)
check(len(results) == 96 and all(results.values()),
      f"96 concurrent calls (Prove, GetStatus, Submit+Await) all answered correctly "
      f"({sum(results.values())}/96)")
check(busy_d.stop() == 0, "concurrent: exit 0")

# ---- start-up errors -------------------------------------------------------------
blocker = socket.socket()
blocker.bind(("127.0.0.1", 0))
blocker.listen(1)
busy = blocker.getsockname()[1]
cfg = os.path.join(tmp, "busy.toml")
with open(cfg, "w") as f:
    f.write(f'[daemon]\nlisten = "127.0.0.1:{busy}"\n[srs]\nparam_cache = "{tmp}"\n')
p = subprocess.run([args.daemon, "daemon", "--config", cfg], capture_output=True, text=True, timeout=30)
check(p.returncode == 1 and "cannot listen" in p.stderr, "tcp: a port in use -> exit 1 naming it")
blocker.close()
p = subprocess.run([args.daemon, "daemon", "--config", os.path.join(tmp, "missing.toml")],
                   capture_output=True, text=True, timeout=30)
check(p.returncode == 2 and "missing.toml" in p.stderr, "a missing --config file -> exit 2")
p = subprocess.run([args.daemon, "daemon", "--bogus"], capture_output=True, text=True, timeout=30)
check(p.returncode == 2 and "unknown option" in p.stderr, "an unknown option -> exit 2")

shutil.rmtree(tmp, ignore_errors=True)
ck.finish()
