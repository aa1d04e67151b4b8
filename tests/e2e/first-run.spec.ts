import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { type Instance, startInstance } from "./helpers/instance";
import { newAccount, waitForHydration } from "./pages/app";

// A second, fresh instance of the built app, started the way an administrator starts it.
let instance: Instance;

test.beforeAll(async () => {
  instance = await startInstance("first_run");
});

test.afterAll(() => instance?.stop());

test("a fresh instance prints a setup code, asks for it, and the first account uses it up", async ({ browser }) => {
  const code = /setup code: ([0-9A-Z-]+)/.exec(instance.log())?.[1] ?? "";
  expect(code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}-[0-9A-Z]{5}$/);
  expect(instance.log()).toContain("public URL");
  const file = path.join(instance.dataDir, "setup-code");
  expect(fs.readFileSync(file, "utf8").trim()).toBe(code);
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);

  const admin = newAccount("first");
  const post = (body: Record<string, string>) =>
    fetch(`${instance.base}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const without = await post(admin);
  expect(without.status).toBe(403);
  expect(await without.json()).toMatchObject({ code: "auth.setup_code", field: "setupCode" });
  expect((await post({ ...admin, setupCode: "22222-22222-22222" })).status).toBe(403);

  const context = await browser.newContext({ baseURL: instance.base });
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
  await expect(page.getByTestId("public-url")).toContainText(`${instance.base}/api/oauth/callback`);
  const second = newAccount("second");
  expect((await post({ ...second, setupCode: code })).status).toBe(201);
  const other = await browser.newContext({ baseURL: instance.base });
  const otherPage = await other.newPage();
  await otherPage.goto("/signin");
  await waitForHydration(otherPage);
  await expect(otherPage.getByTestId("first-run-note")).toHaveCount(0);
  await otherPage.getByLabel("Email").fill(second.email);
  await otherPage.getByLabel("Password").fill(second.password);
  await otherPage.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(otherPage.getByTestId("current-user")).toContainText(second.name);
  await expect(otherPage.getByTestId("current-user")).not.toContainText("admin");
  // Bound to 127.0.0.1, a workspace-scoped path still names its workspace: one the caller is no
  // member of is a 404, never their personal workspace (Next took the rewrite for an external one).
  const scoped = await otherPage.request.get("/api/w/no-such-team/servers");
  expect(scoped.status()).toBe(404);
  expect((await scoped.json()).code).toBe("workspace.not_found");
  await Promise.all([context.close(), other.close()]);
});

test("HOSTNAME=127.0.0.1 keeps the server off every other interface", async () => {
  const external = Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === "IPv4" && !a.internal)?.address;
  test.skip(!external, "this machine has no non-loopback IPv4 interface to try");
  const connected = await new Promise<boolean>((resolve) => {
    const socket = net.connect(instance.port, external as string, () => {
      socket.end();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
  expect(connected).toBe(false);
});
