#!/usr/bin/python3
"""`cuzk bench` (the gRPC client) against the real daemon, one on a unix socket
and one on a TCP port:
- single -t porep --c1 (Curio's wrapper; registered proof and sector size taken
  from the C1) prints a COMPLETED 192-byte proof that `cuzk verify porep` accepts;
- single -t wpost --vanilla (raw bincode, and a JSON array of base64 over TCP)
  prints a 192-byte proof;
- batch -c 3 -j 2 prints three per-proof lines and a summary with throughput
  and p50/p95/max latency, and --timeline writes a well-formed SVG with one
  lane per slot and stage bars inside each request's wall time;
- stress --mix wpost=2,snap=1 runs the mix (the snap request carries a
  WindowPoSt file and no commitments: refused, counted per kind and named,
  exit 1);
- status / metrics show real counters, preload and evict work;
- bad addresses, files, flags and a request the daemon refuses give a clear
  message and a non-zero exit.

usage: bench_client_e2e.py CUZK PARAMS_DIR
PARAMS_DIR holds (or gets, by `cuzk setup`) the test-only porep-2k and wpost-2k
parameters.  CUZK_BENCH_CLIENT=BINARY runs the `cuzk bench` commands with
another build (e.g. the sanitizer build's cuzk against the release daemon)."""
import base64, json, os, re, shutil, subprocess, sys, tempfile, time
import xml.etree.ElementTree as ET

import daemon_util as du

cuzk, params = sys.argv[1], os.path.abspath(sys.argv[2])
client = os.environ.get("CUZK_BENCH_CLIENT", cuzk)
tmp = tempfile.mkdtemp(prefix="cuzk-bench-e2e-")
ck = du.Checks("bench_client_e2e")


def check(cond, what, out=None):
    """ck.check, with a failed command's output tails."""
    detail = f"  stdout: {out.stdout[-3000:]}\n  stderr: {out.stderr[-3000:]}" if out else ""
    ck.check(cond, what, detail)


def run(*a, timeout=600):
    exe = client if a[0] == "bench" else cuzk
    return subprocess.run([exe, *a], capture_output=True, text=True, timeout=timeout)


h32 = lambda b: b * 32  # noqa: E731
os.makedirs(params, exist_ok=True)
for circuit in ("porep-2k", "wpost-2k"):
    r = run("setup", circuit, "--out", params)
    check(r.returncode == 0, f"setup {circuit}", r)

sdir = os.path.join(tmp, "sector")
r = run("seal", "--sector-size", "2KiB", "--registered-proof", "5", "--random", "7",
        "--miner-id", "1000", "--sector-number", "3", "--ticket", h32("11"), "--seed", h32("22"),
        "--out", sdir, "--curio")
check(r.returncode == 0, "seal", r)
c1 = os.path.join(sdir, "c1.json")
rnd = h32("21")
vfile = os.path.join(tmp, "w.bin")
r = run("post-vanilla", "--registered-proof", "10", "--sector-dir", sdir, "--randomness", rnd,
        "--out", vfile)
check(r.returncode == 0, "post-vanilla", r)
vjson = os.path.join(tmp, "w.json")
with open(vjson, "w") as f:
    json.dump([base64.b64encode(open(vfile, "rb").read()).decode()], f)

daemons = []


def start_daemon(name, listen):
    cfg = du.write_config(os.path.join(tmp, f"{name}.toml"), listen, params)
    log = open(os.path.join(tmp, f"{name}.log"), "w")
    p = du.start_daemon(cuzk, cfg, log)
    daemons.append((name, p, log))
    return p


sock = os.path.join(tmp, "run", "cuzk.sock")
UDS = f"unix://{sock}"
TCP = f"http://127.0.0.1:{du.free_port()}"
start_daemon("uds", UDS)
start_daemon("tcp", TCP[len("http://"):])
POST = ["--vanilla", vfile, "--registered-proof", "10", "--randomness", rnd]
porep = None
try:
    for addr in (UDS, TCP):
        deadline = time.time() + 30
        while True:
            r = run("bench", "-a", addr, "status")
            if r.returncode == 0 or time.time() > deadline:
                break
            time.sleep(0.2)
        check(r.returncode == 0 and "=== cuzk daemon status ===" in r.stdout,
              f"status at {addr} once the daemon is up", r)

    # PoRep over the unix socket runs in the background while the rest goes on.
    proof = os.path.join(tmp, "porep.proof")
    porep = subprocess.Popen([client, "bench", "single", "-a", UDS, "-t", "seal-commit", "--c1", c1,
                              "--proof-out", proof, "--timeline", os.path.join(tmp, "p.svg")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    r = run("bench", "-a", UDS, "preload", "-c", "wpost-2k")
    check(r.returncode == 0 and re.search(r"^wpost-2k (loaded in \d+ ms|already loaded)$",
                                          r.stdout, re.M), "preload -c wpost-2k", r)

    r = run("bench", "single", "-t", "wpost", *POST, "-a", UDS)
    check(r.returncode == 0 and "status:    COMPLETED" in r.stdout
          and re.search(r"^proof:     192 bytes \(hex: [0-9a-f]{384}\)$", r.stdout, re.M)
          and "sector_size 2048 (the registered proof)" in r.stdout
          and "=== Single Summary ===" in r.stdout, "single wpost (raw vanilla) over UDS", r)

    r = run("bench", "--addr", TCP, "single", "-t", "window-post",
            "--vanilla", vjson, "--registered-proof", "10", "--randomness", rnd)
    check(r.returncode == 0 and "proof:     192 bytes" in r.stdout,
          "single window-post (JSON array of base64) over TCP", r)

    svg = os.path.join(tmp, "batch.svg")
    r = run("bench", "batch", "-a", UDS, "-t", "wpost", *POST, "-c", "3", "-j", "2",
            "--timeline", svg)
    lines = re.findall(r"^  \[(\d)/3\] wpost +COMPLETED - [\d.]+s \(queue=\d+ synth=\d+ "
                       r"prove=\d+ total=\d+ ms, 192-byte proof, slot ([01])\)$", r.stdout, re.M)
    check(r.returncode == 0 and sorted(i for i, _ in lines) == ["1", "2", "3"]
          and {s for _, s in lines} == {"0", "1"}, "batch -c 3 -j 2: three proofs on two slots", r)
    check("=== Batch Summary ===" in r.stdout and "completed:   3 of 3 (0 failed)" in r.stdout
          and re.search(r"^throughput:  [\d.]+ proofs/min", r.stdout, re.M)
          and re.search(r"^latency:     avg=[\d.]+s p50=[\d.]+s p95=[\d.]+s max=[\d.]+s$",
                        r.stdout, re.M), "batch summary: throughput and p50/p95/max", r)

    # The timeline: well-formed SVG, a lane per slot, bars within the run.
    ns = "{http://www.w3.org/2000/svg}"
    try:
        root = ET.parse(svg).getroot()
        lanes = [g for g in root.iter(ns + "g") if g.get("class") == "lane"]
        bars = [(lane_i, b) for lane_i, g in enumerate(lanes) for b in g.iter(ns + "rect")
                if b.get("class") == "bar"]
        titles = [b.find(ns + "title").text for _, b in bars]
        width = float(root.get("width"))
        ok = (root.tag == ns + "svg" and len(lanes) == 2 and len(bars) >= 9
              and all(float(b.get("width")) >= 0 and 0 <= float(b.get("x")) <= width
                      for _, b in bars)
              and sum(t.startswith("prove: ") for t in titles) == 3
              and sum(t.startswith("synthesis: ") for t in titles) == 3
              and {i for i, _ in bars} == {0, 1})
        check(ok, f"batch timeline: {len(lanes)} lanes, {len(bars)} bars, titles {titles[:4]}")
    except (ET.ParseError, OSError, AttributeError, TypeError) as e:
        check(False, f"batch timeline is not well-formed SVG: {e}")

    ssvg = os.path.join(tmp, "stress.svg")
    r = run("bench", "stress", "-a", UDS, "--mix", "wpost=2,snap=1", "--rate", "3/s",
            "--duration", "1s", "-j", "2", "--vanilla", f"wpost={vfile}", "--vanilla",
            f"snap={vfile}", "--registered-proof", "wpost=10", "--registered-proof", "snap=0",
            "--randomness", rnd, "--timeline", ssvg)
    check(r.returncode == 1 and "=== Stress Summary ===" in r.stdout
          and "completed:   2 of 3 (1 failed)" in r.stdout
          and re.search(r"^wpost:\n  completed:   2 of 2 \(0 failed\)\n  throughput: ", r.stdout,
                        re.M)
          and re.search(r"^snap:\n  completed:   0 of 1 \(1 failed\)$", r.stdout, re.M)
          and re.search(r"^failure \[\d\] snap: .*snap", r.stdout, re.M)
          and "start delay: p95=" in r.stdout,
          "stress --mix wpost=2,snap=1: per-kind summary, the snap failure named, exit 1", r)
    try:
        root = ET.parse(ssvg).getroot()
        titles = [t.text for t in root.iter(ns + "title")]
        check(sum(t.startswith("failed: ") for t in titles) == 1
              and sum(t.startswith("prove: ") for t in titles) == 2, "stress timeline bars")
    except (ET.ParseError, OSError) as e:
        check(False, f"stress timeline is not well-formed SVG: {e}")

    out, err = porep.communicate(timeout=1500)
    check(porep.returncode == 0 and "status:    COMPLETED" in out
          and re.search(r"^proof:     192 bytes \(hex: [0-9a-f]{384}\)$", out, re.M)
          and "registered_proof 5 (StackedDrg2KiBV1_1, from the C1), sector_size 2048 "
              "(the C1 wrapper's SectorSize), sector 3" in out,
          f"single -t seal-commit --c1: 192-byte proof\n{out}\n{err}")
    v = run("verify", "porep", "--c1", c1, "--proof", proof, "--params-dir", params)
    check(v.returncode == 0 and "OK" in v.stdout, "cuzk verify porep accepts the proof", v)
    print(out)

    r = run("bench", "status", "-a", UDS)
    m = re.search(r"^proofs completed: (\d+)$", r.stdout, re.M)
    check(r.returncode == 0 and m and int(m.group(1)) >= 6 and "wpost-2k" in r.stdout,
          "status: counters (>= 6 completed) and the loaded SRS", r)
    r = run("bench", "metrics", "-a", UDS)
    done = sum(int(n) for n in re.findall(r"^cuzk_proofs_completed_total\{[^}]*\} (\d+)$",
                                           r.stdout, re.M))
    check(r.returncode == 0 and done >= 6, "metrics: Prometheus counters", r)
    r = run("bench", "evict", "-c", "wpost-2k", "-a", UDS)
    check(r.returncode == 0 and "wpost-2k evicted" in r.stdout, "evict -c wpost-2k", r)

    # Errors: clear message, non-zero exit, no hang.
    bad_cases = [
        (["-a", "unix://" + os.path.join(tmp, "none.sock"), "status"], 1, "No such file"),
        (["-a", "127.0.0.1:1", "status"], 1, "UNAVAILABLE"),
        (["-a", "http://127.0.0.1:1", "batch", "-t", "wpost", *POST], 1, "UNAVAILABLE"),
        (["-a", "https://127.0.0.1:1", "status"], 1, "plaintext"),
        (["-a", UDS, "single", "-t", "wpost", "--registered-proof", "10", "--vanilla",
          os.path.join(tmp, "missing")], 2, "No such file"),
        (["-a", UDS, "single", "-t", "porep", "--c1", vfile], 2, "not a JSON object"),
        (["-a", UDS, "single", "-t", "wpost", "--vanilla", vfile], 2,
         "not a WindowPoSt proof"),
        (["-a", UDS, "single", "-t", "proofy", "--c1", c1], 2, "unknown proof type"),
        (["-a", UDS, "batch", "-t", "wpost", *POST, "--partition", "1"], 2, "not an option"),
        (["-a", UDS, "single", "-t", "wpost", *POST, "--randomness", "zz"], 2, "--randomness"),
        (["-a", UDS, "preload"], 2, "--circuit-id"),
        (["-a", UDS, "preload", "-c", "porep-1k"], 1, "NOT_FOUND"),
        (["-a", UDS, "single", "-t", "porep", "--c1", c1, "--sector-size", "8388608"], 1,
         "INVALID_ARGUMENT"),
        (["-a", UDS, "single", "-t", "wpost", *POST, "--timeline", "/nonexistent/dir/t.svg"],
         2, "/nonexistent/dir/t.svg"),
    ]
    for a, code, text in bad_cases:
        r = run("bench", *a, timeout=120)
        check(r.returncode == code and text in r.stderr
              and "Segmentation" not in r.stderr,
              f"bench {' '.join(a[:4])}...: exit {r.returncode} (want {code}), stderr names "
              f"'{text}'", r)
finally:
    if porep and porep.poll() is None:
        porep.kill()
    for name, p, log in daemons:
        rc = du.stop_daemon(p)
        check(rc == 0, f"{name} daemon: SIGTERM exit {rc}")
        log.close()
    if ck.failures:
        for name, _, _ in daemons:
            print(f"--- {name}.log", open(os.path.join(tmp, f"{name}.log")).read()[-3000:])
    shutil.rmtree(tmp, ignore_errors=True)
ck.finish()
