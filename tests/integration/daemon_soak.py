#!/usr/bin/python3
"""The soak (issue #33 item 3): the real daemon with a small memory budget
under a mixed load from several concurrent gRPC clients, then a SIGKILL in
the middle of a load and a restart.

Load: >= 200 requests from CLIENTS threads over one shared queue: PoRep 2 KiB
(one sector), WinningPoSt and WindowPoSt 2 KiB (several randomness values),
many of them repeated under the same request_id (same content -> the same
job), a request_id reused with other content (ALREADY_EXISTS), malformed
requests (each with the status it must get), awaits and cancels of unknown
ids (NOT_FOUND), submit-then-cancel, and Prove calls whose client deadline
passes before the proof, retried with the same id until the proof comes.

Asserts: 0 lost (every request answered as expected), 0 duplicated (one
proof per request_id), 0 wrong proofs (every returned proof verified by the
independent Node verifier, tools/oracle/verify_bellperson.mjs, against the
public inputs of the request that was sent), the daemon's peak RSS (VmHWM)
<= memory.total_budget + OVERHEAD.  Then: Prove calls in flight, SIGKILL:
every client gets a status (UNAVAILABLE) within seconds, none hangs; the
restarted daemon serves a verified proof.  Prints the figures for
docs/PERFORMANCE.md ("Soak").

usage: daemon_soak.py CUZK PROTO_DIR PARAMS_DIR ORACLE_DIR"""
import os
import queue
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

import grpc

import daemon_util as du

cuzk, proto_dir, params, oracle = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3]), sys.argv[4]
tmp = tempfile.mkdtemp(prefix="cuzk-soak-")
pb = du.load_pb(proto_dir, tmp)
t_start = time.monotonic()
BUDGET = 3 << 30
# What the daemon holds outside the budget: code and libraries, thread stacks,
# the gRPC layer's buffers of requests being received, allocator slack.
OVERHEAD = 256 << 20
CLIENTS = 6
ck = du.Checks("daemon_soak")
check, run = ck.check, lambda *a: du.run_cli(cuzk, *a)

# ---- fixtures: parameters, a sealed sector, vanilla proofs, public inputs ---------
os.makedirs(params, exist_ok=True)
for circuit in ("porep-2k", "winning-2k", "wpost-2k"):
    check(run("setup", circuit, "--out", params).returncode == 0, f"setup {circuit}")


def vk_of(circuit):
    out = run("circuit", "info", circuit).stdout
    stem = [ln.split()[1] for ln in out.splitlines() if ln.startswith("parameters")][0]
    return os.path.join(params, stem[:-len(".params")] + ".vk")


h32 = lambda s: s * 32  # noqa: E731
sdir = os.path.join(tmp, "sector")
check(run("seal", "--sector-size", "2KiB", "--registered-proof", "5", "--random", "33",
          "--miner-id", "1000", "--sector-number", "7", "--ticket", h32("31"), "--seed", h32("32"),
          "--out", sdir, "--curio").returncode == 0, "seal")
c1 = os.path.join(sdir, "c1.json")
contents = {}  # key -> (SubmitProofRequest fields, vk, public inputs file)


def pub_file(name, *args):
    path = os.path.join(tmp, name + ".pub")
    r = run(*args)
    check(r.returncode == 0, f"public inputs {name}")
    open(path, "w").write(r.stdout)
    return path


contents["porep"] = (dict(proof_kind=pb.POREP_SEAL_COMMIT, sector_size=2048, registered_proof=5,
                          miner_id=1000, sector_number=7, vanilla_proof=open(c1, "rb").read()),
                     vk_of("porep-2k"), pub_file("porep", "porep", "public-inputs", "--c1", c1))
for i in range(4):  # WinningPoSt, 4 randomness values
    rnd = h32("%02x" % (0x40 + i))
    f = os.path.join(tmp, f"win{i}.bin")
    check(run("post-vanilla", "--registered-proof", "0", "--sector-dir", sdir, "--randomness", rnd,
              "--out", f).returncode == 0, f"post-vanilla winning {i}")
    contents[f"win{i}"] = (dict(proof_kind=pb.WINNING_POST, registered_proof=0, miner_id=1000,
                                randomness=bytes.fromhex(rnd), vanilla_proofs=[open(f, "rb").read()]),
                           vk_of("winning-2k"),
                           pub_file(f"win{i}", "post", "public-inputs", "--kind", "winning",
                                    "--vanilla", f, "--randomness", rnd))
for i in range(3):  # WindowPoSt V1_1, 3 randomness values
    rnd = h32("%02x" % (0x50 + i))
    f = os.path.join(tmp, f"wd{i}.bin")
    check(run("post-vanilla", "--registered-proof", "10", "--sector-dir", sdir, "--randomness",
              rnd, "--out", f).returncode == 0, f"post-vanilla window {i}")
    contents[f"wd{i}"] = (dict(proof_kind=pb.WINDOW_POST_PARTITION, registered_proof=10,
                               miner_id=1000, randomness=bytes.fromhex(rnd), partition_index=0,
                               vanilla_proofs=[open(f, "rb").read()]),
                          vk_of("window-2k"),
                          pub_file(f"wd{i}", "post", "public-inputs", "--kind", "window",
                                   "--vanilla", f, "--randomness", rnd))
if ck.failures:
    ck.finish()


def req(key, rid):
    return pb.SubmitProofRequest(request_id=rid, **contents[key][0])


# ---- the operations ---------------------------------------------------------------
Code = grpc.StatusCode
bad_c1 = open(c1, "rb").read().replace(b'"SectorSize"', b'"SectorSizeX"', 1)
MALFORMED = [  # (what, request, expected code)
    ("proof_kind 99", pb.SubmitProofRequest(request_id="bad-kind", proof_kind=99), Code.INVALID_ARGUMENT),
    ("sector_size 4096", pb.SubmitProofRequest(proof_kind=pb.POREP_SEAL_COMMIT, sector_size=4096,
                                               vanilla_proof=b"{}"), Code.INVALID_ARGUMENT),
    ("5-byte randomness", pb.SubmitProofRequest(proof_kind=pb.WINNING_POST, registered_proof=0,
                                                randomness=b"12345"), Code.INVALID_ARGUMENT),
    ("a damaged C1", pb.SubmitProofRequest(proof_kind=pb.POREP_SEAL_COMMIT, registered_proof=5,
                                           miner_id=1000, sector_number=7, vanilla_proof=bad_c1),
     Code.INVALID_ARGUMENT),
    ("a truncated PoSt vanilla proof",
     pb.SubmitProofRequest(proof_kind=pb.WINDOW_POST_PARTITION, registered_proof=10,
                           randomness=contents["wd0"][0]["randomness"],
                           vanilla_proofs=[contents["wd0"][0]["vanilla_proofs"][0][:500]]),
     Code.INVALID_ARGUMENT),
    ("WindowPoSt with another randomness",
     pb.SubmitProofRequest(proof_kind=pb.WINDOW_POST_PARTITION, registered_proof=10,
                           randomness=contents["wd1"][0]["randomness"],
                           vanilla_proofs=contents["wd0"][0]["vanilla_proofs"]),
     Code.INVALID_ARGUMENT),
    ("a 300-byte request_id", pb.SubmitProofRequest(request_id="r" * 300, proof_kind=pb.WINNING_POST),
     Code.INVALID_ARGUMENT),
    ("PoRep under another miner", pb.SubmitProofRequest(request_id="bad-miner", **dict(
        contents["porep"][0], miner_id=999)), Code.INVALID_ARGUMENT),
]

sock = os.path.join(tmp, "run", "cuzk.sock")
cfg = du.write_config(os.path.join(tmp, "cuzk.toml"), f"unix://{sock}", params,
                      f'[memory]\ntotal_budget = "{BUDGET >> 20}MiB"\n')
log = open(os.path.join(tmp, "daemon.log"), "w")
d = du.start_daemon(cuzk, cfg, log)
ch = du.channel(f"unix://{sock}")
M = du.methods(ch, pb)

lock = threading.Lock()
proofs = {}   # request_id -> set of proof bytes returned for it
to_verify = {}  # (key, proof bytes) -> what
stats = {"requests": 0, "lost": 0, "bad_refused": 0}
lost = []


def note(ok, what):
    with lock:
        stats["requests"] += 1
        if not ok:
            stats["lost"] += 1
            lost.append(what)


def got_proof(key, rid, proof, what):
    with lock:
        proofs.setdefault(rid, set()).add(proof)
        to_verify[(key, proof)] = what


def op_prove(key, rid, timeout=600):
    r = M.Prove(pb.ProveRequest(submit=req(key, rid)), timeout=timeout).result
    ok = r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 192
    note(ok, f"Prove {rid}: {r.status} {r.error_message}")
    if ok:
        got_proof(key, rid, r.proof, f"Prove {rid}")


def op_submit_await(key, rid):
    s = M.SubmitProof(req(key, rid), timeout=60)
    note(s.job_id == rid, f"SubmitProof {rid} -> job {s.job_id}")
    r = M.AwaitProof(pb.AwaitProofRequest(job_id=rid), timeout=600)
    ok = r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 192
    note(ok, f"AwaitProof {rid}: {r.status} {r.error_message}")
    if ok:
        got_proof(key, rid, r.proof, f"AwaitProof {rid}")


def expect_code(code, fn, what):
    try:
        fn()
        note(False, f"{what}: accepted, expected {code}")
    except grpc.RpcError as e:
        note(e.code() == code, f"{what}: {e.code()} {e.details()}, expected {code}")
        if e.code() == code:
            with lock:
                stats["bad_refused"] += 1


def op_malformed(i):
    what, r, code = MALFORMED[i]
    expect_code(code, lambda: M.SubmitProof(r, timeout=60), f"malformed: {what}")


def op_other_content():
    # soak-win0's id with win1's content
    expect_code(Code.ALREADY_EXISTS, lambda: M.SubmitProof(req("win1", "soak-win0"), timeout=60),
                "request_id reused with other content")


def op_unknown(n):
    expect_code(Code.NOT_FOUND, lambda: M.AwaitProof(pb.AwaitProofRequest(job_id=f"nope-{n}"),
                                                     timeout=60), "AwaitProof of an unknown id")
    expect_code(Code.NOT_FOUND, lambda: M.CancelProof(pb.CancelProofRequest(job_id=f"nope-{n}"),
                                                      timeout=60), "CancelProof of an unknown id")


def op_cancel(n):
    key, rid = f"wd{n % 3}", f"soak-cancel-{n}"
    s = M.SubmitProof(req(key, rid), timeout=60)
    note(s.job_id == rid, f"SubmitProof {rid}")
    M.CancelProof(pb.CancelProofRequest(job_id=rid), timeout=60)
    note(True, "CancelProof")
    r = M.AwaitProof(pb.AwaitProofRequest(job_id=rid), timeout=600)
    # cancelled, or it was already done: then its proof must verify
    ok = r.status == pb.AwaitProofResponse.CANCELLED or (
        r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 192)
    note(ok, f"AwaitProof after cancel {rid}: {r.status} {r.error_message}")
    if r.status == pb.AwaitProofResponse.COMPLETED:
        got_proof(key, rid, r.proof, f"cancelled-late {rid}")


def op_timeout_retry(n):
    key, rid = f"win{n % 4}", f"soak-retry-{n}"
    try:
        r = M.Prove(pb.ProveRequest(submit=req(key, rid)), timeout=0.2).result
        ok = r.status == pb.AwaitProofResponse.COMPLETED  # fast enough: no timeout to retry
        note(ok, f"Prove {rid} within 0.2 s: {r.status}")
        if ok:
            got_proof(key, rid, r.proof, f"Prove {rid}")
            return
    except grpc.RpcError as e:
        note(e.code() == Code.DEADLINE_EXCEEDED, f"Prove {rid} 0.2 s: {e.code()}")
    for _ in range(20):  # the retry: the same id again, until the proof comes
        try:
            op_prove(key, rid)
            return
        except grpc.RpcError as e:
            # the abandoned job is being cancelled: its id is free again shortly
            if e.code() != Code.ALREADY_EXISTS:
                note(False, f"retry {rid}: {e.code()} {e.details()}")
                return
            time.sleep(0.2)
    note(False, f"retry {rid} never got through")


def op_status():
    M.GetStatus(pb.GetStatusRequest(), timeout=60)
    note(True, "GetStatus")


ops = []
dedup = {"porep": 30, "win0": 12, "win1": 12, "win2": 12, "win3": 12, "wd0": 15, "wd1": 15, "wd2": 15}
for key, n in dedup.items():
    for i in range(n):
        if i % 3 == 2:
            ops.append(lambda k=key: op_submit_await(k, f"soak-{k}"))
        else:
            ops.append(lambda k=key: op_prove(k, f"soak-{k}"))
ops += [lambda i=i: op_malformed(i % len(MALFORMED)) for i in range(40)]
ops += [op_other_content] * 8
ops += [lambda n=n: op_unknown(n) for n in range(6)]
ops += [lambda n=n: op_cancel(n) for n in range(8)]
ops += [lambda n=n: op_timeout_retry(n) for n in range(4)]
ops += [op_status] * 10
random.Random(33).shuffle(ops)
# the first request of soak-win0 must exist before the ALREADY_EXISTS ones run
ops.insert(0, lambda: op_prove("win0", "soak-win0"))


def rss_kb(pid, field):
    for ln in open(f"/proc/{pid}/status"):
        if ln.startswith(field + ":"):
            return int(ln.split()[1])
    return 0


def cpu_s(pid):
    """The process's user + system CPU seconds."""
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def client(q):
    while True:
        try:
            fn = q.get_nowait()
        except queue.Empty:
            return
        try:
            fn()
        except grpc.RpcError as e:
            note(False, f"unexpected {e.code()} {e.details()}")
        except Exception as e:  # noqa: BLE001
            note(False, f"client error {e!r}")


try:
    du.wait_ready(ch, timeout=30)
    t_load = time.monotonic()
    ops[0]()  # soak-win0 first, alone
    q = queue.Queue()
    for fn in ops[1:]:
        q.put(fn)
    threads = [threading.Thread(target=client, args=(q,)) for _ in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    check(not any(t.is_alive() for t in threads), "every client finished (none hangs)")
    load_s = time.monotonic() - t_load
    hwm = rss_kb(d.pid, "VmHWM") << 10
    cpu = cpu_s(d.pid)
    for what in lost:
        print("  lost:", what)
    check(stats["requests"] >= 200, f"{stats['requests']} requests (>= 200)")
    check(stats["lost"] == 0, f"{stats['lost']} lost")
    dup = {rid: len(p) for rid, p in proofs.items() if len(p) != 1}
    check(not dup, f"one proof per request_id ({len(proofs)} ids; more than one: {dup})")
    wrong = 0
    for (key, proof), what in sorted(to_verify.items(), key=lambda kv: kv[1]):
        pf = os.path.join(tmp, "p.bin")
        open(pf, "wb").write(proof)
        _, vk, pub = contents[key]
        v = subprocess.run(["node", os.path.join(oracle, "verify_bellperson.mjs"), vk, pf, pub],
                           capture_output=True, text=True)
        if v.returncode != 0 or "OK" not in v.stdout:
            wrong += 1
            print(f"  wrong proof: {what}: {v.stdout.strip()} {v.stderr.strip()[-300:]}")
    check(wrong == 0, f"{len(to_verify)} distinct proofs verified by the Node verifier, {wrong} wrong")
    check(stats["bad_refused"] >= 40 + 8 + 12, f"{stats['bad_refused']} bad requests refused "
          "with the right code")
    check(hwm <= BUDGET + OVERHEAD, f"peak RSS {hwm >> 20} MiB <= budget {BUDGET >> 20} MiB + "
          f"overhead {OVERHEAD >> 20} MiB")
    print(f"SOAK requests={stats['requests']} lost={stats['lost']} clients={CLIENTS} "
          f"proofs={len(to_verify)} wrong={wrong} peak_rss_mib={hwm >> 20} "
          f"budget_mib={BUDGET >> 20} load_s={load_s:.1f} daemon_cpu_s={cpu:.0f}")

    # ---- SIGKILL with Prove calls in flight --------------------------------------
    answers = {}

    def in_flight(n):
        t0 = time.monotonic()
        try:
            M.Prove(pb.ProveRequest(submit=req("porep", f"kill-{n}")), timeout=120)
            answers[n] = ("OK", time.monotonic() - t0)
        except grpc.RpcError as e:
            answers[n] = (e.code(), time.monotonic() - t0)

    ts = [threading.Thread(target=in_flight, args=(n,)) for n in range(4)]
    for t in ts:
        t.start()
    time.sleep(2)
    t_kill = time.monotonic()
    d.send_signal(signal.SIGKILL)
    d.wait()
    for t in ts:
        t.join(timeout=30)
    check(not any(t.is_alive() for t in ts), "after SIGKILL no client hangs")
    check(len(answers) == 4 and all(a[0] == Code.UNAVAILABLE for a in answers.values()),
          f"every in-flight client got UNAVAILABLE: {answers}")
    worst = max((a[1] for a in answers.values()), default=0) - 2
    check(time.monotonic() - t_kill < 30, f"answers within {worst:.1f} s of the kill")
    ch.close()

    # ---- restart: it serves --------------------------------------------------------
    d = du.start_daemon(cuzk, cfg, log)
    ch = du.channel(f"unix://{sock}")
    M = du.methods(ch, pb)
    du.wait_ready(ch, timeout=30)
    r = M.Prove(pb.ProveRequest(submit=req("win2", "after-restart")), timeout=600).result
    ok = r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 192
    check(ok, f"the restarted daemon proves: {r.status} {r.error_message}")
    if ok:
        pf = os.path.join(tmp, "p.bin")
        open(pf, "wb").write(r.proof)
        _, vk, pub = contents["win2"]
        v = subprocess.run(["node", os.path.join(oracle, "verify_bellperson.mjs"), vk, pf, pub],
                           capture_output=True, text=True)
        check(v.returncode == 0 and "OK" in v.stdout, "  its proof verifies (Node)")
finally:
    ch.close()
    if d.poll() is None:
        rc = du.stop_daemon(d)
        check(rc == 0, f"SIGTERM: exit {rc}")
    log.close()
    if ck.failures:
        print(open(os.path.join(tmp, "daemon.log")).read()[-6000:])
    shutil.rmtree(tmp, ignore_errors=True)
print(f"wall {time.monotonic() - t_start:.0f} s")
ck.finish()
