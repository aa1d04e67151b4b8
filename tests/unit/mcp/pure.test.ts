/** Table tests for the engine's small pure modules: filter, backoff, env, results, metrics, hashes. */
import { describe, expect, it } from "vitest";
import { backoffDelay, backoffSchedule } from "@/lib/mcp/backoff";
import { CallQueue } from "@/lib/mcp/call-queue";
import { childEnvironment } from "@/lib/mcp/child-env";
import { parseServerConfig } from "@/lib/mcp/config";
import { configHash } from "@/lib/mcp/config-hash";
import { collectPages } from "@/lib/mcp/discovery";
import { EngineError } from "@/lib/mcp/errors";
import { isToolAllowed } from "@/lib/mcp/filter";
import { silentLogger } from "@/lib/mcp/logger";
import { percentile, MetricsRecorder } from "@/lib/mcp/metrics";
import { errorOutcome, forModel, outcomeOf } from "@/lib/mcp/results";
import { RingBuffer } from "@/lib/mcp/ring-buffer";

describe("isToolAllowed", () => {
  it.each([
    ["no filter", undefined, "a", true],
    ["include lists it", { include: ["a"] }, "a", true],
    ["include omits it", { include: ["b"] }, "a", false],
    ["exclude lists it", { exclude: ["a"] }, "a", false],
    ["exclude omits it", { exclude: ["b"] }, "a", true],
    ["include wins over exclude", { include: ["a"], exclude: ["a"] }, "a", true],
    ["raw names, not normalised", { include: ["list-items"] }, "list_items", false],
  ])("%s", (_name, filter, tool, expected) => expect(isToolAllowed(tool, filter)).toBe(expected));
});

describe("backoff", () => {
  it("follows 1, 2, 4, 8, 16 s then stops", () => {
    expect(backoffSchedule()).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(backoffDelay(0)).toBeNull();
    expect(backoffDelay(6)).toBeNull();
  });
  it("never exceeds the cap", () => {
    expect(backoffSchedule({ initialMs: 1000, factor: 10, capMs: 60_000, maxAttempts: 4 })).toEqual([1000, 10_000, 60_000, 60_000]);
  });
});

describe("childEnvironment", () => {
  it("keeps only the allow-list and XDG_*, then adds config env", () => {
    const env = childEnvironment(
      { EXTRA: "1", PATH: "/custom" },
      { PATH: "/bin", HOME: "/h", OPENAI_API_KEY: "sk-x", XDG_CONFIG_HOME: "/c", NEXTAUTH_SECRET: "s", LC_ALL: "C", AWS_SECRET: "a" },
    );
    expect(env).toEqual({ PATH: "/custom", HOME: "/h", XDG_CONFIG_HOME: "/c", LC_ALL: "C", EXTRA: "1" });
  });
});

describe("forModel", () => {
  it.each([
    ["structuredContent wins", { content: [{ type: "text", text: "t" }], structuredContent: { a: 1 } }, { result: { a: 1 } }],
    [
      "text joined",
      {
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      },
      { result: "a\nb" },
    ],
    [
      "content array otherwise",
      { content: [{ type: "image", data: "AAAA", mimeType: "image/png" }] },
      { result: [{ type: "image", data: "AAAA", mimeType: "image/png" }] },
    ],
    ["isError → error text", { content: [{ type: "text", text: "bad input" }], isError: true }, { error: "bad input" }],
    [
      "isError redacted",
      { content: [{ type: "text", text: "token=abcd1234 failed" }], isError: true },
      { error: "token=[REDACTED] failed" },
    ],
    ["server secret redacted", { content: [{ type: "text", text: "used s3cr3t-value" }], isError: true }, { error: "used [REDACTED]" }],
  ])("%s", (_name, result, expected) => expect(forModel(result as never, ["s3cr3t-value"])).toEqual(expected));

  it("redacts isError text in the UI content as well", () => {
    const out = outcomeOf({ content: [{ type: "text", text: `key ghp_${"a".repeat(36)}` }], isError: true }, 5, []);
    expect(JSON.stringify(out.content)).not.toContain("ghp_aaa");
  });

  it("engine errors become error outcomes with a code", () => {
    const out = errorOutcome(new EngineError("call_timeout", "slow with Bearer abc.def"), 7);
    expect(out).toMatchObject({
      isError: true,
      errorCode: "call_timeout",
      durationMs: 7,
      forModel: { error: "slow with Bearer [REDACTED]" },
    });
  });
});

describe("metrics", () => {
  it("nearest-rank percentiles over a bounded window", () => {
    expect(percentile([], 0.5)).toBeNull();
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(percentile([1, 2, 3, 4], 0.95)).toBe(4);
    const m = new MetricsRecorder(3);
    for (const [ms, failed] of [
      [100, false],
      [1, true],
      [2, false],
      [3, false],
    ] as const)
      m.record(ms, failed);
    expect(m.snapshot()).toEqual({ calls: 4, errors: 1, p50Ms: 2, p95Ms: 3 });
  });
});

describe("RingBuffer", () => {
  it("keeps only the last bytes", () => {
    const ring = new RingBuffer(5);
    ring.write("abc");
    ring.write("defgh");
    expect(ring.text()).toBe("defgh");
    ring.write("ij");
    expect(ring.text()).toBe("fghij");
  });
});

describe("configHash", () => {
  it("ignores key order and bool-like spelling, notices real changes", () => {
    const a = { id: "x", name: "x", config: parseServerConfig({ command: "a", enabled: "yes", args: ["1"] }) };
    const b = { id: "x", name: "x", config: parseServerConfig({ args: ["1"], enabled: true, command: "a" }) };
    const c = { id: "x", name: "x", config: parseServerConfig({ command: "a", args: ["2"] }) };
    expect(configHash(a)).toBe(configHash(b));
    expect(configHash(a)).not.toBe(configHash(c));
  });
});

describe("collectPages", () => {
  it("follows cursors and fails clearly past the page, item and byte bounds or on a cursor loop", async () => {
    const pages = (n: number) => async (cursor: string | undefined) => {
      const i = cursor ? Number(cursor) : 0;
      return { items: [i], nextCursor: i + 1 < n ? String(i + 1) : undefined };
    };
    expect(await collectPages(pages(3), "x", silentLogger)).toEqual([0, 1, 2]);
    await expect(collectPages(pages(100), "x", silentLogger, { maxPages: 5, maxItems: 100 })).rejects.toThrow(
      /more than 5 pages.*SWITCHBOARD_MCP_MAX_LIST_PAGES/,
    );
    await expect(collectPages(pages(100), "tools/list", silentLogger, { maxPages: 50, maxItems: 3 })).rejects.toMatchObject({
      code: "limit_exceeded",
      message: expect.stringMatching(/more than 3 items.*SWITCHBOARD_MCP_MAX_TOOLS/),
    });
    await expect(collectPages(pages(100), "x", silentLogger, { maxPages: 50, maxItems: 100, maxBytes: 10 })).rejects.toThrow(
      /larger than 10 bytes/,
    );
    const loop = async () => ({ items: [1], nextCursor: "same" });
    await expect(collectPages(loop, "x", silentLogger)).rejects.toThrow(/repeated a cursor/);
  });
});

describe("CallQueue", () => {
  it("runs serial tasks in order even after a failure", async () => {
    const queue = new CallQueue(false);
    const log: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        log.push(`start ${name}`);
        await new Promise((r) => setTimeout(r, 5));
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([queue.run(task("a", true)), queue.run(task("b"))]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "fulfilled"]);
    expect(log).toEqual(["start a", "end a", "start b", "end b"]);
  });
});
