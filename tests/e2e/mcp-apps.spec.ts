/**
 * MCP Apps in the chat, with the official example server `@modelcontextprotocol/server-basic-vanillajs`
 * run locally over Streamable HTTP: the app renders inline in an opaque-origin frame, cannot read the
 * app's cookies or page, cannot reach a loopback canary, and its button's tool call waits for the
 * user's approval in the host's own prompt. After a reload the app shows the stored result again.
 */
import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import path from "node:path";
import type { Frame, Page } from "@playwright/test";
import { freePort, waitForPort } from "../helpers/ports";
import { expect, test } from "./helpers/fixtures";
import { newAccount } from "./pages/app";
import { addHttpServerByApi, ChatPage, signUpByApi } from "./pages/chat";
import { InspectorPage } from "./pages/inspector";

test.describe.configure({ timeout: 150_000 });

let server: ChildProcess;
let serverUrl = "";
let canary: http.Server;
let canaryUrl = "";
const canaryHits: string[] = [];

test.beforeAll(async () => {
  const port = await freePort();
  const entry = path.join(process.cwd(), "node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js");
  server = spawn(process.execPath, [entry], { env: { ...process.env, PORT: String(port) }, stdio: "ignore" });
  await waitForPort(port);
  serverUrl = `http://127.0.0.1:${port}/mcp`;
  // Anything the frame manages to send here is a leak: the frame's CSP allows no network at all.
  canary = http.createServer((req, res) => {
    canaryHits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { "access-control-allow-origin": "*" }).end("canary");
  });
  const canaryPort = await freePort();
  await new Promise<void>((resolve) => canary.listen(canaryPort, "127.0.0.1", resolve));
  canaryUrl = `http://127.0.0.1:${canaryPort}/leak`;
});

test.afterAll(async () => {
  server?.kill("SIGTERM");
  await new Promise((resolve) => canary?.close(resolve));
});

/** The app's frame once its HTML is in (the example's "Get Server Time" button exists). */
async function appFrame(page: Page): Promise<Frame> {
  await expect(page.getByTestId("app-iframe")).toBeVisible({ timeout: 45_000 });
  let found: Frame | undefined;
  await expect(async () => {
    found = page.frames().find((f) => f.url().includes("/api/apps/sandbox"));
    expect(found).toBeDefined();
    expect(await found!.locator("#get-time-btn").count()).toBe(1);
  }).toPass({ timeout: 30_000 });
  return found!;
}

test("the official vanillajs app renders sandboxed; its tool call asks first", async ({ page }) => {
  await signUpByApi(page, newAccount("apps"));
  await addHttpServerByApi(page, "timeapp", serverUrl);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.newChat();
  await chat.send("What time is it? [[call:get-time]]");

  // A new server is untrusted: the model's call waits for approval like any other.
  const card = chat.toolCards().first();
  await expect(card).toHaveAttribute("data-state", "waiting for approval", { timeout: 45_000 });
  await card.getByTestId("tool-approve").click();
  await expect(card).toHaveAttribute("data-state", "done", { timeout: 45_000 });

  const iframe = page.getByTestId("app-iframe");
  await expect(iframe).toHaveAttribute("sandbox", "allow-scripts");
  const frame = await appFrame(page);
  // The app got its tool result through the bridge.
  await expect.poll(async () => frame.locator("#server-time").textContent(), { timeout: 30_000 }).toMatch(/^\d{4}-\d\d-\d\dT/);
  const firstTime = await frame.locator("#server-time").textContent();

  // Opaque origin: not the app's, so no cookies, no storage, no access to the chat page.
  expect(await frame.evaluate(() => window.origin)).toBe("null");
  expect((await page.context().cookies()).length).toBeGreaterThan(0);
  const cookie = await frame.evaluate(() => {
    try {
      return document.cookie;
    } catch (error) {
      return `threw ${(error as Error).name}`;
    }
  });
  expect(cookie).toBe("threw SecurityError");
  expect(
    await frame.evaluate(() => {
      try {
        return window.parent.document.title;
      } catch {
        return "blocked";
      }
    }),
  ).toBe("blocked");
  // No network: the loopback canary is never reached.
  const fetched = await frame.evaluate(async (url) => {
    try {
      await fetch(url);
      return "fetched";
    } catch {
      return "blocked";
    }
  }, canaryUrl);
  expect(fetched).toBe("blocked");
  expect(canaryHits).toEqual([]);

  // The app's own button calls get-time: the host asks the user first (untrusted server, policy ask).
  await frame.locator("#get-time-btn").click();
  const prompt = page.getByTestId("app-approval");
  await expect(prompt).toHaveAttribute("data-kind", "tool");
  await expect(prompt).toContainText("get-time");
  await prompt.getByTestId("app-approve").click();
  await expect(prompt).toHaveCount(0);
  await expect.poll(async () => frame.locator("#server-time").textContent(), { timeout: 30_000 }).not.toBe(firstTime);
  await expect(frame.locator("#server-time")).toHaveText(/^\d{4}-\d\d-\d\dT/);

  // A link asks too, and Deny opens nothing.
  const pages = page.context().pages().length;
  await frame.locator("#open-link-btn").click();
  await expect(prompt).toHaveAttribute("data-kind", "link");
  await expect(prompt).toContainText("https://modelcontextprotocol.io/");
  await prompt.getByTestId("app-deny").click();
  await expect(prompt).toHaveCount(0);
  expect(page.context().pages().length).toBe(pages);

  // A message the app wants to send is shown first; Send makes it the user's next message.
  await frame.locator("#message-text").fill("Hello from the app");
  await frame.locator("#send-message-btn").click();
  await expect(prompt).toHaveAttribute("data-kind", "message");
  await expect(prompt).toContainText("Hello from the app");
  await prompt.getByTestId("app-approve").click();
  await expect(page.getByTestId("message-user").last()).toContainText("Hello from the app");
  await expect(chat.lastAssistant()).toContainText("You said: Hello from the app", { timeout: 45_000 });
  await chat.waitIdle();

  // The frame's page carries its own sandboxing CSP (the proxy's nonce policy and DENY framing are not applied).
  const sandbox = await page.context().request.get("/api/apps/sandbox?csp=%7B%7D");
  expect(sandbox.headers()["content-security-policy"]).toMatch(/^sandbox allow-scripts; default-src 'none'/);
  expect(sandbox.headers()["content-security-policy"]).toContain("connect-src 'none'");
  expect(sandbox.headers()["x-frame-options"]).toBeUndefined();

  // Each of the app's requests was audited with the user's answer.
  const api = page.context().request;
  const workspaces = (await (await api.get("/api/workspaces")).json()) as { id: string; personal: boolean }[];
  const personal = workspaces.find((w) => w.personal)!;
  const audit = (await (await api.get(`/api/workspaces/${personal.id}/audit?limit=50`)).json()) as {
    entries: { action: string; detail: Record<string, unknown> }[];
  };
  const appEntries = audit.entries.filter((e) => e.action.startsWith("app.")).map((e) => `${e.action}:${e.detail.decision}`);
  expect(appEntries).toEqual(expect.arrayContaining(["app.tool_call:approved", "app.open_link:declined", "app.message:sent"]));

  // After a reload the app comes back with the stored call's result.
  await page.reload();
  const again = await appFrame(page);
  await expect(again.locator("#server-time")).toHaveText(firstTime ?? "", { timeout: 30_000 });
});

test("the server inspector shows a tool's app after a call by hand, in the same sandboxed frame", async ({ page }) => {
  await signUpByApi(page, newAccount("apps-inspector"));
  await addHttpServerByApi(page, "timeapp", serverUrl);
  const inspector = new InspectorPage(page);
  await inspector.openFromServers("timeapp");
  await expect(inspector.state()).toHaveText("connected", { timeout: 30_000 });

  await page.getByTestId("tool-get-time").click();
  await page.getByTestId("call-tool").click();
  // Untrusted server: the hand call is confirmed first, like the model's.
  await page.getByTestId("confirm-call-yes").click();
  await expect(page.getByTestId("result-status")).toHaveText("ok");

  const panel = page.getByTestId("inspector-app");
  await expect(panel.getByTestId("app-iframe")).toHaveAttribute("sandbox", "allow-scripts");
  const frame = await appFrame(page);
  await expect.poll(async () => frame.locator("#server-time").textContent(), { timeout: 30_000 }).toMatch(/^\d{4}-\d\d-\d\dT/);
  expect(await frame.evaluate(() => window.origin)).toBe("null");
});
