#!/usr/bin/env node
/**
 * The container smoke test (`npm run test:container`; `.ci/run` runs it after `npm test`): builds
 * the image from the Containerfile with podman on a base made from Debian packages
 * (base-image.mjs), starts it on a fresh volume, waits for its HEALTHCHECK, registers the first
 * account with the setup code from the container's log, adds server-everything (Streamable HTTP on
 * the host's loopback; the container shares the host network) and calls a tool through the API,
 * stops the container (SIGTERM: exit code 0 within the stop timeout), starts a new container on the
 * same volume, signs in and finds the server, whose tool answers again. Ends with `N passed, N failed`
 * (one per check; checks after a failed one count as failed, not run). Without podman every check
 * fails, saying why. The images stay in podman's storage: the next run reuses the Debian base and
 * every unchanged layer (the `npm ci` layer until the lockfile changes).
 */
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { addServer, callTool, enrolAuthenticator, listServers, register, serverStatus, signIn } from "./api.mjs";
import { BASE_IMAGE, buildBaseImage, ensureDebianImage } from "./base-image.mjs";
import { ensurePackages, podman, podmanOk, writeContainersConf } from "./podman.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const IMAGE = "localhost/switchboard:smoke";
/** The whole stage, first run included (mmdebstrap, `npm ci`, `next build`: ~15 min on 2 cores). */
const STAGE_LIMIT_MS = 45 * 60_000;
const HEALTHY_WITHIN_MS = 180_000;
/** `podman stop` waits this long for a graceful exit before it kills (exit 137). */
const STOP_TIMEOUT_S = 30;

const run = `${process.pid}-${Date.now().toString(36)}`;
const volume = `switchboard-smoke-${run}`;
const containers = [];
const results = [];
const timings = [];
let conf = "";
let everything;

/** Run `body` as the check `name` unless an earlier one failed; prints and records the outcome. */
async function check(name, body) {
  if (results.some((r) => !r.ok)) {
    results.push({ name, ok: false });
    console.log(`✗ ${name} (not run: an earlier check failed)`);
    return;
  }
  const started = Date.now();
  try {
    const note = await body();
    results.push({ name, ok: true });
    console.log(`✓ ${name} (${seconds(Date.now() - started)})${note ? `: ${note}` : ""}`);
  } catch (error) {
    results.push({ name, ok: false });
    console.log(`✗ ${name} (${seconds(Date.now() - started)}): ${error instanceof Error ? error.message : error}`);
  }
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Time `body` and remember the figure for the summary. */
async function timed(label, body) {
  const started = Date.now();
  const value = await body();
  timings.push(`${label} ${seconds(Date.now() - started)}`);
  return value;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const up = await new Promise((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`nothing listened on 127.0.0.1:${port} within ${timeoutMs} ms`);
}

/** server-everything over Streamable HTTP on the host's loopback; returns its URL. */
async function startEverything() {
  const port = await freePort();
  const entry = path.join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
  everything = spawn(process.execPath, [entry, "streamableHttp"], { env: { PATH: process.env.PATH, PORT: String(port) }, stdio: "ignore" });
  await waitForPort(port, 20_000);
  return `http://127.0.0.1:${port}/mcp`;
}

/**
 * Start a container of the image on the smoke volume, on the host network at `port`, bound to
 * loopback. The health check runs when asked (`podman healthcheck run`), not on a systemd timer.
 */
async function startContainer(port) {
  const name = `switchboard-smoke-${run}-${containers.length + 1}`;
  containers.push(name);
  const env = { PORT: String(port), HOSTNAME: "127.0.0.1", SWITCHBOARD_ALLOWED_HOSTS: "127.0.0.1" };
  const options = [
    ...Object.entries(env).flatMap(([k, v]) => ["-e", `${k}=${v}`]),
    ...["--network", "host", "--health-interval", "disable"],
    // What unprivileged bubblewrap needs, as the README runs it (docs/deployment.md, "The stdio sandbox in a container").
    ...["--security-opt", "seccomp=unconfined", "--security-opt", "systempaths=unconfined"],
    ...["-v", `${volume}:/data`],
    // The sandbox probe and the SDK it imports (a dev dependency, not in the image), read-only.
    ...[
      "-v",
      `${path.join(ROOT, "tests/fixtures/sandbox")}:/opt/probe:ro`,
      "-v",
      `${path.join(ROOT, "node_modules")}:/opt/node_modules:ro`,
    ],
  ];
  await podmanOk(["run", "-d", "--name", name, ...options, IMAGE], { conf });
  return name;
}

/** Run the image's HEALTHCHECK until it passes; fails early when the container has exited. */
async function waitHealthy(name) {
  const deadline = Date.now() + HEALTHY_WITHIN_MS;
  while (Date.now() < deadline) {
    if ((await podman(["healthcheck", "run", name], { conf, timeoutMs: 30_000 })).status === 0) return;
    const state = await podmanOk(["inspect", "--format", "{{.State.Status}} {{.State.ExitCode}}", name], { conf });
    if (!state.startsWith("running")) throw new Error(`the container stopped (${state}) before it was healthy${await logTail(name)}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`not healthy within ${seconds(HEALTHY_WITHIN_MS)}${await logTail(name)}`);
}

async function logTail(name) {
  const logs = await podman(["logs", "--tail", "30", name], { conf });
  return `\n--- last lines of ${name}'s log ---\n${logs.stdout}${logs.stderr}`;
}

function cleanUp() {
  everything?.kill("SIGTERM");
  const removals = containers.map((name) => podman(["rm", "-f", "-t", "0", name], { conf }));
  return Promise.all(removals).then(() => podman(["volume", "rm", "-f", volume], { conf }));
}

function finish() {
  const passed = results.filter((r) => r.ok).length;
  if (timings.length) console.log(`\ntimes: ${timings.join(", ")}`);
  console.log(`\n${passed} passed, ${results.length - passed} failed`);
  process.exit(passed === results.length ? 0 : 1);
}

const CHECKS = [
  "podman, runc and mmdebstrap are installed",
  "the base image (Debian bookworm minbase from mmdebstrap, with this run's Node and npm)",
  "the image builds from the Containerfile",
  "a container on a fresh volume passes its health check, running as the non-root user",
  "the first account registers with the setup code from the container's log",
  "an HTTP MCP server on the host's loopback is added and its tool answers through the API",
  "a stdio server runs in bubblewrap inside the container: own namespaces, the data volume out of reach",
  "SIGTERM stops the container gracefully (exit code 0, before podman's kill)",
  "a new container on the same volume: healthy, sign-in works, the server is there and answers",
];

async function main() {
  console.log("container smoke: build the image, run it, restart it on its volume");
  const watchdog = setTimeout(() => {
    console.log(`✗ the stage took longer than ${seconds(STAGE_LIMIT_MS)}; stopped`);
    results.push({ name: "time limit", ok: false });
    void cleanUp().finally(finish);
  }, STAGE_LIMIT_MS);
  watchdog.unref();

  const missing = ensurePackages();
  if (missing) {
    console.log(`✗ ${CHECKS[0]}: ${missing}`);
    for (const name of CHECKS) results.push({ name, ok: false });
    return;
  }
  conf = writeContainersConf();
  results.push({ name: CHECKS[0], ok: true });
  console.log(`✓ ${CHECKS[0]}`);

  await check(CHECKS[1], () =>
    timed("base image", async () => {
      const made = await ensureDebianImage(conf);
      await buildBaseImage(conf);
      return `Node ${process.version}${made ? ", Debian image made now" : ", Debian image kept from an earlier run"}`;
    }),
  );
  await check(CHECKS[2], () =>
    timed("image build", async () => {
      const args = [
        "build",
        "--network",
        "host",
        "--format",
        "docker",
        "--layers",
        "--build-arg",
        `BASE_IMAGE=${BASE_IMAGE}`,
        "-t",
        IMAGE,
        ".",
      ];
      const built = await podman(args, { conf, cwd: ROOT, timeoutMs: 30 * 60_000 });
      if (built.status !== 0)
        throw new Error(`podman build failed (${built.status}):\n${`${built.stdout}${built.stderr}`.split("\n").slice(-40).join("\n")}`);
    }),
  );

  const smokeStarted = Date.now();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let first = "";
  let serverId = "";
  await check(CHECKS[3], async () => {
    await podmanOk(["volume", "create", volume], { conf });
    first = await startContainer(port);
    await waitHealthy(first);
    const uid = await podmanOk(["exec", first, "id", "-u"], { conf });
    if (uid === "0") throw new Error("the app runs as root");
    const owner = await podmanOk(["exec", first, "stat", "-c", "%u %a", "/data"], { conf });
    if (owner !== `${uid} 700`) throw new Error(`/data is "${owner}" (owner uid, mode), not "${uid} 700"`);
    return `uid ${uid}`;
  });
  await check(CHECKS[4], async () => {
    const logs = await podmanOk(["logs", first], { conf });
    const code = /setup code: ([0-9A-Z-]+)/.exec(logs)?.[1];
    if (!code) throw new Error(`no setup code in the log${await logTail(first)}`);
    await register(base, code);
  });
  await check(CHECKS[5], async () => {
    const url = await startEverything();
    const cookie = await signIn(base);
    serverId = await addServer(base, cookie, "everything", { url });
    const result = await callTool(base, cookie, serverId, "echo", { message: "from the container" });
    if (!JSON.stringify(result.content).includes("from the container")) throw new Error(`unexpected echo: ${JSON.stringify(result)}`);
  });
  await check(CHECKS[6], async () => {
    // The first account is the instance administrator, who needs a second factor to add stdio.
    await enrolAuthenticator(base, await signIn(base));
    const cookie = await signIn(base);
    const probeId = await addServer(base, cookie, "probe", {
      command: "node",
      args: ["/opt/probe/probe-server.mjs"],
      read_only_paths: ["/opt/probe", "/opt/node_modules"],
    });
    const identity = await callTool(base, cookie, probeId, "identity", {}).catch(async (error) => {
      const { lastError } = await serverStatus(base, cookie, probeId);
      throw new Error(`${error.message}; status: ${JSON.stringify(lastError)}`);
    });
    const seen = JSON.parse(identity.content[0].text);
    if (seen.interfaces.join() !== "lo" || seen.pids.length > 5) throw new Error(`not in its own namespaces: ${JSON.stringify(seen)}`);
    const files = JSON.parse(
      (await callTool(base, cookie, probeId, "read_files", { paths: ["/data/secret.key", "/data/switchboard.db"] })).content[0].text,
    );
    const readable = Object.entries(files).filter(([, outcome]) => outcome.ok);
    if (readable.length) throw new Error(`read from inside: ${readable.map(([file]) => file).join(", ")}`);
    // Not root: no cgroup limits, no image home; the status must say so (docs/deployment.md's table).
    const { stderrTail } = await serverStatus(base, cookie, probeId);
    if (!/limits are not enforced/.test(stderrTail) || !/kept in memory/.test(stderrTail)) throw new Error(`status: ${stderrTail}`);
    return `uid ${seen.uid}, pids ${seen.pids.join(" ")}`;
  });
  await check(CHECKS[7], async () => {
    const started = Date.now();
    await podmanOk(["stop", "-t", String(STOP_TIMEOUT_S), first], { conf, timeoutMs: (STOP_TIMEOUT_S + 30) * 1000 });
    const took = Date.now() - started;
    const exit = await podmanOk(["inspect", "--format", "{{.State.ExitCode}}", first], { conf });
    if (exit !== "0") throw new Error(`exit code ${exit} after ${seconds(took)}${await logTail(first)}`);
    return `stopped in ${seconds(took)}`;
  });
  await check(CHECKS[8], async () => {
    const second = await startContainer(port);
    await waitHealthy(second);
    const cookie = await signIn(base);
    const servers = await listServers(base, cookie);
    if (!servers.some((s) => s.id === serverId && s.name === "everything")) {
      throw new Error(`the server is gone: ${JSON.stringify(servers.map((s) => s.name))}`);
    }
    await callTool(base, cookie, serverId, "echo", { message: "after the restart" });
  });
  timings.push(`smoke ${seconds(Date.now() - smokeStarted)}`);
}

await main()
  .catch((error) => {
    console.log(`✗ container smoke: ${error instanceof Error ? error.message : error}`);
    results.push({ name: "container smoke", ok: false });
  })
  .finally(() => cleanUp().finally(finish));
