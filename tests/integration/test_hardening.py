#!/usr/bin/python3
"""The daemon hardened (issue #33), against the real cuzk daemon (CPU, an
empty parameter folder: no proof is made, none is needed).

usage: test_hardening.py CUZK PROTO_DIR

- network exposure: a TCP listen address reachable from other hosts is
  refused unless daemon.allow_remote, which then logs a loud line;
- the shared secret (daemon.auth_token_file): over TCP, calls without
  "authorization: Bearer <secret>" (or with a wrong one) get UNAUTHENTICATED,
  CancelProof and AwaitProof included; with it they pass; over the unix
  socket no secret is needed;
- the parameter folder is checked at start (missing, not a folder);
- a request id with a newline cannot forge a log line;
- the HTTP endpoint: 20 idle connections and a client sending one byte
  every 4 s, and /status still answers within 0.75 s, 5 of 5 times;
- /metrics parses with prometheus_client's parser, one family per name,
  cuzk_proofs_completed/_failed as counters with _total samples;
- memory.total_budget: a request that can never fit is RESOURCE_EXHAUSTED at
  submit, naming its need and the budget.
"""
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import grpc

import daemon_util as du

exe, proto_dir = sys.argv[1], sys.argv[2]
tmp = tempfile.mkdtemp(prefix="cuzk-hard-")
pb = du.load_pb(proto_dir, tmp)
params = os.path.join(tmp, "params")
os.mkdir(params)
ck = du.Checks("daemon_hardening")
check = ck.check


def config(name, listen, extra="", params_dir=params, status=None):
    p = os.path.join(tmp, name + ".toml")
    with open(p, "w") as f:
        f.write(f'[daemon]\nlisten = "{listen}"\n')
        if status:
            f.write(f'status_listen = "127.0.0.1:{status}"\n')
        f.write(extra)
        f.write(f'\n[srs]\nparam_cache = "{params_dir}"\n[gpus]\nuse_gpu = false\n')
    return p


def run_fail(cfg):
    """A daemon that must refuse to start: (exit status, stderr)."""
    try:
        p = subprocess.run([exe, "daemon", "--config", cfg], capture_output=True, text=True,
                           timeout=20, env=du.daemon_env())
    except subprocess.TimeoutExpired:
        return None, "it started and served"
    return p.returncode, p.stderr


DAEMONS = []


def section(fn):
    """Runs one part; an exception (a daemon that did not start, say) is a failure."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - any error fails the part, the rest still runs
        check(False, f"{fn.__name__}: {type(e).__name__}: {e}")
    for p in DAEMONS:
        if p.poll() is None:
            p.kill()
            p.wait()
    return fn


class Daemon:
    def __init__(self, name, cfg):
        self.log = os.path.join(tmp, name + ".log")
        self.proc = du.start_daemon(exe, cfg, open(self.log, "w"))
        DAEMONS.append(self.proc)

    def text(self):
        return open(self.log).read()

    def stop(self):
        return du.stop_daemon(self.proc, signal.SIGTERM, 60)


def call(ch, method, req, resp, md=None):
    fn = ch.unary_unary("/cuzk.v1.ProvingEngine/" + method,
                        request_serializer=lambda m: m.SerializeToString(),
                        response_deserializer=resp.FromString)
    try:
        return fn(req, timeout=20, metadata=md), None
    except grpc.RpcError as e:
        return None, e


port = du.free_port()
sock = os.path.join(tmp, "s", "cuzk.sock")
secret = "s3cr3t-0123456789abcdef"
tok = os.path.join(tmp, "token")
with open(tok, "w") as f:
    f.write(secret + "\n")
os.chmod(tok, 0o600)


@section
def network_exposure():
    rc, err = run_fail(config("remote", f"0.0.0.0:{port}"))
    check(rc == 1 and "reachable from other hosts" in err and "allow_remote" in err,
          "0.0.0.0 without daemon.allow_remote: refused at start, naming the key", err)
    rc, err = run_fail(config("remote6", f"[::]:{port}"))
    check(rc == 1 and "allow_remote" in err, "[::] without allow_remote: refused", err)
    d = Daemon("remote_ok", config("remote_ok", f"0.0.0.0:{port}", "allow_remote = true\n"))
    ch = du.channel(f"127.0.0.1:{port}")
    du.wait_ready(ch, 30)
    r, e = call(ch, "GetStatus", pb.GetStatusRequest(), pb.GetStatusResponse)
    check(e is None, "allow_remote = true: serves")
    check(d.stop() == 0 and "REMOTE ACCESS ENABLED" in d.text() and "auth=NONE" in d.text(),
          "allow_remote: a loud warning, saying there is no secret", d.text())
    ch.close()

@section
def shared_secret():
    short = os.path.join(tmp, "short")
    with open(short, "w") as f:
        f.write("abc\n")
    rc, err = run_fail(config("short", f"127.0.0.1:{port}", f'auth_token_file = "{short}"\n'))
    check(rc == 1 and "auth_token_file" in err and "16" in err, "a too-short secret: refused at start", err)
    rc, err = run_fail(config("nofile", f"127.0.0.1:{port}", f'auth_token_file = "{tmp}/nope"\n'))
    check(rc == 1 and "nope" in err, "a missing secret file: refused at start", err)

    d = Daemon("tok", config("tok", f"127.0.0.1:{port}", f'auth_token_file = "{tok}"\n'))
    ch = du.channel(f"127.0.0.1:{port}")
    du.wait_ready(ch, 30)
    good = [("authorization", "Bearer " + secret)]
    bad = [("authorization", "Bearer " + secret[:-1] + "X")]
    reqs = {"GetStatus": (pb.GetStatusRequest(), pb.GetStatusResponse),
            "CancelProof": (pb.CancelProofRequest(job_id="porep-1000-1"), pb.CancelProofResponse),
            "AwaitProof": (pb.AwaitProofRequest(job_id="porep-1000-1", timeout_ms=1000),
                           pb.AwaitProofResponse),
            "SubmitProof": (pb.SubmitProofRequest(request_id="x", proof_kind=1), pb.SubmitProofResponse)}
    for m, (req, resp) in reqs.items():
        for what, md in (("no secret", None), ("a wrong secret", bad)):
            r, e = call(ch, m, req, resp, md)
            check(e is not None and e.code() == grpc.StatusCode.UNAUTHENTICATED,
                  f"tcp + secret: {m} with {what} -> UNAUTHENTICATED", str(e))
        r, e = call(ch, m, req, resp, good)
        check(e is None or e.code() != grpc.StatusCode.UNAUTHENTICATED,
              f"tcp + secret: {m} with the secret passes ({e.code() if e else 'OK'})")
    check(d.stop() == 0 and "call refused, no valid secret" in d.text() and secret not in d.text(),
          "refusals logged, the secret never", d.text())
    ch.close()
    d = Daemon("tok_unix", config("tok_unix", f"unix://{sock}", f'auth_token_file = "{tok}"\n'))
    ch = du.channel(f"unix://{sock}")
    du.wait_ready(ch, 30)
    r, e = call(ch, "CancelProof", *reqs["CancelProof"])
    check(e is None or e.code() != grpc.StatusCode.UNAUTHENTICATED,
          "unix socket + secret: callers need none (the socket's mode guards it)")
    check(d.stop() == 0, "unix daemon stops")
    ch.close()

@section
def parameter_folder():
    rc, err = run_fail(config("noparams", f"unix://{sock}", params_dir=os.path.join(tmp, "none")))
    check(rc == 1 and "parameter folder" in err and os.path.join(tmp, "none") in err,
          "a missing param_cache: a clear error at start", err)
    rc, err = run_fail(config("fileparams", f"unix://{sock}", params_dir=tok))
    check(rc == 1 and "is not a folder" in err, "param_cache naming a file: a clear error at start", err)

http_port = du.free_port()


@section
def logs_http_metrics():
    d = Daemon("main", config("main", f"unix://{sock}", status=http_port))
    ch = du.channel(f"unix://{sock}")
    du.wait_ready(ch, 30)
    forged = "porep-1-2\n2026-01-01T00:00:00.000Z ERROR daemon: FORGED line"
    r, e = call(ch, "SubmitProof", pb.SubmitProofRequest(request_id=forged, proof_kind=1),
                pb.SubmitProofResponse)
    time.sleep(0.5)
    lines = d.text().splitlines()
    check(any("porep-1-2\\n2026" in ln for ln in lines)
          and not any(ln.startswith("2026-01-01T00:00:00.000Z") for ln in lines),
          "a request id with a newline stays on its line, escaped", d.text())


    def status_ms():
        t = time.monotonic()
        with urllib.request.urlopen(f"http://127.0.0.1:{http_port}/status", timeout=30) as r:
            ok = r.status == 200 and b"uptime_secs" in r.read()
        return ok, (time.monotonic() - t) * 1000


    idle = []
    for _ in range(20):
        s = socket.create_connection(("127.0.0.1", http_port))
        idle.append(s)
    stop = threading.Event()


    def dribble():
        s = socket.create_connection(("127.0.0.1", http_port))
        for ch_ in b"GET /status HTTP/1.1\r\nHost: x\r\n\r\n":
            if stop.wait(4):
                break
            try:
                s.send(bytes([ch_]))
            except OSError:
                break
        s.close()


    t = threading.Thread(target=dribble)
    t.start()
    time.sleep(0.3)
    times = []
    for i in range(5):
        ok, ms = status_ms()
        times.append((ok, round(ms)))
        time.sleep(1)
    check(all(ok and ms < 750 for ok, ms in times),
          f"/status beside 20 idle connections and a 1-byte-per-4-s client: 5 of 5 under 0.75 s {times}")
    stop.set()
    t.join()
    for s in idle:
        s.close()

    from prometheus_client.parser import text_string_to_metric_families
    with urllib.request.urlopen(f"http://127.0.0.1:{http_port}/metrics", timeout=10) as r:
        text = r.read().decode()
    fams = list(text_string_to_metric_families(text))
    names = [f.name for f in fams]
    check(len(names) == len(set(names)), f"/metrics: one family per name ({sorted(n for n in names if names.count(n) > 1)})")
    by = {f.name: f for f in fams}
    for n in ("cuzk_proofs_completed", "cuzk_proofs_failed"):
        f = by.get(n)
        check(f is not None and f.type == "counter" and f.samples
              and all(s.name == n + "_total" for s in f.samples),
              f"/metrics: {n} is one counter family of {n}_total samples")
    check(d.stop() == 0, "main daemon stops")



@section
def memory_budget():
    # memory.total_budget = 1 MiB: a request of 1 MiB of vanilla bytes can
    # never fit (3 copies while submitted): gRPC refuses it from its length
    # prefix, RESOURCE_EXHAUSTED naming the receive limit (a sixth of the
    # budget), before reading it; one under that limit reaches the engine
    # (which refuses these bytes as a C1); the daemon serves on.
    msock = os.path.join(tmp, "m", "cuzk.sock")
    d = Daemon("membudget", config("membudget", f"unix://{msock}",
                                   '\n[memory]\ntotal_budget = "1MiB"\n'))
    ch = du.channel(f"unix://{msock}")
    du.wait_ready(ch, 30)
    req = pb.SubmitProofRequest(request_id="big", proof_kind=pb.POREP_SEAL_COMMIT,
                                registered_proof=5, vanilla_proof=b"x" * (1 << 20))
    r, e = call(ch, "SubmitProof", req, pb.SubmitProofResponse)
    check(e is not None and e.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
          and str((1 << 20) // 6) in e.details(),
          "a message over the budget's receive limit: RESOURCE_EXHAUSTED naming the limit",
          e and f"{e.code()} {e.details()}")
    req.vanilla_proof = b"x" * 100000
    r, e = call(ch, "SubmitProof", req, pb.SubmitProofResponse)
    check(e is not None and e.code() == grpc.StatusCode.INVALID_ARGUMENT,
          "a message under the limit reaches the engine", e and f"{e.code()} {e.details()}")
    r, e = call(ch, "GetStatus", pb.GetStatusRequest(), pb.GetStatusResponse)
    check(e is None, "and the daemon serves on")
    check(d.stop() == 0, "membudget daemon stops")
    ch.close()


ck.finish()
