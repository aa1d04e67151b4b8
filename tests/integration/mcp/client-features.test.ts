/**
 * The rest of the 2025-11-25 client side in the engine, against server-everything over stdio:
 * server instructions for the host, logging/setLevel with notifications/message kept in the
 * connection's bounded redacted log, and resource subscriptions with notifications/resources/updated.
 */
import { afterAll, describe, expect, it } from "vitest";
import { McpPool } from "@/lib/mcp";
import { def, EVERYTHING, waitUntil } from "./helpers";

describe("2025-11-25 client features in the engine (server-everything)", () => {
  const pool = new McpPool();
  const server = def("everything", { command: process.execPath, args: [EVERYTHING, "stdio"] });
  afterAll(() => pool.closeAll());

  it("makes the server's instructions available to the host", async () => {
    const instructions = await pool.session("alice", server).instructions();
    expect(instructions).toEqual(expect.any(String));
    expect(instructions?.length).toBeGreaterThan(20);
  });

  it("sets the log level and keeps the server's log messages for the connection", async () => {
    await pool.session("alice", server).setLogLevel("debug");
    expect((await pool.session("alice", server).callTool("toggle-simulated-logging")).isError).toBe(false);
    await waitUntil(() => pool.session("alice", server).serverLog().length > 0, 10_000, "a log message");
    const [entry] = pool.session("alice", server).serverLog();
    expect(entry).toMatchObject({ level: expect.any(String), text: expect.stringMatching(/message/) });
    // Another user's connection has its own, empty log.
    expect(pool.session("bob", server).serverLog()).toEqual([]);
    await pool.session("alice", server).callTool("toggle-simulated-logging");
  });

  it("subscribes to a resource and receives its updates until unsubscribed", async () => {
    const [resource] = await pool.session("alice", server).listResources();
    const updates: string[] = [];
    const unsubscribe = await pool.session("alice", server).subscribeResource(resource.uri, (uri) => updates.push(uri));
    expect((await pool.session("alice", server).callTool("toggle-subscriber-updates")).isError).toBe(false);
    await waitUntil(() => updates.length > 0, 10_000, "a resource update");
    expect(updates[0]).toBe(resource.uri);
    await unsubscribe();
    await pool.session("alice", server).callTool("toggle-subscriber-updates");
  });
});
