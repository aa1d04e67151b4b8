#!/usr/bin/env node
// `npm start`: build when the sources are newer than the last build, prepare the data directory
// (keys, migrations, key check), then serve on PORT (default 3000). No configuration needed.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkRuntime } from "./runtime.mjs";
import { APP_V8_FLAGS } from "./v8-flags.mjs";

console.log(`switchboard: ${checkRuntime("switchboard")}`);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
const tsxBin = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");

function newestMtime(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

function needsBuild() {
  const buildId = fs.statSync(path.join(root, ".next", "BUILD_ID"), { throwIfNoEntry: false });
  if (!buildId) return true;
  const sources = ["app", "lib", "db", "public", "package.json", "next.config.ts", "postcss.config.mjs"];
  return sources.some((source) => newestMtime(path.join(root, source)) > buildId.mtimeMs);
}

function run(args, label) {
  const result = spawnSync(process.execPath, args, { stdio: "inherit", env: process.env });
  if (result.status !== 0) {
    console.error(`switchboard: ${label} failed (exit ${result.status}).`);
    process.exit(result.status ?? 1);
  }
}

if (needsBuild()) {
  console.log("switchboard: building (sources changed since the last build)…");
  run([nextBin, "build"], "next build");
}

// Migrations, generated keys and the key check, once, with a clear message instead of a crash loop.
run([tsxBin, path.join(root, "scripts", "preflight.ts")], "preflight");

const port = process.env.PORT || "3000";
const env = { ...process.env, PORT: port };
// No default NEXTAUTH_URL: without a configured public URL, next-auth follows the loopback address
// each request came to (proxy.ts pins X-Forwarded-Host), so 127.0.0.1 and localhost both work.
if (env.SWITCHBOARD_PUBLIC_URL) env.NEXTAUTH_URL = env.SWITCHBOARD_PUBLIC_URL;
const dataDir = path.resolve(process.env.SWITCHBOARD_DATA_DIR || "./data");
env.NEXTAUTH_SECRET ||= fs.readFileSync(path.join(dataDir, "nextauth.secret"), "utf8").trim();

// HOSTNAME binds to one interface (127.0.0.1 keeps a fresh instance off the network); the default is every interface.
console.log(`switchboard: listening on ${process.env.HOSTNAME || "every interface"}, port ${port}`);
const server = spawn(process.execPath, [...APP_V8_FLAGS, path.join(root, "scripts", "server.mjs")], { stdio: "inherit", env });
// A stop that was asked for (SIGTERM from a container runtime or service manager, Ctrl-C) and that
// the server completes (it then exits 128 + the signal's number) is a clean stop: exit 0.
let stopCode = 0;
for (const [signal, number] of [
  ["SIGINT", 2],
  ["SIGTERM", 15],
]) {
  process.on(signal, () => {
    stopCode = 128 + number;
    server.kill(signal);
  });
}
server.on("exit", (code, signal) => process.exit(stopCode && (code === stopCode || signal) ? 0 : (code ?? (signal ? 0 : 1))));
