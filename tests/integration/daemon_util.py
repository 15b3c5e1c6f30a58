"""Start and stop a cuzk daemon for the integration tests, in one place.

Imported by daemon_e2e.py, daemon_priority.py, daemon_requests.py, snap_daemon_e2e.py,
daemon_soak.py, bench_client_e2e.py, test_daemon.py and test_config.py.  ctest runs those scripts by their path in
the source tree, so Python finds this module beside them (sys.path[0]) from
any working directory.

A daemon is a process taking `daemon --config FILE`: the real cuzk, or
cuzk_daemon_test (the server over the engine test double)."""
import os
import shutil
import signal
import socket
import subprocess
import sys

# What Curio's client allows each way, and so the daemon (src/server/grpc_args.h).
MAX_MESSAGE = 256 << 20
GRPC_OPTIONS = [("grpc.max_send_message_length", MAX_MESSAGE),
                ("grpc.max_receive_message_length", MAX_MESSAGE)]


def load_pb(proto_dir, out_dir, pb2_dir=None):
    """The cuzk.v1 message classes: generated from PROTO_DIR/cuzk/v1/proving.proto
    into out_dir with protoc, or taken from pb2_dir where they already are."""
    if pb2_dir:
        sys.path.insert(0, pb2_dir)
    else:
        protoc = shutil.which("protoc") or "/usr/bin/protoc"
        subprocess.run([protoc, f"--python_out={out_dir}", f"-I{proto_dir}",
                        os.path.join(proto_dir, "cuzk/v1/proving.proto")], check=True)
        sys.path.insert(0, out_dir)
    from cuzk.v1 import proving_pb2
    return proving_pb2


def free_port():
    """A TCP port on 127.0.0.1 that nobody listens on (now)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def daemon_env(extra=None):
    """The environment for a daemon: ours, without FIL_PROOFS_PARAMETER_CACHE
    (a config without param_cache would use it), plus extra."""
    env = dict(os.environ)
    env.pop("FIL_PROOFS_PARAMETER_CACHE", None)
    env.update(extra or {})
    return env


def write_config(path, listen, params=None, extra=""):
    """A cuzk.toml listening on listen; with params, a CPU-only engine whose
    parameters are in that folder; extra is appended as written."""
    with open(path, "w") as f:
        f.write(f'[daemon]\nlisten = "{listen}"\n')
        if params is not None:
            f.write(f'[srs]\nparam_cache = "{params}"\n[gpus]\nuse_gpu = false\n')
        f.write(extra)
    return path


def start_daemon(exe, cfg, log, env=None):
    """exe daemon --config cfg, stderr into the open file log, stdout dropped."""
    return subprocess.Popen([exe, "daemon", "--config", cfg], stdout=subprocess.DEVNULL,
                            stderr=log, env=env if env is not None else daemon_env())


def stop_daemon(proc, sig=signal.SIGTERM, timeout=120):
    """Sends sig and waits: the exit status, or "hung" when it had to be killed."""
    proc.send_signal(sig)
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return "hung"


def channel(target):
    """An insecure gRPC channel to target with the daemon's message limits."""
    import grpc
    return grpc.insecure_channel(target, options=GRPC_OPTIONS)


def wait_ready(ch, timeout=30):
    """Blocks until ch connects; grpc.FutureTimeoutError after timeout s."""
    import grpc
    grpc.channel_ready_future(ch).result(timeout=timeout)


class Checks:
    """The scripts' check()/finish(): prints each check, counts failures."""

    def __init__(self, name):
        self.name, self.checks, self.failures = name, 0, 0

    def check(self, cond, what, detail=""):
        """Counts one check; a failed one also prints detail (when given)."""
        self.checks += 1
        if not cond:
            self.failures += 1
        print(("ok:" if cond else "FAIL:"), what, flush=True)
        if not cond and detail:
            print(detail, flush=True)
        return cond

    def finish(self):
        """Prints the summary and exits 1 when any check failed."""
        print(f"{self.name}: {self.checks - self.failures} passed, {self.failures} failed")
        sys.exit(1 if self.failures else 0)


def run_cli(exe, *args, env=None):
    """exe args..., output captured as text; printed when it fails."""
    r = subprocess.run([exe, *args], capture_output=True, text=True, env=env)
    if r.returncode:
        print(r.stdout, r.stderr)
    return r


class methods:
    """The cuzk.v1.ProvingEngine methods on ch as callables: M.Prove(req, timeout=...)."""

    _NAMES = {"SubmitProof": ("SubmitProofRequest", "SubmitProofResponse"),
              "AwaitProof": ("AwaitProofRequest", "AwaitProofResponse"),
              "Prove": ("ProveRequest", "ProveResponse"),
              "CancelProof": ("CancelProofRequest", "CancelProofResponse"),
              "GetStatus": ("GetStatusRequest", "GetStatusResponse"),
              "PreloadSRS": ("PreloadSrsRequest", "PreloadSrsResponse")}

    def __init__(self, ch, pb):
        for name, (rq, rs) in self._NAMES.items():
            setattr(self, name, ch.unary_unary(
                f"/cuzk.v1.ProvingEngine/{name}",
                request_serializer=getattr(pb, rq).SerializeToString,
                response_deserializer=getattr(pb, rs).FromString))
