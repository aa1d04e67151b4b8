/**
 * `npx tsx bench/profile.ts [tool|chat] [count]`: the app under `node --cpu-prof` while one user
 * makes `count` sequential `echo` calls through `POST /api/servers/:id/tools/call` (`tool`), or
 * `count` chat turns that each call `echo` once over the scripted LLM (`chat`), or `count` plain
 * answers for a user with ten connected servers (`first-token`); prints the top
 * frames by self time and the split by package (the figures in docs/performance.md). With
 * `--parallel` the calls or turns run 64 at a time (the throughput figure's shape).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../tests/helpers/ports";
import { turn } from "./chat-bench";
import { summarise } from "./cpu-profile";
import { throughput, WARM_UP_CALLS } from "./goals";
import { apiEcho, createServer, ROOT, signIn, start, startApp, startEverything, stopAll, waitFor } from "./harness";

async function main() {
  const mode = process.argv[2] === "chat" || process.argv[2] === "first-token" ? process.argv[2] : "tool";
  const parallel = process.argv.includes("--parallel");
  const count = Number(process.argv[3] ?? (mode === "chat" ? 200 : 2000));
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-profile-"));
  const mcpUrl = await startEverything();
  const llmPort = await freePort();
  start(process.execPath, [path.join(ROOT, "tests/fixtures/llm/scripted-llm.mjs")], { PORT: String(llmPort) });
  await waitFor(`http://127.0.0.1:${llmPort}/requests`, 20_000);
  const app = await startApp(
    {
      SWITCHBOARD_LLM_PROVIDER: "openai-compatible",
      SWITCHBOARD_LLM_MODEL: "scripted",
      SWITCHBOARD_LLM_BASE_URL: `http://127.0.0.1:${llmPort}/v1`,
      SWITCHBOARD_QUOTA_CONCURRENT_CALLS_PER_USER: "64",
      SWITCHBOARD_QUOTA_CONCURRENT_TURNS_PER_USER: "64",
    },
    profileDir,
  );
  const cookie = await signIn(app.base, app.dataDir);
  const id = await createServer(app.base, cookie, "everything", { url: mcpUrl, supports_parallel_tool_calls: true });
  let once: () => Promise<unknown>;
  if (mode === "tool") once = apiEcho(app.base, cookie, id, "node-http");
  else if (mode === "first-token") {
    // The first-token figure's shape: plain answers for a user with ten connected servers.
    for (let i = 1; i < 10; i++) await createServer(app.base, cookie, `everything${i}`, { url: mcpUrl });
    once = () => turn(app.base, cookie, "hello");
  } else {
    const trusted = await fetch(`${app.base}/api/servers/${id}/trust`, {
      method: "PUT",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ trusted: true }),
    });
    if (!trusted.ok) throw new Error(`trusting the server failed: ${trusted.status}`);
    once = () => turn(app.base, cookie, '[[call:echo {"message":"bench"}]]');
  }
  // Hot, as the bench measures: the same warm-up for tool calls, fewer for (slower) chat turns.
  const warmUp = mode === "tool" ? WARM_UP_CALLS : Math.min(50, count);
  for (let i = 0; i < warmUp; i++) await once();
  const t0 = performance.now();
  if (parallel) await throughput(once as () => Promise<void>, count, 64);
  else for (let i = 0; i < count; i++) await once();
  console.log(`${count} ${mode === "tool" ? "calls" : "chat turns"} in ${(performance.now() - t0).toFixed(0)} ms`);
  await stopAll();
  // The biggest profile is the server's (the preflight writes none: it runs without --cpu-prof).
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
