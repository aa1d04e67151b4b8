/**
 * Limits through the running app: one user's hostile server (a 60 MB tool list, a notification
 * flood) fails clearly on the Servers page while /api/health keeps answering and another user's
 * tool calls keep working; an oversized request body is refused with 413.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { freePort, waitForPort } from "../helpers/ports";
import { expect, test } from "./helpers/fixtures";
import { newAccount, ServersPage } from "./pages/app";
import { addHttpServerByApi, signUpByApi } from "./pages/chat";

test.describe.configure({ timeout: 120_000 });

let hostile: ChildProcess;
let hostileBase = "";

test.beforeAll(async () => {
  const port = await freePort();
  hostile = spawn(process.execPath, [path.join(process.cwd(), "tests/fixtures/mcp/hostile-http.mjs")], {
    env: { ...process.env, PORT: String(port) },
    stdio: "ignore",
  });
  await waitForPort(port);
  hostileBase = `http://127.0.0.1:${port}`;
});

test.afterAll(() => {
  hostile?.kill("SIGTERM");
});

test("a hostile server fails clearly while health and another user's calls keep working", async ({ browser, everything }) => {
  const neighbourContext = await browser.newContext();
  const neighbour = await neighbourContext.newPage();
  await signUpByApi(neighbour, newAccount("neighbour"));
  const goodId = await addHttpServerByApi(neighbour, "everything", everything.url);

  const hostileContext = await browser.newContext();
  const page = await hostileContext.newPage();
  await signUpByApi(page, newAccount("hostile"));
  const bigId = await addHttpServerByApi(page, "biglist", `${hostileBase}/mcp/big-list`, false);
  const floodId = await addHttpServerByApi(page, "flood", `${hostileBase}/mcp/flood`, false);

  let running = true;
  const health = { ok: 0, failed: 0 };
  const calls = { ok: 0, failed: 0 };
  const healthLoop = (async () => {
    while (running) {
      const response = await neighbour.request.get("/api/health").catch(() => null);
      if (response?.ok()) health.ok++;
      else health.failed++;
    }
  })();
  const callLoop = (async () => {
    while (running) {
      const response = await neighbour.request.post(`/api/servers/${goodId}/tools/call`, {
        data: { name: "echo", arguments: { message: "hi" } },
      });
      const body = await response.json();
      if (response.ok() && !body.isError) calls.ok++;
      else calls.failed++;
    }
  })();

  // The hostile user opens the Servers page: both servers connect (HTTP servers connect when shown).
  await page.goto("/chat");
  const servers = new ServersPage(page);
  await servers.open();
  const bigCard = page.getByTestId("server-biglist");
  await expect(bigCard.getByTestId("server-state")).toHaveText("failed", { timeout: 60_000 });
  await expect(bigCard).toContainText("SWITCHBOARD_MCP_MAX_MESSAGE_BYTES");
  const status = await (await page.request.get(`/api/servers/${bigId}/status`)).json();
  expect(status.lastError.code).toBe("limit_exceeded");
  // The flooding server stays usable and its dropped notifications are visible in its status.
  await expect
    .poll(async () => (await (await page.request.get(`/api/servers/${floodId}/status`)).json()).limits?.droppedNotifications ?? 0, {
      timeout: 60_000,
    })
    .toBeGreaterThan(0);
  await page.reload();
  await expect(page.getByTestId("server-flood").getByTestId("server-limits")).toContainText("notifications dropped", { timeout: 60_000 });

  running = false;
  await Promise.all([healthLoop, callLoop]);
  expect(health.failed).toBe(0);
  expect(health.ok).toBeGreaterThan(0);
  expect(calls.failed).toBe(0);
  expect(calls.ok).toBeGreaterThan(0);
  await neighbourContext.close();
  await hostileContext.close();
});

test("a request body over the cap is refused with 413", async ({ page }) => {
  await signUpByApi(page, newAccount("bodycap"));
  const response = await page.request.post("/api/servers", {
    data: { name: "x", config: { url: "https://example.com/mcp", headers: { big: "x".repeat(2_000_000) } } },
  });
  expect(response.status()).toBe(413);
  expect((await response.json()).code).toBe("request.too_large");
});
