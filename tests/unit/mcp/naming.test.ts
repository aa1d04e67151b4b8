/** Tool naming (docs/architecture.md#tools-the-model-sees): normalisation, provider-safe length, deterministic collision suffixes. */
import { describe, expect, it } from "vitest";
import { assignNames, baseToolName, PROVIDER_NAME_PATTERN, type NameRequest } from "@/lib/mcp/naming";

const req = (serverName: string, rawName: string, serverId = serverName, kind: NameRequest["kind"] = "tool"): NameRequest => ({
  serverId,
  serverName,
  rawName,
  kind,
});

describe("baseToolName", () => {
  it.each([
    ["filesystem", "read_file", "mcp_filesystem_read_file"],
    ["my-api", "list-items.v2", "mcp_my_api_list_items_v2"],
    ["a.b", "x y/z", "mcp_a_b_x_y_z"],
    ["srv", "ünïcode", "mcp_srv__n_code"],
  ])("%s + %s → %s", (server, tool, expected) => expect(baseToolName(server, tool)).toBe(expected));
});

describe("assignNames", () => {
  it("keeps plain names and maps them back without splitting", () => {
    const names = assignNames([req("my_api", "list_items"), req("my", "api_list_items")]);
    // Both normalise to mcp_my_api_list_items: the reverse map, not "_" splitting, tells them apart.
    const entries = [...names.entries()];
    expect(entries).toHaveLength(2);
    for (const [name, request] of entries) {
      expect(name).toMatch(/^mcp_my_api_list_items_[0-9a-f]{6}$/);
      expect(request.rawName === "list_items" || request.rawName === "api_list_items").toBe(true);
    }
  });

  it("suffixes every member of a colliding group, deterministically and order-independently", () => {
    const group = [req("s", "list-items"), req("s", "list.items"), req("s", "list_items"), req("s", "other")];
    const a = assignNames(group);
    const b = assignNames([...group].reverse());
    const byRaw = (m: Map<string, NameRequest>) => Object.fromEntries([...m].map(([name, r]) => [r.rawName, name]));
    expect(byRaw(a)).toEqual(byRaw(b));
    expect(byRaw(a).other).toBe("mcp_s_other");
    expect(new Set(Object.values(byRaw(a))).size).toBe(4);
  });

  it("a wrapper and a tool of the same name both get suffixes", () => {
    const names = assignNames([req("s", "list_resources"), req("s", "list_resources", "s", "list_resources")]);
    expect([...names.keys()].every((n) => /^mcp_s_list_resources_[0-9a-f]{6}$/.test(n))).toBe(true);
    expect(names.size).toBe(2);
  });

  it("shortens over-long names to 64 characters with a hash", () => {
    const long = "x".repeat(100);
    const [name] = [...assignNames([req("server", long)]).keys()];
    expect(name).toHaveLength(64);
    expect(name).toMatch(PROVIDER_NAME_PATTERN);
    expect(name).toMatch(/_[0-9a-f]{6}$/);
  });

  it("two long names sharing a prefix stay distinct", () => {
    const names = assignNames([req("server", `${"y".repeat(80)}a`), req("server", `${"y".repeat(80)}b`)]);
    expect(names.size).toBe(2);
    for (const name of names.keys()) expect(name).toMatch(PROVIDER_NAME_PATTERN);
  });

  it("the same tool on two servers with the same normalised name gets two names", () => {
    const names = assignNames([req("a-b", "t", "id1"), req("a_b", "t", "id2")]);
    expect(new Set([...names.values()].map((r) => r.serverId))).toEqual(new Set(["id1", "id2"]));
  });
});
