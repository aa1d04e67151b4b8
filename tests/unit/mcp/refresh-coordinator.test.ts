import { describe, expect, it } from "vitest";
import { parseServerConfig } from "@/lib/mcp/config";
import type { Connection } from "@/lib/mcp/connection";
import type { Discovered, ListKind } from "@/lib/mcp/discovery";
import { RefreshCoordinator } from "@/lib/mcp/refresh-coordinator";

const server = { id: "s1", name: "s1", config: parseServerConfig({ url: "http://127.0.0.1:1/mcp" }) };
const listing = (tools: string[]): Discovered => ({
  tools: tools.map((name) => ({ name, inputSchema: { type: "object" as const } })),
  resources: [],
  resourceTemplates: [],
  prompts: [],
  capabilities: { tools: { listChanged: true } },
});

describe("refresh coordinator", () => {
  it("tells `refreshed` of a list_changed re-list, with its kind, and not of a connect's or a page's listing", async () => {
    const refreshed: ListKind[] = [];
    let changed = 0;
    const connection = { refresh: async (_kind: ListKind) => listing(["a", "b"]) } as unknown as Connection;
    const coordinator = new RefreshCoordinator(server, {
      current: () => connection,
      changed: () => changed++,
      refreshed: (kind) => refreshed.push(kind),
      failed: () => {},
    });
    coordinator.apply(listing(["a"]));
    expect(changed).toBe(1);
    expect(refreshed).toEqual([]);
    await coordinator.listChanged(connection, "tools");
    expect(refreshed).toEqual(["tools"]);
    expect(coordinator.discovered?.tools.map((tool) => tool.name)).toEqual(["a", "b"]);
    expect(changed).toBe(2);
  });

  it("does not tell `refreshed` when the re-list failed (the previous list stays)", async () => {
    const refreshed: ListKind[] = [];
    const connection = {
      refresh: async () => {
        throw new Error("gone");
      },
    } as unknown as Connection;
    const coordinator = new RefreshCoordinator(server, {
      current: () => connection,
      changed: () => {},
      refreshed: (kind) => refreshed.push(kind),
      failed: () => {},
    });
    coordinator.apply(listing(["a"]));
    await coordinator.listChanged(connection, "prompts");
    expect(refreshed).toEqual([]);
    expect(coordinator.discovered?.tools.map((tool) => tool.name)).toEqual(["a"]);
  });
});
