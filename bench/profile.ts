/**
 * `npx tsx bench/profile.ts [calls]`: the app under `node --cpu-prof` while one user makes `calls`
 * sequential `echo` calls through `POST /api/servers/:id/tools/call`; prints the top frames by self
 * time and the split by package (the figures in docs/performance.md).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { summarise } from "./cpu-profile";
import { apiEcho, createServer, signIn, startApp, startEverything, stopAll } from "./harness";

async function main() {
  const calls = Number(process.argv[2] ?? 2000);
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-profile-"));
  const mcpUrl = await startEverything();
  const app = await startApp({}, profileDir);
  const cookie = await signIn(app.base, app.dataDir);
  const id = await createServer(app.base, cookie, "everything", { url: mcpUrl });
  const call = apiEcho(app.base, cookie, id);
  for (let i = 0; i < 50; i++) await call();
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) await call();
  console.log(`${calls} calls in ${(performance.now() - t0).toFixed(0)} ms`);
  await stopAll();
  // The biggest profile is the server's (start.mjs and the preflight write small ones).
  const files = fs.readdirSync(profileDir).map((f) => path.join(profileDir, f));
  const biggest = files.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
  const { total, frames, packages } = summarise(biggest);
  console.log(`\nprofile ${biggest}: ${total.toFixed(0)} ms sampled (idle excluded)\n\n| package | ms | % |\n|---|---|---|`);
  for (const p of packages) console.log(`| ${p.label} | ${p.ms.toFixed(0)} | ${p.percent.toFixed(1)} |`);
  console.log("\n| frame (self time) | ms | % |\n|---|---|---|");
  for (const f of frames) console.log(`| ${f.label} | ${f.ms.toFixed(0)} | ${f.percent.toFixed(1)} |`);
}

main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exitCode = 1;
});
