/** The per-connection server log: bounded, and redacted before anything is kept. */
import { describe, expect, it } from "vitest";
import { ServerLog } from "@/lib/mcp/server-log";

describe("ServerLog", () => {
  it("drops the oldest entries beyond its bound", () => {
    const log = new ServerLog([], 3);
    for (let i = 0; i < 5; i++) log.add({ level: "info", data: `m${i}` }, i);
    expect(log.list().map((e) => e.text)).toEqual(["m2", "m3", "m4"]);
  });

  it("redacts the config's secrets and credential-looking values, also inside structured data", () => {
    const log = new ServerLog(["hunter2-secret-value"]);
    const entry = log.add({ level: "error", logger: "db", data: { msg: "login with hunter2-secret-value failed" } }, 1);
    expect(entry.text).not.toContain("hunter2-secret-value");
    expect(entry).toMatchObject({ level: "error", logger: "db", at: 1 });
  });
});
