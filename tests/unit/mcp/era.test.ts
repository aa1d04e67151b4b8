/**
 * Where protocol era verdicts are kept: under the endpoint (not the name or the host's settings),
 * in one cache per process for pools on the real clock.
 */
import { describe, expect, it } from "vitest";
import { realClock, type Clock } from "@/lib/mcp/clock";
import { parseServerConfig } from "@/lib/mcp/config";
import { endpointHash } from "@/lib/mcp/config-hash";
import { erasFor } from "@/lib/mcp/era";
import { resolvePoolOptions } from "@/lib/mcp/pool-options";

describe("endpointHash", () => {
  it("ignores the host's own settings and key order", () => {
    const plain = parseServerConfig({ url: "https://a.example/mcp", headers: { "x-team": "1" } });
    const tuned = parseServerConfig({
      headers: { "x-team": "1" },
      url: "https://a.example/mcp",
      enabled: "yes",
      timeout: 5,
      connect_timeout: 5,
      supports_parallel_tool_calls: true,
      tools: { include: ["echo"], prompts: false },
      sampling: { enabled: true },
      credentials: "shared",
    });
    expect(endpointHash(tuned)).toBe(endpointHash(plain));
  });

  it("changes with what is called or launched", () => {
    const base = endpointHash(parseServerConfig({ url: "https://a.example/mcp" }));
    expect(endpointHash(parseServerConfig({ url: "https://b.example/mcp" }))).not.toBe(base);
    expect(endpointHash(parseServerConfig({ url: "https://a.example/mcp", headers: { authorization: "Bearer x" } }))).not.toBe(base);
    const stdio = endpointHash(parseServerConfig({ command: "node", args: ["server.js"] }));
    expect(endpointHash(parseServerConfig({ command: "node", args: ["other.js"] }))).not.toBe(stdio);
    expect(endpointHash(parseServerConfig({ command: "node", args: ["server.js"], env: { MODE: "2" } }))).not.toBe(stdio);
    expect(endpointHash(parseServerConfig({ command: "node", args: ["server.js"], cwd: "/srv" }))).not.toBe(stdio);
  });
});

describe("erasFor", () => {
  it("gives every pool on the real clock the process's cache, and a pool on its own clock its own", () => {
    expect(resolvePoolOptions().eras).toBe(resolvePoolOptions({ clock: realClock }).eras);
    expect(erasFor(realClock)).toBe(resolvePoolOptions().eras);
    const fake: Clock = { now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined };
    const own = resolvePoolOptions({ clock: fake }).eras;
    expect(own).not.toBe(erasFor(realClock));
    expect(resolvePoolOptions({ clock: fake }).eras).not.toBe(own);
  });
});
