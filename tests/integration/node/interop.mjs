// cuzk daemon driven by @grpc/grpc-js: an HTTP/2 + gRPC stack that shares no
// code with gRPC core (the Python client does).  Loads proving.proto at run
// time, starts DAEMON (`daemon --config F`) on a unix socket and on TCP, and
// checks status codes, a 55 MB Prove, a client deadline, and a clean exit.
//
// usage: node interop.mjs DAEMON PROTO_DIR
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import grpc from "@grpc/grpc-js";
import protoLoader from "@grpc/proto-loader";

const [daemon, protoDir] = process.argv.slice(2);
const def = protoLoader.loadSync("cuzk/v1/proving.proto", {
  includeDirs: [protoDir], longs: Number, enums: String, defaults: true,
});
const { ProvingEngine } = grpc.loadPackageDefinition(def).cuzk.v1;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cuzk-node-"));
let passed = 0, failed = 0;
function check(cond, what) {
  if (cond) { passed++; console.log(`ok   ${what}`); } else { failed++; console.log(`FAIL ${what}`); }
}
const call = (c, m, req, deadlineMs = 30000) => new Promise((resolve) => {
  c[m](req, { deadline: Date.now() + deadlineMs }, (err, res) => resolve({ err, res }));
});
const freePort = () => new Promise((resolve) => {
  const s = net.createServer().listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => resolve(p)); });
});

async function run(tag, listen, target) {
  const cfg = path.join(tmp, `${tag}.toml`);
  // param_cache is checked at start: an existing folder
  fs.writeFileSync(cfg, `[daemon]\nlisten = "${listen}"\n[srs]\nparam_cache = "${tmp}"\n`);
  const log = fs.openSync(path.join(tmp, `${tag}.log`), "w");
  const proc = spawn(daemon, ["daemon", "--config", cfg], {
    stdio: ["ignore", "ignore", log], env: { ...process.env, CUZK_ENGINE_DOUBLE_JOB_MS: "1000" },
  });
  const exited = new Promise((resolve) => proc.on("exit", (code) => resolve(code)));
  const c = new ProvingEngine(target, grpc.credentials.createInsecure(), {
    "grpc.max_send_message_length": 256 << 20, "grpc.max_receive_message_length": 256 << 20,
  });
  await new Promise((resolve, reject) => c.waitForReady(Date.now() + 20000, (e) => (e ? reject(e) : resolve())));

  let r = await call(c, "GetStatus", {});
  check(!r.err && r.res.uptimeSeconds >= 0, `${tag}: GetStatus`);
  r = await call(c, "SubmitProof", { proofKind: 9 });
  check(r.err && r.err.code === grpc.status.INVALID_ARGUMENT && r.err.details === "invalid proof_kind: 9",
        `${tag}: proof_kind 9 -> INVALID_ARGUMENT 'invalid proof_kind: 9'`);
  r = await call(c, "Prove", {});
  check(r.err && r.err.code === grpc.status.INVALID_ARGUMENT && r.err.details === "missing submit field",
        `${tag}: Prove without submit -> 'missing submit field'`);
  const big = Buffer.alloc(55 << 20, 0x20);
  r = await call(c, "Prove", { submit: { requestId: `porep-1000-7-${tag}`, proofKind: "POREP_SEAL_COMMIT",
                                         sectorSize: 2048, registeredProof: 5, vanillaProof: big } }, 120000);
  check(!r.err && r.res.result.jobId === `porep-1000-7-${tag}` && r.res.result.status === "FAILED",
        `${tag}: 55 MB Prove -> OK, result FAILED from the double (${r.err ? r.err.details : r.res.result.errorMessage})`);
  r = await call(c, "Prove", { submit: { requestId: `dl-${tag}`, proofKind: "WINNING_POST",
                                         vanillaProofs: [Buffer.from("v")] } }, 300);
  check(r.err && r.err.code === grpc.status.DEADLINE_EXCEEDED, `${tag}: deadline -> DEADLINE_EXCEEDED`);
  r = await call(c, "AwaitProof", { jobId: `dl-${tag}` });
  check(!r.err && r.res.status === "CANCELLED", `${tag}: the expired Prove's job was cancelled`);
  r = await call(c, "GetMetrics", {});
  check(!r.err && r.res.prometheusText.includes("cuzk_proofs_failed_total"), `${tag}: GetMetrics`);
  c.close();
  proc.kill("SIGTERM");
  check((await exited) === 0, `${tag}: SIGTERM -> exit 0`);
}

await run("uds", `unix://${tmp}/s/cuzk.sock`, `unix://${tmp}/s/cuzk.sock`);
const port = await freePort();
await run("tcp", `127.0.0.1:${port}`, `127.0.0.1:${port}`);
fs.rmSync(tmp, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
