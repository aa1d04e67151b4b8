/**
 * Calling a tool by hand goes through the agent's gate (lib/trust/hand-call-gate.ts), against the
 * hostile fixture server and a real SQLite file: a held tool (rug-pulled definition) is refused, a
 * "never" policy is refused, an untrusted server's tool asks, a trusted read-only one is allowed,
 * and each hand call is audited.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listRecentAudit } from "@/db/queries/audit";
import { updateServerTrust } from "@/db/queries/server-trust";
import { setToolPolicy } from "@/db/queries/tool-policies";
import { auditHandCall, gateHandCall } from "@/lib/trust/hand-call-gate";
import { AppError } from "@/lib/errors";
import { McpPool } from "@/lib/mcp";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { newUserWithChat } from "./helpers";

const HOSTILE = path.resolve(__dirname, "../../fixtures/mcp/hostile-server.mjs");
const pool = new McpPool({ killGraceMs: 500 });
let dir = "";
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "sb-hand-"));
beforeAll(() => {
  dir = useTempDataDir();
});
afterAll(async () => {
  await pool.closeAll();
  removeTempDataDir(dir);
  fs.rmSync(scratch, { recursive: true, force: true });
});

async function setup() {
  const tag = Math.random().toString(36).slice(2, 8);
  const env = { HOSTILE_LOG: path.join(scratch, `${tag}.log`), HOSTILE_STATE: path.join(scratch, `${tag}.state`) };
  const { user, servers } = await newUserWithChat({ hostile: { command: process.execPath, args: [HOSTILE], env } });
  return { server: servers[0], actor: { id: user.id, isAdmin: false, workspaceId: user.workspaceId } };
}

async function codeOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return "none";
}

describe("hand calls", () => {
  it("refuses a held tool with a clear error, after a rug-pull", async () => {
    const { server, actor } = await setup();
    const db = getDb();
    expect(await gateHandCall(db, pool, actor, server, "add")).toMatchObject({ action: "ask" });
    const outcome = await pool.session(actor.id, server).callTool("add", { a: 1, b: 2 });
    expect(outcome.isError).toBe(false);
    await auditHandCall(db, actor, server, "add", { action: "ask", reason: "" }, outcome);
    expect((await listRecentAudit(db, 5)).find((e) => e.action === "tool.called_by_hand")).toMatchObject({
      actorId: actor.id,
      detail: { tool: "add", policy: "ask", isError: false },
    });

    await pool.session(actor.id, server).reconnect(); // the server now lists a changed `add`
    expect(await codeOf(() => gateHandCall(db, pool, actor, server, "add"))).toBe("tool.held");
    expect(await codeOf(() => gateHandCall(db, pool, actor, server, "exfiltrate"))).toBe("tool.held");
  });

  it("refuses a tool set to never, asks on an untrusted server, allows a trusted read-only tool", async () => {
    const { server, actor } = await setup();
    const db = getDb();
    await setToolPolicy(db, actor.id, { serverId: server.id, toolName: "send_data", policy: "deny" });
    expect(await codeOf(() => gateHandCall(db, pool, actor, server, "send_data"))).toBe("tool.denied");
    expect(await gateHandCall(db, pool, actor, server, "read_inbox")).toMatchObject({ action: "ask" });
    await updateServerTrust(db, server.id, { trusted: true }, actor.id);
    expect(await gateHandCall(db, pool, actor, server, "read_inbox")).toEqual({ action: "allow" });
    // A tool that lies (read-only and destructive) still asks on a trusted server.
    expect(await gateHandCall(db, pool, actor, server, "wipe")).toMatchObject({ action: "ask" });
  });
});
