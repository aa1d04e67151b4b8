/** reload(): only servers whose config changed reconnect; removed ones close; disabled ones stop. */
import { afterAll, expect, it } from "vitest";
import { McpPool } from "@/lib/mcp";
import { def, EVERYTHING, fixture, isAlive } from "./helpers";

const pool = new McpPool({ killGraceMs: 1000 });
afterAll(() => pool.closeAll());

it("reconnects only what changed and closes what was removed", async () => {
  const keep = fixture("keep", "fault-server.mjs");
  const change = fixture("change", "fault-server.mjs", { timeout: 30 });
  const remove = fixture("remove", "fault-server.mjs");
  const before = await pool.discover("u", [keep, change, remove]);
  const [keepPid, changePid, removePid] = before.map((s) => s.pid!);

  const changed = fixture("change", "fault-server.mjs", { timeout: 60 });
  const same = fixture("keep", "fault-server.mjs"); // an equal config, a new object
  await pool.reload("u", [same, changed]);

  expect(pool.session("u", same).status().pid).toBe(keepPid);
  expect(pool.session("u", changed).status().pid).not.toBe(changePid);
  expect(pool.session("u", changed).status().state).toBe("connected");
  expect(isAlive(changePid)).toBe(false);
  expect(isAlive(removePid)).toBe(false);

  await pool.reload("u", [fixture("keep", "fault-server.mjs", { enabled: false }), changed]);
  expect(pool.session("u", fixture("keep", "fault-server.mjs", { enabled: false })).status().state).toBe("disabled");
  expect(isAlive(keepPid)).toBe(false);
});

it("gives the same tool objects while nothing changes, and a changed config's tools at once", async () => {
  const narrow = def("ev", { command: process.execPath, args: [EVERYTHING, "stdio"], tools: { include: ["echo"] } });
  const first = await pool.toolset("v", [narrow]);
  // Connected and unchanged: the same objects (what callers derive from them is kept per object).
  expect(await pool.toolset("v", [narrow])).toBe(first);
  expect(await pool.session("v", narrow).listTools()).toBe(first);
  const rawNames = (tools: { kind: string; rawName: string }[]) =>
    tools
      .filter((t) => t.kind === "tool")
      .map((t) => t.rawName)
      .sort();
  expect(rawNames(first)).toEqual(["echo"]);
  // An edited config (a new definition object with another hash) is never served from the old connection.
  const wider = def("ev", { command: process.execPath, args: [EVERYTHING, "stdio"], tools: { include: ["echo", "get-sum"] } });
  expect(rawNames(await pool.toolset("v", [wider]))).toEqual(["echo", "get-sum"]);
});
