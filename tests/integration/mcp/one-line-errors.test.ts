/**
 * Errors in one line, with the hint that fixes them (docs/errors.md): a wrong-shape JSON-RPC reply
 * is reported as the field at fault, never a multi-line Zod dump; a saved server the SSRF guard
 * refuses gets the same allow-list sentence as Test connection (one function makes both).
 */
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { testServerConnection } from "@/lib/use-cases/test-connection";
import { McpPool } from "@/lib/mcp";
import { createGuardedFetch } from "@/lib/net";
import { FIXTURES, def } from "./helpers";

// lib/runtime's and lib/use-cases' modules are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

const pools: McpPool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.closeAll()));
});
function pool(): McpPool {
  const made = new McpPool({ fetch: createGuardedFetch() }); // the guard with an empty allow-list
  pools.push(made);
  return made;
}

describe("one-line errors", () => {
  it("reports a wrong-shape tools/list reply as the field at fault, on one line", async () => {
    const server = def("wrongshape", { command: process.execPath, args: [path.join(FIXTURES, "wrong-shape-server.mjs")] });
    const [status] = await pool().discover("u", [server]);
    expect(status.state).toBe("failed");
    const message = status.lastError?.message ?? "";
    expect(message).toContain("`tools`");
    expect(message).toContain("tools/list");
    expect(message).not.toMatch(/[\r\n]/);
    expect(message).not.toContain('"code"');
  });

  it.each(["/mcp", "/sse"])("gives a saved server (%s) the allow-list hint Test connection gives", async (suffix) => {
    const url = `http://127.0.0.1:9${suffix}`;
    const [status] = await pool().discover("u", [def("internal", { url })]);
    expect(status.lastError?.code).toBe("unreachable");
    const saved = status.lastError?.message ?? "";
    expect(saved).toContain("127.0.0.1 is loopback");
    expect(saved).toContain("SWITCHBOARD_ALLOWED_HOSTS=127.0.0.1");

    const tested = await testServerConnection({ id: "u", isAdmin: false, workspaceId: "w", role: "owner" } as never, {
      name: "internal",
      config: { url },
    });
    expect(tested.state).toBe("blocked");
    // The same sentence after the subject: one function produces both.
    const tail = (text: string) => text.slice(text.indexOf("is refused:"));
    expect(tail(saved)).toBe(tail(tested.message));
  });
});
