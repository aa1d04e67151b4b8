/**
 * A replica's stop as a load balancer sees it (docs/deployment.md#run-with-a-container): a second
 * instance of the built app with SWITCHBOARD_SHUTDOWN_GRACE_SECONDS=4 gets SIGTERM; from then on
 * `/api/health/ready` answers 503 draining while it still serves (liveness 200, a page still
 * loads), and only after the grace does it stop taking connections and exit 0. Every answer names
 * the replica that served it (`X-Switchboard-Replica`).
 */
import { expect, test } from "@playwright/test";
import { type Instance, startInstance } from "./helpers/instance";

const GRACE_SECONDS = 4;
let instance: Instance;

test.beforeAll(async () => {
  instance = await startInstance("drain", { SWITCHBOARD_SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS) });
  expect((await fetch(`${instance.base}/api/health/ready`)).status).toBe(200);
});

test.afterAll(() => instance?.stop());

test("every answer names the replica that served it: the id the start printed", async () => {
  const id = /switchboard: replica ([0-9a-f]{8})/.exec(instance.log())?.[1];
  expect(id).toBeTruthy();
  expect((await fetch(`${instance.base}/api/health`)).headers.get("x-switchboard-replica")).toBe(id);
  expect((await fetch(`${instance.base}/signin`)).headers.get("x-switchboard-replica")).toBe(id);
});

test("on SIGTERM readiness answers 503 draining at once, the server serves through the grace, then exits 0", async () => {
  const exited = new Promise<number | null>((resolve) => instance.process.once("exit", (code) => resolve(code)));
  const signalled = Date.now();
  instance.process.kill("SIGTERM");

  await expect
    .poll(async () => (await fetch(`${instance.base}/api/health/ready`).catch(() => null))?.status, { timeout: 3_000, intervals: [100] })
    .toBe(503);
  const ready = await fetch(`${instance.base}/api/health/ready`);
  expect(await ready.json()).toMatchObject({ ok: false, draining: true });
  // Still serving: liveness, and a page.
  expect((await fetch(`${instance.base}/api/health`)).status).toBe(200);
  expect((await fetch(`${instance.base}/signin`)).status).toBe(200);

  expect(await exited).toBe(0);
  // Not before the grace (measured from the signal: an upper bound would only measure the machine).
  expect(Date.now() - signalled).toBeGreaterThanOrEqual(GRACE_SECONDS * 1000 - 200);
  await expect(fetch(`${instance.base}/api/health`)).rejects.toThrow();
  expect(instance.log()).not.toMatch(/unhandled|failed \(/i);
});
