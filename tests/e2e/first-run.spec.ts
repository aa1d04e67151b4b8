import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort } from "../helpers/ports";
import { freshDatabaseEnv } from "./helpers/database";
import { newAccount, waitForHydration } from "./pages/app";

// A second, fresh instance of the built app (its own data dir and port, and on Postgres its own empty
// database), started the way an administrator starts it, bound to loopback with HOSTNAME.
let server: ChildProcess | undefined;
let log = "";
let base = "";
let dataDir = "";
let port = 0;

test.beforeAll(async () => {
  port = await freePort();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-first-run-"));
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOSTNAME: "127.0.0.1",
    SWITCHBOARD_DATA_DIR: dataDir,
    ...(await freshDatabaseEnv("first_run")),
  };
  delete env.NEXTAUTH_URL;
  delete env.SWITCHBOARD_PUBLIC_URL;
  server = spawn(process.execPath, ["scripts/start.mjs"], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  server.stdout?.on("data", (chunk) => (log += chunk));
  server.stderr?.on("data", (chunk) => (log += chunk));
  await expect
    .poll(async () => (await fetch(`${base}/api/health`).catch(() => null))?.status, { timeout: 120_000, intervals: [500] })
    .toBe(200);
});

test.afterAll(() => {
  // The whole process group: start.mjs and the `next start` it runs.
  if (server?.pid) process.kill(-server.pid, "SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("a fresh instance prints a setup code, asks for it, and the first account uses it up", async ({ browser }) => {
  const code = /setup code: ([0-9A-Z-]+)/.exec(log)?.[1] ?? "";
  expect(code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}-[0-9A-Z]{5}$/);
  expect(log).toContain("public URL");
  const file = path.join(dataDir, "setup-code");
  expect(fs.readFileSync(file, "utf8").trim()).toBe(code);
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);

  const admin = newAccount("first");
  const post = (body: Record<string, string>) =>
    fetch(`${base}/api/auth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const without = await post(admin);
  expect(without.status).toBe(403);
  expect(await without.json()).toMatchObject({ code: "auth.setup_code", field: "setupCode" });
  expect((await post({ ...admin, setupCode: "22222-22222-22222" })).status).toBe(403);

  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  await page.goto("/signin");
  await expect(page.getByTestId("first-run-note")).toContainText("find the setup code in the server log");
  await page.goto("/register");
  await waitForHydration(page);
  await page.getByLabel("Setup code").fill(code);
  await page.getByLabel("Name").fill(admin.name);
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel(/Password/).fill(admin.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("current-user")).toContainText("admin");

  // Used up: the file is gone, the pages no longer ask, and the code makes no second administrator.
  expect(fs.existsSync(file)).toBe(false);
  await page.goto("/account");
  // No public URL is set: OAuth redirects go back to the loopback address this page is on.
  await expect(page.getByTestId("public-url")).toContainText(`${base}/api/oauth/callback`);
  const second = newAccount("second");
  expect((await post({ ...second, setupCode: code })).status).toBe(201);
  const other = await browser.newContext({ baseURL: base });
  const otherPage = await other.newPage();
  await otherPage.goto("/signin");
  await waitForHydration(otherPage);
  await expect(otherPage.getByTestId("first-run-note")).toHaveCount(0);
  await otherPage.getByLabel("Email").fill(second.email);
  await otherPage.getByLabel("Password").fill(second.password);
  await otherPage.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(otherPage.getByTestId("current-user")).toContainText(second.name);
  await expect(otherPage.getByTestId("current-user")).not.toContainText("admin");
  await Promise.all([context.close(), other.close()]);
});

test("HOSTNAME=127.0.0.1 keeps the server off every other interface", async () => {
  const external = Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === "IPv4" && !a.internal)?.address;
  test.skip(!external, "this machine has no non-loopback IPv4 interface to try");
  const connected = await new Promise<boolean>((resolve) => {
    const socket = net.connect(port, external as string, () => {
      socket.end();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
  expect(connected).toBe(false);
});
