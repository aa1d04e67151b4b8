/**
 * Refusals through the running app (issues 28 and 29): a server config that sets `Host` is refused
 * by the API with a field error; Connect against a hostile authorization server
 * (tests/fixtures/oauth/hostile-as.mjs) answers 4xx/502 with its code and one sentence for every
 * bad-metadata variant, never 500; a tool result full of credentials is masked in the chat's result
 * view until the user asks for the raw result.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { CANARIES } from "../fixtures/canaries.mjs";
import { freePort, waitForPort } from "../helpers/ports";
import { expect, test } from "./helpers/fixtures";
import { newAccount } from "./pages/app";
import { addHttpServerByApi, ChatPage, signUpByApi } from "./pages/chat";

test.describe.configure({ timeout: 120_000 });

const children: ChildProcess[] = [];
/** Start a fixture script with PORT and wait until it listens. */
async function startFixture(script: string): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(process.cwd(), script)], {
    env: { ...process.env, PORT: String(port) },
    stdio: "ignore",
  });
  children.push(child);
  await waitForPort(port);
  return `http://127.0.0.1:${port}`;
}

test.afterAll(() => {
  for (const child of children) child.kill("SIGTERM");
});

test("a config Host header is refused by the API with a field error", async ({ page }) => {
  await signUpByApi(page, newAccount("host-header"));
  const response = await page.context().request.post("/api/servers", {
    data: { name: "rerouted", config: { url: "http://127.0.0.1:9/mcp", headers: { Host: "internal-admin.example" } } },
  });
  expect(response.status()).toBe(400);
  const body = await response.json();
  expect(body.code).toBe("server.invalid_config");
  expect(body.field).toMatch(/headers\.Host$/);
  expect(body.message).toContain("`Host`");
});

test("Connect against a hostile authorization server answers with a code and one sentence, never 500", async ({ page }) => {
  const base = await startFixture("tests/fixtures/oauth/hostile-as.mjs");
  await signUpByApi(page, newAccount("hostile-as"));
  const request = page.context().request;
  const cases: Array<[string, number, string]> = [
    ["issuer-mismatch", 400, "oauth.issuer_mismatch"],
    ["javascript-endpoint", 502, "oauth.invalid_metadata"],
    ["data-endpoint", 502, "oauth.invalid_metadata"],
    ["wrong-shape", 502, "oauth.invalid_metadata"],
    ["not-json", 502, "oauth.invalid_metadata"],
    ["split-origins", 502, "oauth.endpoint_origin_mismatch"],
    ["huge", 502, "net.response_too_large"],
    ["crlf-client", 502, "oauth.invalid_registration"],
    ["script-client", 502, "oauth.invalid_registration"],
  ];
  for (const [variant, status, code] of cases) {
    const created = await request.post("/api/servers", {
      data: { name: `as-${variant}`, config: { url: `${base}/${variant}/mcp`, auth: "oauth" } },
    });
    expect(created.status(), variant).toBe(201);
    const { id } = await created.json();
    const started = await request.post("/api/oauth/start", { data: { serverId: id } });
    const body = await started.json();
    expect({ variant, status: started.status(), code: body.code }).toEqual({ variant, status, code });
    expect(body.message).not.toMatch(/[\r\n]/);
    expect(body.message).not.toContain("<script>");
  }
  // The well-behaved variant still gets a redirect: the refusals are the server's, not Connect's.
  const created = await request.post("/api/servers", { data: { name: "as-ok", config: { url: `${base}/ok/mcp`, auth: "oauth" } } });
  const started = await request.post("/api/oauth/start", { data: { serverId: (await created.json()).id } });
  expect(started.status()).toBe(200);
  expect((await started.json()).status).toBe("redirect");
});

test("credentials in a tool result are masked in the result view until the user asks for the raw result", async ({ page }) => {
  const base = await startFixture("tests/fixtures/mcp/canary-server.mjs");
  await signUpByApi(page, newAccount("canary-view"));
  const id = await addHttpServerByApi(page, "canary", `${base}/mcp`);
  expect((await page.context().request.put(`/api/servers/${id}/trust`, { data: { trusted: true } })).ok()).toBe(true);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.newChat();
  await chat.send("[[call:leak_text]]");
  const card = chat.toolCards().first();
  await expect(card).toHaveAttribute("data-state", "done", { timeout: 45_000 });
  await card.locator("summary").click();
  const text = card.getByTestId("tool-text");
  await expect(text).toContainText("report:");
  await expect(text).toContainText("[REDACTED]");
  for (const canary of CANARIES) await expect(card).not.toContainText(canary.secret);
  await card.getByTestId("tool-result-raw").click();
  await expect(text).toContainText(CANARIES[0].secret);
  await card.getByTestId("tool-result-raw").click();
  await expect(text).not.toContainText(CANARIES[0].secret);
  // The answer the model wrote from the result never quotes a credential either.
  for (const canary of CANARIES) await expect(chat.lastAssistant()).not.toContainText(canary.secret);
});
