/**
 * `GET /api/health/ready` for a load balancer: 200 while the process takes requests and reaches its
 * database, 503 `draining` from the first step of a signal's shutdown (before the MCP connections
 * close), so new requests go to the other replicas while this one finishes.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

// Route modules are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

let dir: string;
beforeAll(() => {
  dir = useTempDataDir();
});
afterAll(() => removeTempDataDir(dir));

describe("readiness", () => {
  it("answers 200 with the database reachable, then 503 draining once the shutdown began; liveness stays 200", async () => {
    const ready = await import("@/app/api/health/ready/route");
    const live = await import("@/app/api/health/route");
    const shutdown = await import("@/lib/shutdown");
    const first = await ready.GET();
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(await first.json()).toMatchObject({ ok: true, database: "ok" });

    shutdown.beginDraining();
    const draining = await ready.GET();
    expect(draining.status).toBe(503);
    expect(await draining.json()).toMatchObject({ ok: false, draining: true });
    // Liveness is another question: the process is alive and finishing its work.
    expect((await live.GET()).status).toBe(200);
  });

  it("a signal marks the process draining before anything closes", async () => {
    vi.resetModules();
    delete (globalThis as Record<symbol, unknown>)[Symbol.for("switchboard.draining")];
    delete (globalThis as Record<symbol, unknown>)[Symbol.for("switchboard.shutdownHandlers")];
    const shutdown = await import("@/lib/shutdown");
    const handlers = new Map<string, () => void>();
    const once = vi.spyOn(process, "once").mockImplementation(((event: string, handler: () => void) => {
      handlers.set(event, handler);
      return process;
    }) as typeof process.once);
    const exit = vi.spyOn(process, "exit").mockImplementation((() => undefined) as typeof process.exit);
    try {
      let drainingWhenClosing: boolean | undefined;
      shutdown.closeOnSignals(async () => {
        drainingWhenClosing = shutdown.isDraining();
      });
      expect(shutdown.isDraining()).toBe(false);
      handlers.get("SIGTERM")?.();
      await vi.waitFor(() => expect(exit).toHaveBeenCalledWith(143));
      expect(drainingWhenClosing).toBe(true);
    } finally {
      once.mockRestore();
      exit.mockRestore();
      delete (globalThis as Record<symbol, unknown>)[Symbol.for("switchboard.shutdownHandlers")];
    }
  });
});
