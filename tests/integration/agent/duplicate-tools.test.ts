/**
 * Two tools of one server with the same name (tests/fixtures/mcp/hostile-core.mjs, `dup-tools`):
 * a server defect the status names, with the second refused; the first is pinned like any tool
 * (held as new when it appears later, approved once) and stays approved on every later listing —
 * before, the two definitions took turns under one pin key and the tool was held forever. And a
 * tool's title and description reach the API as the model gets them (invisible characters gone).
 */
import path from "node:path";
import { expect, it } from "vitest";
import { getDb } from "@/db/client";
import { gateHandCall } from "@/lib/trust/hand-call-gate";
import { listToolPolicyRows } from "@/lib/trust/tool-policy-service";
import { listHeldTools } from "@/lib/trust/pins";
import { listToolsWithHeld, reviewHeldTool } from "@/lib/trust/trust-service";
import { FIXTURES, waitUntil } from "../mcp/helpers";
import { newUserWithChat, useAgentEnvironment } from "./helpers";

const env = useAgentEnvironment();

it("a duplicate tool name is reported and refused, and the first tool is callable after approval, stably", async () => {
  const { user, servers } = await newUserWithChat({
    dups: { command: process.execPath, args: [path.join(FIXTURES, "hostile-stdio.mjs")], env: { HOSTILE_MODE: "dup-tools" } },
  });
  const [server] = servers;
  const actor = { id: user.id, isAdmin: false, workspaceId: user.workspaceId };
  const db = getDb();
  const heldOf = async (name: string) => (await listToolsWithHeld(db, env.pool, actor, server)).find((t) => t.rawName === name)?.held;

  // The first listing is pinned as the person who added the server saw it.
  expect(await heldOf("echo")).toBeNull();
  expect(env.pool.session(user.id, server).status().refusedTools).toEqual([]);
  // Now the server lists two tools named `dup` (and says so with list_changed).
  await env.pool.session(user.id, server).callTool("add_dups", {});
  await waitUntil(() => env.pool.session(user.id, server).status().refusedTools.length > 0, 20_000, "the re-list");
  expect(env.pool.session(user.id, server).status().refusedTools).toEqual([
    { name: "dup", reason: expect.stringMatching(/two tools with this name \(a server defect\); only the first is offered/) },
  ]);
  const listed = await listToolsWithHeld(db, env.pool, actor, server);
  expect(listed.filter((t) => t.rawName === "dup").map((t) => [t.description, t.held])).toEqual([["the first dup", "new"]]);
  await expect(gateHandCall(db, env.pool, actor, server, "dup")).rejects.toThrow(/review/i);

  const [pending] = await listHeldTools(db, server.id);
  expect(pending).toMatchObject({ toolName: "dup", held: "new", current: expect.objectContaining({ description: "the first dup" }) });
  await reviewHeldTool(db, actor, server.id, { toolName: "dup", hash: pending.currentHash });
  // Approved once, it stays approved however often the server lists its two `dup`s.
  for (let i = 0; i < 3; i++) expect(await heldOf("dup")).toBeNull();
  expect(await listHeldTools(db, server.id)).toEqual([]);
  await expect(gateHandCall(db, env.pool, actor, server, "dup")).resolves.toBeDefined();
  expect((await env.pool.session(user.id, server).callTool("dup", {})).forModel).toEqual({ result: "ran the first dup" });
});

it("titles and descriptions reach the API without bidi, zero-width, NUL or lone surrogates", async () => {
  const { user, servers } = await newUserWithChat({
    sneaky: { command: process.execPath, args: [path.join(FIXTURES, "hostile-stdio.mjs")], env: { HOSTILE_MODE: "sneaky-text" } },
  });
  const actor = { id: user.id, isAdmin: false, workspaceId: user.workspaceId };
  const [tool] = (await listToolsWithHeld(getDb(), env.pool, actor, servers[0])).filter((t) => t.rawName === "sneaky");
  expect({ title: tool.title, description: tool.description }).toEqual({ title: "Safetxt.exe", description: "Reads your files" });
  const rows = await listToolPolicyRows(getDb(), env.pool, actor, servers);
  expect(rows.tools.find((row) => row.toolName === "sneaky")?.title).toBe("Safetxt.exe");
});
