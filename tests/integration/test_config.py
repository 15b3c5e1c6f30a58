#!/usr/bin/python3
"""cuzk.toml parsing checked against Python's tomllib.

usage: test_config.py TOML_DUMP EXAMPLE_TOML [DAEMON]

1. util/toml (via toml_dump) and tomllib must give the same tree for
   cuzk.example.toml and for files exercising every construct of the subset.
2. Broken TOML: both reject it; ours names the line (and the expected line).
3. Valid TOML outside the subset (floats, dates, inline tables, ...): ours
   rejects it naming the construct, never misreads it.
4. With DAEMON (`daemon --config F --check-config`): the example maps onto
   the expected settings; unknown keys/sections, wrong types, bad sizes and
   durations are errors with line numbers; deprecated keys warn; sizes and
   durations in every accepted unit; srs.param_cache wins over FIL_PROOFS_PARAMETER_CACHE.
"""
import json
import os
import subprocess
import sys
import tempfile
import tomllib

import daemon_util as du

dump, example = sys.argv[1], sys.argv[2]
daemon = sys.argv[3] if len(sys.argv) > 3 else None
tmp = tempfile.mkdtemp(prefix="cuzk-config-test-")
ck = du.Checks("config_toml_vs_tomllib")
check = ck.check


def write(name, text):
    p = os.path.join(tmp, name)
    with open(p, "wb") as f:
        f.write(text.encode() if isinstance(text, str) else text)
    return p


def ours(path):
    p = subprocess.run([dump, path], capture_output=True, text=True)
    return (json.loads(p.stdout), None) if p.returncode == 0 else (None, p.stderr.strip())


def theirs(path):
    try:
        with open(path, "rb") as f:
            return tomllib.load(f), None
    except tomllib.TOMLDecodeError as e:
        return None, str(e)


# ---- 1. same trees -------------------------------------------------------------
valid = {
    "example": open(example).read(),
    "strings": 'a = "tab\\there \\"q\\" \\\\ \\u00e9 \\U0001F600"\nb = \'C:\\path\\n\'\n"quoted key" = "x"\n\'lit key\' = ""\n',
    "ints": "a = 0\nb = -17\nc = +42\nd = 1_000_000\ne = 0xdead_beef\nf = 0o755\ng = 0b1010\nh = 9223372036854775807\ni = -9223372036854775808\n",
    "bools_arrays": "t = true\nf = false\ne = []\nn = [ [1, 2], [3] ]\nm = [\n  1, # one\n  2,\n  # a comment line\n  3,\n]\ns = ['a', \"b\"]\n",
    "tables": "top = 1\n[a]\nx = 1\n[a.b]\ny = 2\n[c . \"d e\"]\nz = 3\n[x.y.z]\n[x]\nw = 4\n",
    "dotted": "a.b.c = 1\na.b.d = 2\n[t]\nu.v = true\n",
    "crlf": "[s]\r\nk = 1 # c\r\n\r\nl = \"x\"\r\n",
    "no_final_newline": "[s]\nk = 1",
    "blank": "\n\n# only comments\n   \n",
}
for name, text in valid.items():
    p = write(f"valid_{name}.toml", text)
    a, ea = ours(p)
    b, eb = theirs(p)
    check(eb is None and ea is None and a == b, f"valid {name}: same tree as tomllib"
          + ("" if a == b else f" (ours {a or ea}, tomllib {b or eb})"))

# ---- 2. broken files: both reject, ours names the line ---------------------------
broken = {
    "missing_equals": ("[s]\nkey 1\n", 2),
    "unterminated_string": ("[s]\na = 1\nk = \"abc\n", 3),
    "duplicate_key": ("[s]\nk = 1\nk = 2\n", 3),
    "duplicate_table": ("[s]\n[t]\n[s]\n", 3),
    "bad_escape": ("k = \"\\q\"\n", 1),
    "leading_zero": ("\n\nk = 012\n", 3),
    "double_underscore": ("k = 1__0\n", 1),
    "trailing_underscore": ("k = 10_\n", 1),
    "garbage_after_value": ("k = 1 2\n", 1),
    "unterminated_array": ("k = [1, 2\n", 2),
    "missing_value": ("k =\n", 1),
    "unclosed_header": ("[s\nk = 1\n", 1),
    "newline_in_string": ("k = 'a\nb'\n", 1),
    "control_char": ("k = \"a\x01b\"\n", 1),
    "key_then_table": ("a = 1\n[a]\n", 2),
    "table_over_dotted": ("a.b = 1\n[a]\n", 2),
    "array_missing_comma": ("k = [1 2]\n", 1),
    "bare_word": ("k = yes\n", 1),
    "empty_key": ("= 1\n", 1),
}
for name, (text, line) in broken.items():
    p = write(f"broken_{name}.toml", text)
    a, ea = ours(p)
    b, eb = theirs(p)
    check(eb is not None, f"broken {name}: tomllib rejects it")
    check(a is None and ea is not None and f"line {line}," in ea,
          f"broken {name}: ours rejects it at line {line} ({ea})")

# ---- 3. valid TOML outside the subset --------------------------------------------
outside = {
    "float": ("k = 1.5\n", "floating-point"),
    "exponent": ("k = 1e3\n", "floating-point"),
    "inf": ("k = inf\n", "floating-point"),
    "date": ("k = 1979-05-27\n", "dates"),
    "datetime": ("k = 1979-05-27T07:32:00Z\n", "dates"),
    "inline_table": ("k = {a = 1}\n", "inline tables"),
    "multiline_string": ('k = """a\nb"""\n', "multi-line strings"),
    "array_of_tables": ("[[t]]\nk = 1\n", "arrays of tables"),
    "time": ("k = 07:32:00\n", "dates and times"),
    "int_beyond_64_bits": ("k = 9223372036854775808\n", "does not fit in 64 bits"),
}
for name, (text, what) in outside.items():
    p = write(f"outside_{name}.toml", text)
    a, ea = ours(p)
    b, eb = theirs(p)
    check(eb is None and a is None and ea and what in ea and "line 1" in ea,
          f"outside the subset {name}: tomllib accepts, ours names '{what}' ({ea})")

# garbage never crashes the parser
for i, blob in enumerate([bytes(range(256)), b"[" * 5000, b"k = " + b"[" * 100, b"\x00k=1",
                          b"\xff\xfe", b"k = \"\\u", b"[a.]\n", b"k = 0x\n", b"k = -\n"]):
    p = write(f"garbage{i}.toml", blob)
    r = subprocess.run([dump, p], capture_output=True)
    check(r.returncode == 1 and b"line" in r.stderr, f"garbage {i}: clean error, no crash")

# ---- 4. the config mapping (cuzk daemon --check-config) ---------------------------
if daemon:
    def run(text, env=None):
        p = write("cfg.toml", text)
        return subprocess.run([daemon, "daemon", "--config", p, "--check-config"],
                              capture_output=True, text=True, env=du.daemon_env(env))

    r = run(open(example).read())
    eff = tomllib.loads(r.stdout) if r.returncode == 0 else {}
    ex = tomllib.loads(open(example).read())
    check(r.returncode == 0 and eff["daemon"]["listen"] == ex["daemon"]["listen"]
          and eff["gpus"]["gpu_threads"] == 32 and eff["memory"]["total_budget"] == "auto"
          and eff["memory"]["safety_margin"] == 5 << 30
          and eff["memory"]["eviction_min_idle"] == "300s"
          and eff["scheduler"]["max_batch_wait_ms"] == 10000
          and eff["scheduler"]["result_keep_time"] == "3600s"
          and eff["srs"]["param_cache"] == "/data/zk/params",
          "example: effective configuration as written")
    r = run("")
    d = tomllib.loads(r.stdout) if r.returncode == 0 else {}
    check(r.returncode == 0 and d["daemon"]["listen"] == "unix:///run/curio/cuzk.sock"
          and d["daemon"]["status_listen"] == "" and d["gpus"]["gpu_threads"] == 0
          and d["gpus"]["gpu_workers_per_device"] == 2 and d["scheduler"]["max_batch_size"] == 1
          and d["pipeline"]["enabled"] is True and d["logging"]["level"] == "info",
          "empty file: the Rust daemon's defaults")
    r = run("[gpus]\nsimulate = 3\n")
    d = tomllib.loads(r.stdout) if r.returncode == 0 else {}
    check(r.returncode == 0 and d["gpus"].get("simulate") == 3,
          "gpus.simulate (TEST ONLY) is read and shown")

    errors = {
        "unknown_key": ("[memory]\n\ntotal_budgt = \"1GiB\"\n", "line 3", "unknown key memory.total_budgt"),
        "unknown_section": ("[daemon]\nlisten = \"x:1\"\n[gpu]\ndevices = []\n", "line 3", "unknown section [gpu]"),
        "top_level_key": ("listen = \"x:1\"\n", "line 1", "inside a [section]"),
        "bad_size": ("[memory]\ntotal_budget = \"12 parsecs\"\n", "line 2", "not a size"),
        "size_float_unit": ("[memory]\nsafety_margin = \"1.5GiB\"\n", "line 2", "not a size"),
        "negative_size": ("[memory]\nsafety_margin = -1\n", "line 2", "negative"),
        "size_overflow": ("[memory]\ntotal_budget = \"99999999999TiB\"\n", "line 2", "not a size"),
        "bad_duration": ("[memory]\neviction_min_idle = \"5x\"\n", "line 2", "not a duration"),
        "sub_second": ("[memory]\neviction_min_idle = \"1500ms\"\n", "line 2", "whole seconds"),
        "wrong_type": ("[gpus]\ngpu_threads = \"32\"\n", "line 2", "expected a integer, found a string"),
        "wrong_type_bool": ("[pipeline]\nenabled = 1\n", "line 2", "expected a boolean"),
        "negative_uint": ("[synthesis]\nthreads = -1\n", "line 2", "out of range"),
        "zero_workers": ("[gpus]\ngpu_workers_per_device = 0\n", "line 2", "out of range"),
        "dup_device": ("[gpus]\ndevices = [0, 1, 0]\n", "line 2", "listed twice"),
        "device_type": ("[gpus]\ndevices = [\"0\"]\n", "line 2", "integers"),
        "bad_level": ("[logging]\nlevel = \"loud\"\n", "line 2", "not a level"),
        "bad_format": ("[logging]\nformat = \"xml\"\n", "line 2", "\"text\" or \"json\""),
        "bad_shutdown": ("[daemon]\nshutdown = \"now\"\n", "line 2", "finish"),
        "empty_listen": ("[daemon]\nlisten = \"\"\n", "", "daemon.listen must not be empty"),
        "syntax": ("[daemon]\nlisten = 0.0.0.0:9820\n", "line 2", "strings need quotes"),
    }
    for name, (text, line, msg) in errors.items():
        r = run(text)
        check(r.returncode == 2 and line in r.stderr and msg in r.stderr,
              f"config {name}: exit 2 with '{line}' and '{msg}' ({r.stderr.strip()})")

    units = [("1024", 1024), ("\"1024\"", 1024), ("\"512B\"", 512), ("\"64KiB\"", 64 << 10),
             ("\"626MiB\"", 626 << 20), ("\"140GiB\"", 140 << 30), ("\"1TiB\"", 1 << 40),
             ("\"5 GB\"", 5 * 10**9), ("\"7MB\"", 7 * 10**6), ("\"3KB\"", 3000),
             ("\"2TB\"", 2 * 10**12)]
    for text, want in units:
        r = run(f"[memory]\nsafety_margin = {text}\n")
        got = tomllib.loads(r.stdout)["memory"]["safety_margin"] if r.returncode == 0 else None
        check(got == want, f"size {text} = {want} bytes (got {got})")
    durs = [("300", "300s"), ("\"30s\"", "30s"), ("\"5m\"", "300s"), ("\"2h\"", "7200s"),
            ("\"1d\"", "86400s"), ("\"1h30m\"", "5400s"), ("\"2000ms\"", "2s")]
    for text, want in durs:
        r = run(f"[memory]\neviction_min_idle = {text}\n")
        got = tomllib.loads(r.stdout)["memory"]["eviction_min_idle"] if r.returncode == 0 else None
        check(got == want, f"duration {text} = {want} (got {got})")
    r = run("[daemon]\nshutdown_timeout = \"250ms\"\n")
    check(r.returncode == 0 and tomllib.loads(r.stdout)["daemon"]["shutdown_timeout"] == "250ms",
          "millisecond durations kept for daemon.shutdown_timeout")

    r = run("[srs]\npreload = [\"porep-32g\"]\n[memory]\npinned_budget = \"50GiB\"\n"
            "working_memory_budget = \"80GiB\"\n[synthesis]\npartition_workers = 12\n"
            "[pipeline]\nslot_size = 3\n")
    check(r.returncode == 0 and r.stderr.count("deprecated key ignored") == 5
          and "key=srs.preload" in r.stderr and "line=5" in r.stderr,
          "deprecated keys: accepted with one warning each, naming key and line")
    r = run("[srs]\nparam_cache = \"/from/file\"\n", env={"FIL_PROOFS_PARAMETER_CACHE": "/from/env"})
    check(r.returncode == 0 and tomllib.loads(r.stdout)["srs"]["param_cache"] == "/from/file"
          and "srs.param_cache wins over FIL_PROOFS_PARAMETER_CACHE" in r.stderr,
          "an explicit srs.param_cache wins over FIL_PROOFS_PARAMETER_CACHE, with a warning (#32)")
    r = run("")
    check(r.returncode == 0 and tomllib.loads(r.stdout)["srs"]["param_cache"] == "/data/zk/params",
          "neither set: the daemon's default /data/zk/params")
    r = run('[srs]\nparam_cache = "/odd \\"dir\\\\x"\n')
    check(r.returncode == 0 and tomllib.loads(r.stdout)["srs"]["param_cache"] == '/odd "dir\\x',
          "--check-config output escapes quotes and backslashes")
    r = run("", env={"FIL_PROOFS_PARAMETER_CACHE": "/var/tmp/filecoin-proof-parameters"})
    check(r.returncode == 0 and tomllib.loads(r.stdout)["srs"]["param_cache"]
          == "/var/tmp/filecoin-proof-parameters", "FIL_PROOFS_PARAMETER_CACHE used without a key")
    p = write("cli.toml", "[daemon]\nlisten = \"127.0.0.1:1\"\n")
    r = subprocess.run([daemon, "daemon", "-c", p, "--listen", "unix:///x/y.sock",
                        "--status-listen", "127.0.0.1:9", "--log-level", "warn", "--check-config"],
                       capture_output=True, text=True)
    d = tomllib.loads(r.stdout) if r.returncode == 0 else {}
    check(r.returncode == 0 and d["daemon"]["listen"] == "unix:///x/y.sock"
          and d["daemon"]["status_listen"] == "127.0.0.1:9" and d["logging"]["level"] == "warn",
          "--listen, --status-listen, --log-level override the file")
    r = subprocess.run([daemon, "--config", p, "--check-config"], capture_output=True, text=True)
    check(r.returncode == 0 and tomllib.loads(r.stdout)["daemon"]["listen"] == "127.0.0.1:1",
          "Rust cuzk-daemon's form `cuzk --config F` starts the daemon")
    r = subprocess.run([daemon, "daemon", "-c", p, "--log-level", "chatty"], capture_output=True, text=True)
    check(r.returncode == 2 and "--log-level" in r.stderr, "bad --log-level: exit 2")

ck.finish()
