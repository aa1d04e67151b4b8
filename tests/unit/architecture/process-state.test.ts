/**
 * Every piece of state the server keeps in a process is classified in docs/architecture.md
 * ("Which state may run on several replicas"): a new `singleton(...)` slot, `globalThis` slot or
 * module-level cache fails here until someone decides whether it is safe on several replicas.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findProcessState } from "../../helpers/process-state";

const ROOT = path.resolve(import.meta.dirname, "../../..");
// No "single-node": state correct only while one process serves the instance cannot land (issue 27).
const CLASSES = ["replica", "invalidated"];

/** The table's rows: state → class. */
function documented(): Map<string, string> {
  const doc = fs.readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");
  const section = doc.slice(doc.indexOf("### Which state may run on several replicas"));
  const rows = new Map<string, string>();
  for (const match of section.matchAll(/^\| `([^`]+)` \| ([\w-]+) \|/gm)) rows.set(match[1], match[2]);
  return rows;
}

describe("process state", () => {
  const found = findProcessState(ROOT);
  const rows = documented();

  it("finds the kinds of state it looks for (the scan itself works)", () => {
    expect(found.get("mcp.pool")).toBe("lib/mcp/global-pool.ts");
    expect(found.get("db")).toBe("db/client.ts");
    expect(found.get("__switchboardMetrics")).toBe("lib/telemetry/metrics.ts");
    expect(found.get("switchboard.db.generation")).toBe("db/generation.ts");
    expect(found.has("lib/auth/sessions.ts#states")).toBe(true);
    expect(found.has("lib/auth/sign-in-throttle.ts#throttle")).toBe(true);
  });

  it("is every one classified in docs/architecture.md", () => {
    const missing = [...found].filter(([name]) => !rows.has(name)).map(([name, file]) => `${name} (${file})`);
    expect(missing, "classify these in docs/architecture.md#which-state-may-run-on-several-replicas").toEqual([]);
  });

  it("lists nothing that is gone, and only the three classes", () => {
    expect([...rows.keys()].filter((name) => !found.has(name))).toEqual([]);
    expect([...rows].filter(([, kind]) => !CLASSES.includes(kind))).toEqual([]);
  });

  it("keeps every per-user cache of database rows invalidated by the change stamp", () => {
    // The caches issue 27 names: definitions, roles, pins, policies, trust, sessions.
    for (const cache of [
      "lib/runtime/definition-cache.ts#single",
      "lib/workspaces/membership-lookup.ts#cache",
      "lib/trust/pins.ts#lastSyncs",
      "lib/trust/tool-gate.ts#storedChoices",
      "lib/trust/tool-gate.ts#storedTrust",
      "lib/auth/sessions.ts#states",
    ])
      expect(rows.get(cache), cache).toBe("invalidated");
  });

  it("backs every row classified as invalidated with a LookupCache, which follows the change stamp (lib/lookup-cache.ts)", () => {
    for (const [name, kind] of rows) {
      if (kind !== "invalidated") continue;
      const [file, variable] = name.split("#");
      const text = fs.readFileSync(path.join(ROOT, file), "utf8");
      expect(text, name).toMatch(new RegExp(`^const ${variable} = new LookupCache<`, "m"));
    }
  });
});
