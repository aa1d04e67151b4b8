/**
 * Redaction over a whole hostile session (docs/security.md#redaction): a server that leaks a canary
 * credential of every format (tests/fixtures/canaries.mjs) in a text result, in structured
 * content, in an isError result, in a thrown error and on stderr before it dies. None of them
 * reaches the model (the scripted LLM's request log), an API error body or the app's log; the UI
 * content keeps the successful result as sent (its view masks it until the user opts in).
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listMessagesByChat } from "@/db/queries/messages";
import { updateServerTrust } from "@/db/queries/server-trust";
import { setToolPolicy } from "@/db/queries/tool-policies";
import { consoleLogger } from "@/lib/runtime/console-logger";
import { errorResponse } from "@/lib/http";
import { McpPool } from "@/lib/mcp";
import { CANARIES } from "../../fixtures/canaries.mjs";
import { FIXTURES } from "../mcp/helpers";
import { newUserWithChat, runTurn, say, useAgentEnvironment } from "./helpers";

const env = useAgentEnvironment();
const CANARY_SERVER = path.join(FIXTURES, "canary-server.mjs");
const SECRETS = [...CANARIES.map((c) => c.secret), "CANARY-structured-pw"];
const logged: string[] = [];
const restore: Array<() => void> = [];
let pool: McpPool;
const savedLevel = process.env.SWITCHBOARD_LOG_LEVEL;

beforeAll(() => {
  // The app's log: the engine's console logger at its most talkative, and anything else on stderr/stdout.
  process.env.SWITCHBOARD_LOG_LEVEL = "debug";
  for (const name of ["error", "warn", "info", "log", "debug"] as const) {
    const original = console[name];
    console[name] = (...args: unknown[]) => {
      logged.push(
        args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : typeof a === "string" ? a : JSON.stringify(a))).join(" "),
      );
    };
    restore.push(() => {
      console[name] = original;
    });
  }
  pool = new McpPool({ logger: consoleLogger });
});
afterAll(async () => {
  await pool.closeAll();
  for (const undo of restore) undo();
  if (savedLevel === undefined) delete process.env.SWITCHBOARD_LOG_LEVEL;
  else process.env.SWITCHBOARD_LOG_LEVEL = savedLevel;
});

/** Every canary that occurs in `text`. */
const leaked = (text: string) => SECRETS.filter((secret) => text.includes(secret));

describe("canary credentials from a hostile server", () => {
  it("never reach the model, whichever way the tool returns them", async () => {
    const { user, chat, servers } = await newUserWithChat({ canary: { command: process.execPath, args: [CANARY_SERVER] } });
    const canary = servers[0];
    await updateServerTrust(getDb(), canary.id, { trusted: true }, user.id);
    for (const tool of ["leak_text", "leak_structured", "leak_error", "leak_throw"]) {
      await setToolPolicy(getDb(), user.id, { serverId: canary.id, toolName: tool, policy: "allow" });
    }
    const before = env.llm.requests.length;
    await runTurn({
      pool,
      llm: env.llm,
      userId: user.id,
      chatId: chat.id,
      servers,
      request: say("[[call:leak_text]] [[call:leak_structured]] [[call:leak_error]] [[call:leak_throw]]"),
    });
    // The model's second request carries the four tool results: masked, and still there.
    const sent = env.llm.requests.slice(before).map((r) => JSON.stringify(r.body.messages));
    expect(sent.length).toBeGreaterThanOrEqual(2);
    const withResults = sent.at(-1)!;
    expect(withResults.match(/"role":"tool"/g)?.length).toBe(4);
    expect(withResults).toContain("[REDACTED]");
    expect(withResults).toContain("report:");
    expect(leaked(sent.join("\n"))).toEqual([]);

    // The UI content keeps the successful text result whole: its view masks it by default.
    const stored = JSON.stringify(await listMessagesByChat(getDb(), chat.id));
    expect(stored).toContain(CANARIES[0].secret);
    expect(leaked(logged.join("\n"))).toEqual([]);
  });

  it("never reach an API error body, a status or the log when the server dies with them on stderr", async () => {
    const { user, servers } = await newUserWithChat({ crashing: { command: process.execPath, args: [CANARY_SERVER, "--crash"] } });
    // A tool call answers with the failure as its outcome (what the API returns for a hand call)…
    const outcome = JSON.stringify(await pool.session(user.id, servers[0]).callTool("leak_text", {}));
    expect(outcome).toContain('"isError":true');
    // …and a request that cannot be served answers with an error body.
    let thrown: unknown;
    try {
      await pool.session(user.id, servers[0]).listResources();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeDefined();
    const body = `${outcome}${await errorResponse(thrown).text()}`;
    expect(body).toContain("engine.");
    const status = JSON.stringify(pool.session(user.id, servers[0]).status());
    // The stderr tail is shown (it is how a person finds out why), with every credential masked.
    expect(`${body}${status}`).toContain("fatal: could not start");
    expect(leaked(body)).toEqual([]);
    expect(leaked(status)).toEqual([]);
    expect(leaked(logged.join("\n"))).toEqual([]);
  });
});
