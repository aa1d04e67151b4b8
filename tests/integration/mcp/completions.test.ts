/**
 * Completions through the engine (docs/protocol.md#completions) against server-everything's
 * resource templates over stdio: a template variable completes, and references the server never
 * listed are refused before anything is sent.
 */
import { afterAll, describe, expect, it } from "vitest";
import { McpPool } from "@/lib/mcp";
import { def, EVERYTHING } from "./helpers";

const pool = new McpPool();
afterAll(() => pool.closeAll());
const server = def("everything", { command: process.execPath, args: [EVERYTHING, "stdio"] });
const TEXT_TEMPLATE = "demo://resource/dynamic/text/{resourceId}";

describe("completions", () => {
  it("completes a resource template's variable", async () => {
    const result = await pool
      .session("u1", server)
      .complete({ type: "ref/resource", uri: TEXT_TEMPLATE }, { name: "resourceId", value: "1" });
    expect(result.completion.values).toEqual(["1"]);
    expect(result.completion.hasMore).toBe(false);
  }, 30_000);

  it("completes a prompt argument", async () => {
    const result = await pool
      .session("u1", server)
      .complete({ type: "ref/prompt", name: "completable-prompt" }, { name: "department", value: "E" });
    expect(result.completion.values).toContain("Engineering");
  }, 30_000);

  it("refuses a template the server did not list, or a variable it does not have", async () => {
    await expect(
      pool.session("u1", server).complete({ type: "ref/resource", uri: "demo://resource/other/{id}" }, { name: "id", value: "" }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(
      pool.session("u1", server).complete({ type: "ref/resource", uri: TEXT_TEMPLATE }, { name: "path", value: "" }),
    ).rejects.toMatchObject({ code: "not_found", message: expect.stringContaining('no variable "path"') });
  }, 30_000);
});
