/**
 * Error -32042 (URL elicitation required): the engine asks the user through the host to complete
 * the URL elicitation, then retries the call once; a declined elicitation leaves the error.
 */
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { McpPool, type ElicitationHandler } from "@/lib/mcp";
import { def, FIXTURES } from "./helpers";

const pools: McpPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.closeAll()));
});

const server = () => def("linker", { command: process.execPath, args: [path.join(FIXTURES, "url-elicitation-server.mjs")] });

describe("URL elicitation required (-32042)", () => {
  it("retries the call after the user completes the elicitation", async () => {
    const asked: unknown[] = [];
    const onElicitation: ElicitationHandler = async (_user, _server, params) => {
      asked.push(params);
      return { action: "accept" };
    };
    const pool = new McpPool({ onElicitation });
    pools.push(pool);
    const outcome = await pool.session("u1", server()).callTool("link_account", {});
    expect(outcome.isError).toBe(false);
    expect(outcome.forModel).toEqual({ result: "linked after 2 calls" });
    expect(asked).toEqual([expect.objectContaining({ mode: "url", url: "https://accounts.example.com/link?session=abc" })]);
  });

  it("keeps the error when the user declines", async () => {
    const pool = new McpPool({ onElicitation: async () => ({ action: "decline" }) });
    pools.push(pool);
    const outcome = await pool.session("u1", server()).callTool("link_account", {});
    expect(outcome.isError).toBe(true);
    expect(JSON.stringify(outcome.forModel)).toMatch(/complete the URL elicitation/);
  });
});
