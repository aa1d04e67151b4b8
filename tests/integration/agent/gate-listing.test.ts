/**
 * The tool gate lists once per listing (lib/trust/tool-gate.ts): refreshing it again while no
 * server's listing changed and nothing in the trust tables moved reuses the last answer, a
 * `tools/list_changed` or a stored decision makes it list again, and a hand call lists its server
 * once. Against the hostile fixture server behind the wire tap (what the server really saw) and a
 * real SQLite file; the pool is the real one, counted from outside.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { setToolPolicy } from "@/db/queries/tool-policies";
import { McpPool, type ServerDefinition } from "@/lib/mcp";
import { gateHandCall } from "@/lib/trust/hand-call-gate";
import { ToolGate } from "@/lib/trust/tool-gate";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { newUserWithChat } from "./helpers";

const FIXTURES = path.resolve(__dirname, "../../fixtures/mcp");
const pool = new McpPool({ killGraceMs: 500 });
let dir = "";
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "sb-gate-"));
beforeAll(() => {
  dir = useTempDataDir();
});
afterAll(async () => {
  await pool.closeAll();
  removeTempDataDir(dir);
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** A user with the hostile server (announcing its rug-pull with list_changed) behind the wire tap. */
async function setup() {
  const tag = Math.random().toString(36).slice(2, 8);
  const wire = path.join(scratch, `${tag}.wire`);
  const env = { HOSTILE_NOTIFY: "1", HOSTILE_STATE: path.join(scratch, `${tag}.state`) };
  const args = [path.join(FIXTURES, "wire-tap.mjs"), wire, process.execPath, path.join(FIXTURES, "hostile-server.mjs")];
  const { user, servers } = await newUserWithChat({ hostile: { command: process.execPath, args, env } });
  const toolsLists = () =>
    (fs.existsSync(wire) ? fs.readFileSync(wire, "utf8") : "").split("\n").filter((l) => l.startsWith("> ") && l.includes('"tools/list"'))
      .length;
  return { user, server: servers[0], toolsLists };
}

/** The real pool, with every listing it is asked for counted (the gate's and the hand call's). */
function counted(real: McpPool) {
  const counts = { toolset: 0, listTools: 0 };
  const pool = {
    toolset: (userId: string, servers: ServerDefinition[]) => {
      counts.toolset++;
      return real.toolset(userId, servers);
    },
    listingVersion: (userId: string, servers: ServerDefinition[]) => real.listingVersion(userId, servers),
    session: (userId: string, server: ServerDefinition) => {
      const session = real.session(userId, server);
      return new Proxy(session, {
        get(target, key, receiver) {
          if (key === "listTools") counts.listTools++;
          const value = Reflect.get(target, key, receiver);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
    },
  };
  return { pool, counts };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe("the tool gate lists once per listing", () => {
  it("refreshes from its cache until list_changed or a stored decision changes what it offers", async () => {
    const { user, server, toolsLists } = await setup();
    const db = getDb();
    // Connected first, as on every call after a turn's first step (a server still connecting has no
    // listing version yet: the gate lists again until it has one).
    await pool.session(user.id, server).listTools();
    const { pool: countingPool, counts } = counted(pool);
    const gate = await ToolGate.open({ db, pool: countingPool, user, servers: [server] });
    const first = await gate.refresh();
    expect(first.map((t) => t.rawName)).toContain("add");
    expect(counts.toolset).toBe(1);
    // Before every tool call and every step the agent refreshes: nothing changed, nothing listed.
    for (let i = 0; i < 5; i++) expect(await gate.refresh()).toBe(first);
    expect(counts.toolset).toBe(1);
    expect(toolsLists()).toBe(1);

    // The rug-pull: the server changes `add`, adds `exfiltrate` and says tools/list_changed.
    const outcome = await pool.session(user.id, server).callTool("add", { a: 1, b: 2 });
    expect(outcome.isError).toBe(false);
    // (The fixture answers the call only after the host re-listed: one list_changed per change.)
    await until(() => pool.session(user.id, server).status().counts.tools > first.filter((t) => t.kind === "tool").length, "the re-list");
    const listedByServer = toolsLists();
    expect(listedByServer).toBeGreaterThan(1);
    const after = await gate.refresh();
    expect(counts.toolset).toBe(2);
    // The changed `add` and the new `exfiltrate` are held: taken out of what the model is offered.
    expect(gate.isHeld(first.find((t) => t.rawName === "add")!.name)).toBe(true);
    expect(after.some((t) => t.rawName === "add" || t.rawName === "exfiltrate")).toBe(false);

    // A stored decision (a tool policy written) moves the trust tables' stamp: the gate reads them again.
    await gate.refresh();
    expect(counts.toolset).toBe(2);
    await setToolPolicy(db, user.id, { serverId: server.id, toolName: "send_data", policy: "deny" });
    await gate.refresh();
    expect(counts.toolset).toBe(3);
    // None of the gate's refreshes asked the server for its tools: only its list_changed did.
    expect(toolsLists()).toBe(listedByServer);
  });

  it("a hand call lists its server's tools once", async () => {
    const { user, server, toolsLists } = await setup();
    const db = getDb();
    const actor = { id: user.id, isAdmin: false, workspaceId: user.workspaceId };
    const { pool: countingPool, counts } = counted(pool);
    expect(await gateHandCall(db, countingPool, actor, server, "read_inbox")).toMatchObject({ action: "ask" });
    expect(counts.toolset + counts.listTools).toBe(1);
    await gateHandCall(db, countingPool, actor, server, "read_inbox");
    expect(counts.toolset + counts.listTools).toBe(2);
    // The server itself was asked for its tools once, at connect.
    expect(toolsLists()).toBe(1);
  });
});
